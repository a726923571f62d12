//! Operators taking operators (`ChooseOne(S, P(_)) == CHOOSE x \in S : P(x) /\ ...`) and LAMBDA.
//!
//! A B definition takes values only, so a definition with an operator parameter is kept as TLA+ (a
//! `Template`: its module and position) and lowered anew at each use, with its operator parameters bound
//! to the use's arguments (`OpArg`): a `LAMBDA x : e`, lowered where it is written (so it reads the names
//! in scope there) with `x` replaced by the arguments at each application, or an operator's name. Its value
//! parameters are lowered as identifiers and then replaced by the arguments, as B expands a macro (and
//! like a macro, capture of the arguments' free names is not avoided). TLA2B has no such operators; TLC
//! evaluates them by substitution, as here.

use super::Role;
use super::expr::{ExprLowering, ident};
use super::instance::InstanceScope;
use crate::diag::{Diagnostic, Result, Span};
use crate::machine::definitions::Definitions;
use crate::machine::rewrite::Rewriter;
use crate::syntax::ast::{Name, Term};
use crate::tla::parse::{SourceModule, children, field_children};
use std::sync::Arc;
use tree_sitter::Node;

/// How deep templates may be instantiated inside one another (a template applying itself would not
/// stop).
const MAX_DEPTH: usize = 64;

/// A definition with operator parameters, kept to be lowered at each use.
pub struct Template {
    module: Arc<SourceModule>,
    /// The byte range of its `operator_definition` node.
    range: std::ops::Range<usize>,
    params: Vec<Param>,
    /// The instance it belongs to, if its module was instantiated (`instance`): its names resolve
    /// there at each use.
    pub(super) scope: Option<Arc<InstanceScope>>,
}

enum Param {
    Value(Name),
    Operator(Name),
}

/// What an operator parameter stands for in one instantiation.
#[derive(Clone)]
pub enum OpArg {
    /// `LAMBDA x, y : body`: the body lowered where the LAMBDA is written, `x` and `y` free in it.
    Lambda {
        params: Vec<Name>,
        body: Term,
        role: Role,
    },
    /// An operator of the module (or a standard one), by name.
    Named(Name),
}

/// The template of the `operator_definition` node `d` of `module`, when one of its parameters is an
/// operator (`P(_)`).
pub fn template(module: &Arc<SourceModule>, d: Node<'_>) -> Option<Template> {
    let params = field_children(d, "parameter");
    if params.iter().all(|p| p.kind() == "identifier") {
        return None;
    }
    let params = params
        .into_iter()
        .map(|p| {
            let name = p.child_by_field_name("name").unwrap_or(p);
            let name: Name = module.text(name).into();
            if p.kind() == "operator_declaration" {
                Param::Operator(name)
            } else {
                Param::Value(name)
            }
        })
        .collect();
    Some(Template {
        module: module.clone(),
        range: d.byte_range(),
        params,
        scope: None,
    })
}

impl ExprLowering<'_> {
    /// `name(args)` where `name` is a template: its body lowered with its parameters bound to the
    /// arguments.
    pub fn instantiate(
        &mut self,
        n: Node<'_>,
        name: &str,
        args: &[Node<'_>],
    ) -> Result<(Term, Role)> {
        let span = self.m.span(n);
        let template = self.g.templates.get(name).expect("a template");
        if template.params.len() != args.len() {
            return Err(Diagnostic::type_error(
                span,
                format!(
                    "`{name}` takes {} argument(s), not {}",
                    template.params.len(),
                    args.len()
                ),
            ));
        }
        if self.depth >= MAX_DEPTH {
            return Err(Diagnostic::unsupported(
                span,
                format!("`{name}` applied inside itself more than {MAX_DEPTH} deep (TLA+)"),
            ));
        }
        let module = template.module.clone();
        let range = template.range.clone();
        let scope = template.scope.as_deref().cloned();
        let kinds: Vec<(Name, bool)> = (template.params.iter())
            .map(|p| match p {
                Param::Value(n) => (n.clone(), false),
                Param::Operator(n) => (n.clone(), true),
            })
            .collect();
        let mut values = Rewriter::default();
        let mut op_args = Vec::new();
        let mut bound = Vec::new();
        for ((param, operator), arg) in kinds.into_iter().zip(args) {
            if operator {
                op_args.push((param, self.op_arg(*arg)?));
            } else {
                values.idents.insert(param.clone(), self.expr(*arg)?);
                bound.push(param);
            }
        }
        let def = module
            .tree
            .root_node()
            .descendant_for_byte_range(range.start, range.end)
            .filter(|d| d.kind() == "operator_definition")
            .ok_or_else(|| {
                Diagnostic::syntax(span, format!("the definition of `{name}` is lost"))
            })?;
        let body = def
            .child_by_field_name("definition")
            .ok_or_else(|| Diagnostic::syntax(module.span(def), "definition without a body"))?;
        let mut nested = ExprLowering {
            m: &module,
            g: &mut *self.g,
            bound,
            // Arguments are substituted into the instance's term.
            hygienic: true,
            enclosing: self.bound.iter().chain(&self.enclosing).cloned().collect(),
            renamed: Vec::new(),
            op_args,
            depth: self.depth + 1,
        };
        let defs_before = nested.g.defs.len();
        // The body's names resolve in the template's instance, the arguments (lowered above) where
        // they were written.
        let outer_scope = std::mem::replace(&mut nested.g.scope, scope);
        let lowered = nested.lower(body);
        nested.g.scope = outer_scope;
        let (term, role) = lowered?;
        // The LET definitions of this instance (fresh names: each instance has its own) read the
        // template's value parameters too: they are expanded in the instance's term before the
        // arguments replace the parameters. Their own bodies stay as they are: a recursive one's
        // wrapper is also used inside its constant, where the lifted parameters are bound.
        let new_defs = self.g.defs[defs_before..].to_vec();
        let term = Definitions::new(&new_defs).expand_term(&term)?;
        Ok((values.term(&term), role))
    }

    /// An argument given for an operator parameter: a LAMBDA, an operator's name, or an operator
    /// parameter of the template being lowered (passed on).
    fn op_arg(&mut self, arg: Node<'_>) -> Result<OpArg> {
        match arg.kind() {
            "lambda" => {
                let parts = children(arg);
                let (body, params) = parts
                    .split_last()
                    .ok_or_else(|| Diagnostic::syntax(self.m.span(arg), "empty LAMBDA"))?;
                let params: Vec<Name> = params.iter().map(|p| self.m.text(*p).into()).collect();
                let depth = self.bound.len();
                self.bound.extend(params.iter().cloned());
                let lowered = self.lower(*body);
                self.bound.truncate(depth);
                let (body, role) = lowered?;
                Ok(OpArg::Lambda { params, body, role })
            }
            "identifier_ref" => {
                let name = self.m.text(arg);
                if let Some((_, passed)) = self.op_args.iter().rev().find(|(p, _)| **p == *name) {
                    return Ok(passed.clone());
                }
                // A LET operator is known under its fresh name wherever the template is lowered.
                if let Some((_, renamed)) =
                    self.renamed.iter().rev().find(|(tla, _)| **tla == *name)
                {
                    return Ok(OpArg::Named(renamed.clone()));
                }
                // So is an instance's definition under its B name.
                match (self.g.scope.as_ref()).and_then(|s| s.definitions.get(name)) {
                    Some(b_name) => Ok(OpArg::Named(b_name.clone())),
                    None => Ok(OpArg::Named(name.into())),
                }
            }
            // `\intersect` given for `op(_, _)`: `LAMBDA a, b : a \intersect b`.
            "infix_op_symbol" => {
                let symbol = children(arg)
                    .into_iter()
                    .next()
                    .ok_or_else(|| Diagnostic::syntax(self.m.span(arg), "empty operator symbol"))?;
                let span = self.m.span(arg);
                let params: Vec<Name> = vec!["bsolve_lhs".into(), "bsolve_rhs".into()];
                let (body, role) = self.infix_values(
                    symbol,
                    ident(&params[0], span),
                    ident(&params[1], span),
                    span,
                )?;
                Ok(OpArg::Lambda { params, body, role })
            }
            _ => Err(Diagnostic::unsupported(
                self.m.span(arg),
                "this argument for an operator parameter (TLA+: a LAMBDA, an operator's name or an infix operator symbol)",
            )),
        }
    }

    /// `P(args)` where `P` is an operator parameter of the template being lowered.
    pub fn apply_op_arg(
        &mut self,
        n: Node<'_>,
        op_arg: OpArg,
        args: Vec<Term>,
    ) -> Result<(Term, Role)> {
        let span: Span = self.m.span(n);
        match op_arg {
            OpArg::Lambda { params, body, role } => {
                if params.len() != args.len() {
                    return Err(Diagnostic::type_error(
                        span,
                        format!(
                            "a LAMBDA of {} parameter(s) applied to {}",
                            params.len(),
                            args.len()
                        ),
                    ));
                }
                let mut rewriter = Rewriter::default();
                rewriter.idents.extend(params.into_iter().zip(args));
                Ok((rewriter.term(&body), role))
            }
            OpArg::Named(name) => self.reference(n, name.to_string(), args),
        }
    }
}
