// browser_graph.test.mjs — the call graph a KCachegrind user could not read (issue 61), checked
// by what the page shows in Debian's chromium (headless, playwright-core) against the real
// `calltree serve` on corpus files:
// - on the -O2 cc1plus profile, the function with the largest graph opens with labels of at
//   least 10 px, itself in the pane;
// - the bird's-eye panner: a drag on it moves the view; the wheel and the keys zoom and pan;
// - caller / callee depth, node and call thresholds change the boxes and calls drawn (as the
//   API answers, the node threshold as the function list's shares) and the URL;
// - the direction switch lays the graph out left to right;
// - the function list's Location cell is cut with an ellipsis, its whole text a tooltip; the
//   Parts table stays within its pane.
// Screenshots go to --out as graph-NAME.png.
//
//   node web/tests/browser_graph.test.mjs --calltree build/calltree --chromium /usr/bin/chromium \
//        --corpus tests/corpus --out build/web/screenshots [--only NAME]
import { join } from "node:path";
import { assert, corpus, eq, page, run, serve, shot as harnessShot, test, waitRows } from "./harness.mjs";

const cc1plus = join(corpus, "vg-gxx-small-default.cc1plus.callgrind");
const threads = join(corpus, "vg-threads-separate-combined.callgrind");
const shot = (pg, name) => harnessShot(pg, "graph-" + name);
const noErrors = (pg) => eq(pg.errors.join("; "), "", "page errors");

const nodes = (pg) => pg.$$eval(".graph svg g.node", (els) => els.length);
const edges = (pg) => pg.$$eval(".graph svg g.edge", (els) => els.length);
const zoomShown = (pg) => pg.textContent("[data-testid=graph-zoom]");
/** Waits until the zoom shown is no longer `z`, and answers the new one (a number of %). */
const zoomAfter = async (pg, z) => {
  await pg.waitForFunction((z) => document.querySelector("[data-testid=graph-zoom]").textContent !== z, z);
  return parseInt(await zoomShown(pg));
};
const hash = (pg) => new URLSearchParams(new URL(pg.url()).hash.slice(1));
/** Waits until the graph drawn has `n` boxes (the answer to new controls laid out). */
const waitNodes = (pg, n) => pg.waitForFunction((n) => document.querySelectorAll(".graph svg g.node").length === n, n, { timeout: 20000 });
/** Sets a control of the graph's toolbar (a number box) to `v`. */
async function set(pg, label, v) {
  await pg.fill(`[data-testid="callgraph"] input[aria-label="${label}"]`, String(v));
  await pg.keyboard.press("Tab");
}
/** The size in CSS px of a box's label as drawn: Graphviz's font size (in the layout's units)
 * times the drawing's scale. */
const labelPx = (pg) =>
  pg.evaluate(() => {
    const svg = document.querySelector(".graph svg");
    const text = svg.querySelector("g.node text");
    return (parseFloat(text.getAttribute("font-size")) * svg.getBoundingClientRect().width) / svg.viewBox.baseVal.width;
  });

// Of the 40 costliest functions (no cycle), the one whose graph (the default depths and threshold) has the
// most boxes.
async function busiest(s) {
  let best = null;
  for (const r of (await s.api("functions?by=inclusive&limit=40")).rows) {
    if (r.kind !== "function") continue;
    const g = await s.api(`graph/${r.id}`);
    if (!best || g.nodes.length > best.g.nodes.length) best = { id: r.id, name: r.name, g };
  }
  return best;
}

test("the largest graph of cc1plus opens legible, the selected function in the pane", async ({ s, big }) => {
  assert(big.g.nodes.length >= 40, `a large graph: ${big.name} has ${big.g.nodes.length} boxes`);
  const pg = await page(s.url + `#fn=${big.id}&tab=graph`);
  await pg.waitForSelector(`.graph svg g.node#n${big.id}`, { timeout: 30000 });
  await pg.waitForTimeout(100);
  eq(await nodes(pg), big.g.nodes.length, "the boxes drawn");
  const px = await labelPx(pg);
  assert(px >= 9.9, `labels of ${px.toFixed(1)} px (zoom ${await zoomShown(pg)})`);
  const inside = await pg.evaluate((id) => {
    const p = document.querySelector("[data-testid=graph-pane]").getBoundingClientRect();
    const b = document.querySelector(`.graph svg g.node#n${id}`).getBoundingClientRect();
    return b.left >= p.left && b.right <= p.right && b.top >= p.top && b.bottom <= p.bottom;
  }, big.id);
  assert(inside, "the selected function's box is in the pane");
  await shot(pg, "cc1plus-open");
  noErrors(pg);
});

test("the panner: a drag on it moves the view; the wheel and keys zoom and pan", async ({ s, big }) => {
  const pg = await page(s.url + `#fn=${big.id}&tab=graph`);
  await pg.waitForSelector(`.graph svg g.node#n${big.id}`, { timeout: 30000 });
  await pg.waitForSelector("[data-testid=graph-panner] [data-testid=graph-viewport]");
  const scroll = () => pg.$eval("[data-testid=graph-pane]", (e) => [e.scrollLeft, e.scrollTop]);
  const viewport = () => pg.$eval("[data-testid=graph-viewport]", (e) => e.getBoundingClientRect().toJSON());
  const panner = await pg.$eval("[data-testid=graph-panner]", (e) => e.getBoundingClientRect().toJSON());
  // A drag from the viewport's middle to the panner's top left corner: the view goes there.
  const v0 = await viewport(), s0 = await scroll();
  await pg.mouse.move(v0.x + v0.width / 2, v0.y + v0.height / 2);
  await pg.mouse.down();
  await pg.mouse.move(panner.x + 3, panner.y + 3, { steps: 4 });
  await pg.mouse.up();
  const s1 = await scroll(), v1 = await viewport();
  assert(s1[0] < s0[0] || s1[1] < s0[1], `the drag scrolled the pane: ${s0} -> ${s1}`);
  assert(v1.x <= v0.x && v1.y <= v0.y && (v1.x < v0.x || v1.y < v0.y), `the viewport moved: ${JSON.stringify(v0)} -> ${JSON.stringify(v1)}`);
  await shot(pg, "panner");
  // The wheel over the pane zooms in (up) and out.
  const z0 = await zoomShown(pg);
  const pane = await pg.$eval("[data-testid=graph-pane]", (e) => e.getBoundingClientRect().toJSON());
  await pg.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  await pg.mouse.wheel(0, -200);
  await pg.waitForFunction((z) => document.querySelector("[data-testid=graph-zoom]").textContent !== z, z0);
  assert(parseInt(await zoomShown(pg)) > parseInt(z0), `the wheel zoomed in: ${z0} -> ${await zoomShown(pg)}`);
  const vz = await viewport();
  assert(vz.width < v1.width, "the panner's viewport shrank as the view zoomed in");
  // Keys, the pane focused: - zooms out, 0 fits the whole graph, + zooms in, → pans.
  await pg.focus("[data-testid=graph-pane]");
  const z1 = await zoomShown(pg);
  await pg.keyboard.press("-");
  assert((await zoomAfter(pg, z1)) < parseInt(z1), "- zoomed out");
  const z2 = await zoomShown(pg);
  await pg.keyboard.press("0");
  await zoomAfter(pg, z2);
  const whole = await pg.evaluate(() => {
    const p = document.querySelector("[data-testid=graph-pane]").getBoundingClientRect();
    const g = document.querySelector(".graph svg").getBoundingClientRect();
    return g.left >= p.left - 1 && g.right <= p.right + 1 && g.top >= p.top - 1 && g.bottom <= p.bottom + 1;
  });
  assert(whole, "0 fits the whole graph");
  eq(await pg.$$eval("[data-testid=graph-panner]", (e) => e.length), 0, "no panner when all of it is in view");
  await pg.click('button[aria-label="Actual size"]');
  await pg.waitForFunction(() => document.querySelector("[data-testid=graph-zoom]").textContent === "100%");
  await pg.focus("[data-testid=graph-pane]");
  const a0 = await scroll();
  await pg.keyboard.press("ArrowRight");
  await pg.keyboard.press("ArrowDown");
  const a1 = await scroll();
  assert(a1[0] > a0[0] && a1[1] > a0[1], `the arrows panned: ${a0} -> ${a1}`);
  await pg.keyboard.press("+");
  eq(await zoomAfter(pg, "100%"), 125, "+ zoomed in");
  eq(hash(pg).get("tab"), "graph", "the keys did not change tab");
  noErrors(pg);
});

test("depths and thresholds change what is drawn and the URL", async ({ s, big }) => {
  const pg = await page(s.url + `#fn=${big.id}&tab=graph`);
  await pg.waitForSelector(`.graph svg g.node#n${big.id}`, { timeout: 30000 });
  const n0 = await nodes(pg), e0 = await edges(pg);
  // Callers depth 0: only the callees' side.
  const noCallers = await s.api(`graph/${big.id}?up=0`);
  assert(noCallers.nodes.length < n0, "callers depth 0 has fewer functions");
  await set(pg, "Callers depth", 0);
  await waitNodes(pg, noCallers.nodes.length);
  eq(hash(pg).get("gup"), "0", "the URL's callers depth");
  await set(pg, "Callers depth", 2);
  await waitNodes(pg, n0);
  eq(hash(pg).get("gup"), null, "the default depth left out of the URL");
  // Callees depth 1.
  const down1 = await s.api(`graph/${big.id}?down=1`);
  await set(pg, "Callees depth", 1);
  await waitNodes(pg, down1.nodes.length);
  eq(hash(pg).get("gdown"), "1", "the URL's callees depth");
  await set(pg, "Callees depth", 2);
  await waitNodes(pg, n0);
  // The node threshold: functions of at least 2 % inclusive, the function list's share.
  const heavy = await s.api(`graph/${big.id}?node_min=0.02`);
  assert(heavy.nodes.length < n0 && heavy.nodes.length > 1, `a node threshold of 2 % leaves ${heavy.nodes.length} of ${n0}`);
  const list = await s.api("functions?by=inclusive&limit=2000");
  const ev = list.event ?? Object.keys(list.totals)[0];
  const share = new Map(list.rows.map((r) => [r.id, Number(r.inclusive[ev]) / Number(list.totals[ev])]));
  for (const n of heavy.nodes) if (n.id !== big.id) assert(share.get(n.id) >= 0.02, `${n.name} drawn at ${share.get(n.id)} of the total`);
  await set(pg, "Node threshold", 2);
  await waitNodes(pg, heavy.nodes.length);
  eq(hash(pg).get("gnode"), "2", "the URL's node threshold");
  const labels = await pg.$$eval(".graph svg g.node text:first-of-type", (els) => els.map((e) => e.textContent));
  eq(labels.length, heavy.nodes.length, "labels of the boxes drawn");
  await set(pg, "Node threshold", 0);
  await waitNodes(pg, n0);
  // The call threshold: calls of at least 3 %.
  const calls = await s.api(`graph/${big.id}?min=0.03`);
  assert(calls.edges.length < e0, `a call threshold of 3 % leaves ${calls.edges.length} of ${e0} calls`);
  await set(pg, "Cost threshold", 3);
  await waitNodes(pg, calls.nodes.length);
  eq(await edges(pg), calls.edges.length, "the calls drawn at 3 %");
  eq(hash(pg).get("gmin"), "3", "the URL's call threshold");
  // A link with them opens the same graph.
  const p2 = await page(s.url + `#fn=${big.id}&tab=graph&gup=1&gnode=2`);
  const both = await s.api(`graph/${big.id}?up=1&node_min=0.02`);
  await p2.waitForSelector(`.graph svg g.node#n${big.id}`, { timeout: 30000 });
  await waitNodes(p2, both.nodes.length);
  eq(await p2.inputValue('input[aria-label="Callers depth"]'), "1", "the depth from the URL");
  eq(await p2.inputValue('input[aria-label="Node threshold"]'), "2", "the node threshold from the URL");
  noErrors(pg);
  noErrors(p2);
});

test("the direction switch lays the graph out left to right", async ({ s, big }) => {
  const pg = await page(s.url + `#fn=${big.id}&tab=graph&gdown=1&gup=1`);
  await pg.waitForSelector(`.graph svg g.node#n${big.id}`, { timeout: 30000 });
  // A caller's box is above the selected function's top-down, left of it left-right.
  const caller = (await s.api(`graph/${big.id}?up=1&down=1`)).nodes.find((n) => n.depth < 0);
  assert(caller, "the function has a caller");
  const where = () =>
    pg.evaluate(([c, f]) => {
      const a = document.querySelector(`.graph svg g.node#n${c}`).getBoundingClientRect();
      const b = document.querySelector(`.graph svg g.node#n${f}`).getBoundingClientRect();
      return { dx: b.left + b.width / 2 - (a.left + a.width / 2), dy: b.top + b.height / 2 - (a.top + a.height / 2) };
    }, [caller.id, big.id]);
  const tb = await where();
  assert(tb.dy > 0, `top-down: the caller above: ${JSON.stringify(tb)}`);
  const svg0 = await pg.$eval(".graph svg", (e) => e.outerHTML.length);
  await pg.selectOption('select[aria-label="Layout direction"]', "lr");
  await pg.waitForFunction((n) => document.querySelector(".graph svg").outerHTML.length !== n, svg0);
  const lr = await where();
  assert(lr.dx > 0 && Math.abs(lr.dy) < lr.dx, `left-right: the caller on the left: ${JSON.stringify(lr)}`);
  eq(hash(pg).get("gdir"), "lr", "the URL's direction");
  await shot(pg, "left-right");
  noErrors(pg);
});

test("the Location cell is cut with an ellipsis, its whole text a tooltip", async ({ s }) => {
  // (at 1400 px the list is 644 px wide: the Location gives way, the numbers and names keep theirs)
  for (const width of [1500, 1400]) {
    const pg = await page(s.url, { viewport: { width, height: 800 } });
    await waitRows(pg, 30000);
    const cells = await pg.$$eval(".tbody .row .cell.loc", (els) =>
      els.map((e) => {
        const c = getComputedStyle(e);
        return { overflow: c.textOverflow, hidden: c.overflowX, wrap: c.whiteSpace, title: e.getAttribute("title") ?? "", text: e.textContent, cut: e.scrollWidth > e.clientWidth, right: e.getBoundingClientRect().right };
      }),
    );
    if (cells.length === 0 && width < 1500) {
      // (too narrow for more than a sliver of it: left out, its text in the name's tooltip)
      const tip = await pg.getAttribute('.tbody .row[data-index="0"] .cell.name', "title");
      assert(tip.includes("\n"), `at ${width} px, no Location column and no location in the name's tooltip: ${tip}`);
      continue;
    }
    assert(cells.length > 5, `at ${width} px, Location cells`);
    for (const c of cells) {
      eq(c.overflow, "ellipsis", "text-overflow of " + c.text);
      eq(c.hidden, "hidden", "overflow of " + c.text);
      assert(c.wrap === "nowrap" || c.wrap === "pre", "one line: " + c.wrap);
      assert(c.title.length >= c.text.length && c.title.includes(c.text.replace(/…$/, "")), `the tooltip ${c.title} holds ${c.text}`);
    }
    const list = await pg.$eval("section.list", (e) => e.getBoundingClientRect().right);
    for (const c of cells) assert(c.right <= list + 1, `at ${width} px, a Location cell past the list: ${c.right} > ${list}`);
    assert(cells.some((c) => c.cut), `at ${width} px, some Location is cut`);
    noErrors(pg);
  }
});

test("the Parts table stays within its pane", async () => {
  const t = await serve([threads], { cwd: corpus, waitMs: 60000 });
  try {
    const id = (await t.api("functions?by=inclusive&limit=1")).rows[0].id;
    const pg = await page(t.url + `#fn=${id}&tab=parts`, { viewport: { width: 1100, height: 700 } });
    await pg.waitForSelector('[data-testid="parts"] table');
    const r = await pg.evaluate(() => {
      const table = document.querySelector('[data-testid="parts"] table').getBoundingClientRect();
      const box = document.querySelector('[data-testid="parts"]');
      const pane = box.parentElement.getBoundingClientRect();
      return { table: table.right, pane: pane.right, box: box.getBoundingClientRect().right, scroll: getComputedStyle(box).overflowX };
    });
    assert(r.box <= r.pane + 1, `the Parts box within the pane: ${JSON.stringify(r)}`);
    assert(r.table <= r.pane + 1 || r.scroll === "auto", `the Parts table within its pane, or scrolled there: ${JSON.stringify(r)}`);
    await shot(pg, "parts");
    noErrors(pg);
  } finally {
    t.stop();
  }
});

await run({
  limitMs: 120000,
  setup: async () => {
    const s = await serve([cc1plus], { cwd: corpus, waitMs: 60000 });
    return { s, big: await busiest(s) };
  },
  cleanup: ({ s }) => s.stop(),
});
