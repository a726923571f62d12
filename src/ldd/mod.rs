//! List decision diagrams (LDDs): sets of equally long tuples of `u32`s with shared prefixes and
//! suffixes, as LTSmin stores reachable states and transition relations (Blom & van de Pol,
//! "Symbolic Reachability for Process Algebras with Recursive Data Types", 2008; Bendisposto et al.,
//! "Symbolic Reachability Analysis of B through ProB and LTSmin", iFM 2016, §3).
//!
//! A node is (value, down, right): the tuples starting with `value` continue as `down`; those starting
//! with a larger value are `right`. `EMPTY` is the empty set, `TRUE` the set holding the empty tuple.
//!
//! Invariants the table maintains: nodes are hash-consed (one id per (value, down, right)), so equal
//! sets have equal ids; `down` is never `EMPTY`; values along a `right` chain increase strictly. Every
//! operation is memoised in one lossy operation cache (`cache`: forgetting an entry only costs time). The table never holds more than `max_nodes` nodes: an operation that would exceed it
//! returns `NodeLimit` instead.
//!
//! Set operations: `set_ops` (union, difference, intersection, membership, counting, listing);
//! operations over projections of tuples on some of their slots: `relation` (projection, relational
//! product, counting related pairs).

mod cache;
mod relation;
mod set_ops;

pub use relation::{Meta, MetaId};

use rustc_hash::FxHashMap;

/// A node id: a set of tuples.
pub type Ldd = u32;

/// The empty set.
pub const EMPTY: Ldd = 0;
/// The set holding only the empty tuple (the end of every tuple).
pub const TRUE: Ldd = 1;

/// The node table ran out of the nodes it was allowed (`Table::new`'s `max_nodes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeLimit {
    pub max_nodes: usize,
}

impl std::fmt::Display for NodeLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LDD node limit of {} nodes reached", self.max_nodes)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Node {
    value: u32,
    down: Ldd,
    right: Ldd,
}

/// What an operation cache entry is the result of.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Op {
    Union,
    Minus,
    Intersect,
    /// Projection on a meta's slots, from the given slot on.
    Project(MetaId, u32),
    /// Relational product under a meta, from the given slot on.
    RelProd(MetaId, u32),
    /// Related pairs under a meta, from the given slot on (`relation::count_pairs`).
    CountPairs(MetaId, u32),
}

impl Op {
    /// The operation as one number for the cache (meta ids and slots are far below 2^24).
    fn code(self) -> u64 {
        let with = |tag: u64, meta: MetaId, slot: u32| {
            tag | u64::from(meta.0) << 8 | u64::from(slot) << 32
        };
        match self {
            Op::Union => 0,
            Op::Minus => 1,
            Op::Intersect => 2,
            Op::Project(meta, slot) => with(3, meta, slot),
            Op::RelProd(meta, slot) => with(4, meta, slot),
            Op::CountPairs(meta, slot) => with(5, meta, slot),
        }
    }
}

/// The node table: hash-consed nodes, the operation cache and the metas of relations.
pub struct Table {
    nodes: Vec<Node>,
    unique: FxHashMap<Node, Ldd>,
    cache: cache::OpCache<Ldd>,
    /// Counts of related pairs (`relation::count_pairs`), a separate cache since its results are
    /// numbers.
    pair_counts: cache::OpCache<u128>,
    /// Tuples in each node (`set_ops::count`), kept: a node's count never changes.
    counts: FxHashMap<Ldd, u128>,
    metas: Vec<Meta>,
    max_nodes: usize,
    cache_hits: u64,
}

/// Bytes a node costs in the table: the node, and its entry in the unique table.
pub const BYTES_PER_NODE: usize = 48;

impl Table {
    /// An empty table that will hold at most `max_nodes` nodes (the two terminals included).
    pub fn new(max_nodes: usize) -> Table {
        let terminal = |id| Node {
            value: u32::MAX,
            down: id,
            right: id,
        };
        Table {
            nodes: vec![terminal(EMPTY), terminal(TRUE)],
            unique: FxHashMap::default(),
            cache: cache::OpCache::new(),
            pair_counts: cache::OpCache::new(),
            counts: FxHashMap::default(),
            metas: Vec::new(),
            // Node ids are u32s.
            max_nodes: max_nodes.clamp(2, u32::MAX as usize),
            cache_hits: 0,
        }
    }

    /// Nodes in the table, the two terminals included.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Operations answered from the operation cache.
    pub fn cache_hits(&self) -> u64 {
        self.cache_hits
    }

    /// The node (value, down, right), `right` when `down` is empty. `right` must hold only tuples
    /// starting with values above `value`.
    fn node(&mut self, value: u32, down: Ldd, right: Ldd) -> Result<Ldd, NodeLimit> {
        if down == EMPTY {
            return Ok(right);
        }
        debug_assert!(right == EMPTY || self.nodes[right as usize].value > value);
        let node = Node { value, down, right };
        if let Some(&id) = self.unique.get(&node) {
            return Ok(id);
        }
        if self.nodes.len() >= self.max_nodes {
            return Err(NodeLimit {
                max_nodes: self.max_nodes,
            });
        }
        let id = self.nodes.len() as Ldd;
        self.nodes.push(node);
        self.unique.insert(node, id);
        Ok(id)
    }

    /// The (value, down) pairs of a node's right chain, in increasing value order.
    fn children(&self, mut a: Ldd) -> Vec<(u32, Ldd)> {
        let mut out = Vec::new();
        while a > TRUE {
            let n = self.nodes[a as usize];
            out.push((n.value, n.down));
            a = n.right;
        }
        out
    }

    /// Per (value, down) pair of `a`'s chain, the down of the same value in `b`'s chain (`EMPTY` when
    /// `b` has no such value): (value, `a`'s down, `b`'s down).
    fn aligned(&self, a: Ldd, b: Ldd) -> Vec<(u32, Ldd, Ldd)> {
        let ys = self.children(b);
        let mut j = 0;
        let mut out = Vec::new();
        for (v, x) in self.children(a) {
            while j < ys.len() && ys[j].0 < v {
                j += 1;
            }
            let y = match ys.get(j) {
                Some(&(w, y)) if w == v => y,
                _ => EMPTY,
            };
            out.push((v, x, y));
        }
        out
    }

    /// The node whose chain is `pairs` (values strictly increasing; empty downs are left out).
    fn chain(&mut self, pairs: &[(u32, Ldd)]) -> Result<Ldd, NodeLimit> {
        let mut out = EMPTY;
        for &(value, down) in pairs.iter().rev() {
            out = self.node(value, down, out)?;
        }
        Ok(out)
    }

    fn cached(&mut self, (op, a, b): (Op, Ldd, Ldd)) -> Option<Ldd> {
        let found = self.cache.get(op.code(), a, b);
        self.cache_hits += u64::from(found.is_some());
        found
    }

    fn remember(&mut self, (op, a, b): (Op, Ldd, Ldd), result: Ldd) {
        self.cache.put(op.code(), a, b, result);
    }
}

#[cfg(test)]
mod tests;
