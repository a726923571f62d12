//! A B machine's state space for the temporal checkers, explored on demand by the interpreter.
//!
//! Nodes are (constant setup, state) pairs; the checked runs start in the initialised states of every
//! setup (ProB's LTL and CTL start there too: SETUP_CONSTANTS and INITIALISATION are not positions of the
//! run). Setups that differ by a permutation of a deferred set's elements are taken once, as `mc` does:
//! no atom can tell such elements apart, so verdicts are the same. Edges are the enabled operation
//! instances (`Context::successors_tolerant`): an ill-defined instance yields no edge, as in `mc`.

use super::space::{Edge, EdgeRef, NodeId, StateSpace, Stop};
use crate::diag::{DiagKind, Diagnostic};
use crate::eval::{Context, Env, EvalError, State};
use crate::ir::{Expr, Pred};
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::sync::Arc;
use std::time::Instant;

/// An atom of a formula, resolved against the machine.
#[derive(Clone, Debug)]
pub enum MachineAtom {
    /// `{P}`, with the values of the quantified identifiers it mentions (`#x.({x : S} & ...)`).
    Pred(Pred, Bindings),
    /// `e(Op)`: an instance of the operation is enabled.
    Enabled(usize),
    /// `[Op(args)]`: the step is an instance of the operation whose parameters equal the given
    /// arguments (`None`: any value), evaluated in the step's source state.
    Taken {
        operation: usize,
        args: Vec<Option<Expr>>,
        bindings: Bindings,
    },
    Deadlock,
    /// `deadlock(Op, ...)`: none of these operations is enabled.
    DeadlockOf(Vec<usize>),
    /// At most one instance of these operations is enabled.
    Deterministic(Vec<usize>),
    /// Exactly one instance of these operations is enabled.
    Controller(Vec<usize>),
    /// No step leads to another state.
    Sink,
    /// An initial state of the check.
    Current,
    /// The GOAL definition holds.
    Goal,
    /// The invariant does not hold.
    Error,
}

/// Values of a formula's quantified identifiers, bound where an atom is evaluated.
pub type Bindings = Vec<(crate::syntax::ast::Name, Value)>;

/// One explored step: its operation, parameters and outputs (for traces).
#[derive(Clone, Debug)]
pub struct StepLabel {
    pub operation: usize,
    pub params: Vec<Value>,
    pub outputs: Vec<Value>,
}

pub struct MachineSpace<'c> {
    ctx: &'c Context,
    operations: Vec<String>,
    atoms: Vec<Arc<MachineAtom>>,
    /// Constant setups (parameters, then constants).
    pub setups: Vec<Vec<Value>>,
    nodes: Vec<(u32, State)>,
    index: FxHashMap<(u32, State), NodeId>,
    edges: Vec<Option<Vec<Edge>>>,
    labels: Vec<Vec<StepLabel>>,
    initial: Option<Vec<NodeId>>,
    /// State atoms' values by (atom, node).
    cache: FxHashMap<(usize, NodeId), bool>,
    max_states: usize,
    deadline: Option<Instant>,
    partial: bool,
    /// Nodes whose successors were enumerated in part: what they enable is not known exactly.
    partial_nodes: rustc_hash::FxHashSet<NodeId>,
    /// Why the space may be partial, for the user.
    pub partial_reason: Option<String>,
    /// Operation instances whose guard or body was ill-defined (each yields no edge).
    pub ill_defined: usize,
}

impl<'c> MachineSpace<'c> {
    pub fn new(ctx: &'c Context, max_states: usize) -> MachineSpace<'c> {
        let operations = (ctx.machine().operations.iter())
            .map(|o| o.name.to_string())
            .collect();
        MachineSpace {
            ctx,
            operations,
            atoms: Vec::new(),
            setups: Vec::new(),
            nodes: Vec::new(),
            index: FxHashMap::default(),
            edges: Vec::new(),
            labels: Vec::new(),
            initial: None,
            cache: FxHashMap::default(),
            max_states,
            deadline: None,
            partial: false,
            partial_nodes: rustc_hash::FxHashSet::default(),
            partial_reason: None,
            ill_defined: 0,
        }
    }

    /// Adds an atom; its index.
    pub fn add_atom(&mut self, atom: MachineAtom) -> usize {
        self.atoms.push(Arc::new(atom));
        self.atoms.len() - 1
    }

    /// The point after which every call stops with `Stop::Limit` (for one formula's budget).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    pub fn context(&self) -> &'c Context {
        self.ctx
    }

    /// The setup and state of a node.
    pub fn node(&self, n: NodeId) -> (u32, &State) {
        let (s, state) = &self.nodes[n as usize];
        (*s, state)
    }

    /// The label of a node's `i`-th edge (the node's edges must have been computed).
    pub fn label(&self, n: NodeId, i: usize) -> &StepLabel {
        &self.labels[n as usize][i]
    }

    /// The constants of the first constant setup (setting the constants up if not done yet), for
    /// formulas whose quantifiers read constants; `None` when there is none.
    pub fn initial_setup(&mut self) -> Option<Vec<Value>> {
        self.initial().ok()?;
        self.setups.first().cloned()
    }

    /// Whether node `n`'s successors were enumerated in part (some of its steps may be missing).
    pub fn is_partial_node(&self, n: NodeId) -> bool {
        self.partial_nodes.contains(&n)
    }

    /// Whether atom `atom` reads what a node enables (`e(Op)`, `deadlock`, `sink` ...), which a node
    /// with steps missing may get wrong.
    pub fn reads_enabledness(&self, atom: usize) -> bool {
        matches!(
            *self.atoms[atom],
            MachineAtom::Enabled(_)
                | MachineAtom::Deadlock
                | MachineAtom::DeadlockOf(_)
                | MachineAtom::Deterministic(_)
                | MachineAtom::Controller(_)
                | MachineAtom::Sink
        )
    }

    /// Nodes found so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn mark_partial(&mut self, why: &str) {
        self.partial = true;
        self.partial_reason.get_or_insert_with(|| why.to_string());
    }

    fn check_time(&self) -> Result<(), Stop> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Stop::Limit("time budget spent".into())),
            _ => Ok(()),
        }
    }

    fn intern(&mut self, setup: u32, state: State) -> Result<NodeId, Stop> {
        let key = (setup, state);
        if let Some(&n) = self.index.get(&key) {
            return Ok(n);
        }
        if self.nodes.len() >= self.max_states {
            return Err(Stop::Limit(format!(
                "more than {} states (--max-states)",
                self.max_states
            )));
        }
        let n = self.nodes.len() as NodeId;
        self.nodes.push(key.clone());
        self.index.insert(key, n);
        self.edges.push(None);
        self.labels.push(Vec::new());
        Ok(n)
    }

    fn compute_initial(&mut self) -> Result<Vec<NodeId>, Stop> {
        let ctx = self.ctx;
        let m = ctx.machine();
        let limit = ctx.settings().max_initialisations;
        let setups = if m.constants.is_empty() && m.params.is_empty() {
            vec![Vec::new()]
        } else {
            let found = ctx
                .setup_constants(limit, crate::solve::Symmetry::ProbSetups)
                .map_err(stop)?;
            if !found.complete {
                self.mark_partial(
                    "the constant setups were enumerated in part (MAX_INITIALISATIONS or a bound)",
                );
            }
            found.solutions
        };
        let mut initial = Vec::new();
        for (k, constants) in setups.iter().enumerate() {
            self.check_time()?;
            let listed = ctx.initial_states_listed(constants, limit).map_err(stop)?;
            if listed.beyond_limit {
                self.mark_partial(
                    "the initial states were enumerated in part (MAX_INITIALISATIONS)",
                );
            }
            if listed.search_cut {
                self.mark_partial(
                    "the initial states were enumerated in part (within MININT..MAXINT or as sample \
                     strings)",
                );
            }
            let states = listed.states;
            for s in states {
                let n = self.intern(k as u32, s)?;
                if !initial.contains(&n) {
                    initial.push(n);
                }
            }
        }
        self.setups = setups;
        Ok(initial)
    }

    fn expand(&mut self, n: NodeId) -> Result<(), Stop> {
        self.check_time()?;
        let ctx = self.ctx;
        let (setup, state) = self.nodes[n as usize].clone();
        let max_ops = ctx.settings().max_operations;
        let found = ctx
            .successors_tolerant(&self.setups[setup as usize], &state, max_ops)
            .map_err(|e| stop_at(e, n))?;
        if !found.complete {
            self.partial_nodes.insert(n);
            self.mark_partial(
                "some operation's parameters were enumerated in part (MAX_OPERATIONS, or within \
                 MININT..MAXINT)",
            );
        }
        self.ill_defined += found.ill_defined.len();
        let mut edges = Vec::with_capacity(found.transitions.len());
        let mut labels = Vec::with_capacity(found.transitions.len());
        for t in found.transitions {
            let target = self.intern(setup, t.target)?;
            edges.push(Edge {
                operation: t.operation,
                target,
            });
            labels.push(StepLabel {
                operation: t.operation,
                params: t.params,
                outputs: t.outputs,
            });
        }
        self.edges[n as usize] = Some(edges);
        self.labels[n as usize] = labels;
        Ok(())
    }

    /// The environment of node `n` with `bindings` added.
    fn env(&self, n: NodeId, bindings: &[(crate::syntax::ast::Name, Value)]) -> Result<Env, Stop> {
        let (setup, state) = &self.nodes[n as usize];
        let mut env = self
            .ctx
            .state_env(&self.setups[*setup as usize], state)
            .map_err(|e| stop_at(e, n))?;
        for (name, value) in bindings {
            env.bind(name.clone(), value.clone());
        }
        Ok(env)
    }

    fn state_pred(
        &mut self,
        p: &Pred,
        n: NodeId,
        bindings: &[(crate::syntax::ast::Name, Value)],
    ) -> Result<bool, Stop> {
        let env = self.env(n, bindings)?;
        self.ctx.eval_pred(p, &env).map_err(|e| stop_at(e, n))
    }

    fn count_enabled(&mut self, n: NodeId, ops: &[usize]) -> Result<usize, Stop> {
        Ok(self
            .edges(n)?
            .iter()
            .filter(|e| ops.contains(&e.operation))
            .count())
    }

    fn taken(
        &mut self,
        n: NodeId,
        edge: EdgeRef,
        operation: usize,
        args: &[Option<Expr>],
        bindings: &[(crate::syntax::ast::Name, Value)],
    ) -> Result<bool, Stop> {
        let Some(i) = edge else {
            return Ok(false);
        };
        self.edges(n)?;
        let label = self.labels[n as usize][i].clone();
        if label.operation != operation {
            return Ok(false);
        }
        if args.iter().all(Option::is_none) {
            return Ok(true);
        }
        let env = self.env(n, bindings)?;
        for (arg, value) in args.iter().zip(&label.params) {
            if let Some(e) = arg {
                let wanted = self.ctx.eval_expr(e, &env).map_err(|e| stop_at(e, n))?;
                if &wanted != value {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

impl StateSpace for MachineSpace<'_> {
    fn initial(&mut self) -> Result<Vec<NodeId>, Stop> {
        if self.initial.is_none() {
            let initial = self.compute_initial()?;
            self.initial = Some(initial);
        }
        Ok(self.initial.clone().unwrap_or_default())
    }

    fn edges(&mut self, node: NodeId) -> Result<&[Edge], Stop> {
        if self.edges[node as usize].is_none() {
            self.expand(node)?;
        }
        Ok(self.edges[node as usize].as_deref().unwrap_or(&[]))
    }

    fn holds(&mut self, atom: usize, node: NodeId, edge: EdgeRef) -> Result<bool, Stop> {
        if let Some(&v) = self.cache.get(&(atom, node)) {
            return Ok(v);
        }
        let value = match &*self.atoms[atom].clone() {
            // An event atom reads the step: not cached per node.
            MachineAtom::Taken {
                operation,
                args,
                bindings,
            } => {
                return self.taken(node, edge, *operation, args, bindings);
            }
            MachineAtom::Pred(p, bindings) => self.state_pred(p, node, bindings)?,
            MachineAtom::Enabled(op) => self.count_enabled(node, &[*op])? > 0,
            MachineAtom::Deadlock => self.edges(node)?.is_empty(),
            MachineAtom::DeadlockOf(ops) => self.count_enabled(node, ops)? == 0,
            MachineAtom::Deterministic(ops) => self.count_enabled(node, ops)? <= 1,
            MachineAtom::Controller(ops) => self.count_enabled(node, ops)? == 1,
            MachineAtom::Sink => self.edges(node)?.iter().all(|e| e.target == node),
            MachineAtom::Current => self.initial()?.contains(&node),
            MachineAtom::Goal => match self.ctx.machine().goal.clone() {
                Some(g) => self.state_pred(&g, node, &[])?,
                None => false,
            },
            MachineAtom::Error => {
                let inv = self.ctx.machine().invariant.clone();
                !self.state_pred(&inv, node, &[])?
            }
        };
        self.cache.insert((atom, node), value);
        Ok(value)
    }

    fn is_event_atom(&self, atom: usize) -> bool {
        matches!(*self.atoms[atom], MachineAtom::Taken { .. })
    }

    fn operations(&self) -> &[String] {
        &self.operations
    }

    fn partial(&self) -> bool {
        self.partial
    }
}

fn stop(e: EvalError) -> Stop {
    if e.is_timeout() {
        // The time budget or the memory limit (`Context::check_deadline` names which).
        return Stop::Limit(Diagnostic::from(e).message);
    }
    Stop::Error(e.into(), None)
}

fn stop_at(e: EvalError, n: NodeId) -> Stop {
    match stop(e) {
        Stop::Error(d, _) => Stop::Error(d, Some(n)),
        other => other,
    }
}

/// The error for a formula whose atom names no operation of the machine.
pub fn unknown_operation(name: &crate::syntax::ast::Ident) -> Diagnostic {
    Diagnostic::new(
        DiagKind::Type,
        name.span,
        format!("unknown operation `{}` in temporal formula", name.name),
    )
}
