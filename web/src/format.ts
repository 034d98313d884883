// format.ts — numbers as the tables show them.
import type { Cost, Costs } from "./api";

export function num(c: Cost | undefined | null): number {
  if (c === undefined || c === null) return 0;
  return typeof c === "number" ? c : Number(c);
}

const group = new Intl.NumberFormat("en-US");

/** A cost with thousands separators (exact for strings beyond 2^53). */
export function fmt(c: Cost | undefined | null): string {
  if (c === undefined || c === null) return "";
  if (typeof c === "string") return c.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return group.format(c);
}

export function signed(c: Cost | undefined | null): string {
  const n = num(c);
  const s = fmt(c);
  return n > 0 ? "+" + s : s;
}

/** A share of the total. In a file of differences the total may be negative: the share is of its
 * size, so a rise shows a positive share and a fall a negative one, whatever the total's sign. */
export function pct(part: Cost | undefined, total: Cost | undefined): string {
  const t = Math.abs(num(total));
  if (!t) return "";
  const p = (100 * num(part)) / t;
  return notWhole(p >= 10 ? p.toFixed(1) : p.toFixed(2), p, part, total) + "%";
}

/** The exact value of a cost (a string beyond 2^53), for comparing two. */
function exact(c: Cost | undefined): bigint | null {
  try {
    return typeof c === "string" ? BigInt(c) : typeof c === "number" && Number.isInteger(c) ? BigInt(c) : null;
  } catch {
    return null;
  }
}

/** A share's text `s` (of `p` %) that reads 100 only when `part` is the whole `total`, as
 *  annotate's: 15,293,081,768 of 15,293,867,860 is 99.99, not 100.0 (more decimals, up to
 *  six, then the nearest text below or above 100 that says so). */
function notWhole(s: string, p: number, part: Cost | undefined, total: Cost | undefined): string {
  if (Number(s) !== 100) return s;
  const a = exact(part), b = exact(total);
  const whole = a !== null && b !== null ? a === b : num(part) === num(total);
  if (whole) return s;
  for (let d = s.length - s.indexOf("."); d <= 6; d++) {
    const t = p.toFixed(d);
    if (Number(t) !== 100) return t;
  }
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const below = p !== 100 || a === null || b === null ? p < 100 : abs(a) < abs(b);
  return below ? "99.999999" : "100.000001";
}

/** A call's cost as a share of the total; none for a sum over recursive calls (it counts the
 * same cost again at each level) or a cost above the total (a file whose costs disagree). */
export function callPct(cost: Cost | undefined, total: Cost | undefined, recursive: boolean): string {
  if (recursive || num(cost) > num(total)) return "";
  return pct(cost, total);
}

/** What a recursive call's cost is, for its title. */
export const recursiveNote = "a sum over recursive calls: each level's cost is counted again in the levels above it";

export function share(c: Costs | undefined, total: Costs, e: string): number {
  const t = num(total[e]);
  return t ? num(c?.[e]) / t : 0;
}

export function percentChange(p: number | null): string {
  if (p === null) return "new";
  return (p > 0 ? "+" : "") + (Math.abs(p) >= 100 ? p.toFixed(0) : p.toFixed(1)) + "%";
}

/** The short name of a file or object: its last path element. */
export function base(path: string): string {
  const i = path.lastIndexOf("/");
  return i >= 0 ? path.slice(i + 1) : path;
}

/** Where a function is, for a Location column: its source file's last path element, or, for a
 * function with no source file (`???`, no debug info), its object's, so python3.11's `???`
 * and libsqlite3's differ. */
export function location(file: string, object: string): string {
  const f = file && file !== "???" ? base(file) : "";
  return f || base(object) || file;
}

/** `s` in at most `n` characters. A name that ends in numbers (a closure's lines, a Python
 * function's `file.py:12(f)`, a recursion level `f'2`) is cut in the middle, keeping up to 20
 * characters of its end, which tell such names apart: "{closure:/home/u/…closures.php:15-15}";
 * another (a C++ name, whose end is its parameters) is cut at its end, as a cell cuts it. */
export function middle(s: string, n: number): string {
  if (s.length <= n || n < 10) return s;
  if (!/\d/.test(s.slice(-12))) return s.slice(0, n - 1) + "…";
  const tail = Math.min(20, Math.floor((n - 1) * 0.4));
  return s.slice(0, n - 1 - tail) + "…" + s.slice(s.length - tail);
}

/** "1 warning", "3 warnings", "852,438 notes". */
export function plural(n: number, word: string): string {
  return `${fmt(n)} ${word}${n === 1 ? "" : "s"}`;
}
