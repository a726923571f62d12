//! Explicit model checking against ProB's recorded verdicts: for a list of corpus machines that finish
//! quickly, `mc` must reach the verdict recorded in `../shared/corpus/expected.csv` (deadlock, invariant
//! violation or none) and, where ProB did not stop at an invariant violation (its recorded run went on past
//! deadlocks), the same state and transition counts. The expectations
//! are read from the corpus file; the list only says which machines are fast enough for every CI run (the
//! whole corpus is compared by `benchmarks/corpus.py mc`, figures in benchmarks/CORPUS.md).

use bsolve::check::mc::{McOptions, McResult, Verdict, model_check};
use bsolve::check::{Model, Options};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

const MACHINES: &[&str] = &include!("corpus_mc_machines.txt");

/// Machines of the list whose verdict needs the optional SMT solver z3 (a quantifier over unbounded
/// integers): compared only where z3 is installed.
const NEEDS_SMT: &[&str] = &["B/Laws/REPL_UNIT_TESTS2.mch"];

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// What ProB recorded for one machine.
struct Recorded {
    verdict: &'static str,
    /// ProB recorded both a deadlock and an invariant violation (13 machines): either kind agrees.
    both_kinds: bool,
    states: String,
    transitions: String,
}

/// ProB's verdict and counts per machine, from expected.csv (columns are fixed by the corpus README).
fn expected() -> HashMap<String, Recorded> {
    let text = std::fs::read_to_string(corpus().join("expected.csv")).expect("expected.csv");
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let verdict = match (f[1], f[2]) {
                ("true", _) => "deadlock",
                (_, "true") => "invariant",
                _ => "none",
            };
            (
                f[0].to_string(),
                Recorded {
                    verdict,
                    both_kinds: f[1] == "true" && f[2] == "true",
                    states: f[3].to_string(),
                    transitions: f[4].to_string(),
                },
            )
        })
        .collect()
}

/// The preferences ProB's recorded run used, given on its command line so that they override the
/// machines' own `SET_PREF_` definitions (benchmarks/corpus.py explains the evidence).
fn recording_options() -> Options {
    Options {
        prefs: RECORDING_PREFS
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        ..Options::default()
    }
}

const RECORDING_PREFS: [(&str, &str); 2] = [
    ("MAX_INITIALISATIONS", "100000"),
    ("MAX_OPERATIONS", "1000"),
];

/// The verdict as ProB's columns name it, with the full result.
fn check(model: &Model, options: &McOptions) -> Result<(&'static str, McResult), String> {
    let result = model_check(model, options).map_err(|d| d.to_string())?;
    let verdict = match result.verdict {
        // ProB's root node has no successor when no constant setup or initial state exists: it records
        // a deadlock (B/Puzzles/NQueensMAXINT.mch: no 3-queens solution, deadlock with 0 states).
        Verdict::Deadlock
        | Verdict::NoConstantSetup { complete: true }
        | Verdict::NoInitialisation => "deadlock",
        Verdict::InvariantViolation(_) => "invariant",
        // ProB's columns record deadlocks and invariant violations; an ill-defined operation instance
        // is neither (B/SchneiderBook/Chapter18/Checkouts.mch: 22 states, no error recorded).
        Verdict::NoErrorFound | Verdict::IllDefinedOperations { .. } => "none",
        ref other => return Err(format!("no comparable verdict: {other:?}")),
    };
    Ok((verdict, result))
}

/// Checks one machine; `Err` describes the difference from ProB.
fn compare(name: &str, prob: &Recorded) -> Result<(), String> {
    let model = Model::load(&corpus().join("models").join(name), &recording_options())
        .map_err(|d| d.to_string())?;
    // ProB's recorded run did not check ASSERTIONS (see RECORDING_PREFS in benchmarks/corpus.py).
    // Nor did it stop at deadlocks or invariant violations: its counts are the whole state space's.
    let all_checks = McOptions {
        timeout: Some(Duration::from_secs(20)),
        check_assertions: false,
        stop_at_deadlock: false,
        stop_at_violation: false,
        ..McOptions::default()
    };
    let (mut ours, mut result) = check(&model, &all_checks)?;
    // ProB stops at the first error it meets in its own search order, so a machine with both a deadlock and
    // an invariant violation is recorded with one of them: look for ProB's kind alone then.
    if prob.both_kinds && ours != "none" {
        return Ok(());
    }
    if ours != prob.verdict && ours != "none" && prob.verdict != "none" {
        let only_probs_kind = McOptions {
            check_deadlock: prob.verdict == "deadlock",
            check_invariant: prob.verdict == "invariant",
            check_assertions: false,
            ..all_checks
        };
        (ours, result) = check(&model, &only_probs_kind)?;
    }
    if ours != prob.verdict {
        return Err(format!("ProB {}, bsolve {ours}", prob.verdict));
    }
    let counts = (result.states.to_string(), result.transitions.to_string());
    if counts != (prob.states.clone(), prob.transitions.clone()) {
        return Err(format!(
            "ProB {} states / {} transitions, bsolve {} / {}",
            prob.states, prob.transitions, counts.0, counts.1
        ));
    }
    Ok(())
}

/// Compares each machine with ProB's record and fails naming those that differ (skipped without the
/// corpus next to the repository).
fn assert_as_recorded(machines: &[&str]) {
    if !corpus().exists() {
        eprintln!("corpus not found next to the repository: skipping");
        return;
    }
    let expected = expected();
    let smt = !machines.iter().any(|m| NEEDS_SMT.contains(m))
        || bsolve::solve::smt::available_for_test("corpus_mc (B/Laws/REPL_UNIT_TESTS2.mch)");
    let failures: Vec<String> = machines
        .iter()
        .filter(|name| smt || !NEEDS_SMT.contains(name))
        .filter_map(|name| {
            compare(name, &expected[*name])
                .err()
                .map(|e| format!("{name}: {e}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} machines differ:\n{}",
        failures.len(),
        machines.len(),
        failures.join("\n")
    );
}

#[test]
fn mc_reproduces_probs_verdicts_on_fast_corpus_machines() {
    assert_as_recorded(MACHINES);
}

/// Machines whose choices must take their candidates from constraints, not from types: a relation over
/// unbounded integer sets enumerated within MININT..MAXINT (SortByPermutationPF), a sorting permutation
/// found through element constraints (SortByPermutation_v2), sequences listed by a maplet pattern and
/// split by concatenations (LL_LeftFactoring). Each ended UNKNOWN before (a type too large to list, a
/// timeout); SortByPermutationPF takes over a second, more than the CI list's 300 ms.
#[test]
fn mc_takes_candidates_from_constraints() {
    assert_as_recorded(&[
        "B/Demo/SortByPermutationPF.mch",
        "B/Demo/SortByPermutation_v2.mch",
        "B/Compilers/LL_LeftFactoring.mch",
    ]);
}
