#!/usr/bin/env python3
"""`auto` against the best single backend, question by question, on the predicate corpus.

    python3 benchmarks/portfolio_vs_best.py --chunk 20 --stride 80      # a quarter of the corpus
    python3 benchmarks/portfolio_vs_best.py --from-results r.jsonl      # summarise an earlier run
    python3 benchmarks/portfolio_vs_best.py --alt-bsolve OLD/bsolve      # also OLD's auto, alternated

The corpus is cut into chunks of --chunk predicates, one every --stride; each chunk is solved by every
backend of --backends (one `bsolve solve --pred-file` process per chunk and backend), the order of the
backends turning by one from chunk to chunk so that a burst of load on the shared machine falls on all of
them alike. For every predicate some single backend decided, auto's time is compared with the fastest
single backend's: the summary counts the predicates where auto took more than 2x that time, with and
without a floor of absolute time (sub-millisecond times are dominated by the process' own noise), lists
the worst, and lists every predicate where two backends gave opposite answers (sat vs unsat).
"""

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def backends_of(args):
    """The backends asked, with `auto@alt` (the --alt-bsolve binary's auto) when one is given."""
    return args.backends.split(",") + (["auto@alt"] if args.alt_bsolve else [])


def run_chunk(args, backend, start):
    binary = args.bsolve
    if backend == "auto@alt":
        binary, backend = args.alt_bsolve, "auto"
    cmd = [
        binary, "solve", "--pred-file", args.corpus, "--timeout", str(args.timeout),
        "--offset", str(start), "--limit", str(args.chunk), "--backend", backend,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.chunk * args.timeout / 1000 + 120)
    records = []
    for line in proc.stdout.splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def collect(args):
    total = sum(1 for _ in open(args.corpus)) - 1
    backends = backends_of(args)
    out = []
    began = time.time()
    for n, start in enumerate(range(args.offset, total, args.stride)):
        for k in range(len(backends)):
            backend = backends[(k + n) % len(backends)]
            for r in run_chunk(args, backend, start):
                r["backend"] = backend
                out.append(r)
        if n % 10 == 0:
            print(f"chunk {n} (index {start}), {time.time() - began:.0f} s", file=sys.stderr)
    return out, time.time() - began


def summarise(records, args, wall):
    by_index = {}
    for r in records:
        by_index.setdefault(r["index"], {})[r["backend"]] = r
    backends = backends_of(args)
    singles = [b for b in backends if not b.startswith("auto")]
    autos = [b for b in backends if b.startswith("auto")]
    decided = lambda r: r is not None and r.get("answer") in ("sat", "unsat")
    compared, flips = 0, []
    counts = {a: {"undecided": 0, "slower": 0, "slower_floor": 0, "worst": []} for a in autos}
    for index, runs in sorted(by_index.items()):
        answers = {b: r["answer"] for b, r in runs.items() if decided(r)}
        if len(set(answers.values())) > 1:
            flips.append((index, answers))
        best = [(runs[b]["ms"], b) for b in singles if decided(runs.get(b))]
        if not best:
            continue
        best_ms, best_backend = min(best)
        compared += 1
        for a in autos:
            c, auto = counts[a], runs.get(a)
            if not decided(auto):
                c["undecided"] += 1
                c["worst"].append((float("inf"), index, best_backend, best_ms, None))
                continue
            ratio = auto["ms"] / max(best_ms, 0.01)
            if auto["ms"] > 2 * best_ms:
                c["slower"] += 1
                if auto["ms"] - best_ms > args.floor:
                    c["slower_floor"] += 1
                    c["worst"].append((ratio, index, best_backend, best_ms, auto["ms"]))
    row = lambda label, key: f"| {label} | " + " | ".join(str(counts[a][key]) for a in autos) + " |"
    lines = [
        "### auto against the best single backend, per predicate\n",
        f"`python3 benchmarks/portfolio_vs_best.py --chunk {args.chunk} --stride {args.stride} "
        f"--timeout {args.timeout} --backends {args.backends}"
        + (" --alt-bsolve ALT" if args.alt_bsolve else "")
        + f"`: {len(by_index)} predicates, wall time {wall:.0f} s; decided by some single backend: "
        f"{compared}; opposite answers (sat vs unsat) between backends: {len(flips)}.\n",
        "| | " + " | ".join(autos) + " |",
        "|---|" + "---|" * len(autos),
        row("undecided where a single backend decided", "undecided"),
        row("slower than 2x the best", "slower"),
        row(f"... and more than {args.floor} ms slower", "slower_floor"),
        "",
    ]
    for a in autos:
        lines.append(f"Worst of {a} (index, best backend and its ms, auto's ms):\n")
        for ratio, index, b, best_ms, auto_ms in sorted(counts[a]["worst"], reverse=True)[: args.top]:
            shown = "undecided" if auto_ms is None else f"{auto_ms:.1f} ms ({ratio:.1f}x)"
            lines.append(f"- {index}: {b} {best_ms:.1f} ms, {a} {shown}")
        lines.append("")
    for index, answers in flips:
        lines.append(f"- opposite answers at {index}: {answers}")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bsolve", default=os.path.join(ROOT, "target", "release", "bsolve"))
    p.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "predicates.csv"))
    p.add_argument("--backends", default="native,kodkod,z3,auto")
    p.add_argument("--timeout", type=int, default=2500)
    p.add_argument("--chunk", type=int, default=20)
    p.add_argument("--stride", type=int, default=80)
    p.add_argument("--offset", type=int, default=0)
    p.add_argument("--floor", type=float, default=1.0, help="ms of absolute difference counted as noise")
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--results", default=None, help="also write the JSON lines to this file")
    p.add_argument("--from-results", default=None)
    p.add_argument("--alt-bsolve", default=None, help="a second binary whose auto runs as backend auto@alt")
    args = p.parse_args()
    if args.from_results:
        records = [json.loads(l) for l in open(args.from_results)]
        wall = 0.0
    else:
        records, wall = collect(args)
        if args.results:
            with open(args.results, "w") as f:
                for r in records:
                    f.write(json.dumps(r) + "\n")
    print(summarise(records, args, wall))


if __name__ == "__main__":
    main()
