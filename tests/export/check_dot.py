#!/usr/bin/env python3
"""export --to=dot, drawn by the real Graphviz `dot -Tsvg`; and --to=svg / --to=png.

For every corpus file: `dot -Tsvg` accepts the export; the SVG it draws (parsed as XML) shows
one node per function whose inclusive cost is at least 0.5 % of the total (gprof2dot's
default --node-thres), labelled with the function's name, its inclusive % and its self %, and one arrow per call
between two shown functions of at least 0.1 % (--edge-thres). Functions are the model's
(object, fl= file, name): in a file without inlined code (no fi=/fe= lines) those are
`calltree annotate --json`'s keys, and every number is checked against it; in one with
inlined code annotate keys the inlined code apart, so the self % of each box is checked
against the model's self costs (corpus.annotate) and the rest is left to tests/unit's
view_sums_test (the views and the exports share the session's functions). Then --to=svg and --to=png through Graphviz, and a missing
Graphviz: a clear error, exit 1, no file.
"""
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import corpus

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()
NS = "{http://www.w3.org/2000/svg}"


def svg_of(dot_file):
    return corpus.run(["dot", "-Tsvg", dot_file])


def check(path):
    base = os.path.join(tmp, os.path.basename(path))
    corpus.run([calltree, "export", "--to=dot", path, "-o", base + ".dot"])
    d = json.loads(corpus.run([calltree, "annotate", "--json", "--auto=no", path]))
    e = d["recorded_events"][0]
    # (Shares are of the program total, annotate's PROGRAM TOTALS: calltree/totals.h.)
    total = d["totals"][e]
    root = ET.fromstring(svg_of(base + ".dot"))
    if corpus.has_inlined_code(path):
        return check_self_shares(root, path, e, total)
    shown = {}
    edges = 0
    for g in root.iter(NS + "g"):
        cls = g.get("class")
        if cls == "node":
            texts = [t.text or "" for t in g.iter(NS + "text")]
            shown[texts[0]] = texts[1:]
        elif cls == "edge":
            edges += 1
    want = {}
    want_edges = 0
    by_key = {f["key"]: f for f in d["functions"]}
    for f in d["functions"]:
        if total and f["inclusive"][e] * 100 >= 0.5 * total:
            want.setdefault(f["name"], []).append(f)
    for f in d["functions"]:
        if f["key"] not in {g["key"] for gs in want.values() for g in gs}:
            continue
        for c in f["callees"]:
            callee = by_key[c["function"]]
            if callee["key"] != f["key"] and callee["name"] in want and \
                    callee in want[callee["name"]] and c["cost"][e] * 100 >= 0.1 * total:
                want_edges += 1
    assert set(shown) == set(want), "nodes differ: only svg %s, only annotate %s" % (
        sorted(set(shown) - set(want))[:5], sorted(set(want) - set(shown))[:5])
    for name, fs in want.items():
        if len(fs) != 1:
            continue  # (one name in several files: several boxes of one title)
        f = fs[0]
        incl = "%.2f%%" % (100.0 * f["inclusive"][e] / total)
        self_ = "(%.2f%%)" % (100.0 * f["self"][e] / total)
        assert shown[name][:2] == [incl, self_], "%s: svg shows %s, annotate %s %s" % (
            name, shown[name], incl, self_)
    assert edges == want_edges, "%d arrows drawn, %d calls above 0.1 %%" % (edges, want_edges)


def check_self_shares(root, path, e, total):
    """A file with inlined code: each box's self % is its function's, as the model has it."""
    _, self_of, _ = corpus.annotate(calltree, path)
    by_name = {}
    for (name, _), costs in self_of.items():
        by_name.setdefault(name, []).append(costs[e])
    boxes = 0
    for g in root.iter(NS + "g"):
        if g.get("class") != "node":
            continue
        texts = [t.text or "" for t in g.iter(NS + "text")]
        selfs = by_name.get(texts[0], [])
        assert selfs, "%s: no function of that name" % texts[0]
        if len(selfs) != 1:
            continue  # (one name in several files or objects: several boxes of one title)
        want = "(%.2f%%)" % (100.0 * selfs[0] / total)
        assert texts[2] == want, "%s: svg shows %s, the model %s" % (texts[0], texts[1:3], want)
        boxes += 1
    assert boxes > 0, "no box checked"


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)


def check_drawn(_):
    f = os.path.join(corpus_dir, "vg-recurse-default.callgrind")
    svg, png = os.path.join(tmp, "drawn.svg"), os.path.join(tmp, "drawn.png")
    corpus.run([calltree, "export", "--to=svg", f, "-o", svg])
    texts = [t.text for t in ET.parse(svg).getroot().iter(NS + "text")]
    assert "cyc_a" in texts, texts[:10]
    corpus.run([calltree, "export", "--to=png", f, "-o", png])
    with open(png, "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
    missing = os.path.join(tmp, "missing.svg")
    r = subprocess.run([calltree, "export", "--to=svg", "--dot-command=/nonexistent/dot", f,
                        "-o", missing], capture_output=True, text=True)
    assert r.returncode == 1, r
    assert "needs Graphviz" in r.stderr, r.stderr
    assert not os.path.exists(missing)
    assert not [x for x in os.listdir(tmp) if x.startswith(".missing")], os.listdir(tmp)


failures += corpus.parallel(check_drawn, ["svg, png, no Graphviz"])
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export dot", failures, len(files) + 1)
