// StackFilters.tsx — pprof's stack filters on the stack and graph views (flame graph, icicle,
// sandwich, call graph, callee map): focus=, ignore=, hide=, show= (RE2, as the function list's
// filter) in the URL, sent with each of those views' requests, and the line above a filtered
// view that says what the filter left out (docs/serve.md).
import { useEffect, useState } from "preact/hooks";
import type { StackFilterSummary, Costs } from "./api";
import { fmt, num, pct } from "./format";
import { transformParams, isTransformed } from "./Transforms";
import { navigate, type ViewState } from "./url";

const KEYS = ["focus", "ignore", "hide", "show"] as const;
type Key = (typeof KEYS)[number];

const HELP: Record<Key, string> = {
  focus: "only the stacks with a function whose name matches (pprof's focus)",
  ignore: "leave out the stacks with a function whose name matches (pprof's ignore)",
  hide: "leave the matching functions out of the stacks, their cost to their callers (pprof's hide)",
  show: "keep only the matching functions in the stacks (pprof's show)",
};

/** The filters of the page, and its transforms (Transforms.tsx), as the API's parameters
 * (none when not given). */
export function filterParams(s: ViewState): Record<string, string | string[] | undefined> {
  const p: Record<string, string | string[] | undefined> = transformParams(s);
  for (const k of KEYS) if (s[k]) p[k] = s[k];
  return p;
}

export const isFiltered = (s: ViewState) => KEYS.some((k) => s[k] !== "");

/** The four boxes: Enter applies one (empty removes it). */
export function StackFilterBar({ state }: { state: ViewState }) {
  const [text, setText] = useState<Record<Key, string>>({ focus: state.focus, ignore: state.ignore, hide: state.hide, show: state.show });
  useEffect(() => setText({ focus: state.focus, ignore: state.ignore, hide: state.hide, show: state.show }), [state.focus, state.ignore, state.hide, state.show]);
  return (
    <div class="stackfilters" data-testid="stack-filters">
      {KEYS.map((k) => (
        <label title={HELP[k] + "; a regular expression (RE2), Enter to apply"}>
          {k}{" "}
          <input
            class={"sf" + (state[k] ? " on" : "")}
            aria-label={"Stack filter " + k}
            data-testid={"filter-" + k}
            placeholder="regex"
            value={text[k]}
            onInput={(e) => setText({ ...text, [k]: (e.target as HTMLInputElement).value })}
            onKeyDown={(e) => {
              if (e.key === "Enter") navigate({ [k]: text[k].trim() } as Partial<ViewState>);
            }}
          />
        </label>
      ))}
      {isFiltered(state) && (
        <button onClick={() => navigate({ focus: "", ignore: "", hide: "", show: "" })} data-testid="filter-clear">
          Clear filters
        </button>
      )}
    </div>
  );
}

/** "Filtered: left out 120 Ir, 12.0% of the total 1,000" above a filtered view. */
export function FilterNote({ f, event, state }: { f: StackFilterSummary | undefined; event: string; state: ViewState }) {
  if (!f) return null;
  const given = [...state.transforms.map((t) => t.replace(":", "=")), ...KEYS.filter((k) => state[k]).map((k) => `${k}=${state[k]}`)].join(" ");
  const total: Costs = f.total;
  return (
    <p class="filternote" data-testid="filter-note">
      <b>{isFiltered(state) || state.transforms.some((t) => t.startsWith("focus_path:")) || !isTransformed(state) ? "Filtered" : "Transformed"}</b> ({given}): left out <b data-testid="filter-dropped">{fmt(f.dropped[event])}</b> {event}, <span data-testid="filter-share">{pct(f.dropped[event], total[event])}</span> of the total {fmt(total[event])}; shown {fmt(num(total[event]) - num(f.dropped[event]))}.
      {f.unmatched.length > 0 && <span class="warn"> {f.unmatched.join(", ")} matched no function.</span>}
    </p>
  );
}
