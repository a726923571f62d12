//! Relational operators on finite relations (sorted sets of pairs).

use super::{EvalError, internal_error};
use crate::diag::Span;
use crate::value::{Value, set};
use std::sync::Arc;

fn pair(p: &Value, span: Span) -> Result<(&Value, &Value), EvalError> {
    p.as_pair()
        .ok_or_else(|| internal_error(span, "a relation contains a non-pair"))
}

fn sorted(v: Vec<Value>) -> Vec<Value> {
    match Value::set_from_vec(v) {
        Value::Set(items) => Arc::unwrap_or_clone(items),
        _ => unreachable!("set_from_vec builds a set"),
    }
}

pub(crate) fn inverse(r: &[Value], span: Span) -> Result<Vec<Value>, EvalError> {
    let mut out = Vec::with_capacity(r.len());
    for p in r {
        let (a, b) = pair(p, span)?;
        out.push(Value::pair(b.clone(), a.clone()));
    }
    Ok(sorted(out))
}

/// `r1 <+ r2`: the pairs of r2, and those of r1 whose first component is not in dom(r2).
pub(crate) fn overwrite(r1: &[Value], r2: &[Value], span: Span) -> Result<Vec<Value>, EvalError> {
    let dom2 = set::domain(r2);
    let mut out = Vec::with_capacity(r1.len() + r2.len());
    for p in r1 {
        if !set::contains(&dom2, pair(p, span)?.0) {
            out.push(p.clone());
        }
    }
    Ok(set::union(&out, r2))
}

/// `(r1 ; r2)` for finite relations.
pub(crate) fn compose(r1: &[Value], r2: &[Value], span: Span) -> Result<Vec<Value>, EvalError> {
    let mut out = Vec::new();
    for p in r1 {
        let (a, b) = pair(p, span)?;
        for q in set::pairs_from(r2, b) {
            out.push(Value::pair(a.clone(), pair(q, span)?.1.clone()));
        }
    }
    Ok(sorted(out))
}

/// `r1 >< r2 = {x |-> (y |-> z) | x|->y : r1 & x|->z : r2}`.
pub(crate) fn direct_product(
    r1: &[Value],
    r2: &[Value],
    span: Span,
) -> Result<Vec<Value>, EvalError> {
    let mut out = Vec::new();
    for p in r1 {
        let (x, y) = pair(p, span)?;
        for q in set::pairs_from(r2, x) {
            out.push(Value::pair(
                x.clone(),
                Value::pair(y.clone(), pair(q, span)?.1.clone()),
            ));
        }
    }
    Ok(sorted(out))
}

/// `(r1 || r2) = {(x |-> v) |-> (y |-> w) | x|->y : r1 & v|->w : r2}`.
pub(crate) fn parallel_product(
    r1: &[Value],
    r2: &[Value],
    span: Span,
) -> Result<Vec<Value>, EvalError> {
    let mut out = Vec::with_capacity(r1.len() * r2.len());
    for p in r1 {
        let (x, y) = pair(p, span)?;
        for q in r2 {
            let (v, w) = pair(q, span)?;
            out.push(Value::pair(
                Value::pair(x.clone(), v.clone()),
                Value::pair(y.clone(), w.clone()),
            ));
        }
    }
    Ok(sorted(out))
}

/// `closure1(r)`: the transitive closure, by a graph search from each element of `dom(r)` over `r`'s
/// successor lists: work in proportion to the closure's size times the out-degree, where repeated
/// composition until nothing new appears takes a pass per step of the longest path (a 1,000-step
/// chain: 1,000 compositions of a 500,000-pair relation). `check` is called once per source (the
/// deadline).
pub(crate) fn transitive_closure(
    r: &[Value],
    span: Span,
    mut check: impl FnMut() -> Result<(), EvalError>,
) -> Result<Vec<Value>, EvalError> {
    // Nodes numbered in value order, so that sorting numbers sorts values.
    let mut nodes: Vec<&Value> = Vec::with_capacity(2 * r.len());
    for p in r {
        let (x, y) = pair(p, span)?;
        nodes.push(x);
        nodes.push(y);
    }
    nodes.sort();
    nodes.dedup();
    let index: rustc_hash::FxHashMap<&Value, usize> =
        nodes.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for p in r {
        let (x, y) = pair(p, span)?;
        successors[index[x]].push(index[y]);
    }
    let mut out = Vec::new();
    let mut seen = vec![usize::MAX; nodes.len()];
    let mut stack = Vec::new();
    let mut reached = Vec::new();
    // `r` is sorted by its first components: the sources come in value order.
    for source in 0..nodes.len() {
        if successors[source].is_empty() {
            continue;
        }
        check()?;
        reached.clear();
        stack.extend_from_slice(&successors[source]);
        while let Some(n) = stack.pop() {
            if seen[n] == source {
                continue;
            }
            seen[n] = source;
            reached.push(n);
            stack.extend(successors[n].iter().copied().filter(|&m| seen[m] != source));
        }
        reached.sort_unstable();
        out.extend(
            reached
                .iter()
                .map(|&t| Value::pair(nodes[source].clone(), nodes[t].clone())),
        );
    }
    Ok(out)
}

/// `fnc(r) = {x |-> r[{x}] | x : dom(r)}`.
pub(crate) fn fnc(r: &[Value]) -> Vec<Value> {
    set::domain(r)
        .into_iter()
        .map(|x| {
            let image = set::pairs_from(r, &x)
                .iter()
                .filter_map(|p| p.as_pair().map(|(_, b)| b.clone()))
                .collect();
            Value::pair(x, Value::set_from_sorted(image))
        })
        .collect()
}

/// `rel(f) = {x |-> y | x|->S : f & y : S}`.
pub(crate) fn rel(f: &[Value], span: Span) -> Result<Vec<Value>, EvalError> {
    let mut out = Vec::new();
    for p in f {
        let (x, s) = pair(p, span)?;
        let items = s
            .as_set()
            .ok_or_else(|| internal_error(span, "rel of a relation to non-sets"))?;
        for y in items {
            out.push(Value::pair(x.clone(), y.clone()));
        }
    }
    Ok(sorted(out))
}

/// Keeps the pairs whose first (`first = true`) or second component passes `keep`.
pub(crate) fn filter_pairs(
    r: &[Value],
    first: bool,
    span: Span,
    mut keep: impl FnMut(&Value) -> Result<bool, EvalError>,
) -> Result<Vec<Value>, EvalError> {
    let mut out = Vec::new();
    for p in r {
        let (a, b) = pair(p, span)?;
        if keep(if first { a } else { b })? {
            out.push(p.clone());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel_of(pairs: &[(i64, i64)]) -> Vec<Value> {
        sorted(
            pairs
                .iter()
                .map(|&(a, b)| Value::pair(Value::int(a), Value::int(b)))
                .collect(),
        )
    }

    #[test]
    fn closure_and_composition() {
        let span = Span::default();
        let r = rel_of(&[(1, 2), (2, 3), (3, 4)]);
        assert_eq!(
            transitive_closure(&r, span, || Ok(())).expect("closure"),
            rel_of(&[(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)])
        );
        assert_eq!(
            compose(&r, &r, span).expect("compose"),
            rel_of(&[(1, 3), (2, 4)])
        );
        assert_eq!(
            overwrite(&rel_of(&[(1, 1), (2, 2)]), &rel_of(&[(2, 5)]), span).expect("override"),
            rel_of(&[(1, 1), (2, 5)])
        );
        assert_eq!(
            inverse(&r, span).expect("inverse"),
            rel_of(&[(2, 1), (3, 2), (4, 3)])
        );
    }

    /// The closure by repeated composition until nothing new appears: the definition, as the oracle.
    fn closure_by_composition(r: &[Value]) -> Vec<Value> {
        let span = Span::default();
        let mut closure = r.to_vec();
        loop {
            let next = set::union(&closure, &compose(&closure, r, span).expect("compose"));
            if next.len() == closure.len() {
                return closure;
            }
            closure = next;
        }
    }

    /// Random relations over 0..6 (cycles, self-loops, chains): the graph search agrees with the
    /// definition.
    #[test]
    fn closure_agrees_with_repeated_composition_on_random_relations() {
        let mut seed: u64 = 0x5eed_c105;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..500 {
            let n = next() % 12;
            let pairs: Vec<(i64, i64)> = (0..n)
                .map(|_| ((next() % 6) as i64, (next() % 6) as i64))
                .collect();
            let r = rel_of(&pairs);
            let fast = transitive_closure(&r, Span::default(), || Ok(())).expect("closure");
            assert_eq!(fast, closure_by_composition(&r), "{pairs:?}");
        }
    }

    #[test]
    fn closure_stops_when_told() {
        let r = rel_of(&[(1, 2), (2, 3)]);
        let stop = || Err(internal_error(Span::default(), "stop"));
        assert!(transitive_closure(&r, Span::default(), stop).is_err());
    }
}
