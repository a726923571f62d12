//! Tokens produced by the lexer.
//!
//! Operators and keywords are carried as their ASCII spelling (`Sym` of `<->`, `Kw` of `THEN`): Unicode
//! operators are mapped to the same spelling by the lexer, so the parser and its binding-power table only
//! ever see one spelling per operator. A token is 16 bytes: spellings are indices into `SYMBOLS` and
//! `KEYWORDS`, identifiers and literals indices into the tables the lexer returns with the tokens
//! (`lexer::Lexed`). A large machine has tens of thousands of tokens, all alive while it is parsed, and
//! copying, dropping or first touching each costs on every run.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier (possibly with a `$0` suffix, or back-quoted): index into `Lexed::names`.
    Ident(u32),
    /// A reserved word (clause keyword, substitution keyword, `or`, `mod`, keyword constants ...).
    Kw(Keyword),
    /// An operator or punctuation, in its ASCII spelling.
    Sym(Symbol),
    /// An integer literal, as written (decimal digits or `0x..`): index into `Lexed::literals`.
    Int(u32),
    /// A decimal literal such as `1.5` or `1.0E10` (ProB REAL extension).
    Real,
    /// A string literal with escapes resolved: index into `Lexed::literals`.
    Str(u32),
    /// A ProB template string ```` ```...``` ````.
    Template,
    Eof,
}

/// A token with its byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub start: u32,
    pub end: u32,
}

/// A reserved word, by its index in `KEYWORDS`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Keyword(u8);

impl Keyword {
    pub fn as_str(self) -> &'static str {
        KEYWORDS[usize::from(self.0)]
    }

    /// The keyword spelled `text`, if any: a hash lookup, since every identifier of a machine (some have
    /// tens of thousands) is checked against the hundred-odd keywords.
    pub fn named(text: &str) -> Option<Keyword> {
        static TABLE: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, u8>> =
            std::sync::OnceLock::new();
        TABLE
            .get_or_init(|| {
                let index = |i: usize| u8::try_from(i).expect("fewer than 256 keywords");
                KEYWORDS
                    .iter()
                    .enumerate()
                    .map(|(i, k)| (*k, index(i)))
                    .collect()
            })
            .get(text)
            .map(|&i| Keyword(i))
    }
}

impl fmt::Debug for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_str())
    }
}

/// An operator or punctuation spelling, by its index in `SYMBOLS`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Symbol(u8);

impl Symbol {
    pub fn as_str(self) -> &'static str {
        SYMBOLS[usize::from(self.0)]
    }

    /// The symbol at `index` of `SYMBOLS`.
    pub fn at(index: usize) -> Symbol {
        Symbol(u8::try_from(index).expect("fewer than 256 symbols"))
    }

    /// The symbol spelled `s` (a spelling from `SYMBOLS`; the lexer's Unicode mapping names them by text).
    pub fn spelled(s: &str) -> Symbol {
        Symbol::at(
            SYMBOLS
                .iter()
                .position(|x| *x == s)
                .unwrap_or_else(|| panic!("`{s}` is not in SYMBOLS")),
        )
    }
}

impl fmt::Debug for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_str())
    }
}

/// ASCII operators and punctuation, longest first so that the first match is the longest one; after
/// them (from `ASCII_SYMBOLS` on) the spellings only Unicode input produces: `∅` is `{}` (as ASCII, `{`
/// then `}`), and `∘` has no ASCII operator.
pub const SYMBOLS: &[&str] = &[
    "<<->>", "<<->", "<->>", ">+>>", ">->>", "+->>", "-->>", "/<<:", "<->", ">+>", ">->", "+->",
    "-->", "<<|", "|>>", "/|\\", "\\|/", "|->", "<--", "<=>", "/<:", "<<:", "<|", "|>", "<+", "><",
    ":=", "::", "=>", "<:", "/:", "/=", "\\/", "/\\", "**", "..", "||", "->", "<-", "<=", ">=",
    "==", "<>", "'", "(", ")", "[", "]", "{", "}", ",", ";", ".", "|", "&", "!", "#", "%", "=",
    ":", "<", ">", "+", "-", "*", "/", "\\", "^", "~", "{}", "∘",
];

/// How many of `SYMBOLS` are written in ASCII.
pub const ASCII_SYMBOLS: usize = SYMBOLS.len() - 2;

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
    "EXPRESSIONS",
    "PREDICATES",
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
    "EXPRESSIONS",
    "PREDICATES",
];

impl Tok {
    /// A keyword token; `k` must be one of `KEYWORDS`.
    pub fn keyword(k: &str) -> Tok {
        Tok::Kw(Keyword::named(k).unwrap_or_else(|| panic!("`{k}` is not a keyword")))
    }

    /// A symbol token; `s` must be one of `SYMBOLS`.
    pub fn symbol(s: &str) -> Tok {
        Tok::Sym(Symbol::spelled(s))
    }

    /// The spelling of a keyword token.
    pub fn kw(self) -> Option<&'static str> {
        match self {
            Tok::Kw(k) => Some(k.as_str()),
            _ => None,
        }
    }

    /// The spelling of a symbol token.
    pub fn sym(self) -> Option<&'static str> {
        match self {
            Tok::Sym(s) => Some(s.as_str()),
            _ => None,
        }
    }

    pub fn is_kw(&self, k: &str) -> bool {
        self.kw() == Some(k)
    }

    pub fn is_sym(&self, s: &str) -> bool {
        self.sym() == Some(s)
    }

    /// True for a keyword that starts a machine clause, or `END`/end of input (a clause's content ends there).
    pub fn ends_clause(&self) -> bool {
        match self {
            Tok::Kw(k) => k.as_str() == "END" || CLAUSE_KEYWORDS.contains(&k.as_str()),
            Tok::Eof => true,
            _ => false,
        }
    }
}
