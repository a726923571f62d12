//! The exact interpreter.
