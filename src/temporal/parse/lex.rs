//! Tokens of ProB's LTL/CTL syntax, read one at a time from a byte range of a registered source.
//!
//! Two things inside a formula are B text, not temporal syntax: the predicate of `{P}` and the arguments
//! of `[Op(a, _, e)]`. The lexer does not tokenise them; it only finds where they end (matching brackets,
//! skipping B string literals, whose text may hold any bracket) and hands back their source ranges.
//!
//! All offsets are absolute byte offsets into the source text, so spans point into the machine file.

use crate::diag::{Diagnostic, FileId, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind<'a> {
    /// An identifier-like word: `G`, `GF`, `not`, `deadlock`, an operation name.
    Word(&'a str),
    /// `{P}`; `inner` is the range of `P` (between the braces).
    Pred {
        inner: (usize, usize),
    },
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
    Hash,
    Bang,
    Amp,
    /// `=>` or `->`.
    Implies,
    /// `<=>`.
    Equiv,
    /// The end of the formula's range.
    End,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokKind<'a>,
    pub start: usize,
    pub end: usize,
}

impl Token<'_> {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self.kind {
            TokKind::Word(w) => format!("`{w}`"),
            TokKind::Pred { .. } => "a predicate `{...}`".into(),
            TokKind::LParen => "`(`".into(),
            TokKind::RParen => "`)`".into(),
            TokKind::LBracket => "`[`".into(),
            TokKind::RBracket => "`]`".into(),
            TokKind::Comma => "`,`".into(),
            TokKind::Dot => "`.`".into(),
            TokKind::Hash => "`#`".into(),
            TokKind::Bang => "`!`".into(),
            TokKind::Amp => "`&`".into(),
            TokKind::Implies => "`=>`".into(),
            TokKind::Equiv => "`<=>`".into(),
            TokKind::End => "the end of the formula".into(),
        }
    }
}

/// A cursor over `text[..end]`. Copying it is how the parser looks ahead and backtracks.
#[derive(Clone, Copy)]
pub struct Lexer<'a> {
    pub file: FileId,
    pub text: &'a str,
    pub pos: usize,
    pub end: usize,
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl<'a> Lexer<'a> {
    pub fn error(&self, start: usize, end: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic::syntax(Span::new(self.file, start, end), message)
    }

    /// The unread part of the range. The parser only ever sets `pos` to a token boundary, which is a
    /// character boundary, so the slice cannot fail; `get` keeps a mistake from panicking.
    fn rest(&self) -> &'a str {
        self.text.get(self.pos..self.end).unwrap_or("")
    }

    fn skip_whitespace(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Reads the next token.
    pub fn next_token(&mut self) -> Result<Token<'a>, Diagnostic> {
        self.skip_whitespace();
        let start = self.pos;
        let rest = self.rest();
        let Some(c) = rest.chars().next() else {
            return Ok(Token {
                kind: TokKind::End,
                start,
                end: start,
            });
        };
        let (kind, len) = if is_word_start(c) {
            let len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
            (TokKind::Word(&rest[..len]), len)
        } else if c == '{' {
            let close = self.matching_brace(start)?;
            (
                TokKind::Pred {
                    inner: (start + 1, close),
                },
                close + 1 - start,
            )
        } else if rest.starts_with("=>") || rest.starts_with("->") {
            (TokKind::Implies, 2)
        } else if rest.starts_with("<=>") {
            (TokKind::Equiv, 3)
        } else {
            let kind = match c {
                '(' => TokKind::LParen,
                ')' => TokKind::RParen,
                '[' => TokKind::LBracket,
                ']' => TokKind::RBracket,
                ',' => TokKind::Comma,
                '.' => TokKind::Dot,
                '#' => TokKind::Hash,
                '!' => TokKind::Bang,
                '&' => TokKind::Amp,
                _ => {
                    return Err(self.error(
                        start,
                        start + c.len_utf8(),
                        format!("unexpected character `{c}`"),
                    ));
                }
            };
            (kind, 1)
        };
        self.pos = start + len;
        Ok(Token {
            kind,
            start,
            end: self.pos,
        })
    }

    /// The offset of the `}` closing the `{` at `open`: braces nest (`{x = {}}`), and a brace inside a B
    /// string literal does not count.
    fn matching_brace(&self, open: usize) -> Result<usize, Diagnostic> {
        let mut depth = 0usize;
        let mut at = open;
        while let Some(c) = self.char_at(at) {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(at);
                    }
                }
                '"' | '\'' => {
                    at = self.skip_string(at)?;
                    continue;
                }
                _ => {}
            }
            at += c.len_utf8();
        }
        Err(self.error(open, open + 1, "unterminated `{`"))
    }

    /// The ranges of the comma-separated arguments in the parentheses opened at `open` (each trimmed;
    /// an empty list gives no range), and the offset of the closing `)`. Commas count only outside
    /// nested brackets and strings: `Op({1, 2}, f(a, b))` has two arguments.
    pub fn argument_ranges(&self, open: usize) -> Result<(Vec<(usize, usize)>, usize), Diagnostic> {
        let mut closers: Vec<(char, usize)> = Vec::new();
        let mut args = Vec::new();
        let mut arg_start = open + 1;
        let mut at = open;
        while let Some(c) = self.char_at(at) {
            match c {
                '(' => closers.push((')', at)),
                '[' => closers.push((']', at)),
                '{' => closers.push(('}', at)),
                ')' | ']' | '}' => {
                    let Some((expected, opened)) = closers.pop() else {
                        return Err(self.error(at, at + 1, format!("unexpected `{c}`")));
                    };
                    if c != expected {
                        let opener = self.char_at(opened).unwrap_or('(');
                        return Err(self.error(
                            at,
                            at + 1,
                            format!("`{c}` does not close the `{opener}` at offset {opened}"),
                        ));
                    }
                    if closers.is_empty() {
                        self.push_argument(&mut args, arg_start, at, true)?;
                        return Ok((args, at));
                    }
                }
                ',' if closers.len() == 1 => {
                    self.push_argument(&mut args, arg_start, at, false)?;
                    arg_start = at + 1;
                }
                '"' | '\'' => {
                    at = self.skip_string(at)?;
                    continue;
                }
                _ => {}
            }
            at += c.len_utf8();
        }
        Err(self.error(open, open + 1, "unterminated `(`"))
    }

    /// Adds the trimmed argument `text[start..end]`. A blank argument is an error, except the whole list
    /// being blank (`Op()`, no arguments).
    fn push_argument(
        &self,
        args: &mut Vec<(usize, usize)>,
        start: usize,
        end: usize,
        last: bool,
    ) -> Result<(), Diagnostic> {
        let raw = &self.text[start..end];
        let trimmed = raw.trim_start();
        let s = start + (raw.len() - trimmed.len());
        let e = s + trimmed.trim_end().len();
        if s == e {
            if last && args.is_empty() {
                return Ok(());
            }
            return Err(self.error(start, end.max(start + 1), "empty argument"));
        }
        args.push((s, e));
        Ok(())
    }

    /// The offset just after the B string literal starting at `open` (`"..."` with backslash escapes,
    /// or `'''...'''`). A lone `'` is not a string: it is skipped as one character.
    fn skip_string(&self, open: usize) -> Result<usize, Diagnostic> {
        let body = self.text.get(open..self.end).unwrap_or("");
        if let Some(after) = body.strip_prefix("'''") {
            return match after.find("'''") {
                Some(i) => Ok(open + 3 + i + 3),
                None => Err(self.error(open, open + 3, "unterminated string literal")),
            };
        }
        if !body.starts_with('"') {
            return Ok(open + 1);
        }
        let mut chars = body.char_indices().skip(1);
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Ok(open + i + 1),
                '\\' => {
                    chars.next();
                }
                _ => {}
            }
        }
        Err(self.error(open, open + 1, "unterminated string literal"))
    }

    fn char_at(&self, at: usize) -> Option<char> {
        self.text.get(at..self.end)?.chars().next()
    }
}
