//! Emptiness of the product of the state space and the automaton of the negated formula, on the fly.
//!
//! A product state is a node of the space, a state of the automaton and the history the run carries (the
//! past operators' bits before the current position). Leaving it by an edge of the node reads the letter
//! of that position (its atoms, the new history) and follows every automaton transition whose literals the
//! letter satisfies. A depth-first Tarjan search completes the product's strongly connected components
//! one by one; a component that is *fair and accepting* — it has an internal edge, its internal edges
//! carry every acceptance bit, and the fairness assumptions can hold on a run that stays in it — holds a
//! run violating the formula (Couvreur's SCC-based check; fairness inside the SCC check as in ProB and
//! Emerson–Lei, not by enlarging the formula):
//!
//! * weak fairness of `op` fails in a component where `op` is enabled in every state and no internal
//!   edge takes it, and in every part of it;
//! * strong fairness of `op` fails on a run that visits a state enabling `op` infinitely often without
//!   taking it: when no internal edge takes `op`, the states enabling it are removed and the components
//!   of the rest are checked again.
//!
//! The counterexample is the search's path to the component and a cycle inside the fair part through an
//! edge of every acceptance bit and of every fairness assumption's operation (and, for a weak assumption
//! whose operation is never taken there, through a state where it is disabled).

use super::Lasso;
use super::history::{self, History, Monitor};
use super::normal_form::{Literal, Var};
use super::tableau::Tableau;
use crate::temporal::space::{EdgeRef, Fairness, NodeId, StateSpace, Stop};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

/// An edge of the product.
#[derive(Clone, Copy, Debug)]
struct ProductEdge {
    to: u32,
    accepting: u64,
    /// The space's edge this product edge reads (None: the stutter step of a deadlock).
    edge: EdgeRef,
    /// The operation of that edge.
    operation: Option<usize>,
}

struct ProductState {
    node: NodeId,
    automaton: u32,
    history: History,
    edges: Option<Vec<ProductEdge>>,
}

pub struct Product<'s, 'n> {
    space: &'s mut dyn StateSpace,
    tableau: Tableau<'n>,
    monitor: &'n Monitor,
    fairness: &'s [Fairness],
    states: Vec<ProductState>,
    index: FxHashMap<(NodeId, u32, History), u32>,
}

const UNVISITED: u32 = u32::MAX;

impl<'s, 'n> Product<'s, 'n> {
    pub fn new(
        space: &'s mut dyn StateSpace,
        tableau: Tableau<'n>,
        monitor: &'n Monitor,
        fairness: &'s [Fairness],
    ) -> Self {
        Product {
            space,
            tableau,
            monitor,
            fairness,
            states: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    fn intern(&mut self, node: NodeId, automaton: u32, history: History) -> u32 {
        let key = (node, automaton, history);
        if let Some(&s) = self.index.get(&key) {
            return s;
        }
        let s = self.states.len() as u32;
        self.states.push(ProductState {
            node,
            automaton,
            history,
            edges: None,
        });
        self.index.insert(key, s);
        s
    }

    /// The edges leaving product state `s` (computed once).
    fn edges(&mut self, s: u32) -> Result<&[ProductEdge], Stop> {
        if self.states[s as usize].edges.is_none() {
            let edges = self.expand(s)?;
            self.states[s as usize].edges = Some(edges);
        }
        Ok(self.states[s as usize].edges.as_deref().unwrap_or(&[]))
    }

    fn expand(&mut self, s: u32) -> Result<Vec<ProductEdge>, Stop> {
        let (node, automaton, before) = {
            let st = &self.states[s as usize];
            (st.node, st.automaton, st.history)
        };
        let steps: Vec<(EdgeRef, NodeId, Option<usize>)> = {
            let edges = self.space.edges(node)?;
            if edges.is_empty() {
                vec![(None, node, None)]
            } else {
                (edges.iter().enumerate())
                    .map(|(i, e)| (Some(i), e.target, Some(e.operation)))
                    .collect()
            }
        };
        let branches = self.tableau.branches(automaton);
        let mut out = Vec::new();
        for (edge, target, operation) in steps {
            let space = &mut *self.space;
            let mut atoms: FxHashMap<usize, bool> = FxHashMap::default();
            let mut atom = |a: usize| -> Result<bool, Stop> {
                if let Some(&v) = atoms.get(&a) {
                    return Ok(v);
                }
                let v = space.holds(a, node, edge)?;
                atoms.insert(a, v);
                Ok(v)
            };
            let now = self.monitor.step(before, &mut atom)?;
            for b in branches.iter() {
                let mut satisfied = true;
                for l in &b.literals {
                    if !literal_holds(*l, now, &mut atom)? {
                        satisfied = false;
                        break;
                    }
                }
                if satisfied {
                    out.push((target, b.next, now, b.accepting, edge, operation));
                }
            }
        }
        Ok(out
            .into_iter()
            .map(
                |(target, next, now, accepting, edge, operation)| ProductEdge {
                    to: self.intern(target, next, now),
                    accepting,
                    edge,
                    operation,
                },
            )
            .collect())
    }

    /// Searches every run from the space's initial nodes: a fair run the automaton accepts, as a lasso
    /// of the space's positions, or `None` when there is none.
    pub fn search(&mut self) -> Result<Option<Lasso>, Stop> {
        let initial: Vec<u32> = (self.space.initial()?.into_iter())
            .map(|n| self.intern(n, 0, history::START))
            .collect();
        let mut number: Vec<u32> = Vec::new();
        let mut low: Vec<u32> = Vec::new();
        let mut on_stack: Vec<bool> = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        let mut counter = 0u32;
        for root in initial {
            grow(&mut number, &mut low, &mut on_stack, self.states.len());
            if number[root as usize] != UNVISITED {
                continue;
            }
            // Frames: a state and the index of the next edge to follow; the frames below the top are
            // the search's path to it (the edge each frame follows is the one before its index).
            let mut frames: Vec<(u32, usize)> = vec![(root, 0)];
            number[root as usize] = counter;
            low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            while let Some(&mut (s, ref mut next)) = frames.last_mut() {
                let i = *next;
                let edges = self.edges(s)?;
                if let Some(e) = edges.get(i).copied() {
                    *next += 1;
                    grow(&mut number, &mut low, &mut on_stack, self.states.len());
                    let t = e.to as usize;
                    if number[t] == UNVISITED {
                        number[t] = counter;
                        low[t] = counter;
                        counter += 1;
                        stack.push(e.to);
                        on_stack[t] = true;
                        frames.push((e.to, 0));
                    } else if on_stack[t] {
                        low[s as usize] = low[s as usize].min(number[t]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    low[parent as usize] = low[parent as usize].min(low[s as usize]);
                }
                if low[s as usize] != number[s as usize] {
                    continue;
                }
                let mut component = Vec::new();
                while let Some(x) = stack.pop() {
                    on_stack[x as usize] = false;
                    component.push(x);
                    if x == s {
                        break;
                    }
                }
                if let Some(fair) = self.fair_accepting(&component)? {
                    return self.lasso(&fair).map(Some);
                }
            }
        }
        Ok(None)
    }

    /// Whether the space's node of product state `s` enables `operation`.
    fn enables(&mut self, s: u32, operation: usize) -> Result<bool, Stop> {
        let node = self.states[s as usize].node;
        Ok(self
            .space
            .edges(node)?
            .iter()
            .any(|e| e.operation == operation))
    }

    /// The edges of `members` that stay inside it, as (source, edge).
    fn internal(&mut self, members: &FxHashSet<u32>) -> Result<Vec<(u32, ProductEdge)>, Stop> {
        let mut out = Vec::new();
        for &s in members {
            for e in self.edges(s)? {
                if members.contains(&e.to) {
                    out.push((s, *e));
                }
            }
        }
        Ok(out)
    }

    /// The part of a strongly connected component where a fair run accepted by the automaton can stay
    /// forever, or `None` (see the module comment).
    fn fair_accepting(&mut self, component: &[u32]) -> Result<Option<Vec<u32>>, Stop> {
        let members: FxHashSet<u32> = component.iter().copied().collect();
        let internal = self.internal(&members)?;
        if internal.is_empty() {
            return Ok(None);
        }
        let bits = internal.iter().fold(0, |acc, (_, e)| acc | e.accepting);
        if bits != self.tableau.all_bits {
            return Ok(None);
        }
        let taken = |op: usize| internal.iter().any(|(_, e)| e.operation == Some(op));
        for f in self.fairness.iter().filter(|f| !f.strong) {
            if !taken(f.operation) {
                let mut everywhere = true;
                for &s in component {
                    if !self.enables(s, f.operation)? {
                        everywhere = false;
                        break;
                    }
                }
                if everywhere {
                    return Ok(None);
                }
            }
        }
        let fairness = self.fairness;
        for f in fairness.iter().filter(|f| f.strong) {
            if taken(f.operation) {
                continue;
            }
            let mut rest = Vec::new();
            for &s in component {
                if !self.enables(s, f.operation)? {
                    rest.push(s);
                }
            }
            if rest.len() == component.len() {
                continue;
            }
            for part in self.components_of(&rest)? {
                if let Some(fair) = self.fair_accepting(&part)? {
                    return Ok(Some(fair));
                }
            }
            return Ok(None);
        }
        Ok(Some(component.to_vec()))
    }

    /// The strongly connected components of the subgraph on `members` (Tarjan, iterative).
    fn components_of(&mut self, members: &[u32]) -> Result<Vec<Vec<u32>>, Stop> {
        let inside: FxHashSet<u32> = members.iter().copied().collect();
        let mut number: FxHashMap<u32, u32> = FxHashMap::default();
        let mut low: FxHashMap<u32, u32> = FxHashMap::default();
        let mut on_stack: FxHashSet<u32> = FxHashSet::default();
        let mut stack = Vec::new();
        let mut out = Vec::new();
        let mut counter = 0;
        for &root in members {
            if number.contains_key(&root) {
                continue;
            }
            let mut frames = vec![(root, 0usize)];
            number.insert(root, counter);
            low.insert(root, counter);
            counter += 1;
            stack.push(root);
            on_stack.insert(root);
            while let Some(&mut (s, ref mut next)) = frames.last_mut() {
                let i = *next;
                let edges = self.edges(s)?;
                if let Some(e) = edges.get(i).copied() {
                    *next += 1;
                    if !inside.contains(&e.to) {
                        continue;
                    }
                    match number.get(&e.to) {
                        None => {
                            number.insert(e.to, counter);
                            low.insert(e.to, counter);
                            counter += 1;
                            stack.push(e.to);
                            on_stack.insert(e.to);
                            frames.push((e.to, 0));
                        }
                        Some(&n) if on_stack.contains(&e.to) => {
                            let l = low[&s].min(n);
                            low.insert(s, l);
                        }
                        Some(_) => {}
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    let l = low[&parent].min(low[&s]);
                    low.insert(parent, l);
                }
                if low[&s] == number[&s] {
                    let mut component = Vec::new();
                    while let Some(x) = stack.pop() {
                        on_stack.remove(&x);
                        component.push(x);
                        if x == s {
                            break;
                        }
                    }
                    out.push(component);
                }
            }
        }
        Ok(out)
    }

    /// The counterexample: the search's path (`frames`, ending at the component's root), a path inside
    /// the component to its fair part, and a cycle in the fair part.
    fn lasso(&mut self, fair: &[u32]) -> Result<Lasso, Stop> {
        let fair_set: FxHashSet<u32> = fair.iter().copied().collect();
        let initial: Vec<u32> = (0..self.states.len() as u32)
            .filter(|&s| {
                let st = &self.states[s as usize];
                st.history == history::START && st.automaton == 0
            })
            .collect();
        let (prefix, entry) = self.path(&initial, None, |x| fair_set.contains(&x))?;
        // What the cycle must pass through: an edge of each acceptance bit and of each fairness
        // assumption's operation taken in the fair part; for a weak assumption whose operation is not
        // taken there, a state that does not enable it.
        let internal = self.internal(&fair_set)?;
        let mut targets: Vec<Target> = Vec::new();
        let mut bits = 0u64;
        for (s, e) in &internal {
            if e.accepting & !bits != 0 {
                bits |= e.accepting;
                targets.push(Target::Edge(*s, *e));
            }
        }
        for f in self.fairness {
            match internal
                .iter()
                .find(|(_, e)| e.operation == Some(f.operation))
            {
                Some((s, e)) => targets.push(Target::Edge(*s, *e)),
                None if !f.strong => {
                    for &s in fair {
                        if !self.enables(s, f.operation)? {
                            targets.push(Target::State(s));
                            break;
                        }
                    }
                }
                None => {}
            }
        }
        if targets.is_empty() {
            let (s, e) = internal
                .iter()
                .find(|(s, _)| *s == entry)
                .copied()
                .unwrap_or(internal[0]);
            targets.push(Target::Edge(s, e));
        }
        let mut cycle = Vec::new();
        let mut at = entry;
        for target in targets {
            match target {
                Target::Edge(s, e) => {
                    let (walk, _) = self.path(&[at], Some(&fair_set), |x| x == s)?;
                    cycle.extend(walk);
                    cycle.push((self.states[s as usize].node, e.edge));
                    at = e.to;
                }
                Target::State(s) => {
                    let (walk, _) = self.path(&[at], Some(&fair_set), |x| x == s)?;
                    cycle.extend(walk);
                    at = s;
                }
            }
        }
        let (back, _) = self.path(&[at], Some(&fair_set), |x| x == entry)?;
        cycle.extend(back);
        if cycle.is_empty() {
            // Only a `Target::State` at the entry itself: go round through any internal edge.
            let (s, e) = internal
                .iter()
                .find(|(s, _)| *s == entry)
                .copied()
                .unwrap_or(internal[0]);
            let (walk, _) = self.path(&[entry], Some(&fair_set), |x| x == s)?;
            cycle.extend(walk);
            cycle.push((self.states[s as usize].node, e.edge));
            let (back, _) = self.path(&[e.to], Some(&fair_set), |x| x == entry)?;
            cycle.extend(back);
        }
        Ok(Lasso { prefix, cycle })
    }

    /// A shortest path (breadth-first) from one of `from` to a state satisfying `goal`, through `within`
    /// when given, as the space's positions, and the state reached; a start satisfying `goal` gives an
    /// empty path. It follows the edges the search computed: those of every state it visited, which
    /// include the path to each completed component and every edge inside it.
    fn path(
        &self,
        from: &[u32],
        within: Option<&FxHashSet<u32>>,
        goal: impl Fn(u32) -> bool,
    ) -> Result<(Vec<(NodeId, EdgeRef)>, u32), Stop> {
        let mut parent: FxHashMap<u32, (u32, EdgeRef)> = FxHashMap::default();
        let mut queue: VecDeque<u32> = from.iter().copied().collect();
        let mut seen: FxHashSet<u32> = from.iter().copied().collect();
        while let Some(s) = queue.pop_front() {
            if goal(s) {
                let mut positions = Vec::new();
                let mut at = s;
                while let Some(&(p, edge)) = parent.get(&at) {
                    positions.push((self.states[p as usize].node, edge));
                    at = p;
                }
                positions.reverse();
                return Ok((positions, s));
            }
            for e in self.states[s as usize].edges.iter().flatten() {
                if within.is_none_or(|w| w.contains(&e.to)) && seen.insert(e.to) {
                    parent.insert(e.to, (s, e.edge));
                    queue.push_back(e.to);
                }
            }
        }
        Err(Stop::Error(
            crate::diag::Diagnostic::new(
                crate::diag::DiagKind::Internal,
                crate::diag::Span::default(),
                "internal: no path to or inside a strongly connected component",
            ),
            None,
        ))
    }
}

enum Target {
    Edge(u32, ProductEdge),
    State(u32),
}

fn literal_holds(
    l: Literal,
    history: History,
    atom: &mut impl FnMut(usize) -> Result<bool, Stop>,
) -> Result<bool, Stop> {
    let value = match l.var {
        Var::Atom(a) => atom(a)?,
        Var::History(i) => history::bit(history, i),
    };
    Ok(value == l.positive)
}

fn grow(number: &mut Vec<u32>, low: &mut Vec<u32>, on_stack: &mut Vec<bool>, len: usize) {
    if number.len() < len {
        number.resize(len, UNVISITED);
        low.resize(len, UNVISITED);
        on_stack.resize(len, false);
    }
}
