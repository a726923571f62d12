//! Sets kept symbolic: infinite sets (INTEGER, STRING, `A --> B`, `seq(S)`), big intervals, and closures
//! (comprehensions and lambdas with their environment). They are tested by membership, compared by
//! structure where possible, and materialised into a `Value::Set` only when finite and small enough.

use super::{Context, Env, EvalError, Val, internal_error, limit_error, wd_error};
use crate::diag::Span;
use crate::ir::{ArrowProperties, BinaryOp, CompareOp, Expr, Pred, PredKind, TypedName, UnaryOp};
use crate::syntax::ast::Name;
use crate::value::{Int, Value, set};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub enum SymbolicSet {
    /// `lo..hi`; a missing bound is unbounded (INTEGER, NATURAL, NATURAL1, INT, NAT, big intervals).
    Interval(Option<Int>, Option<Int>),
    /// STRING.
    Strings,
    /// `POW(S)`/`FIN(S)` (`non_empty` for POW1/FIN1). Values are finite, so FIN and POW have the same members.
    PowerSet {
        base: Val,
        non_empty: bool,
    },
    /// A relation or function arrow `A op B` (op is one of the arrow `BinaryOp`s).
    Arrow(BinaryOp, Val, Val),
    /// `seq(S)`, `seq1(S)`, `iseq(S)`, `iseq1(S)`, `perm(S)`.
    Sequences(UnaryOp, Val),
    /// `{x, y | P}` closed over its environment.
    Comprehension {
        vars: Arc<Vec<TypedName>>,
        pred: Arc<Pred>,
        env: Env,
    },
    /// `%x, y.(P | E)` closed over its environment.
    Lambda {
        vars: Arc<Vec<TypedName>>,
        pred: Arc<Pred>,
        body: Arc<Expr>,
        env: Env,
    },
    Union(Val, Val),
    Inter(Val, Val),
    Minus(Val, Val),
    Product(Val, Val),
    /// `id(S)`.
    Identity(Val),
    /// `struct(a: S, ...)`, fields sorted by name.
    Struct(Vec<(Name, Val)>),
    /// `tree(S)` (`binary`: `btree(S)`), the B-Book's trees over S (`eval::trees`).
    Trees {
        base: Val,
        binary: bool,
    },
}

/// What a comprehension or lambda makes of each solution point (the point itself, or a lambda's pair),
/// with the point's variables bound in the environment.
pub(crate) type Element<'a> = dyn FnMut(&Context, &mut Env, Value) -> Result<Value, EvalError> + 'a;

/// A closure's environment with its bound variables set to the components of `point` (`None` when the
/// point is not a tuple of that many components).
pub(crate) fn bind_point(vars: &[TypedName], env: &Env, point: &Value) -> Option<Env> {
    let parts = destructure(point, vars.len())?;
    let mut env = env.clone();
    for (v, p) in vars.iter().zip(parts) {
        env.bind(v.name.clone(), p);
    }
    Some(env)
}

/// Splits a left-nested tuple `((v1|->v2)|->v3)` into `n` components.
pub(crate) fn destructure(value: &Value, n: usize) -> Option<Vec<Value>> {
    let mut out = Vec::with_capacity(n);
    let mut cur = value;
    for _ in 1..n {
        let (a, b) = cur.as_pair()?;
        out.push(b.clone());
        cur = a;
    }
    out.push(cur.clone());
    out.reverse();
    Some(out)
}

/// The left-nested tuple of `values` (a single value is itself).
pub(crate) fn tuple(values: &[Value]) -> Value {
    let mut it = values.iter();
    let first = it.next().cloned().unwrap_or_else(Value::empty_set);
    it.fold(first, |acc, v| Value::pair(acc, v.clone()))
}

/// What `<->` asks of its relations: nothing.
const RELATION: ArrowProperties = ArrowProperties {
    functional: false,
    total: false,
    injective: false,
    surjective: false,
};

/// Whether the arrow `op` asks `property` of its relations (`BinaryOp::arrow_properties`).
fn arrow_asks(op: BinaryOp, property: fn(&ArrowProperties) -> bool) -> bool {
    op.arrow_properties().is_some_and(|p| property(&p))
}

/// How deeply closure bodies may nest: a recursive constant that does not terminate (`f = %x.(x :
/// INTEGER | f(x - 1))`) must end in an error, while one that does may recurse as deep as its argument
/// (`parity(5000)` over `parity(x - 1)`, as ProB evaluates it). Each level is given stack as it needs
/// (`NESTING_STACK_*`), also on the model checker's worker threads.
const MAX_CLOSURE_NESTING: u32 = 20_000;

/// Below this much free stack, a closure body is evaluated on a new stack segment of
/// `NESTING_STACK_SEGMENT` bytes (`stacker::maybe_grow`); above `eval::STACK_RESERVE`, so that the
/// interpreter's own stack check never trips inside a recursion the nesting limit allows.
const NESTING_STACK_RED_ZONE: usize = 2 << 20;
const NESTING_STACK_SEGMENT: usize = 64 << 20;

thread_local! {
    /// The closure bodies being evaluated on this thread (`Context::nested`).
    static CLOSURE_NESTING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// The last listings of `perm(S)`, `iseq(S)` and `iseq1(S)` on this thread (see `listed_sequences`).
    static SEQUENCE_LISTINGS: std::cell::RefCell<Vec<SequenceListing>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `perm`/`iseq`/`iseq1` of a base, listed.
struct SequenceListing {
    kind: UnaryOp,
    base: Arc<Vec<Value>>,
    listed: Arc<Vec<Value>>,
}

/// How many listings of injective sequences a thread keeps, and up to what size: CardTrick's invariant
/// asks for `perm(SUIT)` (24 sequences) four times in each of 20,720 final states.
const SEQUENCE_LISTINGS_KEPT: usize = 8;
const SEQUENCE_LISTING_MAX: usize = 10_000;

/// The injective sequences of `base` of the given kind, listed once per thread for a recently seen base.
fn listed_sequences(
    base: &Arc<Vec<Value>>,
    kind: UnaryOp,
    limit: usize,
    check: &dyn Fn() -> Result<(), EvalError>,
) -> Result<Option<Arc<Vec<Value>>>, EvalError> {
    let same =
        |l: &SequenceListing| l.kind == kind && (Arc::ptr_eq(&l.base, base) || l.base == *base);
    if let Some(found) =
        SEQUENCE_LISTINGS.with_borrow(|ls| ls.iter().find(|l| same(l)).map(|l| l.listed.clone()))
    {
        return Ok((found.len() <= limit).then_some(found));
    }
    let Some(mut seqs) = injective_sequences(base, kind, limit, check)? else {
        return Ok(None);
    };
    seqs.sort_unstable();
    let listed = Arc::new(seqs);
    if listed.len() <= SEQUENCE_LISTING_MAX {
        SEQUENCE_LISTINGS.with_borrow_mut(|ls| {
            if ls.len() == SEQUENCE_LISTINGS_KEPT {
                ls.remove(0);
            }
            ls.push(SequenceListing {
                kind,
                base: base.clone(),
                listed: listed.clone(),
            });
        });
    }
    Ok(Some(listed))
}

impl Context {
    /// Runs `run`, the evaluation of a closure's body at a point, one nesting level deeper: a `Limit`
    /// error beyond `MAX_CLOSURE_NESTING` levels (an unbounded recursive definition). The deadline is
    /// left to the searches inside: this runs for every membership in a comprehension.
    pub(crate) fn nested<R>(
        &self,
        span: Span,
        run: impl FnOnce() -> Result<R, EvalError>,
    ) -> Result<R, EvalError> {
        let depth = CLOSURE_NESTING.get();
        if depth >= MAX_CLOSURE_NESTING {
            return Err(limit_error(
                span,
                format!(
                    "closures nested more than {MAX_CLOSURE_NESTING} deep (a recursive definition that does not terminate?)"
                ),
            ));
        }
        CLOSURE_NESTING.set(depth + 1);
        let result = stacker::maybe_grow(NESTING_STACK_RED_ZONE, NESTING_STACK_SEGMENT, run);
        CLOSURE_NESTING.set(depth);
        result
    }

    /// `x : set`.
    pub(crate) fn contains(&self, set: &Val, x: &Value, span: Span) -> Result<bool, EvalError> {
        let sym = match set {
            Val::Value(Value::Set(items)) => return Ok(set::contains(items, x)),
            Val::Value(_) => return Err(internal_error(span, "membership in a non-set")),
            Val::Sym(s) => s,
        };
        match &**sym {
            SymbolicSet::Interval(lo, hi) => Ok(match x {
                Value::Int(i) => {
                    lo.as_ref().is_none_or(|l| l <= i) && hi.as_ref().is_none_or(|h| i <= h)
                }
                _ => false,
            }),
            SymbolicSet::Strings => Ok(matches!(x, Value::Str(_))),
            SymbolicSet::PowerSet { base, non_empty } => {
                let Some(items) = x.as_set() else {
                    return Ok(false);
                };
                if *non_empty && items.is_empty() {
                    return Ok(false);
                }
                self.all_in(items, base, span)
            }
            SymbolicSet::Arrow(op, a, b) => self.in_arrow(*op, a, b, x, span),
            SymbolicSet::Sequences(kind, base) => {
                let Some(seq) = x.as_sequence() else {
                    return Ok(false);
                };
                if matches!(kind, UnaryOp::Seq1 | UnaryOp::Iseq1) && seq.is_empty() {
                    return Ok(false);
                }
                if !self.all_in(&seq, base, span)? {
                    return Ok(false);
                }
                let injective = || {
                    let mut sorted = seq.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    sorted.len() == seq.len()
                };
                Ok(match kind {
                    UnaryOp::Iseq | UnaryOp::Iseq1 => injective(),
                    UnaryOp::Perm => {
                        injective() && self.card(base, span)? == Int::Small(seq.len() as i64)
                    }
                    _ => true,
                })
            }
            SymbolicSet::Comprehension { vars, pred, env } => match bind_point(vars, env, x) {
                Some(mut env) => self.nested(span, || self.eval_pred_in(pred, &mut env)),
                None => Ok(false),
            },
            SymbolicSet::Lambda {
                vars,
                pred,
                body,
                env,
            } => {
                let Some((args, result)) = x.as_pair() else {
                    return Ok(false);
                };
                let Some(mut env) = bind_point(vars, env, args) else {
                    return Ok(false);
                };
                self.nested(span, || {
                    if !self.eval_pred_in(pred, &mut env)? {
                        return Ok(false);
                    }
                    Ok(self.eval_value(body, &mut env)? == *result)
                })
            }
            SymbolicSet::Union(a, b) => {
                Ok(self.contains(a, x, span)? || self.contains(b, x, span)?)
            }
            SymbolicSet::Inter(a, b) => {
                Ok(self.contains(a, x, span)? && self.contains(b, x, span)?)
            }
            SymbolicSet::Minus(a, b) => {
                Ok(self.contains(a, x, span)? && !self.contains(b, x, span)?)
            }
            SymbolicSet::Product(a, b) => match x.as_pair() {
                Some((p, q)) => Ok(self.contains(a, p, span)? && self.contains(b, q, span)?),
                None => Ok(false),
            },
            SymbolicSet::Identity(s) => match x.as_pair() {
                Some((p, q)) => Ok(p == q && self.contains(s, p, span)?),
                None => Ok(false),
            },
            SymbolicSet::Trees { base, binary } => match super::trees::decode(x, *binary) {
                Some(nodes) => {
                    let values: Vec<Value> = nodes.into_values().collect();
                    self.all_in(&values, base, span)
                }
                None => Ok(false),
            },
            SymbolicSet::Struct(fields) => {
                let Value::Record(rec) = x else {
                    return Ok(false);
                };
                if rec.len() != fields.len() {
                    return Ok(false);
                }
                for ((n1, v), (n2, s)) in rec.iter().zip(fields) {
                    if n1 != n2 || !self.contains(s, v, span)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// `x : set` where `x` may itself be kept symbolic: `id(S)` is decided against arrows and sequence
    /// sets from `S` alone (`id(1..10000000) : perm(1..10000000)`); other symbolic sets are materialised.
    /// `x_span` locates `x` (for an error materialising it), `span` the membership.
    pub(crate) fn contains_val(
        &self,
        set: &Val,
        x: Val,
        x_span: Span,
        span: Span,
    ) -> Result<bool, EvalError> {
        if let (Val::Sym(xs), Val::Sym(ss)) = (&x, set)
            && let SymbolicSet::Identity(dom) = &**xs
            && let Some(answer) = self.identity_in(dom, ss, span)?
        {
            return Ok(answer);
        }
        // `x : POW(S)` is `x <: S` (and x non-empty for POW1), decided without listing x when
        // inclusion can be (`f : POW(INTEGER * INTEGER)` for a lambda kept symbolic, `NATURAL :
        // POW(NATURAL1)`); else x is listed below.
        if let (Val::Sym(_), Val::Sym(ss)) = (&x, set)
            && let SymbolicSet::PowerSet { base, non_empty } = &**ss
            && (!*non_empty || self.is_empty_set(&x).is_some())
        {
            if *non_empty && self.is_empty_set(&x) == Some(true) {
                return Ok(false);
            }
            match self.is_subset(&x, base, span) {
                Ok(answer) => return Ok(answer),
                Err(e) if e.is_timeout() || matches!(e, EvalError::WellDefinedness(_)) => {
                    return Err(e);
                }
                Err(_) => {}
            }
        }
        if let (Val::Sym(xs), Val::Sym(ss)) = (&x, set)
            && let SymbolicSet::Arrow(op, a, b) = &**ss
            && let Some(answer) = self.symbolic_in_arrow(*op, xs, a, b, span)?
        {
            return Ok(answer);
        }
        let x = self.to_value(x, x_span)?;
        self.contains(set, &x, span)
    }

    /// `x : A op B` for `x` kept symbolic, decided without listing x where its shape tells: a relation
    /// arrow is inclusion in `A * B` (`parity : INTEGER <-> INTEGER` for a recursive union); a lambda is
    /// a function whose domain, when its condition only types its variables, is the product of their
    /// sets (`%x.(x : NATURAL | x mod 2) : NATURAL --> INTEGER`), and whose range lies in B when B is a
    /// whole type. None when the shape does not decide it (the caller lists x, as ProB expands the
    /// closure: a range inside `0..1` is not decided here).
    fn symbolic_in_arrow(
        &self,
        op: BinaryOp,
        x: &Arc<SymbolicSet>,
        a: &Val,
        b: &Val,
        span: Span,
    ) -> Result<Option<bool>, EvalError> {
        let Some(asks) = op.arrow_properties() else {
            return Ok(None);
        };
        let undecided = |r: Result<bool, EvalError>| match r {
            Ok(answer) => Ok(Some(answer)),
            Err(e) if e.is_timeout() || matches!(e, EvalError::WellDefinedness(_)) => Err(e),
            Err(_) => Ok(None),
        };
        if asks == RELATION {
            let product = Val::Sym(Arc::new(SymbolicSet::Product(a.clone(), b.clone())));
            return undecided(self.is_subset(&Val::Sym(x.clone()), &product, span));
        }
        let SymbolicSet::Lambda {
            vars, pred, env, ..
        } = &**x
        else {
            return Ok(None);
        };
        if asks.injective || asks.surjective || !is_type_set(b) {
            return Ok(None);
        }
        let domain = match self.typed_domain(vars, pred, env) {
            Some(d) => d,
            None if asks.total => return Ok(None),
            None => Val::Sym(Arc::new(SymbolicSet::Comprehension {
                vars: vars.clone(),
                pred: pred.clone(),
                env: env.clone(),
            })),
        };
        if asks.total {
            undecided(self.vals_equal(&domain, a, span))
        } else {
            undecided(self.is_subset(&domain, a, span))
        }
    }

    /// The points of a closure whose condition only types its variables, one conjunct `x : S` each:
    /// `S1 * S2 * ...`, left-nested as the points are (`closure_typings`).
    fn typed_domain(&self, vars: &[TypedName], pred: &Pred, env: &Env) -> Option<Val> {
        let mut sets = self
            .closure_typings(vars, pred, env)?
            .into_iter()
            .map(|(op, set)| (op == CompareOp::In).then_some(set));
        let first = sets.next()??;
        sets.try_fold(first, |acc, s| {
            Some(Val::Sym(Arc::new(SymbolicSet::Product(acc, s?))))
        })
    }

    /// `id(dom) : set` for an arrow or a set of sequences; None for other sets or a `dom` whose shape
    /// as a sequence's domain is unknown.
    fn identity_in(
        &self,
        dom: &Val,
        set: &SymbolicSet,
        span: Span,
    ) -> Result<Option<bool>, EvalError> {
        // id(S) is an injection with domain and range S.
        match set {
            SymbolicSet::Arrow(op, a, b) => {
                let answer = self.is_subset(dom, a, span)?
                    && self.is_subset(dom, b, span)?
                    && (!arrow_asks(*op, |p| p.total) || self.vals_equal(dom, a, span)?)
                    && (!arrow_asks(*op, |p| p.surjective) || self.vals_equal(dom, b, span)?);
                Ok(Some(answer))
            }
            SymbolicSet::Sequences(kind, base) => {
                let Some(range) = self.integer_range(dom) else {
                    return Ok(None);
                };
                // A sequence's domain is 1..n.
                if !range.is_empty() && (range.lo != Some(Int::Small(1)) || range.hi.is_none()) {
                    return Ok(Some(false));
                }
                if matches!(kind, UnaryOp::Seq1 | UnaryOp::Iseq1) && range.is_empty() {
                    return Ok(Some(false));
                }
                let answer = self.is_subset(dom, base, span)?
                    && (*kind != UnaryOp::Perm || self.vals_equal(dom, base, span)?);
                Ok(Some(answer))
            }
            _ => Ok(None),
        }
    }

    fn all_in(&self, items: &[Value], set: &Val, span: Span) -> Result<bool, EvalError> {
        for x in items {
            if !self.contains(set, x, span)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn in_arrow(
        &self,
        op: BinaryOp,
        a: &Val,
        b: &Val,
        x: &Value,
        span: Span,
    ) -> Result<bool, EvalError> {
        let Some(pairs) = x.as_set() else {
            return Ok(false);
        };
        for p in pairs {
            let Some((l, r)) = p.as_pair() else {
                return Ok(false);
            };
            if !self.contains(a, l, span)? || !self.contains(b, r, span)? {
                return Ok(false);
            }
        }
        if arrow_asks(op, |p| p.functional) && !set::is_function(pairs) {
            return Ok(false);
        }
        if arrow_asks(op, |p| p.injective) && !set::is_injective(pairs) {
            return Ok(false);
        }
        // The pairs lie in a*b, so totality/surjectivity is a cardinality comparison; a finite relation is
        // never total (surjective) on an infinite set.
        if arrow_asks(op, |p| p.total) {
            let dom = set::domain(pairs).len();
            if !self.has_card(a, dom, span)? {
                return Ok(false);
            }
        }
        if arrow_asks(op, |p| p.surjective) {
            let ran = set::range(pairs).len();
            if !self.has_card(b, ran, span)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether `card(set) = n`, false for infinite sets.
    fn has_card(&self, set: &Val, n: usize, span: Span) -> Result<bool, EvalError> {
        if self.is_infinite(set) {
            return Ok(false);
        }
        Ok(self.card(set, span)? == Int::Small(n as i64))
    }

    /// Whether the set is certainly infinite (false when unknown).
    pub(crate) fn is_infinite(&self, set: &Val) -> bool {
        let Val::Sym(s) = set else {
            return false;
        };
        match &**s {
            SymbolicSet::Interval(lo, hi) => lo.is_none() || hi.is_none(),
            SymbolicSet::Strings => true,
            SymbolicSet::PowerSet { base, .. } => self.is_infinite(base),
            SymbolicSet::Sequences(UnaryOp::Seq | UnaryOp::Seq1, base) => {
                !matches!(base, Val::Value(Value::Set(v)) if v.is_empty())
            }
            SymbolicSet::Sequences(_, base) => self.is_infinite(base),
            SymbolicSet::Union(a, b) => self.is_infinite(a) || self.is_infinite(b),
            SymbolicSet::Minus(a, b) => self.is_infinite(a) && !self.is_infinite(b),
            SymbolicSet::Identity(a) => self.is_infinite(a),
            SymbolicSet::Product(a, b) => {
                let non_empty = |s: &Val| self.is_empty_set(s) == Some(false);
                (self.is_infinite(a) && non_empty(b)) || (self.is_infinite(b) && non_empty(a))
            }
            SymbolicSet::Comprehension { vars, pred, env }
            | SymbolicSet::Lambda {
                vars, pred, env, ..
            } => {
                self.closure_is_infinite(vars, pred, env)
                    || self.integer_range(set).is_some_and(|r| !r.is_finite())
            }
            _ => self.integer_range(set).is_some_and(|r| !r.is_finite()),
        }
    }

    /// Whether a closure's condition only types its variables, one conjunct `x : S` or `x <: S` each
    /// (S free of them), with some S infinite and every S non-empty: then its points form an infinite
    /// product (`%xx.(xx <: INTEGER | max(xx))`), and a lambda has as many pairs as points.
    fn closure_is_infinite(&self, vars: &[TypedName], pred: &Pred, env: &Env) -> bool {
        let Some(typings) = self.closure_typings(vars, pred, env) else {
            return false;
        };
        let mut infinite = false;
        for (op, domain) in &typings {
            // `x <: S` always has a value (the empty set); `x : S` needs S non-empty.
            if *op == CompareOp::In && self.is_empty_set(domain) != Some(false) {
                return false;
            }
            infinite |= self.is_infinite(domain);
        }
        infinite
    }

    /// When a closure's condition only types its variables, one conjunct `x : S` or `x <: S` each (S
    /// free of them and evaluable): each variable's typing, in the variables' order.
    fn closure_typings(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &Env,
    ) -> Option<Vec<(CompareOp, Val)>> {
        let conjuncts = pred.conjuncts();
        if conjuncts.len() != vars.len() {
            return None;
        }
        let mut typings: Vec<Option<(CompareOp, Val)>> = vec![None; vars.len()];
        for c in conjuncts {
            let PredKind::Compare(op @ (CompareOp::In | CompareOp::Subset), l, r) = &c.kind else {
                return None;
            };
            let crate::ir::ExprKind::Var(name) = &l.kind else {
                return None;
            };
            let i = vars.iter().position(|v| v.name == *name)?;
            if typings[i].is_some() || vars.iter().any(|v| super::enumerate::mentions(r, &v.name)) {
                return None;
            }
            typings[i] = Some((*op, self.eval(r, &mut env.clone()).ok()?));
        }
        typings.into_iter().collect()
    }

    /// `card(set)`; a WD error for an infinite set.
    pub(crate) fn card(&self, set: &Val, span: Span) -> Result<Int, EvalError> {
        if self.is_infinite(set) {
            return Err(wd_error(span, "card of an infinite set"));
        }
        if let Val::Sym(s) = set {
            match &**s {
                SymbolicSet::Interval(Some(lo), Some(hi)) => {
                    return Ok(if hi < lo {
                        Int::zero()
                    } else {
                        hi.sub(lo).succ()
                    });
                }
                SymbolicSet::PowerSet { base, non_empty } => {
                    let n = self.card(base, span)?;
                    let n = n.to_u32().ok_or_else(|| {
                        limit_error(span, "card of a power set too large to compute")
                    })?;
                    let c = Int::Small(2).pow(n);
                    return Ok(if *non_empty { c.pred() } else { c });
                }
                SymbolicSet::Arrow(op, a, b) if !self.is_infinite(a) && !self.is_infinite(b) => {
                    let (x, y) = (self.card_u64(a, span)?, self.card_u64(b, span)?);
                    if let Some(n) = super::counting::arrow_card(*op, x, y) {
                        return Ok(Int::from(n));
                    }
                }
                SymbolicSet::Sequences(op, base) if !self.is_infinite(base) => {
                    if let Some(n) =
                        super::counting::sequences_card(*op, self.card_u64(base, span)?)
                    {
                        return Ok(Int::from(n));
                    }
                }
                SymbolicSet::Product(a, b) if !self.is_infinite(a) && !self.is_infinite(b) => {
                    return Ok(self.card(a, span)?.mul(&self.card(b, span)?));
                }
                // A set too large to list less a few elements (`card((1 .. 2000000) - {2222})`).
                SymbolicSet::Minus(a, Val::Value(Value::Set(removed))) => {
                    let mut n = self.card(a, span)?;
                    for x in removed.iter() {
                        if self.contains(a, x, span)? {
                            n = n.pred();
                        }
                    }
                    return Ok(n);
                }
                // A function has as many pairs as its domain has elements.
                SymbolicSet::Lambda {
                    vars, pred, env, ..
                } => {
                    let domain = Val::Sym(Arc::new(SymbolicSet::Comprehension {
                        vars: vars.clone(),
                        pred: pred.clone(),
                        env: env.clone(),
                    }));
                    if let Some(n) = self.integer_range(&domain).and_then(|r| r.count()) {
                        return Ok(n);
                    }
                }
                _ => {
                    if let Some(n) = self.integer_range(set).and_then(|r| r.count()) {
                        return Ok(n);
                    }
                }
            }
        }
        Ok(Int::Small(self.materialize(set, span)?.len() as i64))
    }

    /// `card(set)` as a machine integer, for counting formulas over it.
    fn card_u64(&self, set: &Val, span: Span) -> Result<u64, EvalError> {
        let n = self.card(set, span)?;
        n.to_i64()
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| limit_error(span, "card of a set too large to count its functions"))
    }

    /// The elements of a finite set (a `Limit` error if infinite or too large).
    /// The set of `element(point)` over all solutions `point` of a comprehension's or lambda's condition;
    /// an error when the solutions are too many or could only be searched within MININT..MAXINT.
    pub(crate) fn collect_solutions(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &Env,
        span: Span,
        element: &mut Element<'_>,
    ) -> Result<Vec<Value>, EvalError> {
        if let Some(out) = self.collect_by_disjuncts(vars, pred, env, span, element)? {
            return Ok(out);
        }
        if let Some(out) = self.collect_by_filter(vars, pred, env, span, element)? {
            return Ok(out);
        }
        let limit = self.settings().enumeration_limit;
        let mut env = env.clone();
        let mut out = Vec::new();
        let searched = self.search(vars, pred, &mut env, &mut |ctx, env| {
            let point = tuple(&ctx.bound_values(vars, env, span)?);
            out.push(element(ctx, env, point)?);
            Ok(out.len() <= limit)
        });
        if out.len() > limit {
            return Err(too_large(span, limit));
        }
        // A variable without a finite domain (incomplete search), or one whose type is too large
        // to enumerate: the existential's witnesses or the solver may still find every solution.
        let (complete, search_error) = match searched {
            Ok(complete) => (complete, None),
            Err(e @ EvalError::Limit(_)) if !e.is_timeout() => (false, Some(e)),
            Err(e) => return Err(e),
        };
        if !complete {
            let by_solver = |element: &mut Element<'_>| {
                self.solutions_by_solver(vars, pred, &env, span, element)
                    .map_err(|e| match &search_error {
                        Some(first) if !e.is_timeout() => first.clone(),
                        _ => e,
                    })
            };
            out = match self.solutions_by_witnesses(vars, pred, &env)? {
                Some(points) => {
                    let mut out = Vec::with_capacity(points.len());
                    for point in points {
                        let mut env = bind_point(vars, &env, &point)
                            .ok_or_else(|| internal_error(span, "a witness of the wrong shape"))?;
                        out.push(element(self, &mut env, point)?);
                    }
                    out
                }
                None => by_solver(element)?,
            };
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// `{xs | P1 or P2 or ...}` as the union of each disjunct's solutions, when every disjunct's are
    /// found without error: a disjunct such as `dx = x+1 & dy = y+2` (KnightsTour's moves) binds its
    /// variables deterministically, while the disjunction as a whole leaves them unbounded for the
    /// enumeration and goes to the solver. A disjunct that fails (too many solutions, unbounded, ill-defined
    /// where an earlier disjunct would have held) sends the whole condition back the general way; a
    /// timeout is final.
    fn collect_by_disjuncts(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &Env,
        span: Span,
        element: &mut Element<'_>,
    ) -> Result<Option<Vec<Value>>, EvalError> {
        let PredKind::Or(parts) = &pred.kind else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for part in parts {
            if let Some(point) = self.defined_point(vars, part, env) {
                match point {
                    Ok(Some(mut bound)) => {
                        let point = tuple(&self.bound_values(vars, &bound, span)?);
                        out.push(element(self, &mut bound, point)?);
                    }
                    Ok(None) => {}
                    Err(e) if e.is_timeout() => return Err(e),
                    Err(_) => return Ok(None),
                }
                continue;
            }
            match self.collect_solutions(vars, part, env, span, element) {
                Ok(found) => out.extend(found),
                Err(e) if e.is_timeout() => return Err(e),
                Err(_) => return Ok(None),
            }
        }
        if out.len() > self.settings().enumeration_limit {
            return Ok(None);
        }
        out.sort_unstable();
        out.dedup();
        Ok(Some(out))
    }

    /// `{x | x : S & P}` with S known and finite: S's elements filtered by the other conjuncts, in their
    /// order, as the enumeration would check them with S as x's domain, without setting up a search
    /// (SetRelLaws evaluates such comprehensions over six elements in each of 262,144 states). `None`
    /// when the condition is not of that form or S cannot be listed.
    fn collect_by_filter(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &Env,
        span: Span,
        element: &mut Element<'_>,
    ) -> Result<Option<Vec<Value>>, EvalError> {
        let [x] = vars else {
            return Ok(None);
        };
        let conjuncts = pred.conjuncts();
        let Some((first, rest)) = conjuncts.split_first() else {
            return Ok(None);
        };
        let PredKind::Compare(CompareOp::In, member, set) = &first.kind else {
            return Ok(None);
        };
        if !matches!(&member.kind, crate::ir::ExprKind::Var(n) if *n == x.name)
            || crate::ir::free_names::expr_mentions(set, &|n| *n == x.name)
        {
            return Ok(None);
        }
        let mut env = env.clone();
        let items = match self.eval(set, &mut env) {
            Ok(set) if !self.is_infinite(&set) => match self.materialize(&set, span) {
                Ok(items) => items,
                Err(e) if e.is_timeout() => return Err(e),
                Err(_) => return Ok(None),
            },
            Ok(_) => return Ok(None),
            Err(e) if e.is_timeout() => return Err(e),
            Err(_) => return Ok(None),
        };
        let mut out = Vec::new();
        let depth = env.len();
        for item in items.iter() {
            self.check_deadline(span)?;
            env.truncate(depth);
            env.bind(x.name.clone(), item.clone());
            let mut holds = true;
            for c in rest {
                if !self.eval_pred_in(c, &mut env)? {
                    holds = false;
                    break;
                }
            }
            if holds {
                out.push(element(self, &mut env, item.clone())?);
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(Some(out))
    }

    /// The one solution of a disjunct that gives every variable by an equality `x = E` over known values
    /// (`dx = x+1 & dy = y+2`), its other conjuncts checked there: the environment with the point bound,
    /// or `None` inside when a check fails. `None` outside when the disjunct is not of that form.
    fn defined_point(
        &self,
        vars: &[TypedName],
        part: &Pred,
        env: &Env,
    ) -> Option<Result<Option<Env>, EvalError>> {
        let conjuncts = part.conjuncts();
        let is_var = |e: &Expr| matches!(&e.kind, crate::ir::ExprKind::Var(n) if vars.iter().any(|v| v.name == *n));
        let mut definitions: Vec<Option<(usize, &Expr)>> = vec![None; vars.len()];
        let mut checks = Vec::new();
        for (k, c) in conjuncts.iter().enumerate() {
            let definition = match &c.kind {
                PredKind::Compare(CompareOp::Eq, l, r) if is_var(l) && !is_var(r) => Some((l, r)),
                PredKind::Compare(CompareOp::Eq, l, r) if is_var(r) && !is_var(l) => Some((r, l)),
                _ => None,
            };
            let slot = definition.and_then(|(x, e)| {
                let crate::ir::ExprKind::Var(n) = &x.kind else {
                    return None;
                };
                let i = vars.iter().position(|v| v.name == *n)?;
                let free = !crate::ir::free_names::expr_mentions(e, &|m| {
                    vars.iter().any(|v| v.name == *m)
                });
                (definitions[i].is_none() && free).then_some((i, e))
            });
            match slot {
                Some((i, e)) => definitions[i] = Some((k, e)),
                None => checks.push(*c),
            }
        }
        if definitions.iter().any(Option::is_none) {
            return None;
        }
        let solve = || {
            let mut bound = env.clone();
            for (v, definition) in vars.iter().zip(&definitions) {
                let (_, e) = definition.expect("every variable has its definition");
                let value = self.eval(e, &mut bound)?;
                bound.bind_val(v.name.clone(), value);
            }
            for c in &checks {
                if !self.eval_pred_in(c, &mut bound)? {
                    return Ok(None);
                }
            }
            Ok(Some(bound))
        };
        Some(solve())
    }

    /// `collect_solutions` for a condition whose variables the interpreter's enumeration cannot bound
    /// (`{z | z : INTEGER & #x.(x : S & z = x * 1)}`): the propagating solver's solutions, when its
    /// search is exhaustive. The oracle (`--backend brute`) never asks the solver.
    fn solutions_by_solver(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &Env,
        span: Span,
        element: &mut Element<'_>,
    ) -> Result<Vec<Value>, EvalError> {
        if self.settings().backend == super::Backend::Brute {
            return Err(unbounded(span));
        }
        let limit = self.settings().enumeration_limit;
        let found = match self.choose_all(vars, pred, env, super::Purpose::Domain, limit + 1) {
            Ok(found) => found,
            Err(e) if e.is_timeout() => return Err(e),
            Err(_) => return Err(unbounded(span)),
        };
        if found.limited {
            return Err(too_large(span, limit));
        }
        if !found.complete {
            return Err(unbounded(span));
        }
        let mut out = Vec::with_capacity(found.solutions.len());
        for point in found.solutions {
            let mut env = env.clone();
            for (v, x) in vars.iter().zip(&point) {
                env.bind(v.name.clone(), x.clone());
            }
            out.push(element(self, &mut env, tuple(&point))?);
        }
        Ok(out)
    }

    pub(crate) fn materialize(&self, set: &Val, span: Span) -> Result<Arc<Vec<Value>>, EvalError> {
        let sym = match set {
            Val::Value(Value::Set(items)) => return Ok(items.clone()),
            Val::Value(_) => return Err(internal_error(span, "expected a set")),
            Val::Sym(s) => s,
        };
        let limit = self.settings().enumeration_limit;
        let too_large = || too_large(span, limit);
        if self.is_infinite(set) {
            return Err(limit_error(span, "cannot enumerate an infinite set"));
        }
        if !matches!(&**sym, SymbolicSet::Interval(..))
            && let Some(range) = self.integer_range(set)
            && let (Some(lo), Some(hi)) = (&range.lo, &range.hi)
        {
            return self.materialize(
                &Val::Sym(Arc::new(SymbolicSet::Interval(
                    Some(lo.clone()),
                    Some(hi.clone()),
                ))),
                span,
            );
        }
        let items = match &**sym {
            SymbolicSet::Interval(Some(lo), Some(hi)) => {
                let n = if hi < lo {
                    Int::zero()
                } else {
                    hi.sub(lo).succ()
                };
                if n.to_usize().is_none_or(|n| n > limit) {
                    return Err(too_large());
                }
                return match Value::interval(lo, hi) {
                    Value::Set(v) => Ok(v),
                    _ => unreachable!("interval builds a set"),
                };
            }
            SymbolicSet::Interval(..) | SymbolicSet::Strings | SymbolicSet::Trees { .. } => {
                return Err(limit_error(span, "cannot enumerate an infinite set"));
            }
            SymbolicSet::PowerSet { base, non_empty } => {
                let base = self.materialize(base, span)?;
                set::power_set(&base, usize::from(*non_empty), limit).ok_or_else(too_large)?
            }
            SymbolicSet::Arrow(op, a, b) => {
                let a_items = self.materialize(a, span)?;
                let b_items = self.materialize(b, span)?;
                let candidates = if arrow_asks(*op, |p| p.functional) {
                    let kind = FunctionKind {
                        total: arrow_asks(*op, |p| p.total),
                        injective: arrow_asks(*op, |p| p.injective),
                    };
                    functions(&a_items, &b_items, kind, limit, &|| {
                        self.check_deadline(span)
                    })?
                    .ok_or_else(too_large)?
                } else {
                    set::power_set(&set::product(&a_items, &b_items), 0, limit)
                        .ok_or_else(too_large)?
                };
                let mut out = Vec::new();
                for (k, c) in candidates.into_iter().enumerate() {
                    if k.is_multiple_of(4096) {
                        self.check_deadline(span)?;
                    }
                    if self.in_arrow(*op, a, b, &c, span)? {
                        out.push(c);
                    }
                }
                out.sort_unstable();
                out
            }
            SymbolicSet::Sequences(kind, base) => {
                let base = self.materialize(base, span)?;
                match kind {
                    UnaryOp::Seq => {
                        if base.is_empty() {
                            vec![Value::empty_set()]
                        } else {
                            return Err(limit_error(span, "cannot enumerate an infinite set"));
                        }
                    }
                    UnaryOp::Seq1 => Vec::new(),
                    _ => {
                        return listed_sequences(&base, *kind, limit, &|| {
                            self.check_deadline(span)
                        })?
                        .ok_or_else(too_large);
                    }
                }
            }
            SymbolicSet::Comprehension { vars, pred, env } => {
                self.collect_solutions(vars, pred, env, span, &mut |_, _, point| Ok(point))?
            }
            SymbolicSet::Lambda {
                vars,
                pred,
                body,
                env,
            } => self.collect_solutions(vars, pred, env, span, &mut |ctx, env, point| {
                Ok(Value::pair(point, ctx.eval_value(body, env)?))
            })?,
            SymbolicSet::Union(a, b) => {
                set::union(&self.materialize(a, span)?, &self.materialize(b, span)?)
            }
            SymbolicSet::Inter(a, b) => self.filter_known(a, b, true, span)?,
            SymbolicSet::Minus(a, b) => self.filter_known(a, b, false, span)?,
            // A product with an empty factor is empty, whatever the other (`STRING * {}`).
            SymbolicSet::Product(a, b)
                if self.is_empty_set(a) == Some(true) || self.is_empty_set(b) == Some(true) =>
            {
                Vec::new()
            }
            SymbolicSet::Product(a, b) => {
                let (a, b) = (self.materialize(a, span)?, self.materialize(b, span)?);
                if a.len().saturating_mul(b.len()) > limit {
                    return Err(too_large());
                }
                set::product(&a, &b)
            }
            SymbolicSet::Identity(s) => self
                .materialize(s, span)?
                .iter()
                .map(|x| Value::pair(x.clone(), x.clone()))
                .collect(),
            SymbolicSet::Struct(fields) => {
                let mut field_values = Vec::with_capacity(fields.len());
                for (name, s) in fields {
                    field_values.push((name.clone(), self.materialize(s, span)?));
                }
                set::records(&field_values, limit).ok_or_else(too_large)?
            }
        };
        Ok(Arc::new(items))
    }

    /// `a /\ b` (keep = true) or `a - b` (keep = false), enumerating `a` and testing membership in `b`
    /// (or, for an intersection, enumerating whichever side is finite).
    fn filter_known(
        &self,
        a: &Val,
        b: &Val,
        keep: bool,
        span: Span,
    ) -> Result<Vec<Value>, EvalError> {
        let (src, other) = match self.materialize(a, span) {
            Ok(items) => (items, b),
            Err(e) if keep => match self.materialize(b, span) {
                Ok(items) => (items, a),
                Err(_) => return Err(e),
            },
            Err(e) => return Err(e),
        };
        let mut out = Vec::new();
        for x in src.iter() {
            if self.contains(other, x, span)? == keep {
                out.push(x.clone());
            }
        }
        Ok(out)
    }

    /// The value of an evaluation result, materialising a symbolic set.
    pub(crate) fn to_value(&self, v: Val, span: Span) -> Result<Value, EvalError> {
        match v {
            Val::Value(v) => Ok(v),
            s @ Val::Sym(_) => Ok(Value::Set(self.materialize(&s, span)?)),
        }
    }

    /// `a <: b`.
    pub(crate) fn is_subset(&self, a: &Val, b: &Val, span: Span) -> Result<bool, EvalError> {
        // A type includes every set of its elements (`S <: INTEGER`, `S <: STRING`,
        // `%x.(x : INTEGER | x + 1) <: INTEGER * INTEGER`).
        if is_type_set(b) {
            return Ok(true);
        }
        if let Val::Value(Value::Set(items)) = a {
            if let Val::Value(Value::Set(bs)) = b {
                return Ok(set::is_subset(items, bs));
            }
            return self.all_in(items, b, span);
        }
        if let (Some(ra), Some(rb)) = (self.integer_range(a), self.integer_range(b)) {
            return Ok(ra.is_subset(&rb));
        }
        if let (Val::Sym(sa), Val::Sym(sb)) = (a, b) {
            match (&**sa, &**sb) {
                (SymbolicSet::Product(x1, y1), SymbolicSet::Product(x2, y2))
                    if self.is_infinite(a) || self.is_infinite(b) =>
                {
                    if let Some(answer) = self.product_subset([x1, y1], [x2, y2], span)? {
                        return Ok(answer);
                    }
                }
                (SymbolicSet::Strings, SymbolicSet::Strings) => return Ok(true),
                (SymbolicSet::Identity(x), SymbolicSet::Identity(y)) => {
                    return self.is_subset(x, y, span);
                }
                (
                    SymbolicSet::PowerSet {
                        base: x,
                        non_empty: n1,
                    },
                    SymbolicSet::PowerSet {
                        base: y,
                        non_empty: n2,
                    },
                ) if *n1 || !*n2 => return self.is_subset(x, y, span),
                _ => {}
            }
        }
        // An infinite set is never included in a finite one (`NATURAL1 <: NAT1`).
        if matches!(b, Val::Value(_)) && self.is_infinite(a) {
            return Ok(false);
        }
        if let Val::Sym(sa) = a
            && let SymbolicSet::Union(x, y) = &**sa
        {
            return Ok(self.is_subset(x, b, span)? && self.is_subset(y, b, span)?);
        }
        if let Val::Sym(sb) = b
            && let SymbolicSet::Inter(x, y) = &**sb
        {
            return Ok(self.is_subset(a, x, span)? && self.is_subset(a, y, span)?);
        }
        // Sufficient conditions, tried before enumerating `a`: one side of an intersection included
        // in `b`, or `a` included in one side of a union (`NATURAL /\ INTEGER <: NATURAL`).
        let parts = match (a, b) {
            (Val::Sym(sa), _) if matches!(&**sa, SymbolicSet::Inter(..)) => match &**sa {
                SymbolicSet::Inter(x, y) => Some([(x, b), (y, b)]),
                _ => None,
            },
            (_, Val::Sym(sb)) if matches!(&**sb, SymbolicSet::Union(..)) => match &**sb {
                SymbolicSet::Union(x, y) => Some([(a, x), (a, y)]),
                _ => None,
            },
            _ => None,
        };
        for (p, q) in parts.into_iter().flatten() {
            match self.is_subset(p, q, span) {
                Ok(true) => return Ok(true),
                Err(e) if e.is_timeout() => return Err(e),
                _ => {}
            }
        }
        match self.materialize(a, span) {
            Ok(items) => self.all_in(&items, b, span),
            Err(EvalError::Limit(_)) => Err(super::unsupported(
                span,
                "inclusion between infinite or unbounded symbolic sets",
            )),
            Err(e) => Err(e),
        }
    }

    /// `x1 * y1 <: x2 * y2` when decided by the components: true when both are included, false when
    /// one is not and neither of `x1`, `y1` is empty; None when unknown.
    fn product_subset(
        &self,
        [x1, y1]: [&Val; 2],
        [x2, y2]: [&Val; 2],
        span: Span,
    ) -> Result<Option<bool>, EvalError> {
        let known = |r: Result<bool, EvalError>| match r {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.is_timeout() => Err(e),
            Err(_) => Ok(None),
        };
        let first = known(self.is_subset(x1, x2, span))?;
        let second = known(self.is_subset(y1, y2, span))?;
        if first == Some(true) && second == Some(true) {
            return Ok(Some(true));
        }
        let non_empty =
            |s: &Val| self.is_infinite(s) || matches!(self.is_empty_set(s), Some(false));
        Ok(
            (matches!((first, second), (Some(false), _) | (_, Some(false)))
                && non_empty(x1)
                && non_empty(y1))
            .then_some(false),
        )
    }

    /// Whether a set is empty, when known without enumerating it.
    pub(crate) fn is_empty_set(&self, s: &Val) -> Option<bool> {
        match s {
            Val::Value(Value::Set(items)) => Some(items.is_empty()),
            Val::Value(_) => None,
            Val::Sym(sym) => match &**sym {
                SymbolicSet::Strings => Some(false),
                SymbolicSet::PowerSet { non_empty, .. } => (!*non_empty).then_some(false),
                _ if self.is_infinite(s) => Some(false),
                _ => self.integer_range(s).map(|r| r.is_empty()),
            },
        }
    }

    /// `a = b` for evaluation results.
    pub(crate) fn vals_equal(&self, a: &Val, b: &Val, span: Span) -> Result<bool, EvalError> {
        if (matches!(a, Val::Sym(_)) || matches!(b, Val::Sym(_)))
            && let (Some(ra), Some(rb)) = (self.integer_range(a), self.integer_range(b))
        {
            return Ok(ra.same_set(&rb));
        }
        match (a, b) {
            (Val::Value(x), Val::Value(y)) => Ok(x == y),
            (Val::Value(x), s @ Val::Sym(_)) | (s @ Val::Sym(_), Val::Value(x)) => {
                if self.is_infinite(s) {
                    return Ok(false);
                }
                match x {
                    Value::Set(items) => Ok(*self.materialize(s, span)? == **items),
                    _ => Err(internal_error(span, "comparing a set with a non-set")),
                }
            }
            (Val::Sym(_), Val::Sym(_)) => {
                // `is_infinite` is false also when finiteness is unknown (`NATURAL /\ INTEGER`): only
                // an infinite set against one that can be enumerated differs for sure.
                if self.is_infinite(a) != self.is_infinite(b) {
                    let other = if self.is_infinite(a) { b } else { a };
                    match self.materialize(other, span) {
                        Ok(_) => return Ok(false),
                        Err(e) if matches!(e, EvalError::Limit(_)) && !e.is_timeout() => {}
                        Err(e) => return Err(e),
                    }
                }
                Ok(self.is_subset(a, b, span)? && self.is_subset(b, a, span)?)
            }
        }
    }
}

/// Whether `s` is a whole type kept symbolic (INTEGER, STRING, and power sets, products and structs of
/// types): it contains every well-typed value, so membership and inclusion in it are true.
pub(crate) fn is_type_set(s: &Val) -> bool {
    let Val::Sym(sym) = s else {
        return false;
    };
    match &**sym {
        SymbolicSet::Interval(None, None) | SymbolicSet::Strings => true,
        SymbolicSet::PowerSet {
            base,
            non_empty: false,
        } => is_type_set(base),
        SymbolicSet::Product(a, b) => is_type_set(a) && is_type_set(b),
        SymbolicSet::Struct(fields) => fields.iter().all(|(_, f)| is_type_set(f)),
        _ => false,
    }
}

fn too_large(span: Span, limit: usize) -> EvalError {
    limit_error(
        span,
        format!("set too large to enumerate (more than {limit} elements)"),
    )
}

fn unbounded(span: Span) -> EvalError {
    limit_error(
        span,
        "cannot enumerate a set whose bound variables have no finite domain",
    )
}

/// What kind of functions `functions` lists.
#[derive(Clone, Copy)]
struct FunctionKind {
    total: bool,
    injective: bool,
}

/// All partial (or total, or injective) functions from `a` to `b`, in no particular order; `Ok(None)`
/// when more than `limit`. Injective ones are built directly (8! injections of 1..8, not the 8^8
/// functions they would be filtered from); `check` is called every few thousand functions (the
/// deadline).
fn functions(
    a: &[Value],
    b: &[Value],
    kind: FunctionKind,
    limit: usize,
    check: &dyn Fn() -> Result<(), EvalError>,
) -> Result<Option<Vec<Value>>, EvalError> {
    // The count first, so that a hopeless enumeration is refused before it starts.
    let mut count: usize = 1;
    for k in 0..a.len() {
        let choices = if kind.injective {
            b.len().saturating_sub(if kind.total { k } else { 0 })
        } else {
            b.len()
        } + usize::from(!kind.total);
        let Some(c) = count.checked_mul(choices) else {
            return Ok(None);
        };
        count = c;
        if count > limit {
            return Ok(None);
        }
    }
    struct Lister<'a> {
        a: &'a [Value],
        b: &'a [Value],
        kind: FunctionKind,
        used: Vec<bool>,
        pairs: Vec<Value>,
        out: Vec<Value>,
        check: &'a dyn Fn() -> Result<(), EvalError>,
    }
    impl Lister<'_> {
        fn go(&mut self, i: usize) -> Result<(), EvalError> {
            if i == self.a.len() {
                if self.out.len().is_multiple_of(4096) {
                    (self.check)()?;
                }
                self.out.push(Value::set_from_sorted(self.pairs.clone()));
                return Ok(());
            }
            if !self.kind.total {
                self.go(i + 1)?;
            }
            for t in 0..self.b.len() {
                if self.kind.injective && self.used[t] {
                    continue;
                }
                self.used[t] = true;
                self.pairs
                    .push(Value::pair(self.a[i].clone(), self.b[t].clone()));
                self.go(i + 1)?;
                self.pairs.pop();
                self.used[t] = false;
            }
            Ok(())
        }
    }
    let mut lister = Lister {
        a,
        b,
        kind,
        used: vec![false; b.len()],
        pairs: Vec::with_capacity(a.len()),
        out: Vec::with_capacity(count),
        check,
    };
    lister.go(0)?;
    Ok(Some(lister.out))
}

/// `iseq(S)`, `iseq1(S)` or `perm(S)` of a finite set, or `Ok(None)` when more than `limit` (counted
/// before any is built: `perm` of 15 elements is refused at once, not after a million of them); `check`
/// is called every few thousand sequences (the deadline).
fn injective_sequences(
    base: &[Value],
    kind: UnaryOp,
    limit: usize,
    check: &dyn Fn() -> Result<(), EvalError>,
) -> Result<Option<Vec<Value>>, EvalError> {
    let n = base.len();
    let lengths = match kind {
        UnaryOp::Perm => n..=n,
        UnaryOp::Iseq1 => 1..=n,
        _ => 0..=n,
    };
    // n!/(n-k)! sequences of length k.
    let mut count: usize = 0;
    let mut of_length: usize = 1;
    for k in 0..=n {
        if lengths.contains(&k) {
            count = count.saturating_add(of_length);
        }
        if count > limit {
            return Ok(None);
        }
        let Some(next) = of_length.checked_mul(n - k) else {
            return Ok(None);
        };
        of_length = next;
    }
    // A sequence of length k is an injection from 1..k: `functions` lists those of each length.
    let indices: Vec<Value> = (1..=n).map(|i| Value::int(i as i64)).collect();
    let total_injections = FunctionKind {
        total: true,
        injective: true,
    };
    let mut out = Vec::with_capacity(count);
    for k in lengths {
        match functions(&indices[..k], base, total_injections, limit, check)? {
            Some(of_length) => out.extend(of_length),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{empty_machine, truth, value_of};

    #[test]
    fn inclusion_and_equality_of_unbounded_sets() {
        let model = empty_machine("sets");
        for (text, expected) in [
            // Finiteness of an intersection is unknown to `is_infinite`: equality must not be refuted.
            ("NATURAL /\\ INTEGER = NATURAL", true),
            ("INTEGER /\\ NATURAL1 <: NATURAL", true),
            ("NATURAL1 <: NAT1", false),
            ("NATURAL1 \\/ {0} <: NATURAL", true),
            ("NATURAL1 <: NATURAL \\/ {-1}", true),
            ("NATURAL1 <: INTEGER /\\ NATURAL", true),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn sets_are_included_in_their_type() {
        let model = empty_machine("types");
        for (text, expected) in [
            ("%x.(x : INTEGER | x + 1) : POW(INTEGER * INTEGER)", true),
            ("%x.(x : INTEGER | x + 1) <: INTEGER * INTEGER", true),
            (
                "{x, y | x : NATURAL & y = x * 2} : POW(INTEGER * INTEGER)",
                true,
            ),
            ("NATURAL : POW(INTEGER)", true),
            ("NATURAL : POW(NATURAL1)", false),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn functions_and_injective_sequences_are_listed_exactly() {
        let model = empty_machine("listing");
        for text in [
            "card(1..4 >-> 1..4) = 24",
            "card(1..3 >+> 1..2) = 13",
            "card(1..3 >-> 1..2) = 0",
            "card(1..3 --> 1..2) = 8",
            "card(1..2 +-> 1..2) = 9",
            "card(1..3 >->> 1..3) = 6",
            "card(1..3 -->> 1..2) = 6",
            "{f | f : 1..2 >-> 1..3 & f(1) = 3} = {{1|->3, 2|->1}, {1|->3, 2|->2}}",
            "card(iseq({1,2,3})) = 16",
            "card(iseq1({1,2,3})) = 15",
            "card(perm({1,2,3,4})) = 24",
            "perm({}) = {{}}",
            "iseq1({}) = {}",
        ] {
            assert_eq!(truth(&model, text), Ok(true), "{text}");
        }
    }

    #[test]
    fn comprehensions_over_disjunctions_are_the_union_of_each_disjunct() {
        let model = empty_machine("disjuncts");
        for (text, expected) in [
            // KnightsTour's moves: each disjunct defines both variables.
            (
                "{dx, dy | (dx = 3 + 1 & dy = 3 + 2) or (dx = 3 - 2 & dy = 3 + 1) or (dy = 5 & dx = 4)}",
                "{1|->4,4|->5}",
            ),
            // The other conjuncts of a defining disjunct are checked at its point.
            (
                "{x, y | (x = 1 & y = x + 1 & y > 5) or (x = 2 & y = 3)}",
                "{2|->3}",
            ),
            // A variable defined by another: not a defining disjunct, found by the general search.
            (
                "{x, y | (x = y & y = 2) or (x = 7 & y : {1, 2})}",
                "{2|->2,7|->1,7|->2}",
            ),
            // A disjunct without a finite set of solutions sends the whole back the general way.
            ("{x | (x = 1) or (x : 5..6)}", "{1,5,6}"),
        ] {
            assert_eq!(value_of(&model, text).as_deref(), Ok(expected), "{text}");
        }
        // Ill-defined in a disjunct: the general way decides (here, an error as before).
        assert!(value_of(&model, "{x | x = 1 / 0 or x = 2}").is_err());
        // An infinite disjunct: no listing (the set stays symbolic, its size unknown).
        assert!(value_of(&model, "card({x | x = 1 or x > 0})").is_err());
    }

    #[test]
    fn comprehensions_over_a_known_set_filter_its_elements_in_order() {
        let model = empty_machine("filters");
        for (text, expected) in [
            ("{xx | xx : {1, 2, 3, 4} & xx > 2}", "{3,4}"),
            // The conjuncts are checked in their order: `x /= 0` guards the division.
            ("{x | x : {0, 1, 2} & x /= 0 & 6 / x > 2}", "{1,2}"),
            ("{x | x : {1, 2, 3} & x /= 2}", "{1,3}"),
            // A lambda's pairs, built from each kept element.
            ("%x.(x : {1, 2, 3} & x /= 2 | x * 10)", "{1|->10,3|->30}"),
            (
                "{p | p : {1, 2} * {3} & prj1(INTEGER, INTEGER)(p) = 2}",
                "{2|->3}",
            ),
        ] {
            assert_eq!(value_of(&model, text).as_deref(), Ok(expected), "{text}");
        }
        assert!(value_of(&model, "{x | x : {0, 1} & 6 / x > 2}").is_err());
    }

    #[test]
    fn listings_of_injective_sequences_are_kept_per_base_and_kind() {
        let model = empty_machine("listings");
        // The same base twice (the second listing from the thread's cache), another base of the same
        // size, and the other kinds over the first base: each its own listing.
        for _ in 0..2 {
            assert_eq!(
                value_of(&model, "perm({1, 2})").as_deref(),
                Ok("{{1|->1,2|->2},{1|->2,2|->1}}")
            );
        }
        assert_eq!(
            value_of(&model, "perm({3, 4})").as_deref(),
            Ok("{{1|->3,2|->4},{1|->4,2|->3}}")
        );
        assert_eq!(truth(&model, "card(iseq({1, 2})) = 5"), Ok(true));
        assert_eq!(truth(&model, "card(iseq1({1, 2})) = 4"), Ok(true));
        assert_eq!(truth(&model, "card(perm({1, 2})) = 2"), Ok(true));
        assert_eq!(
            truth(&model, "[2, 1] : perm({1, 2}) & [1, 1] /: iseq({1, 2})"),
            Ok(true)
        );
    }

    #[test]
    fn closures_that_only_type_their_variables_are_infinite() {
        let model = empty_machine("closures");
        for (text, expected) in [
            ("%xx.(xx <: INTEGER | max(xx)) = {}", false),
            ("{x, y | x : NATURAL & y : {1, 2}} = {(1, 1)}", false),
            ("{x, y | x : NATURAL & y : {1, 2}} = {}", false),
            // An empty factor empties the product; a second conjunct is not a typing one.
            ("{x, y | x : NATURAL & y : {1} - {1}} = {}", true),
            ("card({x | x : NATURAL & x < 3}) = 3", true),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
        assert_eq!(
            value_of(&model, "%xx.(xx <: INTEGER | max(xx))[{{1}, {2, 5}}]"),
            Ok("{1,5}".to_string())
        );
    }

    #[test]
    fn sets_that_are_intervals_are_compared_as_intervals() {
        let model = empty_machine("ranges");
        for (text, expected) in [
            ("NATURAL1 - NATURAL = {}", true),
            ("NATURAL - {0} = NATURAL1", true),
            ("NATURAL - {0} /= NATURAL", true),
            (
                "(NATURAL - (0..3)) - (4..100000) = NATURAL - (0..100000)",
                true,
            ),
            ("(NATURAL - (0..3)) = {x | x : INTEGER & 4 <= x}", true),
            (
                "{x | x >= 10} /\\ {x | x : INTEGER & 99999 >= x} = 10..99999",
                true,
            ),
            (
                "{x | x >= 10} /\\ {x | x : INTEGER & 99999 >= x} = 10..999998",
                false,
            ),
            ("{x | x > 0} <: NATURAL", true),
            ("{x | x > -1 & x < 5} <: NATURAL1", false),
            ("{0} \\/ 1..1000000 = 0..1000000", true),
            ("{0} \\/ 1..1000000 = 0..999999", false),
            ("dom(%x.(x : 1..2000000 | x * 2)) = 1..2000000", true),
            // A set of integers is always included in INTEGER, a product by its components.
            ("{x | x mod 2 = 0} <: INTEGER", true),
            ("NATURAL * NAT <: NATURAL * NATURAL", true),
            ("NATURAL * NATURAL <: NATURAL * NAT", false),
            // A product with an empty factor is empty.
            ("NATURAL * {} <: {1} * NAT", true),
            // id(S) against arrows and sequence sets, from S alone.
            ("id(1..10000000) : 1..10000000 >->> 1..10000000", true),
            ("id(1..10000000) : perm(1..10000000)", true),
            ("id(1..10000000) : perm(1..10000001)", false),
            ("id(2..10000000) : seq(NATURAL)", false),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
        for (text, expected) in [
            ("card(%x.(x : 1..2000000 | x * 2))", "2000000"),
            ("card((NATURAL - (0..3)) /\\ -1000..100000)", "99997"),
            ("max({x | x < 100 & x > 5})", "99"),
            ("min({x | x : INTEGER & x > 5} - (6..9))", "10"),
            ("min(NATURAL - {0, 2})", "1"),
            ("max({x | x < 10} - {9, 8, 6})", "7"),
        ] {
            assert_eq!(value_of(&model, text).as_deref(), Ok(expected), "{text}");
        }
        // Not intervals, or not decidable by bounds: an honest error, never a guess.
        for text in [
            "{x | x mod 2 = 0} <: NATURAL",
            "INTEGER - {0} = {x | x /= 0}",
        ] {
            assert!(truth(&model, text).is_err(), "{text}");
        }
        assert!(value_of(&model, "max(NATURAL - {3})").is_err());
        assert_eq!(
            value_of(&model, "closure1({x, y | y + y = x})[{1024}]").as_deref(),
            Ok("{1,2,4,8,16,32,64,128,256,512}")
        );
        // The image of a comprehension at a point solves for the last variable only.
        assert_eq!(
            value_of(&model, "{x, y | y + y = x}[{1024}]").as_deref(),
            Ok("{512}")
        );
    }

    #[test]
    fn comprehensions_without_a_finite_domain_are_enumerated_through_witnesses() {
        if !crate::solve::smt::available_for_test(
            "comprehensions_without_a_finite_domain_are_enumerated_through_witnesses",
        ) {
            return;
        }
        let model = empty_machine("witnesses");
        for (text, expected) in [
            (
                "{x | x : INTEGER & #n.(n : 1..5 & 2 ** n = x)} = {2, 4, 8, 16, 32}",
                true,
            ),
            (
                "{x | x : INTEGER & #n.(n : 1..5 & 2 ** n = x) & x > 10} = {16, 32}",
                true,
            ),
            (
                "{z | z : INTEGER & #x.(x : {1, 2} & z = x * 1)} = {1, 2}",
                true,
            ),
            ("{nxt | #l.(l = {2} & nxt = {1 |-> 2})} = {{1 |-> 2}}", true),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
        // A linear equation has at most one solution (`enumerate::solve_linear`).
        for (text, expected) in [
            ("#c.(c = c + 1)", false),
            ("#c.(c : INTEGER & 2 * c + 1 = 7 & c > 2)", true),
            ("#c.(c : INTEGER & 2 * c = 7)", false),
            ("{c | c : INTEGER & 3 - c = c * 2 - 9} = {4}", true),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
        // A trivial equation gives no candidate: a law over all integers is beyond the enumeration;
        // the SMT solver proves it over unbounded integers (`Context::smt_witness`).
        assert_eq!(truth(&model, "!c.(c : INTEGER => c + 1 = 1 + c)"), Ok(true));
        // Infinitely many witnesses: still an error.
        assert!(
            value_of(
                &model,
                "card({x | x : INTEGER & #n.(n : NATURAL & x = 2 * n)})"
            )
            .is_err()
        );
    }

    #[test]
    fn quantifiers_over_domains_too_large_to_enumerate_ask_the_solver() {
        if !crate::solve::smt::available_for_test(
            "quantifiers_over_domains_too_large_to_enumerate_ask_the_solver",
        ) {
            return;
        }
        let model = empty_machine("quantifiers");
        assert_eq!(
            truth(
                &model,
                "#g.(g : 1..10 --> 1..10 & !x.(x : 1..10 => g(x) /= x) & g(1) > 7)"
            ),
            Ok(true)
        );
        // A law over all integers cannot be enumerated: the SMT solver decides it, never a guess.
        assert_eq!(truth(&model, "!x.(x : INTEGER => x + 0 = x)"), Ok(true));
        assert_eq!(truth(&model, "!x.(x : INTEGER => x + 1 = x)"), Ok(false));
    }
}
