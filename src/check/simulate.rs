//! `bsolve simulate`: random walks through a machine's states with restarts, looking for an invariant
//! violation or a deadlock beyond the horizon of a breadth-first search (the randomised searches of
//! the RERS paper, ProB's random animation, LoLA's attracted simulation).
//!
//! A run picks a constant setup and an initial state at random, then up to `depth` successors, each
//! drawn uniformly among the transitions the interpreter finds — or, when guided, among those whose
//! target is closest to violating the invariant (`Distance`), with a share of uniform steps so that a
//! walk is not trapped by the heuristic. A walk ends at the depth, at a deadlock, or at an error; then
//! the next run starts. Every trace reported is replayed by the interpreter first (the INITIALISATION
//! and each operation re-executed, the invariant re-evaluated, a deadlock's successors recomputed).
//!
//! Runs are reproducible: the random choices come from `seed` only (one generator for all runs), and
//! the interpreter's successors of a state do not depend on earlier states. A walk proves nothing when
//! it finds nothing: the answer then says how many runs and steps were taken.

use super::Model;
use super::explicit_search::replay;
use super::mc::Step;
use super::setup::{Assignment, constant_names};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::{Env, State, Transition};
use crate::ir::{CompareOp, Expr, Pred, PredKind};
use crate::solve::Symmetry;
use crate::types::Type;
use crate::value::Value;
use num_traits::ToPrimitive;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct SimulateOptions {
    pub runs: usize,
    /// Operations per run at most.
    pub depth: usize,
    pub seed: u64,
    pub timeout: Option<Duration>,
    /// Prefer successors closer to an invariant violation.
    pub guided: bool,
    pub check_deadlock: bool,
}

impl Default for SimulateOptions {
    fn default() -> Self {
        SimulateOptions {
            runs: 1_000,
            depth: 1_000,
            seed: 0,
            timeout: None,
            guided: false,
            check_deadlock: true,
        }
    }
}

/// What the walks found.
#[derive(Clone, Debug)]
pub enum SimVerdict {
    /// The invariant conjuncts at these positions are false (or ill-defined) in the trace's last state.
    InvariantViolation(Vec<Span>),
    Deadlock,
    /// No error in the runs taken (all of them, or until the time limit).
    NoErrorFound,
    /// No state to start from: no constant setup or no initial state.
    NoInitialState,
}

pub struct SimResult {
    pub verdict: SimVerdict,
    /// The replayed trace to the error (empty without one).
    pub trace: Vec<Step>,
    /// Runs started, and the run that found the error (from 1).
    pub runs: usize,
    pub found_in_run: Option<usize>,
    /// Operations executed over all runs.
    pub steps: u64,
    pub elapsed: Duration,
    /// The walks stopped at the time limit before `runs` runs.
    pub timed_out: bool,
}

/// Out of 8 guided steps, how many follow the heuristic (the others are uniform).
const GUIDED_SHARE: u64 = 7;

/// A minimal 64-bit generator (splitmix64, Steele, Lea and Flood, OOPSLA 2014): reproducible from its
/// seed on every platform, which is all a walk needs.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One step of a walk, kept to build the trace.
struct Taken {
    transition: Transition,
    before: Vec<Value>,
}

pub fn simulate(model: &Model, options: &SimulateOptions) -> Result<SimResult, Diagnostic> {
    let start = Instant::now();
    let ctx = &model.context;
    let machine = model.machine();
    let settings = ctx.settings();
    let (max_inits, max_ops) = (settings.max_initialisations, settings.max_operations);
    let has_constants = !(machine.constants.is_empty()
        && machine.params.is_empty()
        && matches!(machine.properties.kind, PredKind::True));
    let setups = if has_constants {
        ctx.setup_constants(max_inits, Symmetry::ProbSetups)?
            .solutions
    } else {
        vec![vec![]]
    };
    // Initial states per setup, computed when a run first picks the setup.
    let mut initial: Vec<Option<Vec<State>>> = vec![None; setups.len()];
    let distance = options.guided.then(|| Distance::new(&machine.invariant));
    let mut random = Random(options.seed);
    let mut result = SimResult {
        verdict: SimVerdict::NoErrorFound,
        trace: vec![],
        runs: 0,
        found_in_run: None,
        steps: 0,
        elapsed: Duration::ZERO,
        timed_out: false,
    };
    let out_of_time = || options.timeout.is_some_and(|t| start.elapsed() > t);
    if setups.is_empty() {
        result.verdict = SimVerdict::NoInitialState;
    }
    while !setups.is_empty() && result.runs < options.runs {
        if out_of_time() {
            result.timed_out = true;
            break;
        }
        result.runs += 1;
        let setup = random.below(setups.len());
        let constants = &setups[setup];
        let states = match &initial[setup] {
            Some(states) => states,
            None => initial[setup].insert(ctx.initial_states(constants, max_inits)?),
        };
        if states.is_empty() {
            // This setup has no initial state; the run ends (another setup may have one).
            if initial
                .iter()
                .all(|i| i.as_ref().is_some_and(Vec::is_empty))
            {
                result.verdict = SimVerdict::NoInitialState;
                break;
            }
            continue;
        }
        let mut state = states[random.below(states.len())].clone();
        let mut walk: Vec<Taken> = Vec::new();
        let mut found = violated(model, constants, &state.values)?;
        while found.is_none() && walk.len() < options.depth {
            if walk.len().is_multiple_of(64) && out_of_time() {
                break;
            }
            let successors = ctx.successors_tolerant(constants, &state, max_ops)?;
            let mut transitions = successors.transitions;
            if transitions.is_empty() {
                if options.check_deadlock && successors.complete {
                    found = Some(SimVerdict::Deadlock);
                }
                break;
            }
            let pick = match &distance {
                Some(d) if random.below(8) < GUIDED_SHARE as usize => {
                    let env_of = |t: &Transition| ctx.state_env(constants, &t.target).ok();
                    let scores: Vec<u64> = transitions
                        .iter()
                        .map(|t| env_of(t).map_or(u64::MAX, |env| d.of(model, &env)))
                        .collect();
                    let best = *scores.iter().min().expect("some transition");
                    let closest: Vec<usize> =
                        (0..scores.len()).filter(|&i| scores[i] == best).collect();
                    closest[random.below(closest.len())]
                }
                _ => random.below(transitions.len()),
            };
            let transition = transitions.swap_remove(pick);
            let before = std::mem::replace(&mut state.values, transition.target.values.clone());
            walk.push(Taken { transition, before });
            result.steps += 1;
            found = violated(model, constants, &state.values)?;
        }
        if let Some(verdict) = found {
            let steps = steps(model, constants, &states_first(&walk, &state), &walk);
            let Some((trace, replayed_constants, last)) = replay(model, &steps) else {
                return Err(Diagnostic::new(
                    DiagKind::Internal,
                    machine.span,
                    "a simulated trace did not replay",
                ));
            };
            if !confirmed(model, &verdict, &replayed_constants, &last, max_ops) {
                return Err(Diagnostic::new(
                    DiagKind::Internal,
                    machine.span,
                    "the error of a simulated trace was not confirmed by its replay",
                ));
            }
            result.verdict = verdict;
            result.trace = trace;
            result.found_in_run = Some(result.runs);
            break;
        }
    }
    result.elapsed = start.elapsed();
    Ok(result)
}

/// The walk's initial state: the state before its first step, or `state` when it took none.
fn states_first(walk: &[Taken], state: &State) -> Vec<Value> {
    walk.first()
        .map_or_else(|| state.values.clone(), |t| t.before.clone())
}

/// The walk as model-checker steps: SETUP_CONSTANTS (when the machine has constants),
/// INITIALISATION, then each operation with the variables it changed.
fn steps(model: &Model, constants: &[Value], initial: &[Value], walk: &[Taken]) -> Vec<Step> {
    let machine = model.machine();
    let named = |names: &[crate::ir::TypedName], values: &[Value]| -> Assignment {
        names
            .iter()
            .map(|n| n.name.clone())
            .zip(values.iter().cloned())
            .collect()
    };
    let mut out = Vec::new();
    if !constants.is_empty() {
        out.push(Step {
            label: "SETUP_CONSTANTS".into(),
            params: vec![],
            outputs: vec![],
            changed: constant_names(model)
                .into_iter()
                .zip(constants.iter().cloned())
                .collect(),
        });
    }
    out.push(Step {
        label: "INITIALISATION".into(),
        params: vec![],
        outputs: vec![],
        changed: named(&machine.variables, initial),
    });
    for taken in walk {
        let t = &taken.transition;
        let op = &machine.operations[t.operation];
        let changed = (machine.variables.iter().enumerate())
            .filter(|(i, _)| taken.before[*i] != t.target.values[*i])
            .map(|(i, v)| (v.name.clone(), t.target.values[i].clone()))
            .collect();
        out.push(Step {
            label: op.name.to_string(),
            params: named(&op.params, &t.params),
            outputs: named(&op.outputs, &t.outputs),
            changed,
        });
    }
    out
}

/// The invariant's false or ill-defined conjuncts in `state`, as a verdict; None when it holds.
fn violated(
    model: &Model,
    constants: &[Value],
    state: &[Value],
) -> Result<Option<SimVerdict>, Diagnostic> {
    let spans = super::cbc::violated_conjuncts(model, constants, state)?;
    Ok((!spans.is_empty()).then_some(SimVerdict::InvariantViolation(spans)))
}

/// Whether the replayed last state shows the error again: the invariant false there, or no
/// transition leaving it.
fn confirmed(
    model: &Model,
    verdict: &SimVerdict,
    constants: &[Value],
    state: &[Value],
    max_ops: usize,
) -> bool {
    match verdict {
        SimVerdict::InvariantViolation(_) => {
            matches!(violated(model, constants, state), Ok(Some(_)))
        }
        SimVerdict::Deadlock => {
            let state = State {
                values: state.to_vec(),
            };
            matches!(
                model.context.successors_tolerant(constants, &state, max_ops),
                Ok(s) if s.transitions.is_empty() && s.complete
            )
        }
        SimVerdict::NoErrorFound | SimVerdict::NoInitialState => true,
    }
}

/// How far a state is from violating the invariant: per conjunct C, a conjunction of conditions
/// equivalent to `not C` (`not(A & B)`: A, B; `A => B`: A, `not B`; `x /= e`: `x = e`; `x < e`: `e <= x`;
/// a disjunction: the negation of each part), and per condition its distance — for an integer
/// comparison how much one side must move (`x = 5` at x = 2: 3), otherwise 0, or `FALSE_GAP` when false
/// (more than the integer gaps that matter, so that a conjunct near violation by arithmetic leads over
/// one whose typing or boolean condition is false). A state's distance is the smallest over conjuncts of
/// the sum over its conditions: 0 exactly where a conjunct is false.
struct Distance {
    conjuncts: Vec<Vec<Condition>>,
}

/// The distance of a condition that is false and not an integer comparison.
const FALSE_GAP: u64 = 1_000;

/// One condition of a conjunct's negation.
enum Condition {
    /// `a op b` over integers, `op` one of =, <, <=.
    Compare(CompareOp, Expr, Expr),
    /// Any other predicate that must hold.
    Holds(Pred),
}

impl Distance {
    fn new(invariant: &Pred) -> Distance {
        Distance {
            conjuncts: invariant
                .conjuncts()
                .into_iter()
                .map(|c| {
                    let mut out = Vec::new();
                    negation(c, &mut out);
                    out
                })
                .collect(),
        }
    }

    fn of(&self, model: &Model, env: &Env) -> u64 {
        self.conjuncts
            .iter()
            .map(|conditions| {
                conditions
                    .iter()
                    .map(|c| c.distance(model, env))
                    .fold(0u64, u64::saturating_add)
            })
            .min()
            .unwrap_or(u64::MAX)
    }
}

/// Conditions whose conjunction is equivalent to `not p`.
fn negation(p: &Pred, out: &mut Vec<Condition>) {
    let not = |q: &Pred| Pred::new(PredKind::Not(Box::new(q.clone())), q.span);
    match &p.kind {
        PredKind::Not(q) => match &q.kind {
            PredKind::And(parts) => parts.iter().for_each(|q| holds(q, out)),
            _ => holds(q, out),
        },
        PredKind::Implies(a, b) => {
            holds(a, out);
            negation(b, out);
        }
        PredKind::Or(parts) => parts.iter().for_each(|q| negation(q, out)),
        PredKind::Compare(CompareOp::NotEq, a, b) => {
            out.push(Condition::Compare(
                CompareOp::Eq,
                (**a).clone(),
                (**b).clone(),
            ));
        }
        PredKind::Compare(CompareOp::Lt, a, b) if a.ty == Type::Integer => {
            out.push(Condition::Compare(
                CompareOp::Le,
                (**b).clone(),
                (**a).clone(),
            ));
        }
        PredKind::Compare(CompareOp::Le, a, b) if a.ty == Type::Integer => {
            out.push(Condition::Compare(
                CompareOp::Lt,
                (**b).clone(),
                (**a).clone(),
            ));
        }
        _ => out.push(Condition::Holds(not(p))),
    }
}

/// Conditions whose conjunction is equivalent to `p`.
fn holds(p: &Pred, out: &mut Vec<Condition>) {
    match &p.kind {
        PredKind::And(parts) => parts.iter().for_each(|q| holds(q, out)),
        PredKind::Not(q) => negation(q, out),
        PredKind::Compare(op @ (CompareOp::Eq | CompareOp::Lt | CompareOp::Le), a, b)
            if a.ty == Type::Integer =>
        {
            out.push(Condition::Compare(*op, (**a).clone(), (**b).clone()));
        }
        _ => out.push(Condition::Holds(p.clone())),
    }
}

impl Condition {
    fn distance(&self, model: &Model, env: &Env) -> u64 {
        let ctx = &model.context;
        match self {
            Condition::Compare(op, a, b) => {
                let integer = |e: &Expr| match ctx.eval_expr(e, env) {
                    Ok(Value::Int(i)) => i.to_i64(),
                    _ => None,
                };
                let (Some(a), Some(b)) = (integer(a), integer(b)) else {
                    return FALSE_GAP;
                };
                // How much `a` must fall (or `b` rise) for the comparison to hold.
                let excess = match op {
                    CompareOp::Eq => return a.abs_diff(b),
                    CompareOp::Lt => a.saturating_sub(b).saturating_add(1),
                    _ => a.saturating_sub(b),
                };
                excess.max(0).to_u64().unwrap_or(u64::MAX)
            }
            Condition::Holds(p) => match ctx.eval_pred(p, env) {
                Ok(true) => 0,
                Ok(false) | Err(_) => FALSE_GAP,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step counter and a wide frontier of noise: the violation `p = 45` is 45 steps deep.
    const DEEP: &str = "MACHINE Deep\nVARIABLES p, a, b\n\
        INVARIANT p : 0..50 & a : 0..9 & b : 0..9 & p < 45\n\
        INITIALISATION p, a, b := 0, 0, 0\n\
        OPERATIONS advance = PRE p < 50 THEN p := p + 1 END;\n\
        na(x) = PRE x : 0..9 THEN a := x END;\n\
        nb(x) = PRE x : 0..9 THEN b := x END\nEND";

    #[test]
    fn a_guided_walk_finds_a_deep_violation_and_replays_it() {
        let model = Model::from_text("Deep", DEEP);
        let options = SimulateOptions {
            runs: 20,
            depth: 200,
            seed: 7,
            guided: true,
            ..SimulateOptions::default()
        };
        let r = simulate(&model, &options).expect("simulates");
        assert!(
            matches!(r.verdict, SimVerdict::InvariantViolation(_)),
            "{:?}",
            r.verdict
        );
        // INITIALISATION and at least 45 operations.
        assert!(r.trace.len() >= 46, "{}", r.trace.len());
        // Reproducible: the same seed gives the same walk.
        let again = simulate(&model, &options).expect("simulates");
        assert_eq!(
            (again.runs, again.steps, again.trace.len()),
            (r.runs, r.steps, r.trace.len())
        );
    }

    #[test]
    fn the_distance_to_a_violation_counts_integer_gaps() {
        let model = Model::from_text("Deep", DEEP);
        let d = Distance::new(&model.machine().invariant);
        let ctx = &model.context;
        let at = |p: i64| {
            let state = State {
                values: vec![
                    Value::Int(p.into()),
                    Value::Int(0.into()),
                    Value::Int(0.into()),
                ],
            };
            d.of(&model, &ctx.state_env(&[], &state).expect("environment"))
        };
        // p < 45 is violated at 45: distances 45, 5, 0.
        assert_eq!((at(0), at(40), at(45)), (45, 5, 0));
    }

    #[test]
    fn a_deadlock_is_found_and_replayed() {
        let model = Model::from_text(
            "Stop",
            "MACHINE Stop\nVARIABLES x\nINVARIANT x : 0..3\nINITIALISATION x := 0\n\
             OPERATIONS up = PRE x < 3 THEN x := x + 1 END\nEND",
        );
        let r = simulate(&model, &SimulateOptions::default()).expect("simulates");
        assert!(matches!(r.verdict, SimVerdict::Deadlock), "{:?}", r.verdict);
        assert_eq!(r.trace.len(), 4);
    }
}
