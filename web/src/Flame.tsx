// Flame.tsx — flame graph, icicle and sandwich from GET /api/v1/flame: the server's estimated
// tree of call paths (docs/estimate.md), laid out here: each frame as wide as its total,
// children left to right in the server's order (by decreasing total). Click a frame to zoom
// into it and select its function; frames too narrow to see are not drawn.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { isReport, type Flame as FlameData, type FlameFn, type FlameThread, type Profile } from "./api";
import { fmt, num, pct, percentChange } from "./format";
import { navigate, type ViewState } from "./url";
import { useFetch } from "./useFetch";
import { filterParams, FilterNote } from "./StackFilters";
import { FrameMenu, useFrameMenu } from "./Transforms";

const H = 18; // px per level

export function EstimateNote({ d }: { d: FlameData }) {
  const pruned = d.pruned > 0 && <>{fmt(d.pruned)} calls below {(d.min * 100).toFixed(2)}% are not drawn.</>;
  // An imported profile (folded stacks, perf script, pprof, .cpuprofile) records its stacks:
  // the frames are those stacks, exact, no estimate.
  if (d.stacks === "recorded")
    return (
      <p class="estimate" data-testid="recorded-note">
        The stacks the file records, as recorded. {pruned}
      </p>
    );
  // A profile with recorded stacks whose view is estimated all the same (a part with none, a
  // cycle as the root): why.
  if (d.stacks_note)
    return (
      <p class="estimate" data-testid="estimate-note">
        <b>An estimate.</b> The file records its stacks, but {d.stacks_note}: this view splits
        each function's cost between its callers in proportion to the calls. See
        docs/estimate.md. {pruned}
      </p>
    );
  // Nothing was estimated (every function on the paths has one caller, or the file has no
  // calls at all: cachegrind's, cg_diff's): the paths are the file's own, no banner.
  if (!d.estimated)
    return d.pruned > 0 ? <p class="estimate" data-testid="pruned-note">{pruned}</p> : null;
  return (
    <p class="estimate" data-testid="estimate-note">
      <b>An estimate.</b> A callgrind file keeps costs per function and per call, not per call
      stack: where a function has several callers, its cost is split between the paths through
      them in proportion to the inclusive cost of those calls (exact where the file has caller
      contexts, <code>--separate-callers</code>, or a function has one caller). See
      docs/estimate.md. {d.pruned > 0 && <>{fmt(d.pruned)} calls below {(d.min * 100).toFixed(2)}% are not drawn.</>}
    </p>
  );
}

interface Layout {
  x: Float64Array;
  w: Float64Array;
  maxDepth: number;
  rootTotal: number;
  /** A profile of differences (cg_diff's, `calltree diff -o`'s): some total is negative. A
   * frame is then as wide as the size of its change, coloured by its sign (diverging). */
  signed: boolean;
  maxAbs: number;
}

function layout(d: FlameData, event: string): Layout {
  const n = d.frames.count;
  const x = new Float64Array(n);
  const w = new Float64Array(n);
  const next = new Float64Array(n);
  const tot = d.frames.total[event] ?? [];
  let rootX = 0;
  let maxDepth = 0;
  let signed = false;
  let maxAbs = 0;
  for (let i = 0; i < n; i++) {
    w[i] = Math.abs(num(tot[i]));
    if (num(tot[i]) < 0) signed = true;
    if (w[i] > maxAbs) maxAbs = w[i];
  }
  if (signed) {
    // Rises and falls under one frame can cancel out in its total: a frame is as wide as the
    // larger of its own change and its children's widths, so they fit in it (children come
    // after their parent).
    const kids = new Float64Array(n);
    for (let i = n - 1; i >= 0; i--) {
      w[i] = Math.max(w[i], kids[i]);
      const p = d.frames.parent[i];
      if (p >= 0) kids[p] += w[i];
    }
  }
  for (let i = 0; i < n; i++) {
    const p = d.frames.parent[i];
    if (p < 0) {
      x[i] = rootX;
      rootX += w[i];
    } else {
      x[i] = next[p];
      next[p] += w[i];
    }
    next[i] = x[i];
    if (d.frames.depth[i] > maxDepth) maxDepth = d.frames.depth[i];
  }
  return { x, w, maxDepth, rootTotal: rootX, signed, maxAbs };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The diverging scale: red for a rise, blue for a fall, stronger with `a` (0..1). */
function diverging(up: boolean, a: number): string {
  return up ? `hsl(0 ${30 + 60 * a}% ${85 - 35 * a}%)` : `hsl(215 ${30 + 60 * a}% ${85 - 35 * a}%)`;
}

/** `delta`: a frame's signed cost in a profile of differences, and the largest size of one. */
function colour(f: FlameFn | undefined, event: string, diff: boolean, selected: boolean, delta?: { v: number; max: number }): string {
  if (!f) return "hsl(0 0% 70%)";
  if (selected) return "hsl(270 60% 65%)";
  if (diff && f.diff) {
    if (f.diff.change === "added") return "hsl(0 85% 45%)";
    const p = f.diff.inclusive[event]?.percent;
    if (p === null || p === undefined) return "hsl(0 85% 45%)";
    const a = Math.min(1, Math.abs(p) / 50);
    if (Math.abs(p) < 0.05) return "hsl(0 0% 78%)";
    return diverging(p > 0, a);
  }
  if (delta) return delta.v === 0 ? "hsl(0 0% 78%)" : diverging(delta.v > 0, Math.sqrt(Math.abs(delta.v) / (delta.max || 1)));
  if (f.kind === "cycle") return "hsl(300 40% 70%)";
  const h = hash(f.name);
  return `hsl(${(h % 50) + 5} ${70 + (h % 20)}% ${58 + ((h >> 8) % 14)}%)`;
}

export function FlameChart({ d, event, state, upward, diff, label, statedBeyond = false }: { d: FlameData; event: string; state: ViewState; upward: boolean; diff: boolean; label: string; statedBeyond?: boolean }) {
  const L = useMemo(() => layout(d, event), [d, event]);
  const [zoom, setZoom] = useState(-1);
  useEffect(() => setZoom(-1), [d]);
  const x0 = zoom >= 0 ? L.x[zoom] : 0;
  const total = num(d.totals[event]);
  // The program's flame graph is as wide as the total (its roots sum to it; roots too small
  // to send leave a gap at the right), a function's, or a filtered one, as its frames.
  const span = zoom >= 0 ? L.w[zoom] : d.root === null && d.direction === "callees" && !d.filter ? Math.max(L.rootTotal, total) : L.rootTotal;
  const zoomDepth = zoom >= 0 ? d.frames.depth[zoom] : 0;
  const menu = useFrameMenu();
  // by_thread: the root frame of each part (thread), by its frame's index.
  const threadAt = useMemo(() => new Map<number, FlameThread>((d.threads ?? []).filter((t) => t.frame >= 0).map((t) => [t.frame, t])), [d]);
  const nameOf = (i: number) => threadAt.get(i)?.name ?? d.functions[String(d.frames.id[i])]?.name ?? "";
  // A frame's path of names from its root (a call path to focus on).
  const pathOf = (i: number) => {
    const names: string[] = [];
    for (let a = i; a >= 0; a = d.frames.parent[a]) names.push(nameOf(a));
    return names.reverse();
  };
  const frames = [];
  if (span > 0) {
    const minW = span / 1500;
    for (let i = 0; i < d.frames.count; i++) {
      const w = L.w[i];
      if (w < minW) continue;
      const x = L.x[i];
      const depth = d.frames.depth[i];
      // Beside the zoomed frame: its ancestors (full width) and what is inside it.
      if (x + w <= x0 || x >= x0 + span) continue;
      if (zoom >= 0 && depth < zoomDepth && !(x <= x0 && x + w >= x0 + span)) continue;
      const left = Math.max(0, (x - x0) / span);
      const right = Math.min(1, (x + w - x0) / span);
      const id = d.frames.id[i];
      const th = threadAt.get(i);
      if (th) {
        const v = w;
        frames.push(
          <div
            class="frame thread"
            data-thread={th.part}
            style={{ left: left * 100 + "%", width: (right - left) * 100 + "%", top: (upward ? (L.maxDepth - depth) * H : depth * H) + "px" }}
            title={`${th.name} (part ${th.part}${th.pid !== null ? `, pid ${th.pid}` : ""})\n${fmt(v)} ${event} (${pct(v, total)} of the total)`}
            onClick={() => setZoom(i === zoom ? -1 : i)}
          >
            {th.name}
          </div>,
        );
        continue;
      }
      const f = d.functions[String(id)];
      const sel = state.fn === id && (!diff || state.side === "new");
      const top = upward ? (L.maxDepth - depth) * H : depth * H;
      const selfC = d.frames.self[event]?.[i];
      const v = L.signed ? num(d.frames.total[event]?.[i]) : w;
      let tip = `${f?.name ?? id}\n${fmt(v)} ${event} (${pct(v, total)} of the total), self ${fmt(selfC)}`;
      if (f?.diff) {
        const dd = f.diff.inclusive[event];
        tip += `\n${f.diff.change}: inclusive ${fmt(dd?.old)} → ${fmt(dd?.new)} (${dd ? percentChange(dd.percent) : ""})`;
      }
      frames.push(
        <div
          class={"frame" + (sel ? " sel" : "") + (f?.diff?.change === "added" ? " added" : "")}
          data-fn={id}
          style={{ left: left * 100 + "%", width: (right - left) * 100 + "%", top: top + "px", background: colour(f, event, diff, sel, L.signed ? { v, max: L.maxAbs } : undefined) }}
          title={tip}
          onClick={() => {
            setZoom(i === zoom ? -1 : i);
            navigate({ fn: id, side: "new" });
          }}
          onContextMenu={(e) => {
            // (the program's tree: a path from its roots; a function's tree has no such path)
            if (diff || d.root !== null) return;
            e.preventDefault();
            menu.open({ x: e.clientX, y: e.clientY, name: f?.name ?? "", object: f?.object ?? "", path: pathOf(i) });
          }}
        >
          {f?.name ?? ""}
        </div>,
      );
    }
  }
  return (
    <div class="flamewrap">
      <div class="flamebar">
        <span class="dim">{label}</span>
        {zoom >= 0 && (
          <button onClick={() => setZoom(-1)} data-testid="reset-zoom">
            Reset zoom
          </button>
        )}
        {zoom >= 0 && threadAt.get(zoom) && !state.parts.split(",").every((p) => p === String(threadAt.get(zoom)!.part)) && (
          <button onClick={() => navigate({ parts: String(threadAt.get(zoom)!.part) })} data-testid="thread-alone" title="choose this part in the Part menu: every view and share then of it alone">
            Show {threadAt.get(zoom)!.name} alone
          </button>
        )}
        <span class="dim">{fmt(d.frames.count)} frames</span>
        {statedBeyond && zoom < 0 && d.root === null && d.direction === "callees" && !d.filter && L.rootTotal > 0 && L.rootTotal < total && (
          <span class="dim" data-testid="flame-share" title="The file states a total above its functions' costs (time outside any function, as Xdebug measures it): percentages are of that total, and the graph's roots, the functions' costs, fill this share of its width. The header shows both totals.">
            roots: {pct(L.rootTotal, total)} of the total the file states
          </span>
        )}
      </div>
      <div class="flame" role="img" aria-label={label} style={{ height: (L.maxDepth + 1) * H + "px" }}>
        {frames}
      </div>
      {menu.target && <FrameMenu target={menu.target} state={state} close={menu.close} />}
    </div>
  );
}

export function Flame({ event, state, icicle, diff }: { event: string; state: ViewState; icicle: boolean; diff: boolean }) {
  // Whether the file states a total above its functions' costs (calltree/totals.h): the roots
  // then fill only that share of the width, and the bar says so.
  const prof = useFetch<Profile>("profile", {});
  // A profile of several parts (threads): one root frame per part, on request (#by_thread=1).
  const parts = prof.data ? prof.data.inputs[prof.data.inputs.length - 1].parts.length : 0;
  const threadsOffered = !diff && parts > 1 && !isReport(); // (a report holds no such answer)
  const byThread = state.by_thread && threadsOffered;
  const q = useFetch<FlameData>("flame", { parts: state.parts, sort: event, side: diff ? "new" : undefined, by_thread: byThread ? 1 : undefined, ...filterParams(state) });
  const stated = prof.data?.totals_stated?.[event];
  const summed = prof.data?.totals_summed?.[event];
  const statedBeyond = !diff && state.parts === "all" && stated !== null && stated !== undefined && summed !== undefined && num(stated) > num(summed);
  if (q.error) return <div class="error">{q.error.message}</div>;
  if (!q.data) return <div class="hint">Estimating the call paths…</div>;
  return (
    <div class="flameview" data-testid={icicle ? "icicle" : "flame"}>
      {threadsOffered && (
        <label class="bythread" title="KCachegrind's parts: a root frame per part (each thread of a --separate-threads run), as wide as that part's total, its stacks within it">
          <input type="checkbox" data-testid="by-thread" checked={state.by_thread} onChange={(e) => navigate({ by_thread: (e.target as HTMLInputElement).checked })} /> one root per thread
        </label>
      )}
      <FilterNote f={q.data.filter} event={event} state={state} />
      <EstimateNote d={q.data} />
      {diff && (
        <p class="legend">
          Coloured by change of inclusive {event} from OLD to NEW: <span class="sw up">grew</span> <span class="sw down">shrank</span> <span class="sw same">same</span> <span class="sw new">only in NEW</span>. Widths are NEW's.
        </p>
      )}
      <FlameChart d={q.data} event={event} state={state} upward={!icicle} diff={diff} label={icicle ? "Icicle: the roots at the top" : "Flame graph: the roots at the bottom"} statedBeyond={statedBeyond} />
    </div>
  );
}

export function Sandwich({ fn, event, state }: { fn: number; event: string; state: ViewState }) {
  const common = { parts: state.parts, sort: event, root: fn, side: state.side === "old" ? "old" : undefined, ...filterParams(state) };
  const up = useFetch<FlameData>("flame", { ...common, direction: "callers" });
  const down = useFetch<FlameData>("flame", { ...common, direction: "callees" });
  const ref = useRef<HTMLDivElement>(null);
  if (up.error || down.error) return <div class="error">{(up.error ?? down.error)!.message}</div>;
  if (!up.data || !down.data) return <div class="hint">Estimating the call paths…</div>;
  return (
    <div class="flameview" data-testid="sandwich" ref={ref}>
      <FilterNote f={down.data.filter} event={event} state={state} />
      <EstimateNote d={down.data} />
      <FlameChart d={up.data} event={event} state={state} upward={true} diff={false} label="Callers (above): who calls the function, by the paths that lead to it" />
      <FlameChart d={down.data} event={event} state={state} upward={false} diff={false} label="Callees (below): what the function calls" />
    </div>
  );
}
