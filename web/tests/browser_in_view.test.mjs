// browser_in_view.test.mjs — what the page keeps in view (issue 67, the page), each checked by
// what Debian's chromium (headless, playwright-core) shows of the real `calltree serve` on
// corpus profiles:
// - a frame's context menu, opened on a root frame at the window's bottom or by its right
//   edge, has every item on screen (Transforms.tsx);
// - a control-flow graph of 180 blocks (constrain_operands of the -O2 cc1plus profile, whose
//   loops nest its jumps back in 56 lanes left of the blocks) opens with its blocks in view,
//   the scroll bars of its box on screen (ControlFlow.tsx);
// - the list beside two panes (the split view) and in a 1000 px window shows 30 characters of
//   the names or more, the costs' shares whole beside them (FunctionList.tsx);
// - the call graph's panner goes once a graph all in view follows a large one (Panner.tsx);
// - a caller followed (a click, or Enter on its row) is marked in the list, scrolled to
//   (FunctionList.tsx, the API's locate=).
// Screenshots go to --out as inview-NAME.png.
//
//   node web/tests/browser_in_view.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --corpus tests/corpus --out build/web/screenshots [--only NAME]
import { join } from "node:path";
import { assert, corpus, eq, page, run, serve as startServe, shot as harnessShot, test, waitRows as waitFirstRow } from "./harness.mjs";

const small = join(corpus, "vg-gxx-small-default.cc1plus.callgrind");
const big = join(corpus, "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz");
// (the big cc1plus profile takes a while to load on a loaded machine: a minute for its URL and
// its list)
const serve = (args) => startServe(args, { waitMs: 60000 });
const waitRows = (pg) => waitFirstRow(pg, 60000);
const shot = (pg, name) => harnessShot(pg, "inview-" + name);
const noErrors = (pg) => eq(pg.errors.join("; "), "", "page errors");
/** The id of the function named exactly `name`. */
const idOf = async (s, name) => {
  const rows = (await s.api("functions?filter=" + encodeURIComponent("^" + name.replace(/[()*]/g, "\\$&") + "$") + "&limit=2")).rows;
  eq(rows.length, 1, "one function named " + name);
  return rows[0].id;
};

/** Whether the rectangle `r` lies within `box` (client px; 0.5 px of rounding). */
const within = (r, box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;

// --- a frame's menu on screen ---------------------------------------------------------------------
/** Right-clicks (the mouse's right button) at (x, y) and answers the menu's items: their text
 * and client rectangles, and the window's. */
async function menuAt(pg, x, y) {
  await pg.mouse.click(x, y, { button: "right" });
  await pg.waitForSelector('[data-testid="frame-menu"]');
  return pg.evaluate(() => ({
    items: [...document.querySelectorAll('[data-testid="frame-menu"] [role="menuitem"]')].map((e) => ({ text: e.textContent, ...e.getBoundingClientRect().toJSON() })),
    window: { left: 0, top: 0, right: innerWidth, bottom: innerHeight },
  }));
}

test("a frame's menu: all five items on screen, from a root frame at the window's bottom or its right edge", async () => {
  const s = await serve([small]);
  try {
    const pg = await page(s.url + "#tab=flame", { viewport: { width: 1000, height: 800 } });
    await waitRows(pg);
    await pg.waitForSelector('[data-testid="flame"] .frame');
    await pg.waitForTimeout(300);
    // The flame graph's lowest frame (a root), scrolled to the window's bottom edge.
    const root = await pg.evaluate(() => {
      const e = [...document.querySelectorAll('[data-testid="flame"] .frame')].sort((a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom)[0];
      e.scrollIntoView({ block: "end" });
      const r = e.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, bottom: r.bottom };
    });
    assert(root.bottom > 780, "the root frame at the window's bottom: " + root.bottom);
    const m = await menuAt(pg, root.x, root.y);
    eq(m.items.length, 5, "the menu's items (the frame has an object: collapse library)");
    for (const i of m.items) assert(within(i, m.window), `on screen: ${i.text} at ${Math.round(i.top)}..${Math.round(i.bottom)} of a window ${m.window.bottom} high`);
    // Opened upwards from the pointer: its bottom at the pointer.
    const bottom = Math.max(...m.items.map((i) => i.bottom));
    assert(bottom <= root.y + 8 && bottom > root.y - 20, `the menu ends at the pointer (${root.y}): ${bottom}`);
    await shot(pg, "menu-bottom");
    // Its items work where they are: one adds its transform.
    await pg.click('[data-testid="menu-collapse-recursion"]');
    await pg.waitForSelector('[data-testid="chip-collapse_recursion"]');
    // By the window's right edge, half way down: the menu to the left of the pointer.
    await pg.evaluate(() => window.scrollTo(0, 0));
    const right = await pg.evaluate(() => {
      const f = [...document.querySelectorAll('[data-testid="flame"] .frame')].filter((e) => e.getBoundingClientRect().right > innerWidth - 40 && e.getBoundingClientRect().top > 300 && e.getBoundingClientRect().bottom < 600 && e.dataset.fn)[0];
      const r = f.getBoundingClientRect();
      return { x: Math.min(innerWidth - 12, r.right - 4), y: r.top + r.height / 2 };
    });
    const m2 = await menuAt(pg, right.x, right.y);
    assert(m2.items.length >= 4, "the menu's items: " + m2.items.length);
    for (const i of m2.items) assert(within(i, m2.window), `on screen: ${i.text} at ${Math.round(i.left)}..${Math.round(i.right)} of a window ${m2.window.right} wide`);
    await shot(pg, "menu-right");
    noErrors(pg);
  } finally {
    s.stop();
  }
});

// --- the big profile: control flow, the list's names, the panner, a caller followed ---------------
test("control flow: 180 blocks open with the blocks in view, the box's scroll bars on screen", async ({ b }) => {
  const id = await idOf(b, "constrain_operands(int, unsigned long)");
  const cfg = await b.api("cfg/" + id);
  eq(cfg.cfg[0]?.status, "ok", "objdump read cc1plus (/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus, the profile's): " + cfg.cfg[0]?.message);
  const o = cfg.cfg[0];
  assert(o.blocks.length >= 170, "a function of 180 blocks: " + o.blocks.length);
  for (const width of [1000, 1500]) {
    const pg = await page(b.url + `#fn=${id}&tab=asm&flow=1`, { viewport: { width, height: 800 } });
    await pg.waitForSelector('[data-testid="cfg-graph"] .cfgblock', { timeout: 60000 });
    await pg.waitForTimeout(200);
    const m = await pg.evaluate(() => {
      const body = document.querySelector(".cfgbody");
      const box = body.getBoundingClientRect();
      // (the box's inside: without its border and scroll bars)
      const inside = { left: box.left + body.clientLeft, top: box.top + body.clientTop, right: box.left + body.clientLeft + body.clientWidth, bottom: box.top + body.clientTop + body.clientHeight };
      const blocks = [...document.querySelectorAll('[data-testid="cfg-graph"] .cfgblock rect')].map((e) => e.getBoundingClientRect().toJSON());
      return { inside, box: box.toJSON(), blocks, window: { left: 0, top: 0, right: innerWidth, bottom: innerHeight }, lanes: body.scrollLeft };
    });
    eq(m.blocks.length, o.blocks.length, "the blocks drawn");
    // Every block in the box's height at its left and right: in view.
    const seen = m.blocks.filter((r) => r.bottom > m.inside.top && r.top < m.inside.bottom);
    assert(seen.length >= 1, "blocks in the box's height");
    for (const r of seen) assert(r.left >= m.inside.left - 0.5 && r.right <= m.inside.right + 0.5, `a block in view: ${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(m.inside.left)}..${Math.round(m.inside.right)} (${width} px)`);
    assert(m.lanes > 0, "the lanes of the loops on the blocks' left scrolled past");
    assert(within(m.box, m.window), `the graph's box on screen (its scroll bars in reach): ${JSON.stringify(m.box)}`);
    await shot(pg, "cfg-" + width);
    noErrors(pg);
  }
});

/** What the list shows of its first rows' names: the name cell's text and the width of it
 * within the list (px), the width of a character, the cost cells cut or not. */
const namesShown = (pg) =>
  pg.evaluate(() => {
    const list = document.querySelector("section.list").getBoundingClientRect();
    const ch = (() => {
      const c = document.createElement("canvas").getContext("2d");
      c.font = getComputedStyle(document.querySelector(".tbody .row .cell.name")).font;
      return c.measureText("0123456789").width / 10;
    })();
    const rows = [...document.querySelectorAll(".tbody .row")].filter((r) => r.querySelector(".cell.name")).slice(0, 20);
    return {
      ch,
      names: rows.map((r) => {
        const n = r.querySelector(".cell.name"), b = n.getBoundingClientRect();
        return { text: n.textContent, full: n.title.split("\n")[0], inList: Math.min(b.right, list.right) - Math.max(b.left, list.left) - 12 };
      }),
      costs: rows.flatMap((r) => [...r.querySelectorAll(".cell.incl, .cell.self")].map((c) => ({ text: c.textContent, title: c.title, cut: c.scrollWidth > c.clientWidth }))),
    };
  });

test("the list beside two panes and in a 1000 px window: 30 characters of the names in view", async ({ b }) => {
  const id = await idOf(b, "constrain_operands(int, unsigned long)");
  for (const [name, url, viewport] of [
    ["split", `#fn=${id}&tab=calls&tab2=graph`, { width: 1500, height: 900 }],
    ["1000", `#fn=${id}&tab=calls`, { width: 1000, height: 800 }],
  ]) {
    const pg = await page(b.url + url, { viewport });
    await waitRows(pg);
    if (name === "split") await pg.waitForSelector('.pane[data-pane="2"]');
    await pg.waitForTimeout(300);
    const m = await namesShown(pg);
    assert(m.names.length >= 10, "rows shown");
    for (const n of m.names) {
      const want = Math.min(30, n.full.length);
      assert(n.inList >= want * m.ch - 1, `${name}: ${Math.floor(n.inList / m.ch)} characters of ${n.full} in the list, not ${want}`);
      assert(n.text.length >= want, `${name}: the name's text ${JSON.stringify(n.text)} of ${n.full}`);
    }
    // The costs beside them: their shares whole, each cost's whole text its tooltip.
    const cut = m.costs.filter((c) => c.cut);
    eq(cut.length, 0, `${name}: costs cut: ` + cut.slice(0, 3).map((c) => c.text).join(" | "));
    for (const c of m.costs) {
      assert(/^(≤ )?\d+(\.\d+)?%$/.test(c.text.trim()), `${name}: a share: ${c.text}`);
      assert(/^(≤ )?[\d,]+ +\d+(\.\d+)?%$/.test(c.title), `${name}: the cost in its tooltip: ${c.title}`);
    }
    await shot(pg, "names-" + name);
    noErrors(pg);
  }
});

test("the panner goes once a graph all in view follows a large one", async ({ b }) => {
  // Of the 40 costliest functions, the one of the largest graph, and one of at most 3 boxes.
  let large = null, tiny = null;
  for (const r of (await b.api("functions?by=inclusive&limit=40")).rows) {
    if (r.kind !== "function") continue;
    const g = await b.api(`graph/${r.id}`);
    if (!large || g.nodes.length > large.n) large = { id: r.id, n: g.nodes.length };
    if (!tiny && g.nodes.length <= 3 && g.nodes.length >= 2) tiny = { id: r.id, n: g.nodes.length };
  }
  for (const r of tiny ? [] : (await b.api("functions?limit=200")).rows) {
    const g = await b.api(`graph/${r.id}`);
    if (g.nodes.length <= 3 && g.nodes.length >= 2) {
      tiny = { id: r.id, n: g.nodes.length };
      break;
    }
  }
  assert(large && large.n >= 40 && tiny, `a large graph (${large?.n} boxes) and one of 3 at most`);
  const pg = await page(b.url + `#fn=${large.id}&tab=graph`);
  await pg.waitForSelector(`.graph svg g.node#n${large.id}`, { timeout: 30000 });
  await pg.waitForSelector("[data-testid=graph-panner]");
  // The small graph, selected as a link selects it (the URL's fn=).
  await pg.evaluate((id) => (location.hash = location.hash.replace(/fn=\d+/, "fn=" + id)), tiny.id);
  await pg.waitForSelector(`.graph svg g.node#n${tiny.id}`, { timeout: 30000 });
  await pg.waitForFunction((n) => document.querySelectorAll(".graph svg g.node").length === n, tiny.n);
  await pg.waitForTimeout(300);
  const all = await pg.evaluate(() => {
    const p = document.querySelector("[data-testid=graph-pane]").getBoundingClientRect();
    const g = document.querySelector(".graph svg").getBoundingClientRect();
    return g.left >= p.left - 1 && g.right <= p.right + 1 && g.top >= p.top - 1 && g.bottom <= p.bottom + 1;
  });
  assert(all, "the small graph all in view");
  await shot(pg, "panner-small");
  eq(await pg.$$eval("[data-testid=graph-panner]", (e) => e.length), 0, "no panner over a graph all in view");
  // And back: the large graph's panner again.
  await pg.goBack();
  await pg.waitForSelector(`.graph svg g.node#n${large.id}`, { timeout: 30000 });
  await pg.waitForSelector("[data-testid=graph-panner]");
  noErrors(pg);
});

/** Every row of the list in the page's order (by self cost): their ids. */
async function order(s) {
  const ids = [];
  for (let offset = 0; ; offset += 5000) {
    const a = await s.api(`functions?limit=5000&offset=${offset}`);
    ids.push(...a.rows.map((r) => r.id));
    if (ids.length >= a.total_rows) return ids;
  }
}
/** The list's selected row: its index, its name, whether it is within the list's box. */
const selectedRow = (pg) =>
  pg.evaluate(() => {
    const rows = [...document.querySelectorAll(".tbody .row.selected")];
    const body = document.querySelector(".tbody").getBoundingClientRect();
    return rows.map((r) => {
      const b = r.getBoundingClientRect();
      return { index: Number(r.dataset.index), name: r.querySelector(".cell.name")?.title.split("\n")[0], inView: b.top >= body.top - 0.5 && b.bottom <= body.bottom + 0.5 };
    });
  });

test("a caller followed (a click, Enter on its row): its row marked in the list and in view", async ({ b }) => {
  const ids = await order(b);
  // A function among the list's first rows whose caller is far below them (past its first
  // page of 200 rows), whose caller is in turn called from far away.
  let from = null;
  for (const id of ids.slice(0, 40)) {
    const d = await b.api(`function/${id}`);
    const c = d.callers.find((c) => ids.indexOf(c.id) > 400);
    if (c) {
      from = { d, caller: c };
      break;
    }
  }
  assert(from, "a function of the first rows with a caller past row 400");
  const pg = await page(b.url + `#fn=${from.d.id}&tab=calls`);
  await waitRows(pg);
  await pg.waitForSelector('[aria-label="Callers"] tbody tr');
  // A click on the caller's name.
  const row = from.d.callers.indexOf(from.caller);
  await pg.click(`[aria-label="Callers"] tbody tr:nth-child(${row + 1}) a.fn`);
  const at = ids.indexOf(from.caller.id);
  await pg.waitForFunction((i) => document.querySelector(`.tbody .row.selected[data-index="${i}"]`), at, { timeout: 20000 });
  await pg.waitForTimeout(200);
  eq(JSON.stringify(await selectedRow(pg)), JSON.stringify([{ index: at, name: from.caller.name, inView: true }]), "the caller's row, marked and in view");
  await shot(pg, "caller-followed");
  // Its own first caller far from it, by the keys: c, then Enter on the row.
  const d2 = await b.api(`function/${from.caller.id}`);
  const next = d2.callers.find((c) => Math.abs(ids.indexOf(c.id) - at) > 60);
  assert(next, `a caller of ${from.caller.name} 60 rows from it or more`);
  {
    await pg.waitForSelector('[data-testid="selected-name"]');
    await pg.waitForFunction((n) => document.querySelector('[data-testid="selected-name"]').title === n, from.caller.name);
    await pg.focus(`[aria-label="Callers"] tbody tr:nth-child(${d2.callers.indexOf(next) + 1})`);
    await pg.keyboard.press("Enter");
    const at2 = ids.indexOf(next.id);
    await pg.waitForFunction((i) => document.querySelector(`.tbody .row.selected[data-index="${i}"]`), at2, { timeout: 20000 });
    await pg.waitForTimeout(200);
    eq(JSON.stringify(await selectedRow(pg)), JSON.stringify([{ index: at2, name: next.name, inView: true }]), "Enter: the caller's row, marked and in view");
  }
  noErrors(pg);
});

// (The big profile is served once for the tests that take it.)
await run({
  limitMs: 180000,
  setup: async () => ({ b: await serve([big]) }),
  cleanup: ({ b }) => b.stop(),
});
