// MachineCode.tsx — the selected function's machine code (GET /api/v1/asm/ID; KCachegrind's
// Machine Code tab): each instruction with its cost, hot ones highlighted, a header wherever
// the source line changes, the calls made from an instruction and its jumps beneath it, and
// jump arrows beside the code, one per jump executed at least once, drawn from the jump to
// its target as KCachegrind draws them (nested arrows in lanes of their own, the widest
// outside, at most MAX_LANES of them). Shown through a window, as the source: only the rows in
// view are in the page, so a function of 7,000 instructions opens as fast as one of 20. Needs
// a profile written with callgrind --dump-instr=yes (--collect-jumps=yes for the jumps) and
// the object files it names; otherwise the panel says why.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { AsmAnswer, AsmInstruction, AsmObject, FunctionDetail } from "./api";
import { fmt, pct } from "./format";
import { ControlFlow } from "./ControlFlow";
import { navigate, type ViewState } from "./url";
import { useFetch } from "./useFetch";

let heads = 0; // the arrowheads' ids made (each <marker> its own)

const ROW = 18; // px: every row (instruction, header, note) has this height, for the arrows
const OVERSCAN = 30; // rows drawn above and below the window
const LANE = 8; // px between two lanes of arrows
const MAX_LANES = 8; // at most this many lanes (KCachegrind caps them too); longer jumps are stubs
const STUB = 12; // px beside the code where the stubs are drawn

type Row =
  | { kind: "header"; text: string }
  | { kind: "insn"; i: AsmInstruction; index: number }
  | { kind: "note"; text: string; cost?: string };

interface Arrow {
  from: number; // row numbers
  to: number;
  conditional: boolean;
  taken: number; // share of executions that jumped, 0..1
  lane: number; // -1: no lane below MAX_LANES, drawn as stubs
  source: string; // the addresses of the jump and its target
  target: string;
}

function rowsOf(a: AsmObject, event: string): { rows: Row[]; rowOf: number[] } {
  const rows: Row[] = [];
  const rowOf: number[] = [];
  let where = "";
  a.instructions.forEach((i, index) => {
    const here = i.line ? `${i.file}:${i.line}` : "";
    if (i.gap_before) rows.push({ kind: "header", text: "…" });
    if (here && here !== where) rows.push({ kind: "header", text: here });
    where = here || where;
    rowOf.push(rows.length);
    rows.push({ kind: "insn", i, index });
    for (const c of i.calls)
      rows.push({ kind: "note", text: `→ ${fmt(c.count)} call${c.count === 1 ? "" : "s"} to ${c.callee}`, cost: fmt(c.inclusive[event]) });
    for (const j of i.jumps) {
      const to = j.target_function ? `${j.target_function} (${j.target})` : j.target.replace(/^0x/, "");
      rows.push({
        kind: "note",
        text: j.conditional
          ? `⤷ jump ${fmt(j.followed)} of ${fmt(j.executed)} (${Number(j.executed) ? ((100 * Number(j.followed)) / Number(j.executed)).toFixed(1) : "0.0"}% taken) to ${to}`
          : `⤷ jump ${fmt(j.executed)} times to ${to}`,
      });
    }
  });
  return { rows, rowOf };
}

// Lanes: the shortest arrows nearest the code; an arrow takes the first lane free over its
// span. As in KCachegrind, the lanes are capped (a function of 7,000 instructions has jumps
// nested 170 deep): a jump that finds no lane below the cap is drawn as two stubs, one at the
// jump pointing the way to its target and one at the target, each saying where the other end
// is (a click on either goes there).
function arrowsOf(a: AsmObject, rowOf: number[]): Arrow[] {
  const arrows: Arrow[] = [];
  a.instructions.forEach((i, index) => {
    for (const j of i.jumps) {
      if (j.target_index === null || j.target_index === undefined || !Number(j.executed)) continue;
      arrows.push({
        from: rowOf[index],
        to: rowOf[j.target_index],
        conditional: j.conditional,
        taken: Number(j.executed) ? Number(j.followed) / Number(j.executed) : 0,
        lane: 0,
        source: i.address,
        target: j.target,
      });
    }
  });
  arrows.sort((x, y) => Math.abs(x.to - x.from) - Math.abs(y.to - y.from));
  const busy: [number, number][][] = [];
  for (const ar of arrows) {
    const lo = Math.min(ar.from, ar.to), hi = Math.max(ar.from, ar.to);
    let lane = 0;
    while (lane < MAX_LANES && busy[lane]?.some(([a, b]) => !(hi < a || lo > b))) lane++;
    if (lane === MAX_LANES) {
      ar.lane = -1;
      continue;
    }
    (busy[lane] ??= []).push([lo, hi]);
    ar.lane = lane;
  }
  return arrows;
}

const gutterWidth = (lanes: number) => STUB + 4 + lanes * LANE;

function describe(a: Arrow): string {
  const rows = Math.abs(a.to - a.from);
  const what = a.conditional ? `conditional jump, ${(100 * a.taken).toFixed(1)}% taken` : "jump";
  return `${what}: ${a.source.replace(/^0x/, "")} → ${a.target.replace(/^0x/, "")}, ${fmt(rows)} row${rows === 1 ? "" : "s"} ${a.to < a.from ? "up" : "down"}`;
}

/** The arrows of rows [first, last): the whole gutter is as tall as the function, but only
 * the arrows crossing the window are drawn, in an SVG as tall as the window. */
function Arrows({ arrows, lanes, first, last, goTo }: { arrows: Arrow[]; lanes: number; first: number; last: number; goTo: (row: number) => void }) {
  const width = gutterWidth(lanes);
  const edge = width - 2;
  // (an id of its own: another pane, or another object's, draws its arrowhead too)
  const head = useMemo(() => "asm-head-" + ++heads, []);
  const top = first * ROW;
  const drawn = [];
  for (const a of arrows) {
    const lo = Math.min(a.from, a.to), hi = Math.max(a.from, a.to);
    const y1 = a.from * ROW + ROW / 2 - top, y2 = a.to * ROW + ROW / 2 - top;
    const cls = a.conditional ? "cond" : "uncond";
    if (a.lane >= 0) {
      if (hi < first || lo >= last) continue;
      const x = edge - STUB - (a.lane + 1) * LANE;
      drawn.push(
        <path class={cls} d={`M${edge},${y1} H${x} V${y2} H${edge}`} stroke-width={1 + 2 * a.taken} marker-end={`url(#${head})`}>
          <title>{describe(a)}</title>
        </path>,
      );
      continue;
    }
    // A stub at the jump: a short line ending in a head that points up or down, to the target.
    const up = a.to < a.from;
    if (a.from >= first && a.from < last)
      drawn.push(
        <g class={"stub " + cls} data-stub="from" onClick={() => goTo(a.to)}>
          <title>{describe(a) + " (click: go to the target)"}</title>
          <path d={`M${edge},${y1} H${edge - STUB + 3}`} stroke-width={1 + 2 * a.taken} />
          <path class="head" d={up ? `M${edge - STUB},${y1 + 1} l3,-6 l3,6 z` : `M${edge - STUB},${y1 - 1} l3,6 l3,-6 z`} />
        </g>,
      );
    // A stub at the target: a head into the code, from a short line that comes from above or below.
    if (a.to >= first && a.to < last)
      drawn.push(
        <g class={"stub " + cls} data-stub="to" onClick={() => goTo(a.from)}>
          <title>{describe(a) + " (click: go to the jump)"}</title>
          <path d={`M${edge - STUB + 3},${y2 + (up ? 5 : -5)} V${y2} H${edge}`} marker-end={`url(#${head})`} />
        </g>,
      );
  }
  return (
    <svg
      class="asmarrows"
      width={width}
      height={(last - first) * ROW}
      style={{ top: top + "px" }}
      data-testid="asm-arrows"
      data-jumps={arrows.length}
      data-stubs={arrows.filter((a) => a.lane < 0).length}
      data-lanes={lanes}
      aria-label={`${arrows.length} jumps`}
    >
      <defs>
        <marker id={head} viewBox="0 0 6 6" refX="5" refY="3" markerWidth="6" markerHeight="6" orient="auto">
          <path d="M0,0 L6,3 L0,6 z" fill="currentColor" />
        </marker>
      </defs>
      {drawn}
    </svg>
  );
}

function AsmRow({ r, event, total, top, left }: { r: Row; event: string; total: AsmObject["totals"][string]; top: number; left: number }) {
  const style = { top: top + "px", left: left + "px" };
  if (r.kind === "header") return <div class="asmrow asmsrc" style={style}>{r.text}</div>;
  if (r.kind === "note")
    return (
      <div class="asmrow asmnote" style={style}>
        <span class="num">{r.cost ?? ""}</span>
        <span />
        <span />
        <span>{r.text}</span>
      </div>
    );
  return (
    <div class={"asmrow" + (r.i.hot ? " hot" : "") + (r.i.profiled ? "" : " dimrow")} style={style} data-address={r.i.address} title={r.i.bytes}>
      <span class="num">{r.i.profiled ? fmt(r.i.self[event]) : ""}</span>
      <span class="num">{r.i.profiled ? pct(r.i.self[event], total) : ""}</span>
      <span class="addr">{r.i.address.replace(/^0x/, "")}</span>
      <code>
        {r.i.mnemonic} {r.i.operands}
      </code>
    </div>
  );
}

function OneFunction({ a, event, showObject }: { a: AsmObject; event: string; showObject: boolean }) {
  const { rows, rowOf } = useMemo(() => rowsOf(a, event), [a, event]);
  const arrows = useMemo(() => arrowsOf(a, rowOf), [a, rowOf]);
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.scrollTop = 0; // (another function: from its start)
    const ro = new ResizeObserver(() => setView({ top: el.scrollTop, height: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [a]);
  if (a.status !== "ok")
    return (
      <div class="error" role="alert" data-testid="asm-status">
        {showObject && <b>{a.object}: </b>}
        Not annotated: {a.message}
      </div>
    );
  const lanes = arrows.reduce((m, ar) => Math.max(m, ar.lane + 1), 0);
  const stubs = arrows.filter((ar) => ar.lane < 0).length;
  const width = gutterWidth(lanes);
  const first = Math.max(0, Math.floor(view.top / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((view.top + view.height) / ROW) + OVERSCAN);
  const goTo = (row: number) => {
    const el = box.current;
    if (el) el.scrollTop = Math.max(0, row * ROW - el.clientHeight / 3);
  };
  const shown = [];
  for (let i = first; i < last; i++) shown.push(<AsmRow key={i} r={rows[i]} event={event} total={a.totals[event]} top={i * ROW} left={width} />);
  return (
    <div class="asm">
      <div class="dim asmhead">
        {showObject && <b>{a.object} · </b>}
        {fmt(a.instructions.length)} instructions, self {event} {fmt(a.self[event])} · {fmt(arrows.length)} jumps taken
        {stubs > 0 && ` (${fmt(stubs)} too long for the ${MAX_LANES} lanes: drawn as stubs at both ends, hover for the other end, click to go there)`} · <code>{a.objdump}</code>
        {a.notes.map((n) => (
          <div class="notice">{n}</div>
        ))}
      </div>
      <div
        class="asmbody"
        ref={box}
        data-testid="asm-rows"
        data-rows={rows.length}
        onScroll={(e) => {
          const el = e.currentTarget as HTMLDivElement;
          setView({ top: el.scrollTop, height: el.clientHeight });
        }}
      >
        <div class="asmspacer" style={{ height: rows.length * ROW + "px" }}>
          <Arrows arrows={arrows} lanes={lanes} first={first} last={last} goTo={goTo} />
          {shown}
        </div>
      </div>
    </div>
  );
}

/** Why a profile without instruction addresses has no machine code: callgrind can record them
 * (the option to give); another producer (Xdebug, a Python or Perl profiler) records none. */
function NoInstructions({ creator }: { creator: string }) {
  if (/^callgrind\b/i.test(creator))
    return (
      <div class="hint" data-testid="asm-none">
        This profile has no instruction addresses: record it with <code>valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes</code>.
      </div>
    );
  return (
    <div class="hint" data-testid="asm-none">
      This profile has no machine code: {creator ? <b>{creator}</b> : "the program that wrote it"} records functions and source lines, not the instructions that ran.
    </div>
  );
}

/** The tab: a toggle between the code and its control-flow graph (ControlFlow.tsx), kept in
 * the URL (flow=1). */
export function MachineCode({ f, event, state, creator }: { f: FunctionDetail; event: string; state: ViewState; creator: string }) {
  if (f.kind !== "function") return <div class="hint">A cycle has no machine code of its own: select one of its functions.</div>;
  return (
    <div class="machinetab">
      <div class="toggle" role="group" aria-label="Machine code view" data-testid="asm-toggle">
        <button type="button" aria-pressed={!state.flow} class={state.flow ? "" : "on"} onClick={() => navigate({ flow: false })}>
          Code
        </button>
        <button type="button" aria-pressed={state.flow} class={state.flow ? "on" : ""} onClick={() => navigate({ flow: true })}>
          Control flow
        </button>
      </div>
      {state.flow ? <ControlFlow f={f} event={event} state={state} /> : <Code f={f} event={event} state={state} creator={creator} />}
    </div>
  );
}

function Code({ f, event, state, creator }: { f: FunctionDetail; event: string; state: ViewState; creator: string }) {
  const q = useFetch<AsmAnswer>(f.kind === "function" ? "asm/" + f.id : null, {
    parts: state.parts !== "all" ? state.parts : undefined,
    side: state.side === "old" ? "old" : undefined,
  });
  if (f.kind !== "function") return <div class="hint">A cycle has no machine code of its own: select one of its functions.</div>;
  if (q.error) return <div class="error">{q.error.message}</div>;
  const a = q.data;
  if (!a) return <div class="hint">Disassembling (the profile is read again for this function, then objdump runs)…</div>;
  if (!a.has_instructions) return <NoInstructions creator={creator} />;
  if (a.asm.length === 0) return <div class="hint">No machine code of {f.name} is in the profile (it is only called).</div>;
  return (
    <div class={"machinecode" + (a.asm.length > 1 ? " several" : "")} data-testid="asm">
      {a.asm.map((o) => (
        <OneFunction a={o} event={event} showObject={a.asm.length > 1} />
      ))}
    </div>
  );
}
