//! The transition system of a machine for the model checker: constant setups, initial states, successors.

use super::enumerate::{expr_names, mentions};
use super::{Context, Enumeration, Env, EvalError, Val, internal_error};
use crate::diag::Span;
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, Subst, SubstKind, TypedName};
use crate::syntax::ast::Name;
use crate::value::{Element, Value};
use rustc_hash::FxHashSet;
use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// A state: the values of the machine's variables, in `machine.variables` order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub values: Vec<Value>,
}

/// Below this many transitions of one operation, duplicates are found by a linear scan.
const SCAN_UP_TO: usize = 16;

/// One enabled operation instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transition {
    /// Index into `machine.operations`.
    pub operation: usize,
    /// Parameter values, in `operation.params` order.
    pub params: Vec<Value>,
    /// Output values, in `operation.outputs` order.
    pub outputs: Vec<Value>,
    /// With the preference SHOW_EVENTB_ANY_VALUES: the values of the operation's top-level ANY (and
    /// LET) identifiers, which ProB then shows and counts as the event's parameters; empty otherwise.
    pub any_values: Vec<Value>,
    pub target: State,
}

/// The transitions leaving a state (`Context::successors_tolerant`).
#[derive(Debug)]
pub struct Successors {
    pub transitions: Vec<Transition>,
    /// Every enabling was found: no parameter domain was enumerated partly, no limit dropped one.
    pub complete: bool,
    /// Operation instances (operation index, error) whose guard or body is ill-defined.
    pub ill_defined: Vec<(usize, crate::diag::Diagnostic)>,
}

/// The transitions one operation contributes to a state's `Successors`.
pub(crate) struct OperationSuccessors {
    pub transitions: Vec<Transition>,
    /// Every enabling of this operation was found (`Successors::complete`).
    pub complete: bool,
    /// Instances of this operation whose guard or body is ill-defined.
    pub ill_defined: Vec<crate::diag::Diagnostic>,
}

/// What an operation's enablings are searched over: its parameters (and guard LET identifiers), the
/// guard that bounds them, and its `MAX_OPERATIONS_<op>` limit.
pub(crate) struct OperationPlan {
    searched: Vec<TypedName>,
    guard: Pred,
    limit: Option<usize>,
    /// The substitution executed once `searched` is bound: the operation's body, or under
    /// SHOW_EVENTB_ANY_VALUES the body of its top-level ANY, whose identifiers are then searched (and
    /// reported) with the parameters.
    body: Option<Subst>,
    /// For an operation with one searched identifier `x`, the position among the guard's conjuncts of
    /// one `x : S` whose `S` does not mention `x` (see `Context::listed_choices`).
    domain: Option<usize>,
    /// For an operation with several searched identifiers, each given its values by a conjunct `x : S`
    /// whose `S` mentions no searched identifier or defined by an equation `x = E`: the positions of
    /// those `x : S` (see `Context::listed_product`).
    listing: Option<Vec<usize>>,
    /// How the interpreter's enumeration, tried before the solver for parameters the plan cannot list,
    /// has fared (see `Context::enumerate_then_solve`).
    enumeration: EnumerationTally,
}

/// The initial states of one constant setup (`initial_states_listed`).
#[derive(Debug)]
pub struct InitialStates {
    pub states: Vec<State>,
    /// A search in the INITIALISATION (ANY, `x : (P)`, `x :: S`) listed only part of its solutions
    /// (within MININT..MAXINT, sample strings): states may be missing.
    pub search_cut: bool,
    /// There are more initial states than the limit asked (MAX_INITIALISATIONS): they were left out.
    pub beyond_limit: bool,
}

/// How often an operation's enumeration answered, and how often it was cut short, incomplete or slow
/// (shared by the model checker's workers).
#[derive(Default)]
struct EnumerationTally {
    hits: AtomicU32,
    misses: AtomicU32,
}

impl EnumerationTally {
    /// Whether the enumeration is still worth trying first: until `ENUMERATION_TRIES` misses, or while it
    /// answers at least `ENUMERATION_HIT_RATIO` times as often as it misses (a slow first state, its
    /// caches cold, must not send every later one to the solver).
    fn pays(&self) -> bool {
        let misses = self.misses.load(Ordering::Relaxed);
        let hits = self.hits.load(Ordering::Relaxed);
        misses < ENUMERATION_TRIES || hits >= ENUMERATION_HIT_RATIO.saturating_mul(misses)
    }

    fn record(&self, hit: bool) {
        let counter = if hit { &self.hits } else { &self.misses };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// After this many misses an operation's parameters go to the solver directly, unless the enumeration
/// answered `ENUMERATION_HIT_RATIO` times as often.
const ENUMERATION_TRIES: u32 = 3;
const ENUMERATION_HIT_RATIO: u32 = 8;
/// The time the enumeration gets per state before the solver takes over, and beyond which a complete
/// enumeration still counts as a miss (the solver may well be faster there).
const ENUMERATION_SHARE: std::time::Duration = std::time::Duration::from_millis(20);
const ENUMERATION_SLOW: std::time::Duration = std::time::Duration::from_millis(5);

/// The first conjunct `x : S` listing `x`'s values, S free of every searched identifier.
fn membership_conjunct(
    conjuncts: &[&Pred],
    x: &TypedName,
    searched: &[TypedName],
) -> Option<usize> {
    conjuncts.iter().position(|c| {
        matches!(&c.kind, PredKind::Compare(CompareOp::In, lhs, set)
            if is_var(lhs, x) && !searched.iter().any(|v| mentions(set, &v.name)))
    })
}

fn is_var(e: &Expr, x: &TypedName) -> bool {
    matches!(&e.kind, ExprKind::Var(n) if *n == x.name)
}

/// For several searched identifiers, the conjuncts listing the values of those with a
/// `membership_conjunct`, when every other one is defined by an equation `x = E` (E free of x); None
/// otherwise, and for a single identifier (`domain_conjunct` covers that case).
fn listing_conjuncts(searched: &[TypedName], guard: &Pred) -> Option<Vec<usize>> {
    if searched.len() < 2 {
        return None;
    }
    let conjuncts = guard.conjuncts();
    let defined = |x: &TypedName| {
        conjuncts.iter().any(|c| {
            matches!(&c.kind, PredKind::Compare(CompareOp::Eq, l, r)
                if (is_var(l, x) && !mentions(r, &x.name)) || (is_var(r, x) && !mentions(l, &x.name)))
        })
    };
    let mut listing = Vec::new();
    for x in searched {
        match membership_conjunct(&conjuncts, x, searched) {
            Some(c) => listing.push(c),
            None if defined(x) => {}
            None => return None,
        }
    }
    Some(listing)
}

/// The conjunct `x : S` of `guard` giving the single searched identifier its candidates, if any.
fn domain_conjunct(searched: &[TypedName], guard: &Pred) -> Option<usize> {
    let [x] = searched else {
        return None;
    };
    membership_conjunct(&guard.conjuncts(), x, searched)
}

/// The predicate that types an operation's parameters: its top-level PRE, or its single SELECT/WHEN guard,
/// possibly under LETs, whose identifiers are then searched together with the parameters (returned first),
/// so that a guard such as `LET y BE y = v+1 IN SELECT p : {y, y+1} THEN .. END END` bounds `p`.
fn parameter_guard(kind: &SubstKind) -> Option<(Vec<TypedName>, Pred)> {
    match kind {
        SubstKind::Pre(p, _) => Some((Vec::new(), p.clone())),
        SubstKind::Select(branches, None) if branches.len() == 1 => {
            Some((Vec::new(), branches[0].0.clone()))
        }
        SubstKind::Let(bindings, body) => {
            let (inner_vars, inner) = parameter_guard(&body.kind)?;
            let mut vars: Vec<TypedName> = bindings.iter().map(|(n, _)| n.clone()).collect();
            let mut parts: Vec<Pred> = bindings
                .iter()
                .map(|(n, e)| {
                    let var = Expr::new(ExprKind::Var(n.name.clone()), n.ty.clone(), n.span);
                    Pred::new(
                        PredKind::Compare(CompareOp::Eq, Box::new(var), Box::new(e.clone())),
                        e.span,
                    )
                })
                .collect();
            vars.extend(inner_vars);
            let span = inner.span;
            parts.push(inner);
            Some((vars, Pred::new(PredKind::And(parts), span)))
        }
        _ => None,
    }
}

/// A constant fixed by a conjunct `name = E` of CONSTRAINTS & PROPERTIES whose value is a set that is
/// infinite or too large to enumerate (`abs = %x.(x:NATURAL|x) \/ %x.(x<0|-x)`, `WORDS = seq1(CHARS)`),
/// or a closure defined recursively (`deltas = %(ZZ,s).(.. deltas(..) ..)`). As ProB does, it is never
/// enumerated: it is bound to its symbolic value in every environment built from a setup, and memberships
/// and applications are evaluated on demand. E mentions only sets and constants themselves fixed by such
/// equalities, so the value is the same in every setup.
#[derive(Clone, Debug)]
pub(crate) struct SymbolicConstant {
    pub name: Name,
    /// Position among the parameters and constants (the order of a setup's values).
    pub index: usize,
    pub value: Val,
    /// The defining expression's source text, for printing.
    pub definition: Arc<str>,
    /// Index of the defining conjunct among the conjuncts of CONSTRAINTS & PROPERTIES.
    conjunct: usize,
    /// That conjunct, `name = E`: it holds by construction wherever the constant is bound.
    pub defined_by: Pred,
}

impl SymbolicConstant {
    /// The value a setup holds in place of the constant (`bind_constants` binds the symbolic value).
    pub(crate) fn placeholder(&self) -> Value {
        placeholder(self)
    }
}

/// The `Element::set` of the placeholder a setup holds for a symbolic constant.
const SYMBOLIC_PLACEHOLDER: &str = "<symbolic>";

/// The value a setup holds in place of a symbolic constant: never read as a value (`bind_constants`
/// binds the symbolic value instead); it compares equal across setups (the constant is deterministic)
/// and prints as the defining expression.
fn placeholder(constant: &SymbolicConstant) -> Value {
    Value::Elem(Arc::new(Element {
        set: SYMBOLIC_PLACEHOLDER.into(),
        index: constant.index as u32,
        name: constant.definition.clone(),
    }))
}

/// The source text of an expression, on one line (`<symbolic>` for generated code).
fn source_text(e: &Expr) -> Arc<str> {
    let text = crate::diag::source(e.span.file).and_then(|file| {
        file.text
            .get(e.span.start as usize..e.span.end as usize)
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
    });
    match text {
        Some(t) if !t.is_empty() => t.into(),
        _ => SYMBOLIC_PLACEHOLDER.into(),
    }
}

impl Context {
    /// CONSTRAINTS & PROPERTIES, the predicate constant setups satisfy.
    fn setup_predicate(&self) -> Pred {
        let m = self.machine();
        Pred::new(
            PredKind::And(vec![m.constraints.clone(), m.properties.clone()]),
            m.properties.span,
        )
    }

    /// The constants kept symbolic, computed on first use. A timeout while computing them is an error
    /// and nothing is remembered, so that a later call with more time computes them again.
    pub(crate) fn symbolic_constants(&self) -> Result<&[SymbolicConstant], EvalError> {
        if let Some(found) = self.symbolic_constants.get() {
            return Ok(found);
        }
        let found = self.find_symbolic_constants()?;
        Ok(self.symbolic_constants.get_or_init(|| found))
    }

    /// Evaluates the defining equalities `c = E` of the parameters and constants in dependency order
    /// (E mentioning only sets, constants evaluated before, and possibly c itself) and keeps those whose
    /// value cannot be enumerated.
    fn find_symbolic_constants(&self) -> Result<Vec<SymbolicConstant>, EvalError> {
        let m = self.machine();
        let names: Vec<&Name> = m
            .params
            .iter()
            .chain(&m.constants)
            .map(|t| &t.name)
            .collect();
        // The conjuncts of `setup_predicate`, read in place (building it copies the whole PROPERTIES).
        let conjuncts: Vec<&Pred> = m
            .constraints
            .conjuncts()
            .into_iter()
            .chain(m.properties.conjuncts())
            .collect();
        // (conjunct, constant, E): the first defining equality of each constant.
        let mut definitions: Vec<(usize, usize, &Expr)> = Vec::new();
        for (c, conj) in conjuncts.iter().enumerate() {
            let PredKind::Compare(CompareOp::Eq, l, r) = &conj.kind else {
                continue;
            };
            for (side, other) in [(l, r), (r, l)] {
                let ExprKind::Var(n) = &side.kind else {
                    continue;
                };
                if let Some(i) = names.iter().position(|x| *x == n)
                    && definitions.iter().all(|d| d.1 != i)
                {
                    definitions.push((c, i, other));
                    break;
                }
            }
        }
        let mut env = Env::new();
        let mut known = vec![false; names.len()];
        let mut done = vec![false; definitions.len()];
        let mut out = Vec::new();
        loop {
            let mut progress = false;
            for (k, &(conjunct, i, e)) in definitions.iter().enumerate() {
                if done[k] {
                    continue;
                }
                let mut mentioned = FxHashSet::default();
                expr_names(e, &mut mentioned);
                let waiting = (0..names.len())
                    .any(|j| j != i && !known[j] && mentioned.contains(&**names[j]));
                if waiting {
                    continue;
                }
                done[k] = true;
                progress = true;
                let value = match self.eval(e, &mut env.clone()) {
                    Ok(v) => v,
                    Err(err) if err.is_timeout() => return Err(err),
                    // Not evaluable on its own: the search decides (and reports) it.
                    Err(_) => continue,
                };
                let recursive = mentioned.contains(&**names[i]);
                if self.keep_symbolic(&value, recursive, e.span)? {
                    out.push(SymbolicConstant {
                        name: names[i].clone(),
                        index: i,
                        value: value.clone(),
                        definition: source_text(e),
                        conjunct,
                        defined_by: (*conjuncts[conjunct]).clone(),
                    });
                } else if recursive {
                    continue;
                }
                env.bind_val(names[i].clone(), value);
                known[i] = true;
            }
            if !progress {
                return Ok(out);
            }
        }
    }

    /// Whether a constant's value is kept symbolic: a recursive closure, or a set that is infinite or
    /// too large to enumerate.
    fn keep_symbolic(&self, value: &Val, recursive: bool, span: Span) -> Result<bool, EvalError> {
        if !matches!(value, Val::Sym(_)) {
            return Ok(false);
        }
        if recursive || self.is_infinite(value) {
            return Ok(true);
        }
        match self.materialize(value, span) {
            Ok(_) => Ok(false),
            Err(e) if e.is_timeout() => Err(e),
            Err(EvalError::Limit(_)) => Ok(true),
            // Ill-defined for some candidate element (GCD's `d : 1..max(s)` with `s = {}`): it cannot
            // be listed either, and ProB keeps such a closure symbolic; a use that reaches the
            // ill-defined part reports it then.
            Err(EvalError::WellDefinedness(_)) => Ok(true),
            Err(_) => Ok(false),
        }
    }

    /// Constant setups: solutions of CONSTRAINTS & PROPERTIES for the machine parameters followed by the
    /// constants, at most `limit`; `symmetry` says how setups that differ by a permutation of the
    /// deferred sets' elements are treated. A symbolic constant is not searched: its defining conjunct
    /// holds by construction, and its value in a setup is a placeholder (`bind_constants` binds the
    /// symbolic value).
    pub fn setup_constants(
        &self,
        limit: usize,
        symmetry: super::Symmetry,
    ) -> Result<Enumeration, EvalError> {
        let m = self.machine();
        let symbolic = self.symbolic_constants()?;
        let all: Vec<&TypedName> = m.params.iter().chain(&m.constants).collect();
        let vars: Vec<TypedName> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| symbolic.iter().all(|s| s.index != *i))
            .map(|(_, t)| (*t).clone())
            .collect();
        // Without CONSTRAINTS the PROPERTIES are the setup predicate (the same conjuncts): searched in
        // place rather than copied.
        let mut pred: Cow<Pred> = if matches!(m.constraints.kind, PredKind::True) {
            Cow::Borrowed(&m.properties)
        } else {
            Cow::Owned(self.setup_predicate())
        };
        let mut env = Env::new();
        if !symbolic.is_empty() {
            let kept = pred
                .conjuncts()
                .into_iter()
                .enumerate()
                .filter(|(c, _)| symbolic.iter().all(|s| s.conjunct != *c))
                .map(|(_, p)| p.clone())
                .collect();
            pred = Cow::Owned(Pred::new(PredKind::And(kept), pred.span));
            for s in symbolic {
                env.bind_val(s.name.clone(), s.value.clone());
            }
        }
        let mut solutions = Vec::new();
        let mut cut = false;
        // The search stops at the `limit`-th setup rather than look for one more: whether more exist
        // is not worth a second search (proving a puzzle's solution unique can cost the whole search).
        if limit == 0 {
            return Ok(Enumeration {
                solutions,
                complete: false,
                symmetry_reduced: false,
            });
        }
        // Each solution is one setup at least (a representative stands for its whole orbit).
        let search =
            self.solve_setups_for(&vars, &pred, &mut env, symmetry, limit, &mut |ctx, env| {
                let mut found = ctx.bound_values(&vars, env, pred.span)?.into_iter();
                let values = (0..all.len())
                    .map(|i| match symbolic.iter().find(|s| s.index == i) {
                        Some(s) => Some(placeholder(s)),
                        None => found.next(),
                    })
                    .collect::<Option<Vec<Value>>>()
                    .ok_or_else(|| internal_error(pred.span, "a constant setup lacks a value"))?;
                solutions.push(values);
                cut = solutions.len() >= limit;
                Ok(!cut)
            })?;
        Ok(Enumeration {
            solutions,
            complete: search.complete && !cut,
            symmetry_reduced: search.symmetry_reduced,
        })
    }

    /// Binds the parameters and constants to a setup's values (as returned by `setup_constants`:
    /// parameters first, then constants), a symbolic constant to its symbolic value. Extra or missing
    /// values are ignored: `constants_env` checks the length.
    pub fn bind_constants(&self, env: &mut Env, constants: &[Value]) {
        let m = self.machine();
        let symbolic = self.symbolic_constants.get().map_or(&[][..], Vec::as_slice);
        for (i, (n, v)) in m
            .params
            .iter()
            .chain(&m.constants)
            .zip(constants)
            .enumerate()
        {
            let held = match v {
                Value::Elem(e) if &*e.set == SYMBOLIC_PLACEHOLDER => {
                    symbolic.iter().find(|s| s.index == i)
                }
                _ => None,
            };
            match held {
                Some(s) => env.bind_val(n.name.clone(), s.value.clone()),
                None => env.bind(n.name.clone(), v.clone()),
            }
        }
    }

    /// The environment binding the parameters and constants to `constants` (see `bind_constants`).
    pub fn constants_env(&self, constants: &[Value]) -> Result<Env, EvalError> {
        let m = self.machine();
        let expected = m.params.len() + m.constants.len();
        if expected != constants.len() {
            return Err(internal_error(
                m.span,
                format!(
                    "expected {expected} parameter and constant values, got {}",
                    constants.len()
                ),
            ));
        }
        let mut env = Env::new();
        self.bind_constants(&mut env, constants);
        Ok(env)
    }

    /// Initial states from the INITIALISATION given the constant setup, at most `limit`.
    pub fn initial_states(
        &self,
        constants: &[Value],
        limit: usize,
    ) -> Result<Vec<State>, EvalError> {
        Ok(self.initial_states_listed(constants, limit)?.states)
    }

    /// Initial states from the INITIALISATION given the constant setup, at most `limit`, and whether
    /// they are all of them.
    pub fn initial_states_listed(
        &self,
        constants: &[Value],
        limit: usize,
    ) -> Result<InitialStates, EvalError> {
        let m = self.machine();
        let env = self.constants_env(constants)?;
        // An INITIALISATION that must read a variable before giving it a value has no outcome: the
        // variable has none to read (ProB records B/Mathematical/TLA/TLA_Rodin_PO.mch, whose ANY reads
        // the NODES its parallel branch initialises, as having no initial state).
        if crate::analysis::before_after::initialisation_reads_unassigned(m) {
            return Ok(InitialStates {
                states: Vec::new(),
                search_cut: false,
                beyond_limit: false,
            });
        }
        let outcomes = self.execute(&m.initialisation, &env)?;
        let search_cut = env.take_search_cut();
        let mut states = Vec::new();
        let mut seen = FxHashSet::default();
        let mut beyond_limit = false;
        for updates in outcomes {
            self.check_deadline(m.initialisation.span)?;
            let mut values = Vec::with_capacity(m.variables.len());
            for v in &m.variables {
                // A variable left without a value holds the placeholder: what reads it is
                // ill-defined, the rest is explored (`unassigned`).
                match updates.iter().find(|(n, _)| *n == v.name) {
                    Some((_, val)) => values.push(val.clone()),
                    None => values.push(super::unassigned::placeholder()),
                }
            }
            let state = State { values };
            if !seen.contains(&state) {
                // One more distinct state than the limit tells a cut list from one of exactly
                // `limit` states.
                if states.len() >= limit {
                    beyond_limit = true;
                    break;
                }
                seen.insert(state.clone());
                states.push(state);
            }
        }
        Ok(InitialStates {
            states,
            search_cut,
            beyond_limit,
        })
    }

    /// The environment of a state: constants, then the variables.
    pub fn state_env(&self, constants: &[Value], state: &State) -> Result<Env, EvalError> {
        let mut env = self.constants_env(constants)?;
        self.bind_variables(&mut env, &state.values);
        Ok(env.freeze())
    }

    /// Enabled operations from `state`, with parameters enumerated; at most `max_per_op` transitions per
    /// operation (and at most its `MAX_OPERATIONS_<op>` setting).
    pub fn successors(
        &self,
        constants: &[Value],
        state: &State,
        max_per_op: usize,
    ) -> Result<Vec<Transition>, EvalError> {
        Ok(self
            .successors_with_completeness(constants, state, max_per_op)?
            .0)
    }

    /// `successors`, and whether they are all of them: false when some operation's parameters were
    /// enumerated only within MININT..MAXINT, or a per-operation limit dropped transitions. The first
    /// ill-defined operation instance is an error.
    pub fn successors_with_completeness(
        &self,
        constants: &[Value],
        state: &State,
        max_per_op: usize,
    ) -> Result<(Vec<Transition>, bool), EvalError> {
        let found = self.successors_tolerant(constants, state, max_per_op)?;
        match found.ill_defined.into_iter().next() {
            Some((_, d)) => Err(EvalError::WellDefinedness(d)),
            None => Ok((found.transitions, found.complete)),
        }
    }

    /// The successors of `state` as ProB's model checker sees them: an operation instance whose guard or
    /// body is ill-defined (`f(x)` outside `dom(f)`, a division by zero) yields no transition and is
    /// reported in `ill_defined`; the other instances and operations are still explored. When an
    /// operation's guard is ill-defined its remaining parameter values are not searched, so the
    /// successors are then incomplete.
    pub fn successors_tolerant(
        &self,
        constants: &[Value],
        state: &State,
        max_per_op: usize,
    ) -> Result<Successors, EvalError> {
        let mut env = self.state_env(constants, state)?;
        let mut out = Successors {
            transitions: Vec::new(),
            complete: true,
            ill_defined: Vec::new(),
        };
        for k in 0..self.machine().operations.len() {
            let found = self.operation_successors(k, &mut env, state, max_per_op)?;
            out.complete &= found.complete;
            out.transitions.extend(found.transitions);
            out.ill_defined
                .extend(found.ill_defined.into_iter().map(|d| (k, d)));
        }
        Ok(out)
    }

    /// The transitions of operation `k` from `state`, whose environment `env` is (`state_env`): one
    /// operation's part of `successors_tolerant`.
    pub(crate) fn operation_successors(
        &self,
        k: usize,
        env: &mut Env,
        state: &State,
        max_per_op: usize,
    ) -> Result<OperationSuccessors, EvalError> {
        let m = self.machine();
        let mut out = OperationSuccessors {
            transitions: Vec::new(),
            complete: true,
            ill_defined: Vec::new(),
        };
        let show_any_values = self.settings().show_any_values();
        let plan = &self.operation_plans()[k];
        let op = &m.operations[k];
        let locals = &plan.searched[op.params.len()..];
        let cap = plan.limit.map_or(max_per_op, |l| l.min(max_per_op));
        let mut found: Vec<Transition> = Vec::new();
        let mut distinct: FxHashSet<Transition> = FxHashSet::default();
        let mut cut = false;
        // The state's environment is shared by the operations: a cut an earlier one made is its own.
        env.take_search_cut();
        let mut on_choice = |ctx: &Context, env: &mut Env| {
            let params = ctx.bound_values(&op.params, env, op.span)?;
            let body = plan.body.as_ref().unwrap_or(&op.body);
            let executions = match ctx.execute_operation(&op.outputs, body, env) {
                Ok(executions) => executions,
                Err(EvalError::WellDefinedness(d)) => {
                    out.ill_defined.push(d);
                    return Ok(true);
                }
                Err(e) => return Err(e),
            };
            let any_values = if show_any_values {
                ctx.bound_values(locals, env, op.span)?
            } else {
                Vec::new()
            };
            for updates in executions {
                let mut t = ctx.transition(k, params.clone(), state, &updates, op.span)?;
                t.any_values.clone_from(&any_values);
                // A linear scan while the transitions are few (most operations have one or
                // two); a hash set beyond, so that many parameter values are not quadratic.
                let is_new = if found.len() < SCAN_UP_TO {
                    !found.contains(&t)
                } else {
                    if distinct.is_empty() {
                        distinct.extend(found.iter().cloned());
                    }
                    !distinct.contains(&t)
                };
                if is_new {
                    if found.len() >= cap {
                        cut = true;
                        return Ok(false);
                    }
                    if !distinct.is_empty() {
                        distinct.insert(t.clone());
                    }
                    found.push(t);
                }
            }
            Ok(true)
        };
        // Most operations have no parameters: their guard is decided by the interpreter directly, as
        // the enumeration the solver would route it to does, without building a problem per state.
        let searched = if plan.searched.is_empty() {
            self.guard_holds(&plan.guard, env).and_then(|holds| {
                if holds {
                    on_choice(self, env)?;
                }
                Ok(true)
            })
        } else if let Some(choices) = self.listed_choices(plan, env) {
            let name = &plan.searched[0].name;
            let mark = env.len();
            let mut searched = Ok(true);
            for x in choices {
                env.bind(name.clone(), x);
                let go_on = on_choice(self, env);
                env.truncate(mark);
                match go_on {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => {
                        searched = Err(e);
                        break;
                    }
                }
            }
            searched
        } else if self.listed_product(plan, env) {
            // Generate and test: each candidate combination costs a few evaluations, where the
            // solver would build and propagate a problem per state. A construct the enumeration
            // cannot evaluate goes to the solver (transitions found twice are merged above).
            match self.search(&plan.searched, &plan.guard, env, &mut on_choice) {
                Err(e) if !matches!(e, EvalError::WellDefinedness(_)) => {
                    self.solve_for(&plan.searched, &plan.guard, env, &mut on_choice)
                }
                searched => searched,
            }
        } else if plan.enumeration.pays() {
            self.enumerate_then_solve(plan, env, &mut on_choice)
        } else {
            self.solve_for(&plan.searched, &plan.guard, env, &mut on_choice)
        };
        let complete = match searched {
            Ok(complete) => complete,
            // An operation without parameters has one instance: an ill-defined guard leaves no
            // other unexamined (LargeErrorMessage: the state deadlocks, as ProB records). With
            // parameters, the search stopped at the ill-defined instance and missed the others.
            Err(EvalError::WellDefinedness(d)) => {
                out.ill_defined.push(d);
                plan.searched.is_empty()
            }
            Err(e) => return Err(e),
        };
        // A search inside the body (ANY, `x : (P)`, `x :: S`) that listed part of its solutions leaves
        // the operation's outcomes incomplete as well.
        out.complete = complete && !cut && !env.take_search_cut();
        out.transitions = found;
        Ok(out)
    }

    /// A guard without parameters, its conjuncts evaluated in order (the first false one decides).
    fn guard_holds(&self, guard: &Pred, env: &mut Env) -> Result<bool, EvalError> {
        for c in guard.conjuncts() {
            if !self.eval_pred_in(c, env)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The values of an operation's single searched identifier satisfying its guard, ascending (the
    /// order the solvers report them in), when the guard lists its candidates as a finite set `x : S` of
    /// at most `LISTED` values: each candidate is checked by evaluating the guard, which costs less than
    /// building a solver problem in every state. `None` when the guard does not list them, or when
    /// evaluating it fails for some candidate (ill-defined, unsupported): the solver then decides and
    /// reports as usual.
    fn listed_choices(&self, plan: &OperationPlan, env: &mut Env) -> Option<Vec<Value>> {
        const LISTED: usize = 4096;
        let conjuncts = plan.guard.conjuncts();
        let PredKind::Compare(CompareOp::In, _, set) = &conjuncts[plan.domain?].kind else {
            return None;
        };
        let Ok(Val::Value(Value::Set(items))) = self.eval(set, env) else {
            return None;
        };
        if items.len() > LISTED {
            return None;
        }
        let name = &plan.searched[0].name;
        let mark = env.len();
        let mut choices = Vec::new();
        for x in items.iter() {
            env.bind(name.clone(), x.clone());
            let mut holds = true;
            for c in &conjuncts {
                match self.eval_pred_in(c, env) {
                    Ok(true) => {}
                    Ok(false) => {
                        holds = false;
                        break;
                    }
                    Err(_) => {
                        env.truncate(mark);
                        return None;
                    }
                }
            }
            env.truncate(mark);
            if holds {
                choices.push(x.clone());
            }
        }
        Some(choices)
    }

    /// An operation's enablings by the interpreter's enumeration first, which takes each identifier's
    /// domain from whichever conjunct bounds it once the others are bound — LLParsingStagedEfficient's
    /// `s : seq(Symbols) & s : ran(Rules) & i : NATURAL1 & i < size(s) & s(i) = N & j > i & j <= size(s)`
    /// has a dozen candidates, where the solver built a propagation problem per state (30 s for 31,048
    /// states). The enumeration gets a short deadline; cut short, incomplete, ill-defined somewhere or
    /// slow, it counts as a miss and the solver answers this state (transitions found by both are merged
    /// by `on_choice`). An operation where it keeps missing goes to the solver directly
    /// (`EnumerationTally::pays`).
    fn enumerate_then_solve(
        &self,
        plan: &OperationPlan,
        env: &mut Env,
        on_choice: &mut super::choose::OnChoice<'_>,
    ) -> Result<bool, EvalError> {
        let start = std::time::Instant::now();
        let mark = env.len();
        let tried = self.with_stage_deadline(Some(start + ENUMERATION_SHARE), || {
            self.search(&plan.searched, &plan.guard, env, on_choice)
        });
        // A search cut short by an error leaves its bindings behind.
        env.truncate(mark);
        let answered = matches!(tried, Ok(true));
        plan.enumeration
            .record(answered && start.elapsed() <= ENUMERATION_SLOW);
        match tried {
            Ok(true) => Ok(true),
            // The model checker's own deadline passed, not just the enumeration's share.
            Err(e) if e.is_timeout() => {
                self.check_deadline(plan.guard.span)?;
                self.solve_for(&plan.searched, &plan.guard, env, on_choice)
            }
            _ => self.solve_for(&plan.searched, &plan.guard, env, on_choice),
        }
    }

    /// Whether an operation's searched identifiers all have small listed domains in this state (see
    /// `OperationPlan::listing`): explicit sets or integer intervals of at most `LISTED` values each and
    /// `COMBINATIONS` together. The interpreter's generate-and-test enumeration, checking each conjunct
    /// as soon as its identifiers are bound, then beats building a solver problem per state
    /// (B/Mathematical/Resolution.mch: `a : cl & b : cl & lit : PosLiterals & lit : a & ...`, 11,851
    /// states in 5 s instead of 657 in 30 s). Domains given by a function space or other symbolic set
    /// stay with the solver, whose propagation prunes them.
    fn listed_product(&self, plan: &OperationPlan, env: &mut Env) -> bool {
        const LISTED: usize = 4096;
        const COMBINATIONS: usize = 1_000_000;
        let Some(listing) = &plan.listing else {
            return false;
        };
        let conjuncts = plan.guard.conjuncts();
        let mut product = 1usize;
        for &c in listing {
            let PredKind::Compare(CompareOp::In, _, set) = &conjuncts[c].kind else {
                return false;
            };
            let size = match self.eval(set, env) {
                Ok(Val::Value(Value::Set(items))) => items.len(),
                // Only an interval is counted without listing it: a function space or another
                // symbolic set stays with the solver.
                Ok(Val::Sym(sym))
                    if matches!(&*sym, super::SymbolicSet::Interval(Some(_), Some(_))) =>
                {
                    match self.card(&Val::Sym(sym), set.span).map(|n| n.to_usize()) {
                        Ok(Some(n)) => n,
                        _ => return false,
                    }
                }
                _ => return false,
            };
            if size > LISTED {
                return false;
            }
            product = product.saturating_mul(size.max(1));
        }
        product <= COMBINATIONS
    }

    /// The operations' search plans, computed on first use: the successor function asks for them in
    /// every state, and deriving a guard clones its predicate.
    fn operation_plans(&self) -> &[OperationPlan] {
        self.operation_plans.get_or_init(|| {
            self.machine()
                .operations
                .iter()
                .map(|op| {
                    if let SubstKind::Any(vars, pred, inner) = &op.body.kind
                        && self.settings().show_any_values()
                        && vars
                            .iter()
                            .all(|v| op.params.iter().all(|p| p.name != v.name))
                    {
                        let searched: Vec<TypedName> =
                            op.params.iter().chain(vars).cloned().collect();
                        return OperationPlan {
                            domain: domain_conjunct(&searched, pred),
                            listing: listing_conjuncts(&searched, pred),
                            searched,
                            guard: pred.clone(),
                            limit: self.operation_limit(&op.name),
                            body: Some((**inner).clone()),
                            enumeration: Default::default(),
                        };
                    }
                    let (locals, guard) = parameter_guard(&op.body.kind)
                        .filter(|(locals, _)| {
                            // A LET identifier hiding a parameter would make the search bind it twice.
                            locals
                                .iter()
                                .all(|l| op.params.iter().all(|p| p.name != l.name))
                        })
                        .unwrap_or_else(|| (Vec::new(), Pred::truth(op.span)));
                    let searched: Vec<TypedName> =
                        op.params.iter().chain(&locals).cloned().collect();
                    OperationPlan {
                        domain: domain_conjunct(&searched, &guard),
                        listing: listing_conjuncts(&searched, &guard),
                        searched,
                        guard,
                        limit: self.operation_limit(&op.name),
                        body: None,
                        enumeration: Default::default(),
                    }
                })
                .collect()
        })
    }

    /// The machine's `MAX_OPERATIONS_<op>` limit for operation `name`, if any.
    fn operation_limit(&self, name: &str) -> Option<usize> {
        self.settings()
            .operation_limits
            .iter()
            .find(|(n, _)| **n == *name)
            .map(|(_, l)| *l)
    }

    fn transition(
        &self,
        operation: usize,
        params: Vec<Value>,
        state: &State,
        updates: &[(crate::syntax::ast::Name, Value)],
        span: Span,
    ) -> Result<Transition, EvalError> {
        let m = self.machine();
        let op = &m.operations[operation];
        let lookup = |name: &str| {
            updates
                .iter()
                .find(|(n, _)| &**n == name)
                .map(|(_, v)| v.clone())
        };
        let mut outputs = Vec::with_capacity(op.outputs.len());
        for o in &op.outputs {
            outputs.push(lookup(&o.name).ok_or_else(|| {
                super::wd_error(
                    span,
                    format!(
                        "operation {} does not assign its output {}",
                        op.name, o.name
                    ),
                )
            })?);
        }
        let values = m
            .variables
            .iter()
            .zip(&state.values)
            .map(|(v, old)| lookup(&v.name).unwrap_or_else(|| old.clone()))
            .collect();
        Ok(Transition {
            operation,
            params,
            outputs,
            any_values: Vec::new(),
            target: State { values },
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::check::mc::{McOptions, Verdict, model_check};
    use crate::check::{Model, Options};
    use crate::value::Value;

    fn load(name: &str, text: &str) -> Model {
        let path =
            std::env::temp_dir().join(format!("bsolve-tr-{}-{name}.mch", std::process::id()));
        std::fs::write(&path, text).expect("write temp machine");
        Model::load(&path, &Options::default()).expect("loads")
    }

    /// A nondeterministic automaton whose extended transition function is a recursive lambda constant
    /// (B/Compilers/NFA.mch): never enumerated, applied on demand in an assertion and a guard.
    const NFA: &str = "MACHINE Nfa\nSETS S = {z0,z1,z2}\nCONSTANTS delta, deltas\nPROPERTIES\n\
         delta : (S*{0,1}) --> POW(S) &\n\
         delta = {(z0,0)|->{z0}, (z0,1)|->{z0,z1}, (z1,0)|->{z2}, (z1,1)|->{z2}, (z2,0)|->{}, (z2,1)|->{}} &\n\
         deltas = %(ZZ,s).(ZZ<:S & s=<> | ZZ) \\/\n\
           %(ZZ,s).(ZZ<:S & s/=<> | UNION(z).(z:ZZ | deltas(delta(z,first(s)),tail(s))))\n\
         ASSERTIONS deltas({z0},[1,1]) = {z0,z1,z2}; deltas({z2},[0]) = {}\n\
         VARIABLES cur\nINVARIANT cur : POW(S)\nINITIALISATION cur := {z0}\n\
         OPERATIONS step(a) = PRE a : {0,1} & deltas(cur,[a]) /= cur THEN cur := deltas(cur,[a]) END\nEND";

    #[test]
    fn recursive_lambda_constant_stays_symbolic() {
        let model = load("nfa", NFA);
        let ctx = &model.context;
        let setups = ctx
            .setup_constants(10, crate::solve::Symmetry::Expanded)
            .expect("setup");
        assert_eq!(setups.solutions.len(), 1);
        assert!(setups.complete);
        // The placeholder prints the definition; the other constant is a value.
        let shown = setups.solutions[0][1].to_string();
        assert!(
            shown.starts_with("%(ZZ,s).(ZZ<:S & s=<> | ZZ) \\/"),
            "{shown}"
        );
        assert!(matches!(setups.solutions[0][0], Value::Set(_)));
        let result = model_check(&model, &McOptions::default()).expect("mc");
        assert!(
            matches!(result.verdict, Verdict::NoErrorFound),
            "{:?}",
            result.verdict
        );
        // The setup and cur in {z0}, {z0,z1}, {z0,z2}, {z0,z1,z2} (z0 is never left); the assertions hold.
        assert_eq!((result.states, result.transitions), (5, 8));
    }

    #[test]
    fn unbounded_recursion_is_an_error_not_a_crash() {
        let model = load(
            "loop",
            "MACHINE Loop\nCONSTANTS f\nPROPERTIES f = %x.(x : NATURAL | f(x+1))\n\
             VARIABLES v\nINVARIANT v : INTEGER\nINITIALISATION v := f(0)\nEND",
        );
        let ctx = &model.context;
        let setups = ctx
            .setup_constants(10, crate::solve::Symmetry::Expanded)
            .expect("setup");
        let err = ctx
            .initial_states(&setups.solutions[0], 10)
            .expect_err("no value");
        assert!(err.to_string().contains("nested more than"), "{err}");
    }

    #[test]
    fn infinite_lambda_constant_in_a_guard() {
        let model = load(
            "abs",
            "MACHINE Abs\nCONSTANTS abs, big\nPROPERTIES abs = %x.(x:NATURAL|x) \\/ %x.(x<0|-x) & big = abs(-7)\n\
             VARIABLES v\nINVARIANT v : -3..3\nINITIALISATION v := -3\n\
             OPERATIONS up = PRE abs(v) > 0 & abs(v + 1) < big THEN v := v + 1 END\nEND",
        );
        let ctx = &model.context;
        let setups = ctx
            .setup_constants(10, crate::solve::Symmetry::Expanded)
            .expect("setup");
        assert_eq!(setups.solutions.len(), 1);
        assert_eq!(setups.solutions[0][1], Value::int(7));
        assert_eq!(
            setups.solutions[0][0].to_string(),
            "%x.(x:NATURAL|x) \\/ %x.(x<0|-x)"
        );
        let result = model_check(&model, &McOptions::default()).expect("mc");
        // v goes from -3 up to 0, where abs(v) > 0 fails: a deadlock after 4 states and the setup.
        assert!(
            matches!(result.verdict, Verdict::Deadlock),
            "{:?}",
            result.verdict
        );
        assert_eq!(result.states, 5);
    }

    #[test]
    fn infinite_set_constants_print_their_definition() {
        let model = load(
            "words",
            "MACHINE Words\nCONSTANTS WORDS, CHARS, iv\nPROPERTIES WORDS = seq1(CHARS) & CHARS = {\"a\",\"b\"} & iv = INTEGER\nEND",
        );
        let found = crate::check::setup::setup_constants(&model, 10).expect("setup");
        assert_eq!(found.solutions.len(), 1);
        let shown: Vec<String> = found.solutions[0]
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect();
        assert_eq!(
            shown,
            [
                "WORDS = seq1(CHARS)",
                "CHARS = {\"a\",\"b\"}",
                "iv = INTEGER"
            ]
        );
    }

    /// The parameters of the transitions from the (single) initial state of a machine without constants.
    fn successor_params(name: &str, text: &str) -> Vec<Vec<Value>> {
        let model = load(name, text);
        let ctx = &model.context;
        let init = ctx.initial_states(&[], 10).expect("initialises");
        let succ = ctx.successors(&[], &init[0], 100).expect("successors");
        succ.into_iter().map(|t| t.params).collect()
    }

    #[test]
    fn listed_parameter_domains_are_enumerated_in_order() {
        // `x : 1..6` lists the candidates; the rest of the guard filters them, ascending.
        let params = successor_params(
            "listed",
            "MACHINE Listed\nVARIABLES v\nINVARIANT v : INTEGER\nINITIALISATION v := 3\nOPERATIONS\n\
             op(x) = PRE x : 1..6 & x mod 2 = 0 & x /= v + 1 THEN v := x END\nEND",
        );
        assert_eq!(params, vec![vec![Value::int(2)], vec![Value::int(6)]]);
    }

    #[test]
    fn ill_defined_listed_guards_are_left_to_the_solver() {
        // `f(x)` is ill-defined for x = 0: the listing gives up and the solver's answer stands (it
        // finds x = 1, where the guard is defined and true).
        let model = load(
            "listedwd",
            "MACHINE ListedWd\nCONSTANTS f\nPROPERTIES f = {1 |-> 5, 2 |-> 6}\nVARIABLES v\n\
             INVARIANT v : INTEGER\nINITIALISATION v := 0\nOPERATIONS\n\
             op(x) = PRE x : 0..2 & f(x) = 5 THEN v := x END\nEND",
        );
        let ctx = &model.context;
        let setups = ctx
            .setup_constants(10, crate::solve::Symmetry::Expanded)
            .expect("sets up")
            .solutions;
        let init = ctx.initial_states(&setups[0], 10).expect("initialises");
        let mut env = ctx.state_env(&setups[0], &init[0]).expect("env");
        assert!(
            ctx.listed_choices(&ctx.operation_plans()[0], &mut env)
                .is_none()
        );
    }

    #[test]
    fn let_bound_guards_bound_the_parameters() {
        // p can only be 8 or 9, beyond MAXINT: the LET and the SELECT under it give its domain.
        let params = successor_params(
            "let",
            "MACHINE L\nVARIABLES v\nINVARIANT v : INTEGER\nINITIALISATION v := 7\nOPERATIONS\n\
             op(p) = LET w BE w = v+1 IN SELECT p : {w, w+1} & p < 10 THEN v := p END END\nEND",
        );
        assert_eq!(params, vec![vec![Value::int(8)], vec![Value::int(9)]]);
    }

    #[test]
    fn sequences_listed_by_a_pattern_are_split_by_concatenations() {
        // B/Compilers/LL_LeftFactoring.mch's RemoveLeftFactor: r lists h1 and h2 (defined by the
        // concatenations, but listed first), and the common prefix p is then a split of h1, where
        // labelling p first needed all of seq(S) (POW(INTEGER * S), more values than the enumeration limit).
        let text = "MACHINE LeftFactor\nSETS S = {A, B, C, D, E}\nVARIABLES r\n\
                    INVARIANT r : S <-> seq(S)\n\
                    INITIALISATION r := {A |-> [A, B], A |-> [A, C], B |-> [C]}\nOPERATIONS\n\
                    op(x, p, t1, t2, h1, h2) = SELECT x |-> h1 : r & x |-> h2 : r & h1 /= h2 & \
                    h1 = p ^ t1 & h2 = p ^ t2 & p /= [] THEN skip END\nEND";
        let model = load("leftfactor", text);
        let ctx = &model.context;
        let s = ctx
            .given_set("S", crate::diag::Span::default())
            .expect("S is enumerated");
        let [a, b, c] = [&s[0], &s[1], &s[2]];
        let seq = |items: &[&Value]| Value::sequence(items.iter().map(|&v| v.clone()).collect());
        let (ab, ac) = (seq(&[a, b]), seq(&[a, c]));
        let mut params = successor_params("leftfactor", text);
        params.sort();
        let mut expected = vec![
            vec![
                a.clone(),
                seq(&[a]),
                seq(&[b]),
                seq(&[c]),
                ab.clone(),
                ac.clone(),
            ],
            vec![a.clone(), seq(&[a]), seq(&[c]), seq(&[b]), ac, ab],
        ];
        expected.sort();
        assert_eq!(params, expected);
    }

    #[test]
    fn any_values_distinguish_transitions_when_shown() {
        // A self-loop whose ANY takes three values: one transition, or three under
        // SHOW_EVENTB_ANY_VALUES, each reporting its value (ProB's ETH elevator models count so).
        let machine = |prefs: &str| {
            format!(
                "MACHINE A\nDEFINITIONS {prefs}\nVARIABLES x\nINVARIANT x : 0..3\n\
                 INITIALISATION x := 0\nOPERATIONS\nloop = ANY f WHERE f : 0..2 THEN x := x END\nEND"
            )
        };
        let successors = |name: &str, text: &str| {
            let path =
                std::env::temp_dir().join(format!("bsolve-tr-{}-{name}.mch", std::process::id()));
            std::fs::write(&path, text).expect("write temp machine");
            let model = Model::load(&path, &Options::default()).expect("loads");
            let ctx = &model.context;
            let init = ctx.initial_states(&[], 10).expect("initialises");
            ctx.successors(&[], &init[0], 100).expect("successors")
        };
        let hidden = successors("any-hidden", &machine("SET_PREF_MAXINT == 3"));
        assert_eq!(hidden.len(), 1);
        assert!(hidden[0].any_values.is_empty());
        let shown = successors(
            "any-shown",
            &machine("SET_PREF_SHOW_EVENTB_ANY_VALUES == TRUE"),
        );
        let values: Vec<_> = shown.iter().map(|t| t.any_values.clone()).collect();
        assert_eq!(
            values,
            vec![
                vec![Value::int(0)],
                vec![Value::int(1)],
                vec![Value::int(2)]
            ]
        );
    }
}
