// url.ts — the view's state, kept in the URL's fragment so that a link opens the same view and
// back/forward walk through the views (the query keeps only the token).
import { useEffect, useState } from "preact/hooks";

const TABS = ["calls", "source", "asm", "graph", "flame", "icicle", "sandwich", "map", "callermap", "allcallers", "allcallees", "parts"] as const;
export type Tab = (typeof TABS)[number];
/** The narrowest and widest share of the first pane (split=), in percent. */
export const SPLIT_MIN = 20;
export const SPLIT_MAX = 80;

export interface ViewState {
  fn: number | null; // the selected function (or cycle) id
  side: "new" | "old"; // diff mode: which profile `fn` is of
  tab: Tab;
  // The second pane (Panes.tsx): its tab ("" = one pane), and the first pane's share of the
  // width the two have, in percent.
  tab2: Tab | "";
  split: number;
  event: string; // the column that sorts and weighs ("" = the first)
  by: "self" | "inclusive" | "calls" | "name";
  dir: "asc" | "desc" | "";
  filter: string;
  group: "none" | "object" | "file" | "class";
  in_group: string;
  parts: string; // "all" or "1,2"
  all: boolean; // columns for every event, not only the sorted one
  pcols: boolean; // the parts side by side: a column per part
  measure: string; // diff: abs_delta | delta | percent | new | old
  derived: string; // a derived event of the page, "NAME=FORMULA" (the API's derived=)
  cycles: boolean; // KCachegrind's cycle detection (the API's detect_cycles=); off: cycles=0
  rel: boolean; // KCachegrind's Relative to Parent: percentages of the parent's cost, not the total
  file: string; // Source: the file of the function's code shown (a file id; "" = its costliest)
  focus: string; // pprof's stack filters (RE2) of the stack and graph views
  ignore: string;
  hide: string;
  show: string;
  // Firefox Profiler's call-tree transforms of the stack views (Transforms.tsx), in the order
  // they were added: each "NAME" or "NAME:ARGUMENT" as the API's transform= (docs/serve.md),
  // in the URL as repeated transform=. collapse_* take RE2 expressions, focus_path "main;f;g".
  transforms: string[];
  open: string; // serve DIR: the profile opened ("ID"), or the diff of two ("OLD,NEW")
  view: "" | "trend"; // serve DIR: the table of profiles, or the Trend view (Trend.tsx)
  tfn: string; // the Trend view's function ("" = the program total)
  flow: boolean; // Machine code: the control-flow graph (ControlFlow.tsx), not the code
  by_thread: boolean; // the flame graph and icicle: one root frame per part (thread)
  // The call graph (CallGraph.tsx): KCachegrind's caller and callee depths, its node and call
  // thresholds (a percentage of the program total: the API's node_min= and min=), the layout's
  // direction ("" top-down, "lr" left-right).
  gup: number;
  gdown: number;
  gnode: string;
  gmin: string;
  gdir: "" | "lr";
}

export const defaults: ViewState = {
  fn: null,
  side: "new",
  tab: "calls",
  tab2: "",
  split: 50,
  event: "",
  by: "self",
  dir: "",
  filter: "",
  group: "none",
  in_group: "",
  parts: "all",
  all: false,
  pcols: false,
  measure: "abs_delta",
  derived: "",
  cycles: true,
  rel: false,
  file: "",
  focus: "",
  ignore: "",
  hide: "",
  show: "",
  transforms: [],
  open: "",
  view: "",
  tfn: "",
  flow: false,
  by_thread: false,
  gup: 2,
  gdown: 2,
  gnode: "0",
  gmin: "0.5",
  gdir: "",
};

export function parseHash(hash: string): ViewState {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const s: ViewState = { ...defaults };
  const fn = p.get("fn");
  if (fn !== null && /^\d+$/.test(fn)) s.fn = Number(fn);
  const pick = <K extends keyof ViewState>(k: K, allowed?: readonly string[]) => {
    const v = p.get(k);
    if (v === null) return;
    if (allowed && !allowed.includes(v)) return;
    (s as unknown as Record<string, unknown>)[k] = v;
  };
  pick("side", ["new", "old"]);
  pick("tab", TABS);
  pick("tab2", TABS);
  if (/^\d+$/.test(p.get("split") ?? "")) s.split = Math.max(SPLIT_MIN, Math.min(SPLIT_MAX, Number(p.get("split"))));
  pick("event");
  pick("by", ["self", "inclusive", "calls", "name"]);
  pick("dir", ["asc", "desc"]);
  pick("filter");
  pick("group", ["none", "object", "file", "class"]);
  pick("in_group");
  pick("parts");
  pick("measure", ["abs_delta", "delta", "percent", "new", "old"]);
  pick("derived");
  pick("view", ["trend"]);
  pick("tfn");
  for (const k of ["focus", "ignore", "hide", "show"] as const) pick(k);
  // The transforms: a link of before the order was kept (merge_clones=1, collapse_object=,
  // collapse_recursion=, collapse_direct_recursion=, focus_path=) means them in the server's
  // fixed order, so they are these steps first; then transform= in its order.
  const t: string[] = [];
  if (p.get("merge_clones") === "1") t.push("merge_clones");
  for (const k of ["collapse_object", "collapse_recursion", "collapse_direct_recursion", "focus_path"]) if (p.get(k)) t.push(k + ":" + p.get(k));
  s.transforms = [...t, ...p.getAll("transform").filter((v) => /^[a-z_]+(:|$)/.test(v))];
  if (/^\d+(,\d+)?$/.test(p.get("open") ?? "")) s.open = p.get("open")!;
  if (/^\d+$/.test(p.get("file") ?? "")) s.file = p.get("file")!;
  for (const k of ["gup", "gdown"] as const) if (/^([0-9]|10)$/.test(p.get(k) ?? "")) s[k] = Number(p.get(k));
  for (const k of ["gnode", "gmin"] as const) {
    const v = p.get(k);
    if (v !== null && /^\d+(\.\d+)?$/.test(v) && Number(v) <= 100) s[k] = v;
  }
  pick("gdir", ["lr"]);
  s.rel = p.get("rel") === "1";
  s.all = p.get("all") === "1";
  s.pcols = p.get("pcols") === "1";
  s.cycles = p.get("cycles") !== "0";
  s.flow = p.get("flow") === "1";
  s.by_thread = p.get("by_thread") === "1";
  return s;
}

export function formatHash(s: ViewState): string {
  const p = new URLSearchParams();
  for (const k of Object.keys(defaults) as (keyof ViewState)[]) {
    const v = s[k];
    if (Array.isArray(v)) {
      for (const x of v) p.append("transform", x);
      continue;
    }
    if (v === defaults[k]) continue;
    p.set(k, typeof v === "boolean" ? (v ? "1" : "0") : String(v));
  }
  const t = p.toString();
  return t ? "#" + t : "";
}

let current = parseHash(location.hash);
const listeners = new Set<(s: ViewState) => void>();

function publish() {
  for (const l of listeners) l(current);
}

window.addEventListener("popstate", () => {
  current = parseHash(location.hash);
  publish();
});
window.addEventListener("hashchange", () => {
  const next = parseHash(location.hash);
  if (formatHash(next) !== formatHash(current)) {
    current = next;
    publish();
  }
});

/** Changes the state: a new history entry (back returns), or in place with `replace`. */
export function navigate(patch: Partial<ViewState>, replace = false) {
  const next = { ...current, ...patch };
  const hash = formatHash(next);
  if (hash === formatHash(current)) return;
  current = next;
  const url = location.pathname + location.search + hash;
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  publish();
}

export function useViewState(): ViewState {
  const [s, set] = useState(current);
  useEffect(() => {
    listeners.add(set);
    set(current);
    return () => void listeners.delete(set);
  }, []);
  return s;
}
