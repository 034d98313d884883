// browser_page.test.mjs — the page's defects a KCachegrind user found in Chromium (issue 50),
// each checked by what the page SHOWS, in Debian's chromium (headless, playwright-core),
// against the real `calltree serve` on corpus files: an -O2 -g C++ profile (inlined code), an
// Xdebug profile (its notes and stated totals), the big cc1plus profile (wide numbers), the
// recursion example (a cycle), and a folder of Xdebug profiles (serve DIR); with KCachegrind's
// "Relative to parent" switch, the keys, and two panes side by side (issue 61). A screenshot of each goes to --out as
// page-NAME.png (--tag T: page-NAME-T.png). Prints "N passed, N failed".
//
//   node web/tests/browser_page.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --source . --corpus tests/corpus --out build/web/screenshots [--only NAME] [--tag T]
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { arg, assert, calltree, corpus, eq, fmt, page, run, serve as startServe, shot as harnessShot, source, test, waitRows as waitFirstRow } from "./harness.mjs";

const tag = arg("tag", "");
const cxx = join(corpus, "vg-wordfreq-cxx-O2g-default.callgrind");
const xdebug = join(corpus, "xdebug-includes.callgrind");
const big = join(corpus, "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz");
const recurse = join(source, "examples/recurse.callgrind");
const pct = (part, total) => {
  const p = (100 * Number(part)) / Number(total);
  return p >= 10 ? p.toFixed(1) + "%" : p.toFixed(2) + "%";
};

// (The big cc1plus profile takes a while to load on a loaded machine: a minute for its URL and
// for its list.)
const serve = (args, cwd = corpus) => startServe(args, { cwd, waitMs: 60000 });
const shot = (pg, name) => harnessShot(pg, "page-" + name + (tag ? "-" + tag : ""));
const waitRows = (pg) => waitFirstRow(pg, 60000);
const noErrors = (pg) => eq(pg.errors.join("; "), "", "page errors");

// --- Xdebug: the diagnostics ---------------------------------------------------------------------
test("diagnostics: counts and plurals as listed; warnings before the notes; notes counted per code", async () => {
  const s = await serve([xdebug]);
  try {
    const p = await s.api("profile");
    const i = p.inputs[0];
    const warnings = i.diagnostics.warnings + i.warnings.length + p.event_warnings.length;
    assert(warnings >= 2 && i.diagnostics.notes > 20, `the file has ${warnings} warnings, ${i.diagnostics.notes} notes`);
    const pg = await page(s.url);
    await waitRows(pg);
    const summary = (await pg.textContent('[data-testid="diag-summary"]')).trim();
    eq(summary, `xdebug-includes.callgrind: 0 errors, ${warnings} warnings, ${fmt(i.diagnostics.notes)} notes`, "the summary");
    // The list: every warning, then the notes (grouped by code), never a note before a warning.
    const kinds = await pg.$$eval('[data-testid="diag-list"] > li', (els) => els.map((e) => e.className));
    eq(kinds.filter((k) => k === "warning").length, warnings, "warnings listed");
    assert(kinds.lastIndexOf("warning") < kinds.indexOf("note"), "warnings before notes: " + kinds.join(","));
    const listed = await pg.$$eval('[data-testid="diag-list"] > li.warning', (els) => els.map((e) => e.textContent));
    assert(listed.some((t) => t.includes("states a total of 1649336 Time_(10ns)")), "the warning of the totals: " + listed.join(" | "));
    // One group per code, with its count: the counts sum to the notes.
    const groups = await pg.$$eval('[data-testid="diag-note-group"]', (els) => els.map((e) => [e.dataset.code, e.querySelector("summary").textContent]));
    const byCode = i.diagnostics.by_code.filter((c) => c.severity === "note");
    eq(groups.length, byCode.length, "note groups");
    let sum = 0;
    for (const [k, c] of byCode.entries()) {
      eq(groups[k][0], c.code, "group code");
      assert(groups[k][1].startsWith(`${fmt(c.count)} note${c.count === 1 ? "" : "s"} [${c.code}]`), "group head: " + groups[k][1]);
      sum += c.count;
    }
    eq(sum, i.diagnostics.notes, "the notes of every code");
    // (the first 20 of a code are listed inside its group, closed until opened)
    const g = pg.locator('[data-testid="diag-note-group"]').first();
    assert(!(await g.locator("li").first().isVisible()), "the notes closed");
    await shot(pg, "diagnostics");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

// --- a derived event the server refuses --------------------------------------------------------
test("formula: a refused formula's error beside the box, the page kept (typed or linked)", async () => {
  const s = await serve([xdebug]);
  try {
    const pg = await page(s.url);
    await waitRows(pg);
    const rows = await pg.textContent('[data-testid="row-count"]');
    for (const f of ["T2 = Time_(10ns) * 2", "X = Ir +"]) {
      await pg.fill('input[aria-label="Derived event"]', f);
      await pg.press('input[aria-label="Derived event"]', "Enter");
      await pg.waitForSelector('[data-testid="formula-error"]');
      const err = await pg.textContent('[data-testid="formula-error"]');
      assert(/expected/.test(err), `${f}: the error ${err}`);
      eq(await pg.$('[data-testid="fatal"]'), null, "no page of the error alone");
      eq(await pg.textContent('[data-testid="row-count"]'), rows, "the list kept");
      eq(await pg.inputValue('input[aria-label="Derived event"]'), f, "the formula kept in the box");
      assert(!(await pg.evaluate(() => location.hash)).includes("derived"), "not applied");
      if (f.startsWith("T2")) await shot(pg, "formula");
    }
    // A good one applies; emptied, it goes.
    await pg.fill('input[aria-label="Derived event"]', "T2 = 2 Memory_(bytes)");
    await pg.press('input[aria-label="Derived event"]', "Enter");
    await pg.waitForFunction(() => location.hash.includes("derived=T2"));
    await waitRows(pg);
    eq(await pg.$('[data-testid="formula-error"]'), null, "no error");
    // A link with a refused formula: the page without it, the error beside the box.
    const p2 = await page(s.url + "#derived=" + encodeURIComponent("X=Ir+"));
    await waitRows(p2);
    await p2.waitForSelector('[data-testid="formula-error"]');
    eq(await p2.inputValue('input[aria-label="Derived event"]'), "X = Ir+", "the linked formula in the box");
    assert(!(await p2.evaluate(() => location.hash)).includes("derived"), "the link's formula dropped");
    noErrors(pg);
    noErrors(p2);
  } finally {
    s.stop();
  }
});

// --- the call graph, on open: fitted when that keeps its labels legible (issue 50), else at a
// legible scale, the selected function in the pane and the panner showing the rest (issue 61)
async function graphFits(pg, what) {
  await pg.waitForSelector(".graph svg g.node", { timeout: 30000 });
  await pg.waitForTimeout(300);
  const r = await pg.evaluate(() => {
    const pane = document.querySelector(".graph");
    const p = pane.getBoundingClientRect();
    const svg = pane.querySelector("svg");
    const inside = (b) => !(b.left < p.left - 0.5 || b.right > p.left + pane.clientWidth + 0.5 || b.top < p.top - 0.5 || b.bottom > p.top + pane.clientHeight + 0.5);
    const nodes = [...pane.querySelectorAll("svg g.node")].map((n) => n.getBoundingClientRect());
    // (the selected function's box: drawn with the thick purple outline)
    const sel = [...pane.querySelectorAll("svg g.node")].find((n) => n.querySelector('path[stroke-width="2.5"], polygon[stroke-width="2.5"]'));
    const text = svg.querySelector("g.node text");
    const px = (parseFloat(text.getAttribute("font-size")) * svg.getBoundingClientRect().width) / svg.viewBox.baseVal.width;
    return { w: svg.getBoundingClientRect().width, pane: pane.clientWidth, nodes: nodes.length, cut: nodes.filter((b) => !inside(b)).length, selIn: sel ? inside(sel.getBoundingClientRect()) : null, px, panner: !!document.querySelector("[data-testid=graph-panner]") };
  });
  assert(r.nodes > 1, `${what}: ${r.nodes} nodes`);
  assert(r.px >= 9.9, `${what}: labels of ${r.px.toFixed(1)} px`);
  if (r.cut > 0) {
    assert(r.selIn !== false, `${what}: the selected function in the pane`);
    assert(r.panner, `${what}: ${r.cut} of ${r.nodes} boxes out of view, and no panner`);
  }
  return r;
}

test("call graph: opens fitted, or legible with the panner (serve, an -O2 -g C++ profile)", async () => {
  const s = await serve([cxx]);
  try {
    const list = await s.api("functions?filter=" + encodeURIComponent("^main$") + "&limit=1");
    const id = list.rows[0].id;
    const pg = await page(s.url + `#fn=${id}&tab=graph`, { viewport: { width: 1366, height: 768 } });
    const r = await graphFits(pg, "main's graph");
    await shot(pg, "callgraph");
    assert(r.cut === 0 || r.w > r.pane, `cut off, yet the drawing ${r.w} px in the ${r.pane} px pane`);
    noErrors(pg);
  } finally {
    s.stop();
  }
});

test("call graph: opens fitted, or legible with the panner, in the diff report too", async () => {
  const dir = mkdtempSync(join(tmpdir(), "calltree-page-"));
  try {
    const file = join(dir, "diff.html");
    // (cc1plus against itself: execute_one_pass's graph has 51 functions, 3,475 px wide)
    const cc1 = "vg-gxx-small-default.cc1plus.callgrind";
    execFileSync(calltree, ["report", "--html", cc1, cc1, "-o", file], { cwd: corpus, stdio: "ignore" });
    const pg = await page("file://" + file + "#tab=graph&filter=" + encodeURIComponent("^execute_one_pass"), { viewport: { width: 1366, height: 768 } });
    await waitRows(pg);
    await pg.click('.tbody .row[data-index="0"]');
    await graphFits(pg, "the diff report's graph");
    await shot(pg, "callgraph-diff");
    noErrors(pg);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- the list's numbers never cut ----------------------------------------------------------------
test("list: costs and percentages whole in their columns (the big cc1plus profile)", async () => {
  const s = await serve([big]);
  try {
    const pg = await page(s.url + "#by=inclusive", { viewport: { width: 1366, height: 768 } });
    await waitRows(pg);
    const cells = await pg.$$eval(".tbody .row .cell.incl, .tbody .row .cell.self", (els) =>
      els.map((e) => ({ text: e.textContent, cut: e.scrollWidth > e.clientWidth })),
    );
    assert(cells.length > 20, "cells shown");
    const cut = cells.filter((c) => c.cut);
    eq(cut.length, 0, "cells cut: " + cut.slice(0, 3).map((c) => c.text).join(" | "));
    for (const c of cells) assert(/%$/.test(c.text), "a cost with its percentage: " + c.text);
    const p = await s.api("profile");
    const first = (await pg.textContent('.tbody .row[data-index="0"] .cell.incl')).trim();
    const ev = p.events[0].name;
    assert(first.startsWith(fmt(p.totals[ev]).slice(0, 5)), `the top inclusive cost ${first}`);
    await shot(pg, "list");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

// --- serve DIR: no refused request; an opened Xdebug row gets its total -----------------------
test("folder: no request refused on load; an opened Xdebug profile's row shows its total", async () => {
  const dir = mkdtempSync(join(tmpdir(), "calltree-page-dir-"));
  const s = await (async () => {
    for (const n of readdirSync(corpus).filter((n) => /^xdebug-.*\.callgrind$/.test(n))) copyFileSync(join(corpus, n), join(dir, n));
    return serve([dir]);
  })();
  try {
    const pg = await page(s.url);
    await pg.waitForSelector('[data-testid="folder-row"]');
    await pg.waitForTimeout(1500); // (a poll)
    eq(pg.failed.join("; "), "", "requests refused");
    eq(pg.consoleErrors.join("; "), "", "console errors");
    const rowOf = (name) => pg.locator('[data-testid="folder-row"]', { has: pg.locator(`a:text-is("${name}")`) });
    // (before opening: unknown, or the sum of its self costs once the folder's thread read it
    // whole for the Trend view's index; after: the page's, the total the file states)
    const before = (await rowOf("xdebug-includes.callgrind").locator('[data-testid="folder-total"]').textContent()).trim();
    if (before !== "unknown" && !/^[\d,]+ Time_\(10ns\)$/.test(before)) throw new Error(`the total before opening: ${before}`);
    await shot(pg, "folder-before-open");
    await rowOf("xdebug-includes.callgrind").locator("a").click();
    await waitRows(pg);
    const shown = (await pg.textContent('[data-testid="total"]')).trim(); // "Total Time_(10ns): 1,649,336"
    await pg.click('[data-testid="folder-back"]');
    await pg.waitForSelector('[data-testid="folder-row"]');
    await pg.waitForFunction(() => ![...document.querySelectorAll('[data-testid="folder-row"]')].some((r) => r.textContent.includes("xdebug-includes") && r.textContent.includes("unknown")), null, { timeout: 5000 });
    await pg.waitForFunction((want) => [...document.querySelectorAll('[data-testid="folder-row"]')].some((r) => r.textContent.includes("xdebug-includes") && r.textContent.includes(want)), shown.match(/^Total \S+: ([\d,]+)/)[1], { timeout: 5000 });
    const total = (await rowOf("xdebug-includes.callgrind").locator('[data-testid="folder-total"]').textContent()).trim();
    const m = shown.match(/^Total (\S+): ([\d,]+)/); // (the stated total, before "(stated by the file; ...)")
    eq(total, `${m[2]} ${m[1]}`, "the row's total is the page's");
    eq((await rowOf("xdebug-includes.callgrind").locator('[data-testid="folder-parts"]').textContent()).trim(), "1", "its parts");
    // and the table sorts by it: the opened file ranks among the totals
    const rows = await s.api("folder?by=total&dir=desc");
    const row = rows.rows.find((r) => r.name === "xdebug-includes.callgrind");
    eq(row.read, "whole", "read");
    eq(row.total.from, "read", "from");
    eq(Number(row.total.value), Number(m[2].replace(/,/g, "")), "the sorted table's total is the page's");
    await shot(pg, "folder");
    eq(pg.failed.join("; "), "", "requests refused");
    noErrors(pg);
  } finally {
    s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- the cycle's members, relative to parent, the keys (the recursion example) ------------------
test("cycle members: a table with its column heads; relative to parent: of the cycle", async () => {
  const s = await serve([recurse], source);
  try {
    const list = await s.api("functions?filter=" + encodeURIComponent("^<cycle 1>$") + "&limit=1");
    const id = list.rows[0].id;
    const d = await s.api(`function/${id}`);
    const pg = await page(s.url + `#fn=${id}`);
    await pg.waitForSelector('[aria-label="Cycle members"] table');
    const heads = await pg.$$eval('[aria-label="Cycle members"] thead th', (els) => els.map((e) => e.textContent.trim()));
    eq(heads.join(" | "), "Incl. Ir | % | Member | Location", "the members' heads");
    const m = d.members[0];
    const cells = await pg.$$eval('[aria-label="Cycle members"] tbody tr:first-child td', (els) => els.map((e) => e.textContent.trim()));
    eq(cells[0], fmt(m.inclusive.Ir), "first member's cost");
    eq(cells[1], pct(m.inclusive.Ir, d.totals.Ir), "first member's share of the total");
    await shot(pg, "cycle-members");
    await pg.click('[data-testid="relative"]');
    await pg.waitForFunction(() => location.hash.includes("rel=1"));
    const rel = await pg.$$eval('[aria-label="Cycle members"] tbody tr:first-child td', (els) => els.map((e) => e.textContent.trim()));
    eq(rel[1], pct(m.inclusive.Ir, d.inclusive.Ir), "first member's share of the cycle");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

test("relative to parent: callers' and callees' shares of the function's inclusive cost", async () => {
  const s = await serve([recurse], source);
  try {
    const list = await s.api("functions?filter=" + encodeURIComponent("^main$") + "&limit=1");
    const id = list.rows[0].id;
    const d = await s.api(`function/${id}`);
    const c = d.callees[0];
    const pg = await page(s.url + `#fn=${id}`);
    await pg.waitForSelector('[aria-label="Callees"] tbody tr');
    const share = () => pg.textContent('[aria-label="Callees"] tbody tr:first-child [data-testid="call-share"]');
    eq(await share(), pct(c.cost.Ir, d.totals.Ir), "of the total");
    await pg.keyboard.press("r");
    await pg.waitForFunction(() => location.hash.includes("rel=1"));
    eq(await share(), pct(c.cost.Ir, d.inclusive.Ir), "of main's inclusive cost");
    eq((await pg.textContent('[aria-label="Callees"] thead th:nth-child(2)')).trim(), "% of it", "the head says so");
    await shot(pg, "relative");
    // restored from the URL
    const p2 = await page(s.url + `#fn=${id}&rel=1`);
    await p2.waitForSelector('[aria-label="Callees"] tbody tr');
    eq(await p2.textContent('[aria-label="Callees"] tbody tr:first-child [data-testid="call-share"]'), pct(c.cost.Ir, d.inclusive.Ir), "from the URL");
    assert(await p2.isChecked('[data-testid="relative"]'), "the switch on");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

test("keys: tabs by number and in turn, into the callers list and back, the help", async () => {
  const s = await serve([recurse], source);
  try {
    const list = await s.api("functions?filter=" + encodeURIComponent("^fib$") + "&limit=1");
    const id = list.rows[0].id;
    const d = await s.api(`function/${id}`);
    const pg = await page(s.url + `#fn=${id}`);
    await pg.waitForSelector('[aria-label="Callers"] tbody tr');
    const active = () => pg.textContent(".tabs button.active");
    await pg.keyboard.press("2");
    await pg.waitForFunction(() => document.querySelector(".tabs button.active")?.textContent === "Source");
    await pg.keyboard.press("]");
    eq(await active(), "Machine code", "] the next tab");
    await pg.keyboard.press("[");
    await pg.keyboard.press("[");
    eq(await active(), "Callers / callees", "[ the previous tab");
    // c: the first caller has the focus; ↓ the second; Enter selects it.
    await pg.keyboard.press("4");
    eq(await active(), "Call graph", "4");
    await pg.keyboard.press("c");
    await pg.waitForFunction(() => document.activeElement?.closest?.('[aria-label="Callers"]') !== null && document.activeElement?.tagName === "TR");
    eq(await active(), "Callers / callees", "c opens the callers");
    const want = d.callers.length > 1 ? d.callers[1] : d.callers[0];
    if (d.callers.length > 1) await pg.keyboard.press("ArrowDown");
    eq(await pg.evaluate(() => document.activeElement.querySelector("a.fn").textContent), want.name + (want.cycle ? `<cycle ${want.cycle}>` : ""), "the focused caller");
    await shot(pg, "keys");
    await pg.keyboard.press("Enter");
    await pg.waitForFunction((w) => location.hash.includes("fn=" + w), want.id);
    await pg.waitForFunction(() => document.activeElement?.tagName === "TR" && document.activeElement.closest('[aria-label="Callers"]'));
    // l: back to the function list, whose arrows move the selection again
    await pg.keyboard.press("l");
    eq(await pg.evaluate(() => document.activeElement?.classList.contains("tbody")), true, "l: the list has the focus");
    await pg.keyboard.press("?");
    await pg.waitForSelector('[data-testid="help"]');
    const help = await pg.textContent('[data-testid="help"]');
    for (const k of ["1 … 9, 0", "[  ]", "into the callers list", "relative to parent"]) assert(help.includes(k), "the help names " + k);
    await shot(pg, "help");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

// --- Source of an inlined function: its costliest file, costs on the buttons, in the URL --------
test("source: an inlined function opens on its costliest file; costs on the file buttons; the file in the URL", async () => {
  const s = await serve([cxx]);
  try {
    // A function whose own file holds less of its self cost than a file inlined into it.
    const list = await s.api("functions?by=self&limit=300");
    let fn = null;
    for (const r of list.rows) {
      if (r.kind !== "function") continue;
      const d = await s.api(`function/${r.id}`);
      const src = d.source;
      if (!src || !src.inlined.length) continue;
      const own = Number(src.self.Ir);
      const best = src.inlined.reduce((a, b) => (Number(b.self.Ir) > Number(a.self.Ir) ? b : a));
      if (Number(best.self.Ir) > own) {
        fn = { d, best, own };
        break;
      }
    }
    assert(fn, "a function whose inlined file costs more than its own");
    const { d, best } = fn;
    // the files' costs are its self cost
    const sum = [d.source.self, ...d.source.inlined.map((x) => x.self)].reduce((a, c) => a + Number(c.Ir), 0);
    eq(sum, Number(d.self.Ir), "its files' costs sum to its self cost");
    const pg = await page(s.url + `#fn=${d.id}&tab=source`);
    await pg.waitForSelector('[data-testid="source-files"]');
    await pg.waitForSelector('[data-testid="source-name"]');
    const pressed = pg.locator('[data-testid="source-file"][aria-pressed="true"]');
    assert((await pressed.textContent()).startsWith(best.file.split("/").pop()), "opens on the costliest: " + (await pressed.textContent()));
    eq(await pg.textContent('[data-testid="source-name"]'), best.file, "the file shown");
    const costs = await pg.$$eval('[data-testid="source-file-cost"]', (els) => els.map((e) => e.textContent));
    eq(costs.length, 1 + d.source.inlined.length, "a cost on every file button");
    eq(costs[0], ` · ${fmt(d.source.self.Ir)} ${pct(d.source.self.Ir, sum)}`, "its own file's cost");
    await shot(pg, "source-inlined");
    // another file: in the URL, and restored from it
    await pg.locator('[data-testid="source-file"]').first().click();
    await pg.waitForFunction((f) => location.hash.includes("file=" + f), d.source.file_id);
    await pg.waitForFunction((f) => document.querySelector('[data-testid="source-name"]')?.textContent === f, d.file);
    const url = await pg.evaluate(() => location.href);
    const p2 = await page(url);
    await p2.waitForSelector('[data-testid="source-name"]');
    await p2.waitForFunction((f) => document.querySelector('[data-testid="source-name"]')?.textContent === f, d.file);
    assert((await p2.locator('[data-testid="source-file"][aria-pressed="true"]').textContent()).includes("(its own)"), "restored: its own file");
    noErrors(pg);
    noErrors(p2);
  } finally {
    s.stop();
  }
});

// --- two panes (issue 61): any two views side by side, both of the selected function ------------
const pane = (n) => `.pane[data-pane="${n}"]`;
/** The call graph the page asks for (its default depths and call threshold). */
const pageGraph = (s, id) => s.api(`graph/${id}?up=2&down=2&min=0.005&sort=Ir&parts=all`);

/** The file the Source view opens a function on (its costliest), that span and its answer. */
async function sourceOf(s, d) {
  const spans = [{ file_id: d.source.file_id, first_line: d.source.first_line, last_line: d.source.last_line, self: d.source.self }, ...d.source.inlined];
  let span = spans[0];
  for (const sp of spans) if (Number(sp.self?.Ir ?? 0) > Number(span.self?.Ir ?? 0)) span = sp;
  return { span, src: await s.api(`source/${span.file_id}?function=${d.id}&sort=Ir`) };
}

/** Waits until the left pane's call graph is centred on `d` and the right pane's source shows
 * `d`'s lines, then checks their numbers: the box's shares, every line's cost. */
async function panesShow(pg, s, d) {
  const g = await pageGraph(s, d.id);
  await pg.waitForFunction(
    ([sel, id, n]) => {
      const svg = document.querySelector(sel + " .graph svg");
      return svg?.querySelector(`g.node#n${id} [stroke="#7a2bbf"]`) && svg.querySelectorAll("g.node").length === n;
    },
    [pane(1), d.id, g.nodes.length],
    { timeout: 30000 },
  );
  const label = await pg.$eval(`${pane(1)} .graph svg g.node#n${d.id}`, (e) => [...e.querySelectorAll("text")].map((t) => t.textContent));
  eq(label[label.length - 1], `${pct(d.inclusive.Ir, d.totals.Ir)} incl. · ${pct(d.self.Ir, d.totals.Ir)} self`, `the graph's box of ${d.name}`);
  const { span, src } = await sourceOf(s, d);
  await pg.waitForSelector(`${pane(2)} .srcline.infn[data-line="${span.first_line}"]`, { timeout: 20000 });
  eq(await pg.textContent(`${pane(2)} [data-testid="source-name"]`), src.name, "the source's file");
  const shown = await pg.$$eval(`${pane(2)} .srcline.infn`, (els) => els.map((e) => [Number(e.dataset.line), e.children[1].textContent]));
  eq(Math.min(...shown.map(([n]) => n)), span.first_line, "the function's first line");
  assert(Math.max(...shown.map(([n]) => n)) <= span.last_line, "no line past its last");
  let costly = 0;
  for (const [n, cost] of shown) {
    const l = src.lines.find((x) => x.line === n);
    eq(cost, l ? fmt(l.self.Ir) : "", `${d.name}: the cost of line ${n}`);
    if (l && Number(l.self.Ir)) costly++;
  }
  assert(costly > 0, `${d.name}: a line with a cost in view`);
  eq(await pg.textContent('[data-testid="selected-incl"]'), fmt(d.inclusive.Ir), "the header's inclusive cost");
}

test("panes: the split shows two views of the selected function, follows another, in the URL; one when narrow", async () => {
  const s = await serve([cxx]);
  try {
    // A function with source, between 5% and 90% of the total, calling one with source too.
    let d = null, callee = null;
    for (const r of (await s.api("functions?by=inclusive&limit=40")).rows) {
      if (r.kind !== "function") continue;
      const f = await s.api(`function/${r.id}`);
      const share = Number(f.inclusive.Ir) / Number(f.totals.Ir);
      if (!f.source || share < 0.05 || share > 0.9) continue;
      const g = await pageGraph(s, f.id);
      for (const n of g.nodes.filter((n) => n.depth === 1 && n.kind === "function")) {
        const c = await s.api(`function/${n.id}`);
        if (c.source && c.source.first_line > 0) {
          callee = c;
          break;
        }
      }
      if (callee) {
        d = f;
        break;
      }
    }
    assert(d && callee, "a function with source calling one with source");
    const pg = await page(s.url + `#fn=${d.id}&tab=graph`);
    await pg.waitForSelector(`${pane(1)} .graph svg g.node`, { timeout: 30000 });
    eq(await pg.$$eval(".pane", (els) => els.length), 1, "one pane as the page opens");
    await pg.click('[data-testid="split"]');
    await pg.waitForSelector(pane(2));
    assert((await pg.evaluate(() => location.hash)).includes("tab2=source"), "the second pane's tab in the URL");
    eq(await pg.textContent(`${pane(2)} [role="tab"][aria-selected="true"]`), "Source", "beside the call graph: the source");
    await panesShow(pg, s, d);
    await shot(pg, "panes");
    // Another function, a click on its box in the graph: both panes follow.
    // (an event on the box itself: the panner may lie over it)
    await pg.dispatchEvent(`${pane(1)} .graph svg g.node#n${callee.id}`, "click");
    await pg.waitForFunction((id) => location.hash.includes("fn=" + id), callee.id);
    await panesShow(pg, s, callee);
    // The divider by the keys: 5% a step, in the URL.
    await pg.focus('[data-testid="pane-divider"]');
    await pg.keyboard.press("ArrowRight");
    await pg.keyboard.press("ArrowRight");
    await pg.waitForFunction(() => location.hash.includes("split=60"));
    eq(await pg.getAttribute('[data-testid="pane-divider"]', "aria-valuenow"), "60", "the divider's value");
    // The URL opens the same two panes, the same widths.
    const url = await pg.evaluate(() => location.href);
    const p2 = await page(url);
    await panesShow(p2, s, callee);
    const [w1, w2] = await p2.$$eval(".pane", (els) => els.map((e) => e.getBoundingClientRect().width));
    assert(Math.abs(w1 / (w1 + w2) - 0.6) < 0.01, `the left pane 60% of the two: ${w1} and ${w2}`);
    // A narrow window: one pane (the first), and it says why; wider again, both.
    await p2.setViewportSize({ width: 900, height: 800 });
    await p2.waitForFunction(() => document.querySelectorAll(".pane").length === 1);
    eq(await p2.textContent(`${pane(1)} [role="tab"][aria-selected="true"]`), "Call graph", "the first pane's view");
    await p2.waitForSelector(`${pane(1)} .graph svg g.node#n${callee.id}`);
    assert(await p2.isVisible('[data-testid="panes-narrow"]'), "the page says the window is too narrow for two");
    await shot(p2, "panes-narrow");
    await p2.setViewportSize({ width: 1500, height: 900 });
    await panesShow(p2, s, callee);
    for (const q of [pg, p2]) noErrors(q);
  } finally {
    s.stop();
  }
});

test("keys: Tab stops once on a row of tabs, the arrows move along it; the divider and the second pane", async () => {
  const s = await serve([cxx]);
  try {
    const main = (await s.api("functions?filter=" + encodeURIComponent("^main$") + "&limit=1")).rows[0];
    const d = await s.api(`function/${main.id}`);
    const pg = await page(s.url + `#fn=${main.id}&tab=calls&tab2=source`);
    await pg.waitForSelector(`${pane(1)} [aria-label="Callers"] tbody tr`);
    await pg.waitForSelector(`${pane(2)} .srcline`);
    // Each row of tabs: one stop of the Tab key, the shown tab.
    const stops = await pg.$$eval('[role="tablist"]', (ls) => ls.map((l) => [...l.querySelectorAll('[role="tab"]')].filter((b) => b.tabIndex === 0).map((b) => b.textContent)));
    eq(JSON.stringify(stops), JSON.stringify([["Callers / callees"], ["Source"]]), "the Tab key's stops on the rows of tabs");
    const tabs = await pg.$$eval(`${pane(1)} [role="tab"]`, (els) => els.map((e) => e.textContent));
    assert(tabs.length >= 11, "the tabs: " + tabs.join(", "));
    // What has the focus: a tab's or a panel's id, a row's pane and table, or its test id.
    const focused = () =>
      pg.evaluate(() => {
        const e = document.activeElement;
        if (e.id) return e.id;
        if (e.tagName === "TR") return `row:${e.closest(".pane").dataset.pane}:${e.closest(".calltable").getAttribute("aria-label")}`;
        return e.dataset.testid ?? e.getAttribute("aria-label") ?? e.tagName;
      });
    const tabUntil = async (want, most) => {
      const seen = [];
      for (let i = 0; i < most; i++) {
        await pg.keyboard.press("Tab");
        seen.push(await focused());
        if (seen[seen.length - 1] === want) return seen;
      }
      throw new Error(`Tab never reached ${want}: ${seen.join(" → ")}`);
    };
    // From the function list: the first pane's row of tabs, on its shown tab.
    await pg.focus(".tbody");
    const toTabs = await tabUntil("tab-1-calls", 4);
    assert(!toTabs.slice(0, -1).some((f) => f.startsWith("tab-")), "no other tab on the way: " + toTabs.join(" → "));
    eq(toTabs[0], "list-splitter", "Tab from the list: the bar beside it");
    // The bar: → widens the list by 32 px, ← narrows it, Enter gives back its default width.
    const listWidth = () => pg.evaluate(() => Math.round(document.querySelector("section.list").getBoundingClientRect().width));
    const w0 = await listWidth();
    await pg.focus('[data-testid="list-splitter"]');
    await pg.keyboard.press("ArrowRight");
    eq(await listWidth(), w0 + 32, "→ on the bar: the list 32 px wider");
    await pg.keyboard.press("ArrowLeft");
    await pg.keyboard.press("ArrowLeft");
    eq(await listWidth(), w0 - 32, "← ← : 32 px narrower than it was");
    eq(await pg.getAttribute('[data-testid="list-splitter"]', "aria-valuetext"), `the list ${w0 - 32} px wide`, "the bar says its width");
    await pg.keyboard.press("Enter");
    eq(await listWidth(), w0, "Enter: the default width");
    eq(await pg.evaluate(() => localStorage.getItem("calltree.list-width")), null, "and nothing kept for the next page");
    await pg.focus("#tab-1-calls");
    // ← → Home End move along it, each shows its tab.
    // (the URL's tab=: the first tab, the default, is left out of it)
    const at = async (key, want, tab) => {
      await pg.keyboard.press(key);
      eq(await focused(), want, key);
      await pg.waitForFunction((t) => new URLSearchParams(location.hash.slice(1)).get("tab") === t, tab);
      eq(await pg.getAttribute("#" + want, "aria-selected"), "true", key + ": shown");
    };
    await at("ArrowRight", "tab-1-source", "source");
    await at("End", "tab-1-allcallees", "allcallees");
    await at("ArrowRight", "tab-1-calls", null); // (round to the first)
    await at("ArrowLeft", "tab-1-allcallees", "allcallees");
    await at("Home", "tab-1-calls", null);
    // Tab leaves the row: the split button, the view, its callers and callees, then the divider.
    const toDivider = await tabUntil("pane-divider", 8);
    eq(toDivider.slice(0, 4).join(" "), "split panel-1 row:1:Callers row:1:Callees", "Tab through the first pane");
    assert(!toDivider.some((f) => f.startsWith("tab-")), "no tab on the way: " + toDivider.join(" → "));
    await pg.keyboard.press("ArrowLeft");
    await pg.waitForFunction(() => location.hash.includes("split=45"));
    await pg.keyboard.press("Home");
    await pg.waitForFunction(() => location.hash.includes("split=20"));
    await pg.keyboard.press("Enter");
    await pg.waitForFunction(() => !location.hash.includes("split="));
    // Then the second pane's row of tabs; its arrows show its tabs, the number keys too.
    await pg.keyboard.press("Tab");
    eq(await focused(), "tab-2-source", "Tab: the second pane's tabs");
    await pg.keyboard.press("ArrowRight");
    eq(await focused(), "tab-2-asm", "→ in the second pane");
    await pg.waitForFunction(() => location.hash.includes("tab2=asm"));
    eq(await pg.getAttribute("#tab-1-calls", "aria-selected"), "true", "the first pane kept its tab");
    await pg.keyboard.press("4");
    await pg.waitForFunction(() => location.hash.includes("tab2=graph"));
    await pg.waitForSelector(`${pane(2)} .graph svg g.node`, { timeout: 30000 });
    eq(await pg.getAttribute("#tab-1-calls", "aria-selected"), "true", "4 in the second pane: its tab");
    // c: into the callers of the pane that shows them.
    await pg.keyboard.press("c");
    eq(await focused(), "row:1:Callers", "c: the first pane's callers");
    eq(await pg.evaluate(() => document.activeElement.querySelector("a.fn").textContent), d.callers[0].name, "the first caller");
    // Shift+Tab walks back the same stops.
    await pg.focus("#tab-2-graph");
    await pg.keyboard.press("Shift+Tab");
    eq(await focused(), "pane-divider", "Shift+Tab: the divider");
    await shot(pg, "panes-keys");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

// (A test serves, then waits for the list, a minute each at the most: two minutes a test.)
await run({ limitMs: 120000 });
