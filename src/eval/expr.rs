//! Evaluation of expressions.

use super::symbolic::{SymbolicSet, bind_point, destructure, is_type_set};
use super::symbolic_range::range_or_inverse;
use super::{
    Context, Env, EvalError, Val, internal_error, limit_error, relations, sequences, wd_error,
};
use crate::diag::Span;
use crate::ir::{
    BinaryOp, BinderKind, CompareOp, Expr, ExprConst, ExprKind, Pred, PredKind, TypedName, UnaryOp,
};
use crate::types::{Type, external};
use crate::value::{Int, Value, set};
use std::sync::Arc;

/// Intervals up to this size are built eagerly; bigger ones stay symbolic until needed. Small: a typing
/// interval such as the `0..100` of `marks : CANDIDATE +-> 0..100` is only asked for membership, and
/// listing it in every state checked cost the model checker a tenth of its time (B/SchneiderBook/
/// Chapter12/Exam.mch).
const EAGER_INTERVAL: usize = 16;

/// Exponents beyond this (with a base other than -1, 0, 1) are refused as too large.
const MAX_EXPONENT: u32 = 1 << 20;

fn sym(s: SymbolicSet) -> Val {
    Val::Sym(Arc::new(s))
}

fn value(v: Value) -> Val {
    Val::Value(v)
}

fn set_val(items: Vec<Value>) -> Val {
    Val::Value(Value::set_from_sorted(items))
}

impl Context {
    /// Evaluates an expression to a value (a WD error, or a limit error if the result is an infinite set).
    pub fn eval_expr(&self, e: &Expr, env: &Env) -> Result<Value, EvalError> {
        let mut env = env.clone();
        self.eval_value(e, &mut env)
    }

    /// Evaluates an expression that may denote a symbolic set.
    pub fn eval_symbolic(&self, e: &Expr, env: &Env) -> Result<Val, EvalError> {
        let mut env = env.clone();
        self.eval(e, &mut env)
    }

    pub(crate) fn eval_value(&self, e: &Expr, env: &mut Env) -> Result<Value, EvalError> {
        let v = self.eval(e, env)?;
        self.to_value(v, e.span)
    }

    pub(crate) fn eval_int(&self, e: &Expr, env: &mut Env) -> Result<Int, EvalError> {
        match self.eval(e, env)? {
            Val::Value(Value::Int(i)) => Ok(i),
            // Only a TLA+ value of mixed kind (`Type::TlaValue`) can be a string or model value here:
            // arithmetic on it is undefined in that state, an honest error rather than a wrong value.
            Val::Value(v @ (Value::Str(_) | Value::Elem(_))) => Err(super::wd_error(
                e.span,
                format!("{v} is not an integer (a TLA+ value of another kind)"),
            )),
            _ => Err(internal_error(e.span, "expected an integer")),
        }
    }

    /// The elements of a set-valued expression (materialised).
    fn eval_items(&self, e: &Expr, env: &mut Env) -> Result<Arc<Vec<Value>>, EvalError> {
        let v = self.eval(e, env)?;
        self.materialize(&v, e.span)
    }

    pub(crate) fn eval(&self, e: &Expr, env: &mut Env) -> Result<Val, EvalError> {
        let span = e.span;
        super::check_stack(span)?;
        Ok(match &e.kind {
            ExprKind::Var(name) => match env.get(name).or_else(|| self.global(name)) {
                Some(v) if let Some(error) = super::unassigned::read_error(v, span, name) => {
                    return Err(error);
                }
                Some(v) => v.clone(),
                None => return Err(internal_error(span, format!("{name} has no value"))),
            },
            ExprKind::Int(i) => value(Value::Int(Int::from(i))),
            ExprKind::Bool(b) => value(Value::Bool(*b)),
            ExprKind::Str(s) => value(Value::Str(s.as_str().into())),
            ExprKind::Const(c) => self.eval_const(*c),
            ExprKind::Unary(op, a) => self.eval_unary(*op, a, e, env)?,
            ExprKind::Binary(op, a, b) => self.eval_binary(*op, a, b, e, env)?,
            ExprKind::SetEnum(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.eval_value(x, env)?);
                }
                value(Value::set_from_vec(out))
            }
            ExprKind::SeqEnum(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.eval_value(x, env)?);
                }
                value(Value::sequence(out))
            }
            ExprKind::Comprehension(vars, pred) => sym(SymbolicSet::Comprehension {
                vars: vars.clone(),
                pred: pred.clone(),
                env: env.clone(),
            }),
            ExprKind::Binder(kind, vars, pred, body) => {
                self.eval_binder(*kind, vars, pred, body, span, env)?
            }
            ExprKind::Record(fields) => {
                let mut out = Vec::with_capacity(fields.len());
                for (n, x) in fields {
                    out.push((n.clone(), self.eval_value(x, env)?));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                value(Value::Record(Arc::new(out)))
            }
            ExprKind::Struct(fields) => {
                let mut out = Vec::with_capacity(fields.len());
                for (n, x) in fields {
                    out.push((n.clone(), self.eval(x, env)?));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                sym(SymbolicSet::Struct(out))
            }
            ExprKind::Field(r, name) => match self.eval_value(r, env)? {
                // Only a TLA+ value of mixed kind (`Type::TlaValue`) can lack the field or be no record:
                // the access is undefined in that state, as TLC reports it.
                Value::Record(fields) => match fields.iter().find(|(n, _)| n == name) {
                    Some((_, v)) => value(v.clone()),
                    None => {
                        return Err(super::wd_error(
                            span,
                            format!("the record has no field `{name}`"),
                        ));
                    }
                },
                v => {
                    return Err(super::wd_error(
                        span,
                        format!("{v} is not a record (a TLA+ value of another kind)"),
                    ));
                }
            },
            ExprKind::BoolOf(p) => value(Value::Bool(self.eval_pred_in(p, env)?)),
            ExprKind::If(c, a, b) => {
                if self.eval_pred_in(c, env)? {
                    self.eval(a, env)?
                } else {
                    self.eval(b, env)?
                }
            }
            ExprKind::Let(binds, body) => {
                let mark = env.len();
                for (v, x) in binds {
                    let val = self.eval(x, env)?;
                    env.bind_val(v.name.clone(), val);
                }
                let r = self.eval(body, env);
                env.truncate(mark);
                r?
            }
        })
    }

    fn eval_const(&self, c: ExprConst) -> Val {
        let maxint = Int::from(&self.settings().maxint);
        let minint = Int::from(&self.settings().minint);
        match c {
            ExprConst::Integer => sym(SymbolicSet::Interval(None, None)),
            ExprConst::Natural => sym(SymbolicSet::Interval(Some(Int::zero()), None)),
            ExprConst::Natural1 => sym(SymbolicSet::Interval(Some(Int::Small(1)), None)),
            ExprConst::Int => interval(minint, maxint),
            ExprConst::Nat => interval(Int::zero(), maxint),
            ExprConst::Nat1 => interval(Int::Small(1), maxint),
            ExprConst::BoolSet => set_val(vec![Value::Bool(false), Value::Bool(true)]),
            ExprConst::StringSet => sym(SymbolicSet::Strings),
            ExprConst::MaxInt => value(Value::Int(maxint)),
            ExprConst::MinInt => value(Value::Int(minint)),
        }
    }

    fn eval_unary(&self, op: UnaryOp, a: &Expr, e: &Expr, env: &mut Env) -> Result<Val, EvalError> {
        let span = e.span;
        match op {
            UnaryOp::Neg | UnaryOp::Succ | UnaryOp::Pred => {
                let i = self.eval_int(a, env)?;
                return Ok(value(Value::Int(match op {
                    UnaryOp::Neg => i.neg(),
                    UnaryOp::Succ => i.succ(),
                    _ => i.pred(),
                })));
            }
            UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1 => {
                let base = self.eval(a, env)?;
                return Ok(sym(SymbolicSet::PowerSet {
                    base,
                    non_empty: matches!(op, UnaryOp::Pow1 | UnaryOp::Fin1),
                }));
            }
            UnaryOp::Seq | UnaryOp::Seq1 | UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm => {
                let base = self.eval(a, env)?;
                return Ok(sym(SymbolicSet::Sequences(op, base)));
            }
            UnaryOp::Card => {
                // card(r || s) = card(r) * card(s): ((x, y), (z, w)) pairs up (x, z) : r with (y, w) : s.
                if let ExprKind::Binary(BinaryOp::ParallelProduct, r, t) = &a.kind {
                    let r = self.eval(r, env)?;
                    let t = self.eval(t, env)?;
                    let n = self.card(&r, span)?.mul(&self.card(&t, span)?);
                    return Ok(value(Value::Int(n)));
                }
                let s = self.eval(a, env)?;
                return Ok(value(Value::Int(self.card(&s, span)?)));
            }
            UnaryOp::Max | UnaryOp::Min => {
                let s = self.eval(a, env)?;
                if matches!(s, Val::Sym(_))
                    && let Some(range) = self.integer_range(&s)
                {
                    let bound = if op == UnaryOp::Max {
                        &range.hi
                    } else {
                        &range.lo
                    };
                    return match bound {
                        _ if range.is_empty() => Err(wd_error(span, "max/min of the empty set")),
                        Some(b) => Ok(value(Value::Int(b.clone()))),
                        None => Err(wd_error(span, "max/min of an unbounded set")),
                    };
                }
                if self.is_infinite(&s) {
                    if let Some(bound) = self.extreme_of_difference(&s, op == UnaryOp::Max, span)? {
                        return Ok(value(Value::Int(bound)));
                    }
                    return Err(wd_error(span, "max/min of an infinite set"));
                }
                let items = self.materialize(&s, span)?;
                let pick = if op == UnaryOp::Max {
                    items.last()
                } else {
                    items.first()
                };
                return pick
                    .cloned()
                    .map(value)
                    .ok_or_else(|| wd_error(span, "max/min of the empty set"));
            }
            UnaryOp::Id => {
                let s = self.eval(a, env)?;
                return Ok(match &s {
                    Val::Value(Value::Set(items)) => set_val(
                        items
                            .iter()
                            .map(|x| Value::pair(x.clone(), x.clone()))
                            .collect(),
                    ),
                    _ => sym(SymbolicSet::Identity(s)),
                });
            }
            UnaryOp::Dom | UnaryOp::Ran | UnaryOp::Inverse => {
                let r = self.eval(a, env)?;
                if let Some(result) = self.relation_of_sets(op, &r) {
                    return Ok(result);
                }
                if op == UnaryOp::Ran || op == UnaryOp::Inverse {
                    let pairs = match self.materialize(&r, span) {
                        Ok(pairs) => pairs,
                        // A relation that cannot be listed (a lambda over NATURAL): its range and
                        // inverse stay symbolic, for membership tests and images of finite sets.
                        Err(e @ EvalError::Limit(_)) if !e.is_timeout() => {
                            return range_or_inverse(op, &r, span).ok_or(e);
                        }
                        Err(e) => return Err(e),
                    };
                    return Ok(set_val(if op == UnaryOp::Ran {
                        set::range(&pairs)
                    } else {
                        relations::inverse(&pairs, span)?
                    }));
                }
                if let Val::Sym(s) = &r
                    && let SymbolicSet::Lambda {
                        vars, pred, env, ..
                    } = &**s
                {
                    return Ok(sym(SymbolicSet::Comprehension {
                        vars: vars.clone(),
                        pred: pred.clone(),
                        env: env.clone(),
                    }));
                }
                return match self.materialize(&r, span) {
                    Ok(pairs) => Ok(set_val(set::domain(&pairs))),
                    Err(e @ EvalError::Limit(_)) if !e.is_timeout() => match &r {
                        Val::Sym(s)
                            if let SymbolicSet::Comprehension { vars, pred, env } = &**s =>
                        {
                            self.comprehension_domain(vars, pred, env).ok_or(e)
                        }
                        _ => Err(e),
                    },
                    Err(e) => Err(e),
                };
            }
            UnaryOp::Closure => {
                let r = self.eval_items(a, env)?;
                let closure1 =
                    relations::transitive_closure(&r, span, || self.check_deadline(span))?;
                let elem = match &e.ty {
                    Type::Set(p) => match &**p {
                        Type::Pair(t, _) => (**t).clone(),
                        _ => return Err(internal_error(span, "closure of a non-relation")),
                    },
                    _ => return Err(internal_error(span, "closure of a non-relation")),
                };
                let ident = self.identity_of_type(&elem, span)?;
                return Ok(match ident {
                    Val::Value(Value::Set(id)) => set_val(set::union(&id, &closure1)),
                    other => sym(SymbolicSet::Union(other, set_val(closure1))),
                });
            }
            _ => {}
        }
        let v = self.eval_value(a, env)?;
        let items = || {
            v.as_set()
                .ok_or_else(|| internal_error(span, format!("{op:?} of a non-set")))
        };
        Ok(match op {
            UnaryOp::GenUnion => {
                let mut all = Vec::new();
                for s in items()? {
                    all.extend(
                        s.as_set()
                            .ok_or_else(|| internal_error(span, "union of non-sets"))?
                            .iter()
                            .cloned(),
                    );
                }
                value(Value::set_from_vec(all))
            }
            UnaryOp::GenInter => {
                let sets = items()?;
                let Some(first) = sets.first() else {
                    return Err(wd_error(span, "inter of the empty set"));
                };
                let mut acc = first
                    .as_set()
                    .ok_or_else(|| internal_error(span, "inter of non-sets"))?
                    .to_vec();
                for s in &sets[1..] {
                    acc = set::intersection(
                        &acc,
                        s.as_set()
                            .ok_or_else(|| internal_error(span, "inter of non-sets"))?,
                    );
                }
                set_val(acc)
            }
            UnaryOp::Closure1 => set_val(relations::transitive_closure(items()?, span, || {
                self.check_deadline(span)
            })?),
            UnaryOp::Fnc => set_val(relations::fnc(items()?)),
            UnaryOp::Rel => set_val(relations::rel(items()?, span)?),
            UnaryOp::PairFirst | UnaryOp::PairSecond => {
                let (x, y) = v
                    .as_pair()
                    .ok_or_else(|| internal_error(span, "projection of a non-pair"))?;
                value(if op == UnaryOp::PairFirst {
                    x.clone()
                } else {
                    y.clone()
                })
            }
            _ => value(sequences::unary(op, &v, span)?),
        })
    }

    /// `id(T)` for a type T (symbolic when T is infinite).
    fn identity_of_type(&self, ty: &Type, span: Span) -> Result<Val, EvalError> {
        Ok(match self.type_set(ty, span)? {
            Val::Value(Value::Set(items)) => set_val(
                items
                    .iter()
                    .map(|x| Value::pair(x.clone(), x.clone()))
                    .collect(),
            ),
            other => sym(SymbolicSet::Identity(other)),
        })
    }

    fn eval_binary(
        &self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        e: &Expr,
        env: &mut Env,
    ) -> Result<Val, EvalError> {
        let span = e.span;
        match op {
            BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::Mul
            | BinaryOp::Div
            | BinaryOp::Mod
            | BinaryOp::Power => {
                let x = self.eval_int(a, env)?;
                let y = self.eval_int(b, env)?;
                return Ok(value(Value::Int(arith(op, &x, &y, span)?)));
            }
            BinaryOp::Interval => {
                let lo = self.eval_int(a, env)?;
                let hi = self.eval_int(b, env)?;
                return Ok(interval(lo, hi));
            }
            BinaryOp::Maplet => {
                let x = self.eval_value(a, env)?;
                let y = self.eval_value(b, env)?;
                return Ok(value(Value::pair(x, y)));
            }
            arrow if arrow.is_arrow() => {
                let x = self.eval(a, env)?;
                let y = self.eval(b, env)?;
                return Ok(sym(SymbolicSet::Arrow(op, x, y)));
            }
            BinaryOp::Union | BinaryOp::Inter | BinaryOp::SetMinus | BinaryOp::Product => {
                let x = self.eval(a, env)?;
                let y = self.eval(b, env)?;
                return self.set_operation(op, x, y, span);
            }
            BinaryOp::Apply => {
                if let ExprKind::Binary(proj @ (BinaryOp::Prj1 | BinaryOp::Prj2), s, t) = &a.kind {
                    return self.apply_projection(*proj, s, t, b, env);
                }
                if let ExprKind::Var(f) = &a.kind
                    && let Some(name) = external::external_of_var(f)
                {
                    return self.apply_external(name, b, span, env);
                }
                if let ExprKind::SetEnum(items) = &a.kind
                    && let Some(pairs) = items
                        .iter()
                        .map(|item| match &item.kind {
                            ExprKind::Binary(BinaryOp::Maplet, k, v) => Some((&**k, &**v)),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()
                {
                    return self.apply_listed_function(&pairs, b, span, env);
                }
                if let ExprKind::Binder(BinderKind::Lambda, vars, pred, body) = &a.kind {
                    return self.apply_lambda(vars, pred, body, b, span, env);
                }
                let (x, mut image) = if let ExprKind::Binary(BinaryOp::Composition, f, g) = &a.kind
                {
                    // `(f ; g)(x)` is the one member of `g[f[{x}]]`: followed point by point,
                    // without building the composition (f or g may be a lambda kept symbolic).
                    let (f, g) = (self.eval(f, env)?, self.eval(g, env)?);
                    let x = self.eval_value(b, env)?;
                    let mut image = Vec::new();
                    for y in self.point_image(&f, &x, span)? {
                        image.extend(self.point_image(&g, &y, span)?);
                    }
                    image.sort_unstable();
                    image.dedup();
                    (x, image)
                } else {
                    let f = self.eval(a, env)?;
                    let x = self.eval_value(b, env)?;
                    let image = self.point_image(&f, &x, span)?;
                    (x, image)
                };
                return match image.len() {
                    1 => Ok(value(image.pop().expect("one element"))),
                    0 => Err(wd_error(
                        span,
                        format!("function applied outside its domain (to {x})"),
                    )),
                    _ => Err(wd_error(
                        span,
                        format!("applied relation is not a function at {x}"),
                    )),
                };
            }
            BinaryOp::Image => {
                if let ExprKind::Unary(UnaryOp::Closure1, base) = &a.kind {
                    let r = self.eval(base, env)?;
                    let s = self.eval(b, env)?;
                    if let (Val::Sym(_), Val::Value(Value::Set(points))) = (&r, &s) {
                        return Ok(value(self.closure1_image(&r, points, span)?));
                    }
                }
                let r = self.eval(a, env)?;
                let s = self.eval(b, env)?;
                // The image point by point: always for listed points, and for points kept symbolic
                // (`1..20` is an interval) when the relation is too (`fib[1..20]`, fib a lambda).
                let points = match &s {
                    Val::Value(Value::Set(points)) => Some(points.clone()),
                    Val::Sym(_) if matches!(r, Val::Sym(_)) && !self.is_infinite(&s) => {
                        Some(self.materialize(&s, b.span)?)
                    }
                    _ => None,
                };
                if let Some(points) = points {
                    let mut out = Vec::new();
                    for x in points.iter() {
                        out.extend(self.point_image(&r, x, span)?);
                    }
                    return Ok(value(Value::set_from_vec(out)));
                }
                let pairs = self.materialize(&r, span)?;
                let kept =
                    relations::filter_pairs(&pairs, true, span, |x| self.contains(&s, x, span))?;
                return Ok(value(Value::set_from_vec(
                    kept.iter()
                        .filter_map(|p| p.as_pair().map(|(_, y)| y.clone()))
                        .collect(),
                )));
            }
            BinaryOp::DomRestrict | BinaryOp::DomSubtract => {
                let s = self.eval(a, env)?;
                let r = self.eval(b, env)?;
                let keep = op == BinaryOp::DomRestrict;
                if keep && let (Val::Value(Value::Set(points)), Val::Sym(_)) = (&s, &r) {
                    let mut out = Vec::new();
                    for x in points.iter() {
                        for y in self.point_image(&r, x, span)? {
                            out.push(Value::pair(x.clone(), y));
                        }
                    }
                    return Ok(value(Value::set_from_vec(out)));
                }
                let pairs = self.materialize(&r, span)?;
                return Ok(set_val(relations::filter_pairs(&pairs, true, span, |x| {
                    Ok(self.contains(&s, x, span)? == keep)
                })?));
            }
            BinaryOp::RanRestrict | BinaryOp::RanSubtract => {
                let r = self.eval_items(a, env)?;
                let s = self.eval(b, env)?;
                let keep = op == BinaryOp::RanRestrict;
                return Ok(set_val(relations::filter_pairs(&r, false, span, |y| {
                    Ok(self.contains(&s, y, span)? == keep)
                })?));
            }
            BinaryOp::Composition => {
                let r1 = self.eval_items(a, env)?;
                let r2 = self.eval(b, env)?;
                let mut out = Vec::new();
                for p in r1.iter() {
                    let (x, y) = p
                        .as_pair()
                        .ok_or_else(|| internal_error(span, "composition of a non-relation"))?;
                    for z in self.point_image(&r2, y, span)? {
                        out.push(Value::pair(x.clone(), z));
                    }
                }
                return Ok(value(Value::set_from_vec(out)));
            }
            BinaryOp::Prj1 | BinaryOp::Prj2 => {
                let s = self.eval_items(a, env)?;
                let t = self.eval_items(b, env)?;
                let limit = self.settings().enumeration_limit;
                if s.len().saturating_mul(t.len()) > limit {
                    return Err(limit_error(span, "projection too large to enumerate"));
                }
                let mut out = Vec::with_capacity(s.len() * t.len());
                for x in s.iter() {
                    for y in t.iter() {
                        let r = if op == BinaryOp::Prj1 {
                            x.clone()
                        } else {
                            y.clone()
                        };
                        out.push(Value::pair(Value::pair(x.clone(), y.clone()), r));
                    }
                }
                return Ok(set_val(out));
            }
            BinaryOp::Iterate => {
                let r = self.eval_items(a, env)?;
                let n = self.eval_int(b, env)?;
                if n.is_negative() {
                    return Err(wd_error(span, format!("iterate with a negative count {n}")));
                }
                let elem = match &e.ty {
                    Type::Set(p) => match &**p {
                        Type::Pair(t, _) => (**t).clone(),
                        _ => return Err(internal_error(span, "iterate of a non-relation")),
                    },
                    _ => return Err(internal_error(span, "iterate of a non-relation")),
                };
                if n.is_zero() {
                    return self.identity_of_type(&elem, span);
                }
                let n = n
                    .to_usize()
                    .ok_or_else(|| limit_error(span, "iterate count too large"))?;
                let mut acc = r.to_vec();
                for _ in 1..n {
                    let next = relations::compose(&acc, &r, span)?;
                    if next == acc {
                        break;
                    }
                    acc = next;
                }
                return Ok(set_val(acc));
            }
            _ => {}
        }
        let x = self.eval_value(a, env)?;
        let y = self.eval_value(b, env)?;
        let rel = |v: &Value| {
            v.as_set()
                .map(<[Value]>::to_vec)
                .ok_or_else(|| internal_error(span, format!("{op:?} of a non-relation")))
        };
        Ok(match op {
            BinaryOp::Override => set_val(relations::overwrite(&rel(&x)?, &rel(&y)?, span)?),
            BinaryOp::DirectProduct => {
                set_val(relations::direct_product(&rel(&x)?, &rel(&y)?, span)?)
            }
            BinaryOp::ParallelProduct => {
                set_val(relations::parallel_product(&rel(&x)?, &rel(&y)?, span)?)
            }
            _ => value(sequences::binary(op, &x, &y, span)?),
        })
    }

    /// `a \/ b`, `a /\ b`, `a - b`, `a * b`: computed when finite, symbolic otherwise.
    fn set_operation(&self, op: BinaryOp, x: Val, y: Val, span: Span) -> Result<Val, EvalError> {
        if let (Val::Value(Value::Set(p)), Val::Value(Value::Set(q))) = (&x, &y) {
            return Ok(set_val(match op {
                BinaryOp::Union => set::union(p, q),
                BinaryOp::Inter => set::intersection(p, q),
                BinaryOp::SetMinus => set::difference(p, q),
                _ => {
                    if p.len().saturating_mul(q.len()) > self.settings().enumeration_limit {
                        return Ok(sym(SymbolicSet::Product(x.clone(), y.clone())));
                    }
                    set::product(p, q)
                }
            }));
        }
        let symbolic = match op {
            BinaryOp::Union => SymbolicSet::Union(x, y),
            BinaryOp::Inter => SymbolicSet::Inter(x, y),
            BinaryOp::SetMinus => SymbolicSet::Minus(x, y),
            _ => return Ok(sym(SymbolicSet::Product(x, y))),
        };
        let s = sym(symbolic);
        if self.is_infinite(&s) {
            return Ok(s);
        }
        // Finite, or finiteness unknown (closures): materialise when possible, else stay symbolic.
        match self.materialize(&s, span) {
            Ok(items) => Ok(Val::Value(Value::Set(items))),
            Err(EvalError::Limit(_)) => Ok(s),
            Err(e) => Err(e),
        }
    }

    /// `dom`, `ran` and `~` of an identity or a product kept symbolic (`id(STRING)~ = id(STRING)`,
    /// `dom(STRING * S) = STRING` when S is not empty): the result, without listing the relation. None
    /// for other relations, or a product whose other factor's emptiness is unknown.
    fn relation_of_sets(&self, op: UnaryOp, r: &Val) -> Option<Val> {
        let Val::Sym(s) = r else {
            return None;
        };
        match (op, &**s) {
            (UnaryOp::Inverse, SymbolicSet::Identity(_)) => Some(r.clone()),
            (UnaryOp::Dom | UnaryOp::Ran, SymbolicSet::Identity(d)) => Some(d.clone()),
            (UnaryOp::Inverse, SymbolicSet::Product(a, b)) => {
                Some(sym(SymbolicSet::Product(b.clone(), a.clone())))
            }
            (UnaryOp::Dom | UnaryOp::Ran, SymbolicSet::Product(a, b)) => {
                let (kept, other) = if op == UnaryOp::Dom { (a, b) } else { (b, a) };
                match self.is_empty_set(other)? {
                    true => Some(set_val(Vec::new())),
                    false => Some(kept.clone()),
                }
            }
            _ => None,
        }
    }

    /// `dom({x1, .., xn, r | P})` for a comprehension that cannot be listed: `{x1, .., xn | #r.P}`, kept
    /// symbolic, with `#r` eliminated where that is exact (`Context::eliminated`): then
    /// `dom(dom({x, y, r | x : INTEGER & y : INTEGER & r : INTEGER & r = x + y}))` is INTEGER itself.
    /// None for a comprehension of one variable (a set, not a relation).
    fn comprehension_domain(&self, vars: &[TypedName], pred: &Arc<Pred>, env: &Env) -> Option<Val> {
        let (last, dom_vars) = vars.split_last()?;
        if dom_vars.is_empty() {
            return None;
        }
        let span = pred.span;
        let conjuncts = pred.conjuncts();
        let mentions_last =
            |p: &Pred| crate::ir::free_names::pred_mentions(p, &|n| *n == last.name);
        let mut kept: Vec<Pred> = conjuncts
            .iter()
            .filter(|p| !mentions_last(p))
            .map(|p| (*p).clone())
            .collect();
        let about_last: Vec<&Pred> = conjuncts.into_iter().filter(|p| mentions_last(p)).collect();
        match self.eliminated(last, &about_last, vars, env) {
            Some(replacement) => kept.extend(replacement),
            None => {
                let body = Pred::new(
                    PredKind::And(about_last.into_iter().cloned().collect()),
                    span,
                );
                kept.push(Pred::new(
                    PredKind::Exists(vec![last.clone()], Box::new(body)),
                    span,
                ));
            }
        }
        // `{x | x : S}` is S.
        if let ([x], [only]) = (dom_vars, &kept[..])
            && let PredKind::Compare(CompareOp::In, l, set) = &only.kind
            && matches!(&l.kind, ExprKind::Var(n) if *n == x.name)
            && !crate::ir::free_names::expr_mentions(set, &|n| *n == x.name)
        {
            return self.eval(set, &mut env.clone()).ok();
        }
        Some(sym(SymbolicSet::Comprehension {
            vars: Arc::new(dom_vars.to_vec()),
            pred: Arc::new(Pred::new(PredKind::And(kept), span)),
            env: env.clone(),
        }))
    }

    /// `#r.(c1 & .. & ck)` (the conjuncts of a comprehension over `vars` that mention r) as equivalent
    /// conjuncts without r, when that is exact: r only typed by a non-empty set fixed outside the
    /// comprehension (`r : NATURAL`: the existential holds), or r defined by `r = E` with E total
    /// arithmetic (never ill-defined) and otherwise only in memberships `r : S`, which become `E : S`
    /// (dropped when S is a whole type). None otherwise.
    fn eliminated(
        &self,
        r: &TypedName,
        conjuncts: &[&Pred],
        vars: &[TypedName],
        env: &Env,
    ) -> Option<Vec<Pred>> {
        let is_r = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if *n == r.name);
        let outside = |e: &Expr| {
            !crate::ir::free_names::expr_mentions(e, &|n| vars.iter().any(|v| v.name == *n))
        };
        let definition = conjuncts.iter().find_map(|p| match &p.kind {
            PredKind::Compare(CompareOp::Eq, a, b) if is_r(a) && is_total_arithmetic(b, r) => {
                Some(&**b)
            }
            PredKind::Compare(CompareOp::Eq, a, b) if is_r(b) && is_total_arithmetic(a, r) => {
                Some(&**a)
            }
            _ => None,
        });
        let mut out = Vec::new();
        let mut defining_seen = false;
        for p in conjuncts {
            match &p.kind {
                PredKind::Compare(CompareOp::Eq, a, b)
                    if definition
                        .is_some_and(|d| std::ptr::eq(d, &**a) || std::ptr::eq(d, &**b))
                        && !defining_seen =>
                {
                    defining_seen = true;
                }
                PredKind::Compare(CompareOp::In, x, set) if is_r(x) && outside(set) => {
                    let set_value = self.eval(set, &mut env.clone()).ok()?;
                    if is_type_set(&set_value) {
                        continue;
                    }
                    match definition {
                        Some(e) => out.push(Pred::new(
                            PredKind::Compare(
                                CompareOp::In,
                                Box::new(e.clone()),
                                Box::new((**set).clone()),
                            ),
                            p.span,
                        )),
                        // `#r.(r : S)` holds when S is not empty.
                        None if self.is_empty_set(&set_value) == Some(false) => {}
                        None => return None,
                    }
                }
                _ => return None,
            }
        }
        Some(out)
    }

    /// `{k1 |-> v1, k2 |-> v2, ...}(x)` without building the set: every key and image is evaluated
    /// (their well-definedness is the set's), but the images stay symbolic, and only the one at x is
    /// the result (`{1 |-> (1 .. 2000000) - {2222}, 2 |-> {3}}(2)` never lists the first image).
    /// Several keys equal to x must have equal images, else the set is not a function there.
    fn apply_listed_function(
        &self,
        pairs: &[(&Expr, &Expr)],
        arg: &Expr,
        span: Span,
        env: &mut Env,
    ) -> Result<Val, EvalError> {
        let x = self.eval_value(arg, env)?;
        let mut images: Vec<Val> = Vec::new();
        for (k, v) in pairs {
            let key = self.eval_value(k, env)?;
            let image = self.eval(v, env)?;
            if key == x {
                images.push(image);
            }
        }
        let Some(first) = images.first() else {
            return Err(wd_error(
                span,
                format!("function applied outside its domain (to {x})"),
            ));
        };
        for other in &images[1..] {
            if !self.vals_equal(first, other, span)? {
                return Err(wd_error(
                    span,
                    format!("applied relation is not a function at {x}"),
                ));
            }
        }
        Ok(first.clone())
    }

    /// `(%x.(P | E))(a)` without making the closure (which copies the environment): x is bound to a on
    /// top of the current environment, as the closure's own environment would have it.
    fn apply_lambda(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        body: &Expr,
        arg: &Expr,
        span: Span,
        env: &mut Env,
    ) -> Result<Val, EvalError> {
        let x = self.eval_value(arg, env)?;
        match self.lambda_image(vars, pred, body, &x, env, span)? {
            Some(y) => Ok(value(y)),
            None => Err(wd_error(
                span,
                format!("function applied outside its domain (to {x})"),
            )),
        }
    }

    /// The image of x under `%vars.(pred | body)` with the variables bound on top of `env` (restored
    /// afterwards); `None` outside the lambda's domain.
    fn lambda_image(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        body: &Expr,
        x: &Value,
        env: &mut Env,
        span: Span,
    ) -> Result<Option<Value>, EvalError> {
        let Some(parts) = destructure(x, vars.len()) else {
            return Ok(None);
        };
        let mark = env.len();
        for (v, p) in vars.iter().zip(parts) {
            env.bind(v.name.clone(), p);
        }
        let result = self.nested(span, || {
            if !self.eval_pred_in(pred, env)? {
                return Ok(None);
            }
            Ok(Some(self.eval_value(body, env)?))
        });
        env.truncate(mark);
        result
    }

    /// `r[{x}]` for any relation value, without materialising lambdas or identities.
    /// `prj1(S, T)(x)` / `prj2(S, T)(x)` without building the projection, which is infinite when S or T is
    /// (`prj2(INTEGER, INTEGER)(p)`): a component of x, defined when x is in S * T.
    fn apply_projection(
        &self,
        proj: BinaryOp,
        s: &Expr,
        t: &Expr,
        arg: &Expr,
        env: &mut Env,
    ) -> Result<Val, EvalError> {
        let span = s.span.to(arg.span);
        let s = self.eval(s, env)?;
        let t = self.eval(t, env)?;
        let x = self.eval_value(arg, env)?;
        let (first, second) = x
            .as_pair()
            .ok_or_else(|| internal_error(span, "projection applied to a non-pair"))?;
        if !self.contains(&s, first, span)? || !self.contains(&t, second, span)? {
            return Err(wd_error(
                span,
                format!("function applied outside its domain (to {x})"),
            ));
        }
        Ok(value(if proj == BinaryOp::Prj1 {
            first.clone()
        } else {
            second.clone()
        }))
    }

    /// `max`/`min` of `a - b` for an interval `a` bounded on that side and a finite `b`
    /// (`min(NATURAL - {0, 2})` is 1): the first element of `a` from that bound not in `b`, found
    /// within `card(b) + 1` steps. A WD error when `a - b` is empty; None for other sets.
    fn extreme_of_difference(
        &self,
        s: &Val,
        max: bool,
        span: Span,
    ) -> Result<Option<Int>, EvalError> {
        let Val::Sym(sym) = s else {
            return Ok(None);
        };
        let SymbolicSet::Minus(a, b) = &**sym else {
            return Ok(None);
        };
        let Some(range) = self.integer_range(a) else {
            return Ok(None);
        };
        let (start, end) = if max {
            (&range.hi, &range.lo)
        } else {
            (&range.lo, &range.hi)
        };
        let (Some(start), Val::Value(Value::Set(removed))) = (start, b) else {
            return Ok(None);
        };
        let mut x = start.clone();
        for _ in 0..=removed.len() {
            let past_end = end
                .as_ref()
                .is_some_and(|e| if max { x < *e } else { x > *e });
            if past_end {
                break;
            }
            if !set::contains(removed, &Value::Int(x.clone())) {
                return Ok(Some(x));
            }
            x = if max { x.pred() } else { x.succ() };
        }
        Err(wd_error(span, "max/min of the empty set"))
    }

    /// `closure1(r)[points]` for a relation kept symbolic (`closure1({x, y | y + y = x})[{1024}]`):
    /// images are followed from the points until nothing new is reached, without enumerating `r`.
    /// A `Limit` error when the reachable set grows beyond the enumeration limit (an infinite chain).
    fn closure1_image(&self, r: &Val, points: &[Value], span: Span) -> Result<Value, EvalError> {
        let limit = self.settings().enumeration_limit;
        let mut reached = std::collections::BTreeSet::new();
        let mut frontier = points.to_vec();
        while let Some(x) = frontier.pop() {
            self.check_deadline(span)?;
            for y in self.point_image(r, &x, span)? {
                if !reached.contains(&y) {
                    reached.insert(y.clone());
                    frontier.push(y);
                }
            }
            if reached.len() > limit {
                return Err(limit_error(
                    span,
                    format!("closure1 image with more than {limit} elements"),
                ));
            }
        }
        Ok(Value::set_from_sorted(reached.into_iter().collect()))
    }

    pub(crate) fn point_image(
        &self,
        r: &Val,
        x: &Value,
        span: Span,
    ) -> Result<Vec<Value>, EvalError> {
        match r {
            Val::Value(Value::Set(pairs)) => Ok(set::pairs_from(pairs, x)
                .iter()
                .filter_map(|p| p.as_pair().map(|(_, y)| y.clone()))
                .collect()),
            Val::Value(_) => Err(internal_error(span, "image of a non-relation")),
            Val::Sym(s) => match &**s {
                SymbolicSet::Lambda {
                    vars,
                    pred,
                    body,
                    env,
                } => self.memo_image(s, x, || {
                    Ok(self
                        .lambda_image(vars, pred, body, x, &mut env.clone(), span)?
                        .into_iter()
                        .collect())
                }),
                // `{x, y | P}[{a}]` is `{y | P}` with `x = a`: solved for `y` alone, never enumerating
                // the relation (`half = {x, y | y + y = x}`).
                SymbolicSet::Comprehension { vars, pred, env } if vars.len() >= 2 => {
                    let (dom_vars, ran_var) = vars.split_at(vars.len() - 1);
                    let Some(env) = bind_point(dom_vars, env, x) else {
                        return Ok(Vec::new());
                    };
                    self.nested(span, || {
                        self.collect_solutions(ran_var, pred, &env, span, &mut |_, _, y| Ok(y))
                    })
                }
                SymbolicSet::Identity(dom) => Ok(if self.contains(dom, x, span)? {
                    vec![x.clone()]
                } else {
                    Vec::new()
                }),
                SymbolicSet::Union(a, b) => {
                    let mut out = self.point_image(a, x, span)?;
                    out.extend(self.point_image(b, x, span)?);
                    out.sort_unstable();
                    out.dedup();
                    Ok(out)
                }
                _ => self.point_image(&Val::Value(Value::Set(self.materialize(r, span)?)), x, span),
            },
        }
    }

    fn eval_binder(
        &self,
        kind: BinderKind,
        vars: &Arc<Vec<TypedName>>,
        pred: &Arc<Pred>,
        body: &Arc<Expr>,
        span: Span,
        env: &mut Env,
    ) -> Result<Val, EvalError> {
        if kind == BinderKind::Lambda {
            return Ok(sym(SymbolicSet::Lambda {
                vars: vars.clone(),
                pred: pred.clone(),
                body: body.clone(),
                env: env.clone(),
            }));
        }
        let mut results: Vec<Value> = Vec::new();
        let limit = self.settings().enumeration_limit;
        let complete = self.search(vars, pred, env, &mut |ctx, env| {
            results.push(ctx.eval_value(body, env)?);
            if results.len() > limit {
                return Err(limit_error(
                    span,
                    format!("more than {limit} bound-variable solutions"),
                ));
            }
            Ok(true)
        })?;
        if !complete {
            return Err(limit_error(
                span,
                "cannot evaluate: a bound variable has no finite domain (only MININT..MAXINT was explored)",
            ));
        }
        Ok(match kind {
            BinderKind::Image => value(Value::set_from_vec(results)),
            BinderKind::Sigma | BinderKind::Pi => {
                let (mut acc, sigma) = if kind == BinderKind::Sigma {
                    (Int::zero(), true)
                } else {
                    (Int::Small(1), false)
                };
                for r in &results {
                    let i = r
                        .as_int()
                        .ok_or_else(|| internal_error(span, "SIGMA/PI of non-integers"))?;
                    acc = if sigma { acc.add(i) } else { acc.mul(i) };
                }
                value(Value::Int(acc))
            }
            BinderKind::Union => {
                let mut all = Vec::new();
                for r in &results {
                    all.extend(
                        r.as_set()
                            .ok_or_else(|| internal_error(span, "UNION of non-sets"))?
                            .iter()
                            .cloned(),
                    );
                }
                value(Value::set_from_vec(all))
            }
            BinderKind::Inter => {
                let Some(first) = results.first() else {
                    return Err(wd_error(span, "INTER over an empty index set"));
                };
                let mut acc = first
                    .as_set()
                    .ok_or_else(|| internal_error(span, "INTER of non-sets"))?
                    .to_vec();
                for r in &results[1..] {
                    acc = set::intersection(
                        &acc,
                        r.as_set()
                            .ok_or_else(|| internal_error(span, "INTER of non-sets"))?,
                    );
                }
                set_val(acc)
            }
            BinderKind::Lambda => unreachable!("handled above"),
        })
    }
}

/// Whether `e` is integer arithmetic (`+`, `-`, `*`, literals, identifiers other than `r`) that is
/// defined wherever its identifiers are.
fn is_total_arithmetic(e: &Expr, r: &TypedName) -> bool {
    match &e.kind {
        ExprKind::Var(n) => *n != r.name,
        ExprKind::Int(_) => true,
        ExprKind::Unary(UnaryOp::Neg | UnaryOp::Succ | UnaryOp::Pred, a) => {
            is_total_arithmetic(a, r)
        }
        ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul, a, b) => {
            is_total_arithmetic(a, r) && is_total_arithmetic(b, r)
        }
        _ => false,
    }
}

/// `lo..hi`, built eagerly when small.
fn interval(lo: Int, hi: Int) -> Val {
    let small = hi < lo || hi.sub(&lo).to_usize().is_some_and(|n| n < EAGER_INTERVAL);
    if small {
        value(Value::interval(&lo, &hi))
    } else {
        sym(SymbolicSet::Interval(Some(lo), Some(hi)))
    }
}

fn arith(op: BinaryOp, x: &Int, y: &Int, span: Span) -> Result<Int, EvalError> {
    Ok(match op {
        BinaryOp::Add => x.add(y),
        BinaryOp::Sub => x.sub(y),
        BinaryOp::Mul => x.mul(y),
        BinaryOp::Div => x.div(y).ok_or_else(|| wd_error(span, "division by zero"))?,
        BinaryOp::Mod => x
            .modulo(y)
            .ok_or_else(|| wd_error(span, "modulo by zero"))?,
        _ => {
            if y.is_negative() {
                return Err(wd_error(
                    span,
                    format!("power with a negative exponent {y}"),
                ));
            }
            match x.to_i64() {
                Some(0) => {
                    if y.is_zero() {
                        Int::Small(1)
                    } else {
                        Int::zero()
                    }
                }
                Some(1) => Int::Small(1),
                Some(-1) => {
                    if y.modulo(&Int::Small(2)).is_some_and(|r| r.is_zero()) {
                        Int::Small(1)
                    } else {
                        Int::Small(-1)
                    }
                }
                _ => match y.to_u32() {
                    Some(n) if n <= MAX_EXPONENT => x.pow(n),
                    _ => return Err(limit_error(span, format!("exponent {y} too large"))),
                },
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{empty_machine, truth, value_of};

    #[test]
    fn listed_functions_are_applied_without_listing_their_images() {
        let model = empty_machine("listed");
        assert_eq!(
            truth(
                &model,
                "{1 |-> (1 .. 2000000) - {2222}, 2 |-> {3}}(1 + 1) = {3}"
            ),
            Ok(true)
        );
        assert_eq!(
            value_of(
                &model,
                "card({1 |-> (1 .. 2000000) - {2222}, 2 |-> {3}}(1))"
            )
            .as_deref(),
            Ok("1999999")
        );
        // Equal images at one key are one function; the other images are still evaluated.
        assert_eq!(
            value_of(&model, "{1 |-> {5}, 1 |-> 5..5, 2 |-> {}}(1)").as_deref(),
            Ok("{5}")
        );
        assert!(value_of(&model, "{1 |-> 2, 1 |-> 3}(1)").is_err());
        assert!(value_of(&model, "{1 |-> 1 / 0, 2 |-> 3}(2)").is_err());
        assert!(value_of(&model, "{1 |-> 2}(3)").is_err());
    }

    #[test]
    fn identities_and_products_of_infinite_sets_stay_symbolic() {
        let model = empty_machine("relations_of_sets");
        for (text, expected) in [
            ("id(STRING)~ = id(STRING)", true),
            ("dom(id(STRING)) = STRING", true),
            ("ran(id(NATURAL)) = NATURAL", true),
            ("(STRING * {1, 2})~ = {1, 2} * STRING", true),
            ("(STRING * {1, 2})~ = {1} * STRING", false),
            ("dom(STRING * {1}) = STRING", true),
            ("ran(STRING * {1}) = {1}", true),
            // An empty factor empties the product, its domain and range.
            ("dom(STRING * ({1} - {1})) = {}", true),
            ("(STRING * ({1} - {1}))~ = {}", true),
            ("id(NATURAL1) <: id(NATURAL)", true),
            ("id(NATURAL) <: id(NATURAL1)", false),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn domains_of_comprehensions_project_away_defined_variables() {
        let model = empty_machine("domains");
        for (text, expected) in [
            (
                "dom(dom({x,y,r | x : INTEGER & y : INTEGER & r : INTEGER & r = x + y})) = INTEGER",
                true,
            ),
            (
                "dom(dom({x,y,r | r : INTEGER & x : NATURAL & y : NATURAL & r = x + y + 1})) \
                 = NATURAL",
                true,
            ),
            (
                "dom(dom({x,y,r | x : INTEGER & r : INTEGER & y : NATURAL & r = x + y + 1})) \
                 = INTEGER",
                true,
            ),
            (
                "dom(dom({x,y,r | x : INTEGER & r : INTEGER & y : NATURAL & r = x + y + 1})) \
                 = NATURAL",
                false,
            ),
            // `r : NATURAL1` becomes `x + 1 : NATURAL1`.
            (
                "5 : dom({x, r | x : INTEGER & r : NATURAL1 & r = x + 1})",
                true,
            ),
            (
                "-1 : dom({x, r | x : INTEGER & r : NATURAL1 & r = x + 1})",
                false,
            ),
            // Not eliminated (division can be ill-defined): the existential stays.
            (
                "6 : dom({x, r | x : INTEGER & r : NATURAL & r = x / 2})",
                true,
            ),
            (
                "-4 : dom({x, r | x : INTEGER & r : NATURAL & r = x / 2})",
                false,
            ),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
        // A domain that is not an interval cannot be compared with one: an error, not a guess.
        assert!(
            truth(
                &model,
                "dom({x, r | x : INTEGER & r : NATURAL & r = x / 2}) = INTEGER"
            )
            .is_err()
        );
    }
}
