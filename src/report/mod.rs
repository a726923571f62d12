//! Output: human text, --json, exit codes.
