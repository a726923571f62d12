//! The `bsolve` command line: parses arguments and hands over to `check::` and `report::`.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let code = cli::run(cli::normalise_args(std::env::args().collect()));
    ExitCode::from(code as u8)
}
