#!/usr/bin/python3
"""trend.py — one function's cost across a folder of runs, with the calltree package and pandas.

    trend.py DIR FUNCTION [--event=E] [--plot=FILE.png]

Reads every profile in DIR (the files calltree can read; others are skipped with a word on
stderr), in name order, and prints a table of FUNCTION's self and inclusive cost and its share
of each run's total; --plot draws the inclusive cost per run (needs matplotlib:
python3-matplotlib).
"""

import argparse
import sys
from pathlib import Path

import pandas as pd

import calltree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("dir", type=Path)
    ap.add_argument("function")
    ap.add_argument("--event")
    ap.add_argument("--plot", metavar="FILE")
    args = ap.parse_args()

    rows = []
    for path in sorted(p for p in args.dir.iterdir() if p.is_file()):
        try:
            p = calltree.load(path)
        except calltree.Error as e:
            print(f"trend: skipped: {e}", file=sys.stderr)
            continue
        event = args.event or p.events[0]
        if event not in p.events:
            print(f"trend: skipped: {path}: no event {event}", file=sys.stderr)
            continue
        table = p.functions()
        mine = table[table["name"] == args.function]
        inclusive = int(mine[f"inclusive:{event}"].max()) if len(mine) else 0
        rows.append({"run": path.name, "event": event,
                     "self": int(mine[f"self:{event}"].sum()), "inclusive": inclusive,
                     "share %": round(inclusive * 100 / p.totals[event], 2) if p.totals[event] else 0.0})
    if not rows:
        print(f"trend: no profile in {args.dir}", file=sys.stderr)
        return 1
    runs = pd.DataFrame(rows).set_index("run")
    print(runs.to_string())
    if args.plot:
        ax = runs["inclusive"].plot(kind="bar", title=f"{args.function}: inclusive {runs['event'].iloc[0]} per run",
                                    figsize=(8, 4), rot=30)
        ax.figure.tight_layout()
        ax.figure.savefig(args.plot)
        print(f"trend: plot written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
