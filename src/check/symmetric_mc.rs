//! `mc --symmetry`: the model checker over orbits (`check::symmetry`), with its counterexamples replayed
//! by the interpreter on the states the search actually reached.
//!
//! Each node of the reduced search keeps the state first reached in its orbit, and its parent edge is a
//! transition the interpreter computed from the parent's kept state: a trace is a run of the machine,
//! never a sequence of canonical forms. It is replayed all the same (INITIALISATION re-executed, each
//! operation re-executed with the trace's parameters, the error re-established in the last state), and
//! should that ever fail — the machine would tell deferred-set elements apart in a way the symmetry
//! analysis missed — the run is repeated without reduction and the output says why. So is a run that
//! met an ill-defined operation instance or a domain enumerated in part (`order_free`).

use super::Model;
use super::cbc::violated_conjuncts;
use super::explicit_search::replay;
use super::mc::{McOptions, McResult, SymmetryStats, Verdict, model_check as explore};
use crate::diag::Diagnostic;
use crate::eval::State;
use crate::value::Value;

/// Runs the model checker with `options.symmetry` (or without, as `mc::model_check`), confirming a
/// reduced run's trace.
pub fn model_check(model: &Model, options: &McOptions) -> Result<McResult, Diagnostic> {
    let result = explore(model, options)?;
    let reduced = (result.symmetry.as_ref()).is_some_and(|s| s.not_applied.is_none());
    if !reduced {
        return Ok(result);
    }
    let Err(why) = order_free(&result).and_then(|()| confirm(model, &result)) else {
        return Ok(result);
    };
    let plain = McOptions {
        symmetry: None,
        ..options.clone()
    };
    let mut result = explore(model, &plain)?;
    result.symmetry = options.symmetry.map(|mode| SymmetryStats {
        mode,
        not_applied: Some(format!("abandoned: {why}")),
        sets: vec![],
        full_states: Some(result.states as u128),
        full_transitions: Some(result.transitions as u128),
        inexact_states: 0,
        abandoned: Some(why),
    });
    Ok(result)
}

/// Whether the reduced run met nothing known to break the symmetry of the interpreter's successors:
/// * an ill-defined operation instance, invariant or assertion: B/Daniel/stellwerk/switcher.mch with its
///   sections left free (its `start_route` leaves an output unassigned on failure) reached 4 orbits of
///   10 under reduction, all 10 once the output was assigned — the interpreter's handling of such
///   instances is not closed under permutations, for a reason not yet found;
/// * a domain enumerated in part: MAX_OPERATIONS keeps the first enablings in element order, and
///   MAX_INITIALISATIONS the first setups and initial states.
fn order_free(result: &McResult) -> Result<(), String> {
    if result.ill_defined_operations > 0 || matches!(result.verdict, Verdict::WellDefinedness(_)) {
        return Err(
            "an operation instance, invariant or assertion was ill-defined, and the successors \
             of such states are not known to be closed under permutations"
                .into(),
        );
    }
    if result.initialisations_cut {
        return Err(
            "there are more constant setups or initial states than MAX_INITIALISATIONS, and which \
             are kept may depend on the order of the elements"
                .into(),
        );
    }
    if result.partial_enumeration {
        return Err(
            "some parameters or constants were enumerated only in part, and which values are \
             kept may depend on the order of the elements"
                .into(),
        );
    }
    Ok(())
}

/// Replays the trace and re-establishes its error in the last state.
fn confirm(model: &Model, result: &McResult) -> Result<(), String> {
    if !result.trace.iter().any(|s| s.label == "INITIALISATION") {
        // The error is in a constant setup or the root: no state, nothing the reduction touched.
        return Ok(());
    }
    let (_, constants, last) =
        replay(model, &result.trace).ok_or("the reduced run's trace did not replay")?;
    let confirmed = match &result.verdict {
        Verdict::InvariantViolation(_) => {
            matches!(violated_conjuncts(model, &constants, &last), Ok(v) if !v.is_empty())
        }
        Verdict::Deadlock => deadlocked(model, &constants, &last),
        Verdict::AssertionViolation(span) => assertion_false(model, &constants, &last, *span),
        _ => true,
    };
    if confirmed {
        Ok(())
    } else {
        Err("the error of the reduced run's trace was not found again in its replay".into())
    }
}

fn deadlocked(model: &Model, constants: &[Value], state: &[Value]) -> bool {
    let max_ops = model.context.settings().max_operations;
    let state = State {
        values: state.to_vec(),
    };
    matches!(
        model.context.successors_tolerant(constants, &state, max_ops),
        Ok(s) if s.transitions.is_empty() && s.complete
    )
}

fn assertion_false(
    model: &Model,
    constants: &[Value],
    state: &[Value],
    span: crate::diag::Span,
) -> bool {
    let Some(assertion) = model.machine().assertions.iter().find(|a| a.span == span) else {
        return false;
    };
    let state = State {
        values: state.to_vec(),
    };
    let Ok(env) = model.context.state_env(constants, &state) else {
        return false;
    };
    matches!(model.context.eval_pred(assertion, &env), Ok(false))
}
