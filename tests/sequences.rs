//! Sequences under every backend against the brute-force oracle: random predicates over bounded
//! sequences (`sequences/generator.rs`) are solved for all their solutions by brute force, by the SAT
//! translation alone (KODKOD_ONLY_FULL: an untranslated case is an error there and only counted), by
//! the native solver, by z3 (when installed: an untranslated case is only counted) and by `auto`;
//! answers must agree as in `tests/differential.rs`. The SAT side and z3 must also answer most cases
//! completely: the bounded-sequence encodings (SAT's, and the SMT translation's length and element
//! array) exist so that these questions end.
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

/// z3 lists one solution per `check-sat`: a case with more is compared on the first ones (each must be in
/// the oracle's complete list), so that the listing stays cheap.
const Z3_LIMIT: usize = 100;

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
    let z3 = common::smt("random_sequence_predicates_agree_with_brute_force (z3)");
    let (mut sat_complete, mut untranslated, mut with_solutions) = (0, 0, 0);
    let (mut z3_decided, mut z3_untranslated) = (0, 0);
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
            let limit = if backend == Backend::Smt {
                Z3_LIMIT
            } else {
                5_000
            };
            let r = solve_all(&model.context, &problem, backend, limit);
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
        let smt = if z3 {
            let answer = run(&brute_model, Backend::Smt);
            match &answer {
                Err(EvalError::Unsupported(d)) => {
                    z3_untranslated += 1;
                    if verbose {
                        eprintln!("not translated for z3: {}: {text}", d.message);
                    }
                }
                // No binder in these predicates: the translation asserts the interpreter's
                // definedness everywhere, so a model the re-check rejects is a translation bug (the
                // oracle, which stops at the first ill-defined candidate, cannot compare such cases).
                Ok(s) if s.stats.rejected > 0 => disagreements.push(format!(
                    "z3 proposed {} ill-defined or false solution(s), case seed {case_seed:#x} (replay: BSOLVE_SEQ_SEED={case_seed:#x} BSOLVE_SEQ_CASES=1): {text}",
                    s.stats.rejected
                )),
                // Decided: a complete listing, or as many solutions as asked for.
                Ok(s) if s.complete || s.limited => z3_decided += 1,
                Ok(_) => {}
                Err(e) => {
                    if verbose {
                        eprintln!("z3 undecided: {e}: {text}");
                    }
                }
            }
            Some(answer)
        } else {
            None
        };
        let answers = [
            ("kodkod", Some(sat)),
            ("native", Some(run(&brute_model, Backend::Native))),
            ("z3", smt),
            ("auto", Some(run(&brute_model, Backend::Auto))),
        ];
        for (name, answer) in answers {
            let Some(answer) = answer else {
                continue;
            };
            if matches!(name, "kodkod" | "z3") && matches!(answer, Err(EvalError::Unsupported(_))) {
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
    if z3 {
        eprintln!(
            "sequence differential: {z3_decided} of {cases} decided by z3 (complete, or {Z3_LIMIT} solutions listed), {z3_untranslated} not translated"
        );
    }
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
    assert!(
        !z3 || z3_decided * 10 >= cases * 9,
        "only {z3_decided} of {cases} sequence predicates were decided by z3"
    );
}
