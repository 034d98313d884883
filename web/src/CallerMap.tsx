// CallerMap.tsx — KCachegrind's caller map, the callee map's mirror: the selected function as a
// rectangle whose area is its inclusive cost, split into its callers' rectangles (the part of
// that cost each caller pays), each split in turn into its own callers', up to the roots; the
// part of a box its children leave is what reached a function no one calls. The same squarified
// layout as the callee map, over GET /api/v1/flame?root=ID&direction=callers.
import type { Flame as FlameData } from "./api";
import { EstimateNote } from "./Flame";
import { fmt, num, pct } from "./format";
import { squarify } from "./Treemap";
import { navigate, type ViewState } from "./url";
import { useFetch } from "./useFetch";
import { useSize } from "./useSize";

const HEAD = 15; // px of a box's label
const MIN_AREA = 60; // px² below which a box is not drawn
const MAX_BOXES = 3000;

export function CallerMap({ fn, event, state }: { fn: number; event: string; state: ViewState }) {
  const q = useFetch<FlameData>("flame", {
    parts: state.parts,
    sort: event,
    root: fn,
    direction: "callers",
    side: state.side === "old" ? "old" : undefined,
    min: 0.001,
    max_frames: 5000,
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
  const top = roots.reduce((a, i) => a + num(tot[i]), 0);
  const boxes: preact.JSX.Element[] = [];
  // A box's children take the share of its area their costs are of its cost (the rest stays
  // empty): squarify lays them out in the part of the box that share needs.
  const place = (frames: number[], r: Rect, level: number, whole: number) => {
    const vals = frames.map((i) => num(tot[i]));
    const sum = vals.reduce((a, b) => a + b, 0);
    if (sum <= 0) return;
    const share = whole > 0 ? Math.min(1, sum / whole) : 1;
    const area = share >= 1 ? r : r.w >= r.h ? { ...r, w: r.w * share } : { ...r, h: r.h * share };
    const rects = squarify(vals, area);
    frames.forEach((i, k) => {
      const b = rects[k];
      if (b.w * b.h < MIN_AREA || boxes.length >= MAX_BOXES) return;
      const id = d.frames.id[i];
      const f = d.functions[String(id)];
      const hue = (level * 47 + 200) % 360;
      boxes.push(
        <div
          class={"tm" + (state.fn === id ? " sel" : "")}
          data-fn={id}
          data-cost={String(tot[i])}
          data-depth={d.frames.depth[i]}
          style={{ left: b.x + "px", top: b.y + "px", width: Math.max(0, b.w - 1) + "px", height: Math.max(0, b.h - 1) + "px", background: `hsl(${hue} 50% 74%)` }}
          title={`${f?.name ?? id}\n${fmt(tot[i])} ${event} of ${d.functions[String(fn)]?.name ?? fn}'s cost (${pct(tot[i], top)})`}
          onClick={(e) => {
            e.stopPropagation();
            navigate({ fn: id });
          }}
        >
          {b.w > 40 && b.h > 12 ? f?.name ?? "" : ""}
        </div>,
      );
      if (b.w > 12 && b.h > HEAD + 6 && children[i].length)
        place(children[i], { x: b.x + 2, y: b.y + HEAD, w: b.w - 4, h: b.h - HEAD - 2 }, level + 1, num(tot[i]));
    });
  };
  place(roots, { x: 0, y: 0, w: size.w, h: size.h }, 0, top);
  return (
    <div class="mapview" data-testid="callermap">
      <EstimateNote d={d} />
      <p class="dim">
        Caller map of <b>{d.functions[String(fn)]?.name}</b>: the whole area is its inclusive {event}, <span data-testid="callermap-top">{fmt(top)}</span>; inside it,
        each caller's box is the part of that cost which comes through it, and inside that its own callers'; click a box to select its function.
      </p>
      <div class="treemap" ref={box}>
        {boxes}
      </div>
    </div>
  );
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
