//! The rules by which the engines' answers on one machine must agree with `mc`'s, the reference: an
//! exhaustive breadth-first exploration, whose counterexamples are therefore shortest.
//!
//! An UNKNOWN (or an incomplete list) is never a disagreement: it is counted, not compared. A rule
//! returns the contradiction it found, in words, or None.

use crate::answers::{Answer, Finding, Setups};

/// `bmc`'s bound: paths of at most this many operations.
pub const BMC_DEPTH: usize = 12;

/// `bmc` against `mc` asked the same question (invariant violation: `mc --no-deadlock`; deadlock:
/// `mc --no-inv`). mc's depth `d` is the shortest; bmc's trace is replayed, so it cannot be shorter; if
/// bmc claims its answer is the shortest, it must be `d`; a complete "none up to the bound" is wrong when
/// `d` is within the bound; any counterexample is wrong when mc explored everything and found none.
pub fn bounded(mc: &Answer, bmc: &Answer) -> Option<String> {
    match (mc, bmc) {
        (
            Answer::Found { depth: d, .. },
            Answer::Found {
                depth, shortest, ..
            },
        ) => {
            if depth < d {
                Some(format!(
                    "bmc's counterexample at depth {depth} is shorter than mc's shortest ({d})"
                ))
            } else if *shortest && depth != d {
                Some(format!(
                    "bmc claims its depth {depth} is the shortest; mc's breadth-first search finds depth {d}"
                ))
            } else if *depth > BMC_DEPTH {
                Some(format!(
                    "bmc's counterexample at depth {depth} is past its bound"
                ))
            } else {
                None
            }
        }
        (Answer::Found { depth: d, .. }, Answer::Absent) if *d <= BMC_DEPTH => Some(format!(
            "bmc finds no counterexample up to depth {BMC_DEPTH}; mc finds one at depth {d}"
        )),
        (Answer::Absent, Answer::Found { depth, .. }) => Some(format!(
            "bmc finds a counterexample at depth {depth}; mc explored every reachable state and found none"
        )),
        _ => None,
    }
}

/// `kinduction` or `ic3` against `mc --no-deadlock`: PROVED is wrong when mc reaches a violation; a
/// violation is wrong when mc explored everything and found none, and cannot be shorter than mc's.
pub fn proof(mc: &Answer, prover: &Answer) -> Option<String> {
    match (mc, prover) {
        (Answer::Found { depth: d, .. }, Answer::Absent) => Some(format!(
            "PROVED, but mc reaches an invariant violation at depth {d}"
        )),
        (Answer::Found { depth: d, .. }, Answer::Found { depth, .. }) if depth < d => Some(
            format!("its violation at depth {depth} is shorter than mc's shortest ({d})"),
        ),
        (Answer::Absent, Answer::Found { depth, .. }) => Some(format!(
            "reports a violation at depth {depth}; mc explored every reachable state and found none"
        )),
        _ => None,
    }
}

/// `cbc-deadlock` against plain `mc` (invariant and deadlock checked, stopping at the first error).
/// cbc-deadlock looks at every state satisfying the invariant, reachable or not, so its DEADLOCK may be
/// unreachable and is not compared; its complete NO DEADLOCK is wrong when mc stops at a deadlock: mc
/// checks a state's invariant before its deadlock, so the state mc reports satisfies the invariant.
pub fn deadlock_freedom(mc: &Answer, cbc: &Answer) -> Option<String> {
    match (mc, cbc) {
        (
            Answer::Found {
                finding: Finding::Deadlock,
                depth,
                ..
            },
            Answer::Absent,
        ) => Some(format!(
            "NO DEADLOCK, but mc reaches a deadlock where the invariant holds, at depth {depth}"
        )),
        _ => None,
    }
}

/// mc's three runs against each other. `both` checks the invariant and deadlocks and stops at the
/// first error; `inv` checks only the invariant; `deadlock` only deadlocks (in any state, violating or
/// not). Breadth-first, `both`'s first error is no deeper than `inv`'s violation, a violation it reports
/// is `inv`'s, and a deadlock it reports is no shallower than `deadlock`'s. When `both` explored
/// everything, neither of the others finds anything.
pub fn mc_runs(both: &Answer, inv: &Answer, deadlock: &Answer) -> Option<String> {
    let Answer::Found {
        finding, depth: d, ..
    } = both
    else {
        if *both == Answer::Absent
            && (matches!(inv, Answer::Found { .. }) || matches!(deadlock, Answer::Found { .. }))
        {
            return Some(format!(
                "mc finds no error, but mc --no-deadlock answers {inv:?} and mc --no-inv {deadlock:?}"
            ));
        }
        return None;
    };
    if let Answer::Found { depth: v, .. } = inv {
        if d > v {
            return Some(format!(
                "mc's first error is at depth {d}, deeper than mc --no-deadlock's violation ({v})"
            ));
        }
        if *finding == Finding::InvariantViolation && d != v {
            return Some(format!(
                "mc's violation is at depth {d}, mc --no-deadlock's at depth {v}"
            ));
        }
    }
    if *finding == Finding::InvariantViolation && *inv == Answer::Absent {
        return Some("mc finds a violation, mc --no-deadlock explored everything and none".into());
    }
    if *finding == Finding::Deadlock {
        match deadlock {
            Answer::Found { depth: l, .. } if l > d => {
                return Some(format!(
                    "mc's deadlock is at depth {d}, mc --no-inv's shortest at depth {l}"
                ));
            }
            Answer::Absent => {
                return Some(
                    "mc finds a deadlock, mc --no-inv explored everything and none".into(),
                );
            }
            _ => {}
        }
    }
    None
}

/// `setup-constants --all` under several backends: every complete list must be the same set, and an
/// incomplete list may only hold setups of the complete one.
pub fn setups(answers: &[(&str, Setups)]) -> Option<String> {
    let complete: Vec<(&str, &std::collections::BTreeSet<String>)> = answers
        .iter()
        .filter_map(|(backend, answer)| match answer {
            Setups::Listed {
                solutions,
                complete: true,
            } => Some((*backend, solutions)),
            _ => None,
        })
        .collect();
    let (first, reference) = complete.first()?;
    for (backend, solutions) in &complete[1..] {
        if solutions != reference {
            let missing: Vec<_> = reference.difference(solutions).take(3).collect();
            let extra: Vec<_> = solutions.difference(reference).take(3).collect();
            return Some(format!(
                "{first} lists {} setups, {backend} {} (both complete); {backend} misses e.g. {missing:?}, adds e.g. {extra:?}",
                reference.len(),
                solutions.len()
            ));
        }
    }
    for (backend, answer) in answers {
        if let Setups::Listed {
            solutions,
            complete: false,
        } = answer
            && let Some(wrong) = solutions.difference(reference).next()
        {
            return Some(format!(
                "{backend}'s incomplete list holds {wrong}, which {first}'s complete list does not"
            ));
        }
    }
    None
}

/// mc's state counts: every run that explored everything explored the same reachable states.
pub fn state_counts(counts: &[(&str, Option<u64>)]) -> Option<String> {
    let known: Vec<(&str, u64)> = counts
        .iter()
        .filter_map(|(run, n)| n.map(|n| (*run, n)))
        .collect();
    let (first, n) = known.first()?;
    known
        .iter()
        .find(|(_, m)| m != n)
        .map(|(run, m)| format!("{first} counts {n} states, {run} {m} (both complete)"))
}

/// The rules flag the wrong verdicts issue 30 reported, and only contradictions.
#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn found(finding: Finding, depth: usize, shortest: bool) -> Answer {
        Answer::Found {
            finding,
            depth,
            shortest,
        }
    }

    fn listed(solutions: &[&str], complete: bool) -> Setups {
        Setups::Listed {
            solutions: solutions
                .iter()
                .map(|s| s.to_string())
                .collect::<BTreeSet<_>>(),
            complete,
        }
    }

    #[test]
    fn bmc_deadlock_complete_none_against_a_reachable_deadlock() {
        // Issue 30 item 4: bmc --deadlock said "NO COUNTEREXAMPLE ... complete", mc --no-inv found a
        // deadlock at depth 1 (in an invariant-violating state).
        let mc = found(Finding::Deadlock, 1, true);
        assert!(bounded(&mc, &Answer::Absent).is_some());
        assert!(bounded(&mc, &found(Finding::Deadlock, 1, true)).is_none());
        assert!(bounded(&mc, &Answer::Unknown("budget".into())).is_none());
    }

    #[test]
    fn bmc_depths_against_the_breadth_first_shortest() {
        let mc = found(Finding::InvariantViolation, 2, true);
        assert!(bounded(&mc, &found(Finding::InvariantViolation, 1, true)).is_some());
        assert!(bounded(&mc, &found(Finding::InvariantViolation, 3, true)).is_some());
        assert!(bounded(&mc, &found(Finding::InvariantViolation, 3, false)).is_none());
        let deep = found(Finding::InvariantViolation, BMC_DEPTH + 1, true);
        assert!(bounded(&deep, &Answer::Absent).is_none());
        assert!(
            bounded(
                &Answer::Absent,
                &found(Finding::InvariantViolation, 3, true)
            )
            .is_some()
        );
    }

    #[test]
    fn proofs_against_reachable_violations() {
        let mc = found(Finding::InvariantViolation, 2, true);
        assert!(proof(&mc, &Answer::Absent).is_some());
        assert!(proof(&mc, &found(Finding::InvariantViolation, 1, false)).is_some());
        assert!(proof(&mc, &found(Finding::InvariantViolation, 4, false)).is_none());
        assert!(
            proof(
                &Answer::Absent,
                &found(Finding::InvariantViolation, 4, false)
            )
            .is_some()
        );
    }

    #[test]
    fn cbc_deadlock_only_its_complete_no_deadlock_is_compared() {
        let deadlock = found(Finding::Deadlock, 3, true);
        assert!(deadlock_freedom(&deadlock, &Answer::Absent).is_some());
        // A deadlock cbc-deadlock finds may be unreachable.
        let cbc = found(Finding::Deadlock, 0, false);
        assert!(deadlock_freedom(&Answer::Absent, &cbc).is_none());
        // mc stopped at a violation: the deadlocks past it are not known.
        let violation = found(Finding::InvariantViolation, 1, true);
        assert!(deadlock_freedom(&violation, &Answer::Absent).is_none());
    }

    #[test]
    fn setup_lists_against_each_other() {
        // Issue 30 item 1: a complete list cut by symmetry breaking (2 of 9 involutions).
        let brute = listed(&["a", "b", "c"], true);
        let cut = listed(&["a", "b"], true);
        assert!(setups(&[("brute", brute.clone()), ("kodkod", cut.clone())]).is_some());
        // The same cut list, not claimed complete, is only weaker.
        let partial = listed(&["a", "b"], false);
        assert!(setups(&[("brute", brute.clone()), ("native", partial)]).is_none());
        let wrong = listed(&["a", "d"], false);
        assert!(setups(&[("brute", brute), ("native", wrong)]).is_some());
    }
}
