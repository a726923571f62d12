#!/usr/bin/env python3
"""Runs bsolve over the external conformance corpus and writes the figures into benchmarks/CORPUS.md.

    python3 benchmarks/corpus.py check   # parse + type-check every machine: success rate, failures by cause
    python3 benchmarks/corpus.py mc      # explicit MC vs ProB's recorded verdicts and state counts
                                         # (per machine: benchmarks/corpus_mc_results.csv)
    python3 benchmarks/corpus.py speed   # mc time and memory on the machines with >= 10,000 states,
                                         # beside ProB's recorded time (section of benchmarks/RESULTS.md)
    python3 benchmarks/corpus.py temporal  # every ASSERT_LTL / ASSERT_CTL definition: parsed, decided within
                                         # 10 s, verdict beside what its name or comment expects
    python3 benchmarks/corpus.py por     # mc with and without --por on every machine: same deadlock and
                                         # violation verdicts; states and times before/after (section of
                                         # benchmarks/RESULTS.md; per machine: benchmarks/corpus_por_results.csv)
    python3 benchmarks/corpus.py symmetry  # mc with and without --symmetry canon on every machine with a
                                         # symmetric deferred set: same verdicts, full count = plain count;
                                         # orbits and times (section of benchmarks/RESULTS.md; per machine:
                                         # benchmarks/corpus_symmetry_results.csv)
    python3 benchmarks/corpus.py cbc     # `cbc all` and `cbc-deadlock` on every machine with variables: no
                                         # crash, no contradiction of ProB's reachable verdicts
                                         # (per machine: benchmarks/corpus_cbc_results.csv)

Needs a release build (cargo build --release) and ../shared/corpus. Each section of CORPUS.md between
`<!-- BEGIN name -->` and `<!-- END name -->` is replaced by the new figures; the rest is kept.
"""
import csv
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
MODELS = CORPUS / "models"
BINARY = Path(os.environ.get("BSOLVE", Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "bsolve"))
REPORT = ROOT / "benchmarks" / "CORPUS.md"
MC_TIMEOUT_MS = 10_000


def run(args, timeout):
    try:
        p = subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "killed after %ss" % timeout


def is_crash(code):
    """Exit codes 0-3 are answers (3: a diagnostic); a panic (101), a signal or a hang is a crash."""
    return code is None or code not in (0, 1, 2, 3)


def machine_files():
    return sorted(p for p in MODELS.rglob("*") if p.suffix in (".mch", ".ref", ".imp"))


def failure_cause(message):
    """Groups diagnostics: drop positions, identifiers and numbers so that one cause is one line."""
    first = message.strip().splitlines()[0] if message.strip() else "(no message)"
    first = re.sub(r"^\S+:\d+:\d+: ", "", first)
    first = re.sub(r"`[^`]*`", "`…`", first)
    first = re.sub(r"\d+", "N", first)
    return first[:110]


def check_corpus():
    files = machine_files()
    start = time.time()
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda f: (f, run(["check", str(f)], 60)), files))
    elapsed = time.time() - start
    regular = [(f, r) for f, r in results if "ErrorMachines" not in f.parts]
    errors = [(f, r) for f, r in results if "ErrorMachines" in f.parts]
    ok = [f for f, (code, _, _) in regular if code == 0]
    causes = defaultdict(list)
    crashes = []
    for f, (code, out, err) in regular:
        if code != 0:
            if is_crash(code):
                crashes.append(f)
            causes[failure_cause(err)].append(f.relative_to(MODELS))
    error_crashes = [f for f, (code, _, _) in errors if is_crash(code)]
    # Machines ProB itself loaded: expected.csv records a verdict (not ':unknown') for them.
    with open(CORPUS / "expected.csv") as f:
        prob_loaded = {r["model"] for r in csv.DictReader(f) if r["deadlock"] != ":unknown"}
    by_prob = [(f, r) for f, r in regular if str(f.relative_to(MODELS)) in prob_loaded]
    by_prob_ok = [f for f, (code, _, _) in by_prob if code == 0]
    by_prob_failed = [str(f.relative_to(MODELS)) for f, (code, _, _) in by_prob if code != 0]
    error_accepted = [f for f, (code, _, _) in errors if code == 0]
    lines = [
        f"Command: `python3 benchmarks/corpus.py check` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores; "
        f"one `bsolve check` process per file, wall time {elapsed:.1f} s in all).",
        "",
        f"- Machines outside `B/ErrorMachines`: **{len(ok)} / {len(regular)} parse and type-check "
        f"({100.0 * len(ok) / max(1, len(regular)):.1f} %)**; crashes (panic, signal or hang): {len(crashes)}.",
        f"- Of these, machines ProB loaded (expected.csv records a verdict): **{len(by_prob_ok)} / {len(by_prob)} "
        f"parse and type-check**; the others: {', '.join(f'`{f}`' for f in by_prob_failed) or 'none'}.",
        f"- `B/ErrorMachines`: {len(errors)} machines, {len(errors) - len(error_accepted)} rejected with a diagnostic, "
        f"{len(error_accepted)} accepted, {len(error_crashes)} crashes.",
        "",
        "Remaining failures by cause (count, cause, examples):",
        "",
        "| count | cause | examples |",
        "|---:|---|---|",
    ]
    for cause, fs in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        examples = ", ".join(f"`{f}`" for f in fs[:3])
        escaped = cause.replace("|", "\\|")
        lines.append(f"| {len(fs)} | {escaped} | {examples} |")
    if error_accepted:
        lines += ["", "ErrorMachines accepted (their error is semantic, e.g. found only by model checking):", ""]
        lines += [f"- `{f.relative_to(MODELS)}`" for f in error_accepted]
    write_section("check", "\n".join(lines))


def prob_verdict(row):
    if row["deadlock"] == "true":
        return "deadlock"
    if row["invariant_violated"] == "true":
        return "invariant"
    if row["deadlock"] == "false" and row["invariant_violated"] == "false":
        return "none"
    return None


# ProB records a machine without constant setup or initial state as deadlocked in its root node.
STATUS = {"DEADLOCK": "deadlock", "INVARIANT VIOLATION": "invariant", "NO ERROR FOUND": "none",
          "NO ERROR FOUND IN THE EXPLORED PART": "none",
          "NO CONSTANT SETUP": "deadlock", "NO INITIALISATION": "deadlock"}
FOCUS = {"deadlock": ["--no-inv"], "invariant": ["--no-deadlock"]}


# The preferences of ProB's recorded run. They were given on its command line, overriding the machines'
# own SET_PREF_ definitions: B/Puzzles/NQueens.mch sets MAX_INITIALISATIONS 10, yet ProB recorded all 92
# solutions (184 states); CrewAllocationConstants_v2 sets 1 and has 1728 setups recorded (3456 states);
# NoNeighboursProblem (2624 setups) and CopelandVoting (3072) exceed 1000. NQueens_Completion and
# BinomialCoefficients set MAX_OPERATIONS 10 / 60 and are recorded with 1000.
# Nor did that run check ASSERTIONS: the six machines whose assertions fail (WhoKilledAgatha_wrongassert,
# phonebook, AbsInt, QuantifiersExplanations, Sorting2, Monotone) are recorded with the verdict and the exact
# counts of a run without them (e.g. phonebook 125 / 2290, QuantifiersExplanations deadlock 2 / 2).
# And it went on past deadlocks: its counts for deadlocking machines are those of the whole state space
# (KnightsTour: 508,462 states, where a breadth-first search meets its first dead end after 209;
# CardinalityLaws 1024 / 2038, DeadlockBools 128 / 192: 189 of the 236 machines recorded with a deadlock
# only have exactly the counts of a full exploration). It went on past invariant violations too, expanding
# the violating states: B/Benchmarks/tictac.mch 6,046 / 19,108, B/Mathematical/TLA/TLA_GraphState.mch
# 32,768 / 409,601, B/Demo/GCD.mch 13 / 144 are the whole state spaces, where a search stopping at the first
# violation sees 2,476, 10,002 and 8 states (32 of the 41 invariant-violating machines up to 10^6 states
# have exactly the full counts; a few, such as phonebook3 with 10 of 20,553 states, do not).
RECORDING_PREFS = ["-p", "MAX_INITIALISATIONS=100000", "-p", "MAX_OPERATIONS=1000", "--no-assertions",
                   "--all-deadlocks", "--all-violations"]


def mc_budget_ms(row):
    """10 s, or a tenth of ProB's recorded time when that is longer: the budget the speed target
    (>= 10x ProB) gives a machine."""
    prob_ms = int(row["prob_mc_ms"]) if row["prob_mc_ms"].isdigit() else 0
    return max(MC_TIMEOUT_MS, prob_ms // 10)


def model_check(path, extra=(), budget_ms=MC_TIMEOUT_MS):
    prefs = [p for p in RECORDING_PREFS
             if not (p == "--all-deadlocks" and "--no-deadlock" in extra)
             and not (p == "--all-violations" and "--no-inv" in extra)]
    code, out, err = run(["mc", str(path), "--json", "--timeout", str(budget_ms), *prefs, *extra],
                         budget_ms / 1000 + 20)
    if code is None:
        return {"status": "KILLED"}
    try:
        return json.loads(out)
    except json.JSONDecodeError:
        return {"status": "CRASH", "detail": (err or out)[:200]}


def mc_one(row):
    path = MODELS / row["model"]
    expected = prob_verdict(row)
    budget = mc_budget_ms(row)
    result = model_check(path, budget_ms=budget)
    ours = STATUS.get(result.get("status"))
    if result.get("status") == "WELL-DEFINEDNESS ERROR" and result.get("exploration_complete"):
        # Ill-defined operation instances in an otherwise fully explored state space: ProB's columns
        # (deadlock, invariant) record neither.
        ours = "none"
    if row["deadlock"] == "true" and row["invariant_violated"] == "true" and ours in FOCUS:
        # ProB recorded both kinds (13 machines): either is its verdict.
        expected = ours
    if expected in FOCUS and ours != expected and ours is not None:
        # ProB stops at its first error: ours may have met another kind first. Look for ProB's kind alone.
        focused = model_check(path, FOCUS[expected], budget)
        if STATUS.get(focused.get("status")) == expected:
            result, ours = focused, expected
    return row, expected, ours, result


def mc_corpus():
    with open(CORPUS / "expected.csv") as f:
        rows = [r for r in csv.DictReader(f) if "ErrorMachines" not in r["model"]]
    start = time.time()
    # A machine whose budget is a tenth of ProB's time (the speed target's) runs alone, as the speed
    # table measures it: beside another job, its two workers would share the two cores.
    heavy = [r for r in rows if mc_budget_ms(r) > MC_TIMEOUT_MS]
    with ThreadPoolExecutor(2) as pool:
        by_model = {r["model"]: x for r, x in zip(
            (r for r in rows if r not in heavy), pool.map(mc_one, [r for r in rows if r not in heavy]))}
    by_model.update({r["model"]: mc_one(r) for r in heavy})
    results = [by_model[r["model"]] for r in rows]
    elapsed = time.time() - start
    with open(ROOT / "benchmarks" / "corpus_mc_results.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["model", "prob_verdict", "bsolve_verdict", "bsolve_status", "prob_states", "bsolve_states",
                      "prob_transitions", "bsolve_transitions", "bsolve_ms"])
        for r, e, o, res in results:
            out.writerow([r["model"], e or "", o or "", res.get("status", ""), r["states"], res.get("states", ""),
                          r["transitions"], res.get("transitions", ""), res.get("time_ms", "")])
    finished = [(r, e, o, res) for r, e, o, res in results if o is not None and e is not None]
    agree = [x for x in finished if x[1] == x[2]]
    disagree = [x for x in finished if x[1] != x[2]]
    both_clean = [(r, res) for r, e, o, res in agree if e == "none"]
    counts_equal = [(r, res) for r, res in both_clean
                    if str(res.get("states")) == r["states"] and str(res.get("transitions")) == r["transitions"]]
    # The issues' measures: machines where ProB recorded both verdicts and at most 100,000 (native solver
    # issue) or 10^6 (model-checking issue) states.
    def at_most(r, limit):
        try:
            return int(r["states"]) <= limit
        except ValueError:
            return False
    target = [(r, e, o) for r, e, o, res in results if e is not None and at_most(r, 100_000)]
    target_agree = [x for x in target if x[1] == x[2]]
    wide = [(r, e, o, res) for r, e, o, res in results if e is not None and at_most(r, 1_000_000)]
    wide_agree = [x for x in wide if x[1] == x[2]]
    wide_counts = [x for x in wide_agree
                   if str(x[3].get("states")) == x[0]["states"] and str(x[3].get("transitions")) == x[0]["transitions"]]
    unfinished = Counter()
    for r, e, o, res in results:
        if e is None:
            unfinished["ProB recorded no verdict"] += 1
        elif o is None:
            why = res["error"]["message"] if "error" in res else res.get("detail", "")
            unfinished[res.get("status", "?") + (": " + failure_cause(why) if why else "")] += 1
    lines = [
        f"Command: `python3 benchmarks/corpus.py mc` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
        f"`bsolve mc --timeout T {' '.join(RECORDING_PREFS)}` per machine (the preferences of ProB's "
        f"recorded run, see corpus.py; T is {MC_TIMEOUT_MS // 1000} s or a tenth of ProB's recorded time when "
        f"that is longer, the budget of the speed target — those machines run one at a time, the others two at a "
        f"time), default backend; an exploration that meets only ill-defined operation "
        f"instances counts as \"no deadlock, no invariant violation\", as ProB's columns record it; wall time "
        f"{elapsed:.0f} s).",
        "",
        f"- **Machines where ProB recorded both verdicts and at most 100,000 states: {len(target)}; bsolve reaches "
        f"ProB's verdict on {len(target_agree)} ({100.0 * len(target_agree) / max(1, len(target)):.1f} %)** "
        "(unfinished runs count as disagreements here).",
        f"- **Machines where ProB recorded both verdicts and at most 10^6 states: {len(wide)}; bsolve reaches "
        f"ProB's verdict on {len(wide_agree)} ({100.0 * len(wide_agree) / max(1, len(wide)):.1f} %), with ProB's "
        f"state and transition counts on {len(wide_counts)} ({100.0 * len(wide_counts) / max(1, len(wide)):.1f} %)** "
        "(both go on past deadlocks and invariant violations, so the counts are those of the whole state space).",
        f"- Machines in expected.csv outside ErrorMachines: {len(rows)}.",
        f"- Finished within the limit with a verdict comparable to ProB's: {len(finished)}.",
        f"- **Verdict agreement (deadlock / invariant violation / no error): {len(agree)} / {len(finished)}**.",
        f"- Both found no error: {len(both_clean)}; of these, identical state and transition counts: "
        f"{len(counts_equal)} / {len(both_clean)}.",
        "",
        "Disagreements (ProB's verdict vs ours):",
        "",
    ]
    lines += [f"- `{r['model']}`: ProB {e}, bsolve {o} ({res.get('detail', '')[:100]})" for r, e, o, res in disagree] or ["- none"]
    lines += ["", "State-count differences where the verdicts agree, up to 10^6 states (ProB states/transitions "
              "vs ours):", ""]
    diffs = [(r, e, res) for r, e, o, res in wide_agree
             if (str(res.get("states")), str(res.get("transitions"))) != (r["states"], r["transitions"])]
    lines += [f"- `{r['model']}` ({e}): {r['states']}/{r['transitions']} vs {res.get('states')}/{res.get('transitions')}"
              for r, e, res in diffs] or ["- none"]
    lines += ["", "Not compared (count, reason):", ""]
    lines += [f"- {n}: {why}" for why, n in unfinished.most_common()]
    write_section("mc", "\n".join(lines))


SPEED_MIN_STATES = 10_000
SPEED_TIMEOUT_MS = 120_000


def mc_speed():
    """One machine at a time (the checker itself uses both cores), so that times are not contended."""
    with open(CORPUS / "expected.csv") as f:
        rows = [r for r in csv.DictReader(f)
                if "ErrorMachines" not in r["model"] and r["states"].isdigit()
                and int(r["states"]) >= SPEED_MIN_STATES]
    rows.sort(key=lambda r: int(r["states"]))
    lines = [
        f"Command: `python3 benchmarks/corpus.py speed` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
        f"`bsolve mc --json --timeout {SPEED_TIMEOUT_MS} {' '.join(RECORDING_PREFS)}` per machine, one machine at a "
        "time). ProB's time and states are the corpus' `prob_mc_ms` and `states`; its recorded runs went on past "
        "deadlocks and invariant violations, and bsolve runs with the same preferences "
        "(`--all-deadlocks --all-violations`), so the whole state space is explored by both. Memory: the "
        "process's peak resident set divided by the states stored. CPU ms: the process's user + system time over all threads — when other "
        "processes share the cores, wall time grows but CPU time does not. Speed-up by wall time, and by CPU "
        "time (all threads' work, so never flattering a parallel run: on a quiet machine wall time is at most "
        "the CPU time).",
        "",
        "| machine | ProB states | ProB ms | bsolve status | bsolve states | bsolve ms | CPU ms | speed-up (wall) "
        "| speed-up (CPU) | bytes/state |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    fast = fast_cpu = 0
    for r in rows:
        code, out, err = run(["mc", str(MODELS / r["model"]), "--json", "--timeout", str(SPEED_TIMEOUT_MS), *RECORDING_PREFS],
                             SPEED_TIMEOUT_MS / 1000 + 30)
        try:
            res = json.loads(out)
        except json.JSONDecodeError:
            res = {"status": "KILLED" if code is None else "CRASH"}
        ms = res.get("time_ms")
        prob_ms = int(r["prob_mc_ms"]) if r["prob_mc_ms"].isdigit() else None
        finished = res.get("status") in ("NO ERROR FOUND", "NO ERROR FOUND IN THE EXPLORED PART", "DEADLOCK",
                                         "INVARIANT VIOLATION", "ASSERTION VIOLATION")
        ratio = prob_ms / max(ms, 1) if (finished and prob_ms and ms is not None) else None
        fast += ratio is not None and ratio >= 10
        states = res.get("states", "")
        mem = res.get("peak_memory_kib")
        per_state = f"{mem * 1024 / max(states, 1):.0f}" if mem and isinstance(states, int) else ""
        cpu = res.get("cpu_ms")
        cpu_ratio = prob_ms / max(cpu, 1) if (finished and prob_ms and cpu is not None) else None
        fast_cpu += cpu_ratio is not None and cpu_ratio >= 10
        lines.append(f"| `{r['model']}` | {r['states']} | {r['prob_mc_ms']} | {res.get('status', '')} | {states} | "
                     f"{'' if ms is None else ms} | {'' if cpu is None else cpu} | "
                     f"{'' if ratio is None else f'{ratio:.1f}x'} | "
                     f"{'' if cpu_ratio is None else f'{cpu_ratio:.1f}x'} | {per_state} |")
        print(lines[-1], flush=True)
    lines += ["", f"**{fast} / {len(rows)} machines finished at least 10x faster than ProB's recorded time by wall "
              f"time, {fast_cpu} / {len(rows)} by CPU time.**"]
    write_section("mc-speed", "\n".join(lines), ROOT / "benchmarks" / "RESULTS.md")


CBC_TIMEOUT_MS = 5_000


def symbolic_json(args):
    code, out, err = run([*args, "--json", "--timeout", str(CBC_TIMEOUT_MS)], CBC_TIMEOUT_MS / 1000 * 6 + 30)
    if code is None:
        return code, {"status": "KILLED"}
    try:
        return code, json.loads(out)
    except json.JSONDecodeError:
        return code, {"status": "CRASH" if is_crash(code) else "ERROR", "detail": (err or out).strip()[:200]}


def cbc_one(row):
    path = str(MODELS / row["model"])
    cbc_code, cbc = symbolic_json(["cbc", path, "all"])
    dl_code, dl = symbolic_json(["cbc-deadlock", path])
    return row, (cbc_code, cbc), (dl_code, dl)


def cbc_summary(cbc):
    """`cbc all` in one word: a replayed counterexample, every operation preserved (complete), or unknown."""
    statuses = [r.get("status") for r in cbc.get("results", [])]
    if not statuses:
        return cbc.get("status", "ERROR")
    if "COUNTEREXAMPLE" in statuses:
        return "COUNTEREXAMPLE"
    if all(s == "PRESERVED" for s in statuses):
        return "PRESERVED"
    return "UNKNOWN"


def cbc_corpus():
    """A contradiction is a complete "cannot happen" where ProB reached it: every operation (and the
    INITIALISATION) preserving an invariant ProB saw violated, or no deadlock state satisfying the
    invariant where ProB reached a deadlock with the invariant intact."""
    with open(CORPUS / "expected.csv") as f:
        rows = [r for r in csv.DictReader(f)
                if "ErrorMachines" not in r["model"] and r["variables"].isdigit() and int(r["variables"]) > 0]
    start = time.time()
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(cbc_one, rows))
    elapsed = time.time() - start
    crashes, contradictions = [], []
    cbc_counts, dl_counts = Counter(), Counter()
    with open(ROOT / "benchmarks" / "corpus_cbc_results.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["model", "prob_deadlock", "prob_invariant_violated", "cbc_all", "cbc_deadlock"])
        for row, (cbc_code, cbc), (dl_code, dl) in results:
            ours_cbc, ours_dl = cbc_summary(cbc), dl.get("status", "ERROR")
            cbc_counts[ours_cbc] += 1
            dl_counts[ours_dl] += 1
            out.writerow([row["model"], row["deadlock"], row["invariant_violated"], ours_cbc, ours_dl])
            for command, code, res in (("cbc all", cbc_code, cbc), ("cbc-deadlock", dl_code, dl)):
                if is_crash(code) or res.get("status") in ("CRASH", "KILLED"):
                    crashes.append(f"`{row['model']}` ({command}): {res.get('status')} {res.get('detail', '')[:80]}")
            if row["invariant_violated"] == "true" and ours_cbc == "PRESERVED":
                contradictions.append(f"`{row['model']}`: ProB reached an invariant violation, `cbc all` says "
                                      "every operation preserves the invariant")
            # With at most one state (the root) ProB never reached an initialised state: its "deadlock" is
            # the missing constant setup or INITIALISATION, which cbc-deadlock's states do not cover.
            reached_state = row["states"].isdigit() and int(row["states"]) >= 2
            if (row["deadlock"] == "true" and row["invariant_violated"] == "false" and reached_state
                    and ours_dl == "NO DEADLOCK"):
                contradictions.append(f"`{row['model']}`: ProB reached a deadlock, `cbc-deadlock` says no state "
                                      "satisfying the invariant is one")
    lines = [
        f"Command: `python3 benchmarks/corpus.py cbc` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
        f"`bsolve cbc FILE all` and `bsolve cbc-deadlock FILE`, each `--json --timeout {CBC_TIMEOUT_MS}`, on every "
        f"machine of expected.csv with variables outside ErrorMachines; wall time {elapsed:.0f} s; per machine in "
        "`benchmarks/corpus_cbc_results.csv`).",
        "",
        f"- Machines: {len(results)}.",
        f"- **Crashes (panic, signal, hang past the limit): {len(crashes)}.**",
        f"- **Contradictions of ProB's reachable verdicts: {len(contradictions)}** (an invariant violation ProB "
        "reached while `cbc all` proves every operation and the INITIALISATION preserve the invariant; a "
        "deadlock ProB reached with the invariant intact, in an initialised state, while `cbc-deadlock` "
        "proves no state satisfying the invariant is one; ProB's deadlocks at the root, where no constant "
        "setup or INITIALISATION exists, are not states cbc-deadlock looks at).",
        "- `cbc all`: " + ", ".join(f"{k} {v}" for k, v in cbc_counts.most_common()) + ".",
        "- `cbc-deadlock`: " + ", ".join(f"{k} {v}" for k, v in dl_counts.most_common()) + ".",
        "",
    ]
    if crashes:
        lines += ["Crashes:", ""] + [f"- {c}" for c in crashes] + [""]
    if contradictions:
        lines += ["Contradictions:", ""] + [f"- {c}" for c in contradictions] + [""]
    write_section("cbc", "\n".join(lines))


TEMPORAL_TIMEOUT_MS = 10_000


def expected_temporal(name, line):
    """What a definition's name or its line's comment says: `_FAIL` / `_FALSE` / `/* FALSE */` /
    `/* violated */` / `is false` false (not "violated without ...", which describes another formula),
    `/* TRUE */` true, otherwise true by the convention that assertions hold."""
    comment = re.search(r"/\*\s*([^*]*?)\s*\*/", line)
    said = comment.group(1).lower() if comment else ""
    violated = said.startswith("violated") and "without" not in said
    if name.endswith("_FAIL") or name.endswith("_FALSE") or said.startswith("false") or violated \
            or "is false" in said:
        return "FALSE"
    if said.startswith("true") or "is true" in said:
        return "TRUE"
    return "TRUE (convention)"


def temporal_corpus():
    rows = []
    for path in machine_files():
        text = path.read_text(errors="replace")
        if "ASSERT_LTL" not in text and "ASSERT_CTL" not in text:
            continue
        lines = {m.group(1): line for line in text.splitlines()
                 for m in re.finditer(r"(ASSERT_(?:LTL|CTL)\w*)\s*==", line)
                 if not line.strip().startswith("/*") and not line.strip().startswith("//")}
        for logic in ("ltl", "ctl"):
            if f"ASSERT_{logic.upper()}" not in text:
                continue
            start = time.time()
            code, out, err = run(["--timeout", str(TEMPORAL_TIMEOUT_MS), "--json", logic, str(path), "--assertions"],
                                 timeout=120 + TEMPORAL_TIMEOUT_MS / 1000 * 10)
            wall = time.time() - start
            rel = path.relative_to(MODELS)
            try:
                formulas = json.loads(out.strip().splitlines()[-1])["formulas"]
            except (ValueError, IndexError, KeyError):
                rows.append((str(rel), logic, "(all)", "", "CRASH" if is_crash(code) else f"no output: {err[:80]}", "", wall))
                continue
            for f in formulas:
                expected = expected_temporal(f["name"], lines.get(f["name"], ""))
                detail = f["detail"].splitlines()[0] if f["status"] in ("ERROR", "UNKNOWN") else ""
                rows.append((str(rel), logic, f["name"], f["formula"].strip(), f["status"], expected,
                             f.get("time_ms", 0) / 1000, detail))
    decided = sum(1 for r in rows if r[4] in ("TRUE", "FALSE"))
    agree = sum(1 for r in rows if r[4] in ("TRUE", "FALSE") and r[5].startswith(r[4]))
    lines = [
        f"`python3 benchmarks/corpus.py temporal` ({time.strftime('%Y-%m-%d')}): every `ASSERT_LTL...` /"
        f" `ASSERT_CTL...` definition of `../shared/corpus/models`, checked with `bsolve ltl|ctl FILE --assertions"
        f" --timeout {TEMPORAL_TIMEOUT_MS}` (each formula its own budget).",
        "",
        f"- definitions: {len(rows)}; decided (TRUE/FALSE): {decided}; agreeing with the name or comment: {agree}",
        "",
        "| machine | logic | definition | formula | bsolve | name / comment says | s | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        machine, logic, name, formula, status, expected, secs = r[:7]
        note = r[7] if len(r) > 7 else ""
        formula = formula.replace("|", "\\|")
        note = note.replace("|", "\\|")[:120]
        lines.append(f"| {machine} | {logic} | {name} | `{formula}` | {status} | {expected} | {secs:.2f} | {note} |")
    write_section("temporal", "\n".join(lines))


POR_TIMEOUT_MS = 5_000
POR_MAX_STATES = 200_000


def por_one(row):
    """The full run, then (where it explored everything) the reduced one: verdict classes and counts."""
    path = MODELS / row["model"]
    extra = ["--workers", "1", "--max-states", str(POR_MAX_STATES)]
    full = model_check(path, extra, POR_TIMEOUT_MS)
    if not full.get("exploration_complete"):
        return row, full, None
    return row, full, model_check(path, [*extra, "--por"], POR_TIMEOUT_MS)


def por_verdict(r):
    """What partial-order reduction must keep: whether a deadlock and a violation exist, and any status
    other than those (no setup, no initialisation, an error)."""
    status = r.get("status")
    if status in ("NO ERROR FOUND", "NO ERROR FOUND IN THE EXPLORED PART", "DEADLOCK", "INVARIANT VIOLATION",
                  "ASSERTION VIOLATION") or (status == "WELL-DEFINEDNESS ERROR" and r.get("exploration_complete")):
        status = "explored"
    return (status, r.get("deadlocked_states", 0) > 0, r.get("violating_states", 0) > 0)


def por_corpus():
    with open(CORPUS / "expected.csv") as f:
        rows = list(csv.DictReader(f))
    start = time.time()
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(por_one, rows))
    elapsed = time.time() - start
    compared, differ, reduced, table, cut = 0, [], 0, [], []
    for row, full, por in results:
        if por is None:
            continue
        if por.get("status") == "UNKNOWN" and "timeout" in por.get("detail", ""):
            # The full run finished within the budget, the reduced one not (on a shared machine):
            # not comparable, listed.
            cut.append(row["model"])
            continue
        compared += 1
        if por_verdict(full) != por_verdict(por) or not por.get("exploration_complete"):
            differ.append(f"{row['model']}: {por_verdict(full)} / {por_verdict(por)}")
            continue
        applied = (por.get("por") or {}).get("applied")
        if por["states"] < full["states"]:
            reduced += 1
        table.append((row["model"], full["states"], por["states"], full["time_ms"], por["time_ms"], applied))
    with open(ROOT / "benchmarks" / "corpus_por_results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["model", "states", "states_por", "ms", "ms_por", "por_applied"])
        w.writerows(table)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    lines = [
        f"`python3 benchmarks/corpus.py por` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {cpu}, "
        f"shared with other jobs; {elapsed:.0f} s): `mc` with the recording's preferences, `--workers 1 "
        f"--max-states {POR_MAX_STATES} --timeout {POR_TIMEOUT_MS}`, then with `--por` where the full run "
        "explored everything.",
        "",
        f"- {len(rows)} machines, {compared} explored completely and compared; **{len(differ)} verdict "
        f"differences** (deadlock found or not, violation found or not, other statuses)"
        + ("" if not differ else ": " + "; ".join(differ)),
        f"- {len(cut)} not compared: the run with `--por` hit the time limit where the full run had not"
        + ("" if not cut else " (" + ", ".join(cut) + ")"),
        f"- reduced state space on {reduced} machines; {sum(1 for t in table if t[5] is False)} explored fully "
        "because an operation's read/write sets are not exact",
        f"- states over all compared machines: {sum(t[1] for t in table):,} without, "
        f"{sum(t[2] for t in table):,} with `--por`",
        "",
    ]
    lines += best_and_worst(table, "with --por", "ms with --por")
    write_section("por", "\n".join(lines), ROOT / "benchmarks" / "RESULTS.md")


SYMMETRY_TIMEOUT_MS = 5_000


def symmetry_one(row):
    """A short probe with --symmetry canon (does the machine have a symmetric deferred set?), then the
    plain run and the reduced one, one after the other so that both meet the same load."""
    path = MODELS / row["model"]
    extra = ["--workers", "1", "--max-states", str(POR_MAX_STATES)]
    probe = model_check(path, ["--workers", "1", "--max-states", "50", "--symmetry", "canon"], 2_000)
    if not (probe.get("symmetry") or {}).get("applied"):
        return row, None, None
    full = model_check(path, extra, SYMMETRY_TIMEOUT_MS)
    return row, full, model_check(path, [*extra, "--symmetry", "canon"], SYMMETRY_TIMEOUT_MS)


def symmetry_corpus():
    with open(CORPUS / "expected.csv") as f:
        rows = list(csv.DictReader(f))
    start = time.time()
    results = list(map(symmetry_one, rows))
    elapsed = time.time() - start
    symmetric = [r for r in results if r[1] is not None]
    compared, differ, counts_equal, counts_unknown, cut, table = 0, [], 0, 0, [], []
    for row, full, sym in symmetric:
        if not full.get("exploration_complete") or not sym.get("exploration_complete"):
            cut.append(row["model"])
            continue
        compared += 1
        info = sym.get("symmetry") or {}
        if por_verdict(full) != por_verdict(sym) or info.get("abandoned"):
            differ.append(f"{row['model']}: {por_verdict(full)} / {por_verdict(sym)}")
            continue
        if info.get("full_states") is None:
            counts_unknown += 1
        elif (int(info["full_states"]), int(info["full_transitions"])) == (full["states"], full["transitions"]):
            counts_equal += 1
        else:
            differ.append(f"{row['model']}: full count {info['full_states']} / {info['full_transitions']} "
                          f"against {full['states']} / {full['transitions']}")
            continue
        table.append((row["model"], full["states"], sym["states"], full["time_ms"], sym["time_ms"]))
    with open(ROOT / "benchmarks" / "corpus_symmetry_results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["model", "states", "orbits", "ms", "ms_symmetry"])
        w.writerows(table)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    lines = [
        f"`python3 benchmarks/corpus.py symmetry` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {cpu}, "
        f"shared with other jobs; {elapsed:.0f} s): `mc` with the recording's preferences, `--workers 1 "
        f"--max-states {POR_MAX_STATES} --timeout {SYMMETRY_TIMEOUT_MS}`, then with `--symmetry canon`, on "
        "every machine whose probe (`--symmetry canon --max-states 50`) found a symmetric deferred set; "
        "the two runs of a machine one after the other.",
        "",
        f"- {len(rows)} machines, {len(symmetric)} with a symmetric deferred set, {compared} explored "
        f"completely both ways and compared; **{len(differ)} differences** (verdicts, or full count against "
        "the plain count)" + ("" if not differ else ": " + "; ".join(differ)),
        f"- full count (orbits re-expanded) equal to the plain count on {counts_equal} machines; unknown "
        f"(a state with too many permutations to canonicalise exactly) on {counts_unknown}",
        f"- {len(cut)} not compared: a run hit the state or time limit"
        + ("" if not cut else " (" + ", ".join(cut) + ")"),
        f"- states over all compared machines: {sum(t[1] for t in table):,} without, "
        f"{sum(t[2] for t in table):,} orbits with `--symmetry canon`",
        "",
    ]
    lines += best_and_worst(table, "orbits", "ms with --symmetry")
    write_section("symmetry", "\n".join(lines), ROOT / "benchmarks" / "RESULTS.md")


def best_and_worst(table, reduced, reduced_ms):
    """The 10 machines (of >= 100 states) a reduction shrank most and the 10 it slowed most, as markdown
    tables; `table` rows are (machine, states, reduced states, ms, reduced ms)."""
    big = [t for t in table if t[1] >= 100]
    def row_text(t):
        speed = f"{t[3] / t[4]:.1f}×" if t[4] else "–"
        return f"| {t[0]} | {t[1]:,} | {t[2]:,} | {100 * t[2] / t[1]:.1f} % | {t[3]:,} | {t[4]:,} | {speed} |"
    header = [f"| machine | states | {reduced} | share | ms | {reduced_ms} | speed-up |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    best = sorted(big, key=lambda t: t[2] / t[1])[:10]
    worst = sorted(big, key=lambda t: (t[4] + 1) / (t[3] + 1), reverse=True)[:10]
    return ["10 best (smallest share of the states, machines with >= 100 states):", "", *header,
            *map(row_text, best), "",
            "10 worst (largest time ratio with/without, machines with >= 100 states):", "", *header,
            *map(row_text, worst)]


def write_section(name, body, report=REPORT):
    text = report.read_text() if report.exists() else "# Corpus results\n"
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    block = f"{begin}\n{body}\n{end}"
    if begin in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip() + f"\n\n## {name}\n\n{block}\n"
    report.write_text(text)
    print(body)


if __name__ == "__main__":
    if not BINARY.exists():
        sys.exit(f"build first: cargo build --release ({BINARY} missing)")
    {"check": check_corpus, "mc": mc_corpus, "speed": mc_speed, "cbc": cbc_corpus,
     "temporal": temporal_corpus, "por": por_corpus,
     "symmetry": symmetry_corpus}[sys.argv[1] if len(sys.argv) > 1 else "check"]()
