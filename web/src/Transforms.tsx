// Transforms.tsx — Firefox Profiler's call-tree transforms on the stack views (flame graph,
// icicle, sandwich): merge compiler clones, collapse recursion (any or direct), collapse a
// library (an object, callgrind's ob=), focus on a call path. Each is a chip of the row above
// the view, × to undo it; a frame's context menu (right click) adds one. They live in the URL
// (url.ts) and go to the API as its parameters (docs/serve.md); the server applies them in a
// fixed order (merge clones, collapse object, collapse recursion, focus path), then the filters.
import { useEffect, useState } from "preact/hooks";
import { navigate, type ViewState } from "./url";

type Step = { key: keyof ViewState; label: string; clear: Partial<ViewState> };

/** The transforms of the page as the API's parameters. */
export function transformParams(s: ViewState): Record<string, string> {
  const p: Record<string, string> = {};
  if (s.merge_clones) p.merge_clones = "1";
  if (s.collapse_object) p.collapse_object = s.collapse_object;
  if (s.collapse_recursion) p.collapse_recursion = s.collapse_recursion;
  if (s.collapse_direct_recursion) p.collapse_direct_recursion = s.collapse_direct_recursion;
  if (s.focus_path) p.focus_path = s.focus_path;
  return p;
}

export const isTransformed = (s: ViewState) => Object.keys(transformParams(s)).length > 0;

/** "^name$" with RE2's special characters escaped: one function or object by its name. */
export const exactly = (name: string) => "^" + name.replace(/[\\.+*?()|[\]{}^$]/g, "\\$&") + "$";

/** A readable name from an anchored expression of `exactly` (else the expression). */
const unescape = (re: string) => (/^\^.*\$$/.test(re) ? re.slice(1, -1).replace(/\\(.)/g, "$1") : re);

function steps(s: ViewState): Step[] {
  const out: Step[] = [];
  if (s.merge_clones) out.push({ key: "merge_clones", label: "Merge clones", clear: { merge_clones: false } });
  if (s.collapse_object) out.push({ key: "collapse_object", label: `Collapse library ${unescape(s.collapse_object)}`, clear: { collapse_object: "" } });
  if (s.collapse_recursion) out.push({ key: "collapse_recursion", label: s.collapse_recursion === "." ? "Collapse all recursion" : `Collapse recursion of ${unescape(s.collapse_recursion)}`, clear: { collapse_recursion: "" } });
  if (s.collapse_direct_recursion) out.push({ key: "collapse_direct_recursion", label: `Collapse direct recursion of ${unescape(s.collapse_direct_recursion)}`, clear: { collapse_direct_recursion: "" } });
  if (s.focus_path) out.push({ key: "focus_path", label: `Focus on ${s.focus_path.split(";").slice(-1)[0]} (${s.focus_path.split(";").length} deep)`, clear: { focus_path: "" } });
  return out;
}

/** The row of transforms: a chip per step (× undoes it), and a menu of those without a frame. */
export function TransformBar({ state }: { state: ViewState }) {
  const list = steps(state);
  return (
    <div class="transforms" data-testid="transforms">
      <span class="dim">Transforms:</span>
      {list.length === 0 && <span class="dim">none (right-click a frame to add one)</span>}
      {list.map((t) => (
        <span class="chip" data-testid={"chip-" + t.key} title={t.label}>
          {t.label}
          <button aria-label={"Remove " + t.label} data-testid={"unchip-" + t.key} onClick={() => navigate(t.clear)}>
            ×
          </button>
        </span>
      ))}
      <select
        aria-label="Add a transform"
        data-testid="transform-add"
        value=""
        onChange={(e) => {
          const v = (e.target as HTMLSelectElement).value;
          if (v === "merge") navigate({ merge_clones: true });
          if (v === "recursion") navigate({ collapse_recursion: "." });
          if (v === "direct") navigate({ collapse_direct_recursion: "." });
        }}
      >
        <option value="">+ transform…</option>
        <option value="merge" disabled={state.merge_clones}>Merge compiler clones (f.constprop.0, f.isra.0, f.cold… are f)</option>
        <option value="recursion">Collapse all recursion</option>
        <option value="direct">Collapse all direct recursion</option>
      </select>
      {list.length > 1 && (
        <button data-testid="transforms-clear" onClick={() => navigate(Object.assign({}, ...list.map((t) => t.clear)))}>
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

/** A frame's context menu: the transforms that apply to it. */
export function FrameMenu({ target, state, close }: { target: FrameTarget; state: ViewState; close: () => void }) {
  useEffect(() => {
    const away = () => close();
    window.addEventListener("click", away);
    window.addEventListener("keydown", away);
    return () => {
      window.removeEventListener("click", away);
      window.removeEventListener("keydown", away);
    };
  }, [close]);
  const pick = (patch: Partial<ViewState>) => {
    navigate(patch);
    close();
  };
  // A path below a focused one is the path from the focused frame (the API's focus_path is
  // from the program's roots): the two join.
  const base = state.focus_path ? state.focus_path.split(";").slice(0, -1) : [];
  return (
    <div class="framemenu" role="menu" data-testid="frame-menu" style={{ left: target.x + "px", top: target.y + "px" }}>
      <button role="menuitem" data-testid="menu-focus-path" onClick={() => pick({ focus_path: [...base, ...target.path].join(";") })}>
        Focus on this call path
      </button>
      <button role="menuitem" data-testid="menu-collapse-recursion" onClick={() => pick({ collapse_recursion: exactly(target.name) })}>
        Collapse recursion of {target.name}
      </button>
      <button role="menuitem" data-testid="menu-collapse-direct" onClick={() => pick({ collapse_direct_recursion: exactly(target.name) })}>
        Collapse direct recursion of {target.name}
      </button>
      {target.object && (
        <button role="menuitem" data-testid="menu-collapse-object" onClick={() => pick({ collapse_object: exactly(target.object) })}>
          Collapse library {target.object.split("/").slice(-1)[0]}
        </button>
      )}
      <button role="menuitem" data-testid="menu-merge-clones" disabled={state.merge_clones} onClick={() => pick({ merge_clones: true })}>
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
