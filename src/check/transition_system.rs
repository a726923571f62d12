//! The symbolic transition system of a machine, as the symbolic checks (bmc, k-induction, IC3, over
//! values or over bits) share it: the operations' before-after predicates between two state copies,
//! one predicate for "some operation" with a selector naming it, the targets at the end of a path
//! (invariant violated, deadlock), and the replay that confirms a path the solvers found.

use super::Model;
use super::cbc::{initial_steps, not, replay_step, violated_conjuncts};
use super::mc::Step;
use crate::analysis::before_after::{self, and, exists, or, pred_in_copy};
use crate::diag::{Diagnostic, Span};
use crate::ir::{CompareOp, Expr, ExprKind, Machine, Pred, PredKind, TypedName};
use crate::types::Type;
use crate::value::Value;

/// What BMC looks for at the end of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    InvariantViolation,
    Deadlock,
}

/// Some operation leads from state copy `from` to copy `to`: the disjunction over the operations of
/// `s = i & #(params, outputs).BA(op_i)`, with `s` (returned) the step's operation selector, an
/// unknown of `1..n`. The selector makes the disjunction as well-defined as the operation taken: B reads
/// `A or B` left to right, so a bare `BA(op1) or BA(op2)` is ill-defined where op1's before-after
/// predicate is (`db(nn)` outside the domain) even in a state where op2 is the step, and the solvers,
/// which count an ill-defined candidate as no solution, would miss that step; `s = 1 & ...` is plainly
/// false there. It also names the operation for the replay.
pub(crate) fn any_operation(
    m: &Machine,
    from: usize,
    to: usize,
) -> Result<(Pred, TypedName), Diagnostic> {
    Ok(any_of(m, from, to, &operations(m, from, to)?))
}

/// Per operation: its before-after predicate from copy `from` to copy `to` and its parameters and
/// outputs, without the outputs nothing but their definition mentions (`without_outputs`: paths and
/// steps are about states).
pub(crate) fn operations(
    m: &Machine,
    from: usize,
    to: usize,
) -> Result<Vec<(Pred, Vec<TypedName>)>, Diagnostic> {
    m.operations
        .iter()
        .map(|op| {
            let t = before_after::operation(m, op, from, to)?.without_outputs();
            Ok((t.pred, t.params.into_iter().chain(t.outputs).collect()))
        })
        .collect()
}

/// `any_operation` from the operations' before-after predicates (`operations(m, from, to)`).
pub(crate) fn any_of(
    m: &Machine,
    from: usize,
    to: usize,
    ops: &[(Pred, Vec<TypedName>)],
) -> (Pred, TypedName) {
    let selector = TypedName {
        name: format!("operation {from}->{to}").into(),
        ty: Type::Integer,
        span: m.span,
    };
    let var = Expr::new(ExprKind::Var(selector.name.clone()), Type::Integer, m.span);
    let mut any = Vec::new();
    for (i, (op, (ba, hidden))) in m.operations.iter().zip(ops).enumerate() {
        let chosen = Pred::new(
            PredKind::Compare(
                CompareOp::Eq,
                Box::new(var.clone()),
                Box::new(Expr::new(
                    ExprKind::Int((i + 1).into()),
                    Type::Integer,
                    op.span,
                )),
            ),
            op.span,
        );
        any.push(and(
            vec![chosen, exists(hidden.clone(), ba.clone(), op.span)],
            op.span,
        ));
    }
    (or(any, m.span), selector)
}

/// The operation (by index) a selector of `any_operation` names.
pub(crate) fn selected(v: &Value) -> Option<usize> {
    v.as_int()?.to_usize()?.checked_sub(1)
}

/// The target at state k: the invariant violated, or no operation enabled (whatever the invariant).
pub(crate) fn target_at(m: &Machine, target: Target, k: usize) -> Result<Pred, Diagnostic> {
    match target {
        Target::InvariantViolation => Ok(not(pred_in_copy(m, &m.invariant, k))),
        Target::Deadlock => {
            let mut parts = Vec::new();
            for op in &m.operations {
                parts.push(not(before_after::enabling(m, op, k)?));
            }
            Ok(and(parts, m.span))
        }
    }
}

/// Replays the path through `states` (the first an initial state; `ops[i]` leads from state i to
/// i + 1, `None`: the replay finds the operation) and checks its last state is what was asked: the
/// trace and the violated invariant conjuncts (none for a deadlock), or why not.
pub(crate) fn confirm_states(
    model: &Model,
    constants: &[Value],
    states: &[&[Value]],
    ops: &[Option<usize>],
    target: Target,
) -> Result<(Vec<Step>, Vec<Span>), String> {
    let m = model.machine();
    let mut trace = initial_steps(model, constants, states[0])?;
    for (i, op) in ops.iter().enumerate() {
        trace.push(replay_step(
            model,
            constants,
            states[i],
            states[i + 1],
            op.map(|op| &m.operations[op]),
        )?);
    }
    let last = states[ops.len()];
    let violated = violated_conjuncts(model, constants, last).map_err(|d| d.to_string())?;
    match target {
        Target::InvariantViolation if violated.is_empty() => {
            Err("the last state satisfies the invariant".into())
        }
        Target::InvariantViolation => Ok((trace, violated)),
        Target::Deadlock => {
            let st = crate::eval::State {
                values: last.to_vec(),
            };
            match model.context.successors(constants, &st, 1) {
                Ok(ts) if ts.is_empty() => Ok((trace, vec![])),
                Ok(_) => Err("the last state enables an operation".into()),
                Err(e) => Err(e.to_string()),
            }
        }
    }
}
