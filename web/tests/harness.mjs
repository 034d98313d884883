// harness.mjs — what every browser test of `calltree serve` needs: its flags (--calltree,
// --chromium, --source, --corpus, --out, --only), `calltree serve` started on a free port (with
// its API at hand), `calltree ... --json` read (and a diff's most changed file), a page of
// Debian's chromium (headless, playwright-core) that records the page's errors and requests,
// the list's rows read, screenshots, assertions and a runner of the tests in turn, each with a
// time limit.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

export const arg = (name, def) => {
  const i = process.argv.indexOf("--" + name);
  return i > 0 ? process.argv[i + 1] : def;
};
export const calltree = resolve(arg("calltree", "build/calltree"));
export const source = resolve(arg("source", "."));
export const corpus = resolve(arg("corpus", "tests/corpus"));
export const out = resolve(arg("out", "build/web/screenshots"));
const only = arg("only", "");
let browserPath = arg("chromium", "/usr/bin/chromium");
// (Debian's /usr/bin/chromium is a shell script in front of the real program.)
if (existsSync("/usr/lib/chromium/chromium") && browserPath === "/usr/bin/chromium") browserPath = "/usr/lib/chromium/chromium";
mkdirSync(out, { recursive: true });

/** Starts `calltree serve ARGS` (in `cwd`, with `env`) and resolves, once it printed its URL
 * (within `waitMs`), to { url, proc, api, stop }: `api(PATH)` is the JSON of /api/v1/PATH. */
export function serve(args, { cwd, env, waitMs = 20000 } = {}) {
  return new Promise((ok, fail) => {
    const p = spawn(calltree, ["serve", "--port", "0", ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let buf = "";
    let err = "";
    const timer = setTimeout(() => fail(new Error(`serve printed no URL in ${waitMs / 1000} s: ` + err)), waitMs);
    p.stderr.on("data", (d) => (err += d));
    p.stdout.on("data", (d) => {
      buf += d;
      const m = buf.match(/^(http:\/\/\S+)\n/);
      if (m) {
        clearTimeout(timer);
        const url = m[1];
        const base = url.replace(/\/\?token=.*/, "");
        const token = url.replace(/.*token=/, "");
        // (Once more on a network error: the server closes an idle kept-alive connection to
        // make room for a page's, and a request sent on it as it closes fails.)
        const get = (path) => fetch(`${base}/api/v1/${path}`, { headers: { Authorization: "Bearer " + token } });
        const api = async (path) => (await get(path).catch(() => get(path))).json();
        ok({ url, proc: p, api, stop: () => p.kill("SIGTERM") });
      }
    });
    p.on("exit", (code) => fail(new Error(`serve exited ${code}: ${err}`)));
  });
}

/** The JSON `calltree ARGS` prints (execFileSync's options: cwd, env, stdio). */
export const calltreeJson = (args, opts = {}) => JSON.parse(execFileSync(calltree, args, { maxBuffer: 1 << 28, ...opts }).toString());
/** A number (or a string of digits) with thousands separators, as the page shows it. */
export const fmt = (n) => (typeof n === "string" ? n.replace(/\B(?=(\d{3})+(?!\d))/g, ",") : new Intl.NumberFormat("en-US").format(n));
/** Of `calltree diff --json --threshold=0`'s functions grouped by their file's base name (the
 * page's Group by file), the group whose self cost of EVENT changed most: [name, { old, nw }],
 * its functions' self costs summed on each side. */
export function mostChangedFile(diff, event = "Ir") {
  const byFile = new Map();
  for (const f of diff.functions) {
    const b = f.file.split("/").pop() || f.file;
    const g = byFile.get(b) ?? { old: 0, nw: 0 };
    g.old += f.self[event].old;
    g.nw += f.self[event].new;
    byFile.set(b, g);
  }
  return [...byFile].sort((a, b) => Math.abs(b[1].nw - b[1].old) - Math.abs(a[1].nw - a[1].old))[0];
}

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
export function eq(a, b, msg) {
  if (a !== b) throw new Error(`${msg}: got ${JSON.stringify(a)}, want ${JSON.stringify(b)}`);
}

let browser;
/** A new page of its own context, at URL if given (http:// of serve, or file:// of a report),
 * in `viewport`, dark if `dark`. It records `pg.errors` (uncaught errors), `pg.consoleErrors`,
 * `pg.failed` (responses of status 400 and above) and `pg.requests` (every URL asked for). */
export async function page(url, { viewport = { width: 1500, height: 900 }, dark = false } = {}) {
  const ctx = await browser.newContext({ viewport, colorScheme: dark ? "dark" : "light" });
  const pg = await ctx.newPage();
  pg.errors = [];
  pg.consoleErrors = [];
  pg.failed = [];
  pg.requests = [];
  pg.on("pageerror", (e) => pg.errors.push(e.message));
  pg.on("console", (m) => m.type() === "error" && pg.consoleErrors.push(m.text()));
  pg.on("response", (r) => r.status() >= 400 && pg.failed.push(`${r.status()} ${r.url()}`));
  pg.on("request", (r) => pg.requests.push(r.url()));
  if (url) await pg.goto(url);
  return pg;
}
export const shot = (pg, name) => pg.screenshot({ path: join(out, name + ".png") });

// The list of functions.
/** Waits for the list's first row (`timeout` in ms, Playwright's 30 s if not given). */
export const waitRows = (pg, timeout) => pg.waitForSelector('.tbody .row[data-index="0"] .cell.name', timeout ? { timeout } : {});
export const rowText = (pg, i, cls) => pg.textContent(`.tbody .row[data-index="${i}"] .cell.${cls}`);
export const totalShown = async (pg) => (await pg.textContent('[data-testid="total"]')).trim();

const tests = [];
/** A test: `fn(shared)` gets what run's `setup` made. */
export const test = (name, fn) => tests.push({ name, fn });

/** Runs the tests in turn (--only NAME: those whose name holds NAME), each within `limitMs`,
 * each given what `setup()` made once before them; then `cleanup(that)`. Prints a line per
 * test (a failure's message and where in the test it was; DEBUG=1: its whole stack) and
 * exits 1 if any failed. */
export async function run({ limitMs = 60000, setup = () => undefined, cleanup = () => {} } = {}) {
  const t0 = Date.now();
  browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  const shared = await setup();
  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const t1 = Date.now();
    let timer;
    try {
      await Promise.race([t.fn(shared), new Promise((_, f) => (timer = setTimeout(() => f(new Error(`timed out after ${limitMs / 1000} s`)), limitMs)))]);
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - t1} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}: ${String(e.message).split("\n")[0]}`);
      const stack = String(e.stack || "").split("\n");
      const at = stack.find((l) => /\.test\.mjs:\d+/.test(l));
      if (process.env.DEBUG) console.log(stack.join("\n"));
      else if (at) console.log("     " + at.trim());
    } finally {
      clearTimeout(timer);
    }
    for (const c of browser.contexts()) await c.close();
  }
  await cleanup(shared);
  await browser.close();
  console.log(`screenshots in ${out}; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
