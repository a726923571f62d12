//! Loop bodies executed in place. A WHILE body made of straight-line code (assignments, `;`, `||`
//! of assignments, IF and CASE) has exactly one outcome per step, so the loop can update its own
//! bindings of the variables it assigns instead of building updates and binding them again each step.
//! Then `f(i) := E`, `s := s \/ {e}` and `s := s - {e}` change the set itself when the loop holds
//! the only reference to it (`Arc::make_mut`): building an array of n elements in a loop costs
//! O(n log n) element moves, not the O(n^2) copies of a new set per step.
//!
//! The semantics are those of `exec`: a simultaneous assignment (and each `||` group) evaluates all
//! its right-hand sides and indices before it writes anything; `;` writes before the next part reads.

use super::subst::Updates;
use super::{Context, Env, EvalError, Val, internal_error};
use crate::diag::Span;
use crate::ir::{AssignTarget, BinaryOp, Expr, ExprKind, Subst, SubstKind};
use crate::syntax::ast::Name;
use crate::value::Value;
use std::sync::Arc;

/// Whether `body` runs in place: one outcome by construction, every write to a whole variable.
pub(super) fn straight_line(body: &Subst) -> bool {
    match &body.kind {
        SubstKind::Sequence(parts) => parts.iter().all(straight_line),
        SubstKind::If(branches, otherwise) => {
            branches.iter().all(|(_, b)| straight_line(b))
                && otherwise.as_deref().is_none_or(straight_line)
        }
        SubstKind::Case(_, branches, otherwise) => {
            branches.iter().all(|(_, b)| straight_line(b))
                && otherwise.as_deref().is_none_or(straight_line)
        }
        _ => simultaneous(body).is_some(),
    }
}

/// The variables a simultaneous group assigns (skip, assignments, `||`, and IF/CASE over such
/// groups), each once; None when `s` is not such a group or assigns a variable twice (the general
/// path reports what that means).
fn simultaneous(s: &Subst) -> Option<Vec<Name>> {
    let mut names = Vec::new();
    collect_simultaneous(s, &mut names)?;
    let count = names.len();
    names.sort();
    names.dedup();
    (names.len() == count).then_some(names)
}

fn collect_simultaneous(s: &Subst, names: &mut Vec<Name>) -> Option<()> {
    match &s.kind {
        SubstKind::Skip => Some(()),
        SubstKind::Assign(assignments) => {
            names.extend(assignments.iter().map(|(t, _)| root(t).clone()));
            Some(())
        }
        SubstKind::Parallel(parts) => parts
            .iter()
            .try_for_each(|p| collect_simultaneous(p, names)),
        // Branches are alternatives: each may assign what another does.
        SubstKind::If(branches, otherwise) => {
            let bodies = branches.iter().map(|(_, b)| b);
            names.extend(alternatives(bodies.chain(otherwise.as_deref()))?);
            Some(())
        }
        SubstKind::Case(_, branches, otherwise) => {
            let bodies = branches.iter().map(|(_, b)| b);
            names.extend(alternatives(bodies.chain(otherwise.as_deref()))?);
            Some(())
        }
        _ => None,
    }
}

/// The variables some branch of a choice of simultaneous groups assigns, each once.
fn alternatives<'s>(branches: impl Iterator<Item = &'s Subst>) -> Option<Vec<Name>> {
    let mut all = Vec::new();
    for b in branches {
        all.extend(simultaneous(b)?);
    }
    all.sort();
    all.dedup();
    Some(all)
}

fn root(target: &AssignTarget) -> &Name {
    match target {
        AssignTarget::Var(n) => &n.name,
        AssignTarget::Apply(inner, _) | AssignTarget::Field(inner, _) => root(inner),
    }
}

/// One write of a simultaneous group, its values computed before any write.
enum Write {
    /// The variable's new value.
    Whole(Name, Value),
    /// `f(i) := v` on a listed function.
    Point(Name, Value, Value),
    /// `s := s \/ {e}` on a listed set.
    Insert(Name, Value),
    /// `s := s - {e}` on a listed set.
    Remove(Name, Value),
}

/// A right-hand side of a simultaneous assignment: its value, or already the write it makes.
enum Planned {
    Value(Value),
    Done(Write),
}

impl Context {
    /// Runs one step of a `straight_line` body, writing into the bindings above `mark` (a variable's
    /// first write binds a copy there, so that truncating to `mark` restores the state before the
    /// loop). `assigned` collects the names written.
    pub(super) fn exec_in_place(
        &self,
        body: &Subst,
        env: &mut Env,
        mark: usize,
        assigned: &mut Vec<Name>,
    ) -> Result<(), EvalError> {
        match &body.kind {
            SubstKind::Sequence(parts) => {
                for p in parts {
                    self.exec_in_place(p, env, mark, assigned)?;
                }
                Ok(())
            }
            SubstKind::If(branches, otherwise) => {
                for (c, b) in branches {
                    if self.eval_pred_in(c, env)? {
                        return self.exec_in_place(b, env, mark, assigned);
                    }
                }
                match otherwise {
                    Some(b) => self.exec_in_place(b, env, mark, assigned),
                    None => Ok(()),
                }
            }
            SubstKind::Case(e, branches, otherwise) => {
                let v = self.eval_value(e, env)?;
                for (labels, b) in branches {
                    for l in labels {
                        if self.eval_value(l, env)? == v {
                            return self.exec_in_place(b, env, mark, assigned);
                        }
                    }
                }
                match otherwise {
                    Some(b) => self.exec_in_place(b, env, mark, assigned),
                    None => Ok(()),
                }
            }
            _ => {
                let mut writes = Vec::new();
                self.plan(body, env, &mut writes)?;
                for w in writes {
                    self.write(w, env, mark, assigned, body.span)?;
                }
                Ok(())
            }
        }
    }

    /// The current values of `assigned`, as updates.
    pub(super) fn written(
        &self,
        env: &Env,
        assigned: &[Name],
        span: Span,
    ) -> Result<Updates, EvalError> {
        assigned
            .iter()
            .map(|n| {
                let v = env
                    .get(n)
                    .cloned()
                    .ok_or_else(|| internal_error(span, format!("{n} has no value")))?;
                // A held set is bound as the set it stands for: held again, it is the same element.
                Ok((n.clone(), self.hold(v, span)?))
            })
            .collect()
    }

    /// The writes of a simultaneous group, read from `env` before any of them is made.
    fn plan(&self, s: &Subst, env: &mut Env, writes: &mut Vec<Write>) -> Result<(), EvalError> {
        match &s.kind {
            SubstKind::Skip => Ok(()),
            SubstKind::Parallel(parts) => parts.iter().try_for_each(|p| self.plan(p, env, writes)),
            SubstKind::If(branches, otherwise) => {
                for (c, b) in branches {
                    if self.eval_pred_in(c, env)? {
                        return self.plan(b, env, writes);
                    }
                }
                otherwise
                    .as_deref()
                    .map_or(Ok(()), |b| self.plan(b, env, writes))
            }
            SubstKind::Case(e, branches, otherwise) => {
                let v = self.eval_value(e, env)?;
                for (labels, b) in branches {
                    for l in labels {
                        if self.eval_value(l, env)? == v {
                            return self.plan(b, env, writes);
                        }
                    }
                }
                otherwise
                    .as_deref()
                    .map_or(Ok(()), |b| self.plan(b, env, writes))
            }
            SubstKind::Assign(assignments) => {
                // As `exec`: every right-hand side first, then the targets' indices.
                let mut values = Vec::with_capacity(assignments.len());
                for (target, e) in assignments {
                    values.push(match target {
                        AssignTarget::Var(n) => match self.element_change(&n.name, e, env)? {
                            Some(write) => Planned::Done(write),
                            None => Planned::Value(self.hold(self.eval(e, env)?, e.span)?),
                        },
                        _ => Planned::Value(self.to_value(self.eval(e, env)?, e.span)?),
                    });
                }
                for ((target, _), v) in assignments.iter().zip(values) {
                    let v = match v {
                        Planned::Value(v) => v,
                        Planned::Done(write) => {
                            writes.push(write);
                            continue;
                        }
                    };
                    writes.push(match target {
                        AssignTarget::Apply(inner, index)
                            if let AssignTarget::Var(n) = &**inner
                                && listed(env, &n.name) =>
                        {
                            Write::Point(n.name.clone(), self.eval_value(index, env)?, v)
                        }
                        _ => {
                            let (name, value) = self.assign(target, v, env, s.span)?;
                            Write::Whole(name, value)
                        }
                    });
                }
                Ok(())
            }
            _ => Err(internal_error(s.span, "not a simultaneous substitution")),
        }
    }

    /// `s \/ {e}` or `s - {e}` assigned to the listed set `s` itself: the element's change.
    fn element_change(
        &self,
        name: &Name,
        e: &Expr,
        env: &mut Env,
    ) -> Result<Option<Write>, EvalError> {
        let ExprKind::Binary(op @ (BinaryOp::Union | BinaryOp::SetMinus), a, b) = &e.kind else {
            return Ok(None);
        };
        let (ExprKind::Var(x), ExprKind::SetEnum(items)) = (&a.kind, &b.kind) else {
            return Ok(None);
        };
        let [item] = &items[..] else {
            return Ok(None);
        };
        if x != name || !listed(env, name) {
            return Ok(None);
        }
        let element = self.eval_value(item, env)?;
        Ok(Some(match op {
            BinaryOp::Union => Write::Insert(name.clone(), element),
            _ => Write::Remove(name.clone(), element),
        }))
    }

    fn write(
        &self,
        w: Write,
        env: &mut Env,
        mark: usize,
        assigned: &mut Vec<Name>,
        span: Span,
    ) -> Result<(), EvalError> {
        let name = match &w {
            Write::Whole(n, _)
            | Write::Point(n, _, _)
            | Write::Insert(n, _)
            | Write::Remove(n, _) => n.clone(),
        };
        if !assigned.contains(&name) {
            assigned.push(name.clone());
        }
        let slot = env
            .binding_above(mark, &name)
            .ok_or_else(|| internal_error(span, format!("{name} has no value")))?;
        if let Write::Whole(_, v) = w {
            *slot = self.held_val(v);
            return Ok(());
        }
        let Val::Value(Value::Set(items)) = slot else {
            return Err(internal_error(span, format!("{name} is not a listed set")));
        };
        let items = Arc::make_mut(items);
        match w {
            Write::Point(_, i, v) => override_point(items, i, v),
            Write::Insert(_, x) => {
                if let Err(at) = items.binary_search(&x) {
                    items.insert(at, x);
                }
            }
            Write::Remove(_, x) => {
                if let Ok(at) = items.binary_search(&x) {
                    items.remove(at);
                }
            }
            Write::Whole(..) => unreachable!("handled above"),
        }
        Ok(())
    }
}

/// Whether `name` is bound to a listed set (not a symbolic one, not an unassigned placeholder).
fn listed(env: &Env, name: &str) -> bool {
    matches!(env.get(name), Some(Val::Value(Value::Set(_))))
}

/// `f <+ {i |-> v}` in place on the sorted pairs of `f`: the pairs with first component `i` are
/// one run in the order, replaced by the new pair.
fn override_point(pairs: &mut Vec<Value>, i: Value, v: Value) {
    let first = |p: &Value| p.as_pair().map(|(a, _)| a.clone());
    let lo = pairs.partition_point(|p| first(p).is_some_and(|a| a < i));
    let hi = lo + pairs[lo..].partition_point(|p| first(p).is_some_and(|a| a == i));
    let pair = Value::pair(i, v);
    if hi == lo + 1 {
        pairs[lo] = pair;
    } else {
        pairs.splice(lo..hi, [pair]);
    }
}

#[cfg(test)]
mod tests {
    use super::override_point;
    use crate::value::Value;

    fn function(pairs: &[(i64, i64)]) -> Vec<Value> {
        let mut v: Vec<Value> = pairs
            .iter()
            .map(|&(a, b)| Value::pair(Value::int(a), Value::int(b)))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn overriding_a_point_in_place_agrees_with_the_override_operator() {
        // Every relation over {0,1,2} x {0,1} overridden at every point with every value, against
        // `relations::overwrite` (the operator `<+` the general path uses).
        let all: Vec<(i64, i64)> = (0..3).flat_map(|a| (0..2).map(move |b| (a, b))).collect();
        for mask in 0u32..(1 << all.len()) {
            let pairs: Vec<_> = (0..all.len())
                .filter(|k| mask & (1 << k) != 0)
                .map(|k| all[k])
                .collect();
            for i in -1..4 {
                for v in 0..2 {
                    let f = function(&pairs);
                    let expected = crate::eval::relations::overwrite(
                        &f,
                        &function(&[(i, v)]),
                        crate::diag::Span::default(),
                    )
                    .expect("overwrite");
                    let mut got = f.clone();
                    override_point(&mut got, Value::int(i), Value::int(v));
                    assert_eq!(got, expected, "{pairs:?} <+ {{{i}|->{v}}}");
                }
            }
        }
    }
}
