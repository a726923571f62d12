//! Lexer and Pratt parser for classical B: text → `ast`.
//!
//! Entry points: `parse_machine` (a `.mch`/`.ref`/`.imp` file), `parse_definitions_file` (a `.def` file) and
//! `parse_term` (one predicate or expression). Spans use the `FileId` given by `diag::register_source`.

pub mod ast;
mod lexer;
mod parser;
mod token;

pub use parser::{parse_definitions_file, parse_machine, parse_term};
