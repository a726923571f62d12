//! Resolving a parsed formula's atoms against a machine: B predicates and arguments parsed and typed in
//! the machine's context, operations looked up by name, fairness assumptions split off.
//!
//! A B fragment inside a formula is parsed from a copy of its source in which everything outside the
//! fragment is blanked (newlines kept), registered under the same path: its errors then carry the
//! position in the machine file (inside the `ASSERT_LTL` string) or in the command-line formula.

use super::formula::{Action, ArgPattern, Atom, Formula, Kind};
use super::machine_space::{MachineAtom, MachineSpace, unknown_operation};
use super::space::Fairness;
use crate::diag::{DiagKind, Diagnostic, Span, register_source, source};
use crate::ir::{Expr, Machine, Pred, TypedName};
use crate::syntax::ast;
use crate::types::{self, Formula as Typed};
use crate::value::Value;

/// A formula ready for the checkers: atoms are indices into the space's atom table.
pub struct Resolved {
    pub formula: Formula<usize>,
    /// The fairness assumptions in disjunctive normal form: the formula must hold on every run fair
    /// under some alternative, i.e. be checked once per alternative (one empty alternative: none).
    pub fairness: Vec<Vec<Fairness>>,
}

/// Resolves `parsed`, adding its atoms to `space`. Fairness assumptions are accepted only on the left of
/// a top-level `=>`, combined by `&` and `or` (`WF(a) & (SF(b) or WEF) => f`), and only for LTL.
pub fn resolve(
    machine_ast: &ast::Machine,
    space: &mut MachineSpace,
    parsed: &Formula<Atom>,
    ltl: bool,
) -> Result<Resolved, Diagnostic> {
    let mut r = Resolver {
        machine_ast,
        machine: space.context().machine(),
        space,
        bound: Vec::new(),
    };
    let (assumptions, body) = match &parsed.kind {
        Kind::Implies(lhs, rhs) if ltl && is_fairness(lhs) => (Some(&**lhs), &**rhs),
        _ => (None, parsed),
    };
    let fairness = match assumptions {
        Some(lhs) => r.fairness(lhs)?,
        None => vec![Vec::new()],
    };
    Ok(Resolved {
        formula: r.formula(body)?,
        fairness,
    })
}

/// Whether `f` is made only of fairness assumptions joined by `&` and `or`.
fn is_fairness(f: &Formula<Atom>) -> bool {
    match &f.kind {
        Kind::WeakFair(_) | Kind::StrongFair(_) | Kind::WeakFairAll | Kind::StrongFairAll => true,
        Kind::And(a, b) | Kind::Or(a, b) => is_fairness(a) && is_fairness(b),
        _ => false,
    }
}

struct Resolver<'a, 's, 'c> {
    machine_ast: &'a ast::Machine,
    machine: &'c Machine,
    space: &'s mut MachineSpace<'c>,
    /// The quantified identifiers in scope and the value each has in the copy of the body being resolved.
    bound: Vec<(TypedName, Value)>,
}

/// Values a quantifier's domain may have at most (its body is copied once per value).
const MAX_QUANTIFIED_VALUES: usize = 1000;

impl Resolver<'_, '_, '_> {
    /// The assumptions of `f` in disjunctive normal form (`&` distributes over `or`).
    fn fairness(&mut self, f: &Formula<Atom>) -> Result<Vec<Vec<Fairness>>, Diagnostic> {
        let all = 0..self.machine.operations.len();
        Ok(match &f.kind {
            Kind::And(a, b) => {
                let (left, right) = (self.fairness(a)?, self.fairness(b)?);
                let mut out = Vec::new();
                for l in &left {
                    for r in &right {
                        out.push(l.iter().chain(r).cloned().collect());
                    }
                }
                out
            }
            Kind::Or(a, b) => {
                let mut out = self.fairness(a)?;
                out.extend(self.fairness(b)?);
                out
            }
            Kind::WeakFair(a) | Kind::StrongFair(a) => {
                let strong = matches!(f.kind, Kind::StrongFair(_));
                let action = match a {
                    Atom::Taken(action) | Atom::Enabled(action) => action,
                    _ => return Err(unsupported(f.span, "a fairness assumption on this atom")),
                };
                if action.args.is_some() {
                    return Err(unsupported(
                        action.span,
                        "fairness of an operation with argument patterns",
                    ));
                }
                let operation = self.operation(&action.operation)?;
                vec![vec![Fairness { strong, operation }]]
            }
            Kind::WeakFairAll | Kind::StrongFairAll => {
                let strong = matches!(f.kind, Kind::StrongFairAll);
                vec![
                    all.map(|operation| Fairness { strong, operation })
                        .collect(),
                ]
            }
            _ => return Err(unsupported(f.span, "this fairness assumption")),
        })
    }

    fn formula(&mut self, f: &Formula<Atom>) -> Result<Formula<usize>, Diagnostic> {
        let b = |r: &mut Self, g: &Formula<Atom>| r.formula(g).map(Box::new);
        let kind = match &f.kind {
            Kind::True => Kind::True,
            Kind::False => Kind::False,
            Kind::Atom(a) => Kind::Atom(self.atom(a, f.span)?),
            Kind::Not(g) => Kind::Not(b(self, g)?),
            Kind::And(g, h) => Kind::And(b(self, g)?, b(self, h)?),
            Kind::Or(g, h) => Kind::Or(b(self, g)?, b(self, h)?),
            Kind::Implies(g, h) => Kind::Implies(b(self, g)?, b(self, h)?),
            Kind::Equiv(g, h) => Kind::Equiv(b(self, g)?, b(self, h)?),
            Kind::Next(g) => Kind::Next(b(self, g)?),
            Kind::Globally(g) => Kind::Globally(b(self, g)?),
            Kind::Finally(g) => Kind::Finally(b(self, g)?),
            Kind::Until(g, h) => Kind::Until(b(self, g)?, b(self, h)?),
            Kind::WeakUntil(g, h) => Kind::WeakUntil(b(self, g)?, b(self, h)?),
            Kind::Release(g, h) => Kind::Release(b(self, g)?, b(self, h)?),
            Kind::Yesterday(g) => Kind::Yesterday(b(self, g)?),
            Kind::Historically(g) => Kind::Historically(b(self, g)?),
            Kind::Once(g) => Kind::Once(b(self, g)?),
            Kind::Since(g, h) => Kind::Since(b(self, g)?, b(self, h)?),
            Kind::Trigger(g, h) => Kind::Trigger(b(self, g)?, b(self, h)?),
            Kind::ExistsNext(action, g) => {
                let a = match action {
                    Some(a) => Some(self.atom(a, f.span)?),
                    None => None,
                };
                Kind::ExistsNext(a, b(self, g)?)
            }
            Kind::AllNext(g) => Kind::AllNext(b(self, g)?),
            Kind::ExistsFinally(g) => Kind::ExistsFinally(b(self, g)?),
            Kind::ExistsGlobally(g) => Kind::ExistsGlobally(b(self, g)?),
            Kind::AllFinally(g) => Kind::AllFinally(b(self, g)?),
            Kind::AllGlobally(g) => Kind::AllGlobally(b(self, g)?),
            Kind::ExistsUntil(g, h) => Kind::ExistsUntil(b(self, g)?, b(self, h)?),
            Kind::AllUntil(g, h) => Kind::AllUntil(b(self, g)?, b(self, h)?),
            Kind::WeakFair(_) | Kind::StrongFair(_) | Kind::WeakFairAll | Kind::StrongFairAll => {
                return Err(unsupported(
                    f.span,
                    "a fairness assumption other than left of the top-level `=>`",
                ));
            }
            Kind::Quantified {
                exists,
                vars,
                domain,
                body,
            } => return self.quantified(*exists, vars, *domain, body, f.span),
        };
        Ok(Formula::new(kind, f.span))
    }

    /// `#x.({P} & f)` / `!x.({P} => f)`: `f` once per solution of `P` for the identifiers (evaluated with
    /// the first constant setup's constants), joined by `or` / `&`, as ProB expands them.
    fn quantified(
        &mut self,
        exists: bool,
        vars: &[ast::Ident],
        domain: Span,
        body: &Formula<Atom>,
        span: Span,
    ) -> Result<Formula<usize>, Diagnostic> {
        let (pred, free) = match self.typed(domain)? {
            Typed::Pred(p, free) => (p, free),
            Typed::Expr(..) => {
                return Err(Diagnostic::type_error(
                    domain,
                    "expected a predicate giving the quantified identifiers' values",
                ));
            }
        };
        let outer: Vec<&TypedName> = self.bound.iter().map(|(n, _)| n).collect();
        let mut names = Vec::new();
        for v in vars {
            match free.iter().find(|f| f.name == v.name) {
                Some(t) => names.push(t.clone()),
                None => {
                    return Err(Diagnostic::type_error(
                        v.span,
                        format!("the domain predicate does not mention `{}`", v.name),
                    ));
                }
            }
        }
        if let Some(other) = free
            .iter()
            .find(|f| !names.contains(f) && !outer.iter().any(|o| o.name == f.name))
        {
            return Err(unknown_identifier(other));
        }
        let ctx = self.space.context();
        let mut env = match self.space.initial_setup() {
            Some(constants) => ctx.constants_env(&constants).map_err(Diagnostic::from)?,
            None => crate::eval::Env::new(),
        };
        for (n, v) in &self.bound {
            env.bind(n.name.clone(), v.clone());
        }
        let problem = crate::solve::Problem::new(&names, &pred, &env);
        let found = crate::solve::solve_all(
            ctx,
            &problem,
            ctx.settings().backend,
            MAX_QUANTIFIED_VALUES + 1,
        )
        .map_err(Diagnostic::from)?;
        if !found.complete {
            return Err(unsupported(
                domain,
                &format!(
                    "a quantifier whose domain has more than {MAX_QUANTIFIED_VALUES} values or \
                     could not be listed completely"
                ),
            ));
        }
        let mut joined: Option<Formula<usize>> = None;
        for values in found.solutions {
            let depth = self.bound.len();
            self.bound.extend(names.iter().cloned().zip(values));
            let copy = self.formula(body);
            self.bound.truncate(depth);
            let copy = copy?;
            joined = Some(match joined {
                None => copy,
                Some(acc) => {
                    let (a, b) = (Box::new(acc), Box::new(copy));
                    Formula::new(
                        if exists {
                            Kind::Or(a, b)
                        } else {
                            Kind::And(a, b)
                        },
                        span,
                    )
                }
            });
        }
        Ok(joined
            .unwrap_or_else(|| Formula::new(if exists { Kind::False } else { Kind::True }, span)))
    }

    /// The bindings of the quantified identifiers in scope.
    fn bindings(&self) -> Vec<(ast::Name, Value)> {
        (self.bound.iter())
            .map(|(n, v)| (n.name.clone(), v.clone()))
            .collect()
    }

    /// Accepts free identifiers of a fragment only when they are quantified identifiers in scope, of
    /// the type they were given there.
    fn only_bound(&self, free: &[TypedName]) -> Result<(), Diagnostic> {
        for f in free {
            match self.bound.iter().find(|(n, _)| n.name == f.name) {
                Some((n, _)) if n.ty == f.ty => {}
                Some((n, _)) => {
                    return Err(Diagnostic::type_error(
                        f.span,
                        format!(
                            "`{}` has type {} here but {} in its quantifier",
                            f.name, f.ty, n.ty
                        ),
                    ));
                }
                None => return Err(unknown_identifier(f)),
            }
        }
        Ok(())
    }

    fn operation(&self, name: &ast::Ident) -> Result<usize, Diagnostic> {
        (self.machine.operations.iter())
            .position(|o| *o.name == *name.name)
            .ok_or_else(|| unknown_operation(name))
    }

    fn operations(&self, names: &[ast::Ident]) -> Result<Vec<usize>, Diagnostic> {
        names.iter().map(|n| self.operation(n)).collect()
    }

    fn atom(&mut self, a: &Atom, span: Span) -> Result<usize, Diagnostic> {
        let resolved = match a {
            Atom::Pred(range) => MachineAtom::Pred(self.predicate(*range)?, self.bindings()),
            Atom::Enabled(action) | Atom::Available(action) => {
                if action.args.is_some() {
                    return Err(unsupported(action.span, "`e(Op)` with argument patterns"));
                }
                MachineAtom::Enabled(self.operation(&action.operation)?)
            }
            Atom::Taken(action) => self.taken(action)?,
            Atom::Deadlock => MachineAtom::Deadlock,
            Atom::DeadlockOf(ops) => MachineAtom::DeadlockOf(self.operations(ops)?),
            Atom::Deterministic(ops) => MachineAtom::Deterministic(self.operations(ops)?),
            Atom::Controller(ops) => MachineAtom::Controller(self.operations(ops)?),
            Atom::Sink => MachineAtom::Sink,
            Atom::Current => MachineAtom::Current,
            Atom::Goal => {
                if self.machine.goal.is_none() {
                    return Err(Diagnostic::type_error(
                        span,
                        "`goal` needs a GOAL definition in the machine",
                    ));
                }
                MachineAtom::Goal
            }
            Atom::Error => MachineAtom::Error,
        };
        Ok(self.space.add_atom(resolved))
    }

    fn taken(&mut self, action: &Action) -> Result<MachineAtom, Diagnostic> {
        let operation = self.operation(&action.operation)?;
        let op = &self.machine.operations[operation];
        let args = match &action.args {
            None => vec![None; op.params.len()],
            Some(patterns) => {
                let any = matches!(op.body.kind, crate::ir::SubstKind::Any(..));
                if op.params.is_empty() && any {
                    return Err(unsupported(
                        action.span,
                        &format!(
                            "argument patterns over the ANY identifiers of event `{}` (it has no \
                             parameters)",
                            op.name
                        ),
                    ));
                }
                if patterns.len() != op.params.len() {
                    return Err(Diagnostic::type_error(
                        action.span,
                        format!(
                            "operation `{}` has {} parameter(s), the pattern gives {}",
                            op.name,
                            op.params.len(),
                            patterns.len()
                        ),
                    ));
                }
                let mut args = Vec::new();
                for (p, param) in patterns.iter().zip(&op.params) {
                    args.push(match p {
                        ArgPattern::Any(_) => None,
                        ArgPattern::Expr(range) => {
                            let e = self.expression(*range)?;
                            if e.ty != param.ty {
                                return Err(Diagnostic::type_error(
                                    *range,
                                    format!(
                                        "parameter `{}` of `{}` has type {}, the pattern's type is {}",
                                        param.name, op.name, param.ty, e.ty
                                    ),
                                ));
                            }
                            Some(e)
                        }
                    });
                }
                args
            }
        };
        Ok(MachineAtom::Taken {
            operation,
            args,
            bindings: self.bindings(),
        })
    }

    fn predicate(&self, range: Span) -> Result<Pred, Diagnostic> {
        match self.typed(range)? {
            Typed::Pred(p, free) => self.only_bound(&free).map(|()| p),
            Typed::Expr(..) => Err(Diagnostic::type_error(
                range,
                "expected a predicate inside `{...}`, found an expression",
            )),
        }
    }

    fn expression(&self, range: Span) -> Result<Expr, Diagnostic> {
        match self.typed(range)? {
            Typed::Expr(e, free) => self.only_bound(&free).map(|()| e),
            Typed::Pred(..) => Err(Diagnostic::type_error(
                range,
                "expected an expression as an operation argument, found a predicate",
            )),
        }
    }

    /// Parses and types the B fragment at `range` (see the module comment).
    fn typed(&self, range: Span) -> Result<Typed, Diagnostic> {
        let file = source(range.file).ok_or_else(|| {
            Diagnostic::new(
                DiagKind::Internal,
                range,
                "internal: formula source not registered",
            )
        })?;
        let (start, end) = (range.start as usize, range.end as usize);
        let blanked: String = (file.text.char_indices())
            .flat_map(|(i, c)| {
                let keep = (start..end).contains(&i) || c == '\n';
                let n = if keep { 1 } else { c.len_utf8() };
                std::iter::repeat_n(if keep { c } else { ' ' }, n)
            })
            .collect();
        if blanked.trim().is_empty() {
            return Err(Diagnostic::syntax(range, "empty B formula"));
        }
        let id = register_source(&file.path, &blanked);
        let term = crate::syntax::parse_term(id, &blanked)?;
        types::check_formula(self.machine_ast, self.machine, &term)
    }
}

fn unsupported(span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(DiagKind::Unsupported, span, format!("unsupported: {what}"))
}

fn unknown_identifier(v: &crate::ir::TypedName) -> Diagnostic {
    Diagnostic::type_error(v.span, format!("unknown identifier `{}`", v.name))
}
