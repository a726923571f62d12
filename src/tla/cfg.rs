//! TLC model files (`.cfg`): which constants get which values, which operators are the specification, the
//! invariants and properties, and whether deadlock is checked.
//!
//! The format is a sequence of sections, each opened by a keyword (`CONSTANT(S)`, `INIT`, `NEXT`,
//! `SPECIFICATION`, `INVARIANT(S)`, `PROPERTY`/`PROPERTIES`, `CHECK_DEADLOCK`, ...) and followed by its
//! entries until the next keyword. A constant is given a value (`N = 3`, `Procs = {p1, p2}`, where a bare
//! identifier is a TLC *model value*: a fresh value equal only to itself) or replaced by an operator of the
//! module (`Jug <- MCJug`). Sections bsolve does not implement are kept by name and position so that the
//! caller can refuse the model rather than answer a different question.

use crate::diag::{Diagnostic, FileId, Result, Span, register_source};
use crate::syntax::ast::Ident;
use num_bigint::BigInt;

/// A value written in a model file.
#[derive(Clone, Debug, PartialEq)]
pub enum CfgValue {
    Int(BigInt),
    Str(String),
    Bool(bool),
    /// A model value, named by an identifier.
    ModelValue(Ident),
    Set(Vec<CfgValue>),
}

/// What a `CONSTANT` entry does with a constant.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstantBinding {
    /// `C = value`.
    Value(CfgValue, Span),
    /// `C <- Op`: the constant stands for the module's operator `Op`.
    Operator(Ident),
}

#[derive(Clone, Debug, Default)]
pub struct Config {
    pub constants: Vec<(Ident, ConstantBinding)>,
    pub init: Option<Ident>,
    pub next: Option<Ident>,
    pub specification: Option<Ident>,
    pub invariants: Vec<Ident>,
    pub properties: Vec<Ident>,
    /// `CHECK_DEADLOCK FALSE` turns deadlock checking off (TLC checks it by default).
    pub check_deadlock: bool,
    /// `SYMMETRY` sets: TLC then counts states up to the permutations; bsolve explores without the
    /// reduction (the verdicts are the same, the counts are not).
    pub symmetry: Vec<Ident>,
    /// `CONSTRAINT` state predicates: TLC neither keeps nor expands a state violating one (it still
    /// checks its invariants).
    pub constraints: Vec<Ident>,
    /// Sections bsolve does not implement, by keyword and position.
    pub unsupported: Vec<(String, Span)>,
    /// `D = [M] value`: the definition `D` of module `M` replaced by a value (also where `M` is
    /// instantiated), by module, definition and value.
    pub module_overrides: Vec<(Ident, Ident, CfgValue)>,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Int(BigInt),
    Str(String),
    Sym(&'static str),
}

/// Splits a model file into tokens with their byte ranges; `\*` line comments and `(* *)` block comments
/// are skipped.
fn tokens(file: FileId, text: &str) -> Result<Vec<(Tok, Span)>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if text[i..].starts_with("\\*") {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
        } else if text[i..].starts_with("(*") {
            i = text[i..].find("*)").map_or(bytes.len(), |n| i + n + 2);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Word(text[start..i].into()), Span::new(file, start, i)));
        } else if c.is_ascii_digit()
            || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let n: BigInt = text[start..i]
                .parse()
                .expect("an optional minus and digits");
            out.push((Tok::Int(n), Span::new(file, start, i)));
        } else if c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += 1;
            }
            if i >= bytes.len() {
                return Err(Diagnostic::syntax(
                    Span::new(file, start, i),
                    "unterminated string",
                ));
            }
            i += 1;
            out.push((
                Tok::Str(text[start + 1..i - 1].into()),
                Span::new(file, start, i),
            ));
        } else {
            let sym = ["<-", "=", "{", "}", ",", "[", "]", "<", ">"]
                .into_iter()
                .find(|s| text[i..].starts_with(s))
                .ok_or_else(|| {
                    Diagnostic::syntax(
                        Span::new(file, i, i + 1),
                        format!(
                            "unexpected `{}` in a model file",
                            &text[i..].chars().next().unwrap_or(' ')
                        ),
                    )
                })?;
            i += sym.len();
            out.push((Tok::Sym(sym), Span::new(file, start, i)));
        }
    }
    Ok(out)
}

/// The section a keyword opens.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    Constants,
    Init,
    Next,
    Specification,
    Invariants,
    Properties,
    CheckDeadlock,
    Symmetry,
    Constraint,
    Unsupported,
}

fn section(word: &str) -> Option<Section> {
    Some(match word {
        "CONSTANT" | "CONSTANTS" => Section::Constants,
        "INIT" => Section::Init,
        "NEXT" => Section::Next,
        "SPECIFICATION" => Section::Specification,
        "INVARIANT" | "INVARIANTS" => Section::Invariants,
        "PROPERTY" | "PROPERTIES" => Section::Properties,
        "CHECK_DEADLOCK" => Section::CheckDeadlock,
        "SYMMETRY" => Section::Symmetry,
        "CONSTRAINT" | "CONSTRAINTS" => Section::Constraint,
        "ACTION_CONSTRAINT" | "ACTION_CONSTRAINTS" | "VIEW" | "POSTCONDITION" | "ALIAS" => {
            Section::Unsupported
        }
        _ => return None,
    })
}

/// Parses the model file `path` with text `text`.
pub fn parse(path: &str, text: &str) -> Result<Config> {
    let file = register_source(path, text);
    let toks = tokens(file, text)?;
    let mut config = Config {
        check_deadlock: true,
        ..Config::default()
    };
    let mut current: Option<Section> = None;
    let mut i = 0;
    let ident = |s: &str, span: Span| Ident {
        name: s.into(),
        span,
    };
    while i < toks.len() {
        let (tok, span) = &toks[i];
        if let Tok::Word(w) = tok
            && let Some(s) = section(w)
        {
            if s == Section::Unsupported {
                // ALIAS only changes how TLC prints traces: nothing to refuse.
                if w != "ALIAS" {
                    config.unsupported.push((w.clone(), *span));
                }
            }
            current = Some(s);
            i += 1;
            continue;
        }
        let Some(s) = current else {
            return Err(Diagnostic::syntax(
                *span,
                "expected a model-file keyword (CONSTANTS, INIT, NEXT, SPECIFICATION, INVARIANT, ...)",
            ));
        };
        match (s, tok) {
            (Section::Constants, Tok::Word(name)) => {
                let name = ident(name, *span);
                match toks.get(i + 1) {
                    Some((Tok::Sym("="), _)) => {
                        if let (Some((Tok::Sym("["), _)), Some((Tok::Word(module), mspan))) =
                            (toks.get(i + 2), toks.get(i + 3))
                        {
                            if !matches!(toks.get(i + 4), Some((Tok::Sym("]"), _))) {
                                return Err(Diagnostic::syntax(
                                    *mspan,
                                    "expected `]` after the module name",
                                ));
                            }
                            let (value, next) = value(&toks, i + 5, *span)?;
                            let module = ident(module, *mspan);
                            config.module_overrides.push((module, name, value));
                            i = next;
                            continue;
                        }
                        let (value, next) = value(&toks, i + 2, *span)?;
                        let vspan = span.to(toks[next - 1].1);
                        config
                            .constants
                            .push((name, ConstantBinding::Value(value, vspan)));
                        i = next;
                    }
                    Some((Tok::Sym("<-"), _)) => match toks.get(i + 2) {
                        Some((Tok::Word(op), ospan)) => {
                            config
                                .constants
                                .push((name, ConstantBinding::Operator(ident(op, *ospan))));
                            i += 3;
                        }
                        Some((Tok::Sym("["), ospan)) => {
                            return Err(Diagnostic::unsupported(
                                *ospan,
                                "`<- [Module] Op` in a model file",
                            ));
                        }
                        _ => {
                            return Err(Diagnostic::syntax(
                                *span,
                                "expected an operator name after `<-`",
                            ));
                        }
                    },
                    _ => {
                        return Err(Diagnostic::syntax(
                            *span,
                            format!("expected `=` or `<-` after constant `{}`", name.name),
                        ));
                    }
                }
            }
            (Section::Init | Section::Next | Section::Specification, Tok::Word(name)) => {
                let slot = match s {
                    Section::Init => &mut config.init,
                    Section::Next => &mut config.next,
                    _ => &mut config.specification,
                };
                *slot = Some(ident(name, *span));
                i += 1;
            }
            (Section::Invariants, Tok::Word(name)) => {
                config.invariants.push(ident(name, *span));
                i += 1;
            }
            (Section::Properties, Tok::Word(name)) => {
                config.properties.push(ident(name, *span));
                i += 1;
            }
            (Section::Symmetry, Tok::Word(name)) => {
                config.symmetry.push(ident(name, *span));
                i += 1;
            }
            (Section::Constraint, Tok::Word(name)) => {
                config.constraints.push(ident(name, *span));
                i += 1;
            }
            (Section::CheckDeadlock, Tok::Word(w)) if w == "TRUE" || w == "FALSE" => {
                config.check_deadlock = w == "TRUE";
                i += 1;
            }
            (Section::Unsupported, _) => i += 1,
            _ => {
                return Err(Diagnostic::syntax(
                    *span,
                    "unexpected entry in this model-file section",
                ));
            }
        }
    }
    Ok(config)
}

/// A value starting at token `i`; returns it and the index after it.
fn value(toks: &[(Tok, Span)], i: usize, at: Span) -> Result<(CfgValue, usize)> {
    let Some((tok, span)) = toks.get(i) else {
        return Err(Diagnostic::syntax(at, "expected a value after `=`"));
    };
    Ok(match tok {
        Tok::Int(n) => (CfgValue::Int(n.clone()), i + 1),
        Tok::Str(s) => (CfgValue::Str(s.clone()), i + 1),
        Tok::Word(w) if w == "TRUE" || w == "FALSE" => (CfgValue::Bool(w == "TRUE"), i + 1),
        Tok::Word(w) => (
            CfgValue::ModelValue(Ident {
                name: w.as_str().into(),
                span: *span,
            }),
            i + 1,
        ),
        Tok::Sym("{") => {
            let mut elems = Vec::new();
            let mut j = i + 1;
            if matches!(toks.get(j), Some((Tok::Sym("}"), _))) {
                return Ok((CfgValue::Set(elems), j + 1));
            }
            loop {
                let (v, next) = value(toks, j, *span)?;
                elems.push(v);
                match toks.get(next) {
                    Some((Tok::Sym(","), _)) => j = next + 1,
                    Some((Tok::Sym("}"), _)) => return Ok((CfgValue::Set(elems), next + 1)),
                    _ => {
                        return Err(Diagnostic::syntax(
                            *span,
                            "expected `,` or `}` in a set value",
                        ));
                    }
                }
            }
        }
        _ => {
            return Err(Diagnostic::unsupported(
                *span,
                "this kind of value in a model file",
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sections_values_and_substitutions() {
        let c = parse(
            "t.cfg",
            "\\* comment\nCONSTANTS N = 3\n  Procs = {p1, p2}\n  Jug <- MCJug\nINIT Init NEXT Next\nINVARIANTS TypeOK Safe\nCHECK_DEADLOCK FALSE\nCONSTRAINT Bound\nVIEW v\n",
        )
        .expect("parses");
        assert_eq!(c.constants.len(), 3);
        assert!(
            matches!(&c.constants[0].1, ConstantBinding::Value(CfgValue::Int(n), _) if *n == 3.into())
        );
        assert!(
            matches!(&c.constants[1].1, ConstantBinding::Value(CfgValue::Set(v), _) if v.len() == 2)
        );
        assert!(matches!(&c.constants[2].1, ConstantBinding::Operator(op) if &*op.name == "MCJug"));
        assert_eq!(c.init.as_ref().map(|i| &*i.name), Some("Init"));
        assert_eq!(c.invariants.len(), 2);
        assert!(!c.check_deadlock);
        assert_eq!(&*c.constraints[0].name, "Bound");
        assert_eq!(c.unsupported[0].0, "VIEW");
    }
}
