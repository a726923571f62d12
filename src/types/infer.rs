//! Unification-based type inference and lowering of the flattened AST to the typed `ir`.
//!
//! One pass over the machine lowers every clause to IR whose types may still contain inference variables,
//! unifying as it goes (`lower`, `lower_subst`); constraints that depend on a type not known yet (`*` as
//! product or multiplication, `E'f` on a record, `^`/`size` on strings or sequences) wait in `pending`
//! (`resolve`). At the end the remaining ambiguities get their defaults, every declared identifier must have
//! a ground type, and the IR's types are replaced by their resolved forms.

use super::Type;
use super::external;
use super::unify::Unifier;
use crate::diag::{Diagnostic, Result, Span};
use crate::ir::{self, TypedName};
use crate::machine::definitions::{self, Definitions};
use crate::syntax::ast::{self, DefinitionBody, Name};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// A standalone predicate or expression typed in the context of a machine, with the identifiers it uses that
/// the machine does not declare (free identifiers, typed by inference).
#[derive(Clone, Debug, PartialEq)]
pub enum Formula {
    Pred(ir::Pred, Vec<ir::TypedName>),
    Expr(ir::Expr, Vec<ir::TypedName>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GlobalKind {
    Set,
    /// An all-uppercase machine parameter: a deferred set that PROPERTIES may not mention.
    SetParam,
    Element,
    Constant,
    Variable,
    Param,
    Free,
}

impl GlobalKind {
    pub(super) fn describe(self) -> &'static str {
        match self {
            GlobalKind::Set => "set",
            GlobalKind::SetParam => "set parameter",
            GlobalKind::Element => "set element",
            GlobalKind::Constant => "constant",
            GlobalKind::Variable => "variable",
            GlobalKind::Param => "machine parameter",
            GlobalKind::Free => "identifier",
        }
    }
}

#[derive(Clone)]
pub(super) struct Global {
    pub ty: Type,
    pub kind: GlobalKind,
}

/// A declared identifier that must end up with a ground type.
pub(super) struct Declared {
    pub ty: Type,
    pub span: Span,
    /// What it is (`constant`, `universally quantified identifier` ...), its name and its operation's:
    /// put into words only for the error message (a large machine declares thousands).
    pub role: &'static str,
    pub name: Name,
    pub operation: Option<Name>,
}

impl Declared {
    fn describe(&self) -> String {
        match &self.operation {
            Some(op) => format!("{} `{}` of operation `{op}`", self.role, self.name),
            None => format!("{} `{}`", self.role, self.name),
        }
    }
}

/// A bound identifier in scope.
pub(super) struct Local {
    pub name: Name,
    pub ty: Type,
    /// Only VAR identifiers and operation outputs may be assigned.
    pub writable: bool,
    /// What the identifier is, for messages (`operation parameter`, `LET identifier` ...).
    pub role: &'static str,
}

/// The signature of an operation callable with `outs <-- op(args)`.
#[derive(Clone)]
pub(super) struct OpSig {
    pub params: Vec<Type>,
    pub outputs: Vec<Type>,
}

pub(super) struct Checker {
    pub u: Unifier,
    pub globals: FxHashMap<Name, Global>,
    /// Bound identifiers, innermost last.
    pub locals: Vec<Local>,
    pub pending: Vec<super::resolve::Pending>,
    /// In a TLA+ machine, the types each record field name was given by a record or a set of records:
    /// what a field read from a record of mixed type (`TlaValue`) is, when nothing else says.
    pub field_types: FxHashMap<Name, Vec<Type>>,
    pub declared: Vec<Declared>,
    pub ops: FxHashMap<Name, OpSig>,
    /// `Some` when unknown identifiers are free variables of a formula instead of errors.
    pub free: Option<Vec<TypedName>>,
    /// False while checking CONSTRAINTS/PROPERTIES, where state variables are not visible.
    pub variables_visible: bool,
    /// False while checking PROPERTIES, where machine parameters are not visible.
    pub params_visible: bool,
    /// The ProB external identifiers the machine makes available (`external::available`).
    pub externals: Vec<Name>,
}

impl Checker {
    fn new() -> Checker {
        Checker {
            u: Unifier::default(),
            globals: FxHashMap::default(),
            locals: Vec::new(),
            pending: Vec::new(),
            field_types: FxHashMap::default(),
            declared: Vec::new(),
            ops: FxHashMap::default(),
            free: None,
            variables_visible: true,
            params_visible: true,
            externals: Vec::new(),
        }
    }

    fn declare(&mut self, id: &ast::Ident, ty: Type, kind: GlobalKind) -> Result<()> {
        if let Some(prev) = self.globals.get(&id.name) {
            return Err(Diagnostic::type_error(
                id.span,
                format!(
                    "`{}` is declared twice (already a {})",
                    id.name,
                    prev.kind.describe()
                ),
            ));
        }
        if matches!(
            kind,
            GlobalKind::Constant | GlobalKind::Variable | GlobalKind::Param
        ) {
            self.declared.push(Declared {
                ty: ty.clone(),
                span: id.span,
                role: kind.describe(),
                name: id.name.clone(),
                operation: None,
            });
        }
        self.globals.insert(id.name.clone(), Global { ty, kind });
        Ok(())
    }

    /// Declares a fresh typed name for a binder (quantifier, ANY, VAR, LET ...); only VAR identifiers may
    /// be assigned.
    pub(super) fn bind(&mut self, id: &ast::Ident, what: &'static str) -> TypedName {
        let ty = self.u.fresh();
        self.declared.push(Declared {
            ty: ty.clone(),
            span: id.span,
            role: what,
            name: id.name.clone(),
            operation: None,
        });
        self.locals.push(Local {
            name: id.name.clone(),
            ty: ty.clone(),
            writable: what == VAR_IDENTIFIER,
            role: what,
        });
        TypedName {
            name: id.name.clone(),
            ty,
            span: id.span,
        }
    }

    fn typed_names(&self, ids: &[ast::Ident], tys: &[Type]) -> Vec<TypedName> {
        ids.iter()
            .zip(tys)
            .map(|(i, t)| TypedName {
                name: i.name.clone(),
                ty: t.clone(),
                span: i.span,
            })
            .collect()
    }

    /// A valuation `x = E` of the VALUES clause of an implementation: for a constant, the predicate it adds
    /// to PROPERTIES; for a deferred set, nothing (the implementation's choice of its elements, e.g.
    /// `S = 1..10`, is not a B equality between the set and the interval and is not checked).
    fn valuation(
        &mut self,
        name: &ast::Ident,
        value: &ast::Term,
        defs: &Definitions,
    ) -> Result<Option<ir::Pred>> {
        match self.globals.get(&name.name).map(|g| g.kind) {
            Some(GlobalKind::Constant) => {
                let span = name.span.to(value.span);
                let lhs = ast::Term::new(ast::TermKind::Ident(name.name.clone()), name.span);
                let eq = ast::Term::new(
                    ast::TermKind::Op(ast::Op::Eq, vec![lhs, value.clone()]),
                    span,
                );
                let p = self.pred(&defs.expand_term(&eq)?)?;
                self.settle(false)?;
                Ok(Some(p))
            }
            Some(GlobalKind::Set) => Ok(None),
            _ => Err(Diagnostic::type_error(
                name.span,
                format!(
                    "VALUES gives a value to `{}`, which is not a constant or a set",
                    name.name
                ),
            )),
        }
    }

    /// Checks that every declared identifier got a ground type.
    fn check_declared(&self) -> Result<()> {
        for d in &self.declared {
            if !self.u.is_ground(&d.ty) {
                return Err(Diagnostic::type_error(
                    d.span,
                    format!("could not infer a type for {}", d.describe()),
                ));
            }
        }
        Ok(())
    }
}

/// The role of VAR identifiers, the only assignable binders.
pub(super) const VAR_IDENTIFIER: &str = "VAR identifier";

/// True for a parameter name that denotes a set (all letters uppercase).
fn is_set_parameter(name: &str) -> bool {
    name.chars().any(|c| c.is_alphabetic()) && !name.chars().any(|c| c.is_lowercase())
}

/// Expand definitions, infer types, lower to the typed IR.
pub fn check_machine(m: &ast::Machine) -> Result<ir::Machine> {
    fn body(t: &Option<ast::Term>) -> Option<Cow<'_, ast::Term>> {
        t.as_ref().map(Cow::Borrowed)
    }
    let bodies = [
        body(&m.constraints),
        body(&m.properties),
        body(&m.invariant),
    ];
    check_flattened(m, bodies).map_err(|d| explain_library_identifier(d, m))
}

/// `check_machine` for a machine whose CONSTRAINTS, PROPERTIES and INVARIANT are not needed afterwards:
/// they are taken out of `m` and their conjuncts freed as soon as they are typed, so that the typed IR
/// reuses their memory instead of the process holding both (a machine of thousands of conjuncts: a
/// megabyte of fresh pages less).
pub fn check_machine_taking_bodies(m: &mut ast::Machine) -> Result<ir::Machine> {
    let bodies = [
        m.constraints.take().map(Cow::Owned),
        m.properties.take().map(Cow::Owned),
        m.invariant.take().map(Cow::Owned),
    ];
    check_flattened(m, bodies).map_err(|d| explain_library_identifier(d, m))
}

/// An unknown identifier in a machine that includes a ProB library we do not provide most likely comes
/// from that library: say so, as an unsupported construct rather than a mistake in the model.
fn explain_library_identifier(d: Diagnostic, m: &ast::Machine) -> Diagnostic {
    match m.skipped_libraries.first() {
        Some((library, _)) if d.message.starts_with("unknown identifier") => {
            Diagnostic::unsupported(
                d.span,
                format!(
                    "{} (ProB's external functions from `{library}` are not provided by bsolve)",
                    d.message
                ),
            )
        }
        _ => d,
    }
}

/// The definitions visible in a machine and the ProB externals it makes available; an external's own
/// definition body is a placeholder (ProB calls the external instead), so it is not among the definitions.
fn visible_and_externals(m: &ast::Machine) -> (Vec<ast::Definition>, Vec<Name>) {
    let libraries: Vec<String> = m.skipped_libraries.iter().map(|(l, _)| l.clone()).collect();
    let externals = external::available(&libraries, &m.definitions);
    let visible = definitions::visible_definitions(m)
        .into_iter()
        .filter(|d| !externals.contains(&d.name.name))
        .collect();
    (visible, externals)
}

/// `bodies`: the machine's CONSTRAINTS, PROPERTIES and INVARIANT (`m`'s own, or taken out of it).
fn check_flattened(
    m: &ast::Machine,
    bodies: [Option<Cow<'_, ast::Term>>; 3],
) -> Result<ir::Machine> {
    if let Some((clause, span)) = m.unsupported_clauses.first() {
        return Err(Diagnostic::unsupported(*span, format!("clause {clause}")));
    }
    // The FREETYPES clause is parsed, but free types have no type, value or evaluation yet.
    if let Some(f) = m.freetypes.first() {
        return Err(Diagnostic::unsupported(f.name.span, "clause FREETYPES"));
    }
    let settings = definitions::settings(&Definitions::new(&m.definitions), &m.definitions)?;
    let (visible, externals) = visible_and_externals(m);
    let defs = Definitions::new(&visible);
    let mut c = Checker::new();
    c.externals = externals;
    c.u.tla_values = m.tla_values;

    let mut sets = Vec::new();
    for s in &m.sets {
        let given = Type::Given(s.name.name.clone());
        c.declare(&s.name, Type::set(given.clone()), GlobalKind::Set)?;
        if let Some(elems) = &s.elements {
            for e in elems {
                c.declare(e, given.clone(), GlobalKind::Element)?;
            }
        }
        sets.push(ir::GivenSet {
            name: s.name.name.clone(),
            span: s.name.span,
            elements: s
                .elements
                .as_ref()
                .map(|es| es.iter().map(|e| e.name.clone()).collect()),
        });
    }
    let mut params = Vec::new();
    for p in &m.params {
        if is_set_parameter(&p.name) {
            c.declare(
                p,
                Type::set(Type::Given(p.name.clone())),
                GlobalKind::SetParam,
            )?;
            sets.push(ir::GivenSet {
                name: p.name.clone(),
                span: p.span,
                elements: None,
            });
        } else {
            let ty = c.u.fresh();
            c.declare(p, ty.clone(), GlobalKind::Param)?;
            params.push(TypedName {
                name: p.name.clone(),
                ty,
                span: p.span,
            });
        }
    }
    let mut constants = Vec::with_capacity(m.constants.len());
    c.declared
        .reserve(m.params.len() + m.constants.len() + m.variables.len());
    for (id, _) in &m.constants {
        let ty = c.u.fresh();
        c.declare(id, ty.clone(), GlobalKind::Constant)?;
        constants.push(TypedName {
            name: id.name.clone(),
            ty,
            span: id.span,
        });
    }
    let mut variables = Vec::new();
    for (id, _) in &m.variables {
        let ty = c.u.fresh();
        c.declare(id, ty.clone(), GlobalKind::Variable)?;
        variables.push(TypedName {
            name: id.name.clone(),
            ty,
            span: id.span,
        });
    }

    let clause = |c: &mut Checker, t: Option<Cow<'_, ast::Term>>| -> Result<ir::Pred> {
        match t {
            Some(t) => {
                let expanded = match defs.expand_term_cow(&t)? {
                    Cow::Owned(e) => Some(e),
                    Cow::Borrowed(_) => None,
                };
                let p = c.clause_pred(expanded.map_or(t, Cow::Owned))?;
                c.settle(false)?;
                Ok(p)
            }
            None => Ok(ir::Pred::truth(m.span)),
        }
    };
    let [constraints_body, properties_body, invariant_body] = bodies;
    c.variables_visible = false;
    let mut constraints = clause(&mut c, constraints_body)?;
    c.params_visible = false;
    let mut properties = clause(&mut c, properties_body)?;
    for (name, value) in &m.values {
        if let Some(valuation) = c.valuation(name, value, &defs)? {
            let span = properties.span;
            properties = ir::Pred::new(ir::PredKind::And(vec![properties, valuation]), span);
        }
    }
    c.params_visible = true;
    c.variables_visible = true;
    let mut invariant = clause(&mut c, invariant_body)?;
    let mut assertions = Vec::new();
    for a in &m.assertions {
        assertions.push(clause(&mut c, Some(Cow::Borrowed(a)))?);
    }

    // Signatures first, so that operations (and the initialisation) can call each other.
    for op in &m.operations {
        let sig = OpSig {
            params: op.params.iter().map(|_| c.u.fresh()).collect(),
            outputs: op.outputs.iter().map(|_| c.u.fresh()).collect(),
        };
        if c.ops.insert(op.name.name.clone(), sig).is_some() {
            return Err(Diagnostic::type_error(
                op.name.span,
                format!("operation `{}` is defined twice", op.name.name),
            ));
        }
    }
    let mut initialisation = match &m.initialisation {
        Some(s) => {
            let s = c.subst(&*defs.expand_subst_cow(s)?)?;
            c.settle(false)?;
            s
        }
        None => ir::Subst {
            kind: ir::SubstKind::Skip,
            span: m.span,
        },
    };
    let mut operations = Vec::new();
    for op in &m.operations {
        operations.push(c.operation(op, &defs)?);
    }
    let special = |name: &str, c: &mut Checker| -> Result<Option<ir::Pred>> {
        match defs.get(name) {
            Some(d) if d.params.is_empty() => match &d.body {
                DefinitionBody::Term(t) => Ok(Some(clause(c, Some(Cow::Borrowed(t)))?)),
                _ => Err(Diagnostic::type_error(
                    d.name.span,
                    format!("{name} must be a predicate"),
                )),
            },
            _ => Ok(None),
        }
    };
    let mut goal = special("GOAL", &mut c)?;
    let mut scope = special("SCOPE", &mut c)?;
    let mut state_constraint = special("TLC_CONSTRAINT", &mut c)?;

    c.settle(true)?;
    c.check_declared()?;
    for n in params
        .iter_mut()
        .chain(&mut constants)
        .chain(&mut variables)
    {
        c.finish_name(n);
    }
    for p in [&mut constraints, &mut properties, &mut invariant]
        .into_iter()
        .chain(assertions.iter_mut())
        .chain(goal.iter_mut())
        .chain(scope.iter_mut())
        .chain(state_constraint.iter_mut())
    {
        c.finish_pred(p);
    }
    c.finish_subst(&mut initialisation);
    for op in &mut operations {
        c.finish_operation(op);
    }
    Ok(ir::Machine {
        name: m.name.name.clone(),
        span: m.span,
        params,
        sets,
        constants,
        variables,
        constraints,
        properties,
        invariant,
        assertions,
        initialisation,
        operations,
        settings,
        goal,
        scope,
        state_constraint,
    })
}

impl Checker {
    fn operation(&mut self, op: &ast::Operation, defs: &Definitions) -> Result<ir::Operation> {
        let sig = self.ops[&op.name.name].clone();
        let params = self.typed_names(&op.params, &sig.params);
        let outputs = self.typed_names(&op.outputs, &sig.outputs);
        for (n, what) in params
            .iter()
            .map(|n| (n, "parameter"))
            .chain(outputs.iter().map(|n| (n, "output")))
        {
            // A parameter named like a variable hides it in the body (ProB accepts it: the corpus'
            // OpParameterTestsComplex); an output is assigned, and `xx := E` would name both.
            if what == "output"
                && self
                    .globals
                    .get(&n.name)
                    .is_some_and(|g| matches!(g.kind, GlobalKind::Variable))
            {
                return Err(Diagnostic::type_error(
                    n.span,
                    format!(
                        "output `{}` of operation `{}` is named like a variable: assigning it would \
                         name both",
                        n.name, op.name.name
                    ),
                ));
            }
            self.declared.push(Declared {
                ty: n.ty.clone(),
                span: n.span,
                role: what,
                name: n.name.clone(),
                operation: Some(op.name.name.clone()),
            });
            self.locals.push(Local {
                name: n.name.clone(),
                ty: n.ty.clone(),
                writable: what == "output",
                role: if what == "output" {
                    "operation output"
                } else {
                    "operation parameter"
                },
            });
        }
        let body = self.subst(&*defs.expand_subst_cow(&op.body)?);
        self.locals.clear();
        let body = body?;
        self.settle(false)?;
        Ok(ir::Operation {
            name: op.name.name.clone(),
            span: op.span,
            params,
            outputs,
            body,
        })
    }

    fn finish_operation(&self, op: &mut ir::Operation) {
        for n in op.params.iter_mut().chain(op.outputs.iter_mut()) {
            self.finish_name(n);
        }
        self.finish_subst(&mut op.body);
    }
}

/// Type a standalone predicate/expression in the context of a checked machine (its sets, constants,
/// variables and the DEFINITIONS of `m_ast`). Identifiers unknown to the machine are free: they are typed by
/// inference and returned (for `bsolve solve`, they are existentially quantified).
pub fn check_formula(m_ast: &ast::Machine, m: &ir::Machine, term: &ast::Term) -> Result<Formula> {
    let (visible, externals) = visible_and_externals(m_ast);
    let defs = Definitions::new(&visible);
    let mut c = Checker::new();
    c.externals = externals;
    c.u.tla_values = m_ast.tla_values;
    let global = |c: &mut Checker, name: &Name, span: Span, ty: Type, kind: GlobalKind| {
        c.declare(
            &ast::Ident {
                name: name.clone(),
                span,
            },
            ty,
            kind,
        )
    };
    for s in &m.sets {
        let given = Type::Given(s.name.clone());
        global(
            &mut c,
            &s.name,
            s.span,
            Type::set(given.clone()),
            GlobalKind::Set,
        )?;
        for e in s.elements.iter().flatten() {
            global(&mut c, e, s.span, given.clone(), GlobalKind::Element)?;
        }
    }
    for (list, kind) in [
        (&m.params, GlobalKind::Param),
        (&m.constants, GlobalKind::Constant),
        (&m.variables, GlobalKind::Variable),
    ] {
        for n in list {
            global(&mut c, &n.name, n.span, n.ty.clone(), kind)?;
        }
    }
    for op in &m.operations {
        c.ops.insert(
            op.name.clone(),
            OpSig {
                params: op.params.iter().map(|p| p.ty.clone()).collect(),
                outputs: op.outputs.iter().map(|p| p.ty.clone()).collect(),
            },
        );
    }
    c.free = Some(Vec::new());
    let term = defs.expand_term_cow(term)?;
    let lowered = if is_predicate(&term) {
        Formula::Pred(c.pred(&term)?, vec![])
    } else {
        Formula::Expr(c.expr(&term)?, vec![])
    };
    c.settle(true)?;
    let mut free = c.free.take().unwrap_or_default();
    for n in &free {
        if !c.u.is_ground(&n.ty) {
            return Err(Diagnostic::type_error(
                n.span,
                format!("could not infer a type for identifier `{}`", n.name),
            ));
        }
    }
    c.check_declared()?;
    for n in &mut free {
        c.finish_name(n);
    }
    Ok(match lowered {
        Formula::Pred(mut p, _) => {
            c.finish_pred(&mut p);
            Formula::Pred(p, free)
        }
        Formula::Expr(mut e, _) => {
            c.finish_expr(&mut e);
            Formula::Expr(e, free)
        }
    })
}

/// Whether a term (after definition expansion) is a predicate rather than an expression.
pub(super) fn is_predicate(t: &ast::Term) -> bool {
    use ast::{ConstKind, TermKind};
    match &t.kind {
        TermKind::Const(k) => matches!(k, ConstKind::Btrue | ConstKind::Bfalse),
        TermKind::Quantifier(..) => true,
        TermKind::IfThenElse(bs, els) => bs
            .first()
            .map(|(_, v)| is_predicate(v))
            .unwrap_or_else(|| is_predicate(els)),
        TermKind::Let(_, _, body) => is_predicate(body),
        TermKind::Op(op, _) => op.is_predicate(),
        _ => false,
    }
}
