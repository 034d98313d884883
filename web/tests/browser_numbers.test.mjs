// browser_numbers.test.mjs — the page's numbers a KCachegrind user found wrong in Chromium
// (issue 57), each checked by what the page SHOWS, in Debian's chromium (headless,
// playwright-core), against the real `calltree serve` on corpus files:
// - a share that is not the whole never reads 100.0% (99.99%, as annotate prints it);
// - with a part chosen, the header's Total is that part's, the figure every % is of;
// - a thread run's flame graph with one root per thread (issue 61): each root its part's total,
//   and with a part chosen every frame's share of that part's total; also on a run valgrind
//   makes in the test (the corpus's pthread program, --separate-threads=yes: a file a thread);
// - the diagnostics bar: red for errors only, amber for warnings, neutral for notes alone;
// - a stated total that the self costs do not sum to is reported once (Xdebug's Memory);
// - a folder's row has one total, the same before and after its file is opened;
// - a sampling profiler's call counts are titled Samples, not Calls (issue 59).
// Screenshots go to --out as numbers-NAME.png.
//
//   node web/tests/browser_numbers.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --corpus tests/corpus --out build/web/screenshots [--only NAME]
import { execFileSync } from "node:child_process";
import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, calltreeJson, corpus, eq, fmt, page, run, serve as startServe, shot as harnessShot, test, totalShown, waitRows as waitFirstRow } from "./harness.mjs";

const serve = (args, opts = {}) => startServe(args, { cwd: corpus, waitMs: 60000, ...opts });
const shot = (pg, name) => harnessShot(pg, "numbers-" + name);
const waitRows = (pg) => waitFirstRow(pg, 60000);
const noErrors = (pg) => eq(pg.errors.join("; "), "", "page errors");
/** The share text the page must show: one decimal from 10 % (two below), more while a share
 * that is not the whole would read 100 (as annotate's 99.99). */
const share = (part, total) => {
  const p = (100 * Number(part)) / Number(total);
  let s = p >= 10 ? p.toFixed(1) : p.toFixed(2);
  for (let d = 2; Number(s) === 100 && String(part) !== String(total) && d <= 6; d++) s = p.toFixed(d);
  return s + "%";
};

// --- 100.0% ------------------------------------------------------------------------------------
test("a share that is not the whole never reads 100.0%", async () => {
  // The functions whose inclusive cost is within 0.05 % of the total but below it (main and
  // its callers: the program's start outside them), of callgrind profiles of the corpus.
  let found = null;
  // (main of the recursion example: 362,733,729 of 362,861,224, 99.96 %)
  for (const f of ["vg-recurse-default.callgrind", "vg-gxx-small-default.cc1plus.callgrind"]) {
    const A = calltreeJson(["annotate", "--json", join(corpus, f)]);
    const e = A.events[0];
    const t = Number(A.totals[e]);
    const near = A.functions.filter((fn) => Number(fn.inclusive[e]) < t && 100 * Number(fn.inclusive[e]) >= 99.95 * t);
    if (near.length) {
      found = { file: f, e, total: A.totals[e], fn: near.find((fn) => fn.name === "main") ?? near[0] };
      break;
    }
  }
  assert(found, "a corpus profile with a function of 99.95 % to 100 % of the total");
  const s = await serve([join(corpus, found.file)]);
  try {
    const pg = await page(s.url + `#by=inclusive&filter=${encodeURIComponent("^" + found.fn.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$")}`);
    await waitRows(pg);
    const cell = (await pg.textContent('.tbody .row[data-index="0"] .cell.incl')).trim();
    const want = share(found.fn.inclusive[found.e], found.total);
    assert(want !== "100.0%", "the expected share: " + want);
    eq(cell, `${fmt(found.fn.inclusive[found.e])}  ${want}`, `${found.fn.name}'s inclusive cost, ${found.file}`);
    assert(!cell.includes("100.0%"), "no 100.0% of a part that is not the whole: " + cell);
    await shot(pg, "share");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

// --- a part chosen ------------------------------------------------------------------------------
test("with a part chosen, the header's Total is the part's (every % of it), the program's beside it", async () => {
  const file = join(corpus, "vg-threads-separate-combined.callgrind");
  const A = calltreeJson(["annotate", "--json", file]);
  const P = calltreeJson(["annotate", "--json", "--part=2", file]);
  const e = A.events[0];
  assert(Number(P.totals[e]) < Number(A.totals[e]), "part 2 is less than the program");
  const s = await serve([file]);
  try {
    const pg = await page(s.url + "#parts=2");
    await waitRows(pg);
    const total = await totalShown(pg);
    eq(total, `Total ${e} of part 2 (thread 2): ${fmt(P.totals[e])} (program: ${fmt(A.totals[e])})`, "the header's total");
    eq((await pg.textContent('[data-testid="part-total"]')).trim(), fmt(P.totals[e]), "the part's total");
    // The first row's self share is of the part's total.
    const [cost, pc] = (await pg.textContent('.tbody .row[data-index="0"] .cell.self')).trim().split(/\s+/);
    eq(pc, share(cost.replace(/,/g, ""), P.totals[e]), "the first row's share, of part 2's total");
    await shot(pg, "part-total");
    // All parts: the program's total alone.
    const all = await page(s.url);
    await waitRows(all);
    eq(await totalShown(all), `Total ${e}: ${fmt(A.totals[e])}`, "the program's total");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

// --- one root per thread ----------------------------------------------------------------------
test("a thread run: one flame root per thread, each its part's total; shares follow the part", async () => {
  const file = join(corpus, "vg-threads-separate-combined.callgrind");
  const A = calltreeJson(["annotate", "--json", file]);
  const e = A.events[0];
  const P = [1, 2, 3, 4, 5].map((n) => calltreeJson(["annotate", "--json", `--part=${n}`, file]));
  const s = await serve([file]);
  try {
    // The API: a root frame per part (id -1), its total the part's, the roots summing to the whole.
    const parts = (await s.api("profile")).inputs[0].parts;
    eq(parts.length, 5, "five parts");
    const fl = await s.api("flame?by_thread=1");
    eq(fl.by_thread, true, "by_thread");
    eq(fl.threads.map((t) => t.name).join(","), "thread 1,thread 2,thread 3,thread 4,thread 5", "the threads' names");
    const roots = [];
    for (let i = 0; i < fl.frames.count; i++) if (fl.frames.parent[i] === -1) roots.push(i);
    eq(roots.join(","), fl.threads.map((t) => t.frame).join(","), "the roots are the threads' frames, in order");
    let sum = 0n;
    fl.threads.forEach((t, i) => {
      eq(fl.frames.id[t.frame], -1, `${t.name}: no function`);
      eq(String(fl.frames.total[e][t.frame]), String(P[i].totals[e]), `${t.name}'s total, annotate --part=${i + 1}`);
      eq(String(t.totals[e]), String(parts[i].totals[e]), `${t.name}: the Parts table's total`);
      sum += BigInt(fl.frames.total[e][t.frame]);
    });
    eq(String(sum), String(A.totals[e]), "the thread roots sum to the whole total");
    // A child of a thread is a frame of that part alone: no frame under thread 1 is above it.
    for (let i = 0; i < fl.frames.count; i++) {
      const p = fl.frames.parent[i];
      if (p >= 0 && fl.frames.id[p] === -1) assert(BigInt(fl.frames.total[e][i]) <= BigInt(fl.frames.total[e][p]), "a child within its thread");
    }
    // Without the parameter (or with by_thread=0) the answer is today's, byte for byte.
    const text = async (q) => (await fetch(s.url.replace(/\/\?token=.*/, "") + "/api/v1/flame" + q, { headers: { Authorization: "Bearer " + s.url.replace(/.*token=/, "") } })).text();
    const plain = await text("");
    eq(await text("?by_thread=0"), plain, "by_thread=0 is the default answer");
    assert(!plain.includes('"threads"'), "no threads without by_thread");

    // The page: the check box puts by_thread=1 in the URL and a frame per thread on the graph.
    const pg = await page(s.url + "#tab=flame");
    await pg.waitForSelector('[data-testid="by-thread"]');
    eq(await pg.$(".frame.thread"), null, "no thread frames before the check box");
    await pg.click('[data-testid="by-thread"]');
    await pg.waitForSelector(".frame.thread");
    assert((await pg.evaluate(() => location.hash)).includes("by_thread=1"), "by_thread=1 in the URL");
    const shown = await pg.$$eval(".frame.thread", (els) => els.map((el) => ({ name: el.textContent, part: el.dataset.thread, title: el.title, width: parseFloat(el.style.width) })));
    eq(shown.map((t) => t.name).join(","), "thread 1,thread 2,thread 3,thread 4,thread 5", "the thread frames on the page");
    shown.forEach((t, i) => {
      eq(t.part, String(i + 1), `${t.name}'s part`);
      assert(t.title.includes(`${fmt(P[i].totals[e])} ${e} (${share(P[i].totals[e], A.totals[e])} of the total)`), `${t.name}'s tooltip: ${t.title}`);
      assert(Math.abs(t.width - (100 * Number(P[i].totals[e])) / Number(A.totals[e])) < 1e-4, `${t.name}'s width ${t.width}%`);
    });
    assert(Math.abs(shown.reduce((a, t) => a + t.width, 0) - 100) < 1e-3, "the threads fill the graph");
    eq(await totalShown(pg), `Total ${e}: ${fmt(A.totals[e])}`, "all parts: the program's total");
    await shot(pg, "flame-threads");

    // Thread 2 chosen (a click zooms into its frame, "Show thread 2 alone" chooses its part): its
    // one thread's frame, the header's Total of it, every share of it.
    await pg.click('.frame.thread[data-thread="2"]');
    await pg.click('[data-testid="thread-alone"]');
    eq(await pg.$eval('select[aria-label="Parts"]', (el) => el.value), "2", "the Part menu shows part 2");
    await pg.waitForFunction(() => document.querySelectorAll(".frame.thread").length === 1 && document.querySelector(".frame.thread").textContent === "thread 2");
    eq(await totalShown(pg), `Total ${e} of part 2 (thread 2): ${fmt(P[1].totals[e])} (program: ${fmt(A.totals[e])})`, "the header's total, of thread 2");
    await shot(pg, "flame-thread-2");
    const th = await pg.getAttribute(".frame.thread", "title");
    assert(th.includes(`${fmt(P[1].totals[e])} ${e} (100.0% of the total)`), "thread 2 is the whole of part 2: " + th);
    const tips = await pg.$$eval(".frame[data-fn]", (els) => els.map((el) => el.title));
    assert(tips.length > 10, "frames of part 2: " + tips.length);
    for (const tip of tips) {
      const m = tip.match(/\n([\d,]+) \S+ \(([\d.]+%) of the total\)/);
      assert(m, "a frame's tooltip: " + tip);
      eq(m[2], share(m[1].replace(/,/g, ""), P[1].totals[e]), "a frame's share of part 2's total: " + tip.split("\n")[0]);
    }
    // The function of part 2's heaviest frame: its Incl. share in the header is of part 2's.
    const first = await pg.$$eval(".frame[data-fn]", (els) => els.sort((a, b) => parseFloat(b.style.width) - parseFloat(a.style.width))[0].dataset.fn);
    await pg.click(`.frame[data-fn="${first}"] >> nth=0`);
    await pg.waitForSelector('[data-testid="selected-incl"]');
    const fig = (await pg.textContent('[data-testid="selected-incl"] >> xpath=..')).trim();
    const m = fig.match(/([\d,]+) ([\d.]+%)$/);
    assert(m, "the selected function's figures: " + fig);
    eq(m[2], share(m[1].replace(/,/g, ""), P[1].totals[e]), "the selected function's share, of part 2's total");
    // The Source tab with part 2 chosen: part 2's own lines (read again for it), each line's
    // share of part 2's total (sort_work runs in threads 2 and 4); every line's costs in the
    // parts alone sum to its cost in all of them. Parts 2 and 4 together: the lines of every
    // part, shares of the program's total, and the head says so.
    const sortWork = (await s.api("functions?filter=%5Esort_work%24&limit=1")).rows[0];
    const src = (parts) => s.api(`source/${sortWork.file_id}?function=${sortWork.id}${parts ? "&parts=" + parts : ""}`);
    const all = await src(null);
    eq(all.part, undefined, "all parts: no part named");
    const byLine = new Map(all.lines.map((l) => [l.line, BigInt(l.self[e])]));
    const sums = new Map();
    for (let i = 1; i <= P.length; i++) {
      const one = await src(String(i));
      eq(one.part, i, `part ${i}'s lines`);
      for (const l of one.lines) sums.set(l.line, (sums.get(l.line) ?? 0n) + BigInt(l.self[e]));
    }
    for (const [line, c] of byLine) eq(sums.get(line) ?? 0n, c, `line ${line}: the parts' costs sum to all's`);
    const part2 = await src("2");
    assert(part2.lines.some((l) => BigInt(l.self[e]) !== byLine.get(l.line)), "part 2's lines are not every part's");
    await pg.evaluate((id) => (location.hash = `#parts=2&tab=source&fn=${id}`), sortWork.id);
    await pg.waitForSelector('[data-testid="source-one-part"]');
    await pg.waitForSelector(".srcline .num:not(:empty)");
    const lines = await pg.$$eval(".srcline", (els) => els.map((el) => [...el.querySelectorAll(".num")].map((n) => n.textContent)).filter((c) => c[0]));
    assert(lines.length > 0, "lines with costs");
    const part2Costs = new Set(part2.lines.map((l) => String(l.self[e])));
    for (const [c] of lines) assert(part2Costs.has(c.replace(/,/g, "")), `a line's cost ${c} is part 2's`);
    for (const [c, pc] of lines) eq(pc, share(c.replace(/,/g, ""), P[1].totals[e]), `a line's share (${c}), of part 2's total`);
    await shot(pg, "thread-source");
    await pg.evaluate((id) => (location.hash = `#parts=2,4&tab=source&fn=${id}`), sortWork.id);
    await pg.waitForSelector('[data-testid="source-all-parts"]');
    await pg.waitForSelector(".srcline .num:not(:empty)");
    const summed = await pg.$$eval(".srcline", (els) => els.map((el) => [...el.querySelectorAll(".num")].map((n) => n.textContent)).filter((c) => c[0]));
    for (const [c, pc] of summed) eq(pc, share(c.replace(/,/g, ""), A.totals[e]), `parts 2 and 4: a line's share (${c}), of the program's total`);
    await shot(pg, "thread-source-two-parts");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

test("a thread run valgrind makes here: one icicle root per thread file, each that file's total", async () => {
  const dir = mkdtempSync(join(tmpdir(), "calltree-threads-"));
  try {
    // src/c/threads.c: main and four pthreads; callgrind writes one file per thread (cg.out-01..05).
    execFileSync("gcc", ["-O2", "-g", "-pthread", "-o", join(dir, "threads"), join(corpus, "src/c/threads.c")]);
    execFileSync("valgrind", ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${join(dir, "cg.out")}`, join(dir, "threads")], { cwd: dir, stdio: "ignore" });
    const files = readdirSync(dir).filter((f) => /^cg\.out-\d+$/.test(f)).sort().map((f) => join(dir, f));
    eq(files.length, 5, "a file per thread: " + files.join(" "));
    const T = files.map((f) => calltreeJson(["annotate", "--json", f]));
    const e = T[0].events[0];
    const s = await serve(["--parts", ...files]);
    try {
      const fl = await s.api("flame?by_thread=1");
      eq(fl.threads.map((t) => t.name).join(","), "thread 1,thread 2,thread 3,thread 4,thread 5", "the threads, by the files' thread: lines");
      let sum = 0n;
      fl.threads.forEach((t, i) => {
        eq(String(fl.frames.total[e][t.frame]), String(T[i].totals[e]), `${t.name}: annotate's total of ${files[i]}`);
        sum += BigInt(T[i].totals[e]);
      });
      eq(String(sum), String(fl.totals[e]), "the threads' files sum to the run's total");
      // The icicle: the thread frames on top, as wide as their files' totals.
      const pg = await page(s.url + "#tab=icicle&by_thread=1");
      await pg.waitForSelector(".frame.thread");
      const shown = await pg.$$eval(".frame.thread", (els) => els.map((el) => ({ name: el.textContent, title: el.title, top: el.style.top })));
      eq(shown.map((t) => t.name).join(","), "thread 1,thread 2,thread 3,thread 4,thread 5", "the icicle's thread frames");
      shown.forEach((t, i) => {
        eq(t.top, "0px", `${t.name} at the top`);
        assert(t.title.includes(`${fmt(T[i].totals[e])} ${e} (${share(T[i].totals[e], fl.totals[e])} of the total)`), `${t.name}'s tooltip: ${t.title}`);
      });
      await shot(pg, "icicle-threads-valgrind");
      noErrors(pg);
    } finally {
      s.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- the diagnostics bar ---------------------------------------------------------------------------
const bar = async (pg) => {
  await pg.waitForSelector('[data-testid="diag-summary"]');
  return pg.$eval("details.diagnostics", (d) => ({ worst: d.dataset.worst, bg: getComputedStyle(d).backgroundColor, open: d.open, summary: d.querySelector("summary").textContent }));
};
const errBg = "rgb(253, 236, 234)";

test("the diagnostics bar: neutral for notes alone, amber for warnings, red for errors", async () => {
  // A file with notes and no warning (Go's pprof: 174 zero-call-count notes), one with
  // warnings and no error (Xdebug's: the stated totals), one with an error (below).
  const notes = join(corpus, "go-pprof-gowork-cpu.callgrind");
  const cases = [
    [notes, "note", (b) => b.bg !== errBg && !b.open, "0 errors, 0 warnings, 174 notes"],
    [join(corpus, "xdebug-classes.callgrind"), "warning", (b) => b.bg !== errBg && b.open, "0 errors, "],
  ];
  for (const [file, worst, ok, text] of cases) {
    const s = await serve([file]);
    try {
      if (worst === "note") {
        const p = await s.api("profile");
        const d = p.inputs[0].diagnostics;
        assert(d.errors === 0 && d.warnings === 0 && d.notes > 0 && !p.inputs[0].warnings.length && !p.event_warnings.length, "notes alone: " + JSON.stringify([d.errors, d.warnings, d.notes, p.inputs[0].warnings]));
      }
      const pg = await page(s.url);
      await waitRows(pg);
      const b = await bar(pg);
      eq(b.worst, worst, `${file}: the bar's worst`);
      assert(ok(b) && b.summary.includes(text), `${file}: the bar ${JSON.stringify(b)}`);
      await shot(pg, "diagnostics-" + worst);
      noErrors(pg);
    } finally {
      s.stop();
    }
  }
  // (an error: red, as before; a profile with a bad cost line appended, which still opens)
  const dir = mkdtempSync(join(tmpdir(), "calltree-numbers-"));
  try {
    const bad = join(dir, "bad.callgrind");
    copyFileSync(join(corpus, "vg-recurse-default.callgrind"), bad);
    appendFileSync(bad, "fn=late\n1 x\n");
    const s = await serve([bad]);
    try {
      const pg = await page(s.url);
      await waitRows(pg);
      const b = await bar(pg);
      eq(b.worst, "error", "an error: the bar's worst");
      eq(b.bg, errBg, "an error: red");
      await shot(pg, "diagnostics-error");
    } finally {
      s.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- a mismatch once ------------------------------------------------------------------------------
test("a stated total the self costs do not sum to is reported once (Xdebug's Memory)", async () => {
  // An Xdebug profile whose summary: of Memory is below its functions' sum (a run that frees
  // memory: the user's xdebug-sorting): xdebug-classes with its last line so written.
  const dir = mkdtempSync(join(tmpdir(), "calltree-numbers-mismatch-"));
  const file = join(dir, "xdebug-sorting.callgrind");
  const text = readFileSync(join(corpus, "xdebug-classes.callgrind"), "utf8");
  assert(text.includes("\nsummary: 1247774 759096\n"), "xdebug-classes's summary: line");
  writeFileSync(file, text.replace("\nsummary: 1247774 759096\n", "\nsummary: 1247774 400000\n"));
  const A = calltreeJson(["annotate", "--json", file]);
  const mem = A.events.find((e) => e.startsWith("Memory"));
  assert(mem && A.totals_stated[mem] === 400000 && A.totals_summed[mem] > 400000, "less memory stated than its functions sum to: " + JSON.stringify(A.totals_summed));
  const s = await serve([file]);
  try {
    const pg = await page(s.url);
    await waitRows(pg);
    await pg.waitForSelector('[data-testid="diag-list"]');
    const items = await pg.$$eval('[data-testid="diag-list"] > li', (els) => els.map((e) => e.textContent));
    const about = items.filter((t) => t.includes(`400000 ${mem}`));
    eq(about.length, 1, "the memory's mismatch, listed: " + about.join(" | "));
    assert(about[0].includes("percentages are of the stated total"), "the one that says what follows: " + about[0]);
    // The summary counts what the list holds: two warnings of the totals (Time and Memory) and
    // the calls above lines; no reader's warning.
    const p = await s.api("profile");
    const i = p.inputs[0];
    const warnings = i.diagnostics.warnings + i.warnings.length + p.event_warnings.length;
    eq(await pg.$$eval('[data-testid="diag-list"] > li.warning', (els) => els.length), warnings, "the warnings listed, as counted");
    assert((await pg.textContent('[data-testid="diag-summary"]')).startsWith(`xdebug-sorting.callgrind: 0 errors, ${warnings} warnings`), "the summary's count");
    await shot(pg, "mismatch-once");
    noErrors(pg);
  } finally {
    s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- a folder's totals ----------------------------------------------------------------------------
test("a folder's row: one total, before and after its file is opened", async () => {
  const dir = mkdtempSync(join(tmpdir(), "calltree-numbers-folder-"));
  const names = ["xdebug-recursion.callgrind", "xdebug-closures.callgrind", "vg-threads-separate-combined.callgrind"];
  for (const n of names) copyFileSync(join(corpus, n), join(dir, n));
  const s = await serve([dir], { cwd: dir, env: { ...process.env, XDG_CACHE_HOME: join(dir, ".cache") } });
  try {
    const pg = await page(s.url);
    await pg.waitForSelector('[data-testid="folder-row"]');
    const totalOf = (n) =>
      pg.$$eval('[data-testid="folder-row"]', (rs, name) => rs.filter((r) => r.querySelector('[data-testid="folder-name"]').textContent === name).map((r) => r.querySelector('[data-testid="folder-total"]').textContent.trim())[0], n);
    for (const n of names) {
      const A = calltreeJson(["annotate", "--json", join(dir, n)]);
      const e = A.events[0];
      const want = `${fmt(A.totals[e])} ${e}`;
      // (read in the background: the header's summary: or unknown until then)
      await pg.waitForFunction(
        ([name, w]) => [...document.querySelectorAll('[data-testid="folder-row"]')].some((r) => r.querySelector('[data-testid="folder-name"]').textContent === name && r.querySelector('[data-testid="folder-total"]').textContent.trim() === w),
        [n, want],
        { timeout: 60000 },
      ).catch(async () => assert(false, `${n}: the row's total before opening ${await totalOf(n)}, annotate's ${want}`));
    }
    await shot(pg, "folder-before");
    for (const n of names) {
      const before = await totalOf(n);
      await pg.click(`[data-testid="folder-name"]:text-is("${n}")`);
      await waitRows(pg);
      const header = await totalShown(pg);
      const [value, event] = before.split(" ");
      assert(header.startsWith(`Total ${event}: ${value}`), `${n}: the row said ${before}, the opened page ${header}`);
      await pg.click('[data-testid="folder-back"]');
      await pg.waitForSelector('[data-testid="folder-row"]');
      eq(await totalOf(n), before, `${n}: the row's total after opening`);
    }
    await shot(pg, "folder-after");
    noErrors(pg);
  } finally {
    s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- sampled call counts ---------------------------------------------------------------------
test("a sampling profiler's call counts read Samples, a callgrind file's Calls", async () => {
  const heads = async (pg) => (await pg.$$eval('[role="columnheader"].calls', (hs) => hs.map((h) => h.textContent.replace(/[▲▼]/g, "").trim())));
  // (gperftools' `pprof --callgrind`, event Hits: its call counts are the hits under each call)
  const files = [
    [join(corpus, "..", "import", "pprof", "go-cpu.pb.gz"), "Samples"],
    [join(corpus, "gperftools-phases-cpu.callgrind"), "Samples"],
    [join(corpus, "vg-recurse-default.callgrind"), "Calls"],
  ];
  for (const [file, want] of files) {
    const s = await serve([file]);
    try {
      const pg = await page(s.url);
      await waitRows(pg);
      eq((await heads(pg)).join(","), want, `the count column's title, ${file}`);
      const tip = await pg.getAttribute('[role="columnheader"].calls', "title");
      assert(want === "Calls" || tip.includes("not calls made"), "the tooltip says what a sample count is: " + tip);
      // The selected function's header and its callers' table say the same (issue 67).
      await pg.click('.tbody .row[data-index="0"] .cell.name');
      const figure = (await pg.textContent('[data-testid="selected-calls"]', { timeout: 10000 })).trim();
      assert(figure.startsWith(want + " "), `the header's count reads ${want}: ${figure}`);
      await pg.click('button[role="tab"]:text("Callers / callees")');
      await pg.waitForSelector(".calltable table", { timeout: 10000 });
      const count = await pg.$$eval(".calltable table th.num:nth-child(3)", (hs) => hs.map((h) => h.textContent.trim()));
      assert(count.length > 0, "a callers' or callees' table");
      for (const c of count) eq(c, want === "Samples" ? "Samples" : "Count", `the callers' and callees' count column, ${file}`);
      if (want === "Samples") await shot(pg, "sampled-calls-" + files.findIndex((f) => f[0] === file));
      noErrors(pg);
    } finally {
      s.stop();
    }
  }
});

await run({ limitMs: 180000 });
