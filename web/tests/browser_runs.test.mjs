// browser_runs.test.mjs — the page of `calltree serve` on files that change and on runs of
// several files, in a real browser (Debian's chromium, headless, driven by playwright-core)
// against the real binary. Each check reads what the page SHOWS and compares it with
// `calltree annotate --json` (or `calltree merge`) of the same files. Screenshots go to --out.
//
//   node web/tests/browser_runs.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --source . --corpus tests/corpus --out build/web/screenshots [--only NAME]
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { arg, assert, calltree, calltreeJson, corpus, eq, fmt, page, rowText, run, serve as startServe, shot, source, test, totalShown, waitRows } from "./harness.mjs";

const annotateJson = (...args) => calltreeJson(["annotate", "--json", ...args]);
const serve = (args, cwd = corpus) => startServe(args, { cwd });

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
    await pg.click('button[role="tab"]:text("Source")');
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
    await pg.waitForSelector('button[role="tab"][aria-selected="true"]:text("Source")');
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
    await pg.click('button[role="tab"]:text("Parts")');
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

await run();
