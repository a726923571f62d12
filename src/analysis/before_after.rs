//! Before-after predicates of operations and of the INITIALISATION, enabling predicates, and read/write
//! sets: the transition relation of a machine as IR predicates, for the symbolic checks (CBC, BMC,
//! k-induction).
//!
//! A machine state is used in several *copies*: copy `k` names variable `x` as `x@k` and the parameters
//! (and outputs) of an operation taken from copy `k` as `p@k`. `@` cannot occur in a B identifier, so
//! these names never clash with the user's. Intermediate values (a variable assigned twice in a sequential
//! composition, a `VAR` local) get fresh names `x@t<n>`, existentially quantified where they arise.
//!
//! The translation follows the interpreter (`eval::subst`) construct by construct: PRE is a guard (as
//! ProB's model checker reads it), an IF without ELSE and a CASE without ELSE do nothing when no branch is
//! taken, a SELECT without ELSE blocks. `BA(S)(in, out)` relates the names holding the current values
//! (`in`) to the names receiving the values of the variables S writes (`out`); variables S does not write
//! keep their value (frame conditions added where branches differ and at the operation level).

use crate::diag::{Diagnostic, Span};
use crate::ir::{
    AssignTarget, BinaryOp, CompareOp, Expr, ExprKind, Machine, Operation, Pred, PredKind, Subst,
    SubstKind, TypedName, free_names,
};
use crate::syntax::ast::Name;
use crate::types::Type;
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The name of variable (or parameter) `x` in state copy `k`.
pub fn copy_name(x: &str, k: usize) -> Name {
    format!("{x}@{k}").into()
}

/// The machine's variables renamed to copy `k`, with their types.
pub fn state_copy(m: &Machine, k: usize) -> Vec<TypedName> {
    m.variables
        .iter()
        .map(|v| TypedName {
            name: copy_name(&v.name, k),
            ..v.clone()
        })
        .collect()
}

/// `p` with the machine's variables renamed to copy `k` (e.g. the INVARIANT in state k).
pub fn pred_in_copy(m: &Machine, p: &Pred, k: usize) -> Pred {
    let map: Renaming = m
        .variables
        .iter()
        .map(|v| (v.name.clone(), copy_name(&v.name, k)))
        .collect();
    rename_pred(p, &map)
}

/// One operation as a relation between copy `from` and copy `to` of the state.
#[derive(Clone, Debug)]
pub struct TransitionPred {
    /// BA(op)(x@from, p@from, o@to, x@to), frame conditions included.
    pub pred: Pred,
    /// The parameters, renamed `p@from`.
    pub params: Vec<TypedName>,
    /// The outputs, renamed `o@to`.
    pub outputs: Vec<TypedName>,
}

impl TransitionPred {
    /// The relation without the outputs' defining equations (`o@to = E` in a conjunction, under
    /// disjunctions and existentials) where nothing else mentions the output, and without those
    /// outputs. Questions about the state alone (invariant violations, deadlocks, reachable states)
    /// need no outputs; dropping a conjunct in a positive position only adds steps (those whose output
    /// expression is ill-defined or hard to bound: TwoPurses' `rr := {cc,nn | ...}`), so an Unsat
    /// stays an Unsat, and a path found is replayed by the interpreter anyway.
    pub fn without_outputs(self) -> TransitionPred {
        let mut pred = self.pred;
        let mut outputs = Vec::new();
        for o in self.outputs {
            let dropped = drop_definition(&pred, &o.name);
            if free_names::pred_mentions(&dropped, &|n| *n == o.name) {
                outputs.push(o);
            } else {
                pred = dropped;
            }
        }
        TransitionPred {
            pred,
            params: self.params,
            outputs,
        }
    }
}

/// `p` with each conjunct `o = E` in a positive position replaced by `TRUE`.
fn drop_definition(p: &Pred, o: &Name) -> Pred {
    let kind = match &p.kind {
        PredKind::Compare(CompareOp::Eq, lhs, _) if matches!(&lhs.kind, ExprKind::Var(x) if x == o) => {
            PredKind::True
        }
        PredKind::And(ps) => PredKind::And(ps.iter().map(|q| drop_definition(q, o)).collect()),
        PredKind::Or(ps) => PredKind::Or(ps.iter().map(|q| drop_definition(q, o)).collect()),
        PredKind::Exists(xs, body) => {
            PredKind::Exists(xs.clone(), Box::new(drop_definition(body, o)))
        }
        _ => return p.clone(),
    };
    Pred::new(kind, p.span)
}

/// The before-after predicate of operation `op` from copy `from` to copy `to`.
pub fn operation(
    m: &Machine,
    op: &Operation,
    from: usize,
    to: usize,
) -> Result<TransitionPred, Diagnostic> {
    let (input, params) = inputs(m, op, from);
    let outputs = renamed(m, &op.outputs, to);
    let mut translator = Translator::new(m, &op.outputs);
    let writes = writes(&op.body);
    let mut output: Renaming = FxHashMap::default();
    for x in &writes {
        if let Some(o) = op.outputs.iter().position(|o| o.name == *x) {
            output.insert(x.clone(), outputs[o].name.clone());
        } else if m.variables.iter().any(|v| v.name == *x) {
            output.insert(x.clone(), copy_name(x, to));
        } else {
            return Err(Diagnostic::unsupported(
                op.body.span,
                format!(
                    "operation {} assigns {x}, which is neither a variable nor an output",
                    op.name
                ),
            ));
        }
    }
    let mut parts = vec![translator.ba(&op.body, &input, &output)?];
    for v in &m.variables {
        if !writes.contains(&v.name) {
            parts.push(equal(v, &copy_name(&v.name, to), &copy_name(&v.name, from)));
        }
    }
    Ok(TransitionPred {
        pred: and(parts, op.span),
        params,
        outputs,
    })
}

/// The before-after predicate of the INITIALISATION into copy `to` (the constants keep their names).
pub fn initialisation(m: &Machine, to: usize) -> Result<Pred, Diagnostic> {
    let writes = writes(&m.initialisation);
    if let Some(v) = m.variables.iter().find(|v| !writes.contains(&v.name)) {
        return Err(Diagnostic::unsupported(
            m.initialisation.span,
            format!(
                "the INITIALISATION does not assign variable {} on every path",
                v.name
            ),
        ));
    }
    // No outcome, as in the interpreter (`Context::initial_states`): the before-after predicate is false.
    if initialisation_reads_unassigned(m) {
        return Ok(Pred::new(PredKind::False, m.initialisation.span));
    }
    let output = state_renaming(m, to);
    let mut translator = Translator::new(m, &[]);
    translator.ba(&m.initialisation, &FxHashMap::default(), &output)
}

/// The enabling predicate of `op` in copy `at`: its parameters exist and its guards (PRE, SELECT, ANY
/// conditions, feasibility of `::` and `:(P)`) hold.
pub fn enabling(m: &Machine, op: &Operation, at: usize) -> Result<Pred, Diagnostic> {
    let (input, params) = inputs(m, op, at);
    let mut translator = Translator::new(m, &op.outputs);
    let guard = translator.guard(&op.body, &input)?;
    Ok(exists(params, guard, op.span))
}

/// The machine variables an operation reads (in guards, expressions, or as targets of a partial
/// update such as `f(x) := E`) and writes: one row of LTSmin's dependency matrix. `must_writes` are the
/// written variables assigned on every path that produces an outcome (Meijer, Kant, Blom & van de Pol,
/// HVC 2014): the others (`IF c THEN w := 1 END`) keep their old value on some path, so a relation must
/// read them (copy) as well.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadWrite {
    pub reads: BTreeSet<Name>,
    pub writes: BTreeSet<Name>,
    pub must_writes: BTreeSet<Name>,
}

pub fn read_write(m: &Machine, op: &Operation) -> ReadWrite {
    // A parameter named like a variable hides it in the whole body.
    let is_var = |n: &Name| {
        m.variables.iter().any(|v| v.name == *n) && !op.params.iter().any(|p| p.name == *n)
    };
    let mut reads = BTreeSet::new();
    subst_reads(&op.body, &mut reads);
    ReadWrite {
        reads: reads.into_iter().filter(is_var).collect(),
        writes: writes(&op.body).into_iter().filter(is_var).collect(),
        must_writes: must_writes(&op.body).into_iter().filter(is_var).collect(),
    }
}

/// Names `s` assigns on every way it produces an outcome: a CHOICE, an IF or a CASE writes what all of
/// its branches write (an IF or CASE without ELSE may take none: nothing), a SELECT what all of its
/// guarded branches write (without ELSE it blocks when none applies), a WHILE nothing (its body may
/// run zero times). A subset of `writes`.
pub fn must_writes(s: &Subst) -> BTreeSet<Name> {
    let common = |parts: &mut dyn Iterator<Item = &Subst>| -> BTreeSet<Name> {
        let mut out: Option<BTreeSet<Name>> = None;
        for p in parts {
            let w = must_writes(p);
            out = Some(match out {
                None => w,
                Some(o) => o.intersection(&w).cloned().collect(),
            });
        }
        out.unwrap_or_default()
    };
    match &s.kind {
        SubstKind::Skip | SubstKind::While { .. } => BTreeSet::new(),
        SubstKind::Assign(_)
        | SubstKind::BecomesElementOf(..)
        | SubstKind::BecomesSuchThat(..)
        | SubstKind::OpCall(..) => writes(s),
        SubstKind::Parallel(parts) | SubstKind::Sequence(parts) => {
            parts.iter().flat_map(must_writes).collect()
        }
        SubstKind::Choice(parts) => common(&mut parts.iter()),
        SubstKind::Any(_, _, body)
        | SubstKind::Let(_, body)
        | SubstKind::Pre(_, body)
        | SubstKind::Assert(_, body) => must_writes(body),
        SubstKind::Var(vars, body) => (must_writes(body).into_iter())
            .filter(|n| vars.iter().all(|v| v.name != *n))
            .collect(),
        // Without ELSE, no branch may be taken: the IF does nothing then.
        SubstKind::If(_, None) => BTreeSet::new(),
        SubstKind::If(branches, otherwise) | SubstKind::Select(branches, otherwise) => {
            common(&mut (branches.iter().map(|(_, b)| b)).chain(otherwise.as_deref()))
        }
        SubstKind::Case(_, _, None) => BTreeSet::new(),
        SubstKind::Case(_, branches, otherwise) => {
            common(&mut (branches.iter().map(|(_, b)| b)).chain(otherwise.as_deref()))
        }
    }
}

/// `read_write` of an operation when its sets are exact for the interpreter: the operation's transitions
/// from a state depend only on the constants and the variables read, and change only the variables
/// written. None for
/// * an operation call: the called operation's reads and writes are not in the caller's sets;
/// * a WHILE loop: its outcome also depends on the time budget and MAX_WHILE_STEPS;
/// * a parameter, output or local (ANY, LET, VAR) named like a machine variable: the sets are
///   computed by name, and a hidden variable would be confused with the local.
///
/// Operation reuse (`eval::reuse`) and partial-order reduction (`check::stubborn`) rely on it.
pub fn exact_read_write(m: &Machine, op: &Operation) -> Option<ReadWrite> {
    let is_variable = |n: &str| m.variables.iter().any(|v| *v.name == *n);
    let hides = op
        .params
        .iter()
        .chain(&op.outputs)
        .any(|p| is_variable(&p.name));
    if hides || !exact(&op.body, &is_variable) {
        return None;
    }
    Some(read_write(m, op))
}

/// Whether `s` uses only constructs whose reads and writes `read_write` gives exactly (see `exact_read_write`).
fn exact(s: &Subst, is_variable: &dyn Fn(&str) -> bool) -> bool {
    let each = |parts: &[Subst]| parts.iter().all(|p| exact(p, is_variable));
    match &s.kind {
        SubstKind::OpCall(..) | SubstKind::While { .. } => false,
        SubstKind::Skip
        | SubstKind::Assign(_)
        | SubstKind::BecomesElementOf(..)
        | SubstKind::BecomesSuchThat(..) => true,
        SubstKind::Parallel(parts) | SubstKind::Sequence(parts) | SubstKind::Choice(parts) => {
            each(parts)
        }
        SubstKind::Any(vars, _, body) | SubstKind::Var(vars, body) => {
            vars.iter().all(|v| !is_variable(&v.name)) && exact(body, is_variable)
        }
        SubstKind::Let(binds, body) => {
            binds.iter().all(|(v, _)| !is_variable(&v.name)) && exact(body, is_variable)
        }
        SubstKind::Pre(_, body) | SubstKind::Assert(_, body) => exact(body, is_variable),
        SubstKind::If(branches, otherwise) | SubstKind::Select(branches, otherwise) => {
            branches.iter().all(|(_, b)| exact(b, is_variable))
                && otherwise.as_deref().is_none_or(|b| exact(b, is_variable))
        }
        SubstKind::Case(_, branches, otherwise) => {
            branches.iter().all(|(_, b)| exact(b, is_variable))
                && otherwise.as_deref().is_none_or(|b| exact(b, is_variable))
        }
    }
}

/// Whether the before-after predicate of `s` is exact. A WHILE loop is translated with its INVARIANT
/// and VARIANT only: its BA then over-approximates the loop's outcomes (sound for proofs — no violation
/// in a superset means none in the set — while solutions must be replayed by the interpreter, as every
/// counterexample is).
pub fn is_exact(s: &Subst) -> bool {
    match &s.kind {
        SubstKind::While { .. } => false,
        SubstKind::Skip
        | SubstKind::Assign(_)
        | SubstKind::BecomesElementOf(..)
        | SubstKind::BecomesSuchThat(..)
        | SubstKind::OpCall(..) => true,
        SubstKind::Parallel(parts) | SubstKind::Sequence(parts) | SubstKind::Choice(parts) => {
            parts.iter().all(is_exact)
        }
        SubstKind::Any(_, _, body)
        | SubstKind::Let(_, body)
        | SubstKind::Var(_, body)
        | SubstKind::Pre(_, body)
        | SubstKind::Assert(_, body) => is_exact(body),
        SubstKind::If(branches, otherwise) | SubstKind::Select(branches, otherwise) => {
            branches.iter().all(|(_, b)| is_exact(b)) && otherwise.as_deref().is_none_or(is_exact)
        }
        SubstKind::Case(_, branches, otherwise) => {
            branches.iter().all(|(_, b)| is_exact(b)) && otherwise.as_deref().is_none_or(is_exact)
        }
    }
}

/// Names a substitution assigns (machine variables, outputs, locals of enclosing VARs).
pub fn writes(s: &Subst) -> BTreeSet<Name> {
    let mut out = BTreeSet::new();
    collect_writes(s, &mut out);
    out
}

fn collect_writes(s: &Subst, out: &mut BTreeSet<Name>) {
    match &s.kind {
        SubstKind::Skip => {}
        SubstKind::While { body, .. } => collect_writes(body, out),
        SubstKind::Assign(items) => {
            for (t, _) in items {
                out.insert(target_root(t).name.clone());
            }
        }
        SubstKind::BecomesElementOf(vars, _) | SubstKind::BecomesSuchThat(vars, _) => {
            out.extend(vars.iter().map(|v| v.name.clone()));
        }
        SubstKind::OpCall(outs, _, _) => out.extend(outs.iter().map(|v| v.name.clone())),
        SubstKind::Parallel(parts) | SubstKind::Sequence(parts) | SubstKind::Choice(parts) => {
            parts.iter().for_each(|p| collect_writes(p, out))
        }
        SubstKind::Any(_, _, body)
        | SubstKind::Let(_, body)
        | SubstKind::Pre(_, body)
        | SubstKind::Assert(_, body) => collect_writes(body, out),
        SubstKind::Var(vars, body) => {
            let mut inner = BTreeSet::new();
            collect_writes(body, &mut inner);
            out.extend(
                inner
                    .into_iter()
                    .filter(|n| vars.iter().all(|v| v.name != *n)),
            );
        }
        SubstKind::If(branches, otherwise) | SubstKind::Select(branches, otherwise) => {
            branches.iter().for_each(|(_, b)| collect_writes(b, out));
            if let Some(b) = otherwise {
                collect_writes(b, out);
            }
        }
        SubstKind::Case(_, branches, otherwise) => {
            branches.iter().for_each(|(_, b)| collect_writes(b, out));
            if let Some(b) = otherwise {
                collect_writes(b, out);
            }
        }
    }
}

/// A variable in `unassigned` (no value yet: the machine's variables at the start of the INITIALISATION)
/// that `s` reads on every way it can produce an outcome, before assigning it: `NODES :: POW1(S) || ANY
/// n WHERE n <: NODES THEN .. END` reads NODES, whose value the parallel branch gives only afterwards.
/// Such a substitution has no outcome (ProB finds no initial state). Reads that only some branch of an
/// IF, SELECT, CASE or CHOICE makes are not counted (another branch may avoid them), nor anything inside
/// a WHILE; a local name hiding a variable ends the analysis (None).
pub fn unassigned_read(s: &Subst, unassigned: &BTreeSet<Name>) -> Option<Name> {
    let mut left = unassigned.clone();
    match first_unassigned_read(s, &mut left) {
        Scan::Read(name) => Some(name),
        Scan::Clear | Scan::GiveUp => None,
    }
}

/// Whether the INITIALISATION reads one of the machine's variables before giving it a value, on every
/// way to an outcome: then it has no outcome (`unassigned_read` from all the variables).
pub fn initialisation_reads_unassigned(m: &Machine) -> bool {
    let variables = m.variables.iter().map(|v| v.name.clone()).collect();
    unassigned_read(&m.initialisation, &variables).is_some()
}

/// What `first_unassigned_read` found.
enum Scan {
    /// This variable is read while unassigned on every way to an outcome.
    Read(Name),
    /// No such read; the set now holds the variables still unassigned on every way.
    Clear,
    /// A construct the analysis does not follow.
    GiveUp,
}

fn first_unassigned_read(s: &Subst, unassigned: &mut BTreeSet<Name>) -> Scan {
    use crate::ir::free_names::{of_expr, of_pred};
    let read = |names: BTreeSet<Name>, unassigned: &BTreeSet<Name>| {
        names.into_iter().find(|n| unassigned.contains(n))
    };
    fn hides<'v>(
        mut vars: impl Iterator<Item = &'v TypedName>,
        unassigned: &BTreeSet<Name>,
    ) -> bool {
        vars.any(|v| unassigned.contains(&v.name))
    }
    match &s.kind {
        SubstKind::Skip => Scan::Clear,
        SubstKind::Assign(items) => {
            for (t, e) in items {
                let mut names = of_expr(e);
                target_reads(t, &mut names);
                if let Some(n) = read(names, unassigned) {
                    return Scan::Read(n);
                }
            }
            for (t, _) in items {
                unassigned.remove(&target_root(t).name);
            }
            Scan::Clear
        }
        SubstKind::BecomesElementOf(vars, e) => {
            if let Some(n) = read(of_expr(e), unassigned) {
                return Scan::Read(n);
            }
            vars.iter().for_each(|v| {
                unassigned.remove(&v.name);
            });
            Scan::Clear
        }
        SubstKind::BecomesSuchThat(vars, p) => {
            // `x` in P is the new value; `x$0` reads the old one.
            let names = of_pred(p)
                .into_iter()
                .filter(|n| vars.iter().all(|v| v.name != *n))
                .map(|n| n.strip_suffix("$0").map(Name::from).unwrap_or(n))
                .collect();
            if let Some(n) = read(names, unassigned) {
                return Scan::Read(n);
            }
            vars.iter().for_each(|v| {
                unassigned.remove(&v.name);
            });
            Scan::Clear
        }
        SubstKind::OpCall(..) | SubstKind::While { .. } => Scan::GiveUp,
        SubstKind::Parallel(parts) => {
            let before = unassigned.clone();
            for p in parts {
                let mut mine = before.clone();
                match first_unassigned_read(p, &mut mine) {
                    Scan::Clear => unassigned.retain(|n| mine.contains(n)),
                    other => return other,
                }
            }
            Scan::Clear
        }
        SubstKind::Sequence(parts) => {
            for p in parts {
                match first_unassigned_read(p, unassigned) {
                    Scan::Clear => {}
                    other => return other,
                }
            }
            Scan::Clear
        }
        SubstKind::Any(vars, p, body) => {
            if hides(vars.iter(), unassigned) {
                return Scan::GiveUp;
            }
            match read(of_pred(p), unassigned) {
                Some(n) => Scan::Read(n),
                None => first_unassigned_read(body, unassigned),
            }
        }
        SubstKind::Let(binds, body) => {
            if hides(binds.iter().map(|(v, _)| v), unassigned) {
                return Scan::GiveUp;
            }
            for (_, e) in binds {
                if let Some(n) = read(of_expr(e), unassigned) {
                    return Scan::Read(n);
                }
            }
            first_unassigned_read(body, unassigned)
        }
        SubstKind::Var(vars, body) => {
            if hides(vars.iter(), unassigned) {
                return Scan::GiveUp;
            }
            first_unassigned_read(body, unassigned)
        }
        SubstKind::Pre(p, body) | SubstKind::Assert(p, body) => {
            match read(of_pred(p), unassigned) {
                Some(n) => Scan::Read(n),
                None => first_unassigned_read(body, unassigned),
            }
        }
        SubstKind::If(branches, otherwise) | SubstKind::Select(branches, otherwise) => {
            // Only the first condition is evaluated on every way.
            if let Some((c, _)) = branches.first()
                && let Some(n) = read(of_pred(c), unassigned)
            {
                return Scan::Read(n);
            }
            let ways = branches.iter().map(|(_, b)| b).chain(otherwise.as_deref());
            still_unassigned_after(ways, unassigned)
        }
        SubstKind::Case(e, branches, otherwise) => {
            if let Some(n) = read(of_expr(e), unassigned) {
                return Scan::Read(n);
            }
            let ways = branches.iter().map(|(_, b)| b).chain(otherwise.as_deref());
            still_unassigned_after(ways, unassigned)
        }
        SubstKind::Choice(parts) => still_unassigned_after(parts.iter(), unassigned),
    }
}

/// After alternative branches: the variables unassigned on every way (doing nothing, the way of an IF
/// without ELSE, keeps them all and changes nothing), reads inside a branch not counted.
fn still_unassigned_after<'s>(
    branches: impl Iterator<Item = &'s Subst>,
    unassigned: &mut BTreeSet<Name>,
) -> Scan {
    let before = unassigned.clone();
    for b in branches {
        let mut mine = before.clone();
        if let Scan::GiveUp = first_unassigned_read(b, &mut mine) {
            return Scan::GiveUp;
        }
        // A read inside the branch is not counted; what it assigned before it is, on that way.
        unassigned.retain(|n| mine.contains(n));
    }
    Scan::Clear
}

/// Free names of the predicates and expressions of a substitution, and the roots of partial updates.
/// Every free identifier a substitution reads (machine variables, constants, and anything else named,
/// such as the variable an external function's call is lowered to).
pub fn names_read(s: &Subst) -> BTreeSet<Name> {
    let mut out = BTreeSet::new();
    subst_reads(s, &mut out);
    out
}

fn subst_reads(s: &Subst, out: &mut BTreeSet<Name>) {
    use crate::ir::free_names::{of_expr, of_pred};
    match &s.kind {
        SubstKind::Skip => {}
        SubstKind::Assign(items) => {
            for (t, e) in items {
                out.extend(of_expr(e));
                target_reads(t, out);
            }
        }
        SubstKind::BecomesElementOf(_, e) => out.extend(of_expr(e)),
        SubstKind::BecomesSuchThat(_, p) => out.extend(
            of_pred(p)
                .into_iter()
                .map(|n| n.strip_suffix("$0").map(Name::from).unwrap_or(n)),
        ),
        SubstKind::OpCall(_, _, args) => args.iter().for_each(|a| out.extend(of_expr(a))),
        SubstKind::Parallel(parts) | SubstKind::Sequence(parts) | SubstKind::Choice(parts) => {
            parts.iter().for_each(|p| subst_reads(p, out))
        }
        SubstKind::Any(_, p, body) | SubstKind::Pre(p, body) | SubstKind::Assert(p, body) => {
            out.extend(of_pred(p));
            subst_reads(body, out);
        }
        SubstKind::Let(binds, body) => {
            binds.iter().for_each(|(_, e)| out.extend(of_expr(e)));
            subst_reads(body, out);
        }
        SubstKind::Var(_, body) => subst_reads(body, out),
        SubstKind::If(branches, otherwise) | SubstKind::Select(branches, otherwise) => {
            for (c, b) in branches {
                out.extend(of_pred(c));
                subst_reads(b, out);
            }
            if let Some(b) = otherwise {
                subst_reads(b, out);
            }
        }
        SubstKind::Case(e, branches, otherwise) => {
            out.extend(of_expr(e));
            for (labels, b) in branches {
                labels.iter().for_each(|l| out.extend(of_expr(l)));
                subst_reads(b, out);
            }
            if let Some(b) = otherwise {
                subst_reads(b, out);
            }
        }
        SubstKind::While {
            cond,
            body,
            invariant,
            variant,
        } => {
            out.extend(of_pred(cond));
            out.extend(of_pred(invariant));
            out.extend(of_expr(variant));
            subst_reads(body, out);
        }
    }
}

fn target_reads(t: &AssignTarget, out: &mut BTreeSet<Name>) {
    use crate::ir::free_names::of_expr;
    match t {
        AssignTarget::Var(_) => {}
        AssignTarget::Apply(inner, index) => {
            out.insert(target_root(inner).name.clone());
            out.extend(of_expr(index));
            target_reads(inner, out);
        }
        AssignTarget::Field(inner, _) => {
            out.insert(target_root(inner).name.clone());
            target_reads(inner, out);
        }
    }
}

fn target_root(t: &AssignTarget) -> &TypedName {
    match t {
        AssignTarget::Var(v) => v,
        AssignTarget::Apply(inner, _) | AssignTarget::Field(inner, _) => target_root(inner),
    }
}

/// Which name holds the current value of each variable (or receives its new value).
type Renaming = FxHashMap<Name, Name>;

fn state_renaming(m: &Machine, k: usize) -> Renaming {
    m.variables
        .iter()
        .map(|v| (v.name.clone(), copy_name(&v.name, k)))
        .collect()
}

/// What `op`'s body reads in copy `k`: the state variables and the parameters (renamed), and the
/// parameters' copies.
fn inputs(m: &Machine, op: &Operation, k: usize) -> (Renaming, Vec<TypedName>) {
    let mut input = state_renaming(m, k);
    let params = renamed(m, &op.params, k);
    input.extend(
        op.params
            .iter()
            .zip(&params)
            .map(|(p, r)| (p.name.clone(), r.name.clone())),
    );
    (input, params)
}

/// Parameters and outputs in copy `k`. A parameter named like a state variable hides it in the
/// operation's body — an operation may reuse the name of an included machine's variable
/// (B/Daniel/hierachy/M1.mch: `Set(yy)` beside M2's `yy`), and ProB accepts a parameter named like the
/// machine's own (B/CBC/Enabling/OpParameterTestsComplex.mch: `TestParaXX(xx)`) — so it gets a copy name
/// of its own (`xx@p0`), which `@`-stripping still shows as `xx`. (The type checker refuses an output
/// named like a variable.)
fn renamed(m: &Machine, names: &[TypedName], k: usize) -> Vec<TypedName> {
    names
        .iter()
        .map(|n| TypedName {
            name: if m.variables.iter().any(|v| v.name == n.name) {
                format!("{}@p{k}", n.name).into()
            } else {
                copy_name(&n.name, k)
            },
            ..n.clone()
        })
        .collect()
}

/// Fresh names are unique in the whole process, so predicates built separately can be conjoined.
static FRESH: AtomicUsize = AtomicUsize::new(0);

fn fresh(base: &str) -> Name {
    let n = FRESH.fetch_add(1, Ordering::Relaxed);
    format!("{base}@t{n}").into()
}

struct Translator {
    /// Types of the names that can be assigned: variables, outputs, VAR locals.
    types: FxHashMap<Name, Type>,
}

impl Translator {
    fn new(m: &Machine, outputs: &[TypedName]) -> Translator {
        let types = m
            .variables
            .iter()
            .chain(outputs)
            .map(|v| (v.name.clone(), v.ty.clone()))
            .collect();
        Translator { types }
    }

    fn typed(&self, name: &Name, renamed: Name, span: Span) -> Result<TypedName, Diagnostic> {
        let ty = self.types.get(name).cloned().ok_or_else(|| {
            Diagnostic::new(
                crate::diag::DiagKind::Internal,
                span,
                format!("before-after predicate: no type for {name}"),
            )
        })?;
        Ok(TypedName {
            name: renamed,
            ty,
            span,
        })
    }

    /// BA(s)(input, output): `output` names every name `s` writes.
    fn ba(&mut self, s: &Subst, input: &Renaming, output: &Renaming) -> Result<Pred, Diagnostic> {
        let span = s.span;
        match &s.kind {
            SubstKind::Skip => Ok(Pred::truth(span)),
            SubstKind::Assign(items) => {
                let mut seen: Vec<&Name> = Vec::new();
                let mut parts = Vec::with_capacity(items.len());
                for (target, e) in items {
                    let root = target_root(target);
                    if seen.contains(&&root.name) {
                        return Err(Diagnostic::unsupported(
                            span,
                            format!("simultaneous assignments to parts of {}", root.name),
                        ));
                    }
                    seen.push(&root.name);
                    let value = updated(target, rename_expr(e, input), input)?;
                    let out = lookup(output, &root.name, span)?;
                    parts.push(compare(
                        CompareOp::Eq,
                        var(out, &root.ty, span),
                        value,
                        span,
                    ));
                }
                Ok(and(parts, span))
            }
            SubstKind::BecomesElementOf(vars, set) => {
                let mut outs = Vec::with_capacity(vars.len());
                for v in vars {
                    outs.push(var(lookup(output, &v.name, span)?, &v.ty, span));
                }
                Ok(compare(
                    CompareOp::In,
                    tuple(outs, span),
                    rename_expr(set, input),
                    span,
                ))
            }
            SubstKind::BecomesSuchThat(vars, p) => {
                let mut map = input.clone();
                for v in vars {
                    if let Some(before) = input.get(&v.name) {
                        map.insert(format!("{}$0", v.name).into(), before.clone());
                    }
                    map.insert(v.name.clone(), lookup(output, &v.name, span)?);
                }
                Ok(rename_pred(p, &map))
            }
            SubstKind::OpCall(_, name, _) => Err(Diagnostic::unsupported(
                span,
                format!(
                    "operation call {name} in a before-after predicate (calls are inlined when the machine is flattened)"
                ),
            )),
            SubstKind::While {
                cond, invariant, ..
            } => {
                // Over-approximation (see `is_exact`): the loop ends in a state satisfying its
                // INVARIANT where its condition is false; only what the body writes changes.
                let mut after = input.clone();
                after.extend(output.iter().map(|(k, v)| (k.clone(), v.clone())));
                Ok(and(
                    vec![
                        rename_pred(invariant, &after),
                        not(rename_pred(cond, &after)),
                    ],
                    span,
                ))
            }
            SubstKind::Parallel(parts) => {
                let mut preds = Vec::with_capacity(parts.len());
                let mut written: BTreeSet<Name> = BTreeSet::new();
                for p in parts {
                    let w = writes(p);
                    if let Some(x) = w.iter().find(|x| written.contains(*x)) {
                        return Err(Diagnostic::unsupported(
                            span,
                            format!("parallel substitutions both assigning {x}"),
                        ));
                    }
                    written.extend(w.iter().cloned());
                    preds.push(self.ba(p, input, &restrict(output, &w))?);
                }
                Ok(and(preds, span))
            }
            SubstKind::Sequence(parts) => self.sequence(parts, input, output, span),
            SubstKind::Choice(parts) => {
                let all = writes(s);
                let mut alternatives = Vec::with_capacity(parts.len());
                for p in parts {
                    alternatives.push(self.branch(p, input, output, &all)?);
                }
                Ok(or(alternatives, span))
            }
            SubstKind::If(branches, otherwise) => {
                let conditioned = branches
                    .iter()
                    .map(|(c, b)| (rename_pred(c, input), b))
                    .collect();
                self.first_match(s, conditioned, otherwise.as_deref(), input, output)
            }
            SubstKind::Select(branches, otherwise) => {
                let all = writes(s);
                let mut alternatives = Vec::new();
                let mut guards = Vec::new();
                for (c, b) in branches {
                    let c = rename_pred(c, input);
                    alternatives.push(and(
                        vec![c.clone(), self.branch(b, input, output, &all)?],
                        b.span,
                    ));
                    guards.push(c);
                }
                if let Some(b) = otherwise {
                    let mut conds: Vec<Pred> = guards.into_iter().map(not).collect();
                    conds.push(self.branch(b, input, output, &all)?);
                    alternatives.push(and(conds, b.span));
                }
                Ok(or(alternatives, span))
            }
            SubstKind::Case(e, branches, otherwise) => {
                let conditioned = case_conditions(e, branches, input);
                self.first_match(s, conditioned, otherwise.as_deref(), input, output)
            }
            SubstKind::Any(vars, p, body) => {
                let inner = shadow(input, vars.iter().map(|v| &v.name));
                let guard = rename_pred(p, &inner);
                let body = self.ba(body, &inner, output)?;
                Ok(exists(vars.clone(), and(vec![guard, body], span), span))
            }
            SubstKind::Let(binds, body) => {
                let mut inner = input.clone();
                let mut parts = Vec::with_capacity(binds.len() + 1);
                for (v, e) in binds {
                    let e = rename_expr(e, &inner);
                    inner.remove(&v.name);
                    parts.push(compare(
                        CompareOp::Eq,
                        var(v.name.clone(), &v.ty, v.span),
                        e,
                        v.span,
                    ));
                }
                parts.push(self.ba(body, &inner, output)?);
                let vars = binds.iter().map(|(v, _)| v.clone()).collect();
                Ok(exists(vars, and(parts, span), span))
            }
            SubstKind::Var(vars, body) => {
                let inner = shadow(input, vars.iter().map(|v| &v.name));
                let mut out = output.clone();
                let mut locals = Vec::new();
                let written = writes(body);
                for v in vars {
                    self.types.insert(v.name.clone(), v.ty.clone());
                    if written.contains(&v.name) {
                        let name = fresh(&v.name);
                        out.insert(v.name.clone(), name.clone());
                        locals.push(TypedName { name, ..v.clone() });
                    }
                }
                let body = self.ba(body, &inner, &out)?;
                Ok(exists(locals, body, span))
            }
            SubstKind::Pre(p, body) | SubstKind::Assert(p, body) => {
                let guard = rename_pred(p, input);
                Ok(and(vec![guard, self.ba(body, input, output)?], span))
            }
        }
    }

    /// One branch of a choice: its own BA, and the variables other branches write unchanged.
    /// IF/ELSIF/ELSE and CASE: the first branch whose (renamed) condition holds runs; without an ELSE,
    /// no condition holding leaves the written variables unchanged.
    fn first_match(
        &mut self,
        s: &Subst,
        conditioned: Vec<(Pred, &Subst)>,
        otherwise: Option<&Subst>,
        input: &Renaming,
        output: &Renaming,
    ) -> Result<Pred, Diagnostic> {
        let all = writes(s);
        let mut alternatives = Vec::new();
        let mut earlier: Vec<Pred> = Vec::new();
        for (c, b) in conditioned {
            let mut conds: Vec<Pred> = earlier.iter().map(|p| not(p.clone())).collect();
            conds.push(c.clone());
            conds.push(self.branch(b, input, output, &all)?);
            alternatives.push(and(conds, b.span));
            earlier.push(c);
        }
        let mut conds: Vec<Pred> = earlier.into_iter().map(not).collect();
        conds.push(match otherwise {
            Some(b) => self.branch(b, input, output, &all)?,
            None => frame(&all, &BTreeSet::new(), input, output, &self.types, s.span)?,
        });
        alternatives.push(and(conds, s.span));
        Ok(or(alternatives, s.span))
    }

    fn branch(
        &mut self,
        b: &Subst,
        input: &Renaming,
        output: &Renaming,
        all: &BTreeSet<Name>,
    ) -> Result<Pred, Diagnostic> {
        let w = writes(b);
        let body = self.ba(b, input, &restrict(output, &w))?;
        let frames = frame(all, &w, input, output, &self.types, b.span)?;
        Ok(and(vec![body, frames], b.span))
    }

    /// `S1; S2; ...`: a variable written by a part and again by a later one passes through a fresh
    /// intermediate name; the others go straight to their output names.
    fn sequence(
        &mut self,
        parts: &[Subst],
        input: &Renaming,
        output: &Renaming,
        span: Span,
    ) -> Result<Pred, Diagnostic> {
        let part_writes: Vec<BTreeSet<Name>> = parts.iter().map(writes).collect();
        let mut current = input.clone();
        let mut locals = Vec::new();
        let mut preds = Vec::with_capacity(parts.len());
        for (i, part) in parts.iter().enumerate() {
            let mut out = Renaming::default();
            for x in &part_writes[i] {
                let later = part_writes[i + 1..].iter().any(|w| w.contains(x));
                let name = match output.get(x) {
                    Some(name) if !later => name.clone(),
                    _ => {
                        let name = fresh(x);
                        locals.push(self.typed(x, name.clone(), part.span)?);
                        name
                    }
                };
                out.insert(x.clone(), name);
            }
            preds.push(self.ba(part, &current, &out)?);
            current.extend(out);
        }
        Ok(exists(locals, and(preds, span), span))
    }

    /// The enabling condition of `s` from `input`.
    fn guard(&mut self, s: &Subst, input: &Renaming) -> Result<Pred, Diagnostic> {
        let span = s.span;
        match &s.kind {
            // A WHILE never blocks (it may abort, which the interpreter reports).
            SubstKind::Skip | SubstKind::Assign(_) | SubstKind::While { .. } => {
                Ok(Pred::truth(span))
            }
            SubstKind::OpCall(..)
            | SubstKind::BecomesElementOf(..)
            | SubstKind::BecomesSuchThat(..) => self.feasible(s, input),
            SubstKind::Parallel(parts) => {
                let guards = parts
                    .iter()
                    .map(|p| self.guard(p, input))
                    .collect::<Result<_, _>>()?;
                Ok(and(guards, span))
            }
            SubstKind::Sequence(parts) => match parts.split_first() {
                None => Ok(Pred::truth(span)),
                Some((first, [])) => self.guard(first, input),
                Some((first, rest)) => self.sequence_guard(first, rest, input, span),
            },
            SubstKind::Choice(parts) => {
                let guards = parts
                    .iter()
                    .map(|p| self.guard(p, input))
                    .collect::<Result<_, _>>()?;
                Ok(or(guards, span))
            }
            SubstKind::If(branches, otherwise) => {
                let conds: Vec<(Pred, &Subst)> = branches
                    .iter()
                    .map(|(c, b)| (rename_pred(c, input), b))
                    .collect();
                self.ordered_guard(conds, otherwise.as_deref(), input, span)
            }
            SubstKind::Case(e, branches, otherwise) => {
                let conds = case_conditions(e, branches, input);
                self.ordered_guard(conds, otherwise.as_deref(), input, span)
            }
            SubstKind::Select(branches, otherwise) => {
                let mut alternatives = Vec::new();
                let mut conds = Vec::new();
                for (c, b) in branches {
                    let c = rename_pred(c, input);
                    alternatives.push(and(vec![c.clone(), self.guard(b, input)?], b.span));
                    conds.push(c);
                }
                if let Some(b) = otherwise {
                    let mut parts: Vec<Pred> = conds.into_iter().map(not).collect();
                    parts.push(self.guard(b, input)?);
                    alternatives.push(and(parts, b.span));
                }
                Ok(or(alternatives, span))
            }
            SubstKind::Any(vars, p, body) => {
                let inner = shadow(input, vars.iter().map(|v| &v.name));
                let parts = vec![rename_pred(p, &inner), self.guard(body, &inner)?];
                Ok(exists(vars.clone(), and(parts, span), span))
            }
            SubstKind::Let(binds, body) => {
                let (binds, inner) = rename_lets(binds, input);
                Ok(let_pred(binds, self.guard(body, &inner)?, span))
            }
            SubstKind::Var(vars, body) => {
                for v in vars {
                    self.types.insert(v.name.clone(), v.ty.clone());
                }
                self.guard(body, &shadow(input, vars.iter().map(|v| &v.name)))
            }
            SubstKind::Pre(p, body) => Ok(and(
                vec![rename_pred(p, input), self.guard(body, input)?],
                span,
            )),
            // A false ASSERT aborts (the interpreter reports it); it does not block.
            SubstKind::Assert(_, body) => self.guard(body, input),
        }
    }

    /// `first; rest` is enabled when `first` is and `rest` is in some state `first` leads to. After a
    /// plain assignment that state is known: `rest`'s guard is evaluated under a LET of the assigned
    /// values (no search); otherwise the intermediate values are existentially quantified.
    fn sequence_guard(
        &mut self,
        first: &Subst,
        rest: &[Subst],
        input: &Renaming,
        span: Span,
    ) -> Result<Pred, Diagnostic> {
        let rest = Subst {
            kind: SubstKind::Sequence(rest.to_vec()),
            span,
        };
        let mut mid = input.clone();
        if let SubstKind::Assign(items) = &first.kind {
            let mut binds = Vec::with_capacity(items.len());
            for (target, e) in items {
                let root = target_root(target);
                let value = updated(target, rename_expr(e, input), input)?;
                let local = self.typed(&root.name, fresh(&root.name), first.span)?;
                mid.insert(root.name.clone(), local.name.clone());
                binds.push((local, value));
            }
            let after = self.guard(&rest, &mid)?;
            return Ok(let_pred(binds, after, span));
        }
        let mut locals = Vec::new();
        let mut out = Renaming::default();
        for x in writes(first) {
            let local = self.typed(&x, fresh(&x), first.span)?;
            out.insert(x.clone(), local.name.clone());
            mid.insert(x, local.name.clone());
            locals.push(local);
        }
        let after = self.guard(&rest, &mid)?;
        let before = self.guard(first, input)?;
        if after.kind == PredKind::True {
            return Ok(before);
        }
        let step = self.ba(first, input, &out)?;
        Ok(and(
            vec![before, exists(locals, and(vec![step, after], span), span)],
            span,
        ))
    }

    /// IF/CASE: the first branch whose condition holds is taken; without ELSE nothing happens.
    fn ordered_guard(
        &mut self,
        conds: Vec<(Pred, &Subst)>,
        otherwise: Option<&Subst>,
        input: &Renaming,
        span: Span,
    ) -> Result<Pred, Diagnostic> {
        let mut alternatives = Vec::new();
        let mut earlier: Vec<Pred> = Vec::new();
        let mut guards_all_true = true;
        for (c, b) in conds {
            let mut parts: Vec<Pred> = earlier.iter().map(|p| not(p.clone())).collect();
            parts.push(c.clone());
            let g = self.guard(b, input)?;
            guards_all_true &= g.kind == PredKind::True;
            parts.push(g);
            alternatives.push(and(parts, b.span));
            earlier.push(c);
        }
        let last = match otherwise {
            Some(b) => self.guard(b, input)?,
            None => Pred::truth(span),
        };
        if guards_all_true && last.kind == PredKind::True {
            // Some branch is always taken and none blocks.
            return Ok(Pred::truth(span));
        }
        let mut parts: Vec<Pred> = earlier.into_iter().map(not).collect();
        parts.push(last);
        alternatives.push(and(parts, span));
        Ok(or(alternatives, span))
    }

    /// `s` has an outcome: its BA with every written name existentially quantified.
    fn feasible(&mut self, s: &Subst, input: &Renaming) -> Result<Pred, Diagnostic> {
        let mut output = Renaming::default();
        let mut locals = Vec::new();
        for x in writes(s) {
            let local = self.typed(&x, fresh(&x), s.span)?;
            output.insert(x, local.name.clone());
            locals.push(local);
        }
        let body = self.ba(s, input, &output)?;
        Ok(exists(locals, body, s.span))
    }
}

/// `x_out = x_in` for every name of `all` not in `written` (names without a value before, such as
/// outputs and VAR locals, stay unconstrained: the interpreter would reject reading them).
fn frame(
    all: &BTreeSet<Name>,
    written: &BTreeSet<Name>,
    input: &Renaming,
    output: &Renaming,
    types: &FxHashMap<Name, Type>,
    span: Span,
) -> Result<Pred, Diagnostic> {
    let mut parts = Vec::new();
    for x in all.difference(written) {
        let (Some(before), Some(after), Some(ty)) = (input.get(x), output.get(x), types.get(x))
        else {
            continue;
        };
        parts.push(compare(
            CompareOp::Eq,
            var(after.clone(), ty, span),
            var(before.clone(), ty, span),
            span,
        ));
    }
    Ok(and(parts, span))
}

fn restrict(map: &Renaming, keep: &BTreeSet<Name>) -> Renaming {
    map.iter()
        .filter(|(k, _)| keep.contains(*k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn shadow<'a>(map: &Renaming, names: impl Iterator<Item = &'a Name>) -> Renaming {
    let mut out = map.clone();
    for n in names {
        out.remove(n);
    }
    out
}

fn lookup(map: &Renaming, name: &Name, span: Span) -> Result<Name, Diagnostic> {
    map.get(name).cloned().ok_or_else(|| {
        Diagnostic::new(
            crate::diag::DiagKind::Internal,
            span,
            format!("before-after predicate: no output name for {name}"),
        )
    })
}

/// The new value of the root variable of `target` when `target` receives `value`: `f(i) := E` is
/// `f := f <+ {i |-> E}`, `r'a := E` is `r := rec(a: E, b: r'b, ...)`.
fn updated(target: &AssignTarget, value: Expr, input: &Renaming) -> Result<Expr, Diagnostic> {
    match target {
        AssignTarget::Var(_) => Ok(value),
        AssignTarget::Apply(inner, index) => {
            let f = current(inner, input)?;
            let index = rename_expr(index, input);
            let span = value.span;
            let pair_ty = Type::pair(index.ty.clone(), value.ty.clone());
            let pair = Expr::new(
                ExprKind::Binary(BinaryOp::Maplet, Box::new(index), Box::new(value)),
                pair_ty.clone(),
                span,
            );
            let single = Expr::new(ExprKind::SetEnum(vec![pair]), Type::set(pair_ty), span);
            let ty = f.ty.clone();
            let over = Expr::new(
                ExprKind::Binary(BinaryOp::Override, Box::new(f), Box::new(single)),
                ty,
                span,
            );
            updated(inner, over, input)
        }
        AssignTarget::Field(inner, field) => {
            let r = current(inner, input)?;
            let span = value.span;
            let Type::Struct(fields) = &r.ty else {
                return Err(Diagnostic::new(
                    crate::diag::DiagKind::Internal,
                    span,
                    "record field assignment on a non-record",
                ));
            };
            let mut value = Some(value);
            let items = fields
                .iter()
                .map(|(name, ty)| {
                    let e = match value.take_if(|_| name == field) {
                        Some(v) => v,
                        None => Expr::new(
                            ExprKind::Field(Box::new(r.clone()), name.clone()),
                            ty.clone(),
                            span,
                        ),
                    };
                    (name.clone(), e)
                })
                .collect();
            let record = Expr::new(ExprKind::Record(items), r.ty.clone(), span);
            updated(inner, record, input)
        }
    }
}

/// The current value of an assignment target as an expression.
fn current(target: &AssignTarget, input: &Renaming) -> Result<Expr, Diagnostic> {
    match target {
        AssignTarget::Var(v) => {
            let name = input
                .get(&v.name)
                .cloned()
                .unwrap_or_else(|| v.name.clone());
            Ok(var(name, &v.ty, v.span))
        }
        AssignTarget::Apply(inner, index) => {
            let f = current(inner, input)?;
            let index = rename_expr(index, input);
            let ty = match &f.ty {
                Type::Set(pair) => match &**pair {
                    Type::Pair(_, range) => (**range).clone(),
                    _ => return Err(bad_shape(f.span)),
                },
                _ => return Err(bad_shape(f.span)),
            };
            let span = f.span;
            Ok(Expr::new(
                ExprKind::Binary(BinaryOp::Apply, Box::new(f), Box::new(index)),
                ty,
                span,
            ))
        }
        AssignTarget::Field(inner, field) => {
            let r = current(inner, input)?;
            let ty = match &r.ty {
                Type::Struct(fields) => fields
                    .iter()
                    .find(|(n, _)| n == field)
                    .map(|(_, t)| t.clone())
                    .ok_or_else(|| bad_shape(r.span))?,
                _ => return Err(bad_shape(r.span)),
            };
            let span = r.span;
            Ok(Expr::new(
                ExprKind::Field(Box::new(r), field.clone()),
                ty,
                span,
            ))
        }
    }
}

fn bad_shape(span: Span) -> Diagnostic {
    Diagnostic::new(
        crate::diag::DiagKind::Internal,
        span,
        "assignment target of the wrong type",
    )
}

fn var(name: Name, ty: &Type, span: Span) -> Expr {
    Expr::new(ExprKind::Var(name), ty.clone(), span)
}

fn equal(v: &TypedName, a: &Name, b: &Name) -> Pred {
    compare(
        CompareOp::Eq,
        var(a.clone(), &v.ty, v.span),
        var(b.clone(), &v.ty, v.span),
        v.span,
    )
}

/// The left-nested tuple `a |-> b |-> c` (how `x, y :: S` destructures its values).
fn tuple(items: Vec<Expr>, span: Span) -> Expr {
    let mut it = items.into_iter();
    let first = it.next().expect("`::` assigns at least one variable");
    it.fold(first, |acc, e| {
        let ty = Type::pair(acc.ty.clone(), e.ty.clone());
        Expr::new(
            ExprKind::Binary(BinaryOp::Maplet, Box::new(acc), Box::new(e)),
            ty,
            span,
        )
    })
}

fn compare(op: CompareOp, a: Expr, b: Expr, span: Span) -> Pred {
    Pred::new(PredKind::Compare(op, Box::new(a), Box::new(b)), span)
}

fn not(p: Pred) -> Pred {
    let span = p.span;
    match p.kind {
        PredKind::True => Pred::new(PredKind::False, span),
        PredKind::False => Pred::truth(span),
        PredKind::Not(inner) => *inner,
        kind => Pred::new(PredKind::Not(Box::new(Pred { kind, span })), span),
    }
}

/// Conjunction, flattened, `TRUE` conjuncts dropped.
pub fn and(parts: Vec<Pred>, span: Span) -> Pred {
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        match p.kind {
            PredKind::True => {}
            PredKind::False => return Pred::new(PredKind::False, p.span),
            PredKind::And(ps) => out.extend(ps),
            _ => out.push(p),
        }
    }
    match out.len() {
        0 => Pred::truth(span),
        1 => out.pop().expect("one conjunct"),
        _ => Pred::new(PredKind::And(out), span),
    }
}

/// Disjunction, flattened, `FALSE` disjuncts dropped.
pub fn or(parts: Vec<Pred>, span: Span) -> Pred {
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        match p.kind {
            PredKind::False => {}
            PredKind::True => return Pred::truth(p.span),
            PredKind::Or(ps) => out.extend(ps),
            _ => out.push(p),
        }
    }
    match out.len() {
        0 => Pred::new(PredKind::False, span),
        1 => out.pop().expect("one disjunct"),
        _ => Pred::new(PredKind::Or(out), span),
    }
}

/// `LET binds IN body`, or `body` when it is TRUE or FALSE.
fn let_pred(binds: Vec<(TypedName, Expr)>, body: Pred, span: Span) -> Pred {
    if binds.is_empty() || matches!(body.kind, PredKind::True | PredKind::False) {
        return body;
    }
    Pred::new(PredKind::Let(binds, Box::new(body)), span)
}

/// `#vars.(body)`, or `body` when there is nothing to quantify.
pub fn exists(vars: Vec<TypedName>, body: Pred, span: Span) -> Pred {
    if vars.is_empty() || matches!(body.kind, PredKind::False) {
        return body;
    }
    Pred::new(PredKind::Exists(vars, Box::new(body)), span)
}

/// `p` with the free occurrences of the map's keys renamed (bound names shadow the map).
fn rename_pred(p: &Pred, map: &Renaming) -> Pred {
    if map.is_empty() {
        return p.clone();
    }
    let kind = match &p.kind {
        PredKind::True | PredKind::False => p.kind.clone(),
        PredKind::And(ps) => PredKind::And(ps.iter().map(|q| rename_pred(q, map)).collect()),
        PredKind::Or(ps) => PredKind::Or(ps.iter().map(|q| rename_pred(q, map)).collect()),
        PredKind::Implies(a, b) => {
            PredKind::Implies(Box::new(rename_pred(a, map)), Box::new(rename_pred(b, map)))
        }
        PredKind::Equiv(a, b) => {
            PredKind::Equiv(Box::new(rename_pred(a, map)), Box::new(rename_pred(b, map)))
        }
        PredKind::Not(a) => PredKind::Not(Box::new(rename_pred(a, map))),
        PredKind::Forall(vars, body) => PredKind::Forall(
            vars.clone(),
            Box::new(rename_pred(
                body,
                &shadow(map, vars.iter().map(|v| &v.name)),
            )),
        ),
        PredKind::Exists(vars, body) => PredKind::Exists(
            vars.clone(),
            Box::new(rename_pred(
                body,
                &shadow(map, vars.iter().map(|v| &v.name)),
            )),
        ),
        PredKind::Compare(op, a, b) => PredKind::Compare(
            *op,
            Box::new(rename_expr(a, map)),
            Box::new(rename_expr(b, map)),
        ),
        PredKind::If(c, t, e) => PredKind::If(
            Box::new(rename_pred(c, map)),
            Box::new(rename_pred(t, map)),
            Box::new(rename_pred(e, map)),
        ),
        PredKind::Let(binds, body) => {
            let (binds, inner) = rename_lets(binds, map);
            PredKind::Let(binds, Box::new(rename_pred(body, &inner)))
        }
    };
    Pred::new(kind, p.span)
}

fn rename_lets(binds: &[(TypedName, Expr)], map: &Renaming) -> (Vec<(TypedName, Expr)>, Renaming) {
    let mut inner = map.clone();
    let mut out = Vec::with_capacity(binds.len());
    for (v, e) in binds {
        out.push((v.clone(), rename_expr(e, &inner)));
        inner.remove(&v.name);
    }
    (out, inner)
}

/// Each CASE branch with its condition: the (renamed) selector equals one of its labels.
fn case_conditions<'s>(
    selector: &Expr,
    branches: &'s [(Vec<Expr>, Subst)],
    input: &Renaming,
) -> Vec<(Pred, &'s Subst)> {
    let e = rename_expr(selector, input);
    branches
        .iter()
        .map(|(labels, b)| {
            let c = or(
                labels
                    .iter()
                    .map(|l| compare(CompareOp::Eq, e.clone(), rename_expr(l, input), l.span))
                    .collect(),
                b.span,
            );
            (c, b)
        })
        .collect()
}

fn rename_expr(e: &Expr, map: &Renaming) -> Expr {
    if map.is_empty() {
        return e.clone();
    }
    let kind = match &e.kind {
        ExprKind::Var(n) => match map.get(n) {
            Some(r) => ExprKind::Var(r.clone()),
            None => ExprKind::Var(n.clone()),
        },
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Const(_) => {
            e.kind.clone()
        }
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(rename_expr(a, map))),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(
            *op,
            Box::new(rename_expr(a, map)),
            Box::new(rename_expr(b, map)),
        ),
        ExprKind::SetEnum(items) => {
            ExprKind::SetEnum(items.iter().map(|i| rename_expr(i, map)).collect())
        }
        ExprKind::SeqEnum(items) => {
            ExprKind::SeqEnum(items.iter().map(|i| rename_expr(i, map)).collect())
        }
        ExprKind::Comprehension(vars, body) => ExprKind::Comprehension(
            vars.clone(),
            Arc::new(rename_pred(
                body,
                &shadow(map, vars.iter().map(|v| &v.name)),
            )),
        ),
        ExprKind::Binder(kind, vars, cond, body) => {
            let inner = shadow(map, vars.iter().map(|v| &v.name));
            ExprKind::Binder(
                *kind,
                vars.clone(),
                Arc::new(rename_pred(cond, &inner)),
                Arc::new(rename_expr(body, &inner)),
            )
        }
        ExprKind::Record(fields) => ExprKind::Record(
            fields
                .iter()
                .map(|(n, f)| (n.clone(), rename_expr(f, map)))
                .collect(),
        ),
        ExprKind::Struct(fields) => ExprKind::Struct(
            fields
                .iter()
                .map(|(n, f)| (n.clone(), rename_expr(f, map)))
                .collect(),
        ),
        ExprKind::Field(a, n) => ExprKind::Field(Box::new(rename_expr(a, map)), n.clone()),
        ExprKind::BoolOf(p) => ExprKind::BoolOf(Box::new(rename_pred(p, map))),
        ExprKind::If(c, t, f) => ExprKind::If(
            Box::new(rename_pred(c, map)),
            Box::new(rename_expr(t, map)),
            Box::new(rename_expr(f, map)),
        ),
        ExprKind::Let(binds, body) => {
            let (binds, inner) = rename_lets(binds, map);
            ExprKind::Let(binds, Box::new(rename_expr(body, &inner)))
        }
    };
    Expr::new(kind, e.ty.clone(), e.span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Model;
    use crate::eval::Env;
    use crate::solve::{self, Backend, Problem};
    use crate::value::Value;

    fn load(name: &str, text: &str) -> Model {
        Model::from_text(name, text)
    }

    /// Every solution of `pred` for `vars` (a complete search).
    fn solutions(model: &Model, vars: &[TypedName], pred: &Pred, env: &Env) -> Vec<Vec<Value>> {
        let problem = Problem::new(vars, pred, env);
        let found = solve::solve_all(&model.context, &problem, Backend::Auto, 100).expect("solves");
        assert!(found.complete);
        found.solutions
    }

    /// The after-states of the machine's first operation from `state` (no parameters), by solving BA.
    fn after_states(model: &Model, state: &[Value]) -> Vec<Vec<Value>> {
        let m = model.machine();
        let t = operation(m, &m.operations[0], 0, 1).expect("translates");
        let mut env = Env::new();
        for (v, x) in m.variables.iter().zip(state) {
            env.bind(copy_name(&v.name, 0), x.clone());
        }
        let vars: Vec<TypedName> = t.outputs.iter().cloned().chain(state_copy(m, 1)).collect();
        let mut out: Vec<Vec<Value>> = solutions(model, &vars, &t.pred, &env)
            .into_iter()
            .map(|s| s[t.outputs.len()..].to_vec())
            .collect();
        out.sort();
        out
    }

    fn ints(xs: &[i64]) -> Vec<Value> {
        xs.iter().map(|&x| Value::int(x)).collect()
    }

    #[test]
    fn sequential_composition_passes_through_intermediate_values() {
        let model = load(
            "seq",
            "MACHINE S\nVARIABLES x, y\nINVARIANT x : 0..9 & y : 0..9\nINITIALISATION x, y := 0, 0\n\
             OPERATIONS op = BEGIN x := x + 1; y := x; x := x * 2 END\nEND",
        );
        assert_eq!(after_states(&model, &ints(&[3, 0])), vec![ints(&[8, 4])]);
    }

    #[test]
    fn if_without_else_keeps_the_state_and_choice_gives_every_branch() {
        let model = load(
            "if",
            "MACHINE I\nVARIABLES x, y\nINVARIANT x : 0..9 & y : 0..9\nINITIALISATION x, y := 0, 0\n\
             OPERATIONS op = CHOICE IF x > 5 THEN x := 0 END OR y := 7 OR x :: {1, 2} END\nEND",
        );
        let expected = vec![ints(&[1, 0]), ints(&[2, 0]), ints(&[3, 0]), ints(&[3, 7])];
        assert_eq!(after_states(&model, &ints(&[3, 0])), expected);
    }

    #[test]
    fn function_and_becomes_such_that_updates() {
        let model = load(
            "fun",
            "MACHINE F\nVARIABLES f, n\nINVARIANT f : 1..2 --> 0..9 & n : 0..9\n\
             INITIALISATION f := {1 |-> 0, 2 |-> 0} || n := 0\n\
             OPERATIONS op = BEGIN f(2) := n + 1 || n : (n > n$0 & n < 3) END\nEND",
        );
        let f = |a: i64, b: i64| {
            Value::set_from_sorted(vec![
                Value::pair(Value::int(1), Value::int(a)),
                Value::pair(Value::int(2), Value::int(b)),
            ])
        };
        let got = after_states(&model, &[f(0, 0), Value::int(1)]);
        assert_eq!(got, vec![vec![f(0, 2), Value::int(2)]]);
    }

    #[test]
    fn enabling_predicates_and_read_write_sets() {
        let model = load(
            "guard",
            "MACHINE G\nVARIABLES x, y, z\nINVARIANT x : 0..9 & y : 0..9 & z : 0..9\n\
             INITIALISATION x, y, z := 0, 0, 0\n\
             OPERATIONS op(p) = SELECT p : 1..3 & p > x THEN y := p + z END\nEND",
        );
        let m = model.machine();
        let op = &m.operations[0];
        let rw = read_write(m, op);
        let names = |s: &[&str]| s.iter().map(|n| Name::from(*n)).collect::<BTreeSet<_>>();
        assert_eq!(rw.reads, names(&["x", "z"]));
        assert_eq!(rw.writes, names(&["y"]));
        let guard = enabling(m, op, 0).expect("guard");
        let holds = |x: i64| {
            let env = Env::new().with(copy_name("x", 0), Value::int(x));
            model.context.eval_pred(&guard, &env).expect("evaluates")
        };
        assert!(holds(2));
        assert!(!holds(3));
    }

    /// A parameter named like a state variable hides it in the body: the parameter is an input of its
    /// own (a merged name would force it to equal the variable: no step from xx = 0).
    #[test]
    fn parameters_named_like_variables_hide_them() {
        let model = load(
            "hiding",
            "MACHINE H\nVARIABLES xx, yy\nINVARIANT xx : 0..9 & yy : 0..9\nINITIALISATION xx, yy := 0, 0\n\
             OPERATIONS set(xx) = PRE xx : {yy + 1, yy + 2} & xx < 10 THEN yy := xx END;\n\
             get(xx) = BEGIN yy := xx END\nEND",
        );
        let m = model.machine();
        let mut env = Env::new();
        env.bind(copy_name("xx", 0), Value::int(0));
        env.bind(copy_name("yy", 0), Value::int(3));
        let t = operation(m, &m.operations[0], 0, 1).expect("translates");
        let vars: Vec<TypedName> = t.params.iter().cloned().chain(state_copy(m, 1)).collect();
        let mut steps = solutions(&model, &vars, &t.pred, &env);
        steps.sort();
        // set(xx): the parameter, then xx' and yy'.
        assert_eq!(steps, vec![ints(&[4, 0, 4]), ints(&[5, 0, 5])]);
        // get(xx) reads the parameter, not the variable.
        let rw = read_write(m, &m.operations[1]);
        assert!(rw.reads.is_empty(), "{rw:?}");
        assert_eq!(rw.writes, [Name::from("yy")].into_iter().collect());
        let guard = enabling(m, &m.operations[0], 0).expect("guard");
        assert!(model.context.eval_pred(&guard, &env).expect("evaluates"));
    }

    #[test]
    fn outputs_only_defined_are_dropped_and_the_others_kept() {
        let model = load(
            "outputs",
            "MACHINE O\nVARIABLES x\nINVARIANT x : 0..9\nINITIALISATION x := 0\n\
             OPERATIONS a, b <-- op(p) = PRE p : 1..3 THEN \
             ANY c WHERE c : 0..9 & c > p THEN a := {c} || x := c END; b := a END\nEND",
        );
        let m = model.machine();
        let t = operation(m, &m.operations[0], 0, 1).expect("translates");
        let names = |xs: &[TypedName]| xs.iter().map(|o| o.name.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&t.outputs), ["a@1", "b@1"]);
        let lean = t.clone().without_outputs();
        // `b := a` reads the output a: a stays; b is only defined.
        assert_eq!(names(&lean.outputs), ["a@1"]);
        assert!(!free_names::pred_mentions(&lean.pred, &|n| &**n == "b@1"));
        // The steps are the same (b's definition is well-defined).
        let vars: Vec<TypedName> = t.params.iter().cloned().chain(state_copy(m, 1)).collect();
        let mut env = Env::new();
        env.bind(copy_name("x", 0), Value::int(0));
        let all = |pred: &Pred, hidden: &[TypedName]| {
            let p = Pred::new(
                PredKind::Exists(hidden.to_vec(), Box::new(pred.clone())),
                pred.span,
            );
            let mut s = solutions(&model, &vars, &p, &env);
            s.sort();
            s
        };
        let before = all(&t.pred, &t.outputs);
        assert_eq!(before.len(), 8 + 7 + 6);
        assert_eq!(all(&lean.pred, &lean.outputs), before);
    }
}
