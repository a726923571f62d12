//! Problems whose every variable is fixed by a chain of deterministic equations (`x = E`, E computable
//! from known values and earlier definitions): one candidate, computed directly. The model checker asks
//! such questions once per operation and state (`pv = BUSvalue & ppriority = BUSpriority`), and ProB
//! evaluates them before any constraint solving (Plagge & Leuschel §3.6); building a propagation model
//! for them would cost more than the whole answer.

use super::{Found, Problem, Stats};
use crate::analysis::deterministic::definitions;
use crate::eval::{Context, EvalError};
use crate::ir::PredKind;
use crate::value::Value;

/// `Some(exhaustive)` when the problem was answered here, `None` when some variable is not determined.
pub(crate) fn solve(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<Option<bool>, EvalError> {
    let vars = problem.vars;
    if vars.is_empty() {
        return Ok(None);
    }
    let conjuncts = problem.pred.conjuncts();
    // The interpreter alone cannot check an existential over a large type; the native solver finds
    // witnesses for top-level ones.
    if conjuncts
        .iter()
        .any(|c| matches!(c.kind, PredKind::Exists(..)))
    {
        return Ok(None);
    }
    let known = |n: &str| problem.env.get(n).is_some() || ctx.is_global(n);
    let defs = definitions(vars, &conjuncts, &known);
    if defs.len() < vars.len() {
        return Ok(None);
    }
    let mut env = problem.env.clone();
    let mut values: Vec<Option<Value>> = vec![None; vars.len()];
    for d in &defs {
        let PredKind::Compare(_, l, r) = &conjuncts[d.conjunct].kind else {
            return Ok(None);
        };
        let name = &vars[d.var].name;
        let defining = match &l.kind {
            crate::ir::ExprKind::Var(n) if n == name => r,
            _ => l,
        };
        match ctx.eval_value(defining, &mut env) {
            Ok(v) => {
                env.bind(name.clone(), v.clone());
                values[d.var] = Some(v);
            }
            // E is ill-defined whatever the other variables are: so is the predicate, which has no
            // solution.
            Err(EvalError::WellDefinedness(_)) => return Ok(Some(true)),
            Err(e) => return Err(e),
        }
    }
    stats.nodes += 1;
    let values: Option<Vec<Value>> = values.into_iter().collect();
    let Some(values) = values else {
        return Ok(None);
    };
    // The definitions hold by construction; the candidate is a solution when the other conjuncts hold
    // too. Only then is it proposed (and `solve::stream` checks the whole predicate once more): a
    // proposal that fails the check would count as a backend error.
    for (i, c) in conjuncts.iter().enumerate() {
        if defs.iter().any(|d| d.conjunct == i) {
            continue;
        }
        match ctx.eval_pred(c, &env) {
            Ok(true) => {}
            Ok(false) | Err(EvalError::WellDefinedness(_)) => return Ok(Some(true)),
            Err(e) => return Err(e),
        }
    }
    on_solution(&values, &[])?;
    Ok(Some(true))
}
