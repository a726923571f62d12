//! The exact interpreter: evaluates typed IR expressions, predicates and substitutions over `value::Value`.
//!
//! Evaluation is three-valued: a result, or a well-definedness error carrying the span of the offending node
//! (application outside the domain, division by zero, card of an infinite set, ...). Conjunction,
//! disjunction and implication are evaluated left to right with short-circuit (the L-system of WD).
//! Infinite or lazily kept sets (INTEGER, `%x.(x:NATURAL|..)`, `A --> B`, big intervals) are
//! `symbolic::SymbolicSet`s, tested by membership and materialised only when finite.
//! Quantifiers, comprehensions and the brute-force oracle `solve_by_enumeration` share the backtracking
//! search of `enumerate`.

mod choose;
pub mod chooser;
mod context;
mod counting;
mod enumerate;
mod expr;
mod external;
mod held_sets;
mod in_place;
mod integer_ranges;
mod memo;
mod polynomials;
mod pred;
mod relations;
mod reuse;
mod sequences;
mod set_sizes;
mod settings;
mod subst;
mod symbolic;
mod symbolic_range;
#[cfg(test)]
mod test_support;
mod transitions;
mod trees;
mod unassigned;
mod witnesses;

pub use chooser::{Backend, Chooser, Chosen, Purpose, Question, Symmetry};
pub use context::{Context, share_of_time_left};
pub use enumerate::Enumeration;
pub use reuse::{ReuseCache, ReuseStats};
pub use settings::Settings;
pub use subst::Updates;
pub use symbolic::SymbolicSet;
pub(crate) use symbolic::is_type_set;
pub(crate) use transitions::SymbolicConstant;
pub use transitions::{InitialStates, State, Successors, Transition};

use crate::diag::{DiagKind, Diagnostic, Span};
use crate::syntax::ast::Name;
use crate::value::Value;
use std::sync::Arc;

/// Why an evaluation produced no value.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalError {
    /// The expression or predicate is not well-defined at this point (division by zero, `f(x)` outside
    /// `dom(f)`, `card` of an infinite set, a violated ASSERT ...).
    WellDefinedness(Diagnostic),
    /// A resource limit: a set too large to enumerate, an infinite enumeration, an undecidable quantifier.
    Limit(Diagnostic),
    /// A construct the interpreter does not handle.
    Unsupported(Diagnostic),
}

impl EvalError {
    /// Whether this is the error of a passed deadline or of the memory limit (`Context::check_deadline`):
    /// either way every search must stop.
    pub fn is_timeout(&self) -> bool {
        matches!(self, EvalError::Limit(d)
            if d.message == context::TIMEOUT_MESSAGE || d.message == context::MEMORY_MESSAGE)
    }
}

impl From<EvalError> for Diagnostic {
    fn from(e: EvalError) -> Diagnostic {
        match e {
            EvalError::WellDefinedness(d) | EvalError::Limit(d) | EvalError::Unsupported(d) => d,
        }
    }
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::WellDefinedness(d) | EvalError::Limit(d) | EvalError::Unsupported(d) => {
                write!(f, "{d}")
            }
        }
    }
}

pub(crate) fn wd_error(span: Span, msg: impl Into<String>) -> EvalError {
    EvalError::WellDefinedness(Diagnostic::new(DiagKind::WellDefinedness, span, msg))
}

pub(crate) fn limit_error(span: Span, msg: impl Into<String>) -> EvalError {
    EvalError::Limit(Diagnostic::new(DiagKind::Limit, span, msg))
}

/// Stack kept free below the deepest evaluation: a recursive definition without a reachable base case
/// (`f = %x.(x : INTEGER | f(x - 1))`) recurses through the interpreter, and the process must end that
/// with a clear limit error, never with a stack overflow signal. Enough for the deepest chain of solver
/// and interpreter frames between two evaluation steps.
const STACK_RESERVE: usize = 1 << 20;

/// A limit error once the thread's stack is nearly used up (`STACK_RESERVE`).
pub(crate) fn check_stack(span: Span) -> Result<(), EvalError> {
    match stacker::remaining_stack() {
        Some(left) if left < STACK_RESERVE => Err(limit_error(
            span,
            "evaluation nested too deeply for the stack (a recursion without a reachable base case?)",
        )),
        _ => Ok(()),
    }
}

/// The error of a passed deadline (`EvalError::is_timeout`).
pub(crate) fn timeout_error(span: Span) -> EvalError {
    limit_error(span, context::TIMEOUT_MESSAGE)
}

pub(crate) fn unsupported(span: Span, what: impl std::fmt::Display) -> EvalError {
    EvalError::Unsupported(Diagnostic::unsupported(span, what))
}

/// A value of the wrong shape reached an operator: the type checker should have prevented it.
pub(crate) fn internal_error(span: Span, msg: impl Into<String>) -> EvalError {
    EvalError::Unsupported(Diagnostic::new(DiagKind::Internal, span, msg))
}

/// What an identifier is bound to: a value, or a set kept symbolic (infinite or lazily evaluated).
#[derive(Clone, Debug)]
pub enum Val {
    Value(Value),
    Sym(Arc<SymbolicSet>),
}

impl From<Value> for Val {
    fn from(v: Value) -> Val {
        Val::Value(v)
    }
}

/// Scoped bindings `Name -> Val`. Later bindings shadow earlier ones; quantifiers push and truncate, so
/// binding a bound variable costs no allocation beyond the vector's growth.
///
/// The bindings of a state (constants and variables) are cloned for every operation, parameter
/// candidate and solver check; `freeze` moves them into a shared base so that those clones copy only
/// the few bindings made since.
///
/// A search made under an environment (an ANY, `x : (P)`, `x :: S` listing its solutions) that lists
/// only part of them (integers within MININT..MAXINT, a few sample strings, the enumeration limit) says
/// so on the environment's `search_cut` flag, shared by its copies: the caller that asked for all
/// outcomes (the successor function, the initialisation) then knows they are not all of them.
#[derive(Clone, Debug, Default)]
pub struct Env {
    base: Arc<Base>,
    bindings: Vec<(Name, Val)>,
    search_cut: Arc<std::sync::atomic::AtomicBool>,
}

/// The frozen bindings. A large base (a solution of hundreds of unknowns being re-checked, a machine with
/// many constants) is indexed by name: looking a name up by scanning would cost a string comparison per
/// binding, on every variable occurrence the interpreter evaluates.
#[derive(Debug, Default)]
struct Base {
    items: Vec<(Name, Val)>,
    /// The position of each name's last binding, when there are at least `INDEXED_BASE` bindings.
    index: Option<rustc_hash::FxHashMap<Name, usize>>,
}

/// From how many frozen bindings on a name index pays for its construction.
const INDEXED_BASE: usize = 64;

impl Base {
    fn new(items: Vec<(Name, Val)>) -> Base {
        let index = (items.len() >= INDEXED_BASE).then(|| {
            items
                .iter()
                .enumerate()
                .map(|(i, (n, _))| (n.clone(), i))
                .collect()
        });
        Base { items, index }
    }

    fn get(&self, name: &str) -> Option<&Val> {
        match &self.index {
            Some(index) => index.get(name).map(|&i| &self.items[i].1),
            None => self
                .items
                .iter()
                .rev()
                .find(|(n, _)| crate::syntax::ast::same_name(n, name))
                .map(|(_, v)| v),
        }
    }
}

impl Env {
    pub fn new() -> Env {
        Env::default()
    }

    /// A copy of this environment with one more binding.
    pub fn with(&self, name: Name, value: Value) -> Env {
        let mut env = self.clone();
        env.bind(name, value);
        env
    }

    pub fn bind(&mut self, name: Name, value: Value) {
        self.bindings.push((name, Val::Value(value)));
    }

    /// Notes that a search under this environment (or a copy) listed only part of its solutions.
    pub(crate) fn note_search_cut(&self) {
        self.search_cut
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether a search under this environment or a copy listed only part of its solutions since the
    /// last call; the flag is cleared.
    pub(crate) fn take_search_cut(&self) -> bool {
        self.search_cut
            .swap(false, std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether reading `lookups` names from this environment pays for freezing it first (`freeze`
    /// indexes a large base; the fresh bindings are otherwise scanned for every name).
    pub(crate) fn worth_indexing(&self, lookups: usize) -> bool {
        lookups >= INDEXED_BASE && self.len() >= INDEXED_BASE
    }

    /// Room for `n` more bindings (a setup binds hundreds of constants at once).
    pub fn reserve(&mut self, n: usize) {
        self.bindings.reserve(n);
    }

    pub fn bind_val(&mut self, name: Name, value: Val) {
        self.bindings.push((name, value));
    }

    /// The same bindings, all in the shared base: clones of the result are cheap.
    pub fn freeze(mut self) -> Env {
        if !self.bindings.is_empty() {
            let mut items = match Arc::try_unwrap(self.base) {
                Ok(base) => base.items,
                Err(shared) => shared.items.clone(),
            };
            items.append(&mut self.bindings);
            self.base = Arc::new(Base::new(items));
        }
        self
    }

    pub fn get(&self, name: &str) -> Option<&Val> {
        match self
            .bindings
            .iter()
            .rev()
            .find(|(n, _)| crate::syntax::ast::same_name(n, name))
        {
            Some((_, v)) => Some(v),
            None => self.base.get(name),
        }
    }

    /// The binding as a value (`None` if unbound or bound to a symbolic set).
    pub fn get_value(&self, name: &str) -> Option<&Value> {
        match self.get(name)? {
            Val::Value(v) => Some(v),
            Val::Sym(_) => None,
        }
    }

    /// The latest binding of `name` at position `mark` or later, made there (a copy of the value
    /// it has now) when there is none: writing it leaves the bindings below `mark` as they were.
    pub(crate) fn binding_above(&mut self, mark: usize, name: &str) -> Option<&mut Val> {
        let base = self.base.items.len();
        let from = mark.saturating_sub(base);
        let found = self.bindings[from.min(self.bindings.len())..]
            .iter()
            .rposition(|(n, _)| crate::syntax::ast::same_name(n, name))
            .map(|i| from + i);
        let at = match found {
            Some(i) => i,
            None => {
                let (n, v) = self
                    .bindings
                    .iter()
                    .rev()
                    .find(|(n, _)| crate::syntax::ast::same_name(n, name))
                    .cloned()
                    .or_else(|| Some((Name::from(name), self.base.get(name)?.clone())))?;
                self.bindings.push((n, v));
                self.bindings.len() - 1
            }
        };
        Some(&mut self.bindings[at].1)
    }

    pub(crate) fn len(&self) -> usize {
        self.base.items.len() + self.bindings.len()
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        let base = self.base.items.len();
        if len >= base {
            self.bindings.truncate(len - base);
        } else {
            // Below the shared base (not done by the scoped push/truncate pairs): unshare it.
            let mut kept = self.base.items[..len].to_vec();
            kept.append(&mut self.bindings);
            kept.truncate(len);
            self.base = Arc::default();
            self.bindings = kept;
        }
    }
}

#[cfg(test)]
mod tests;
