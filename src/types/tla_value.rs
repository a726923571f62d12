//! The meet of TLA+ values of different kinds.
//!
//! TLA+ is untyped: TLC lets one set hold integers, strings and model values together and compares values of
//! different kinds. In a TLA+ machine (and only there: in B, mixing kinds stays a type error), unification
//! that meets two distinct scalar kinds among INTEGER, STRING and the model values' enumerated set gives
//! `TlaValue` instead of an error. Records mix too: two record types with different fields (or a record and
//! a scalar) meet in `TlaValue`, whose fields are then found by name at run time. Sets and pairs stay
//! structural (`POW(TlaValue)`, `TlaValue * INTEGER`), and BOOL never mixes: TLA+ specifications rarely put booleans beside other values, and keeping BOOL apart
//! keeps predicates and boolean values typed as in B.

use super::Type;

/// Whether values of type `t` may mix with values of another kind in a TLA+ machine: the scalar kinds,
/// and records (a set of messages holds records with different fields, TLA+'s usual way of writing a
/// message type as a union of record sets).
pub fn is_mixable(t: &Type) -> bool {
    matches!(
        t,
        Type::Integer | Type::String | Type::Given(_) | Type::TlaValue | Type::Struct(_)
    )
}

/// Whether two record types have different fields: in a TLA+ machine they meet in `TlaValue`, and a
/// field is then looked up by name at run time (a record without it is a well-definedness error there).
pub fn fields_differ(
    a: &[(crate::syntax::ast::Name, Type)],
    b: &[(crate::syntax::ast::Name, Type)],
) -> bool {
    a.len() != b.len() || a.iter().zip(b).any(|((n, _), (m, _))| n != m)
}

/// The meet of two scalar kinds of a TLA+ machine: `TlaValue` when they differ (or either is already
/// `TlaValue`), `None` when one of them cannot mix, or both are the same kind (plain unification then).
pub fn meet(a: &Type, b: &Type) -> Option<Type> {
    (is_mixable(a) && is_mixable(b) && a != b).then_some(Type::TlaValue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_scalar_kinds_meet_in_tla_value() {
        let model_values = Type::Given("MODEL_VALUES".into());
        assert_eq!(meet(&Type::Integer, &Type::String), Some(Type::TlaValue));
        assert_eq!(meet(&model_values, &Type::Integer), Some(Type::TlaValue));
        assert_eq!(meet(&Type::TlaValue, &Type::String), Some(Type::TlaValue));
        assert_eq!(meet(&Type::Integer, &Type::Integer), None);
        assert_eq!(meet(&Type::Bool, &Type::Integer), None);
        assert_eq!(meet(&Type::set(Type::Integer), &Type::Integer), None);
    }
}
