// report_page.cc — serve's index.html made self-contained for `calltree report --html`.
//
// A report opens from disk: a file:// page cannot fetch ./assets/x.js, so nothing may be
// loaded by URL. The stylesheet goes inline. The JavaScript cannot simply go inline: the page
// loads some of its code later (the call graph view and Graphviz's WebAssembly are a chunk of
// their own, ~800 KB, loaded when the view is first opened) and that chunk imports from the
// page's main module, which an inline module cannot be imported as. So every module of the
// build is held in the page as base64 text (a <script> of a type the browser does not run),
// and a small classic script, before any module loads, makes each a Blob URL and names them
// in an import map under bare names ("calltree-asset/x.js"); each module's relative specifiers
// ("./x.js") are rewritten to those names: the main module and its chunks then import each
// other as they do when served, from the file itself. (data: URLs in the import map did the
// same, but Chromium took 14 s to import the 800 KB chunk from one, and 6 s base64-encoded; from
// a Blob URL, 0.1 s: the call graph opened 14 s late in every report.)

#include "report_page.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "assets.h"
#include "output_file.h"

namespace calltree::cli {
namespace {

constexpr std::string_view module_prefix = "calltree-asset/";

// `</` may not appear inside a <script> element: JSON allows `<\/` for it.
std::string script_safe(const std::string& json) {
  std::string out;
  out.reserve(json.size() + 64);
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') {
      out += "<\\/";
      ++i;
    } else {
      out.push_back(json[i]);
    }
  }
  return out;
}

// `bytes` in base64 (RFC 4648, with padding): no byte of it needs escaping in a <script>.
std::string base64(std::string_view bytes) {
  static constexpr char digits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = std::uint32_t(static_cast<unsigned char>(bytes[i])) << 16 |
                            std::uint32_t(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                            static_cast<unsigned char>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(digits[(v >> shift) & 63]);
  }
  if (const std::size_t rest = bytes.size() - i) {
    std::uint32_t v = std::uint32_t(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) v |= std::uint32_t(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out.push_back(digits[(v >> 18) & 63]);
    out.push_back(digits[(v >> 12) & 63]);
    out.push_back(rest == 2 ? digits[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

// The classic script that turns the page's held modules into Blob URLs and names them in an
// import map, placed right after itself (before the module script that follows it loads).
constexpr std::string_view module_loader =
    "<script>(()=>{const m={};"
    "for(const e of document.querySelectorAll('script[type=\"text/calltree-module\"]')){"
    "const b=atob(e.textContent),u=new Uint8Array(b.length);"
    "for(let i=0;i<b.length;i++)u[i]=b.charCodeAt(i);"
    "m[e.dataset.name]=URL.createObjectURL(new Blob([u],{type:\"text/javascript\"}));}"
    "const s=document.createElement(\"script\");s.type=\"importmap\";"
    "s.textContent=JSON.stringify({imports:m});document.currentScript.after(s);})();</script>\n";

bool is_module(const server::asset& a) {
  return a.path.starts_with("/assets/") && a.path.ends_with(".js");
}

// A module's code with `"./NAME.js"` (a sibling module of the build) named as in the import map.
std::string rewrite_specifiers(std::string code) {
  for (const server::asset& other : server::embedded_assets()) {
    if (!is_module(other)) continue;
    const std::string_view name = other.path.substr(std::string_view("/assets/").size());
    const std::string from = "\"./" + std::string(name) + "\"";
    const std::string to = "\"" + std::string(module_prefix) + std::string(name) + "\"";
    for (std::size_t i = 0; (i = code.find(from, i)) != std::string::npos; i += to.size())
      code.replace(i, from.size(), to);
  }
  return code;
}

// The value of attribute `attr` (e.g. `src="`) in the tag starting at `tag`, or "".
std::string attribute(const std::string& html, std::size_t tag, std::string_view attr) {
  const std::size_t end = html.find('>', tag);
  std::size_t a = html.find(attr, tag);
  if (a == std::string::npos || a > end) return {};
  a += attr.size();
  const std::size_t q = html.find('"', a);
  if (q == std::string::npos) return {};
  std::string path = html.substr(a, q - a);
  if (path.starts_with("./")) path.erase(0, 1);
  return path;
}

}  // namespace

std::optional<std::string> report_page(const std::string& data_json, std::string& err) {
  const server::asset* index = server::find_asset("/index.html");
  if (!index) {
    err = "this calltree was built without its web front end (-DCALLTREE_WEB=OFF)";
    return std::nullopt;
  }
  std::string modules;
  for (const server::asset& a : server::embedded_assets()) {
    if (!is_module(a)) continue;
    modules += "<script type=\"text/calltree-module\" data-name=\"" + std::string(module_prefix) +
               std::string(a.path.substr(8)) + "\">" + base64(rewrite_specifiers(std::string(a.data))) +
               "</script>\n";
  }
  const std::string html(index->data);
  std::string out;
  std::size_t pos = 0;
  bool script = false;
  while (true) {
    const std::size_t s = html.find("<script type=\"module\"", pos);
    const std::size_t l = html.find("<link rel=\"stylesheet\"", pos);
    const std::size_t next = std::min(s, l);
    if (next == std::string::npos) break;
    out.append(html, pos, next - pos);
    if (next == s) {
      const std::string src = attribute(html, s, "src=\"");
      const server::asset* js = src.empty() ? nullptr : server::find_asset(src);
      const std::size_t close = html.find("</script>", s);
      if (!js || !is_module(*js) || close == std::string::npos) {
        err = "the front end's index.html names a script this binary does not hold";
        return std::nullopt;
      }
      out += "<script>window.__CALLTREE_REPORT__=" + script_safe(data_json) + ";</script>\n";
      out += modules;
      out += module_loader;
      out += "<script type=\"module\">import \"" + std::string(module_prefix) +
             std::string(js->path.substr(8)) + "\";</script>";
      pos = close + 9;
      script = true;
    } else {
      const server::asset* css = server::find_asset(attribute(html, l, "href=\""));
      if (!css) {
        err = "the front end's index.html names a stylesheet this binary does not hold";
        return std::nullopt;
      }
      out += "<style>" + std::string(css->data) + "</style>";
      pos = html.find('>', l) + 1;
    }
  }
  out.append(html, pos, std::string::npos);
  if (!script) {
    err = "the front end's index.html has no module script";
    return std::nullopt;
  }
  return out;
}

std::optional<std::size_t> write_report(std::string data_json,
                                        const std::map<std::string, std::string>& raw,
                                        const std::string& path, std::string& err) {
  data_json.pop_back();  // '}'
  for (const auto& [key, body] : raw) {
    data_json += ',';
    data_json += nlohmann::json(key).dump();
    data_json += ':';
    data_json += body;
  }
  data_json += '}';
  auto page = report_page(data_json, err);
  if (!page) return std::nullopt;
  output_file out;
  if (!out.open(path, err)) return std::nullopt;
  out.write(*page);
  if (!out.commit(err)) return std::nullopt;
  return page->size();
}

}  // namespace calltree::cli
