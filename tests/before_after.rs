//! Before-after predicates against the interpreter: from reachable states of the `models/` machines and
//! of a sample of corpus machines, the successors found by solving BA(op)(x, p, x') with the state bound
//! must be exactly the interpreter's successors (`Context::successors`), operation by operation.

use bsolve::analysis::before_after::{
    copy_name, enabling, initialisation, is_exact, operation, state_copy,
};
use bsolve::check::{Model, Options};
use bsolve::eval::{Context, Env, EvalError, State};
use bsolve::solve::{self, Backend, Problem};
use bsolve::value::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const CORPUS_MACHINES: &[&str] = &include!("corpus_mc_machines.txt");

type Moves = BTreeSet<(usize, Vec<Value>, Vec<Value>)>;

/// Successors by solving each operation's BA; `None` when some search was not exhaustive.
fn by_before_after(
    ctx: &Context,
    constants: &[Value],
    state: &State,
) -> Result<Option<Moves>, String> {
    let m = ctx.machine();
    let mut env: Env = ctx.constants_env(constants).map_err(|e| e.to_string())?;
    for (v, x) in m.variables.iter().zip(&state.values) {
        env.bind(copy_name(&v.name, 0), x.clone());
    }
    let mut moves = Moves::new();
    for (k, op) in m.operations.iter().enumerate() {
        let t = operation(m, op, 0, 1).map_err(|d| d.to_string())?;
        let after = state_copy(m, 1);
        let vars: Vec<_> = t
            .params
            .iter()
            .chain(&t.outputs)
            .chain(&after)
            .cloned()
            .collect();
        let mut problem = Problem::new(&vars, &t.pred, &env);
        problem.sizes_matter = false;
        // A resource limit of the solver (a type too large to enumerate, the time budget) decides nothing.
        let found = match solve::solve_all(ctx, &problem, Backend::Auto, 5000) {
            Ok(found) if found.complete => found,
            Ok(_) | Err(EvalError::Limit(_)) => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        let np = t.params.len();
        let nout = t.outputs.len();
        for sol in found.solutions {
            moves.insert((k, sol[..np].to_vec(), sol[np + nout..].to_vec()));
        }
    }
    Ok(Some(moves))
}

fn by_interpreter(
    ctx: &Context,
    constants: &[Value],
    state: &State,
) -> Result<Option<(Moves, Vec<State>)>, String> {
    let (ts, complete) = ctx
        .successors_with_completeness(constants, state, 5000)
        .map_err(|e| e.to_string())?;
    if !complete {
        return Ok(None);
    }
    let targets = ts.iter().map(|t| t.target.clone()).collect();
    let moves = ts
        .into_iter()
        .map(|t| (t.operation, t.params, t.target.values))
        .collect();
    Ok(Some((moves, targets)))
}

/// The enabling predicate of each operation holds exactly when the interpreter finds a transition of it
/// (where the interpreter can decide the predicate).
fn check_enabling(
    ctx: &Context,
    constants: &[Value],
    state: &State,
    moves: &Moves,
) -> Result<(), String> {
    let m = ctx.machine();
    let mut env: Env = ctx.constants_env(constants).map_err(|e| e.to_string())?;
    for (v, x) in m.variables.iter().zip(&state.values) {
        env.bind(copy_name(&v.name, 0), x.clone());
    }
    for (k, op) in m.operations.iter().enumerate() {
        let guard = enabling(m, op, 0).map_err(|d| d.to_string())?;
        let Ok(enabled) = ctx.eval_pred(&guard, &env) else {
            continue;
        };
        if enabled != moves.iter().any(|(o, _, _)| *o == k) {
            return Err(format!(
                "from {:?}: enabling predicate of {} is {enabled}, the interpreter disagrees",
                state.values, op.name
            ));
        }
    }
    Ok(())
}

/// The initial states by solving BA(INITIALISATION) equal the interpreter's (when it enumerates them all).
fn compare_initialisation(ctx: &Context, constants: &[Value]) -> Result<(), String> {
    const LIMIT: usize = 500;
    let m = ctx.machine();
    let Ok(mut expected) = ctx.initial_states(constants, LIMIT) else {
        return Ok(());
    };
    if expected.len() >= LIMIT {
        return Ok(());
    }
    let env = ctx.constants_env(constants).map_err(|e| e.to_string())?;
    let pred = initialisation(m, 0).map_err(|d| d.to_string())?;
    let vars = state_copy(m, 0);
    let mut problem = Problem::new(&vars, &pred, &env);
    problem.sizes_matter = false;
    let found = match solve::solve_all(ctx, &problem, Backend::Auto, LIMIT) {
        Ok(found) if found.complete => found,
        Ok(_) | Err(EvalError::Limit(_)) => return Ok(()),
        Err(e) => return Err(e.to_string()),
    };
    let mut got: Vec<State> = found
        .solutions
        .into_iter()
        .map(|values| State { values })
        .collect();
    got.sort();
    expected.sort();
    if got != expected {
        return Err(format!(
            "initial states: interpreter {expected:?}\nbefore-after {got:?}"
        ));
    }
    Ok(())
}

/// Compares both on up to `max_states` states reached breadth-first; returns how many states agreed,
/// or the first difference.
fn compare_machine(path: &Path, max_states: usize, budget: Duration) -> Result<usize, String> {
    let model = Model::load(path, &Options::default()).map_err(|d| d.to_string())?;
    let ctx = &model.context;
    // WHILE loops are over-approximated (by design): nothing to compare exactly.
    let m = ctx.machine();
    if m.variables.is_empty() || !m.operations.iter().all(|op| is_exact(&op.body)) {
        return Ok(0);
    }
    ctx.set_deadline(Some(Instant::now() + budget));
    // The interpreter's own limits (a set too large to enumerate, a timeout) leave nothing to compare.
    let Some(constants) = ctx
        .setup_constants(1, bsolve::solve::Symmetry::Representatives)
        .ok()
        .and_then(|s| s.solutions.into_iter().next())
    else {
        return Ok(0);
    };
    if is_exact(&m.initialisation) {
        compare_initialisation(ctx, &constants)?;
    }
    let Ok(mut queue) = ctx.initial_states(&constants, 2) else {
        return Ok(0);
    };
    let mut seen: BTreeSet<State> = queue.iter().cloned().collect();
    let mut compared = 0;
    while compared < max_states && !queue.is_empty() {
        let state = queue.remove(0);
        let Ok(Some((expected, targets))) = by_interpreter(ctx, &constants, &state) else {
            continue;
        };
        let Some(got) = by_before_after(ctx, &constants, &state)? else {
            continue;
        };
        if got != expected {
            return Err(format!(
                "from {:?}: interpreter {:?}\nbefore-after {:?}",
                state.values, expected, got
            ));
        }
        check_enabling(ctx, &constants, &state, &expected)?;
        compared += 1;
        for t in targets {
            if seen.insert(t.clone()) {
                queue.push(t);
            }
        }
    }
    Ok(compared)
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn before_after_successors_equal_the_interpreters_on_the_project_models() {
    let mut compared = 0;
    let mut failures = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(root().join("models"))
        .expect("models/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mch"))
        .collect();
    entries.sort();
    for path in entries {
        match compare_machine(&path, 8, Duration::from_secs(10)) {
            Ok(n) => compared += n,
            Err(e) if e.contains("time") || e.contains("unsupported") => {}
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 20, "only {compared} states compared");
}

#[test]
fn before_after_successors_equal_the_interpreters_on_corpus_machines() {
    let corpus = root().join("../shared/corpus/models");
    if !corpus.exists() {
        eprintln!("corpus not found next to the repository: skipping");
        return;
    }
    let mut machines = 0;
    let mut failures = Vec::new();
    for name in CORPUS_MACHINES.iter().step_by(3) {
        match compare_machine(&corpus.join(name), 4, Duration::from_secs(3)) {
            Ok(n) if n > 0 => machines += 1,
            Ok(_) => {}
            Err(e) if e.contains("time") || e.contains("nsupported") => {}
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(machines >= 60, "only {machines} corpus machines compared");
}
