#!/usr/bin/env python3
"""Speed of `bsolve ltl` against `bsolve mc` on the same machine (issue 33's targets: `G` safety formulas at
>= 80 % of mc's states per second, general LTL on the product at >= 25 %).

    python3 benchmarks/temporal_speed.py [MACHINE ...]   (default: the corpus' CAN_BUS)

Per machine, alternating runs (mc, ltl safety, ltl product) REPEAT times, median wall time of each; states
per second = states explored / wall. mc runs with one worker and no invariant/deadlock check so that all
three explore the same state space for the same question shape: `G {INVARIANT}` by the safety search, and
the product formula `G F {1=1}` by the automaton product (true, so
the whole product is explored). Needs a release build.
"""
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = Path(os.environ.get("BSOLVE", ROOT / "target" / "release" / "bsolve"))
CORPUS = ROOT.parent / "shared" / "corpus" / "models"
REPEAT = int(os.environ.get("REPEAT", "3"))


def run(args):
    start = time.time()
    p = subprocess.run([str(BINARY), "--json", "--timeout", "600000", *args], capture_output=True, text=True)
    wall = time.time() - start
    out = json.loads(p.stdout.strip().splitlines()[-1])
    return wall, out


def explored_all(out):
    """TRUE, or true on the whole explored space whose parameters were enumerated in part (as mc's
    "NO ERROR FOUND IN THE EXPLORED PART"): either way every reachable state was visited."""
    f = out["formulas"][0]
    return f["status"] == "TRUE" or f["detail"].startswith("holds on the explored part only")


def main():
    machines = [Path(m) for m in sys.argv[1:]] or [CORPUS / "B/Benchmarks/CAN_BUS.mch"]
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.uname().nodename}, {os.cpu_count()} cores, repeat {REPEAT}")
    print("| machine | states | mc s | ltl G s (ratio) | ltl product s (ratio) |")
    print("|---|---|---|---|---|")
    for m in machines:
        times = {"mc": [], "safety": [], "product": []}
        states = None
        for _ in range(REPEAT):
            w, out = run(["mc", str(m), "--no-inv", "--no-deadlock", "--no-assertions", "--workers", "1"])
            times["mc"].append(w)
            states = out["states"]
            w, out = run(["ltl", str(m), "G {1=1}"])
            assert explored_all(out), out
            times["safety"].append(w)
            w, out = run(["ltl", str(m), "G F {1=1}"])
            assert explored_all(out), out
            times["product"].append(w)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"| {m.name} | {states} | {med['mc']:.2f} | {med['safety']:.2f} ({med['mc'] / med['safety']:.2f}) "
              f"| {med['product']:.2f} ({med['mc'] / med['product']:.2f}) |")


if __name__ == "__main__":
    main()
