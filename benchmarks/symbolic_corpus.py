#!/usr/bin/env python3
"""`mc --symbolic` against the explicit `mc` on corpus machines.

    python3 benchmarks/symbolic_corpus.py compare [LIMIT]   # counts and verdicts, corpus CI list
    python3 benchmarks/symbolic_corpus.py measure [ROUNDS]  # wall times, alternating, on MEASURED
    python3 benchmarks/symbolic_corpus.py large [TIMEOUT_S] # one alternating round on every B machine
                                                             # of expected.csv with >= 10,000 states,
                                                             # going on past errors (ProB's counts)
    python3 benchmarks/symbolic_corpus.py strategies [ROUNDS [MACHINE...]] # --strategy bfs, chaining,
                                                             # saturation alternated on MEASURED (or the
                                                             # machines given), whole spaces

`SYMBOLIC_STRATEGY=chaining` (or saturation) makes `compare` run the symbolic search with that strategy.

`compare` runs both checkers with --all-deadlocks --all-violations (counts of the whole state space,
comparable whatever order an error is met in) on the machines of tests/corpus_mc_machines.txt, a few
seconds each, and prints every machine where both finished but disagree (the worst bug), how many agree,
and why the symbolic search declined the others. `measure` alternates explicit and symbolic runs of
each machine in one process tree and prints the median wall times and their ratio.
"""

import ast
import csv
import json
import os
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT.parent / "shared" / "corpus" / "models"
EXPECTED = ROOT.parent / "shared" / "corpus" / "expected.csv"
BINARY = Path(os.environ.get("BSOLVE", Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "bsolve"))
TIMEOUT_MS = 5_000
MEASURED = [
    "B/Benchmarks/CAN_BUS.mch",
    "B/Demo/Simpson/Simpson_Four_Slot.mch",
    "B/Benchmarks/obsw_M001_eventb.mch",
    "B/Demo/Simpson/Simpson_Four_Slot_Symm.mch",
    "B/Benchmarks/Cruise_finite1.mch",
    "B/Benchmarks/scheduler.mch",
    "B/Demo/scheduler_large.mch",
]


def machines():
    text = (ROOT / "tests" / "corpus_mc_machines.txt").read_text()
    return ast.literal_eval(text[text.index("["):])


def run(path, symbolic, timeout_ms, extra=()):
    args = [str(BINARY), "--json", "--timeout", str(timeout_ms), "mc", str(path), *extra]
    if symbolic:
        args.append("--symbolic")
        if "--strategy" not in extra:
            args += ["--strategy", os.environ.get("SYMBOLIC_STRATEGY", "bfs")]
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout_ms / 1000 + 30)
    except subprocess.TimeoutExpired:
        return None
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return {"status": "NO JSON", "detail": p.stderr.strip()[:200]}


def summary(r):
    keys = ["status", "states", "transitions", "deadlocked_states", "violating_states", "partial_enumeration"]
    return {k: r.get(k) for k in keys}


def compare(limit):
    agree, declined, differ, explicit_unfinished = [], Counter(), [], 0
    for name in machines()[:limit]:
        path = MODELS / name
        flags = ["--all-deadlocks", "--all-violations"]
        explicit = run(path, False, TIMEOUT_MS, flags)
        if explicit is None or explicit.get("status") in ("UNKNOWN", "NO JSON") or not explicit.get("exploration_complete"):
            explicit_unfinished += 1
            continue
        symbolic = run(path, True, TIMEOUT_MS, flags)
        if symbolic is None:
            declined["killed"] += 1
        elif "status" not in symbolic:
            differ.append((name, summary(explicit), symbolic))
        elif symbolic["status"] == "UNKNOWN":
            why = symbolic["detail"].split(":")[1:3]
            declined[":".join(why).strip()[:90]] += 1
            print(f"declined {name}: {symbolic['detail'][:160]}", flush=True)
        elif summary(symbolic) == summary(explicit):
            agree.append(name)
        else:
            differ.append((name, summary(explicit), summary(symbolic)))
    print(f"machines explicit mc finished: {len(agree) + sum(declined.values()) + len(differ)} "
          f"(unfinished within {TIMEOUT_MS} ms or UNKNOWN: {explicit_unfinished})")
    print(f"symbolic equal (verdict and counts): {len(agree)}")
    print(f"symbolic different: {len(differ)}")
    for name, e, s in differ:
        print(f"  {name}\n    explicit {e}\n    symbolic {s}")
    print(f"symbolic declined (UNKNOWN): {sum(declined.values())}")
    for why, n in declined.most_common():
        print(f"  {n:4}  {why}")


def measure(rounds):
    with open(EXPECTED) as f:
        expected = {r["model"]: r for r in csv.DictReader(f)}
    print("| machine | ProB states / transitions | explicit states / transitions | symbolic states / transitions "
          "| explicit ms | symbolic ms | ratio | symbolic next-state calls | LDD nodes | symbolic peak KiB |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    for name in MEASURED:
        path = MODELS / name
        times = {False: [], True: []}
        last = {}
        for _ in range(rounds):
            for symbolic in (False, True):
                r = run(path, symbolic, 60_000)
                if r is None:
                    continue
                times[symbolic].append(r["time_ms"])
                last[symbolic] = r
        e, s = last.get(False, {}), last.get(True, {})
        prob = expected.get(name, {})
        med = {k: statistics.median(v) if v else float("nan") for k, v in times.items()}
        sym = s.get("symbolic", {})
        print(f"| {name} | {prob.get('states')} / {prob.get('transitions')} "
              f"| {e.get('states')} / {e.get('transitions')} ({e.get('status')}) "
              f"| {s.get('states')} / {s.get('transitions')} ({s.get('status')}) "
              f"| {med[False]:.0f} | {med[True]:.0f} | {med[False] / max(med[True], 1):.1f}x "
              f"| {sym.get('next_state_calls')} | {sym.get('ldd_nodes')} | {s.get('peak_memory_kib')} |")


def strategies(rounds, machines=MEASURED):
    """The three strategies alternated (bfs, chaining, saturation, bfs, ...) on each MEASURED machine,
    going on past errors so that each explores the whole space; median wall ms as each run reports it."""
    names = ["bfs", "chaining", "saturation"]
    print("| machine | states / transitions (all three) | " + " | ".join(f"{n} ms" for n in names)
          + " | " + " | ".join(f"{n} rounds / LDD nodes / peak KiB" for n in names) + " |")
    print("|---|---|" + "---:|" * 6)
    for name in machines:
        path = MODELS / name
        times = {n: [] for n in names}
        last = {}
        for _ in range(rounds):
            for n in names:
                r = run(path, True, 60_000, ["--all-deadlocks", "--all-violations", "--strategy", n])
                if r is None or "time_ms" not in r:
                    continue
                times[n].append(r["time_ms"])
                last[n] = r
        counts = {(r.get("status"), r.get("states"), r.get("transitions")) for r in last.values()}
        shown = " / ".join(f"{c[1]} / {c[2]} ({c[0]})" for c in sorted(counts, key=str))
        if len(counts) > 1:
            shown = "**DIFFER** " + shown
        med = [f"{statistics.median(times[n]):.0f}" if times[n] else "-" for n in names]
        figures = []
        for n in names:
            sym = last.get(n, {}).get("symbolic", {})
            figures.append(f"{sym.get('levels')} / {sym.get('ldd_nodes')} / {last.get(n, {}).get('peak_memory_kib')}")
        print(f"| {name} | {shown} | " + " | ".join(med) + " | " + " | ".join(figures) + " |", flush=True)


def large(timeout_s):
    with open(EXPECTED) as f:
        rows = [r for r in csv.DictReader(f)
                if r["states"].isdigit() and int(r["states"]) >= 10_000 and r["model"].startswith("B/")
                and "ErrorMachines" not in r["model"] and (MODELS / r["model"]).exists()]
    rows.sort(key=lambda r: int(r["states"]))
    print("| machine | ProB states / transitions | explicit | symbolic | explicit ms | symbolic ms | ratio |")
    print("|---|---|---|---|---:|---:|---:|")
    for r in rows:
        out = {}
        for symbolic in (False, True):
            flags = ["--all-deadlocks", "--all-violations"]
            out[symbolic] = run(MODELS / r["model"], symbolic, timeout_s * 1000, flags) or {"status": "killed"}
        e, s = out[False], out[True]

        def cell(x):
            if "states" not in x:
                return x.get("status", "error")
            return f"{x['status']}: {x['states']} / {x['transitions']}"

        te, ts = e.get("time_ms"), s.get("time_ms")
        ratio = f"{te / max(ts, 1):.1f}x" if te is not None and ts is not None else "-"
        print(f"| {r['model']} | {r['states']} / {r['transitions']} | {cell(e)} | {cell(s)} | {te} | {ts} | {ratio} |",
              flush=True)


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "compare"
    if mode == "compare":
        compare(int(sys.argv[2]) if len(sys.argv) > 2 else 10_000)
    elif mode == "strategies":
        strategies(int(sys.argv[2]) if len(sys.argv) > 2 else 3, sys.argv[3:] or MEASURED)
    elif mode == "large":
        large(int(sys.argv[2]) if len(sys.argv) > 2 else 20)
    else:
        measure(int(sys.argv[2]) if len(sys.argv) > 2 else 3)
