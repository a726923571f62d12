//! bsolve: answers questions about classical-B specifications by constraint solving.
//!
//! The data path (see `ARCHITECTURE.md`): `syntax` (lexer, parser, AST) → `machine` (load, resolve
//! SEES/INCLUDES/.def, expand definitions, flatten) → `types` (inference, lowering to the typed `ir`) →
//! `eval` (exact interpreter over `value`, brute-force enumeration) → `check` (setup-constants, mc, ...)
//! → `report` (text, JSON, exit codes).

pub mod analysis;
pub mod check;
pub mod diag;
pub mod eval;
pub mod ir;
pub mod ldd;
pub mod machine;
pub mod report;
pub mod solve;
pub mod syntax;
pub mod temporal;
pub mod tla;
pub mod types;
pub mod value;
