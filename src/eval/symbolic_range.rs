//! `ran` and `~` of a relation that cannot be listed (a lambda or a comprehension over NATURAL),
//! kept symbolic as comprehensions, as ProB keeps them: `y : ran(%x.(P | E))` is `#x.(P & y = E)`,
//! and `(%x.(P | E))~[S]` is the image of `{y, x | P & y = E}`, both decided point by point by the
//! interpreter's search. A multi-variable lambda's inverse is not a comprehension of the same shape
//! (its pairs are `y |-> (x1 |-> x2)`): it stays an error, as does any listing of an infinite result.

use super::Val;
use super::symbolic::SymbolicSet;
use crate::diag::Span;
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, UnaryOp};
use std::sync::Arc;

/// The name of the range's element: `$` keeps it apart from every name of a machine.
const IMAGE: &str = "ran$y";

/// `ran(r)` or `r~` (per `op`) of a symbolic lambda or comprehension; None for other sets.
pub(super) fn range_or_inverse(op: UnaryOp, r: &Val, span: Span) -> Option<Val> {
    let Val::Sym(s) = r else {
        return None;
    };
    let (vars, pred, env) = match &**s {
        SymbolicSet::Lambda {
            vars,
            pred,
            body,
            env,
        } => {
            let y = TypedName {
                name: IMAGE.into(),
                ty: body.ty.clone(),
                span,
            };
            let is_image = Pred::new(
                PredKind::Compare(
                    CompareOp::Eq,
                    Box::new(Expr::new(ExprKind::Var(y.name.clone()), y.ty.clone(), span)),
                    Box::new((**body).clone()),
                ),
                span,
            );
            let both = Pred::new(PredKind::And(vec![(**pred).clone(), is_image]), span);
            let (vars, pred) = match op {
                UnaryOp::Ran => (
                    vec![y],
                    Pred::new(PredKind::Exists(vars.to_vec(), Box::new(both)), span),
                ),
                UnaryOp::Inverse if vars.len() == 1 => (vec![y, vars[0].clone()], both),
                _ => return None,
            };
            (vars, pred, env)
        }
        // `{x, y | P}`: its range is `{y | #x.P}`, its inverse `{y, x | P}`.
        SymbolicSet::Comprehension { vars, pred, env } if vars.len() == 2 => {
            let (x, y) = (vars[0].clone(), vars[1].clone());
            let (vars, pred) = match op {
                UnaryOp::Ran => (
                    vec![y],
                    Pred::new(PredKind::Exists(vec![x], Box::new((**pred).clone())), span),
                ),
                UnaryOp::Inverse => (vec![y, x], (**pred).clone()),
                _ => return None,
            };
            (vars, pred, env)
        }
        _ => return None,
    };
    Some(Val::Sym(Arc::new(SymbolicSet::Comprehension {
        vars: Arc::new(vars),
        pred: Arc::new(pred),
        env: env.clone(),
    })))
}
