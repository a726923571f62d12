//! A state space given as an explicit graph, for the tests: nodes with operation-labelled edges, state
//! atoms true at chosen nodes, and one event atom `[Op_k]` per operation.

use std::fmt;

use super::super::space::{Edge, EdgeRef, NodeId, StateSpace, Stop};

/// Atoms are numbered state atoms first (`0..state_atoms`), then `[Op_k]` for every operation `k`
/// (`state_atoms + k`), so a formula over `Formula<usize>` reads both kinds from one table.
#[derive(Clone, Debug)]
pub struct ExplicitSpace {
    edges: Vec<Vec<Edge>>,
    initial: Vec<NodeId>,
    state_atoms: usize,
    /// `labels[n][a]`: whether state atom `a` holds at node `n`.
    labels: Vec<Vec<bool>>,
    operations: Vec<String>,
}

impl ExplicitSpace {
    /// `edges[n]` lists node `n`'s edges as `(operation, target)`; `labels[n]` the state atoms true at
    /// `n`. Every node must appear in both (a deadlock has no edges).
    pub fn new(
        operations: usize,
        state_atoms: usize,
        edges: Vec<Vec<(usize, NodeId)>>,
        initial: Vec<NodeId>,
        labels: Vec<Vec<usize>>,
    ) -> ExplicitSpace {
        assert_eq!(edges.len(), labels.len(), "one label list per node");
        let nodes = edges.len() as NodeId;
        let edges: Vec<Vec<Edge>> = edges
            .into_iter()
            .map(|out| {
                out.into_iter()
                    .map(|(operation, target)| {
                        assert!(
                            operation < operations && target < nodes,
                            "edge out of range"
                        );
                        Edge { operation, target }
                    })
                    .collect()
            })
            .collect();
        assert!(
            initial.iter().all(|&n| n < nodes),
            "initial node out of range"
        );
        let labels = labels
            .into_iter()
            .map(|true_atoms| (0..state_atoms).map(|a| true_atoms.contains(&a)).collect())
            .collect();
        ExplicitSpace {
            edges,
            initial,
            state_atoms,
            labels,
            operations: (0..operations).map(|k| format!("Op{k}")).collect(),
        }
    }

    /// A random graph of 1 to `max_nodes` nodes: each node has 0 to 3 edges (deadlocks, self-loops and
    /// parallel edges all occur), each state atom is true at a node with probability 1/2, and one or two
    /// nodes are initial.
    pub fn random(
        rng: &mut fastrand::Rng,
        max_nodes: usize,
        operations: usize,
        state_atoms: usize,
    ) -> ExplicitSpace {
        let nodes = rng.usize(1..=max_nodes);
        let edges = (0..nodes)
            .map(|_| {
                // Deadlocks one node in five: often enough to exercise the stutter step.
                let degree = match rng.u8(0..10) {
                    0 | 1 => 0,
                    2..=5 => 1,
                    6..=8 => 2,
                    _ => 3,
                };
                (0..degree)
                    .map(|_| (rng.usize(0..operations), rng.usize(0..nodes) as NodeId))
                    .collect()
            })
            .collect();
        let mut initial = vec![rng.usize(0..nodes) as NodeId];
        if rng.bool() {
            let other = rng.usize(0..nodes) as NodeId;
            if !initial.contains(&other) {
                initial.push(other);
            }
        }
        let labels = (0..nodes)
            .map(|_| (0..state_atoms).filter(|_| rng.bool()).collect())
            .collect();
        ExplicitSpace::new(operations, state_atoms, edges, initial, labels)
    }

    pub fn node_count(&self) -> usize {
        self.edges.len()
    }

    pub fn state_atoms(&self) -> Vec<usize> {
        (0..self.state_atoms).collect()
    }

    /// The event atom `[Op_k]` of operation `k`.
    pub fn taken_atom(&self, operation: usize) -> usize {
        self.state_atoms + operation
    }

    pub fn event_atoms(&self) -> Vec<usize> {
        (0..self.operations.len())
            .map(|k| self.taken_atom(k))
            .collect()
    }

    /// Every atom, state atoms then event atoms.
    pub fn atoms(&self) -> Vec<usize> {
        (0..self.state_atoms + self.operations.len()).collect()
    }
}

impl StateSpace for ExplicitSpace {
    fn initial(&mut self) -> Result<Vec<NodeId>, Stop> {
        Ok(self.initial.clone())
    }

    fn edges(&mut self, node: NodeId) -> Result<&[Edge], Stop> {
        Ok(&self.edges[node as usize])
    }

    fn holds(&mut self, atom: usize, node: NodeId, edge: EdgeRef) -> Result<bool, Stop> {
        let state_atoms = self.state_atoms;
        if atom < state_atoms {
            return Ok(self.labels[node as usize][atom]);
        }
        let operation = atom - state_atoms;
        assert!(
            operation < self.operations.len(),
            "atom {atom} out of range"
        );
        // `[Op_k]`: the step taken is a real edge of operation k; the stutter step is no operation's.
        Ok(edge.is_some_and(|e| self.edges[node as usize][e].operation == operation))
    }

    fn is_event_atom(&self, atom: usize) -> bool {
        atom >= self.state_atoms
    }

    fn operations(&self) -> &[String] {
        &self.operations
    }
}

/// For failure messages: the atom table, then one line per node, `n2* [a0 a1] Op0->1 Op1->2` (`*` marks
/// an initial node, `deadlock` a node without edges, `[...]` the state atoms true there).
impl fmt::Display for ExplicitSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let events: Vec<String> = (0..self.operations.len())
            .map(|k| format!("a{} = [Op{k}]", self.taken_atom(k)))
            .collect();
        let states: Vec<String> = (0..self.state_atoms).map(|a| format!("a{a}")).collect();
        writeln!(
            f,
            "state atoms: {}; event atoms: {}",
            states.join(" "),
            events.join(", ")
        )?;
        for (n, out) in self.edges.iter().enumerate() {
            let initial = if self.initial.contains(&(n as NodeId)) {
                "*"
            } else {
                ""
            };
            let labels: Vec<String> = (0..self.state_atoms)
                .filter(|&a| self.labels[n][a])
                .map(|a| format!("a{a}"))
                .collect();
            write!(f, "n{n}{initial} [{}]", labels.join(" "))?;
            if out.is_empty() {
                write!(f, " deadlock")?;
            }
            for edge in out {
                write!(f, " Op{}->{}", edge.operation, edge.target)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
