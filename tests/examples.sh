#!/usr/bin/env bash
# The library's examples (examples/, docs/library.md) against the calltree tool: the same
# figures from the public API as from the commands.
#   examples.sh EXAMPLES_DIR CALLTREE CORPUS
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=tools/test_files.sh
. "$(dirname "$0")/tools/test_files.sh"
dir=$1
bin=$2
corpus=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. top_functions: each of its 10 rows is a row of annotate --inclusive=yes, same cost.
f=$corpus/vg-recurse-default.callgrind
"$dir/top_functions" "$f" >"$tmp/top" || { echo "FAIL: top_functions exit $?"; fail=1; }
"$bin" annotate --inclusive=yes --auto=no "$f" >"$tmp/annotate"
python3 - "$tmp/top" "$tmp/annotate" <<'PY' || fail=1
import re, sys
top = open(sys.argv[1]).read().splitlines()
ann = open(sys.argv[2]).read().splitlines()
rows = top[1:]
assert len(rows) == 10, top
assert rows[0].split()[0] == "362861224", rows[0]   # the program's root holds everything
for r in rows:
    cost, pct, name = r.split(None, 2)
    want = "{:,}".format(int(cost))
    hits = [a for a in ann if a.strip().startswith(want + " (") and (":" + name + " ") in a]
    assert hits, "no annotate row %s %s" % (want, name)
costs = [int(r.split()[0]) for r in rows]
assert costs == sorted(costs, reverse=True), costs
print("ok: top_functions: 10 rows, each an annotate --inclusive=yes row")
PY

# 2. count_calls: the lines check counts, and the calls dump lists.
f=$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz
"$dir/count_calls" "$f" >"$tmp/count" || { echo "FAIL: count_calls exit $?"; fail=1; }
"$bin" check --json "$f" >"$tmp/check.json"
small=$corpus/vg-phases-dump-before-zero-combined.callgrind
"$dir/count_calls" "$small" >"$tmp/count_small" || fail=1
"$bin" dump --records --no-line-numbers "$small" >"$tmp/dump" 2>/dev/null
python3 - "$tmp/count" "$tmp/check.json" "$tmp/count_small" "$tmp/dump" <<'PY' || fail=1
import json, re, sys
c = open(sys.argv[1]).read()
j = json.load(open(sys.argv[2]))
nums = lambda s: [int(x) for x in re.findall(r"\d+", s)]
parts, cost_lines, call_lines, calls, lines, nbytes, errors, warnings = nums(c)
assert (parts, cost_lines, call_lines, lines, nbytes) == (
    j["parts"], j["cost_lines"], j["call_lines"], j["lines"], j["bytes"]), (c, j)
assert errors == j["errors"] and warnings == j["warnings"]
print("ok: count_calls: parts, cost and call lines, lines and bytes as check --json says")
s = open(sys.argv[3]).read()
dump = open(sys.argv[4]).read().splitlines()
want_calls = sum(int(re.search(r" count=(\d+)", l).group(1)) for l in dump if l.startswith("call "))
want_parts = sum(1 for l in dump if l.startswith("part "))
got = nums(s)
assert got[0] == want_parts and got[3] == want_calls, (s, want_parts, want_calls)
print("ok: count_calls: %d calls in %d parts, as dump --records lists" % (want_calls, want_parts))
PY

# 3. diff_files: the totals and the five largest self-cost changes of calltree diff.
old=$corpus/vg-phases-toggle-collect.callgrind
new=$corpus/vg-phases-dump-before-zero-combined.callgrind
"$dir/diff_files" "$old" "$new" >"$tmp/diff" || { echo "FAIL: diff_files exit $?"; fail=1; }
"$bin" diff --threshold=0 --limit=5 "$old" "$new" >"$tmp/cli_diff" 2>/dev/null
python3 - "$tmp/diff" "$tmp/cli_diff" <<'PY' || fail=1
import re, sys
d = open(sys.argv[1]).read().splitlines()
cli = open(sys.argv[2]).read().splitlines()
m = re.match(r"Ir: (\d+) -> (\d+) \(([-+]\d+\.\d+)%\)", d[0])
assert m, d[0]
tot = [l for l in cli if l.endswith("PROGRAM TOTALS")][0].split()
assert tot[1] == "{:,}".format(int(m.group(1))) and tot[2] == "{:,}".format(int(m.group(2))), tot
assert tot[4] == m.group(3) + "%", (tot, m.group(3))
fm = re.search(r"Functions:\s+\d+ old, \d+ new; \d+ in both \((\d+) changed\), (\d+) added, (\d+) removed",
               "\n".join(cli))
assert d[1] == "%s functions added, %s removed, %s changed" % (fm.group(2), fm.group(3), fm.group(1)), d[1]
rows = d[2:]
cli_rows = [l for l in cli if l.startswith("Ir ") and not l.endswith("PROGRAM TOTALS")]
assert len(rows) == 5 and len(cli_rows) == 5, (rows, cli_rows)
for r, c in zip(rows, cli_rows):
    change, a, _, b, name = r.split()
    cols = c.split()
    assert cols[1] == "{:,}".format(int(a)) and cols[2] == "{:,}".format(int(b)), (r, c)
    assert (":" + name + " ") in c or c.endswith(":" + name), (r, c)
print("ok: diff_files: totals, counts and the five largest changes as calltree diff lists them")
PY
# 4. file_costs: the self cost per source file, and per function of the top file, summed from
# the model's cost rows as export --to=json gives them (whose file and function numbers are
# the ids' indexes); an index that is no file is an error.
f=$corpus/vg-recurse-default.callgrind
"$dir/file_costs" "$f" Ir >"$tmp/files" || { echo "FAIL: file_costs exit $?"; fail=1; }
top_file=$(awk 'NR == 2 {print $2}' "$tmp/files")
"$dir/file_costs" "$f" Ir "$top_file" >"$tmp/file_functions" || { echo "FAIL: file_costs FILE exit $?"; fail=1; }
"$bin" export --to=json -o "$tmp/model.json" "$f" 2>/dev/null
if "$dir/file_costs" "$f" Ir 999999 >/dev/null 2>"$tmp/bad_file" || ! grep -q 'no file 999999' "$tmp/bad_file"; then
  echo "FAIL: file_costs: an index that is no file is not an error"; fail=1
fi
python3 - "$tmp/files" "$tmp/file_functions" "$tmp/model.json" <<'PY' || fail=1
import json, sys
files = open(sys.argv[1]).read().splitlines()[1:]
functions = open(sys.argv[2]).read().splitlines()[1:]
m = json.load(open(sys.argv[3]))
cols = m["costs"]["columns"]
fi, fu, se = cols.index("file"), cols.index("function"), cols.index("self")
ev = [e["name"] for e in m["events"]].index("Ir")
by_file, by_function = {}, {}
top = int(files[0].split()[1])
for r in m["costs"]["rows"]:
    by_file[r[fi]] = by_file.get(r[fi], 0) + r[se][ev]
    if r[fi] == top:
        by_function[r[fu]] = by_function.get(r[fu], 0) + r[se][ev]
def expect(rows, sums, names):
    want = sorted(((c, i) for i, c in sums.items() if c), key=lambda x: (-x[0], x[1]))[:10]
    got = [(int(r.split()[0]), int(r.split()[1])) for r in rows]
    assert got == want, (got, want)
    for r in rows:
        i = int(r.split()[1])
        assert r.split(None, 2)[2] == (names(i) or "(unknown)"), (r, names(i))
assert len(files) == 10 and functions, (files, functions)
expect(files, by_file, lambda i: m["files"][i])
expect(functions, by_function, lambda i: m["functions"][i]["name"])
print("ok: file_costs: the top 10 files and the top file's functions as the model's rows sum")
PY
# (docs/library.md shows file_costs.cc whole, from its first #include: the two are the same.)
python3 - "$(dirname "$0")/../examples/file_costs.cc" "$(dirname "$0")/../docs/library.md" <<'PY' || fail=1
import sys
code = open(sys.argv[1]).read()
code = code[code.index("#include"):]
assert "```cpp\n" + code + "```\n" in open(sys.argv[2]).read(), "library.md's file_costs.cc differs"
print("ok: file_costs: docs/library.md shows examples/file_costs.cc as it is")
PY
# 5. where_is: every function of a name, its inclusive cost annotate's; none: exit 1; no profile:
#    exit 2.
f=$corpus/vg-recurse-default.callgrind
"$dir/where_is" "$f" main >"$tmp/where" || { echo "FAIL: where_is exit $?"; fail=1; }
"$bin" annotate --inclusive=yes --auto=no "$f" >"$tmp/annotate_main"
python3 - "$tmp/where" "$tmp/annotate_main" <<'PY' || fail=1
import re, sys
w = open(sys.argv[1]).read().splitlines()
ann = open(sys.argv[2]).read()
assert len(w) == 1, w
m = re.match(r"main  (\S+)  (\S+): self (\d+), inclusive (\d+) Ir$", w[0])
assert m, w[0]
assert re.search(r"^ *%s \([ \d.]+%%\)  %s:main \[%s\]$" % (
    re.escape("{:,}".format(int(m.group(4)))), re.escape(m.group(2)), re.escape(m.group(1))), ann, re.M), w[0]
print("ok: where_is: main, its object, file and inclusive cost as annotate --inclusive=yes")
PY
"$dir/where_is" "$f" no_such_function >"$tmp/where_none" 2>&1
[[ $? == 1 ]] || { echo "FAIL: where_is of no function: not exit 1"; fail=1; }
grep -qF "no function named 'no_such_function'" "$tmp/where_none" || { echo "FAIL: where_is: no message"; fail=1; }
: >"$tmp/empty"
"$dir/where_is" "$tmp/empty" main >"$tmp/where_empty" 2>&1
[[ $? == 2 ]] || { echo "FAIL: where_is of an empty file: not exit 2"; fail=1; }
grep -qF "[no-profile]" "$tmp/where_empty" || { echo "FAIL: where_is of an empty file: no [no-profile]"; fail=1; }
# 6. The percentages of top_functions and callers are of the program total, annotate's PROGRAM
#    TOTALS (calltree/totals.h), on every corpus profile: never above 100 %, and where the file
#    states a total other than the sum of its self costs, the example says so on stderr.
for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind "$corpus"/*.gz; do
  small_enough "$f" || continue
  for ex in top_functions callers; do
    "$dir/$ex" "$f" >"$tmp/ex_out" 2>"$tmp/ex_err"
    "$bin" annotate --json "$f" >"$tmp/ex_json" 2>/dev/null
    python3 - "$ex" "$f" "$tmp/ex_out" "$tmp/ex_err" "$tmp/ex_json" <<'PY' || fail=1
import json, re, sys
ex, f, out, err, j = sys.argv[1], sys.argv[2], open(sys.argv[3]).read(), open(sys.argv[4]).read(), json.load(open(sys.argv[5]))
first = j["recorded_events"][0]
total = j["totals"][first]
pcts = [float(p) for p in re.findall(r" (\d+\.\d\d)%  ", out)]
assert pcts, (ex, f, out[:300])
assert max(pcts) <= 100.0, "%s %s: %.2f %% (of %s)" % (ex, f, max(pcts), total)
# The top row's share is of annotate's PROGRAM TOTALS.
cost = int(re.search(r"^ *(\d+) +\d+\.\d\d%  ", out, re.M).group(1))
assert abs(100.0 * cost / total - pcts[0]) < 0.006, (ex, f, cost, total, pcts[0])
said = "the file states a total of" in err
assert said == any(w.split(" but ")[0].endswith(" " + first) for w in j["totals_warnings"]), (ex, f, err)
PY
  done
done
[[ $fail == 0 ]] && echo "ok: top_functions, callers: percentages of annotate's PROGRAM TOTALS, none above 100 %, on every corpus profile"

# 7. A profile of differences (Valgrind's cg_diff output, tests/signed): every example prints
#    its costs signed, as annotate does (-262200, never the bit pattern 18446744073709289416),
#    and ranks by the size of the change as annotate does (checksum -262,200, fill -163,896,
#    work +96,000), with the share of annotate's signed total.
delta=$(dirname "$0")/signed/cg_diff.out
"$bin" annotate --inclusive=yes --auto=no "$delta" >"$tmp/delta_annotate"
for ex in top_functions callers top tour file_costs; do
  "$dir/$ex" "$delta" >"$tmp/delta_$ex" 2>"$tmp/delta_${ex}_err" || { echo "FAIL: $ex on cg_diff.out: exit $?"; fail=1; }
done
"$dir/where_is" "$delta" work >"$tmp/delta_where_is" || { echo "FAIL: where_is on cg_diff.out: exit $?"; fail=1; }
python3 - "$tmp" "$tmp/delta_annotate" <<'PY' || fail=1
import re, sys
tmp, ann = sys.argv[1], open(sys.argv[2]).read()
out = {ex: open("%s/delta_%s" % (tmp, ex)).read()
       for ex in ["top_functions", "callers", "top", "tour", "file_costs", "where_is"]}
for ex, text in out.items():
    big = [n for n in re.findall(r"\d+", text) if int(n) >= 2**63]
    assert not big, "%s prints a negative cost as its bit pattern: %s\n%s" % (ex, big, text)
# annotate's rows, in its order: (cost, name).
rows = [(int(m.group(1).replace(",", "")), m.group(2).rsplit(":", 1)[1])
        for m in re.finditer(r"^ *(-?[\d,]+) \([ \d.-]+%\).* (\S+)$", ann, re.M)
        if "PROGRAM TOTALS" not in m.group(0)]
assert rows[:3] == [(-262200, "checksum"), (-163896, "fill"), (96000, "work")], rows[:5]
top = [r.split() for r in out["top_functions"].splitlines()[1:]]
assert [(int(c), n) for c, _, n in top[:3]] == rows[:3], top[:4]
sizes = [abs(int(c)) for c, _, _ in top]
assert sizes == sorted(sizes, reverse=True), top
assert top[0][1] == "79.42%" and top[2][1] == "-29.08%", top[:3]  # (annotate: 79.42%, -29.1%)
callers = out["callers"].splitlines()
assert callers[0] == "Ir total -330149; the 6 functions of highest inclusive Ir:", callers[0]
assert [l.split()[0] for l in callers[1:4]] == ["-262200", "-163896", "96000"], callers[:4]
t = out["top"].splitlines()
assert t[0] == "Ir total -330149" and t[1].split()[0] == "-262200", t[:2]
assert out["tour"].splitlines()[1].split()[0] == "-262200", out["tour"]
files = [r.split() for r in out["file_costs"].splitlines()[1:]]
assert files[0][0] == "-330168" and files[0][2] == "/tmp/calltree-signed/prog.c", files[:3]
assert [abs(int(r[0])) for r in files] == sorted((abs(int(r[0])) for r in files), reverse=True), files
assert re.match(r"work  \S*  /tmp/calltree-signed/prog.c: self 96000, inclusive 96000 Ir$", out["where_is"]), out["where_is"]
print("ok: the examples on cg_diff's output: signed costs, the largest changes first, as annotate")
PY
exit $fail
