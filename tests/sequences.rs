//! Sequences under every backend against the brute-force oracle: random predicates over bounded
//! sequences (`sequences/generator.rs`) are solved for all their solutions by brute force, by the SAT
//! translation alone (KODKOD_ONLY_FULL: an untranslated case is an error there and only counted), by
//! the native solver and by `auto`; answers must agree as in `tests/differential.rs`. The SAT side must
//! also answer most cases completely: the bounded-sequence encodings exist so that these questions end.
//!
//! `BSOLVE_SEQ_SEED` / `BSOLVE_SEQ_CASES` replay cases; `BSOLVE_SEQ_VERBOSE=1` prints each case.

mod common;
#[path = "differential/compare.rs"]
mod compare;
#[path = "sequences/generator.rs"]
mod generator;

use bsolve::diag::register_source;
use bsolve::eval::{Env, EvalError};
use bsolve::solve::{Backend, Problem, solve_all};
use bsolve::syntax::parse_term;
use bsolve::types::{Formula, check_formula};
use compare::{Run, Verdict};
use std::time::{Duration, Instant};

const DEFAULT_SEED: u64 = 0x5e9_0000;

#[test]
fn random_sequence_predicates_agree_with_brute_force() {
    let seed = common::env_number("BSOLVE_SEQ_SEED").unwrap_or(DEFAULT_SEED);
    let cases = common::env_number("BSOLVE_SEQ_CASES").unwrap_or(1_000);
    let verbose = std::env::var_os("BSOLVE_SEQ_VERBOSE").is_some();
    let brute_model = common::load_text(
        "seq-brute",
        generator::MACHINE,
        &common::options(Backend::Brute, &[]),
    );
    let sat_model = common::load_text(
        "seq-sat",
        generator::MACHINE,
        &common::options(Backend::Brute, &[("KODKOD_ONLY_FULL", "TRUE")]),
    );
    let (mut sat_complete, mut untranslated, mut with_solutions) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for i in 0..cases {
        let case_seed = seed.wrapping_add(i);
        let text = generator::generate(case_seed);
        let file = register_source("<sequence-differential>", &text);
        let (pred, free) = match parse_term(file, &text)
            .and_then(|t| check_formula(&brute_model.ast, brute_model.machine(), &t))
        {
            Ok(Formula::Pred(pred, free)) => (pred, free),
            other => panic!(
                "the generator wrote an ill-typed case {text}: {:?}",
                other.err()
            ),
        };
        let env = Env::new();
        let problem = Problem::new(&free, &pred, &env);
        let run = |model: &bsolve::check::Model, backend| -> Run {
            let start = Instant::now();
            model
                .context
                .set_deadline(Some(start + Duration::from_secs(5)));
            let r = solve_all(&model.context, &problem, backend, 5_000);
            model.context.set_deadline(None);
            if verbose {
                eprintln!("  {backend:?}: {:.1?}", start.elapsed());
            }
            r
        };
        let brute = run(&brute_model, Backend::Brute);
        assert!(
            brute.as_ref().is_ok_and(|s| s.complete) || brute.is_err(),
            "the oracle enumerates every case completely: {text}"
        );
        if brute.as_ref().is_ok_and(|s| !s.solutions.is_empty()) {
            with_solutions += 1;
        }
        let sat = run(&sat_model, Backend::Kodkod);
        match &sat {
            Err(EvalError::Unsupported(d)) => {
                untranslated += 1;
                if verbose {
                    eprintln!("not translated: {}: {text}", d.message);
                }
            }
            Ok(s) if s.complete => sat_complete += 1,
            _ => {}
        }
        for (name, answer) in [
            ("kodkod", sat),
            ("native", run(&brute_model, Backend::Native)),
            ("auto", run(&brute_model, Backend::Auto)),
        ] {
            if name == "kodkod" && matches!(answer, Err(EvalError::Unsupported(_))) {
                continue;
            }
            if let Verdict::Disagree(what) = compare::compare(&brute, &answer) {
                disagreements.push(format!(
                    "{name}, case seed {case_seed:#x} (replay: BSOLVE_SEQ_SEED={case_seed:#x} BSOLVE_SEQ_CASES=1): {text}\n{what}"
                ));
            }
        }
        if verbose {
            eprintln!("{case_seed:#x}: {text}");
        }
    }
    eprintln!(
        "sequence differential: {cases} cases ({with_solutions} with solutions), {sat_complete} answered completely by SAT, {untranslated} not translated, {} disagreements",
        disagreements.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s) with the oracle:\n\n{}",
        disagreements.len(),
        disagreements.join("\n\n")
    );
    assert!(
        sat_complete * 10 >= cases * 9,
        "only {sat_complete} of {cases} sequence predicates were answered completely by SAT"
    );
}
