//! Short constructors for formulas written by hand in the tests: `unary(Kind::Globally, atom(0))`.

use super::super::formula::{Formula, Kind};
use crate::diag::Span;

type Boxed = Box<Formula<usize>>;

/// A formula with no source position.
pub fn formula(kind: Kind<usize>) -> Formula<usize> {
    Formula::new(kind, Span::default())
}

pub fn atom(a: usize) -> Formula<usize> {
    formula(Kind::Atom(a))
}

/// `op(f)` for a unary operator's constructor (`Kind::Not`, `Kind::Globally`, `Kind::AllNext`, ...).
pub fn unary(op: fn(Boxed) -> Kind<usize>, f: Formula<usize>) -> Formula<usize> {
    formula(op(Box::new(f)))
}

/// `op(f, g)` for a binary operator's constructor (`Kind::And`, `Kind::Until`, `Kind::AllUntil`, ...).
pub fn binary(
    op: fn(Boxed, Boxed) -> Kind<usize>,
    f: Formula<usize>,
    g: Formula<usize>,
) -> Formula<usize> {
    formula(op(Box::new(f), Box::new(g)))
}
