//! `bsolve ltl` and `bsolve ctl`: temporal formulas from the command line or the machine's
//! `ASSERT_LTL...` / `ASSERT_CTL...` definitions, checked on the machine's state space (`temporal::`).
//!
//! Every counterexample is replayed by the interpreter before it is reported: the initialisation and each
//! operation re-executed with the trace's parameters, and a deadlock's stutter step re-checked (no
//! operation enabled). A formula found to hold on a space whose parameters or setups were enumerated only
//! in part holds on the explored part only, and says so.

use super::Model;
use super::budget::Budget;
use super::cbc::{assignment, initial_steps, replay_operation};
use super::mc::Step;
use crate::diag::{DiagKind, Diagnostic, FileId, register_source, source};
use crate::syntax::ast::{DefinitionBody, TermKind};
use crate::temporal::formula::Formula;
use crate::temporal::ltl::{self, Lasso, LtlVerdict, Method, Position};
use crate::temporal::machine_space::MachineSpace;
use crate::temporal::space::{NodeId, StateSpace, Stop};
use crate::temporal::{ctl, parse, resolve};
use crate::value::Value;
use std::ops::Range;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logic {
    Ltl,
    Ctl,
}

impl Logic {
    fn prefix(self) -> &'static str {
        match self {
            Logic::Ltl => "ASSERT_LTL",
            Logic::Ctl => "ASSERT_CTL",
        }
    }
}

/// Where a formula's text is: a definition's string in the machine file, or the command line.
#[derive(Clone, Debug)]
pub struct FormulaSource {
    /// The definition's name, or `formula` for the command line.
    pub name: String,
    pub text: String,
    file: FileId,
    range: Range<usize>,
}

/// The machine's `ASSERT_LTL...` (or `ASSERT_CTL...`) definitions, in source order.
pub fn assertions(model: &Model, logic: Logic) -> Result<Vec<FormulaSource>, Diagnostic> {
    let mut out = Vec::new();
    for d in &model.ast.definitions {
        if !d.name.name.starts_with(logic.prefix()) {
            continue;
        }
        let DefinitionBody::Term(t) = &d.body else {
            continue;
        };
        let TermKind::Str(text) = &t.kind else {
            return Err(Diagnostic::type_error(
                t.span,
                format!("`{}` should be a formula in a string", d.name.name),
            ));
        };
        // The formula is the source between the quotes, so that positions are the machine file's;
        // a string whose source differs from its value (escapes) is read from its value instead.
        let raw = source(t.span.file).and_then(|f| {
            let (s, e) = (
                t.span.start as usize + 1,
                (t.span.end as usize).saturating_sub(1),
            );
            (f.text.get(s..e) == Some(text.as_str())).then_some(s..e)
        });
        let (file, range) = match raw {
            Some(range) => (t.span.file, range),
            None => {
                let file = register_source(&d.name.name, text);
                (file, 0..text.len())
            }
        };
        out.push(FormulaSource {
            name: d.name.name.to_string(),
            text: text.clone(),
            file,
            range,
        });
    }
    Ok(out)
}

/// A formula given on the command line.
pub fn command_line(text: &str) -> FormulaSource {
    FormulaSource {
        name: "formula".into(),
        text: text.into(),
        file: register_source("<formula>", text),
        range: 0..text.len(),
    }
}

#[derive(Clone, Debug)]
pub struct TemporalOptions {
    /// Nodes the space may hold (the states explored, shared by the formulas of one run).
    pub max_states: Option<usize>,
    /// Each formula's own time budget.
    pub budget: Budget,
}

/// What one formula came to.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The formula holds; `complete` is false when the space was enumerated in part (`note` says how),
    /// and it then holds on the explored part only.
    Holds {
        complete: bool,
        note: Option<String>,
        /// A CTL witness (`EF f`, `EX f`): steps to a state where `f` holds.
        witness: Option<Vec<Step>>,
    },
    /// An LTL counterexample: a run `prefix` then `cycle` forever, replayed (`cycle` may be a deadlock's
    /// stutter step).
    Violated { prefix: Vec<Step>, cycle: Vec<Step> },
    /// A CTL formula false in an initial state; `steps` lead to it (and for `AG f`, on to a state where
    /// `f` is false).
    Fails { steps: Vec<Step> },
    /// Undecided: a limit, a budget, or a counterexample that did not replay.
    Unknown(String),
}

pub struct TemporalResult {
    pub name: String,
    pub text: String,
    /// The outcome, or the error that stopped this formula (bad formula, ill-defined atom).
    pub outcome: Result<Outcome, Diagnostic>,
    /// How it was decided: `safety search`, `automaton product`, `fixpoint labelling`.
    pub method: Option<&'static str>,
    /// States explored when it was decided (shared with the formulas before it).
    pub states: usize,
    pub elapsed: Duration,
}

/// The label of a deadlock's stutter step in traces.
pub const STUTTER: &str = "(deadlock: no operation is enabled; the run stays in this state)";

/// Checks each formula in turn on one shared exploration of the machine.
pub fn check(
    model: &Model,
    logic: Logic,
    sources: &[FormulaSource],
    options: &TemporalOptions,
) -> Vec<TemporalResult> {
    let mut space = MachineSpace::new(&model.context, options.max_states.unwrap_or(usize::MAX));
    let mut out = Vec::new();
    for src in sources {
        let start = Instant::now();
        options.budget.start(&model.context, start);
        space.set_deadline(options.budget.duration().map(|d| start + d));
        let (outcome, method) = match check_one(model, &mut space, logic, src) {
            Ok((o, m)) => (Ok(o), Some(m)),
            Err(d) => (Err(d), None),
        };
        Budget::stop(&model.context);
        out.push(TemporalResult {
            name: src.name.clone(),
            text: src.text.clone(),
            outcome,
            method,
            states: space.len(),
            elapsed: start.elapsed(),
        });
    }
    out
}

fn check_one(
    model: &Model,
    space: &mut MachineSpace,
    logic: Logic,
    src: &FormulaSource,
) -> Result<(Outcome, &'static str), Diagnostic> {
    let text = source(src.file)
        .map(|f| f.text.clone())
        .unwrap_or_else(|| src.text.clone());
    let parsed = match logic {
        Logic::Ltl => parse::parse_ltl(src.file, &text, src.range.clone())?,
        Logic::Ctl => parse::parse_ctl(src.file, &text, src.range.clone())?,
    };
    let resolved = resolve::resolve(&model.ast, space, &parsed, logic == Logic::Ltl)?;
    match logic {
        Logic::Ltl => {
            // Fairness alternatives (`A or B => f`): f must hold on the runs fair under each.
            let mut found = Ok((LtlVerdict::Holds, Method::Product));
            for alternative in &resolved.fairness {
                found = ltl::check_with_method(space, &resolved.formula, alternative);
                if !matches!(found, Ok((LtlVerdict::Holds, _))) {
                    break;
                }
            }
            let method = |m: Method| match m {
                Method::Safety => "safety search",
                Method::Product => "automaton product",
            };
            match found {
                Ok((LtlVerdict::Holds, m)) => Ok((holds(space, None), method(m))),
                Ok((LtlVerdict::Violated(lasso), m)) => {
                    let exact = !reads_enabledness(space, &resolved.formula)
                        && resolved.fairness.iter().all(Vec::is_empty);
                    Ok((violated(model, space, &lasso, exact), method(m)))
                }
                Err(stop) => stopped(stop, space).map(|o| (o, "stopped while exploring")),
            }
        }
        Logic::Ctl => match ctl::check_with_path(space, &resolved.formula) {
            Ok(found) => {
                let outcome = match found.failing {
                    None => {
                        let witness = match &found.path {
                            Some(path) => {
                                let from = first_node(path, space)?;
                                match replay_path(model, space, from, path) {
                                    Ok((steps, _)) => Some(steps),
                                    Err(why) => {
                                        return Ok((not_replayed(why), "fixpoint labelling"));
                                    }
                                }
                            }
                            None => None,
                        };
                        holds(space, witness)
                    }
                    // Missing steps can make any CTL operator false where it holds.
                    Some(_) if space.partial() => Outcome::Unknown(format!(
                        "false on the explored part, which is not the whole state space: {}",
                        space
                            .partial_reason
                            .as_deref()
                            .unwrap_or("it was enumerated in part")
                    )),
                    Some(n) => {
                        let path = found.path.unwrap_or_default();
                        match replay_path(model, space, n, &path) {
                            Ok((steps, _)) => Outcome::Fails { steps },
                            Err(why) => not_replayed(why),
                        }
                    }
                };
                Ok((outcome, "fixpoint labelling"))
            }
            Err(stop) => stopped(stop, space).map(|o| (o, "fixpoint labelling")),
        },
    }
}

fn first_node(path: &[Position], space: &mut MachineSpace) -> Result<NodeId, Diagnostic> {
    match path.first() {
        Some((n, _)) => Ok(*n),
        None => space
            .initial()
            .ok()
            .and_then(|i| i.first().copied())
            .ok_or_else(|| {
                Diagnostic::new(DiagKind::Internal, Default::default(), "no initial node")
            }),
    }
}

fn holds(space: &MachineSpace, witness: Option<Vec<Step>>) -> Outcome {
    Outcome::Holds {
        complete: !space.partial(),
        note: space.partial_reason.clone(),
        witness,
    }
}

fn not_replayed(why: String) -> Outcome {
    Outcome::Unknown(format!(
        "a counterexample was found but did not replay in the interpreter ({why}); please report it"
    ))
}

fn stopped(stop: Stop, space: &MachineSpace) -> Result<Outcome, Diagnostic> {
    match stop {
        Stop::Limit(why) => Ok(Outcome::Unknown(format!(
            "exploration stopped after {} states: {why}",
            space.len()
        ))),
        Stop::Error(d, _) => Err(d),
    }
}

/// Whether some atom of `f` reads what a node enables.
fn reads_enabledness(space: &MachineSpace, f: &Formula<usize>) -> bool {
    let mut atoms = Vec::new();
    f.atoms(&mut atoms);
    atoms.iter().any(|&a| space.reads_enabledness(a))
}

/// The outcome of a lasso: replayed, and trusted as a violation only where it does not depend on what
/// a node with missing steps enables. Its steps are real either way; but at a node whose successors
/// were enumerated in part, an enabledness atom, a fairness assumption or a deadlock's stutter step may
/// be wrong — unless `exact` (the formula reads no enabledness and assumes no fairness), when only the
/// stutter matters.
fn violated(model: &Model, space: &mut MachineSpace, lasso: &Lasso, exact: bool) -> Outcome {
    let start = lasso.prefix.first().or(lasso.cycle.first()).map(|p| p.0);
    let Some(start) = start else {
        return not_replayed("empty run".into());
    };
    let all: Vec<Position> = lasso.prefix.iter().chain(&lasso.cycle).copied().collect();
    let doubtful = all
        .iter()
        .any(|&(n, edge)| space.is_partial_node(n) && (!exact || edge.is_none()));
    if doubtful {
        return Outcome::Unknown(format!(
            "a run violating the formula was found in the explored part, but it depends on what a \
             state whose successors were enumerated in part enables: {}",
            space
                .partial_reason
                .as_deref()
                .unwrap_or("steps may be missing")
        ));
    }
    match replay_path(model, space, start, &all) {
        Ok((_, end)) if Some(end) != lasso.cycle.first().map(|p| p.0) => {
            not_replayed("the cycle does not close".into())
        }
        Ok((mut steps, _)) => {
            let cycle = steps.split_off(steps.len() - lasso.cycle.len());
            Outcome::Violated {
                prefix: steps,
                cycle,
            }
        }
        Err(why) => not_replayed(why),
    }
}

/// The steps of a run from initial node `start` along `path`, each re-executed by the interpreter:
/// SETUP_CONSTANTS and INITIALISATION, then one step per position; and the node the run ends in.
fn replay_path(
    model: &Model,
    space: &mut MachineSpace,
    start: NodeId,
    path: &[Position],
) -> Result<(Vec<Step>, NodeId), String> {
    let m = model.machine();
    let (setup, state) = space.node(start);
    let constants = space.setups[setup as usize].clone();
    let mut state: Vec<Value> = state.values.clone();
    let mut steps = initial_steps(model, &constants, &state)?;
    let mut at = start;
    for &(node, edge) in path {
        if node != at {
            return Err("the run's positions are not connected".into());
        }
        match edge {
            None => {
                let s = space.node(node).1.clone();
                let found = model
                    .context
                    .successors_tolerant(&constants, &s, usize::MAX)
                    .map_err(|e| e.to_string())?;
                if !found.transitions.is_empty() {
                    return Err("a deadlock step leaves a state with enabled operations".into());
                }
                steps.push(Step {
                    label: STUTTER.into(),
                    params: vec![],
                    outputs: vec![],
                    changed: vec![],
                });
            }
            Some(i) => {
                let target = space.edges(node).map_err(|_| "edges not available")?[i].target;
                let label = space.label(node, i).clone();
                let after = space.node(target).1.values.clone();
                let op = &m.operations[label.operation];
                let outputs =
                    replay_operation(model, op, &constants, &state, &label.params, &after)?;
                let changed = (m.variables.iter().zip(state.iter().zip(&after)))
                    .filter(|(_, (old, new))| old != new)
                    .map(|(v, (_, new))| (v.name.clone(), new.clone()))
                    .collect();
                steps.push(Step {
                    label: op.name.to_string(),
                    params: assignment(&op.params, &label.params),
                    outputs,
                    changed,
                });
                state = after;
                at = target;
            }
        }
    }
    Ok((steps, at))
}

#[cfg(test)]
mod tests;
