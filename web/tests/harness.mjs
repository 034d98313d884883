// harness.mjs — what every browser test of `calltree serve` needs: its flags (--calltree,
// --chromium, --source, --out, --only), `calltree serve` started on a free port, a page of
// Debian's chromium (headless, playwright-core) that collects the page's errors, screenshots,
// assertions and a runner of the tests in turn, each with a time limit.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

export const arg = (name, def) => {
  const i = process.argv.indexOf("--" + name);
  return i > 0 ? process.argv[i + 1] : def;
};
export const calltree = resolve(arg("calltree", "build/calltree"));
export const source = resolve(arg("source", "."));
export const out = resolve(arg("out", "build/web/screenshots"));
const only = arg("only", "");
let browserPath = arg("chromium", "/usr/bin/chromium");
if (existsSync("/usr/lib/chromium/chromium") && browserPath === "/usr/bin/chromium") browserPath = "/usr/lib/chromium/chromium";
mkdirSync(out, { recursive: true });

/** Starts `calltree serve ARGS` and resolves to { url, proc, stop } once it printed its URL. */
export function serve(args, { cwd, env } = {}) {
  return new Promise((ok, fail) => {
    const p = spawn(calltree, ["serve", "--port", "0", ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
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

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
export function eq(a, b, msg) {
  if (a !== b) throw new Error(`${msg}: got ${JSON.stringify(a)}, want ${JSON.stringify(b)}`);
}

let browser;
/** A new page of its own context (`pg.errors`: the page's uncaught errors), at URL if given. */
export async function page(url, viewport = { width: 1500, height: 900 }) {
  const ctx = await browser.newContext({ viewport });
  const pg = await ctx.newPage();
  const errors = [];
  pg.on("pageerror", (e) => errors.push(e.message));
  pg.errors = errors;
  if (url) await pg.goto(url);
  return pg;
}
export const shot = (pg, name) => pg.screenshot({ path: join(out, name + ".png") });

const tests = [];
export const test = (name, fn) => tests.push({ name, fn });

/** Runs the tests in turn (--only NAME: those whose name holds NAME), each within
 * `limitMs`, then `cleanup`; prints a line per test and exits 1 if any failed. */
export async function run({ limitMs = 60000, cleanup = () => {} } = {}) {
  const t0 = Date.now();
  browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const t1 = Date.now();
    try {
      await Promise.race([t.fn(), new Promise((_, f) => setTimeout(() => f(new Error(`timed out after ${limitMs / 1000} s`)), limitMs))]);
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - t1} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}: ${e.message.split("\n")[0]}`);
    }
    for (const c of browser.contexts()) await c.close();
  }
  await browser.close();
  cleanup();
  console.log(`screenshots in ${out}; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
