//! Substitutions.
//!
//! `G || H` binds tighter than `G ; H` (`a || b ; c` is `(a || b) ; c` and `a ; b || c` is `a ; (b || c)`).
//! Atelier B gives both priority 20; mixing them without `BEGIN..END` is rare, and this reading is the one
//! where a sequence of parallel blocks needs no brackets.

use super::{PResult, Parser, SeqContext};
use crate::diag::Diagnostic;
use crate::syntax::ast::{Ident, Subst, SubstKind, Term, TermKind};

impl Parser {
    /// `G ; H ; ...` (a sequence of parallel blocks).
    pub(super) fn subst(&mut self) -> PResult<Subst> {
        let start = self.pos;
        let first = self.parallel_subst()?;
        if !self.at_sym(";") || self.semicolon_ends_subst() {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.at_sym(";") && !self.semicolon_ends_subst() {
            self.advance();
            items.push(self.parallel_subst()?);
        }
        Ok(Subst {
            kind: SubstKind::Sequence(items),
            span: self.span_from(start),
        })
    }

    /// Whether the `;` at the current position separates definitions or operations rather than sequencing.
    fn semicolon_ends_subst(&self) -> bool {
        match self.seq_context {
            SeqContext::Plain => false,
            SeqContext::Definitions => self.definition_starts_at(self.pos + 1),
            SeqContext::Operations => self.operation_header_at(self.pos + 1),
        }
    }

    /// `G || H || ...`.
    fn parallel_subst(&mut self) -> PResult<Subst> {
        let start = self.pos;
        let first = self.basic_subst()?;
        if !self.at_sym("||") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_sym("||") {
            items.push(self.basic_subst()?);
        }
        Ok(Subst {
            kind: SubstKind::Parallel(items),
            span: self.span_from(start),
        })
    }

    fn basic_subst(&mut self) -> PResult<Subst> {
        self.enter()?;
        let start = self.pos;
        let kind = self.basic_subst_kind()?;
        self.leave();
        Ok(Subst {
            kind,
            span: self.span_from(start),
        })
    }

    fn basic_subst_kind(&mut self) -> PResult<SubstKind> {
        let Some(k) = self.peek().kw() else {
            return self.assignment_or_call();
        };
        match k {
            "skip" => {
                self.advance();
                Ok(SubstKind::Skip)
            }
            "BEGIN" => {
                self.advance();
                let body = self.subst()?;
                self.expect_kw("END", "to close `BEGIN`")?;
                // `BEGIN G END` is just `G`; the span of the returned node still covers the brackets.
                Ok(body.kind)
            }
            "IF" => {
                self.advance();
                let branches = self.guarded_branches("IF", "ELSIF")?;
                let otherwise = self.optional_else()?;
                self.expect_kw("END", "to close `IF`")?;
                Ok(SubstKind::If(branches, otherwise))
            }
            "SELECT" => {
                self.advance();
                let branches = self.guarded_branches("SELECT", "WHEN")?;
                let otherwise = self.optional_else()?;
                self.expect_kw("END", "to close `SELECT`")?;
                Ok(SubstKind::Select(branches, otherwise))
            }
            "WHEN" => {
                self.advance();
                let branches = self.guarded_branches("WHEN", "WHEN")?;
                let otherwise = self.optional_else()?;
                self.expect_kw("END", "to close `WHEN`")?;
                Ok(SubstKind::Select(branches, otherwise))
            }
            "CASE" => self.case_subst(),
            "ANY" => {
                self.advance();
                let ids = self.ident_list("after `ANY`")?;
                self.expect_kw("WHERE", "after the identifiers of `ANY`")?;
                let pred = self.term()?;
                self.expect_kw("THEN", "after the predicate of `ANY`")?;
                let body = self.subst()?;
                self.expect_kw("END", "to close `ANY`")?;
                Ok(SubstKind::Any(ids, pred, Box::new(body)))
            }
            "LET" => {
                self.advance();
                let ids = self.ident_list("after `LET`")?;
                self.expect_kw("BE", "after the identifiers of `LET`")?;
                let pred = self.term()?;
                self.expect_kw("IN", "after the definitions of `LET`")?;
                let body = self.subst()?;
                self.expect_kw("END", "to close `LET`")?;
                Ok(SubstKind::Let(ids, pred, Box::new(body)))
            }
            "VAR" => {
                self.advance();
                let ids = self.ident_list("after `VAR`")?;
                self.expect_kw("IN", "after the identifiers of `VAR`")?;
                let body = self.subst()?;
                self.expect_kw("END", "to close `VAR`")?;
                Ok(SubstKind::Var(ids, Box::new(body)))
            }
            "PRE" | "ASSERT" => {
                self.advance();
                let pred = self.term()?;
                self.expect_kw("THEN", &format!("after the predicate of `{k}`"))?;
                let body = Box::new(self.subst()?);
                self.expect_kw("END", &format!("to close `{k}`"))?;
                Ok(if k == "PRE" {
                    SubstKind::Pre(pred, body)
                } else {
                    SubstKind::Assert(pred, body)
                })
            }
            "CHOICE" => {
                self.advance();
                let mut items = vec![self.subst()?];
                while self.eat_kw("OR") {
                    items.push(self.subst()?);
                }
                self.expect_kw("END", "to close `CHOICE`")?;
                Ok(SubstKind::Choice(items))
            }
            "WHILE" => self.while_subst(),
            _ => Err(self.error_expected("a substitution", "here")),
        }
    }

    /// `P THEN G (sep Q THEN H)*` after `IF`/`SELECT`/`WHEN`.
    fn guarded_branches(&mut self, kw: &str, sep: &str) -> PResult<Vec<(Term, Subst)>> {
        let mut branches = vec![];
        loop {
            let cond = self.term()?;
            self.expect_kw("THEN", &format!("after the condition of `{kw}`"))?;
            branches.push((cond, self.subst()?));
            if !self.eat_kw(sep) {
                return Ok(branches);
            }
        }
    }

    fn optional_else(&mut self) -> PResult<Option<Box<Subst>>> {
        if self.eat_kw("ELSE") {
            Ok(Some(Box::new(self.subst()?)))
        } else {
            Ok(None)
        }
    }

    /// `CASE E OF EITHER a, b THEN G OR c THEN H ... [ELSE I] END END`.
    fn case_subst(&mut self) -> PResult<SubstKind> {
        self.advance();
        let scrutinee = self.term()?;
        self.expect_kw("OF", "after the expression of `CASE`")?;
        self.expect_kw("EITHER", "after `CASE ... OF`")?;
        let mut branches = vec![];
        loop {
            let values = self.term_list()?;
            self.expect_kw("THEN", "after the values of a `CASE` branch")?;
            branches.push((values, self.subst()?));
            if !self.eat_kw("OR") {
                break;
            }
        }
        let otherwise = self.optional_else()?;
        self.expect_kw("END", "to close `EITHER`")?;
        self.expect_kw("END", "to close `CASE`")?;
        Ok(SubstKind::Case(scrutinee, branches, otherwise))
    }

    /// `WHILE P DO G INVARIANT I VARIANT V END` (INVARIANT and VARIANT in either order).
    fn while_subst(&mut self) -> PResult<SubstKind> {
        let start = self.pos;
        self.advance();
        let cond = self.term()?;
        self.expect_kw("DO", "after the condition of `WHILE`")?;
        let body = self.subst()?;
        let (mut invariant, mut variant) = (None, None);
        loop {
            if invariant.is_none() && self.eat_kw("INVARIANT") {
                invariant = Some(self.term()?);
            } else if variant.is_none() && self.eat_kw("VARIANT") {
                variant = Some(self.term()?);
            } else {
                break;
            }
        }
        self.expect_kw("END", "to close `WHILE`")?;
        match (invariant, variant) {
            (Some(invariant), Some(variant)) => Ok(SubstKind::While {
                cond,
                body: Box::new(body),
                invariant,
                variant,
            }),
            _ => Err(Diagnostic::syntax(
                self.span_from(start),
                "`WHILE` needs both an `INVARIANT` and a `VARIANT`",
            )),
        }
    }

    /// `x, f(i), r'a := E, F, G`, `x :: S`, `x : (P)`, `outs <-- op(args)`, `op(args)` or `op`.
    fn assignment_or_call(&mut self) -> PResult<SubstKind> {
        let mut targets = vec![self.assign_target()?];
        while self.eat_sym(",") {
            targets.push(self.assign_target()?);
        }
        let op_span = self.span();
        match self.peek().sym() {
            Some(":=") => {
                self.advance();
                let values = self.term_list()?;
                if values.len() != targets.len() {
                    return Err(Diagnostic::syntax(
                        op_span,
                        format!(
                            "{} variable(s) on the left of `:=` but {} value(s) on the right",
                            targets.len(),
                            values.len()
                        ),
                    ));
                }
                Ok(SubstKind::Assign(targets, values))
            }
            Some("::") => {
                self.advance();
                let ids = plain_idents(targets, "`::`")?;
                Ok(SubstKind::BecomesElementOf(ids, self.term()?))
            }
            Some(":") => {
                self.advance();
                let ids = plain_idents(targets, "`:`")?;
                self.expect_sym(
                    "(",
                    "after `:` (the predicate of `x : (P)` is parenthesised)",
                )?;
                let pred = self.term()?;
                self.expect_sym(")", "to close the predicate of `x : (P)`")?;
                Ok(SubstKind::BecomesSuchThat(ids, pred))
            }
            Some("<--") => {
                self.advance();
                let outs = plain_idents(targets, "`<--`")?;
                let name = self.dotted_ident("as the operation name after `<--`")?;
                let args = self.call_args()?;
                Ok(SubstKind::OpCall(outs, name, args))
            }
            _ if targets.len() == 1 => {
                let target = targets.pop().expect("one target");
                match target.kind {
                    TermKind::Ident(name) => Ok(SubstKind::OpCall(
                        vec![],
                        Ident {
                            name,
                            span: target.span,
                        },
                        vec![],
                    )),
                    TermKind::Call(f, args) => match f.kind {
                        TermKind::Ident(name) => Ok(SubstKind::OpCall(
                            vec![],
                            Ident { name, span: f.span },
                            args,
                        )),
                        _ => Err(self.error_expected("`:=`", "after the assigned expression")),
                    },
                    _ => Err(self.error_expected("`:=`", "after the assigned expression")),
                }
            }
            _ => Err(self.error_expected("`:=`, `::`, `:` or `<--`", "after the variables")),
        }
    }

    /// `(args)` after an operation name, or nothing.
    fn call_args(&mut self) -> PResult<Vec<crate::syntax::ast::Term>> {
        if !self.eat_sym("(") {
            return Ok(vec![]);
        }
        let args = self.argument_list()?;
        self.expect_sym(")", "after the operation arguments")?;
        Ok(args)
    }

    /// The left side of an assignment: an identifier followed by applications `(..)` and fields `'f`.
    fn assign_target(&mut self) -> PResult<Term> {
        let id = self.dotted_ident("at the start of a substitution")?;
        let mut target = Term::new(TermKind::Ident(id.name), id.span);
        loop {
            if self.eat_sym("(") {
                let args = self.argument_list()?;
                self.expect_sym(")", "after the arguments")?;
                let span = target.span.to(self.span_at(self.pos - 1));
                target = Term::new(TermKind::Call(Box::new(target), args), span);
            } else if self.eat_sym("'") {
                let field = self.ident("after `'`")?;
                let span = target.span.to(field.span);
                target = Term::new(TermKind::Field(Box::new(target), field), span);
            } else {
                return Ok(target);
            }
        }
    }
}

/// The targets of `::`, `:` and `<--` must be plain identifiers.
fn plain_idents(targets: Vec<Term>, what: &str) -> PResult<Vec<Ident>> {
    targets
        .into_iter()
        .map(|t| match t.kind {
            TermKind::Ident(name) => Ok(Ident { name, span: t.span }),
            _ => Err(Diagnostic::syntax(
                t.span,
                format!("only identifiers may stand left of {what}"),
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;

    /// Parses `text` as the INITIALISATION of a machine and returns it.
    fn subst(text: &str) -> SubstKind {
        let machine = format!("MACHINE M\nINITIALISATION {text}\nEND");
        match crate::syntax::parse_machine(FileId(0), &machine) {
            Ok(m) => m.initialisation.expect("has an initialisation").kind,
            Err(e) => panic!("{text}: {e}"),
        }
    }

    fn name(i: &Ident) -> &str {
        &i.name
    }

    #[test]
    fn simple_forms() {
        assert_eq!(subst("skip"), SubstKind::Skip);
        assert!(matches!(subst("x := 1"), SubstKind::Assign(l, r) if l.len() == 1 && r.len() == 1));
        assert!(matches!(subst("x, y := 1, 2"), SubstKind::Assign(l, _) if l.len() == 2));
        assert!(matches!(
            subst("f(x) := 1"),
            SubstKind::Assign(l, _) if matches!(l[0].kind, TermKind::Call(..))
        ));
        assert!(matches!(
            subst("r'a := 1"),
            SubstKind::Assign(l, _) if matches!(l[0].kind, TermKind::Field(..))
        ));
        assert!(matches!(subst("x :: NAT"), SubstKind::BecomesElementOf(ids, _) if ids.len() == 1));
        assert!(matches!(
            subst("x, y : (x > x$0 & y = 1)"),
            SubstKind::BecomesSuchThat(ids, _) if ids.len() == 2
        ));
        assert!(matches!(
            subst("r, s <-- op(1, 2)"),
            SubstKind::OpCall(outs, op, args) if outs.len() == 2 && name(&op) == "op" && args.len() == 2
        ));
        assert!(
            matches!(subst("op(1)"), SubstKind::OpCall(outs, _, args) if outs.is_empty() && args.len() == 1)
        );
        assert!(
            matches!(subst("p.op"), SubstKind::OpCall(_, op, args) if name(&op) == "p.op" && args.is_empty())
        );
    }

    #[test]
    fn parallel_binds_tighter_than_sequence() {
        let SubstKind::Sequence(items) = subst("a := 1 || b := 2 ; c := 3") else {
            panic!("expected a sequence");
        };
        assert!(matches!(&items[0].kind, SubstKind::Parallel(p) if p.len() == 2));
        let SubstKind::Sequence(items) = subst("a := 1 ; b := 2 || c := 3") else {
            panic!("expected a sequence");
        };
        assert!(matches!(&items[1].kind, SubstKind::Parallel(p) if p.len() == 2));
    }

    #[test]
    fn block_forms() {
        assert!(matches!(subst("BEGIN x := 1 END"), SubstKind::Assign(..)));
        assert!(matches!(
            subst("ANY v WHERE v : NAT THEN x := v END"),
            SubstKind::Any(ids, _, _) if ids.len() == 1
        ));
        assert!(matches!(
            subst("LET v BE v = 1 IN x := v END"),
            SubstKind::Let(..)
        ));
        assert!(matches!(
            subst("VAR v IN v := 1; x := v END"),
            SubstKind::Var(..)
        ));
        assert!(matches!(
            subst("PRE x = 0 THEN x := 1 END"),
            SubstKind::Pre(..)
        ));
        assert!(matches!(
            subst("ASSERT x = 0 THEN x := 1 END"),
            SubstKind::Assert(..)
        ));
        assert!(matches!(
            subst("CHOICE x := 1 OR x := 2 OR skip END"),
            SubstKind::Choice(v) if v.len() == 3
        ));
        assert!(matches!(
            subst("IF x = 1 THEN x := 2 ELSIF x = 2 THEN x := 3 ELSE skip END"),
            SubstKind::If(b, Some(_)) if b.len() == 2
        ));
        assert!(
            matches!(subst("IF x = 1 THEN x := 2 END"), SubstKind::If(b, None) if b.len() == 1)
        );
        assert!(matches!(
            subst("SELECT x = 1 THEN x := 2 WHEN x = 2 THEN x := 3 ELSE skip END"),
            SubstKind::Select(b, Some(_)) if b.len() == 2
        ));
        assert!(
            matches!(subst("WHEN x = 1 THEN x := 2 END"), SubstKind::Select(b, None) if b.len() == 1)
        );
        assert!(matches!(
            subst("CASE x OF EITHER 1, 2 THEN x := 0 OR 3 THEN skip ELSE x := 1 END END"),
            SubstKind::Case(_, b, Some(_)) if b.len() == 2 && b[0].0.len() == 2
        ));
        assert!(matches!(
            subst("WHILE x < 10 DO x := x + 1 VARIANT 10 - x INVARIANT x : NAT END"),
            SubstKind::While { .. }
        ));
    }

    #[test]
    fn substitution_errors() {
        let text = "MACHINE M\nINITIALISATION IF x = 1 THEN x := 2\nEND";
        // The final END closes the IF, so the machine misses its END.
        let e = crate::syntax::parse_machine(FileId(0), text).unwrap_err();
        assert!(e.message.contains("end of input"), "{}", e.message);
        let e = crate::syntax::parse_machine(FileId(0), "MACHINE M\nINITIALISATION x, y := 1\nEND")
            .unwrap_err();
        assert!(e.message.contains("2 variable(s)"), "{}", e.message);
        let e = crate::syntax::parse_machine(
            FileId(0),
            "MACHINE M\nINITIALISATION WHILE x < 1 DO skip VARIANT x END\nEND",
        )
        .unwrap_err();
        assert!(e.message.contains("INVARIANT"), "{}", e.message);
    }
}
