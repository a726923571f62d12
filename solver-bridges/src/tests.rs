use super::*;

fn each_solver(check: impl Fn(&mut dyn SatSolver)) {
    for kind in [SolverKind::Cadical, SolverKind::Varisat] {
        let mut s = kind.create();
        check(&mut *s);
    }
}

#[test]
fn a_satisfiable_instance_has_a_model_satisfying_every_clause() {
    each_solver(|s| {
        let (a, b, c) = (s.new_var(), s.new_var(), s.new_var());
        let clauses = [vec![a, b], vec![-a, c], vec![-b, -c], vec![-c, -a]];
        for cl in &clauses {
            s.add_clause(cl);
        }
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{}", s.name());
        for cl in &clauses {
            assert!(cl.iter().any(|&l| s.value(l)), "{}: {cl:?}", s.name());
        }
        // a forces c, c forbids a: only b.
        assert!(!s.value(a) && s.value(b) && !s.value(c));
    });
}

#[test]
fn the_pigeonhole_instance_is_unsatisfiable() {
    each_solver(|s| {
        // Three pigeons, two holes.
        let p: Vec<Vec<Lit>> = (0..3).map(|_| vec![s.new_var(), s.new_var()]).collect();
        for row in &p {
            s.add_clause(row);
        }
        for h in 0..2 {
            for (i, a) in p.iter().enumerate() {
                for b in &p[i + 1..] {
                    s.add_clause(&[-a[h], -b[h]]);
                }
            }
        }
        assert_eq!(s.solve(&[]), SolveResult::Unsat, "{}", s.name());
        assert_eq!(s.stats().clauses, 9);
    });
}

#[test]
fn assumptions_hold_for_one_call_and_failed_ones_are_reported() {
    each_solver(|s| {
        let (a, b) = (s.new_var(), s.new_var());
        s.add_clause(&[-a, b]);
        assert_eq!(s.solve(&[a, -b]), SolveResult::Unsat, "{}", s.name());
        let failed = s.failed_assumptions(&[a, -b]);
        assert!(!failed.is_empty() && failed.iter().all(|l| [a, -b].contains(l)));
        assert_eq!(s.solve(&[a]), SolveResult::Sat);
        assert!(s.value(b));
        assert_eq!(s.solve(&[-b]), SolveResult::Sat);
        assert!(!s.value(a));
    });
}

#[test]
fn clauses_added_between_calls_are_kept() {
    each_solver(|s| {
        let vars: Vec<Lit> = (0..3).map(|_| s.new_var()).collect();
        let mut models = 0;
        // Enumerate all 8 assignments by blocking each model found.
        while s.solve(&[]) == SolveResult::Sat {
            models += 1;
            let block: Vec<Lit> = vars
                .iter()
                .map(|&v| if s.value(v) { -v } else { v })
                .collect();
            s.add_clause(&block);
        }
        assert_eq!(models, 8, "{}", s.name());
        assert_eq!(s.stats().solve_calls, 9);
    });
}

#[test]
fn a_passed_deadline_interrupts() {
    each_solver(|s| {
        let a = s.new_var();
        s.add_clause(&[a]);
        s.set_deadline(Some(Instant::now()));
        assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{}", s.name());
        s.set_deadline(None);
        assert_eq!(s.solve(&[]), SolveResult::Sat);
    });
}

#[test]
fn a_set_interrupt_flag_interrupts() {
    each_solver(|s| {
        let a = s.new_var();
        s.add_clause(&[a]);
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        s.set_interrupt(Some(flag.clone()));
        assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{}", s.name());
        flag.store(false, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(s.solve(&[]), SolveResult::Sat);
    });
}

/// An interruptible solve (a flag set, not raised) assumes a variable of its own to skip CaDiCaL's lucky
/// phases: the answers, the models and the variables handed out afterwards are as without it.
#[test]
fn an_interruptible_solve_answers_as_an_ordinary_one() {
    each_solver(|s| {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        s.set_interrupt(Some(flag));
        let (a, b, c) = (s.new_var(), s.new_var(), s.new_var());
        let clauses = [vec![a, b], vec![-a, c], vec![-b, -c], vec![-c, -a]];
        for cl in &clauses {
            s.add_clause(cl);
        }
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{}", s.name());
        assert!(!s.value(a) && s.value(b) && !s.value(c), "{}", s.name());
        // A variable handed out later is a fresh one, not the assumed one.
        let d = s.new_var();
        assert!(d > c && d != 0);
        s.add_clause(&[d]);
        s.add_clause(&[-d, a]);
        assert_eq!(s.solve(&[]), SolveResult::Unsat, "{}", s.name());
        assert_eq!(s.solve(&[]), SolveResult::Unsat, "{}", s.name());
    });
}

#[test]
fn dimacs_has_the_comments_then_the_header() {
    let mut out = Vec::new();
    dimacs::write(&mut out, 2, &[vec![1, -2], vec![2]], &["x = 1".into()]).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "c x = 1\np cnf 2 2\n1 -2 0\n2 0\n"
    );
}
