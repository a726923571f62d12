//! Interval and cardinality analysis: abstract interpretation of a conjunction over the search variables,
//! iterated to a fixpoint (Plagge & Leuschel 2012, §3.4, as summarised in B_REFERENCE §5).
//!
//! For every variable it keeps three ranges (`VarInfo`):
//! * `int`: the values of an INTEGER variable;
//! * `card`: the cardinality of a set-typed variable (relations, functions and sequences included);
//! * `elem`: the integer elements of a set of INTEGER, or the first components (the domain) of a relation
//!   whose domain type is INTEGER (so for a sequence, the indices). For other types it stays unbounded.
//!
//! Each conjunct is read as a constraint that every solution satisfies, and narrows the ranges of the
//! variables it constrains: membership (`x : a..b`, `x : NAT`, `x : S` for a known finite S, `x : dom(f)`),
//! comparisons of integer expressions (interval arithmetic forward; backward through `+`, `-`, unary
//! minus, multiplication by a constant, `succ`/`pred`, `card`, `size`, `min`, `max`), set equality and
//! inclusion, `POW`/`FIN`, sequence sets and the function arrows. Two cross rules link the ranges of a set:
//! "interval → cardinality" (a set of integers in lo..hi, or a function whose domain is, has at most
//! hi-lo+1 elements) and, for sequences, "indices are 1..size". Expressions over known names are evaluated
//! by the interpreter in the given environment (an evaluation error gives no information).
//!
//! The analysis is relative to the context: `NAT`, `NAT1` and `INT` are `0..MAXINT`, `1..MAXINT` and
//! `MININT..MAXINT` as the interpreter defines them, and given sets have the sizes the context fixed. A
//! contradiction is therefore exactly as strong as an exhaustive "no solution" of the interpreter: not a
//! proof when a deferred set was sized by DEFAULT_SETSIZE only. (ProB accepts a value above MAXINT in
//! `NAT` when the constraints determine it; should the interpreter follow, `keyword_set` must too.)
//!
//! **Soundness first:** every rule only removes values no solution can take. A disjunction gives the hull
//! of what its branches give; negations other than of a comparison, implications, equivalences and
//! quantifiers give nothing. Rounds stop when nothing changes or
//! after `MAX_ROUNDS` (cyclic constraints such as `x < y & y < x` over unbounded integers would narrow
//! forever), so the result is sound but not always the tightest. An empty range proves the conjunction
//! unsatisfiable and is reported as `Analysis::contradiction`.

mod abstract_eval;
mod constraints;
mod narrow;
mod range;

pub use range::Range;

use crate::eval::{Context, Env};
use crate::ir::{
    BinaryOp, Expr, ExprConst, ExprKind, Pred, PredKind, TypedName, UnaryOp, free_names,
};
use crate::syntax::ast::Name;
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// The ranges known for one search variable (see the module comment for what each means).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarInfo {
    pub int: Range,
    pub card: Range,
    pub elem: Range,
}

impl VarInfo {
    /// The ranges holding the values of either.
    fn join(&self, other: &VarInfo) -> VarInfo {
        VarInfo {
            int: self.int.union(&other.int),
            card: self.card.union(&other.card),
            elem: self.elem.union(&other.elem),
        }
    }
}

/// The result of `analyse`: one `VarInfo` per variable, in the order given, and the index of a conjunct
/// found unsatisfiable together with the ones before it (then there is no solution and the ranges mean
/// nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub vars: Vec<VarInfo>,
    pub contradiction: Option<usize>,
}

/// The most passes over the conjuncts.
const MAX_ROUNDS: usize = 20;

/// Analyses `conjuncts` over the search variables `vars`; every other name is looked up in `env`.
pub fn analyse(ctx: &Context, vars: &[TypedName], conjuncts: &[&Pred], env: &Env) -> Analysis {
    let mut state = State::new(ctx, vars, env);
    // A conjunct over known names only narrows nothing, and evaluating it may cost as much as solving
    // (set comprehensions over big domains): the solver checks it anyway. Only trivial ones are read.
    let relevant: Vec<usize> = (0..conjuncts.len())
        .filter(|&i| {
            let c = conjuncts[i];
            trivially_decided(c)
                || free_names::of_pred(c)
                    .iter()
                    .any(|n| state.index.contains_key(&**n))
        })
        .collect();
    for _ in 0..MAX_ROUNDS {
        state.changed = false;
        for &i in &relevant {
            // Every range narrowed so far is sound: a spent budget (or a portfolio lane that decided
            // first) ends the analysis with what it has, and the search that follows stops at once.
            if ctx.check_deadline(conjuncts[i].span).is_err() {
                return state.finish(None);
            }
            if state.pred(conjuncts[i]).is_err() {
                return state.finish(Some(i));
            }
        }
        if !state.changed {
            break;
        }
    }
    state.finish(None)
}

/// `FALSE`, or a comparison of integer literals (`1 = 2`, `MAXINT < 5`).
fn trivially_decided(p: &Pred) -> bool {
    fn literal(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Const(ExprConst::MaxInt | ExprConst::MinInt) => true,
            ExprKind::Unary(UnaryOp::Neg, a) => literal(a),
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul, a, b) => {
                literal(a) && literal(b)
            }
            _ => false,
        }
    }
    match &p.kind {
        PredKind::False => true,
        PredKind::Not(q) => trivially_decided(q),
        PredKind::Compare(_, a, b) => literal(a) && literal(b),
        _ => false,
    }
}

/// A range became empty: no solution.
struct Empty;

type Narrowed = Result<(), Empty>;

/// The abstract value of a set expression.
#[derive(Clone, Debug)]
struct SetRange {
    card: Range,
    elem: Range,
}

impl SetRange {
    fn unknown() -> SetRange {
        SetRange {
            card: Range::at_least(0),
            elem: Range::full(),
        }
    }
    fn with_card(card: Range) -> SetRange {
        SetRange {
            card,
            elem: Range::full(),
        }
    }
}

/// The abstract state of one analysis: the ranges of every variable and the facts the cross rules use.
/// The rules per conjunct are in `constraints`, backward narrowing in `narrow`, forward evaluation of
/// expressions in `abstract_eval`.
struct State<'a> {
    ctx: &'a Context,
    env: &'a Env,
    /// The search variables, then the variables of the existentials being analysed (`existential`).
    vars: Vec<TypedName>,
    index: FxHashMap<Name, usize>,
    info: Vec<VarInfo>,
    /// Variables known to be functions (from an arrow or a sequence set): their card is their domain's.
    functional: Vec<bool>,
    /// Variables known to be sequences: their domain is `1..card`.
    sequence: Vec<bool>,
    changed: bool,
    /// Values of the expressions over known names, by node address (`None`: not evaluable).
    constants: RefCell<FxHashMap<usize, Option<Value>>>,
    /// The free names of the disjunctions, by node address (computed once per analysis).
    names: FxHashMap<usize, Vec<Name>>,
}

impl<'a> State<'a> {
    fn new(ctx: &'a Context, vars: &[TypedName], env: &'a Env) -> State<'a> {
        let info = vars.iter().map(|v| unconstrained(ctx, &v.ty)).collect();
        State {
            ctx,
            env,
            vars: vars.to_vec(),
            index: vars
                .iter()
                .enumerate()
                .map(|(i, v)| (v.name.clone(), i))
                .collect(),
            info,
            functional: vec![false; vars.len()],
            sequence: vec![false; vars.len()],
            changed: false,
            constants: RefCell::new(FxHashMap::default()),
            names: FxHashMap::default(),
        }
    }

    /// Adds the variables of an existential to the analysed ones (`existential` removes them).
    fn push_vars(&mut self, bound: &[TypedName]) {
        for v in bound {
            self.index.insert(v.name.clone(), self.vars.len());
            self.info.push(unconstrained(self.ctx, &v.ty));
            self.vars.push(v.clone());
            self.functional.push(false);
            self.sequence.push(false);
        }
    }

    /// Drops the variables from the `n`-th on.
    fn truncate_vars(&mut self, n: usize) {
        for v in self.vars.drain(n..) {
            self.index.remove(&v.name);
        }
        self.info.truncate(n);
        self.functional.truncate(n);
        self.sequence.truncate(n);
    }

    fn finish(self, contradiction: Option<usize>) -> Analysis {
        Analysis {
            vars: self.info,
            contradiction,
        }
    }

    /// The analysed variables `p` names, in the scope of this visit (an existential's own variables
    /// included while it is analysed).
    fn named_vars(&mut self, p: &Pred) -> Vec<usize> {
        let names = self
            .names
            .entry(p as *const Pred as usize)
            .or_insert_with(|| free_names::of_pred(p).into_iter().collect());
        names
            .iter()
            .filter_map(|n| self.index.get(&**n).copied())
            .collect()
    }

    fn var(&self, e: &Expr) -> Option<usize> {
        match &e.kind {
            ExprKind::Var(n) => self.index.get(&**n).copied(),
            _ => None,
        }
    }
}

/// What is known of a variable of type `ty` before any conjunct is read.
fn unconstrained(ctx: &Context, ty: &Type) -> VarInfo {
    VarInfo {
        int: Range::full(),
        card: match ty {
            Type::Set(t) => match type_size(ctx, t) {
                Some(n) => Range::new(0, n),
                None => Range::at_least(0),
            },
            _ => Range::full(),
        },
        elem: Range::full(),
    }
}

/// Whether `elem` ranges are kept for values of this type: sets of integers, and relations from integers.
fn tracks_elements(ty: &Type) -> bool {
    match ty {
        Type::Set(t) => match &**t {
            Type::Integer => true,
            Type::Pair(a, _) => **a == Type::Integer,
            _ => false,
        },
        _ => false,
    }
}

/// The number of values of a type, when finite and cheap to know.
fn type_size(ctx: &Context, ty: &Type) -> Option<BigInt> {
    match ty {
        Type::Bool => Some(BigInt::from(2)),
        Type::Given(name) => ctx
            .given_set(name, crate::diag::Span::default())
            .ok()
            .map(|elems| BigInt::from(elems.len())),
        Type::Pair(a, b) => Some(type_size(ctx, a)? * type_size(ctx, b)?),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
