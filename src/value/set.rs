//! Finite sets as sorted, duplicate-free vectors, and relations/functions/sequences as sets of pairs.
//!
//! All binary operations are linear merges; membership and function application are binary searches (a
//! relation is sorted by its pairs, hence by first component, so the pairs with a given first component form
//! one contiguous run).

use super::{Int, Value};
use std::cmp::Ordering;
use std::sync::Arc;

impl Value {
    /// A set from elements in any order, with duplicates.
    pub fn set_from_vec(mut items: Vec<Value>) -> Value {
        items.sort_unstable();
        items.dedup();
        Value::Set(Arc::new(items))
    }

    /// A set from elements that are already sorted and duplicate-free.
    pub fn set_from_sorted(items: Vec<Value>) -> Value {
        debug_assert!(items.windows(2).all(|w| w[0] < w[1]), "unsorted set");
        Value::Set(Arc::new(items))
    }

    /// The sequence `[items...]`, i.e. the function `{1|->i1, 2|->i2, ...}`.
    pub fn sequence(items: Vec<Value>) -> Value {
        let pairs = items
            .into_iter()
            .enumerate()
            .map(|(i, v)| Value::pair(Value::int(i as i64 + 1), v))
            .collect();
        Value::set_from_sorted(pairs)
    }

    /// The set `lo..hi` (empty when `lo > hi`); the caller bounds its size.
    pub fn interval(lo: &Int, hi: &Int) -> Value {
        let mut items = Vec::new();
        let mut i = lo.clone();
        while i <= *hi {
            items.push(Value::Int(i.clone()));
            i = i.succ();
        }
        Value::set_from_sorted(items)
    }

    pub fn as_int(&self) -> Option<&Int> {
        match self {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_set(&self) -> Option<&[Value]> {
        match self {
            Value::Set(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_pair(&self) -> Option<(&Value, &Value)> {
        match self {
            Value::Pair(p) => Some((&p.0, &p.1)),
            _ => None,
        }
    }

    /// The component of nested pairs at `path` (`false` = left; see `Expr::maplet_path`).
    pub fn component(&self, path: &[bool]) -> Option<Value> {
        let mut v = self;
        for &right in path {
            let (a, b) = v.as_pair()?;
            v = if right { b } else { a };
        }
        Some(v.clone())
    }

    /// The elements of a sequence in order, when this is a set of pairs whose domain is exactly `1..n`.
    pub fn as_sequence(&self) -> Option<Vec<Value>> {
        let items = self.as_set()?;
        let mut out = Vec::with_capacity(items.len());
        for (i, p) in items.iter().enumerate() {
            let (k, v) = p.as_pair()?;
            if k.as_int()? != &Int::Small(i as i64 + 1) {
                return None;
            }
            out.push(v.clone());
        }
        Some(out)
    }
}

pub fn contains(set: &[Value], x: &Value) -> bool {
    set.binary_search(x).is_ok()
}

pub fn union(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

pub fn intersection(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out
}

pub fn difference(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(a.len());
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j >= b.len() || b[j] != *x {
            out.push(x.clone());
        }
    }
    out
}

pub fn is_subset(a: &[Value], b: &[Value]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j >= b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}

/// `a * b`, already sorted because both factors are.
pub fn product(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            out.push(Value::pair(x.clone(), y.clone()));
        }
    }
    out
}

/// `struct(f1: S1, ...)` as a set: every record with field `fi` from `Si` (fields given sorted by name, the
/// sets sorted), or `None` when there are more than `limit`. Lexicographic generation keeps it sorted.
pub fn records(fields: &[(Arc<str>, Arc<Vec<Value>>)], limit: usize) -> Option<Vec<Value>> {
    let mut records: Vec<Vec<(Arc<str>, Value)>> = vec![Vec::new()];
    for (name, items) in fields {
        if records.len().saturating_mul(items.len()) > limit {
            return None;
        }
        records = records
            .into_iter()
            .flat_map(|r| {
                items.iter().map(move |x| {
                    let mut r = r.clone();
                    r.push((name.clone(), x.clone()));
                    r
                })
            })
            .collect();
    }
    Some(
        records
            .into_iter()
            .map(|r| Value::Record(Arc::new(r)))
            .collect(),
    )
}

/// All subsets of `a` (with `min_size` elements or more), or `None` when there are more than `limit`.
pub fn power_set(a: &[Value], min_size: usize, limit: usize) -> Option<Vec<Value>> {
    if a.len() >= usize::BITS as usize - 1 || (1usize << a.len()) > limit {
        return None;
    }
    let mut out = Vec::with_capacity(1 << a.len());
    for mask in 0usize..(1 << a.len()) {
        if (mask.count_ones() as usize) < min_size {
            continue;
        }
        let subset = a
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, x)| x.clone())
            .collect();
        out.push(Value::set_from_sorted(subset));
    }
    out.sort_unstable();
    Some(out)
}

/// The pairs of a relation whose first component is `x` (a contiguous run of the sorted relation).
pub fn pairs_from<'a>(rel: &'a [Value], x: &Value) -> &'a [Value] {
    fn key(p: &Value) -> Option<&Value> {
        p.as_pair().map(|(a, _)| a)
    }
    let start = rel.partition_point(|p| key(p).is_some_and(|a| a < x));
    let len = rel[start..].partition_point(|p| key(p).is_some_and(|a| a == x));
    &rel[start..start + len]
}

/// `dom(r)`: sorted because `r` is sorted by first component.
pub fn domain(rel: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = rel
        .iter()
        .filter_map(|p| p.as_pair().map(|(a, _)| a.clone()))
        .collect();
    out.dedup();
    out
}

/// `ran(r)`.
pub fn range(rel: &[Value]) -> Vec<Value> {
    let items: Vec<Value> = rel
        .iter()
        .filter_map(|p| p.as_pair().map(|(_, b)| b.clone()))
        .collect();
    match Value::set_from_vec(items) {
        Value::Set(v) => Arc::unwrap_or_clone(v),
        _ => unreachable!("set_from_vec builds a set"),
    }
}

/// Whether a relation is a (partial) function: no first component occurs twice.
pub fn is_function(rel: &[Value]) -> bool {
    rel.windows(2)
        .all(|w| match (w[0].as_pair(), w[1].as_pair()) {
            (Some((a, _)), Some((b, _))) => a != b,
            _ => false,
        })
}

/// Whether a function is injective.
pub fn is_injective(rel: &[Value]) -> bool {
    range(rel).len() == rel.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(items: &[i64]) -> Vec<Value> {
        match Value::set_from_vec(items.iter().map(|&i| Value::int(i)).collect()) {
            Value::Set(v) => (*v).clone(),
            _ => unreachable!(),
        }
    }

    fn rel(pairs: &[(i64, i64)]) -> Vec<Value> {
        let v = pairs
            .iter()
            .map(|&(a, b)| Value::pair(Value::int(a), Value::int(b)))
            .collect();
        Value::set_from_vec(v).as_set().expect("set").to_vec()
    }

    #[test]
    fn merge_operations() {
        let a = s(&[5, 1, 3, 3, -2]);
        let b = s(&[3, 4, 5, 6]);
        assert_eq!(a, s(&[-2, 1, 3, 5]));
        assert_eq!(union(&a, &b), s(&[-2, 1, 3, 4, 5, 6]));
        assert_eq!(intersection(&a, &b), s(&[3, 5]));
        assert_eq!(difference(&a, &b), s(&[-2, 1]));
        assert_eq!(difference(&b, &a), s(&[4, 6]));
        assert!(is_subset(&s(&[1, 5]), &a));
        assert!(!is_subset(&s(&[1, 4]), &a));
        assert!(is_subset(&[], &a));
        assert!(contains(&a, &Value::int(-2)));
        assert!(!contains(&a, &Value::int(2)));
    }

    #[test]
    fn products_powersets_and_relations() {
        let p = product(&s(&[1, 2]), &s(&[3, 4]));
        assert_eq!(p, rel(&[(1, 3), (1, 4), (2, 3), (2, 4)]));
        let ps = power_set(&s(&[1, 2, 3]), 0, 100).expect("small");
        assert_eq!(ps.len(), 8);
        assert_eq!(ps[0], Value::empty_set());
        assert_eq!(power_set(&s(&[1, 2, 3]), 1, 100).expect("small").len(), 7);
        assert!(power_set(&s(&[1, 2, 3]), 0, 7).is_none());
        let r = rel(&[(1, 10), (2, 20), (2, 21), (3, 30)]);
        assert_eq!(pairs_from(&r, &Value::int(2)), &r[1..3]);
        assert!(pairs_from(&r, &Value::int(7)).is_empty());
        assert_eq!(domain(&r), s(&[1, 2, 3]));
        assert_eq!(range(&r), s(&[10, 20, 21, 30]));
        assert!(!is_function(&r));
        assert!(is_function(&rel(&[(1, 5), (2, 5)])));
        assert!(!is_injective(&rel(&[(1, 5), (2, 5)])));
    }

    #[test]
    fn sequences_and_intervals() {
        let sq = Value::sequence(vec![Value::int(7), Value::int(7), Value::int(3)]);
        assert_eq!(
            sq.as_sequence(),
            Some(vec![Value::int(7), Value::int(7), Value::int(3)])
        );
        assert_eq!(Value::set_from_sorted(rel(&[(2, 1)])).as_sequence(), None);
        assert_eq!(Value::empty_set().as_sequence(), Some(vec![]));
        assert_eq!(
            Value::interval(&Int::Small(-1), &Int::Small(2)),
            Value::set_from_vec(s(&[-1, 0, 1, 2]))
        );
        assert_eq!(
            Value::interval(&Int::Small(3), &Int::Small(2)),
            Value::empty_set()
        );
    }
}
