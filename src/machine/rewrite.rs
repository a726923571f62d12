//! Substitution of free identifiers in surface terms and substitutions.
//!
//! Used for definition parameters, machine parameters (`INCLUDES M(1, S)`) and renaming prefixes
//! (`INCLUDES p.M`). Only free occurrences are replaced: identifiers bound by a quantifier, comprehension,
//! lambda, LET, ANY or VAR are left alone inside their scope. Capture of the replacement's own free
//! identifiers is not avoided (B definitions are macros; Atelier B does not avoid it either). For the same
//! reason a definition parameter written as a bound identifier of the body (`all(x, S, P) ==
//! !x.(x : S => P)`) is replaced there too, by its argument, which must then be an identifier
//! (`Rewriter::rename_binders`).

use crate::syntax::ast::{Ident, Name, Subst, SubstKind, Term, TermKind};
use rustc_hash::{FxHashMap, FxHashSet};

/// What to replace: identifiers by terms, operation names by operation names.
#[derive(Default)]
pub struct Rewriter {
    pub idents: FxHashMap<Name, Term>,
    pub ops: FxHashMap<Name, Name>,
    /// Replace a bound identifier named like one of `idents` by its replacement (a macro's parameter)
    /// instead of leaving it and its scope alone (a machine's parameter or renamed variable).
    pub rename_binders: bool,
    /// The first bound identifier `rename_binders` could not rename: its replacement is no identifier.
    misused_binder: std::cell::RefCell<Option<(Ident, Term)>>,
}

impl Rewriter {
    pub fn is_empty(&self) -> bool {
        self.idents.is_empty() && self.ops.is_empty()
    }

    pub fn term(&self, t: &Term) -> Term {
        self.term_in(t, &mut Vec::new())
    }

    pub fn subst(&self, s: &Subst) -> Subst {
        self.subst_in(s, &mut Vec::new())
    }

    /// The replacement of a free identifier, if any; `x$0` follows the renaming of `x`.
    fn lookup(&self, name: &Name, bound: &[Name]) -> Option<Term> {
        if bound.contains(name) {
            return None;
        }
        if let Some(t) = self.idents.get(name) {
            return Some(t.clone());
        }
        let base = name.strip_suffix("$0")?;
        if bound.iter().any(|b| &**b == base) {
            return None;
        }
        match &self.idents.get(base)?.kind {
            TermKind::Ident(n) => Some(Term::new(
                TermKind::Ident(format!("{n}$0").into()),
                self.idents.get(base)?.span,
            )),
            _ => None,
        }
    }

    /// Renames an identifier in a binding position of a substitution (`x :: S`, `x <-- op`), when its
    /// replacement is itself an identifier.
    fn rename_ident(&self, id: &Ident, bound: &[Name]) -> Ident {
        match self.lookup(&id.name, bound).map(|t| t.kind) {
            Some(TermKind::Ident(n)) => Ident {
                name: n,
                span: id.span,
            },
            _ => id.clone(),
        }
    }

    /// The bound identifier with replacement `Term::Ident` under `rename_binders`, and the term that
    /// replacement is, if it is none.
    pub fn misused_binder(&self) -> Option<(Ident, Term)> {
        self.misused_binder.borrow().clone()
    }

    /// Runs `f` in the scope of the bound identifiers `ids`, with the identifiers as they are after the
    /// rewrite: a binder renamed under `rename_binders` does not hide the replacement of its name.
    fn scoped<R>(
        &self,
        ids: &[Ident],
        bound: &mut Vec<Name>,
        f: impl FnOnce(Vec<Ident>, &mut Vec<Name>) -> R,
    ) -> R {
        let n = bound.len();
        let mut renamed = Vec::with_capacity(ids.len());
        for id in ids {
            let replacement = self
                .rename_binders
                .then(|| self.lookup(&id.name, bound))
                .flatten();
            match replacement {
                Some(Term {
                    kind: TermKind::Ident(name),
                    ..
                }) => renamed.push(Ident {
                    name,
                    span: id.span,
                }),
                other => {
                    if let Some(term) = other {
                        self.misused_binder
                            .borrow_mut()
                            .get_or_insert((id.clone(), term));
                    }
                    bound.push(id.name.clone());
                    renamed.push(id.clone());
                }
            }
        }
        let r = f(renamed, bound);
        bound.truncate(n);
        r
    }

    fn term_in(&self, t: &Term, bound: &mut Vec<Name>) -> Term {
        let span = t.span;
        let kind = match &t.kind {
            TermKind::Ident(n) => match self.lookup(n, bound) {
                Some(mut r) => {
                    // Keep the use site's position for a renamed identifier.
                    if matches!(r.kind, TermKind::Ident(_)) {
                        r.span = span;
                    }
                    return r;
                }
                None => TermKind::Ident(n.clone()),
            },
            TermKind::Int(_) | TermKind::Str(_) | TermKind::Const(_) | TermKind::Unsupported(_) => {
                t.kind.clone()
            }
            TermKind::Op(op, args) => TermKind::Op(*op, self.terms(args, bound)),
            TermKind::Call(f, args) => {
                TermKind::Call(Box::new(self.term_in(f, bound)), self.terms(args, bound))
            }
            TermKind::Quantifier(q, ids, body) => self.scoped(ids, bound, |ids, b| {
                TermKind::Quantifier(*q, ids, Box::new(self.term_in(body, b)))
            }),
            TermKind::SetComprehension(ids, body) => self.scoped(ids, bound, |ids, b| {
                TermKind::SetComprehension(ids, Box::new(self.term_in(body, b)))
            }),
            TermKind::SetComprehensionExpr(ids, p, e) => self.scoped(ids, bound, |ids, b| {
                TermKind::SetComprehensionExpr(
                    ids,
                    Box::new(self.term_in(p, b)),
                    Box::new(self.term_in(e, b)),
                )
            }),
            TermKind::QuantExpr(k, ids, p, e) => self.scoped(ids, bound, |ids, b| {
                TermKind::QuantExpr(
                    *k,
                    ids,
                    Box::new(self.term_in(p, b)),
                    Box::new(self.term_in(e, b)),
                )
            }),
            TermKind::SetEnum(xs) => TermKind::SetEnum(self.terms(xs, bound)),
            TermKind::SeqEnum(xs) => TermKind::SeqEnum(self.terms(xs, bound)),
            TermKind::Record(fs) => TermKind::Record(
                fs.iter()
                    .map(|(f, e)| (f.clone(), self.term_in(e, bound)))
                    .collect(),
            ),
            TermKind::Struct(fs) => TermKind::Struct(
                fs.iter()
                    .map(|(f, e)| (f.clone(), self.term_in(e, bound)))
                    .collect(),
            ),
            TermKind::Field(e, f) => TermKind::Field(Box::new(self.term_in(e, bound)), f.clone()),
            TermKind::RecordUpdate(e, f, v) => TermKind::RecordUpdate(
                Box::new(self.term_in(e, bound)),
                f.clone(),
                Box::new(self.term_in(v, bound)),
            ),
            TermKind::IfThenElse(branches, els) => TermKind::IfThenElse(
                branches
                    .iter()
                    .map(|(c, v)| (self.term_in(c, bound), self.term_in(v, bound)))
                    .collect(),
                Box::new(self.term_in(els, bound)),
            ),
            TermKind::Let(ids, p, body) => self.scoped(ids, bound, |ids, b| {
                TermKind::Let(
                    ids,
                    Box::new(self.term_in(p, b)),
                    Box::new(self.term_in(body, b)),
                )
            }),
        };
        Term::new(kind, span)
    }

    fn terms(&self, ts: &[Term], bound: &mut Vec<Name>) -> Vec<Term> {
        ts.iter().map(|t| self.term_in(t, bound)).collect()
    }

    fn substs(&self, ss: &[Subst], bound: &mut Vec<Name>) -> Vec<Subst> {
        ss.iter().map(|s| self.subst_in(s, bound)).collect()
    }

    fn branches(&self, bs: &[(Term, Subst)], bound: &mut Vec<Name>) -> Vec<(Term, Subst)> {
        bs.iter()
            .map(|(c, s)| (self.term_in(c, bound), self.subst_in(s, bound)))
            .collect()
    }

    fn opt(&self, s: &Option<Box<Subst>>, bound: &mut Vec<Name>) -> Option<Box<Subst>> {
        s.as_ref().map(|s| Box::new(self.subst_in(s, bound)))
    }

    fn subst_in(&self, s: &Subst, bound: &mut Vec<Name>) -> Subst {
        let idents = |ids: &[Ident], bound: &[Name]| -> Vec<Ident> {
            ids.iter().map(|i| self.rename_ident(i, bound)).collect()
        };
        let kind = match &s.kind {
            SubstKind::Skip => SubstKind::Skip,
            SubstKind::Assign(l, r) => {
                SubstKind::Assign(self.terms(l, bound), self.terms(r, bound))
            }
            SubstKind::BecomesElementOf(ids, e) => {
                SubstKind::BecomesElementOf(idents(ids, bound), self.term_in(e, bound))
            }
            SubstKind::BecomesSuchThat(ids, p) => {
                SubstKind::BecomesSuchThat(idents(ids, bound), self.term_in(p, bound))
            }
            SubstKind::OpCall(outs, op, args) => {
                let op = match self.ops.get(&op.name) {
                    Some(n) => Ident {
                        name: n.clone(),
                        span: op.span,
                    },
                    None => op.clone(),
                };
                SubstKind::OpCall(idents(outs, bound), op, self.terms(args, bound))
            }
            SubstKind::Parallel(ss) => SubstKind::Parallel(self.substs(ss, bound)),
            SubstKind::Sequence(ss) => SubstKind::Sequence(self.substs(ss, bound)),
            SubstKind::Any(ids, p, body) => self.scoped(ids, bound, |ids, b| {
                SubstKind::Any(ids, self.term_in(p, b), Box::new(self.subst_in(body, b)))
            }),
            SubstKind::Let(ids, p, body) => self.scoped(ids, bound, |ids, b| {
                SubstKind::Let(ids, self.term_in(p, b), Box::new(self.subst_in(body, b)))
            }),
            SubstKind::Var(ids, body) => self.scoped(ids, bound, |ids, b| {
                SubstKind::Var(ids, Box::new(self.subst_in(body, b)))
            }),
            SubstKind::Pre(p, body) => {
                SubstKind::Pre(self.term_in(p, bound), Box::new(self.subst_in(body, bound)))
            }
            SubstKind::Assert(p, body) => {
                SubstKind::Assert(self.term_in(p, bound), Box::new(self.subst_in(body, bound)))
            }
            SubstKind::Choice(ss) => SubstKind::Choice(self.substs(ss, bound)),
            SubstKind::If(bs, els) => SubstKind::If(self.branches(bs, bound), self.opt(els, bound)),
            SubstKind::Select(bs, els) => {
                SubstKind::Select(self.branches(bs, bound), self.opt(els, bound))
            }
            SubstKind::Case(e, bs, els) => SubstKind::Case(
                self.term_in(e, bound),
                bs.iter()
                    .map(|(vs, s)| (self.terms(vs, bound), self.subst_in(s, bound)))
                    .collect(),
                self.opt(els, bound),
            ),
            SubstKind::While {
                cond,
                body,
                invariant,
                variant,
            } => SubstKind::While {
                cond: self.term_in(cond, bound),
                body: Box::new(self.subst_in(body, bound)),
                invariant: self.term_in(invariant, bound),
                variant: self.term_in(variant, bound),
            },
        };
        Subst { kind, span: s.span }
    }
}

/// The identifiers occurring free in `t`.
pub fn free_idents(t: &Term) -> FxHashSet<Name> {
    let mut out = FxHashSet::default();
    walk_free(t, &mut Vec::new(), &mut |n| {
        out.insert(n.clone());
        false
    });
    out
}

/// Whether some identifier occurring free in `t` satisfies `test` (stops at the first one, building no
/// set).
pub fn mentions_free(t: &Term, test: &dyn Fn(&Name) -> bool) -> bool {
    walk_free(t, &mut Vec::new(), &mut |n| test(n))
}

/// Walks the free identifiers of `t` into `found`, stopping as soon as `found` returns true (the result).
fn walk_free(t: &Term, bound: &mut Vec<Name>, found: &mut dyn FnMut(&Name) -> bool) -> bool {
    let mut scoped = |ids: &[Ident], parts: &[&Term], bound: &mut Vec<Name>| {
        let n = bound.len();
        bound.extend(ids.iter().map(|i| i.name.clone()));
        let stop = parts.iter().any(|p| walk_free(p, bound, found));
        bound.truncate(n);
        stop
    };
    match &t.kind {
        TermKind::Ident(n) => !bound.contains(n) && found(n),
        TermKind::Int(_) | TermKind::Str(_) | TermKind::Const(_) | TermKind::Unsupported(_) => {
            false
        }
        TermKind::Op(_, args) | TermKind::SetEnum(args) | TermKind::SeqEnum(args) => {
            args.iter().any(|a| walk_free(a, bound, found))
        }
        TermKind::Call(f, args) => {
            walk_free(f, bound, found) || args.iter().any(|a| walk_free(a, bound, found))
        }
        TermKind::Quantifier(_, ids, b) | TermKind::SetComprehension(ids, b) => {
            scoped(ids, &[b], bound)
        }
        TermKind::SetComprehensionExpr(ids, p, e)
        | TermKind::QuantExpr(_, ids, p, e)
        | TermKind::Let(ids, p, e) => scoped(ids, &[p, e], bound),
        TermKind::Record(fs) | TermKind::Struct(fs) => {
            fs.iter().any(|(_, e)| walk_free(e, bound, found))
        }
        TermKind::Field(e, _) => walk_free(e, bound, found),
        TermKind::RecordUpdate(e, _, v) => walk_free(e, bound, found) || walk_free(v, bound, found),
        TermKind::IfThenElse(bs, els) => {
            bs.iter()
                .any(|(c, v)| walk_free(c, bound, found) || walk_free(v, bound, found))
                || walk_free(els, bound, found)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::syntax::ast::{Op, Quant};

    fn id(n: &str) -> Term {
        Term::new(TermKind::Ident(n.into()), Span::default())
    }
    fn ident(n: &str) -> Ident {
        Ident {
            name: n.into(),
            span: Span::default(),
        }
    }

    #[test]
    fn replaces_only_free_occurrences() {
        // x + #x.(x = y)  with x := 1, y := z
        let q = Term::new(
            TermKind::Quantifier(
                Quant::Exists,
                vec![ident("x")],
                Box::new(Term::new(
                    TermKind::Op(Op::Eq, vec![id("x"), id("y")]),
                    Span::default(),
                )),
            ),
            Span::default(),
        );
        let t = Term::new(
            TermKind::Op(Op::And, vec![id("x"), q.clone()]),
            Span::default(),
        );
        let mut rw = Rewriter::default();
        rw.idents.insert(
            "x".into(),
            Term::new(TermKind::Int(1.into()), Span::default()),
        );
        rw.idents.insert("y".into(), id("z"));
        let r = rw.term(&t);
        let TermKind::Op(Op::And, args) = &r.kind else {
            panic!("shape")
        };
        assert_eq!(args[0].kind, TermKind::Int(1.into()));
        let fv = free_idents(&r);
        assert!(fv.contains("z") && !fv.contains("x") && !fv.contains("y"));
    }

    #[test]
    fn renames_before_values() {
        let mut rw = Rewriter::default();
        rw.idents.insert("v".into(), id("p.v"));
        assert_eq!(rw.term(&id("v$0")).kind, TermKind::Ident("p.v$0".into()));
    }
}
