//! The states a counterexample trace passes through, each with every variable: a `Step` lists only the
//! variables its operation changed, while TLC's traces and ITF files show whole states. The constant
//! setup is no state (TLC has none; ITF's states hold variables).

use crate::check::mc::Step;
use crate::check::setup::Assignment;
use crate::ir::Machine;
use crate::syntax::ast::Name;
use crate::value::Value;
use rustc_hash::FxHashMap;

/// The label of the step into the initial state.
pub const INITIALISATION: &str = "INITIALISATION";
const SETUP_CONSTANTS: &str = "SETUP_CONSTANTS";

/// One state of a trace and the step that reached it.
pub struct TraceState<'t> {
    /// `INITIALISATION` or the operation's name.
    pub label: &'t str,
    pub params: &'t Assignment,
    /// Every variable assigned so far, in the machine's order.
    pub values: Assignment,
}

/// The states of `trace`, from the initial one.
pub fn trace_states<'t>(m: &Machine, trace: &'t [Step]) -> Vec<TraceState<'t>> {
    let mut current: FxHashMap<&Name, &Value> = FxHashMap::default();
    let mut states = Vec::new();
    for step in trace.iter().filter(|s| s.label != SETUP_CONSTANTS) {
        for (name, value) in &step.changed {
            current.insert(name, value);
        }
        let values = m
            .variables
            .iter()
            .filter_map(|v| current.get(&v.name).map(|&x| (v.name.clone(), x.clone())))
            .collect();
        states.push(TraceState {
            label: &step.label,
            params: &step.params,
            values,
        });
    }
    states
}
