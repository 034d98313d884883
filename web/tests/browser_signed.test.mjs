// browser_signed.test.mjs — the page of `calltree serve` on a file of differences (Valgrind's
// cg_diff output, tests/signed): what the page SHOWS is compared with cg_annotate's numbers
// (tests/signed/cg_diff.out.cg_annotate.txt) and with `calltree annotate --json`: the total
// and the functions' costs with their sign, the list ordered by the size of each change, the
// flame graph coloured on a diverging scale (red up, blue down). Screenshots go to --out.
//
//   node web/tests/browser_signed.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --source . --out build/web/screenshots
import { join } from "node:path";
import { assert, calltreeJson, eq, page, run, serve, shot, source, test } from "./harness.mjs";

const signedDir = join(source, "tests", "signed");

// The hue of an `hsl(H S% L%)` or `rgb(r, g, b)` colour: red ~0, blue ~215.
function hue(css) {
  const m = css.match(/rgb\((\d+), (\d+), (\d+)\)/);
  if (!m) return NaN;
  const [r, g, b] = m.slice(1).map((x) => Number(x) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return NaN;
  const d = max - min;
  let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h *= 60;
  return h < 0 ? h + 360 : h;
}

test("cg_diff's file: signed total and costs, by size of change, a diverging flame graph", async () => {
  const file = join(signedDir, "cg_diff.out");
  const A = calltreeJson(["annotate", "--json", file]);
  eq(A.totals.Ir, -330149, "annotate --json's total (cg_annotate's -330,149)");
  const s = await serve([file], { cwd: signedDir });
  try {
    const pg = await page(s.url);
    await pg.waitForSelector('.tbody .row[data-index="0"] .cell.name');
    eq((await pg.textContent('[data-testid="total"]')).trim(), "Total Ir: -330,149", "the total");
    const names = [];
    const selfs = [];
    for (let i = 0; i < 3; i++) {
      names.push((await pg.textContent(`.tbody .row[data-index="${i}"] .cell.name`)).trim());
      selfs.push((await pg.textContent(`.tbody .row[data-index="${i}"] .cell.self`)).trim());
    }
    // cg_annotate: checksum -262,200, fill -163,896, work 96,000 (the largest change first).
    assert(names[0].startsWith("checksum") && names[1].startsWith("fill") && names[2].startsWith("work"), "the order: " + names);
    assert(selfs[0].startsWith("-262,200"), "checksum's self: " + selfs[0]);
    assert(selfs[1].startsWith("-163,896"), "fill's self: " + selfs[1]);
    assert(selfs[2].startsWith("96,000"), "work's self: " + selfs[2]);
    // A share has the sign of its change (of the size of the negative total): checksum fell,
    // work rose (was: work "96,000  -29.1%", checksum "-262,200  79.42%").
    const share = (cell) => cell.trim().split(/\s+/).pop();
    assert(share(selfs[0]).startsWith("-") && parseFloat(share(selfs[0])) < -79 && parseFloat(share(selfs[0])) > -80, "checksum's share: " + selfs[0]);
    assert(!share(selfs[2]).startsWith("-") && parseFloat(share(selfs[2])) > 29 && parseFloat(share(selfs[2])) < 29.2, "work's share: " + selfs[2]);
    // The file has no calls: no Calls column (it would be all 0).
    const heads = await pg.$$eval(".thead .cell", (els) => els.map((e) => e.className));
    assert(heads.some((c) => c.includes("self")) && !heads.some((c) => c.split(" ").includes("calls")), "no Calls column: " + heads.join("|"));
    await shot(pg, "signed-list");

    await pg.goto(s.url + "#tab=flame");
    await pg.waitForSelector('[data-testid="flame"] .frame');
    const frames = await pg.$$eval('[data-testid="flame"] .frame', (els) =>
      els.map((e) => ({ text: e.textContent, width: parseFloat(e.style.width), bg: getComputedStyle(e).backgroundColor, title: e.title })),
    );
    const byName = (n) => frames.find((f) => f.text === n || f.title.startsWith(n + "\n"));
    const checksum = byName("checksum");
    const work = byName("work");
    assert(checksum && work, "frames for checksum and work: " + frames.map((f) => f.text).join(","));
    const hc = hue(checksum.bg);
    const hw = hue(work.bg);
    assert(hc > 180 && hc < 250, "checksum fell: a blue frame, hue " + hc + " (" + checksum.bg + ")");
    assert(hw < 20 || hw > 340, "work rose: a red frame, hue " + hw + " (" + work.bg + ")");
    assert(checksum.width > work.width, "frames as wide as the size of the change");
    assert(checksum.title.includes("-262,200"), "the tip says the signed cost: " + checksum.title);
    // Nothing was estimated (no calls): no "An estimate" banner.
    eq(await pg.$('[data-testid="estimate-note"]'), null, "no estimate banner on a file without calls");
    await shot(pg, "signed-flame");
    eq(pg.errors.length, 0, "page errors: " + pg.errors.join("; "));
  } finally {
    s.stop();
  }
});

await run();
