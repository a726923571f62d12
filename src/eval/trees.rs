//! The B-Book's trees (ProB's tree operators). A tree over S is a finite function from paths — sequences
//! of positive integers, `[]` the root, `n ^ [i]` the i-th son of node n — to S, whose domain contains
//! the root and is closed under fathers and elder brothers; a binary tree has 0 or 2 sons at every node.
//! Values are plain B values of type `POW(seq(INTEGER) * S)`, so every other operator applies to them.
//!
//! * `tree(S)`, `btree(S)`: the sets of trees and binary trees over S, kept symbolic (infinite);
//! * `const(x, q)`: the tree of root x whose sons are the trees of the sequence q;
//! * `top(t)`, `sons(t)`, `sizet(t)` (number of nodes), `mirror(t)` (sons in reverse order, at every node);
//! * `prefix(t)`, `postfix(t)`: the node values in pre-order and post-order; `infix(t)` for binary trees;
//! * `rank(t, n) = last(n)`, `father(t, n) = front(n)`, `son(t, n, i) = n ^ [i]`, `arity(t, n)` (sons of
//!   n), `subtree(t, n)` (the tree below n) — each ill-defined when n (or its i-th son) is not a node;
//! * `bin(x)`, `bin(l, x, r)`, `left(t)`, `right(t)`: binary trees.

use super::{EvalError, wd_error};
use crate::diag::Span;
use crate::value::Value;
use std::collections::BTreeMap;

/// A decoded tree: each node's path and value, in path order (a node before its sons, sons in order).
pub(crate) type Nodes = BTreeMap<Vec<i64>, Value>;

/// The nodes of `t`, or None when `t` is not a function from paths of positive integers (`binary`:
/// nor a binary tree) whose domain holds the root and is closed under fathers and elder brothers.
pub(crate) fn decode(t: &Value, binary: bool) -> Option<Nodes> {
    let mut nodes = Nodes::new();
    for pair in t.as_set()? {
        let (path, v) = pair.as_pair()?;
        let path: Vec<i64> = path
            .as_sequence()?
            .iter()
            .map(|i| i.as_int()?.to_i64().filter(|&i| i >= 1))
            .collect::<Option<_>>()?;
        if nodes.insert(path, v.clone()).is_some() {
            return None;
        }
    }
    if !nodes.contains_key(&Vec::new()) {
        return None;
    }
    for path in nodes.keys() {
        if let Some((&last, father)) = path.split_last() {
            let mut brother = father.to_vec();
            brother.push(last - 1);
            if !nodes.contains_key(father) || (last > 1 && !nodes.contains_key(&brother)) {
                return None;
            }
        }
        if binary && !matches!(arity(&nodes, path), 0 | 2) {
            return None;
        }
    }
    Some(nodes)
}

/// The tree value of `nodes`.
pub(crate) fn encode(nodes: Nodes) -> Value {
    let mut pairs: Vec<Value> = nodes
        .into_iter()
        .map(|(path, v)| Value::pair(path_value(&path), v))
        .collect();
    pairs.sort();
    Value::set_from_sorted(pairs)
}

pub(crate) fn path_value(path: &[i64]) -> Value {
    Value::sequence(path.iter().map(|&i| Value::int(i)).collect())
}

/// The number of sons of node `path`.
pub(crate) fn arity(nodes: &Nodes, path: &[i64]) -> usize {
    let mut son = path.to_vec();
    son.push(1);
    let mut count = 0;
    while nodes.contains_key(&son) {
        count += 1;
        *son.last_mut().expect("a son") += 1;
    }
    count
}

/// The tree below node `path`.
pub(crate) fn subtree(nodes: &Nodes, path: &[i64]) -> Nodes {
    nodes
        .iter()
        .filter_map(|(p, v)| Some((p.strip_prefix(path)?.to_vec(), v.clone())))
        .collect()
}

/// The tree of root `x` with sons `sons`.
pub(crate) fn with_sons(x: Value, sons: &[Nodes]) -> Nodes {
    let mut nodes = Nodes::new();
    nodes.insert(Vec::new(), x);
    for (i, son) in sons.iter().enumerate() {
        for (p, v) in son {
            let mut path = vec![i as i64 + 1];
            path.extend(p);
            nodes.insert(path, v.clone());
        }
    }
    nodes
}

/// The sons of the root, in order.
pub(crate) fn sons(nodes: &Nodes) -> Vec<Nodes> {
    (1..=arity(nodes, &[]) as i64)
        .map(|i| subtree(nodes, &[i]))
        .collect()
}

/// The node values in pre-order (`post`: post-order).
pub(crate) fn traversal(nodes: &Nodes, post: bool) -> Vec<Value> {
    let mut out = Vec::with_capacity(nodes.len());
    visit(nodes, &mut Vec::new(), post, &mut out);
    out
}

fn visit(nodes: &Nodes, path: &mut Vec<i64>, post: bool, out: &mut Vec<Value>) {
    let value = nodes[path.as_slice()].clone();
    if !post {
        out.push(value.clone());
    }
    for i in 1..=arity(nodes, path) as i64 {
        path.push(i);
        visit(nodes, path, post, out);
        path.pop();
    }
    if post {
        out.push(value);
    }
}

/// The node values of a binary tree in order: left subtree, node, right subtree.
pub(crate) fn infix(nodes: &Nodes) -> Vec<Value> {
    let mut out = Vec::with_capacity(nodes.len());
    in_order(nodes, &mut Vec::new(), &mut out);
    out
}

fn in_order(nodes: &Nodes, path: &mut Vec<i64>, out: &mut Vec<Value>) {
    let has_sons = arity(nodes, path) == 2;
    if has_sons {
        path.push(1);
        in_order(nodes, path, out);
        path.pop();
    }
    out.push(nodes[path.as_slice()].clone());
    if has_sons {
        path.push(2);
        in_order(nodes, path, out);
        path.pop();
    }
}

/// The tree with the sons of every node in reverse order.
pub(crate) fn mirror(nodes: &Nodes) -> Nodes {
    nodes
        .iter()
        .map(|(path, v)| {
            let mirrored = (0..path.len())
                .map(|d| arity(nodes, &path[..d]) as i64 + 1 - path[d])
                .collect();
            (mirrored, v.clone())
        })
        .collect()
}

/// `n` as a path of `nodes`, or the well-definedness error of `op` at a non-node.
pub(crate) fn node(nodes: &Nodes, n: &Value, op: &str, span: Span) -> Result<Vec<i64>, EvalError> {
    let path: Option<Vec<i64>> = n
        .as_sequence()
        .and_then(|s| s.iter().map(|i| i.as_int()?.to_i64()).collect());
    match path {
        Some(p) if nodes.contains_key(&p) => Ok(p),
        Some(p) => Err(wd_error(
            span,
            format!("{op}: {p:?} is not a node of the tree"),
        )),
        None => Err(wd_error(span, format!("{op}: {n} is not a path"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tree with at most `n` nodes over {0, 1}, built by brute force: all sets of paths of
    /// length ≤ 2 with indices ≤ 2, labelled every way, kept when `decode` accepts them as trees,
    /// checked against the definition written out directly.
    #[test]
    fn decoding_accepts_exactly_the_trees() {
        let paths: Vec<Vec<i64>> = vec![
            vec![],
            vec![1],
            vec![2],
            vec![1, 1],
            vec![1, 2],
            vec![2, 1],
            vec![3],
        ];
        let mut trees = 0;
        for mask in 0u32..(1 << paths.len()) {
            let chosen: Vec<&Vec<i64>> = (0..paths.len())
                .filter(|k| mask & (1 << k) != 0)
                .map(|k| &paths[k])
                .collect();
            let is_tree = chosen.contains(&&vec![])
                && chosen.iter().all(|p| match p.split_last() {
                    None => true,
                    Some((&last, father)) => {
                        chosen.iter().any(|q| q.as_slice() == father)
                            && (last == 1
                                || chosen.iter().any(|q| {
                                    q.len() == p.len()
                                        && q[..father.len()] == *father
                                        && q[father.len()] == last - 1
                                }))
                    }
                });
            let value = encode(
                chosen
                    .iter()
                    .map(|p| ((*p).clone(), Value::int(0)))
                    .collect(),
            );
            assert_eq!(decode(&value, false).is_some(), is_tree, "{chosen:?}");
            if is_tree {
                trees += 1;
                let nodes = decode(&value, false).expect("a tree");
                // Rebuilding from the root's sons gives the tree back; pre- and post-order list every
                // node once; mirroring twice is the identity.
                assert_eq!(with_sons(Value::int(0), &sons(&nodes)), nodes);
                assert_eq!(traversal(&nodes, false).len(), nodes.len());
                assert_eq!(traversal(&nodes, true).len(), nodes.len());
                assert_eq!(mirror(&mirror(&nodes)), nodes);
            }
        }
        assert!(trees >= 8, "{trees} trees");
    }

    #[test]
    fn traversals_and_mirror_of_a_small_tree() {
        // 1 with sons 2 (with son 4) and 3.
        let nodes = with_sons(
            Value::int(1),
            &[
                with_sons(Value::int(2), &[with_sons(Value::int(4), &[])]),
                with_sons(Value::int(3), &[]),
            ],
        );
        let ints = |vs: Vec<Value>| -> Vec<i64> {
            vs.iter()
                .map(|v| v.as_int().and_then(|i| i.to_i64()).expect("int"))
                .collect()
        };
        assert_eq!(ints(traversal(&nodes, false)), vec![1, 2, 4, 3]);
        assert_eq!(ints(traversal(&nodes, true)), vec![4, 2, 3, 1]);
        assert_eq!(ints(traversal(&mirror(&nodes), false)), vec![1, 3, 2, 4]);
        let leaf = |x| with_sons(Value::int(x), &[]);
        let binary = with_sons(Value::int(5), &[leaf(6), leaf(7)]);
        assert_eq!(ints(infix(&binary)), vec![6, 5, 7]);
        assert!(decode(&encode(binary), true).is_some());
        assert!(decode(&encode(nodes), true).is_none());
    }
}
