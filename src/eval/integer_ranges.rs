//! Sets of integers that are exactly an interval, whatever their form: `NATURAL - {0}`, `{x | x > 0}`,
//! `{x | x : INTEGER & x >= 10} /\ {x | x <= 99}`, `{0} \/ 1..1000000`. Knowing the interval decides
//! inclusion, equality, finiteness, `card`, `min` and `max` of such sets without enumerating them.
//! Every answer is exact: a set whose shape is not recognised has no range (`None`), never a guess.

use super::enumerate::mentions;
use super::symbolic::SymbolicSet;
use super::{Context, Env, Val};
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, TypedName};
use crate::types::Type;
use crate::value::{Int, Value};

/// The integers `lo..hi`; a missing bound is unbounded. Empty when both bounds exist and `hi < lo`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct IntRange {
    pub lo: Option<Int>,
    pub hi: Option<Int>,
}

impl IntRange {
    fn empty() -> IntRange {
        IntRange {
            lo: Some(Int::Small(1)),
            hi: Some(Int::zero()),
        }
    }

    fn everything() -> IntRange {
        IntRange { lo: None, hi: None }
    }

    pub fn is_empty(&self) -> bool {
        matches!((&self.lo, &self.hi), (Some(l), Some(h)) if h < l)
    }

    pub fn is_finite(&self) -> bool {
        self.is_empty() || (self.lo.is_some() && self.hi.is_some())
    }

    /// The number of elements of a finite range.
    pub fn count(&self) -> Option<Int> {
        match (&self.lo, &self.hi) {
            _ if self.is_empty() => Some(Int::zero()),
            (Some(l), Some(h)) => Some(h.sub(l).succ()),
            _ => None,
        }
    }

    pub fn is_subset(&self, other: &IntRange) -> bool {
        if self.is_empty() {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        let lo_ok = match (&self.lo, &other.lo) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(x), Some(y)) => y <= x,
        };
        let hi_ok = match (&self.hi, &other.hi) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(x), Some(y)) => x <= y,
        };
        lo_ok && hi_ok
    }

    pub fn same_set(&self, other: &IntRange) -> bool {
        self.is_subset(other) && other.is_subset(self)
    }

    fn intersect(&self, other: &IntRange) -> IntRange {
        let lo = match (&self.lo, &other.lo) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
        let hi = match (&self.hi, &other.hi) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
        let r = IntRange { lo, hi };
        if r.is_empty() { IntRange::empty() } else { r }
    }

    /// The union when it is an interval (the two overlap or touch), else None.
    fn union(&self, other: &IntRange) -> Option<IntRange> {
        if self.is_empty() {
            return Some(other.clone());
        }
        if other.is_empty() {
            return Some(self.clone());
        }
        // They touch unless one ends (strictly) before the other begins, with a gap.
        let gap = |a: &IntRange, b: &IntRange| match (&a.hi, &b.lo) {
            (Some(h), Some(l)) => h.succ() < *l,
            _ => false,
        };
        if gap(self, other) || gap(other, self) {
            return None;
        }
        let lo = match (&self.lo, &other.lo) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            _ => None,
        };
        let hi = match (&self.hi, &other.hi) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            _ => None,
        };
        Some(IntRange { lo, hi })
    }

    /// `self - other` when it is an interval (other misses self, covers it, or cuts one end), else None.
    fn minus(&self, other: &IntRange) -> Option<IntRange> {
        let common = self.intersect(other);
        if common.is_empty() {
            return Some(self.clone());
        }
        if self.is_subset(other) {
            return Some(IntRange::empty());
        }
        // What remains lies above `common` when `common` starts where self does, below it when it ends
        // where self does (the bound of `common` on the other side then exists: common is not all of self).
        if common.lo == self.lo {
            return Some(IntRange {
                lo: common.hi.as_ref().map(Int::succ),
                hi: self.hi.clone(),
            });
        }
        if common.hi == self.hi {
            return Some(IntRange {
                lo: self.lo.clone(),
                hi: common.lo.as_ref().map(Int::pred),
            });
        }
        None
    }
}

impl Context {
    /// The interval that `set` is exactly, when it is a set of integers of a recognised shape.
    /// Evaluation errors inside a comprehension's bounds give None (the caller's general path reports them).
    pub(crate) fn integer_range(&self, set: &Val) -> Option<IntRange> {
        let sym = match set {
            Val::Value(Value::Set(items)) => return contiguous(items),
            Val::Value(_) => return None,
            Val::Sym(s) => s,
        };
        match &**sym {
            SymbolicSet::Interval(lo, hi) => {
                let r = IntRange {
                    lo: lo.clone(),
                    hi: hi.clone(),
                };
                Some(if r.is_empty() { IntRange::empty() } else { r })
            }
            SymbolicSet::Union(a, b) => self.integer_range(a)?.union(&self.integer_range(b)?),
            SymbolicSet::Inter(a, b) => {
                Some(self.integer_range(a)?.intersect(&self.integer_range(b)?))
            }
            SymbolicSet::Minus(a, b) => self.integer_range(a)?.minus(&self.integer_range(b)?),
            SymbolicSet::Comprehension { vars, pred, env } => match vars.as_slice() {
                [v] if v.ty == Type::Integer => self.bounds_of(v, pred, env),
                _ => None,
            },
            _ => None,
        }
    }

    /// The range `{x | pred}` is when `pred` is a conjunction of bounds on `x` (`x : S`, `x >= e`,
    /// `e < x`, `x = e`, ... with `e` not mentioning `x`).
    fn bounds_of(&self, var: &TypedName, pred: &Pred, env: &Env) -> Option<IntRange> {
        let x = &*var.name;
        let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if &**n == x);
        let bound = |e: &Expr| -> Option<Int> {
            if mentions(e, x) {
                return None;
            }
            match self.eval_expr(e, env).ok()? {
                Value::Int(i) => Some(i),
                _ => None,
            }
        };
        match &pred.kind {
            PredKind::True => Some(IntRange::everything()),
            PredKind::And(ps) => {
                let mut r = IntRange::everything();
                for p in ps {
                    r = r.intersect(&self.bounds_of(var, p, env)?);
                }
                Some(r)
            }
            PredKind::Compare(CompareOp::In, a, s) if is_x(a) && !mentions(s, x) => {
                self.integer_range(&self.eval_symbolic(s, env).ok()?)
            }
            PredKind::Compare(CompareOp::Eq, a, b) => {
                let e = if is_x(a) {
                    b
                } else if is_x(b) {
                    a
                } else {
                    return None;
                };
                let v = bound(e)?;
                Some(IntRange {
                    lo: Some(v.clone()),
                    hi: Some(v),
                })
            }
            PredKind::Compare(op @ (CompareOp::Le | CompareOp::Lt), a, b) => {
                let strict = *op == CompareOp::Lt;
                let r = if is_x(a) {
                    let h = bound(b)?;
                    IntRange {
                        lo: None,
                        hi: Some(if strict { h.pred() } else { h }),
                    }
                } else if is_x(b) {
                    let l = bound(a)?;
                    IntRange {
                        lo: Some(if strict { l.succ() } else { l }),
                        hi: None,
                    }
                } else {
                    return None;
                };
                Some(r)
            }
            _ => None,
        }
    }
}

/// The range of a finite set of consecutive integers (the empty set is the empty range).
fn contiguous(items: &[Value]) -> Option<IntRange> {
    let (Some(first), Some(last)) = (items.first(), items.last()) else {
        return Some(IntRange::empty());
    };
    let (Value::Int(lo), Value::Int(hi)) = (first, last) else {
        return None;
    };
    // Sorted and duplicate-free: consecutive exactly when the count matches the span.
    (hi.sub(lo).succ() == Int::Small(items.len() as i64)).then(|| IntRange {
        lo: Some(lo.clone()),
        hi: Some(hi.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::IntRange;
    use crate::value::Int;

    fn range(lo: Option<i64>, hi: Option<i64>) -> IntRange {
        IntRange {
            lo: lo.map(Int::Small),
            hi: hi.map(Int::Small),
        }
    }

    #[test]
    fn interval_operations_are_exact_or_refused() {
        let naturals = range(Some(0), None);
        let small = range(Some(0), Some(3));
        assert_eq!(naturals.minus(&small), Some(range(Some(4), None)));
        assert_eq!(small.minus(&naturals).map(|r| r.is_empty()), Some(true));
        // A hole in the middle is not an interval.
        assert_eq!(naturals.minus(&range(Some(5), Some(6))), None);
        assert_eq!(
            range(None, Some(10)).minus(&range(Some(5), None)),
            Some(range(None, Some(4)))
        );
        assert_eq!(
            small.union(&range(Some(4), Some(9))),
            Some(range(Some(0), Some(9)))
        );
        assert_eq!(small.union(&range(Some(5), Some(9))), None);
        assert!(range(Some(5), Some(2)).is_subset(&small));
        assert!(range(Some(5), Some(2)).same_set(&range(Some(9), Some(1))));
        assert_eq!(
            naturals.intersect(&range(None, Some(7))).count(),
            Some(Int::Small(8))
        );
        assert_eq!(naturals.count(), None);
    }
}
