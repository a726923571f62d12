//! Where the interpreter must *choose* — constants, ANY, `:(P)`, operation parameters — it asks the
//! solver layer (`solve::`) with the backend of the settings, and continues with each solution bound.

use super::{Context, Env, EvalError};
use crate::ir::{Pred, TypedName};
use crate::solve::{self, Backend, Problem};

/// Called for each solution with the variables bound in the environment; returns whether to go on.
pub(crate) type OnChoice<'a> = dyn FnMut(&Context, &mut Env) -> Result<bool, EvalError> + 'a;

impl Context {
    /// Streams the solutions of `pred` for `vars` (given `env`) to `on_choice`; returns whether the search
    /// was exhaustive. `symmetry` asks for one solution per permutation class of the deferred sets.
    pub(crate) fn solve_for(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &mut Env,
        symmetry: bool,
        on_choice: &mut OnChoice<'_>,
    ) -> Result<bool, EvalError> {
        // Constant setups are answers users read (relative to default set sizes); other choices happen
        // inside an instantiation of the sets the model checker has already fixed.
        let sizes_matter = symmetry;
        if self.settings().backend == Backend::Brute {
            let complete = self.search(vars, pred, env, on_choice)?;
            return Ok(complete && !(sizes_matter && self.depends_on_default_sizes(vars, pred)));
        }
        let outer = env.clone();
        let mut problem = Problem::new(vars, pred, &outer);
        problem.symmetry = symmetry;
        problem.sizes_matter = sizes_matter;
        let mut failure = None;
        let (complete, _) =
            solve::stream(self, &problem, self.settings().backend, &mut |values| {
                let mark = env.len();
                env.reserve(values.len());
                for (v, x) in vars.iter().zip(values) {
                    env.bind(v.name.clone(), x.clone());
                }
                let go_on = on_choice(self, env);
                env.truncate(mark);
                match go_on {
                    Ok(b) => b,
                    Err(e) => {
                        failure = Some(e);
                        false
                    }
                }
            })?;
        match failure {
            Some(e) => Err(e),
            None => Ok(complete),
        }
    }
}
