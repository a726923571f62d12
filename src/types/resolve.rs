//! Constraints that wait for a type to be known, their defaults, and the final pass that writes resolved
//! types into the IR (turning `Sub`/`Mul` on sets into `SetMinus`/`Product`).

use super::Type;
use super::infer::Checker;
use super::lower::{snippet, tuple_index};
use super::tla_value;
use crate::diag::{Diagnostic, Result, Span};
use crate::ir::{
    AssignTarget, BinaryOp, Expr, ExprKind, Pred, PredKind, Subst, SubstKind, TypedName, UnaryOp,
};
use crate::syntax::ast::Name;
use std::sync::Arc;

pub(super) enum Pending {
    /// `left * right`: integers, or sets giving the cartesian product (default: integers).
    Mul {
        left: Type,
        right: Type,
        result: Type,
        span: Span,
    },
    /// `record'field` has type `ty`.
    Field {
        record: Type,
        field: Name,
        ty: Type,
        span: Span,
    },
    /// `ty` is STRING or a sequence (default: a sequence).
    StringOrSeq { ty: Type, span: Span },
    /// A TLA+ tuple `<<a, b>>` of type `ty` is a pair `first * second` (as the elements of `S \X T`) or a
    /// sequence (a 2-element `<<...>>` used with Append, Len, `\o`...), as its uses say; when they do not
    /// (default), a pair if its components' types differ, a sequence otherwise.
    PairOrSeq {
        ty: Type,
        first: Type,
        second: Type,
        span: Span,
    },
    /// `tuple[1]` / `tuple[2]` (`index` is `true` for 1) has type `result`: a component of a pair, or a
    /// function application (default).
    Index {
        tuple: Type,
        index: bool,
        result: Type,
        span: Span,
    },
}

impl Checker {
    /// Records a pending constraint, applying it at once when possible.
    pub(super) fn defer(&mut self, p: Pending) -> Result<()> {
        if let Some(p) = self.try_apply(p, false)? {
            self.pending.push(p);
        }
        Ok(())
    }

    /// Applies the pending constraints that can be decided; with `last`, applies the defaults to the others.
    pub(super) fn settle(&mut self, last: bool) -> Result<()> {
        loop {
            let before = self.pending.len();
            let pending = std::mem::take(&mut self.pending);
            for p in pending {
                if let Some(p) = self.try_apply(p, false)? {
                    self.pending.push(p);
                }
            }
            if self.pending.len() == before || self.pending.is_empty() {
                break;
            }
        }
        if last {
            // Defaults may unblock each other, so apply them one at a time and retry the rest. A tuple's
            // default first: it decides how the `t[1]` / `t[2]` waiting on it read.
            while !self.pending.is_empty() {
                let first = self
                    .pending
                    .iter()
                    .position(|p| matches!(p, Pending::PairOrSeq { .. }))
                    .unwrap_or(0);
                let p = self.pending.remove(first);
                if let Some(p) = self.try_apply(p, true)? {
                    self.pending.push(p);
                }
                self.settle(false)?;
            }
        }
        Ok(())
    }

    /// Applies `p` if its types allow (or `default`), otherwise gives it back.
    fn try_apply(&mut self, p: Pending, default: bool) -> Result<Option<Pending>> {
        match p {
            Pending::Mul {
                left,
                right,
                result,
                span,
            } => {
                let shapes = [&left, &right, &result].map(|t| self.u.shallow(t));
                let is_int = shapes.contains(&Type::Integer);
                let is_set = shapes.iter().any(|t| matches!(t, Type::Set(_)));
                let decided = is_int
                    || is_set
                    || default
                    || shapes.iter().any(|t| !matches!(t, Type::Var(_)));
                if !decided {
                    return Ok(Some(Pending::Mul {
                        left,
                        right,
                        result,
                        span,
                    }));
                }
                if is_set {
                    let (x, y) = (self.u.fresh(), self.u.fresh());
                    self.expect(&Type::set(x.clone()), &left, span)?;
                    self.expect(&Type::set(y.clone()), &right, span)?;
                    self.expect(&Type::relation(x, y), &result, span)?;
                } else {
                    for t in [&left, &right, &result] {
                        self.expect(&Type::Integer, t, span)?;
                    }
                }
                Ok(None)
            }
            Pending::Field {
                record,
                field,
                ty,
                span,
            } => match self.u.shallow(&record) {
                Type::Struct(fields) => match fields.iter().find(|(n, _)| *n == field) {
                    Some((_, t)) => {
                        self.expect(t, &ty, span)?;
                        Ok(None)
                    }
                    None => Err(Diagnostic::type_error(
                        span,
                        format!(
                            "record type {} has no field `{field}` in `{}`",
                            self.u.resolve(&record),
                            snippet(span)
                        ),
                    )),
                },
                // A TLA+ value of mixed kind (records with different fields met): the field is found
                // by name at run time, its type from its uses; where they leave it open (default), from a
                // record type that gave the field a type of the same shape.
                Type::TlaValue if !default => Ok(Some(Pending::Field {
                    record,
                    field,
                    ty,
                    span,
                })),
                Type::TlaValue => {
                    if !self.u.is_ground(&ty) {
                        let known = self.u.resolve(&ty);
                        let given = self.field_types.get(&field).and_then(|ts| {
                            ts.iter()
                                .find(|t| !shapes_differ(&self.u.resolve(t), &known))
                                .cloned()
                        });
                        if let Some(t) = given {
                            self.expect(&t, &ty, span)?;
                        }
                    }
                    Ok(None)
                }
                Type::Var(_) if !default => Ok(Some(Pending::Field {
                    record,
                    field,
                    ty,
                    span,
                })),
                Type::Var(_) => Err(Diagnostic::type_error(
                    span,
                    format!("could not infer the record type in `{}`", snippet(span)),
                )),
                other => Err(Diagnostic::type_error(
                    span,
                    format!(
                        "type mismatch: expected a record, found {} in `{}`",
                        self.u.resolve(&other),
                        snippet(span)
                    ),
                )),
            },
            Pending::PairOrSeq {
                ty,
                first,
                second,
                span,
            } => {
                let is_pair = match self.u.shallow(&ty) {
                    Type::Set(_) | Type::TlaValue => false,
                    Type::Var(_) => {
                        if !default {
                            return Ok(Some(Pending::PairOrSeq {
                                ty,
                                first,
                                second,
                                span,
                            }));
                        }
                        shapes_differ(&self.u.resolve(&first), &self.u.resolve(&second))
                    }
                    _ => true,
                };
                if is_pair {
                    self.expect(&Type::pair(first, second), &ty, span)?;
                } else {
                    let elem = self.u.fresh();
                    self.expect(&Type::seq(elem.clone()), &ty, span)?;
                    self.expect(&elem, &first, span)?;
                    self.expect(&elem, &second, span)?;
                }
                Ok(None)
            }
            Pending::Index {
                tuple,
                index,
                result,
                span,
            } => match self.u.shallow(&tuple) {
                Type::Pair(a, b) => {
                    let component = if index { *a } else { *b };
                    self.expect(&component, &result, span)?;
                    Ok(None)
                }
                Type::Var(_) if !default => Ok(Some(Pending::Index {
                    tuple,
                    index,
                    result,
                    span,
                })),
                _ => {
                    self.expect(&Type::relation(Type::Integer, result), &tuple, span)?;
                    Ok(None)
                }
            },
            Pending::StringOrSeq { ty, span } => match self.u.shallow(&ty) {
                Type::String => Ok(None),
                Type::Var(_) if !default => Ok(Some(Pending::StringOrSeq { ty, span })),
                _ => {
                    let elem = self.u.fresh();
                    self.expect(&Type::seq(elem), &ty, span)?;
                    Ok(None)
                }
            },
        }
    }

    /// The final type of an IR node: resolved, with leftover variables (in anonymous subterms such as
    /// `card({})`) defaulted to INTEGER.
    fn final_type(&self, t: &Type) -> Type {
        fn default_vars(t: Type) -> Type {
            match t {
                Type::Var(_) => Type::Integer,
                Type::Set(e) => Type::set(default_vars(*e)),
                Type::Pair(a, b) => Type::pair(default_vars(*a), default_vars(*b)),
                Type::Struct(fs) => {
                    Type::Struct(fs.into_iter().map(|(n, t)| (n, default_vars(t))).collect())
                }
                t => t,
            }
        }
        default_vars(self.u.resolve(t))
    }

    pub(super) fn finish_name(&self, n: &mut TypedName) {
        n.ty = self.final_type(&n.ty);
    }

    fn finish_names(&self, ns: &mut [TypedName]) {
        ns.iter_mut().for_each(|n| self.finish_name(n));
    }

    fn finish_bindings(&self, bs: &mut [(TypedName, Expr)]) {
        for (n, e) in bs {
            self.finish_name(n);
            self.finish_expr(e);
        }
    }

    pub(super) fn finish_expr(&self, e: &mut Expr) {
        e.ty = self.final_type(&e.ty);
        let is_set = matches!(e.ty, Type::Set(_));
        match &mut e.kind {
            ExprKind::Var(_)
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::Const(_) => {}
            ExprKind::Unary(_, a) | ExprKind::Field(a, _) => self.finish_expr(a),
            ExprKind::Binary(BinaryOp::Apply, f, index)
                if let Some(op) = self.pair_component(f, index) =>
            {
                self.finish_expr(f);
                let f = std::mem::replace(
                    f.as_mut(),
                    Expr::new(ExprKind::Bool(false), Type::Bool, e.span),
                );
                e.kind = ExprKind::Unary(op, Box::new(f));
            }
            ExprKind::SeqEnum(xs) if matches!(e.ty, Type::Pair(..)) => {
                xs.iter_mut().for_each(|x| self.finish_expr(x));
                let b = xs.pop().expect("a pair-typed tuple has two items");
                let a = xs.pop().expect("a pair-typed tuple has two items");
                e.kind = ExprKind::Binary(BinaryOp::Maplet, Box::new(a), Box::new(b));
            }
            ExprKind::Binary(op, a, b) => {
                if is_set {
                    match op {
                        BinaryOp::Sub => *op = BinaryOp::SetMinus,
                        BinaryOp::Mul => *op = BinaryOp::Product,
                        _ => {}
                    }
                }
                self.finish_expr(a);
                self.finish_expr(b);
            }
            ExprKind::SetEnum(xs) | ExprKind::SeqEnum(xs) => {
                xs.iter_mut().for_each(|x| self.finish_expr(x))
            }
            // Fresh from lowering, not yet shared: make_mut does not copy.
            ExprKind::Comprehension(ns, p) => {
                self.finish_names(Arc::make_mut(ns).as_mut_slice());
                self.finish_pred(Arc::make_mut(p));
            }
            ExprKind::Binder(_, ns, p, body) => {
                self.finish_names(Arc::make_mut(ns).as_mut_slice());
                self.finish_pred(Arc::make_mut(p));
                self.finish_expr(Arc::make_mut(body));
            }
            ExprKind::Record(fs) | ExprKind::Struct(fs) => {
                fs.iter_mut().for_each(|(_, x)| self.finish_expr(x))
            }
            ExprKind::BoolOf(p) => self.finish_pred(p),
            ExprKind::If(c, a, b) => {
                self.finish_pred(c);
                self.finish_expr(a);
                self.finish_expr(b);
            }
            ExprKind::Let(bs, body) => {
                self.finish_bindings(bs);
                self.finish_expr(body);
            }
        }
    }

    /// The projection `f(index)` stands for when it selects a component of a TLA+ pair
    /// (`Pending::Index` found `f` to be a pair).
    fn pair_component(&self, f: &Expr, index: &Expr) -> Option<UnaryOp> {
        if !matches!(self.final_type(&f.ty), Type::Pair(..)) {
            return None;
        }
        tuple_index(index).map(|first| {
            if first {
                UnaryOp::PairFirst
            } else {
                UnaryOp::PairSecond
            }
        })
    }

    pub(super) fn finish_pred(&self, p: &mut Pred) {
        match &mut p.kind {
            PredKind::True | PredKind::False => {}
            PredKind::And(ps) | PredKind::Or(ps) => ps.iter_mut().for_each(|p| self.finish_pred(p)),
            PredKind::Implies(a, b) | PredKind::Equiv(a, b) => {
                self.finish_pred(a);
                self.finish_pred(b);
            }
            PredKind::Not(a) => self.finish_pred(a),
            PredKind::Forall(ns, body) | PredKind::Exists(ns, body) => {
                self.finish_names(ns);
                self.finish_pred(body);
            }
            PredKind::Compare(_, a, b) => {
                self.finish_expr(a);
                self.finish_expr(b);
            }
            PredKind::If(c, a, b) => {
                self.finish_pred(c);
                self.finish_pred(a);
                self.finish_pred(b);
            }
            PredKind::Let(bs, body) => {
                self.finish_bindings(bs);
                self.finish_pred(body);
            }
        }
    }

    fn finish_target(&self, t: &mut AssignTarget) {
        match t {
            AssignTarget::Var(n) => self.finish_name(n),
            AssignTarget::Apply(f, arg) => {
                self.finish_target(f);
                self.finish_expr(arg);
            }
            AssignTarget::Field(r, _) => self.finish_target(r),
        }
    }

    fn finish_branches(&self, bs: &mut [(Pred, Subst)], els: &mut Option<Box<Subst>>) {
        for (c, s) in bs {
            self.finish_pred(c);
            self.finish_subst(s);
        }
        if let Some(s) = els {
            self.finish_subst(s);
        }
    }

    pub(super) fn finish_subst(&self, s: &mut Subst) {
        match &mut s.kind {
            SubstKind::Skip => {}
            SubstKind::Assign(pairs) => {
                for (t, e) in pairs {
                    self.finish_target(t);
                    self.finish_expr(e);
                }
            }
            SubstKind::BecomesElementOf(ns, e) => {
                self.finish_names(ns);
                self.finish_expr(e);
            }
            SubstKind::BecomesSuchThat(ns, p) => {
                self.finish_names(ns);
                self.finish_pred(p);
            }
            SubstKind::OpCall(outs, _, args) => {
                self.finish_names(outs);
                args.iter_mut().for_each(|a| self.finish_expr(a));
            }
            SubstKind::Parallel(ss) | SubstKind::Sequence(ss) | SubstKind::Choice(ss) => {
                ss.iter_mut().for_each(|s| self.finish_subst(s))
            }
            SubstKind::Any(ns, p, body) => {
                self.finish_names(ns);
                self.finish_pred(p);
                self.finish_subst(body);
            }
            SubstKind::Let(bs, body) => {
                self.finish_bindings(bs);
                self.finish_subst(body);
            }
            SubstKind::Var(ns, body) => {
                self.finish_names(ns);
                self.finish_subst(body);
            }
            SubstKind::Pre(p, body) | SubstKind::Assert(p, body) => {
                self.finish_pred(p);
                self.finish_subst(body);
            }
            SubstKind::If(bs, els) | SubstKind::Select(bs, els) => self.finish_branches(bs, els),
            SubstKind::Case(e, bs, els) => {
                self.finish_expr(e);
                for (vs, s) in bs {
                    vs.iter_mut().for_each(|v| self.finish_expr(v));
                    self.finish_subst(s);
                }
                if let Some(s) = els {
                    self.finish_subst(s);
                }
            }
            SubstKind::While {
                cond,
                body,
                invariant,
                variant,
            } => {
                self.finish_pred(cond);
                self.finish_subst(body);
                self.finish_pred(invariant);
                self.finish_expr(variant);
            }
        }
    }
}

/// Two types that no one type unifies with, told apart by their known parts (an integer and a string, a
/// set of integers and a set of pairs ...): the components of a tuple that no sequence holds without
/// mixing kinds. Unknown parts are compatible with anything; a TLA+ value with any scalar or record.
fn shapes_differ(a: &Type, b: &Type) -> bool {
    use Type::*;
    match (a, b) {
        (Var(_), _) | (_, Var(_)) => false,
        (TlaValue, x) | (x, TlaValue) => matches!(x, Set(_) | Pair(..)),
        (Set(x), Set(y)) => shapes_differ(x, y),
        (Pair(a1, b1), Pair(a2, b2)) => shapes_differ(a1, a2) || shapes_differ(b1, b2),
        (Struct(f1), Struct(f2)) => {
            tla_value::fields_differ(f1, f2)
                || f1
                    .iter()
                    .zip(f2)
                    .any(|((_, t1), (_, t2))| shapes_differ(t1, t2))
        }
        _ => a != b,
    }
}
