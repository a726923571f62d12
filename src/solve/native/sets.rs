//! Narrowing set constraints onto decomposed variables: `x : S`, `x /: S`, `S = T`, `S <: T` where one
//! side is a search variable decomposed into membership bits (or function images) and the other side's
//! bounds are known; and `x : S` for a scalar atom x, which restricts its candidates.

use super::abs::Abs;
use super::domain::Dom;
use super::model::{AtomId, Shape, VarId};
use super::search::Solver;
use crate::eval::{EvalError, SymbolicSet, Val};
use crate::ir::{BinaryOp, CompareOp, Expr, ExprKind};
use crate::value::{Value, set};

impl Solver<'_, '_> {
    /// `l op r` for op in `=`, `:`, `<:`; false on a wipe-out.
    pub(crate) fn narrow_sets(
        &mut self,
        op: CompareOp,
        l: &Expr,
        r: &Expr,
        changed: &mut Vec<AtomId>,
    ) -> Result<bool, EvalError> {
        match op {
            CompareOp::In => {
                // f : A --> B with f decomposed into images: every image lies in B.
                if let Some(var) = self.decomposed(l)
                    && let ExprKind::Binary(_, _, range) = &r.kind
                    && let Shape::Function { images, .. } = &self.model.vars[var].shape
                {
                    let images = images.clone();
                    let b = self.abs_expr(range);
                    for a in images {
                        if !self.restrict_to(a, &b, changed) {
                            return Ok(false);
                        }
                    }
                    return Ok(true);
                }
                if let Some(var) = self.decomposed(l)
                    && let Abs::Val(Val::Sym(sym)) = self.abs_expr(r)
                    && let SymbolicSet::Arrow(arrow, ..) = &*sym
                {
                    return Ok(self.narrow_functional(var, *arrow, changed));
                }
                let x = self.abs_expr(l);
                if let Some(v) = x.value().cloned()
                    && let Some(var) = self.decomposed(r)
                {
                    return Ok(self.force_member(var, &v, true, changed));
                }
                if let Abs::Atom(a) = x {
                    let s = self.abs_expr(r);
                    return Ok(self.restrict_to(a, &s, changed));
                }
                if matches!(&l.kind, ExprKind::Binary(crate::ir::BinaryOp::Maplet, ..)) {
                    return Ok(self.narrow_pattern(l, r, changed));
                }
                Ok(true)
            }
            CompareOp::Eq => {
                for (x, other) in [(l, r), (r, l)] {
                    if let Some(var) = self.decomposed(x) {
                        let o = self.abs_expr(other);
                        if let Some((lb, ub)) = self.set_bounds(&o) {
                            for v in &lb {
                                if !self.force_member(var, v, true, changed) {
                                    return Ok(false);
                                }
                            }
                            if let Some(ub) = ub
                                && !self.exclude_outside(var, &ub, changed)
                            {
                                return Ok(false);
                            }
                        }
                    }
                }
                // x = E with x a scalar atom and E's candidates known.
                for (x, other) in [(l, r), (r, l)] {
                    if let Abs::Atom(a) = self.abs_expr(x) {
                        let o = self.abs_expr(other);
                        if let Some(c) = self.candidates(&o) {
                            let keep = Abs::Val(Val::Value(Value::set_from_vec(c)));
                            if !self.restrict_to(a, &keep, changed) {
                                return Ok(false);
                            }
                        }
                    }
                }
                Ok(true)
            }
            CompareOp::Subset => {
                if let Some(var) = self.decomposed(l) {
                    let o = self.abs_expr(r);
                    if let Some((_, Some(ub))) = self.set_bounds(&o)
                        && !self.exclude_outside(var, &ub, changed)
                    {
                        return Ok(false);
                    }
                }
                if let Some(var) = self.decomposed(r) {
                    let o = self.abs_expr(l);
                    if let Some((lb, _)) = self.set_bounds(&o) {
                        for v in &lb {
                            if !self.force_member(var, v, true, changed) {
                                return Ok(false);
                            }
                        }
                    }
                }
                Ok(true)
            }
            _ => Ok(true),
        }
    }

    /// `(e1 |-> e2 |-> ...) : S` with S's members known: each unfixed atom among the pattern's leaves keeps
    /// the values it has in members of S that agree with the pattern's known leaves.
    fn narrow_pattern(&mut self, pattern: &Expr, r: &Expr, changed: &mut Vec<AtomId>) -> bool {
        let mut leaves = Vec::new();
        self.pattern_leaves(pattern, &mut Vec::new(), &mut leaves);
        if !leaves.iter().any(|(_, a)| matches!(a, Abs::Atom(_))) {
            return true;
        }
        if leaves
            .iter()
            .any(|(_, a)| !matches!(a, Abs::Atom(_) | Abs::Val(Val::Value(_))))
        {
            return true;
        }
        let s = self.abs_expr(r);
        let Some((_, Some(ub))) = self.set_bounds(&s) else {
            return true;
        };
        let matching: Vec<&Value> = ub
            .iter()
            .filter(|m| {
                leaves.iter().all(|(path, a)| match a {
                    Abs::Val(Val::Value(v)) => m.component(path).as_ref() == Some(v),
                    _ => true,
                })
            })
            .collect();
        for (path, a) in &leaves {
            if let Abs::Atom(atom) = a {
                let mut values: Vec<Value> =
                    matching.iter().filter_map(|m| m.component(path)).collect();
                values.sort();
                values.dedup();
                let keep = Abs::Val(Val::Value(Value::set_from_sorted(values)));
                if !self.restrict_to(*atom, &keep, changed) {
                    return false;
                }
            }
        }
        true
    }

    /// `r : A +-> B` (any function arrow) with r decomposed into membership bits over pairs: a pair known
    /// to be in r excludes the other pairs with its first component (and, for an injective arrow, with
    /// its second). Without this the search fixes every bit before the typing refutes a non-function:
    /// the partial functions from 1..4 to -1..4 were found among 2^24 bit vectors instead of 7^4.
    fn narrow_functional(
        &mut self,
        var: VarId,
        arrow: BinaryOp,
        changed: &mut Vec<AtomId>,
    ) -> bool {
        let Some(properties) = arrow.arrow_properties().filter(|p| p.functional) else {
            return true;
        };
        let injective = properties.injective;
        let Shape::Members { carrier, bits } = &self.model.vars[var].shape else {
            return true;
        };
        // The first (second) components of the pairs known to be members, sorted for lookup.
        let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
        for (p, b) in carrier.iter().zip(bits) {
            if self.doms[*b].fixed() == Some(&Value::Bool(true))
                && let Some((x, y)) = p.as_pair()
            {
                firsts.push(x);
                seconds.push(y);
            }
        }
        if firsts.is_empty() {
            return true;
        }
        firsts.sort();
        seconds.sort();
        let excluded: Vec<AtomId> = carrier
            .iter()
            .zip(bits)
            .filter(|(_, b)| self.doms[**b].fixed().is_none())
            .filter(|(p, _)| {
                p.as_pair().is_some_and(|(x, y)| {
                    firsts.binary_search(&x).is_ok()
                        || (injective && seconds.binary_search(&y).is_ok())
                })
            })
            .map(|(_, b)| *b)
            .collect();
        excluded
            .into_iter()
            .all(|b| self.fix(b, &Value::Bool(false), changed))
    }

    /// The leaves of a maplet tree with their paths (`false` = left) and abstractions.
    fn pattern_leaves(&mut self, e: &Expr, path: &mut Vec<bool>, out: &mut Vec<(Vec<bool>, Abs)>) {
        if let ExprKind::Binary(crate::ir::BinaryOp::Maplet, a, b) = &e.kind {
            path.push(false);
            self.pattern_leaves(a, path, out);
            path.pop();
            path.push(true);
            self.pattern_leaves(b, path, out);
            path.pop();
        } else {
            out.push((path.clone(), self.abs_expr(e)));
        }
    }

    /// `l /: r`.
    pub(crate) fn narrow_not_member(
        &mut self,
        l: &Expr,
        r: &Expr,
        changed: &mut Vec<AtomId>,
    ) -> Result<bool, EvalError> {
        let x = self.abs_expr(l);
        if let Some(v) = x.value().cloned()
            && let Some(var) = self.decomposed(r)
        {
            return Ok(self.force_member(var, &v, false, changed));
        }
        if let Abs::Atom(a) = x {
            let s = self.abs_expr(r);
            if let Some((lb, _)) = self.set_bounds(&s)
                && let Some(d) = self.doms[a].retain(|v| !set::contains(&lb, v))
            {
                return Ok(self.set_dom(a, d, changed));
            }
        }
        Ok(true)
    }

    /// The decomposed search variable an expression names, if any.
    fn decomposed(&self, e: &Expr) -> Option<VarId> {
        let ExprKind::Var(name) = &e.kind else {
            return None;
        };
        let v = self.var_of(name)?;
        match self.model.vars[v].shape {
            Shape::Scalar(_) => None,
            _ => Some(v),
        }
    }

    /// Makes `x` a member (or not) of decomposed variable `var`; false on a wipe-out.
    fn force_member(
        &mut self,
        var: VarId,
        x: &Value,
        member: bool,
        changed: &mut Vec<AtomId>,
    ) -> bool {
        match &self.model.vars[var].shape {
            Shape::Members { carrier, bits } => match carrier.binary_search(x) {
                Ok(i) => {
                    let b = bits[i];
                    self.fix(b, &Value::Bool(member), changed)
                }
                // Not in the carrier: never a member.
                Err(_) => !member,
            },
            Shape::Function { domain, images } => {
                let Some((a, y)) = x.as_pair() else {
                    return !member;
                };
                match domain.binary_search(a) {
                    Ok(i) => {
                        let at = images[i];
                        if member {
                            self.fix(at, y, changed)
                        } else {
                            match self.doms[at].retain(|v| v != y) {
                                Some(d) => self.set_dom(at, d, changed),
                                None => true,
                            }
                        }
                    }
                    Err(_) => !member,
                }
            }
            // (x |-> g) : f with f curried: g must be a total function on the inner domain, and each of
            // its images that of the cell; a non-member only excludes a whole row, which says nothing
            // about one cell.
            Shape::Curried {
                domain,
                inner,
                images,
            } => {
                if !member {
                    return true;
                }
                let Some((a, g)) = x.as_pair() else {
                    return false;
                };
                let Ok(i) = domain.binary_search(a) else {
                    return false;
                };
                let Value::Set(g) = g else {
                    return false;
                };
                if g.len() != inner.len() {
                    return false;
                }
                let mut cells = Vec::with_capacity(g.len());
                for (p, (y, a)) in g.iter().zip(inner.iter().zip(Shape::row(inner, images, i))) {
                    match p.as_pair() {
                        Some((py, z)) if py == y => cells.push((a, z.clone())),
                        _ => return false,
                    }
                }
                cells.iter().all(|(a, z)| self.fix(*a, z, changed))
            }
            Shape::Scalar(_) => true,
        }
    }

    /// Removes from decomposed variable `var` everything outside `ub`.
    fn exclude_outside(&mut self, var: VarId, ub: &[Value], changed: &mut Vec<AtomId>) -> bool {
        match &self.model.vars[var].shape {
            Shape::Members { carrier, bits } => {
                let pairs: Vec<(Value, AtomId)> = carrier
                    .iter()
                    .cloned()
                    .zip(bits.iter().copied())
                    .filter(|(x, _)| !set::contains(ub, x))
                    .collect();
                pairs
                    .iter()
                    .all(|(_, b)| self.fix(*b, &Value::Bool(false), changed))
            }
            Shape::Function { domain, images } => {
                let points: Vec<(Value, AtomId)> =
                    domain.iter().cloned().zip(images.iter().copied()).collect();
                for (x, at) in points {
                    let allowed = set::pairs_from(ub, &x);
                    let keep: Vec<Value> = allowed
                        .iter()
                        .filter_map(|p| p.as_pair().map(|(_, y)| y.clone()))
                        .collect();
                    let d = match &self.doms[at] {
                        Dom::Finite(_) => self.doms[at].retain(|v| keep.contains(v)),
                        Dom::Range(..) | Dom::Any => Some(Dom::finite(
                            keep.into_iter()
                                .filter(|v| self.doms[at].contains(v))
                                .collect(),
                        )),
                    };
                    if let Some(d) = d
                        && !self.set_dom(at, d, changed)
                    {
                        return false;
                    }
                }
                true
            }
            Shape::Curried { .. } | Shape::Scalar(_) => true,
        }
    }

    /// Restricts atom `a` to the members of set abstraction `s` (when they are known).
    fn restrict_to(&mut self, a: AtomId, s: &Abs, changed: &mut Vec<AtomId>) -> bool {
        if let Abs::Val(Val::Sym(sym)) = s
            && let crate::eval::SymbolicSet::Interval(lo, hi) = &**sym
        {
            return match self.doms[a].restrict_ints(lo.as_ref(), hi.as_ref()) {
                Some(d) => self.set_dom(a, d, changed),
                None => true,
            };
        }
        let Some((_, Some(ub))) = self.set_bounds(s) else {
            return true;
        };
        let d = match &self.doms[a] {
            Dom::Finite(_) => self.doms[a].retain(|v| set::contains(&ub, v)),
            Dom::Range(..) | Dom::Any => Some(Dom::finite(
                ub.iter()
                    .filter(|v| self.doms[a].contains(v))
                    .cloned()
                    .collect(),
            )),
        };
        match d {
            Some(d) => self.set_dom(a, d, changed),
            None => true,
        }
    }

    /// Fixes atom `a` to `v`; false when `v` is not a candidate.
    fn fix(&mut self, a: AtomId, v: &Value, changed: &mut Vec<AtomId>) -> bool {
        if self.doms[a].fixed() == Some(v) {
            return true;
        }
        if !self.doms[a].contains(v) {
            self.doms[a] = Dom::finite(Vec::new());
            changed.push(a);
            return false;
        }
        self.set_dom(a, Dom::finite(vec![v.clone()]), changed)
    }
}
