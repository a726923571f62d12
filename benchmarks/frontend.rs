//! Parse + type-check of the whole external corpus (target: ≤ 3 s on the 2-core machine).
//! `cargo bench --bench frontend`; needs ../shared/corpus.

use bsolve::{machine, types};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The allocator of the `bsolve` binary (src/main.rs), so that the figures are what a user's run gets.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn corpus_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p
                .extension()
                .is_some_and(|e| e == "mch" || e == "ref" || e == "imp")
            {
                out.push(p);
            }
        }
    }
    let mut files = vec![];
    walk(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/models"),
        &mut files,
    );
    files
}

fn parse_and_check_corpus(c: &mut Criterion) {
    let files = corpus_files();
    assert!(!files.is_empty(), "../shared/corpus/models not found");
    let mut group = c.benchmark_group("corpus");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function(format!("parse+typecheck {} machines", files.len()), |b| {
        b.iter(|| {
            let mut checked = 0;
            for f in &files {
                if let Ok(ast) = machine::load(f)
                    && types::check_machine(&ast).is_ok()
                {
                    checked += 1;
                }
            }
            checked
        })
    });
    group.finish();
}

criterion_group!(benches, parse_and_check_corpus);
criterion_main!(benches);
