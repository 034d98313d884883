// CallGraph.tsx — the call graph around the selected function (GET /api/v1/graph/ID), laid
// out by Graphviz's `dot` compiled to WebAssembly (@hpcc-js/wasm-graphviz), loaded with this
// module only when the view is first opened (the DOT text: graphDot.ts). KCachegrind's controls:
// caller and callee depth, node and call thresholds (shares of the program total, computed by
// the server), top-down or left-right; all kept in the URL. The graph opens at a scale where its
// labels stay legible (all of it when that fits, else its width, else 100 %), the selected
// function in the middle; the wheel and + − 0 zoom, a drag and the arrows pan, and a
// bird's-eye panner (Panner.tsx) shows where the view is. A click on a box selects it.
import { Graphviz } from "@hpcc-js/wasm-graphviz";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Graph, Params } from "./api";
import { LABEL_PT, toDot } from "./graphDot";
import Panner, { centreAt } from "./Panner";
import { navigate, type ViewState } from "./url";
import { useFetch } from "./useFetch";
import { filterParams, FilterNote } from "./StackFilters";

let graphviz: Promise<Graphviz> | null = null;

const MIN_LABEL_PX = 10; // the smallest label the graph opens with, in CSS px
const MIN_SCALE = 0.05, MAX_SCALE = 4, STEP = 1.25, PAN = 60;

/** The layout's own size in CSS px (Graphviz writes points). */
function naturalSize(svg: SVGSVGElement): { w: number; h: number } {
  const px = (v: string | null) => (v && v.endsWith("pt") ? (parseFloat(v) * 96) / 72 : parseFloat(v ?? "0") || 0);
  return { w: px(svg.getAttribute("width")), h: px(svg.getAttribute("height")) };
}

const clampScale = (k: number) => Math.max(MIN_SCALE, Math.min(MAX_SCALE, k));
/** A percentage typed in a threshold's box, as the URL keeps it ("" for anything else). */
const percent = (v: string) => (/^\d+(\.\d+)?$/.test(v.trim()) && Number(v) <= 100 ? String(Number(v)) : "");

export default function CallGraph({ fn, event, state }: { fn: number; event: string; state: ViewState }) {
  const { gup: up, gdown: down, gnode, gmin, gdir } = state;
  const params: Params = { up, down, min: Number(gmin) / 100, sort: event, parts: state.parts, side: state.side === "old" ? "old" : undefined, ...filterParams(state) };
  // (only when set: the default request is the one a report holds)
  if (Number(gnode) > 0) params.node_min = Number(gnode) / 100;
  const q = useFetch<Graph>("graph/" + fn, params);
  const [svg, setSvg] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [ms, setMs] = useState(0);
  const pane = useRef<HTMLDivElement | null>(null);
  const [paneEl, setPaneEl] = useState<HTMLDivElement | null>(null);
  const paneRef = useCallback((el: HTMLDivElement | null) => {
    pane.current = el;
    setPaneEl(el);
  }, []);
  const [scale, setScale] = useState(1);
  const k = useRef(1);
  const size = useRef({ w: 0, h: 0 });
  // Bumped once a graph is laid out and zoomed: the panner is drawn again of it. (Its size is
  // a ref, and a graph opening at the scale of the one before changes no state: the panner
  // stayed the previous graph's, over a graph of 3 boxes all in view.)
  const [, setLaidOut] = useState(0);
  // The opening scale is kept as the pane changes size, until the user zooms or pans.
  const opening = useRef(true);
  const drawn = () => {
    const el = pane.current;
    const s = el?.querySelector("svg") as SVGSVGElement | null;
    return el && s ? { el, s } : null;
  };
  /** Zooms to `next`, the point under (x, y) (client px; the pane's middle by default) kept still. */
  const zoomTo = (next: number, x?: number, y?: number) => {
    const d = drawn();
    if (!d) return;
    const { el, s } = d;
    const p = el.getBoundingClientRect();
    const ax = x ?? p.left + el.clientLeft + el.clientWidth / 2, ay = y ?? p.top + el.clientTop + el.clientHeight / 2;
    const b = s.getBoundingClientRect();
    const u = (ax - b.left) / k.current, v = (ay - b.top) / k.current;
    k.current = next;
    setScale(next);
    s.style.width = size.current.w * next + "px";
    s.style.height = size.current.h * next + "px";
    const a = s.getBoundingClientRect();
    el.scrollLeft += a.left + u * next - ax;
    el.scrollTop += a.top + v * next - ay;
  };
  const zoomBy = (f: number, x?: number, y?: number) => {
    opening.current = false;
    zoomTo(clampScale(k.current * f), x, y);
  };
  /** The whole graph in the pane (at most its own size). */
  const fitScale = () => {
    const el = pane.current!;
    return clampScale(Math.min(1, (el.clientWidth - 16) / size.current.w, (el.clientHeight - 16) / size.current.h));
  };
  const fit = () => {
    opening.current = false;
    zoomTo(fitScale());
  };
  const actual = () => {
    opening.current = false;
    zoomTo(1);
    centre();
  };
  const centre = () => {
    const d = drawn();
    const node = d?.s.querySelector(`#n${q.data?.center}`) as SVGGElement | null;
    if (!d || !node) return;
    const b = node.getBoundingClientRect(), s = d.s.getBoundingClientRect();
    centreAt(d.el, d.s, k.current, (b.left + b.width / 2 - s.left) / k.current, (b.top + b.height / 2 - s.top) / k.current);
  };
  // As it opens: all of it if its labels stay legible so, else its width, else 100 %; the
  // selected function in the middle.
  const open = () => {
    const d = drawn();
    if (!d || !q.data) return;
    size.current = naturalSize(d.s);
    if (!size.current.w || !size.current.h) return;
    const legible = (s: number) => (s * LABEL_PT * 96) / 72 >= MIN_LABEL_PX;
    const all = fitScale();
    const width = clampScale(Math.min(1, (d.el.clientWidth - 16) / size.current.w));
    zoomTo(legible(all) ? all : legible(width) ? width : 1);
    centre();
    setLaidOut((n) => n + 1);
  };
  useLayoutEffect(() => {
    opening.current = true;
    open();
  }, [svg]);
  useEffect(() => {
    const el = paneEl;
    if (!el) return;
    let w = el.clientWidth, h = el.clientHeight;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth === w && el.clientHeight === h) return;
      (w = el.clientWidth), (h = el.clientHeight);
      if (opening.current) open();
    });
    ro.observe(el);
    // (the wheel zooms: a listener that may prevent the page's scrolling)
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      zoomBy(Math.exp(-Math.max(-100, Math.min(100, e.deltaY)) * 0.003), e.clientX, e.clientY);
    };
    el.addEventListener("wheel", wheel, { passive: false });
    return () => {
      ro.disconnect();
      el.removeEventListener("wheel", wheel);
    };
  }, [paneEl, svg]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const el = pane.current!;
    const pan: Record<string, [number, number]> = { ArrowLeft: [-PAN, 0], ArrowRight: [PAN, 0], ArrowUp: [0, -PAN], ArrowDown: [0, PAN] };
    if (e.key === "+" || e.key === "=") zoomBy(STEP);
    else if (e.key === "-" || e.key === "_") zoomBy(1 / STEP);
    else if (e.key === "0") fit();
    else if (pan[e.key]) {
      opening.current = false;
      el.scrollLeft += pan[e.key][0];
      el.scrollTop += pan[e.key][1];
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };
  // A drag on the pane pans it (a click without moving still selects a box).
  const panned = useRef(false);
  const onPointerDown = (e: PointerEvent) => {
    const el = pane.current;
    if (!el || e.button !== 0) return;
    const x0 = e.clientX, y0 = e.clientY, l0 = el.scrollLeft, t0 = el.scrollTop;
    panned.current = false;
    const move = (m: PointerEvent) => {
      if (Math.abs(m.clientX - x0) + Math.abs(m.clientY - y0) > 4) {
        panned.current = true;
        opening.current = false;
      }
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
          setSvg(gv.dot(toDot(g, event, gdir === "lr" ? "LR" : "TB")));
          setErr(null);
        } catch (e) {
          setErr(String(e));
        }
        setMs(performance.now() - t0);
      },
      (e) => setErr("Graphviz could not start: " + String(e)),
    );
    return () => void (live = false);
  }, [q.data, event, gdir]);
  const count = (v: string, max: number) => Math.max(0, Math.min(max, Math.floor(Number(v) || 0)));
  return (
    <div class="graphview" data-testid="callgraph">
      <div class="toolbar">
        <label title="KCachegrind's caller depth: levels of callers drawn">
          Callers depth <input type="number" min={0} max={10} value={up} onChange={(e) => navigate({ gup: count((e.target as HTMLInputElement).value, 10) }, true)} aria-label="Callers depth" />
        </label>
        <label title="KCachegrind's callee depth: levels of callees drawn">
          Callees depth <input type="number" min={0} max={10} value={down} onChange={(e) => navigate({ gdown: count((e.target as HTMLInputElement).value, 10) }, true)} aria-label="Callees depth" />
        </label>
        <label title="node threshold: a function is drawn when its inclusive cost is at least this share of the total (the list's Incl. share)">
          Functions ≥ <input type="number" min={0} max={100} step={0.1} value={gnode} onChange={(e) => { const v = percent((e.target as HTMLInputElement).value); if (v) navigate({ gnode: v }, true); }} aria-label="Node threshold" />%
        </label>
        <label title="call threshold: a call is drawn when its inclusive cost is at least this share of the total">
          Calls ≥ <input type="number" min={0} max={100} step={0.1} value={gmin} onChange={(e) => { const v = percent((e.target as HTMLInputElement).value); if (v) navigate({ gmin: v }, true); }} aria-label="Cost threshold" />% of the total
        </label>
        <label>
          Layout{" "}
          <select aria-label="Layout direction" value={gdir} onChange={(e) => navigate({ gdir: (e.target as HTMLSelectElement).value === "lr" ? "lr" : "" }, true)}>
            <option value="">top-down</option>
            <option value="lr">left-right</option>
          </select>
        </label>
        <span class="zoom">
          <button title="zoom out (−, the wheel)" aria-label="Zoom out" onClick={() => zoomBy(1 / STEP)}>
            −
          </button>
          <button title="zoom in (+, the wheel)" aria-label="Zoom in" onClick={() => zoomBy(STEP)}>
            +
          </button>
          <button title="the whole graph in the pane (0)" aria-label="Zoom to fit" onClick={fit}>
            Fit
          </button>
          <button title="the layout's own size, the selected function in the middle" aria-label="Actual size" onClick={actual}>
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
        <div class="graphwrap">
          <div
            class="graph"
            ref={paneRef}
            tabIndex={0}
            aria-label="Call graph: drag to pan; the wheel or + − zoom, 0 fits, arrows pan"
            data-testid="graph-pane"
            dangerouslySetInnerHTML={{ __html: svg }}
            onPointerDown={onPointerDown}
            onKeyDown={onKeyDown}
            onClick={(e) => {
              if (panned.current) return;
              const g = (e.target as Element).closest("g.node");
              const id = g?.id?.match(/^n(\d+)$/);
              if (id) navigate({ fn: Number(id[1]) });
            }}
          />
          <Panner pane={paneEl} markup={svg} size={size.current} scale={scale} />
        </div>
      ) : (
        !err && <div class="hint">Laying out the graph…</div>
      )}
    </div>
  );
}
