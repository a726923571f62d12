//! A counterexample from the breadth-first layers: from the state found in layer d, a predecessor in
//! layer d - 1 by some learned transition, and so on down to an initial state (every state new in
//! layer i has one in layer i - 1, since layer i holds the states first reached in i steps). The trace
//! is then replayed by the interpreter on whole states (`replays`) before it is printed.
//!
//! Chaining and saturation add states several steps away in one round, so their rounds are not such
//! layers: the layers are rebuilt by a breadth-first search from the initial states over the
//! transitions learned (`bfs_layers`), which reach the error state since the search reached it by
//! them. The trace is then a shortest one among the transitions learned: a shortest counterexample
//! when every reachable state was expanded, not necessarily one at a first error.

use super::learn::Group;
use super::vectors::SETUP_SLOT;
use super::{Found, Search};
use crate::check::Model;
use crate::check::mc::Step;
use crate::check::mc::SymbolicStrategy;
use crate::check::setup::constant_names;
use crate::diag::{Diagnostic, Span};
use crate::eval::{EvalError, State};
use crate::ldd::{EMPTY, Ldd, NodeLimit, Table};
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

impl<'m> Search<'m> {
    /// Breadth-first layers from the initial states over the transitions learned, up to the first
    /// that `stop` accepts (the last layer is that one, unless no learned path leads to one).
    pub(super) fn bfs_layers(
        &mut self,
        mut stop: impl FnMut(&mut Table, Ldd) -> Result<bool, NodeLimit>,
    ) -> Result<Vec<Ldd>, NodeLimit> {
        let mut layers = vec![self.layers[0]];
        let mut seen = self.layers[0];
        loop {
            let last = *layers.last().expect("the initial layer");
            if stop(&mut self.table, last)? {
                return Ok(layers);
            }
            let mut next = EMPTY;
            for g in &self.groups {
                let image = self.table.rel_prod(last, g.relation, g.meta)?;
                next = self.table.union(next, image)?;
            }
            next = self.table.minus(next, seen)?;
            if next == EMPTY {
                return Ok(layers);
            }
            seen = self.table.union(seen, next)?;
            layers.push(next);
        }
    }

    /// The replayed trace to what `found` ends at (empty when nothing), or why there is none: the time
    /// budget ran out before the replay could confirm it, or the node limit before the layers were
    /// rebuilt.
    pub(super) fn trace(&mut self, found: &Found) -> Result<Result<Vec<Step>, String>, Diagnostic> {
        let layers = match (&found.at, self.options.strategy) {
            (Some((_, level)), SymbolicStrategy::BreadthFirst) => self.layers[..=*level].to_vec(),
            (Some((target, _)), SymbolicStrategy::Chaining | SymbolicStrategy::Saturation) => {
                match self.bfs_layers(|table, layer| Ok(table.contains(layer, target))) {
                    Ok(layers) => layers,
                    Err(limit) => {
                        return Ok(Err(format!(
                            "the {limit} (--max-nodes) before its trace was found"
                        )));
                    }
                }
            }
            (None, _) => Vec::new(),
        };
        let machine = self.model.machine();
        let setup_step = |setup: u32| Step {
            label: "SETUP_CONSTANTS".into(),
            params: vec![],
            outputs: vec![],
            changed: (constant_names(self.model).into_iter())
                .zip(self.setups[setup as usize].iter().cloned())
                .collect(),
        };
        if let Some(setup) = found.at_setup {
            return Ok(Ok(vec![setup_step(setup)]));
        }
        let Some((target, _)) = &found.at else {
            return Ok(Ok(vec![]));
        };
        let not_replayed = |why: &str| {
            Diagnostic::new(
                crate::diag::DiagKind::Internal,
                Span::default(),
                format!("the symbolic search's counterexample {why}"),
            )
        };
        let (initial, backs) = path_to(&self.table, &layers, &self.groups, target.clone())
            .ok_or_else(|| not_replayed("has no path back through the layers"))?;
        let mut steps = Vec::new();
        if self.has_setup_nodes {
            steps.push(setup_step(initial[SETUP_SLOT as usize]));
        }
        let named = |names: &[crate::ir::TypedName], values: &[Value]| -> Vec<_> {
            (names.iter().map(|p| p.name.clone()))
                .zip(values.iter().cloned())
                .collect()
        };
        let initial_values = self.interner.values(&initial);
        steps.push(Step {
            label: "INITIALISATION".into(),
            params: vec![],
            outputs: vec![],
            changed: named(&machine.variables, &initial_values),
        });
        for (i, back) in backs.iter().enumerate() {
            let after = backs.get(i + 1).map_or(target, |b| &b.source);
            let op = &machine.operations[back.operation];
            let (params, outputs, _) = self.groups[back.operation].signature(back.label);
            let changed = (machine.variables.iter().enumerate())
                .filter(|(i, _)| after[i + 1] != back.source[i + 1])
                .map(|(i, v)| (v.name.clone(), self.interner.value(i, after[i + 1]).clone()))
                .collect();
            steps.push(Step {
                label: op.name.to_string(),
                params: named(&op.params, params),
                outputs: named(&op.outputs, outputs),
                changed,
            });
        }
        let constants = &self.setups[initial[SETUP_SLOT as usize] as usize];
        let replayed: Vec<Replayed> = (backs.iter().enumerate())
            .map(|(i, back)| {
                let (params, outputs, _) = self.groups[back.operation].signature(back.label);
                let after = backs.get(i + 1).map_or(target, |b| &b.source);
                Replayed {
                    operation: back.operation,
                    params,
                    outputs,
                    after: self.interner.values(after),
                }
            })
            .collect();
        match replays(self.model, constants, &initial_values, &replayed) {
            Ok(true) => Ok(Ok(steps)),
            // The search spent the budget: the error stands unconfirmed, which is no answer.
            Err(e) if e.is_timeout() => Ok(Err(
                "the time budget ran out before the interpreter could replay its trace".into(),
            )),
            Ok(false) => Err(not_replayed("does not replay")),
            Err(e) => Err(not_replayed(&format!("does not replay ({e})"))),
        }
    }
}
