//! Hand-written lexer over bytes: source text → `Lexed` (tokens ending with `Tok::Eof`, and the names and
//! literals they refer to).
//!
//! Operators use longest match over the ASCII part of `token::SYMBOLS`; Unicode operators (Atelier B's
//! notation) are mapped to the same ASCII spelling. Pragmas `/*@ ... */` are comments, except the
//! `file`, `package` and `import-package` pragmas, which are returned beside the tokens
//! (`Lexed::pragmas`). A `#!` first line is skipped.

use super::token::{ASCII_SYMBOLS, Keyword, SYMBOLS, Symbol, Tok, Token};
use crate::diag::{Diagnostic, FileId, Span};
use crate::syntax::ast::Name;

/// What a Unicode operator stands for.
enum Spelled {
    Sym(&'static str),
    Kw(&'static str),
    Ident(&'static str),
}

/// Unicode operators accepted by Atelier B and ProB, with their ASCII spelling (ProB's lexer table: the
/// private-use characters U+E100..U+E103 are Rodin's spellings of `<<->`, `<->>`, `<<->>` and `<+`).
fn unicode_token(c: char) -> Option<Spelled> {
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
        '⋖' => "<+",
        '\u{e103}' => "<+",
        '\u{e100}' => "<<->",
        '\u{e101}' => "<->>",
        '\u{e102}' => "<<->>",
        '⌒' => "^",
        '÷' => "/",
        '∗' => "*",
        '⋅' => ".",
        '⇾' => "->",
        '⇽' => "<-",
        '←' => "<--",
        '↑' => "/|\\",
        '↓' => "\\|/",
        '◀' => "<<|",
        '▶' => "|>>",
        '∥' => "||",
        '⊗' => "><",
        '∘' => "∘",
        '∣' => "|",
        '≔' => ":=",
        '·' => ".",
        '∖' => "\\",
        '‥' => "..",
        '∨' => return Some(Spelled::Kw("or")),
        '∑' => return Some(Spelled::Kw("SIGMA")),
        '∏' => return Some(Spelled::Kw("PI")),
        '⋃' => return Some(Spelled::Kw("UNION")),
        '⋂' => return Some(Spelled::Kw("INTER")),
        'ℤ' => return Some(Spelled::Kw("INTEGER")),
        '⊤' => return Some(Spelled::Kw("btrue")),
        '⊥' => return Some(Spelled::Kw("bfalse")),
        'ℝ' => return Some(Spelled::Ident("REAL")),
        '¬' => return Some(Spelled::Ident("not")),
        _ => return None,
    };
    Some(Spelled::Sym(sym))
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
    lexed: Lexed,
    /// The token of each distinct word read so far: a machine repeats its identifiers many times, and
    /// one shared `Name` costs one allocation instead of one per occurrence (and one hash lookup instead
    /// of a keyword lookup and a name lookup).
    words: rustc_hash::FxHashMap<&'a str, Tok>,
}

/// The tokens of a text and what they refer to.
#[derive(Debug)]
pub struct Lexed {
    /// The tokens; the last one is always `Tok::Eof`.
    pub tokens: Vec<Token>,
    /// The distinct identifiers, indexed by `Tok::Ident`.
    pub names: Vec<Name>,
    /// Integer literals as written and string literals with escapes resolved, indexed by `Tok::Int` and
    /// `Tok::Str`.
    pub literals: Vec<Box<str>>,
    /// The pragmas that name files or packages, in source order; every other `/*@ ... */` is a comment.
    pub pragmas: Vec<Pragma>,
}

/// A `/*@file ...*/`, `/*@package ...*/` or `/*@import-package ...*/` pragma.
#[derive(Clone, Debug, PartialEq)]
pub struct Pragma {
    pub kind: PragmaKind,
    /// Its argument (a path or a dotted package name), quotes removed.
    pub arg: String,
    /// The span of the argument.
    pub span: Span,
    /// How many tokens precede it: the parser accepts it only right after the construct it belongs to.
    pub at: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PragmaKind {
    /// `SEES M /*@file "dir/M.mch" */`: the file of the machine reference before it.
    File,
    /// `/*@package a.b */` before the machine header: the machine lives in folder `a/b` of a root.
    Package,
    /// `/*@import-package c.d */` after the package pragma: folder `c/d` of that root is searched too.
    ImportPackage,
}

/// Splits `text` into tokens.
pub fn lex(file: FileId, text: &str) -> Result<Lexed, Diagnostic> {
    let mut lexer = Lexer {
        file,
        text,
        bytes: text.as_bytes(),
        pos: 0,
        lexed: Lexed {
            tokens: Vec::with_capacity(text.len() / 3),
            names: Vec::new(),
            literals: Vec::new(),
            pragmas: Vec::new(),
        },
        words: rustc_hash::FxHashMap::default(),
    };
    lexer.run()?;
    Ok(lexer.lexed)
}

impl<'a> Lexer<'a> {
    fn error(&self, start: usize, end: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic::syntax(Span::new(self.file, start, end), message)
    }

    fn push(&mut self, tok: Tok, start: usize) {
        // Spans are u32 offsets throughout (`diag::Span`).
        self.lexed.tokens.push(Token {
            tok,
            start: start as u32,
            end: self.pos as u32,
        });
    }

    /// The token of a word: a keyword, or an identifier shared with its earlier occurrences.
    fn word(&mut self, text: &'a str) -> Tok {
        if let Some(&tok) = self.words.get(text) {
            return tok;
        }
        let tok = match Keyword::named(text) {
            Some(k) => Tok::Kw(k),
            None => self.new_name(text),
        };
        self.words.insert(text, tok);
        tok
    }

    /// The `Tok::Ident` of `name`, even when it is spelled like a keyword (back-quoted).
    fn ident(&mut self, name: &'a str) -> Tok {
        match Keyword::named(name) {
            None => self.word(name),
            // Rare: not worth sharing.
            Some(_) => self.new_name(name),
        }
    }

    fn new_name(&mut self, name: &str) -> Tok {
        self.lexed.names.push(name.into());
        Tok::Ident(u32::try_from(self.lexed.names.len() - 1).expect("fewer names than bytes"))
    }

    fn literal(&mut self, text: impl Into<Box<str>>) -> u32 {
        self.lexed.literals.push(text.into());
        u32::try_from(self.lexed.literals.len() - 1).expect("fewer literals than bytes")
    }

    fn spelled(&mut self, spelled: Spelled) -> Tok {
        match spelled {
            Spelled::Sym(s) => Tok::symbol(s),
            Spelled::Kw(k) => Tok::keyword(k),
            Spelled::Ident(name) => self.ident(name),
        }
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
                    let tok = Tok::Str(self.literal(s));
                    self.push(tok, start);
                }
                b'\'' if self.rest().starts_with("'''") => {
                    self.pos += 3;
                    let s = self.string_body("'''", start)?;
                    let tok = Tok::Str(self.literal(s));
                    self.push(tok, start);
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
                    let tok = self.ident(name);
                    self.push(tok, start);
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
                if self.text[start + 2..].starts_with('@') {
                    self.pragma(start + 3, start + 2 + i)?;
                }
                Ok(())
            }
            None => Err(self.error(start, start + 2, "unterminated comment `/*`")),
        }
    }

    /// Records the pragma between byte offsets `from` and `to` (after `/*@`, before `*/`) if it names a
    /// file or package (ProB: `file PATH`, `package NAME` optionally followed by `import-package NAME`s,
    /// `import-package NAME`; a path or name may be quoted). Other pragmas (`symbolic`, `label`, `desc`,
    /// `generated` ...) change nothing bsolve computes and stay comments.
    fn pragma(&mut self, from: usize, to: usize) -> Result<(), Diagnostic> {
        let words = pragma_words(&self.text[from..to], from);
        let Some(&(first, name_start)) = words.first() else {
            return Ok(());
        };
        let kind_of = |word: &str| match word {
            "file" => Some(PragmaKind::File),
            "package" => Some(PragmaKind::Package),
            "import-package" | "import_package" | "importpackage" => {
                Some(PragmaKind::ImportPackage)
            }
            _ => None,
        };
        if kind_of(first).is_none() {
            return Ok(());
        }
        let mut rest = words.iter();
        while let Some(&(word, word_start)) = rest.next() {
            let kind = kind_of(word)
                .filter(|k| *k == PragmaKind::ImportPackage || word_start == name_start)
                .ok_or_else(|| {
                    self.error(
                        word_start,
                        word_start + word.len(),
                        format!("unexpected `{word}` in the `{first}` pragma"),
                    )
                })?;
            let Some(&(arg, arg_start)) = rest.next() else {
                return Err(self.error(
                    word_start,
                    word_start + word.len(),
                    format!("the `{word}` pragma needs an argument"),
                ));
            };
            if kind == PragmaKind::File && rest.len() > 0 {
                let (extra, at) = *rest.next().expect("one left");
                return Err(self.error(at, at + extra.len(), "one file per `file` pragma"));
            }
            let span = Span::new(self.file, arg_start, arg_start + arg.len());
            self.lexed.pragmas.push(Pragma {
                kind,
                arg: arg.trim_matches('"').to_string(),
                span,
                at: self.lexed.tokens.len(),
            });
        }
        Ok(())
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
        let tok = self.word(&self.text[start..self.pos]);
        self.push(tok, start);
    }

    fn number(&mut self) {
        let start = self.pos;
        let rest = self.rest();
        if rest.starts_with("0x") || rest.starts_with("0X") {
            let len = 2 + rest[2..].bytes().take_while(u8::is_ascii_hexdigit).count();
            if len > 2 {
                self.pos += len;
                let tok = Tok::Int(self.literal(&self.text[start..self.pos]));
                self.push(tok, start);
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
        let tok = Tok::Int(self.literal(&self.text[start..self.pos]));
        self.push(tok, start);
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
        let ascii = symbols_starting_with(first)
            .iter()
            .find(|&&i| rest.starts_with(SYMBOLS[usize::from(i)]))
            .map(|&i| {
                let symbol = Symbol::at(usize::from(i));
                (symbol, symbol.as_str().len())
            });
        // A Unicode minus (first byte 0xE2) within reach may continue the symbol: `+−>`.
        let window = &rest.as_bytes()[..rest.len().min(5)];
        let matched = match (ascii, window.contains(&0xE2)) {
            (Some((symbol, len)), true) => match minus_symbol(rest) {
                Some(longer) if longer.0.as_str().len() > symbol.as_str().len() => Some(longer),
                _ => Some((symbol, len)),
            },
            (ascii, _) => ascii,
        };
        match matched {
            Some((mut symbol, len)) => {
                self.pos += len;
                // `:∈` is ProB's Unicode spelling of `::` (becomes element of).
                if symbol.as_str() == ":" && self.rest().starts_with('∈') {
                    self.pos += '∈'.len_utf8();
                    symbol = Symbol::spelled("::");
                }
                self.push(Tok::Sym(symbol), start);
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
        if is_ident_start(c) && !matches!(c, 'λ' | 'ℕ' | 'ℤ' | 'ℙ' | 'ℝ') {
            self.identifier();
            return Ok(());
        }
        if c == '−' {
            let (symbol, len) = minus_symbol(self.rest()).expect("`−` alone is a symbol");
            self.pos += len;
            self.push(Tok::Sym(symbol), start);
            return Ok(());
        }
        self.pos += c.len_utf8();
        let tok = match (c, next) {
            ('ℕ', Some(one @ ('1' | '₁'))) => {
                self.pos += one.len_utf8();
                Tok::keyword("NATURAL1")
            }
            ('ℕ', _) => Tok::keyword("NATURAL"),
            ('ℙ', Some(one @ ('1' | '₁'))) => {
                self.pos += one.len_utf8();
                self.ident("POW1")
            }
            ('ℙ', _) => self.ident("POW"),
            ('⁻', Some('¹')) => {
                self.pos += '¹'.len_utf8();
                Tok::symbol("~")
            }
            _ if c.is_whitespace() => return Ok(()),
            _ => match unicode_token(c) {
                Some(spelled) => self.spelled(spelled),
                None => {
                    return Err(self.error(start, self.pos, format!("unexpected character `{c}`")));
                }
            },
        };
        self.push(tok, start);
        Ok(())
    }
}

/// The symbols ProB also spells with the Unicode minus `−` (U+2212) in place of `-`, longest first; the
/// others (`<--`, `<-`, `|->`) take only the ASCII `-`.
const MINUS_SPELLINGS: &[&str] = &[
    "<<->>", "<<->", "<->>", ">->>", "-->>", "+->>", "<->", ">->", "-->", "+->", "->", "-",
];

/// The longest of `MINUS_SPELLINGS` at the start of `text` with any of its `-` written `−`: the symbol
/// and the bytes it takes.
fn minus_symbol(text: &str) -> Option<(Symbol, usize)> {
    MINUS_SPELLINGS.iter().find_map(|spelling| {
        let mut len = 0;
        for b in spelling.bytes() {
            let rest = &text[len..];
            if b == b'-' && rest.starts_with('−') {
                len += '−'.len_utf8();
            } else if rest.as_bytes().first() == Some(&b) {
                len += 1;
            } else {
                return None;
            }
        }
        Some((Symbol::spelled(spelling), len))
    })
}

/// The words of a pragma's text with their byte offsets (`base` is the offset of `text`): runs of
/// non-blank characters, a double-quoted string being one word even with blanks inside.
fn pragma_words(text: &str, base: usize) -> Vec<(&str, usize)> {
    let mut words = Vec::new();
    let mut i = 0;
    while let Some(offset) = text[i..].find(|c: char| !c.is_whitespace()) {
        let start = i + offset;
        let len = match text[start..].strip_prefix('"') {
            Some(quoted) => quoted.find('"').map_or(text.len() - start, |end| end + 2),
            None => text[start..]
                .find(char::is_whitespace)
                .unwrap_or(text.len() - start),
        };
        words.push((&text[start..start + len], base + start));
        i = start + len;
    }
    words
}

/// The indices of the ASCII `SYMBOLS` that start with byte `b`, in their order (longest first).
fn symbols_starting_with(b: u8) -> &'static [u8] {
    static TABLE: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = vec![Vec::new(); 128];
        for (i, s) in SYMBOLS[..ASCII_SYMBOLS].iter().enumerate() {
            let index = u8::try_from(i).expect("fewer than 256 symbols");
            table[usize::from(s.as_bytes()[0])].push(index);
        }
        table
    });
    table.get(usize::from(b)).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each token as `kind:text`, with the name or literal it refers to.
    fn toks(text: &str) -> Vec<String> {
        let lexed = lex(FileId(0), text).expect("lexes");
        let at = |table: &[Box<str>], i: u32| table[i as usize].to_string();
        lexed
            .tokens
            .iter()
            .map(|t| match t.tok {
                Tok::Ident(i) => format!("id:{}", lexed.names[i as usize]),
                Tok::Kw(k) => format!("kw:{}", k.as_str()),
                Tok::Sym(s) => format!("sym:{}", s.as_str()),
                Tok::Int(i) => format!("int:{}", at(&lexed.literals, i)),
                Tok::Str(i) => format!("str:{}", at(&lexed.literals, i)),
                Tok::Real => "real".into(),
                Tok::Template => "template".into(),
                Tok::Eof => "eof".into(),
            })
            .collect()
    }

    #[test]
    fn longest_match_operators() {
        assert_eq!(
            toks("<<->> <<-> <->> >->> +->> |-> |>> <<| /<<: /|\\ \\|/"),
            vec![
                "sym:<<->>",
                "sym:<<->",
                "sym:<->>",
                "sym:>->>",
                "sym:+->>",
                "sym:|->",
                "sym:|>>",
                "sym:<<|",
                "sym:/<<:",
                "sym:/|\\",
                "sym:\\|/",
                "eof"
            ]
        );
    }

    #[test]
    fn identifiers_keywords_numbers_reals() {
        assert_eq!(
            toks("x$0 THEN or 0x1F 1..2 1.5 p.q"),
            vec![
                "id:x$0", "kw:THEN", "kw:or", "int:0x1F", "int:1", "sym:..", "int:2", "real",
                "id:p", "sym:.", "id:q", "eof"
            ]
        );
    }

    #[test]
    fn repeated_identifiers_share_one_name() {
        let lexed = lex(FileId(0), "x & y & x").expect("lexes");
        let ids: Vec<u32> = lexed
            .tokens
            .iter()
            .filter_map(|t| match t.tok {
                Tok::Ident(i) => Some(i),
                _ => None,
            })
            .collect();
        assert_eq!(ids.len(), 3);
        assert_eq!(ids[0], ids[2]);
        assert_eq!(lexed.names.len(), 2);
        assert_eq!(&*lexed.names[ids[1] as usize], "y");
    }

    #[test]
    fn strings_comments_pragmas() {
        assert_eq!(
            toks("#!/bin/prob\n\"a\\nb\" /* c */ /*@ symbolic */ // line\n '''x\"y''' `a b`"),
            vec!["str:a\nb", "str:x\"y", "id:a b", "eof"]
        );
    }

    #[test]
    fn a_back_quoted_keyword_is_an_identifier() {
        assert_eq!(
            toks("`END` END `END`"),
            vec!["id:END", "kw:END", "id:END", "eof"]
        );
    }

    #[test]
    fn unicode_operators_map_to_ascii() {
        assert_eq!(
            toks("x ∈ ℕ₁ ∧ r⁻¹ ⊆ ℤ × ℕ ∨ ¬ ℙ ∖"),
            vec![
                "id:x",
                "sym::",
                "kw:NATURAL1",
                "sym:&",
                "id:r",
                "sym:~",
                "sym:<:",
                "kw:INTEGER",
                "sym:*",
                "kw:NATURAL",
                "kw:or",
                "id:not",
                "id:POW",
                "sym:\\",
                "eof"
            ]
        );
    }

    #[test]
    fn prob_unicode_spellings() {
        assert_eq!(
            toks("a ⋖ b ⌒ c ÷ d ∗ e − f ⇾ g ⇽ h ↑ i ↓ j ◀ k ▶ l ∥ m"),
            vec![
                "id:a", "sym:<+", "id:b", "sym:^", "id:c", "sym:/", "id:d", "sym:*", "id:e",
                "sym:-", "id:f", "sym:->", "id:g", "sym:<-", "id:h", "sym:/|\\", "id:i",
                "sym:\\|/", "id:j", "sym:<<|", "id:k", "sym:|>>", "id:l", "sym:||", "id:m", "eof"
            ]
        );
        assert_eq!(
            toks("x :∈ S ⊤ ⊥ ℝ o ← p \u{e100} \u{e101} \u{e102} \u{e103} ∀x⋅x"),
            vec![
                "id:x",
                "sym:::",
                "id:S",
                "kw:btrue",
                "kw:bfalse",
                "id:REAL",
                "id:o",
                "sym:<--",
                "id:p",
                "sym:<<->",
                "sym:<->>",
                "sym:<<->>",
                "sym:<+",
                "sym:!",
                "id:x",
                "sym:.",
                "id:x",
                "eof"
            ]
        );
    }

    #[test]
    fn unicode_minus_inside_arrows() {
        assert_eq!(
            toks("f ∈ A +−> B −−> C ↔ D <−> E −−>> F −> s − 1 <-- x |-> −1"),
            vec![
                "id:f", "sym::", "id:A", "sym:+->", "id:B", "sym:-->", "id:C", "sym:<->", "id:D",
                "sym:<->", "id:E", "sym:-->>", "id:F", "sym:->", "id:s", "sym:-", "int:1",
                "sym:<--", "id:x", "sym:|->", "sym:-", "int:1", "eof"
            ]
        );
    }

    #[test]
    fn file_and_package_pragmas_are_recorded() {
        let text = "/*@package a.b import-package c */ /*@ import_package \"d e\" */ MACHINE M \
                    SEES N /*@file \"../x/N.mch\" */ /*@symbolic*/ /*@label L */ END";
        let lexed = lex(FileId(0), text).expect("lexes");
        let seen: Vec<(PragmaKind, &str, usize)> = lexed
            .pragmas
            .iter()
            .map(|p| (p.kind, p.arg.as_str(), p.at))
            .collect();
        assert_eq!(
            seen,
            vec![
                (PragmaKind::Package, "a.b", 0),
                (PragmaKind::ImportPackage, "c", 0),
                (PragmaKind::ImportPackage, "d e", 0),
                (PragmaKind::File, "../x/N.mch", 4),
            ]
        );
        assert_eq!(
            &text[lexed.pragmas[3].span.start as usize..][..12],
            "\"../x/N.mch\""
        );
        let e = lex(FileId(0), "/*@file*/").unwrap_err();
        assert_eq!(e.message, "the `file` pragma needs an argument");
        let e = lex(FileId(0), "/*@package a file b*/").unwrap_err();
        assert_eq!(e.message, "unexpected `file` in the `package` pragma");
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
        assert_eq!(toks("'''a\nb'''"), vec!["str:a\nb", "eof"]);
    }
}
