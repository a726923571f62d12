//! Evaluation of predicates (left-to-right, short-circuit: the L-system of well-definedness).

use super::{Context, Env, EvalError, limit_error};
use crate::ir::{BinaryOp, CompareOp, ExprKind, Pred, PredKind, TypedName};
use crate::value::Value;
use std::borrow::Cow;

impl Context {
    /// Evaluates a predicate: true, false, or an error (WD, limit, unsupported).
    pub fn eval_pred(&self, p: &Pred, env: &Env) -> Result<bool, EvalError> {
        let mut env = env.clone();
        self.eval_pred_in(p, &mut env)
    }

    pub(crate) fn eval_pred_in(&self, p: &Pred, env: &mut Env) -> Result<bool, EvalError> {
        super::check_stack(p.span)?;
        match &p.kind {
            PredKind::True => Ok(true),
            PredKind::False => Ok(false),
            PredKind::And(ps) => {
                for q in ps {
                    if !self.eval_pred_in(q, env)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            PredKind::Or(ps) => {
                for q in ps {
                    if self.eval_pred_in(q, env)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            PredKind::Implies(a, b) => {
                Ok(!self.eval_pred_in(a, env)? || self.eval_pred_in(b, env)?)
            }
            PredKind::Equiv(a, b) => Ok(self.eval_pred_in(a, env)? == self.eval_pred_in(b, env)?),
            PredKind::Not(a) => Ok(!self.eval_pred_in(a, env)?),
            PredKind::Exists(vars, body) => {
                let mut found = false;
                let (complete, search_error) =
                    enumeration_outcome(self.search(vars, body, env, &mut |_, _| {
                        found = true;
                        Ok(false)
                    }))?;
                if found || complete {
                    return Ok(found);
                }
                match self.solver_domain(vars, body, env, 1) {
                    Some(solutions) => Ok(!solutions.is_empty()),
                    None => match self.smt_witness(vars, body, env) {
                        Some(found) => Ok(found),
                        None => Err(self.cannot_decide(p, vars, "#", search_error)),
                    },
                }
            }
            PredKind::Forall(vars, body) => {
                let (domain, claim) = forall_domain(body);
                let domain = &*domain;
                let mut holds = true;
                let (complete, search_error) =
                    enumeration_outcome(self.search(vars, domain, env, &mut |ctx, env| {
                        holds = ctx.eval_pred_in(claim, env)?;
                        Ok(holds)
                    }))?;
                if !holds || complete {
                    return Ok(holds);
                }
                let limit = self.settings().enumeration_limit;
                // No finite domain: the claim itself may bound where it can fail
                // (`!i.(i /= 0 => (p + i, q) /: board)` fails only at the i that reach board).
                let points = match self.solver_domain(vars, domain, env, limit) {
                    Some(points) => points,
                    None => {
                        let refuting = match vars.as_slice() {
                            [v] if v.ty == crate::types::Type::Integer => {
                                self.refuting_values(&v.name, claim, env)
                            }
                            _ => None,
                        };
                        match refuting {
                            Some(values) => values.into_iter().map(|x| vec![x]).collect(),
                            // The SMT solver last: it costs a process round trip per evaluation.
                            None => {
                                let counterexample = Pred::new(
                                    PredKind::And(vec![
                                        domain.clone(),
                                        Pred::new(
                                            PredKind::Not(Box::new(claim.clone())),
                                            claim.span,
                                        ),
                                    ]),
                                    body.span,
                                );
                                return match self.smt_witness(vars, &counterexample, env) {
                                    Some(found) => Ok(!found),
                                    None => Err(self.cannot_decide(p, vars, "!", search_error)),
                                };
                            }
                        }
                    }
                };
                let mark = env.len();
                for point in points {
                    for (v, x) in vars.iter().zip(point) {
                        env.bind(v.name.clone(), x);
                    }
                    // The refuting values are not known to satisfy the domain.
                    let holds = match self.eval_pred_in(domain, env) {
                        Ok(true) => self.eval_pred_in(claim, env),
                        other => other.map(|_| true),
                    };
                    env.truncate(mark);
                    if !holds? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            PredKind::Compare(op, a, b) => self.compare(*op, a, b, env),
            PredKind::If(c, a, b) => {
                if self.eval_pred_in(c, env)? {
                    self.eval_pred_in(a, env)
                } else {
                    self.eval_pred_in(b, env)
                }
            }
            PredKind::Let(binds, body) => {
                let mark = env.len();
                for (v, x) in binds {
                    match self.eval(x, env) {
                        Ok(val) => env.bind_val(v.name.clone(), val),
                        Err(e) => {
                            env.truncate(mark);
                            return Err(e);
                        }
                    }
                }
                let r = self.eval_pred_in(body, env);
                env.truncate(mark);
                r
            }
        }
    }

    fn compare(
        &self,
        op: CompareOp,
        a: &crate::ir::Expr,
        b: &crate::ir::Expr,
        env: &mut Env,
    ) -> Result<bool, EvalError> {
        let span = a.span.to(b.span);
        match op {
            CompareOp::Eq | CompareOp::NotEq => {
                let x = self.eval(a, env)?;
                let y = self.eval(b, env)?;
                Ok(self.vals_equal(&x, &y, span)? == (op == CompareOp::Eq))
            }
            CompareOp::In => {
                // `x : lo..hi` by comparisons: building the interval cost more than the test (guards
                // and lambda domains such as `x : 0..5` are checked in every state).
                if let ExprKind::Binary(BinaryOp::Interval, lo, hi) = &b.kind {
                    let x = self.eval_int(a, env)?;
                    let (lo, hi) = (self.eval_int(lo, env)?, self.eval_int(hi, env)?);
                    return Ok(lo <= x && x <= hi);
                }
                let x = self.eval(a, env)?;
                let s = self.eval(b, env)?;
                self.contains_val(&s, x, a.span, span)
            }
            CompareOp::Subset => {
                let x = self.eval(a, env)?;
                let y = self.eval(b, env)?;
                self.is_subset(&x, &y, span)
            }
            CompareOp::StrictSubset => {
                let x = self.eval(a, env)?;
                let y = self.eval(b, env)?;
                Ok(self.is_subset(&x, &y, span)? && !self.vals_equal(&x, &y, span)?)
            }
            CompareOp::Lt | CompareOp::Le => {
                let x = self.eval_int(a, env)?;
                let y = self.eval_int(b, env)?;
                Ok(if op == CompareOp::Lt { x < y } else { x <= y })
            }
        }
    }
}

impl Context {
    /// The solutions of a quantifier's domain that the interpreter's enumeration could not bound (the
    /// bounds come from inequalities such as `i > 0 & i < j & j <= n`), found by the propagating solver:
    /// all of them when its search is exhaustive and finds fewer than `limit`, else None. The oracle
    /// (`--backend brute`) never asks the solver.
    fn solver_domain(
        &self,
        vars: &[TypedName],
        domain: &Pred,
        env: &Env,
        limit: usize,
    ) -> Option<Vec<Vec<Value>>> {
        if self.settings().backend == super::Backend::Brute {
            return None;
        }
        let found = self
            .choose_all(vars, domain, env, super::Purpose::Domain, limit)
            .ok()?;
        (found.complete || (limit == 1 && !found.solutions.is_empty())).then_some(found.solutions)
    }
}

impl Context {
    /// Whether `pred` has a solution for `vars`, decided by the SMT solver over unbounded integers where
    /// the interpreter's enumeration and the native solver could not (`#c.(c = c + 1)`): `Some(false)` on a
    /// complete Unsat, `Some(true)` on a solution the interpreter confirmed (`solve_all` re-checks it),
    /// None when no SMT solver answers within `SMT_QUANTIFIER_BUDGET`. Never for the oracle.
    fn smt_witness(&self, vars: &[TypedName], pred: &Pred, env: &Env) -> Option<bool> {
        if self.settings().backend == super::Backend::Brute {
            return None;
        }
        let cap = std::time::Instant::now() + SMT_QUANTIFIER_BUDGET;
        let until = Some(self.deadline().map_or(cap, |d| d.min(cap)));
        let found = self
            .with_stage_deadline(until, || {
                self.choose_all(vars, pred, env, super::Purpose::Witness, 1)
            })
            .ok()?;
        if !found.solutions.is_empty() {
            Some(true)
        } else {
            found.complete.then_some(false)
        }
    }
}

/// The longest an SMT call deciding one quantifier inside an evaluation may take: it runs where the
/// interpreter would otherwise give up, possibly once per state of a model check.
const SMT_QUANTIFIER_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);

/// Splits the body of `!x.(body)` into the domain the search enumerates and the claim checked on it.
/// Nested implications join the domain (`P => (Q => R)` is `P & Q => R`), so a guard written inside
/// (`!u.(u : INTEGER => (u >= a & u <= b => ...))`, Rodin's translation) still bounds the variables.
fn forall_domain(body: &Pred) -> (Cow<'_, Pred>, &Pred) {
    let PredKind::Implies(a, b) = &body.kind else {
        return (Cow::Owned(Pred::truth(body.span)), body);
    };
    if !matches!(b.kind, PredKind::Implies(..)) {
        return (Cow::Borrowed(&**a), &**b);
    }
    let mut guards = vec![(**a).clone()];
    let mut claim = &**b;
    while let PredKind::Implies(c, d) = &claim.kind {
        guards.push((**c).clone());
        claim = d;
    }
    (
        Cow::Owned(Pred::new(PredKind::And(guards), body.span)),
        claim,
    )
}

/// A quantifier's enumeration: whether it was complete, and the resource limit that stopped it (a
/// domain too large to enumerate, whose solutions the solver may still find); other errors propagate.
fn enumeration_outcome(
    searched: Result<bool, EvalError>,
) -> Result<(bool, Option<EvalError>), EvalError> {
    match searched {
        Ok(complete) => Ok((complete, None)),
        Err(e @ EvalError::Limit(_)) if !e.is_timeout() => Ok((false, Some(e))),
        Err(e) => Err(e),
    }
}

impl Context {
    /// Why quantifier `q` over `vars` stays undecided once neither enumeration nor a solver found its
    /// domain: the deadline, when it has passed (a solver cut by it finds no domain, and a timeout is
    /// what lets a portfolio stage hand on), else the enumeration's resource limit, else "no finite
    /// domain".
    fn cannot_decide(
        &self,
        p: &Pred,
        vars: &[TypedName],
        q: &str,
        search_error: Option<EvalError>,
    ) -> EvalError {
        if let Err(timeout) = self.check_deadline(p.span) {
            return timeout;
        }
        search_error.unwrap_or_else(|| {
            let names: Vec<&str> = vars.iter().map(|v| &*v.name).collect();
            limit_error(
                p.span,
                format!(
                    "cannot decide {q}({}): no finite domain found (only MININT..MAXINT was explored)",
                    names.join(",")
                ),
            )
        })
    }
}
