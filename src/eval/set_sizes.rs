//! Deferred-set sizes, fixed before any solving (B_REFERENCE §3), in ProB's priority order:
//!
//! 1. a `card(S) = E` conjunct of PROPERTIES, E an integer the PROPERTIES fix deterministically (a literal,
//!    or constants defined by `n = 100`, `m = n - 1`, ...);
//! 2. the `scope_S` definition;
//! 3. `--card S n` (`Settings::set_sizes`);
//! 4. `S = {a, b, c}` (or `{a} \/ {b, c}`) with the constants a, b, c pairwise distinct (by `/=`,
//!    `not(a = b)`, `card({a, b, c}) = 3` or `{a} /\ {b, c} = {}`): exactly 3.
//!
//! Otherwise the size is DEFAULT_SETSIZE, raised to the least size the PROPERTIES allow: `card(S) > E`,
//! `card(S) >= E`, and the largest set of pairwise-distinct constants of type S (`a /= b & a /= c & b /= c`
//! needs three elements).

use super::Settings;
use crate::diag::{DiagKind, Diagnostic};
use crate::ir::{self, BinaryOp, CompareOp, Expr, ExprKind, Pred, PredKind, SettingValue, UnaryOp};
use crate::syntax::ast::Name;
use crate::types::Type;
use num_bigint::BigInt;
use rustc_hash::{FxHashMap, FxHashSet};

/// What the PROPERTIES say about deferred-set sizes, gathered once per machine.
pub(super) struct SizeFacts<'m> {
    machine: &'m ir::Machine,
    /// Integer constants fixed by deterministic equations.
    ints: FxHashMap<Name, BigInt>,
    /// Pairs of constants the PROPERTIES state to be different (both orders).
    distinct: FxHashSet<(Name, Name)>,
}

/// The most clique-search steps spent per set: past it the best clique found so far is used, which is
/// still a sound least size.
const CLIQUE_STEPS: usize = 100_000;

impl<'m> SizeFacts<'m> {
    pub(super) fn new(machine: &'m ir::Machine) -> SizeFacts<'m> {
        let conjuncts = machine.properties.conjuncts();
        let constants: FxHashSet<&str> = machine.constants.iter().map(|c| &*c.name).collect();
        let mut ints = FxHashMap::default();
        // Chains (`m = n - 1 & n = 100`) need one sweep per link.
        loop {
            let before = ints.len();
            for c in &conjuncts {
                if let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind {
                    for (a, b) in [(l, r), (r, l)] {
                        if let ExprKind::Var(x) = &a.kind
                            && constants.contains(&**x)
                            && !ints.contains_key(x)
                            && let Some(n) = const_int(b, &ints)
                        {
                            ints.insert(x.clone(), n);
                        }
                    }
                }
            }
            if ints.len() == before {
                break;
            }
        }
        let mut facts = SizeFacts {
            machine,
            ints,
            distinct: FxHashSet::default(),
        };
        for c in &conjuncts {
            facts.add_distinct(c);
        }
        facts
    }

    /// Records the pairs of constants conjunct `c` states to be different.
    fn add_distinct(&mut self, c: &Pred) {
        let pair = match &c.kind {
            PredKind::Compare(CompareOp::NotEq, a, b) => Some((a, b)),
            PredKind::Not(inner) => match &inner.kind {
                PredKind::Compare(CompareOp::Eq, a, b) => Some((a, b)),
                _ => None,
            },
            _ => None,
        };
        if let Some((a, b)) = pair {
            if let (Some(x), Some(y)) = (self.constant(a), self.constant(b)) {
                self.insert_distinct(x, y);
            }
            return;
        }
        // `{a, b} /\ {c} = {}`: each element of one side differs from each of the other.
        if let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind {
            for (a, b) in [(l, r), (r, l)] {
                if matches!(&b.kind, ExprKind::SetEnum(e) if e.is_empty())
                    && let ExprKind::Binary(BinaryOp::Inter, x, y) = &a.kind
                    && let (ExprKind::SetEnum(xs), ExprKind::SetEnum(ys)) = (&x.kind, &y.kind)
                {
                    let names = |es: &[Expr]| -> Vec<Name> {
                        es.iter().filter_map(|e| self.constant(e)).collect()
                    };
                    let (ps, qs) = (names(xs), names(ys));
                    for p in &ps {
                        for q in &qs {
                            self.insert_distinct(p.clone(), q.clone());
                        }
                    }
                    return;
                }
            }
        }
        // `card({e1, ..., en}) = n`: pairwise distinctness, as ProB recognises it.
        if let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind {
            for (a, b) in [(l, r), (r, l)] {
                if let ExprKind::Unary(UnaryOp::Card, s) = &a.kind
                    && let ExprKind::SetEnum(elems) = &s.kind
                    && const_int(b, &self.ints) == Some(BigInt::from(elems.len()))
                    && let Some(names) = elems
                        .iter()
                        .map(|e| self.constant(e))
                        .collect::<Option<Vec<_>>>()
                {
                    for (i, x) in names.iter().enumerate() {
                        for y in &names[i + 1..] {
                            self.insert_distinct(x.clone(), y.clone());
                        }
                    }
                }
            }
        }
    }

    fn insert_distinct(&mut self, x: Name, y: Name) {
        if x != y {
            self.distinct.insert((x.clone(), y.clone()));
            self.distinct.insert((y, x));
        }
    }

    /// The constant `e` names, if it is one.
    fn constant(&self, e: &Expr) -> Option<Name> {
        match &e.kind {
            ExprKind::Var(x) if self.machine.constants.iter().any(|c| c.name == *x) => {
                Some(x.clone())
            }
            _ => None,
        }
    }

    /// The size of deferred set `set` fixed by the machine or the options (see the module comment for the
    /// priority order); `None` when only DEFAULT_SETSIZE applies.
    pub(super) fn fixed_size(
        &self,
        settings: &Settings,
        set: &str,
    ) -> Result<Option<u32>, Diagnostic> {
        let conjuncts = self.machine.properties.conjuncts();
        for c in &conjuncts {
            if let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind {
                for (a, b) in [(l, r), (r, l)] {
                    if is_card_of(a, set)
                        && let Some(n) = const_int(b, &self.ints)
                    {
                        return u32::try_from(&n).map(Some).map_err(|_| {
                            Diagnostic::new(
                                DiagKind::Limit,
                                c.span,
                                format!("unusable cardinality {n} for deferred set {set}"),
                            )
                        });
                    }
                }
            }
        }
        if let Some(n) = scope_size(self.machine, set)? {
            return Ok(Some(n));
        }
        if let Some(n) = settings.set_size(set) {
            return Ok(Some(n));
        }
        Ok(conjuncts.iter().find_map(|c| self.enumerated_size(c, set)))
    }

    /// `S = {a, b, c}` (either side) with pairwise-distinct constants: the number of constants.
    fn enumerated_size(&self, c: &Pred, set: &str) -> Option<u32> {
        let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind else {
            return None;
        };
        [(l, r), (r, l)].into_iter().find_map(|(a, b)| {
            if !matches!(&a.kind, ExprKind::Var(s) if &**s == set) {
                return None;
            }
            let mut elems = Vec::new();
            if !enumerated_elements(b, &mut elems) {
                return None;
            }
            let mut names: Vec<Name> = elems
                .iter()
                .map(|e| self.constant(e))
                .collect::<Option<_>>()?;
            names.sort();
            names.dedup();
            let all_distinct = names.iter().enumerate().all(|(i, x)| {
                names[i + 1..]
                    .iter()
                    .all(|y| self.distinct.contains(&(x.clone(), y.clone())))
            });
            all_distinct
                .then(|| u32::try_from(names.len()).ok())
                .flatten()
        })
    }

    /// The least size the PROPERTIES allow for deferred set `set`: from `card(S) > E`, `card(S) >= E`
    /// (or `E < card(S)`, `E <= card(S)`) and the largest set of pairwise-distinct constants of type S.
    pub(super) fn least_size(&self, set: &str) -> Option<u32> {
        let by_card = self
            .machine
            .properties
            .conjuncts()
            .iter()
            .filter_map(|c| match &c.kind {
                PredKind::Compare(op @ (CompareOp::Lt | CompareOp::Le), l, r)
                    if is_card_of(r, set) =>
                {
                    let n = u32::try_from(const_int(l, &self.ints)?).ok()?;
                    if *op == CompareOp::Lt {
                        n.checked_add(1)
                    } else {
                        Some(n)
                    }
                }
                _ => None,
            })
            .max();
        let ty = Type::Given(Name::from(set));
        let members: Vec<&Name> = self
            .machine
            .constants
            .iter()
            .filter(|c| c.ty == ty)
            .map(|c| &c.name)
            .collect();
        let clique = u32::try_from(self.largest_clique(&members)).ok();
        by_card.max(clique.filter(|&n| n > 0))
    }

    /// The size of the largest set of pairwise-distinct constants among `members` (Bron–Kerbosch with
    /// pivoting, cut after `CLIQUE_STEPS` steps).
    fn largest_clique(&self, members: &[&Name]) -> usize {
        let n = members.len();
        let adjacent: Vec<Vec<bool>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        self.distinct
                            .contains(&(members[i].clone(), members[j].clone()))
                    })
                    .collect()
            })
            .collect();
        let mut best = 0;
        let mut steps = 0;
        let candidates: Vec<usize> = (0..n).collect();
        extend_clique(&adjacent, 0, candidates, Vec::new(), &mut best, &mut steps);
        best
    }
}

/// The elements of `{a, b} \/ {c} \/ ...` (a set enumeration or a union of them), appended to `out`;
/// false when `e` is of another shape.
fn enumerated_elements<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) -> bool {
    match &e.kind {
        ExprKind::SetEnum(elems) => {
            out.extend(elems);
            true
        }
        ExprKind::Binary(BinaryOp::Union, a, b) => {
            enumerated_elements(a, out) && enumerated_elements(b, out)
        }
        _ => false,
    }
}

fn extend_clique(
    adjacent: &[Vec<bool>],
    size: usize,
    candidates: Vec<usize>,
    excluded: Vec<usize>,
    best: &mut usize,
    steps: &mut usize,
) {
    *best = (*best).max(size);
    *steps += 1;
    if candidates.is_empty() || size + candidates.len() <= *best || *steps > CLIQUE_STEPS {
        return;
    }
    let pivot = candidates
        .iter()
        .chain(&excluded)
        .copied()
        .max_by_key(|&u| candidates.iter().filter(|&&v| adjacent[u][v]).count())
        .unwrap_or(candidates[0]);
    let mut candidates = candidates;
    let mut excluded = excluded;
    let branch: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&v| !adjacent[pivot][v])
        .collect();
    for v in branch {
        let next_candidates = candidates
            .iter()
            .copied()
            .filter(|&u| adjacent[v][u])
            .collect();
        let next_excluded = excluded
            .iter()
            .copied()
            .filter(|&u| adjacent[v][u])
            .collect();
        extend_clique(
            adjacent,
            size + 1,
            next_candidates,
            next_excluded,
            best,
            steps,
        );
        candidates.retain(|&u| u != v);
        excluded.push(v);
    }
}

fn is_card_of(e: &Expr, set: &str) -> bool {
    matches!(&e.kind, ExprKind::Unary(UnaryOp::Card, s)
        if matches!(&s.kind, ExprKind::Var(n) if &**n == set))
}

/// The value of an integer expression built from literals and deterministically fixed constants.
fn const_int(e: &Expr, ints: &FxHashMap<Name, BigInt>) -> Option<BigInt> {
    match &e.kind {
        ExprKind::Int(n) => Some(n.clone()),
        ExprKind::Var(x) => ints.get(x).cloned(),
        ExprKind::Unary(UnaryOp::Neg, a) => Some(-const_int(a, ints)?),
        ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), a, b) => {
            let (a, b) = (const_int(a, ints)?, const_int(b, ints)?);
            Some(match op {
                BinaryOp::Add => a + b,
                BinaryOp::Sub => a - b,
                _ => a * b,
            })
        }
        _ => None,
    }
}

/// The size the `scope_S` definition gives deferred set S.
fn scope_size(m: &ir::Machine, set: &str) -> Result<Option<u32>, Diagnostic> {
    let scope = format!("scope_{set}");
    let Some((_, value, span)) = m.settings.iter().find(|(name, _, _)| **name == *scope) else {
        return Ok(None);
    };
    let size = match value {
        SettingValue::Int(n) => u32::try_from(n).ok(),
        SettingValue::Range(lo, hi) => {
            if hi < lo {
                Some(0)
            } else {
                u32::try_from(hi - lo + 1u32).ok()
            }
        }
        _ => None,
    };
    size.map(Some).ok_or_else(|| {
        Diagnostic::type_error(
            *span,
            format!("{scope} must be a size n or an interval n..m"),
        )
    })
}
