// Diagnostics.tsx — what reading the files found, above the list: errors first, then warnings
// (the reader's, the tables' and the events'), then notes grouped by code, each code with its
// count (a file may hold 852,438 notes of one code: the first 20 are listed, all are counted).
// The summary line counts what the list holds, by severity; the bar is red for errors, amber
// for warnings, neutral for notes alone.
import type { Diagnostic, Input, Profile } from "./api";
import { base, fmt, plural } from "./format";

function Line({ d }: { d: Diagnostic }) {
  return (
    <li class={d.severity}>
      <code>
        {d.file}:{d.line}:{d.column}: {d.severity}: {d.message} [{d.code}]
      </code>
      {d.text && <pre>{d.text}</pre>}
    </li>
  );
}

/** The codes of one severity with their counts; those the server gives none for, from `shown`. */
function codes(i: Input, severity: string): { code: string; count: number }[] {
  const by = i.diagnostics.by_code;
  if (by) return by.filter((c) => c.severity === severity);
  const m = new Map<string, number>();
  for (const d of i.diagnostics.shown) if (d.severity === severity) m.set(d.code, (m.get(d.code) ?? 0) + 1);
  return [...m].map(([code, count]) => ({ code, count }));
}

/** Of one severity: the listed ones, then a line per code with more than are listed. */
function Severity({ i, severity }: { i: Input; severity: "error" | "warning" }) {
  const shown = i.diagnostics.shown.filter((d) => d.severity === severity);
  const more = codes(i, severity)
    .map((c) => ({ ...c, left: c.count - shown.filter((d) => d.code === c.code).length }))
    .filter((c) => c.left > 0);
  return (
    <>
      {shown.map((d) => (
        <Line d={d} />
      ))}
      {more.map((c) => (
        <li class={severity} data-testid="diag-more">
          {plural(c.left, "more " + severity)} [{c.code}] not listed
        </li>
      ))}
    </>
  );
}

/** The notes of one input, a group per code: its count, its first ones beneath. */
function Notes({ i }: { i: Input }) {
  return (
    <>
      {codes(i, "note").map((c) => {
        const shown = i.diagnostics.shown.filter((d) => d.severity === "note" && d.code === c.code);
        return (
          <li class="note" data-testid="diag-note-group" data-code={c.code}>
            <details>
              <summary>
                <b>{plural(c.count, "note")}</b> [{c.code}]
                {shown.length ? (shown.length < c.count ? ` · the first ${fmt(shown.length)} listed` : "") : " · none listed"}
                {shown[0] ? `: ${shown[0].message}` : ""}
              </summary>
              <ul>
                {shown.map((d) => (
                  <Line d={d} />
                ))}
              </ul>
            </details>
          </li>
        );
      })}
    </>
  );
}

export function Diagnostics({ p }: { p: Profile }) {
  const many = p.inputs.length > 1;
  const items = p.inputs.filter((i) => i.diagnostics.errors + i.diagnostics.warnings + i.diagnostics.notes > 0 || !i.complete || i.warnings.length);
  if (!items.length && !p.event_warnings.length) return null;
  // The warnings of the list: the reader's, the tables' (an inclusive cost saturated, ...) and,
  // once, the events' (a formula's unknown name).
  const summary = items.map((i, k) => {
    const d = i.diagnostics;
    const warnings = d.warnings + i.warnings.length + (k === items.length - 1 ? p.event_warnings.length : 0);
    const parts = [plural(d.errors, "error"), plural(warnings, "warning")];
    if (d.notes) parts.push(plural(d.notes, "note"));
    return `${base(i.name)}: ${parts.join(", ")}${i.complete ? "" : ", not read to its end"}`;
  });
  if (!items.length) summary.push(plural(p.event_warnings.length, "warning"));
  // The bar's colour says its worst: red for an error (or a file not read to its end), amber
  // for a warning, neutral for notes alone.
  const worst = items.some((i) => i.diagnostics.errors > 0 || !i.complete)
    ? "error"
    : items.some((i) => i.diagnostics.warnings + i.warnings.length > 0) || p.event_warnings.length > 0
      ? "warning"
      : "note";
  return (
    <details class={"diagnostics worst-" + worst} data-worst={worst} open={worst !== "note"} aria-label="Diagnostics">
      <summary data-testid="diag-summary">{summary.join("; ")}</summary>
      <ul data-testid="diag-list">
        {items.map((i) => (
          <>
            {many && <li class="file">{base(i.name)}</li>}
            <Severity i={i} severity="error" />
            <Severity i={i} severity="warning" />
            {i.warnings.map((w) => (
              <li class="warning">warning: {w}</li>
            ))}
          </>
        ))}
        {p.event_warnings.map((w) => (
          <li class="warning">warning: {w}</li>
        ))}
        {items.map((i) => (
          <>
            {many && codes(i, "note").length > 0 && <li class="file">{base(i.name)}: notes</li>}
            <Notes i={i} />
          </>
        ))}
      </ul>
    </details>
  );
}
