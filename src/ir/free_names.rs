//! Free identifiers of IR predicates and expressions (identifiers not bound by a quantifier, binder or LET
//! inside the formula). Used to tell constant-only ASSERTIONS from state assertions, and by later analyses.

use super::{Expr, ExprKind, Pred, PredKind, TypedName};
use crate::syntax::ast::Name;
use std::collections::BTreeSet;

/// The free identifiers of a predicate, sorted.
pub fn of_pred(p: &Pred) -> BTreeSet<Name> {
    let mut out = BTreeSet::new();
    pred(p, &mut vec![], &mut out);
    out
}

/// The free identifiers of an expression, sorted.
pub fn of_expr(e: &Expr) -> BTreeSet<Name> {
    let mut out = BTreeSet::new();
    expr(e, &mut vec![], &mut out);
    out
}

fn pred(p: &Pred, bound: &mut Vec<Name>, out: &mut BTreeSet<Name>) {
    match &p.kind {
        PredKind::True | PredKind::False => {}
        PredKind::And(ps) | PredKind::Or(ps) => ps.iter().for_each(|q| pred(q, bound, out)),
        PredKind::Implies(a, b) | PredKind::Equiv(a, b) => {
            pred(a, bound, out);
            pred(b, bound, out);
        }
        PredKind::Not(a) => pred(a, bound, out),
        PredKind::Forall(vars, body) | PredKind::Exists(vars, body) => {
            scoped(vars, bound, |bound| pred(body, bound, out));
        }
        PredKind::Compare(_, a, b) => {
            expr(a, bound, out);
            expr(b, bound, out);
        }
        PredKind::If(c, t, e) => {
            pred(c, bound, out);
            pred(t, bound, out);
            pred(e, bound, out);
        }
        PredKind::Let(bindings, body) => {
            let depth = bound.len();
            for (name, value) in bindings {
                expr(value, bound, out);
                bound.push(name.name.clone());
            }
            pred(body, bound, out);
            bound.truncate(depth);
        }
    }
}

fn expr(e: &Expr, bound: &mut Vec<Name>, out: &mut BTreeSet<Name>) {
    match &e.kind {
        ExprKind::Var(name) => {
            if !bound.contains(name) {
                out.insert(name.clone());
            }
        }
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Const(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Field(a, _) => expr(a, bound, out),
        ExprKind::Binary(_, a, b) => {
            expr(a, bound, out);
            expr(b, bound, out);
        }
        ExprKind::SetEnum(items) | ExprKind::SeqEnum(items) => {
            items.iter().for_each(|i| expr(i, bound, out))
        }
        ExprKind::Comprehension(vars, body) => scoped(vars, bound, |bound| pred(body, bound, out)),
        ExprKind::Binder(_, vars, cond, body) => scoped(vars, bound, |bound| {
            pred(cond, bound, out);
            expr(body, bound, out);
        }),
        ExprKind::Record(fields) | ExprKind::Struct(fields) => {
            fields.iter().for_each(|(_, f)| expr(f, bound, out))
        }
        ExprKind::BoolOf(p) => pred(p, bound, out),
        ExprKind::If(c, t, f) => {
            pred(c, bound, out);
            expr(t, bound, out);
            expr(f, bound, out);
        }
        ExprKind::Let(bindings, body) => {
            let depth = bound.len();
            for (name, value) in bindings {
                expr(value, bound, out);
                bound.push(name.name.clone());
            }
            expr(body, bound, out);
            bound.truncate(depth);
        }
    }
}

fn scoped(vars: &[TypedName], bound: &mut Vec<Name>, f: impl FnOnce(&mut Vec<Name>)) {
    let depth = bound.len();
    bound.extend(vars.iter().map(|v| v.name.clone()));
    f(bound);
    bound.truncate(depth);
}
