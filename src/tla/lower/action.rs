//! Actions to B substitutions: `Init` becomes the INITIALISATION, `Next` one operation per disjunct.
//!
//! `Next` is split as ProB splits it (TLA2B): along its top-level disjunctions, through the definitions it
//! calls (also a chain of definitions that only call the next, as PlusCal's `P(self) == label(self)`; the
//! innermost one names the operation), and through top-level `\E x \in S :` whose identifiers become the
//! operation's parameters; a conjunction with a splittable conjunct is distributed over it (`P /\ (A \/
//! B)` is `P /\ A \/ P /\ B`, the other conjuncts split in turn).
//!
//! An IF or CASE whose arms are actions is the disjunction of its arms, each guarded by its condition and
//! the negations of the earlier ones: `IF c THEN A ELSE B` is `c /\ A \/ ~c /\ B`. A CASE takes its first
//! true arm, as TLC does: `CASE p -> A [] q -> B` gives `p /\ A` and `~p /\ q /\ B` (with `q /\ B`, a
//! state satisfying both guards would gain B's successors). Without OTHER, the arm for "no guard holds"
//! is ill-defined (`CHOOSE({})`): an error where it is reached, as in TLC. Splitting keeps the successors
//! (the same states, through different operations) and lets each arm assign its primed variables instead
//! of listing their values from the type. Parts with the same name are told apart by `_2`, `_3`, ...
//!
//! Each part is then a conjunction whose conjuncts fall into three kinds: those without primed
//! variables are the guard; `x' = E` and `x' \in S` with no primes in `E`, `S` are assignments; the rest
//! constrain their primed variables together and become one `x, y : (P)` (before-after predicate, with
//! `x$0` for the value before). A primed variable of the rest is taken out of the assignments, so that
//! every variable is set in one place. `UNCHANGED <<x, y>>` is `x' = x /\ y' = y` (`Globals::unchanged`).
//!
//! A part that determines no next value for some variable (no conjunct mentions `x'`) is not a step
//! leaving it unchanged: TLC stops with an error ("successor state is not completely specified") where
//! such a part yields a successor, and so does its operation here (`incomplete`). The same holds for
//! `Init` and a variable it leaves without a value.

use super::Globals;
use super::expr::{LOCAL_MARK, conjunction, ident, is_local, op};
use crate::diag::{Result, Span};
use crate::machine::definitions::Definitions;
use crate::machine::rewrite::{Rewriter, free_idents};
use crate::syntax::ast::{
    ConstKind, DefinitionBody, Ident, Name, Op, Operation, Quant, Subst, SubstKind, Term, TermKind,
};
use rustc_hash::FxHashSet;

/// One operation found by splitting: its name, parameters and conjuncts (not yet expanded).
struct Part {
    name: String,
    params: Vec<Ident>,
    conjuncts: Vec<Term>,
}

/// The INITIALISATION for predicate `init` (over the unprimed variables).
pub(super) fn initialisation(g: &Globals, init: Term) -> Result<Subst> {
    // At the body of Init's definition in the module, not where the model file names it: an error of
    // Init points there.
    let span = unfold(g, &init).map_or(init.span, |(body, _)| body.span);
    let primed = g.prime(init)?;
    let mut conjuncts = Vec::new();
    flatten(primed, &mut conjuncts);
    Ok(before_after(g, conjuncts, span, &|missing| {
        let missing = not_assigned(missing, "");
        format!("initial state not completely specified by Init: {missing} (TLA+)")
    }))
}

/// One operation per part of `next`.
pub(super) fn operations(g: &Globals, next: Term) -> Result<Vec<Operation>> {
    let mut parts = Vec::new();
    split(g, next, "Next".into(), Vec::new(), Vec::new(), &mut parts);
    let defs = Definitions::new(&g.defs);
    let mut used: FxHashSet<String> = FxHashSet::default();
    let mut ops = Vec::new();
    for part in parts {
        let span = part.conjuncts.last().map_or_else(Span::default, |t| t.span);
        let mut conjuncts = Vec::new();
        for c in part.conjuncts {
            flatten(defs.expand_term(&c)?, &mut conjuncts);
        }
        let (params, conjuncts) = named_as_written(g, part.params, conjuncts);
        let mut name = part.name.clone();
        let mut k = 1;
        while !used.insert(name.clone()) {
            k += 1;
            name = format!("{}_{k}", part.name);
        }
        let body = before_after(g, conjuncts, span, &|missing| {
            let missing = not_assigned(missing, "'");
            format!("successor state not completely specified by action {name}: {missing} (TLA+)")
        });
        ops.push(Operation {
            name: Ident {
                name: name.into(),
                span,
            },
            outputs: vec![],
            params,
            body,
            span,
        });
    }
    Ok(ops)
}

/// The operation's parameters under their TLA+ names where a bound identifier renamed apart
/// (`Globals::renamed_apart`) became one, as traces show them: kept renamed only where the TLA+ name would
/// be another parameter's or a name the conjuncts mention.
fn named_as_written(
    g: &Globals,
    params: Vec<Ident>,
    conjuncts: Vec<Term>,
) -> (Vec<Ident>, Vec<Term>) {
    let mentioned: FxHashSet<Name> = conjuncts.iter().flat_map(free_idents).collect();
    let mut rewriter = Rewriter::default();
    let written: Vec<&str> = params.iter().map(|p| &**g.tla_name(&p.name)).collect();
    let params: Vec<Ident> = params
        .iter()
        .zip(&written)
        .map(|(p, &tla)| {
            let clash =
                written.iter().filter(|w| **w == tla).count() > 1 || mentioned.contains(tla);
            if tla == &*p.name || clash {
                return p.clone();
            }
            rewriter.idents.insert(p.name.clone(), ident(tla, p.span));
            Ident {
                name: tla.into(),
                span: p.span,
            }
        })
        .collect();
    if rewriter.is_empty() {
        return (params, conjuncts);
    }
    let conjuncts = conjuncts.iter().map(|c| rewriter.term(c)).collect();
    (params, conjuncts)
}

/// The definition `t` calls, with its arguments substituted (one level), and the definition's name.
fn unfold(g: &Globals, t: &Term) -> Option<(Term, String)> {
    let (name, args) = match &t.kind {
        TermKind::Ident(n) => (n, &[][..]),
        TermKind::Call(f, args) => match &f.kind {
            TermKind::Ident(n) => (n, &args[..]),
            _ => return None,
        },
        _ => return None,
    };
    let def = g.defs.iter().find(|d| d.name.name == *name)?;
    let DefinitionBody::Term(body) = &def.body else {
        return None;
    };
    if def.params.len() != args.len() {
        return None;
    }
    // The LET definitions the body uses may mention the parameters about to be replaced: they are
    // expanded first, as a full expansion would.
    let body = Definitions::of(g.defs.iter().filter(|d| is_local(&d.name.name)))
        .expand_term(body)
        .ok()?;
    let mut rewriter = Rewriter::default();
    for (p, a) in def.params.iter().zip(args) {
        rewriter.idents.insert(p.name.clone(), a.clone());
    }
    let base = name.split(LOCAL_MARK).next().unwrap_or(name).to_string();
    Some((rewriter.term(&body), base))
}

/// Whether `t` changes variables (mentions a primed one, through definitions).
fn is_action(g: &Globals, t: &Term) -> bool {
    g.expand(t).is_ok_and(|e| !primed(&e).is_empty())
}

/// `t` with definitions unfolded until it is a disjunction, an existential quantification or an IF of
/// actions (IF c THEN A ELSE B as `c /\ A \/ ~c /\ B`), if it is one.
fn alternatives(g: &Globals, t: &Term) -> Option<Term> {
    match &t.kind {
        TermKind::Op(Op::Or, _) | TermKind::Quantifier(Quant::Exists, ..) => {
            is_action(g, t).then(|| t.clone())
        }
        TermKind::IfThenElse(branches, otherwise) if is_action(g, t) => {
            let span = t.span;
            let mut alts = Vec::new();
            let mut earlier: Vec<Term> = Vec::new();
            for (cond, value) in branches {
                let mut parts: Vec<Term> = earlier
                    .iter()
                    .map(|c| op(Op::Not, vec![c.clone()], span))
                    .collect();
                parts.push(cond.clone());
                parts.push(value.clone());
                alts.push(op(Op::And, parts, span));
                earlier.push(cond.clone());
            }
            let mut parts: Vec<Term> = earlier
                .iter()
                .map(|c| op(Op::Not, vec![c.clone()], span))
                .collect();
            parts.push((**otherwise).clone());
            alts.push(op(Op::And, parts, span));
            Some(op(Op::Or, alts, span))
        }
        _ => unfold(g, t).and_then(|(body, _)| alternatives(g, &body)),
    }
}

fn split(
    g: &Globals,
    t: Term,
    name: String,
    params: Vec<Ident>,
    extra: Vec<Term>,
    out: &mut Vec<Part>,
) {
    match t.kind {
        TermKind::Op(Op::Or, items) => {
            for item in items {
                split(g, item, name.clone(), params.clone(), extra.clone(), out);
            }
        }
        TermKind::Quantifier(Quant::Exists, ids, body) => {
            // My own lowering writes `\E x \in S : P` as `x : S & P` (the memberships, then P).
            let taken: FxHashSet<&Name> = params.iter().map(|p| &p.name).collect();
            let clash = ids
                .iter()
                .any(|i| taken.contains(&i.name) || g.is_variable(&i.name));
            if clash {
                let t = Term::new(TermKind::Quantifier(Quant::Exists, ids, body), t.span);
                return leaf(t, name, params, extra, out);
            }
            let mut params = params;
            params.extend(ids);
            let mut extra = extra;
            match body.kind {
                TermKind::Op(Op::And, mut items) if items.len() == 2 => {
                    let inner = items.pop().expect("two items");
                    extra.push(items.pop().expect("two items"));
                    split(g, inner, name, params, extra, out);
                }
                _ => split(g, *body, name, params, extra, out),
            }
        }
        // A conjunction with a splittable conjunct: the conjunction of each alternative with the other
        // conjuncts (whose own alternatives are split in turn). The bound identifiers of an `\E` do not
        // occur in the other conjuncts (TLA+ forbids shadowing), so the quantifier can enclose them all.
        TermKind::Op(Op::And, items) => {
            let span = t.span;
            let mut flat = Vec::new();
            flat_conjuncts(g, items, &mut flat);
            let items = flat;
            if !items.iter().any(|i| alternatives(g, i).is_some()) {
                return leaf(op(Op::And, items, span), name, params, extra, out);
            }
            let k = items
                .iter()
                .position(|i| alternatives(g, i).is_some())
                .expect("checked");
            let chosen = alternatives(g, &items[k]).expect("checked");
            let with = |alt: Term| {
                let mut its = items.clone();
                its[k] = alt;
                op(Op::And, its, span)
            };
            match chosen.kind {
                TermKind::Op(Op::Or, alts) => {
                    for alt in alts {
                        split(
                            g,
                            with(alt),
                            name.clone(),
                            params.clone(),
                            extra.clone(),
                            out,
                        );
                    }
                }
                TermKind::Quantifier(Quant::Exists, ids, body) => {
                    let body = match body.kind {
                        TermKind::Op(Op::And, mut parts) if parts.len() == 2 => {
                            let inner = parts.pop().expect("two items");
                            let membership = parts.pop().expect("two items");
                            op(Op::And, vec![membership, with(inner)], span)
                        }
                        kind => with(Term::new(kind, body.span)),
                    };
                    let q = Term::new(
                        TermKind::Quantifier(Quant::Exists, ids, Box::new(body)),
                        span,
                    );
                    split(g, q, name, params, extra, out);
                }
                kind => leaf(Term::new(kind, span), name, params, extra, out),
            }
        }
        kind => {
            let t = Term::new(kind, t.span);
            if let TermKind::IfThenElse(..) = t.kind
                && let Some(alts) = alternatives(g, &t)
            {
                return split(g, alts, name, params, extra, out);
            }
            if let Some((body, def)) = splittable_body(g, &t) {
                return split(g, body, def, params, extra, out);
            }
            match unfold(g, &t) {
                Some((_, def)) => leaf(t, def, params, extra, out),
                None => leaf(t, name, params, extra, out),
            }
        }
    }
}

/// The body that the definition `t` calls unfolds to, through definitions whose body only calls another
/// (PlusCal's `Replica(self) == rloop(self)`), with the innermost definition's name, if that body splits
/// further: it has alternatives or is a conjunction (which may have some).
fn splittable_body(g: &Globals, t: &Term) -> Option<(Term, String)> {
    unfold_chain(g, t, &|body| {
        alternatives(g, body).is_some() || matches!(body.kind, TermKind::Op(Op::And, _))
    })
}

/// The first body satisfying `wanted` along the chain of definitions `t` unfolds through (each body
/// only calling the next), with the name of the definition that gave it.
fn unfold_chain(g: &Globals, t: &Term, wanted: &dyn Fn(&Term) -> bool) -> Option<(Term, String)> {
    let (body, def) = unfold(g, t)?;
    if wanted(&body) {
        return Some((body, def));
    }
    unfold_chain(g, &body, wanted)
}

/// The conjuncts of `items`, through nested conjunctions and the definitions whose body is one
/// (`conjunction_body`).
fn flat_conjuncts(g: &Globals, items: Vec<Term>, out: &mut Vec<Term>) {
    for item in items {
        match item.kind {
            TermKind::Op(Op::And, inner) => flat_conjuncts(g, inner, out),
            kind => {
                let item = Term::new(kind, item.span);
                match conjunction_body(g, &item) {
                    Some(body) => flat_conjuncts(g, vec![body], out),
                    None => out.push(item),
                }
            }
        }
    }
}

/// The conjunction that the definition `t` calls unfolds to, through definitions whose body only calls
/// another, if it unfolds to one.
fn conjunction_body(g: &Globals, t: &Term) -> Option<Term> {
    unfold_chain(g, t, &|body| matches!(body.kind, TermKind::Op(Op::And, _))).map(|(body, _)| body)
}

fn leaf(t: Term, name: String, params: Vec<Ident>, mut extra: Vec<Term>, out: &mut Vec<Part>) {
    extra.push(t);
    out.push(Part {
        name,
        params,
        conjuncts: extra,
    });
}

fn flatten(t: Term, out: &mut Vec<Term>) {
    match t.kind {
        TermKind::Op(Op::And, items) => items.into_iter().for_each(|i| flatten(i, out)),
        TermKind::Const(ConstKind::Btrue) => {}
        kind => out.push(Term::new(kind, t.span)),
    }
}

/// The primed variables `t` mentions free, unprimed.
fn primed(t: &Term) -> Vec<Name> {
    let mut names: Vec<Name> = free_idents(t)
        .into_iter()
        .filter_map(|n| n.strip_suffix('\'').map(Name::from))
        .collect();
    names.sort();
    names
}

/// The definition `x' = E` (E without primes) of a variable's next value, if `c` is one.
fn next_value<'t>(g: &Globals, c: &'t Term) -> Option<(&'t Name, &'t Term)> {
    match &c.kind {
        TermKind::Op(Op::Eq, args) => match &args[0].kind {
            TermKind::Ident(x)
                if x.strip_suffix('\'').is_some_and(|v| g.is_variable(v))
                    && primed(&args[1]).is_empty() =>
            {
                Some((x, &args[1]))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Replaces, in the other conjuncts, every `x'` defined by a conjunct `x' = E` by `E` (the conjunction
/// implies they are equal), until no conjunct changes: `announced' = (count' >= N)` beside
/// `count' = count + 1` becomes the assignment `announced' = (count + 1 >= N)`.
fn substitute_known(g: &Globals, mut conjuncts: Vec<Term>) -> Vec<Term> {
    loop {
        let mut rewriter = Rewriter::default();
        let mut defining = Vec::new();
        for (i, c) in conjuncts.iter().enumerate() {
            if let Some((x, e)) = next_value(g, c)
                && !rewriter.idents.contains_key(x)
            {
                rewriter.idents.insert(x.clone(), e.clone());
                defining.push(i);
            }
        }
        let mut changed = false;
        for (i, c) in conjuncts.iter_mut().enumerate() {
            let mentions = primed(c)
                .iter()
                .any(|v| rewriter.idents.contains_key(&*format!("{v}'")));
            if !defining.contains(&i) && mentions {
                *c = rewriter.term(c);
                changed = true;
            }
        }
        if !changed {
            return conjuncts;
        }
    }
}

/// The substitution for a conjunction of guard and before-after conjuncts (see the module comment). A
/// state variable that no conjunct determines makes each outcome an error (`incomplete`), with the
/// message `undetermined` gives for those variables.
fn before_after(
    g: &Globals,
    conjuncts: Vec<Term>,
    span: Span,
    undetermined: &dyn Fn(&[&str]) -> String,
) -> Subst {
    let conjuncts = substitute_known(g, conjuncts);
    let mut guard = Vec::new();
    let mut simple: Vec<(Name, Term)> = Vec::new();
    let mut general: Vec<Term> = Vec::new();
    for c in conjuncts {
        if primed(&c).is_empty() {
            guard.push(c);
            continue;
        }
        let target = match &c.kind {
            TermKind::Op(Op::Eq | Op::In, args) => {
                match (&args[0].kind, primed(&args[1]).is_empty()) {
                    (TermKind::Ident(x), true) => x
                        .strip_suffix('\'')
                        .filter(|v| g.is_variable(v))
                        .map(Name::from),
                    _ => None,
                }
            }
            _ => None,
        };
        match target {
            Some(x) if !simple.iter().any(|(y, _)| *y == x) => simple.push((x, c)),
            _ => general.push(c),
        }
    }
    let mut together: FxHashSet<Name> = general.iter().flat_map(primed).collect();
    let (moved, kept): (Vec<_>, Vec<_>) =
        simple.into_iter().partition(|(x, _)| together.contains(x));
    general.extend(moved.into_iter().map(|(_, c)| c));
    together.extend(general.iter().flat_map(primed));
    let missing: Vec<&str> = g
        .variables
        .iter()
        .map(|v| &*v.name)
        .filter(|v| !together.contains(*v) && !kept.iter().any(|(x, _)| &**x == *v))
        .collect();
    let mut parts = Vec::new();
    for (x, c) in kept {
        let sp = c.span;
        let TermKind::Op(o, mut args) = c.kind else {
            unreachable!("classified as `x' = E` or `x' : S`")
        };
        let value = args.pop().expect("binary");
        let target = Ident {
            name: x.clone(),
            span: sp,
        };
        parts.push(Subst {
            kind: if o == Op::Eq {
                SubstKind::Assign(vec![ident(&x, sp)], vec![value])
            } else {
                SubstKind::BecomesElementOf(vec![target], value)
            },
            span: sp,
        });
    }
    if !general.is_empty() {
        let mut vars: Vec<Name> = together.into_iter().collect();
        vars.sort();
        let mut rewriter = Rewriter::default();
        for v in &vars {
            rewriter
                .idents
                .insert(v.clone(), ident(&format!("{v}$0"), span));
            rewriter
                .idents
                .insert(format!("{v}'").into(), ident(v, span));
        }
        let pred = rewriter.term(&conjunction(general, span));
        let ids = vars
            .iter()
            .map(|v| Ident {
                name: v.clone(),
                span,
            })
            .collect();
        parts.push(Subst {
            kind: SubstKind::BecomesSuchThat(ids, pred),
            span,
        });
    }
    let mut body = match parts.len() {
        0 => Subst {
            kind: SubstKind::Skip,
            span,
        },
        1 => parts.pop().expect("one part"),
        _ => Subst {
            kind: SubstKind::Parallel(parts),
            span,
        },
    };
    if !missing.is_empty() {
        body = incomplete(body, &undetermined(&missing), span);
    }
    if guard.is_empty() {
        return body;
    }
    Subst {
        kind: SubstKind::Select(vec![(conjunction(guard, span), body)], None),
        span,
    }
}

/// "x' is not assigned", "x', y' are not assigned": the variables `names`, each followed by `mark`.
fn not_assigned(names: &[&str], mark: &str) -> String {
    let listed: Vec<String> = names.iter().map(|n| format!("{n}{mark}")).collect();
    let verb = if names.len() == 1 { "is" } else { "are" };
    format!("{} {verb} not assigned", listed.join(", "))
}

/// `body`, then an error for each of its outcomes: TLC stops with an error where an action (or Init)
/// yields a state in which some variable has no value, so an outcome of `body` is never a state. The
/// error is the external `ASSERT_TRUE(FALSE, message)` (ill-defined, `standard`'s TLC `Assert`), in a B
/// ASSERT after `body`: reached only where the guard holds and `body` has an outcome, as TLC reports
/// it only for a successor it would produce.
fn incomplete(body: Subst, message: &str, span: Span) -> Subst {
    let call = TermKind::Call(
        Box::new(ident("ASSERT_TRUE", span)),
        vec![
            Term::new(TermKind::Const(ConstKind::False), span),
            Term::new(TermKind::Str(message.into()), span),
        ],
    );
    let failed = op(
        Op::Eq,
        vec![
            Term::new(call, span),
            Term::new(TermKind::Const(ConstKind::True), span),
        ],
        span,
    );
    let check = Subst {
        kind: SubstKind::Assert(
            failed,
            Box::new(Subst {
                kind: SubstKind::Skip,
                span,
            }),
        ),
        span,
    };
    Subst {
        kind: SubstKind::Sequence(vec![body, check]),
        span,
    }
}
