//! `bsolve bench`: run a suite of setup-constants questions over several backends, in-process, and compare
//! the answers with the expected ones and with each other.
//!
//! A suite is a CSV file with the columns `name, model, command, expected, timeout_ms`. `model` is relative
//! to the repository root, taken as the parent of the directory holding the suite (the suite lives in
//! `benchmarks/`). `command` is `first` (is there a constant setup?), `all` (all setups, kept) or `count`
//! (all setups, only counted). `expected` is `sat` or `unsat` for `first`, a solution count for `all` and
//! `count` (every setup: a backend's symmetry reduction is expanded before counting); alternatives are
//! separated by `|`. Times include parsing and type checking.

use super::{Model, Options, csv_table};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::{Env, EvalError};
use crate::ir::{Pred, PredKind, TypedName};
use crate::solve::{self, Backend, Problem, Symmetry};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchCommand {
    First,
    All,
    Count,
}

impl BenchCommand {
    pub fn name(self) -> &'static str {
        match self {
            BenchCommand::First => "first",
            BenchCommand::All => "all",
            BenchCommand::Count => "count",
        }
    }
}

/// One line of a suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub name: String,
    pub model: PathBuf,
    pub command: BenchCommand,
    /// Accepted answers (`sat`, `unsat` or counts).
    pub expected: Vec<String>,
    pub timeout: Duration,
}

/// A backend named on the command line: one bsolve has, or one it does not have yet (a column of
/// `unsupported`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchBackend {
    Available(Backend),
    /// The kodkod backend with a chosen SAT solver (`kodkod-varisat`; plain `kodkod` is CaDiCaL).
    Sat(solver_bridges::SolverKind),
    Unsupported(String),
}

impl BenchBackend {
    pub fn parse(name: &str) -> BenchBackend {
        match name {
            "native" => BenchBackend::Available(Backend::Native),
            "brute" => BenchBackend::Available(Backend::Brute),
            "auto" => BenchBackend::Available(Backend::Auto),
            "kodkod" => BenchBackend::Available(Backend::Kodkod),
            "kodkod-cadical" => BenchBackend::Sat(solver_bridges::SolverKind::Cadical),
            "kodkod-varisat" => BenchBackend::Sat(solver_bridges::SolverKind::Varisat),
            "z3" => BenchBackend::Available(Backend::Smt),
            other => BenchBackend::Unsupported(other.to_string()),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            BenchBackend::Available(b) => b.name(),
            BenchBackend::Sat(solver_bridges::SolverKind::Cadical) => "kodkod-cadical",
            BenchBackend::Sat(solver_bridges::SolverKind::Varisat) => "kodkod-varisat",
            BenchBackend::Unsupported(n) => n,
        }
    }
}

/// What one backend answered on one case.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// `sat`, `unsat`, a count, `timeout`, `unknown`, `error` or `unsupported`.
    pub answer: String,
    /// Why the answer is not decided (empty otherwise).
    pub detail: String,
    pub ms: f64,
}

impl Outcome {
    fn new(answer: &str, detail: impl Into<String>, start: Instant) -> Outcome {
        Outcome {
            answer: answer.into(),
            detail: detail.into(),
            ms: start.elapsed().as_secs_f64() * 1000.0,
        }
    }

    /// Whether the answer is a verdict (sat, unsat, a count) rather than a failure to answer.
    pub fn decided(&self) -> bool {
        matches!(self.answer.as_str(), "sat" | "unsat") || self.answer.parse::<u64>().is_ok()
    }
}

/// How an outcome compares with the expected answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    Agrees,
    Wrong,
    /// No verdict (timeout, unknown, error, unsupported).
    Undecided,
}

/// One case with every backend's outcome.
pub struct Row {
    pub case: Case,
    pub outcomes: Vec<(String, Outcome)>,
}

impl Row {
    /// Whether the verdicts of the backends are consistent: all expected, or all equal.
    pub fn backends_agree(&self) -> bool {
        let decided: Vec<&Outcome> = self
            .outcomes
            .iter()
            .map(|(_, o)| o)
            .filter(|o| o.decided())
            .collect();
        decided
            .iter()
            .all(|o| agreement(&self.case, o) == Agreement::Agrees)
            || decided.windows(2).all(|w| w[0].answer == w[1].answer)
    }

    pub fn any_wrong(&self) -> bool {
        self.outcomes
            .iter()
            .any(|(_, o)| agreement(&self.case, o) == Agreement::Wrong)
    }
}

/// Reads a suite file.
pub fn read_suite(path: &Path) -> Result<Vec<Case>, Diagnostic> {
    let root = path
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut builder = csv::ReaderBuilder::new();
    builder.comment(Some(b'#')).trim(csv::Trim::All);
    let (mut reader, [name, model, command, expected, timeout]) = csv_table::open(
        &builder,
        path,
        ["name", "model", "command", "expected", "timeout_ms"],
    )?;
    let mut cases = vec![];
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(|e| csv_table::file_error(path, e))?;
        let field = |i: usize| record.get(i).unwrap_or("");
        let bad = |what: &str| {
            // The header is line 1.
            csv_table::file_error(path, format!("row {}: {what}", line + 2))
        };
        let command = match field(command) {
            "first" => BenchCommand::First,
            "all" => BenchCommand::All,
            "count" => BenchCommand::Count,
            other => return Err(bad(&format!("unknown command `{other}`"))),
        };
        let timeout = field(timeout)
            .parse::<u64>()
            .map_err(|_| bad("timeout_ms must be a number of milliseconds"))?;
        cases.push(Case {
            name: field(name).to_string(),
            model: root.join(field(model)),
            command,
            expected: field(expected)
                .split('|')
                .map(|s| s.trim().to_string())
                .collect(),
            timeout: Duration::from_millis(timeout),
        });
    }
    Ok(cases)
}

/// Runs every case over every backend `repeat` times and keeps each backend's run of median time. The
/// backends alternate within a repetition, so that a burst of load on the shared machine falls on all
/// of them alike, in the order `run_order` gives.
pub fn run_suite(cases: &[Case], backends: &[BenchBackend], repeat: usize) -> Vec<Row> {
    cases
        .iter()
        .map(|case| {
            let mut runs: Vec<Vec<Outcome>> = vec![Vec::new(); backends.len()];
            for r in 0..repeat.max(1) {
                for b in run_order(backends.len(), r) {
                    runs[b].push(run_case(case, &backends[b]));
                }
            }
            Row {
                case: case.clone(),
                outcomes: backends
                    .iter()
                    .zip(runs)
                    .map(|(b, runs)| (b.name().to_string(), median(runs)))
                    .collect(),
            }
        })
        .collect()
}

/// The order of `n` backends in repetition `r`: the permutations of `0..n` in turn, so that each backend
/// follows each of the others about as often. A run right after a slow one of another backend finds
/// the caches and the allocator's free lists cold; with the order only turned by one per repetition,
/// every backend always followed the same one (`auto` came after `kodkod`'s 42 ms on SendMoreMoney
/// and took 0.5 ms, against 0.3 ms when run alone).
fn run_order(n: usize, r: usize) -> Vec<usize> {
    use itertools::Itertools;
    let count: usize = (1..=n).product();
    (0..n)
        .permutations(n)
        .nth(r % count.max(1))
        .unwrap_or_default()
}

/// The run of median time (the slower of the two middle ones).
fn median(mut runs: Vec<Outcome>) -> Outcome {
    runs.sort_by(|a, b| a.ms.total_cmp(&b.ms));
    let middle = runs.len() / 2;
    runs.swap_remove(middle)
}

/// Loads the model with the backend, then asks the case's question under its deadline.
pub fn run_case(case: &Case, backend: &BenchBackend) -> Outcome {
    let start = Instant::now();
    let (backend, prefs) = match backend {
        BenchBackend::Available(b) => (*b, Vec::new()),
        BenchBackend::Sat(kind) => (
            Backend::Kodkod,
            vec![("KODKOD_SAT_SOLVER".to_string(), kind.name().to_string())],
        ),
        BenchBackend::Unsupported(_) => {
            return Outcome::new(
                "unsupported",
                "backend not available in this version",
                start,
            );
        }
    };
    let options = Options {
        backend,
        prefs,
        ..Options::default()
    };
    let model = match Model::load(&case.model, &options) {
        Ok(m) => m,
        Err(d) => return Outcome::new("error", d.to_string(), start),
    };
    model.context.set_deadline(Some(start + case.timeout));
    let m = model.machine();
    let vars: Vec<TypedName> = m.params.iter().chain(&m.constants).cloned().collect();
    let pred = Pred::new(
        PredKind::And(vec![m.constraints.clone(), m.properties.clone()]),
        m.properties.span,
    );
    let env = Env::new();
    let mut problem = Problem::new(&vars, &pred, &env);
    // As `bsolve setup-constants`: a reduced search whose enumerations are expanded to every setup.
    problem.symmetry = match case.command {
        BenchCommand::First => Symmetry::Representatives,
        BenchCommand::All | BenchCommand::Count => Symmetry::Expanded,
    };
    let result = match case.command {
        BenchCommand::First => solve::solve_all(&model.context, &problem, backend, 1)
            .map(|s| (s.solutions.len(), s.complete || !s.solutions.is_empty())),
        BenchCommand::All => solve::solve_all(&model.context, &problem, backend, usize::MAX)
            .map(|s| (s.solutions.len(), s.complete)),
        BenchCommand::Count => {
            let mut count = 0;
            solve::stream(&model.context, &problem, backend, &mut |_| {
                count += 1;
                true
            })
            .map(|(complete, _)| (count, complete))
        }
    };
    model.context.set_deadline(None);
    match result {
        Ok((found, true)) => match case.command {
            BenchCommand::First if found > 0 => Outcome::new("sat", "", start),
            BenchCommand::First => Outcome::new("unsat", "", start),
            _ => Outcome::new(&found.to_string(), "", start),
        },
        Ok((found, false)) => Outcome::new(
            "unknown",
            format!("search incomplete ({found} solutions found)"),
            start,
        ),
        Err(e) if e.is_timeout() => Outcome::new("timeout", e.to_string(), start),
        Err(e @ EvalError::WellDefinedness(_)) => Outcome::new("error", e.to_string(), start),
        Err(e) => Outcome::new("unknown", e.to_string(), start),
    }
}

/// Compares an outcome with the case's expected answers; for counts, `sat` and `unsat` also match a
/// positive count and zero.
pub fn agreement(case: &Case, outcome: &Outcome) -> Agreement {
    if !outcome.decided() {
        return Agreement::Undecided;
    }
    let a = outcome.answer.as_str();
    let matches = |e: &str| {
        e == a
            || (e == "unsat" && a == "0")
            || (e == "sat" && a.parse::<u64>().is_ok_and(|n| n > 0))
    };
    if case.expected.iter().any(|e| matches(e)) {
        Agreement::Agrees
    } else {
        Agreement::Wrong
    }
}

/// The cell of one outcome: `12.3 ms sat`, `timeout`, ...
pub fn cell(o: &Outcome) -> String {
    match o.answer.as_str() {
        "unsupported" => "unsupported".into(),
        "timeout" => format!("timeout ({:.0} ms)", o.ms),
        a => format!("{:.1} ms {a}", o.ms),
    }
}

/// The summary column: whether every backend's verdict is the expected one.
pub fn expectation_cell(row: &Row) -> &'static str {
    let agreements: Vec<Agreement> = row
        .outcomes
        .iter()
        .map(|(_, o)| agreement(&row.case, o))
        .collect();
    if agreements.contains(&Agreement::Wrong) {
        "WRONG"
    } else if agreements.contains(&Agreement::Agrees) {
        "ok"
    } else {
        "undecided"
    }
}

/// The results as rows of cells, header first.
pub fn table(rows: &[Row], backends: &[BenchBackend]) -> Vec<Vec<String>> {
    let mut header = vec!["name".to_string(), "command".into(), "expected".into()];
    header.extend(backends.iter().map(|b| b.name().to_string()));
    header.push("expected?".into());
    header.push("backends agree".into());
    let portfolio = backends.iter().any(|b| b.name() == "auto") && backends.len() > 1;
    if portfolio {
        header.push("auto / best".into());
    }
    let mut lines = vec![header];
    for row in rows {
        let mut line = vec![
            row.case.name.clone(),
            row.case.command.name().into(),
            row.case.expected.join("|"),
        ];
        line.extend(row.outcomes.iter().map(|(_, o)| cell(o)));
        line.push(expectation_cell(row).into());
        line.push(if row.backends_agree() { "yes" } else { "NO" }.into());
        if portfolio {
            line.push(auto_ratio(row).map_or("-".into(), |r| format!("{r:.1}×")));
        }
        lines.push(line);
    }
    lines
}

/// `auto`'s time over the fastest other backend that gave the expected answer (`None`: auto gave none,
/// or no other backend did).
pub fn auto_ratio(row: &Row) -> Option<f64> {
    let expected = |o: &Outcome| agreement(&row.case, o) == Agreement::Agrees;
    let (_, auto) = row
        .outcomes
        .iter()
        .find(|(b, o)| b == "auto" && expected(o))?;
    let best = row
        .outcomes
        .iter()
        .filter(|(b, o)| b != "auto" && expected(o))
        .map(|(_, o)| o.ms)
        .min_by(f64::total_cmp)?;
    Some(auto.ms / best.max(f64::MIN_POSITIVE))
}

/// The table aligned in columns, for the terminal.
pub fn render_text(table: &[Vec<String>]) -> String {
    let columns = table.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .map(|l| l.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    table
        .iter()
        .map(|line| {
            line.iter()
                .zip(&widths)
                .map(|(s, w)| format!("{s:<w$}"))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
                + "\n"
        })
        .collect()
}

/// The table in Markdown.
pub fn render_markdown(table: &[Vec<String>]) -> String {
    let mut out = String::new();
    for (i, line) in table.iter().enumerate() {
        out.push_str(&format!("| {} |\n", line.join(" | ")));
        if i == 0 {
            out.push_str(&format!("|{}\n", "---|".repeat(line.len())));
        }
    }
    out
}

/// One CSV line per case and backend.
pub fn render_csv(rows: &[Row]) -> Result<String, Diagnostic> {
    let mut writer = csv::Writer::from_writer(vec![]);
    let internal =
        |e: csv::Error| Diagnostic::new(DiagKind::Internal, Span::default(), e.to_string());
    writer
        .write_record([
            "name", "command", "expected", "backend", "answer", "ms", "agrees", "detail",
        ])
        .map_err(internal)?;
    for row in rows {
        for (backend, o) in &row.outcomes {
            let agrees = match agreement(&row.case, o) {
                Agreement::Agrees => "yes",
                Agreement::Wrong => "no",
                Agreement::Undecided => "",
            };
            writer
                .write_record([
                    row.case.name.as_str(),
                    row.case.command.name(),
                    &row.case.expected.join("|"),
                    backend,
                    &o.answer,
                    &format!("{:.3}", o.ms),
                    agrees,
                    &o.detail,
                ])
                .map_err(internal)?;
        }
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| Diagnostic::new(DiagKind::Internal, Span::default(), e.to_string()))?;
    String::from_utf8(bytes)
        .map_err(|e| Diagnostic::new(DiagKind::Internal, Span::default(), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(command: BenchCommand, expected: &str) -> Case {
        Case {
            name: "c".into(),
            model: PathBuf::new(),
            command,
            expected: expected.split('|').map(String::from).collect(),
            timeout: Duration::from_secs(1),
        }
    }

    fn outcome(answer: &str) -> Outcome {
        Outcome {
            answer: answer.into(),
            detail: String::new(),
            ms: 1.0,
        }
    }

    #[test]
    fn agreement_with_alternatives_and_undecided_answers() {
        let c = case(BenchCommand::All, "10|1080");
        assert_eq!(agreement(&c, &outcome("1080")), Agreement::Agrees);
        assert_eq!(agreement(&c, &outcome("10")), Agreement::Agrees);
        assert_eq!(agreement(&c, &outcome("9")), Agreement::Wrong);
        assert_eq!(agreement(&c, &outcome("timeout")), Agreement::Undecided);
        let c = case(BenchCommand::First, "sat");
        assert_eq!(agreement(&c, &outcome("unsat")), Agreement::Wrong);
        assert_eq!(agreement(&c, &outcome("unsupported")), Agreement::Undecided);
    }

    #[test]
    fn backends_agree_when_all_expected_or_all_equal() {
        let row = |c: Case, answers: &[&str]| Row {
            case: c,
            outcomes: answers
                .iter()
                .map(|a| ("b".to_string(), outcome(a)))
                .collect(),
        };
        assert!(row(case(BenchCommand::All, "10|1080"), &["10", "1080"]).backends_agree());
        assert!(row(case(BenchCommand::All, "7"), &["6", "6", "timeout"]).backends_agree());
        assert!(!row(case(BenchCommand::All, "7"), &["7", "6"]).backends_agree());
        assert!(row(case(BenchCommand::All, "7"), &["7", "6"]).any_wrong());
    }

    #[test]
    fn the_median_run_and_autos_ratio_to_the_best_expected_backend() {
        let timed = |answer: &str, ms: f64| Outcome {
            ms,
            ..outcome(answer)
        };
        let runs = vec![timed("7", 9.0), timed("7", 1.0), timed("timeout", 50.0)];
        assert_eq!(median(runs).ms, 9.0);
        let row = Row {
            case: case(BenchCommand::All, "7"),
            outcomes: vec![
                ("native".into(), timed("7", 4.0)),
                // Faster, but wrong: not the best.
                ("kodkod".into(), timed("6", 1.0)),
                ("z3".into(), timed("7", 2.0)),
                ("auto".into(), timed("7", 3.0)),
            ],
        };
        assert_eq!(auto_ratio(&row), Some(1.5));
        let undecided_auto = Row {
            outcomes: vec![
                ("native".into(), timed("7", 4.0)),
                ("auto".into(), timed("timeout", 3.0)),
            ],
            ..row
        };
        assert_eq!(auto_ratio(&undecided_auto), None);
    }

    /// Over n! repetitions every ordered pair of backends is adjacent as often as any other, within
    /// the repetitions; each repetition runs every backend once.
    #[test]
    fn each_backend_follows_each_other_as_often() {
        use super::run_order;
        for n in 1..=4 {
            let count: usize = (1..=n).product();
            let mut follows = vec![vec![0; n]; n];
            for r in 0..count {
                let order = run_order(n, r);
                let mut sorted = order.clone();
                sorted.sort();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>());
                for w in order.windows(2) {
                    follows[w[0]][w[1]] += 1;
                }
            }
            let pairs: Vec<_> = (0..n)
                .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
                .map(|(a, b)| follows[a][b])
                .collect();
            assert!(pairs.iter().all(|&c| c == pairs[0]), "n = {n}: {follows:?}");
        }
        assert_eq!(run_order(3, 6), run_order(3, 0));
    }

    #[test]
    fn runs_a_case_on_a_model() {
        let dir = std::env::temp_dir().join(format!("bsolve-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("Three.mch");
        std::fs::write(&path, "MACHINE Three CONSTANTS k PROPERTIES k : 1..3 END").expect("writes");
        let mut c = case(BenchCommand::Count, "3");
        c.model = path;
        let o = run_case(&c, &BenchBackend::Available(Backend::Brute));
        assert_eq!(o.answer, "3");
        c.command = BenchCommand::First;
        let o = run_case(&c, &BenchBackend::parse("cplex"));
        assert_eq!(o.answer, "unsupported");
    }
}
