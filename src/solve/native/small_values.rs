//! Small values of a type or of a known set, smallest first, for unknowns whose candidates cannot be
//! listed (infinite types, or more values than the enumeration limit): a user's question is usually
//! answered by a tiny value (`r = {}`, `s = [a]`), which ProB finds at once.
//!
//! Integers come nearest 0 first (within MININT..MAXINT before beyond); products, subsets, sequences,
//! records and functions are built from the small values of their parts in order of total *weight*, the
//! weight of a part being its position in its own list plus one. Every part grows in turn (a diagonal
//! order) instead of one part running through all its values first.
//!
//! Every list is bounded by a budget. A list is `complete` only when it holds every value asked for;
//! a search labelling from an incomplete list proves nothing by finding no solution.

use crate::diag::Span;
use crate::eval::{Context, EvalError, SymbolicSet, Val};
use crate::ir::{BinaryOp, UnaryOp};
use crate::types::Type;
use crate::value::{Int, Value};

/// Small values, smallest first, and whether they are all the values asked for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Small {
    pub values: Vec<Value>,
    pub complete: bool,
}

impl Small {
    fn all(values: Vec<Value>) -> Small {
        Small {
            values,
            complete: true,
        }
    }
}

/// How many values `Context::type_values` lists for `ty` (INTEGER cut to MININT..MAXINT, STRING
/// none), without listing them; `None` when that exceeds `u64` or a given set is unknown. A type too
/// large to list is recognised before its values are built.
pub(crate) fn listed_size(ctx: &Context, ty: &Type, span: Span) -> Option<u64> {
    match ty {
        Type::Integer => {
            let (min, max) = ctx.int_cut();
            let width = max.sub(&min);
            width
                .succ()
                .to_i64()
                .and_then(|n| u64::try_from(n.max(0)).ok())
        }
        Type::Bool => Some(2),
        Type::String => Some(0),
        Type::Given(name) => ctx.given_set(name, span).ok().map(|s| s.len() as u64),
        Type::Set(elem) => {
            let n = listed_size(ctx, elem, span)?;
            (n < 64).then(|| 1u64 << n)
        }
        Type::Pair(a, b) => listed_size(ctx, a, span)?.checked_mul(listed_size(ctx, b, span)?),
        Type::Struct(fields) => fields.iter().try_fold(1u64, |acc, (_, t)| {
            acc.checked_mul(listed_size(ctx, t, span)?)
        }),
        Type::TlaValue | Type::Var(_) => None,
    }
}

/// At most `budget` small values of type `ty`.
pub(crate) fn of_type(
    ctx: &Context,
    ty: &Type,
    budget: usize,
    span: Span,
) -> Result<Small, EvalError> {
    Ok(match ty {
        Type::Integer => ints(ctx, None, None, budget),
        Type::Bool => Small::all(vec![Value::Bool(false), Value::Bool(true)]),
        // Strings have no natural order of size; a few short ones stand for all.
        Type::String => Small {
            values: ["", "a", "b"]
                .iter()
                .take(budget)
                .map(|s| Value::Str((*s).into()))
                .collect(),
            complete: false,
        },
        Type::Given(name) => take(&ctx.given_set(name, span)?, budget),
        // A TLA+ value of mixed kind: small integers stand for all (never complete).
        Type::TlaValue => Small {
            complete: false,
            ..ints(ctx, None, None, budget)
        },
        Type::Set(elem) => subsets(&of_type(ctx, elem, budget, span)?, budget, false),
        Type::Pair(a, b) => pairs(
            &of_type(ctx, a, budget, span)?,
            &of_type(ctx, b, budget, span)?,
            budget,
        ),
        Type::Struct(fields) => {
            let mut parts = Vec::with_capacity(fields.len());
            for (_, t) in fields {
                parts.push(of_type(ctx, t, budget, span)?);
            }
            records(
                fields.iter().map(|(n, _)| n.clone()).collect(),
                &parts,
                budget,
            )
        }
        Type::Var(_) => return Err(crate::eval::internal_error(span, "untyped variable")),
    })
}

/// At most `budget` small members of `set`, whose members have type `ty`. Members of sets without a
/// structure to build them by (comprehensions, intersections, ...) are small values of the type that the
/// interpreter finds in the set.
pub(crate) fn members(
    ctx: &Context,
    set: &Val,
    ty: &Type,
    budget: usize,
    span: Span,
) -> Result<Small, EvalError> {
    ctx.check_deadline(span)?;
    let sym = match set {
        Val::Value(Value::Set(items)) => return Ok(take(items, budget)),
        Val::Value(_) => return Err(crate::eval::internal_error(span, "members of a non-set")),
        Val::Sym(sym) => sym,
    };
    let elem = |t: &Type| match t {
        Type::Set(e) => Some((**e).clone()),
        _ => None,
    };
    let halves = |t: &Type| match t {
        Type::Pair(a, b) => Some(((**a).clone(), (**b).clone())),
        _ => None,
    };
    match &**sym {
        SymbolicSet::Interval(lo, hi) => Ok(ints(ctx, lo.as_ref(), hi.as_ref(), budget)),
        SymbolicSet::PowerSet { base, non_empty } => {
            let Some(e) = elem(ty) else {
                return filtered(ctx, set, ty, budget, span);
            };
            let base = members(ctx, base, &e, budget, span)?;
            Ok(subsets(&base, budget, *non_empty))
        }
        SymbolicSet::Sequences(kind, base) => {
            let Some((_, e)) = elem(ty).as_ref().and_then(halves) else {
                return filtered(ctx, set, ty, budget, span);
            };
            let base = members(ctx, base, &e, budget, span)?;
            let seqs = match kind {
                UnaryOp::Seq => sequences(&base, budget, 0, false),
                UnaryOp::Seq1 => sequences(&base, budget, 1, false),
                UnaryOp::Iseq => sequences(&base, budget, 0, true),
                UnaryOp::Iseq1 => sequences(&base, budget, 1, true),
                // A permutation is an injective sequence that is onto S: among those, the set decides.
                _ => sequences(&base, budget, 0, true),
            };
            keep_members(ctx, set, seqs, span)
        }
        SymbolicSet::Arrow(op, from, to) => {
            let Some((a, b)) = elem(ty).as_ref().and_then(halves) else {
                return filtered(ctx, set, ty, budget, span);
            };
            let total = matches!(
                op,
                BinaryOp::TotalFunction
                    | BinaryOp::TotalInjection
                    | BinaryOp::TotalSurjection
                    | BinaryOp::TotalBijection
            );
            let from = members(ctx, from, &a, budget, span)?;
            let to = members(ctx, to, &b, budget, span)?;
            let candidates = if total && from.complete {
                total_functions(&from.values, &to, budget)
            } else {
                subsets(&pairs(&from, &to, budget), budget, false)
            };
            keep_members(ctx, set, candidates, span)
        }
        SymbolicSet::Product(x, y) => {
            let Some((a, b)) = halves(ty) else {
                return filtered(ctx, set, ty, budget, span);
            };
            Ok(pairs(
                &members(ctx, x, &a, budget, span)?,
                &members(ctx, y, &b, budget, span)?,
                budget,
            ))
        }
        SymbolicSet::Struct(fields) => {
            let Type::Struct(types) = ty else {
                return filtered(ctx, set, ty, budget, span);
            };
            let mut parts = Vec::with_capacity(fields.len());
            for ((_, s), (_, t)) in fields.iter().zip(types) {
                parts.push(members(ctx, s, t, budget, span)?);
            }
            Ok(records(
                fields.iter().map(|(n, _)| n.clone()).collect(),
                &parts,
                budget,
            ))
        }
        SymbolicSet::Union(x, y) => {
            let x = members(ctx, x, ty, budget, span)?;
            let y = members(ctx, y, ty, budget, span)?;
            Ok(interleave(&x, &y, budget))
        }
        // The members of an intersection or a difference are members of its first set.
        SymbolicSet::Inter(x, _) | SymbolicSet::Minus(x, _) => {
            let x = members(ctx, x, ty, budget, span)?;
            keep_members(ctx, set, x, span)
        }
        SymbolicSet::Identity(x) => {
            let Some((a, _)) = halves(ty) else {
                return filtered(ctx, set, ty, budget, span);
            };
            let x = members(ctx, x, &a, budget, span)?;
            Ok(Small {
                values: x
                    .values
                    .iter()
                    .map(|v| Value::pair(v.clone(), v.clone()))
                    .collect(),
                complete: x.complete,
            })
        }
        SymbolicSet::Strings
        | SymbolicSet::Comprehension { .. }
        | SymbolicSet::Lambda { .. }
        | SymbolicSet::Trees { .. } => filtered(ctx, set, ty, budget, span),
    }
}

/// At most `budget` small subsets of `set` (members of type `elem`), the empty set first.
pub(crate) fn subsets_of(
    ctx: &Context,
    set: &Val,
    elem: &Type,
    budget: usize,
    span: Span,
) -> Result<Small, EvalError> {
    Ok(subsets(
        &members(ctx, set, elem, budget, span)?,
        budget,
        false,
    ))
}

/// Small values of the type that are members of `set`.
fn filtered(
    ctx: &Context,
    set: &Val,
    ty: &Type,
    budget: usize,
    span: Span,
) -> Result<Small, EvalError> {
    let values = of_type(ctx, ty, budget, span)?;
    keep_members(ctx, set, values, span)
}

/// The candidates the interpreter finds in `set`. A candidate whose membership cannot be decided is
/// left out, and the list is then incomplete.
fn keep_members(ctx: &Context, set: &Val, small: Small, span: Span) -> Result<Small, EvalError> {
    let mut complete = small.complete;
    let mut values = Vec::with_capacity(small.values.len());
    for v in small.values {
        match ctx.contains(set, &v, span) {
            Ok(true) => values.push(v),
            Ok(false) => {}
            Err(e) if e.is_timeout() => return Err(e),
            Err(_) => complete = false,
        }
    }
    Ok(Small { values, complete })
}

fn take(items: &[Value], budget: usize) -> Small {
    Small {
        values: items.iter().take(budget).cloned().collect(),
        complete: items.len() <= budget,
    }
}

/// Integers of `lo..hi` (open ends unbounded) nearest 0 first: those within MININT..MAXINT, then the
/// others.
fn ints(ctx: &Context, lo: Option<&Int>, hi: Option<&Int>, budget: usize) -> Small {
    let (min, max) = ctx.int_cut();
    let tighter_lo = match lo {
        Some(l) if *l > min => l.clone(),
        _ => min,
    };
    let tighter_hi = match hi {
        Some(h) if *h < max => h.clone(),
        _ => max,
    };
    let mut values = Vec::new();
    let Some((wl, wh)) = (tighter_lo <= tighter_hi).then_some((tighter_lo, tighter_hi)) else {
        let exhausted = walk(lo, hi, budget, &mut values, |_| true);
        return Small {
            values,
            complete: exhausted,
        };
    };
    let window_done = walk(Some(&wl), Some(&wh), budget, &mut values, |_| true);
    let beyond = lo.is_none_or(|l| *l < wl) || hi.is_none_or(|h| *h > wh);
    if values.len() >= budget || !beyond {
        return Small {
            values,
            complete: window_done && !beyond,
        };
    }
    // The window was walked whole and holds fewer than `budget` values: skipping them is cheap.
    let exhausted = walk(lo, hi, budget, &mut values, |x| *x < wl || *x > wh);
    Small {
        values,
        complete: exhausted,
    }
}

/// Pushes the integers of `lo..hi` that `keep` accepts, by distance from the point nearest 0, until
/// `out` holds `budget` values; whether the interval was walked to its ends.
fn walk(
    lo: Option<&Int>,
    hi: Option<&Int>,
    budget: usize,
    out: &mut Vec<Value>,
    keep: impl Fn(&Int) -> bool,
) -> bool {
    let zero = Int::zero();
    let anchor = match (lo, hi) {
        (Some(l), _) if *l > zero => l.clone(),
        (_, Some(h)) if *h < zero => h.clone(),
        _ => zero,
    };
    // `up` and `down` move away from the anchor, `up` first; they start together on the anchor.
    let (mut up, mut down) = (anchor.clone(), anchor);
    let within = |x: &Int| lo.is_none_or(|l| *x >= *l) && hi.is_none_or(|h| *x <= *h);
    loop {
        let up_in = within(&up);
        let down_in = down != up && within(&down);
        if !up_in && !down_in {
            return true;
        }
        for (inside, x) in [(up_in, &up), (down_in, &down)] {
            if inside && keep(x) {
                if out.len() >= budget {
                    return false;
                }
                out.push(Value::Int(x.clone()));
            }
        }
        up = up.succ();
        down = down.pred();
    }
}

/// Calls `visit` on the index vectors `i` with `i[j] < lens[j]`, by increasing sum of indices, until it
/// returns false; whether all were visited.
fn by_weight(lens: &[usize], visit: &mut dyn FnMut(&[usize]) -> bool) -> bool {
    if lens.contains(&0) {
        return true;
    }
    let max_weight: usize = lens.iter().map(|n| n - 1).sum();
    // What the lists after position j can still absorb.
    let mut rest = vec![0; lens.len() + 1];
    for j in (0..lens.len()).rev() {
        rest[j] = rest[j + 1] + lens[j] - 1;
    }
    fn fill(
        j: usize,
        left: usize,
        lens: &[usize],
        rest: &[usize],
        current: &mut Vec<usize>,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if j == lens.len() {
            return left > 0 || visit(current);
        }
        let low = left.saturating_sub(rest[j + 1]);
        for i in low..=left.min(lens[j] - 1) {
            current.push(i);
            let go_on = fill(j + 1, left - i, lens, rest, current, visit);
            current.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
    let mut current = Vec::with_capacity(lens.len());
    (0..=max_weight).all(|w| fill(0, w, lens, &rest, &mut current, visit))
}

/// Weighted tuples of the parts' values, each built by `build`.
fn product(parts: &[&Small], budget: usize, build: impl Fn(Vec<Value>) -> Value) -> Small {
    let lens: Vec<usize> = parts.iter().map(|p| p.values.len()).collect();
    let mut values = Vec::new();
    let exhausted = by_weight(&lens, &mut |idx| {
        if values.len() >= budget {
            return false;
        }
        values.push(build(
            idx.iter()
                .zip(parts)
                .map(|(&i, p)| p.values[i].clone())
                .collect(),
        ));
        true
    });
    Small {
        values,
        complete: exhausted && parts.iter().all(|p| p.complete),
    }
}

fn pairs(a: &Small, b: &Small, budget: usize) -> Small {
    product(&[a, b], budget, |mut xy| {
        let y = xy.pop().expect("two parts");
        let x = xy.pop().expect("two parts");
        Value::pair(x, y)
    })
}

fn records(names: Vec<crate::syntax::ast::Name>, parts: &[Small], budget: usize) -> Small {
    let refs: Vec<&Small> = parts.iter().collect();
    product(&refs, budget, |values| {
        Value::Record(std::sync::Arc::new(
            names
                .iter()
                .map(|n| -> std::sync::Arc<str> { (**n).into() })
                .zip(values)
                .collect(),
        ))
    })
}

/// Total functions on `domain` (all of it) with images among `range`, by weight of the images.
fn total_functions(domain: &[Value], range: &Small, budget: usize) -> Small {
    let parts: Vec<&Small> = domain.iter().map(|_| range).collect();
    product(&parts, budget, |images| {
        Value::set_from_sorted(
            domain
                .iter()
                .cloned()
                .zip(images)
                .map(|(x, y)| Value::pair(x, y))
                .collect(),
        )
    })
}

/// Which tuples of positions `weighted_tuples` produces.
#[derive(Clone, Copy, PartialEq)]
enum Positions {
    /// Strictly increasing: each set of positions once.
    Increasing,
    /// Without repeated positions, in any order.
    Distinct,
    /// Any positions, repeats allowed.
    Any,
}

/// Calls `visit` on every tuple of positions in `0..n` (extending `current`) whose weights, position + 1
/// each, sum to `left`; stops and returns false when `visit` does.
fn weighted_tuples(
    positions: Positions,
    left: usize,
    n: usize,
    current: &mut Vec<usize>,
    visit: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if left == 0 {
        return visit(current);
    }
    let from = match (positions, current.last()) {
        (Positions::Increasing, Some(&last)) => last + 1,
        _ => 0,
    };
    for i in from..n.min(left) {
        if positions == Positions::Distinct && current.contains(&i) {
            continue;
        }
        current.push(i);
        let go_on = weighted_tuples(positions, left - i - 1, n, current, visit);
        current.pop();
        if !go_on {
            return false;
        }
    }
    true
}

/// Subsets of `base`'s values by increasing weight (the sum of the members' weights), the empty set
/// first (unless `non_empty`).
fn subsets(base: &Small, budget: usize, non_empty: bool) -> Small {
    let items = &base.values;
    let n = items.len();
    let mut values = Vec::new();
    let max_weight = n * (n + 1) / 2;
    let first = usize::from(non_empty);
    let mut current = Vec::new();
    let exhausted = (first..=max_weight).all(|w| {
        weighted_tuples(Positions::Increasing, w, n, &mut current, &mut |idx| {
            if values.len() >= budget {
                return false;
            }
            let mut members: Vec<Value> = idx.iter().map(|&i| items[i].clone()).collect();
            members.sort();
            values.push(Value::set_from_sorted(members));
            true
        })
    });
    Small {
        values,
        complete: exhausted && base.complete,
    }
}

/// Sequences over `base`'s values of length at least `min_len` by increasing weight (the sum of the
/// items' weights); without repeated items when `injective`.
fn sequences(base: &Small, budget: usize, min_len: usize, injective: bool) -> Small {
    let items = &base.values;
    let n = items.len();
    let mut values = Vec::new();
    // Without repetition the weight is bounded; with it, every weight has a sequence (the first item
    // repeated), so the budget ends the loop.
    let max_weight = if injective || n == 0 {
        n * (n + 1) / 2
    } else {
        usize::MAX
    };
    let positions = if injective {
        Positions::Distinct
    } else {
        Positions::Any
    };
    let mut current = Vec::new();
    let mut w = 0;
    let exhausted = loop {
        let go_on = weighted_tuples(positions, w, n, &mut current, &mut |idx| {
            if idx.len() < min_len {
                return true;
            }
            if values.len() >= budget {
                return false;
            }
            values.push(Value::sequence(
                idx.iter().map(|&i| items[i].clone()).collect(),
            ));
            true
        });
        if !go_on {
            break false;
        }
        if w == max_weight {
            break true;
        }
        w += 1;
    };
    Small {
        values,
        complete: exhausted && base.complete,
    }
}

/// The values of both lists alternately, without repeats.
fn interleave(a: &Small, b: &Small, budget: usize) -> Small {
    let mut values: Vec<Value> = Vec::new();
    let longest = a.values.len().max(b.values.len());
    for i in 0..longest {
        for list in [a, b] {
            if let Some(v) = list.values.get(i)
                && !values.contains(v)
                && values.len() < budget
            {
                values.push(v.clone());
            }
        }
    }
    let complete = a.complete && b.complete && values.len() < budget;
    Small { values, complete }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Model, Options};

    fn context() -> Context {
        Model::empty(&Options::default())
            .expect("an empty machine")
            .context
    }

    fn shown(small: &Small) -> Vec<String> {
        small.values.iter().map(|v| v.to_string()).collect()
    }

    #[test]
    fn integers_nearest_zero_within_minint_maxint_first() {
        let ctx = context();
        let small = of_type(&ctx, &Type::Integer, 8, Span::default()).expect("integers");
        // MININT..MAXINT is -1..3 by default.
        assert_eq!(shown(&small), ["0", "1", "-1", "2", "3", "-2", "-3", "4"]);
        assert!(!small.complete);
        let bounded = ints(&ctx, Some(&Int::from(5)), Some(&Int::from(7)), 10);
        assert_eq!(shown(&bounded), ["5", "6", "7"]);
        assert!(bounded.complete);
    }

    #[test]
    fn subsets_grow_by_weight_and_end_when_all_are_listed() {
        let base = Small::all(vec![Value::int(1), Value::int(2), Value::int(3)]);
        let all = subsets(&base, 100, false);
        assert_eq!(all.values.len(), 8);
        assert!(all.complete);
        assert_eq!(
            shown(&all)[..5],
            ["{}", "{1}", "{2}", "{1,2}", "{3}"].map(String::from)
        );
        let some = subsets(&base, 3, true);
        assert_eq!(shown(&some), ["{1}", "{2}", "{1,2}"]);
        assert!(!some.complete);
    }

    #[test]
    fn sequences_interleave_length_and_content() {
        let base = Small::all(vec![Value::int(7), Value::int(8)]);
        let seq = |items: &[i64]| Value::sequence(items.iter().map(|&i| Value::int(i)).collect());
        // [7, 7] weighs 2 as [8] does; [7, 7, 7] weighs 3 as [7, 8] and [8, 7] do.
        let seqs = sequences(&base, 5, 0, false);
        assert_eq!(
            seqs.values,
            [
                seq(&[]),
                seq(&[7]),
                seq(&[7, 7]),
                seq(&[8]),
                seq(&[7, 7, 7])
            ]
        );
        assert!(!seqs.complete);
        let injective = sequences(&base, 100, 1, true);
        assert_eq!(
            injective.values,
            [seq(&[7]), seq(&[8]), seq(&[7, 8]), seq(&[8, 7])]
        );
        assert!(injective.complete);
    }

    #[test]
    fn pairs_follow_the_diagonal() {
        let ctx = context();
        let ty = Type::pair(Type::Bool, Type::Integer);
        let small = of_type(&ctx, &ty, 5, Span::default()).expect("pairs");
        assert_eq!(
            shown(&small),
            [
                "(FALSE|->0)",
                "(FALSE|->1)",
                "(TRUE|->0)",
                "(FALSE|->-1)",
                "(TRUE|->1)"
            ]
        );
    }

    #[test]
    fn every_index_vector_is_visited_once_by_weight() {
        let mut seen = Vec::new();
        let all = by_weight(&[2, 3], &mut |idx| {
            seen.push(idx.to_vec());
            true
        });
        assert!(all);
        assert_eq!(
            seen,
            [
                vec![0, 0],
                vec![0, 1],
                vec![1, 0],
                vec![0, 2],
                vec![1, 1],
                vec![1, 2]
            ]
        );
    }
}
