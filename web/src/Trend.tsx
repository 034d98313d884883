// Trend.tsx — the Trend view of `calltree serve DIR` (GET /api/v1/trend): the program total,
// or one function's self and inclusive cost, across the folder's runs oldest first, as a
// chart with the change points marked (history/change_points.h: which run stepped, by how
// much). Runs are numbered from 1, oldest first (the API's `run` is an index from 0). A click on a point opens that profile (#open=ID); a shift-click picks a point, and a
// second shift-click opens the diff of the two (#open=OLD,NEW, the older as OLD). The biggest
// changes of any function are listed beside it: a click follows that function. docs/serve.md.
import { useEffect, useState } from "preact/hooks";
import { ApiError, get, setScope, type Cost } from "./api";
import { fmt, num } from "./format";
import { navigate, type ViewState } from "./url";
import "./trend.css";

export interface TrendPoint {
  id: number;
  file: string;
  time: string;
  mtime_ms: number;
  self: Cost;
  inclusive: Cost;
  total: Cost;
}
export interface TrendChange {
  function: string | null;
  file: string | null;
  object: string | null;
  run: number;
  run_file: string;
  event: string;
  kind: "self" | "inclusive" | "total";
  before: number;
  after: number;
  delta_percent: number | null;
}
export interface TrendAnswer {
  event: string;
  events: string[];
  detector: "exact" | "robust";
  order: "time" | "name";
  function: string | null;
  matched: { name: string; file: string; object: string }[];
  points: TrendPoint[];
  changes: TrendChange[];
  top: TrendChange[];
  skipped: number;
  problems: string[];
  index: string;
}

const W = 860;
const H = 300;
const M = { left: 86, right: 16, top: 16, bottom: 34 };

const percent = (c: TrendChange) => (c.delta_percent === null ? "new" : `${c.delta_percent > 0 ? "+" : ""}${c.delta_percent.toFixed(1)}%`);
const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);

function Chart({ a, picked, onPoint }: { a: TrendAnswer; picked: number | null; onPoint: (i: number, shift: boolean) => void }) {
  const n = a.points.length;
  const fn = a.function !== null;
  const series: [string, string, (p: TrendPoint) => number][] = fn
    ? [
        ["inclusive", "incl", (p) => num(p.inclusive)],
        ["self", "self", (p) => num(p.self)],
      ]
    : [["total", "incl", (p) => num(p.total)]];
  const max = Math.max(1, ...a.points.flatMap((p) => series.map(([, , v]) => v(p))));
  const x = (i: number) => M.left + (n <= 1 ? (W - M.left - M.right) / 2 : (i * (W - M.left - M.right)) / (n - 1));
  const y = (v: number) => M.top + (H - M.top - M.bottom) * (1 - v / max);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  const labelEvery = Math.max(1, Math.ceil(n / 12));
  return (
    <svg class="trendchart" viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`${a.function ?? "program total"} across ${n} runs`} data-testid="trend-chart">
      {ticks.map((t) => (
        <g>
          <line class="grid" x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
          <text class="axis" x={M.left - 6} y={y(t) + 4} text-anchor="end">
            {fmt(Math.round(t))}
          </text>
        </g>
      ))}
      {a.points.map((_, i) =>
        i % labelEvery === 0 || i === n - 1 ? (
          <text class="axis" x={x(i)} y={H - M.bottom + 16} text-anchor="middle">
            {i + 1}
          </text>
        ) : null,
      )}
      <text class="axis" x={(W + M.left) / 2} y={H - 4} text-anchor="middle">
        run (oldest first, by {a.order})
      </text>
      {a.changes.map((c) => {
        const cx = n > 1 ? (x(c.run - 1) + x(c.run)) / 2 : x(c.run);
        return (
          <g class={"change " + (c.after > c.before ? "up" : "down")} data-testid="trend-change" data-run={c.run} data-kind={c.kind}>
            <line x1={cx} x2={cx} y1={M.top} y2={H - M.bottom} />
            <text x={cx + 4} y={H - M.bottom - 8 - (c.kind === "self" ? 14 : 0)}>
              {`${c.kind === "total" ? "" : c.kind + " "}${percent(c)}`}
            </text>
            <title>{`run ${c.run + 1} (${base(c.run_file)}): ${c.kind} ${fmt(c.before)} → ${fmt(c.after)} (${percent(c)})`}</title>
          </g>
        );
      })}
      {series.map(([name, cls, v]) => (
        <g class={"series " + cls} data-series={name}>
          <polyline points={a.points.map((p, i) => `${x(i)},${y(v(p))}`).join(" ")} />
          {a.points.map((p, i) => (
            <circle
              cx={x(i)}
              cy={y(v(p))}
              r={picked === i ? 7 : name === "self" ? 3.5 : 5}
              class={picked === i ? "picked" : ""}
              data-testid="trend-point"
              data-series={name}
              data-id={p.id}
              onClick={(e) => onPoint(i, (e as MouseEvent).shiftKey)}
            >
              <title>{`run ${i + 1}: ${p.file}\n${p.time}\n${name} ${fmt(v(p))}\nclick: open it; shift-click two points: their diff`}</title>
            </circle>
          ))}
        </g>
      ))}
    </svg>
  );
}

export function Trend({ state }: { state: ViewState }) {
  setScope("");
  const [answer, setAnswer] = useState<TrendAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState(state.tfn);
  const [picked, setPicked] = useState<number | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    const params: Record<string, string> = {};
    if (state.tfn) params.function = state.tfn;
    if (state.event) params.event = state.event;
    get<TrendAnswer>("trend", params, ctl.signal).then(
      (a) => (setAnswer(a), setError(null), setPicked(null)),
      (e) => !ctl.signal.aborted && setError(e instanceof ApiError ? e.message : String(e)),
    );
    return () => ctl.abort();
  }, [state.tfn, state.event]);
  useEffect(() => setText(state.tfn), [state.tfn]);
  const a = answer;
  // The list of biggest changes; a name several of its functions share (other objects or
  // files: callgrind's `(below main)` of the program and of libc) says each one's object, and
  // asks for `file:name`, that one function, where the name alone is their sum.
  const listed = a ? a.top.slice(0, 30) : [];
  const where = new Map<string, string>();  // a name -> the file and object of its first row
  const shared = new Set<string>();
  for (const c of listed) {
    const [n, w] = [c.function ?? "", `${c.file}\n${c.object}`];
    if (!where.has(n)) where.set(n, w);
    else if (where.get(n) !== w) shared.add(n);
  }
  const asked = (c: TrendChange) => (shared.has(c.function ?? "") && c.file ? `${c.file}:${c.function}` : c.function ?? "");
  const onPoint = (i: number, shift: boolean) => {
    if (!a) return;
    if (!shift) return navigate({ open: String(a.points[i].id), fn: null });
    if (picked === null || picked === i) return setPicked(picked === i ? null : i);
    const [o, nw] = [Math.min(picked, i), Math.max(picked, i)];
    navigate({ open: `${a.points[o].id},${a.points[nw].id}`, fn: null });
  };
  return (
    <div class="trend" aria-label="Trend">
      <header>
        <strong class="brand">calltree</strong>
        <a href="#" data-testid="trend-back" onClick={(e) => (e.preventDefault(), navigate({ view: "" }))}>
          ← Table of profiles
        </a>
        <span class="dim">Trend</span>
        <span class="spacer" />
        <input
          class="search"
          aria-label="Function"
          list="trend-functions"
          placeholder="a function (empty: the program total)"
          value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => e.key === "Enter" && navigate({ tfn: text.trim() })}
        />
        <datalist id="trend-functions">
          {a?.top.map((c) => (
            <option value={c.function ?? ""} />
          ))}
        </datalist>
        <label>
          Event{" "}
          <select aria-label="Event" value={a?.event ?? state.event} onChange={(e) => navigate({ event: (e.target as HTMLSelectElement).value })}>
            {(a?.events ?? []).map((e) => (
              <option value={e}>{e}</option>
            ))}
          </select>
        </label>
      </header>
      {error && (
        <div class="error" role="alert" data-testid="trend-error">
          {error}
        </div>
      )}
      {!a && !error && <div class="hint">Reading the runs… (the first time, every profile is read whole; then the index answers)</div>}
      {a && (
        <div class="trendbody">
          <section>
            <h2 data-testid="trend-title">
              {a.function ? (
                <>
                  <code>{a.function}</code> <span class="dim">self and inclusive {a.event}</span>
                </>
              ) : (
                <>
                  Program total <span class="dim">{a.event}</span>
                </>
              )}
              {a.function && (
                <button class="clear" title="back to the program total" onClick={() => navigate({ tfn: "" })}>
                  ×
                </button>
              )}
            </h2>
            <div class="dim" data-testid="trend-summary">
              {`${a.points.length} runs, oldest first (by ${a.order}); ${a.detector} detector; ${a.changes.length} change${a.changes.length === 1 ? "" : "s"}`}
              {a.skipped ? `; ${a.skipped} ${a.skipped === 1 ? "file holds" : "files hold"} no profile` : ""}
              {a.function && a.matched.length > 1 ? `; the sum of ${a.matched.length} functions of that name` : ""}
            </div>
            <Chart a={a} picked={picked} onPoint={onPoint} />
            <div class="legend dim">
              {a.function ? (
                <>
                  <span class="key incl" /> inclusive <span class="key self" /> self
                </>
              ) : (
                <>
                  <span class="key incl" /> program total
                </>
              )}{" "}
              · dashed: a change point · click a point to open that profile, shift-click two to open their diff
              {picked !== null ? ` (picked: run ${picked + 1}; shift-click another)` : ""}
            </div>
            <table class="foldertable trendtable">
              <thead>
                <tr>
                  <th class="num">Run</th>
                  <th>File</th>
                  <th>Time</th>
                  {a.function ? (
                    <>
                      <th class="num">Self</th>
                      <th class="num">Inclusive</th>
                    </>
                  ) : null}
                  <th class="num">Total</th>
                </tr>
              </thead>
              <tbody>
                {a.points.map((p, i) => (
                  <tr data-testid="trend-row" class={a.changes.some((c) => c.run === i) ? "changed" : ""}>
                    <td class="num">{i + 1}</td>
                    <td class="name">
                      <a href={"#open=" + p.id} onClick={(e) => (e.preventDefault(), navigate({ open: String(p.id), fn: null }))}>
                        {p.file}
                      </a>
                    </td>
                    <td>{p.time.replace("T", " ").replace("Z", " UTC")}</td>
                    {a.function ? (
                      <>
                        <td class="num">{fmt(p.self)}</td>
                        <td class="num">{fmt(p.inclusive)}</td>
                      </>
                    ) : null}
                    <td class="num">{fmt(p.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <aside aria-label="Biggest changes">
            <h3>Biggest changes of any function</h3>
            {a.top.length === 0 && <div class="dim">none of the threshold or more</div>}
            <ul>
              {listed.map((c) => (
                <li data-testid="trend-top">
                  <a href="#" title={`${c.function}\n${c.file ?? ""} ${c.object ?? ""}`} onClick={(e) => (e.preventDefault(), navigate({ tfn: asked(c) }))}>
                    {c.function}
                  </a>{" "}
                  {shared.has(c.function ?? "") && (
                    <span class="dim" data-testid="trend-top-where">
                      · {base(c.object || c.file || "")}{" "}
                    </span>
                  )}
                  <span class={"dim " + (c.after > c.before ? "up" : "down")}>
                    {c.kind} {percent(c)} at run {c.run + 1}
                  </span>
                </li>
              ))}
            </ul>
          </aside>
        </div>
      )}
    </div>
  );
}
