//! Lowering TLA+ expressions to B terms.
//!
//! TLA+ does not separate predicates from values; B does. Every node is lowered in its *natural* role
//! (`Role::Pred` for connectives, comparisons and quantifiers, `Role::Expr` for the rest, a definition's
//! role for its uses) and coerced where the context wants the other one: a value where a predicate is
//! wanted becomes `v = TRUE`, a predicate where a value is wanted becomes `bool(P)` (as TLA2B does).
//!
//! Operators with parameters, LET definitions and constants become B DEFINITIONS, expanded as macros by
//! the type checker: they are used inside the scope of the quantifiers around their use, which is what
//! TLA+'s static scoping gives since TLA+ forbids shadowing.

use super::{Globals, Role, Symbol};
use crate::diag::{Diagnostic, Result, Span};
use crate::syntax::ast::{
    ConstKind, Definition, DefinitionBody, Ident, Name, Op, Quant, Term, TermKind,
};
use crate::tla::parse::{SourceModule, any_node, children, field_children};
use num_bigint::BigInt;
use tree_sitter::Node;

/// What the B name of a LET definition has after its TLA+ name (`new__let3`).
pub(super) const LOCAL_MARK: &str = "__let";

/// Whether a B definition name is that of a LET definition.
pub(super) fn is_local(name: &str) -> bool {
    name.contains(LOCAL_MARK)
}

/// What the B name of a bound identifier renamed apart has after its TLA+ name (`i__h7`).
const HYGIENE_MARK: &str = "__h";

/// Lowers the expressions of one module; `bound` holds the identifiers bound around the current node (by
/// their B names) and `renamed` the LET definitions in scope, by their TLA+ name and their B definition's
/// name.
///
/// B expands definitions as macros: an argument is substituted into the body as it is. A TLA+ operator
/// is no macro: in `Has(v) == \E i \in S : i = v`, the use `Has(i)` under another `i` means that outer
/// `i`, which textual substitution would capture. TLA+ forbids a bound identifier to hide another one in
/// scope (SANY's "multiply-defined symbol"), so capture arises only where a body is substituted into:
/// inside an operator with parameters (`hygienic`), each bound identifier gets a B name of its own
/// (`i__h7`), which no argument can mention, and every use in its scope (LET definitions included) is
/// lowered to that name.
pub(super) struct ExprLowering<'a> {
    pub m: &'a SourceModule,
    pub g: &'a mut Globals,
    pub bound: Vec<Name>,
    /// Inside the body of an operator with parameters: bound identifiers are renamed apart.
    pub hygienic: bool,
    /// Inside a template's instance (`higher_order`): the names bound around its use, which the
    /// operators passed to it may read.
    pub enclosing: Vec<Name>,
    pub renamed: Vec<(Name, Name)>,
    /// The operator parameters of the template being lowered, with what each stands for
    /// (`higher_order`).
    pub op_args: Vec<(Name, super::higher_order::OpArg)>,
    /// How many templates are being lowered inside one another.
    pub depth: usize,
}

pub(super) fn term(kind: TermKind, span: Span) -> Term {
    Term::new(kind, span)
}

pub(super) fn op(o: Op, args: Vec<Term>, span: Span) -> Term {
    term(TermKind::Op(o, args), span)
}

pub(super) fn ident(name: &str, span: Span) -> Term {
    term(TermKind::Ident(name.into()), span)
}

/// `t` in role `want`, coerced from its natural role `have`.
pub(super) fn coerce((t, have): (Term, Role), want: Role) -> Term {
    let span = t.span;
    match (have, want) {
        (Role::Pred, Role::Expr) => op(Op::BoolOf, vec![t], span),
        (Role::Expr, Role::Pred) => op(
            Op::Eq,
            vec![t, term(TermKind::Const(ConstKind::True), span)],
            span,
        ),
        _ => t,
    }
}

/// A conjunction of the terms (`btrue` when there are none).
pub(super) fn conjunction(mut ts: Vec<Term>, span: Span) -> Term {
    match ts.len() {
        0 => term(TermKind::Const(ConstKind::Btrue), span),
        1 => ts.pop().expect("one element"),
        _ => op(Op::And, ts, span),
    }
}

impl ExprLowering<'_> {
    pub(super) fn span(&self, n: Node<'_>) -> Span {
        self.m.span(n)
    }

    pub(super) fn text(&self, n: Node<'_>) -> &str {
        self.m.text(n)
    }

    pub(super) fn unsupported(&self, n: Node<'_>, what: &str) -> Diagnostic {
        Diagnostic::unsupported(self.span(n), format!("{what} (TLA+)"))
    }

    pub fn pred(&mut self, n: Node<'_>) -> Result<Term> {
        Ok(coerce(self.lower(n)?, Role::Pred))
    }

    pub fn expr(&mut self, n: Node<'_>) -> Result<Term> {
        Ok(coerce(self.lower(n)?, Role::Expr))
    }

    pub(super) fn field<'t>(&self, n: Node<'t>, name: &str) -> Result<Node<'t>> {
        n.child_by_field_name(name).ok_or_else(|| {
            Diagnostic::syntax(
                self.span(n),
                format!("`{}` without its `{name}` part", n.kind()),
            )
        })
    }

    /// `n` in its natural role.
    pub fn lower(&mut self, n: Node<'_>) -> Result<(Term, Role)> {
        let span = self.span(n);
        let pred = |t| Ok((t, Role::Pred));
        let expr = |t| Ok((t, Role::Expr));
        match n.kind() {
            "parentheses" => self.lower(self.only_child(n)?),
            "nat_number" => {
                let digits = self.text(n);
                let value: BigInt = digits
                    .parse()
                    .map_err(|_| Diagnostic::syntax(span, format!("bad number `{digits}`")))?;
                expr(term(TermKind::Int(value), span))
            }
            "string" => expr(term(TermKind::Str(unescape(self.text(n))), span)),
            "boolean" => pred(term(
                TermKind::Const(if self.text(n) == "TRUE" {
                    ConstKind::Btrue
                } else {
                    ConstKind::Bfalse
                }),
                span,
            )),
            "boolean_set" => expr(term(TermKind::Const(ConstKind::Bool), span)),
            "string_set" => expr(term(TermKind::Const(ConstKind::String), span)),
            "nat_number_set" | "int_number_set" if self.g.renames.contains_key(self.text(n)) => {
                expr(ident(&self.g.renames[self.text(n)], span))
            }
            "nat_number_set" | "int_number_set" if self.g.overridden.contains(self.text(n)) => {
                expr(ident(self.text(n), span))
            }
            "nat_number_set" => expr(term(TermKind::Const(ConstKind::Natural), span)),
            "int_number_set" => expr(term(TermKind::Const(ConstKind::Integer), span)),
            "identifier_ref" => self.reference(n, self.text(n).to_string(), Vec::new()),
            "bound_op" => {
                let name = self.field(n, "name")?;
                let args = field_children(n, "parameter");
                let text = self.text(name).to_string();
                let op_arg = self.op_args.iter().rev().find(|(p, _)| **p == *text);
                if let Some((_, op_arg)) = op_arg.cloned() {
                    let mut lowered = Vec::with_capacity(args.len());
                    for a in &args {
                        lowered.push(self.expr(*a)?);
                    }
                    return self
                        .apply_op_arg(name, op_arg, lowered)
                        .map(|(t, r)| (Term { span, ..t }, r));
                }
                // Inside an instance, its own templates go by their B names.
                let key = (self.g.scope.as_ref())
                    .and_then(|s| s.definitions.get(text.as_str()).cloned())
                    .map_or_else(|| text.clone(), |b| b.to_string());
                if self.g.templates.contains_key(key.as_str()) && self.bound_name(&text).is_none() {
                    return self
                        .instantiate(name, &key, &args)
                        .map(|(t, r)| (Term { span, ..t }, r));
                }
                let mut lowered = Vec::with_capacity(args.len());
                for a in &args {
                    lowered.push(self.expr(*a)?);
                }
                self.reference(name, self.text(name).to_string(), lowered)
                    .map(|(t, r)| (Term { span, ..t }, r))
            }
            "conj_list" | "disj_list" => {
                let o = if n.kind() == "conj_list" {
                    Op::And
                } else {
                    Op::Or
                };
                let mut items = Vec::new();
                for item in children(n) {
                    let inner = children(item)
                        .into_iter()
                        .find(|c| !matches!(c.kind(), "bullet_conj" | "bullet_disj"))
                        .ok_or_else(|| {
                            Diagnostic::syntax(self.span(item), "empty junction item")
                        })?;
                    items.push(self.pred(inner)?);
                }
                pred(if items.len() == 1 {
                    items.pop().expect("one item")
                } else {
                    op(o, items, span)
                })
            }
            "bound_infix_op" => self.infix(n),
            "bound_prefix_op" => self.prefix(n),
            "bound_postfix_op" => {
                let symbol = self.field(n, "symbol")?;
                if symbol.kind() != "prime" {
                    return Err(self.unsupported(
                        symbol,
                        &format!("postfix operator `{}`", self.text(symbol)),
                    ));
                }
                let (inner, role) = self.lower(self.field(n, "lhs")?)?;
                Ok((self.g.prime(inner)?, role))
            }
            "bounded_quantification" => {
                let quant = self.field(n, "quantifier")?;
                let q = if quant.kind() == "forall" {
                    Quant::Forall
                } else {
                    Quant::Exists
                };
                let bounds = field_children(n, "bound");
                let body = self.field(n, "expression")?;
                let depth = self.bound.len();
                let (ids, memberships) = self.bounds(&bounds)?;
                let body = self.pred(body);
                self.bound.truncate(depth);
                let body = body?;
                let guard = conjunction(memberships, span);
                let body = match q {
                    Quant::Forall => op(Op::Implies, vec![guard, body], span),
                    Quant::Exists => op(Op::And, vec![guard, body], span),
                };
                pred(term(TermKind::Quantifier(q, ids, Box::new(body)), span))
            }
            "unbounded_quantification" => {
                let quant = self.field(n, "quantifier")?;
                let q = match quant.kind() {
                    "forall" => Quant::Forall,
                    "exists" => Quant::Exists,
                    _ => return Err(self.unsupported(quant, "temporal quantifier")),
                };
                let mut ids: Vec<Ident> = field_children(n, "intro")
                    .into_iter()
                    .filter(|c| c.kind() == "identifier")
                    .map(|c| Ident {
                        name: self.text(c).into(),
                        span: self.span(c),
                    })
                    .collect();
                let depth = self.bound.len();
                self.bind(&mut ids);
                let body = self.pred(self.field(n, "expression")?);
                self.bound.truncate(depth);
                pred(term(TermKind::Quantifier(q, ids, Box::new(body?)), span))
            }
            "choose" => {
                let intro = self.field(n, "intro")?;
                let set = n
                    .child_by_field_name("set")
                    .ok_or_else(|| self.unsupported(n, "CHOOSE without a bounding set"))?;
                let set = self.expr(set)?;
                let (ids, member) = self.binder(intro, set)?;
                let body = self.pred(self.field(n, "expression")?);
                self.bound.truncate(self.bound.len() - ids.len());
                let body = body?;
                let choice = self.comprehension(ids, member, body, span);
                self.g.uses_choose = true;
                expr(term(
                    TermKind::Call(Box::new(ident("CHOOSE", span)), vec![choice]),
                    span,
                ))
            }
            "set_filter" => {
                let generator = self.field(n, "generator")?;
                let (mut ids, mut memberships) = self.bounds(&[generator])?;
                let filter = self.pred(self.field(n, "filter")?);
                self.bound.truncate(self.bound.len() - ids.len());
                memberships.push(filter?);
                let (ids, member) = (std::mem::take(&mut ids), conjunction(memberships, span));
                expr(self.set_of(ids, member, span))
            }
            "set_map" => {
                let generators = field_children(n, "generator");
                let (ids, memberships) = self.bounds(&generators)?;
                let value = self.expr(self.field(n, "map")?);
                self.bound.truncate(self.bound.len() - ids.len());
                expr(term(
                    TermKind::SetComprehensionExpr(
                        ids,
                        Box::new(conjunction(memberships, span)),
                        Box::new(value?),
                    ),
                    span,
                ))
            }
            "finite_set_literal" => {
                let items = children(n);
                if items.is_empty() {
                    return expr(term(TermKind::Const(ConstKind::EmptySet), span));
                }
                let mut elems = Vec::new();
                for i in items {
                    elems.push(self.expr(i)?);
                }
                expr(term(TermKind::SetEnum(elems), span))
            }
            "tuple_literal" => {
                let mut elems = Vec::new();
                for i in children(n) {
                    if !matches!(i.kind(), "langle_bracket" | "rangle_bracket") {
                        elems.push(self.expr(i)?);
                    }
                }
                if elems.is_empty() {
                    return expr(term(TermKind::Const(ConstKind::EmptySeq), span));
                }
                expr(term(TermKind::SeqEnum(elems), span))
            }
            "record_literal" | "set_of_records" => {
                let mut fields = Vec::new();
                let items: Vec<Node<'_>> = children(n)
                    .into_iter()
                    .filter(|c| c.kind() != "all_map_to")
                    .collect();
                for pair in items.chunks(2) {
                    let [name, value] = pair else {
                        return Err(Diagnostic::syntax(span, "record field without a value"));
                    };
                    let id = Ident {
                        name: self.text(*name).into(),
                        span: self.span(*name),
                    };
                    fields.push((id, self.expr(*value)?));
                }
                let kind = if n.kind() == "record_literal" {
                    TermKind::Record(fields)
                } else {
                    TermKind::Struct(fields)
                };
                expr(term(kind, span))
            }
            "record_value" => {
                let parts = children(n);
                let [record, field] = parts.as_slice() else {
                    return Err(Diagnostic::syntax(span, "expected `record.field`"));
                };
                let record = self.expr(*record)?;
                let id = Ident {
                    name: self.text(*field).into(),
                    span: self.span(*field),
                };
                expr(term(TermKind::Field(Box::new(record), id), span))
            }
            "function_evaluation" => {
                let parts = children(n);
                let (f, args) = parts
                    .split_first()
                    .ok_or_else(|| Diagnostic::syntax(span, "empty application"))?;
                let f = self.expr(*f)?;
                let mut lowered = Vec::new();
                for a in args {
                    lowered.push(self.expr(*a)?);
                }
                expr(term(TermKind::Call(Box::new(f), lowered), span))
            }
            "function_literal" => {
                let parts = children(n);
                let bounds: Vec<Node<'_>> = parts
                    .iter()
                    .copied()
                    .filter(|c| c.kind() == "quantifier_bound")
                    .collect();
                let body = *parts
                    .last()
                    .ok_or_else(|| Diagnostic::syntax(span, "empty function"))?;
                let (ids, memberships) = self.bounds(&bounds)?;
                let value = self.expr(body);
                self.bound.truncate(self.bound.len() - ids.len());
                expr(term(
                    TermKind::QuantExpr(
                        crate::syntax::ast::QuantExprKind::Lambda,
                        ids,
                        Box::new(conjunction(memberships, span)),
                        Box::new(value?),
                    ),
                    span,
                ))
            }
            "set_of_functions" => {
                let parts: Vec<Node<'_>> = children(n)
                    .into_iter()
                    .filter(|c| c.kind() != "maps_to")
                    .collect();
                let [from, to] = parts.as_slice() else {
                    return Err(Diagnostic::syntax(span, "expected `[S -> T]`"));
                };
                expr(op(
                    Op::TotalFunction,
                    vec![self.expr(*from)?, self.expr(*to)?],
                    span,
                ))
            }
            "except" => self.except(n),
            "if_then_else" => {
                let cond = self.pred(self.field(n, "if")?)?;
                let a = self.lower(self.field(n, "then")?)?;
                let b = self.lower(self.field(n, "else")?)?;
                let role = if a.1 == Role::Pred && b.1 == Role::Pred {
                    Role::Pred
                } else {
                    Role::Expr
                };
                let (a, b) = (coerce(a, role), coerce(b, role));
                Ok((
                    term(TermKind::IfThenElse(vec![(cond, a)], Box::new(b)), span),
                    role,
                ))
            }
            "case" => self.case(n),
            "let_in" => {
                let depth = self.renamed.len();
                for d in field_children(n, "definitions") {
                    self.let_definition(d)?;
                }
                let body = self.lower(self.field(n, "expression")?);
                self.renamed.truncate(depth);
                body
            }
            "prev_func_val" => match &self.g.at {
                Some(at) => expr(Term { span, ..at.clone() }),
                None => Err(Diagnostic::syntax(span, "`@` outside an EXCEPT")),
            },
            "step_expr_or_stutter" | "step_expr_no_stutter" | "fairness" => {
                Err(self.unsupported(n, "temporal formula outside the specification"))
            }
            "lambda" => Err(self.unsupported(n, "LAMBDA")),
            "prefixed_op" => self.instance_operator(n),
            "real_number" | "real_number_set" => Err(self.unsupported(n, "real numbers")),
            "label" => self.lower(self.field(n, "expression")?),
            other => Err(self.unsupported(n, &format!("construct `{other}`"))),
        }
    }

    fn only_child<'t>(&self, n: Node<'t>) -> Result<Node<'t>> {
        children(n)
            .into_iter()
            .next()
            .ok_or_else(|| Diagnostic::syntax(self.span(n), "empty parentheses"))
    }

    /// `{ids | member}`, or with a tuple binder, a set of pairs.
    fn comprehension(&self, ids: Vec<Ident>, member: Term, body: Term, span: Span) -> Term {
        self.set_of(ids, op(Op::And, vec![member, body], span), span)
    }

    fn set_of(&self, ids: Vec<Ident>, member: Term, span: Span) -> Term {
        if ids.len() == 1 {
            term(TermKind::SetComprehension(ids, Box::new(member)), span)
        } else {
            // A tuple binder `<<a, b>> \in S`: the members are the pairs themselves.
            let pair = tuple_of(&ids, span);
            term(
                TermKind::SetComprehensionExpr(ids, Box::new(member), Box::new(pair)),
                span,
            )
        }
    }

    /// The identifiers a list of `quantifier_bound`s introduces (pushed onto `bound`) and their
    /// memberships.
    fn bounds(&mut self, bounds: &[Node<'_>]) -> Result<(Vec<Ident>, Vec<Term>)> {
        let mut ids = Vec::new();
        let mut memberships = Vec::new();
        for b in bounds {
            let set_node = self.field(*b, "set")?;
            let set = self.expr(set_node)?;
            for intro in field_children(*b, "intro") {
                let (new, member) = self.binder(intro, set.clone())?;
                ids.extend(new);
                memberships.push(member);
            }
        }
        Ok((ids, memberships))
    }

    /// One bound identifier `x` or tuple `<<a, b>>` in `set`: its identifiers (pushed onto `bound`) and
    /// the membership.
    fn binder(&mut self, intro: Node<'_>, set: Term) -> Result<(Vec<Ident>, Term)> {
        let span = self.span(intro);
        let mut ids: Vec<Ident> = match intro.kind() {
            "identifier" => vec![Ident {
                name: self.text(intro).into(),
                span,
            }],
            "tuple_of_identifiers" => children(intro)
                .into_iter()
                .filter(|c| c.kind() == "identifier")
                .map(|c| Ident {
                    name: self.text(c).into(),
                    span: self.span(c),
                })
                .collect(),
            other => return Err(self.unsupported(intro, &format!("binder `{other}`"))),
        };
        self.bind(&mut ids);
        let element = if intro.kind() == "identifier" {
            ident(&ids[0].name, span)
        } else {
            tuple_of(&ids, span)
        };
        Ok((ids, op(Op::In, vec![element, set], span)))
    }

    /// Brings `ids` into scope (onto `bound`), renamed apart when `hygienic`.
    fn bind(&mut self, ids: &mut [Ident]) {
        for id in ids {
            if self.hygienic {
                let b_name: Name = format!("{}{HYGIENE_MARK}{}", id.name, self.g.next_let()).into();
                self.g.renamed_apart.insert(b_name.clone(), id.name.clone());
                id.name = b_name;
            }
            self.bound.push(id.name.clone());
        }
    }

    /// The B name of the bound identifier `name` in scope, if one is.
    pub(super) fn bound_name(&self, name: &str) -> Option<&Name> {
        self.bound
            .iter()
            .rev()
            .find(|b| &**self.g.tla_name(b) == name)
    }

    /// A use of `name`, applied to `args` (already lowered) when it is an operator call.
    pub(super) fn reference(
        &mut self,
        n: Node<'_>,
        name: String,
        args: Vec<Term>,
    ) -> Result<(Term, Role)> {
        let span = self.span(n);
        if let Some(b_name) = self.bound_name(&name) {
            return apply(ident(b_name, span), args, Role::Expr, span);
        }
        // Inside an instantiated module: its own definitions and its constants' and variables'
        // substitutes (`instance`).
        if let Some(scope) = &self.g.scope {
            if let Some(b_name) = scope.definitions.get(name.as_str()).cloned() {
                return match self.g.symbol(&b_name) {
                    Some(Symbol::Failed(d)) => Err(d),
                    _ => apply(ident(&b_name, span), args, self.g.role_of(&b_name), span),
                };
            }
            if let Some((substitute, role)) = scope.substitutes.get(name.as_str()).cloned() {
                return apply(Term { span, ..substitute }, args, role, span);
            }
        }
        if let Some(target) = self.g.renames.get(name.as_str()) {
            // `Op` may be lowered later: its role as its text shows it (`rename_roles`), else that of
            // a value, as constants are.
            let role = (self.g.rename_roles.get(target).copied()).unwrap_or(Role::Expr);
            return apply(ident(target, span), args, role, span);
        }
        if let Some((_, renamed)) = self.renamed.iter().rev().find(|(tla, _)| **tla == *name) {
            let role = self.g.role_of(renamed);
            return apply(ident(renamed, span), args, role, span);
        }
        match self.g.symbol(&name) {
            Some(Symbol::Definition(role)) => apply(ident(&name, span), args, role, span),
            Some(Symbol::Variable | Symbol::Constant) => {
                apply(ident(&name, span), args, Role::Expr, span)
            }
            Some(Symbol::Failed(d)) => Err(d),
            None => match super::standard::call(&name, args, span, &self.g.standard)? {
                Some(lowered) => Ok(lowered),
                None => Err(Diagnostic::type_error(
                    span,
                    format!("unknown operator `{name}`"),
                )),
            },
        }
    }

    /// A LET definition: a B definition under a fresh name, in scope for the rest of the LET.
    fn let_definition(&mut self, d: Node<'_>) -> Result<()> {
        if d.kind() == "recursive_declaration" {
            for c in children(d) {
                let id = c.child_by_field_name("name").unwrap_or(c);
                self.g.recursive.insert(self.text(id).into());
            }
            return Ok(());
        }
        let name_node = self.field(d, "name")?;
        let name: Name = self.text(name_node).into();
        let fresh: Name = format!("{name}{LOCAL_MARK}{}", self.g.next_let()).into();
        // In scope in its own body, for a recursive definition.
        self.renamed.push((name.clone(), fresh.clone()));
        let def = match d.kind() {
            "operator_definition" if self.g.recursive.contains(&name) => {
                self.recursive_definition(d, fresh.clone(), &name)
            }
            "operator_definition" => self.operator_definition(d, fresh.clone()),
            "function_definition" => self.function_definition(d, fresh.clone()),
            _ => Err(self.unsupported(d, "this kind of LET definition")),
        };
        let def = match def {
            Ok(def) => def,
            Err(e) => {
                self.renamed.pop();
                return Err(e);
            }
        };
        self.g.add_definition(def.0, def.1);
        Ok(())
    }

    /// An `Op(p, q) == body` definition under the B name `name`, with its role.
    pub fn operator_definition(&mut self, d: Node<'_>, name: Name) -> Result<(Definition, Role)> {
        let name_node = self.field(d, "name")?;
        let mut params = Vec::new();
        for p in field_children(d, "parameter") {
            if p.kind() != "identifier" {
                return Err(self.unsupported(p, "operator parameter of higher order"));
            }
            params.push(Ident {
                name: self.text(p).into(),
                span: self.span(p),
            });
        }
        let depth = self.bound.len();
        self.bound.extend(params.iter().map(|p| p.name.clone()));
        let hygienic = self.hygienic;
        self.hygienic = hygienic || !params.is_empty();
        let body = self.lower(self.field(d, "definition")?);
        self.hygienic = hygienic;
        self.bound.truncate(depth);
        let (body, role) = body?;
        let def = Definition {
            name: Ident {
                name,
                span: self.span(name_node),
            },
            params,
            body: DefinitionBody::Term(body),
        };
        Ok((def, role))
    }

    /// A function definition `f[x \in S] == e`, as the definition `f == [x \in S |-> e]`; a recursive one
    /// as a constant function (`recursion`).
    pub fn function_definition(&mut self, d: Node<'_>, name: Name) -> Result<(Definition, Role)> {
        let name_node = self.field(d, "name")?;
        let tla_name = self.text(name_node).to_string();
        let body = self.field(d, "definition")?;
        if mentions(self.m, body, &tla_name) {
            return self.recursive_definition(d, name, &tla_name);
        }
        self.function_lambda(d, name)
    }

    /// `f[x \in S] == e` as the definition `f == %x.(x : S | e)`.
    pub fn function_lambda(&mut self, d: Node<'_>, name: Name) -> Result<(Definition, Role)> {
        let name_node = self.field(d, "name")?;
        let span = self.span(d);
        let parts = children(d);
        let bounds: Vec<Node<'_>> = parts
            .iter()
            .copied()
            .filter(|c| c.kind() == "quantifier_bound")
            .collect();
        let body = self.field(d, "definition")?;
        let (ids, memberships) = self.bounds(&bounds)?;
        let value = self.expr(body);
        self.bound.truncate(self.bound.len() - ids.len());
        let lambda = term(
            TermKind::QuantExpr(
                crate::syntax::ast::QuantExprKind::Lambda,
                ids,
                Box::new(conjunction(memberships, span)),
                Box::new(value?),
            ),
            span,
        );
        let def = Definition {
            name: Ident {
                name,
                span: self.span(name_node),
            },
            params: vec![],
            body: DefinitionBody::Term(lambda),
        };
        Ok((def, Role::Expr))
    }

    fn infix(&mut self, n: Node<'_>) -> Result<(Term, Role)> {
        let span = self.span(n);
        let symbol = self.field(n, "symbol")?;
        let lhs = self.field(n, "lhs")?;
        let rhs = self.field(n, "rhs")?;
        let kind = symbol.kind();
        let logical = match kind {
            "land" => Some(Op::And),
            "lor" => Some(Op::Or),
            "implies" => Some(Op::Implies),
            "iff" | "equiv" => Some(Op::Equiv),
            _ => None,
        };
        if let Some(o) = logical {
            let (a, b) = (self.pred(lhs)?, self.pred(rhs)?);
            return Ok((op(o, vec![a, b], span), Role::Pred));
        }
        if kind == "in" || kind == "notin" {
            // `<<a, b>> \in S \X T`: the tuple is a pair (B's cartesian product holds pairs).
            let is_product = |n: Node<'_>| {
                n.kind() == "bound_infix_op"
                    && n.child_by_field_name("symbol")
                        .is_some_and(|s| s.kind() == "times")
            };
            let element = if lhs.kind() == "tuple_literal" && is_product(rhs) {
                let mut items = Vec::new();
                for c in children(lhs) {
                    if !matches!(c.kind(), "langle_bracket" | "rangle_bracket") {
                        items.push(self.expr(c)?);
                    }
                }
                pairs(items, self.span(lhs))
            } else {
                self.expr(lhs)?
            };
            let set = self.expr(rhs)?;
            let o = if kind == "in" { Op::In } else { Op::NotIn };
            return Ok((op(o, vec![element, set], span), Role::Pred));
        }
        let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
        self.infix_values(symbol, a, b, span)
    }

    /// `a op b` for an infix operator over values (not the logical connectives); `symbol` is the
    /// operator's node.
    pub(super) fn infix_values(
        &mut self,
        symbol: Node<'_>,
        a: Term,
        b: Term,
        span: Span,
    ) -> Result<(Term, Role)> {
        let kind = symbol.kind();
        let (o, role) = match kind {
            "in" => (Op::In, Role::Pred),
            "notin" => (Op::NotIn, Role::Pred),
            "eq" => (Op::Eq, Role::Pred),
            "neq" => (Op::NotEq, Role::Pred),
            "lt" => (Op::Lt, Role::Pred),
            "gt" => (Op::Gt, Role::Pred),
            "leq" => (Op::Le, Role::Pred),
            "geq" => (Op::Ge, Role::Pred),
            "subseteq" => (Op::Subset, Role::Pred),
            "subset" => (Op::Strict, Role::Pred),
            "supseteq" => return Ok((op(Op::Subset, vec![b, a], span), Role::Pred)),
            "plus" => (Op::Add, Role::Expr),
            "minus" => (Op::Sub, Role::Expr),
            "mul" => (Op::Mul, Role::Expr),
            "pow" => (Op::Power, Role::Expr),
            "mod" => (Op::Mod, Role::Expr),
            "div" => {
                // TLA+'s `\div` rounds down, B's `/` toward zero: (a - a % b) / b is exact and floors
                // (B's `mod` is the non-negative remainder for a positive divisor, as TLA+'s `%`).
                let rem = op(Op::Mod, vec![a.clone(), b.clone()], span);
                let exact = op(Op::Sub, vec![a, rem], span);
                return Ok((op(Op::Div, vec![exact, b], span), Role::Expr));
            }
            "dots_2" => (Op::Interval, Role::Expr),
            "cup" => (Op::Union, Role::Expr),
            "cap" => (Op::Inter, Role::Expr),
            "setminus" => (Op::SetMinus, Role::Expr),
            "times" => (Op::Mul, Role::Expr),
            "circ" if self.g.standard.contains("Sequences") => (Op::Concat, Role::Expr),
            "map_to" if self.g.standard.contains("TLC") => {
                let pair = op(Op::Maplet, vec![a, b], span);
                return Ok((term(TermKind::SetEnum(vec![pair]), span), Role::Expr));
            }
            // `f @@ g`: f where both are defined.
            "compose" if self.g.standard.contains("TLC") => {
                return Ok((op(Op::Override, vec![b, a], span), Role::Expr));
            }
            // An operator the module defines (`x & y == ...`), or a standard one bsolve lacks.
            _ => {
                let name = self.text(symbol).to_string();
                let defined = self.renamed.iter().any(|(tla, _)| **tla == *name)
                    || (self.g.scope.as_ref()).is_some_and(|s| s.definitions.contains_key(&*name))
                    || matches!(
                        self.g.symbol(&name),
                        Some(Symbol::Definition(_) | Symbol::Failed(_))
                    );
                if !defined {
                    return Err(self.unsupported(symbol, &format!("infix operator `{name}`")));
                }
                return self
                    .reference(symbol, name, vec![a, b])
                    .map(|(t, r)| (Term { span, ..t }, r));
            }
        };
        Ok((op(o, vec![a, b], span), role))
    }

    fn prefix(&mut self, n: Node<'_>) -> Result<(Term, Role)> {
        let span = self.span(n);
        let symbol = self.field(n, "symbol")?;
        let rhs = self.field(n, "rhs")?;
        match symbol.kind() {
            "lnot" => Ok((op(Op::Not, vec![self.pred(rhs)?], span), Role::Pred)),
            "negative" => Ok((op(Op::Neg, vec![self.expr(rhs)?], span), Role::Expr)),
            "domain" => Ok((op(Op::Dom, vec![self.expr(rhs)?], span), Role::Expr)),
            "powerset" => Ok((op(Op::Pow, vec![self.expr(rhs)?], span), Role::Expr)),
            "union" => Ok((op(Op::GenUnion, vec![self.expr(rhs)?], span), Role::Expr)),
            "unchanged" => {
                let value = self.expr(rhs)?;
                Ok((self.g.unchanged(value)?, Role::Pred))
            }
            "enabled" => {
                // ENABLED A: some values of the primed variables make A true.
                let action = self.pred(rhs)?;
                let expanded = self.g.expand(&action)?;
                let mut primed: Vec<Name> = crate::machine::rewrite::free_idents(&expanded)
                    .into_iter()
                    .filter(|n| n.ends_with('\''))
                    .collect();
                primed.sort();
                if primed.is_empty() {
                    return Ok((expanded, Role::Pred));
                }
                let ids = primed
                    .into_iter()
                    .map(|name| Ident { name, span })
                    .collect();
                Ok((
                    term(
                        TermKind::Quantifier(Quant::Exists, ids, Box::new(expanded)),
                        span,
                    ),
                    Role::Pred,
                ))
            }
            "always" | "eventually" => Err(self.unsupported(
                symbol,
                &format!("temporal operator `{}`", self.text(symbol)),
            )),
            _ => Err(self.unsupported(symbol, &format!("prefix operator `{}`", self.text(symbol)))),
        }
    }

    fn case(&mut self, n: Node<'_>) -> Result<(Term, Role)> {
        let span = self.span(n);
        let mut arms = Vec::new();
        let mut other = None;
        for c in children(n) {
            let parts: Vec<Node<'_>> = children(c)
                .into_iter()
                .filter(|p| p.kind() != "case_arrow")
                .collect();
            match (c.kind(), parts.as_slice()) {
                ("case_arm", [cond, value]) => arms.push((self.pred(*cond)?, self.lower(*value)?)),
                ("other_arm", [value]) => other = Some(self.lower(*value)?),
                _ => {}
            }
        }
        let all_pred = arms.iter().all(|(_, v)| v.1 == Role::Pred)
            && other.as_ref().is_none_or(|o| o.1 == Role::Pred);
        let role = if all_pred { Role::Pred } else { Role::Expr };
        let arms: Vec<(Term, Term)> = arms
            .into_iter()
            .map(|(c, v)| (c, coerce(v, role)))
            .collect();
        // No OTHER: TLC stops with an error when no arm applies; `CHOOSE({})` is ill-defined, so bsolve
        // reports that state instead of inventing a value.
        let otherwise = match other {
            Some(o) => coerce(o, role),
            None => {
                self.g.uses_choose = true;
                let empty = term(TermKind::Const(ConstKind::EmptySet), span);
                let none = term(
                    TermKind::Call(Box::new(ident("CHOOSE", span)), vec![empty]),
                    span,
                );
                coerce((none, Role::Expr), role)
            }
        };
        Ok((
            term(TermKind::IfThenElse(arms, Box::new(otherwise)), span),
            role,
        ))
    }

    /// `[f EXCEPT ![a] = v, ![b][c] = w]`: `f <+ (dom(f) <| {a |-> v})` in turn for each update, `.g`
    /// steps as record updates; `@` is the value at the updated point.
    fn except(&mut self, n: Node<'_>) -> Result<(Term, Role)> {
        let span = self.span(n);
        let mut value = self.expr(self.field(n, "expr_to_update")?)?;
        for update in children(n)
            .into_iter()
            .filter(|c| c.kind() == "except_update")
        {
            // The field `update_specifier` also names the `!` token: take the specifier node itself.
            let spec = children(update)
                .into_iter()
                .find(|c| c.kind() == "except_update_specifier")
                .ok_or_else(|| {
                    Diagnostic::syntax(self.span(update), "EXCEPT update without `![..]`")
                })?;
            let mut path = Vec::new();
            for step in children(spec) {
                if step.kind() == "except_update_record_field" {
                    let field = self.only_child(step)?;
                    let id = Ident {
                        name: self.text(field).into(),
                        span: self.span(field),
                    };
                    path.push(Step::Field(id));
                    continue;
                }
                let mut keys = Vec::new();
                for k in children(step) {
                    keys.push(self.expr(k)?);
                }
                path.push(Step::Key(pairs(keys, self.span(step))));
            }
            value = self.update(value, &path, update, span)?;
        }
        Ok((value, Role::Expr))
    }

    /// `f` with the point at `path` replaced by the new value of `update`.
    fn update(&mut self, f: Term, path: &[Step], update: Node<'_>, span: Span) -> Result<Term> {
        let (step, rest) = path
            .split_first()
            .ok_or_else(|| Diagnostic::syntax(span, "empty EXCEPT path"))?;
        let old = match step {
            Step::Key(key) => term(TermKind::Call(Box::new(f.clone()), vec![key.clone()]), span),
            Step::Field(id) => term(TermKind::Field(Box::new(f.clone()), id.clone()), span),
        };
        let new = if rest.is_empty() {
            let saved = self.g.at.replace(old);
            let v = self.expr(self.field(update, "new_val")?);
            self.g.at = saved;
            v?
        } else {
            self.update(old, rest, update, span)?
        };
        Ok(match step {
            Step::Key(key) => {
                // TLA+'s EXCEPT changes only points of the domain (`dom(f) <| ..`): B's `<+` would add one.
                let point = op(Op::Maplet, vec![key.clone(), new], span);
                let domain = op(Op::Dom, vec![f.clone()], span);
                let kept = op(
                    Op::DomRestrict,
                    vec![domain, term(TermKind::SetEnum(vec![point]), span)],
                    span,
                );
                op(Op::Override, vec![f, kept], span)
            }
            Step::Field(id) => term(
                TermKind::RecordUpdate(Box::new(f), id.clone(), Box::new(new)),
                span,
            ),
        })
    }
}

/// One step of an EXCEPT path: `[k]` (a point of a function) or `.f` (a record field).
enum Step {
    Key(Term),
    Field(Ident),
}

/// `f` applied to `args` when there are any; a definition call passes its arguments, anything else is
/// function application.
pub(super) fn apply(f: Term, args: Vec<Term>, role: Role, span: Span) -> Result<(Term, Role)> {
    if args.is_empty() {
        return Ok((f, role));
    }
    Ok((term(TermKind::Call(Box::new(f), args), span), role))
}

/// `a |-> b |-> c` (left-nested, as B's cartesian products) for a tuple used as a pair; one item alone.
pub(super) fn pairs(items: Vec<Term>, span: Span) -> Term {
    items
        .into_iter()
        .reduce(|a, b| op(Op::Maplet, vec![a, b], span))
        .unwrap_or_else(|| term(TermKind::Const(ConstKind::EmptySeq), span))
}

fn tuple_of(ids: &[Ident], span: Span) -> Term {
    pairs(ids.iter().map(|i| ident(&i.name, i.span)).collect(), span)
}

/// Whether the subtree `n` mentions identifier `name` (as a reference).
fn mentions(m: &SourceModule, n: Node<'_>, name: &str) -> bool {
    any_node(n, &|c| c.kind() == "identifier_ref" && m.text(c) == name)
}

/// The text of a TLA+ string literal, quotes removed and escapes resolved.
fn unescape(literal: &str) -> String {
    let inner = literal
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(literal);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}
