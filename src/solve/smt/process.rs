//! The transport: an SMT-LIB solver process (`z3 -in` by default, or the `--smt-solver` command) spoken to
//! incrementally over its standard input and output. Everything sent is also written to the
//! `--dump-smt` file, so the file replays the session with any solver.
//!
//! Answers are read by a thread that forwards complete S-expressions; the caller waits in short slices
//! and checks the context's deadline between them, so a solver that runs past `--timeout` is killed,
//! never waited for.

use crate::diag::Span;
use crate::eval::{EvalError, limit_error};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// The default solver command.
pub(crate) const DEFAULT_SOLVER: &str = "z3 -in";

/// How often a waiting caller checks the deadline and its cancellation: first after `FIRST_POLL`, then
/// twice as long each time up to `POLL`. The portfolio waits for a cancelled lane to end, so the wait
/// is paid by every question native decides soon after its probe (at a fixed 5 ms, such questions took
/// 6–9 ms where native alone took 1–2 ms); a long solve is looked at less often.
const FIRST_POLL: Duration = Duration::from_micros(100);
const POLL: Duration = Duration::from_millis(2);

pub(crate) struct Solver {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<String>,
    dump: Option<File>,
    command: String,
}

/// Whether this process has written the dump file yet: the first session truncates it, later ones
/// append (a command may ask several questions).
static DUMP_STARTED: Mutex<bool> = Mutex::new(false);

impl Solver {
    /// Starts `command` (split at white space; the first word is looked up on PATH).
    pub(crate) fn start(command: &str) -> Result<Solver, String> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| "the SMT solver command is empty".to_string())?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                format!(
                    "the SMT solver `{command}` could not be started: {e} (it is optional: install \
                     z3, e.g. `apt install z3`, or name another with --smt-solver)"
                )
            })?;
        let stdin = child.stdin.take().ok_or("no solver stdin")?;
        let stdout = child.stdout.take().ok_or("no solver stdout")?;
        let (tx, answers) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut pending = String::new();
            let mut line = String::new();
            loop {
                line.clear();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        pending.push_str(&line);
                        if balanced(&pending) {
                            let answer = std::mem::take(&mut pending).trim().to_string();
                            if !answer.is_empty() && tx.send(answer).is_err() {
                                break;
                            }
                        }
                    }
                }
            }
        });
        Ok(Solver {
            child,
            stdin,
            answers,
            dump: None,
            command: command.to_string(),
        })
    }

    pub(crate) fn command(&self) -> &str {
        &self.command
    }

    /// Writes what is sent from now on to `dump` (nowhere when `None`).
    pub(crate) fn dump_to(&mut self, dump: Option<&Path>) -> Result<(), String> {
        self.dump = match dump {
            Some(path) => {
                let mut started = DUMP_STARTED.lock().unwrap_or_else(|e| e.into_inner());
                let file = if *started {
                    File::options().append(true).create(true).open(path)
                } else {
                    File::create(path)
                }
                .map_err(|e| format!("--dump-smt {}: {e}", path.display()))?;
                *started = true;
                Some(file)
            }
            None => None,
        };
        Ok(())
    }

    /// Sends commands (and writes them to the dump file).
    pub(crate) fn send(&mut self, text: &str) -> Result<(), EvalError> {
        if let Some(f) = &mut self.dump {
            let _ = f.write_all(text.as_bytes());
        }
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.failure(&format!("stopped reading its input ({e})")))
    }

    /// The next answer, waiting until `deadline` fails at most (the process is killed then): pass
    /// `Context::check_deadline`.
    pub(crate) fn answer(
        &mut self,
        deadline: &dyn Fn() -> Result<(), EvalError>,
    ) -> Result<String, EvalError> {
        let mut poll = FIRST_POLL;
        loop {
            if let Err(e) = deadline() {
                let _ = self.child.kill();
                return Err(e);
            }
            match self.answers.recv_timeout(poll) {
                Ok(a) => return Ok(a),
                Err(RecvTimeoutError::Timeout) => poll = (poll * 2).min(POLL),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .wait()
                        .map(|s| s.to_string())
                        .unwrap_or_else(|e| e.to_string());
                    return Err(self.failure(&format!("ended without an answer ({status})")));
                }
            }
        }
    }

    fn failure(&self, what: &str) -> EvalError {
        limit_error(
            Span::default(),
            format!("the SMT solver `{}` {what}", self.command),
        )
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"(exit)\n");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `text` holds complete S-expressions (parentheses balanced outside strings and quoted symbols).
fn balanced(text: &str) -> bool {
    let mut depth: i64 = 0;
    let mut in_string = false;
    let mut in_quote = false;
    for c in text.chars() {
        match c {
            '"' if !in_quote => in_string = !in_string,
            '|' if !in_string => in_quote = !in_quote,
            '(' if !in_string && !in_quote => depth += 1,
            ')' if !in_string && !in_quote => depth -= 1,
            _ => {}
        }
    }
    depth <= 0 && !in_string && !in_quote
}

#[cfg(test)]
mod tests {
    use super::balanced;

    #[test]
    fn answers_end_where_parentheses_balance() {
        assert!(balanced("sat\n"));
        assert!(!balanced("((x 1)\n"));
        assert!(balanced("((x 1)\n (y \")(\"))\n"));
        assert!(!balanced("((s \"a\n"));
    }
}
