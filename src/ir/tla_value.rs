//! Where TLA+ values of mixed kind (`Type::TlaValue`) occur in a predicate.
//!
//! The SAT (Kodkod) and SMT translations have no encoding of a value that is an integer, a string or a
//! model value depending on the state: they decline a problem that mentions one anywhere, and the native
//! solver and the interpreter answer it.

use super::{Expr, ExprKind, Pred, PredKind, TypedName};

/// Whether a TLA+ value of mixed kind occurs in the type of any expression or bound name of `p`.
pub fn in_pred(p: &Pred) -> bool {
    match &p.kind {
        PredKind::True | PredKind::False => false,
        PredKind::And(ps) | PredKind::Or(ps) => ps.iter().any(in_pred),
        PredKind::Implies(a, b) | PredKind::Equiv(a, b) => in_pred(a) || in_pred(b),
        PredKind::Not(a) => in_pred(a),
        PredKind::Forall(vars, body) | PredKind::Exists(vars, body) => {
            in_names(vars) || in_pred(body)
        }
        PredKind::Compare(_, a, b) => in_expr(a) || in_expr(b),
        PredKind::If(c, t, e) => in_pred(c) || in_pred(t) || in_pred(e),
        PredKind::Let(bindings, body) => {
            bindings
                .iter()
                .any(|(n, v)| n.ty.contains_tla_value() || in_expr(v))
                || in_pred(body)
        }
    }
}

/// As `in_pred`, for an expression.
pub fn in_expr(e: &Expr) -> bool {
    e.ty.contains_tla_value()
        || match &e.kind {
            ExprKind::Var(_)
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::Const(_) => false,
            ExprKind::Unary(_, a) | ExprKind::Field(a, _) => in_expr(a),
            ExprKind::Binary(_, a, b) => in_expr(a) || in_expr(b),
            ExprKind::SetEnum(items) | ExprKind::SeqEnum(items) => items.iter().any(in_expr),
            ExprKind::Comprehension(vars, body) => in_names(vars) || in_pred(body),
            ExprKind::Binder(_, vars, cond, body) => {
                in_names(vars) || in_pred(cond) || in_expr(body)
            }
            ExprKind::Record(fields) | ExprKind::Struct(fields) => {
                fields.iter().any(|(_, f)| in_expr(f))
            }
            ExprKind::BoolOf(p) => in_pred(p),
            ExprKind::If(c, t, f) => in_pred(c) || in_expr(t) || in_expr(f),
            ExprKind::Let(bindings, body) => {
                bindings
                    .iter()
                    .any(|(n, v)| n.ty.contains_tla_value() || in_expr(v))
                    || in_expr(body)
            }
        }
}

/// Whether a TLA+ value of mixed kind occurs in the type of any of `names`.
pub fn in_names(names: &[TypedName]) -> bool {
    names.iter().any(|n| n.ty.contains_tla_value())
}
