//! Backtracking search for the values of bound variables satisfying a predicate: the engine behind
//! quantifiers, comprehensions, lambdas, ANY and the brute-force oracle `solve_by_enumeration`.
//!
//! The predicate is split into conjuncts. At each step the search picks the unbound variable with the
//! smallest domain derivable from the conjuncts whose other variables are already bound (`x = E` gives one
//! value; `x : S`, `x <: S`, `x|->y : S` (also `x|->(E^y) : S`) and integer bounds `E <= x`, `x < E`
//! give finite domains), falling
//! back to the variable's type (INTEGER only within MININT..MAXINT, which makes the search *incomplete*).
//! Each conjunct is checked as soon as all the variables it mentions are bound, in source order.

use super::polynomials::Polynomial;
use super::symbolic::SymbolicSet;
use super::{Context, Env, EvalError, Val, limit_error};
use crate::diag::Span;
use crate::ir::{BinaryOp, CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, UnaryOp};
use crate::syntax::ast::Name;
use crate::types::Type;
use crate::value::{Int, Value, set};
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// Solutions of the brute-force oracle.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumeration {
    /// One vector per solution, in the order of the variables.
    pub solutions: Vec<Vec<Value>>,
    /// False when an integer was enumerated only within MININT..MAXINT (or a STRING could not be
    /// enumerated), or the solution limit cut the search: then a missing solution proves nothing.
    pub complete: bool,
    /// The solutions are representatives of classes of permutations of the deferred sets' elements
    /// (`solve::Symmetry::ProbSetups`), not all solutions.
    pub symmetry_reduced: bool,
}

/// Called for each solution with the variables bound in the environment; returns whether to go on.
pub(crate) type OnSolution<'a> = dyn FnMut(&Context, &mut Env) -> Result<bool, EvalError> + 'a;

enum Candidates {
    Single(Val),
    Set(Arc<Vec<Value>>),
    Range(Int, Int),
    /// Every value of the variable's type.
    OfType,
    /// The short sequences of a `seq(S)` (`Context::short_sequences`), listed only if this variable is
    /// chosen: `domain_of` is asked for every unbound variable at every level, and another conjunct
    /// usually gives a sequence variable a far smaller domain (`N |-> s : Rules`).
    ShortSequences(Val, Span),
    /// Values for several variables at once (from a maplet pattern `x |-> y : S`), in `Choice::vars` order.
    Tuples(Vec<Vec<Value>>),
}

struct Choice {
    vars: Vec<usize>,
    candidates: Candidates,
    /// Conjuncts satisfied by construction of the candidates.
    covered: Vec<usize>,
    rank: u8,
    size: usize,
    complete: bool,
}

struct Search<'p> {
    vars: &'p [TypedName],
    conjuncts: Vec<&'p Pred>,
    mentions: Vec<Vec<usize>>,
    bound: Vec<bool>,
    checked: Vec<bool>,
    complete: bool,
    span: Span,
    /// `card({e1, ..., en}) = n` conjuncts (pairwise distinctness, as ProB recognises it), checked on the
    /// bound elements before all of them are known: the conjunct and each element with its variables.
    distinct: Vec<(usize, Vec<DistinctElement<'p>>)>,
}

impl Search<'_> {
    /// Whether `e` mentions a search variable not bound yet.
    fn unbound_in(&self, e: &Expr) -> bool {
        let mut names = FxHashSet::default();
        expr_names(e, &mut names);
        (self.vars.iter().enumerate()).any(|(j, v)| !self.bound[j] && names.contains(&*v.name))
    }
}

/// An element of a `card({..}) = n` conjunct and the search variables it mentions.
type DistinctElement<'p> = (&'p Expr, Vec<usize>);

impl Context {
    /// All solutions of `pred` for `vars` (at most `limit`) by exhaustive enumeration over finite domains.
    pub fn solve_by_enumeration(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &Env,
        limit: usize,
    ) -> Result<Enumeration, EvalError> {
        let mut env = env.clone();
        let mut solutions = Vec::new();
        let mut cut = false;
        let complete = self.search(vars, pred, &mut env, &mut |ctx, env| {
            if solutions.len() >= limit {
                cut = true;
                return Ok(false);
            }
            solutions.push(ctx.bound_values(vars, env, pred.span)?);
            Ok(true)
        })?;
        Ok(Enumeration {
            solutions,
            complete: complete && !cut && !self.depends_on_default_sizes(vars, pred),
            symmetry_reduced: false,
        })
    }

    /// Whether the variables' types or the predicate mention a deferred set sized by DEFAULT_SETSIZE only.
    pub(crate) fn depends_on_default_sizes(&self, vars: &[TypedName], pred: &Pred) -> bool {
        let defaulted = self.default_sized_sets();
        if defaulted.is_empty() {
            return false;
        }
        let mut names = FxHashSet::default();
        pred_names(pred, &mut names);
        defaulted
            .iter()
            .any(|d| names.contains(&**d) || vars.iter().any(|v| type_mentions(&v.ty, d)))
    }

    /// The values `vars` are bound to in `env` (materialising symbolic sets).
    pub(crate) fn bound_values(
        &self,
        vars: &[TypedName],
        env: &Env,
        span: Span,
    ) -> Result<Vec<Value>, EvalError> {
        // Hundreds of names read from as many fresh bindings (a solution of a large setup): index them
        // once instead of scanning the bindings for every name.
        let frozen;
        let env = if env.worth_indexing(vars.len()) {
            frozen = env.clone().freeze();
            &frozen
        } else {
            env
        };
        vars.iter()
            .map(|v| match env.get(&v.name) {
                Some(val) => self.to_value(val.clone(), span),
                None => Err(super::internal_error(
                    span,
                    format!("{} is unbound", v.name),
                )),
            })
            .collect()
    }

    /// Enumerates the solutions of `pred` for `vars`; returns whether the search was complete (no domain
    /// was cut to MININT..MAXINT). Stops early when `on_solution` returns false.
    pub(crate) fn search(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &mut Env,
        on_solution: &mut OnSolution<'_>,
    ) -> Result<bool, EvalError> {
        let conjuncts = pred.conjuncts();
        let names: Vec<&str> = vars.iter().map(|v| &*v.name).collect();
        // Free identifiers, inner binders subtracted: `f = %x.(x : INTEGER | x + x)` does not wait for a
        // search variable `x` (`#(f, x).(f = %x.(..) & f(f(x)) = 1000)` binds f first).
        let mentions = conjuncts
            .iter()
            .map(|c| {
                let mut mentioned: Vec<usize> = Vec::new();
                crate::ir::free_names::each_in_pred(c, &mut |n| {
                    if let Some(i) = names
                        .iter()
                        .position(|m| crate::syntax::ast::same_name(m, n))
                        && !mentioned.contains(&i)
                    {
                        mentioned.push(i);
                    }
                });
                mentioned.sort_unstable();
                mentioned
            })
            .collect();
        let distinct = conjuncts
            .iter()
            .enumerate()
            .filter_map(|(c, p)| {
                let items = distinct_elements(p)?;
                let items = items
                    .into_iter()
                    .map(|e| {
                        let mut free = FxHashSet::default();
                        expr_names(e, &mut free);
                        (
                            e,
                            (0..vars.len())
                                .filter(|&i| free.contains(names[i]))
                                .collect(),
                        )
                    })
                    .collect();
                Some((c, items))
            })
            .collect();
        let mut s = Search {
            vars,
            checked: vec![false; conjuncts.len()],
            conjuncts,
            mentions,
            bound: vec![false; vars.len()],
            complete: true,
            span: pred.span,
            distinct,
        };
        let ready = s.newly_ready();
        for &c in &ready {
            s.checked[c] = true;
        }
        for &c in &ready {
            if !self.eval_pred_in(s.conjuncts[c], env)? {
                return Ok(true);
            }
        }
        self.search_level(&mut s, env, on_solution)?;
        Ok(s.complete)
    }

    fn search_level(
        &self,
        s: &mut Search<'_>,
        env: &mut Env,
        on_solution: &mut OnSolution<'_>,
    ) -> Result<bool, EvalError> {
        self.check_deadline(s.span)?;
        if s.bound.iter().all(|&b| b) {
            return on_solution(self, env);
        }
        let choice = self.choose(s, env)?;
        s.complete &= choice.complete;
        for &v in &choice.vars {
            s.bound[v] = true;
        }
        let newly = s.newly_ready();
        for &c in newly.iter().chain(&choice.covered) {
            s.checked[c] = true;
        }
        let to_check: Vec<usize> = newly
            .iter()
            .copied()
            .filter(|c| !choice.covered.contains(c))
            .collect();
        let result = self.try_candidates(s, &choice, &to_check, env, on_solution);
        for &c in newly.iter().chain(&choice.covered) {
            s.checked[c] = false;
        }
        for &v in &choice.vars {
            s.bound[v] = false;
        }
        result
    }

    fn try_candidates(
        &self,
        s: &mut Search<'_>,
        choice: &Choice,
        to_check: &[usize],
        env: &mut Env,
        on_solution: &mut OnSolution<'_>,
    ) -> Result<bool, EvalError> {
        let mark = env.len();
        let mut attempt = |ctx: &Context, s: &mut Search<'_>, env: &mut Env| {
            let mut ok = true;
            for &c in to_check {
                if !ctx.eval_pred_in(s.conjuncts[c], env)? {
                    ok = false;
                    break;
                }
            }
            if ok {
                ok = ctx.bound_elements_distinct(s, env)?;
            }
            let go_on = if ok {
                ctx.search_level(s, env, on_solution)?
            } else {
                true
            };
            env.truncate(mark);
            Ok::<bool, EvalError>(go_on)
        };
        let var = |i: usize| s.vars[choice.vars[i]].name.clone();
        match &choice.candidates {
            Candidates::Single(v) => {
                env.bind_val(var(0), v.clone());
                attempt(self, s, env)
            }
            Candidates::OfType | Candidates::Set(_) | Candidates::ShortSequences(..) => {
                let items = match &choice.candidates {
                    Candidates::Set(items) => items.clone(),
                    Candidates::ShortSequences(domain, span) => {
                        Arc::new(self.short_sequences(domain, *span).unwrap_or_default())
                    }
                    _ => {
                        let v = &s.vars[choice.vars[0]];
                        self.type_values(&v.ty, v.span)?.0
                    }
                };
                let name = var(0);
                for x in items.iter() {
                    env.bind(name.clone(), x.clone());
                    if !attempt(self, s, env)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Candidates::Range(lo, hi) => {
                let name = var(0);
                let mut i = lo.clone();
                while i <= *hi {
                    env.bind(name.clone(), Value::Int(i.clone()));
                    if !attempt(self, s, env)? {
                        return Ok(false);
                    }
                    i = i.succ();
                }
                Ok(true)
            }
            Candidates::Tuples(tuples) => {
                for parts in tuples {
                    for (k, v) in parts.iter().enumerate() {
                        env.bind(var(k), v.clone());
                    }
                    if !attempt(self, s, env)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// Whether the already-known elements of each pending `card({..}) = n` conjunct are pairwise distinct.
    fn bound_elements_distinct(&self, s: &Search<'_>, env: &mut Env) -> Result<bool, EvalError> {
        for (c, items) in &s.distinct {
            if s.checked[*c] {
                continue;
            }
            let mut seen = Vec::with_capacity(items.len());
            for (e, vars) in items {
                if vars.iter().all(|&j| s.bound[j]) {
                    let v = self.eval_value(e, env)?;
                    if seen.contains(&v) {
                        return Ok(false);
                    }
                    seen.push(v);
                }
            }
        }
        Ok(true)
    }

    /// The next variable(s) to bind and their candidate values.
    fn choose(&self, s: &Search<'_>, env: &mut Env) -> Result<Choice, EvalError> {
        let mut best: Option<Choice> = None;
        let mut first_error = None;
        for i in 0..s.vars.len() {
            if s.bound[i] {
                continue;
            }
            // A variable whose domain is too large matters only if no other variable can go first.
            let choice = match self.domain_of(s, i, env) {
                Ok(c) => c,
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            if choice.rank == 0 {
                return Ok(choice);
            }
            // Fail first: the variable whose binding lets the most conjuncts be checked goes first (a
            // variable that enables no check only multiplies the search); then the smaller domain.
            let key = |c: &Choice| (c.rank, std::cmp::Reverse(s.prunes(c)), c.size);
            if best.as_ref().is_none_or(|b| key(&choice) < key(b)) {
                best = Some(choice);
            }
        }
        match (best, first_error) {
            (Some(choice), _) => Ok(choice),
            (None, Some(e)) => Err(e),
            (None, None) => Err(super::internal_error(s.span, "no variable left to choose")),
        }
    }

    fn domain_of(&self, s: &Search<'_>, i: usize, env: &mut Env) -> Result<Choice, EvalError> {
        let var = &s.vars[i];
        let name = &*var.name;
        let limit = self.settings().enumeration_limit;
        let mut lo: Option<(Int, usize)> = None;
        let mut hi: Option<(Int, usize)> = None;
        let mut set_choice: Option<Choice> = None;
        // An incomplete domain from a conjunct (sequences of bounded length), better than the type's.
        let mut partial_choice: Option<Choice> = None;
        let mut bound_covers = Vec::new();
        for (c, conj) in s.conjuncts.iter().enumerate() {
            if s.checked[c] || !s.mentions[c].contains(&i) {
                continue;
            }
            if let PredKind::Or(alternatives) = &conj.kind {
                if let Some(values) = self.alternative_values(alternatives, name, s, env) {
                    keep_smaller(&mut set_choice, listed_choice(i, values));
                } else if let Some(choice) = self.alternative_tuples(alternatives, i, s, env) {
                    keep_smaller(&mut set_choice, choice);
                }
                continue;
            }
            // Outside the domain of a function the conjunct always applies to the variable, the
            // conjunct is ill-defined: no solution lies there (`ir::strict`).
            for f in crate::ir::strict::applied_to(conj, name) {
                if let Some(Value::Set(pairs)) = self.known_value(f, s, env) {
                    keep_smaller(&mut set_choice, listed_choice(i, set::domain(&pairs)));
                }
            }
            let others_unbound = s.mentions[c].iter().any(|&j| j != i && !s.bound[j]);
            if let Some(superset) = universal_superset(conj, &var.name, &var.ty) {
                // `!y.(y : s => Q)` reads as `s <: {y | Q}`; the conjunct itself is still checked.
                if !others_unbound
                    && let Some(subsets) = self.subsets_choice(i, &superset, vec![], env, limit)
                {
                    keep_smaller(&mut set_choice, subsets);
                }
                continue;
            }
            let PredKind::Compare(op, l, r) = &conj.kind else {
                continue;
            };
            if *op == CompareOp::Eq
                && let Some(values) = self.concat_split(s, name, l, r, env)
            {
                keep_smaller(&mut set_choice, listed_choice(i, values));
                continue;
            }
            let tuple_pattern =
                *op == CompareOp::In && matches!(l.kind, ExprKind::Binary(BinaryOp::Maplet, ..));
            if others_unbound && !tuple_pattern {
                continue;
            }
            let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if &**n == name);
            let free_of = |e: &Expr| !mentions(e, name);
            match op {
                CompareOp::Eq => {
                    let other = if is_var(l) && free_of(r) {
                        r
                    } else if is_var(r) && free_of(l) {
                        l
                    } else {
                        if var.ty == Type::Integer
                            && let Some(roots) = self.integer_solutions(l, r, name, &[], env)
                        {
                            return Ok(Choice {
                                vars: vec![i],
                                size: roots.values.len(),
                                candidates: Candidates::Set(Arc::new(roots.values)),
                                covered: if roots.by_arithmetic {
                                    vec![c]
                                } else {
                                    Vec::new()
                                },
                                rank: 0,
                                complete: true,
                            });
                        }
                        continue;
                    };
                    if let Ok(v) = self.eval(other, env) {
                        return Ok(Choice {
                            vars: vec![i],
                            candidates: Candidates::Single(v),
                            covered: vec![c],
                            rank: 0,
                            size: 1,
                            complete: true,
                        });
                    }
                }
                CompareOp::In if is_var(l) && free_of(r) => {
                    let Ok(domain) = self.eval(r, env) else {
                        continue;
                    };
                    if let Val::Sym(sym) = &domain
                        && let SymbolicSet::Interval(a, b) = &**sym
                    {
                        if let Some(a) = a {
                            tighten_lo(a.clone(), c, &mut lo);
                        }
                        if let Some(b) = b
                            && hi.as_ref().is_none_or(|(h, _)| b < h)
                        {
                            hi = Some((b.clone(), c));
                        }
                        bound_covers.push(c);
                        continue;
                    }
                    match self.materialize(&domain, conj.span) {
                        Ok(items) => {
                            if set_choice.as_ref().is_none_or(|b| items.len() < b.size) {
                                set_choice = Some(Choice {
                                    vars: vec![i],
                                    size: items.len(),
                                    candidates: Candidates::Set(items),
                                    covered: vec![c],
                                    rank: 1,
                                    complete: true,
                                });
                            }
                        }
                        Err(_) => {
                            // A conjunct `size(x) <= n` makes the sequences of length at most n
                            // an exact domain; otherwise ProB's incomplete one (length <= MAXINT).
                            if let Some(n) = self.size_bound(s, name, env)
                                && let Some((items, all)) =
                                    self.sequences_up_to(&domain, conj.span, n)
                                && all
                            {
                                if set_choice.as_ref().is_none_or(|b| items.len() < b.size) {
                                    set_choice = Some(Choice {
                                        vars: vec![i],
                                        size: items.len(),
                                        candidates: Candidates::Set(Arc::new(items)),
                                        covered: vec![c],
                                        rank: 1,
                                        complete: true,
                                    });
                                }
                            } else if partial_choice.is_none()
                                && let Some(size) = self.short_sequence_count(&domain, conj.span)
                            {
                                partial_choice = Some(Choice {
                                    vars: vec![i],
                                    size,
                                    candidates: Candidates::ShortSequences(domain, conj.span),
                                    covered: vec![c],
                                    rank: 2,
                                    complete: false,
                                });
                            }
                        }
                    }
                }
                CompareOp::In if tuple_pattern => {
                    let Some((binders, tuples)) = self.pattern_tuples(l, r, i, s, env, conj.span)
                    else {
                        continue;
                    };
                    if set_choice.as_ref().is_none_or(|b| tuples.len() < b.size) {
                        set_choice = Some(Choice {
                            vars: binders,
                            size: tuples.len(),
                            candidates: Candidates::Tuples(tuples),
                            covered: vec![c],
                            rank: 1,
                            complete: true,
                        });
                    }
                }
                CompareOp::Subset | CompareOp::StrictSubset if is_var(l) && free_of(r) => {
                    // A strict subset is still checked (the candidates include the set itself).
                    let covered = if *op == CompareOp::Subset {
                        vec![c]
                    } else {
                        Vec::new()
                    };
                    if let Some(subsets) = self.subsets_choice(i, r, covered, env, limit) {
                        keep_smaller(&mut set_choice, subsets);
                    }
                }
                CompareOp::Lt | CompareOp::Le => {
                    let strict = *op == CompareOp::Lt;
                    if is_var(l) && free_of(r) {
                        let Ok(Val::Value(Value::Int(b))) = self.eval(r, env) else {
                            continue;
                        };
                        let b = if strict { b.pred() } else { b };
                        if hi.as_ref().is_none_or(|(h, _)| b < *h) {
                            hi = Some((b, c));
                        }
                        bound_covers.push(c);
                    } else if is_var(r) && free_of(l) {
                        let Ok(Val::Value(Value::Int(a))) = self.eval(l, env) else {
                            continue;
                        };
                        tighten_lo(if strict { a.succ() } else { a }, c, &mut lo);
                        bound_covers.push(c);
                    }
                }
                _ => {}
            }
        }
        if let Some(choice) = set_choice {
            return Ok(choice);
        }
        if let (Some((l, _)), Some((h, _))) = (&lo, &hi) {
            let size = if h < l {
                0
            } else {
                h.sub(l).succ().to_usize().unwrap_or(usize::MAX)
            };
            if size > limit {
                return Err(limit_error(
                    var.span,
                    format!("the domain of {name} has more than {limit} values"),
                ));
            }
            return Ok(Choice {
                vars: vec![i],
                candidates: Candidates::Range(l.clone(), h.clone()),
                covered: bound_covers,
                rank: 1,
                size,
                complete: true,
            });
        }
        if let Some(choice) = partial_choice {
            return Ok(choice);
        }
        if var.ty == Type::Integer
            && let Some(values) = self.pinned_through_definitions(s, i, env)
        {
            return Ok(listed_choice(i, values));
        }
        if var.ty == Type::Integer {
            let (minint, maxint) = self.int_cut();
            // A one-sided bound beyond MININT..MAXINT moves the window of that width to the bound, so
            // that `x > 200` still finds witnesses (as ProB does).
            let width = maxint.sub(&minint);
            let (l, h) = match (lo, hi) {
                (Some((l, _)), None) if l > maxint => (l.clone(), l.add(&width)),
                (None, Some((h, _))) if h < minint => (h.sub(&width), h),
                (lo, hi) => (
                    lo.map_or(minint.clone(), |(l, _)| l.max(minint)),
                    hi.map_or(maxint.clone(), |(h, _)| h.min(maxint)),
                ),
            };
            let size = if h < l {
                0
            } else {
                h.sub(&l).succ().to_usize().unwrap_or(usize::MAX)
            };
            if size > limit {
                return Err(limit_error(
                    var.span,
                    format!(
                        "{name} has no finite domain and MININT..MAXINT has more than {limit} values"
                    ),
                ));
            }
            return Ok(Choice {
                vars: vec![i],
                candidates: Candidates::Range(l, h),
                covered: bound_covers,
                rank: 2,
                size,
                complete: false,
            });
        }
        // The whole type, computed only if this variable is chosen (it may be too large to enumerate
        // while another variable has a usable domain).
        Ok(Choice {
            vars: vec![i],
            size: usize::MAX,
            candidates: Candidates::OfType,
            covered: Vec::new(),
            rank: 3,
            complete: type_is_enumerable(&var.ty),
        })
    }

    /// The subsets of the finite set `superset` (free of unbound identifiers) as the domain of set
    /// variable `i`: None when it cannot be listed or its subsets exceed `limit`.
    fn subsets_choice(
        &self,
        i: usize,
        superset: &Expr,
        covered: Vec<usize>,
        env: &mut Env,
        limit: usize,
    ) -> Option<Choice> {
        let items = self
            .materialize(&self.eval(superset, env).ok()?, superset.span)
            .ok()?;
        let subsets = set::power_set(&items, 0, limit)?;
        Some(Choice {
            vars: vec![i],
            size: subsets.len(),
            candidates: Candidates::Set(Arc::new(subsets)),
            covered,
            rank: 1,
            complete: true,
        })
    }

    /// The values of integer variable `i` that no conjunct bounds, from an equation whose other unknowns
    /// are defined by equations of their own in terms of it (`f = %x.(x : INTEGER | x + c) & f(10) +
    /// f(9) = 129` pins c down): the equation read through the definitions (`integer_solutions`). It
    /// stays to be checked once they are bound. Tried only where the search would otherwise cut the
    /// variable to MININT..MAXINT.
    fn pinned_through_definitions(
        &self,
        s: &Search<'_>,
        i: usize,
        env: &mut Env,
    ) -> Option<Vec<Value>> {
        let name = &*s.vars[i].name;
        for (c, conj) in s.conjuncts.iter().enumerate() {
            let PredKind::Compare(CompareOp::Eq, l, r) = &conj.kind else {
                continue;
            };
            let others_unbound = s.mentions[c].iter().any(|&j| j != i && !s.bound[j]);
            if s.checked[c] || !others_unbound {
                continue;
            }
            if let Some(definitions) = definitions_in_terms_of(s, c, i)
                && let Some(roots) = self.integer_solutions(l, r, name, &definitions, env)
            {
                return Some(roots.values);
            }
        }
        None
    }

    /// For `W = p1 ^ ... ^ pk` (either side) with W known: when the parts before `name`'s part are all
    /// known, `name` is a prefix of what W leaves after them (or, parts after it known, a suffix of what
    /// W leaves before them). Those splits are all of its candidates: CardTrick's `#(a,b,c,d).(dst =
    /// a^b^c^d & a : perm(SUIT) & ...)` tries 17 splits per part instead of 24^4 permutations.
    fn concat_split(
        &self,
        s: &Search<'_>,
        name: &str,
        l: &Expr,
        r: &Expr,
        env: &mut Env,
    ) -> Option<Vec<Value>> {
        let unbound = |e: &Expr| s.unbound_in(e);
        for (whole, chain) in [(l, r), (r, l)] {
            let parts = chain.concat_operands();
            let Some(k) = parts.iter().position(
                |p| matches!(&p.kind, ExprKind::Var(n) if crate::syntax::ast::same_name(n, name)),
            ) else {
                continue;
            };
            if parts.len() < 2 || unbound(whole) {
                continue;
            }
            let (before, after) = (&parts[..k], &parts[k + 1..]);
            let from_front = !before.iter().any(|p| unbound(p));
            if !from_front && after.iter().any(|p| unbound(p)) {
                continue;
            }
            let w = self.eval_value(whole, env).ok()?.as_sequence()?;
            let known = if from_front { before } else { after };
            let mut fixed = Vec::new();
            for p in known {
                fixed.extend(self.eval_value(p, env).ok()?.as_sequence()?);
            }
            let n = w.len();
            if fixed.len() > n {
                return Some(Vec::new());
            }
            let rest = if from_front {
                if w[..fixed.len()] != fixed[..] {
                    return Some(Vec::new());
                }
                &w[fixed.len()..]
            } else {
                if w[n - fixed.len()..] != fixed[..] {
                    return Some(Vec::new());
                }
                &w[..n - fixed.len()]
            };
            // The last unknown part is the whole rest; otherwise any prefix (suffix) of it.
            let last = if from_front {
                after.is_empty()
            } else {
                before.is_empty()
            };
            let m = rest.len();
            let splits: Vec<Value> = if last {
                vec![Value::sequence(rest.to_vec())]
            } else if let Some(j) = self.known_size(s, name, env) {
                // `size(a) = 4` beside the concatenation: one split, not a list to filter.
                match (j <= m, from_front) {
                    (false, _) => Vec::new(),
                    (true, true) => vec![Value::sequence(rest[..j].to_vec())],
                    (true, false) => vec![Value::sequence(rest[m - j..].to_vec())],
                }
            } else if from_front {
                (0..=m)
                    .map(|j| Value::sequence(rest[..j].to_vec()))
                    .collect()
            } else {
                (0..=m)
                    .map(|j| Value::sequence(rest[m - j..].to_vec()))
                    .collect()
            };
            return Some(splits);
        }
        None
    }

    /// The length a conjunct `size(name) = E` (either side, E without unbound variables) gives `name`.
    fn known_size(&self, s: &Search<'_>, name: &str, env: &mut Env) -> Option<usize> {
        let is_size_of = |e: &Expr| {
            matches!(&e.kind, ExprKind::Unary(UnaryOp::Size, x)
                if matches!(&x.kind, ExprKind::Var(n) if &**n == name))
        };
        s.conjuncts.iter().find_map(|conj| {
            let PredKind::Compare(CompareOp::Eq, l, r) = &conj.kind else {
                return None;
            };
            let other = if is_size_of(l) {
                r
            } else if is_size_of(r) {
                l
            } else {
                return None;
            };
            if s.unbound_in(other) {
                return None;
            }
            self.eval_value(other, env).ok()?.as_int()?.to_usize()
        })
    }

    /// The values `name` may take by a disjunction of equalities `name = E1 or name = E2 or ...` whose
    /// other variables are all bound (`{x | x = a or x = b}`); None when some alternative is of another
    /// shape or does not evaluate.
    fn alternative_values(
        &self,
        alternatives: &[Pred],
        name: &str,
        s: &Search<'_>,
        env: &mut Env,
    ) -> Option<Vec<Value>> {
        let mut values = Vec::with_capacity(alternatives.len());
        for alt in alternatives {
            let PredKind::Compare(CompareOp::Eq, l, r) = &alt.kind else {
                return None;
            };
            let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if &**n == name);
            let other = if is_var(l) && !mentions(r, name) {
                r
            } else if is_var(r) && !mentions(l, name) {
                l
            } else {
                return None;
            };
            let mut names = FxHashSet::default();
            expr_names(other, &mut names);
            if s.vars
                .iter()
                .enumerate()
                .any(|(j, v)| !s.bound[j] && names.contains(&*v.name))
            {
                return None;
            }
            values.push(self.eval_value(other, env).ok()?);
        }
        values.sort();
        values.dedup();
        Some(values)
    }

    /// The search variables a membership `l : r` binds when `l` is a pattern of them (`x |-> (E |-> y)
    /// : S`, `x : S`) that includes variable `i`, with r known: those variables (each once) and the
    /// tuples of their values that the members of r give. None for other shapes.
    fn pattern_tuples(
        &self,
        l: &Expr,
        r: &Expr,
        i: usize,
        s: &Search<'_>,
        env: &mut Env,
        span: Span,
    ) -> Option<(Vec<usize>, Vec<Vec<Value>>)> {
        let pattern = self.build_pattern(l, s, env)?;
        let mut binders = Vec::new();
        pattern.binders(&mut binders);
        let distinct: FxHashSet<usize> = binders.iter().copied().collect();
        if !binders.contains(&i) || distinct.len() != binders.len() {
            return None;
        }
        let mut set_names = FxHashSet::default();
        expr_names(r, &mut set_names);
        let set_ready =
            (0..s.vars.len()).all(|j| s.bound[j] || !set_names.contains(&*s.vars[j].name));
        if !set_ready {
            return None;
        }
        let domain = self.eval(r, env).ok()?;
        let items = match self.materialize(&domain, span) {
            Ok(items) => items,
            // `a |-> y : f` with f kept symbolic (a recursive lambda): y ranges over `f[{a}]`, computed
            // by application rather than by listing f (`{x | 30 |-> x : fib}`).
            Err(e @ EvalError::Limit(_)) if !e.is_timeout() => {
                let Pattern::Pair(first, rest) = &pattern else {
                    return None;
                };
                let Pattern::Fixed(a) = &**first else {
                    return None;
                };
                let image = self.point_image(&domain, a, span).ok()?;
                let mut tuples = Vec::new();
                for y in &image {
                    let mut parts = Vec::with_capacity(binders.len());
                    if rest.matches(y, &mut parts) {
                        tuples.push(parts);
                    }
                }
                return Some((binders, tuples));
            }
            Err(_) => return None,
        };
        let mut tuples = Vec::new();
        for x in items.iter() {
            let mut parts = Vec::with_capacity(binders.len());
            if pattern.matches(x, &mut parts) {
                tuples.push(parts);
            }
        }
        Some((binders, tuples))
    }

    /// The values of a disjunction's variables when every alternative has a conjunct `pattern : S`
    /// binding the same variables, `i` among them (`{a, b | ((a, b) : r & a /: dom(f)) or (a, b) :
    /// f}`): every solution is in the union of their tuples. The disjunction stays to be checked.
    fn alternative_tuples(
        &self,
        alternatives: &[Pred],
        i: usize,
        s: &Search<'_>,
        env: &mut Env,
    ) -> Option<Choice> {
        let mut vars: Option<Vec<usize>> = None;
        let mut all = Vec::new();
        for alt in alternatives {
            let (binders, tuples) = alt.conjuncts().into_iter().find_map(|c| {
                let PredKind::Compare(CompareOp::In, l, r) = &c.kind else {
                    return None;
                };
                self.pattern_tuples(l, r, i, s, env, c.span)
            })?;
            match &vars {
                None => vars = Some(binders),
                Some(v) if *v == binders => {}
                Some(_) => return None,
            }
            all.extend(tuples);
        }
        all.sort_unstable();
        all.dedup();
        Some(Choice {
            vars: vars?,
            size: all.len(),
            candidates: Candidates::Tuples(all),
            covered: Vec::new(),
            rank: 1,
            complete: true,
        })
    }

    /// For `seq(S)`/`seq1(S)` with S finite: the sequences of length at most MAXINT (or the widened cut, `Context::int_cut`; at most
    /// `enumeration_limit` of them), a deliberately incomplete domain, as ProB enumerates them.
    pub(crate) fn short_sequences(&self, domain: &Val, span: Span) -> Option<Vec<Value>> {
        let max_len = self.int_cut().1.to_usize().unwrap_or(0);
        self.sequences_up_to(domain, span, max_len)
            .map(|(items, _)| items)
    }

    /// The least upper bound on `size(name)` stated by a conjunct whose other side is known:
    /// `size(x) <= E`, `size(x) < E`, `size(x) : a..b`.
    fn size_bound(&self, s: &Search<'_>, name: &str, env: &mut Env) -> Option<usize> {
        let is_size = |e: &Expr| {
            matches!(&e.kind, ExprKind::Unary(crate::ir::UnaryOp::Size, x)
                if matches!(&x.kind, ExprKind::Var(n) if &**n == name))
        };
        let mut best: Option<usize> = None;
        for conj in &s.conjuncts {
            let PredKind::Compare(op, l, r) = &conj.kind else {
                continue;
            };
            if !is_size(l) || mentions(r, name) {
                continue;
            }
            let mut names = FxHashSet::default();
            expr_names(r, &mut names);
            if s.vars
                .iter()
                .enumerate()
                .any(|(j, v)| !s.bound[j] && names.contains(&*v.name))
            {
                continue;
            }
            let Ok(bound) = self.eval(r, env) else {
                continue;
            };
            let hi = match (op, &bound) {
                (CompareOp::Le, Val::Value(Value::Int(n))) => n.clone(),
                (CompareOp::Lt, Val::Value(Value::Int(n))) => n.pred(),
                (CompareOp::In, Val::Sym(sym)) => match &**sym {
                    SymbolicSet::Interval(_, Some(b)) => b.clone(),
                    _ => continue,
                },
                (CompareOp::In, Val::Value(Value::Set(items))) => match items.last() {
                    Some(Value::Int(b)) => b.clone(),
                    _ => continue,
                },
                _ => continue,
            };
            let hi = if hi.is_negative() { 0 } else { hi.to_usize()? };
            best = Some(best.map_or(hi, |b| b.min(hi)));
        }
        best
    }

    /// How many values `short_sequences` lists for `domain` (None: not a `seq(S)` of a finite S).
    pub(crate) fn short_sequence_count(&self, domain: &Val, span: Span) -> Option<usize> {
        let (kind, base) = sequence_domain(domain)?;
        let n = self.materialize(base, span).ok()?.len();
        let max_len = self.int_cut().1.to_usize().unwrap_or(0);
        let limit = self.settings().enumeration_limit;
        let first = usize::from(kind == crate::ir::UnaryOp::Seq1);
        let (mut count, mut layer) = (0usize, 1usize);
        for len in 0..=max_len {
            if len >= first {
                count = count.saturating_add(layer);
            }
            layer = layer.saturating_mul(n);
        }
        Some(count.min(limit))
    }

    /// The sequences of `seq(S)`/`seq1(S)` (S finite) of length at most `max_len`, at most
    /// `enumeration_limit` of them, and whether that is all of them.
    pub(crate) fn sequences_up_to(
        &self,
        domain: &Val,
        span: Span,
        max_len: usize,
    ) -> Option<(Vec<Value>, bool)> {
        let (kind, base) = sequence_domain(domain)?;
        let base = self.materialize(base, span).ok()?;
        let limit = self.settings().enumeration_limit;
        let mut out = Vec::new();
        let mut layer: Vec<Vec<Value>> = vec![Vec::new()];
        for len in 0..=max_len {
            if len > 0 || kind == crate::ir::UnaryOp::Seq {
                for sq in &layer {
                    out.push(Value::sequence(sq.clone()));
                }
            }
            if len == max_len {
                break;
            }
            if out.len() + layer.len().saturating_mul(base.len()) > limit {
                return Some((out, false));
            }
            layer = layer
                .iter()
                .flat_map(|sq| {
                    base.iter().map(move |x| {
                        let mut next = sq.clone();
                        next.push(x.clone());
                        next
                    })
                })
                .collect();
        }
        Some((out, true))
    }

    /// The pattern of a maplet expression whose leaves are unbound search variables or evaluable
    /// expressions (`None` if a leaf depends on an unbound variable or fails to evaluate).
    fn build_pattern(&self, e: &Expr, s: &Search<'_>, env: &mut Env) -> Option<Pattern> {
        if let ExprKind::Var(n) = &e.kind
            && let Some(j) = s.vars.iter().position(|v| v.name == *n)
            && !s.bound[j]
        {
            return Some(Pattern::Bind(j));
        }
        if let ExprKind::Binary(BinaryOp::Maplet, a, b) = &e.kind {
            return Some(Pattern::Pair(
                Box::new(self.build_pattern(a, s, env)?),
                Box::new(self.build_pattern(b, s, env)?),
            ));
        }
        if let ExprKind::Binary(BinaryOp::Concat, a, b) = &e.kind {
            let unbound = |x: &Expr| match &x.kind {
                ExprKind::Var(n) => s
                    .vars
                    .iter()
                    .position(|v| v.name == *n)
                    .filter(|&j| !s.bound[j]),
                _ => None,
            };
            let mut known = |x: &Expr| self.known_value(x, s, env)?.as_sequence();
            if let Some(j) = unbound(b)
                && let Some(prefix) = known(a)
            {
                return Some(Pattern::AfterPrefix(prefix, j));
            }
            if let Some(j) = unbound(a)
                && let Some(suffix) = known(b)
            {
                return Some(Pattern::BeforeSuffix(j, suffix));
            }
        }
        self.known_value(e, s, env).map(Pattern::Fixed)
    }

    /// The value of `e` when it mentions no unbound search variable and evaluates to a plain value.
    fn known_value(&self, e: &Expr, s: &Search<'_>, env: &mut Env) -> Option<Value> {
        let mut names = FxHashSet::default();
        expr_names(e, &mut names);
        if (0..s.vars.len()).any(|j| !s.bound[j] && names.contains(&*s.vars[j].name)) {
            return None;
        }
        match self.eval(e, env) {
            Ok(Val::Value(v)) => Some(v),
            _ => None,
        }
    }

    /// The only values of integer variable `name` at which `claim` can be false, when the claim is a
    /// conjunction of `E /: S` with S finite and free of the variable, and E a tuple with a component
    /// linear in it (`(p + i, q) /: board`): a counterexample puts some E into its S, and each element of
    /// S fixes the variable through that component. None when the claim is of another shape.
    pub(crate) fn refuting_values(
        &self,
        name: &str,
        claim: &Pred,
        env: &mut Env,
    ) -> Option<Vec<Value>> {
        let mut out = Vec::new();
        for c in claim.conjuncts() {
            let PredKind::Not(inner) = &c.kind else {
                return None;
            };
            let PredKind::Compare(CompareOp::In, e, s) = &inner.kind else {
                return None;
            };
            if mentions(s, name) {
                return None;
            }
            let mut components = Vec::new();
            tuple_components(e, &mut components);
            let (k, component) = components
                .iter()
                .enumerate()
                .find(|(_, x)| mentions(x, name))?;
            let set = self.eval(s, env).ok()?;
            let items = self.materialize(&set, c.span).ok()?;
            for item in items.iter() {
                let parts = super::symbolic::destructure(item, components.len())?;
                let target = match &parts[k] {
                    Value::Int(n) => Expr::new(ExprKind::Int(n.to_bigint()), Type::Integer, c.span),
                    _ => return None,
                };
                out.extend(
                    self.integer_solutions(component, &target, name, &[], env)?
                        .values,
                );
            }
        }
        out.sort();
        out.dedup();
        Some(out)
    }

    /// The integer solutions of `l = r` for the variable `name` when both sides are polynomials in it
    /// (`2 * c + 1 = 7`, `x * x * x = 27000`), reading applications of one-parameter lambdas through
    /// their bodies (`f(f(x)) = 1000` with `f = %x.(x : INTEGER | x + x)`) and the other unknowns in
    /// `definitions` through their defining expressions. None when the equation is not of that shape,
    /// holds for every value, or its roots cannot be found exactly. Every solution of the equation is
    /// among the values; with a lambda read through, not every value need be one (its domain was not
    /// checked), so `by_arithmetic` is false and the equation must still be evaluated.
    fn integer_solutions(
        &self,
        l: &Expr,
        r: &Expr,
        name: &str,
        definitions: &[(Name, &Expr)],
        env: &mut Env,
    ) -> Option<IntegerSolutions> {
        let mut names = vec![(Name::from(name), Reading::Poly(Polynomial::unknown()))];
        names.extend(
            definitions
                .iter()
                .map(|(n, e)| (n.clone(), Reading::Defined(e))),
        );
        let mut scope = PolynomialScope {
            base: names.len(),
            names,
            through_closure: !definitions.is_empty(),
        };
        let left = self.polynomial_form(l, &mut scope, env)?;
        let right = self.polynomial_form(r, &mut scope, env)?;
        let difference = left.sub(&right);
        // An equation that does not depend on the unknown once read through a lambda (whose domain was
        // not checked) may be ill-defined rather than false: no answer then.
        if scope.through_closure && difference.is_constant() {
            return None;
        }
        let roots = difference.integer_roots()?;
        Some(IntegerSolutions {
            values: roots.into_iter().map(Value::Int).collect(),
            by_arithmetic: !scope.through_closure,
        })
    }

    /// `e` as a polynomial in the unknown of `scope`, if it is one.
    fn polynomial_form<'e>(
        &self,
        e: &'e Expr,
        scope: &mut PolynomialScope<'e>,
        env: &mut Env,
    ) -> Option<Polynomial> {
        if !scope.mentioned_in(e) {
            return match self.eval(e, env) {
                Ok(Val::Value(Value::Int(c))) => Some(Polynomial::constant(c)),
                _ => None,
            };
        }
        match &e.kind {
            ExprKind::Var(n) => match scope.lookup(n)? {
                Reading::Poly(p) => Some(p.clone()),
                Reading::Defined(d) => {
                    let d = *d;
                    scope.outside_lambdas(|scope| self.polynomial_form(d, scope, env))
                }
            },
            ExprKind::Unary(crate::ir::UnaryOp::Neg, x) => {
                Some(self.polynomial_form(x, scope, env)?.neg())
            }
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), x, y) => {
                let p = self.polynomial_form(x, scope, env)?;
                let q = self.polynomial_form(y, scope, env)?;
                match op {
                    BinaryOp::Add => Some(p.add(&q)),
                    BinaryOp::Sub => Some(p.sub(&q)),
                    _ => p.mul(&q),
                }
            }
            ExprKind::Binary(BinaryOp::Power, x, k) if !scope.mentioned_in(k) => {
                let k = match self.eval(k, env) {
                    Ok(Val::Value(Value::Int(k))) => k.to_u32()?,
                    _ => return None,
                };
                self.polynomial_form(x, scope, env)?.pow(k)
            }
            ExprKind::Binary(BinaryOp::Apply, f, x) => {
                scope.through_closure = true;
                self.applied_polynomial(f, x, scope, env)
            }
            _ => None,
        }
    }

    /// `f(x)` as a polynomial: f a one-parameter lambda written in place, defined by an equation
    /// (`Reading::Defined`), or the value of f (a lambda kept symbolic), its body read with the
    /// parameter standing for x's polynomial.
    fn applied_polynomial<'e>(
        &self,
        f: &'e Expr,
        x: &'e Expr,
        scope: &mut PolynomialScope<'e>,
        env: &mut Env,
    ) -> Option<Polynomial> {
        let (lambda, defined) = match &f.kind {
            ExprKind::Var(n) if scope.mentioned_in(f) => match scope.lookup(n)? {
                Reading::Defined(d) => (*d, true),
                Reading::Poly(_) => return None,
            },
            _ => (f, false),
        };
        if let ExprKind::Binder(crate::ir::BinderKind::Lambda, params, _, body) = &lambda.kind {
            let [param] = &params[..] else {
                return None;
            };
            let argument = self.polynomial_form(x, scope, env)?;
            let read_body = |scope: &mut PolynomialScope<'e>| {
                scope
                    .names
                    .push((param.name.clone(), Reading::Poly(argument)));
                let p = self.polynomial_form(body, scope, env);
                scope.names.pop();
                p
            };
            // A definition's lambda is read where the definition was written.
            return if defined {
                scope.outside_lambdas(read_body)
            } else {
                read_body(scope)
            };
        }
        if scope.mentioned_in(f) {
            return None;
        }
        let Ok(Val::Sym(closure)) = self.eval(f, env) else {
            return None;
        };
        let SymbolicSet::Lambda {
            vars: params,
            body,
            env: closure_env,
            ..
        } = &*closure
        else {
            return None;
        };
        let [param] = &params[..] else {
            return None;
        };
        let argument = self.polynomial_form(x, scope, env)?;
        let mut inner = PolynomialScope {
            names: vec![(param.name.clone(), Reading::Poly(argument))],
            base: 1,
            through_closure: true,
        };
        self.polynomial_form(body, &mut inner, &mut closure_env.clone())
    }

    /// All values of a type, and whether that is really all of them (INTEGER is cut to MININT..MAXINT,
    /// STRING to nothing).
    pub(crate) fn type_values(
        &self,
        ty: &Type,
        span: Span,
    ) -> Result<(Arc<Vec<Value>>, bool), EvalError> {
        let limit = self.settings().enumeration_limit;
        let too_large = || limit_error(span, format!("the type {ty} has more than {limit} values"));
        Ok(match ty {
            Type::Integer => {
                let (lo, hi) = self.int_cut();
                if hi.sub(&lo).to_usize().is_none_or(|n| n >= limit) {
                    return Err(too_large());
                }
                match Value::interval(&lo, &hi) {
                    Value::Set(v) => (v, false),
                    _ => unreachable!("interval builds a set"),
                }
            }
            Type::Bool => (Arc::new(vec![Value::Bool(false), Value::Bool(true)]), true),
            Type::String => (Arc::new(Vec::new()), false),
            // A TLA+ value of mixed kind is enumerated only from the values a predicate gives, as TLC
            // does: the type itself is too large (every integer and string) to list.
            Type::TlaValue => return Err(too_large()),
            Type::Given(name) => (self.given_set(name, span)?, true),
            Type::Set(inner) => {
                let (items, complete) = self.type_values(inner, span)?;
                let subsets = set::power_set(&items, 0, limit).ok_or_else(too_large)?;
                (Arc::new(subsets), complete)
            }
            Type::Pair(a, b) => {
                let (a, ca) = self.type_values(a, span)?;
                let (b, cb) = self.type_values(b, span)?;
                if a.len().saturating_mul(b.len()) > limit {
                    return Err(too_large());
                }
                (Arc::new(set::product(&a, &b)), ca && cb)
            }
            Type::Struct(fields) => {
                let mut complete = true;
                let mut field_values = Vec::with_capacity(fields.len());
                for (name, t) in fields {
                    let (items, c) = self.type_values(t, span)?;
                    complete &= c;
                    field_values.push((name.clone(), items));
                }
                let values = set::records(&field_values, limit).ok_or_else(too_large)?;
                (Arc::new(values), complete)
            }
            Type::Var(_) => return Err(super::internal_error(span, "untyped variable")),
        })
    }

    /// A type as a set (symbolic when infinite): INTEGER, STRING, `POW(T)`, products, structs.
    pub(crate) fn type_set(&self, ty: &Type, span: Span) -> Result<Val, EvalError> {
        let sym = |s: SymbolicSet| Ok(Val::Sym(Arc::new(s)));
        match ty {
            Type::Integer => sym(SymbolicSet::Interval(None, None)),
            Type::String => sym(SymbolicSet::Strings),
            Type::Set(inner) => sym(SymbolicSet::PowerSet {
                base: self.type_set(inner, span)?,
                non_empty: false,
            }),
            Type::Pair(a, b) => sym(SymbolicSet::Product(
                self.type_set(a, span)?,
                self.type_set(b, span)?,
            )),
            Type::Struct(fields) => {
                let fields = fields
                    .iter()
                    .map(|(n, t)| Ok((n.clone(), self.type_set(t, span)?)))
                    .collect::<Result<Vec<_>, EvalError>>()?;
                sym(SymbolicSet::Struct(fields))
            }
            _ => Ok(Val::Value(Value::Set(self.type_values(ty, span)?.0))),
        }
    }
}

/// The elements `e1..en` of a conjunct `card({e1, ..., en}) = n` (either side).
fn distinct_elements(p: &Pred) -> Option<Vec<&Expr>> {
    let PredKind::Compare(CompareOp::Eq, l, r) = &p.kind else {
        return None;
    };
    for (a, b) in [(l, r), (r, l)] {
        if let ExprKind::Unary(crate::ir::UnaryOp::Card, set) = &a.kind
            && let ExprKind::SetEnum(items) = &set.kind
            && let ExprKind::Int(n) = &b.kind
            && *n == num_bigint::BigInt::from(items.len())
        {
            return Some(items.iter().collect());
        }
    }
    None
}

fn type_mentions(ty: &Type, set: &str) -> bool {
    match ty {
        Type::Given(n) => &**n == set,
        Type::Set(t) => type_mentions(t, set),
        Type::Pair(a, b) => type_mentions(a, set) || type_mentions(b, set),
        Type::Struct(fields) => fields.iter().any(|(_, t)| type_mentions(t, set)),
        _ => false,
    }
}

/// Whether `type_values` lists every value of the type (no INTEGER or STRING inside).
fn type_is_enumerable(ty: &Type) -> bool {
    match ty {
        Type::Integer | Type::String | Type::TlaValue | Type::Var(_) => false,
        Type::Bool | Type::Given(_) => true,
        Type::Set(t) => type_is_enumerable(t),
        Type::Pair(a, b) => type_is_enumerable(a) && type_is_enumerable(b),
        Type::Struct(fields) => fields.iter().all(|(_, t)| type_is_enumerable(t)),
    }
}

/// The values `Context::integer_solutions` found for a variable.
struct IntegerSolutions {
    values: Vec<Value>,
    /// Whether only arithmetic was read (no lambda, no definition): then every value solves the
    /// equation, which need not be evaluated again.
    by_arithmetic: bool,
}

/// How an identifier is read in `Context::polynomial_form`.
enum Reading<'e> {
    /// As this polynomial in the unknown: the unknown itself, a lambda's parameter.
    Poly(Polynomial),
    /// As this expression: an unbound search variable fixed by a conjunct `v = E`.
    Defined(&'e Expr),
}

/// The identifiers `Context::polynomial_form` reads specially, innermost last.
struct PolynomialScope<'e> {
    names: Vec<(Name, Reading<'e>)>,
    /// How many entries are the unknown and the definitions (the rest are lambda parameters).
    base: usize,
    /// Whether an application or a definition was read through.
    through_closure: bool,
}

impl<'e> PolynomialScope<'e> {
    fn lookup(&self, name: &str) -> Option<&Reading<'e>> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| &**n == name)
            .map(|(_, r)| r)
    }

    fn mentioned_in(&self, e: &Expr) -> bool {
        crate::ir::free_names::expr_mentions(e, &|n| self.names.iter().any(|(m, _)| m == n))
    }

    /// Runs `read` with the lambda parameters bound since the base out of scope: a definition is read
    /// where it was written, where they do not exist.
    fn outside_lambdas<R>(&mut self, read: impl FnOnce(&mut Self) -> R) -> R {
        let parameters = self.names.split_off(self.base);
        let r = read(self);
        self.names.extend(parameters);
        r
    }
}

/// For each unbound search variable other than `i` that conjunct `c` mentions, its defining conjunct
/// `v = E` (not c) with E free of v and of every unbound search variable but `i`: the definitions
/// `Context::integer_solutions` reads `c` through. None when one of them has no such definition.
fn definitions_in_terms_of<'p>(
    s: &Search<'p>,
    c: usize,
    i: usize,
) -> Option<Vec<(Name, &'p Expr)>> {
    let mut out = Vec::new();
    for &j in &s.mentions[c] {
        if j == i || s.bound[j] {
            continue;
        }
        let name = &s.vars[j].name;
        let definition = s.conjuncts.iter().enumerate().find_map(|(d, conj)| {
            let PredKind::Compare(CompareOp::Eq, l, r) = &conj.kind else {
                return None;
            };
            let others_bound = s.mentions[d]
                .iter()
                .all(|&k| k == i || k == j || s.bound[k]);
            if d == c || !others_bound {
                return None;
            }
            [(l, r), (r, l)].into_iter().find_map(|(v, e)| {
                let defines = matches!(&v.kind, ExprKind::Var(n) if n == name)
                    && !crate::ir::free_names::expr_mentions(e, &|n| n == name);
                defines.then_some(&**e)
            })
        })?;
        out.push((name.clone(), definition));
    }
    Some(out)
}

fn tighten_lo(v: Int, c: usize, lo: &mut Option<(Int, usize)>) {
    if lo.as_ref().is_none_or(|(l, _)| *l < v) {
        *lo = Some((v, c));
    }
}

impl Search<'_> {
    /// How many not-yet-checked conjuncts (besides those the choice satisfies by construction) become
    /// checkable once the choice's variables are bound.
    fn prunes(&self, choice: &Choice) -> usize {
        (0..self.conjuncts.len())
            .filter(|c| !self.checked[*c] && !choice.covered.contains(c))
            .filter(|&c| {
                let m = &self.mentions[c];
                m.iter().any(|j| choice.vars.contains(j))
                    && m.iter().all(|j| self.bound[*j] || choice.vars.contains(j))
            })
            .count()
    }

    /// Conjuncts not yet checked whose variables are all bound.
    fn newly_ready(&self) -> Vec<usize> {
        (0..self.conjuncts.len())
            .filter(|&c| !self.checked[c] && self.mentions[c].iter().all(|&j| self.bound[j]))
            .collect()
    }
}

/// A maplet pattern `x |-> (E |-> y)`: unbound search variables bind, other leaves must equal their value.
enum Pattern {
    Bind(usize),
    Fixed(Value),
    Pair(Box<Pattern>, Box<Pattern>),
    /// `E ^ x` with E a known sequence: x is what follows E in a sequence beginning with it.
    AfterPrefix(Vec<Value>, usize),
    /// `x ^ E` with E a known sequence: x is what precedes E in a sequence ending with it.
    BeforeSuffix(usize, Vec<Value>),
}

impl Pattern {
    fn binders(&self, out: &mut Vec<usize>) {
        match self {
            Pattern::Bind(i) | Pattern::AfterPrefix(_, i) | Pattern::BeforeSuffix(i, _) => {
                out.push(*i)
            }
            Pattern::Fixed(_) => {}
            Pattern::Pair(a, b) => {
                a.binders(out);
                b.binders(out);
            }
        }
    }

    /// Whether `v` matches; pushes the values of the binders (in `binders` order).
    fn matches(&self, v: &Value, out: &mut Vec<Value>) -> bool {
        match self {
            Pattern::Bind(_) => {
                out.push(v.clone());
                true
            }
            Pattern::Fixed(x) => x == v,
            Pattern::Pair(a, b) => match v.as_pair() {
                Some((x, y)) => a.matches(x, out) && b.matches(y, out),
                None => false,
            },
            Pattern::AfterPrefix(prefix, _) => match v.as_sequence() {
                Some(items) if items.starts_with(prefix) => {
                    out.push(Value::sequence(items[prefix.len()..].to_vec()));
                    true
                }
                _ => false,
            },
            Pattern::BeforeSuffix(_, suffix) => match v.as_sequence() {
                Some(items) if items.ends_with(suffix) => {
                    out.push(Value::sequence(
                        items[..items.len() - suffix.len()].to_vec(),
                    ));
                    true
                }
                _ => false,
            },
        }
    }
}

/// Where `pred_names`/`expr_names` put the identifiers they meet.
pub(crate) trait NameSink<'a> {
    fn add(&mut self, name: &'a str);
}

impl<'a> NameSink<'a> for FxHashSet<&'a str> {
    fn add(&mut self, name: &'a str) {
        self.insert(name);
    }
}

/// The components of a left-nested maplet `((a |-> b) |-> c)`, in order.
fn tuple_components<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Maplet, a, b) => {
            tuple_components(a, out);
            out.push(b);
        }
        _ => out.push(e),
    }
}

/// Whether `name` occurs free in `e`. Exactly: an occurrence bound inside `e` (`{c | c : S}` within
/// `{c . c : {c | c : S} | E}`) is another variable, and counting it would keep a domain that does not
/// depend on `name` from bounding it.
pub(crate) fn mentions(e: &Expr, name: &str) -> bool {
    crate::ir::free_names::expr_mentions(e, &|n| **n == *name)
}

/// Whether `name` occurs free in `p` (exactly, as `mentions`).
pub(crate) fn pred_mentions(p: &Pred, name: &str) -> bool {
    crate::ir::free_names::pred_mentions(p, &|n| **n == *name)
}

/// Every identifier occurring in a predicate (an over-approximation of its free variables: inner binders
/// are not subtracted, which can only delay a check).
pub(crate) fn pred_names<'p>(p: &'p Pred, out: &mut impl NameSink<'p>) {
    match &p.kind {
        PredKind::True | PredKind::False => {}
        PredKind::And(ps) | PredKind::Or(ps) => ps.iter().for_each(|q| pred_names(q, out)),
        PredKind::Implies(a, b) | PredKind::Equiv(a, b) => {
            pred_names(a, out);
            pred_names(b, out);
        }
        PredKind::Not(a) => pred_names(a, out),
        PredKind::Forall(_, a) | PredKind::Exists(_, a) => pred_names(a, out),
        PredKind::Compare(_, a, b) => {
            expr_names(a, out);
            expr_names(b, out);
        }
        PredKind::If(a, b, c) => {
            pred_names(a, out);
            pred_names(b, out);
            pred_names(c, out);
        }
        PredKind::Let(binds, body) => {
            binds.iter().for_each(|(_, e)| expr_names(e, out));
            pred_names(body, out);
        }
    }
}

pub(crate) fn expr_names<'e>(e: &'e Expr, out: &mut impl NameSink<'e>) {
    match &e.kind {
        ExprKind::Var(n) => out.add(n),
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Const(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Field(a, _) => expr_names(a, out),
        ExprKind::Binary(_, a, b) => {
            expr_names(a, out);
            expr_names(b, out);
        }
        ExprKind::SetEnum(es) | ExprKind::SeqEnum(es) => es.iter().for_each(|x| expr_names(x, out)),
        ExprKind::Comprehension(_, p) => pred_names(p, out),
        ExprKind::Binder(_, _, p, body) => {
            pred_names(p, out);
            expr_names(body, out);
        }
        ExprKind::Record(fs) | ExprKind::Struct(fs) => {
            fs.iter().for_each(|(_, x)| expr_names(x, out))
        }
        ExprKind::BoolOf(p) => pred_names(p, out),
        ExprKind::If(p, a, b) => {
            pred_names(p, out);
            expr_names(a, out);
            expr_names(b, out);
        }
        ExprKind::Let(binds, body) => {
            binds.iter().for_each(|(_, x)| expr_names(x, out));
            expr_names(body, out);
        }
    }
}

/// Variable `i`'s candidates listed from a conjunct that is still to be checked for each of them.
fn listed_choice(i: usize, values: Vec<Value>) -> Choice {
    Choice {
        vars: vec![i],
        size: values.len(),
        candidates: Candidates::Set(Arc::new(values)),
        covered: Vec::new(),
        rank: 1,
        complete: true,
    }
}

/// `{y | Q}` from a conjunct `!y.(y : s => Q)` (or `!(a,b).(a |-> b : s => Q)`) over set variable `s` of
/// type `ty`, Q free of s: every element of s satisfies Q, so s is a subset of it — a domain where the
/// type alone (POW(INTEGER)) has none. Translators write set equalities this way, each inclusion a
/// universal (ProB's SMT-LIB export: B/CBC/Tests/Z3_Override_Test.mch).
fn universal_superset(conj: &Pred, s: &Name, ty: &Type) -> Option<Expr> {
    let PredKind::Forall(bound, body) = &conj.kind else {
        return None;
    };
    let PredKind::Implies(member, claim) = &body.kind else {
        return None;
    };
    let PredKind::Compare(CompareOp::In, element, set) = &member.kind else {
        return None;
    };
    let is_bound = |e: &Expr, k: usize| matches!(&e.kind, ExprKind::Var(n) if bound.get(k).is_some_and(|b| &b.name == n));
    let element_is_bound_tuple = match (&element.kind, bound.len()) {
        (ExprKind::Var(_), 1) => is_bound(element, 0),
        (ExprKind::Binary(BinaryOp::Maplet, a, b), 2) => is_bound(a, 0) && is_bound(b, 1),
        _ => false,
    };
    let over_s = matches!(&set.kind, ExprKind::Var(n) if n == s);
    (element_is_bound_tuple && over_s && !pred_mentions(claim, s)).then(|| Expr {
        kind: ExprKind::Comprehension(Arc::new(bound.clone()), Arc::new((**claim).clone())),
        ty: ty.clone(),
        span: conj.span,
    })
}

/// Keeps in `best` the choice with fewer candidates.
fn keep_smaller(best: &mut Option<Choice>, choice: Choice) {
    if best.as_ref().is_none_or(|b| choice.size < b.size) {
        *best = Some(choice);
    }
}

/// `seq(S)` or `seq1(S)`: which, and S.
fn sequence_domain(domain: &Val) -> Option<(crate::ir::UnaryOp, &Val)> {
    let Val::Sym(sym) = domain else {
        return None;
    };
    match &**sym {
        SymbolicSet::Sequences(
            kind @ (crate::ir::UnaryOp::Seq | crate::ir::UnaryOp::Seq1),
            base,
        ) => Some((*kind, base)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{empty_machine, truth};

    #[test]
    fn a_size_conjunct_picks_the_split_of_a_concatenation() {
        let model = empty_machine("concat");
        for (text, expected) in [
            // CardTrick's quartets: [1,2,3,4,2,1,4,3] is two permutations of 1..4.
            (
                "#(a, b).([1,2,3,4,2,1,4,3] = a ^ b & size(a) = 4 & size(b) = 4 & a : perm(1..4) \
                 & b : perm(1..4))",
                true,
            ),
            (
                "#(a, b).([1,2,3,3,2,1,4,4] = a ^ b & size(a) = 4 & a : perm(1..4) & b : perm(1..4))",
                false,
            ),
            // The size given by a bound variable, and a size longer than the sequence.
            (
                "#(n, a, b).(n = 2 & [5,6,7] = a ^ b & size(a) = n & b = [7])",
                true,
            ),
            ("#(a, b).([5,6,7] = a ^ b & size(a) = 4)", false),
            ("#(a, b).([5,6,7] = a ^ b & 3 = size(a) & b = [])", true),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn a_bound_name_reused_inside_its_own_domain_is_another_variable() {
        // The inner `c` of `{c | ...}` is not the outer one: the domain `{c | c : 1..4 & c > 1}` does not
        // depend on the outer `c`, so it bounds it.
        let model = empty_machine("rebound");
        for (text, expected) in [
            (
                "UNION(c).(c : {c | c : 1..4 & c > 1} | {[c]}) = {[2], [3], [4]}",
                true,
            ),
            ("#c.(c : {c | c : 1..4 & c > 3} & c < 4)", false),
            ("!c.(c : {c | c : 1..4 & c > 1} => c > 1)", true),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn a_universal_inclusion_bounds_a_set_of_integers() {
        // POW(INTEGER) cannot be enumerated: `!y.(y : s => Q)` makes s a subset of {y | Q}.
        let model = empty_machine("inclusion");
        for (text, expected) in [
            ("#s.(2 : s & !y.(y : s => y * y = 4 & y > 0))", true),
            ("#s.(3 : s & !y.(y : s => y * y = 4))", false),
            // Both inclusions: the set is defined (the shape of translated set equalities).
            (
                "#s.(!y.(y : s => #z.(y |-> z = 2 |-> 3)) & !y.(#z.(y |-> z = 2 |-> 3) => y : s) \
                 & s = {2})",
                true,
            ),
            (
                "#t.(!(a, b).(a |-> b : t => a |-> b : {1 |-> 2, 5 |-> 6} & a < 3) & card(t) = 1)",
                true,
            ),
            (
                "#t.(!(a, b).(a |-> b : t => a |-> b : {1 |-> 2, 5 |-> 6} & a < 3) & card(t) = 2)",
                false,
            ),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
        // An infinite {y | Q} gives no domain: whatever decides it then must not say FALSE.
        assert_ne!(
            truth(&model, "#s.(3 : s & !y.(y : s => y * y >= 4))"),
            Ok(false)
        );
    }

    #[test]
    fn disjunctions_of_memberships_give_their_variables_a_domain() {
        // STRING cannot be enumerated: the candidates come from the alternatives' memberships.
        let model = empty_machine("alternatives");
        for (text, expected) in [
            (
                "{a, b | ((a, b) : {1 |-> \"x\", 2 |-> \"y\"} & a /: {1}) or (a, b) : {3 |-> \"z\"}} \
                 = {2 |-> \"y\", 3 |-> \"z\"}",
                true,
            ),
            (
                "{a, b | (a, b) : {1 |-> \"x\"} or (a, b) : {1 |-> \"x\", 4 |-> \"w\"}} \
                 = {1 |-> \"x\", 4 |-> \"w\"}",
                true,
            ),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
        // An alternative without such a membership: no domain, an honest error.
        assert!(truth(&model, "{a | a : {\"x\"} or a /= \"y\"} = {}").is_err());
    }

    #[test]
    fn equations_through_lambdas_and_definitions_pin_integers() {
        let model = empty_machine("polynomials");
        for (text, expected) in [
            // f is bound first (the lambda's own `x` is not the searched x), then x solves 8x = 1000.
            (
                "#(f,x).(f : POW(INTEGER * INTEGER) & x : INTEGER & f = %x.(x : INTEGER | x + x) \
                 & f(f(f(x))) = 1000)",
                true,
            ),
            (
                "#(f,x).(f : POW(INTEGER * INTEGER) & x : INTEGER & f = %x.(x : INTEGER | x + x) \
                 & f(f(f(f(x)))) = 1000)",
                false,
            ),
            // x^9 = 2^27 has the root 8; 134217721 is no ninth power.
            (
                "#(f,x).(f = %x.(x : INTEGER | x * x * x) & f(f(x)) = 134217728)",
                true,
            ),
            (
                "#(f,x).(f = %x.(x : INTEGER | x * x * x) & f(f(x)) = 134217721)",
                false,
            ),
            ("{x | x : INTEGER & x * x * x - x = 0} = {-1, 0, 1}", true),
            ("{x | x : INTEGER & x ** 2 = 10000} = {-100, 100}", true),
            // The lambda's domain is still checked: -4 is a root, not a member.
            (
                "{x | x : NATURAL & %y.(y : NATURAL | y * y)(x) = 16} = {4}",
                true,
            ),
            // f is defined in terms of c: the equation read through the definition pins c down.
            (
                "#(f,c).(f : POW(INTEGER * INTEGER) & f = %x.(x : INTEGER | x + c) & c : NATURAL \
                 & f(10) + f(9) = 129)",
                true,
            ),
            (
                "#(f,c).(f = %x.(x : INTEGER | x + c) & c : NATURAL & f(0) * f(2) = 120 & c = 10)",
                true,
            ),
            (
                "#(f,c).(f = %x.(x : INTEGER | x + c) & c : NATURAL & f(0) * f(2) = 120 & c /= 10)",
                false,
            ),
            // c^2 + 2c = 121 has no integer solution.
            (
                "#(f,c).(f = %x.(x : INTEGER | x + c) & c : NATURAL & f(0) * f(2) = 121)",
                false,
            ),
            (
                "#(f,y).(f : POW(INTEGER * INTEGER) & y : INTEGER & f = %x.(x : INTEGER | x + y) \
                 & f(5) = 1005 & y = 1000)",
                true,
            ),
        ] {
            assert_eq!(truth(&model, text), Ok(expected), "{text}");
        }
    }
}
