//! Recursive-descent parser for machines and substitutions, with a Pratt parser for terms.
//!
//! The parser works over the token vector produced by the lexer, so backtracking (used only to tell
//! `{x.P|E}` from `{p.x}` and definition bodies that are terms from those that are substitutions) is a
//! matter of resetting `pos`. Nesting is bounded by `MAX_DEPTH` so that deeply nested input yields a
//! diagnostic instead of a stack overflow.

mod binding_power;
mod machine;
mod subst;
mod term;

use super::lexer::{Pragma, PragmaKind, lex};
use super::token::{Tok, Token};
use crate::diag::{Diagnostic, FileId, Span};
use crate::syntax::ast::{Ident, Name, Term};

pub use machine::{parse_definitions_file, parse_machine};

/// Deepest nesting of terms and substitutions accepted before reporting an error.
const MAX_DEPTH: usize = 500;

/// Where a top-level `;` may end the substitution being parsed instead of continuing a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeqContext {
    /// `;` always continues the sequence.
    Plain,
    /// Inside DEFINITIONS: `;` followed by `NAME ==`, `NAME(..) ==`, a string or a clause ends the body.
    Definitions,
    /// Inside OPERATIONS: `;` followed by an operation header ends the body.
    Operations,
}

struct Parser {
    file: FileId,
    tokens: Vec<Token>,
    /// The identifiers and literals tokens refer to (`lexer::Lexed`).
    names: Vec<Name>,
    literals: Vec<Box<str>>,
    /// The file and package pragmas (`lexer::Pragma`), each taken at most once by the construct it
    /// follows; one left over is misplaced (`Parser::check_pragmas_taken`).
    pragmas: Vec<Option<Pragma>>,
    pos: usize,
    depth: usize,
    /// Operands of the `&` / `or` chains being parsed (`term::chain`).
    chain: Vec<Term>,
    seq_context: SeqContext,
}

type PResult<T> = Result<T, Diagnostic>;

impl Parser {
    fn new(file: FileId, text: &str) -> PResult<Parser> {
        let lexed = lex(file, text)?;
        Ok(Parser {
            file,
            // Room for the longest chain the text can have (n operands take 2n - 1 tokens at least):
            // reserved, touched only as far as used.
            chain: Vec::with_capacity(lexed.tokens.len() / 2),
            tokens: lexed.tokens,
            names: lexed.names,
            literals: lexed.literals,
            pragmas: lexed.pragmas.into_iter().map(Some).collect(),
            pos: 0,
            depth: 0,
            seq_context: SeqContext::Plain,
        })
    }

    fn peek(&self) -> Tok {
        self.tokens[self.pos].tok
    }

    /// The token `n` positions ahead (the final `Eof` when past the end).
    fn peek_at(&self, n: usize) -> Tok {
        let last = self.tokens.len() - 1;
        self.tokens[(self.pos + n).min(last)].tok
    }

    /// The identifier a `Tok::Ident` refers to.
    fn name(&self, index: u32) -> &Name {
        &self.names[index as usize]
    }

    /// The text of a `Tok::Int` or `Tok::Str`.
    fn literal(&self, index: u32) -> &str {
        &self.literals[index as usize]
    }

    /// How `tok` is shown in "expected ..., found ..." messages.
    fn describe(&self, tok: Tok) -> String {
        match tok {
            Tok::Ident(n) => format!("identifier `{}`", self.name(n)),
            Tok::Kw(k) => format!("`{}`", k.as_str()),
            Tok::Sym(s) => format!("`{}`", s.as_str()),
            Tok::Int(i) => format!("integer `{}`", self.literal(i)),
            Tok::Real => "decimal literal".into(),
            Tok::Str(_) => "string literal".into(),
            Tok::Template => "template string".into(),
            Tok::Eof => "end of input".into(),
        }
    }

    fn span_at(&self, index: usize) -> Span {
        let t = &self.tokens[index.min(self.tokens.len() - 1)];
        Span {
            file: self.file,
            start: t.start,
            end: t.end,
        }
    }

    fn span(&self) -> Span {
        self.span_at(self.pos)
    }

    /// The span from the token at `start` to the last consumed token.
    fn span_from(&self, start: usize) -> Span {
        let end = self.pos.saturating_sub(1).max(start);
        self.span_at(start).to(self.span_at(end))
    }

    fn advance(&mut self) -> &Token {
        let t = &self.tokens[self.pos];
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    fn at_kw(&self, k: &str) -> bool {
        self.peek().is_kw(k)
    }

    fn at_sym(&self, s: &str) -> bool {
        self.peek().is_sym(s)
    }

    fn eat_kw(&mut self, k: &str) -> bool {
        let hit = self.at_kw(k);
        if hit {
            self.advance();
        }
        hit
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        let hit = self.at_sym(s);
        if hit {
            self.advance();
        }
        hit
    }

    /// "expected X after Y, found Z" at the current token.
    fn error_expected(&self, what: &str, context: &str) -> Diagnostic {
        Diagnostic::syntax(
            self.span(),
            format!(
                "expected {what} {context}, found {}",
                self.describe(self.peek())
            ),
        )
    }

    fn expect_kw(&mut self, k: &str, context: &str) -> PResult<()> {
        if self.eat_kw(k) {
            Ok(())
        } else {
            Err(self.error_expected(&format!("`{k}`"), context))
        }
    }

    fn expect_sym(&mut self, s: &str, context: &str) -> PResult<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.error_expected(&format!("`{s}`"), context))
        }
    }

    /// A plain identifier (no dotted renaming).
    fn ident(&mut self, context: &str) -> PResult<Ident> {
        match self.peek() {
            Tok::Ident(name) => {
                let name = self.name(name).clone();
                let span = self.span();
                self.advance();
                Ok(Ident { name, span })
            }
            _ => Err(self.error_expected("an identifier", context)),
        }
    }

    /// An identifier possibly renamed with a prefix: `p.x` (no spaces around the dot) becomes one identifier
    /// named `p.x`.
    fn dotted_ident(&mut self, context: &str) -> PResult<Ident> {
        let mut id = self.ident(context)?;
        while self.dot_joins() {
            self.advance();
            let next = self.ident(context)?;
            id = Ident {
                name: Name::from(format!("{}.{}", id.name, next.name)),
                span: id.span.to(next.span),
            };
        }
        Ok(id)
    }

    /// True when the current token is a `.` glued to the previous token and to a following identifier.
    fn dot_joins(&self) -> bool {
        if !self.at_sym(".") || self.pos == 0 || self.pos + 1 >= self.tokens.len() {
            return false;
        }
        let (prev, dot, next) = (
            &self.tokens[self.pos - 1],
            &self.tokens[self.pos],
            &self.tokens[self.pos + 1],
        );
        matches!(next.tok, Tok::Ident(_)) && prev.end == dot.start && dot.end == next.start
    }

    /// `a, b, c` (at least one identifier).
    fn ident_list(&mut self, context: &str) -> PResult<Vec<Ident>> {
        let mut ids = vec![self.ident(context)?];
        while self.eat_sym(",") {
            ids.push(self.ident(context)?);
        }
        Ok(ids)
    }

    /// Enters one nesting level; errors out past `MAX_DEPTH`.
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::syntax(
                self.span(),
                format!("nesting deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Takes the pragmas of `kind` written right before the current token.
    fn take_pragmas(&mut self, kind: PragmaKind) -> Vec<Pragma> {
        let pos = self.pos;
        self.pragmas
            .iter_mut()
            .filter(|p| p.as_ref().is_some_and(|p| p.kind == kind && p.at == pos))
            .filter_map(Option::take)
            .collect()
    }

    /// Fails on a pragma no construct took: ProB accepts `file` only after a machine reference of SEES,
    /// USES, INCLUDES, EXTENDS or IMPORTS, and `package` / `import-package` only before the header.
    fn check_pragmas_taken(&self) -> PResult<()> {
        match self.pragmas.iter().flatten().next() {
            None => Ok(()),
            Some(p) => Err(Diagnostic::syntax(
                p.span,
                match p.kind {
                    PragmaKind::File => {
                        "a `file` pragma must follow a machine name in SEES, USES, INCLUDES, EXTENDS or IMPORTS"
                    }
                    PragmaKind::Package | PragmaKind::ImportPackage => {
                        "`package` and `import-package` pragmas must come before the machine header"
                    }
                },
            )),
        }
    }

    fn expect_eof(&self, context: &str) -> PResult<()> {
        if matches!(self.peek(), Tok::Eof) {
            Ok(())
        } else {
            Err(self.error_expected("end of input", context))
        }
    }
}

/// Parses one predicate or expression (the whole text).
pub fn parse_term(file: FileId, text: &str) -> PResult<crate::syntax::ast::Term> {
    let mut p = Parser::new(file, text)?;
    let t = p.term()?;
    p.expect_eof("after the formula")?;
    p.check_pragmas_taken()?;
    Ok(t)
}
