// browser_signed.test.mjs — the page of `calltree serve` on a file of differences (Valgrind's
// cg_diff output, tests/signed): what the page SHOWS is compared with cg_annotate's numbers
// (tests/signed/cg_diff.out.cg_annotate.txt) and with `calltree annotate --json`: the total
// and the functions' costs with their sign, the list ordered by the size of each change, the
// flame graph coloured on a diverging scale (red up, blue down). Screenshots go to --out.
//
//   node web/tests/browser_signed.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --source . --out build/web/screenshots
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const arg = (name, def) => {
  const i = process.argv.indexOf("--" + name);
  return i > 0 ? process.argv[i + 1] : def;
};
const calltree = resolve(arg("calltree", "build/calltree"));
const source = resolve(arg("source", "."));
const out = resolve(arg("out", "build/web/screenshots"));
const signedDir = join(source, "tests", "signed");
let browserPath = arg("chromium", "/usr/bin/chromium");
if (existsSync("/usr/lib/chromium/chromium") && browserPath === "/usr/bin/chromium") browserPath = "/usr/lib/chromium/chromium";
mkdirSync(out, { recursive: true });

function serve(args, cwd) {
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

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

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
  const A = JSON.parse(execFileSync(calltree, ["annotate", "--json", file]).toString());
  eq(A.totals.Ir, -330149, "annotate --json's total (cg_annotate's -330,149)");
  const s = await serve([file], signedDir);
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
    await shot(pg, "signed-flame");
    eq(pg.errors.length, 0, "page errors: " + pg.errors.join("; "));
  } finally {
    s.stop();
  }
});

const t0 = Date.now();
browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
let passed = 0;
let failed = 0;
for (const t of tests) {
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
