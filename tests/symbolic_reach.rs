//! `mc --symbolic` (`check::reach`, LDD reachability) against the explicit `mc` on every bundled
//! machine the explicit search finishes within `TIMEOUT` (and, with `BSOLVE_SYMBOLIC_CORPUS=1`, on the
//! corpus machines of `corpus_mc_machines.txt`):
//! * going on past deadlocks and violations (counts of the whole state space, whatever order errors are
//!   met in): the same verdict kind, states, transitions, deadlocked and violating states, and
//!   `partial_enumeration` — or an UNKNOWN from the symbolic search that says why it declined (never a
//!   different answer);
//! * stopping at the first error: the same kind of error, and a replayed trace as long as the explicit
//!   breadth-first one (both are shortest);
//! * the other strategies (chaining, saturation) likewise: the same counts and verdict kind as the
//!   breadth-first symbolic search going on past errors (the first error in breadth-first order, even
//!   with deadlocks and violations both present), and at a first error the same kind with a replayed trace no shorter than the
//!   breadth-first one (theirs is shortest only among the transitions learned by then).

mod common;

use bsolve::check::mc::{McOptions, McResult, SymbolicStrategy, Verdict, model_check};
use bsolve::check::reach::symbolic_model_check;
use bsolve::check::{Model, Options};
use std::path::PathBuf;
use std::time::Duration;

const CORPUS_MACHINES: &[&str] = &include!("corpus_mc_machines.txt");

const TIMEOUT: Duration = Duration::from_secs(1);
/// Machines whose explicit run took longer are compared going on past errors only.
const FIRST_ERROR_PASS_UNDER: Duration = Duration::from_millis(200);

/// The bundled machines the symbolic search must answer (not decline) on: a floor that catches a
/// regression that makes it decline everything.
const MIN_ANSWERED: usize = 40;

fn machines() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(common::model_path(""))
        .expect("models folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mch"))
        .collect();
    out.sort();
    if std::env::var("BSOLVE_SYMBOLIC_CORPUS").is_ok_and(|v| v == "1")
        && let Some(corpus) = common::corpus_models()
    {
        out.extend(CORPUS_MACHINES.iter().map(|m| corpus.join(m)));
    }
    out
}

/// The strategies other than breadth-first, compared with it.
const OTHER_STRATEGIES: [SymbolicStrategy; 2] =
    [SymbolicStrategy::Chaining, SymbolicStrategy::Saturation];

fn run(model: &Model, symbolic: bool, keep_going: bool) -> McResult {
    run_with(model, symbolic, keep_going, SymbolicStrategy::BreadthFirst)
}

fn run_with(
    model: &Model,
    symbolic: bool,
    keep_going: bool,
    strategy: SymbolicStrategy,
) -> McResult {
    let options = McOptions {
        timeout: Some(TIMEOUT),
        stop_at_deadlock: !keep_going,
        stop_at_violation: !keep_going,
        symbolic,
        strategy,
        ..McOptions::default()
    };
    let result = if symbolic {
        symbolic_model_check(model, &options)
    } else {
        model_check(model, &options)
    };
    result.unwrap_or_else(|d| panic!("{}: {d}", model.machine().name))
}

fn kind(v: &Verdict) -> String {
    let debug = format!("{v:?}");
    debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}

fn counts(r: &McResult) -> String {
    format!(
        "{} states, {} transitions, {} deadlocked, {} violating, partial {}, all explored {}",
        r.states,
        r.transitions,
        r.deadlocked_states,
        r.violating_states,
        r.partial_enumeration,
        r.explored_all
    )
}

#[test]
fn symbolic_counts_and_verdicts_are_the_explicit_ones() {
    let (mut answered, mut declined, mut differ) = (0, Vec::new(), Vec::new());
    for path in machines() {
        let Ok(model) = Model::load(&path, &Options::default()) else {
            continue;
        };
        let name = path.display().to_string();
        let explicit = run(&model, false, true);
        // A limit cut it (an error found before a timeout is still reported as that error).
        if !explicit.explored_all {
            continue;
        }
        let symbolic = run(&model, true, true);
        if let Verdict::Incomplete(why) = &symbolic.verdict {
            declined.push(format!("{name}: {why}"));
            continue;
        }
        answered += 1;
        // With deadlocks and violations both present, which one is met first depends on the order.
        let both = explicit.deadlocked_states > 0 && explicit.violating_states > 0;
        if counts(&explicit) != counts(&symbolic)
            || (!both && kind(&explicit.verdict) != kind(&symbolic.verdict))
        {
            differ.push(format!(
                "{name}\n  explicit {:?}: {}\n  symbolic {:?}: {}",
                explicit.verdict,
                counts(&explicit),
                symbolic.verdict,
                counts(&symbolic)
            ));
            continue;
        }
        for strategy in OTHER_STRATEGIES {
            let other = run_with(&model, true, true, strategy);
            if matches!(other.verdict, Verdict::Incomplete(_)) {
                declined.push(format!("{name} ({strategy:?})"));
                continue;
            }
            if counts(&other) != counts(&symbolic)
                || kind(&other.verdict) != kind(&symbolic.verdict)
            {
                differ.push(format!(
                    "{name}, {strategy:?}\n  bfs {:?}: {}\n  {strategy:?} {:?}: {}",
                    symbolic.verdict,
                    counts(&symbolic),
                    other.verdict,
                    counts(&other)
                ));
            }
        }
        // The first-error pass only where it is cheap: the test stays within CI's time.
        if explicit.trace.is_empty() || explicit.elapsed > FIRST_ERROR_PASS_UNDER {
            continue;
        }
        let (first, symbolic_first) = (run(&model, false, false), run(&model, true, false));
        if matches!(symbolic_first.verdict, Verdict::Incomplete(_)) {
            declined.push(format!("{name} (stopping at the first error)"));
            continue;
        }
        if (!both && kind(&first.verdict) != kind(&symbolic_first.verdict))
            || first.trace.len() != symbolic_first.trace.len()
        {
            differ.push(format!(
                "{name}, first error\n  explicit {:?} after {} steps\n  symbolic {:?} after {} steps",
                first.verdict,
                first.trace.len(),
                symbolic_first.verdict,
                symbolic_first.trace.len()
            ));
        }
        for strategy in OTHER_STRATEGIES {
            let other = run_with(&model, true, false, strategy);
            if matches!(other.verdict, Verdict::Incomplete(_)) {
                declined.push(format!(
                    "{name} ({strategy:?}, stopping at the first error)"
                ));
                continue;
            }
            // A trace is replayed before it is returned; it may be longer than a shortest one.
            if (!both && kind(&first.verdict) != kind(&other.verdict))
                || other.trace.len() < first.trace.len()
                || (other.trace.is_empty() != first.trace.is_empty())
            {
                differ.push(format!(
                    "{name}, first error, {strategy:?}\n  explicit {:?} after {} steps\n  {strategy:?} \
                     {:?} after {} steps",
                    first.verdict,
                    first.trace.len(),
                    other.verdict,
                    other.trace.len()
                ));
            }
        }
    }
    eprintln!(
        "{answered} machines answered alike; declined by the symbolic search:\n  {}",
        declined.join("\n  ")
    );
    assert!(differ.is_empty(), "differences:\n{}", differ.join("\n"));
    assert!(
        answered >= MIN_ANSWERED,
        "only {answered} machines answered symbolically"
    );
}

/// Every strategy gives the explicit search's counts on small random machines (loosely coupled
/// processes over 0..2, guards and an invariant that some states violate, deadlocks).
#[test]
fn strategies_agree_with_the_explicit_search_on_random_machines() {
    let seed = common::env_number("BSOLVE_SYMBOLIC_SEED").unwrap_or(35);
    let cases = common::env_number("BSOLVE_SYMBOLIC_CASES").unwrap_or(60);
    let mut rng = fastrand::Rng::with_seed(seed);
    for case in 0..cases {
        let vars = rng.usize(2..=5);
        let text = common::random_machine::loosely_coupled(&mut rng, vars);
        let model = common::load_text(
            &format!("symbolic-random-{seed}-{case}"),
            &text,
            &Options::default(),
        );
        let explicit = run(&model, false, true);
        assert!(explicit.explored_all, "{text}");
        let both = explicit.deadlocked_states > 0 && explicit.violating_states > 0;
        let bfs = run(&model, true, true);
        if !both {
            assert_eq!(kind(&bfs.verdict), kind(&explicit.verdict), "{text}");
        }
        for symbolic in [&bfs]
            .into_iter()
            .chain(&OTHER_STRATEGIES.map(|s| run_with(&model, true, true, s)))
        {
            let strategy = symbolic.symbolic.as_ref().map(|s| s.strategy);
            assert_eq!(
                counts(symbolic),
                counts(&explicit),
                "seed {seed}, case {case}, {strategy:?}:\n{text}"
            );
            // Whole spaces: the first error in breadth-first order, whatever the strategy.
            assert_eq!(
                kind(&symbolic.verdict),
                kind(&bfs.verdict),
                "{strategy:?}: {text}"
            );
        }
    }
}

/// A variable written on some paths only (`IF ... THEN w := ... END`) and read by nothing else of the
/// operation keeps each state's own value where the branch is not taken: the relation must read it
/// (copy), not take one state's value for all. The static sets say so: written, not must-written.
#[test]
fn a_variable_written_on_some_paths_only_keeps_its_value() {
    let text = "MACHINE MayWrite
         VARIABLES c, w
         INVARIANT c : 0..2 & w : 0..3
         INITIALISATION c := 0 || w := 0
         OPERATIONS
           tick = PRE c < 2 THEN c := c + 1 END;
           bump = PRE w < 3 THEN w := w + 1 END;
           reset = IF c = 2 THEN w := 0 END;
           clear = BEGIN w := 0 || c := 0 END
         END";
    let model = common::load_text("MayWrite", text, &Options::default());
    let m = model.machine();
    let rw = bsolve::analysis::before_after::exact_read_write(m, &m.operations[2]).expect("exact");
    assert!(
        rw.writes.iter().any(|n| &**n == "w") && rw.must_writes.is_empty(),
        "{rw:?}"
    );
    let rw = bsolve::analysis::before_after::exact_read_write(m, &m.operations[3]).expect("exact");
    assert_eq!(rw.must_writes.len(), 2, "{rw:?}");
    let explicit = run(&model, false, true);
    for strategy in [SymbolicStrategy::BreadthFirst]
        .into_iter()
        .chain(OTHER_STRATEGIES)
    {
        let symbolic = run_with(&model, true, true, strategy);
        assert_eq!(counts(&symbolic), counts(&explicit), "{strategy:?}");
    }
    // 3 × 4 states; the initialisation, then from every state reset, clear, and tick or bump where
    // enabled.
    assert_eq!(
        (explicit.states, explicit.transitions),
        (12, 1 + 12 * 2 + 8 + 9)
    );
}
