//! Building the solver's model from a `Problem`: search variables decomposed into atoms, initial domains,
//! and the constraints (conjuncts, with universal quantifiers instantiated over known domains).
//!
//! Decomposition is what makes B's set-valued unknowns searchable without enumerating their power sets:
//! * a total function `f : A --> B` over a known finite A is one atom per point of A (its image);
//! * a set or relation `s <: T`, `r : A <-> B`, `r : A +-> B` over a known finite carrier is one BOOL atom
//!   per carrier element (membership);
//! * everything else is one atom whose candidates are the values of its type or of a known set it is a
//!   member of — or, when even that is unknown, candidates found at labelling time from the constraints
//!   (`Dom::Any`), as the brute-force oracle does.
//!
//! Variables defined by a deterministic equality `x = E` (E computable from what is known) are computed
//! first, as ProB does, and enter the search fixed.

use super::domain::Dom;
use crate::eval::{Context, Env, EvalError, SymbolicSet, Val};
use crate::ir::visit::{Node, visit_pred};
use crate::ir::{self, BinaryOp, CompareOp, Expr, ExprKind, Pred, PredKind, TypedName, UnaryOp};
use crate::syntax::ast::Name;
use crate::types::Type;
use crate::value::{Value, set};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

pub(crate) type AtomId = usize;
/// Values of a quantifier's bound variables at one instance.
type Bindings = Vec<(Name, Value)>;
pub(crate) type VarId = usize;

/// The most carrier elements a set variable is decomposed into, and the most points of a function.
const MAX_CARRIER: usize = 4096;
/// The most instances a universal quantifier is expanded into.
const MAX_INSTANCES: usize = 20_000;
/// Beyond this many constraints, quantifiers and conjunctions stay whole (one constraint each).
const MAX_CONSTRAINTS: usize = 200_000;

/// How a search variable's value is built from its atoms.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// The value of one atom.
    Scalar(AtomId),
    /// A subset of `carrier`: `bits[i]` is TRUE when `carrier[i]` is a member.
    Members {
        carrier: Arc<Vec<Value>>,
        bits: Vec<AtomId>,
    },
    /// A total function on `domain`: `images[i]` is the image of `domain[i]`.
    Function {
        domain: Arc<Vec<Value>>,
        images: Vec<AtomId>,
    },
    /// A total function on `domain` whose images are total functions on `inner` (`f : A --> (B --> C)`):
    /// `images[i * inner.len() + j]` is `f(domain[i])(inner[j])`.
    Curried {
        domain: Arc<Vec<Value>>,
        inner: Arc<Vec<Value>>,
        images: Vec<AtomId>,
    },
}

impl Shape {
    /// The atoms of row `i` of a curried function (the images of `f(domain[i])`).
    pub(crate) fn row(inner: &[Value], images: &[AtomId], i: usize) -> Vec<AtomId> {
        images[i * inner.len()..(i + 1) * inner.len()].to_vec()
    }
}

/// A component of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairPart {
    First,
    Second,
}

impl PairPart {
    /// The component of `v`, when it is a pair.
    pub(crate) fn of(self, v: &Value) -> Option<&Value> {
        match v {
            Value::Pair(p) => Some(match self {
                PairPart::First => &p.0,
                PairPart::Second => &p.1,
            }),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct SearchVar {
    pub name: Name,
    pub ty: Type,
    pub shape: Shape,
}

/// A constraint's predicate: a node of the problem's predicate, or one built for it (the dependent part
/// of a quantifier's guard with its consequent).
#[derive(Clone, Debug)]
pub(crate) enum PredRef<'p> {
    Borrowed(&'p Pred),
    Shared(Arc<Pred>),
}

impl std::ops::Deref for PredRef<'_> {
    type Target = Pred;
    fn deref(&self) -> &Pred {
        match self {
            PredRef::Borrowed(p) => p,
            PredRef::Shared(p) => p,
        }
    }
}

/// A conjunct to satisfy, possibly an instance of a universal quantifier (`bindings` gives its bound
/// variables' values).
#[derive(Clone, Debug)]
pub(crate) struct Constraint<'p> {
    pub pred: PredRef<'p>,
    pub bindings: Vec<(Name, Value)>,
    /// Search variables the predicate mentions (free, not shadowed by `bindings`).
    pub vars: Vec<VarId>,
    /// Atoms whose domain changes can change the constraint's status.
    pub watches: Vec<AtomId>,
}

pub(crate) struct Model<'p> {
    pub vars: Vec<SearchVar>,
    /// The owning variable of each atom.
    pub owner: Vec<VarId>,
    pub initial: Vec<Dom>,
    pub constraints: Vec<Constraint<'p>>,
    /// Constraints to wake when an atom's domain changes.
    pub watchers: Vec<Vec<usize>>,
    pub by_name: FxHashMap<Name, VarId>,
    /// How many of `vars` are the problem's (the rest are witnesses of top-level existentials).
    pub outputs: usize,
    /// A constraint already false before any search (its span explains an Unsat).
    pub failed: bool,
    /// A constraint found ill-defined while building (and so false): see `Stats::ill_defined`.
    pub ill_defined: Option<crate::diag::Diagnostic>,
    /// Some variable's candidates were cut to MININT..MAXINT: a missing solution proves nothing.
    pub clipped: bool,
    /// Per atom: label it after all others.
    pub late: Vec<bool>,
    /// The atoms of problem variables computed from witnesses, labelled after them (usually none).
    pub after_witnesses: Vec<AtomId>,
    /// Groups of atoms whose values must be pairwise distinct (injective functions, `card({..}) = n`).
    pub distinct: Vec<Vec<AtomId>>,
    /// The distinct groups each atom belongs to.
    pub distinct_of: Vec<Vec<usize>>,
    /// Per distinct group, the component of its pair-valued atoms that must differ, when it is not
    /// the whole value (`card({prj1(S,T)(f(1)), prj1(S,T)(f(2))}) = 2`): a fixed atom then takes out
    /// every value sharing that component. Such atoms are pairwise distinct too.
    pub distinct_part: Vec<Option<PairPart>>,
}

struct Builder<'c, 'p> {
    ctx: &'c Context,
    env: Env,
    /// The first constraint found ill-defined while building (decided false).
    ill_defined: Option<crate::diag::Diagnostic>,
    vars: Vec<SearchVar>,
    owner: Vec<VarId>,
    initial: Vec<Dom>,
    by_name: FxHashMap<Name, VarId>,
    /// Variables whose value was computed from a deterministic equality.
    determined: FxHashMap<Name, Value>,
    conjuncts: Vec<&'p Pred>,
    /// The names of all search variables (the problem's and the witnesses).
    names: FxHashSet<Name>,
    /// The witnesses' names (top-level existentials, labelled after the problem's variables).
    witness_names: FxHashSet<Name>,
    /// Conjuncts (by address) that hold by construction of the atoms.
    entailed: FxHashSet<usize>,
    /// The variable being shaped borrows another's typings (`alias_typings`).
    borrowing: bool,
    /// A set variable's carrier was cut to MININT..MAXINT.
    clipped: bool,
    /// Atoms to label after all others (membership bits over a cut carrier).
    late: Vec<AtomId>,
    /// Atoms computed from witnesses (`defined_atom`).
    after_witnesses: Vec<AtomId>,
    /// Whether set variables over types with integers may be guessed within a cut carrier (for users'
    /// questions; not for the model checker's per-state choices, where it multiplies partial searches).
    guess: bool,
    /// Predicates derived from a node while instantiating (see `Derivation`), by the node's address.
    derived: FxHashMap<(usize, Derivation), Derived<'p>>,
    /// `guard_solutions` of a quantifier's domain (held by `derived`), by its address and the values of
    /// the enclosing quantifiers' variables it mentions.
    guard_cache: FxHashMap<(usize, Vec<Value>), Option<Points>>,
    /// All search variables (the problem's, then the witnesses), for the interval analysis.
    all: Vec<TypedName>,
    /// The interval analysis of the conjuncts over `all`, once asked for (`analysis`).
    analysis: Option<crate::solve::interval::Analysis>,
    /// What the conjuncts say of each identifier, asked per variable.
    index: ConjunctIndex<'p>,
}

/// Per identifier, its typing conjuncts (`x : S`, `x <: S`) and the functions the conjuncts always apply
/// to it (`ir::strict`), in the conjuncts' order: gathered in one pass, where asking per variable
/// walked every conjunct once per variable (a CNF of 600 variables and 2,237 clauses: 11 ms).
#[derive(Default)]
struct ConjunctIndex<'p> {
    typings: FxHashMap<&'p str, Vec<(CompareOp, &'p Expr, &'p Pred)>>,
    applied: FxHashMap<&'p str, Vec<&'p Expr>>,
}

impl<'p> ConjunctIndex<'p> {
    fn of(conjuncts: &[&'p Pred]) -> ConjunctIndex<'p> {
        let mut index = ConjunctIndex::default();
        for &c in conjuncts {
            if let PredKind::Compare(op @ (CompareOp::In | CompareOp::Subset), x, s) = &c.kind
                && let ExprKind::Var(n) = &x.kind
            {
                let typings = index.typings.entry(&**n).or_default();
                typings.push((*op, &**s, c));
            }
            for (x, f) in ir::strict::applications(c) {
                index.applied.entry(x).or_default().push(f);
            }
        }
        index
    }
}

/// What `instantiate_in` derives from a predicate node. The instances of a quantifier walk the same
/// nodes once per point: deriving again would deep-copy the quantifier's body for every point (Queens'
/// `!(i,j).(... => !j2.(...) & ...)`, 25 points, each copying four inner quantifiers twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Derivation {
    /// The k-th conjunct.
    Part(usize),
    /// `distribute_implication`'s result.
    Distributed,
    /// A universal quantifier's body.
    Body,
    /// The guard conjuncts that need no search (the mask, as bits) and what is left to check, of a
    /// quantifier's body `P => Q`.
    Split(u64),
}

/// A derived predicate (or none), with the node it was derived from: holding that node keeps its address
/// from being reused for another while the entry lives.
struct Derived<'p> {
    _source: PredRef<'p>,
    result: Option<PredRef<'p>>,
    /// For `Split`: the guard's part that needs no search.
    domain: Option<Arc<Pred>>,
}

/// The solutions of a quantifier's guard, one value per bound variable.
type Points = Vec<Vec<Value>>;

/// A predicate node's identity while its tree is alive (caches keyed by node, `entailed`).
pub(crate) fn address(p: &Pred) -> usize {
    p as *const Pred as usize
}

/// Builds the model of `vars` subject to `pred` given `env`.
pub(crate) fn build<'p>(
    ctx: &Context,
    vars: &[TypedName],
    pred: &'p Pred,
    env: &Env,
    guess: bool,
) -> Result<Model<'p>, EvalError> {
    let mut conjuncts = Vec::new();
    let mut witnesses = Vec::new();
    let outer: FxHashSet<&str> = vars.iter().map(|v| &*v.name).collect();
    let clashes =
        |name: &str| outer.contains(name) || env.get(name).is_some() || ctx.is_global(name);
    flatten(pred, &clashes, &mut conjuncts, &mut witnesses);
    let all: Vec<TypedName> = vars.iter().cloned().chain(witnesses).collect();
    let index = ConjunctIndex::of(&conjuncts);
    let mut b = Builder {
        ctx,
        env: env.clone(),
        ill_defined: None,
        vars: Vec::new(),
        owner: Vec::new(),
        initial: Vec::new(),
        by_name: FxHashMap::default(),
        determined: FxHashMap::default(),
        conjuncts,
        names: all.iter().map(|v| v.name.clone()).collect(),
        witness_names: all[vars.len()..].iter().map(|v| v.name.clone()).collect(),
        entailed: FxHashSet::default(),
        borrowing: false,
        clipped: false,
        late: Vec::new(),
        after_witnesses: Vec::new(),
        guess,
        derived: FxHashMap::default(),
        guard_cache: FxHashMap::default(),
        all: all.clone(),
        analysis: None,
        index,
    };
    b.compute_determined(&all);
    // The deadline is checked per variable and per conjunct: a model of thousands of them takes
    // milliseconds to build, longer than the portfolio's probe.
    for v in &all {
        ctx.check_deadline(pred.span)?;
        b.add_var(v)?;
    }
    b.bound_integers();
    let mut constraints = Vec::new();
    let mut failed = false;
    for c in b.conjuncts.clone() {
        if b.entailed.contains(&address(c)) {
            continue;
        }
        ctx.check_deadline(c.span)?;
        failed |= b.instantiate(c, &mut constraints)?;
    }
    let mut late = vec![false; b.initial.len()];
    for &a in &b.late {
        late[a] = true;
    }
    let (mut distinct, mut distinct_part): (Vec<_>, Vec<_>) =
        b.distinct_groups().into_iter().unzip();
    let edges = b.extract_disequalities(&mut constraints);
    let cliques = super::alldiff::clique_cover(&edges);
    distinct_part.extend(cliques.iter().map(|_| None));
    distinct.extend(cliques);
    let mut distinct_of = vec![Vec::new(); b.initial.len()];
    for (g, atoms) in distinct.iter().enumerate() {
        for &a in atoms {
            distinct_of[a].push(g);
        }
    }
    let mut watchers = vec![Vec::new(); b.initial.len()];
    for (i, c) in constraints.iter().enumerate() {
        for &a in &c.watches {
            watchers[a].push(i);
        }
    }
    Ok(Model {
        vars: b.vars,
        owner: b.owner,
        initial: b.initial,
        constraints,
        watchers,
        by_name: b.by_name,
        outputs: vars.len(),
        failed,
        ill_defined: b.ill_defined,
        clipped: b.clipped,
        late,
        after_witnesses: b.after_witnesses,
        distinct,
        distinct_of,
        distinct_part,
    })
}

/// The conjuncts of `pred`, with top-level existentials opened: their variables become extra search
/// variables (witnesses) when their names clash with nothing.
fn flatten<'p>(
    pred: &'p Pred,
    clashes: &dyn Fn(&str) -> bool,
    out: &mut Vec<&'p Pred>,
    witnesses: &mut Vec<TypedName>,
) {
    for c in pred.conjuncts() {
        match &c.kind {
            PredKind::Exists(xs, body)
                if xs.iter().all(|x| {
                    !clashes(&x.name) && witnesses.iter().all(|w: &TypedName| w.name != x.name)
                }) =>
            {
                witnesses.extend(xs.iter().cloned());
                flatten(body, clashes, out, witnesses);
            }
            _ => out.push(c),
        }
    }
}

impl<'p> Builder<'_, 'p> {
    /// Repeatedly evaluates `x = E` conjuncts whose right side mentions only known names.
    fn compute_determined(&mut self, vars: &[TypedName]) {
        let names: FxHashSet<&str> = vars.iter().map(|v| &*v.name).collect();
        loop {
            let mut progress = false;
            for c in self.conjuncts.clone() {
                let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind else {
                    continue;
                };
                for (x, e) in [(l, r), (r, l)] {
                    let ExprKind::Var(name) = &x.kind else {
                        continue;
                    };
                    if !names.contains(&**name) || self.determined.contains_key(name) {
                        continue;
                    }
                    let free = ir::free_names::of_expr(e);
                    if free
                        .iter()
                        .any(|n| names.contains(&**n) && !self.determined.contains_key(n))
                    {
                        continue;
                    }
                    if let Ok(v) = self.ctx.eval_expr(e, &self.env) {
                        self.env.bind(name.clone(), v.clone());
                        self.determined.insert(name.clone(), v);
                        self.entailed.insert(address(c));
                        progress = true;
                        break;
                    }
                }
            }
            if !progress {
                break;
            }
        }
    }

    /// Pairwise-distinct groups: images of functions typed injective, and `card({x1, ..., xn}) = n` over
    /// scalar variables (ProB recognises the latter as pairwise distinctness too), or over one component
    /// of atoms' pairs (EulerOfficers' rows: `card({prj1(INTEGER,INTEGER)(squadron(1,1)), ...}) = 5`).
    fn distinct_groups(&self) -> Vec<(Vec<AtomId>, Option<PairPart>)> {
        let mut out = Vec::new();
        for c in &self.conjuncts {
            let PredKind::Compare(op, l, r) = &c.kind else {
                continue;
            };
            match op {
                CompareOp::In => {
                    let injective = match &r.kind {
                        ExprKind::Binary(arrow, _, _) => {
                            matches!(arrow, BinaryOp::TotalInjection | BinaryOp::TotalBijection)
                        }
                        ExprKind::Unary(UnaryOp::Perm, _) => true,
                        _ => false,
                    };
                    if let ExprKind::Var(f) = &l.kind
                        && injective
                        && let Some(&v) = self.by_name.get(f)
                        && let Shape::Function { images, .. } = &self.vars[v].shape
                    {
                        out.push((images.clone(), None));
                    }
                }
                CompareOp::Eq => {
                    for (a, b) in [(l, r), (r, l)] {
                        if let ExprKind::Unary(UnaryOp::Card, s) = &a.kind
                            && let ExprKind::SetEnum(items) = &s.kind
                            && let ExprKind::Int(n) = &b.kind
                            && *n == num_bigint::BigInt::from(items.len())
                        {
                            let atoms: Option<Vec<AtomId>> = items
                                .iter()
                                .map(|e| match &e.kind {
                                    ExprKind::Var(x) => match self.by_name.get(x) {
                                        Some(&v) => match self.vars[v].shape {
                                            Shape::Scalar(a) => Some(a),
                                            _ => None,
                                        },
                                        None => None,
                                    },
                                    _ => None,
                                })
                                .collect();
                            if let Some(atoms) = atoms {
                                out.push((atoms, None));
                            } else if let Some(group) = self.projected_atoms(items) {
                                out.push(group);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The atoms of `prj1(S,T)(e1), ..., prj1(S,T)(en)` (or all `prj2`, or `prj1(ei)`), each `ei` exactly
    /// one atom's value, and the component taken.
    fn projected_atoms(&self, items: &[Expr]) -> Option<(Vec<AtomId>, Option<PairPart>)> {
        let mut part = None;
        let mut atoms = Vec::with_capacity(items.len());
        for e in items {
            let (this, x) = match &e.kind {
                ExprKind::Unary(UnaryOp::PairFirst, x) => (PairPart::First, x),
                ExprKind::Unary(UnaryOp::PairSecond, x) => (PairPart::Second, x),
                ExprKind::Binary(BinaryOp::Apply, f, x) => match &f.kind {
                    ExprKind::Binary(BinaryOp::Prj1, ..) => (PairPart::First, x),
                    ExprKind::Binary(BinaryOp::Prj2, ..) => (PairPart::Second, x),
                    _ => return None,
                },
                _ => return None,
            };
            if *part.get_or_insert(this) != this {
                return None;
            }
            atoms.push(self.atom_of(x, &[])?);
        }
        let mut unique = atoms.clone();
        unique.sort_unstable();
        unique.dedup();
        // The same atom twice would make the group unsatisfiable, which the conjunct itself shows.
        (unique.len() == atoms.len()).then_some((atoms, part))
    }

    /// Narrows the integer atoms of scalar variables to the ranges the interval analysis derives from all
    /// conjuncts (it may bound what no single typing conjunct does, e.g. `x < y & y : 1..5`).
    /// The last use of the analysis: it is taken, not copied.
    fn bound_integers(&mut self) {
        if self.analysis().is_none() {
            return;
        }
        let Some(analysis) = self.analysis.take() else {
            return;
        };
        for (var, info) in self.all.iter().zip(&analysis.vars) {
            let Some(&v) = self.by_name.get(&var.name) else {
                continue;
            };
            if var.ty != Type::Integer {
                continue;
            }
            if let Shape::Scalar(a) = self.vars[v].shape {
                let lo = info.int.lo.as_ref().map(crate::value::Int::from);
                let hi = info.int.hi.as_ref().map(crate::value::Int::from);
                if let Some(d) = self.initial[a].restrict_ints(lo.as_ref(), hi.as_ref()) {
                    self.initial[a] = d;
                }
            }
        }
    }

    /// Whether `name`'s defining equation mentions search variables, none of them an integer.
    fn defined_from_sets_only(&self, name: &str) -> bool {
        let Some((c, _)) = self.defining_equation(name) else {
            return false;
        };
        let free = ir::free_names::of_pred(c);
        let searched: Vec<&TypedName> = self
            .all
            .iter()
            .filter(|v| *v.name != *name && free.contains(&v.name))
            .collect();
        !searched.is_empty() && searched.iter().all(|v| v.ty != Type::Integer)
    }

    /// Whether the interval analysis bounds integer variable `name` below (when `below` is asked)
    /// and above (when `above` is).
    fn analysis_bounds(&mut self, name: &str, below: bool, above: bool) -> bool {
        let Some(i) = self.all.iter().position(|v| *v.name == *name) else {
            return false;
        };
        self.analysis().is_some_and(|a| {
            let int = &a.vars[i].int;
            (!below || int.lo.is_some()) && (!above || int.hi.is_some())
        })
    }

    /// The interval analysis of all conjuncts over all search variables (computed once); `None` when
    /// it found a contradiction (the search will find it itself; the ranges mean nothing then).
    fn analysis(&mut self) -> Option<&crate::solve::interval::Analysis> {
        if self.analysis.is_none() {
            self.analysis = Some(crate::solve::interval::analyse(
                self.ctx,
                &self.all,
                &self.conjuncts,
                &self.env,
            ));
        }
        self.analysis.as_ref().filter(|a| a.contradiction.is_none())
    }

    fn new_atom(&mut self, dom: Dom) -> AtomId {
        self.owner.push(self.vars.len());
        self.initial.push(dom);
        self.initial.len() - 1
    }

    fn add_var(&mut self, v: &TypedName) -> Result<(), EvalError> {
        let shape = if let Some(value) = self.determined.get(&v.name).cloned() {
            Shape::Scalar(self.new_atom(Dom::finite(vec![value])))
        } else {
            self.shape_of(v)?
        };
        self.by_name.insert(v.name.clone(), self.vars.len());
        self.vars.push(SearchVar {
            name: v.name.clone(),
            ty: v.ty.clone(),
            shape,
        });
        Ok(())
    }

    /// An expression whose value is known before the search (no undetermined search variable in it).
    fn known(&self, e: &Expr) -> Option<Val> {
        let free = ir::free_names::of_expr(e);
        if free
            .iter()
            .any(|n| self.is_search_name(n) && !self.determined.contains_key(n))
        {
            return None;
        }
        self.ctx.eval_symbolic(e, &self.env).ok()
    }

    /// The least upper bound on `size(name)` that a top-level conjunct with a known bound states
    /// (`size_bounds::stated_bound`), else the card bound of the interval analysis.
    fn size_bound(&mut self, name: &str) -> Option<usize> {
        let mut best: Option<usize> = None;
        for c in &self.conjuncts {
            let Some((bound, below)) = super::size_bounds::stated_bound(name, c) else {
                continue;
            };
            let Some(Val::Value(Value::Int(n))) = self.known(bound) else {
                continue;
            };
            let n = super::size_bounds::allowed(&n, below)?;
            best = Some(best.map_or(n, |b| b.min(n)));
        }
        if best.is_none() {
            // A bound the interval analysis derives (`size(s) + size(t) <= 3`) is as sound.
            let i = self.all.iter().position(|v| *v.name == *name)?;
            let hi = num_traits::ToPrimitive::to_usize(self.analysis()?.vars[i].card.hi.as_ref()?)?;
            best = Some(hi);
        }
        best
    }

    fn is_search_name(&self, n: &str) -> bool {
        self.names.contains(n)
    }

    fn known_finite(&self, e: &Expr) -> Option<Arc<Vec<Value>>> {
        let v = self.known(e)?;
        if self.ctx.is_infinite(&v) {
            return None;
        }
        self.ctx
            .materialize(&v, e.span)
            .ok()
            .filter(|s| s.len() <= self.ctx.settings().enumeration_limit)
    }

    /// A known finite set of at most `MAX_CARRIER` members (a carrier of membership bits); a symbolic
    /// set whose cardinality is computed without listing it is not listed when it is larger.
    fn known_carrier(&self, e: &Expr) -> Option<Arc<Vec<Value>>> {
        let v = self.known(e)?;
        if let Val::Sym(sym) = &v
            && matches!(
                &**sym,
                SymbolicSet::PowerSet { .. }
                    | SymbolicSet::Arrow(..)
                    | SymbolicSet::Sequences(..)
                    | SymbolicSet::Product(..)
            )
            && !self.ctx.is_infinite(&v)
        {
            match self.ctx.card(&v, e.span) {
                Ok(n) if n.to_usize().is_none_or(|n| n > MAX_CARRIER) => return None,
                Err(EvalError::Limit(_)) => return None,
                _ => {}
            }
        }
        self.known_finite(e).filter(|c| c.len() <= MAX_CARRIER)
    }

    /// A known finite superset of the values of `e`, a search variable typed `e <: T` or `e : POW(T)`
    /// (also `FIN`, `POW1`, `FIN1`) with T known.
    fn known_superset(&self, e: &Expr) -> Option<Arc<Vec<Value>>> {
        let ExprKind::Var(name) = &e.kind else {
            return None;
        };
        if !self.is_search_name(name) {
            return None;
        }
        self.typings(name).into_iter().find_map(|(op, s, _)| {
            let t = match (op, &s.kind) {
                (CompareOp::Subset, _) => s,
                (
                    CompareOp::In,
                    ExprKind::Unary(UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1, t),
                ) => &**t,
                _ => return None,
            };
            self.known_finite(t).filter(|c| c.len() <= MAX_CARRIER)
        })
    }

    /// The domains of the known finite functions a top-level conjunct always applies to the variable
    /// (`ir::strict`): outside them that conjunct is ill-defined, so no solution lies there (`yy =
    /// f(Nr)` bounds Nr by `dom(f)` rather than by the MININT..MAXINT cut). The conjuncts stay to check.
    fn applied_domains(&self, name: &str) -> Vec<Arc<Vec<Value>>> {
        let applied = self.index.applied.get(name).map_or(&[][..], Vec::as_slice);
        let mut out = Vec::new();
        for f in applied {
            if let Some(Val::Value(Value::Set(pairs))) = self.known(f) {
                out.push(Arc::new(set::domain(&pairs)));
            }
        }
        out
    }

    /// The typing conjuncts `v : S`, `v <: S` of a variable.
    fn typings(&self, name: &str) -> Vec<(CompareOp, &'p Expr, &'p Pred)> {
        self.index.typings.get(name).cloned().unwrap_or_default()
    }

    /// The typings of another search variable `y` that a conjunct `name = y` (or `y = name`) equates
    /// with `name`, when `name` has none of its own: `y : S` then bounds `name` too. The one-point
    /// pattern of a before-after predicate, `#p2.(p2 : Coins --> NAT & ... & purse' = p2)`, leaves the
    /// after-state `purse'` untyped, and its witness `p2` is labelled too late to define it.
    fn alias_typings(&self, name: &str) -> Vec<(CompareOp, &'p Expr, &'p Pred)> {
        let is = |e: &Expr, n: &str| matches!(&e.kind, ExprKind::Var(x) if &**x == n);
        for c in &self.conjuncts {
            let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind else {
                continue;
            };
            for (x, y) in [(l, r), (r, l)] {
                if let ExprKind::Var(other) = &y.kind
                    && is(x, name)
                    && &**other != name
                    && self.is_search_name(other)
                {
                    let found = self.typings(other);
                    if !found.is_empty() {
                        return found;
                    }
                }
            }
        }
        Vec::new()
    }

    /// Records that a conjunct holds by construction of a variable's atoms (it needs no constraint).
    /// Not while a variable borrows another's typings (`alias_typings`): they hold for the other one
    /// only by that one's atoms.
    fn entail(&mut self, c: &Pred) {
        if !self.borrowing {
            self.entailed.insert(address(c));
        }
    }

    fn shape_of(&mut self, v: &TypedName) -> Result<Shape, EvalError> {
        let mut typings = self.typings(&v.name);
        self.borrowing = typings.is_empty();
        if self.borrowing {
            typings = self.alias_typings(&v.name);
        }
        let shape = self.shape_from(v, typings);
        self.borrowing = false;
        shape
    }

    fn shape_from(
        &mut self,
        v: &TypedName,
        typings: Vec<(CompareOp, &'p Expr, &'p Pred)>,
    ) -> Result<Shape, EvalError> {
        if let Type::Set(_) = &v.ty {
            // A set listed explicitly (`s : {[1,2], [3]}`, a constant holding sets) is one choice among
            // the listed values: membership bits over a carrier cut to MININT..MAXINT would be a
            // search among 2^|carrier| subsets that the listing refutes only once they are all fixed.
            for (op, s, c) in &typings {
                if *op == CompareOp::In
                    && let Some(Val::Value(Value::Set(items))) = self.known(s)
                    && items.len() <= MAX_CARRIER
                {
                    self.entail(c);
                    return Ok(Shape::Scalar(self.new_atom(Dom::Finite(items))));
                }
            }
            // A sequence whose size a top-level conjunct bounds is one choice among all the
            // sequences that short: a value, not membership bits over a cut carrier of index pairs.
            for (op, s, c) in &typings {
                if *op == CompareOp::In
                    && matches!(&s.kind, ExprKind::Unary(UnaryOp::Seq | UnaryOp::Seq1, _))
                    && let Some(set) = self.known(s)
                    && let Some(max_len) = self.size_bound(&v.name)
                    && let Some((mut values, true)) =
                        self.ctx.sequences_up_to(&set, s.span, max_len)
                {
                    // A finite domain is sorted (members are found by binary search).
                    values.sort();
                    self.entail(c);
                    return Ok(Shape::Scalar(self.new_atom(Dom::Finite(Arc::new(values)))));
                }
            }
            for (op, s, c) in &typings {
                if *op == CompareOp::In
                    && let Some((shape, entailed)) = self.curried_shape(s)
                {
                    if entailed {
                        self.entail(c);
                    }
                    return Ok(shape);
                }
            }
        }
        if let Type::Set(elem) = &v.ty {
            for (op, s, c) in &typings {
                if let Some(shape) = self.compound_shape(*op, s, elem)? {
                    // Both sides known: a domain only bounded by a superset (`known_superset`)
                    // leaves the typing to check.
                    let range_known = match &s.kind {
                        ExprKind::Binary(_, a, b) => {
                            self.member_domain(b).is_some() && self.known(a).is_some()
                        }
                        _ => true,
                    };
                    if entailed_by_shape(*op, s) && range_known {
                        self.entail(c);
                    }
                    return Ok(shape);
                }
            }
            // A set defined by an equation over other unknowns (`s = {n}`, `r = f~`) is computed from
            // it once they are labelled, rather than guessed within a cut carrier.
            if !elem.is_finite()
                && let Some(shape) = self.defined_atom(&v.name)
            {
                return Ok(shape);
            }
            if let Some(shape) = self.cut_relation_shape(&v.name, &typings) {
                return Ok(shape);
            }
            // The type's values as carrier; when the type has integers they are cut to MININT..MAXINT, and
            // the model remembers that its search is incomplete (as ProB's enumeration warning).
            if super::small_values::listed_size(self.ctx, elem, v.span)
                .is_some_and(|n| n <= MAX_CARRIER as u64)
                && let Ok((items, complete)) = self.ctx.type_values(elem, v.span)
                && items.len() <= MAX_CARRIER
                && (complete || self.guess)
            {
                // A set a constraint lists once other unknowns are labelled (`(y |-> x) : S`,
                // `E = x ^ F`) is taken from that list then, rather than guessed bit by bit within a
                // cut carrier.
                if !complete && self.listed_later(&v.name) {
                    return Ok(self.dependent_atom());
                }
                self.clipped |= !complete;
                let first = self.initial.len();
                let shape = self.members(items);
                if !complete {
                    // Guessed bits go last: constraints that define the set usually fix them first.
                    self.late.extend(first..self.initial.len());
                }
                return Ok(shape);
            }
        }
        let mut dom = self.type_domain(&v.ty, v);
        if matches!(dom, Dom::Any)
            && let Some(shape) = self.defined_atom(&v.name)
        {
            return Ok(shape);
        }
        for (op, s, c) in &typings {
            if *op != CompareOp::In {
                continue;
            }
            if let Some(d) = self.member_domain(s) {
                dom = intersect(&dom, &d);
                self.entail(c);
            }
        }
        for d in self.applied_domains(&v.name) {
            dom = intersect(&dom, &Dom::Finite(d));
        }
        // An integer unbounded on a side would be labelled within the MININT..MAXINT cut, an
        // incomplete guess; an equation defining it from set-valued unknowns gives its one value
        // once they are labelled (`a = card(b)` with b a lambda over `1..c`). One over integer
        // unknowns stays a labelled scalar: ProB cuts its own enumeration (Goldbach's `x = p1 +
        // p2` with x : NATURAL is enumerated up to MAXINT).
        if let Dom::Range(lo, hi) = &dom
            && (lo.is_none() || hi.is_none())
            && !self.analysis_bounds(&v.name, lo.is_none(), hi.is_none())
            && self.defined_from_sets_only(&v.name)
            && let Some(shape) = self.defined_atom(&v.name)
        {
            return Ok(shape);
        }
        Ok(Shape::Scalar(self.new_atom(dom)))
    }

    /// A conjunct `x = E` (or `E = x`) whose E does not mention x: once E's unknowns are labelled, it
    /// gives x's one candidate (`search::defined_candidates`). The flag tells whether E mentions a
    /// witness; an equation without one is preferred.
    fn defining_equation(&self, name: &str) -> Option<(&'p Pred, bool)> {
        let mut with_witness = None;
        for c in self.conjuncts.iter().copied() {
            let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind else {
                continue;
            };
            let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if &**n == name);
            for (x, e) in [(l, r), (r, l)] {
                if !is_x(x) {
                    continue;
                }
                let free = ir::free_names::of_expr(e);
                if free.contains(name) {
                    continue;
                }
                if free.iter().all(|n| !self.witness_names.contains(n)) {
                    return Some((c, false));
                }
                with_witness.get_or_insert((c, true));
            }
        }
        with_witness
    }

    /// The atom of a variable computed from its defining equation, if it has one. One whose equation
    /// mentions a witness (`purse' = sum(p2, ...)` for an ANY's `p2`) is labelled after the witnesses.
    fn defined_atom(&mut self, name: &str) -> Option<Shape> {
        let (_, after_witnesses) = self.defining_equation(name)?;
        let shape = self.dependent_atom();
        if after_witnesses && let Shape::Scalar(a) = shape {
            self.after_witnesses.push(a);
        }
        Some(shape)
    }

    /// Whether a conjunct gives `name` its candidates at labelling time (`search::defined_candidates`):
    /// `name` a component of a maplet pattern `(y |-> name) : S`, or an operand of a concatenation
    /// equal to an expression `E = name ^ F`, `E = A ^ name ^ F` (its parts), S and E not mentioning it nor
    /// witnesses.
    fn listed_later(&self, name: &str) -> bool {
        let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if &**n == name);
        let independent = |e: &Expr| {
            let free = ir::free_names::of_expr(e);
            !free.contains(name) && free.iter().all(|n| !self.witness_names.contains(n))
        };
        // Other leaves of the pattern may be anything (`(1 |-> name) : S`): the candidates taken from
        // S are then a superset of name's values, which is all a listing needs.
        let in_pattern = |pattern: &Expr, set: &Expr| {
            matches!(pattern.kind, ExprKind::Binary(BinaryOp::Maplet, _, _))
                && pattern.maplet_path(name).is_some()
                && independent(set)
        };
        let split = |whole: &Expr, cat: &Expr| {
            matches!(&cat.kind, ExprKind::Binary(BinaryOp::Concat, _, _))
                && cat.concat_operands().into_iter().any(is_x)
                && independent(whole)
        };
        self.conjuncts.iter().any(|c| match &c.kind {
            PredKind::Compare(CompareOp::In, pattern, set) => in_pattern(pattern, set),
            PredKind::Compare(CompareOp::Eq, l, r) => split(l, r) || split(r, l),
            _ => false,
        })
    }

    /// An atom of unlistable values computed from its defining equation: labelled after the others,
    /// when that equation's other side is fixed.
    fn dependent_atom(&mut self) -> Shape {
        let a = self.new_atom(Dom::Any);
        self.late.push(a);
        Shape::Scalar(a)
    }

    /// The domain a scalar gets from `x : S` with S known.
    fn member_domain(&self, s: &Expr) -> Option<Dom> {
        let v = self.known(s)?;
        if let Val::Sym(sym) = &v
            && let crate::eval::SymbolicSet::Interval(lo, hi) = &**sym
        {
            return Some(Dom::range(lo.clone(), hi.clone()));
        }
        self.known_finite(s).map(Dom::Finite)
    }

    /// For `lo..hi` whose ends are known or variables with integer domains: the widest interval it can
    /// be (a superset of every value of the set's elements).
    /// The candidates of a function's images: the known range, else the hull of an interval range,
    /// else the values of the range type.
    fn image_domain(
        &self,
        known: Option<Dom>,
        range: &Expr,
        range_ty: &Type,
        span: crate::diag::Span,
    ) -> Dom {
        known
            .or_else(|| self.interval_hull(range))
            .unwrap_or_else(|| {
                self.type_domain(
                    range_ty,
                    &TypedName {
                        name: "".into(),
                        ty: range_ty.clone(),
                        span,
                    },
                )
            })
    }

    fn interval_hull(&self, e: &Expr) -> Option<Dom> {
        let ExprKind::Binary(BinaryOp::Interval, lo, hi) = &e.kind else {
            return None;
        };
        let bounds = |x: &Expr| -> Option<(Option<crate::value::Int>, Option<crate::value::Int>)> {
            if let ExprKind::Var(n) = &x.kind
                && let Some(&v) = self.by_name.get(n)
                && let Shape::Scalar(a) = self.vars[v].shape
            {
                return self.initial[a].int_bounds();
            }
            match self.known(x)? {
                Val::Value(Value::Int(i)) => Some((Some(i.clone()), Some(i))),
                _ => None,
            }
        };
        let (lo, _) = bounds(lo)?;
        let (_, hi) = bounds(hi)?;
        Some(Dom::range(lo, hi))
    }

    fn type_domain(&self, ty: &Type, v: &TypedName) -> Dom {
        match ty {
            Type::Integer => Dom::Range(None, None),
            // Listing a type with integers inside only to find it incomplete would cost a power set.
            _ if !ty.is_finite() => Dom::Any,
            // A power set too large to list is recognised before its members are built.
            _ if super::small_values::listed_size(self.ctx, ty, v.span)
                .is_none_or(|n| n > self.ctx.settings().enumeration_limit as u64) =>
            {
                Dom::Any
            }
            _ => match self.ctx.type_values(ty, v.span) {
                Ok((items, true)) if items.len() <= self.ctx.settings().enumeration_limit => {
                    Dom::Finite(items)
                }
                _ => Dom::Any,
            },
        }
    }

    /// A decomposed shape for a set variable typed by `x : S` / `x <: S`.
    fn compound_shape(
        &mut self,
        op: CompareOp,
        s: &Expr,
        elem: &Type,
    ) -> Result<Option<Shape>, EvalError> {
        if op == CompareOp::Subset {
            return Ok(self.known_carrier(s).map(|c| self.members(c)));
        }
        match &s.kind {
            // A permutation of a known set S is a bijection from 1..card(S) onto S.
            ExprKind::Unary(UnaryOp::Perm, t) => {
                let Some(items) = self.known_finite(t) else {
                    return Ok(None);
                };
                if items.len() > MAX_CARRIER {
                    return Ok(None);
                }
                let domain: Vec<Value> = (1..=items.len() as i64).map(Value::int).collect();
                let image_dom = Dom::Finite(items);
                let images = (0..domain.len())
                    .map(|_| self.new_atom(image_dom.clone()))
                    .collect();
                Ok(Some(Shape::Function {
                    domain: Arc::new(domain),
                    images,
                }))
            }
            ExprKind::Unary(UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1, t) => {
                Ok(self.known_carrier(t).map(|c| self.members(c)))
            }
            ExprKind::Binary(op, a, b) if op.is_arrow() => {
                let Some(from) = self.known_finite(a) else {
                    // A domain that is itself unknown but a subset of a known set (`f : A --> S` with
                    // `A <: T`): the relation is a subset of T * S, decomposed into membership bits
                    // (the typing conjunct stays a constraint).
                    let Some(superset) = self.known_superset(a) else {
                        return Ok(None);
                    };
                    let Some(to) = self.known_finite(b) else {
                        return Ok(None);
                    };
                    if superset.len().saturating_mul(to.len()) > MAX_CARRIER {
                        return Ok(None);
                    }
                    return Ok(Some(self.members(Arc::new(set::product(&superset, &to)))));
                };
                let total_function = matches!(
                    op,
                    BinaryOp::TotalFunction
                        | BinaryOp::TotalInjection
                        | BinaryOp::TotalSurjection
                        | BinaryOp::TotalBijection
                );
                if total_function && from.len() <= MAX_CARRIER {
                    let range_ty = match elem {
                        Type::Pair(_, r) => (**r).clone(),
                        _ => return Ok(None),
                    };
                    let image_dom = self.image_domain(self.member_domain(b), b, &range_ty, s.span);
                    let images = (0..from.len())
                        .map(|_| self.new_atom(image_dom.clone()))
                        .collect();
                    return Ok(Some(Shape::Function {
                        domain: from,
                        images,
                    }));
                }
                let Some(to) = self.known_finite(b) else {
                    return Ok(None);
                };
                if from.len().saturating_mul(to.len()) > MAX_CARRIER {
                    return Ok(None);
                }
                Ok(Some(self.members(Arc::new(set::product(&from, &to)))))
            }
            _ => Ok(None),
        }
    }

    /// A relation typed over unbounded integer sets, `x : A op B` with `op` an arrow or `<->` and A or B
    /// an interval open at one end (`a : NAT1 +-> INTEGER`): ProB enumerates such a relation with A and B
    /// cut to MININT..MAXINT (B/Demo/SortByPermutationPF.mch: the 2,401 partial functions from 1..4 to
    /// -1..4 as initial states). Membership bits over the product of the cuts, the model marked clipped
    /// (a missing solution then proves nothing); the typing conjunct stays a constraint (it rejects, e.g.,
    /// every cut of a total function on NAT). A relation a later constraint lists (`(y |-> x) : S`) is
    /// taken from that list instead.
    fn cut_relation_shape(
        &mut self,
        name: &str,
        typings: &[(CompareOp, &'p Expr, &'p Pred)],
    ) -> Option<Shape> {
        let carrier = typings.iter().find_map(|(op, s, _)| {
            let ExprKind::Binary(arrow, a, b) = &s.kind else {
                return None;
            };
            if *op != CompareOp::In || !arrow.is_arrow() {
                return None;
            }
            let (from, from_cut) = self.cut_to_int_window(a)?;
            let (to, to_cut) = self.cut_to_int_window(b)?;
            if !(from_cut || to_cut) || from.len().saturating_mul(to.len()) > MAX_CARRIER {
                return None;
            }
            Some(Arc::new(set::product(&from, &to)))
        })?;
        if self.listed_later(name) {
            return Some(self.dependent_atom());
        }
        self.clipped = true;
        // Guessed bits go last, as those of a type's cut carrier (`shape_of`).
        let first = self.initial.len();
        let shape = self.members(carrier);
        self.late.extend(first..self.initial.len());
        Some(shape)
    }

    /// A known set's members, with an integer interval open at an end cut to MININT..MAXINT; the flag
    /// says whether it was cut.
    fn cut_to_int_window(&self, e: &Expr) -> Option<(Arc<Vec<Value>>, bool)> {
        if let Some(Val::Sym(sym)) = self.known(e)
            && let SymbolicSet::Interval(lo, hi) = &*sym
            && (lo.is_none() || hi.is_none())
        {
            let (min, max) = self.ctx.int_cut();
            let lo = lo.clone().map_or(min.clone(), |l| l.max(min));
            let hi = hi.clone().map_or(max.clone(), |h| h.min(max));
            let cut = match Value::interval(&lo, &hi) {
                Value::Set(items) => items,
                _ => return None,
            };
            return Some((cut, true));
        }
        self.known_finite(e).map(|items| (items, false))
    }

    /// `f : A --> (B --> C)` (total functions, A and B known and finite): one atom per pair of points, so
    /// that `f(x)(y)` with x, y known is one atom rather than a choice among all functions `B --> C`.
    /// The flag says whether the typing conjunct holds by construction (C known, no injectivity).
    fn curried_shape(&mut self, s: &Expr) -> Option<(Shape, bool)> {
        let ExprKind::Binary(outer, a, rest) = &s.kind else {
            return None;
        };
        let ExprKind::Binary(inner_op, b, c) = &rest.kind else {
            return None;
        };
        let total = |op: &BinaryOp| {
            matches!(
                op,
                BinaryOp::TotalFunction
                    | BinaryOp::TotalInjection
                    | BinaryOp::TotalSurjection
                    | BinaryOp::TotalBijection
            )
        };
        if !total(outer) || !total(inner_op) {
            return None;
        }
        let domain = self.known_finite(a)?;
        let inner = self.known_finite(b)?;
        let cells = domain.len().checked_mul(inner.len())?;
        if cells > MAX_CARRIER || domain.is_empty() {
            return None;
        }
        let range_ty = match &c.ty {
            Type::Set(t) => (**t).clone(),
            _ => return None,
        };
        let known_range = self.member_domain(c);
        let entailed = known_range.is_some()
            && *outer == BinaryOp::TotalFunction
            && *inner_op == BinaryOp::TotalFunction;
        let image_dom = self.image_domain(known_range, c, &range_ty, s.span);
        let images = (0..cells)
            .map(|_| self.new_atom(image_dom.clone()))
            .collect();
        Some((
            Shape::Curried {
                domain,
                inner,
                images,
            },
            entailed,
        ))
    }

    fn members(&mut self, carrier: Arc<Vec<Value>>) -> Shape {
        let bool_dom = Dom::Finite(Arc::new(vec![Value::Bool(false), Value::Bool(true)]));
        let bits = (0..carrier.len())
            .map(|_| self.new_atom(bool_dom.clone()))
            .collect();
        Shape::Members { carrier, bits }
    }

    /// Adds the constraints of one conjunct (instances of a universal quantifier over a known domain);
    /// returns true when a constraint is already false.
    fn instantiate(
        &mut self,
        c: &'p Pred,
        out: &mut Vec<Constraint<'p>>,
    ) -> Result<bool, EvalError> {
        self.instantiate_in(PredRef::Borrowed(c), Vec::new(), out)
    }

    /// Adds the constraints of `pred` at `bindings`: a conjunction is one constraint per part, a universal
    /// quantifier over a known domain one per instance (nested quantifiers too, so that each constraint
    /// mentions few atoms and forward checking applies to it).
    fn instantiate_in(
        &mut self,
        pred: PredRef<'p>,
        bindings: Bindings,
        out: &mut Vec<Constraint<'p>>,
    ) -> Result<bool, EvalError> {
        if out.len() < MAX_CONSTRAINTS {
            if let PredKind::And(parts) = &pred.kind {
                for k in 0..parts.len() {
                    let part = self
                        .derive(&pred, Derivation::Part(k), |pred| {
                            Some(sub_pred(pred, |p| match &p.kind {
                                PredKind::And(ps) => &ps[k],
                                _ => p,
                            }))
                        })
                        .expect("a conjunction has its parts");
                    if self.instantiate_in(part, bindings.clone(), out)? {
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            if let Some(moved) = self.derive(&pred, Derivation::Distributed, |pred| {
                distribute_implication(pred).map(|moved| PredRef::Shared(Arc::new(moved)))
            }) {
                return self.instantiate_in(moved, bindings, out);
            }
            if let PredKind::Forall(xs, _) = &pred.kind {
                let xs = xs.clone();
                let body = self
                    .derive(&pred, Derivation::Body, |pred| {
                        Some(sub_pred(pred, |p| match &p.kind {
                            PredKind::Forall(_, body) => body,
                            _ => p,
                        }))
                    })
                    .expect("a quantifier has its body");
                if let Some((instances, checked)) = self.instances(&xs, body, &bindings) {
                    for inner in instances {
                        let mut all = bindings.clone();
                        all.extend(inner);
                        if self.instantiate_in(checked.clone(), all, out)? {
                            return Ok(true);
                        }
                    }
                    return Ok(false);
                }
            }
        }
        self.add_constraint(pred, bindings, out)
    }

    /// `make(pred)`, derived once per node and kind of derivation.
    fn derive(
        &mut self,
        pred: &PredRef<'p>,
        kind: Derivation,
        make: impl FnOnce(&PredRef<'p>) -> Option<PredRef<'p>>,
    ) -> Option<PredRef<'p>> {
        let key = (address(pred), kind);
        if let Some(found) = self.derived.get(&key) {
            return found.result.clone();
        }
        let result = make(pred);
        self.derived.insert(
            key,
            Derived {
                _source: pred.clone(),
                result: result.clone(),
                domain: None,
            },
        );
        result
    }

    /// The points a universal quantifier `!xs.(P => Q)` must be checked at (within the enclosing
    /// quantifiers' `outer` bindings), when P's solutions do not depend on the search (then the
    /// instances are `P => Q` at each solution of P, and P holds there) or when the bound variables
    /// range over a small finite type.
    fn instances(
        &mut self,
        xs: &[TypedName],
        body: PredRef<'p>,
        outer: &Bindings,
    ) -> Option<(Vec<Bindings>, PredRef<'p>)> {
        if xs.iter().any(|x| self.by_name.contains_key(&x.name)) {
            return None;
        }
        let mut env = self.env.clone();
        for (n, v) in outer {
            env.bind(n.clone(), v.clone());
        }
        // Names the enclosing quantifiers bind shadow search variables of the same name.
        let outer_names: FxHashSet<&str> = outer.iter().map(|(n, _)| &**n).collect();
        if let PredKind::Implies(p, _) = &body.kind {
            let bound: FxHashSet<&str> = xs.iter().map(|x| &*x.name).collect();
            let conjuncts = p.conjuncts();
            // The conjuncts whose solutions do not depend on the search, as a mask.
            let mut independent = 0u64;
            if conjuncts.len() <= 64 {
                for (k, c) in conjuncts.iter().enumerate() {
                    let needs_search = ir::free_names::pred_mentions(c, &|n| {
                        !(bound.contains(&**n)
                            || outer_names.contains(&**n)
                            || !self.is_search_name(n)
                            || self.determined.contains_key(n))
                    });
                    if !needs_search {
                        independent |= 1 << k;
                    }
                }
            }
            if independent != 0 {
                let (domain, checked) = self.split_guard(&body, independent);
                // The solutions depend on the enclosing quantifiers' values the domain mentions.
                let outer_values: Vec<Value> = (outer.iter())
                    .filter(|(n, _)| ir::free_names::pred_mentions(&domain, &|m| m == n))
                    .map(|(_, v)| v.clone())
                    .collect();
                let key = (address(&domain), outer_values);
                let solutions = match self.guard_cache.get(&key) {
                    Some(found) => found.clone(),
                    None => {
                        let found = self.guard_solutions(xs, &domain, &env);
                        self.guard_cache.insert(key, found.clone());
                        found
                    }
                };
                if let Some(solutions) = solutions {
                    let points = solutions
                        .into_iter()
                        .map(|sol| xs.iter().map(|x| x.name.clone()).zip(sol).collect())
                        .collect();
                    return Some((points, checked));
                }
            }
        }
        // A guard `(x1 |-> ... |-> xn) : s` with s a set variable decomposed over a known carrier: the
        // carrier's elements are a superset of the points (the guard stays in each instance).
        if let PredKind::Implies(p, _) = &body.kind
            && let Some(points) = self.carrier_points(xs, p, &outer_names)
        {
            return Some((points, body));
        }
        // Every combination of the bound variables' type values.
        let mut points: Vec<Vec<(Name, Value)>> = vec![Vec::new()];
        for x in xs {
            let (items, complete) = self.ctx.type_values(&x.ty, x.span).ok()?;
            if !complete || points.len().saturating_mul(items.len()) > MAX_INSTANCES {
                return None;
            }
            points = points
                .into_iter()
                .flat_map(|p| {
                    items.iter().map(move |v| {
                        let mut q = p.clone();
                        q.push((x.name.clone(), v.clone()));
                        q
                    })
                })
                .collect();
        }
        Some((points, body))
    }

    /// A quantifier's body `P => Q` split by the mask of P's conjuncts that need no search: those
    /// conjuncts (the domain of the bound variables), and what is left to check at each point (Q, or the
    /// other conjuncts `=> Q`).
    fn split_guard(&mut self, body: &PredRef<'p>, independent: u64) -> (Arc<Pred>, PredRef<'p>) {
        let key = (address(body), Derivation::Split(independent));
        if let Some(Derived {
            domain: Some(domain),
            result: Some(checked),
            ..
        }) = self.derived.get(&key)
        {
            return (domain.clone(), checked.clone());
        }
        let PredKind::Implies(p, q) = &body.kind else {
            unreachable!("split_guard is asked for an implication");
        };
        let conjuncts = p.conjuncts();
        let pick = |wanted: bool| -> Vec<Pred> {
            (conjuncts.iter().enumerate())
                .filter(|(k, _)| (independent >> k & 1 == 1) == wanted)
                .map(|(_, c)| (*c).clone())
                .collect()
        };
        let domain = Arc::new(Pred::new(PredKind::And(pick(true)), p.span));
        let dependent = pick(false);
        let checked = if dependent.is_empty() {
            sub_pred(body, |b| match &b.kind {
                PredKind::Implies(_, q) => q,
                _ => b,
            })
        } else {
            PredRef::Shared(Arc::new(Pred::new(
                PredKind::Implies(
                    Box::new(Pred::new(PredKind::And(dependent), p.span)),
                    q.clone(),
                ),
                body.span,
            )))
        };
        self.derived.insert(
            key,
            Derived {
                _source: body.clone(),
                result: Some(checked.clone()),
                domain: Some(domain.clone()),
            },
        );
        (domain, checked)
    }

    /// The points `xs` can take when a conjunct of `guard` is `pattern : s`, the pattern a maplet tree of
    /// exactly the bound variables and s a search variable decomposed into membership bits (or `dom(f)`
    /// of a decomposed total function): the carrier's elements (the domain's), split by the pattern.
    fn carrier_points(
        &self,
        xs: &[TypedName],
        guard: &Pred,
        shadowed: &FxHashSet<&str>,
    ) -> Option<Vec<Bindings>> {
        for c in guard.conjuncts() {
            let PredKind::Compare(CompareOp::In, pattern, set) = &c.kind else {
                continue;
            };
            // `s` itself, or `dom(f)` of a decomposed total function (its domain).
            let (name, of_domain) = match &set.kind {
                ExprKind::Var(name) => (name, false),
                ExprKind::Unary(UnaryOp::Dom, f) => match &f.kind {
                    ExprKind::Var(name) => (name, true),
                    _ => continue,
                },
                _ => continue,
            };
            if shadowed.contains(&**name) {
                continue;
            }
            let Some(&v) = self.by_name.get(name) else {
                continue;
            };
            let carrier = match (&self.vars[v].shape, of_domain) {
                (Shape::Members { carrier, .. }, false) => carrier,
                (Shape::Function { domain, .. } | Shape::Curried { domain, .. }, true) => domain,
                _ => continue,
            };
            let mut leaves = Vec::new();
            if !pattern_vars(pattern, &mut Vec::new(), &mut leaves)
                || leaves.len() != xs.len()
                || !xs
                    .iter()
                    .all(|x| leaves.iter().filter(|(n, _)| *n == x.name).count() == 1)
            {
                continue;
            }
            if carrier.len() > MAX_INSTANCES {
                return None;
            }
            let points = carrier
                .iter()
                .map(|m| {
                    leaves
                        .iter()
                        .map(|(n, path)| Some((n.clone(), m.component(path)?)))
                        .collect::<Option<Bindings>>()
                })
                .collect::<Option<Vec<Bindings>>>()?;
            return Some(points);
        }
        None
    }

    /// All values of the bound variables satisfying a quantifier's guard part that mentions no unknown,
    /// if there are at most MAX_INSTANCES: by the interpreter's enumeration when their types or
    /// memberships bound them, else by a nested propagating search (a guard such as
    /// `i1 > 0 & i1 < j1 & j1 <= n` bounds i1 and j1 only through its inequalities).
    fn guard_solutions(
        &self,
        xs: &[TypedName],
        guard: &Pred,
        env: &Env,
    ) -> Option<Vec<Vec<Value>>> {
        if let Ok(e) = self.ctx.solve_by_enumeration(xs, guard, env, MAX_INSTANCES) {
            return e.complete.then_some(e.solutions);
        }
        let mut problem = crate::solve::Problem::new(xs, guard, env);
        problem.sizes_matter = false;
        let found = crate::solve::solve_all(
            self.ctx,
            &problem,
            crate::solve::Backend::Native,
            MAX_INSTANCES + 1,
        )
        .ok()?;
        found.complete.then_some(found.solutions)
    }

    /// Adds one constraint; a constraint mentioning no search variable is decided now (true: dropped,
    /// false: the problem has no solution).
    fn add_constraint(
        &mut self,
        pred: PredRef<'p>,
        bindings: Vec<(Name, Value)>,
        out: &mut Vec<Constraint<'p>>,
    ) -> Result<bool, EvalError> {
        // The search variables mentioned, in the order of their names (as a sorted set of free names
        // gave them), without building that set: a quantifier's instances add many constraints.
        let mut mentioned: Vec<(&Name, VarId)> = Vec::new();
        ir::free_names::each_in_pred(&pred, &mut |n| {
            if let Some((name, &v)) = self.by_name.get_key_value(n)
                && !bindings
                    .iter()
                    .any(|(b, _)| crate::syntax::ast::same_name(b, n))
                && !mentioned.iter().any(|&(_, w)| w == v)
            {
                mentioned.push((name, v));
            }
        });
        mentioned.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let vars: Vec<VarId> = mentioned.into_iter().map(|(_, v)| v).collect();
        let fixed = vars.iter().all(|&v| self.is_fixed_var(v));
        if fixed {
            let mut env = self.env.clone();
            for (n, v) in &bindings {
                env.bind(n.clone(), v.clone());
            }
            return match self.ctx.eval_pred(&pred, &env) {
                Ok(b) => Ok(!b),
                Err(EvalError::WellDefinedness(d)) => {
                    self.ill_defined.get_or_insert(d);
                    Ok(true)
                }
                Err(e) => Err(e),
            };
        }
        let watches = self.watches(&pred, &bindings, &vars);
        out.push(Constraint {
            pred,
            bindings,
            vars,
            watches,
        });
        Ok(false)
    }

    /// Removes the constraints `E1 /= E2` whose sides are each exactly one atom (a scalar variable,
    /// `f(x)` or `f(x)(y)` of a decomposed total function at a known point of its domain), returning
    /// those pairs of atoms: they become all-different groups, propagated without the interpreter.
    fn extract_disequalities(
        &self,
        constraints: &mut Vec<Constraint<'p>>,
    ) -> Vec<(AtomId, AtomId)> {
        let mut edges = Vec::new();
        constraints.retain(|c| {
            let (l, r) = match &c.pred.kind {
                PredKind::Compare(CompareOp::NotEq, l, r) => (l, r),
                PredKind::Not(q) => match &q.kind {
                    PredKind::Compare(CompareOp::Eq, l, r) => (l, r),
                    _ => return true,
                },
                _ => return true,
            };
            match (self.atom_of(l, &c.bindings), self.atom_of(r, &c.bindings)) {
                (Some(a), Some(b)) if a != b => {
                    edges.push((a, b));
                    false
                }
                _ => true,
            }
        });
        edges
    }

    /// The atom whose value `e` is, at `bindings`, if it is exactly one atom's.
    fn atom_of(&self, e: &Expr, bindings: &[(Name, Value)]) -> Option<AtomId> {
        let var = |name: &Name| -> Option<&Shape> {
            if bindings.iter().any(|(n, _)| n == name) {
                return None;
            }
            Some(&self.vars[*self.by_name.get(name)?].shape)
        };
        let point = |x: &Expr| -> Option<Value> {
            if ir::free_names::of_expr(x)
                .iter()
                .any(|n| self.by_name.contains_key(n) && bindings.iter().all(|(b, _)| b != n))
            {
                return None;
            }
            let mut env = self.env.clone();
            for (n, v) in bindings {
                env.bind(n.clone(), v.clone());
            }
            self.ctx.eval_expr(x, &env).ok()
        };
        match &e.kind {
            ExprKind::Var(name) => match var(name)? {
                Shape::Scalar(a) => Some(*a),
                _ => None,
            },
            ExprKind::Binary(BinaryOp::Apply, f, x) => match &f.kind {
                ExprKind::Var(name) => match var(name)? {
                    Shape::Function { domain, images } => {
                        Some(images[domain.binary_search(&point(x)?).ok()?])
                    }
                    _ => None,
                },
                ExprKind::Binary(BinaryOp::Apply, g, y) => {
                    let ExprKind::Var(name) = &g.kind else {
                        return None;
                    };
                    let Shape::Curried {
                        domain,
                        inner,
                        images,
                    } = var(name)?
                    else {
                        return None;
                    };
                    let i = domain.binary_search(&point(y)?).ok()?;
                    let j = inner.binary_search(&point(x)?).ok()?;
                    Some(images[i * inner.len() + j])
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn is_fixed_var(&self, v: VarId) -> bool {
        self.determined.contains_key(&self.vars[v].name)
    }

    /// The atoms a constraint depends on: all atoms of the variables it mentions, except that `f(E)` with
    /// f a decomposed function and E known depends only on the image atom of E.
    fn watches(&self, pred: &Pred, bindings: &[(Name, Value)], vars: &[VarId]) -> Vec<AtomId> {
        let mut env = self.env.clone();
        for (n, v) in bindings {
            env.bind(n.clone(), v.clone());
        }
        let mut out = FxHashSet::default();
        let mut whole = FxHashSet::default();
        let shadowed: FxHashSet<&str> = bindings.iter().map(|(n, _)| &**n).collect();
        let known_point = |x: &Expr| -> Option<Value> {
            let unknown = ir::free_names::expr_mentions(x, &|n| {
                !shadowed.contains(&**n) && self.by_name.contains_key(n)
            });
            (!unknown)
                .then(|| self.ctx.eval_expr(x, &env).ok())
                .flatten()
        };
        let decomposed = |e: &Expr| -> Option<&Shape> {
            let ExprKind::Var(name) = &e.kind else {
                return None;
            };
            if shadowed.contains(&**name) {
                return None;
            }
            let v = *self.by_name.get(name)?;
            match &self.vars[v].shape {
                Shape::Scalar(_) => None,
                shape => Some(shape),
            }
        };
        let mut visit = |node: Node<'_>| -> bool {
            match node {
                // x : r with x known: one membership bit (or one function image).
                Node::Pred(p) => {
                    if let PredKind::Compare(CompareOp::In, x, r) = &p.kind
                        && let Some(shape) = decomposed(r)
                        && let Some(point) = known_point(x)
                    {
                        out.extend(point_atoms(shape, &point, true));
                        return false;
                    }
                    true
                }
                Node::Expr(e) => {
                    // f(x)(y) with f curried and x, y known: one atom.
                    if let ExprKind::Binary(BinaryOp::Apply, fx, y) = &e.kind
                        && let ExprKind::Binary(BinaryOp::Apply, f, x) = &fx.kind
                        && let Some(Shape::Curried {
                            domain,
                            inner,
                            images,
                        }) = decomposed(f)
                        && let Some(x) = known_point(x)
                        && let Some(y) = known_point(y)
                    {
                        if let (Ok(i), Ok(j)) = (domain.binary_search(&x), inner.binary_search(&y))
                        {
                            out.insert(images[i * inner.len() + j]);
                        }
                        return false;
                    }
                    // f(x) and r[S] with x, S known: the atoms of those points only.
                    if let ExprKind::Binary(op @ (BinaryOp::Apply | BinaryOp::Image), f, x) =
                        &e.kind
                        && let Some(shape) = decomposed(f)
                        && let Some(arg) = known_point(x)
                    {
                        let points: Vec<Value> = match (op, &arg) {
                            (BinaryOp::Image, Value::Set(items)) => (**items).clone(),
                            (BinaryOp::Image, _) => return true,
                            _ => vec![arg],
                        };
                        for p in &points {
                            out.extend(point_atoms(shape, p, false));
                        }
                        return false;
                    }
                    if let ExprKind::Var(n) = &e.kind
                        && !shadowed.contains(&**n)
                        && let Some(&v) = self.by_name.get(n)
                    {
                        whole.insert(v);
                    }
                    true
                }
            }
        };
        visit_pred(pred, &mut visit);
        for v in whole {
            if vars.contains(&v) {
                out.extend(atoms_of(&self.vars[v].shape));
            }
        }
        let mut out: Vec<AtomId> = out.into_iter().collect();
        out.sort_unstable();
        out
    }
}

/// The atoms of a decomposed variable that decide `point` (a pair when `pair` is true: its membership; else
/// a point of the domain: its images).
fn point_atoms(shape: &Shape, point: &Value, pair: bool) -> Vec<AtomId> {
    match shape {
        Shape::Members { carrier, bits } => {
            if pair {
                carrier
                    .binary_search(point)
                    .map(|i| vec![bits[i]])
                    .unwrap_or_default()
            } else {
                carrier
                    .iter()
                    .zip(bits)
                    .filter(|(p, _)| p.as_pair().is_some_and(|(a, _)| a == point))
                    .map(|(_, &b)| b)
                    .collect()
            }
        }
        Shape::Function { domain, images } => {
            let x = if pair {
                point.as_pair().map(|(a, _)| a)
            } else {
                Some(point)
            };
            x.and_then(|x| domain.binary_search(x).ok())
                .map(|i| vec![images[i]])
                .unwrap_or_default()
        }
        Shape::Curried {
            domain,
            inner,
            images,
        } => {
            let x = if pair {
                point.as_pair().map(|(a, _)| a)
            } else {
                Some(point)
            };
            x.and_then(|x| domain.binary_search(x).ok())
                .map(|i| Shape::row(inner, images, i))
                .unwrap_or_default()
        }
        Shape::Scalar(a) => vec![*a],
    }
}

pub(crate) fn atoms_of(shape: &Shape) -> Vec<AtomId> {
    match shape {
        Shape::Scalar(a) => vec![*a],
        Shape::Members { bits, .. } => bits.clone(),
        Shape::Function { images, .. } | Shape::Curried { images, .. } => images.clone(),
    }
}

/// Whether the decomposition `compound_shape` builds for `x op S` guarantees the conjunct: subsets of the
/// carrier, relations over it, total functions (and total injections, whose images are kept pairwise
/// distinct by their distinct group).
fn entailed_by_shape(op: CompareOp, s: &Expr) -> bool {
    op == CompareOp::Subset
        || matches!(
            &s.kind,
            ExprKind::Unary(UnaryOp::Pow | UnaryOp::Fin | UnaryOp::Perm, _)
                | ExprKind::Binary(
                    BinaryOp::Relation | BinaryOp::TotalFunction | BinaryOp::TotalInjection,
                    _,
                    _
                )
        )
}

fn intersect(a: &Dom, b: &Dom) -> Dom {
    match (a, b) {
        (Dom::Any, d) | (d, Dom::Any) => d.clone(),
        (Dom::Finite(x), d) | (d, Dom::Finite(x)) => Dom::Finite(Arc::new(
            x.iter().filter(|v| d.contains(v)).cloned().collect(),
        )),
        (Dom::Range(l1, h1), Dom::Range(l2, h2)) => {
            let lo = match (l1, l2) {
                (Some(a), Some(b)) => Some(a.max(b).clone()),
                (a, b) => a.clone().or(b.clone()),
            };
            let hi = match (h1, h2) {
                (Some(a), Some(b)) => Some(a.min(b).clone()),
                (a, b) => a.clone().or(b.clone()),
            };
            Dom::range(lo, hi)
        }
    }
}

/// `g => (h => Q)` as `(g & h) => Q` (when Q is a conjunction or a quantifier), `g => (A & B)` as
/// `(g => A) & (g => B)`, and `g => !xs.(P => Q)` as `!xs.((g & P) => Q)` (xs not
/// free in g; g first, so that P is not evaluated where g is false): the guard moves inwards so that
/// the conjunction and the quantifier can be instantiated.
fn distribute_implication(pred: &Pred) -> Option<Pred> {
    let PredKind::Implies(g, q) = &pred.kind else {
        return None;
    };
    let implies =
        |q: &Pred| Pred::new(PredKind::Implies(g.clone(), Box::new(q.clone())), pred.span);
    match &q.kind {
        // g => (h => Q) is (g & h) => Q, which may distribute further.
        PredKind::Implies(h, inner)
            if matches!(inner.kind, PredKind::And(_) | PredKind::Forall(..)) =>
        {
            Some(Pred::new(
                PredKind::Implies(
                    Box::new(Pred::new(
                        PredKind::And(vec![(**g).clone(), (**h).clone()]),
                        g.span,
                    )),
                    inner.clone(),
                ),
                pred.span,
            ))
        }
        PredKind::And(parts) => Some(Pred::new(
            PredKind::And(parts.iter().map(implies).collect()),
            pred.span,
        )),
        PredKind::Forall(xs, body) => {
            let free = ir::free_names::of_pred(g);
            if xs.iter().any(|x| free.contains(&x.name)) {
                return None;
            }
            let PredKind::Implies(p, inner) = &body.kind else {
                return None;
            };
            let guard = Pred::new(PredKind::And(vec![(**g).clone(), (**p).clone()]), p.span);
            Some(Pred::new(
                PredKind::Forall(
                    xs.clone(),
                    Box::new(Pred::new(
                        PredKind::Implies(Box::new(guard), inner.clone()),
                        body.span,
                    )),
                ),
                pred.span,
            ))
        }
        _ => None,
    }
}

/// The variables of a maplet tree of variables with their paths (`false` = left); false when a leaf is
/// not a variable.
fn pattern_vars(e: &Expr, path: &mut Vec<bool>, out: &mut Vec<(Name, Vec<bool>)>) -> bool {
    match &e.kind {
        ExprKind::Var(n) => {
            out.push((n.clone(), path.clone()));
            true
        }
        ExprKind::Binary(BinaryOp::Maplet, a, b) => {
            path.push(false);
            let left = pattern_vars(a, path, out);
            path.pop();
            path.push(true);
            let right = left && pattern_vars(b, path, out);
            path.pop();
            right
        }
        _ => false,
    }
}

/// A part of `parent` (chosen by `pick`), borrowed when the parent is, else shared in a copy.
fn sub_pred<'p>(parent: &PredRef<'p>, pick: impl for<'a> Fn(&'a Pred) -> &'a Pred) -> PredRef<'p> {
    match parent {
        PredRef::Borrowed(p) => PredRef::Borrowed(pick(p)),
        PredRef::Shared(p) => PredRef::Shared(Arc::new(pick(p).clone())),
    }
}
