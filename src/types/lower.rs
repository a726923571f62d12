//! Typing and lowering of surface terms to IR predicates and expressions.
//!
//! The operator signatures of B_REFERENCE §2 live in `expr_op`: each operator unifies its operands with the
//! shapes it needs and gives the result type. `-` and `*` are integer or set operators depending on their
//! operand types; they are lowered as `Sub`/`Mul` here and turned into `SetMinus`/`Product` by `resolve`
//! once the types are known.

use super::Type;
use super::external::{self, ExternalKind};
use super::infer::{Checker, GlobalKind};
use super::resolve::Pending;
use crate::diag::{DiagKind, Diagnostic, Result, Span, source};
use crate::ir::{
    BinaryOp, BinderKind, CompareOp, Expr, ExprConst, ExprKind, Pred, PredKind, TypedName, UnaryOp,
};
use crate::syntax::ast::{ConstKind, Ident, Name, Op, Quant, QuantExprKind, Term, TermKind};
use std::borrow::Cow;
use std::sync::Arc;

/// The source text of a span, shortened, for error messages.
pub(super) fn snippet(span: Span) -> String {
    let Some(file) = source(span.file) else {
        return "<generated>".into();
    };
    let text = file
        .text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("");
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 60 {
        format!("{}...", flat.chars().take(57).collect::<String>())
    } else {
        flat
    }
}

impl Checker {
    /// Unifies, reporting a mismatch at `span` with the source text of `context`.
    pub(super) fn expect(&mut self, expected: &Type, found: &Type, span: Span) -> Result<()> {
        self.u.unify(expected, found).map_err(|m| {
            Diagnostic::type_error(
                span,
                format!(
                    "type mismatch: expected {}, found {} in `{}`",
                    m.expected,
                    m.found,
                    snippet(span)
                ),
            )
        })
    }

    fn lookup(&mut self, name: &Name, span: Span) -> Result<Type> {
        if let Some(l) = self.locals.iter().rev().find(|l| l.name == *name) {
            return Ok(l.ty.clone());
        }
        if let Some(g) = self.globals.get(name) {
            let hidden = match g.kind {
                GlobalKind::Variable => !self.variables_visible,
                GlobalKind::Param | GlobalKind::SetParam => !self.params_visible,
                _ => false,
            };
            if hidden {
                return Err(Diagnostic::type_error(
                    span,
                    format!("{} `{}` cannot be used here", g.kind.describe(), name),
                ));
            }
            return Ok(g.ty.clone());
        }
        if let Some(free) = &mut self.free {
            let ty = self.u.fresh();
            free.push(TypedName {
                name: name.clone(),
                ty: ty.clone(),
                span,
            });
            self.globals.insert(
                name.clone(),
                super::infer::Global {
                    ty: ty.clone(),
                    kind: GlobalKind::Free,
                },
            );
            return Ok(ty);
        }
        Err(Diagnostic::type_error(
            span,
            format!("unknown identifier `{name}`"),
        ))
    }

    /// True when no bound or declared identifier is called `name`.
    fn is_undeclared(&self, name: &str) -> bool {
        !self.locals.iter().any(|l| &*l.name == name) && !self.globals.contains_key(name)
    }

    /// The external kind of identifier `name` when it names an external the machine makes available and no
    /// bound or declared identifier hides it.
    pub(super) fn external(&self, name: &str) -> Option<ExternalKind> {
        if !self.externals.iter().any(|e| &**e == name) || !self.is_undeclared(name) {
            return None;
        }
        external::kind(name)
    }

    /// The name of the external of kind `kind` that the callee `f` of a call names, if it does.
    pub(super) fn external_call(&self, f: &Term, kind: ExternalKind) -> Option<Name> {
        match &f.kind {
            TermKind::Ident(n) if self.external(n) == Some(kind) => Some(n.clone()),
            _ => None,
        }
    }

    /// `F(a, b)` for an external function `F`: its arguments typed against its signature, lowered to the
    /// application of the variable `eval::external` recognises to the tuple of the arguments.
    fn external_function(
        &mut self,
        name: Name,
        name_span: Span,
        args: &[Term],
        span: Span,
    ) -> Result<Expr> {
        let Some((params, result)) = external::signature(&name, args.len(), &mut self.u) else {
            return Err(Diagnostic::unsupported(
                span,
                format!("external function `{name}`"),
            ));
        };
        if params.len() != args.len() {
            return Err(Diagnostic::type_error(
                span,
                format!(
                    "external function `{name}` takes {} argument(s), given {}",
                    params.len(),
                    args.len()
                ),
            ));
        }
        let mut arg: Option<Expr> = None;
        for (a, p) in args.iter().zip(&params) {
            let e = self.expr(a)?;
            self.expect(p, &e.ty, a.span)?;
            arg = Some(match arg {
                None => e,
                Some(acc) => {
                    let (ty, s) = (
                        Type::pair(acc.ty.clone(), e.ty.clone()),
                        acc.span.to(e.span),
                    );
                    Expr::new(
                        ExprKind::Binary(BinaryOp::Maplet, Box::new(acc), Box::new(e)),
                        ty,
                        s,
                    )
                }
            });
        }
        let Some(arg) = arg else {
            return Err(Diagnostic::syntax(span, "missing argument"));
        };
        let f = Expr::new(
            ExprKind::Var(external::external_var(external::overload(
                &name,
                args.len(),
            ))),
            Type::relation(arg.ty.clone(), result.clone()),
            name_span,
        );
        Ok(Expr::new(
            ExprKind::Binary(BinaryOp::Apply, Box::new(f), Box::new(arg)),
            result,
            span,
        ))
    }

    /// The elements of an enumeration `{a, b}` / `[a, b]`, all of one type, and that type.
    fn same_typed(&mut self, xs: &[Term], span: Span) -> Result<(Vec<Expr>, Type)> {
        let elem = self.u.fresh();
        let mut out = Vec::with_capacity(xs.len());
        for x in xs {
            let e = self.expr(x)?;
            self.expect(&elem, &e.ty, span)?;
            out.push(e);
        }
        Ok((out, elem))
    }

    /// Records, in a TLA+ machine, the field types of a record type just built (`field_types`).
    fn note_field_types(&mut self, fields: &[(Name, Type)]) {
        if self.u.tla_values {
            for (n, t) in fields {
                self.field_types
                    .entry(n.clone())
                    .or_default()
                    .push(t.clone());
            }
        }
    }

    /// The kind of a global identifier not hidden by a local one.
    pub(super) fn global_kind(&self, name: &str) -> Option<GlobalKind> {
        if self.locals.iter().any(|l| &*l.name == name) {
            return None;
        }
        self.globals.get(name).map(|g| g.kind)
    }

    pub(super) fn pop_locals(&mut self, n: usize) {
        self.locals.truncate(n);
    }

    /// Binds identifiers (quantifier, comprehension, ANY ...) for the duration of `f`.
    pub(super) fn with_bound<R>(
        &mut self,
        ids: &[Ident],
        what: &'static str,
        f: impl FnOnce(&mut Checker, &[TypedName]) -> Result<R>,
    ) -> Result<(Vec<TypedName>, R)> {
        let n = self.locals.len();
        let names: Vec<TypedName> = ids.iter().map(|i| self.bind(i, what)).collect();
        let r = f(self, &names);
        self.pop_locals(n);
        Ok((names, r?))
    }

    /// `pred` of a clause body. An owned conjunction is freed conjunct by conjunct as it is lowered, so
    /// that the IR reuses the syntax tree's memory.
    pub(super) fn clause_pred(&mut self, t: Cow<'_, Term>) -> Result<Pred> {
        match t {
            Cow::Owned(Term {
                kind: TermKind::Op(Op::And, conjuncts),
                span,
            }) if conjuncts.len() >= 2 => {
                let mut parts = Vec::with_capacity(conjuncts.len());
                for c in conjuncts {
                    self.flatten(Op::And, std::slice::from_ref(&c), &mut parts)?;
                }
                Ok(Pred::new(PredKind::And(parts), span))
            }
            t => self.pred(&t),
        }
    }

    pub(super) fn pred(&mut self, t: &Term) -> Result<Pred> {
        let span = t.span;
        let kind = match &t.kind {
            TermKind::Const(ConstKind::Btrue) => PredKind::True,
            TermKind::Const(ConstKind::Bfalse) => PredKind::False,
            TermKind::Op(op, args) if op.is_predicate() => return self.pred_op(*op, args, span),
            TermKind::Quantifier(q, ids, body) => {
                let what = match q {
                    Quant::Forall => "universally quantified identifier",
                    Quant::Exists => "existentially quantified identifier",
                };
                let (names, body) = self.with_bound(ids, what, |c, _| c.pred(body))?;
                match q {
                    Quant::Forall => PredKind::Forall(names, Box::new(body)),
                    Quant::Exists => PredKind::Exists(names, Box::new(body)),
                }
            }
            TermKind::IfThenElse(branches, els) => {
                let mut out = self.pred(els)?;
                for (c, v) in branches.iter().rev() {
                    let c = self.pred(c)?;
                    let v = self.pred(v)?;
                    out = Pred::new(PredKind::If(Box::new(c), Box::new(v), Box::new(out)), span);
                }
                return Ok(out);
            }
            TermKind::Let(ids, defs, body) => {
                let n = self.locals.len();
                let r = self
                    .let_bindings(ids, defs)
                    .and_then(|b| Ok((b, self.pred(body)?)));
                self.pop_locals(n);
                let (bindings, body) = r?;
                PredKind::Let(bindings, Box::new(body))
            }
            TermKind::Unsupported(what) => return Err(Diagnostic::unsupported(span, what)),
            TermKind::Ident(n) if &**n == "true" && self.is_undeclared(n) => {
                return Err(Diagnostic::type_error(
                    span,
                    "expected a predicate, found `true` (B-Toolkit's `true` is not a B predicate: write `btrue`)",
                ));
            }
            TermKind::Call(f, args)
                if self.external_call(f, ExternalKind::TruePredicate).is_some() =>
            {
                for a in args {
                    self.expr(a)?;
                }
                PredKind::True
            }
            _ => {
                return Err(Diagnostic::type_error(
                    span,
                    format!(
                        "expected a predicate, found an expression `{}`",
                        snippet(span)
                    ),
                ));
            }
        };
        Ok(Pred::new(kind, span))
    }

    fn pred_op(&mut self, op: Op, args: &[Term], span: Span) -> Result<Pred> {
        // `&` and `or` are n-ary chains as parsed; the others have fixed arity.
        if !matches!(op, Op::And | Op::Or) || args.len() < 2 {
            arity(op, args, if op == Op::Not { 1 } else { 2 }, span)?;
        }
        let kind = match op {
            Op::And | Op::Or => {
                let mut parts = Vec::with_capacity(args.len());
                self.flatten(op, args, &mut parts)?;
                if op == Op::And {
                    PredKind::And(parts)
                } else {
                    PredKind::Or(parts)
                }
            }
            Op::Implies => PredKind::Implies(
                Box::new(self.pred(&args[0])?),
                Box::new(self.pred(&args[1])?),
            ),
            Op::Equiv => PredKind::Equiv(
                Box::new(self.pred(&args[0])?),
                Box::new(self.pred(&args[1])?),
            ),
            Op::Not => PredKind::Not(Box::new(self.pred(&args[0])?)),
            Op::Eq | Op::NotEq => {
                let a = self.expr(&args[0])?;
                let b = self.expr(&args[1])?;
                self.expect(&a.ty, &b.ty, span)?;
                let cmp = if op == Op::Eq {
                    CompareOp::Eq
                } else {
                    CompareOp::NotEq
                };
                match (cmp, tuple_definition(&a, &b, span)) {
                    (CompareOp::Eq, Some(parts)) => PredKind::And(parts),
                    _ => PredKind::Compare(cmp, Box::new(a), Box::new(b)),
                }
            }
            Op::In | Op::NotIn => {
                let a = self.expr(&args[0])?;
                let b = self.expr(&args[1])?;
                self.expect(&Type::set(a.ty.clone()), &b.ty, span)?;
                let p = PredKind::Compare(CompareOp::In, Box::new(a), Box::new(b));
                if op == Op::In {
                    p
                } else {
                    PredKind::Not(Box::new(Pred::new(p, span)))
                }
            }
            Op::Subset | Op::NotSubset | Op::Strict | Op::NotStrict => {
                let a = self.expr(&args[0])?;
                let b = self.expr(&args[1])?;
                let elem = self.u.fresh();
                self.expect(&Type::set(elem), &a.ty, span)?;
                self.expect(&a.ty, &b.ty, span)?;
                let cmp = if matches!(op, Op::Subset | Op::NotSubset) {
                    CompareOp::Subset
                } else {
                    CompareOp::StrictSubset
                };
                let p = PredKind::Compare(cmp, Box::new(a), Box::new(b));
                if matches!(op, Op::Subset | Op::Strict) {
                    p
                } else {
                    PredKind::Not(Box::new(Pred::new(p, span)))
                }
            }
            Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                let a = self.int_expr(&args[0], span)?;
                let b = self.int_expr(&args[1], span)?;
                match op {
                    Op::Lt => PredKind::Compare(CompareOp::Lt, Box::new(a), Box::new(b)),
                    Op::Le => PredKind::Compare(CompareOp::Le, Box::new(a), Box::new(b)),
                    Op::Gt => PredKind::Compare(CompareOp::Lt, Box::new(b), Box::new(a)),
                    _ => PredKind::Compare(CompareOp::Le, Box::new(b), Box::new(a)),
                }
            }
            _ => return Err(no_signature(op, span)),
        };
        Ok(Pred::new(kind, span))
    }

    /// Collects the operands of a (possibly nested) `&` / `or` chain.
    fn flatten(&mut self, op: Op, args: &[Term], out: &mut Vec<Pred>) -> Result<()> {
        for a in args {
            match &a.kind {
                TermKind::Op(o, inner) if *o == op => self.flatten(op, inner, out)?,
                _ => out.push(self.pred(a)?),
            }
        }
        Ok(())
    }

    /// `x = E & y = F` of a LET: ordered bindings; each bound name is visible in the later definitions and
    /// stays bound (the caller pops it after the body).
    pub(super) fn let_bindings(
        &mut self,
        ids: &[Ident],
        defs: &Term,
    ) -> Result<Vec<(TypedName, Expr)>> {
        let mut conjuncts = Vec::new();
        collect_conjuncts(defs, &mut conjuncts);
        let mut out: Vec<(TypedName, Expr)> = Vec::new();
        for c in conjuncts {
            let binding = match &c.kind {
                TermKind::Op(Op::Eq, args) if args.len() == 2 => match &args[0].kind {
                    TermKind::Ident(n) => ids.iter().find(|i| i.name == *n).map(|i| (i, &args[1])),
                    _ => None,
                },
                _ => None,
            };
            let Some((id, value)) = binding else {
                // B allows only `x = E` for each LET identifier (Atelier B rejects anything else too).
                return Err(Diagnostic::type_error(
                    c.span,
                    format!(
                        "expected `x = E` for a LET identifier in the LET definitions, found `{}`",
                        snippet(c.span)
                    ),
                ));
            };
            if out.iter().any(|(n, _)| n.name == id.name) {
                return Err(Diagnostic::type_error(
                    c.span,
                    format!("LET identifier `{}` is defined twice", id.name),
                ));
            }
            let value = self.expr(value)?;
            let name = self.bind(id, "LET identifier");
            self.expect(&name.ty, &value.ty, c.span)?;
            out.push((name, value));
        }
        if let Some(missing) = ids
            .iter()
            .find(|i| !out.iter().any(|(n, _)| n.name == i.name))
        {
            return Err(Diagnostic::type_error(
                missing.span,
                format!(
                    "LET identifier `{}` has no definition `{} = E`",
                    missing.name, missing.name
                ),
            ));
        }
        Ok(out)
    }

    fn int_expr(&mut self, t: &Term, context: Span) -> Result<Expr> {
        let e = self.expr(t)?;
        self.expect(&Type::Integer, &e.ty, context)?;
        Ok(e)
    }

    /// Lowers `args` as one expression: a single argument, or the left-nested maplet of several.
    pub(super) fn tuple(&mut self, args: &[Term], span: Span) -> Result<Expr> {
        let mut it = args.iter();
        let Some(first) = it.next() else {
            return Err(Diagnostic::syntax(span, "missing argument"));
        };
        let mut acc = self.expr(first)?;
        for a in it {
            let b = self.expr(a)?;
            let ty = Type::pair(acc.ty.clone(), b.ty.clone());
            let s = acc.span.to(b.span);
            acc = Expr::new(
                ExprKind::Binary(BinaryOp::Maplet, Box::new(acc), Box::new(b)),
                ty,
                s,
            );
        }
        Ok(acc)
    }

    pub(super) fn expr(&mut self, t: &Term) -> Result<Expr> {
        let span = t.span;
        let (kind, ty) = match &t.kind {
            TermKind::Ident(n) => match self.external(n) {
                Some(ExternalKind::IntConstant(v)) => (ExprKind::Int(v.into()), Type::Integer),
                _ => {
                    let ty = self.lookup(n, span)?;
                    (ExprKind::Var(n.clone()), ty)
                }
            },
            TermKind::Int(n) => (ExprKind::Int(n.clone()), Type::Integer),
            TermKind::Str(s) => (ExprKind::Str(s.clone()), Type::String),
            TermKind::Const(k) => self.constant(*k, span)?,
            TermKind::Op(op, _) if op.is_predicate() => {
                return Err(Diagnostic::type_error(
                    span,
                    format!(
                        "expected an expression, found a predicate `{}`",
                        snippet(span)
                    ),
                ));
            }
            TermKind::Op(op, args) => return self.expr_op(*op, args, span),
            TermKind::Call(f, args) => {
                if let Some(name) = self.external_call(f, ExternalKind::Function) {
                    return self.external_function(name, f.span, args, span);
                }
                let f = self.expr(f)?;
                let arg = self.tuple(args, span)?;
                let result = self.u.fresh();
                match tuple_index(&arg).filter(|_| self.u.tla_values) {
                    // `t[1]` / `t[2]` of a TLA+ tuple that may be a pair: decided with the tuple.
                    Some(index) => self.defer(Pending::Index {
                        tuple: f.ty.clone(),
                        index,
                        result: result.clone(),
                        span,
                    })?,
                    None => {
                        self.expect(&Type::relation(arg.ty.clone(), result.clone()), &f.ty, span)?
                    }
                }
                (
                    ExprKind::Binary(BinaryOp::Apply, Box::new(f), Box::new(arg)),
                    result,
                )
            }
            TermKind::Quantifier(..) => {
                return Err(Diagnostic::type_error(
                    span,
                    format!(
                        "expected an expression, found a predicate `{}`",
                        snippet(span)
                    ),
                ));
            }
            TermKind::SetComprehension(ids, body) => {
                let (names, body) =
                    self.with_bound(ids, "comprehension identifier", |c, _| c.pred(body))?;
                let ty = Type::set(tuple_type(&names));
                (ExprKind::Comprehension(Arc::new(names), Arc::new(body)), ty)
            }
            TermKind::SetComprehensionExpr(ids, p, e) => {
                let (names, (p, e)) =
                    self.with_bound(ids, "comprehension identifier", |c, _| {
                        Ok((c.pred(p)?, c.expr(e)?))
                    })?;
                let ty = Type::set(e.ty.clone());
                (
                    ExprKind::Binder(BinderKind::Image, Arc::new(names), Arc::new(p), Arc::new(e)),
                    ty,
                )
            }
            TermKind::QuantExpr(k, ids, p, e) => {
                let what = match k {
                    QuantExprKind::Lambda => "lambda identifier",
                    _ => "quantified identifier",
                };
                let (names, (p, e)) =
                    self.with_bound(ids, what, |c, _| Ok((c.pred(p)?, c.expr(e)?)))?;
                let (kind, ty) = match k {
                    QuantExprKind::Lambda => (
                        BinderKind::Lambda,
                        Type::relation(tuple_type(&names), e.ty.clone()),
                    ),
                    QuantExprKind::Sigma | QuantExprKind::Pi => {
                        self.expect(&Type::Integer, &e.ty, e.span)?;
                        let kind = if *k == QuantExprKind::Sigma {
                            BinderKind::Sigma
                        } else {
                            BinderKind::Pi
                        };
                        (kind, Type::Integer)
                    }
                    QuantExprKind::Union | QuantExprKind::Inter => {
                        let elem = self.u.fresh();
                        self.expect(&Type::set(elem), &e.ty, e.span)?;
                        let kind = if *k == QuantExprKind::Union {
                            BinderKind::Union
                        } else {
                            BinderKind::Inter
                        };
                        (kind, e.ty.clone())
                    }
                };
                (
                    ExprKind::Binder(kind, Arc::new(names), Arc::new(p), Arc::new(e)),
                    ty,
                )
            }
            TermKind::SetEnum(xs) => {
                let (out, elem) = self.same_typed(xs, span)?;
                (ExprKind::SetEnum(out), Type::set(elem))
            }
            // A TLA+ `<<a, b>>` is a pair or a sequence, as its uses decide (`types::resolve`).
            TermKind::SeqEnum(xs) if self.u.tla_values && xs.len() == 2 => {
                let (a, b) = (self.expr(&xs[0])?, self.expr(&xs[1])?);
                let ty = self.u.fresh();
                self.defer(Pending::PairOrSeq {
                    ty: ty.clone(),
                    first: a.ty.clone(),
                    second: b.ty.clone(),
                    span,
                })?;
                (ExprKind::SeqEnum(vec![a, b]), ty)
            }
            TermKind::SeqEnum(xs) => {
                let (out, elem) = self.same_typed(xs, span)?;
                (ExprKind::SeqEnum(out), Type::seq(elem))
            }
            TermKind::Record(fields) => {
                let fields = self.fields(fields)?;
                let tys: Vec<(Name, Type)> = fields
                    .iter()
                    .map(|(n, e)| (n.clone(), e.ty.clone()))
                    .collect();
                self.note_field_types(&tys);
                (ExprKind::Record(fields), Type::Struct(tys))
            }
            TermKind::Struct(fields) => {
                let fields = self.fields(fields)?;
                let mut tys = Vec::with_capacity(fields.len());
                for (n, e) in &fields {
                    let elem = self.u.fresh();
                    self.expect(&Type::set(elem.clone()), &e.ty, e.span)?;
                    tys.push((n.clone(), elem));
                }
                self.note_field_types(&tys);
                (ExprKind::Struct(fields), Type::set(Type::Struct(tys)))
            }
            TermKind::RecordUpdate(r, f, v) => {
                let r = self.expr(r)?;
                let v = self.expr(v)?;
                let Type::Struct(fields) = self.u.resolve(&r.ty) else {
                    return Err(Diagnostic::type_error(
                        span,
                        format!(
                            "the record type of `[.. EXCEPT !.{} = ..]` is not known here (type the record \
                             earlier, e.g. in an invariant)",
                            f.name
                        ),
                    ));
                };
                let Some((_, fty)) = fields.iter().find(|(g, _)| *g == f.name) else {
                    return Err(Diagnostic::type_error(
                        f.span,
                        format!("the record has no field `{}`", f.name),
                    ));
                };
                self.expect(fty, &v.ty, v.span)?;
                let mut v = Some(v);
                let parts = fields
                    .iter()
                    .map(|(g, gty)| {
                        let value = if *g == f.name {
                            v.take().expect("field names are distinct")
                        } else {
                            Expr::new(
                                ExprKind::Field(Box::new(r.clone()), g.clone()),
                                gty.clone(),
                                span,
                            )
                        };
                        (g.clone(), value)
                    })
                    .collect();
                (ExprKind::Record(parts), r.ty.clone())
            }
            TermKind::Field(e, f) => {
                let e = self.expr(e)?;
                let ty = self.u.fresh();
                self.defer(Pending::Field {
                    record: e.ty.clone(),
                    field: f.name.clone(),
                    ty: ty.clone(),
                    span,
                })?;
                (ExprKind::Field(Box::new(e), f.name.clone()), ty)
            }
            TermKind::IfThenElse(branches, els) => {
                let mut out = self.expr(els)?;
                for (c, v) in branches.iter().rev() {
                    let c = self.pred(c)?;
                    let v = self.expr(v)?;
                    self.expect(&v.ty, &out.ty, span)?;
                    let ty = v.ty.clone();
                    out = Expr::new(
                        ExprKind::If(Box::new(c), Box::new(v), Box::new(out)),
                        ty,
                        span,
                    );
                }
                return Ok(out);
            }
            TermKind::Let(ids, defs, body) => {
                let n = self.locals.len();
                let r = self
                    .let_bindings(ids, defs)
                    .and_then(|b| Ok((b, self.expr(body)?)));
                self.pop_locals(n);
                let (bindings, body) = r?;
                let ty = body.ty.clone();
                (ExprKind::Let(bindings, Box::new(body)), ty)
            }
            TermKind::Unsupported(what) => return Err(Diagnostic::unsupported(span, what)),
        };
        Ok(Expr::new(kind, ty, span))
    }

    /// Record/struct fields, sorted by name; duplicates are an error.
    fn fields(
        &mut self,
        fields: &[(Ident, Term)],
    ) -> Result<Vec<(crate::syntax::ast::Name, Expr)>> {
        let mut out = Vec::with_capacity(fields.len());
        for (f, t) in fields {
            if out
                .iter()
                .any(|(n, _): &(crate::syntax::ast::Name, Expr)| *n == f.name)
            {
                return Err(Diagnostic::type_error(
                    f.span,
                    format!("field `{}` given twice", f.name),
                ));
            }
            out.push((f.name.clone(), self.expr(t)?));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    fn constant(&mut self, k: ConstKind, span: Span) -> Result<(ExprKind, Type)> {
        let int_set = Type::set(Type::Integer);
        Ok(match k {
            ConstKind::True => (ExprKind::Bool(true), Type::Bool),
            ConstKind::False => (ExprKind::Bool(false), Type::Bool),
            ConstKind::Btrue | ConstKind::Bfalse => {
                return Err(Diagnostic::type_error(
                    span,
                    format!(
                        "expected an expression, found a predicate `{}`",
                        snippet(span)
                    ),
                ));
            }
            ConstKind::EmptySet => (ExprKind::SetEnum(vec![]), Type::set(self.u.fresh())),
            // The empty sequence is the empty set; typing it as a set of any element type lets the
            // deprecated `<>` stand for `{}` as ProB allows (`x : POW(NAT) & x = <>`).
            ConstKind::EmptySeq => (ExprKind::SetEnum(vec![]), Type::set(self.u.fresh())),
            ConstKind::Integer => (ExprKind::Const(ExprConst::Integer), int_set),
            ConstKind::Natural => (ExprKind::Const(ExprConst::Natural), int_set),
            ConstKind::Natural1 => (ExprKind::Const(ExprConst::Natural1), int_set),
            ConstKind::Int => (ExprKind::Const(ExprConst::Int), int_set),
            ConstKind::Nat => (ExprKind::Const(ExprConst::Nat), int_set),
            ConstKind::Nat1 => (ExprKind::Const(ExprConst::Nat1), int_set),
            ConstKind::Bool => (ExprKind::Const(ExprConst::BoolSet), Type::set(Type::Bool)),
            ConstKind::String => (
                ExprKind::Const(ExprConst::StringSet),
                Type::set(Type::String),
            ),
            ConstKind::MaxInt => (ExprKind::Const(ExprConst::MaxInt), Type::Integer),
            ConstKind::MinInt => (ExprKind::Const(ExprConst::MinInt), Type::Integer),
        })
    }

    fn expr_op(&mut self, op: Op, args: &[Term], span: Span) -> Result<Expr> {
        use BinaryOp as B;
        use UnaryOp as U;
        let unary =
            |op: U, a: Expr, ty: Type| Expr::new(ExprKind::Unary(op, Box::new(a)), ty, span);
        let binary = |op: B, a: Expr, b: Expr, ty: Type| {
            Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, span)
        };
        if op == Op::BoolOf {
            arity(op, args, 1, span)?;
            let p = self.pred(&args[0])?;
            return Ok(Expr::new(ExprKind::BoolOf(Box::new(p)), Type::Bool, span));
        }
        // prj1/prj2 take one pair or two sets.
        if matches!(op, Op::Prj1 | Op::Prj2) && args.len() == 1 {
            let a = self.expr(&args[0])?;
            let (x, y) = (self.u.fresh(), self.u.fresh());
            self.expect(&Type::pair(x.clone(), y.clone()), &a.ty, span)?;
            return Ok(if op == Op::Prj1 {
                unary(U::PairFirst, a, x)
            } else {
                unary(U::PairSecond, a, y)
            });
        }
        let n = op_arity(op);
        arity(op, args, n, span)?;
        let mut es = Vec::with_capacity(n);
        for a in args {
            es.push(self.expr(a)?);
        }
        let mut it = es.into_iter();
        let a = it.next().expect("arity checked");
        let a_ty = a.ty.clone();
        if n == 1 {
            let (uop, ty) = self.unary_sig(op, &a_ty, span)?;
            return Ok(unary(uop, a, ty));
        }
        let b = it.next().expect("arity checked");
        let b_ty = b.ty.clone();
        let (bop, ty) = self.binary_sig(op, &a_ty, &b_ty, span)?;
        Ok(binary(bop, a, b, ty))
    }

    fn unary_sig(&mut self, op: Op, a: &Type, span: Span) -> Result<(UnaryOp, Type)> {
        use UnaryOp as U;
        let int = Type::Integer;
        let x = self.u.fresh();
        let y = self.u.fresh();
        let set_x = Type::set(x.clone());
        let rel = Type::relation(x.clone(), y.clone());
        let (uop, expected, result) = match op {
            Op::Neg => (U::Neg, int.clone(), int),
            Op::Succ => (U::Succ, int.clone(), int),
            Op::Pred => (U::Pred, int.clone(), int),
            Op::Max => (U::Max, Type::set(int.clone()), int),
            Op::Min => (U::Min, Type::set(int.clone()), int),
            Op::Card => (U::Card, set_x, int),
            Op::Pow => (U::Pow, set_x.clone(), Type::set(set_x)),
            Op::Pow1 => (U::Pow1, set_x.clone(), Type::set(set_x)),
            Op::Fin => (U::Fin, set_x.clone(), Type::set(set_x)),
            Op::Fin1 => (U::Fin1, set_x.clone(), Type::set(set_x)),
            Op::GenUnion => (U::GenUnion, Type::set(set_x.clone()), set_x),
            Op::GenInter => (U::GenInter, Type::set(set_x.clone()), set_x),
            Op::Dom => (U::Dom, rel, set_x),
            Op::Ran => (U::Ran, rel, Type::set(y)),
            Op::Id => (U::Id, set_x, Type::relation(x.clone(), x)),
            Op::Inverse => (U::Inverse, rel, Type::relation(y, x)),
            Op::Closure => (
                U::Closure,
                Type::relation(x.clone(), x.clone()),
                Type::relation(x.clone(), x),
            ),
            Op::Closure1 => (
                U::Closure1,
                Type::relation(x.clone(), x.clone()),
                Type::relation(x.clone(), x),
            ),
            Op::Fnc => (U::Fnc, rel, Type::relation(x, Type::set(y))),
            Op::Rel => (U::Rel, Type::relation(x.clone(), Type::set(y.clone())), rel),
            Op::Seq => (U::Seq, set_x, Type::set(Type::seq(x))),
            Op::Seq1 => (U::Seq1, set_x, Type::set(Type::seq(x))),
            Op::Iseq => (U::Iseq, set_x, Type::set(Type::seq(x))),
            Op::Iseq1 => (U::Iseq1, set_x, Type::set(Type::seq(x))),
            Op::Perm => (U::Perm, set_x, Type::set(Type::seq(x))),
            Op::Size => {
                self.defer(Pending::StringOrSeq {
                    ty: a.clone(),
                    span,
                })?;
                (U::Size, a.clone(), int)
            }
            Op::Rev => {
                self.defer(Pending::StringOrSeq {
                    ty: a.clone(),
                    span,
                })?;
                (U::Rev, a.clone(), a.clone())
            }
            Op::First => (U::First, Type::seq(x.clone()), x),
            Op::Last => (U::Last, Type::seq(x.clone()), x),
            Op::Front => (U::Front, Type::seq(x.clone()), Type::seq(x)),
            Op::Tail => (U::Tail, Type::seq(x.clone()), Type::seq(x)),
            Op::Conc => {
                // conc of a sequence of sequences (or of strings).
                self.defer(Pending::StringOrSeq {
                    ty: x.clone(),
                    span,
                })?;
                (U::Conc, Type::seq(x.clone()), x)
            }
            _ => return Err(no_signature(op, span)),
        };
        self.expect(&expected, a, span)?;
        Ok((uop, result))
    }

    fn binary_sig(&mut self, op: Op, a: &Type, b: &Type, span: Span) -> Result<(BinaryOp, Type)> {
        use BinaryOp as B;
        let int = Type::Integer;
        let x = self.u.fresh();
        let y = self.u.fresh();
        let z = self.u.fresh();
        let w = self.u.fresh();
        let set_x = Type::set(x.clone());
        let set_y = Type::set(y.clone());
        let rel = Type::relation(x.clone(), y.clone());
        let arrow = |bop: B| (bop, set_x.clone(), set_y.clone(), Type::set(rel.clone()));
        let (bop, ea, eb, result) = match op {
            Op::Add => (B::Add, int.clone(), int.clone(), int),
            Op::Div => (B::Div, int.clone(), int.clone(), int),
            Op::Mod => (B::Mod, int.clone(), int.clone(), int),
            Op::Power => (B::Power, int.clone(), int.clone(), int),
            Op::Interval => (B::Interval, int.clone(), int.clone(), Type::set(int)),
            // Integer subtraction or set difference: both operands and the result share one type.
            Op::Sub => (B::Sub, x.clone(), x.clone(), x.clone()),
            Op::Mul => {
                let result = self.u.fresh();
                self.defer(Pending::Mul {
                    left: a.clone(),
                    right: b.clone(),
                    result: result.clone(),
                    span,
                })?;
                (B::Mul, a.clone(), b.clone(), result)
            }
            Op::Union => (B::Union, set_x.clone(), set_x.clone(), set_x),
            Op::Inter => (B::Inter, set_x.clone(), set_x.clone(), set_x),
            Op::SetMinus => (B::SetMinus, set_x.clone(), set_x.clone(), set_x),
            Op::Maplet => (B::Maplet, x.clone(), y.clone(), Type::pair(x, y)),
            Op::Relation => arrow(B::Relation),
            Op::TotalRelation => arrow(B::TotalRelation),
            Op::SurjRelation => arrow(B::SurjRelation),
            Op::TotalSurjRelation => arrow(B::TotalSurjRelation),
            Op::PartialFunction => arrow(B::PartialFunction),
            Op::TotalFunction => arrow(B::TotalFunction),
            Op::PartialInjection => arrow(B::PartialInjection),
            Op::TotalInjection => arrow(B::TotalInjection),
            Op::PartialSurjection => arrow(B::PartialSurjection),
            Op::TotalSurjection => arrow(B::TotalSurjection),
            Op::PartialBijection => arrow(B::PartialBijection),
            Op::TotalBijection => arrow(B::TotalBijection),
            Op::DomRestrict => (B::DomRestrict, set_x, rel.clone(), rel),
            Op::DomSubtract => (B::DomSubtract, set_x, rel.clone(), rel),
            Op::RanRestrict => (B::RanRestrict, rel.clone(), set_y, rel),
            Op::RanSubtract => (B::RanSubtract, rel.clone(), set_y, rel),
            Op::Image => (B::Image, rel, set_x, set_y),
            Op::Override => (B::Override, rel.clone(), rel.clone(), rel),
            Op::DirectProduct => (
                B::DirectProduct,
                rel,
                Type::relation(x.clone(), z.clone()),
                Type::relation(x, Type::pair(y, z)),
            ),
            Op::Composition => (
                B::Composition,
                rel,
                Type::relation(y, z.clone()),
                Type::relation(x, z),
            ),
            Op::ParallelProduct => (
                B::ParallelProduct,
                rel,
                Type::relation(z.clone(), w.clone()),
                Type::relation(Type::pair(x, z), Type::pair(y, w)),
            ),
            Op::Prj1 => (
                B::Prj1,
                set_x,
                set_y,
                Type::relation(Type::pair(x.clone(), y), x),
            ),
            Op::Prj2 => (
                B::Prj2,
                set_x,
                set_y,
                Type::relation(Type::pair(x, y.clone()), y),
            ),
            Op::Iterate => (
                B::Iterate,
                Type::relation(x.clone(), x.clone()),
                int,
                Type::relation(x.clone(), x),
            ),
            Op::Concat => {
                self.defer(Pending::StringOrSeq {
                    ty: a.clone(),
                    span,
                })?;
                (B::Concat, a.clone(), a.clone(), a.clone())
            }
            Op::Prepend => (B::Prepend, x.clone(), Type::seq(x.clone()), Type::seq(x)),
            Op::Append => (B::Append, Type::seq(x.clone()), x.clone(), Type::seq(x)),
            Op::Take => (B::Take, Type::seq(x.clone()), int, Type::seq(x)),
            Op::Drop => (B::Drop, Type::seq(x.clone()), int, Type::seq(x)),
            _ => return Err(no_signature(op, span)),
        };
        self.expect(&ea, a, span)?;
        self.expect(&eb, b, span)?;
        Ok((bop, result))
    }
}

/// An operator reached a signature table that does not list it: a bug in bsolve, reported rather than
/// panicking.
fn no_signature(op: Op, span: Span) -> Diagnostic {
    Diagnostic::new(
        DiagKind::Internal,
        span,
        format!("no typing rule for operator {op:?} here"),
    )
}

/// Number of operands of an expression operator (predicate operators are handled by `pred_op`).
fn op_arity(op: Op) -> usize {
    match op {
        Op::Neg
        | Op::Succ
        | Op::Pred
        | Op::Max
        | Op::Min
        | Op::Card
        | Op::Pow
        | Op::Pow1
        | Op::Fin
        | Op::Fin1
        | Op::GenUnion
        | Op::GenInter
        | Op::Dom
        | Op::Ran
        | Op::Id
        | Op::Inverse
        | Op::Closure
        | Op::Closure1
        | Op::Fnc
        | Op::Rel
        | Op::Seq
        | Op::Seq1
        | Op::Iseq
        | Op::Iseq1
        | Op::Perm
        | Op::Size
        | Op::Rev
        | Op::First
        | Op::Last
        | Op::Front
        | Op::Tail
        | Op::Conc => 1,
        _ => 2,
    }
}

fn arity(op: Op, args: &[Term], n: usize, span: Span) -> Result<()> {
    if args.len() == n {
        Ok(())
    } else {
        Err(Diagnostic::syntax(
            span,
            format!(
                "operator {op:?} expects {n} operand(s), found {}",
                args.len()
            ),
        ))
    }
}

fn collect_conjuncts<'t>(t: &'t Term, out: &mut Vec<&'t Term>) {
    match &t.kind {
        TermKind::Op(Op::And, args) => args.iter().for_each(|a| collect_conjuncts(a, out)),
        _ => out.push(t),
    }
}

/// The type of the tuple `x |-> y |-> ...` of bound names (left-nested).
pub(super) fn tuple_type(names: &[TypedName]) -> Type {
    let mut it = names.iter();
    let first = it.next().map(|n| n.ty.clone()).unwrap_or(Type::Integer);
    it.fold(first, |acc, n| Type::pair(acc, n.ty.clone()))
}

/// `(x, y) = E` with distinct identifiers on the left and a right side that is not itself a tuple, as the
/// equations `x = prj1(E) & y = prj2(E)` (nested tuples likewise). Equivalent, and each identifier then
/// has an equation of its own that the solvers take as its definition (ProB models write
/// `(cardin, label) = MAXIMIZE(...)`): as one equation over a tuple, the constants were enumerated
/// instead. A tuple on the right is left alone (the solvers split `(x, y) = (a, b)` themselves).
fn tuple_definition(lhs: &Expr, rhs: &Expr, span: Span) -> Option<Vec<Pred>> {
    fn leaves<'e>(e: &'e Expr, out: &mut Vec<&'e Name>) -> bool {
        match &e.kind {
            ExprKind::Var(n) => {
                out.push(n);
                true
            }
            ExprKind::Binary(BinaryOp::Maplet, l, r) => leaves(l, out) && leaves(r, out),
            _ => false,
        }
    }
    fn split(lhs: &Expr, rhs: Expr, span: Span, out: &mut Vec<Pred>) {
        match &lhs.kind {
            ExprKind::Binary(BinaryOp::Maplet, l, r) => {
                let part = |op, e: &Expr| {
                    Expr::new(
                        ExprKind::Unary(op, Box::new(rhs.clone())),
                        e.ty.clone(),
                        span,
                    )
                };
                let (first, second) = (part(UnaryOp::PairFirst, l), part(UnaryOp::PairSecond, r));
                split(l, first, span, out);
                split(r, second, span, out);
            }
            _ => out.push(Pred::new(
                PredKind::Compare(CompareOp::Eq, Box::new(lhs.clone()), Box::new(rhs)),
                span,
            )),
        }
    }
    if !matches!(lhs.kind, ExprKind::Binary(BinaryOp::Maplet, ..))
        || matches!(rhs.kind, ExprKind::Binary(BinaryOp::Maplet, ..))
    {
        return None;
    }
    let mut names = Vec::new();
    if !leaves(lhs, &mut names) {
        return None;
    }
    let distinct: std::collections::BTreeSet<&Name> = names.iter().copied().collect();
    if distinct.len() != names.len() {
        return None;
    }
    let mut out = Vec::new();
    split(lhs, rhs.clone(), span, &mut out);
    Some(out)
}

/// `Some(true)` for the argument `1`, `Some(false)` for `2`: the indices that select a component of a
/// TLA+ pair.
pub(super) fn tuple_index(arg: &Expr) -> Option<bool> {
    match &arg.kind {
        ExprKind::Int(n) if *n == 1.into() => Some(true),
        ExprKind::Int(n) if *n == 2.into() => Some(false),
        _ => None,
    }
}
