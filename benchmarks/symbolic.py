#!/usr/bin/env python3
"""Runs the symbolic checks (bmc, kinduction, ic3) on every corpus machine where ProB recorded an invariant
violation, with a time limit per command, and writes the table into benchmarks/RESULTS.md between
`<!-- BEGIN symbolic -->` and `<!-- END symbolic -->` (the section is appended when missing).

    BSOLVE=$CARGO_TARGET_DIR/fast/bsolve python3 benchmarks/symbolic.py [--limit SECONDS] [--depth N]
                                                                        [--only SUBSTRING] [--jobs N]

Each command also gets `--timeout` (ms) so that it stops by itself and answers UNKNOWN; the process is
killed a few seconds later if it does not. A violation counts as found only when the command exits with 1
("INVARIANT VIOLATION", the trace replayed by the interpreter). Machines under ErrorMachines/ are left out:
ProB's verdict there is about a crash, not an invariant. Needs ../shared/corpus next to the repository.
"""
import argparse
import csv
import datetime
import os
import platform
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
MODELS = CORPUS / "models"
BINARY = Path(os.environ.get("BSOLVE", Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "fast" / "bsolve"))
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
BEGIN, END = "<!-- BEGIN symbolic -->", "<!-- END symbolic -->"


def violating_machines(only):
    with open(CORPUS / "expected.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return [
        r["model"]
        for r in rows
        if r["invariant_violated"] == "true" and "ErrorMachines" not in Path(r["model"]).parts and only in r["model"]
    ]


def run(args, limit):
    """(answer, seconds): the answer is the first word(s) of the verdict line, or why there is none."""
    start = time.time()
    try:
        p = subprocess.run(
            [str(BINARY), "--timeout", str(limit * 1000), *args],
            capture_output=True,
            text=True,
            timeout=limit + 10,
        )
    except subprocess.TimeoutExpired:
        return "killed", time.time() - start
    took = time.time() - start
    if p.returncode == 1:
        return "violation", took
    if p.returncode == 0:
        first = p.stdout.strip().splitlines()[0] if p.stdout.strip() else ""
        return ("no violation" if args[0] == "bmc" else "proved (!)") + (" — " + first[:60] if args[0] == "bmc" else ""), took
    if p.returncode == 2:
        return "unknown: " + short_reason(p.stdout), took
    if p.returncode == 3:
        return "error: " + short_reason(p.stderr), took
    return "crash (exit %s)" % p.returncode, took


def short_reason(text):
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = line.split(": ", 1)[-1] if line.startswith("/") else line
    return line.replace("|", "/")[:90]


def cell(answer, took, limit):
    if answer == "violation":
        return "**violation** %.2f s" % took
    if took >= limit:
        return "%s (≥ %d s)" % (answer, limit)
    return "%s %.2f s" % (answer, took)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=60, help="seconds per command (default 60)")
    ap.add_argument("--depth", type=int, default=20, help="bmc depth (default 20)")
    ap.add_argument("--only", default="", help="only machines whose path contains this")
    ap.add_argument("--jobs", type=int, default=1, help="machines checked at once (default 1)")
    opts = ap.parse_args()
    machines = violating_machines(opts.only)
    commands = [
        ("bmc %d" % opts.depth, lambda f: ["bmc", f, str(opts.depth)]),
        ("kinduction", lambda f: ["kinduction", f]),
        ("ic3", lambda f: ["ic3", f]),
    ]
    def check(m):
        answers = [run(args(str(MODELS / m)), opts.limit) for _, args in commands]
        print(m, *(cell(a, t, opts.limit) for a, t in answers), sep=" | ", flush=True)
        return answers

    with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        results = list(pool.map(check, machines))
    found = {
        name: sum(1 for answers in results if answers[i][0] == "violation" and answers[i][1] <= opts.limit)
        for i, (name, _) in enumerate(commands)
    }
    rows = [
        "| %s | violation | %s |" % (m, " | ".join(cell(a, t, opts.limit) for a, t in answers))
        for m, answers in zip(machines, results)
    ]
    header = [
        BEGIN,
        "### Symbolic checks on the corpus' invariant-violating machines",
        "",
        "Every corpus machine whose `expected.csv` row has `invariant_violated = true` (ErrorMachines/ left",
        "out), each command with a %d s limit (`--timeout %d`). A violation counts only when the trace is" % (opts.limit, opts.limit * 1000),
        "replayed by the interpreter (exit code 1). Produced by `BSOLVE=... python3 benchmarks/symbolic.py`",
        "(binary `%s`, `--jobs %d`) on %s, %s, %d cores shared with other jobs: the times are" % (BINARY, opts.jobs, datetime.date.today(), platform.machine(), os.cpu_count()),
        "upper bounds.",
        "",
        "Found within %d s: %s (of %d machines)." % (
            opts.limit,
            ", ".join("`%s` %d" % (name, found[name]) for name, _ in commands),
            len(machines),
        ),
        "",
        "| machine | ProB | %s |" % " | ".join("`%s`" % name for name, _ in commands),
        "|---|---|" + "---|" * len(commands),
    ]
    section = "\n".join(header + rows + [END]) + "\n"
    text = RESULTS.read_text() if RESULTS.exists() else ""
    if BEGIN in text and END in text:
        before, rest = text.split(BEGIN, 1)
        after = rest.split(END, 1)[1].lstrip("\n")
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(text)
    print("found:", found, "of", len(machines))


if __name__ == "__main__":
    main()
