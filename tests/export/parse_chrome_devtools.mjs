// Reads trace-event files with Chrome DevTools' own trace engine (the Performance panel's
// parser, npm @paulirish/trace_engine) and prints, per file, one JSON line with what it built
// for every thread: entries, the roots of its call tree, their summed durations, the depth.
// node parse_chrome_devtools.mjs NODE_MODULES FILE...  (check_chrome.py compares the numbers)
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const modules = path.resolve(process.argv[2]);
const Trace = await import(
    pathToFileURL(path.join(modules, '@paulirish', 'trace_engine', 'models', 'trace', 'trace.js')));
// The engine expects a browser's DOMRect (its README: polyfill it in Node).
globalThis.DOMRect ??= class { constructor(x = 0, y = 0, w = 0, h = 0) {
  Object.assign(this, {x, y, width: w, height: h}); } };

for (const file of process.argv.slice(3)) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const model = Trace.TraceModel.Model.createWithAllHandlers();
  await model.parse(json.traceEvents);
  const threads = [];
  for (const [pid, proc] of model.parsedTrace().data.Renderer.processes) {
    for (const [tid, thread] of proc.threads) {
      let rootSum = 0, maxDepth = 0;
      const walk = (node, depth) => {
        maxDepth = Math.max(maxDepth, depth);
        for (const child of node.children) walk(child, depth + 1);
      };
      for (const root of thread.tree.roots) {
        rootSum += root.entry.dur;
        walk(root, 0);
      }
      threads.push({pid, tid, name: thread.name, entries: thread.entries.length,
                    roots: thread.tree.roots.size, rootSum, maxDepth});
    }
  }
  console.log(JSON.stringify({file, threads}));
}
