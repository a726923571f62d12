//! Integer ranges with optional (unbounded) ends, and sound interval arithmetic over them.
//!
//! Every operation over-approximates: the result contains every value the operation can produce from
//! values inside the operands. An empty operand gives an empty result.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// The integers `lo..hi`; `None` is an unbounded end. Empty when both ends are known and `lo > hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    pub lo: Option<BigInt>,
    pub hi: Option<BigInt>,
}

/// A bound extended with the infinities, ordered `NegInf < Fin(_) < PosInf`; used for the corners of
/// products, where `0 * ∞` must stay 0.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ext {
    NegInf,
    Fin(BigInt),
    PosInf,
}

impl Ext {
    fn mul(&self, other: &Ext) -> Ext {
        match (self, other) {
            (Ext::Fin(a), Ext::Fin(b)) => Ext::Fin(a * b),
            (Ext::Fin(a), inf) | (inf, Ext::Fin(a)) => {
                if a.is_zero() {
                    Ext::Fin(BigInt::zero())
                } else if a.is_positive() == (*inf == Ext::PosInf) {
                    Ext::PosInf
                } else {
                    Ext::NegInf
                }
            }
            (a, b) => {
                if a == b {
                    Ext::PosInf
                } else {
                    Ext::NegInf
                }
            }
        }
    }
}

impl Range {
    /// Every integer.
    pub fn full() -> Range {
        Range { lo: None, hi: None }
    }

    /// `lo..hi` (empty when `lo > hi`).
    pub fn new(lo: impl Into<BigInt>, hi: impl Into<BigInt>) -> Range {
        Range {
            lo: Some(lo.into()),
            hi: Some(hi.into()),
        }
    }

    /// The single value `v`.
    pub fn point(v: impl Into<BigInt>) -> Range {
        let v = v.into();
        Range {
            lo: Some(v.clone()),
            hi: Some(v),
        }
    }

    /// `lo..∞`.
    pub fn at_least(lo: impl Into<BigInt>) -> Range {
        Range {
            lo: Some(lo.into()),
            hi: None,
        }
    }

    /// `-∞..hi`.
    pub fn at_most(hi: impl Into<BigInt>) -> Range {
        Range {
            lo: None,
            hi: Some(hi.into()),
        }
    }

    /// `-∞..hi`, or every integer when `hi` is `None`.
    pub(super) fn at_most_opt(hi: Option<BigInt>) -> Range {
        Range { lo: None, hi }
    }

    /// The canonical empty range `1..0`.
    pub fn empty() -> Range {
        Range::new(1, 0)
    }

    pub fn is_empty(&self) -> bool {
        matches!((&self.lo, &self.hi), (Some(lo), Some(hi)) if lo > hi)
    }

    pub fn is_full(&self) -> bool {
        self.lo.is_none() && self.hi.is_none()
    }

    pub fn contains(&self, v: &BigInt) -> bool {
        self.lo.as_ref().is_none_or(|lo| lo <= v) && self.hi.as_ref().is_none_or(|hi| v <= hi)
    }

    /// The value when the range holds exactly one.
    pub fn as_point(&self) -> Option<&BigInt> {
        match (&self.lo, &self.hi) {
            (Some(lo), Some(hi)) if lo == hi => Some(lo),
            _ => None,
        }
    }

    /// How many integers the range holds, when it is bounded.
    pub fn size(&self) -> Option<BigInt> {
        match (&self.lo, &self.hi) {
            (Some(lo), Some(hi)) if lo > hi => Some(BigInt::zero()),
            (Some(lo), Some(hi)) => Some(hi - lo + 1),
            _ => None,
        }
    }

    pub fn intersect(&self, other: &Range) -> Range {
        let lo = match (&self.lo, &other.lo) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
        let hi = match (&self.hi, &other.hi) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
        Range { lo, hi }
    }

    /// The smallest range holding both (an empty side is ignored).
    pub fn union(&self, other: &Range) -> Range {
        if self.is_empty() {
            return other.clone();
        }
        if other.is_empty() {
            return self.clone();
        }
        let lo = match (&self.lo, &other.lo) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            _ => None,
        };
        let hi = match (&self.hi, &other.hi) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            _ => None,
        };
        Range { lo, hi }
    }

    pub fn add(&self, other: &Range) -> Range {
        if self.is_empty() || other.is_empty() {
            return Range::empty();
        }
        Range {
            lo: both(&self.lo, &other.lo, |a, b| a + b),
            hi: both(&self.hi, &other.hi, |a, b| a + b),
        }
    }

    pub fn neg(&self) -> Range {
        if self.is_empty() {
            return Range::empty();
        }
        Range {
            lo: self.hi.as_ref().map(|h| -h),
            hi: self.lo.as_ref().map(|l| -l),
        }
    }

    pub fn sub(&self, other: &Range) -> Range {
        self.add(&other.neg())
    }

    pub fn mul(&self, other: &Range) -> Range {
        if self.is_empty() || other.is_empty() {
            return Range::empty();
        }
        let (a, b) = (self.ext(), other.ext());
        let corners = [a.0.mul(&b.0), a.0.mul(&b.1), a.1.mul(&b.0), a.1.mul(&b.1)];
        let lo = corners.iter().min().expect("four corners");
        let hi = corners.iter().max().expect("four corners");
        Range {
            lo: finite(lo),
            hi: finite(hi),
        }
    }

    /// Integer division truncating toward zero (B's `/`); a zero divisor has no result (it is a
    /// well-definedness error), so only the non-zero divisors count.
    pub fn div(&self, other: &Range) -> Range {
        if self.is_empty() || other.is_empty() {
            return Range::empty();
        }
        let positive = other.intersect(&Range::at_least(1));
        let negative = other.intersect(&Range::at_most(-1));
        let mut out = Range::empty();
        if !positive.is_empty() {
            out = out.union(&self.div_positive(&positive));
        }
        if !negative.is_empty() {
            // Truncation is symmetric: a / b = -(a / -b).
            out = out.union(&self.div_positive(&negative.neg()).neg());
        }
        out
    }

    /// `self / d` for a divisor range `d` of positive values.
    fn div_positive(&self, d: &Range) -> Range {
        let d_lo = d.lo.clone().unwrap_or_else(BigInt::one);
        match (&self.lo, &self.hi) {
            (Some(a_lo), Some(a_hi)) => {
                // For a fixed dividend the quotient moves monotonically toward 0 as the divisor grows, and
                // it is monotone in the dividend: the extremes are at the corners (0 for an unbounded divisor).
                let trunc = |a: &BigInt, b: &BigInt| -> BigInt { a / b };
                let mut values = vec![trunc(a_lo, &d_lo), trunc(a_hi, &d_lo)];
                match &d.hi {
                    Some(d_hi) => {
                        values.push(trunc(a_lo, d_hi));
                        values.push(trunc(a_hi, d_hi));
                    }
                    None => values.push(BigInt::zero()),
                }
                let lo = values.iter().min().expect("corners").clone();
                let hi = values.iter().max().expect("corners").clone();
                Range::new(lo, hi)
            }
            // |a / b| <= |a| with the sign of a (or 0).
            _ => Range {
                lo: self.lo.as_ref().map(|l| l.min(&BigInt::zero()).clone()),
                hi: self.hi.as_ref().map(|h| h.max(&BigInt::zero()).clone()),
            },
        }
    }

    /// The floored remainder (B's `mod` as the interpreter computes it: the sign of the divisor).
    pub fn modulo(&self, other: &Range) -> Range {
        if self.is_empty() || other.is_empty() {
            return Range::empty();
        }
        let positive = other.intersect(&Range::at_least(1));
        let negative = other.intersect(&Range::at_most(-1));
        let mut out = Range::empty();
        if !positive.is_empty() {
            // 0 <= a mod b <= b - 1, and a mod b <= a when a >= 0.
            let mut r = Range {
                lo: Some(BigInt::zero()),
                hi: positive.hi.as_ref().map(|h| h - 1),
            };
            if self.lo.as_ref().is_some_and(|l| !l.is_negative()) {
                r = r.intersect(&Range {
                    lo: None,
                    hi: self.hi.clone(),
                });
            }
            out = out.union(&r);
        }
        if !negative.is_empty() {
            // b + 1 <= a mod b <= 0.
            out = out.union(&Range {
                lo: negative.lo.as_ref().map(|l| l + 1),
                hi: Some(BigInt::zero()),
            });
        }
        out
    }

    /// The values `x` with `x * c` inside `self` (for a non-zero constant `c`).
    pub fn div_exact_by(&self, c: &BigInt) -> Range {
        if c.is_zero() {
            return Range::full();
        }
        if self.is_empty() {
            return Range::empty();
        }
        let (lo, hi) = if c.is_positive() {
            (&self.lo, &self.hi)
        } else {
            (&self.hi, &self.lo)
        };
        Range {
            lo: lo.as_ref().map(|l| l.div_ceil(c)),
            hi: hi.as_ref().map(|h| h.div_floor(c)),
        }
    }

    fn ext(&self) -> (Ext, Ext) {
        (
            self.lo.clone().map_or(Ext::NegInf, Ext::Fin),
            self.hi.clone().map_or(Ext::PosInf, Ext::Fin),
        )
    }
}

fn both(
    a: &Option<BigInt>,
    b: &Option<BigInt>,
    f: impl Fn(&BigInt, &BigInt) -> BigInt,
) -> Option<BigInt> {
    match (a, b) {
        (Some(a), Some(b)) => Some(f(a, b)),
        _ => None,
    }
}

fn finite(e: &Ext) -> Option<BigInt> {
    match e {
        Ext::Fin(v) => Some(v.clone()),
        _ => None,
    }
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_empty() {
            return write!(f, "{{}}");
        }
        match &self.lo {
            Some(lo) => write!(f, "{lo}")?,
            None => write!(f, "-inf")?,
        }
        match &self.hi {
            Some(hi) => write!(f, "..{hi}"),
            None => write!(f, "..inf"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over small operands: every concrete result lies in the abstract one.
    fn check(op: impl Fn(&Range, &Range) -> Range, concrete: impl Fn(i64, i64) -> Option<i64>) {
        for (alo, ahi, blo, bhi) in itertools::iproduct!(-4i64..=4, -4i64..=4, -4i64..=4, -4i64..=4)
        {
            if alo > ahi || blo > bhi {
                continue;
            }
            // Each operand also with one end opened: the concrete values stay inside it.
            let widen =
                |lo: i64, hi: i64| [Range::new(lo, hi), Range::at_least(lo), Range::at_most(hi)];
            for (ra, rb) in itertools::iproduct!(widen(alo, ahi), widen(blo, bhi)) {
                let r = op(&ra, &rb);
                for (a, b) in itertools::iproduct!(alo..=ahi, blo..=bhi) {
                    if let Some(v) = concrete(a, b) {
                        assert!(
                            r.contains(&BigInt::from(v)),
                            "{v} from {a}, {b} not in {r} = {ra} op {rb}"
                        );
                    }
                }
            }
        }
    }

    fn int_op(
        op: fn(&crate::value::Int, &crate::value::Int) -> Option<crate::value::Int>,
    ) -> impl Fn(i64, i64) -> Option<i64> {
        move |a, b| op(&a.into(), &b.into()).and_then(|r| r.to_i64())
    }

    #[test]
    fn arithmetic_contains_every_concrete_result() {
        check(Range::add, |a, b| Some(a + b));
        check(Range::sub, |a, b| Some(a - b));
        check(Range::mul, |a, b| Some(a * b));
        check(Range::div, int_op(crate::value::Int::div));
        check(Range::modulo, int_op(crate::value::Int::modulo));
    }

    #[test]
    fn unbounded_ends() {
        let nat = Range::at_least(0);
        assert_eq!(nat.mul(&Range::point(-2)), Range::at_most(0));
        assert_eq!(nat.mul(&Range::point(0)), Range::point(0));
        assert_eq!(Range::full().modulo(&Range::new(1, 5)), Range::new(0, 4));
        assert_eq!(
            Range::at_least(3).div(&Range::at_least(2)),
            Range::at_least(0)
        );
        assert_eq!(
            Range::new(-7, 7).div_exact_by(&BigInt::from(2)),
            Range::new(-3, 3)
        );
        assert_eq!(
            Range::new(-7, 7).div_exact_by(&BigInt::from(-3)),
            Range::new(-2, 2)
        );
        assert!(Range::new(2, 1).is_empty());
        assert_eq!(Range::new(1, 3).union(&Range::empty()), Range::new(1, 3));
        assert_eq!(
            Range::new(1, 3).intersect(&Range::at_least(2)),
            Range::new(2, 3)
        );
    }
}
