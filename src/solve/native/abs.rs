//! Abstract evaluation over the current domains: what can be said about an expression (its value, the
//! one atom it equals, an integer interval, lower and upper bounds of a set) and a predicate (true,
//! false, unknown) before every variable is fixed.
//!
//! Sub-terms whose search variables are all fixed are evaluated by the interpreter, so the abstraction
//! only has to cover the operators that carry information from partly known values. Any evaluation error
//! inside the abstraction is `Unknown`, never false: well-definedness is decided only on ground
//! constraints (in `propagate`), where the interpreter's L-system semantics apply.

use super::model::{AtomId, Shape, VarId};
use super::search::Solver;
use crate::eval::Val;
use crate::ir::{BinaryOp, CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, UnaryOp};
use crate::value::{Int, Value, set};

/// Names the operands of `abs_by_children` are bound to (not B identifiers, so they shadow nothing).
pub(crate) const OPERANDS: [&str; 2] = ["$operand0", "$operand1"];
/// The most points a quantifier is decided over on a partial assignment (`abs_quantifier`).
const MAX_QUANTIFIER_POINTS: usize = 256;

/// The image of each candidate of an element constraint's index atom (`Solver::element_table`).
pub(crate) type ElementTable = std::sync::Arc<Vec<(Value, Value)>>;

/// Three-valued truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tri {
    True,
    False,
    Unknown,
}

impl Tri {
    pub(crate) fn from(b: bool) -> Tri {
        if b { Tri::True } else { Tri::False }
    }
    pub(crate) fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Unknown => Tri::Unknown,
        }
    }
}

/// What is known of an expression's value.
#[derive(Clone, Debug)]
pub(crate) enum Abs {
    Val(Val),
    /// Exactly the value of this (unfixed) atom.
    Atom(AtomId),
    /// Some integer within the bounds (`None` = open).
    Ints(Option<Int>, Option<Int>),
    /// A finite set between `lb` and `ub` (sorted; `ub: None` = unknown).
    Set {
        lb: Vec<Value>,
        ub: Option<Vec<Value>>,
    },
    Unknown,
}

impl Abs {
    pub(crate) fn value(&self) -> Option<&Value> {
        match self {
            Abs::Val(Val::Value(v)) => Some(v),
            _ => None,
        }
    }
}

impl Solver<'_, '_> {
    /// The abstraction of `e` in the current constraint's scratch environment.
    pub(crate) fn abs_expr(&mut self, e: &Expr) -> Abs {
        // One lookup of the variables: fixed before the search (a cached constant), or fixed now.
        let vars = self.expr_vars(e);
        if self.binder_depth == 0 && vars.iter().all(|&v| self.root_fixed[v]) {
            return self.cached_constant(e);
        }
        if vars.iter().all(|&v| self.var_is_fixed(v)) {
            return match self.eval_val(e) {
                Ok(v) => Abs::Val(v),
                Err(_) => Abs::Unknown,
            };
        }
        match &e.kind {
            ExprKind::Var(name) => match self.var_of(name) {
                Some(v) => self.abs_var(v),
                None => Abs::Unknown,
            },
            ExprKind::Binary(BinaryOp::Apply, f, x) => self.abs_apply(f, x),
            ExprKind::Binary(BinaryOp::Concat, ..) => self.abs_concat(e),
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), a, b) => {
                let a = self.abs_expr(a);
                let b = self.abs_expr(b);
                self.arith(*op, &a, &b)
            }
            ExprKind::Unary(UnaryOp::Neg, a) => {
                let a = self.abs_expr(a);
                let zero = Abs::Val(Val::Value(Value::Int(Int::zero())));
                self.arith(BinaryOp::Sub, &zero, &a)
            }
            ExprKind::Unary(op @ (UnaryOp::Max | UnaryOp::Min), s)
                if let ExprKind::SetEnum(items) = &s.kind =>
            {
                self.extremum(*op == UnaryOp::Max, items)
            }
            ExprKind::Unary(UnaryOp::Card, s) => {
                let s = self.abs_expr(s);
                match self.set_bounds(&s) {
                    Some((lb, ub)) => Abs::Ints(
                        Some(Int::from(lb.len() as i64)),
                        ub.map(|u| Int::from(u.len() as i64)),
                    ),
                    None => Abs::Ints(Some(Int::zero()), None),
                }
            }
            ExprKind::Binary(
                op @ (BinaryOp::Union | BinaryOp::Inter | BinaryOp::SetMinus | BinaryOp::Image),
                a,
                b,
            ) => {
                let a = self.abs_expr(a);
                let b = self.abs_expr(b);
                if let Some(filtered) = self.filter_by_known_set(*op, &a, &b) {
                    return filtered;
                }
                let (Some((la, ua)), Some((lb, ub))) = (self.set_bounds(&a), self.set_bounds(&b))
                else {
                    return Abs::Unknown;
                };
                set_op(*op, la, ua, lb, ub)
            }
            // The domain of a decomposed total function is its known domain.
            ExprKind::Unary(UnaryOp::Dom, f)
                if let ExprKind::Var(name) = &f.kind
                    && let Some(v) = self.var_of(name)
                    && let Shape::Function { domain, .. } | Shape::Curried { domain, .. } =
                        &self.model.vars[v].shape =>
            {
                Abs::Val(Val::Value(Value::Set(domain.clone())))
            }
            ExprKind::Unary(op @ (UnaryOp::Dom | UnaryOp::Ran | UnaryOp::Inverse), a) => {
                let a = self.abs_expr(a);
                let Some((lb, ub)) = self.set_bounds(&a) else {
                    return Abs::Unknown;
                };
                let f = |s: &[Value]| match op {
                    UnaryOp::Dom => set::domain(s),
                    UnaryOp::Ran => set::range(s),
                    _ => {
                        let mut v: Vec<Value> = s
                            .iter()
                            .filter_map(|p| {
                                p.as_pair().map(|(a, b)| Value::pair(b.clone(), a.clone()))
                            })
                            .collect();
                        v.sort();
                        v
                    }
                };
                Abs::Set {
                    lb: f(&lb),
                    ub: ub.map(|u| f(&u)),
                }
            }
            ExprKind::SetEnum(items) => {
                let mut lb = Vec::new();
                let mut ub = Some(Vec::new());
                for it in items {
                    let a = self.abs_expr(it);
                    match (&a, self.candidates(&a)) {
                        (Abs::Val(Val::Value(v)), _) => {
                            lb.push(v.clone());
                            if let Some(u) = &mut ub {
                                u.push(v.clone());
                            }
                        }
                        (_, Some(c)) => {
                            if let Some(u) = &mut ub {
                                u.extend(c.iter().cloned());
                            }
                        }
                        _ => ub = None,
                    }
                }
                lb.sort();
                lb.dedup();
                if let Some(u) = &mut ub {
                    u.sort();
                    u.dedup();
                }
                Abs::Set { lb, ub }
            }
            ExprKind::Binary(BinaryOp::Interval, a, b) => {
                let a = self.abs_expr(a);
                let b = self.abs_expr(b);
                match (self.int_bounds(&a), self.int_bounds(&b)) {
                    (Some((Some(lo), _)), Some((_, Some(hi))))
                        if hi.sub(&lo).to_i64().is_some_and(|w| w < 4096) =>
                    {
                        let ub = match Value::interval(&lo, &hi) {
                            Value::Set(items) => (*items).clone(),
                            _ => Vec::new(),
                        };
                        Abs::Set {
                            lb: Vec::new(),
                            ub: Some(ub),
                        }
                    }
                    _ => Abs::Unknown,
                }
            }
            _ => self.abs_by_children(e),
        }
    }

    /// An operator whose operands are all known (though the variables they come from are not all fixed,
    /// e.g. `f(1) |-> f(2)` with f partly fixed): evaluated by the interpreter on the operand values.
    fn abs_by_children(&mut self, e: &Expr) -> Abs {
        if let ExprKind::Binary(BinaryOp::Maplet, a, b) = &e.kind {
            return match (self.abs_expr(a), self.abs_expr(b)) {
                (Abs::Val(Val::Value(x)), Abs::Val(Val::Value(y))) => {
                    Abs::Val(Val::Value(Value::pair(x, y)))
                }
                _ => Abs::Unknown,
            };
        }
        let names = self.operands.clone();
        let operand = |k: usize, of: &Expr| {
            Box::new(Expr::new(
                ExprKind::Var(names[k].clone()),
                of.ty.clone(),
                of.span,
            ))
        };
        let (synthetic, children): (ExprKind, Vec<&Expr>) = match &e.kind {
            ExprKind::Unary(op, a) => (ExprKind::Unary(*op, operand(0, a)), vec![&**a]),
            ExprKind::Binary(op, a, b) => (
                ExprKind::Binary(*op, operand(0, a), operand(1, b)),
                vec![&**a, &**b],
            ),
            ExprKind::Field(a, name) => (ExprKind::Field(operand(0, a), name.clone()), vec![&**a]),
            _ => return Abs::Unknown,
        };
        let mut values = Vec::with_capacity(children.len());
        for c in children {
            match self.abs_expr(c) {
                Abs::Val(v) => values.push(v),
                _ => return Abs::Unknown,
            }
        }
        let mark = self.scratch.len();
        for (k, v) in values.into_iter().enumerate() {
            self.scratch.bind_val(self.operands[k].clone(), v);
        }
        let result = self.eval_val(&Expr::new(synthetic, e.ty.clone(), e.span));
        self.scratch.truncate(mark);
        match result {
            Ok(v) => Abs::Val(v),
            Err(_) => Abs::Unknown,
        }
    }

    /// `s1 ^ s2 ^ ...` where every part has a known length (a sequence known now, or a decomposed
    /// function on exactly 1..n): the parts' bounds shifted to their positions. `dst = a ^ b ^ c ^ d` with
    /// four sequences of length 4 (CardTrick) then fails as soon as one image differs from dst's, instead
    /// of when all sixteen are chosen.
    fn abs_concat(&mut self, e: &Expr) -> Abs {
        let parts = e.concat_operands();
        let (mut lb, mut ub) = (Vec::new(), Vec::new());
        let mut offset = 0i64;
        for part in parts {
            let abs = self.abs_expr(part);
            let length = match &part.kind {
                ExprKind::Var(name)
                    if let Some(v) = self.var_of(name)
                        && let Shape::Function { domain, .. } = &self.model.vars[v].shape =>
                {
                    let is_prefix = domain
                        .iter()
                        .enumerate()
                        .all(|(i, x)| *x == Value::int(i as i64 + 1));
                    if !is_prefix {
                        return Abs::Unknown;
                    }
                    domain.len() as i64
                }
                _ => match abs.value().and_then(Value::as_sequence) {
                    Some(items) => items.len() as i64,
                    None => return Abs::Unknown,
                },
            };
            let Some((low, Some(high))) = self.set_bounds(&abs) else {
                return Abs::Unknown;
            };
            for (from, to) in [(low, &mut lb), (high, &mut ub)] {
                for p in from {
                    // Every element of a sequence's bounds is a pair `i |-> x`.
                    let Value::Pair(xy) = &p else {
                        return Abs::Unknown;
                    };
                    let Some(i) = (match &xy.0 {
                        Value::Int(i) => i.to_i64(),
                        _ => None,
                    }) else {
                        return Abs::Unknown;
                    };
                    to.push(Value::pair(Value::int(i + offset), xy.1.clone()));
                }
            }
            offset += length;
        }
        lb.sort();
        lb.dedup();
        ub.sort();
        ub.dedup();
        Abs::Set { lb, ub: Some(ub) }
    }

    fn abs_var(&mut self, v: VarId) -> Abs {
        match &self.model.vars[v].shape {
            Shape::Scalar(a) => match self.doms[*a].fixed() {
                Some(x) => Abs::Val(Val::Value(x.clone())),
                None => Abs::Atom(*a),
            },
            Shape::Members { carrier, bits } => {
                let mut lb = Vec::new();
                let mut ub = Vec::new();
                for (x, &b) in carrier.iter().zip(bits) {
                    match self.doms[b].fixed() {
                        Some(Value::Bool(true)) => {
                            lb.push(x.clone());
                            ub.push(x.clone());
                        }
                        Some(_) => {}
                        None => ub.push(x.clone()),
                    }
                }
                Abs::Set { lb, ub: Some(ub) }
            }
            Shape::Function { domain, images } => {
                let mut lb = Vec::new();
                let mut ub = Some(Vec::new());
                for (x, &a) in domain.iter().zip(images) {
                    match (self.doms[a].fixed(), self.doms[a].values()) {
                        (Some(y), _) => {
                            let p = Value::pair(x.clone(), y.clone());
                            lb.push(p.clone());
                            if let Some(u) = &mut ub {
                                u.push(p);
                            }
                        }
                        (None, Some(ys)) => {
                            if let Some(u) = &mut ub {
                                u.extend(ys.iter().map(|y| Value::pair(x.clone(), y.clone())));
                            }
                        }
                        (None, None) => ub = None,
                    }
                }
                Abs::Set { lb, ub }
            }
            // The rows already fixed are known members; the candidate rows are too many to list.
            Shape::Curried {
                domain,
                inner,
                images,
            } => {
                let lb = (0..domain.len())
                    .filter_map(|i| {
                        let row = self.row_value(inner, images, i)?;
                        Some(Value::pair(domain[i].clone(), row))
                    })
                    .collect();
                Abs::Set { lb, ub: None }
            }
        }
    }

    /// `f(x)(y)` with f a curried variable and x, y known: the one atom of that cell.
    fn abs_apply_curried(&mut self, f: &Expr, x: &Expr, y: &Expr) -> Abs {
        let ExprKind::Var(name) = &f.kind else {
            return Abs::Unknown;
        };
        let Some(v) = self.var_of(name) else {
            return Abs::Unknown;
        };
        let model = self.model;
        let Shape::Curried {
            domain,
            inner,
            images,
        } = &model.vars[v].shape
        else {
            return Abs::Unknown;
        };
        let (px, py) = (self.abs_expr(x), self.abs_expr(y));
        let (Some(px), Some(py)) = (px.value(), py.value()) else {
            return Abs::Unknown;
        };
        match (domain.binary_search(px), inner.binary_search(py)) {
            (Ok(i), Ok(j)) => {
                let a = images[i * inner.len() + j];
                match self.doms[a].fixed() {
                    Some(z) => Abs::Val(Val::Value(z.clone())),
                    None => Abs::Atom(a),
                }
            }
            _ => Abs::Unknown,
        }
    }

    fn abs_apply(&mut self, f: &Expr, x: &Expr) -> Abs {
        if let ExprKind::Binary(BinaryOp::Apply, g, gx) = &f.kind {
            return self.abs_apply_curried(g, gx, x);
        }
        // A known function (a state variable, a fixed unknown) applied to a point the search decides.
        if let Some(pairs) = self.known_function(f) {
            return match self.abs_expr(x) {
                Abs::Val(Val::Value(k)) => match set::pairs_from(&pairs, &k) {
                    [p] => p
                        .as_pair()
                        .map_or(Abs::Unknown, |(_, y)| Abs::Val(Val::Value(y.clone()))),
                    _ => Abs::Unknown,
                },
                Abs::Atom(a) => self.element_abs(&pairs, a),
                _ => Abs::Unknown,
            };
        }
        let ExprKind::Var(name) = &f.kind else {
            return Abs::Unknown;
        };
        let Some(v) = self.var_of(name) else {
            return Abs::Unknown;
        };
        let model = self.model;
        let point = self.abs_expr(x);
        let Some(p) = point.value() else {
            return Abs::Unknown;
        };
        let (domain, images) = match &model.vars[v].shape {
            Shape::Function { domain, images } => (domain, images),
            // f(x) of a curried f: the function of row x, bounded by its cells' candidates.
            Shape::Curried {
                domain,
                inner,
                images,
            } => {
                let Ok(i) = domain.binary_search(p) else {
                    return Abs::Unknown;
                };
                let mut lb = Vec::new();
                let mut ub = Some(Vec::new());
                for (y, a) in inner.iter().zip(Shape::row(inner, images, i)) {
                    match (self.doms[a].fixed(), self.doms[a].values()) {
                        (Some(z), _) => {
                            let p = Value::pair(y.clone(), z.clone());
                            lb.push(p.clone());
                            if let Some(u) = &mut ub {
                                u.push(p);
                            }
                        }
                        (None, Some(zs)) => {
                            if let Some(u) = &mut ub {
                                u.extend(zs.iter().map(|z| Value::pair(y.clone(), z.clone())));
                            }
                        }
                        (None, None) => ub = None,
                    }
                }
                if ub.as_ref().is_some_and(|u| u.len() == lb.len()) {
                    return Abs::Val(Val::Value(Value::set_from_sorted(lb)));
                }
                return Abs::Set { lb, ub };
            }
            _ => return Abs::Unknown,
        };
        match domain.binary_search(p) {
            Ok(i) => match self.doms[images[i]].fixed() {
                Some(y) => Abs::Val(Val::Value(y.clone())),
                None => Abs::Atom(images[i]),
            },
            Err(_) => Abs::Unknown,
        }
    }

    /// The value of `f` when it is fixed and a finite set (of pairs, for a function).
    pub(crate) fn known_function(&mut self, f: &Expr) -> Option<std::sync::Arc<Vec<Value>>> {
        if !self.expr_is_fixed(f) {
            return None;
        }
        match self.abs_expr(f) {
            Abs::Val(Val::Value(Value::Set(pairs))) => Some(pairs),
            _ => None,
        }
    }

    /// `F(x)` with F a known function (`pairs`) and x an atom whose every candidate is in dom(F): the
    /// image of each candidate — the element constraint of CLP(FD). `a(p(i)) <= a(p(i+1))` with `a`
    /// known is then bounded by the images of p(i)'s candidates, and `linear` narrows p(i) to the
    /// candidates whose image fits (`Term::Element`): sorting by permutation propagates along the
    /// chain instead of discovering each misplaced element only once the permutation is complete.
    pub(crate) fn element_table(&self, pairs: &[Value], a: AtomId) -> Option<ElementTable> {
        let candidates = self.doms[a].values()?;
        let mut table = Vec::with_capacity(candidates.len());
        element_images(pairs, candidates, |k, y| table.push((k.clone(), y.clone())))?;
        Some(std::sync::Arc::new(table))
    }

    /// What `F(x)` is known to be (`element_table`, without building the table: this is asked at
    /// every node): the one image all candidates share, or the bounds of integer images.
    fn element_abs(&self, pairs: &[Value], a: AtomId) -> Abs {
        let Some(candidates) = self.doms[a].values() else {
            return Abs::Unknown;
        };
        let mut first: Option<&Value> = None;
        let mut same = true;
        let mut bounds: Option<(&Int, &Int)> = None;
        let mut ints = true;
        let all = element_images(pairs, candidates, |_, y| {
            same &= first.is_none_or(|f| f == y);
            first.get_or_insert(y);
            match y.as_int() {
                Some(i) => bounds = Some(bounds.map_or((i, i), |(lo, hi)| (lo.min(i), hi.max(i)))),
                None => ints = false,
            }
        });
        if all.is_none() {
            return Abs::Unknown;
        }
        match (first, bounds) {
            (Some(y), _) if same => Abs::Val(Val::Value(y.clone())),
            (_, Some((lo, hi))) if ints => Abs::Ints(Some(lo.clone()), Some(hi.clone())),
            _ => Abs::Unknown,
        }
    }

    /// `max({a, b, ..})` (or `min`) of integer items lies between the extremes of the items' bounds, and
    /// is exact once their bounds meet: `s = t + max({x, y})` then fixes `s` by bounds propagation (a
    /// dynamic-programming recurrence solved row by row) instead of labelling it from the integer cut.
    fn extremum(&mut self, max: bool, items: &[Expr]) -> Abs {
        let mut bounds = Vec::with_capacity(items.len());
        for item in items {
            let a = self.abs_expr(item);
            match self.int_bounds(&a) {
                Some(b) => bounds.push(b),
                None => return Abs::Unknown,
            }
        }
        if bounds.is_empty() {
            return Abs::Unknown;
        }
        // An open end is -inf for a lower bound and +inf for an upper one.
        let lows = bounds.iter().map(|(lo, _)| lo.clone());
        let highs = bounds.iter().map(|(_, hi)| hi.clone());
        let (lo, hi) = if max {
            (
                lows.flatten().max(),
                highs
                    .collect::<Option<Vec<_>>>()
                    .and_then(|h| h.into_iter().max()),
            )
        } else {
            (
                lows.collect::<Option<Vec<_>>>()
                    .and_then(|l| l.into_iter().min()),
                highs.flatten().min(),
            )
        };
        match (lo, hi) {
            (Some(lo), Some(hi)) if lo == hi => Abs::Val(Val::Value(Value::Int(lo))),
            (lo, hi) => Abs::Ints(lo, hi),
        }
    }

    fn arith(&mut self, op: BinaryOp, a: &Abs, b: &Abs) -> Abs {
        match self.arith_bounds(op, a, b) {
            Abs::Ints(Some(lo), Some(hi)) if lo == hi => Abs::Val(Val::Value(Value::Int(lo))),
            other => other,
        }
    }

    fn arith_bounds(&mut self, op: BinaryOp, a: &Abs, b: &Abs) -> Abs {
        let (Some((al, ah)), Some((bl, bh))) = (self.int_bounds(a), self.int_bounds(b)) else {
            return Abs::Unknown;
        };
        match op {
            BinaryOp::Add => Abs::Ints(add(&al, &bl), add(&ah, &bh)),
            BinaryOp::Sub => Abs::Ints(sub(&al, &bh), sub(&ah, &bl)),
            _ => match (al, ah, bl, bh) {
                (Some(al), Some(ah), Some(bl), Some(bh)) => {
                    let products = [al.mul(&bl), al.mul(&bh), ah.mul(&bl), ah.mul(&bh)];
                    let lo = products.iter().min().cloned();
                    let hi = products.iter().max().cloned();
                    Abs::Ints(lo, hi)
                }
                _ => Abs::Unknown,
            },
        }
    }

    /// Integer bounds of an abstraction.
    pub(crate) fn int_bounds(&self, a: &Abs) -> Option<(Option<Int>, Option<Int>)> {
        match a {
            Abs::Val(Val::Value(Value::Int(i))) => Some((Some(i.clone()), Some(i.clone()))),
            Abs::Atom(at) => self.doms[*at].int_bounds(),
            Abs::Ints(lo, hi) => Some((lo.clone(), hi.clone())),
            _ => None,
        }
    }

    /// Lower and upper bounds of a set abstraction (`ub: None` when unknown).
    pub(crate) fn set_bounds(&self, a: &Abs) -> Option<(Vec<Value>, Option<Vec<Value>>)> {
        match a {
            Abs::Val(Val::Value(Value::Set(items))) => {
                Some(((**items).clone(), Some((**items).clone())))
            }
            Abs::Val(v @ Val::Sym(_)) => {
                if self.ctx.is_infinite(v) {
                    None
                } else {
                    self.ctx
                        .materialize(v, crate::diag::Span::default())
                        .ok()
                        .map(|s| ((*s).clone(), Some((*s).clone())))
                }
            }
            Abs::Set { lb, ub } => Some((lb.clone(), ub.clone())),
            _ => None,
        }
    }

    /// `a[S]`, `a /\ S`, `S /\ a` or `a - S` for a set S known but not enumerable (`r[NATURAL1]`,
    /// `x /\ INTEGER`) and bounds of `a`: the bounds filtered by membership in S. None for other cases
    /// (or when a membership fails to evaluate).
    fn filter_by_known_set(&self, op: BinaryOp, a: &Abs, b: &Abs) -> Option<Abs> {
        if op == BinaryOp::Union {
            return None;
        }
        let enumerable =
            |x: &Abs| !matches!(x, Abs::Val(Val::Sym(_))) || self.set_bounds(x).is_some();
        let (bounded, known, keep) = match (op, a, b) {
            (BinaryOp::Inter, Abs::Val(s @ Val::Sym(_)), other) if !enumerable(a) => {
                (other, s, true)
            }
            (_, other, Abs::Val(s @ Val::Sym(_))) if !enumerable(b) => {
                (other, s, op != BinaryOp::SetMinus)
            }
            _ => return None,
        };
        let (lb, ub) = self.set_bounds(bounded)?;
        let span = crate::diag::Span::default();
        let filter = |items: &[Value]| -> Option<Vec<Value>> {
            let mut out = Vec::new();
            for item in items {
                let (point, image) = match op {
                    BinaryOp::Image => item.as_pair()?,
                    _ => (item, item),
                };
                if self.ctx.contains(known, point, span).ok()? == keep {
                    out.push(image.clone());
                }
            }
            out.sort();
            out.dedup();
            Some(out)
        };
        Some(Abs::Set {
            lb: filter(&lb)?,
            ub: match &ub {
                Some(ub) => Some(filter(ub)?),
                None => None,
            },
        })
    }

    /// The possible values of a scalar abstraction, when finitely many are known.
    pub(crate) fn candidates(&self, a: &Abs) -> Option<Vec<Value>> {
        match a {
            Abs::Val(Val::Value(v)) => Some(vec![v.clone()]),
            Abs::Atom(at) => self.doms[*at].values().map(|v| (**v).clone()),
            _ => None,
        }
    }

    /// Three-valued truth of `p` under the current domains.
    pub(crate) fn abs_pred(&mut self, p: &Pred) -> Tri {
        let vars = self.pred_vars(p);
        if self.binder_depth == 0 && vars.iter().all(|&v| self.root_fixed[v]) {
            return self.cached_truth(p);
        }
        if vars.iter().all(|&v| self.var_is_fixed(v)) {
            return match self.eval_truth(p) {
                Ok(b) => Tri::from(b),
                Err(_) => Tri::Unknown,
            };
        }
        match &p.kind {
            PredKind::True => Tri::True,
            PredKind::False => Tri::False,
            PredKind::And(ps) => {
                let mut out = Tri::True;
                for q in ps {
                    match self.abs_pred(q) {
                        Tri::False => return Tri::False,
                        Tri::Unknown => out = Tri::Unknown,
                        Tri::True => {}
                    }
                }
                out
            }
            PredKind::Or(ps) => {
                let mut out = Tri::False;
                for q in ps {
                    match self.abs_pred(q) {
                        Tri::True => return Tri::True,
                        Tri::Unknown => out = Tri::Unknown,
                        Tri::False => {}
                    }
                }
                out
            }
            PredKind::Not(q) => self.abs_pred(q).not(),
            PredKind::Implies(a, b) => match self.abs_pred(a) {
                Tri::False => Tri::True,
                Tri::True => self.abs_pred(b),
                Tri::Unknown => {
                    if self.abs_pred(b) == Tri::True {
                        Tri::True
                    } else {
                        Tri::Unknown
                    }
                }
            },
            PredKind::Equiv(a, b) => match (self.abs_pred(a), self.abs_pred(b)) {
                (Tri::Unknown, _) | (_, Tri::Unknown) => Tri::Unknown,
                (x, y) => Tri::from(x == y),
            },
            PredKind::Compare(op, a, b) => {
                let a = self.abs_expr(a);
                let b = self.abs_expr(b);
                self.compare(*op, &a, &b)
            }
            PredKind::Exists(xs, body) => self.abs_quantifier(xs, body, None),
            PredKind::Forall(xs, body) => match &body.kind {
                PredKind::Implies(guard, q) => self.abs_quantifier(xs, guard, Some(q)),
                _ => Tri::Unknown,
            },
            _ => Tri::Unknown,
        }
    }

    /// `#xs.(P)` (`then` None) or `!xs.(P => Q)` over the points of P's conjuncts that mention no unknown
    /// (`linear::binder_points`, at most `MAX_QUANTIFIER_POINTS`): the disjunction of P's other conjuncts
    /// at each point, or the conjunction of their implication of Q. Decides `#j.(j : 1..11 & f(i) = 2**j)`
    /// as soon as f(i) is fixed, before f's other images are.
    fn abs_quantifier(&mut self, xs: &[TypedName], guard: &Pred, then: Option<&Pred>) -> Tri {
        let Some(points) = self.binder_points(xs, guard) else {
            return Tri::Unknown;
        };
        if points.0.len() > MAX_QUANTIFIER_POINTS {
            return Tri::Unknown;
        }
        let conjuncts = guard.conjuncts();
        let dependent: Vec<&Pred> = points.1.iter().map(|&i| conjuncts[i]).collect();
        let universal = then.is_some();
        let mark = self.scratch.len();
        self.binder_depth += 1;
        let mut out = Tri::from(universal);
        for point in points.0.iter() {
            for (x, v) in xs.iter().zip(point) {
                self.scratch.bind(x.name.clone(), v.clone());
            }
            let mut holds = Tri::True;
            for q in &dependent {
                match self.abs_pred(q) {
                    Tri::False => {
                        holds = Tri::False;
                        break;
                    }
                    Tri::Unknown => holds = Tri::Unknown,
                    Tri::True => {}
                }
            }
            let instance = match (then, holds) {
                (None, t) => t,
                (Some(_), Tri::False) => Tri::True,
                (Some(q), Tri::True) => self.abs_pred(q),
                (Some(q), Tri::Unknown) => match self.abs_pred(q) {
                    Tri::True => Tri::True,
                    _ => Tri::Unknown,
                },
            };
            self.scratch.truncate(mark);
            match (universal, instance) {
                (false, Tri::True) => {
                    out = Tri::True;
                    break;
                }
                (true, Tri::False) => {
                    out = Tri::False;
                    break;
                }
                (_, Tri::Unknown) => out = Tri::Unknown,
                _ => {}
            }
        }
        self.binder_depth -= 1;
        out
    }

    fn compare(&mut self, op: CompareOp, a: &Abs, b: &Abs) -> Tri {
        if let (Abs::Val(x), Abs::Val(y)) = (a, b) {
            let span = crate::diag::Span::default();
            let r = match op {
                CompareOp::Eq => self.ctx.vals_equal(x, y, span),
                CompareOp::NotEq => self.ctx.vals_equal(x, y, span).map(|b| !b),
                CompareOp::In => match x {
                    Val::Value(v) => self.ctx.contains(y, v, span),
                    Val::Sym(_) => return Tri::Unknown,
                },
                CompareOp::Subset => self.ctx.is_subset(x, y, span),
                CompareOp::StrictSubset => self
                    .ctx
                    .is_subset(x, y, span)
                    .and_then(|s| Ok(s && !self.ctx.vals_equal(x, y, span)?)),
                CompareOp::Lt | CompareOp::Le => match (x, y) {
                    (Val::Value(Value::Int(i)), Val::Value(Value::Int(j))) => {
                        Ok(if op == CompareOp::Lt { i < j } else { i <= j })
                    }
                    _ => return Tri::Unknown,
                },
            };
            return r.map_or(Tri::Unknown, Tri::from);
        }
        match op {
            CompareOp::Eq => self.equal(a, b),
            CompareOp::NotEq => self.equal(a, b).not(),
            CompareOp::Lt | CompareOp::Le => {
                let (Some((al, ah)), Some((bl, bh))) = (self.int_bounds(a), self.int_bounds(b))
                else {
                    return Tri::Unknown;
                };
                let strict = op == CompareOp::Lt;
                // a < b is certainly true when ah < bl, certainly false when al >= bh.
                let holds = |x: &Option<Int>, y: &Option<Int>| match (x, y) {
                    (Some(x), Some(y)) => Some(if strict { x < y } else { x <= y }),
                    _ => None,
                };
                if holds(&ah, &bl) == Some(true) {
                    Tri::True
                } else if holds(&al, &bh) == Some(false) {
                    Tri::False
                } else {
                    Tri::Unknown
                }
            }
            CompareOp::In => self.member(a, b),
            CompareOp::Subset | CompareOp::StrictSubset => {
                let (Some((la, ua)), Some((lb, ub))) = (self.set_bounds(a), self.set_bounds(b))
                else {
                    return Tri::Unknown;
                };
                if let Some(ub) = &ub
                    && !set::is_subset(&la, ub)
                {
                    return Tri::False;
                }
                if op == CompareOp::Subset
                    && let Some(ua) = &ua
                    && set::is_subset(ua, &lb)
                {
                    return Tri::True;
                }
                Tri::Unknown
            }
        }
    }

    fn equal(&mut self, a: &Abs, b: &Abs) -> Tri {
        if let (Some((al, ah)), Some((bl, bh))) = (self.int_bounds(a), self.int_bounds(b)) {
            let below =
                |h: &Option<Int>, l: &Option<Int>| matches!((h, l), (Some(h), Some(l)) if h < l);
            if below(&ah, &bl) || below(&bh, &al) {
                return Tri::False;
            }
            if al.is_some() && al == ah && al == bl && bl == bh {
                return Tri::True;
            }
        }
        if let (Some(ca), Some(cb)) = (self.candidates(a), self.candidates(b))
            && !ca.iter().any(|x| set::contains(&cb, x))
        {
            return Tri::False;
        }
        if let (Some((la, ua)), Some((lb, ub))) = (self.set_bounds(a), self.set_bounds(b)) {
            let escapes = |l: &[Value], u: &Option<Vec<Value>>| {
                u.as_ref().is_some_and(|u| !set::is_subset(l, u))
            };
            if escapes(&la, &ub) || escapes(&lb, &ua) {
                return Tri::False;
            }
        }
        Tri::Unknown
    }

    fn member(&mut self, x: &Abs, s: &Abs) -> Tri {
        if let Some(v) = x.value()
            && let Some((lb, ub)) = self.set_bounds(s)
        {
            if set::contains(&lb, v) {
                return Tri::True;
            }
            if let Some(ub) = ub
                && !set::contains(&ub, v)
            {
                return Tri::False;
            }
            return Tri::Unknown;
        }
        if let Abs::Val(set_val) = s
            && let Some(cands) = self.candidates(x)
        {
            let span = crate::diag::Span::default();
            let mut any_in = false;
            let mut any_out = false;
            for c in &cands {
                match self.ctx.contains(set_val, c, span) {
                    Ok(true) => any_in = true,
                    Ok(false) => any_out = true,
                    Err(_) => return Tri::Unknown,
                }
            }
            return match (any_in, any_out) {
                (true, false) => Tri::True,
                (false, _) => Tri::False,
                _ => Tri::Unknown,
            };
        }
        if let Abs::Val(set_val) = s
            && let Some((lo, hi)) = self.int_bounds(x)
            && let Val::Sym(sym) = set_val
            && let crate::eval::SymbolicSet::Interval(sl, sh) = &**sym
        {
            let inside = sl
                .as_ref()
                .is_none_or(|l| lo.as_ref().is_some_and(|lo| l <= lo))
                && sh
                    .as_ref()
                    .is_none_or(|h| hi.as_ref().is_some_and(|hi| hi <= h));
            let outside = matches!((sl, &hi), (Some(l), Some(hi)) if hi < l)
                || matches!((sh, &lo), (Some(h), Some(lo)) if lo > h);
            if inside {
                return Tri::True;
            }
            if outside {
                return Tri::False;
            }
        }
        Tri::Unknown
    }
}

/// Calls `each` with every candidate and its one image in the function `pairs` (both sorted: each
/// candidate's pairs are searched after the previous one's); None when a candidate has no image or
/// several.
fn element_images<'v>(
    pairs: &'v [Value],
    candidates: &'v [Value],
    mut each: impl FnMut(&'v Value, &'v Value),
) -> Option<()> {
    let mut i = 0;
    for k in candidates {
        i += pairs[i..].partition_point(|p| p.as_pair().is_some_and(|(x, _)| x < k));
        let (x, y) = pairs.get(i)?.as_pair()?;
        if x != k
            || pairs
                .get(i + 1)
                .is_some_and(|p| p.as_pair().is_some_and(|(z, _)| z == k))
        {
            return None;
        }
        each(k, y);
    }
    Some(())
}

fn add(a: &Option<Int>, b: &Option<Int>) -> Option<Int> {
    Some(a.as_ref()?.add(b.as_ref()?))
}

fn sub(a: &Option<Int>, b: &Option<Int>) -> Option<Int> {
    Some(a.as_ref()?.sub(b.as_ref()?))
}

/// Bounds of `A op B` from the bounds of A and B (all these operators are monotone in A; in B too except
/// `-`, which is antitone in B).
fn set_op(
    op: BinaryOp,
    la: Vec<Value>,
    ua: Option<Vec<Value>>,
    lb: Vec<Value>,
    ub: Option<Vec<Value>>,
) -> Abs {
    let both = |f: fn(&[Value], &[Value]) -> Vec<Value>,
                x: &Option<Vec<Value>>,
                y: &Option<Vec<Value>>| match (x, y) {
        (Some(x), Some(y)) => Some(f(x, y)),
        _ => None,
    };
    match op {
        BinaryOp::Union => Abs::Set {
            lb: set::union(&la, &lb),
            ub: both(set::union, &ua, &ub),
        },
        BinaryOp::Inter => Abs::Set {
            lb: set::intersection(&la, &lb),
            ub: match (&ua, &ub) {
                (Some(x), Some(y)) => Some(set::intersection(x, y)),
                (Some(x), None) | (None, Some(x)) => Some(x.clone()),
                (None, None) => None,
            },
        },
        BinaryOp::SetMinus => Abs::Set {
            lb: match &ub {
                Some(ub) => set::difference(&la, ub),
                None => Vec::new(),
            },
            ub: ua.map(|ua| set::difference(&ua, &lb)),
        },
        _ => {
            // Image r[S]: pairs of r whose first component is in S.
            let image = |r: &[Value], s: &[Value]| {
                let mut out: Vec<Value> = r
                    .iter()
                    .filter_map(|p| p.as_pair())
                    .filter(|(a, _)| set::contains(s, a))
                    .map(|(_, b)| b.clone())
                    .collect();
                out.sort();
                out.dedup();
                out
            };
            Abs::Set {
                lb: image(&la, &lb),
                ub: match (&ua, &ub) {
                    (Some(r), Some(s)) => Some(image(r, s)),
                    (Some(r), None) => Some(set::range(r)),
                    _ => None,
                },
            }
        }
    }
}
