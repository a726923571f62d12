//! Loading a machine: resolve SEES/INCLUDES/EXTENDS/USES/REFINES and `.def` files relative to the machine,
//! expand DEFINITIONS, and flatten everything into one `ast::Machine` (semantics in `flatten`).

pub mod definitions;
mod encoding;
mod flatten;
mod load;
pub mod rewrite;

use crate::diag::{Diagnostic, Result, Span, register_source};
use crate::syntax::ast;
use std::path::Path;

/// Load a .mch/.ref/.imp file: parse it, resolve and parse SEES/USES/INCLUDES/EXTENDS/IMPORTS/REFINES machines
/// and "file.def" includes (relative to the including file's directory), and flatten into one ast::Machine
/// whose definitions are all collected (including those from .def files and included machines).
pub fn load(path: &Path) -> Result<ast::Machine> {
    if !path.is_file() {
        // Register the path so that the diagnostic has a location to print.
        let file = register_source(&path.display().to_string(), "");
        return Err(Diagnostic::new(
            crate::diag::DiagKind::File,
            Span::new(file, 0, 0),
            format!("cannot open machine file `{}`", path.display()),
        ));
    }
    load::Loader::default().load_file(path, Span::default())
}

/// Same from text (for tests and `bsolve eval` without a file); includes are resolved relative to `dir`.
pub fn load_text(path_for_messages: &str, text: &str, dir: &Path) -> Result<ast::Machine> {
    let file = register_source(path_for_messages, text);
    let m = crate::syntax::parse_machine(file, text)?;
    load::Loader::default().flatten(m, dir)
}

#[cfg(test)]
mod tests;
