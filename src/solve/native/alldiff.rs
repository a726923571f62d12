//! All-different reasoning over the model's distinct groups (atoms whose values must be pairwise
//! distinct: injective functions, `card({..}) = n`, and cliques of `/=` constraints between atoms).
//!
//! Value elimination (`search::distinct`) only removes a fixed atom's value from the others; this adds
//! the counting arguments forward checking cannot see: a group with fewer candidate values than atoms
//! fails (the pigeonhole principle), a set of k atoms whose domains lie within k values (a Hall set)
//! takes those values away from the rest of the group, and when a group must use all its candidate
//! values, a value only one atom can take is that atom's.

use super::domain::Dom;
use super::model::AtomId;
use super::search::Solver;
use crate::value::{Value, set};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Hall sets are searched in groups of at most this many atoms (the search is quadratic).
const MAX_HALL_GROUP: usize = 64;
/// Above this many `/=` edges, cliques are not searched: each edge is its own group.
const MAX_CLIQUE_EDGES: usize = 100_000;

/// Covers the edges of a disequality graph by cliques (every edge lies within some returned group, and
/// every group is a clique of the graph), greedily extending each uncovered edge by the candidate with
/// the most neighbours among the remaining candidates: rows, columns and boxes of a Sudoku come out
/// whole.
pub(crate) fn clique_cover(edges: &[(AtomId, AtomId)]) -> Vec<Vec<AtomId>> {
    let mut adj: FxHashMap<AtomId, FxHashSet<AtomId>> = FxHashMap::default();
    let mut sorted: Vec<(AtomId, AtomId)> = edges
        .iter()
        .filter(|(a, b)| a != b)
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() > MAX_CLIQUE_EDGES {
        return sorted.into_iter().map(|(a, b)| vec![a, b]).collect();
    }
    for &(a, b) in &sorted {
        adj.entry(a).or_default().insert(b);
        adj.entry(b).or_default().insert(a);
    }
    let mut covered: FxHashSet<(AtomId, AtomId)> = FxHashSet::default();
    let mut out = Vec::new();
    for &(a, b) in &sorted {
        if covered.contains(&(a, b)) {
            continue;
        }
        let mut clique = vec![a, b];
        let mut cand: Vec<AtomId> = adj[&a].intersection(&adj[&b]).copied().collect();
        cand.sort_unstable();
        while !cand.is_empty() {
            let best = *cand
                .iter()
                .max_by_key(|&&c| {
                    let n = &adj[&c];
                    (
                        cand.iter().filter(|d| n.contains(d)).count(),
                        std::cmp::Reverse(c),
                    )
                })
                .expect("candidates are not empty");
            clique.push(best);
            let n = &adj[&best];
            cand.retain(|c| n.contains(c));
        }
        clique.sort_unstable();
        for (i, &x) in clique.iter().enumerate() {
            for &y in &clique[i + 1..] {
                covered.insert((x, y));
            }
        }
        out.push(clique);
    }
    out
}

impl Solver<'_, '_> {
    /// Counting propagation on distinct group `g`; the atoms changed, or `None` when the group cannot be
    /// satisfied.
    pub(crate) fn hall(&mut self, g: usize) -> Option<Vec<AtomId>> {
        let model = self.model;
        let atoms = &model.distinct[g];
        let mut doms: Vec<Arc<Vec<Value>>> = Vec::with_capacity(atoms.len());
        for &a in atoms {
            match &self.doms[a] {
                Dom::Finite(v) => doms.push(v.clone()),
                // An unbounded atom could take any of infinitely many values: nothing to count.
                _ => return Some(Vec::new()),
            }
        }
        let mut changed = Vec::new();
        // Hall sets among the atoms' own domains: k atoms whose candidates lie within one atom's k
        // values use them all.
        let small = atoms.len() <= MAX_HALL_GROUP;
        for d in doms.clone().iter().filter(|_| small) {
            if d.len() <= 1 || d.len() >= atoms.len() {
                continue;
            }
            let inside: Vec<usize> = (0..atoms.len())
                .filter(|&j| set::is_subset(&doms[j], d))
                .collect();
            if inside.len() > d.len() {
                return None;
            }
            if inside.len() == d.len() {
                for j in 0..atoms.len() {
                    if inside.contains(&j) || !doms[j].iter().any(|v| set::contains(d, v)) {
                        continue;
                    }
                    let rest: Vec<Value> = doms[j]
                        .iter()
                        .filter(|v| !set::contains(d, v))
                        .cloned()
                        .collect();
                    if rest.is_empty() {
                        return None;
                    }
                    doms[j] = Arc::new(rest);
                    self.doms[atoms[j]] = Dom::Finite(doms[j].clone());
                    changed.push(atoms[j]);
                }
            }
        }
        let mut union: Vec<Value> = doms.iter().flat_map(|d| d.iter().cloned()).collect();
        union.sort();
        union.dedup();
        if union.len() < atoms.len() {
            return None;
        }
        // Exactly as many values as atoms: each value is taken, so one only a single atom can take is
        // that atom's.
        if union.len() == atoms.len() {
            for v in &union {
                let mut holders = (0..atoms.len()).filter(|&j| set::contains(&doms[j], v));
                let (Some(j), None) = (holders.next(), holders.next()) else {
                    continue;
                };
                if doms[j].len() > 1 {
                    doms[j] = Arc::new(vec![v.clone()]);
                    self.doms[atoms[j]] = Dom::Finite(doms[j].clone());
                    changed.push(atoms[j]);
                }
            }
        }
        Some(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(atoms: &[AtomId]) -> Vec<(AtomId, AtomId)> {
        let mut e = Vec::new();
        for (i, &a) in atoms.iter().enumerate() {
            for &b in &atoms[i + 1..] {
                e.push((b, a));
            }
        }
        e
    }

    #[test]
    fn a_complete_graph_is_one_clique() {
        assert_eq!(
            clique_cover(&complete(&[3, 1, 4, 5, 9])),
            vec![vec![1, 3, 4, 5, 9]]
        );
    }

    #[test]
    fn every_edge_is_covered_by_cliques_of_the_graph() {
        // Two triangles sharing vertex 2, plus a pendant edge and a self-loop (ignored).
        let edges = vec![
            (0, 1),
            (1, 2),
            (0, 2),
            (2, 3),
            (3, 4),
            (2, 4),
            (4, 7),
            (5, 5),
        ];
        let cover = clique_cover(&edges);
        let adj: FxHashSet<(AtomId, AtomId)> =
            edges.iter().flat_map(|&(a, b)| [(a, b), (b, a)]).collect();
        for c in &cover {
            for (i, &x) in c.iter().enumerate() {
                for &y in &c[i + 1..] {
                    assert!(adj.contains(&(x, y)), "{x} and {y} are not adjacent");
                }
            }
        }
        for &(a, b) in edges.iter().filter(|(a, b)| a != b) {
            assert!(cover.iter().any(|c| c.contains(&a) && c.contains(&b)));
        }
        assert!(cover.contains(&vec![0, 1, 2]));
        assert!(cover.contains(&vec![2, 3, 4]));
    }

    #[test]
    fn sudoku_rows_come_out_whole() {
        // A 4x4 grid with all-different rows and columns: 8 cliques of 4.
        let cell = |r: usize, c: usize| r * 4 + c;
        let mut edges = Vec::new();
        for k in 0..4 {
            edges.extend(complete(&(0..4).map(|c| cell(k, c)).collect::<Vec<_>>()));
            edges.extend(complete(&(0..4).map(|r| cell(r, k)).collect::<Vec<_>>()));
        }
        let cover = clique_cover(&edges);
        assert_eq!(cover.len(), 8);
        assert!(cover.iter().all(|c| c.len() == 4));
    }
}
