//! What one run of the `bsolve` binary answered, read from its `--json` output into the few cases the
//! cross-check compares (see `compare.rs`).

use serde_json::Value;
use std::collections::BTreeSet;

/// What a counterexample shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finding {
    InvariantViolation,
    Deadlock,
}

/// The answer of a model-checking command (`mc`, `bmc`, `kinduction`, `ic3`, `cbc-deadlock`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A counterexample `depth` operations after the INITIALISATION (0 for `cbc-deadlock`, whose state
    /// has no trace); `shortest` when the command claims no shorter one exists.
    Found {
        finding: Finding,
        depth: usize,
        shortest: bool,
    },
    /// None exists, by a complete search: `mc` explored every reachable state, `bmc` every path up to
    /// its bound, `kinduction`/`ic3` proved the invariant, `cbc-deadlock` found no deadlocked state.
    Absent,
    /// The command said UNKNOWN (budget spent, undecided), for this reason: not a verdict, so never a
    /// disagreement.
    Unknown(String),
    /// Anything else (an error exit, a crash, no JSON, a status this test does not expect): a problem of
    /// its own, reported with the output.
    Failed(String),
}

/// The answer of `setup-constants --all`: the solutions as canonical text, and whether the list is
/// claimed complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setups {
    Listed {
        solutions: BTreeSet<String>,
        complete: bool,
    },
    Unknown,
    Failed(String),
}

/// A run's exit code (None: killed by a signal) and its standard output and error.
pub struct Output {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    /// The JSON object printed, or why there is none (a crash, an error exit with a message).
    fn json(&self) -> Result<Value, String> {
        match self.code {
            Some(0..=2) => {}
            Some(code) => return Err(format!("exit code {code}: {}", self.stderr.trim())),
            None => return Err(format!("killed by a signal: {}", self.stderr.trim())),
        }
        serde_json::from_str(&self.stdout)
            .map_err(|e| format!("not JSON ({e}): {}\n{}", self.stdout, self.stderr))
    }
}

/// The number of operations in a JSON trace after the SETUP_CONSTANTS and INITIALISATION steps.
fn trace_depth(json: &Value) -> Result<usize, String> {
    let steps = json["trace"].as_array().ok_or("no trace")?;
    Ok(steps
        .iter()
        .filter(|s| {
            !matches!(
                s["operation"].as_str(),
                Some("SETUP_CONSTANTS" | "INITIALISATION")
            )
        })
        .count())
}

/// An UNKNOWN answer with the reason the command gave (its detail, justification or reason).
fn unknown(json: &Value) -> Answer {
    let reason = ["detail", "justification", "reason"]
        .iter()
        .find_map(|key| json[key].as_str())
        .unwrap_or("no reason given");
    Answer::Unknown(reason.to_string())
}

fn status(json: &Value) -> Result<&str, String> {
    json["status"]
        .as_str()
        .ok_or_else(|| format!("no status: {json}"))
}

/// `mc`: a counterexample's depth is its trace's (breadth-first, so a shortest one); "NO ERROR FOUND"
/// counts as absent only when every state was explored with every parameter value.
pub fn mc(out: &Output) -> Answer {
    let read = || -> Result<Answer, String> {
        let json = out.json()?;
        let finding = match status(&json)? {
            "INVARIANT VIOLATION" => Finding::InvariantViolation,
            "DEADLOCK" => Finding::Deadlock,
            "NO ERROR FOUND" => {
                let complete = json["exploration_complete"] == Value::Bool(true)
                    && json["partial_enumeration"] == Value::Bool(false);
                return Ok(if complete {
                    Answer::Absent
                } else {
                    unknown(&json)
                });
            }
            "UNKNOWN" | "NO ERROR FOUND IN THE EXPLORED PART" => return Ok(unknown(&json)),
            other => return Err(format!("unexpected status {other}: {json}")),
        };
        Ok(Answer::Found {
            finding,
            depth: trace_depth(&json)?,
            shortest: true,
        })
    };
    read().unwrap_or_else(Answer::Failed)
}

/// The number of states `mc` counted, when its answer is complete.
pub fn mc_states(out: &Output) -> Option<u64> {
    out.json().ok()?["states"].as_u64()
}

/// `bmc`: "<FINDING> at depth N" (shortest when the justification says every shorter length is a
/// complete Unsat), "NO COUNTEREXAMPLE up to depth N" or UNKNOWN. The trace must be N operations long.
pub fn bmc(out: &Output) -> Answer {
    let read = || -> Result<Answer, String> {
        let json = out.json()?;
        let status = status(&json)?;
        if status == "UNKNOWN" {
            return Ok(unknown(&json));
        }
        if status.starts_with("NO COUNTEREXAMPLE up to depth") {
            return Ok(Answer::Absent);
        }
        let (finding, depth) = if let Some(d) = status.strip_prefix("INVARIANT VIOLATION at depth ")
        {
            (Finding::InvariantViolation, d)
        } else if let Some(d) = status.strip_prefix("DEADLOCK at depth ") {
            (Finding::Deadlock, d)
        } else {
            return Err(format!("unexpected status {status}: {json}"));
        };
        let depth: usize = depth
            .parse()
            .map_err(|_| format!("bad depth in {status}"))?;
        let traced = trace_depth(&json)?;
        if traced != depth {
            return Err(format!(
                "status says depth {depth}, the trace has {traced} operations: {json}"
            ));
        }
        let justification = json["justification"].as_str().unwrap_or_default();
        Ok(Answer::Found {
            finding,
            depth,
            shortest: justification.contains("shortest: every shorter length"),
        })
    };
    read().unwrap_or_else(Answer::Failed)
}

/// `kinduction` and `ic3`: PROVED, INVARIANT VIOLATION (with a trace) or UNKNOWN.
pub fn proof(out: &Output) -> Answer {
    let read = || -> Result<Answer, String> {
        let json = out.json()?;
        match status(&json)? {
            "PROVED for all reachable states" => Ok(Answer::Absent),
            "INVARIANT VIOLATION" => Ok(Answer::Found {
                finding: Finding::InvariantViolation,
                depth: trace_depth(&json)?,
                shortest: false,
            }),
            "UNKNOWN" => Ok(unknown(&json)),
            other => Err(format!("unexpected status {other}: {json}")),
        }
    };
    read().unwrap_or_else(Answer::Failed)
}

/// `cbc-deadlock`: DEADLOCK (some state satisfying the invariant, reachable or not), NO DEADLOCK or
/// UNKNOWN.
pub fn cbc_deadlock(out: &Output) -> Answer {
    let read = || -> Result<Answer, String> {
        let json = out.json()?;
        match status(&json)? {
            "DEADLOCK" => Ok(Answer::Found {
                finding: Finding::Deadlock,
                depth: 0,
                shortest: false,
            }),
            "NO DEADLOCK" => Ok(Answer::Absent),
            "UNKNOWN" => Ok(unknown(&json)),
            other => Err(format!("unexpected status {other}: {json}")),
        }
    };
    read().unwrap_or_else(Answer::Failed)
}

/// `setup-constants --all`: the solutions (each a JSON object of the constants' values, as text with
/// sorted keys) and the completeness claim.
pub fn setups(out: &Output) -> Setups {
    let read = || -> Result<Setups, String> {
        let json = out.json()?;
        let status = status(&json)?;
        if status.starts_with("UNKNOWN") {
            return Ok(Setups::Unknown);
        }
        let solutions = json["solutions"]
            .as_array()
            .ok_or_else(|| format!("no solutions: {json}"))?;
        // serde_json's maps are sorted by key, so equal assignments print equally.
        let solutions: BTreeSet<String> = solutions.iter().map(Value::to_string).collect();
        let complete = json["complete"] == Value::Bool(true) && status == "ALL SOLUTIONS";
        Ok(Setups::Listed {
            solutions,
            complete,
        })
    };
    read().unwrap_or_else(Setups::Failed)
}
