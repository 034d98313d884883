// Calls.tsx — the selected function's callers and callees (KCachegrind's two panes), a cycle's
// members, and the other keys of the same name; every name is a link to that function. Their
// percentages are of the program's total, or, relative to the parent (KCachegrind's switch),
// of the selected function's inclusive cost (a cycle's members: of the cycle's). A row is
// reached by the keys (c, e: Keys.tsx), moved through with ↑ ↓ j k, selected with Enter.
import { useEffect } from "preact/hooks";
import type { CallRef, Cost, FnRef, FunctionDetail } from "./api";
import { callPct, fmt, location, pct, recursiveNote } from "./format";
import { focusLater, focusList, takePendingFocus } from "./Keys";
import { navigate } from "./url";

/** A function's name that selects it; `row`: in a table's row, itself the stop of the Tab key
 * (Enter there selects), the link then is none. */
export function FnLink({ f, side, row = false }: { f: FnRef; side?: "new" | "old"; row?: boolean }) {
  return (
    <a
      href="#"
      tabIndex={row ? -1 : undefined}
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

/** ↑ ↓ j k move between the rows of a table, Enter selects the row's function, Esc leaves for
 * the function list. */
export function rowKeys(e: KeyboardEvent, go: () => void) {
  const tr = e.currentTarget as HTMLTableRowElement;
  let next: Element | null = null;
  if (e.key === "ArrowDown" || e.key === "j") next = tr.nextElementSibling;
  else if (e.key === "ArrowUp" || e.key === "k") next = tr.previousElementSibling;
  else if (e.key === "Enter") {
    // (the list keeps the focus: its first row once the function's answer is drawn)
    const which = tr.closest(".calltable")?.getAttribute("aria-label");
    focusLater(which === "Callers" ? "callers" : which === "Callees" ? "callees" : null);
    go();
  }
  else if (e.key === "Escape") focusList("functions");
  else return;
  e.preventDefault();
  (next as HTMLElement | null)?.focus();
}

function CallTable({ title, rows, total, d, event, side, label, base, sampled }: { title: string; rows: CallRef[]; total: number; d: FunctionDetail; event: string; side?: "new" | "old"; label: string; base: Cost | undefined; sampled?: boolean }) {
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
              <th class="num" title={base === d.totals[event] ? "of the program's total" : "of the selected function's inclusive cost (relative to parent)"}>
                {base === d.totals[event] ? "%" : "% of it"}
              </th>
              <th class="num" title={sampled ? "samples taken under the call (a sampling profiler's file: not calls made)" : "calls made"}>
                {sampled ? "Samples" : "Count"}
              </th>
              <th>Function</th>
              <th>Location</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr tabIndex={i === 0 ? 0 : -1} onKeyDown={(e) => rowKeys(e, () => navigate({ fn: r.id, ...(side ? { side } : {}) }))}>
                <td class="num" title={r.recursive ? recursiveNote : undefined}>
                  {r.recursive && <span class="dim">Σ </span>}
                  {fmt(r.cost[event])}
                </td>
                <td class="num" data-testid="call-share">{callPct(r.cost[event], base, r.recursive)}</td>
                <td class="num">{fmt(r.count)}</td>
                <td>
                  <FnLink f={r} side={side} row />
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

export function Calls({ d, event, side, relative, sampled }: { d: FunctionDetail; event: string; side?: "new" | "old"; relative?: boolean; sampled?: boolean }) {
  const base = relative ? d.inclusive[event] : d.totals[event];
  // (after c or e on another tab, or Enter on a row: the focus goes to that list's first row)
  useEffect(() => {
    const which = takePendingFocus();
    if (which) focusList(which);
  }, [d.id]);
  return (
    <div class="calls">
      <CallTable title="Callers" label="Callers" rows={d.callers} total={d.callers_total} d={d} event={event} side={side} base={base} sampled={sampled} />
      <CallTable title="Callees" label="Callees" rows={d.callees} total={d.callees_total} d={d} event={event} side={side} base={base} sampled={sampled} />
      {d.kind === "cycle" && (
        <div class="calltable members" aria-label="Cycle members">
          <h3>
            Members of {d.name} <span class="dim">({d.members_total})</span>
          </h3>
          <table>
            <thead>
              <tr>
                <th class="num" title="the member's inclusive cost: its self cost and its calls leaving the cycle">
                  Incl. {event}
                </th>
                <th class="num" title={relative ? "of the cycle's inclusive cost (relative to parent)" : "of the program's total"}>
                  {relative ? "% of the cycle" : "%"}
                </th>
                <th>Member</th>
                <th>Location</th>
              </tr>
            </thead>
            <tbody>
              {d.members.map((m, i) => (
                <tr tabIndex={i === 0 ? 0 : -1} onKeyDown={(e) => rowKeys(e, () => navigate({ fn: m.id, ...(side ? { side } : {}) }))}>
                  <td class="num">{fmt(m.inclusive?.[event])}</td>
                  <td class="num">{pct(m.inclusive?.[event], base)}</td>
                  <td>
                    <FnLink f={m} side={side} row />
                  </td>
                  <td class="dim" title={m.file + (m.object ? " (" + m.object + ")" : "")}>
                    {location(m.file, m.object)}
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
