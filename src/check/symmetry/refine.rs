//! Colour refinement of the free elements of a state: the invariant that orders them before any
//! permutation is tried.
//!
//! Every free element starts with colour 0. In each round an element's signature is its colour and the
//! state with that element replaced by a focus marker and every other free element by the marker of its
//! colour; elements with different signatures get different colours (their rank among the set's
//! signatures). Rounds go on until no class splits — the 1-dimensional Weisfeiler–Leman refinement over
//! the state seen as a structure on the elements. Nothing in a signature depends on which element is
//! which, only on how it sits in the state: a permutation of the free elements maps the colouring of a
//! state to the colouring of its image. That is what keeps the canonical form exact and the hash key
//! invariant.

use super::relabel::relabel_state;
use super::{FreeSet, locate};
use crate::value::Value;

/// Per free set, per position in its `free` list, the colour (0-based, dense, ordered by signature).
pub(super) type Colours = Vec<Vec<u32>>;

/// The stable colouring of the free elements of `state`.
pub(super) fn stable_colours(sets: &[FreeSet], state: &[Value]) -> Colours {
    let mut colours: Colours = sets.iter().map(|s| vec![0; s.free.len()]).collect();
    let mut classes = sets.len();
    loop {
        let mut next: Colours = Vec::with_capacity(sets.len());
        for (s, set) in sets.iter().enumerate() {
            let signatures: Vec<(u32, Vec<Value>)> = (0..set.free.len())
                .map(|i| {
                    let abstracted = relabel_state(state, &|e| {
                        let (s2, i2) = locate(sets, e)?;
                        Some(if (s2, i2) == (s, i) {
                            sets[s2].focus.clone()
                        } else {
                            sets[s2].markers[colours[s2][i2] as usize].clone()
                        })
                    });
                    (colours[s][i], abstracted)
                })
                .collect();
            let mut distinct: Vec<&(u32, Vec<Value>)> = signatures.iter().collect();
            distinct.sort();
            distinct.dedup();
            next.push(
                signatures
                    .iter()
                    .map(|sig| {
                        distinct
                            .binary_search(&sig)
                            .expect("a signature of the set") as u32
                    })
                    .collect(),
            );
        }
        let now: usize = next
            .iter()
            .map(|c| c.iter().max().map_or(0, |m| *m as usize + 1))
            .sum();
        colours = next;
        // A class can only split (the old colour is part of the signature): no new class, stable.
        if now == classes {
            return colours;
        }
        classes = now;
    }
}

/// `state` with every free element replaced by the marker of its colour: equal for states in one orbit,
/// and possibly for states in different orbits too (ProB's symmetry markers have the same weakness).
pub(super) fn marker_key(sets: &[FreeSet], colours: &Colours, state: &[Value]) -> Vec<Value> {
    relabel_state(state, &|e| {
        let (s, i) = locate(sets, e)?;
        Some(sets[s].markers[colours[s][i] as usize].clone())
    })
}
