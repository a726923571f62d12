//! ProB's LTL[e] and CTL formula syntax, parsed into `Formula<Atom>`.
//!
//! A Pratt parser: one table of binding powers (`infix_operator`) for the binary connectives, prefix
//! operators parsed by `prefix`. From loosest to tightest: `=>`/`->` and `<=>` (right-associative),
//! `or`, `&`/`and`, the binary temporal operators `U W R S T` (right-associative, LTL only), then the
//! prefix operators (`not`, `!`, `G F X Y H O`, the CTL quantifier pairs, fairness, `#`/`!` quantifiers)
//! and the atoms. So `G p => q` is `(G p) => q` and `p U q & r` is `(p U q) & r`.
//!
//! Atoms keep their B text as source ranges (`{P}`, operation arguments); the B parser reads them when
//! the formula is resolved against a machine.

mod lex;
#[cfg(test)]
mod tests;

use self::lex::{Lexer, TokKind, Token};
use super::formula::{Action, ArgPattern, Atom, Formula, Kind};
use crate::diag::{Diagnostic, FileId, Span};
use crate::syntax::ast::{Ident, Name};
use std::ops::Range;

/// Parses an LTL formula in `text[range]` of source `file`. Spans are absolute offsets into `text`, so
/// positions in errors are those of the registered source.
pub fn parse_ltl(
    file: FileId,
    text: &str,
    range: Range<usize>,
) -> Result<Formula<Atom>, Diagnostic> {
    parse(Logic::Ltl, file, text, range)
}

/// Parses a CTL formula in `text[range]` of source `file`, spans as for `parse_ltl`.
pub fn parse_ctl(
    file: FileId,
    text: &str,
    range: Range<usize>,
) -> Result<Formula<Atom>, Diagnostic> {
    parse(Logic::Ctl, file, text, range)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Logic {
    Ltl,
    Ctl,
}

impl Logic {
    fn name(self) -> &'static str {
        match self {
            Logic::Ltl => "LTL",
            Logic::Ctl => "CTL",
        }
    }
}

/// Binding power of a prefix operator's operand: above every infix operator, so an operand is one
/// prefix-level formula (`not G p & q` is `(not (G p)) & q`).
const PREFIX_OPERAND: u8 = 9;

/// A formula nested deeper than this is refused rather than risking the stack, in the parser and in
/// every pass that recurses over the tree: real formulas nest a few levels. A chain of a left-associative
/// operator (`a & b & ...`) is a tree as deep as it is long, so its length counts too.
const MAX_DEPTH: usize = 200;

/// LTL's unary temporal operators, one letter each; a word made only of these letters is one operator
/// per letter (`GF p` is `G (F p)`), as ProB reads it.
const LTL_UNARY_LETTERS: &str = "GFXYHO";

fn parse(
    logic: Logic,
    file: FileId,
    text: &str,
    range: Range<usize>,
) -> Result<Formula<Atom>, Diagnostic> {
    if range.start > range.end
        || range.end > text.len()
        || !text.is_char_boundary(range.start)
        || !text.is_char_boundary(range.end)
    {
        let at = range.start.min(text.len());
        return Err(Diagnostic::syntax(
            Span::new(file, at, at),
            format!(
                "{} formula range {range:?} is outside its source text",
                logic.name()
            ),
        ));
    }
    let mut lexer = Lexer {
        file,
        text,
        pos: range.start,
        end: range.end,
    };
    let tok = lexer.next_token()?;
    if tok.kind == TokKind::End {
        return Err(lexer.error(
            range.start,
            range.end,
            format!("empty {} formula", logic.name()),
        ));
    }
    let mut parser = Parser {
        logic,
        lexer,
        tok,
        depth: 0,
    };
    let formula = parser.formula(0)?;
    match parser.tok.kind {
        TokKind::End => Ok(formula),
        TokKind::Word("U") if logic == Logic::Ctl => Err(parser.error_at(
            parser.tok,
            "in CTL, `U` is written `E f U g` or `A f U g`".to_string(),
        )),
        _ => Err(parser.error_at(
            parser.tok,
            format!(
                "expected an operator or the end of the formula, found {}",
                parser.tok.describe()
            ),
        )),
    }
}

/// The binary connectives.
#[derive(Clone, Copy)]
enum Infix {
    Implies,
    Equiv,
    Or,
    And,
    Until,
    WeakUntil,
    Release,
    Since,
    Trigger,
}

impl Infix {
    /// `(left, right)` binding powers: left-associative operators bind tighter on the right.
    fn binding_power(self) -> (u8, u8) {
        match self {
            Infix::Implies | Infix::Equiv => (2, 1),
            Infix::Or => (3, 4),
            Infix::And => (5, 6),
            Infix::Until | Infix::WeakUntil | Infix::Release | Infix::Since | Infix::Trigger => {
                (8, 7)
            }
        }
    }

    fn build(self, lhs: Formula<Atom>, rhs: Formula<Atom>) -> Formula<Atom> {
        let span = lhs.span.to(rhs.span);
        let (l, r) = (Box::new(lhs), Box::new(rhs));
        let kind = match self {
            Infix::Implies => Kind::Implies(l, r),
            Infix::Equiv => Kind::Equiv(l, r),
            Infix::Or => Kind::Or(l, r),
            Infix::And => Kind::And(l, r),
            Infix::Until => Kind::Until(l, r),
            Infix::WeakUntil => Kind::WeakUntil(l, r),
            Infix::Release => Kind::Release(l, r),
            Infix::Since => Kind::Since(l, r),
            Infix::Trigger => Kind::Trigger(l, r),
        };
        Formula::new(kind, span)
    }
}

fn infix_operator(logic: Logic, tok: &Token) -> Option<Infix> {
    Some(match tok.kind {
        TokKind::Implies => Infix::Implies,
        TokKind::Equiv => Infix::Equiv,
        TokKind::Amp | TokKind::Word("and") => Infix::And,
        TokKind::Word("or") => Infix::Or,
        TokKind::Word(w) if logic == Logic::Ltl => match w {
            "U" => Infix::Until,
            "W" => Infix::WeakUntil,
            "R" => Infix::Release,
            "S" => Infix::Since,
            "T" => Infix::Trigger,
            _ => return None,
        },
        _ => return None,
    })
}

/// An LTL unary temporal operator from its letter.
fn ltl_unary(letter: char, f: Box<Formula<Atom>>) -> Kind<Atom> {
    match letter {
        'G' => Kind::Globally(f),
        'F' => Kind::Finally(f),
        'X' => Kind::Next(f),
        'Y' => Kind::Yesterday(f),
        'H' => Kind::Historically(f),
        _ => Kind::Once(f),
    }
}

/// Builds a unary node from its operand.
type UnaryBuilder = fn(Box<Formula<Atom>>) -> Kind<Atom>;

/// A CTL unary operator (other than `EX`, which may carry an action) from its word.
fn ctl_unary(word: &str) -> Option<UnaryBuilder> {
    Some(match word {
        "AX" => Kind::AllNext,
        "EF" => Kind::ExistsFinally,
        "EG" => Kind::ExistsGlobally,
        "AF" => Kind::AllFinally,
        "AG" => Kind::AllGlobally,
        _ => return None,
    })
}

struct Parser<'a> {
    logic: Logic,
    lexer: Lexer<'a>,
    /// The current (not yet consumed) token.
    tok: Token<'a>,
    /// Nesting of `formula` calls, bounded by `MAX_DEPTH`.
    depth: usize,
}

impl<'a> Parser<'a> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.lexer.file, start, end)
    }

    fn error_at(&self, tok: Token, message: String) -> Diagnostic {
        self.lexer.error(tok.start, tok.end, message)
    }

    fn bump(&mut self) -> Result<Token<'a>, Diagnostic> {
        let tok = self.tok;
        self.tok = self.lexer.next_token()?;
        Ok(tok)
    }

    /// Consumes a token of kind `kind`, or reports what was found instead, `context` saying where.
    fn expect(
        &mut self,
        kind: TokKind,
        what: &str,
        context: &str,
    ) -> Result<Token<'a>, Diagnostic> {
        if self.tok.kind == kind {
            return self.bump();
        }
        Err(self.error_at(
            self.tok,
            format!("expected {what} {context}, found {}", self.tok.describe()),
        ))
    }

    /// A formula whose infix operators all bind at least as tightly as `min_bp`. Every recursion of the
    /// parser passes through here (parentheses, operands, right operands), so the depth is bounded here;
    /// `depth` is back to its value on entry when this returns.
    fn formula(&mut self, min_bp: u8) -> Result<Formula<Atom>, Diagnostic> {
        let depth = self.depth;
        let result = self.formula_unbounded(min_bp);
        self.depth = depth;
        result
    }

    /// One level deeper, or the error if that is too deep.
    fn descend(&mut self) -> Result<(), Diagnostic> {
        if self.depth >= MAX_DEPTH {
            let message = format!("formula nested too deeply (more than {MAX_DEPTH} levels)");
            return Err(self.error_at(self.tok, message));
        }
        self.depth += 1;
        Ok(())
    }

    fn formula_unbounded(&mut self, min_bp: u8) -> Result<Formula<Atom>, Diagnostic> {
        self.descend()?;
        let mut lhs = self.prefix()?;
        while let Some(op) = infix_operator(self.logic, &self.tok) {
            let (left, right) = op.binding_power();
            if left < min_bp {
                break;
            }
            self.descend()?;
            let op_tok = self.bump()?;
            if self.tok.kind == TokKind::End {
                return Err(self.error_at(
                    self.tok,
                    format!("expected a formula after {}", op_tok.describe()),
                ));
            }
            let rhs = self.formula(right)?;
            lhs = op.build(lhs, rhs);
        }
        Ok(lhs)
    }

    /// The operand of a prefix operator.
    fn operand(&mut self) -> Result<Formula<Atom>, Diagnostic> {
        self.formula(PREFIX_OPERAND)
    }

    fn prefix(&mut self) -> Result<Formula<Atom>, Diagnostic> {
        let tok = self.tok;
        match tok.kind {
            TokKind::LParen => {
                self.bump()?;
                let inner = self.formula(0)?;
                let close = self.expect(TokKind::RParen, "`)`", "to close the `(`")?;
                // The parentheses belong to the formula's text.
                Ok(Formula::new(inner.kind, self.span(tok.start, close.end)))
            }
            TokKind::Pred { inner } => {
                self.bump()?;
                let atom = Atom::Pred(self.span(inner.0, inner.1));
                Ok(Formula::new(
                    Kind::Atom(atom),
                    self.span(tok.start, tok.end),
                ))
            }
            TokKind::LBracket => {
                self.bump()?;
                let action = self.action("after `[`")?;
                let close = self.expect(TokKind::RBracket, "`]`", "after the operation")?;
                let atom = Atom::Taken(action);
                Ok(Formula::new(
                    Kind::Atom(atom),
                    self.span(tok.start, close.end),
                ))
            }
            TokKind::Hash => self.quantified(true),
            TokKind::Bang if self.quantifier_ahead() => self.quantified(false),
            TokKind::Bang => {
                self.bump()?;
                self.negation(tok.start)
            }
            TokKind::Word(word) => self.word(tok, word),
            TokKind::End => Err(self.error_at(
                tok,
                "expected a formula, found the end of the formula".into(),
            )),
            _ => Err(self.error_at(tok, format!("expected a formula, found {}", tok.describe()))),
        }
    }

    fn negation(&mut self, start: usize) -> Result<Formula<Atom>, Diagnostic> {
        let f = self.operand()?;
        let span = self.span(start, f.span.end as usize);
        Ok(Formula::new(Kind::Not(Box::new(f)), span))
    }

    /// A prefix-level formula starting with the word `word` (the current token `tok`).
    fn word(&mut self, tok: Token<'a>, word: &'a str) -> Result<Formula<Atom>, Diagnostic> {
        let logic = self.logic;
        let atom = |p: &Self, atom: Atom, end: usize| -> Result<Formula<Atom>, Diagnostic> {
            Ok(Formula::new(Kind::Atom(atom), p.span(tok.start, end)))
        };
        match word {
            "true" | "false" | "sink" | "current" | "WEF" | "SEF" => {
                self.bump()?;
                let kind = match word {
                    "true" => Kind::True,
                    "false" => Kind::False,
                    "sink" => Kind::Atom(Atom::Sink),
                    "current" => Kind::Atom(Atom::Current),
                    "WEF" => Kind::WeakFairAll,
                    _ => Kind::StrongFairAll,
                };
                if logic == Logic::Ctl && matches!(kind, Kind::WeakFairAll | Kind::StrongFairAll) {
                    return Err(self.error_at(tok, format!("fairness `{word}` is LTL only")));
                }
                Ok(Formula::new(kind, self.span(tok.start, tok.end)))
            }
            "goal" | "error" if logic == Logic::Ctl => {
                self.bump()?;
                let a = if word == "goal" {
                    Atom::Goal
                } else {
                    Atom::Error
                };
                atom(self, a, tok.end)
            }
            "not" => {
                self.bump()?;
                self.negation(tok.start)
            }
            "deadlock" => {
                self.bump()?;
                if self.tok.kind != TokKind::LParen {
                    return atom(self, Atom::Deadlock, tok.end);
                }
                let (ops, end) = self.operation_list(word)?;
                atom(self, Atom::DeadlockOf(ops), end)
            }
            "deterministic" | "controller" => {
                self.bump()?;
                let (ops, end) = self.operation_list(word)?;
                let a = if word == "deterministic" {
                    Atom::Deterministic(ops)
                } else {
                    Atom::Controller(ops)
                };
                atom(self, a, end)
            }
            "e" | "Av" | "WF" | "SF" => {
                self.bump()?;
                if logic == Logic::Ctl && matches!(word, "WF" | "SF") {
                    return Err(self.error_at(tok, format!("fairness `{word}` is LTL only")));
                }
                let context = format!("after `{word}`");
                self.expect(TokKind::LParen, "`(`", &context)?;
                let action = self.action(&format!("after `{word}(`"))?;
                let close = self.expect(TokKind::RParen, "`)`", "after the operation")?;
                let span = self.span(tok.start, close.end);
                let kind = match word {
                    "e" => Kind::Atom(Atom::Enabled(action)),
                    "Av" => Kind::Atom(Atom::Available(action)),
                    "WF" => Kind::WeakFair(Atom::Taken(action)),
                    _ => Kind::StrongFair(Atom::Taken(action)),
                };
                Ok(Formula::new(kind, span))
            }
            _ if logic == Logic::Ltl && word.chars().all(|c| LTL_UNARY_LETTERS.contains(c)) => {
                // Each letter is a level of the tree.
                for _ in word.chars() {
                    self.descend()?;
                }
                self.bump()?;
                let f = self.operand()?;
                let end = f.span.end as usize;
                // One operator per letter, the last letter innermost; each spans from its letter on.
                let wrapped = word.char_indices().rev().fold(f, |f, (i, letter)| {
                    let span = self.span(tok.start + i, end);
                    Formula::new(ltl_unary(letter, Box::new(f)), span)
                });
                Ok(wrapped)
            }
            "EX" if logic == Logic::Ctl => {
                self.bump()?;
                let step = if self.tok.kind == TokKind::LBracket {
                    self.bump()?;
                    let action = self.action("after `EX[`")?;
                    self.expect(TokKind::RBracket, "`]`", "after the operation")?;
                    Some(Atom::Taken(action))
                } else {
                    None
                };
                let f = self.operand()?;
                let span = self.span(tok.start, f.span.end as usize);
                Ok(Formula::new(Kind::ExistsNext(step, Box::new(f)), span))
            }
            "E" | "A" if logic == Logic::Ctl => self.ctl_until(tok, word == "E"),
            _ if logic == Logic::Ctl && ctl_unary(word).is_some() => {
                let build = ctl_unary(word).expect("checked by the guard");
                self.bump()?;
                let f = self.operand()?;
                let span = self.span(tok.start, f.span.end as usize);
                Ok(Formula::new(build(Box::new(f)), span))
            }
            _ if infix_operator(logic, &tok).is_some() => {
                Err(self.error_at(tok, format!("expected a formula before `{word}`")))
            }
            _ => Err(self.error_at(
                tok,
                format!("unknown word `{word}` in {} formula", logic.name()),
            )),
        }
    }

    /// `E f U g` / `A f U g` (operands at prefix level), or bracketed `E[f U g]` (full formulas);
    /// the current token is `E` or `A`. `E [Op] U g` has the atom `[Op]` as its left operand.
    fn ctl_until(&mut self, tok: Token<'a>, exists: bool) -> Result<Formula<Atom>, Diagnostic> {
        self.bump()?;
        let word = if exists { "E" } else { "A" };
        let bracketed = self.tok.kind == TokKind::LBracket && !self.action_bracket_ahead();
        let (lhs, rhs, end) = if bracketed {
            self.bump()?;
            let lhs = self.formula(0)?;
            self.expect_until(word)?;
            let rhs = self.formula(0)?;
            let close = self.expect(TokKind::RBracket, "`]`", &format!("to close `{word}[`"))?;
            (lhs, rhs, close.end)
        } else {
            let lhs = self.operand()?;
            self.expect_until(word)?;
            let rhs = self.operand()?;
            let end = rhs.span.end as usize;
            (lhs, rhs, end)
        };
        let (l, r) = (Box::new(lhs), Box::new(rhs));
        let kind = if exists {
            Kind::ExistsUntil(l, r)
        } else {
            Kind::AllUntil(l, r)
        };
        Ok(Formula::new(kind, self.span(tok.start, end)))
    }

    fn expect_until(&mut self, word: &str) -> Result<(), Diagnostic> {
        self.expect(TokKind::Word("U"), "`U`", &format!("in `{word} f U g`"))?;
        Ok(())
    }

    /// Whether the current `[` opens an action (`[Op]`, `[Op(args)]`) rather than CTL's `E[f U g]`.
    fn action_bracket_ahead(&self) -> bool {
        let mut ahead = self.lexer;
        let Ok(name) = ahead.next_token() else {
            return false;
        };
        if !matches!(name.kind, TokKind::Word(_)) {
            return false;
        }
        let mut next = ahead.next_token();
        if let Ok(Token {
            kind: TokKind::LParen,
            start,
            ..
        }) = next
        {
            let Ok((_, close)) = ahead.argument_ranges(start) else {
                return false;
            };
            ahead.pos = close + 1;
            next = ahead.next_token();
        }
        matches!(next, Ok(t) if t.kind == TokKind::RBracket)
    }

    /// Whether the current `!` starts a universal quantifier (`!x.` or `!(x, y).`) rather than a
    /// negation.
    fn quantifier_ahead(&self) -> bool {
        let mut ahead = self.lexer;
        let mut next = || ahead.next_token().map(|t| t.kind).ok();
        match next() {
            Some(TokKind::Word(_)) => next() == Some(TokKind::Dot),
            Some(TokKind::LParen) => loop {
                if !matches!(next(), Some(TokKind::Word(_))) {
                    return false;
                }
                match next() {
                    Some(TokKind::Comma) => continue,
                    Some(TokKind::RParen) => return next() == Some(TokKind::Dot),
                    _ => return false,
                }
            },
            _ => false,
        }
    }

    /// `#x.({P} & f)` or `!x.({P} => f)`, also with `(x, y)` for several variables; the current token
    /// is `#` or `!`.
    fn quantified(&mut self, exists: bool) -> Result<Formula<Atom>, Diagnostic> {
        let start = self.bump()?;
        let symbol = if exists { "#" } else { "!" };
        let vars = if self.tok.kind == TokKind::LParen {
            self.bump()?;
            let vars = self.identifiers(&format!("after `{symbol}(`"))?;
            self.expect(TokKind::RParen, "`)`", "after the quantified variables")?;
            vars
        } else {
            vec![self.identifier(&format!("after `{symbol}`"))?]
        };
        self.expect(TokKind::Dot, "`.`", "after the quantified variables")?;
        self.expect(TokKind::LParen, "`(`", "after the quantifier's `.`")?;
        let domain = match self.tok.kind {
            TokKind::Pred { inner } => {
                self.bump()?;
                self.span(inner.0, inner.1)
            }
            _ => {
                return Err(self.error_at(
                    self.tok,
                    format!(
                        "expected the quantifier's domain `{{P}}`, found {}",
                        self.tok.describe()
                    ),
                ));
            }
        };
        // The connective is `&` for `#` and `=>` for `!`, as in B; it separates the domain from the body.
        let connective = matches!(
            (exists, self.tok.kind),
            (true, TokKind::Amp | TokKind::Word("and")) | (false, TokKind::Implies)
        );
        if !connective {
            let want = if exists { "`&`" } else { "`=>`" };
            return Err(self.error_at(
                self.tok,
                format!(
                    "expected {want} after the domain of `{symbol}`, found {}",
                    self.tok.describe()
                ),
            ));
        }
        self.bump()?;
        let body = self.formula(0)?;
        let close = self.expect(TokKind::RParen, "`)`", "to close the quantifier's body")?;
        let kind = Kind::Quantified {
            exists,
            vars,
            domain,
            body: Box::new(body),
        };
        Ok(Formula::new(kind, self.span(start.start, close.end)))
    }

    fn identifier(&mut self, context: &str) -> Result<Ident, Diagnostic> {
        match self.tok.kind {
            TokKind::Word(w) => {
                let tok = self.bump()?;
                Ok(Ident {
                    name: Name::from(w),
                    span: self.span(tok.start, tok.end),
                })
            }
            _ => Err(self.error_at(
                self.tok,
                format!(
                    "expected an identifier {context}, found {}",
                    self.tok.describe()
                ),
            )),
        }
    }

    /// One or more comma-separated identifiers.
    fn identifiers(&mut self, context: &str) -> Result<Vec<Ident>, Diagnostic> {
        let mut ids = vec![self.identifier(context)?];
        while self.tok.kind == TokKind::Comma {
            self.bump()?;
            ids.push(self.identifier("after `,`")?);
        }
        Ok(ids)
    }

    /// `(Op1, ..., Opn)` after `deadlock`, `deterministic` or `controller`; returns the operations and
    /// the end of the `)`.
    fn operation_list(&mut self, word: &str) -> Result<(Vec<Ident>, usize), Diagnostic> {
        self.expect(TokKind::LParen, "`(`", &format!("after `{word}`"))?;
        let ops = self.identifiers(&format!("in `{word}(...)`"))?;
        let close = self.expect(TokKind::RParen, "`)`", &format!("to close `{word}(`"))?;
        Ok((ops, close.end))
    }

    /// `Op` or `Op(a, _, e)`: an operation name with optional argument patterns, read as B text.
    fn action(&mut self, context: &str) -> Result<Action, Diagnostic> {
        let operation = match self.tok.kind {
            TokKind::Word(_) => self.identifier(context)?,
            _ => {
                return Err(self.error_at(
                    self.tok,
                    format!(
                        "expected an operation name {context}, found {}",
                        self.tok.describe()
                    ),
                ));
            }
        };
        let mut end = operation.span.end as usize;
        let args = if self.tok.kind == TokKind::LParen {
            let (ranges, close) = self.lexer.argument_ranges(self.tok.start)?;
            self.lexer.pos = close + 1;
            self.tok = self.lexer.next_token()?;
            end = close + 1;
            let patterns = ranges
                .into_iter()
                .map(|(s, e)| {
                    let span = self.span(s, e);
                    if &self.lexer.text[s..e] == "_" {
                        ArgPattern::Any(span)
                    } else {
                        ArgPattern::Expr(span)
                    }
                })
                .collect();
            Some(patterns)
        } else {
            None
        };
        let span = self.span(operation.span.start as usize, end);
        Ok(Action {
            operation,
            args,
            span,
        })
    }
}
