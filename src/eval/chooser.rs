//! The interpreter's one question to a solver. Where it must *choose* — constants, ANY, `:(P)`,
//! operation parameters, the domain of a quantifier its enumeration cannot bound — the interpreter asks
//! a `Chooser` for the solutions of a predicate over typed names. The solver layer implements it
//! (`solve::Solver`) and the caller injects it into the `Context`: the interpreter names no backend's
//! code, so a re-check of a backend's solution never runs through that backend.

use super::{Context, Env, EvalError};
use crate::ir::{Pred, TypedName};
use crate::value::Value;

/// Which solver answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The best available backend for the problem.
    #[default]
    Auto,
    /// Exhaustive enumeration by the interpreter (the differential-testing oracle).
    Brute,
    /// The propagating finite-domain solver.
    Native,
    /// Translation to SAT (`kodkod`), the native solver for what does not translate.
    Kodkod,
    /// SMT-LIB v2 translation decided by an SMT solver process (z3 by default).
    Smt,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Brute => "brute",
            Backend::Native => "native",
            Backend::Kodkod => "kodkod",
            Backend::Smt => "z3",
        }
    }
}

/// How a question treats solutions that differ only by a permutation of the elements of the deferred
/// sets. B cannot name those elements, so such solutions are interchangeable — but only as long as
/// nothing in the question's environment distinguishes them (a constant setup: yes; the parameters of an
/// operation in a state that holds particular elements: no).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Symmetry {
    /// Every solution is reported.
    #[default]
    None,
    /// At least one solution per class of permutations is reported (a backend may prune symmetric
    /// subtrees). Only for questions whose answer does not depend on how many solutions there are:
    /// whether one exists, and which.
    Representatives,
    /// Every solution, found by a reduced search whose representatives are expanded to their classes
    /// (`orbits::stream_expanded`): what an enumeration reported as complete needs.
    Expanded,
    /// ProB's reduction of constant setups, which its model checker's counts reflect (B_REFERENCE §3):
    /// pairwise-distinct constants of a deferred type pinned to its first elements, the least-number
    /// restriction on scalars of that type, and the parts of a partition of it taken in order; other
    /// set-valued unknowns are not reduced. Answers say when it was applied (`Stats::symmetry_reduced`).
    ProbSetups,
}

impl Symmetry {
    /// Whether a backend may leave out solutions symmetric to reported ones.
    pub fn reduces(self) -> bool {
        matches!(self, Symmetry::Representatives | Symmetry::ProbSetups)
    }
}

/// Why the interpreter asks: the solver picks the backend and the reading of the answer from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Values to continue with (constant setups, ANY, `:(P)`, parameters), from the backend of the
    /// settings. `sizes_matter`: whether an answer relative to deferred sets of default size is
    /// incomplete (a question users read) rather than relative to sets already fixed.
    Choice {
        symmetry: Symmetry,
        sizes_matter: bool,
    },
    /// The solutions of a domain the interpreter's enumeration cannot bound (`i > 0 & i < j & j <= n`),
    /// from the propagating solver.
    Domain,
    /// Whether a predicate over unbounded integers has a solution (`#c.(c = c + 1)`), from the SMT
    /// solver.
    Witness,
}

/// A question: values for `vars` satisfying `pred`, given the values of `env`.
#[derive(Clone, Copy)]
pub struct Question<'a> {
    pub vars: &'a [TypedName],
    pub pred: &'a Pred,
    pub env: &'a Env,
    pub purpose: Purpose,
    /// How many solutions the caller reads at most (`usize::MAX` for a stream).
    pub wanted: usize,
}

/// How a stream of solutions ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chosen {
    /// No further solution exists (ignoring a stop requested by the caller).
    pub complete: bool,
    /// The solutions reported are representatives of classes of permutations of the deferred sets'
    /// elements (`Symmetry::reduces`), not all of them.
    pub symmetry_reduced: bool,
}

/// Answers the interpreter's questions; every solution it reports has been re-checked by the
/// interpreter (without asking a chooser).
pub trait Chooser: Send + Sync {
    /// Streams the solutions to `on_solution` (which returns whether to go on).
    fn stream(
        &self,
        ctx: &Context,
        question: &Question<'_>,
        on_solution: &mut dyn FnMut(&[Value]) -> bool,
    ) -> Result<Chosen, EvalError>;
}

/// Up to `limit` solutions of a question.
pub(crate) struct Listed {
    pub solutions: Vec<Vec<Value>>,
    /// No further solution exists: the search was exhaustive and not cut by the limit.
    pub complete: bool,
    /// The search stopped because the limit was reached.
    pub limited: bool,
}

impl Context {
    /// Up to `limit` solutions of `pred` for `vars`, asked for `purpose`.
    pub(crate) fn choose_all(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &Env,
        purpose: Purpose,
        limit: usize,
    ) -> Result<Listed, EvalError> {
        let mut solutions = Vec::new();
        let mut limited = limit == 0;
        let chosen = if limited {
            Chosen::default()
        } else {
            let question = Question {
                vars,
                pred,
                env,
                purpose,
                wanted: limit,
            };
            self.chooser().stream(self, &question, &mut |values| {
                solutions.push(values.to_vec());
                limited = solutions.len() >= limit;
                !limited
            })?
        };
        Ok(Listed {
            solutions,
            complete: chosen.complete && !limited,
            limited,
        })
    }
}
