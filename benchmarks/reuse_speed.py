#!/usr/bin/env python3
"""`bsolve mc` with and without `--reuse` (issue 35, items 1-2): next-state calls (operation evaluations
performed) and wall time, one worker and the default (one per core).

    BSOLVE=/path/to/bsolve python3 benchmarks/reuse_speed.py [MACHINE ...]   (default: the corpus' CAN_BUS)

Per machine and worker setting, alternating runs (without, with) REPEAT times; each row gives the median
wall time and the runs' times. Without --reuse every operation is evaluated in every expanded state, so
its next-state calls are those of the --reuse run plus its reuse hits (the same states are expanded:
checked by comparing the counts). Needs a release build.
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
    p = subprocess.run([str(BINARY), "--json", "mc", *args], capture_output=True, text=True)
    wall = time.time() - start
    return wall, json.loads(p.stdout.strip().splitlines()[-1])


def main():
    machines = sys.argv[1:] or [str(CORPUS / "B" / "Benchmarks" / "CAN_BUS.mch")]
    print("| machine | workers | --reuse | states | transitions | next-state calls | reused | wall s (median) | runs |")
    print("|---|---|---|---|---|---|---|---|---|")
    for machine in machines:
        for workers in (["--workers", "1"], []):
            times = {False: [], True: []}
            outs = {}
            for _ in range(REPEAT):
                for reuse in (False, True):
                    wall, out = run([machine, *workers, *(["--reuse"] if reuse else [])])
                    times[reuse].append(wall)
                    outs[reuse] = out
            plain, reused = outs[False], outs[True]
            for key in ("status", "states", "transitions", "deadlocked_states", "partial_enumeration"):
                assert plain[key] == reused[key], (machine, key, plain[key], reused[key])
            calls = reused["next_state_calls"] + reused["reuse_hits"]
            label = "default (2)" if not workers else workers[1]
            for reuse in (False, True):
                out = outs[reuse]
                runs = ", ".join(f"{t:.2f}" for t in times[reuse])
                print(
                    f"| {Path(machine).name} | {label} | {'yes' if reuse else 'no'} | {out['states']:,} "
                    f"| {out['transitions']:,} | {(out['next_state_calls'] if reuse else calls):,} "
                    f"| {(out['reuse_hits'] if reuse else 0):,} | {statistics.median(times[reuse]):.2f} | {runs} |"
                )


if __name__ == "__main__":
    main()
