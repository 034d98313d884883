// browser.test.mjs — the page of `calltree serve` in a real browser (Debian's chromium, headless,
// driven by playwright-core) against the real binary on corpus profiles. Every check reads
// what the page SHOWS and compares it with `calltree annotate --json` / `calltree diff --json`
// of the same file. A screenshot of each view goes to --out. Prints "N passed, N failed".
//
//   node web/tests/browser.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --source . --corpus tests/corpus --out build/web/screenshots [--only NAME]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, calltree, calltreeJson, corpus, eq, fmt, mostChangedFile, out, page, rowText, run, serve as startServe, shot, source, test, waitRows } from "./harness.mjs";

const recurse = join(source, "examples/recurse.callgrind");
const threads = join(corpus, "vg-threads-separate-combined.callgrind");
const diffOld = join(corpus, "vg-recurse-default.callgrind");
const diffNew = join(corpus, "vg-recurse-separate-recs-callers.callgrind");

const annotateJson = (file, ...flags) => calltreeJson(["annotate", "--json", ...flags, file], { cwd: corpus });
/** The functions of the profile as the model counts them (object, fl= file, name): the rows
 * serve lists (annotate's keys split code inlined from other files off into keys of their own). */
function modelFunctions(file) {
  const tmp = join(tmpdir(), "calltree-model-" + process.pid + "-" + Math.random().toString(36).slice(2) + ".json");
  execFileSync(calltree, ["export", "--to=json", file, "-o", tmp], { cwd: corpus });
  const m = JSON.parse(readFileSync(tmp, "utf8"));
  unlinkSync(tmp);
  return m.functions;
}
const serve = (args, cwd = corpus) => startServe(args, { cwd });
const rowNames = (pg) => pg.$$eval(".tbody .row .cell.name", (els) => els.map((e) => e.textContent));

// --- one server for the recurse example ------------------------------------------------------
const A = annotateJson(recurse);
const functionCount = modelFunctions(recurse).length;
const byKey = new Map(A.functions.map((f) => [f.key, f]));
const topSelf = [...A.functions].sort((a, b) => b.self.Ir - a.self.Ir)[0];

test("load: the top function by self cost and its cost, as annotate --json", async (s) => {
  const pg = await page(s.url);
  await waitRows(pg);
  eq(await pg.textContent('[data-testid="file-name"]'), "recurse.callgrind", "file name");
  eq((await pg.textContent('[data-testid="total"]')).trim(), "Total Ir: " + fmt(A.totals.Ir), "total");
  // Row 0 is <cycle 1> (its members' self summed); the first function row is annotate's top.
  eq(await rowText(pg, 0, "name"), "<cycle 1>", "first row");
  const name1 = await rowText(pg, 1, "name");
  assert(name1.startsWith(topSelf.name), `second row ${name1} is not ${topSelf.name}`);
  assert((await rowText(pg, 1, "self")).startsWith(fmt(topSelf.self.Ir) + " "), "self cost of the top function");
  eq(await pg.textContent('[data-testid="row-count"]'), `${functionCount + A.cycles.length} rows`, "row count");
  await shot(pg, "list");
  eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
});

test("sort: by inclusive, then ascending, then by name", async (s) => {
  const pg = await page(s.url);
  await waitRows(pg);
  await pg.click(".thead .cell.incl");
  await pg.waitForSelector(".thead .cell.incl.sorted");
  await pg.waitForFunction(() => location.hash.includes("by=inclusive"));
  const topIncl = Math.max(...A.functions.map((f) => f.inclusive.Ir));
  await pg.waitForFunction((want) => document.querySelector('.tbody .row[data-index="0"] .cell.incl')?.textContent.startsWith(want), fmt(topIncl) + " ");
  await pg.click(".thead .cell.incl");
  await pg.waitForFunction(() => location.hash.includes("dir=asc"));
  await pg.waitForSelector('.thead .cell.incl.sorted[aria-sort="ascending"]');
  await pg.waitForFunction((top) => !document.querySelector('.tbody .row[data-index="0"] .cell.incl')?.textContent.startsWith(top), fmt(topIncl));
  const asc = (await pg.$$eval(".tbody .row .cell.incl", (els) => els.map((e) => Number(e.textContent.split(" ")[0].replace(/,/g, ""))))).slice(0, 30);
  for (let i = 1; i < asc.length; i++) assert(asc[i - 1] <= asc[i], "ascending inclusive: " + asc.join(" "));
  await pg.click(".thead .cell.name");
  await pg.waitForFunction(() => location.hash.includes("by=name"));
  await pg.waitForFunction(() => !location.hash.includes("dir="));
  await pg.waitForSelector('.thead .cell.name.sorted[aria-sort="ascending"]');
  await pg.waitForFunction(() => document.querySelector('.tbody .row[data-index="0"] .cell.name')?.textContent === "(below main)");
  const shown = (await rowNames(pg)).slice(0, 30).map((n) => n.replace(/\s+<cycle \d+>$/, ""));
  for (let i = 1; i < shown.length; i++) assert(shown[i - 1] <= shown[i], "names in order: " + shown.join(" | "));
});

test("search: a regex filters the rows, a bad one says why", async (s) => {
  const pg = await page(s.url);
  await waitRows(pg);
  await pg.fill("input.search", "^cyc_[ab]");
  const want = A.functions.filter((f) => /^cyc_[ab]/.test(f.name)).length;
  await pg.waitForFunction((n) => document.querySelector('[data-testid="row-count"]').textContent === n + " rows", want);
  for (const n of await rowNames(pg)) assert(/^cyc_[ab]/.test(n), "row " + n + " does not match");
  assert((await pg.evaluate(() => location.hash)).includes("filter="), "filter in the URL");
  await shot(pg, "search");
  await pg.fill("input.search", "(unclosed");
  await pg.waitForSelector('.list .error[role="alert"]');
  assert((await pg.textContent(".list .error")).includes("bad regular expression"), "regex error shown");
});

test("select: click a row, keyboard moves, callers and callees as annotate's", async (s) => {
  const pg = await page(s.url);
  await waitRows(pg);
  await pg.click('.tbody .row[data-index="1"]');
  await pg.waitForSelector('[data-testid="selected-name"]');
  const name = await pg.textContent('[data-testid="selected-name"]');
  assert(name.startsWith(topSelf.name), "selected " + name);
  eq(await pg.textContent('[data-testid="selected-self"]'), fmt(topSelf.self.Ir), "selected self");
  eq(await pg.textContent('[data-testid="selected-incl"]'), fmt(topSelf.inclusive.Ir), "selected inclusive");
  const callers = await pg.$$eval('[aria-label="Callers"] tbody tr td:nth-child(4)', (els) => els.map((e) => e.textContent));
  const wantCallers = topSelf.callers.map((c) => byKey.get(c.function).name);
  eq(callers.map((c) => c.replace(/<cycle \d+>$/, "")).sort().join(), wantCallers.sort().join(), "callers");
  const counts = await pg.$$eval('[aria-label="Callers"] tbody tr td:nth-child(3)', (els) => els.map((e) => e.textContent));
  eq(counts.sort().join(), topSelf.callers.map((c) => fmt(c.count)).sort().join(), "caller counts");
  const callees = await pg.$$eval('[aria-label="Callees"] tbody tr td:nth-child(4)', (els) => els.map((e) => e.textContent));
  eq(callees.map((c) => c.replace(/<cycle \d+>$/, "")).sort().join(), topSelf.callees.map((c) => byKey.get(c.function).name).sort().join(), "callees");
  await shot(pg, "callers");
  // A click on a caller selects it.
  await pg.click('[aria-label="Callers"] tbody tr td:nth-child(4) a');
  await pg.waitForFunction((n) => document.querySelector('[data-testid="selected-name"]')?.textContent.startsWith(n) === false, topSelf.name);
  // The keyboard: down from row 1 selects row 2.
  await pg.focus(".tbody");
  await pg.click('.tbody .row[data-index="1"]');
  await pg.keyboard.press("ArrowDown");
  await pg.waitForSelector('.tbody .row[data-index="2"].selected');
  const n2 = await rowText(pg, 2, "name");
  await pg.waitForFunction((n) => document.querySelector('[data-testid="selected-name"]')?.textContent.startsWith(n.replace(/\s+<cycle.*$/, "")), n2);
  // Back (the keyboard's moves replace the entry: they leave no trail) returns to the caller
  // clicked before, and once more to the top function.
  await pg.goBack();
  await pg.goBack();
  await pg.waitForFunction((n) => document.querySelector('[data-testid="selected-name"]').textContent.startsWith(n), topSelf.name);
  await pg.goForward();
  await pg.waitForFunction((n) => !document.querySelector('[data-testid="selected-name"]').textContent.startsWith(n), topSelf.name);
});

test("call graph: Graphviz lays out the function, its callers and callees, cycle marked", async (s) => {
  const main = byKey.get([...byKey.keys()].find((k) => byKey.get(k).name === "main"));
  const id = await idOf(s, "main");
  const pg = await page(s.url + `#fn=${id}&tab=graph`);
  await pg.waitForSelector(".graph svg g.node", { timeout: 20000 });
  const labels = await pg.$$eval(".graph svg g.node text", (els) => els.map((e) => e.textContent));
  assert(labels.includes("main"), "main in the graph: " + labels.slice(0, 8).join(","));
  for (const c of main.callees.filter((c) => c.cost.Ir / A.totals.Ir >= 0.005)) {
    const n = byKey.get(c.function).name;
    assert(labels.includes(n), `callee ${n} not in the graph`);
  }
  await pg.click('[data-testid="callgraph"] input[aria-label="Callees depth"]', { clickCount: 3 });
  await pg.keyboard.type("4");
  await pg.keyboard.press("Tab");
  await pg.waitForFunction(() => [...document.querySelectorAll(".graph svg g.cluster text")].some((t) => t.textContent.startsWith("<cycle")), null, { timeout: 20000 });
  await shot(pg, "callgraph");
  // A click on a node selects it.
  const other = await pg.$('.graph svg g.node:not(#n' + id + ")");
  const otherName = await other.$eval("text", (t) => t.textContent);
  await other.click();
  await pg.waitForFunction((n) => document.querySelector('[data-testid="selected-name"]')?.textContent.startsWith(n), otherName);
});

async function idOf(s, name) {
  return (await s.api(`functions?filter=${encodeURIComponent("^" + name + "$")}&limit=1`)).rows[0].id;
}

test("flame graph and icicle: frames from the root, the estimate said, a click selects", async (s) => {
  const pg = await page(s.url + "#tab=flame");
  await pg.waitForSelector('[data-testid="flame"] .frame');
  const note = await pg.textContent('[data-testid="estimate-note"]');
  assert(note.includes("An estimate") && note.includes("docs/estimate.md"), "estimate note: " + note);
  // The widest root frame spans the whole width and is the program's entry.
  const widths = await pg.$$eval('[data-testid="flame"] .frame', (els) => els.map((e) => [e.textContent, parseFloat(e.style.width)]));
  const full = widths.filter(([, w]) => w > 99.9).map(([n]) => n);
  assert(full.includes("main") || full.includes("(below main)") || full.length > 0, "a frame of the whole width");
  const mainFrames = widths.filter(([n]) => n === "main");
  assert(mainFrames.length >= 1, "main has a frame");
  const mainIncl = [...byKey.values()].find((f) => f.name === "main").inclusive.Ir;
  assert(Math.abs(mainFrames[0][1] - (100 * mainIncl) / A.totals.Ir) < 0.5, `main's width ${mainFrames[0][1]}% vs its inclusive share`);
  await shot(pg, "flame");
  await pg.click('[data-testid="flame"] .frame:text-is("main")');
  await pg.waitForFunction(() => document.querySelector('[data-testid="selected-name"]')?.textContent === "main");
  await pg.waitForSelector('[data-testid="reset-zoom"]');
  await pg.click('button[role="tab"]:text("Icicle")');
  await pg.waitForSelector('[data-testid="icicle"] .frame');
  await shot(pg, "icicle");
  await pg.click('button[role="tab"]:text("Sandwich")');
  await pg.waitForSelector('[data-testid="sandwich"] .frame');
  const sandwich = await pg.$$eval('[data-testid="sandwich"] .frame', (els) => els.map((e) => e.textContent));
  eq(sandwich.filter((n) => n === "main").length, 2, "main in both halves of the sandwich");
  await shot(pg, "sandwich");
  await pg.click('button[role="tab"]:text("Callee map")');
  await pg.waitForSelector('[data-testid="treemap"] .tm');
  const boxes = await pg.$$eval('[data-testid="treemap"] .tm', (els) => els.map((e) => e.textContent));
  assert(boxes[0] === "main", "the map's outer box is main: " + boxes[0]);
  // Its callees are boxes inside it, the heaviest (cyc_a, 97% of main) the largest and on top.
  assert(boxes.includes("cyc_a"), "cyc_a inside main's box");
  const top = await pg.evaluate(() => { const r = document.querySelector('[data-testid="treemap"] .tm:nth-child(2)').getBoundingClientRect(); return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest(".tm")?.dataset.fn; });
  assert(top !== undefined && top !== String(await idOf(s, "main")), "a callee's box is visible over main's");
  await shot(pg, "calleemap");
  eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
});

const byName = (name) => A.functions.find((f) => f.name === name);
const num = (t) => Number(String(t).replace(/,/g, ""));

test("caller map: malloc's callers nested up to the roots, its box its inclusive cost", async (s) => {
  // malloc (in no cycle) has three callers: 0x...486f368, build and build'2.
  const malloc = byName("malloc");
  const id = await idOf(s, "malloc");
  const pg = await page(s.url + `#fn=${id}&tab=callermap`);
  await pg.waitForSelector('[data-testid="callermap"] .tm');
  eq(await pg.textContent('[data-testid="callermap-top"]'), fmt(malloc.inclusive.Ir), "the top: malloc's inclusive cost");
  const boxes = await pg.$$eval('[data-testid="callermap"] .tm', (els) => els.map((e) => ({ fn: Number(e.dataset.fn), cost: Number(e.dataset.cost), depth: Number(e.dataset.depth), name: e.textContent })));
  eq(boxes[0].fn, id, "the outer box is malloc");
  eq(boxes[0].cost, malloc.inclusive.Ir, "the outer box's cost");
  // Its callers' boxes: annotate's callers, each the cost of its calls into malloc (one path each).
  const direct = boxes.filter((b) => b.depth === 1);
  let sum = 0;
  // (Costs are shares computed in floating point, whole units: within 1 of the calls' cost.)
  const near = (a, b) => Math.abs(a - b) <= 1;
  for (const c of malloc.callers.filter((c) => c.cost.Ir >= 0.01 * malloc.inclusive.Ir)) {
    const name = byKey.get(c.function).name;
    const fid = await idOf(s, name);
    const b = direct.find((x) => x.fn === fid);
    assert(b && near(b.cost, c.cost.Ir), `a box for caller ${name} of ${c.cost.Ir}: ${JSON.stringify(direct)}`);
    sum += b.cost;
  }
  assert(sum <= boxes[0].cost, "the callers' boxes within malloc's");
  // build's box holds its caller main's; no box outweighs its parent's.
  assert(boxes.some((b) => b.depth >= 2), "callers of callers drawn");
  await shot(pg, "callermap");
  // A click selects the function of the box.
  // (on its label: the middle of a box is its callers' boxes)
  await pg.click(`[data-testid="callermap"] .tm[data-depth="1"]`, { position: { x: 4, y: 4 } });
  await pg.waitForFunction(() => document.querySelector('[data-testid="selected-name"]')?.textContent !== "malloc");
  eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
});

test("all callers and all callees: every function on the paths, costs and distances as the API", async (s) => {
  const malloc = byName("malloc");
  const id = await idOf(s, "malloc");
  const pg = await page(s.url + `#fn=${id}&tab=allcallers`);
  await pg.waitForSelector('[data-testid="coverage-callers"] tr[data-fn]');
  const want = await s.api(`coverage/${id}?direction=callers&limit=1000&sort=Ir`);
  eq(num(await pg.textContent('[data-testid="coverage-total"]')), malloc.inclusive.Ir, "the total: malloc's inclusive cost");
  const rows = await pg.$$eval('[data-testid="coverage-callers"] tr[data-fn]', (els) => els.map((e) => ({ fn: Number(e.dataset.fn), cost: e.children[0].textContent, dist: e.children[2].textContent, name: e.children[4].querySelector("a").textContent })));
  eq(rows.length, want.entries.length, "one row per entry");
  rows.forEach((r, i) => {
    eq(r.fn, want.entries[i].id, "row " + i);
    eq(r.cost, fmt(want.entries[i].cost.Ir), "cost of " + r.name);
    assert(num(r.cost) <= malloc.inclusive.Ir, `${r.name} above malloc's cost`);
  });
  // The direct callers at distance 1 with their calls' cost; main (through build) and the
  // program's entry above it, everything that reaches malloc.
  for (const c of malloc.callers) {
    const name = byKey.get(c.function).name;
    const r = rows.find((x) => x.name === name && x.dist.startsWith("1"));
    assert(r, `caller ${name} at distance 1: ${JSON.stringify(rows.slice(0, 8))}`);
  }
  const build = rows.find((x) => x.name === "build");
  const buildWant = malloc.callers.filter((c) => byKey.get(c.function).name.startsWith("build")).reduce((a, c) => a + c.cost.Ir, 0);
  assert(Math.abs(num(build.cost) - buildWant) <= 2, `build pays its own calls and build'2's: ${build.cost}, want ${buildWant}`);
  eq(build.dist, "1-2", "build: a caller and a caller's caller");
  assert(rows.some((x) => x.name === "main"), "main reaches malloc");
  await shot(pg, "allcallers");
  // All callees of main: annotate's callees of main at distance 1, every cost within main's.
  const main = byName("main");
  const mid = await idOf(s, "main");
  await pg.goto(s.url + `#fn=${mid}&tab=allcallees`);
  await pg.waitForSelector('[data-testid="coverage-callees"] tr[data-fn]');
  // (the hash changes in place: malloc's answer stays on screen until main's comes)
  await pg.waitForFunction((want) => Number(document.querySelector('[data-testid="coverage-total"]')?.textContent.replace(/,/g, "")) === want, main.inclusive.Ir);
  const down = await pg.$$eval('[data-testid="coverage-callees"] tr[data-fn]', (els) => els.map((e) => ({ cost: Number(e.children[0].textContent.replace(/,/g, "")), dist: e.children[2].textContent, name: e.children[4].querySelector("a").textContent })));
  for (const c of main.callees.filter((c) => c.cost.Ir > 1e-4 * main.inclusive.Ir + 1)) {
    const name = byKey.get(c.function).name;
    const r = down.find((x) => x.name === name);
    assert(r && r.dist.startsWith("1"), `callee ${name} at distance 1`);
    // (at least main's calls to it; more where main reaches it by other paths too)
    assert(r.cost >= c.cost.Ir - 1, `main's calls to ${name}: ${r.cost}, want at least ${c.cost.Ir}`);
  }
  for (const r of down) assert(r.cost <= main.inclusive.Ir, `${r.name} above main's cost`);
  // The cycle's members, reached through cyc_c, each counted once.
  assert(down.some((x) => x.name === "cyc_a'2"), "cyc_a'2 reached");
  await shot(pg, "allcallees");
  // A row's name selects its function.
  await pg.click('[data-testid="coverage-callees"] tr[data-fn] a:text-is("build")');
  await pg.waitForFunction(() => document.querySelector('[data-testid="selected-name"]')?.textContent === "build");
  eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
});

test("cycle detection: off, no <cycle N> and members' inclusive the calls into them; on again", async (s) => {
  // ("cyc" matches the cycles' rows, <cycle N>, and their members)
  const pg = await page(s.url + "#by=inclusive&filter=cyc");
  await waitRows(pg);
  await pg.waitForFunction(() => [...document.querySelectorAll(".tbody .row .cell.name")].some((e) => e.textContent.startsWith("<cycle")));
  await pg.uncheck('[data-testid="cycles"]');
  await pg.waitForFunction(() => location.hash.includes("cycles=0"));
  await pg.waitForFunction(() => ![...document.querySelectorAll(".tbody .row .cell.name")].some((e) => e.textContent.includes("<cycle")));
  // cyc_a'2: the calls into it from cyc_c and cyc_c'2, the file's sums (above the total).
  const a2 = byName("cyc_a'2");
  const want = a2.callers.filter((c) => c.function !== a2.key).reduce((a, c) => a + c.cost.Ir, 0);
  assert(want > A.totals.Ir, "a nested sum above the total");
  const incl = await pg.evaluate(() => [...document.querySelectorAll(".tbody .row")].find((r) => r.querySelector(".name")?.textContent === "cyc_a'2")?.querySelector(".incl")?.textContent);
  assert(incl && incl.startsWith(fmt(want)), `cyc_a'2's inclusive ${incl}, want ${fmt(want)}`);
  // A function in no cycle keeps its cost.
  const c = byName("cyc_c");
  const cc = await pg.evaluate(() => [...document.querySelectorAll(".tbody .row")].find((r) => r.querySelector(".name")?.textContent === "cyc_c")?.querySelector(".incl")?.textContent);
  assert(cc.startsWith(fmt(c.inclusive.Ir) + " "), "cyc_c's inclusive unchanged: " + cc);
  // The API says the same.
  const rows = (await s.api("functions?detect_cycles=no&filter=%5Ecyc_a'2%24")).rows;
  eq(rows.length, 1, "one row");
  eq(rows[0].inclusive.Ir, want, "API inclusive of cyc_a'2");
  eq(rows[0].cycle, null, "no cycle");
  await shot(pg, "nocycles");
  await pg.check('[data-testid="cycles"]');
  await pg.waitForFunction(() => !location.hash.includes("cycles="));
  await pg.waitForFunction(() => [...document.querySelectorAll(".tbody .row .cell.name")].some((e) => e.textContent.startsWith("<cycle")));
  eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
});

/** export --to=folded with stack filter flags: what its note on standard error says it left
 * out, and the names of the frames of its stacks. */
function filteredExport(file, flags) {
  const r = spawnSync(calltree, ["export", "--to=folded", ...flags, file, "-o", "-"], { cwd: corpus, maxBuffer: 1 << 28 });
  const m = r.stderr.toString().match(/left out (\d+) of (\d+) /);
  assert(m, "export's note: " + r.stderr);
  const names = new Set(r.stdout.toString().split("\n").filter(Boolean).flatMap((l) => l.slice(0, l.lastIndexOf(" ")).split(";")));
  return { dropped: Number(m[1]), total: Number(m[2]), names };
}

test("stack filters: the stacks of export's filters, what they left out said, a bad one says why", async (s) => {
  const want = filteredExport(recurse, ["--focus=^fib$"]);
  const pg = await page(s.url + "#tab=flame&focus=" + encodeURIComponent("^fib$"));
  await pg.waitForSelector('[data-testid="filter-note"]');
  await pg.waitForSelector('[data-testid="flame"] .frame');
  eq(await pg.textContent('[data-testid="filter-dropped"]'), fmt(want.dropped), "left out, as export --focus's note");
  const share = await pg.textContent('[data-testid="filter-share"]');
  const p = (100 * want.dropped) / want.total;
  eq(share, (p >= 10 ? p.toFixed(1) : p.toFixed(2)) + "%", "its share of the total");
  const frames = (await pg.$$eval('[data-testid="flame"] .frame', (els) => els.map((e) => e.textContent))).filter(Boolean);
  assert(frames.includes("fib"), "fib drawn: " + frames.join(","));
  for (const n of frames) assert(want.names.has(n), `frame ${n} is not in export --focus's stacks`);
  assert(!frames.includes("cyc_a"), "cyc_a's stacks left out");
  // As wide as what is shown (0.23 % of the program), not the program's total.
  const widest = Math.max(...(await pg.$$eval('[data-testid="flame"] .frame', (els) => els.map((e) => parseFloat(e.style.width)))));
  assert(widest > 99.9, "the filtered flame graph's root is the whole width: " + widest);
  eq(await pg.inputValue('[data-testid="filter-focus"]'), "^fib$", "the focus box shows the URL's");
  // A second filter typed in: the URL and the note follow, as export's with both.
  await pg.fill('[data-testid="filter-ignore"]', "fib'2");
  await pg.press('[data-testid="filter-ignore"]', "Enter");
  const both = filteredExport(recurse, ["--focus=^fib$", "--ignore=fib'2"]);
  await pg.waitForFunction((t) => document.querySelector('[data-testid="filter-dropped"]')?.textContent === t, fmt(both.dropped));
  assert((await pg.evaluate(() => location.hash)).includes("ignore=fib"), "ignore in the URL");
  await shot(pg, "flame-filtered");
  // The function's views and the call graph take the same filter and say the same.
  const id = await idOf(s, "main");
  for (const [tab, view] of [["sandwich", "sandwich"], ["map", "treemap"], ["graph", "callgraph"]]) {
    const p2 = await page(s.url + `#fn=${id}&tab=${tab}&focus=` + encodeURIComponent("^fib$"));
    await p2.waitForSelector(`[data-testid="${view}"] [data-testid="filter-note"]`, { timeout: 20000 });
    eq(await p2.textContent('[data-testid="filter-dropped"]'), fmt(want.dropped), tab + ": left out");
    if (tab === "map") {
      const boxes = await p2.$$eval('[data-testid="treemap"] .tm', (els) => els.map((e) => e.textContent).filter(Boolean));
      for (const n of boxes) assert(want.names.has(n), `map box ${n} is not in export --focus's stacks`);
      assert(!boxes.includes("cyc_a"), "cyc_a is not in main's filtered callee map");
    }
    if (tab === "graph") {
      await p2.waitForSelector(".graph svg g.node", { timeout: 20000 });
      // (fib's 0.23 % is below the default threshold, a share of the program's total.)
      await p2.click('[data-testid="callgraph"] input[aria-label="Cost threshold"]', { clickCount: 3 });
      await p2.keyboard.type("0");
      await p2.keyboard.press("Tab");
      await p2.waitForFunction(() => [...document.querySelectorAll(".graph svg g.node text")].some((t) => t.textContent === "fib"), null, { timeout: 20000 });
      const labels = await p2.$$eval(".graph svg g.node text", (els) => els.map((e) => e.textContent));
      assert(labels.includes("fib") && !labels.includes("cyc_a"), "the filtered graph: " + labels.slice(0, 8).join(","));
    }
  }
  // show: only the matching frames.
  const p3 = await page(s.url + "#tab=icicle&show=" + encodeURIComponent("^cyc_"));
  await p3.waitForSelector('[data-testid="icicle"] .frame');
  const shown = (await p3.$$eval('[data-testid="icicle"] .frame', (els) => els.map((e) => e.textContent))).filter(Boolean);
  assert(shown.length > 0 && shown.every((n) => n.startsWith("cyc_")), "show=^cyc_: " + shown.join(","));
  // A bad expression says why; Clear filters goes back to the whole program.
  await pg.fill('[data-testid="filter-focus"]', "(a");
  await pg.press('[data-testid="filter-focus"]', "Enter");
  await pg.waitForSelector(".tabbody .error");
  assert((await pg.textContent(".tabbody .error")).includes("focus: bad regular expression"), "the error says why");
  await pg.click('[data-testid="filter-clear"]');
  await pg.waitForSelector('[data-testid="flame"] .frame');
  await pg.waitForSelector('[data-testid="filter-note"]', { state: "detached" });
  eq(await pg.evaluate(() => location.hash.includes("focus=")), false, "no filter in the URL");
  eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
});

test("source: per-line costs equal annotate's, hot lines marked", async (s) => {
  const id = await idOf(s, "fib");
  const pg = await page(s.url + `#fn=${id}&tab=source`);
  await pg.waitForSelector('[data-testid="source"] .srcline');
  const src = A.source.find((f) => f.file.endsWith("recurse.c"));
  const hot = await pg.$$eval(".srcline.hot", (els) => els.map((e) => [Number(e.dataset.line), e.children[1].textContent, e.querySelector("code").textContent]));
  assert(hot.length > 0, "no hot line");
  for (const [line, cost] of hot) {
    const l = src.lines.find((x) => x.line === line);
    eq(cost, fmt(l.self.Ir), "cost of line " + line);
  }
  assert(hot.some(([, , text]) => text.includes("fib")), "a hot line's text mentions fib");
  await shot(pg, "source");
});

test("source: a file that is not there says so", async () => {
  const s2 = await serve([recurse], "/");
  try {
    const id = await idOf(s2, "fib");
    const pg = await page(s2.url + `#fn=${id}&tab=source`);
    await pg.waitForSelector('[data-testid="source-missing"]');
    const msg = await pg.textContent('[data-testid="source-missing"]');
    assert(/not found|cannot|no such/i.test(msg), "missing message: " + msg);
    // Its lines' costs are shown without the text, as annotate --json gives them.
    await pg.waitForSelector('[data-testid="source"] .srcline[data-line]:not([data-line="0"])');
    const shown = await pg.$$eval('[data-testid="source"] .srcline', (els) => els.map((e) => [Number(e.dataset.line), e.children[1].textContent, e.querySelector("code").textContent]));
    const want = A.source.find((f) => f.file.endsWith("recurse.c")).lines.filter((l) => l.line > 0);
    for (const l of want.slice(0, 10)) {
      const row = shown.find(([n]) => n === l.line);
      assert(row, `line ${l.line} is shown: ` + JSON.stringify(shown.slice(0, 5)));
      eq(row[1], fmt(l.self.Ir), "cost of line " + l.line);
      eq(row[2], "", "no text for line " + l.line);
    }
    assert(!(await pg.textContent('[data-testid="source"] .srchead')).includes("no costs per line"), "does not say the lines have no costs");
  } finally {
    s2.stop();
  }
});

test("source: a file of 200,000 lines scrolls to its end, the last costs shown", async () => {
  // A small hand-written profile whose function has cost on line 3 and on line 199,999 of a
  // generated 200,000-line file.
  const dir = mkdtempSync(join(tmpdir(), "calltree-bigsrc-"));
  try {
    const lines = [];
    for (let i = 1; i <= 200000; i++) lines.push(`int line_${i} = ${i};`);
    writeFileSync(join(dir, "big.c"), lines.join("\n") + "\n");
    writeFileSync(join(dir, "big.callgrind"), "# callgrind format\nversion: 1\ncreator: browser.test\nevents: Ir\nfl=big.c\nfn=main\n3 1000\n199999 12345\n200000 7\n");
    const s2 = await serve([join(dir, "big.callgrind")], dir);
    try {
      const id = await idOf(s2, "main");
      const pg = await page(s2.url + `#fn=${id}&tab=source`);
      await pg.waitForSelector('[data-testid="source"] .srcline[data-line="3"]');
      eq(await pg.textContent('[data-testid="source-lines"]'), "200,000 lines · ", "the whole file");
      const inPage = await pg.$$eval(".srcline", (els) => els.length);
      assert(inPage < 200, `a window of the lines in the page, not all: ${inPage}`);
      await pg.$eval(".srcbody", (el) => (el.scrollTop = el.scrollHeight));
      await pg.waitForSelector('.srcline[data-line="199999"]');
      eq(await pg.textContent('.srcline[data-line="199999"] code'), "int line_199999 = 199999;", "the line's text");
      eq(await pg.textContent('.srcline[data-line="199999"] .num'), "12,345", "line 199,999's cost");
      eq(await pg.textContent('.srcline[data-line="200000"] .num'), "7", "the last line's cost");
      assert(await pg.$eval('.srcline[data-line="199999"]', (el) => el.classList.contains("hot")), "a hot line");
      await shot(pg, "source-big");
    } finally {
      s2.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("deep link: fragment state opens the same view, back and forward", async (s) => {
  const id = await idOf(s, "fib");
  const pg = await page(s.url + `#fn=${id}&tab=calls&by=inclusive&filter=fib`);
  await pg.waitForSelector('[data-testid="selected-name"]');
  eq(await pg.textContent('[data-testid="selected-name"]'), "fib", "selected from the link");
  eq(await pg.inputValue("input.search"), "fib", "search box from the link");
  await pg.waitForSelector(".thead .cell.incl.sorted");
  await pg.click('button[role="tab"]:text("Source")');
  await pg.waitForSelector('[data-testid="source"]');
  await pg.goBack();
  await pg.waitForSelector('[aria-label="Callers"]');
  await pg.goForward();
  await pg.waitForSelector('[data-testid="source"]');
});

test("security: no token, no page and no API", async (s) => {
  const base = s.url.replace(/\/\?token=.*/, "");
  const pg = await page(null);
  const r = await pg.goto(base + "/");
  eq(r.status(), 401, "page without token");
  const api = await pg.evaluate(async (u) => (await fetch(u + "/api/v1/profile")).status, base);
  eq(api, 401, "API without token");
  const bad = await pg.goto(base + "/?token=0123456789abcdef0123456789abcdef");
  eq(bad.status(), 403, "wrong token");
  // With the URL's token, the cookie lets the page's later requests through.
  await pg.goto(s.url);
  await waitRows(pg);
  const again = await pg.evaluate(async (u) => (await fetch(u + "/api/v1/profile")).status, base);
  eq(again, 200, "API with the cookie");
});

// --- other servers ----------------------------------------------------------------------------
test("parts: one part of a multi-thread profile, as annotate --part", async () => {
  const s2 = await serve([threads]);
  try {
    const P = annotateJson(threads, "--part", "2");
    const top = [...P.functions].sort((a, b) => b.self[P.events[0]] - a.self[P.events[0]])[0];
    const pg = await page(s2.url + "#cycles=no");
    await waitRows(pg);
    await pg.selectOption('select[aria-label="Parts"]', "2");
    await pg.waitForFunction(() => location.hash.includes("parts=2"));
    await pg.waitForFunction(
      ([n, c]) => [...document.querySelectorAll(".tbody .row")].some((r) => r.querySelector(".name")?.textContent.startsWith(n) && r.querySelector(".self")?.textContent.startsWith(c + " ")),
      [top.name, fmt(top.self[P.events[0]])],
    );
    await shot(pg, "part");
    // The parts side by side: the same function's self cost in part 2, as annotate --part 2.
    const row = await pg.$(`.tbody .row:has(.name:text-is("${top.name}"))`);
    await row.click();
    await pg.click('button[role="tab"]:text("Parts")');
    await pg.waitForFunction((c) => document.querySelector('[data-part-self="2"]')?.textContent === c, fmt(top.self[P.events[0]]));
    const cells = await pg.$$eval("[data-part-self]", (els) => els.length);
    eq(cells, annotateJson(threads).parts.count, "a column per part");
    await shot(pg, "parts-side-by-side");
    // The list's parts side by side: a column per part, each cell annotate --part=N's self cost.
    const pg2 = await page(s2.url + "#cycles=no");
    await waitRows(pg2);
    await pg2.check('input[aria-label="Parts side by side"]');
    await pg2.waitForFunction(() => location.hash.includes("pcols=1"));
    const nparts = annotateJson(threads).parts.count;
    await pg2.waitForSelector(`.tbody .row[data-index="0"] .cell.pcol.p${nparts}:not(:empty)`);
    const heads = await pg2.$$eval(".thead .cell.pcol", (els) => els.map((e) => e.textContent));
    eq(heads.length, nparts, "a column per part: " + heads.join(","));
    const per = [];
    for (let n = 1; n <= nparts; n++) per.push(annotateJson(threads, "--part", String(n)));
    let nonzero = 0;
    let compared = 0;
    for (let i = 0; i < 10; i++) {
      const name = await rowText(pg2, i, "name");
      // (A name of several files, inlined code, is not told apart by the name alone: skipped.)
      if (new Set(per.flatMap((P) => P.functions.filter((g) => g.name === name).map((g) => g.key))).size > 1) continue;
      compared++;
      let sum = 0;
      for (let n = 1; n <= nparts; n++) {
        const f = per[n - 1].functions.find((g) => g.name === name);
        const want = f ? f.self[per[n - 1].events[0]] : 0;
        eq(await rowText(pg2, i, "p" + n), fmt(want), `${name}: part ${n}'s self cost`);
        if (want) nonzero++;
        sum += want;
      }
      // and beside them, all parts summed.
      assert((await rowText(pg2, i, "self")).startsWith(fmt(sum) + " "), `${name}: the parts' sum`);
    }
    assert(compared >= 6 && nonzero >= 8, `the parts' cells hold costs (${compared} rows, ${nonzero} cells)`);
    await shot(pg2, "parts-columns");
    // A part's head shows that part alone.
    await pg2.click(".thead .cell.pcol.p2");
    await pg2.waitForFunction(() => location.hash.includes("parts=2") && !location.hash.includes("pcols=1"));
  } finally {
    s2.stop();
  }
});

test("diff: deltas as calltree diff, only-in-one-side marked, flame coloured", async () => {
  const s2 = await serve([diffOld, diffNew]);
  try {
    const D = JSON.parse(execFileSync(calltree, ["diff", "--json", diffOld, diffNew], { maxBuffer: 1 << 28 }).toString());
    const pg = await page(s2.url);
    await waitRows(pg);
    const fileName = await pg.textContent('[data-testid="file-name"]');
    eq(fileName, "vg-recurse-default.callgrind → vg-recurse-separate-recs-callers.callgrind", "both files named");
    // The first row (the largest change of self cost) is calltree diff's first function.
    const top = D.functions[0];
    eq(await rowText(pg, 0, "name"), top.name, "the largest change");
    eq(await rowText(pg, 0, "delta"), (top.self.Ir.delta > 0 ? "+" : "") + fmt(top.self.Ir.delta), "its delta");
    eq(await rowText(pg, 0, "change"), top.change, "marked as " + top.change);
    eq((await pg.textContent(".thead .cell.change")).trim(), "Change", "the change column's title");
    // The counts are calltree diff's: its functions (object, file, name), not annotate's keys;
    // changed: the self cost shown differs (Cost self).
    const Dall = JSON.parse(execFileSync(calltree, ["diff", "--json", "--threshold=0", diffOld, diffNew], { maxBuffer: 1 << 28 }).toString());
    const sameSelf = Dall.functions.filter((f) => f.change === "changed" && f.self.Ir.old === f.self.Ir.new).length;
    const want = { ...Dall.counts, changed: Dall.counts.changed - sameSelf, unchanged: Dall.counts.unchanged + sameSelf };
    const n = (k) => fmt(want[k]);
    await pg.waitForSelector('[data-testid="diff-counts"]');
    eq(await pg.textContent('[data-testid="diff-counts"]'), `${n("changed")} changed · ${n("added")} added · ${n("removed")} removed · ${n("unchanged")} same`, "counts as calltree diff");
    eq(await pg.textContent('[data-testid="row-count"]'), fmt(Dall.counts.changed + Dall.counts.added + Dall.counts.removed + Dall.counts.unchanged) + " rows", "every function of either side");
    // Sorted by name (the Function column's head): rows, not an error (the page sent the
    // order's measure with by=name, which the API refuses).
    const pn = await page(s2.url + "#by=name");
    await waitRows(pn);
    const names = await pn.$$eval(".tbody .row .cell.name", (els) => els.map((e) => e.textContent));
    assert(names.length > 3 && !(await pn.$(".error")), "by name: rows, no error");
    const head = names.slice(0, 10);
    const up = head.every((n, i) => i === 0 || head[i - 1] <= n), down = head.every((n, i) => i === 0 || head[i - 1] >= n);
    assert(up || down, "by name: rows in name order: " + head.join(", "));
    await pg.selectOption('select[aria-label="Order by"]', "percent");
    await pg.waitForFunction(() => [...document.querySelectorAll(".tbody .row .cell.change")].some((e) => e.textContent === "added"));
    await shot(pg, "diff");
    await pg.click('button[role="tab"]:text("Flame graph")');
    await pg.waitForSelector('[data-testid="flame"] .frame');
    const colours = await pg.$$eval('[data-testid="flame"] .frame', (els) => new Set(els.map((e) => e.style.background)).size);
    assert(colours >= 2, "flame coloured by change");
    assert((await pg.textContent(".legend")).includes("grew"), "legend");
    await shot(pg, "diff-flame");
  } finally {
    s2.stop();
  }
});

test("diff: grouped by source file, each group's change, one group's rows", async () => {
  const oldT = join(corpus, "vg-threads-separate.t01.callgrind");
  const newT = join(corpus, "vg-threads-separate.t02.callgrind");
  const s2 = await serve([oldT, newT]);
  try {
    const D = JSON.parse(execFileSync(calltree, ["diff", "--json", "--threshold=0", oldT, newT], { maxBuffer: 1 << 28 }).toString());
    // The expected change of each file's group: its functions' self cost summed, each side.
    const [bigName, big] = mostChangedFile(D);
    const pg = await page(s2.url + "#group=file");
    await pg.waitForSelector(".groups .group.dgroup");
    // The first group is the one whose self cost changed most; its delta is shown.
    eq(await pg.textContent(".groups .group.dgroup .gname"), bigName, "the group that changed most");
    const d = big.nw - big.old;
    eq(await pg.textContent(".groups .group.dgroup .delta"), (d > 0 ? "+" : "") + fmt(d), "its change");
    await pg.click(`.groups .group.dgroup:has(.gname:text-is("${bigName}"))`);
    await pg.waitForFunction(() => location.hash.includes("in_group="));
    await pg.waitForFunction((b) => [...document.querySelectorAll(".tbody .row .cell.loc")].length > 0 && [...document.querySelectorAll(".tbody .row .cell.loc")].every((e) => e.textContent === b), bigName);
    await shot(pg, "diff-group");
  } finally {
    s2.stop();
  }
});

test("diagnostics: a file with errors opens and lists them", async () => {
  const bad = join(source, "tests/malformed/m03-undefined-function-id.callgrind");
  const s2 = await serve([bad]);
  try {
    const pg = await page(s2.url);
    await pg.waitForSelector('.diagnostics[open] li');
    const text = await pg.textContent(".diagnostics");
    assert(/error/.test(text) && text.includes("m03-undefined-function-id.callgrind:"), "diagnostics listed: " + text.slice(0, 200));
    await shot(pg, "diagnostics");
  } finally {
    s2.stop();
  }
});

test("300,000 rows: a window of them in the DOM, the last one reached", async () => {
  // A profile of 300 000 functions, function i with self cost i + 1, every 1000th calling
  // the next (so there are callers and callees), written under the build folder.
  const big = join(out, "..", "300k.callgrind");
  if (!existsSync(big)) {
    const lines = ["# callgrind format", "version: 1", "events: Ir", "fl=(1) big.c"];
    for (let i = 0; i < 300000; i++) {
      lines.push(`fn=(${i + 1}) f${i}`, `${(i % 500) + 1} ${i + 1}`);
      if (i % 1000 === 0 && i + 1 < 300000) lines.push(`cfn=(${i + 2}) f${i + 1}`, "calls=1 1", `${(i % 500) + 1} ${i + 2}`);
    }
    writeFileSync(big, lines.join("\n") + "\n");
  }
  const s2 = await serve([big]);
  try {
    const pg = await page(s2.url);
    await waitRows(pg);
    eq(await pg.textContent('[data-testid="row-count"]'), "300,000 rows", "row count");
    eq(await rowText(pg, 0, "name"), "f299999", "first row");
    const inDom = (await pg.$$(".tbody .row")).length;
    assert(inDom < 120, `only a window of rows in the DOM (${inDom})`);
    // Scroll through the list in 20 jumps; each frame's render is timed.
    const times = await pg.evaluate(async () => {
      const el = document.querySelector(".tbody");
      const out = [];
      for (let k = 1; k <= 20; k++) {
        const t0 = performance.now();
        el.scrollTop = (el.scrollHeight * k) / 20;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        out.push(performance.now() - t0);
      }
      return out;
    });
    await pg.waitForFunction(() => document.querySelector('.tbody .row[data-index="299999"] .cell.name')?.textContent === "f0", null, { timeout: 10000 });
    eq(await rowText(pg, 299999, "self"), "1   0.00%", "the last row's self cost");
    await pg.keyboard.press("Escape");
    await pg.click('.tbody .row[data-index="299999"]');
    await pg.keyboard.press("Home");
    await pg.waitForFunction(() => document.querySelector('[data-testid="selected-name"]')?.textContent === "f299999", null, { timeout: 10000 });
    times.sort((a, b) => a - b);
    console.log(`     300k rows: a scroll jump renders in ${times[10].toFixed(1)} ms (median), ${times[19].toFixed(1)} ms (slowest)`);
    await shot(pg, "300k");
  } finally {
    s2.stop();
  }
});

test("group by: source file groups, one group's rows; a C++ class's group, its members' sum", async (s) => {
  const pg = await page(s.url + "#group=file");
  await pg.waitForSelector(".groups .group");
  const groups = await pg.$$eval(".groups .group .gname", (els) => els.map((e) => e.textContent));
  assert(groups.includes("recurse.c") && groups.includes("malloc.c"), "groups: " + groups.slice(0, 6).join(","));
  await pg.click('.groups .group:has(.gname:text-is("recurse.c"))');
  await pg.waitForFunction(() => location.hash.includes("in_group="));
  const want = A.functions.filter((f) => f.file === "./src/c/recurse.c").length;
  await pg.waitForFunction((n) => document.querySelector('[data-testid="row-count"]').textContent === n + " rows", want);
  for (const loc of await pg.$$eval(".tbody .row .cell.loc", (els) => els.map((e) => e.textContent))) eq(loc, "recurse.c", "row of the group");
  await shot(pg, "group");
  // By C++ class, on the -O2 C++ program (the control, then the URL): std::string's group,
  // its self cost (the group's tooltip, exact; its share in the list) its members' summed.
  const w = await serve([wordfreq]);
  try {
    const cls = "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >";
    const annotated = annotateJson(wordfreq);
    const wp = await page(w.url);
    await waitRows(wp);
    await wp.selectOption('select[aria-label="Group by"]', "class");
    await wp.waitForFunction(() => location.hash.includes("group=class"));
    const group = `.groups .group:has(.gname:text-is("${cls}"))`;
    await wp.waitForSelector(group);
    const names = await wp.$$eval(".groups .group .gname", (els) => els.map((e) => e.textContent));
    for (const n of ["(global)", "wf", "std", "std::istream::sentry", cls]) assert(names.includes(n), "class group " + n + ": " + names.slice(0, 8).join(" | "));
    eq((await wp.$$eval('[data-testid="group-head"] span', (els) => els.map((e) => e.textContent))).join("|"), "Incl.|Self|Count|Class / namespace", "the groups' column heads");
    const title = await wp.getAttribute(group, "title");
    const m = title.match(/self ([\d,]+) Ir, (\d+) functions$/);
    assert(title.startsWith(cls + "\nincl. ") && m, "the group's tooltip: " + title);
    const cells = await wp.$$eval(`${group} .num`, (els) => els.map((e) => e.textContent));
    eq(cells[2], m[2], "the group's functions");
    await wp.click(group);
    await wp.waitForFunction(() => location.hash.includes("in_group="));
    await wp.waitForFunction((n) => document.querySelector('[data-testid="row-count"]').textContent === n + " rows", m[2]);
    const rows = await wp.$$eval(".tbody .row", (els) => els.map((e) => [e.querySelector(".cell.name").title, e.querySelector(".cell.self").textContent]));
    eq(rows.length, Number(m[2]), "the group's rows");
    let sum = 0;
    for (const [name, self] of rows) {
      assert(name.includes(cls + "::"), "a member of " + cls + ": " + name);
      sum += num(self.trim().split(/\s+/)[0]);
    }
    eq(fmt(sum), m[1], "the group's self cost: its members' summed");
    const share = (100 * sum) / annotated.totals.Ir;
    eq(cells[1], (share >= 10 ? share.toFixed(1) : share.toFixed(2)) + "%", "the group's self share");
    // The same numbers as annotate's, function by function (its names are the rows').
    eq(sum, annotated.functions.filter((f) => rows.some(([n]) => n === f.name)).reduce((a, f) => a + f.self.Ir, 0), "annotate's self costs of the members");
    await shot(wp, "group-class");
    // The URL alone opens the same grouping and group.
    const again = await page(wp.url());
    await again.waitForSelector(group + ".selected");
    eq(await again.getAttribute(group, "title"), title, "the group from the URL");
  } finally {
    w.stop();
  }
});

test("report --html: one file, opens from disk, the threshold said", async () => {
  const file = join(out, "..", "recurse-report.html");
  execFileSync(calltree, ["report", "--html", recurse, "-o", file], { cwd: corpus, stdio: ["ignore", "ignore", "pipe"] });
  const pg = await page(null);
  const requests = [];
  pg.on("request", (r) => requests.push(r.url()));
  await pg.goto("file://" + file);
  await waitRows(pg);
  const note = await pg.textContent('[data-testid="report-threshold"]');
  // "K of N": N every function (as the model counts them) and cycle, K those listed.
  const m = note.match(/(\d+) of (\d+)/);
  assert(note.includes("at least 0.1% of the total") && m && Number(m[2]) === functionCount + A.cycles.length, "threshold in the page: " + note);
  const kept = Number(m[1]);
  assert(kept > 10 && kept < functionCount, "functions above the threshold: " + kept);
  eq(await pg.textContent('[data-testid="row-count"]'), `${kept} rows`, "rows above the threshold");
  assert((await rowText(pg, 1, "name")).startsWith(topSelf.name), "top function");
  assert((await rowText(pg, 1, "self")).startsWith(fmt(topSelf.self.Ir) + " "), "its self cost");
  await pg.fill("input.search", "^cyc_");
  await pg.waitForFunction(() => [...document.querySelectorAll(".tbody .row .cell.name")].every((e) => e.textContent.startsWith("cyc_")));
  await pg.fill("input.search", "");
  await pg.waitForFunction((n) => document.querySelector('[data-testid="row-count"]').textContent === n + " rows", kept);
  await pg.click('.tbody .row[data-index="1"]');
  await pg.waitForSelector('[aria-label="Callers"] tbody tr');
  eq(await pg.textContent('[data-testid="selected-self"]'), fmt(topSelf.self.Ir), "selected self");
  await pg.click('button[role="tab"]:text("Source")');
  await pg.waitForSelector(".srcline.hot");
  await pg.click('button[role="tab"]:text("Flame graph")');
  await pg.waitForSelector('[data-testid="flame"] .frame:text-is("main")');
  await shot(pg, "report");
  // The call graph (Graphviz's WebAssembly from the file itself) of main: its inclusive share
  // as annotate's; another depth is not in the report and says so.
  const main = A.functions.find((f) => f.name === "main");
  // (a share short of the whole never reads 100.0%: more decimals, as format.ts's pct gives it)
  const pctOf = (c) => {
    const p = (100 * c) / A.totals.Ir;
    let t = p >= 10 ? p.toFixed(1) : p.toFixed(2);
    for (let d = 2; Number(t) === 100 && c !== A.totals.Ir && d <= 6; d++) t = p.toFixed(d);
    return t + "%";
  };
  await pg.fill("input.search", "^main$");
  await pg.waitForFunction(() => document.querySelector('[data-testid="row-count"]').textContent === "1 row");
  await pg.click('.tbody .row[data-index="0"]');
  await pg.waitForFunction(() => document.querySelector('[data-testid="selected-name"]')?.textContent === "main");
  const mainId = Number(new URLSearchParams((await pg.evaluate(() => location.hash)).slice(1)).get("fn"));
  await pg.click('button[role="tab"]:text("Call graph")');
  await pg.waitForSelector(`.graph svg g.node#n${mainId}`, { timeout: 20000 });
  const node = await pg.$$eval(`.graph svg g.node#n${mainId} text`, (els) => els.map((e) => e.textContent));
  eq(node.join(" | "), `main | ${pctOf(main.inclusive.Ir)} incl. · ${pctOf(main.self.Ir)} self`, "main's node in the report's call graph");
  for (const c of main.callees.filter((c) => c.cost.Ir / A.totals.Ir >= 0.005)) {
    const n = byKey.get(c.function).name;
    assert((await pg.$$eval(".graph svg g.node text", (els) => els.map((e) => e.textContent))).includes(n), `callee ${n} not in the report's graph`);
  }
  await shot(pg, "report-callgraph");
  await pg.fill('[data-testid="callgraph"] input[aria-label="Callers depth"]', "3");
  await pg.keyboard.press("Tab");
  await pg.waitForSelector('[data-testid="callgraph"] .error');
  const notHeld = await pg.textContent('[data-testid="callgraph"] .error');
  assert(notHeld.startsWith("Not in this report: the call graph at callers depth 3") && notHeld.includes("calltree serve"), "another depth: " + notHeld);
  eq(await pg.$$eval(".graph svg", (els) => els.length), 0, "no stale graph under the message");
  // A per-function flame graph: the sandwich of main, main in both halves, its callees' half
  // as wide as main's inclusive cost.
  await pg.click('button[role="tab"]:text("Sandwich")');
  await pg.waitForSelector('[data-testid="sandwich"] .frame');
  const frames = await pg.$$eval(`[data-testid="sandwich"] .frame[data-fn="${mainId}"]`, (els) => els.map((e) => e.title));
  eq(frames.length, 2, "main in both halves of the report's sandwich");
  for (const t of frames) assert(t.startsWith(`main\n${fmt(main.inclusive.Ir)} Ir (`), "main's frame: " + t);
  await pg.click('button[role="tab"]:text("Callee map")');
  await pg.waitForSelector('[data-testid="treemap"] .tm');
  // Grouped by source file: the group's self share and function count are the whole file's.
  await pg.fill("input.search", "");
  await pg.selectOption('select[aria-label="Group by"]', "file");
  await pg.waitForSelector('.groups .group:has(.gname:text-is("recurse.c"))');
  const inFile = A.functions.filter((f) => f.file === "./src/c/recurse.c");
  const cells = await pg.$$eval('.groups .group:has(.gname:text-is("recurse.c")) .num', (els) => els.map((e) => e.textContent));
  eq(cells[1], pctOf(inFile.reduce((a, f) => a + f.self.Ir, 0)), "recurse.c's self share");
  eq(cells[2], String(inFile.length), "recurse.c's functions");
  await pg.click('.groups .group:has(.gname:text-is("recurse.c"))');
  const listed = inFile.filter((f) => f.inclusive.Ir >= 0.001 * A.totals.Ir).length;
  await pg.waitForFunction((n) => document.querySelector('[data-testid="row-count"]').textContent === n + " rows", listed);
  for (const loc of await pg.$$eval(".tbody .row .cell.loc", (els) => els.map((e) => e.textContent))) eq(loc, "recurse.c", "row of the group");
  await shot(pg, "report-group");
  const outside = requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:") && !u.startsWith("blob:"));
  eq(outside.join(" "), "", "requests other than the file");
  // Bad input: no profile, or nowhere to write: an error, and no file (nor a temporary one).
  const status = (args) => {
    try {
      execFileSync(calltree, args, { stdio: ["ignore", "ignore", "pipe"] });
      return 0;
    } catch (e) {
      return e.status;
    }
  };
  const none = join(out, "..", "no-report.html");
  eq(status(["report", "--html", join(out, "no-such.callgrind"), "-o", none]), 1, "missing profile");
  eq(status(["report", "--html", recurse, "-o", join(out, "no-dir", "r.html")]), 2, "unwritable output");
  eq(status(["report", recurse, "-o", none]), 2, "no --html");
  assert(!existsSync(none) && !existsSync(join(out, "no-dir")), "no file written");
  eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
});

test("report --html: each part of a multi-thread profile, as annotate --part", async () => {
  const file = join(out, "..", "threads-report.html");
  execFileSync(calltree, ["report", "--html", threads, "-o", file], { cwd: corpus, stdio: ["ignore", "ignore", "pipe"] });
  const pg = await page("file://" + file);
  await waitRows(pg);
  const count = annotateJson(threads).parts.count;
  eq(await pg.$$eval('select[aria-label="Parts"] option', (els) => els.length), count + 1, "a choice per part, and all summed");
  for (const n of ["2", "4"]) {
    const P = annotateJson(threads, "--part", n);
    const e = P.events[0];
    const top = [...P.functions].sort((a, b) => b.self[e] - a.self[e])[0];
    await pg.selectOption('select[aria-label="Parts"]', n);
    await pg.waitForFunction((n) => location.hash.includes("parts=" + n), n);
    await pg.waitForFunction(([name, c]) => {
      const r = document.querySelector('.tbody .row[data-index="0"]');
      return r?.querySelector(".name")?.textContent.startsWith(name) && r.querySelector(".self")?.textContent.startsWith(c + " ");
    }, [top.name, fmt(top.self[e])]);
    // Its callers and callees in that part, and the parts side by side.
    await pg.click('.tbody .row[data-index="0"]');
    await pg.waitForFunction((c) => document.querySelector('[data-testid="selected-self"]')?.textContent === c, fmt(top.self[e]));
    await pg.click('button[role="tab"]:text("Parts")');
    await pg.waitForFunction(([n, c]) => document.querySelector(`[data-part-self="${n}"]`)?.textContent === c, [n, fmt(top.self[e])]);
    await pg.click('button[role="tab"]:text("Callers / callees")');
  }
  await shot(pg, "report-part");
  // A function's own views hold all parts summed only: one part's call graph says so.
  await pg.click('button[role="tab"]:text("Call graph")');
  await pg.waitForSelector('[data-testid="callgraph"] .error');
  assert((await pg.textContent('[data-testid="callgraph"] .error')).includes("in part 4"), "one part's call graph not held");
  eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
});

test("derived event: the formula box adds a column, a bad formula says why", async (s) => {
  const pg = await page(s.url);
  await waitRows(pg);
  await pg.fill('input[aria-label="Derived event"]', "Twice = 2 Ir");
  await pg.press('input[aria-label="Derived event"]', "Enter");
  await pg.waitForFunction(() => document.querySelector('select[aria-label="Event"]')?.value === "Twice");
  await waitRows(pg);
  await pg.waitForFunction((want) => document.querySelector('.tbody .row[data-index="1"] .cell.self')?.textContent.startsWith(want), fmt(2 * topSelf.self.Ir) + " ");
  eq((await pg.textContent('[data-testid="total"]')).trim(), "Total Twice: " + fmt(2 * A.totals.Ir), "derived total");
  // A bad one is not applied: its error beside the box, the page (and Twice) kept.
  await pg.fill('input[aria-label="Derived event"]', "Bad = Ir +");
  await pg.press('input[aria-label="Derived event"]', "Enter");
  await pg.waitForSelector('[data-testid="formula-error"]');
  assert((await pg.textContent('[data-testid="formula-error"]')).includes("expected"), "the formula's error");
  eq(await pg.$('[data-testid="fatal"]'), null, "the page kept");
  eq((await pg.textContent('[data-testid="total"]')).trim(), "Total Twice: " + fmt(2 * A.totals.Ir), "still Twice");
  await pg.fill('input[aria-label="Derived event"]', "");
  await pg.press('input[aria-label="Derived event"]', "Enter");
  await pg.waitForFunction(() => !location.hash.includes("derived"));
  await waitRows(pg);
});

// The machine-code panel on a profile made here (tests/asm/hot.c under callgrind
// --dump-instr=yes --collect-jumps=yes): the instructions, costs and jump arrows of hot_loop
// as `calltree annotate --json --asm` gives them.
test("machine code: hot_loop's instructions, costs and jump arrows as annotate --asm", async () => {
  const dir = mkdtempSync(join(tmpdir(), "calltree-asm-"));
  try {
    const asmSrc = join(source, "tests/asm");
    const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    run("gcc", ["-O2", "-g", "-fPIC", "-shared", "-o", "libmix.so", join(asmSrc, "mix.c")]);
    run("gcc", ["-O2", "-g", "-o", "hot", join(asmSrc, "hot.c"), "-L.", "-lmix", "-Wl,-rpath,$ORIGIN"]);
    run("valgrind", ["--tool=callgrind", "--dump-instr=yes", "--collect-jumps=yes", "--callgrind-out-file=cg.out", "./hot", "1237"]);
    const want = JSON.parse(execFileSync(calltree, ["annotate", "--json", "--asm=^hot_loop$", "cg.out"], { cwd: dir, maxBuffer: 1 << 26 }).toString()).asm.find((a) => a.function === "hot_loop");
    eq(want.status, "ok", "annotate --asm's status");
    const s = await serve(["cg.out"], dir);
    try {
      const pg = await page(s.url);
      await waitRows(pg);
      await pg.fill("input.search", "^hot_loop$");
      await pg.waitForFunction(() => document.querySelector('[data-testid="row-count"]').textContent === "1 row");
      await pg.click('.tbody .row[data-index="0"]');
      await pg.waitForSelector('[data-testid="selected-name"]');
      await pg.click('button[role="tab"]:has-text("Machine code")');
      await pg.waitForSelector('[data-testid="asm-rows"]');
      assert((await pg.evaluate(() => location.hash)).includes("tab=asm"), "the tab in the URL");
      const addrs = await pg.$$eval("[data-testid=asm-rows] .asmrow[data-address]", (els) => els.map((e) => e.dataset.address));
      eq(addrs.join(" "), want.instructions.map((i) => i.address).join(" "), "the instructions' addresses");
      const costs = await pg.$$eval("[data-testid=asm-rows] .asmrow[data-address] .num:first-child", (els) => els.map((e) => e.textContent));
      eq(costs.join(" "), want.instructions.map((i) => (i.profiled ? fmt(i.self.Ir) : "")).join(" "), "the instructions' costs");
      const hot = await pg.$$eval("[data-testid=asm-rows] .asmrow.hot", (els) => els.map((e) => e.dataset.address));
      eq(hot.join(" "), want.instructions.filter((i) => i.hot).map((i) => i.address).join(" "), "the hot instructions");
      const jumps = want.instructions.flatMap((i) => i.jumps).filter((j) => j.target_index !== null && Number(j.executed) > 0);
      eq(await pg.$$eval("[data-testid=asm-arrows] > path", (els) => els.length), jumps.length, "one arrow per jump executed");
      const loop = want.instructions.flatMap((i) => i.jumps).find((j) => j.conditional && j.executed === 1237);
      assert(loop, "annotate has the loop's conditional jump executed 1237 times");
      const notes = await pg.$$eval("[data-testid=asm-rows] .asmnote", (els) => els.map((e) => e.textContent));
      assert(notes.some((n) => n.includes(`jump ${fmt(loop.followed)} of 1,237 (`)), "the loop's jump note: " + notes.join(" | "));
      await shot(pg, "asm");
      // The Control flow toggle: hot_loop's blocks, their costs summing to its self cost, its
      // edges with their counts, the heaviest the widest.
      await pg.click('[data-testid="asm-toggle"] button:has-text("Control flow")');
      await pg.waitForSelector('[data-testid="cfg-graph"] .cfgblock');
      assert((await pg.evaluate(() => location.hash)).includes("flow=1"), "the toggle in the URL");
      const blockCosts = await pg.$$eval("[data-testid=cfg-graph] .cfgblock", (els) => els.map((e) => Number(e.dataset.cost)));
      assert(blockCosts.length >= 6, "hot_loop's blocks: " + blockCosts.length);
      eq(blockCosts.reduce((a, b) => a + b, 0), Number(want.self.Ir), "the blocks' costs sum to the self cost");
      const edges = await pg.$$eval("[data-testid=cfg-graph] .cfgedge", (els) =>
        els.map((e) => ({ count: e.dataset.count, hot: e.classList.contains("hot"), width: Number(e.querySelector("path").getAttribute("stroke-width")) })),
      );
      assert(edges.length >= 8 && edges.every((e) => e.count !== ""), "every edge has a count");
      const counts = edges.map((e) => Number(e.count));
      assert(counts.includes(Number(loop.followed)), "the loop's taken edge, " + loop.followed + " times: " + counts.join(" "));
      const hotEdge = edges.find((e) => e.hot);
      eq(Number(hotEdge.count), Math.max(...counts), "the hot edge is the most followed");
      eq(hotEdge.width, Math.max(...edges.map((e) => e.width)), "the hot edge is the widest");
      assert(Math.max(...counts) >= 618, "the loop's edges are followed 618 times or more");
      await shot(pg, "cfg");
      await pg.goBack();
      await pg.waitForSelector('[data-testid="asm-rows"]');
      eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
    } finally {
      s.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A function of 9,000 instructions whose jumps nest 120 deep (made here: web/tests' generator
// below, gcc -O1, callgrind --dump-instr=yes --collect-jumps=yes), as sqlite3VdbeExec's 7,228:
// its rows appear at once (only those in view are in the page), the arrows take at most 8
// lanes beside the code and the longer jumps are stubs that say where they go.
function bigFunctionSource(depth = 120, groups = 5) {
  let c = "volatile int v[64];\n__attribute__((noinline)) long big(long x) {\n";
  for (let g = 0; g < groups; g++) {
    for (let i = 0; i < depth; i++) c += `  if (((x >> 3) + ${i}) % 41 != 0) { x = x * ${3 + (i % 5)} + v[${(i * 3) % 64}];\n`;
    for (let i = depth - 1; i >= 0; i--) c += `  x ^= v[${(g + i) % 64}] + ${i}; }\n`;
  }
  c += "  return x;\n}\nint main(int argc, char **argv) {\n  long s = 0;\n  for (int i = 0; i < 64; i++) v[i] = i;\n";
  return c + "  for (int r = 0; r < 400; r++) s += big(argc * 7919 + r * 104729);\n  v[0] = (int)s;\n  return 0;\n}\n";
}

test("machine code: 9,000 instructions appear at once, arrows in 8 lanes, long jumps as stubs", async () => {
  const dir = mkdtempSync(join(tmpdir(), "calltree-bigasm-"));
  try {
    writeFileSync(join(dir, "big.c"), bigFunctionSource());
    const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    run("gcc", ["-O1", "-g", "-o", "big", "big.c"]);
    run("valgrind", ["--tool=callgrind", "--dump-instr=yes", "--collect-jumps=yes", "--callgrind-out-file=cg.out", "./big"]);
    const want = JSON.parse(execFileSync(calltree, ["annotate", "--json", "--asm=^big$", "cg.out"], { cwd: dir, maxBuffer: 1 << 28 }).toString()).asm.find((a) => a.function === "big");
    eq(want.status, "ok", "annotate --asm's status");
    assert(want.instructions.length > 5000, "a big function: " + want.instructions.length);
    const jumps = want.instructions.flatMap((i) => i.jumps).filter((j) => j.target_index !== null && Number(j.executed) > 0);
    const s = await serve(["cg.out"], dir);
    try {
      const id = await idOf(s, "big");
      const pg = await page(s.url + `#fn=${id}`);
      await pg.waitForSelector('[data-testid="selected-name"]');
      // From the answer's arrival to the first instruction shown: the page's own work.
      const answered = pg.waitForResponse((r) => r.url().includes("/api/v1/asm/")).then(() => Date.now());
      await pg.click('button[role="tab"]:has-text("Machine code")');
      await pg.waitForSelector("[data-testid=asm-rows] .asmrow[data-address]", { timeout: 30000 });
      const shownAt = Date.now();
      const ms = shownAt - (await answered);
      const inPage = await pg.$$eval(".asmrow", (els) => els.length);
      assert(inPage < 300, `${inPage} rows in the page for ${want.instructions.length} instructions: not a window`);
      // "At once" is the window above (a bound on time would fail on a loaded machine).
      console.log(`     (the first rows shown ${ms} ms after the answer)`);
      // The gutter is bounded and the code starts inside the pane.
      const g = await pg.$eval("[data-testid=asm-arrows]", (e) => ({ w: e.getBoundingClientRect().width, lanes: Number(e.dataset.lanes), jumps: Number(e.dataset.jumps), stubs: Number(e.dataset.stubs) }));
      assert(g.w <= 100, `the arrow gutter is ${g.w} px wide`);
      assert(g.lanes <= 8, `${g.lanes} lanes`);
      eq(g.jumps, jumps.length, "every jump executed is drawn (an arrow or two stubs)");
      assert(g.stubs > 0, "the longest jumps are stubs");
      const pane = await pg.$eval("[data-testid=asm-rows]", (e) => e.getBoundingClientRect().toJSON());
      const code = await pg.$eval("[data-testid=asm-rows] .asmrow[data-address] code", (e) => e.getBoundingClientRect().toJSON());
      assert(code.left > pane.left && code.left + 40 < pane.right, `the code starts at ${code.left}, the pane spans ${pane.left}..${pane.right}`);
      // A stub says where its jump goes; a click on it scrolls there.
      await pg.waitForSelector("[data-testid=asm-arrows] g.stub");
      const tip = await pg.$eval("[data-testid=asm-arrows] g.stub[data-stub=from]", (g) => {
        g.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        return g.querySelector("title").textContent;
      });
      assert(/→ [0-9a-f]+, [\d,]+ rows (up|down)/.test(tip), "a stub's title: " + tip);
      const target = tip.match(/→ ([0-9a-f]+)/)[1];
      await pg.waitForSelector(`.asmrow[data-address="0x${target}"]`);
      // The last instruction is reached by scrolling.
      await pg.$eval("[data-testid=asm-rows]", (e) => (e.scrollTop = e.scrollHeight));
      await pg.waitForSelector(`.asmrow[data-address="${want.instructions[want.instructions.length - 1].address}"]`);
      console.log(`     (${want.instructions.length} instructions, ${jumps.length} jumps, ${g.stubs} stubs, ${g.lanes} lanes, ${g.w} px; first rows ${ms} ms after the answer)`);
      await shot(pg, "asm-big");
      eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
    } finally {
      s.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const wordfreq = join(corpus, "vg-wordfreq-cxx-O2g-default.callgrind");
async function heaviest(s, regex) {
  return (await s.api(`functions?by=inclusive&limit=1&filter=${encodeURIComponent(regex)}`)).rows[0].id;
}
const closures = join(corpus, "xdebug-closures.callgrind");

test("call graph: the selected function in the pane, fitted; zoom controls", async () => {
  const s = await serve([wordfreq]);
  try {
    const id = await heaviest(s, "^main$");
    const pg = await page(s.url + `#fn=${id}&tab=graph`);
    await pg.waitForSelector(`.graph svg g.node#n${id}`, { timeout: 30000 });
    const inside = async () => {
      const pane = await pg.$eval("[data-testid=graph-pane]", (e) => e.getBoundingClientRect().toJSON());
      const node = await pg.$eval(`.graph svg g.node#n${id}`, (e) => e.getBoundingClientRect().toJSON());
      return node.left >= pane.left && node.right <= pane.right && node.top >= pane.top && node.bottom <= pane.bottom ? "" : `main's box ${JSON.stringify(node)} is not within the pane ${JSON.stringify(pane)}`;
    };
    await pg.waitForTimeout(200);
    eq(await inside(), "", "fitted");
    await pg.click('button[aria-label="Actual size"]');
    await pg.waitForFunction(() => document.querySelector("[data-testid=graph-zoom]").textContent === "100%");
    eq(await inside(), "", "at 100%, centred");
    await pg.click('button[aria-label="Zoom in"]');
    await pg.waitForFunction(() => document.querySelector("[data-testid=graph-zoom]").textContent === "125%");
    eq(await inside(), "", "zoomed in, centred");
    await pg.click('button[aria-label="Zoom to fit"]');
    await pg.waitForFunction((f) => document.querySelector("[data-testid=graph-zoom]").textContent !== "125%");
    eq(await inside(), "", "fitted whole");
    const whole = await pg.evaluate(() => {
      const p = document.querySelector("[data-testid=graph-pane]").getBoundingClientRect();
      const g = document.querySelector(".graph svg").getBoundingClientRect();
      return g.left >= p.left && g.right <= p.right && g.top >= p.top && g.bottom <= p.bottom;
    });
    assert(whole, "Fit shows the whole graph");
    await shot(pg, "callgraph-fit");
    eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
  } finally {
    s.stop();
  }
});

test("one total: Xdebug's stated total beside its functions' sum in the header, first among the warnings", async () => {
  const s = await serve([closures]);
  try {
    const prof = await s.api("profile");
    const ev = prof.events[0].name;
    const stated = prof.totals_stated[ev], summed = prof.totals_summed[ev];
    assert(stated !== null && num(stated) > num(summed), `Xdebug states more ${ev} than its functions hold: ${stated} vs ${summed}`);
    eq(num(prof.totals[ev]), num(stated), "the program total is the stated one");
    assert(prof.inputs[0].warnings[0].startsWith(`the file states a total of ${stated} ${ev} but its self costs sum to ${summed}`), "first warning: " + prof.inputs[0].warnings[0]);
    const pg = await page(s.url);
    await pg.waitForSelector('[data-testid="stated-total"]');
    const t = (await pg.textContent('[data-testid="total"]')).trim();
    const share = ((100 * num(summed)) / num(stated)).toFixed(1);
    eq(t, `Total ${ev}: ${fmt(stated)} (stated by the file; its functions sum to ${fmt(summed)}, ${share} %)`, "the header's total");
    await shot(pg, "stated-total");
    // The flame graph's roots (the functions' costs) fill that share of its width, and its bar says so.
    await pg.goto(s.url + "#tab=flame");
    await pg.waitForSelector('[data-testid="flame-share"]', { timeout: 30000 });
    const pctOf = (x, t) => { const v = (100 * x) / t; return v >= 10 ? v.toFixed(1) + "%" : v.toFixed(2) + "%"; };
    eq((await pg.textContent('[data-testid="flame-share"]')).trim(), `roots: ${pctOf(num(summed), num(stated))} of the total the file states`, "the flame graph's bar");
    await shot(pg, "stated-total-flame");
    eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
  } finally {
    s.stop();
  }
});

test("advice that fits: Xdebug's machine code, php:internal and ??? sources, no -I advice", async () => {
  const s = await serve([closures]);
  try {
    const closure = await heaviest(s, "closure");
    const pg = await page(s.url + `#fn=${closure}&tab=asm`);
    await pg.waitForSelector('[data-testid="asm-none"]');
    const asm = await pg.textContent('[data-testid="asm-none"]');
    assert(!/valgrind|dump-instr/.test(asm) && /xdebug/i.test(asm), "Xdebug's machine code tab: " + asm);
    await shot(pg, "asm-xdebug");
    const usort = await idOf(s, "php::usort");
    await pg.goto(s.url + `#fn=${usort}&tab=source`);
    // (the hash changes in place: the closure's source box may show until usort's answer comes)
    await pg.waitForFunction(() => /php:internal/.test(document.querySelector('[data-testid="source-missing"]')?.textContent ?? ""));
    const tab = await pg.textContent(".tabbody");
    assert(!/-I DIR|--source-root|-I or/.test(tab), "php:internal's source tab: " + tab);
    assert(/built-in/.test(tab), "says php:internal is PHP's built-in functions: " + tab);
    eq(await pg.$$eval(".tabbody .error, .tabbody .notice", (els) => els.length), 1, "one box");
    await shot(pg, "source-php-internal");
  } finally {
    s.stop();
  }
  const w = await serve([wordfreq]);
  try {
    const hash = await idOf(w, "std::_Hash_bytes\\(void const\\*, unsigned long, unsigned long\\)");
    const pg = await page(w.url + `#fn=${hash}&tab=source`);
    await pg.waitForSelector('[data-testid="source-missing"]');
    const tab = await pg.textContent(".tabbody");
    assert(!/-I DIR|--source-root|-I or/.test(tab), "???'s source tab: " + tab);
    eq(await pg.$$eval(".tabbody .error, .tabbody .notice", (els) => els.length), 1, "one box");
    await shot(pg, "source-qqq");
  } finally {
    w.stop();
  }
});

test("names: closures told apart, ??? located by object, list and columns resized by dragging", async () => {
  const s = await serve([closures]);
  try {
    const pg = await page(s.url);
    await waitRows(pg);
    const names = (await rowNames(pg)).filter((n) => n.startsWith("{closure"));
    assert(names.length >= 4, "closures: " + names.join(" | "));
    eq(new Set(names).size, names.length, "every closure reads differently: " + names.join(" | "));
    for (const n of names) assert(/:\d+-\d+\}$/.test(n), "a closure's lines are shown: " + n);
    // The split between the list and the selected function's views, dragged.
    const list0 = await pg.$eval("section.list", (e) => e.getBoundingClientRect().width);
    const bar = await pg.$eval(".splitter", (e) => e.getBoundingClientRect().toJSON());
    await pg.mouse.move(bar.x + 3, bar.y + 200);
    await pg.mouse.down();
    await pg.mouse.move(bar.x + 203, bar.y + 200, { steps: 5 });
    await pg.mouse.up();
    const list1 = await pg.$eval("section.list", (e) => e.getBoundingClientRect().width);
    assert(Math.abs(list1 - list0 - 200) < 4, `the list went from ${list0} to ${list1} px`);
    // A column, dragged by its head's right edge.
    const loc0 = await pg.$eval(".thead .cell.loc", (e) => e.getBoundingClientRect().width);
    const grip = await pg.$eval(".thead .cell.loc .grip", (e) => e.getBoundingClientRect().toJSON());
    await pg.mouse.move(grip.x + 2, grip.y + 5);
    await pg.mouse.down();
    await pg.mouse.move(grip.x + 62, grip.y + 5, { steps: 5 });
    await pg.mouse.up();
    const loc1 = await pg.$eval(".thead .cell.loc", (e) => e.getBoundingClientRect().width);
    assert(Math.abs(loc1 - loc0 - 60) < 4, `the Location column went from ${loc0} to ${loc1} px`);
    eq(await pg.$eval('.tbody .row[data-index="0"] .cell.loc', (e) => Math.round(e.getBoundingClientRect().width)), Math.round(loc1), "the rows follow the head");
    await shot(pg, "names-closures");
  } finally {
    s.stop();
  }
  const w = await serve([wordfreq]);
  try {
    const pg = await page(w.url);
    await waitRows(pg);
    await pg.fill("input.search", "^std::_Hash_bytes");
    await pg.waitForFunction(() => document.querySelector('[data-testid="row-count"]').textContent === "1 row");
    eq(await rowText(pg, 0, "loc"), "libstdc++.so.6.0.30", "a ??? function's Location is its object");
  } finally {
    w.stop();
  }
});

test("selection cleared: back to no function selected, no row highlighted", async (s) => {
  const pg = await page(s.url);
  await waitRows(pg);
  await pg.click('.tbody .row[data-index="2"]');
  await pg.waitForSelector('.tbody .row.selected[data-index="2"]');
  await pg.goBack();
  await pg.waitForSelector(".detail .hint");
  await pg.waitForTimeout(100);
  eq(await pg.$$eval(".tbody .row.selected", (els) => els.length), 0, "rows highlighted after back");
  await pg.goForward();
  await pg.waitForSelector('.tbody .row.selected[data-index="2"]');
  await pg.click('button[aria-label="Clear the selection"]');
  await pg.waitForSelector(".detail .hint");
  await pg.waitForTimeout(100);
  eq(await pg.$$eval(".tbody .row.selected", (els) => els.length), 0, "rows highlighted after clearing");
  eq(await pg.evaluate(() => location.hash.includes("fn=")), false, "no fn in the URL");
});

test("dark theme follows the system", async (s) => {
  const pg = await page(s.url, { dark: true });
  await waitRows(pg);
  const bg = await pg.evaluate(() => getComputedStyle(document.body).backgroundColor);
  eq(bg, "rgb(22, 24, 29)", "dark background");
  await shot(pg, "dark");
});

// --- the runner: each test gets the server of the recurse example ----------------------------
await run({ limitMs: 40000, setup: () => serve([recurse]), cleanup: (main) => main.stop() });
