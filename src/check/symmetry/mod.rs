//! Symmetry reduction for `mc --symmetry` over the deferred sets.
//!
//! B cannot name a deferred set's elements, so a permutation of them that fixes the constants maps
//! every transition, invariant, assertion and SCOPE value of a state to those of its image: states of
//! one orbit are interchangeable, and the model checker keeps one node per orbit. Which permutations:
//! per constant setup, those of each deferred set's elements that no constant's value mentions (an
//! element a constant holds is told apart by that constant). A machine that calls an external
//! function (CHOOSE picks the least element, FORMAT_TO_STRING prints its name) is not reduced.
//!
//! Two keys per state: `Canon` — the least image under the permutations (`canon`, exact: one node per
//! orbit, and each orbit's size for the full count); `Hash` — every free element replaced by the marker
//! of its colour (`refine`, ProB's "hash" mode in spirit: invariant, cheaper, but two states of
//! different orbits may share a key, so states may be missed).
//!
//! The node keeps the state the search reached, not its key (`mc::Target`): the key of `Hash` is no
//! state, and a trace of reached states is a run of the machine.

mod canon;
mod refine;
mod relabel;

use super::Model;
use crate::syntax::ast::Name;
use crate::types::external::external_of_var;
use crate::value::{Element, Value};
use relabel::each_element;
use std::sync::Arc;

/// Which key identifies the states of one orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymmetryMode {
    /// The canonical form (exact).
    Canon,
    /// The colour markers (may merge states of different orbits).
    Hash,
}

/// The deferred sets whose elements may be permuted, before the constants fix some of them.
#[derive(Clone, Debug)]
pub struct SymmetricSets {
    sets: Vec<(Name, Arc<Vec<Value>>)>,
}

/// The deferred sets a machine treats symmetrically, or why it has none.
pub fn symmetric_sets(model: &Model) -> Result<SymmetricSets, String> {
    let sets = crate::solve::orbits::deferred_sets(&model.context);
    if sets.is_empty() {
        return Err("the machine has no deferred set of two or more elements".into());
    }
    if calls_external_function(model) {
        return Err(
            "the machine calls an external function, which may tell the elements of a \
                    deferred set apart"
                .into(),
        );
    }
    Ok(SymmetricSets { sets })
}

/// Whether any predicate or substitution of the machine applies an external function (the lowered
/// call is a variable `types::external` recognises).
fn calls_external_function(model: &Model) -> bool {
    use crate::ir::free_names::pred_mentions;
    let m = model.machine();
    let external = |n: &Name| external_of_var(n).is_some();
    let preds = [&m.constraints, &m.properties, &m.invariant]
        .into_iter()
        .chain(&m.assertions)
        .chain(m.scope.as_ref())
        .chain(m.state_constraint.as_ref());
    let substs = std::iter::once(&m.initialisation).chain(m.operations.iter().map(|o| &o.body));
    preds.into_iter().any(|p| pred_mentions(p, &external))
        || substs.into_iter().any(|s| {
            crate::analysis::before_after::names_read(s)
                .iter()
                .any(external)
        })
}

impl SymmetricSets {
    /// The sets' names and sizes, for the report.
    pub fn describe(&self) -> Vec<(String, usize)> {
        (self.sets.iter())
            .map(|(n, e)| (n.to_string(), e.len()))
            .collect()
    }

    /// The permutation group of one constant setup: per set, the elements no constant mentions.
    pub fn group(&self, constants: &[Value]) -> Group {
        let mut fixed: Vec<Vec<bool>> = self
            .sets
            .iter()
            .map(|(_, e)| vec![false; e.len()])
            .collect();
        for c in constants {
            each_element(c, &mut |e| {
                if let Some(s) = self.sets.iter().position(|(n, _)| **n == *e.set)
                    && let Some(f) = fixed[s].get_mut(e.index as usize)
                {
                    *f = true;
                }
            });
        }
        let sets: Vec<FreeSet> = (self.sets.iter().zip(&fixed))
            .filter_map(|((_, elements), fixed)| FreeSet::new(elements, fixed))
            .collect();
        let order = sets.iter().try_fold(1u128, |o, s| {
            (1..=s.free.len() as u128).try_fold(o, u128::checked_mul)
        });
        Group { sets, order }
    }
}

/// One deferred set's free elements under one setup (at least two, else nothing moves).
struct FreeSet {
    set: Arc<str>,
    /// The set's elements by index.
    elements: Arc<Vec<Value>>,
    /// Indices of the free elements, ascending.
    free: Vec<u32>,
    /// Per element index, its position in `free`.
    position: Vec<Option<usize>>,
    /// One marker per colour (`refine::marker_key`): elements of this set with indices past its last,
    /// so that they never equal a real element.
    markers: Vec<Value>,
}

impl FreeSet {
    fn new(elements: &Arc<Vec<Value>>, fixed: &[bool]) -> Option<FreeSet> {
        let set = match elements.first()? {
            Value::Elem(e) => e.set.clone(),
            _ => return None,
        };
        // The elements are expected in index order; anything else is not permuted.
        let indexed = elements
            .iter()
            .enumerate()
            .all(|(i, v)| matches!(v, Value::Elem(e) if e.index as usize == i && e.set == set));
        let free: Vec<u32> = (0..elements.len() as u32)
            .filter(|&i| !fixed[i as usize])
            .collect();
        if !indexed || free.len() < 2 {
            return None;
        }
        let mut position = vec![None; elements.len()];
        for (k, &i) in free.iter().enumerate() {
            position[i as usize] = Some(k);
        }
        let marker = |index: usize| {
            Value::Elem(Arc::new(Element {
                set: set.clone(),
                index: index as u32,
                name: Arc::from("marker"),
            }))
        };
        let n = elements.len();
        Some(FreeSet {
            markers: (0..free.len()).map(|c| marker(n + c)).collect(),
            set,
            elements: elements.clone(),
            free,
            position,
        })
    }

    /// The element at position `k` of `free`.
    fn element_at(&self, k: usize) -> Value {
        self.elements[self.free[k] as usize].clone()
    }
}

/// The set and position in its `free` list of a free element; None for anything else.
fn locate(sets: &[FreeSet], e: &Element) -> Option<(usize, usize)> {
    let s = sets.iter().position(|s| s.set == e.set)?;
    let k = (*sets[s].position.get(e.index as usize)?)?;
    Some((s, k))
}

/// The permutations of one setup's free elements.
pub struct Group {
    sets: Vec<FreeSet>,
    /// The group's size (product of the factorials of the free sets' sizes); None beyond u128.
    order: Option<u128>,
}

/// A state's key under symmetry.
pub struct Reduced {
    pub key: Vec<Value>,
    /// The number of distinct images of the state (its orbit's size), when known: canonical forms
    /// that were exact (and groups whose sizes fit in 128 bits); never under `Hash`.
    pub orbit: Option<u128>,
}

impl Group {
    /// Whether some element can be moved at all.
    pub fn is_trivial(&self) -> bool {
        self.sets.is_empty()
    }

    pub fn reduce(&self, mode: SymmetryMode, state: &[Value]) -> Reduced {
        if self.sets.is_empty() {
            return Reduced {
                key: state.to_vec(),
                orbit: Some(1),
            };
        }
        let colours = refine::stable_colours(&self.sets, state);
        match mode {
            SymmetryMode::Hash => Reduced {
                key: refine::marker_key(&self.sets, &colours, state),
                orbit: None,
            },
            SymmetryMode::Canon => {
                let c = canon::canonical(&self.sets, &colours, state);
                let orbit = match (self.order, c.automorphisms) {
                    (Some(order), Some(aut)) => Some(order / aut),
                    _ => None,
                };
                Reduced { key: c.key, orbit }
            }
        }
    }
}

#[cfg(test)]
mod tests;
