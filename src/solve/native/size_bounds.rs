//! Upper bounds on a sequence's size stated by a conjunct, for listing its candidates completely.

use crate::ir::{BinaryOp, CompareOp, Expr, ExprKind, Pred, PredKind, UnaryOp};

/// When `c` states `size(name) <= E`, `size(name) < E`, `size(name) = E` (either side) or
/// `size(name) : a..E` (the parser writes `E >= size(x)` as `size(x) <= E`): E, and how far below E the
/// size must stay. The caller evaluates E if it can.
pub(super) fn stated_bound<'p>(name: &str, c: &'p Pred) -> Option<(&'p Expr, usize)> {
    let is_size = |e: &Expr| {
        matches!(&e.kind, ExprKind::Unary(UnaryOp::Size, x)
            if matches!(&x.kind, ExprKind::Var(n) if &**n == name))
    };
    let PredKind::Compare(op, l, r) = &c.kind else {
        return None;
    };
    match (op, is_size(l), is_size(r)) {
        (CompareOp::Le | CompareOp::Eq, true, _) => Some((r, 0)),
        (CompareOp::Lt, true, _) => Some((r, 1)),
        (CompareOp::Eq, _, true) => Some((l, 0)),
        (CompareOp::In, true, _) => match &r.kind {
            ExprKind::Binary(BinaryOp::Interval, _, hi) => Some((hi, 0)),
            _ => None,
        },
        _ => None,
    }
}

/// The largest size `bound - below` allows (0 for a negative bound).
pub(super) fn allowed(bound: &crate::value::Int, below: usize) -> Option<usize> {
    if bound.is_negative() {
        return Some(0);
    }
    Some(bound.to_usize()?.saturating_sub(below))
}
