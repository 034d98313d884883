// useSize.ts — the size of an element, measured as it changes (a ResizeObserver): the window,
// the list's splitter and the panes' divider all resize a view without resizing the window.
import { useLayoutEffect, useRef, useState } from "preact/hooks";

/** A ref for the element and its client size (`def` until it is measured; a height below
 * `minHeight` counts as `minHeight`). Re-measured whenever `deps` change (the element may
 * appear only once data came). */
export function useSize<T extends HTMLElement>(def: { w: number; h: number }, minHeight = 0, deps: unknown[] = []) {
  const ref = useRef<T>(null);
  const [size, setSize] = useState(def);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = el.clientWidth, h = Math.max(minHeight, el.clientHeight);
      setSize((s) => (s.w === w && s.h === h ? s : { w, h }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, deps);
  return { ref, size };
}
