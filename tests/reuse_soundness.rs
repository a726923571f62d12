//! Soundness of operation reuse (`mc --reuse`, `eval::ReuseCache`) on every bundled machine and on the
//! corpus machines of `corpus_mc_machines.txt` (when the corpus is next to the repository):
//! * `mc` with and without reuse reaches the same verdict and the same state, transition, deadlock and
//!   ill-definedness counts and `partial_enumeration` flag;
//! * the dependency matrix reuse relies on holds in the explored states, checked by the interpreter
//!   without the cache: a transition of a reusable operation changes only variables of its write set, and
//!   two states with the same setup and the same values of the variables it reads or writes give it the
//!   same transitions (parameters, outputs, ANY values, written values) and diagnostics — also when they
//!   agree only on the variables read and those written but not on every path (must-write sets: a
//!   variable assigned on every path is not read); each parameter-free guard conjunct
//!   (`guard_split`) has one value in states that agree on the variables it reads, and where it is
//!   false the operation has no transition; and the cache's successors of each explored state are the
//!   interpreter's, transition for transition.
//!
//! Machines where a run hits its time limit are skipped and listed (a cut by time is not comparable).
//! `BSOLVE_REUSE_MAX_STATES` raises the per-machine state limit (default `MAX_STATES`).

mod common;

use bsolve::analysis::before_after::read_write;
use bsolve::analysis::guard_split::guard_conjuncts;
use bsolve::check::mc::{McOptions, McResult, model_check};
use bsolve::check::{Model, Options};
use bsolve::eval::{ReuseCache, Transition};
use bsolve::solve::Symmetry;
use bsolve::value::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const CORPUS_MACHINES: &[&str] = &include!("corpus_mc_machines.txt");

/// States per machine and run: enough to reach many repeated projections, few enough for CI.
const MAX_STATES: u64 = 2_000;
/// Per machine and run.
const TIMEOUT: Duration = Duration::from_secs(3);
/// States whose transitions the dependency-matrix check computes, per machine.
const MATRIX_STATES: usize = 300;

/// Every machine compared: the bundled ones, then the corpus list's.
fn machines() -> Vec<PathBuf> {
    let mut bundled: Vec<PathBuf> = std::fs::read_dir(common::model_path(""))
        .expect("models folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mch"))
        .collect();
    bundled.sort();
    if let Some(corpus) = common::corpus_models() {
        bundled.extend(CORPUS_MACHINES.iter().map(|m| corpus.join(m)));
    } else {
        eprintln!("corpus not found next to the repository: bundled machines only");
    }
    bundled
}

fn load(path: &Path) -> Option<Model> {
    // A machine the loader rejects has no state space to compare (the bundled models include some
    // that test errors).
    Model::load(path, &Options::default()).ok()
}

fn run(model: &Model, reuse: bool) -> Result<McResult, String> {
    let max_states = common::env_number("BSOLVE_REUSE_MAX_STATES").unwrap_or(MAX_STATES);
    let options = McOptions {
        max_states: Some(max_states as usize),
        timeout: Some(TIMEOUT),
        stop_at_deadlock: false,
        stop_at_violation: false,
        reuse,
        ..McOptions::default()
    };
    model_check(model, &options).map_err(|d| d.to_string())
}

/// What must not depend on reuse.
fn summary(r: &McResult) -> String {
    format!(
        "verdict {:?}, {} states, {} transitions, {} deadlocked, {} violating, {} ill-defined, \
         partial {}",
        r.verdict,
        r.states,
        r.transitions,
        r.deadlocked_states,
        r.violating_states,
        r.ill_defined_operations,
        r.partial_enumeration
    )
}

/// Whether a difference is the machine's own: some machines' counts vary from run to run without reuse
/// (a constant setup or a parameter search that answers within a time share: CrewAllocationConstants_v2
/// finds 2 or 4 states). Accepted only when further runs without reuse disagree with each other and the
/// run with reuse found what one of them found.
fn plain_varies(model: &Model, plain: &McResult, reused: &McResult) -> bool {
    // Counts after a first error depend on which constant setup a time-shared search delivers first
    // (WhoKilledAgatha_wrongassert: 2 or 3 states either way): both runs are repeated, and a difference
    // is accepted only when each side's counts occur on the other side too.
    let mut plain_seen = vec![summary(plain)];
    let mut reused_seen = vec![summary(reused)];
    for _ in 0..8 {
        for (reuse, seen) in [(false, &mut plain_seen), (true, &mut reused_seen)] {
            match run(model, reuse) {
                Ok(again) if !common::timed_out(&again) => seen.push(summary(&again)),
                _ => {}
            }
        }
    }
    let varies = plain_seen.iter().any(|s| *s != plain_seen[0]);
    if varies {
        eprintln!("counts vary without reuse: {plain_seen:?}");
    }
    varies && plain_seen.contains(&reused_seen[0]) && reused_seen.contains(&plain_seen[0])
}

#[test]
fn mc_with_reuse_finds_what_mc_without_finds() {
    let (mut differ, mut skipped, mut compared) = (Vec::new(), Vec::new(), 0);
    let (mut calls, mut hits) = (0, 0);
    for path in machines() {
        let Some(model) = load(&path) else { continue };
        let (plain, reused) = match (run(&model, false), run(&model, true)) {
            (Ok(p), Ok(r)) => (p, r),
            (Err(p), Err(r)) if p == r => continue,
            (p, r) => {
                differ.push(format!(
                    "{}: errors differ: {:?} / {:?}",
                    path.display(),
                    p.map(|p| summary(&p)),
                    r.map(|r| summary(&r))
                ));
                continue;
            }
        };
        if common::timed_out(&plain) || common::timed_out(&reused) {
            skipped.push(path.display().to_string());
            continue;
        }
        compared += 1;
        let stats = reused.reuse.expect("reuse statistics with --reuse");
        calls += stats.next_state_calls;
        hits += stats.hits;
        if summary(&plain) != summary(&reused) && !plain_varies(&model, &plain, &reused) {
            differ.push(format!(
                "{}:\n  without reuse: {}\n  with reuse:    {}",
                path.display(),
                summary(&plain),
                summary(&reused)
            ));
        }
    }
    eprintln!(
        "{compared} machines compared ({calls} next-state calls, {hits} reused); {} skipped for \
         time: {}",
        skipped.len(),
        skipped.join(", ")
    );
    assert!(compared > 0, "no machine compared");
    assert!(
        differ.is_empty(),
        "{} machines differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// Operation `k`'s part of a state's successors, as reuse caches it: per transition its parameters,
/// outputs, ANY values and the values of its write set; then the state's completeness and the
/// operation's diagnostics.
type Outcome = (Vec<[Vec<Value>; 4]>, bool, Vec<String>);

/// A guard conjunct in a projection: (operation, conjunct, setup, values of the variables it reads).
type GuardKey = (usize, usize, usize, Vec<Value>);

/// An operation's outcome in a projection, and the state it was first seen in.
type FirstSeen = (Outcome, Vec<Value>);

#[test]
fn dependency_matrix_holds_in_explored_states() {
    let mut failures = Vec::new();
    for path in machines() {
        let Some(model) = load(&path) else { continue };
        if let Err(e) = check_matrix(&model) {
            // Values of whole states: the start of the message is enough to find the difference.
            let short: String = e.chars().take(2_000).collect();
            failures.push(format!("{}: {short}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} machines break the dependency matrix:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Explores up to `MATRIX_STATES` states breadth-first, checks every reusable operation's write set
/// and projection (see the module comment) and compares the cache's successors with the interpreter's
/// in each state; errors of the interpreter end the exploration quietly (the
/// comparison of runs covers them).
fn check_matrix(model: &Model) -> Result<(), String> {
    let ctx = &model.context;
    let m = model.machine();
    let cache = ReuseCache::new(m);
    let indices = |names: &dyn Fn(&str) -> bool| -> Vec<usize> {
        (m.variables.iter().enumerate())
            .filter(|(_, v)| names(&v.name))
            .map(|(i, _)| i)
            .collect()
    };
    // Per reusable operation: its key (reads and writes), its writes, and its narrow key (reads, and
    // writes not on every path).
    let rows: Vec<Option<[Vec<usize>; 3]>> = (m.operations.iter().enumerate())
        .map(|(k, op)| {
            cache.is_reusable(k).then(|| {
                let rw = read_write(m, op);
                let key = indices(&|n| rw.reads.contains(n) || rw.writes.contains(n));
                let narrow = indices(&|n| {
                    rw.reads.contains(n) || (rw.writes.contains(n) && !rw.must_writes.contains(n))
                });
                [key, indices(&|n| rw.writes.contains(n)), narrow]
            })
        })
        .collect();
    // Per reusable operation, its parameter-free guard conjuncts with the indices they read.
    let guards: Vec<Vec<(&bsolve::ir::Pred, Vec<usize>)>> = (m.operations.iter().enumerate())
        .map(|(k, op)| {
            let conjuncts = guard_conjuncts(m, op).into_iter();
            conjuncts
                .filter(|g| cache.is_reusable(k) && g.parameter_free)
                .map(|g| (g.pred, indices(&|n| g.reads.contains(n))))
                .collect()
        })
        .collect();
    // (operation, conjunct, setup, projection) → its value and the state first seen in.
    let mut guard_values: HashMap<GuardKey, (bool, Vec<Value>)> = HashMap::new();
    if rows.iter().all(Option::is_none) {
        return Ok(());
    }
    let setups = if m.constants.is_empty() && m.params.is_empty() {
        vec![vec![]]
    } else {
        match ctx.setup_constants(5, Symmetry::ProbSetups) {
            Ok(found) => found.solutions,
            Err(_) => return Ok(()),
        }
    };
    let max_ops = ctx.settings().max_operations;
    let start = Instant::now();
    // (operation, setup, projection) → its outcome there and the first state it was seen in.
    let mut seen: HashMap<(usize, usize, Vec<Value>), FirstSeen> = HashMap::new();
    let mut visited = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::new();
    for (s, constants) in setups.iter().enumerate() {
        for state in ctx.initial_states(constants, 5).unwrap_or_default() {
            if visited.insert((s, state.clone())) {
                queue.push_back((s, state));
            }
        }
    }
    let mut expanded = 0;
    while let Some((s, state)) = queue.pop_front() {
        if expanded == MATRIX_STATES || start.elapsed() > TIMEOUT {
            break;
        }
        expanded += 1;
        let Ok(found) = ctx.successors_tolerant(&setups[s], &state, max_ops) else {
            break;
        };
        // What the cache gives, warmed by the states before, is what the interpreter computes. As a
        // set: the interpreter itself may list one operation's transitions in another order from one
        // call to the next (its enumeration or the solver answers, `EnumerationTally`).
        let reused = cache
            .successors(ctx, s as u32, &setups[s], &state, max_ops)
            .map_err(|e| format!("{e:?}"))?;
        let only = |a: &[Transition], b: &[Transition]| -> Vec<String> {
            let b: HashSet<&Transition> = b.iter().collect();
            let names =
                |t: &Transition| format!("{}{:?}", m.operations[t.operation].name, t.params);
            a.iter().filter(|t| !b.contains(t)).map(names).collect()
        };
        if reused.transitions.len() != found.transitions.len()
            || !only(&reused.transitions, &found.transitions).is_empty()
            || (reused.complete, &reused.ill_defined) != (found.complete, &found.ill_defined)
        {
            return Err(format!(
                "in state {:?} the cache gives {} transitions (complete {}, {} ill-defined), the \
                 interpreter {} (complete {}, {} ill-defined); only from the cache: {:?}; only from \
                 the interpreter: {:?}",
                state.values,
                reused.transitions.len(),
                reused.complete,
                reused.ill_defined.len(),
                found.transitions.len(),
                found.complete,
                found.ill_defined.len(),
                only(&reused.transitions, &found.transitions),
                only(&found.transitions, &reused.transitions),
            ));
        }
        let env = ctx
            .state_env(&setups[s], &state)
            .map_err(|e| format!("{e:?}"))?;
        for (k, conjuncts) in guards.iter().enumerate() {
            for (j, (pred, reads)) in conjuncts.iter().enumerate() {
                // An ill-defined conjunct has no value to compare.
                let Ok(holds) = ctx.eval_pred(pred, &env) else {
                    continue;
                };
                let op = &m.operations[k].name;
                if !holds && found.transitions.iter().any(|t| t.operation == k) {
                    return Err(format!(
                        "{op}: its guard conjunct {j} is false in {:?}, yet it has transitions",
                        state.values
                    ));
                }
                let projection: Vec<Value> =
                    reads.iter().map(|&i| state.values[i].clone()).collect();
                match guard_values.get(&(k, j, s, projection.clone())) {
                    Some((before, first)) if *before != holds => {
                        return Err(format!(
                            "{op}: its guard conjunct {j} differs between {first:?} and {:?}, \
                             which agree on the variables it reads",
                            state.values
                        ));
                    }
                    Some(_) => {}
                    None => {
                        guard_values.insert((k, j, s, projection), (holds, state.values.clone()));
                    }
                }
            }
        }
        for (k, row) in rows.iter().enumerate() {
            let Some([key, writes, narrow]) = row else {
                continue;
            };
            let op = &m.operations[k].name;
            let mine: Vec<_> = found
                .transitions
                .iter()
                .filter(|t| t.operation == k)
                .collect();
            for t in &mine {
                let changed: Vec<&str> = (m.variables.iter().enumerate())
                    .filter(|(i, _)| t.target.values[*i] != state.values[*i])
                    .filter(|(i, _)| !writes.contains(i))
                    .map(|(_, v)| &*v.name)
                    .collect();
                if !changed.is_empty() {
                    return Err(format!("{op} changes {changed:?} outside its write set"));
                }
            }
            // An outcome cut by a limit or enumerated in part is never cached, and the interpreter may
            // keep another subset each time (Dataflow/Loop.mch: is_loop reads no variable, and
            // MAX_OPERATIONS cuts its enablings). Completeness is the whole state's here.
            if !found.complete {
                continue;
            }
            let mut transitions: Vec<[Vec<Value>; 4]> = mine
                .iter()
                .map(|t| {
                    let written = writes.iter().map(|&i| t.target.values[i].clone()).collect();
                    [
                        t.params.clone(),
                        t.outputs.clone(),
                        t.any_values.clone(),
                        written,
                    ]
                })
                .collect();
            // As a set: the interpreter's order may differ between calls (see above).
            transitions.sort();
            let outcome: Outcome = (
                transitions,
                found.complete,
                (found.ill_defined.iter())
                    .filter(|(o, _)| *o == k)
                    .map(|(_, d)| d.to_string())
                    .collect(),
            );
            // Keyed on reads and writes, then on the narrow key (operation index shifted past the
            // operations' count: one map for both).
            for (slot, key) in [(k, key), (k + m.operations.len(), narrow)] {
                let projection: Vec<Value> = key.iter().map(|&i| state.values[i].clone()).collect();
                match seen.get(&(slot, s, projection.clone())) {
                    Some((before, first)) if before.0 != outcome.0 || before.2 != outcome.2 => {
                        return Err(format!(
                            "{op}: states {first:?} and {:?} agree on its {} but its transitions \
                             differ: {before:?} / {outcome:?}",
                            state.values,
                            if slot == k {
                                "reads and writes"
                            } else {
                                "reads and the writes not made on every path"
                            }
                        ));
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(
                            (slot, s, projection),
                            (outcome.clone(), state.values.clone()),
                        );
                    }
                }
            }
        }
        for t in found.transitions {
            if visited.insert((s, t.target.clone())) {
                queue.push_back((s, t.target));
            }
        }
    }
    Ok(())
}

#[test]
fn operations_with_calls_loops_or_hiding_locals_are_not_reused() {
    let model = common::load_text(
        "ReuseKinds",
        "MACHINE ReuseKinds
         VARIABLES x, y
         INVARIANT x : 0..3 & y : 0..3
         INITIALISATION x := 0 || y := 0
         OPERATIONS
           plain = PRE x < 3 THEN x := x + 1 END;
           loop = VAR i IN i := 0; WHILE i < 2 DO i := i + 1 INVARIANT i : 0..2 VARIANT 2 - i END;
                  y := i END;
           hiding = ANY x WHERE x : 0..1 THEN y := x END
         END",
        &Options::default(),
    );
    let cache = ReuseCache::new(model.machine());
    assert!(cache.is_reusable(0));
    assert!(
        !cache.is_reusable(1),
        "a WHILE loop depends on the time budget"
    );
    assert!(!cache.is_reusable(2), "a local hides the variable x");
}

#[test]
fn a_branch_leaving_a_written_variable_keeps_its_own_value() {
    // `reset` writes x only when y > 0: x is not read, yet the target keeps each state's own x where the
    // branch is not taken. Keyed on reads alone, reuse would copy one state's x into another.
    let model = common::load_text(
        "KeepWritten",
        "MACHINE KeepWritten
         VARIABLES x, y
         INVARIANT x : 0..3 & y : 0..1
         INITIALISATION x := 0 || y := 0
         OPERATIONS
           inc = PRE x < 3 THEN x := x + 1 END;
           flip = y := 1 - y;
           reset = IF y > 0 THEN x := 0 END
         END",
        &Options::default(),
    );
    check_matrix(&model).expect("reuse gives the interpreter's transitions");
    let plain = run(&model, false).expect("runs");
    let reused = run(&model, true).expect("runs");
    assert_eq!(summary(&plain), summary(&reused));
    assert_eq!(plain.states, 8);
    let stats = reused.reuse.expect("stats");
    assert!(stats.hits > 0, "{stats:?}");
}

#[test]
fn mc_reports_next_state_calls_and_reuse_hits_with_reuse_only() {
    let model = common::model_arg("Elevator.mch");
    // One worker: two workers may both miss a projection neither has stored yet.
    let (code, json) = common::bsolve_json(&["mc", &model, "--reuse", "--workers", "1"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(
        (&json["states"], &json["transitions"]),
        (&24.into(), &33.into())
    );
    // 24 states × 4 operations: each evaluation either performed or reused.
    assert_eq!(
        (&json["next_state_calls"], &json["reuse_hits"]),
        (&24.into(), &72.into())
    );
    let (_, plain) = common::bsolve_json(&["mc", &model]);
    assert!(plain.get("next_state_calls").is_none(), "{plain}");
    let (_, text, _) = common::bsolve(&["mc", &model, "--reuse", "--workers", "1"]);
    assert!(
        text.contains("next-state calls: 24 (operation evaluations), reused: 72"),
        "{text}"
    );
}
