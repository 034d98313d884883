// Treemap.tsx — KCachegrind's callee map: the selected function (or the whole program) as a
// rectangle whose area is its inclusive cost, split into its callees' rectangles, nested;
// the part of a box its children leave is the function's self cost. Squarified layout (Bruls,
// Huizing, van Wijk) over the estimated call-path tree of GET /api/v1/flame.
import type { Flame as FlameData } from "./api";
import { EstimateNote } from "./Flame";
import { fmt, num, pct } from "./format";
import { navigate, type ViewState } from "./url";
import { useFetch } from "./useFetch";
import { useSize } from "./useSize";
import { filterParams, FilterNote } from "./StackFilters";

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const HEAD = 15; // px of a box's label
const MIN_AREA = 60; // px² below which a box is not drawn
const MAX_BOXES = 3000;

/** Lays out `values` (decreasing) in `r`: squarified rows along the shorter side. */
export function squarify(values: number[], r: Rect): Rect[] {
  const out: Rect[] = [];
  const sum = values.reduce((a, b) => a + b, 0);
  if (sum <= 0) return values.map(() => ({ x: r.x, y: r.y, w: 0, h: 0 }));
  const scale = (r.w * r.h) / sum;
  let { x, y, w, h } = r;
  let i = 0;
  while (i < values.length) {
    const side = Math.min(w, h);
    let row: number[] = [];
    let best = Infinity;
    let j = i;
    while (j < values.length) {
      const next = [...row, values[j] * scale];
      const s = next.reduce((a, b) => a + b, 0);
      const worst = Math.max(...next.map((a) => Math.max((side * side * a) / (s * s), (s * s) / (side * side * a))));
      if (worst > best && row.length) break;
      best = worst;
      row = next;
      j++;
    }
    const s = row.reduce((a, b) => a + b, 0);
    const thick = side > 0 ? s / side : 0;
    let off = 0;
    for (const a of row) {
      const len = thick > 0 ? a / thick : 0;
      if (w >= h) out.push({ x, y: y + off, w: thick, h: len });
      else out.push({ x: x + off, y, w: len, h: thick });
      off += len;
    }
    if (w >= h) {
      x += thick;
      w -= thick;
    } else {
      y += thick;
      h -= thick;
    }
    i = j;
  }
  return out;
}

export function Treemap({ fn, event, state }: { fn: number | null; event: string; state: ViewState }) {
  const q = useFetch<FlameData>("flame", {
    parts: state.parts,
    sort: event,
    root: fn ?? "all",
    direction: "callees",
    side: state.side === "old" && fn !== null ? "old" : undefined,
    min: 0.001,
    max_frames: 5000,
    ...filterParams(state),
  });
  // The box's size, as its pane's changes (the box is drawn once the answer came).
  const { ref: box, size } = useSize<HTMLDivElement>({ w: 800, h: 500 }, 300, [q.data !== undefined && q.data !== null]);
  if (q.error) return <div class="error">{q.error.message}</div>;
  const d = q.data;
  if (!d) return <div class="hint">Estimating the call paths…</div>;
  const tot = d.frames.total[event] ?? [];
  const children: number[][] = Array.from({ length: d.frames.count }, () => []);
  const roots: number[] = [];
  for (let i = 0; i < d.frames.count; i++) {
    const p = d.frames.parent[i];
    if (p < 0) roots.push(i);
    else children[p].push(i);
  }
  const total = num(d.totals[event]);
  const boxes: preact.JSX.Element[] = [];
  const place = (frames: number[], r: Rect, level: number) => {
    const vals = frames.map((i) => num(tot[i]));
    const rects = squarify(vals, r);
    frames.forEach((i, k) => {
      const b = rects[k];
      if (b.w * b.h < MIN_AREA || boxes.length >= MAX_BOXES) return;
      const id = d.frames.id[i];
      const f = d.functions[String(id)];
      const hue = (level * 47 + 30) % 360;
      boxes.push(
        <div
          class={"tm" + (state.fn === id ? " sel" : "")}
          data-fn={id}
          style={{ left: b.x + "px", top: b.y + "px", width: Math.max(0, b.w - 1) + "px", height: Math.max(0, b.h - 1) + "px", background: `hsl(${hue} 55% 72%)` }}
          title={`${f?.name ?? id}\n${fmt(tot[i])} ${event} (${pct(tot[i], total)})`}
          onClick={(e) => {
            e.stopPropagation();
            navigate({ fn: id });
          }}
        >
          {b.w > 40 && b.h > 12 ? f?.name ?? "" : ""}
        </div>,
      );
      if (b.w > 12 && b.h > HEAD + 6 && children[i].length)
        place(children[i], { x: b.x + 2, y: b.y + HEAD, w: b.w - 4, h: b.h - HEAD - 2 }, level + 1);
    });
  };
  place(roots, { x: 0, y: 0, w: size.w, h: size.h }, 0);
  return (
    <div class="mapview" data-testid="treemap">
      <FilterNote f={d.filter} event={event} state={state} />
      <EstimateNote d={d} />
      <p class="dim">
        Callee map of {fn === null ? "the whole program" : <b>{d.functions[String(fn)]?.name}</b>}: area is inclusive {event}; click a box to select its function.
      </p>
      <div class="treemap" ref={box}>
        {boxes}
      </div>
    </div>
  );
}
