//! Invariant conjuncts and assertions over the symbolic layers: each is evaluated by the interpreter
//! once per projection of the new states on the variables it reads (and the setup slot), and the states
//! where it is false or ill-defined are selected by relational products with those projections. A state
//! is judged by its first check (invariant conjuncts in order, then assertions) that is not true, as the
//! explicit search judges it (`check::mc::Explorer::check_state`).

use super::learn::Oracle;
use super::vectors::{SETUP_SLOT, variable_slot};
use super::{Halt, Search};
use crate::check::mc::Verdict;
use crate::diag::Diagnostic;
use crate::eval::{EvalError, State};
use crate::ir::{Machine, Pred};
use crate::ldd::{EMPTY, Ldd, Meta, MetaId, Table};
use crate::value::Value;
use rustc_hash::FxHashMap;

/// An invariant conjunct or assertion, checked once per projection on the slots it reads.
pub(super) struct Check<'m> {
    pub(super) pred: &'m Pred,
    pub(super) assertion: bool,
    pub(super) meta: MetaId,
    /// The slots read: the setup slot and the variables of the predicate.
    pub(super) key: Vec<u32>,
    /// Projections evaluated.
    seen: Ldd,
    /// Projections where it is false, each followed by label 0 (a selecting relation).
    false_at: Ldd,
    /// Projections where it is ill-defined, likewise, and the diagnostics there.
    ill_defined_at: Ldd,
    pub(super) diagnostics: FxHashMap<Vec<u32>, Diagnostic>,
}

impl<'m> Check<'m> {
    /// The check of `pred` (an assertion or an invariant conjunct), over the slots it reads.
    pub(super) fn new(
        table: &mut Table,
        machine: &Machine,
        pred: &'m Pred,
        assertion: bool,
    ) -> Check<'m> {
        let names = crate::ir::free_names::of_pred(pred);
        let mut key = vec![SETUP_SLOT];
        key.extend(
            (machine.variables.iter().enumerate())
                .filter(|(_, v)| names.contains(&v.name))
                .map(|(i, _)| variable_slot(i)),
        );
        let meta = table.meta(Meta {
            slots: key.clone(),
            written: vec![false; key.len()],
        });
        Check {
            pred,
            assertion,
            meta,
            key,
            seen: EMPTY,
            false_at: EMPTY,
            ill_defined_at: EMPTY,
            diagnostics: FxHashMap::default(),
        }
    }
}

impl<'m> Search<'m> {
    /// Evaluates every check on the projections of `frontier` not evaluated before; the states of
    /// `frontier` where a check is false and the states where one is ill-defined, each state judged by
    /// its first check (in order) that is not true, as the explicit search judges it.
    pub(super) fn check_level(
        &mut self,
        frontier: Ldd,
        filler: &[Value],
        go_on: &dyn Fn() -> Result<(), Halt>,
    ) -> Result<(Ldd, Ldd), Halt> {
        let ctx = &self.model.context;
        for check in &mut self.checks {
            let projected = self.table.project(frontier, check.meta)?;
            let new = self.table.minus(projected, check.seen)?;
            check.seen = self.table.union(check.seen, new)?;
            let (mut false_at, mut ill_defined_at) = (Vec::new(), Vec::new());
            for projection in self.table.tuples(new) {
                go_on()?;
                let (state, constants) = Oracle {
                    context: ctx,
                    machine: self.model.machine(),
                    setups: &self.setups,
                    filler,
                    max_per_op: 0,
                }
                .state(&self.interner, &check.key, &projection);
                let env = (ctx.state_env(constants, &state))
                    .map_err(|e| Halt(format!("checking a state: {e}")))?;
                self.stats.check_calls += 1;
                let mut selector = projection.clone();
                selector.push(0);
                match ctx.eval_pred(check.pred, &env) {
                    Ok(true) => {}
                    Ok(false) => false_at.push(selector),
                    Err(EvalError::WellDefinedness(d)) => {
                        ill_defined_at.push(selector);
                        check.diagnostics.insert(projection, d);
                    }
                    Err(e) => {
                        return Err(Halt(format!(
                            "the {} at {} is not decided in a reachable state ({e})",
                            if check.assertion {
                                "assertion"
                            } else {
                                "invariant conjunct"
                            },
                            check.pred.span
                        )));
                    }
                }
            }
            for (into, tuples) in [
                (&mut check.false_at, false_at),
                (&mut check.ill_defined_at, ill_defined_at),
            ] {
                let found = self.table.from_tuples(tuples.iter().map(Vec::as_slice))?;
                *into = self.table.union(*into, found)?;
            }
        }
        let (mut violating, mut ill_defined, mut undecided) = (EMPTY, EMPTY, frontier);
        for check in &self.checks {
            let bad = self.table.rel_prod(undecided, check.false_at, check.meta)?;
            let wd = self
                .table
                .rel_prod(undecided, check.ill_defined_at, check.meta)?;
            violating = self.table.union(violating, bad)?;
            ill_defined = self.table.union(ill_defined, wd)?;
            undecided = self.table.minus(undecided, bad)?;
            undecided = self.table.minus(undecided, wd)?;
        }
        Ok((violating, ill_defined))
    }

    /// The verdict of a violating state: its first false check, in the explicit checker's order
    /// (invariant conjuncts, then assertions).
    pub(super) fn violation_in(&self, vector: &[u32]) -> Verdict {
        let (constants, state) = self.state_of(vector);
        let ctx = &self.model.context;
        let env = ctx.state_env(constants, &state).ok();
        // The state's first check that is not true is false (`check_level`).
        let first_false = self.checks.iter().find(|c| {
            env.as_ref()
                .is_some_and(|env| !matches!(ctx.eval_pred(c.pred, env), Ok(true)))
        });
        match first_false {
            Some(c) if c.assertion => Verdict::AssertionViolation(c.pred.span),
            Some(c) => Verdict::InvariantViolation(c.pred.span),
            None => Verdict::InvariantViolation(self.model.machine().invariant.span),
        }
    }

    pub(super) fn state_of(&self, vector: &[u32]) -> (&[Value], State) {
        let constants = &self.setups[vector[SETUP_SLOT as usize] as usize];
        let values = self.interner.values(vector);
        (constants, State { values })
    }
}
