// main.tsx — the page of `calltree serve`: a header (profile, event, parts), the function
// list on the left, and the selected function's views on the right (docs/serve.md).
import { render } from "preact";
import { lazy, Suspense } from "preact/compat";
import { useEffect, useState } from "preact/hooks";
import type { Cost, FunctionDetail, Profile } from "./api";
import { ApiError, callsAreSamples, get, isReport, setCycles, setDerived, setScope } from "./api";
import { CallerMap } from "./CallerMap";
import { Calls } from "./Calls";
import { Coverage } from "./Coverage";
import { Diagnostics } from "./Diagnostics";
import { Help, visibleTabs } from "./Keys";
import { Flame, Sandwich } from "./Flame";
import { base, fmt, num, pct, percentChange } from "./format";
import { Folder, FolderBar, scopeOf } from "./Folder";
import { FunctionList, Splitter } from "./FunctionList";
import { Parts } from "./Parts";
import { ReloadBar } from "./Reload";
import { ReportNotice, Verdict } from "./ReportNotice";
import { MachineCode } from "./MachineCode";
import { Panes, type PaneView } from "./Panes";
import { SourceView } from "./Source";
import { Treemap } from "./Treemap";
import { Trend } from "./Trend";
import { StackFilterBar } from "./StackFilters";
import { TransformBar } from "./Transforms";
import { navigate, useViewState, type Tab, type ViewState } from "./url";
import { useFetch } from "./useFetch";
import "./style.css";

// Graphviz (WebAssembly) is fetched only when the call graph is first shown.
const CallGraph = lazy(() => import("./CallGraph"));

const TABS: [Tab, string][] = [
  ["calls", "Callers / callees"],
  ["source", "Source"],
  ["asm", "Machine code"],
  ["graph", "Call graph"],
  ["flame", "Flame graph"],
  ["icicle", "Icicle"],
  ["sandwich", "Sandwich"],
  ["map", "Callee map"],
  ["callermap", "Caller map"],
  ["allcallers", "All callers"],
  ["allcallees", "All callees"],
  ["parts", "Parts"],
];

const sumParts = (i: Profile["inputs"][number], e: string) => i.parts.reduce((a, q) => a + Number(q.totals[e] ?? 0), 0);

function Header({ p, state, event }: { p: Profile; state: ViewState; event: string }) {
  const input = p.inputs[p.inputs.length - 1];
  const parts = input.parts;
  return (
    <header>
      <strong class="brand">calltree</strong>
      <span class="file" data-testid="file-name" title={input.files ? input.files.map((f) => f.name).join("\n") : p.inputs.map((i) => i.name).join(" → ")}>
        {p.mode === "diff" ? `${base(p.inputs[0].name)} → ${base(p.inputs[1].name)}` : base(input.name)}
        {input.files && <span class="dim" data-testid="run-files">{` and ${input.files.length - 1} more files (a run of ${input.files.length})`}</span>}
      </span>
      <span class="dim" title={input.command}>
        {input.creator}
      </span>
      <span class="spacer" />
      <label>
        Event{" "}
        <select value={event} aria-label="Event" onChange={(e) => navigate({ event: (e.target as HTMLSelectElement).value })}>
          {p.events.map((e) => (
            <option value={e.name} title={e.formula ?? e.long_name}>
              {e.name}
              {e.long_name && e.long_name !== e.name ? ` — ${e.long_name}` : ""}
              {e.formula ? ` = ${e.formula}` : ""}
            </option>
          ))}
        </select>
      </label>
      {!isReport() && <FormulaBox state={state} />}
      {!isReport() && (
        <label title="KCachegrind's cycle detection: on, functions that call each other in a cycle are grouped as <cycle N> (a member's inclusive cost is its self and its calls leaving the cycle); off, no cycle is formed and recursion shows as the file has it">
          <input type="checkbox" data-testid="cycles" checked={state.cycles} onChange={(e) => navigate({ cycles: (e.target as HTMLInputElement).checked })} /> cycles
        </label>
      )}
      <label title="KCachegrind's Relative to Parent: the percentages of the callers and callees are of the selected function's inclusive cost, a cycle's members' of the cycle's, and the list's within a group of the group's cost (off: of the program's total)">
        <input type="checkbox" data-testid="relative" checked={state.rel} onChange={(e) => navigate({ rel: (e.target as HTMLInputElement).checked })} /> relative to parent
      </label>
      {p.mode !== "diff" && (
        <label title="show the self and inclusive columns of every event">
          <input type="checkbox" checked={state.all} onChange={(e) => navigate({ all: (e.target as HTMLInputElement).checked })} /> all events
        </label>
      )}
      {parts.length > 1 && (
        <label>
          Part{" "}
          <select value={state.parts} aria-label="Parts" onChange={(e) => navigate({ parts: (e.target as HTMLSelectElement).value })}>
            <option value="all">all {parts.length} summed</option>
            {parts.map((q) => (
              <option value={String(q.index)}>
                {q.index}
                {input.files && q.file !== undefined ? ` · ${base(input.files[q.file].name)}` : ""}
                {q.thread !== null ? ` · thread ${q.thread}` : ""}
                {q.pid !== null ? ` · pid ${q.pid}` : ""} · {pct(q.totals[event], p.totals[event])}
              </option>
            ))}
          </select>
        </label>
      )}
      <Help />
      {p.mode === "diff" ? (
        <span class="total" data-testid="total" title="the programs' totals of this event, OLD → NEW">
          Total {event}: {fmt(sumParts(p.inputs[0], event))} → {fmt(sumParts(input, event))} ({percentChange(sumParts(p.inputs[0], event) ? (100 * (sumParts(input, event) - sumParts(p.inputs[0], event))) / sumParts(p.inputs[0], event) : null)})
        </span>
      ) : (
        <PartTotal p={p} state={state} event={event} />
      )}
    </header>
  );
}

/** The total every percentage is of: the program's, or with some parts chosen theirs (each
 *  part's by the rule of calltree/totals.h, as the list's), the program's beside it. */
function PartTotal({ p, state, event }: { p: Profile; state: ViewState; event: string }) {
  const parts = p.inputs[p.inputs.length - 1].parts;
  const chosen = state.parts === "all" ? [] : parts.filter((q) => state.parts.split(",").includes(String(q.index)));
  if (!chosen.length)
    return (
      <span class="total" data-testid="total" title="the program's total of this event">
        Total {event}: {fmt(p.totals[event])}
        <StatedTotal p={p} event={event} />
      </span>
    );
  // (each part's thread beside it when every chosen part has one: "part 2 (thread 2)")
  const threads = chosen.every((q) => q.thread !== null) ? ` (thread${chosen.length > 1 ? "s" : ""} ${chosen.map((q) => q.thread).join(", ")})` : "";
  const name = `part${chosen.length > 1 ? "s" : ""} ${chosen.map((q) => q.index).join(", ")}${threads}`;
  return (
    <span class="total" data-testid="total" title={`the total of this event in ${name}: every percentage is of it (the program's total beside it)`}>
      Total {event} of {name}: <span data-testid="part-total">{fmt(sumCosts(chosen.map((q) => q.totals[event])))}</span>{" "}
      <span class="dim" data-testid="program-total">
        (program: {fmt(p.totals[event])})
      </span>
    </span>
  );
}

/** The sum of costs, exact beyond 2^53 (a cost given as a string) when all are whole. */
function sumCosts(cs: (Cost | undefined)[]): Cost {
  const whole = cs.every((c) => c === undefined || typeof c === "string" || Number.isInteger(c));
  if (!whole) return cs.reduce<number>((a, c) => a + num(c), 0);
  const t = cs.reduce((a, c) => a + BigInt(c ?? 0), 0n);
  return t <= BigInt(Number.MAX_SAFE_INTEGER) && t >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(t) : t.toString();
}

// A derived event the server refused (typed in the box, or in a link): the page is shown
// without it, and the box shows the formula and why, once.
let refused: { text: string; message: string } | null = null;

/** Where the file states a total other than the sum of its self costs: both, beside the total
 *  (percentages are of the stated one, as in `calltree annotate`; the flame graph holds the
 *  functions' costs, so its roots fill that share of the width). */
function StatedTotal({ p, event }: { p: Profile; event: string }) {
  const stated = p.totals_stated?.[event];
  const summed = p.totals_summed?.[event];
  if (stated === null || stated === undefined || summed === undefined || Number(stated) === Number(summed)) return null;
  const share = (100 * Number(summed)) / Number(stated);
  return (
    <span class="stated-total warning" data-testid="stated-total" title={`the file states a total of ${fmt(stated)} ${event}; its functions' self costs sum to ${fmt(summed)}. Percentages are of the stated total${share > 100 ? " and can pass 100 %" : ""}; the flame graph's roots fill ${share.toFixed(1)} % of its width.`}>
      {" "}
      (stated by the file; its functions sum to {fmt(summed)}, {share.toFixed(1)} %)
    </span>
  );
}

/** KCachegrind's formula box: a derived event of this page, e.g. `CEst = Ir + 10 Bm`. A
 * formula the server refuses is not applied: its error is shown beside the box. */
function FormulaBox({ state }: { state: ViewState }) {
  const [text, setText] = useState(refused?.text ?? state.derived.replace("=", " = "));
  const [error, setError] = useState<string | null>(refused?.message ?? null);
  useEffect(() => void (refused = null), []);
  const apply = async () => {
    const t = text.trim();
    if (t === "") {
      setError(null);
      navigate({ derived: "", event: "" });
      return;
    }
    const m = t.match(/^([A-Za-z_][\w]*)\s*=\s*(.+)$/);
    if (!m) {
      setError("a derived event is NAME = FORMULA of the events (e.g. CEst = Ir + 10 Bm)");
      return;
    }
    const derived = m[1] + "=" + m[2];
    try {
      await get<Profile>("profile", {}, undefined, derived);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      return;
    }
    setError(null);
    navigate({ derived, event: m[1] });
  };
  return (
    <span class="formulabox">
      <input
        class={"formula" + (error ? " bad" : "")}
        aria-label="Derived event"
        aria-invalid={error !== null}
        title="a derived event, NAME = FORMULA of the events (e.g. CEst = Ir + 10 Bm); Enter to add, empty to remove"
        placeholder="NAME = FORMULA"
        value={text}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") void apply();
          if (e.key === "Escape") setError(null);
        }}
      />
      {error && (
        <span class="formula-error" role="alert" data-testid="formula-error" title={error}>
          {error}
        </span>
      )}
    </span>
  );
}

function Detail({ p, state, event }: { p: Profile; state: ViewState; event: string }) {
  const diff = p.mode === "diff";
  const side = diff ? state.side : undefined;
  const common = { parts: state.parts, sort: event, side };
  const d = useFetch<FunctionDetail>(state.fn === null ? null : "function/" + state.fn, common);
  const f = d.data;
  // What a pane shows of a tab (each pane one, Panes.tsx; both of the selected function).
  const view = (tab: Tab): PaneView => ({
    bars: (
      <>
        {["graph", "flame", "icicle", "sandwich", "map"].includes(tab) && <StackFilterBar state={state} />}
        {["flame", "icicle", "sandwich"].includes(tab) && <TransformBar state={state} />}
      </>
    ),
    body: (
      <>
        {tab === "calls" && f && <Calls d={f} event={event} side={side} relative={state.rel} sampled={callsAreSamples(p)} />}
        {tab === "source" && f && <SourceView f={f} event={event} state={state} />}
        {tab === "asm" && f && isReport() && <div class="error">This report does not hold machine code: open the profile with calltree serve.</div>}
        {tab === "asm" && f && !isReport() && <MachineCode f={f} event={event} state={state} creator={p.inputs[diff && state.side === "old" ? 0 : p.inputs.length - 1].creator} />}
        {tab === "graph" && f && (
          <Suspense fallback={<div class="hint">Loading Graphviz…</div>}>
            <CallGraph fn={f.id} event={event} state={state} />
          </Suspense>
        )}
        {(tab === "flame" || tab === "icicle") && <Flame event={event} state={state} icicle={tab === "icicle"} diff={diff} />}
        {tab === "sandwich" && f && <Sandwich fn={f.id} event={event} state={state} />}
        {tab === "parts" && <Parts p={p} fn={f?.id ?? null} event={event} />}
        {tab === "map" && <Treemap fn={f?.id ?? null} event={event} state={state} />}
        {tab === "callermap" && f && <CallerMap fn={f.id} event={event} state={state} />}
        {tab === "allcallers" && f && <Coverage fn={f.id} event={event} state={state} direction="callers" />}
        {tab === "allcallees" && f && <Coverage fn={f.id} event={event} state={state} direction="callees" />}
        {f === null && state.fn !== null && !d.error && tab !== "flame" && tab !== "icicle" && tab !== "parts" && <div class="hint">Loading…</div>}
      </>
    ),
  });
  return (
    <section class="detail" aria-label="Selected function">
      {state.fn === null ? (
        <div class="hint">Select a function in the list (click, or the arrow keys) to see its callers, callees, source and graphs. The flame graph and icicle need no selection.</div>
      ) : d.error ? (
        <div class="error" role="alert">
          {d.error.message}
        </div>
      ) : f ? (
        <div class="fnhead" data-testid="selected">
          <button class="clear" title="clear the selection (Esc in the list)" aria-label="Clear the selection" onClick={() => navigate({ fn: null })}>
            ×
          </button>
          <h2 data-testid="selected-name" title={f.name}>
            {f.name}
            {f.cycle ? <span class="tag">{`<cycle ${f.cycle}>`}</span> : null}
            {diff && <span class="tag">{state.side === "old" ? "OLD" : "NEW"}</span>}
          </h2>
          <div class="dim">
            {f.file}
            {f.object ? ` · ${f.object}` : ""}
          </div>
          <div class="figures">
            <span>
              Incl. {event} <b data-testid="selected-incl">{fmt(f.inclusive[event])}</b> {pct(f.inclusive[event], f.totals[event])}
            </span>
            <span>
              Self <b data-testid="selected-self">{fmt(f.self[event])}</b> {pct(f.self[event], f.totals[event])}
            </span>
            <span data-testid="selected-calls" title={callsAreSamples(p) ? "samples taken under calls into the function (a sampling profiler's file: not calls made)" : "calls into the function from other functions"}>
              {callsAreSamples(p) ? "Samples" : "Calls"} <b>{fmt(f.calls)}</b>
            </span>
            {f.cycle_id !== null && (
              <a href="#" onClick={(e) => (e.preventDefault(), navigate({ fn: f.cycle_id }))}>
                {`<cycle ${f.cycle}>`}
              </a>
            )}
          </div>
        </div>
      ) : (
        <div class="hint">Loading…</div>
      )}
      <Panes state={state} tabs={visibleTabs(TABS.filter(([t]) => t !== "parts" || p.inputs[p.inputs.length - 1].parts.length > 1))} view={view} />
    </section>
  );
}

const folderServer = document.querySelector('meta[name="calltree-mode"]')?.getAttribute("content") === "folder";

function App() {
  const state = useViewState();
  setDerived(state.derived);
  setCycles(state.cycles);
  setScope(scopeOf(state.open));
  // (a new derived event, or a reload, asks every view again: the page is made anew)
  const [generation, setGeneration] = useState(0);
  // serve DIR (the page says so): its table, without asking for a profile it has not opened.
  if (folderServer && !state.open) return state.view === "trend" ? <Trend state={state} /> : <Folder />;
  return (
    <>
      {state.open && <FolderBar />}
      <Page key={state.open + "/" + state.derived + "/" + state.cycles + "/" + generation} state={state} onReloaded={() => setGeneration((g) => g + 1)} />
    </>
  );
}

function Page({ state, onReloaded }: { state: ViewState; onReloaded: () => void }) {
  const prof = useFetch<Profile>("profile", {});
  // A derived event the server refuses (from a link): the page without it, the error beside
  // the formula box.
  const refusedNow = prof.error && state.derived && (prof.error.code === "bad_event" || prof.error.code === "bad_derived") ? prof.error : null;
  useEffect(() => {
    if (!refusedNow) return;
    refused = { text: state.derived.replace("=", " = "), message: refusedNow.message };
    navigate({ derived: "", event: "" }, true);
  }, [refusedNow]);
  if (prof.error?.code === "folder_mode") return state.view === "trend" ? <Trend state={state} /> : <Folder />;
  if (refusedNow) return <div class="hint">Loading the profile…</div>;
  if (prof.error)
    return (
      <div class="fatal" role="alert">
        <h1>calltree</h1>
        <p data-testid="fatal">{prof.error.message}</p>
      </div>
    );
  const p = prof.data;
  if (!p) return <div class="hint">Loading the profile…</div>;
  const event = p.events.some((e) => e.name === state.event) ? state.event : p.events[0]?.name ?? "";
  return (
    <div class={"app" + (p.mode === "diff" ? " diffmode" : "") + (p.mode !== "diff" && state.pcols && p.inputs[0].parts.length > 1 && !p.report ? " pcolsmode" : "") + (state.tab2 ? " splitmode" : "")}>
      {p.report?.gate && <Verdict g={p.report.gate} />}
      <Header p={p} state={state} event={event} />
      <ReloadBar state={state} onReloaded={onReloaded} />
      <Diagnostics p={p} />
      {p.report && <ReportNotice r={p.report} parts={p.inputs[p.inputs.length - 1].parts.length} diff={p.mode === "diff"} />}
      <main>
        <FunctionList profile={p} state={state} event={event} />
        <Splitter />
        <Detail p={p} state={state} event={event} />
      </main>
    </div>
  );
}

render(<App />, document.getElementById("app")!);
