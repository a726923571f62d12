//! Free identifiers of IR predicates and expressions (identifiers not bound by a quantifier, binder or LET
//! inside the formula). Used to tell constant-only ASSERTIONS from state assertions, and by later analyses.

use super::{Expr, ExprKind, Pred, PredKind, TypedName};
use crate::syntax::ast::Name;
use std::collections::BTreeSet;

/// The free identifiers of a predicate, sorted.
pub fn of_pred(p: &Pred) -> BTreeSet<Name> {
    let mut out = BTreeSet::new();
    pred(p, &mut vec![], &mut |n| {
        out.insert(n.clone());
        false
    });
    out
}

/// The free identifiers of an expression, sorted.
pub fn of_expr(e: &Expr) -> BTreeSet<Name> {
    let mut out = BTreeSet::new();
    expr(e, &mut vec![], &mut |n| {
        out.insert(n.clone());
        false
    });
    out
}

/// Whether some free identifier of `p` satisfies `test` (stops at the first one, building no set).
pub fn pred_mentions(p: &Pred, test: &dyn Fn(&Name) -> bool) -> bool {
    pred(p, &mut vec![], &mut |n| test(n))
}

/// Whether some free identifier of `e` satisfies `test` (stops at the first one, building no set).
pub fn expr_mentions(e: &Expr, test: &dyn Fn(&Name) -> bool) -> bool {
    expr(e, &mut vec![], &mut |n| test(n))
}

/// Calls `each` on every free occurrence of an identifier in `p` (repeats included), building no set:
/// for callers that only ask about a few names.
pub fn each_in_pred(p: &Pred, each: &mut dyn FnMut(&Name)) {
    pred(p, &mut vec![], &mut |n| {
        each(n);
        false
    });
}

/// Walks the free identifiers of `p` into `found`, stopping as soon as `found` returns true (the result).
fn pred(p: &Pred, bound: &mut Vec<Name>, found: &mut dyn FnMut(&Name) -> bool) -> bool {
    match &p.kind {
        PredKind::True | PredKind::False => false,
        PredKind::And(ps) | PredKind::Or(ps) => ps.iter().any(|q| pred(q, bound, found)),
        PredKind::Implies(a, b) | PredKind::Equiv(a, b) => {
            pred(a, bound, found) || pred(b, bound, found)
        }
        PredKind::Not(a) => pred(a, bound, found),
        PredKind::Forall(vars, body) | PredKind::Exists(vars, body) => {
            scoped(vars, bound, |bound| pred(body, bound, found))
        }
        PredKind::Compare(_, a, b) => expr(a, bound, found) || expr(b, bound, found),
        PredKind::If(c, t, e) => {
            pred(c, bound, found) || pred(t, bound, found) || pred(e, bound, found)
        }
        PredKind::Let(bindings, body) => {
            let depth = bound.len();
            let mut stop = false;
            for (name, value) in bindings {
                stop = stop || expr(value, bound, found);
                bound.push(name.name.clone());
            }
            stop = stop || pred(body, bound, found);
            bound.truncate(depth);
            stop
        }
    }
}

/// As `pred`, for an expression.
fn expr(e: &Expr, bound: &mut Vec<Name>, found: &mut dyn FnMut(&Name) -> bool) -> bool {
    match &e.kind {
        ExprKind::Var(name) => {
            !bound.iter().any(|b| crate::syntax::ast::same_name(b, name)) && found(name)
        }
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Const(_) => false,
        ExprKind::Unary(_, a) | ExprKind::Field(a, _) => expr(a, bound, found),
        ExprKind::Binary(_, a, b) => expr(a, bound, found) || expr(b, bound, found),
        ExprKind::SetEnum(items) | ExprKind::SeqEnum(items) => {
            items.iter().any(|i| expr(i, bound, found))
        }
        ExprKind::Comprehension(vars, body) => {
            scoped(vars, bound, |bound| pred(body, bound, found))
        }
        ExprKind::Binder(_, vars, cond, body) => scoped(vars, bound, |bound| {
            pred(cond, bound, found) || expr(body, bound, found)
        }),
        ExprKind::Record(fields) | ExprKind::Struct(fields) => {
            fields.iter().any(|(_, f)| expr(f, bound, found))
        }
        ExprKind::BoolOf(p) => pred(p, bound, found),
        ExprKind::If(c, t, f) => {
            pred(c, bound, found) || expr(t, bound, found) || expr(f, bound, found)
        }
        ExprKind::Let(bindings, body) => {
            let depth = bound.len();
            let mut stop = false;
            for (name, value) in bindings {
                stop = stop || expr(value, bound, found);
                bound.push(name.name.clone());
            }
            stop = stop || expr(body, bound, found);
            bound.truncate(depth);
            stop
        }
    }
}

fn scoped(
    vars: &[TypedName],
    bound: &mut Vec<Name>,
    f: impl FnOnce(&mut Vec<Name>) -> bool,
) -> bool {
    let depth = bound.len();
    bound.extend(vars.iter().map(|v| v.name.clone()));
    let stop = f(bound);
    bound.truncate(depth);
    stop
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::CompareOp;
    use crate::ir::Type;

    fn var(n: &str) -> Expr {
        Expr::new(ExprKind::Var(n.into()), Type::Integer, Span::default())
    }

    /// `#x.(x = y) & z = z`: free y and z, x bound.
    fn sample() -> Pred {
        let eq = |a: Expr, b: Expr| {
            Pred::new(
                PredKind::Compare(CompareOp::Eq, Box::new(a), Box::new(b)),
                Span::default(),
            )
        };
        let x = TypedName {
            name: "x".into(),
            ty: Type::Integer,
            span: Span::default(),
        };
        let exists = Pred::new(
            PredKind::Exists(vec![x], Box::new(eq(var("x"), var("y")))),
            Span::default(),
        );
        Pred::new(
            PredKind::And(vec![exists, eq(var("z"), var("z"))]),
            Span::default(),
        )
    }

    #[test]
    fn mentions_agrees_with_the_free_name_set() {
        let p = sample();
        let free: Vec<String> = of_pred(&p).iter().map(|n| n.to_string()).collect();
        assert_eq!(free, ["y", "z"]);
        assert!(pred_mentions(&p, &|n| &**n == "y"));
        assert!(pred_mentions(&p, &|n| &**n == "z"));
        assert!(!pred_mentions(&p, &|n| &**n == "x"));
        assert!(!pred_mentions(&p, &|n| &**n == "w"));
        assert!(expr_mentions(&var("x"), &|n| &**n == "x"));
    }
}
