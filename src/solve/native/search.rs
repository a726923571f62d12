//! Depth-first search with propagation: choose the unfixed atom with the smallest domain (first fail),
//! try its candidates in order (integer intervals too wide to enumerate are split in halves), propagate
//! after each choice, and report every assignment whose constraints all hold.
//!
//! Domains are saved whole at each choice point (they are `Arc`-shared, so a save is cheap) and restored
//! on backtracking. Open integer intervals the propagation could not bound are labelled within
//! MININT..MAXINT, which makes the search incomplete (`incomplete`), exactly as ProB's enumeration warning.

use super::abs::{Abs, OPERANDS};
use super::domain::Dom;
use super::model::{AtomId, Model, Shape, VarId};
use super::small_values;
use super::symmetry::Symmetry;
use crate::eval::{Context, Env, EvalError};
use crate::ir::{BinaryOp, CompareOp, Expr, ExprKind, Pred, PredKind, free_names};
use crate::types::Type;
use crate::value::{Int, Value};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Finite domains at most this large are filtered value by value when a constraint has one unfixed atom.
const FILTER_LIMIT: u64 = 1024;
/// The same before the first choice, once per constraint: a wide domain a constraint thins out (`nr(i)`
/// in 1..2048 with `#j.(j : 1..11 & nr(i) = 2**j)`) is cut to its few values before labelling tries them
/// one by one.
const ROOT_FILTER_LIMIT: u64 = 4096;

pub(crate) struct Solver<'a, 'p> {
    pub ctx: &'a Context,
    pub model: &'a Model<'p>,
    pub doms: Vec<Dom>,
    /// The problem's environment plus the current constraint's bindings and fixed variables.
    pub scratch: Env,
    base_len: usize,
    /// Search variables free in an expression or predicate (by node address), for the fixedness test.
    free_cache: FxHashMap<usize, Arc<[VarId]>>,
    /// Names the current constraint binds (they shadow search variables).
    shadowed: Vec<crate::syntax::ast::Name>,
    pub incomplete: bool,
    /// The first well-definedness error met on a candidate (counted as no solution): a search that
    /// finds nothing is then not a proof that the predicate has no solution, but of an ill-defined one.
    pub ill_defined: Option<crate::diag::Diagnostic>,
    /// Per variable, whether it is fixed, for the variables of the constraint being evaluated.
    fixed_vars: Vec<Option<bool>>,
    /// The variables `fixed_vars` is set for.
    entered: Vec<VarId>,
    /// Variables fixed before the search (bound in the base environment).
    pub(crate) root_fixed: Vec<bool>,
    /// The constraint being evaluated.
    current: usize,
    /// Values of constant sub-expressions per constraint (see `cached_constant`).
    constants: FxHashMap<(usize, usize), Abs>,
    /// Truth of constant sub-predicates per constraint.
    constant_truths: FxHashMap<(usize, usize), super::abs::Tri>,
    /// The names `abs_by_children` binds operand values to.
    pub operands: [crate::syntax::ast::Name; 2],
    pub symmetry: Option<Symmetry>,
    pub nodes: u64,
    /// Complete assignments reached (solutions before projection and re-checking).
    leaves: u64,
    /// Whether this is a user's question (not a model-checking choice): atoms of set types too large to
    /// list may try their smallest subsets, and half-open integers search a window from their known end
    /// (both incomplete).
    pub guess_small_sets: bool,
    /// How many SIGMA / card binders are being expanded (their points are bound in `scratch`, so the
    /// per-constraint constant caches do not apply).
    pub binder_depth: u32,
    /// Per distinct group, its values and domains as bits (see `alldiff::hall`).
    pub(crate) group_bits: FxHashMap<usize, super::alldiff::GroupBits>,
    /// Points of binders per constraint and node (see `linear::binder_points`).
    pub binder_cache: FxHashMap<(usize, usize), Option<super::linear::BinderPoints>>,
    /// The variable whose candidate's check was cut (`propagate_guess`), while the search backs up
    /// past its choices.
    cut_var: Option<VarId>,
}

/// Why propagation stopped.
pub(crate) enum Propagation {
    Consistent,
    Failed,
}

impl<'a, 'p> Solver<'a, 'p> {
    pub(crate) fn new(
        ctx: &'a Context,
        model: &'a Model<'p>,
        env: &Env,
        symmetry: Option<Symmetry>,
    ) -> Self {
        let mut solver = Solver {
            ctx,
            model,
            doms: model.initial.clone(),
            base_len: env.len(),
            scratch: env.clone(),
            free_cache: FxHashMap::default(),
            shadowed: Vec::new(),
            incomplete: false,
            ill_defined: None,
            fixed_vars: vec![None; model.vars.len()],
            entered: Vec::new(),
            root_fixed: vec![false; model.vars.len()],
            current: 0,
            constants: FxHashMap::default(),
            constant_truths: FxHashMap::default(),
            operands: [OPERANDS[0].into(), OPERANDS[1].into()],
            symmetry,
            nodes: 0,
            leaves: 0,
            guess_small_sets: false,
            binder_depth: 0,
            group_bits: FxHashMap::default(),
            binder_cache: FxHashMap::default(),
            cut_var: None,
        };
        // Symmetry's pins (pairwise-distinct scalars of a deferred set) are fixed before anything else.
        let pins = solver
            .symmetry
            .as_ref()
            .map(|s| s.pins.clone())
            .unwrap_or_default();
        for (a, x) in pins {
            if solver.doms[a].contains(&x) {
                solver.doms[a] = Dom::Finite(Arc::new(vec![x]));
            }
        }
        // Variables fixed before the search (deterministic equalities) are bound once, in the base.
        for v in 0..model.vars.len() {
            if solver.atoms_fixed(v)
                && let Some(x) = solver.var_value(v)
            {
                solver.scratch.bind(model.vars[v].name.clone(), x);
                solver.root_fixed[v] = true;
            }
        }
        solver.base_len = solver.scratch.len();
        solver
    }

    /// The constraint being evaluated.
    pub(crate) fn current_constraint(&self) -> usize {
        self.current
    }

    /// Whether `p` mentions no search variable but those fixed before the search.
    pub(crate) fn is_constant_pred(&mut self, p: &Pred) -> bool {
        let vars = self.pred_vars(p);
        vars.iter().all(|&v| self.root_fixed[v])
    }

    /// Like `cached_constant`, for a sub-predicate.
    pub(crate) fn cached_truth(&mut self, p: &Pred) -> super::abs::Tri {
        let key = (self.current, super::model::address(p));
        if let Some(t) = self.constant_truths.get(&key) {
            return *t;
        }
        let t = match self.eval_truth(p) {
            Ok(b) => super::abs::Tri::from(b),
            Err(_) => super::abs::Tri::Unknown,
        };
        self.constant_truths.insert(key, t);
        t
    }

    /// The value of a sub-expression of the current constraint that depends only on the constraint's
    /// bindings and variables fixed before the search (outside any binder: the caller checks): computed
    /// once per constraint.
    pub(crate) fn cached_constant(&mut self, e: &Expr) -> Abs {
        let key = (self.current, e as *const Expr as usize);
        if let Some(v) = self.constants.get(&key) {
            return v.clone();
        }
        let v = match self.eval_val(e) {
            Ok(v) => Abs::Val(v),
            Err(_) => Abs::Unknown,
        };
        self.constants.insert(key, v.clone());
        v
    }

    /// Evaluates an expression in the scratch environment (in place: no copy of the environment; any
    /// bindings an interrupted evaluation leaves behind are dropped).
    pub(crate) fn eval_val(&mut self, e: &Expr) -> Result<crate::eval::Val, EvalError> {
        let mark = self.scratch.len();
        let r = self.ctx.eval(e, &mut self.scratch);
        self.scratch.truncate(mark);
        r
    }

    /// Evaluates a predicate in the scratch environment (see `eval_val`).
    pub(crate) fn eval_truth(&mut self, p: &Pred) -> Result<bool, EvalError> {
        let mark = self.scratch.len();
        let r = self.ctx.eval_pred_in(p, &mut self.scratch);
        self.scratch.truncate(mark);
        r
    }

    pub(crate) fn var_of(&self, name: &str) -> Option<VarId> {
        if self.shadowed.iter().any(|n| &**n == name) {
            return None;
        }
        self.model.by_name.get(name).copied()
    }

    /// Whether all atoms of `v` are fixed (as of the last `enter`, for the current constraint's
    /// variables; computed for others).
    pub(crate) fn var_is_fixed(&self, v: VarId) -> bool {
        match self.fixed_vars.get(v) {
            Some(Some(f)) => *f,
            _ => self.atoms_fixed(v),
        }
    }

    fn atoms_fixed(&self, v: VarId) -> bool {
        match &self.model.vars[v].shape {
            Shape::Scalar(a) => self.doms[*a].fixed().is_some(),
            Shape::Members { bits: atoms, .. }
            | Shape::Function { images: atoms, .. }
            | Shape::Curried { images: atoms, .. } => {
                atoms.iter().all(|&a| self.doms[a].fixed().is_some())
            }
        }
    }

    fn free_vars_of(
        &mut self,
        key: usize,
        names: impl FnOnce() -> Vec<crate::syntax::ast::Name>,
    ) -> Arc<[VarId]> {
        if let Some(v) = self.free_cache.get(&key) {
            return v.clone();
        }
        let vars: Arc<[VarId]> = names()
            .iter()
            .filter_map(|n| self.var_of(n))
            .collect::<Vec<_>>()
            .into();
        self.free_cache.insert(key, vars.clone());
        vars
    }

    /// The search variables free in an expression (cached by node).
    pub(crate) fn expr_vars(&mut self, e: &Expr) -> Arc<[VarId]> {
        self.free_vars_of(e as *const Expr as usize, || {
            free_names::of_expr(e).into_iter().collect()
        })
    }

    /// The search variables free in a predicate (cached by node).
    pub(crate) fn pred_vars(&mut self, p: &Pred) -> Arc<[VarId]> {
        self.free_vars_of(super::model::address(p), || {
            free_names::of_pred(p).into_iter().collect()
        })
    }

    pub(crate) fn expr_is_fixed(&mut self, e: &Expr) -> bool {
        if matches!(
            e.kind,
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Const(_)
        ) {
            return true;
        }
        let vars = self.expr_vars(e);
        vars.iter().all(|&v| self.var_is_fixed(v))
    }

    /// The value of a search variable whose atoms are all fixed.
    pub(crate) fn var_value(&self, v: VarId) -> Option<Value> {
        match &self.model.vars[v].shape {
            Shape::Scalar(a) => self.doms[*a].fixed().cloned(),
            Shape::Members { carrier, bits } => {
                let mut items = Vec::new();
                for (x, &b) in carrier.iter().zip(bits) {
                    if let Value::Bool(true) = self.doms[b].fixed()? {
                        items.push(x.clone());
                    }
                }
                Some(Value::set_from_sorted(items))
            }
            Shape::Function { domain, images } => {
                let mut items = Vec::with_capacity(domain.len());
                for (x, &a) in domain.iter().zip(images) {
                    items.push(Value::pair(x.clone(), self.doms[a].fixed()?.clone()));
                }
                Some(Value::set_from_sorted(items))
            }
            Shape::Curried {
                domain,
                inner,
                images,
            } => {
                let mut rows = Vec::with_capacity(domain.len());
                for (i, x) in domain.iter().enumerate() {
                    rows.push(Value::pair(x.clone(), self.row_value(inner, images, i)?));
                }
                Some(Value::set_from_sorted(rows))
            }
        }
    }

    /// The function `f(domain[i])` of a curried variable, when its atoms are all fixed.
    pub(crate) fn row_value(&self, inner: &[Value], images: &[AtomId], i: usize) -> Option<Value> {
        let row = &images[i * inner.len()..(i + 1) * inner.len()];
        let mut items = Vec::with_capacity(inner.len());
        for (y, &a) in inner.iter().zip(row) {
            items.push(Value::pair(y.clone(), self.doms[a].fixed()?.clone()));
        }
        Some(Value::set_from_sorted(items))
    }

    /// Prepares the scratch environment for evaluating constraint `c`: its bindings and the values of its
    /// fixed variables.
    fn enter(&mut self, ci: usize) {
        let model = self.model;
        let c = &model.constraints[ci];
        self.current = ci;
        self.scratch.truncate(self.base_len);
        self.shadowed.clear();
        for v in self.entered.drain(..) {
            self.fixed_vars[v] = None;
        }
        self.entered.extend(c.vars.iter().copied());
        for &v in &c.vars {
            let fixed = self.root_fixed[v] || self.atoms_fixed(v);
            self.fixed_vars[v] = Some(fixed);
            if fixed
                && !self.root_fixed[v]
                && let Some(x) = self.var_value(v)
            {
                self.scratch.bind(self.model.vars[v].name.clone(), x);
            }
        }
        for (n, x) in &c.bindings {
            self.scratch.bind(n.clone(), x.clone());
            self.shadowed.push(n.clone());
        }
    }

    /// Truth of constraint `c`: exact (interpreter, ill-defined = false) when all its variables are fixed,
    /// abstract otherwise.
    pub(crate) fn status(&mut self, ci: usize) -> Result<super::abs::Tri, EvalError> {
        let model = self.model;
        let c = &model.constraints[ci];
        self.enter(ci);
        if c.vars.iter().all(|&v| self.var_is_fixed(v)) {
            let model = self.model;
            return match self.eval_truth(&model.constraints[ci].pred) {
                Ok(b) => Ok(super::abs::Tri::from(b)),
                Err(EvalError::WellDefinedness(d)) => {
                    self.ill_defined.get_or_insert(d);
                    Ok(super::abs::Tri::False)
                }
                Err(e) => Err(e),
            };
        }
        let model = self.model;
        Ok(self.abs_pred(&model.constraints[ci].pred))
    }

    /// Propagates until nothing changes; `dirty` are the atoms changed since the last fixpoint (all
    /// constraints are woken when `None`).
    pub(crate) fn propagate(
        &mut self,
        dirty: Option<Vec<AtomId>>,
    ) -> Result<Propagation, EvalError> {
        let n = self.model.constraints.len();
        let mut queued = vec![false; n];
        let mut queue: Vec<usize> = Vec::new();
        let mut fixed: Vec<AtomId> = Vec::new();
        let dirty_all = dirty.is_none();
        match dirty {
            None => {
                queue.extend((0..n).rev());
                queued.iter_mut().for_each(|q| *q = true);
                fixed.extend((0..self.doms.len()).filter(|&a| self.doms[a].fixed().is_some()));
            }
            Some(atoms) => {
                fixed.extend(atoms.iter().copied());
                self.wake(&atoms, &mut queue, &mut queued)
            }
        }
        let groups = self.model.distinct.len();
        let mut group_dirty = vec![dirty_all; groups];
        let mut dirty_groups: Vec<usize> = if dirty_all {
            (0..groups).collect()
        } else {
            Vec::new()
        };
        loop {
            // All-different groups first: each newly fixed value leaves the group's other domains.
            while let Some(a) = fixed.pop() {
                let Some(changed) = self.distinct(a) else {
                    return Ok(Propagation::Failed);
                };
                for &g in &self.model.distinct_of[a] {
                    if !group_dirty[g] {
                        group_dirty[g] = true;
                        dirty_groups.push(g);
                    }
                }
                fixed.extend(changed.iter().copied());
                self.wake(&changed, &mut queue, &mut queued);
            }
            let Some(ci) = queue.pop() else {
                // The groups' counting arguments (pigeonhole, Hall sets) last: they cost a pass over
                // the group, worth it once the constraints have nothing more to say.
                let Some(g) = dirty_groups.pop() else {
                    break;
                };
                group_dirty[g] = false;
                let Some(changed) = self.hall(g) else {
                    return Ok(Propagation::Failed);
                };
                fixed.extend(changed.iter().copied());
                self.wake(&changed, &mut queue, &mut queued);
                continue;
            };
            queued[ci] = false;
            self.ctx
                .check_deadline(self.model.constraints[ci].pred.span)?;
            match self.status(ci)? {
                super::abs::Tri::False => return Ok(Propagation::Failed),
                super::abs::Tri::True => {}
                super::abs::Tri::Unknown => {
                    let changed = match self.filter(ci)? {
                        Some(changed) => changed,
                        None => return Ok(Propagation::Failed),
                    };
                    if changed.iter().any(|&a| self.doms[a].is_empty()) {
                        return Ok(Propagation::Failed);
                    }
                    fixed.extend(changed.iter().copied());
                    self.wake(&changed, &mut queue, &mut queued);
                }
            }
        }
        Ok(Propagation::Consistent)
    }

    /// Removes the value of atom `a` (if fixed) from the other atoms of its distinct groups; the atoms
    /// changed, or `None` on a wipe-out.
    fn distinct(&mut self, a: AtomId) -> Option<Vec<AtomId>> {
        let mut changed = Vec::new();
        let Some(v) = self.doms[a].fixed().cloned() else {
            return Some(changed);
        };
        for &g in &self.model.distinct_of[a] {
            let part = self.model.distinct_part[g];
            // With a component to compare, every value sharing it clashes with v.
            let clash = |x: &Value| match part {
                None => *x == v,
                Some(p) => p.of(x).is_some_and(|c| Some(c) == p.of(&v)),
            };
            for &b in &self.model.distinct[g] {
                if b == a {
                    continue;
                }
                if self.doms[b].fixed().is_some_and(clash) {
                    return None;
                }
                if let Some(d) = self.doms[b].retain(|x| !clash(x)) {
                    if d.is_empty() {
                        return None;
                    }
                    self.doms[b] = d;
                    changed.push(b);
                }
            }
        }
        Some(changed)
    }

    fn wake(&self, atoms: &[AtomId], queue: &mut Vec<usize>, queued: &mut [bool]) {
        for &a in atoms {
            for &c in &self.model.watchers[a] {
                if !queued[c] {
                    queued[c] = true;
                    queue.push(c);
                }
            }
        }
    }

    /// Narrows domains with constraint `ci` (known to be undecided); returns the atoms changed, or `None`
    /// when a domain became empty.
    fn filter(&mut self, ci: usize) -> Result<Option<Vec<AtomId>>, EvalError> {
        let c = &self.model.constraints[ci];
        let unfixed: Vec<AtomId> = c
            .watches
            .iter()
            .copied()
            .filter(|&a| self.doms[a].fixed().is_none())
            .collect();
        let mut changed = Vec::new();
        if let [a] = unfixed[..]
            && self.doms[a].size()
                <= if self.nodes == 0 {
                    ROOT_FILTER_LIMIT
                } else {
                    FILTER_LIMIT
                }
            && let Some(values) = self.doms[a].values().cloned()
        {
            let saved = self.doms[a].clone();
            let mut keep = Vec::with_capacity(values.len());
            for v in values.iter() {
                self.doms[a] = Dom::Finite(Arc::new(vec![v.clone()]));
                if self.status(ci)? != super::abs::Tri::False {
                    keep.push(v.clone());
                }
            }
            self.doms[a] = saved;
            if keep.len() != values.len() {
                if keep.is_empty() {
                    return Ok(None);
                }
                self.doms[a] = Dom::Finite(Arc::new(keep));
                changed.push(a);
            }
            return Ok(Some(changed));
        }
        let model = self.model;
        let c = &model.constraints[ci];
        self.enter(ci);
        let pred: &Pred = &c.pred;
        if !self.narrow(pred, true, &mut changed)? {
            return Ok(None);
        }
        Ok(Some(changed))
    }

    /// Narrows domains so that `p` can have the truth value `positive`; returns false on a wipe-out.
    fn narrow(
        &mut self,
        p: &Pred,
        positive: bool,
        changed: &mut Vec<AtomId>,
    ) -> Result<bool, EvalError> {
        match &p.kind {
            PredKind::And(ps) if positive => {
                for q in ps {
                    if !self.narrow(q, true, changed)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            PredKind::Or(ps) if !positive => {
                for q in ps {
                    if !self.narrow(q, false, changed)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            PredKind::Or(ps) | PredKind::And(ps) => {
                // Positive `or` / negative `and`: the one part that can still go the right way must.
                let want = super::abs::Tri::from(positive);
                let mut open = None;
                for (i, q) in ps.iter().enumerate() {
                    match self.abs_pred(q) {
                        t if t == want => return Ok(true),
                        super::abs::Tri::Unknown => {
                            if open.is_some() {
                                return Ok(true);
                            }
                            open = Some(i);
                        }
                        _ => {}
                    }
                }
                match open {
                    Some(i) => self.narrow(&ps[i], positive, changed),
                    None => Ok(false),
                }
            }
            PredKind::Not(q) => self.narrow(q, !positive, changed),
            PredKind::Implies(a, b) => {
                if positive {
                    match (self.abs_pred(a), self.abs_pred(b)) {
                        (super::abs::Tri::True, _) => self.narrow(b, true, changed),
                        (_, super::abs::Tri::False) => self.narrow(a, false, changed),
                        _ => Ok(true),
                    }
                } else {
                    Ok(self.narrow(a, true, changed)? && self.narrow(b, false, changed)?)
                }
            }
            PredKind::Equiv(a, b) => match (self.abs_pred(a), self.abs_pred(b)) {
                (super::abs::Tri::Unknown, super::abs::Tri::Unknown) => Ok(true),
                (super::abs::Tri::Unknown, t) => {
                    self.narrow(a, (t == super::abs::Tri::True) == positive, changed)
                }
                (t, _) => self.narrow(b, (t == super::abs::Tri::True) == positive, changed),
            },
            PredKind::Compare(op, l, r) => self.narrow_compare(*op, l, r, positive, changed),
            _ => Ok(true),
        }
    }

    fn narrow_compare(
        &mut self,
        op: CompareOp,
        l: &Expr,
        r: &Expr,
        positive: bool,
        changed: &mut Vec<AtomId>,
    ) -> Result<bool, EvalError> {
        use CompareOp::*;
        let (op, l, r) = match (op, positive) {
            (Lt | Le | Eq | In | Subset, true) | (NotEq, false) => {
                (if op == NotEq { Eq } else { op }, l, r)
            }
            // not(l < r) is r <= l; not(l <= r) is r < l.
            (Lt, false) => (Le, r, l),
            (Le, false) => (Lt, r, l),
            (In, false) => return self.narrow_not_member(l, r, changed),
            _ => return Ok(true),
        };
        if matches!(op, Lt | Le | Eq)
            && super::linear::is_integer(l)
            && !self.linear(op, l, r, changed)?
        {
            return Ok(false);
        }
        match op {
            Eq | In | Subset => self.narrow_sets(op, l, r, changed),
            _ => Ok(true),
        }
    }

    /// Sets a domain, recording the change; false when it became empty.
    pub(crate) fn set_dom(&mut self, a: AtomId, d: Dom, changed: &mut Vec<AtomId>) -> bool {
        let empty = d.is_empty();
        self.doms[a] = d;
        changed.push(a);
        !empty
    }

    /// Reports the current assignment (all atoms fixed) as a solution of the problem's variables.
    fn solution(&self) -> Vec<Value> {
        (0..self.model.vars.len())
            .map(|v| self.var_value(v).expect("all atoms are fixed"))
            .collect()
    }

    /// The search below the current node; returns false when `on_solution` asked to stop.
    pub(crate) fn search(
        &mut self,
        on_solution: &mut dyn FnMut(&[Value]) -> Result<bool, EvalError>,
    ) -> Result<bool, EvalError> {
        self.nodes += 1;
        // Propagation checks the time per constraint; a choice that wakes none must check it too.
        self.ctx.check_deadline(var_span(self.model, 0))?;
        let Some(a) = self.choose() else {
            if let Some(sym) = &self.symmetry
                && !sym.is_canonical(self)
            {
                return Ok(true);
            }
            // Constraints with no watched atom (or unwoken) are checked once more on the full assignment.
            for ci in 0..self.model.constraints.len() {
                if self.status(ci)? != super::abs::Tri::True {
                    return Ok(true);
                }
            }
            self.leaves += 1;
            return on_solution(&self.solution());
        };
        // Witness atoms are labelled after the problem's variables (see `choose`): once one witness
        // assignment completes a solution, other witnesses for the same values add nothing — unless
        // a problem variable computed from witnesses is still open, whose value they decide.
        let witness = self.model.owner[a] >= self.model.outputs
            && self
                .model
                .after_witnesses
                .iter()
                .all(|&b| self.doms[b].fixed().is_some());
        let leaves_before = self.leaves;
        for branch in self.branches(a)? {
            if witness && self.leaves > leaves_before {
                break;
            }
            let saved = self.doms.clone();
            self.doms[a] = branch;
            let propagation = self.propagate_guess(a)?;
            let go_on = match propagation {
                None => true,
                Some(Propagation::Failed) => true,
                Some(Propagation::Consistent) => self.search(on_solution)?,
            };
            self.doms = saved;
            if !go_on {
                return Ok(false);
            }
            // A check was cut: the other values of its variable likely cost as much, so the search
            // backs up to the last choice on another variable (see `propagate_guess`).
            if let Some(v) = self.cut_var {
                if v == self.model.owner[a] {
                    break;
                }
                self.cut_var = None;
            }
        }
        Ok(true)
    }

    /// Propagates the choice of a value for atom `a`. Once the search is a guess (incomplete) in a
    /// user's question, a check that takes more than a share of the remaining time is cut (`None`, and
    /// `cut_var` names a's variable):
    /// a guessed search should not spend its budget on one expensive candidate (CardTrickSym's
    /// `ok(dest)` with x = y = [] costs seconds for each dest, while x = [s] makes it vacuous).
    fn propagate_guess(&mut self, a: AtomId) -> Result<Option<Propagation>, EvalError> {
        if !(self.guess_small_sets && (self.incomplete || self.model.clipped)) {
            return self.propagate(Some(vec![a])).map(Some);
        }
        let now = std::time::Instant::now();
        let cap = match self.ctx.deadline() {
            Some(d) => now + d.saturating_duration_since(now) / CHECK_SHARE,
            None => now + UNBOUNDED_CHECK,
        };
        let result = self
            .ctx
            .with_stage_deadline(Some(cap), || self.propagate(Some(vec![a])));
        match result {
            Err(e) if e.is_timeout() => {
                // The question's own deadline stops the search; only the cap cuts a candidate.
                self.ctx
                    .check_deadline(var_span(self.model, self.model.owner[a]))?;
                self.incomplete = true;
                self.cut_var = Some(self.model.owner[a]);
                self.ctx.record_time_cut();
                Ok(None)
            }
            other => other.map(Some),
        }
    }

    /// The unfixed atom to branch on: smallest domain first; atoms with unknown candidates last.
    /// Atoms with unknown candidates count by the candidates a constraint gives them now, or go last.
    fn choose(&mut self) -> Option<AtomId> {
        let mut best: Option<((bool, bool, u64, usize), AtomId)> = None;
        for a in 0..self.doms.len() {
            if self.doms[a].fixed().is_some() {
                continue;
            }
            // A dependent atom (built without candidates, to be computed from its defining equation
            // once the others are labelled) that propagation has already listed is a choice among
            // those values now: in LL_LeftFactoring's `X |-> RHS1 : Rules & RHS1 = Prefix^Rest1`,
            // Rules lists RHS1, and Prefix is then a split of it, where labelling Prefix first would
            // need all of seq(Symbols).
            let late = self.model.late[a]
                && !(matches!(self.model.initial[a], Dom::Any)
                    && matches!(self.doms[a], Dom::Finite(_)));
            let size = match &self.doms[a] {
                // A guess from a constraint goes after every listed domain but before the values of
                // a type: labelling `r : A <-> seq(B)` first gives `(x, y) : r` a list.
                Dom::Any => match self.defined_candidates(a, self.guess_small_sets) {
                    Ok(Some(Candidates::Listed(c, _))) => c.len() as u64,
                    Ok(Some(Candidates::ShortSequences(_, _, n))) => n as u64,
                    Ok(Some(Candidates::Guess(..))) => u64::MAX - 1,
                    _ => u64::MAX,
                },
                d @ Dom::Range(..) => d.size().min(u64::MAX - 1),
                Dom::Finite(v) => v.len() as u64,
            };
            let degree = usize::MAX - self.model.watchers[a].len();
            // An unbounded atom is listed when its size is below a guess's (`u64::MAX - 1`).
            let listed = !matches!(self.doms[a], Dom::Any) || size < u64::MAX - 1;
            let witness = self.model.owner[a] >= self.model.outputs
                || (!listed && self.model.after_witnesses.contains(&a));
            // The problem's variables before the witnesses (see `search`), late atoms last in each;
            // a variable computed from witnesses waits for them, and is taken as soon as they give
            // its value (the state between two steps of a path, read by the next step's guard).
            let key = (witness, late, size, degree);
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, a));
            }
        }
        best.map(|(_, a)| a)
    }

    /// The alternatives for atom `a`: single values, or halves of a wide interval.
    fn branches(&mut self, a: AtomId) -> Result<Vec<Dom>, EvalError> {
        let single = |v: &Value| Dom::Finite(Arc::new(vec![v.clone()]));
        Ok(match &self.doms[a] {
            Dom::Finite(values) => {
                let allowed = match &self.symmetry {
                    Some(sym) => sym.allowed(self, a, values),
                    None => (**values).clone(),
                };
                allowed.iter().map(single).collect()
            }
            Dom::Range(lo, hi) => {
                // An open end is cut (incomplete search): both open, to MININT..MAXINT; one open, to a
                // window as wide as MININT..MAXINT from the known end (`x > 99` still finds 100).
                let (min, max) = self.ctx.int_cut();
                let width = max.sub(&min);
                // The model checker's choices keep ProB's MININT..MAXINT cut (operation parameters).
                let width = if self.guess_small_sets {
                    width
                } else {
                    Int::zero()
                };
                // ProB's cut where it leaves something (same solutions and counts as ProB); the window
                // only where MININT..MAXINT misses the domain entirely.
                let (lo_c, hi_c) = match (lo, hi) {
                    (Some(l), Some(h)) => (l.clone(), h.clone()),
                    (Some(l), None) if *l <= max => (l.clone(), max.clone()),
                    (Some(l), None) => (l.clone(), l.add(&width)),
                    (None, Some(h)) if *h >= min => (min.clone(), h.clone()),
                    (None, Some(h)) => (h.sub(&width), h.clone()),
                    (None, None) => (min.clone(), max.clone()),
                };
                if lo.is_none() || hi.is_none() {
                    self.incomplete = true;
                }
                let mid = lo_c.add(&hi_c).div(&Int::from(2)).unwrap_or(lo_c.clone());
                let mid = if mid < lo_c { lo_c.clone() } else { mid };
                vec![
                    Dom::range(Some(lo_c), Some(mid.clone())),
                    Dom::range(Some(mid.succ()), Some(hi_c)),
                ]
            }
            Dom::Any => self.lazy_candidates(a)?.iter().map(single).collect(),
        })
    }

    /// Candidates for an atom whose values were unknown before the search: from a constraint `x = E` or
    /// `x : S` that can now be evaluated, else the values of its type.
    fn lazy_candidates(&mut self, a: AtomId) -> Result<Vec<Value>, EvalError> {
        match self.defined_candidates(a, self.guess_small_sets)? {
            Some(Candidates::Listed(values, complete)) => {
                self.incomplete |= !complete;
                return Ok(values);
            }
            Some(Candidates::ShortSequences(set, span, _)) => {
                self.incomplete = true;
                return Ok(self.ctx.short_sequences(&set, span).unwrap_or_default());
            }
            Some(Candidates::Guess(op, set, span)) => {
                let ty = &self.model.vars[self.model.owner[a]].ty;
                let small = match (op, ty) {
                    (CompareOp::Subset, Type::Set(elem)) => {
                        small_values::subsets_of(self.ctx, &set, elem, GUESS_BUDGET, span)?
                    }
                    _ => small_values::members(self.ctx, &set, ty, GUESS_BUDGET, span)?,
                };
                self.incomplete |= !small.complete;
                return Ok(small.values);
            }
            None => {}
        }
        let v = self.model.owner[a];
        let ty = atom_type(&self.model.vars[v]);
        let span = var_span(self.model, v);
        let listable = small_values::listed_size(self.ctx, &ty, span)
            .is_some_and(|n| n <= self.ctx.settings().enumeration_limit as u64);
        let listed = if listable || !self.guess_small_sets {
            self.ctx.type_values(&ty, span)
        } else {
            Err(crate::eval::limit_error(span, "too many values to list"))
        };
        match listed {
            // A type with nothing listable (STRING, records of strings): a few small values stand for
            // all, as ProB's enumeration offers some strings (ExistsDeadlockTests' `y : STRING`
            // parameter: the operation is enabled, not a deadlock). Incomplete, as any cut.
            Ok((items, false)) if items.is_empty() => {
                self.incomplete = true;
                Ok(small_values::of_type(self.ctx, &ty, GUESS_BUDGET, span)?.values)
            }
            Ok((items, complete)) => {
                self.incomplete |= !complete;
                Ok((*items).clone())
            }
            // Too many values to list: the small ones first (typing-only constraints are usually met
            // by the empty set). Incomplete.
            Err(EvalError::Limit(_)) if self.guess_small_sets => {
                self.incomplete = true;
                if let Type::Set(elem) = &ty
                    && small_values::listed_size(self.ctx, elem, span)
                        .is_some_and(|n| n <= SMALL_SUBSETS as u64)
                    && let Ok((items, _)) = self.ctx.type_values(elem, span)
                {
                    return Ok(small_subsets(&items, SMALL_SUBSETS));
                }
                Ok(small_values::of_type(self.ctx, &ty, GUESS_BUDGET, span)?.values)
            }
            Err(e) => Err(e),
        }
    }

    /// The candidates a constraint `x = E` or `x : S` (E, S evaluable now) gives atom `a`, if any, and
    /// whether they are all of x's possible values (not so for `seq(S)`, enumerated up to length MAXINT
    /// as ProB does). With `guess`, a scalar x with no such list is to take the small members of an S
    /// too large to list, or the small subsets of S for `x <: S` (see `small_values`).
    fn defined_candidates(
        &mut self,
        a: AtomId,
        guess: bool,
    ) -> Result<Option<Candidates>, EvalError> {
        let v = self.model.owner[a];
        let name = self.model.vars[v].name.clone();
        let model = self.model;
        let scalar = matches!(model.vars[v].shape, Shape::Scalar(_));
        // A guess from a constraint is taken only when no constraint lists x's candidates.
        let mut fallback: Option<(CompareOp, crate::eval::Val, crate::diag::Span)> = None;
        // `x : seq(S)` lists x's short sequences only, and there are many: a later constraint that lists
        // all of x's candidates (`N |-> x : Rules`) is preferred (LLParsing's `#s.(s : seq(Symbols) &
        // N |-> s : Rules & ...)`: 3 candidates instead of 820 in every state).
        let mut sequences: Option<(crate::eval::Val, crate::diag::Span)> = None;
        for ci in 0..model.constraints.len() {
            let c = &model.constraints[ci];
            if !c.bindings.is_empty() {
                continue;
            }
            let PredKind::Compare(op @ (CompareOp::Eq | CompareOp::In | CompareOp::Subset), l, r) =
                &c.pred.kind
            else {
                continue;
            };
            if *op == CompareOp::Subset {
                if guess
                    && scalar
                    && fallback.is_none()
                    && matches!(&l.kind, ExprKind::Var(n) if **n == *name)
                {
                    self.enter(ci);
                    if self.expr_is_fixed(r)
                        && let Ok(set) = self.eval_val(r)
                    {
                        fallback = Some((CompareOp::Subset, set, r.span));
                    }
                }
                continue;
            }
            let candidates: Vec<(&Expr, &Expr)> = match op {
                CompareOp::Eq => vec![(l, r), (r, l)],
                _ => vec![(l, r)],
            };
            if *op == CompareOp::Eq
                && matches!(model.vars[v].shape, Shape::Scalar(_))
                && let Some(values) = self.split_candidates(ci, &name, l, r)?
            {
                return Ok(Some(Candidates::Listed(values, true)));
            }
            for (x, e) in candidates {
                // `x = E`, `x : S`, or x inside a maplet pattern `(y |-> x) : S`.
                let Some(path) = x.maplet_path(&name) else {
                    continue;
                };
                if !path.is_empty() && *op != CompareOp::In {
                    continue;
                }
                self.enter(ci);
                if !self.expr_is_fixed(e) {
                    continue;
                }
                match op {
                    CompareOp::Eq => {
                        if let Ok(value) = self.eval_val(e)
                            && let Ok(value) = self.ctx.to_value(value, e.span)
                        {
                            return Ok(Some(Candidates::Listed(vec![value], true)));
                        }
                    }
                    _ => {
                        let Ok(set) = self.eval_val(e) else {
                            continue;
                        };
                        let listed = if self.ctx.is_infinite(&set) {
                            if path.is_empty() && sequences.is_none() {
                                sequences = Some((set.clone(), e.span));
                            }
                            None
                        } else {
                            self.ctx
                                .materialize(&set, e.span)
                                .ok()
                                .map(|items| (items, true))
                        };
                        let Some((items, complete)) = listed else {
                            if guess && scalar && path.is_empty() && fallback.is_none() {
                                fallback = Some((CompareOp::In, set, e.span));
                            }
                            continue;
                        };
                        let mut parts: Vec<Value> =
                            items.iter().filter_map(|v| v.component(&path)).collect();
                        parts.sort();
                        parts.dedup();
                        return Ok(Some(Candidates::Listed(parts, complete)));
                    }
                }
            }
        }
        if let Some((set, span)) = sequences {
            // A top-level bound on x's size makes the short sequences all of x's candidates.
            if let Some(max_len) = self.size_bound(&name)
                && let Some((values, complete)) = self.ctx.sequences_up_to(&set, span, max_len)
            {
                return Ok(Some(Candidates::Listed(values, complete)));
            }
            if let Some(n) = self.ctx.short_sequence_count(&set, span) {
                return Ok(Some(Candidates::ShortSequences(set, span, n)));
            }
        }
        let ty = &model.vars[v].ty;
        Ok(fallback
            .filter(|(op, _, _)| *op != CompareOp::Subset || matches!(ty, Type::Set(_)))
            .map(|(op, set, span)| Candidates::Guess(op, set, span)))
    }
}

/// Where an atom's candidates come from (`Solver::defined_candidates`).
enum Candidates {
    /// Listed values, and whether they are all of the atom's possible values.
    Listed(Vec<Value>, bool),
    /// The short sequences of a `seq(S)` (incomplete, as ProB enumerates them) and how many there are:
    /// listed only when the atom is labelled, since `choose` asks every atom's candidates at each node.
    ShortSequences(crate::eval::Val, crate::diag::Span, usize),
    /// To be guessed among the small members (`In`) or subsets (`Subset`) of a known set.
    Guess(CompareOp, crate::eval::Val, crate::diag::Span),
}

impl Solver<'_, '_> {
    /// The least upper bound on `size(name)` that a top-level constraint evaluable now states
    /// (`size_bounds::stated_bound`).
    fn size_bound(&mut self, name: &str) -> Option<usize> {
        let mut best: Option<usize> = None;
        for ci in 0..self.model.constraints.len() {
            let c = &self.model.constraints[ci];
            if !c.bindings.is_empty() {
                continue;
            }
            let Some((bound, below)) = super::size_bounds::stated_bound(name, &c.pred) else {
                continue;
            };
            self.enter(ci);
            if !self.expr_is_fixed(bound) {
                continue;
            }
            let Ok(crate::eval::Val::Value(Value::Int(n))) = self.eval_val(bound) else {
                continue;
            };
            let n = super::size_bounds::allowed(&n, below)?;
            best = Some(best.map_or(n, |b| b.min(n)));
        }
        best
    }

    /// For `E = x ^ B`, `E = A ^ x` or `E = A ^ x ^ B` (either side, any nesting of `^`), E a sequence
    /// evaluable now: x is a prefix, a suffix or a contiguous part of E, so E's prefixes, suffixes or
    /// parts are all of x's candidates — a split of a known sequence instead of an enumeration of
    /// `seq(S)` (SyracuseGrammar's rewriting step `cur = pre ^ LHS ^ post`).
    fn split_candidates(
        &mut self,
        ci: usize,
        name: &str,
        l: &Expr,
        r: &Expr,
    ) -> Result<Option<Vec<Value>>, EvalError> {
        for (whole, concat) in [(l, r), (r, l)] {
            if !matches!(&concat.kind, ExprKind::Binary(BinaryOp::Concat, _, _)) {
                continue;
            }
            let operands = concat.concat_operands();
            let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if &**n == name);
            let Some(at) = operands.iter().position(|e| is_var(e)) else {
                continue;
            };
            self.enter(ci);
            if !self.expr_is_fixed(whole) {
                continue;
            }
            let Ok(value) = self.eval_val(whole) else {
                continue;
            };
            let Some(items) = self
                .ctx
                .to_value(value, whole.span)
                .ok()
                .and_then(|v| v.as_sequence())
            else {
                continue;
            };
            let n = items.len();
            let parts: Vec<(usize, usize)> = if at == 0 {
                (0..=n).map(|k| (0, k)).collect()
            } else if at == operands.len() - 1 {
                (0..=n).map(|k| (n - k, n)).collect()
            } else {
                (0..=n).flat_map(|i| (i..=n).map(move |j| (i, j))).collect()
            };
            let mut candidates: Vec<Value> = parts
                .into_iter()
                .map(|(i, j)| Value::sequence(items[i..j].to_vec()))
                .collect();
            candidates.sort();
            candidates.dedup();
            return Ok(Some(candidates));
        }
        Ok(None)
    }
}

/// How many candidates an atom of a set type too large to list gets (its smallest subsets).
const SMALL_SUBSETS: usize = 4096;
/// In a guessed search, one candidate's check may take this share of the remaining time at most.
const CHECK_SHARE: u32 = 8;
/// The cap on one candidate's check in a guessed search without a deadline.
const UNBOUNDED_CHECK: std::time::Duration = std::time::Duration::from_secs(1);
/// How many small values an atom gets when its type or set is too large to list: few enough that the
/// search soon moves on to another atom's next value.
const GUESS_BUDGET: usize = 256;

/// The type of an atom's values: the variable's for a scalar, BOOL for a membership bit, the range type
/// for a function image.
fn atom_type(var: &super::model::SearchVar) -> Type {
    match (&var.shape, &var.ty) {
        (Shape::Scalar(_), ty) => ty.clone(),
        (Shape::Members { .. }, _) => Type::Bool,
        (Shape::Function { .. }, Type::Set(pair)) => match &**pair {
            Type::Pair(_, range) => (**range).clone(),
            other => other.clone(),
        },
        (Shape::Function { .. }, ty) => ty.clone(),
        // f : A --> (B --> C): the atoms are values of C.
        (Shape::Curried { .. }, Type::Set(pair)) => match &**pair {
            Type::Pair(_, inner) => match &**inner {
                Type::Set(p) => match &**p {
                    Type::Pair(_, c) => (**c).clone(),
                    other => other.clone(),
                },
                other => other.clone(),
            },
            other => other.clone(),
        },
        (Shape::Curried { .. }, ty) => ty.clone(),
    }
}

/// Subsets of `items` by increasing size, at most `limit` of them.
fn small_subsets(items: &[Value], limit: usize) -> Vec<Value> {
    let mut out = vec![Value::empty_set()];
    let mut layer: Vec<Vec<usize>> = vec![Vec::new()];
    while out.len() < limit && !layer.is_empty() {
        let mut next = Vec::new();
        for subset in &layer {
            let from = subset.last().map_or(0, |&i| i + 1);
            for i in from..items.len() {
                let mut bigger = subset.clone();
                bigger.push(i);
                out.push(Value::set_from_sorted(
                    bigger.iter().map(|&k| items[k].clone()).collect(),
                ));
                next.push(bigger);
                if out.len() >= limit {
                    return out;
                }
            }
        }
        layer = next;
    }
    out
}

fn var_span(model: &Model<'_>, _v: VarId) -> crate::diag::Span {
    model
        .constraints
        .first()
        .map(|c| c.pred.span)
        .unwrap_or_default()
}
