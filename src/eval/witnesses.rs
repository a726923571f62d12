//! The members of `{x | ... & #(ys).(... & x = E & ...) & ...}` found through the existential's witnesses:
//! every member is `E` at some witness `ys`, so enumerating the `ys` (over the conjuncts of the
//! existential that do not mention `x`) gives candidates, each kept only when the comprehension's whole
//! condition holds at it. `{x | x : INTEGER & #n.(n : 1..32 & 2 ** n = x)}` is enumerated this way
//! though `x` itself has no finite domain.

use super::enumerate::{mentions, pred_mentions};
use super::{Context, Env, EvalError};
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, TypedName};
use crate::value::Value;

impl Context {
    /// The solutions of `{var | pred}` (in `env`) through the witnesses of an existential conjunct that
    /// fixes `var`; None when `pred` has no such conjunct or its witnesses cannot all be enumerated.
    pub(crate) fn solutions_by_witnesses(
        &self,
        var: &TypedName,
        pred: &Pred,
        env: &Env,
    ) -> Result<Option<Vec<Value>>, EvalError> {
        let limit = self.settings().enumeration_limit;
        for conjunct in pred.conjuncts() {
            let PredKind::Exists(ys, body) = &conjunct.kind else {
                continue;
            };
            if ys.iter().any(|y| y.name == var.name) {
                continue;
            }
            let parts = body.conjuncts();
            let Some(image) = parts.iter().find_map(|p| defining_expr(p, &var.name)) else {
                continue;
            };
            // Dropping the conjuncts about `var` only widens the witnesses: still a superset.
            let rest: Vec<Pred> = parts
                .iter()
                .filter(|p| !pred_mentions(p, &var.name))
                .map(|p| (*p).clone())
                .collect();
            let rest = Pred::new(PredKind::And(rest), body.span);
            let mut candidates = Vec::new();
            let mut env = env.clone();
            let searched = self.search(ys, &rest, &mut env, &mut |ctx, env| {
                candidates.push(ctx.eval_value(image, env)?);
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
            for c in candidates {
                let mut env = env.with(var.name.clone(), c.clone());
                if self.eval_pred_in(pred, &mut env)? {
                    out.push(c);
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
