//! Progress on stderr for long searches (indicatif): shown only when stderr is a terminal and the
//! output is text, so that pipes, files and `--json` get the results alone.

use indicatif::{ProgressBar, ProgressStyle};

/// Whether progress is shown: text output to a terminal's stderr.
pub fn wanted(json: bool) -> bool {
    !json && std::io::IsTerminal::is_terminal(&std::io::stderr())
}

/// A spinner with the elapsed time and a message.
pub fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar
}

/// What a check that proceeds by steps (bmc's lengths, k-induction's k) says as it goes.
pub enum Event<'a> {
    /// The step being asked.
    Asking(&'a str),
    /// A step's verdict, as soon as it is known.
    Done(&'a str),
}

/// `Event`s on a terminal: a spinner naming the command and the step asked, each step's verdict
/// printed above it on stderr. Nothing when progress is not wanted (the verdicts then come with the
/// result only).
pub struct Reporter {
    bar: Option<ProgressBar>,
    command: &'static str,
}

impl Reporter {
    pub fn new(wanted: bool, command: &'static str) -> Reporter {
        let bar = wanted.then(|| {
            let bar = spinner();
            bar.set_message(command);
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        });
        Reporter { bar, command }
    }

    pub fn report(&self, event: Event<'_>) {
        let Some(bar) = &self.bar else {
            return;
        };
        match event {
            Event::Asking(what) => bar.set_message(format!("{}: {what}", self.command)),
            Event::Done(line) => bar.println(format!("{}: {line}", self.command)),
        }
    }

    /// Runs `print` (a verdict on stdout) with the spinner hidden, so that their lines do not mix.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
