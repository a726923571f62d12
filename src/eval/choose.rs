//! Where the interpreter must *choose* — constants, ANY, `:(P)`, operation parameters — it asks its
//! `Chooser` (the backend of the settings), and continues with each solution bound.

use super::chooser::{Backend, Purpose, Question, Symmetry};
use super::{Context, Env, EvalError};
use crate::ir::{Pred, TypedName};

/// Called for each solution with the variables bound in the environment; returns whether to go on.
pub(crate) type OnChoice<'a> = dyn FnMut(&Context, &mut Env) -> Result<bool, EvalError> + 'a;

/// How a search for constant setups ended.
pub(crate) struct SetupSearch {
    /// No further setup exists (ignoring a stop requested by the callback).
    pub complete: bool,
    /// The setups reported are representatives of classes of permutations of the deferred sets'
    /// elements (`Symmetry::ProbSetups`), not all of them.
    pub symmetry_reduced: bool,
}

impl Context {
    /// Streams the solutions of `pred` for `vars` (given `env`) to `on_choice`; returns whether the search
    /// was exhaustive. A choice inside an instantiation of the deferred sets the caller has already
    /// fixed (an ANY, an operation's parameters): every solution, and a verdict relative to that
    /// instantiation.
    pub(crate) fn solve_for(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &mut Env,
        on_choice: &mut OnChoice<'_>,
    ) -> Result<bool, EvalError> {
        let purpose = Purpose::Choice {
            symmetry: Symmetry::None,
            sizes_matter: false,
        };
        Ok(self
            .choose_with(vars, pred, purpose, usize::MAX, env, on_choice)?
            .complete)
    }

    /// `solve_for` for constant setups: answers users read, so relative to deferred sets of default size
    /// they are incomplete; `symmetry` says how setups symmetric under permutations of the deferred
    /// sets' elements are treated. `wanted`: the most solutions `on_choice` reads (`Question::wanted`).
    pub(crate) fn solve_setups_for(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        env: &mut Env,
        symmetry: Symmetry,
        wanted: usize,
        on_choice: &mut OnChoice<'_>,
    ) -> Result<SetupSearch, EvalError> {
        let purpose = Purpose::Choice {
            symmetry,
            sizes_matter: true,
        };
        self.choose_with(vars, pred, purpose, wanted, env, on_choice)
    }

    fn choose_with(
        &self,
        vars: &[TypedName],
        pred: &Pred,
        purpose: Purpose,
        wanted: usize,
        env: &mut Env,
        on_choice: &mut OnChoice<'_>,
    ) -> Result<SetupSearch, EvalError> {
        if self.settings().backend == Backend::Brute {
            let sizes_matter = matches!(
                purpose,
                Purpose::Choice {
                    sizes_matter: true,
                    ..
                }
            );
            let complete = self.search(vars, pred, env, on_choice)?;
            return Ok(SetupSearch {
                complete: complete && !(sizes_matter && self.depends_on_default_sizes(vars, pred)),
                symmetry_reduced: false,
            });
        }
        let outer = env.clone();
        let question = Question {
            vars,
            pred,
            env: &outer,
            purpose,
            wanted,
        };
        let mut failure = None;
        let chosen = self.chooser().stream(self, &question, &mut |values| {
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
            None => Ok(SetupSearch {
                complete: chosen.complete,
                symmetry_reduced: chosen.symmetry_reduced,
            }),
        }
    }
}
