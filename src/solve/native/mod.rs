//! The propagating finite-domain solver (under construction: delegates to enumeration for now).

use super::{Problem, Stats};
use crate::eval::{Context, EvalError};
use crate::value::Value;

pub(crate) fn solve(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut dyn FnMut(&[Value]) -> Result<bool, EvalError>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    super::brute(ctx, problem, on_solution, stats)
}
