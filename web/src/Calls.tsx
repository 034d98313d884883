// Calls.tsx — the selected function's callers and callees (KCachegrind's two panes), a cycle's
// members, and the other keys of the same name; every name is a link to that function.
import type { CallRef, FnRef, FunctionDetail } from "./api";
import { callPct, fmt, location, pct, recursiveNote } from "./format";
import { navigate } from "./url";

export function FnLink({ f, side }: { f: FnRef; side?: "new" | "old" }) {
  return (
    <a
      href="#"
      class={"fn" + (f.kind === "cycle" ? " cycle" : "")}
      title={f.file ? f.file + (f.object ? " (" + f.object + ")" : "") : f.object}
      onClick={(e) => {
        e.preventDefault();
        navigate({ fn: f.id, ...(side ? { side } : {}) });
      }}
    >
      {f.name}
      {f.kind === "function" && f.cycle ? <span class="tag">{`<cycle ${f.cycle}>`}</span> : null}
    </a>
  );
}

function CallTable({ title, rows, total, d, event, side, label }: { title: string; rows: CallRef[]; total: number; d: FunctionDetail; event: string; side?: "new" | "old"; label: string }) {
  return (
    <div class="calltable" aria-label={label}>
      <h3>
        {title} <span class="dim">({total})</span>
      </h3>
      {rows.length === 0 ? (
        <p class="dim">none</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th class="num">Incl. {event}</th>
              <th class="num">%</th>
              <th class="num">Count</th>
              <th>Function</th>
              <th>Location</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr>
                <td class="num" title={r.recursive ? recursiveNote : undefined}>
                  {r.recursive && <span class="dim">Σ </span>}
                  {fmt(r.cost[event])}
                </td>
                <td class="num" data-testid="call-share">{callPct(r.cost[event], d.totals[event], r.recursive)}</td>
                <td class="num">{fmt(r.count)}</td>
                <td>
                  <FnLink f={r} side={side} />
                </td>
                <td class="dim" title={r.file + (r.object ? " (" + r.object + ")" : "")}>{location(r.file, r.object)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {total > rows.length && <p class="dim">{total - rows.length} more not shown</p>}
    </div>
  );
}

export function Calls({ d, event, side }: { d: FunctionDetail; event: string; side?: "new" | "old" }) {
  return (
    <div class="calls">
      <CallTable title="Callers" label="Callers" rows={d.callers} total={d.callers_total} d={d} event={event} side={side} />
      <CallTable title="Callees" label="Callees" rows={d.callees} total={d.callees_total} d={d} event={event} side={side} />
      {d.kind === "cycle" && (
        <div class="calltable" aria-label="Cycle members">
          <h3>
            Members of {d.name} <span class="dim">({d.members_total})</span>
          </h3>
          <table>
            <tbody>
              {d.members.map((m) => (
                <tr>
                  <td class="num">{fmt(m.inclusive?.[event])}</td>
                  <td class="num">{pct(m.inclusive?.[event], d.totals[event])}</td>
                  <td>
                    <FnLink f={m} side={side} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {d.same_name.length > 0 && (
        <div class="calltable">
          <h3>Same name elsewhere</h3>
          <ul>
            {d.same_name.map((f) => (
              <li>
                <FnLink f={f} side={side} /> <span class="dim">{f.file}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
