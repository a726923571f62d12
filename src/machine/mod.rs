//! Loading a machine: resolve SEES/INCLUDES/EXTENDS/USES/REFINES and `.def` files relative to the machine,
//! expand DEFINITIONS, and flatten everything into one `ast::Machine`.

pub mod definitions;
pub mod rewrite;
mod flatten;
