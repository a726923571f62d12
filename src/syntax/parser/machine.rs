//! Machines (header and clauses, in any order) and DEFINITIONS, including `.def` files.

use super::{PResult, Parser, SeqContext};
use crate::diag::{Diagnostic, FileId, Span};
use crate::syntax::ast::{
    Constructor, Definition, DefinitionBody, DefinitionsItem, FreeType, Ident, Machine,
    MachineKind, MachineRef, Op, Operation, SetDecl, Term, TermKind,
};
use crate::syntax::lexer::PragmaKind;
use crate::syntax::token::Tok;

/// Parses a `.mch`, `.ref` or `.imp` file.
pub fn parse_machine(file: FileId, text: &str) -> PResult<Machine> {
    let mut p = Parser::new(file, text)?;
    let m = p.machine()?;
    p.check_pragmas_taken()?;
    Ok(m)
}

/// Parses a `.def` file: an optional `DEFINITIONS` keyword, then definitions and includes separated by `;`.
pub fn parse_definitions_file(file: FileId, text: &str) -> PResult<Vec<DefinitionsItem>> {
    let mut p = Parser::new(file, text)?;
    p.eat_kw("DEFINITIONS");
    let items = p.definitions_clause()?;
    p.expect_eof("after the definitions")?;
    p.check_pragmas_taken()?;
    Ok(items)
}

/// Keywords that open a block closed by `END`, for skipping unsupported clauses.
const BLOCK_OPENERS: &[&str] = &[
    "BEGIN", "IF", "SELECT", "CASE", "EITHER", "ANY", "LET", "VAR", "PRE", "ASSERT", "CHOICE",
    "WHILE",
];

/// `P & Q` from two optional conjuncts (a clause given twice accumulates).
fn conjoin(old: Option<Term>, new: Term) -> Term {
    match old {
        None => new,
        Some(old) => {
            let span = old.span.to(new.span);
            Term::new(TermKind::Op(Op::And, vec![old, new]), span)
        }
    }
}

/// The elements of a definition body `{a, b, ...}` made of identifiers only.
fn enumeration_of(body: &DefinitionBody) -> Option<Vec<Ident>> {
    let DefinitionBody::Term(Term {
        kind: TermKind::SetEnum(items),
        ..
    }) = body
    else {
        return None;
    };
    items
        .iter()
        .map(|t| match &t.kind {
            TermKind::Ident(n) => Some(Ident {
                name: n.clone(),
                span: t.span,
            }),
            _ => None,
        })
        .collect()
}

impl Parser {
    fn machine(&mut self) -> PResult<Machine> {
        let package = self.take_pragmas(PragmaKind::Package);
        let imports = self.take_pragmas(PragmaKind::ImportPackage);
        let kind = match self.peek().kw() {
            Some("MACHINE" | "MODEL" | "SYSTEM") => MachineKind::Machine,
            Some("REFINEMENT") => MachineKind::Refinement,
            Some("IMPLEMENTATION") => MachineKind::Implementation,
            _ => {
                return Err(self.error_expected(
                    "`MACHINE`, `REFINEMENT` or `IMPLEMENTATION`",
                    "at the start of the file",
                ));
            }
        };
        self.advance();
        let name = self.ident("as the machine name")?;
        let mut m = Machine::new(kind, name, self.span_at(0));
        if let Some(second) = package.get(1) {
            return Err(Diagnostic::syntax(second.span, "a second `package` pragma"));
        }
        m.package = package.into_iter().next().map(|p| (p.arg, p.span));
        if m.package.is_none()
            && let Some(import) = imports.first()
        {
            return Err(Diagnostic::syntax(
                import.span,
                "an `import-package` pragma needs a `package` pragma before it",
            ));
        }
        m.import_packages = imports.into_iter().map(|p| (p.arg, p.span)).collect();
        if self.eat_sym("(") {
            m.params = self.ident_list("as a machine parameter")?;
            self.expect_sym(")", "after the machine parameters")?;
        }
        while !self.at_kw("END") {
            self.clause(&mut m)?;
        }
        self.advance();
        self.expect_eof("after the final `END` of the machine")?;
        m.span = self.span_from(0);
        Ok(m)
    }

    fn clause(&mut self, m: &mut Machine) -> PResult<()> {
        let Some(k) = self.peek().kw() else {
            return Err(self.error_expected("a clause keyword or `END`", "in the machine"));
        };
        let clause_span = self.span();
        self.advance();
        match k {
            "CONSTRAINTS" => m.constraints = Some(conjoin(m.constraints.take(), self.term()?)),
            "PROPERTIES" => m.properties = Some(conjoin(m.properties.take(), self.term()?)),
            "INVARIANT" => m.invariant = Some(conjoin(m.invariant.take(), self.term()?)),
            "SETS" => loop {
                let set = self.set_decl(&m.definitions)?;
                m.sets.push(set);
                if !self.separator_before_more() {
                    break;
                }
            },
            "CONSTANTS" | "ABSTRACT_CONSTANTS" | "CONCRETE_CONSTANTS" | "VISIBLE_CONSTANTS" => {
                let concrete = k == "CONCRETE_CONSTANTS" || k == "VISIBLE_CONSTANTS";
                let ids = self.ident_list("in the constants list")?;
                m.constants.extend(ids.into_iter().map(|i| (i, concrete)));
            }
            "VARIABLES" | "ABSTRACT_VARIABLES" | "CONCRETE_VARIABLES" | "VISIBLE_VARIABLES" => {
                let concrete = k == "CONCRETE_VARIABLES" || k == "VISIBLE_VARIABLES";
                let ids = self.ident_list("in the variables list")?;
                m.variables.extend(ids.into_iter().map(|i| (i, concrete)));
            }
            "ASSERTIONS" => loop {
                m.assertions.push(self.term()?);
                if !self.separator_before_more() {
                    break;
                }
            },
            "INITIALISATION" | "INITIALIZATION" => {
                self.seq_context = SeqContext::Plain;
                m.initialisation = Some(self.subst()?);
            }
            "OPERATIONS" | "EVENTS" | "LOCAL_OPERATIONS" => {
                self.seq_context = SeqContext::Operations;
                let list = if k == "LOCAL_OPERATIONS" {
                    &mut m.local_operations
                } else {
                    &mut m.operations
                };
                // An empty OPERATIONS clause is accepted (machines under construction have them).
                while !self.peek().ends_clause() {
                    list.push(self.operation()?);
                    if !self.separator_before_more() {
                        break;
                    }
                }
                self.seq_context = SeqContext::Plain;
            }
            "DEFINITIONS" => {
                for item in self.definitions_clause()? {
                    match item {
                        DefinitionsItem::Definition(d) => m.definitions.push(*d),
                        DefinitionsItem::Include(f, span) => m.definition_files.push((f, span)),
                    }
                }
            }
            "SEES" => m.sees.extend(self.machine_refs()?),
            "USES" => m.uses.extend(self.machine_refs()?),
            "INCLUDES" => m.includes.extend(self.machine_refs()?),
            "EXTENDS" => m.extends.extend(self.machine_refs()?),
            "IMPORTS" => m.imports.extend(self.machine_refs()?),
            "PROMOTES" => loop {
                m.promotes.push(self.dotted_ident("in the PROMOTES list")?);
                if !self.eat_sym(",") {
                    break;
                }
            },
            "REFINES" => {
                m.refines = Some(self.ident("after `REFINES`")?);
                while self.eat_sym(",") {
                    self.ident("after `,` in REFINES")?;
                }
            }
            "VALUES" => loop {
                let t = self.term()?;
                match t.kind {
                    TermKind::Op(Op::Eq, mut sides) if sides.len() == 2 => {
                        let value = sides.pop().expect("two sides");
                        let TermKind::Ident(name) = &sides[0].kind else {
                            return Err(crate::diag::Diagnostic::syntax(
                                sides[0].span,
                                "expected an identifier on the left of a VALUES valuation",
                            ));
                        };
                        let name = Ident {
                            name: name.clone(),
                            span: sides[0].span,
                        };
                        m.values.push((name, value));
                    }
                    _ => {
                        return Err(crate::diag::Diagnostic::syntax(
                            t.span,
                            "expected a valuation `x = E` in the VALUES clause",
                        ));
                    }
                }
                if !self.separator_before_more() {
                    break;
                }
            },
            // ProB's EXPRESSIONS and PREDICATES clauses are reported as unsupported: their meaning is
            // not documented.
            "FREETYPES" => loop {
                m.freetypes.push(self.free_type()?);
                if !self.separator_before_more() {
                    break;
                }
            },
            "REFERENCES" | "EXPRESSIONS" | "PREDICATES" => {
                self.skip_clause_content();
                m.unsupported_clauses
                    .push((k.to_string(), clause_span.to(self.span_from(self.pos))));
            }
            _ => {
                self.pos -= 1;
                return Err(self.error_expected("a clause keyword or `END`", "in the machine"));
            }
        }
        if !self.peek().ends_clause() {
            return Err(self.error_expected(
                "a clause keyword or `END`",
                &format!("after the {k} clause"),
            ));
        }
        Ok(())
    }

    /// Consumes a `;` separating list items; false (and nothing consumed beyond a trailing `;`) at the end
    /// of the clause.
    fn separator_before_more(&mut self) -> bool {
        if !self.eat_sym(";") {
            return false;
        }
        !self.peek().ends_clause()
    }

    /// Skips the content of a clause bsolve does not support, up to the next clause keyword or the `END`
    /// of the machine (nested `BEGIN..END`-style blocks are skipped whole).
    fn skip_clause_content(&mut self) {
        let mut depth = 0usize;
        loop {
            let tok = self.peek();
            match tok.kw() {
                _ if tok == Tok::Eof => return,
                Some("END") if depth == 0 => return,
                Some("END") => depth -= 1,
                Some(k) if BLOCK_OPENERS.contains(&k) => depth += 1,
                _ if depth == 0 && tok.ends_clause() => return,
                _ => {}
            }
            self.advance();
        }
    }

    /// `F = c1, c2(T), ...`: a free type and its constructors (at least one).
    fn free_type(&mut self) -> PResult<FreeType> {
        let name = self.ident("as a free type name")?;
        self.expect_sym("=", "after the name of a free type")?;
        let mut constructors = vec![];
        loop {
            let cname = self.ident("as a constructor of a free type")?;
            let argument = if self.eat_sym("(") {
                let t = self.term()?;
                self.expect_sym(")", "after the argument type of a constructor")?;
                Some(t)
            } else {
                None
            };
            constructors.push(Constructor {
                name: cname,
                argument,
            });
            if !self.eat_sym(",") {
                break;
            }
        }
        Ok(FreeType { name, constructors })
    }

    /// `S` or `S = {a, b}`.
    /// `S`, `S = {a, b}`, or `S = D` with `D == {a, b}` among the definitions given before (definitions are
    /// textual in Atelier B, so an enumeration may come from one).
    fn set_decl(&mut self, definitions: &[Definition]) -> PResult<SetDecl> {
        let name = self.ident("as a set name")?;
        if !self.eat_sym("=") {
            return Ok(SetDecl {
                name,
                elements: None,
            });
        }
        if let Tok::Ident(d) = self.peek()
            && let Some(elements) = definitions
                .iter()
                .find(|def| def.name.name == *self.name(d) && def.params.is_empty())
                .and_then(|def| enumeration_of(&def.body))
        {
            self.advance();
            return Ok(SetDecl {
                name,
                elements: Some(elements),
            });
        }
        self.expect_sym("{", "after `=` in an enumerated set")?;
        let elements = self.ident_list("as an element of an enumerated set")?;
        self.expect_sym("}", "after the elements of an enumerated set")?;
        Ok(SetDecl {
            name,
            elements: Some(elements),
        })
    }

    /// `M`, `p.M`, `M(a, b)`, separated by commas.
    fn machine_refs(&mut self) -> PResult<Vec<MachineRef>> {
        let mut refs = vec![];
        loop {
            let id = self.dotted_ident("as a machine name")?;
            let (prefix, name) = match id.name.rsplit_once('.') {
                Some((prefix, name)) => {
                    let split = id.span.start as usize + prefix.len();
                    let file = id.span.file;
                    (
                        Some(Ident {
                            name: prefix.into(),
                            span: Span::new(file, id.span.start as usize, split),
                        }),
                        Ident {
                            name: name.into(),
                            span: Span::new(file, split + 1, id.span.end as usize),
                        },
                    )
                }
                None => (None, id),
            };
            let mut args = vec![];
            if self.eat_sym("(") {
                args = self.argument_list()?;
                self.expect_sym(")", "after the machine arguments")?;
            }
            let file = self
                .take_pragmas(PragmaKind::File)
                .into_iter()
                .next()
                .map(|p| (p.arg, p.span));
            refs.push(MachineRef {
                prefix,
                name,
                args,
                file,
            });
            if !self.eat_sym(",") {
                return Ok(refs);
            }
        }
    }

    /// `outs <-- name(params) = BODY`.
    fn operation(&mut self) -> PResult<Operation> {
        let start = self.pos;
        let first = self.dotted_ident("as an operation name")?;
        let (outputs, name) = if self.at_sym(",") || self.at_sym("<--") {
            let mut outs = vec![first];
            while self.eat_sym(",") {
                outs.push(self.ident("as an operation output")?);
            }
            self.expect_sym("<--", "after the operation outputs")?;
            (outs, self.dotted_ident("as an operation name")?)
        } else {
            (vec![], first)
        };
        let mut params = vec![];
        if self.eat_sym("(") {
            params = self.ident_list("as an operation parameter")?;
            self.expect_sym(")", "after the operation parameters")?;
        }
        self.expect_sym("=", "after the operation header")?;
        let body = self.subst()?;
        Ok(Operation {
            name,
            outputs,
            params,
            body,
            span: self.span_from(start),
        })
    }

    /// Whether an operation header (`name =`, `name(..) =`, `outs <-- name.. =`) or the end of the clause
    /// starts at token `index`.
    pub(super) fn operation_header_at(&self, index: usize) -> bool {
        let tok = |i: usize| self.tokens[i.min(self.tokens.len() - 1)].tok;
        let mut i = index;
        if tok(i).ends_clause() {
            return true;
        }
        // optional `outs <--`
        let mut j = i;
        while matches!(tok(j), Tok::Ident(_)) && tok(j + 1).is_sym(",") {
            j += 2;
        }
        if matches!(tok(j), Tok::Ident(_)) && tok(j + 1).is_sym("<--") {
            i = j + 2;
        }
        if !matches!(tok(i), Tok::Ident(_)) {
            return false;
        }
        i += 1;
        while tok(i).is_sym(".") && matches!(tok(i + 1), Tok::Ident(_)) {
            i += 2;
        }
        self.after_parameter_list(i)
            .is_some_and(|i| tok(i).is_sym("="))
    }

    /// The token after an optional parameter list `(a, b, ...)` starting at token `i` (`i` itself when
    /// there is none), or `None` when the list is not closed.
    fn after_parameter_list(&self, mut i: usize) -> Option<usize> {
        let tok = |i: usize| self.tokens[i.min(self.tokens.len() - 1)].tok;
        if !tok(i).is_sym("(") {
            return Some(i);
        }
        i += 1;
        while matches!(tok(i), Tok::Ident(_)) || tok(i).is_sym(",") {
            i += 1;
        }
        tok(i).is_sym(")").then_some(i + 1)
    }

    /// Whether a definition (`NAME ==`, `NAME(..) ==`, `"file.def"`) or the end of the clause starts at
    /// token `index`.
    pub(super) fn definition_starts_at(&self, index: usize) -> bool {
        let tok = |i: usize| self.tokens[i.min(self.tokens.len() - 1)].tok;
        match tok(index) {
            Tok::Str(_) => true,
            t if t.ends_clause() => true,
            Tok::Ident(_) => self
                .after_parameter_list(index + 1)
                .is_some_and(|i| tok(i).is_sym("==")),
            _ => false,
        }
    }

    /// The items of a DEFINITIONS clause, up to the next clause keyword, `END` or end of input.
    fn definitions_clause(&mut self) -> PResult<Vec<DefinitionsItem>> {
        let saved_context = self.seq_context;
        self.seq_context = SeqContext::Definitions;
        let mut items = vec![];
        while !self.peek().ends_clause() {
            if let Tok::Str(file) = self.peek() {
                items.push(DefinitionsItem::Include(
                    self.literal(file).into(),
                    self.span(),
                ));
                self.advance();
            } else {
                items.push(DefinitionsItem::Definition(Box::new(self.definition()?)));
            }
            if !self.eat_sym(";") && !self.peek().ends_clause() {
                return Err(self.error_expected("`;`", "between definitions"));
            }
        }
        self.seq_context = saved_context;
        Ok(items)
    }

    /// `NAME == BODY` or `NAME(a, b) == BODY`; the body is a term if it parses as one up to the end of the
    /// definition, otherwise a substitution.
    fn definition(&mut self) -> PResult<Definition> {
        let name = self.ident("as a definition name")?;
        let mut params = vec![];
        if self.eat_sym("(") {
            params = self.ident_list("as a definition parameter")?;
            self.expect_sym(")", "after the definition parameters")?;
        }
        self.expect_sym("==", "after the definition name")?;
        let saved = (self.pos, self.depth);
        let term_error = match self.term() {
            Ok(t) if self.definition_ends_here() => {
                return Ok(Definition {
                    name,
                    params,
                    body: DefinitionBody::Term(t),
                });
            }
            Ok(_) => self.error_expected("`;`", "after the definition body"),
            Err(e) => e,
        };
        (self.pos, self.depth) = saved;
        let subst_error = match self.subst() {
            Ok(s) if self.definition_ends_here() => {
                return Ok(Definition {
                    name,
                    params,
                    body: DefinitionBody::Subst(s),
                });
            }
            Ok(_) => self.error_expected("`;`", "after the definition body"),
            Err(e) => e,
        };
        // Report whichever reading got further into the body.
        Err(if term_error.span.start >= subst_error.span.start {
            term_error
        } else {
            subst_error
        })
    }

    fn definition_ends_here(&self) -> bool {
        self.at_sym(";") || self.peek().ends_clause()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::{DefinitionBody, SubstKind};

    fn parse(text: &str) -> Machine {
        match parse_machine(FileId(0), text) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn all_main_clauses() {
        let m = parse(
            "MACHINE M(N, k)\nCONSTRAINTS k : NAT\nSETS S; T = {a, b}\nCONSTANTS c\nCONCRETE_CONSTANTS d\n\
             PROPERTIES c : S & d = 1\nVARIABLES x\nCONCRETE_VARIABLES y\nINVARIANT x : NAT & y : T\n\
             ASSERTIONS x >= 0; y : T\nINITIALISATION x := 0 || y := a\n\
             OPERATIONS\n  r <-- get = r := x;\n  set(v) = PRE v : NAT THEN x := v END\nEND",
        );
        assert_eq!(m.kind, MachineKind::Machine);
        assert_eq!(&*m.name.name, "M");
        assert_eq!(m.params.len(), 2);
        assert!(m.constraints.is_some());
        assert_eq!(m.sets.len(), 2);
        assert_eq!(m.sets[1].elements.as_ref().map(Vec::len), Some(2));
        assert_eq!(
            m.constants
                .iter()
                .map(|(i, c)| (i.name.to_string(), *c))
                .collect::<Vec<_>>(),
            vec![("c".into(), false), ("d".into(), true)]
        );
        assert_eq!(m.variables.len(), 2);
        assert_eq!(m.assertions.len(), 2);
        assert!(matches!(
            m.initialisation.as_ref().map(|s| &s.kind),
            Some(SubstKind::Parallel(v)) if v.len() == 2
        ));
        assert_eq!(m.operations.len(), 2);
        assert_eq!(&*m.operations[0].outputs[0].name, "r");
        assert_eq!(&*m.operations[1].params[0].name, "v");
    }

    #[test]
    fn composition_clauses_and_unsupported_ones() {
        let m = parse(
            "REFINEMENT R REFINES M SEES A, p.B(1, 2) INCLUDES C EXTENDS D USES E PROMOTES op, p.q\n\
             REFERENCES X\nLOCAL_OPERATIONS l = BEGIN skip END\nVALUES x = 1\nEND",
        );
        assert_eq!(m.kind, MachineKind::Refinement);
        assert_eq!(
            m.refines.as_ref().map(|i| i.name.to_string()),
            Some("M".into())
        );
        assert_eq!(m.sees.len(), 2);
        assert_eq!(
            m.sees[1].prefix.as_ref().map(|i| i.name.to_string()),
            Some("p".into())
        );
        assert_eq!(&*m.sees[1].name.name, "B");
        assert_eq!(m.sees[1].args.len(), 2);
        assert_eq!(m.includes.len() + m.extends.len() + m.uses.len(), 3);
        assert_eq!(m.promotes.len(), 2);
        assert_eq!(
            m.unsupported_clauses
                .iter()
                .map(|(c, _)| c.as_str())
                .collect::<Vec<_>>(),
            vec!["REFERENCES"]
        );
        assert_eq!(m.local_operations.len(), 1);
        assert_eq!(m.values.len(), 1);
    }

    #[test]
    fn freetypes_are_parsed_with_their_constructors() {
        let m = parse(
            "MACHINE M\nFREETYPES Tree = leaf, node(Tree*Tree); L = nil, cons(INTEGER*L)\nEND",
        );
        let shape: Vec<(String, Vec<(String, bool)>)> = m
            .freetypes
            .iter()
            .map(|f| {
                let cs = f
                    .constructors
                    .iter()
                    .map(|c| (c.name.name.to_string(), c.argument.is_some()))
                    .collect();
                (f.name.name.to_string(), cs)
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (
                    "Tree".into(),
                    vec![("leaf".into(), false), ("node".into(), true)]
                ),
                (
                    "L".into(),
                    vec![("nil".into(), false), ("cons".into(), true)]
                ),
            ]
        );
        assert!(m.unsupported_clauses.is_empty());
    }

    #[test]
    fn a_free_type_needs_an_equals_sign() {
        let e = parse_machine(FileId(0), "MACHINE M\nFREETYPES Tree leaf\nEND").unwrap_err();
        assert!(
            e.to_string().contains("after the name of a free type"),
            "{e}"
        );
    }

    #[test]
    fn an_enumerated_set_may_be_a_definition_given_before() {
        let m = parse("MACHINE M\nDEFINITIONS E == {aa, bb}\nSETS S = E; T\nEND");
        let names: Vec<&str> = m.sets[0]
            .elements
            .iter()
            .flatten()
            .map(|e| &*e.name)
            .collect();
        assert_eq!(names, ["aa", "bb"]);
        assert!(m.sets[1].elements.is_none());
        // A definition that is not an enumeration of identifiers is no set.
        let text = "MACHINE M\nDEFINITIONS E == 1..2\nSETS S = E\nEND";
        assert!(parse_machine(FileId::default(), text).is_err());
    }

    #[test]
    fn values_clause_lists_valuations() {
        let m = parse(
            "IMPLEMENTATION I REFINES M\nVALUES\n  c = -100;\n  S = 1..10;\n  d = c + 1\nEND",
        );
        let names: Vec<&str> = m.values.iter().map(|(n, _)| &*n.name).collect();
        assert_eq!(names, ["c", "S", "d"]);
        assert!(matches!(m.values[1].1.kind, TermKind::Op(Op::Interval, _)));
        let err = parse_machine(FileId::default(), "IMPLEMENTATION I\nVALUES c < 1\nEND")
            .expect_err("not a valuation");
        assert!(err.message.contains("valuation"), "{}", err.message);
    }

    #[test]
    fn definitions_terms_substitutions_and_includes() {
        let m = parse(
            "MACHINE M\nDEFINITIONS\n  \"lib.def\";\n  ONE == 1;\n  ADD(a, b) == a + b;\n\
             COMP(r) == (r ; r);\n  INC == x := x + 1; y := 2;\n  P(v) == v : NAT\nVARIABLES x, y\nEND",
        );
        assert_eq!(m.definition_files.len(), 1);
        assert_eq!(m.definition_files[0].0, "lib.def");
        let names: Vec<_> = m
            .definitions
            .iter()
            .map(|d| d.name.name.to_string())
            .collect();
        assert_eq!(names, vec!["ONE", "ADD", "COMP", "INC", "P"]);
        assert_eq!(m.definitions[1].params.len(), 2);
        assert!(matches!(m.definitions[2].body, DefinitionBody::Term(_)));
        assert!(matches!(
            &m.definitions[3].body,
            DefinitionBody::Subst(s) if matches!(&s.kind, SubstKind::Sequence(v) if v.len() == 2)
        ));
    }

    #[test]
    fn definitions_file() {
        let items = parse_definitions_file(
            FileId(0),
            "DEFINITIONS\n \"other.def\";\n SQ(x) == x * x;\n",
        )
        .expect("parses");
        assert!(matches!(&items[0], DefinitionsItem::Include(f, _) if f == "other.def"));
        assert!(matches!(&items[1], DefinitionsItem::Definition(d) if d.params.len() == 1));
    }

    #[test]
    fn operation_bodies_may_sequence_calls() {
        let m = parse(
            "MACHINE M\nOPERATIONS\n op1 = BEGIN a := 1; r <-- op2(1) END;\n r <-- op2(v) = r := v\nEND",
        );
        assert_eq!(m.operations.len(), 2);
    }

    #[test]
    fn clause_errors_have_positions() {
        let text = "MACHINE M\nVARIABLES x\nINVARIANT x : NAT THEN\nEND";
        let e = parse_machine(FileId(0), text).unwrap_err();
        assert_eq!(e.span.start as usize, text.find("THEN").unwrap_or(0));
        assert!(e.message.contains("found `THEN`"), "{}", e.message);
        let e = parse_machine(FileId(0), "MACHINE M\nDEFINITIONS D == 1 +\nEND").unwrap_err();
        assert!(e.message.contains("found `END`"), "{}", e.message);
        assert!(parse_machine(FileId(0), "MACHINE M\n").is_err());
        let e = parse_machine(
            FileId(0),
            "MACHINE M\nOPERATIONS op = IF x = 1 THEN skip END",
        )
        .unwrap_err();
        assert!(e.message.contains("end of input"), "{}", e.message);
        assert!(parse_machine(FileId(0), "MACHINE M\nOPERATIONS\nEND").is_ok());
    }
}
