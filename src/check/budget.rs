//! A command's time budget. No command runs unbounded unless asked to: without `--timeout` a command
//! gets `DEFAULT_BUDGET`, a hard stop only (the solvers' shares of the time are then what they are
//! when no limit is set, so the default changes no answer that comes within it); `--timeout MS` is
//! the user's budget, shared out between the stages of a question; `--timeout none` (or `0`) lifts
//! every limit.

use crate::eval::Context;
use std::time::{Duration, Instant};

/// The budget of a command run without `--timeout`.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(300);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `--timeout MS`.
    Chosen(Duration),
    /// No `--timeout`: `DEFAULT_BUDGET`.
    Default,
    /// `--timeout none` or `--timeout 0`.
    Unlimited,
}

impl Budget {
    /// Reads a `--timeout` value: milliseconds, or `none` / `0` for no limit.
    pub fn parse(text: &str) -> Result<Budget, String> {
        match text.trim() {
            "none" | "0" => Ok(Budget::Unlimited),
            t => t
                .parse::<u64>()
                .map(|ms| Budget::Chosen(Duration::from_millis(ms)))
                .map_err(|_| {
                    format!("`{text}` is no time budget: give milliseconds, or `none` for no limit")
                }),
        }
    }

    /// How long the command may run, if it is bounded.
    pub fn duration(self) -> Option<Duration> {
        match self {
            Budget::Chosen(d) => Some(d),
            Budget::Default => Some(DEFAULT_BUDGET),
            Budget::Unlimited => None,
        }
    }

    /// The user's own budget, from which shares of the time are computed.
    pub fn chosen(self) -> Option<Duration> {
        match self {
            Budget::Chosen(d) => Some(d),
            _ => None,
        }
    }

    /// Starts the budget at `start` on `ctx`: the user's budget as the context's deadline, the
    /// default one as its hard stop (`Context::set_limit`).
    pub fn start(self, ctx: &Context, start: Instant) {
        ctx.set_deadline(self.chosen().map(|d| start + d));
        ctx.set_limit(match self {
            Budget::Default => Some(start + DEFAULT_BUDGET),
            _ => None,
        });
    }

    /// Clears what `start` set.
    pub fn stop(ctx: &Context) {
        ctx.set_deadline(None);
        ctx.set_limit(None);
    }

    /// What a timeout under this budget means, for the answer's reason.
    pub fn describe_timeout(self) -> String {
        match self {
            Budget::Chosen(d) => format!("timeout after {} ms", d.as_millis()),
            Budget::Default => format!(
                "the default time budget of {} s is spent (--timeout MS sets another, --timeout none \
                 lifts it)",
                DEFAULT_BUDGET.as_secs()
            ),
            Budget::Unlimited => "timeout".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_read_from_the_command_line() {
        assert_eq!(
            Budget::parse("2500"),
            Ok(Budget::Chosen(Duration::from_millis(2500)))
        );
        assert_eq!(Budget::parse("none"), Ok(Budget::Unlimited));
        assert_eq!(Budget::parse("0"), Ok(Budget::Unlimited));
        for bad in ["-5", "abc", "", "1.5"] {
            assert!(Budget::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Budget::Default.duration(), Some(DEFAULT_BUDGET));
        assert_eq!(Budget::Default.chosen(), None);
        assert_eq!(Budget::Unlimited.duration(), None);
    }

    /// The default budget stops every search (`check_deadline`, and SAT through `hard_deadline`) but
    /// leaves `deadline()`, from which the portfolio computes its shares, as if no limit were set.
    #[test]
    fn the_default_budget_is_a_hard_stop_only() {
        let model = crate::check::Model::from_text("Empty", "MACHINE Empty END");
        let ctx = &model.context;
        let span = crate::diag::Span::default();
        let now = Instant::now();
        Budget::Default.start(ctx, now);
        assert_eq!(ctx.deadline(), None);
        assert_eq!(ctx.hard_deadline(), Some(now + DEFAULT_BUDGET));
        assert!(ctx.check_deadline(span).is_ok());
        ctx.set_limit(Some(now));
        assert!(ctx.check_deadline(span).is_err_and(|e| e.is_timeout()));
        Budget::Chosen(Duration::from_secs(1)).start(ctx, now);
        assert_eq!(ctx.deadline(), Some(now + Duration::from_secs(1)));
        assert_eq!(ctx.hard_deadline(), ctx.deadline());
        Budget::Unlimited.start(ctx, now);
        assert_eq!(ctx.hard_deadline(), None);
        assert!(ctx.check_deadline(span).is_ok());
    }
}
