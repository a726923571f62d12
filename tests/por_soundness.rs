//! Partial-order reduction (`mc --por`, `check::stubborn`) preserves verdicts:
//! * on every bundled machine and a sample of the corpus machines of `corpus_mc_machines.txt` (every
//!   `STRIDE`-th, within the budget of the default test run; `BSOLVE_POR_STRIDE=1` for all of them, and
//!   `python3 benchmarks/corpus.py por` for every machine of `expected.csv`, each run in a process of
//!   its own with a time budget; figures in benchmarks/RESULTS.md), `mc` with
//!   and without `--por` finds a deadlock or not, and an invariant or assertion violation or not, alike,
//!   whenever the run without reduction explored its whole state space; the reduced space is never
//!   larger;
//! * on random small machines, against an oracle that explores the full graph with the interpreter's
//!   successor function alone;
//! * on models/ConcurrentCounters.mch the reduced space is at most 1 % of the full one.
//!
//! Both runs go on past deadlocks and violations, so that "found or not" is a property of the whole
//! space, not of which error a search meets first.

mod common;

use bsolve::check::mc::{McOptions, McResult, SearchOrder, model_check};
use bsolve::check::{Model, Options};
use bsolve::eval::State;
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

const CORPUS_MACHINES: &[&str] = &include!("corpus_mc_machines.txt");

/// Every STRIDE-th machine of the corpus list is compared by default (about 60 s on 2 cores).
const STRIDE: u64 = 3;
/// States per machine and run.
const MAX_STATES: usize = 5_000;
/// Per machine and run.
const TIMEOUT: Duration = Duration::from_secs(3);

fn load(path: &Path) -> Option<Model> {
    Model::load(path, &Options::default()).ok()
}

fn run(model: &Model, por: bool, max_states: usize, timeout: Duration) -> Result<McResult, String> {
    let options = McOptions {
        max_states: Some(max_states),
        timeout: Some(timeout),
        stop_at_deadlock: false,
        stop_at_violation: false,
        por,
        ..McOptions::default()
    };
    model_check(model, &options).map_err(|d| d.to_string())
}

/// Compares the two runs of one machine; Ok(None) when the full run was cut (not comparable), else
/// the two state counts (and prints them with the two times, for benchmarks/RESULTS.md).
fn compare(
    path: &Path,
    max_states: usize,
    timeout: Duration,
) -> Result<Option<(usize, usize)>, String> {
    let Some(model) = load(path) else {
        return Ok(None);
    };
    // The reduced run only where the full one explored everything: a cut run is not comparable.
    let full = match run(&model, false, max_states, timeout) {
        Ok(full) if !full.explored_all => return Ok(None),
        full => full,
    };
    let reduced = match run(&model, true, max_states, timeout) {
        Ok(r) if common::timed_out(&r) => run(
            &model,
            true,
            max_states,
            timeout * common::RETRY_BUDGET_FACTOR,
        ),
        reduced => reduced,
    };
    let (full, reduced) = match (full, reduced) {
        (Ok(f), Ok(r)) => (f, r),
        (Err(f), Err(r)) if f == r => return Ok(None),
        (f, r) => {
            return Err(format!(
                "{}: errors differ: {:?} / {:?}",
                path.display(),
                f.map(|f| common::reduction_verdict(&f)),
                r.map(|r| common::reduction_verdict(&r))
            ));
        }
    };
    if !reduced.explored_all
        || common::reduction_verdict(&full) != common::reduction_verdict(&reduced)
        || reduced.states > full.states
    {
        return Err(format!(
            "{}:\n  without --por: {} ({} states, complete {})\n  with --por:    {} ({} states, \
             complete {}, {:?})",
            path.display(),
            common::reduction_verdict(&full),
            full.states,
            full.explored_all,
            common::reduction_verdict(&reduced),
            reduced.states,
            reduced.explored_all,
            reduced.por
        ));
    }
    eprintln!(
        "POR\t{}\t{}\t{}\t{}\t{}",
        path.display(),
        full.states,
        reduced.states,
        full.elapsed.as_millis(),
        reduced.elapsed.as_millis()
    );
    Ok(Some((full.states, reduced.states)))
}

fn bundled() -> Vec<PathBuf> {
    let mut bundled: Vec<PathBuf> = std::fs::read_dir(common::model_path(""))
        .expect("models folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mch"))
        .collect();
    bundled.sort();
    bundled
}

fn compare_all(machines: &[PathBuf], max_states: usize, timeout: Duration) {
    let (mut differ, mut compared, mut full, mut reduced) = (Vec::new(), 0, 0, 0);
    for path in machines {
        match compare(path, max_states, timeout) {
            Ok(Some((f, r))) => {
                compared += 1;
                full += f;
                reduced += r;
            }
            Ok(None) => {}
            Err(e) => differ.push(e),
        }
    }
    eprintln!(
        "{compared} of {} machines compared: {full} states without --por, {reduced} with",
        machines.len()
    );
    assert!(compared > 0, "no machine compared");
    assert!(
        differ.is_empty(),
        "{} machines differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn mc_with_por_finds_what_mc_without_finds() {
    let mut machines = bundled();
    let stride = common::env_number("BSOLVE_POR_STRIDE")
        .unwrap_or(STRIDE)
        .max(1) as usize;
    match common::corpus_models() {
        Some(corpus) => {
            machines.extend((CORPUS_MACHINES.iter().step_by(stride)).map(|m| corpus.join(m)))
        }
        None => eprintln!("corpus not found next to the repository: bundled machines only"),
    }
    compare_all(&machines, MAX_STATES, TIMEOUT);
}

#[test]
fn concurrent_counters_are_explored_in_one_percent_of_their_states() {
    let model = common::load("ConcurrentCounters.mch");
    let full = run(&model, false, 1_000_000, Duration::from_secs(60)).expect("runs");
    let reduced = run(&model, true, 1_000_000, Duration::from_secs(60)).expect("runs");
    assert!(full.explored_all && reduced.explored_all);
    assert_eq!(
        common::reduction_verdict(&full),
        common::reduction_verdict(&reduced)
    );
    assert_eq!(full.states, 2 * 5usize.pow(6));
    assert!(
        reduced.states * 100 <= full.states,
        "{} of {} states",
        reduced.states,
        full.states
    );
    let por = reduced.por.expect("statistics with --por");
    assert!(
        por.not_applied.is_none() && por.reduced_states > 0,
        "{por:?}"
    );
}

#[test]
fn mc_says_the_counts_are_of_the_reduced_space_or_why_there_is_no_reduction() {
    let model = common::model_arg("ConcurrentCounters.mch");
    let (code, text, _) = common::bsolve(&["mc", &model, "--por"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("partial-order reduction: the counts are those of the reduced state space"),
        "{text}"
    );
    let (_, json) = common::bsolve_json(&["mc", &model, "--por"]);
    assert_eq!(json["por"]["applied"], true, "{json}");
    // An operation with a WHILE loop: its read and write sets are not exact.
    let looping = std::env::temp_dir().join(format!("bsolve-por-loop-{}.mch", std::process::id()));
    std::fs::write(
        &looping,
        "MACHINE PorLoop\nVARIABLES x\nINVARIANT x : 0..3\nINITIALISATION x := 0\n\
         OPERATIONS op = VAR i IN i := 0; WHILE i < 2 DO i := i + 1 INVARIANT i : 0..2 \
         VARIANT 2 - i END; x := i END\nEND",
    )
    .expect("temporary machine");
    let (_, text, _) = common::bsolve(&["mc", &looping.display().to_string(), "--por"]);
    let _ = std::fs::remove_file(&looping);
    assert!(
        text.contains("partial-order reduction not applied") && text.contains("WHILE"),
        "{text}"
    );
}

/// Whether a deadlock and a violation of the invariant are reachable, by a breadth-first search over
/// `Context::successors` with nothing else of the model checker.
fn oracle(model: &Model) -> (bool, bool) {
    let ctx = &model.context;
    let invariant = &model.machine().invariant;
    let (mut deadlock, mut violation) = (false, false);
    let mut seen: HashSet<State> = HashSet::new();
    let mut queue: VecDeque<State> = VecDeque::new();
    for s in ctx.initial_states(&[], 1000).expect("initial states") {
        if seen.insert(s.clone()) {
            queue.push_back(s);
        }
    }
    while let Some(s) = queue.pop_front() {
        let env = ctx.state_env(&[], &s).expect("environment");
        violation |= !ctx.eval_pred(invariant, &env).expect("invariant evaluates");
        let next = ctx.successors(&[], &s, 1000).expect("successors");
        deadlock |= next.is_empty();
        for t in next {
            if seen.insert(t.target.clone()) {
                queue.push_back(t.target);
            }
        }
    }
    (deadlock, violation)
}

#[test]
fn por_agrees_with_a_full_exploration_oracle_on_random_machines() {
    let seed = common::env_number("BSOLVE_POR_SEED").unwrap_or(36);
    let cases = common::env_number("BSOLVE_POR_CASES").unwrap_or(600);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut reduced_somewhere = 0;
    for case in 0..cases {
        let vars = rng.usize(2..=5);
        let text = common::random_machine::loosely_coupled(&mut rng, vars);
        let model = common::load_text(
            &format!("por-random-{seed}-{case}"),
            &text,
            &Options::default(),
        );
        let (deadlock, violation) = oracle(&model);
        // Both search orders: the cycle proviso is argued for each.
        let order = if case % 2 == 0 {
            SearchOrder::BreadthFirst
        } else {
            SearchOrder::DepthFirst
        };
        let options = McOptions {
            stop_at_deadlock: false,
            stop_at_violation: false,
            por: true,
            order,
            ..McOptions::default()
        };
        let r = model_check(&model, &options).expect("runs");
        assert!(r.explored_all, "{text}");
        assert_eq!(
            (r.deadlocked_states > 0, r.violating_states > 0),
            (deadlock, violation),
            "seed {seed}, case {case}:\n{text}"
        );
        reduced_somewhere += usize::from(r.por.is_some_and(|p| p.reduced_states > 0));
    }
    // The generator must exercise the reduction, not only full expansions.
    eprintln!("{reduced_somewhere} of {cases} machines reduced somewhere");
    assert!(
        reduced_somewhere * 8 >= cases as usize,
        "{reduced_somewhere} of {cases}"
    );
}
