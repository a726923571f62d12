//! LTL checking over a `StateSpace`: safety formulas by a breadth-first search for a bad position
//! (`safety`), the rest by the emptiness of the product with the negation's Büchi automaton (`product`).

mod history;
mod normal_form;
mod product;
mod safety;
mod tableau;

use super::formula::Formula;
use super::space::{EdgeRef, Fairness, NodeId, StateSpace, Stop};
use crate::diag::{DiagKind, Diagnostic};

/// One position of a run: a node and the edge the run leaves it by.
pub type Position = (NodeId, EdgeRef);

/// An ultimately periodic run: `prefix`, then `cycle` forever. The last position of `prefix` (or of the
/// cycle, going round) leads to `cycle[0]`'s node; the cycle is never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    pub prefix: Vec<Position>,
    pub cycle: Vec<Position>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LtlVerdict {
    /// Every run from every initial node that satisfies the fairness assumptions satisfies the formula.
    Holds,
    /// A fair run violating the formula.
    Violated(Lasso),
}

/// How the formula was decided (reported with the verdict).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `G f` with `f` free of future operators, no fairness: a search for a position violating `f`.
    Safety,
    /// The product with the automaton of the negated formula.
    Product,
}

/// Checks `formula` (atoms resolved to the space's atom indices, fairness assumptions split off) on every
/// fair run of `space` from its initial nodes.
pub fn check(
    space: &mut dyn StateSpace,
    formula: &Formula<usize>,
    fairness: &[Fairness],
) -> Result<LtlVerdict, Stop> {
    check_with_method(space, formula, fairness).map(|(v, _)| v)
}

/// `check`, and the method that decided it.
pub fn check_with_method(
    space: &mut dyn StateSpace,
    formula: &Formula<usize>,
    fairness: &[Fairness],
) -> Result<(LtlVerdict, Method), Stop> {
    if fairness.is_empty()
        && let Some(body) = safety::invariant_body(formula)
    {
        let verdict = safety::check(space, body).map_err(|d| Stop::Error(d, None))?;
        return Ok((verdict?, Method::Safety));
    }
    let (nnf, root) = normal_form::Nnf::build(formula, true).map_err(|d| Stop::Error(d, None))?;
    let Some(tableau) = tableau::Tableau::new(&nnf, root) else {
        return Err(Stop::Error(
            Diagnostic::new(
                DiagKind::Unsupported,
                formula.span,
                format!(
                    "unsupported: more than {} until operators in one formula",
                    tableau::MAX_UNTILS
                ),
            ),
            None,
        ));
    };
    let mut product = product::Product::new(space, tableau, &nnf.monitor, fairness);
    let verdict = match product.search()? {
        Some(lasso) => LtlVerdict::Violated(lasso),
        None => LtlVerdict::Holds,
    };
    Ok((verdict, Method::Product))
}
