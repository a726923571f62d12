//! Conjunct partitioning: the conjuncts of a conjunction grouped into classes connected by shared search
//! variables (Plagge & Leuschel 2012, §3.6). Classes share no variable, so each is solved on its own and
//! the solutions of the whole are the products of theirs.

use crate::ir::{Pred, TypedName, free_names};

/// One independent part of a conjunction: indices into the variables and into the conjuncts, ascending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    pub vars: Vec<usize>,
    pub conjuncts: Vec<usize>,
}

/// The components of `conjuncts` over `vars`. Only free occurrences count: a name bound by a quantifier
/// or comprehension inside a conjunct does not connect it to the search variable of the same name.
/// A conjunct mentioning no variable is a component of its own (with no variables); a variable no conjunct
/// mentions is a component with no conjuncts. Components are ordered by their first conjunct, and the
/// conjunct-free ones after them by variable.
pub fn components(vars: &[TypedName], conjuncts: &[&Pred]) -> Vec<Component> {
    let mut parent: Vec<usize> = (0..vars.len()).collect();
    let mentions: Vec<Vec<usize>> = conjuncts
        .iter()
        .map(|c| {
            let free = free_names::of_pred(c);
            (0..vars.len())
                .filter(|&i| free.contains(&vars[i].name))
                .collect()
        })
        .collect();
    for m in &mentions {
        for pair in m.windows(2) {
            let (a, b) = (root(&mut parent, pair[0]), root(&mut parent, pair[1]));
            // The smaller index is the root, so a class is named by its first variable.
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut out: Vec<Component> = Vec::new();
    // The component index of each class root, once created.
    let mut of_root: Vec<Option<usize>> = vec![None; vars.len()];
    for (ci, m) in mentions.iter().enumerate() {
        match m.first() {
            None => out.push(Component {
                vars: vec![],
                conjuncts: vec![ci],
            }),
            Some(&v) => {
                let r = root(&mut parent, v);
                match of_root[r] {
                    Some(k) => out[k].conjuncts.push(ci),
                    None => {
                        of_root[r] = Some(out.len());
                        out.push(Component {
                            vars: vec![],
                            conjuncts: vec![ci],
                        });
                    }
                }
            }
        }
    }
    for v in 0..vars.len() {
        let r = root(&mut parent, v);
        match of_root[r] {
            Some(k) => out[k].vars.push(v),
            None => {
                of_root[r] = Some(out.len());
                out.push(Component {
                    vars: vec![v],
                    conjuncts: vec![],
                });
            }
        }
    }
    out
}

fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_formula::Formula;

    fn parts(text: &str) -> Vec<(Vec<String>, Vec<usize>)> {
        let f = Formula::parse(text);
        components(&f.vars, &f.conjuncts())
            .into_iter()
            .map(|c| {
                let names = c.vars.iter().map(|&v| f.vars[v].name.to_string()).collect();
                (names, c.conjuncts)
            })
            .collect()
    }

    fn names(ns: &[&str]) -> Vec<String> {
        ns.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn shared_variables_connect_conjuncts() {
        assert_eq!(
            parts("x:1..3 & y:1..3 & x<y & z=5"),
            vec![
                (names(&["x", "y"]), vec![0, 1, 2]),
                (names(&["z"]), vec![3])
            ]
        );
    }

    #[test]
    fn chains_merge_transitively() {
        assert_eq!(
            parts("a < b & c < d & b < c & e = 1"),
            vec![
                (names(&["a", "b", "c", "d"]), vec![0, 1, 2]),
                (names(&["e"]), vec![3])
            ]
        );
    }

    #[test]
    fn quantified_names_do_not_connect() {
        // `y` inside the quantifier is not the search variable y.
        assert_eq!(
            parts("x : 1..3 & #y.(y : 1..x) & y = 2"),
            vec![(names(&["x"]), vec![0, 1]), (names(&["y"]), vec![2])]
        );
    }

    #[test]
    fn constant_conjuncts_and_unmentioned_variables() {
        let f = Formula::parse("x = 1 & 1 < 2 & y = 2");
        // Pretend a third variable nothing mentions.
        let mut vars = f.vars.clone();
        let mut extra = vars[0].clone();
        extra.name = "w".into();
        vars.push(extra);
        let cs = components(&vars, &f.conjuncts());
        let shape: Vec<(Vec<usize>, Vec<usize>)> =
            cs.into_iter().map(|c| (c.vars, c.conjuncts)).collect();
        let x = f.var_index("x");
        let y = f.var_index("y");
        assert_eq!(
            shape,
            vec![
                (vec![x], vec![0]),
                (vec![], vec![1]),
                (vec![y], vec![2]),
                (vec![2], vec![])
            ]
        );
    }
}
