//! Brute force against the LDD operations: random small sets of tuples (and random relations under
//! random metas), every operation's result compared with the same operation on `BTreeSet`s of tuples.

use super::*;
use std::collections::BTreeSet;

type Tuples = BTreeSet<Vec<u32>>;

/// Values per slot: few, so that random sets share prefixes and suffixes.
const VALUES: u32 = 3;

fn random_tuples(rng: &mut fastrand::Rng, width: usize, max: usize) -> Tuples {
    (0..rng.usize(0..=max))
        .map(|_| (0..width).map(|_| rng.u32(0..VALUES)).collect())
        .collect()
}

fn build(table: &mut Table, tuples: &Tuples) -> Ldd {
    table
        .from_tuples(tuples.iter().map(Vec::as_slice))
        .expect("within the node limit")
}

fn listed(table: &Table, a: Ldd) -> Tuples {
    table.tuples(a).into_iter().collect()
}

#[test]
fn set_operations_agree_with_sets_of_tuples() {
    let mut rng = fastrand::Rng::with_seed(35);
    for round in 0..400 {
        let width = rng.usize(0..5);
        let mut table = Table::new(1 << 20);
        let (xs, ys) = (
            random_tuples(&mut rng, width, 20),
            random_tuples(&mut rng, width, 20),
        );
        let (a, b) = (build(&mut table, &xs), build(&mut table, &ys));
        assert_eq!(listed(&table, a), xs, "round {round}: building");
        assert_eq!(table.count(a), xs.len() as u128, "round {round}: count");
        let union = table.union(a, b).expect("nodes");
        assert_eq!(listed(&table, union), &xs | &ys, "round {round}: union");
        let minus = table.minus(a, b).expect("nodes");
        assert_eq!(listed(&table, minus), &xs - &ys, "round {round}: minus");
        let meet = table.intersect(a, b).expect("nodes");
        assert_eq!(listed(&table, meet), &xs & &ys, "round {round}: intersect");
        // Hash-consing: equal sets are one node.
        let again = build(&mut table, &(&xs | &ys));
        assert_eq!(again, union, "round {round}: canonical");
        for t in xs.iter().chain(&ys) {
            assert_eq!(table.contains(a, t), xs.contains(t), "round {round}: {t:?}");
        }
        assert_eq!(
            table.any_tuple(a).is_some_and(|t| xs.contains(&t)),
            !xs.is_empty()
        );
    }
}

/// A random meta over `width` slots: each slot read with probability 1/2, a read slot written with
/// probability 1/2.
fn random_meta(rng: &mut fastrand::Rng, width: usize) -> Meta {
    let slots: Vec<u32> = (0..width as u32).filter(|_| rng.bool()).collect();
    let written = slots.iter().map(|_| rng.bool()).collect();
    Meta { slots, written }
}

/// A random relation under `meta`: short tuples (value before, value after where written), label.
fn random_relation(rng: &mut fastrand::Rng, meta: &Meta, max: usize) -> Tuples {
    let width = meta.slots.len() + meta.written.iter().filter(|w| **w).count() + 1;
    random_tuples(rng, width, max)
}

/// The oracle's reading of a short tuple: the projection it applies to, the values written (slot,
/// value), the label.
fn split(meta: &Meta, short: &[u32]) -> (Vec<u32>, Vec<(usize, u32)>, u32) {
    let mut read = Vec::new();
    let mut writes = Vec::new();
    let mut i = 0;
    for (&slot, &written) in meta.slots.iter().zip(&meta.written) {
        read.push(short[i]);
        i += 1;
        if written {
            writes.push((slot as usize, short[i]));
            i += 1;
        }
    }
    (read, writes, short[i])
}

fn project(meta: &Meta, t: &[u32]) -> Vec<u32> {
    meta.slots.iter().map(|&s| t[s as usize]).collect()
}

#[test]
fn projections_products_and_pair_counts_agree_with_sets_of_tuples() {
    let mut rng = fastrand::Rng::with_seed(3535);
    for round in 0..400 {
        let width = rng.usize(1..5);
        let mut table = Table::new(1 << 20);
        let xs = random_tuples(&mut rng, width, 25);
        let meta = random_meta(&mut rng, width);
        let rel = random_relation(&mut rng, &meta, 30);
        let (a, r) = (build(&mut table, &xs), build(&mut table, &rel));
        let id = table.meta(meta.clone());

        let projected: Tuples = xs.iter().map(|t| project(&meta, t)).collect();
        let p = table.project(a, id).expect("nodes");
        assert_eq!(listed(&table, p), projected, "round {round}: project");

        let mut images = Tuples::new();
        let mut pairs = BTreeSet::new();
        for t in &xs {
            for short in &rel {
                let (read, writes, label) = split(&meta, short);
                if read == project(&meta, t) {
                    let mut image = t.clone();
                    for &(slot, v) in &writes {
                        image[slot] = v;
                    }
                    images.insert(image.clone());
                    pairs.insert((t.clone(), label, image));
                }
            }
        }
        let img = table.rel_prod(a, r, id).expect("nodes");
        assert_eq!(listed(&table, img), images, "round {round}: {meta:?}");
        assert_eq!(
            table.count_pairs(a, r, id),
            pairs.len() as u128,
            "round {round}: count_pairs {meta:?}"
        );
    }
}

#[test]
fn the_node_limit_is_an_error_not_a_crash() {
    let mut table = Table::new(10);
    let tuples: Vec<Vec<u32>> = (0..50).map(|i| vec![i, i * 7 % 11, i % 3]).collect();
    let built = table.from_tuples(tuples.iter().map(Vec::as_slice));
    assert_eq!(built, Err(NodeLimit { max_nodes: 10 }));
    assert!(table.nodes() <= 10);
}
