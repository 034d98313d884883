// browser_runs.test.mjs — the page of `calltree serve` on files that change and on runs of
// several files, in a real browser (Debian's chromium, headless, driven by playwright-core)
// against the real binary. Each check reads what the page SHOWS and compares it with
// `calltree annotate --json` (or `calltree merge`) of the same files. Screenshots go to --out.
//
//   node web/tests/browser_runs.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --source . --corpus tests/corpus --out build/web/screenshots [--only NAME]
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const arg = (name, def) => {
  const i = process.argv.indexOf("--" + name);
  return i > 0 ? process.argv[i + 1] : def;
};
const calltree = resolve(arg("calltree", "build/calltree"));
const source = resolve(arg("source", "."));
const corpus = resolve(arg("corpus", "tests/corpus"));
const out = resolve(arg("out", "build/web/screenshots"));
const only = arg("only", "");
let browserPath = arg("chromium", "/usr/bin/chromium");
if (existsSync("/usr/lib/chromium/chromium") && browserPath === "/usr/bin/chromium") browserPath = "/usr/lib/chromium/chromium";
mkdirSync(out, { recursive: true });

const annotateJson = (...args) => JSON.parse(execFileSync(calltree, ["annotate", "--json", ...args], { maxBuffer: 1 << 28 }).toString());
const fmt = (n) => (typeof n === "string" ? n.replace(/\B(?=(\d{3})+(?!\d))/g, ",") : new Intl.NumberFormat("en-US").format(n));

/** Starts `calltree serve ARGS` and resolves to its URL once it printed it. */
function serve(args, cwd = corpus) {
  return new Promise((ok, fail) => {
    const p = spawn(calltree, ["serve", "--port", "0", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let buf = "";
    let err = "";
    const timer = setTimeout(() => fail(new Error("serve printed no URL in 20 s: " + err)), 20000);
    p.stderr.on("data", (d) => (err += d));
    p.stdout.on("data", (d) => {
      buf += d;
      const m = buf.match(/^(http:\/\/\S+)\n/);
      if (m) {
        clearTimeout(timer);
        ok({ url: m[1], proc: p, stop: () => p.kill("SIGTERM") });
      }
    });
    p.on("exit", (code) => fail(new Error(`serve exited ${code}: ${err}`)));
  });
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
function eq(a, b, msg) {
  if (a !== b) throw new Error(`${msg}: got ${JSON.stringify(a)}, want ${JSON.stringify(b)}`);
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

let browser;
async function page(url) {
  const ctx = await browser.newContext({ viewport: { width: 1500, height: 900 } });
  const pg = await ctx.newPage();
  const errors = [];
  pg.on("pageerror", (e) => errors.push(e.message));
  pg.errors = errors;
  if (url) await pg.goto(url);
  return pg;
}
const shot = (pg, name) => pg.screenshot({ path: join(out, name + ".png") });
const rowText = (pg, i, cls) => pg.textContent(`.tbody .row[data-index="${i}"] .cell.${cls}`);
const waitRows = (pg) => pg.waitForSelector('.tbody .row[data-index="0"] .cell.name');
const totalShown = async (pg) => (await pg.textContent('[data-testid="total"]')).trim();

// --- reload --------------------------------------------------------------------------------------
test("reload: a changed file is announced; Reload keeps the function and the view", async () => {
  const dir = mkdtempSync(join(tmpdir(), "calltree-reload-"));
  const before = join(corpus, "vg-threads-separate.t03.callgrind");
  const after = join(corpus, "vg-threads-separate.t02.callgrind");
  const prof = join(dir, "callgrind.out.1");
  copyFileSync(before, prof);
  const s = await serve([prof], dir);
  try {
    const A = annotateJson(before);
    const B = annotateJson(after);
    const pg = await page(s.url);
    await waitRows(pg);
    eq(await totalShown(pg), "Total Ir: " + fmt(A.totals.Ir), "total before");
    // Select worker, sort by inclusive cost, open the Source tab.
    await pg.fill("input.search", "^worker$");
    await pg.waitForFunction(() => document.querySelector('[data-testid="row-count"]')?.textContent === "1 row");
    await pg.click('.tbody .row[data-index="0"]');
    await pg.waitForSelector('[data-testid="selected-name"]');
    await pg.click(".thead .cell.incl");
    await pg.waitForFunction(() => location.hash.includes("by=inclusive"));
    await pg.click('nav.tabs button:has-text("Source")');
    await pg.waitForFunction(() => location.hash.includes("tab=source"));
    const idBefore = await pg.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("fn"));
    eq(await pg.$('[data-testid="reload-bar"]'), null, "no reload bar while the file is the same");
    // Another run overwrites the file.
    copyFileSync(after, prof + ".new");
    renameSync(prof + ".new", prof);
    await pg.waitForSelector('[data-testid="reload-bar"]', { timeout: 6000 });
    eq((await pg.textContent('[data-testid="reload-file"]')).trim(), "callgrind.out.1 changed on disk.", "the bar");
    await shot(pg, "reload-changed");
    await pg.click('[data-testid="reload"]');
    await pg.waitForFunction((want) => document.querySelector('[data-testid="total"]')?.textContent.trim() === want, "Total Ir: " + fmt(B.totals.Ir));
    await pg.waitForSelector('[data-testid="selected-name"]');
    eq(await pg.textContent('[data-testid="selected-name"]'), "worker", "the function kept by name");
    const idAfter = await pg.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("fn"));
    assert(idAfter !== idBefore, `the id of worker changed with the file (${idBefore} → ${idAfter})`);
    const w = B.functions.find((f) => f.name === "worker");
    eq(await pg.textContent('[data-testid="selected-self"]'), fmt(w.self.Ir), "worker's self cost in the new file");
    assert(await pg.evaluate(() => location.hash.includes("tab=source") && location.hash.includes("by=inclusive") && location.hash.includes("filter=")), "the view kept: " + (await pg.evaluate(() => location.hash)));
    await pg.waitForSelector('nav.tabs button.active:has-text("Source")');
    await pg.waitForSelector('[data-testid="reload-bar"]', { state: "detached", timeout: 6000 });
    // Deleted: the bar says so; Reload is an error on the page; the profile stays shown.
    unlinkSync(prof);
    await pg.waitForFunction(() => document.querySelector('[data-testid="reload-file"]')?.textContent.includes("was deleted"), null, { timeout: 6000 });
    await pg.click('[data-testid="reload"]');
    await pg.waitForSelector('[data-testid="reload-error"]');
    assert((await pg.textContent('[data-testid="reload-error"]')).includes("could not be read again"), "the error says what happened");
    eq(await totalShown(pg), "Total Ir: " + fmt(B.totals.Ir), "the profile read before stays");
    await shot(pg, "reload-deleted");
    // Cut short: it opens again with its errors listed.
    const data = readFileSync(after);
    writeFileSync(prof, data.subarray(0, data.length >> 1));
    await pg.click('[data-testid="reload"]');
    await pg.waitForSelector('details.diagnostics', { timeout: 10000 });
    await waitRows(pg);
    eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
  } finally {
    s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- runs of several files ---------------------------------------------------------------------
const runs = resolve(arg("runs", join(source, "tests/runs")));
const threadFiles = readdirSync(join(runs, "threads")).filter((f) => /^callgrind\.out\.\d+-\d+$/.test(f)).sort();

test("run: five thread files are one profile of five parts, totals as calltree merge", async () => {
  const dir = mkdtempSync(join(tmpdir(), "calltree-run-"));
  const merged = join(dir, "merged.callgrind");
  execFileSync(calltree, ["merge", ...threadFiles, "-o", merged], { cwd: join(runs, "threads") });
  const M = annotateJson(merged);
  const s = await serve(threadFiles, join(runs, "threads"));
  try {
    eq(threadFiles.length, 5, "the thread files");
    const pg = await page(s.url);
    await waitRows(pg);
    eq(await pg.textContent('[data-testid="file-name"]'), `${threadFiles[0]} and 4 more files (a run of 5)`, "the header");
    eq(await totalShown(pg), "Total Ir: " + fmt(M.totals.Ir), "the total is calltree merge's");
    const options = await pg.$$eval('select[aria-label="Parts"] option', (els) => els.map((e) => e.textContent));
    eq(options.length, 6, "all summed and 5 parts");
    for (let i = 0; i < 5; i++) assert(options[i + 1].includes(threadFiles[i]) && options[i + 1].includes(`thread ${i + 1}`), `part ${i + 1}: ${options[i + 1]}`);
    // Part 4 alone is the file -04: its top function and self cost as annotate of that file.
    const F = annotateJson(join(runs, "threads", threadFiles[3]));
    const top = [...F.functions].sort((a, b) => b.self.Ir - a.self.Ir)[0];
    await pg.selectOption('select[aria-label="Parts"]', "4");
    await pg.waitForFunction((want) => document.querySelector('.tbody .row[data-index="0"] .cell.self')?.textContent.startsWith(want), fmt(top.self.Ir) + " ");
    assert((await rowText(pg, 0, "name")).startsWith(top.name), "part 4's top function is " + top.name);
    // The Parts tab names each part's file.
    await pg.click('.tbody .row[data-index="0"]');
    await pg.click('nav.tabs button:has-text("Parts")');
    await pg.waitForSelector('[data-testid="part-file"]');
    eq((await pg.$$eval('[data-testid="part-file"]', (els) => els.map((e) => e.textContent))).join(" "), threadFiles.join(" "), "the parts' files");
    await shot(pg, "run-parts");
    eq(pg.errors.length, 0, "page errors " + pg.errors.join("; "));
  } finally {
    s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("run: one file of a run says its siblings exist; --siblings loads them all", async () => {
  const one = await serve([threadFiles[1]], join(runs, "threads"));
  try {
    const pg = await page(one.url);
    await waitRows(pg);
    await pg.waitForSelector('[data-testid="siblings"]');
    assert((await pg.textContent('[data-testid="siblings"]')).startsWith("This file is one of a run of 5 files"), "the note: " + (await pg.textContent('[data-testid="siblings"]')));
    eq(await pg.$('select[aria-label="Parts"]'), null, "one file: no Part menu");
    await shot(pg, "run-siblings");
  } finally {
    one.stop();
  }
  const all = await serve(["--siblings", threadFiles[1]], join(runs, "threads"));
  try {
    const pg = await page(all.url);
    await waitRows(pg);
    eq(await pg.textContent('[data-testid="file-name"]'), `${threadFiles[0]} and 4 more files (a run of 5)`, "--siblings: the run");
    eq(await pg.$$eval('select[aria-label="Parts"] option', (els) => els.length), 6, "--siblings: 5 parts");
    eq(await pg.$('[data-testid="siblings"]'), null, "no siblings note once they are loaded");
  } finally {
    all.stop();
  }
});

// --- the runner -------------------------------------------------------------------------------
const t0 = Date.now();
browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
let passed = 0;
let failed = 0;
for (const t of tests) {
  if (only && !t.name.includes(only)) continue;
  const t1 = Date.now();
  try {
    await Promise.race([t.fn(), new Promise((_, f) => setTimeout(() => f(new Error("timed out after 60 s")), 60000))]);
    passed++;
    console.log(`ok   ${t.name} (${Date.now() - t1} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name}: ${e.message.split("\n")[0]}`);
  }
  for (const c of browser.contexts()) await c.close();
}
await browser.close();
console.log(`screenshots in ${out}; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
