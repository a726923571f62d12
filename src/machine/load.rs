//! Reading machine and `.def` files, resolving references relative to the referencing file, and driving the
//! flattening (`flatten`).

use super::flatten::{
    Reference, expand_shadowed_definitions, inline_calls, instantiate, merge, refine,
};
use crate::diag::{DiagKind, Diagnostic, Result, Span, register_source, register_source_text};
use crate::syntax::ast::{
    Definition, DefinitionBody, DefinitionsItem, Ident, Machine, MachineRef, Name, Op, Operation,
    Term, TermKind,
};
use crate::syntax::{parse_definitions_file, parse_machine};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};

const MACHINE_EXTENSIONS: [&str; 3] = ["mch", "ref", "imp"];

#[derive(Default)]
pub(super) struct Loader {
    /// Machine files being loaded, innermost last (to report cycles).
    stack: Vec<PathBuf>,
    /// Flattened machines by file, so a machine referenced twice is read once.
    done: FxHashMap<PathBuf, Machine>,
}

fn file_error(span: Span, message: String) -> Diagnostic {
    Diagnostic::new(DiagKind::File, span, message)
}

/// Reads a source file; a file that is not UTF-8 is read as Mac OS Roman or Latin-1 (`encoding`).
fn read(path: &Path, span: Span, what: &str) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| {
        file_error(
            span,
            format!("cannot read {what} `{}`: {e}", path.display()),
        )
    })?;
    Ok(super::encoding::decode(bytes))
}

/// ProB's standard library of definitions files (LibraryIO.def, ...), which bsolve does not ship: an
/// include of one that is not found next to the machine is skipped, and uses of its definitions are then
/// reported as unknown identifiers.
fn is_prob_library(file: &str) -> bool {
    let name = Path::new(file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(file);
    name.starts_with("Library") || name == "CHOOSE.def"
}

/// The machine file for `name` in `dir`: `name.mch`, `.ref` or `.imp`, else the same ignoring case; never
/// `exclude` (a refinement may have the name of the machine it refines).
/// B-Toolkit's library machines that only declare types B already has built in (`SEES Bool_TYPE` makes
/// BOOL visible there, `String_TYPE` STRING). A model that sees them and has no file of that name gets an
/// empty machine of that name instead of a "cannot open" error.
fn builtin_type_machine(name: &str) -> Option<&'static str> {
    match name {
        "Bool_TYPE" => Some("MACHINE Bool_TYPE END"),
        "String_TYPE" => Some("MACHINE String_TYPE END"),
        _ => None,
    }
}

fn find_machine(dir: &Path, name: &str, exclude: Option<&Path>) -> Option<PathBuf> {
    let usable = |p: &Path| {
        p.is_file() && exclude.is_none_or(|x| p.canonicalize().ok().as_deref() != Some(x))
    };
    for ext in MACHINE_EXTENSIONS {
        let candidate = dir.join(format!("{name}.{ext}"));
        if usable(&candidate) {
            return Some(candidate);
        }
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for ext in MACHINE_EXTENSIONS {
        let found = entries.iter().find(|p| {
            p.extension().and_then(|e| e.to_str()) == Some(ext)
                && p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_some_and(|s| s.eq_ignore_ascii_case(name))
                && usable(p)
        });
        if let Some(p) = found {
            return Some(p.clone());
        }
    }
    None
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

impl Loader {
    pub(super) fn load_file(&mut self, path: &Path, span: Span) -> Result<Machine> {
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if let Some(m) = self.done.get(&key) {
            return Ok(m.clone());
        }
        if self.stack.contains(&key) {
            return Err(file_error(
                span,
                format!(
                    "cyclic machine reference: `{}` refers back to itself",
                    path.display()
                ),
            ));
        }
        let text = read(path, span, "machine file")?;
        let (file, source) = register_source_text(&path.display().to_string(), text);
        let m = parse_machine(file, &source.text)?;
        self.stack.push(key.clone());
        let flat = self.flatten(m, &directory_of(path));
        self.stack.pop();
        let flat = flat?;
        // The outermost machine (nothing left on the stack) is the loader's result and never asked for
        // again: caching it would copy the whole machine for nothing.
        if !self.stack.is_empty() {
            self.done.insert(key, flat.clone());
        }
        Ok(flat)
    }

    /// The machine `name` refers to: the file its `file` pragma names (relative to `folders[0]`, the
    /// referencing machine's folder), else the first `name.mch` / `.ref` / `.imp` in `folders`.
    fn resolve(
        &mut self,
        name: &Ident,
        file: Option<&(String, Span)>,
        folders: &[PathBuf],
    ) -> Result<Machine> {
        let dir = &folders[0];
        if let Some((file, span)) = file {
            let path = dir.join(file);
            if !path.is_file() {
                return Err(file_error(
                    *span,
                    format!(
                        "cannot open machine file `{}` named by the `file` pragma",
                        path.display()
                    ),
                ));
            }
            let m = self.load_file(&path, name.span)?;
            if m.name.name != name.name {
                return Err(file_error(
                    *span,
                    format!(
                        "`{}` holds machine `{}`, not `{}`",
                        path.display(),
                        m.name.name,
                        name.name
                    ),
                ));
            }
            return Ok(m);
        }
        let current = self.stack.last().cloned();
        for folder in folders {
            if let Some(path) = find_machine(folder, &name.name, current.as_deref()) {
                return self.load_file(&path, name.span);
            }
        }
        if let Some(text) = builtin_type_machine(&name.name) {
            let file = register_source(&format!("<builtin {}>", name.name), text);
            return parse_machine(file, text);
        }
        let itself = find_machine(dir, &name.name, None)
            .and_then(|p| p.canonicalize().ok())
            .is_some_and(|p| current.as_deref() == Some(p.as_path()));
        if itself {
            return Err(file_error(
                name.span,
                format!(
                    "machine `{}` refers to itself (no other file named {0}.mch, {0}.ref or {0}.imp in {})",
                    name.name,
                    dir.display()
                ),
            ));
        }
        let searched: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
        Err(file_error(
            name.span,
            format!(
                "cannot open machine `{0}` (looked for {0}.mch, {0}.ref, {0}.imp in {1})",
                name.name,
                searched.join(", ")
            ),
        ))
    }

    /// Resolves every reference of a parsed machine and merges it into one machine.
    pub(super) fn flatten(&mut self, mut m: Machine, dir: &Path) -> Result<Machine> {
        let folders = search_folders(&m, dir)?;
        let mut seen_defs = FxHashSet::default();
        for (file, span) in std::mem::take(&mut m.definition_files) {
            let path = definitions_file(dir, &file);
            if is_prob_library(&file) && !path.is_file() {
                m.skipped_libraries.push((file, span));
                continue;
            }
            let defs = load_definitions(&path, span, &mut seen_defs, &mut Vec::new())?;
            for d in defs {
                if !m.definitions.iter().any(|e| e.name.name == d.name.name) {
                    m.definitions.push(d);
                }
            }
        }
        expand_declaration_lists(&mut m);
        // The machine being checked runs with the machines it SEES or USES, their operations included (as
        // ProB does: the shared variables then change as they would in a composition); a SEES or USES
        // deeper down only gives read access.
        let seen = if self.stack.len() <= 1 {
            Reference::Extends
        } else {
            Reference::Sees
        };
        let mut callable: FxHashMap<Name, Operation> = FxHashMap::default();
        let mut promoted: Vec<Operation> = Vec::new();
        let groups: [(Vec<MachineRef>, Reference); 5] = [
            (std::mem::take(&mut m.sees), seen),
            (std::mem::take(&mut m.uses), seen),
            (std::mem::take(&mut m.includes), Reference::Includes),
            (std::mem::take(&mut m.imports), Reference::Includes),
            (std::mem::take(&mut m.extends), Reference::Extends),
        ];
        let mut children = Vec::new();
        for (refs, how) in groups {
            for r in refs {
                let child = self.resolve(&r.name, r.file.as_ref(), &folders)?;
                children.push((instantiate(child, &r)?, how));
            }
        }
        let child_machines: Vec<&Machine> = children.iter().map(|(c, _)| c).collect();
        expand_shadowed_definitions(&mut m, &child_machines)?;
        // Each merge puts the child's items first: merging in reverse keeps the source order.
        let mut extended: Vec<Vec<Operation>> = Vec::new();
        for (child, how) in children.into_iter().rev() {
            let ops = merge(&mut m, child);
            if how == Reference::Extends {
                extended.push(ops.clone());
            }
            for op in ops {
                callable.insert(op.name.name.clone(), op);
            }
        }
        promoted.extend(extended.into_iter().rev().flatten());
        for p in std::mem::take(&mut m.promotes) {
            match callable.get(&p.name) {
                Some(op) => promoted.push(op.clone()),
                None => {
                    return Err(Diagnostic::type_error(
                        p.span,
                        format!(
                            "cannot promote `{}`: no included machine has this operation",
                            p.name
                        ),
                    ));
                }
            }
        }
        if let Some(abs) = m.refines.take() {
            let abstraction = self.resolve(&abs, None, &folders)?;
            refine(&mut m, abstraction)?;
        }
        if !callable.is_empty() {
            if let Some(init) = &m.initialisation {
                m.initialisation = Some(inline_calls(init, &callable)?);
            }
            for op in &mut m.operations {
                op.body = inline_calls(&op.body, &callable)?;
            }
        }
        for op in promoted {
            if !m.operations.iter().any(|o| o.name.name == op.name.name) {
                m.operations.push(op);
            }
        }
        let local = take_local_operations(&mut m)?;
        inline_local_calls(&mut m)?;
        m.operations.retain(|op| !local.contains(&op.name.name));
        Ok(m)
    }
}

/// Moves the LOCAL_OPERATIONS among the operations, for `inline_local_calls`; returns their names, which
/// the caller then removes: as in Atelier B, a local operation is called by the machine's operations and
/// is no operation of the machine itself. A local operation implemented in OPERATIONS (in an
/// implementation) runs as implemented there, with the parameters and outputs of its specification;
/// otherwise its specification is its body.
fn take_local_operations(m: &mut Machine) -> Result<FxHashSet<Name>> {
    let mut names = FxHashSet::default();
    for spec in std::mem::take(&mut m.local_operations) {
        if !names.insert(spec.name.name.clone()) {
            return Err(Diagnostic::type_error(
                spec.name.span,
                format!("local operation `{}` is declared twice", spec.name.name),
            ));
        }
        match m
            .operations
            .iter()
            .find(|op| op.name.name == spec.name.name)
        {
            Some(op) => {
                let names_of =
                    |ids: &[Ident]| ids.iter().map(|i| i.name.clone()).collect::<Vec<_>>();
                if names_of(&op.params) != names_of(&spec.params)
                    || names_of(&op.outputs) != names_of(&spec.outputs)
                {
                    return Err(Diagnostic::type_error(
                        op.name.span,
                        format!(
                            "the implementation of local operation `{}` has other parameters or outputs than its specification",
                            op.name.name
                        ),
                    ));
                }
            }
            None => m.operations.push(spec),
        }
    }
    Ok(names)
}

/// The folders searched for the machines `m` refers to: its own folder `dir`, then the folders its
/// `import-package` pragmas name. As in ProB, a `package a.b` pragma says that `dir` is `ROOT/a/b` (an
/// error when the folder names differ) and an imported package `c.d` is the folder `ROOT/c/d`, which
/// must exist.
fn search_folders(m: &Machine, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut folders = vec![dir.to_path_buf()];
    let Some((package, span)) = &m.package else {
        folders.extend(probpath());
        return Ok(folders);
    };
    let mut root = dir.canonicalize().map_err(|e| {
        file_error(
            *span,
            format!("cannot locate the folder `{}`: {e}", dir.display()),
        )
    })?;
    for component in package_components(package, *span)?.iter().rev() {
        let folder = root.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if folder != *component {
            return Err(file_error(
                *span,
                format!(
                    "package `{package}` does not match the folder structure: `{component}` vs `{folder}`"
                ),
            ));
        }
        root.pop();
    }
    for (import, span) in &m.import_packages {
        let folder = package_components(import, *span)?
            .iter()
            .fold(root.clone(), |f, c| f.join(c));
        if !folder.is_dir() {
            return Err(file_error(
                *span,
                format!(
                    "imported package `{import}` is not a folder: `{}`",
                    folder.display()
                ),
            ));
        }
        if folders[1..].contains(&folder) {
            return Err(file_error(
                *span,
                format!("package `{import}` is imported twice"),
            ));
        }
        folders.push(folder);
    }
    folders.extend(probpath());
    Ok(folders)
}

/// The folders of the `PROBPATH` environment variable (`:`-separated on Unix, `;` on Windows), searched
/// after the machine's own folder and imported packages, as ProB searches them.
fn probpath() -> Vec<PathBuf> {
    std::env::var_os("PROBPATH")
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// A definitions file named from a machine or definitions file in `dir`: relative to `dir`, else in
/// the first `PROBPATH` folder that has it (else the path relative to `dir`, for the error message).
fn definitions_file(dir: &Path, file: &str) -> PathBuf {
    let local = dir.join(file);
    if local.is_file() {
        return local;
    }
    probpath()
        .into_iter()
        .map(|folder| folder.join(file))
        .find(|p| p.is_file())
        .unwrap_or(local)
}

/// The folder names of a dotted package name; each must be an identifier.
fn package_components(name: &str, span: Span) -> Result<Vec<&str>> {
    let components: Vec<&str> = name.split('.').collect();
    let valid = |c: &str| {
        c.chars().next().is_some_and(char::is_alphabetic)
            && c.chars().all(|ch| ch.is_alphanumeric() || ch == '_')
    };
    if components.iter().all(|c| valid(c)) {
        Ok(components)
    } else {
        Err(Diagnostic::syntax(
            span,
            format!("invalid package name `{name}`"),
        ))
    }
}

/// A parameterless definition used in place of identifiers in VARIABLES or CONSTANTS (`Vars == (x,y,z)`,
/// ProB accepts it: B/FeatureChecks/DEFINITIONS/VariableListAsDEFINITION.mch) declares the identifiers of
/// its body.
fn expand_declaration_lists(m: &mut Machine) {
    let defs = crate::machine::definitions::Definitions::new(&m.definitions);
    let expand = |list: &[(Ident, bool)]| -> Vec<(Ident, bool)> {
        let mut out = Vec::with_capacity(list.len());
        for (id, concrete) in list {
            let body = defs.get(&id.name).and_then(|d| match &d.body {
                DefinitionBody::Term(t) if d.params.is_empty() => identifier_list(t),
                _ => None,
            });
            match body {
                Some(ids) => out.extend(ids.into_iter().map(|i| (i, *concrete))),
                None => out.push((id.clone(), *concrete)),
            }
        }
        out
    };
    let variables = expand(&m.variables);
    let constants = expand(&m.constants);
    m.variables = variables;
    m.constants = constants;
}

/// The identifiers of `x` or of a tuple `(x, y, z)`.
fn identifier_list(t: &Term) -> Option<Vec<Ident>> {
    match &t.kind {
        TermKind::Ident(name) => Some(vec![Ident {
            name: name.clone(),
            span: t.span,
        }]),
        TermKind::Op(Op::Maplet, parts) => {
            let mut ids = Vec::new();
            for p in parts {
                ids.extend(identifier_list(p)?);
            }
            Some(ids)
        }
        _ => None,
    }
}

/// Inlines the calls `outs <-- op(args)` of the machine's own operations (ProB's
/// ALLOW_LOCAL_OPERATION_CALLS) in its operations and initialisation, callees first: each round inlines the
/// operations that call no own operation any more. Calls on a cycle (recursion) stay, and are reported
/// unsupported when executed.
fn inline_local_calls(m: &mut Machine) -> Result<()> {
    loop {
        let all: FxHashMap<Name, Operation> = m
            .operations
            .iter()
            .map(|op| (op.name.name.clone(), op.clone()))
            .collect();
        let mut leaves = FxHashMap::default();
        for op in &m.operations {
            if inline_calls(&op.body, &all)? == op.body {
                leaves.insert(op.name.name.clone(), op.clone());
            }
        }
        let mut changed = false;
        if let Some(init) = &m.initialisation {
            let inlined = inline_calls(init, &leaves)?;
            changed |= inlined != *init;
            m.initialisation = Some(inlined);
        }
        for op in &mut m.operations {
            let inlined = inline_calls(&op.body, &leaves)?;
            changed |= inlined != op.body;
            op.body = inlined;
        }
        if !changed {
            return Ok(());
        }
    }
}

/// Reads a `.def` file and the `.def` files it includes (relative to itself); a file reached twice is
/// read once, a file including itself is an error.
fn load_definitions(
    path: &Path,
    span: Span,
    seen: &mut FxHashSet<PathBuf>,
    stack: &mut Vec<PathBuf>,
) -> Result<Vec<Definition>> {
    if !path.is_file() {
        return Err(file_error(
            span,
            format!("cannot open definitions file `{}`", path.display()),
        ));
    }
    let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if stack.contains(&key) {
        return Err(file_error(
            span,
            format!("cyclic definitions file include of `{}`", path.display()),
        ));
    }
    if !seen.insert(key.clone()) {
        return Ok(vec![]);
    }
    let text = read(path, span, "definitions file")?;
    let (file, source) = register_source_text(&path.display().to_string(), text);
    let items = parse_definitions_file(file, &source.text)?;
    stack.push(key);
    let mut out = Vec::new();
    let dir = directory_of(path);
    for item in items {
        match item {
            DefinitionsItem::Definition(d) => out.push(*d),
            DefinitionsItem::Include(name, span) => {
                match load_definitions(&definitions_file(&dir, &name), span, seen, stack) {
                    Ok(defs) => out.extend(defs),
                    Err(e) => {
                        stack.pop();
                        return Err(e);
                    }
                }
            }
        }
    }
    stack.pop();
    Ok(out)
}
