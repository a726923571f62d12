//! Merging referenced machines into one flat `ast::Machine`.
//!
//! The semantics, kept deliberately simple:
//! - SEES / USES M: M's sets, constants, properties, variables, invariant, assertions and initialisation
//!   are merged (the variables too, so that the seeing machine can read them; the seen machine's
//!   initialisation runs first). M's operations may be called (B allows only query operations; this is
//!   not checked) and such calls are inlined. The machine being checked itself (the top of the loading)
//!   takes the operations of the machines it SEES or USES as its own, like EXTENDS, as ProB does (the
//!   state counts of ProB's runs show it): its invariant must then survive what the seen machine does to
//!   the shared variables.
//! - INCLUDES / IMPORTS p.M(args): the same, after substituting M's parameters by `args` (M's CONSTRAINTS
//!   then join the PROPERTIES) and renaming M's variables and operations `x` → `p.x`; M's operations become
//!   callable and calls to them are inlined. EXTENDS = INCLUDES + PROMOTES of all M's operations.
//! - REFINES A: A's sets, constants, properties and definitions are inherited, as are A's concrete
//!   variables and A's invariant conjuncts that mention only identifiers still present. A's abstract
//!   variables that the refinement does not declare again are dropped, and so are the conjuncts of the
//!   refinement's own invariant that mention them (the gluing invariant is not checked). A's operations and
//!   initialisation are replaced by the refinement's.
//! - Items with the same name reached twice (a machine seen through two paths) are merged once; the first
//!   definition of a DEFINITIONS name wins, the including machine's own definitions coming first.
//! - Definitions of a referenced machine are expanded in its own clauses before renaming, so that they
//!   see its identifiers; they are also added to the including machine's definitions.

use super::definitions::Definitions;
use super::rewrite::{Rewriter, free_idents};
use crate::diag::{Diagnostic, Result, Span};
use crate::syntax::ast::{
    Ident, Machine, MachineRef, Name, Op, Operation, Subst, SubstKind, Term, TermKind,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;

/// How a referenced machine is used, which decides what is merged.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reference {
    Sees,
    Includes,
    Extends,
}

/// The conjunction of `parts` (left-nested), `None` for no parts.
pub(super) fn conjunction(parts: Vec<Term>) -> Option<Term> {
    parts.into_iter().reduce(|a, b| {
        let span = a.span.to(b.span);
        Term::new(TermKind::Op(Op::And, vec![a, b]), span)
    })
}

fn conjuncts(t: &Option<Term>) -> Vec<Term> {
    fn go(t: &Term, out: &mut Vec<Term>) {
        match &t.kind {
            TermKind::Op(Op::And, args) => args.iter().for_each(|a| go(a, out)),
            _ => out.push(t.clone()),
        }
    }
    let mut out = Vec::new();
    if let Some(t) = t {
        go(t, &mut out);
    }
    out
}

/// Adds the conjuncts of `extra` to `target` (before its own), skipping conjuncts already present.
fn merge_pred(target: &mut Option<Term>, extra: &Option<Term>) {
    let own = conjuncts(target);
    let mut all: Vec<Term> = Vec::new();
    for c in conjuncts(extra).into_iter().chain(own) {
        if !all.contains(&c) {
            all.push(c);
        }
    }
    *target = conjunction(all);
}

/// Puts the items of `extra` before those of `target`, once per name; for a name in both, `target`'s own
/// declaration wins (a refinement may re-declare a set with more elements).
fn merge_named<T: Clone>(target: &mut Vec<T>, extra: &[T], name: impl Fn(&T) -> &Name) {
    let mut merged: Vec<T> = Vec::new();
    for x in extra.iter().chain(target.iter()) {
        if merged.iter().any(|y| name(y) == name(x)) {
            continue;
        }
        let own = target.iter().find(|y| name(y) == name(x)).unwrap_or(x);
        merged.push(own.clone());
    }
    *target = merged;
}

/// Runs `first` before `then` (either may be absent).
fn sequence(first: Option<Subst>, then: Option<Subst>) -> Option<Subst> {
    match (first, then) {
        (Some(a), Some(b)) if a == b => Some(b),
        (Some(a), Some(b)) => {
            let span = a.span.to(b.span);
            let mut parts = Vec::new();
            for s in [a, b] {
                match s.kind {
                    SubstKind::Sequence(ss) => parts.extend(ss),
                    _ => parts.push(s),
                }
            }
            Some(Subst {
                kind: SubstKind::Sequence(parts),
                span,
            })
        }
        (a, b) => a.or(b),
    }
}

/// Expands the child's definitions in all its clauses (so that renaming and parameter substitution apply
/// to the expanded text).
fn expand_own_definitions(m: &mut Machine) -> Result<()> {
    let defs_list = super::definitions::visible_definitions(m);
    let defs = Definitions::new(&defs_list);
    let term = |x: &mut Term| -> Result<()> {
        if let Cow::Owned(e) = defs.expand_term_cow(x)? {
            *x = e;
        }
        Ok(())
    };
    let subst = |x: &mut Subst| -> Result<()> {
        if let Cow::Owned(e) = defs.expand_subst_cow(x)? {
            *x = e;
        }
        Ok(())
    };
    for t in [&mut m.constraints, &mut m.properties, &mut m.invariant]
        .into_iter()
        .flatten()
    {
        term(t)?;
    }
    m.assertions.iter_mut().try_for_each(term)?;
    if let Some(s) = &mut m.initialisation {
        subst(s)?;
    }
    for op in &mut m.operations {
        subst(&mut op.body)?;
    }
    Ok(())
}

/// Expands a machine's own definitions in its own clauses when one of them has the name of an identifier a
/// referenced machine declares: the definition is the machine's text macro, so it must win in the
/// machine's own text (as in Atelier B), while after merging the declared identifier would hide it.
pub(super) fn expand_shadowed_definitions(m: &mut Machine, children: &[&Machine]) -> Result<()> {
    let own = declared_names(m);
    let by_children: FxHashSet<Name> = children.iter().flat_map(|c| declared_names(c)).collect();
    if m.definitions
        .iter()
        .any(|d| !own.contains(&d.name.name) && by_children.contains(&d.name.name))
    {
        expand_own_definitions(m)?;
    }
    Ok(())
}

/// The sets, set elements, parameters, constants and variables a machine declares.
fn declared_names(m: &Machine) -> FxHashSet<Name> {
    let mut known: FxHashSet<Name> = FxHashSet::default();
    for s in &m.sets {
        known.insert(s.name.name.clone());
        for e in s.elements.iter().flatten() {
            known.insert(e.name.clone());
        }
    }
    for f in &m.freetypes {
        known.insert(f.name.name.clone());
        known.extend(f.constructors.iter().map(|c| c.name.name.clone()));
    }
    known.extend(m.params.iter().map(|p| p.name.clone()));
    known.extend(m.constants.iter().map(|(c, _)| c.name.clone()));
    known.extend(m.variables.iter().map(|(v, _)| v.name.clone()));
    known
}

/// Applies a rewriter to every clause of a machine, renaming operations and variables as it says.
fn rewrite_machine(m: &mut Machine, rw: &Rewriter) {
    if rw.is_empty() {
        return;
    }
    let term = |t: &mut Option<Term>| {
        if let Some(x) = t {
            *x = rw.term(x);
        }
    };
    term(&mut m.constraints);
    term(&mut m.properties);
    term(&mut m.invariant);
    for a in &mut m.assertions {
        *a = rw.term(a);
    }
    if let Some(s) = &mut m.initialisation {
        *s = rw.subst(s);
    }
    for (v, _) in &mut m.variables {
        if let Some(TermKind::Ident(n)) = rw.idents.get(&v.name).map(|t| &t.kind) {
            v.name = n.clone();
        }
    }
    for op in &mut m.operations {
        op.body = rw.subst(&op.body);
        if let Some(n) = rw.ops.get(&op.name.name) {
            op.name.name = n.clone();
        }
    }
}

/// Prepares a referenced (already flattened) machine for merging: expands its definitions, substitutes its
/// parameters by the actual arguments and applies the renaming prefix.
pub(super) fn instantiate(mut child: Machine, r: &MachineRef) -> Result<Machine> {
    expand_own_definitions(&mut child)?;
    let mut rw = Rewriter::default();
    if !r.args.is_empty() {
        if r.args.len() != child.params.len() {
            return Err(Diagnostic::type_error(
                r.name.span,
                format!(
                    "machine `{}` has {} parameter(s), given {} argument(s)",
                    r.name.name,
                    child.params.len(),
                    r.args.len()
                ),
            ));
        }
        for (p, a) in child.params.iter().zip(&r.args) {
            rw.idents.insert(p.name.clone(), a.clone());
        }
        // The constraints, now on the actual arguments, join the including machine's CONSTRAINTS.
        child.params.clear();
    }
    if let Some(prefix) = &r.prefix {
        let renamed = |n: &Name| -> Name { format!("{}.{}", prefix.name, n).into() };
        for (v, _) in &child.variables {
            rw.idents.insert(
                v.name.clone(),
                Term::new(TermKind::Ident(renamed(&v.name)), v.span),
            );
        }
        for op in &child.operations {
            rw.ops.insert(op.name.name.clone(), renamed(&op.name.name));
        }
    }
    rewrite_machine(&mut child, &rw);
    Ok(child)
}

/// Merges a prepared referenced machine into `target`; returns the child's operations (callable from
/// `target`: included operations, and the query operations of a seen machine).
pub(super) fn merge(target: &mut Machine, child: Machine) -> Vec<Operation> {
    merge_named(&mut target.sets, &child.sets, |s| &s.name.name);
    merge_named(&mut target.params, &child.params, |p| &p.name);
    merge_named(&mut target.constants, &child.constants, |c| &c.0.name);
    merge_pred(&mut target.properties, &child.properties);
    merge_pred(&mut target.constraints, &child.constraints);
    merge_named(&mut target.variables, &child.variables, |v| &v.0.name);
    merge_pred(&mut target.invariant, &child.invariant);
    let mut assertions = child.assertions.clone();
    for a in std::mem::take(&mut target.assertions) {
        if !assertions.contains(&a) {
            assertions.push(a);
        }
    }
    target.assertions = assertions;
    merge_definitions(target, &child);
    target.initialisation = sequence(child.initialisation, target.initialisation.take());
    merge_named(&mut target.freetypes, &child.freetypes, |f| &f.name.name);
    target.unsupported_clauses.extend(child.unsupported_clauses);
    child.operations
}

/// Adds the definitions of `child` that `target` does not define itself (after `target`'s own). A
/// child's settings (`SET_PREF_*`, `scope_*`, …) stay its own, as in ProB: B/SchneiderBook/Chapter11/
/// Registrar.mch INCLUDES Life.mch, whose `scope_PERSON == 8` gives Life 6,561 states on its own while
/// ProB explores Registrar with the default two persons (11 states).
fn merge_definitions(target: &mut Machine, child: &Machine) {
    for d in &child.definitions {
        if !super::definitions::is_setting(&d.name.name)
            && !target
                .definitions
                .iter()
                .any(|e| e.name.name == d.name.name)
        {
            target.definitions.push(d.clone());
        }
    }
}

/// Inherits from the flattened abstract machine of a refinement (see the module comment).
pub(super) fn refine(target: &mut Machine, mut abs: Machine) -> Result<()> {
    // Definitions may mention abstract variables: expand them before deciding what is still visible.
    expand_own_definitions(&mut abs)?;
    merge_named(&mut target.sets, &abs.sets, |s| &s.name.name);
    merge_named(&mut target.params, &abs.params, |p| &p.name);
    merge_named(&mut target.constants, &abs.constants, |c| &c.0.name);
    merge_pred(&mut target.properties, &abs.properties);
    merge_pred(&mut target.constraints, &abs.constraints);
    let redeclared: FxHashSet<Name> = target
        .variables
        .iter()
        .map(|(v, _)| v.name.clone())
        .collect();
    let kept: Vec<(Ident, bool)> = abs
        .variables
        .iter()
        .filter(|(v, concrete)| *concrete && !redeclared.contains(&v.name))
        .cloned()
        .collect();
    merge_named(&mut target.variables, &kept, |v| &v.0.name);
    merge_definitions(target, &abs);
    merge_named(&mut target.freetypes, &abs.freetypes, |f| &f.name.name);
    target.unsupported_clauses.extend(abs.unsupported_clauses);
    expand_own_definitions(target)?;
    let known = known_names(target);
    let visible = |t: &Term| free_idents(t).iter().all(|n| known.contains(n));
    let inherited: Vec<Term> = conjuncts(&abs.invariant)
        .into_iter()
        .filter(visible)
        .collect();
    let own: Vec<Term> = conjuncts(&target.invariant)
        .into_iter()
        .filter(visible)
        .collect();
    target.invariant = None;
    merge_pred(&mut target.invariant, &conjunction(own));
    merge_pred(&mut target.invariant, &conjunction(inherited));
    for op in &mut target.operations {
        if let Some(abs_op) = abs.operations.iter().find(|o| o.name.name == op.name.name) {
            inherit_precondition(op, abs_op, &known);
        }
        let mut scope = known.clone();
        scope.extend(op.params.iter().chain(&op.outputs).map(|p| p.name.clone()));
        prune_loop_invariants(&mut op.body, &scope);
    }
    Ok(())
}

/// Drops the conjuncts of WHILE invariants that mention identifiers not visible in the refinement (loop
/// invariants of implementations often glue to abstract variables).
fn prune_loop_invariants(s: &mut Subst, scope: &FxHashSet<Name>) {
    let widened = |ids: &[Ident]| {
        let mut inner = scope.clone();
        inner.extend(ids.iter().map(|i| i.name.clone()));
        inner
    };
    match &mut s.kind {
        SubstKind::Skip
        | SubstKind::Assign(..)
        | SubstKind::BecomesElementOf(..)
        | SubstKind::BecomesSuchThat(..)
        | SubstKind::OpCall(..) => {}
        SubstKind::Parallel(ss) | SubstKind::Sequence(ss) | SubstKind::Choice(ss) => {
            ss.iter_mut().for_each(|s| prune_loop_invariants(s, scope))
        }
        SubstKind::Any(ids, _, b) | SubstKind::Let(ids, _, b) | SubstKind::Var(ids, b) => {
            let inner = widened(ids);
            prune_loop_invariants(b, &inner)
        }
        SubstKind::Pre(_, b) | SubstKind::Assert(_, b) => prune_loop_invariants(b, scope),
        SubstKind::If(bs, els) | SubstKind::Select(bs, els) => {
            bs.iter_mut()
                .for_each(|(_, s)| prune_loop_invariants(s, scope));
            if let Some(e) = els {
                prune_loop_invariants(e, scope);
            }
        }
        SubstKind::Case(_, bs, els) => {
            bs.iter_mut()
                .for_each(|(_, s)| prune_loop_invariants(s, scope));
            if let Some(e) = els {
                prune_loop_invariants(e, scope);
            }
        }
        SubstKind::While {
            body, invariant, ..
        } => {
            prune_loop_invariants(body, scope);
            let kept: Vec<Term> = conjuncts(&Some(invariant.clone()))
                .into_iter()
                .filter(|c| free_idents(c).iter().all(|n| scope.contains(n)))
                .collect();
            let span = invariant.span;
            *invariant = conjunction(kept).unwrap_or_else(|| {
                Term::new(TermKind::Const(crate::syntax::ast::ConstKind::Btrue), span)
            });
        }
    }
}

/// Adds to a refined operation the conjuncts of the abstract precondition that constrain its parameters
/// (B assumes the abstract precondition in the refinement; the refinement often relies on it to type the
/// parameters). Conjuncts mentioning dropped abstract variables are left out.
fn inherit_precondition(op: &mut Operation, abs_op: &Operation, known: &FxHashSet<Name>) {
    let SubstKind::Pre(pre, _) = &abs_op.body.kind else {
        return;
    };
    let params: FxHashSet<Name> = op.params.iter().map(|p| p.name.clone()).collect();
    let wanted: Vec<Term> = conjuncts(&Some(pre.clone()))
        .into_iter()
        .filter(|c| {
            let free = free_idents(c);
            free.iter().any(|n| params.contains(n))
                && free.iter().all(|n| params.contains(n) || known.contains(n))
        })
        .collect();
    if let Some(p) = conjunction(wanted) {
        let span = op.body.span;
        let body = std::mem::replace(
            &mut op.body,
            Subst {
                kind: SubstKind::Skip,
                span,
            },
        );
        op.body = Subst {
            kind: SubstKind::Pre(p, Box::new(body)),
            span,
        };
    }
}

/// Every identifier a refinement's invariant may mention.
fn known_names(m: &Machine) -> FxHashSet<Name> {
    let mut known = declared_names(m);
    known.extend(m.definitions.iter().map(|d| d.name.name.clone()));
    known
}

/// Replaces calls `outs <-- op(args)` of the given operations by their bodies: the formal parameters are
/// bound to the arguments with a LET, the formal outputs are renamed to the actual ones.
pub(super) fn inline_calls(s: &Subst, ops: &FxHashMap<Name, Operation>) -> Result<Subst> {
    let each =
        |ss: &[Subst]| -> Result<Vec<Subst>> { ss.iter().map(|s| inline_calls(s, ops)).collect() };
    let opt = |s: &Option<Box<Subst>>| -> Result<Option<Box<Subst>>> {
        s.as_ref()
            .map(|s| Ok(Box::new(inline_calls(s, ops)?)))
            .transpose()
    };
    let branches = |bs: &[(Term, Subst)]| -> Result<Vec<(Term, Subst)>> {
        bs.iter()
            .map(|(c, s)| Ok((c.clone(), inline_calls(s, ops)?)))
            .collect()
    };
    let kind = match &s.kind {
        SubstKind::OpCall(outs, name, args) => match ops.get(&name.name) {
            Some(op) => return inline_one(op, outs, args, s.span),
            None => s.kind.clone(),
        },
        SubstKind::Skip
        | SubstKind::Assign(..)
        | SubstKind::BecomesElementOf(..)
        | SubstKind::BecomesSuchThat(..) => s.kind.clone(),
        SubstKind::Parallel(ss) => SubstKind::Parallel(each(ss)?),
        SubstKind::Sequence(ss) => SubstKind::Sequence(each(ss)?),
        SubstKind::Choice(ss) => SubstKind::Choice(each(ss)?),
        SubstKind::Any(ids, p, b) => {
            SubstKind::Any(ids.clone(), p.clone(), Box::new(inline_calls(b, ops)?))
        }
        SubstKind::Let(ids, p, b) => {
            SubstKind::Let(ids.clone(), p.clone(), Box::new(inline_calls(b, ops)?))
        }
        SubstKind::Var(ids, b) => SubstKind::Var(ids.clone(), Box::new(inline_calls(b, ops)?)),
        SubstKind::Pre(p, b) => SubstKind::Pre(p.clone(), Box::new(inline_calls(b, ops)?)),
        SubstKind::Assert(p, b) => SubstKind::Assert(p.clone(), Box::new(inline_calls(b, ops)?)),
        SubstKind::If(bs, els) => SubstKind::If(branches(bs)?, opt(els)?),
        SubstKind::Select(bs, els) => SubstKind::Select(branches(bs)?, opt(els)?),
        SubstKind::Case(e, bs, els) => SubstKind::Case(
            e.clone(),
            bs.iter()
                .map(|(vs, s)| Ok((vs.clone(), inline_calls(s, ops)?)))
                .collect::<Result<_>>()?,
            opt(els)?,
        ),
        SubstKind::While {
            cond,
            body,
            invariant,
            variant,
        } => SubstKind::While {
            cond: cond.clone(),
            body: Box::new(inline_calls(body, ops)?),
            invariant: invariant.clone(),
            variant: variant.clone(),
        },
    };
    Ok(Subst { kind, span: s.span })
}

fn inline_one(op: &Operation, outs: &[Ident], args: &[Term], span: Span) -> Result<Subst> {
    if op.params.len() != args.len() || op.outputs.len() != outs.len() {
        return Err(Diagnostic::type_error(
            span,
            format!(
                "operation `{}` takes {} argument(s) and {} output(s), given {} and {}",
                op.name.name,
                op.params.len(),
                op.outputs.len(),
                args.len(),
                outs.len()
            ),
        ));
    }
    // A formal parameter whose name the call site also uses (an actual output or an identifier in an
    // argument) would capture it: such parameters get a name qualified by the operation.
    let mut taken: FxHashSet<Name> = outs.iter().map(|o| o.name.clone()).collect();
    for a in args {
        taken.extend(free_idents(a));
    }
    let mut rw = Rewriter::default();
    let params: Vec<Ident> = op
        .params
        .iter()
        .map(|p| {
            if !taken.contains(&p.name) {
                return p.clone();
            }
            let fresh: Name = format!("{}.{}", op.name.name, p.name).into();
            rw.idents.insert(
                p.name.clone(),
                Term::new(TermKind::Ident(fresh.clone()), p.span),
            );
            Ident {
                name: fresh,
                span: p.span,
            }
        })
        .collect();
    for (formal, actual) in op.outputs.iter().zip(outs) {
        rw.idents.insert(
            formal.name.clone(),
            Term::new(TermKind::Ident(actual.name.clone()), actual.span),
        );
    }
    let body = rw.subst(&op.body);
    if params.is_empty() {
        return Ok(Subst {
            kind: body.kind,
            span,
        });
    }
    let bindings = params
        .iter()
        .zip(args)
        .map(|(p, a)| {
            Term::new(
                TermKind::Op(
                    Op::Eq,
                    vec![
                        Term::new(TermKind::Ident(p.name.clone()), p.span),
                        a.clone(),
                    ],
                ),
                a.span,
            )
        })
        .collect();
    let bindings = conjunction(bindings).expect("at least one parameter");
    Ok(Subst {
        kind: SubstKind::Let(params, bindings, Box::new(body)),
        span,
    })
}
