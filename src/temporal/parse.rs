//! ProB's LTL[e] and CTL syntax.

use super::formula::{Atom, Formula};
use crate::diag::{Diagnostic, FileId, Span};

/// Placeholder until the parser lands.
pub fn parse_ltl(
    file: FileId,
    _text: &str,
    range: std::ops::Range<usize>,
) -> Result<Formula<Atom>, Diagnostic> {
    Err(Diagnostic::syntax(
        Span::new(file, range.start, range.end),
        "no parser yet",
    ))
}

/// Placeholder until the parser lands.
pub fn parse_ctl(
    file: FileId,
    _text: &str,
    range: std::ops::Range<usize>,
) -> Result<Formula<Atom>, Diagnostic> {
    Err(Diagnostic::syntax(
        Span::new(file, range.start, range.end),
        "no parser yet",
    ))
}
