// export/flamegraph_script.h — (internal) the script of the flame graph SVG (flamegraph.cc):
// click a frame to zoom to it (its ancestors span the width, frames outside it hide), "Reset
// Zoom" or Escape to return, "Search" or Ctrl-F for a regular expression whose frames turn
// magenta, with the share of the total they cover (nested matches counted once); a search
// can be given in the address (`flame.svg#search=REGEX`). Frames keep
// their laid-out geometry in data-x/data-w (pixels at full view) and their depth in data-d.
#pragma once

namespace calltree::exporting {

inline constexpr const char* flamegraph_script = R"JS(
"use strict";
var svg = document.documentElement, frames = [], W = 0, PAD = 10, zoomed = null, matchRe = null;
function init() {
  W = +svg.getAttribute("data-plot-width");
  var gs = document.getElementById("frames").getElementsByTagName("g");
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i];
    frames.push({g: g, x: +g.getAttribute("data-x"), w: +g.getAttribute("data-w"),
                 d: +g.getAttribute("data-d"), name: g.getAttribute("data-name"),
                 label: g.getAttribute("data-label") || g.getAttribute("data-name"),
                 rect: g.getElementsByTagName("rect")[0], text: g.getElementsByTagName("text")[0],
                 fill: g.getElementsByTagName("rect")[0].getAttribute("fill")});
    g.addEventListener("click", zoomTo.bind(null, frames[frames.length - 1]));
  }
  document.getElementById("reset").addEventListener("click", reset);
  document.getElementById("search").addEventListener("click", askSearch);
  window.addEventListener("keydown", function (e) {
    if ((e.ctrlKey || e.metaKey) && e.key === "f") { e.preventDefault(); askSearch(); }
    else if (e.key === "Escape") { reset(); search(null); }
  });
  layout(0, W, -1);
  // A search in the address: file.svg#search=REGEX (URI-encoded).
  var m = /[#&]search=([^&]*)/.exec(window.location.hash);
  if (m) search(decodeURIComponent(m[1]));
}
function label(f, w) {
  var chars = Math.floor(w / 7);
  if (chars < 3) return "";
  return f.label.length <= chars ? f.label : f.label.substring(0, chars - 2) + "..";
}
function place(f, x, w) {
  f.rect.setAttribute("x", PAD + x);
  f.rect.setAttribute("width", Math.max(w, 0));
  f.text.setAttribute("x", PAD + x + 3);
  f.text.textContent = label(f, w);
  f.g.style.display = "";
}
function layout(zx, zw, zd) {
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    if (f.d < zd) {  // an ancestor of the zoomed frame spans the width; others hide
      if (f.x <= zx + 1e-6 && f.x + f.w >= zx + zw - 1e-6) place(f, 0, W);
      else f.g.style.display = "none";
    } else if (f.x >= zx - 1e-6 && f.x + f.w <= zx + zw + 1e-6) {
      place(f, (f.x - zx) * W / zw, f.w * W / zw);
    } else {
      f.g.style.display = "none";
    }
  }
}
function zoomTo(f) {
  zoomed = f;
  layout(f.x, f.w, f.d);
  document.getElementById("reset").style.opacity = 1;
}
function reset() {
  zoomed = null;
  layout(0, W, -1);
  document.getElementById("reset").style.opacity = 0;
}
function askSearch() {
  var term = window.prompt("Search for (regular expression):", matchRe ? matchRe.source : "");
  if (term !== null) search(term);
}
function search(term) {
  matchRe = term ? new RegExp(term) : null;
  var spans = [];
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i], hit = matchRe !== null && matchRe.test(f.name);
    f.rect.setAttribute("fill", hit ? "rgb(230,0,230)" : f.fill);
    f.g.setAttribute("data-match", hit ? "1" : "0");
    if (hit) spans.push([f.x, f.x + f.w]);
  }
  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
  var covered = 0, end = -1;
  for (var j = 0; j < spans.length; j++) {
    var s = Math.max(spans[j][0], end);
    if (spans[j][1] > s) { covered += spans[j][1] - s; end = spans[j][1]; }
  }
  var m = document.getElementById("matched");
  m.textContent = matchRe ? "Matched: " + (100 * covered / W).toFixed(1) + "%" : "";
  document.getElementById("search").textContent = matchRe ? "Search: " + term : "Search";
}
init();
)JS";

}  // namespace calltree::exporting
