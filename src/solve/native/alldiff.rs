//! All-different reasoning over the model's distinct groups (atoms whose values must be pairwise
//! distinct: injective functions, `card({..}) = n`, and cliques of `/=` constraints between atoms).
//!
//! Value elimination (`search::distinct`) only removes a fixed atom's value from the others; this adds
//! the counting arguments forward checking cannot see: a group with fewer candidate values than atoms
//! fails (the pigeonhole principle), a set of k atoms whose domains lie within k values (a Hall set)
//! takes those values away from the rest of the group, and when a group must use all its candidate
//! values, a value only one atom can take is that atom's. A group whose pairs must differ in one
//! component (EulerOfficers' rows of ranks) counts components: k atoms whose pairs have only k first
//! components between them take those components from the rest of the group.

use super::domain::Dom;
use super::model::{AtomId, PairPart};
use super::search::Solver;
use crate::value::Value;
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

/// A group's candidate values as bits over a sorted universe of values (`Universe`): the Hall-set
/// search compares domains pairwise, which over `Value`s (pairs, sets) cost most of a puzzle's search.
struct Bits {
    words: usize,
    bits: Vec<u64>,
}

impl Bits {
    fn row(&self, j: usize) -> &[u64] {
        &self.bits[j * self.words..(j + 1) * self.words]
    }

    fn is_subset(&self, a: usize, b: usize) -> bool {
        self.row(a)
            .iter()
            .zip(self.row(b))
            .all(|(x, y)| x & !y == 0)
    }

    fn meets(&self, a: usize, b: usize) -> bool {
        self.row(a).iter().zip(self.row(b)).any(|(x, y)| x & y != 0)
    }

    fn has(&self, j: usize, v: usize) -> bool {
        self.row(j)[v / 64] >> (v % 64) & 1 == 1
    }

    fn count(&self, j: usize) -> usize {
        self.row(j).iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Removes `b`'s values from `a`.
    fn remove(&mut self, a: usize, b: usize) {
        for w in 0..self.words {
            self.bits[a * self.words + w] &= !self.bits[b * self.words + w];
        }
    }

    fn set_only(&mut self, j: usize, v: usize) {
        self.bits[j * self.words..(j + 1) * self.words].fill(0);
        self.bits[j * self.words + v / 64] |= 1 << (v % 64);
    }

    /// The counting arguments on a group of `n` atoms, narrowing the bits: which atoms changed, or
    /// `None` when the group cannot be satisfied.
    fn propagate(&mut self, n: usize) -> Option<Vec<bool>> {
        let mut touched = vec![false; n];
        // Hall sets among the atoms' own domains: k atoms whose candidates lie within one atom's k
        // values use them all.
        if n <= MAX_HALL_GROUP {
            for i in 0..n {
                let k = self.count(i);
                if k <= 1 || k >= n {
                    continue;
                }
                let inside: Vec<usize> = (0..n).filter(|&j| self.is_subset(j, i)).collect();
                if inside.len() > k {
                    return None;
                }
                if inside.len() == k {
                    for (j, t) in touched.iter_mut().enumerate() {
                        if inside.contains(&j) || !self.meets(j, i) {
                            continue;
                        }
                        self.remove(j, i);
                        if self.count(j) == 0 {
                            return None;
                        }
                        *t = true;
                    }
                }
            }
        }
        let mut union = vec![0u64; self.words];
        for j in 0..n {
            for (u, w) in union.iter_mut().zip(self.row(j)) {
                *u |= w;
            }
        }
        let values: Vec<usize> = (0..self.words * 64)
            .filter(|&v| union[v / 64] >> (v % 64) & 1 == 1)
            .collect();
        if values.len() < n {
            return None;
        }
        // Exactly as many values as atoms: each value is taken, so one only a single atom can take is
        // that atom's.
        if values.len() == n {
            for &v in &values {
                let mut holders = (0..n).filter(|&j| self.has(j, v));
                let (Some(j), None) = (holders.next(), holders.next()) else {
                    continue;
                };
                if self.count(j) > 1 {
                    self.set_only(j, v);
                    touched[j] = true;
                }
            }
        }
        Some(touched)
    }
}

/// An atom's domain as last seen and its bits.
type Row = (Arc<Vec<Value>>, Vec<u64>);

/// A group's universe of values with, per atom, the last domain mapped onto it and its bits: between
/// two propagations few domains change, and an unchanged one is the same shared vector.
pub(crate) struct GroupBits {
    /// The sorted keys the atoms must not share: their values, or one component of their pairs.
    universe: Vec<Value>,
    part: Option<PairPart>,
    rows: Vec<Option<Row>>,
}

/// What two atoms of a group must not share: the value, or one component of a pair.
fn key(part: Option<PairPart>, v: &Value) -> Option<&Value> {
    match part {
        None => Some(v),
        Some(p) => p.of(v),
    }
}

impl GroupBits {
    /// `None` when a value has no key (not a pair where a component is compared).
    fn new(doms: &[Arc<Vec<Value>>], part: Option<PairPart>) -> Option<GroupBits> {
        let mut universe = Vec::new();
        for v in doms.iter().flat_map(|d| d.iter()) {
            universe.push(key(part, v)?.clone());
        }
        universe.sort();
        universe.dedup();
        Some(GroupBits {
            universe,
            part,
            rows: vec![None; doms.len()],
        })
    }

    /// The domains as bits over the keys, or `None` when one holds a key outside the universe (the
    /// search backtracked above the node the universe was built at).
    fn bits(&mut self, doms: &[Arc<Vec<Value>>]) -> Option<Bits> {
        let words = self.universe.len().div_ceil(64).max(1);
        let mut bits = Vec::with_capacity(words * doms.len());
        for (d, row) in doms.iter().zip(&mut self.rows) {
            match row {
                Some((last, b)) if Arc::ptr_eq(last, d) => bits.extend_from_slice(b),
                _ => {
                    let b = row_bits(&self.universe, self.part, words, d)?;
                    bits.extend_from_slice(&b);
                    *row = Some((d.clone(), b));
                }
            }
        }
        Some(Bits { words, bits })
    }

    fn index(&self, v: &Value) -> Option<usize> {
        index(&self.universe, self.part, v)
    }
}

fn index(universe: &[Value], part: Option<PairPart>, v: &Value) -> Option<usize> {
    universe.binary_search(key(part, v)?).ok()
}

/// One domain as bits over the universe, `None` when a key is missing.
fn row_bits(
    universe: &[Value],
    part: Option<PairPart>,
    words: usize,
    dom: &[Value],
) -> Option<Vec<u64>> {
    let mut bits = vec![0u64; words];
    for v in dom {
        let u = index(universe, part, v)?;
        bits[u / 64] |= 1 << (u % 64);
    }
    Some(bits)
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
        // The universe is kept per group: domains only shrink below the node it was built at, and a
        // key outside it (after backtracking) rebuilds it.
        let part = model.distinct_part[g];
        let cached = self.group_bits.remove(&g);
        let Some((mut cache, mut bits)) = cached
            .and_then(|mut c| c.bits(&doms).map(|b| (c, b)))
            .or_else(|| {
                let mut c = GroupBits::new(&doms, part)?;
                let b = c.bits(&doms)?;
                Some((c, b))
            })
        else {
            // Values without the compared component: nothing to count.
            return Some(Vec::new());
        };
        let Some(touched) = bits.propagate(atoms.len()) else {
            self.group_bits.insert(g, cache);
            return None;
        };
        let mut changed = Vec::new();
        for j in (0..atoms.len()).filter(|&j| touched[j]) {
            // A group over one component keeps every pair whose component is still possible.
            let dom: Vec<Value> = doms[j]
                .iter()
                .filter(|v| cache.index(v).is_some_and(|u| bits.has(j, u)))
                .cloned()
                .collect();
            let dom = Arc::new(dom);
            cache.rows[j] = Some((dom.clone(), bits.row(j).to_vec()));
            self.doms[atoms[j]] = Dom::Finite(dom);
            changed.push(atoms[j]);
        }
        self.group_bits.insert(g, cache);
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
