//! DIMACS CNF output.

use crate::Lit;
use std::io::{self, Write};

/// Writes `clauses` over variables `1..=vars` as DIMACS CNF, preceded by one `c` line per comment.
pub fn write(
    out: &mut impl Write,
    vars: usize,
    clauses: &[Vec<Lit>],
    comments: &[String],
) -> io::Result<()> {
    for c in comments {
        for line in c.lines() {
            writeln!(out, "c {line}")?;
        }
    }
    writeln!(out, "p cnf {vars} {}", clauses.len())?;
    for clause in clauses {
        for l in clause {
            write!(out, "{l} ")?;
        }
        writeln!(out, "0")?;
    }
    Ok(())
}
