//! The rules: what each kind of conjunct says about the ranges of the variables it constrains.

use super::abstract_eval::value_set_range;
use super::{Empty, Narrowed, Range, SetRange, State, VarInfo};
use crate::ir::{
    ArrowProperties, BinaryOp, CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, UnaryOp,
};
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use num_traits::{One, Zero};

impl State<'_> {
    pub(super) fn pred(&mut self, p: &Pred) -> Narrowed {
        match &p.kind {
            PredKind::False => Err(Empty),
            PredKind::And(ps) => ps.iter().try_for_each(|q| self.pred(q)),
            PredKind::Or(branches) => self.disjunction(p, branches),
            PredKind::Exists(bound, body) => self.existential(bound, body),
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
    /// ranges), and the variables get the hull of the non-contradictory branches' ranges. Only the
    /// variables the branches name can change, so only theirs are saved and joined: a clause of a
    /// SAT-style problem names 3 of 600 variables, and copying all 600 per clause cost more than the
    /// search.
    fn disjunction(&mut self, p: &Pred, branches: &[Pred]) -> Narrowed {
        let touched = self.named_vars(p);
        let saved: Vec<(VarInfo, bool, bool)> = touched
            .iter()
            .map(|&i| (self.info[i].clone(), self.functional[i], self.sequence[i]))
            .collect();
        let changed = self.changed;
        #[cfg(debug_assertions)]
        let before = self.info.clone();
        let mut hull: Option<Vec<VarInfo>> = None;
        for branch in branches {
            if self.pred(branch).is_ok() {
                hull = Some(match hull {
                    None => touched.iter().map(|&i| self.info[i].clone()).collect(),
                    Some(h) => h
                        .iter()
                        .zip(&touched)
                        .map(|(a, &i)| a.join(&self.info[i]))
                        .collect(),
                });
            }
            // Facts of one branch hold only there.
            for (&i, (info, functional, sequence)) in touched.iter().zip(&saved) {
                self.info[i].clone_from(info);
                self.functional[i] = *functional;
                self.sequence[i] = *sequence;
            }
            self.changed = changed;
            #[cfg(debug_assertions)]
            debug_assert_eq!(
                self.info, before,
                "a branch changed a variable it does not name"
            );
        }
        let hull = hull.ok_or(Empty)?;
        for (&i, h) in touched.iter().zip(hull) {
            if h != self.info[i] {
                self.update(i, |info| *info = h)?;
            }
        }
        Ok(())
    }

    /// `#xs.(body)`: the body holds for some values of `xs`, so what it says of the other variables
    /// holds. The bound variables are analysed beside them for the time of the body (a parameter's
    /// range bounds the after-state it is added to: `v : 1..10 & t' = t + v` inside an operation's
    /// before-after predicate, asked as one branch of a disjunction over operations by BMC). Skipped
    /// when a bound name shadows an analysed one.
    fn existential(&mut self, bound: &[TypedName], body: &Pred) -> Narrowed {
        if bound.iter().any(|v| self.index.contains_key(&v.name)) {
            return Ok(());
        }
        let n = self.vars.len();
        let outer = self.info.clone();
        let changed = self.changed;
        self.push_vars(bound);
        // Twice: a bound variable narrowed late in the body narrows what it is combined with.
        let result = self.pred(body).and_then(|()| self.pred(body));
        self.truncate_vars(n);
        // The bound variables start afresh at each visit: only the outer ranges count as a change.
        self.changed = changed || self.info != outer;
        result
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
            ExprKind::Binary(op, a, b) if let Some(kind) = op.arrow_properties() => {
                self.member_of_arrow(x, kind, a, b)
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
    fn member_of_arrow(&mut self, f: &Expr, kind: ArrowProperties, a: &Expr, b: &Expr) -> Narrowed {
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
}
