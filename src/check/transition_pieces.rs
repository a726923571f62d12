//! The parts of a machine's transition system as predicates over two state copies, the form the SAT
//! encoding of the one-step relation (`solve::kodkod::TransitionSat`) takes: shared by IC3 over bits
//! (`ic3_sat`) and bounded model checking over bits (`bmc_bits`).

use super::Model;
use super::bmc::{Target, any_of, operations, target_at};
use super::cbc::{constant_vars, not, properties};
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
    ops: Vec<(Pred, Vec<TypedName>)>,
}

impl Transition {
    /// From copy 0 of the variables to copy 1, the invariant violated in copy 1 as the bad states;
    /// an error when a substitution has no before-after predicate.
    pub(super) fn of(model: &Model) -> Result<Transition, Diagnostic> {
        Transition::with_target(model, Target::InvariantViolation)
    }

    /// The same with `target` in copy 1 as the bad states: for a deadlock, the invariant holds and
    /// no operation is enabled (`TransitionSat`'s "INVARIANT violated in copy 1" literal is then that).
    pub(super) fn with_target(model: &Model, target: Target) -> Result<Transition, Diagnostic> {
        let m = model.machine();
        let ops = operations(m, 0, 1)?;
        let (step, selector) = any_of(m, 0, 1, &ops);
        let inv1 = match target {
            Target::InvariantViolation => pred_in_copy(m, &m.invariant, 1),
            Target::Deadlock => not(target_at(m, target, 1)?),
        };
        Ok(Transition {
            constants: constant_vars(m),
            x0: state_copy(m, 0),
            x1: state_copy(m, 1),
            step,
            selector,
            properties: properties(m),
            init0: before_after::initialisation(m, 0)?,
            inv0: pred_in_copy(m, &m.invariant, 0),
            inv1,
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
            step: &self.step,
            ops: &self.ops,
        };
        TransitionSat::new(&model.context, &pieces, widen, template)
    }
}
