#!/usr/bin/env python3
"""python_load.py CALLTREE FILE [--reps=N] [--threads=N] — the Python package's speed on a file.

Times, in N rounds (default 5) that alternate so a shared machine's load falls on each alike:
`calltree check --threads=T FILE` (the tool, a process of its own), `calltree.load(FILE,
threads=T)` in this process, and on that profile the first `functions()` (which computes every
inclusive cost) and a second one (from the table kept). Prints the median, best and worst wall
seconds of each, and the ratios the targets are stated in (docs/performance.md, "Python"):
load / check, from medians. Run with Debian's python3, the package on PYTHONPATH:

    PYTHONPATH=build/python /usr/bin/python3 bench/python_load.py build/calltree big.callgrind

Not a test: on a loaded machine the figures say little (the load average is printed).
"""

import argparse
import os
import statistics
import subprocess
import time

import calltree


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("calltree")
    ap.add_argument("file")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    with open(args.file, "rb") as f:  # in the page cache
        while f.read(1 << 24):
            pass
    times: dict[str, list[float]] = {"check": [], "load": [], "functions() first": [],
                                     "functions() again": []}
    load0 = os.getloadavg()
    rows = 0
    for _ in range(args.reps):
        t0 = time.perf_counter()
        subprocess.run([args.calltree, "check", f"--threads={args.threads}", args.file],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        t1 = time.perf_counter()
        p = calltree.load(args.file, threads=args.threads)
        t2 = time.perf_counter()
        rows = len(p.functions())
        t3 = time.perf_counter()
        p.functions()
        t4 = time.perf_counter()
        del p
        times["check"].append(t1 - t0)
        times["load"].append(t2 - t1)
        times["functions() first"].append(t3 - t2)
        times["functions() again"].append(t4 - t3)
    load1 = os.getloadavg()
    size = os.stat(args.file).st_size / 1e6
    print(f"### {os.path.basename(args.file)} ({size:.1f} MB, {rows} functions, {args.reps} rounds, "
          f"{args.threads} threads; load average {load0[0]:.2f} before, {load1[0]:.2f} after)\n")
    print("| what | median s | best s | worst s |")
    print("|---|---:|---:|---:|")
    med = {}
    for name, t in times.items():
        med[name] = statistics.median(t)
        print(f"| {name} | {med[name]:.3f} | {min(t):.3f} | {max(t):.3f} |")
    print(f"\nload / check: {med['load'] / med['check']:.2f}x; "
          f"first functions() / load: {med['functions() first'] / med['load']:.2f}x")


if __name__ == "__main__":
    main()
