//! From TLA+ modules and a TLC model file to one B machine (`ast::Machine`) that every check runs.
//!
//! The translation follows TLA2B (Hansen & Leuschel, ProB's TLA+ front end): constants get their values
//! from the model file as definitions, model values become the elements of one enumerated set, the
//! module's variables are the machine's variables, `Init` its INITIALISATION and `Next` its operations
//! (`action`). Types are then inferred by the B type checker, by unification over the whole machine, with
//! every term carrying its position in the TLA+ source.

mod action;
mod community;
mod expr;
mod higher_order;
mod instance;
mod recursion;
pub mod standard;

use super::cfg::{CfgValue, Config, ConstantBinding};
use super::parse::{SourceModule, any_node, children};
use crate::diag::{DiagKind, Diagnostic, Result, Span};
use crate::machine::definitions::Definitions;
use crate::machine::rewrite::Rewriter;
use crate::syntax::ast::{
    self, ConstKind, Definition, DefinitionBody, Ident, Name, Op, SetDecl, Term, TermKind,
};
use expr::{ExprLowering, coerce, conjunction, ident, op, term};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use tree_sitter::Node;

/// Whether a TLA+ expression is a predicate (a boolean in TLA+) or a value, as B must know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Pred,
    Expr,
}

/// What a module-level name stands for.
pub(super) enum Symbol {
    Definition(Role),
    Variable,
    Constant,
    /// A definition bsolve cannot lower: the reason, reported where it is used.
    Failed(Diagnostic),
}

/// The parts of a specification `Init /\ [][Next]_vars /\ fairness`.
#[derive(Clone, Default)]
struct SpecParts {
    init: Vec<Term>,
    next: Option<Term>,
}

/// Everything known at module level while lowering.
#[derive(Default)]
pub(super) struct Globals {
    /// The standard modules extended (by any module loaded).
    pub standard: FxHashSet<String>,
    variables: Vec<Ident>,
    /// Declared constants; those the model file binds are in `bound_constants`.
    constants: Vec<Ident>,
    bound_constants: FxHashSet<Name>,
    /// Definitions the model file replaces by a value (TLC allows `Faded = Faded` for a definition
    /// `Faded == CHOOSE c : c \notin Color`): never lowered, used as the value.
    pub overridden: FxHashSet<Name>,
    /// `D = [M] value` in the model file: the definition `D` of module `M` is that value, by module
    /// and definition name.
    pub module_overrides: FxHashMap<(String, Name), Term>,
    /// The bound identifiers renamed apart (`expr::ExprLowering::hygienic`): their TLA+ names by their
    /// B names.
    pub renamed_apart: FxHashMap<Name, Name>,
    /// The roles of `renames`' targets the root module's text shows (`syntactic_role`): a use of `C`
    /// is lowered before `Op` (in the model's own module) is.
    pub rename_roles: FxHashMap<Name, Role>,
    /// `C <- Op` in the model file: every use of `C` (a constant, a constant operator, or a standard
    /// operator such as `Seq`) is a use of `Op`, which may be defined later (in the model's own module).
    pub renames: FxHashMap<Name, Name>,
    pub defs: Vec<Definition>,
    roles: FxHashMap<Name, Role>,
    failed: FxHashMap<Name, Diagnostic>,
    temporal: FxHashMap<Name, SpecParts>,
    /// The value `@` stands for inside the EXCEPT update being lowered.
    pub at: Option<Term>,
    /// Some term uses `CHOOSE(S)` (bsolve's Hilbert choice, ProB's CHOOSE.def).
    pub uses_choose: bool,
    /// Definitions with operator parameters, lowered at each use (`higher_order`).
    pub templates: FxHashMap<Name, higher_order::Template>,
    /// The module whose units are being lowered (templates keep it).
    current_module: Option<std::sync::Arc<SourceModule>>,
    /// The operators declared RECURSIVE (at module level or in a LET).
    pub recursive: FxHashSet<Name>,
    /// The constant functions recursive definitions stand for, each with its value (`recursion`).
    pub recursive_constants: Vec<(Ident, Term)>,
    lets: usize,
    /// The instance whose module is being lowered (`instance`).
    scope: Option<instance::InstanceScope>,
    /// Each named instance's definitions: TLA+ name to B name (`N!Op`).
    instances: FxHashMap<Name, FxHashMap<Name, Name>>,
}

impl Globals {
    pub fn symbol(&self, name: &str) -> Option<Symbol> {
        if self.overridden.contains(name) {
            return Some(Symbol::Constant);
        }
        if let Some(d) = self.failed.get(name) {
            return Some(Symbol::Failed(d.clone()));
        }
        if let Some(r) = self.roles.get(name) {
            return Some(Symbol::Definition(*r));
        }
        if self.is_variable(name) {
            return Some(Symbol::Variable);
        }
        if let Some(c) = self.constants.iter().find(|c| &*c.name == name) {
            if self.bound_constants.contains(name) {
                return Some(Symbol::Constant);
            }
            return Some(Symbol::Failed(Diagnostic::type_error(
                c.span,
                format!("constant `{name}` has no value in the model file"),
            )));
        }
        None
    }

    pub fn is_variable(&self, name: &str) -> bool {
        self.variables.iter().any(|v| &*v.name == name)
    }

    pub fn role_of(&self, name: &str) -> Role {
        self.roles.get(name).copied().unwrap_or(Role::Expr)
    }

    pub fn next_let(&mut self) -> usize {
        self.lets += 1;
        self.lets
    }

    /// The TLA+ name of a bound identifier's B name.
    pub fn tla_name<'n>(&'n self, b_name: &'n Name) -> &'n Name {
        self.renamed_apart.get(b_name).unwrap_or(b_name)
    }

    pub fn add_definition(&mut self, def: Definition, role: Role) {
        self.roles.insert(def.name.name.clone(), role);
        self.failed.remove(&def.name.name);
        self.defs.push(def);
    }

    /// `t` with its definitions expanded (to see the variables it reads).
    pub fn expand(&self, t: &Term) -> Result<Term> {
        Definitions::new(&self.defs).expand_term(t)
    }

    /// `t'`: every free variable of `t` primed.
    pub fn prime(&self, t: Term) -> Result<Term> {
        let expanded = self.expand(&t)?;
        let mut rewriter = Rewriter::default();
        for v in &self.variables {
            rewriter
                .idents
                .insert(v.name.clone(), ident(&format!("{}'", v.name), t.span));
        }
        Ok(rewriter.term(&expanded))
    }

    /// `UNCHANGED t`: `x' = x` for each variable of a tuple (nested tuples and definitions followed), `t' = t`
    /// for anything else.
    pub fn unchanged(&self, t: Term) -> Result<Term> {
        let span = t.span;
        let expanded = self.expand(&t)?;
        let mut equations = Vec::new();
        self.unchanged_parts(expanded, &mut equations)?;
        Ok(conjunction(equations, span))
    }

    fn unchanged_parts(&self, t: Term, out: &mut Vec<Term>) -> Result<()> {
        match t.kind {
            TermKind::SeqEnum(items) => {
                for i in items {
                    self.unchanged_parts(i, out)?;
                }
            }
            TermKind::Const(ConstKind::EmptySeq) => {}
            kind => {
                let t = Term::new(kind, t.span);
                let primed = self.prime(t.clone())?;
                out.push(op(Op::Eq, vec![primed, t.clone()], t.span));
            }
        }
        Ok(())
    }
}

/// A TLA+ specification as a B machine, with what the model file asks beyond it.
pub struct Lowered {
    pub machine: ast::Machine,
    /// `CHECK_DEADLOCK` (TLC checks deadlock unless told otherwise).
    pub check_deadlock: bool,
    /// The model file lists temporal properties, or the module has assumptions, that are not checked.
    pub unchecked: bool,
    /// Neither variables nor a specification: only the assumptions are checked, and TLC counts no state.
    pub assumptions_only: bool,
    /// What is not checked (temporal properties, fairness, symmetry), in words.
    pub notes: Vec<String>,
}

/// The model file of `module`: `config`, or the `.cfg` beside the module with its name.
pub fn config_path(module: &Path, config: Option<&Path>) -> PathBuf {
    config.map_or_else(|| module.with_extension("cfg"), Path::to_path_buf)
}

/// Loads the module at `path` (and the modules it extends, beside it) under the model file `config`.
pub fn load(path: &Path, config: &Config, config_span: Span) -> Result<Lowered> {
    let mut loader = Loader {
        g: Globals::default(),
        loaded: FxHashSet::default(),
        notes: Vec::new(),
        model_values: Vec::new(),
        assumptions: Vec::new(),
        unchecked_assumptions: false,
    };
    for (name, binding) in &config.constants {
        loader.g.bound_constants.insert(name.name.clone());
        if let ConstantBinding::Operator(target) = binding {
            loader
                .g
                .renames
                .insert(name.name.clone(), target.name.clone());
            continue;
        }
        // `Nat <- MCNat`: TLC lets a model file bound the standard sets.
        if matches!(&*name.name, "Nat" | "Int") {
            loader.g.overridden.insert(name.name.clone());
        }
    }
    for (module, name, value) in &config.module_overrides {
        let value = loader.cfg_value(value);
        loader
            .g
            .module_overrides
            .insert((module.name.to_string(), name.name.clone()), value);
    }
    loader.g.rename_roles = rename_roles(path, &loader.g.renames);
    let root = loader.load_module(path, None)?;
    loader.bind_constants(config)?;
    loader.machine(root, config, config_span)
}

struct Loader {
    g: Globals,
    loaded: FxHashSet<String>,
    notes: Vec<String>,
    /// The model values the model file names, in order of appearance.
    model_values: Vec<Ident>,
    /// The modules' ASSUMEs.
    assumptions: Vec<Term>,
    /// Some ASSUME could not be lowered (its reason is among the notes).
    unchecked_assumptions: bool,
}

impl Loader {
    /// Parses and lowers the module at `path` after the modules it extends; returns its name.
    fn load_module(&mut self, path: &Path, from: Option<Span>) -> Result<Ident> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Diagnostic::new(
                DiagKind::File,
                from.unwrap_or_default(),
                format!("cannot read `{}`: {e}", path.display()),
            )
        })?;
        self.load_source(path, text)
    }

    /// A module bsolve ships (`community`), under a path naming it as bsolve's.
    fn load_bundled(&mut self, name: &str, text: &str) -> Result<Ident> {
        let path = PathBuf::from(format!("<bsolve>/{name}.tla"));
        self.load_source(&path, text.to_string())
    }

    /// Parses and lowers the module `text` read from `path`; returns its name.
    fn load_source(&mut self, path: &Path, text: String) -> Result<Ident> {
        let m = std::sync::Arc::new(SourceModule::parse(&path.display().to_string(), text)?);
        let previous = self.g.current_module.replace(m.clone());
        let name = self.lower_units(&m, path);
        self.g.current_module = previous;
        name
    }

    /// The units of module `m` (read from `path`), after the modules it extends; returns its name.
    fn lower_units(&mut self, m: &SourceModule, path: &Path) -> Result<Ident> {
        let module = m.module()?;
        let name_node = module
            .child_by_field_name("name")
            .ok_or_else(|| Diagnostic::syntax(m.span(module), "module without a name"))?;
        let name = Ident {
            name: m.text(name_node).into(),
            span: m.span(name_node),
        };
        self.loaded.insert(name.name.to_string());
        let dir = path.parent().unwrap_or(Path::new("."));
        for unit in children(module) {
            match unit.kind() {
                "extends" => {
                    for e in children(unit) {
                        self.extend(m, e, dir)?;
                    }
                }
                "instance" => self.instance(m, unit, dir)?,
                // An instance bsolve cannot lower is reported where it is used.
                "module_definition" => {
                    if let Err(d) = self.named_instance(m, unit, dir)
                        && let Some(n) = unit.child_by_field_name("name")
                    {
                        self.g.failed.insert(m.text(n).into(), d);
                    }
                }
                "local_definition" => {
                    for d in children(unit) {
                        self.definition(m, d)?;
                    }
                }
                _ => self.definition(m, unit)?,
            }
        }
        Ok(name)
    }

    /// `INSTANCE M` where every constant and variable of `M` stands for the same name here (no `WITH`, or
    /// only `x <- x`): the same as `EXTENDS M`, the declarations shared. Other substitutions are refused.
    fn instance(&mut self, m: &SourceModule, unit: Node<'_>, dir: &Path) -> Result<()> {
        let parts = children(unit);
        let target = parts
            .iter()
            .find(|c| c.kind() == "identifier_ref")
            .ok_or_else(|| Diagnostic::syntax(m.span(unit), "INSTANCE without a module name"))?;
        for sub in parts.iter().filter(|c| c.kind() == "substitution") {
            let sides: Vec<Node<'_>> = children(*sub)
                .into_iter()
                .filter(|c| c.kind() != "gets")
                .collect();
            let identity = matches!(sides.as_slice(), [a, b] if m.text(*a) == m.text(*b));
            if !identity {
                return Err(Diagnostic::unsupported(
                    m.span(*sub),
                    "INSTANCE ... WITH a substitution other than `x <- x` (TLA+)",
                ));
            }
        }
        self.extend(m, *target, dir)
    }

    fn extend(&mut self, m: &SourceModule, e: Node<'_>, dir: &Path) -> Result<()> {
        let name = m.text(e).to_string();
        if standard::MODULES.contains(&name.as_str()) {
            let sequences = name == "Sequences";
            self.g.standard.insert(name);
            let (select_seq, text) = community::SELECT_SEQ;
            if sequences && !self.loaded.contains(select_seq) {
                self.load_bundled(select_seq, text)?;
            }
            return Ok(());
        }
        if standard::PROOF_MODULES.contains(&name.as_str()) {
            return Ok(());
        }
        if self.loaded.contains(&name) {
            return Ok(());
        }
        let file = dir.join(format!("{name}.tla"));
        if !file.is_file()
            && let Some(text) = community::source(&name)
        {
            self.load_bundled(&name, text)?;
            return Ok(());
        }
        if !file.is_file() {
            let known = (standard::MODULES.iter())
                .chain(community::EXTENDABLE)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            return Err(Diagnostic::new(
                DiagKind::File,
                m.span(e),
                format!(
                    "module `{name}` not found: no file `{}` and not a standard module bsolve provides ({known})",
                    file.display()
                ),
            ));
        }
        self.load_module(&file, Some(m.span(e)))?;
        Ok(())
    }

    /// A lowering of terms of module `m` at module level.
    fn lowering<'s>(&'s mut self, m: &'s SourceModule) -> ExprLowering<'s> {
        ExprLowering {
            m,
            g: &mut self.g,
            bound: Vec::new(),
            hygienic: false,
            enclosing: Vec::new(),
            renamed: Vec::new(),
            op_args: Vec::new(),
            depth: 0,
        }
    }

    /// One unit of a module: declarations and definitions are recorded; proofs, theorems and
    /// assumptions are not needed to check a model.
    fn definition(&mut self, m: &SourceModule, unit: Node<'_>) -> Result<()> {
        let mut lowering = ExprLowering {
            m,
            g: &mut self.g,
            bound: Vec::new(),
            hygienic: false,
            enclosing: Vec::new(),
            renamed: Vec::new(),
            op_args: Vec::new(),
            depth: 0,
        };
        match unit.kind() {
            "constant_declaration" => {
                for c in children(unit) {
                    let (id_node, arity) = match c.kind() {
                        "operator_declaration" => (c.child_by_field_name("name").unwrap_or(c), 1),
                        _ => (c, 0),
                    };
                    let id = Ident {
                        name: m.text(id_node).into(),
                        span: m.span(id_node),
                    };
                    // A module instantiated without substitutions shares the instantiating module's
                    // declarations of the same names.
                    if lowering.g.constants.iter().any(|c| c.name == id.name) {
                        continue;
                    }
                    // So does a definition of the instantiating module (TLA+'s implicit `c <- c`),
                    // also for a constant operator (`IsQuorum(_)` by `IsQuorum(Q) == ...`).
                    if lowering.g.roles.contains_key(&id.name) {
                        continue;
                    }
                    if arity > 0 && !lowering.g.renames.contains_key(&id.name) {
                        let d = Diagnostic::unsupported(
                            m.span(c),
                            "constant operator with parameters (TLA+)",
                        );
                        lowering.g.failed.insert(id.name.clone(), d);
                    }
                    lowering.g.constants.push(id);
                }
            }
            "variable_declaration" => {
                for v in children(unit) {
                    if lowering.g.is_variable(m.text(v)) {
                        continue;
                    }
                    lowering.g.variables.push(Ident {
                        name: m.text(v).into(),
                        span: m.span(v),
                    });
                }
            }
            "recursive_declaration" => {
                for c in children(unit) {
                    let id_node = c.child_by_field_name("name").unwrap_or(c);
                    lowering.g.recursive.insert(m.text(id_node).into());
                }
            }
            "operator_definition" | "function_definition" => {
                let Some(name_node) = unit.child_by_field_name("name") else {
                    return Ok(());
                };
                let mut name: Name = m.text(name_node).into();
                let overriding = m
                    .name()
                    .and_then(|module| {
                        (lowering.g.module_overrides).get(&(module.to_string(), name.clone()))
                    })
                    .cloned();
                // Inside an instance: the definition's B name is the instance's (`N__Op`).
                let instanced = lowering.g.scope.is_some();
                if let Some(scope) = &mut lowering.g.scope {
                    name = scope.define(&name);
                }
                if let Some(value) = overriding {
                    let def = Definition {
                        name: Ident {
                            name,
                            span: m.span(name_node),
                        },
                        params: vec![],
                        body: DefinitionBody::Term(value),
                    };
                    lowering.g.add_definition(def, Role::Expr);
                    return Ok(());
                }
                let declared = lowering.g.constants.iter().any(|c| c.name == name);
                if lowering.g.bound_constants.contains(&name) && !declared && !instanced {
                    lowering.g.overridden.insert(name);
                    return Ok(());
                }
                // An infix operator (`x & y == ...`) is a definition named by its symbol.
                if !matches!(name_node.kind(), "identifier" | "infix_op_symbol") {
                    let d = Diagnostic::unsupported(
                        m.span(name_node),
                        "user-defined prefix or postfix operator (TLA+)",
                    );
                    lowering.g.failed.insert(name, d);
                    return Ok(());
                }
                let body = unit.child_by_field_name("definition");
                // A specification, also one written as another's name (`spec_1 == Spec` in a model).
                let temporal = lowering
                    .g
                    .temporal
                    .keys()
                    .cloned()
                    .collect::<FxHashSet<Name>>();
                let scope_names = lowering.g.scope.as_ref().map(|s| &s.definitions);
                let names_temporal = |b: Node<'_>| {
                    any_node(b, &|c| {
                        c.kind() == "identifier_ref"
                            && temporal.contains(&instance_name(scope_names, m.text(c)))
                    })
                };
                if body.is_some_and(|b| is_temporal(b) || names_temporal(b)) {
                    let parts = spec_parts(&mut lowering, body.expect("checked"));
                    let d = Diagnostic::unsupported(
                        m.span(name_node),
                        format!("temporal formula `{name}` used as a state predicate (TLA+)"),
                    );
                    lowering.g.failed.insert(name.clone(), d);
                    match parts {
                        Ok(p) => {
                            lowering.g.temporal.insert(name, p);
                        }
                        Err(e) => {
                            lowering.g.failed.insert(name, e);
                        }
                    }
                    return Ok(());
                }
                if unit.kind() == "operator_definition"
                    && let Some(module) = &lowering.g.current_module
                    && let Some(template) = higher_order::template(module, unit)
                {
                    let mut template = template;
                    template.scope = lowering.g.scope.clone().map(std::sync::Arc::new);
                    lowering.g.templates.insert(name, template);
                    return Ok(());
                }
                let lowered = if unit.kind() == "operator_definition" {
                    if lowering.g.recursive.contains(&name) {
                        lowering.recursive_definition(unit, name.clone(), &name.clone())
                    } else {
                        lowering.operator_definition(unit, name.clone())
                    }
                } else {
                    lowering.function_definition(unit, name.clone())
                };
                match lowered {
                    Ok((def, role)) => lowering.g.add_definition(def, role),
                    Err(d) => {
                        lowering.g.failed.insert(name, d);
                    }
                }
            }
            "assumption" => {
                let Some(body) = children(unit).into_iter().rfind(|c| c.kind() != "def_eq") else {
                    return Ok(());
                };
                match lowering.pred(body) {
                    Ok(p) => self.assumptions.push(p),
                    Err(d) => {
                        self.unchecked_assumptions = true;
                        self.notes
                            .push(format!("ASSUME at {} not checked: {}", d.span, d.message));
                    }
                }
            }

            _ => {}
        }
        Ok(())
    }

    /// Definitions for the constants the model file binds; model values become the elements of the
    /// enumerated set `MODEL_VALUES`.
    fn bind_constants(&mut self, config: &Config) -> Result<()> {
        for (name, binding) in &config.constants {
            let declared = self.g.constants.iter().any(|c| c.name == name.name);
            let overridden = self.g.overridden.contains(&name.name);
            let renamed = self.g.renames.contains_key(&name.name);
            // `r1 = r1` for a name the module does not declare: TLC only introduces the model value.
            if let ConstantBinding::Value(CfgValue::ModelValue(v), _) = binding
                && v.name == name.name
                && !declared
            {
                self.model_value(v);
                continue;
            }
            if renamed {
                continue;
            }
            if !declared && !overridden {
                return Err(Diagnostic::type_error(
                    name.span,
                    format!(
                        "the model file gives a value to `{}`, which the module does not declare as a constant",
                        name.name
                    ),
                ));
            }
            if self.g.failed.contains_key(&name.name) {
                continue;
            }
            let body = match binding {
                ConstantBinding::Value(CfgValue::ModelValue(v), _) if v.name == name.name => {
                    self.model_value(v);
                    continue;
                }
                ConstantBinding::Value(v, _) => self.cfg_value(v),
                ConstantBinding::Operator(target) => {
                    if self.g.symbol(&target.name).is_none() {
                        return Err(Diagnostic::type_error(
                            target.span,
                            format!("`{}` is not an operator of the module", target.name),
                        ));
                    }
                    continue;
                }
            };
            let def = Definition {
                name: name.clone(),
                params: vec![],
                body: DefinitionBody::Term(body),
            };
            self.g.defs.push(def);
        }
        Ok(())
    }

    fn model_value(&mut self, v: &Ident) {
        if !self.model_values.iter().any(|m| m.name == v.name) {
            self.model_values.push(v.clone());
        }
    }

    fn cfg_value(&mut self, v: &CfgValue) -> Term {
        match v {
            CfgValue::Int(n) => term(TermKind::Int(n.clone()), Span::default()),
            CfgValue::Str(s) => term(TermKind::Str(s.clone()), Span::default()),
            CfgValue::Bool(b) => term(
                TermKind::Const(if *b {
                    ConstKind::True
                } else {
                    ConstKind::False
                }),
                Span::default(),
            ),
            CfgValue::ModelValue(id) => {
                self.model_value(id);
                ident(&id.name, id.span)
            }
            CfgValue::Set(items) if items.is_empty() => {
                term(TermKind::Const(ConstKind::EmptySet), Span::default())
            }
            CfgValue::Set(items) => {
                let elems = items.iter().map(|i| self.cfg_value(i)).collect();
                term(TermKind::SetEnum(elems), Span::default())
            }
        }
    }
}

impl Loader {
    /// The machine: variables, invariants, initialisation and operations from the model file's choices.
    fn machine(mut self, name: Ident, config: &Config, config_span: Span) -> Result<Lowered> {
        // No behaviour at all: TLC then only evaluates the assumptions (and counts no state).
        let assumptions_only = config.specification.is_none()
            && config.init.is_none()
            && config.next.is_none()
            && self.g.variables.is_empty();
        let actions = if assumptions_only {
            None
        } else {
            Some(self.init_and_next(config, config_span)?)
        };
        let mut invariants = Vec::new();
        for inv in &config.invariants {
            invariants.push(self.state_predicate(inv, "invariant")?);
        }
        // CONSTRAINT: the definition the model checker reads as TLC's state constraint.
        let mut constraints = Vec::new();
        for c in &config.constraints {
            constraints.push(self.state_predicate(c, "state constraint")?);
        }
        if !constraints.is_empty() {
            let span = config.constraints[0].span;
            self.g.defs.push(Definition {
                name: Ident {
                    name: "TLC_CONSTRAINT".into(),
                    span,
                },
                params: vec![],
                body: DefinitionBody::Term(conjunction(constraints, span)),
            });
        }
        for p in &config.properties {
            if self.g.symbol(&p.name).is_none() && !self.g.temporal.contains_key(&p.name) {
                return Err(Diagnostic::type_error(
                    p.span,
                    format!("the property `{}` is not defined by the module", p.name),
                ));
            }
            self.notes.push(format!(
                "property `{}` not checked: temporal properties are not supported yet",
                p.name
            ));
        }
        if !config.symmetry.is_empty() {
            self.notes.push("SYMMETRY ignored: states are counted without symmetry reduction (TLC counts fewer)".into());
        }
        if let Some((section, span)) = config.unsupported.first() {
            return Err(Diagnostic::unsupported(
                *span,
                format!("model-file section {section} (TLA+)"),
            ));
        }
        let (initialisation, operations) = match actions {
            Some((init, next)) => (
                action::initialisation(&self.g, init)?,
                action::operations(&self.g, next)?,
            ),
            None => (
                ast::Subst {
                    kind: ast::SubstKind::Skip,
                    span: name.span,
                },
                Vec::new(),
            ),
        };
        let mut m = ast::Machine::new(ast::MachineKind::Machine, name.clone(), name.span);
        m.tla_values = true;
        m.variables = self
            .g
            .variables
            .iter()
            .map(|v| (v.clone(), false))
            .collect();
        m.invariant = Some(conjunction(invariants, name.span));

        m.initialisation = Some(initialisation);
        m.operations = operations;
        // ASSUME: checked as the machine's ASSERTIONS (TLC checks them before exploring).
        m.assertions = std::mem::take(&mut self.assumptions);
        if !self.model_values.is_empty() {
            m.sets.push(SetDecl {
                name: Ident {
                    name: "MODEL_VALUES".into(),
                    span: Span::default(),
                },
                elements: Some(self.model_values.clone()),
            });
        }
        // TLC's `Assert` (`standard`): the external `ASSERT_TRUE`, always available to a TLA+ machine.
        self.g.defs.push(Definition {
            name: Ident {
                name: "EXTERNAL_FUNCTION_ASSERT_TRUE".into(),
                span: Span::default(),
            },
            params: vec![],
            body: DefinitionBody::Term(term(TermKind::Const(ConstKind::Btrue), Span::default())),
        });
        if self.g.uses_choose {
            // ProB's Hilbert choice `CHOOSE(S)` (the least member in bsolve's value order), marked external.
            let marker = Definition {
                name: Ident {
                    name: "EXTERNAL_FUNCTION_CHOOSE".into(),
                    span: Span::default(),
                },
                params: vec![],
                body: DefinitionBody::Term(term(
                    TermKind::Const(ConstKind::Btrue),
                    Span::default(),
                )),
            };
            self.g.defs.push(marker);
        }
        // TLC enumerates every initial state and every successor: no cut at ProB's defaults of 1000 (the
        // command line's `-p` still wins).
        for pref in ["SET_PREF_MAX_INITIALISATIONS", "SET_PREF_MAX_OPERATIONS"] {
            self.g.defs.push(Definition {
                name: Ident {
                    name: pref.into(),
                    span: Span::default(),
                },
                params: vec![],
                body: DefinitionBody::Term(term(
                    TermKind::Int(1_000_000_000.into()),
                    Span::default(),
                )),
            });
        }
        m.definitions = std::mem::take(&mut self.g.defs);
        // Recursive definitions: constant functions (`recursion`), one setup of the constants.
        let recursive = std::mem::take(&mut self.g.recursive_constants);
        let recursive = recursion::used_constants(&m, recursive);
        if !recursive.is_empty() {
            let mut properties = Vec::new();
            for (c, value) in recursive {
                properties.push(op(Op::Eq, vec![ident(&c.name, c.span), value], c.span));
                m.constants.push((c, false));
            }
            m.properties = Some(conjunction(properties, name.span));
        }
        Ok(Lowered {
            machine: m,
            check_deadlock: config.check_deadlock,
            unchecked: !config.properties.is_empty() || self.unchecked_assumptions,
            assumptions_only,
            notes: self.notes,
        })
    }

    /// The initial predicate and next-state action the model file names (directly, or through its
    /// SPECIFICATION).
    fn init_and_next(&self, config: &Config, config_span: Span) -> Result<(Term, Term)> {
        if let Some(spec) = &config.specification {
            if let Some(parts) = self.g.temporal.get(&spec.name) {
                let next = parts.next.clone().ok_or_else(|| {
                    Diagnostic::unsupported(
                        spec.span,
                        format!(
                            "specification `{}` without a `[][Next]_vars` conjunct",
                            spec.name
                        ),
                    )
                })?;
                return Ok((conjunction(parts.init.clone(), spec.span), next));
            }
            return Err(match self.g.symbol(&spec.name) {
                Some(Symbol::Failed(d)) => d,
                Some(_) => Diagnostic::unsupported(
                    spec.span,
                    format!(
                        "specification `{}` is not of the form `Init /\\ [][Next]_vars`",
                        spec.name
                    ),
                ),
                None => Diagnostic::type_error(
                    spec.span,
                    format!(
                        "the specification `{}` is not defined by the module",
                        spec.name
                    ),
                ),
            });
        }
        match (&config.init, &config.next) {
            (Some(init), Some(next)) => Ok((
                self.state_predicate(init, "initial predicate")?,
                self.state_predicate(next, "next-state action")?,
            )),
            _ => Err(Diagnostic::type_error(
                config_span,
                "the model file names neither SPECIFICATION nor INIT and NEXT",
            )),
        }
    }

    /// The definition `id` of the module, as a predicate.
    fn state_predicate(&self, id: &Ident, what: &str) -> Result<Term> {
        match self.g.symbol(&id.name) {
            Some(Symbol::Definition(role)) => {
                Ok(coerce((ident(&id.name, id.span), role), Role::Pred))
            }
            Some(Symbol::Failed(d)) => Err(d),
            _ => Err(Diagnostic::type_error(
                id.span,
                format!("the {what} `{}` is not defined by the module", id.name),
            )),
        }
    }
}

/// Whether the subtree holds a temporal operator (`[]`, `<>`, `[A]_v`, `WF`/`SF`, `~>`).
fn is_temporal(n: Node<'_>) -> bool {
    any_node(n, &|c| {
        matches!(
            c.kind(),
            "step_expr_or_stutter"
                | "step_expr_no_stutter"
                | "fairness"
                | "always"
                | "eventually"
                | "leads_to"
        )
    })
}

/// The B name of the definition `name` where it is used: the instance's (`N__Op`) inside an
/// instantiated module that defines it, the name itself elsewhere.
fn instance_name(scope: Option<&FxHashMap<Name, Name>>, name: &str) -> Name {
    scope
        .and_then(|d| d.get(name).cloned())
        .unwrap_or_else(|| name.into())
}

/// Whether the subtree holds a step `[A]_v` or `<<A>>_v` outside every `<>F` and `F ~> G`: a step
/// under them (`<>[][A]_v`) only says what eventually happens — a liveness condition, like fairness,
/// that leaves the reachable states alone.
fn has_safety_step(n: Node<'_>) -> bool {
    if matches!(n.kind(), "step_expr_or_stutter" | "step_expr_no_stutter") {
        return true;
    }
    let symbol = n.child_by_field_name("symbol").map(|s| s.kind());
    if matches!(
        (n.kind(), symbol),
        ("bound_prefix_op", Some("eventually")) | ("bound_infix_op", Some("leads_to"))
    ) {
        return false;
    }
    let mut cursor = n.walk();
    n.children(&mut cursor).any(has_safety_step)
}

/// The parts of a specification formula: conjunctions of state predicates (the initial condition),
/// `[][Next]_v` and fairness conditions (not needed for safety), and other specifications by name.
fn spec_parts(l: &mut ExprLowering<'_>, n: Node<'_>) -> Result<SpecParts> {
    let mut parts = SpecParts::default();
    let mut items = vec![n];
    while let Some(n) = items.pop() {
        match n.kind() {
            "parentheses" => items.extend(children(n)),
            "conj_list" => {
                for item in children(n) {
                    items.extend(
                        children(item)
                            .into_iter()
                            .filter(|c| c.kind() != "bullet_conj"),
                    );
                }
            }
            "bound_infix_op"
                if n.child_by_field_name("symbol")
                    .is_some_and(|s| s.kind() == "land") =>
            {
                items.extend(n.child_by_field_name("lhs"));
                items.extend(n.child_by_field_name("rhs"));
            }
            "bound_prefix_op"
                if n.child_by_field_name("symbol")
                    .is_some_and(|s| s.kind() == "always")
                    && n.child_by_field_name("rhs")
                        .is_some_and(|r| r.kind() == "step_expr_or_stutter") =>
            {
                let step = n.child_by_field_name("rhs").expect("checked");
                let action = children(step)
                    .into_iter()
                    .next()
                    .ok_or_else(|| Diagnostic::syntax(l.m.span(step), "empty `[A]_v`"))?;
                if parts.next.is_some() {
                    return Err(Diagnostic::unsupported(
                        l.m.span(n),
                        "a specification with two `[][A]_v` conjuncts (TLA+)",
                    ));
                }
                parts.next = Some(l.pred(action)?);
            }
            "fairness" => {}
            "identifier_ref"
                if l.g.temporal.contains_key(&instance_name(
                    l.g.scope.as_ref().map(|s| &s.definitions),
                    l.m.text(n),
                )) =>
            {
                let key = instance_name(l.g.scope.as_ref().map(|s| &s.definitions), l.m.text(n));
                let other = l.g.temporal[&key].clone();
                parts.init.extend(other.init);
                if other.next.is_some() {
                    parts.next = other.next;
                }
            }
            // Fairness and other liveness conditions (`WF_vars(A)`, `\A p \in P : SF_vars(B(p))`,
            // `<>[][A]_v`): not needed to check invariants and deadlock.
            _ if is_temporal(n) && !has_safety_step(n) => {}
            _ if is_temporal(n) => {
                return Err(Diagnostic::unsupported(
                    l.m.span(n),
                    "this temporal formula in a specification (TLA+)",
                ));
            }
            _ => parts.init.push(l.pred(n)?),
        }
    }
    parts.init.reverse();
    Ok(parts)
}

/// The roles of the renames' targets defined in the root module, as far as their text shows.
fn rename_roles(path: &Path, renames: &FxHashMap<Name, Name>) -> FxHashMap<Name, Role> {
    let mut roles = FxHashMap::default();
    if renames.is_empty() {
        return roles;
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return roles;
    };
    let Ok(m) = SourceModule::parse(&path.display().to_string(), text) else {
        return roles;
    };
    let Ok(module) = m.module() else {
        return roles;
    };
    let targets: FxHashSet<&Name> = renames.values().collect();
    for unit in children(module) {
        if unit.kind() != "operator_definition" {
            continue;
        }
        let (Some(name), Some(body)) = (
            unit.child_by_field_name("name"),
            unit.child_by_field_name("definition"),
        ) else {
            continue;
        };
        let name: Name = m.text(name).into();
        if targets.contains(&name)
            && let Some(role) = syntactic_role(body)
        {
            roles.insert(name, role);
        }
    }
    roles
}

/// Whether an expression is a predicate by its outermost syntax (a comparison, a connective, a
/// quantifier), where that decides it; `None` where only lowering would tell.
fn syntactic_role(n: Node<'_>) -> Option<Role> {
    match n.kind() {
        "conj_list"
        | "disj_list"
        | "bounded_quantification"
        | "unbounded_quantification"
        | "boolean" => Some(Role::Pred),
        "parentheses" => syntactic_role(children(n).into_iter().next()?),
        "if_then_else" => syntactic_role(n.child_by_field_name("then")?),
        "let_in" => syntactic_role(n.child_by_field_name("expression")?),
        "bound_prefix_op" => {
            let symbol = n.child_by_field_name("symbol")?;
            (symbol.kind() == "lnot").then_some(Role::Pred)
        }
        "bound_infix_op" => {
            let symbol = n.child_by_field_name("symbol")?;
            let predicate = matches!(
                symbol.kind(),
                "eq" | "neq"
                    | "lt"
                    | "gt"
                    | "leq"
                    | "geq"
                    | "in"
                    | "notin"
                    | "subseteq"
                    | "subset"
                    | "supseteq"
                    | "land"
                    | "lor"
                    | "implies"
                    | "iff"
                    | "equiv"
            );
            Some(if predicate { Role::Pred } else { Role::Expr })
        }
        _ => None,
    }
}
