//! Argument parsing (clap) and dispatch of each subcommand to `check::` and `report::`.

use bsolve::check::budget::{Budget, MemoryLimit};
use bsolve::check::mc::{
    McOptions, McResult, SearchOrder, Step, SymbolicStrategy, SymmetryStats, Verdict,
};
use bsolve::check::simulate::{SimVerdict, SimulateOptions};
use bsolve::check::symmetry::SymmetryMode;
use bsolve::check::{
    Model, Options, bench, evaluate, setup, solve_cmd, symmetric_mc, temporal, unsat_core,
};
use bsolve::diag::{DiagKind, Diagnostic, Span};
use bsolve::report::text::Printer;
use bsolve::report::{self, Exit};
use bsolve::solve;
use bsolve::value::display::display_with_type;
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "bsolve",
    version,
    about = "Constraint solving for classical-B specifications"
)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

impl Global {
    /// The command's time budget (`--timeout`, or the default).
    fn budget(&self) -> Budget {
        self.timeout.unwrap_or(Budget::Default)
    }
}

#[derive(Args, Debug, Clone)]
struct Global {
    /// Solving backend: `native` (propagating finite-domain solver), `brute` (exhaustive enumeration, the
    /// reference oracle), `kodkod` (translation to SAT, native for what does not translate), `z3`
    /// (SMT-LIB translation decided by z3 or --smt-solver), `auto` (native, raced from another thread by
    /// SAT then z3 — z3 at once on a third thread over wide integers — when it has not decided within a
    /// probe of 2 ms, 0.2 ms over relations and booleans; the first to decide stops the others).
    #[arg(long, value_enum, default_value_t = Backend::Auto, global = true)]
    backend: Backend,
    /// Shorthand for --backend kodkod.
    #[arg(long, global = true)]
    kodkod: bool,
    /// With the kodkod backend: fail, naming the construct, when a problem does not translate to SAT
    /// (instead of handing it to the native solver).
    #[arg(long, global = true)]
    kodkod_only: bool,
    /// The SAT solver of the kodkod backend: cadical (default) or varisat.
    #[arg(long, global = true, value_name = "SOLVER")]
    sat_solver: Option<String>,
    /// With the kodkod backend: write the CNF of each SAT problem to FILE (DIMACS, with comments naming
    /// the B unknown behind each variable).
    #[arg(long, global = true, value_name = "FILE")]
    dump_cnf: Option<PathBuf>,
    /// Shorthand for --backend z3.
    #[arg(long, global = true)]
    z3: bool,
    /// Time budget in milliseconds (default: 300000, five minutes): searches give up (UNKNOWN) when it
    /// is spent; mc stops exploring. `none` or `0`: no limit. With `solve --pred-file` it is the budget
    /// of each predicate.
    #[arg(long, global = true, value_name = "MS|none", value_parser = Budget::parse)]
    timeout: Option<Budget>,
    /// Memory limit in megabytes (default: three quarters of physical memory): past it, searches stop
    /// with UNKNOWN naming the limit. `none` or `0`: no limit.
    #[arg(long, global = true, value_name = "MB|none", value_parser = MemoryLimit::parse)]
    max_memory: Option<MemoryLimit>,
    /// Set a preference, e.g. -p MAXINT=127 (MAXINT, MININT, DEFAULT_SETSIZE, MAX_INITIALISATIONS,
    /// MAX_OPERATIONS); overrides the machine's SET_PREF_ definitions.
    #[arg(short = 'p', long = "pref", global = true, value_name = "NAME=VAL")]
    prefs: Vec<String>,
    /// Cardinality of a deferred set, e.g. --card PID=3.
    #[arg(long, global = true, value_name = "SET=N")]
    card: Vec<String>,
    /// With --backend z3: write the SMT-LIB text sent to the solver to FILE (replayable with any solver).
    #[arg(long, global = true, value_name = "FILE")]
    dump_smt: Option<PathBuf>,
    /// With --backend z3: the SMT-LIB solver command (default `z3 -in`), e.g. "cvc5 --lang smt2 --incremental".
    #[arg(long, global = true, value_name = "CMD")]
    smt_solver: Option<String>,
    /// The TLC model file of a TLA+ module (default: MODULE.cfg beside MODULE.tla).
    #[arg(long, global = true, value_name = "FILE.cfg")]
    config: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// Print settings and statistics.
    #[arg(short, long, global = true)]
    verbose: bool,
}

/// `mc --symbolic --strategy` (`check::mc::SymbolicStrategy`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum StrategyArg {
    Bfs,
    Chaining,
    Saturation,
}

/// `mc --symmetry`'s modes (`check::symmetry::SymmetryMode`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SymmetryArg {
    Canon,
    Hash,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    Auto,
    Brute,
    Native,
    Kodkod,
    Z3,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and type-check a machine; list its sets, constants, variables and operations with their types.
    Check { file: PathBuf },
    /// Evaluate an expression or decide a predicate, in the context of FILE if given.
    Eval {
        /// `[FILE] FORMULA`: with two arguments the first is the machine.
        #[arg(num_args = 1..=2, required = true)]
        args: Vec<String>,
    },
    /// Find values of the constants satisfying PROPERTIES (and CONSTRAINTS).
    SetupConstants {
        file: PathBuf,
        /// All solutions.
        #[arg(long, conflicts_with = "n")]
        all: bool,
        /// At most N solutions (default: MAX_INITIALISATIONS, as ProB).
        #[arg(short)]
        n: Option<usize>,
    },
    /// Set up the constants, then compute the initial states.
    Init {
        file: PathBuf,
        /// At most N initial states (default: MAX_INITIALISATIONS).
        #[arg(short)]
        n: Option<usize>,
    },
    /// Explicit-state model checking: deadlocks, invariant and assertion violations.
    Mc {
        file: PathBuf,
        /// Stop after this many states (ProB's count: root and constant setups included).
        #[arg(long)]
        max_states: Option<usize>,
        #[arg(long)]
        no_deadlock: bool,
        /// Go on past deadlocks and count every deadlocked state; the verdict and trace are still those of
        /// the first (the counts then cover the whole state space, as in ProB's recorded corpus runs).
        #[arg(long, conflicts_with = "no_deadlock")]
        all_deadlocks: bool,
        #[arg(long)]
        no_inv: bool,
        /// Go on past invariant and assertion violations, expanding and counting the violating states;
        /// the verdict and trace are still those of the first error (the counts then cover the whole
        /// state space, as in ProB's recorded corpus runs).
        #[arg(long, conflicts_with = "no_inv")]
        all_violations: bool,
        #[arg(long)]
        no_assertions: bool,
        /// Breadth-first search (default; gives shortest counterexamples).
        #[arg(long, conflicts_with = "dfs")]
        bfs: bool,
        /// Depth-first search.
        #[arg(long)]
        dfs: bool,
        /// Threads expanding states (default: one per core; 1 = sequential).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        workers: Option<u32>,
        /// Explore every constant setup. By default setups that differ only by a permutation of a
        /// deferred set's elements are taken once where ProB's rules apply (pairwise-distinct constants,
        /// scalars of the set, the parts of a partition of it), so that the counts are ProB's; the
        /// output says when that happened. Verdicts are the same either way.
        #[arg(long)]
        all_setups: bool,
        /// Reuse an operation's transitions in states that agree on the variables it reads and writes
        /// (and the constants), instead of evaluating it again; reports the evaluations performed and
        /// those reused. Operations with an operation call, a WHILE loop or a local named like a
        /// variable are always evaluated, and so is one whose first 10,000 lookups hit less than one
        /// time in ten.
        #[arg(long)]
        reuse: bool,
        /// Partial-order reduction: in each state expand only a stubborn set of the enabled operations
        /// (dependencies from the operations' read and write sets; operations writing what the invariant
        /// or the assertions read are expanded only with all others). Deadlocks and violations are found
        /// as without it; the counts are those of the reduced state space. A machine with an operation
        /// call, a WHILE loop or a local named like a variable is explored fully (the output says so).
        #[arg(long)]
        por: bool,
        /// Symbolic reachability: the reachable states as a list decision diagram, grown breadth-first
        /// by transition relations learned from the interpreter on the projections of states on each
        /// operation's read set. Counts as the explicit search's; what cannot be vectorised or a limit
        /// ends with UNKNOWN and the reason.
        #[arg(long, conflicts_with_all = ["por", "dfs", "symmetry"])]
        symbolic: bool,
        /// With --symbolic: at most this many LDD nodes (default: sized from the memory available).
        #[arg(long, requires = "symbolic")]
        max_nodes: Option<usize>,
        /// With --symbolic: the order the operations' transition groups are applied in. `bfs` level by
        /// level (shortest counterexamples); `chaining` each group on the states the previous ones
        /// reached (LTSmin's chaining); `saturation` groups by their topmost variable, deepest first,
        /// each to its fixpoint (a simple form of Ciardo's saturation). Counts and verdicts are the
        /// same; with chaining or saturation a counterexample found before the whole space was
        /// explored may not be a shortest one (the output says so).
        #[arg(long, value_enum, requires = "symbolic", default_value = "bfs")]
        strategy: StrategyArg,
        /// Symmetry reduction over the deferred sets: one state per orbit of the permutations of the
        /// elements no constant holds. `canon` keys each state by its canonical form (exact: the
        /// counts are orbit counts); `hash` by symmetry markers (cheaper, but states of different
        /// orbits may share a marker, so states may be missed and "no error" is not a proof).
        /// Deadlocks and violations are those of the full space; traces are replayed.
        #[arg(long, value_enum, conflicts_with = "por")]
        symmetry: Option<SymmetryArg>,
        /// With --symmetry canon: also print the full state and transition counts, each orbit
        /// counted by its number of distinct states.
        #[arg(long, requires = "symmetry")]
        full_count: bool,
        #[command(flatten)]
        export: TraceExport,
    },
    /// Random walks with restarts looking for an invariant violation or a deadlock beyond the reach of
    /// a breadth-first search; the trace found is replayed by the interpreter. Finding nothing proves
    /// nothing (exit code 2). The same --seed gives the same walks. The global --timeout bounds the
    /// whole simulation.
    Simulate {
        file: PathBuf,
        /// Walks at most (each restarts from a random constant setup and initial state).
        #[arg(long, default_value_t = 1000)]
        runs: usize,
        /// Operations per walk at most.
        #[arg(long, default_value_t = 1000)]
        depth: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Prefer, in seven steps out of eight, the successors closest to violating an invariant
        /// conjunct (integer comparisons by how far their sides are apart).
        #[arg(long)]
        guided: bool,
        #[arg(long)]
        no_deadlock: bool,
        #[command(flatten)]
        export: TraceExport,
    },
    /// LTL model checking (ProB's LTL[e] syntax): FORMULA, or every ASSERT_LTL... definition with
    /// --assertions. Runs start in the initialised states; a deadlock stays in its state forever. A
    /// violated formula is shown by a replayed lasso (prefix, then a loop repeated forever).
    /// Fairness: `WF(Op) & SF(Op2) => f` (also WEF, SEF for every operation).
    /// Exit code: 0 all hold, 1 a formula is violated, 2 unknown, 3 bad formula.
    #[command(verbatim_doc_comment)]
    Ltl(TemporalArgs),
    /// CTL model checking (ProB's syntax: EX, EX[Op], AX, EF, AF, EG, AG, E f U g, A f U g): FORMULA, or
    /// every ASSERT_CTL... definition with --assertions; the formula must hold in every initial state.
    /// Exit code: 0 all hold, 1 a formula is false, 2 unknown, 3 bad formula.
    #[command(verbatim_doc_comment)]
    Ctl(TemporalArgs),
    /// Decide a predicate in the context of FILE: SAT with a solution, UNSAT, or UNKNOWN.
    ///
    /// FILE gives the sets, their elements and the DEFINITIONS. Every other identifier of the predicate is
    /// free and existentially quantified: unknown identifiers are typed by inference, and the machine's
    /// constants and variables the predicate mentions are solved for too (with their declared types).
    /// PROPERTIES and INVARIANT are NOT added: write them into the predicate if they matter.
    /// Exit code: 0 SAT, 1 UNSAT (proved by an exhaustive search), 2 UNKNOWN; 0 with --pred-file.
    #[command(verbatim_doc_comment)]
    Solve {
        /// The machine (optional: without it the predicate is decided in an empty machine; not used with a
        /// CSV predicate file, whose `model` column names the machines).
        file: Option<PathBuf>,
        /// The predicate.
        #[arg(
            long,
            conflicts_with = "pred_file",
            required_unless_present = "pred_file"
        )]
        pred: Option<String>,
        /// Decide many predicates, printing one JSON line each: one predicate per line (blank lines and
        /// lines starting with `#` skipped), or, for a `.csv` file, the `predicate` column with the
        /// `model` column naming each machine relative to the directory `models/` next to the CSV file.
        #[arg(long, value_name = "F")]
        pred_file: Option<PathBuf>,
        /// With --pred-file: skip the first N predicates.
        #[arg(long, default_value_t = 0, value_name = "N")]
        offset: usize,
        /// With --pred-file: decide at most N predicates.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
    },
    /// Constraint-based checking that operations preserve the invariant.
    ///
    /// For OP (default all, with the INITIALISATION): a state satisfying PROPERTIES and INVARIANT,
    /// parameters and an after-state violating the INVARIANT (the state need not be reachable).
    /// Exit code: 0 preserved, 1 counterexample, 2 unknown.
    Cbc {
        file: PathBuf,
        /// An operation name, or `all`.
        operation: Option<String>,
        /// Check this predicate over the constants and variables in place of the INVARIANT (e.g. the
        /// inductive invariant printed by `bsolve ic3`).
        #[arg(long, value_name = "PRED")]
        invariant: Option<String>,
    },
    /// Constraint-based deadlock checking.
    ///
    /// A state satisfying PROPERTIES and INVARIANT (and --pred) where no operation is enabled (not
    /// necessarily reachable). Exit code: 0 none exists, 1 deadlock found, 2 unknown.
    CbcDeadlock {
        file: PathBuf,
        /// Only states satisfying this predicate over the constants and variables.
        #[arg(long, value_name = "P")]
        pred: Option<String>,
    },
    /// Static ASSERTIONS (on constants only) under PROPERTIES.
    ///
    /// Constants falsifying an assertion, or a proof. Exit code: 0 holds (with --proof: proved),
    /// 1 counterexample, 2 unknown.
    CbcAssertions {
        file: PathBuf,
        /// Accept only complete answers (no bounded search).
        #[arg(long)]
        proof: bool,
    },
    /// Constraint-based search for an executable operation sequence.
    ///
    /// Constants, an initial state and parameters making "op1;op2;..." executable; the trace is
    /// replayed. Exit code: 0 found, 1 not executable, 2 unknown.
    CbcSequence { file: PathBuf, operations: String },
    /// Bounded model checking from the INITIALISATION (`bmc FILE DEPTH` or `bmc DEPTH FILE`).
    ///
    /// Paths of 0..DEPTH operations ending in an invariant violation (or a deadlock), shortest first.
    /// Exit code: 1 counterexample, 2 none up to DEPTH (bounded) or unknown, 3 bad DEPTH.
    Bmc {
        #[arg(num_args = 2, required = true, allow_negative_numbers = true, value_names = ["FILE", "DEPTH"])]
        args: Vec<String>,
        /// Look for deadlocks instead of invariant violations.
        #[arg(long)]
        deadlock: bool,
        #[command(flatten)]
        export: TraceExport,
    },
    /// k-induction: prove the invariant for all reachable states, or find a violation.
    ///
    /// Proved when, for some k <= K, no path of k invariant states leads to a violation and none is
    /// reachable within k-1 steps. Exit code: 0 proved, 1 counterexample, 2 unknown.
    Kinduction {
        file: PathBuf,
        #[arg(long, default_value_t = 8, value_name = "K")]
        max_k: usize,
        /// Drop the simple-path constraints (pairwise distinct states) from the step case.
        #[arg(long)]
        no_simple_path: bool,
        #[command(flatten)]
        export: TraceExport,
    },
    /// IC3 / PDR: prove the invariant with an inductive strengthening, or find a violation.
    ///
    /// Frames of blocked states over generic solver queries; a proof prints an inductive invariant that
    /// `bsolve cbc FILE --invariant PRED` re-checks. Exit code: 0 proved, 1 counterexample, 2 unknown.
    Ic3 {
        file: PathBuf,
        /// Give up (UNKNOWN) when this many frames did not converge.
        #[arg(long, default_value_t = 64, value_name = "N")]
        max_frames: usize,
        #[command(flatten)]
        export: TraceExport,
    },
    /// Run a benchmark suite (default benchmarks/suite.csv) over several backends; print a table and write
    /// bench_results.csv and bench_results.md. Exit code 1 when some backend gave a wrong answer.
    Bench {
        /// The suite: CSV with columns name, model, command (first, all, count), expected, timeout_ms.
        suite: Option<PathBuf>,
        /// Comma-separated backends: native, brute, auto, kodkod (kodkod-cadical, kodkod-varisat to
        /// choose its SAT solver), z3; an unknown name gives a column of `unsupported`.
        #[arg(long, default_value = "native,brute", value_name = "LIST")]
        backends: String,
        /// Directory for bench_results.csv and bench_results.md.
        #[arg(long, default_value = "benchmarks", value_name = "DIR")]
        out: PathBuf,
        /// Runs of each case per backend (alternating); the table shows the run of median time.
        #[arg(long, default_value_t = 1, value_name = "N")]
        repeat: usize,
    },
}

/// `--itf FILE` of the commands that find counterexample traces.
#[derive(Args, Debug)]
struct TraceExport {
    /// Write the counterexample trace to FILE as JSON in Apalache's Informal Trace Format (ITF): one
    /// object per state with every variable. No file is written when there is no trace.
    #[arg(long, value_name = "FILE")]
    itf: Option<PathBuf>,
}

impl TraceExport {
    /// Fails before a check runs when FILE cannot be written there (no directory, or a directory).
    fn check_path(&self) -> Result<(), Diagnostic> {
        let Some(path) = &self.itf else {
            return Ok(());
        };
        let directory = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if path.is_dir() || !directory.is_dir() {
            return Err(Diagnostic::new(
                DiagKind::File,
                Span::default(),
                format!(
                    "cannot write the ITF trace to {}: {}",
                    path.display(),
                    if path.is_dir() {
                        "it is a directory"
                    } else {
                        "no such directory"
                    }
                ),
            ));
        }
        Ok(())
    }

    /// Writes `trace` to the --itf file, if one was asked; says on stderr when there is no trace to
    /// write (stdout keeps the report, one JSON object with --json).
    fn write(&self, model: &Model, trace: &[Step], description: &str) -> Result<(), Diagnostic> {
        let Some(path) = &self.itf else {
            return Ok(());
        };
        if trace.is_empty() {
            eprintln!("no counterexample trace: {} not written", path.display());
            return Ok(());
        }
        report::itf::write_itf(path, model, trace, description)
    }
}

/// The arguments of `ltl` and `ctl`.
#[derive(Args, Debug)]
struct TemporalArgs {
    file: PathBuf,
    /// The formula, e.g. "G ({x >= 0} => F e(reset))" or "AG EF {x = 0}".
    #[arg(conflicts_with = "assertions", required_unless_present = "assertions")]
    formula: Option<String>,
    /// Check the machine's ASSERT_LTL... (ltl) or ASSERT_CTL... (ctl) definitions.
    #[arg(long)]
    assertions: bool,
    /// Stop after this many states (shared by the formulas).
    #[arg(long)]
    max_states: Option<usize>,
}

const SUBCOMMANDS: &[&str] = &[
    "check",
    "eval",
    "setup-constants",
    "init",
    "mc",
    "simulate",
    "solve",
    "bench",
    "cbc",
    "cbc-deadlock",
    "cbc-assertions",
    "cbc-sequence",
    "bmc",
    "kinduction",
    "ic3",
    "ltl",
    "ctl",
    "help",
];

/// `bsolve --kodkod props.mch` (no subcommand) means `setup-constants`, as users type it with probcli habits.
pub fn normalise_args(mut args: Vec<String>) -> Vec<String> {
    let has_subcommand = args
        .iter()
        .skip(1)
        .any(|a| SUBCOMMANDS.contains(&a.as_str()));
    let has_flag_only = args
        .iter()
        .skip(1)
        .any(|a| a == "--help" || a == "-h" || a == "--version" || a == "-V");
    let has_machine = args.iter().skip(1).any(|a| is_machine_file(a));
    if !has_subcommand && !has_flag_only && has_machine {
        args.insert(1, "setup-constants".to_string());
    }
    args
}

fn is_machine_file(a: &str) -> bool {
    [".mch", ".ref", ".imp", ".sys"]
        .iter()
        .any(|ext| a.ends_with(ext))
}

/// Runs the command line and returns the exit code.
pub fn run(args: Vec<String>) -> i32 {
    if args.len() == 2 && (args[1] == "--version" || args[1] == "-V") {
        print_version();
        return 0;
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                Exit::BadInput as i32
            } else {
                0
            };
            let _ = e.print();
            return code;
        }
    };
    let json = cli.global.json;
    match dispatch(&cli) {
        Ok(exit) => exit as i32,
        Err(d) => {
            report::print_error(&d, json);
            report::exit_for(&d) as i32
        }
    }
}

/// `bsolve --version`: the version and the solvers this machine has (the SMT solvers are optional
/// processes, looked up on PATH).
fn print_version() {
    println!("bsolve {}", env!("CARGO_PKG_VERSION"));
    println!("solvers:");
    println!("  native propagation, brute-force enumeration: built in");
    println!("  SAT (--kodkod): CaDiCaL and varisat, built in");
    let mut settings = bsolve::eval::Settings::default();
    match solve::smt::solver_version(&settings) {
        Ok(v) => println!("  SMT (--z3): {v}"),
        Err(_) => println!(
            "  SMT (--z3): z3 not found. It is optional: without it, proofs over unbounded integers \
             and deferred sets of every size answer UNKNOWN. Install it with `apt install z3`."
        ),
    }
    let cvc5 = "cvc5 --lang smt2 --incremental";
    settings.smt_solver = Some(cvc5.into());
    match solve::smt::solver_version(&settings) {
        Ok(v) => println!("  SMT (--smt-solver): {v}"),
        Err(_) => println!(
            "  cvc5 not found (optional: `apt install cvc5`, then --smt-solver \"{cvc5}\")"
        ),
    }
}

/// Loads a machine for the rest of the process. bsolve runs one command and exits: freeing a large
/// machine's syntax tree, typed IR and caches node by node would only delay the exit (≈ 0.3 ms for a
/// 600-constant machine), so the model is never dropped.
fn load_model(file: &Path, options: &Options) -> Result<&'static Model, Diagnostic> {
    Model::load(file, options).map(kept)
}

/// See `load_model`: a value the process keeps until it exits.
fn kept<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn dispatch(cli: &Cli) -> Result<Exit, Diagnostic> {
    let g = &cli.global;
    let backend = check_backend(g)?;
    if backend == solve::Backend::Auto || matches!(cli.command, Command::Bench { .. }) {
        // The portfolio's threads start while the machine is read (a question asked before they run
        // waits for them: about 2 ms).
        solve::start_lanes();
    }
    let mut options = options(g)?;
    options.backend = backend;
    match &cli.command {
        Command::Check { file } => cmd_check(load_model(file, &options)?, g),
        Command::Eval { args } => {
            let (model, formula) = match args.as_slice() {
                [formula] => (kept(Model::empty(&options)?), formula),
                [file, formula] => (load_model(Path::new(file), &options)?, formula),
                _ => unreachable!("clap allows one or two arguments"),
            };
            start_clock(model, g);
            cmd_eval(model, formula, g)
        }
        Command::SetupConstants { file, all, n } => {
            let model = load_model(file, &options)?;
            start_clock(model, g);
            let limit = if *all {
                usize::MAX
            } else {
                n.unwrap_or(model.context.settings().max_initialisations)
            };
            cmd_setup(model, limit, g)
        }
        Command::Init { file, n } => {
            let model = load_model(file, &options)?;
            start_clock(model, g);
            let limit = n.unwrap_or(model.context.settings().max_initialisations);
            cmd_init(model, limit, g)
        }
        Command::Simulate {
            file,
            runs,
            depth,
            seed,
            guided,
            no_deadlock,
            export,
        } => {
            export.check_path()?;
            let model = load_model(file, &options)?;
            only_mc_keeps_the_state_constraint(model, "simulate")?;
            start_clock(model, g);
            let sim_options = SimulateOptions {
                runs: *runs,
                depth: *depth,
                seed: *seed,
                timeout: g.budget().duration(),
                guided: *guided,
                check_deadlock: !no_deadlock,
            };
            cmd_simulate(model, &sim_options, export, g)
        }
        Command::Mc {
            file,
            max_states,
            no_deadlock,
            all_deadlocks,
            no_inv,
            all_violations,
            no_assertions,
            bfs: _,
            dfs,
            workers,
            all_setups,
            reuse,
            por,
            symbolic,
            max_nodes,
            strategy,
            symmetry,
            full_count,
            export,
        } => {
            export.check_path()?;
            let model = load_model(file, &options)?;
            // The budget also bounds each constraint-solving call (a constant setup, an ANY).
            start_clock(model, g);
            let mc_options = McOptions {
                max_states: *max_states,
                timeout: g.budget().duration(),
                check_deadlock: !no_deadlock
                    && model
                        .tla
                        .as_ref()
                        .is_none_or(|t| t.check_deadlock && !t.assumptions_only),
                stop_at_deadlock: !all_deadlocks,
                check_invariant: !no_inv,
                stop_at_violation: !all_violations,
                check_assertions: !no_assertions,
                order: if *dfs {
                    SearchOrder::DepthFirst
                } else {
                    SearchOrder::BreadthFirst
                },
                workers: workers.map(|w| w as usize),
                progress: bsolve::check::progress::wanted(g.json),
                setup_symmetry: !all_setups,
                reuse: *reuse,
                por: *por,
                symbolic: *symbolic,
                max_nodes: *max_nodes,
                strategy: match strategy {
                    StrategyArg::Bfs => SymbolicStrategy::BreadthFirst,
                    StrategyArg::Chaining => SymbolicStrategy::Chaining,
                    StrategyArg::Saturation => SymbolicStrategy::Saturation,
                },
                symmetry: symmetry.map(|s| match s {
                    SymmetryArg::Canon => SymmetryMode::Canon,
                    SymmetryArg::Hash => SymmetryMode::Hash,
                }),
                // TLA+: an evaluation error is an error of the specification, as TLC reports it, not a
                // missing transition (`x' = x + 1` with a string `x` is no deadlock).
                stop_at_ill_defined: model.tla.is_some(),
            };
            cmd_mc(model, &mc_options, *full_count, export, g)
        }
        Command::Ltl(args) | Command::Ctl(args) => {
            let logic = if matches!(cli.command, Command::Ltl(_)) {
                temporal::Logic::Ltl
            } else {
                temporal::Logic::Ctl
            };
            let model = load_model(&args.file, &options)?;
            only_mc_keeps_the_state_constraint(model, "temporal checking")?;
            g.max_memory
                .unwrap_or(MemoryLimit::Default)
                .watch(&model.context);
            let sources = match &args.formula {
                Some(text) if !args.assertions => vec![temporal::command_line(text)],
                _ => temporal::assertions(model, logic)?,
            };
            let options = temporal::TemporalOptions {
                max_states: args.max_states,
                budget: g.budget(),
            };
            let results = temporal::check(model, logic, &sources, &options);
            Ok(report::temporal::print(model, logic, &results, g.json))
        }
        Command::Solve {
            file,
            pred,
            pred_file,
            offset,
            limit,
        } => match (pred, pred_file) {
            (Some(pred), _) => {
                let model = match file {
                    Some(file) => load_model(file, &options)?,
                    None => kept(Model::empty(&options)?),
                };
                cmd_solve(model, pred, g)
            }
            (None, Some(pred_file)) => {
                let items = solve_cmd::read_pred_file(pred_file, file.as_deref())?;
                let slice = items.iter().skip(*offset).take(limit.unwrap_or(usize::MAX));
                let mut out = std::io::stdout().lock();
                let solution_json = |model: &Model, solved: &solve_cmd::Solved, a: &_| {
                    Printer::new(model.machine(), &solved.free).assignment_json(a, None)
                };
                solve_cmd::run_pred_file(slice, &options, g.budget(), &solution_json, &mut out)?;
                Ok(Exit::Holds)
            }
            (None, None) => Err(usage("solve: give --pred or --pred-file".into())),
        },
        Command::Cbc { .. }
        | Command::CbcDeadlock { .. }
        | Command::CbcAssertions { .. }
        | Command::CbcSequence { .. }
        | Command::Bmc { .. }
        | Command::Kinduction { .. }
        | Command::Ic3 { .. } => cmd_symbolic(&cli.command, &options, g),
        Command::Bench {
            suite,
            backends,
            out,
            repeat,
        } => {
            let suite = suite
                .clone()
                .unwrap_or_else(|| PathBuf::from("benchmarks/suite.csv"));
            cmd_bench(&suite, backends, out, *repeat)
        }
    }
}

/// A TLC model file's CONSTRAINT bounds what `mc` keeps; the other checks would answer about the
/// unbounded specification, another question than TLC's: refused.
fn only_mc_keeps_the_state_constraint(model: &Model, what: &str) -> Result<(), Diagnostic> {
    match &model.machine().state_constraint {
        Some(c) => Err(Diagnostic::unsupported(
            c.span,
            format!("{what} under the model file's CONSTRAINT (only `mc` keeps to it)"),
        )),
        None => Ok(()),
    }
}

/// Starts the `--timeout` budget: every search of the command gives up when it is spent.
fn start_clock(model: &'static Model, g: &Global) {
    g.budget().start(&model.context, std::time::Instant::now());
    g.max_memory
        .unwrap_or(MemoryLimit::Default)
        .watch(&model.context);
}

/// The backend asked for (`--kodkod`, `--kodkod-only` and `--z3` are shorthands).
fn check_backend(g: &Global) -> Result<solve::Backend, Diagnostic> {
    let backend = if g.kodkod || g.kodkod_only {
        Backend::Kodkod
    } else if g.z3 {
        Backend::Z3
    } else {
        g.backend
    };
    Ok(match backend {
        Backend::Auto => solve::Backend::Auto,
        Backend::Brute => solve::Backend::Brute,
        Backend::Native => solve::Backend::Native,
        Backend::Kodkod => solve::Backend::Kodkod,
        Backend::Z3 => solve::Backend::Smt,
    })
}

fn options(g: &Global) -> Result<Options, Diagnostic> {
    let mut prefs = g
        .prefs
        .iter()
        .map(|p| split_assignment(p, "-p"))
        .collect::<Result<Vec<_>, _>>()?;
    prefs.extend(kodkod_prefs(g)?);
    prefs.extend(smt_prefs(g));
    let cards =
        g.card
            .iter()
            .map(|c| {
                let (set, n) = split_assignment(c, "--card")?;
                let n = n.parse::<u32>().ok().filter(|n| *n > 0).ok_or_else(|| {
                    usage(format!("--card {c}: the size must be a positive integer"))
                })?;
                Ok((set, n))
            })
            .collect::<Result<Vec<_>, Diagnostic>>()?;
    Ok(Options {
        prefs,
        cards,
        config: g.config.clone(),
        ..Options::default()
    })
}

/// `--kodkod-only`, `--sat-solver`, `--dump-cnf` as the preferences the kodkod backend reads. The dump
/// file is created here, so that an unwritable path is a usage error before any work.
fn kodkod_prefs(g: &Global) -> Result<Vec<(String, String)>, Diagnostic> {
    let mut prefs = Vec::new();
    if g.kodkod_only {
        prefs.push(("KODKOD_ONLY_FULL".into(), "TRUE".into()));
    }
    if let Some(name) = &g.sat_solver {
        if solver_bridges::SolverKind::parse(name).is_none() {
            return Err(usage(format!(
                "--sat-solver {name}: expected cadical or varisat"
            )));
        }
        prefs.push(("KODKOD_SAT_SOLVER".into(), name.clone()));
    }
    if let Some(path) = &g.dump_cnf {
        std::fs::File::create(path)
            .map_err(|e| usage(format!("--dump-cnf {}: cannot write: {e}", path.display())))?;
        prefs.push(("KODKOD_DUMP_CNF".into(), path.display().to_string()));
    }
    Ok(prefs)
}

/// `--smt-solver`, `--dump-smt` as the preferences the SMT backend reads.
fn smt_prefs(g: &Global) -> Vec<(String, String)> {
    let mut prefs = Vec::new();
    if let Some(cmd) = &g.smt_solver {
        prefs.push(("SMT_SOLVER".into(), cmd.clone()));
    }
    if let Some(file) = &g.dump_smt {
        prefs.push(("DUMP_SMT".into(), file.display().to_string()));
    }
    prefs
}

fn split_assignment(text: &str, option: &str) -> Result<(String, String), Diagnostic> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() && !value.is_empty() => {
            Ok((name.trim().into(), value.trim().into()))
        }
        _ => Err(usage(format!("{option} {text}: expected NAME=VALUE"))),
    }
}

fn usage(message: String) -> Diagnostic {
    Diagnostic::new(DiagKind::Usage, Span::default(), message)
}

fn cmd_check(model: &Model, g: &Global) -> Result<Exit, Diagnostic> {
    let m = model.machine();
    let typed = |list: &[bsolve::ir::TypedName]| -> Vec<(String, String)> {
        list.iter()
            .map(|t| (t.name.to_string(), t.ty.to_string()))
            .collect()
    };
    let sets: Vec<(String, String)> = m
        .sets
        .iter()
        .map(|set| {
            let elements = model
                .context
                .given_set(&set.name, set.span)
                .map_err(Diagnostic::from)?;
            Ok((
                set.name.to_string(),
                elements
                    .iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            ))
        })
        .collect::<Result<_, Diagnostic>>()?;
    let operations: Vec<String> = m
        .operations
        .iter()
        .map(|op| {
            let sig = |l: &[bsolve::ir::TypedName]| {
                l.iter()
                    .map(|p| format!("{}:{}", p.name, p.ty))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let outs = if op.outputs.is_empty() {
                String::new()
            } else {
                format!("{} <-- ", sig(&op.outputs))
            };
            let params = if op.params.is_empty() {
                String::new()
            } else {
                format!("({})", sig(&op.params))
            };
            format!("{outs}{}{params}", op.name)
        })
        .collect();
    if g.json {
        let pairs = |l: Vec<(String, String)>| {
            l.into_iter()
                .map(|(n, t)| json!({"name": n, "type": t}))
                .collect::<Vec<_>>()
        };
        let sets = sets
            .iter()
            .map(|(n, e)| json!({"name": n, "elements": e}))
            .collect::<Vec<_>>();
        println!(
            "{}",
            json!({
                "machine": m.name.to_string(),
                "sets": sets,
                "parameters": pairs(typed(&m.params)),
                "constants": pairs(typed(&m.constants)),
                "variables": pairs(typed(&m.variables)),
                "operations": operations,
            })
        );
    } else {
        println!("MACHINE {}", m.name);
        for (name, elements) in &sets {
            println!("  set       {name} = {{{elements}}}");
        }
        for (label, list) in [
            ("parameter", &m.params),
            ("constant", &m.constants),
            ("variable", &m.variables),
        ] {
            for (n, t) in typed(list) {
                println!("  {label:<9} {n} : {t}");
            }
        }
        for op in &operations {
            println!("  operation {op}");
        }
        println!("OK: parsed and type-checked");
    }
    Ok(Exit::Holds)
}

fn cmd_eval(model: &Model, formula: &str, g: &Global) -> Result<Exit, Diagnostic> {
    let result = evaluate::evaluate(model, formula)?;
    let printer = Printer::new(model.machine(), &result.free);
    let (answer, exit) = match &result.outcome {
        evaluate::EvalOutcome::Value(v, ty) => (display_with_type(v, ty), Exit::Holds),
        evaluate::EvalOutcome::Truth(true) => ("TRUE".to_string(), Exit::Holds),
        evaluate::EvalOutcome::Truth(false) => ("FALSE".to_string(), Exit::Counterexample),
        evaluate::EvalOutcome::Solution(Some(a), _) => (
            format!("TRUE\nsolution: {}", printer.assignment(a, None)),
            Exit::Holds,
        ),
        evaluate::EvalOutcome::Solution(None, true) => {
            ("FALSE (no solution)".to_string(), Exit::Counterexample)
        }
        evaluate::EvalOutcome::Solution(None, false) => (
            "UNKNOWN (no solution within MININT..MAXINT or the enumeration limits)".to_string(),
            Exit::Unknown,
        ),
        evaluate::EvalOutcome::Undefined(d) => (format!("UNDEFINED: {d}"), Exit::Unknown),
    };
    if g.json {
        let solution = match &result.outcome {
            evaluate::EvalOutcome::Solution(Some(a), _) => printer.assignment_json(a, None),
            _ => serde_json::Value::Null,
        };
        println!(
            "{}",
            json!({"answer": answer.lines().next(), "solution": solution, "constants": printer.assignment_json(&result.constants, None)})
        );
    } else {
        if g.verbose && !result.constants.is_empty() {
            println!("constants: {}", printer.assignment(&result.constants, None));
        }
        println!("{answer}");
    }
    Ok(exit)
}

fn cmd_setup(model: &Model, limit: usize, g: &Global) -> Result<Exit, Diagnostic> {
    print_settings(model, g);
    let result = match setup::setup_constants(model, limit) {
        Ok(r) => r,
        // A timeout or a resource limit: nothing is proved either way.
        Err(d) if matches!(d.kind, DiagKind::Limit | DiagKind::Unsupported) => {
            if g.json {
                println!(
                    "{}",
                    json!({"status": "UNKNOWN", "reason": solve_cmd::reason(&d), "location": d.span.to_string()})
                );
            } else {
                println!("UNKNOWN ({})", solve_cmd::reason(&d));
            }
            return Ok(Exit::Unknown);
        }
        Err(d) => return Err(d),
    };
    print_solver_stats(model, g);
    if result.solutions.is_empty() && result.complete {
        return report_no_constants(model, g, result.elapsed);
    }
    let printer = Printer::new(model.machine(), &[]);
    let exit = if result.solutions.is_empty() {
        Exit::Unknown
    } else {
        Exit::Holds
    };
    let status = match exit {
        Exit::Holds if result.limited => "SOLUTIONS (more may exist)",
        Exit::Holds if result.complete => "ALL SOLUTIONS",
        Exit::Holds => "SOLUTIONS (search incomplete: more may exist)",
        _ => "UNKNOWN (no solution found, search incomplete)",
    };
    let note = match exit {
        Exit::Unknown => model.context.take_unknown_note(),
        _ => None,
    };
    if g.json {
        let sols: Vec<_> = result
            .solutions
            .iter()
            .map(|s| printer.assignment_json(s, None))
            .collect();
        println!(
            "{}",
            json!({"status": status, "reason": note, "solutions": sols, "complete": result.complete, "time_ms": result.elapsed.as_millis() as u64})
        );
    } else {
        for (i, s) in result.solutions.iter().enumerate() {
            println!("solution {}: {}", i + 1, printer.assignment(s, None));
        }
        println!(
            "{status}: {} found in {} ms",
            result.solutions.len(),
            result.elapsed.as_millis()
        );
        if let Some(note) = note {
            println!("note: {note}");
        }
    }
    Ok(exit)
}

/// PROPERTIES proved unsatisfiable; with -v, the smallest failing group of conjuncts.
fn report_no_constants(model: &Model, g: &Global, elapsed: Duration) -> Result<Exit, Diagnostic> {
    let message = "no constants satisfy PROPERTIES";
    // Taken before the core's searches, which may note their own.
    let note = model.context.take_ill_defined_note();
    let core = if g.verbose {
        // Each deletion check gets the --timeout budget (default 2 s): the core is a courtesy, not a proof.
        let per_call = g.budget().chosen().unwrap_or(Duration::from_millis(2000));
        unsat_core::minimal_failing_conjuncts(model, per_call)
    } else {
        vec![]
    };
    if g.json {
        let core: Vec<_> = core
            .iter()
            .map(|p| json!({"location": p.span.to_string(), "text": unsat_core::source_text(p.span)}))
            .collect();
        println!(
            "{}",
            json!({"status": "NO SOLUTION", "message": message, "note": note, "complete": true, "solutions": [], "core": core, "time_ms": elapsed.as_millis() as u64})
        );
    } else {
        println!(
            "NO SOLUTION: {message} (exhaustive search, {} ms)",
            elapsed.as_millis()
        );
        if let Some(note) = &note {
            println!("note: {note}");
        }
        if g.verbose {
            println!("smallest failing group of conjuncts ({}):", core.len());
            for p in &core {
                println!("  {}: {}", p.span, unsat_core::source_text(p.span));
            }
        }
    }
    Ok(Exit::Counterexample)
}

fn cmd_init(model: &Model, limit: usize, g: &Global) -> Result<Exit, Diagnostic> {
    print_settings(model, g);
    let printer = Printer::new(model.machine(), &[]);
    let Some(result) = setup::initialise(model, limit)? else {
        let message = "no constant setup: no constants satisfy PROPERTIES";
        if g.json {
            println!(
                "{}",
                json!({"status": "NO CONSTANT SETUP", "message": message})
            );
        } else {
            println!("{message}");
        }
        return Ok(Exit::Counterexample);
    };
    let exit = if result.states.is_empty() {
        Exit::Counterexample
    } else {
        Exit::Holds
    };
    if g.json {
        let states: Vec<_> = result
            .states
            .iter()
            .map(|s| printer.assignment_json(s, None))
            .collect();
        println!(
            "{}",
            json!({"constants": printer.assignment_json(&result.constants, None), "initial_states": states, "time_ms": result.elapsed.as_millis() as u64})
        );
    } else {
        if !result.constants.is_empty() {
            println!(
                "SETUP_CONSTANTS: {}",
                printer.assignment(&result.constants, None)
            );
        }
        for s in &result.states {
            println!("INITIALISATION: {}", printer.assignment(s, None));
        }
        if result.states.is_empty() {
            println!("INITIALISATION is not executable");
        }
    }
    Ok(exit)
}

fn cmd_simulate(
    model: &Model,
    options: &SimulateOptions,
    export: &TraceExport,
    g: &Global,
) -> Result<Exit, Diagnostic> {
    print_settings(model, g);
    let result = bsolve::check::simulate::simulate(model, options)?;
    let printer = Printer::new(model.machine(), &[]);
    let cut = if result.timed_out {
        " (stopped at the time limit)"
    } else {
        ""
    };
    let (status, detail, exit) = match &result.verdict {
        SimVerdict::InvariantViolation(spans) => (
            "INVARIANT VIOLATION",
            format!(
                "invariant conjunct(s) at {} false, found by run {} of seed {}",
                spans
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                result.found_in_run.unwrap_or(0),
                options.seed
            ),
            Exit::Counterexample,
        ),
        SimVerdict::Deadlock => (
            "DEADLOCK",
            format!(
                "no operation is enabled, found by run {} of seed {}",
                result.found_in_run.unwrap_or(0),
                options.seed
            ),
            Exit::Counterexample,
        ),
        SimVerdict::NoErrorFound => (
            "NO ERROR FOUND IN THE RUNS",
            format!(
                "{} random runs of at most {} steps found no error{cut}; this proves nothing",
                result.runs, options.depth
            ),
            Exit::Unknown,
        ),
        SimVerdict::NoInitialState => (
            "NO INITIAL STATE",
            "no constant setup or no initial state to start from".to_string(),
            Exit::Counterexample,
        ),
    };
    let rate = result.steps as f64 / result.elapsed.as_secs_f64().max(1e-6);
    if g.json {
        let trace: Vec<_> = result.trace.iter().map(|s| printer.step_json(s)).collect();
        let report = json!({
            "status": status,
            "detail": detail,
            "runs": result.runs,
            "found_in_run": result.found_in_run,
            "steps": result.steps,
            "steps_per_second": rate.round(),
            "seed": options.seed,
            "time_ms": result.elapsed.as_millis() as u64,
            "trace": trace,
            "justification": if result.trace.is_empty() { "random runs" } else { "trace replayed by the interpreter" },
        });
        println!("{report}");
    } else {
        println!("{status}: {detail}");
        if !result.trace.is_empty() {
            report::text::print_trace(model, &printer, ", replayed", &result.trace);
        }
        println!(
            "runs: {}, steps: {}, time: {} ms, {rate:.0} steps/s",
            result.runs,
            result.steps,
            result.elapsed.as_millis()
        );
    }
    export.write(model, &result.trace, &format!("bsolve simulate: {status}"))?;
    Ok(exit)
}

/// TLC's count of distinct states: bsolve's states less the constant setups (TLC has no setup states;
/// a TLA+ machine has constants only for its recursive definitions), none when the model is only its
/// assumptions (bsolve then has one state, the empty valuation, where it checks them).
fn tlc_states(model: &Model, result: &McResult) -> usize {
    if model.tla.as_ref().is_some_and(|t| t.assumptions_only) {
        0
    } else {
        result.states - result.setups
    }
}

/// The dependency matrix of `mc --symbolic --json`: per operation its read, write and must-write sets
/// (`before_after::read_write`; None where they are not exact), and its guard conjuncts with their
/// reads (`guard_split`).
fn dependency_matrix(m: &bsolve::ir::Machine) -> serde_json::Value {
    use bsolve::analysis::{before_after, guard_split};
    let rows = m.operations.iter().map(|op| {
        let names = |s: &std::collections::BTreeSet<bsolve::syntax::ast::Name>| {
            s.iter().map(|n| n.to_string()).collect::<Vec<_>>()
        };
        let rw = before_after::exact_read_write(m, op);
        let guards = guard_split::guard_conjuncts(m, op)
            .into_iter()
            .map(|g| json!({"reads": names(&g.reads), "parameter_free": g.parameter_free}))
            .collect::<Vec<_>>();
        json!({
            "operation": op.name.to_string(),
            "exact": rw.is_some(),
            "reads": rw.as_ref().map(|rw| names(&rw.reads)),
            "writes": rw.as_ref().map(|rw| names(&rw.writes)),
            "must_writes": rw.as_ref().map(|rw| names(&rw.must_writes)),
            "guards": guards,
        })
    });
    serde_json::Value::Array(rows.collect())
}

fn cmd_mc(
    model: &Model,
    options: &McOptions,
    full_count: bool,
    export: &TraceExport,
    g: &Global,
) -> Result<Exit, Diagnostic> {
    print_settings(model, g);
    let result = if options.symbolic {
        bsolve::check::reach::symbolic_model_check(model, options)?
    } else {
        symmetric_mc::model_check(model, options)?
    };
    // Symmetry markers may merge states of different orbits: an exploration without error under them
    // is no proof.
    let markers = result
        .symmetry
        .as_ref()
        .is_some_and(|s| s.mode == SymmetryMode::Hash && s.not_applied.is_none());
    let printer = Printer::new(model.machine(), &[]);
    let notes = model.tla.as_ref().map_or(&[][..], |t| &t.notes[..]);
    let (mut status, detail, mut exit) = match &result.verdict {
        // Nothing is proved beyond the values enumerated: no plain "NO ERROR FOUND" then.
        Verdict::NoErrorFound if result.partial_enumeration => (
            "NO ERROR FOUND IN THE EXPLORED PART".to_string(),
            "every state reached was explored, but some operation parameters, ANY or `:(P)` \
             values, initial values or constants were enumerated only in part (up to MAX_OPERATIONS, \
             within MININT..MAXINT or as a few sample strings): states reached only through the other \
             values were not explored"
                .to_string(),
            Exit::Unknown,
        ),
        Verdict::NoErrorFound if result.initialisations_cut => (
            "NO ERROR FOUND IN THE EXPLORED PART".to_string(),
            format!(
                "every state reached was explored, but there are more constant setups or initial \
                 states than MAX_INITIALISATIONS = {}, and the others were left out as ProB leaves \
                 them (-p MAX_INITIALISATIONS=N to raise it)",
                model.context.settings().max_initialisations
            ),
            Exit::Unknown,
        ),
        Verdict::NoErrorFound if markers => (
            "NO ERROR FOUND IN THE EXPLORED PART".to_string(),
            "all states explored up to symmetry markers (--symmetry hash), which may merge states of \
             different orbits: states may have been missed"
                .to_string(),
            Exit::Unknown,
        ),
        Verdict::NoErrorFound => (
            "NO ERROR FOUND".to_string(),
            "all states explored".to_string(),
            Exit::Holds,
        ),
        Verdict::Incomplete(why) => (
            "UNKNOWN".to_string(),
            format!("exploration incomplete: {why}"),
            Exit::Unknown,
        ),
        // As in ProB, an ill-defined operation instance yields no transition: the state may be a
        // deadlock only because of one, which the user must be told.
        Verdict::Deadlock if result.ill_defined_operations > 0 => (
            "DEADLOCK".to_string(),
            format!(
                "no operation is enabled; {} operation instance(s), invariant(s) or assertion(s) \
                 were ill-defined during the search and yield no transition (ProB's rule), so an \
                 ill-defined operation may be what left this state without successors",
                result.ill_defined_operations
            ),
            Exit::Counterexample,
        ),
        Verdict::Deadlock => (
            "DEADLOCK".to_string(),
            "no operation is enabled".to_string(),
            Exit::Counterexample,
        ),
        Verdict::InvariantViolation(span) => (
            "INVARIANT VIOLATION".to_string(),
            format!("invariant conjunct at {span} is false"),
            Exit::Counterexample,
        ),
        Verdict::AssertionViolation(span) => (
            "ASSERTION VIOLATION".to_string(),
            format!("assertion at {span} is false"),
            Exit::Counterexample,
        ),
        Verdict::NoConstantSetup { complete: true } => (
            "NO CONSTANT SETUP".to_string(),
            match model.context.take_ill_defined_note() {
                Some(note) => format!("no constants satisfy PROPERTIES ({note})"),
                None => "no constants satisfy PROPERTIES".to_string(),
            },
            Exit::Counterexample,
        ),
        Verdict::NoConstantSetup { complete: false } => (
            "UNKNOWN".to_string(),
            "no constant setup found (search incomplete)".to_string(),
            Exit::Unknown,
        ),
        Verdict::NoInitialisation => (
            "NO INITIALISATION".to_string(),
            "INITIALISATION is not executable".to_string(),
            Exit::Counterexample,
        ),
        Verdict::WellDefinedness(d) => (
            "WELL-DEFINEDNESS ERROR".to_string(),
            d.to_string(),
            Exit::Counterexample,
        ),
        Verdict::IllDefinedOperations { first, count } => (
            "WELL-DEFINEDNESS ERROR".to_string(),
            format!(
                "all states explored, no deadlock and no invariant violation, but {count} operation \
                 instance(s), invariant(s) or assertion(s) are ill-defined; the trace leads to the \
                 first: {first}"
            ),
            Exit::Counterexample,
        ),
    };
    // A TLA+ model file's temporal properties (or an assumption bsolve cannot lower) are not checked: "no
    // error" then covers only the invariants, assumptions and deadlock, no proof of the whole model (exit 2).
    let unchecked = model.tla.as_ref().is_some_and(|t| t.unchecked);
    if matches!(exit, Exit::Holds) && unchecked {
        status = "NO ERROR FOUND (NOT ALL CHECKED)".to_string();
        exit = Exit::Unknown;
    }
    if g.json {
        let trace: Vec<_> = result.trace.iter().map(|s| printer.step_json(s)).collect();
        let mut report = json!({
                "status": status,
                "detail": detail,
                "states": result.states,
                "transitions": result.transitions,
                "processed": result.processed,
                "partial_enumeration": result.partial_enumeration,
                "initialisations_cut": result.initialisations_cut,
                "ill_defined_operations": result.ill_defined_operations,
                "deadlocked_states": result.deadlocked_states,
                "violating_states": result.violating_states,
                "state_checks": result.state_checks,
                "exploration_complete": result.explored_all,
                "setups_up_to_symmetry": result.setups_up_to_symmetry,
                "time_ms": result.elapsed.as_millis() as u64,
                "peak_memory_kib": result.peak_memory_kib,
                "cpu_ms": result.cpu_time.map(|t| t.as_millis() as u64),
                "trace": trace,
                "justification": if result.trace.is_empty() { "exhaustive exploration" } else { "trace found by the interpreter" },
        });
        if model.tla.is_some() {
            // A TLA+ machine has no constants: its states are TLC's distinct states.
            report["distinct_states"] = json!(tlc_states(model, &result));
            report["not_checked"] = json!(notes);
        }
        if let Some(stats) = result.reuse {
            report["next_state_calls"] = json!(stats.next_state_calls);
            report["reuse_hits"] = json!(stats.hits);
        }
        if let Some(stats) = &result.symbolic {
            report["symbolic"] = json!({
                "strategy": stats.strategy.name(),
                "levels": stats.levels,
                "trace_shortest": stats.trace_shortest,
                "next_state_calls": stats.next_state_calls,
                "reused": stats.reused,
                "check_calls": stats.check_calls,
                "ldd_nodes": stats.ldd_nodes,
                "max_nodes": stats.max_nodes,
                "ldd_cache_hits": stats.ldd_cache_hits,
                "matrix": dependency_matrix(model.machine()),
            });
        }
        if let Some(por) = &result.por {
            report["por"] = json!({
                "applied": por.not_applied.is_none(),
                "not_applied_because": por.not_applied,
                "reduced_states": por.reduced_states,
                "proviso_states": por.proviso_states,
            });
        }
        if let Some(sym) = &result.symmetry {
            let applied = sym.not_applied.is_none();
            report["symmetry"] = json!({
                "mode": match sym.mode { SymmetryMode::Canon => "canon", SymmetryMode::Hash => "hash" },
                "applied": applied,
                "not_applied_because": sym.not_applied,
                "sets": sym.sets.iter().map(|(n, k)| json!({"set": n, "size": k})).collect::<Vec<_>>(),
                "counts": if applied { "orbits: states and transitions of the quotient under symmetry" } else { "states" },
                "orbits": applied.then_some(result.states),
                "full_states": sym.full_states.map(|n| n.to_string()),
                "full_transitions": sym.full_transitions.map(|n| n.to_string()),
                "inexact_states": sym.inexact_states,
                "may_miss_states": applied && sym.mode == SymmetryMode::Hash,
            });
        }
        println!("{report}");
    } else {
        println!("{status}: {detail}");
        if !result.trace.is_empty() {
            report::text::print_trace(model, &printer, "", &result.trace);
        }
        let counted = match &result.symmetry {
            Some(s) if s.not_applied.is_none() => "orbits under symmetry",
            _ => "ProB's count",
        };
        println!(
            "states: {}, transitions: {} ({counted}), processed: {}, time: {} ms",
            result.states,
            result.transitions,
            result.processed,
            result.elapsed.as_millis()
        );
        if model.tla.is_some() {
            // No constants, no setup states: every state counted is a distinct state of TLC's.
            println!(
                "distinct states: {} (TLC's count)",
                tlc_states(model, &result)
            );
        }
        for note in notes {
            println!("not checked: {note}");
        }
        if let Some(stats) = result.reuse {
            println!(
                "next-state calls: {} (operation evaluations), reused: {}",
                stats.next_state_calls, stats.hits
            );
        }
        if let Some(stats) = &result.symbolic {
            if !result.trace.is_empty() && !stats.trace_shortest {
                println!(
                    "trace: a shortest path over the transitions learned when the error was found, \
                     not necessarily a shortest counterexample ({} explores out of breadth-first \
                     order; --strategy bfs gives a shortest one)",
                    stats.strategy.name()
                );
            }
            println!(
                "symbolic ({}): {} {}, next-state calls: {} (reused for {} state-operation pairs), \
                 invariant evaluations: {}, LDD nodes: {} of {}, LDD cache hits: {}, peak memory: {}",
                stats.strategy.name(),
                stats.levels,
                if stats.strategy == SymbolicStrategy::BreadthFirst {
                    "levels"
                } else {
                    "rounds"
                },
                stats.next_state_calls,
                stats.reused,
                stats.check_calls,
                stats.ldd_nodes,
                stats.max_nodes,
                stats.ldd_cache_hits,
                result
                    .peak_memory_kib
                    .map_or("unknown".to_string(), |k| format!("{k} KiB")),
            );
        }
        if let Some(por) = &result.por {
            match &por.not_applied {
                None => println!(
                    "partial-order reduction: the counts are those of the reduced state space ({} \
                     states expanded with a stubborn subset of their operations, {} expanded fully by \
                     the cycle proviso)",
                    por.reduced_states, por.proviso_states
                ),
                Some(why) => println!(
                    "partial-order reduction not applied, every state expanded fully: {why}"
                ),
            }
        }
        if let Some(sym) = &result.symmetry {
            print_symmetry(sym, &result, full_count);
        }
        if result.setups_up_to_symmetry {
            println!(
                "constant setups: one per class of permutations of deferred-set elements (ProB's \
                 counting; --all-setups for every setup)"
            );
        }
        let explored =
            if result.explored_all && !result.partial_enumeration && !result.initialisations_cut {
                "all states explored"
            } else {
                "in the part explored"
            };
        if !options.stop_at_deadlock {
            println!(
                "deadlocked states: {} ({explored})",
                result.deadlocked_states
            );
        }
        if !options.stop_at_violation {
            println!(
                "states violating the invariant or an assertion: {} ({explored})",
                result.violating_states
            );
        }
        if g.verbose
            && let Some(cpu) = result.cpu_time
        {
            println!("cpu time: {} ms (all threads)", cpu.as_millis());
        }
        if g.verbose
            && let Some(kib) = result.peak_memory_kib
        {
            println!(
                "peak memory: {} KiB ({:.0} bytes per state)",
                kib,
                kib as f64 * 1024.0 / result.states.max(1) as f64
            );
        }
    }
    export.write(model, &result.trace, &format!("bsolve mc: {status}"))?;
    Ok(exit)
}

/// The symmetry lines of `mc`'s text report.
fn print_symmetry(sym: &SymmetryStats, result: &McResult, full_count: bool) {
    let (states, transitions) = (result.states, result.transitions);
    if let Some(why) = &sym.not_applied {
        println!("symmetry reduction not applied, every state explored: {why}");
        return;
    }
    let sets: Vec<String> = sym.sets.iter().map(|(n, k)| format!("{n} ({k})")).collect();
    match sym.mode {
        SymmetryMode::Canon => println!(
            "symmetry reduction (canon) over {}: the counts are orbit counts ({states} orbits, \
             {transitions} transitions between them)",
            sets.join(", ")
        ),
        SymmetryMode::Hash => println!(
            "symmetry reduction (hash markers) over {}: the counts are of marker classes ({states} \
             states, {transitions} transitions); states of different orbits may share a marker, so \
             states may have been missed",
            sets.join(", ")
        ),
    }
    if sym.inexact_states > 0 {
        println!(
            "{} states had too many permutations to canonicalise exactly: an orbit may be counted \
             more than once",
            sym.inexact_states
        );
    }
    if full_count {
        match (sym.full_states, sym.full_transitions) {
            (Some(s), Some(t)) => println!(
                "full count: {s} states, {t} transitions (each orbit counted by its distinct states{})",
                if result.explored_all {
                    ""
                } else {
                    "; of the part explored"
                }
            ),
            _ => println!(
                "full count: not available (an orbit's size is unknown: hash markers, or a state \
                 not canonicalised exactly)"
            ),
        }
    }
}

fn cmd_solve(model: &Model, pred: &str, g: &Global) -> Result<Exit, Diagnostic> {
    print_settings(model, g);
    let solved = solve_cmd::solve_predicate(model, "<predicate>", pred, g.budget())?;
    let printer = Printer::new(model.machine(), &solved.free);
    let (answer, reason, exit) = match &solved.decision {
        solve_cmd::Decision::Sat(_) => ("sat", None, Exit::Holds),
        solve_cmd::Decision::Unsat => ("unsat", solved.note.as_deref(), Exit::Counterexample),
        solve_cmd::Decision::Unknown(r) => ("unknown", Some(r.as_str()), Exit::Unknown),
    };
    if g.json {
        let mut line = json!({
            "answer": answer,
            "ms": (solved.elapsed.as_secs_f64() * 1e6).round() / 1e3,
            "reason": reason,
        });
        if let solve_cmd::Decision::Sat(a) = &solved.decision {
            line["solution"] = printer.assignment_json(a, None);
        }
        println!("{line}");
        return Ok(exit);
    }
    match &solved.decision {
        solve_cmd::Decision::Sat(a) => {
            println!("SAT");
            for (name, value) in a {
                let one = vec![(name.clone(), value.clone())];
                println!("  {}", printer.assignment(&one, None));
            }
        }
        solve_cmd::Decision::Unsat => println!("UNSAT"),
        solve_cmd::Decision::Unknown(r) => println!("UNKNOWN ({r})"),
    }
    if let Some(note) = &solved.note {
        println!("note: {note}");
    }
    if g.verbose {
        eprintln!("time: {:.1} ms", solved.elapsed.as_secs_f64() * 1000.0);
    }
    print_solver_stats(model, g);
    Ok(exit)
}

fn cmd_bench(suite: &Path, backends: &str, out: &Path, repeat: usize) -> Result<Exit, Diagnostic> {
    let cases = bench::read_suite(suite)?;
    let backends: Vec<bench::BenchBackend> = backends
        .split(',')
        .map(str::trim)
        .filter(|b| !b.is_empty())
        .map(bench::BenchBackend::parse)
        .collect();
    if backends.is_empty() {
        return Err(usage("--backends: name at least one backend".into()));
    }
    let mut rows = Vec::with_capacity(cases.len());
    for case in &cases {
        // One case at a time, printed as it ends: a long suite shows progress.
        let row = bench::run_suite(std::slice::from_ref(case), &backends, repeat);
        let cells: Vec<String> = row[0]
            .outcomes
            .iter()
            .map(|(b, o)| format!("{b}: {}", bench::cell(o)))
            .collect();
        eprintln!("{}: {}", case.name, cells.join(", "));
        rows.extend(row);
    }
    let table = bench::table(&rows, &backends);
    print!("{}", bench::render_text(&table));
    let file_error = |path: &Path, e: std::io::Error| {
        Diagnostic::new(
            DiagKind::File,
            Span::default(),
            format!("{}: {e}", path.display()),
        )
    };
    std::fs::create_dir_all(out).map_err(|e| file_error(out, e))?;
    let csv_path = out.join("bench_results.csv");
    std::fs::write(&csv_path, bench::render_csv(&rows)?).map_err(|e| file_error(&csv_path, e))?;
    let md_path = out.join("bench_results.md");
    std::fs::write(&md_path, bench::render_markdown(&table))
        .map_err(|e| file_error(&md_path, e))?;
    Ok(if rows.iter().any(bench::Row::any_wrong) {
        Exit::Counterexample
    } else {
        Exit::Holds
    })
}

/// With -v: the solver's effort, and the solutions a backend proposed that the interpreter rejected (each
/// one a backend bug; the answer is then not claimed complete).
fn print_solver_stats(model: &Model, g: &Global) {
    if g.verbose && !g.json {
        let (nodes, rejected) = model.context.solver_stats();
        eprintln!("solver: {nodes} search nodes, {rejected} solutions rejected by the re-check");
        let sat = solve::kodkod::report();
        if sat.translated + sat.fallbacks > 0 {
            eprintln!(
                "kodkod: {} problems by SAT ({}), {} handed to native; {} variables, {} clauses, {} conflicts, {} SAT calls; translation {:.1?}, SAT {:.1?}",
                sat.translated,
                sat.solver,
                sat.fallbacks,
                sat.vars,
                sat.clauses,
                sat.conflicts,
                sat.solve_calls,
                sat.translate_time,
                sat.solve_time
            );
            if let Some(why) = &sat.last_unsupported {
                eprintln!("kodkod: last untranslated construct: {why}");
            }
        }
    }
}

/// With -v: the limits that can change a verdict (ARCHITECTURE: no silent bounds).
fn print_settings(model: &Model, g: &Global) {
    if g.verbose && !g.json {
        let s = model.context.settings();
        eprintln!(
            "settings: MAXINT={} MININT={} DEFAULT_SETSIZE={} MAX_INITIALISATIONS={} MAX_OPERATIONS={}",
            s.maxint, s.minint, s.default_setsize, s.max_initialisations, s.max_operations
        );
        if s.backend == solve::Backend::Smt {
            match solve::smt::solver_version(s) {
                Ok(v) => eprintln!("SMT solver: {v}"),
                Err(e) => eprintln!("SMT solver: unavailable ({e})"),
            }
        }
    }
}

/// The symbolic checks (check::cbc, check::bmc, check::kinduction), reported by report::symbolic.
fn cmd_symbolic(command: &Command, options: &Options, g: &Global) -> Result<Exit, Diagnostic> {
    use bsolve::check::progress::{self, Event, Reporter};
    use bsolve::check::{bmc, cbc, ic3, kinduction};
    use bsolve::report::symbolic;
    let load = |file: &Path| -> Result<&'static Model, Diagnostic> {
        let model = load_model(file, options)?;
        only_mc_keeps_the_state_constraint(model, "a symbolic check")?;
        print_settings(model, g);
        start_clock(model, g);
        Ok(model)
    };
    match command {
        Command::Cbc {
            file,
            operation,
            invariant,
        } => {
            let model = load(file)?;
            // Each verdict is printed as soon as it is known, under a spinner naming the check.
            let mut report = symbolic::CbcReport::new(model, g.json);
            let progress = Reporter::new(progress::wanted(g.json), "cbc");
            let checked = cbc::invariant_preservation_of(
                model,
                operation.as_deref(),
                invariant.as_deref(),
                &mut |event| match event {
                    cbc::CbcEvent::Started {
                        operation,
                        index,
                        total,
                    } => progress.report(Event::Asking(&format!(
                        "{operation} ({}/{total})",
                        index + 1
                    ))),
                    cbc::CbcEvent::Done(check) => progress.suspend(|| report.add(check)),
                },
            );
            progress.finish();
            checked?;
            Ok(report.finish())
        }
        Command::CbcDeadlock { file, pred } => {
            let model = load(file)?;
            let (outcome, elapsed) = cbc::deadlock(model, pred.as_deref())?;
            Ok(symbolic::deadlock(model, &outcome, elapsed, g.json))
        }
        Command::CbcAssertions { file, proof } => {
            let model = load(file)?;
            let start = std::time::Instant::now();
            let (checks, on_state) = cbc::assertions(model)?;
            Ok(symbolic::assertions(
                model,
                &checks,
                on_state,
                *proof,
                start.elapsed(),
                g.json,
            ))
        }
        Command::CbcSequence { file, operations } => {
            let model = load(file)?;
            let (outcome, elapsed) = cbc::sequence(model, operations)?;
            Ok(symbolic::sequence(model, &outcome, elapsed, g.json))
        }
        Command::Bmc {
            args,
            deadlock,
            export,
        } => {
            let (file, depth) = file_and_depth(args)?;
            export.check_path()?;
            let model = load(&file)?;
            let target = if *deadlock {
                bmc::Target::Deadlock
            } else {
                bmc::Target::InvariantViolation
            };
            let progress = Reporter::new(progress::wanted(g.json), "bmc");
            let result = bmc::bmc_with_events(model, depth, target, &mut |e| progress.report(e));
            progress.finish();
            let result = result?;
            let exit = symbolic::bmc(model, &result, target, g.json);
            export.write(model, result.trace(), "bsolve bmc: counterexample")?;
            Ok(exit)
        }
        Command::Kinduction {
            file,
            max_k,
            no_simple_path,
            export,
        } => {
            export.check_path()?;
            let model = load(file)?;
            let progress = Reporter::new(progress::wanted(g.json), "kinduction");
            let result =
                kinduction::kinduction_with_events(model, *max_k, !*no_simple_path, &mut |e| {
                    progress.report(e)
                });
            progress.finish();
            let result = result?;
            let exit = symbolic::kinduction(model, &result, g.json);
            export.write(model, result.trace(), "bsolve kinduction: counterexample")?;
            Ok(exit)
        }
        Command::Ic3 {
            file,
            max_frames,
            export,
        } => {
            export.check_path()?;
            let model = load(file)?;
            // IC3's frames are refined back and forth: the spinner shows that it runs, not a step.
            let progress = Reporter::new(progress::wanted(g.json), "ic3");
            let result = ic3::ic3(model, *max_frames);
            progress.finish();
            let result = result?;
            let exit = symbolic::ic3(model, &result, g.json);
            export.write(model, result.trace(), "bsolve ic3: counterexample")?;
            Ok(exit)
        }
        _ => unreachable!("cmd_symbolic is called for the symbolic checks only"),
    }
}

/// `bmc FILE DEPTH` or `bmc DEPTH FILE`: the depth is the argument that is an integer and not an existing
/// file; it must be positive.
fn file_and_depth(args: &[String]) -> Result<(PathBuf, usize), Diagnostic> {
    let is_depth = |a: &String| a.parse::<i64>().is_ok() && !Path::new(a).exists();
    let (file, depth) = match args {
        [a, b] if is_depth(b) => (a, b),
        [a, b] if is_depth(a) => (b, a),
        _ => {
            return Err(usage(format!(
                "bmc: expected FILE DEPTH, got `{}` (DEPTH must be an integer)",
                args.join(" ")
            )));
        }
    };
    match depth.parse::<i64>() {
        Ok(d) if d > 0 => Ok((PathBuf::from(file), d as usize)),
        _ => Err(usage(format!(
            "bmc: DEPTH must be a positive number of operations, got {depth}"
        ))),
    }
}
