//! Backward narrowing: the ranges of the variables inside an expression, given the range its value must
//! lie in, and the cross rules between a variable's ranges.

use super::{Empty, Narrowed, Range, SetRange, State, VarInfo, tracks_elements};
use crate::ir::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use num_traits::{One, Zero};

impl State<'_> {
    /// Narrows the variables of an integer expression so that its value lies in `target`.
    pub(super) fn narrow_int(&mut self, e: &Expr, target: &Range) -> Narrowed {
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
    pub(super) fn narrow_set(&mut self, e: &Expr, target: &SetRange) -> Narrowed {
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
    pub(super) fn mark(&mut self, i: usize, sequence: bool) {
        if !self.functional[i] || (sequence && !self.sequence[i]) {
            self.changed = true;
        }
        self.functional[i] = true;
        self.sequence[i] |= sequence;
    }

    /// Applies `change` to variable `i`, then the cross rules; records whether anything changed.
    pub(super) fn update(&mut self, i: usize, change: impl FnOnce(&mut VarInfo)) -> Narrowed {
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
}
