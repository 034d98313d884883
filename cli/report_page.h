// report_page.h — the page of `calltree serve` made into one HTML file (calltree report --html).
//
// What it is: the front end embedded in this binary (server/assets.h) rewritten so that it runs
// from a file:// URL with no server: the stylesheet inlined, the report's answers in a script
// before the code, and every JavaScript module of the build (the page's own and the chunks it
// loads later, such as the call graph's Graphviz) given as a data: URL under an import map, so
// that the lazily loaded chunks load from the file itself. What it is not: the answers (see
// cmd_report.cc).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace calltree::cli {

// index.html with the report's data (a JSON object) and the whole front end in it; nullopt and
// `err` when this binary holds no front end or its index.html is not the shape expected.
std::optional<std::string> report_page(const std::string& data_json, std::string& err);

// The report written to `path`: its data is `data_json` (a JSON object) with each of `raw`'s
// answers (JSON text as the API wrote it, never parsed again) spliced in as a member under its
// key; the page goes to a temporary file beside `path`, renamed when complete (never half a
// report). The page's size in bytes; nullopt and `err` when it cannot be made or written.
std::optional<std::size_t> write_report(std::string data_json,
                                        const std::map<std::string, std::string>& raw,
                                        const std::string& path, std::string& err);

}  // namespace calltree::cli
