// ControlFlow.tsx — the selected function's control-flow graph (GET /api/v1/cfg/ID; the
// Machine code tab's "Control flow" toggle, KCachegrind's control-flow view): its basic
// blocks top-down in address order, each with its address range, cost and share of the
// function's self cost (and its instructions, the long ones cut to their first and last
// lines), the edges between them with the profile's counts, as wide as their count (the hot
// path heaviest). A fall-through into the next block is drawn straight down; a jump forward
// in a lane on the right, a jump back (a loop) in a lane on the left.
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { CfgAnswer, CfgBlock, CfgEdge, CfgObject, FunctionDetail } from "./api";
import { fmt, pct } from "./format";
import type { ViewState } from "./url";
import { useFetch } from "./useFetch";

let heads = 0; // the arrowheads' ids made (each <marker> its own)

const BOX = 360; // px: a block's width
const LINE = 15; // px: a line of text in a block
const GAP = 34; // px between two blocks
const LANE = 12; // px between two lanes of edges
const MAX_WIDTH = 9; // px: the heaviest edge's width
const SHOWN = 6; // a block of more instructions shows its first and last SHOWN / 2
const CHARS = 48; // an instruction's text is cut to this many characters (in full on hover)

const n = (c: unknown) => (c === null || c === undefined ? 0 : Number(c));

interface Placed {
  b: CfgBlock;
  y: number;
  h: number;
  lines: string[];
}

function linesOf(b: CfgBlock, code: boolean): string[] {
  if (!code) return [];
  const text = b.instructions.map((i) => {
    const t = `${i.address.replace(/^0x/, "")} ${i.text}`;
    return t.length > CHARS ? t.slice(0, CHARS - 1) + "…" : t;
  });
  if (text.length <= SHOWN) return text;
  const half = SHOWN / 2;
  return [...text.slice(0, half), `⋯ ${fmt(text.length - 2 * half)} more`, ...text.slice(-half)];
}

function place(o: CfgObject, code: boolean): Placed[] {
  let y = 8;
  return o.blocks.map((b) => {
    const lines = linesOf(b, code);
    const h = (2 + lines.length) * LINE + 8;
    const p = { b, y, h, lines };
    y += h + GAP;
    return p;
  });
}

// Lanes for the edges that are not a fall-through into the next block: the shortest nearest
// the blocks, each in the first lane free over its span, forward ones right, back ones left.
function lanesOf(edges: CfgEdge[]): Map<CfgEdge, number> {
  const lane = new Map<CfgEdge, number>();
  for (const back of [false, true]) {
    const side = edges
      .filter((e) => e.to !== null && !(e.to === e.from + 1 && e.kind === "fall_through"))
      .filter((e) => (e.to! <= e.from) === back)
      .sort((a, b) => Math.abs(a.to! - a.from) - Math.abs(b.to! - b.from));
    const busy: [number, number][][] = [];
    for (const e of side) {
      const lo = Math.min(e.from, e.to!), hi = Math.max(e.from, e.to!);
      let l = 0;
      while (busy[l]?.some(([a, b]) => !(hi < a || lo > b))) l++;
      (busy[l] ??= []).push([lo, hi]);
      lane.set(e, l);
    }
  }
  return lane;
}

function describe(e: CfgEdge, o: CfgObject): string {
  const to = e.to === null ? `${e.target_function ?? "outside"} (${e.target})` : `block ${o.blocks[e.to].from}`;
  const what = e.kind === "fall_through" ? "fall-through" : e.conditional ? "conditional jump taken" : "jump";
  const count = e.count === null ? "count unknown" : `${fmt(e.count)} times`;
  const of = e.conditional && e.kind === "taken" ? ` of ${fmt(e.executed)} executed` : "";
  return `${what} from block ${o.blocks[e.from].from} to ${to}: ${count}${of}`;
}

function Graph({ o, event, code }: { o: CfgObject; event: string; code: boolean }) {
  const placed = place(o, code);
  const lanes = lanesOf(o.edges);
  // (an id of its own: another pane, or another object's, draws its arrowhead too)
  const head = useMemo(() => "cfg-head-" + ++heads, []);
  const right = Math.max(0, ...o.edges.filter((e) => e.to !== null && e.to > e.from).map((e) => (lanes.get(e) ?? -1) + 1));
  const left = Math.max(0, ...o.edges.filter((e) => e.to !== null && e.to <= e.from).map((e) => (lanes.get(e) ?? -1) + 1));
  const x0 = 20 + left * LANE + 10;
  const exits = o.edges.some((e) => e.to === null) ? 150 : 0;
  const width = x0 + BOX + 20 + right * LANE + exits;
  const last = placed[placed.length - 1];
  const height = last ? last.y + last.h + 10 : 20;
  const max = Math.max(1, ...o.edges.map((e) => n(e.count)));
  const hot = o.edges.reduce<CfgEdge | null>((h, e) => (n(e.count) > n(h?.count) ? e : h), null);
  const self = n(o.self[event]);
  const cx = x0 + BOX / 2;
  const edges = o.edges.map((e) => {
    const from = placed[e.from];
    const w = 1 + ((MAX_WIDTH - 1) * n(e.count)) / max;
    const cls = "cfgedge" + (e.count === null || n(e.count) === 0 ? " cold" : "") + (e === hot ? " hot" : "") + (e.conditional ? "" : " uncond");
    const title = <title>{describe(e, o)}</title>;
    const label = e.count === null ? "?" : fmt(e.count);
    const yOut = from.y + from.h;
    if (e.to === null) {
      const y = from.y + from.h - LINE;
      return (
        <g class={cls} data-edge={`${e.from}-out`} data-count={String(e.count ?? "")}>
          {title}
          <path d={`M${x0 + BOX},${y} H${x0 + BOX + 20 + right * LANE + 30}`} stroke-width={w} marker-end={`url(#${head})`} />
          <text x={x0 + BOX + 24 + right * LANE + 36} y={y + 4}>
            {label} → {e.target_function ?? e.target}
          </text>
        </g>
      );
    }
    const to = placed[e.to];
    if (e.to === e.from + 1 && e.kind === "fall_through") {
      return (
        <g class={cls} data-edge={`${e.from}-${e.to}`} data-count={String(e.count ?? "")}>
          {title}
          <path d={`M${cx},${yOut} V${to.y - 2}`} stroke-width={w} marker-end={`url(#${head})`} />
          <text x={cx + 8} y={yOut + GAP / 2 + 4}>
            {label}
          </text>
        </g>
      );
    }
    const l = lanes.get(e) ?? 0;
    const forward = e.to > e.from;
    const y1 = yOut - 6, y2 = to.y + 10;
    const x = forward ? x0 + BOX + 14 + l * LANE : x0 - 14 - l * LANE;
    const side = forward ? x0 + BOX : x0;
    return (
      <g class={cls} data-edge={`${e.from}-${e.to}`} data-count={String(e.count ?? "")}>
        {title}
        <path d={`M${side},${y1} H${x} V${y2} H${side + (forward ? 2 : -2)}`} stroke-width={w} marker-end={`url(#${head})`} />
        <text x={forward ? x + 4 : x - 4} y={(y1 + y2) / 2} text-anchor={forward ? "start" : "end"}>
          {label}
        </text>
      </g>
    );
  });
  return (
    <svg class="cfggraph" width={width} height={height} data-testid="cfg-graph">
      <defs>
        <marker id={head} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" markerUnits="userSpaceOnUse" orient="auto">
          <path d="M0,0 L10,5 L0,10 z" />
        </marker>
      </defs>
      {edges}
      {placed.map(({ b, y, h, lines }) => {
        const c = n(b.self[event]);
        const share = self ? c / self : 0;
        return (
          <g class={"cfgblock" + (b.entry ? " entry" : "")} data-block={b.index} data-cost={String(b.self[event] ?? 0)} transform={`translate(${x0},${y})`}>
            <title>{`${fmt(b.instructions.length)} instructions, executed ${b.executed === null ? "?" : fmt(b.executed)} times\n${b.instructions.map((i) => i.address.replace(/^0x/, "") + " " + i.text).join("\n")}`}</title>
            <rect width={BOX} height={h} rx="4" style={{ fillOpacity: 0.08 + 0.6 * share }} />
            <text x="6" y={LINE}>
              <tspan class="addr">
                {b.from.replace(/^0x/, "")}–{b.to.replace(/^0x/, "")}
              </tspan>
              {b.entry ? " entry" : ""} · ×{b.executed === null ? "?" : fmt(b.executed)}
            </text>
            <text x="6" y={2 * LINE}>
              {event} {fmt(b.self[event] ?? 0)} · {pct(b.self[event] ?? 0, o.self[event])} of self
            </text>
            {lines.map((t, i) => (
              <text class="code" x="6" y={(3 + i) * LINE}>
                {t}
              </text>
            ))}
          </g>
        );
      })}
    </svg>
  );
}

/** Scrolls a graph's box so that its blocks are in view: the lanes of the jumps back (a loop)
 * are on their left, as many as the loops overlap (cc1plus's constrain_operands, 180 blocks,
 * has 56: 700 px), and pushed the blocks past the box's right edge. The box scrolls right as
 * far as it shows everything on the blocks' right (the jumps forward, the exits), never past
 * the blocks' left edge; the lanes cut off on the left are a scroll away. */
function showBlocks(body: HTMLDivElement) {
  const block = body.querySelector(".cfgblock rect");
  if (!block) return;
  const left = block.getBoundingClientRect().left - body.getBoundingClientRect().left - body.clientLeft + body.scrollLeft;
  body.scrollLeft = Math.max(0, Math.min(left - 10, body.scrollWidth - body.clientWidth));
}

function OneGraph({ o, event, code, showObject }: { o: CfgObject; event: string; code: boolean; showObject: boolean }) {
  const body = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (body.current) showBlocks(body.current);
  }, [o]);
  if (o.status !== "ok")
    return (
      <div class="error" role="alert" data-testid="cfg-status">
        {showObject && <b>{o.object}: </b>}
        No control flow: {o.message}
      </div>
    );
  const left = n(o.left_out[event]);
  return (
    <div class="cfg">
      <div class="dim asmhead" data-testid="cfg-head">
        {showObject && <b>{o.object} · </b>}
        {fmt(o.blocks.length)} blocks, {fmt(o.edges.length)} edges, self {event} {fmt(o.self[event])}
        {left > 0 && ` (${fmt(left)} at addresses objdump does not show: in no block)`} · edge width: times followed
      </div>
      <div class="cfgbody" ref={body} data-testid="cfg-body">
        <Graph o={o} event={event} code={code} />
      </div>
    </div>
  );
}

export function ControlFlow({ f, event, state }: { f: FunctionDetail; event: string; state: ViewState }) {
  const [code, setCode] = useState(true);
  const q = useFetch<CfgAnswer>("cfg/" + f.id, {
    parts: state.parts !== "all" ? state.parts : undefined,
    side: state.side === "old" ? "old" : undefined,
  });
  if (q.error) return <div class="error">{q.error.message}</div>;
  const a = q.data;
  if (!a) return <div class="hint">Finding the basic blocks (the profile is read again for this function, then objdump runs)…</div>;
  if (!a.has_instructions || a.cfg.length === 0) return <div class="hint">No machine code of {f.name} in the profile: no control flow.</div>;
  return (
    <div class={"controlflow" + (a.cfg.length > 1 ? " several" : "")} data-testid="cfg">
      <label class="dim">
        <input type="checkbox" checked={code} onChange={(e) => setCode((e.currentTarget as HTMLInputElement).checked)} /> instructions
      </label>
      {a.cfg.map((o) => (
        <OneGraph o={o} event={event} code={code} showObject={a.cfg.length > 1} />
      ))}
    </div>
  );
}
