//! Permutations of deferred-set elements acting on values, and the orbits they generate.
//!
//! B cannot name the elements of a deferred set, so a permutation of them maps every solution of a
//! predicate that mentions no particular element to another solution. A search may therefore report one
//! representative per orbit (symmetry reduction, `Symmetry::Representatives`); an enumeration that is
//! reported as complete must then expand every representative back into its whole orbit
//! (`Symmetry::Expanded`, `stream_expanded`), re-checking each image, so that symmetry breaking speeds a
//! listing up without ever shrinking it.

use super::{Backend, Problem, Stats, Symmetry, is_solution, stream};
use crate::eval::{Context, EvalError};
use crate::syntax::ast::Name;
use crate::value::Value;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;
use std::sync::Arc;

/// A permutation of the elements of one deferred set.
#[derive(Clone)]
pub struct SetPermutation {
    pub set: Arc<str>,
    /// The elements, in index order.
    pub elements: Arc<Vec<Value>>,
    /// Element `i` is mapped to element `perm[i]`.
    pub perm: Vec<usize>,
}

/// The image of `v` under the permutations `p` (one per deferred set; sets without one stay fixed).
pub fn permute(v: &Value, p: &[SetPermutation]) -> Value {
    match v {
        Value::Elem(e) => match p.iter().find(|sp| sp.set == e.set) {
            Some(sp) => sp.elements[sp.perm[e.index as usize]].clone(),
            None => v.clone(),
        },
        Value::Pair(ab) => Value::pair(permute(&ab.0, p), permute(&ab.1, p)),
        Value::Set(items) => Value::set_from_vec(items.iter().map(|x| permute(x, p)).collect()),
        Value::Record(fields) => Value::Record(Arc::new(
            fields
                .iter()
                .map(|(n, x)| (n.clone(), permute(x, p)))
                .collect(),
        )),
        Value::Int(_) | Value::Bool(_) | Value::Str(_) => v.clone(),
    }
}

/// The deferred sets of the machine with at least two elements (the only ones a permutation moves).
pub(crate) fn deferred_sets(ctx: &Context) -> Vec<(Name, Arc<Vec<Value>>)> {
    ctx.machine()
        .sets
        .iter()
        .filter(|s| s.elements.is_none())
        .filter_map(|s| {
            let elements = ctx.given_set(&s.name, s.span).ok()?;
            (elements.len() >= 2).then(|| (s.name.clone(), elements))
        })
        .collect()
}

/// Generators of the group of all permutations of the deferred sets' elements: per set, the swap of
/// its first two elements and the cycle through all of them (together they generate the symmetric
/// group).
fn generators(sets: &[(Name, Arc<Vec<Value>>)]) -> Vec<[SetPermutation; 1]> {
    let mut gens = Vec::new();
    for (name, elements) in sets {
        let n = elements.len();
        let mut swap: Vec<usize> = (0..n).collect();
        swap.swap(0, 1);
        let cycle: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();
        let mut perms = vec![swap];
        if n > 2 {
            perms.push(cycle);
        }
        for perm in perms {
            gens.push([SetPermutation {
                set: name.clone(),
                elements: elements.clone(),
                perm,
            }]);
        }
    }
    gens
}

/// Calls `visit` with every distinct image of `values` under the permutations of the deferred sets'
/// elements, `values` first, until `visit` returns false (then returns false). The orbit is closed
/// breadth-first under the generators, so the work grows with the orbit, not with the group.
pub(crate) fn for_each_image<E>(
    sets: &[(Name, Arc<Vec<Value>>)],
    values: &[Value],
    visit: &mut dyn FnMut(&[Value]) -> Result<bool, E>,
) -> Result<bool, E> {
    let gens = generators(sets);
    let mut seen: FxHashSet<Vec<Value>> = FxHashSet::default();
    let mut queue = VecDeque::new();
    seen.insert(values.to_vec());
    queue.push_back(values.to_vec());
    while let Some(current) = queue.pop_front() {
        if !visit(&current)? {
            return Ok(false);
        }
        for g in &gens {
            let image: Vec<Value> = current.iter().map(|v| permute(v, g)).collect();
            if seen.insert(image.clone()) {
                queue.push_back(image);
            }
        }
    }
    Ok(true)
}

/// `stream` for `Symmetry::Expanded`: the search reports representatives, each expanded to its orbit;
/// every image is re-checked by the interpreter and reported once. Should an image fail the check (the
/// predicate or its environment distinguishes deferred-set elements after all), the expansion is
/// abandoned and the question searched again without reduction, skipping what was already reported; an
/// error re-checking an image (a timeout) is the answer's error.
pub(super) fn stream_expanded(
    ctx: &Context,
    problem: &Problem<'_>,
    backend: Backend,
    on_solution: &mut super::OnSolution<'_>,
) -> Result<(bool, Stats), EvalError> {
    let sets = deferred_sets(ctx);
    let mut reported: FxHashSet<Vec<Value>> = FxHashSet::default();
    let mut asymmetric = false;
    let mut stopped = false;
    // An error while re-checking an image (a timeout, a limit) ends the listing as it would any search.
    let mut failure = None;
    let reduced = Problem {
        symmetry: Symmetry::Representatives,
        ..*problem
    };
    let (complete, mut stats) = stream(ctx, &reduced, backend, &mut |representative| {
        let expanded = for_each_image(&sets, representative, &mut |image| {
            if reported.contains(image) {
                return Ok(true);
            }
            if !is_solution(ctx, problem, image, &[])? {
                asymmetric = true;
                return Ok(false);
            }
            reported.insert(image.to_vec());
            stopped = !on_solution(image);
            Ok::<bool, EvalError>(!stopped)
        });
        expanded.unwrap_or_else(|e| {
            failure = Some(e);
            false
        })
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    if !asymmetric {
        stats.symmetry_reduced = false;
        return Ok((complete && !stopped, stats));
    }
    let plain = Problem {
        symmetry: Symmetry::None,
        ..*problem
    };
    stream(ctx, &plain, backend, &mut |values| {
        reported.contains(values) || on_solution(values)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Element;

    fn elements(set: &str, n: u32) -> Arc<Vec<Value>> {
        let name: Arc<str> = Arc::from(set);
        Arc::new(
            (0..n)
                .map(|i| {
                    Value::Elem(Arc::new(Element {
                        set: name.clone(),
                        index: i,
                        name: Name::from(format!("{set}{}", i + 1)),
                    }))
                })
                .collect(),
        )
    }

    /// Every permutation of 0..n (the brute-force group).
    fn all_permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in all_permutations(n - 1) {
            for pos in 0..n {
                let mut q = p.clone();
                q.insert(pos, n - 1);
                out.push(q);
            }
        }
        out
    }

    /// The orbit by brute force: the image under every element of the group, deduplicated.
    fn brute_orbit(sets: &[(Name, Arc<Vec<Value>>)], values: &[Value]) -> FxHashSet<Vec<Value>> {
        let mut combos: Vec<Vec<SetPermutation>> = vec![vec![]];
        for (name, elements) in sets {
            let mut next = Vec::new();
            for c in &combos {
                for perm in all_permutations(elements.len()) {
                    let mut combo = c.clone();
                    combo.push(SetPermutation {
                        set: name.clone(),
                        elements: elements.clone(),
                        perm,
                    });
                    next.push(combo);
                }
            }
            combos = next;
        }
        combos
            .iter()
            .map(|p| values.iter().map(|v| permute(v, p)).collect())
            .collect()
    }

    fn orbit(sets: &[(Name, Arc<Vec<Value>>)], values: &[Value]) -> FxHashSet<Vec<Value>> {
        let mut found = FxHashSet::default();
        for_each_image::<()>(sets, values, &mut |image| {
            assert!(found.insert(image.to_vec()), "an image was visited twice");
            Ok(true)
        })
        .unwrap();
        found
    }

    #[test]
    fn orbits_match_the_brute_force_group_on_random_values() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..300 {
            let sizes = [rng.u32(2..5), rng.u32(2..4)];
            let sets: Vec<(Name, Arc<Vec<Value>>)> = ["D", "E"]
                .iter()
                .zip(sizes)
                .map(|(s, n)| (Name::from(*s), elements(s, n)))
                .collect();
            let pick = |rng: &mut fastrand::Rng| {
                let (_, els) = &sets[rng.usize(0..sets.len())];
                els[rng.usize(0..els.len())].clone()
            };
            let values: Vec<Value> = (0..rng.usize(1..4))
                .map(|_| match rng.u8(0..4) {
                    0 => pick(&mut rng),
                    1 => Value::pair(pick(&mut rng), pick(&mut rng)),
                    2 => {
                        Value::set_from_vec((0..rng.usize(0..4)).map(|_| pick(&mut rng)).collect())
                    }
                    _ => Value::Bool(rng.bool()),
                })
                .collect();
            assert_eq!(
                orbit(&sets, &values),
                brute_orbit(&sets, &values),
                "{values:?}"
            );
        }
    }

    #[test]
    fn seven_distinct_elements_have_5040_images() {
        let d = elements("SA", 7);
        let sets = vec![(Name::from("SA"), d.clone())];
        let values: Vec<Value> = d.iter().cloned().collect();
        assert_eq!(orbit(&sets, &values).len(), 5040);
        // A stop requested by the visitor ends the walk at once.
        let mut visited = 0;
        let finished = for_each_image::<()>(&sets, &values, &mut |_| {
            visited += 1;
            Ok(visited < 10)
        })
        .unwrap();
        assert!(!finished);
        assert_eq!(visited, 10);
    }
}
