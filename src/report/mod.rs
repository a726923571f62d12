//! Output of every command: human-readable text by default, one JSON object with `--json`, and the exit
//! codes of ARCHITECTURE.md (0 holds / found, 1 counterexample / no solution, 2 unknown, 3 bad input,
//! 4 internal error).

pub mod itf;
pub mod symbolic;
pub mod temporal;
pub mod text;
pub mod tla_shape;
pub mod tla_syntax;
pub mod tla_trace;
pub mod trace_states;

use crate::diag::{DiagKind, Diagnostic};

/// Process exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The property holds / a solution was found as asked.
    Holds = 0,
    /// A counterexample was found / there is no solution.
    Counterexample = 1,
    /// Unknown: a bound, a timeout or an unsupported construct stopped the search.
    Unknown = 2,
    /// Bad input: syntax, type or file error, bad option.
    BadInput = 3,
    /// A bug in bsolve.
    Internal = 4,
}

/// The exit code for a diagnostic that ended a command.
pub fn exit_for(d: &Diagnostic) -> Exit {
    match d.kind {
        DiagKind::Syntax | DiagKind::Type | DiagKind::File | DiagKind::Usage => Exit::BadInput,
        // An unsupported construct is a limit of bsolve, not an error in the model: the answer is unknown.
        DiagKind::Unsupported | DiagKind::Limit | DiagKind::WellDefinedness => Exit::Unknown,
        DiagKind::Internal => Exit::Internal,
    }
}

/// Prints a diagnostic that ended a command: rendered with its source line on stderr, or as JSON on stdout.
pub fn print_error(d: &Diagnostic, json: bool) {
    if json {
        let value = serde_json::json!({
            "error": {
                "kind": format!("{:?}", d.kind),
                "location": d.span.location().map(|_| d.span.to_string()),
                "message": d.message,
            }
        });
        println!("{value}");
    } else {
        eprintln!("{}", d.render());
    }
}
