//! A pre-order walk over a predicate's or expression's nodes, for analyses that look for a pattern
//! anywhere in a formula (the native solver's model, the report's reading of how a type is used).

use super::{Expr, ExprKind, Pred, PredKind};

/// A node of a predicate, for `visit_pred`.
pub enum Node<'a> {
    Pred(&'a Pred),
    Expr(&'a Expr),
}

/// Calls `f` on every predicate and expression node of `p` (pre-order); `f` returns false to skip the
/// node's children.
pub fn visit_pred(p: &Pred, f: &mut dyn FnMut(Node<'_>) -> bool) {
    if !f(Node::Pred(p)) {
        return;
    }
    match &p.kind {
        PredKind::True | PredKind::False => {}
        PredKind::And(ps) | PredKind::Or(ps) => ps.iter().for_each(|q| visit_pred(q, f)),
        PredKind::Implies(a, b) | PredKind::Equiv(a, b) => {
            visit_pred(a, f);
            visit_pred(b, f);
        }
        PredKind::Not(a) => visit_pred(a, f),
        PredKind::Forall(_, body) | PredKind::Exists(_, body) => visit_pred(body, f),
        PredKind::Compare(_, a, b) => {
            visit_expr(a, f);
            visit_expr(b, f);
        }
        PredKind::If(c, t, e) => {
            visit_pred(c, f);
            visit_pred(t, f);
            visit_pred(e, f);
        }
        PredKind::Let(binds, body) => {
            binds.iter().for_each(|(_, e)| visit_expr(e, f));
            visit_pred(body, f);
        }
    }
}

/// As `visit_pred`, for an expression.
pub fn visit_expr(e: &Expr, f: &mut dyn FnMut(Node<'_>) -> bool) {
    if !f(Node::Expr(e)) {
        return;
    }
    match &e.kind {
        ExprKind::Var(_)
        | ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Str(_)
        | ExprKind::Const(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Field(a, _) => visit_expr(a, f),
        ExprKind::Binary(_, a, b) => {
            visit_expr(a, f);
            visit_expr(b, f);
        }
        ExprKind::SetEnum(items) | ExprKind::SeqEnum(items) => {
            items.iter().for_each(|x| visit_expr(x, f))
        }
        ExprKind::Comprehension(_, p) => visit_pred(p, f),
        ExprKind::BoolOf(p) => visit_pred(p, f),
        ExprKind::Binder(_, _, p, body) => {
            visit_pred(p, f);
            visit_expr(body, f);
        }
        ExprKind::Record(fields) | ExprKind::Struct(fields) => {
            fields.iter().for_each(|(_, x)| visit_expr(x, f))
        }
        ExprKind::If(c, t, e2) => {
            visit_pred(c, f);
            visit_expr(t, f);
            visit_expr(e2, f);
        }
        ExprKind::Let(binds, body) => {
            binds.iter().for_each(|(_, x)| visit_expr(x, f));
            visit_expr(body, f);
        }
    }
}
