//! The transition system of a machine for the model checker: constant setups, initial states, successors.

use super::{Context, Enumeration, Env, EvalError, internal_error};
use crate::diag::Span;
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, Subst, SubstKind, TypedName};
use crate::value::Value;

/// A state: the values of the machine's variables, in `machine.variables` order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub values: Vec<Value>,
}

/// One enabled operation instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// Index into `machine.operations`.
    pub operation: usize,
    /// Parameter values, in `operation.params` order.
    pub params: Vec<Value>,
    /// Output values, in `operation.outputs` order.
    pub outputs: Vec<Value>,
    /// With the preference SHOW_EVENTB_ANY_VALUES: the values of the operation's top-level ANY (and
    /// LET) identifiers, which ProB then shows and counts as the event's parameters; empty otherwise.
    pub any_values: Vec<Value>,
    pub target: State,
}

/// The transitions leaving a state (`Context::successors_tolerant`).
#[derive(Debug)]
pub struct Successors {
    pub transitions: Vec<Transition>,
    /// Every enabling was found: no parameter domain was enumerated partly, no limit dropped one.
    pub complete: bool,
    /// Operation instances (operation index, error) whose guard or body is ill-defined.
    pub ill_defined: Vec<(usize, crate::diag::Diagnostic)>,
}

/// What an operation's enablings are searched over: its parameters (and guard LET identifiers), the
/// guard that bounds them, and its `MAX_OPERATIONS_<op>` limit.
pub(crate) struct OperationPlan {
    searched: Vec<TypedName>,
    guard: Pred,
    limit: Option<usize>,
    /// The substitution executed once `searched` is bound: the operation's body, or under
    /// SHOW_EVENTB_ANY_VALUES the body of its top-level ANY, whose identifiers are then searched (and
    /// reported) with the parameters.
    body: Option<Subst>,
}

/// The predicate that types an operation's parameters: its top-level PRE, or its single SELECT/WHEN guard,
/// possibly under LETs, whose identifiers are then searched together with the parameters (returned first),
/// so that a guard such as `LET y BE y = v+1 IN SELECT p : {y, y+1} THEN .. END END` bounds `p`.
fn parameter_guard(kind: &SubstKind) -> Option<(Vec<TypedName>, Pred)> {
    match kind {
        SubstKind::Pre(p, _) => Some((Vec::new(), p.clone())),
        SubstKind::Select(branches, None) if branches.len() == 1 => {
            Some((Vec::new(), branches[0].0.clone()))
        }
        SubstKind::Let(bindings, body) => {
            let (inner_vars, inner) = parameter_guard(&body.kind)?;
            let mut vars: Vec<TypedName> = bindings.iter().map(|(n, _)| n.clone()).collect();
            let mut parts: Vec<Pred> = bindings
                .iter()
                .map(|(n, e)| {
                    let var = Expr::new(ExprKind::Var(n.name.clone()), n.ty.clone(), n.span);
                    Pred::new(
                        PredKind::Compare(CompareOp::Eq, Box::new(var), Box::new(e.clone())),
                        e.span,
                    )
                })
                .collect();
            vars.extend(inner_vars);
            let span = inner.span;
            parts.push(inner);
            Some((vars, Pred::new(PredKind::And(parts), span)))
        }
        _ => None,
    }
}

impl Context {
    /// Constant setups: solutions of CONSTRAINTS & PROPERTIES for the machine parameters followed by the
    /// constants (brute-force enumeration), at most `limit`.
    pub fn setup_constants(&self, limit: usize) -> Result<Enumeration, EvalError> {
        let m = self.machine();
        let vars: Vec<_> = m.params.iter().chain(&m.constants).cloned().collect();
        let pred = Pred::new(
            PredKind::And(vec![m.constraints.clone(), m.properties.clone()]),
            m.properties.span,
        );
        let mut solutions = Vec::new();
        let mut cut = false;
        let complete = self.solve_for(&vars, &pred, &mut Env::new(), true, &mut |ctx, env| {
            if solutions.len() >= limit {
                cut = true;
                return Ok(false);
            }
            solutions.push(ctx.bound_values(&vars, env, pred.span)?);
            Ok(true)
        })?;
        Ok(Enumeration {
            solutions,
            complete: complete && !cut,
        })
    }

    /// The environment binding the parameters and constants to `constants` (as returned by
    /// `setup_constants`: parameters first, then constants).
    pub fn constants_env(&self, constants: &[Value]) -> Result<Env, EvalError> {
        let m = self.machine();
        let names: Vec<_> = m.params.iter().chain(&m.constants).collect();
        if names.len() != constants.len() {
            return Err(internal_error(
                m.span,
                format!(
                    "expected {} parameter and constant values, got {}",
                    names.len(),
                    constants.len()
                ),
            ));
        }
        let mut env = Env::new();
        for (n, v) in names.into_iter().zip(constants) {
            env.bind(n.name.clone(), v.clone());
        }
        Ok(env)
    }

    /// Initial states from the INITIALISATION given the constant setup, at most `limit`.
    pub fn initial_states(
        &self,
        constants: &[Value],
        limit: usize,
    ) -> Result<Vec<State>, EvalError> {
        let m = self.machine();
        let env = self.constants_env(constants)?;
        let outcomes = self.execute(&m.initialisation, &env)?;
        let mut states = Vec::new();
        for updates in outcomes {
            let mut values = Vec::with_capacity(m.variables.len());
            for v in &m.variables {
                match updates.iter().find(|(n, _)| *n == v.name) {
                    Some((_, val)) => values.push(val.clone()),
                    None => {
                        return Err(internal_error(
                            m.initialisation.span,
                            format!("INITIALISATION does not assign {}", v.name),
                        ));
                    }
                }
            }
            let state = State { values };
            if !states.contains(&state) {
                states.push(state);
                if states.len() >= limit {
                    break;
                }
            }
        }
        Ok(states)
    }

    /// The environment of a state: constants, then the variables.
    pub fn state_env(&self, constants: &[Value], state: &State) -> Result<Env, EvalError> {
        let mut env = self.constants_env(constants)?;
        for (v, val) in self.machine().variables.iter().zip(&state.values) {
            env.bind(v.name.clone(), val.clone());
        }
        Ok(env.freeze())
    }

    /// Enabled operations from `state`, with parameters enumerated; at most `max_per_op` transitions per
    /// operation (and at most its `MAX_OPERATIONS_<op>` setting).
    pub fn successors(
        &self,
        constants: &[Value],
        state: &State,
        max_per_op: usize,
    ) -> Result<Vec<Transition>, EvalError> {
        Ok(self
            .successors_with_completeness(constants, state, max_per_op)?
            .0)
    }

    /// `successors`, and whether they are all of them: false when some operation's parameters were
    /// enumerated only within MININT..MAXINT, or a per-operation limit dropped transitions. The first
    /// ill-defined operation instance is an error.
    pub fn successors_with_completeness(
        &self,
        constants: &[Value],
        state: &State,
        max_per_op: usize,
    ) -> Result<(Vec<Transition>, bool), EvalError> {
        let found = self.successors_tolerant(constants, state, max_per_op)?;
        match found.ill_defined.into_iter().next() {
            Some((_, d)) => Err(EvalError::WellDefinedness(d)),
            None => Ok((found.transitions, found.complete)),
        }
    }

    /// The successors of `state` as ProB's model checker sees them: an operation instance whose guard or
    /// body is ill-defined (`f(x)` outside `dom(f)`, a division by zero) yields no transition and is
    /// reported in `ill_defined`; the other instances and operations are still explored. When an
    /// operation's guard is ill-defined its remaining parameter values are not searched, so the
    /// successors are then incomplete.
    pub fn successors_tolerant(
        &self,
        constants: &[Value],
        state: &State,
        max_per_op: usize,
    ) -> Result<Successors, EvalError> {
        let m = self.machine();
        let mut env = self.state_env(constants, state)?;
        let mut out = Successors {
            transitions: Vec::new(),
            complete: true,
            ill_defined: Vec::new(),
        };
        let show_any_values = self.settings().show_any_values();
        for (k, plan) in self.operation_plans().iter().enumerate() {
            let op = &m.operations[k];
            let locals = &plan.searched[op.params.len()..];
            let cap = plan.limit.map_or(max_per_op, |l| l.min(max_per_op));
            let mut found: Vec<Transition> = Vec::new();
            let mut cut = false;
            let searched = self.solve_for(
                &plan.searched,
                &plan.guard,
                &mut env,
                false,
                &mut |ctx, env| {
                    let params = ctx.bound_values(&op.params, env, op.span)?;
                    let executions = match ctx.execute(plan.body.as_ref().unwrap_or(&op.body), env)
                    {
                        Ok(executions) => executions,
                        Err(EvalError::WellDefinedness(d)) => {
                            out.ill_defined.push((k, d));
                            return Ok(true);
                        }
                        Err(e) => return Err(e),
                    };
                    let any_values = if show_any_values {
                        ctx.bound_values(locals, env, op.span)?
                    } else {
                        Vec::new()
                    };
                    for updates in executions {
                        let mut t = ctx.transition(k, params.clone(), state, &updates, op.span)?;
                        t.any_values.clone_from(&any_values);
                        if !found.contains(&t) {
                            if found.len() >= cap {
                                cut = true;
                                return Ok(false);
                            }
                            found.push(t);
                        }
                    }
                    Ok(true)
                },
            );
            let complete = match searched {
                Ok(complete) => complete,
                Err(EvalError::WellDefinedness(d)) => {
                    out.ill_defined.push((k, d));
                    false
                }
                Err(e) => return Err(e),
            };
            out.complete &= complete && !cut;
            out.transitions.extend(found);
        }
        Ok(out)
    }

    /// The operations' search plans, computed on first use: the successor function asks for them in
    /// every state, and deriving a guard clones its predicate.
    fn operation_plans(&self) -> &[OperationPlan] {
        self.operation_plans.get_or_init(|| {
            self.machine()
                .operations
                .iter()
                .map(|op| {
                    if let SubstKind::Any(vars, pred, inner) = &op.body.kind
                        && self.settings().show_any_values()
                        && vars
                            .iter()
                            .all(|v| op.params.iter().all(|p| p.name != v.name))
                    {
                        return OperationPlan {
                            searched: op.params.iter().chain(vars).cloned().collect(),
                            guard: pred.clone(),
                            limit: self.operation_limit(&op.name),
                            body: Some((**inner).clone()),
                        };
                    }
                    let (locals, guard) = parameter_guard(&op.body.kind)
                        .filter(|(locals, _)| {
                            // A LET identifier hiding a parameter would make the search bind it twice.
                            locals
                                .iter()
                                .all(|l| op.params.iter().all(|p| p.name != l.name))
                        })
                        .unwrap_or_else(|| (Vec::new(), Pred::truth(op.span)));
                    OperationPlan {
                        searched: op.params.iter().chain(&locals).cloned().collect(),
                        guard,
                        limit: self.operation_limit(&op.name),
                        body: None,
                    }
                })
                .collect()
        })
    }

    /// The machine's `MAX_OPERATIONS_<op>` limit for operation `name`, if any.
    fn operation_limit(&self, name: &str) -> Option<usize> {
        self.settings()
            .operation_limits
            .iter()
            .find(|(n, _)| **n == *name)
            .map(|(_, l)| *l)
    }

    fn transition(
        &self,
        operation: usize,
        params: Vec<Value>,
        state: &State,
        updates: &[(crate::syntax::ast::Name, Value)],
        span: Span,
    ) -> Result<Transition, EvalError> {
        let m = self.machine();
        let op = &m.operations[operation];
        let lookup = |name: &str| {
            updates
                .iter()
                .find(|(n, _)| &**n == name)
                .map(|(_, v)| v.clone())
        };
        let mut outputs = Vec::with_capacity(op.outputs.len());
        for o in &op.outputs {
            outputs.push(lookup(&o.name).ok_or_else(|| {
                super::wd_error(
                    span,
                    format!(
                        "operation {} does not assign its output {}",
                        op.name, o.name
                    ),
                )
            })?);
        }
        let values = m
            .variables
            .iter()
            .zip(&state.values)
            .map(|(v, old)| lookup(&v.name).unwrap_or_else(|| old.clone()))
            .collect();
        Ok(Transition {
            operation,
            params,
            outputs,
            any_values: Vec::new(),
            target: State { values },
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::check::{Model, Options};
    use crate::value::Value;

    /// The parameters of the transitions from the (single) initial state of a machine without constants.
    fn successor_params(name: &str, text: &str) -> Vec<Vec<Value>> {
        let path =
            std::env::temp_dir().join(format!("bsolve-tr-{}-{name}.mch", std::process::id()));
        std::fs::write(&path, text).expect("write temp machine");
        let model = Model::load(&path, &Options::default()).expect("loads");
        let ctx = &model.context;
        let init = ctx.initial_states(&[], 10).expect("initialises");
        let succ = ctx.successors(&[], &init[0], 100).expect("successors");
        succ.into_iter().map(|t| t.params).collect()
    }

    #[test]
    fn let_bound_guards_bound_the_parameters() {
        // p can only be 8 or 9, beyond MAXINT: the LET and the SELECT under it give its domain.
        let params = successor_params(
            "let",
            "MACHINE L\nVARIABLES v\nINVARIANT v : INTEGER\nINITIALISATION v := 7\nOPERATIONS\n\
             op(p) = LET w BE w = v+1 IN SELECT p : {w, w+1} & p < 10 THEN v := p END END\nEND",
        );
        assert_eq!(params, vec![vec![Value::int(8)], vec![Value::int(9)]]);
    }

    #[test]
    fn any_values_distinguish_transitions_when_shown() {
        // A self-loop whose ANY takes three values: one transition, or three under
        // SHOW_EVENTB_ANY_VALUES, each reporting its value (ProB's ETH elevator models count so).
        let machine = |prefs: &str| {
            format!(
                "MACHINE A\nDEFINITIONS {prefs}\nVARIABLES x\nINVARIANT x : 0..3\n\
                 INITIALISATION x := 0\nOPERATIONS\nloop = ANY f WHERE f : 0..2 THEN x := x END\nEND"
            )
        };
        let successors = |name: &str, text: &str| {
            let path =
                std::env::temp_dir().join(format!("bsolve-tr-{}-{name}.mch", std::process::id()));
            std::fs::write(&path, text).expect("write temp machine");
            let model = Model::load(&path, &Options::default()).expect("loads");
            let ctx = &model.context;
            let init = ctx.initial_states(&[], 10).expect("initialises");
            ctx.successors(&[], &init[0], 100).expect("successors")
        };
        let hidden = successors("any-hidden", &machine("SET_PREF_MAXINT == 3"));
        assert_eq!(hidden.len(), 1);
        assert!(hidden[0].any_values.is_empty());
        let shown = successors(
            "any-shown",
            &machine("SET_PREF_SHOW_EVENTB_ANY_VALUES == TRUE"),
        );
        let values: Vec<_> = shown.iter().map(|t| t.any_values.clone()).collect();
        assert_eq!(
            values,
            vec![
                vec![Value::int(0)],
                vec![Value::int(1)],
                vec![Value::int(2)]
            ]
        );
    }
}
