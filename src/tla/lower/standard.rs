//! The operators of the standard modules (Naturals, Integers, Sequences, FiniteSets, TLC) that real
//! specifications use, lowered to B: TLA+ sequences are B sequences (functions from 1..n), so `Len`,
//! `Head`, `Tail`, `Append`, `\o` and `SubSeq` are B's `size`, `first`, `tail`, `<-`, `^` and takes/drops.
//! An operator is known only when its module is extended, as in TLC.

use super::Role;
use super::expr::{ident, op, term};
use crate::diag::{Diagnostic, Result, Span};
use crate::syntax::ast::{ConstKind, Op, Term, TermKind};
use rustc_hash::FxHashSet;

/// The modules bsolve provides; any other EXTENDS must be a file beside the module.
pub const MODULES: &[&str] = &["Naturals", "Integers", "Sequences", "FiniteSets", "TLC"];

/// Modules of the TLA+ proof system: theorems and proof tactics only, nothing a model checker evaluates;
/// extending them adds nothing to check.
pub const PROOF_MODULES: &[&str] = &[
    "TLAPS",
    "FiniteSetTheorems",
    "NaturalsInduction",
    "WellFoundedInduction",
    "SequenceTheorems",
];

/// `name(args)` as a standard operator, if the module defining it is extended; `None` when it is none.
pub fn call(
    name: &str,
    mut args: Vec<Term>,
    span: Span,
    standard: &FxHashSet<String>,
) -> Result<Option<(Term, Role)>> {
    let module = match name {
        "Seq" | "Len" | "Head" | "Tail" | "Append" | "SubSeq" => "Sequences",
        "Cardinality" | "IsFiniteSet" => "FiniteSets",
        "Print" | "PrintT" | "Assert" | "ToString" | "JavaTime" | "Permutations" | "SortSeq"
        | "RandomElement" | "TLCGet" | "TLCSet" | "TLCEval" | "Any" => "TLC",
        _ => return Ok(None),
    };
    if !standard.contains(module) {
        return Ok(None);
    }
    let arity = |n: usize| -> Result<()> {
        if args.len() == n {
            Ok(())
        } else {
            Err(Diagnostic::type_error(
                span,
                format!("`{name}` takes {n} argument(s), not {}", args.len()),
            ))
        }
    };
    let unary = |o: Op, args: &mut Vec<Term>| op(o, vec![args.remove(0)], span);
    let lowered = match name {
        "Seq" => {
            arity(1)?;
            (unary(Op::Seq, &mut args), Role::Expr)
        }
        "Len" => {
            arity(1)?;
            (unary(Op::Size, &mut args), Role::Expr)
        }
        "Head" => {
            arity(1)?;
            (unary(Op::First, &mut args), Role::Expr)
        }
        "Tail" => {
            arity(1)?;
            (unary(Op::Tail, &mut args), Role::Expr)
        }
        "Cardinality" => {
            arity(1)?;
            (unary(Op::Card, &mut args), Role::Expr)
        }
        "Append" => {
            arity(2)?;
            (op(Op::Append, args, span), Role::Expr)
        }
        "SubSeq" => {
            arity(3)?;
            // SubSeq(s, m, n) = <<s[m], ..., s[n]>>: the first n, less the first m - 1.
            let n = args.pop().expect("three arguments");
            let m = args.pop().expect("three arguments");
            let s = args.pop().expect("three arguments");
            let taken = op(Op::Take, vec![s, n], span);
            let skip = op(Op::Sub, vec![m, term(TermKind::Int(1.into()), span)], span);
            (op(Op::Drop, vec![taken, skip], span), Role::Expr)
        }
        "IsFiniteSet" => {
            arity(1)?;
            let s = args.remove(0);
            (
                op(Op::In, vec![s.clone(), op(Op::Fin, vec![s], span)], span),
                Role::Pred,
            )
        }
        // Output only: TLC prints and goes on with the value (`PrintT` is TRUE).
        "Print" => {
            arity(2)?;
            (args.pop().expect("two arguments"), Role::Expr)
        }
        "PrintT" => {
            arity(1)?;
            (term(TermKind::Const(ConstKind::Btrue), span), Role::Pred)
        }
        // TLC stops with an error where an assertion is false: `ASSERT_TRUE` is TRUE or ill-defined, so
        // the transition evaluating it is reported as an error, never silently disabled.
        "Assert" => {
            arity(2)?;
            let call = TermKind::Call(Box::new(ident("ASSERT_TRUE", span)), args);
            (term(call, span), Role::Expr)
        }
        _ => {
            return Err(Diagnostic::unsupported(
                span,
                format!("operator `{name}` of module {module} (TLA+)"),
            ));
        }
    };
    Ok(Some(lowered))
}
