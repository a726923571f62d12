//! Unknowns computed after the SAT search: `v = E` where v appears in no other conjunct and E does not
//! mention v. Such a v is a function of the others, so the rest of the problem is solved alone and v is
//! evaluated per solution by the interpreter — E may then use what the translation lacks (`result =
//! PI(x).(x : {a, b, c} | x)` beside `a**2 + b**2 = c**2` in Euler_Problem_009). An E ill-defined for a
//! solution of the rest makes it no solution (the interpreter's re-check would reject it too).

use super::super::Problem;
use crate::eval::{Context, EvalError};
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, free_names};
use crate::syntax::ast::Name;
use crate::value::Value;
use rustc_hash::FxHashMap;

/// The problem without its derived unknowns, and how to compute them.
pub(super) struct Derived {
    /// The remaining unknowns, with their positions in the whole problem's `vars`.
    rest_vars: Vec<TypedName>,
    rest_positions: Vec<usize>,
    rest_pred: Pred,
    /// Per derived unknown: its position in `vars` and its defining expression.
    definitions: Vec<(usize, Expr)>,
}

/// The derived unknowns of `problem`, when there are any and something else remains.
pub(super) fn split(problem: &Problem<'_>) -> Option<Derived> {
    let conjuncts = problem.pred.conjuncts();
    let index: FxHashMap<&Name, usize> = problem
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (&v.name, i))
        .collect();
    // How many conjuncts mention each unknown: one walk per conjunct, so that a problem of thousands
    // of equations costs no more than its size.
    let mut mentions = vec![0usize; problem.vars.len()];
    for c in &conjuncts {
        for n in free_names::of_pred(c) {
            if let Some(&i) = index.get(&n) {
                mentions[i] += 1;
            }
        }
    }
    let mut defined = vec![false; problem.vars.len()];
    let mut defining = vec![false; conjuncts.len()];
    let mut definitions: Vec<(usize, Expr)> = Vec::new();
    for (ci, c) in conjuncts.iter().enumerate() {
        let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind else {
            continue;
        };
        for (x, e) in [(l, r), (r, l)] {
            let ExprKind::Var(n) = &x.kind else {
                continue;
            };
            let Some(&vi) = index.get(n) else {
                continue;
            };
            if mentions[vi] == 1 && !defined[vi] && !free_names::expr_mentions(e, &|m| m == n) {
                defined[vi] = true;
                defining[ci] = true;
                definitions.push((vi, (**e).clone()));
                break;
            }
        }
    }
    if definitions.is_empty() || definitions.len() == problem.vars.len() {
        return None;
    }
    let rest_positions: Vec<usize> = (0..problem.vars.len()).filter(|&i| !defined[i]).collect();
    let rest_conjuncts: Vec<Pred> = conjuncts
        .iter()
        .zip(&defining)
        .filter(|(_, d)| !**d)
        .map(|(c, _)| (*c).clone())
        .collect();
    Some(Derived {
        rest_vars: rest_positions
            .iter()
            .map(|&i| problem.vars[i].clone())
            .collect(),
        rest_positions,
        rest_pred: Pred::new(PredKind::And(rest_conjuncts), problem.pred.span),
        definitions,
    })
}

impl Derived {
    /// The problem without the derived unknowns and their definitions.
    pub fn rest<'a>(&'a self, problem: &Problem<'a>) -> Problem<'a> {
        Problem {
            vars: &self.rest_vars,
            pred: &self.rest_pred,
            ..*problem
        }
    }

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
