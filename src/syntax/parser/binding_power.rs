//! The one table of infix and postfix binding powers (Atelier B priorities, B_REFERENCE §2 "Precedence").
//!
//! A left-associative operator of priority `p` has binding powers `(p, p + 1)`; a right-associative one
//! `(p, p)`. One deliberate deviation from Atelier B, following ProB's parser: relational predicates
//! (`= /= : <: < ...`) bind tighter than `<=>` (65 instead of 60), so `a = b <=> c = d` means
//! `(a = b) <=> (c = d)`. `,` is not an infix operator: tuples, argument lists and enumerations are
//! parsed as lists by their brackets, so its priority (115) never matters. Relational composition `;` and
//! parallel product `||` exist only inside brackets and quantified-expression bodies and are handled
//! there (`Parser::composed_term`).

use crate::syntax::ast::Op;
use crate::syntax::token::Tok;

/// How an infix operator builds its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfixKind {
    /// `lhs op rhs` → `Op(op, [lhs, rhs])`.
    Binary(Op),
    /// Unicode `f ∘ g`, which is `(g ; f)`: arguments swapped.
    Swapped(Op),
}

/// Binding powers `(left, right)` and node of an infix operator token.
pub fn infix(tok: Tok) -> Option<(u8, u8, InfixKind)> {
    use InfixKind::{Binary, Swapped};
    let left = |p: u8, op: Op| Some((p, p + 1, Binary(op)));
    match tok {
        Tok::Sym(s) => match s.as_str() {
            "=>" => left(30, Op::Implies),
            "&" => left(40, Op::And),
            "<=>" => left(60, Op::Equiv),
            "=" => left(65, Op::Eq),
            "/=" => left(65, Op::NotEq),
            ":" => left(65, Op::In),
            "/:" => left(65, Op::NotIn),
            "<:" => left(65, Op::Subset),
            "/<:" => left(65, Op::NotSubset),
            "<<:" => left(65, Op::Strict),
            "/<<:" => left(65, Op::NotStrict),
            "<" => left(65, Op::Lt),
            "<=" => left(65, Op::Le),
            ">" => left(65, Op::Gt),
            ">=" => left(65, Op::Ge),
            "<->" => left(125, Op::Relation),
            "<<->" => left(125, Op::TotalRelation),
            "<->>" => left(125, Op::SurjRelation),
            "<<->>" => left(125, Op::TotalSurjRelation),
            "+->" => left(125, Op::PartialFunction),
            "-->" => left(125, Op::TotalFunction),
            ">+>" => left(125, Op::PartialInjection),
            ">->" => left(125, Op::TotalInjection),
            "+->>" => left(125, Op::PartialSurjection),
            "-->>" => left(125, Op::TotalSurjection),
            ">+>>" => left(125, Op::PartialBijection),
            ">->>" => left(125, Op::TotalBijection),
            "|->" => left(160, Op::Maplet),
            "\\/" => left(160, Op::Union),
            "/\\" => left(160, Op::Inter),
            "<|" => left(160, Op::DomRestrict),
            "<<|" => left(160, Op::DomSubtract),
            "|>" => left(160, Op::RanRestrict),
            "|>>" => left(160, Op::RanSubtract),
            "<+" => left(160, Op::Override),
            "><" => left(160, Op::DirectProduct),
            "^" => left(160, Op::Concat),
            "->" => left(160, Op::Prepend),
            "<-" => left(160, Op::Append),
            "/|\\" => left(160, Op::Take),
            "\\|/" => left(160, Op::Drop),
            "∘" => Some((160, 161, Swapped(Op::Composition))),
            ".." => left(170, Op::Interval),
            "+" => left(180, Op::Add),
            "-" => left(180, Op::Sub),
            "\\" => left(180, Op::SetMinus),
            "*" => left(190, Op::Mul),
            "/" => left(190, Op::Div),
            "**" => Some((200, 200, Binary(Op::Power))),
            _ => None,
        },
        Tok::Kw(k) => match k.as_str() {
            "or" => left(40, Op::Or),
            "mod" => left(190, Op::Mod),
            _ => None,
        },
        _ => None,
    }
}

/// Binding power of prefix `-` (its operand is parsed at this power).
pub const PREFIX_MINUS: u8 = 210;

/// Left binding power of the postfix operators: `~` (230), and `'field`, `f(args)`, `r[S]` (250).
pub fn postfix(tok: Tok) -> Option<u8> {
    match tok.sym()? {
        "~" => Some(230),
        "'" | "(" | "[" => Some(250),
        _ => None,
    }
}
