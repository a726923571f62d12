//! Tokens produced by the lexer.
//!
//! Operators and keywords are carried as their ASCII spelling (`Sym("<->")`, `Kw("THEN")`): Unicode
//! operators are mapped to the same spelling by the lexer, so the parser and its binding-power table only
//! ever see one spelling per operator.

use crate::syntax::ast::Name;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier (possibly with a `$0` suffix, or back-quoted).
    Ident(Name),
    /// A reserved word (clause keyword, substitution keyword, `or`, `mod`, keyword constants ...).
    Kw(&'static str),
    /// An operator or punctuation, in its ASCII spelling.
    Sym(&'static str),
    /// An integer literal, as written (decimal digits or `0x..`).
    Int(Box<str>),
    /// A decimal literal such as `1.5` or `1.0E10` (ProB REAL extension).
    Real,
    /// A string literal with escapes resolved.
    Str(Box<str>),
    /// A ProB template string ```` ```...``` ````.
    Template,
    Eof,
}

/// A token with its byte range in the source. Kept small (32 bytes): a large machine has tens of
/// thousands of tokens, all alive while it is parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub start: u32,
    pub end: u32,
}

/// Reserved words. Builtin function names (`card`, `dom`, ...) are not reserved here: the parser recognises
/// them when they are applied, so they remain usable as record field names.
pub const KEYWORDS: &[&str] = &[
    // machine headers and clauses
    "MACHINE",
    "REFINEMENT",
    "IMPLEMENTATION",
    "MODEL",
    "SYSTEM",
    "CONSTRAINTS",
    "SETS",
    "CONSTANTS",
    "ABSTRACT_CONSTANTS",
    "CONCRETE_CONSTANTS",
    "VISIBLE_CONSTANTS",
    "PROPERTIES",
    "VARIABLES",
    "ABSTRACT_VARIABLES",
    "CONCRETE_VARIABLES",
    "VISIBLE_VARIABLES",
    "INVARIANT",
    "ASSERTIONS",
    "INITIALISATION",
    "INITIALIZATION",
    "OPERATIONS",
    "EVENTS",
    "DEFINITIONS",
    "SEES",
    "USES",
    "INCLUDES",
    "EXTENDS",
    "IMPORTS",
    "PROMOTES",
    "REFINES",
    "FREETYPES",
    "VALUES",
    "LOCAL_OPERATIONS",
    "REFERENCES",
    "END",
    // substitutions and conditional terms
    "BEGIN",
    "skip",
    "IF",
    "THEN",
    "ELSIF",
    "ELSE",
    "SELECT",
    "WHEN",
    "CASE",
    "OF",
    "EITHER",
    "OR",
    "ANY",
    "WHERE",
    "LET",
    "BE",
    "IN",
    "VAR",
    "PRE",
    "ASSERT",
    "CHOICE",
    "WHILE",
    "DO",
    "VARIANT",
    // operators spelled as words
    "or",
    "mod",
    // quantified expressions
    "SIGMA",
    "PI",
    "UNION",
    "INTER",
    // keyword constants
    "TRUE",
    "FALSE",
    "btrue",
    "bfalse",
    "INTEGER",
    "NATURAL",
    "NATURAL1",
    "INT",
    "NAT",
    "NAT1",
    "BOOL",
    "STRING",
    "MAXINT",
    "MININT",
];

/// The clause keywords that start a machine clause (and so end the previous one).
pub const CLAUSE_KEYWORDS: &[&str] = &[
    "CONSTRAINTS",
    "SETS",
    "CONSTANTS",
    "ABSTRACT_CONSTANTS",
    "CONCRETE_CONSTANTS",
    "VISIBLE_CONSTANTS",
    "PROPERTIES",
    "VARIABLES",
    "ABSTRACT_VARIABLES",
    "CONCRETE_VARIABLES",
    "VISIBLE_VARIABLES",
    "INVARIANT",
    "ASSERTIONS",
    "INITIALISATION",
    "INITIALIZATION",
    "OPERATIONS",
    "EVENTS",
    "DEFINITIONS",
    "SEES",
    "USES",
    "INCLUDES",
    "EXTENDS",
    "IMPORTS",
    "PROMOTES",
    "REFINES",
    "FREETYPES",
    "VALUES",
    "LOCAL_OPERATIONS",
    "REFERENCES",
];

impl Tok {
    /// How the token is shown in "expected ..., found ..." messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(n) => format!("identifier `{n}`"),
            Tok::Kw(k) => format!("`{k}`"),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Int(s) => format!("integer `{s}`"),
            Tok::Real => "decimal literal".into(),
            Tok::Str(_) => "string literal".into(),
            Tok::Template => "template string".into(),
            Tok::Eof => "end of input".into(),
        }
    }

    pub fn is_kw(&self, k: &str) -> bool {
        matches!(self, Tok::Kw(x) if *x == k)
    }

    pub fn is_sym(&self, s: &str) -> bool {
        matches!(self, Tok::Sym(x) if *x == s)
    }

    /// True for a keyword that starts a machine clause, or `END`/end of input (a clause's content ends there).
    pub fn ends_clause(&self) -> bool {
        match self {
            Tok::Kw(k) => *k == "END" || CLAUSE_KEYWORDS.contains(k),
            Tok::Eof => true,
            _ => false,
        }
    }
}
