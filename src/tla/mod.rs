//! TLA+ front end: a module and its TLC model file become one B machine (`lower`), which every command
//! then checks like any other machine.
//!
//! `parse` reads modules with the tree-sitter grammar, `cfg` reads TLC's model files, `lower` translates
//! the syntax trees (expressions, definitions, the standard modules, and the actions `Init` and `Next`).

pub mod cfg;
mod lower;
pub mod parse;

pub use lower::Lowered;

use crate::diag::{DiagKind, Diagnostic, Result, Span, register_source};
use std::path::Path;

/// Loads the TLA+ module at `path` under the model file `config` (default: the `.cfg` of the same name).
pub fn load(path: &Path, config: Option<&Path>) -> Result<Lowered> {
    let cfg_path = lower::config_path(path, config);
    let text = std::fs::read_to_string(&cfg_path).map_err(|e| {
        let file = register_source(&cfg_path.display().to_string(), "");
        Diagnostic::new(
            DiagKind::File,
            Span::new(file, 0, 0),
            format!(
                "cannot read the model file `{}` ({e}); name one with --config FILE.cfg",
                cfg_path.display()
            ),
        )
    })?;
    let config = cfg::parse(&cfg_path.display().to_string(), &text)?;
    let file = register_source(&cfg_path.display().to_string(), &text);
    lower::load(path, &config, Span::new(file, 0, 0))
}
