//! A counterexample from the breadth-first layers: from the state found in layer d, a predecessor in
//! layer d - 1 by some learned transition, and so on down to an initial state (every state new in
//! layer i has one in layer i - 1, since layer i holds the states first reached in i steps). The trace
//! is then replayed by the interpreter on whole states (`replays`) before it is printed.

use super::learn::Group;
use crate::check::Model;
use crate::eval::{EvalError, State};
use crate::ldd::{Ldd, Table};
use crate::value::Value;

/// One step back: the operation, its label in that operation's group, the state before.
pub struct Back {
    pub operation: usize,
    pub label: u32,
    pub source: Vec<u32>,
}

/// The steps from a state of `layers[0]` to `target` (in `layers.last()`), first step first; None when
/// some state has no predecessor in the layer before (which would make the layers wrong).
pub fn path_to(
    table: &Table,
    layers: &[Ldd],
    groups: &[Group],
    target: Vec<u32>,
) -> Option<(Vec<u32>, Vec<Back>)> {
    let mut steps = Vec::new();
    let mut current = target;
    for &before in layers[..layers.len().saturating_sub(1)].iter().rev() {
        let back = (groups.iter().enumerate()).find_map(|(k, g)| {
            (g.predecessors(&current).into_iter())
                .find(|(_, source)| table.contains(before, source))
                .map(|(label, source)| Back {
                    operation: k,
                    label,
                    source,
                })
        })?;
        let next = back.source.clone();
        steps.push(back);
        current = next;
    }
    steps.reverse();
    Some((current, steps))
}

/// One step of a trace in values: operation `k` with its parameters and outputs leads to `after`.
pub struct Replayed<'t> {
    pub operation: usize,
    pub params: &'t [Value],
    pub outputs: &'t [Value],
    pub after: Vec<Value>,
}

/// Whether the interpreter confirms the trace: `initial` is an initial state of the setup
/// `constants`, and each step is a transition (same parameters, outputs and target) of its operation
/// from the state before. Asked of the whole machine, not of projections: the relations' reuse is
/// what this checks.
pub fn replays(
    model: &Model,
    constants: &[Value],
    initial: &[Value],
    steps: &[Replayed],
) -> Result<bool, EvalError> {
    let ctx = &model.context;
    let settings = ctx.settings();
    let initial_states = ctx.initial_states(constants, settings.max_initialisations)?;
    if !initial_states.iter().any(|s| s.values == initial) {
        return Ok(false);
    }
    let mut state = State {
        values: initial.to_vec(),
    };
    for step in steps {
        let mut env = ctx.state_env(constants, &state)?;
        let found =
            ctx.operation_successors(step.operation, &mut env, &state, settings.max_operations)?;
        let taken = found.transitions.iter().any(|t| {
            t.params == step.params && t.outputs == step.outputs && t.target.values == step.after
        });
        if !taken {
            return Ok(false);
        }
        state = State {
            values: step.after.clone(),
        };
    }
    Ok(true)
}
