//! Lexer and Pratt parser for classical B: text → `ast`.

pub mod ast;
