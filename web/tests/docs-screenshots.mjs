// docs-screenshots.mjs — makes the pictures of docs/serve.md: every view of `calltree serve` on
// real corpus profiles, in headless chromium. Not a test (web.browser is); run it by hand:
//
//   node web/tests/docs-screenshots.mjs --calltree build/calltree --corpus tests/corpus \
//        --source . --out docs/images [--only NAME,NAME]   (e.g. --only diff,diff-group)
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const arg = (name, def) => {
  const i = process.argv.indexOf("--" + name);
  return i > 0 ? process.argv[i + 1] : def;
};
const calltree = resolve(arg("calltree", "build/calltree"));
const corpus = resolve(arg("corpus", "tests/corpus"));
const source = resolve(arg("source", "."));
const out = resolve(arg("out", "docs/images"));
const only = arg("only", "") ? arg("only", "").split(",") : null;
const browserPath = existsSync("/usr/lib/chromium/chromium") ? "/usr/lib/chromium/chromium" : "/usr/bin/chromium";
mkdirSync(out, { recursive: true });

function serve(args) {
  return new Promise((ok, fail) => {
    const p = spawn(calltree, ["serve", "--port", "0", ...args], { cwd: corpus, stdio: ["ignore", "pipe", "inherit"] });
    let buf = "";
    p.stdout.on("data", (d) => {
      buf += d;
      const m = buf.match(/^(http:\/\/\S+)\n/);
      if (m) ok({ url: m[1], stop: () => p.kill("SIGTERM") });
    });
    p.on("exit", (code) => fail(new Error("serve exited " + code)));
  });
}

async function idOf(url, name) {
  const base = url.replace(/\/\?token=.*/, "");
  const token = url.replace(/.*token=/, "");
  const r = await fetch(`${base}/api/v1/functions?filter=${encodeURIComponent(name)}&limit=1&by=inclusive`, { headers: { Authorization: "Bearer " + token } });
  return (await r.json()).rows[0].id;
}

const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
async function shoot(url, name, ready, opts = {}) {
  if (only && !only.includes(name)) return;
  const ctx = await browser.newContext({ viewport: opts.viewport ?? { width: 1400, height: 820 }, colorScheme: opts.dark ? "dark" : "light" });
  const pg = await ctx.newPage();
  await pg.goto(url);
  await pg.waitForSelector(ready, { timeout: 30000 });
  if (opts.then) await opts.then(pg);
  await pg.waitForTimeout(300);
  await pg.screenshot({ path: join(out, `serve-${name}.png`) });
  await ctx.close();
  console.log("wrote", join(out, `serve-${name}.png`));
}

const wf = await serve(["vg-wordfreq-cxx-O2g-default.callgrind"]);
const main = await idOf(wf.url, "^main$");
const collect = await idOf(wf.url, "^wf::Stats wf::collect");
await shoot(wf.url + `#fn=${main}`, "list", '[aria-label="Callers"]');
await shoot(wf.url + `#fn=${collect}&tab=source`, "source", ".srcline.hot");
await shoot(wf.url + `#fn=${collect}&tab=flame`, "flame", '[data-testid="flame"] .frame');
await shoot(wf.url + `#fn=${collect}&tab=sandwich`, "sandwich", '[data-testid="sandwich"] .frame');
await shoot(wf.url + `#fn=${main}&tab=map`, "calleemap", '[data-testid="treemap"] .tm');
await shoot(wf.url + `#group=class&by=inclusive&fn=${collect}`, "group", ".groups .group");
const opNew = await idOf(wf.url, "^operator new\\(unsigned long\\)$");
await shoot(wf.url + `#fn=${opNew}&tab=callermap`, "callermap", '[data-testid="callermap"] .tm');
await shoot(wf.url + `#fn=${opNew}&tab=allcallers`, "allcallers", '[data-testid="coverage-callers"] tr[data-fn]');
await shoot(wf.url + `#fn=${main}&tab=allcallees`, "allcallees", '[data-testid="coverage-callees"] tr[data-fn]');
await shoot(wf.url + `#fn=${main}&tab=flame`, "dark", '[data-testid="flame"] .frame', { dark: true });
// Two panes (a wider window, as one has for two): wf::collect's call graph beside its source.
const wide = { width: 1600, height: 860 };
await shoot(wf.url + `#fn=${collect}&tab=graph&tab2=source`, "panes", '.pane[data-pane="2"] .srcline.hot', {
  viewport: wide,
  then: (pg) => pg.waitForSelector('.pane[data-pane="1"] .graph svg g.node', { timeout: 30000 }),
});
wf.stop();

// An Xdebug profile grouped by PHP class: Registry's methods and closure, its total() selected.
const php = await serve(["xdebug-classes.callgrind"]);
const total = await idOf(php.url, "^Registry->total$");
await shoot(php.url + `#group=class&in_group=Registry&fn=${total}`, "group-php", ".groups .group.selected");
php.stop();
// Two panes on the big cc1plus profile (g++ -O2, --dump-instr=yes): ggc_internal_alloc's
// callers beside its machine code (objdump on the machine's cc1plus), scrolled to its costliest
// instruction.
if (!only || only.includes("panes-asm")) {
  const big = await serve(["vg-gxx-big-instr-jumps.cc1plus.callgrind.gz"]);
  const alloc = await idOf(big.url, "^ggc_internal_alloc\\(");
  const base = big.url.replace(/\/\?token=.*/, ""), token = big.url.replace(/.*token=/, "");
  const asm = await (await fetch(`${base}/api/v1/asm/${alloc}`, { headers: { Authorization: "Bearer " + token } })).json();
  const top = asm.asm[0].instructions.reduce((a, i) => (Number(i.self?.Ir ?? 0) > Number(a.self?.Ir ?? 0) ? i : a));
  await shoot(big.url + `#fn=${alloc}&tab2=asm`, "panes-asm", '.pane[data-pane="2"] [data-testid="asm-rows"] .asmrow[data-address]', {
    viewport: wide,
    then: async (pg) => {
      await pg.waitForSelector('.pane[data-pane="1"] [aria-label="Callers"] tbody tr');
      await pg.evaluate(async (address) => {
        const body = document.querySelector('.pane[data-pane="2"] [data-testid="asm-rows"]');
        const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const row = () => body.querySelector(`.asmrow[data-address="${address}"]`);
        for (let i = 0; i < 500 && !row() && body.scrollTop + body.clientHeight < body.scrollHeight; i++) {
          body.scrollTop += body.clientHeight;
          await frame();
        }
        if (row()) body.scrollTop = Math.max(0, row().offsetTop - body.clientHeight / 3);
        await frame();
      }, top.address);
    },
  });
  big.stop();
}

// The call graph: of the -O2 cc1plus profile's costliest functions, the one whose graph is the
// largest, as it opens (legible, the panner in the corner).
const cc1 = await serve(["vg-gxx-small-default.cc1plus.callgrind"]);
{
  const base = cc1.url.replace(/\/\?token=.*/, ""), token = cc1.url.replace(/.*token=/, "");
  const api = async (path) => (await fetch(`${base}/api/v1/${path}`, { headers: { Authorization: "Bearer " + token } })).json();
  let best = null;
  for (const r of (await api("functions?by=inclusive&limit=40")).rows) {
    if (r.kind !== "function") continue;
    const n = (await api(`graph/${r.id}`)).nodes.length;
    if (!best || n > best.n) best = { id: r.id, n };
  }
  await shoot(cc1.url + `#fn=${best.id}&tab=graph`, "callgraph", "[data-testid=graph-panner]");
}
cc1.stop();

const rec = await serve([join(source, "examples/recurse.callgrind")]);
await shoot(rec.url + `#fn=${await idOf(rec.url, "^cyc_b'2$")}&tab=graph`, "cycle", ".graph svg g.cluster");
await shoot(rec.url + `#cycles=0&by=inclusive&filter=%5Ecyc_&fn=${await idOf(rec.url, "^cyc_b'2$")}&tab=allcallers`, "nocycles", '[data-testid="coverage-callers"] tr[data-fn]');
rec.stop();

const threads = await serve(["vg-threads-separate-combined.callgrind"]);
await shoot(threads.url + `#parts=2&tab=parts&fn=${await idOf(threads.url, "^msort_with_tmp\\.part\\.0'2$")}`, "parts", '[data-part-self="2"]:not(:empty)');
await shoot(threads.url + "#cycles=no&pcols=1", "parts-columns", '.tbody .row[data-index="0"] .cell.pcol.p5:not(:empty)');
await shoot(threads.url + "#tab=flame&by_thread=1", "flame-threads", '.frame.thread');
threads.stop();

const diff = await serve(["vg-threads-separate.t02.callgrind", "vg-threads-separate.t03.callgrind"]);
await shoot(diff.url, "diff", ".tbody .row .cell.delta");
await shoot(diff.url + "#tab=flame", "diff-flame", '[data-testid="flame"] .frame');
await shoot(diff.url + "#group=file", "diff-group", ".groups .group.dgroup");
diff.stop();

// A run of five thread files (tests/runs/threads), part 4 and the Parts tab.
{
  const dir = join(source, "tests/runs/threads");
  const files = readdirSync(dir).filter((f) => /^callgrind\.out\.\d+-\d+$/.test(f)).sort();
  const s = await serve(files.map((f) => join(dir, f)));
  await shoot(s.url + `#parts=4&tab=parts&fn=${await idOf(s.url, "^msort_with_tmp\\.part\\.0'2$")}`, "run", '[data-testid="part-file"]');
  s.stop();
}

// Reload: the served file rewritten by another run (another thread's profile).
{
  const dir = mkdtempSync(join(tmpdir(), "calltree-shots-"));
  const prof = join(dir, "callgrind.out.4242");
  copyFileSync(join(corpus, "vg-threads-separate.t03.callgrind"), prof);
  const s = await serve([prof]);
  const worker = await idOf(s.url, "^worker$");
  await shoot(s.url + `#fn=${worker}&tab=source`, "reload", ".srcline", {
    then: async (pg) => {
      copyFileSync(join(corpus, "vg-threads-separate.t02.callgrind"), prof + ".new");
      renameSync(prof + ".new", prof);
      await pg.waitForSelector('[data-testid="reload-bar"]', { timeout: 10000 });
    },
  });
  s.stop();
  rmSync(dir, { recursive: true, force: true });
}

// serve DIR: a folder of Xdebug profiles (tests/server/folder) and corpus copies, one of them
// cut short and one no profile.
{
  const dir = mkdtempSync(join(tmpdir(), "calltree-folder-"));
  const xd = join(source, "tests/server/folder");
  const names = [];
  for (const f of readdirSync(xd).filter((f) => f.startsWith("cachegrind.out."))) copyFileSync(join(xd, f), join(dir, f)), names.push(f);
  for (const f of ["xdebug-classes.callgrind", "xdebug-closures.callgrind", "vg-recurse-default.callgrind", "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz", "go-pprof-gowork-cpu.callgrind", "vg-sqlite3-workload-cache-branch-sim.callgrind"])
    copyFileSync(join(corpus, f), join(dir, f)), names.push(f);
  writeFileSync(join(dir, "README.txt"), "profiles of the nightly run\n");
  names.push("README.txt");
  const whole = readFileSync(join(corpus, "vg-phases-dump-before-zero-combined.callgrind"));
  writeFileSync(join(dir, "callgrind.out.31337"), whole.subarray(0, whole.length >> 1));
  names.push("callgrind.out.31337");
  const now = Date.now() / 1000;
  names.forEach((n, i) => utimesSync(join(dir, n), now - 3600 + 60 * i, now - 3600 + 60 * i));
  const s = await serve([dir]);
  await shoot(s.url, "folder", '[data-testid="folder-row"]');
  s.stop();
  rmSync(dir, { recursive: true, force: true });
}
const bad = await serve([join(source, "tests/malformed/m03-undefined-function-id.callgrind")]);
await shoot(bad.url, "diagnostics", ".diagnostics li");
bad.stop();

// The report, opened from disk.
const report = join(tmpdir(), "calltree-recurse-report.html");
await new Promise((ok, fail) => spawn(calltree, ["report", "--html", join(source, "examples/recurse.callgrind"), "-o", report], { cwd: corpus, stdio: "inherit" }).on("exit", (c) => (c ? fail(new Error("report " + c)) : ok())));
// (Its ids are serve's for the same file.)
const ex = await serve([join(source, "examples/recurse.callgrind")]);
const cycC = await idOf(ex.url, "^cyc_c$");
const exMain = await idOf(ex.url, "^main$");
ex.stop();
await shoot("file://" + report + "#fn=" + cycC + "&tab=source", "report", ".srcline.hot");
await shoot("file://" + report + "#fn=" + exMain + "&tab=graph", "report-callgraph", ".graph svg g.node");

await browser.close();
