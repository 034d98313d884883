// Folder.tsx — the page of `calltree serve DIR`: webgrind's list of profiles to pick from
// (GET /api/v1/folder). A table of the folder's files (name, producer, cmd:, time, size,
// parts, total of the first event), newest first or by any column (a click on its head),
// filtered by a regular expression (RE2, as the function list's filter), a page at a time;
// asked again every second, so a file written meanwhile appears. A name opens that profile
// (#open=ID: every view works on it, the bar above says which and leads back); two ticked rows
// open their diff (#open=OLD,NEW, the older file as OLD). docs/serve.md.
import { useEffect, useState } from "preact/hooks";
import { ApiError, get, setScope, type Cost } from "./api";
import { base, fmt } from "./format";
import { navigate } from "./url";
import "./folder.css";

export interface FolderRow {
  id: number;
  name: string;
  size: number;
  mtime_ms: number;
  headed: boolean;
  problem: string | null;
  producer: string;
  cmd: string;
  events: string[];
  compression: string;
  read: "nothing" | "header" | "whole";
  parts: number | null;
  total: { event: string; value: Cost; from: "read" | "summary" | "index" } | null;
  errors: number;
}

export interface FolderAnswer {
  dir: string;
  listed: number;
  matched: number;
  pending: number;
  offset: number;
  limit: number;
  rows: FolderRow[];
}

type Column = "name" | "producer" | "cmd" | "time" | "size" | "parts" | "total";
const COLUMNS: [Column, string, boolean][] = [
  // column, head, numeric (right-aligned, descending first)
  ["name", "Name", false],
  ["producer", "Producer", false],
  ["cmd", "Command", false],
  ["time", "Time", true],
  ["size", "Size", true],
  ["parts", "Parts", true],
  ["total", "Total", true],
];
const PAGE = 50;
const POLL_MS = 1000;

/** The scope of the API for `#open=`: a file ("f/ID/"), a diff ("d/OLD/NEW/"), or none. */
export function scopeOf(open: string): string {
  if (/^\d+$/.test(open)) return `f/${open}/`;
  const m = open.match(/^(\d+),(\d+)$/);
  return m ? `d/${m[1]}/${m[2]}/` : "";
}

const two = (n: number) => String(n).padStart(2, "0");
export function when(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) (v /= 1024), i++;
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

function Total({ r }: { r: FolderRow }) {
  if (!r.headed) return <span class="dim">…</span>;
  if (r.problem && !r.total) return null;
  if (!r.total)
    return (
      <span class="dim" data-testid="total-unknown" title="no summary: line in its header: known once the whole file is read (in the background, newest first, or when it is opened)">
        unknown
      </span>
    );
  return (
    <span title={r.total.from === "summary" ? "as its header's summary: line states it (of its first part; until the whole file is read in the background)" : r.total.from === "index" ? "the whole file's, as its page and calltree annotate show it (read whole in the background, kept in the index)" : "the whole file's, as its page shows it (it was opened, or it is smaller than one block)"}>
      {fmt(r.total.value)} <span class="dim">{r.total.event}</span>
    </span>
  );
}

export function Folder() {
  setScope("");
  const [by, setBy] = useState<Column>("time");
  const [dir, setDir] = useState<"asc" | "desc">("desc");
  const [filter, setFilter] = useState("");
  const [offset, setOffset] = useState(0);
  const [answer, setAnswer] = useState<FolderAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<FolderRow[]>([]);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const ctl = new AbortController();
    // Each poll after the first asks the server to scan DIR first (it scans at most once in
    // 250 ms however many tabs ask), so a new file shows at the next poll.
    const rescan = tick > 0 ? { rescan: 1 } : {};
    get<FolderAnswer>("folder", { by, dir, filter, offset, limit: PAGE, ...rescan }, ctl.signal).then(
      (a) => (setAnswer(a), setError(null)),
      (e) => !ctl.signal.aborted && setError(e instanceof ApiError ? e.message : String(e)),
    );
    const timer = window.setTimeout(() => setTick((t) => t + 1), POLL_MS);
    return () => (ctl.abort(), clearTimeout(timer));
  }, [by, dir, filter, offset, tick]);
  const sortBy = (c: Column, numeric: boolean) => {
    if (c === by) setDir(dir === "asc" ? "desc" : "asc");
    else (setBy(c), setDir(numeric ? "desc" : "asc"));
    setOffset(0);
  };
  const toggle = (r: FolderRow) =>
    setPicked((p) => (p.some((q) => q.id === r.id) ? p.filter((q) => q.id !== r.id) : [...p, r].slice(-2)));
  const diff = () => {
    const [a, b] = [...picked].sort((x, y) => x.mtime_ms - y.mtime_ms || x.id - y.id);
    navigate({ open: `${a.id},${b.id}`, fn: null });
  };
  const a = answer;
  const last = a ? Math.min(a.offset + a.rows.length, a.matched) : 0;
  return (
    <div class="folder" aria-label="Profiles">
      <header>
        <strong class="brand">calltree</strong>
        <span class="file" data-testid="folder-dir">
          {a ? a.dir : ""}
        </span>
        <span class="dim" data-testid="folder-count">
          {a ? `${a.listed} files${a.pending ? `, ${a.pending} headers to read` : ""}` : ""}
        </span>
        <span class="spacer" />
        <input
          class="search"
          aria-label="Filter files"
          placeholder="filter: regex of name, producer, command"
          value={filter}
          onInput={(e) => (setFilter((e.target as HTMLInputElement).value), setOffset(0))}
        />
        <button data-testid="trend-button" title="the program total and any function's cost across the runs, oldest first" onClick={() => navigate({ view: "trend" })}>
          Trend
        </button>
        <button disabled={picked.length !== 2} data-testid="diff-button" title="tick two files: the older is OLD, the newer NEW" onClick={diff}>
          Diff {picked.length === 2 ? `${base(picked[0].name)} ↔ ${base(picked[1].name)}` : "(tick two)"}
        </button>
      </header>
      {error && (
        <div class="error" role="alert">
          {error}
        </div>
      )}
      <table class="foldertable">
        <thead>
          <tr>
            <th />
            {COLUMNS.map(([c, label, numeric]) => (
              <th class={"sortable" + (numeric ? " num" : "")} aria-sort={c === by ? (dir === "asc" ? "ascending" : "descending") : undefined} onClick={() => sortBy(c, numeric)}>
                {label}
                {c === by ? (dir === "asc" ? " ▲" : " ▼") : ""}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {a?.rows.map((r) => (
            <tr data-testid="folder-row" data-id={r.id} class={r.problem ? "problem" : ""}>
              <td>
                <input type="checkbox" aria-label={"pick " + r.name} checked={picked.some((q) => q.id === r.id)} onChange={() => toggle(r)} />
              </td>
              <td class="name">
                <a href={"#open=" + r.id} data-testid="folder-name" onClick={(e) => (e.preventDefault(), navigate({ open: String(r.id), fn: null }))}>
                  {r.name}
                </a>
              </td>
              {r.problem ? (
                <td colSpan={2} class="problem" data-testid="folder-problem">
                  {r.problem}
                </td>
              ) : (
                <>
                  <td data-testid="folder-producer">{r.producer}</td>
                  <td class="cmd" title={r.cmd}>
                    {r.cmd}
                  </td>
                </>
              )}
              <td class="num">{when(r.mtime_ms)}</td>
              <td class="num" title={`${r.size} bytes${r.compression !== "none" ? ", " + r.compression : ""}`}>
                {bytes(r.size)}
              </td>
              <td class="num" data-testid="folder-parts">
                {r.parts ?? (r.headed && !r.problem ? <span class="dim" title="known once it is opened (the table reads headers only)">?</span> : "")}
              </td>
              <td class="num" data-testid="folder-total">
                <Total r={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {a && (
        <div class="pager">
          <button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            ← Newer page
          </button>
          <span data-testid="folder-range">{a.matched ? `${a.offset + 1}–${last} of ${a.matched}${a.matched !== a.listed ? ` matching (${a.listed} listed)` : ""}` : `no file${filter ? " matches" : ""}`}</span>
          <button disabled={last >= a.matched} onClick={() => setOffset(offset + PAGE)} data-testid="next-page">
            Next page →
          </button>
        </div>
      )}
    </div>
  );
}

/** Above an opened profile of the folder: the way back to the table. */
export function FolderBar() {
  return (
    <div class="folderbar">
      <a href="#" data-testid="folder-back" onClick={(e) => (e.preventDefault(), navigate({ open: "", fn: null }))}>
        ← All profiles of the folder
      </a>
    </div>
  );
}
