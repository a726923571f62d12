//! Operation reuse for the model checker: LTSmin's short next-state function (Blom, van de Pol &
//! Weber, "LTSmin", CAV 2010, §3: dependency matrix), ProB's operation reuse. An operation's transitions
//! from a state depend only on the constants and on the variables it reads or writes (its row of the
//! dependency matrix, `analysis::before_after::read_write`); every other variable keeps its value. A
//! state whose projection on those variables was seen before, under the same constant setup, gets the
//! operation's transitions rebuilt from a cache instead of searching its parameters and executing its
//! body again.
//!
//! Invariant: a cached outcome is exactly what `Context::operation_successors` returned for some state
//! with the same setup and projection, and is stored only when that outcome could not depend on anything
//! else (see `footprint` and `ReuseCache::successors`).

use super::transitions::OperationSuccessors;
use super::{Context, Env, EvalError, State, Successors, Transition};
use crate::analysis::before_after::exact_read_write;
use crate::diag::Diagnostic;
use crate::ir::{Machine, Operation};
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// Per operation, the transitions found for each projection of a state, shared by the model checker's
/// workers.
pub struct ReuseCache {
    /// Per operation (`machine.operations` order): its footprint and table, or None when it is always
    /// recomputed.
    operations: Vec<Option<Footprint>>,
    next_state_calls: AtomicU64,
    hits: AtomicU64,
}

/// The variables an operation's outcome depends on, and the outcomes seen.
struct Footprint {
    /// Indices (into `machine.variables`) of the variables read or written. A written variable is part
    /// of the key too: a branch that does not assign it (an IF without ELSE) leaves its old value in the
    /// target, which the cached write vector must then match.
    key: Vec<usize>,
    /// Indices of the variables written: the only ones whose value may differ in a target.
    writes: Vec<usize>,
    /// (setup index, values of `key`) → the operation's outcome there.
    table: RwLock<FxHashMap<Projection, Arc<Outcome>>>,
    /// Lookups and hits in `table`, for `pays`.
    lookups: AtomicU64,
    hits: AtomicU64,
    /// The operation's projections rarely repeat: it is recomputed from now on and its table emptied.
    abandoned: AtomicBool,
}

/// After this many lookups of one operation, its cache is abandoned if fewer than one in
/// `ABANDON_BELOW` hit: a projection that almost never repeats (B/Demo/Lift.mch: 14 million states, no
/// hit) costs a key, a lookup and a stored outcome per state for nothing, and halved the states explored
/// within a timeout. Recomputing is always sound, so abandoning only costs the hits it forgoes.
const PROBATION: u64 = 10_000;
const ABANDON_BELOW: u64 = 10;

impl Footprint {
    /// Counts a lookup; abandons the cache once its probation shows it does not pay.
    fn looked_up(&self, hit: bool) {
        let lookups = self.lookups.fetch_add(1, Ordering::Relaxed) + 1;
        let hits = self.hits.fetch_add(u64::from(hit), Ordering::Relaxed) + u64::from(hit);
        if lookups == PROBATION && hits.saturating_mul(ABANDON_BELOW) < lookups {
            self.abandoned.store(true, Ordering::Relaxed);
            *self.table.write().expect("reuse table lock") = FxHashMap::default();
        }
    }
}

/// A constant setup's index (in the model checker's order) and the values of a footprint's `key`.
type Projection = (u32, Vec<Value>);

/// One operation's complete outcome in one projection.
struct Outcome {
    transitions: Vec<Reusable>,
    ill_defined: Vec<Diagnostic>,
}

/// A transition without its source: parameters, outputs, ANY values and the written variables' new
/// values (in `Footprint::writes` order).
struct Reusable {
    params: Vec<Value>,
    outputs: Vec<Value>,
    any_values: Vec<Value>,
    written: Vec<Value>,
}

/// What reuse saved: operation evaluations performed, and those answered from the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReuseStats {
    pub next_state_calls: u64,
    pub hits: u64,
}

impl ReuseCache {
    pub fn new(machine: &Machine) -> ReuseCache {
        ReuseCache {
            operations: machine
                .operations
                .iter()
                .map(|op| footprint(machine, op))
                .collect(),
            next_state_calls: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// Whether operation `k`'s transitions are reused.
    pub fn is_reusable(&self, k: usize) -> bool {
        self.operations[k].is_some()
    }

    pub fn stats(&self) -> ReuseStats {
        ReuseStats {
            next_state_calls: self.next_state_calls.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
        }
    }

    /// `Context::successors_tolerant` of `state` under setup number `setup` (whose values are
    /// `constants`), each reusable operation answered from the cache when its projection was seen.
    pub fn successors(
        &self,
        ctx: &Context,
        setup: u32,
        constants: &[Value],
        state: &State,
        max_per_op: usize,
    ) -> Result<Successors, EvalError> {
        let mut out = Successors {
            transitions: Vec::new(),
            complete: true,
            ill_defined: Vec::new(),
        };
        // Built on the first miss: a state whose operations are all reused needs no environment.
        let mut env: Option<Env> = None;
        for (k, footprint) in self.operations.iter().enumerate() {
            let footprint = footprint
                .as_ref()
                .filter(|f| !f.abandoned.load(Ordering::Relaxed));
            let key = footprint.map(|f| {
                let values = f.key.iter().map(|&i| state.values[i].clone()).collect();
                (setup, values)
            });
            if let (Some(f), Some(key)) = (footprint, &key) {
                let seen = f.table.read().expect("reuse table lock").get(key).cloned();
                f.looked_up(seen.is_some());
                if let Some(outcome) = seen {
                    self.hits.fetch_add(1, Ordering::Relaxed);
                    out.transitions
                        .extend(outcome.transitions.iter().map(|r| rebuild(k, f, r, state)));
                    out.ill_defined
                        .extend(outcome.ill_defined.iter().map(|d| (k, d.clone())));
                    continue;
                }
            }
            self.next_state_calls.fetch_add(1, Ordering::Relaxed);
            let env = match &mut env {
                Some(env) => env,
                None => env.insert(ctx.state_env(constants, state)?),
            };
            let time_cuts = ctx.time_cuts();
            let found = ctx.operation_successors(k, env, state, max_per_op)?;
            // Only a complete outcome is stored: an incomplete one may depend on a limit's cut or the
            // time a search had (a candidate dropped for time anywhere meanwhile also disqualifies it).
            if let (Some(f), Some(key)) = (footprint, key)
                && found.complete
                && ctx.time_cuts() == time_cuts
                && let Some(outcome) = outcome(f, &found, state)
            {
                f.table
                    .write()
                    .expect("reuse table lock")
                    .insert(key, Arc::new(outcome));
            }
            out.complete &= found.complete;
            out.transitions.extend(found.transitions);
            out.ill_defined
                .extend(found.ill_defined.into_iter().map(|d| (k, d)));
        }
        Ok(out)
    }
}

/// Operation `k`'s cached transition from `state`: the state with the written variables replaced.
fn rebuild(k: usize, f: &Footprint, r: &Reusable, state: &State) -> Transition {
    let mut values = state.values.clone();
    for (&i, v) in f.writes.iter().zip(&r.written) {
        values[i] = v.clone();
    }
    Transition {
        operation: k,
        params: r.params.clone(),
        outputs: r.outputs.clone(),
        any_values: r.any_values.clone(),
        target: State { values },
    }
}

/// The cacheable form of an operation's outcome; None (and a failed debug assertion) when a target
/// differs from `state` in a variable outside the write set, which would make the write set wrong.
fn outcome(f: &Footprint, found: &OperationSuccessors, state: &State) -> Option<Outcome> {
    let mut transitions = Vec::with_capacity(found.transitions.len());
    for t in &found.transitions {
        let unwritten_kept = (t.target.values.iter().zip(&state.values).enumerate())
            .all(|(i, (after, before))| after == before || f.writes.contains(&i));
        debug_assert!(
            unwritten_kept,
            "operation {} changed a variable outside its write set",
            t.operation
        );
        if !unwritten_kept {
            return None;
        }
        transitions.push(Reusable {
            params: t.params.clone(),
            outputs: t.outputs.clone(),
            any_values: t.any_values.clone(),
            written: f
                .writes
                .iter()
                .map(|&i| t.target.values[i].clone())
                .collect(),
        });
    }
    Some(Outcome {
        transitions,
        ill_defined: found.ill_defined.clone(),
    })
}

/// The footprint of an operation whose read and write sets are exact for the interpreter
/// (`before_after::exact_read_write`), None when the operation must always be recomputed.
///
/// Reads through DEFINITIONS are expanded before the IR; constants are fixed by the setup index in the
/// key; a guard's LET and ANY identifiers and `MAX_OPERATIONS_<op>` limits act the same in every state
/// with the same projection (and an outcome cut by a limit is never stored).
fn footprint(machine: &Machine, op: &Operation) -> Option<Footprint> {
    let rw = exact_read_write(machine, op)?;
    let index = |names: &dyn Fn(&str) -> bool| -> Vec<usize> {
        (machine.variables.iter().enumerate())
            .filter(|(_, v)| names(&v.name))
            .map(|(i, _)| i)
            .collect()
    };
    Some(Footprint {
        key: index(&|n| rw.reads.contains(n) || rw.writes.contains(n)),
        writes: index(&|n| rw.writes.contains(n)),
        table: RwLock::new(FxHashMap::default()),
        lookups: AtomicU64::new(0),
        hits: AtomicU64::new(0),
        abandoned: AtomicBool::new(false),
    })
}
