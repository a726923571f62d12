//! Forward abstract evaluation: ranges holding every value an integer or set expression can take, from
//! the variables' ranges; expressions over known names are evaluated by the interpreter, once.

use super::{Range, SetRange, State, tracks_elements};
use crate::ir::{BinaryOp, Expr, ExprConst, ExprKind, UnaryOp, free_names};
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use num_traits::{One, Zero};

impl State<'_> {
    /// A range holding every value the integer expression `e` can take.
    pub(super) fn int_range(&self, e: &Expr) -> Range {
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
    pub(super) fn set_range(&self, e: &Expr) -> SetRange {
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
    pub(super) fn constant(&self, e: &Expr) -> Option<Value> {
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
pub(super) fn value_set_range(items: &[Value]) -> SetRange {
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
