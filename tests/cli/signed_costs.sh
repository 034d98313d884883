#!/usr/bin/env bash
# Signed costs end to end (issue 50 part 3; docs/format.md, "Signed costs"): files of
# differences, as Valgrind's cg_diff writes them, read as signed numbers by every command, with
# the numbers Valgrind's own annotators print (tests/signed/README.md says where each file and
# each reference output comes from).
#  * annotate: PROGRAM TOTALS and every function row of cg_annotate 3.19 on cg_diff's output
#    of two real cachegrind runs, and on Valgrind's test file ann2.cgout; the totals line of
#    callgrind_annotate 3.19 (which agrees with cg_annotate on them).
#  * check: the signed totals (text and --json), one negative-cost note, exit 0.
#  * merge: old + (new - old) is new (same totals as new.cachegrind); merging is still
#    byte-associative with a signed input among unsigned ones.
#  * diff -o: `calltree diff OLD NEW -o DELTA` of the two cachegrind runs annotates to cg_diff's
#    numbers; DELTA is read back by check and export (pprof, read by `go tool pprof` where it
#    is installed); a diff report of two signed files shows signed totals.
#  * errors: a negative cost below -2^63 is an error with a code (number-overflow), exit 1,
#    never a wrong number.
# Usage: bash signed_costs.sh CALLTREE [CORPUS_DIR]
set -u
ct=$(realpath "$1")
data=$(realpath "$(dirname "$0")/../signed")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
exec /usr/bin/python3 - "$ct" "$data" <<'EOF'
import json, os, re, shutil, subprocess, sys

ct, data = sys.argv[1], sys.argv[2]
failed = []

def fail(msg):
    print("FAIL:", msg)
    failed.append(msg)

def run(*args, code=0):
    r = subprocess.run([ct, *args], capture_output=True, text=True)
    if r.returncode != code:
        fail("calltree %s exited %d (want %d): %s" % (" ".join(args), r.returncode, code, r.stderr[-2000:]))
    return r

def d(name):
    return os.path.join(data, name)

PERC = re.compile(r"\(\s*-?[\d.]+%\)")

def rows(report):
    """{name: [numbers]} of a callgrind_annotate/cg_annotate report's function table, and the
    PROGRAM TOTALS numbers. Percentages are dropped; '.' counts as None."""
    totals, table = None, {}
    for line in report.splitlines():
        line = PERC.sub(" ", line)
        toks = line.split()
        if not toks:
            continue
        nums = []
        i = 0
        while i < len(toks) and re.fullmatch(r"-?[\d,]+|\.", toks[i]):
            nums.append(None if toks[i] == "." else int(toks[i].replace(",", "")))
            i += 1
        if not nums or i == len(toks):
            continue
        name = " ".join(toks[i:])
        if name.startswith("PROGRAM TOTALS"):
            totals = nums
        elif totals is not None and name not in table:
            table[name] = nums
    return totals, table

def same_rows(what, got, want, dots_as_zero=False):
    """The totals, and every row calltree printed (at least 3; its threshold counts magnitudes,
    cg_annotate's lists rows of 0.1 % and more) with cg_annotate's numbers."""
    gt, gr = rows(got)
    wt, wr = rows(want)
    z = (lambda v: [0 if x is None else x for x in v]) if dots_as_zero else (lambda v: v)
    if gt != wt:
        fail("%s: PROGRAM TOTALS %s, want %s" % (what, gt, wt))
    if len(gr) < 3:
        fail("%s: %d rows" % (what, len(gr)))
    for n in gr:
        if n not in wr:
            fail("%s: a row %s that cg_annotate does not print" % (what, n))
        elif z(gr[n]) != z(wr[n]):
            fail("%s: %s is %s, want %s" % (what, n, gr[n], wr[n]))
    return gr

def ref(name):
    with open(d(name)) as f:
        return f.read()

# --- annotate: Valgrind's numbers -------------------------------------------------------------
for f in ["cg_diff.out", "ann2.cgout"]:
    r = run("annotate", "--auto=no", d(f))
    cg = ref(f + ".cg_annotate.txt")
    got = same_rows("annotate " + f + " vs cg_annotate", r.stdout, cg)
    cga_totals, _ = rows(ref(f + ".callgrind_annotate.txt"))
    if rows(r.stdout)[0] != cga_totals:
        fail("annotate %s: totals %s, callgrind_annotate's %s" % (f, rows(r.stdout)[0], cga_totals))
    if "negative-cost" not in r.stderr and "negative number" not in r.stderr:
        pass  # (annotate prints only errors and warnings; the note is check's)

# The largest change first, whatever its sign (cg_annotate's order).
r = run("annotate", "--auto=no", d("cg_diff.out"))
_, table = rows(r.stdout)
first = list(table)[:3]
if [n.split(":")[-1] for n in first] != ["checksum", "fill", "work"]:
    fail("annotate cg_diff.out: order %s, want checksum, fill, work" % first)
if "-330,149 (100.0%)" not in r.stdout:
    fail("annotate cg_diff.out: no '-330,149 (100.0%)' PROGRAM TOTALS:\n" + r.stdout[:1500])
if "(79.42%)" not in r.stdout or "(-29.1%)" not in r.stdout:
    fail("annotate cg_diff.out: percentages of the total not those of cg_annotate (79.42%, -29.1%)")
r = run("annotate", "--auto=no", d("ann2.cgout"))
if "-1,000,000 (-1000.0%)" not in r.stdout:
    fail("annotate ann2.cgout: neg3 not -1,000,000 (-1000.0%):\n" + r.stdout[:3000])

# JSON: signed numbers.
j = json.loads(run("annotate", "--json", d("cg_diff.out")).stdout)
text = json.dumps(j)
if "-330149" not in text or "18446744073709" in text:
    fail("annotate --json cg_diff.out: totals not -330149 / a wrapped number: " + text[:600])

# --- check --------------------------------------------------------------------------------------
r = run("check", d("cg_diff.out"))
if "Ir=-330149" not in r.stdout or "Dr=-32782" not in r.stdout:
    fail("check cg_diff.out: " + r.stdout)
if r.stderr.count("[negative-cost]") != 1 or "not a number" in r.stderr:
    fail("check cg_diff.out: want one negative-cost note: " + r.stderr)
j = json.loads(run("check", "--json", d("cg_diff.out")).stdout.splitlines()[0])
if j["totals"]["Ir"] != -330149 or (j["summary"] and j["summary"]["Ir"] != -330149):
    fail("check --json cg_diff.out: " + json.dumps(j)[:500])
r = run("check", d("ann2.cgout"))
if "A=100000 SomeCount=100000 VeryLongEventName=0" not in r.stdout:
    fail("check ann2.cgout: " + r.stdout)
# An unsigned file after a signed one in one check: its own numbers.
r = run("check", d("cg_diff.out"), d("old.cachegrind"))
if "Ir=-330149" not in r.stdout or re.search(r"old.cachegrind: ok: .*Ir=-", r.stdout):
    fail("check cg_diff.out old.cachegrind: " + r.stdout)

# --- errors: never a wrong number ---------------------------------------------------------------
with open("edges.cgout", "w") as f:
    f.write("events: A B\nfl=a.c\nfn=f\n1 -9223372036854775808 9223372036854775807\n"
            "2 -9223372036854775809 1\n3 5 -1\n")
r = run("check", "edges.cgout", code=1)
if "[number-overflow]" not in r.stderr or "A=-9223372036854775803 B=9223372036854775806" not in r.stdout:
    fail("check edges.cgout: %s %s" % (r.stdout, r.stderr))

# --- merge: old + (new - old) = new; associativity ----------------------------------------------
run("merge", d("old.cachegrind"), d("cg_diff.out"), "-o", "sum.cg")
want_new = rows(run("annotate", "--auto=no", d("new.cachegrind")).stdout)[0]
got_sum = rows(run("annotate", "--auto=no", "sum.cg").stdout)[0]
if want_new != got_sum:
    fail("merge old + cg_diff: totals %s, want new's %s" % (got_sum, want_new))
a, b, c = d("old.cachegrind"), d("cg_diff.out"), d("new.cachegrind")
run("merge", a, b, c, "-o", "flat.cg")
run("merge", a, b, "-o", "ab.cg")
run("merge", "ab.cg", c, "-o", "ab_c.cg")
run("merge", b, c, "-o", "bc.cg")
run("merge", a, "bc.cg", "-o", "a_bc.cg")
blobs = [open(x, "rb").read() for x in ["flat.cg", "ab_c.cg", "a_bc.cg"]]
if not (blobs[0] == blobs[1] == blobs[2]):
    fail("merge with a signed input is not associative byte for byte")
run("merge", d("cg_diff.out"), "-o", "self.cg")
self_totals = rows(run("annotate", "--auto=no", "self.cg").stdout)[0]
if self_totals != rows(ref("cg_diff.out.cg_annotate.txt"))[0]:
    fail("merge cg_diff.out alone: totals %s" % self_totals)
if not re.search(r"^totals: -330149 0 0 -32782", open("self.cg").read(), re.M):
    fail("merge cg_diff.out: no signed totals: line")

# --- diff -o: the difference as a callgrind file, as cg_diff writes -----------------------------
run("diff", d("old.cachegrind"), d("new.cachegrind"), "-o", "delta.cg")
delta = open("delta.cg").read()
if "desc: Files compared: " not in delta or not re.search(r"^\S+ -\d", delta, re.M):
    fail("diff -o: no 'Files compared' or no negative cost line:\n" + delta[:800])
r = run("annotate", "--auto=no", "delta.cg")
# (A row's trailing zero costs are left out, as merge writes them: annotate shows ".".)
same_rows("annotate of diff -o vs cg_annotate of cg_diff", r.stdout, ref("cg_diff.out.cg_annotate.txt"),
          dots_as_zero=True)
r = run("check", "delta.cg")
if "Ir=-330149" not in r.stdout or "FAILED" in r.stdout:
    fail("check delta.cg: " + r.stdout + r.stderr)
run("diff", d("old.cachegrind"), d("new.cachegrind"), "-o", "delta.cg", "--json", code=2)
# The delta of a file with itself is all zero; the delta of NEW with itself plus... 
run("diff", d("new.cachegrind"), d("new.cachegrind"), "-o", "zero.cg")
if "Ir=0 " not in run("check", "zero.cg").stdout:
    fail("diff -o of a file with itself is not zero")

# A diff report of two files of differences: signed totals, signed change.
j = json.loads(run("diff", "--json", d("cg_diff.out"), "delta.cg").stdout)
t = json.dumps(j)
if "18446744073709" in t or "-330149" not in t:
    fail("diff --json cg_diff.out delta.cg: " + t[:800])
r = run("diff", d("cg_diff.out"), "delta.cg")
if "-330,149" not in r.stdout:
    fail("diff cg_diff.out delta.cg: no -330,149:\n" + r.stdout[:1500])

# --- export ----------------------------------------------------------------------------------
run("export", "--to=pprof", "delta.cg", "-o", "delta.pb.gz")
go = shutil.which("go")
if go:
    r = subprocess.run([go, "tool", "pprof", "-raw", "delta.pb.gz"], capture_output=True, text=True)
    if r.returncode != 0 or not re.search(r"^\s+-262200\b", r.stdout, re.M):
        fail("go tool pprof -raw of the exported delta: no sample -262200:\n" + r.stdout[:1500] + r.stderr[:500])
    r = subprocess.run([go, "tool", "pprof", "-top", "-sample_index=Ir", "delta.pb.gz"], capture_output=True, text=True)
    top = {l.split()[-1]: l.split()[0] for l in r.stdout.splitlines() if re.match(r"^\s+-?\d", l)}
    if r.returncode != 0 or top.get("checksum") != "-262200" or top.get("work") != "96000":
        fail("go tool pprof -top of the exported delta: checksum, work not -262200, 96000:\n" + r.stdout[:1500] + r.stderr[:500])

# --to=json (the model, docs/json.md): costs with their sign, as check --json gives the totals,
# never a bit pattern (18446744073709289416 for -262200); written as the file is read or not,
# on one thread or several: the same bytes.
for threads in ("1", "2"):
    run("export", "--to=json", "--threads=" + threads, d("cg_diff.out"), "-o", "model%s.json" % threads)
if open("model1.json", "rb").read() != open("model2.json", "rb").read():
    fail("export --to=json of cg_diff.out: --threads=1 and 2 differ")
text = open("model1.json").read()
if re.search(r"\b\d{19,}\b", text):
    fail("export --to=json of cg_diff.out: a cost as its bit pattern: " + re.search(r"\b\d{19,}\b", text).group(0))
m = json.loads(text)
self_col = m["costs"]["columns"].index("self")
got = {}
for r in m["costs"]["rows"]:
    got[r[1]] = got.get(r[1], 0) + r[self_col][0]
by_name = {m["functions"][i]["name"]: c for i, c in got.items()}
if (by_name.get("checksum"), by_name.get("work")) != (-262200, 96000):
    fail("export --to=json of cg_diff.out: checksum, work not -262200, 96000: %r" % ((by_name.get("checksum"), by_name.get("work")),))
if m["parts"][0]["totals"][0] != -330149 or m["parts"][0]["summary"][0] != -330149:
    fail("export --to=json of cg_diff.out: the part's totals and summary not -330149: %r" % m["parts"][0])

# report --html: the functions above the threshold by size (|inclusive| >= 0.1 % of |total|):
# checksum, fill, work; main's -72 is below.
r = run("report", "--html", "-o", "report.html", d("cg_diff.out"))
if "3 of 339 functions" not in r.stderr:
    fail("report --html of cg_diff.out: not 3 of 339 functions: " + r.stderr)

if failed:
    print("%d failures" % len(failed))
    sys.exit(1)
print("ok")
EOF
