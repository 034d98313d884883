// FunctionList.tsx — KCachegrind's flat profile: every function (and `<cycle N>`), sorted and
// filtered by the server, shown through a window so that 300 000 rows scroll as 30: only the
// rows in view are in the DOM, fetched a page at a time (GET /api/v1/functions?offset&limit).
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { callsAreSamples, get, isReport, type Costs, type DiffGroup, type DiffList, type DiffRow, type FunctionList as FL, type Group, type Profile, type Row } from "./api";
import { base, fmt, location, middle, num, pct, percentChange, signed } from "./format";
import { navigate, type ViewState } from "./url";

const ROW = 22; // px, every row
const PAGE = 200; // rows a request asks for
const OVERSCAN = 10;

type AnyRow = Row | DiffRow;
interface Column {
  key: string;
  title: string;
  tip: string;
  sort?: Partial<ViewState>; // what clicking the header sets
  cell: (r: AnyRow) => string;
  /** A cost's share alone, in a list too narrow for the costs and the names (its whole text
   * then the cell's tooltip). */
  short?: (r: AnyRow) => string;
  cls?: (r: AnyRow) => string;
  width: number; // px; 0: the name, which takes the room left
  minChars?: number; // its text's widest (a cost's: the total's digits and a share)
}

const WIDTHS = "calltree.columns"; // localStorage: the widths the user dragged columns to
const SPLIT = "calltree.list-width"; // localStorage: the list's width, dragged

function stored<T>(key: string, def: T): T {
  try {
    const v = localStorage.getItem(key);
    return v === null ? def : (JSON.parse(v) as T);
  } catch {
    return def;
  }
}

/** Drags from a pointerdown: `move` gets the pointer's x distance from where it went down. */
function drag(e: PointerEvent, move: (dx: number) => void, done: () => void) {
  e.preventDefault();
  e.stopPropagation();
  const x0 = e.clientX;
  const el = e.currentTarget as HTMLElement;
  el.setPointerCapture(e.pointerId);
  const onMove = (m: PointerEvent) => move(m.clientX - x0);
  const onUp = () => {
    el.removeEventListener("pointermove", onMove);
    el.removeEventListener("pointerup", onUp);
    done();
  };
  el.addEventListener("pointermove", onMove);
  el.addEventListener("pointerup", onUp);
}

/** The list's width now (px). */
const listWidth = () => (document.querySelector("section.list") as HTMLElement | null)?.getBoundingClientRect().width ?? 0;
/** A list width the window has room for: at least 260 px, and 300 px left for the views. */
const clampList = (w: number) => Math.max(260, Math.min(window.innerWidth - 300, w));
const LIST_STEP = 32; // px, an arrow key on the bar

/** The bar between the list and the selected function's views: drag it to resize the list, or
 * give it the focus (Tab) and press ← → (Home, End: narrowest, widest; Enter: the default);
 * its width is kept for the next page. */
export function Splitter() {
  const [width, setWidth] = useState<number | null>(null);
  const apply = (w: number | null) => {
    const main = document.querySelector("main") as HTMLElement | null;
    if (main) main.style.gridTemplateColumns = w === null ? "" : `${w}px 6px minmax(300px, 1fr)`;
    setWidth(w === null ? null : Math.round(w));
  };
  const keep = (w: number) => (apply(w), localStorage.setItem(SPLIT, JSON.stringify(Math.round(w))));
  const reset = () => (localStorage.removeItem(SPLIT), apply(null));
  useEffect(() => apply(stored<number | null>(SPLIT, null)), []);
  const onKeyDown = (e: KeyboardEvent) => {
    const w0 = listWidth();
    const w = e.key === "ArrowLeft" ? w0 - LIST_STEP : e.key === "ArrowRight" ? w0 + LIST_STEP : e.key === "Home" ? 0 : e.key === "End" ? Infinity : null;
    if (w === null && e.key !== "Enter") return;
    e.preventDefault();
    e.stopPropagation();
    if (w === null) reset();
    else keep(clampList(w));
  };
  return (
    <div
      class="splitter"
      role="separator"
      tabIndex={0}
      aria-orientation="vertical"
      aria-label="Resize the list"
      aria-valuetext={width === null ? "the list at its default width" : `the list ${width} px wide`}
      data-testid="list-splitter"
      title="drag, or ← → with the focus here, to resize the list; double-click or Enter: its default width"
      onKeyDown={onKeyDown}
      onDblClick={reset}
      onPointerDown={(e) => {
        const w0 = listWidth();
        let w = w0;
        drag(e, (dx) => apply((w = clampList(w0 + dx))), () => keep(w));
      }}
    />
  );
}

// The width of one character of the rows' monospace font (style.css's .cell), measured once.
let charWidth = 0;
function charPx(): number {
  if (!charWidth) {
    const c = document.createElement("canvas").getContext("2d");
    if (c) c.font = '12px ui-monospace, "DejaVu Sans Mono", monospace';
    charWidth = (c && c.measureText("0123456789").width / 10) || 7.2;
  }
  return charWidth;
}

function useDebounced<T>(v: T, ms: number): T {
  const [d, set] = useState(v);
  useEffect(() => {
    const t = setTimeout(() => set(v), ms);
    return () => clearTimeout(t);
  }, [v]);
  return d;
}

/** The rows of one query, fetched by pages as the window needs them. */
function usePagedRows(params: Record<string, string | string[]>) {
  const key = JSON.stringify(params);
  const [, bump] = useState(0);
  const cache = useRef<{ key: string; pages: Map<number, AnyRow[]>; pending: Set<number>; total: number | null; groups: (Group | DiffGroup)[] | null; error: string | null; extra: DiffList | FL | null }>({
    key: "",
    pages: new Map(),
    pending: new Set(),
    total: null,
    groups: null,
    error: null,
    extra: null,
  });
  if (cache.current.key !== key)
    cache.current = { key, pages: new Map(), pending: new Set(), total: null, groups: null, error: null, extra: null };
  const c = cache.current;
  const need = (page: number) => {
    if (c.pages.has(page) || c.pending.has(page)) return;
    if (c.total !== null && page * PAGE >= c.total) return;
    c.pending.add(page);
    get<FL | DiffList>("functions", { ...params, offset: page * PAGE, limit: PAGE }).then(
      (ans) => {
        if (cache.current !== c) return;
        c.pending.delete(page);
        c.pages.set(page, ans.rows as AnyRow[]);
        c.total = ans.total_rows;
        c.extra = ans;
        c.groups = ans.groups;
        c.error = null;
        bump((n) => n + 1);
      },
      (e) => {
        if (cache.current !== c) return;
        c.pending.delete(page);
        c.error = e.message;
        c.total = 0;
        bump((n) => n + 1);
      },
    );
  };
  const row = (i: number): AnyRow | undefined => c.pages.get(Math.floor(i / PAGE))?.[i % PAGE];
  return { c, need, row, key, cache };
}

function rowId(r: AnyRow): { fn: number; side: "new" | "old" } {
  if ("change" in r) return r.id !== null ? { fn: r.id, side: "new" } : { fn: r.old_id!, side: "old" };
  return { fn: r.id, side: "new" };
}

export function FunctionList({ profile, state, event }: { profile: Profile; state: ViewState; event: string }) {
  const diff = profile.mode === "diff";
  // The search box's text, sent to the URL 200 ms after the last key. The URL's filter comes
  // back into the box only when it is not the box's own text coming back: that echo can arrive
  // after the next keys (the view state reaches the list a render later), and took them away.
  const [filterText, setFilterText] = useState(state.filter);
  const sent = useRef(state.filter);
  useEffect(() => {
    if (state.filter === sent.current) return;
    sent.current = state.filter;
    setFilterText(state.filter);
  }, [state.filter]);
  const debounced = useDebounced(filterText, 200);
  useEffect(() => {
    if (debounced === state.filter) return;
    sent.current = debounced;
    navigate({ filter: debounced }, true);
  }, [debounced]);
  const [regexError, setRegexError] = useState<string | null>(null);

  const events = state.all ? profile.events.map((e) => e.name) : [event];
  const params: Record<string, string | string[]> = { sort: event, by: state.by, parts: state.parts };
  if (state.dir) params.dir = state.dir;
  if (state.filter) params.filter = state.filter;
  if (state.group !== "none") {
    params.group = state.group;
    if (state.in_group) params.in_group = state.in_group;
  }
  const partCount = profile.inputs[profile.inputs.length - 1].parts.length;
  const pcols = !diff && state.pcols && partCount > 1 && !isReport();
  if (!diff) {
    params.events = events.join(",");
    if (pcols) params.part_columns = "yes";
    // The call-tree transforms merge rows: clones, a collapsed object, recursion levels (a
    // report holds the list untransformed).
    if (state.transforms.length && !isReport()) params.transform = state.transforms;
  } else {
    // (the columns shown: a function counts as changed when one of their costs differs)
    params.events = events.join(",");
    // (the order's measure is for a cost's order; by=name takes none)
    if (state.by !== "name") params.measure = state.measure;
    if (state.by === "calls") params.by = "self";
  }
  const { c, need, row, cache } = usePagedRows(params);
  useEffect(() => setRegexError(c.error), [c.error]);

  const body = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, height: 600 });
  const [listW, setListW] = useState(0);
  useEffect(() => {
    const el = body.current!;
    const ro = new ResizeObserver(() => {
      setScroll({ top: el.scrollTop, height: el.clientHeight });
      setListW(el.clientWidth);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const total = c.total ?? 0;
  const first = Math.max(0, Math.floor(scroll.top / ROW) - OVERSCAN);
  const last = Math.min(c.total === null ? PAGE : total, Math.ceil((scroll.top + scroll.height) / ROW) + OVERSCAN);
  need(Math.floor(first / PAGE));
  if (last > 0) need(Math.floor((last - 1) / PAGE));

  // The selected row's index, for the keyboard (kept when the list changes under it).
  const [selIndex, setSelIndex] = useState(-1);
  // A function selected elsewhere (a caller followed, a box of the graph clicked, a link
  // opened): the list scrolls to its row once, as it is selected or the list's order changes,
  // and marks it. Its row is found among the rows loaded, else the server says where it is
  // (locate=ID) and the rows there are loaded as the list scrolls to them. Before, the list
  // marked it only when its page was loaded (the first 200 rows) and never scrolled.
  const revealed = useRef("");
  const reveal = (i: number) => {
    const el = body.current;
    if (!el || (i * ROW >= el.scrollTop && (i + 1) * ROW <= el.scrollTop + el.clientHeight)) return;
    el.scrollTop = Math.max(0, i * ROW - (el.clientHeight - ROW) / 2);
  };
  useEffect(() => {
    const want = state.fn === null ? "" : `${state.fn}:${state.side}:${c.key}`;
    // find the selection among the loaded rows (none: no row is highlighted, e.g. back to the
    // state with no function selected)
    if (state.fn !== null)
      for (const [p, rows] of c.pages)
        for (let i = 0; i < rows.length; i++) {
          const id = rowId(rows[i]);
          if (id.fn === state.fn && id.side === state.side) {
            setSelIndex(p * PAGE + i);
            if (revealed.current !== want) reveal(p * PAGE + i);
            revealed.current = want;
            return;
          }
        }
    setSelIndex(-1);
    // (a diff's list has no locate=: its rows are of two profiles)
    if (state.fn === null || c.total === null || revealed.current === want || diff) return;
    revealed.current = want;
    const asked = c;
    get<FL>("functions", { ...params, locate: state.fn, limit: 1 }).then(
      (ans) => {
        if (cache.current !== asked || revealed.current !== want || ans.located === null || ans.located === undefined) return;
        setSelIndex(ans.located);
        reveal(ans.located);
      },
      () => {},
    );
  }, [state.fn, state.side, c.pages.size, c.key, c.total === null]);

  const select = (i: number, replace: boolean) => {
    const r = row(i);
    setSelIndex(i);
    const el = body.current!;
    if (i * ROW < el.scrollTop) el.scrollTop = i * ROW;
    else if ((i + 1) * ROW > el.scrollTop + el.clientHeight) el.scrollTop = (i + 1) * ROW - el.clientHeight;
    if (r) navigate(rowId(r), replace);
  };
  // A keyboard move onto a row not yet loaded selects it when it arrives.
  const wanted = useRef(-1);
  useEffect(() => {
    if (wanted.current >= 0 && row(wanted.current)) {
      const i = wanted.current;
      wanted.current = -1;
      select(i, true);
    }
  });
  const onKey = (e: KeyboardEvent) => {
    if (!total) return;
    const pageRows = Math.max(1, Math.floor(scroll.height / ROW) - 1);
    let i = selIndex;
    switch (e.key) {
      case "ArrowDown": case "j": i = Math.min(total - 1, i + 1); break;
      case "ArrowUp": case "k": i = Math.max(0, i - 1); break;
      case "PageDown": i = Math.min(total - 1, i + pageRows); break;
      case "PageUp": i = Math.max(0, i - pageRows); break;
      case "Home": i = 0; break;
      case "End": i = total - 1; break;
      case "Escape": e.preventDefault(); navigate({ fn: null }); return;
      default: return;
    }
    e.preventDefault();
    if (row(i)) select(i, true);
    else {
      wanted.current = i;
      setSelIndex(i);
      body.current!.scrollTop = Math.max(0, i * ROW - scroll.height / 2);
    }
  };

  // Relative to parent, within a group: shares of the group's cost, not of the total.
  const parent = !diff && state.rel && state.in_group ? ((c.groups as Group[] | null)?.find((g) => g.name === state.in_group) ?? null) : null;
  const columns = useMemo(() => makeColumns(profile, events, event, state, diff, c.extra, pcols, parent), [profile, events.join(), event, state.by, diff, c.extra, pcols, parent]);
  // Column widths: the defaults, or what the user dragged a head's right edge to.
  const [widths, setWidths] = useState<Record<string, number>>(() => stored(WIDTHS, {}));
  const wkey = (col: Column) => col.key + ":" + col.title;
  // A number is never cut: each numeric column is at least as wide as its widest text, of the
  // rows loaded and, for a cost with its share, of the total's digits (the widest there is).
  const needed = useMemo(() => {
    const m: Record<string, number> = {};
    for (const col of columns) {
      if (!col.width || col.key === "loc" || col.key === "change") continue;
      let n = col.minChars ?? 0;
      for (const rows of c.pages.values()) for (const r of rows) n = Math.max(n, col.cell(r).length);
      m[wkey(col)] = Math.ceil(n * charPx()) + 14; // (+ the cell's padding)
    }
    return m;
  }, [columns, c.pages.size, c.key]);
  // The name first. The names get 20 characters before the Location gets any (it is cut, its
  // whole text its tooltip), and 30 when the costs show their shares alone. A list too narrow for the costs
  // whole and 20 characters of the names (the split view's list, a small window) shows the
  // costs' shares alone, each cost's whole text its cell's tooltip, and gives the names the
  // room made. Before, the costs kept their width and pushed the names past the list's right
  // edge, 9 characters of them in view beside two panes. (The Location is then left out, its
  // text in the name's tooltip: its cell's padding is room for a name's last characters.)
  const fixedW = (col: Column, short: boolean) => {
    const k = wkey(col);
    if (short && col.short) return widths[k] || Math.max(SHORT_PX, Math.ceil(SHORT_CHARS * charPx()) + 14);
    return Math.max(widths[k] || col.width, needed[k] ?? 0);
  };
  const fixed = (short: boolean) => columns.reduce((sum, col) => sum + (col.width && col.key !== "loc" ? fixedW(col, short) : 0), 0);
  const nameRoom = (n: number) => Math.ceil(n * charPx()) + 12;
  // (LOC_PAD: the Location's padding, the least it takes)
  const compact = listW > 0 && columns.some((col) => col.short) && listW - fixed(false) < nameRoom(NAME_MIN_CHARS) + LOC_PAD;
  // (30 characters for the names when the costs show their shares alone; else 20 before the
  // Location gets any room, then the two share what is left, 3 to 1: a 1500 px window's list
  // shows ~25 characters of a name and ~9 of its Location)
  const nameMin = listW > 0 ? Math.max(160, Math.min(nameRoom(compact ? NAME_CHARS : NAME_MIN_CHARS), listW - fixed(compact) - (compact ? 0 : LOC_PAD))) : 160;
  // (A Location narrower than a few characters is left out too, its text in the name's
  // tooltip: a sliver of a column reads as nothing.)
  const noLoc = compact || (listW > 0 && listW - fixed(false) - nameMin < LOC_MIN);
  const shown = noLoc ? columns.filter((col) => col.key !== "loc") : columns;
  const template = shown
    .map((col) => {
      const k = wkey(col);
      // (the name and the Location share the room beyond the names' 30 characters, 3 to 1: the
      // Location cut with an ellipsis, its whole text the cell's tooltip, rather than pushed
      // past the list's edge)
      if (!col.width && !widths[k]) return `minmax(${nameMin}px, 3fr)`;
      if (col.key === "loc" && !widths[k]) return "minmax(0, 1fr)";
      return fixedW(col, compact) + "px";
    })
    .join(" ");
  // Names longer than their column are cut in the middle, to keep their end.
  const head = useRef<HTMLDivElement>(null);
  const [nameChars, setNameChars] = useState(0);
  useEffect(() => {
    const cell = head.current?.querySelector(".cell.name");
    if (!cell) return;
    const ro = new ResizeObserver(() => setNameChars(Math.floor((cell.getBoundingClientRect().width - 12) / charPx())));
    ro.observe(cell);
    return () => ro.disconnect();
  }, [columns]);
  const cellText = (col: Column, r: AnyRow) => {
    if (compact && col.short) return col.short(r);
    const t = col.cell(r);
    if (col.key !== "name" || !nameChars || t.length <= nameChars) return t;
    const tag = t.slice(r.name.length);
    return middle(r.name, Math.max(10, nameChars - tag.length)) + tag;
  };

  const rows = [];
  for (let i = first; i < last; i++) {
    const r = row(i);
    const sel = i === selIndex;
    rows.push(
      <div
        key={i}
        class={"row" + (sel ? " selected" : "") + (r && r.kind === "cycle" ? " cycle" : "") + (r && "change" in r ? " " + r.change : "")}
        style={{ top: i * ROW + "px", gridTemplateColumns: template }}
        role="row"
        aria-selected={sel}
        data-index={i}
        onClick={() => select(i, false)}
      >
        {r ? shown.map((col) => <span class={"cell " + col.key + (col.cls ? " " + col.cls(r) : "")} title={col.key === "name" ? r.name + (noLoc ? "\n" + location(r.file, r.object) : "") : col.key === "loc" ? r.file + (r.object ? " (" + r.object + ")" : "") : col.key === "incl" && (r as Row).inclusive_exact === false ? UPPER : compact && col.short ? col.cell(r) : undefined}>{cellText(col, r)}</span>) : <span class="cell loading">…</span>}
      </div>,
    );
  }

  const groups = c.groups;
  return (
    <section class="list" aria-label="Functions" data-compact={compact ? "shares" : undefined}>
      <div class="toolbar">
        <input
          type="search"
          class={"search" + (regexError ? " bad" : "")}
          placeholder="Search (regex) — /"
          value={filterText}
          aria-label="Search functions by regular expression"
          onInput={(e) => setFilterText((e.target as HTMLInputElement).value)}
          title={regexError ?? "RE2 syntax, matched anywhere in the name; (?i) for any case"}
        />
        {(
          <label>
            Group{" "}
            <select value={state.group} aria-label="Group by" onChange={(e) => navigate({ group: (e.target as HTMLSelectElement).value as ViewState["group"], in_group: "" })}>
              <option value="none">none</option>
              <option value="object">object</option>
              <option value="file">source file</option>
              <option value="class">class / namespace</option>
            </select>
          </label>
        )}
        {!diff && partCount > 1 && !isReport() && (
          <label title="a column per part (thread, dump) of the chosen event's cost: self, or inclusive when the list is sorted by it">
            <input type="checkbox" checked={state.pcols} aria-label="Parts side by side" onChange={(e) => navigate({ pcols: (e.target as HTMLInputElement).checked })} /> parts side by side
          </label>
        )}
        {diff && (
          <label>
            Cost{" "}
            <select value={state.by === "inclusive" ? "inclusive" : "self"} aria-label="Cost" onChange={(e) => navigate({ by: (e.target as HTMLSelectElement).value as ViewState["by"] })}>
              <option value="self">self</option>
              <option value="inclusive">inclusive</option>
            </select>
          </label>
        )}
        {diff && (
          <label>
            Order{" "}
            <select value={state.measure} aria-label="Order by" onChange={(e) => navigate({ measure: (e.target as HTMLSelectElement).value })}>
              <option value="abs_delta">largest change</option>
              <option value="delta">change (signed)</option>
              <option value="percent">relative change</option>
              <option value="new">new cost</option>
              <option value="old">old cost</option>
            </select>
          </label>
        )}
        <span class="count" data-testid="row-count">
          {c.total === null ? "…" : fmt(total) + (total === 1 ? " row" : " rows")}
        </span>
        {diff && c.extra && "counts" in c.extra && (
          <span class="count" data-testid="diff-counts" title={`functions matched as calltree diff matches them, (object, file, name); changed: its ${state.by === "inclusive" ? "inclusive" : "self"} cost of ${events.join(", ")} differs (the Cost shown)`}>
            {fmt(c.extra.counts.changed)} changed · {fmt(c.extra.counts.added)} added · {fmt(c.extra.counts.removed)} removed · {fmt(c.extra.counts.unchanged)} same
          </span>
        )}
      </div>
      {regexError && <div class="error" role="alert">{regexError}</div>}
      {!diff && c.extra && "transforms" in c.extra && c.extra.transforms && <ListTransforms t={c.extra.transforms} />}
      {groups && (
        <div class="groups" aria-label="Groups">
          <div class={"ghead" + (diff ? " dgroup" : "")} role="row" data-testid="group-head">
            <span class="num">{diff ? "Change" : "Incl."}</span>
            <span class="num">{diff ? "%" : "Self"}</span>
            <span class="num" title="functions in the group">Count</span>
            <span>{state.group === "class" ? "Class / namespace" : state.group === "object" ? "Object" : "File"}</span>
          </div>
          <div class={"group" + (state.in_group === "" ? " selected" : "")} onClick={() => navigate({ in_group: "" })}>
            <span class="gname">(all groups)</span>
          </div>
          {groups.map((g) => {
            const gname = <span class="gname">{state.group === "class" ? g.name : base(g.name) || g.name}</span>;
            const select = () => navigate({ in_group: g.name });
            const cls = "group" + (state.in_group === g.name ? " selected" : "");
            if (!diff) {
              const sg = g as Group;
              return (
                <div class={cls} onClick={select} title={`${g.name}\nincl. ${fmt(sg.inclusive[event])} ${event}, self ${fmt(sg.self[event])} ${event}, ${sg.functions} function${sg.functions === 1 ? "" : "s"}`} data-group={g.name}>
                  <span class="num">{pct(sg.inclusive[event], c.extra?.totals[event] as never)}</span>
                  <span class="num">{pct(sg.self[event], c.extra?.totals[event] as never)}</span>
                  <span class="num">{sg.functions}</span>
                  {gname}
                </div>
              );
            }
            // A diff's group: the change of its cost (self or inclusive, as the list's Cost).
            const dd = (g as DiffGroup)[state.by === "inclusive" ? "inclusive" : "self"][event];
            const dir = num(dd?.delta) > 0 ? "up" : num(dd?.delta) < 0 ? "down" : "";
            return (
              <div class={cls + " dgroup"} onClick={select} title={`${g.name}\n${fmt(dd?.old)} → ${fmt(dd?.new)}`} data-group={g.name}>
                <span class={"num delta " + dir}>{signed(dd?.delta)}</span>
                <span class={"num " + dir}>{dd ? percentChange(dd.percent) : ""}</span>
                <span class="num">{g.functions}</span>
                {gname}
              </div>
            );
          })}
        </div>
      )}
      <div class="thead" ref={head} style={{ gridTemplateColumns: template }} role="row">
        {shown.map((col) => {
          const active = col.sort && Object.entries(col.sort).every(([k, v]) => (k === "event" ? event === v : (state as unknown as Record<string, unknown>)[k] === v));
          return (
            <span
              class={"cell " + col.key + (col.sort ? " sortable" : "") + (active ? " sorted" : "")}
              title={compact && col.short ? col.tip + "; the share alone, the list being narrow (the cost: a cell's tooltip; widen the list to see both)" : col.tip}
              role="columnheader"
              aria-sort={active ? (state.dir === "asc" || (!state.dir && col.key === "name") ? "ascending" : "descending") : undefined}
              onClick={() => {
                if (!col.sort) return;
                const dir = active ? (state.dir === "asc" || (!state.dir && state.by === "name") ? "desc" : "asc") : "";
                navigate({ ...col.sort, dir: dir as ViewState["dir"] });
              }}
            >
              {col.title}
              {active ? (state.dir === "asc" || (!state.dir && state.by === "name") ? " ▲" : " ▼") : ""}
              <span
                class="grip"
                title="drag to resize the column; double-click for its default width"
                onClick={(e) => e.stopPropagation()}
                onDblClick={(e) => {
                  e.stopPropagation();
                  const { [wkey(col)]: _, ...rest } = widths;
                  setWidths(rest);
                  localStorage.setItem(WIDTHS, JSON.stringify(rest));
                }}
                onPointerDown={(e) => {
                  const w0 = ((e.currentTarget as HTMLElement).parentElement as HTMLElement).getBoundingClientRect().width;
                  let next = widths;
                  drag(e, (dx) => setWidths((next = { ...widths, [wkey(col)]: Math.max(36, Math.round(w0 + dx)) })), () => localStorage.setItem(WIDTHS, JSON.stringify(next)));
                }}
              />
            </span>
          );
        })}
      </div>
      <div
        class="tbody"
        ref={body}
        tabIndex={0}
        role="grid"
        aria-label="Function list"
        aria-rowcount={total}
        onScroll={(e) => {
          const el = e.currentTarget as HTMLDivElement;
          if (head.current) head.current.scrollLeft = el.scrollLeft;
          setScroll({ top: el.scrollTop, height: el.clientHeight });
        }}
        onKeyDown={onKey}
      >
        <div class="spacer" style={{ height: total * ROW + "px" }}>
          {rows}
        </div>
        {c.total === 0 && !c.error && <div class="empty">No function matches.</div>}
      </div>
    </section>
  );
}

const NAME_MIN_CHARS = 20; // the names' room below which the costs show their shares alone
const NAME_CHARS = 30; // the names' room then, where the list has it
const SHORT_CHARS = 8; // a share alone: "≤ 100.0%"
const SHORT_PX = 72; // and at least its head's text ("Incl. Ir")
const LOC_PAD = 12; // px, the Location cell's padding
const LOC_MIN = 56; // px, the least Location shown (beside the names' room): "cc1plus"

const UPPER = "an upper bound: the calls into this row from outside it, where the row is entered again below itself (one of its functions calls another through a function outside it), so some cost is counted twice";

/** What the transforms did to the list: rows merged (clones, an object, recursion levels), an
 * inclusive cost that is an upper bound marked ≤, a focus on a call path not applied. */
function ListTransforms({ t }: { t: NonNullable<FL["transforms"]> }) {
  const n = t.functions_merged, r = t.rows_renamed;
  const said = [];
  if (n > 0) said.push(`${fmt(n)} function${n === 1 ? "" : "s"} merged into the row of ${n === 1 ? "its" : "their"} function or object`);
  if (r > 0) said.push(`${fmt(r)} row${r === 1 ? "" : "s"} of one function named by ${r === 1 ? "its" : "their"} function or object`);
  if (!said.length && !t.focus_path_not_applied) said.push("no row merged or renamed");
  return (
    <p class="list-transforms" data-testid="list-transforms">
      <b>Transformed</b> ({t.text}): {said.join("; ")}
      {n > 0 && (
        <>
          ; ≤ marks an inclusive cost that is <span title={UPPER}>an upper bound</span>
        </>
      )}
      {said.length ? "." : ""}
      {t.focus_path_not_applied && <> The focus on a call path is not applied to the list: a function's share of one path is an estimate.</>}
    </p>
  );
}

function makeColumns(profile: Profile, events: string[], _event: string, _state: ViewState, diff: boolean, extra: DiffList | FL | null, pcols: boolean, parent: Group | null): Column[] {
  const cols: Column[] = [];
  if (!diff) {
    const totals = (extra as FL | null)?.totals ?? profile.totals;
    const inclBase = parent ? parent.inclusive : totals;
    const selfBase = parent ? parent.self : totals;
    const of = parent ? "of the group's" : "of the total";
    for (const e of events) {
      if (pcols && e === _event) {
        // The parts side by side: the cost of this event in each part (self, or inclusive when
        // sorted by it), then all parts summed; a head's click shows that part alone.
        const which = _state.by === "inclusive" ? "inclusive" : "self";
        const parts = profile.inputs[profile.inputs.length - 1].parts.slice(0, 16);
        parts.forEach((q, i) =>
          cols.push({
            key: "pcol p" + q.index,
            title: `P${q.index} ${which === "self" ? "self" : "incl."}`,
            tip: `${which} cost of ${e} in part ${q.index}${q.thread !== null ? " (thread " + q.thread + ")" : ""}: click to show this part alone`,
            sort: { parts: String(q.index), pcols: false, by: which, event: e } as Partial<ViewState>,
            cell: (r) => {
              const pr = (r as Row).parts;
              return pr ? fmt(pr[i]?.[which][e]) : "";
            },
            width: 88,
          }),
        );
      }
      const summedOnly = pcols && e === _event; // (beside the parts: only the sum of the same cost)
      const showIncl = !summedOnly || _state.by === "inclusive";
      const showSelf = !summedOnly || _state.by !== "inclusive";

      if (showIncl) cols.push({
        key: "incl",
        title: (summedOnly ? "All incl. " : "Incl. ") + e,
        tip: `inclusive cost of ${e}: the function and everything it calls (% ${of} ${parent ? "inclusive cost" : ""})`.replace(" )", ")"),
        sort: { event: e, by: "inclusive" },
        cell: (r) => ((r as Row).inclusive_exact === false ? "≤ " : "") + fmtCost((r as Row).inclusive[e], inclBase[e]),
        short: (r) => ((r as Row).inclusive_exact === false ? "≤ " : "") + pct((r as Row).inclusive[e], inclBase[e]),
        width: 150,
        minChars: costChars(totals[e]),
      });
      if (showSelf) cols.push({
        key: "self",
        title: (summedOnly ? "All self " : "Self ") + e,
        tip: `self cost of ${e}: the function's own code (% ${of} ${parent ? "self cost" : ""})`.replace(" )", ")"),
        sort: { event: e, by: "self" },
        cell: (r) => fmtCost((r as Row).self[e], selfBase[e]),
        short: (r) => pct((r as Row).self[e], selfBase[e]),
        width: 150,
        minChars: costChars(totals[e]),
      });
    }
    // (A file without calls, cachegrind's or cg_diff's, has no Calls column: it would be all 0.)
    if (!profile.inputs.every((i) => i.has_calls === false))
      cols.push(
        callsAreSamples(profile)
          ? { key: "calls", title: "Samples", tip: "samples taken under calls into the function (a sampling profiler's file: not calls made)", sort: { by: "calls" }, cell: (r) => fmt((r as Row).calls), width: 80 }
          : { key: "calls", title: "Calls", tip: "calls into the function from other functions", sort: { by: "calls" }, cell: (r) => fmt((r as Row).calls), width: 80 },
      );
    cols.push({ key: "name", title: "Function", tip: "name (click to sort by name)", sort: { by: "name" }, cell: (r) => r.name + (r.kind === "function" && (r as Row).cycle ? `  <cycle ${(r as Row).cycle}>` : "") + (((r as Row).functions ?? 1) > 1 ? `  [${(r as Row).functions} functions]` : ""), width: 0 });
    if (!pcols) cols.push({ key: "loc", title: "Location", tip: "source file, or the object of a function with none (???)", cell: (r) => location(r.file, r.object), width: 160 });
    return cols;
  }
  const by = _state.by === "inclusive" ? "inclusive" : "self";
  for (const e of events) {
    const d = (r: AnyRow) => (r as DiffRow)[by][e];
    cols.push({ key: "old", title: `Old ${by === "self" ? "self" : "incl."} ${e}`, tip: "cost in OLD", sort: { event: e, by, measure: "old" } as Partial<ViewState>, cell: (r) => fmt(d(r)?.old), width: 110 });
    cols.push({ key: "new", title: `New ${by === "self" ? "self" : "incl."} ${e}`, tip: "cost in NEW", sort: { event: e, by, measure: "new" } as Partial<ViewState>, cell: (r) => fmt(d(r)?.new), width: 110 });
    cols.push({ key: "delta", title: "Δ " + e, tip: "new − old", sort: { event: e, by, measure: "abs_delta" } as Partial<ViewState>, cell: (r) => signed(d(r)?.delta), cls: (r) => (num(d(r)?.delta) > 0 ? "up" : num(d(r)?.delta) < 0 ? "down" : ""), width: 110 });
    cols.push({ key: "pct", title: "Δ%", tip: "change relative to old", sort: { event: e, by, measure: "percent" } as Partial<ViewState>, cell: (r) => (d(r) ? percentChange(d(r).percent) : ""), cls: (r) => (num(d(r)?.delta) > 0 ? "up" : num(d(r)?.delta) < 0 ? "down" : ""), width: 70 });
  }
  cols.push({ key: "change", title: "Change", tip: `added: only in NEW; removed: only in OLD; changed: its ${by === "self" ? "self" : "inclusive"} cost shown differs; same: it does not`, cell: (r) => ((r as DiffRow).change === "unchanged" ? "same" : (r as DiffRow).change), width: 72 });
  cols.push({ key: "name", title: "Function", tip: "name", sort: { by: "name", measure: "abs_delta" } as Partial<ViewState>, cell: (r) => r.name, width: 0 });
  cols.push({ key: "loc", title: "Location", tip: "source file, or the object of a function with none (???)", cell: (r) => location(r.file, r.object), width: 120 });
  return cols;
}

/** The widest text of fmtCost beside this total: its digits (and a sign), two spaces, "100.0%". */
function costChars(total: Costs[string] | undefined): number {
  return fmt(total).length + 1 + 2 + 6;
}

function fmtCost(c: Costs[string] | undefined, total: Costs[string] | undefined): string {
  if (c === undefined) return "";
  return fmt(c) + "  " + pct(c, total).padStart(6);
}
