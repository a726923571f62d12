//! Recursive definitions: `RECURSIVE Op(_, _)` operators and functions defined in terms of themselves
//! (`f[n \in S] == ... f[n - 1] ...`), at module level or in a LET.
//!
//! A B definition is a macro, so a recursive one would never stop expanding. As TLA2B does, each becomes
//! a constant function instead — `Op__rec = %(p, q).(p = p & q = q | body)` among the PROPERTIES — which
//! the interpreter keeps symbolic and applies on demand (memoised), and the definition `Op(p, q) ==
//! Op__rec(p, q)` stands for it, so that the body's own calls are applications of the constant.
//!
//! What the body reads besides its parameters — the state variables, and in a LET the names bound
//! around it (the enclosing operator's parameters, quantified variables) — becomes leading parameters of
//! the constant, passed by the definition at each use: `Op(p) == Op__rec(x, y, p)`. Inside the lambda
//! these parameters have the variables' own names, so the expanded body reads them unchanged. The
//! equations `p = p` only type the parameters; B infers their types from the body, as TLA2B infers
//! them from the module.

use super::Role;
use super::expr::{ExprLowering, coerce, conjunction, ident, op, term};
use crate::diag::{Diagnostic, Result, Span};
use crate::machine::definitions::Definitions;
use crate::machine::rewrite::{Rewriter, free_idents};
use crate::syntax::ast::{
    self, Definition, DefinitionBody, Ident, Name, Op, QuantExprKind, Subst, Term, TermKind,
};
use tree_sitter::Node;

impl ExprLowering<'_> {
    /// The definition `d` (an `operator_definition` or a `function_definition`) of `name`, which refers
    /// to itself (`tla_name` is how its body does): the constant it stands for goes to the PROPERTIES
    /// (`Globals::recursive_constants`), the definition returned applies it.
    pub fn recursive_definition(
        &mut self,
        d: Node<'_>,
        name: Name,
        tla_name: &str,
    ) -> Result<(Definition, Role)> {
        let span = self.m.span(d);
        // The names bound around a LET definition, which its body may read (directly, or through an
        // operator passed to the template it is in).
        let around: Vec<Name> = self.bound.iter().chain(&self.enclosing).cloned().collect();
        // Known as an operator of values while the body is lowered: its own uses are applications.
        self.g.roles.insert(name.clone(), Role::Expr);
        let function = d.kind() == "function_definition";
        let (def, role) = if function {
            self.function_lambda(d, name.clone())?
        } else {
            self.operator_definition(d, name.clone())?
        };
        let DefinitionBody::Term(body) = def.body else {
            return Err(Diagnostic::syntax(
                span,
                "a TLA+ definition lowers to a term",
            ));
        };
        let body = coerce((body, role), Role::Expr);
        let expanded = self.g.expand(&body)?;
        let free = free_idents(&expanded);
        if let Some(primed) = free.iter().find(|n| n.ends_with('\'')) {
            return Err(Diagnostic::unsupported(
                span,
                format!(
                    "recursive definition `{tla_name}` reading the primed variable `{primed}` (TLA+)"
                ),
            ));
        }
        let params: Vec<&Name> = def.params.iter().map(|p| &p.name).collect();
        let mut lifted: Vec<Ident> = Vec::new();
        let candidates = around
            .iter()
            .chain(self.g.variables.iter().map(|v| &v.name));
        for n in candidates {
            if free.contains(n) && !params.contains(&n) && !lifted.iter().any(|l| l.name == *n) {
                lifted.push(Ident {
                    name: n.clone(),
                    span,
                });
            }
        }
        let constant: Name = format!("{name}__rec").into();
        let args = |ids: &[Ident]| ids.iter().map(|i| ident(&i.name, span)).collect::<Vec<_>>();
        // A function `%x.(x : S | e)` with lifted names `y` becomes `%(y, x).(y = y & x : S | e)`,
        // applied by the definition `f(x) == f__rec(y, x)`: a constant giving a function per `y` would
        // be listed whole when its domain is finite, each element asking for the function again.
        let (value, wrapper_params, applied) = match body.kind {
            TermKind::QuantExpr(QuantExprKind::Lambda, ids, domain, value) if function => {
                if lifted.is_empty() {
                    let value = lambda(ids, *domain, *value, span);
                    (value, Vec::new(), ident(&constant, span))
                } else {
                    let all: Vec<Ident> = lifted.iter().chain(&ids).cloned().collect();
                    let domain = conjunction(vec![typing(&lifted, span), *domain], span);
                    let applied = call(&constant, args(&all), span);
                    (lambda(all, domain, *value, span), ids, applied)
                }
            }
            kind => {
                let ids: Vec<Ident> = lifted.iter().chain(&def.params).cloned().collect();
                let applied = call(&constant, args(&ids), span);
                let domain = typing(&ids, span);
                (
                    lambda(ids, domain, term(kind, body.span), span),
                    def.params,
                    applied,
                )
            }
        };
        self.g.recursive_constants.push((
            Ident {
                name: constant,
                span,
            },
            value,
        ));
        let wrapper = Definition {
            name: def.name,
            params: wrapper_params,
            body: DefinitionBody::Term(applied),
        };
        Ok((wrapper, Role::Expr))
    }
}

/// `i = i` for each identifier: it types them (B infers the type from the lambda's body) and admits every
/// value of the type.
fn typing(ids: &[Ident], span: Span) -> Term {
    let equations = ids
        .iter()
        .map(|i| {
            op(
                Op::Eq,
                vec![ident(&i.name, span), ident(&i.name, span)],
                span,
            )
        })
        .collect();
    conjunction(equations, span)
}

fn lambda(ids: Vec<Ident>, domain: Term, body: Term, span: Span) -> Term {
    term(
        TermKind::QuantExpr(QuantExprKind::Lambda, ids, Box::new(domain), Box::new(body)),
        span,
    )
}

fn call(f: &str, args: Vec<Term>, span: Span) -> Term {
    term(TermKind::Call(Box::new(ident(f, span)), args), span)
}

/// The recursive constants `m` uses, with their values: those that only unused definitions name are
/// left out, as B leaves an unused definition unchecked — the types of their parameters would be
/// inferred from no use, and a definition used nowhere must not make the machine fail. A use is an
/// occurrence, after expanding the definitions, in the invariant, the assertions (ASSUMEs), the state
/// constraint, the initialisation, an operation, or the value of a constant used. When the expansion
/// fails, every constant is kept (the type checker then reports the failure).
pub(super) fn used_constants(
    m: &ast::Machine,
    constants: Vec<(Ident, Term)>,
) -> Vec<(Ident, Term)> {
    let defs = Definitions::new(&m.definitions);
    let constraint = defs.get("TLC_CONSTRAINT").and_then(|d| match &d.body {
        DefinitionBody::Term(t) => Some(t),
        _ => None,
    });
    let mut terms: Vec<Term> = Vec::new();
    let mut substs: Vec<Subst> = Vec::new();
    for t in m.invariant.iter().chain(&m.assertions).chain(constraint) {
        match defs.expand_term(t) {
            Ok(e) => terms.push(e),
            Err(_) => return constants,
        }
    }
    for s in m
        .initialisation
        .iter()
        .chain(m.operations.iter().map(|o| &o.body))
    {
        match defs.expand_subst(s) {
            Ok(e) => substs.push(e),
            Err(_) => return constants,
        }
    }
    let mut used = vec![false; constants.len()];
    loop {
        let mut found = false;
        for (k, (c, value)) in constants.iter().enumerate() {
            if used[k] {
                continue;
            }
            // An occurrence is free (the lambdas' own parameters never take a constant's name):
            // renaming it changes the tree.
            let mut probe = Rewriter::default();
            probe
                .idents
                .insert(c.name.clone(), ident("recursion__probe", c.span));
            let occurs = terms.iter().any(|t| probe.term(t) != *t)
                || substs.iter().any(|s| probe.subst(s) != *s);
            if occurs {
                used[k] = true;
                found = true;
                match defs.expand_term(value) {
                    Ok(e) => terms.push(e),
                    Err(_) => return constants,
                }
            }
        }
        if !found {
            break;
        }
    }
    (constants.into_iter().zip(used))
        .filter_map(|(c, used)| used.then_some(c))
        .collect()
}
