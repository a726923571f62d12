//! Unification-based type inference and lowering of the flattened AST to the typed `ir`.
