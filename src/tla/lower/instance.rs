//! Named instances `N == INSTANCE M WITH c <- e, v <- w` and their operators `N!Op(args)`.
//!
//! TLA+'s meaning is substitution: `N!Op` is `M`'s `Op` with each constant and variable of `M`
//! replaced by the expression the WITH clause gives it, or by the same name in the instantiating module
//! when the clause is silent. The instance's definitions are lowered once, under B names `N__Op`, in a
//! scope (`InstanceScope`) where `M`'s own definitions resolve to those names and its constants and
//! variables to their substitutes, already lowered in the instantiating module. A prime or UNCHANGED
//! over a substituted variable then applies to its substitute (both work on lowered terms: `v'` with
//! `v <- w` is `w'`). An operator with operator parameters keeps the instance's scope and is lowered
//! in it at each use. `M`'s ASSUMEs are not checked (a note says so). Not supported, and refused by
//! name where used: instances with parameters (`N(x) == INSTANCE ...`) and named instances inside an
//! instance.

use super::expr::{ExprLowering, ident};
use super::{Loader, Role, Symbol};
use crate::diag::{DiagKind, Diagnostic, Result};
use crate::syntax::ast::{Name, Term};
use crate::tla::parse::{SourceModule, children, field_children};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use tree_sitter::Node;

/// The names of one instance while its module is lowered.
#[derive(Clone, Default)]
pub(super) struct InstanceScope {
    /// `N__`: the prefix of the B names of the instance's definitions.
    prefix: String,
    /// The module's constants and variables: what each stands for, lowered in the instantiating module.
    pub substitutes: FxHashMap<Name, (Term, Role)>,
    /// The module's definitions: TLA+ name to B name.
    pub definitions: FxHashMap<Name, Name>,
}

impl InstanceScope {
    /// The B name of the instance's definition `name`, recorded before its body is lowered (a recursive
    /// definition refers to itself).
    pub fn define(&mut self, name: &Name) -> Name {
        let b_name: Name = format!("{}{name}", self.prefix).into();
        self.definitions.insert(name.clone(), b_name.clone());
        b_name
    }
}

impl Loader {
    /// `N == INSTANCE M WITH ...`: `M`'s definitions lowered under `N__`, known to `N!Op`.
    pub(super) fn named_instance(
        &mut self,
        m: &SourceModule,
        unit: Node<'_>,
        dir: &Path,
    ) -> Result<()> {
        let name_node = unit.child_by_field_name("name").ok_or_else(|| {
            Diagnostic::syntax(m.span(unit), "INSTANCE definition without a name")
        })?;
        let name: Name = m.text(name_node).into();
        if !field_children(unit, "parameter").is_empty() {
            return Err(Diagnostic::unsupported(
                m.span(unit),
                "an INSTANCE definition with parameters `N(x) == INSTANCE ...` (TLA+)",
            ));
        }
        if self.g.scope.is_some() {
            return Err(Diagnostic::unsupported(
                m.span(unit),
                "a named INSTANCE inside an instantiated module (TLA+)",
            ));
        }
        let instance = unit.child_by_field_name("definition").ok_or_else(|| {
            Diagnostic::syntax(m.span(unit), "INSTANCE definition without INSTANCE")
        })?;
        let parts = children(instance);
        let target = parts
            .iter()
            .find(|c| c.kind() == "identifier_ref")
            .ok_or_else(|| Diagnostic::syntax(m.span(unit), "INSTANCE without a module name"))?;
        let mut substitutes = FxHashMap::default();
        for sub in parts.iter().filter(|c| c.kind() == "substitution") {
            let sides: Vec<Node<'_>> = children(*sub)
                .into_iter()
                .filter(|c| c.kind() != "gets")
                .collect();
            let [lhs, rhs] = sides.as_slice() else {
                return Err(Diagnostic::syntax(m.span(*sub), "a substitution `c <- e`"));
            };
            let mut lowering = self.lowering(m);
            let lowered = lowering.lower(*rhs)?;
            substitutes.insert(Name::from(m.text(*lhs)), lowered);
        }
        let (file, text) = module_text(m, *target, dir)?;
        let module = std::sync::Arc::new(SourceModule::parse(&file.display().to_string(), text)?);
        self.g.scope = Some(InstanceScope {
            prefix: format!("{name}__"),
            substitutes,
            definitions: FxHashMap::default(),
        });
        let previous = self.g.current_module.replace(module.clone());
        let lowered = self.lower_instance_units(&module, &file);
        self.g.current_module = previous;
        let scope = self.g.scope.take().expect("set above");
        lowered?;
        self.g.instances.insert(name, scope.definitions);
        Ok(())
    }

    /// The units of a module lowered inside the current instance scope, after the modules it extends
    /// (each lowered again in the same scope: its definitions belong to this instance).
    fn lower_instance_units(&mut self, m: &SourceModule, path: &Path) -> Result<()> {
        let module = m.module()?;
        let dir = path.parent().unwrap_or(Path::new("."));
        for unit in children(module) {
            match unit.kind() {
                "extends" => {
                    for e in children(unit) {
                        let name = m.text(e).to_string();
                        if super::standard::MODULES.contains(&name.as_str())
                            || super::standard::PROOF_MODULES.contains(&name.as_str())
                        {
                            // The standard modules (and SelectSeq with Sequences) are shared, not
                            // the instance's own.
                            let scope = self.g.scope.take();
                            let extended = self.extend(m, e, dir);
                            self.g.scope = scope;
                            extended?;
                            continue;
                        }
                        let (file, text) = module_text(m, e, dir)?;
                        let inner = std::sync::Arc::new(SourceModule::parse(
                            &file.display().to_string(),
                            text,
                        )?);
                        // Templates keep the module they are written in.
                        let previous = self.g.current_module.replace(inner.clone());
                        let lowered = self.lower_instance_units(&inner, &file);
                        self.g.current_module = previous;
                        lowered?;
                    }
                }
                "instance" | "module_definition" => {
                    return Err(Diagnostic::unsupported(
                        m.span(unit),
                        "an INSTANCE inside an instantiated module (TLA+)",
                    ));
                }
                "constant_declaration" | "variable_declaration" => {
                    self.instance_parameters(m, unit)?;
                }
                "assumption" => self.notes.push(format!(
                    "ASSUME at {} of an instantiated module not checked",
                    m.span(unit)
                )),
                _ => self.definition(m, unit)?,
            }
        }
        Ok(())
    }

    /// The constants and variables an instantiated module declares: each stands for its WITH
    /// substitute, or for the same name in the instantiating module (TLA+'s implicit `x <- x`).
    fn instance_parameters(&mut self, m: &SourceModule, unit: Node<'_>) -> Result<()> {
        for c in children(unit) {
            let id_node = match c.kind() {
                "operator_declaration" => {
                    return Err(Diagnostic::unsupported(
                        m.span(c),
                        "a constant operator of an instantiated module (TLA+)",
                    ));
                }
                _ => c,
            };
            let name: Name = m.text(id_node).into();
            let scope = self.g.scope.as_ref().expect("inside an instance");
            if scope.substitutes.contains_key(&name) {
                continue;
            }
            let here = match self.g.symbol(&name) {
                Some(Symbol::Variable | Symbol::Constant) => Role::Expr,
                Some(Symbol::Definition(role)) => role,
                Some(Symbol::Failed(d)) => return Err(d),
                None => {
                    return Err(Diagnostic::type_error(
                        m.span(id_node),
                        format!(
                            "`{name}` of the instantiated module has no substitute: no WITH `{name} <- e` \
                             and no `{name}` in the instantiating module"
                        ),
                    ));
                }
            };
            let substitute = (ident(&name, m.span(id_node)), here);
            (self.g.scope.as_mut().expect("inside an instance"))
                .substitutes
                .insert(name, substitute);
        }
        Ok(())
    }
}

impl ExprLowering<'_> {
    /// `N!Op(args)` or `N!Op`: the instance's definition, applied.
    pub(super) fn instance_operator(&mut self, n: Node<'_>) -> Result<(Term, Role)> {
        let span = self.span(n);
        let prefix = self.field(n, "prefix")?;
        let components = children(prefix);
        let instance = match components.as_slice() {
            [c] if c.kind() == "subexpr_component" => children(*c)
                .into_iter()
                .find(|i| i.kind() == "identifier_ref")
                .map(|i| self.text(i).to_string()),
            _ => None,
        }
        .ok_or_else(|| self.unsupported(n, "a qualified name other than `N!Op`"))?;
        let op = self.field(n, "op")?;
        if op.kind() == "bound_op" {
            let name = self.text(self.field(op, "name")?).to_string();
            let b_name = (self.g.instances.get(instance.as_str()))
                .and_then(|d| d.get(name.as_str()).cloned());
            if let Some(b_name) = b_name
                && self.g.templates.contains_key(&*b_name)
            {
                let args = field_children(op, "parameter");
                return self.instantiate(op, &b_name, &args);
            }
        }
        let (name, args) = match op.kind() {
            "identifier_ref" => (self.text(op).to_string(), Vec::new()),
            "bound_op" => {
                let name = self.text(self.field(op, "name")?).to_string();
                let mut args = Vec::new();
                for a in field_children(op, "parameter") {
                    args.push(self.expr(a)?);
                }
                (name, args)
            }
            _ => return Err(self.unsupported(op, "this operator of an instance")),
        };
        let Some(definitions) = self.g.instances.get(instance.as_str()) else {
            if let Some(Symbol::Failed(d)) = self.g.symbol(&instance) {
                return Err(d);
            }
            return Err(Diagnostic::type_error(
                span,
                format!("`{instance}` is not a named INSTANCE of the module"),
            ));
        };
        let Some(b_name) = definitions.get(name.as_str()).cloned() else {
            return Err(Diagnostic::type_error(
                span,
                format!("`{instance}!{name}`: the instantiated module defines no `{name}`"),
            ));
        };
        match self.g.symbol(&b_name) {
            Some(Symbol::Definition(role)) => {
                super::expr::apply(ident(&b_name, span), args, role, span)
            }
            Some(Symbol::Failed(d)) => Err(d),
            _ => Err(Diagnostic::type_error(
                span,
                format!("`{instance}!{name}` is no operator bsolve could lower"),
            )),
        }
    }
}

/// The file and text of the module `name` names: a file beside the module, or one bsolve ships.
fn module_text(m: &SourceModule, name: Node<'_>, dir: &Path) -> Result<(PathBuf, String)> {
    let module_name = m.text(name);
    let file = dir.join(format!("{module_name}.tla"));
    if file.is_file() {
        let text = std::fs::read_to_string(&file).map_err(|e| {
            Diagnostic::new(
                DiagKind::File,
                m.span(name),
                format!("cannot read `{}`: {e}", file.display()),
            )
        })?;
        return Ok((file, text));
    }
    match super::community::source(module_name) {
        Some(text) => Ok((
            PathBuf::from(format!("<bsolve>/{module_name}.tla")),
            text.to_string(),
        )),
        None => Err(Diagnostic::new(
            DiagKind::File,
            m.span(name),
            format!(
                "module `{module_name}` not found: no file `{}` and not a module bsolve ships",
                file.display()
            ),
        )),
    }
}
