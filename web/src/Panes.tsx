// Panes.tsx — the selected function's views in one pane or two side by side (KCachegrind's
// split: the call graph beside the source, the callers beside the machine code). Each pane has
// its own row of tabs, the WAI-ARIA tabs pattern: one stop of the Tab key, the arrows, Home and
// End move along it; both panes show the selected function. The second pane's tab (tab2=) and
// the first pane's share of the width (split=) are in the URL; the divider between them is
// dragged, or moved by the arrow keys. Where two panes do not fit, the first alone is shown.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { setActivePane, setPanes } from "./Keys";
import { navigate, SPLIT_MAX, SPLIT_MIN, type Tab, type ViewState } from "./url";

/** A pane narrower than this (px) is of no use: the split needs twice it and the divider. */
export const MIN_PANE = 320;
const DIVIDER = 6; // px
const STEP = 5; // percent, an arrow key on the divider

/** The second pane's tab as the split opens, by the first's: the view that goes beside it. */
const PAIR: Record<Tab, Tab> = {
  calls: "graph",
  graph: "source",
  source: "asm",
  asm: "source",
  flame: "sandwich",
  icicle: "sandwich",
  sandwich: "source",
  map: "callermap",
  callermap: "map",
  allcallers: "allcallees",
  allcallees: "allcallers",
  parts: "calls",
};

/** The tab the second pane opens on beside `tab`, one of `shown`. */
export function pairOf(tab: Tab, shown: Tab[]): Tab {
  const want = PAIR[tab];
  return shown.includes(want) ? want : shown.find((t) => t !== tab) ?? tab;
}

/** What a pane shows of a tab: the bars above its view (the stack filters, the transforms)
 * and the view. */
export interface PaneView {
  bars: ComponentChildren;
  body: ComponentChildren;
}

const columns = (share: number) => `minmax(0, ${share}fr) ${DIVIDER}px minmax(0, ${100 - share}fr)`;

export function Panes({ state, tabs, view }: { state: ViewState; tabs: [Tab, string][]; view: (tab: Tab) => PaneView }) {
  const box = useRef<HTMLDivElement>(null);
  // The panes' width, measured as it changes (the window, the list's splitter).
  const [width, setWidth] = useState(Infinity);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const shown = tabs.map(([t]) => t);
  const wanted = state.tab2 !== "";
  const fits = width >= 2 * MIN_PANE + DIVIDER;
  const two = wanted && fits;
  setPanes(two ? 2 : 1);
  const tab2 = state.tab2 !== "" && shown.includes(state.tab2) ? state.tab2 : pairOf(state.tab, shown);
  const toggle = (
    <span class="splitctl">
      {wanted && !fits && (
        <span class="dim" data-testid="panes-narrow" title="the second pane comes back when the window is wide enough for two">
          one pane: too narrow for two
        </span>
      )}
      <button
        class="split"
        aria-pressed={wanted}
        data-testid="split"
        title={wanted ? "back to one pane" : "a second pane beside this one, with its own tabs, showing the same function"}
        onClick={() => navigate(wanted ? { tab2: "" } : { tab2: pairOf(state.tab, shown) })}
      >
        {wanted ? "One pane" : "Split"}
      </button>
    </span>
  );
  return (
    <div class={"panes" + (two ? " two" : "")} ref={box} style={two ? { gridTemplateColumns: columns(state.split) } : undefined}>
      <Pane n={1} tab={state.tab} tabs={tabs} view={view} two={two} aside={toggle} />
      {two && <Divider share={state.split} box={box} />}
      {two && <Pane n={2} tab={tab2} tabs={tabs} view={view} two={two} />}
    </div>
  );
}

function Pane({ n, tab, tabs, view, two, aside }: { n: 1 | 2; tab: Tab; tabs: [Tab, string][]; view: (tab: Tab) => PaneView; two: boolean; aside?: ComponentChildren }) {
  const v = view(tab);
  // (the keys of Keys.tsx act on the pane last clicked or focused in)
  const mark = () => setActivePane(n);
  return (
    <section class="pane" data-pane={n} aria-label={two ? (n === 1 ? "Left pane" : "Right pane") : undefined} onFocusIn={mark} onPointerDown={mark}>
      <div class="tabrow">
        <TabList n={n} tab={tab} tabs={tabs} />
        {aside}
      </div>
      {v.bars}
      <div class="tabbody" role="tabpanel" id={`panel-${n}`} aria-labelledby={`tab-${n}-${tab}`} tabIndex={0}>
        {v.body}
      </div>
    </section>
  );
}

/** A pane's tabs: a click, or ← → Home End with the focus on them, shows that tab; only the
 * shown tab is a stop of the Tab key (a roving tabindex). */
function TabList({ n, tab, tabs }: { n: 1 | 2; tab: Tab; tabs: [Tab, string][] }) {
  const pick = (t: Tab) => navigate(n === 1 ? { tab: t } : { tab2: t });
  const ids = tabs.map(([t]) => t);
  const current = ids.includes(tab) ? tab : ids[0];
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const i = ids.indexOf(current);
    const last = ids.length - 1;
    const j = e.key === "ArrowRight" ? (i === last ? 0 : i + 1) : e.key === "ArrowLeft" ? (i === 0 ? last : i - 1) : e.key === "Home" ? 0 : e.key === "End" ? last : -1;
    if (j < 0) return;
    e.preventDefault();
    e.stopPropagation();
    ((e.currentTarget as HTMLElement).querySelectorAll('[role="tab"]')[j] as HTMLElement | undefined)?.focus();
    pick(ids[j]);
  };
  return (
    <div class="tabs" role="tablist" aria-label={n === 1 ? "Views" : "Views of the right pane"} onKeyDown={onKeyDown}>
      {tabs.map(([t, label], i) => (
        <button
          role="tab"
          id={`tab-${n}-${t}`}
          aria-selected={tab === t}
          aria-controls={`panel-${n}`}
          tabIndex={t === current ? 0 : -1}
          class={tab === t ? "active" : ""}
          title={i < 9 ? `key ${i + 1}` : i === 9 ? "key 0" : undefined}
          onClick={() => pick(t)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** The bar between the panes: drag it, or ← → (Home, End: the narrowest and widest first
 * pane) with the focus on it; a double click or Enter: half and half. */
function Divider({ share, box }: { share: number; box: { current: HTMLDivElement | null } }) {
  const set = (v: number) => navigate({ split: Math.round(Math.max(SPLIT_MIN, Math.min(SPLIT_MAX, v))) }, true);
  const onKeyDown = (e: KeyboardEvent) => {
    const v = e.key === "ArrowLeft" ? share - STEP : e.key === "ArrowRight" ? share + STEP : e.key === "Home" ? SPLIT_MIN : e.key === "End" ? SPLIT_MAX : e.key === "Enter" ? 50 : null;
    if (v === null) return;
    e.preventDefault();
    e.stopPropagation();
    set(v);
  };
  const onPointerDown = (e: PointerEvent) => {
    const el = box.current;
    if (!el || e.button !== 0) return;
    e.preventDefault();
    const bar = e.currentTarget as HTMLElement;
    bar.setPointerCapture(e.pointerId);
    const r = el.getBoundingClientRect();
    let v = share;
    // (while dragging only the grid changes; the URL once, as the drag ends)
    const move = (m: PointerEvent) => {
      v = Math.max(SPLIT_MIN, Math.min(SPLIT_MAX, (100 * (m.clientX - r.left - DIVIDER / 2)) / (r.width - DIVIDER)));
      el.style.gridTemplateColumns = columns(v);
    };
    const up = () => {
      bar.removeEventListener("pointermove", move);
      bar.removeEventListener("pointerup", up);
      set(v);
    };
    bar.addEventListener("pointermove", move);
    bar.addEventListener("pointerup", up);
  };
  return (
    <div
      class="panedivider"
      role="separator"
      tabIndex={0}
      aria-orientation="vertical"
      aria-label="Resize the panes"
      aria-valuenow={share}
      aria-valuemin={SPLIT_MIN}
      aria-valuemax={SPLIT_MAX}
      aria-valuetext={`left pane ${share}%`}
      data-testid="pane-divider"
      title="drag, or ← → with the focus here, to resize the panes; double-click: half and half"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onDblClick={() => set(50)}
    />
  );
}
