//! Bounded model checking (`bsolve bmc FILE DEPTH [--deadlock]`): the transition system unrolled from the
//! INITIALISATION, constants solved symbolically with everything else (never enumerated). As ProB's `-bmc`
//! (CBC test generation with target `not INVARIANT`), the unrolling follows *operation sequences*
//! breadth-first: for each sequence op1..opk whose path is feasible,
//!
//! PROPERTIES & Init(x0) & INV(x0) & BA(op1)(x0,p0,x1) & INV(x1) & ... & BA(opk)(x(k-1),p(k-1),xk) & not INV(xk)
//!
//! (or, with `--deadlock`, INV(xk) & no operation enabled in xk). A sequence is extended only when its path
//! is satisfiable (or undecided), so infeasible prefixes prune the tree. One sequence per question, rather
//! than the disjunction of all operations at every step, keeps each question a conjunction the solver
//! propagates through (a disjunction of existentials makes the native solver enumerate the state).
//! Lengths are tried in increasing order, so the first counterexample is a shortest one; the invariant is
//! assumed on the states before the last, which only prunes (a shorter violation would have been found at
//! its own length). Every counterexample is replayed by the interpreter before it is reported.

use super::Model;
use super::cbc::{
    INCOMPLETE, Search, constant_vars, initial_steps, not, properties, replay_step,
    require_variables, search, violated_conjuncts,
};
use super::mc::Step;
use crate::analysis::before_after::{
    self, and, copy_name, exists, or, pred_in_copy, read_write, state_copy,
};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::Env;
use crate::ir::{CompareOp, Expr, ExprKind, Machine, Pred, PredKind, TypedName};
use crate::value::Value;
use std::time::{Duration, Instant};

/// Where a path starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// In an initial state (BMC, the base case of k-induction).
    Initialisation,
    /// In any state (the step case of k-induction); with `simple_path`, the states of the path are
    /// pairwise distinct.
    Anywhere { simple_path: bool },
}

/// What BMC looks for at the end of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    InvariantViolation,
    Deadlock,
}

#[derive(Clone, Debug)]
pub enum BmcOutcome {
    /// A replayed trace of `length` operations ending in a state violating the invariant (the
    /// conjuncts listed) or in a deadlock (no conjunct listed).
    Counterexample {
        length: usize,
        trace: Vec<Step>,
        violated: Vec<Span>,
        /// Every shorter length was a complete Unsat (else a shorter counterexample may exist).
        shortest: bool,
    },
    /// No counterexample up to the depth; `undecided` lists the lengths whose search was not a
    /// complete Unsat, with the reason (empty: absence proved up to the depth).
    NoCounterexample { undecided: Vec<(usize, String)> },
}

#[derive(Clone, Debug)]
pub struct BmcResult {
    pub outcome: BmcOutcome,
    pub depth: usize,
    pub elapsed: Duration,
}

/// The most feasible operation sequences kept per length: beyond, the search says UNKNOWN.
pub const MAX_SEQUENCES: usize = 4000;

/// The path of one operation sequence: its variables (constants, states 0..=k, the parameters of each
/// step) and its predicate, the invariant assumed on states 0..k-1.
struct Path {
    vars: Vec<TypedName>,
    parts: Vec<Pred>,
    constants: usize,
}

impl Path {
    fn new(m: &Machine, seq: &[usize], start: Start) -> Result<Path, Diagnostic> {
        let consts = constant_vars(m);
        let constants = consts.len();
        let mut vars = consts;
        let mut parts = vec![properties(m)];
        match start {
            Start::Initialisation => parts.push(before_after::initialisation(m, 0)?),
            Start::Anywhere { simple_path: true } => parts.extend(pairwise_distinct(m, seq)),
            Start::Anywhere { simple_path: false } => {}
        }
        for i in 0..=seq.len() {
            vars.extend(state_copy(m, i));
        }
        for (i, &op) in seq.iter().enumerate() {
            let t = before_after::operation(m, &m.operations[op], i, i + 1)?;
            parts.push(pred_in_copy(m, &m.invariant, i));
            vars.extend(t.params);
            parts.push(exists(t.outputs, t.pred, m.operations[op].span));
        }
        Ok(Path {
            vars,
            parts,
            constants,
        })
    }

    fn state<'v>(&self, m: &Machine, values: &'v [Value], i: usize) -> &'v [Value] {
        let n = m.variables.len();
        &values[self.constants + i * n..self.constants + (i + 1) * n]
    }

    fn search(mut self, model: &Model, last: Option<Pred>) -> (Self, Search) {
        let m = model.machine();
        let mut parts = std::mem::take(&mut self.parts);
        parts.extend(last);
        let pred = and(parts, m.span);
        let found = search(model, &self.vars, &pred, &Env::new());
        (self, found)
    }
}

/// States 0..=k of the path of `seq` pairwise distinct: for i < j, some variable differs between copies i
/// and j. Only the variables an operation between them writes can differ (the others are equal by the
/// frame conditions); when there is none, the states are equal and the conjunct is FALSE.
fn pairwise_distinct(m: &Machine, seq: &[usize]) -> Vec<Pred> {
    let writes: Vec<_> = seq
        .iter()
        .map(|&op| read_write(m, &m.operations[op]).writes)
        .collect();
    let mut parts = Vec::new();
    for i in 0..seq.len() {
        let mut written = std::collections::BTreeSet::new();
        for j in i + 1..=seq.len() {
            written.extend(writes[j - 1].iter().cloned());
            let differ = m
                .variables
                .iter()
                .filter(|v| written.contains(&v.name))
                .map(|v| {
                    let copy =
                        |k| Expr::new(ExprKind::Var(copy_name(&v.name, k)), v.ty.clone(), v.span);
                    Pred::new(
                        PredKind::Compare(CompareOp::NotEq, Box::new(copy(i)), Box::new(copy(j))),
                        v.span,
                    )
                })
                .collect();
            parts.push(or(differ, m.span));
        }
    }
    parts
}

/// The target at state k.
fn target_at(m: &Machine, target: Target, k: usize) -> Result<Pred, Diagnostic> {
    match target {
        Target::InvariantViolation => Ok(not(pred_in_copy(m, &m.invariant, k))),
        Target::Deadlock => {
            let mut parts = vec![pred_in_copy(m, &m.invariant, k)];
            for op in &m.operations {
                parts.push(not(before_after::enabling(m, op, k)?));
            }
            Ok(and(parts, m.span))
        }
    }
}

/// What the target check of one sequence gave.
pub(crate) enum SequenceResult {
    /// A replayed trace and the violated invariant conjuncts (none for a deadlock).
    Counterexample(Vec<Step>, Vec<Span>),
    /// A solution (not replayed: the step case of k-induction starts anywhere).
    Solution,
    None,
    Undecided(String),
}

/// Whether the path of `seq` ends in the target.
pub(crate) fn check_target(
    model: &Model,
    seq: &[usize],
    start: Start,
    target: Target,
) -> Result<SequenceResult, Diagnostic> {
    let m = model.machine();
    let k = seq.len();
    let (path, found) = Path::new(m, seq, start)?.search(model, Some(target_at(m, target, k)?));
    Ok(match found {
        Search::Found(_) if start != Start::Initialisation => SequenceResult::Solution,
        Search::Found(values) => match confirm(model, &path, &values, seq, target) {
            Ok((trace, violated)) => SequenceResult::Counterexample(trace, violated),
            Err(why) => SequenceResult::Undecided(format!(
                "counterexample not confirmed by the interpreter: {why}"
            )),
        },
        Search::Empty { complete: true } => SequenceResult::None,
        Search::Empty { complete: false } => SequenceResult::Undecided(INCOMPLETE.into()),
        Search::Unknown(r) => SequenceResult::Undecided(r),
    })
}

/// Replays the solution's trace and checks its last state is what was asked.
fn confirm(
    model: &Model,
    path: &Path,
    values: &[Value],
    seq: &[usize],
    target: Target,
) -> Result<(Vec<Step>, Vec<Span>), String> {
    let m = model.machine();
    let c = &values[..path.constants];
    let mut trace = initial_steps(model, c, path.state(m, values, 0))?;
    for (i, &op) in seq.iter().enumerate() {
        trace.push(replay_step(
            model,
            c,
            path.state(m, values, i),
            path.state(m, values, i + 1),
            Some(&m.operations[op]),
        )?);
    }
    let last = path.state(m, values, seq.len());
    let violated = violated_conjuncts(model, c, last).map_err(|d| d.to_string())?;
    match target {
        Target::InvariantViolation if violated.is_empty() => {
            Err("the last state satisfies the invariant".into())
        }
        Target::InvariantViolation => Ok((trace, violated)),
        Target::Deadlock => {
            let st = crate::eval::State {
                values: last.to_vec(),
            };
            match model.context.successors(c, &st, 1) {
                Ok(ts) if ts.is_empty() => Ok((trace, vec![])),
                Ok(_) => Err("the last state enables an operation".into()),
                Err(e) => Err(e.to_string()),
            }
        }
    }
}

/// The one-operation extensions of `frontier` whose paths from the INITIALISATION (invariant assumed on
/// all states but the last) are satisfiable or undecided; `Err` with a reason when there are more than `MAX_SEQUENCES`.
pub(crate) fn extend(
    model: &Model,
    frontier: &[Vec<usize>],
) -> Result<Result<Vec<Vec<usize>>, String>, Diagnostic> {
    let m = model.machine();
    let mut next = Vec::new();
    for seq in frontier {
        if let Err(e) = model.context.check_deadline(m.span) {
            return Ok(Err(e.to_string()));
        }
        for op in 0..m.operations.len() {
            let mut s = seq.clone();
            s.push(op);
            let (_, found) = Path::new(m, &s, Start::Initialisation)?.search(model, None);
            if !matches!(found, Search::Empty { complete: true }) {
                next.push(s);
                if next.len() > MAX_SEQUENCES {
                    return Ok(Err(format!(
                        "more than {MAX_SEQUENCES} feasible operation sequences of length {}",
                        seq.len() + 1
                    )));
                }
            }
        }
    }
    Ok(Ok(next))
}

/// `bsolve bmc FILE DEPTH`: paths of 0..=depth operations.
pub fn bmc(model: &Model, depth: usize, target: Target) -> Result<BmcResult, Diagnostic> {
    require_variables(model)?;
    if depth == 0 {
        return Err(Diagnostic::new(
            DiagKind::Usage,
            Span::default(),
            "bmc: DEPTH must be a positive number of operations",
        ));
    }
    let start = Instant::now();
    let mut undecided: Vec<(usize, String)> = Vec::new();
    let mut frontier: Vec<Vec<usize>> = vec![vec![]];
    for k in 0..=depth {
        for seq in &frontier {
            if let Err(e) = model.context.check_deadline(model.machine().span) {
                undecided.push((k, e.to_string()));
                break;
            }
            match check_target(model, seq, Start::Initialisation, target)? {
                SequenceResult::Counterexample(trace, violated) => {
                    return Ok(BmcResult {
                        outcome: BmcOutcome::Counterexample {
                            length: k,
                            trace,
                            violated,
                            shortest: undecided.iter().all(|(l, _)| *l >= k),
                        },
                        depth,
                        elapsed: start.elapsed(),
                    });
                }
                SequenceResult::None | SequenceResult::Solution => {}
                SequenceResult::Undecided(why) => {
                    if !undecided.iter().any(|(l, _)| *l == k) {
                        undecided.push((k, why));
                    }
                }
            }
        }
        if k == depth {
            break;
        }
        match extend(model, &frontier)? {
            Ok(next) => frontier = next,
            Err(why) => {
                undecided.push((k + 1, why));
                break;
            }
        }
        if frontier.is_empty() {
            break;
        }
    }
    Ok(BmcResult {
        outcome: BmcOutcome::NoCounterexample { undecided },
        depth,
        elapsed: start.elapsed(),
    })
}
