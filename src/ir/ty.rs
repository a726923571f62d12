//! B types: built from INTEGER, BOOL, STRING and the given sets (deferred or enumerated), with
//! `POW(T)`, `T1 * T2` and `struct(...)`. Every expression of the typed IR carries one.

use crate::syntax::ast::Name;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Integer,
    Bool,
    String,
    /// A given set of the machine (deferred or enumerated), by name.
    Given(Name),
    /// `POW(T)`.
    Set(Box<Type>),
    /// `T1 * T2` (the type of `a |-> b`).
    Pair(Box<Type>, Box<Type>),
    /// `struct(f1: T1, ...)`, fields sorted by name.
    Struct(Vec<(Name, Type)>),
    /// A TLA+ value of mixed kind: an integer, a string, a model value (an element of `MODEL_VALUES`) or a
    /// record with any fields, the meet of two of those kinds (or of records with different fields) in a
    /// TLA+ machine (`types::tla_value`). Never in a B machine.
    TlaValue,
    /// An inference variable; never present in a checked `ir::Machine`.
    Var(u32),
}

impl Type {
    pub fn set(t: Type) -> Type {
        Type::Set(Box::new(t))
    }
    pub fn pair(a: Type, b: Type) -> Type {
        Type::Pair(Box::new(a), Box::new(b))
    }
    /// `POW(a * b)`, the type of a relation.
    pub fn relation(a: Type, b: Type) -> Type {
        Type::set(Type::pair(a, b))
    }
    /// `POW(INTEGER * t)`, the type of a sequence of `t`.
    pub fn seq(t: Type) -> Type {
        Type::relation(Type::Integer, t)
    }
    /// The element type of a set type.
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::Set(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the type has finitely many values: no INTEGER, STRING or TLA+ value anywhere in it.
    pub fn is_finite(&self) -> bool {
        match self {
            Type::Integer | Type::String | Type::TlaValue | Type::Var(_) => false,
            Type::Bool | Type::Given(_) => true,
            Type::Set(t) => t.is_finite(),
            Type::Pair(a, b) => a.is_finite() && b.is_finite(),
            Type::Struct(fields) => fields.iter().all(|(_, t)| t.is_finite()),
        }
    }

    /// Whether a TLA+ value of mixed kind occurs anywhere in the type.
    pub fn contains_tla_value(&self) -> bool {
        match self {
            Type::TlaValue => true,
            Type::Set(t) => t.contains_tla_value(),
            Type::Pair(a, b) => a.contains_tla_value() || b.contains_tla_value(),
            Type::Struct(fields) => fields.iter().any(|(_, t)| t.contains_tla_value()),
            _ => false,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Integer => write!(f, "INTEGER"),
            Type::Bool => write!(f, "BOOL"),
            Type::String => write!(f, "STRING"),
            Type::Given(n) => write!(f, "{n}"),
            Type::Set(t) => write!(f, "POW({t})"),
            Type::Pair(a, b) => {
                // `*` is left-associative: parenthesise a pair on the right.
                let right = matches!(**b, Type::Pair(..));
                if right {
                    write!(f, "{a}*({b})")
                } else {
                    write!(f, "{a}*{b}")
                }
            }
            Type::Struct(fields) => {
                write!(f, "struct(")?;
                for (i, (n, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{n}:{t}")?;
                }
                write!(f, ")")
            }
            Type::TlaValue => write!(f, "TLA_VALUE"),
            Type::Var(i) => write!(f, "?{i}"),
        }
    }
}
