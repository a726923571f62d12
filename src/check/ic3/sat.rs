//! IC3 over bits: PDR (Eén, Mishchenko & Brayton 2011) on the SAT encoding of the machine's one-step
//! relation (`solve::kodkod::TransitionSat`), one incremental solver for the whole run.
//!
//! The state is the constants (one copy: they never change, and PROPERTIES is asserted) and the
//! variables; a cube is a conjunction of literals over the state bits of the before-copy, its primed
//! form the same literals over the after-copy. Frame F_i (i >= 1) is INVARIANT and the clauses `not c`
//! of every cube blocked at a level >= i, each clause guarded by its level's activation literal
//! (delta encoding: asking about F_i assumes the activation literals of levels i and above); F_0 is
//! the INITIALISATION. A bad state is a state of F_k with a successor violating the invariant. The
//! relative-induction query `F_(i-1) & not c & T & c'` takes `not c` as a clause guarded by a fresh
//! literal retired after the query; an Unsat gives the literals of `c'` the refutation used (the
//! failed assumptions) as a smaller cube at once, then literals are dropped one at a time while the
//! cube stays blocked and disjoint from the initial states.
//!
//! What differs from `ic3`'s cubes of values: a cube of bits blocks many values at once (`x >= 4` as
//! one bit of x), the solver keeps what it learnt between queries, and constant setups are not
//! enumerated (TimingExample's 2,500 setups are one run). What this part cannot do it leaves to that
//! one: `run` returns `Err` with the reason, and `ic3` goes on with cubes of values.
//!
//! Soundness: a counterexample is replayed by the interpreter (its states were decoded from models).
//! A proof is the printed invariant — INVARIANT and the negated cubes, each bit as a B predicate —
//! re-checked by CBC, which also covers what the encoding bounded (an integer cut to MININT..MAXINT).

use super::{Ic3Outcome, MAX_CUBES, Run, add_lemma, excluded, path, recheck, replayed};
use crate::check::Model;
use crate::check::transition_pieces::Transition;
use crate::check::transition_system::selected;
use crate::diag::{DiagKind, Span};
use crate::solve::kodkod::{Query, TransitionSat};
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Literals over the before-copy's state bits, sorted by variable.
type Cube = Vec<i32>;

/// A proof obligation: a full state (its cube and its values) and the step to the next state of its
/// path to a bad state (none for the bad state).
struct Node {
    cube: Cube,
    constants: Vec<Value>,
    state: Vec<Value>,
    next: Option<(Option<usize>, usize)>,
}

/// What a relative-induction query found.
enum Rel {
    /// A predecessor outside the cube: its node (without successor yet).
    Predecessor(Node),
    /// No predecessor: the part of the cube the refutation used.
    Blocked(Cube),
}

/// A run stops early: with a verdict-less reason (the deadline, a limit).
type Stop = String;

/// How the run over bits ended: an outcome to report, and the queries asked.
pub(super) type Outcome = (Ic3Outcome, usize);

/// IC3 over the SAT encoding; `Err` (with the reason) when it cannot give a verdict and the caller
/// should go on with cubes of values: the relation does not translate, no convergence within
/// `max_frames`, or a proof CBC does not confirm.
pub(super) fn run(model: &Model, max_frames: usize) -> Result<Outcome, String> {
    let m = model.machine();
    let transition = Transition::of(model).map_err(|d| d.to_string())?;
    let mut queries = 0;
    let mut why = String::new();
    let mut proved = None;
    for widen in 0..=MAX_WIDEN {
        let ts = match transition.translate(model, widen, false) {
            Ok(ts) => ts,
            // The deadline passed while translating: the caller would stop at once too.
            Err(d) if d.kind == DiagKind::Limit => {
                return Ok((Ic3Outcome::Unknown(d.to_string()), queries));
            }
            Err(d) if widen == 0 => return Err(format!("not over bits: {}", d.message)),
            Err(_) => break,
        };
        let cut = ts.cut;
        let mut pdr = BitPdr::new(model, ts);
        let run = pdr.run(max_frames);
        queries += pdr.queries;
        why = match run {
            Ok(Run::Counterexample(trace, violated)) => {
                return Ok((Ic3Outcome::Counterexample { trace, violated }, queries));
            }
            Ok(Run::Proved { frame, .. }) => {
                let invariant = pdr.invariant_text(frame)?;
                let lemmas = pdr.lemmas[frame + 1..].iter().map(Vec::len).sum();
                let proof = Ic3Outcome::Proved {
                    invariant,
                    frame,
                    lemmas,
                };
                if !cut {
                    return confirmed(model, proof, queries);
                }
                // Converged within the windows: a wider one may still hold a violation, and CBC's
                // re-check (exact, but slow where the constants are many) is asked once, of the widest.
                proved = Some(proof);
                continue;
            }
            Ok(Run::Unknown(why)) => why,
            Err(why) if model.context.check_deadline(m.span).is_err() => {
                return Ok((Ic3Outcome::Unknown(why), queries));
            }
            Err(why) => return Err(why),
        };
        // Within exact bounds a wider window changes nothing.
        if !cut {
            break;
        }
    }
    match proved {
        Some(proof) => confirmed(model, proof, queries),
        None => Err(why),
    }
}

/// The proof when CBC re-checks its invariant (established and preserved, complete Unsats).
fn confirmed(model: &Model, proof: Ic3Outcome, queries: usize) -> Result<Outcome, String> {
    let Ic3Outcome::Proved { invariant, .. } = &proof else {
        return Ok((proof, queries));
    };
    match recheck(model, invariant) {
        Ok(()) => Ok((proof, queries)),
        Err(e) => Err(format!(
            "the invariant over bits is not re-checked by CBC ({e}): {invariant}"
        )),
    }
}

/// How many times the windows of unbounded integers are doubled before giving up over bits.
const MAX_WIDEN: u32 = 10;

struct BitPdr<'a> {
    model: &'a Model,
    ts: TransitionSat,
    /// Position of each before-copy bit variable among the state bits.
    index: FxHashMap<i32, usize>,
    /// Activation literal of each level (index 0 unused: F_0 is INIT).
    acts: Vec<i32>,
    /// `lemmas[i]`: cubes blocked at level i exactly.
    lemmas: Vec<Vec<Cube>>,
    nodes: Vec<Node>,
    queries: usize,
    cubes: usize,
    span: Span,
}

impl<'a> BitPdr<'a> {
    fn new(model: &'a Model, ts: TransitionSat) -> Self {
        let index = ts
            .bits(0)
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, i))
            .collect();
        BitPdr {
            model,
            ts,
            index,
            acts: vec![0],
            lemmas: vec![vec![]],
            nodes: Vec::new(),
            queries: 0,
            cubes: 0,
            span: model.machine().span,
        }
    }

    fn solve(&mut self, assumptions: &[i32]) -> Result<Query, Stop> {
        self.queries += 1;
        self.ts
            .solve(assumptions, self.span)
            .map_err(|d| d.to_string())
    }

    /// The literal over the after-copy for one over the before-copy.
    fn prime(&self, l: i32) -> i32 {
        let bit = self.ts.bits(1)[self.index[&l.abs()]];
        if l < 0 { -bit } else { bit }
    }

    /// The assumptions selecting F_i.
    fn frame(&self, i: usize) -> Vec<i32> {
        if i == 0 {
            return vec![self.ts.init0];
        }
        let mut a = vec![self.ts.inv0];
        a.extend(&self.acts[i..]);
        a
    }

    fn new_level(&mut self) {
        let act = self.ts.new_var();
        self.acts.push(act);
        self.lemmas.push(vec![]);
    }

    /// The before-state of the last model as a node.
    fn node_of_model(&self) -> Node {
        let cube = self
            .ts
            .bits(0)
            .iter()
            .map(|&v| if self.ts.holds(v) { v } else { -v })
            .collect();
        Node {
            cube,
            constants: self.ts.constants(),
            state: self.ts.state(0),
            next: None,
        }
    }

    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn meets_init(&mut self, cube: &[i32]) -> Result<bool, Stop> {
        let mut a = vec![self.ts.init0];
        a.extend(cube);
        Ok(self.solve(&a)? == Query::Sat)
    }

    /// `F_(i-1) & not cube & T & cube'`.
    fn relative(&mut self, i: usize, cube: &[i32]) -> Result<Rel, Stop> {
        let t = self.ts.new_var();
        let mut clause = vec![-t];
        clause.extend(cube.iter().map(|l| -l));
        self.ts.add_clause(clause);
        let primed: Vec<i32> = cube.iter().map(|&l| self.prime(l)).collect();
        let mut a = self.frame(i - 1);
        a.push(self.ts.step);
        a.push(t);
        a.extend(&primed);
        let answer = self.solve(&a);
        let rel = match answer {
            Ok(Query::Sat) => {
                let mut node = self.node_of_model();
                node.next = Some((selected(&self.ts.selector()), usize::MAX));
                Ok(Rel::Predecessor(node))
            }
            Ok(Query::Unsat) => {
                let failed = self.ts.failed(&primed);
                let core: Cube = cube
                    .iter()
                    .zip(&primed)
                    .filter(|(_, p)| failed.contains(p))
                    .map(|(l, _)| *l)
                    .collect();
                Ok(Rel::Blocked(core))
            }
            Err(why) => Err(why),
        };
        // Retire the temporary clause.
        self.ts.add_clause(vec![-t]);
        rel
    }

    /// The core of a blocked cube, or the cube itself when the core meets the initial states.
    fn shrink(&mut self, cube: &[i32], core: Cube) -> Result<Cube, Stop> {
        if core.is_empty() || core.len() == cube.len() || self.meets_init(&core)? {
            return Ok(cube.to_vec());
        }
        Ok(core)
    }

    /// Drops literals while the cube stays blocked at level i and disjoint from INIT.
    fn generalise(&mut self, i: usize, mut cube: Cube) -> Result<Cube, Stop> {
        let mut at = 0;
        while at < cube.len() && cube.len() > 1 {
            let mut smaller = cube.clone();
            smaller.remove(at);
            if !self.meets_init(&smaller)?
                && let Rel::Blocked(core) = self.relative(i, &smaller)?
            {
                cube = self.shrink(&smaller, core)?;
                at = at.min(cube.len());
            } else {
                at += 1;
            }
        }
        Ok(cube)
    }

    fn add_lemma(&mut self, level: usize, cube: Cube) {
        let mut clause = vec![-self.acts[level]];
        clause.extend(cube.iter().map(|l| -l));
        self.ts.add_clause(clause);
        add_lemma(&mut self.lemmas, level, cube);
    }

    /// Whether a lemma of level >= i excludes the full state `cube`.
    fn blocked(&self, cube: &[i32], i: usize) -> bool {
        excluded(&self.lemmas, i, |l| cube.contains(l))
    }

    fn run(&mut self, max_frames: usize) -> Result<Run, Stop> {
        let (init0, inv0) = (self.ts.init0, self.ts.inv0);
        // Frames over an encoding without the initial states would prove anything.
        if self.solve(&[init0])? == Query::Unsat {
            return Ok(Run::Unknown(
                "no initial state lies within the encoding's bounds".into(),
            ));
        }
        if self.solve(&[init0, -inv0])? == Query::Sat {
            let n = self.node_of_model();
            let n = self.push(n);
            return Ok(self.counterexample(n));
        }
        self.new_level();
        let mut k = 1;
        loop {
            loop {
                let mut a = self.frame(k);
                a.extend([self.ts.step, self.ts.bad1]);
                if self.solve(&a)? == Query::Unsat {
                    break;
                }
                let mut s = self.node_of_model();
                let bad = Node {
                    cube: Vec::new(),
                    constants: s.constants.clone(),
                    state: self.ts.state(1),
                    next: None,
                };
                let b = self.push(bad);
                s.next = Some((selected(&self.ts.selector()), b));
                let s = self.push(s);
                if let Some(run) = self.block(s, k)? {
                    return Ok(run);
                }
            }
            if k >= max_frames {
                return Ok(Run::Unknown(format!(
                    "no convergence within {max_frames} frames over bits (--max-frames)"
                )));
            }
            k += 1;
            self.new_level();
            if let Some(frame) = self.propagate(k)? {
                return Ok(Run::Proved {
                    lemmas: Vec::new(),
                    frame,
                });
            }
        }
    }

    /// Moves forward the lemmas still relatively inductive; `Some(i)` when level i empties
    /// (F_i = F_(i+1): the lemmas of levels above i with INVARIANT are inductive).
    fn propagate(&mut self, k: usize) -> Result<Option<usize>, Stop> {
        for i in 1..k {
            for c in self.lemmas[i].clone() {
                if let Rel::Blocked(_) = self.relative(i + 1, &c)? {
                    self.lemmas[i].retain(|d| *d != c);
                    self.add_lemma(i + 1, c);
                }
            }
            if self.lemmas[i].is_empty() {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// Blocks obligation `root` at frame k and the predecessors it needs blocked; `Some` ends the run.
    fn block(&mut self, root: usize, k: usize) -> Result<Option<Run>, Stop> {
        let mut queue = BinaryHeap::new();
        queue.push(Reverse((k, root)));
        while let Some(Reverse((i, n))) = queue.pop() {
            if i == 0 {
                return Ok(Some(self.counterexample(n)));
            }
            let cube = self.nodes[n].cube.clone();
            if self.blocked(&cube, i) {
                continue;
            }
            if self.meets_init(&cube)? {
                return Ok(Some(self.counterexample(n)));
            }
            match self.relative(i, &cube)? {
                Rel::Predecessor(mut p) => {
                    p.next = p.next.map(|(op, _)| (op, n));
                    let p = self.push(p);
                    queue.push(Reverse((i - 1, p)));
                    queue.push(Reverse((i, n)));
                }
                Rel::Blocked(core) => {
                    let small = self.shrink(&cube, core)?;
                    let g = self.generalise(i, small)?;
                    let mut level = i;
                    while level < k {
                        match self.relative(level + 1, &g)? {
                            Rel::Blocked(_) => level += 1,
                            Rel::Predecessor(_) => break,
                        }
                    }
                    self.add_lemma(level, g);
                    self.cubes += 1;
                    if self.cubes > MAX_CUBES {
                        return Ok(Some(Run::Unknown(format!(
                            "more than {MAX_CUBES} blocked cubes over bits"
                        ))));
                    }
                    if level < k {
                        queue.push(Reverse((level + 1, n)));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The path from node `n` (an initial state) to the bad state, replayed by the interpreter.
    fn counterexample(&self, n: usize) -> Run {
        let (states, ops) = path(&self.nodes, n, |node| (&node.state, node.next));
        replayed(self.model, &self.nodes[n].constants, &states, &ops)
    }

    /// INVARIANT & not(cube) for every lemma above `frame`, each bit printed as a B predicate.
    fn invariant_text(&self, frame: usize) -> Result<String, String> {
        let m = self.model.machine();
        let mut parts: Vec<String> = m
            .invariant
            .conjuncts()
            .into_iter()
            .map(|c| format!("({})", crate::check::unsat_core::source_text(c.span)))
            .collect();
        for cube in self.lemmas[frame + 1..].iter().flatten() {
            let mut lits = Vec::new();
            for &l in cube {
                let text = self
                    .ts
                    .bit_text(self.index[&l.abs()])
                    .ok_or("a lemma over a pair component has no B text")?;
                // Every bit's text binds tighter than `&`.
                lits.push(if l > 0 {
                    text.to_string()
                } else {
                    format!("not({text})")
                });
            }
            parts.push(format!("not({})", lits.join(" & ")));
        }
        Ok(parts.join(" & "))
    }
}
