//! The parts of a machine's transition system as predicates over two state copies, the form the SAT
//! encoding of the one-step relation (`solve::kodkod::TransitionSat`) takes: shared by IC3 over bits
//! (`ic3_sat`) and bounded model checking over bits (`bmc_bits`).

use super::Model;
use super::cbc::{constant_vars, not, properties};
use super::transition_system::{Target, any_of, operations, target_at};
use crate::analysis::before_after::{self, pred_in_copy, state_copy};
use crate::diag::Diagnostic;
use crate::ir::{Pred, TypedName};
use crate::solve::kodkod::{Pieces, TransitionSat};

/// The owned predicates behind a `Pieces`.
pub(super) struct Transition {
    constants: Vec<TypedName>,
    x0: Vec<TypedName>,
    x1: Vec<TypedName>,
    step: Pred,
    selector: TypedName,
    properties: Pred,
    init0: Pred,
    inv0: Pred,
    inv1: Pred,
    bounds: Option<Pred>,
    ops: Vec<(Pred, Vec<TypedName>)>,
}

impl Transition {
    /// From copy 0 of the variables to copy 1, the invariant violated in copy 1 as the bad states;
    /// an error when a substitution has no before-after predicate.
    pub(super) fn of(model: &Model) -> Result<Transition, Diagnostic> {
        Transition::with_target(model, Target::InvariantViolation)
    }

    /// The same with `target` in copy 1 as the bad states. For a deadlock (no operation enabled,
    /// whatever the invariant) `TransitionSat`'s "INVARIANT" literals stand for "some operation is
    /// enabled": the states before the last of a path have a successor, so assuming it there prunes
    /// nothing. The invariant, not assumed, still sizes the integers' bit windows: the encoding is
    /// then a cut, which a search for counterexamples (each one replayed) may use.
    pub(super) fn with_target(model: &Model, target: Target) -> Result<Transition, Diagnostic> {
        let m = model.machine();
        let ops = operations(m, 0, 1)?;
        let (step, selector) = any_of(m, 0, 1, &ops);
        let good = |k| match target {
            Target::InvariantViolation => Ok(pred_in_copy(m, &m.invariant, k)),
            Target::Deadlock => Ok::<_, Diagnostic>(not(target_at(m, target, k)?)),
        };
        let (inv0, inv1) = (good(0)?, good(1)?);
        let bounds = (target == Target::Deadlock).then(|| pred_in_copy(m, &m.invariant, 0));
        Ok(Transition {
            constants: constant_vars(m),
            x0: state_copy(m, 0),
            x1: state_copy(m, 1),
            step,
            selector,
            properties: properties(m),
            init0: before_after::initialisation(m, 0)?,
            inv0,
            inv1,
            bounds,
            ops,
        })
    }

    /// The SAT encoding (see `TransitionSat::new` for `widen` and `template`).
    pub(super) fn translate(
        &self,
        model: &Model,
        widen: u32,
        template: bool,
    ) -> Result<TransitionSat, Diagnostic> {
        let pieces = Pieces {
            constants: &self.constants,
            states: [&self.x0, &self.x1],
            selector: &self.selector,
            properties: &self.properties,
            init0: &self.init0,
            inv0: &self.inv0,
            inv1: &self.inv1,
            bounds: self.bounds.as_ref(),
            step: &self.step,
            ops: &self.ops,
        };
        TransitionSat::new(&model.context, &pieces, widen, template)
    }
}
