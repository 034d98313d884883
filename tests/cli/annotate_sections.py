#!/usr/bin/env python3
"""Normalises a callgrind_annotate report for comparison: the order of annotated source
files and of equal-cost caller/callee lines is Perl hash order in callgrind_annotate, so
source sections are sorted by file name and runs of tree/call lines with equal costs are
sorted. Everything else is kept byte for byte."""
import re
import sys

FANCY = "-" * 80 + "\n"

def cost_of(line):
    m = re.match(r"^(.*?)\s+(<|>  |=>) ", line)
    return m.group(1).strip() if m else None

def sort_equal_runs(lines):
    out, run = [], []
    def flush():
        run.sort()
        out.extend(run)
        run.clear()
    for l in lines:
        c = cost_of(l)
        kind = re.search(r" (<|>  |=>) ", l)
        key = (c, kind.group(1)) if c is not None and kind else None
        if run and key is not None and key == run_key[0]:
            run.append(l)
            continue
        flush()
        if key is not None:
            run.append(l)
            run_key[0] = key
        else:
            out.append(l)
    flush()
    return out

run_key = [None]
text = open(sys.argv[1], encoding="latin-1").read().splitlines(keepends=True)
text = sort_equal_runs(text)
# Split into head, source sections, tail.
starts = [i - 1 for i, l in enumerate(text)
          if re.match(r"^-- (Auto|User)-annotated source: ", l) and i > 0 and text[i - 1] == FANCY]
tail_start = len(text)
for i, l in enumerate(text):
    if l.startswith("The following files chosen for auto-annotation") or l.endswith(" events annotated\n"):
        tail_start = i - 3 if l.endswith(" events annotated\n") else i - 1
        break
if not starts:
    sys.stdout.write("".join(text))
    sys.exit(0)
head = text[:starts[0]]
sections = []
bounds = starts + [tail_start]
for a, b in zip(bounds, bounds[1:]):
    sections.append("".join(text[a:b]))
sections.sort()
sys.stdout.write("".join(head) + "".join(sections) + "".join(text[tail_start:]))
