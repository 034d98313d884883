// Keys.tsx — the page's keys beyond the function list's own (arrows, j/k, Page Up/Down,
// Home/End, Esc): tabs by number and in turn, the focus into the callers or callees list and
// back, the search, and the help that lists them all (the "?" button, or the key ?).
import { useEffect, useState } from "preact/hooks";
import type { Tab } from "./url";
import { navigate } from "./url";

// The tabs the page shows now, in order (main.tsx's Detail sets them as it draws them).
let tabs: Tab[] = [];
export function visibleTabs<T extends [Tab, string]>(list: T[]): T[] {
  tabs = list.map(([t]) => t);
  return list;
}

// The panes shown (Panes.tsx: 1 or 2) and the one the keys act on, the last clicked or focused
// in: its tab is the one the number keys and [ ] change, and c, e look in it first.
let panes = 1;
let active: 1 | 2 = 1;
export const setPanes = (n: number) => void (panes = n);
export const setActivePane = (n: 1 | 2) => void (active = n);
const activePane = (): 1 | 2 => (panes > 1 ? active : 1);

/** Focuses the first row of the callers ("callers") or callees list (the active pane's, if
 * both show one), or the function list. */
export function focusList(which: "callers" | "callees" | "functions"): boolean {
  // (a focus asked for now wins over one still waiting for a function's answer: `l` pressed
  // after Enter on a caller, before that caller's answer came, stays in the function list)
  if (which === "functions") pendingFocus = null;
  const rows = `.calltable[aria-label="${which === "callers" ? "Callers" : "Callees"}"] tbody tr`;
  const el =
    which === "functions"
      ? (document.querySelector("section.list .tbody") as HTMLElement | null)
      : ((document.querySelector(`.pane[data-pane="${activePane()}"] ${rows}`) ?? document.querySelector(rows)) as HTMLElement | null);
  el?.focus();
  return el !== null;
}

// A call list to focus once the Callers / callees tab is drawn (after `c` or `e` on another tab).
let pendingFocus: "callers" | "callees" | null = null;
export function focusLater(which: "callers" | "callees" | null) {
  pendingFocus = which;
}
export function takePendingFocus(): "callers" | "callees" | null {
  const p = pendingFocus;
  pendingFocus = null;
  return p;
}

export const KEYS: [string, string][] = [
  ["↑ ↓  j k", "the previous / next function of the list (Page Up/Down, Home, End)"],
  ["Esc", "in the list: clear the selection; in the callers or callees: back to the list"],
  ["/", "search the functions (a regular expression)"],
  ["1 … 9, 0", "the tab of that number (Callers / callees is 1), in the pane last clicked or focused"],
  ["[  ]", "the previous / next tab (the same pane)"],
  ["Tab", "the next stop: the list, a pane's row of tabs, its filter boxes, its view, the divider, the other pane"],
  ["← →  Home End", "on a row of tabs: the previous / next / first / last tab; on the panes' divider: narrower / wider left pane"],
  ["c", "into the callers list (then ↑ ↓ j k to move, Enter to select that function)"],
  ["e", "into the callees list (the same keys)"],
  ["l", "back to the function list"],
  ["r", "relative to parent on / off"],
  ["+ − 0  ← → ↑ ↓", "in the call graph (click it first): zoom in, out, fit the whole graph; pan"],
  ["?", "this help"],
];

let toggleHelp: (() => void) | null = null;

/** The "?" button of the header and the panel of keys it opens. */
export function Help() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    toggleHelp = () => setOpen((o) => !o);
    return () => void (toggleHelp = null);
  }, []);
  return (
    <span class="helpbox">
      <button aria-label="Keys" title="the page's keys (?)" aria-expanded={open} onClick={() => setOpen(!open)}>
        ?
      </button>
      {open && (
        <div class="help" role="dialog" aria-label="Keys" data-testid="help">
          <b>Keys</b> <span class="dim">(not while typing in a box)</span>
          <table>
            <tbody>
              {KEYS.map(([k, what]) => (
                <tr>
                  <td>
                    <kbd>{k}</kbd>
                  </td>
                  <td>{what}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <button onClick={() => setOpen(false)}>Close</button>
        </div>
      )}
    </span>
  );
}

function typing(t: EventTarget | null): boolean {
  return t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement;
}

document.addEventListener("keydown", (e) => {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
  const k = e.key;
  // (the active pane's tab: tab=, or tab2= of the second pane)
  const hash = new URLSearchParams(location.hash.slice(1));
  const pane = activePane();
  const key = pane === 1 ? "tab" : "tab2";
  const tab = hash.get(key) || (pane === 1 ? "calls" : "");
  const setTab = (t: Tab) => navigate(pane === 1 ? { tab: t } : { tab2: t });
  const other = panes > 1 ? hash.get(pane === 1 ? "tab2" : "tab") || (pane === 1 ? "" : "calls") : "";
  if (k === "/") {
    (document.querySelector("input.search") as HTMLInputElement | null)?.focus();
  } else if (k === "?") {
    toggleHelp?.();
  } else if (/^[0-9]$/.test(k) && tabs.length) {
    const i = k === "0" ? 9 : Number(k) - 1;
    if (i >= tabs.length) return;
    setTab(tabs[i]);
  } else if ((k === "[" || k === "]") && tabs.length) {
    const i = Math.max(0, tabs.indexOf(tab as Tab));
    setTab(tabs[(i + (k === "]" ? 1 : tabs.length - 1)) % tabs.length]);
  } else if (k === "c" || k === "e") {
    const which = k === "c" ? "callers" : "callees";
    // (into the callers / callees of a pane that shows them, else the active pane turns to them)
    if (tab !== "calls" && other !== "calls") {
      pendingFocus = which;
      setTab("calls");
    } else if (!focusList(which)) return;
  } else if (k === "l") {
    if (!focusList("functions")) return;
  } else if (k === "r") {
    (document.querySelector('[data-testid="relative"]') as HTMLInputElement | null)?.click();
  } else return;
  e.preventDefault();
});
