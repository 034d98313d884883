// Parts.tsx — the parts of one run side by side (threads with --separate-threads, dumps): each
// part's total, and the selected function's self and inclusive cost in each part, asked of
// GET /api/v1/function/ID?parts=N one part at a time. A click on a part's head shows it alone.
import { useEffect, useState } from "preact/hooks";
import { callsAreSamples, get, type FunctionDetail, type Profile } from "./api";
import { base, fmt, pct } from "./format";
import { navigate } from "./url";

const MAX_PARTS = 64;

export function Parts({ p, fn, event }: { p: Profile; fn: number | null; event: string }) {
  const parts = p.inputs[p.inputs.length - 1].parts.slice(0, MAX_PARTS);
  const files = p.inputs[p.inputs.length - 1].files; // a run of several files
  const [per, setPer] = useState<(FunctionDetail | null)[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setPer([]);
    if (fn === null) return;
    let live = true;
    Promise.all(parts.map((q) => get<FunctionDetail>("function/" + fn, { parts: q.index, sort: event, limit: 1 }).catch(() => null))).then(
      (r) => live && setPer(r),
      (e) => live && setError(String(e)),
    );
    return () => void (live = false);
  }, [fn, event]);
  if (parts.length < 2) return <div class="hint">This profile has one part.</div>;
  return (
    <div class="calltable parts" data-testid="parts">
      <h3>Parts side by side</h3>
      {error && <div class="error">{error}</div>}
      <table>
        <thead>
          <tr>
            <th></th>
            {parts.map((q) => (
              <th class="num">
                <a href="#" onClick={(e) => (e.preventDefault(), navigate({ parts: String(q.index) }))} title="show this part alone">
                  Part {q.index}
                </a>
                <div class="dim">{q.thread !== null ? `thread ${q.thread}` : q.pid !== null ? `pid ${q.pid}` : ""}</div>
                {files && q.file !== undefined && <div class="dim" data-testid="part-file">{base(files[q.file].name)}</div>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Total {event}</td>
            {parts.map((q) => (
              <td class="num">
                {fmt(q.totals[event])} <span class="dim">{pct(q.totals[event], p.totals[event])}</span>
              </td>
            ))}
          </tr>
          {fn !== null && (
            <>
              <tr>
                <td>Self</td>
                {parts.map((_, i) => (
                  <td class="num" data-part-self={i + 1}>
                    {per[i] ? fmt(per[i]!.self[event]) : per.length ? "—" : "…"}
                  </td>
                ))}
              </tr>
              <tr>
                <td>Inclusive</td>
                {parts.map((q, i) => (
                  <td class="num">
                    {per[i] ? (
                      <>
                        {fmt(per[i]!.inclusive[event])} <span class="dim">{pct(per[i]!.inclusive[event], q.totals[event])}</span>
                      </>
                    ) : per.length ? (
                      "—"
                    ) : (
                      "…"
                    )}
                  </td>
                ))}
              </tr>
              <tr>
                <td>{callsAreSamples(p) ? "Samples" : "Calls"}</td>
                {parts.map((_, i) => (
                  <td class="num">{per[i] ? fmt(per[i]!.calls) : ""}</td>
                ))}
              </tr>
            </>
          )}
        </tbody>
      </table>
      {p.inputs[p.inputs.length - 1].parts.length > MAX_PARTS && <p class="dim">The first {MAX_PARTS} parts are shown.</p>}
      {fn === null && <p class="dim">Select a function to see its cost in each part.</p>}
    </div>
  );
}
