// Source.tsx — the selected function's source file with its per-line costs (GET
// /api/v1/source/FILE_ID): hot lines highlighted, the calls made from a line and its jumps
// beneath it; scrolled to the function's first line. A file that cannot be read says why and
// still lists the costs per line.
import { useEffect, useRef } from "preact/hooks";
import type { FunctionDetail, Source, SourceLine } from "./api";
import { FnLink } from "./Calls";
import { fmt, pct } from "./format";
import type { ViewState } from "./url";
import { useFetch } from "./useFetch";

const MAX_LINES = 50000;

function Annotations({ l, event, totals }: { l: SourceLine; event: string; totals: Record<string, number | string> }) {
  return (
    <>
      {(l.calls ?? []).map((c) => (
        <div class="srcnote">
          <span />
          <span class="num">{fmt(c.cost[event])}</span>
          <span class="num">{Number(c.cost[event]) <= Number(totals[event]) ? pct(c.cost[event], totals[event]) : ""}</span>
          <span>
            → {fmt(c.count)} call{c.count === 1 ? "" : "s"} to <FnLink f={c.callee} />
          </span>
        </div>
      ))}
      {(l.jumps ?? []).map((j) => (
        <div class="srcnote jump">
          <span />
          <span class="num">{fmt(j.executed)}</span>
          <span />
          <span>
            {j.conditional ? `⤷ conditional jump to line ${j.target_line}: taken ${fmt(j.followed)} of ${fmt(j.executed)}` : `⤷ jump to line ${j.target_line}: ${fmt(j.followed)} times`}
          </span>
        </div>
      ))}
    </>
  );
}

export function SourceView({ f, event, state }: { f: FunctionDetail; event: string; state: ViewState }) {
  const fileId = f.source?.file_id ?? f.file_id;
  const q = useFetch<Source>(fileId === null || fileId === undefined ? null : "source/" + fileId, {
    function: f.id,
    sort: event,
    side: state.side === "old" ? "old" : undefined,
  });
  const box = useRef<HTMLDivElement>(null);
  const first = f.source?.first_line ?? 0;
  useEffect(() => {
    const el = box.current?.querySelector(`[data-line="${first}"]`) as HTMLElement | null;
    if (el && box.current) box.current.scrollTop = el.offsetTop - 40;
  }, [q.data, first]);
  if (fileId === null || fileId === undefined) return <div class="hint">This function has no source file in the profile.</div>;
  if (q.error) return <div class="error">{q.error.message}</div>;
  const s = q.data;
  if (!s) return <div class="hint">Loading the source…</div>;
  const totals = f.totals as Record<string, number | string>;
  const byLine = new Map<number, SourceLine>();
  for (const l of s.lines) byLine.set(l.line, l);
  const rows = [];
  const zero = byLine.get(0);
  if (zero) rows.push(line(0, "(cost without a line number)", zero));
  function line(n: number, text: string, l: SourceLine | undefined) {
    const inFn = f.source && n >= f.source.first_line && n <= f.source.last_line;
    return (
      <>
        <div class={"srcline" + (l?.hot ? " hot" : "") + (inFn ? " infn" : "")} data-line={n}>
          <span class="ln">{n || ""}</span>
          <span class="num">{l ? fmt(l.self[event]) : ""}</span>
          <span class="num">{l ? pct(l.self[event], totals[event]) : ""}</span>
          <code>{text}</code>
        </div>
        {l && (l.calls?.length || l.jumps?.length) ?  <Annotations l={l} event={event} totals={totals} /> : null}
      </>
    );
  }
  if (!s.missing) {
    const n = Math.min(s.text.length, MAX_LINES);
    for (let i = 1; i <= n; i++) rows.push(line(i, s.text[i - 1], byLine.get(i)));
  } else {
    for (const l of s.lines) if (l.line > 0) rows.push(line(l.line, "", l));
  }
  return (
    <div class="source" data-testid="source">
      <div class="srchead">
        <b data-testid="source-name">{s.name}</b>{" "}
        <span class="dim">
          hot: a line with at least {(s.hot * 100).toFixed(2)}% of the total {s.event}
          {!s.has_costs && " · this file has no costs per line (it was not found while reading; start serve with -I or --source-root)"}
        </span>
      </div>
      {s.missing && (
        <div class="error" role="alert" data-testid="source-missing">
          {s.message ?? "The source file cannot be shown."} {s.lines.length > 0 && "Its costs per line:"}
        </div>
      )}
      {!s.missing && s.text.length > MAX_LINES && <div class="notice">Only the first {MAX_LINES} lines are shown.</div>}
      <div class="srcbody" ref={box}>
        {rows}
      </div>
    </div>
  );
}
