//! Deterministic equations: conjuncts `x = E` (or `E = x`) that fix a search variable from values already
//! known. ProB evaluates these before any enumeration; Plagge & Leuschel (§3.6) keep them outside the
//! Kodkod problem and pass their values in as exact bounds.

use crate::ir::{CompareOp, ExprKind, Pred, PredKind, TypedName, free_names};

/// Conjunct `conjunct` defines variable `var` (both are indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Definition {
    pub var: usize,
    pub conjunct: usize,
}

/// One way a conjunct can define a variable: the variable, and the variables the other side needs.
struct Candidate {
    var: usize,
    needs: Vec<usize>,
}

/// The definitions, in an order in which each can be evaluated: every free name of its right side is
/// `known` (and not a search variable) or is defined by an earlier definition. Chains are followed
/// (`y = x + 1 & x = 5` gives x, then y). Each variable and each conjunct is used at most once; an
/// equation whose right side mentions its own variable is never a definition.
pub fn definitions(
    vars: &[TypedName],
    conjuncts: &[&Pred],
    known: &dyn Fn(&str) -> bool,
) -> Vec<Definition> {
    let candidates: Vec<Vec<Candidate>> = conjuncts
        .iter()
        .map(|c| candidates(vars, c, known))
        .collect();
    let mut defined = vec![false; vars.len()];
    let mut used = vec![false; conjuncts.len()];
    let mut out = Vec::new();
    // Sweep in conjunct order until nothing new is defined: each sweep can only use earlier definitions.
    loop {
        let before = out.len();
        for (ci, cands) in candidates.iter().enumerate() {
            if used[ci] {
                continue;
            }
            let ready = cands
                .iter()
                .find(|c| !defined[c.var] && c.needs.iter().all(|&n| defined[n]));
            if let Some(c) = ready {
                defined[c.var] = true;
                used[ci] = true;
                out.push(Definition {
                    var: c.var,
                    conjunct: ci,
                });
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// `x = E` and `E = x` readings of `c`. A reading is dropped when E mentions x itself or a name that is
/// neither a search variable nor known.
fn candidates(vars: &[TypedName], c: &Pred, known: &dyn Fn(&str) -> bool) -> Vec<Candidate> {
    let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind else {
        return vec![];
    };
    let var_of = |name: &str| vars.iter().position(|v| &*v.name == name);
    let mut out = Vec::new();
    for (side, other) in [(l, r), (r, l)] {
        let ExprKind::Var(name) = &side.kind else {
            continue;
        };
        let Some(var) = var_of(name) else {
            continue;
        };
        let mut needs = Vec::new();
        let mut usable = true;
        for n in free_names::of_expr(other) {
            match var_of(&n) {
                Some(v) if v == var => usable = false,
                Some(v) => needs.push(v),
                None => usable &= known(&n),
            }
        }
        if usable {
            out.push(Candidate { var, needs });
        }
    }
    out
}

/// Definitions by terms: conjuncts `x = E` where E may mention other search variables, so that a
/// symbolic backend can use E's encoding as x's instead of a fresh unknown that the equation then ties
/// to E (x then needs no bounds of its own). Only variables `open(i)` are defined (the others have known
/// values); the result is acyclic in the order given: each E mentions its own variable nowhere and
/// other open variables only when they are defined earlier or never (those are the free ones the
/// encoding is built over). Every free name of E that is not a search variable must be `known`.
pub fn term_definitions(
    vars: &[TypedName],
    conjuncts: &[&Pred],
    open: &dyn Fn(usize) -> bool,
    known: &dyn Fn(&str) -> bool,
) -> Vec<Definition> {
    let mut defined = vec![false; vars.len()];
    // Open variables some accepted definition is built over: they stay free.
    let mut free = vec![false; vars.len()];
    let mut out = Vec::new();
    for (ci, c) in conjuncts.iter().enumerate() {
        let reading = candidates(vars, c, &|n| known(n))
            .into_iter()
            .find(|cand| open(cand.var) && !defined[cand.var] && !free[cand.var]);
        if let Some(cand) = reading {
            for &n in &cand.needs {
                if open(n) && !defined[n] {
                    free[n] = true;
                }
            }
            defined[cand.var] = true;
            out.push(Definition {
                var: cand.var,
                conjunct: ci,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_formula::Formula;

    /// The (variable name, conjunct) pairs found, with `k` the only known name.
    fn defs(text: &str) -> Vec<(String, usize)> {
        let f = Formula::parse(text);
        definitions(&f.vars, &f.conjuncts(), &|n| n == "k")
            .into_iter()
            .map(|d| (f.vars[d.var].name.to_string(), d.conjunct))
            .collect()
    }

    fn pairs(ps: &[(&str, usize)]) -> Vec<(String, usize)> {
        ps.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    }

    #[test]
    fn chains_in_evaluation_order() {
        assert_eq!(defs("x = 5 & y = x + 1"), pairs(&[("x", 0), ("y", 1)]));
        assert_eq!(defs("y = x + 1 & x = 5"), pairs(&[("x", 1), ("y", 0)]));
        assert_eq!(
            defs("z = y * 2 & x + 1 = y & 3 = x"),
            pairs(&[("x", 2), ("y", 1), ("z", 0)])
        );
    }

    /// The term definitions found, every variable open.
    fn term_defs(text: &str) -> Vec<(String, usize)> {
        let f = Formula::parse(text);
        term_definitions(&f.vars, &f.conjuncts(), &|_| true, &|n| n == "k")
            .into_iter()
            .map(|d| (f.vars[d.var].name.to_string(), d.conjunct))
            .collect()
    }

    #[test]
    fn term_definitions_are_acyclic() {
        assert_eq!(
            term_defs("x : 1..3 & y = x + k & z = y * 2"),
            pairs(&[("y", 1), ("z", 2)])
        );
        // x is free under y's definition, so it is not defined later.
        assert_eq!(term_defs("y = x + 1 & x = z * 2"), pairs(&[("y", 0)]));
        assert_eq!(term_defs("x = y + 0 & y = x - 0"), pairs(&[("x", 0)]));
        assert_eq!(term_defs("x = x + 1"), pairs(&[]));
        assert_eq!(term_defs("x = y + 1 & x = y"), pairs(&[("x", 0)]));
    }

    #[test]
    fn self_reference_and_cycles_are_not_definitions() {
        assert_eq!(defs("x = x + 0"), pairs(&[]));
        assert_eq!(defs("x = y & y = x & x : 1..2"), pairs(&[]));
        assert_eq!(defs("x : 1..3 & y = x"), pairs(&[]));
    }

    #[test]
    fn each_variable_is_defined_once() {
        assert_eq!(defs("x = 1 & x = 2 & y = x"), pairs(&[("x", 0), ("y", 2)]));
    }

    #[test]
    fn known_names_and_sets() {
        let f = Formula::parse("s = {k, 1} & x = card(s) & t = {u} & u : 1..2");
        // k and u are not searched for; only k is known.
        let vars: Vec<TypedName> = f
            .vars
            .iter()
            .filter(|v| &*v.name != "k" && &*v.name != "u")
            .cloned()
            .collect();
        let got = definitions(&vars, &f.conjuncts(), &|n| n == "k");
        let names: Vec<&str> = got.iter().map(|d| &*vars[d.var].name).collect();
        assert_eq!(names, vec!["s", "x"]);
    }

    #[test]
    fn quantified_names_are_not_needed() {
        assert_eq!(defs("x = card({y | y : 1..3 & y > 1})"), pairs(&[("x", 0)]));
    }
}
