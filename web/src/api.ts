// api.ts — the serve API v1 (docs/serve.md) as typed fetches.
//
// The page's URL carries the token (`?token=...`, printed by `calltree serve`); every API call
// sends it as `Authorization: Bearer`, and the server also sets a cookie on the page's first
// request, so a reload without the query still works. A report (`calltree report --html`)
// has no server: its answers are embedded in the page (window.__CALLTREE_REPORT__).

/** A cost: a JSON number below 2^53, else a string of decimal digits. */
export type Cost = number | string;
export type Costs = Record<string, Cost>;

export interface Delta {
  old: Cost;
  new: Cost;
  delta: Cost;
  percent: number | null;
}

export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  severity: string;
  code: string;
  message: string;
  text: string;
}

export interface Part {
  index: number;
  file?: number; // a run of several files: the index of its file in Input.files
  pid: number | null;
  thread: number | null;
  part: number | null;
  events: string[];
  totals: Costs;
}

/** A file of a run of several files (serve FILE..., --parts, --siblings). */
export interface RunFile {
  name: string;
  size: number;
  parts: number;
  complete: boolean;
}

export interface Input {
  name: string;
  files?: RunFile[]; // a run of several files only
  size: number;
  complete: boolean;
  creator: string;
  command: string;
  parts: Part[];
  positions: string[];
  has_jumps: boolean;
  /** Whether the file has calls (calls= lines); cg_diff's and cachegrind's files have none. */
  has_calls?: boolean;
  /** The call counts are samples taken under each call, not calls made (a sampling profiler's
   *  file, docs/import.md); absent otherwise. */
  sampled_calls?: boolean;
  diagnostics: {
    errors: number;
    warnings: number;
    notes: number;
    /** How many of each code (shown or not): errors, then warnings, then notes, each by code. */
    by_code?: { code: string; severity: string; count: number }[];
    shown: Diagnostic[];
  };
  warnings: string[];
}

export interface EventInfo {
  name: string;
  long_name: string;
  formula: string | null;
  recorded: boolean;
}

export interface Profile {
  mode: "single" | "diff";
  inputs: Input[];
  events: EventInfo[];
  event_warnings: string[];
  totals: Costs;
  /** The sum of the self costs, and what the file states (null: nothing); `totals` is the
   *  stated figure where there is one (calltree/totals.h). */
  totals_summed: Costs;
  totals_stated: Record<string, number | string | null>;
  functions: number;
  cycles: number;
  files: { id: number; name: string; found: boolean }[];
  report: Report | null;
}

/** What a report (`calltree report --html`) holds of each kind of answer, within its byte budget. */
export interface ReportBudget {
  budget: number;
  each: number;
  bytes: number;
  shown: number;
  left_out: number;
}

export interface Report {
  threshold: number;
  event: string;
  functions: number;
  shown: number;
  sources_left_out: number;
  sources: ReportBudget;
  graphs: ReportBudget;
  graph: { up: number; down: number; min: number };
  flames: ReportBudget;
  flame: { min: number; max_frames: number };
  parts: ReportBudget;
  parts_shown: number[];
  part_details: number;
  part_details_left_out: number;
  gate?: Gate | null; // a diff report (report --html OLD NEW): --fail-above's verdict, or null
}

/** `calltree report --html OLD NEW --fail-above=PCT[:EVENT]`: the verdict of calltree diff's gate. */
export interface Gate {
  percent: number;
  event: string;
  passed: boolean;
  old: number;
  new: number;
  change: string; // as calltree diff's text: "+12.34%", "0.00%", "n/a"
  percent_change: number | null;
  heading: string; // "Gate: fail above 5% growth of Ir (program total)"
  line: string; // "FAILED: PROGRAM TOTALS: Ir 1,000 -> 1,100 (+10.00%)", or "passed: ..."
}

export interface FnRef {
  id: number;
  kind: "function" | "cycle";
  name: string;
  file: string;
  file_id: number | null;
  object: string;
  label?: number;
  cycle: number | null;
}

export interface Row extends FnRef {
  self: Costs;
  inclusive: Costs;
  calls: Cost;
  parts?: { self: Costs; inclusive: Costs }[] | null; // with part_columns=yes
  /** With transform=: the functions in the row (its clones, an object's, recursion levels). */
  functions?: number;
  /** With transform=: false where the inclusive cost is an upper bound (entered again below itself). */
  inclusive_exact?: boolean;
}

export interface Group {
  name: string;
  self: Costs;
  inclusive: Costs;
  functions: number;
}

export interface FunctionList {
  events: string[];
  totals: Costs;
  total_rows: number;
  /** With locate=ID: the index of that function's row (null: no row is it). */
  located?: number | null;
  offset: number;
  rows: Row[];
  groups: Group[] | null;
  total_groups: number | null;
  /** With transform=: what the transforms did to the list. */
  transforms?: { text: string; functions_merged: number; rows_renamed: number; focus_path_not_applied: boolean };
}

export interface DiffRow {
  id: number | null;
  old_id: number | null;
  kind: "function" | "cycle";
  name: string;
  file: string;
  object: string;
  change: "changed" | "unchanged" | "added" | "removed";
  self: Record<string, Delta>;
  inclusive: Record<string, Delta>;
}

export interface DiffGroup {
  name: string;
  functions: number;
  self: Record<string, Delta>;
  inclusive: Record<string, Delta>;
}

export interface DiffList {
  events: string[];
  totals: Record<string, Delta>;
  counts: { changed: number; unchanged: number; added: number; removed: number };
  total_rows: number;
  offset: number;
  rows: DiffRow[];
  groups: DiffGroup[] | null;
  total_groups: number | null;
}

export interface CallRef extends FnRef {
  count: Cost;
  cost: Costs;
  /** A call to itself or within its cycle: the cost sums nested calls, no share of the total. */
  recursive: boolean;
}

export interface FunctionDetail extends FnRef {
  events: string[];
  present: boolean;
  self: Costs;
  inclusive: Costs;
  calls: Cost;
  cycle_id: number | null;
  totals: Costs;
  callers: CallRef[];
  callers_total: number;
  callees: CallRef[];
  callees_total: number;
  members: (FnRef & { inclusive: Costs; self: Costs })[];
  members_total: number;
  same_name: FnRef[];
  source: {
    file_id: number | null;
    found: boolean;
    first_line: number;
    last_line: number;
    /** The other found files its code was inlined from (fi=/fe=), with its lines there. */
    /** Its self cost in its own file (every part summed, as the source view's lines). */
    self?: Costs;
    inlined: { file_id: number; file: string; first_line: number; last_line: number; self?: Costs }[];
  } | null;
}

export interface GraphNode extends FnRef {
  depth: number;
  self: Costs;
  inclusive: Costs;
}

export interface Graph {
  center: number;
  event: string;
  threshold: Cost;
  node_min?: number; // with node_min= only: the node threshold's share, and its cost
  node_threshold?: Cost;
  truncated: boolean;
  nodes: GraphNode[];
  edges: { from: number; to: number; count: Cost; cost: Costs }[];
  totals: Costs;
  filter?: StackFilterSummary;
}

/** What focus=, ignore=, hide=, show= left out of the program's stacks (a filtered answer). */
export interface StackFilterSummary {
  unmatched: string[];
  total: Costs;
  dropped: Costs;
}

export interface FlameFn extends FnRef {
  diff?: {
    change: string;
    other_id: number | null;
    self: Record<string, Delta>;
    inclusive: Record<string, Delta>;
  };
}

export interface Flame {
  root: number | null;
  direction: "callees" | "callers";
  event: string;
  min: number;
  estimated: boolean;
  /** "recorded": the stacks the file holds (an imported profile's), exact; "call graph": the
   * estimate's (a callgrind file's), with `stacks_note` saying why where the file records its
   * stacks all the same. */
  stacks: "recorded" | "call graph";
  stacks_note?: string;
  pruned: number;
  saturated: boolean;
  frames: {
    count: number;
    id: number[];
    parent: number[];
    depth: number[];
    self: Record<string, Cost[]>;
    total: Record<string, Cost[]>;
  };
  functions: Record<string, FlameFn>;
  totals: Costs;
  filter?: StackFilterSummary;
  /** by_thread=1: whether the tree has a root frame per part (from the roots only), and each
   * selected part's: its frame's index (its `id` is -1; -1 where a filter left it out). */
  by_thread?: boolean;
  threads?: FlameThread[];
}

export interface FlameThread {
  part: number;
  pid: number | null;
  thread: number | null;
  name: string;
  frame: number;
  totals: Costs;
}

/** GET /api/v1/coverage/ID: All Callers or All Callees (KCachegrind's coverage lists). */
export interface CoverageEntry extends FnRef {
  cost: Costs;
  min_distance: number;
  max_distance: number;
  paths: number;
}

export interface Coverage {
  function: FnRef;
  direction: "callees" | "callers";
  event: string;
  min: number;
  estimated: boolean;
  pruned: number;
  total: Costs;
  total_entries: number;
  entries: CoverageEntry[];
  totals: Costs;
}

export interface SourceLine {
  line: number;
  self: Costs;
  hot: boolean;
  calls?: { caller: number; callee: FnRef; count: Cost; cost: Costs; recursive: boolean }[];
  // the calls past the answer's max_calls (the cheapest): how many, their summed cost
  more_calls?: { count: number; cost: Costs };
  jumps?: {
    target_file_id: number;
    target_line: number;
    conditional: boolean;
    executed: Cost;
    followed: Cost;
  }[];
}

export interface Source {
  events: string[];
  file_id: number;
  name: string;
  missing: boolean;
  no_file?: boolean; // `???` or `php:internal`: the profile names no file (absent in older reports)
  message: string | null;
  has_costs: boolean;
  event: string;
  hot: number;
  /** With one part chosen (parts=N): N; the lines, calls and jumps are that part's alone. */
  part?: number;
  text: string[];
  lines: SourceLine[];
  functions: (FnRef & { first_line: number; last_line: number })[];
}

// GET /api/v1/asm/ID (docs/serve.md; each object as docs/json.md's "asm").
export interface AsmInstruction {
  address: string;
  bytes: string;
  mnemonic: string;
  operands: string;
  target: string | null;
  profiled: boolean;
  file: string;
  line: number;
  self: Costs;
  hot: boolean;
  gap_before: boolean;
  calls: { callee: string; file: string; object: string; count: number; inclusive: Costs }[];
  jumps: {
    conditional: boolean;
    executed: Cost;
    followed: Cost;
    target: string;
    target_index: number | null;
    target_function: string | null;
  }[];
}

export interface AsmObject {
  function: string;
  file: string;
  object: string;
  status: string;
  message: string;
  notes: string[];
  objdump: string;
  events: string[];
  totals: Costs;
  self: Costs;
  instructions: AsmInstruction[];
}

export interface AsmAnswer extends FnRef {
  has_instructions: boolean;
  asm: AsmObject[];
}

export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
  ) {
    super(message);
  }
}

const token = new URLSearchParams(location.search).get("token");

/** Answers embedded by `calltree report --html`, keyed by the request's path and query. */
declare global {
  interface Window {
    __CALLTREE_REPORT__?: Record<string, unknown>;
  }
}

export type Params = Record<string, string | number | boolean | null | undefined | string[]>;

export function query(params: Params): string {
  const q = new URLSearchParams();
  for (const k of Object.keys(params).sort()) {
    const v = params[k];
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) for (const x of v) q.append(k, x); // (a repeated parameter, in order)
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? "?" + s : "";
}

// The page's derived event ("NAME=FORMULA"), sent with every request (see main.tsx).
let derived = "";
export function setDerived(d: string) {
  derived = d;
}

// KCachegrind's cycle detection switch: off sends detect_cycles=no with every request.
let cycles = true;
export function setCycles(on: boolean) {
  cycles = on;
}

// serve DIR: the profile of the folder a page shows ("f/ID/", "d/OLD/NEW/"; "" for the table).
let scope = "";
export function setScope(s: string) {
  scope = s;
}

/** GET /api/v1/PATH?PARAMS; rejects with ApiError on an error answer. */
export async function get<T>(path: string, params: Params = {}, signal?: AbortSignal, withDerived: string = derived): Promise<T> {
  if (!cycles) params = { ...params, detect_cycles: "no" };
  const url = "api/v1/" + scope + path + query(withDerived ? { ...params, derived: withDerived } : params);
  const embedded = window.__CALLTREE_REPORT__;
  if (embedded) return reportAnswer(embedded, path, params) as T;
  const headers: Record<string, string> = {};
  if (token) headers["Authorization"] = "Bearer " + token;
  let res = await fetch(url, { headers, signal, credentials: "same-origin" });
  // 503 with Retry-After: the server is busy with answers of that kind (machine code): asked
  // again after the time it says, a minute at most.
  for (let tries = 0; res.status === 503 && res.headers.get("Retry-After") && tries < 60; tries++) {
    const wait = Math.min(10, Math.max(1, Number(res.headers.get("Retry-After")) || 1)) * 1000;
    await new Promise<void>((done, fail) => {
      const t = setTimeout(done, wait);
      signal?.addEventListener("abort", () => {
        clearTimeout(t);
        fail(new DOMException("aborted", "AbortError"));
      });
    });
    res = await fetch(url, { headers, signal, credentials: "same-origin" });
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const e = body?.error;
    throw new ApiError(res.status, e?.code ?? "http", e?.message ?? res.statusText);
  }
  return body as T;
}

export const isReport = () => window.__CALLTREE_REPORT__ !== undefined;

/** A function list as a report holds it: rows with their groups (indices into group_names). */
type ReportRow = Row & { g: (number | null)[] };
type ReportGroups = Record<string, { groups: Group[]; total_groups: number }>;
const GROUPINGS = ["object", "file", "class"];

/**
 * The answer a report (`calltree report --html`) holds for a request. The function list is
 * sorted, filtered, grouped and cut here from the rows it holds (those above its threshold,
 * of all parts summed or of one part); the groups' sums, each function's callers and callees,
 * call graph (at the page's default depth and threshold), flame graphs (sandwich, callee map)
 * and source are the server's answers, looked up by route. What it does not hold (another
 * depth, event or part, or a function left out by a budget) is an error that says so.
 */
function reportAnswer(data: Record<string, unknown>, path: string, params: Params): unknown {
  const profile = data.profile as Profile;
  const r = profile.report!;
  const missing = (what: string): never => {
    throw new ApiError(404, "not_in_report", `Not in this report: ${what}. Open the profile with calltree serve to see it.`);
  };
  const stored = (key: string): unknown => {
    const hit = data[key] as { __error?: { status: number; code: string; message: string } } | undefined;
    if (hit?.__error) throw new ApiError(hit.__error.status, hit.__error.code, hit.__error.message);
    return hit;
  };
  if (params.detect_cycles === "no" && path !== "profile") missing("the costs with cycle detection off (it holds them with cycles formed)");
  const parts = String(params.parts ?? "all");
  const part = parts === "all" ? "" : parts;
  const diff = profile.mode === "diff";
  if (diff && part) missing(`part ${part} alone (a diff report holds all parts summed)`);
  // (a route of OLD's side, in a diff report, is held under its path and "?side=old")
  const sideKey = diff && params.side === "old" ? "?side=old" : "";
  if (part && !/^\d+$/.test(part)) missing("several parts summed (it holds each part alone and all of them summed)");
  if (part && !r.parts_shown.includes(Number(part))) missing(`part ${part} alone (left out by the parts' budget)`);
  const event = String(params.sort ?? r.event);
  if (params.focus || params.ignore || params.hide || params.show) missing("the stacks filtered by focus, ignore, hide or show");
  if (params.merge_clones || params.collapse_recursion || params.collapse_direct_recursion || params.collapse_object || params.focus_path || (Array.isArray(params.transform) && params.transform.length)) missing("the stacks transformed (merge clones, collapse, focus on a call path)");
  if (path === "profile") return profile;
  if (path === "functions" && diff) return diffAnswer(data, params, event, missing);
  if (path === "functions") {
    const all = (part ? data["parts/" + part] : data.functions) as { rows: ReportRow[]; totals: Costs; groups?: ReportGroups };
    let rows = all.rows;
    let groups: Group[] | null = null, total_groups: number | null = null;
    const grouping = String(params.group ?? "none");
    if (grouping !== "none") {
      const k = GROUPINGS.indexOf(grouping);
      const g = (part ? all.groups : (data.groups as ReportGroups))?.[grouping];
      if (k < 0 || !g) return missing(`the grouping by ${grouping}`);
      groups = g.groups;
      total_groups = g.total_groups;
      if (params.in_group) {
        const names = data.group_names as string[];
        rows = rows.filter((row) => row.g[k] !== null && names[row.g[k]!] === params.in_group);
      }
    }
    if (params.filter) {
      let re: RegExp;
      try {
        re = new RegExp(String(params.filter).replace(/^\(\?i\)/, ""), String(params.filter).startsWith("(?i)") ? "i" : "");
      } catch (e) {
        throw new ApiError(400, "bad_regex", "bad regular expression: " + (e as Error).message);
      }
      rows = rows.filter((row) => re.test(row.name));
    }
    const by = String(params.by ?? "self");
    const asc = params.dir ? params.dir === "asc" : by === "name";
    const n = (c: Cost | undefined) => (c === undefined ? 0 : Number(c));
    // (a file of differences, some cost negative: costs by size, as serve sorts them)
    const size = rows.some((row) => n(row.self[event]) < 0 || n(row.inclusive[event]) < 0) ? Math.abs : (x: number) => x;
    const key = (row: Row): number | string => (by === "name" ? row.name : by === "calls" ? n(row.calls) : by === "inclusive" ? size(n(row.inclusive[event])) : size(n(row.self[event])));
    rows = [...rows].sort((a, b) => {
      const x = key(a), y = key(b);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return asc ? c : -c;
    });
    const offset = Number(params.offset ?? 0), limit = Number(params.limit ?? 100);
    // (locate=ID: where that function's row is, as serve says it)
    const located = params.locate === undefined ? undefined : (i => (i < 0 ? null : i))(rows.findIndex((row) => row.id === Number(params.locate)));
    return { events: Object.keys(all.totals), totals: all.totals, total_rows: rows.length, located, offset, rows: rows.slice(offset, offset + limit), groups, total_groups };
  }
  if (path.startsWith("function/")) {
    const hit = stored(path + (part ? "?parts=" + part : "") + sideKey);
    if (hit !== undefined) return hit;
    // (the parts side by side ask one row's costs only: the part's list has them)
    const row = part && Number(params.limit) === 1 ? (data["parts/" + part] as { rows: Row[] }).rows.find((x) => "function/" + x.id === path) : undefined;
    if (!row) return missing(part ? `this function in part ${part} (below the threshold there, or left out by the parts' budget)` : "this function (below the threshold)");
    const totals = (data["parts/" + part] as { totals: Costs }).totals;
    return { ...row, events: Object.keys(totals), present: true, totals, cycle_id: null, callers: [], callers_total: 0, callees: [], callees_total: 0, members: [], members_total: 0, same_name: [], source: null };
  }
  if (path.startsWith("source/")) {
    const hit = stored(path + sideKey);
    if (hit === undefined) missing("this source file (not found, or left out by the sources' budget)");
    return hit;
  }
  if (path.startsWith("graph/")) {
    const g = r.graph;
    const up = Number(params.up ?? 2), down = Number(params.down ?? 2), min = Number(params.min ?? 0.005);
    const nodeMin = Number(params.node_min ?? 0);
    if (part || up !== g.up || down !== g.down || Math.abs(min - g.min) > 1e-9 || nodeMin > 0 || event !== r.event || (params.side && !diff))
      missing(`the call graph at callers depth ${up}, callees depth ${down}, ${+(min * 100).toFixed(3)}% of ${event}${nodeMin > 0 ? `, functions from ${+(nodeMin * 100).toFixed(3)}%` : ""}${part ? ` in part ${part}` : ""} (it holds each listed function's at depth ${g.up} and ${g.down}, ${g.min * 100}% of ${r.event}, all parts summed)`);
    const hit = stored(path + sideKey);
    if (hit === undefined) missing(`this function's call graph (left out by the call graphs' budget: ${r.graphs.shown} held, ${r.graphs.left_out} left out)`);
    return hit;
  }
  if (path.startsWith("coverage/")) {
    const direction = String(params.direction ?? "callees");
    if (part || event !== r.event) missing(`a function's callers and callees lists${part ? ` in part ${part}` : ""} by ${event} (it holds them by ${r.event}, all parts summed)`);
    const hit = stored(path + "/" + direction);
    if (hit === undefined) missing(`this function's all callers and all callees lists (below the threshold, or left out by the flame graphs' budget)`);
    return hit;
  }
  if (path === "flame") {
    const root = String(params.root ?? "all"), direction = String(params.direction ?? "callees");
    if (root === "all") {
      if (direction !== "callees") missing("the program's flame graph by callers");
      return part ? stored("flame?parts=" + part) : data.flame;
    }
    if (part || event !== r.event || (params.side && !diff)) missing(`a function's flame graphs${part ? ` in part ${part}` : ""} by ${event} (it holds them by ${r.event}, all parts summed)`);
    const hit = stored(`flame/${root}/${direction}` + sideKey);
    if (hit === undefined) missing(`this function's flame graphs, sandwich and callee map (below the threshold, or left out by the flame graphs' budget: ${r.flames.shown} held, ${r.flames.left_out} left out)`);
    return hit;
  }
  return missing(path);
}

/** A diff list's order, as serve's (views/diff.cc, measure_key): the size of the change, the
 * signed change, the relative change (growth from nothing above every percentage), new or old. */
function measureKey(measure: string, d: Delta | undefined): number {
  const o = Number(d?.old ?? 0), n = Number(d?.new ?? 0);
  if (measure === "delta") return n - o;
  if (measure === "percent") return o === 0 ? (n === 0 ? 1 : 1e308) : n / o;
  if (measure === "new") return n;
  if (measure === "old") return o;
  return Math.abs(n - o);
}

/**
 * The matched function list of a diff report (`calltree report --html OLD NEW`): its rows
 * (those whose inclusive cost is above the threshold in OLD or NEW, in calltree diff's order)
 * sorted, filtered and cut here as serve's diff list (GET /api/v1/functions in diff mode); the
 * groups are serve's (over every function), put in the list's order here. The counts are
 * serve's of every function for the Cost and event shown (changed: that cost differs) until a
 * search or a group narrows the list, then the held rows'.
 */
function diffAnswer(data: Record<string, unknown>, params: Params, event: string, missing: (what: string) => never): DiffList {
  const all = data.functions as { rows: (DiffRow & { g: number[] })[]; totals: Record<string, Delta>; events: string[]; counts: DiffList["counts"]; counts_by?: Record<string, Record<string, DiffList["counts"]>> };
  const which = params.by === "inclusive" ? "inclusive" : "self";
  // A row's change as the list shows it (serve's shown_change): changed when the cost shown
  // (self or inclusive of the event) differs.
  const shown = (row: DiffRow): DiffRow["change"] => (row.change === "added" || row.change === "removed" ? row.change : String(row[which][event]?.old) !== String(row[which][event]?.new) ? "changed" : "unchanged");
  let rows = all.rows.map((row) => ({ ...row, change: shown(row) }));
  const measure = params.by === "name" ? "name" : String(params.measure ?? "abs_delta");
  const desc = params.dir ? params.dir === "desc" : measure !== "name";
  let groups: DiffGroup[] | null = null, total_groups: number | null = null;
  const grouping = String(params.group ?? "none");
  if (grouping !== "none") {
    const k = GROUPINGS.indexOf(grouping);
    const g = (data.groups as Record<string, { groups: DiffGroup[]; total_groups: number }>)[grouping];
    if (k < 0 || !g) return missing(`the grouping by ${grouping}`);
    const key = (x: DiffGroup) => measureKey(measure, x[which][event]);
    groups = [...g.groups].sort((a, b) => {
      if (measure !== "name" && key(a) !== key(b)) return desc ? key(b) - key(a) : key(a) - key(b);
      if (measure === "name" && desc) return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
      return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    });
    total_groups = g.total_groups;
    if (params.in_group) {
      const names = data.group_names as string[];
      rows = rows.filter((row) => names[row.g[k]] === params.in_group);
    }
  }
  if (params.filter) {
    let re: RegExp;
    try {
      re = new RegExp(String(params.filter).replace(/^\(\?i\)/, ""), String(params.filter).startsWith("(?i)") ? "i" : "");
    } catch (e) {
      throw new ApiError(400, "bad_regex", "bad regular expression: " + (e as Error).message);
    }
    rows = rows.filter((row) => re.test(row.name));
  }
  if (measure === "name") rows = [...rows].sort((a, b) => (a.name === b.name ? 0 : (a.name < b.name) !== desc ? -1 : 1));
  else {
    const key = (row: DiffRow) => measureKey(measure, row[which][event]);
    rows = [...rows].sort((a, b) => (desc ? key(b) - key(a) : key(a) - key(b)));
  }
  let counts = all.counts_by?.[which]?.[event] ?? all.counts;
  if (params.filter || params.in_group) {
    counts = { changed: 0, unchanged: 0, added: 0, removed: 0 };
    for (const row of rows) counts[row.change]++;
  }
  const offset = Number(params.offset ?? 0), limit = Number(params.limit ?? 100);
  return { events: all.events, totals: all.totals, counts, total_rows: rows.length, offset, rows: rows.slice(offset, offset + limit), groups, total_groups };
}

// GET /api/v1/cfg/ID (docs/serve.md, "Control flow"; each object as docs/json.md's "cfg").
export interface CfgBlock {
  index: number;
  from: string; // the first instruction's address
  to: string; // the last instruction's address
  entry: boolean;
  executed: Cost | null; // the first instruction's Ir (null: no Ir event)
  self: Costs;
  instructions: { address: string; text: string; self: Costs }[];
}

export interface CfgEdge {
  from: number; // block indexes
  to: number | null; // null: out of the function
  kind: "taken" | "fall_through";
  conditional: boolean;
  count: Cost | null; // null: unknown
  executed: Cost;
  target: string;
  target_function: string | null;
}

export interface CfgObject {
  function: string;
  file: string;
  object: string;
  status: string;
  message: string;
  events: string[];
  totals: Costs;
  self: Costs;
  left_out: Costs;
  blocks: CfgBlock[];
  edges: CfgEdge[];
}

export interface CfgAnswer extends FnRef {
  has_instructions: boolean;
  cfg: CfgObject[];
}

/** Whether the profile's call counts are samples (any of its inputs says so): their columns
 *  and figures are titled Samples, not Calls. */
export const callsAreSamples = (p: Profile): boolean => p.inputs.some((i) => i.sampled_calls === true);
