//! Unknowns computed after the SAT search: `v = E` where v appears in no other conjunct and E does not
//! mention v. Such a v is a function of the others, so the rest of the problem is solved alone and v is
//! evaluated per solution by the interpreter — E may then use what the translation lacks (`result =
//! PI(x).(x : {a, b, c} | x)` beside `a**2 + b**2 = c**2` in Euler_Problem_009). An E ill-defined for a
//! solution of the rest makes it no solution (the interpreter's re-check would reject it too).

use super::super::Problem;
use crate::eval::{Context, EvalError};
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, free_names};
use crate::value::Value;

/// The problem without its derived unknowns, and how to compute them.
pub(super) struct Derived {
    /// The remaining unknowns, with their positions in the whole problem's `vars`.
    pub rest_vars: Vec<TypedName>,
    rest_positions: Vec<usize>,
    pub rest_pred: Pred,
    /// Per derived unknown: its position in `vars` and its defining expression.
    definitions: Vec<(usize, Expr)>,
}

/// The derived unknowns of `problem`, when there are any and something else remains.
pub(super) fn split(problem: &Problem<'_>) -> Option<Derived> {
    let conjuncts = problem.pred.conjuncts();
    let mut definitions: Vec<(usize, usize, Expr)> = Vec::new();
    for (ci, c) in conjuncts.iter().enumerate() {
        let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind else {
            continue;
        };
        for (x, e) in [(l, r), (r, l)] {
            let ExprKind::Var(n) = &x.kind else {
                continue;
            };
            let Some(vi) = problem.vars.iter().position(|v| v.name == *n) else {
                continue;
            };
            let is_n = |m: &crate::syntax::ast::Name| m == n;
            let elsewhere = conjuncts
                .iter()
                .enumerate()
                .any(|(cj, d)| cj != ci && free_names::pred_mentions(d, &is_n));
            if !elsewhere
                && !free_names::expr_mentions(e, &is_n)
                && !definitions.iter().any(|&(v, ..)| v == vi)
            {
                definitions.push((vi, ci, (**e).clone()));
                break;
            }
        }
    }
    if definitions.is_empty() || definitions.len() == problem.vars.len() {
        return None;
    }
    let rest_positions: Vec<usize> = (0..problem.vars.len())
        .filter(|i| !definitions.iter().any(|&(v, ..)| v == *i))
        .collect();
    let rest_conjuncts: Vec<Pred> = conjuncts
        .iter()
        .enumerate()
        .filter(|(ci, _)| !definitions.iter().any(|&(_, c, _)| c == *ci))
        .map(|(_, c)| (*c).clone())
        .collect();
    Some(Derived {
        rest_vars: rest_positions
            .iter()
            .map(|&i| problem.vars[i].clone())
            .collect(),
        rest_positions,
        rest_pred: Pred::new(PredKind::And(rest_conjuncts), problem.pred.span),
        definitions: definitions.into_iter().map(|(v, _, e)| (v, e)).collect(),
    })
}

impl Derived {
    /// The whole problem's values from a solution of the rest, or `None` when a definition is
    /// ill-defined there.
    pub fn complete(
        &self,
        ctx: &Context,
        problem: &Problem<'_>,
        rest_values: &[Value],
    ) -> Result<Option<Vec<Value>>, EvalError> {
        let mut env = problem.env.clone();
        let mut all = vec![Value::empty_set(); problem.vars.len()];
        for ((&i, v), x) in self
            .rest_positions
            .iter()
            .zip(rest_values)
            .zip(&self.rest_vars)
        {
            env.bind(x.name.clone(), v.clone());
            all[i] = v.clone();
        }
        for (i, e) in &self.definitions {
            match ctx.eval_expr(e, &env) {
                Ok(v) => all[*i] = v,
                Err(EvalError::WellDefinedness(_)) => return Ok(None),
                Err(other) => return Err(other),
            }
        }
        Ok(Some(all))
    }
}
