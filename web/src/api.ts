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
  pid: number | null;
  thread: number | null;
  part: number | null;
  events: string[];
  totals: Costs;
}

export interface Input {
  name: string;
  size: number;
  complete: boolean;
  creator: string;
  command: string;
  parts: Part[];
  positions: string[];
  has_jumps: boolean;
  diagnostics: { errors: number; warnings: number; notes: number; shown: Diagnostic[] };
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
  functions: number;
  cycles: number;
  files: { id: number; name: string; found: boolean }[];
  report: { threshold: number; event: string; functions: number; shown: number; sources_left_out: number } | null;
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
  offset: number;
  rows: Row[];
  groups: Group[] | null;
  total_groups: number | null;
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
  source: { file_id: number | null; found: boolean; first_line: number; last_line: number } | null;
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
  truncated: boolean;
  nodes: GraphNode[];
  edges: { from: number; to: number; count: Cost; cost: Costs }[];
  totals: Costs;
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
}

export interface SourceLine {
  line: number;
  self: Costs;
  hot: boolean;
  calls?: { caller: number; callee: FnRef; count: Cost; cost: Costs }[];
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
  message: string | null;
  has_costs: boolean;
  event: string;
  hot: number;
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

export type Params = Record<string, string | number | boolean | null | undefined>;

export function query(params: Params): string {
  const q = new URLSearchParams();
  for (const k of Object.keys(params).sort()) {
    const v = params[k];
    if (v === undefined || v === null || v === "") continue;
    q.set(k, String(v));
  }
  const s = q.toString();
  return s ? "?" + s : "";
}

// The page's derived event ("NAME=FORMULA"), sent with every request (see main.tsx).
let derived = "";
export function setDerived(d: string) {
  derived = d;
}

/** GET /api/v1/PATH?PARAMS; rejects with ApiError on an error answer. */
export async function get<T>(path: string, params: Params = {}, signal?: AbortSignal): Promise<T> {
  const url = "api/v1/" + path + query(derived ? { ...params, derived } : params);
  const embedded = window.__CALLTREE_REPORT__;
  if (embedded) return reportAnswer(embedded, path, params) as T;
  const headers: Record<string, string> = {};
  if (token) headers["Authorization"] = "Bearer " + token;
  const res = await fetch(url, { headers, signal, credentials: "same-origin" });
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const e = body?.error;
    throw new ApiError(res.status, e?.code ?? "http", e?.message ?? res.statusText);
  }
  return body as T;
}

export const isReport = () => window.__CALLTREE_REPORT__ !== undefined;

/**
 * The answer a report (`calltree report --html`) holds for a request: the function list is
 * sorted, filtered and cut here from the rows it holds (those above its threshold); the other
 * answers are looked up by route. Views it does not hold say that `calltree serve` has them.
 */
function reportAnswer(data: Record<string, unknown>, path: string, params: Params): unknown {
  const missing = (what: string) => {
    throw new ApiError(404, "not_in_report", `This report does not hold ${what}: open the profile with calltree serve.`);
  };
  if (path === "profile") return data.profile;
  if (path === "functions") {
    const all = data.functions as { rows: Row[]; totals: Costs };
    if (params.group && params.group !== "none") missing("groups");
    const event = String(params.sort ?? Object.keys(all.totals)[0]);
    const by = String(params.by ?? "self");
    const asc = params.dir ? params.dir === "asc" : by === "name";
    let rows = all.rows;
    if (params.filter) {
      let re: RegExp;
      try {
        re = new RegExp(String(params.filter).replace(/^\(\?i\)/, ""), String(params.filter).startsWith("(?i)") ? "i" : "");
      } catch (e) {
        throw new ApiError(400, "bad_regex", "bad regular expression: " + (e as Error).message);
      }
      rows = rows.filter((r) => re.test(r.name));
    }
    const n = (c: Cost | undefined) => (c === undefined ? 0 : Number(c));
    const key = (r: Row): number | string => (by === "name" ? r.name : by === "calls" ? n(r.calls) : by === "inclusive" ? n(r.inclusive[event]) : n(r.self[event]));
    rows = [...rows].sort((a, b) => {
      const x = key(a), y = key(b);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return asc ? c : -c;
    });
    const offset = Number(params.offset ?? 0), limit = Number(params.limit ?? 100);
    return { events: Object.keys(all.totals), totals: all.totals, total_rows: rows.length, offset, rows: rows.slice(offset, offset + limit), groups: null, total_groups: null };
  }
  if (path.startsWith("function/") || path.startsWith("source/")) {
    const hit = data[path];
    if (hit === undefined) missing(path.startsWith("source/") ? "this source file" : "this function (below its threshold)");
    return hit;
  }
  if (path === "flame") {
    if ((params.root ?? "all") !== "all" || (params.direction ?? "callees") !== "callees" || (params.parts ?? "all") !== "all") missing("this function's flame graph, sandwich or callee map");
    return data.flame;
  }
  if (path.startsWith("graph/")) missing("the call graph");
  return missing(path);
}
