// ReportNotice.tsx — what a report (`calltree report --html`) holds and what it leaves out: the
// threshold of its function list, and each kind of answer's byte budget (docs/serve.md).
import type { Gate, Report, ReportBudget } from "./api";
import { fmt } from "./format";

const mb = (n: number) => (n >= 1 << 20 ? `${+(n / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);

function budget(what: string, b: ReportBudget) {
  return `${what}: ${fmt(b.shown)} held${b.left_out ? `, ${fmt(b.left_out)} left out` : ""} (${mb(b.bytes)} of ${mb(b.budget)}, at most ${mb(b.each)} each)`;
}

/** A diff report's gate (`--fail-above`), as calltree diff's text says it, at the top of the page. */
export function Verdict({ g }: { g: Gate }) {
  return (
    <div class={"verdict " + (g.passed ? "pass" : "fail")} role="status" data-testid="verdict" title="calltree report --html OLD NEW --fail-above: the exit status is calltree diff --fail-above's (1 when it failed)">
      <b data-testid="verdict-result">{g.passed ? "PASS" : "FAIL"}</b> <span data-testid="verdict-heading">{g.heading}</span>: <span data-testid="verdict-line">{g.line}</span>
    </div>
  );
}

export function ReportNotice({ r, parts, diff }: { r: Report; parts: number; diff?: boolean }) {
  if (diff)
    return (
      <details class="notice" data-testid="report-threshold">
        <summary>
          A diff report (calltree report --html OLD NEW): it lists the functions whose inclusive {r.event} in OLD or NEW is at least {r.threshold * 100}% of that side's total, {fmt(r.shown)} of {fmt(r.functions)}, with their change, callers, callees, call graph, flame graphs and source on each side, the program's flame graph coloured by change, and the groups. What it does not hold says so: open the profiles with <code>calltree serve OLD NEW</code> for everything.
        </summary>
        <ul data-testid="report-budgets">
          <li>
            Call graphs at callers depth {r.graph.up}, callees depth {r.graph.down}, calls below {r.graph.min * 100}% hidden, by {r.event} — {budget("graphs", r.graphs)}.
          </li>
          <li>
            Each function's flame graphs (sandwich, callee map) by {r.event}, at most {fmt(r.flame.max_frames)} frames — {budget("functions", r.flames)}.
          </li>
          <li>{budget("Source files", r.sources)}.</li>
          <li>The counts and the groups' sums are of every function (as calltree diff's); a search or a group counts the rows listed. All parts are summed.</li>
        </ul>
      </details>
    );
  return (
    <details class="notice" data-testid="report-threshold">
      <summary>
        A report (calltree report --html): it lists the functions whose inclusive {r.event} is at least {r.threshold * 100}% of the total, {fmt(r.shown)} of {fmt(r.functions)}, with their callers, callees, call graph, flame graphs and source, the program's flame graph{parts > 1 ? ", each part alone" : ""} and the groups. What it does not hold says so: open the profile with <code>calltree serve</code> for everything.
      </summary>
      <ul data-testid="report-budgets">
        <li>
          Call graphs at callers depth {r.graph.up}, callees depth {r.graph.down}, calls below {r.graph.min * 100}% hidden, by {r.event} — {budget("graphs", r.graphs)}. Another depth, threshold or event needs serve.
        </li>
        <li>
          Each function's flame graphs (sandwich, callee map) by {r.event}, frames below {r.flame.min * 100}% of the function's cost cut, at most {fmt(r.flame.max_frames)} frames — {budget("functions", r.flames)}.
        </li>
        <li>{budget("Source files", r.sources)}.</li>
        {parts > 1 && (
          <li>
            Parts alone: {r.parts_shown.length ? r.parts_shown.join(", ") : "none"} of {parts}, each with its functions above {r.threshold * 100}% of the part's total, their callers and callees ({fmt(r.part_details)} held{r.part_details_left_out ? `, ${fmt(r.part_details_left_out)} left out` : ""}), groups and flame graph — {budget("parts", r.parts)}. Several parts summed need serve.
          </li>
        )}
        <li>Group sums count every function of the profile; the rows listed under a group are those above the threshold.</li>
      </ul>
    </details>
  );
}
