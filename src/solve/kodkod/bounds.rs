//! Bounds (Kodkod's `instance`): the candidate values of every unknown, and the fresh circuit inputs
//! standing for it.
//!
//! * BOOL and given-set unknowns choose one of their type's values (one input per value, exactly one
//!   true; a single input for two values).
//! * Integer unknowns are bit-vectors over the range the interval analysis proved. An integer the
//!   analysis leaves unbounded is cut as the native solver cuts it (MININT..MAXINT, or as wide a window
//!   from its known end): the bounds are then marked a cut, and SAT's "no more solutions" is reported
//!   incomplete. Never wraparound: every operation's result range is checked.
//! * A set unknown has one input per candidate element: its upper bound. The candidates are the type's
//!   values when finite, narrowed by the known carriers of its typing conjuncts (`r : A <-> B`,
//!   `f : A --> B`, `s <: S`, `s : POW(S)`, `s = E`), and for sets of integers by the analysis's element
//!   range.
//!
//! Known values (the environment) are never unknowns: the translation reads them as exact constants.

use super::circuit::{Lit, TRUE};
use super::integers::{self, BitVec};
use super::translate::{
    FunTerm, SetTerm, Term, Translator, finite_values, is_fun_type, unsupported,
};
use crate::diag::{Diagnostic, Span};
use crate::eval::Context;
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, UnaryOp, free_names};
use crate::solve::interval::{Range, VarInfo};
use crate::types::Type;
use crate::value::{Value, set};
use num_traits::ToPrimitive;

/// The most candidate elements a set unknown may have.
const MAX_ELEMENTS: usize = 100_000;

pub struct Bounds {
    /// The term of each unknown, in the problem's order.
    pub terms: Vec<Term>,
    /// Conditions the inputs must satisfy to encode a value (one-hot, integer ranges).
    pub constraints: Vec<Lit>,
    /// Every input standing for an unknown, with what it means (for DIMACS comments and blocking).
    pub primary: Vec<(Lit, String)>,
    /// Per unknown, the end of its inputs in `primary`.
    pub ends: Vec<usize>,
    /// When some unknown's candidates are a cut of an infinite type (integers the analysis cannot
    /// bound, taken within MININT..MAXINT as the native solver does), what the first such cut was, for
    /// the report: solutions found are solutions, but "no more solutions" is only within the cut.
    pub cut: Option<String>,
}

/// Records the cut `note` describes, unless an earlier unknown's cut is recorded already.
fn note_cut(cut: &mut Option<String>, note: impl FnOnce() -> String) {
    cut.get_or_insert_with(note);
}

/// The cut of an unknown typed only below the top level (under `=>`, `or`, `not`).
fn nested_typing_cut(name: &str) -> String {
    format!("{name} was searched only within the set of a typing predicate below the top level")
}

/// Declares the unknowns `vars` in the translator.
pub fn declare(
    tr: &mut Translator<'_>,
    vars: &[TypedName],
    conjuncts: &[&Pred],
    info: &[VarInfo],
) -> Result<Bounds, Diagnostic> {
    let mut b = Bounds {
        terms: Vec::with_capacity(vars.len()),
        constraints: Vec::new(),
        primary: Vec::new(),
        ends: Vec::with_capacity(vars.len()),
        cut: None,
    };
    for (v, i) in vars.iter().zip(info) {
        let term = match &v.ty {
            ty if is_fun_type(ty) => fun_unknown(tr, &mut b, vars, v, conjuncts)?,
            Type::Set(elem) => {
                let cands = set_candidates(tr, vars, v, elem, conjuncts, i, &mut b.cut)?;
                let mut s = SetTerm::new();
                for c in cands {
                    let l = tr.circuit.input();
                    b.primary.push((l, format!("{} contains {c}", v.name)));
                    s.insert(c, l);
                }
                Term::Set(s)
            }
            ty => scalar(tr, &mut b, &v.name, ty, &i.int, v.span)?,
        };
        tr.declare(v.name.clone(), term.clone());
        b.terms.push(term);
        b.ends.push(b.primary.len());
    }
    Ok(b)
}

/// A function into sets, bounded by its typing conjunct `f : A op S` (a functional arrow, A known): one
/// input per argument in A saying it is in the domain (none for a total arrow: all are), and per
/// argument one input per element the images in S may contain. An argument outside the domain has the
/// empty image, so that every value has one encoding (blocking clauses then exclude values).
fn fun_unknown(
    tr: &mut Translator<'_>,
    b: &mut Bounds,
    vars: &[TypedName],
    v: &TypedName,
    conjuncts: &[&Pred],
) -> Result<Term, Diagnostic> {
    let found = match conjuncts
        .iter()
        .find_map(|c| fun_carrier(tr, vars, &v.name, c))
    {
        Some(f) => Some(f),
        // A typing predicate below the top level (under `=>`, `or`, `not`) does not confine the
        // unknown: it bounds a cut.
        None => {
            let nested = nested_typing(conjuncts, &v.name);
            let f = nested
                .iter()
                .find_map(|c| fun_carrier(tr, vars, &v.name, c));
            if f.is_some() {
                note_cut(&mut b.cut, || nested_typing_cut(&v.name));
            }
            f
        }
    };
    let Some((args, total, image)) = found else {
        return Err(unsupported(
            v.span,
            format!(
                "the unknown {} of the higher-order type {} (no typing conjunct `{} : A --> S` with A and the elements of S known)",
                v.name, v.ty, v.name
            ),
        ));
    };
    if args.len().saturating_mul(image.len()) > MAX_ELEMENTS {
        return Err(unsupported(
            v.span,
            format!(
                "the function {}, which has too many candidate tuples",
                v.name
            ),
        ));
    }
    let mut f = FunTerm::new();
    for x in args {
        let d = if total {
            TRUE
        } else {
            let l = tr.circuit.input();
            b.primary.push((l, format!("{x} in dom({})", v.name)));
            l
        };
        let mut s = SetTerm::new();
        for y in &image {
            let l = tr.circuit.input();
            b.primary.push((l, format!("{}({x}) contains {y}", v.name)));
            b.constraints.push(tr.circuit.implies(l, d));
            s.insert(y.clone(), l);
        }
        f.insert(x, (d, s));
    }
    Ok(Term::Fun(std::rc::Rc::new(f)))
}

/// From a conjunct `name : A op S` (op a functional arrow, A known): A, whether op is total, and the
/// elements the members of S may contain (S = `B op' C`, `POW(B)`, ... with B and C known, or a known
/// set of sets).
fn fun_carrier(
    tr: &Translator<'_>,
    vars: &[TypedName],
    name: &str,
    c: &Pred,
) -> Option<(Vec<Value>, bool, Vec<Value>)> {
    let PredKind::Compare(CompareOp::In, f, s) = &c.kind else {
        return None;
    };
    if !matches!(&f.kind, ExprKind::Var(n) if &**n == name) {
        return None;
    }
    let ExprKind::Binary(arrow, a, s) = &s.kind else {
        return None;
    };
    let props = arrow.arrow_properties()?;
    if !props.functional {
        return None;
    }
    let known_set = |e: &Expr| known_elements(tr, vars, e);
    let args = known_set(a)?;
    let image = match &s.kind {
        ExprKind::Binary(inner, x, y) if inner.is_arrow() => {
            let (x, y) = (known_set(x)?, known_set(y)?);
            if x.len().saturating_mul(y.len()) > MAX_ELEMENTS {
                return None;
            }
            set::product(&x, &y)
        }
        ExprKind::Unary(UnaryOp::Pow | UnaryOp::Fin | UnaryOp::Pow1 | UnaryOp::Fin1, x) => {
            known_set(x)?
        }
        ExprKind::Unary(UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm, x) => {
            injective_sequences(&known_set(x)?)?
        }
        _ => {
            let mut all = Vec::new();
            for member in known_set(s)? {
                all = set::union(&all, member.as_set()?);
            }
            all
        }
    };
    Some((args, props.total, image))
}

fn scalar(
    tr: &mut Translator<'_>,
    b: &mut Bounds,
    name: &str,
    ty: &Type,
    range: &Range,
    span: Span,
) -> Result<Term, Diagnostic> {
    Ok(match ty {
        Type::Integer => {
            let known = (
                range.lo.as_ref().and_then(|v| v.to_i64()),
                range.hi.as_ref().and_then(|v| v.to_i64()),
            );
            let cut = match known {
                (Some(_), Some(_)) => None,
                _ => cut_range(tr.ctx, range),
            };
            if let Some((lo, hi)) = cut {
                note_cut(&mut b.cut, || {
                    format!(
                        "{name} was searched only within {lo}..{hi} (the interval analysis cannot bound it)"
                    )
                });
            }
            let (lo, hi) = match cut.map_or(known, |(lo, hi)| (Some(lo), Some(hi))) {
                (Some(lo), Some(hi)) if integers::in_limits(lo, hi) => (lo, hi),
                _ => {
                    return Err(unsupported(
                        span,
                        format!(
                            "the integer {name}, which the interval analysis cannot bound (found {}..{})",
                            show(&range.lo),
                            show(&range.hi)
                        ),
                    ));
                }
            };
            let (v, inside) = BitVec::fresh(&mut tr.circuit, lo, hi);
            for (i, bit) in v.bits.iter().enumerate() {
                b.primary
                    .push((*bit, format!("{name} bit {i} (range {lo}..{hi})")));
            }
            b.constraints.push(inside);
            Term::Int(v)
        }
        Type::Bool | Type::Given(_) => {
            let values = finite_values(tr.ctx, ty)
                .ok_or_else(|| unsupported(span, format!("the type {ty} of {name}")))?;
            let choices = match values.len() {
                1 => vec![(values[0].clone(), TRUE)],
                2 => {
                    let l = tr.circuit.input();
                    b.primary.push((l, format!("{name} = {}", values[1])));
                    vec![(values[0].clone(), !l), (values[1].clone(), l)]
                }
                _ => {
                    let mut choices = Vec::with_capacity(values.len());
                    for v in values {
                        let l = tr.circuit.input();
                        b.primary.push((l, format!("{name} = {v}")));
                        choices.push((v, l));
                    }
                    let lits: Vec<Lit> = choices.iter().map(|(_, l)| *l).collect();
                    let one = tr.circuit.exactly_one(&lits);
                    b.constraints.push(one);
                    choices
                }
            };
            Term::Scalar(choices)
        }
        Type::Pair(x, y) => {
            let full = Range::full();
            Term::Pair(
                Box::new(scalar(tr, b, &format!("prj1({name})"), x, &full, span)?),
                Box::new(scalar(tr, b, &format!("prj2({name})"), y, &full, span)?),
            )
        }
        _ => {
            return Err(unsupported(
                span,
                format!("the unknown {name} of type {ty}"),
            ));
        }
    })
}

/// The cut of an integer range the analysis left open at one end or both, as the native solver
/// enumerates it: MININT..MAXINT, or a window as wide from the known end when that lies outside it;
/// `None` when a known end cannot be read or the cut is empty.
pub(super) fn cut_range(ctx: &Context, range: &Range) -> Option<(i64, i64)> {
    let settings = ctx.settings();
    let (minint, maxint) = (settings.minint.to_i64()?, settings.maxint.to_i64()?);
    let width = maxint.checked_sub(minint)?;
    let (lo, hi) = match (&range.lo, &range.hi) {
        (None, None) => (minint, maxint),
        (Some(l), None) => {
            let l = l.to_i64()?;
            (
                l,
                if l > maxint {
                    l.checked_add(width)?
                } else {
                    maxint
                },
            )
        }
        (None, Some(h)) => {
            let h = h.to_i64()?;
            (
                if h < minint {
                    h.checked_sub(width)?
                } else {
                    minint
                },
                h,
            )
        }
        (Some(_), Some(_)) => return None,
    };
    (lo <= hi).then_some((lo, hi))
}

fn show(end: &Option<num_bigint::BigInt>) -> String {
    end.as_ref().map_or("?".into(), |v| v.to_string())
}

/// The upper bound of a set unknown: the elements it may contain.
fn set_candidates(
    tr: &Translator<'_>,
    vars: &[TypedName],
    v: &TypedName,
    elem: &Type,
    conjuncts: &[&Pred],
    info: &VarInfo,
    cut: &mut Option<String>,
) -> Result<Vec<Value>, Diagnostic> {
    if matches!(elem, Type::Set(_) | Type::String | Type::Struct(_)) {
        return Err(unsupported(
            v.span,
            format!("the unknown {} of the higher-order type {}", v.name, v.ty),
        ));
    }
    let mut cands = finite_values(tr.ctx, elem);
    for c in conjuncts {
        if let Some(carrier) = carrier(tr, vars, &v.name, c) {
            cands = Some(match cands {
                Some(old) => set::intersection(&old, &carrier),
                None => carrier,
            });
        }
    }
    if *elem == Type::Integer
        && let (Some(lo), Some(hi)) = (
            info.elem.lo.as_ref().and_then(|x| x.to_i64()),
            info.elem.hi.as_ref().and_then(|x| x.to_i64()),
        )
    {
        cands = match cands {
            Some(old) => Some(
                old.into_iter()
                    .filter(|x| {
                        x.as_int()
                            .and_then(|i| i.to_i64())
                            .is_some_and(|i| lo <= i && i <= hi)
                    })
                    .collect(),
            ),
            None if hi.saturating_sub(lo) < MAX_ELEMENTS as i64 => {
                Some((lo..=hi).map(Value::int).collect())
            }
            None => None,
        };
    }
    // A relation from integers (a function, a sequence): the analysis bounds its domain.
    if let Type::Pair(first, second) = elem
        && **first == Type::Integer
        && cands.is_none()
        && let (Some(lo), Some(hi), Some(seconds)) = (
            info.elem.lo.as_ref().and_then(|x| x.to_i64()),
            info.elem.hi.as_ref().and_then(|x| x.to_i64()),
            finite_values(tr.ctx, second).or_else(|| {
                conjuncts
                    .iter()
                    .find_map(|c| sequence_elements(tr, vars, &v.name, c))
            }),
        )
        && (hi.saturating_sub(lo).saturating_add(1)).saturating_mul(seconds.len() as i64)
            <= MAX_ELEMENTS as i64
    {
        let firsts: Vec<Value> = (lo..=hi).map(Value::int).collect();
        cands = Some(set::product(&firsts, &seconds));
    }
    // A typing predicate below the top level bounds a cut.
    if cands.is_none() {
        cands = nested_typing(conjuncts, &v.name)
            .iter()
            .find_map(|c| carrier(tr, vars, &v.name, c));
        if cands.is_some() {
            note_cut(cut, || nested_typing_cut(&v.name));
        }
    }
    // Elements the analysis leaves unbounded: a cut, as the native solver takes it.
    if cands.is_none() {
        // The analysis's element range is that of a set of integers, or of a relation's domain.
        let cut_values = |ty: &Type, range: &Range| -> Option<Vec<Value>> {
            match ty {
                Type::Integer => {
                    let (lo, hi) = match (
                        range.lo.as_ref().and_then(|x| x.to_i64()),
                        range.hi.as_ref().and_then(|x| x.to_i64()),
                    ) {
                        (Some(lo), Some(hi)) => (lo, hi),
                        _ => cut_range(tr.ctx, range)?,
                    };
                    (hi.saturating_sub(lo) < MAX_ELEMENTS as i64)
                        .then(|| (lo..=hi).map(Value::int).collect())
                }
                _ => finite_values(tr.ctx, ty),
            }
        };
        let found = match elem {
            Type::Integer => cut_values(elem, &info.elem),
            Type::Pair(first, second) if **first == Type::Integer || **second == Type::Integer => {
                match (
                    cut_values(first, &info.elem),
                    cut_values(second, &Range::full()),
                ) {
                    (Some(x), Some(y)) if x.len().saturating_mul(y.len()) <= MAX_ELEMENTS => {
                        Some(set::product(&x, &y))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if found.is_some() {
            note_cut(cut, || {
                format!(
                    "the elements of {} were searched only within MININT..MAXINT (the interval analysis cannot bound them)",
                    v.name
                )
            });
            cands = found;
        }
    }
    match cands {
        Some(c) if c.len() <= MAX_ELEMENTS => Ok(c),
        Some(_) => Err(unsupported(
            v.span,
            format!("the set {}, which has too many candidate elements", v.name),
        )),
        None => Err(unsupported(
            v.span,
            format!(
                "the set {}, whose elements the analysis cannot bound",
                v.name
            ),
        )),
    }
}

/// The predicates `name : S` and `name <: S` anywhere in the propositional structure of `conjuncts`
/// (not under a binder of the same name).
fn nested_typing<'p>(conjuncts: &[&'p Pred], name: &str) -> Vec<&'p Pred> {
    fn walk<'p>(p: &'p Pred, name: &str, out: &mut Vec<&'p Pred>) {
        match &p.kind {
            PredKind::Compare(CompareOp::In | CompareOp::Subset, x, _) if matches!(&x.kind, ExprKind::Var(n) if &**n == name) => {
                out.push(p)
            }
            PredKind::And(ps) | PredKind::Or(ps) => {
                for q in ps {
                    walk(q, name, out);
                }
            }
            PredKind::Implies(a, b) | PredKind::Equiv(a, b) => {
                walk(a, name, out);
                walk(b, name, out);
            }
            PredKind::Not(a) => walk(a, name, out),
            PredKind::If(c, a, b) => {
                walk(c, name, out);
                walk(a, name, out);
                walk(b, name, out);
            }
            PredKind::Forall(xs, body) | PredKind::Exists(xs, body)
                if !xs.iter().any(|x| &*x.name == name) =>
            {
                walk(body, name, out)
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in conjuncts {
        walk(c, name, &mut out);
    }
    out
}

/// The known set a typing conjunct confines the elements of `name` to.
fn carrier(tr: &Translator<'_>, vars: &[TypedName], name: &str, c: &Pred) -> Option<Vec<Value>> {
    let PredKind::Compare(op, a, s) = &c.kind else {
        return None;
    };
    let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if &**n == name);
    let (op, s) = match (op, is_var(a), is_var(s)) {
        (_, true, _) => (*op, s),
        (CompareOp::Eq, false, true) => (CompareOp::Eq, a),
        _ => return None,
    };
    let known = |e: &Expr| known_elements(tr, vars, e);
    match (op, &s.kind) {
        (CompareOp::In, ExprKind::Binary(arrow, x, y)) if arrow.is_arrow() => {
            let (x, y) = (known(x)?, known(y)?);
            (x.len().saturating_mul(y.len()) <= MAX_ELEMENTS).then(|| set::product(&x, &y))
        }
        (
            CompareOp::In,
            ExprKind::Unary(UnaryOp::Pow | UnaryOp::Fin | UnaryOp::Pow1 | UnaryOp::Fin1, x),
        ) => known(x),
        (CompareOp::In, ExprKind::Unary(UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm, x)) => {
            injective_sequences(&known(x)?)
        }
        (CompareOp::Subset | CompareOp::StrictSubset | CompareOp::Eq, _) => known(s),
        _ => None,
    }
}

/// From a conjunct `name : seq(T)` (or `seq1`, `iseq`, `iseq1`, `perm`) or `name : A op T` (op an
/// arrow) with T known: the elements of T, which bound the second components of name's pairs.
fn sequence_elements(
    tr: &Translator<'_>,
    vars: &[TypedName],
    name: &str,
    c: &Pred,
) -> Option<Vec<Value>> {
    let PredKind::Compare(CompareOp::In, x, s) = &c.kind else {
        return None;
    };
    if !matches!(&x.kind, ExprKind::Var(n) if &**n == name) {
        return None;
    }
    let t = match &s.kind {
        ExprKind::Unary(
            UnaryOp::Seq | UnaryOp::Seq1 | UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm,
            t,
        ) => t,
        ExprKind::Binary(arrow, _, t) if arrow.is_arrow() => t,
        _ => return None,
    };
    known_elements(tr, vars, t).filter(|items| items.len() <= MAX_ELEMENTS)
}

/// The elements of `e` when it is a set that mentions none of the unknowns `vars` and evaluates.
fn known_elements(tr: &Translator<'_>, vars: &[TypedName], e: &Expr) -> Option<Vec<Value>> {
    if free_names::of_expr(e)
        .iter()
        .any(|n| vars.iter().any(|v| v.name == *n))
    {
        return None;
    }
    let v = tr.ctx.eval_expr(e, tr.env()).ok()?;
    v.as_set().map(|items| items.to_vec())
}

/// The pairs an injective sequence over `s` may contain: no longer than s has elements, its indices
/// are within `1..card(s)`.
fn injective_sequences(s: &[Value]) -> Option<Vec<Value>> {
    if s.len().saturating_mul(s.len()) > MAX_ELEMENTS {
        return None;
    }
    let indices: Vec<Value> = (1..=s.len() as i64).map(Value::int).collect();
    Some(set::product(&indices, s))
}
