//! Output of `bsolve ltl` and `bsolve ctl`: per formula its verdict, what it was proved on, and the
//! replayed counterexample or witness; the exit code of the worst outcome.

use super::text::Printer;
use super::{Exit, exit_for};
use crate::check::Model;
use crate::check::mc::Step;
use crate::check::temporal::{Logic, Outcome, TemporalResult};
use serde_json::json;

/// Prints every result; the exit code: bad input (3) over a violation (1) over unknown (2) over holds.
pub fn print(model: &Model, logic: Logic, results: &[TemporalResult], json: bool) -> Exit {
    let printer = Printer::new(model.machine(), &[]);
    let mut exit = Exit::Holds;
    let mut items = Vec::new();
    if results.is_empty() && !json {
        let kind = if logic == Logic::Ltl { "LTL" } else { "CTL" };
        println!("no ASSERT_{kind} definitions in the machine");
    }
    for r in results {
        let (status, detail, code) = verdict(logic, r);
        exit = worse(exit, code);
        let steps = |s: &[Step]| s.iter().map(|s| printer.step_json(s)).collect::<Vec<_>>();
        if json {
            let mut item = json!({
                "name": r.name,
                "formula": r.text,
                "status": status,
                "detail": detail,
                "method": r.method,
                "states": r.states,
                "time_ms": r.elapsed.as_millis() as u64,
            });
            match &r.outcome {
                Ok(Outcome::Violated { prefix, cycle }) => {
                    item["prefix"] = json!(steps(prefix));
                    item["loop"] = json!(steps(cycle));
                }
                Ok(Outcome::Fails { steps: s }) => item["trace"] = json!(steps(s)),
                Ok(Outcome::Holds {
                    witness: Some(w), ..
                }) => item["witness"] = json!(steps(w)),
                Err(d) => item["location"] = json!(d.span.to_string()),
                _ => {}
            }
            items.push(item);
            continue;
        }
        println!("{}: {}", r.name, r.text.trim());
        println!("  {status}: {detail}");
        let show = |title: &str, s: &[Step], from: usize| {
            println!("  {title}:");
            for (i, step) in s.iter().enumerate() {
                println!("    {}: {}", from + i, printer.step(step));
            }
        };
        match &r.outcome {
            Ok(Outcome::Violated { prefix, cycle }) => {
                show("prefix", prefix, 0);
                show("loop (repeated forever)", cycle, prefix.len());
            }
            Ok(Outcome::Fails { steps }) => show("trace", steps, 0),
            Ok(Outcome::Holds {
                witness: Some(w), ..
            }) => show("witness", w, 0),
            _ => {}
        }
        if let Some(m) = r.method {
            println!(
                "  ({m}; {} states explored; {} ms)",
                r.states,
                r.elapsed.as_millis()
            );
        }
    }
    if json {
        println!("{}", json!({ "formulas": items, "exit": exit as i32 }));
    }
    exit
}

fn verdict(logic: Logic, r: &TemporalResult) -> (String, String, Exit) {
    let runs = match logic {
        Logic::Ltl => "every run from every initial state",
        Logic::Ctl => "every initial state",
    };
    match &r.outcome {
        Ok(Outcome::Holds { complete: true, .. }) => {
            ("TRUE".into(), format!("holds on {runs}"), Exit::Holds)
        }
        Ok(Outcome::Holds {
            complete: false,
            note,
            ..
        }) => (
            "UNKNOWN".into(),
            format!(
                "holds on the explored part only: {}",
                note.as_deref()
                    .unwrap_or("the state space was enumerated in part")
            ),
            Exit::Unknown,
        ),
        Ok(Outcome::Violated { .. }) => (
            "FALSE".into(),
            "violated by the run below (replayed by the interpreter)".into(),
            Exit::Counterexample,
        ),
        Ok(Outcome::Fails { steps }) => (
            "FALSE".into(),
            if steps.is_empty() {
                "false in an initial state".into()
            } else {
                "false; the trace below leads to the counterexample (replayed by the interpreter)"
                    .into()
            },
            Exit::Counterexample,
        ),
        Ok(Outcome::Unknown(why)) => ("UNKNOWN".into(), why.clone(), Exit::Unknown),
        Err(d) => {
            let code = exit_for(d);
            let status = if code == Exit::BadInput {
                "ERROR"
            } else {
                "UNKNOWN"
            };
            (status.into(), d.render(), code)
        }
    }
}

/// The exit code that wins when formulas disagree.
fn worse(a: Exit, b: Exit) -> Exit {
    let rank = |e: Exit| match e {
        Exit::Holds => 0,
        Exit::Unknown => 1,
        Exit::Counterexample => 2,
        Exit::BadInput => 3,
        Exit::Internal => 4,
    };
    if rank(b) > rank(a) { b } else { a }
}
