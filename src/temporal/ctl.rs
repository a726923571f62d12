//! CTL by fixpoint labelling on the explored graph (Clarke, Emerson and Sistla): the reachable part of
//! the space is explored first, then each subformula labels the nodes where it holds, bottom up. Paths
//! are infinite: a deadlocked node stutters (its only successor is itself, by no operation). `EX[Op] f`
//! asks for a step by the action, so it is false in a deadlock. `AF`, `AG` and `A U` come from the
//! existential operators by the usual dualities.

use super::formula::{Formula, Kind};
use super::ltl::Position;
use super::space::{EdgeRef, NodeId, StateSpace, Stop};
use crate::diag::{DiagKind, Diagnostic};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// The explored graph, with local dense indices.
struct Graph {
    nodes: Vec<NodeId>,
    /// Per node, its steps: (edge, successor's local index); a deadlock's stutter step is `(None, self)`.
    steps: Vec<Vec<(EdgeRef, usize)>>,
    predecessors: Vec<Vec<usize>>,
    initial: Vec<usize>,
}

/// What the check found.
#[derive(Clone, Debug)]
pub struct CtlOutcome {
    /// The first initial node where the formula does not hold (`None`: it holds in all).
    pub failing: Option<NodeId>,
    /// For a formula `EF f` / `EX f` that holds, a path from the first initial node to a node where `f`
    /// holds; for `AG f` that fails, a path to a node where `f` does not hold (a counterexample).
    pub path: Option<Vec<Position>>,
    /// Nodes explored.
    pub nodes: usize,
}

/// Checks `formula` at every initial node of `space`: the first initial node where it does not hold, or
/// `None` when it holds in all.
pub fn check(space: &mut dyn StateSpace, formula: &Formula<usize>) -> Result<Option<NodeId>, Stop> {
    check_with_path(space, formula).map(|o| o.failing)
}

/// `check`, with a witness or counterexample path where the formula's shape gives one.
pub fn check_with_path(
    space: &mut dyn StateSpace,
    formula: &Formula<usize>,
) -> Result<CtlOutcome, Stop> {
    let graph = explore(space)?;
    let holds = label(space, &graph, formula)?;
    let failing = graph
        .initial
        .iter()
        .find(|&&i| !holds[i])
        .map(|&i| graph.nodes[i]);
    let path = match (&formula.kind, failing) {
        (Kind::ExistsFinally(f), None) | (Kind::ExistsNext(None, f), None) => {
            let inner = label(space, &graph, f)?;
            let first = graph.initial.first().copied();
            first.and_then(|i| {
                path_to(
                    &graph,
                    i,
                    |j| inner[j],
                    matches!(formula.kind, Kind::ExistsNext(..)),
                )
            })
        }
        (Kind::AllGlobally(f), Some(n)) => {
            let inner = label(space, &graph, f)?;
            let start = graph.nodes.iter().position(|&m| m == n);
            start.and_then(|i| path_to(&graph, i, |j| !inner[j], false))
        }
        _ => None,
    };
    Ok(CtlOutcome {
        failing,
        path,
        nodes: graph.nodes.len(),
    })
}

fn explore(space: &mut dyn StateSpace) -> Result<Graph, Stop> {
    let mut local: FxHashMap<NodeId, usize> = FxHashMap::default();
    let mut graph = Graph {
        nodes: Vec::new(),
        steps: Vec::new(),
        predecessors: Vec::new(),
        initial: Vec::new(),
    };
    let mut queue = VecDeque::new();
    let mut add = |n: NodeId, graph: &mut Graph, queue: &mut VecDeque<usize>| -> usize {
        *local.entry(n).or_insert_with(|| {
            graph.nodes.push(n);
            queue.push_back(graph.nodes.len() - 1);
            graph.nodes.len() - 1
        })
    };
    for n in space.initial()? {
        let i = add(n, &mut graph, &mut queue);
        if !graph.initial.contains(&i) {
            graph.initial.push(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let edges = space.edges(graph.nodes[i])?.to_vec();
        let steps = if edges.is_empty() {
            vec![(None, i)]
        } else {
            (edges.iter().enumerate())
                .map(|(k, e)| (Some(k), add(e.target, &mut graph, &mut queue)))
                .collect()
        };
        if graph.steps.len() <= i {
            graph.steps.resize(i + 1, Vec::new());
        }
        graph.steps[i] = steps;
    }
    graph.steps.resize(graph.nodes.len(), Vec::new());
    graph.predecessors = vec![Vec::new(); graph.nodes.len()];
    for (i, steps) in graph.steps.iter().enumerate() {
        for &(_, j) in steps {
            graph.predecessors[j].push(i);
        }
    }
    Ok(graph)
}

/// Per node of the graph, whether `f` holds there.
fn label(space: &mut dyn StateSpace, g: &Graph, f: &Formula<usize>) -> Result<Vec<bool>, Stop> {
    let n = g.nodes.len();
    let not = |v: Vec<bool>| v.into_iter().map(|b| !b).collect::<Vec<bool>>();
    Ok(match &f.kind {
        Kind::True => vec![true; n],
        Kind::False => vec![false; n],
        Kind::Atom(a) => {
            let mut out = Vec::with_capacity(n);
            for &node in &g.nodes {
                out.push(space.holds(*a, node, None)?);
            }
            out
        }
        Kind::Not(h) => not(label(space, g, h)?),
        Kind::And(a, b) | Kind::Or(a, b) | Kind::Implies(a, b) | Kind::Equiv(a, b) => {
            let (x, y) = (label(space, g, a)?, label(space, g, b)?);
            (x.iter().zip(&y))
                .map(|(&p, &q)| match &f.kind {
                    Kind::And(..) => p && q,
                    Kind::Or(..) => p || q,
                    Kind::Implies(..) => !p || q,
                    _ => p == q,
                })
                .collect()
        }
        Kind::ExistsNext(action, h) => {
            let inner = label(space, g, h)?;
            let mut out = vec![false; n];
            for (i, found) in out.iter_mut().enumerate() {
                for &(edge, j) in &g.steps[i] {
                    let by_action = match action {
                        None => true,
                        Some(a) => space.holds(*a, g.nodes[i], edge)?,
                    };
                    if by_action && inner[j] {
                        *found = true;
                        break;
                    }
                }
            }
            out
        }
        Kind::AllNext(h) => {
            let inner = label(space, g, h)?;
            (0..n)
                .map(|i| g.steps[i].iter().all(|&(_, j)| inner[j]))
                .collect()
        }
        Kind::ExistsFinally(h) => exists_until(g, &vec![true; n], &label(space, g, h)?),
        Kind::ExistsUntil(a, b) => exists_until(g, &label(space, g, a)?, &label(space, g, b)?),
        Kind::ExistsGlobally(h) => exists_globally(g, label(space, g, h)?),
        // AF f = not EG not f.
        Kind::AllFinally(h) => not(exists_globally(g, not(label(space, g, h)?))),
        // AG f = not EF not f.
        Kind::AllGlobally(h) => not(exists_until(g, &vec![true; n], &not(label(space, g, h)?))),
        // A f U g = not (E (not g) U (not f and not g)) and not EG not g.
        Kind::AllUntil(a, b) => {
            let (x, y) = (label(space, g, a)?, label(space, g, b)?);
            let not_y = not(y);
            let neither: Vec<bool> = x.iter().zip(&not_y).map(|(&p, &q)| !p && q).collect();
            let escape = exists_until(g, &not_y, &neither);
            let forever = exists_globally(g, not_y);
            (0..n).map(|i| !escape[i] && !forever[i]).collect()
        }
        _ => {
            return Err(Stop::Error(
                Diagnostic::new(
                    DiagKind::Unsupported,
                    f.span,
                    "unsupported: this operator is not a CTL operator (LTL operators belong in `bsolve ltl`)",
                ),
                None,
            ));
        }
    })
}

/// E a U b: the least fixpoint, backwards from the b-nodes through a-nodes.
fn exists_until(g: &Graph, a: &[bool], b: &[bool]) -> Vec<bool> {
    let mut out = b.to_vec();
    let mut queue: VecDeque<usize> = (0..out.len()).filter(|&i| out[i]).collect();
    while let Some(j) = queue.pop_front() {
        for &i in &g.predecessors[j] {
            if !out[i] && a[i] {
                out[i] = true;
                queue.push_back(i);
            }
        }
    }
    out
}

/// EG a: the greatest fixpoint, removing a-nodes left without a successor in the set.
fn exists_globally(g: &Graph, a: Vec<bool>) -> Vec<bool> {
    let mut out = a;
    let mut live: Vec<usize> = (0..out.len())
        .map(|i| g.steps[i].iter().filter(|&&(_, j)| out[j]).count())
        .collect();
    let mut queue: VecDeque<usize> = (0..out.len()).filter(|&i| out[i] && live[i] == 0).collect();
    for &i in &queue {
        out[i] = false;
    }
    while let Some(j) = queue.pop_front() {
        for &i in &g.predecessors[j] {
            // `predecessors` lists i once per step into j, as `live` counts them.
            if out[i] {
                live[i] -= 1;
                if live[i] == 0 {
                    out[i] = false;
                    queue.push_back(i);
                }
            }
        }
    }
    out
}

/// A shortest path from `from` to a node satisfying `goal` (with at least one step when `strict`).
fn path_to(
    g: &Graph,
    from: usize,
    goal: impl Fn(usize) -> bool,
    strict: bool,
) -> Option<Vec<Position>> {
    if !strict && goal(from) {
        return Some(Vec::new());
    }
    let mut parent: FxHashMap<usize, (usize, EdgeRef)> = FxHashMap::default();
    let mut queue = VecDeque::from([from]);
    while let Some(i) = queue.pop_front() {
        for &(edge, j) in &g.steps[i] {
            if parent.contains_key(&j) || (j == from && !strict) {
                continue;
            }
            parent.insert(j, (i, edge));
            if goal(j) {
                let mut path = Vec::new();
                let mut at = j;
                loop {
                    let (p, e) = parent[&at];
                    path.push((g.nodes[p], e));
                    at = p;
                    if at == from {
                        break;
                    }
                }
                path.reverse();
                return Some(path);
            }
            queue.push_back(j);
        }
    }
    None
}
