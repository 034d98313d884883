#!/usr/bin/python3
"""gate.py — a CI gate over two Callgrind profiles, with the calltree package.

    gate.py BASELINE CURRENT [--fail-above=PCT] [--event=E]

Prints the program totals of both runs, the 10 functions of highest inclusive cost of the
current one, the callers and callees of the heaviest function with its own code (self cost),
and the functions whose self cost changed most. Exit status 1 when the total of the event
(default: the first) grew by more than PCT percent (default 1), 2 when a profile cannot be read.
"""

import argparse
import sys

import calltree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("baseline")
    ap.add_argument("current")
    ap.add_argument("--fail-above", type=float, default=1.0, metavar="PCT")
    ap.add_argument("--event")
    args = ap.parse_args()
    try:
        base = calltree.load(args.baseline)
        cur = calltree.load(args.current)
    except calltree.Error as e:
        print(f"gate: error: {e}", file=sys.stderr)
        return 2
    for p in (base, cur):
        for d in p.diagnostics:
            if d.severity == "error":
                print(f"{p.path}:{d.line}: {d.message} [{d.code}]", file=sys.stderr)
        if not p.complete:
            print(f"gate: {p.path}: {p.state}: the figures are of the part read", file=sys.stderr)
    event = args.event or cur.events[0]
    if event not in cur.events or event not in base.events:
        print(f"gate: error: no event {event} in both profiles", file=sys.stderr)
        return 2

    old, new = base.totals[event], cur.totals[event]
    grew = (new - old) * 100 / old if old else float("inf") if new else 0.0
    print(f"{event}: {old:,} -> {new:,} ({grew:+.2f}%)")

    print(f"\nthe 10 functions of highest inclusive {event}:")
    top = cur.top(10, by=f"inclusive:{event}")
    for _, row in top.iterrows():
        print(f"{row[f'inclusive:{event}']:>16,} {row[f'inclusive:{event}'] * 100 / new:6.2f}%  {row['name']}")

    hot = cur.top(1, by=f"self:{event}")
    if len(hot):
        f = int(hot.index[0])
        print(f"\ncallers of {hot['name'].iloc[0]} (self {hot[f'self:{event}'].iloc[0]:,}):")
        for _, row in cur.callers(f).head(5).iterrows():
            print(f"{row[f'inclusive:{event}']:>16,} {row['count']:>10,}x  {row['name']}")
        print("callees:")
        for _, row in cur.callees(f).head(5).iterrows():
            print(f"{row[f'inclusive:{event}']:>16,} {row['count']:>10,}x  {row['name']}")

    changes = calltree.diff(base, cur, sort=event, limit=10)
    print(f"\nthe functions whose self {event} changed most "
          f"({changes.attrs['counts']['listed']} listed):")
    for _, row in changes.iterrows():
        print(f"{row['change']:<8} {row[f'self:{event}:old']:>14,} -> {row[f'self:{event}:new']:>14,}  {row['name']}")

    if grew > args.fail_above:
        print(f"\ngate: FAILED: {event} grew by {grew:.2f}% (more than {args.fail_above}%)")
        return 1
    print(f"\ngate: passed ({event} {grew:+.2f}%, at most +{args.fail_above}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
