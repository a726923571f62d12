//! The backend for a run of similar questions under `--backend auto`: bmc's one question per operation
//! sequence, thousands of them, each decided by native within the portfolio's probe (so its lane never
//! starts) though SAT may answer each in a fraction of native's time (BoundedFifo: a third). A single
//! question cannot tell; the run can. A few questions are sampled — asked of the portfolio and of SAT
//! alone, both timed — and when SAT alone was at least twice as fast over the samples, the next
//! questions go to SAT first, and to the portfolio only when SAT does not decide. Samples keep coming
//! (one question in `RESAMPLE`), so a run whose questions change character changes its route.
//!
//! Both routes are sound: every solution is re-checked by the interpreter, and SAT's Unsat is complete
//! only over an exact translation; the route changes times, never answers.

use crate::eval::Context;
use crate::solve::Backend;
use std::time::{Duration, Instant};

/// Questions sampled before the route may change.
const FIRST_SAMPLES: u32 = 4;
/// After the first samples, one question in this many is sampled.
const RESAMPLE: u64 = 32;

#[derive(Default)]
pub(crate) struct LearnedRoute {
    portfolio: Duration,
    sat: Duration,
    samples: u32,
    asked: u64,
}

impl LearnedRoute {
    /// Asks one question (`ask` with a backend) and returns its answer, `decided` telling whether an
    /// answer settles the question. Only `auto` learns: a backend the user named is always asked.
    pub(crate) fn ask<T>(
        &mut self,
        ctx: &Context,
        mut ask: impl FnMut(Backend) -> T,
        decided: impl Fn(&T) -> bool,
    ) -> T {
        let backend = ctx.settings().backend;
        if backend != Backend::Auto {
            return ask(backend);
        }
        self.asked += 1;
        if self.samples < FIRST_SAMPLES || self.asked.is_multiple_of(RESAMPLE) {
            return self.sample(&mut ask, &decided);
        }
        if self.sat_first() {
            let answer = ask(Backend::Kodkod);
            if decided(&answer) {
                return answer;
            }
        }
        ask(Backend::Auto)
    }

    /// Whether SAT alone was at least twice as fast as the portfolio over the samples.
    fn sat_first(&self) -> bool {
        self.samples >= FIRST_SAMPLES && self.sat * 2 <= self.portfolio
    }

    /// Asks the question of both routes, timing each (in alternating order, so that neither always
    /// meets the other's warm caches); the portfolio's answer unless only SAT's decides.
    fn sample<T>(
        &mut self,
        ask: &mut impl FnMut(Backend) -> T,
        decided: &impl Fn(&T) -> bool,
    ) -> T {
        let mut timed = |backend| {
            let start = Instant::now();
            let answer = ask(backend);
            (answer, start.elapsed())
        };
        let (portfolio, sat) = if self.samples.is_multiple_of(2) {
            let p = timed(Backend::Auto);
            (p, timed(Backend::Kodkod))
        } else {
            let s = timed(Backend::Kodkod);
            (timed(Backend::Auto), s)
        };
        self.samples += 1;
        self.portfolio += portfolio.1;
        // An undecided SAT answer counts as the portfolio's time at least: it would be asked after.
        self.sat += if decided(&sat.0) {
            sat.1
        } else {
            sat.1 + portfolio.1
        };
        if decided(&portfolio.0) || !decided(&sat.0) {
            portfolio.0
        } else {
            sat.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(sat_ms: u64, portfolio_ms: u64) -> LearnedRoute {
        LearnedRoute {
            portfolio: Duration::from_millis(portfolio_ms),
            sat: Duration::from_millis(sat_ms),
            samples: FIRST_SAMPLES,
            asked: 1,
        }
    }

    #[test]
    fn sat_goes_first_only_when_twice_as_fast_over_the_samples() {
        assert!(route(10, 20).sat_first());
        assert!(!route(11, 20).sat_first());
        let mut early = route(1, 20);
        early.samples = FIRST_SAMPLES - 1;
        assert!(!early.sat_first());
    }

    #[test]
    fn an_undecided_sat_answer_falls_back_to_the_portfolio() {
        let ctx = crate::solve::smt::test_formula("x : 1..2").0;
        let mut r = route(1, 20);
        r.asked = 2;
        let mut asked = Vec::new();
        let answer = r.ask(
            &ctx,
            |b| {
                asked.push(b);
                b == Backend::Auto
            },
            |decided| *decided,
        );
        assert!(answer);
        assert_eq!(asked, vec![Backend::Kodkod, Backend::Auto]);
    }
}
