//! A command's time budget. No command runs unbounded unless asked to: without `--timeout` a command
//! gets `DEFAULT_BUDGET`, a hard stop only (the solvers' shares of the time are then what they are
//! when no limit is set, so the default changes no answer that comes within it); `--timeout MS` is
//! the user's budget, shared out between the stages of a question; `--timeout none` (or `0`) lifts
//! every limit. A memory limit (`--max-memory`) stops the searches the same way once the process's
//! resident size passes it.

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

    /// What a stop under this budget means, for the answer's reason.
    pub fn describe_timeout(self, ctx: &Context) -> String {
        if ctx.stopped_for_memory() {
            return "memory limit reached (--max-memory)".into();
        }
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

/// How often the memory watchdog reads the process's resident size.
const MEMORY_POLL: Duration = Duration::from_millis(50);

/// A memory limit: `--max-memory MB`, `none`, or by default three quarters of physical memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    Megabytes(u64),
    Default,
    Unlimited,
}

impl MemoryLimit {
    /// Reads a `--max-memory` value: megabytes, or `none` / `0` for no limit.
    pub fn parse(text: &str) -> Result<MemoryLimit, String> {
        match text.trim() {
            "none" | "0" => Ok(MemoryLimit::Unlimited),
            t => t.parse::<u64>().map(MemoryLimit::Megabytes).map_err(|_| {
                format!("`{text}` is no memory limit: give megabytes, or `none` for no limit")
            }),
        }
    }

    /// The limit in bytes, if there is one (none when physical memory cannot be read).
    pub fn bytes(self) -> Option<u64> {
        match self {
            MemoryLimit::Megabytes(mb) => Some(mb << 20),
            MemoryLimit::Default => physical_memory().map(|total| total / 4 * 3),
            MemoryLimit::Unlimited => None,
        }
    }

    /// Watches the process's resident size from a thread of its own: once past the limit, every search
    /// of `ctx` stops (`Context::stop_for_memory`), and the answer is an UNKNOWN naming the limit rather
    /// than the machine running out of memory.
    pub fn watch(self, ctx: &'static Context) {
        let Some(limit) = self.bytes() else {
            return;
        };
        if resident_bytes().is_none() {
            return;
        }
        let _ = std::thread::Builder::new()
            .name("memory-watchdog".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(MEMORY_POLL);
                    if resident_bytes().is_some_and(|rss| rss > limit) {
                        ctx.stop_for_memory();
                        return;
                    }
                }
            });
    }
}

/// The process's resident set size (Linux: /proc/self/statm), if it can be read.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Physical memory (Linux: MemTotal of /proc/meminfo), if it can be read.
fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
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
        assert_eq!(MemoryLimit::parse("512"), Ok(MemoryLimit::Megabytes(512)));
        assert_eq!(MemoryLimit::parse("none"), Ok(MemoryLimit::Unlimited));
        assert!(MemoryLimit::parse("lots").is_err());
        assert_eq!(MemoryLimit::Megabytes(2).bytes(), Some(2 << 20));
    }

    /// A process past its memory limit stops every search with an error that names memory.
    #[test]
    fn passing_the_memory_limit_stops_the_searches() {
        let model: &'static crate::check::Model = Box::leak(Box::new(
            crate::check::Model::from_text("Empty", "MACHINE Empty END"),
        ));
        let ctx = &model.context;
        assert!(resident_bytes().is_some_and(|rss| rss > 1 << 20));
        MemoryLimit::Megabytes(1).watch(ctx);
        let until = Instant::now() + Duration::from_secs(5);
        while !ctx.stopped_for_memory() && Instant::now() < until {
            std::thread::sleep(MEMORY_POLL);
        }
        let err = ctx
            .check_deadline(crate::diag::Span::default())
            .expect_err("stopped");
        assert!(
            err.is_timeout() && err.to_string().contains("memory limit"),
            "{err}"
        );
        assert_eq!(
            Budget::Default.describe_timeout(ctx),
            "memory limit reached (--max-memory)"
        );
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
