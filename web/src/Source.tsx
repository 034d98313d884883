// Source.tsx — the selected function's source file with its per-line costs (GET
// /api/v1/source/FILE_ID): hot lines highlighted, the calls made from a line and its jumps
// beneath it; scrolled to the function's first line. A file that cannot be read says why and
// still lists the costs per line. Shown through a window, as the function list: every line
// and every note beneath one is a row of one height, and only the rows in view are in the
// page, so a file of any length scrolls as one of 50 lines.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { isReport, type FunctionDetail, type Profile, type Source, type SourceLine } from "./api";
import { FnLink } from "./Calls";
import { callPct, fmt, num, pct, recursiveNote } from "./format";
import { navigate, type ViewState } from "./url";
import { useFetch } from "./useFetch";

const ROW = 18; // px, every line and every note
const OVERSCAN = 20;

type Call = NonNullable<SourceLine["calls"]>[number];
type Jump = NonNullable<SourceLine["jumps"]>[number];
/** One row of the view: a line of the file (n: its number, 0 for cost without one), or a call
 * (or the calls past the answer's max_calls, summed) or a jump noted beneath line n. */
type Item = { n: number; l?: SourceLine; call?: Call; more?: SourceLine["more_calls"]; jump?: Jump };

function Note({ it, event, totals, top }: { it: Item; event: string; totals: Record<string, number | string>; top: number }) {
  if (it.call) {
    const c = it.call;
    return (
      <div class="srcnote" style={{ top: top + "px" }} title={c.recursive ? recursiveNote : undefined}>
        <span />
        <span class="num">{fmt(c.cost[event])}</span>
        <span class="num" data-testid="call-share">{callPct(c.cost[event], totals[event], c.recursive)}</span>
        <span>
          → {fmt(c.count)} call{c.count === 1 ? "" : "s"} to <FnLink f={c.callee} />
          {c.recursive && <span class="dim"> (recursive: Σ over nested calls)</span>}
        </span>
      </div>
    );
  }
  if (it.more) {
    const m = it.more;
    return (
      <div class="srcnote" style={{ top: top + "px" }} data-testid="more-calls">
        <span />
        <span class="num">{fmt(m.cost[event])}</span>
        <span class="num">{pct(m.cost[event], totals[event])}</span>
        <span class="dim">
          → {fmt(m.count)} more call{m.count === 1 ? "" : "s"} from this line, each of less cost (not listed)
        </span>
      </div>
    );
  }
  const j = it.jump!;
  return (
    <div class="srcnote jump" style={{ top: top + "px" }}>
      <span />
      <span class="num">{fmt(j.executed)}</span>
      <span />
      <span>{j.conditional ? `⤷ conditional jump to line ${j.target_line}: taken ${fmt(j.followed)} of ${fmt(j.executed)}` : `⤷ jump to line ${j.target_line}: ${fmt(j.followed)} times`}</span>
    </div>
  );
}

export function SourceView({ f, event, state }: { f: FunctionDetail; event: string; state: ViewState }) {
  // A function's code may lie in several files (inlined from headers): its own file first,
  // then each other found file, picked above the text, each with its self cost there. It
  // opens on the file the URL names (#file=ID), else on its costliest.
  const spans = f.source
    ? [{ file_id: f.source.file_id, file: f.file, first_line: f.source.first_line, last_line: f.source.last_line, self: f.source.self }, ...(f.source.inlined ?? [])]
    : [];
  let costliest = 0;
  spans.forEach((sp, i) => {
    if (num(sp.self?.[event]) > num(spans[costliest].self?.[event])) costliest = i;
  });
  const named = spans.findIndex((sp) => String(sp.file_id) === state.file);
  const picked = named >= 0 ? named : costliest;
  const selfAll = spans.reduce((a, sp) => a + num(sp.self?.[event]), 0);
  const span = spans[Math.min(picked, Math.max(0, spans.length - 1))];
  const fileId = span ? span.file_id : f.file_id;
  // One part chosen (a thread): its own lines, which the server reads again for it; several
  // parts (or a report, which holds every part's lines): the lines of every part.
  const onePart = /^\d+$/.test(state.parts) && !isReport();
  const q = useFetch<Source>(fileId === null || fileId === undefined ? null : "source/" + fileId, {
    function: f.id,
    sort: event,
    side: state.side === "old" ? "old" : undefined,
    parts: onePart ? state.parts : undefined,
  });
  const partsChosen = state.parts !== "all" && !onePart;
  const prof = useFetch<Profile>(partsChosen ? "profile" : null, {});
  const box = useRef<HTMLDivElement>(null);
  const first = span?.first_line ?? 0;
  const s = q.data;
  // Every row of the view, made once per answer.
  const items = useMemo(() => {
    const out: Item[] = [];
    // (`???` and `php:internal` are no file: their "lines" are those of every function without
    // one, not this function's: only the note is shown.)
    if (!s || s.no_file) return out;
    const byLine = new Map<number, SourceLine>();
    for (const l of s.lines) byLine.set(l.line, l);
    const push = (n: number, l: SourceLine | undefined) => {
      out.push({ n, l });
      if (l) {
        for (const call of l.calls ?? []) out.push({ n, call });
        if (l.more_calls) out.push({ n, more: l.more_calls });
        for (const jump of l.jumps ?? []) out.push({ n, jump });
      }
    };
    const zero = byLine.get(0);
    if (zero) push(0, zero);
    if (!s.missing) for (let i = 1; i <= s.text.length; i++) push(i, byLine.get(i));
    else for (const l of s.lines) if (l.line > 0) push(l.line, l);
    return out;
  }, [s]);
  const [view, setView] = useState({ top: 0, height: 600 });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setView({ top: el.scrollTop, height: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [s]);
  // Open at the function's first line.
  useEffect(() => {
    const el = box.current;
    if (!el || !items.length) return;
    let at = 0;
    if (first) {
      let lo = 0, hi = items.length - 1; // (rows are in line order)
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (items[mid].n < first) lo = mid + 1;
        else hi = mid;
      }
      at = lo;
    }
    el.scrollTop = Math.max(0, at * ROW - 40);
    setView({ top: el.scrollTop, height: el.clientHeight });
  }, [items, first]);
  if (fileId === null || fileId === undefined) return <div class="hint">This function has no source file in the profile.</div>;
  if (q.error) return <div class="error">{q.error.message}</div>;
  if (!s) return <div class="hint">Loading the source…</div>;
  // (With one part, the lines are that part's, their shares of its total (the function's
  // answer's, of that part). With several parts chosen, the lines are of every part, as the
  // server keeps them: their shares are of the program's total; the head says so.)
  const totals = (partsChosen ? prof.data?.totals ?? {} : f.totals) as Record<string, number | string>;
  const from = Math.max(0, Math.floor(view.top / ROW) - OVERSCAN);
  const to = Math.min(items.length, Math.ceil((view.top + view.height) / ROW) + OVERSCAN);
  const rows = [];
  for (let i = from; i < to; i++) {
    const it = items[i];
    const top = i * ROW;
    if (it.call || it.more || it.jump) {
      rows.push(<Note key={i} it={it} event={event} totals={totals} top={top} />);
      continue;
    }
    const { n, l } = it;
    const inFn = span && span.first_line > 0 && n >= span.first_line && n <= span.last_line;
    const text = n === 0 ? "(cost without a line number)" : s.missing ? "" : s.text[n - 1];
    rows.push(
      <div key={i} class={"srcline" + (l?.hot ? " hot" : "") + (inFn ? " infn" : "")} data-line={n} style={{ top: top + "px" }}>
        <span class="ln">{n || ""}</span>
        <span class="num">{l ? fmt(l.self[event]) : ""}</span>
        <span class="num">{l ? pct(l.self[event], totals[event]) : ""}</span>
        <code>{text}</code>
      </div>,
    );
  }
  return (
    <div class="source" data-testid="source">
      {spans.length > 1 && (
        <div class="srcfiles" data-testid="source-files">
          <span class="dim">Its code is in {spans.length} files: </span>
          {spans.map((sp, i) => (
            <button
              class={i === picked ? "on" : ""}
              aria-pressed={i === picked}
              data-testid="source-file"
              title={`${sp.file}\n${fmt(sp.self?.[event])} ${event} of its self cost (every part) is in this file`}
              onClick={() => navigate({ file: String(sp.file_id) })}
            >
              {sp.file.split("/").pop()}
              {i === 0 ? " (its own)" : ` (inlined, lines ${sp.first_line}–${sp.last_line})`}
              {sp.self && (
                <span class="dim" data-testid="source-file-cost">
                  {" · "}
                  {fmt(sp.self[event])} {pct(sp.self[event], selfAll)}
                </span>
              )}
            </button>
          ))}
        </div>
      )}
      <div class="srchead">
        <b data-testid="source-name">{s.name}</b>{" "}
        <span class="dim">
          {!s.missing && <span data-testid="source-lines">{fmt(s.text.length)} lines · </span>}
          hot: a line with at least {(s.hot * 100).toFixed(2)}% of the total {s.event}
          {s.part && <span data-testid="source-one-part"> · costs of part {s.part} alone, % of its total</span>}
          {partsChosen && <span data-testid="source-all-parts"> · costs of every part (lines are kept summed over the parts), % of the program's total</span>}
          {!s.has_costs && !s.no_file && " · this file has no costs per line (it was not found while reading; start serve with -I or --source-root)"}
        </span>
      </div>
      {s.missing && (
        <div class={s.no_file ? "notice" : "error"} role={s.no_file ? "note" : "alert"} data-testid="source-missing">
          {s.message ?? "The source file cannot be shown"}
          {!s.no_file && s.lines.length > 0 ? ". Its costs per line, without the text:" : "."}
        </div>
      )}
      <div class="srcbody" ref={box} hidden={s.no_file} onScroll={(e) => {
        const el = e.currentTarget as HTMLDivElement;
        setView({ top: el.scrollTop, height: el.clientHeight });
      }}>
        <div class="srcspacer" style={{ height: items.length * ROW + "px" }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
