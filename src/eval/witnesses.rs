//! The members of `{x | ... & #(ys).(... & x = E & ...) & ...}` (or of several variables, each fixed so)
//! found through the existential's witnesses: every member is `E` at some witness `ys`, so enumerating the `ys` (over the conjuncts of the
//! existential that do not mention `x`) gives candidates, each kept only when the comprehension's whole
//! condition holds at it. `{x | x : INTEGER & #n.(n : 1..32 & 2 ** n = x)}` is enumerated this way
//! though `x` itself has no finite domain.

use super::enumerate::{mentions, pred_mentions};
use super::{Context, Env, EvalError};
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, TypedName};
use crate::value::Value;

impl Context {
    /// The solutions of `{vars | pred}` (in `env`, as tuples) through the witnesses of an existential
    /// conjunct that fixes every one of `vars` (`{ab, cd | #(a,b,c,d).(ab = (a,b) & cd = (c,d) & (a,c)
    /// : f & (b,d) : g)}`); None when `pred` has no such conjunct or its witnesses cannot all be
    /// enumerated.
    pub(crate) fn solutions_by_witnesses(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &Env,
    ) -> Result<Option<Vec<Value>>, EvalError> {
        let limit = self.settings().enumeration_limit;
        let is_var = |n: &str| vars.iter().any(|v| &*v.name == n);
        for conjunct in pred.conjuncts() {
            let PredKind::Exists(ys, body) = &conjunct.kind else {
                continue;
            };
            if ys.iter().any(|y| is_var(&y.name)) {
                continue;
            }
            let parts = body.conjuncts();
            let Some(images) = vars
                .iter()
                .map(|v| {
                    parts.iter().find_map(|p| {
                        defining_expr(p, &v.name)
                            .filter(|e| !crate::ir::free_names::expr_mentions(e, &|n| is_var(n)))
                    })
                })
                .collect::<Option<Vec<&Expr>>>()
            else {
                continue;
            };
            // Dropping the conjuncts about `vars` only widens the witnesses: still a superset.
            let rest: Vec<Pred> = parts
                .iter()
                .filter(|p| !vars.iter().any(|v| pred_mentions(p, &v.name)))
                .map(|p| (*p).clone())
                .collect();
            let rest = Pred::new(PredKind::And(rest), body.span);
            let mut candidates = Vec::new();
            let mut env = env.clone();
            let searched = self.search(ys, &rest, &mut env, &mut |ctx, env| {
                let mut point = Vec::with_capacity(images.len());
                for image in &images {
                    point.push(ctx.eval_value(image, env)?);
                }
                candidates.push(point);
                Ok(candidates.len() <= limit)
            });
            match searched {
                Ok(true) if candidates.len() <= limit => {}
                Err(e) if e.is_timeout() => return Err(e),
                _ => continue,
            }
            let mut out = Vec::new();
            candidates.sort_unstable();
            candidates.dedup();
            for point in candidates {
                let mut env = env.clone();
                for (v, x) in vars.iter().zip(&point) {
                    env.bind(v.name.clone(), x.clone());
                }
                if self.eval_pred_in(pred, &mut env)? {
                    out.push(super::symbolic::tuple(&point));
                }
            }
            return Ok(Some(out));
        }
        Ok(None)
    }
}

/// `E` when `p` is `x = E` or `E = x` with `E` not mentioning `x`.
fn defining_expr<'p>(p: &'p Pred, x: &str) -> Option<&'p Expr> {
    let PredKind::Compare(CompareOp::Eq, a, b) = &p.kind else {
        return None;
    };
    let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if &**n == x);
    if is_x(a) && !mentions(b, x) {
        Some(b)
    } else if is_x(b) && !mentions(a, x) {
        Some(a)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{empty_machine, truth};

    #[test]
    fn several_variables_fixed_by_one_existential() {
        let model = empty_machine("witnesses");
        for (text, expected) in [
            (
                "{ab, cd | #(a,b,c,d).(ab = (a,b) & cd = (c,d) & (a,c) : {\"p\" |-> \"q\"} \
                 & (b,d) : {\"r\" |-> \"s\", \"t\" |-> \"u\"})} \
                 = {(\"p\", \"r\") |-> (\"q\", \"s\"), (\"p\", \"t\") |-> (\"q\", \"u\")}",
                true,
            ),
            (
                "{x, y | #n.(n : 1..3 & x = n * 2 & y = n * n) & x > 2} = {4 |-> 4, 6 |-> 9}",
                true,
            ),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
    }
}
