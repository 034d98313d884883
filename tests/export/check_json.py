#!/usr/bin/env python3
"""export --to=json: the model as "calltree-model" JSON (docs/json.md), complete and exact.

For every corpus file: the document parses, names its schema and version; its cost rows,
summed per (function name, row file), are the self costs `calltree annotate --json` prints,
for every event; summed per part they are the part's totals; its call rows' counts, summed
per (caller, callee) name pair, are annotate's call counts; files recorded with
--collect-jumps have jump rows, and every index in a row points into its table. Into a file
the rows are written as the profile is read (export/model_json_stream.h), onto standard
output from the whole model: the two are the same bytes, on every corpus file and on a file
the stream gives up on (a later part with another event: the model is written instead).
"""
import json
import os
import shutil
from collections import defaultdict

import corpus

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()


def check(path):
    out = os.path.join(tmp, os.path.basename(path) + ".model.json")
    corpus.run([calltree, "export", "--to=json", path, "-o", out], cwd=tmp)
    with open(out, "rb") as f:
        written = f.read()
    assert written == corpus.run([calltree, "export", "--to=json", path, "-o", "-"], cwd=tmp), \
        "-o FILE (streamed) and -o - (the model) differ"
    m = json.loads(written)
    assert m["schema"] == "calltree-model" and m["version"] == 2
    # Row tables: {"columns": [...], "rows": [[...]]}; each row as a dict of its columns.
    tables = {}
    for t in ("costs", "calls", "jumps"):
        cols = m[t]["columns"]
        assert len(set(cols)) == len(cols), "%s: columns %s" % (t, cols)
        for row in m[t]["rows"]:
            assert len(row) == len(cols), "%s: row %s, columns %s" % (t, row, cols)
        tables[t] = [dict(zip(cols, row)) for row in m[t]["rows"]]
    pos = m["positions"]
    assert tables["costs"] == [] or [c for c in m["costs"]["columns"] if c in pos] == pos
    events = [e["name"] for e in m["events"]]
    r = json.loads(corpus.run([calltree, "annotate", "--json", "--auto=no", path], cwd=tmp))
    assert events == r["recorded_events"], "events %s, annotate %s" % (events, r["recorded_events"])
    fn, files = m["functions"], m["files"]
    got = defaultdict(lambda: [0] * len(events))
    per_part = defaultdict(lambda: [0] * len(events))
    for row in tables["costs"]:
        assert 0 <= row["function"] < len(fn) and 0 <= row["file"] < len(files)
        key = (fn[row["function"]]["name"], files[row["file"]])
        for i, v in enumerate(row["self"]):
            got[key][i] += v
            per_part[row["part"]][i] += v
    want = {(f["name"], f["file"]): [f["self"][e] for e in events] for f in r["functions"]}
    gotn = {k: v for k, v in got.items() if any(v)}
    wantn = {k: v for k, v in want.items() if any(v)}
    assert gotn == wantn, "self costs differ on %s" % sorted(
        set(map(lambda kv: (kv[0], tuple(kv[1])), gotn.items())) ^
        set(map(lambda kv: (kv[0], tuple(kv[1])), wantn.items())))[:4]
    for i, p in enumerate(m["parts"]):
        assert p["totals"] == per_part.get(i + 1, [0] * len(events)), "part %d totals" % (i + 1)
    calls = defaultdict(int)
    for c in tables["calls"]:
        assert 0 <= c["caller"] < len(fn) and 0 <= c["callee"] < len(fn)
        calls[(fn[c["caller"]]["name"], fn[c["callee"]]["name"])] += c["count"]
    want_calls = defaultdict(int)
    name_of = {f["key"]: f["name"] for f in r["functions"]}
    for f in r["functions"]:
        for c in f["callees"]:
            want_calls[(f["name"], name_of[c["function"]])] += c["count"]
    for k, v in want_calls.items():
        if v:
            assert calls.get(k) == v, "calls %s: %s in the model, %d in annotate" % (
                k, calls.get(k), v)
    if "jumps" in os.path.basename(path):
        assert tables["jumps"], "no jump rows"
        for j in tables["jumps"]:
            assert 0 <= j["target_function"] < len(fn)


def check_given_up():
    """A part that brings an event after rows were written: the stream gives up, the model is
    written instead (the same document as onto standard output)."""
    path = os.path.join(tmp, "two-parts.callgrind")
    with open(path, "w") as f:
        f.write("# callgrind format\nversion: 1\npart: 1\nevents: Ir\nfl=a.c\nfn=f\n1 10\n"
                "# callgrind format\nversion: 1\npart: 2\nevents: Ir Dr\nfl=a.c\nfn=g\n2 1 2\n")
    out = os.path.join(tmp, "two-parts.json")
    corpus.run([calltree, "export", "--to=json", path, "-o", out], cwd=tmp)
    with open(out, "rb") as f:
        written = f.read()
    assert written == corpus.run([calltree, "export", "--to=json", path, "-o", "-"], cwd=tmp)
    m = json.loads(written)
    assert [e["name"] for e in m["events"]] == ["Ir", "Dr"]
    assert m["costs"]["rows"] == [[1, 0, 1, 1, [10, 0]], [2, 1, 1, 2, [1, 2]]], m["costs"]


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)
try:
    check_given_up()
except Exception as e:  # noqa: BLE001 (reported like a file's failure)
    failures.append("two-parts.callgrind: %s" % e)
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export json", failures, len(files))
