//! Bounds propagation for linear integer constraints `Σ cᵢ·xᵢ + k  op  0` (op: `=`, `<=`, `<`).
//!
//! Terms are integer atoms, membership bits of a decomposed set counted by `card` (a bit is 0 or 1), or
//! sub-terms the abstraction can only bound (they contribute their bounds but are not narrowed). Each
//! term's bounds are tightened from the others' — bounds consistency, exact over unbounded integers
//! (BigInt, floor/ceiling division).

use super::abs::Abs;
use super::domain::Dom;
use super::model::{AtomId, Shape};
use super::search::Solver;
use crate::eval::{EvalError, Val};
use crate::ir::{BinaryOp, CompareOp, Expr, ExprKind, UnaryOp};
use crate::types::Type;
use crate::value::{Int, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

pub(crate) fn is_integer(e: &Expr) -> bool {
    e.ty == Type::Integer
}

enum Term {
    IntAtom(AtomId),
    Bit(AtomId),
    /// A sub-term known only by its bounds.
    Bounded(Option<BigInt>, Option<BigInt>),
}

#[derive(Default)]
struct Lin {
    terms: Vec<(BigInt, Term)>,
    constant: BigInt,
}

impl Solver<'_, '_> {
    /// Propagates `l op r`; returns false when a domain is wiped out.
    pub(crate) fn linear(
        &mut self,
        op: CompareOp,
        l: &Expr,
        r: &Expr,
        changed: &mut Vec<AtomId>,
    ) -> Result<bool, EvalError> {
        let mut lin = Lin::default();
        if !self.linearize(l, &BigInt::one(), &mut lin)
            || !self.linearize(r, &-BigInt::one(), &mut lin)
        {
            return Ok(true);
        }
        lin.terms.retain(|(c, _)| !c.is_zero());
        if !lin
            .terms
            .iter()
            .any(|(_, t)| !matches!(t, Term::Bounded(..)))
        {
            return Ok(true);
        }
        // l - r <= bound
        let bound = match op {
            CompareOp::Lt => -BigInt::one(),
            _ => BigInt::zero(),
        };
        if !self.tighten(&lin, &bound, changed) {
            return Ok(false);
        }
        if op == CompareOp::Eq {
            let negated = Lin {
                terms: lin.terms.into_iter().map(|(c, t)| (-c, t)).collect(),
                constant: -lin.constant,
            };
            if !self.tighten(&negated, &BigInt::zero(), changed) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn linearize(&mut self, e: &Expr, scale: &BigInt, out: &mut Lin) -> bool {
        match &e.kind {
            ExprKind::Binary(BinaryOp::Add, a, b) => {
                self.linearize(a, scale, out) && self.linearize(b, scale, out)
            }
            ExprKind::Binary(BinaryOp::Sub, a, b) => {
                self.linearize(a, scale, out) && self.linearize(b, &-scale, out)
            }
            ExprKind::Unary(UnaryOp::Neg, a) => self.linearize(a, &-scale, out),
            ExprKind::Binary(BinaryOp::Mul, a, b) => {
                if let Some(k) = self.constant_of(a) {
                    self.linearize(b, &(scale * k), out)
                } else if let Some(k) = self.constant_of(b) {
                    self.linearize(a, &(scale * k), out)
                } else {
                    self.leaf(e, scale, out)
                }
            }
            ExprKind::Unary(UnaryOp::Card, s) => {
                if let ExprKind::Var(name) = &s.kind
                    && let Some(v) = self.var_of(name)
                    && let Shape::Members { bits, .. } = &self.model.vars[v].shape
                {
                    for &b in bits {
                        out.terms.push((scale.clone(), Term::Bit(b)));
                    }
                    return true;
                }
                self.leaf(e, scale, out)
            }
            _ => self.leaf(e, scale, out),
        }
    }

    fn constant_of(&mut self, e: &Expr) -> Option<BigInt> {
        match self.abs_expr(e) {
            Abs::Val(Val::Value(Value::Int(i))) => Some(i.to_bigint()),
            _ => None,
        }
    }

    fn leaf(&mut self, e: &Expr, scale: &BigInt, out: &mut Lin) -> bool {
        match self.abs_expr(e) {
            Abs::Val(Val::Value(Value::Int(i))) => {
                out.constant += scale * i.to_bigint();
                true
            }
            Abs::Atom(a) if self.doms[a].int_bounds().is_some() => {
                out.terms.push((scale.clone(), Term::IntAtom(a)));
                true
            }
            Abs::Ints(lo, hi) => {
                out.terms.push((
                    scale.clone(),
                    Term::Bounded(lo.map(|x| x.to_bigint()), hi.map(|x| x.to_bigint())),
                ));
                true
            }
            _ => false,
        }
    }

    fn term_bounds(&self, t: &Term) -> (Option<BigInt>, Option<BigInt>) {
        match t {
            Term::IntAtom(a) => match self.doms[*a].int_bounds() {
                Some((lo, hi)) => (lo.map(|x| x.to_bigint()), hi.map(|x| x.to_bigint())),
                None => (None, None),
            },
            Term::Bit(a) => match self.doms[*a].fixed() {
                Some(Value::Bool(true)) => (Some(BigInt::one()), Some(BigInt::one())),
                Some(_) => (Some(BigInt::zero()), Some(BigInt::zero())),
                None => (Some(BigInt::zero()), Some(BigInt::one())),
            },
            Term::Bounded(lo, hi) => (lo.clone(), hi.clone()),
        }
    }

    /// Enforces `Σ terms + constant <= bound`; false on a wipe-out.
    fn tighten(&mut self, lin: &Lin, bound: &BigInt, changed: &mut Vec<AtomId>) -> bool {
        // Minimum of each scaled term (None = unbounded below).
        let mins: Vec<Option<BigInt>> = lin
            .terms
            .iter()
            .map(|(c, t)| {
                let (lo, hi) = self.term_bounds(t);
                if c.is_positive() {
                    lo.map(|x| c * x)
                } else {
                    hi.map(|x| c * x)
                }
            })
            .collect();
        let unbounded = mins.iter().filter(|m| m.is_none()).count();
        if unbounded > 1 {
            return true;
        }
        let total: BigInt = mins.iter().flatten().sum::<BigInt>() + &lin.constant;
        if unbounded == 0 && &total > bound {
            return false;
        }
        for (i, (c, t)) in lin.terms.iter().enumerate() {
            let others = match &mins[i] {
                Some(m) if unbounded == 0 => &total - m,
                None => total.clone(),
                Some(_) => continue,
            };
            // c·x <= bound - others
            let room = bound - others;
            let (lo, hi) = if c.is_positive() {
                (None, Some(room.div_floor(c)))
            } else {
                (Some(-(room.div_floor(&-c))), None)
            };
            let ok = match t {
                Term::IntAtom(a) => {
                    let lo = lo.map(Int::from);
                    let hi = hi.map(Int::from);
                    match self.doms[*a].restrict_ints(lo.as_ref(), hi.as_ref()) {
                        Some(d) => self.set_dom(*a, d, changed),
                        None => true,
                    }
                }
                Term::Bit(a) => {
                    let forced = if hi.as_ref().is_some_and(|h| h < &BigInt::one()) {
                        Some(false)
                    } else if lo.as_ref().is_some_and(|l| l > &BigInt::zero()) {
                        Some(true)
                    } else {
                        None
                    };
                    match forced {
                        Some(b) => {
                            let v = Value::Bool(b);
                            if self.doms[*a].fixed() == Some(&v) {
                                true
                            } else if self.doms[*a].contains(&v) {
                                self.set_dom(*a, Dom::finite(vec![v]), changed)
                            } else {
                                false
                            }
                        }
                        None => true,
                    }
                }
                Term::Bounded(..) => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }
}
