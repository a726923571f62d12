//! `bsolve mc`: explicit-state model checking over the interpreter (the brute-force successor function).
//!
//! The state graph follows ProB's counting convention so that our figures can be compared with the corpus:
//! an artificial root node; for machines with constants or parameters one node per constant setup, reached
//! from the root by a SETUP_CONSTANTS transition; the initialised states, reached from their setup node (or
//! the root) by INITIALISATION transitions; then operation transitions. `states` counts every node except
//! the root, `transitions` every distinct edge (SETUP_CONSTANTS and INITIALISATION included). The corpus
//! fixes this: B/Benchmarks/scheduler.mch has 35 reachable states and 120 operation transitions, recorded
//! as 35 / 121; Hanoi6 has 729 states and one setup, recorded as 730. MAX_INITIALISATIONS bounds the setups
//! and the initial states per setup, MAX_OPERATIONS the enablings per operation and state, as in ProB.

use super::Model;
use super::invariant_memo::InvariantMemo;
use super::setup::{Assignment, constant_names};
use super::stubborn::{Enabled, Stubborn};
use super::symmetry::{Group, SymmetricSets, SymmetryMode, symmetric_sets};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::{Env, ReuseCache, ReuseStats, State, Successors, Transition};
use crate::ir::Pred;
use crate::solve::Symmetry;
use crate::syntax::ast::Name;
use crate::value::Value;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::collections::hash_map::Entry;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The stack of each `--workers` thread (address space reserved, touched only as deep as used).
const WORKER_STACK_BYTES: usize = 256 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOrder {
    BreadthFirst,
    DepthFirst,
}

/// The order in which `mc --symbolic` applies its transition groups (`check::reach::strategy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SymbolicStrategy {
    /// Every group on the same frontier, level by level (shortest counterexamples).
    #[default]
    BreadthFirst,
    /// LTSmin's chaining: within a round, each group on the states the previous groups reached.
    Chaining,
    /// Ciardo's saturation, simplified: groups by their topmost slot, deepest first, each applied until
    /// it finds nothing new, and the deeper ones again after any that found new states.
    Saturation,
}

impl SymbolicStrategy {
    pub fn name(self) -> &'static str {
        match self {
            SymbolicStrategy::BreadthFirst => "bfs",
            SymbolicStrategy::Chaining => "chaining",
            SymbolicStrategy::Saturation => "saturation",
        }
    }
}

#[derive(Clone, Debug)]
pub struct McOptions {
    /// Stop after this many nodes (root included).
    pub max_states: Option<usize>,
    pub timeout: Option<Duration>,
    pub check_deadlock: bool,
    /// Stop at the first deadlock (the default). When false, deadlocks are counted and the exploration
    /// goes on: the verdict is still the first deadlock found, with its trace, and the counts are those
    /// of the whole state space (or of the part explored before another error or a limit stopped it).
    pub stop_at_deadlock: bool,
    pub check_invariant: bool,
    /// Stop at the first invariant or assertion violation (the default). When false, violating states
    /// are counted and expanded like the others: the verdict and trace are still those of the first
    /// error found, and the counts those of the whole state space (ProB's recorded corpus runs went on
    /// past violations: B/Benchmarks/tictac.mch 6,046 states, B/Demo/GCD.mch 13 / 144).
    pub stop_at_violation: bool,
    pub check_assertions: bool,
    pub order: SearchOrder,
    /// Threads expanding states (None: one per core).
    pub workers: Option<usize>,
    /// Show a progress bar (states, transitions, queue, states/s) on stderr.
    pub progress: bool,
    /// Take constant setups one per class of permutations of the deferred sets' elements where ProB's
    /// rules apply (`solve::Symmetry::ProbSetups`), as ProB's model checker counts them; otherwise every
    /// setup. Verdicts are the same either way (B cannot tell the elements apart); counts differ.
    pub setup_symmetry: bool,
    /// Rebuild an operation's transitions from those found in an earlier state with the same values of
    /// the variables it reads and writes (`eval::ReuseCache`), instead of evaluating it again.
    pub reuse: bool,
    /// Partial-order reduction (`check::stubborn`): expand a stubborn set of the enabled operations
    /// where one exists; deadlocks and invariant and assertion violations are preserved, counts are those
    /// of the reduced state space.
    pub por: bool,
    /// Symbolic reachability over list decision diagrams (`check::reach`) instead of the explicit
    /// search; at most this many LDD nodes (None: sized from the memory available).
    pub symbolic: bool,
    pub max_nodes: Option<usize>,
    /// With `symbolic`: the order in which the transition groups are applied.
    pub strategy: SymbolicStrategy,
    /// Symmetry reduction (`check::symmetry`): one node per orbit of the permutations of the deferred
    /// sets' free elements; verdicts are preserved, counts are of orbits (`McResult::symmetry` has the
    /// full counts where every orbit's size is known).
    pub symmetry: Option<SymmetryMode>,
    /// An ill-defined operation instance, invariant or assertion ends the search with that error, as an
    /// evaluation error stops TLC. When false (ProB's rule) it is noted, yields no transition or
    /// violation, and the search goes on.
    pub stop_at_ill_defined: bool,
}

impl Default for McOptions {
    fn default() -> Self {
        McOptions {
            max_states: None,
            timeout: None,
            check_deadlock: true,
            stop_at_deadlock: true,
            check_invariant: true,
            stop_at_violation: true,
            check_assertions: true,
            order: SearchOrder::BreadthFirst,
            workers: None,
            progress: false,
            setup_symmetry: true,
            reuse: false,
            por: false,
            symbolic: false,
            max_nodes: None,
            strategy: SymbolicStrategy::BreadthFirst,
            symmetry: None,
            stop_at_ill_defined: false,
        }
    }
}

/// What the model checker found.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// The whole state space (within MAX_INITIALISATIONS / MAX_OPERATIONS) was explored without error.
    NoErrorFound,
    /// The exploration was cut (max states or timeout) before an error was found.
    Incomplete(String),
    Deadlock,
    /// The invariant is false in the last state of the trace; the failing conjunct's text position.
    InvariantViolation(Span),
    /// An ASSERTIONS predicate is false in the last node of the trace.
    AssertionViolation(Span),
    /// PROPERTIES (with CONSTRAINTS) have no solution: there is no state at all.
    NoConstantSetup {
        complete: bool,
    },
    /// No initial state: INITIALISATION cannot be executed from the (last) setup.
    NoInitialisation,
    /// Evaluating something in the last node of the trace was ill-defined.
    WellDefinedness(Diagnostic),
    /// The whole state space was explored without deadlock or invariant violation, but some operation
    /// instances, invariants or assertions were ill-defined (the trace leads to the state of the first,
    /// `first`). As in ProB, an ill-defined operation instance yields no transition, an ill-defined
    /// invariant or assertion is not a violation, and the exploration goes on.
    IllDefinedOperations {
        first: Diagnostic,
        count: usize,
    },
}

/// One step of a counterexample trace.
#[derive(Clone, Debug)]
pub struct Step {
    /// `SETUP_CONSTANTS`, `INITIALISATION` or the operation name.
    pub label: String,
    pub params: Assignment,
    pub outputs: Assignment,
    /// Constants (after SETUP_CONSTANTS) or variables (after other steps) whose value changed.
    pub changed: Assignment,
}

pub struct McResult {
    pub verdict: Verdict,
    /// Steps from the root to the node where the error was found (empty when no error).
    pub trace: Vec<Step>,
    /// Nodes found, the root excluded (ProB's count).
    pub states: usize,
    pub transitions: usize,
    /// Nodes whose successors were computed.
    pub processed: usize,
    /// Some operation's parameters were enumerated only partly (MAX_OPERATIONS, or an unbounded integer
    /// searched within MININT..MAXINT): "no error found" then holds for the explored part only.
    pub partial_enumeration: bool,
    /// More constant setups or initial states exist than MAX_INITIALISATIONS: the others were left
    /// out, as ProB leaves them, so "no error found" holds for the explored part only.
    pub initialisations_cut: bool,
    /// Operation instances whose guard or body was ill-defined (each yields no transition), and
    /// ill-defined static assertions.
    pub ill_defined_operations: usize,
    /// Deadlocked states found (at most 1 when the search stops at the first).
    pub deadlocked_states: usize,
    /// States expanded that violate the invariant or an assertion (at most 1 when the search stops at
    /// the first).
    pub violating_states: usize,
    /// Every reachable state (within the enumeration limits) was expanded.
    pub explored_all: bool,
    /// The constant setups were taken one per class of permutations of the deferred sets' elements
    /// (`McOptions::setup_symmetry`): the counts are those of that reduced state space.
    pub setups_up_to_symmetry: bool,
    /// Constant-setup nodes among `states` (none for a machine without constants).
    pub setups: usize,
    /// Invariant and assertion checks of states: once per state in SCOPE, however many workers.
    pub state_checks: usize,
    pub elapsed: Duration,
    /// With `McOptions::reuse`: the operation evaluations performed and those answered from the cache.
    pub reuse: Option<ReuseStats>,
    /// With `McOptions::por`: whether the reduction applied, and how often.
    pub por: Option<PorStats>,
    /// With `McOptions::symbolic`: what the symbolic search did.
    pub symbolic: Option<SymbolicStats>,
    /// With `McOptions::symmetry`: what the reduction did.
    pub symmetry: Option<SymmetryStats>,
    /// The process's peak resident memory after the search, in KiB (where the OS reports it).
    pub peak_memory_kib: Option<u64>,
    /// CPU time the process used, all threads (where the OS reports it): beside `elapsed`, it shows
    /// what a run cost when other processes share the cores.
    pub cpu_time: Option<Duration>,
}

/// What the symbolic search did (`McOptions::symbolic`, `check::reach`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolicStats {
    /// The order the transition groups were applied in.
    pub strategy: SymbolicStrategy,
    /// Rounds of the strategy (breadth-first: levels; the initial states are level 0).
    pub levels: usize,
    /// Whether the trace is a shortest counterexample: always breadth-first, and with the other
    /// strategies when every reachable state was expanded before the trace was searched for (it is
    /// found by a breadth-first search over the transitions learned).
    pub trace_shortest: bool,
    /// Operation evaluations by the interpreter, one per new projection of a state on an operation's
    /// read set.
    pub next_state_calls: u64,
    /// (state, operation) pairs whose transitions came from a relation learned before instead.
    pub reused: u64,
    /// Invariant or assertion evaluations, one per new projection on the predicate's read set.
    pub check_calls: u64,
    /// Nodes in the LDD table at the end, and its limit.
    pub ldd_nodes: usize,
    pub max_nodes: usize,
    /// LDD operations answered from the operation cache.
    pub ldd_cache_hits: u64,
}

/// What partial-order reduction did (`McOptions::por`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PorStats {
    /// Why the machine's states were all expanded fully (read and write sets not exact), or None.
    pub not_applied: Option<String>,
    /// States expanded with a stubborn subset of their enabled operations.
    pub reduced_states: usize,
    /// States that had such subsets but were expanded fully by the cycle proviso (each subset had a
    /// successor found before).
    pub proviso_states: usize,
}

/// What symmetry reduction did (`McOptions::symmetry`). `McResult::states` and `transitions` then count
/// orbits (nodes of the quotient graph) and the quotient's edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetryStats {
    pub mode: SymmetryMode,
    /// Why no state was reduced (no symmetric deferred set, or every element held by a constant), or None.
    pub not_applied: Option<String>,
    /// The deferred sets permuted, with their sizes.
    pub sets: Vec<(String, usize)>,
    /// States and transitions of the unreduced space, from each orbit's size: known when every stored
    /// state's canonical form was exact (never under `Hash`). Equal to a run without reduction when
    /// the exploration was complete.
    pub full_states: Option<u128>,
    pub full_transitions: Option<u128>,
    /// Stored states whose canonical form was not exact (too many permutations to try): each is a member
    /// of its orbit, but an orbit may then be stored more than once.
    pub inexact_states: usize,
    /// Set when the reduced run's trace could not be replayed and the run was repeated without
    /// reduction (`check::symmetric_mc`).
    pub abandoned: Option<String>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum NodeKey {
    Root,
    Setup(u32),
    State(u32, Arc<Vec<Value>>),
}

/// A node key with its hash computed once: a successor state is looked up when its checks are decided,
/// again when it is merged, and inserted, and hashing a state hashes every value in it.
#[derive(Clone)]
struct Keyed {
    hash: u64,
    key: NodeKey,
}

impl Keyed {
    fn new(key: NodeKey) -> Keyed {
        let mut hasher = rustc_hash::FxHasher::default();
        key.hash(&mut hasher);
        Keyed {
            hash: hasher.finish(),
            key,
        }
    }
}

impl PartialEq for Keyed {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.key == other.key
    }
}

impl Eq for Keyed {}

impl Hash for Keyed {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A node about to be added: its key in the visited set and, under symmetry, the state actually reached
/// (kept in the node, so that every stored state and every trace is one the interpreter computed) and
/// the size of its orbit.
struct Target {
    key: Keyed,
    /// The state reached, when it differs from the key's values.
    state: Option<Arc<Vec<Value>>>,
    orbit: Option<u128>,
}

impl Target {
    fn plain(key: NodeKey) -> Target {
        Target {
            key: Keyed::new(key),
            state: None,
            orbit: Some(1),
        }
    }

    /// The values of the state reached (for a state node).
    fn values(&self) -> Option<&Arc<Vec<Value>>> {
        match (&self.state, &self.key.key) {
            (Some(v), _) | (None, NodeKey::State(_, v)) => Some(v),
            _ => None,
        }
    }
}

struct Node {
    key: NodeKey,
    /// Every invariant conjunct was found true here: a successor then re-evaluates only the conjuncts
    /// reading a variable whose value differs.
    invariant_holds: bool,
    /// Predecessor and the edge that led here (for traces).
    parent: Option<(u32, Edge)>,
}

/// What labels an edge: kept small because every node stores the one it was found by; the trace's
/// `Step`s (names, changed variables) are built from it only when a trace is printed.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Label {
    SetupConstants,
    Initialisation,
    Operation(u32),
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Edge {
    label: Label,
    params: Vec<Value>,
    outputs: Vec<Value>,
    /// The values of ANY identifiers, under SHOW_EVENTB_ANY_VALUES (`Transition::any_values`).
    any_values: Vec<Value>,
}

struct Explorer<'m> {
    model: &'m Model,
    options: &'m McOptions,
    max_inits: usize,
    max_ops: usize,
    setups: Vec<Arc<Vec<Value>>>,
    nodes: Vec<Node>,
    index: FxHashMap<Keyed, u32>,
    /// Distinct edges: source, operation (or setup/initialisation), parameters and outputs, target.
    edges: FxHashSet<(u32, Label, Vec<Value>, u32)>,
    queue: VecDeque<u32>,
    /// The checks of the states the current batch found, computed by its expansions.
    batch_checks: FxHashMap<Keyed, CheckResult>,
    /// Checks of states run so far (see `McResult::state_checks`).
    state_checks: AtomicUsize,
    /// States found violating the invariant or an assertion, reported when they are expanded (see
    /// `run`).
    pending: FxHashMap<u32, Verdict>,
    processed: usize,
    partial_enumeration: bool,
    initialisations_cut: bool,
    /// The first ill-defined operation instance and the node it was found in.
    ill_defined_first: Option<(Diagnostic, u32)>,
    ill_defined_count: usize,
    /// The constant-setup search dropped candidates for time: setups may be missing, so exploring
    /// the others without error proves nothing (an error found is still an error).
    setups_cut_for_time: bool,
    /// The setups are representatives of classes of permutations (`McResult::setups_up_to_symmetry`).
    setups_up_to_symmetry: bool,
    /// The first error the search went past (a deadlock or a violation) and its node, and how many
    /// deadlocked and violating states it went past.
    first_error: Option<(Verdict, u32)>,
    deadlocked_states: usize,
    violating_states: usize,
    explored_all: bool,
    /// Assertions that mention only constants are checked once per setup, the others in every state.
    static_assertions: Vec<&'m Pred>,
    dynamic_assertions: Vec<&'m Pred>,
    /// Per invariant conjunct (`machine.invariant.conjuncts()` order), the indices of the variables it
    /// reads.
    invariant_reads: Vec<Vec<usize>>,
    /// Expensive invariant conjuncts' values by the values they read.
    invariant_memo: InvariantMemo,
    /// Threads that expand states in parallel.
    workers: usize,
    /// Operation outcomes by projection, shared by the workers (`McOptions::reuse`).
    reuse: Option<ReuseCache>,
    /// The dependency matrix for partial-order reduction (`McOptions::por`), or why there is none.
    stubborn: Option<Result<Stubborn, String>>,
    /// `PorStats::reduced_states` and `proviso_states`, counted by the workers.
    por_reduced: AtomicUsize,
    por_proviso: AtomicUsize,
    /// Symmetry reduction (`McOptions::symmetry`) when the machine has symmetric sets; per setup, its
    /// group; per node, its orbit's size; the full counts summed so far.
    symmetry: Option<(SymmetryMode, SymmetricSets)>,
    groups: Vec<Group>,
    orbits: Vec<Option<u128>>,
    full_states: Option<u128>,
    full_transitions: Option<u128>,
    inexact_states: usize,
    progress: Option<indicatif::ProgressBar>,
}

/// A state's successors, computed before they are added to the graph.
#[derive(Default)]
struct Expansion {
    /// False for states outside SCOPE, which are not expanded.
    in_scope: bool,
    /// The enabled transitions; their targets' values were moved into `targets`.
    transitions: Vec<Transition>,
    /// Per transition, its target.
    targets: Vec<Target>,
    /// Distinct transitions by the states they reach (not by orbit): this state's share of the full
    /// transition count under symmetry.
    full_out: usize,
    /// The successors' parameters were enumerated completely.
    complete: bool,
    /// The checks of the targets this expansion claimed (not yet seen, and not claimed by another
    /// expansion of the batch).
    checks: Vec<(Keyed, CheckResult)>,
    /// Operation instances of this state whose guard or body was ill-defined.
    ill_defined: Vec<Diagnostic>,
    /// Successors left out for the state constraint: the state is not a deadlock.
    constrained_out: bool,
}

/// The verdict of a state's invariant and assertion checks.
type CheckResult = Result<Option<Verdict>, Diagnostic>;

/// Runs the model checker.
pub fn model_check(model: &Model, options: &McOptions) -> Result<McResult, Diagnostic> {
    let start = Instant::now();
    let settings = model.context.settings();
    let machine = model.machine();
    let (static_assertions, dynamic_assertions) = partition_assertions(model);
    let stubborn = options.por.then(|| {
        let mut checked = Vec::new();
        if options.check_invariant {
            checked.extend(machine.invariant.conjuncts());
        }
        if options.check_assertions {
            checked.extend(dynamic_assertions.iter().copied());
        }
        if machine.state_constraint.is_some() {
            return Err("the model file's CONSTRAINT decides which states are kept".to_string());
        }
        Stubborn::new(machine, &checked, machine.scope.as_ref())
    });
    let symmetry = options
        .symmetry
        .map(|mode| symmetric_sets(model).map(|sets| (mode, sets)));
    let invariant_reads = machine
        .invariant
        .conjuncts()
        .iter()
        .map(|c| {
            let names = crate::ir::free_names::of_pred(c);
            (machine.variables.iter().enumerate())
                .filter(|(_, v)| names.contains(&v.name))
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    let mut explorer = Explorer {
        model,
        options,
        max_inits: settings.max_initialisations,
        max_ops: settings.max_operations,
        setups: vec![],
        nodes: vec![],
        index: FxHashMap::default(),
        edges: FxHashSet::default(),
        queue: VecDeque::new(),
        pending: FxHashMap::default(),
        batch_checks: FxHashMap::default(),
        state_checks: AtomicUsize::new(0),
        processed: 0,
        partial_enumeration: false,
        initialisations_cut: false,
        ill_defined_first: None,
        ill_defined_count: 0,
        setups_cut_for_time: false,
        setups_up_to_symmetry: false,
        first_error: None,
        deadlocked_states: 0,
        violating_states: 0,
        explored_all: false,
        static_assertions,
        dynamic_assertions,
        invariant_memo: InvariantMemo::new(machine.invariant.conjuncts().len()),
        invariant_reads,
        workers: options
            .workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        progress: options.progress.then(super::progress::spinner),
        reuse: options.reuse.then(|| ReuseCache::new(machine)),
        stubborn,
        por_reduced: AtomicUsize::new(0),
        por_proviso: AtomicUsize::new(0),
        symmetry: symmetry.clone().and_then(Result::ok),
        groups: vec![],
        orbits: vec![],
        full_states: Some(0),
        full_transitions: Some(0),
        inexact_states: 0,
    };
    let (verdict, at) = explorer.run(start);
    if let Some(bar) = &explorer.progress {
        bar.finish_and_clear();
    }
    let trace = at.map(|n| explorer.trace_to(n)).unwrap_or_default();
    let (states, transitions) = (explorer.nodes.len() - 1, explorer.edges.len());
    let setups = (explorer.nodes.iter())
        .filter(|n| matches!(n.key, NodeKey::Setup(_)))
        .count();
    if states > BACKGROUND_DROP_STATES {
        // Freeing a large visited set takes a quarter of CardTrick's run: leave it to a thread the
        // caller does not wait for (a command-line run exits before it ends).
        let store = (
            std::mem::take(&mut explorer.nodes),
            std::mem::take(&mut explorer.index),
            std::mem::take(&mut explorer.edges),
        );
        std::thread::spawn(move || drop(store));
    }
    Ok(McResult {
        verdict,
        trace,
        states,
        transitions,
        processed: explorer.processed,
        partial_enumeration: explorer.partial_enumeration,
        initialisations_cut: explorer.initialisations_cut,
        ill_defined_operations: explorer.ill_defined_count,
        deadlocked_states: explorer.deadlocked_states,
        violating_states: explorer.violating_states,
        explored_all: explorer.explored_all,
        setups_up_to_symmetry: explorer.setups_up_to_symmetry,
        setups,
        state_checks: explorer.state_checks.into_inner(),
        elapsed: start.elapsed(),
        reuse: explorer.reuse.as_ref().map(ReuseCache::stats),
        por: explorer.stubborn.as_ref().map(|s| PorStats {
            not_applied: s.as_ref().err().cloned(),
            reduced_states: explorer.por_reduced.load(AtomicOrdering::Relaxed),
            proviso_states: explorer.por_proviso.load(AtomicOrdering::Relaxed),
        }),
        symbolic: None,
        symmetry: options.symmetry.map(|mode| {
            let not_applied = match &symmetry {
                Some(Err(why)) => Some(why.clone()),
                _ if explorer.groups.iter().all(Group::is_trivial) => Some(
                    "every constant setup holds all elements of the deferred sets but one at most"
                        .into(),
                ),
                _ => None,
            };
            let reduced = not_applied.is_none();
            SymmetryStats {
                mode,
                sets: match &symmetry {
                    Some(Ok((_, sets))) if reduced => sets.describe(),
                    _ => vec![],
                },
                not_applied,
                full_states: if reduced {
                    explorer.full_states
                } else {
                    Some(states as u128)
                },
                full_transitions: if reduced {
                    explorer.full_transitions
                } else {
                    Some(transitions as u128)
                },
                inexact_states: explorer.inexact_states,
                abandoned: None,
            }
        }),
        peak_memory_kib: peak_memory_kib(),
        cpu_time: cpu_time(),
    })
}

/// The assertions that mention only constants and sets (checked once per constant setup), and the
/// others (checked in every state).
pub(super) fn partition_assertions(model: &Model) -> (Vec<&Pred>, Vec<&Pred>) {
    let machine = model.machine();
    let constants: FxHashSet<&Name> = machine
        .constants
        .iter()
        .chain(&machine.params)
        .map(|c| &c.name)
        .collect();
    machine.assertions.iter().partition(|a| {
        crate::ir::free_names::of_pred(a)
            .iter()
            .all(|n| constants.contains(n) || is_set_name(model, n))
    })
}

/// Whether ProB's root leads to constant-setup nodes: the machine has constants or parameters, or
/// PROPERTIES constrain only the sets (B/SchneiderBook/Chapter12/Player.mch: `card(PLAYER) > 11`, 13
/// states with the setup).
pub(super) fn has_setup_nodes(machine: &crate::ir::Machine) -> bool {
    !(machine.constants.is_empty()
        && machine.params.is_empty()
        && matches!(machine.properties.kind, crate::ir::PredKind::True))
}

/// Above this many states, the visited set is freed on a thread of its own.
const BACKGROUND_DROP_STATES: usize = 10_000;

/// VmHWM from /proc/self/status (Linux); None elsewhere.
pub(super) fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// User + system time of the process from /proc/self/stat (Linux; fields 14 and 15, in USER_HZ ticks,
/// which is 100 on every Linux architecture's /proc interface); None elsewhere.
pub(super) fn cpu_time() -> Option<Duration> {
    const USER_HZ: u64 = 100;
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is parenthesised and may contain spaces: count from its end.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 1000 / USER_HZ))
}

fn is_set_name(model: &Model, name: &Name) -> bool {
    model
        .machine()
        .sets
        .iter()
        .any(|s| &s.name == name || s.elements.iter().flatten().any(|e| e == name))
}

impl<'m> Explorer<'m> {
    /// Explores until an error, the end of the state space, or a limit. Returns the verdict and the node the
    /// trace leads to.
    fn run(&mut self, start: Instant) -> (Verdict, Option<u32>) {
        self.add_node(Target::plain(NodeKey::Root), None);
        loop {
            let batch = self.next_batch();
            if batch.is_empty() {
                self.explored_all = true;
                if let Some(found) = self.found_so_far() {
                    return found;
                }
                return match self.ill_defined_first.take() {
                    Some((first, node)) => (
                        Verdict::IllDefinedOperations {
                            first,
                            count: self.ill_defined_count,
                        },
                        Some(node),
                    ),
                    None if self.setups_cut_for_time => (
                        Verdict::Incomplete(
                            "no error in the states of the constant setups found, but the setup \
                             search dropped some candidates for time: other setups may exist"
                                .into(),
                        ),
                        None,
                    ),
                    None => (Verdict::NoErrorFound, None),
                };
            }
            // Successors of a batch of states are computed on all cores, then merged in queue order: the
            // graph, the counts and the trace are those of the sequential search.
            let mut expansions = self.expand_all(&batch);
            self.batch_checks.clear();
            for expansion in expansions.iter_mut().flatten().flatten() {
                self.keep_checks(expansion);
            }
            self.show_progress(start);
            for (node, expansion) in batch.into_iter().zip(expansions) {
                if self.model.context.stopped_for_memory() {
                    return self.found_so_far().unwrap_or_else(|| {
                        (
                            Verdict::Incomplete("memory limit reached (--max-memory)".into()),
                            None,
                        )
                    });
                }
                if let Some(limit) = self.options.max_states
                    && self.nodes.len() > limit
                {
                    return self.found_so_far().unwrap_or_else(|| {
                        (
                            Verdict::Incomplete(format!("--max-states {limit} reached")),
                            None,
                        )
                    });
                }
                if let Some(timeout) = self.options.timeout
                    && start.elapsed() > timeout
                {
                    return self.found_so_far().unwrap_or_else(|| {
                        (
                            Verdict::Incomplete(format!(
                                "timeout after {} ms",
                                timeout.as_millis()
                            )),
                            None,
                        )
                    });
                }
                self.processed += 1;
                let outcome = match expansion {
                    Some(expansion) => expansion.and_then(|e| self.merge_state(node, e)),
                    None => self.expand(node),
                };
                // A violation is reported when its state is expanded, after its successors were added
                // (ProB's order: its counts include them; B/Simple/Grid.mch 17 / 66). In breadth-first
                // order this is still the first violation found, so the trace stays a shortest one.
                if let Some(verdict) = self.pending.remove(&node) {
                    self.violating_states += 1;
                    if self.options.stop_at_violation {
                        return (verdict, Some(node));
                    }
                    self.first_error.get_or_insert((verdict, node));
                }
                match outcome {
                    Ok(None) => {}
                    Ok(Some((Verdict::Incomplete(why), _))) => {
                        return self
                            .found_so_far()
                            .unwrap_or((Verdict::Incomplete(why), None));
                    }
                    Ok(Some(found)) => return found,
                    // An ill-defined expression in a reachable state is an error of the model; anything
                    // else (a set too large to enumerate, an unsupported construct) only stops the search.
                    Err(e) if e.kind == DiagKind::WellDefinedness => {
                        return (Verdict::WellDefinedness(e), Some(node));
                    }
                    Err(e) => {
                        return self
                            .found_so_far()
                            .unwrap_or((Verdict::Incomplete(e.to_string()), None));
                    }
                }
            }
        }
    }

    /// The error to report when the search stops without meeting one that stops it: the first error
    /// the search went past (found before any pending violation's state could be expanded), else the
    /// violation found first.
    fn found_so_far(&mut self) -> Option<(Verdict, Option<u32>)> {
        match self.first_error.take() {
            Some((verdict, node)) => Some((verdict, Some(node))),
            None => self.first_pending(),
        }
    }

    /// The violation found first, when the search stops before expanding its state.
    fn first_pending(&mut self) -> Option<(Verdict, Option<u32>)> {
        let first = *self.pending.keys().min()?;
        let verdict = self.pending.remove(&first)?;
        Some((verdict, Some(first)))
    }

    fn show_progress(&self, start: Instant) {
        if let Some(bar) = &self.progress {
            let states = self.nodes.len() - 1;
            let rate = states as f64 / start.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "states: {states}, transitions: {}, queue: {}, {rate:.0} states/s",
                self.edges.len(),
                self.queue.len()
            ));
            bar.tick();
        }
    }

    /// The next nodes to expand: one node, or in breadth-first order a run of state nodes from the front
    /// of the queue (at most what the state limit still allows).
    fn next_batch(&mut self) -> Vec<u32> {
        const BATCH: usize = 256;
        let Some(first) = self.next_node() else {
            return vec![];
        };
        let mut batch = vec![first];
        if self.options.order == SearchOrder::DepthFirst || self.workers < 2 {
            return batch;
        }
        let is_state = |e: &Explorer, n: u32| matches!(e.nodes[n as usize].key, NodeKey::State(..));
        if !is_state(self, first) {
            return batch;
        }
        while batch.len() < BATCH
            && let Some(&n) = self.queue.front()
            && is_state(self, n)
        {
            batch.push(n);
            self.queue.pop_front();
        }
        batch
    }

    /// For each state node of the batch, its expansion computed in parallel; `None` for other nodes
    /// (expanded sequentially).
    fn expand_all(&self, batch: &[u32]) -> Vec<Option<Result<Expansion, Diagnostic>>> {
        let claims = Mutex::new(FxHashSet::default());
        let expand_one = |n: u32| match &self.nodes[n as usize].key {
            NodeKey::State(setup, vars) => Some(self.expand_state(
                *setup,
                vars,
                self.nodes[n as usize].invariant_holds,
                &claims,
            )),
            _ => None,
        };
        if batch.len() < 2 || self.workers < 2 {
            return batch.iter().map(|&n| expand_one(n)).collect();
        }
        // Each worker takes the next unexpanded state: costs vary a lot between states (a guard solved
        // in some, trivially false in others), and fixed chunks left one core idle.
        let next = AtomicUsize::new(0);
        let mut out: Vec<Option<Option<Result<Expansion, Diagnostic>>>> =
            batch.iter().map(|_| None).collect();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.workers.min(batch.len()))
                .map(|_| {
                    // The interpreter recurses over formulas: a worker gets a stack as deep as the
                    // main thread's share would be, not the default 2 MiB.
                    let worker = std::thread::Builder::new().stack_size(WORKER_STACK_BYTES);
                    worker.spawn_scoped(scope, || {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, AtomicOrdering::Relaxed);
                            let Some(&n) = batch.get(i) else {
                                return done;
                            };
                            done.push((i, expand_one(n)));
                        }
                    })
                })
                .filter_map(Result::ok)
                .collect();
            for h in handles {
                // A panicked worker's states are left empty and reported below.
                for (i, expansion) in h.join().unwrap_or_default() {
                    out[i] = Some(expansion);
                }
            }
        });
        out.into_iter()
            .map(|slot| {
                slot.unwrap_or_else(|| {
                    Some(Err(Diagnostic::new(
                        DiagKind::Internal,
                        Span::default(),
                        "a model-checking worker thread panicked or could not start",
                    )))
                })
            })
            .collect()
    }

    fn next_node(&mut self) -> Option<u32> {
        match self.options.order {
            SearchOrder::BreadthFirst => self.queue.pop_front(),
            SearchOrder::DepthFirst => self.queue.pop_back(),
        }
    }

    /// Computes the successors of one node, adding new nodes to the queue; `Some` when an error is found.
    fn expand(&mut self, node: u32) -> Result<Option<(Verdict, Option<u32>)>, Diagnostic> {
        let has_constants = has_setup_nodes(self.model.machine());
        match self.nodes[node as usize].key.clone() {
            NodeKey::Root if has_constants => self.expand_root(node),
            NodeKey::Root => {
                self.push_setup(vec![]);
                // Without constants there is no setup node to check the static assertions in: they are
                // checked here, once.
                match self.check_static_assertions(&self.env(0, None)) {
                    Ok(None) => {}
                    Ok(Some(v)) => return Ok(Some((v, Some(node)))),
                    Err(e) if e.kind == DiagKind::WellDefinedness => {
                        if let Some(v) = self.note_ill_defined(e, node) {
                            return Ok(Some((v, Some(node))));
                        }
                    }
                    Err(e) => return Err(e),
                }
                self.expand_setup(node, 0)
            }
            NodeKey::Setup(setup) => self.expand_setup(node, setup),
            NodeKey::State(setup, vars) => {
                let holds = self.nodes[node as usize].invariant_holds;
                let claims = Mutex::new(FxHashSet::default());
                let mut expansion = self.expand_state(setup, &vars, holds, &claims)?;
                self.batch_checks.clear();
                self.keep_checks(&mut expansion);
                self.merge_state(node, expansion)
            }
        }
    }

    fn expand_root(&mut self, root: u32) -> Result<Option<(Verdict, Option<u32>)>, Diagnostic> {
        let time_cuts = self.model.context.time_cuts();
        let symmetry = if self.options.setup_symmetry {
            Symmetry::ProbSetups
        } else {
            Symmetry::Expanded
        };
        // One setup more than the limit tells a cut list from one of exactly `max_inits` setups.
        let mut found = self
            .model
            .context
            .setup_constants(self.max_inits.saturating_add(1), symmetry)?;
        let beyond_limit = found.solutions.len() > self.max_inits;
        found.solutions.truncate(self.max_inits);
        // The solvers race, so setups arrive in an order that varies from run to run; explored in
        // value order, the counts at a first error do not (WhoKilledAgatha_wrongassert: 2 or 3 states).
        found.solutions.sort();
        self.setups_up_to_symmetry = found.symmetry_reduced;
        // Setups behind a dropped candidate are missing: exploring only the others cannot show that
        // no state has an error.
        self.setups_cut_for_time |= self.model.context.time_cuts() > time_cuts;
        // Setups beyond MAX_INITIALISATIONS are left out as ProB leaves them; any other gap (integers
        // enumerated within MININT..MAXINT only) makes the exploration a partial one.
        self.partial_enumeration |= !found.complete && !beyond_limit;
        self.initialisations_cut |= beyond_limit;
        if found.solutions.is_empty() {
            return Ok(Some((
                Verdict::NoConstantSetup {
                    complete: found.complete,
                },
                None,
            )));
        }
        for values in found.solutions {
            let setup = self.push_setup(values);
            let edge = Edge::plain(Label::SetupConstants);
            let (id, new) = self.add_edge(root, Target::plain(NodeKey::Setup(setup)), edge);
            if new {
                let env = self.env(setup, None);
                match self.check_static_assertions(&env) {
                    Ok(None) => {}
                    Ok(Some(v)) => return Ok(Some((v, Some(id)))),
                    // An ill-defined assertion is neither true nor false: noted, and the search goes
                    // on (ProB explores all 128 setups of B/CBC/RULE_r967_1.mch).
                    Err(e) if e.kind == DiagKind::WellDefinedness => {
                        if let Some(v) = self.note_ill_defined(e, id) {
                            return Ok(Some((v, Some(id))));
                        }
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(None)
    }

    fn expand_setup(
        &mut self,
        from: u32,
        setup: u32,
    ) -> Result<Option<(Verdict, Option<u32>)>, Diagnostic> {
        let constants = self.setups[setup as usize].clone();
        let listed = self
            .model
            .context
            .initial_states_listed(&constants, self.max_inits)?;
        self.partial_enumeration |= listed.search_cut;
        self.initialisations_cut |= listed.beyond_limit;
        let states = listed.states;
        if states.is_empty() {
            return Ok(Some((Verdict::NoInitialisation, Some(from))));
        }
        for state in states {
            if self.outside_constraint(setup, &state.values)? {
                continue;
            }
            let edge = Edge::plain(Label::Initialisation);
            let target = self.target(setup, state.values);
            let (id, new) = self.add_edge(from, target, edge);
            if new {
                let verdict = self.check_node(id, None);
                self.record_check(verdict, id)?;
            }
        }
        Ok(None)
    }

    /// The successors of a state and the verdicts of the checks on those not yet seen; read-only, so
    /// that states can be expanded in parallel. `invariant_holds`: the invariant is true in `vars`.
    fn expand_state(
        &self,
        setup: u32,
        vars: &Arc<Vec<Value>>,
        invariant_holds: bool,
        claims: &Mutex<FxHashSet<Keyed>>,
    ) -> Result<Expansion, Diagnostic> {
        if !self.in_scope(setup, vars)? {
            return Ok(Expansion::default());
        }
        let in_scope = true;
        let constants = self.setups[setup as usize].clone();
        let state = State {
            values: vars.as_ref().clone(),
        };
        let Successors {
            mut transitions,
            complete,
            ill_defined,
        } = match &self.reuse {
            Some(cache) => {
                cache.successors(&self.model.context, setup, &constants, &state, self.max_ops)?
            }
            None => self
                .model
                .context
                .successors_tolerant(&constants, &state, self.max_ops)?,
        };
        // The target's key is built once, here: the merge adds it to the graph as it is.
        let mut targets: Vec<Target> = (transitions.iter_mut())
            .map(|t| self.target(setup, std::mem::take(&mut t.target.values)))
            .collect();
        let full_out = if self.symmetry.is_some() {
            (transitions.iter().zip(&targets))
                .map(|(t, target)| {
                    (
                        t.operation,
                        &t.params,
                        &t.outputs,
                        &t.any_values,
                        target.values(),
                    )
                })
                .collect::<FxHashSet<_>>()
                .len()
        } else {
            0
        };
        if let Some(Ok(stubborn)) = &self.stubborn
            && complete
            && ill_defined.is_empty()
        {
            self.reduce(stubborn, &constants, &state, &mut transitions, &mut targets);
        }
        let constrained_out = self.drop_constrained(setup, &mut transitions, &mut targets)?;
        let mut checks = Vec::new();
        for target in &targets {
            // A state several expansions of the batch lead to is checked once: siblings of a
            // breadth-first level share most successors (SetRelLaws' states have 12 predecessors).
            // Under symmetry the state checked is the one reached (a key may be no state at all), and
            // the verdict holds for its whole orbit.
            let key = &target.key;
            if let Some(values) = target.values()
                && !self.index.contains_key(key)
                && claims.lock().expect("claims lock").insert(key.clone())
            {
                let before = invariant_holds.then_some(vars.as_slice());
                checks.push((key.clone(), self.check_state(setup, values, before)));
            }
        }
        Ok(Expansion {
            in_scope,
            transitions,
            targets,
            full_out,
            complete,
            checks,
            ill_defined: ill_defined.into_iter().map(|(_, d)| d).collect(),
            constrained_out,
        })
    }

    /// Whether the state constraint (`TLC_CONSTRAINT`) leaves out this state: it is false there, and the
    /// state's invariant holds (TLC checks it, and a violation is reported).
    fn outside_constraint(&self, setup: u32, values: &[Value]) -> Result<bool, Diagnostic> {
        let Some(constraint) = &self.model.machine().state_constraint else {
            return Ok(false);
        };
        let env = self.env(setup, Some(values));
        Ok(!self.model.context.eval_pred(constraint, &env)?
            && matches!(self.check_state(setup, values, None), Ok(None)))
    }

    /// Leaves out the transitions to states where the state constraint (`TLC_CONSTRAINT`) is false, as
    /// TLC does: such a state is neither kept nor expanded. TLC still checks its invariant, so one that
    /// violates it (or whose check fails) is kept, and reported. Returns whether any was left out.
    fn drop_constrained(
        &self,
        setup: u32,
        transitions: &mut Vec<Transition>,
        targets: &mut Vec<Target>,
    ) -> Result<bool, Diagnostic> {
        if self.model.machine().state_constraint.is_none() {
            return Ok(false);
        }
        let mut dropped = false;
        let mut kept_transitions = Vec::with_capacity(transitions.len());
        let mut kept_targets = Vec::with_capacity(targets.len());
        for (t, target) in std::mem::take(transitions)
            .into_iter()
            .zip(std::mem::take(targets))
        {
            let values = target.values().expect("successors are states");
            if !self.outside_constraint(setup, values)? {
                kept_transitions.push(t);
                kept_targets.push(target);
            } else {
                dropped = true;
            }
        }
        *transitions = kept_transitions;
        *targets = kept_targets;
        Ok(dropped)
    }

    /// Keeps only the transitions of a stubborn set's operations (`check::stubborn`): of the smallest set
    /// none of whose transitions leads to a state already found, or of all operations when every set
    /// has such a transition. That is the cycle proviso (C3) for both search orders: a reduced
    /// state's successors are all found after it, so along reduced edges the nodes' numbers grow, and
    /// every cycle of the reduced graph passes through a fully expanded state — no operation is
    /// postponed forever around a cycle. (A batch's expansions look at the states found before the
    /// batch: its successors are numbered after all of those.)
    fn reduce(
        &self,
        stubborn: &Stubborn,
        constants: &[Value],
        state: &State,
        transitions: &mut Vec<Transition>,
        targets: &mut Vec<Target>,
    ) {
        let machine = self.model.machine();
        let mut counts = vec![0; machine.operations.len()];
        for t in transitions.iter() {
            counts[t.operation] += 1;
        }
        // Built on the first guard conjunct asked about.
        let mut env: Option<Option<Env>> = None;
        let mut is_false = |conjunct: &Pred| {
            let env =
                env.get_or_insert_with(|| self.model.context.state_env(constants, state).ok());
            env.as_ref()
                .is_some_and(|env| matches!(self.model.context.eval_pred(conjunct, env), Ok(false)))
        };
        let candidates = stubborn.candidates(Enabled {
            transitions: &counts,
            is_false: &mut is_false,
        });
        if candidates.is_empty() {
            return;
        }
        let all_new = |keep: &Vec<bool>| {
            (transitions.iter().zip(targets.iter()))
                .all(|(t, target)| !keep[t.operation] || !self.index.contains_key(&target.key))
        };
        let Some(keep) = candidates.into_iter().find(all_new) else {
            self.por_proviso.fetch_add(1, AtomicOrdering::Relaxed);
            return;
        };
        self.por_reduced.fetch_add(1, AtomicOrdering::Relaxed);
        let all = std::mem::take(transitions).into_iter();
        for (t, target) in all.zip(std::mem::take(targets)) {
            if keep[t.operation] {
                transitions.push(t);
                targets.push(target);
            }
        }
    }

    /// Moves an expansion's checks to those of the batch, where `merge_state` finds them.
    fn keep_checks(&mut self, expansion: &mut Expansion) {
        self.batch_checks
            .extend(std::mem::take(&mut expansion.checks));
    }

    /// Adds an expanded state's successors to the graph; `Some` when an error is found.
    fn merge_state(
        &mut self,
        node: u32,
        expansion: Expansion,
    ) -> Result<Option<(Verdict, Option<u32>)>, Diagnostic> {
        let Expansion {
            in_scope,
            transitions,
            targets,
            full_out,
            complete,
            checks: _,
            ill_defined,
            constrained_out,
        } = expansion;
        if !in_scope {
            return Ok(None);
        }
        self.partial_enumeration |= !complete;
        for d in ill_defined {
            if let Some(v) = self.note_ill_defined(d, node) {
                return Ok(Some((v, Some(node))));
            }
        }
        if transitions.is_empty() && !constrained_out && self.options.check_deadlock {
            // No transition found among partially enumerated parameters (an integer beyond
            // MININT..MAXINT, a STRING) proves nothing: an operation may still be enabled.
            if !complete {
                return Ok(Some((
                    Verdict::Incomplete(
                        "no operation is enabled for the parameter values enumerated, but some \
                         parameter domains could only be enumerated partially"
                            .into(),
                    ),
                    None,
                )));
            }
            self.deadlocked_states += 1;
            if self.options.stop_at_deadlock {
                return Ok(Some((Verdict::Deadlock, Some(node))));
            }
            self.first_error.get_or_insert((Verdict::Deadlock, node));
            return Ok(None);
        }
        let before = match &self.nodes[node as usize] {
            Node {
                key: NodeKey::State(_, vars),
                invariant_holds: true,
                ..
            } => Some(vars.clone()),
            _ => None,
        };
        if self.symmetry.is_some() {
            let share = self.orbits[node as usize].map(|o| o * full_out as u128);
            add_full(&mut self.full_transitions, share);
        }
        for (t, target) in transitions.into_iter().zip(targets) {
            // The batch's expansions checked each state new to them once (`expand_state`). Under
            // symmetry markers, states of different orbits may share a key: the state another expansion
            // checked may not be the one kept here, so the kept one is checked below.
            let markers = matches!(self.symmetry, Some((SymmetryMode::Hash, _)));
            let check = (self.batch_checks.remove(&target.key)).filter(|_| !markers);
            let edge = Edge {
                label: Label::Operation(t.operation as u32),
                params: t.params,
                outputs: t.outputs,
                any_values: t.any_values,
            };
            let (id, new) = self.add_edge(node, target, edge);
            if !new {
                continue;
            }
            // Every state new to the batch was claimed and checked by one of its expansions, unless
            // that expansion failed.
            let verdict =
                check.unwrap_or_else(|| self.check_node(id, before.as_ref().map(|v| v.as_slice())));
            self.record_check(verdict, id)?;
        }
        Ok(None)
    }

    /// Records the checks of a new node: whether its invariant holds, and a violation found.
    fn record_check(
        &mut self,
        verdict: Result<Option<Verdict>, Diagnostic>,
        id: u32,
    ) -> Result<(), Diagnostic> {
        self.nodes[id as usize].invariant_holds =
            self.options.check_invariant && matches!(verdict, Ok(None));
        if let Some(v) = self.checked(verdict, id)? {
            self.pending.insert(id, v);
        }
        Ok(())
    }

    fn check_node(&self, id: u32, before: Option<&[Value]>) -> Result<Option<Verdict>, Diagnostic> {
        match &self.nodes[id as usize].key {
            NodeKey::State(setup, vars) => self.check_state(*setup, vars, before),
            _ => Ok(None),
        }
    }

    /// Invariant and dynamic assertions of a newly found state (states outside SCOPE are not checked).
    /// `before`: a predecessor (same setup) in which every invariant conjunct holds; a conjunct reading
    /// only variables whose values are the same there holds here too and is not evaluated again.
    fn check_state(
        &self,
        setup: u32,
        vars: &[Value],
        before: Option<&[Value]>,
    ) -> Result<Option<Verdict>, Diagnostic> {
        if !self.in_scope(setup, vars)? {
            return Ok(None);
        }
        self.state_checks.fetch_add(1, AtomicOrdering::Relaxed);
        let env = self.env(setup, Some(vars));
        let machine = self.model.machine();
        if self.options.check_invariant {
            for (k, (conjunct, reads)) in machine
                .invariant
                .conjuncts()
                .iter()
                .zip(&self.invariant_reads)
                .enumerate()
            {
                if let Some(before) = before
                    && reads.iter().all(|&i| before[i] == vars[i])
                {
                    continue;
                }
                let value = self.invariant_memo.value(k, setup, reads, vars, || {
                    self.model.context.eval_pred(conjunct, &env)
                });
                match value {
                    Ok(true) => {}
                    Ok(false) => return Ok(Some(Verdict::InvariantViolation(conjunct.span))),
                    // Neither true nor false: the caller notes it (`checked`) and the search goes on,
                    // as in ProB (B/SchneiderBook/Chapter18/Checkouts.mch applies `queues(cc)` outside
                    // its domain in its invariant; ProB records no violation).
                    Err(e) => return Err(e.into()),
                }
            }
        }
        if self.options.check_assertions {
            for assertion in &self.dynamic_assertions {
                if !self.model.context.eval_pred(assertion, &env)? {
                    return Ok(Some(Verdict::AssertionViolation(assertion.span)));
                }
            }
        }
        Ok(None)
    }

    /// The verdict of a node's checks, an ill-defined invariant or assertion being noted rather than an
    /// error.
    fn checked(
        &mut self,
        verdict: Result<Option<Verdict>, Diagnostic>,
        node: u32,
    ) -> Result<Option<Verdict>, Diagnostic> {
        match verdict {
            Err(e) if e.kind == DiagKind::WellDefinedness => Ok(self.note_ill_defined(e, node)),
            other => other,
        }
    }

    /// Records an ill-defined operation instance, invariant or assertion found in `node`; the verdict
    /// that ends the search when `McOptions::stop_at_ill_defined`.
    fn note_ill_defined(&mut self, d: Diagnostic, node: u32) -> Option<Verdict> {
        self.ill_defined_count += 1;
        if self.options.stop_at_ill_defined {
            return Some(Verdict::WellDefinedness(d));
        }
        if self.ill_defined_first.is_none() {
            self.ill_defined_first = Some((d, node));
        }
        None
    }

    fn check_static_assertions(&self, env: &Env) -> Result<Option<Verdict>, Diagnostic> {
        if !self.options.check_assertions {
            return Ok(None);
        }
        for assertion in &self.static_assertions {
            if !self.model.context.eval_pred(assertion, env)? {
                return Ok(Some(Verdict::AssertionViolation(assertion.span)));
            }
        }
        Ok(None)
    }

    fn in_scope(&self, setup: u32, vars: &[Value]) -> Result<bool, Diagnostic> {
        match &self.model.machine().scope {
            Some(scope) => Ok(self
                .model
                .context
                .eval_pred(scope, &self.env(setup, Some(vars)))?),
            None => Ok(true),
        }
    }

    /// The environment of a node: its constants and, for a state, its variables.
    fn env(&self, setup: u32, vars: Option<&[Value]>) -> Env {
        let mut env = Env::new();
        self.model
            .context
            .bind_constants(&mut env, &self.setups[setup as usize]);
        if let Some(vars) = vars {
            self.model.context.bind_variables(&mut env, vars);
        }
        env.freeze()
    }

    /// Variables and their new values; with `before`, only those that changed.
    fn variable_assignment(&self, after: &[Value], before: Option<&Arc<Vec<Value>>>) -> Assignment {
        self.model
            .machine()
            .variables
            .iter()
            .enumerate()
            .filter(|(i, _)| before.is_none_or(|b| b[*i] != after[*i]))
            .map(|(i, v)| (v.name.clone(), after[i].clone()))
            .collect()
    }

    /// Adds a constant setup (and its permutation group under symmetry); its number.
    fn push_setup(&mut self, values: Vec<Value>) -> u32 {
        if let Some((_, sets)) = &self.symmetry {
            self.groups.push(sets.group(&values));
        }
        self.setups.push(Arc::new(values));
        (self.setups.len() - 1) as u32
    }

    /// The node a state reached in `setup` is added as: under symmetry, keyed by its orbit's key.
    fn target(&self, setup: u32, values: Vec<Value>) -> Target {
        let (Some((mode, _)), Some(group)) = (&self.symmetry, self.groups.get(setup as usize))
        else {
            return Target::plain(NodeKey::State(setup, Arc::new(values)));
        };
        let reduced = group.reduce(*mode, &values);
        let state = (reduced.key != values).then(|| Arc::new(values));
        Target {
            key: Keyed::new(NodeKey::State(setup, Arc::new(reduced.key))),
            state,
            orbit: reduced.orbit,
        }
    }

    fn add_node(&mut self, target: Target, parent: Option<(u32, Edge)>) -> (u32, bool) {
        let id = self.nodes.len() as u32;
        let Target { key, state, orbit } = target;
        let node_key = match self.index.entry(key) {
            Entry::Occupied(found) => return (*found.get(), false),
            Entry::Vacant(slot) => {
                let key = match (state, &slot.key().key) {
                    (Some(values), NodeKey::State(setup, _)) => NodeKey::State(*setup, values),
                    (_, key) => key.clone(),
                };
                slot.insert(id);
                key
            }
        };
        if let Some((mode, _)) = &self.symmetry {
            if !matches!(node_key, NodeKey::Root) {
                add_full(&mut self.full_states, orbit);
            }
            if orbit.is_none() && *mode == SymmetryMode::Canon {
                self.inexact_states += 1;
            }
            self.orbits.push(orbit);
        }
        self.nodes.push(Node {
            key: node_key,
            invariant_holds: false,
            parent,
        });
        self.queue.push_back(id);
        (id, true)
    }

    /// Adds the edge `from --edge--> key` (and the node, if new).
    fn add_edge(&mut self, from: u32, target: Target, edge: Edge) -> (u32, bool) {
        // Outputs distinguish transitions as parameters do: ProB counts `cc <-- query = cc :: cols` once
        // per colour returned (B/SchneiderBook/Chapter14/Colours.mch: 96 transitions).
        let label = edge.label.clone();
        let mut signature = edge.params.clone();
        signature.extend(edge.outputs.iter().cloned());
        signature.extend(edge.any_values.iter().cloned());
        let (id, new) = self.add_node(target, Some((from, edge)));
        let new_edge = self.edges.insert((from, label.clone(), signature, id));
        // Under symmetry, a setup's INITIALISATION edge to an orbit stands for one edge to each of its
        // states (the initial states are closed under the permutations); operation edges are counted
        // by the state they leave (`merge_state`).
        if new_edge && self.symmetry.is_some() && !matches!(label, Label::Operation(_)) {
            let orbit = self.orbits[id as usize];
            add_full(&mut self.full_transitions, orbit);
        }
        (id, new)
    }

    fn trace_to(&self, mut node: u32) -> Vec<Step> {
        let mut steps = vec![];
        while let Some((parent, edge)) = &self.nodes[node as usize].parent {
            steps.push(self.step(*parent, edge, node));
            node = *parent;
        }
        steps.reverse();
        steps
    }

    /// The printable step of the edge `from --edge--> to`.
    fn step(&self, from: u32, edge: &Edge, to: u32) -> Step {
        let machine = self.model.machine();
        let named = |names: &[crate::ir::TypedName], values: &[Value]| -> Assignment {
            names
                .iter()
                .map(|p| p.name.clone())
                .zip(values.iter().cloned())
                .collect()
        };
        let before = match &self.nodes[from as usize].key {
            NodeKey::State(_, vars) => Some(vars),
            _ => None,
        };
        let (label, params, outputs, changed) = match (&edge.label, &self.nodes[to as usize].key) {
            (Label::SetupConstants, NodeKey::Setup(setup)) => {
                let names = constant_names(self.model);
                let values = &self.setups[*setup as usize];
                let changed = names.into_iter().zip(values.iter().cloned()).collect();
                ("SETUP_CONSTANTS".to_string(), vec![], vec![], changed)
            }
            (Label::Operation(k), NodeKey::State(_, vars)) => {
                let op = &machine.operations[*k as usize];
                (
                    op.name.to_string(),
                    named(&op.params, &edge.params),
                    named(&op.outputs, &edge.outputs),
                    self.variable_assignment(vars, before),
                )
            }
            (_, NodeKey::State(_, vars)) => (
                "INITIALISATION".to_string(),
                vec![],
                vec![],
                self.variable_assignment(vars, None),
            ),
            _ => ("INITIALISATION".to_string(), vec![], vec![], vec![]),
        };
        Step {
            label,
            params,
            outputs,
            changed,
        }
    }
}

/// Adds `n` to a full count, which becomes unknown with an unknown `n`.
fn add_full(total: &mut Option<u128>, n: Option<u128>) {
    *total = total.zip(n).and_then(|(t, n)| t.checked_add(n));
}

impl Edge {
    fn plain(label: Label) -> Edge {
        Edge {
            label,
            params: vec![],
            outputs: vec![],
            any_values: vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, text: &str) -> McResult {
        check_with(name, text, &McOptions::default())
    }

    fn check_with(name: &str, text: &str, options: &McOptions) -> McResult {
        let model = Model::from_text(name, text);
        model_check(&model, options).expect("checks")
    }

    #[test]
    fn constant_setups_enumerated_within_the_integer_cut_make_the_exploration_partial() {
        // x : INTEGER is enumerated within MININT..MAXINT only: other setups may exist.
        let r = check(
            "cut-setups",
            "MACHINE CutSetups\nCONSTANTS c\nPROPERTIES c : INTEGER & c > 1\nVARIABLES x\n\
             INVARIANT x : INTEGER\nINITIALISATION x := c\nOPERATIONS op = skip\nEND",
        );
        assert!(
            matches!(r.verdict, Verdict::NoErrorFound) && r.partial_enumeration,
            "{:?} {}",
            r.verdict,
            r.partial_enumeration
        );
        // A listed setup is exhaustive.
        let r = check(
            "listed-setups",
            "MACHINE ListedSetups\nCONSTANTS c\nPROPERTIES c : 1..3\nVARIABLES x\n\
             INVARIANT x : INTEGER\nINITIALISATION x := c\nOPERATIONS op = skip\nEND",
        );
        assert!(
            matches!(r.verdict, Verdict::NoErrorFound) && !r.partial_enumeration,
            "{:?}",
            r.verdict
        );
    }

    #[test]
    fn searches_listing_part_of_their_solutions_make_the_exploration_partial() {
        // Each search lists its solutions within MININT..MAXINT only (x + y : 5..10 has others beyond),
        // in the INITIALISATION or in an operation's body, as ANY, `: (P)` or `::` over a set too
        // large to list: the states found are not all of them.
        let searches = [
            "ANY a, b WHERE a : INTEGER & b : INTEGER & a + b : 5..10 THEN x := a END",
            "x : (x : INTEGER & x > 2)",
            "x :: {v | v : INTEGER & v > 2}",
        ];
        for search in searches {
            for (init, op) in [(search, "skip"), ("x := 0", search)] {
                let r = check(
                    "cut-search",
                    &format!(
                        "MACHINE CutSearch\nVARIABLES x\nINVARIANT x : INTEGER\n\
                         INITIALISATION {init}\nOPERATIONS op = {op}\nEND"
                    ),
                );
                assert!(
                    matches!(r.verdict, Verdict::NoErrorFound) && r.partial_enumeration,
                    "{init} / {op}: {:?} {}",
                    r.verdict,
                    r.partial_enumeration
                );
            }
        }
        // A search over a finite domain lists every solution.
        let r = check(
            "whole-search",
            "MACHINE WholeSearch\nVARIABLES x\nINVARIANT x : INTEGER\n\
             INITIALISATION ANY a WHERE a : 0..500 & a mod 7 = 0 THEN x := a END\n\
             OPERATIONS op = x : (x : 0..500 & x mod 5 = 0)\nEND",
        );
        assert!(
            matches!(r.verdict, Verdict::NoErrorFound) && !r.partial_enumeration,
            "{:?}",
            r.verdict
        );
        assert_eq!(r.states, 72 + 101 - 15);
    }

    #[test]
    fn initial_states_beyond_max_initialisations_are_reported_cut() {
        let text = "MACHINE ManyInits\nVARIABLES x\nINVARIANT x : INTEGER\n\
                    INITIALISATION x :: 0..1000\nOPERATIONS op = skip\nEND";
        let r = check("many-inits", text);
        assert_eq!(r.states, 1000);
        assert!(r.initialisations_cut && !r.partial_enumeration);
        // Exactly MAX_INITIALISATIONS states: all of them.
        let r = check("exact-inits", &text.replace("0..1000", "1..1000"));
        assert_eq!(r.states, 1000);
        assert!(!r.initialisations_cut);
    }

    #[test]
    fn no_deadlock_claimed_when_parameters_were_enumerated_partially() {
        // A few strings stand for STRING: none of them is allowed, yet the operation is enabled.
        let r = check(
            "partial",
            "MACHINE Partial\nVARIABLES x\nINVARIANT x : BOOL\nINITIALISATION x := TRUE\n\
             OPERATIONS op(s) = PRE s : STRING & s /= \"\" & s /= \"a\" & s /= \"b\" THEN skip END\nEND",
        );
        assert!(
            matches!(r.verdict, Verdict::Incomplete(_)),
            "{:?}",
            r.verdict
        );
        // One of them is: no deadlock, and the enumeration is reported partial.
        let r = check(
            "strings",
            "MACHINE Strings\nVARIABLES x\nINVARIANT x : BOOL\nINITIALISATION x := TRUE\n\
             OPERATIONS op(s) = PRE s : STRING THEN skip END\nEND",
        );
        assert!(
            matches!(r.verdict, Verdict::NoErrorFound) && r.partial_enumeration,
            "{:?}",
            r.verdict
        );
        // `n > 200` has no value within MININT..MAXINT: the values from 201 on are tried.
        let r = check(
            "beyond",
            "MACHINE Beyond\nVARIABLES x\nINVARIANT x : BOOL\nINITIALISATION x := TRUE\n\
             OPERATIONS op(n) = PRE n : INTEGER & n > 200 THEN skip END\nEND",
        );
        assert!(
            matches!(r.verdict, Verdict::NoErrorFound),
            "{:?}",
            r.verdict
        );
        let r = check(
            "complete",
            "MACHINE Complete\nVARIABLES x\nINVARIANT x : BOOL\nINITIALISATION x := TRUE\n\
             OPERATIONS op(b) = PRE b : BOOL & b /= b THEN skip END\nEND",
        );
        assert!(matches!(r.verdict, Verdict::Deadlock), "{:?}", r.verdict);
    }

    #[test]
    fn deadlocks_are_counted_when_the_search_goes_past_them() {
        // 0 -> 1 -> 2 and 0 -> 4: the states 4 and 2 are dead ends, 4 found first (breadth-first).
        let text = "MACHINE Dead\nVARIABLES x\nINVARIANT x : 0..4\nINITIALISATION x := 0\n\
                    OPERATIONS up = PRE x < 2 THEN x := x + 1 END;\n\
                    jump = PRE x = 0 THEN x := 4 END\nEND";
        let stop = check("dead", text);
        assert!(
            matches!(stop.verdict, Verdict::Deadlock),
            "{:?}",
            stop.verdict
        );
        assert_eq!((stop.deadlocked_states, stop.explored_all), (1, false));
        let options = McOptions {
            stop_at_deadlock: false,
            ..McOptions::default()
        };
        let all = check_with("dead", text, &options);
        assert!(
            matches!(all.verdict, Verdict::Deadlock),
            "{:?}",
            all.verdict
        );
        assert_eq!((all.deadlocked_states, all.explored_all), (2, true));
        assert_eq!((all.states, all.transitions), (4, 4));
        // The trace still leads to the first deadlock: INITIALISATION, jump.
        assert_eq!(all.trace.len(), 2);
        assert_eq!(all.trace[1].label, "jump");
    }

    #[test]
    fn violations_are_counted_and_expanded_when_the_search_goes_past_them() {
        // 0 -> 1 -> 2 -> 3 and 0 -> 5 -> 6: the invariant x <= 4 fails in 5 (found first, breadth-first)
        // and 6, which the search only reaches by expanding 5.
        let text = "MACHINE Past\nVARIABLES x\nINVARIANT x : 0..4\nINITIALISATION x := 0\n\
                    OPERATIONS up = PRE x < 3 or x = 5 THEN x := x + 1 END;\n\
                    jump = PRE x = 0 THEN x := 5 END;\n\
                    stay = skip\nEND";
        let stop = check("past", text);
        assert!(
            matches!(stop.verdict, Verdict::InvariantViolation(_)),
            "{:?}",
            stop.verdict
        );
        assert_eq!((stop.violating_states, stop.explored_all), (1, false));
        let options = McOptions {
            stop_at_violation: false,
            ..McOptions::default()
        };
        let all = check_with("past", text, &options);
        assert!(
            matches!(all.verdict, Verdict::InvariantViolation(_)),
            "{:?}",
            all.verdict
        );
        assert_eq!((all.violating_states, all.explored_all), (2, true));
        // Six states (0, 1, 2, 3, 5, 6); transitions: initialisation, 6 x stay, up from 0, 1, 2 and 5,
        // jump from 0.
        assert_eq!((all.states, all.transitions), (6, 12));
        // The trace still leads to the first violation: INITIALISATION, jump.
        assert_eq!(all.trace.len(), 2);
        assert_eq!(all.trace[1].label, "jump");
    }

    #[test]
    fn parallel_workers_check_each_new_state_once() {
        // A 6 x 6 grid walked right and up: each state of a breadth-first level is reached from two
        // states of the level before, which one batch expands on several workers.
        let text = "MACHINE Grid\nVARIABLES x, y\nINVARIANT x : 0..5 & y : 0..5\n\
                    INITIALISATION x, y := 0, 0\n\
                    OPERATIONS right = PRE x < 5 THEN x := x + 1 END;\n\
                    up = PRE y < 5 THEN y := y + 1 END\nEND";
        for workers in [1, 2, 4] {
            // (5, 5) is a deadlock, not the point here.
            let options = McOptions {
                workers: Some(workers),
                check_deadlock: false,
                ..McOptions::default()
            };
            let r = check_with("grid", text, &options);
            assert!(
                matches!(r.verdict, Verdict::NoErrorFound),
                "{workers} workers"
            );
            // 36 states (the setup node is not a state to check); 60 moves and the initialisation.
            assert_eq!((r.states, r.transitions), (36, 61), "{workers} workers");
            assert_eq!(r.state_checks, 36, "{workers} workers");
        }
    }

    #[test]
    fn an_ill_defined_guard_without_parameters_leaves_a_deadlock() {
        // `f(x)` is outside f's domain: the one instance of `op` yields no transition, and no other
        // instance was left unexamined.
        let r = check(
            "wdguard",
            "MACHINE WdGuard\nCONSTANTS f\nPROPERTIES f = {1 |-> 2}\nVARIABLES x\n\
             INVARIANT x : INTEGER\nINITIALISATION x := 0\n\
             OPERATIONS op = PRE f(x) > 0 THEN skip END\nEND",
        );
        assert!(matches!(r.verdict, Verdict::Deadlock), "{:?}", r.verdict);
        assert_eq!(r.ill_defined_operations, 1);
    }

    #[test]
    fn invariant_conjuncts_of_changed_variables_are_checked() {
        // `b` changes only in `incb`: its conjunct is skipped after `inca` but caught after `incb`.
        let text = "MACHINE Skip\nVARIABLES a, b\nINVARIANT a : 0..3 & b < 2\n\
                    INITIALISATION a := 0 || b := 0\n\
                    OPERATIONS inca = PRE a < 3 THEN a := a + 1 END;\nincb = BEGIN b := b + 1 END\nEND";
        let r = check("skip", text);
        let Verdict::InvariantViolation(span) = r.verdict else {
            panic!("{:?}", r.verdict);
        };
        assert_eq!(&text[span.start as usize..span.end as usize], "b < 2");
        // The trace is a shortest one: two `incb`.
        assert_eq!(r.trace.len(), 3);
    }

    #[test]
    fn ill_defined_operations_are_noted_and_the_search_goes_on() {
        // `get` applies `f` outside its domain when x = 2: no transition, and the other states and
        // transitions are still explored.
        let r = check(
            "wd",
            "MACHINE Wd\nCONSTANTS f\nPROPERTIES f = {0 |-> 10, 1 |-> 11}\nVARIABLES x, y\n\
             INVARIANT x : 0..3 & y : INTEGER & (x : dom(f) => f(x) > 9)\n\
             INITIALISATION x := 0 || y := 0\n\
             OPERATIONS inc = PRE x < 2 THEN x := x + 1 END;\n\
             get = BEGIN y := f(x) END;\nreset = BEGIN x := 0 END\nEND",
        );
        match &r.verdict {
            Verdict::IllDefinedOperations { first, count } => {
                assert!(first.message.contains("outside its domain"), "{first}");
                assert_eq!(*count, 3);
            }
            other => panic!("{other:?}"),
        }
        // The setup and every (x, y) in 0..2 * {0, 10, 11}; `get` fails in the three states with x = 2.
        assert_eq!(r.states, 10);
        assert_eq!(r.ill_defined_operations, 3);
        // The trace leads to a state where x = 2.
        let last = r.trace.last().expect("a trace");
        assert!(
            last.changed
                .iter()
                .any(|(n, v)| &**n == "x" && v.to_string() == "2"),
            "{:?}",
            r.trace
        );
    }
}
