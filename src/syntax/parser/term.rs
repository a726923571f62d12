//! Terms (predicates and expressions): a Pratt loop over `binding_power`, plus the bracketed and keyword forms.

use super::binding_power::{InfixKind, PREFIX_MINUS, infix, postfix};
use super::{PResult, Parser};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::syntax::ast::{ConstKind, Ident, Op, Quant, QuantExprKind, Term, TermKind};
use crate::syntax::token::Tok;
use num_bigint::BigInt;
use num_traits::Num;

/// Builtins written like function calls, with the number of arguments they take.
fn builtin(name: &str) -> Option<(Op, &'static [usize])> {
    let one: &'static [usize] = &[1];
    Some(match name {
        "not" => (Op::Not, one),
        "bool" => (Op::BoolOf, one),
        "succ" => (Op::Succ, one),
        "pred" => (Op::Pred, one),
        "max" => (Op::Max, one),
        "min" => (Op::Min, one),
        "card" => (Op::Card, one),
        "POW" => (Op::Pow, one),
        "POW1" => (Op::Pow1, one),
        "FIN" => (Op::Fin, one),
        "FIN1" => (Op::Fin1, one),
        "union" => (Op::GenUnion, one),
        "inter" => (Op::GenInter, one),
        "dom" => (Op::Dom, one),
        "ran" => (Op::Ran, one),
        "id" => (Op::Id, one),
        "prj1" => (Op::Prj1, &[1, 2]),
        "prj2" => (Op::Prj2, &[1, 2]),
        "closure" => (Op::Closure, one),
        "closure1" => (Op::Closure1, one),
        "iterate" => (Op::Iterate, &[2]),
        "fnc" => (Op::Fnc, one),
        "rel" => (Op::Rel, one),
        "seq" => (Op::Seq, one),
        "seq1" => (Op::Seq1, one),
        "iseq" => (Op::Iseq, one),
        "iseq1" => (Op::Iseq1, one),
        "perm" => (Op::Perm, one),
        "size" => (Op::Size, one),
        "rev" => (Op::Rev, one),
        "first" => (Op::First, one),
        "last" => (Op::Last, one),
        "front" => (Op::Front, one),
        "tail" => (Op::Tail, one),
        "conc" => (Op::Conc, one),
        _ => return None,
    })
}

fn keyword_constant(k: &str) -> Option<ConstKind> {
    Some(match k {
        "TRUE" => ConstKind::True,
        "FALSE" => ConstKind::False,
        "btrue" => ConstKind::Btrue,
        "bfalse" => ConstKind::Bfalse,
        "INTEGER" => ConstKind::Integer,
        "NATURAL" => ConstKind::Natural,
        "NATURAL1" => ConstKind::Natural1,
        "INT" => ConstKind::Int,
        "NAT" => ConstKind::Nat,
        "NAT1" => ConstKind::Nat1,
        "BOOL" => ConstKind::Bool,
        "STRING" => ConstKind::String,
        "MAXINT" => ConstKind::MaxInt,
        "MININT" => ConstKind::MinInt,
        _ => return None,
    })
}

/// Folds `a, b, c` into the left-associated maplet `(a |-> b) |-> c`.
fn tuple(items: Vec<Term>) -> Term {
    let mut iter = items.into_iter();
    let first = iter.next().expect("a tuple has at least one element");
    iter.fold(first, |acc, t| {
        let span = acc.span.to(t.span);
        Term::new(TermKind::Op(Op::Maplet, vec![acc, t]), span)
    })
}

/// `succ` / `pred` used as a value (`(s ; succ)`, `pred[S]`): the function `%n.(n : INTEGER | n op 1)`.
fn successor_function(op: Op, span: Span) -> TermKind {
    let n = Ident {
        name: "succ$n".into(),
        span,
    };
    let var = || Term::new(TermKind::Ident(n.name.clone()), span);
    let domain = Term::new(
        TermKind::Op(
            Op::In,
            vec![var(), Term::new(TermKind::Const(ConstKind::Integer), span)],
        ),
        span,
    );
    let body = Term::new(
        TermKind::Op(op, vec![var(), Term::new(TermKind::Int(1.into()), span)]),
        span,
    );
    TermKind::QuantExpr(
        QuantExprKind::Lambda,
        vec![n.clone()],
        Box::new(domain),
        Box::new(body),
    )
}

/// Appends the identifiers of a comprehension pattern (an identifier, or a maplet of patterns) to `ids`,
/// left to right.
fn pattern_binders(t: &Term, ids: &mut Vec<Ident>) -> PResult<()> {
    match &t.kind {
        TermKind::Ident(name) if !name.contains(['.', '$']) => {
            ids.push(Ident {
                name: name.clone(),
                span: t.span,
            });
            Ok(())
        }
        TermKind::Op(Op::Maplet, parts) => parts.iter().try_for_each(|p| pattern_binders(p, ids)),
        _ => Err(Diagnostic::syntax(
            t.span,
            "expected an identifier or a maplet of identifiers before `|` in a set comprehension",
        )),
    }
}

/// True for `x`, `x |-> y`, `(x |-> y) |-> z` ...: the tuple shape `{x, y, z | P}` gives its elements.
fn is_left_nested_tuple(t: &Term) -> bool {
    match &t.kind {
        TermKind::Ident(_) => true,
        TermKind::Op(Op::Maplet, parts) => {
            matches!(parts[1].kind, TermKind::Ident(_)) && is_left_nested_tuple(&parts[0])
        }
        _ => false,
    }
}

/// `lhs op rhs` (`&` and `or` chains are gathered by `Parser::chain` instead).
fn binary(op: Op, lhs: Term, rhs: Term) -> Term {
    let span = lhs.span.to(rhs.span);
    Term::new(TermKind::Op(op, vec![lhs, rhs]), span)
}

impl Parser {
    /// A full term (lowest binding power).
    pub(super) fn term(&mut self) -> PResult<Term> {
        self.term_bp(0)
    }

    /// `a, b, c` — terms separated by commas.
    pub(super) fn term_list(&mut self) -> PResult<Vec<Term>> {
        let mut items = vec![self.term()?];
        while self.eat_sym(",") {
            items.push(self.term()?);
        }
        Ok(items)
    }

    /// Pratt loop: a prefix term, then postfix and infix operators binding at least `min_bp`.
    pub(super) fn term_bp(&mut self, min_bp: u8) -> PResult<Term> {
        self.enter()?;
        let mut lhs = self.prefix_term()?;
        loop {
            if let Some(lbp) = postfix(self.peek()) {
                if lbp < min_bp {
                    break;
                }
                lhs = self.postfix_term(lhs)?;
                continue;
            }
            let Some((lbp, rbp, kind)) = infix(self.peek()) else {
                break;
            };
            if lbp < min_bp {
                break;
            }
            self.advance();
            let rhs = self.term_bp(rbp)?;
            lhs = match kind {
                InfixKind::Binary(op @ (Op::And | Op::Or)) => self.chain(op, lhs, rhs, rbp)?,
                InfixKind::Binary(op) => binary(op, lhs, rhs),
                InfixKind::Swapped(op) => binary(op, rhs, lhs),
            };
        }
        self.leave();
        Ok(lhs)
    }

    /// `first op second op ...` for `op` `&` or `or`, kept n-ary (`a & b & c` is one node with three
    /// arguments; a parenthesised `(a & b) & c` too): they are associative, and generated machines chain
    /// thousands of conjuncts, which as a binary tree would be thousands of levels deep for every
    /// recursive pass after the parser. The operands gather on `self.chain` (nested chains on top of the
    /// enclosing one's) and move into a vector of their exact number when the chain ends: a vector grown
    /// operand by operand was reallocated at every doubling, and most `a or b or c` had room for four.
    fn chain(&mut self, op: Op, first: Term, second: Term, rbp: u8) -> PResult<Term> {
        let base = self.chain.len();
        let span = first.span;
        match first.kind {
            TermKind::Op(first_op, operands) if first_op == op => self.chain.extend(operands),
            kind => self.chain.push(Term::new(kind, span)),
        }
        self.chain.push(second);
        while matches!(infix(self.peek()), Some((_, _, InfixKind::Binary(next))) if next == op) {
            self.advance();
            match self.term_bp(rbp) {
                Ok(t) => self.chain.push(t),
                Err(e) => {
                    self.chain.truncate(base);
                    return Err(e);
                }
            }
        }
        let span = span.to(self.chain.last().expect("a chain has two operands").span);
        // The outermost chain takes the whole stack (its spare capacity was never touched).
        let operands = if base == 0 {
            std::mem::take(&mut self.chain)
        } else {
            self.chain.split_off(base)
        };
        Ok(Term::new(TermKind::Op(op, operands), span))
    }

    fn postfix_term(&mut self, lhs: Term) -> PResult<Term> {
        let start_span = lhs.span;
        let tok = self.advance().tok;
        match tok.sym() {
            Some("~") => {
                let span = start_span.to(self.span_at(self.pos - 1));
                Ok(Term::new(TermKind::Op(Op::Inverse, vec![lhs]), span))
            }
            Some("'") => {
                let field = self.ident("after `'`")?;
                let span = start_span.to(field.span);
                Ok(Term::new(TermKind::Field(Box::new(lhs), field), span))
            }
            Some("(") => {
                let args = self.argument_list()?;
                self.expect_sym(")", "after the arguments")?;
                let span = start_span.to(self.span_at(self.pos - 1));
                Ok(Term::new(TermKind::Call(Box::new(lhs), args), span))
            }
            Some("[") => {
                let arg = self.composed_term()?;
                self.expect_sym("]", "after the image argument")?;
                let span = start_span.to(self.span_at(self.pos - 1));
                Ok(Term::new(TermKind::Op(Op::Image, vec![lhs, arg]), span))
            }
            _ => Err(Diagnostic::new(
                DiagKind::Internal,
                self.span_at(self.pos - 1),
                format!("{} is not a postfix operator", self.describe(tok)),
            )),
        }
    }

    /// Everything that can start a term.
    fn prefix_term(&mut self) -> PResult<Term> {
        let start = self.pos;
        let span = self.span();
        let kind = match self.peek() {
            Tok::Ident(name) => return self.ident_term(name),
            Tok::Int(text) => {
                let text = self.literal(text);
                let value = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                    Some(hex) => BigInt::from_str_radix(hex, 16),
                    None => BigInt::from_str_radix(text, 10),
                }
                .map_err(|_| Diagnostic::syntax(span, "malformed integer literal"))?;
                self.advance();
                TermKind::Int(value)
            }
            Tok::Real => {
                self.advance();
                TermKind::Unsupported("REAL literal".into())
            }
            Tok::Str(s) => {
                let s = self.literal(s).to_string();
                self.advance();
                TermKind::Str(s)
            }
            Tok::Template => {
                self.advance();
                TermKind::Unsupported("template string".into())
            }
            Tok::Kw(k) => {
                let k = k.as_str();
                if let Some(c) = keyword_constant(k) {
                    self.advance();
                    TermKind::Const(c)
                } else {
                    return self.keyword_term(k);
                }
            }
            Tok::Sym(s) => return self.symbol_term(s.as_str()),
            Tok::Eof => return Err(self.error_expected("a formula", "here")),
        };
        Ok(Term::new(kind, self.span_from(start)))
    }

    /// A term starting with the identifier at the current token (`name`, its index in `names`).
    fn ident_term(&mut self, name: u32) -> PResult<Term> {
        let start = self.pos;
        if self.peek_at(1).is_sym("(") {
            let name = self.name(name).clone();
            if let Some((op, arities)) = builtin(&name) {
                self.advance();
                self.advance();
                let args = self.argument_list()?;
                self.expect_sym(")", &format!("after the arguments of `{name}`"))?;
                let span = self.span_from(start);
                if !arities.contains(&args.len()) {
                    return Err(Diagnostic::syntax(
                        span,
                        format!(
                            "`{name}` takes {} argument(s), found {}",
                            arities
                                .iter()
                                .map(usize::to_string)
                                .collect::<Vec<_>>()
                                .join(" or "),
                            args.len()
                        ),
                    ));
                }
                return Ok(Term::new(TermKind::Op(op, args), span));
            }
            match &*name {
                "rec" | "struct" => {
                    self.advance();
                    self.advance();
                    let fields = self.record_fields(&name)?;
                    let span = self.span_from(start);
                    let kind = if &*name == "rec" {
                        TermKind::Record(fields)
                    } else {
                        TermKind::Struct(fields)
                    };
                    return Ok(Term::new(kind, span));
                }
                "real" | "floor" | "ceiling" => {
                    self.advance();
                    self.advance();
                    self.term_list()?;
                    self.expect_sym(")", &format!("after the arguments of `{name}`"))?;
                    return Ok(Term::new(
                        TermKind::Unsupported(format!("REAL function `{name}`")),
                        self.span_from(start),
                    ));
                }
                _ => {}
            }
        }
        let id = self.dotted_ident("in a formula")?;
        let kind = match &*id.name {
            "succ" => successor_function(Op::Add, id.span),
            "pred" => successor_function(Op::Sub, id.span),
            "REAL" | "FLOAT" => TermKind::Unsupported(format!("`{}` type", id.name)),
            _ => TermKind::Ident(id.name),
        };
        Ok(Term::new(kind, id.span))
    }

    /// `a: E, b: F)` after `rec(` or `struct(`.
    fn record_fields(&mut self, what: &str) -> PResult<Vec<(Ident, Term)>> {
        let mut fields = vec![];
        loop {
            let name = self.ident(&format!("as a field name in `{what}`"))?;
            self.expect_sym(":", &format!("after the field name in `{what}`"))?;
            fields.push((name, self.composed_term()?));
            if !self.eat_sym(",") {
                break;
            }
        }
        self.expect_sym(")", &format!("after the fields of `{what}`"))?;
        Ok(fields)
    }

    fn keyword_term(&mut self, k: &'static str) -> PResult<Term> {
        let start = self.pos;
        match k {
            "IF" => {
                self.advance();
                let mut branches = vec![];
                loop {
                    let cond = self.term()?;
                    self.expect_kw("THEN", "after the condition of `IF`")?;
                    branches.push((cond, self.term()?));
                    if !self.eat_kw("ELSIF") {
                        break;
                    }
                }
                self.expect_kw("ELSE", "in an `IF` expression (ELSE is mandatory)")?;
                let otherwise = self.term()?;
                self.expect_kw("END", "at the end of the `IF` expression")?;
                Ok(Term::new(
                    TermKind::IfThenElse(branches, Box::new(otherwise)),
                    self.span_from(start),
                ))
            }
            "LET" => {
                self.advance();
                let ids = self.ident_list("after `LET`")?;
                self.expect_kw("BE", "after the identifiers of `LET`")?;
                let defs = self.term()?;
                self.expect_kw("IN", "after the definitions of `LET`")?;
                let body = self.term()?;
                self.expect_kw("END", "at the end of the `LET` expression")?;
                Ok(Term::new(
                    TermKind::Let(ids, Box::new(defs), Box::new(body)),
                    self.span_from(start),
                ))
            }
            "SIGMA" | "PI" | "UNION" | "INTER" => {
                self.advance();
                let kind = match k {
                    "SIGMA" => QuantExprKind::Sigma,
                    "PI" => QuantExprKind::Pi,
                    "UNION" => QuantExprKind::Union,
                    _ => QuantExprKind::Inter,
                };
                self.quant_expr(kind, start)
            }
            _ => Err(self.error_expected("a formula", "here")),
        }
    }

    fn symbol_term(&mut self, s: &'static str) -> PResult<Term> {
        let start = self.pos;
        match s {
            "(" => {
                self.advance();
                let t = self.paren_contents()?;
                self.expect_sym(")", "to close `(`")?;
                // The parenthesised term keeps its inner node; its span grows to cover the parentheses so
                // error positions for the whole group point at it.
                Ok(Term::new(t.kind, self.span_from(start)))
            }
            "-" => {
                self.advance();
                let operand = self.term_bp(PREFIX_MINUS)?;
                let span = self.span_from(start);
                // A negative literal stays a literal (`-1`), which keeps values and printing simple.
                if let TermKind::Int(n) = operand.kind {
                    return Ok(Term::new(TermKind::Int(-n), span));
                }
                Ok(Term::new(TermKind::Op(Op::Neg, vec![operand]), span))
            }
            "!" | "#" => {
                self.advance();
                let quant = if s == "!" {
                    Quant::Forall
                } else {
                    Quant::Exists
                };
                let ids = self.binder_list("after the quantifier")?;
                self.expect_sym(".", "after the quantified identifiers")?;
                self.expect_sym("(", "after `.` (the quantified predicate is parenthesised)")?;
                let body = self.term()?;
                self.expect_sym(")", "to close the quantified predicate")?;
                Ok(Term::new(
                    TermKind::Quantifier(quant, ids, Box::new(body)),
                    self.span_from(start),
                ))
            }
            "%" => {
                self.advance();
                self.quant_expr(QuantExprKind::Lambda, start)
            }
            "{" => {
                self.advance();
                self.brace_term(start)
            }
            "{}" => {
                self.advance();
                Ok(Term::new(
                    TermKind::Const(ConstKind::EmptySet),
                    self.span_from(start),
                ))
            }
            "<>" => {
                self.advance();
                Ok(Term::new(
                    TermKind::Const(ConstKind::EmptySeq),
                    self.span_from(start),
                ))
            }
            "[" => {
                self.advance();
                if self.eat_sym("]") {
                    return Ok(Term::new(
                        TermKind::Const(ConstKind::EmptySeq),
                        self.span_from(start),
                    ));
                }
                let items = self.term_list()?;
                self.expect_sym("]", "to close the sequence `[`")?;
                Ok(Term::new(TermKind::SeqEnum(items), self.span_from(start)))
            }
            _ => Err(self.error_expected("a formula", "here")),
        }
    }

    /// Inside `( ... )`: a term, a tuple `a, b, c`, or a composition `r ; s` / parallel product `r || s`.
    fn paren_contents(&mut self) -> PResult<Term> {
        // Most parentheses group one term: no list for it.
        let first = self.composed_term()?;
        if !self.at_sym(",") {
            return Ok(first);
        }
        Ok(tuple(self.arguments_after(first)?))
    }

    /// The comma-separated items inside parentheses (arguments or tuple components); each may be a
    /// composition or parallel product, as in `dom(f ; g)`.
    pub(super) fn argument_list(&mut self) -> PResult<Vec<Term>> {
        let first = self.composed_term()?;
        self.arguments_after(first)
    }

    /// `first` and the `, b, c ...` after it.
    fn arguments_after(&mut self, first: Term) -> PResult<Vec<Term>> {
        let mut items = vec![first];
        while self.eat_sym(",") {
            items.push(self.composed_term()?);
        }
        Ok(items)
    }

    /// `r ; s ; ...` or `r || s || ...`, or a plain term. ProB's grammar has composition and parallel
    /// product at the lowest expression level, below every other operator, and allows that level only
    /// where the expression is closed by a bracket that `;` and `||` cannot close or continue: inside
    /// `( )` (a group, a tuple, builtin and call arguments, record fields), the image brackets `r[ ]`,
    /// and the body of `%`, `SIGMA`, `PI`, `UNION`, `INTER` (between `|` and `)`). Elsewhere `;` separates definitions,
    /// operations, assertions or sequenced substitutions and `||` parallel substitutions, so a term
    /// there stops before them.
    fn composed_term(&mut self) -> PResult<Term> {
        let mut acc = self.term()?;
        loop {
            let op = if self.eat_sym(";") {
                Op::Composition
            } else if self.eat_sym("||") {
                Op::ParallelProduct
            } else {
                return Ok(acc);
            };
            let rhs = self.term()?;
            acc = binary(op, acc, rhs);
        }
    }

    /// Bound identifiers: `x`, `x, y` or `(x, y)`.
    fn binder_list(&mut self, context: &str) -> PResult<Vec<Ident>> {
        if self.eat_sym("(") {
            let ids = self.ident_list(context)?;
            self.expect_sym(")", "after the bound identifiers")?;
            Ok(ids)
        } else {
            self.ident_list(context)
        }
    }

    /// `x.(P | E)` after `%`, `SIGMA`, `PI`, `UNION`, `INTER`.
    fn quant_expr(&mut self, kind: QuantExprKind, start: usize) -> PResult<Term> {
        let ids = self.binder_list("as bound identifier")?;
        self.expect_sym(".", "after the bound identifiers")?;
        self.expect_sym("(", "after `.`")?;
        let pred = self.term()?;
        self.expect_sym("|", "between the predicate and the expression")?;
        let body = self.composed_term()?;
        self.expect_sym(")", "to close the quantified expression")?;
        Ok(Term::new(
            TermKind::QuantExpr(kind, ids, Box::new(pred), Box::new(body)),
            self.span_from(start),
        ))
    }

    /// After `{`: `}`, a comprehension `x, y | P`, an Event-B comprehension `x . P | E` / `(x) . P | E`, or an
    /// enumeration.
    fn brace_term(&mut self, start: usize) -> PResult<Term> {
        if self.eat_sym("}") {
            return Ok(Term::new(
                TermKind::Const(ConstKind::EmptySet),
                self.span_from(start),
            ));
        }
        let after_binders = self.scan_binders();
        if let Some(n) = after_binders {
            if self.peek_at(n).is_sym("|") {
                let ids = self.binder_list("in a set comprehension")?;
                self.expect_sym("|", "in a set comprehension")?;
                let pred = self.term()?;
                self.expect_sym("}", "to close the set comprehension")?;
                return Ok(Term::new(
                    TermKind::SetComprehension(ids, Box::new(pred)),
                    self.span_from(start),
                ));
            }
            if self.peek_at(n).is_sym(".") {
                let saved = (self.pos, self.depth);
                match self.event_b_comprehension(start) {
                    Ok(t) => return Ok(t),
                    Err(e) => {
                        // `{p.x}` is an enumeration of a renamed identifier: retry as one, but report the
                        // comprehension error if that fails too.
                        (self.pos, self.depth) = saved;
                        return self.set_enumeration(start).map_err(|_| e);
                    }
                }
            }
        }
        self.set_enumeration(start)
    }

    fn event_b_comprehension(&mut self, start: usize) -> PResult<Term> {
        let ids = self.binder_list("in a set comprehension")?;
        self.expect_sym(".", "in a set comprehension")?;
        let pred = self.term()?;
        self.expect_sym(
            "|",
            "between the predicate and the expression of the comprehension",
        )?;
        let expr = self.term()?;
        self.expect_sym("}", "to close the set comprehension")?;
        Ok(Term::new(
            TermKind::SetComprehensionExpr(ids, Box::new(pred), Box::new(expr)),
            self.span_from(start),
        ))
    }

    fn set_enumeration(&mut self, start: usize) -> PResult<Term> {
        let items = self.term_list()?;
        if self.at_sym("|") {
            return self.pattern_comprehension(items, start);
        }
        self.expect_sym("}", "to close the set `{`")?;
        Ok(Term::new(TermKind::SetEnum(items), self.span_from(start)))
    }

    /// `{x |-> y | P}`, `{(x |-> y) |-> z | P}`, `{x, y |-> z | P}` (the current token is the `|`): ProB
    /// takes maplets of distinct identifiers before the bar as binders, and the set holds the pattern's
    /// values, so `{x |-> y | P}` is `{x, y | P}`. A pattern nested to the right, such as
    /// `x |-> (y |-> z)`, is not the tuple `x, y, z` binds and becomes `{x, y, z . P | x |-> (y |-> z)}`.
    fn pattern_comprehension(&mut self, patterns: Vec<Term>, start: usize) -> PResult<Term> {
        let mut ids: Vec<Ident> = vec![];
        for p in &patterns {
            pattern_binders(p, &mut ids)?;
        }
        for (i, id) in ids.iter().enumerate() {
            if ids[..i].iter().any(|other| other.name == id.name) {
                return Err(Diagnostic::syntax(
                    id.span,
                    format!("`{}` is bound twice in the set comprehension", id.name),
                ));
            }
        }
        self.expect_sym("|", "in a set comprehension")?;
        let pred = self.term()?;
        self.expect_sym("}", "to close the set comprehension")?;
        let element = tuple(patterns);
        let kind = if is_left_nested_tuple(&element) {
            TermKind::SetComprehension(ids, Box::new(pred))
        } else {
            TermKind::SetComprehensionExpr(ids, Box::new(pred), Box::new(element))
        };
        Ok(Term::new(kind, self.span_from(start)))
    }

    /// If the tokens ahead are a binder list (`x, y` or `(x, y)`), the offset of the token after it.
    fn scan_binders(&self) -> Option<usize> {
        let paren = self.peek().is_sym("(");
        let mut n = usize::from(paren);
        loop {
            if !matches!(self.peek_at(n), Tok::Ident(_)) {
                return None;
            }
            n += 1;
            if !self.peek_at(n).is_sym(",") {
                break;
            }
            n += 1;
        }
        if paren {
            if !self.peek_at(n).is_sym(")") {
                return None;
            }
            n += 1;
        }
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::FileId;
    use crate::syntax::ast::{ConstKind, Term, TermKind};
    use crate::syntax::parse_term;

    /// A compact S-expression rendering of a term, for shape assertions.
    fn show(t: &Term) -> String {
        let list = |ts: &[Term]| ts.iter().map(show).collect::<Vec<_>>().join(" ");
        let ids = |ids: &[crate::syntax::ast::Ident]| {
            ids.iter()
                .map(|i| i.name.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        match &t.kind {
            TermKind::Ident(n) => n.to_string(),
            TermKind::Int(n) => n.to_string(),
            TermKind::Str(s) => format!("{s:?}"),
            TermKind::Const(c) => format!("{c:?}"),
            TermKind::Op(op, args) => format!("({op:?} {})", list(args)),
            TermKind::Call(f, args) => format!("(call {} {})", show(f), list(args)),
            TermKind::Quantifier(q, ids_, b) => format!("({q:?} {} {})", ids(ids_), show(b)),
            TermKind::SetComprehension(ids_, p) => format!("(setc {} {})", ids(ids_), show(p)),
            TermKind::SetComprehensionExpr(ids_, p, e) => {
                format!("(setce {} {} {})", ids(ids_), show(p), show(e))
            }
            TermKind::QuantExpr(k, ids_, p, e) => {
                format!("({k:?} {} {} {})", ids(ids_), show(p), show(e))
            }
            TermKind::SetEnum(ts) => format!("{{{}}}", list(ts)),
            TermKind::SeqEnum(ts) => format!("[{}]", list(ts)),
            TermKind::Record(fs) | TermKind::Struct(fs) => fs
                .iter()
                .map(|(n, v)| format!("{}:{}", n.name, show(v)))
                .collect::<Vec<_>>()
                .join(","),
            TermKind::Field(e, f) => format!("(field {} {})", show(e), f.name),
            TermKind::RecordUpdate(e, f, v) => {
                format!("(update {} {} {})", show(e), f.name, show(v))
            }
            TermKind::IfThenElse(bs, e) => format!(
                "(if {} {})",
                bs.iter()
                    .map(|(c, v)| format!("{} {}", show(c), show(v)))
                    .collect::<Vec<_>>()
                    .join(" "),
                show(e)
            ),
            TermKind::Let(ids_, d, b) => format!("(let {} {} {})", ids(ids_), show(d), show(b)),
            TermKind::Unsupported(s) => format!("(unsupported {s})"),
        }
    }

    fn p(text: &str) -> String {
        match parse_term(FileId(0), text) {
            Ok(t) => show(&t),
            Err(e) => panic!("{text}: {e}"),
        }
    }

    #[test]
    fn logical_precedence() {
        assert_eq!(p("a & b or c"), "(Or (And a b) c)");
        assert_eq!(
            p("a & b & (c & d) or e or f"),
            "(Or (And a b (And c d)) e f)"
        );
        assert_eq!(p("a or b & c"), "(And (Or a b) c)");
        assert_eq!(p("a => b => c"), "(Implies (Implies a b) c)");
        assert_eq!(p("a & b => c"), "(Implies (And a b) c)");
        assert_eq!(p("x = 1 <=> y = 2"), "(Equiv (Eq x 1) (Eq y 2))");
        assert_eq!(p("x : NAT & y = 1"), "(And (In x Nat) (Eq y 1))");
        assert_eq!(p("not(x = 1) & btrue"), "(And (Not (Eq x 1)) Btrue)");
    }

    #[test]
    fn arithmetic_precedence() {
        assert_eq!(p("1 + 2 * 3"), "(Add 1 (Mul 2 3))");
        assert_eq!(p("1 - 2 - 3"), "(Sub (Sub 1 2) 3)");
        assert_eq!(p("2 ** 3 ** 2"), "(Power 2 (Power 3 2))");
        assert_eq!(p("a mod b * c"), "(Mul (Mod a b) c)");
        assert_eq!(p("1 .. n + 1"), "(Interval 1 (Add n 1))");
        assert_eq!(p("-1"), "-1");
        assert_eq!(p("- x ~"), "(Neg (Inverse x))");
        assert_eq!(p("- x ** 2"), "(Power (Neg x) 2)");
        assert_eq!(p("0x1F + 1"), "(Add 31 1)");
    }

    #[test]
    fn relation_and_set_shapes() {
        assert_eq!(p("x : A --> B"), "(In x (TotalFunction A B))");
        assert_eq!(
            p("f : A +-> (B <-> C)"),
            "(In f (PartialFunction A (Relation B C)))"
        );
        assert_eq!(p("r~[S]"), "(Image (Inverse r) S)");
        assert_eq!(p("a |-> b |-> c"), "(Maplet (Maplet a b) c)");
        assert_eq!(p("(a, b, c)"), "(Maplet (Maplet a b) c)");
        assert_eq!(p("S <| r |> T"), "(RanRestrict (DomRestrict S r) T)");
        assert_eq!(p("A \\/ B /\\ C"), "(Inter (Union A B) C)");
        assert_eq!(p("f(a, b)"), "(call f a b)");
        assert_eq!(p("f(x)(y)"), "(call (call f x) y)");
        assert_eq!(p("(r ; s)"), "(Composition r s)");
        assert_eq!(p("(r || s)"), "(ParallelProduct r s)");
        assert_eq!(
            p("card(S) + prj1(A, B)(p)"),
            "(Add (Card S) (call (Prj1 A B) p))"
        );
        assert_eq!(p("x'a'b"), "(field (field x a) b)");
        assert_eq!(p("iterate(r, 2)"), "(Iterate r 2)");
        assert_eq!(p("M.x + 1"), "(Add M.x 1)");
        assert_eq!(p("x$0 < x"), "(Lt x$0 x)");
    }

    #[test]
    fn binders_and_brackets() {
        assert_eq!(
            p("!x.(x : NAT => x >= 0)"),
            "(Forall x (Implies (In x Nat) (Ge x 0)))"
        );
        assert_eq!(p("!x,y.(x = y)"), "(Forall x,y (Eq x y))");
        assert_eq!(p("#(x,y).(x < y)"), "(Exists x,y (Lt x y))");
        assert_eq!(p("%x.(x : NAT | x + 1)"), "(Lambda x (In x Nat) (Add x 1))");
        assert_eq!(
            p("%(x,y).(x : NAT & y : NAT | x)"),
            "(Lambda x,y (And (In x Nat) (In y Nat)) x)"
        );
        assert_eq!(
            p("SIGMA(x).(x : 1..3 | x)"),
            "(Sigma x (In x (Interval 1 3)) x)"
        );
        assert_eq!(p("UNION x.(x : S | {x})"), "(Union x (In x S) {x})");
        assert_eq!(p("{x | x : NAT}"), "(setc x (In x Nat))");
        assert_eq!(p("{x, y | x < y}"), "(setc x,y (Lt x y))");
        assert_eq!(
            p("{x.x : 1..3 | x * x}"),
            "(setce x (In x (Interval 1 3)) (Mul x x))"
        );
        assert_eq!(p("{(x).x : S | x}"), "(setce x (In x S) x)");
        assert_eq!(p("{p.x, 2}"), "{p.x 2}");
        assert_eq!(p("{}"), "EmptySet");
        assert_eq!(p("[]"), "EmptySeq");
        assert_eq!(p("<>"), "EmptySeq");
        assert_eq!(p("[1, 2]"), "[1 2]");
        assert_eq!(p("rec(a: 1, b: TRUE)'a"), "(field a:1,b:True a)");
        assert_eq!(p("struct(a: NAT)"), "a:Nat");
        assert_eq!(
            p("IF x = 1 THEN 2 ELSIF x = 2 THEN 3 ELSE 4 END"),
            "(if (Eq x 1) 2 (Eq x 2) 3 4)"
        );
        assert_eq!(
            p("LET x BE x = 1 IN x + 1 END"),
            "(let x (Eq x 1) (Add x 1))"
        );
        assert_eq!(
            p("(s ; succ)"),
            "(Composition s (Lambda succ$n (In succ$n Integer) (Add succ$n 1)))"
        );
        assert_eq!(p("1.5"), "(unsupported REAL literal)");
    }

    #[test]
    fn composition_in_quantified_bodies_and_images() {
        assert_eq!(
            p("UNION(i).(i : 1..2 | {i |-> i} ; r)"),
            "(Union i (In i (Interval 1 2)) (Composition {(Maplet i i)} r))"
        );
        assert_eq!(
            p("%x.(x : S | f ; g ; h)"),
            "(Lambda x (In x S) (Composition (Composition f g) h))"
        );
        assert_eq!(
            p("SIGMA(x).(x : S | card(r || s))"),
            "(Sigma x (In x S) (Card (ParallelProduct r s)))"
        );
        assert_eq!(
            p("PI(x).(x : S | r || s)"),
            "(Pi x (In x S) (ParallelProduct r s))"
        );
        assert_eq!(p("r[f ; g]"), "(Image r (Composition f g))");
        assert_eq!(p("rec(a: f ; g)"), "a:(Composition f g)");
        // Outside brackets `;` still ends the term (it separates definitions, assertions, substitutions).
        let e = parse_term(FileId(0), "r ; s").unwrap_err();
        assert!(e.message.contains("found `;`"), "{}", e.message);
        let e = parse_term(FileId(0), "{x | x : r ; s}").unwrap_err();
        assert!(e.message.contains("found `;`"), "{}", e.message);
    }

    #[test]
    fn maplet_patterns_bind_comprehension_identifiers() {
        assert_eq!(p("{x |-> y | x < y}"), "(setc x,y (Lt x y))");
        assert_eq!(p("{(x |-> y) |-> z | x < z}"), "(setc x,y,z (Lt x z))");
        assert_eq!(p("{(x, y) |-> z | x < z}"), "(setc x,y,z (Lt x z))");
        assert_eq!(
            p("{x |-> (y |-> z) | x < z}"),
            "(setce x,y,z (Lt x z) (Maplet x (Maplet y z)))"
        );
        assert_eq!(
            p("{x, y |-> z | x < z}"),
            "(setce x,y,z (Lt x z) (Maplet x (Maplet y z)))"
        );
        let e = parse_term(FileId(0), "{x |-> 1 | x > 0}").unwrap_err();
        assert!(e.message.contains("maplet of identifiers"), "{}", e.message);
        assert_eq!(e.span.start, 7);
        let e = parse_term(FileId(0), "{x |-> x | x > 0}").unwrap_err();
        assert_eq!(e.message, "`x` is bound twice in the set comprehension");
    }

    #[test]
    fn unicode_terms() {
        assert_eq!(p("x ∈ ℕ ∧ y ≠ 1"), "(And (In x Natural) (NotEq y 1))");
        assert_eq!(
            p("∀x·(x ∈ S ⇒ x ≥ 0)"),
            "(Forall x (Implies (In x S) (Ge x 0)))"
        );
        assert_eq!(p("f ∘ g"), "(Composition g f)");
        assert_eq!(p("r⁻¹"), "(Inverse r)");
        assert_eq!(p("∅"), format!("{:?}", ConstKind::EmptySet));
    }

    #[test]
    fn errors_point_at_the_culprit() {
        let e = parse_term(FileId(0), "(1 + 2 THEN").unwrap_err();
        assert_eq!(e.message, "expected `)` to close `(`, found `THEN`");
        assert_eq!(e.span.start, 7);
        let e = parse_term(FileId(0), "x = ").unwrap_err();
        assert!(e.message.contains("found end of input"), "{}", e.message);
        let e = parse_term(FileId(0), "card(1, 2)").unwrap_err();
        assert_eq!(e.message, "`card` takes 1 argument(s), found 2");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        let e = parse_term(FileId(0), &text).unwrap_err();
        assert!(e.message.contains("nesting"), "{}", e.message);
    }
}
