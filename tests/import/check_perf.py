#!/usr/bin/env python3
"""check_perf.py CALLTREE DIR — `perf script` text read right (src/import/perf_script.cc).

For every perf-*.txt in DIR, this script reads the samples itself (its own parse, simpler than
calltree's: regular expressions, as FlameGraph's stackcollapse-perf.pl does) and checks that the model
calltree reads (`calltree export --to=json`: a function is its object, file and name) has:
  - each event's total: the sum of the samples' periods, and for an event with periods,
    EVENT_samples: the number of its samples; an event whose samples print no period is
    EVENT_samples alone, 1 a sample;
  - each function's self cost, by (object, function): the samples whose innermost frame it is;
  - each function's inclusive cost, the sum of the calls into it: the samples whose stack it is
    on, once a stack (stacks.h), recursion or not;
  - kernel frames apart: their object is the kernel's ([kernel.kallsyms], a vmlinux);
and that `calltree convert` writes a callgrind file that reads back to the same costs.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

HEADER = re.compile(
    r"^\s*(?P<comm>\S.*?)\s+(?P<pid>\d+)(?:/(?P<tid>\d+))?"
    r"(?:\s+\[\d+\])?(?:\s+(?P<time>\d+\.\d+):)?(?:\s+(?P<period>\d+))?"
    r"(?:\s+(?P<event>[^\s\d]\S*):)?(?:\s+(?P<rest>.*))?$")
FRAME = re.compile(r"^\s*(?P<addr>[0-9a-fA-F]{1,16})(?:\s+(?P<rest>.*))?$")
OFFSET = re.compile(r"\+0x[0-9a-fA-F]+$")


def frame_of(text):
    """(address, symbol, dso or None) of a frame line, or None."""
    m = FRAME.match(text)
    if not m:
        return None
    rest = (m.group("rest") or "").strip()
    dso = None
    if rest.endswith(")") and " (" in rest:
        rest, dso = rest.rsplit(" (", 1)
        dso = dso[:-1]
    elif rest.startswith("(") and rest.endswith(")"):
        rest, dso = "", rest[1:-1]
    sym = OFFSET.sub("", rest.strip()) or "[unknown]"
    return int(m.group("addr"), 16), sym, dso


def header_of(line):
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    m = HEADER.match(line)
    if not m or not (m.group("time") or m.group("event")):
        return None
    return m


def samples(path):
    """Each sample: (event, period or None, stack of (object, function), innermost first)."""
    out = []
    cur = None

    def close():
        if cur is None:
            return
        frames = cur["frames"] or cur["own"]
        stack = []
        for i, (addr, sym, dso) in enumerate(frames):
            if dso == "inlined":
                # the dso of the nearest address (its own first)
                real = [(abs(a - addr), k, d) for k, (a, s, d) in enumerate(frames)
                        if d != "inlined"]
                dso = min(real)[2] if real else None
            stack.append((dso or "", sym))
        stack.append(("", cur["comm"]))
        out.append((cur["event"], cur["period"], stack))

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.strip():
                close()
                cur = None
                continue
            if line.startswith("#"):
                continue
            m = header_of(line)
            if m:
                close()
                own = frame_of(m.group("rest") or "") if m.group("rest") else None
                cur = {"comm": m.group("comm"), "event": m.group("event") or "",
                       "period": int(m.group("period")) if m.group("period") else None,
                       "frames": [], "own": [own] if own else []}
                continue
            fr = frame_of(line)
            assert cur is not None and fr is not None, f"{path}: cannot read {line!r}"
            cur["frames"].append(fr)
    close()
    return out


def columns(event, period, with_period):
    """The (column, value) pairs a sample of `event` adds to: the event's period and, for an
    event with periods, EVENT_samples its count; an event whose samples print no period counts
    samples, and is named so (EVENT_samples)."""
    samples_col = (event + "_samples") if event else "samples"
    if event not in with_period:
        return [(samples_col, 1)]
    return [(event or "period", period if period is not None else 1), (samples_col, 1)]


def expected(path):
    """(totals, self, inclusive): by event column; self and inclusive by (object, function)."""
    smp = samples(path)
    with_period = {e for e, p, _ in smp if p is not None}
    totals = defaultdict(int)
    self_ = defaultdict(lambda: defaultdict(int))
    incl = defaultdict(lambda: defaultdict(int))
    for event, period, stack in smp:
        for col, v in columns(event, period, with_period):
            totals[col] += v
            self_[stack[0]][col] += v
            for fn in set(stack):
                incl[fn][col] += v
    return totals, self_, incl, len(smp)


def model(calltree, path):
    """(totals, self, inclusive) from `calltree export --to=json` (the model: a function is its
    object + file + name). Inclusive: the sum of the calls into a function, or for one that
    nothing calls (the comm), its self cost and the calls it makes."""
    out = subprocess.run([calltree, "export", "--to=json", "-o", "-", path],
                         check=True, capture_output=True, text=True).stdout
    doc = json.loads(out)
    events = [e["name"] for e in doc["events"]]
    keys = [(doc["objects"][f["object"]], f["name"]) for f in doc["functions"]]
    assert len(set(keys)) == len(keys), f"{path}: a function twice"

    def add(into, key, values):
        for e, v in zip(events, values):
            if v:
                into[key][e] += v

    totals = defaultdict(int)
    self_ = defaultdict(lambda: defaultdict(int))
    into = defaultdict(lambda: defaultdict(int))
    out_of = defaultdict(lambda: defaultdict(int))
    for row in doc["costs"]["rows"]:
        add(self_, keys[row[1]], row[4])
        for e, v in zip(events, row[4]):
            totals[e] += v
    called = set()
    for row in doc["calls"]["rows"]:
        caller, callee = keys[row[1]], keys[row[4]]
        called.add(callee)
        add(into, callee, row[7])
        add(out_of, caller, row[7])
    incl = {}
    for k in keys:
        if k in called:
            incl[k] = dict(into[k])
        else:
            incl[k] = {e: self_[k].get(e, 0) + out_of[k].get(e, 0) for e in events}
    return dict(totals), self_, incl


def compare(path, calltree, shown):
    totals, self_, incl, n = expected(path)
    got_totals, got_self, got_incl = model(calltree, shown)
    problems = []
    if got_totals != dict(totals):
        problems.append(f"totals {got_totals} != {dict(totals)}")
    nonzero = lambda d: {k: v for k, v in d.items() if v}
    for key in set(self_) | set(got_self):
        got, want = nonzero(got_self.get(key, {})), nonzero(self_.get(key, {}))
        if got != want:
            problems.append(f"self of {key}: {got} != {want}")
    for key in set(incl) | set(got_incl):
        got, want = nonzero(got_incl.get(key, {})), nonzero(incl.get(key, {}))
        if got != want:
            problems.append(f"inclusive of {key}: {got} != {want}")
    kernel = sum(1 for (obj, _) in self_ if obj.startswith("[kernel") or obj.endswith("vmlinux"))
    return problems, n, len(self_), kernel


def main():
    calltree, folder = sys.argv[1], sys.argv[2]
    files = sorted(f for f in os.listdir(folder) if f.startswith("perf-") and f.endswith(".txt"))
    assert len(files) >= 5, f"only {len(files)} perf script files in {folder}"
    failed = 0
    kernel_total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in files:
            path = os.path.join(folder, name)
            problems, n, leaves, kernel = compare(path, calltree, path)
            # the same costs from the callgrind file `calltree convert` writes
            converted = os.path.join(tmp, name + ".callgrind")
            subprocess.run([calltree, "convert", "-o", converted, path], check=True)
            again, _, _, _ = compare(path, calltree, converted)
            problems += [f"(converted) {p}" for p in again]
            kernel_total += kernel
            status = "ok" if not problems else "FAILED"
            print(f"{name}: {n} samples, {leaves} leaf functions ({kernel} kernel): {status}")
            for p in problems[:20]:
                print("   ", p)
            failed += bool(problems)
    if kernel_total == 0:
        print("no kernel frame in any file: kernel frames untested")
        failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
