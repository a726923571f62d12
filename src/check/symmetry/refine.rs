//! Colour refinement of the free elements of a state: the invariant that orders them before any
//! permutation is tried.
//!
//! Every free element starts with colour 0. In each round an element's signature is its colour and a
//! fingerprint of the state in which that element is a focus marker and every other free element the
//! marker of its colour; elements with different signatures get different colours (their rank among the
//! set's signatures). Rounds go on until no class splits — the 1-dimensional Weisfeiler–Leman refinement
//! over the state seen as a structure on the elements. Nothing in a signature depends on which element is
//! which, only on how it sits in the state (a set's fingerprint does not depend on the order of its
//! members): a permutation of the free elements maps the colouring of a state to the colouring of its
//! image. That is what keeps the canonical form exact and the hash key invariant. Two elements whose
//! fingerprints collide merely stay in one class (more permutations tried), never a wrong form.
//!
//! Free elements that do not occur in the state at all form one class of their own (`Colours::absent`):
//! every permutation of them fixes the state.

use super::relabel::relabel_state;
use super::{FreeSet, locate};
use crate::value::{Element, Value};
use std::hash::{Hash, Hasher};

/// Per free set, per position in its `free` list, the colour (0-based, dense, ordered by signature),
/// and whether the element occurs in the state.
pub(super) struct Colours {
    pub colour: Vec<Vec<u32>>,
    pub absent: Vec<Vec<bool>>,
}

/// The stable colouring of the free elements of `state`.
pub(super) fn stable_colours(sets: &[FreeSet], state: &[Value]) -> Colours {
    let mut absent: Vec<Vec<bool>> = sets.iter().map(|s| vec![true; s.free.len()]).collect();
    for v in state {
        super::relabel::each_element(v, &mut |e| {
            if let Some((s, i)) = locate(sets, e) {
                absent[s][i] = false;
            }
        });
    }
    let mut colour: Vec<Vec<u32>> = sets.iter().map(|s| vec![0; s.free.len()]).collect();
    let mut classes = sets.len();
    loop {
        let mut next: Vec<Vec<u32>> = Vec::with_capacity(sets.len());
        for (s, set) in sets.iter().enumerate() {
            let signatures: Vec<(u32, u64)> = (0..set.free.len())
                .map(|i| {
                    if absent[s][i] {
                        return (colour[s][i], 0);
                    }
                    let label = |e: &Element| {
                        let (s2, i2) = locate(sets, e)?;
                        Some(if (s2, i2) == (s, i) {
                            FOCUS
                        } else {
                            1 + u64::from(colour[s2][i2])
                        })
                    };
                    let print = state
                        .iter()
                        .fold(0u64, |h, v| mix(h ^ fingerprint(v, &label)));
                    (colour[s][i], print)
                })
                .collect();
            let mut distinct = signatures.clone();
            distinct.sort_unstable();
            distinct.dedup();
            next.push(
                signatures
                    .iter()
                    .map(|sig| distinct.binary_search(sig).expect("a signature of the set") as u32)
                    .collect(),
            );
        }
        let now: usize = next
            .iter()
            .map(|c| c.iter().max().map_or(0, |m| *m as usize + 1))
            .sum();
        colour = next;
        // A class can only split (the old colour is part of the signature): no new class, stable.
        if now == classes {
            return Colours { colour, absent };
        }
        classes = now;
    }
}

/// The label of the element a signature is about.
const FOCUS: u64 = u64::MAX;

/// A 64-bit fingerprint of `v` with each free element replaced by its `label` (other elements by their
/// set and index): ordered for pairs and records, a sum of the members' mixed fingerprints for sets, so
/// that it does not depend on the order a relabelling would sort the members in.
fn fingerprint(v: &Value, label: &dyn Fn(&Element) -> Option<u64>) -> u64 {
    match v {
        Value::Elem(e) => match label(e) {
            Some(l) => mix(l ^ 0x5bd1_e995),
            None => hashed(v),
        },
        Value::Int(_) | Value::Bool(_) | Value::Str(_) => hashed(v),
        Value::Pair(ab) => {
            mix(fingerprint(&ab.0, label).rotate_left(17) ^ fingerprint(&ab.1, label) ^ 0x9e37)
        }
        Value::Set(items) => items.iter().fold(mix(items.len() as u64 ^ 0x7f4a), |h, x| {
            h.wrapping_add(mix(fingerprint(x, label)))
        }),
        Value::Record(fields) => fields.iter().fold(0x2545_f491, |h, (n, x)| {
            mix(h ^ hashed_str(n) ^ fingerprint(x, label).rotate_left(29))
        }),
    }
}

fn hashed(v: &Value) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    v.hash(&mut h);
    mix(h.finish())
}

fn hashed_str(s: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

/// SplitMix64's finaliser: spreads every input bit over the output (sums of mixed values then rarely
/// collide).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// `state` with every free element replaced by the marker of its colour: equal for states in one orbit,
/// and possibly for states in different orbits too (ProB's symmetry markers have the same weakness).
pub(super) fn marker_key(sets: &[FreeSet], colours: &Colours, state: &[Value]) -> Vec<Value> {
    relabel_state(state, &|e| {
        let (s, i) = locate(sets, e)?;
        Some(sets[s].markers[colours.colour[s][i] as usize].clone())
    })
}
