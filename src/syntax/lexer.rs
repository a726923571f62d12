//! Hand-written lexer over bytes: source text → `Vec<Token>` (ending with `Tok::Eof`).
//!
//! Operators use longest match over the ASCII table below; Unicode operators (Atelier B's notation) are mapped
//! to the same ASCII spelling. Pragmas `/*@ ... */` are comments. A `#!` first line is skipped.

use super::token::{KEYWORDS, Tok, Token};
use crate::diag::{Diagnostic, FileId, Span};
use crate::syntax::ast::Name;

/// ASCII operators and punctuation, longest first so that the first match is the longest one.
const SYMBOLS: &[&str] = &[
    "<<->>", "<<->", "<->>", ">+>>", ">->>", "+->>", "-->>", "/<<:", "<->", ">+>", ">->", "+->",
    "-->", "<<|", "|>>", "/|\\", "\\|/", "|->", "<--", "<=>", "/<:", "<<:", "<|", "|>", "<+", "><",
    ":=", "::", "=>", "<:", "/:", "/=", "\\/", "/\\", "**", "..", "||", "->", "<-", "<=", ">=",
    "==", "<>", "'", "(", ")", "[", "]", "{", "}", ",", ";", ".", "|", "&", "!", "#", "%", "=",
    ":", "<", ">", "+", "-", "*", "/", "\\", "^", "~",
];

/// Unicode operators accepted by Atelier B, with their ASCII token.
fn unicode_token(c: char) -> Option<Tok> {
    let sym = match c {
        '∧' => "&",
        '⇒' => "=>",
        '⇔' => "<=>",
        '∀' => "!",
        '∃' => "#",
        '∈' => ":",
        '∉' => "/:",
        '⊆' => "<:",
        '⊂' => "<<:",
        '⊈' => "/<:",
        '⊄' => "/<<:",
        '∪' => "\\/",
        '∩' => "/\\",
        '×' => "*",
        '↦' => "|->",
        '↔' => "<->",
        '→' => "-->",
        '⇸' => "+->",
        '↣' => ">->",
        '⤔' => ">+>",
        '↠' => "-->>",
        '⤀' => "+->>",
        '⤖' => ">->>",
        '∅' => "{}",
        'λ' => "%",
        '≠' => "/=",
        '≤' => "<=",
        '≥' => ">=",
        '◁' => "<|",
        '⩤' => "<<|",
        '▷' => "|>",
        '⩥' => "|>>",
        '∼' => "~",
        '⊕' => "<+",
        '⊗' => "><",
        '∘' => "∘",
        '−' => "-",
        '∣' => "|",
        '≔' => ":=",
        '·' => ".",
        '∖' => "\\",
        '‥' => "..",
        '∨' => return Some(Tok::Kw("or")),
        '∑' => return Some(Tok::Kw("SIGMA")),
        '∏' => return Some(Tok::Kw("PI")),
        '⋃' => return Some(Tok::Kw("UNION")),
        '⋂' => return Some(Tok::Kw("INTER")),
        'ℤ' => return Some(Tok::Kw("INTEGER")),
        '¬' => return Some(Tok::Ident("not".into())),
        _ => return None,
    };
    Some(Tok::Sym(sym))
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || (!c.is_ascii() && c.is_alphabetic())
}

/// Letters, digits, `_`, and the Unicode subscripts and primes that may end an identifier.
fn is_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || c == '_'
        || (!c.is_ascii() && (c.is_alphanumeric() || ('₀'..='₉').contains(&c) || c == '′'))
}

struct Lexer<'a> {
    file: FileId,
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    /// One shared `Name` per distinct identifier: a machine repeats its identifiers many times, and a
    /// shared name costs one allocation instead of one per occurrence.
    names: rustc_hash::FxHashMap<&'a str, Name>,
}

/// Splits `text` into tokens; the last token is always `Tok::Eof`.
pub fn lex(file: FileId, text: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut lexer = Lexer {
        file,
        text,
        bytes: text.as_bytes(),
        pos: 0,
        tokens: Vec::with_capacity(text.len() / 3),
        names: rustc_hash::FxHashMap::default(),
    };
    lexer.run()?;
    Ok(lexer.tokens)
}

impl<'a> Lexer<'a> {
    fn error(&self, start: usize, end: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic::syntax(Span::new(self.file, start, end), message)
    }

    fn push(&mut self, tok: Tok, start: usize) {
        // Spans are u32 offsets throughout (`diag::Span`).
        self.tokens.push(Token {
            tok,
            start: start as u32,
            end: self.pos as u32,
        });
    }

    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn run(&mut self) -> Result<(), Diagnostic> {
        if self.rest().starts_with('\u{feff}') {
            self.pos += '\u{feff}'.len_utf8();
        }
        if self.rest().starts_with("#!") {
            self.skip_line();
        }
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let b = self.bytes[start];
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0c => self.pos += 1,
                b'/' if self.rest().starts_with("/*") => self.skip_block_comment()?,
                b'/' if self.rest().starts_with("//") => self.skip_line(),
                b'0'..=b'9' => self.number(),
                b'"' => {
                    self.pos += 1;
                    let s = self.string_body("\"", start)?;
                    self.push(Tok::Str(s.into()), start);
                }
                b'\'' if self.rest().starts_with("'''") => {
                    self.pos += 3;
                    let s = self.string_body("'''", start)?;
                    self.push(Tok::Str(s.into()), start);
                }
                b'`' if self.rest().starts_with("```") => {
                    let Some(len) = self.rest()[3..].find("```") else {
                        return Err(self.error(start, start + 3, "unterminated template string"));
                    };
                    self.pos += len + 6;
                    self.push(Tok::Template, start);
                }
                b'`' => {
                    let Some(len) = self.rest()[1..].find('`') else {
                        return Err(self.error(
                            start,
                            start + 1,
                            "unterminated back-quoted identifier",
                        ));
                    };
                    let name = &self.text[start + 1..start + 1 + len];
                    self.pos += len + 2;
                    self.push(Tok::Ident(name.into()), start);
                }
                _ if b.is_ascii_alphabetic() => self.identifier(),
                _ if b.is_ascii() => self.symbol()?,
                _ => self.unicode()?,
            }
        }
        self.pos = self.bytes.len();
        self.push(Tok::Eof, self.pos);
        Ok(())
    }

    fn skip_line(&mut self) {
        match self.rest().find('\n') {
            Some(i) => self.pos += i + 1,
            None => self.pos = self.bytes.len(),
        }
    }

    fn skip_block_comment(&mut self) -> Result<(), Diagnostic> {
        let start = self.pos;
        match self.rest()[2..].find("*/") {
            Some(i) => {
                self.pos += i + 4;
                Ok(())
            }
            None => Err(self.error(start, start + 2, "unterminated comment `/*`")),
        }
    }

    fn identifier(&mut self) {
        let start = self.pos;
        // ASCII letters, digits and `_` byte by byte; the rest of the identifier by characters only when a
        // non-ASCII character follows.
        let ascii = self.bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        self.pos += ascii;
        if self.bytes.get(self.pos).is_some_and(|b| !b.is_ascii()) {
            let rest = self.rest();
            self.pos += rest
                .char_indices()
                .find(|&(_, c)| !is_ident_continue(c))
                .map_or(rest.len(), |(i, _)| i);
        }
        // `x$0` names the before-value of `x` in `x : (P)`.
        if self.rest().starts_with("$0") {
            self.pos += 2;
        }
        let text = &self.text[start..self.pos];
        let tok = match keyword(text) {
            Some(k) => Tok::Kw(k),
            None => Tok::Ident(
                self.names
                    .entry(text)
                    .or_insert_with(|| text.into())
                    .clone(),
            ),
        };
        self.push(tok, start);
    }

    fn number(&mut self) {
        let start = self.pos;
        let rest = self.rest();
        if rest.starts_with("0x") || rest.starts_with("0X") {
            let len = 2 + rest[2..].bytes().take_while(u8::is_ascii_hexdigit).count();
            if len > 2 {
                self.pos += len;
                self.push(Tok::Int(self.text[start..self.pos].into()), start);
                return;
            }
        }
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        self.pos += digits(rest);
        // `1.5` is a decimal literal, but `1..5` is an interval.
        let after = self.rest().as_bytes();
        if after.len() >= 2 && after[0] == b'.' && after[1].is_ascii_digit() {
            self.pos += 1;
            self.pos += digits(self.rest());
            let after = self.rest().as_bytes();
            if after.first().is_some_and(|c| *c == b'e' || *c == b'E') {
                let sign = usize::from(after.get(1).is_some_and(|c| *c == b'+' || *c == b'-'));
                if after.get(1 + sign).is_some_and(u8::is_ascii_digit) {
                    self.pos += 1 + sign;
                    self.pos += digits(self.rest());
                }
            }
            self.push(Tok::Real, start);
            return;
        }
        self.push(Tok::Int(self.text[start..self.pos].into()), start);
    }

    /// Reads a string body up to `close` (the opening delimiter is already consumed), resolving escapes.
    fn string_body(&mut self, close: &str, start: usize) -> Result<String, Diagnostic> {
        let mut out = String::new();
        loop {
            let rest = self.rest();
            if rest.starts_with(close) {
                self.pos += close.len();
                return Ok(out);
            }
            let mut chars = rest.chars();
            let c = match chars.next() {
                // Only `'''...'''` strings may span lines, as in ProB.
                Some('\n') if close == "\"" => None,
                c => c,
            };
            let Some(c) = c else {
                return Err(self.error(start, start + close.len(), "unterminated string literal"));
            };
            if c == '\\' {
                let Some(e) = chars.next() else {
                    return Err(self.error(
                        start,
                        start + close.len(),
                        "unterminated string literal",
                    ));
                };
                match e {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    '"' | '\'' | '\\' => out.push(e),
                    _ => {
                        out.push('\\');
                        out.push(e);
                    }
                }
                self.pos += 1 + e.len_utf8();
            } else {
                out.push(c);
                self.pos += c.len_utf8();
            }
        }
    }

    fn symbol(&mut self) -> Result<(), Diagnostic> {
        let start = self.pos;
        let rest = self.rest();
        let first = rest.as_bytes()[0];
        // Only symbols starting with the same byte can match (still longest first).
        match symbols_starting_with(first)
            .iter()
            .find(|s| rest.starts_with(**s))
        {
            Some(s) => {
                self.pos += s.len();
                self.push(Tok::Sym(s), start);
                Ok(())
            }
            None => {
                let c = rest.chars().next().unwrap_or(' ');
                Err(self.error(
                    start,
                    start + c.len_utf8(),
                    format!("unexpected character `{c}`"),
                ))
            }
        }
    }

    fn unicode(&mut self) -> Result<(), Diagnostic> {
        let start = self.pos;
        let mut chars = self.rest().chars();
        let c = chars.next().expect("called with input left");
        let next = chars.next();
        if is_ident_start(c) && !matches!(c, 'λ' | 'ℕ' | 'ℤ' | 'ℙ') {
            self.identifier();
            return Ok(());
        }
        self.pos += c.len_utf8();
        let tok = match (c, next) {
            ('ℕ', Some(one @ ('1' | '₁'))) => {
                self.pos += one.len_utf8();
                Tok::Kw("NATURAL1")
            }
            ('ℕ', _) => Tok::Kw("NATURAL"),
            ('ℙ', Some(one @ ('1' | '₁'))) => {
                self.pos += one.len_utf8();
                Tok::Ident("POW1".into())
            }
            ('ℙ', _) => Tok::Ident("POW".into()),
            ('⁻', Some('¹')) => {
                self.pos += '¹'.len_utf8();
                Tok::Sym("~")
            }
            _ if c.is_whitespace() => return Ok(()),
            _ => match unicode_token(c) {
                Some(tok) => tok,
                None => {
                    return Err(self.error(start, self.pos, format!("unexpected character `{c}`")));
                }
            },
        };
        self.push(tok, start);
        Ok(())
    }
}

/// The entries of `SYMBOLS` that start with byte `b`, in their order (longest first).
fn symbols_starting_with(b: u8) -> &'static [&'static str] {
    static TABLE: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = vec![Vec::new(); 128];
        for s in SYMBOLS {
            table[usize::from(s.as_bytes()[0])].push(*s);
        }
        table
    });
    table.get(usize::from(b)).map_or(&[], Vec::as_slice)
}

/// The keyword spelled `text`, if any: a hash lookup, since every identifier of a machine (some have
/// tens of thousands) is checked against the hundred-odd keywords.
fn keyword(text: &str) -> Option<&'static str> {
    static TABLE: std::sync::OnceLock<rustc_hash::FxHashSet<&'static str>> =
        std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| KEYWORDS.iter().copied().collect())
        .get(text)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        lex(FileId(0), text)
            .expect("lexes")
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn longest_match_operators() {
        assert_eq!(
            toks("<<->> <<-> <->> >->> +->> |-> |>> <<| /<<: /|\\ \\|/"),
            vec![
                Tok::Sym("<<->>"),
                Tok::Sym("<<->"),
                Tok::Sym("<->>"),
                Tok::Sym(">->>"),
                Tok::Sym("+->>"),
                Tok::Sym("|->"),
                Tok::Sym("|>>"),
                Tok::Sym("<<|"),
                Tok::Sym("/<<:"),
                Tok::Sym("/|\\"),
                Tok::Sym("\\|/"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn identifiers_keywords_numbers_reals() {
        assert_eq!(
            toks("x$0 THEN or 0x1F 1..2 1.5 p.q"),
            vec![
                Tok::Ident("x$0".into()),
                Tok::Kw("THEN"),
                Tok::Kw("or"),
                Tok::Int("0x1F".into()),
                Tok::Int("1".into()),
                Tok::Sym(".."),
                Tok::Int("2".into()),
                Tok::Real,
                Tok::Ident("p".into()),
                Tok::Sym("."),
                Tok::Ident("q".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn repeated_identifiers_share_one_name() {
        let names: Vec<Name> = lex(FileId(0), "x & y & x")
            .expect("lexes")
            .into_iter()
            .filter_map(|t| match t.tok {
                Tok::Ident(n) => Some(n),
                _ => None,
            })
            .collect();
        assert_eq!(names.len(), 3);
        assert!(std::sync::Arc::ptr_eq(&names[0], &names[2]));
        assert_eq!(&*names[1], "y");
    }

    #[test]
    fn strings_comments_pragmas() {
        assert_eq!(
            toks("#!/bin/prob\n\"a\\nb\" /* c */ /*@ symbolic */ // line\n '''x\"y''' `a b`"),
            vec![
                Tok::Str("a\nb".into()),
                Tok::Str("x\"y".into()),
                Tok::Ident("a b".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn unicode_operators_map_to_ascii() {
        assert_eq!(
            toks("x ∈ ℕ₁ ∧ r⁻¹ ⊆ ℤ × ℕ ∨ ¬ ℙ ∖"),
            vec![
                Tok::Ident("x".into()),
                Tok::Sym(":"),
                Tok::Kw("NATURAL1"),
                Tok::Sym("&"),
                Tok::Ident("r".into()),
                Tok::Sym("~"),
                Tok::Sym("<:"),
                Tok::Kw("INTEGER"),
                Tok::Sym("*"),
                Tok::Kw("NATURAL"),
                Tok::Kw("or"),
                Tok::Ident("not".into()),
                Tok::Ident("POW".into()),
                Tok::Sym("\\"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn errors_have_positions() {
        let e = lex(FileId(0), "x = 1 ? 2").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (6, 7));
        let e = lex(FileId(0), "x /* open").unwrap_err();
        assert_eq!(e.span.start, 2);
        let e = lex(FileId(0), "x = \"abc").unwrap_err();
        assert_eq!(e.span.start, 4);
        let e = lex(FileId(0), "x = \"a\nb\"").unwrap_err();
        assert_eq!(e.message, "unterminated string literal");
        assert_eq!(toks("'''a\nb'''"), vec![Tok::Str("a\nb".into()), Tok::Eof]);
    }
}
