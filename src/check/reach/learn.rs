//! Transition groups learned from projected next-state calls (Bendisposto et al. §3, LTSmin's PINS):
//! one group per operation, over the slots it reads or writes (`before_after::exact_read_write`) and
//! the setup slot. Each projection of a state on those slots met for the first time is given to the
//! interpreter once, in a state that agrees with it there (the other slots hold any reachable
//! values: the operation does not read them); its transitions become short tuples of the group's
//! relation and are reused for every state with that projection.
//!
//! Invariant: a group's relation holds exactly the transitions the interpreter gives for each
//! projection in `seen`, one label per distinct (parameters, outputs, ANY values), so that related
//! pairs are the explicit model checker's distinct edges.

use super::Halt;
use super::vectors::{Interner, SETUP_SLOT, variable_slot};
use crate::analysis::before_after::ReadWrite;
use crate::diag::Diagnostic;
use crate::eval::{Context, State};
use crate::ir::Machine;
use crate::ldd::{EMPTY, Ldd, Meta, MetaId, Table};
use crate::value::Value;
use rustc_hash::FxHashMap;

/// What labels a transition besides its operation: parameters, outputs, ANY values.
pub type Signature = (Vec<Value>, Vec<Value>, Vec<Value>);

/// One operation's transition group.
pub struct Group {
    /// Slots read (the setup slot and every variable read or written), increasing.
    pub key: Vec<u32>,
    /// Per slot of `key`, whether the operation writes it.
    pub written: Vec<bool>,
    /// The key slots, nothing written: projections, and `enabled` as a relation.
    pub read_meta: MetaId,
    /// The key slots with their writes: `relation`'s meta.
    pub meta: MetaId,
    /// Projections already given to the interpreter (tuples over `key`).
    pub seen: Ldd,
    /// Short tuples (value before, value after where written, per key slot; label) of every
    /// transition learned.
    pub relation: Ldd,
    /// Projections with at least one transition, each followed by label 0 (a relation under
    /// `read_meta` that selects the states where the operation is enabled).
    pub enabled: Ldd,
    /// Projections whose parameters were enumerated only in part (a deterministic cut: MAX_OPERATIONS,
    /// MININT..MAXINT, sample strings), each followed by label 0, as `enabled`.
    pub partial: Ldd,
    /// Ill-defined instances: each projection where some are, followed by their index in
    /// `diagnostics` (a relation under `read_meta`: its pairs with a set are the instances).
    pub ill_defined: Ldd,
    diagnostics: FxHashMap<Vec<u32>, Vec<Diagnostic>>,
    labels: FxHashMap<Signature, u32>,
    signatures: Vec<Signature>,
    /// Per projection, its transitions: (label, the values after of the written key slots).
    outcomes: FxHashMap<Vec<u32>, Vec<(u32, Vec<u32>)>>,
}

/// What the interpreter is asked with: the model's context, its setups, a state whose values fill
/// the slots an operation does not read, and the per-operation enumeration limit.
pub struct Oracle<'m> {
    pub context: &'m Context,
    pub machine: &'m Machine,
    pub setups: &'m [Vec<Value>],
    pub filler: &'m [Value],
    pub max_per_op: usize,
}

impl<'m> Oracle<'m> {
    /// The state that agrees with `projection` (over `key`) and holds the filler elsewhere, and its
    /// setup's constants.
    pub fn state(
        &self,
        interner: &Interner,
        key: &[u32],
        projection: &[u32],
    ) -> (State, &'m [Value]) {
        let mut values = self.filler.to_vec();
        let mut setup = 0;
        for (&slot, &n) in key.iter().zip(projection) {
            if slot == SETUP_SLOT {
                setup = n;
            } else {
                let i = slot as usize - 1;
                values[i] = interner.value(i, n).clone();
            }
        }
        (State { values }, &self.setups[setup as usize])
    }
}

impl Group {
    pub fn new(table: &mut Table, machine: &Machine, rw: &ReadWrite) -> Group {
        let mut key = vec![SETUP_SLOT];
        let mut written = vec![false];
        for (i, v) in machine.variables.iter().enumerate() {
            let writes = rw.writes.contains(&v.name);
            if writes || rw.reads.contains(&v.name) {
                key.push(variable_slot(i));
                written.push(writes);
            }
        }
        let read_meta = table.meta(Meta {
            slots: key.clone(),
            written: vec![false; key.len()],
        });
        let meta = table.meta(Meta {
            slots: key.clone(),
            written: written.clone(),
        });
        Group {
            key,
            written,
            read_meta,
            meta,
            seen: EMPTY,
            relation: EMPTY,
            enabled: EMPTY,
            partial: EMPTY,
            ill_defined: EMPTY,
            diagnostics: FxHashMap::default(),
            labels: FxHashMap::default(),
            signatures: Vec::new(),
            outcomes: FxHashMap::default(),
        }
    }

    /// Learns operation `k`'s transitions from every projection of `frontier` not seen before; the
    /// number of next-state calls made. `go_on` is asked before each call (time and memory limits).
    pub fn learn(
        &mut self,
        k: usize,
        table: &mut Table,
        frontier: Ldd,
        oracle: &Oracle,
        interner: &mut Interner,
        go_on: &dyn Fn() -> Result<(), Halt>,
    ) -> Result<u64, Halt> {
        let projected = table.project(frontier, self.read_meta)?;
        let new = table.minus(projected, self.seen)?;
        self.seen = table.union(self.seen, new)?;
        let op = &oracle.machine.operations[k];
        let mut calls = 0;
        // The level's tuples are built into LDDs once, at the end (`Table::from_tuples`).
        let (mut shorts, mut enabled, mut partial, mut ill_defined) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for projection in table.tuples(new) {
            go_on()?;
            let (state, constants) = oracle.state(interner, &self.key, &projection);
            let ctx = oracle.context;
            let mut env = (ctx.state_env(constants, &state))
                .map_err(|e| Halt(format!("operation {}: {e}", op.name)))?;
            let time_cuts = ctx.time_cuts();
            let found = (ctx.operation_successors(k, &mut env, &state, oracle.max_per_op))
                .map_err(|e| Halt(format!("operation {}: {e}", op.name)))?;
            calls += 1;
            // An ill-defined instance yields no transition and is counted in every state with
            // this projection, as the explicit search counts it in each state.
            for j in 0..found.ill_defined.len() {
                let mut instance = projection.clone();
                instance.push(j as u32);
                ill_defined.push(instance);
            }
            if !found.ill_defined.is_empty() {
                self.diagnostics
                    .insert(projection.clone(), found.ill_defined.clone());
            }
            // An outcome cut by time may differ between states with this projection; one cut by a
            // limit on the values enumerated is the same in all of them (the operation reads nothing
            // else), and is kept as the explicit search keeps it.
            if ctx.time_cuts() != time_cuts {
                return Err(Halt(format!(
                    "a search of operation {}'s parameters was cut for time: its transitions may \
                     differ between states with the same projection",
                    op.name
                )));
            }
            let mut selector = projection.clone();
            selector.push(0);
            if !found.complete {
                partial.push(selector.clone());
            }
            if !found.transitions.is_empty() {
                enabled.push(selector);
            }
            let mut outcomes = Vec::with_capacity(found.transitions.len());
            for t in found.transitions {
                let mut short = Vec::with_capacity(2 * self.key.len() + 1);
                let mut after = Vec::new();
                for (j, (&slot, &written)) in self.key.iter().zip(&self.written).enumerate() {
                    short.push(projection[j]);
                    if written {
                        let i = slot as usize - 1;
                        let n = interner.number(i, &t.target.values[i]);
                        short.push(n);
                        after.push(n);
                    }
                }
                let unwritten_kept = (t.target.values.iter().zip(&state.values).enumerate())
                    .all(|(i, (a, b))| a == b || self.writes(variable_slot(i)));
                if !unwritten_kept {
                    return Err(Halt(format!(
                        "operation {} changed a variable outside its write set",
                        op.name
                    )));
                }
                let label = self.label((t.params, t.outputs, t.any_values));
                short.push(label);
                shorts.push(short);
                outcomes.push((label, after));
            }
            self.outcomes.insert(projection, outcomes);
        }
        for (into, tuples) in [
            (&mut self.relation, shorts),
            (&mut self.enabled, enabled),
            (&mut self.partial, partial),
            (&mut self.ill_defined, ill_defined),
        ] {
            let learned = table.from_tuples(tuples.iter().map(Vec::as_slice))?;
            *into = table.union(*into, learned)?;
        }
        Ok(calls)
    }

    /// The first ill-defined instance of this operation in the state `vector`, if any.
    pub fn ill_defined_in(&self, vector: &[u32]) -> Option<&Diagnostic> {
        let projection: Vec<u32> = self.key.iter().map(|&slot| vector[slot as usize]).collect();
        self.diagnostics.get(&projection)?.first()
    }

    fn writes(&self, slot: u32) -> bool {
        (self.key.binary_search(&slot)).is_ok_and(|j| self.written[j])
    }

    fn label(&mut self, signature: Signature) -> u32 {
        if let Some(&n) = self.labels.get(&signature) {
            return n;
        }
        let n = self.signatures.len() as u32;
        self.signatures.push(signature.clone());
        self.labels.insert(signature, n);
        n
    }

    pub fn signature(&self, label: u32) -> &Signature {
        &self.signatures[label as usize]
    }

    /// The predecessors of `target` by this group, as (label, state vector): every learned projection
    /// whose transition leads there.
    pub fn predecessors(&self, target: &[u32]) -> Vec<(u32, Vec<u32>)> {
        let mut out = Vec::new();
        let target_after: Vec<u32> = (self.key.iter().zip(&self.written))
            .filter(|(_, w)| **w)
            .map(|(&slot, _)| target[slot as usize])
            .collect();
        for (projection, outcomes) in &self.outcomes {
            // Slots read but not written keep their values.
            let read_kept = (self.key.iter().zip(&self.written).zip(projection))
                .all(|((&slot, &written), &n)| written || target[slot as usize] == n);
            if !read_kept {
                continue;
            }
            for (label, after) in outcomes {
                if *after == target_after {
                    let mut source = target.to_vec();
                    for (&slot, &n) in self.key.iter().zip(projection) {
                        source[slot as usize] = n;
                    }
                    out.push((*label, source));
                }
            }
        }
        out
    }
}
