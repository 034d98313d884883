// browser_report_diff.test.mjs — `calltree report --html OLD NEW -o diff.html [--fail-above=..]`
// opened from disk (file://, no server) in Debian's chromium, headless (playwright-core). Every
// check reads what the page SHOWS and compares it with `calltree diff` (--json, and its text for
// the gate's verdict) of the same pair of corpus files; every view of serve's diff mode is
// opened on each side. Prints "N passed, N failed".
//
//   node web/tests/browser_report_diff.test.mjs --calltree build/calltree \
//        --chromium /usr/bin/chromium --corpus tests/corpus --out build/web/screenshots
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { assert, calltree, calltreeJson, corpus, eq, fmt, mostChangedFile, out, page as openPage, rowText, run, shot, test, waitRows } from "./harness.mjs";

// Two pairs: the recursion example against itself with --separate-recs/--separate-callers
// (491 added, 271 removed: every kind of row), and two threads' files (the total grows by
// 247.85%: the gate fails or passes by its percentage).
const recOld = join(corpus, "vg-recurse-default.callgrind");
const recNew = join(corpus, "vg-recurse-separate-recs-callers.callgrind");
const thrOld = join(corpus, "vg-threads-separate.t01.callgrind");
const thrNew = join(corpus, "vg-threads-separate.t02.callgrind");

const signed = (n) => (n > 0 ? "+" : "") + fmt(n);
const diffJson = (...args) => calltreeJson(["diff", "--json", ...args], { cwd: corpus });
/** `calltree report --html ARGS -o FILE`: its exit status and the file. */
function report(name, ...args) {
  const file = join(out, "..", name + ".html");
  const r = spawnSync(calltree, ["report", "--html", ...args, "-o", file], { cwd: corpus, stdio: ["ignore", "ignore", "pipe"] });
  return { status: r.status, file, stderr: r.stderr.toString() };
}

/** The report FILE opened from disk, its list shown. */
async function page(file) {
  const pg = await openPage("file://" + file);
  await waitRows(pg);
  return pg;
}
/** No error on the page, and nothing asked of anywhere but the file (and data: and blob: URLs,
 * which the page makes of its own bytes). */
async function clean(pg) {
  eq(pg.errors.join("; "), "", "page errors");
  eq(pg.requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:") && !u.startsWith("blob:")).join(" "), "", "requests other than the file");
}
const rowCount = (pg) => pg.textContent('[data-testid="row-count"]');
const key = (f) => `${f.object}\u0000${f.file}\u0000${f.name}`;

/** Selects the function named `name` through the search (it is in the list), then the row. */
async function select(pg, name) {
  await pg.fill("input.search", "^" + name.replace(/[.*+?^${}()|[\]\\']/g, "\\$&") + "$");
  await pg.waitForFunction((n) => document.querySelector('.tbody .row[data-index="0"] .cell.name')?.textContent === n && document.querySelector('[data-testid="row-count"]').textContent === "1 row", name);
  await pg.click('.tbody .row[data-index="0"]');
  await pg.waitForFunction((n) => document.querySelector('[data-testid="selected-name"]')?.textContent.startsWith(n), name);
}
const tab = (pg, label) => pg.click(`button[role="tab"]:text("${label}")`);

/** Every view of a selected function renders, on the side it is of (no "not in this report"). */
async function everyView(pg, name, shotName) {
  await tab(pg, "Callers / callees");
  await pg.waitForSelector('[aria-label="Callers"]');
  await tab(pg, "Source");
  await pg.waitForSelector(".srcline");
  await tab(pg, "Call graph");
  await pg.waitForSelector(".graph svg g.node", { timeout: 20000 });
  const nodes = await pg.$$eval(".graph svg g.node text", (els) => els.map((e) => e.textContent));
  assert(nodes.includes(name), `${name} in its call graph: ${nodes.slice(0, 8).join(" | ")}`);
  if (shotName) await shot(pg, shotName + "-callgraph");
  await tab(pg, "Sandwich");
  await pg.waitForSelector('[data-testid="sandwich"] .frame');
  const titles = await pg.$$eval('[data-testid="sandwich"] .frame', (els) => els.map((e) => e.title));
  assert(titles.filter((t) => t.startsWith(name + "\n")).length === 2, `${name} in both halves of the sandwich`);
  await tab(pg, "Callee map");
  await pg.waitForSelector('[data-testid="treemap"] .tm');
  await tab(pg, "Machine code");
  await pg.waitForSelector(".tabbody .error");
  assert((await pg.textContent(".tabbody .error")).includes("does not hold machine code"), "machine code: said not held");
  assert((await pg.$$eval(".detail .error", (els) => els.map((e) => e.textContent))).every((t) => t.includes("machine code")), "no other view said not held");
}

test("the list: rows, deltas and counts as calltree diff --json; every view of each side", async () => {
  const r = report("diff-report", recOld, recNew);
  eq(r.status, 0, "exit status without --fail-above: " + r.stderr);
  const D = diffJson(recOld, recNew);
  const Dall = diffJson("--threshold=0", recOld, recNew);
  const byKey = new Map(Dall.functions.map((f) => [key(f), f]));
  const pg = await page(r.file);
  eq(await pg.$$eval('[data-testid="verdict"]', (els) => els.length), 0, "no verdict without --fail-above");
  eq(await pg.textContent('[data-testid="file-name"]'), "vg-recurse-default.callgrind → vg-recurse-separate-recs-callers.callgrind", "both files named");
  const t = Dall.totals.Ir;
  eq((await pg.textContent('[data-testid="total"]')).trim(), `Total Ir: ${fmt(t.old)} → ${fmt(t.new)} (${t.percent === 0 ? "0.0%" : "?"})`, "the totals");
  // The counts are calltree diff's (every function) but changed is a self cost that differs
  // (the Cost shown), the rows those above the threshold.
  const sameSelf = Dall.functions.filter((f) => f.change === "changed" && f.self.Ir.old === f.self.Ir.new).length;
  const want = { ...Dall.counts, changed: Dall.counts.changed - sameSelf, unchanged: Dall.counts.unchanged + sameSelf };
  const n = (k) => fmt(want[k]);
  eq(await pg.textContent('[data-testid="diff-counts"]'), `${n("changed")} changed · ${n("added")} added · ${n("removed")} removed · ${n("unchanged")} same`, "counts as calltree diff");
  const all = Dall.counts.changed + Dall.counts.added + Dall.counts.removed + Dall.counts.unchanged;
  const note = await pg.textContent('[data-testid="report-threshold"]');
  const m = note.match(/(\d+(?:,\d{3})*) of (\d+(?:,\d{3})*)/);
  assert(m && m[2] === fmt(all), "the page counts every function: " + note);
  // Held: the functions whose inclusive Ir is at least 0.1% of the total on one side
  // (calltree diff lists the changed ones; the unchanged one is counted in).
  const held = Dall.functions.filter((f) => Math.max(f.inclusive.Ir.old, f.inclusive.Ir.new) >= 0.001 * t.old).length;
  assert(Number(m[1].replace(/,/g, "")) >= held && Number(m[1].replace(/,/g, "")) <= held + Dall.counts.unchanged, `rows held ${m[1]}, diff's above the threshold ${held}`);
  eq(await rowCount(pg), m[1] + " rows", "the list's rows");
  // The order: calltree diff's (the largest change of self cost first), each row's numbers.
  for (let i = 0; i < 8; i++) {
    const f = D.functions[i];
    eq(await rowText(pg, i, "name"), f.name, `row ${i}`);
    eq(await rowText(pg, i, "old"), fmt(f.self.Ir.old), `row ${i} old`);
    eq(await rowText(pg, i, "new"), fmt(f.self.Ir.new), `row ${i} new`);
    eq(await rowText(pg, i, "delta"), signed(f.self.Ir.delta), `row ${i} delta`);
    eq(await rowText(pg, i, "change"), f.change === "changed" && f.self.Ir.old === f.self.Ir.new ? "same" : f.change, `row ${i} marked`);
  }
  await shot(pg, "report-diff");
  // Inclusive cost, ordered by the new cost: every row shown as diff's numbers, in order.
  await pg.selectOption('select[aria-label="Cost"]', "inclusive");
  await pg.selectOption('select[aria-label="Order by"]', "new");
  await pg.waitForFunction(() => location.hash.includes("measure=new") && location.hash.includes("by=inclusive"));
  // (the one function in both profiles is unchanged: calltree diff --json lists none such)
  const num = (t) => Number(t.replace(/,/g, ""));
  await pg.waitForFunction(() => {
    const v = [...document.querySelectorAll(".tbody .row .cell.new")].map((e) => Number(e.textContent.replace(/,/g, "")));
    return v.length > 20 && v.every((x, i) => i === 0 || v[i - 1] >= x);
  });
  // (a long name is cut in its cell: its title is the whole name)
  const shown = await pg.$$eval(".tbody .row", (rows) => rows.map((r) => ["name", "old", "new", "delta", "change"].map((c) => (c === "name" ? r.querySelector(".cell.name")?.title : r.querySelector(".cell." + c)?.textContent))));
  const topNew = Math.max(...Dall.functions.map((f) => f.inclusive.Ir.new));
  assert(num(shown[0][2]) >= topNew, `the first row's new cost ${shown[0][2]}, diff's largest ${fmt(topNew)}`);
  let unchanged = 0;
  for (const [name, o, nw, delta, change] of shown.slice(0, 30)) {
    const f = Dall.functions.find((x) => x.name === name);
    if (!f) {
      unchanged++;
      assert(o === nw && delta === "0" && change === "same", "a row not in calltree diff is unchanged: " + name);
      continue;
    }
    eq(o, fmt(f.inclusive.Ir.old), name + " incl. old");
    eq(nw, fmt(f.inclusive.Ir.new), name + " incl. new");
    eq(delta, signed(f.inclusive.Ir.delta), name + " incl. delta");
  }
  assert(unchanged <= Dall.counts.unchanged, "unchanged rows: " + unchanged);
  // A removed function (OLD's views) and an added one (NEW's): every view on its side.
  await pg.selectOption('select[aria-label="Cost"]', "self");
  await pg.selectOption('select[aria-label="Order by"]', "abs_delta");
  const removed = D.functions.find((f) => f.change === "removed" && f.name !== "cyc_c'2");
  const added = D.functions.find((f) => f.change === "added");
  await select(pg, removed.name);
  eq(await pg.textContent('[data-testid="selected-name"] .tag:last-child'), "OLD", "a removed function shows OLD's views");
  eq(await pg.textContent('[data-testid="selected-self"]'), fmt(removed.self.Ir.old), "its self cost in OLD");
  await everyView(pg, removed.name, "report-diff-old");
  await select(pg, added.name);
  eq(await pg.textContent('[data-testid="selected-name"] .tag:last-child'), "NEW", "an added function shows NEW's views");
  eq(await pg.textContent('[data-testid="selected-self"]'), fmt(added.self.Ir.new), "its self cost in NEW");
  await everyView(pg, added.name, "report-diff-new");
  // The program's flame graph and icicle, coloured by change, with the legend.
  await pg.fill("input.search", "");
  for (const [view, id] of [["Flame graph", "flame"], ["Icicle", "icicle"]]) {
    await tab(pg, view);
    await pg.waitForSelector(`[data-testid="${id}"] .frame`);
    const colours = await pg.$$eval(`[data-testid="${id}"] .frame`, (els) => new Set(els.map((e) => e.style.background)).size);
    assert(colours >= 2, view + " coloured by change");
    assert((await pg.textContent(".legend")).includes("grew"), view + " legend");
  }
  await shot(pg, "report-diff-flame");
  // The relative change: growth from nothing (added) first, as serve orders it.
  await pg.selectOption('select[aria-label="Order by"]', "percent");
  await pg.waitForFunction(() => document.querySelector('.tbody .row[data-index="0"] .cell.change')?.textContent === "added");
  // A bad search says why; a search counts the rows it lists.
  await pg.fill("input.search", "cyc_a(");
  await pg.waitForSelector(".list .error");
  assert((await pg.textContent(".list .error")).includes("bad regular expression"), "bad regex said");
  await pg.fill("input.search", "^cyc_a'2$");
  await pg.waitForFunction(() => document.querySelector('[data-testid="row-count"]')?.textContent === "1 row");
  eq(await pg.textContent('[data-testid="diff-counts"]'), "0 changed · 0 added · 1 removed · 0 same", "a search's counts");
  await clean(pg);
});

test("groups: each file's change as calltree diff's functions summed; one group's rows", async () => {
  const r = report("diff-report-threads", thrOld, thrNew);
  eq(r.status, 0, "exit status: " + r.stderr);
  const Dall = diffJson("--threshold=0", thrOld, thrNew);
  const [bigName, big] = mostChangedFile(Dall);
  const pg = await page(r.file);
  await pg.selectOption('select[aria-label="Group by"]', "file");
  await pg.waitForSelector(".groups .group.dgroup");
  eq(await pg.textContent(".groups .group.dgroup .gname"), bigName, "the group that changed most first");
  eq(await pg.textContent(".groups .group.dgroup .delta"), signed(big.nw - big.old), "its change");
  await pg.click(`.groups .group.dgroup:has(.gname:text-is("${bigName}"))`);
  await pg.waitForFunction(() => location.hash.includes("in_group="));
  await pg.waitForFunction((b) => [...document.querySelectorAll(".tbody .row .cell.loc")].length > 0 && [...document.querySelectorAll(".tbody .row .cell.loc")].every((e) => e.textContent === b), bigName);
  await shot(pg, "report-diff-group");
  await clean(pg);
});

test("the gate: verdict at the top as calltree diff's text, diff's exit status, both ways", async () => {
  for (const [pct, want] of [["100", 1], ["300:Ir", 0]]) {
    const text = spawnSync(calltree, ["diff", "--fail-above=" + pct, thrOld, thrNew], { cwd: corpus, maxBuffer: 1 << 28 });
    eq(text.status, want, `diff --fail-above=${pct}`);
    const lines = text.stdout.toString().split("\n");
    const heading = lines.find((l) => l.startsWith("Gate: "));
    const r = report("diff-report-gate", thrOld, thrNew, "--fail-above=" + pct);
    eq(r.status, want, `report --fail-above=${pct}: diff's exit status (${r.stderr})`);
    const pg = await page(r.file);
    // The verdict is the page's first line, above the header.
    eq(await pg.evaluate(() => document.querySelector(".app").firstElementChild.dataset.testid), "verdict", "the verdict first");
    eq(await pg.textContent('[data-testid="verdict-result"]'), want ? "FAIL" : "PASS", "PASS/FAIL");
    eq(await pg.textContent('[data-testid="verdict-heading"]'), heading, "diff's heading: event and threshold");
    const D = diffJson("--threshold=0", thrOld, thrNew).totals.Ir;
    const measured = `PROGRAM TOTALS: Ir ${fmt(D.old)} -> ${fmt(D.new)} (+${D.percent.toFixed(2)}%)`;
    if (want) eq(await pg.textContent('[data-testid="verdict-line"]'), lines.find((l) => l.startsWith("FAILED: ")), "diff's FAILED line");
    eq(await pg.textContent('[data-testid="verdict-line"]'), (want ? "FAILED: " : "passed: ") + measured, "the measured change");
    await shot(pg, want ? "report-diff-fail" : "report-diff-pass");
    await clean(pg);
  }
});

await run({ limitMs: 90000 });
