//! The canonical form and the markers against brute force: every permutation of the free elements.

use super::*;
use crate::solve::orbits::{SetPermutation, permute};
use rustc_hash::FxHashSet;

fn elements(set: &str, n: u32) -> Arc<Vec<Value>> {
    let name: Arc<str> = Arc::from(set);
    Arc::new(
        (0..n)
            .map(|i| {
                Value::Elem(Arc::new(Element {
                    set: name.clone(),
                    index: i,
                    name: Name::from(format!("{set}{}", i + 1)),
                }))
            })
            .collect(),
    )
}

/// The permutations of `d` that fix the elements in `fixed`.
fn group_elements(d: &Arc<Vec<Value>>, fixed: &[usize]) -> Vec<Vec<SetPermutation>> {
    canon::permutations(d.len())
        .into_iter()
        .filter(|p| fixed.iter().all(|&f| p[f] == f))
        .map(|perm| {
            vec![SetPermutation {
                set: Arc::from("D"),
                elements: d.clone(),
                perm,
            }]
        })
        .collect()
}

fn image(state: &[Value], p: &[SetPermutation]) -> Vec<Value> {
    state.iter().map(|v| permute(v, p)).collect()
}

fn random_state(rng: &mut fastrand::Rng, d: &Arc<Vec<Value>>) -> Vec<Value> {
    let pick = |rng: &mut fastrand::Rng| d[rng.usize(0..d.len())].clone();
    (0..rng.usize(1..4))
        .map(|_| match rng.u8(0..5) {
            0 => pick(rng),
            1 => Value::pair(pick(rng), Value::int(rng.i64(0..2))),
            2 => Value::set_from_vec((0..rng.usize(0..4)).map(|_| pick(rng)).collect()),
            3 => Value::set_from_vec(
                (0..rng.usize(0..5))
                    .map(|_| Value::pair(pick(rng), pick(rng)))
                    .collect(),
            ),
            _ => Value::Bool(rng.bool()),
        })
        .collect()
}

#[test]
fn canonical_forms_are_exact_and_orbit_sizes_match_brute_force() {
    let mut rng = fastrand::Rng::with_seed(11);
    for round in 0..400 {
        let n = rng.u32(2..6);
        let d = elements("D", n);
        let symmetric = SymmetricSets {
            sets: vec![(Name::from("D"), d.clone())],
        };
        // Sometimes a constant holds the first element: it must stay fixed.
        let fixed: Vec<usize> = if round % 3 == 0 { vec![0] } else { vec![] };
        let constants: Vec<Value> = fixed.iter().map(|&i| d[i].clone()).collect();
        let group = symmetric.group(&constants);
        let perms = group_elements(&d, &fixed);
        let state = random_state(&mut rng, &d);
        let orbit: FxHashSet<Vec<Value>> = perms.iter().map(|p| image(&state, p)).collect();
        let reduced = group.reduce(SymmetryMode::Canon, &state);
        assert!(orbit.contains(&reduced.key), "{state:?}");
        let expected = if n as usize - fixed.len() >= 2 {
            orbit.len() as u128
        } else {
            1
        };
        assert_eq!(reduced.orbit, Some(expected), "{state:?}");
        let hash = group.reduce(SymmetryMode::Hash, &state).key;
        for p in &perms {
            let moved = image(&state, p);
            assert_eq!(
                group.reduce(SymmetryMode::Canon, &moved).key,
                reduced.key,
                "{state:?} / {moved:?}"
            );
            assert_eq!(group.reduce(SymmetryMode::Hash, &moved).key, hash);
        }
    }
}

#[test]
fn states_of_different_orbits_have_different_canonical_forms() {
    let d = elements("D", 3);
    let symmetric = SymmetricSets {
        sets: vec![(Name::from("D"), d.clone())],
    };
    let group = symmetric.group(&[]);
    // {D1 |-> D2} and {D1 |-> D1}: a loop is no edge.
    let edge = vec![Value::set_from_vec(vec![Value::pair(
        d[0].clone(),
        d[1].clone(),
    )])];
    let self_loop = vec![Value::set_from_vec(vec![Value::pair(
        d[0].clone(),
        d[0].clone(),
    )])];
    let a = group.reduce(SymmetryMode::Canon, &edge);
    let b = group.reduce(SymmetryMode::Canon, &self_loop);
    assert_ne!(a.key, b.key);
    assert_eq!(a.orbit, Some(6));
    assert_eq!(b.orbit, Some(3));
}

#[test]
fn elements_held_by_constants_are_not_moved() {
    let d = elements("D", 3);
    let symmetric = SymmetricSets {
        sets: vec![(Name::from("D"), d.clone())],
    };
    // Two of three elements fixed: nothing left to permute.
    let group = symmetric.group(&[Value::set_from_vec(vec![d[0].clone(), d[2].clone()])]);
    assert!(group.is_trivial());
    let state = vec![d[2].clone()];
    assert_eq!(group.reduce(SymmetryMode::Canon, &state).key, state);
}

#[test]
fn two_sets_are_permuted_independently() {
    let mut rng = fastrand::Rng::with_seed(5);
    let d = elements("D", 3);
    let e = elements("E", 3);
    let symmetric = SymmetricSets {
        sets: vec![(Name::from("D"), d.clone()), (Name::from("E"), e.clone())],
    };
    let group = symmetric.group(&[]);
    let perm = |set: &str, elements: &Arc<Vec<Value>>, perm: Vec<usize>| SetPermutation {
        set: Arc::from(set),
        elements: elements.clone(),
        perm,
    };
    let all: Vec<Vec<SetPermutation>> = canon::permutations(3)
        .into_iter()
        .flat_map(|p| {
            canon::permutations(3)
                .into_iter()
                .map(move |q| (p.clone(), q))
        })
        .map(|(p, q)| vec![perm("D", &d, p), perm("E", &e, q)])
        .collect();
    for _ in 0..200 {
        let state = vec![Value::set_from_vec(
            (0..rng.usize(0..5))
                .map(|_| Value::pair(d[rng.usize(0..3)].clone(), e[rng.usize(0..3)].clone()))
                .collect(),
        )];
        let orbit: FxHashSet<Vec<Value>> = all.iter().map(|p| image(&state, p)).collect();
        let reduced = group.reduce(SymmetryMode::Canon, &state);
        assert_eq!(reduced.orbit, Some(orbit.len() as u128), "{state:?}");
        for p in &all {
            assert_eq!(
                group.reduce(SymmetryMode::Canon, &image(&state, p)).key,
                reduced.key
            );
        }
    }
}

#[test]
fn a_state_with_too_many_candidate_permutations_keeps_a_member_of_its_orbit() {
    // An 8-cycle: colour refinement cannot tell its elements apart and they are no twins (a swap
    // changes the cycle), so 8! candidates, more than are tried.
    let d = elements("D", 8);
    let symmetric = SymmetricSets {
        sets: vec![(Name::from("D"), d.clone())],
    };
    let group = symmetric.group(&[]);
    let cycle = (0..8).map(|i| Value::pair(d[i].clone(), d[(i + 1) % 8].clone()));
    let state = vec![Value::set_from_vec(cycle.collect()), Value::int(1)];
    let reduced = group.reduce(SymmetryMode::Canon, &state);
    assert_eq!(reduced.orbit, None);
    assert_eq!(reduced.key, state);
    // The whole set, by contrast, is fixed by every permutation: exact, an orbit of one.
    let all = vec![Value::set_from_vec(d.iter().cloned().collect())];
    assert_eq!(group.reduce(SymmetryMode::Canon, &all).orbit, Some(1));
}
