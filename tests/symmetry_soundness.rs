//! Symmetry reduction (`mc --symmetry`, `check::symmetry`) preserves verdicts and, re-expanded, counts:
//! * on every bundled machine with a deferred set, `mc` with and without `--symmetry canon` finds a
//!   deadlock or not, and an invariant or assertion violation or not, alike; where the run without
//!   reduction explored its whole state space, the reduced run's full count (each orbit counted by its
//!   number of distinct states) equals its states and transitions, and the orbits are never more;
//! * the same on the corpus machines of `corpus_mc_machines.txt` that have a deferred set (about 10 s;
//!   `python3 benchmarks/corpus.py symmetry` runs every machine of `expected.csv`);
//! * models/SymmetricMutex.mch has the counts worked out by hand in its header;
//! * a violation found in the quotient comes with a trace of real states that the interpreter replays
//!   (`check::symmetric_mc`), as long as the plain run's.
//!
//! Both runs go on past deadlocks and violations, so that "found or not" is a property of the whole
//! space, not of which error a search meets first.

mod common;

use bsolve::check::mc::{McOptions, McResult, SearchOrder, Verdict};
use bsolve::check::symmetric_mc::model_check;
use bsolve::check::symmetry::{SymmetryMode, symmetric_sets};
use bsolve::check::{Model, Options};
use std::path::{Path, PathBuf};
use std::time::Duration;

const CORPUS_MACHINES: &[&str] = &include!("corpus_mc_machines.txt");

/// States per machine and run.
const MAX_STATES: usize = 20_000;
/// Per machine and run.
const TIMEOUT: Duration = Duration::from_secs(5);

/// A run within TIMEOUT; a reduced run that timed out is repeated once with a larger budget.
fn run(model: &Model, symmetry: Option<SymmetryMode>, go_on: bool) -> Result<McResult, String> {
    match run_within(model, symmetry, go_on, TIMEOUT) {
        Ok(r) if symmetry.is_some() && common::timed_out(&r) => run_within(
            model,
            symmetry,
            go_on,
            TIMEOUT * common::RETRY_BUDGET_FACTOR,
        ),
        result => result,
    }
}

/// One run within `timeout`.
fn run_within(
    model: &Model,
    symmetry: Option<SymmetryMode>,
    go_on: bool,
    timeout: Duration,
) -> Result<McResult, String> {
    let options = McOptions {
        max_states: Some(MAX_STATES),
        timeout: Some(timeout),
        stop_at_deadlock: !go_on,
        stop_at_violation: !go_on,
        workers: Some(1),
        symmetry,
        ..McOptions::default()
    };
    model_check(model, &options).map_err(|d| d.to_string())
}

/// What comparing one machine gave.
enum Compared {
    /// No symmetric deferred set, or the plain run was cut: nothing to compare.
    Skipped,
    /// States without and with reduction (orbits).
    Counts(usize, usize),
}

/// Compares the two runs of one machine.
fn compare(path: &Path) -> Result<Compared, String> {
    let Ok(model) = Model::load(path, &Options::default()) else {
        return Ok(Compared::Skipped);
    };
    if symmetric_sets(&model).is_err() {
        return Ok(Compared::Skipped);
    }
    let full = match run(&model, None, true) {
        Ok(full) if !full.explored_all => return Ok(Compared::Skipped),
        full => full,
    };
    let reduced = run(&model, Some(SymmetryMode::Canon), true);
    let (full, reduced) = match (full, reduced) {
        (Ok(f), Ok(r)) => (f, r),
        (Err(f), Err(r)) if f == r => return Ok(Compared::Skipped),
        (f, r) => {
            return Err(format!(
                "{}: errors differ: {:?} / {:?}",
                path.display(),
                f.map(|f| common::reduction_verdict(&f)),
                r.map(|r| common::reduction_verdict(&r))
            ));
        }
    };
    let stats = reduced
        .symmetry
        .clone()
        .expect("statistics with --symmetry");
    let full_counts = (stats.full_states, stats.full_transitions);
    // Counts are comparable when the reduced run explored its whole quotient and knew every orbit's size.
    let counts_differ = full_counts.0.is_some()
        && full_counts != (Some(full.states as u128), Some(full.transitions as u128));
    if !reduced.explored_all
        || common::reduction_verdict(&full) != common::reduction_verdict(&reduced)
        || reduced.states > full.states
        || counts_differ
    {
        return Err(format!(
            "{}:\n  without --symmetry: {} ({} states, {} transitions)\n  with --symmetry:    {} \
             ({} orbits, complete {}, {stats:?})",
            path.display(),
            common::reduction_verdict(&full),
            full.states,
            full.transitions,
            common::reduction_verdict(&reduced),
            reduced.states,
            reduced.explored_all,
        ));
    }
    // The first error each run stops at is of the same kind.
    if let (Ok(first), Ok(first_reduced)) = (
        run(&model, None, false),
        run(&model, Some(SymmetryMode::Canon), false),
    ) && std::mem::discriminant(&first.verdict) != std::mem::discriminant(&first_reduced.verdict)
    {
        return Err(format!(
            "{}: first errors differ: {:?} / {:?}",
            path.display(),
            first.verdict,
            first_reduced.verdict
        ));
    }
    eprintln!(
        "SYMMETRY\t{}\t{}\t{}\t{}\t{}",
        path.display(),
        full.states,
        reduced.states,
        full.elapsed.as_millis(),
        reduced.elapsed.as_millis()
    );
    Ok(Compared::Counts(full.states, reduced.states))
}

fn compare_all(machines: &[PathBuf]) -> usize {
    let (mut differ, mut compared, mut full, mut reduced) = (Vec::new(), 0, 0, 0);
    for path in machines {
        match compare(path) {
            Ok(Compared::Counts(f, r)) => {
                compared += 1;
                full += f;
                reduced += r;
            }
            Ok(Compared::Skipped) => {}
            Err(e) => differ.push(e),
        }
    }
    eprintln!(
        "{compared} of {} machines compared: {full} states without --symmetry, {reduced} orbits with",
        machines.len()
    );
    assert!(
        differ.is_empty(),
        "{} machines differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    compared
}

#[test]
fn bundled_machines_keep_their_verdicts_and_counts_under_symmetry() {
    let mut machines: Vec<PathBuf> = std::fs::read_dir(common::model_path(""))
        .expect("models folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mch"))
        .collect();
    machines.sort();
    assert!(compare_all(&machines) >= 3);
}

#[test]
fn corpus_machines_keep_their_verdicts_and_counts_under_symmetry() {
    let Some(corpus) = common::corpus_models() else {
        eprintln!("corpus not found next to the repository");
        return;
    };
    let machines: Vec<PathBuf> = CORPUS_MACHINES.iter().map(|m| corpus.join(m)).collect();
    assert!(compare_all(&machines) > 0);
}

#[test]
fn the_symmetric_mutex_has_its_hand_counted_orbits() {
    let model = common::load("SymmetricMutex.mch");
    let full = run(&model, None, false).expect("runs");
    assert!(matches!(full.verdict, Verdict::NoErrorFound));
    assert_eq!((full.states, full.transitions), (651, 1296));
    let reduced = run(&model, Some(SymmetryMode::Canon), false).expect("runs");
    assert!(matches!(reduced.verdict, Verdict::NoErrorFound));
    assert_eq!((reduced.states, reduced.transitions), (11, 36));
    let stats = reduced.symmetry.expect("statistics");
    assert_eq!(stats.not_applied, None);
    assert_eq!(stats.sets, vec![("PROC".to_string(), 5)]);
    assert_eq!(
        (stats.full_states, stats.full_transitions),
        (Some(651), Some(1296))
    );
    // Parallel and depth-first searches store the same orbits.
    for (workers, order) in [(2, SearchOrder::BreadthFirst), (2, SearchOrder::DepthFirst)] {
        let options = McOptions {
            workers: Some(workers),
            order,
            symmetry: Some(SymmetryMode::Canon),
            ..McOptions::default()
        };
        let other = model_check(&model, &options).expect("runs");
        assert_eq!((other.states, other.transitions), (11, 36), "{order:?}");
        let stats = other.symmetry.expect("statistics");
        assert_eq!(
            (stats.full_states, stats.full_transitions),
            (Some(651), Some(1296))
        );
    }
    // Markers tell these orbits apart too (but claim no full count).
    let hashed = run(&model, Some(SymmetryMode::Hash), false).expect("runs");
    assert_eq!((hashed.states, hashed.transitions), (11, 36));
    assert_eq!(hashed.symmetry.expect("statistics").full_states, None);
}

/// SymmetricMutex with an `enter` that forgets to test the critical section.
const WRONG_MUTEX: &str = "MACHINE WrongMutex
SETS PROC
DEFINITIONS SET_PREF_DEFAULT_SETSIZE == 4
VARIABLES waiting, critical
INVARIANT waiting : iseq(PROC) & critical <: PROC & card(critical) <= 1
INITIALISATION waiting := [] || critical := {}
OPERATIONS
  request(p) = SELECT p : PROC & p /: ran(waiting) & p /: critical THEN waiting := waiting <- p END;
  enter = SELECT waiting /= [] THEN
      critical := critical \\/ {first(waiting)} || waiting := tail(waiting)
    END;
  leave(p) = SELECT p : critical THEN critical := critical - {p} END
END
";

#[test]
fn a_violation_in_the_quotient_comes_with_a_replayed_trace_of_real_states() {
    let dir = std::env::temp_dir().join(format!("bsolve-symmetry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join("WrongMutex.mch");
    std::fs::write(&path, WRONG_MUTEX).expect("written");
    let model = Model::load(&path, &Options::default()).expect("loads");
    let plain = run(&model, None, false).expect("runs");
    let reduced = run(&model, Some(SymmetryMode::Canon), false).expect("runs");
    assert!(matches!(plain.verdict, Verdict::InvariantViolation(_)));
    assert!(
        matches!(reduced.verdict, Verdict::InvariantViolation(_)),
        "{:?}",
        reduced.verdict
    );
    // Breadth-first in both: a shortest trace either way (request, request, enter, request... two
    // entries).
    assert_eq!(reduced.trace.len(), plain.trace.len());
    let stats = reduced.symmetry.expect("statistics");
    assert_eq!(stats.not_applied, None);
    assert_eq!(stats.abandoned, None);
    assert!(reduced.states < plain.states);
    let (code, text, _) =
        common::bsolve(&["mc", path.to_str().expect("utf-8"), "--symmetry", "canon"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("INVARIANT VIOLATION"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn mc_says_when_a_machine_has_nothing_symmetric_and_runs_without() {
    let model = common::model_arg("MutexSimple.mch");
    let (code, text, _) = common::bsolve(&["mc", &model, "--symmetry", "canon"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "symmetry reduction not applied, every state explored: the machine has no \
                       deferred set of two or more elements"
        ),
        "{text}"
    );
    assert!(
        text.contains("states: 8, transitions: 15 (ProB's count)"),
        "{text}"
    );
    // CHOOSE picks the least element: a machine calling it is not reduced.
    let dir = std::env::temp_dir().join(format!("bsolve-symmetry-choose-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join("Chooser.mch");
    std::fs::write(&path, CHOOSER).expect("written");
    let (code, text, _) =
        common::bsolve(&["mc", path.to_str().expect("utf-8"), "--symmetry", "canon"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("not applied, every state explored: the machine calls an external function"),
        "{text}"
    );
    assert!(
        text.contains("states: 4, transitions: 5 (ProB's count)"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A machine that adds the least element not yet taken: its states are not closed under permutations.
const CHOOSER: &str = "MACHINE Chooser
SETS D
DEFINITIONS \"CHOOSE.def\"; SET_PREF_DEFAULT_SETSIZE == 3
VARIABLES x
INVARIANT x <: D
INITIALISATION x := {}
OPERATIONS
  add = SELECT D - x /= {} THEN x := x \\/ {CHOOSE(D - x)} END;
  reset = SELECT x = D THEN x := {} END
END
";

#[test]
fn mc_reports_orbit_counts_and_the_full_count_in_text_and_json() {
    let model = common::model_arg("SymmetricMutex.mch");
    let (code, text, _) = common::bsolve(&["mc", &model, "--symmetry", "canon", "--full-count"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("states: 11, transitions: 36 (orbits under symmetry)"),
        "{text}"
    );
    assert!(
        text.contains("the counts are orbit counts (11 orbits, 36 transitions between them)"),
        "{text}"
    );
    assert!(
        text.contains("full count: 651 states, 1296 transitions"),
        "{text}"
    );
    let (code, json) = common::bsolve_json(&["mc", &model, "--symmetry", "canon"]);
    assert_eq!(code, 0);
    let sym = &json["symmetry"];
    assert_eq!(sym["applied"], true);
    assert_eq!(sym["orbits"], 11);
    assert_eq!(sym["full_states"], "651");
    assert!(sym["counts"].as_str().expect("text").starts_with("orbits"));
    // Markers: no proof of "no error", said so.
    let (code, text, _) = common::bsolve(&["mc", &model, "--symmetry", "hash"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("states may have been missed"), "{text}");
    // An unknown mode and --por together with --symmetry are usage errors, not panics.
    let (code, _, err) = common::bsolve(&["mc", &model, "--symmetry", "flood"]);
    assert_ne!(code, 0);
    assert!(err.contains("flood"), "{err}");
    let (code, _, _) = common::bsolve(&["mc", &model, "--symmetry", "canon", "--por"]);
    assert_ne!(code, 0);
}

/// A route is started with an output left unassigned when the section is taken: an ill-defined instance
/// (`check::symmetric_mc::order_free` says why such a run is not reduced).
const UNASSIGNED_OUTPUT: &str = "MACHINE Unassigned
SETS SECTION; ROUTE
DEFINITIONS SET_PREF_DEFAULT_SETSIZE == 2
VARIABLES routes
INVARIANT routes : ROUTE +-> SECTION
INITIALISATION routes := {}
OPERATIONS
  route <-- start(section) = PRE section : SECTION THEN
    IF section /: ran(routes) & dom(routes) /= ROUTE THEN
      ANY r WHERE r : ROUTE - dom(routes) THEN routes(r) := section || route := r END
    END
  END;
  drop(route) = PRE route : dom(routes) THEN routes := {route} <<| routes END
END
";

#[test]
fn a_run_that_meets_an_ill_defined_instance_is_repeated_without_reduction() {
    let dir = std::env::temp_dir().join(format!("bsolve-symmetry-wd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join("Unassigned.mch");
    std::fs::write(&path, UNASSIGNED_OUTPUT).expect("written");
    let model = Model::load(&path, &Options::default()).expect("loads");
    let plain = run(&model, None, true).expect("runs");
    let reduced = run(&model, Some(SymmetryMode::Canon), true).expect("runs");
    assert!(plain.ill_defined_operations > 0);
    let stats = reduced.symmetry.expect("statistics");
    assert!(stats.abandoned.is_some(), "{stats:?}");
    assert_eq!(
        (reduced.states, reduced.transitions),
        (plain.states, plain.transitions)
    );
    std::fs::remove_dir_all(&dir).ok();
}
