//! Which of a problem's variables are sequences in every solution, and a bound on their lengths.
//!
//! A variable of type `POW(INTEGER * T)` is a sequence in every solution when the predicate, read from
//! its top-level conjunction (and through the disjuncts of a top-level disjunction, all of which must
//! agree, and the bodies of top-level existentials), contains `v : seq(S)` (`seq1`, `iseq`, `iseq1`,
//! `perm`), `v = E` with `E` built by a sequence operator (whose value the interpreter always computes
//! as a sequence, or fails on), or `size(v)` compared with a number (`size` of anything else is
//! ill-defined). Such a variable can be encoded as a length and an element array without losing a
//! solution. A length bound (`size(v) <= e`, `size(v) = e`, `v : iseq(S)` for a finite `S`, `v = E` with
//! `E` bounded) likewise holds in every solution, so the translation may expand quantifiers over the
//! indices of `v` up to it.
//!
//! The facts are computed in rounds, each from the previous round's (the first knows no sequence
//! variable): a fact about `v = w <- x` needs what is known of `w`. Every round's facts hold in every
//! solution, whether or not the rounds have converged.

use crate::eval::{Context, Env, Val};
use crate::ir::{BinaryOp, CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, UnaryOp};
use crate::syntax::ast::Name;
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use rustc_hash::FxHashMap;

/// Sequence variables → an upper bound on their length, when one is known.
pub(super) type SequenceFacts = FxHashMap<Name, Option<usize>>;

/// Whether `ty` is the type of a sequence, `POW(INTEGER * T)`.
pub(super) fn is_sequence_type(ty: &Type) -> bool {
    matches!(ty.element(), Some(Type::Pair(i, _)) if **i == Type::Integer)
}

/// The problem's variables that are sequences in every solution of `pred`, with their length bounds.
pub(super) fn sequence_variables(
    ctx: &Context,
    env: &Env,
    vars: &[TypedName],
    pred: &Pred,
) -> SequenceFacts {
    let analysis = Analysis {
        ctx,
        env,
        vars,
        conjuncts: pred.conjuncts(),
    };
    let candidates: Vec<&Name> = vars
        .iter()
        .filter(|v| is_sequence_type(&v.ty))
        .map(|v| &v.name)
        .collect();
    let mut known = SequenceFacts::default();
    // Each round can only add what a chain of definitions one longer justifies.
    for _ in 0..=candidates.len() {
        let mut next = SequenceFacts::default();
        for v in &candidates {
            if let Some(bound) = analysis.fact(pred, v, &known, &[]) {
                next.insert((*v).clone(), bound);
            }
        }
        if next == known {
            break;
        }
        known = next;
    }
    known
}

struct Analysis<'a> {
    ctx: &'a Context,
    env: &'a Env,
    vars: &'a [TypedName],
    /// The top-level conjuncts, where numbers bounding a length are looked up.
    conjuncts: Vec<&'a Pred>,
}

impl Analysis<'_> {
    /// `Some(bound)` when every solution of `p` makes `v` a sequence (of length at most `bound`), from
    /// the facts `known` of the previous round; `bound` names bound by enclosing existentials.
    fn fact(
        &self,
        p: &Pred,
        v: &str,
        known: &SequenceFacts,
        bound: &[Name],
    ) -> Option<Option<usize>> {
        match &p.kind {
            PredKind::And(ps) => {
                let facts: Vec<Option<usize>> = ps
                    .iter()
                    .filter_map(|q| self.fact(q, v, known, bound))
                    .collect();
                (!facts.is_empty()).then(|| facts.into_iter().flatten().min())
            }
            PredKind::Or(ps) => {
                let facts = ps
                    .iter()
                    .map(|q| self.fact(q, v, known, bound))
                    .collect::<Option<Vec<_>>>()?;
                Some(
                    facts
                        .into_iter()
                        .collect::<Option<Vec<_>>>()
                        .and_then(|bounds| bounds.into_iter().max()),
                )
            }
            PredKind::If(_, a, b) => {
                let (x, y) = (
                    self.fact(a, v, known, bound)?,
                    self.fact(b, v, known, bound)?,
                );
                Some(x.zip(y).map(|(x, y)| x.max(y)))
            }
            PredKind::Exists(xs, body) => {
                if xs.iter().any(|x| *x.name == *v) {
                    return None;
                }
                let mut inner = bound.to_vec();
                inner.extend(xs.iter().map(|x| x.name.clone()));
                self.fact(body, v, known, &inner)
            }
            PredKind::Compare(op, a, b) => self.atom(*op, a, b, v, known, bound),
            _ => None,
        }
    }

    fn atom(
        &self,
        op: CompareOp,
        a: &Expr,
        b: &Expr,
        v: &str,
        known: &SequenceFacts,
        bound: &[Name],
    ) -> Option<Option<usize>> {
        let is_v = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if **n == *v);
        let size_of_v = |e: &Expr| matches!(&e.kind, ExprKind::Unary(UnaryOp::Size, s) if is_v(s));
        match op {
            CompareOp::In if is_v(a) => match &b.kind {
                ExprKind::Unary(UnaryOp::Seq | UnaryOp::Seq1, _) => Some(None),
                ExprKind::Unary(UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm, s) => {
                    // Injective: no longer than its range.
                    Some(self.finite_size(s))
                }
                _ => None,
            },
            CompareOp::Eq if is_v(a) || is_v(b) => {
                let other = if is_v(a) { b } else { a };
                self.shaped(other, known, bound)
                    .then(|| self.length_bound(other, known, bound))
            }
            CompareOp::Eq if size_of_v(a) => Some(self.upper(b, bound)),
            CompareOp::Eq if size_of_v(b) => Some(self.upper(a, bound)),
            CompareOp::Le if size_of_v(a) => Some(self.upper(b, bound)),
            CompareOp::Lt if size_of_v(a) => {
                Some(self.upper(b, bound).map(|n| n.saturating_sub(1)))
            }
            CompareOp::Eq | CompareOp::NotEq | CompareOp::Le | CompareOp::Lt
                if size_of_v(a) || size_of_v(b) =>
            {
                Some(None)
            }
            _ => None,
        }
    }

    /// Whether the value of `e` is a sequence whenever the interpreter computes it.
    fn shaped(&self, e: &Expr, known: &SequenceFacts, bound: &[Name]) -> bool {
        if !is_sequence_type(&e.ty) {
            return false;
        }
        match &e.kind {
            ExprKind::Var(n) if bound.contains(n) => false,
            ExprKind::Var(n) => known.contains_key(n) || self.sequence_value(n).is_some(),
            ExprKind::If(_, a, b) => self.shaped(a, known, bound) && self.shaped(b, known, bound),
            _ => built_as_sequence(e),
        }
    }

    /// A bound on the length of the sequence `e` (`shaped`), or on `e`'s arguments' lengths.
    fn length_bound(&self, e: &Expr, known: &SequenceFacts, bound: &[Name]) -> Option<usize> {
        let of = |x: &Expr| {
            if self.shaped(x, known, bound) {
                self.length_bound(x, known, bound)
            } else {
                None
            }
        };
        match &e.kind {
            ExprKind::Var(n) => match known.get(n) {
                Some(b) => *b,
                None => self.sequence_value(n).map(|s| s.len()),
            },
            ExprKind::SeqEnum(items) => Some(items.len()),
            ExprKind::SetEnum(_) => Some(0),
            ExprKind::Unary(UnaryOp::Rev, s) => of(s),
            ExprKind::Unary(_, s) => of(s).map(|n| n.saturating_sub(1)),
            ExprKind::Binary(BinaryOp::Concat, a, b) => of(a)?.checked_add(of(b)?),
            ExprKind::Binary(BinaryOp::Prepend, _, s)
            | ExprKind::Binary(BinaryOp::Append, s, _) => of(s)?.checked_add(1),
            ExprKind::Binary(BinaryOp::Take, s, k) => match (of(s), self.upper(k, bound)) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
            ExprKind::Binary(_, s, _) => of(s),
            ExprKind::If(_, a, b) => Some(of(a)?.max(of(b)?)),
            _ => None,
        }
    }

    /// The elements of the named sequence the environment or the machine gives a value.
    fn sequence_value(&self, name: &str) -> Option<Vec<Value>> {
        if self.vars.iter().any(|v| *v.name == *name) {
            return None;
        }
        let val = self.env.get(name).or_else(|| self.ctx.global(name))?;
        match val {
            Val::Value(v) => v.as_sequence(),
            Val::Sym(_) => None,
        }
    }

    /// An upper bound on the integer `e` in every solution: its value when it names no variable of the
    /// problem, or for a variable the least bound a top-level conjunct (`w = c`, `w <= c`, `w < c`,
    /// `w : a..c`) gives it.
    fn upper(&self, e: &Expr, bound: &[Name]) -> Option<usize> {
        if let Some(n) = self.constant(e, bound) {
            return length_bound(n);
        }
        let ExprKind::Var(w) = &e.kind else {
            return None;
        };
        if bound.contains(w) {
            return None;
        }
        let is_w = |x: &Expr| matches!(&x.kind, ExprKind::Var(n) if n == w);
        let mut best: Option<BigInt> = None;
        for c in &self.conjuncts {
            let PredKind::Compare(op, a, b) = &c.kind else {
                continue;
            };
            let found = match op {
                CompareOp::Eq | CompareOp::Le if is_w(a) => self.constant(b, &[]),
                CompareOp::Eq if is_w(b) => self.constant(a, &[]),
                CompareOp::Lt if is_w(a) => self.constant(b, &[]).map(|n| n - 1),
                CompareOp::In if is_w(a) => match &b.kind {
                    ExprKind::Binary(BinaryOp::Interval, _, hi) => self.constant(hi, &[]),
                    _ => None,
                },
                _ => None,
            };
            if let Some(n) = found {
                best = Some(best.map_or(n.clone(), |b| b.min(n)));
            }
        }
        best.and_then(length_bound)
    }

    /// The value of an integer expression that names no variable of the problem (nor a bound name).
    fn constant(&self, e: &Expr, bound: &[Name]) -> Option<BigInt> {
        let names = crate::ir::free_names::of_expr(e);
        if names
            .iter()
            .any(|n| bound.contains(n) || self.vars.iter().any(|v| v.name == *n))
        {
            return None;
        }
        match self.ctx.eval_expr(e, self.env).ok()? {
            Value::Int(i) => Some(i.to_bigint()),
            _ => None,
        }
    }

    /// The number of elements of the set `s` when it names no variable and is finite.
    fn finite_size(&self, s: &Expr) -> Option<usize> {
        let names = crate::ir::free_names::of_expr(s);
        if names.iter().any(|n| self.vars.iter().any(|v| v.name == *n)) {
            return None;
        }
        match self.ctx.eval_expr(s, self.env).ok()? {
            Value::Set(items) => Some(items.len()),
            _ => None,
        }
    }
}

/// `n` as a bound on a length: a negative one leaves no solution, so that 0 holds too.
fn length_bound(n: BigInt) -> Option<usize> {
    if n.sign() == num_bigint::Sign::Minus {
        Some(0)
    } else {
        n.try_into().ok()
    }
}

/// Whether `e`'s operator always builds a sequence: an enumeration (`[]` included), `front`, `tail`,
/// `rev`, `^`, `->`, `<-`, `/|\`, `\|/`.
pub(super) fn built_as_sequence(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::SeqEnum(_)
        | ExprKind::Unary(UnaryOp::Front | UnaryOp::Tail | UnaryOp::Rev, _)
        | ExprKind::Binary(
            BinaryOp::Concat
            | BinaryOp::Prepend
            | BinaryOp::Append
            | BinaryOp::Take
            | BinaryOp::Drop,
            ..,
        ) => true,
        ExprKind::SetEnum(items) => items.is_empty(),
        _ => false,
    }
}
