//! DEFINITIONS: macro expansion at the AST level and the special definitions bsolve interprets as settings.
//!
//! A use `d` or `d(a, b)` of a definition is replaced by its body with the parameters substituted (free
//! occurrences only, see `rewrite`); a substitution definition is used as an operation call `d(a, b)`.
//! Identifiers bound by a quantifier or comprehension hide a definition of the same name. Expansion is
//! recursive up to `MAX_DEPTH` nested uses, which also catches (mutually) recursive definitions.

use super::rewrite::{Rewriter, mentions_free};
use crate::diag::{DiagKind, Diagnostic, Result, Span};
use crate::syntax::ast::{
    ConstKind, Definition, DefinitionBody, Ident, Machine, Name, Op, Subst, SubstKind, Term,
    TermKind,
};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;

/// A value given by a `DEFINITIONS` entry the engine interprets (SET_PREF_*, scope_*, MAX_OPERATIONS_*).
#[derive(Clone, Debug, PartialEq)]
pub enum SettingValue {
    Int(BigInt),
    /// `scope_S == n..m`.
    Range(BigInt, BigInt),
    Bool(bool),
    Text(String),
}

const MAX_DEPTH: usize = 64;
/// Uses expanded per machine before giving up (definitions using each other twice grow exponentially).
const MAX_EXPANSIONS: usize = 200_000;

/// The definitions not hidden by an identifier the machine declares (a definition collected from a seen
/// machine must not rewrite a constant of the same name).
pub fn visible_definitions(m: &Machine) -> Vec<Definition> {
    let mut declared: FxHashSet<&Name> = FxHashSet::default();
    declared.extend(m.params.iter().map(|p| &p.name));
    declared.extend(m.constants.iter().map(|(c, _)| &c.name));
    declared.extend(m.variables.iter().map(|(v, _)| &v.name));
    for s in &m.sets {
        declared.insert(&s.name.name);
        declared.extend(s.elements.iter().flatten().map(|e| &e.name));
    }
    m.definitions
        .iter()
        .filter(|d| !declared.contains(&d.name.name))
        .cloned()
        .collect()
}

/// The definitions visible in a machine, by name (the first definition of a name wins).
pub struct Definitions<'a> {
    defs: FxHashMap<Name, &'a Definition>,
    expansions: std::cell::Cell<usize>,
}

impl<'a> Definitions<'a> {
    pub fn new(list: &'a [Definition]) -> Definitions<'a> {
        Definitions::of(list)
    }

    /// The definitions `list` holds, by name (the first definition of a name wins).
    pub fn of(list: impl IntoIterator<Item = &'a Definition>) -> Definitions<'a> {
        let mut defs = FxHashMap::default();
        for d in list {
            defs.entry(d.name.name.clone()).or_insert(d);
        }
        Definitions {
            defs,
            expansions: std::cell::Cell::new(0),
        }
    }

    pub fn get(&self, name: &str) -> Option<&'a Definition> {
        self.defs.get(name).copied()
    }

    pub fn expand_term(&self, t: &Term) -> Result<Term> {
        self.term(t, &mut Vec::new(), 0)
    }

    pub fn expand_subst(&self, s: &Subst) -> Result<Subst> {
        self.subst(s, &mut Vec::new(), 0)
    }

    /// `t` with its definition uses expanded, borrowed as it is when it names no definition (most
    /// clauses): expansion rebuilds the whole tree, which costs more than checking it on large clauses.
    pub fn expand_term_cow<'t>(&self, t: &'t Term) -> Result<Cow<'t, Term>> {
        // Expansion leaves bound identifiers alone (`visible`): only free ones can be uses.
        if self.defs.is_empty() || !mentions_free(t, &|n| self.defs.contains_key(n)) {
            Ok(Cow::Borrowed(t))
        } else {
            self.expand_term(t).map(Cow::Owned)
        }
    }

    /// `s` with its definition uses expanded, borrowed as it is when there are no definitions.
    pub fn expand_subst_cow<'s>(&self, s: &'s Subst) -> Result<Cow<'s, Subst>> {
        if self.defs.is_empty() {
            Ok(Cow::Borrowed(s))
        } else {
            self.expand_subst(s).map(Cow::Owned)
        }
    }

    /// Counts one use of `d`, failing when the nesting or the total budget is exceeded.
    fn enter(&self, d: &Definition, span: Span, depth: usize) -> Result<()> {
        if depth >= MAX_DEPTH {
            return Err(too_deep(d, span));
        }
        self.expansions.set(self.expansions.get() + 1);
        if self.expansions.get() > MAX_EXPANSIONS {
            return Err(Diagnostic::new(
                DiagKind::Limit,
                span,
                format!(
                    "more than {MAX_EXPANSIONS} definition uses to expand (at `{}`)",
                    d.name.name
                ),
            ));
        }
        Ok(())
    }

    fn visible(&self, name: &Name, bound: &[Name]) -> Option<&'a Definition> {
        if bound.contains(name) {
            None
        } else {
            self.get(name)
        }
    }

    /// The body of `d` (a term) with its own uses expanded and its parameters replaced by `args`.
    fn instantiate(
        &self,
        d: &Definition,
        args: Vec<Term>,
        span: Span,
        depth: usize,
    ) -> Result<Term> {
        self.enter(d, span, depth)?;
        let body = match &d.body {
            DefinitionBody::Term(t) => t,
            DefinitionBody::Subst(_) => {
                return Err(Diagnostic::type_error(
                    span,
                    format!(
                        "definition `{}` is a substitution, used where an expression or predicate is expected",
                        d.name.name
                    ),
                ));
            }
            DefinitionBody::Opaque(_) => {
                return Err(Diagnostic::unsupported(
                    span,
                    format!("use of definition `{}`", d.name.name),
                ));
            }
        };
        let mut shadow: Vec<Name> = d.params.iter().map(|p| p.name.clone()).collect();
        let expanded = self.term(body, &mut shadow, depth + 1)?;
        let rw = bind_params(d, args);
        let t = rw.term(&expanded);
        check_binders(d, &rw, span)?;
        Ok(t)
    }

    fn term(&self, t: &Term, bound: &mut Vec<Name>, depth: usize) -> Result<Term> {
        let span = t.span;
        let kind = match &t.kind {
            TermKind::Ident(n) => match self.visible(n, bound) {
                Some(d) if d.params.is_empty() => return self.instantiate(d, vec![], span, depth),
                Some(d) => return Err(arity(d, 0, span)),
                None => t.kind.clone(),
            },
            TermKind::Call(f, args) => {
                let args = self.terms(args, bound, depth)?;
                if let TermKind::Ident(n) = &f.kind
                    && let Some(d) = self.visible(n, bound)
                {
                    if d.params.is_empty() {
                        let callee = self.instantiate(d, vec![], f.span, depth)?;
                        TermKind::Call(Box::new(callee), args)
                    } else if d.params.len() == args.len() {
                        return self.instantiate(d, args, span, depth);
                    } else {
                        return Err(arity(d, args.len(), span));
                    }
                } else {
                    TermKind::Call(Box::new(self.term(f, bound, depth)?), args)
                }
            }
            TermKind::Int(_) | TermKind::Str(_) | TermKind::Const(_) | TermKind::Unsupported(_) => {
                t.kind.clone()
            }
            TermKind::Op(op, args) => TermKind::Op(*op, self.terms(args, bound, depth)?),
            TermKind::Quantifier(q, ids, body) => {
                let body = self.scoped(ids, bound, |b| self.term(body, b, depth))?;
                TermKind::Quantifier(*q, ids.clone(), Box::new(body))
            }
            TermKind::SetComprehension(ids, body) => {
                let body = self.scoped(ids, bound, |b| self.term(body, b, depth))?;
                TermKind::SetComprehension(ids.clone(), Box::new(body))
            }
            TermKind::SetComprehensionExpr(ids, p, e) => {
                let (p, e) = self.scoped(ids, bound, |b| {
                    Ok((self.term(p, b, depth)?, self.term(e, b, depth)?))
                })?;
                TermKind::SetComprehensionExpr(ids.clone(), Box::new(p), Box::new(e))
            }
            TermKind::QuantExpr(k, ids, p, e) => {
                let (p, e) = self.scoped(ids, bound, |b| {
                    Ok((self.term(p, b, depth)?, self.term(e, b, depth)?))
                })?;
                TermKind::QuantExpr(*k, ids.clone(), Box::new(p), Box::new(e))
            }
            TermKind::Let(ids, p, e) => {
                let (p, e) = self.scoped(ids, bound, |b| {
                    Ok((self.term(p, b, depth)?, self.term(e, b, depth)?))
                })?;
                TermKind::Let(ids.clone(), Box::new(p), Box::new(e))
            }
            TermKind::SetEnum(xs) => TermKind::SetEnum(self.terms(xs, bound, depth)?),
            TermKind::SeqEnum(xs) => TermKind::SeqEnum(self.terms(xs, bound, depth)?),
            TermKind::Record(fs) => TermKind::Record(self.fields(fs, bound, depth)?),
            TermKind::Struct(fs) => TermKind::Struct(self.fields(fs, bound, depth)?),
            TermKind::Field(e, f) => {
                TermKind::Field(Box::new(self.term(e, bound, depth)?), f.clone())
            }
            TermKind::RecordUpdate(e, f, v) => TermKind::RecordUpdate(
                Box::new(self.term(e, bound, depth)?),
                f.clone(),
                Box::new(self.term(v, bound, depth)?),
            ),
            TermKind::IfThenElse(bs, els) => {
                let mut out = Vec::with_capacity(bs.len());
                for (c, v) in bs {
                    out.push((self.term(c, bound, depth)?, self.term(v, bound, depth)?));
                }
                TermKind::IfThenElse(out, Box::new(self.term(els, bound, depth)?))
            }
        };
        Ok(Term::new(kind, span))
    }

    fn scoped<R>(
        &self,
        ids: &[Ident],
        bound: &mut Vec<Name>,
        f: impl FnOnce(&mut Vec<Name>) -> Result<R>,
    ) -> Result<R> {
        let n = bound.len();
        bound.extend(ids.iter().map(|i| i.name.clone()));
        let r = f(bound);
        bound.truncate(n);
        r
    }

    fn terms(&self, ts: &[Term], bound: &mut Vec<Name>, depth: usize) -> Result<Vec<Term>> {
        ts.iter().map(|t| self.term(t, bound, depth)).collect()
    }

    fn fields(
        &self,
        fs: &[(Ident, Term)],
        bound: &mut Vec<Name>,
        depth: usize,
    ) -> Result<Vec<(Ident, Term)>> {
        fs.iter()
            .map(|(f, e)| Ok((f.clone(), self.term(e, bound, depth)?)))
            .collect()
    }

    fn substs(&self, ss: &[Subst], bound: &mut Vec<Name>, depth: usize) -> Result<Vec<Subst>> {
        ss.iter().map(|s| self.subst(s, bound, depth)).collect()
    }

    fn branches(
        &self,
        bs: &[(Term, Subst)],
        bound: &mut Vec<Name>,
        depth: usize,
    ) -> Result<Vec<(Term, Subst)>> {
        bs.iter()
            .map(|(c, s)| Ok((self.term(c, bound, depth)?, self.subst(s, bound, depth)?)))
            .collect()
    }

    fn opt(
        &self,
        s: &Option<Box<Subst>>,
        bound: &mut Vec<Name>,
        depth: usize,
    ) -> Result<Option<Box<Subst>>> {
        s.as_ref()
            .map(|s| Ok(Box::new(self.subst(s, bound, depth)?)))
            .transpose()
    }

    fn subst(&self, s: &Subst, bound: &mut Vec<Name>, depth: usize) -> Result<Subst> {
        let kind = match &s.kind {
            SubstKind::OpCall(outs, op, args) if self.visible(&op.name, bound).is_some() => {
                let d = self.visible(&op.name, bound).expect("checked by the guard");
                return self.instantiate_subst(d, outs, args, s.span, bound, depth);
            }
            SubstKind::Skip => SubstKind::Skip,
            SubstKind::Assign(l, r) => {
                SubstKind::Assign(self.terms(l, bound, depth)?, self.terms(r, bound, depth)?)
            }
            SubstKind::BecomesElementOf(ids, e) => {
                SubstKind::BecomesElementOf(ids.clone(), self.term(e, bound, depth)?)
            }
            SubstKind::BecomesSuchThat(ids, p) => {
                SubstKind::BecomesSuchThat(ids.clone(), self.term(p, bound, depth)?)
            }
            SubstKind::OpCall(outs, op, args) => {
                SubstKind::OpCall(outs.clone(), op.clone(), self.terms(args, bound, depth)?)
            }
            SubstKind::Parallel(ss) => SubstKind::Parallel(self.substs(ss, bound, depth)?),
            SubstKind::Sequence(ss) => SubstKind::Sequence(self.substs(ss, bound, depth)?),
            SubstKind::Any(ids, p, body) => {
                let (p, body) = self.scoped(ids, bound, |b| {
                    Ok((self.term(p, b, depth)?, self.subst(body, b, depth)?))
                })?;
                SubstKind::Any(ids.clone(), p, Box::new(body))
            }
            SubstKind::Let(ids, p, body) => {
                let (p, body) = self.scoped(ids, bound, |b| {
                    Ok((self.term(p, b, depth)?, self.subst(body, b, depth)?))
                })?;
                SubstKind::Let(ids.clone(), p, Box::new(body))
            }
            SubstKind::Var(ids, body) => {
                let body = self.scoped(ids, bound, |b| self.subst(body, b, depth))?;
                SubstKind::Var(ids.clone(), Box::new(body))
            }
            SubstKind::Pre(p, body) => SubstKind::Pre(
                self.term(p, bound, depth)?,
                Box::new(self.subst(body, bound, depth)?),
            ),
            SubstKind::Assert(p, body) => SubstKind::Assert(
                self.term(p, bound, depth)?,
                Box::new(self.subst(body, bound, depth)?),
            ),
            SubstKind::Choice(ss) => SubstKind::Choice(self.substs(ss, bound, depth)?),
            SubstKind::If(bs, els) => SubstKind::If(
                self.branches(bs, bound, depth)?,
                self.opt(els, bound, depth)?,
            ),
            SubstKind::Select(bs, els) => SubstKind::Select(
                self.branches(bs, bound, depth)?,
                self.opt(els, bound, depth)?,
            ),
            SubstKind::Case(e, bs, els) => {
                let mut out = Vec::with_capacity(bs.len());
                for (vs, body) in bs {
                    out.push((
                        self.terms(vs, bound, depth)?,
                        self.subst(body, bound, depth)?,
                    ));
                }
                SubstKind::Case(
                    self.term(e, bound, depth)?,
                    out,
                    self.opt(els, bound, depth)?,
                )
            }
            SubstKind::While {
                cond,
                body,
                invariant,
                variant,
            } => SubstKind::While {
                cond: self.term(cond, bound, depth)?,
                body: Box::new(self.subst(body, bound, depth)?),
                invariant: self.term(invariant, bound, depth)?,
                variant: self.term(variant, bound, depth)?,
            },
        };
        Ok(Subst { kind, span: s.span })
    }

    fn instantiate_subst(
        &self,
        d: &Definition,
        outs: &[Ident],
        args: &[Term],
        span: Span,
        bound: &mut Vec<Name>,
        depth: usize,
    ) -> Result<Subst> {
        self.enter(d, span, depth)?;
        let DefinitionBody::Subst(body) = &d.body else {
            return Err(Diagnostic::type_error(
                span,
                format!("definition `{}` is not a substitution", d.name.name),
            ));
        };
        if !outs.is_empty() {
            return Err(Diagnostic::type_error(
                span,
                format!("substitution definition `{}` has no outputs", d.name.name),
            ));
        }
        if d.params.len() != args.len() {
            return Err(arity(d, args.len(), span));
        }
        let args = self.terms(args, bound, depth)?;
        let mut shadow: Vec<Name> = d.params.iter().map(|p| p.name.clone()).collect();
        let expanded = self.subst(body, &mut shadow, depth + 1)?;
        let rw = bind_params(d, args);
        let s = rw.subst(&expanded);
        check_binders(d, &rw, span)?;
        Ok(s)
    }
}

/// A parameter bound in the body of `d` (`all(x, S, P) == !x.(x : S => P)`) takes an identifier as
/// argument: the body is a macro and the argument becomes the bound identifier.
fn check_binders(d: &Definition, rw: &Rewriter, span: Span) -> Result<()> {
    match rw.misused_binder() {
        None => Ok(()),
        Some((param, arg)) => Err(Diagnostic::type_error(
            if arg.span.file == span.file {
                arg.span
            } else {
                span
            },
            format!(
                "the argument for parameter `{}` of definition `{}` must be an identifier: the body binds it",
                param.name, d.name.name
            ),
        )),
    }
}

/// The parameters of `d` bound to `args`, bound identifiers of the body included.
fn bind_params(d: &Definition, args: Vec<Term>) -> Rewriter {
    let mut rw = Rewriter::default();
    rw.rename_binders = true;
    for (p, a) in d.params.iter().zip(args) {
        rw.idents.insert(p.name.clone(), a);
    }
    rw
}

fn arity(d: &Definition, given: usize, span: Span) -> Diagnostic {
    Diagnostic::type_error(
        span,
        format!(
            "definition `{}` expects {} argument(s), given {given}",
            d.name.name,
            d.params.len()
        ),
    )
}

fn too_deep(d: &Definition, span: Span) -> Diagnostic {
    Diagnostic::type_error(
        span,
        format!(
            "definition expansion deeper than {MAX_DEPTH} levels (recursive definition `{}`?)",
            d.name.name
        ),
    )
}

/// True for definitions that only drive ProB's visualisation or temporal checks; bsolve ignores them.
fn is_ignored(name: &str) -> bool {
    [
        "ANIMATION_",
        "CUSTOM_GRAPH",
        "SEQUENCE_CHART_",
        "VISB_",
        "SET_PREF_TK_",
        "ASSERT_LTL",
        "ASSERT_CTL",
        "HEURISTIC_FUNCTION",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// True for definitions bsolve reads as settings.
pub(super) fn is_setting(name: &str) -> bool {
    !is_ignored(name)
        && (name.starts_with("SET_PREF_")
            || name.starts_with("scope_")
            || name.starts_with("MAX_OPERATIONS_")
            || name == "DEFAULT_SETSIZE")
}

/// The settings given by special definitions, in source order. Definitions uses are expanded first, so
/// `SET_PREF_MAXINT == LIMIT` with `LIMIT == 255` works.
pub fn settings(
    defs: &Definitions,
    list: &[Definition],
) -> Result<Vec<(Name, SettingValue, Span)>> {
    let mut out = Vec::new();
    for d in list {
        let name = &d.name.name;
        if !is_setting(name) || !d.params.is_empty() {
            continue;
        }
        // Only the first definition of a name counts (an including machine overrides an included one).
        if defs.get(name).is_some_and(|first| !std::ptr::eq(first, d)) {
            continue;
        }
        let DefinitionBody::Term(body) = &d.body else {
            continue;
        };
        let body = defs.expand_term(body)?;
        let value = setting_value(&body).ok_or_else(|| {
            Diagnostic::unsupported(body.span, format!("value of setting `{name}`"))
        })?;
        out.push((name.clone(), value, d.name.span));
    }
    Ok(out)
}

fn setting_value(t: &Term) -> Option<SettingValue> {
    match &t.kind {
        TermKind::Const(ConstKind::True) => Some(SettingValue::Bool(true)),
        TermKind::Const(ConstKind::False) => Some(SettingValue::Bool(false)),
        TermKind::Str(s) => Some(SettingValue::Text(s.clone())),
        TermKind::Ident(n) => Some(SettingValue::Text(n.to_string())),
        // `scope_S == {a, b}` gives S as many elements as the extension names.
        TermKind::SetEnum(items) if items.iter().all(|i| matches!(i.kind, TermKind::Ident(_))) => {
            let mut names: Vec<_> = items
                .iter()
                .filter_map(|i| match &i.kind {
                    TermKind::Ident(n) => Some(n),
                    _ => None,
                })
                .collect();
            names.sort();
            names.dedup();
            Some(SettingValue::Int(names.len().into()))
        }
        TermKind::Op(Op::Interval, args) if args.len() == 2 => Some(SettingValue::Range(
            const_int(&args[0])?,
            const_int(&args[1])?,
        )),
        _ => const_int(t).map(SettingValue::Int),
    }
}

/// Folds a constant integer expression (literals, `+ - * / ** mod`, unary minus, MAXINT-free).
fn const_int(t: &Term) -> Option<BigInt> {
    match &t.kind {
        TermKind::Int(n) => Some(n.clone()),
        TermKind::Op(Op::Neg, a) if a.len() == 1 => Some(-const_int(&a[0])?),
        TermKind::Op(op, a) if a.len() == 2 => {
            let (x, y) = (const_int(&a[0])?, const_int(&a[1])?);
            match op {
                Op::Add => Some(x + y),
                Op::Sub => Some(x - y),
                Op::Mul => Some(x * y),
                Op::Div if y != BigInt::from(0) => Some(x / y),
                Op::Mod if y.is_positive() => Some(num_integer::Integer::mod_floor(&x, &y)),
                Op::Power => Some(x.pow(y.to_u32().filter(|e| *e <= 4096)?)),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp() -> Span {
        Span::default()
    }
    fn ident(n: &str) -> Ident {
        Ident {
            name: n.into(),
            span: sp(),
        }
    }
    fn id(n: &str) -> Term {
        Term::new(TermKind::Ident(n.into()), sp())
    }
    fn int(n: i64) -> Term {
        Term::new(TermKind::Int(n.into()), sp())
    }
    fn op(o: Op, args: Vec<Term>) -> Term {
        Term::new(TermKind::Op(o, args), sp())
    }
    fn def(name: &str, params: &[&str], body: Term) -> Definition {
        Definition {
            name: ident(name),
            params: params.iter().map(|p| ident(p)).collect(),
            body: DefinitionBody::Term(body),
        }
    }

    #[test]
    fn expands_nested_parameterised_definitions() {
        // sq(x) == x*x ; two == 2 ; use: sq(two) + 1
        let list = vec![
            def("sq", &["x"], op(Op::Mul, vec![id("x"), id("x")])),
            def("two", &[], int(2)),
        ];
        let defs = Definitions::new(&list);
        let call = Term::new(TermKind::Call(Box::new(id("sq")), vec![id("two")]), sp());
        let e = defs
            .expand_term(&op(Op::Add, vec![call, int(1)]))
            .expect("expands");
        assert_eq!(
            e,
            op(Op::Add, vec![op(Op::Mul, vec![int(2), int(2)]), int(1)])
        );
    }

    #[test]
    fn a_term_naming_no_definition_is_borrowed() {
        let list = vec![def("two", &[], int(2))];
        let defs = Definitions::new(&list);
        let plain = op(Op::Add, vec![id("x"), int(1)]);
        assert!(matches!(
            defs.expand_term_cow(&plain).expect("expands"),
            Cow::Borrowed(_)
        ));
        let using = op(Op::Add, vec![id("x"), id("two")]);
        let expanded = defs.expand_term_cow(&using).expect("expands");
        assert_eq!(*expanded, op(Op::Add, vec![id("x"), int(2)]));
    }

    #[test]
    fn reports_recursion_and_arity() {
        let list = vec![def("loop", &[], op(Op::Add, vec![id("loop"), int(1)]))];
        let defs = Definitions::new(&list);
        let err = defs.expand_term(&id("loop")).expect_err("recursive");
        assert!(err.message.contains("deeper than 64"), "{}", err.message);
        let list = vec![def("f", &["a"], id("a"))];
        let defs = Definitions::new(&list);
        let err = defs.expand_term(&id("f")).expect_err("arity");
        assert_eq!(err.message, "definition `f` expects 1 argument(s), given 0");
    }

    #[test]
    fn exponential_expansion_hits_the_budget() {
        // d0 == 1; d(i+1) == d(i) + d(i): 2^40 uses.
        let mut list = vec![def("d0", &[], int(1))];
        for i in 1..=40 {
            let prev = format!("d{}", i - 1);
            list.push(def(
                &format!("d{i}"),
                &[],
                op(Op::Add, vec![id(&prev), id(&prev)]),
            ));
        }
        let defs = Definitions::new(&list);
        let err = defs.expand_term(&id("d40")).expect_err("too large");
        assert_eq!(err.kind, DiagKind::Limit);
    }

    #[test]
    fn bound_identifiers_hide_definitions() {
        let list = vec![def("x", &[], int(7))];
        let defs = Definitions::new(&list);
        let q = Term::new(
            TermKind::SetComprehension(
                vec![ident("x")],
                Box::new(op(Op::Eq, vec![id("x"), id("x")])),
            ),
            sp(),
        );
        assert_eq!(defs.expand_term(&q).expect("expands"), q);
    }

    #[test]
    fn a_parameter_bound_in_the_body_renames_the_binder() {
        // all(x, P) == !x.(P) ; use: all(y, y > 0)
        let forall = |x: &str, body: Term| {
            Term::new(
                TermKind::Quantifier(
                    crate::syntax::ast::Quant::Forall,
                    vec![ident(x)],
                    Box::new(body),
                ),
                sp(),
            )
        };
        let list = vec![def("all", &["x", "P"], forall("x", id("P")))];
        let defs = Definitions::new(&list);
        let y_pos = op(Op::Gt, vec![id("y"), int(0)]);
        let call = Term::new(
            TermKind::Call(Box::new(id("all")), vec![id("y"), y_pos.clone()]),
            sp(),
        );
        assert_eq!(
            defs.expand_term(&call).expect("expands"),
            forall("y", y_pos)
        );
        let call = Term::new(
            TermKind::Call(Box::new(id("all")), vec![int(1), id("btrue")]),
            sp(),
        );
        let err = defs.expand_term(&call).expect_err("not an identifier");
        assert!(
            err.message.contains("must be an identifier"),
            "{}",
            err.message
        );
    }

    #[test]
    fn reads_settings() {
        let list = vec![
            def(
                "SET_PREF_MAXINT",
                &[],
                op(Op::Sub, vec![op(Op::Power, vec![int(2), int(8)]), int(1)]),
            ),
            def("scope_S", &[], op(Op::Interval, vec![int(1), int(3)])),
            def("SET_PREF_TK_X", &[], int(1)),
            def("ANIMATION_FUNCTION", &[], int(1)),
        ];
        let defs = Definitions::new(&list);
        let s = settings(&defs, &list).expect("settings");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].1, SettingValue::Int(255.into()));
        assert_eq!(s[1].1, SettingValue::Range(1.into(), 3.into()));
    }

    #[test]
    fn a_scope_given_as_an_extension_counts_its_elements() {
        let ext =
            |xs: &[&str]| Term::new(TermKind::SetEnum(xs.iter().map(|x| id(x)).collect()), sp());
        let list = vec![
            def("scope_S", &[], ext(&["a", "b", "a"])),
            def("scope_T", &[], ext(&["c"])),
        ];
        let defs = Definitions::new(&list);
        let s = settings(&defs, &list).expect("settings");
        assert_eq!(s[0].1, SettingValue::Int(2.into()));
        assert_eq!(s[1].1, SettingValue::Int(1.into()));
    }
}
