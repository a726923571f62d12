#!/usr/bin/env python3
"""Runs `bsolve ic3` on every corpus machine whose `expected.csv` row records an invariant verdict (ErrorMachines/
left out) and checks that no answer contradicts it: a replayed violation where ProB recorded none (and
finished: a state count is recorded), or a proof where ProB found a violation. Prints the tally and every
contradiction, crash or kill; exits 1 when there is one.

    BSOLVE=path/to/bsolve python3 benchmarks/ic3_corpus.py [--timeout MS] [--jobs N]

Needs ../shared/corpus next to the repository.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
# Records CORPUS.md shows to be incomplete: a replayed violation there is no contradiction.
KNOWN = {
    "B/FeatureChecks/TestPrimedBecomeSuch.mch": "Dec from xx = 0 reaches xx = -1 (CORPUS.md)",
    "B/Demo/Simpson/Simpson_Four_Slot_CSP.mch": "ProB ran it under its CSP controller (CORPUS.md)",
}
BINARY = os.environ.get("BSOLVE", str(Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "bsolve"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=int, default=3000, help="ms per machine (default 3000)")
    ap.add_argument("--jobs", type=int, default=2)
    opts = ap.parse_args()
    with open(CORPUS / "expected.csv", newline="") as f:
        rows = [
            r
            for r in csv.DictReader(f)
            if r["invariant_violated"] in ("true", "false") and "ErrorMachines" not in Path(r["model"]).parts
        ]

    def run(r):
        args = [BINARY, "ic3", "--timeout", str(opts.timeout), "--json", str(CORPUS / "models" / r["model"])]
        try:
            p = subprocess.run(args, capture_output=True, text=True, timeout=opts.timeout / 1000 + 20)
        except subprocess.TimeoutExpired:
            return r, "killed", None
        try:
            j = json.loads(p.stdout)
            if "error" in j:
                # A diagnostic (unsupported construct, bad input) is a JSON error object.
                return r, "error %s: %s" % (j["error"]["kind"], j["error"]["message"][:120]), None
            return r, j["status"], j.get("over_bits")
        except (ValueError, KeyError):
            return r, "exit %d: %s" % (p.returncode, p.stderr.strip()[:160]), None

    with ThreadPoolExecutor(opts.jobs) as pool:
        results = list(pool.map(run, rows))
    tally = Counter((r["invariant_violated"], status.split(" (")[0][:40], bits) for r, status, bits in results)
    for key, n in sorted(tally.items(), key=lambda kv: -kv[1]):
        print("%5d  ProB violated=%s  %s  over_bits=%s" % (n, *key))
    bad = []
    for r, status, _ in results:
        # ProB stops at its first error: after a deadlock its invariant verdict covers the states
        # explored until then only.
        finished = r["states"] not in ("", ":unknown") and r["deadlock"] != "true"
        if r["invariant_violated"] == "false" and status.startswith("INVARIANT VIOLATION"):
            if r["model"] in KNOWN:
                print("violation ProB's record misses: %s: %s" % (r["model"], KNOWN[r["model"]]))
            elif not finished:
                print("violation where ProB did not finish or stopped at a deadlock: " + r["model"])
            else:
                print("contradiction: " + r["model"])
                bad.append(r)
        if r["invariant_violated"] == "true" and status.startswith("PROVED"):
            print("contradiction: " + r["model"])
            bad.append(r)
        if status.startswith("exit") and not status.startswith("exit 3"):
            # Every answer comes as JSON: a status, or an error object.
            print("no JSON answer: %s %s" % (r["model"], status))
        if "panicked" in status or status == "killed" or status.startswith("exit 4"):
            print("crash or kill: %s %s" % (r["model"], status))
            bad.append(r)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
