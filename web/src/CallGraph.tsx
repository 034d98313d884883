// CallGraph.tsx — the call graph around the selected function (GET /api/v1/graph/ID), laid
// out by Graphviz's `dot` compiled to WebAssembly (@hpcc-js/wasm-graphviz), loaded with this
// module only when the view is first opened. Boxes are coloured by inclusive share; a cycle's
// members are drawn inside a cluster labelled `<cycle N>`; a click on a box selects it. The
// graph opens fitted to its pane (all of it in view, never above its own size) and stays
// fitted as the pane is resized, the selected function in the middle; −, +, Fit (all of it)
// and 100% zoom, a drag pans.
import { Graphviz } from "@hpcc-js/wasm-graphviz";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Graph } from "./api";
import { fmt, num, pct } from "./format";
import { navigate, type ViewState } from "./url";
import { useFetch } from "./useFetch";
import { filterParams, FilterNote } from "./StackFilters";

let graphviz: Promise<Graphviz> | null = null;

const STEPS = [0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2];

/** The layout's own size in CSS px (Graphviz writes points). */
function naturalSize(svg: SVGSVGElement): { w: number; h: number } {
  const px = (v: string | null) => (v && v.endsWith("pt") ? (parseFloat(v) * 96) / 72 : parseFloat(v ?? "0") || 0);
  return { w: px(svg.getAttribute("width")), h: px(svg.getAttribute("height")) };
}

function esc(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function short(name: string): string {
  return name.length > 60 ? name.slice(0, 28) + "…" + name.slice(-28) : name;
}

export function toDot(g: Graph, event: string): string {
  const total = num(g.totals[event]) || 1;
  const lines = [
    "digraph calltree {",
    '  graph [rankdir=TB, bgcolor="transparent", nodesep=0.25, ranksep=0.45, fontname="DejaVu Sans", fontsize=10];',
    '  node [shape=box, style="rounded,filled", fontname="DejaVu Sans", fontsize=10, color="#555555", margin="0.08,0.04"];',
    '  edge [fontname="DejaVu Sans", fontsize=9, color="#777777", fontcolor="#777777", arrowsize=0.6];',
  ];
  const cycles = new Map<number, number[]>();
  for (const n of g.nodes) {
    const share = num(n.inclusive[event]) / total;
    const light = 94 - Math.round(Math.min(1, Math.sqrt(share)) * 44);
    const fill = n.kind === "cycle" ? "#e8c8f0" : hslToHex(20, 85, light);
    const label = `${esc(short(n.name))}\\n${esc(pct(n.inclusive[event], g.totals[event]))} incl. · ${esc(pct(n.self[event], g.totals[event]))} self`;
    const extra = n.id === g.center || n.depth === 0 ? ", penwidth=2.5, color=\"#7a2bbf\"" : "";
    const node = `  n${n.id} [id="n${n.id}", label="${label}", fillcolor="${fill}", tooltip="${esc(n.name)}"${extra}];`;
    if (n.cycle) {
      if (!cycles.has(n.cycle)) cycles.set(n.cycle, []);
      cycles.get(n.cycle)!.push(lines.length);
    }
    lines.push(node);
  }
  // Cycle members inside a cluster of their own.
  for (const [c, idx] of cycles) {
    const members = idx.map((i) => lines[i]);
    for (const i of idx) lines[i] = "";
    lines.push(`  subgraph cluster_cycle${c} { label="<cycle ${c}>"; style="dashed,rounded"; color="#a040c0"; fontcolor="#a040c0";`);
    lines.push(...members.map((m) => "  " + m));
    lines.push("  }");
  }
  for (const e of g.edges) {
    const share = num(e.cost[event]) / total;
    const w = 1 + Math.min(4, share * 8);
    // (a recursive call's inclusive cost counts its recursion again: more than the total is shown as a count only)
    const label = share <= 1 ? `${esc(fmt(e.count))}×\\n${esc(pct(e.cost[event], g.totals[event]))}` : `${esc(fmt(e.count))}×`;
    lines.push(`  n${e.from} -> n${e.to} [label="${label}", penwidth=${w.toFixed(2)}];`);
  }
  lines.push("}");
  return lines.filter((l) => l !== "").join("\n");
}

function hslToHex(h: number, s: number, l: number): string {
  s /= 100;
  l /= 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1))))).toString(16).padStart(2, "0");
  return `#${f(0)}${f(8)}${f(4)}`;
}

export default function CallGraph({ fn, event, state }: { fn: number; event: string; state: ViewState }) {
  const [up, setUp] = useState(2);
  const [down, setDown] = useState(2);
  const [min, setMin] = useState(0.5);
  const q = useFetch<Graph>("graph/" + fn, { up, down, min: min / 100, sort: event, parts: state.parts, side: state.side === "old" ? "old" : undefined, ...filterParams(state) });
  const [svg, setSvg] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [ms, setMs] = useState(0);
  const pane = useRef<HTMLDivElement>(null);
  // "fit": the whole graph in the pane (at most its own size), as it opens; a number: that scale.
  const [zoom, setZoom] = useState<number | "fit">("fit");
  const [scale, setScale] = useState(1);
  // Scale the drawing, then bring the selected function to the middle of the pane.
  const layout = () => {
    const el = pane.current;
    const svg = el?.querySelector("svg") as SVGSVGElement | null;
    if (!el || !svg || !q.data) return;
    const nat = (svg as SVGSVGElement & { natural?: { w: number; h: number } }).natural ?? naturalSize(svg);
    (svg as SVGSVGElement & { natural?: { w: number; h: number } }).natural = nat;
    // (the pane's room less its padding and a scroll bar's width, which a fitted graph has not)
    const fit = Math.min(1, (el.clientWidth - 16) / nat.w, (el.clientHeight - 16) / nat.h);
    const k = zoom === "fit" ? Math.max(0.05, fit) : zoom;
    setScale(k);
    svg.style.width = nat.w * k + "px";
    svg.style.height = nat.h * k + "px";
    const node = svg.querySelector(`#n${q.data.center}`) as SVGGElement | null;
    if (!node) return;
    const b = node.getBoundingClientRect(), p = el.getBoundingClientRect();
    el.scrollLeft += b.left + b.width / 2 - (p.left + el.clientWidth / 2);
    el.scrollTop += b.top + b.height / 2 - (p.top + el.clientHeight / 2);
  };
  useLayoutEffect(layout, [svg, zoom]);
  // Fitted, it stays fitted when the pane changes size (the window, the list's splitter).
  useEffect(() => {
    const el = pane.current;
    if (!el || zoom !== "fit") return;
    let w = el.clientWidth, h = el.clientHeight;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth === w && el.clientHeight === h) return;
      (w = el.clientWidth), (h = el.clientHeight);
      layout();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [svg, zoom]);
  const step = (dir: 1 | -1) => {
    const i = STEPS.findIndex((z) => z >= scale - 1e-3);
    setZoom(dir > 0 ? STEPS[Math.min(STEPS.length - 1, (STEPS[i] > scale + 1e-3 ? i : i + 1))] : STEPS[Math.max(0, (i < 0 ? STEPS.length : i) - 1)]);
  };
  // A drag on the pane pans it (a click without moving still selects a box).
  const panned = useRef(false);
  const onPointerDown = (e: PointerEvent) => {
    const el = pane.current;
    if (!el || e.button !== 0) return;
    const x0 = e.clientX, y0 = e.clientY, l0 = el.scrollLeft, t0 = el.scrollTop;
    panned.current = false;
    const move = (m: PointerEvent) => {
      if (Math.abs(m.clientX - x0) + Math.abs(m.clientY - y0) > 4) panned.current = true;
      el.scrollLeft = l0 - (m.clientX - x0);
      el.scrollTop = t0 - (m.clientY - y0);
    };
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };
  useEffect(() => {
    if (!q.data) return;
    const g = q.data;
    let live = true;
    graphviz ??= Graphviz.load();
    graphviz.then(
      (gv) => {
        if (!live) return;
        const t0 = performance.now();
        try {
          setSvg(gv.dot(toDot(g, event)));
          setErr(null);
        } catch (e) {
          setErr(String(e));
        }
        setMs(performance.now() - t0);
      },
      (e) => setErr("Graphviz could not start: " + String(e)),
    );
    return () => void (live = false);
  }, [q.data, event]);
  return (
    <div class="graphview" data-testid="callgraph">
      <div class="toolbar">
        <label>
          Callers depth <input type="number" min={0} max={10} value={up} onChange={(e) => setUp(+(e.target as HTMLInputElement).value)} aria-label="Callers depth" />
        </label>
        <label>
          Callees depth <input type="number" min={0} max={10} value={down} onChange={(e) => setDown(+(e.target as HTMLInputElement).value)} aria-label="Callees depth" />
        </label>
        <label>
          Hide calls below <input type="number" min={0} max={100} step={0.1} value={min} onChange={(e) => setMin(+(e.target as HTMLInputElement).value)} aria-label="Cost threshold" />% of the total
        </label>
        <span class="zoom">
          <button title="zoom out" aria-label="Zoom out" onClick={() => step(-1)}>
            −
          </button>
          <button title="zoom in" aria-label="Zoom in" onClick={() => step(1)}>
            +
          </button>
          <button title="the whole graph in the pane" aria-label="Zoom to fit" class={zoom === "fit" ? "on" : ""} onClick={() => setZoom("fit")}>
            Fit
          </button>
          <button title="the layout's own size" aria-label="Actual size" onClick={() => setZoom(1)}>
            100%
          </button>
          <span class="dim" data-testid="graph-zoom">
            {Math.round(scale * 100)}%
          </span>
        </span>
        {q.data && (
          <span class="dim">
            {q.data.nodes.length} functions, {q.data.edges.length} calls{q.data.truncated ? " (cut at the node limit)" : ""} · laid out by Graphviz dot in {ms.toFixed(0)} ms
          </span>
        )}
      </div>
      {q.data && <FilterNote f={q.data.filter} event={event} state={state} />}
      {q.error && <div class="error">{q.error.message}</div>}
      {err && <div class="error">{err}</div>}
      {q.error ? null : svg ? (
        <div
          class="graph"
          ref={pane}
          data-testid="graph-pane"
          dangerouslySetInnerHTML={{ __html: svg }}
          onPointerDown={onPointerDown}
          onClick={(e) => {
            if (panned.current) return;
            const g = (e.target as Element).closest("g.node");
            const id = g?.id?.match(/^n(\d+)$/);
            if (id) navigate({ fn: Number(id[1]) });
          }}
        />
      ) : (
        !err && <div class="hint">Laying out the graph…</div>
      )}
    </div>
  );
}
