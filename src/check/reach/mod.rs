//! `bsolve mc --symbolic`: symbolic reachability over list decision diagrams (Bendisposto,
//! Körner, Leuschel, Meijer, van de Pol, Treharne, Whitefield, "Symbolic Reachability Analysis of B
//! through ProB and LTSmin", iFM 2016).
//!
//! States are vectors of slots (`vectors`); the reachable set and each breadth-first layer are LDDs
//! (`crate::ldd`); each operation's transition relation is learned from the interpreter on the
//! projections of the states met (`learn`), and successors are the relational products of states with
//! those relations, in the order the strategy gives (`strategy`: breadth-first levels, chaining or
//! saturation; each (state, group) pair is expanded once whatever the order). Invariant conjuncts and assertions are evaluated once
//! per new projection on the variables they read, deadlocks are the new states that no operation's
//! enabled projections select, and a counterexample is found backwards through the layers (`trace`)
//! and replayed by the interpreter.
//!
//! Counts follow the explicit checker's (`check::mc`, ProB's convention): one node per constant setup
//! plus the reachable states; transitions are SETUP_CONSTANTS and INITIALISATION edges plus, per
//! operation, the related (state, transition label) pairs — the distinct edges. Ill-defined operation
//! instances, invariants and assertions are counted as the explicit search counts them, and parameters
//! cut by a limit on the values enumerated are kept as it keeps them. What the relations cannot carry
//! (an operation whose read and write sets are not exact, a SCOPE, a parameter search cut for time)
//! stops the search with an UNKNOWN verdict saying why; a limit (time, memory, `--max-states`,
//! `--max-nodes`) likewise. Where several errors lie in the first layer holding
//! one, a violation is reported before a deadlock; counts at an error are those of the layers explored
//! (the explicit checker stops within a layer, so its counts there depend on its order).

mod checks;
mod learn;
mod strategy;
mod trace;
mod vectors;

use super::Model;
use super::mc::{
    McOptions, McResult, SymbolicStats, SymbolicStrategy, Verdict, cpu_time, has_setup_nodes,
    partition_assertions, peak_memory_kib,
};
use crate::analysis::before_after::exact_read_write;
use crate::diag::{Diagnostic, Span};
use crate::eval::{Env, EvalError};
use crate::ir::Pred;
use crate::ldd::{EMPTY, Ldd, NodeLimit, Table};
use crate::solve::Symmetry;
use crate::value::Value;
use checks::Check;
use learn::{Group, Oracle};
use std::time::Instant;
use vectors::Interner;

/// Why the symbolic search stopped short: the reason an UNKNOWN verdict gives.
pub struct Halt(pub String);

impl From<NodeLimit> for Halt {
    fn from(limit: NodeLimit) -> Halt {
        Halt(format!("{limit} (--max-nodes)"))
    }
}

/// The node limit when none is given: a quarter of the memory available, at `ldd::BYTES_PER_NODE`
/// bytes a node (plus the operation cache's share), at least a million nodes, at most 2^31.
fn default_max_nodes() -> usize {
    let available_kib = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemAvailable:"))?;
        line.split_whitespace().nth(1)?.parse::<usize>().ok()
    });
    let bytes = available_kib.map_or(4 << 30, |k| k.saturating_mul(1024));
    (bytes / 4 / (2 * crate::ldd::BYTES_PER_NODE)).clamp(1 << 20, 1 << 31)
}

/// What the search found, before it becomes an `McResult`.
struct Found {
    verdict: Verdict,
    /// The state vector the trace leads to and the layer it lies in, or a setup index when the trace
    /// ends at a setup node.
    at: Option<(Vec<u32>, usize)>,
    at_setup: Option<u32>,
}

impl Found {
    fn plain(verdict: Verdict) -> Found {
        Found {
            verdict,
            at: None,
            at_setup: None,
        }
    }
}

struct Search<'m> {
    model: &'m Model,
    options: &'m McOptions,
    start: Instant,
    table: Table,
    interner: Interner,
    setups: Vec<Vec<Value>>,
    has_setup_nodes: bool,
    groups: Vec<Group>,
    checks: Vec<Check<'m>>,
    /// The states each round added (breadth-first: the levels).
    layers: Vec<Ldd>,
    /// Per group, the states it has been applied to.
    expanded: Vec<Ldd>,
    /// The violating and the deadlocked states judged so far.
    violating_seen: Ldd,
    deadlocked_seen: Ldd,
    states: u128,
    transitions: u128,
    /// Nodes whose successors were computed: the root, the setup nodes, the states of the levels
    /// expanded (the explicit search's `processed`).
    processed: u128,
    partial_enumeration: bool,
    /// More setups or initial states exist than MAX_INITIALISATIONS (`McResult::initialisations_cut`).
    initialisations_cut: bool,
    setups_cut_for_time: bool,
    setups_up_to_symmetry: bool,
    deadlocked_states: u128,
    violating_states: u128,
    first_error: Option<Found>,
    /// Ill-defined operation instances, invariants and assertions met, and the first: its diagnostic,
    /// and the state (and layer) or the setup it was met in.
    ill_defined_count: u128,
    ill_defined_first: Option<(Diagnostic, Vec<u32>, usize)>,
    ill_defined_setup: Option<(Diagnostic, u32)>,
    explored_all: bool,
    stats: SymbolicStats,
}

/// Runs the symbolic model checker.
pub fn symbolic_model_check(model: &Model, options: &McOptions) -> Result<McResult, Diagnostic> {
    let start = Instant::now();
    let machine = model.machine();
    let max_nodes = options.max_nodes.unwrap_or_else(default_max_nodes);
    let mut table = Table::new(max_nodes);
    let mut unsupported = None;
    if machine.scope.is_some() {
        unsupported = Some("the machine has a SCOPE".to_string());
    }
    if options.por {
        unsupported = Some("partial-order reduction is an explicit-search option".to_string());
    }
    if machine.state_constraint.is_some() {
        unsupported = Some("the model file's CONSTRAINT prunes states one by one".to_string());
    }
    let mut groups = Vec::new();
    for op in &machine.operations {
        match exact_read_write(machine, op) {
            Some(rw) => groups.push(Group::new(&mut table, machine, &rw)),
            None => {
                unsupported.get_or_insert_with(|| {
                    format!(
                        "the read and write sets of operation {} are not exact (an operation call, a \
                         WHILE loop or a local named like a variable)",
                        op.name
                    )
                });
            }
        }
    }
    let (static_assertions, dynamic_assertions) = partition_assertions(model);
    let mut checks = Vec::new();
    if options.check_invariant {
        checks.extend(
            machine
                .invariant
                .conjuncts()
                .into_iter()
                .map(|p| (p, false)),
        );
    }
    if options.check_assertions {
        checks.extend(dynamic_assertions.into_iter().map(|p| (p, true)));
    }
    let checks = checks
        .into_iter()
        .map(|(pred, assertion)| Check::new(&mut table, machine, pred, assertion))
        .collect();
    let mut search = Search {
        model,
        options,
        start,
        table,
        interner: Interner::new(machine.variables.len()),
        setups: Vec::new(),
        has_setup_nodes: has_setup_nodes(machine),
        groups,
        checks,
        layers: Vec::new(),
        expanded: Vec::new(),
        violating_seen: EMPTY,
        deadlocked_seen: EMPTY,
        states: 0,
        transitions: 0,
        processed: 1,
        partial_enumeration: false,
        initialisations_cut: false,
        setups_cut_for_time: false,
        setups_up_to_symmetry: false,
        deadlocked_states: 0,
        violating_states: 0,
        first_error: None,
        ill_defined_count: 0,
        ill_defined_first: None,
        ill_defined_setup: None,
        explored_all: false,
        stats: SymbolicStats {
            strategy: options.strategy,
            max_nodes,
            ..SymbolicStats::default()
        },
    };
    let found = match unsupported {
        Some(why) => Ok(Found::plain(Verdict::Incomplete(format!(
            "the symbolic search does not apply: {why}; use the explicit mc"
        )))),
        None => search.run(&static_assertions),
    };
    let found = match found {
        Ok(found) => found,
        Err(Halt(why)) => search.first_error.take().unwrap_or_else(|| {
            Found::plain(Verdict::Incomplete(format!(
                "symbolic search stopped: {why}"
            )))
        }),
    };
    let (verdict, trace) = match search.trace(&found)? {
        Ok(trace) => (found.verdict, trace),
        Err(why) => (
            Verdict::Incomplete(format!(
                "the symbolic search found {}, but {why}",
                match found.verdict {
                    Verdict::Deadlock => "a deadlock",
                    Verdict::InvariantViolation(_) => "an invariant violation",
                    Verdict::AssertionViolation(_) => "an assertion violation",
                    _ => "an error",
                }
            )),
            vec![],
        ),
    };
    search.stats.trace_shortest =
        options.strategy == SymbolicStrategy::BreadthFirst || search.explored_all;
    search.stats.ldd_nodes = search.table.nodes();
    search.stats.ldd_cache_hits = search.table.cache_hits();
    let count = |n: u128| usize::try_from(n).unwrap_or(usize::MAX);
    Ok(McResult {
        verdict,
        trace,
        states: count(search.states),
        transitions: count(search.transitions),
        processed: count(search.processed),
        partial_enumeration: search.partial_enumeration,
        initialisations_cut: search.initialisations_cut,
        ill_defined_operations: count(search.ill_defined_count),
        deadlocked_states: count(search.deadlocked_states),
        violating_states: count(search.violating_states),
        explored_all: search.explored_all,
        setups_up_to_symmetry: search.setups_up_to_symmetry,
        setups: if search.has_setup_nodes {
            search.setups.len()
        } else {
            0
        },
        state_checks: search.stats.check_calls as usize,
        elapsed: start.elapsed(),
        reuse: None,
        por: None,
        symbolic: Some(search.stats),
        symmetry: None,
        peak_memory_kib: peak_memory_kib(),
        cpu_time: cpu_time(),
    })
}

impl<'m> Search<'m> {
    /// Sets up the constants and the initial states, then explores level by level.
    fn run(&mut self, static_assertions: &[&Pred]) -> Result<Found, Halt> {
        let ctx = &self.model.context;
        let settings = ctx.settings();
        let max_inits = settings.max_initialisations;
        if self.has_setup_nodes {
            let time_cuts = ctx.time_cuts();
            let symmetry = if self.options.setup_symmetry {
                Symmetry::ProbSetups
            } else {
                Symmetry::Expanded
            };
            // One setup more than the limit tells a cut list from one of exactly `max_inits`.
            let mut found = (ctx.setup_constants(max_inits.saturating_add(1), symmetry))
                .map_err(|e| Halt(format!("constant setups: {e}")))?;
            let beyond_limit = found.solutions.len() > max_inits;
            found.solutions.truncate(max_inits);
            // In value order, as the explicit search takes them (`check::mc`).
            found.solutions.sort();
            self.setups_up_to_symmetry = found.symmetry_reduced;
            self.setups_cut_for_time |= ctx.time_cuts() > time_cuts;
            self.partial_enumeration |= !found.complete && !beyond_limit;
            self.initialisations_cut |= beyond_limit;
            if found.solutions.is_empty() {
                return Ok(Found::plain(Verdict::NoConstantSetup {
                    complete: found.complete,
                }));
            }
            self.setups = found.solutions;
        } else {
            self.setups = vec![vec![]];
        }
        // Setup nodes are added and checked one after the other; the explicit search stops at the
        // first whose static assertion is false.
        for setup in 0..self.setups.len() {
            if self.has_setup_nodes {
                self.states += 1;
                self.transitions += 1;
                self.processed += 1;
            }
            if let Some(span) = self.static_assertion_false(setup, static_assertions)? {
                return Ok(Found {
                    verdict: Verdict::AssertionViolation(span),
                    at: None,
                    at_setup: Some(setup as u32).filter(|_| self.has_setup_nodes),
                });
            }
        }
        let mut initial = Vec::new();
        let mut filler = None;
        for setup in 0..self.setups.len() {
            let listed = (ctx.initial_states_listed(&self.setups[setup], max_inits))
                .map_err(|e| Halt(format!("INITIALISATION: {e}")))?;
            self.partial_enumeration |= listed.search_cut;
            self.initialisations_cut |= listed.beyond_limit;
            let states = listed.states;
            if states.is_empty() {
                return Ok(Found {
                    verdict: Verdict::NoInitialisation,
                    at: None,
                    at_setup: Some(setup as u32).filter(|_| self.has_setup_nodes),
                });
            }
            for state in states {
                initial.push(self.interner.vector(setup as u32, &state.values));
                filler.get_or_insert(state.values);
            }
        }
        let filler = filler.expect("every setup has an initial state");
        let initial = self.table.from_tuples(initial.iter().map(Vec::as_slice))?;
        let initial_edges = self.table.count(initial);
        self.states += initial_edges;
        self.transitions += initial_edges;
        self.explore(initial, &filler)
    }

    fn static_assertion_false(
        &mut self,
        setup: usize,
        assertions: &[&Pred],
    ) -> Result<Option<Span>, Halt> {
        if !self.options.check_assertions || assertions.is_empty() {
            return Ok(None);
        }
        let ctx = &self.model.context;
        let mut env = Env::new();
        ctx.bind_constants(&mut env, &self.setups[setup]);
        let env = env.freeze();
        for a in assertions {
            match ctx.eval_pred(a, &env) {
                Ok(true) => {}
                Ok(false) => return Ok(Some(a.span)),
                // Neither true nor false: noted, and the search goes on (`check::mc`).
                Err(EvalError::WellDefinedness(d)) => {
                    self.ill_defined_count += 1;
                    self.ill_defined_setup.get_or_insert((d, setup as u32));
                    return Ok(None);
                }
                Err(e) => {
                    return Err(Halt(format!(
                        "the assertion at {} is not decided ({e})",
                        a.span
                    )));
                }
            }
        }
        Ok(None)
    }

    /// Time, memory and state limits between steps of the search.
    fn go_on(options: &McOptions, model: &Model, start: Instant, states: u128) -> Result<(), Halt> {
        if model.context.stopped_for_memory() {
            return Err(Halt("memory limit reached (--max-memory)".into()));
        }
        if let Some(timeout) = options.timeout
            && start.elapsed() > timeout
        {
            return Err(Halt(format!("timeout after {} ms", timeout.as_millis())));
        }
        if let Some(limit) = options.max_states
            && states + 1 > limit as u128
        {
            return Err(Halt(format!("--max-states {limit} reached")));
        }
        Ok(())
    }

    /// Rounds of the strategy from `initial` until no new state, an error that stops the search or a
    /// limit. Each round checks the states not checked before, applies the groups in the strategy's
    /// order (`strategy`: each group to the states it has not expanded yet, so every (state, group)
    /// pair is expanded, and its transitions counted, exactly once), then judges the states every
    /// group has expanded (deadlocks). Breadth-first, a round is a level; the images of a level join
    /// the reachable set only after its errors are judged, so that counts at an error are those of the
    /// levels explored.
    fn explore(&mut self, initial: Ldd, filler: &[Value]) -> Result<Found, Halt> {
        let mut reach = initial;
        let (mut checked, mut judged) = (EMPTY, EMPTY);
        self.layers.push(initial);
        self.expanded = vec![EMPTY; self.groups.len()];
        loop {
            Self::go_on(self.options, self.model, self.start, self.states)?;
            let level = self.layers.len() - 1;
            let new = self.table.minus(reach, checked)?;
            let (violating, checks_ill_defined) = {
                let (options, model, start, states) =
                    (self.options, self.model, self.start, self.states);
                let go_on = move || Self::go_on(options, model, start, states);
                self.check_level(new, filler, &go_on)?
            };
            self.note_checks_ill_defined(checks_ill_defined, level);
            checked = reach;
            let before = reach;
            let pending = self.round(&mut reach, filler, level)?;
            if self.options.stop_at_ill_defined
                && let Some(found) = self.ill_defined_as_error()
            {
                return Ok(found);
            }
            // States are judged once checked (a violation in a deadlocked state is reported first,
            // as the explicit search reports it) and expanded by every group.
            let mut complete = self.table.minus(checked, judged)?;
            for k in 0..self.expanded.len() {
                complete = self.table.intersect(complete, self.expanded[k])?;
            }
            judged = self.table.union(judged, complete)?;
            let deadlocked = self.deadlocked(complete)?;
            self.processed = self.processed.saturating_add(self.table.count(complete));
            self.violating_seen = self.table.union(self.violating_seen, violating)?;
            self.deadlocked_seen = self.table.union(self.deadlocked_seen, deadlocked)?;
            if let Some(found) = self.errors_of_level(violating, deadlocked, level) {
                return Ok(found);
            }
            reach = self.grow(reach, pending)?;
            let grown = self.table.minus(reach, before)?;
            self.stats.levels += 1;
            if grown == EMPTY {
                break;
            }
            self.layers.push(grown);
        }
        self.explored_all = true;
        // Out of breadth-first order, the first error met need not be breadth-first's; with every
        // state expanded, breadth-first's is found again over the learned transitions (kept as met if
        // the node limit stops that).
        if self.options.strategy != SymbolicStrategy::BreadthFirst
            && self.first_error.is_some()
            && let Ok(Some(found)) = self.first_error_in_bfs_order()
        {
            return Ok(found);
        }
        if let Some(found) = self.first_error.take() {
            return Ok(found);
        }
        let count = usize::try_from(self.ill_defined_count).unwrap_or(usize::MAX);
        // A setup's note comes first: setups are checked before any state.
        if let Some((first, setup)) = self.ill_defined_setup.take() {
            return Ok(Found {
                verdict: Verdict::IllDefinedOperations { first, count },
                at: None,
                at_setup: Some(setup).filter(|_| self.has_setup_nodes),
            });
        }
        if let Some((first, state, level)) = self.ill_defined_first.take() {
            return Ok(Found {
                verdict: Verdict::IllDefinedOperations { first, count },
                at: Some((state, level)),
                at_setup: None,
            });
        }
        if self.setups_cut_for_time {
            return Ok(Found::plain(Verdict::Incomplete(
                "no error in the states of the constant setups found, but the setup search dropped \
                 some candidates for time: other setups may exist"
                    .into(),
            )));
        }
        Ok(Found::plain(Verdict::NoErrorFound))
    }

    /// `reach` with the states of `image`, counted.
    fn grow(&mut self, reach: Ldd, image: Ldd) -> Result<Ldd, NodeLimit> {
        let new = self.table.minus(image, reach)?;
        self.states = self.states.saturating_add(self.table.count(new));
        self.table.union(reach, new)
    }

    /// Applies group `k` to `front` (states it has not expanded): learns the projections not met
    /// before, counts the transitions and ill-defined instances leaving `front`, and returns their
    /// targets. `level` is the round, kept with the first ill-defined instance for its trace.
    fn expand(
        &mut self,
        k: usize,
        front: Ldd,
        filler: &[Value],
        level: usize,
    ) -> Result<Ldd, Halt> {
        if front == EMPTY {
            return Ok(EMPTY);
        }
        let (options, model, start, states) = (self.options, self.model, self.start, self.states);
        let go_on = move || Self::go_on(options, model, start, states);
        let oracle = Oracle {
            context: &self.model.context,
            machine: self.model.machine(),
            setups: &self.setups,
            filler,
            max_per_op: self.model.context.settings().max_operations,
        };
        let group = &mut self.groups[k];
        let calls = group.learn(
            k,
            &mut self.table,
            front,
            &oracle,
            &mut self.interner,
            &go_on,
        )?;
        self.stats.next_state_calls += calls;
        let reused = self.table.count(front).saturating_sub(u128::from(calls));
        let reused = u64::try_from(reused).unwrap_or(u64::MAX);
        self.stats.reused = self.stats.reused.saturating_add(reused);
        let group = &self.groups[k];
        if group.ill_defined != EMPTY {
            let instances = self
                .table
                .count_pairs(front, group.ill_defined, group.read_meta);
            self.ill_defined_count = self.ill_defined_count.saturating_add(instances);
            if self.ill_defined_first.is_none() {
                let at = (self.table).rel_prod(front, group.ill_defined, group.read_meta)?;
                if let Some(state) = self.table.any_tuple(at)
                    && let Some(d) = group.ill_defined_in(&state)
                {
                    self.ill_defined_first = Some((d.clone(), state, level));
                }
            }
        }
        self.partial_enumeration |= group.partial != EMPTY;
        let edges = self.table.count_pairs(front, group.relation, group.meta);
        self.transitions = self.transitions.saturating_add(edges);
        let image = self.table.rel_prod(front, group.relation, group.meta)?;
        self.expanded[k] = self.table.union(self.expanded[k], front)?;
        Ok(image)
    }

    /// The deadlocked states of `complete` (states every group has expanded): those no group's
    /// enabled projections select. No transition among parameters enumerated in part proves no
    /// deadlock (`check::mc`): such a state stops the search.
    fn deadlocked(&mut self, complete: Ldd) -> Result<Ldd, Halt> {
        if complete == EMPTY {
            return Ok(EMPTY);
        }
        let (mut enabled, mut partial) = (EMPTY, EMPTY);
        for group in &self.groups {
            if self.options.check_deadlock {
                let some = (self.table).rel_prod(complete, group.enabled, group.read_meta)?;
                enabled = self.table.union(enabled, some)?;
            }
            if group.partial != EMPTY {
                let cut = (self.table).rel_prod(complete, group.partial, group.read_meta)?;
                partial = self.table.union(partial, cut)?;
            }
        }
        let deadlocked = if self.options.check_deadlock {
            self.table.minus(complete, enabled)?
        } else {
            EMPTY
        };
        if self.table.intersect(deadlocked, partial)? != EMPTY {
            return Err(Halt(
                "no operation is enabled for the parameter values enumerated, but some parameter \
                 domains could only be enumerated partially"
                    .into(),
            ));
        }
        Ok(self.table.minus(deadlocked, partial)?)
    }

    /// The first ill-defined setup assertion, operation instance, invariant or assertion as the error
    /// that ends the search (`McOptions::stop_at_ill_defined`).
    fn ill_defined_as_error(&mut self) -> Option<Found> {
        if let Some((first, setup)) = self.ill_defined_setup.take() {
            return Some(Found {
                verdict: Verdict::WellDefinedness(first),
                at: None,
                at_setup: Some(setup).filter(|_| self.has_setup_nodes),
            });
        }
        let (first, state, level) = self.ill_defined_first.take()?;
        Some(Found {
            verdict: Verdict::WellDefinedness(first),
            at: Some((state, level)),
            at_setup: None,
        })
    }

    /// Counts the states of a round whose checks are ill-defined (`checks_ill_defined`) and keeps
    /// the first met.
    fn note_checks_ill_defined(&mut self, checks_ill_defined: Ldd, level: usize) {
        let states = self.table.count(checks_ill_defined);
        self.ill_defined_count = self.ill_defined_count.saturating_add(states);
        if self.ill_defined_first.is_none()
            && let Some(state) = self.table.any_tuple(checks_ill_defined)
        {
            let first = self.checks.iter().find_map(|c| {
                let projection: Vec<u32> = c.key.iter().map(|&s| state[s as usize]).collect();
                c.diagnostics.get(&projection).cloned()
            });
            if let Some(d) = first {
                self.ill_defined_first = Some((d, state, level));
            }
        }
    }

    /// The error that ends the search at this level, if any; errors the search goes past are counted
    /// and the first kept.
    ///
    /// The explicit search meets a state's deadlock before the violation it found in that state, but
    /// reports the violation first when it stops at violations; a symbolic level follows the same
    /// preferences (between different states of one level the explicit order is its own).
    fn errors_of_level(&mut self, violating: Ldd, deadlocked: Ldd, level: usize) -> Option<Found> {
        let mut violation = None;
        if violating != EMPTY {
            self.violating_states += self.table.count(violating);
            let state = self.table.any_tuple(violating).expect("not empty");
            let verdict = self.violation_in(&state);
            violation = Some(Found {
                verdict,
                at: Some((state, level)),
                at_setup: None,
            });
        }
        let mut deadlock = None;
        if deadlocked != EMPTY {
            self.deadlocked_states += self.table.count(deadlocked);
            let state = self.table.any_tuple(deadlocked).expect("not empty");
            deadlock = Some(Found {
                verdict: Verdict::Deadlock,
                at: Some((state, level)),
                at_setup: None,
            });
        }
        if self.options.stop_at_violation && violation.is_some() {
            return violation;
        }
        if self.options.stop_at_deadlock && deadlock.is_some() {
            return deadlock;
        }
        if self.first_error.is_none() {
            self.first_error = deadlock.or(violation);
        }
        None
    }
}
