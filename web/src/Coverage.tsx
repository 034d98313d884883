// Coverage.tsx — KCachegrind's All Callers and All Callees: every function that reaches the
// selected one, or that it reaches, with the part of its inclusive cost on the call paths
// through that function and the distance (calls between them, fewest to most), heaviest first;
// each row selects its function (GET /api/v1/coverage/ID, docs/serve.md).
import type { Coverage as CoverageData } from "./api";
import { fmt, num, pct } from "./format";
import { rowKeys } from "./Calls";
import { navigate, type ViewState } from "./url";
import { useFetch } from "./useFetch";

export function Coverage({ fn, event, state, direction }: { fn: number; event: string; state: ViewState; direction: "callers" | "callees" }) {
  const q = useFetch<CoverageData>("coverage/" + fn, {
    parts: state.parts,
    sort: event,
    direction,
    side: state.side === "old" ? "old" : undefined,
    limit: 1000,
  });
  if (q.error) return <div class="error">{q.error.message}</div>;
  const d = q.data;
  if (!d) return <div class="hint">Following the call paths…</div>;
  const total = d.total[event];
  const callers = direction === "callers";
  return (
    <div class="coverage calltable" data-testid={"coverage-" + direction}>
      <p class="dim">
        {callers ? "All callers" : "All callees"} of <b>{d.function.name}</b>: every function {callers ? "on a call path to it" : "on a call path from it"} ({fmt(d.total_entries)}), with the part of its{" "}
        {callers ? "inclusive cost that comes through that function" : "inclusive cost spent in that function and below it"} (of{" "}
        <span data-testid="coverage-total">{fmt(total)}</span> {event}), and the distance in calls. Estimated where a function has several callers (docs/estimate.md); recursion is counted once.
        {d.pruned > 0 && ` ${fmt(d.pruned)} paths below ${(d.min * 100).toFixed(2)}% are not followed.`}
      </p>
      <table>
        <thead>
          <tr>
            <th class="num">{event}</th>
            <th class="num">%</th>
            <th class="num" title="calls between the two functions, fewest to most">Distance</th>
            <th class="num" title="the call paths through it that were followed">Paths</th>
            <th>{callers ? "Caller" : "Callee"}</th>
          </tr>
        </thead>
        <tbody>
          {d.entries.map((e, i) => (
            // (the rows are one stop of the Tab key, as the callers': ↑ ↓ move, Enter selects)
            <tr data-fn={e.id} data-cost={String(e.cost[event] ?? 0)} tabIndex={i === 0 ? 0 : -1} onKeyDown={(ev) => rowKeys(ev, () => navigate({ fn: e.id }))}>
              <td class="num">{fmt(e.cost[event])}</td>
              <td class="num">{pct(e.cost[event], total)}</td>
              <td class="num">{e.min_distance === e.max_distance ? String(e.min_distance) : `${e.min_distance}-${e.max_distance}`}</td>
              <td class="num">{fmt(e.paths)}</td>
              <td>
                <a
                  href="#"
                  tabIndex={-1}
                  title={e.file + (e.object ? " · " + e.object : "")}
                  onClick={(ev) => {
                    ev.preventDefault();
                    navigate({ fn: e.id });
                  }}
                >
                  {e.name}
                </a>
                {e.cycle ? <span class="tag">{`<cycle ${e.cycle}>`}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {d.total_entries > d.entries.length && <p class="dim">{fmt(d.total_entries - d.entries.length)} more, of less cost, not listed.</p>}
      {num(total) === 0 && <p class="hint">No cost of {event} flows through this function.</p>}
    </div>
  );
}
