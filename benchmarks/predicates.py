#!/usr/bin/env python3
"""Run `bsolve solve --pred-file` on the predicate corpus and summarise it against ProB.

    python3 benchmarks/predicates.py                       # the whole corpus, 1 process
    python3 benchmarks/predicates.py --jobs 2 --limit 300  # a slice, in 2 parallel processes
    python3 benchmarks/predicates.py --from-results r.jsonl  # summarise an earlier run

The corpus CSV (`../shared/corpus/predicates.csv` next to the repository) has a `model`, a `predicate` and a
`prob_ms` column (ProB's time, negative when ProB did not decide it). bsolve prints one JSON line per
predicate; the lines are kept with --results. A bsolve process that dies (a crash) or prints nothing for
--hang seconds is killed; its current predicate is recorded as an `error` and the slice goes on after it.
The summary, a markdown section, goes to stdout.
"""

import argparse
import csv
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_binary():
    for profile in ("release", "debug"):
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        path = os.path.join(target, profile, "bsolve")
        if os.path.exists(path):
            return path
    return "bsolve"


def read_corpus(path):
    """The corpus rows, in file order (the order of bsolve's `index`)."""
    csv.field_size_limit(sys.maxsize)
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def reader_thread(stream, lines):
    for line in stream:
        lines.put(line)
    lines.put(None)


def run_slice(args, start, end, results, lock):
    """Runs bsolve on [start, end), restarting after a predicate that crashed or hung the process."""
    next_index = start
    while next_index < end:
        cmd = [
            args.bsolve, "solve", "--pred-file", args.corpus, "--timeout", str(args.timeout),
            "--offset", str(next_index), "--limit", str(end - next_index),
        ] + (["--backend", args.backend] if args.backend else [])
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines = queue.Queue()
        threading.Thread(target=reader_thread, args=(proc.stdout, lines), daemon=True).start()
        failure = None
        while True:
            try:
                line = lines.get(timeout=args.hang)
            except queue.Empty:
                proc.kill()
                failure = f"hang: no answer within {args.hang} s (process killed)"
                break
            if line is None:
                break
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            with lock:
                results[record["index"]] = record
            next_index = record["index"] + 1
        code = proc.wait()
        if next_index < end and failure is None:
            failure = f"crash: bsolve exited with code {code}"
        if failure is not None and next_index < end:
            with lock:
                results[next_index] = {
                    "index": next_index, "answer": "error", "ms": None, "reason": failure,
                }
            next_index += 1


def run(args, total):
    start = args.offset
    end = total if args.limit is None else min(total, start + args.limit)
    jobs = max(1, args.jobs)
    size = (end - start + jobs - 1) // jobs
    results, lock = {}, threading.Lock()
    threads = [
        threading.Thread(
            target=run_slice, args=(args, s, min(end, s + size), results, lock)
        )
        for s in range(start, end, max(1, size))
    ]
    began = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [results[i] for i in sorted(results)], time.time() - began


def cause(reason):
    """The first words of a reason, with names, numbers and types blanked, so that like reasons group."""
    words = []
    for w in (reason or "no reason given").split():
        words.append("_" if re.search(r"[0-9(){}`'\"*<>:]", w.rstrip(":")) else w)
        if len(words) == 4:
            break
    return " ".join(words)


def median(xs):
    return f"{statistics.median(xs):.1f}" if xs else "-"


def pct(n, d):
    return f"{100.0 * n / d:.1f} %" if d else "-"


def summarise(records, corpus, args, wall):
    n = len(records)
    answers = Counter(r["answer"] for r in records)
    decided = [r for r in records if r["answer"] in ("sat", "unsat")]
    prob_ms = {r["index"]: float(corpus[r["index"]].get("prob_ms") or -1) for r in records}
    prob_decided = [i for i, t in prob_ms.items() if t >= 0]
    ours = {r["index"] for r in decided}
    theirs = set(prob_decided)
    out = []
    out.append("### Predicate corpus\n")
    out.append(
        f"`bsolve solve --pred-file {os.path.relpath(args.corpus, ROOT)} --timeout {args.timeout}`"
        f"{' --backend ' + args.backend if args.backend else ''}: {n} predicates"
        f" (index {records[0]['index'] if records else 0}..{records[-1]['index'] if records else 0}),"
        f" {args.jobs} process(es), wall time {wall:.0f} s.\n"
    )
    out.append("| | bsolve | ProB (`prob_ms` >= 0) |")
    out.append("|---|---|---|")
    out.append(f"| decided (sat + unsat) | {len(ours)} ({pct(len(ours), n)}) | "
               f"{len(theirs)} ({pct(len(theirs), n)}) |")
    out.append(f"| median time of decided (ms) | {median([r['ms'] for r in decided])} | "
               f"{median([prob_ms[i] for i in prob_decided])} |")
    both = ours & theirs
    out.append(f"| median time on predicates both decided (ms) | "
               f"{median([r['ms'] for r in decided if r['index'] in both])} | "
               f"{median([prob_ms[i] for i in both])} |")
    out.append("")
    out.append(f"Both decided: {len(both)}; only bsolve: {len(ours - theirs)}; only ProB: "
               f"{len(theirs - ours)}; neither: {n - len(ours | theirs)}.\n")
    out.append("| answer | count |")
    out.append("|---|---|")
    for a in ("sat", "unsat", "unknown", "error"):
        out.append(f"| {a} | {answers.get(a, 0)} |")
    out.append("")
    causes = Counter()
    examples = {}
    for r in records:
        if r["answer"] in ("unknown", "error"):
            key = (r["answer"], cause(r.get("reason")))
            causes[key] += 1
            examples.setdefault(key, r.get("reason") or "")
    out.append(f"Top causes of unknown / error (reasons grouped by their first words):\n")
    out.append("| answer | cause | count | example |")
    out.append("|---|---|---|---|")
    for (answer, key), count in causes.most_common(args.top):
        example = examples[(answer, key)].replace("|", "\\|")[:120]
        out.append(f"| {answer} | {key} | {count} | {example} |")
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bsolve", default=default_binary(), help="the bsolve binary")
    p.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "predicates.csv"))
    p.add_argument("--timeout", type=int, default=2500, help="per-predicate timeout (ms)")
    p.add_argument("--backend", default=None, help="--backend for bsolve (default: its own)")
    p.add_argument("--offset", type=int, default=0)
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--jobs", type=int, default=1, help="parallel bsolve processes (slices)")
    p.add_argument("--hang", type=float, default=120.0,
                   help="seconds without output after which a bsolve process is killed")
    p.add_argument("--results", default=None, help="also write the JSON lines to this file")
    p.add_argument("--from-results", default=None, help="summarise these JSON lines instead of running")
    p.add_argument("--top", type=int, default=12, help="number of causes listed")
    args = p.parse_args()
    args.corpus = os.path.abspath(args.corpus)
    corpus = read_corpus(args.corpus)
    if args.from_results:
        with open(args.from_results) as f:
            records = [json.loads(l) for l in f if l.strip()]
        wall = 0.0
    else:
        records, wall = run(args, len(corpus))
    if args.results and not args.from_results:
        with open(args.results, "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    sys.stdout.write(summarise(records, corpus, args, wall))


if __name__ == "__main__":
    main()
