//! Subexpressions a predicate always evaluates: those outside every binder, conditional and
//! short-circuiting connective. When such a subexpression is ill-defined, so is the predicate, so a
//! value that makes it ill-defined is never a solution: `yy = f(Nr)` holds only for `Nr : dom(f)`,
//! which bounds the search for Nr (as ProB's solver reads an application as the constraint
//! `Nr |-> yy : f`).

use super::{BinaryOp, Expr, ExprKind, Pred, PredKind};

/// The functions `f` of the applications `f(x)` that `p` always evaluates, with `x` the identifier
/// `name` itself.
pub fn applied_to<'p>(p: &'p Pred, name: &str) -> Vec<&'p Expr> {
    applications(p)
        .into_iter()
        .filter(|(x, _)| *x == name)
        .map(|(_, f)| f)
        .collect()
}

/// Every application `f(x)` that `p` always evaluates with `x` an identifier, as `(x, f)`: one walk
/// for all the identifiers (a solver asking `applied_to` per unknown over thousands of conjuncts
/// walked them all once per unknown).
pub fn applications(p: &Pred) -> Vec<(&str, &Expr)> {
    let mut out = Vec::new();
    in_pred(p, &mut out);
    out
}

fn in_pred<'p>(p: &'p Pred, out: &mut Vec<(&'p str, &'p Expr)>) {
    match &p.kind {
        PredKind::And(parts) => parts.iter().for_each(|q| in_pred(q, out)),
        PredKind::Not(q) => in_pred(q, out),
        PredKind::Equiv(a, b) => {
            in_pred(a, out);
            in_pred(b, out);
        }
        PredKind::Compare(_, l, r) => {
            in_expr(l, out);
            in_expr(r, out);
        }
        // A disjunction or implication evaluates its second part only sometimes; quantifiers, LET
        // and IF bind or choose.
        _ => {}
    }
}

fn in_expr<'p>(e: &'p Expr, out: &mut Vec<(&'p str, &'p Expr)>) {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Apply, f, x) => {
            if let ExprKind::Var(n) = &x.kind {
                out.push((&**n, &**f));
            }
            in_expr(f, out);
            in_expr(x, out);
        }
        ExprKind::Binary(_, a, b) => {
            in_expr(a, out);
            in_expr(b, out);
        }
        ExprKind::Unary(_, a) | ExprKind::Field(a, _) => in_expr(a, out),
        ExprKind::SetEnum(items) | ExprKind::SeqEnum(items) => {
            items.iter().for_each(|x| in_expr(x, out))
        }
        ExprKind::Record(fields) => fields.iter().for_each(|(_, x)| in_expr(x, out)),
        _ => {}
    }
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
    fn apply(f: &str, x: Expr) -> Expr {
        Expr::new(
            ExprKind::Binary(BinaryOp::Apply, Box::new(var(f)), Box::new(x)),
            Type::Integer,
            Span::default(),
        )
    }
    fn eq(l: Expr, r: Expr) -> Pred {
        Pred::new(
            PredKind::Compare(CompareOp::Eq, Box::new(l), Box::new(r)),
            Span::default(),
        )
    }
    fn names(fs: Vec<&Expr>) -> Vec<String> {
        fs.iter()
            .map(|f| match &f.kind {
                ExprKind::Var(n) => n.to_string(),
                _ => "?".into(),
            })
            .collect()
    }

    #[test]
    fn applications_outside_connectives_that_short_circuit_are_found() {
        // yy = f(x) & not(g(x) = 1)
        let p = Pred::new(
            PredKind::And(vec![
                eq(var("yy"), apply("f", var("x"))),
                Pred::new(
                    PredKind::Not(Box::new(eq(apply("g", var("x")), var("one")))),
                    Span::default(),
                ),
            ]),
            Span::default(),
        );
        assert_eq!(names(applied_to(&p, "x")), vec!["f", "g"]);
        assert!(applied_to(&p, "yy").is_empty());
        // x > 0 => f(x) = 1: f is applied only when x > 0.
        let guarded = Pred::new(
            PredKind::Implies(
                Box::new(eq(var("x"), var("zero"))),
                Box::new(eq(apply("f", var("x")), var("one"))),
            ),
            Span::default(),
        );
        assert!(applied_to(&guarded, "x").is_empty());
        // f(x + 1) is not an application to x itself.
        let shifted = eq(
            apply(
                "f",
                Expr::new(
                    ExprKind::Binary(BinaryOp::Add, Box::new(var("x")), Box::new(var("one"))),
                    Type::Integer,
                    Span::default(),
                ),
            ),
            var("yy"),
        );
        assert!(applied_to(&shifted, "x").is_empty());
    }
}
