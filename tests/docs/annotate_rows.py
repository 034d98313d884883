#!/usr/bin/env python3
"""annotate_rows.py — what library.md (Task 2) and python.md say of their function rows against
`calltree annotate`'s: the same rows for a function whose cost lines all lie in one file, and for
a function with inlined code one row in the library, one per file in annotate (which keys a row
by each cost line's fi=/fe= file, as callgrind_annotate does), their self costs adding up to the
library's. Checked on the corpus's recurse profile, whose libc functions have code inlined from
libc's headers; and each page that likens its rows to annotate's says when they are not.

Usage: annotate_rows.py CALLTREE PROFILE DOCS_DIR   (the Python package on PYTHONPATH)
"""
import collections
import os
import re
import subprocess
import sys

import calltree

tool, profile, docs = sys.argv[1:4]
bad = []

ROW = re.compile(r"^ *([\d,]+) \([ \d.]+%\)  (.*?)(?: <cycle \d+>)?(?: \[(.*)\])?$")


def annotate_rows(*flags):
    out = subprocess.check_output([tool, "annotate", "--auto=no", "--threshold=100", *flags, profile], text=True)
    lines = out.split("\n")
    start = next(i for i, l in enumerate(lines) if l.rstrip().endswith("file:function")) + 2
    rows = []
    for l in lines[start:]:
        if not l.strip() or l.startswith("---"):
            break
        m = ROW.match(l)
        if not m:
            bad.append("annotate: a row not understood: %r" % l)
            continue
        file, _, name = m.group(2).partition(":")
        rows.append((int(m.group(1).replace(",", "")), m.group(3) or "", file, name))
    return rows


p = calltree.load(profile)
f = p.functions()
lib_self = collections.Counter()
lib_count = collections.Counter()
lib_incl = {}
for _, r in f.iterrows():
    key = r["name"]  # (by name: annotate leaves out some rows' object)
    lib_self[key] += int(r["self:Ir"])
    lib_count[key] += 1
    lib_incl[key] = int(r["inclusive:Ir"])

ann_self = collections.Counter()
ann_files = collections.defaultdict(set)
for cost, obj, file, name in annotate_rows():
    ann_self[name] += cost
    ann_files[name].add((obj, file))
split = [k for k in ann_files if len(ann_files[k]) > lib_count[k]]
if not split:
    bad.append("no function is split by file in annotate: the profile shows nothing")
for k in ann_self:
    if ann_self[k] != lib_self[k]:
        bad.append("%s: annotate's rows' self cost %d, the library's %d" % (k, ann_self[k], lib_self[k]))
# One file, one row: the same inclusive cost.
same = 0
for cost, obj, file, name in annotate_rows("--inclusive=yes"):
    k = name
    if len(ann_files[k]) == 1 and lib_count[k] == 1 and k in lib_incl:
        same += 1
        if lib_incl[k] != cost:
            bad.append("%s: annotate's inclusive %d, the library's %d" % (k, cost, lib_incl[k]))
top = p.top(10)
for _, r in top.iterrows():
    k = r["name"]
    if len(ann_files[k]) != lib_count[k]:
        bad.append("a top-10 row is split by annotate: %s (%s)" % (k, sorted(ann_files[k])))
example = sorted(split)[0]
print("ok: %d functions split by file in annotate (e.g. %s: %s), their self costs adding up; "
      "%d functions of one file with annotate's inclusive cost"
      % (len(split), example, ", ".join(sorted(f for _, f in ann_files[example])), same))

# The pages that liken their rows to annotate's say when they are not.
for page in ("library.md", "python.md"):
    text = re.sub(r"\s+", " ", open(os.path.join(docs, page)).read())
    for m in re.finditer(r"rows (?:are those )?of `calltree annotate --inclusive=yes`|"
                         r"of `calltree annotate --inclusive=yes`", text):
        near = text[max(0, m.start() - 300):m.end() + 500]
        if "one source file" not in near or "one row per file" not in near:
            bad.append("%s: likens its rows to annotate's without saying when they differ: ...%s..."
                       % (page, text[max(0, m.start() - 80):m.end() + 80]))

for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
