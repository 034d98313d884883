// graphDot.ts — the DOT text that Graphviz lays out for a call graph answer (CallGraph.tsx):
// boxes coloured by inclusive share, the selected function outlined, cycles in clusters, calls
// labelled with their count and share; top-down or left-right.
import type { Graph } from "./api";
import { fmt, num, pct } from "./format";

/** The font size of the boxes' labels, in points (CallGraph.tsx opens at a scale keeping it legible). */
export const LABEL_PT = 10;

function esc(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function short(name: string): string {
  return name.length > 60 ? name.slice(0, 28) + "…" + name.slice(-28) : name;
}

/** The DOT text of the graph: boxes by inclusive share, cycles in clusters, `rankdir` TB or LR. */
export function toDot(g: Graph, event: string, rankdir: "TB" | "LR" = "TB"): string {
  const total = num(g.totals[event]) || 1;
  const lines = [
    "digraph calltree {",
    `  graph [rankdir=${rankdir}, bgcolor="transparent", nodesep=0.25, ranksep=0.45, fontname="DejaVu Sans", fontsize=10];`,
    `  node [shape=box, style="rounded,filled", fontname="DejaVu Sans", fontsize=${LABEL_PT}, color="#555555", margin="0.08,0.04"];`,
    '  edge [fontname="DejaVu Sans", fontsize=9, color="#777777", fontcolor="#777777", arrowsize=0.6];',
  ];
  const cycles = new Map<number, number[]>();
  for (const n of g.nodes) {
    const share = num(n.inclusive[event]) / total;
    const light = 94 - Math.round(Math.min(1, Math.sqrt(share)) * 44);
    const fill = n.kind === "cycle" ? "#e8c8f0" : hslToHex(20, 85, light);
    const label = `${esc(short(n.name))}\\n${esc(pct(n.inclusive[event], g.totals[event]))} incl. · ${esc(pct(n.self[event], g.totals[event]))} self`;
    const extra = n.id === g.center || n.depth === 0 ? ", penwidth=2.5, color=\"#7a2bbf\"" : "";
    const node = `  n${n.id} [id="n${n.id}", label="${label}", fillcolor="${fill}", tooltip="${esc(n.name)}"${extra}];`;
    if (n.cycle) {
      if (!cycles.has(n.cycle)) cycles.set(n.cycle, []);
      cycles.get(n.cycle)!.push(lines.length);
    }
    lines.push(node);
  }
  // Cycle members inside a cluster of their own.
  for (const [c, idx] of cycles) {
    const members = idx.map((i) => lines[i]);
    for (const i of idx) lines[i] = "";
    lines.push(`  subgraph cluster_cycle${c} { label="<cycle ${c}>"; style="dashed,rounded"; color="#a040c0"; fontcolor="#a040c0";`);
    lines.push(...members.map((m) => "  " + m));
    lines.push("  }");
  }
  for (const e of g.edges) {
    const share = num(e.cost[event]) / total;
    const w = 1 + Math.min(4, share * 8);
    // (a recursive call's inclusive cost counts its recursion again: more than the total is shown as a count only)
    const label = share <= 1 ? `${esc(fmt(e.count))}×\\n${esc(pct(e.cost[event], g.totals[event]))}` : `${esc(fmt(e.count))}×`;
    lines.push(`  n${e.from} -> n${e.to} [label="${label}", penwidth=${w.toFixed(2)}];`);
  }
  lines.push("}");
  return lines.filter((l) => l !== "").join("\n");
}

function hslToHex(h: number, s: number, l: number): string {
  s /= 100;
  l /= 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1))))).toString(16).padStart(2, "0");
  return `#${f(0)}${f(8)}${f(4)}`;
}

