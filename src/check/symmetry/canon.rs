//! The canonical form of a state under the permutations of its free elements, and the number of
//! permutations that fix it.
//!
//! The free elements are first ordered by their stable colours (`refine`): the permutations worth
//! trying are those that send the elements of the first colour class to the first free indices, those
//! of the second class to the next ones, and so on. The canonical form is the least image (in the value
//! order) under those permutations. It is exact — equal exactly for states of one orbit — because the
//! colouring moves with the state: for `s' = σ(s)` the permutations tried on `s'` are those tried on `s`
//! composed with `σ⁻¹`, so both searches see the same images. Classes of interchangeable elements
//! (every permutation of them fixes the state) are left out of the search. A state whose classes allow
//! more than `MAX_CANDIDATES` permutations keeps the image sorted by colour alone: still a member of its
//! orbit (a sound reduction), but another member of the orbit may then be kept apart, so the counts of a
//! run that met one are not orbit counts (`Canonical::automorphisms` is None).

use super::refine::Colours;
use super::relabel::relabel_state;
use super::{FreeSet, locate};
use crate::value::Value;

/// Images tried per state at most (7!: a class of seven elements, or smaller classes together).
const MAX_CANDIDATES: usize = 5040;

pub(super) struct Canonical {
    pub key: Vec<Value>,
    /// How many of the permutations tried map the state to itself: the size of its stabiliser in the
    /// group, from which the orbit's size follows. None when the form is not exact (or, rarely, the
    /// count exceeds 128 bits).
    pub automorphisms: Option<u128>,
}

/// One class of equally coloured free elements, after the elements were sorted by colour: positions
/// `start..start + len` of its set's `free` list.
struct Block {
    set: usize,
    start: usize,
    len: usize,
}

pub(super) fn canonical(sets: &[FreeSet], colours: &Colours, state: &[Value]) -> Canonical {
    // Per set, the target position of each free element: classes in colour order, elements of a class
    // in index order.
    let mut target: Vec<Vec<usize>> = Vec::with_capacity(sets.len());
    let mut blocks = Vec::new();
    // Permutations of the absent elements, all fixing the state (None beyond u128).
    let mut fixing = Some(1u128);
    for (s, set) in sets.iter().enumerate() {
        let colour = &colours.colour[s];
        let mut order: Vec<usize> = (0..set.free.len()).collect();
        order.sort_by_key(|&i| (colour[i], i));
        let mut to = vec![0; set.free.len()];
        for (k, &i) in order.iter().enumerate() {
            to[i] = k;
        }
        let mut start = 0;
        while start < order.len() {
            let first = order[start];
            let len = order[start..]
                .iter()
                .take_while(|&&i| colour[i] == colour[first])
                .count();
            // A class of elements absent from the state: every permutation of it fixes the state.
            if colours.absent[s][first] {
                fixing = fixing.and_then(|f| (1..=len as u128).try_fold(f, u128::checked_mul));
            } else if len > 1 {
                blocks.push(Block { set: s, start, len });
            }
            start += len;
        }
        target.push(to);
    }
    let sorted = relabel_state(state, &|e| {
        let (s, i) = locate(sets, e)?;
        Some(sets[s].element_at(target[s][i]))
    });
    // A class whose elements are all interchangeable (twins: the first one swapped with any other
    // leaves the state as it is, and those swaps generate every permutation of the class) needs no
    // search: all its permutations fix the state, and they commute with those of the other classes.
    blocks.retain(|b| {
        let symmetric =
            (1..b.len).all(|j| swapped(sets, &sorted, b.set, b.start, b.start + j) == sorted);
        if symmetric {
            fixing = fixing.and_then(|f| (1..=b.len as u128).try_fold(f, u128::checked_mul));
        }
        !symmetric
    });
    let candidates = blocks
        .iter()
        .try_fold(1usize, |n, b| n.checked_mul(factorial(b.len)?));
    let Some(candidates) = candidates.filter(|&n| n <= MAX_CANDIDATES) else {
        return Canonical {
            key: sorted,
            automorphisms: None,
        };
    };
    if candidates == 1 {
        return Canonical {
            key: sorted,
            automorphisms: fixing,
        };
    }
    let perms: Vec<Vec<Vec<usize>>> = blocks.iter().map(|b| permutations(b.len)).collect();
    // Mixed-radix counter over the blocks' permutations: every combination once.
    let mut digit = vec![0usize; blocks.len()];
    let mut best: Option<Vec<Value>> = None;
    let mut automorphisms = 0u128;
    loop {
        // Position k of set s goes to position moved[s][k].
        let mut moved: Vec<Vec<usize>> = sets.iter().map(|s| (0..s.free.len()).collect()).collect();
        for ((b, p), &d) in blocks.iter().zip(&perms).zip(&digit) {
            for (k, &j) in p[d].iter().enumerate() {
                moved[b.set][b.start + k] = b.start + j;
            }
        }
        let image = relabel_state(&sorted, &|e| {
            let (s, k) = locate(sets, e)?;
            Some(sets[s].element_at(moved[s][k]))
        });
        if image == sorted {
            automorphisms += 1;
        }
        if best.as_ref().is_none_or(|b| image < *b) {
            best = Some(image);
        }
        // Next combination, or done.
        let mut carry = true;
        for (d, p) in digit.iter_mut().zip(&perms) {
            *d += 1;
            if *d < p.len() {
                carry = false;
                break;
            }
            *d = 0;
        }
        if carry {
            break;
        }
    }
    Canonical {
        key: best.expect("at least the identity was tried"),
        automorphisms: fixing.and_then(|f| f.checked_mul(automorphisms)),
    }
}

/// `state` with the elements at positions `a` and `b` of set `set`'s free list exchanged.
fn swapped(sets: &[FreeSet], state: &[Value], set: usize, a: usize, b: usize) -> Vec<Value> {
    relabel_state(state, &|e| {
        let (s, k) = locate(sets, e)?;
        let to = match k {
            _ if s != set => return None,
            k if k == a => b,
            k if k == b => a,
            _ => return None,
        };
        Some(sets[s].element_at(to))
    })
}

fn factorial(n: usize) -> Option<usize> {
    (1..=n).try_fold(1usize, |f, k| f.checked_mul(k))
}

/// Every permutation of `0..n`, as the image of each position.
pub(super) fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for pos in 0..n {
            let mut q = p.clone();
            q.insert(pos, n - 1);
            out.push(q);
        }
    }
    out
}
