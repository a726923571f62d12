//! Text and JSON output of the symbolic checks (cbc, cbc-deadlock, cbc-assertions, cbc-sequence, bmc,
//! kinduction, ic3), with their exit codes. Every verdict names its justification: a counterexample is
//! "re-checked and replayed by the interpreter", a proof is a "complete Unsat" (with the bounds that made
//! it complete), anything else is UNKNOWN with its reason.

use super::Exit;
use super::text::{Printer, print_trace};
use crate::check::Model;
use crate::check::bmc::{BmcOutcome, BmcResult, Target};
use crate::check::cbc::{
    AssertionCheck, AssertionOutcome, CbcOutcome, DeadlockOutcome, OperationCheck, SequenceOutcome,
};
use crate::check::ic3::{Ic3Outcome, Ic3Result};
use crate::check::kinduction::{KInductionOutcome, KInductionResult};
use crate::check::mc::Step;
use crate::check::setup::Assignment;
use crate::check::unsat_core::source_text;
use crate::diag::Span;
use serde_json::{Value as Json, json};
use std::time::Duration;

const REPLAYED: &str = "solution re-checked and trace replayed by the interpreter";
const COMPLETE: &str =
    "complete Unsat: exhaustive search, not cut by MININT..MAXINT or default deferred-set sizes";

/// The limits that can change a verdict (ARCHITECTURE: no silent bounds).
fn settings_json(model: &Model) -> Json {
    let s = model.context.settings();
    json!({
        "MAXINT": s.maxint.to_string(),
        "MININT": s.minint.to_string(),
        "DEFAULT_SETSIZE": s.default_setsize,
        "backend": s.backend.name(),
        "max_operation_sequences_per_length": crate::check::bmc::MAX_SEQUENCES,
    })
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

fn conjunct(span: &Span) -> String {
    format!("{} ({span})", source_text(*span))
}

fn conjuncts_json(spans: &[Span]) -> Json {
    spans
        .iter()
        .map(|s| json!({"text": source_text(*s), "location": s.to_string()}))
        .collect()
}

/// The text of a verdict with an optional counterexample: status, justification and time, then the
/// replayed trace and the invariant conjuncts it violates.
fn verdict_text(
    model: &Model,
    printer: &Printer,
    status: &str,
    justification: &str,
    elapsed: Duration,
    trace: &[Step],
    violated: &[Span],
) {
    println!("{status} ({justification}) [{} ms]", ms(elapsed));
    if !trace.is_empty() {
        print_trace(model, printer, "", trace);
    }
    for s in violated {
        println!("violated: {}", conjunct(s));
    }
}

fn trace_json(printer: &Printer, trace: &[Step]) -> Json {
    trace.iter().map(|s| printer.step_json(s)).collect()
}

/// `bsolve cbc`, printed as the checks come (`CbcReport::add`): in text, each operation's verdict as
/// soon as it is known; in JSON, one object at the end. Exit 1 when some operation violates the
/// invariant, else 2 when some check is undecided.
pub struct CbcReport<'m> {
    model: &'m Model,
    printer: Printer<'m>,
    json: bool,
    exit: Exit,
    rows: Vec<Json>,
}

impl<'m> CbcReport<'m> {
    pub fn new(model: &'m Model, json: bool) -> CbcReport<'m> {
        CbcReport {
            model,
            printer: Printer::new(model.machine(), &[]),
            json,
            exit: Exit::Holds,
            rows: Vec::new(),
        }
    }

    pub fn add(&mut self, c: &OperationCheck) {
        let printer = &self.printer;
        let op = Some(c.operation.as_str());
        let (status, justification) = match &c.outcome {
            CbcOutcome::Preserved => ("PRESERVED", COMPLETE.to_string()),
            CbcOutcome::Untouched => (
                "PRESERVED",
                "the operation writes no variable the invariant mentions".to_string(),
            ),
            CbcOutcome::Violated(_) => {
                self.exit = Exit::Counterexample;
                ("COUNTEREXAMPLE", REPLAYED.to_string())
            }
            CbcOutcome::Unknown(r) => {
                if self.exit == Exit::Holds {
                    self.exit = Exit::Unknown;
                }
                ("UNKNOWN", r.clone())
            }
        };
        if self.json {
            let mut row = json!({
                "operation": c.operation,
                "status": status,
                "justification": justification,
                "time_ms": ms(c.elapsed),
            });
            if let CbcOutcome::Violated(cex) = &c.outcome {
                row["counterexample"] = json!({
                    "constants": printer.assignment_json(&cex.constants, None),
                    "before": printer.assignment_json(&cex.before, None),
                    "parameters": printer.assignment_json(&cex.params, op),
                    "after": printer.assignment_json(&cex.after, None),
                    "violated": conjuncts_json(&cex.violated),
                });
            }
            self.rows.push(row);
            return;
        }
        println!(
            "{}: {status} ({justification}) [{} ms]",
            c.operation,
            ms(c.elapsed)
        );
        if let CbcOutcome::Violated(cex) = &c.outcome {
            let line = |label: &str, a: &Assignment, op: Option<&str>| {
                if !a.is_empty() {
                    println!("  {label:<11} {}", printer.assignment(a, op));
                }
            };
            line("constants:", &cex.constants, None);
            line("before:", &cex.before, None);
            line("parameters:", &cex.params, op);
            line("after:", &cex.after, None);
            for s in &cex.violated {
                println!("  violated:   {}", conjunct(s));
            }
        }
    }

    pub fn finish(self) -> Exit {
        if self.json {
            println!(
                "{}",
                json!({"command": "cbc", "exit": self.exit as i32, "results": self.rows, "settings": settings_json(self.model)})
            );
        }
        self.exit
    }
}

pub fn deadlock(model: &Model, outcome: &DeadlockOutcome, elapsed: Duration, json: bool) -> Exit {
    let printer = Printer::new(model.machine(), &[]);
    let (status, justification, exit) = match outcome {
        DeadlockOutcome::NoDeadlock => (
            "NO DEADLOCK",
            format!(
                "{COMPLETE}: every state satisfying PROPERTIES and INVARIANT enables an operation"
            ),
            Exit::Holds,
        ),
        DeadlockOutcome::Deadlock { .. } => (
            "DEADLOCK",
            "solution re-checked; the interpreter finds no enabled operation in the state"
                .to_string(),
            Exit::Counterexample,
        ),
        DeadlockOutcome::Unknown(r) => ("UNKNOWN", r.clone(), Exit::Unknown),
    };
    if json {
        let mut out = json!({"command": "cbc-deadlock", "status": status, "justification": justification, "time_ms": ms(elapsed), "settings": settings_json(model)});
        if let DeadlockOutcome::Deadlock { constants, state } = outcome {
            out["constants"] = printer.assignment_json(constants, None);
            out["state"] = printer.assignment_json(state, None);
        }
        println!("{out}");
    } else {
        println!("{status} ({justification}) [{} ms]", ms(elapsed));
        if let DeadlockOutcome::Deadlock { constants, state } = outcome {
            if !constants.is_empty() {
                println!("  constants: {}", printer.assignment(constants, None));
            }
            println!("  state:     {}", printer.assignment(state, None));
            println!("  (the state satisfies the invariant but need not be reachable)");
        }
    }
    exit
}

/// `bsolve cbc-assertions`: without `--proof`, "no counterexample within the bounds" counts as holding
/// (ProB's `-cbc_assertions`); with it, only a complete Unsat does (`-cbc_assertions_proof`).
pub fn assertions(
    model: &Model,
    checks: &[AssertionCheck],
    on_state: usize,
    proof: bool,
    elapsed: Duration,
    json: bool,
) -> Exit {
    let printer = Printer::new(model.machine(), &[]);
    let mut exit = Exit::Holds;
    let mut rows = Vec::new();
    for c in checks {
        let (status, justification) = match &c.outcome {
            AssertionOutcome::Proved => ("PROVED", COMPLETE.to_string()),
            AssertionOutcome::Counterexample(_) => {
                exit = Exit::Counterexample;
                (
                    "COUNTEREXAMPLE",
                    "solution of PROPERTIES & not ASSERTION re-checked by the interpreter"
                        .to_string(),
                )
            }
            AssertionOutcome::NoCounterexampleFound if !proof => (
                "NO COUNTEREXAMPLE FOUND",
                "bounded search (not a proof: MININT..MAXINT or default deferred-set sizes)"
                    .to_string(),
            ),
            AssertionOutcome::NoCounterexampleFound => {
                if exit == Exit::Holds {
                    exit = Exit::Unknown;
                }
                ("UNKNOWN", "--proof refuses an incomplete search: no counterexample within the bounds only".to_string())
            }
            AssertionOutcome::Unknown(r) => {
                if exit == Exit::Holds {
                    exit = Exit::Unknown;
                }
                ("UNKNOWN", r.clone())
            }
        };
        if json {
            let mut row = json!({"assertion": source_text(c.span), "location": c.span.to_string(), "status": status, "justification": justification});
            if let AssertionOutcome::Counterexample(a) = &c.outcome {
                row["constants"] = printer.assignment_json(a, None);
            }
            rows.push(row);
        } else {
            println!("{}: {status} ({justification})", conjunct(&c.span));
            if let AssertionOutcome::Counterexample(a) = &c.outcome {
                println!("  constants: {}", printer.assignment(a, None));
            }
        }
    }
    if json {
        println!(
            "{}",
            json!({"command": "cbc-assertions", "proof": proof, "results": rows, "assertions_on_variables_skipped": on_state, "time_ms": ms(elapsed), "settings": settings_json(model)})
        );
    } else {
        if checks.is_empty() {
            println!("no ASSERTIONS on constants only");
        }
        if on_state > 0 {
            println!(
                "{on_state} assertion(s) mention variables: not static, not checked here (use `bsolve mc`)"
            );
        }
        println!("time: {} ms", ms(elapsed));
    }
    exit
}

pub fn sequence(model: &Model, outcome: &SequenceOutcome, elapsed: Duration, json: bool) -> Exit {
    let printer = Printer::new(model.machine(), &[]);
    let (status, justification, exit) = match outcome {
        SequenceOutcome::Found(_) => ("SEQUENCE FOUND", REPLAYED.to_string(), Exit::Holds),
        SequenceOutcome::Infeasible => (
            "NOT EXECUTABLE",
            format!("{COMPLETE}: no constants, initial state and parameters execute the sequence"),
            Exit::Counterexample,
        ),
        SequenceOutcome::Unknown(r) => ("UNKNOWN", r.clone(), Exit::Unknown),
    };
    let trace: &[Step] = match outcome {
        SequenceOutcome::Found(t) => t,
        _ => &[],
    };
    if json {
        println!(
            "{}",
            json!({"command": "cbc-sequence", "status": status, "justification": justification, "trace": trace_json(&printer, trace), "time_ms": ms(elapsed), "settings": settings_json(model)})
        );
    } else {
        println!("{status} ({justification}) [{} ms]", ms(elapsed));
        if !trace.is_empty() {
            print_trace(model, &printer, "", trace);
        }
    }
    exit
}

pub fn bmc(model: &Model, result: &BmcResult, target: Target, json: bool) -> Exit {
    let printer = Printer::new(model.machine(), &[]);
    let what = match target {
        Target::InvariantViolation => "INVARIANT VIOLATION",
        Target::Deadlock => "DEADLOCK",
    };
    let (status, mut justification, exit) = match &result.outcome {
        BmcOutcome::Counterexample {
            length, shortest, ..
        } => (
            format!("{what} at depth {length}"),
            if *shortest {
                format!("{REPLAYED}; shortest: every shorter length is a complete Unsat")
            } else {
                format!(
                    "{REPLAYED}; a shorter one may exist (not every shorter length is a complete Unsat: undecided, or searched over bits only)"
                )
            },
            Exit::Counterexample,
        ),
        BmcOutcome::NoCounterexample { undecided } if undecided.is_empty() => (
            format!("NO COUNTEREXAMPLE up to depth {}", result.depth),
            format!(
                "{COMPLETE} at every length 0..{}: no state reached within {} operations {}; deeper \
                 states not explored",
                result.depth,
                result.depth,
                match target {
                    Target::InvariantViolation => "violates the invariant",
                    Target::Deadlock =>
                        "is a deadlock (no operation enabled, whether or not the invariant holds)",
                }
            ),
            Exit::Unknown,
        ),
        BmcOutcome::NoCounterexample { undecided } => (
            "UNKNOWN".to_string(),
            format!(
                "no counterexample up to depth {}, but undecided at {}",
                result.depth,
                undecided
                    .iter()
                    .map(|(k, r)| format!("length {k} ({r})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Exit::Unknown,
        ),
    };
    if let Some(from) = result.unrolled_from {
        justification.push_str(&format!(
            "; lengths {from} and up asked as the transition relation unrolled, decided by SAT"
        ));
    }
    let (trace, violated): (&[Step], &[Span]) = match &result.outcome {
        BmcOutcome::Counterexample {
            trace, violated, ..
        } => (trace, violated),
        _ => (&[], &[]),
    };
    if json {
        println!(
            "{}",
            json!({"command": "bmc", "status": status, "justification": justification, "depth": result.depth, "unrolled_from": result.unrolled_from, "trace": trace_json(&printer, trace), "violated": conjuncts_json(violated), "time_ms": ms(result.elapsed), "settings": settings_json(model)})
        );
    } else {
        verdict_text(
            model,
            &printer,
            &status,
            &justification,
            result.elapsed,
            trace,
            violated,
        );
    }
    exit
}

pub fn kinduction(model: &Model, result: &KInductionResult, json: bool) -> Exit {
    let printer = Printer::new(model.machine(), &[]);
    let (status, justification, exit) = match &result.outcome {
        KInductionOutcome::Proved { k } => (
            "PROVED for all reachable states".to_string(),
            format!(
                "{COMPLETE}: base case up to length {} and step case for k = {k}",
                k - 1
            ),
            Exit::Holds,
        ),
        KInductionOutcome::Counterexample { .. } => (
            "INVARIANT VIOLATION".to_string(),
            replayed_by(result.explicit_search),
            Exit::Counterexample,
        ),
        KInductionOutcome::Unknown(r) => (
            "UNKNOWN".to_string(),
            format!("not proved with k <= {}: {r}", result.max_k),
            Exit::Unknown,
        ),
    };
    let (trace, violated): (&[Step], &[Span]) = match &result.outcome {
        KInductionOutcome::Counterexample { trace, violated } => (trace, violated),
        _ => (&[], &[]),
    };
    if json {
        println!(
            "{}",
            json!({"command": "kinduction", "status": status, "justification": justification, "max_k": result.max_k, "explicit_search": result.explicit_search, "trace": trace_json(&printer, trace), "violated": conjuncts_json(violated), "time_ms": ms(result.elapsed), "settings": settings_json(model)})
        );
    } else {
        verdict_text(
            model,
            &printer,
            &status,
            &justification,
            result.elapsed,
            trace,
            violated,
        );
    }
    exit
}

/// A counterexample's justification, naming the breadth-first search of concrete states when it came
/// from there rather than from the symbolic questions.
fn replayed_by(explicit_search: bool) -> String {
    if explicit_search {
        format!("{REPLAYED}; found by the breadth-first search of concrete states")
    } else {
        REPLAYED.to_string()
    }
}

/// `bsolve ic3`: a proof prints the inductive invariant (re-checkable with `bsolve cbc --invariant`).
pub fn ic3(model: &Model, result: &Ic3Result, json: bool) -> Exit {
    let printer = Printer::new(model.machine(), &[]);
    let (status, justification, exit) = match &result.outcome {
        Ic3Outcome::Proved { frame, lemmas, .. } => (
            "PROVED for all reachable states".to_string(),
            format!(
                "inductive invariant re-checked: established by the INITIALISATION and preserved by \
                 every operation ({COMPLETE}); frame {frame} converged, {lemmas} blocked cube(s), {}",
                if result.over_bits {
                    "cubes over the SAT encoding's state bits, constants symbolic".to_string()
                } else {
                    format!("cubes of values, {} constant setup(s)", result.setups)
                }
            ),
            Exit::Holds,
        ),
        Ic3Outcome::Counterexample { .. } => (
            "INVARIANT VIOLATION".to_string(),
            replayed_by(result.explicit_search),
            Exit::Counterexample,
        ),
        Ic3Outcome::Unknown(r) => ("UNKNOWN".to_string(), r.clone(), Exit::Unknown),
    };
    let (trace, violated): (&[Step], &[Span]) = match &result.outcome {
        Ic3Outcome::Counterexample { trace, violated } => (trace, violated),
        _ => (&[], &[]),
    };
    let invariant = match &result.outcome {
        Ic3Outcome::Proved { invariant, .. } => Some(invariant.as_str()),
        _ => None,
    };
    if json {
        println!(
            "{}",
            json!({"command": "ic3", "status": status, "justification": justification, "max_frames": result.max_frames, "invariant": invariant, "trace": trace_json(&printer, trace), "violated": conjuncts_json(violated), "queries": result.queries, "over_bits": result.over_bits, "explicit_search": result.explicit_search, "time_ms": ms(result.elapsed), "settings": settings_json(model)})
        );
    } else {
        verdict_text(
            model,
            &printer,
            &status,
            &justification,
            result.elapsed,
            trace,
            violated,
        );
        // A proof has neither trace nor violated conjuncts: the invariant comes right after the status.
        if let Some(inv) = invariant {
            println!("inductive invariant: {inv}");
        }
    }
    exit
}
