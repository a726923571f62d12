//! The checks a user runs — setup-constants, init, eval, mc — each a thin loop over `eval` (and, in later
//! stages, `solve`). They return plain result structs; `report` turns them into text, JSON and exit codes.

pub mod bench;
pub mod bmc;
mod bmc_bits;
pub mod budget;
pub mod cbc;
mod csv_table;
pub mod evaluate;
mod explicit_search;
pub mod ic3;
mod invariant_memo;
pub mod kinduction;
mod learned_route;
pub mod mc;
pub mod model;
pub mod progress;
pub mod reach;
pub mod setup;
pub mod simulate;
pub mod solve_cmd;
pub mod stubborn;
pub mod symmetric_mc;
pub mod symmetry;
pub mod temporal;
mod transition_pieces;
pub mod transition_system;
pub mod unsat_core;

pub use model::{Model, Options};
