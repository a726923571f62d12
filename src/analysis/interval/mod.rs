//! Interval and cardinality analysis: abstract interpretation of a conjunction over the search variables,
//! iterated to a fixpoint (Plagge & Leuschel 2012, §3.4, as summarised in B_REFERENCE §5).
//!
//! For every variable it keeps three ranges (`VarInfo`):
//! * `int`: the values of an INTEGER variable;
//! * `card`: the cardinality of a set-typed variable (relations, functions and sequences included);
//! * `elem`: the integer elements of a set of INTEGER, or the first components (the domain) of a relation
//!   whose domain type is INTEGER (so for a sequence, the indices). For other types it stays unbounded.
//!
//! Each conjunct is read as a constraint that every solution satisfies, and narrows the ranges of the
//! variables it constrains: membership (`x : a..b`, `x : NAT`, `x : S` for a known finite S, `x : dom(f)`),
//! comparisons of integer expressions (interval arithmetic forward; backward through `+`, `-`, unary
//! minus, multiplication by a constant, `succ`/`pred`, `card`, `size`, `min`, `max`), set equality and
//! inclusion, `POW`/`FIN`, sequence sets and the function arrows. Two cross rules link the ranges of a set:
//! "interval → cardinality" (a set of integers in lo..hi, or a function whose domain is, has at most
//! hi-lo+1 elements) and, for sequences, "indices are 1..size". Expressions over known names are evaluated
//! by the interpreter in the given environment (an evaluation error gives no information).
//!
//! The analysis is relative to the context: `NAT`, `NAT1` and `INT` are `0..MAXINT`, `1..MAXINT` and
//! `MININT..MAXINT` as the interpreter defines them, and given sets have the sizes the context fixed. A
//! contradiction is therefore exactly as strong as an exhaustive "no solution" of the interpreter: not a
//! proof when a deferred set was sized by DEFAULT_SETSIZE only. (ProB accepts a value above MAXINT in
//! `NAT` when the constraints determine it; should the interpreter follow, `keyword_set` must too.)
//!
//! **Soundness first:** every rule only removes values no solution can take. A disjunction gives the hull
//! of what its branches give; negations other than of a comparison, implications, equivalences and
//! quantifiers give nothing. Rounds stop when nothing changes or
//! after `MAX_ROUNDS` (cyclic constraints such as `x < y & y < x` over unbounded integers would narrow
//! forever), so the result is sound but not always the tightest. An empty range proves the conjunction
//! unsatisfiable and is reported as `Analysis::contradiction`.

mod range;

pub use range::Range;

use crate::eval::{Context, Env};
use crate::ir::{
    BinaryOp, CompareOp, Expr, ExprConst, ExprKind, Pred, PredKind, TypedName, UnaryOp, free_names,
};
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// The ranges known for one search variable (see the module comment for what each means).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarInfo {
    pub int: Range,
    pub card: Range,
    pub elem: Range,
}

impl VarInfo {
    /// The ranges holding the values of either.
    fn join(&self, other: &VarInfo) -> VarInfo {
        VarInfo {
            int: self.int.union(&other.int),
            card: self.card.union(&other.card),
            elem: self.elem.union(&other.elem),
        }
    }
}

/// The result of `analyse`: one `VarInfo` per variable, in the order given, and the index of a conjunct
/// found unsatisfiable together with the ones before it (then there is no solution and the ranges mean
/// nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub vars: Vec<VarInfo>,
    pub contradiction: Option<usize>,
}

/// The most passes over the conjuncts.
const MAX_ROUNDS: usize = 20;

/// Analyses `conjuncts` over the search variables `vars`; every other name is looked up in `env`.
pub fn analyse(ctx: &Context, vars: &[TypedName], conjuncts: &[&Pred], env: &Env) -> Analysis {
    let mut state = State::new(ctx, vars, env);
    // A conjunct over known names only narrows nothing, and evaluating it may cost as much as solving
    // (set comprehensions over big domains): the solver checks it anyway. Only trivial ones are read.
    let relevant: Vec<usize> = (0..conjuncts.len())
        .filter(|&i| {
            let c = conjuncts[i];
            trivially_decided(c)
                || free_names::of_pred(c)
                    .iter()
                    .any(|n| state.index.contains_key(&**n))
        })
        .collect();
    for _ in 0..MAX_ROUNDS {
        state.changed = false;
        for &i in &relevant {
            if state.pred(conjuncts[i]).is_err() {
                return state.finish(Some(i));
            }
        }
        if !state.changed {
            break;
        }
    }
    state.finish(None)
}

/// `FALSE`, or a comparison of integer literals (`1 = 2`, `MAXINT < 5`).
fn trivially_decided(p: &Pred) -> bool {
    fn literal(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Const(ExprConst::MaxInt | ExprConst::MinInt) => true,
            ExprKind::Unary(UnaryOp::Neg, a) => literal(a),
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul, a, b) => {
                literal(a) && literal(b)
            }
            _ => false,
        }
    }
    match &p.kind {
        PredKind::False => true,
        PredKind::Not(q) => trivially_decided(q),
        PredKind::Compare(_, a, b) => literal(a) && literal(b),
        _ => false,
    }
}

/// A range became empty: no solution.
struct Empty;

type Narrowed = Result<(), Empty>;

/// The abstract value of a set expression.
#[derive(Clone, Debug)]
struct SetRange {
    card: Range,
    elem: Range,
}

impl SetRange {
    fn unknown() -> SetRange {
        SetRange {
            card: Range::at_least(0),
            elem: Range::full(),
        }
    }
    fn with_card(card: Range) -> SetRange {
        SetRange {
            card,
            elem: Range::full(),
        }
    }
}

struct State<'a> {
    ctx: &'a Context,
    env: &'a Env,
    vars: &'a [TypedName],
    index: FxHashMap<&'a str, usize>,
    info: Vec<VarInfo>,
    /// Variables known to be functions (from an arrow or a sequence set): their card is their domain's.
    functional: Vec<bool>,
    /// Variables known to be sequences: their domain is `1..card`.
    sequence: Vec<bool>,
    changed: bool,
    /// Values of the expressions over known names, by node address (`None`: not evaluable).
    constants: RefCell<FxHashMap<usize, Option<Value>>>,
}

impl<'a> State<'a> {
    fn new(ctx: &'a Context, vars: &'a [TypedName], env: &'a Env) -> State<'a> {
        let info = vars
            .iter()
            .map(|v| VarInfo {
                int: Range::full(),
                card: match &v.ty {
                    Type::Set(t) => match type_size(ctx, t) {
                        Some(n) => Range::new(0, n),
                        None => Range::at_least(0),
                    },
                    _ => Range::full(),
                },
                elem: Range::full(),
            })
            .collect();
        State {
            ctx,
            env,
            vars,
            index: vars
                .iter()
                .enumerate()
                .map(|(i, v)| (&*v.name, i))
                .collect(),
            info,
            functional: vec![false; vars.len()],
            sequence: vec![false; vars.len()],
            changed: false,
            constants: RefCell::new(FxHashMap::default()),
        }
    }

    fn finish(self, contradiction: Option<usize>) -> Analysis {
        Analysis {
            vars: self.info,
            contradiction,
        }
    }

    fn var(&self, e: &Expr) -> Option<usize> {
        match &e.kind {
            ExprKind::Var(n) => self.index.get(&**n).copied(),
            _ => None,
        }
    }

    // ---- constraints ----

    fn pred(&mut self, p: &Pred) -> Narrowed {
        match &p.kind {
            PredKind::False => Err(Empty),
            PredKind::And(ps) => ps.iter().try_for_each(|q| self.pred(q)),
            PredKind::Or(branches) => self.disjunction(branches),
            PredKind::Compare(op, a, b) => self.compare(*op, a, b),
            PredKind::Not(q) => match &q.kind {
                PredKind::Not(r) => self.pred(r),
                PredKind::Compare(CompareOp::Lt, a, b) => self.compare(CompareOp::Le, b, a),
                PredKind::Compare(CompareOp::Le, a, b) => self.compare(CompareOp::Lt, b, a),
                PredKind::Compare(CompareOp::Eq, a, b) => self.compare(CompareOp::NotEq, a, b),
                PredKind::Compare(CompareOp::NotEq, a, b) => self.compare(CompareOp::Eq, a, b),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// A solution satisfies one of the branches: each is analysed alone (one pass, from the current
    /// ranges), and the variables get the hull of the non-contradictory branches' ranges.
    fn disjunction(&mut self, branches: &[Pred]) -> Narrowed {
        let saved = (
            self.info.clone(),
            self.functional.clone(),
            self.sequence.clone(),
            self.changed,
        );
        let mut hull: Option<Vec<VarInfo>> = None;
        for branch in branches {
            if self.pred(branch).is_ok() {
                hull = Some(match hull {
                    None => self.info.clone(),
                    Some(h) => h.iter().zip(&self.info).map(|(a, b)| a.join(b)).collect(),
                });
            }
            // Facts of one branch hold only there.
            self.info.clone_from(&saved.0);
            self.functional.clone_from(&saved.1);
            self.sequence.clone_from(&saved.2);
            self.changed = saved.3;
        }
        let hull = hull.ok_or(Empty)?;
        for (i, h) in hull.into_iter().enumerate() {
            if h != self.info[i] {
                self.update(i, |info| *info = h)?;
            }
        }
        Ok(())
    }

    fn compare(&mut self, op: CompareOp, a: &Expr, b: &Expr) -> Narrowed {
        match op {
            CompareOp::Eq => self.equal(a, b),
            CompareOp::NotEq => self.not_equal(a, b),
            CompareOp::Lt | CompareOp::Le => {
                let gap = if op == CompareOp::Lt {
                    BigInt::one()
                } else {
                    BigInt::zero()
                };
                let hi = self.int_range(b).hi.map(|h| h - &gap);
                self.narrow_int(a, &Range { lo: None, hi })?;
                let lo = self.int_range(a).lo.map(|l| l + &gap);
                self.narrow_int(b, &Range { lo, hi: None })
            }
            CompareOp::In => self.member(a, b),
            CompareOp::Subset => self.subset(a, b, false),
            CompareOp::StrictSubset => self.subset(a, b, true),
        }
    }

    fn equal(&mut self, a: &Expr, b: &Expr) -> Narrowed {
        match (&a.ty, &a.kind, &b.kind) {
            (Type::Integer, ..) => {
                let rb = self.int_range(b);
                self.narrow_int(a, &rb)?;
                let ra = self.int_range(a);
                self.narrow_int(b, &ra)
            }
            (Type::Set(_), ..) => {
                let sb = self.set_range(b);
                self.narrow_set(a, &sb)?;
                let sa = self.set_range(a);
                self.narrow_set(b, &sa)
            }
            (
                Type::Pair(..),
                ExprKind::Binary(BinaryOp::Maplet, a1, a2),
                ExprKind::Binary(BinaryOp::Maplet, b1, b2),
            ) => {
                self.equal(a1, b1)?;
                self.equal(a2, b2)
            }
            _ => Ok(()),
        }
    }

    fn not_equal(&mut self, a: &Expr, b: &Expr) -> Narrowed {
        for (x, y) in [(a, b), (b, a)] {
            match &x.ty {
                Type::Integer => {
                    // Only an end of a range can be cut off.
                    let Some(p) = self.int_range(y).as_point().cloned() else {
                        continue;
                    };
                    let rx = self.int_range(x);
                    if rx.lo.as_ref() == Some(&p) {
                        self.narrow_int(x, &Range::at_least(p + 1))?;
                    } else if rx.hi.as_ref() == Some(&p) {
                        self.narrow_int(x, &Range::at_most(p - 1))?;
                    }
                }
                Type::Set(_) if self.set_range(y).card.hi == Some(BigInt::zero()) => {
                    self.narrow_set(x, &SetRange::with_card(Range::at_least(1)))?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn member(&mut self, x: &Expr, s: &Expr) -> Narrowed {
        // Whatever x is, s has an element.
        self.narrow_set(s, &SetRange::with_card(Range::at_least(1)))?;
        match (&x.ty, &x.kind) {
            (Type::Integer, _) => {
                // x : a..b is a <= x & x <= b: it also bounds a and b.
                if let ExprKind::Binary(BinaryOp::Interval, a, b) = &s.kind {
                    self.compare(CompareOp::Le, a, x)?;
                    self.compare(CompareOp::Le, x, b)?;
                }
                let elem = self.set_range(s).elem;
                self.narrow_int(x, &elem)
            }
            (Type::Pair(first, _), ExprKind::Binary(BinaryOp::Maplet, a, _))
                if **first == Type::Integer =>
            {
                let elem = self.set_range(s).elem;
                self.narrow_int(a, &elem)
            }
            (Type::Set(_), _) => self.member_of_family(x, s),
            _ => Ok(()),
        }
    }

    /// `x : s` where `s` is a set of sets.
    fn member_of_family(&mut self, x: &Expr, s: &Expr) -> Narrowed {
        match &s.kind {
            ExprKind::Unary(
                op @ (UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1),
                t,
            ) => {
                let st = self.set_range(t);
                let lo = if matches!(op, UnaryOp::Pow1 | UnaryOp::Fin1) {
                    1
                } else {
                    0
                };
                self.narrow_set(
                    x,
                    &SetRange {
                        card: Range {
                            lo: Some(lo.into()),
                            hi: st.card.hi,
                        },
                        elem: st.elem,
                    },
                )
            }
            ExprKind::Unary(
                op
                @ (UnaryOp::Seq | UnaryOp::Seq1 | UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm),
                t,
            ) => {
                if let Some(i) = self.var(x) {
                    self.mark(i, true);
                }
                let st = self.set_range(t);
                let mut card = Range::at_least(0);
                if matches!(op, UnaryOp::Seq1 | UnaryOp::Iseq1) {
                    card = card.intersect(&Range::at_least(1));
                }
                if matches!(op, UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm) {
                    card = card.intersect(&Range {
                        lo: None,
                        hi: st.card.hi.clone(),
                    });
                }
                if *op == UnaryOp::Perm {
                    card = card.intersect(&Range {
                        lo: st.card.lo,
                        hi: None,
                    });
                }
                self.narrow_set(
                    x,
                    &SetRange {
                        card,
                        elem: Range::at_least(1),
                    },
                )
            }
            ExprKind::Binary(op, a, b) if arrow(*op).is_some() => {
                self.member_of_arrow(x, arrow(*op).expect("checked"), a, b)
            }
            _ => match self.constant(s) {
                Some(Value::Set(family)) => {
                    // A known set of sets: the hull of its members' ranges.
                    let mut card = Range::empty();
                    let mut elem = Range::empty();
                    for member in family.iter() {
                        let r = match member {
                            Value::Set(items) => value_set_range(items),
                            _ => return Ok(()),
                        };
                        card = card.union(&r.card);
                        elem = elem.union(&r.elem);
                    }
                    self.narrow_set(x, &SetRange { card, elem })
                }
                _ => Ok(()),
            },
        }
    }

    /// `f : A op B` for a relation or function arrow.
    fn member_of_arrow(&mut self, f: &Expr, kind: Arrow, a: &Expr, b: &Expr) -> Narrowed {
        let sa = self.set_range(a);
        let sb = self.set_range(b);
        // f ⊆ A × B.
        let mut card = Range::at_least(0).intersect(&Range {
            lo: None,
            hi: match (&sa.card.hi, &sb.card.hi) {
                (Some(x), Some(y)) => Some(x * y),
                _ => None,
            },
        });
        if kind.functional {
            // card(f) = card(dom(f)) <= card(A).
            card = card.intersect(&Range {
                lo: None,
                hi: sa.card.hi.clone(),
            });
            if let Some(i) = self.var(f) {
                self.mark(i, false);
            }
        }
        if kind.total {
            // dom(f) = A.
            card = card.intersect(&Range {
                lo: sa.card.lo.clone(),
                hi: None,
            });
        }
        if kind.injective {
            // An injection is as big as its range.
            card = card.intersect(&Range {
                lo: None,
                hi: sb.card.hi.clone(),
            });
        }
        if kind.surjective {
            card = card.intersect(&Range {
                lo: sb.card.lo.clone(),
                hi: None,
            });
        }
        self.narrow_set(
            f,
            &SetRange {
                card,
                elem: sa.elem,
            },
        )
    }

    fn subset(&mut self, a: &Expr, b: &Expr, strict: bool) -> Narrowed {
        let gap = if strict { 1 } else { 0 };
        let sb = self.set_range(b);
        self.narrow_set(
            a,
            &SetRange {
                card: Range {
                    lo: None,
                    hi: sb.card.hi.map(|h| h - gap),
                },
                elem: sb.elem,
            },
        )?;
        let lo = self.set_range(a).card.lo.map(|l| l + gap);
        self.narrow_set(b, &SetRange::with_card(Range { lo, hi: None }))
    }

    // ---- backward narrowing ----

    /// Narrows the variables of an integer expression so that its value lies in `target`.
    fn narrow_int(&mut self, e: &Expr, target: &Range) -> Narrowed {
        let current = self.int_range(e);
        let t = current.intersect(target);
        if t.is_empty() {
            return Err(Empty);
        }
        if t == current {
            // Backward narrowing of a sub-expression is implied by its range: nothing new.
            return Ok(());
        }
        match &e.kind {
            ExprKind::Var(_) => match self.var(e) {
                Some(i) => self.update(i, |info| info.int = info.int.intersect(&t)),
                None => Ok(()),
            },
            ExprKind::Unary(UnaryOp::Neg, a) => self.narrow_int(a, &t.neg()),
            ExprKind::Unary(UnaryOp::Succ, a) => self.narrow_int(a, &t.sub(&Range::point(1))),
            ExprKind::Unary(UnaryOp::Pred, a) => self.narrow_int(a, &t.add(&Range::point(1))),
            ExprKind::Binary(BinaryOp::Add, a, b) => {
                let rb = self.int_range(b);
                self.narrow_int(a, &t.sub(&rb))?;
                let ra = self.int_range(a);
                self.narrow_int(b, &t.sub(&ra))
            }
            ExprKind::Binary(BinaryOp::Sub, a, b) => {
                let rb = self.int_range(b);
                self.narrow_int(a, &t.add(&rb))?;
                let ra = self.int_range(a);
                self.narrow_int(b, &ra.sub(&t))
            }
            ExprKind::Binary(BinaryOp::Mul, a, b) => {
                for (x, y) in [(a, b), (b, a)] {
                    if let Some(c) = self.int_range(y).as_point().cloned()
                        && !c.is_zero()
                    {
                        self.narrow_int(x, &t.div_exact_by(&c))?;
                    }
                }
                Ok(())
            }
            ExprKind::Unary(UnaryOp::Card | UnaryOp::Size, s) => {
                self.narrow_set(s, &SetRange::with_card(t))
            }
            ExprKind::Binary(BinaryOp::Apply, f, arg) if arg.ty == Type::Integer => {
                match self.constant(f) {
                    // The arguments a known function maps into the target.
                    Some(Value::Set(pairs)) => {
                        let mut args = Range::empty();
                        for p in pairs.iter() {
                            match p.as_pair() {
                                Some((Value::Int(x), Value::Int(y)))
                                    if t.contains(&y.to_bigint()) =>
                                {
                                    args = args.union(&Range::point(x.to_bigint()));
                                }
                                Some((Value::Int(_), Value::Int(_))) => {}
                                _ => return Ok(()),
                            }
                        }
                        self.narrow_int(arg, &args)
                    }
                    // f(a) is well-defined: a is in dom(f).
                    _ => {
                        let dom = self.set_range(f).elem;
                        self.narrow_int(arg, &dom)
                    }
                }
            }
            // max(S) <= hi: every element is; min(S) >= lo: every element is. Both need S non-empty.
            ExprKind::Unary(UnaryOp::Max, s) => self.narrow_set(
                s,
                &SetRange {
                    card: Range::at_least(1),
                    elem: Range { lo: None, hi: t.hi },
                },
            ),
            ExprKind::Unary(UnaryOp::Min, s) => self.narrow_set(
                s,
                &SetRange {
                    card: Range::at_least(1),
                    elem: Range { lo: t.lo, hi: None },
                },
            ),
            _ => Ok(()),
        }
    }

    /// Narrows the variables of a set expression so that its cardinality and elements lie in `target`.
    fn narrow_set(&mut self, e: &Expr, target: &SetRange) -> Narrowed {
        let tracked = tracks_elements(&e.ty);
        let current = self.set_range(e);
        let mut card = current.card.intersect(&target.card);
        if tracked && current.elem.intersect(&target.elem).is_empty() {
            card = card.intersect(&Range::point(0));
        }
        if card.is_empty() {
            return Err(Empty);
        }
        // Element ranges mean something only for the types `tracks_elements` accepts.
        let elem = if tracked {
            target.elem.clone()
        } else {
            Range::full()
        };
        match &e.kind {
            ExprKind::Var(_) => match self.var(e) {
                Some(i) => self.update(i, |info| {
                    info.card = info.card.intersect(&card);
                    info.elem = info.elem.intersect(&elem);
                }),
                None => Ok(()),
            },
            ExprKind::Binary(BinaryOp::Union, a, b) => {
                let part = SetRange {
                    card: Range {
                        lo: None,
                        hi: target.card.hi.clone(),
                    },
                    elem,
                };
                self.narrow_set(a, &part)?;
                self.narrow_set(b, &part)
            }
            ExprKind::Unary(op @ (UnaryOp::Dom | UnaryOp::Ran), r) => {
                // card(r) >= card(dom r) = card(ran r), and r is empty exactly when they are.
                let hi = (target.card.hi == Some(BigInt::zero())).then(BigInt::zero);
                let keeps_elem = *op == UnaryOp::Dom && tracks_elements(&r.ty);
                self.narrow_set(
                    r,
                    &SetRange {
                        card: Range {
                            lo: target.card.lo.clone(),
                            hi,
                        },
                        elem: if keeps_elem { elem } else { Range::full() },
                    },
                )
            }
            ExprKind::SetEnum(items) if tracked => {
                for item in items {
                    match &item.kind {
                        _ if item.ty == Type::Integer => self.narrow_int(item, &elem)?,
                        ExprKind::Binary(BinaryOp::Maplet, a, _) => self.narrow_int(a, &elem)?,
                        _ => {}
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Records that variable `i` is a function (and a sequence); the cross rules use it from now on.
    fn mark(&mut self, i: usize, sequence: bool) {
        if !self.functional[i] || (sequence && !self.sequence[i]) {
            self.changed = true;
        }
        self.functional[i] = true;
        self.sequence[i] |= sequence;
    }

    /// Applies `change` to variable `i`, then the cross rules; records whether anything changed.
    fn update(&mut self, i: usize, change: impl FnOnce(&mut VarInfo)) -> Narrowed {
        let before = self.info[i].clone();
        let mut info = before.clone();
        change(&mut info);
        let ty = &self.vars[i].ty;
        if tracks_elements(ty) {
            let is_int_set = matches!(ty, Type::Set(t) if **t == Type::Integer);
            if self.sequence[i] {
                // dom = 1..card.
                info.elem = info.elem.intersect(&Range {
                    lo: Some(BigInt::one()),
                    hi: info.card.hi.clone(),
                });
                if let Some(hi) = &info.elem.hi {
                    let hi = hi.max(&BigInt::zero()).clone();
                    info.card = info.card.intersect(&Range::at_most(hi));
                }
            }
            // Interval → cardinality: a set of integers (or a function's domain) in lo..hi.
            if (is_int_set || self.functional[i])
                && let Some(n) = info.elem.size()
            {
                info.card = info.card.intersect(&Range::at_most(n));
            }
            if info.elem.is_empty() {
                info.card = info.card.intersect(&Range::point(0));
            }
        }
        if info.int.is_empty() || info.card.is_empty() {
            return Err(Empty);
        }
        if info != before {
            self.changed = true;
            self.info[i] = info;
        }
        Ok(())
    }

    // ---- abstract evaluation ----

    /// A range holding every value the integer expression `e` can take.
    fn int_range(&self, e: &Expr) -> Range {
        match &e.kind {
            ExprKind::Int(v) => Range::point(v.clone()),
            ExprKind::Var(_) if e.ty == Type::Integer && self.var(e).is_some() => {
                self.info[self.var(e).expect("checked")].int.clone()
            }
            ExprKind::Const(ExprConst::MaxInt) => Range::point(self.ctx.settings().maxint.clone()),
            ExprKind::Const(ExprConst::MinInt) => Range::point(self.ctx.settings().minint.clone()),
            ExprKind::Unary(UnaryOp::Neg, a) => self.int_range(a).neg(),
            ExprKind::Unary(UnaryOp::Succ, a) => self.int_range(a).add(&Range::point(1)),
            ExprKind::Unary(UnaryOp::Pred, a) => self.int_range(a).sub(&Range::point(1)),
            ExprKind::Unary(UnaryOp::Card | UnaryOp::Size, s) => self.set_range(s).card,
            ExprKind::Unary(UnaryOp::Max | UnaryOp::Min, s) if tracks_elements(&s.ty) => {
                self.set_range(s).elem
            }
            ExprKind::Binary(
                op
                @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod),
                a,
                b,
            ) => {
                let (ra, rb) = (self.int_range(a), self.int_range(b));
                match op {
                    BinaryOp::Add => ra.add(&rb),
                    BinaryOp::Sub => ra.sub(&rb),
                    BinaryOp::Mul => ra.mul(&rb),
                    BinaryOp::Div => ra.div(&rb),
                    _ => ra.modulo(&rb),
                }
            }
            // f(a) of a known function lies in its range.
            ExprKind::Binary(BinaryOp::Apply, f, _) => match self.constant(e) {
                Some(Value::Int(i)) => Range::point(i.to_bigint()),
                _ => match self.constant(f) {
                    Some(Value::Set(pairs)) => pairs
                        .iter()
                        .map(|p| match p.as_pair() {
                            Some((_, Value::Int(y))) => Range::point(y.to_bigint()),
                            _ => Range::full(),
                        })
                        .fold(Range::empty(), |acc, r| acc.union(&r)),
                    _ => Range::full(),
                },
            },
            _ => self.constant_int(e),
        }
    }

    fn constant_int(&self, e: &Expr) -> Range {
        match self.constant(e) {
            Some(Value::Int(i)) => Range::point(i.to_bigint()),
            _ => Range::full(),
        }
    }

    /// Ranges holding the cardinality and the elements of every value the set expression `e` can take.
    fn set_range(&self, e: &Expr) -> SetRange {
        let mut r = self.set_range_of(e);
        r.card = r.card.intersect(&Range::at_least(0));
        if !tracks_elements(&e.ty) {
            r.elem = Range::full();
        } else if r.elem.is_empty() {
            r.card = r.card.intersect(&Range::point(0));
        }
        r
    }

    fn set_range_of(&self, e: &Expr) -> SetRange {
        match &e.kind {
            ExprKind::Var(_) if self.var(e).is_some() => {
                let info = &self.info[self.var(e).expect("checked")];
                SetRange {
                    card: info.card.clone(),
                    elem: info.elem.clone(),
                }
            }
            ExprKind::Const(c) => self.keyword_set(*c),
            ExprKind::Binary(BinaryOp::Interval, a, b) => {
                let (ra, rb) = (self.int_range(a), self.int_range(b));
                let zero = BigInt::zero();
                let span = |hi: &Option<BigInt>, lo: &Option<BigInt>| match (hi, lo) {
                    (Some(h), Some(l)) => Some((h - l + BigInt::one()).max(zero.clone())),
                    _ => None,
                };
                SetRange {
                    card: Range {
                        lo: Some(span(&rb.lo, &ra.hi).unwrap_or_else(BigInt::zero)),
                        hi: span(&rb.hi, &ra.lo),
                    },
                    elem: Range {
                        lo: ra.lo,
                        hi: rb.hi,
                    },
                }
            }
            _ => match self.constant(e) {
                Some(Value::Set(items)) => value_set_range(&items),
                _ => self.set_range_of_operation(e),
            },
        }
    }

    /// `set_range_of` for an expression over search variables.
    fn set_range_of_operation(&self, e: &Expr) -> SetRange {
        match &e.kind {
            ExprKind::Binary(BinaryOp::Union | BinaryOp::Override, a, b) => {
                let (sa, sb) = (self.set_range(a), self.set_range(b));
                let lo = if matches!(&e.kind, ExprKind::Binary(BinaryOp::Union, ..)) {
                    sa.card.lo.clone().max(sb.card.lo.clone())
                } else {
                    sb.card.lo.clone()
                };
                SetRange {
                    card: Range {
                        lo,
                        hi: sa.card.add(&sb.card).hi,
                    },
                    elem: sa.elem.union(&sb.elem),
                }
            }
            ExprKind::Binary(BinaryOp::Inter, a, b) => {
                let (sa, sb) = (self.set_range(a), self.set_range(b));
                SetRange {
                    card: Range::at_least(0)
                        .intersect(&Range::at_most_opt(sa.card.hi))
                        .intersect(&Range::at_most_opt(sb.card.hi)),
                    elem: sa.elem.intersect(&sb.elem),
                }
            }
            ExprKind::Binary(BinaryOp::SetMinus, a, b) => {
                let (sa, sb) = (self.set_range(a), self.set_range(b));
                SetRange {
                    card: Range {
                        lo: sa.card.sub(&sb.card).lo,
                        hi: sa.card.hi,
                    },
                    elem: sa.elem,
                }
            }
            // Restrictions and subtractions are subsets of their relation argument.
            ExprKind::Binary(BinaryOp::DomRestrict, s, r) => {
                let (ss, sr) = (self.set_range(s), self.set_range(r));
                SetRange {
                    card: Range::at_least(0).intersect(&Range::at_most_opt(sr.card.hi)),
                    elem: sr.elem.intersect(&ss.elem),
                }
            }
            ExprKind::Binary(BinaryOp::DomSubtract, _, r)
            | ExprKind::Binary(BinaryOp::RanRestrict | BinaryOp::RanSubtract, r, _) => {
                let sr = self.set_range(r);
                SetRange {
                    card: Range::at_least(0).intersect(&Range::at_most_opt(sr.card.hi)),
                    elem: sr.elem,
                }
            }
            ExprKind::Unary(op @ (UnaryOp::Dom | UnaryOp::Ran), r) => {
                let sr = self.set_range(r);
                let lo = if sr.card.lo.as_ref().is_some_and(|l| l >= &BigInt::one()) {
                    1
                } else {
                    0
                };
                SetRange {
                    card: Range {
                        lo: Some(lo.into()),
                        hi: sr.card.hi,
                    },
                    elem: if *op == UnaryOp::Dom && tracks_elements(&r.ty) {
                        sr.elem
                    } else {
                        Range::full()
                    },
                }
            }
            ExprKind::SetEnum(items) => {
                let n = items.len();
                let mut elem = Range::empty();
                for item in items {
                    elem = elem.union(&match &item.kind {
                        _ if item.ty == Type::Integer => self.int_range(item),
                        ExprKind::Binary(BinaryOp::Maplet, a, _) if a.ty == Type::Integer => {
                            self.int_range(a)
                        }
                        _ => Range::full(),
                    });
                }
                SetRange {
                    card: Range::new(n.min(1), n),
                    elem,
                }
            }
            ExprKind::SeqEnum(items) => {
                let n = items.len();
                SetRange {
                    card: Range::point(n),
                    elem: Range::new(1, n),
                }
            }
            _ => SetRange::unknown(),
        }
    }

    fn keyword_set(&self, c: ExprConst) -> SetRange {
        let s = self.ctx.settings();
        let zero = BigInt::zero;
        let elem = match c {
            ExprConst::Natural => Range::at_least(0),
            ExprConst::Natural1 => Range::at_least(1),
            ExprConst::Nat => Range::new(zero(), s.maxint.clone()),
            ExprConst::Nat1 => Range::new(1, s.maxint.clone()),
            ExprConst::Int => Range::new(s.minint.clone(), s.maxint.clone()),
            ExprConst::BoolSet => return SetRange::with_card(Range::point(2)),
            _ => Range::full(),
        };
        let card = match elem.size() {
            Some(n) => Range::point(n),
            None => Range::at_least(0),
        };
        SetRange { card, elem }
    }

    /// The value of an expression over known names only, evaluated once. Sets of sets (`POW(..)`,
    /// `A --> B`, `(1..n) * POW(..)`) are not materialised — the rules read them structurally — except a
    /// literal `{..}` and a name already bound to a value.
    fn constant(&self, e: &Expr) -> Option<Value> {
        let key = e as *const Expr as usize;
        if let Some(v) = self.constants.borrow().get(&key) {
            return v.clone();
        }
        let value = if free_names_mention(self, e) {
            None
        } else {
            match &e.kind {
                ExprKind::Var(n) if self.env.get_value(n).is_some() => {
                    self.env.get_value(n).cloned()
                }
                ExprKind::SetEnum(_) => self.ctx.eval_expr(e, self.env).ok(),
                _ if e.ty.element().is_some_and(contains_set) => None,
                _ => self.ctx.eval_expr(e, self.env).ok(),
            }
        };
        self.constants.borrow_mut().insert(key, value.clone());
        value
    }
}

/// Whether a type is or contains a set type.
fn contains_set(ty: &Type) -> bool {
    match ty {
        Type::Set(_) => true,
        Type::Pair(a, b) => contains_set(a) || contains_set(b),
        Type::Struct(fields) => fields.iter().any(|(_, t)| contains_set(t)),
        _ => false,
    }
}

/// Whether `e` mentions a search variable.
fn free_names_mention(state: &State, e: &Expr) -> bool {
    free_names::of_expr(e)
        .iter()
        .any(|n| state.index.contains_key(&**n))
}

/// The ranges of a known set: its size, and the hull of its integers (or of its pairs' first components).
fn value_set_range(items: &[Value]) -> SetRange {
    let mut elem = Range::empty();
    for item in items {
        let v = match item {
            Value::Int(i) => i,
            Value::Pair(p) => match &p.0 {
                Value::Int(i) => i,
                _ => return SetRange::with_card(Range::point(items.len())),
            },
            _ => return SetRange::with_card(Range::point(items.len())),
        };
        elem = elem.union(&Range::point(v.to_bigint()));
    }
    SetRange {
        card: Range::point(items.len()),
        elem,
    }
}

/// Whether `elem` ranges are kept for values of this type: sets of integers, and relations from integers.
fn tracks_elements(ty: &Type) -> bool {
    match ty {
        Type::Set(t) => match &**t {
            Type::Integer => true,
            Type::Pair(a, _) => **a == Type::Integer,
            _ => false,
        },
        _ => false,
    }
}

/// The number of values of a type, when finite and cheap to know.
fn type_size(ctx: &Context, ty: &Type) -> Option<BigInt> {
    match ty {
        Type::Bool => Some(BigInt::from(2)),
        Type::Given(name) => ctx
            .given_set(name, crate::diag::Span::default())
            .ok()
            .map(|elems| BigInt::from(elems.len())),
        Type::Pair(a, b) => Some(type_size(ctx, a)? * type_size(ctx, b)?),
        _ => None,
    }
}

/// What a relation or function arrow says about its members.
#[derive(Clone, Copy)]
struct Arrow {
    functional: bool,
    total: bool,
    injective: bool,
    surjective: bool,
}

fn arrow(op: BinaryOp) -> Option<Arrow> {
    use BinaryOp::*;
    let (functional, total, injective, surjective) = match op {
        Relation => (false, false, false, false),
        TotalRelation => (false, true, false, false),
        SurjRelation => (false, false, false, true),
        TotalSurjRelation => (false, true, false, true),
        PartialFunction => (true, false, false, false),
        TotalFunction => (true, true, false, false),
        PartialInjection => (true, false, true, false),
        TotalInjection => (true, true, true, false),
        PartialSurjection => (true, false, false, true),
        TotalSurjection => (true, true, false, true),
        PartialBijection => (true, false, true, true),
        TotalBijection => (true, true, true, true),
        _ => return None,
    };
    Some(Arrow {
        functional,
        total,
        injective,
        surjective,
    })
}

#[cfg(test)]
mod tests;
