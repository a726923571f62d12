//! Interpreter speed on the sieve step of the Kodkod paper: the difference of a 100,000-element interval
//! and the 50,000-element range of a lambda (target ≤ 0.2 s; ProB ≈ 2.1 s).
//! `cargo bench --bench interpreter`.

use bsolve::check::evaluate::{EvalOutcome, evaluate};
use bsolve::check::{Model, Options};
use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;

/// The allocator of the `bsolve` binary (src/main.rs), so that the figures are what a user's run gets.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SIEVE_STEP: &str = "card((2..100000) - ran(%n.(n : 2..100000 / 2 | 2 * n)))";

fn sieve_step(c: &mut Criterion) {
    let model = Model::empty(&Options::default()).expect("empty model");
    match evaluate(&model, SIEVE_STEP).expect("evaluates").outcome {
        EvalOutcome::Value(v, _) => assert_eq!(v.to_string(), "50000"),
        _ => panic!("sieve step is an expression"),
    }
    let mut group = c.benchmark_group("interpreter");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("SieveStep limit=100000", |b| {
        b.iter(|| evaluate(&model, SIEVE_STEP).expect("evaluates"))
    });
    group.finish();
}

criterion_group!(benches, sieve_step);
criterion_main!(benches);
