//! Symmetry reduction for deferred sets (B_REFERENCE §3): the elements of a deferred set are
//! interchangeable, so the search may visit one setup per permutation class. Only existence questions and
//! ProB's setup counting of `mc` stop there: a complete list re-expands every class (`solve::orbits`).
//!
//! * Scalars of a deferred type D get the least-number restriction (MACE-style): at each choice a D atom may
//!   take an element already used by a fixed D atom, or the first unused one — never two different unused
//!   ones, which would give symmetric subtrees.
//! * Subsets of D (decomposed into membership bits) get the lex-leader condition instead: the membership
//!   signatures of D1, D2, ... across all such variables must be non-increasing, which sorts every
//!   solution into one canonical representative (ProB's partition rule, generalised).
//!
//! Under ProB's rules (`prob_rules`) subsets get the lex-leader condition only when they are the parts of
//! a partition of D, as ProB counts setups.
//!
//! A set is reduced only when every search atom mentioning its elements is of one of these two kinds, and
//! never both kinds at once; otherwise it is left alone (no reduction is always sound).
//!
//! Whatever else mentions D, the problem's variables of type D that must be pairwise distinct (`a /= b`,
//! `card({a, b, c}) = 3`; a lone one too) are pinned to D1, D2, ... before the search (ProB's first rule,
//! B_REFERENCE §3): any solution permuted to put them there is a solution, so every orbit keeps a member.

use super::model::{AtomId, Model, Shape, VarId};
use super::search::Solver;
use crate::eval::Context;
use crate::ir::{BinaryOp, CompareOp, Expr, ExprKind, PredKind};
use crate::syntax::ast::Name;
use crate::types::Type;
use crate::value::Value;

pub(crate) struct Symmetry {
    sets: Vec<DeferredSet>,
    /// Atoms fixed to an element before the search (pairwise-distinct scalars of a deferred set).
    pub pins: Vec<(AtomId, Value)>,
}

struct DeferredSet {
    name: Name,
    /// Atoms of type D (least-number restriction).
    scalars: Vec<AtomId>,
    /// Variables of type POW(D) decomposed over D's elements (lex-leader).
    subsets: Vec<VarId>,
}

impl Symmetry {
    /// The reducible deferred sets of `model`, or `None` when there are none. `prob_rules` keeps to
    /// ProB's reductions of constant setups (`solve::Symmetry::ProbSetups`): no lex-leader over subsets
    /// of D other than the parts of a partition of D.
    pub(crate) fn of(ctx: &Context, model: &Model<'_>, prob_rules: bool) -> Option<Symmetry> {
        let mut sets = Vec::new();
        let mut pins = Vec::new();
        for gs in &ctx.machine().sets {
            if gs.elements.is_some() {
                continue;
            }
            let d = &gs.name;
            let given = Type::Given(d.clone());
            let mut scalars = Vec::new();
            let mut subsets = Vec::new();
            let mut reducible = true;
            for (v, var) in model.vars.iter().enumerate() {
                if !mentions(&var.ty, d) {
                    continue;
                }
                match &var.shape {
                    Shape::Scalar(a) if var.ty == given => scalars.push(*a),
                    // The images of a function into D over a domain without D's elements are D
                    // scalars too (`unlocks : KEY >->> DOOR` has one setup per class, as in ProB:
                    // B/SchneiderBook/Chapter10/Safes.mch).
                    Shape::Function { images, .. } if images_of(&var.ty, &given, 1) => {
                        scalars.extend(images)
                    }
                    Shape::Curried { images, .. } if images_of(&var.ty, &given, 2) => {
                        scalars.extend(images)
                    }
                    Shape::Members { carrier, .. }
                        if var.ty == Type::set(given.clone())
                            && carrier.len()
                                == ctx.given_set(d, Default::default()).map_or(0, |g| g.len()) =>
                    {
                        subsets.push(v)
                    }
                    _ => reducible = false,
                }
            }
            // ProB pins constants only: not function images, nor witnesses of top-level existentials
            // (CrewAllocation2, Galois and rodin_train_4 keep their recorded counts).
            let constants: Vec<AtomId> = model.vars[..model.outputs]
                .iter()
                .filter(|var| var.ty == given)
                .filter_map(|var| match var.shape {
                    Shape::Scalar(a) => Some(a),
                    _ => None,
                })
                .collect();
            let set_pins = pinned(ctx, model, d, &constants);
            let kinds_apart = if prob_rules {
                subsets.is_empty() && !scalars.is_empty()
            } else {
                (scalars.is_empty() || subsets.is_empty())
                    && !(scalars.is_empty() && subsets.is_empty())
            };
            if reducible && kinds_apart {
                sets.push(DeferredSet {
                    name: d.clone(),
                    scalars,
                    subsets,
                });
            } else if set_pins.is_empty()
                && let Some(parts) = partition_parts(model, d, &subsets)
            {
                // ProB's third rule: the parts of a partition of D take its elements in order, whatever
                // else mentions D (`neg : INDEX >->> INDEX` beside `pairIndex \/ slotIndex = INDEX`). The
                // lex-leader order over the parts alone is sound without the other rules: sorting D's
                // elements by their part is a permutation, which maps every solution to one in order.
                sets.push(DeferredSet {
                    name: d.clone(),
                    scalars: Vec::new(),
                    subsets: parts,
                });
            }
            pins.extend(set_pins);
        }
        (!sets.is_empty() || !pins.is_empty()).then_some(Symmetry { sets, pins })
    }

    /// The candidates of atom `a` worth trying: for a reduced scalar, the used elements and the first
    /// unused one.
    pub(crate) fn allowed(&self, s: &Solver<'_, '_>, a: AtomId, values: &[Value]) -> Vec<Value> {
        let Some(set) = self.sets.iter().find(|d| d.scalars.contains(&a)) else {
            return values.to_vec();
        };
        let mut used: Vec<u32> = set
            .scalars
            .iter()
            .filter(|&&b| b != a)
            .filter_map(|&b| s.doms[b].fixed())
            .filter_map(element_index)
            .collect();
        used.sort_unstable();
        used.dedup();
        let fresh = (0u32..)
            .find(|i| used.binary_search(i).is_err())
            .unwrap_or(0);
        values
            .iter()
            .filter(|v| {
                element_index(v).is_some_and(|i| i == fresh || used.binary_search(&i).is_ok())
            })
            .cloned()
            .collect()
    }

    /// Whether a complete assignment is the canonical member of its class (lex-leader for subsets).
    pub(crate) fn is_canonical(&self, s: &Solver<'_, '_>) -> bool {
        for set in &self.sets {
            if set.subsets.is_empty() {
                continue;
            }
            let signature = |i: usize| -> Vec<bool> {
                set.subsets
                    .iter()
                    .map(|&v| match &s.model.vars[v].shape {
                        Shape::Members { bits, .. } => {
                            s.doms[bits[i]].fixed() == Some(&Value::Bool(true))
                        }
                        _ => false,
                    })
                    .collect()
            };
            let n = match &s.model.vars[set.subsets[0]].shape {
                Shape::Members { carrier, .. } => carrier.len(),
                _ => 0,
            };
            for i in 1..n {
                if signature(i - 1) < signature(i) {
                    return false;
                }
            }
            let _ = &set.name;
        }
        true
    }
}

/// A greedy maximal set of pairwise-distinct atoms among `scalars` (the problem's own variables of type D,
/// in their order), each with the element of D it is pinned to: D1, D2, ... in that order.
fn pinned(ctx: &Context, model: &Model<'_>, d: &Name, scalars: &[AtomId]) -> Vec<(AtomId, Value)> {
    let Ok(elements) = ctx.given_set(d, Default::default()) else {
        return Vec::new();
    };
    let scalar_of = |e: &Expr| match &e.kind {
        ExprKind::Var(n) => model
            .by_name
            .get(n)
            .and_then(|&v| match model.vars[v].shape {
                Shape::Scalar(a) if scalars.contains(&a) => Some(a),
                _ => None,
            }),
        _ => None,
    };
    let mut apart: Vec<(AtomId, AtomId)> = Vec::new();
    for c in &model.constraints {
        if let PredKind::Compare(CompareOp::NotEq, x, y) = &c.pred.kind
            && let (Some(a), Some(b)) = (scalar_of(x), scalar_of(y))
        {
            apart.push((a, b));
        }
    }
    let distinct = |a: AtomId, b: AtomId| {
        apart.contains(&(a, b))
            || apart.contains(&(b, a))
            || model.distinct_of[a]
                .iter()
                .any(|g| model.distinct_of[b].contains(g))
    };
    let mut clique: Vec<AtomId> = Vec::new();
    for &a in scalars {
        if clique.iter().all(|&b| distinct(a, b)) {
            clique.push(a);
        }
    }
    if clique.len() > elements.len() {
        // More distinct atoms than elements: no solution, which the search finds.
        return Vec::new();
    }
    clique.into_iter().zip(elements.iter().cloned()).collect()
}

/// The parts of a partition constraint of deferred set `d` among the subset variables `subsets`:
/// `A \/ B \/ ... = D` (either side) with `P /\ Q = {}` stated for every two parts.
fn partition_parts(model: &Model<'_>, d: &Name, subsets: &[VarId]) -> Option<Vec<VarId>> {
    let part = |e: &Expr| match &e.kind {
        ExprKind::Var(n) => model
            .by_name
            .get(n)
            .copied()
            .filter(|v| subsets.contains(v)),
        _ => None,
    };
    let is_d = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if n == d);
    let equalities = model.constraints.iter().filter_map(|c| match &c.pred.kind {
        PredKind::Compare(CompareOp::Eq, l, r) if c.bindings.is_empty() => Some((l, r)),
        _ => None,
    });
    let mut disjoint: Vec<(VarId, VarId)> = Vec::new();
    let mut cover: Option<Vec<VarId>> = None;
    for (l, r) in equalities {
        for (side, other) in [(l, r), (r, l)] {
            if is_d(other) && cover.is_none() {
                let mut leaves = Vec::new();
                if union_leaves(side, &part, &mut leaves) && leaves.len() > 1 {
                    cover = Some(leaves);
                }
            }
            if let ExprKind::SetEnum(items) = &other.kind
                && items.is_empty()
                && let ExprKind::Binary(BinaryOp::Inter, a, b) = &side.kind
                && let (Some(a), Some(b)) = (part(a), part(b))
            {
                disjoint.push((a, b));
            }
        }
    }
    let parts = cover?;
    let apart = |a: VarId, b: VarId| disjoint.contains(&(a, b)) || disjoint.contains(&(b, a));
    let pairwise = parts
        .iter()
        .enumerate()
        .all(|(i, &a)| parts[i + 1..].iter().all(|&b| a != b && apart(a, b)));
    pairwise.then_some(parts)
}

/// Collects the operands of a union tree into `leaves`; false when one is not a part.
fn union_leaves(e: &Expr, part: &impl Fn(&Expr) -> Option<VarId>, leaves: &mut Vec<VarId>) -> bool {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Union, a, b) => {
            union_leaves(a, part, leaves) && union_leaves(b, part, leaves)
        }
        _ => part(e).map(|v| leaves.push(v)).is_some(),
    }
}

fn element_index(v: &Value) -> Option<u32> {
    match v {
        Value::Elem(e) => Some(e.index),
        _ => None,
    }
}

/// Whether `ty` is `POW(X * D)` (`depth` 1) or `POW(X * POW(Y * D))` (`depth` 2) with X and Y not
/// mentioning D: the type of a function (a curried function) into D whose positions are not D's elements.
fn images_of(ty: &Type, given: &Type, depth: usize) -> bool {
    let Type::Given(d) = given else {
        return false;
    };
    let Type::Set(pair) = ty else {
        return false;
    };
    let Type::Pair(x, range) = &**pair else {
        return false;
    };
    !mentions(x, d)
        && match depth {
            1 => &**range == given,
            _ => images_of(range, given, depth - 1),
        }
}

fn mentions(ty: &Type, d: &str) -> bool {
    match ty {
        Type::Given(n) => &**n == d,
        Type::Set(t) => mentions(t, d),
        Type::Pair(a, b) => mentions(a, d) || mentions(b, d),
        Type::Struct(fs) => fs.iter().any(|(_, t)| mentions(t, d)),
        _ => false,
    }
}
