//! Helpers shared by the integration tests: load a bundled model, evaluate text in its context.

#![allow(dead_code)]

use bsolve::check::{Model, Options};
use bsolve::diag::register_source;
use bsolve::eval::Env;
use bsolve::types::{Formula, check_formula};
use bsolve::value::Value;
use std::path::PathBuf;

pub mod random_machine;

/// Whether the optional SMT solver z3 is there for a test that needs it; without it the test's z3 part is
/// skipped loudly (or fails under `BSOLVE_REQUIRE_SMT=1`, as in CI).
pub fn smt(test: &str) -> bool {
    bsolve::solve::smt::available_for_test(test)
}

/// A bundled model's path as a command-line argument.
pub fn model_arg(name: &str) -> String {
    model_path(name).display().to_string()
}

/// Runs the `bsolve` binary with `--json`: exit code and the parsed output.
pub fn bsolve_json(args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = bsolve(&all);
    let json =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}\n{err}"));
    (code, json)
}

/// The operation names of a JSON trace.
pub fn operations(trace: &serde_json::Value) -> Vec<&str> {
    trace
        .as_array()
        .expect("trace")
        .iter()
        .map(|s| s["operation"].as_str().expect("operation"))
        .collect()
}

/// Runs the `bsolve` binary: exit code, stdout, stderr.
pub fn bsolve(args: &[&str]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("bsolve")
        .expect("binary")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn model_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
}

pub fn load(name: &str) -> Model {
    Model::load(&model_path(name), &Options::default()).unwrap_or_else(|d| panic!("{}", d.render()))
}

/// The value of a closed expression (it may use the machine's sets and DEFINITIONS).
pub fn value_of(model: &Model, text: &str) -> Value {
    let file = register_source("<test>", text);
    let term = bsolve::syntax::parse_term(file, text).unwrap_or_else(|d| panic!("{}", d.render()));
    match check_formula(&model.ast, model.machine(), &term)
        .unwrap_or_else(|d| panic!("{}", d.render()))
    {
        Formula::Expr(e, _) => model
            .context
            .eval_expr(&e, &Env::new())
            .unwrap_or_else(|e| panic!("{e:?}")),
        Formula::Pred(..) => panic!("`{text}` is a predicate"),
    }
}

/// Whether CONSTRAINTS & PROPERTIES hold for the given constant values (B expressions).
pub fn properties_hold(model: &Model, assignment: &[(&str, String)]) -> bool {
    let mut env = Env::new();
    for (name, text) in assignment {
        env = env.with((*name).into(), value_of(model, text));
    }
    let m = model.machine();
    let constraints = model
        .context
        .eval_pred(&m.constraints, &env)
        .unwrap_or_else(|e| panic!("{e:?}"));
    constraints
        && model
            .context
            .eval_pred(&m.properties, &env)
            .unwrap_or_else(|e| panic!("{e:?}"))
}

/// The external conformance corpus's `models` folder, when it is next to the repository.
pub fn corpus_models() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/models");
    root.is_dir().then_some(root)
}

/// A corpus machine's path as a command-line argument, or None (said on stderr) when the corpus is not
/// next to the repository.
pub fn corpus_model(name: &str) -> Option<String> {
    let Some(dir) = corpus_models() else {
        eprintln!("corpus not found next to the repository: skipping");
        return None;
    };
    Some(dir.join(name).display().to_string())
}

/// `bsolve ARGS --json` answers an invariant violation (exit 1) whose trace, from the INITIALISATION,
/// the interpreter replayed; the JSON answer.
pub fn replayed_violation(args: &[&str]) -> serde_json::Value {
    let (code, json) = bsolve_json(args);
    assert_eq!(code, 1, "{args:?}: {json}");
    let status = json["status"].as_str().expect("status");
    assert!(status.starts_with("INVARIANT VIOLATION"), "{json}");
    let justification = json["justification"].as_str().expect("justification");
    assert!(justification.contains("trace replayed"), "{json}");
    assert!(
        operations(&json["trace"]).contains(&"INITIALISATION"),
        "{json}"
    );
    json
}

/// The corpus files with one of the extensions `exts`, sorted (none when the corpus is absent).
pub fn corpus_files(exts: &[&str]) -> Vec<PathBuf> {
    fn walk(dir: &std::path::Path, exts: &[&str], out: &mut Vec<PathBuf>) {
        for path in std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
        {
            if path.is_dir() {
                walk(&path, exts, out);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.contains(&e))
            {
                out.push(path);
            }
        }
    }
    let mut files = vec![];
    if let Some(root) = corpus_models() {
        walk(&root, exts, &mut files);
    }
    files.sort();
    files
}

/// Loads a machine given as text (written to a temporary file named after `name`, removed after loading).
pub fn load_text(name: &str, text: &str, options: &Options) -> Model {
    let path = std::env::temp_dir().join(format!("bsolve-{name}-{}.mch", std::process::id()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = Model::load(&path, options);
    let _ = std::fs::remove_file(&path);
    model.unwrap_or_else(|d| panic!("{}", d.render()))
}

/// A number from the environment (decimal, or hexadecimal after `0x`), for seeds and case counts of
/// the randomised tests; a value that is no number fails the test.
pub fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={text} is not a number")))
}

/// Options with `backend` and the preferences `prefs` (name, value), the rest by default.
pub fn options(backend: bsolve::solve::Backend, prefs: &[(&str, &str)]) -> Options {
    Options {
        backend,
        prefs: prefs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        ..Options::default()
    }
}

/// What a state-space reduction (`mc --por`, `mc --symmetry`) must not change: the kind of verdict
/// other than deadlock and violation (no setup, no initialisation, an error), and whether a deadlock and
/// a violation exist.
/// Whether a model-checking run stopped at its time budget (not at a state limit or an error): on this
/// shared machine a budget can run out under load, so such a run is repeated with a larger one before
/// it is compared.
pub fn timed_out(r: &bsolve::check::mc::McResult) -> bool {
    matches!(&r.verdict, bsolve::check::mc::Verdict::Incomplete(why) if why.contains("timeout"))
}

/// How much longer the repeat of a timed-out reduced run may take: the reduction must still finish,
/// only not within the first budget.
pub const RETRY_BUDGET_FACTOR: u32 = 10;

pub fn reduction_verdict(r: &bsolve::check::mc::McResult) -> String {
    use bsolve::check::mc::Verdict;
    let kind = match &r.verdict {
        Verdict::NoErrorFound
        | Verdict::Deadlock
        | Verdict::InvariantViolation(_)
        | Verdict::AssertionViolation(_)
        | Verdict::IllDefinedOperations { .. } => "explored".to_string(),
        other => format!("{other:?}"),
    };
    format!(
        "{kind}, deadlock {}, violation {}",
        r.deadlocked_states > 0,
        r.violating_states > 0
    )
}
