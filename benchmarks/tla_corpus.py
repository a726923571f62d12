#!/usr/bin/env python3
"""Runs `bsolve mc` over the exhaustive-search models of the TLA+ corpus and writes the figures into the
`tla` section of benchmarks/CORPUS.md.

    python3 benchmarks/tla_corpus.py [--timeout SECONDS] [FILTER]

For every model of every `manifest.json` under ../shared/corpus/tla whose mode is "exhaustive search":
`bsolve check MODULE.tla --config MODEL.cfg` (parsed and typed?), then `bsolve mc ... --json` with a time
budget; the verdict is compared with TLC's recorded `result` and the distinct-state count with TLC's
`distinctStates` (when recorded). A FILTER (substring of the model path) runs a subset without writing
the report. Needs a release build (cargo build --release).
"""
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "tla"
BINARY = Path(os.environ.get("BSOLVE", Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "bsolve"))
REPORT = ROOT / "benchmarks" / "CORPUS.md"
sys.path.insert(0, str(ROOT / "benchmarks"))
from corpus import write_section  # noqa: E402


# Disagreements examined by hand: the model and what causes it.
EXPLAINED = {
    "acp/ACP_NB_WRONG_TLC.cfg": "TLC's failure is of PROPERTIES AC1 (the model file has no invariant); bsolve "
    "checks no temporal property yet and says so (success*: exit 2), no contradiction",
    "CoffeeCan/CoffeeCan1000Beans.cfg": "`can :: {c | c : struct(black: 0..1000, white: 0..1000) & ...}`: "
    "the struct has 1,002,001 elements, over the enumeration limit, so the search lists records within "
    "MININT..MAXINT only (17 states) and says the exploration is partial (unknown); with MaxBeanCount = 100 "
    "the count is exact",
    "CoffeeCan/CoffeeCan3000Beans.cfg": "as CoffeeCan1000Beans: the initial states are listed in part, said so",
    "CarTalkPuzzle/CarTalkPuzzle.toolbox/Model_3/MC.cfg": "TLC did not finish (unknown); the model's only "
    "ASSUME is `PrintT(...)`, which is TRUE whatever it prints: bsolve does not evaluate what TLC would print",
    "dag-consensus/BlockDagTest.cfg": "assumptions-only model; ASSUMEs with a RECURSIVE operator or a constant "
    "operator are not checked (success*, exit 2); TLC recorded no count",
    "SimplifiedFastPaxos/Paxos.cfg": "the model file's SYMMETRY PaxosSymmetry makes TLC count states up to "
    "permutations of the replicas and values (1207); bsolve ignores SYMMETRY in model files and says so "
    "(a note, success*), so it counts every state (48514): no verdict differs",
    "MisraReachability/MCParReach.cfg": "decided (393 states, TLC's count) in 46 s: checking the ASSUMEs as "
    "assertions makes this model 15 times slower (3 s with --no-assertions); cause not found yet",
}


def models():
    """(folder, module path, model path, TLC's record) of every exhaustive-search model."""
    out = []
    for manifest in sorted(CORPUS.glob("*/manifest.json")):
        folder = manifest.parent
        data = json.loads(manifest.read_text())
        for module in data["modules"]:
            for model in module["models"]:
                if model["mode"] != "exhaustive search":
                    continue
                # Manifest paths start with specifications/<folder>/.
                tla = folder / module["path"].split("/", 2)[2]
                cfg = folder / model["path"].split("/", 2)[2]
                out.append((folder.name, tla, cfg, model))
    return out


def run(args, timeout):
    start = time.time()
    try:
        p = subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.time() - start
    except subprocess.TimeoutExpired:
        return None, "", f"killed after {timeout} s", time.time() - start


def cause(message):
    """One line per cause: positions, names and numbers dropped."""
    first = message.strip().splitlines()[0] if message.strip() else "(no message)"
    first = re.sub(r"^\S+:\d+:\d+: ", "", first)
    first = re.sub(r"`[^`]*`", "`…`", first)
    first = re.sub(r"\d+", "N", first)
    return first[:110]


def verdict(code, report):
    """TLC's words for bsolve's answer; "success*" is no invariant violation and no deadlock, with the
    model file's temporal properties not checked."""
    if code == 0:
        return "success"
    if code == 2 and report and report.get("status") == "NO ERROR FOUND (NOT ALL CHECKED)":
        return "success*"
    if code == 1 and report:
        status = report.get("status", "")
        if status in ("INVARIANT VIOLATION", "DEADLOCK"):
            return "safety failure"
        return status.lower()
    return "unknown"


def main():
    args = sys.argv[1:]
    timeout = 30
    if args[:1] == ["--timeout"]:
        timeout = int(args[1])
        args = args[2:]
    only = args[0] if args else None
    rows = []
    for folder, tla, cfg, tlc in models():
        rel = str(cfg.relative_to(CORPUS))
        if only and only not in rel:
            continue
        code, out, err, _ = run(["check", str(tla), "--config", str(cfg)], 60)
        parsed = code == 0
        row = {"model": rel, "tlc": tlc["result"], "tlc_states": tlc.get("distinctStates"),
               "tlc_time": tlc.get("runtime", ""), "parsed": parsed, "bsolve": "", "states": None,
               "secs": None, "note": ""}
        if not parsed:
            row["note"] = cause(err or out)
            row["bsolve"] = "not parsed"
        else:
            code, out, err, secs = run(["mc", str(tla), "--config", str(cfg), "--json",
                                        "--timeout", str(timeout * 1000)], timeout + 30)
            report = None
            try:
                report = json.loads(out.strip().splitlines()[-1]) if out.strip() else None
            except json.JSONDecodeError:
                pass
            row["bsolve"] = verdict(code, report)
            row["secs"] = secs
            if report:
                row["states"] = report.get("distinct_states")
                if code not in (0, 1):
                    row["note"] = cause(report.get("detail", ""))
                elif report.get("not_checked"):
                    row["note"] = "not checked: " + "; ".join(report["not_checked"])[:100]
            else:
                row["note"] = cause(err)
        rows.append(row)
        print(f"{rel}: TLC {row['tlc']} {row['tlc_states']}; bsolve {row['bsolve']} {row['states']} {row['note']}",
              flush=True)
    if only:
        return
    n = len(rows)
    parsed = sum(r["parsed"] for r in rows)
    # Agreement on invariants and deadlock (the measure until temporal properties are checked):
    # success* agrees with TLC's success.
    agree = sum(r["bsolve"].rstrip("*") == r["tlc"] for r in rows)
    finished = [r for r in rows if r["bsolve"] in ("success", "success*", "safety failure")]
    with_count = [r for r in finished if r["tlc_states"] is not None and r["tlc"] == "success"]
    equal = sum(r["states"] == r["tlc_states"] for r in with_count)
    # A wrong verdict: bsolve claims what TLC refutes (or the reverse) on what both checked.
    wrong = [r for r in rows if {r["bsolve"], r["tlc"]} == {"success", "safety failure"}]
    lines = [
        f"`python3 benchmarks/tla_corpus.py` ({time.strftime('%Y-%m-%d')}): the {n} exhaustive-search models of "
        f"`../shared/corpus/tla` (TLC's recorded `result` and `distinctStates`), `bsolve check` then "
        f"`bsolve mc MODULE.tla --config MODEL.cfg --timeout {timeout * 1000}`.",
        "",
        f"- parsed and typed: {parsed} / {n}",
        f"- result equal to TLC's: {agree} / {n}",
        f"- distinct states equal to TLC's: {equal} / {len(with_count)} of the finished \"success\" models with a "
        f"recorded count (TLC stops at a violation, so counts of failures are not compared)",
        f"- wrong verdicts (success against safety failure): {len(wrong)}",
        "- `success*`: no invariant violation and no deadlock in the whole state space, the model file's "
        "temporal properties not checked (exit 2); it agrees with TLC's success, and is not compared with a "
        "failure TLC found through a property.",
        "",
        "Counting: the model file's values are definitions, and a TLA+ machine has constants only for its "
        "recursive definitions (one setup), so bsolve's `distinct states` (ProB's count less the root and the "
        "setup) is TLC's `distinctStates`. SYMMETRY is ignored, so a model with a symmetry set counts more "
        "states than TLC.",
        "",
    ]
    lines.append("Disagreements (result or count) and their causes:")
    lines.append("")
    for r in rows:
        differs = r["bsolve"].rstrip("*") != r["tlc"] and r["bsolve"] in ("success", "success*", "safety failure")
        count_differs = r in with_count and r["states"] != r["tlc_states"]
        if differs or count_differs or r["model"] in EXPLAINED:
            why = EXPLAINED.get(r["model"], "not examined yet")
            lines.append(f"- {r['model']}: TLC {r['tlc']} ({r['tlc_states']}), bsolve {r['bsolve']} ({r['states']}): {why}")
    lines += ["", "Causes of the models not parsed or not decided:", ""]
    causes = Counter(r["note"] for r in rows if r["bsolve"] not in ("success", "success*", "safety failure"))
    for c, k in causes.most_common():
        lines.append(f"- {k} × {c}")
    lines += ["", "| model | TLC | TLC states | TLC time | bsolve | states | s | note |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        secs = f"{r['secs']:.1f}" if r["secs"] is not None else ""
        note = r["note"].replace("|", "\\|")
        lines.append(f"| {r['model']} | {r['tlc']} | {r['tlc_states'] if r['tlc_states'] is not None else ''} | "
                     f"{r['tlc_time']} | {r['bsolve']} | {r['states'] if r['states'] is not None else ''} | {secs} | {note} |")
    write_section("tla", "\n".join(lines))


if __name__ == "__main__":
    if not BINARY.exists():
        sys.exit(f"build first: cargo build --release ({BINARY} missing)")
    main()
