//! Translation of B IR into the boolean circuit (Kodkod's `fol2sat`, after Plagge & Leuschel 2012 Fig. 3).
//!
//! A value is a `Term` of circuit literals:
//! * an element of BOOL or of a given set is a one-hot choice over its candidate values (`Scalar`);
//! * an integer is a bit-vector with a proven range (`integers`);
//! * a pair is a pair of terms;
//! * a set (a relation included) is a sparse membership matrix: candidate elements with the literal saying
//!   whether each is in the set (Kodkod's boolean matrix over the tuples of the bounds). An element absent
//!   from the map is not in the set;
//! * a function into sets (`f : A --> (B --> C)`, `f : A +-> POW(B)`) is curried: per candidate argument,
//!   whether it is in the domain and the membership matrix of its image (Kodkod's ternary relation grouped
//!   by its first column). It is functional by construction; `f(x)(y)` applies twice.
//!
//! Sub-expressions over known values only are evaluated by the interpreter and enter as constants.
//! Predicates give a `Truth`: whether they hold, and whether they are well-defined, following the
//! interpreter's left-to-right reading (`P & Q` is ill-defined when P is, or when P holds and Q is
//! ill-defined). Quantifiers and comprehensions are grounded over bounded candidate values; where the
//! interpreter's order of evaluation would decide between "false" and "ill-defined" (a body that may be
//! ill-defined), the construct is refused as unsupported rather than guessed.

use super::circuit::{Circuit, FALSE, Lit, Node, TRUE};
use super::integers::{self, BitVec};
use crate::diag::{Diagnostic, Span};
use crate::eval::{Context, Env, EvalError, is_type_set};
use crate::ir::{
    ArrowProperties, BinaryOp, BinderKind, CompareOp, Expr, ExprConst, ExprKind, Pred, PredKind,
    TypedName, UnaryOp, free_names,
};
use crate::solve::interval;
use crate::syntax::ast::Name;
use crate::types::Type;
use crate::value::Value;
use num_traits::ToPrimitive;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

mod sequences;

/// A set as a sparse membership matrix (no `FALSE` entries).
pub type SetTerm = BTreeMap<Value, Lit>;

/// A function into sets: per candidate argument, whether it is in the domain and its image.
pub type FunTerm = BTreeMap<Value, (Lit, SetTerm)>;

/// The name under which `membership` sees an image of a function into sets (no B identifier has it).
const IMAGE_NAME: &str = "#image";

#[derive(Clone, Debug)]
pub enum Term {
    /// Exactly one of the candidates (when well-defined).
    Scalar(Vec<(Value, Lit)>),
    Int(BitVec),
    Pair(Box<Term>, Box<Term>),
    Set(SetTerm),
    /// A function into sets (shared: applications read it many times).
    Fun(Rc<FunTerm>),
}

/// A predicate's translation.
#[derive(Clone, Copy, Debug)]
pub struct Truth {
    pub holds: Lit,
    pub defined: Lit,
}

type Tr<T> = Result<T, Diagnostic>;

/// The most candidate values one term, interval or quantifier may expand to.
const MAX_CANDIDATES: usize = 100_000;

pub fn unsupported(span: Span, what: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::unsupported(span, what)
}

pub struct Translator<'a> {
    pub ctx: &'a Context,
    pub circuit: Circuit,
    env: Env,
    unknowns: FxHashMap<Name, Term>,
    /// Well-definedness conditions of the expressions of the atomic predicate being translated.
    wd: Vec<Lit>,
    /// Literals true in every model the search considers (the asserted top-level conjuncts and the
    /// gates they are conjunctions of). A well-definedness condition implied by them is settled as
    /// true: where it could fail, the model is no solution anyway (`f(x)` with `f : A --> B` and x in A).
    facts: FxHashSet<Lit>,
    /// Quantifiers over instances that may be ill-defined are translated as well-defined only when
    /// every instance is (stricter than any order the interpreter could take), instead of refused:
    /// for questions where an ill-defined candidate may just be dropped (`transition`).
    strict_wd: bool,
    /// Nodes translated since the last poll of the deadline (`poll`).
    since_poll: u32,
}

/// Expressions and predicates translated between two polls of the deadline.
const POLL_NODES: u32 = 64;

/// The values of a finite type, when it is one (BOOL, given sets, pairs of those).
pub fn finite_values(ctx: &Context, ty: &Type) -> Option<Vec<Value>> {
    match ty {
        Type::Bool => Some(vec![Value::Bool(false), Value::Bool(true)]),
        Type::Given(n) => ctx.given_set(n, Span::default()).ok().map(|s| s.to_vec()),
        Type::Pair(a, b) => {
            let (a, b) = (finite_values(ctx, a)?, finite_values(ctx, b)?);
            if a.len().saturating_mul(b.len()) > MAX_CANDIDATES {
                return None;
            }
            Some(crate::value::set::product(&a, &b))
        }
        _ => None,
    }
}

fn small_int(v: &Value, span: Span) -> Tr<i64> {
    v.as_int()
        .and_then(|i| i.to_i64())
        .filter(|&i| integers::in_limits(i, i))
        .ok_or_else(|| {
            unsupported(
                span,
                format!("the integer {v} (too large for a bit-vector)"),
            )
        })
}

/// The range of `x * y` from the four corners of the operands' ranges.
fn product_range(x: &BitVec, y: &BitVec) -> (i128, i128) {
    let (xl, xh, yl, yh) = (x.lo as i128, x.hi as i128, y.lo as i128, y.hi as i128);
    let c = [xl * yl, xl * yh, xh * yl, xh * yh];
    let lo = *c.iter().min().expect("four corners");
    let hi = *c.iter().max().expect("four corners");
    (lo, hi)
}

fn pair_parts(v: &Value) -> (&Value, &Value) {
    v.as_pair().expect("an element of a relation is a pair")
}

/// Whether values of `ty` are encoded as `Term::Fun`: relations whose second component is a set of
/// first-order elements.
pub fn is_fun_type(ty: &Type) -> bool {
    match ty {
        Type::Set(elem) => match &**elem {
            Type::Pair(_, image) => match &**image {
                Type::Set(inner) => {
                    !matches!(**inner, Type::Set(_) | Type::String | Type::Struct(_))
                }
                _ => false,
            },
            _ => false,
        },
        _ => false,
    }
}

impl<'a> Translator<'a> {
    pub fn new(ctx: &'a Context, env: &Env) -> Translator<'a> {
        Translator {
            ctx,
            circuit: Circuit::new(),
            env: env.clone(),
            unknowns: FxHashMap::default(),
            wd: Vec::new(),
            facts: FxHashSet::default(),
            strict_wd: false,
            since_poll: 0,
        }
    }

    /// Polls the deadline (and a portfolio lane's cancellation) once per `POLL_NODES` nodes: one
    /// conjunct of wide arithmetic takes milliseconds to translate, and a lane that lost the race keeps
    /// its question waiting until it stops.
    fn poll(&mut self, span: Span) -> Tr<()> {
        self.since_poll += 1;
        if self.since_poll < POLL_NODES {
            return Ok(());
        }
        self.since_poll = 0;
        self.ctx.check_deadline(span).map_err(Diagnostic::from)
    }

    /// See `strict_wd`.
    pub fn strict_well_definedness(&mut self) {
        self.strict_wd = true;
    }

    /// Records that `l` is asserted: it and every gate it is a conjunction of are facts.
    pub fn assume(&mut self, l: Lit) {
        let mut stack = vec![l];
        while let Some(l) = stack.pop() {
            if l.is_const() || !self.facts.insert(l) {
                continue;
            }
            if !l.is_negated()
                && let Node::And(a, b) = self.circuit.node(l.node())
            {
                stack.push(a);
                stack.push(b);
            }
        }
    }

    /// `l`, or TRUE when the facts imply it (it is one, or a conjunction of them).
    fn settle(&self, l: Lit) -> Lit {
        fn implied(tr: &Translator<'_>, l: Lit, depth: u32) -> bool {
            if l == TRUE || tr.facts.contains(&l) {
                return true;
            }
            if depth == 0 || l.is_negated() || l.is_const() {
                return false;
            }
            match tr.circuit.node(l.node()) {
                Node::And(a, b) => implied(tr, a, depth - 1) && implied(tr, b, depth - 1),
                _ => false,
            }
        }
        if implied(self, l, 32) { TRUE } else { l }
    }

    pub fn declare(&mut self, name: Name, term: Term) {
        self.unknowns.insert(name, term);
    }

    /// The term of `e` for an unknown that a top-level equation `v = e` defines, with the condition
    /// under which e is well-defined (where it is not, the equation is ill-defined: no solution).
    pub fn definition(&mut self, e: &Expr) -> Tr<(Term, Lit)> {
        let mark = self.wd.len();
        let t = self.expr(e)?;
        let conds: Vec<Lit> = self.wd.drain(mark..).collect();
        let defined = self.circuit.and_all(conds);
        Ok((t, defined))
    }

    pub fn env(&self) -> &Env {
        &self.env
    }

    // ---- values and terms ------------------------------------------------------------------------

    /// A known value as a term of type `ty`.
    pub fn constant(&self, v: &Value, ty: &Type, span: Span) -> Tr<Term> {
        Ok(match ty {
            Type::Integer => Term::Int(BitVec::constant(small_int(v, span)?)),
            Type::Bool | Type::Given(_) => Term::Scalar(vec![(v.clone(), TRUE)]),
            Type::Pair(a, b) => {
                let (x, y) = v
                    .as_pair()
                    .ok_or_else(|| unsupported(span, "a pair value of an unexpected shape"))?;
                Term::Pair(
                    Box::new(self.constant(x, a, span)?),
                    Box::new(self.constant(y, b, span)?),
                )
            }
            Type::Set(elem) if is_fun_type(ty) => {
                let Type::Pair(_, image_ty) = &**elem else {
                    unreachable!("a function type is a set of pairs")
                };
                let items = v
                    .as_set()
                    .ok_or_else(|| unsupported(span, "a set value of an unexpected shape"))?;
                let mut f = FunTerm::new();
                for item in items {
                    let (x, image) = item
                        .as_pair()
                        .ok_or_else(|| unsupported(span, "a pair value of an unexpected shape"))?;
                    // An image that is itself a function into sets has no set term.
                    let Term::Set(image) = self.constant(image, image_ty, span)? else {
                        return Err(unsupported(
                            span,
                            "a known function whose images are functions into sets",
                        ));
                    };
                    if f.insert(x.clone(), (TRUE, image)).is_some() {
                        return Err(unsupported(
                            span,
                            "a known relation into sets that is not a function",
                        ));
                    }
                }
                Term::Fun(Rc::new(f))
            }
            Type::Set(inner) => {
                if matches!(**inner, Type::Set(_) | Type::String | Type::Struct(_)) {
                    return Err(unsupported(span, format!("a value of type {ty}")));
                }
                let items = v
                    .as_set()
                    .ok_or_else(|| unsupported(span, "a set value of an unexpected shape"))?;
                if items.len() > MAX_CANDIDATES {
                    return Err(unsupported(span, "a known set too large to translate"));
                }
                Term::Set(items.iter().map(|x| (x.clone(), TRUE)).collect())
            }
            _ => return Err(unsupported(span, format!("values of type {ty}"))),
        })
    }

    /// The condition that `t` equals the known value `v`.
    fn equals_value(&mut self, t: &Term, v: &Value) -> Lit {
        match t {
            Term::Scalar(cands) => cands
                .iter()
                .find(|(c, _)| c == v)
                .map_or(FALSE, |(_, l)| *l),
            Term::Int(b) => match v.as_int().and_then(|i| i.to_i64()) {
                Some(i) => b.eq_const(&mut self.circuit, i),
                None => FALSE,
            },
            Term::Pair(a, b) => match v.as_pair() {
                Some((x, y)) => {
                    let l = self.equals_value(a, x);
                    let r = self.equals_value(b, y);
                    self.circuit.and(l, r)
                }
                None => FALSE,
            },
            Term::Set(s) => match v.as_set() {
                Some(items) => {
                    let mut conds = Vec::new();
                    for x in items {
                        conds.push(s.get(x).copied().unwrap_or(FALSE));
                    }
                    for (k, l) in s {
                        if !crate::value::set::contains(items, k) {
                            conds.push(!*l);
                        }
                    }
                    self.circuit.and_all(conds)
                }
                None => FALSE,
            },
            Term::Fun(f) => match v.as_set() {
                Some(items) => {
                    let mut conds = Vec::new();
                    let mut seen = 0;
                    for item in items {
                        let Some((x, image)) = item.as_pair() else {
                            return FALSE;
                        };
                        let Some((d, s)) = f.get(x) else {
                            return FALSE;
                        };
                        seen += 1;
                        let same = self.equals_value(&Term::Set(s.clone()), image);
                        conds.push(*d);
                        conds.push(same);
                    }
                    // The arguments of `f` outside the value's domain.
                    if seen < f.len() {
                        for (x, (d, _)) in f.iter() {
                            if !items
                                .iter()
                                .any(|i| i.as_pair().is_some_and(|(y, _)| y == x))
                            {
                                conds.push(!*d);
                            }
                        }
                    }
                    self.circuit.and_all(conds)
                }
                None => FALSE,
            },
        }
    }

    /// The values `t` may take, each with its condition.
    fn candidates(&mut self, t: &Term, span: Span) -> Tr<Vec<(Value, Lit)>> {
        Ok(match t {
            Term::Scalar(c) => c.clone(),
            Term::Int(b) => {
                if (b.hi - b.lo) as usize >= MAX_CANDIDATES {
                    return Err(unsupported(
                        span,
                        format!(
                            "an integer ranging over {}..{} used as a set element",
                            b.lo, b.hi
                        ),
                    ));
                }
                (b.lo..=b.hi)
                    .map(|v| (Value::int(v), b.eq_const(&mut self.circuit, v)))
                    .filter(|(_, l)| *l != FALSE)
                    .collect()
            }
            Term::Pair(a, b) => {
                let (xs, ys) = (self.candidates(a, span)?, self.candidates(b, span)?);
                if xs.len().saturating_mul(ys.len()) > MAX_CANDIDATES {
                    return Err(unsupported(span, "a pair with too many candidate values"));
                }
                let mut out = Vec::new();
                for (x, lx) in &xs {
                    for (y, ly) in &ys {
                        let l = self.circuit.and(*lx, *ly);
                        if l != FALSE {
                            out.push((Value::pair(x.clone(), y.clone()), l));
                        }
                    }
                }
                out
            }
            Term::Set(_) | Term::Fun(_) => {
                return Err(unsupported(span, "sets of sets (higher-order values)"));
            }
        })
    }

    /// The term choosing among `choices` (at most one condition true when well-defined).
    fn choose_among(&mut self, ty: &Type, choices: &[(Value, Lit)], span: Span) -> Tr<Term> {
        Ok(match ty {
            Type::Integer => {
                let mut values = Vec::with_capacity(choices.len());
                for (v, l) in choices {
                    values.push((small_int(v, span)?, *l));
                }
                let lo = values.iter().map(|(v, _)| *v).min().unwrap_or(0);
                let hi = values.iter().map(|(v, _)| *v).max().unwrap_or(0);
                let w = integers::width(lo, hi);
                let mut bits = Vec::with_capacity(w);
                for i in 0..w {
                    let on: Vec<Lit> = values
                        .iter()
                        .filter(|(v, _)| (v >> i) & 1 == 1)
                        .map(|(_, l)| *l)
                        .collect();
                    bits.push(self.circuit.or_all(on));
                }
                Term::Int(BitVec { bits, lo, hi })
            }
            Type::Bool | Type::Given(_) => {
                let mut grouped: BTreeMap<Value, Vec<Lit>> = BTreeMap::new();
                for (v, l) in choices {
                    grouped.entry(v.clone()).or_default().push(*l);
                }
                Term::Scalar(
                    grouped
                        .into_iter()
                        .map(|(v, ls)| {
                            let l = self.circuit.or_all(ls);
                            (v, l)
                        })
                        .collect(),
                )
            }
            Type::Pair(a, b) => {
                let firsts: Vec<(Value, Lit)> = choices
                    .iter()
                    .map(|(v, l)| (pair_parts(v).0.clone(), *l))
                    .collect();
                let seconds: Vec<(Value, Lit)> = choices
                    .iter()
                    .map(|(v, l)| (pair_parts(v).1.clone(), *l))
                    .collect();
                Term::Pair(
                    Box::new(self.choose_among(a, &firsts, span)?),
                    Box::new(self.choose_among(b, &seconds, span)?),
                )
            }
            _ => {
                return Err(unsupported(
                    span,
                    format!("a function whose values are of type {ty}"),
                ));
            }
        })
    }

    fn equal(&mut self, a: &Term, b: &Term, span: Span) -> Tr<Lit> {
        Ok(match (a, b) {
            (Term::Int(x), Term::Int(y)) => x.eq(&mut self.circuit, y),
            (Term::Scalar(x), Term::Scalar(y)) => {
                let mut both = Vec::new();
                for (v, lx) in x {
                    if let Some((_, ly)) = y.iter().find(|(w, _)| w == v) {
                        both.push(self.circuit.and(*lx, *ly));
                    }
                }
                self.circuit.or_all(both)
            }
            (Term::Pair(a1, b1), Term::Pair(a2, b2)) => {
                let l = self.equal(a1, a2, span)?;
                let r = self.equal(b1, b2, span)?;
                self.circuit.and(l, r)
            }
            (Term::Set(x), Term::Set(y)) => {
                let keys: Vec<&Value> = x.keys().chain(y.keys()).collect();
                let mut same = Vec::with_capacity(keys.len());
                for k in keys {
                    let lx = x.get(k).copied().unwrap_or(FALSE);
                    let ly = y.get(k).copied().unwrap_or(FALSE);
                    same.push(self.circuit.iff(lx, ly));
                }
                self.circuit.and_all(same)
            }
            (Term::Fun(f), Term::Fun(g)) => {
                let keys: Vec<&Value> = f.keys().chain(g.keys()).collect();
                let empty = SetTerm::new();
                let mut same = Vec::with_capacity(keys.len());
                for k in keys {
                    let (df, sf) = f.get(k).map_or((FALSE, &empty), |(d, s)| (*d, s));
                    let (dg, sg) = g.get(k).map_or((FALSE, &empty), |(d, s)| (*d, s));
                    let images =
                        self.equal(&Term::Set(sf.clone()), &Term::Set(sg.clone()), span)?;
                    let both = self.circuit.and(df, images);
                    let neither = self.circuit.and(!df, !dg);
                    let agree = self.circuit.iff(df, dg);
                    let ok = self.circuit.or(both, neither);
                    same.push(self.circuit.and(agree, ok));
                }
                self.circuit.and_all(same)
            }
            _ => {
                return Err(unsupported(
                    span,
                    "a comparison of differently encoded values",
                ));
            }
        })
    }

    fn member(&mut self, x: &Term, s: &SetTerm) -> Lit {
        if let Term::Scalar(cands) = x {
            let mut hits = Vec::new();
            for (v, l) in cands {
                if let Some(m) = s.get(v) {
                    hits.push(self.circuit.and(*l, *m));
                }
            }
            return self.circuit.or_all(hits);
        }
        let mut hits = Vec::with_capacity(s.len());
        for (k, l) in s {
            let e = self.equals_value(x, k);
            hits.push(self.circuit.and(e, *l));
        }
        self.circuit.or_all(hits)
    }

    fn subset(&mut self, a: &SetTerm, b: &SetTerm) -> Lit {
        let mut conds = Vec::with_capacity(a.len());
        for (k, l) in a {
            let m = b.get(k).copied().unwrap_or(FALSE);
            conds.push(self.circuit.implies(*l, m));
        }
        self.circuit.and_all(conds)
    }

    // ---- expressions -------------------------------------------------------------------------------

    /// Whether `e` mentions no unknown: then the interpreter evaluates it.
    fn is_known(&self, e: &Expr) -> bool {
        !free_names::expr_mentions(e, &|n| self.unknowns.contains_key(n))
    }

    /// The value of a known expression: `None` when the interpreter cannot give it as a value (an
    /// infinite set). An ill-defined one makes the predicate around it ill-defined; any value of its
    /// type stands in for it.
    fn known_value(&mut self, e: &Expr) -> Tr<Option<Value>> {
        // Literals need no interpreter (a clause's `TRUE`, a bound's `3`: the bulk of large inputs).
        match &e.kind {
            ExprKind::Bool(b) => return Ok(Some(Value::Bool(*b))),
            ExprKind::Int(i) => return Ok(Some(Value::big(i.clone()))),
            _ => {}
        }
        if !self.is_known(e) {
            return Ok(None);
        }
        match self.ctx.eval_expr(e, &self.env) {
            Ok(v) => Ok(Some(v)),
            Err(EvalError::WellDefinedness(_)) => {
                self.wd.push(FALSE);
                self.placeholder(&e.ty)
                    .map(Some)
                    .ok_or_else(|| unsupported(e.span, "an ill-defined expression of this type"))
            }
            Err(_) => Ok(None),
        }
    }

    /// Some value of type `ty`.
    fn placeholder(&self, ty: &Type) -> Option<Value> {
        Some(match ty {
            Type::Integer => Value::int(0),
            Type::Bool => Value::Bool(false),
            Type::Given(n) => self
                .ctx
                .given_set(n, Span::default())
                .ok()?
                .first()?
                .clone(),
            Type::Pair(a, b) => Value::pair(self.placeholder(a)?, self.placeholder(b)?),
            Type::Set(_) => Value::empty_set(),
            _ => return None,
        })
    }

    pub fn expr(&mut self, e: &Expr) -> Tr<Term> {
        self.poll(e.span)?;
        // An unknown first: asking whether it is known would look it up as well.
        if let ExprKind::Var(n) = &e.kind
            && let Some(t) = self.unknowns.get(n)
        {
            return Ok(t.clone());
        }
        if let Some(v) = self.known_value(e)? {
            return self.constant(&v, &e.ty, e.span);
        }
        if let Some(f) = self.fun(e)? {
            return Ok(Term::Fun(f));
        }
        match &e.ty {
            Type::Integer => return Ok(Term::Int(self.int(e)?)),
            Type::Set(_) => return Ok(Term::Set(self.set(e)?)),
            _ => {}
        }
        match &e.kind {
            ExprKind::Binary(BinaryOp::Maplet, a, b) => {
                Ok(Term::Pair(Box::new(self.expr(a)?), Box::new(self.expr(b)?)))
            }
            ExprKind::BoolOf(p) => {
                let t = self.pred(p, false)?;
                self.wd.push(t.defined);
                Ok(Term::Scalar(vec![
                    (Value::Bool(false), !t.holds),
                    (Value::Bool(true), t.holds),
                ]))
            }
            ExprKind::Binary(BinaryOp::Apply, f, x) => self.apply(e, f, x),
            ExprKind::Unary(op @ (UnaryOp::First | UnaryOp::Last), s) => {
                self.seq_element(e, *op, s)
            }
            ExprKind::Unary(op @ (UnaryOp::PairFirst | UnaryOp::PairSecond), p) => {
                match self.expr(p)? {
                    Term::Pair(a, b) => Ok(if *op == UnaryOp::PairFirst { *a } else { *b }),
                    _ => Err(unsupported(e.span, "a projection of a non-pair")),
                }
            }
            _ => Err(unsupported(e.span, describe(e))),
        }
    }

    /// The curried encoding of `e` when it is a function into sets (an unknown declared so, or a known
    /// function); `None` otherwise.
    fn fun(&mut self, e: &Expr) -> Tr<Option<Rc<FunTerm>>> {
        if !is_fun_type(&e.ty) {
            return Ok(None);
        }
        if let ExprKind::Var(n) = &e.kind
            && let Some(t) = self.unknowns.get(n)
        {
            return Ok(match t {
                Term::Fun(f) => Some(f.clone()),
                _ => None,
            });
        }
        if let Some(v) = self.known_value(e)?
            && let Term::Fun(f) = self.constant(&v, &e.ty, e.span)?
        {
            return Ok(Some(f));
        }
        match &e.kind {
            ExprKind::Binary(BinaryOp::Override, f, g) => {
                let (Some(f), Some(g)) = (self.fun(f)?, self.fun(g)?) else {
                    return Ok(None);
                };
                Ok(Some(Rc::new(self.override_fun(&f, &g))))
            }
            // `{x |-> S}`: a function whatever x is (more maplets could share an argument).
            ExprKind::SetEnum(items) if items.len() == 1 => match &items[0].kind {
                ExprKind::Binary(BinaryOp::Maplet, x, image) => {
                    let xt = self.expr(x)?;
                    let args = self.candidates(&xt, e.span)?;
                    let image = self.set(image)?;
                    let mut f = FunTerm::new();
                    for (a, at) in args {
                        let mut s = SetTerm::new();
                        for (k, l) in &image {
                            let both = self.circuit.and(at, *l);
                            self.add_to(&mut s, k.clone(), both);
                        }
                        f.insert(a, (at, s));
                    }
                    Ok(Some(Rc::new(f)))
                }
                _ => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// `f <+ g` for functions into sets: g's image where g is defined, else f's.
    fn override_fun(&mut self, f: &FunTerm, g: &FunTerm) -> FunTerm {
        let empty = SetTerm::new();
        let keys: BTreeSet<&Value> = f.keys().chain(g.keys()).collect();
        let mut out = FunTerm::new();
        for k in keys {
            let (df, sf) = f.get(k).map_or((FALSE, &empty), |(d, s)| (*d, s));
            let (dg, sg) = g.get(k).map_or((FALSE, &empty), |(d, s)| (*d, s));
            let d = self.circuit.or(dg, df);
            if d == FALSE {
                continue;
            }
            let elements: BTreeSet<&Value> = sf.keys().chain(sg.keys()).collect();
            let mut image = SetTerm::new();
            for x in elements {
                let lf = sf.get(x).copied().unwrap_or(FALSE);
                let lg = sg.get(x).copied().unwrap_or(FALSE);
                let l = self.circuit.ite(dg, lg, lf);
                self.add_to(&mut image, x.clone(), l);
            }
            out.insert(k.clone(), (d, image));
        }
        out
    }

    /// `f(x)` for a function into sets: the image of the argument x equals; well-defined when x is in
    /// the domain (the candidate arguments exclude each other).
    fn apply_fun(&mut self, f: &FunTerm, x: &Expr) -> Tr<SetTerm> {
        let xt = self.expr(x)?;
        let mut out = SetTerm::new();
        let mut hits = Vec::new();
        for (a, (d, s)) in f {
            let at = self.equals_value(&xt, a);
            let m = self.circuit.and(at, *d);
            if m == FALSE {
                continue;
            }
            hits.push(m);
            for (k, l) in s {
                let both = self.circuit.and(m, *l);
                self.add_to(&mut out, k.clone(), both);
            }
        }
        let defined = self.circuit.or_all(hits);
        self.wd.push(defined);
        Ok(out)
    }

    /// `prj1(S,T)(x)` or `prj2(S,T)(x)`: a component of `x`, well-defined when its components lie in
    /// S and T (nothing to check where S or T is a whole type, as `INTEGER` usually is).
    fn projection(&mut self, first: bool, s: &Expr, t: &Expr, x: &Expr) -> Tr<Term> {
        let Term::Pair(a, b) = self.expr(x)? else {
            return Err(unsupported(x.span, "a projection of a non-pair"));
        };
        for (c, set) in [(&*a, s), (&*b, t)] {
            let whole = self.is_known(set)
                && self
                    .ctx
                    .eval_symbolic(set, &self.env)
                    .is_ok_and(|v| is_type_set(&v));
            if !whole {
                let st = self.set(set)?;
                let inside = self.member(c, &st);
                self.wd.push(inside);
            }
        }
        Ok(if first { *a } else { *b })
    }

    /// `f : A op S` for a function into sets: `f` is functional by construction, its domain within A
    /// (all of A for a total arrow), and every image a member of S.
    fn fun_arrow(&mut self, f: &FunTerm, op: BinaryOp, a: &Expr, s: &Expr) -> Tr<Lit> {
        let Some(props) = op.arrow_properties() else {
            return Err(unsupported(s.span, "this arrow over a function into sets"));
        };
        if props.injective || props.surjective {
            return Err(unsupported(
                s.span,
                "an injective or surjective function into sets",
            ));
        }
        let a = self.set(a)?;
        let mut conds = Vec::new();
        for (x, (d, _)) in f {
            let inside = a.get(x).copied().unwrap_or(FALSE);
            conds.push(self.circuit.implies(*d, inside));
        }
        if props.total {
            for (x, l) in &a {
                let d = f.get(x).map_or(FALSE, |(d, _)| *d);
                conds.push(self.circuit.implies(*l, d));
            }
        }
        let image_ty = match &s.ty {
            Type::Set(t) => (**t).clone(),
            _ => return Err(unsupported(s.span, "an arrow into a non-set")),
        };
        let image = Expr::new(ExprKind::Var(IMAGE_NAME.into()), image_ty, s.span);
        let hidden = self.unknowns.remove(IMAGE_NAME);
        let mut result = Ok(());
        for (d, set) in f.values() {
            if *d == FALSE {
                continue;
            }
            self.unknowns
                .insert(IMAGE_NAME.into(), Term::Set(set.clone()));
            match self.membership(&image, s) {
                Ok(m) => conds.push(self.circuit.implies(*d, m)),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.unknowns.remove(IMAGE_NAME);
        if let Some(t) = hidden {
            self.unknowns.insert(IMAGE_NAME.into(), t);
        }
        result?;
        Ok(self.circuit.and_all(conds))
    }

    /// `f(x)`: well-defined when exactly one pair of f starts with x.
    fn apply(&mut self, e: &Expr, f: &Expr, x: &Expr) -> Tr<Term> {
        if let ExprKind::Binary(op @ (BinaryOp::Prj1 | BinaryOp::Prj2), s, t) = &f.kind {
            return self.projection(*op == BinaryOp::Prj1, s, t, x);
        }
        let fs = self.set(f)?;
        let xt = self.expr(x)?;
        let mut matches = Vec::new();
        for (k, l) in &fs {
            let (a, b) = pair_parts(k);
            let at = self.equals_value(&xt, a);
            let m = self.circuit.and(at, *l);
            if m != FALSE {
                matches.push((b.clone(), m));
            }
        }
        let lits: Vec<Lit> = matches.iter().map(|(_, l)| *l).collect();
        let defined = self.circuit.exactly_one(&lits);
        self.wd.push(defined);
        self.choose_among(&e.ty, &matches, e.span)
    }

    fn checked(&self, lo: i128, hi: i128, span: Span) -> Tr<()> {
        let limit = integers::LIMIT as i128;
        if lo < -limit || hi > limit {
            return Err(unsupported(
                span,
                "an integer expression whose range is too large for a bit-vector",
            ));
        }
        Ok(())
    }

    /// `x ** k` for a known exponent k in 0..=MAX_EXPONENT: k - 1 multiplications, each range-checked
    /// like `*` (`a**2 + b**2 = c**2`). An unknown exponent is left to the other backends.
    fn power(&mut self, a: &Expr, b: &Expr, span: Span) -> Tr<BitVec> {
        const MAX_EXPONENT: i64 = 16;
        let k = match self.known_value(b)? {
            Some(v) => small_int(&v, b.span)?,
            None => return Err(unsupported(span, "a power with an unknown exponent")),
        };
        if !(0..=MAX_EXPONENT).contains(&k) {
            return Err(unsupported(span, format!("a power with the exponent {k}")));
        }
        if k == 0 {
            return Ok(BitVec::constant(1));
        }
        let x = self.int(a)?;
        let mut acc = x.clone();
        for _ in 1..k {
            let (lo, hi) = product_range(&acc, &x);
            self.checked(lo, hi, span)?;
            acc = acc.mul(&mut self.circuit, &x);
        }
        Ok(acc)
    }

    pub fn int(&mut self, e: &Expr) -> Tr<BitVec> {
        self.poll(e.span)?;
        if let Some(v) = self.known_value(e)? {
            return Ok(BitVec::constant(small_int(&v, e.span)?));
        }
        if let ExprKind::Var(n) = &e.kind
            && let Some(t) = self.unknowns.get(n)
        {
            return match t {
                Term::Int(b) => Ok(b.clone()),
                _ => Err(unsupported(
                    e.span,
                    "an integer variable of an unexpected encoding",
                )),
            };
        }
        match &e.kind {
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                let (xl, xh, yl, yh) = (x.lo as i128, x.hi as i128, y.lo as i128, y.hi as i128);
                match op {
                    BinaryOp::Add => {
                        self.checked(xl + yl, xh + yh, e.span)?;
                        Ok(x.add(&mut self.circuit, &y))
                    }
                    BinaryOp::Sub => {
                        self.checked(xl - yh, xh - yl, e.span)?;
                        Ok(x.sub(&mut self.circuit, &y))
                    }
                    _ => {
                        let (lo, hi) = product_range(&x, &y);
                        self.checked(lo, hi, e.span)?;
                        Ok(x.mul(&mut self.circuit, &y))
                    }
                }
            }
            ExprKind::Binary(op @ (BinaryOp::Div | BinaryOp::Mod), a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                self.divide(*op == BinaryOp::Div, &x, &y, e.span)
            }
            ExprKind::Binary(BinaryOp::Power, a, b) => self.power(a, b, e.span),
            ExprKind::If(c, a, b) => {
                let t = self.pred(c, false)?;
                self.wd.push(t.defined);
                // Each branch need be well-defined only when it is taken.
                let mark = self.wd.len();
                let x = self.int(a)?;
                let wa: Vec<Lit> = self.wd.drain(mark..).collect();
                let y = self.int(b)?;
                let wb: Vec<Lit> = self.wd.drain(mark..).collect();
                let (wa, wb) = (self.circuit.and_all(wa), self.circuit.and_all(wb));
                let taken_a = self.circuit.implies(t.holds, wa);
                let taken_b = self.circuit.implies(!t.holds, wb);
                self.wd.extend([taken_a, taken_b]);
                Ok(BitVec::ite(&mut self.circuit, t.holds, &x, &y))
            }
            ExprKind::Unary(UnaryOp::Neg, a) => {
                let x = self.int(a)?;
                Ok(x.neg(&mut self.circuit))
            }
            ExprKind::Unary(op @ (UnaryOp::Succ | UnaryOp::Pred), a) => {
                let x = self.int(a)?;
                let one = BitVec::constant(1);
                self.checked(x.lo as i128 - 1, x.hi as i128 + 1, e.span)?;
                Ok(if *op == UnaryOp::Succ {
                    x.add(&mut self.circuit, &one)
                } else {
                    x.sub(&mut self.circuit, &one)
                })
            }
            // A sequence's size is its cardinality (its domain is 1..n).
            ExprKind::Unary(UnaryOp::Card, f) if is_fun_type(&f.ty) => match self.fun(f)? {
                Some(f) => {
                    let lits: Vec<Lit> = f.values().map(|(d, _)| *d).collect();
                    Ok(BitVec::count(&mut self.circuit, &lits))
                }
                None => Err(unsupported(e.span, describe(e))),
            },
            ExprKind::Unary(UnaryOp::Size, s) => self.seq_size(s),
            ExprKind::Unary(op @ (UnaryOp::First | UnaryOp::Last), s) => {
                match self.seq_element(e, *op, s)? {
                    Term::Int(b) => Ok(b),
                    _ => Err(unsupported(e.span, "an element of an unexpected encoding")),
                }
            }
            ExprKind::Unary(UnaryOp::Card, s) => {
                let s = self.set(s)?;
                let lits: Vec<Lit> = s.values().copied().collect();
                Ok(BitVec::count(&mut self.circuit, &lits))
            }
            ExprKind::Unary(op @ (UnaryOp::Max | UnaryOp::Min), s) => {
                let s = self.set(s)?;
                self.extremum(&s, *op == UnaryOp::Max, e.span)
            }
            ExprKind::Binary(BinaryOp::Apply, f, x) => match self.apply(e, f, x)? {
                Term::Int(b) => Ok(b),
                _ => Err(unsupported(
                    e.span,
                    "an application of an unexpected encoding",
                )),
            },
            ExprKind::Binder(BinderKind::Sigma, xs, cond, body) => self.sigma(e, xs, cond, body),
            _ => Err(unsupported(e.span, describe(e))),
        }
    }

    /// `a / b` (truncating) or `a mod b` (floored), as the interpreter computes them, chosen among the
    /// results for every pair of candidate operands; ill-defined when b is 0.
    fn divide(&mut self, div: bool, a: &BitVec, b: &BitVec, span: Span) -> Tr<BitVec> {
        const MAX_PAIRS: i64 = 4_096;
        let (na, nb) = (a.hi - a.lo + 1, b.hi - b.lo + 1);
        if na.saturating_mul(nb) > MAX_PAIRS {
            return Err(unsupported(
                span,
                format!("a division over too many candidate operands ({na} × {nb})"),
            ));
        }
        let mut choices = Vec::new();
        for x in a.lo..=a.hi {
            let at_x = a.eq_const(&mut self.circuit, x);
            for y in (b.lo..=b.hi).filter(|&y| y != 0) {
                let at_y = b.eq_const(&mut self.circuit, y);
                let both = self.circuit.and(at_x, at_y);
                let (vx, vy) = (crate::value::Int::Small(x), crate::value::Int::Small(y));
                let r = if div { vx.div(&vy) } else { vx.modulo(&vy) };
                if let Some(r) = r
                    && both != FALSE
                {
                    choices.push((Value::Int(r), both));
                }
            }
        }
        let zero = b.eq_const(&mut self.circuit, 0);
        self.wd.push(!zero);
        match self.choose_among(&Type::Integer, &choices, span)? {
            Term::Int(v) => Ok(v),
            _ => unreachable!("integer choices give an integer"),
        }
    }

    /// `max(S)` / `min(S)`: the element with no larger (smaller) member; ill-defined for the empty set.
    fn extremum(&mut self, s: &SetTerm, max: bool, span: Span) -> Tr<BitVec> {
        let items: Vec<(Value, Lit)> = s.iter().map(|(k, l)| (k.clone(), *l)).collect();
        let mut choices = Vec::with_capacity(items.len());
        let mut beyond = FALSE;
        // Walk from the extreme end: an element is chosen when it is in S and nothing beyond it is.
        let order: Vec<&(Value, Lit)> = if max {
            items.iter().rev().collect()
        } else {
            items.iter().collect()
        };
        for (v, l) in order {
            let chosen = self.circuit.and(*l, !beyond);
            choices.push((v.clone(), chosen));
            beyond = self.circuit.or(beyond, *l);
        }
        self.wd.push(beyond);
        match self.choose_among(&Type::Integer, &choices, span)? {
            Term::Int(b) => Ok(b),
            _ => unreachable!("integer choices give an integer"),
        }
    }

    /// `SIGMA(x).(P | E)` over the grounded instances of P.
    fn sigma(&mut self, e: &Expr, xs: &[TypedName], cond: &Pred, body: &Expr) -> Tr<BitVec> {
        let mut parts = Vec::new();
        let strict = self.strict_wd;
        self.ground(xs, &cond.conjuncts(), e.span, &mut |tr, _| {
            let c = tr.pred(cond, false)?;
            let mark = tr.wd.len();
            let v = tr.int(body)?;
            let d = tr.circuit.and_all(tr.wd.drain(mark..).collect::<Vec<_>>());
            let d = tr.settle(d);
            let defined = tr.circuit.implies(c.holds, d);
            if strict {
                // The sum is well-defined when every instance is.
                let both = tr.circuit.and(c.defined, defined);
                tr.wd.push(both);
            } else if c.defined != TRUE || defined != TRUE {
                return Err(unsupported(
                    e.span,
                    "a SIGMA whose body may be ill-defined (the interpreter's order decides)",
                ));
            }
            parts.push((c.holds, v));
            Ok(())
        })?;
        let mut sum = BitVec::constant(0);
        for (c, v) in parts {
            let zero = BitVec::constant(0);
            let term = BitVec::ite(&mut self.circuit, c, &v, &zero);
            self.checked(
                sum.lo as i128 + term.lo as i128,
                sum.hi as i128 + term.hi as i128,
                e.span,
            )?;
            sum = sum.add(&mut self.circuit, &term);
        }
        Ok(sum)
    }

    pub fn set(&mut self, e: &Expr) -> Tr<SetTerm> {
        if let Some(v) = self.known_value(e)? {
            return match self.constant(&v, &e.ty, e.span)? {
                Term::Set(s) => Ok(s),
                _ => Err(unsupported(e.span, "a set of an unexpected encoding")),
            };
        }
        if let ExprKind::Var(n) = &e.kind
            && let Some(t) = self.unknowns.get(n)
        {
            return match t {
                Term::Set(s) => Ok(s.clone()),
                _ => Err(unsupported(
                    e.span,
                    "a set variable of an unexpected encoding",
                )),
            };
        }
        match &e.kind {
            ExprKind::Binary(BinaryOp::Apply, f, x) => match self.fun(f)? {
                Some(f) => self.apply_fun(&f, x),
                None => Err(unsupported(e.span, describe(e))),
            },
            ExprKind::Unary(UnaryOp::Dom, f) if is_fun_type(&f.ty) => match self.fun(f)? {
                Some(f) => Ok(f
                    .iter()
                    .filter(|(_, (d, _))| *d != FALSE)
                    .map(|(x, (d, _))| (x.clone(), *d))
                    .collect()),
                None => Err(unsupported(e.span, describe(e))),
            },
            ExprKind::SetEnum(items) => {
                let mut out = SetTerm::new();
                for x in items {
                    let t = self.expr(x)?;
                    for (v, l) in self.candidates(&t, x.span)? {
                        self.add_to(&mut out, v, l);
                    }
                }
                Ok(out)
            }
            ExprKind::Binary(BinaryOp::Interval, a, b) => {
                let (lo, hi) = (self.int(a)?, self.int(b)?);
                if hi.hi.saturating_sub(lo.lo) >= MAX_CANDIDATES as i64 {
                    return Err(unsupported(
                        e.span,
                        "an interval with too many candidate elements",
                    ));
                }
                let mut out = SetTerm::new();
                for v in lo.lo..=hi.hi {
                    let k = BitVec::constant(v);
                    let above = lo.le(&mut self.circuit, &k);
                    let below = k.le(&mut self.circuit, &hi);
                    let l = self.circuit.and(above, below);
                    self.add_to(&mut out, Value::int(v), l);
                }
                Ok(out)
            }
            ExprKind::Binary(
                op @ (BinaryOp::Union | BinaryOp::Inter | BinaryOp::SetMinus),
                a,
                b,
            ) => {
                let (x, y) = (self.set(a)?, self.set(b)?);
                let mut out = SetTerm::new();
                let keys: Vec<Value> = x.keys().chain(y.keys()).cloned().collect();
                for k in keys {
                    let lx = x.get(&k).copied().unwrap_or(FALSE);
                    let ly = y.get(&k).copied().unwrap_or(FALSE);
                    let l = match op {
                        BinaryOp::Union => self.circuit.or(lx, ly),
                        BinaryOp::Inter => self.circuit.and(lx, ly),
                        _ => self.circuit.and(lx, !ly),
                    };
                    if l != FALSE {
                        out.insert(k, l);
                    }
                }
                Ok(out)
            }
            ExprKind::Binary(BinaryOp::Product, a, b) => {
                let (x, y) = (self.set(a)?, self.set(b)?);
                if x.len().saturating_mul(y.len()) > MAX_CANDIDATES {
                    return Err(unsupported(
                        e.span,
                        "a product with too many candidate pairs",
                    ));
                }
                let mut out = SetTerm::new();
                for (kx, lx) in &x {
                    for (ky, ly) in &y {
                        let l = self.circuit.and(*lx, *ly);
                        self.add_to(&mut out, Value::pair(kx.clone(), ky.clone()), l);
                    }
                }
                Ok(out)
            }
            ExprKind::Unary(op @ (UnaryOp::Dom | UnaryOp::Ran), r) => {
                let r = self.set(r)?;
                let mut out = SetTerm::new();
                for (k, l) in &r {
                    let (a, b) = pair_parts(k);
                    let v = if *op == UnaryOp::Dom { a } else { b };
                    self.add_to(&mut out, v.clone(), *l);
                }
                Ok(out)
            }
            ExprKind::Unary(UnaryOp::Inverse, r) => {
                let r = self.set(r)?;
                Ok(r.iter()
                    .map(|(k, l)| {
                        let (a, b) = pair_parts(k);
                        (Value::pair(b.clone(), a.clone()), *l)
                    })
                    .collect())
            }
            ExprKind::Unary(UnaryOp::Id, s) => {
                let s = self.set(s)?;
                Ok(s.iter()
                    .map(|(k, l)| (Value::pair(k.clone(), k.clone()), *l))
                    .collect())
            }
            ExprKind::Unary(UnaryOp::Closure1, r) => {
                let r = self.set(r)?;
                self.closure1(r, e.span)
            }
            ExprKind::Binary(BinaryOp::Image, r, s) => {
                let (r, s) = (self.set(r)?, self.set(s)?);
                let mut out = SetTerm::new();
                for (k, l) in &r {
                    let (a, b) = pair_parts(k);
                    if let Some(m) = s.get(a) {
                        let both = self.circuit.and(*l, *m);
                        self.add_to(&mut out, b.clone(), both);
                    }
                }
                Ok(out)
            }
            ExprKind::Binary(BinaryOp::Composition, r, s) => {
                let (r, s) = (self.set(r)?, self.set(s)?);
                self.compose(&r, &s, e.span)
            }
            ExprKind::Binary(op @ (BinaryOp::DomRestrict | BinaryOp::DomSubtract), s, r) => {
                let (s, r) = (self.set(s)?, self.set(r)?);
                let keep = *op == BinaryOp::DomRestrict;
                Ok(self.restrict(&r, &s, true, keep))
            }
            ExprKind::Binary(op @ (BinaryOp::RanRestrict | BinaryOp::RanSubtract), r, s) => {
                let (r, s) = (self.set(r)?, self.set(s)?);
                let keep = *op == BinaryOp::RanRestrict;
                Ok(self.restrict(&r, &s, false, keep))
            }
            ExprKind::Binary(BinaryOp::Override, r, s) => {
                let (r, s) = (self.set(r)?, self.set(s)?);
                let mut dom_s = SetTerm::new();
                for (k, l) in &s {
                    self.add_to(&mut dom_s, pair_parts(k).0.clone(), *l);
                }
                let mut out = s.clone();
                for (k, l) in &r {
                    let covered = dom_s.get(pair_parts(k).0).copied().unwrap_or(FALSE);
                    let kept = self.circuit.and(*l, !covered);
                    self.add_to(&mut out, k.clone(), kept);
                }
                Ok(out)
            }
            ExprKind::Comprehension(xs, p) => self.comprehension(e, xs, p),
            ExprKind::SeqEnum(items) => self.seq_enum(items, e.span),
            ExprKind::Unary(op @ (UnaryOp::Tail | UnaryOp::Front | UnaryOp::Rev), s) => {
                self.seq_unary(*op, s, e.span)
            }
            ExprKind::Binary(
                op @ (BinaryOp::Concat
                | BinaryOp::Prepend
                | BinaryOp::Append
                | BinaryOp::Take
                | BinaryOp::Drop),
                a,
                b,
            ) => self.seq_binary(*op, a, b, e.span),
            _ => Err(unsupported(e.span, describe(e))),
        }
    }

    fn add_to(&mut self, s: &mut SetTerm, v: Value, l: Lit) {
        if l == FALSE {
            return;
        }
        let old = s.get(&v).copied().unwrap_or(FALSE);
        let new = self.circuit.or(old, l);
        s.insert(v, new);
    }

    /// `s <| r`, `s <<| r` (`on_domain`), `r |> s`, `r |>> s`.
    fn restrict(&mut self, r: &SetTerm, s: &SetTerm, on_domain: bool, keep: bool) -> SetTerm {
        let mut out = SetTerm::new();
        for (k, l) in r {
            let (a, b) = pair_parts(k);
            let m = s
                .get(if on_domain { a } else { b })
                .copied()
                .unwrap_or(FALSE);
            let cond = if keep { m } else { !m };
            let both = self.circuit.and(*l, cond);
            self.add_to(&mut out, k.clone(), both);
        }
        out
    }

    fn compose(&mut self, r: &SetTerm, s: &SetTerm, span: Span) -> Tr<SetTerm> {
        let mut by_first: BTreeMap<&Value, Vec<(&Value, Lit)>> = BTreeMap::new();
        for (k, l) in s {
            let (a, b) = pair_parts(k);
            by_first.entry(a).or_default().push((b, *l));
        }
        let mut out = SetTerm::new();
        let mut work = 0usize;
        for (k, l) in r {
            let (a, b) = pair_parts(k);
            if let Some(next) = by_first.get(b) {
                work += next.len();
                if work > 10 * MAX_CANDIDATES {
                    return Err(unsupported(span, "a composition too large to translate"));
                }
                for (c, m) in next {
                    let both = self.circuit.and(*l, *m);
                    self.add_to(&mut out, Value::pair(a.clone(), (*c).clone()), both);
                }
            }
        }
        Ok(out)
    }

    /// `closure1(r)` by iterative squaring: after k rounds R holds every path of length up to 2^k, and
    /// no simple path is longer than the number of atoms in r's field.
    fn closure1(&mut self, r: SetTerm, span: Span) -> Tr<SetTerm> {
        let mut atoms = std::collections::BTreeSet::new();
        for k in r.keys() {
            let (a, b) = pair_parts(k);
            atoms.insert(a);
            atoms.insert(b);
        }
        let mut reach = 1usize;
        let mut current = r.clone();
        while reach < atoms.len() {
            let squared = self.compose(&current, &current, span)?;
            for (k, l) in squared {
                self.add_to(&mut current, k, l);
            }
            reach *= 2;
        }
        Ok(current)
    }

    /// `{x, y | P}` over the grounded instances of P.
    fn comprehension(&mut self, e: &Expr, xs: &[TypedName], p: &Pred) -> Tr<SetTerm> {
        let mut out = Vec::new();
        let strict = self.strict_wd;
        self.ground(xs, &p.conjuncts(), e.span, &mut |tr, values| {
            let t = tr.pred(p, false)?;
            if t.defined != TRUE && strict {
                // The set is well-defined when every instance is.
                tr.wd.push(t.defined);
            } else if t.defined != TRUE {
                return Err(unsupported(
                    e.span,
                    "a set comprehension whose condition may be ill-defined (the interpreter's order decides)",
                ));
            }
            let key = values[1..]
                .iter()
                .fold(values[0].clone(), |acc, v| Value::pair(acc, v.clone()));
            out.push((key, t.holds));
            Ok(())
        })?;
        let mut set = SetTerm::new();
        for (k, l) in out {
            self.add_to(&mut set, k, l);
        }
        Ok(set)
    }

    // ---- grounding ---------------------------------------------------------------------------------

    /// Calls `each` with every candidate assignment of the bound variables `xs` (bound in the environment
    /// as known values), the candidates coming from the restricting conjuncts `restrict`.
    fn ground(
        &mut self,
        xs: &[TypedName],
        restrict: &[&Pred],
        span: Span,
        each: &mut dyn FnMut(&mut Self, &[Value]) -> Tr<()>,
    ) -> Tr<()> {
        let domains = self.domains(xs, restrict, span)?;
        let total = domains
            .iter()
            .try_fold(1usize, |acc, d| acc.checked_mul(d.len()))
            .filter(|&n| n <= MAX_CANDIDATES)
            .ok_or_else(|| unsupported(span, "a quantifier with too many instances to ground"))?;
        // Bound names shadow unknowns of the same name.
        let hidden: Vec<(Name, Term)> = xs
            .iter()
            .filter_map(|x| self.unknowns.remove(&x.name).map(|t| (x.name.clone(), t)))
            .collect();
        let mark = self.env.len();
        let mut result = Ok(());
        let mut values = Vec::with_capacity(xs.len());
        for mut i in 0..total {
            if let Err(e) = self.ctx.check_deadline(span) {
                result = Err(Diagnostic::from(e));
                break;
            }
            values.clear();
            for d in domains.iter().rev() {
                values.push(d[i % d.len()].clone());
                i /= d.len();
            }
            values.reverse();
            for (x, v) in xs.iter().zip(&values) {
                self.env.bind(x.name.clone(), v.clone());
            }
            result = each(self, &values);
            self.env.truncate(mark);
            if result.is_err() {
                break;
            }
        }
        for (n, t) in hidden {
            self.unknowns.insert(n, t);
        }
        result
    }

    /// Candidate values per bound variable: the elements of a set it is asserted to belong to, else its
    /// finite type, else the interval analysis's range for an integer.
    fn domains(&mut self, xs: &[TypedName], restrict: &[&Pred], span: Span) -> Tr<Vec<Vec<Value>>> {
        let names: Vec<&Name> = xs.iter().map(|x| &x.name).collect();
        let mut analysis = None;
        let mut out = Vec::with_capacity(xs.len());
        for (i, x) in xs.iter().enumerate() {
            let mut found = None;
            for c in restrict {
                // `x : S`, or x a component of a tuple `(.., x, ..) : S`: the elements of S (their
                // components at x's place) bound x.
                if let PredKind::Compare(CompareOp::In, a, s) = &c.kind
                    && let Some(path) = a.maplet_path(&x.name)
                    && !free_names::expr_mentions(s, &|n| names.contains(&n))
                {
                    let mut items = None;
                    // A known set of any type (sets of sets included) gives the candidates as is.
                    if self.is_known(s)
                        && let Ok(v) = self.ctx.eval_expr(s, &self.env)
                        && let Some(known) = v.as_set()
                    {
                        items = Some(known.to_vec());
                    }
                    if items.is_none() {
                        let mark = self.wd.len();
                        let candidates = self.set(s);
                        // A set that may be ill-defined cannot bound the instances: the interpreter
                        // would stop at it.
                        let conds: Vec<Lit> = self.wd.drain(mark..).collect();
                        let defined = conds.into_iter().all(|l| self.settle(l) == TRUE);
                        if let (Ok(set), true) = (candidates, defined) {
                            items = Some(set.into_keys().collect());
                        }
                    }
                    if let Some(items) = items {
                        let mut parts: Vec<Value> =
                            items.iter().filter_map(|v| v.component(&path)).collect();
                        parts.sort();
                        parts.dedup();
                        found = Some(parts);
                        break;
                    }
                }
            }
            if found.is_none() {
                found = finite_values(self.ctx, &x.ty);
            }
            if found.is_none() && x.ty == Type::Integer {
                let a = analysis
                    .get_or_insert_with(|| interval::analyse(self.ctx, xs, restrict, &self.env));
                if a.contradiction.is_some() {
                    found = Some(Vec::new());
                } else {
                    let r = &a.vars[i].int;
                    if let (Some(lo), Some(hi)) = (
                        r.lo.as_ref().and_then(|v| v.to_i64()),
                        r.hi.as_ref().and_then(|v| v.to_i64()),
                    ) && hi.saturating_sub(lo) < MAX_CANDIDATES as i64
                    {
                        found = Some((lo..=hi).map(Value::int).collect());
                    }
                }
            }
            out.push(found.ok_or_else(|| {
                unsupported(
                    span,
                    format!(
                        "the bound variable {} whose values cannot be bounded",
                        x.name
                    ),
                )
            })?);
        }
        Ok(out)
    }

    // ---- predicates ----------------------------------------------------------------------------

    /// Translates `p`. At the top level (`top`: a conjunct of the problem's conjunction) "false" and
    /// "ill-defined" both mean "no solution", so the result is folded into `holds` with `defined` true.
    pub fn pred(&mut self, p: &Pred, top: bool) -> Tr<Truth> {
        let t = self.pred_inner(p, top)?;
        if top {
            let holds = self.circuit.and(t.holds, t.defined);
            return Ok(Truth {
                holds,
                defined: TRUE,
            });
        }
        Ok(t)
    }

    fn pred_inner(&mut self, p: &Pred, top: bool) -> Tr<Truth> {
        self.poll(p.span)?;
        let c = |holds: Lit, defined: Lit| Truth { holds, defined };
        // Over known values only, the interpreter decides it (ill-defined included).
        if !free_names::pred_mentions(p, &|n| self.unknowns.contains_key(n)) {
            match self.ctx.eval_pred(p, &self.env) {
                Ok(b) => return Ok(c(if b { TRUE } else { FALSE }, TRUE)),
                Err(EvalError::WellDefinedness(_)) => return Ok(c(FALSE, FALSE)),
                Err(_) => {}
            }
        }
        match &p.kind {
            PredKind::True => Ok(c(TRUE, TRUE)),
            PredKind::False => Ok(c(FALSE, TRUE)),
            PredKind::And(ps) => {
                let (mut holds, mut defined) = (TRUE, TRUE);
                for q in ps {
                    let t = self.pred(q, top)?;
                    let d = self.circuit.implies(holds, t.defined);
                    defined = self.circuit.and(defined, d);
                    holds = self.circuit.and(holds, t.holds);
                }
                Ok(c(holds, defined))
            }
            PredKind::Or(ps) => {
                let (mut holds, mut defined) = (FALSE, TRUE);
                for q in ps {
                    let t = self.pred(q, false)?;
                    let d = self.circuit.or(holds, t.defined);
                    defined = self.circuit.and(defined, d);
                    holds = self.circuit.or(holds, t.holds);
                }
                Ok(c(holds, defined))
            }
            // At the top level a false consequent and an ill-defined one both mean no solution, so
            // the consequent is a top-level predicate too (the same for the claim of `!x.(D => C)`).
            PredKind::Implies(a, b) => {
                let (x, y) = (self.pred(a, false)?, self.pred(b, top)?);
                let d = self.circuit.implies(x.holds, y.defined);
                let defined = self.circuit.and(x.defined, d);
                Ok(c(self.circuit.implies(x.holds, y.holds), defined))
            }
            PredKind::Equiv(a, b) => {
                let (x, y) = (self.pred(a, false)?, self.pred(b, false)?);
                let defined = self.circuit.and(x.defined, y.defined);
                Ok(c(self.circuit.iff(x.holds, y.holds), defined))
            }
            PredKind::Not(a) => {
                let x = self.pred(a, false)?;
                Ok(c(!x.holds, x.defined))
            }
            PredKind::If(cond, a, b) => {
                let k = self.pred(cond, false)?;
                let (x, y) = (self.pred(a, false)?, self.pred(b, false)?);
                let branch = self.circuit.ite(k.holds, x.defined, y.defined);
                let defined = self.circuit.and(k.defined, branch);
                Ok(c(self.circuit.ite(k.holds, x.holds, y.holds), defined))
            }
            PredKind::Forall(xs, body) | PredKind::Exists(xs, body)
                if let Some(binding) = singleton_binding(p, xs, body) =>
            {
                self.pred(&binding, top)
            }
            PredKind::Forall(xs, body) => self.forall(p, xs, body, top),
            PredKind::Exists(xs, body) => {
                let (mut any, mut defined) = (Vec::new(), Vec::new());
                let strict = self.strict_wd;
                self.ground(xs, &body.conjuncts(), p.span, &mut |tr, _| {
                    let t = tr.pred(body, false)?;
                    if t.defined != TRUE && !strict {
                        return Err(ill_defined_body(p.span));
                    }
                    any.push(t.holds);
                    defined.push(t.defined);
                    Ok(())
                })?;
                let defined = self.circuit.and_all(defined);
                Ok(c(self.circuit.or_all(any), defined))
            }
            PredKind::Compare(op, a, b) => {
                let mark = self.wd.len();
                let holds = self.compare(*op, a, b, p.span)?;
                let conds: Vec<Lit> = self.wd.drain(mark..).collect();
                let defined = self.circuit.and_all(conds);
                Ok(c(holds, self.settle(defined)))
            }
            PredKind::Let(binds, body) => self.let_pred(binds, body, top),
        }
    }

    /// `LET x BE x = E IN P`: each E is bound in turn (a known one as its value, otherwise as its term;
    /// later ones see earlier ones) and P is translated under them. Ill-defined when an E is, since the
    /// interpreter evaluates the E's before P.
    fn let_pred(&mut self, binds: &[(TypedName, Expr)], body: &Pred, top: bool) -> Tr<Truth> {
        let env_mark = self.env.len();
        let mut hidden: Vec<(Name, Option<Term>)> = Vec::new();
        let result = self.let_pred_bound(binds, body, top, &mut hidden);
        self.env.truncate(env_mark);
        // Restore in reverse so that a name bound twice gets its outermost term back.
        for (n, t) in hidden.into_iter().rev() {
            match t {
                Some(t) => self.unknowns.insert(n, t),
                None => self.unknowns.remove(&n),
            };
        }
        result
    }

    fn let_pred_bound(
        &mut self,
        binds: &[(TypedName, Expr)],
        body: &Pred,
        top: bool,
        hidden: &mut Vec<(Name, Option<Term>)>,
    ) -> Tr<Truth> {
        let mark = self.wd.len();
        for (x, e) in binds {
            let known = self.known_value(e)?;
            let previous = match known {
                Some(v) => {
                    self.env.bind(x.name.clone(), v);
                    self.unknowns.remove(&x.name)
                }
                None => {
                    let t = self.expr(e)?;
                    self.unknowns.insert(x.name.clone(), t)
                }
            };
            hidden.push((x.name.clone(), previous));
        }
        let conds: Vec<Lit> = self.wd.drain(mark..).collect();
        let bound = self.circuit.and_all(conds);
        let t = self.pred(body, top)?;
        let defined = self.circuit.and(bound, t.defined);
        Ok(Truth {
            holds: t.holds,
            defined: self.settle(defined),
        })
    }

    /// `!x.(D => C)`. At the top level an instance whose claim is ill-defined makes the predicate no
    /// solution whatever the order the interpreter takes, so only the domain must be well-defined there.
    fn forall(&mut self, p: &Pred, xs: &[TypedName], body: &Pred, top: bool) -> Tr<Truth> {
        let truth = Pred::truth(body.span);
        let (domain, claim) = match &body.kind {
            PredKind::Implies(a, b) => (&**a, &**b),
            _ => (&truth, body),
        };
        let (mut all, mut defined) = (Vec::new(), Vec::new());
        let strict = self.strict_wd;
        self.ground(xs, &domain.conjuncts(), p.span, &mut |tr, _| {
            let d = tr.pred(domain, false)?;
            if d.holds == FALSE && d.defined == TRUE {
                // An instance outside the domain: the claim need not be translated.
                return Ok(());
            }
            let k = tr.pred(claim, top)?;
            if (d.defined != TRUE || (!top && k.defined != TRUE)) && !strict {
                return Err(ill_defined_body(p.span));
            }
            let ok = tr.circuit.and(k.holds, k.defined);
            all.push(tr.circuit.implies(d.holds, ok));
            let claim_defined = tr.circuit.implies(d.holds, k.defined);
            defined.extend([d.defined, claim_defined]);
            Ok(())
        })?;
        Ok(Truth {
            holds: self.circuit.and_all(all),
            defined: self.circuit.and_all(defined),
        })
    }

    /// `x = v` (or `v = x`) for a scalar unknown x and a known v: the literal of x's candidate v, without
    /// building either term (`equal` would give the same literal; SAT inputs are mostly such atoms).
    fn scalar_is_value(&mut self, a: &Expr, b: &Expr) -> Tr<Option<Lit>> {
        // The name is borrowed from the expression, not the translator, which `known_value` needs.
        fn scalar<'e>(t: &Translator<'_>, e: &'e Expr) -> Option<&'e Name> {
            match &e.kind {
                ExprKind::Var(n) if matches!(t.unknowns.get(n), Some(Term::Scalar(_))) => Some(n),
                _ => None,
            }
        }
        let Some((n, other)) = scalar(self, a)
            .map(|n| (n, b))
            .or_else(|| scalar(self, b).map(|n| (n, a)))
        else {
            return Ok(None);
        };
        let Some(v) = self.known_value(other)? else {
            return Ok(None);
        };
        let Some(Term::Scalar(candidates)) = self.unknowns.get(n) else {
            unreachable!("`scalar` checked the unknown's term")
        };
        Ok(Some(
            candidates
                .iter()
                .find(|(w, _)| *w == v)
                .map_or(FALSE, |(_, lit)| *lit),
        ))
    }

    fn compare(&mut self, op: CompareOp, a: &Expr, b: &Expr, span: Span) -> Tr<Lit> {
        match op {
            CompareOp::Eq | CompareOp::NotEq => {
                if let Some(eq) = self.scalar_is_value(a, b)? {
                    return Ok(if op == CompareOp::Eq { eq } else { !eq });
                }
                let (x, y) = (self.expr(a)?, self.expr(b)?);
                let eq = self.equal(&x, &y, span)?;
                Ok(if op == CompareOp::Eq { eq } else { !eq })
            }
            CompareOp::Lt | CompareOp::Le => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                Ok(if op == CompareOp::Lt {
                    x.lt(&mut self.circuit, &y)
                } else {
                    x.le(&mut self.circuit, &y)
                })
            }
            CompareOp::Subset | CompareOp::StrictSubset => {
                let (x, y) = (self.set(a)?, self.set(b)?);
                let sub = self.subset(&x, &y);
                if op == CompareOp::Subset {
                    return Ok(sub);
                }
                let back = self.subset(&y, &x);
                Ok(self.circuit.and(sub, !back))
            }
            CompareOp::In => self.membership(a, b),
        }
    }

    /// `x : S`, with the infinite and the higher-order sets B uses as types read as constraints.
    fn membership(&mut self, x: &Expr, s: &Expr) -> Tr<Lit> {
        // `x : BOOL` for a boolean variable (one per constant in a propositional machine): every value of
        // its type is in BOOL, so no candidate set needs building.
        if matches!(s.kind, ExprKind::Const(ExprConst::BoolSet))
            && matches!(x.kind, ExprKind::Var(_))
        {
            return Ok(TRUE);
        }
        let settings = self.ctx.settings();
        let (minint, maxint) = (settings.minint.to_i64(), settings.maxint.to_i64());
        let int_range = |lo: Option<i64>, hi: Option<i64>| (lo, hi);
        let range = match &s.kind {
            ExprKind::Const(ExprConst::Integer) => Some(int_range(None, None)),
            ExprKind::Const(ExprConst::Natural) => Some(int_range(Some(0), None)),
            ExprKind::Const(ExprConst::Natural1) => Some(int_range(Some(1), None)),
            ExprKind::Const(ExprConst::Int) => Some(int_range(minint, maxint)),
            ExprKind::Const(ExprConst::Nat) => Some(int_range(Some(0), maxint)),
            ExprKind::Const(ExprConst::Nat1) => Some(int_range(Some(1), maxint)),
            _ => None,
        };
        if let Some((lo, hi)) = range {
            let v = self.int(x)?;
            let above = match lo {
                Some(lo) => v.ge_const(&mut self.circuit, lo),
                None => TRUE,
            };
            let below = match hi {
                Some(hi) => v.le_const(&mut self.circuit, hi),
                None => TRUE,
            };
            return Ok(self.circuit.and(above, below));
        }
        match &s.kind {
            ExprKind::Binary(BinaryOp::Interval, lo, hi) if x.ty == Type::Integer => {
                let (v, lo, hi) = (self.int(x)?, self.int(lo)?, self.int(hi)?);
                let above = lo.le(&mut self.circuit, &v);
                let below = v.le(&mut self.circuit, &hi);
                Ok(self.circuit.and(above, below))
            }
            ExprKind::Unary(
                op @ (UnaryOp::Pow | UnaryOp::Fin | UnaryOp::Pow1 | UnaryOp::Fin1),
                t,
            ) => {
                let (xs, ts) = (self.set(x)?, self.set(t)?);
                let sub = self.subset(&xs, &ts);
                if matches!(op, UnaryOp::Pow1 | UnaryOp::Fin1) {
                    let some = self.circuit.or_all(xs.values().copied());
                    return Ok(self.circuit.and(sub, some));
                }
                Ok(sub)
            }
            ExprKind::Unary(
                op
                @ (UnaryOp::Seq | UnaryOp::Seq1 | UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm),
                t,
            ) => {
                let (f, t) = (self.set(x)?, self.set(t)?);
                let injective = matches!(op, UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm);
                let non_empty = matches!(op, UnaryOp::Seq1 | UnaryOp::Iseq1);
                let seq = self.sequence(&f, Some(&t), injective, non_empty);
                if *op != UnaryOp::Perm {
                    return Ok(seq);
                }
                // A permutation of t: every element of t is in the range.
                let mut onto = vec![seq];
                for (v, l) in &t {
                    let hits: Vec<Lit> = f
                        .iter()
                        .filter(|(k, _)| pair_parts(k).1 == v)
                        .map(|(_, m)| *m)
                        .collect();
                    let hit = self.circuit.or_all(hits);
                    onto.push(self.circuit.implies(*l, hit));
                }
                Ok(self.circuit.and_all(onto))
            }
            ExprKind::Binary(op, a, b) if op.is_arrow() && is_fun_type(&x.ty) => {
                match self.fun(x)? {
                    Some(f) => self.fun_arrow(&f, *op, a, b),
                    None => Err(unsupported(x.span, describe(x))),
                }
            }
            ExprKind::Binary(op, a, b) if op.is_arrow() => {
                let (f, a, b) = (self.set(x)?, self.set(a)?, self.set(b)?);
                Ok(self.arrow(*op, &f, &a, &b))
            }
            _ => {
                let (t, set) = (self.expr(x)?, self.set(s)?);
                Ok(self.member(&t, &set))
            }
        }
    }

    /// `f : A op B` for the relation and function arrows.
    fn arrow(&mut self, op: BinaryOp, f: &SetTerm, a: &SetTerm, b: &SetTerm) -> Lit {
        let Some(ArrowProperties {
            functional,
            total,
            injective,
            surjective,
        }) = op.arrow_properties()
        else {
            return FALSE;
        };
        let mut conds = Vec::new();
        let mut by_first: BTreeMap<&Value, Vec<Lit>> = BTreeMap::new();
        let mut by_second: BTreeMap<&Value, Vec<Lit>> = BTreeMap::new();
        for (k, l) in f {
            let (x, y) = pair_parts(k);
            let inside_a = a.get(x).copied().unwrap_or(FALSE);
            let inside_b = b.get(y).copied().unwrap_or(FALSE);
            let inside = self.circuit.and(inside_a, inside_b);
            conds.push(self.circuit.implies(*l, inside));
            by_first.entry(x).or_default().push(*l);
            by_second.entry(y).or_default().push(*l);
        }
        for (group, wanted) in [(&by_first, functional), (&by_second, injective)] {
            if wanted {
                for lits in group.values() {
                    conds.push(self.circuit.at_most_one(lits));
                }
            }
        }
        for (group, side, wanted) in [(&by_first, a, total), (&by_second, b, surjective)] {
            if wanted {
                for (v, l) in side {
                    let hit = group
                        .get(v)
                        .map_or(FALSE, |ls| self.circuit.or_all(ls.iter().copied()));
                    conds.push(self.circuit.implies(*l, hit));
                }
            }
        }
        self.circuit.and_all(conds)
    }
}

fn ill_defined_body(span: Span) -> Diagnostic {
    unsupported(
        span,
        "a quantifier whose body may be ill-defined (the interpreter's order of evaluation decides)",
    )
}

/// A short name for the construct of `e`, for "unsupported" messages.
fn describe(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Binary(op, ..) => format!("the operator {op:?} in the SAT translation"),
        ExprKind::Unary(op, ..) => format!("the operator {op:?} in the SAT translation"),
        ExprKind::Binder(kind, ..) => format!("the binder {kind:?} in the SAT translation"),
        ExprKind::Str(_) => "strings in the SAT translation".into(),
        ExprKind::Record(_) | ExprKind::Struct(_) | ExprKind::Field(..) => {
            "records in the SAT translation".into()
        }
        ExprKind::Const(c) => format!("the infinite set {c:?} as a value in the SAT translation"),
        ExprKind::Var(n) => format!("the name {n} (of type {}) in the SAT translation", e.ty),
        _ => format!("this expression (of type {}) in the SAT translation", e.ty),
    }
}

/// `!xs.(xs : {E} & R => C)` as `LET xs BE xs = E IN (R => C) END`, and `#xs.(xs : {E} & R)` as
/// `LET xs BE xs = E IN R END`: a quantifier over a singleton names a value (`!By.(By : {Board(y)} => ..)`
/// in the Sudoku models), which grounding could not bound when E is over unknowns. The bound variables
/// must each appear once in the tuple on the left, matched component by component against a tuple of
/// maplets on the right, and E must not mention them. Same well-definedness: both evaluate E first.
/// A conjunct `x = E` (or `E = x`) binding the one bound variable is read the same way.
fn singleton_binding(p: &Pred, xs: &[TypedName], body: &Pred) -> Option<Pred> {
    let forall = matches!(p.kind, PredKind::Forall(..));
    let (domain, claim) = match (&body.kind, forall) {
        (PredKind::Implies(d, c), true) => (d.conjuncts(), Some(&**c)),
        (_, true) => return None,
        (_, false) => (body.conjuncts(), None),
    };
    let bound = |n: &Name| xs.iter().any(|x| x.name == *n);
    let (at, binds) = domain.iter().enumerate().find_map(|(i, q)| {
        let (pattern, e) = match &q.kind {
            PredKind::Compare(CompareOp::In, pattern, set) => match &set.kind {
                ExprKind::SetEnum(items) if items.len() == 1 => (&**pattern, &items[0]),
                _ => return None,
            },
            // `x = E` (an operation's parameter equal to a state variable, as BMC's unrolled
            // relation quantifies it): E bound once instead of grounding x over its range.
            PredKind::Compare(CompareOp::Eq, a, b) => match (&a.kind, &b.kind) {
                (ExprKind::Var(n), _) if bound(n) => (&**a, &**b),
                (_, ExprKind::Var(n)) if bound(n) => (&**b, &**a),
                _ => return None,
            },
            _ => return None,
        };
        if free_names::expr_mentions(e, &bound) {
            return None;
        }
        let mut binds = Vec::new();
        (match_pattern(pattern, e, xs, &mut binds) && binds.len() == xs.len()).then_some((i, binds))
    })?;
    let rest: Vec<Pred> = domain
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != at)
        .map(|(_, q)| (*q).clone())
        .collect();
    let rest = match rest.len() {
        0 => Pred::truth(p.span),
        1 => rest.into_iter().next().expect("one conjunct"),
        _ => Pred::new(PredKind::And(rest), p.span),
    };
    let inner = match claim {
        Some(c) if matches!(rest.kind, PredKind::True) => c.clone(),
        Some(c) => Pred::new(
            PredKind::Implies(Box::new(rest), Box::new(c.clone())),
            p.span,
        ),
        None => rest,
    };
    Some(Pred::new(PredKind::Let(binds, Box::new(inner)), p.span))
}

/// Binds each bound variable of `pattern` (a variable or a tuple of maplets) to the matching component
/// of `e`; false when the shapes differ or a variable is not bound or appears twice.
fn match_pattern(
    pattern: &Expr,
    e: &Expr,
    xs: &[TypedName],
    binds: &mut Vec<(TypedName, Expr)>,
) -> bool {
    match (&pattern.kind, &e.kind) {
        (ExprKind::Var(n), _) => match xs.iter().find(|x| x.name == *n) {
            Some(x) if !binds.iter().any(|(y, _)| y.name == *n) => {
                binds.push((x.clone(), e.clone()));
                true
            }
            _ => false,
        },
        (ExprKind::Binary(BinaryOp::Maplet, a, b), ExprKind::Binary(BinaryOp::Maplet, ea, eb)) => {
            match_pattern(a, ea, xs, binds) && match_pattern(b, eb, xs, binds)
        }
        _ => false,
    }
}
