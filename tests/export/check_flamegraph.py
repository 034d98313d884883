#!/usr/bin/env python3
"""export --to=flamegraph: a standalone SVG, valid XML, exact widths, search working in Chromium.

For every corpus file: python3's XML parser reads the SVG; the bottom frames' totals sum to
the total of the first event (the sum of `calltree annotate --json`'s self costs) and their
widths to the plot's width; every frame's width is its total's share of it; every frame lies
inside its parent, and the children of a frame never total more than it. Then the real
headless Chromium opens one with `#search=cyc_b` and the page it leaves shows the share of
cyc_b's inclusive cost (97.2 %, as annotate's inclusive cost says) and the matched frames.
"""
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import defaultdict

import corpus

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()
NS = "{http://www.w3.org/2000/svg}"


def check(path):
    out = os.path.join(tmp, os.path.basename(path) + ".svg")
    corpus.run([calltree, "export", "--to=flamegraph", path, "-o", out])
    events, self_of, sums = corpus.annotate(calltree, path)
    root = ET.parse(out).getroot()
    width = float(root.get("data-plot-width"))
    total = int(root.get("data-total"))
    assert root.get("data-event") == events[0]
    assert total == sums[events[0]], "total %d, annotate %d" % (total, sums[events[0]])
    frames = [g for g in root.iter(NS + "g") if g.get("data-d") is not None]
    assert frames or total == 0, "no frames"
    stack = []  # (depth, x, w, total, children total)
    bottom_total, bottom_width = 0, 0.0
    children = defaultdict(int)
    for i, g in enumerate(frames):
        d, x, w, t = int(g.get("data-d")), float(g.get("data-x")), float(g.get("data-w")), \
            int(g.get("data-total"))
        assert abs(w - t * width / total) < 1e-3, "width %f for %d of %d" % (w, t, total)
        rect = g.find(NS + "rect")
        assert abs(float(rect.get("width")) - w) < 1e-3
        while stack and stack[-1][0] >= d:
            stack.pop()
        if d == 0:
            bottom_total += t
            bottom_width += w
        else:
            assert stack and stack[-1][0] == d - 1, "frame %d has no parent drawn" % i
            px, pw = stack[-1][1], stack[-1][2]
            assert px - 1e-3 <= x and x + w <= px + pw + 1e-3, "frame %d outside its parent" % i
            children[stack[-1][3]] += t
            assert children[stack[-1][3]] <= stack[-1][4], "children exceed frame %d" % i
        # The label: the name without the caller context the parent shows (folded's rule).
        name, label = g.get("data-name"), g.get("data-label")
        shown = corpus.stack_label(name, stack[-1][5] if d else None)
        assert label == (shown if shown != name else None), (
            "frame %r under %r labelled %r" % (name, stack[-1][5] if d else None, label))
        text = "".join(g.find(NS + "text").itertext())
        assert (label or name).startswith(text.removesuffix("..")), "box text %r" % text
        stack.append((d, x, w, i, t, name))
    assert bottom_total == total, "bottom frames total %d of %d" % (bottom_total, total)
    if total:
        assert abs(bottom_width - width) < 1e-2, "bottom frames %f px of %f" % (bottom_width, width)


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)


def check_browser(_):
    f = os.path.join(corpus_dir, "vg-recurse-default.callgrind")
    out = os.path.join(tmp, "browser.svg")
    corpus.run([calltree, "export", "--to=flamegraph", f, "-o", out])
    d = json.loads(corpus.run([calltree, "annotate", "--json", "--auto=no", f]))
    incl = [x["inclusive"]["Ir"] for x in d["functions"] if x["name"] == "cyc_b"][0]
    want = "Matched: %.1f%%" % (100.0 * incl / d["totals"]["Ir"])
    r = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--user-data-dir=" + os.path.join(tmp, "chromium"), "--dump-dom",
                        "file://" + out + "#search=cyc_b"],
                       capture_output=True, text=True, timeout=120)
    dom = r.stdout
    assert ">" + want + "<" in dom, "Chromium's page has no %r (exit %d): %s" % (
        want, r.returncode, r.stderr[-500:])
    assert dom.count('data-match="1"') >= 1, "no frame matched in Chromium"
    assert "Search: cyc_b" in dom


failures += corpus.parallel(check_browser, ["Chromium search"])
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export flamegraph", failures, len(files) + 1)
