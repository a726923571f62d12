//! Temporal formulas as parsed: LTL[e] and CTL in ProB's syntax, generic over what an atom is.
//!
//! The parser produces `Formula<Atom>`, atoms as written (a B predicate's source range, an operation and
//! its argument patterns); resolving them against a machine maps each to an index into the state space's
//! atom table (`Formula<usize>`), which is what the checkers and the oracle read.

use crate::diag::Span;
use crate::syntax::ast::Ident;

/// A temporal formula; `A` is the atom type.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula<A> {
    pub kind: Kind<A>,
    /// The formula's text in its source (the machine file for an `ASSERT_LTL` definition, the command
    /// line otherwise).
    pub span: Span,
}

type F<A> = Box<Formula<A>>;

#[derive(Clone, Debug, PartialEq)]
pub enum Kind<A> {
    True,
    False,
    Atom(A),
    Not(F<A>),
    And(F<A>, F<A>),
    Or(F<A>, F<A>),
    /// `=>` (also written `->`).
    Implies(F<A>, F<A>),
    /// `<=>`.
    Equiv(F<A>, F<A>),

    // LTL, future.
    /// `X f`: f holds at the next position.
    Next(F<A>),
    /// `G f`.
    Globally(F<A>),
    /// `F f`.
    Finally(F<A>),
    /// `f U g`: g eventually holds, f at every position before.
    Until(F<A>, F<A>),
    /// `f W g`: weak until (`f U g or G f`).
    WeakUntil(F<A>, F<A>),
    /// `f R g`: release (`not (not f U not g)`).
    Release(F<A>, F<A>),

    // LTL, past.
    /// `Y f`: there is a previous position and f held there.
    Yesterday(F<A>),
    /// `H f`: f held at every position so far (this one included).
    Historically(F<A>),
    /// `O f`: f held at some position so far (this one included).
    Once(F<A>),
    /// `f S g`: g held at some position so far, and f at every position after it up to this one.
    Since(F<A>, F<A>),
    /// `f T g`: trigger (`not (not f S not g)`).
    Trigger(F<A>, F<A>),

    // LTL, fairness assumptions; only as conjuncts on the left of a top-level `=>`.
    /// `WF(Op)`: weak fairness of an operation; the atom is the `[Op]` event atom of the action.
    WeakFair(A),
    /// `SF(Op)`.
    StrongFair(A),
    /// `WEF`: weak fairness of every operation.
    WeakFairAll,
    /// `SEF`: strong fairness of every operation.
    StrongFairAll,

    // CTL.
    /// `EX f`, or `EX[Op] f` (the atom is the `[Op]` event atom the step must satisfy).
    ExistsNext(Option<A>, F<A>),
    /// `AX f`.
    AllNext(F<A>),
    /// `EF f`.
    ExistsFinally(F<A>),
    /// `EG f`.
    ExistsGlobally(F<A>),
    /// `AF f`.
    AllFinally(F<A>),
    /// `AG f`.
    AllGlobally(F<A>),
    /// `E f U g`.
    ExistsUntil(F<A>, F<A>),
    /// `A f U g`.
    AllUntil(F<A>, F<A>),

    /// `#x.({P} & f)` (existential) or `!x.({P} => f)` (universal): `f` for the values of the B
    /// identifiers that satisfy `P`. Resolution expands it into a disjunction or conjunction.
    Quantified {
        exists: bool,
        vars: Vec<Ident>,
        /// The source range of `P` (without its braces).
        domain: Span,
        body: F<A>,
    },
}

/// An atom as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    /// `{P}`: the B predicate whose text is this range of the source (without the braces).
    Pred(Span),
    /// `e(Op)`: some instance of the operation is enabled.
    Enabled(Action),
    /// `Av(Op)`: the operation is available (for a B machine: enabled).
    Available(Action),
    /// `[Op]` or `[Op(a, _, ...)]`: the step taken from this position is an instance of the action.
    Taken(Action),
    /// `deadlock`: no operation is enabled.
    Deadlock,
    /// `deadlock(Op1, ..., Opn)`: none of these operations is enabled.
    DeadlockOf(Vec<Ident>),
    /// `deterministic(Op1, ..., Opn)`: at most one instance of these operations is enabled.
    Deterministic(Vec<Ident>),
    /// `controller(Op1, ..., Opn)`: exactly one instance of these operations is enabled.
    Controller(Vec<Ident>),
    /// `sink`: no step leads to another state.
    Sink,
    /// `current`: this is an initial state of the check.
    Current,
    /// `goal` (CTL): the machine's GOAL definition holds.
    Goal,
    /// `error` (CTL): the invariant is violated.
    Error,
}

/// An operation with optional argument patterns: `Op` or `Op(a, _, b)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub operation: Ident,
    /// `None` for `Op` alone; otherwise one pattern per parameter.
    pub args: Option<Vec<ArgPattern>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ArgPattern {
    /// `_`: any value.
    Any(Span),
    /// A B expression (its source range), compared with the parameter's value.
    Expr(Span),
}

impl<A> Formula<A> {
    pub fn new(kind: Kind<A>, span: Span) -> Formula<A> {
        Formula { kind, span }
    }
}

impl<A: Clone> Formula<A> {
    /// Appends every atom of the formula (fairness and `EX[Op]` actions included) to `out`.
    pub fn atoms(&self, out: &mut Vec<A>) {
        match &self.kind {
            Kind::True | Kind::False | Kind::WeakFairAll | Kind::StrongFairAll => {}
            Kind::Atom(a) | Kind::WeakFair(a) | Kind::StrongFair(a) => out.push(a.clone()),
            Kind::Not(f)
            | Kind::Next(f)
            | Kind::Globally(f)
            | Kind::Finally(f)
            | Kind::Yesterday(f)
            | Kind::Historically(f)
            | Kind::Once(f)
            | Kind::AllNext(f)
            | Kind::ExistsFinally(f)
            | Kind::ExistsGlobally(f)
            | Kind::AllFinally(f)
            | Kind::AllGlobally(f) => f.atoms(out),
            Kind::ExistsNext(action, f) => {
                out.extend(action.iter().cloned());
                f.atoms(out);
            }
            Kind::Quantified { body, .. } => body.atoms(out),
            Kind::And(f, g)
            | Kind::Or(f, g)
            | Kind::Implies(f, g)
            | Kind::Equiv(f, g)
            | Kind::Until(f, g)
            | Kind::WeakUntil(f, g)
            | Kind::Release(f, g)
            | Kind::Since(f, g)
            | Kind::Trigger(f, g)
            | Kind::ExistsUntil(f, g)
            | Kind::AllUntil(f, g) => {
                f.atoms(out);
                g.atoms(out);
            }
        }
    }
}
