#!/usr/bin/env bash
# `calltree merge` as a reduce step (docs/fleet.md): its output does not depend on how the
# merges are bracketed, byte for byte.
#  * For two sets of corpus files from different producers (callgrind by line, callgrind by
#    instruction with jumps and uncompressed names, Xdebug, gperftools' pprof; a 5-part
#    combined callgrind file, cachegrind, pyprof2calltree), every bracketing of binary merges
#    and every grouping into merges of several files gives the bytes of one flat merge, with
#    `desc: Merged:` counting the original parts and files; also with --parts=keep.
#  * Merging a merged file alone gives it back unchanged.
#  * Commutativity: inputs whose events come in one order (three `events: Ir` files) give the
#    same bytes in every order. Inputs with different event lists (Xdebug's Time Memory,
#    gperftools' Hits) give the events in the order first seen: merge(a,b) and merge(b,a)
#    differ in the order of the cost columns and hold the same costs (dump --profile compared
#    per event name).
# Usage: bash merge_associative.sh CALLTREE CORPUS_DIR
set -u
ct=$(realpath "$1")
corpus=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
exec python3 - "$ct" "$corpus" <<'EOF'
import itertools, os, re, subprocess, sys

ct, corpus = sys.argv[1], sys.argv[2]
failed = []
counter = itertools.count()

def fail(msg):
    print("FAIL:", msg)
    failed.append(msg)

def merge(inputs, *flags):
    out = "m%d.callgrind" % next(counter)
    r = subprocess.run([ct, "merge", *flags, *inputs, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        fail("merge %s exited %d: %s" % (" ".join(inputs), r.returncode, r.stderr))
    return out

def read(path):
    with open(path, "rb") as f:
        return f.read()

def trees(files):
    """Every bracketing of binary merges of `files`, in order: (name, tree)."""
    if len(files) == 1:
        yield short(files[0]), files[0]
        return
    for i in range(1, len(files)):
        for ln, lt in trees(files[:i]):
            for rn, rt in trees(files[i:]):
                yield "(%s %s)" % (ln, rn), (lt, rt)

def groupings(files):
    """Every way to cut `files` into consecutive groups of 2 or more merged first, then merged."""
    n = len(files)
    for cuts in itertools.product([False, True], repeat=n - 1):
        groups, cur = [], [files[0]]
        for f, cut in zip(files[1:], cuts):
            if cut:
                groups.append(cur)
                cur = [f]
            else:
                cur.append(f)
        groups.append(cur)
        if len(groups) in (1, n):
            continue
        yield groups

def run_tree(tree, flags):
    if isinstance(tree, str):
        return tree
    return merge([run_tree(tree[0], flags), run_tree(tree[1], flags)], *flags)

def short(path):
    return os.path.basename(path).split(".")[0]

def check_set(names, parts, flags=()):
    files = [os.path.join(corpus, n) for n in names]
    flat = merge(files, *flags)
    want = read(flat)
    label = " ".join(short(f) for f in files) + (" " + " ".join(flags) if flags else "")
    runs, before = 0, len(failed)
    for name, tree in trees(files):
        got = run_tree(tree, flags)
        runs += 1
        if read(got) != want:
            fail("%s: bracketing %s differs from the flat merge (cmp %s %s)" % (label, name, flat, got))
    for groups in groupings(files):
        got = merge([merge(g, *flags) if len(g) > 1 else g[0] for g in groups], *flags)
        runs += 1
        if read(got) != want:
            fail("%s: grouping %s differs from the flat merge" % (label, [[short(f) for f in g] for g in groups]))
    if not flags:
        text = want.decode("utf-8", "replace")
        want_desc = "desc: Merged: %d parts of %d files summed\n" % (parts, len(files))
        if want_desc not in text:
            fail("%s: no %r in the merged header" % (label, want_desc))
        again = merge([flat])
        if read(again) != want:
            fail("%s: merging the merged file alone changed it" % label)
        r = subprocess.run([ct, "check", flat], capture_output=True, text=True)
        if r.returncode != 0:
            fail("%s: calltree check of the merge: %s" % (label, r.stdout + r.stderr))
    if len(failed) == before:
        print("ok: %s: %d bracketings and groupings give the flat merge's %d bytes"
              % (label, runs, len(want)))

# 1. Associativity, two sets of producers.
set_a = ["vg-recurse-default.callgrind", "vg-phases-instr-jumps-nocompress-pos.callgrind",
         "xdebug-recursion.callgrind", "gperftools-recurse-cpu.callgrind"]
set_b = ["vg-threads-separate-combined.callgrind", "cachegrind-recurse.cachegrind",
         "pyprof2calltree-work.callgrind"]
check_set(set_a, 4)
check_set(set_b, 7)
check_set(set_b, 7, ("--parts=keep",))

# 2. Commutativity where the inputs' events agree: every order, the same bytes.
same_events = [os.path.join(corpus, n) for n in (
    "vg-recurse-default.callgrind", "vg-recurse-separate-recs-callers.callgrind",
    "vg-gxx-small-default.as.callgrind")]
outputs = {order: read(merge(list(order))) for order in itertools.permutations(same_events)}
if len(set(outputs.values())) != 1:
    fail("events: Ir inputs: merge output depends on the order of the inputs")
else:
    print("ok: 3 events: Ir inputs give the same %d bytes in all 6 orders" % len(next(iter(outputs.values()))))

# 3. Different event lists: the columns follow first-seen order, the costs are the same.
def dump_facts(path):
    """dump --profile as a multiset of records whose cost lists (costs=, summary=, totals=...)
    are {event: value} maps, zeros left out, and whose events= list is a set."""
    r = subprocess.run([ct, "dump", "--profile", "--no-line-numbers", path], capture_output=True, text=True)
    facts, events = {}, []
    def by_event(m):
        values = [int(v) for v in m.group(2).split()]
        return "%s=%s" % (m.group(1), sorted((e, v) for e, v in zip(events, values) if v))
    for line in r.stdout.splitlines():
        m = re.search(r" events=\[([^\]]*)\]", line)
        if line.startswith("part ") and m:
            events = m.group(1).split()
            line = line.replace(m.group(0), " events=%s" % sorted(events))
        line = re.sub(r"(\w+)=\[([0-9 ]*)\]", by_event, line)
        facts[line] = facts.get(line, 0) + 1
    return facts

x = os.path.join(corpus, "xdebug-recursion.callgrind")
g = os.path.join(corpus, "gperftools-recurse-cpu.callgrind")
xg, gx = merge([x, g]), merge([g, x])
events_xg = [l for l in read(xg).decode().splitlines() if l.startswith("events:")]
events_gx = [l for l in read(gx).decode().splitlines() if l.startswith("events:")]
if events_xg != ["events: Time_(10ns) Memory_(bytes) Hits"] or events_gx != ["events: Hits Time_(10ns) Memory_(bytes)"]:
    fail("Xdebug + pprof: events %s and %s, not in first-seen order" % (events_xg, events_gx))
fx, fg = dump_facts(xg), dump_facts(gx)
if len(fx) < 50 or fx != fg:
    fail("Xdebug + pprof: merge(a,b) and merge(b,a) hold different costs (%d, %d records)" % (len(fx), len(fg)))
else:
    print("ok: Xdebug + pprof: the two orders hold the same %d records, columns in first-seen order" % len(fx))

sys.exit(1 if failed else 0)
EOF
