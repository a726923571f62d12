//! Modules bsolve ships in TLA+ source: the community modules specifications commonly extend
//! (Functions, FiniteSetsExt, the common part of SequencesExt), the standard module Bags and Sequences'
//! `SelectSeq`, whose operator parameter the built-in
//! lowering (`standard`) cannot take. Each is written here from the operators' documented meaning
//! and loaded like a module beside the specification, so its higher-order and recursive definitions
//! go through the same lowering as the user's. A file of the same name beside the specification
//! takes precedence.

/// The source of the bundled module a specification may extend as `name`, if bsolve ships one.
pub fn source(name: &str) -> Option<&'static str> {
    match name {
        "Functions" => Some(include_str!("community/Functions.tla")),
        "FiniteSetsExt" => Some(include_str!("community/FiniteSetsExt.tla")),
        "SequencesExt" => Some(include_str!("community/SequencesExt.tla")),
        "Bags" => Some(include_str!("community/Bags.tla")),
        _ => None,
    }
}

/// The bundled modules a specification may extend by name (for messages).
pub const EXTENDABLE: &[&str] = &["Functions", "FiniteSetsExt", "SequencesExt", "Bags"];

/// `SelectSeq`, loaded with Sequences (module `SelectSeq`, a name no specification extends).
pub const SELECT_SEQ: (&str, &str) = ("SelectSeq", include_str!("community/SelectSeq.tla"));
