//! Actions to B substitutions: `Init` becomes the INITIALISATION, `Next` one operation per disjunct.
//!
//! `Next` is split as ProB splits it (TLA2B): along its top-level disjunctions, through the definitions it
//! calls (the innermost one names the operation), and through top-level `\E x \in S :` whose identifiers
//! become the operation's parameters; a conjunction with exactly one splittable conjunct is distributed
//! over it. Each part is then a conjunction whose conjuncts fall into three kinds: those without primed
//! variables are the guard; `x' = E` and `x' \in S` with no primes in `E`, `S` are assignments; the rest
//! constrain their primed variables together and become one `x, y : (P)` (before-after predicate, with
//! `x$0` for the value before). A primed variable of the rest is taken out of the assignments, so that
//! every variable is set in one place.

use super::Globals;
use super::expr::{conjunction, ident, op};
use crate::diag::{Result, Span};
use crate::machine::definitions::Definitions;
use crate::machine::rewrite::{Rewriter, free_idents};
use crate::syntax::ast::{
    DefinitionBody, Ident, Name, Op, Operation, Quant, Subst, SubstKind, Term, TermKind,
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
    let span = init.span;
    let primed = g.prime(init)?;
    let mut conjuncts = Vec::new();
    flatten(primed, &mut conjuncts);
    Ok(before_after(g, conjuncts, span))
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
        let body = before_after(g, conjuncts, span);
        let mut name = part.name.clone();
        let mut k = 1;
        while !used.insert(name.clone()) {
            k += 1;
            name = format!("{}_{k}", part.name);
        }
        ops.push(Operation {
            name: Ident {
                name: name.into(),
                span,
            },
            outputs: vec![],
            params: part.params,
            body,
            span,
        });
    }
    Ok(ops)
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
    let mut rewriter = Rewriter::default();
    for (p, a) in def.params.iter().zip(args) {
        rewriter.idents.insert(p.name.clone(), a.clone());
    }
    let base = name.split("__let").next().unwrap_or(name).to_string();
    Some((rewriter.term(body), base))
}

/// Whether `t` (through definitions) is a disjunction or an existential quantification.
fn splittable(g: &Globals, t: &Term) -> bool {
    match &t.kind {
        TermKind::Op(Op::Or, _) | TermKind::Quantifier(Quant::Exists, ..) => true,
        _ => unfold(g, t).is_some_and(|(body, _)| splittable(g, &body)),
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
            // My own lowering writes `\E x \in S : P` as `x : S & P` (one membership per identifier).
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
        TermKind::Op(Op::And, items) if items.iter().filter(|i| splittable(g, i)).count() == 1 => {
            let mut extra = extra;
            let mut chosen = None;
            for item in items {
                if chosen.is_none() && splittable(g, &item) {
                    chosen = Some(item);
                } else {
                    extra.push(item);
                }
            }
            split(
                g,
                chosen.expect("one splittable conjunct"),
                name,
                params,
                extra,
                out,
            );
        }
        kind => {
            let t = Term::new(kind, t.span);
            match unfold(g, &t) {
                Some((body, def)) if splittable(g, &body) => {
                    split(g, body, def, params, extra, out)
                }
                Some((_, def)) => leaf(t, def, params, extra, out),
                None => leaf(t, name, params, extra, out),
            }
        }
    }
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
        TermKind::Const(crate::syntax::ast::ConstKind::Btrue) => {}
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

/// The substitution for a conjunction of guard and before-after conjuncts (see the module comment).
fn before_after(g: &Globals, conjuncts: Vec<Term>, span: Span) -> Subst {
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
    let body = match parts.len() {
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
    if guard.is_empty() {
        return body;
    }
    let _ = op;
    Subst {
        kind: SubstKind::Select(vec![(conjunction(guard, span), body)], None),
        span,
    }
}
