//! Differential property test of the solver backends: random small well-typed predicates are solved for
//! all their solutions by the brute-force enumeration and by the native solver, and the answers must agree
//! (see `differential/compare.rs` for what "agree" means). Both are also held against an oracle that
//! shares no code with either (`differential/tiny_oracle.rs`: every assignment over tiny types, each
//! checked by evaluating the closed predicate) wherever the variables' types are tiny.
//!
//! Seeded and reproducible: case `i` of a run with seed `S` is generated from seed `S + i`, so
//! `BSOLVE_DIFF_SEED=<case seed> BSOLVE_DIFF_CASES=1` replays one case. `BSOLVE_DIFF_CASES` sets the
//! number of cases; `BSOLVE_DIFF_VERBOSE=1` prints every case with its outcome.

mod common;
#[path = "differential/compare.rs"]
mod compare;
#[path = "differential/generator.rs"]
mod generator;
#[path = "differential/tiny_oracle.rs"]
mod tiny_oracle;

use bsolve::check::Options;
use bsolve::diag::register_source;
use bsolve::eval::Env;
use bsolve::solve::{Backend, Problem, solve_all};
use bsolve::syntax::parse_term;
use bsolve::types::{Formula, check_formula};
use compare::{Class, Run, Verdict};
use std::time::{Duration, Instant};

const DEFAULT_SEED: u64 = 0xd1ff_5eed;
/// Solutions asked of each backend: above the generator's domain budget (4,096), so every complete
/// search is compared in full.
const LIMIT: usize = 5_000;
/// Time budget of one backend on one case.
const BUDGET: Duration = Duration::from_secs(2);

#[test]
fn differential() {
    run_cases("differential", 2_000);
}

#[test]
#[ignore = "50,000 cases: run by hand (cargo test --release --test differential -- --ignored)"]
fn differential_long() {
    run_cases("differential-long", 50_000);
}

#[derive(Default)]
struct Tally {
    /// Print every case and its outcome.
    verbose: bool,
    cases: usize,
    sat: usize,
    unsat: usize,
    incomplete: usize,
    both_errors: usize,
    timeouts: usize,
    limits: usize,
    /// Cases the oracle searched completely and the native solver did not (weaker, not wrong).
    native_incomplete: usize,
    /// Cases where a backend stopped at `LIMIT` solutions (then only inclusion is checked).
    limited: usize,
    /// Cases the independent oracle (`tiny_oracle`) listed.
    oracle_cases: usize,
    /// Cases that did not type-check: (seed, text, diagnostic).
    skipped: Vec<(u64, String, String)>,
    disagreements: Vec<String>,
}

fn run_cases(name: &str, default_cases: usize) {
    let seed = common::env_number("BSOLVE_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let cases = common::env_number("BSOLVE_DIFF_CASES").map_or(default_cases, |n| n as usize);
    // The interpreter's own choices (nested in the predicate) use the oracle, never the solver under test.
    let options = Options {
        backend: Backend::Brute,
        ..Options::default()
    };
    let model = common::load_text(name, generator::MACHINE, &options);
    let start = Instant::now();
    let mut tally = Tally {
        verbose: std::env::var_os("BSOLVE_DIFF_VERBOSE").is_some(),
        ..Tally::default()
    };
    for i in 0..cases {
        let case_seed = seed.wrapping_add(i as u64);
        run_case(&model, case_seed, &mut tally);
    }
    let t = &tally;
    eprintln!(
        "differential: {} cases (seed {seed:#x}) in {:.1?}: {} sat, {} unsat, {} incomplete, {} both errors, \
         {} timeouts, {} limits, {} cut at {LIMIT} solutions, {} complete only by brute, {} skipped (ill-typed), \
         {} also listed by the tiny oracle, {} disagreements",
        t.cases,
        start.elapsed(),
        t.sat,
        t.unsat,
        t.incomplete,
        t.both_errors,
        t.timeouts,
        t.limits,
        t.limited,
        t.native_incomplete,
        t.skipped.len(),
        t.oracle_cases,
        t.disagreements.len()
    );
    assert!(
        t.oracle_cases * 4 >= t.cases,
        "the tiny oracle listed only {} of {} cases",
        t.oracle_cases,
        t.cases
    );
    // An ill-typed case is a generator bug: a few are tolerated, more are shown.
    if t.skipped.len() * 100 > t.cases {
        for (s, text, d) in &t.skipped {
            eprintln!("ill-typed case (seed {s:#x}): {text}\n  {d}");
        }
    }
    assert!(
        t.skipped.len() * 20 <= t.cases,
        "more than 5 % of the generated cases are ill-typed"
    );
    assert!(
        t.disagreements.is_empty(),
        "{} disagreement(s) between brute and native:\n\n{}",
        t.disagreements.len(),
        t.disagreements.join("\n\n")
    );
}

fn run_case(model: &bsolve::check::Model, seed: u64, tally: &mut Tally) {
    tally.cases += 1;
    let text = generator::generate(seed);
    let file = register_source("<differential>", &text);
    let typed =
        parse_term(file, &text).and_then(|term| check_formula(&model.ast, model.machine(), &term));
    let (pred, free) = match typed {
        Ok(Formula::Pred(pred, free)) => (pred, free),
        Ok(Formula::Expr(..)) => {
            let d = "an expression, not a predicate".to_string();
            tally.skipped.push((seed, text, d));
            return;
        }
        Err(d) => {
            tally.skipped.push((seed, text, d.render()));
            return;
        }
    };
    let env = Env::new();
    let problem = Problem::new(&free, &pred, &env);
    let solve = |backend| -> Run {
        model.context.set_deadline(Some(Instant::now() + BUDGET));
        let run = solve_all(&model.context, &problem, backend, LIMIT);
        model.context.set_deadline(None);
        run
    };
    let brute = solve(Backend::Brute);
    let native = solve(Backend::Native);
    if [&brute, &native]
        .iter()
        .any(|r| r.as_ref().is_ok_and(|s| s.limited))
    {
        tally.limited += 1;
    }
    if let (Ok(b), Ok(n)) = (&brute, &native)
        && b.complete
        && !n.complete
    {
        tally.native_incomplete += 1;
    }
    // Both against the independent oracle, within its domain.
    if let Some(expected) = tiny_oracle::solutions(model, &free, &pred) {
        tally.oracle_cases += 1;
        for (name, run) in [("brute", &brute), ("native", &native)] {
            if let Some(wrong) = against_oracle(model, &free, run, &expected) {
                let vars: Vec<&str> = free.iter().map(|v| &*v.name).collect();
                tally.disagreements.push(format!(
                    "case seed {seed:#x} (replay: BSOLVE_DIFF_SEED={seed:#x} BSOLVE_DIFF_CASES=1)\n\
                     variables ({}): {text}\n{name} against the tiny oracle: {wrong}",
                    vars.join(", ")
                ));
            }
        }
    }
    let verdict = compare::compare(&brute, &native);
    if tally.verbose {
        eprintln!("{seed:#x} {verdict:?}: {text}");
    }
    match verdict {
        Verdict::Agree(class) => match class {
            Class::Sat => tally.sat += 1,
            Class::Unsat => tally.unsat += 1,
            Class::Incomplete => tally.incomplete += 1,
            Class::BothErrors => tally.both_errors += 1,
            Class::Timeout => tally.timeouts += 1,
            Class::Limit => tally.limits += 1,
        },
        Verdict::Disagree(what) => {
            let vars: Vec<&str> = free.iter().map(|v| &*v.name).collect();
            tally.disagreements.push(format!(
                "case seed {seed:#x} (replay: BSOLVE_DIFF_SEED={seed:#x} BSOLVE_DIFF_CASES=1)\n\
                 variables ({}): {text}\n{what}",
                vars.join(", ")
            ));
        }
    }
}

/// What a backend's run gets wrong against the oracle's solutions (within the oracle's domain): a
/// solution the oracle rejects, or — on a complete run — one it misses.
fn against_oracle(
    model: &bsolve::check::Model,
    vars: &[bsolve::ir::TypedName],
    run: &Run,
    expected: &std::collections::BTreeSet<Vec<bsolve::value::Value>>,
) -> Option<String> {
    let Ok(found) = run else {
        return None;
    };
    let inside = |s: &&Vec<bsolve::value::Value>| {
        vars.iter()
            .zip(s.iter())
            .all(|(v, x)| tiny_oracle::inside(model, &v.ty, x))
    };
    let listed: std::collections::BTreeSet<_> =
        found.solutions.iter().filter(inside).cloned().collect();
    if let Some(extra) = listed.difference(expected).next() {
        return Some(format!("{extra:?} is no solution"));
    }
    if found.complete
        && let Some(missed) = expected.difference(&listed).next()
    {
        return Some(format!("complete, but misses {missed:?}"));
    }
    None
}
