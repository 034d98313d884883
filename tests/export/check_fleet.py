#!/usr/bin/env python3
"""docs/fleet.md's two aggregation paths agree: `calltree merge` then export, and export each
then merge with pprof.

The five per-thread files of one run (vg-threads-separate.t01..t05) are exported to pprof one by
one and merged by the real `go tool pprof -proto` (what a pprof-ingesting engine does with many
profiles); `calltree merge` of the same five files, read by `calltree annotate --json`, gives per
function (name and file) the same self costs as the merged pprof's samples summed per leaf, and
the same total.
"""
import glob
import os
import shutil
import subprocess
from collections import defaultdict

import corpus
from check_pprof_lib import parse_raw, per_function

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()
env = dict(os.environ, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"), GOFLAGS="",
           GOTOOLCHAIN="local", PPROF_TMPDIR=tmp)


def check(_):
    inputs = sorted(glob.glob(os.path.join(corpus_dir, "vg-threads-separate.t0*.callgrind")))
    assert len(inputs) == 5, inputs
    exports = []
    for f in inputs:
        out = os.path.join(tmp, os.path.basename(f) + ".pb.gz")
        corpus.run([calltree, "export", "--to=pprof", f, "-o", out])
        exports.append(out)
    merged_pb = os.path.join(tmp, "all.pb.gz")
    with open(merged_pb, "wb") as fh:
        fh.write(corpus.run(["go", "tool", "pprof", "-proto"] + exports, env=env))
    types, locs, samples = parse_raw(
        corpus.run(["go", "tool", "pprof", "-raw", merged_pb], env=env).decode())
    got = {k: v[0] for k, v in per_function(locs, samples, len(types)).items() if v[0]}
    merged_cg = os.path.join(tmp, "all.callgrind")
    corpus.run([calltree, "merge"] + inputs + ["-o", merged_cg])
    events, self_of, sums = corpus.annotate(calltree, merged_cg)
    want = {"%s %s" % k: v["Ir"] for k, v in self_of.items() if v["Ir"]}
    assert got == want, "pprof's merge and calltree merge differ on %s" % sorted(
        set(got.items()) ^ set(want.items()))[:6]
    assert sum(got.values()) == sums["Ir"] > 0


failures = corpus.parallel(check, ["five threads"])
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export fleet", failures, 1)
