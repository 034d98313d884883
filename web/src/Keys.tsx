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

/** Focuses the first row of the callers ("callers") or callees list, or the function list. */
export function focusList(which: "callers" | "callees" | "functions"): boolean {
  // (a focus asked for now wins over one still waiting for a function's answer: `l` pressed
  // after Enter on a caller, before that caller's answer came, stays in the function list)
  if (which === "functions") pendingFocus = null;
  const el =
    which === "functions"
      ? (document.querySelector("section.list .tbody") as HTMLElement | null)
      : (document.querySelector(`.calltable[aria-label="${which === "callers" ? "Callers" : "Callees"}"] tbody tr`) as HTMLElement | null);
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
  ["1 … 9, 0", "the tab of that number (Callers / callees is 1)"],
  ["[  ]", "the previous / next tab"],
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
  const tab = new URLSearchParams(location.hash.slice(1)).get("tab") ?? "calls";
  if (k === "/") {
    (document.querySelector("input.search") as HTMLInputElement | null)?.focus();
  } else if (k === "?") {
    toggleHelp?.();
  } else if (/^[0-9]$/.test(k) && tabs.length) {
    const i = k === "0" ? 9 : Number(k) - 1;
    if (i >= tabs.length) return;
    navigate({ tab: tabs[i] });
  } else if ((k === "[" || k === "]") && tabs.length) {
    const i = Math.max(0, tabs.indexOf(tab as Tab));
    navigate({ tab: tabs[(i + (k === "]" ? 1 : tabs.length - 1)) % tabs.length] });
  } else if (k === "c" || k === "e") {
    const which = k === "c" ? "callers" : "callees";
    if (tab !== "calls") {
      pendingFocus = which;
      navigate({ tab: "calls" });
    } else if (!focusList(which)) return;
  } else if (k === "l") {
    if (!focusList("functions")) return;
  } else if (k === "r") {
    (document.querySelector('[data-testid="relative"]') as HTMLInputElement | null)?.click();
  } else return;
  e.preventDefault();
});
