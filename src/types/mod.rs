//! B types and unification-based type inference.
//!
//! A B type is built from the basic types INTEGER, BOOL, STRING and the given sets (deferred or enumerated),
//! with `POW(T)`, `T1 * T2` and `struct(...)`. Inference (in `infer`) assigns every identifier a type or
//! reports the identifier and its position.

pub mod external;
pub mod infer;
mod lower;
mod lower_subst;
mod resolve;
mod tla_value;
mod unify;

pub use infer::{Formula, check_formula, check_machine, check_machine_taking_bodies};

/// B types belong to the typed IR the checker produces; re-exported where inference uses them.
pub use crate::ir::Type;

#[cfg(test)]
mod tests;
