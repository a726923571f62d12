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

/// `closure1(r)`: the transitive closure, by repeated composition until nothing new appears.
pub(crate) fn transitive_closure(r: &[Value], span: Span) -> Result<Vec<Value>, EvalError> {
    let mut closure = r.to_vec();
    loop {
        let step = compose(&closure, r, span)?;
        let next = set::union(&closure, &step);
        if next.len() == closure.len() {
            return Ok(closure);
        }
        closure = next;
    }
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
            transitive_closure(&r, span).expect("closure"),
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
}
