//! Models mapped back into B values, blocking clauses for enumerating all solutions, and the orbit test
//! used when the question asks for one solution per permutation of the deferred sets.

use super::circuit::{Circuit, Lit};
use super::cnf::Encoder;
use super::translate::Term;
use crate::solve::orbits::{SetPermutation, permute};
use crate::value::Value;

/// The value of a term whose every literal the CNF defines (inputs, or gates encoded both ways) in
/// the current model.
pub fn encoded_value_of(enc: &Encoder, term: &Term) -> Value {
    value_in(term, &|l| enc.value(l))
}

/// The value of an unknown's term in the current model: its gates are computed from the model's
/// inputs (a gate the CNF does not define, such as one only a term definition uses, has no
/// meaningful value of its own in the model).
pub fn value_of(enc: &Encoder, circuit: &Circuit, term: &Term) -> Value {
    let memo = std::cell::RefCell::new(rustc_hash::FxHashMap::default());
    value_in(term, &|l| {
        circuit.evaluate(l, &|i| enc.value(i), &mut memo.borrow_mut())
    })
}

/// The value of an unknown's term when circuit literal `l` has value `holds(l)`.
pub fn value_in(term: &Term, holds: &dyn Fn(Lit) -> bool) -> Value {
    match term {
        Term::Scalar(choices) => choices
            .iter()
            .find(|(_, l)| holds(*l))
            .or(choices.first())
            .map(|(v, _)| v.clone())
            .expect("a scalar unknown has candidates"),
        Term::Int(b) => Value::int(b.value(holds)),
        Term::Pair(a, b) => Value::pair(value_in(a, holds), value_in(b, holds)),
        Term::Set(s) => set_value(s, holds),
        // The arguments are in order, so the pairs are too.
        Term::Fun(f) => Value::set_from_sorted(
            f.iter()
                .filter(|(_, (d, _))| holds(*d))
                .map(|(x, (_, s))| Value::pair(x.clone(), set_value(s, holds)))
                .collect(),
        ),
    }
}

fn set_value(s: &super::translate::SetTerm, holds: &dyn Fn(Lit) -> bool) -> Value {
    Value::set_from_sorted(
        s.iter()
            .filter(|(_, l)| holds(**l))
            .map(|(k, _)| k.clone())
            .collect(),
    )
}

/// The clause excluding the current assignment of the primary inputs (the unknowns' encodings): the
/// gates are functions of them, so one clause excludes exactly one solution.
pub fn blocking_clause(enc: &Encoder, primary: &[i32]) -> Vec<i32> {
    primary
        .iter()
        .map(|&v| if enc.solver.value(v) { -v } else { v })
        .collect()
}

/// Whether `values` is the least (in value order) of its images under every permutation of the deferred
/// sets: one solution per orbit is reported.
pub fn is_orbit_least(values: &[Value], perms: &[Vec<SetPermutation>]) -> bool {
    perms.iter().all(|p| {
        let image: Vec<Value> = values.iter().map(|v| permute(v, p)).collect();
        image.as_slice() >= values
    })
}

/// Every permutation of `0..n` except the identity.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn go(prefix: &mut Vec<usize>, used: &mut Vec<bool>, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == used.len() {
            out.push(prefix.clone());
            return;
        }
        for i in 0..used.len() {
            if !used[i] {
                used[i] = true;
                prefix.push(i);
                go(prefix, used, out);
                prefix.pop();
                used[i] = false;
            }
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), &mut vec![false; n], &mut out);
    out.retain(|p| p.iter().enumerate().any(|(i, &j)| i != j));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_of_three_are_five_besides_the_identity() {
        assert_eq!(permutations(3).len(), 5);
        assert!(permutations(1).is_empty());
    }
}
