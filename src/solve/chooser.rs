//! The solver layer's answer to the interpreter's questions (`eval::Chooser`): a choice is asked of the
//! backend of the settings, a domain the enumeration cannot bound of the propagating solver, a witness
//! over unbounded integers of the SMT solver.

use super::{Backend, Problem, stream};
use crate::eval::{Chooser, Chosen, Context, EvalError, Purpose, Question};
use crate::value::Value;
use std::sync::Arc;

/// The chooser a `Context` is built with.
pub struct Solver;

impl Solver {
    pub fn shared() -> Arc<dyn Chooser> {
        Arc::new(Solver)
    }
}

impl Chooser for Solver {
    fn stream(
        &self,
        ctx: &Context,
        question: &Question<'_>,
        on_solution: &mut dyn FnMut(&[Value]) -> bool,
    ) -> Result<Chosen, EvalError> {
        let mut problem = Problem::new(question.vars, question.pred, question.env);
        problem.wanted = question.wanted;
        let backend = match question.purpose {
            Purpose::Choice {
                symmetry,
                sizes_matter,
            } => {
                problem.symmetry = symmetry;
                problem.sizes_matter = sizes_matter;
                ctx.settings().backend
            }
            Purpose::Domain => {
                problem.sizes_matter = false;
                Backend::Native
            }
            Purpose::Witness => {
                problem.sizes_matter = false;
                Backend::Smt
            }
        };
        let (complete, stats) = stream(ctx, &problem, backend, on_solution)?;
        Ok(Chosen {
            complete,
            symmetry_reduced: stats.symmetry_reduced,
        })
    }
}
