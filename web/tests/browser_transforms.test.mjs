// browser_transforms.test.mjs — the call-tree transforms of the stack views (Transforms.tsx,
// views/stack_transform.h) in a real browser (Debian's chromium, headless, playwright-core)
// against the real binary: the chip row, a frame's context menu adding a step, × undoing it,
// the URL keeping them in their order (transform=, repeated), and the flame graph's numbers: the
// total unchanged, the frames those of `calltree export --to=folded` with the same flags. On the
// recursion example (collapse recursion, focus on a call path; the two in either order, whose
// results differ) and the -O2 C++ profile (merge clones, collapse a library; an old link's
// merge_clones=1&collapse_object= meaning what it meant).
// The function list's rows merged as the frames are (clones, recursion levels), their costs
// the API's and the flame graph's, ≤ where an inclusive cost is an upper bound.
// Screenshots go to --out (transforms-recursion.png, transforms-clones.png, transforms-list.png).
//
//   node web/tests/browser_transforms.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --corpus tests/corpus --out build/web/screenshots [--only NAME]
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { assert, calltree, corpus, eq, page, run, serve, shot, test } from "./harness.mjs";

const recurse = join(corpus, "vg-recurse-default.callgrind");
const cc1 = join(corpus, "vg-gxx-small-default.cc1plus.callgrind");
const CLONE = /\.(constprop|isra|part|lto_priv)\.\d+|\.cold\b|\[clone \./;

/** export --to=folded's stacks (with flags): their total and the names of their frames. */
function folded(file, flags = []) {
  const r = spawnSync(calltree, ["export", "--to=folded", ...flags, file, "-o", "-"], { maxBuffer: 1 << 28 });
  eq(r.status, 0, "export " + flags.join(" ") + ": " + r.stderr);
  let total = 0n;
  const names = new Set();
  for (const l of r.stdout.toString().split("\n").filter(Boolean)) {
    const at = l.lastIndexOf(" ");
    total += BigInt(l.slice(at + 1));
    for (const n of l.slice(0, at).split(";")) names.add(n);
  }
  return { total, names };
}

/** The flame graph's answer as the page asked for it (the API with the page's parameters). */
const flameOf = async (s, params, exact = true) => {
  const q = new URLSearchParams(exact ? { min: "0", max_frames: "200000" } : {});
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
  return s.api("flame?" + q.toString());
};
/** The page's transform steps: from the URL, and the chips' labels in their order. */
const stepsOf = async (pg) => new URLSearchParams((await pg.evaluate(() => location.hash)).slice(1)).getAll("transform");
const chipsOf = (pg) => pg.$$eval('[data-testid="transforms"] .chip', (els) => els.map((e) => e.dataset.step + ". " + e.firstChild.textContent));
const rootSum = (d, event) => d.frames.depth.reduce((sum, depth, i) => (depth === 0 ? sum + BigInt(d.frames.total[event][i]) : sum), 0n);
/** Right-clicks the widest frame named `name` (a contextmenu event at its middle). */
async function rightClick(pg, name) {
  const ok = await pg.evaluate((n) => {
    const els = [...document.querySelectorAll('[data-testid="flame"] .frame')].filter((e) => e.textContent === n);
    if (!els.length) return false;
    const e = els.sort((a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width)[0];
    const r = e.getBoundingClientRect();
    e.dispatchEvent(new MouseEvent("contextmenu", { bubbles: true, cancelable: true, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2 }));
    return true;
  }, name);
  assert(ok, "a frame " + name);
  await pg.waitForSelector('[data-testid="frame-menu"]');
}
const framesShown = (pg) => pg.$$eval('[data-testid="flame"] .frame', (els) => els.map((e) => e.textContent).filter(Boolean));

test("collapse recursion from a frame's menu: a chip, the total kept, × undoes it", async () => {
  const s = await serve([recurse]);
  try {
    const pg = await page(s.url + "#tab=flame");
    await pg.waitForSelector('[data-testid="transforms"]');
    await pg.waitForSelector('[data-testid="flame"] .frame:text-is("fib")');
    const plain = await flameOf(s, {});
    const event = plain.event;
    // Right click on fib: the menu, then Collapse recursion of fib.
    await rightClick(pg, "fib");
    await pg.click('[data-testid="menu-collapse-recursion"]');
    await pg.waitForSelector('[data-testid="chip-collapse_recursion"]');
    assert((await pg.textContent('[data-testid="chip-collapse_recursion"]')).includes("Collapse recursion of fib"), "the chip names fib");
    eq((await stepsOf(pg)).join(" "), "collapse_recursion:^fib$", "in the URL");
    await pg.waitForFunction(() => ![...document.querySelectorAll('[data-testid="flame"] .frame')].some((e) => e.textContent === "fib'2"));
    const after = await flameOf(s, { collapse_recursion: "^fib$" });
    eq(rootSum(after, event), rootSum(plain, event), "the roots' sum (the total) kept");
    eq(String(after.filter.dropped[event]), "0", "nothing left out");
    const want = folded(recurse, ["--collapse-recursion=^fib$"]);
    eq(want.total, rootSum(plain, event), "export's total with the flag is the total");
    assert(!want.names.has("fib'2"), "export --collapse-recursion has no fib'2");
    for (const n of await framesShown(pg)) assert(!n.startsWith("fib'"), "a level of fib drawn: " + n);
    // A second step: focus on the call path main;fib from fib's menu.
    await rightClick(pg, "fib");
    await pg.click('[data-testid="menu-focus-path"]');
    await pg.waitForSelector('[data-testid="chip-focus_path"]');
    await pg.waitForSelector('[data-testid="filter-note"]');
    const steps = await stepsOf(pg);
    eq(steps.length, 2, "two steps: " + steps.join(" "));
    eq(steps[0], "collapse_recursion:^fib$", "the first step first");
    const path = steps[1].replace(/^focus_path:/, "");
    assert(path.endsWith(";main;fib"), "the path from the root: " + path);
    eq((await chipsOf(pg)).join(" | "), "1. Collapse recursion of fib | 2. Focus on fib (" + path.split(";").length + " deep)", "the chips in their order");
    const focused = await flameOf(s, { transform: steps });
    eq(focused.frames.depth.filter((d) => d === 0).length, 1, "one root: fib");
    eq(focused.functions[String(focused.frames.id[0])].name, "fib", "the root is fib");
    eq(BigInt(focused.filter.dropped[event]) + rootSum(focused, event), rootSum(plain, event), "kept + left out = the total");
    await shot(pg, "transforms-focus-path");
    // × on the focus chip: back to the collapsed tree; Undo is per step.
    await pg.click('[data-testid="unchip-focus_path"]');
    await pg.waitForFunction(() => !document.querySelector('[data-testid="chip-focus_path"]'));
    assert(await pg.$('[data-testid="chip-collapse_recursion"]'), "the first step stays");
    await pg.goBack();
    await pg.waitForSelector('[data-testid="chip-focus_path"]');
    eq((await stepsOf(pg)).length, 2, "Back: the two steps again");
    eq(pg.errors.join("; "), "", "page errors");

    // The order is the user's: focus on a path to fib'2 (under fib) and then collapse fib's
    // recursion makes fib'2 the root with fib'3... folded in; collapsing first leaves no fib'2
    // under fib for the focus: nothing shown, the note says so.
    const name = (d, i) => d.functions[String(d.frames.id[i])].name;
    let deep = -1;
    for (let i = 0; i < plain.frames.count && deep < 0; i++) if (name(plain, i) === "fib'2" && plain.frames.parent[i] >= 0 && name(plain, plain.frames.parent[i]) === "fib") deep = i;
    assert(deep >= 0, "a frame fib'2 under fib");
    const names = [];
    for (let f = deep; f >= 0; f = plain.frames.parent[f]) names.unshift(name(plain, f));
    const focusStep = "focus_path:" + names.join(";"), collapseStep = "collapse_recursion:^fib$";
    const hashOf = (steps) => "#tab=flame&" + steps.map((t) => "transform=" + encodeURIComponent(t)).join("&");
    const first = await flameOf(s, { transform: [focusStep, collapseStep] });
    eq(first.frames.depth.filter((d) => d === 0).length, 1, "focus, then collapse: one root");
    eq(name(first, 0), "fib'2", "focus, then collapse: the root is fib'2");
    for (let i = 1; i < first.frames.count; i++) assert(!/^fib('|$)/.test(name(first, i)), "fib under the root: " + name(first, i));
    eq(BigInt(first.filter.dropped[event]) + rootSum(first, event), rootSum(plain, event), "focus, then collapse: kept + left out = the total");
    const second = await flameOf(s, { transform: [collapseStep, focusStep] });
    eq(second.frames.count, 0, "collapse, then focus: nothing");
    eq(second.filter.unmatched.join(), "focus_path", "collapse, then focus: the path matched nothing");
    await pg.goto(s.url + hashOf([focusStep, collapseStep]));
    await pg.waitForSelector('[data-testid="flame"] .frame:text-is("fib\'2")');
    eq((await chipsOf(pg)).join(" | "), `1. Focus on fib'2 (${names.length} deep) | 2. Collapse recursion of fib`, "the chips: focus, then collapse");
    const shown = await framesShown(pg);
    assert(!shown.includes("fib'3") && !shown.includes("fib"), "no fib under fib'2 drawn: " + shown.join(","));
    await shot(pg, "transforms-order");
    await pg.goto(s.url + hashOf([collapseStep, focusStep]));
    await pg.waitForSelector('[data-testid="filter-note"]');
    await pg.waitForFunction(() => document.querySelector('[data-testid="filter-note"]').textContent.includes("focus_path matched no function"));
    eq((await chipsOf(pg)).join(" | "), `1. Collapse recursion of fib | 2. Focus on fib'2 (${names.length} deep)`, "the chips: collapse, then focus");
    eq(await pg.$$eval('[data-testid="flame"] .frame', (els) => els.length), 0, "no frame drawn");
    eq(pg.errors.join("; "), "", "page errors");
    // Every function's recursion collapsed (the + transform menu): cyc_a'2, cyc_b'2 are gone.
    const all = await page(s.url + "#tab=flame");
    await all.waitForSelector('[data-testid="flame"] .frame:text-is("cyc_a\'2")');
    await all.selectOption('[data-testid="transform-add"]', "recursion");
    await all.waitForSelector('[data-testid="chip-collapse_recursion"]');
    await all.waitForFunction(() => ![...document.querySelectorAll('[data-testid="flame"] .frame')].some((e) => e.textContent === "cyc_a'2"));
    const collapsed = await flameOf(s, { collapse_recursion: "." });
    eq(rootSum(collapsed, event), rootSum(plain, event), "the total kept, every recursion collapsed");
    await shot(all, "transforms-recursion");
  } finally {
    s.stop();
  }
});

/** The list's rows in the DOM (those in view): [name cell, inclusive cell]. */
const listRows = (pg) => pg.$$eval("section.list .row", (els) => els.map((e) => [e.querySelector(".cell.name")?.textContent ?? "", e.querySelector(".cell.incl")?.textContent ?? ""]));
/** A cost cell's number ("1,234  12.3%" is 1234), and whether it is marked an upper bound. */
const costOf = (cell) => ({ upper: cell.startsWith("≤"), n: BigInt(cell.replace(/^≤ /, "").split("  ")[0].replace(/\D/g, "") || "0") });

test("the function list follows the transforms: merged rows, their sums, ≤ an upper bound", async () => {
  const s = await serve([recurse]);
  try {
    const q = "functions?cycles=no&limit=5000";
    const plain = await s.api(q);
    const event = plain.events[0];
    const levels = plain.rows.filter((r) => r.name.startsWith("fib'"));
    const fib = plain.rows.find((r) => r.name === "fib");
    assert(levels.length > 0 && fib, "fib and its levels");
    const step = "collapse_recursion:^fib$";
    const merged = await s.api(q + "&transform=" + encodeURIComponent(step));
    eq(merged.transforms.functions_merged, levels.length, "the levels merged");
    const row = merged.rows.find((r) => r.name === "fib");
    eq(row.functions, levels.length + 1, "fib's row holds its levels");
    const sum = (rows, k) => rows.reduce((t, r) => t + BigInt(r[k][event]), 0n);
    eq(BigInt(row.self[event]), sum([fib, ...levels], "self"), "the row's self cost: the levels' summed");
    eq(row.inclusive[event], fib.inclusive[event], "its inclusive cost: fib's own (exact)");
    eq(row.inclusive_exact, true, "exact");
    eq(sum(merged.rows, "self"), sum(plain.rows, "self"), "the self costs still sum to the total");

    // The page: the note, the row with its count, its inclusive cost the API's; no level left.
    const pg = await page(s.url + "#tab=flame&transform=" + encodeURIComponent(step));
    await pg.waitForSelector('[data-testid="list-transforms"]');
    const note = await pg.textContent('[data-testid="list-transforms"]');
    assert(note.includes(`${levels.length} function${levels.length === 1 ? "" : "s"} merged into the row of`), "the note: " + note);
    await pg.waitForFunction(() => [...document.querySelectorAll("section.list .row .cell.name")].some((e) => e.textContent.startsWith("fib  [")));
    const rows = await listRows(pg);
    for (const [n] of rows) assert(!n.startsWith("fib'"), "a level of fib in the list: " + n);
    const [name, incl] = rows.find(([n]) => n.startsWith("fib  ["));
    eq(name, `fib  [${levels.length + 1} functions]`, "fib's row names its functions");
    eq(costOf(incl).n, BigInt(fib.inclusive[event]), "fib's row: the inclusive cost shown");
    eq(costOf(incl).upper, false, "not marked an upper bound");
    await shot(pg, "transforms-list");

    // Every recursion collapsed: cyc_a'2, called by cyc_c, is in cyc_a's row, whose inclusive
    // cost then counts cyc_a'2 twice: marked ≤, its tooltip says why.
    const every = await s.api(q + "&transform=" + encodeURIComponent("collapse_recursion:."));
    const cyc = every.rows.find((r) => r.name === "cyc_a");
    eq(cyc.inclusive_exact, false, "cyc_a's row: an upper bound");
    await pg.goto(s.url + "#tab=flame&filter=" + encodeURIComponent("^cyc_a") + "&transform=" + encodeURIComponent("collapse_recursion:."));
    await pg.waitForFunction(() => [...document.querySelectorAll("section.list .row .cell.name")].some((e) => e.textContent.startsWith("cyc_a  [")));
    const [, cycIncl] = (await listRows(pg)).find(([n]) => n.startsWith("cyc_a  ["));
    eq(costOf(cycIncl).upper, true, "marked ≤: " + cycIncl);
    eq(costOf(cycIncl).n, BigInt(cyc.inclusive[event]), "cyc_a's row: the API's number");
    assert((await pg.getAttribute("section.list .row .cell.incl", "title") ?? "").includes("upper bound"), "the tooltip");
    // A focus on a call path: the list says it does not apply it.
    await pg.goto(s.url + "#tab=flame&transform=" + encodeURIComponent("focus_path:main"));
    await pg.waitForSelector('[data-testid="list-transforms"]');
    assert((await pg.textContent('[data-testid="list-transforms"]')).includes("not applied to the list"), "the note on the focus");
    eq(pg.errors.join("; "), "", "page errors");
  } finally {
    s.stop();
  }
});

test("merge clones and collapse a library on the -O2 C++ profile: names and total", async () => {
  const s = await serve([cc1], { waitMs: 60000 });
  try {
    const plain = await flameOf(s, {}, false);
    const event = plain.event;
    const pg = await page(s.url + "#tab=flame");
    await pg.waitForSelector('[data-testid="flame"] .frame');
    await pg.selectOption('[data-testid="transform-add"]', "merge");
    await pg.waitForSelector('[data-testid="chip-merge_clones"]');
    const merged = await flameOf(s, { merge_clones: "1" }, false);
    eq(rootSum(merged, event), rootSum(plain, event), "total kept");
    assert([...folded(cc1).names].some((n) => CLONE.test(n)), "clones in the plain stacks");
    for (const f of Object.values(merged.functions)) assert(!CLONE.test(f.name), "a clone left: " + f.name);
    assert(merged.frames.count <= plain.frames.count, `no more frames: ${merged.frames.count} of ${plain.frames.count}`);
    await pg.waitForFunction(() => ![...document.querySelectorAll('[data-testid="flame"] .frame')].some((e) => /\.(constprop|isra|part)\.\d/.test(e.textContent)));
    // The list: each clone in its function's row or named by it (here GCC kept no code of
    // the functions cloned: unlink_chunk.constprop.0 is unlink_chunk's row), none of its own.
    await pg.waitForSelector('[data-testid="list-transforms"]');
    for (const [n] of await listRows(pg)) assert(!CLONE.test(n), "a clone's row in the list: " + n);
    const clones = "functions?limit=5000&cycles=no&filter=" + encodeURIComponent(CLONE.source);
    const listPlain = await s.api(clones), listMerged = await s.api(clones + "&transform=merge_clones");
    assert(listPlain.total_rows > 0, "clones in the plain list");
    eq(listMerged.total_rows, 0, "no row of a clone's name in the list with merge_clones");
    assert(listMerged.transforms.rows_renamed > 0, "rows named by their function");
    const allPlain = await s.api("functions?limit=1"), allMerged = await s.api("functions?limit=1&transform=merge_clones");
    eq(allMerged.total_rows, allPlain.total_rows - allMerged.transforms.functions_merged, "the list's rows: one per function");
    const note = await pg.textContent('[data-testid="list-transforms"]');
    assert(note.includes(`${listMerged.transforms.rows_renamed} rows of one function named by their function`), "the list's note: " + note);
    const want = folded(cc1, ["--merge-clones"]);
    eq(want.total, rootSum(plain, event), "export --merge-clones's total");
    // Collapse libc from a libc frame's menu.
    const libc = Object.values(plain.functions).find((f) => f.object.includes("libc.so"));
    assert(libc, "a libc function");
    const ob = await flameOf(s, { merge_clones: "1", collapse_object: "libc\\.so" }, false);
    eq(rootSum(ob, event), rootSum(plain, event), "total kept with a library collapsed");
    assert(Object.values(ob.functions).some((f) => f.name.includes("libc.so")), "a frame named by libc");
    // A link of before the order was kept: its transforms in the server's fixed order, as they
    // were (merge clones, then collapse the object), whatever their order in the link.
    await pg.goto(s.url + "#tab=flame&collapse_object=" + encodeURIComponent("libc\\.so") + "&merge_clones=1");
    await pg.waitForSelector('[data-testid="chip-collapse_object"]');
    await pg.waitForSelector('[data-testid="chip-merge_clones"]');
    eq((await chipsOf(pg)).join(" | "), "1. Merge clones | 2. Collapse library libc\\.so", "an old link's steps, in the fixed order");
    const asSteps = await flameOf(s, { transform: ["merge_clones", "collapse_object:libc\\.so"] }, false);
    eq(asSteps.frames.count, ob.frames.count, "the old parameters are these steps: frames");
    eq(rootSum(asSteps, event), rootSum(ob, event), "the old parameters are these steps: total");
    await pg.waitForSelector('[data-testid="flame"] .frame');
    await shot(pg, "transforms-clones");
    eq(pg.errors.join("; "), "", "page errors");
  } finally {
    s.stop();
  }
});

await run({ limitMs: 180000 });
