// Panner.tsx — the call graph's bird's-eye view, as KCachegrind's panner: the whole layout in
// small in a corner of the pane, the part in view outlined; a click or a drag on it brings
// that place to the middle of the pane. Shown only while part of the graph is out of view.
import { useEffect, useLayoutEffect, useMemo, useState } from "preact/hooks";

const BOX = 180; // the panner's longer side at most, in px

/** The pane's visible area in the layout's own units (CSS px at 100 %). */
export function viewOf(pane: HTMLElement, svg: SVGSVGElement, scale: number) {
  const s = svg.getBoundingClientRect(), p = pane.getBoundingClientRect();
  return {
    x: (p.left + pane.clientLeft - s.left) / scale,
    y: (p.top + pane.clientTop - s.top) / scale,
    w: pane.clientWidth / scale,
    h: pane.clientHeight / scale,
  };
}

/** Scrolls the pane so that the layout's point (u, v) is in its middle. */
export function centreAt(pane: HTMLElement, svg: SVGSVGElement, scale: number, u: number, v: number) {
  const s = svg.getBoundingClientRect(), p = pane.getBoundingClientRect();
  pane.scrollLeft += s.left + u * scale - (p.left + pane.clientLeft + pane.clientWidth / 2);
  pane.scrollTop += s.top + v * scale - (p.top + pane.clientTop + pane.clientHeight / 2);
}

export default function Panner({ pane, markup, size, scale }: { pane: HTMLDivElement | null; markup: string; size: { w: number; h: number }; scale: number }) {
  const [, redraw] = useState(0);
  useEffect(() => {
    if (!pane) return;
    const on = () => redraw((t) => t + 1);
    pane.addEventListener("scroll", on);
    const ro = new ResizeObserver(on);
    ro.observe(pane);
    return () => {
      pane.removeEventListener("scroll", on);
      ro.disconnect();
    };
  }, [pane]);
  // Measured again once the DOM has the new graph: while the pane renders, it still holds the
  // previous graph's svg (the markup is set as the render is committed).
  useLayoutEffect(() => redraw((t) => t + 1), [markup, size.w, size.h, scale]);
  // (a copy without its ids: the page's own boxes keep theirs alone)
  const thumb = useMemo(() => markup.replace(/\sid="[^"]*"/g, ""), [markup]);
  const svg = pane?.querySelector("svg") as SVGSVGElement | null;
  if (!pane || !svg || !size.w || !size.h) return null;
  const v = viewOf(pane, svg, scale);
  // All of it in view: no panner.
  if (v.x <= 1 && v.y <= 1 && v.x + v.w >= size.w - 1 && v.y + v.h >= size.h - 1) return null;
  const k = Math.min(BOX / size.w, BOX / size.h);
  const w = size.w * k, h = size.h * k;
  const clip = (a: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, a));
  const x0 = clip(v.x * k, 0, w), y0 = clip(v.y * k, 0, h);
  const x1 = clip((v.x + v.w) * k, 0, w), y1 = clip((v.y + v.h) * k, 0, h);
  const go = (e: PointerEvent) => {
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    centreAt(pane, svg, scale, (e.clientX - r.left) / k, (e.clientY - r.top) / k);
  };
  return (
    <div
      class="panner"
      data-testid="graph-panner"
      title="the whole graph: drag the rectangle to move the view"
      style={{ width: w + "px", height: h + "px" }}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
        go(e);
      }}
      onPointerMove={(e) => {
        if ((e.currentTarget as HTMLElement).hasPointerCapture(e.pointerId)) go(e);
      }}
    >
      <div class="thumb" dangerouslySetInnerHTML={{ __html: thumb }} />
      <div class="viewport" data-testid="graph-viewport" style={{ left: x0 + "px", top: y0 + "px", width: x1 - x0 + "px", height: y1 - y0 + "px" }} />
    </div>
  );
}
