//! Bounds propagation for linear integer constraints `Σ cᵢ·xᵢ + k  op  0` (op: `=`, `<=`, `<`).
//!
//! Terms are integer atoms, membership bits of a decomposed set counted by `card` (a bit is 0 or 1), or
//! sub-terms the abstraction can only bound (they contribute their bounds but are not narrowed). Each
//! term's bounds are tightened from the others' — bounds consistency, exact over unbounded integers
//! (BigInt, floor/ceiling division).

use super::abs::{Abs, ElementTable, Tri};
use super::domain::Dom;
use super::model::{AtomId, Shape};
use super::search::Solver;
use crate::eval::{EvalError, Val};
use crate::ir::{
    BinaryOp, BinderKind, CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, UnaryOp,
};
use crate::types::Type;
use crate::value::{Int, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// The most points a SIGMA or card of a comprehension is expanded over.
const MAX_POINTS: usize = 10_000;

/// A binder's points (values of its bound variables) and the indices of its guard's conjuncts that
/// still depend on the search.
pub(crate) type BinderPoints = std::sync::Arc<(Vec<Vec<Value>>, Vec<usize>)>;

pub(crate) fn is_integer(e: &Expr) -> bool {
    e.ty == Type::Integer
}

enum Term {
    IntAtom(AtomId),
    /// 1 when the atom has the value, else 0 (a membership bit is `Is(bit, TRUE)`).
    Is(AtomId, Value),
    /// A product of two integer atoms (the same atom for a square): bounded by interval multiplication,
    /// and its allowed range narrows the factors (`y*y = z & z <= 9999` gives `y <= 99`).
    Product(AtomId, AtomId),
    /// `F(x)` with F a known function with integer images and x an atom (`Solver::element_table`):
    /// bounded by the images of x's remaining candidates, and its allowed range narrows x to the
    /// candidates whose image lies within it.
    Element(AtomId, ElementTable),
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
                } else if let (Some(x), Some(y)) = (self.int_atom(a), self.int_atom(b)) {
                    out.terms.push((scale.clone(), Term::Product(x, y)));
                    true
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
                        out.terms
                            .push((scale.clone(), Term::Is(b, Value::Bool(true))));
                    }
                    return true;
                }
                if let ExprKind::Comprehension(xs, p) = &s.kind
                    && self.expand_sum(xs, p, None, scale, out)
                {
                    return true;
                }
                self.leaf(e, scale, out)
            }
            ExprKind::Binder(BinderKind::Sigma, xs, p, body)
                if self.expand_sum(xs, p, Some(body), scale, out) =>
            {
                true
            }
            ExprKind::Binary(BinaryOp::Apply, f, x) => {
                if let Some(pairs) = self.known_function(f)
                    && let Abs::Atom(a) = self.abs_expr(x)
                    && let Some(table) = self.element_table(&pairs, a)
                    && table.iter().all(|(_, y)| y.as_int().is_some())
                {
                    out.terms.push((scale.clone(), Term::Element(a, table)));
                    return true;
                }
                self.leaf(e, scale, out)
            }
            _ => self.leaf(e, scale, out),
        }
    }

    /// `SIGMA(xs).(P | E)` (with `body` E) or `card({xs | P})` (without) as a sum over the points of
    /// P's part that mentions no unfixed unknown (computed once per constraint): E at each point, or for
    /// card one 0/1 term per point for the rest of P. False (nothing added) when that does not apply.
    fn expand_sum(
        &mut self,
        xs: &[TypedName],
        p: &Pred,
        body: Option<&Expr>,
        scale: &BigInt,
        out: &mut Lin,
    ) -> bool {
        let Some(points) = self.binder_points(xs, p) else {
            return false;
        };
        let dependent: Vec<&Pred> = points.1.iter().map(|&i| p.conjuncts()[i]).collect();
        if body.is_some() && !dependent.is_empty() {
            return false;
        }
        let mut terms = Lin::default();
        let mark = self.scratch.len();
        self.binder_depth += 1;
        let mut ok = true;
        for point in points.0.iter() {
            for (x, v) in xs.iter().zip(point) {
                self.scratch.bind(x.name.clone(), v.clone());
            }
            ok = match body {
                Some(e) => self.linearize(e, scale, &mut terms),
                None => {
                    self.indicator(&dependent, scale, &mut terms);
                    true
                }
            };
            self.scratch.truncate(mark);
            if !ok {
                break;
            }
        }
        self.binder_depth -= 1;
        if !ok {
            return false;
        }
        out.terms.extend(terms.terms);
        out.constant += terms.constant;
        true
    }

    /// `scale · [P1 & ... & Pn]` at the current bindings: a constant when the abstraction decides it, a
    /// narrowable term when it is one atom's equality with a value, else a 0/1 bounded term.
    fn indicator(&mut self, parts: &[&Pred], scale: &BigInt, out: &mut Lin) {
        let mut open = Vec::new();
        for q in parts {
            match self.abs_pred(q) {
                Tri::False => return,
                Tri::True => {}
                Tri::Unknown => open.push(*q),
            }
        }
        if open.is_empty() {
            out.constant += scale;
            return;
        }
        if let [q] = open[..]
            && let PredKind::Compare(CompareOp::Eq, l, r) = &q.kind
        {
            for (x, y) in [(l, r), (r, l)] {
                if let Abs::Atom(a) = self.abs_expr(x)
                    && let Abs::Val(Val::Value(v)) = self.abs_expr(y)
                {
                    out.terms.push((scale.clone(), Term::Is(a, v)));
                    return;
                }
            }
        }
        out.terms.push((
            scale.clone(),
            Term::Bounded(Some(BigInt::zero()), Some(BigInt::one())),
        ));
    }

    /// The points of a binder's bound variables satisfying the conjuncts of `p` that mention no search
    /// variable unfixed before the search, and the indices of the other conjuncts; cached per constraint
    /// and node (those points depend only on the constraint's bindings).
    pub(crate) fn binder_points(&mut self, xs: &[TypedName], p: &Pred) -> Option<BinderPoints> {
        if self.binder_depth > 0 || xs.iter().any(|x| self.model.by_name.contains_key(&x.name)) {
            return None;
        }
        let key = (self.current_constraint(), super::model::address(p));
        if let Some(found) = self.binder_cache.get(&key) {
            return found.clone();
        }
        let conjuncts = p.conjuncts();
        let (mut independent, mut dependent) = (Vec::new(), Vec::new());
        for (i, c) in conjuncts.iter().enumerate() {
            if self.is_constant_pred(c) {
                independent.push((*c).clone());
            } else {
                dependent.push(i);
            }
        }
        let found = if independent.is_empty() {
            None
        } else {
            let guard = Pred::new(PredKind::And(independent), p.span);
            match self
                .ctx
                .solve_by_enumeration(xs, &guard, &self.scratch, MAX_POINTS)
            {
                Ok(e) if e.complete => Some(std::sync::Arc::new((e.solutions, dependent))),
                _ => None,
            }
        };
        self.binder_cache.insert(key, found.clone());
        found
    }

    fn constant_of(&mut self, e: &Expr) -> Option<BigInt> {
        match self.abs_expr(e) {
            Abs::Val(Val::Value(Value::Int(i))) => Some(i.to_bigint()),
            _ => None,
        }
    }

    /// The atom `e` is, when it is an integer atom.
    fn int_atom(&mut self, e: &Expr) -> Option<AtomId> {
        match self.abs_expr(e) {
            Abs::Atom(a) if self.doms[a].int_bounds().is_some() => Some(a),
            _ => None,
        }
    }

    fn atom_bounds(&self, a: AtomId) -> (Option<BigInt>, Option<BigInt>) {
        match self.doms[a].int_bounds() {
            Some((lo, hi)) => (lo.map(|x| x.to_bigint()), hi.map(|x| x.to_bigint())),
            None => (None, None),
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
            Term::IntAtom(a) => self.atom_bounds(*a),
            Term::Product(x, y) => match (self.atom_bounds(*x), self.atom_bounds(*y)) {
                ((Some(a), Some(b)), (Some(c), Some(d))) => {
                    let corners = [&a * &c, &a * &d, &b * &c, &b * &d];
                    let lo = corners.iter().min().cloned();
                    let hi = corners.iter().max().cloned();
                    // A square is never negative.
                    let lo = if x == y {
                        lo.map(|l| l.max(BigInt::zero()))
                    } else {
                        lo
                    };
                    (lo, hi)
                }
                _ if x == y => (Some(BigInt::zero()), None),
                _ => (None, None),
            },
            Term::Is(a, v) => {
                if self.doms[*a].fixed() == Some(v) {
                    (Some(BigInt::one()), Some(BigInt::one()))
                } else if !self.doms[*a].contains(v) {
                    (Some(BigInt::zero()), Some(BigInt::zero()))
                } else {
                    (Some(BigInt::zero()), Some(BigInt::one()))
                }
            }
            Term::Element(a, table) => {
                let images = table
                    .iter()
                    .filter(|(k, _)| self.doms[*a].contains(k))
                    .filter_map(|(_, y)| y.as_int());
                (
                    images.clone().min().map(Int::to_bigint),
                    images.max().map(Int::to_bigint),
                )
            }
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
                Term::Is(a, v) => {
                    if hi.as_ref().is_some_and(|h| h < &BigInt::one()) {
                        // The atom must not have the value.
                        match self.doms[*a].retain(|x| x != v) {
                            Some(d) => self.set_dom(*a, d, changed),
                            None => true,
                        }
                    } else if lo.as_ref().is_some_and(|l| l > &BigInt::zero()) {
                        if self.doms[*a].fixed() == Some(v) {
                            true
                        } else if self.doms[*a].contains(v) {
                            self.set_dom(*a, Dom::finite(vec![v.clone()]), changed)
                        } else {
                            false
                        }
                    } else {
                        true
                    }
                }
                Term::Product(x, y) => self.narrow_factors(*x, *y, lo, hi, changed),
                Term::Element(a, table) => {
                    // The table lists the atom's candidates in order when it was built.
                    let fits = |k: &Value| match table.binary_search_by(|(key, _)| key.cmp(k)) {
                        Ok(i) => table[i].1.as_int().is_some_and(|y| {
                            let y = y.to_bigint();
                            lo.as_ref().is_none_or(|l| l <= &y)
                                && hi.as_ref().is_none_or(|h| &y <= h)
                        }),
                        Err(_) => false,
                    };
                    match self.doms[*a].retain(fits) {
                        Some(d) => self.set_dom(*a, d, changed),
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

    /// Narrows the factors of `x * y` to what a product within `lo..hi` allows; false on a wipe-out.
    fn narrow_factors(
        &mut self,
        x: AtomId,
        y: AtomId,
        lo: Option<BigInt>,
        hi: Option<BigInt>,
        changed: &mut Vec<AtomId>,
    ) -> bool {
        let (cur_lo, cur_hi) = self.term_bounds(&Term::Product(x, y));
        let lo = match (lo, cur_lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (hi, cur_hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let (Some(l), Some(h)) = (&lo, &hi)
            && l > h
        {
            return false;
        }
        if x == y {
            return self.narrow_square_root(x, lo, hi, changed);
        }
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return true;
        };
        for (factor, other) in [(x, y), (y, x)] {
            // factor = p / other over the box: extremes at the corners when `other` excludes 0; ceil and
            // floor are monotone, so the rounded corners bound the integer quotients.
            let (Some(a), Some(b)) = self.atom_bounds(other) else {
                continue;
            };
            if a <= BigInt::zero() && b >= BigInt::zero() {
                continue;
            }
            let corners = [(&lo, &a), (&lo, &b), (&hi, &a), (&hi, &b)];
            let new_lo = corners.iter().map(|(p, d)| ceil_div(p, d)).min();
            let new_hi = corners.iter().map(|(p, d)| p.div_floor(d)).max();
            let (new_lo, new_hi) = (new_lo.map(Int::from), new_hi.map(Int::from));
            let ok = match self.doms[factor].restrict_ints(new_lo.as_ref(), new_hi.as_ref()) {
                Some(d) => self.set_dom(factor, d, changed),
                None => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// `x * x` within `lo..hi`: `|x| <= isqrt(hi)`, and `|x| >= ceil(sqrt(lo))` on x's sign side.
    fn narrow_square_root(
        &mut self,
        x: AtomId,
        lo: Option<BigInt>,
        hi: Option<BigInt>,
        changed: &mut Vec<AtomId>,
    ) -> bool {
        let mut bounds: (Option<BigInt>, Option<BigInt>) = (None, None);
        if let Some(h) = &hi {
            if h.is_negative() {
                return false;
            }
            let r = h.sqrt();
            bounds = (Some(-r.clone()), Some(r));
        }
        if let Some(l) = lo.filter(|l| l.is_positive()) {
            let mut s = l.sqrt();
            if &s * &s < l {
                s += 1;
            }
            let (xlo, xhi) = self.atom_bounds(x);
            if xlo.as_ref().is_some_and(|v| v > &-s.clone()) {
                bounds.0 = Some(bounds.0.map_or(s.clone(), |b| b.max(s.clone())));
            } else if xhi.as_ref().is_some_and(|v| v < &s) {
                let neg = -s;
                bounds.1 = Some(bounds.1.map_or(neg.clone(), |b| b.min(neg)));
            }
        }
        let (new_lo, new_hi) = (bounds.0.map(Int::from), bounds.1.map(Int::from));
        match self.doms[x].restrict_ints(new_lo.as_ref(), new_hi.as_ref()) {
            Some(d) => self.set_dom(x, d, changed),
            None => true,
        }
    }
}

/// The ceiling of `p / d` (d nonzero).
fn ceil_div(p: &BigInt, d: &BigInt) -> BigInt {
    -((-p).div_floor(d))
}
