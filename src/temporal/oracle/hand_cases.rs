//! The oracle on small graphs whose answers are worked out by hand (in the comments).

use super::super::formula::{Formula, Kind::*};
use super::super::ltl::Lasso;
use super::super::space::{Fairness, NodeId, StateSpace};
use super::*;

const P: usize = 0;
const Q: usize = 1;

/// Whether the LTL formula holds on every fair run, by the bounded search; a counterexample found must
/// be a fair run that violates the formula.
fn ltl_holds(space: &mut ExplicitSpace, formula: &Formula<usize>, fairness: &[Fairness]) -> bool {
    match ltl_counterexample(space, formula, fairness, 4, 6) {
        None => true,
        Some(lasso) => {
            assert!(is_run(space, &lasso), "{lasso:?}");
            assert!(is_fair(space, fairness, &lasso), "{lasso:?}");
            assert!(!ltl_on_lasso(space, formula, &lasso), "{lasso:?}");
            false
        }
    }
}

fn weak(operation: usize) -> Fairness {
    Fairness {
        strong: false,
        operation,
    }
}

fn strong(operation: usize) -> Fairness {
    Fairness {
        strong: true,
        operation,
    }
}

fn ctl_at(space: &mut ExplicitSpace, formula: &Formula<usize>, nodes: &[NodeId]) -> Vec<bool> {
    nodes
        .iter()
        .map(|&n| ctl_holds(space, formula, n))
        .collect()
}

fn truth() -> Formula<usize> {
    formula(True)
}

/// 0 → 1 → 2 → 0 by Op0, p only at node 2: the one run is (0 1 2)^ω, p at every third position.
fn triangle() -> ExplicitSpace {
    ExplicitSpace::new(
        1,
        1,
        vec![vec![(0, 1)], vec![(0, 2)], vec![(0, 0)]],
        vec![0],
        vec![vec![], vec![], vec![P]],
    )
}

#[test]
fn a_cycle_with_p_at_one_node() {
    let mut s = triangle();
    let p = atom(P);
    // p recurs every third position: G F p. It is false at two of every three: not F G p.
    assert!(ltl_holds(
        &mut s,
        &unary(Globally, unary(Finally, p.clone())),
        &[]
    ));
    assert!(!ltl_holds(
        &mut s,
        &unary(Finally, unary(Globally, p.clone())),
        &[]
    ));
    // Position 0 is node 0 (no p), position 2 node 2 (p).
    assert!(!ltl_holds(&mut s, &p, &[]));
    assert!(ltl_holds(&mut s, &unary(Next, unary(Next, p.clone())), &[]));
    // The same run, given as a lasso with its cycle entered at once, and again after one round.
    let run = Lasso {
        prefix: vec![],
        cycle: vec![(0, Some(0)), (1, Some(0)), (2, Some(0))],
    };
    let later = Lasso {
        prefix: run.cycle.clone(),
        cycle: run.cycle.clone(),
    };
    // O p is false at positions 0 and 1 and true from position 2 on, though the cycle comes back to node
    // 0: past values depend on the position, not the node, which the evaluation must unroll for.
    let once_p = unary(Once, p.clone());
    for lasso in [&run, &later] {
        assert!(is_run(&mut s, lasso));
        assert!(ltl_on_lasso(
            &mut s,
            &unary(Globally, unary(Finally, p.clone())),
            lasso
        ));
        assert!(!ltl_on_lasso(
            &mut s,
            &unary(Finally, unary(Globally, p.clone())),
            lasso
        ));
        assert!(ltl_on_lasso(
            &mut s,
            &unary(Finally, unary(Globally, once_p.clone())),
            lasso
        ));
        let not_yet = unary(Globally, unary(Finally, unary(Not, once_p.clone())));
        assert!(!ltl_on_lasso(&mut s, &not_yet, lasso));
    }
    // Not runs: a cycle that does not close (2 → 0, not 1), a start that is not initial, a stutter step
    // at a node that has an edge, an edge index out of range.
    let not_runs = [
        vec![(0, Some(0)), (1, Some(0)), (2, Some(0)), (1, Some(0))],
        vec![(1, Some(0)), (2, Some(0)), (0, Some(0))],
        vec![(0, None)],
        vec![(0, Some(1)), (1, Some(0)), (2, Some(0))],
    ];
    for cycle in not_runs {
        let lasso = Lasso {
            prefix: vec![],
            cycle,
        };
        assert!(!is_run(&mut s, &lasso), "{lasso:?}");
    }
}

/// 0 → 1 → 2 by Op0; node 2 is a deadlock where state atom p ("dead") holds. The one run is
/// 0 1 2 2 2 ..., the last steps being stutter steps.
fn dead_end() -> ExplicitSpace {
    ExplicitSpace::new(
        1,
        1,
        vec![vec![(0, 1)], vec![(0, 2)], vec![]],
        vec![0],
        vec![vec![], vec![], vec![P]],
    )
}

#[test]
fn a_deadlock_stutters_forever() {
    let mut s = dead_end();
    let dead = atom(P);
    let op0 = atom(s.taken_atom(0));
    assert!(ltl_holds(&mut s, &unary(Finally, dead.clone()), &[]));
    assert!(ltl_holds(
        &mut s,
        &unary(Finally, unary(Globally, dead.clone())),
        &[]
    ));
    assert!(!ltl_holds(
        &mut s,
        &unary(Globally, unary(Not, dead.clone())),
        &[]
    ));
    // X in the deadlock is the stutter step: the next position is the same node.
    let stays = binary(Implies, dead.clone(), unary(Next, dead.clone()));
    assert!(ltl_holds(&mut s, &unary(Globally, stays), &[]));
    assert!(ltl_holds(
        &mut s,
        &unary(Next, unary(Next, unary(Next, dead.clone()))),
        &[]
    ));
    // The stutter step is no operation's: [Op0] is false in the deadlock, so [Op0] does not hold
    // forever, and it holds exactly until the deadlock.
    let no_op = binary(Implies, dead.clone(), unary(Not, op0.clone()));
    assert!(ltl_holds(&mut s, &unary(Globally, no_op), &[]));
    assert!(!ltl_holds(&mut s, &unary(Globally, op0.clone()), &[]));
    assert!(ltl_holds(&mut s, &binary(Until, op0, dead), &[]));
    // The counterexample to G not(dead) ends in the stutter cycle.
    let lasso = ltl_counterexample(&mut s, &unary(Globally, unary(Not, atom(P))), &[], 4, 6)
        .expect("the run reaches the deadlock");
    assert_eq!(lasso.cycle, vec![(2, None)]);
    // A deadlock's only step is the stutter step: edge 0 does not exist there.
    let bad = Lasso {
        prefix: vec![(0, Some(0)), (1, Some(0))],
        cycle: vec![(2, Some(0))],
    };
    assert!(!is_run(&mut s, &bad));
}

/// 0 → 1 → 2 → 1 by Op0, p at node 0, q at node 1: the run 0 (1 2)^ω sees p once, at position 0.
fn p_then_q_loop(initial: Vec<NodeId>) -> ExplicitSpace {
    ExplicitSpace::new(
        1,
        2,
        vec![vec![(0, 1)], vec![(0, 2)], vec![(0, 1)]],
        initial,
        vec![vec![P], vec![Q], vec![]],
    )
}

#[test]
fn past_operators_look_back_to_position_zero() {
    let (p, q) = (atom(P), atom(Q));
    let q_after_p = unary(Globally, binary(Implies, q.clone(), unary(Once, p.clone())));
    // From node 0, every q comes after the p at position 0; from node 1, q comes first.
    assert!(ltl_holds(&mut p_then_q_loop(vec![0]), &q_after_p, &[]));
    assert!(!ltl_holds(&mut p_then_q_loop(vec![0, 1]), &q_after_p, &[]));

    let mut s = p_then_q_loop(vec![0]);
    let yesterday_true = unary(Yesterday, truth());
    // Position 0 has no predecessor: Y true is false there, and true at every later position.
    assert!(!ltl_holds(&mut s, &yesterday_true, &[]));
    assert!(ltl_holds(&mut s, &unary(Not, yesterday_true.clone()), &[]));
    assert!(ltl_holds(
        &mut s,
        &unary(Next, unary(Globally, yesterday_true)),
        &[]
    ));
    // Y p at position 1 (p at 0); at positions 3, 5, ... node 1 follows node 2, which has no p.
    assert!(ltl_holds(
        &mut s,
        &unary(Next, unary(Yesterday, p.clone())),
        &[]
    ));
    let again = unary(Next, unary(Next, unary(Next, unary(Yesterday, p.clone()))));
    assert!(!ltl_holds(&mut s, &again, &[]));
    // H p holds at position 0 only; O p from position 0 on.
    assert!(ltl_holds(&mut s, &unary(Historically, p.clone()), &[]));
    assert!(!ltl_holds(
        &mut s,
        &unary(Next, unary(Historically, p.clone())),
        &[]
    ));
    assert!(ltl_holds(
        &mut s,
        &unary(Globally, unary(Once, p.clone())),
        &[]
    ));
    // not(q) S p: p at 0, then node 1 has q, so it holds at positions 0 only (not at 1).
    let since = binary(Since, unary(Not, q.clone()), p.clone());
    assert!(ltl_holds(&mut s, &since, &[]));
    assert!(!ltl_holds(&mut s, &unary(Next, since), &[]));
    // false T p = H p (trigger with a left side that never holds).
    let trigger = binary(Trigger, formula(False), p.clone());
    assert!(ltl_holds(&mut s, &trigger, &[]));
    assert!(!ltl_holds(&mut s, &unary(Next, trigger), &[]));
}

#[test]
fn weak_fairness_excludes_a_loop_that_never_takes_an_always_enabled_operation() {
    // Op0 (A) loops at both nodes, Op1 (B) goes back and forth: B is enabled everywhere.
    let mut s = ExplicitSpace::new(
        2,
        0,
        vec![vec![(0, 0), (1, 1)], vec![(0, 1), (1, 0)]],
        vec![0],
        vec![vec![], vec![]],
    );
    let b_infinitely_often = unary(Globally, unary(Finally, atom(s.taken_atom(1))));
    // Without fairness, A forever at node 0 violates G F [B].
    assert!(!ltl_holds(&mut s, &b_infinitely_often, &[]));
    // Under WF(B) (or SF(B)) that run is unfair: B is enabled at every position and never taken.
    assert!(ltl_holds(&mut s, &b_infinitely_often, &[weak(1)]));
    assert!(ltl_holds(&mut s, &b_infinitely_often, &[strong(1)]));
    // WF(A) does not help: A forever is fair to A.
    assert!(!ltl_holds(&mut s, &b_infinitely_often, &[weak(0)]));
}

#[test]
fn strong_fairness_also_excludes_a_loop_where_the_operation_is_enabled_only_sometimes() {
    // 0 ⇄ 1 by Op0 (A); Op1 (B) leaves node 0 for node 2, which loops by A. B is enabled at node 0 only.
    let mut s = ExplicitSpace::new(
        2,
        0,
        vec![vec![(0, 1), (1, 2)], vec![(0, 0)], vec![(0, 2)]],
        vec![0],
        vec![vec![], vec![], vec![]],
    );
    let b_eventually = unary(Finally, atom(s.taken_atom(1)));
    assert!(!ltl_holds(&mut s, &b_eventually, &[]));
    // (0 1)^ω: B is enabled at every other position, not from some point on always, so the run is
    // weakly fair to B; but enabled infinitely often and never taken, so not strongly fair.
    assert!(!ltl_holds(&mut s, &b_eventually, &[weak(1)]));
    assert!(ltl_holds(&mut s, &b_eventually, &[strong(1)]));
    let lasso = ltl_counterexample(&mut s, &b_eventually, &[weak(1)], 4, 6).expect("violated");
    assert!(lasso.cycle.iter().all(|&(n, _)| n <= 1), "{lasso:?}");
}

#[test]
fn ctl_ag_ef_fails_when_a_trap_is_reachable() {
    // 0 ⇄ 1, 1 → 2, 2 → 2; p at node 0. From node 2 p is unreachable, so EF p fails there, and AG EF p
    // fails everywhere node 2 is reachable from (0, 1, 2).
    let mut s = ExplicitSpace::new(
        1,
        1,
        vec![vec![(0, 1)], vec![(0, 0), (0, 2)], vec![(0, 2)]],
        vec![0],
        vec![vec![P], vec![], vec![]],
    );
    let ef_p = unary(ExistsFinally, atom(P));
    let ag_ef_p = unary(AllGlobally, ef_p.clone());
    assert_eq!(ctl_at(&mut s, &ef_p, &[0, 1, 2]), [true, true, false]);
    assert_eq!(ctl_at(&mut s, &ag_ef_p, &[0, 1, 2]), [false, false, false]);
    // Without the edge 1 → 2, node 0 and 1 can always return to p.
    let mut s = ExplicitSpace::new(
        1,
        1,
        vec![vec![(0, 1)], vec![(0, 0)], vec![(0, 2)]],
        vec![0],
        vec![vec![P], vec![], vec![]],
    );
    assert_eq!(ctl_at(&mut s, &ag_ef_p, &[0, 1, 2]), [true, true, false]);
}

#[test]
fn ctl_eg_needs_a_cycle_or_a_deadlock_inside_the_region() {
    // 0 ⇄ 1 with p at both, 0 → 2 without p; node 3 (p) is a deadlock, node 4 (p) leads to 2 only.
    let mut s = ExplicitSpace::new(
        1,
        1,
        vec![
            vec![(0, 1), (0, 2)],
            vec![(0, 0)],
            vec![(0, 2)],
            vec![],
            vec![(0, 2)],
        ],
        vec![0],
        vec![vec![P], vec![P], vec![], vec![P], vec![P]],
    );
    let eg_p = unary(ExistsGlobally, atom(P));
    // 0 1 0 1 ... stays in p; 2 lacks p; 3 stutters in p forever; 4's only path leaves p at once.
    assert_eq!(
        ctl_at(&mut s, &eg_p, &[0, 1, 2, 3, 4]),
        [true, true, false, true, false]
    );
    // AF not p = not EG p.
    let af_not_p = unary(AllFinally, unary(Not, atom(P)));
    assert_eq!(
        ctl_at(&mut s, &af_not_p, &[0, 1, 2, 3, 4]),
        [false, false, true, false, true]
    );
}

#[test]
fn ctl_all_until() {
    let (p, q) = (atom(P), atom(Q));
    let a_p_until_q = binary(AllUntil, p.clone(), q.clone());
    let e_p_until_q = binary(ExistsUntil, p.clone(), q.clone());
    // 0 (p) → 1 (q), 0 → 2 (p) → 1: every path goes through p-nodes to q.
    let mut s = ExplicitSpace::new(
        1,
        2,
        vec![vec![(0, 1), (0, 2)], vec![(0, 1)], vec![(0, 1)]],
        vec![0],
        vec![vec![P], vec![Q], vec![P]],
    );
    assert!(ctl_holds(&mut s, &a_p_until_q, 0));
    // With a loop at 2, the path 0 2 2 2 ... stays in p without reaching q; some path still reaches q.
    let mut s = ExplicitSpace::new(
        1,
        2,
        vec![vec![(0, 1), (0, 2)], vec![(0, 1)], vec![(0, 1), (0, 2)]],
        vec![0],
        vec![vec![P], vec![Q], vec![P]],
    );
    assert!(!ctl_holds(&mut s, &a_p_until_q, 0));
    assert!(ctl_holds(&mut s, &e_p_until_q, 0));
    // Without p at 2, the path 0 2 1 meets a node with neither p nor q before q.
    let mut s = ExplicitSpace::new(
        1,
        2,
        vec![vec![(0, 1), (0, 2)], vec![(0, 1)], vec![(0, 1)]],
        vec![0],
        vec![vec![P], vec![Q], vec![]],
    );
    assert!(!ctl_holds(&mut s, &a_p_until_q, 0));
    assert!(ctl_holds(&mut s, &e_p_until_q, 0));
    // q at the node itself suffices for both.
    assert!(ctl_holds(&mut s, &a_p_until_q, 1));
}

#[test]
fn ctl_next_by_an_operation() {
    // 0 -Op0-> 1 (p), 0 -Op1-> 2; 1 and 2 are deadlocks.
    let mut s = ExplicitSpace::new(
        2,
        1,
        vec![vec![(0, 1), (1, 2)], vec![], vec![]],
        vec![0],
        vec![vec![], vec![P], vec![]],
    );
    let p = atom(P);
    let by = |op: usize, f: Formula<usize>| formula(ExistsNext(Some(op), Box::new(f)));
    let (op0, op1) = (s.taken_atom(0), s.taken_atom(1));
    assert!(ctl_holds(&mut s, &by(op0, p.clone()), 0));
    assert!(!ctl_holds(&mut s, &by(op1, p.clone()), 0));
    assert!(ctl_holds(
        &mut s,
        &unary(|f| ExistsNext(None, f), p.clone()),
        0
    ));
    assert!(!ctl_holds(&mut s, &unary(AllNext, p.clone()), 0));
    // In the deadlock 1 the only successor is 1 itself, by the stutter step, which no operation labels.
    assert!(ctl_holds(&mut s, &unary(AllNext, p.clone()), 1));
    assert!(ctl_holds(
        &mut s,
        &unary(|f| ExistsNext(None, f), p.clone()),
        1
    ));
    assert!(!ctl_holds(&mut s, &by(op0, truth()), 1));
    // CTL atoms are state atoms: an event atom read on its own (edge None) is false.
    assert!(!ctl_holds(&mut s, &atom(op0), 0));
    assert!(!s.holds(op0, 0, None).expect("explicit"));
}
