//! Robustness of the front end: mutated corpus machines and random token streams go through the lexer,
//! parser, loader and type checker; every outcome must be a value (a machine or a diagnostic), never a
//! panic. 100,000+ inputs per run, seeded so a failure can be reproduced from the printed seed.

mod common;

use bsolve::{diag::register_source, machine, syntax, types};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

const MUTATED_FILES: usize = 80_000;
const TOKEN_STREAMS: usize = 30_000;

/// Words and operators of B, to build plausible-but-broken inputs.
const VOCABULARY: &[&str] = &[
    "MACHINE",
    "REFINEMENT",
    "IMPLEMENTATION",
    "END",
    "SETS",
    "CONSTANTS",
    "PROPERTIES",
    "VARIABLES",
    "INVARIANT",
    "INITIALISATION",
    "OPERATIONS",
    "DEFINITIONS",
    "ASSERTIONS",
    "INCLUDES",
    "SEES",
    "PRE",
    "THEN",
    "IF",
    "ELSIF",
    "ELSE",
    "SELECT",
    "WHEN",
    "ANY",
    "WHERE",
    "LET",
    "BE",
    "IN",
    "VAR",
    "CASE",
    "OF",
    "EITHER",
    "OR",
    "CHOICE",
    "WHILE",
    "DO",
    "VARIANT",
    "BEGIN",
    "skip",
    "x",
    "y",
    "f",
    "S",
    "card",
    "dom",
    "ran",
    "POW",
    "NAT",
    "INTEGER",
    "BOOL",
    "TRUE",
    "FALSE",
    "bool",
    "not",
    "or",
    "0",
    "1",
    "42",
    "\"s\"",
    "&",
    "=>",
    "<=>",
    ":",
    "/:",
    "<:",
    "=",
    "/=",
    "<",
    "<=",
    "+",
    "-",
    "*",
    "/",
    "**",
    "mod",
    "..",
    "\\/",
    "/\\",
    "|->",
    "-->",
    "+->",
    ">->",
    "<->",
    "<|",
    "|>",
    "<+",
    "~",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ",",
    ";",
    "||",
    "|",
    ".",
    "!",
    "#",
    "%",
    ":=",
    "::",
    "<--",
    "'",
    "==",
    "$0",
    "/*",
    "*/",
    "//",
    "\n",
    "λ",
    "∀",
    "∈",
];

/// A small deterministic generator (xorshift): the test must not depend on the platform's randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One random edit of the text: delete, duplicate or replace a span, or insert a vocabulary word.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let at = rng.below(n + 1);
    let len = 1 + rng.below(12);
    let end = (at + len).min(n);
    let word = VOCABULARY[rng.below(VOCABULARY.len())];
    let mut out: String = chars[..at].iter().collect();
    match rng.below(4) {
        0 => {}
        1 => {
            out.extend(&chars[at..end]);
            out.extend(&chars[at..end]);
        }
        2 => out.push_str(word),
        _ => {
            out.push_str(word);
            out.extend(&chars[at..end]);
        }
    }
    out.extend(&chars[end..]);
    out
}

/// Runs the whole front end on one input; panics are what the test looks for.
fn front_end(path: &str, text: &str, dir: &Path) {
    if let Ok(ast) = machine::load_text(path, text, dir) {
        let _ = types::check_machine(&ast);
    }
}

#[test]
fn mutated_corpus_machines_never_panic() {
    let files = common::corpus_files(&["mch", "ref", "imp"]);
    if files.is_empty() {
        eprintln!("corpus not found next to the repository: skipping");
        return;
    }
    // Large generated machines add time, not coverage: mutate the hand-written ones.
    let texts: Vec<(PathBuf, String)> = files
        .into_iter()
        .filter_map(|f| std::fs::read_to_string(&f).ok().map(|t| (f, t)))
        .filter(|(_, t)| t.len() < 16_384)
        .collect();
    let seed = 0x5eed_b501_u64;
    let mut rng = Rng(seed);
    for i in 0..MUTATED_FILES {
        let (path, original) = &texts[i % texts.len()];
        let mut text = mutate(original, &mut rng);
        for _ in 0..rng.below(3) {
            text = mutate(&text, &mut rng);
        }
        let dir = path.parent().expect("corpus file has a directory");
        let name = path.display().to_string();
        let outcome = catch_unwind(AssertUnwindSafe(|| front_end(&name, &text, dir)));
        assert!(
            outcome.is_ok(),
            "panic on mutation {i} (seed {seed:#x}) of {name}:\n{text}"
        );
    }
}

#[test]
fn random_token_streams_never_panic() {
    let seed = 0xb5_01ce_u64;
    let mut rng = Rng(seed);
    for i in 0..TOKEN_STREAMS {
        let len = 1 + rng.below(40);
        let words: Vec<&str> = (0..len)
            .map(|_| VOCABULARY[rng.below(VOCABULARY.len())])
            .collect();
        let text = words.join(" ");
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let file = register_source("<fuzz>", &text);
            let _ = syntax::parse_term(file, &text);
            let machine = format!("MACHINE Fuzz\nPROPERTIES {text}\nEND");
            front_end("<fuzz>", &machine, Path::new("."));
        }));
        assert!(
            outcome.is_ok(),
            "panic on token stream {i} (seed {seed:#x}): {text}"
        );
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let text = format!(
        "MACHINE Deep\nPROPERTIES {}1{} = 1\nEND",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let result = machine::load_text("<deep>", &text, Path::new("."));
    assert!(result.is_err());
}
