//! Typing and lowering of substitutions.

use super::Type;
use super::external::ExternalKind;
use super::infer::{Checker, GlobalKind, Local, VAR_IDENTIFIER};
use super::lower::{snippet, tuple_type};
use super::resolve::Pending;
use crate::diag::{Diagnostic, Result, Span};
use crate::ir::{self, AssignTarget, TypedName};
use crate::syntax::ast::{Ident, Subst, SubstKind, Term, TermKind};

impl Checker {
    pub(super) fn subst(&mut self, s: &Subst) -> Result<ir::Subst> {
        use ir::SubstKind as K;
        let span = s.span;
        let kind = match &s.kind {
            SubstKind::Skip => K::Skip,
            SubstKind::Assign(lhs, rhs) => {
                if lhs.len() != rhs.len() {
                    return Err(Diagnostic::type_error(
                        span,
                        format!(
                            "{} target(s) but {} value(s) in assignment",
                            lhs.len(),
                            rhs.len()
                        ),
                    ));
                }
                let mut pairs = Vec::with_capacity(lhs.len());
                for (l, r) in lhs.iter().zip(rhs) {
                    let (target, ty) = self.target(l)?;
                    let e = self.expr(r)?;
                    self.expect(&ty, &e.ty, r.span)?;
                    pairs.push((target, e));
                }
                K::Assign(pairs)
            }
            SubstKind::BecomesElementOf(ids, set) => {
                let names = self.written(ids)?;
                let e = self.expr(set)?;
                self.expect(&Type::set(tuple_type(&names)), &e.ty, span)?;
                K::BecomesElementOf(names, e)
            }
            SubstKind::BecomesSuchThat(ids, p) => {
                let names = self.written(ids)?;
                let n = self.locals.len();
                for name in &names {
                    self.locals.push(Local {
                        name: format!("{}$0", name.name).into(),
                        ty: name.ty.clone(),
                        writable: false,
                        role: "before-value",
                    });
                }
                let p = self.pred(p);
                self.pop_locals(n);
                K::BecomesSuchThat(names, p?)
            }
            SubstKind::OpCall(outs, op, args)
                if outs.is_empty()
                    && self.external(&op.name) == Some(ExternalKind::SkipSubstitution) =>
            {
                for a in args {
                    self.expr(a)?;
                }
                K::Skip
            }
            SubstKind::OpCall(outs, op, args) => {
                let Some(sig) = self.ops.get(&op.name).cloned() else {
                    return Err(Diagnostic::type_error(
                        op.span,
                        format!("unknown operation `{}`", op.name),
                    ));
                };
                if sig.params.len() != args.len() || sig.outputs.len() != outs.len() {
                    return Err(Diagnostic::type_error(
                        span,
                        format!(
                            "operation `{}` takes {} argument(s) and {} output(s), given {} and {}",
                            op.name,
                            sig.params.len(),
                            sig.outputs.len(),
                            args.len(),
                            outs.len()
                        ),
                    ));
                }
                let outs = self.written(outs)?;
                for (o, t) in outs.iter().zip(&sig.outputs) {
                    self.expect(&o.ty, t, o.span)?;
                }
                let mut es = Vec::with_capacity(args.len());
                for (a, t) in args.iter().zip(&sig.params) {
                    let e = self.expr(a)?;
                    self.expect(t, &e.ty, a.span)?;
                    es.push(e);
                }
                K::OpCall(outs, op.name.clone(), es)
            }
            SubstKind::Parallel(ss) => K::Parallel(self.substs(ss)?),
            SubstKind::Sequence(ss) => K::Sequence(self.substs(ss)?),
            SubstKind::Choice(ss) => K::Choice(self.substs(ss)?),
            SubstKind::Any(ids, p, body) => {
                let (names, (p, body)) = self.with_bound(ids, "ANY identifier", |c, _| {
                    Ok((c.pred(p)?, c.subst(body)?))
                })?;
                K::Any(names, p, Box::new(body))
            }
            SubstKind::Let(ids, p, body) => {
                let n = self.locals.len();
                let r = self
                    .let_bindings(ids, p)
                    .and_then(|b| Ok((b, self.subst(body)?)));
                self.pop_locals(n);
                let (bindings, body) = r?;
                K::Let(bindings, Box::new(body))
            }
            SubstKind::Var(ids, body) => {
                let (names, body) = self.with_bound(ids, VAR_IDENTIFIER, |c, _| c.subst(body))?;
                K::Var(names, Box::new(body))
            }
            SubstKind::Pre(p, body) => K::Pre(self.pred(p)?, Box::new(self.subst(body)?)),
            SubstKind::Assert(p, body) => K::Assert(self.pred(p)?, Box::new(self.subst(body)?)),
            SubstKind::If(bs, els) => K::If(self.branches(bs)?, self.else_branch(els)?),
            SubstKind::Select(bs, els) => K::Select(self.branches(bs)?, self.else_branch(els)?),
            SubstKind::Case(e, bs, els) => {
                let e = self.expr(e)?;
                let mut out = Vec::with_capacity(bs.len());
                for (values, body) in bs {
                    let mut vs = Vec::with_capacity(values.len());
                    for v in values {
                        let v = self.expr(v)?;
                        self.expect(&e.ty, &v.ty, v.span)?;
                        vs.push(v);
                    }
                    out.push((vs, self.subst(body)?));
                }
                K::Case(e, out, self.else_branch(els)?)
            }
            SubstKind::While {
                cond,
                body,
                invariant,
                variant,
            } => {
                let cond = self.pred(cond)?;
                let body = self.subst(body)?;
                let invariant = self.pred(invariant)?;
                let variant = self.expr(variant)?;
                self.expect(&Type::Integer, &variant.ty, variant.span)?;
                K::While {
                    cond,
                    body: Box::new(body),
                    invariant,
                    variant,
                }
            }
        };
        Ok(ir::Subst { kind, span })
    }

    fn substs(&mut self, ss: &[Subst]) -> Result<Vec<ir::Subst>> {
        ss.iter().map(|s| self.subst(s)).collect()
    }

    fn branches(&mut self, bs: &[(Term, Subst)]) -> Result<Vec<(ir::Pred, ir::Subst)>> {
        bs.iter()
            .map(|(c, s)| Ok((self.pred(c)?, self.subst(s)?)))
            .collect()
    }

    fn else_branch(&mut self, els: &Option<Box<Subst>>) -> Result<Option<Box<ir::Subst>>> {
        els.as_ref()
            .map(|s| Ok(Box::new(self.subst(s)?)))
            .transpose()
    }

    /// Identifiers written by `x :: S`, `x : (P)` or `x <-- op`, with their types.
    fn written(&mut self, ids: &[Ident]) -> Result<Vec<TypedName>> {
        ids.iter()
            .map(|id| {
                let ty = self.writable(id)?;
                Ok(TypedName {
                    name: id.name.clone(),
                    ty,
                    span: id.span,
                })
            })
            .collect()
    }

    /// The type of an identifier that may be assigned: a variable, an operation output or parameter, or a
    /// local (VAR, ANY, LET) identifier.
    fn writable(&mut self, id: &Ident) -> Result<Type> {
        if let Some(l) = self.locals.iter().rev().find(|l| l.name == id.name) {
            if !l.writable {
                return Err(Diagnostic::type_error(
                    id.span,
                    format!("cannot assign to {} `{}`", l.role, id.name),
                ));
            }
            return Ok(l.ty.clone());
        }
        match self.global_kind(&id.name) {
            Some(
                kind @ (GlobalKind::Set
                | GlobalKind::SetParam
                | GlobalKind::Element
                | GlobalKind::Constant
                | GlobalKind::Param),
            ) => Err(Diagnostic::type_error(
                id.span,
                format!("cannot assign to {} `{}`", kind.describe(), id.name),
            )),
            _ => {
                let t = Term::new(TermKind::Ident(id.name.clone()), id.span);
                Ok(self.expr(&t)?.ty)
            }
        }
    }

    /// The left side of an assignment: `x`, `f(i)` (nested), or `r'a`.
    fn target(&mut self, t: &Term) -> Result<(AssignTarget, Type)> {
        match &t.kind {
            TermKind::Ident(n) => {
                let id = Ident {
                    name: n.clone(),
                    span: t.span,
                };
                let ty = self.writable(&id)?;
                Ok((
                    AssignTarget::Var(TypedName {
                        name: n.clone(),
                        ty: ty.clone(),
                        span: t.span,
                    }),
                    ty,
                ))
            }
            TermKind::Call(f, args) => {
                let (f, fty) = self.target(f)?;
                let arg = self.tuple(args, t.span)?;
                let result = self.u.fresh();
                self.expect(
                    &Type::relation(arg.ty.clone(), result.clone()),
                    &fty,
                    t.span,
                )?;
                Ok((AssignTarget::Apply(Box::new(f), arg), result))
            }
            TermKind::Field(r, field) => {
                let (r, rty) = self.target(r)?;
                let ty = self.u.fresh();
                self.defer(Pending::Field {
                    record: rty,
                    field: field.name.clone(),
                    ty: ty.clone(),
                    span: t.span,
                })?;
                Ok((AssignTarget::Field(Box::new(r), field.name.clone()), ty))
            }
            _ => Err(bad_target(t.span)),
        }
    }
}

fn bad_target(span: Span) -> Diagnostic {
    Diagnostic::type_error(span, format!("cannot assign to `{}`", snippet(span)))
}
