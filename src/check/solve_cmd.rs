//! `bsolve solve`: decide a predicate in the context of a machine.
//!
//! The machine gives the sets, their elements and the DEFINITIONS. Every other identifier is free and
//! existentially quantified: the formula's unknown identifiers (typed by inference) and also the machine's
//! parameters, constants and variables the predicate mentions (with their declared types). PROPERTIES and
//! INVARIANT are *not* added: the predicate is decided on its own, as ProB's predicate corpus poses it.

use super::budget::Budget;
use super::setup::Assignment;
use super::{Model, Options, csv_table};
use crate::diag::{DiagKind, Diagnostic, Span, register_source};
use crate::eval::Env;
use crate::ir::TypedName;
use crate::solve::{self, Problem};
use crate::syntax;
use crate::types::{self, Formula};
use serde_json::json;
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The decision on one predicate.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// A solution: a value for every free identifier.
    Sat(Assignment),
    /// Proved unsatisfiable (the search was exhaustive).
    Unsat,
    /// Undecided: a timeout, an incomplete search, an unsupported construct.
    Unknown(String),
}

pub struct Solved {
    pub decision: Decision,
    /// The identifiers solved for, with their types (for printing the solution).
    pub free: Vec<TypedName>,
    pub elapsed: Duration,
    /// Why an Unsat or Unknown may surprise: candidates on which the predicate is ill-defined.
    pub note: Option<String>,
}

/// Parses, types and decides `text` in the context of `model`. `budget` bounds the search (started on the
/// model's context before the predicate is parsed). Errors are bad input: a syntax or type error,
/// or an expression where a predicate is expected.
pub fn solve_predicate(
    model: &Model,
    source_name: &str,
    text: &str,
    budget: Budget,
) -> Result<Solved, Diagnostic> {
    let start = Instant::now();
    budget.start(&model.context, start);
    let file = register_source(source_name, text);
    let term = syntax::parse_term(file, text)?;
    let (pred, inferred) = match types::check_formula(&model.ast, model.machine(), &term)? {
        Formula::Pred(p, free) => (p, free),
        Formula::Expr(e, _) => {
            return Err(Diagnostic::new(
                DiagKind::Usage,
                e.span,
                "expected a predicate, found an expression (use `bsolve eval` to evaluate it)",
            ));
        }
    };
    let free = with_machine_identifiers(model, &pred, inferred);
    let env = Env::new();
    let problem = Problem::new(&free, &pred, &env);
    let backend = model.context.settings().backend;
    model.context.take_unknown_note();
    let decision = match solve::solve_all(&model.context, &problem, backend, 1) {
        Ok(found) => match found.solutions.into_iter().next() {
            Some(values) => {
                Decision::Sat(free.iter().map(|v| v.name.clone()).zip(values).collect())
            }
            None if found.complete => Decision::Unsat,
            None => Decision::Unknown(
                "no solution within MININT..MAXINT or the enumeration limits (search incomplete)"
                    .into(),
            ),
        },
        Err(e) if e.is_timeout() => Decision::Unknown(budget.describe_timeout(&model.context)),
        Err(e) => Decision::Unknown(reason(&e.into())),
    };
    Budget::stop(&model.context);
    let note = match decision {
        Decision::Sat(_) => None,
        Decision::Unknown(_) => model.context.take_unknown_note(),
        _ => model.context.take_ill_defined_note(),
    };
    Ok(Solved {
        decision,
        free,
        elapsed: start.elapsed(),
        note,
    })
}

/// A diagnostic as a reason without its position, its first words naming the kind of problem (so that
/// reasons can be grouped).
pub fn reason(d: &Diagnostic) -> String {
    let kind = match d.kind {
        // These messages name their kind already ("unsupported: ...", "timeout: ...").
        DiagKind::Unsupported | DiagKind::Limit => return d.message.clone(),
        DiagKind::Syntax => "syntax error",
        DiagKind::Type => "type error",
        DiagKind::File => "file error",
        DiagKind::Usage => "usage error",
        DiagKind::WellDefinedness => "well-definedness error",
        DiagKind::Internal => "internal error",
    };
    format!("{kind}: {}", d.message)
}

/// The inferred free identifiers, then the machine's parameters, constants and variables that `pred`
/// mentions, in declaration order.
fn with_machine_identifiers(
    model: &Model,
    pred: &crate::ir::Pred,
    mut free: Vec<TypedName>,
) -> Vec<TypedName> {
    let mentioned: BTreeSet<_> = crate::ir::free_names::of_pred(pred);
    let m = model.machine();
    for n in m.params.iter().chain(&m.constants).chain(&m.variables) {
        if mentioned.contains(&n.name) && !free.iter().any(|f| f.name == n.name) {
            free.push(n.clone());
        }
    }
    free
}

/// One predicate of a predicate file.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Position among the file's predicates (0-based), whatever slice is run.
    pub index: usize,
    /// The machine to decide it in (`None`: the empty machine).
    pub model: Option<PathBuf>,
    /// The machine as the file names it (printed in the JSON line).
    pub model_name: Option<String>,
    pub predicate: String,
}

/// Reads a predicate file: one predicate per line (blank lines and `#` comments skipped), all in the
/// context of `file`; or a CSV file (`.csv`) with `model` and `predicate` columns, each model relative to
/// the directory `models/` next to the CSV file.
pub fn read_pred_file(path: &Path, file: Option<&Path>) -> Result<Vec<Item>, Diagnostic> {
    let is_csv = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if !is_csv {
        let text = std::fs::read_to_string(path).map_err(|e| csv_table::file_error(path, e))?;
        return Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .enumerate()
            .map(|(index, line)| Item {
                index,
                model: file.map(Path::to_path_buf),
                model_name: file.map(|f| f.display().to_string()),
                predicate: line.to_string(),
            })
            .collect());
    }
    if let Some(f) = file {
        return Err(Diagnostic::new(
            DiagKind::Usage,
            Span::default(),
            format!(
                "{}: a CSV predicate file names its machines in its `model` column; omit FILE",
                f.display()
            ),
        ));
    }
    let models = path.parent().unwrap_or(Path::new(".")).join("models");
    let (mut reader, [model, predicate]) =
        csv_table::open(&csv::ReaderBuilder::new(), path, ["model", "predicate"])?;
    let mut items = vec![];
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|e| csv_table::file_error(path, e))?;
        let name = record.get(model).unwrap_or("").trim();
        items.push(Item {
            index,
            model: Some(models.join(name)),
            model_name: Some(name.to_string()),
            predicate: record.get(predicate).unwrap_or("").to_string(),
        });
    }
    Ok(items)
}

/// Decides each item, writing one JSON line per predicate:
/// `{"index","model","answer":"sat|unsat|unknown|error","ms","reason","solution"}`. Each machine is loaded
/// once; one that fails to load gives an `error` line for each of its predicates. A panic (a bug) on one
/// predicate is reported as its `error` line and the run goes on. `solution_json` prints a solution
/// (the report layer's job: values in B syntax, by their types).
pub fn run_pred_file<'i>(
    items: impl Iterator<Item = &'i Item>,
    options: &Options,
    budget: Budget,
    solution_json: &dyn Fn(&Model, &Solved, &Assignment) -> serde_json::Value,
    out: &mut dyn Write,
) -> Result<(), Diagnostic> {
    let mut models: HashMap<Option<PathBuf>, Result<Model, String>> = HashMap::new();
    for item in items {
        let model = models.entry(item.model.clone()).or_insert_with(|| {
            guarded(|| match &item.model {
                Some(path) => Model::load(path, options),
                None => Model::empty(options),
            })
            .and_then(|r| r.map_err(|d| format!("cannot load the machine: {}", reason(&d))))
        });
        // Timed from here: loading a machine (once for all its predicates) is not the predicate's time.
        let start = Instant::now();
        let result = match model {
            Ok(model) => guarded(|| {
                solve_predicate(
                    model,
                    &format!("<predicate {}>", item.index),
                    &item.predicate,
                    budget,
                )
            })
            .map(|r| r.map(|solved| (solved, &*model))),
            Err(e) => Err(e.clone()),
        };
        let ms = (start.elapsed().as_secs_f64() * 1e6).round() / 1e3;
        let mut line = json!({
            "index": item.index,
            "model": item.model_name,
            "ms": ms,
            "reason": null,
        });
        let (answer, reason) = match result {
            Ok(Ok((solved, model))) => {
                if let Decision::Sat(a) = &solved.decision {
                    line["solution"] = solution_json(model, &solved, a);
                }
                match solved.decision {
                    Decision::Sat(_) => ("sat", None),
                    Decision::Unsat => ("unsat", solved.note.clone()),
                    Decision::Unknown(r) => ("unknown", Some(r)),
                }
            }
            Ok(Err(d)) => ("error", Some(reason(&d))),
            Err(e) => ("error", Some(e)),
        };
        line["answer"] = json!(answer);
        line["reason"] = json!(reason);
        writeln!(out, "{line}").map_err(|e| {
            Diagnostic::new(
                DiagKind::File,
                Span::default(),
                format!("writing the results: {e}"),
            )
        })?;
    }
    Ok(())
}

/// Runs `f`, turning a panic (a bug in bsolve) into an error message so that a batch run goes on.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let what = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("internal error (panic): {what}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Options;

    fn model(text: &str) -> Model {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("bsolve-solve-cmd-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let name = text.split_whitespace().nth(1).expect("machine name");
        let path = dir.join(format!("{name}.mch"));
        std::fs::write(&path, text).expect("writes");
        Model::load(&path, &Options::default()).expect("loads")
    }

    fn decide(m: &Model, p: &str) -> Decision {
        solve_predicate(m, "<pred>", p, Budget::Chosen(Duration::from_secs(5)))
            .expect("well-formed")
            .decision
    }

    #[test]
    fn free_identifiers_are_solved_for() {
        let m = model("MACHINE Empty END");
        match decide(&m, "x : 1..5 & x * x = 16") {
            Decision::Sat(a) => assert_eq!(a[0].1.to_string(), "4"),
            other => panic!("{other:?}"),
        }
        assert_eq!(decide(&m, "x : 1..5 & x > 7"), Decision::Unsat);
    }

    #[test]
    fn machine_constants_and_variables_are_free_and_properties_ignored() {
        let m = model(
            "MACHINE MC SETS C = {red, green} CONSTANTS k PROPERTIES k = 1 \
             VARIABLES v INVARIANT v : C INITIALISATION v := red END",
        );
        match decide(&m, "k : 2..3 & v /= red") {
            Decision::Sat(a) => {
                let shown: Vec<String> = a.iter().map(|(n, v)| format!("{n}={v}")).collect();
                assert_eq!(shown, ["k=2", "v=green"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unbounded_unsat_is_proved_under_auto() {
        // Native explores X and Y only within MININT..MAXINT (no proof); auto hands the question to z3.
        let m = model("MACHINE Empty END");
        let decision = decide(&m, "X < Y & Y < X & X : INTEGER");
        if crate::solve::smt::available_for_test("unbounded_unsat_is_proved_under_auto") {
            assert!(matches!(decision, Decision::Unsat));
        } else {
            // Without z3 nothing proves it: the answer stays open.
            assert!(matches!(decision, Decision::Unknown(_)));
        }
    }

    #[test]
    fn an_expression_is_rejected() {
        let m = model("MACHINE Empty END");
        let e = solve_predicate(&m, "<pred>", "1 + 2", Budget::Unlimited)
            .err()
            .expect("an error");
        assert_eq!(e.kind, DiagKind::Usage);
    }

    #[test]
    fn reasons_lose_their_position_and_name_their_kind() {
        let d = Diagnostic::type_error(Span::default(), "`x` is not typed");
        assert_eq!(reason(&d), "type error: `x` is not typed");
        let d = Diagnostic::unsupported(Span::default(), "REC");
        assert_eq!(reason(&d), "unsupported: REC");
    }

    #[test]
    fn text_predicate_files_skip_comments_and_blank_lines() {
        let dir = std::env::temp_dir().join(format!("bsolve-pred-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("p.txt");
        std::fs::write(&path, "# header\n\n  x = 1  \n# x\ny : BOOL\n").expect("writes");
        let items = read_pred_file(&path, None).expect("reads");
        let shown: Vec<(usize, &str)> = items
            .iter()
            .map(|i| (i.index, i.predicate.as_str()))
            .collect();
        assert_eq!(shown, [(0, "x = 1"), (1, "y : BOOL")]);
        assert!(items.iter().all(|i| i.model.is_none()));
    }
}
