//! End-to-end tests of the TLA+ front end: modules of `models/tla` (state counts checked by hand, in the
//! modules' comments) model-checked through the command line, and malformed modules and model files
//! rejected with a position and exit code 3.

mod common;

use common::{bsolve, bsolve_json, model_arg};

/// Writes `text` as `name` into a fresh temporary directory of the test `test`; returns its path.
fn temp_file(test: &str, name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("bsolve-tla-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, text).expect("writes");
    file.display().to_string()
}

/// A module `M` with the model file `cfg` beside it; returns the module's path.
fn module_with(test: &str, module: &str, cfg: &str) -> String {
    temp_file(test, "M.cfg", cfg);
    temp_file(test, "M.tla", module)
}

/// Asserts that `args` fail with exit code `code` and a message containing `position` and `what`.
fn rejected_with(code: i32, args: &[&str], position: &str, what: &str) {
    let (got, out, err) = bsolve(args);
    assert_eq!(got, code, "{args:?}: {out}{err}");
    assert!(err.contains(position), "{args:?}: {err}");
    assert!(err.contains(what), "{args:?}: {err}");
}

const COUNTER: &str = "---- MODULE M ----\nEXTENDS Naturals\nCONSTANT N\nVARIABLE x\n\
    Init == x = 0\nNext == x < N /\\ x' = x + 1\n====\n";

#[test]
fn counter_explores_every_pair_as_tlc_counts() {
    let (code, out, err) = bsolve(&["mc", &model_arg("tla/Counter.tla")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("NO ERROR FOUND"), "{out}");
    assert!(out.contains("distinct states: 16 (TLC's count)"), "{out}");
}

#[test]
fn invariant_violation_has_the_shortest_replayed_trace() {
    let counter = model_arg("tla/Counter.tla");
    let cfg = model_arg("tla/CounterSmall.cfg");
    let (code, json) = bsolve_json(&["mc", &counter, "--config", &cfg]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION");
    let ops: Vec<&str> = common::operations(&json["trace"]);
    assert_eq!(ops.len(), 4, "{json}");
    assert_eq!(ops[0], "INITIALISATION");
}

#[test]
fn token_pass_deadlocks_after_five_states_unless_told_not_to_check() {
    let module = model_arg("tla/TokenPass.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "DEADLOCK");
    assert_eq!(json["distinct_states"], 5);
    let cfg = model_arg("tla/TokenPassNoDeadlock.cfg");
    let (code, json) = bsolve_json(&["mc", &module, "--config", &cfg]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 5);
}

#[test]
fn temporal_properties_are_reported_not_checked() {
    let module = module_with(
        "property",
        &COUNTER.replace("====", "Live == <>(x = N)\n===="),
        "CONSTANT N = 2\nINIT Init\nNEXT Next\nPROPERTY Live\nCHECK_DEADLOCK FALSE\n",
    );
    let (code, out, err) = bsolve(&["mc", &module]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("NO ERROR FOUND (NOT ALL CHECKED)"), "{out}");
    assert!(out.contains("distinct states: 3"), "{out}");
    assert!(out.contains("not checked: property `Live`"), "{out}");
}

#[test]
fn syntax_error_has_a_position() {
    let module = module_with(
        "syntax",
        "---- MODULE M ----\nVARIABLE x\nInit == x = \nNext == x' = x\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    rejected_with(3, &["mc", &module], "M.tla:", "syntax error");
}

#[test]
fn unknown_operator_has_a_position() {
    let module = module_with(
        "unknown",
        "---- MODULE M ----\nVARIABLE x\nInit == x = Foo(1)\nNext == x' = x\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    rejected_with(3, &["mc", &module], "M.tla:3:13", "unknown operator `Foo`");
}

#[test]
fn missing_extended_module_has_a_position() {
    let module = module_with(
        "extends",
        "---- MODULE M ----\nEXTENDS Naturals, Nowhere\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    rejected_with(
        3,
        &["mc", &module],
        "M.tla:2:19",
        "module `Nowhere` not found",
    );
}

#[test]
fn model_file_naming_an_undeclared_constant_has_a_position() {
    let module = module_with(
        "constant",
        COUNTER,
        "CONSTANTS N = 2\n  K = 3\nINIT Init\nNEXT Next\n",
    );
    rejected_with(
        3,
        &["mc", &module],
        "M.cfg:2:3",
        "does not declare as a constant",
    );
}

#[test]
fn constant_without_a_value_is_rejected() {
    let module = module_with("novalue", COUNTER, "INIT Init\nNEXT Next\n");
    rejected_with(
        3,
        &["mc", &module],
        "M.tla:3:10",
        "constant `N` has no value",
    );
}

/// Integers, strings and model values mix (a TLA+ value of mixed kind), but booleans and sets do not.
#[test]
fn heterogeneous_set_is_a_type_error() {
    let module = module_with(
        "heterogeneous",
        "---- MODULE M ----\nVARIABLE x\nInit == x = {1, {2}}\nNext == x' = x\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    rejected_with(3, &["mc", &module], "M.tla:3:", "type");
}

#[test]
fn values_of_mixed_kind_are_checked_as_tlc_does() {
    let (code, out, err) = bsolve(&["mc", &model_arg("tla/MixedValues.tla")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("NO ERROR FOUND"), "{out}");
    assert!(out.contains("distinct states: 8 (TLC's count)"), "{out}");
}

#[test]
fn arithmetic_on_a_model_value_is_an_error_at_its_position() {
    let module = module_with(
        "model-value-arithmetic",
        "---- MODULE M ----\nEXTENDS Naturals\nCONSTANT Nil\nVARIABLE x\nInit == x = Nil\n\
         Next == x' = x + 1 \\/ x' = x\n====\n",
        "CONSTANT Nil = Nil\nINIT Init\nNEXT Next\n",
    );
    let (code, out, err) = bsolve(&["mc", &module]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("WELL-DEFINEDNESS ERROR"), "{out}");
    assert!(out.contains("M.tla:6:14: Nil is not an integer"), "{out}");
}

#[test]
fn unsupported_construct_is_named_with_its_position() {
    let module = module_with(
        "real",
        "---- MODULE M ----\nVARIABLE x\nF(G(_)) == G(1)\nInit == x = F(LAMBDA y : y + 1.5)\nNext == x' = x\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    let (code, out, err) = bsolve(&["mc", &module]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("M.tla:4:30") && err.contains("unsupported: real numbers"),
        "{err}"
    );
}

#[test]
fn except_updates_record_fields_and_nested_points() {
    // r.a in 0..2 (3 values) times the subsets of {1, 2} whose f[i].c was set to 1 (4): 12 states.
    let module = module_with(
        "records",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE r, f\n\
         TypeOK == r \\in [a : 0..2, b : {\"x\", \"y\"}] /\\ f \\in [{1, 2} -> [c : 0..2]]\n\
         Init == r = [a |-> 0, b |-> \"x\"] /\\ f = [i \\in {1, 2} |-> [c |-> 0]]\n\
         Next == \\/ r.a < 2 /\\ r' = [r EXCEPT !.a = @ + 1] /\\ UNCHANGED f\n\
         \\/ \\E i \\in {1, 2} : f[i].c < 1 /\\ f' = [f EXCEPT ![i].c = 1] /\\ UNCHANGED r\n====\n",
        "INIT Init\nNEXT Next\nINVARIANT TypeOK\nCHECK_DEADLOCK FALSE\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 12);
}

#[test]
fn assumptions_alone_are_checked_and_count_no_state() {
    let holds = module_with(
        "assume",
        "---- MODULE M ----\nEXTENDS Naturals\nCONSTANT N\nASSUME \\E x \\in 1..N : x * x = 49\n====\n",
        "CONSTANT N = 10\n",
    );
    let (code, json) = bsolve_json(&["mc", &holds]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 0);
    let fails = module_with(
        "assume-false",
        "---- MODULE M ----\nEXTENDS Naturals\nCONSTANT N\nASSUME \\E x \\in 1..N : x * x = 50\n====\n",
        "CONSTANT N = 10\n",
    );
    let (code, json) = bsolve_json(&["mc", &fails]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "ASSERTION VIOLATION");
}

#[test]
fn except_outside_the_domain_leaves_the_function_unchanged() {
    // TLA+: [f EXCEPT ![3] = 1] is f when 3 is not in DOMAIN f; one state, a self-loop.
    let module = module_with(
        "except-domain",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE f\nInit == f = [i \\in 1..2 |-> 0]\n\
         Next == f' = [f EXCEPT ![3] = 1]\nSame == DOMAIN f = 1..2\n====\n",
        "INIT Init\nNEXT Next\nINVARIANT Same\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 1);
}

#[test]
fn recursive_operators_and_functions_are_constant_functions_applied_on_demand() {
    // models/tla/Recursion.tla: 4 states, its invariant pins each recursive definition's values.
    let module = model_arg("tla/Recursion.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND");
    assert_eq!(json["distinct_states"], 4, "{json}");
    // SumBelowThree fails once log = <<1, 2>>: the trace replays two steps after the initial state.
    let cfg = model_arg("tla/RecursionViolated.cfg");
    let (code, json) = bsolve_json(&["mc", &module, "--config", &cfg]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION");
    let ops = common::operations(&json["trace"]);
    assert_eq!(
        ops,
        ["SETUP_CONSTANTS", "INITIALISATION", "Next", "Next"],
        "{json}"
    );
}

#[test]
fn a_recursive_definition_reading_a_primed_variable_is_refused_where_it_is() {
    let module = module_with(
        "primed-recursion",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nRECURSIVE R(_)\n\
         R(n) == IF n = 0 THEN x' ELSE R(n - 1)\nInit == x = 0\nNext == x < 2 /\\ R(1) = x + 1\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    // Unsupported (not malformed): exit 2, as every construct bsolve cannot take.
    rejected_with(2, &["mc", &module], "M.tla:5:1", "primed variable");
}

#[test]
fn a_state_constraint_leaves_states_out_as_tlc_does() {
    // models/tla/Bounded.tla: x = 0..5 kept, x = 6 left out; no deadlock at x = 5.
    let module = model_arg("tla/Bounded.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND");
    assert_eq!(json["distinct_states"], 6, "{json}");
    // The invariant of a state left out is still checked: x = 6 violates BelowSix.
    let cfg = model_arg("tla/BoundedViolated.cfg");
    let (code, json) = bsolve_json(&["mc", &module, "--config", &cfg]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION");
    assert_eq!(common::operations(&json["trace"]).len(), 7, "{json}");
    // Checks that would look beyond the constraint refuse it.
    rejected_with(2, &["bmc", &module, "5"], "Bounded.tla:12:", "CONSTRAINT");
}

#[test]
fn operators_taking_operators_are_lowered_at_each_use() {
    // models/tla/HigherOrder.tla: 4 states; Inv pins each use's value.
    let module = model_arg("tla/HigherOrder.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND");
    assert_eq!(json["distinct_states"], 4, "{json}");
    let cfg = model_arg("tla/HigherOrderViolated.cfg");
    let (code, json) = bsolve_json(&["mc", &module, "--config", &cfg]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(common::operations(&json["trace"]).len(), 3, "{json}");
}

#[test]
fn an_operator_parameter_given_a_value_is_refused_where_it_is() {
    let module = module_with(
        "operator-argument",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nApply(F(_), v) == F(v)\n\
         Init == x = 0\nNext == x < 2 /\\ x' = Apply(x + 1, x)\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    rejected_with(2, &["mc", &module], "M.tla:6:", "operator parameter");
}

#[test]
fn a_false_tlc_assert_is_an_error_with_its_trace_not_a_disabled_step() {
    let module = module_with(
        "assert",
        "---- MODULE M ----\nEXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0\n\
         Next == x < 5 /\\ IF x = 3 THEN Assert(x # 3, \"x must not be 3\") /\\ x' = x + 1 \
         ELSE x' = x + 1\n====\n",
        "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "WELL-DEFINEDNESS ERROR");
    assert!(
        json["detail"]
            .as_str()
            .is_some_and(|d| d.contains("assertion failed: x must not be 3")),
        "{json}"
    );
    assert_eq!(common::operations(&json["trace"]).len(), 4, "{json}");
}

#[test]
fn community_modules_and_select_seq_are_shipped() {
    // models/tla/Community.tla: 121 states, every law of Laws holds; SumBelowSix fails first where the
    // range is {1, 2, 3}, after three steps.
    let module = model_arg("tla/Community.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND");
    assert_eq!(json["distinct_states"], 121, "{json}");
    let cfg = model_arg("tla/CommunityViolated.cfg");
    let (code, json) = bsolve_json(&["mc", &module, "--config", &cfg]);
    assert_eq!(code, 1, "{json}");
    // The setup of the folds' recursive functions, the initialisation, three steps.
    assert_eq!(common::operations(&json["trace"]).len(), 5, "{json}");
}

#[test]
fn a_lambda_argument_keeps_its_own_names_inside_a_shipped_fold() {
    // The fold's own bound names must not capture the caller's `s` and `x`.
    let module = module_with(
        "capture",
        "---- MODULE M ----\nEXTENDS Naturals, FiniteSetsExt\nVARIABLES s, x\n\
         Init == s = {1, 2} /\\ x = 10\n\
         Next == x < 50 /\\ x' = MapThenSumSet(LAMBDA y : y + x, s) /\\ UNCHANGED s\n\
         Inv == x \\in {10, 23, 49, 101}\n====\n",
        "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
    );
    // 10 -> (1 + 10) + (2 + 10) = 23 -> 49 -> 101, where Next is disabled: four states.
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 4, "{json}");
}

#[test]
fn an_unknown_community_module_is_still_a_file_error() {
    let module = module_with(
        "no-such-module",
        "---- MODULE M ----\nEXTENDS Naturals, SequencesExtended\nVARIABLE x\nInit == x = 0\n\
         Next == x' = x\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    rejected_with(3, &["mc", &module], "M.tla:2:", "FiniteSetsExt");
}

#[test]
fn named_instances_substitute_their_constants_and_variables() {
    // models/tla/TwoJugs.tla: Jug instantiated twice, a in {0, 3} and b in {0, 5}: 4 states.
    let module = model_arg("tla/TwoJugs.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 4, "{json}");
    let cfg = model_arg("tla/TwoJugsViolated.cfg");
    let (code, json) = bsolve_json(&["mc", &module, "--config", &cfg]);
    assert_eq!(code, 1, "{json}");
    // The initialisation, then one Fill of each jug.
    assert_eq!(common::operations(&json["trace"]).len(), 3, "{json}");
}

#[test]
fn an_instance_operator_the_module_does_not_define_is_refused_where_used() {
    let jug = std::fs::read_to_string(model_arg("tla/Jug.tla")).expect("bundled model");
    let module = module_with(
        "instance-unknown-op",
        "---- MODULE M ----\nVARIABLE a\nJ == INSTANCE Jug WITH Cap <- 3, contents <- a\n\
         Init == J!Init\nNext == J!Drain\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    let dir = std::path::Path::new(&module).parent().expect("a folder");
    std::fs::write(dir.join("Jug.tla"), &jug).expect("writable");
    rejected_with(3, &["mc", &module], "M.tla:5:9", "`J!Drain`");
    // A constant of the instantiated module with neither a substitute nor a namesake.
    let module = module_with(
        "instance-no-substitute",
        "---- MODULE M ----\nVARIABLE contents\nJ == INSTANCE Jug\nInit == J!Init\n\
         Next == J!Next\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    let dir = std::path::Path::new(&module).parent().expect("a folder");
    std::fs::write(dir.join("Jug.tla"), &jug).expect("writable");
    rejected_with(3, &["mc", &module], "Jug.tla:", "`Cap`");
}

#[test]
fn operators_capture_no_argument_and_let_definitions_see_their_parameters() {
    // models/tla/Boats.tla: 6 states by hand; NoCapture holds only if `Has(i)` under NoneAbove's own
    // `i` means that `i`, and the split action `Cross(S, boat)` needs its LET definitions' `b`.
    let module = model_arg("tla/Boats.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND", "{json}");
    assert_eq!(json["distinct_states"], 6, "{json}");
    // Everyone across: (0, 3) -2-> (1, 1) -1-> (0, 2) -2-> (1, 0), shortest.
    let cfg = model_arg("tla/BoatsAllAcross.cfg");
    let (code, json) = bsolve_json(&["mc", &module, "--config", &cfg]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION");
    assert_eq!(common::operations(&json["trace"]).len(), 4, "{json}");
}

#[test]
fn a_parameter_from_inside_an_operator_keeps_its_tla_name_in_traces() {
    // `k` is bound inside Step, whose bound identifiers are renamed apart: the trace still says `k`.
    let module = module_with(
        "parameter-name",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nStep(n) == \\E k \\in 1..n : x' = x + k\n\
         Init == x = 0\nNext == x < 3 /\\ Step(2)\nSmall == x < 2\n====\n",
        "INIT Init\nNEXT Next\nINVARIANT Small\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["trace"][1]["parameters"]["k"], "2", "{json}");
}

#[test]
fn a_recursive_function_inside_a_template_reads_names_bound_where_the_template_is_used() {
    // CR is a constant function; the operator Edge passed to Reach reads E, bound around the use.
    let module = module_with(
        "template-enclosing",
        "---- MODULE M ----\nEXTENDS Naturals, FiniteSets\nVARIABLE x\n\
         Reach(R(_, _), S, s, t) ==\n  LET CR[n \\in Nat, v \\in S] ==\n\
         \x20         IF n = 0 THEN R(s, v)\n\
         \x20         ELSE CR[n - 1, v] \\/ \\E u \\in S : CR[n - 1, u] /\\ R(u, v)\n\
         \x20 IN CR[Cardinality(S) - 1, t]\n\
         Init == x = 0\nNext == x < 1 /\\ x' = x + 1\n\
         Inv == \\A E \\in {{<<1, 2>>, <<2, 3>>}} :\n\
         \x20 LET Edge(a, b) == <<a, b>> \\in E\n\
         \x20 IN Reach(Edge, {1, 2, 3}, 1, 3) /\\ ~Reach(Edge, {1, 2, 3}, 3, 1)\n====\n",
        "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 2, "{json}");
    // 3 is not reachable from 1 without the edge 2 -> 3.
    let unreachable = std::fs::read_to_string(&module)
        .expect("written")
        .replace("<<2, 3>>", "<<3, 2>>");
    let module = module_with(
        "template-enclosing-violated",
        &unreachable,
        "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION", "{json}");
}

#[test]
fn an_instance_takes_a_constant_operator_from_a_definition_of_the_same_name() {
    // TLA+'s implicit substitution `Limit(_) <- Limit`: Inner's x runs 0, 1, 2, 3 and stops.
    temp_file(
        "implicit-operator",
        "Inner.tla",
        "---- MODULE Inner ----\nEXTENDS Naturals\nCONSTANT Limit(_)\nVARIABLE x\n\
         Init == x = 0\nNext == ~Limit(x) /\\ x' = x + 1\n====\n",
    );
    let module = module_with(
        "implicit-operator",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nLimit(n) == n >= 3\nINSTANCE Inner\n====\n",
        "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 4, "{json}");
}

#[test]
fn a_user_defined_infix_operator_is_a_definition() {
    // x runs 0, 3, 2, 1 (each step adds 3 modulo 4): 4 states.
    let module = module_with(
        "user-infix",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\na ++ b == (a + b) % 4\n\
         Init == x = 0\nNext == x' = x ++ 3\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 4, "{json}");
    // An infix symbol nothing defines is still refused as unsupported, with its position.
    let module = module_with(
        "user-infix-unknown",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = x ++ 3\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    rejected_with(2, &["mc", &module], "M.tla:5:16", "infix operator `++`");
}

#[test]
fn sequences_ext_operators_have_their_documented_values() {
    // models/tla/SeqExt.tla: every ASSUME holds (values by hand); x runs 0, 1, 2.
    let module = model_arg("tla/SeqExt.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 3, "{json}");
    // A wrong expected value is an assertion violation.
    let wrong = std::fs::read_to_string(&module)
        .expect("bundled model")
        .replace("<<5, 3, 1>>, 0) = 3", "<<5, 3, 1>>, 0) = 1");
    let cfg = std::fs::read_to_string(model_arg("tla/SeqExt.cfg")).expect("bundled model");
    let module = module_with("sequences-ext-wrong", &wrong.replace("SeqExt", "M"), &cfg);
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "ASSERTION VIOLATION", "{json}");
}

#[test]
fn bags_operators_have_their_standard_values() {
    // models/tla/BagsOps.tla: every ASSUME holds (values by hand); x runs 0, 1.
    let module = model_arg("tla/BagsOps.tla");
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 2, "{json}");
    let wrong = std::fs::read_to_string(&module)
        .expect("bundled model")
        .replace(
            "BagCardinality(EmptyBag) = 0",
            "BagCardinality(EmptyBag) = 1",
        );
    let cfg = std::fs::read_to_string(model_arg("tla/BagsOps.cfg")).expect("bundled model");
    let module = module_with("bags-wrong", &wrong.replace("BagsOps", "M"), &cfg);
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "ASSERTION VIOLATION", "{json}");
}

#[test]
fn a_model_file_replaces_a_definition_of_a_named_module_by_a_value() {
    // `None = [Inner] NoVal`: Inner's unbounded CHOOSE is never evaluated; x holds NoVal or Other.
    temp_file(
        "module-override",
        "Inner.tla",
        "---- MODULE Inner ----\nEXTENDS Naturals\nNone == CHOOSE v : v \\notin Nat\n====\n",
    );
    let module = module_with(
        "module-override",
        "---- MODULE M ----\nEXTENDS Inner, Naturals\nCONSTANTS NoVal, Other\nVARIABLE x\n\
         Init == x = None\nNext == x' = Other\nTypeOK == x \\in {Other, NoVal}\n====\n",
        "CONSTANTS\n  NoVal = NoVal\n  Other = Other\n  None = [Inner] NoVal\n\
         INIT Init\nNEXT Next\nINVARIANT TypeOK\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 2, "{json}");
}

#[test]
fn a_constant_operator_replaced_by_a_predicate_defined_later_is_a_predicate() {
    // `Limit <- LimitImpl`, LimitImpl defined in the model's module after Inner's use: x runs 0..3.
    temp_file(
        "rename-predicate",
        "Inner.tla",
        "---- MODULE Inner ----\nEXTENDS Naturals\nCONSTANT Limit(_)\nVARIABLE x\n\
         Init == x = 0\nNext == ~Limit(x) /\\ x' = x + 1\n====\n",
    );
    let module = module_with(
        "rename-predicate",
        "---- MODULE M ----\nEXTENDS Inner\nLimitImpl(n) == n >= 3\n====\n",
        "CONSTANT Limit <- LimitImpl\nINIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["distinct_states"], 4, "{json}");
}

#[test]
fn an_evaluation_error_in_the_only_action_is_an_error_not_a_deadlock() {
    // TLC stops at the error in `x + 1`; a state without successors because of it is no deadlock.
    let module = module_with(
        "only-action-error",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = \"a\"\n\
         Next == x' = x + 1\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    for search in [&[][..], &["--symbolic"], &["--por"]] {
        let (code, out, err) = bsolve(&[&["mc", &module][..], search].concat());
        assert_eq!(code, 1, "{search:?}: {out}{err}");
        assert!(out.contains("WELL-DEFINEDNESS ERROR"), "{search:?}: {out}");
        assert!(
            out.contains("M.tla:5:14: \"a\" is not an integer"),
            "{search:?}: {out}"
        );
    }
}

#[test]
fn comparing_a_string_with_an_integer_is_an_error_at_its_position() {
    let module = module_with(
        "string-comparison",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x \\in {\"a\", 1}\n\
         Next == x < 5 /\\ x' = x + 1\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    let (code, out, err) = bsolve(&["mc", &module]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("WELL-DEFINEDNESS ERROR"), "{out}");
    assert!(out.contains("M.tla:5:9: \"a\" is not an integer"), "{out}");
}

/// `bsolve mc MODULE` finds no error in exactly `states` distinct states.
fn explores_without_error(module: &str, states: usize) {
    let (code, out, err) = bsolve(&["mc", module]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("NO ERROR FOUND"), "{out}");
    let count = format!("distinct states: {states} (TLC's count)");
    assert!(out.contains(&count), "{out}");
}

/// `models/tla/NAME.tla` explores `states` distinct states without error, and with `NAMEViolated.cfg`
/// fails an invariant with a trace of `trace_states` states (TLC's count: the initial one included).
fn counted_then_violated(name: &str, states: usize, trace_states: usize) {
    let module = model_arg(&format!("tla/{name}.tla"));
    explores_without_error(&module, states);
    let violated = model_arg(&format!("tla/{name}Violated.cfg"));
    let (code, out, err) = bsolve(&["mc", &module, "--config", &violated]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("INVARIANT VIOLATION"), "{out}");
    assert!(
        out.contains(&format!("trace ({trace_states} states)")),
        "{out}"
    );
}

#[test]
fn records_with_different_fields_share_a_message_set() {
    counted_then_violated("Messages", 68, 3);
}

#[test]
fn two_element_tuples_are_pairs_or_sequences_as_their_uses_say() {
    counted_then_violated("Tuples", 16, 3);
}

#[test]
fn action_level_if_and_case_become_one_guarded_operation_per_arm() {
    // models/tla/GuardedActions.tla: 10 states counted by hand in the module; the overlapping CASE
    // guards take the first true arm (NeverThree holds). Step's IF (under a conjunction, reached through
    // Proc) splits into five guarded operations: the then arm, the inner IF's then arm and the three CASE
    // arms, so that slot (of mixed type) is assigned, not listed from its type.
    counted_then_violated("GuardedActions", 10, 3);
    let module = model_arg("tla/GuardedActions.tla");
    let (code, out, err) = bsolve(&["check", &module]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("operation Step_5(v:INTEGER)\n"), "{out}");
    assert!(!out.contains("Step_6"), "{out}");
}

#[test]
fn an_action_level_case_with_no_true_arm_is_an_error_as_in_tlc() {
    // No OTHER: TLC stops where no guard holds (x = "two"); the arm left for that case is ill-defined.
    let module = module_with(
        "case-no-arm",
        "---- MODULE M ----\nCONSTANT None\nVARIABLE x\nInit == x = None\n\
         Next == CASE x = None -> x' = 1 [] x = 1 -> x' = \"two\"\n====\n",
        "CONSTANT None = None\nINIT Init\nNEXT Next\n",
    );
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "WELL-DEFINEDNESS ERROR");
    assert_eq!(json["distinct_states"], 3, "{json}");
    assert_eq!(common::operations(&json["trace"]).len(), 3, "{json}");
}

#[test]
fn a_tuple_that_no_use_decides_is_a_pair_if_its_components_differ() {
    // `t` is never met by `\X`, Len or Append: <<1, "a">> cannot be a sequence without mixing kinds,
    // <<1, 2>> is one; both answer [1] and [2].
    let module = module_with(
        "undecided-tuples",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLES t, u\nInit == t = <<1, \"a\">> /\\ u = <<1, 2>>\n\
         Next == t[1] < 3 /\\ t' = <<t[1] + 1, t[2]>> /\\ u' = <<u[2], u[1]>>\n\
         Inv == t[2] = \"a\" /\\ u[1] + u[2] = 3 /\\ t[1] <= 3\n====\n",
        "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
    );
    explores_without_error(&module, 3);
}

#[test]
fn a_field_of_a_record_of_mixed_type_is_typed_from_the_records_that_give_it() {
    // `m` holds records with different fields; `m.votes[1].bal` reads a field that only the record
    // literals type (a function to records).
    let module = module_with(
        "mixed-record-field",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE msgs\n\
         Votes(b) == [s \\in {1, 2} |-> [bal |-> b]]\n\
         Init == msgs = {[type |-> \"a\", votes |-> Votes(0)]}\n\
         Next == \\E m \\in msgs : m.type = \"a\" /\\ m.votes[1].bal < 2 /\\\n\
                 msgs' = msgs \\cup {[type |-> \"b\"], [type |-> \"a\", votes |-> Votes(m.votes[1].bal + 1)]}\n\
         Inv == \\A m \\in msgs : m.type = \"a\" => m.votes[2].bal <= 2\n====\n",
        "INIT Init\nNEXT Next\nINVARIANT Inv\n",
    );
    explores_without_error(&module, 3);
}

#[test]
fn a_missing_record_field_is_an_error_at_its_position() {
    let module = module_with(
        "missing-field",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE r\nInit == r = [a |-> 1]\n\
         Next == \\/ r.a = 1 /\\ r' = [b |-> 2]\n        \\/ r.b = 2 /\\ r' = r\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    let (code, out, err) = bsolve(&["mc", &module]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("WELL-DEFINEDNESS ERROR"), "{out}");
    assert!(out.contains("the record has no field"), "{out}");
}

#[test]
fn an_action_that_leaves_a_variable_without_a_value_is_an_error_as_in_tlc() {
    // TLC: "Successor state is not completely specified by action ...: the following variable is not
    // assigned: x". The second disjunct says nothing of x; it is enabled in the initial state.
    let module = module_with(
        "unassigned-next",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n\
         Next == (x < 2 /\\ x' = x + 1 /\\ y' = y) \\/ (y' = 1 - y)\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    for search in [&[][..], &["--symbolic"], &["--por"]] {
        let (code, out, err) = bsolve(&[&["mc", &module][..], search].concat());
        assert_eq!(code, 1, "{search:?}: {out}{err}");
        assert!(
            out.starts_with("WELL-DEFINEDNESS ERROR"),
            "{search:?}: {out}"
        );
        assert!(
            out.contains(
                "M.tla:5:45: assertion failed: successor state not completely specified by \
                 action Next_2: x' is not assigned (TLA+)"
            ),
            "{search:?}: {out}"
        );
    }
    let (code, json) = bsolve_json(&["mc", &module]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(common::operations(&json["trace"]).len(), 1, "{json}");
}

#[test]
fn a_part_assigning_every_variable_or_never_yielding_a_state_is_no_error() {
    // `UNCHANGED vars` and `UNCHANGED y` assign; the third disjunct (y unassigned) is never enabled and
    // the fourth has no successor (`x' \in {}`), so TLC reports nothing: 3 states, as TLC counts.
    let module = module_with(
        "assigned-next",
        r"---- MODULE M ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
Next == \/ x < 2 /\ x' = x + 1 /\ UNCHANGED y
        \/ x = 2 /\ UNCHANGED vars
        \/ x > 5 /\ x' = x
        \/ x' \in {}
====
",
        "INIT Init\nNEXT Next\n",
    );
    explores_without_error(&module, 3);
}

#[test]
fn an_initial_predicate_that_leaves_a_variable_without_a_value_is_an_error_as_in_tlc() {
    // TLC: "The variable y was not initialized". Next types y; Init says nothing of it.
    let module = module_with(
        "unassigned-init",
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x = 0\n\
         Next == x < 2 /\\ x' = x + 1 /\\ y' = 1\n====\n",
        "INIT Init\nNEXT Next\n",
    );
    let (code, out, err) = bsolve(&["mc", &module]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("WELL-DEFINEDNESS ERROR"), "{out}");
    assert!(
        out.contains(
            "M.tla:4:9: assertion failed: initial state not completely specified by Init: y is not \
             assigned (TLA+)"
        ),
        "{out}"
    );
}

/// `models/tla/TraceValues.tla` (a value of every kind in each state) with `args` after it, and a fresh
/// `--itf` file path for the test `test` (removed first).
fn trace_values_with_itf(test: &str) -> (String, String) {
    let itf =
        std::env::temp_dir().join(format!("bsolve-tla-{test}-{}.itf.json", std::process::id()));
    let _ = std::fs::remove_file(&itf);
    (model_arg("tla/TraceValues.tla"), itf.display().to_string())
}

/// The ITF file a check wrote, parsed.
fn read_itf(path: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON ({e}): {text}"))
}

#[test]
fn a_trace_prints_whole_states_in_tla_syntax_as_tlc_does() {
    let (code, out, err) = bsolve(&["mc", &model_arg("tla/TraceValues.tla")]);
    assert_eq!(code, 1, "{out}{err}");
    let expected = "trace (3 states):\n\
        State 1: <Initial predicate>\n\
        /\\ n = 0\n\
        /\\ flag = FALSE\n\
        /\\ name = \"start\"\n\
        /\\ seen = {}\n\
        /\\ pair = <<0, \"none\">>\n\
        /\\ log = <<>>\n\
        /\\ msg = [hops |-> 0, note |-> \"start\"]\n\
        /\\ count = (p1 :> 0 @@ p2 :> 0)\n\
        \n\
        State 2: <Step(p1)>\n\
        /\\ n = 1\n\
        /\\ flag = TRUE\n\
        /\\ name = \"step\"\n\
        /\\ seen = {p1}\n\
        /\\ pair = <<1, \"step\">>\n\
        /\\ log = <<0>>\n\
        /\\ msg = [hops |-> 1, note |-> \"start\"]\n\
        /\\ count = (p1 :> 1 @@ p2 :> 0)\n\
        \n\
        State 3: <Step(p1)>\n";
    assert!(out.contains(expected), "{out}");
    // A set of 2-tuples no expression applies stays a set of tuples (models/tla/Tuples.tla's `sent`).
    let tuples = model_arg("tla/Tuples.tla");
    let cfg = model_arg("tla/TuplesViolated.cfg");
    let (_, out, _) = bsolve(&["mc", &tuples, "--config", &cfg]);
    assert!(
        out.contains("/\\ sent = {<<p1, \"ECHO\">>}\n/\\ log = <<<<p1, 0>>>>\n"),
        "{out}"
    );
}

#[test]
fn itf_export_writes_every_state_with_values_encoded_as_itf_says() {
    let (module, itf) = trace_values_with_itf("itf-mc");
    let (code, out, err) = bsolve(&["mc", &module, "--itf", &itf]);
    assert_eq!(code, 1, "{out}{err}");
    let trace = read_itf(&itf);
    assert_eq!(trace["#meta"]["format"], "ITF", "{trace}");
    assert_eq!(trace["#meta"]["source"], module.as_str(), "{trace}");
    let vars = ["n", "flag", "name", "seen", "pair", "log", "msg", "count"];
    assert_eq!(trace["vars"], serde_json::json!(vars), "{trace}");
    let states = trace["states"].as_array().expect("states");
    assert_eq!(states.len(), 3, "the text trace's three states: {trace}");
    for (i, state) in states.iter().enumerate() {
        assert_eq!(state["#meta"]["index"], i, "{state}");
        assert!(vars.iter().all(|v| state.get(v).is_some()), "{state}");
    }
    let second = &states[1];
    let expected = serde_json::json!({
        "n": {"#bigint": "1"},
        "flag": true,
        "name": "step",
        "seen": {"#set": ["p1_OF_MODEL_VALUES"]},
        "pair": {"#tup": [{"#bigint": "1"}, "step"]},
        "log": [{"#bigint": "0"}],
        "msg": {"hops": {"#bigint": "1"}, "note": "start"},
        "count": {"#map": [["p1_OF_MODEL_VALUES", {"#bigint": "1"}], ["p2_OF_MODEL_VALUES", {"#bigint": "0"}]]},
    });
    for v in vars {
        assert_eq!(second[v], expected[v], "{v} in {second}");
    }
}

#[test]
fn itf_export_serves_bmc_and_simulate_too() {
    let (module, itf) = trace_values_with_itf("itf-bmc");
    let (code, out, err) = bsolve(&["bmc", &module, "4", "--itf", &itf]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("State 1: <Initial predicate>"), "{out}");
    assert_eq!(read_itf(&itf)["states"].as_array().map(Vec::len), Some(3));
    let (module, itf) = trace_values_with_itf("itf-simulate");
    let (code, out, err) = bsolve(&["simulate", &module, "--itf", &itf]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(read_itf(&itf)["states"].as_array().map(Vec::len), Some(3));
}

#[test]
fn itf_export_without_a_trace_writes_no_file_and_says_so() {
    let (_, itf) = trace_values_with_itf("itf-none");
    let (code, out, err) = bsolve(&["mc", &model_arg("tla/Counter.tla"), "--itf", &itf]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!std::path::Path::new(&itf).exists(), "{itf} written");
    assert!(
        err.contains(&format!("no counterexample trace: {itf} not written")),
        "{err}"
    );
}

#[test]
fn itf_export_to_an_unwritable_path_is_bad_input_naming_the_path() {
    let missing = std::env::temp_dir().join(format!("bsolve-no-such-dir-{}", std::process::id()));
    let itf = missing.join("trace.itf.json").display().to_string();
    let module = model_arg("tla/TraceValues.tla");
    rejected_with(
        3,
        &["mc", &module, "--itf", &itf],
        &itf,
        "no such directory",
    );
    let dir = std::env::temp_dir().display().to_string();
    rejected_with(
        3,
        &["bmc", &module, "4", "--itf", &dir],
        &dir,
        "is a directory",
    );
}
