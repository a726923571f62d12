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
            // An ill-defined or unevaluable E (an infinite comprehension, a partial operator inside
            // one) is left to the solver, which keeps such values symbolic or reports why not.
            Err(_) => return Ok(None),
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
            Ok(false) => return Ok(Some(true)),
            Err(_) => return Ok(None),
        }
    }
    on_solution(&values, &[])?;
    Ok(Some(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_formula::Formula;
    use crate::eval::Env;

    /// The candidates proposed for `text` (its free identifiers are the variables), and whether the
    /// problem was answered here at all.
    fn answer(text: &str) -> Option<Vec<Vec<Value>>> {
        let f = Formula::parse(text);
        let env = Env::new();
        let problem = Problem::new(&f.vars, &f.pred, &env);
        let mut found = Vec::new();
        let answered = solve(
            &f.model.context,
            &problem,
            &mut |values, _| {
                found.push(values.to_vec());
                Ok(true)
            },
            &mut Stats::default(),
        )
        .expect("no evaluation error");
        answered.map(|exhaustive| {
            assert!(exhaustive);
            found
        })
    }

    #[test]
    fn chains_of_definitions_give_the_one_candidate() {
        let found = answer("y = x * 2 & x = 20 & y > 30").expect("determined");
        assert_eq!(found.len(), 1);
        assert!(found[0].contains(&Value::int(40)));
        assert!(found[0].contains(&Value::int(20)));
    }

    #[test]
    fn a_false_remaining_conjunct_means_no_solution() {
        assert_eq!(answer("x = 20 & x < 10"), Some(vec![]));
    }

    #[test]
    fn undetermined_or_unevaluable_problems_are_left_to_the_solver() {
        assert_eq!(answer("x : 1..3 & y = x"), None);
        // Ill-defined definitions are the solver's to judge.
        assert_eq!(answer("x = 1 / 0"), None);
        // An existential needs the solver's witnesses.
        assert_eq!(answer("x = 2 & #z.(z : 1..x & z > 1)"), None);
    }
}
