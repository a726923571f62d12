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
