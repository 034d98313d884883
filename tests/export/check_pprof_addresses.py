"""pprof export of instruction-level profiles, read by the real `go tool pprof`.

For every corpus file with instruction positions (`positions: instr line` or `instr`):
  * `go tool pprof -raw` lists one Mapping per `ob=` object that has addresses, whose
    [memory_start, memory_limit) holds every address of its locations, with has_functions;
  * every location with a self cost has an address, and the samples summed per (address,
    function) are, event by event, the self costs of that instruction as `calltree dump
    --profile` reads the file (summed over its source lines), so the totals are exact too;
  * `go tool pprof -top -addresses` on the first file shows the same flat cost per address.
Usage: check_pprof_addresses.py CALLTREE CORPUS_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

from check_pprof_lib import raw_sections

FILES = ["vg-phases-instr-jumps-nocompress-pos.callgrind", "vg-sort-instr-noline.callgrind",
         "vg-recurse-cacheuse.callgrind"]
LOC = re.compile(r"^\s*(\d+): 0x([0-9a-f]+) (?:M=(\d+) )?(.*?) (\S*):(\d+) s=\d+")
MAP = re.compile(r"^(\d+): 0x([0-9a-f]+)/0x([0-9a-f]+)/0x[0-9a-f]+ (.*?)  (\[.*\])?$")
COST = re.compile(r'^cost ob="(.*?)" fl=".*?" fi=".*?" fn="(.*?)" pos=(0x[0-9a-f]+|\d+)(?::\d+)? costs=\[(.*)\]$')


def fail(msg):
    print("FAIL:", msg)
    return 1


def expected(ct, path):
    """{(address, function): {event: cost}} and the objects with addresses, from dump."""
    out = subprocess.run([ct, "dump", "--profile", "--no-line-numbers", path],
                         capture_output=True, text=True, check=True).stdout
    costs = defaultdict(lambda: defaultdict(int))
    objects = set()
    events = []
    for line in out.splitlines():
        if line.startswith("part "):
            events = line.split("events=[", 1)[1].split("]", 1)[0].split()
            continue
        m = COST.match(line)
        if not m:
            continue
        ob, fn, pos, values = m.groups()
        address = int(pos, 16) if pos.startswith("0x") else int(pos)
        for e, v in zip(events, values.split()):
            if int(v):
                costs[(address, fn)][e] += int(v)
        if ob:
            objects.add(ob)
    return costs, objects


def pprof_raw(path, env):
    text = subprocess.run(["go", "tool", "pprof", "-raw", path], capture_output=True,
                          text=True, check=True, env=env).stdout
    types, samples, lines = raw_sections(text)
    locs, maps = {}, {}
    for line in lines["Locations"]:
        m = LOC.match(line)
        if m:
            locs[int(m.group(1))] = (int(m.group(2), 16), int(m.group(3) or 0), m.group(4))
    for line in lines["Mappings"]:
        m = MAP.match(line)
        if m:
            maps[int(m.group(1))] = (int(m.group(2), 16), int(m.group(3), 16), m.group(4),
                                     m.group(5) or "")
    return [t.split("/")[0] for t in types], locs, samples, maps


def check(ct, corpus, name, tmp, env, top):
    path = os.path.join(corpus, name)
    out = os.path.join(tmp, name + ".pb.gz")
    subprocess.run([ct, "export", "--to=pprof", "--addresses=yes", path, "-o", out], check=True,
                   capture_output=True)
    want, objects = expected(ct, path)
    types, locs, samples, maps = pprof_raw(out, env)
    bad = 0
    # Mappings: one per object with addresses, covering its locations' addresses.
    names = {m[2] for m in maps.values()}
    if not objects <= names:
        bad |= fail("%s: objects without a mapping: %s" % (name, sorted(objects - names)[:5]))
    for lid, (address, mid, fn) in locs.items():
        if address and mid:
            lo, hi, _, flags = maps[mid]
            if not lo <= address < hi:
                bad |= fail("%s: location %d at %#x outside its mapping [%#x, %#x)"
                            % (name, lid, address, lo, hi))
            if "[FN]" not in flags:
                bad |= fail("%s: mapping %d without has_functions" % (name, mid))
    # Self costs per (address, function): exactly dump's.
    got = defaultdict(lambda: defaultdict(int))
    for values, ids in samples:
        address, _, fn = locs[ids[0]]
        for t, v in zip(types, values):
            if v:
                got[(address, fn)][t] += v
    want = {k: dict(v) for k, v in want.items()}
    got = {k: dict(v) for k, v in got.items()}
    if got != want:
        diff = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
        bad |= fail("%s: %d of %d (address, function) self costs differ, e.g. %s: %s vs %s"
                    % (name, len(diff), len(want), diff[0], got.get(diff[0]), want.get(diff[0])))
    addressed = sum(1 for (a, _) in got if a)
    if addressed < len(want) * 0.9:
        bad |= fail("%s: only %d of %d instructions have an address" % (name, addressed, len(want)))
    if top:
        # The same through -top -addresses: flat per address line.
        text = subprocess.run(["go", "tool", "pprof", "-top", "-addresses", "-nodecount=40", out],
                              capture_output=True, text=True, check=True, env=env).stdout
        rows = re.findall(r"^\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+\d+\s+[\d.]+%\s+([0-9a-f]{16}) (\S+)",
                          text, re.M)
        if len(rows) < 20:
            bad |= fail("%s: -top -addresses listed %d rows:\n%s" % (name, len(rows), text))
        for flat, address, fn in rows:
            w = want.get((int(address, 16), fn), {}).get(types[0], 0)
            if int(flat) != w:
                bad |= fail("%s: -top -addresses %s %s flat %s, dump says %d"
                            % (name, address, fn, flat, w))
    if not bad:
        print("ok: %s: %d instructions, %d mappings, self costs per address exact"
              % (name, len(want), len(maps)))
    return bad


def main():
    ct, corpus = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"), GOFLAGS="",
                   GOTOOLCHAIN="local", PPROF_TMPDIR=tmp)
        bad = 0
        for i, name in enumerate(FILES):
            bad |= check(ct, corpus, name, tmp, env, i == 0)
    return bad


if __name__ == "__main__":
    sys.exit(main())
