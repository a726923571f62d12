//! The parts of a machine's transition system as predicates over two state copies, the form the SAT
//! encoding of the one-step relation (`solve::kodkod::TransitionSat`) takes: shared by IC3 over bits
//! (`ic3_sat`) and bounded model checking over bits (`bmc_bits`).

use super::Model;
use super::bmc::{any_of, operations};
use super::cbc::{constant_vars, properties};
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
    /// From copy 0 of the variables to copy 1; an error when a substitution has no before-after
    /// predicate.
    pub(super) fn of(model: &Model) -> Result<Transition, Diagnostic> {
        let m = model.machine();
        let ops = operations(m, 0, 1)?;
        let (step, selector) = any_of(m, 0, 1, &ops);
        Ok(Transition {
            constants: constant_vars(m),
            x0: state_copy(m, 0),
            x1: state_copy(m, 1),
            step,
            selector,
            properties: properties(m),
            init0: before_after::initialisation(m, 0)?,
            inv0: pred_in_copy(m, &m.invariant, 0),
            inv1: pred_in_copy(m, &m.invariant, 1),
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
