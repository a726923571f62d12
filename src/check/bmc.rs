//! Bounded model checking (`bsolve bmc FILE DEPTH [--deadlock]`): the transition system unrolled from the
//! INITIALISATION, constants solved symbolically with everything else (never enumerated), one solver
//! question per length k = 0..DEPTH:
//!
//! PROPERTIES & Init(x0) & INV(x0) & T(x0,x1) & INV(x1) & ... & T(x(k-1),xk) & not INV(xk)
//!
//! (or, with `--deadlock`, INV(xk) & no operation enabled in xk), where T is the disjunction of the
//! operations' before-after predicates with their parameters existentially quantified. Lengths are tried in
//! increasing order, so the first counterexample is a shortest one; the invariant is assumed on the states
//! before the last, which only prunes (a shorter violation would have been found at its own length).
//! Every counterexample is replayed by the interpreter before it is reported.

use super::Model;
use super::cbc::{
    INCOMPLETE, Search, constant_vars, initial_steps, not, properties, replay_step,
    require_variables, search, violated_conjuncts,
};
use super::mc::Step;
use crate::analysis::before_after::{self, and, exists, or, pred_in_copy, state_copy};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::Env;
use crate::ir::{Machine, Pred, TypedName};
use crate::value::Value;
use std::time::{Duration, Instant};

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

/// One unrolled path of length k: its variables (constants, then states 0..=k) and its predicate up to
/// (not including) the target at state k.
pub(crate) struct Path {
    pub vars: Vec<TypedName>,
    pub parts: Vec<Pred>,
    constants: usize,
}

impl Path {
    /// `from_init`: start at the INITIALISATION (BMC) or anywhere (the k-induction step case).
    pub(crate) fn new(m: &Machine, k: usize, from_init: bool) -> Result<Path, Diagnostic> {
        let consts = constant_vars(m);
        let constants = consts.len();
        let mut vars = consts;
        let mut parts = vec![properties(m)];
        if from_init {
            parts.push(before_after::initialisation(m, 0)?);
        }
        for i in 0..=k {
            vars.extend(state_copy(m, i));
        }
        for i in 0..k {
            parts.push(pred_in_copy(m, &m.invariant, i));
            parts.push(transition(m, i)?);
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

    /// The trace through the solution's states, replayed by the interpreter.
    pub(crate) fn replay(&self, model: &Model, values: &[Value], k: usize) -> Result<Vec<Step>, String> {
        let m = model.machine();
        let c = &values[..self.constants];
        let mut steps = initial_steps(model, c, self.state(m, values, 0))?;
        for i in 0..k {
            steps.push(replay_step(
                model,
                c,
                self.state(m, values, i),
                self.state(m, values, i + 1),
                None,
            )?);
        }
        Ok(steps)
    }
}

/// T(x_i, x_{i+1}): some operation leads from copy i to copy i+1.
fn transition(m: &Machine, i: usize) -> Result<Pred, Diagnostic> {
    let mut alternatives = Vec::with_capacity(m.operations.len());
    for op in &m.operations {
        let t = before_after::operation(m, op, i, i + 1)?;
        let locals: Vec<TypedName> = t.params.into_iter().chain(t.outputs).collect();
        alternatives.push(exists(locals, t.pred, op.span));
    }
    Ok(or(alternatives, m.span))
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

/// What happened at one length.
pub(crate) enum LengthResult {
    Counterexample(Vec<Step>, Vec<Span>),
    None,
    Undecided(String),
}

/// Searches for a counterexample of exactly `k` operations.
pub(crate) fn check_length(model: &Model, target: Target, k: usize) -> Result<LengthResult, Diagnostic> {
    let m = model.machine();
    let mut path = Path::new(m, k, true)?;
    path.parts.push(target_at(m, target, k)?);
    let pred = and(std::mem::take(&mut path.parts), m.span);
    Ok(match search(model, &path.vars, &pred, &Env::new()) {
        Search::Found(values) => {
            let c = &values[..path.constants];
            let last = path.state(m, &values, k);
            let confirmed = path.replay(model, &values, k).and_then(|trace| {
                let violated = violated_conjuncts(model, c, last).map_err(|d| d.to_string())?;
                match target {
                    Target::InvariantViolation if violated.is_empty() => {
                        Err("the last state satisfies the invariant".into())
                    }
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
                    Target::InvariantViolation => Ok((trace, violated)),
                }
            });
            match confirmed {
                Ok((trace, violated)) => LengthResult::Counterexample(trace, violated),
                Err(why) => LengthResult::Undecided(format!(
                    "counterexample not confirmed by the interpreter: {why}"
                )),
            }
        }
        Search::Empty { complete: true } => LengthResult::None,
        Search::Empty { complete: false } => LengthResult::Undecided(INCOMPLETE.into()),
        Search::Unknown(r) => LengthResult::Undecided(r),
    })
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
    let mut undecided = Vec::new();
    for k in 0..=depth {
        match check_length(model, target, k)? {
            LengthResult::Counterexample(trace, violated) => {
                return Ok(BmcResult {
                    outcome: BmcOutcome::Counterexample {
                        length: k,
                        trace,
                        violated,
                    },
                    depth,
                    elapsed: start.elapsed(),
                });
            }
            LengthResult::None => {}
            LengthResult::Undecided(why) => undecided.push((k, why)),
        }
    }
    Ok(BmcResult {
        outcome: BmcOutcome::NoCounterexample { undecided },
        depth,
        elapsed: start.elapsed(),
    })
}
