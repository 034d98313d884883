#!/usr/bin/env python3
"""export's call-tree transforms (--merge-clones, --collapse-recursion, --collapse-direct-recursion,
--collapse-object; views/stack_transform.h) on every corpus file, in folded stacks.

Each transform only merges or renames frames: the folded stacks' total is the unflagged export's.
--merge-clones leaves no clone suffix (.constprop.N, .isra.N, .part.N, .cold, .lto_priv.N) in a
frame; --collapse-object=RE names the object's frames by the object; --collapse-recursion on the
recursion corpus leaves no function under itself (a function: its name without callgrind's
recursion level `'2` or caller context). --focus-path=PATH on the heaviest call path of two
frames: every stack starts at its second frame, and their total is the path's (the note says
what was left out); a path no stack has leaves nothing, with a warning. (Where callgrind named
frames by their callers, f'g, which folded writes f under g, the path may not be found.) A bad
expression is exit 2; --to=dot refuses the transforms; export's note on standard error names
them.

The flags apply in their command-line order: on the recursion corpus, libc collapsed and then
every recursion collapsed is not every recursion collapsed and then libc (libc calling back
into the program, which calls libc again, is one libc frame only in the first order); both
keep the total, and the note names the steps in that order.
"""
import os
import re
import subprocess
import sys

import corpus

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()
CLONE = re.compile(r"\.(constprop|isra|part|lto_priv)\.\d+(\W|$)|\.cold(\W|$)|\[clone \.")


def folded(path, *flags):
    """{stack: cost} and standard error of `calltree export --to=folded` with the flags."""
    r = subprocess.run([calltree, "export", "--to=folded", path, "-o", "-", *flags],
                       capture_output=True)
    assert r.returncode == 0, "%s: exit %d: %s" % (flags, r.returncode, r.stderr.decode())
    stacks = {}
    for line in r.stdout.decode(errors="replace").splitlines():
        stack, _, cost = line.rpartition(" ")
        stacks[stack] = stacks.get(stack, 0) + int(cost)
    return stacks, r.stderr.decode(errors="replace")


def check(path):
    plain, _ = folded(path)
    total = sum(plain.values())
    for flags in (["--merge-clones"], ["--collapse-direct-recursion"],
                  ["--merge-clones", "--collapse-recursion", "--collapse-object=lib"]):
        got, err = folded(path, *flags)
        assert sum(got.values()) == total, "%s: total %d, unflagged %d" % (
            flags, sum(got.values()), total)
        assert len(got) <= len(plain), "%s: more stacks than unflagged" % flags
        assert "left out 0 of" in err or not err, "%s: %s" % (flags, err)
        if "--merge-clones" in flags:
            for stack in got:
                for frame in stack.split(";"):
                    assert not CLONE.search(frame), "%s: a clone left: %s" % (flags, frame)
    # The heaviest path of two frames (names without recursion levels or contexts, which
    # folded writes otherwise than the tree names them).
    two = {}
    for stack, cost in plain.items():
        frames = stack.split(";")
        if len(frames) >= 2 and "'" not in frames[0] + frames[1]:
            key = frames[0] + ";" + frames[1]
            two[key] = two.get(key, 0) + cost
    if two:
        heaviest = max(sorted(two), key=two.get)
        got, err = folded(path, "--focus-path=" + heaviest)
        if "matched no call path" in err:
            # (A file of callgrind's caller contexts names a frame f'g where folded, under its
            # caller g, writes f: the path names frames as the tree does.)
            assert any("'" in stack for stack in plain), "--focus-path=%s: %s" % (heaviest, err)
        else:
            root = heaviest.split(";")[1]
            for stack in got:
                assert stack == root or stack.startswith(root + ";"), \
                    "--focus-path=%s: a stack from elsewhere: %s" % (heaviest, stack)
            assert sum(got.values()) == two[heaviest], \
                "--focus-path=%s: total %d, the path's %d" % (
                    heaviest, sum(got.values()), two[heaviest])
            assert "left out %d of %d " % (total - two[heaviest], total) in err, \
                "--focus-path=%s: %s" % (heaviest, err)
        none, err = folded(path, "--focus-path=" + heaviest + ";no such function")
        assert not none and "matched no call path" in err, "a path no stack has: %s" % err


files = [f for f in corpus.corpus_files(corpus_dir) if os.path.getsize(f) < 20 << 20]
failures = corpus.parallel(check, files)

# Known answers: the gxx cc1plus profile has clones; the recursion corpus recursion.
cc1 = os.path.join(corpus_dir, "vg-gxx-small-default.cc1plus.callgrind")
plain, _ = folded(cc1)
merged, err = folded(cc1, "--merge-clones")
if not any(CLONE.search(s) for s in plain):
    failures.append("cc1plus: no clone in the unflagged stacks")
if any(CLONE.search(s) for s in merged) or len(merged) > len(plain):
    failures.append("cc1plus: --merge-clones left a clone, or made stacks")
if "merge_clones" not in err:
    failures.append("cc1plus: the note does not name merge_clones: " + err)
rec = os.path.join(corpus_dir, "vg-recurse-default.callgrind")
collapsed, _ = folded(rec, "--collapse-recursion")
plain, _ = folded(rec)


def functions(stack):
    """A stack's functions: names without callgrind's recursion level or caller context."""
    return [n.split("'")[0] for n in stack.split(";")]


if not any(len(set(functions(s))) < len(functions(s)) for s in plain):
    failures.append("recurse: no recursion in the unflagged stacks")
for s in collapsed:
    names = functions(s)
    if len(set(names)) != len(names):
        failures.append("recurse: a function under itself after --collapse-recursion: " + s)
        break
libc, _ = folded(rec, "--collapse-object=libc")
if not any(";/usr/lib/x86_64-linux-gnu/libc.so.6" in s for s in libc):
    failures.append("recurse: no frame named by libc after --collapse-object=libc")
LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6"
object_first, err_of = folded(rec, r"--collapse-object=libc\.so", "--collapse-recursion")
recursion_first, err_rf = folded(rec, "--collapse-recursion", r"--collapse-object=libc\.so")
total = sum(plain.values())
if sum(object_first.values()) != total or sum(recursion_first.values()) != total:
    failures.append("recurse: a transform order changed the total")
if object_first == recursion_first:
    failures.append("recurse: --collapse-object then --collapse-recursion is the other order")
if any(s.split(";").count(LIBC) > 1 for s in object_first):
    failures.append("recurse: libc under libc after --collapse-object=libc --collapse-recursion")
if not any(s.split(";").count(LIBC) > 1 for s in recursion_first):
    failures.append("recurse: no libc under libc after --collapse-recursion --collapse-object")
if "collapse_object=libc\\.so collapse_recursion=:" not in err_of or \
        "collapse_recursion= collapse_object=libc\\.so:" not in err_rf:
    failures.append("recurse: the notes do not name the steps in order: " + err_of + err_rf)
for flags, want in ((["--collapse-recursion=("], 2), (["--to=dot", "--merge-clones"], 2)):
    cmd = [calltree, "export", rec, "-o", os.path.join(tmp, "x")]
    if flags[0] != "--to=dot":
        cmd.append("--to=folded")
    r = subprocess.run(cmd + flags, capture_output=True)
    if r.returncode != want:
        failures.append("%s: exit %d, not %d" % (flags, r.returncode, want))
corpus.finish("export transforms", failures, len(files))
