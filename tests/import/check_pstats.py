#!/usr/bin/env python3
"""check_pstats.py CALLTREE DIR — calltree's reading of cProfile/profile files, against pstats.

For every DIR/*.prof (and, where /usr/bin/python3 is, fresh profiles of DIR/*.py made by its
cProfile and profile modules), loads the file with Python's own pstats.Stats and compares with
`calltree annotate --json --raw --inclusive=yes` (callgrind_annotate's sums: the calls into a
function, self-calls included) and the default method (cycles):
- every function's self cost is its tottime, its inclusive cost its cumtime, in ns, within the
  rounding src/import/pstats.cc documents (each number within 0.5 ns; cProfile's default timer
  counts whole ns, which makes them equal); recursive functions (fib, is_even, a cycle of three)
  included; a root's (no caller) inclusive is its self + its calls out;
- every caller -> callee call count is pstats' nc, exactly;
- the totals are the sum of the tottimes; `calltree check` finds no error; the file converted
  to callgrind's format gives valgrind's callgrind_annotate (where installed) the same PROGRAM
  TOTALS.
Exits non-zero on the first file that differs, saying where.
"""
import json
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def label(func):
    """pstats' (file, line, name) as calltree names it: a code object (profile's top frame)
    as `<code object NAME, file "F", line N>`."""
    file, line, name = func
    if not isinstance(name, str):
        name = '<code object %s, file "%s", line %d>' % (name.co_name, name.co_filename,
                                                         name.co_firstlineno)
    return file, line, name


def ns(seconds):
    return seconds * 1e9


def keys_of(stats):
    """Each pstats function's annotate key, `file:name`, `name:line` where one file has the
    name at several lines (pstats.cc)."""
    funcs = set(stats)
    for v in stats.values():
        funcs.update(v[4])
    lines = {}
    for f in funcs:
        file, line, name = label(f)
        lines.setdefault((file, name), set()).add(line)
    keys = {}
    for f in funcs:
        file, line, name = label(f)
        if len(lines[(file, name)]) > 1:
            name = "%s:%d" % (name, line)
        keys[f] = "%s:%s" % (file, name)
    return keys


def annotate(calltree, path, cwd, raw):
    cmd = [calltree, "annotate", "--json", "--inclusive=yes"] + (["--raw"] if raw else []) + [path]
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s: %s\n%s" % (" ".join(cmd), r.returncode, r.stderr))
    return {f["key"]: f for f in json.loads(r.stdout)["functions"]}, json.loads(r.stdout)


def check_file(calltree, path, cwd):
    stats = pstats.Stats(path).stats
    timed = any(isinstance(cv, tuple) for v in stats.values() for cv in v[4].values())
    keys = keys_of(stats)
    raw, _ = annotate(calltree, path, cwd, True)
    cyc, doc = annotate(calltree, path, cwd, False)
    name = os.path.basename(path)
    checked = 0
    worst = 0.0  # the largest |calltree - pstats * 1e9| of a self or (non-root) inclusive cost
    for func, (cc, nc, tt, ct, callers) in stats.items():
        key = keys[func]
        if key not in raw:
            fail("%s: %s is not in calltree's report" % (name, key))
        f = raw[key]
        self_ns, inc_ns = f["self"]["ns"], f["inclusive"]["ns"]
        if abs(self_ns - ns(max(tt, 0))) > 0.5 + 1e-9 * ns(tt):
            fail("%s: %s self %d ns, pstats tottime %r s" % (name, key, self_ns, tt))
        # call counts, per caller and in all
        got = {c["function"]: c["count"] for c in f["callers"]}
        want = {}
        for c, cv in callers.items():
            want[keys[c]] = want.get(keys[c], 0) + (cv[0] if isinstance(cv, tuple) else cv)
        if got != want:
            fail("%s: %s callers %r, pstats %r" % (name, key, got, want))
        if callers and sum(want.values()) == nc and sum(got.values()) != nc:
            fail("%s: %s called %d times, pstats ncalls %d" % (name, key, sum(got.values()), nc))
        # inclusive = cumtime (a root: its self and calls out, which cProfile's cumtime is)
        if callers or timed:
            slack = 0.5 * (1 + (0 if callers else len(f["callees"]))) + 1e-9 * ns(ct)
            if abs(inc_ns - ns(ct)) > slack:
                fail("%s: %s inclusive %d ns (raw), pstats cumtime %r s" % (name, key, inc_ns, ct))
            cf = cyc[key]
            others = [c for c in callers if c != func]
            if others and cf["cycle"] is None and abs(cf["inclusive"]["ns"] - ns(ct)) > slack:
                fail("%s: %s inclusive %d ns (cycles), pstats cumtime %r s"
                     % (name, key, cf["inclusive"]["ns"], ct))
        worst = max(worst, abs(self_ns - ns(max(tt, 0))), abs(inc_ns - ns(ct)) if callers else 0)
        if nc != cc or func[2] in ("fib", "is_even", "is_odd", "a", "b", "c", "walk"):
            print("  %s: %s ncalls %d/%d tottime %.9f cumtime %.9f -> self %d inclusive %d ns"
                  % (name, key, nc, cc, tt, ct, self_ns, inc_ns))
        checked += 1
    total_tt = sum(max(v[2], 0) for v in stats.values())
    total = doc["totals"]["ns"]  # (the cycles method's: --raw --inclusive=yes sums otherwise)
    if abs(total - ns(total_tt)) > 0.5 * len(stats) + 1e-9 * ns(total_tt):
        fail("%s: totals %d ns, pstats total_tt %r s" % (name, total, total_tt))
    r = subprocess.run([calltree, "check", path], capture_output=True, text=True)
    if r.returncode != 0 or " 0 errors" not in r.stdout + r.stderr:
        fail("%s: calltree check: %s%s" % (name, r.stdout, r.stderr))
    annotate_tool = shutil.which("callgrind_annotate")
    if annotate_tool:
        out = os.path.join(cwd, name + ".callgrind")
        r = subprocess.run([calltree, "convert", "-o", out, path], capture_output=True, text=True)
        if r.returncode != 0:
            fail("%s: calltree convert: %s" % (name, r.stderr))
        r = subprocess.run([annotate_tool, out], capture_output=True, text=True)
        m = re.search(r"^\s*([\d,]+)\s.*PROGRAM TOTALS", r.stdout, re.M)
        if r.returncode != 0 or not m or int(m.group(1).replace(",", "")) != total:
            fail("%s: callgrind_annotate of the converted file: %s%s" % (name, r.stdout[:2000],
                                                                         r.stderr))
    print("ok %s: %d functions, total %d ns (pstats %.9f s), at most %.3g ns off%s" % (
        name, checked, total, total_tt, worst, ", callgrind_annotate agrees" if annotate_tool else ""))


def main():
    calltree, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    files = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".prof"))
    if not files:
        fail("no .prof file in " + src)
    with tempfile.TemporaryDirectory() as tmp:
        producer = "/usr/bin/python3"
        if os.access(producer, os.X_OK):
            for script in sorted(f for f in os.listdir(src) if f.endswith(".py")):
                shutil.copy(os.path.join(src, script), tmp)
                base = script[:-3]
                for module, suffix in (("cProfile", ""), ("profile", "-profile")):
                    out = "fresh-%s%s.prof" % (base, suffix)
                    subprocess.run([producer, "-m", module, "-o", out, script], cwd=tmp,
                                   check=True, capture_output=True)
                    files.append(os.path.join(tmp, out))
        else:
            print("(no %s: the committed files only)" % producer)
        run_dir = os.path.join(tmp, "run")
        os.mkdir(run_dir)
        for f in files:
            check_file(calltree, f, run_dir)


if __name__ == "__main__":
    main()
