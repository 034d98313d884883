// Transforms.tsx — Firefox Profiler's call-tree transforms on the stack views (flame graph,
// icicle, sandwich): merge compiler clones, collapse recursion (any or direct), collapse a
// library (an object, callgrind's ob=), focus on a call path. As Firefox Profiler's transform
// stack, they apply in the order they were added: each is a chip of the row above the view, in
// that order, × to undo it (Back undoes the last one added); a frame's context menu (right
// click) adds one at the end. They live in the URL (url.ts) and go to the API as its repeated
// transform= (docs/serve.md), which applies them in their order, then the filters.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { navigate, type ViewState } from "./url";

type Step = { key: string; label: string };

/** The transforms of the page as the API's parameters: transform=NAME[:ARGUMENT], in order. */
export function transformParams(s: ViewState): { transform?: string[] } {
  return s.transforms.length ? { transform: s.transforms } : {};
}

export const isTransformed = (s: ViewState) => s.transforms.length > 0;

/** A step's name and argument ("collapse_recursion:^f$" is ["collapse_recursion", "^f$"]). */
export function splitStep(step: string): [string, string] {
  const colon = step.indexOf(":");
  return colon < 0 ? [step, ""] : [step.slice(0, colon), step.slice(colon + 1)];
}

/** The page's transforms with `step` added at the end. */
const adding = (s: ViewState, step: string): Partial<ViewState> => ({ transforms: [...s.transforms, step] });

/** "^name$" with RE2's special characters escaped: one function or object by its name. */
export const exactly = (name: string) => "^" + name.replace(/[\\.+*?()|[\]{}^$]/g, "\\$&") + "$";

/** A readable name from an anchored expression of `exactly` (else the expression). */
const unescape = (re: string) => (/^\^.*\$$/.test(re) ? re.slice(1, -1).replace(/\\(.)/g, "$1") : re);

function stepOf(step: string): Step {
  const [key, arg] = splitStep(step);
  const label =
    key === "merge_clones" ? "Merge clones"
    : key === "collapse_object" ? `Collapse library ${unescape(arg)}`
    : key === "collapse_recursion" ? (arg === "." || arg === "" ? "Collapse all recursion" : `Collapse recursion of ${unescape(arg)}`)
    : key === "collapse_direct_recursion" ? (arg === "." || arg === "" ? "Collapse all direct recursion" : `Collapse direct recursion of ${unescape(arg)}`)
    : key === "focus_path" ? `Focus on ${arg.split(";").slice(-1)[0]} (${arg.split(";").length} deep)`
    : step;
  return { key, label };
}

/** The row of transforms: a chip per step in the order they apply (× undoes it), and a menu
 * of those without a frame. */
export function TransformBar({ state }: { state: ViewState }) {
  const list = state.transforms.map(stepOf);
  const merged = state.transforms.includes("merge_clones");
  return (
    <div class="transforms" data-testid="transforms">
      <span class="dim">Transforms:</span>
      {list.length === 0 && <span class="dim">none (right-click a frame to add one)</span>}
      {list.map((t, i) => (
        <>
          {i > 0 && <span class="dim" aria-hidden="true">›</span>}
          <span class="chip" data-testid={"chip-" + t.key} data-step={i + 1} title={`Step ${i + 1}: ${t.label}`}>
            {t.label}
            <button aria-label={"Remove " + t.label} data-testid={"unchip-" + t.key} onClick={() => navigate({ transforms: state.transforms.filter((_, j) => j !== i) })}>
              ×
            </button>
          </span>
        </>
      ))}
      <select
        aria-label="Add a transform"
        data-testid="transform-add"
        value=""
        onChange={(e) => {
          const v = (e.target as HTMLSelectElement).value;
          if (v === "merge") navigate(adding(state, "merge_clones"));
          if (v === "recursion") navigate(adding(state, "collapse_recursion:."));
          if (v === "direct") navigate(adding(state, "collapse_direct_recursion:."));
        }}
      >
        <option value="">+ transform…</option>
        <option value="merge" disabled={merged}>Merge compiler clones (f.constprop.0, f.isra.0, f.cold… are f)</option>
        <option value="recursion">Collapse all recursion</option>
        <option value="direct">Collapse all direct recursion</option>
      </select>
      {list.length > 1 && (
        <button data-testid="transforms-clear" onClick={() => navigate({ transforms: [] })}>
          Undo all
        </button>
      )}
    </div>
  );
}

export interface FrameTarget {
  x: number;
  y: number;
  name: string; // the frame's function (or a collapsed object's name)
  object: string;
  path: string[]; // the names from the root to the frame
}

/** Where a menu of size w × h opened at the pointer (x, y) goes to be whole in a window of
 * width W and height H (client px, a margin of `m`): at the pointer when it fits below and to
 * the right of it, else above it (a root frame of a flame graph is at the window's bottom) and
 * to the left of it, else pushed in from the edge; taller than the window, at its top (the
 * menu then scrolls). */
export function onScreen(x: number, y: number, w: number, h: number, W: number, H: number, m = 4): { left: number; top: number } {
  const left = x + w + m <= W ? x : x - w >= m ? x - w : Math.max(m, W - w - m);
  const top = y + h + m <= H ? y : y - h >= m ? y - h : Math.max(m, H - h - m);
  return { left, top };
}

/** A frame's context menu: the transforms that apply to it, every item on screen. */
export function FrameMenu({ target, state, close }: { target: FrameTarget; state: ViewState; close: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  // (measured once drawn, before the browser paints it: then moved where all of it shows)
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // (at the left edge first: a fixed box is as wide as its text only where it has the room)
    el.style.left = "0px";
    el.style.top = "0px";
    el.style.maxHeight = window.innerHeight - 8 + "px";
    const { left, top } = onScreen(target.x, target.y, el.offsetWidth, el.offsetHeight, window.innerWidth, window.innerHeight);
    el.style.left = left + "px";
    el.style.top = top + "px";
  }, [target]);
  useEffect(() => {
    const away = () => close();
    window.addEventListener("click", away);
    window.addEventListener("keydown", away);
    return () => {
      window.removeEventListener("click", away);
      window.removeEventListener("keydown", away);
    };
  }, [close]);
  const pick = (step: string) => {
    navigate(adding(state, step));
    close();
  };
  // A path of the view is from its roots as the steps so far made them (after a focus, from
  // the focused frame): a focus step added at the end reads that tree.
  return (
    <div class="framemenu" role="menu" data-testid="frame-menu" ref={box} style={{ left: target.x + "px", top: target.y + "px" }}>
      <button role="menuitem" data-testid="menu-focus-path" onClick={() => pick("focus_path:" + target.path.join(";"))}>
        Focus on this call path
      </button>
      <button role="menuitem" data-testid="menu-collapse-recursion" onClick={() => pick("collapse_recursion:" + exactly(target.name))}>
        Collapse recursion of {target.name}
      </button>
      <button role="menuitem" data-testid="menu-collapse-direct" onClick={() => pick("collapse_direct_recursion:" + exactly(target.name))}>
        Collapse direct recursion of {target.name}
      </button>
      {target.object && (
        <button role="menuitem" data-testid="menu-collapse-object" onClick={() => pick("collapse_object:" + exactly(target.object))}>
          Collapse library {target.object.split("/").slice(-1)[0]}
        </button>
      )}
      <button role="menuitem" data-testid="menu-merge-clones" disabled={state.transforms.includes("merge_clones")} onClick={() => pick("merge_clones")}>
        Merge compiler clones
      </button>
    </div>
  );
}

/** The open context menu of a view, if any. */
export function useFrameMenu() {
  const [target, setTarget] = useState<FrameTarget | null>(null);
  return { target, open: setTarget, close: () => setTarget(null) };
}
