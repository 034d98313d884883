// browser_trend.test.mjs — serve DIR's Trend view in a real browser (Debian's chromium,
// headless, driven by playwright-core) against the real binary, on the folders of real runs
// tests/trend/make_runs.sh makes: eight valgrind --tool=callgrind runs whose work() steps up
// 30 % from the sixth run on, and eight Xdebug runs whose work() takes ten times as long from
// the sixth. Each check reads what the page SHOWS: the Trend button of the table, the chart's
// points (one per run and series, each a profile of the folder), the change marked at run 5
// with `calltree trend`'s percentage, the table of runs (work's self costs as `calltree trend
// --json` and `annotate --json` say), a click on a point opening that profile and the way back,
// two shift-clicks opening their diff (its counts of the cost shown, a titled Change column), a
// function picked from the list of biggest changes; runs numbered from 1 (issue 57).
// Screenshots go to --out (trend-callgrind.png, trend-xdebug.png, ...).
//
//   node web/tests/browser_trend.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --source . --out build/web/screenshots [--only NAME]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { assert, calltreeJson, eq, fmt, page as openPage, run, serve as startServe, shot, source, test } from "./harness.mjs";

const tmp = mkdtempSync(join(tmpdir(), "calltree-trend-web-"));
const env = { ...process.env, XDG_CACHE_HOME: join(tmp, "cache") };
execFileSync("bash", [join(source, "tests", "trend", "make_runs.sh"), join(tmp, "fx")], { stdio: "inherit" });
const trendJson = (dir) => calltreeJson(["trend", "--json", "--index=none", dir], { env, stdio: ["ignore", "pipe", "ignore"] });

const serve = (args) => startServe(args, { env });
const page = (url) => openPage(url, { viewport: { width: 1400, height: 820 } });
const points = (pg, series) => pg.$$eval(`[data-testid="trend-point"][data-series="${series}"]`, (els) => els.map((e) => Number(e.getAttribute("data-id"))));
const rows = (pg) => pg.$$eval('[data-testid="trend-row"]', (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent.trim())));

for (const [name, timed] of [
  ["callgrind", false],
  ["xdebug", true],
]) {
  test(`trend: ${name} runs, work() stepping at run 5`, async () => {
    const dir = join(tmp, "fx", name);
    if (!existsSync(dir) || (timed && !existsSync(join(dir, "cachegrind.out.run8")))) {
      console.log(`     (skipped: no ${name} runs)`);
      return;
    }
    const T = trendJson(dir);
    const work = T.changes.filter((c) => c.function === "work" && c.kind === "self");
    // (Xdebug's Time on a loaded machine: run 4 when the run before the step was slowed as
    // much as the step, tests/cli/trend.sh.)
    assert(work.length === 1 && (work[0].run === 5 || (timed && work[0].run === 4)), "calltree trend: work's change: " + JSON.stringify(work));
    const s = await serve([dir]);
    try {
      const pg = await page(s.url);
      await pg.waitForSelector('[data-testid="folder-row"]');
      await pg.click('[data-testid="trend-button"]');
      // The program total first.
      await pg.waitForSelector('[data-testid="trend-chart"]', { timeout: 30000 });
      eq((await pg.textContent('[data-testid="trend-title"]')).startsWith("Program total"), true, "the program total's title");
      eq((await points(pg, "total")).length, 8, "eight points of the program total");
      await shot(pg, `trend-${name}-total`);
      if (!timed) {
        // Two functions named `(below main)` (the program's and libc's): each row of the list
        // says its object, and a click shows that one function, with trend --json's numbers.
        const twins = await pg.$$eval('[data-testid="trend-top"]', (lis) =>
          lis.filter((li) => li.querySelector("a").textContent === "(below main)").map((li) => li.querySelector('[data-testid="trend-top-where"]')?.textContent.trim()),
        );
        eq(twins.sort().join(), "· libc.so.6,· steps", "the two (below main) rows' objects");
        const libc = T.changes.find((c) => c.function === "(below main)" && c.kind === "inclusive" && c.object.endsWith("/libc.so.6"));
        assert(libc, "calltree trend: libc's (below main) changes: " + JSON.stringify(T.changes.map((c) => [c.function, c.object])));
        await pg.click('[data-testid="trend-top"]:has([data-testid="trend-top-where"]:text-is("· libc.so.6")) a');
        await pg.waitForFunction(() => document.querySelector('[data-testid="trend-title"]')?.textContent.includes("(below main)"));
        await pg.waitForSelector('[data-testid="trend-row"]');
        const r = await rows(pg);
        eq(r[libc.run - 1][4], fmt(libc.before), "libc's (below main) inclusive cost before its change, trend --json's");
        eq(r[libc.run][4], fmt(libc.after), "libc's (below main) inclusive cost after its change, trend --json's");
        await shot(pg, `trend-${name}-twin`);
        await pg.click('button.clear');
        await pg.waitForFunction(() => document.querySelector('[data-testid="trend-title"]')?.textContent.startsWith("Program total"));
      }
      // work(), picked from the biggest changes.
      await pg.click('[data-testid="trend-top"] a:text-is("work")');
      await pg.waitForSelector('[data-testid="trend-point"][data-series="self"]');
      await pg.waitForFunction(() => document.querySelector('[data-testid="trend-title"]')?.textContent.includes("work"));
      const self = await points(pg, "self");
      eq(self.length, 8, "eight points of work's self cost");
      eq((await points(pg, "inclusive")).length, 8, "eight points of work's inclusive cost");
      const marks = await pg.$$eval('[data-testid="trend-change"]', (gs) => gs.map((g) => [g.getAttribute("data-run"), g.getAttribute("data-kind"), g.querySelector("text").textContent]));
      const selfMark = marks.find((m) => m[1] === "self");
      assert(selfMark && selfMark[0] === String(work[0].run), `the self change marked at run ${work[0].run}: ` + JSON.stringify(marks));
      eq(selfMark[2].trim(), `self +${work[0].delta_percent.toFixed(1)}%`, "the mark's percentage, calltree trend's");
      const r = await rows(pg);
      eq(r.length, 8, "eight rows");
      // Runs numbered from 1, as the files are (issue 57: "+30 % at run 5" was run6's): the
      // table, the axis, the mark's title and the list of biggest changes.
      eq(r.map((x) => x[0]).join(), "1,2,3,4,5,6,7,8", "the runs' numbers");
      eq((await pg.$$eval('[data-testid="trend-chart"] text.axis[text-anchor="middle"]', (ts) => ts.map((t) => t.textContent.trim()).filter((t) => /^\d+$/.test(t)))).join(), "1,2,3,4,5,6,7,8", "the axis's runs");
      const markTitle = await pg.$eval(`[data-testid="trend-change"][data-kind="self"] title`, (t) => t.textContent);
      assert(markTitle.startsWith(`run ${work[0].run + 1} (${basename(T.runs[work[0].run].file)})`), "the mark's title names the run by its number: " + markTitle);
      const topWork = await pg.$$eval('[data-testid="trend-top"]', (lis) => lis.filter((li) => li.querySelector("a").textContent === "work").map((li) => li.textContent));
      assert(topWork.some((t) => t.includes(`self +${work[0].delta_percent.toFixed(1)}% at run ${work[0].run + 1}`)), "the list's run of work's change: " + topWork.join(" | "));
      eq(r.map((x) => x[1]).join(), T.runs.map((x) => basename(x.file)).join(), "the rows' files, oldest first");
      // Each row's total is trend --json's; the self cost of work is annotate --json's.
      const ev = T.events[0];
      for (const i of [0, 5, 7]) {
        eq(r[i][5], fmt(T.runs[i].total[ev]), `run ${i}'s total`);
        const A = calltreeJson(["annotate", "--json", T.runs[i].file]);
        const fn = A.functions.find((f) => f.name === "work");
        eq(r[i][3], fmt(fn.self[ev]), `run ${i}: work's self cost, annotate's`);
      }
      await shot(pg, `trend-${name}`);
      // A click on a point opens that profile; the way back leads to the Trend.
      await pg.click(`[data-testid="trend-point"][data-series="self"][data-id="${self[5]}"]`);
      await pg.waitForSelector('[data-testid="file-name"]');
      eq((await pg.textContent('[data-testid="file-name"]')).trim(), basename(T.runs[5].file), "the opened run");
      await pg.click('[data-testid="folder-back"]');
      await pg.waitForSelector('[data-testid="trend-chart"]');
      // Two shift-clicks: the diff of the two runs, the older as OLD.
      await pg.waitForSelector('[data-testid="trend-point"][data-series="self"]');
      await pg.click(`[data-testid="trend-point"][data-series="self"][data-id="${self[5]}"]`, { modifiers: ["Shift"] });
      await pg.click(`[data-testid="trend-point"][data-series="self"][data-id="${self[4]}"]`, { modifiers: ["Shift"] });
      await pg.waitForSelector('[data-testid="file-name"]');
      eq((await pg.textContent('[data-testid="file-name"]')).trim(), `${basename(T.runs[4].file)} → ${basename(T.runs[5].file)}`, "the diff of two points");
      // Its counts: with Cost self, the functions whose self cost changed (work's callers'
      // inclusive costs grew too: calltree diff counts them changed); a titled Change column.
      const D = calltreeJson(["diff", "--json", "--threshold=0", T.runs[4].file, T.runs[5].file]);
      const selfChanged = D.functions.filter((f) => f.change === "changed" && f.self[ev].old !== f.self[ev].new).length;
      // (Xdebug's Time differs in every function from one run to the next)
      assert(selfChanged >= 1 && (timed || selfChanged < D.counts.changed), `the diff: ${selfChanged} self costs changed, ${D.counts.changed} functions changed`);
      await pg.waitForSelector('[data-testid="diff-counts"]');
      const counts = await pg.textContent('[data-testid="diff-counts"]');
      assert(counts.startsWith(`${fmt(selfChanged)} changed · `), `the diff's counts: ${counts} (${selfChanged} self costs changed)`);
      eq((await pg.textContent(".thead .cell.change")).trim(), "Change", "the change column's title");
      const workChange = await pg.$$eval(".tbody .row", (rs) => rs.filter((r) => r.querySelector(".cell.name")?.textContent === "work").map((r) => r.querySelector(".cell.change").textContent));
      eq(workChange.join(), "changed", "work is changed");
      await shot(pg, `trend-${name}-diff`);
      eq(pg.errors.length, 0, "page errors: " + pg.errors.join("; "));
    } finally {
      s.stop();
    }
  });
}

await run({ limitMs: 90000, cleanup: () => rmSync(tmp, { recursive: true, force: true }) });
