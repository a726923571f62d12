//! The native solver's hot paths on the Kodkod-paper puzzles (Table 1 of Plagge & Leuschel): load (parse,
//! type-check) + setup-constants with the native backend, first or all solutions as the table asks.
//! `cargo bench --bench solver`; the per-model targets are in benchmarks/RESULTS.md.

use bsolve::check::setup::setup_constants;
use bsolve::check::{Model, Options};
use bsolve::solve::Backend;
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The allocator of the `bsolve` binary (src/main.rs), so that the figures are what a user's run gets.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Model, number of solutions asked for (`usize::MAX` = all), expected number found.
const CASES: &[(&str, usize, usize)] = &[
    ("SendMoreMoney.mch", usize::MAX, 1),
    ("NQueens.mch", 1, 1),
    ("WhoKilledAgatha.mch", usize::MAX, 6),
    ("GraphColouring.mch", 1, 1),
    ("GraphColouringEnum.mch", 1, 1),
    ("GraphIsomorphism.mch", 1, 1),
    ("SieveStepComprehension.mch", usize::MAX, 1),
    ("SetUnion.mch", usize::MAX, 1),
    ("CrewAllocation.mch", 1, 1),
    ("Loop.mch", usize::MAX, 7),
];

fn solve(path: &Path, limit: usize) -> usize {
    let options = Options {
        backend: Backend::Native,
        ..Options::default()
    };
    let model = Model::load(path, &options).expect("model loads");
    setup_constants(&model, limit)
        .expect("setup-constants")
        .solutions
        .len()
}

fn table1(c: &mut Criterion) {
    let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut group = c.benchmark_group("native");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    for &(name, limit, expected) in CASES {
        let path = models.join(name);
        assert_eq!(solve(&path, limit), expected, "{name}");
        group.bench_function(name, |b| b.iter(|| solve(&path, limit)));
    }
    group.finish();
}

criterion_group!(benches, table1);
criterion_main!(benches);
