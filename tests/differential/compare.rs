//! The comparison of two backends' answers to one problem: what must agree, and how a case is counted.

use bsolve::eval::EvalError;
use bsolve::solve::Solutions;
use bsolve::value::Value;
use itertools::Itertools;

/// One backend's answer to `solve_all`.
pub type Run = Result<Solutions, EvalError>;

/// How an agreeing case is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// At least one solution.
    Sat,
    /// No solution, proved by a complete search.
    Unsat,
    /// No solution found, but no complete search either (an unbounded integer, the solution limit).
    Incomplete,
    /// Both backends failed with a non-resource error (the predicate is ill-defined, or unsupported).
    BothErrors,
    /// A backend ran out of time: nothing to compare.
    Timeout,
    /// A backend hit another resource limit: nothing to compare.
    Limit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Agree(Class),
    /// What differs, readably.
    Disagree(String),
}

/// Compares the oracle's run with the native backend's.
///
/// Both complete: the sorted solution lists must be identical (satisfiability and solution counts). One
/// complete: every solution of the other must be in its list (so "no solution" from a complete search
/// contradicts any solution found). A non-resource error on one side only is a disagreement; a timeout
/// or resource limit on either side is only counted.
pub fn compare(brute: &Run, native: &Run) -> Verdict {
    let (b, n) = match (brute, native) {
        (Err(e), _) | (_, Err(e)) if matches!(e, EvalError::Limit(_)) => {
            return Verdict::Agree(if e.is_timeout() {
                Class::Timeout
            } else {
                Class::Limit
            });
        }
        (Err(_), Err(_)) => return Verdict::Agree(Class::BothErrors),
        // The oracle checks conjuncts in source order and gives up at the first ill-defined one; the
        // native solver treats an assignment on which the predicate is ill-defined as no solution (and
        // every solution it reports was re-checked well-defined and true by the interpreter).
        (Err(EvalError::WellDefinedness(_)), Ok(_)) => return Verdict::Agree(Class::BothErrors),
        (Err(e), Ok(n)) => {
            return Verdict::Disagree(format!("brute: error {e}\nnative: {}", summary(n)));
        }
        (Ok(b), Err(e)) => {
            return Verdict::Disagree(format!("brute: {}\nnative: error {e}", summary(b)));
        }
        (Ok(b), Ok(n)) => (b, n),
    };
    let mut problems = vec![];
    for (name, s) in [("brute", b), ("native", n)] {
        if s.stats.rejected > 0 {
            problems.push(format!(
                "{name} proposed {} solution(s) the interpreter rejected",
                s.stats.rejected
            ));
        }
        let sorted = sorted(s);
        if let Some(dup) = sorted.iter().tuple_windows().find(|(x, y)| x == y) {
            problems.push(format!("{name} gave solution {} twice", show(dup.0)));
        }
    }
    let (bs, ns) = (sorted(b), sorted(n));
    if b.complete && n.complete {
        if bs != ns {
            problems.push(difference(&bs, &ns));
        }
    } else if b.complete {
        missing_from(
            &bs,
            &ns,
            "native found",
            "brute's complete list",
            &mut problems,
        );
    } else if n.complete {
        missing_from(
            &ns,
            &bs,
            "brute found",
            "native's complete list",
            &mut problems,
        );
    }
    if !problems.is_empty() {
        problems.push(format!("brute: {}\nnative: {}", summary(b), summary(n)));
        return Verdict::Disagree(problems.join("\n"));
    }
    Verdict::Agree(if !bs.is_empty() || !ns.is_empty() {
        Class::Sat
    } else if b.complete || n.complete {
        Class::Unsat
    } else {
        Class::Incomplete
    })
}

fn sorted(s: &Solutions) -> Vec<Vec<Value>> {
    let mut v = s.solutions.clone();
    v.sort();
    v
}

/// Reports the solutions of `other` that are not in the complete list `complete`.
fn missing_from(
    complete: &[Vec<Value>],
    other: &[Vec<Value>],
    found: &str,
    list: &str,
    problems: &mut Vec<String>,
) {
    let extra: Vec<&Vec<Value>> = other
        .iter()
        .filter(|s| complete.binary_search(s).is_err())
        .collect();
    if !extra.is_empty() {
        problems.push(format!(
            "{found} {} solution(s) missing from {list}, e.g. {}",
            extra.len(),
            show(extra[0])
        ));
    }
}

/// The solutions only one of two complete lists has.
fn difference(brute: &[Vec<Value>], native: &[Vec<Value>]) -> String {
    let only = |a: &[Vec<Value>], b: &[Vec<Value>]| -> Vec<String> {
        a.iter()
            .filter(|s| b.binary_search(s).is_err())
            .take(3)
            .map(|s| show(s))
            .collect()
    };
    format!(
        "complete lists differ: brute {} solution(s), native {}; only brute: [{}]; only native: [{}]",
        brute.len(),
        native.len(),
        only(brute, native).join("; "),
        only(native, brute).join("; ")
    )
}

fn show(solution: &[Value]) -> String {
    format!("({})", solution.iter().join(", "))
}

/// A one-line description of a run.
pub fn summary(s: &Solutions) -> String {
    let first = s
        .solutions
        .first()
        .map(|x| format!(", first {}", show(x)))
        .unwrap_or_default();
    format!(
        "{} solution(s), complete {}, limited {}{first}",
        s.solutions.len(),
        s.complete,
        s.limited
    )
}

#[cfg(test)]
mod self_check {
    //! The comparison must be able to fail: deliberately different answers are reported.

    use super::*;
    use bsolve::diag::{DiagKind, Diagnostic, Span};
    use bsolve::solve::Stats;

    fn run(values: &[i64], complete: bool) -> Run {
        Ok(Solutions {
            solutions: values.iter().map(|&i| vec![Value::Int(i.into())]).collect(),
            complete,
            limited: false,
            stats: Stats::default(),
        })
    }

    fn undefined() -> Run {
        Err(EvalError::WellDefinedness(Diagnostic::new(
            DiagKind::WellDefinedness,
            Span::default(),
            "division by zero",
        )))
    }

    fn disagrees(v: &Verdict) -> bool {
        matches!(v, Verdict::Disagree(_))
    }

    #[test]
    fn identical_answers_agree() {
        assert_eq!(
            compare(&run(&[2, 1], true), &run(&[1, 2], true)),
            Verdict::Agree(Class::Sat)
        );
        assert_eq!(
            compare(&run(&[], true), &run(&[], true)),
            Verdict::Agree(Class::Unsat)
        );
        assert_eq!(
            compare(&run(&[], false), &run(&[], false)),
            Verdict::Agree(Class::Incomplete)
        );
        assert_eq!(
            compare(&undefined(), &undefined()),
            Verdict::Agree(Class::BothErrors)
        );
    }

    #[test]
    fn different_answers_disagree() {
        // Different solution counts, and satisfiability.
        assert!(disagrees(&compare(&run(&[1, 2], true), &run(&[1], true))));
        assert!(disagrees(&compare(&run(&[], true), &run(&[3], true))));
        // A complete "no solution" contradicts any solution found by an incomplete search.
        assert!(disagrees(&compare(&run(&[], true), &run(&[3], false))));
        assert!(disagrees(&compare(&run(&[4], false), &run(&[1], true))));
        // Duplicates and errors on one side only.
        assert!(disagrees(&compare(&run(&[1, 1], true), &run(&[1], true))));
        assert!(disagrees(&compare(&run(&[], true), &undefined())));
        // The oracle stopping at an ill-defined conjunct does not contradict native solutions.
        assert!(!disagrees(&compare(&undefined(), &run(&[1], true))));
    }

    #[test]
    fn an_incomplete_subset_agrees() {
        assert_eq!(
            compare(&run(&[1, 2], true), &run(&[2], false)),
            Verdict::Agree(Class::Sat)
        );
    }
}
