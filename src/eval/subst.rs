//! Execution of substitutions: every possible outcome, non-deterministic choices enumerated.
//!
//! An outcome is the list of `(variable, new value)` updates, sorted by name; no outcome at all means the
//! substitution is not enabled (a false PRE, SELECT or ANY guard — PRE is treated as a guard, as ProB's
//! model checker does).

use super::enumerate::mentions;
use super::symbolic::destructure;
use super::{Context, Env, EvalError, internal_error, limit_error, unsupported, wd_error};
use crate::diag::Span;
use crate::ir::{
    AssignTarget, CompareOp, Expr, ExprKind, Pred, PredKind, Subst, SubstKind, TypedName,
};
use crate::syntax::ast::Name;
use crate::value::{Int, Value};
use std::sync::Arc;

/// One outcome of a substitution: the variables it assigns and their new values, sorted by name.
pub type Updates = Vec<(Name, Value)>;

/// `a` then `b`: b's assignments win; the result is sorted by name.
fn merge(a: &Updates, b: &Updates) -> Updates {
    let mut out: Updates = b.clone();
    for (n, v) in a {
        if !b.iter().any(|(m, _)| m == n) {
            out.push((n.clone(), v.clone()));
        }
    }
    out.sort_by(|x, y| x.0.cmp(&y.0));
    out
}

/// `merge(into, b)` in place, for `into` sorted by name.
fn merge_into(into: &mut Updates, b: Updates) {
    for (n, v) in b {
        match into.binary_search_by(|x| x.0.cmp(&n)) {
            Ok(i) => into[i].1 = v,
            Err(i) => into.insert(i, (n, v)),
        }
    }
}

impl Context {
    /// Binds the new values of `updates` (a held set to the set it stands for).
    fn apply_updates(&self, env: &mut Env, updates: &Updates) {
        for (n, v) in updates {
            self.bind_held(env, n.clone(), v);
        }
    }

    /// All outcomes of `s` from `env` (state and parameters); empty when not enabled.
    pub fn execute(&self, s: &Subst, env: &Env) -> Result<Vec<Updates>, EvalError> {
        let mut env = env.clone();
        let mut outcomes = self.exec(s, &mut env)?;
        for o in &mut outcomes {
            *o = merge(&Vec::new(), o);
        }
        outcomes.sort();
        outcomes.dedup();
        Ok(outcomes)
    }

    /// `execute` for an operation's body: its outputs start without a value, so that reading one
    /// before its assignment (`IF c THEN out := 1 END; x := out`) is ill-defined, as ProB reports it.
    pub fn execute_operation(
        &self,
        outputs: &[TypedName],
        body: &Subst,
        env: &Env,
    ) -> Result<Vec<Updates>, EvalError> {
        if outputs.is_empty() {
            return self.execute(body, env);
        }
        let mut env = env.clone();
        for o in outputs {
            env.bind_val(o.name.clone(), super::unassigned::local().into());
        }
        self.execute(body, &env)
    }

    fn exec(&self, s: &Subst, env: &mut Env) -> Result<Vec<Updates>, EvalError> {
        let span = s.span;
        match &s.kind {
            SubstKind::Skip => Ok(vec![Vec::new()]),
            SubstKind::Assign(assignments) => {
                let mut values = Vec::with_capacity(assignments.len());
                for (target, e) in assignments {
                    let v = self.eval(e, env)?;
                    // A whole variable may hold a set that cannot be listed (`held_sets`).
                    values.push(match target {
                        AssignTarget::Var(_) => self.hold(v, e.span)?,
                        _ => self.to_value(v, e.span)?,
                    });
                }
                let mut updates = Vec::with_capacity(assignments.len());
                for ((target, _), v) in assignments.iter().zip(values) {
                    updates.push(self.assign(target, v, env, span)?);
                }
                Ok(vec![merge(&Vec::new(), &updates)])
            }
            SubstKind::BecomesElementOf(vars, set) => {
                let value = self.eval(set, env)?;
                let items = match self.materialize(&value, set.span) {
                    Ok(items) => items,
                    // A set of integers or strings that cannot be listed (`m :: 1..n --> INTEGER`):
                    // its elements are searched as those of `m : (m : S)` are, within MININT..MAXINT as
                    // ProB does (an error only when none is found). A finite type too large to list
                    // stays an error: the search would list as many before giving up. S must not
                    // mention the variable, which the search rebinds.
                    Err(e @ EvalError::Limit(_))
                        if !e.is_timeout()
                            && !set.ty.is_finite()
                            && let [var] = &vars[..]
                            && !mentions(set, &var.name) =>
                    {
                        let x =
                            Expr::new(ExprKind::Var(var.name.clone()), var.ty.clone(), set.span);
                        let pred = Pred::new(
                            PredKind::Compare(CompareOp::In, Box::new(x), Box::new(set.clone())),
                            set.span,
                        );
                        return self.exec_such_that(vars, &pred, env, span);
                    }
                    Err(e) => return Err(e),
                };
                let mut out = Vec::with_capacity(items.len());
                for x in items.iter() {
                    let parts = destructure(x, vars.len()).ok_or_else(|| {
                        internal_error(span, "`::` value does not match its variables")
                    })?;
                    out.push(vars.iter().map(|v| v.name.clone()).zip(parts).collect());
                }
                Ok(out)
            }
            SubstKind::BecomesSuchThat(vars, pred) => self.exec_such_that(vars, pred, env, span),
            SubstKind::OpCall(_, name, _) => Err(unsupported(
                span,
                format!("operation call {name} (calls are inlined by the type checker)"),
            )),
            SubstKind::Parallel(parts) => {
                let mut acc: Vec<Updates> = vec![Vec::new()];
                for p in parts {
                    let outs = self.exec(p, env)?;
                    let mut next = Vec::with_capacity(acc.len() * outs.len());
                    for a in &acc {
                        for o in &outs {
                            let mut u = a.clone();
                            u.extend(o.iter().cloned());
                            next.push(u);
                        }
                    }
                    acc = next;
                }
                Ok(acc)
            }
            SubstKind::Sequence(parts) => {
                let mut acc: Vec<Updates> = vec![Vec::new()];
                for p in parts {
                    let mut next = Vec::new();
                    for a in &acc {
                        let mark = env.len();
                        self.apply_updates(env, a);
                        let outs = self.exec(p, env);
                        env.truncate(mark);
                        for o in outs? {
                            next.push(merge(a, &o));
                        }
                    }
                    acc = next;
                }
                Ok(acc)
            }
            SubstKind::Any(vars, pred, body) => {
                let mut out = Vec::new();
                let complete = self.solve_for(vars, pred, env, &mut |ctx, env| {
                    out.extend(ctx.exec(body, env)?);
                    Ok(true)
                })?;
                if !complete && out.is_empty() {
                    return Err(limit_error(
                        span,
                        "ANY: no solution found, but the variables were only explored within MININT..MAXINT",
                    ));
                }
                if !complete {
                    env.note_search_cut();
                }
                Ok(out)
            }
            SubstKind::Let(binds, body) => {
                let mark = env.len();
                let mut result = Ok(());
                for (v, e) in binds {
                    match self.eval(e, env) {
                        Ok(val) => env.bind_val(v.name.clone(), val),
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                let outs = result.and_then(|_| self.exec(body, env));
                env.truncate(mark);
                outs
            }
            SubstKind::Var(vars, body) => {
                // The locals start without a value: reading one before assigning it is ill-defined.
                let mark = env.len();
                for v in vars {
                    env.bind_val(v.name.clone(), super::unassigned::local().into());
                }
                let outs = self.exec(body, env);
                env.truncate(mark);
                let outs = outs?;
                Ok(outs
                    .into_iter()
                    .map(|o| {
                        o.into_iter()
                            .filter(|(n, _)| !vars.iter().any(|v| v.name == *n))
                            .collect()
                    })
                    .collect())
            }
            SubstKind::Pre(p, body) => {
                if self.eval_pred_in(p, env)? {
                    self.exec(body, env)
                } else {
                    Ok(Vec::new())
                }
            }
            SubstKind::Assert(p, body) => {
                if self.eval_pred_in(p, env)? {
                    self.exec(body, env)
                } else {
                    Err(wd_error(p.span, "ASSERT condition violated"))
                }
            }
            SubstKind::Choice(branches) => {
                let mut out = Vec::new();
                for b in branches {
                    out.extend(self.exec(b, env)?);
                }
                Ok(out)
            }
            SubstKind::If(branches, otherwise) => {
                for (c, b) in branches {
                    if self.eval_pred_in(c, env)? {
                        return self.exec(b, env);
                    }
                }
                match otherwise {
                    Some(b) => self.exec(b, env),
                    None => Ok(vec![Vec::new()]),
                }
            }
            SubstKind::Select(branches, otherwise) => {
                let mut out = Vec::new();
                let mut any = false;
                for (c, b) in branches {
                    if self.eval_pred_in(c, env)? {
                        any = true;
                        out.extend(self.exec(b, env)?);
                    }
                }
                match otherwise {
                    Some(b) if !any => self.exec(b, env),
                    _ => Ok(out),
                }
            }
            SubstKind::Case(e, branches, otherwise) => {
                let v = self.eval_value(e, env)?;
                for (labels, b) in branches {
                    for l in labels {
                        if self.eval_value(l, env)? == v {
                            return self.exec(b, env);
                        }
                    }
                }
                // A CASE without ELSE does nothing when no branch matches (`ELSE skip`), as ProB
                // and the B-Book read it; it does not block.
                match otherwise {
                    Some(b) => self.exec(b, env),
                    None => Ok(vec![Vec::new()]),
                }
            }
            SubstKind::While {
                cond,
                body,
                invariant,
                variant,
            } => self.exec_while(cond, body, invariant, variant, env, span),
        }
    }

    /// `vars : (pred)`: one outcome per solution; `vars$0` are the values before.
    fn exec_such_that(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &mut Env,
        span: Span,
    ) -> Result<Vec<Updates>, EvalError> {
        let mark = env.len();
        for v in vars {
            if let Some(old) = env.get(&v.name).cloned() {
                env.bind_val(format!("{}$0", v.name).into(), old);
            }
        }
        let limit = self.settings().enumeration_limit;
        let mut solutions = Vec::new();
        let result = self.solve_for(vars, pred, env, &mut |ctx, env| {
            solutions.push(ctx.bound_values(vars, env, span)?);
            Ok(solutions.len() < limit)
        });
        env.truncate(mark);
        let complete = result? && solutions.len() < limit;
        if !complete && solutions.is_empty() {
            return Err(limit_error(
                span,
                "`: (P)`: no solution found, but the variables were only explored within MININT..MAXINT",
            ));
        }
        if !complete {
            env.note_search_cut();
        }
        Ok(solutions
            .into_iter()
            .map(|sol| vars.iter().map(|v| v.name.clone()).zip(sol).collect())
            .collect())
    }

    /// Runs a loop to every exit state. The loop is bounded by its VARIANT (a natural number that must
    /// decrease at every step, checked) and by the time budget, as ProB executes loops of millions of
    /// steps; `MAX_WHILE_STEPS`, when a machine sets it, bounds the steps as well. While the body is
    /// deterministic the loop runs in place: one binding per assigned variable and step, no copy of the
    /// state (the common case: generated code iterating over an index).
    fn exec_while(
        &self,
        cond: &Pred,
        body: &Subst,
        invariant: &Pred,
        variant: &Expr,
        env: &mut Env,
        span: Span,
    ) -> Result<Vec<Updates>, EvalError> {
        let max_steps = self.settings().max_while_steps;
        let in_place = super::in_place::straight_line(body);
        // The variables the in-place steps wrote, for the loop's updates at its exit.
        let mut assigned: Vec<Name> = Vec::new();
        let mut frontier: Vec<Updates> = vec![Vec::new()];
        let mut finished = Vec::new();
        let mut steps = 0usize;
        while let Some(mut u) = frontier.pop() {
            let mark = env.len();
            self.apply_updates(env, &u);
            loop {
                if steps.is_multiple_of(1024) {
                    self.check_deadline(span)?;
                }
                steps += 1;
                if max_steps.is_some_and(|m| steps > m) {
                    env.truncate(mark);
                    return Err(limit_error(
                        span,
                        format!(
                            "WHILE loop ran more than {} steps (MAX_WHILE_STEPS)",
                            steps - 1
                        ),
                    ));
                }
                if in_place {
                    let step = self.while_step_in_place(
                        cond,
                        body,
                        (invariant, variant),
                        env,
                        (mark, &mut assigned),
                    );
                    match step.and_then(|go_on| {
                        (!go_on)
                            .then(|| self.written(env, &assigned, span))
                            .transpose()
                    }) {
                        Ok(None) => continue,
                        Ok(Some(written)) => {
                            merge_into(&mut u, written);
                            finished.push(u);
                            break;
                        }
                        Err(e) => {
                            env.truncate(mark);
                            return Err(e);
                        }
                    }
                }
                let step = self.while_step(cond, body, invariant, variant, env);
                let Some((v0, mut outs)) = step.inspect_err(|_| env.truncate(mark))? else {
                    finished.push(u);
                    break;
                };
                if outs.len() == 1 {
                    // Deterministic: bind the step's updates over the current ones and go on.
                    let o = outs.pop().expect("one outcome");
                    self.apply_updates(env, &o);
                    let v1 = self
                        .eval_int(variant, env)
                        .inspect_err(|_| env.truncate(mark))?;
                    if v1 >= v0 {
                        env.truncate(mark);
                        return Err(wd_error(variant.span, "WHILE variant did not decrease"));
                    }
                    merge_into(&mut u, o);
                    // Rebind from the merged updates now and then, so that the environment does
                    // not grow by a binding per step.
                    if env.len() - mark > 4 * u.len().max(8) {
                        env.truncate(mark);
                        self.apply_updates(env, &u);
                    }
                    continue;
                }
                env.truncate(mark);
                for o in outs {
                    let next = merge(&u, &o);
                    self.apply_updates(env, &next);
                    let v1 = self.eval_int(variant, env);
                    env.truncate(mark);
                    if v1? >= v0 {
                        return Err(wd_error(variant.span, "WHILE variant did not decrease"));
                    }
                    frontier.push(next);
                }
                break;
            }
            env.truncate(mark);
        }
        finished.sort();
        finished.dedup();
        Ok(finished)
    }

    /// One loop test: `None` when the loop exits, else the variant before the body and the body's outcomes.
    fn while_step(
        &self,
        cond: &Pred,
        body: &Subst,
        invariant: &Pred,
        variant: &Expr,
        env: &mut Env,
    ) -> Result<Option<(Int, Vec<Updates>)>, EvalError> {
        match self.while_test(cond, invariant, variant, env)? {
            Some(v0) => Ok(Some((v0, self.exec(body, env)?))),
            None => Ok(None),
        }
    }

    /// The loop's invariant and test: `None` when the loop exits, else the variant before the body.
    fn while_test(
        &self,
        cond: &Pred,
        invariant: &Pred,
        variant: &Expr,
        env: &mut Env,
    ) -> Result<Option<Int>, EvalError> {
        if !self.eval_pred_in(invariant, env)? {
            return Err(wd_error(invariant.span, "WHILE invariant violated"));
        }
        if !self.eval_pred_in(cond, env)? {
            return Ok(None);
        }
        let v0 = self.eval_int(variant, env)?;
        if v0.is_negative() {
            return Err(wd_error(variant.span, "WHILE variant is negative"));
        }
        Ok(Some(v0))
    }

    /// One step of a loop whose body runs in place (`in_place::straight_line`), writing into the
    /// loop's bindings above `mark`; false when the loop exits. The caller's updates then lack the
    /// loop's writes: they are the bindings above `mark`, which the caller reads (`written`).
    fn while_step_in_place(
        &self,
        cond: &Pred,
        body: &Subst,
        (invariant, variant): (&Pred, &Expr),
        env: &mut Env,
        (mark, assigned): (usize, &mut Vec<Name>),
    ) -> Result<bool, EvalError> {
        let Some(v0) = self.while_test(cond, invariant, variant, env)? else {
            return Ok(false);
        };
        self.exec_in_place(body, env, mark, assigned)?;
        if self.eval_int(variant, env)? >= v0 {
            return Err(wd_error(variant.span, "WHILE variant did not decrease"));
        }
        Ok(true)
    }

    /// The update made by `target := v` (`f(i) := v` overrides f at i, `r'a := v` replaces a field).
    pub(super) fn assign(
        &self,
        target: &AssignTarget,
        v: Value,
        env: &mut Env,
        span: Span,
    ) -> Result<(Name, Value), EvalError> {
        match target {
            AssignTarget::Var(n) => Ok((n.name.clone(), v)),
            AssignTarget::Apply(inner, index) => {
                let f = self.target_value(inner, env, span)?;
                let i = self.eval_value(index, env)?;
                let pairs = f
                    .as_set()
                    .ok_or_else(|| internal_error(span, "f(x) := E on a non-function"))?;
                let updated = super::relations::overwrite(pairs, &[Value::pair(i, v)], span)?;
                self.assign(inner, Value::set_from_sorted(updated), env, span)
            }
            AssignTarget::Field(inner, field) => {
                let r = self.target_value(inner, env, span)?;
                let Value::Record(fields) = r else {
                    return Err(internal_error(span, "r'a := E on a non-record"));
                };
                let mut fields = (*fields).clone();
                match fields.iter_mut().find(|(n, _)| n == field) {
                    Some(slot) => slot.1 = v,
                    None => return Err(internal_error(span, format!("no field {field}"))),
                }
                self.assign(inner, Value::Record(Arc::new(fields)), env, span)
            }
        }
    }

    /// The current value of an assignment target.
    fn target_value(
        &self,
        target: &AssignTarget,
        env: &mut Env,
        span: Span,
    ) -> Result<Value, EvalError> {
        match target {
            AssignTarget::Var(n) => match env.get(&n.name).cloned() {
                Some(v) if let Some(error) = super::unassigned::read_error(&v, span, &n.name) => {
                    Err(error)
                }
                Some(v) => self.to_value(v, span),
                None => Err(internal_error(span, format!("{} has no value", n.name))),
            },
            AssignTarget::Apply(inner, index) => {
                let f = self.target_value(inner, env, span)?;
                let i = self.eval_value(index, env)?;
                let mut image = self.point_image(&super::Val::Value(f), &i, span)?;
                match image.len() {
                    1 => Ok(image.pop().expect("one element")),
                    _ => Err(wd_error(
                        span,
                        format!("function applied outside its domain (to {i})"),
                    )),
                }
            }
            AssignTarget::Field(inner, field) => match self.target_value(inner, env, span)? {
                Value::Record(fields) => fields
                    .iter()
                    .find(|(n, _)| n == field)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| internal_error(span, format!("no field {field}"))),
                _ => Err(internal_error(span, "field of a non-record")),
            },
        }
    }
}
