// MachineCode.tsx — the selected function's machine code (GET /api/v1/asm/ID; KCachegrind's
// Machine Code tab): each instruction with its cost, hot ones highlighted, a header wherever
// the source line changes, the calls made from an instruction and its jumps beneath it, and
// jump arrows beside the code, one per jump executed at least once, drawn from the jump to
// its target as KCachegrind draws them (nested arrows in lanes of their own, the widest
// outside). Needs a profile written with callgrind --dump-instr=yes (--collect-jumps=yes for
// the jumps) and the object files it names; otherwise the panel says why.
import type { AsmAnswer, AsmInstruction, AsmObject, FunctionDetail } from "./api";
import { fmt, pct } from "./format";
import type { ViewState } from "./url";
import { useFetch } from "./useFetch";

const ROW = 18; // px: every row (instruction, header, note) has this height, for the arrows

type Row =
  | { kind: "header"; text: string }
  | { kind: "insn"; i: AsmInstruction; index: number }
  | { kind: "note"; text: string; cost?: string };

interface Arrow {
  from: number; // row numbers
  to: number;
  conditional: boolean;
  taken: number; // share of executions that jumped, 0..1
  lane: number;
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

// Lanes: the shortest arrows nearest the code; an arrow takes the first lane free over its span.
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
      });
    }
  });
  arrows.sort((x, y) => Math.abs(x.to - x.from) - Math.abs(y.to - y.from));
  const busy: [number, number][][] = [];
  for (const ar of arrows) {
    const lo = Math.min(ar.from, ar.to), hi = Math.max(ar.from, ar.to);
    let lane = 0;
    while (busy[lane]?.some(([a, b]) => !(hi < a || lo > b))) lane++;
    (busy[lane] ??= []).push([lo, hi]);
    ar.lane = lane;
  }
  return arrows;
}

function Arrows({ arrows, rows }: { arrows: Arrow[]; rows: number }) {
  const lanes = arrows.reduce((m, a) => Math.max(m, a.lane + 1), 0);
  const width = 10 + lanes * 9;
  return (
    <svg class="asmarrows" width={width} height={rows * ROW} data-testid="asm-arrows" aria-label={`${arrows.length} jumps`}>
      <defs>
        <marker id="asm-head" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="6" markerHeight="6" orient="auto">
          <path d="M0,0 L6,3 L0,6 z" fill="currentColor" />
        </marker>
      </defs>
      {arrows.map((a) => {
        const x = width - 6 - (a.lane + 1) * 9;
        const y1 = a.from * ROW + ROW / 2, y2 = a.to * ROW + ROW / 2;
        return (
          <path
            class={a.conditional ? "cond" : "uncond"}
            d={`M${width - 2},${y1} H${x} V${y2} H${width - 2}`}
            stroke-width={1 + 2 * a.taken}
            marker-end="url(#asm-head)"
          >
            <title>{a.conditional ? `conditional jump, ${(100 * a.taken).toFixed(1)}% taken` : "jump"}</title>
          </path>
        );
      })}
    </svg>
  );
}

function OneFunction({ a, event, showObject }: { a: AsmObject; event: string; showObject: boolean }) {
  if (a.status !== "ok")
    return (
      <div class="error" role="alert" data-testid="asm-status">
        {showObject && <b>{a.object}: </b>}
        Not annotated: {a.message}
      </div>
    );
  const { rows, rowOf } = rowsOf(a, event);
  const arrows = arrowsOf(a, rowOf);
  const total = a.totals[event];
  return (
    <div class="asm">
      <div class="dim asmhead">
        {showObject && <b>{a.object} · </b>}
        {a.instructions.length} instructions, self {event} {fmt(a.self[event])} · <code>{a.objdump}</code>
        {a.notes.map((n) => (
          <div class="notice">{n}</div>
        ))}
      </div>
      <div class="asmbody">
        <Arrows arrows={arrows} rows={rows.length} />
        <div class="asmrows" data-testid="asm-rows">
          {rows.map((r) =>
            r.kind === "header" ? (
              <div class="asmrow asmsrc">{r.text}</div>
            ) : r.kind === "note" ? (
              <div class="asmrow asmnote">
                <span class="num">{r.cost ?? ""}</span>
                <span />
                <span />
                <span>{r.text}</span>
              </div>
            ) : (
              <div class={"asmrow" + (r.i.hot ? " hot" : "") + (r.i.profiled ? "" : " dimrow")} data-address={r.i.address} title={r.i.bytes}>
                <span class="num">{r.i.profiled ? fmt(r.i.self[event]) : ""}</span>
                <span class="num">{r.i.profiled ? pct(r.i.self[event], total) : ""}</span>
                <span class="addr">{r.i.address.replace(/^0x/, "")}</span>
                <code>
                  {r.i.mnemonic} {r.i.operands}
                </code>
              </div>
            ),
          )}
        </div>
      </div>
    </div>
  );
}

export function MachineCode({ f, event, state }: { f: FunctionDetail; event: string; state: ViewState }) {
  const q = useFetch<AsmAnswer>(f.kind === "function" ? "asm/" + f.id : null, {
    parts: state.parts !== "all" ? state.parts : undefined,
    side: state.side === "old" ? "old" : undefined,
  });
  if (f.kind !== "function") return <div class="hint">A cycle has no machine code of its own: select one of its functions.</div>;
  if (q.error) return <div class="error">{q.error.message}</div>;
  const a = q.data;
  if (!a) return <div class="hint">Disassembling (the profile is read again for this function, then objdump runs)…</div>;
  if (!a.has_instructions)
    return <div class="hint">This profile has no instruction addresses: record it with <code>valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes</code>.</div>;
  if (a.asm.length === 0) return <div class="hint">No machine code of {f.name} is in the profile (it is only called).</div>;
  return (
    <div class="machinecode" data-testid="asm">
      {a.asm.map((o) => (
        <OneFunction a={o} event={event} showObject={a.asm.length > 1} />
      ))}
    </div>
  );
}
