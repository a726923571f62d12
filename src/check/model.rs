//! Loading a machine file into everything the checks need: the flattened AST (for DEFINITIONS in later
//! formulas), the typed IR, and the interpreter context with its settings.

use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::{Context, Settings};
use crate::syntax::ast;
use crate::{machine, types};
use std::path::{Path, PathBuf};

/// The options every command shares (see `bsolve --help`).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Preferences as given with `-p NAME=VAL`, applied after the machine's `SET_PREF_` definitions.
    pub prefs: Vec<(String, String)>,
    /// Deferred-set sizes from `--card S=N`.
    pub cards: Vec<(String, u32)>,
    /// The solver the interpreter asks when it must choose values.
    pub backend: crate::solve::Backend,
    /// The TLC model file of a TLA+ module (`--config`; default: the module's `.cfg`).
    pub config: Option<PathBuf>,
}

/// What a TLA+ model file asks beyond the machine: deadlock checking, and what is not checked.
#[derive(Clone, Debug)]
pub struct TlaModel {
    pub check_deadlock: bool,
    /// The model file lists PROPERTIES, or the module ASSUMEs, that are not checked.
    pub unchecked: bool,
    /// No variables and no specification: the model is its assumptions (TLC counts no state).
    pub assumptions_only: bool,
    pub notes: Vec<String>,
}

/// A loaded, type-checked machine and its interpreter context.
pub struct Model {
    pub path: PathBuf,
    pub ast: ast::Machine,
    pub context: Context,
    /// Set for a TLA+ module.
    pub tla: Option<TlaModel>,
}

impl Model {
    /// Parses, flattens and type-checks `path`, then fixes MAXINT/MININT and the given sets.
    pub fn load(path: &Path, options: &Options) -> Result<Model, Diagnostic> {
        if !path.exists() {
            return Err(Diagnostic::new(
                DiagKind::File,
                Span::default(),
                format!("no such file: {}", path.display()),
            ));
        }
        if path.extension().is_some_and(|e| e == "tla") {
            let lowered = crate::tla::load(path, options.config.as_deref())?;
            let mut model = Model::from_ast(path.to_path_buf(), lowered.machine, options)?;
            model.tla = Some(TlaModel {
                check_deadlock: lowered.check_deadlock,
                unchecked: lowered.unchecked,
                assumptions_only: lowered.assumptions_only,
                notes: lowered.notes,
            });
            return Ok(model);
        }
        let ast = machine::load(path)?;
        Model::from_ast(path.to_path_buf(), ast, options)
    }

    /// The model of an empty machine, for `bsolve eval "EXPR"` without a file.
    pub fn empty(options: &Options) -> Result<Model, Diagnostic> {
        let ast = machine::load_text("<command line>", "MACHINE CommandLine END", Path::new("."))?;
        Model::from_ast(PathBuf::from("<command line>"), ast, options)
    }

    /// The model of a machine given as text, with the default options (unit tests: no file).
    #[cfg(test)]
    pub(crate) fn from_text(name: &str, text: &str) -> Model {
        Model::from_text_with(name, text, &Options::default())
    }

    /// The same with `options`.
    #[cfg(test)]
    pub(crate) fn from_text_with(name: &str, text: &str, options: &Options) -> Model {
        let ast = machine::load_text(name, text, Path::new(".")).expect("parses");
        Model::from_ast(PathBuf::from(name), ast, options).expect("loads")
    }

    fn from_ast(
        path: PathBuf,
        mut ast: ast::Machine,
        options: &Options,
    ) -> Result<Model, Diagnostic> {
        let machine = types::check_machine_taking_bodies(&mut ast)?;
        let ast = declarations_only(ast);
        let mut settings = Settings::for_machine(&machine, &options.prefs)?;
        settings.set_sizes = options
            .cards
            .iter()
            .map(|(s, n)| (s.as_str().into(), *n))
            .collect();
        settings.backend = options.backend;
        let context = Context::new(machine, settings, crate::solve::Solver::shared())?;
        Ok(Model {
            path,
            ast,
            context,
            tla: None,
        })
    }

    pub fn machine(&self) -> &crate::ir::Machine {
        self.context.machine()
    }
}

/// What formulas posed later (`eval`, `solve`, CBC's goals) are checked against: the declarations and
/// definitions. The clause bodies are typed already (CONSTRAINTS, PROPERTIES and INVARIANT were taken
/// out while typing); freeing the rest now lets the solvers reuse their memory.
fn declarations_only(mut ast: ast::Machine) -> ast::Machine {
    ast.assertions = Vec::new();
    ast.initialisation = None;
    ast.operations = Vec::new();
    ast.values = Vec::new();
    ast
}
