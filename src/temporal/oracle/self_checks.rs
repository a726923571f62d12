//! The oracle against itself: each LTL operator is evaluated by its own fixpoint or scan, so the textbook
//! identities between them are real checks; bounded LTL search against CTL where the two logics agree.

use super::super::formula::{Formula, Kind::*};
use super::super::space::StateSpace;
use super::*;

fn not(f: &Formula<usize>) -> Formula<usize> {
    unary(Not, f.clone())
}

/// Pairs of formulas equivalent at every position, built from `f` and `g`.
fn identities(f: &Formula<usize>, g: &Formula<usize>) -> Vec<(Formula<usize>, Formula<usize>)> {
    let (f, g) = (f.clone(), g.clone());
    let truth = formula(True);
    let u = binary(Until, f.clone(), g.clone());
    let s = binary(Since, f.clone(), g.clone());
    vec![
        // F f = true U f; G f = not F not f.
        (
            unary(Finally, f.clone()),
            binary(Until, truth.clone(), f.clone()),
        ),
        (unary(Globally, f.clone()), not(&unary(Finally, not(&f)))),
        // f W g = f U g or G f; f R g = not(not f U not g).
        (
            binary(WeakUntil, f.clone(), g.clone()),
            binary(Or, u.clone(), unary(Globally, f.clone())),
        ),
        (
            binary(Release, f.clone(), g.clone()),
            not(&binary(Until, not(&f), not(&g))),
        ),
        // Expansion: f U g = g or (f and X(f U g)).
        (
            u.clone(),
            binary(
                Or,
                g.clone(),
                binary(And, f.clone(), unary(Next, u.clone())),
            ),
        ),
        // O f = true S f; H f = not O not f; f T g = not(not f S not g).
        (unary(Once, f.clone()), binary(Since, truth, f.clone())),
        (unary(Historically, f.clone()), not(&unary(Once, not(&f)))),
        (
            binary(Trigger, f.clone(), g.clone()),
            not(&binary(Since, not(&f), not(&g))),
        ),
        // Expansion: f S g = g or (f and Y(f S g)).
        (
            s.clone(),
            binary(Or, g.clone(), binary(And, f.clone(), unary(Yesterday, s))),
        ),
        // X commutes with not (every position has a successor); Y does not (position 0).
        (unary(Next, not(&f)), not(&unary(Next, f.clone()))),
        // Booleans.
        (
            binary(Implies, f.clone(), g.clone()),
            binary(Or, not(&f), g.clone()),
        ),
        (
            binary(Equiv, f.clone(), g.clone()),
            binary(
                And,
                binary(Implies, f.clone(), g.clone()),
                binary(Implies, g, f),
            ),
        ),
    ]
}

#[test]
fn ltl_identities_hold_on_random_lassos() {
    let mut rng = fastrand::Rng::with_seed(3);
    for _ in 0..400 {
        let mut space = ExplicitSpace::random(&mut rng, 4, 2, 2);
        let atoms = space.atoms();
        let f = random_ltl(&mut rng, &atoms, 2);
        let g = random_ltl(&mut rng, &atoms, 2);
        let lasso = random_lasso(&mut rng, &mut space);
        assert!(is_run(&mut space, &lasso), "{space}{lasso:?}");
        // At later positions too: the identities hold everywhere, and past operators differ there.
        for (left, right) in identities(&f, &g) {
            let mut left = left;
            let mut right = right;
            for _ in 0..3 {
                assert_eq!(
                    ltl_on_lasso(&mut space, &left, &lasso),
                    ltl_on_lasso(&mut space, &right, &lasso),
                    "{space}{lasso:?}\n{}\n{}",
                    formula_text(&left),
                    formula_text(&right)
                );
                left = unary(Next, left);
                right = unary(Next, right);
            }
        }
        // Position 0 has no predecessor.
        assert!(!ltl_on_lasso(
            &mut space,
            &unary(Yesterday, f.clone()),
            &lasso
        ));
    }
}

#[test]
fn counterexamples_found_are_fair_runs_violating_the_formula() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut found = 0;
    for _ in 0..150 {
        let mut space = ExplicitSpace::random(&mut rng, 3, 2, 2);
        let formula = random_ltl(&mut rng, &space.atoms(), 3);
        let fairness = random_fairness(&mut rng, 2);
        if let Some(lasso) = ltl_counterexample(&mut space, &formula, &fairness, 3, 4) {
            found += 1;
            let context = format!("{space}{}\n{fairness:?}\n{lasso:?}", formula_text(&formula));
            assert!(is_run(&mut space, &lasso), "{context}");
            assert!(is_fair(&mut space, &fairness, &lasso), "{context}");
            assert!(!ltl_on_lasso(&mut space, &formula, &lasso), "{context}");
        }
    }
    // The formulas are random, so many are violated; a search that never finds anything is broken.
    assert!(found > 30, "only {found} counterexamples");
}

/// A boolean combination of state atoms.
fn random_state_formula(rng: &mut fastrand::Rng, atoms: &[usize]) -> Formula<usize> {
    let a = atom(atoms[rng.usize(0..atoms.len())]);
    match rng.u8(0..3) {
        0 => a,
        1 => not(&a),
        _ => binary(Or, a, atom(atoms[rng.usize(0..atoms.len())])),
    }
}

/// A CTL formula and an LTL formula that agree on every Kripke structure (b, c boolean): AX b ≡ X b,
/// AG b ≡ G b, AF b ≡ F b, A b U c ≡ b U c, AG AF b ≡ G F b, AG(b ⇒ AF c) ≡ G(b ⇒ F c),
/// AG(b ⇒ AX c) ≡ G(b ⇒ X c).
fn universal_pair(rng: &mut fastrand::Rng, atoms: &[usize]) -> (Formula<usize>, Formula<usize>) {
    let b = random_state_formula(rng, atoms);
    let c = random_state_formula(rng, atoms);
    let both = |ctl: Formula<usize>, ltl: Formula<usize>| (ctl, ltl);
    match rng.u8(0..7) {
        0 => both(unary(AllNext, b.clone()), unary(Next, b)),
        1 => both(unary(AllGlobally, b.clone()), unary(Globally, b)),
        2 => both(unary(AllFinally, b.clone()), unary(Finally, b)),
        3 => both(binary(AllUntil, b.clone(), c.clone()), binary(Until, b, c)),
        4 => both(
            unary(AllGlobally, unary(AllFinally, b.clone())),
            unary(Globally, unary(Finally, b)),
        ),
        5 => both(
            unary(
                AllGlobally,
                binary(Implies, b.clone(), unary(AllFinally, c.clone())),
            ),
            unary(Globally, binary(Implies, b, unary(Finally, c))),
        ),
        _ => both(
            unary(
                AllGlobally,
                binary(Implies, b.clone(), unary(AllNext, c.clone())),
            ),
            unary(Globally, binary(Implies, b, unary(Next, c))),
        ),
    }
}

/// On graphs of at most 3 nodes, every violation of these formulas shows on a lasso with a prefix of at
/// most 4 positions (reach the bad node in 2 steps, then a cycle in 2 more) and a cycle of at most 3, so
/// the bounded search is complete here and must agree with CTL exactly.
#[test]
fn ltl_search_agrees_with_ctl_on_formulas_both_express() {
    let mut rng = fastrand::Rng::with_seed(9);
    for _ in 0..300 {
        let mut space = ExplicitSpace::random(&mut rng, 3, 2, 2);
        let (ctl, ltl) = universal_pair(&mut rng, &space.state_atoms());
        let initial = space.initial().expect("explicit");
        let ctl_verdict = initial.iter().all(|&n| ctl_holds(&mut space, &ctl, n));
        let ltl_verdict = ltl_counterexample(&mut space, &ltl, &[], 4, 3).is_none();
        assert_eq!(
            ctl_verdict,
            ltl_verdict,
            "{space}{}\n{}",
            formula_text(&ctl),
            formula_text(&ltl)
        );
    }
}

/// Laws the CTL evaluation does not use: the EX/AX duality, EF as an E-until, and the one-step expansion
/// of every path operator (each one's fixpoint equation), node by node.
#[test]
fn ctl_laws_hold_at_every_node() {
    let mut rng = fastrand::Rng::with_seed(13);
    for _ in 0..300 {
        let mut space = ExplicitSpace::random(&mut rng, 4, 2, 2);
        let (states, events) = (space.state_atoms(), space.event_atoms());
        let f = random_ctl(&mut rng, &states, &events, 2);
        let g = random_ctl(&mut rng, &states, &events, 2);
        let ex = |f: Formula<usize>| formula(ExistsNext(None, Box::new(f)));
        let ax = |f: Formula<usize>| unary(AllNext, f);
        let and = |f: Formula<usize>, g: Formula<usize>| binary(And, f, g);
        let or = |f: Formula<usize>, g: Formula<usize>| binary(Or, f, g);
        let ef = unary(ExistsFinally, f.clone());
        let af = unary(AllFinally, f.clone());
        let eg = unary(ExistsGlobally, f.clone());
        let ag = unary(AllGlobally, f.clone());
        let eu = binary(ExistsUntil, f.clone(), g.clone());
        let au = binary(AllUntil, f.clone(), g.clone());
        let pairs = [
            (ex(f.clone()), not(&ax(not(&f)))),
            (ef.clone(), binary(ExistsUntil, formula(True), f.clone())),
            (ef.clone(), or(f.clone(), ex(ef.clone()))),
            (af.clone(), or(f.clone(), ax(af.clone()))),
            (eg.clone(), and(f.clone(), ex(eg.clone()))),
            (ag.clone(), and(f.clone(), ax(ag.clone()))),
            (eu.clone(), or(g.clone(), and(f.clone(), ex(eu.clone())))),
            (au.clone(), or(g.clone(), and(f.clone(), ax(au.clone())))),
        ];
        for node in 0..space.node_count() as u32 {
            for (left, right) in &pairs {
                assert_eq!(
                    ctl_holds(&mut space, left, node),
                    ctl_holds(&mut space, right, node),
                    "node {node}\n{space}{}\n{}",
                    formula_text(left),
                    formula_text(right)
                );
            }
        }
    }
}
