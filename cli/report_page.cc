// report_page.cc — serve's index.html made self-contained for `calltree report --html`.
//
// A report opens from disk: a file:// page cannot fetch ./assets/x.js, so nothing may be
// loaded by URL. The stylesheet goes inline. The JavaScript cannot simply go inline: the page
// loads some of its code later (the call graph view and Graphviz's WebAssembly are a chunk of
// their own, ~800 KB, loaded when the view is first opened) and that chunk imports from the
// page's main module, which an inline module cannot be imported as. So every module of the
// build becomes a data: URL named in an import map under a bare name ("calltree-asset/x.js"),
// and each module's relative specifiers ("./x.js") are rewritten to those names: the main
// module and its chunks then import each other as they do when served, from the file itself.
// (Chromium caps a URL at 2 MB; the largest chunk is well under it, and a larger one is an
// error here rather than a page that fails to load.)

#include "report_page.h"

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "assets.h"
#include "output_file.h"

namespace calltree::cli {
namespace {

constexpr std::string_view module_prefix = "calltree-asset/";
constexpr std::size_t max_data_url = 2u << 20;

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

// A data: URL of JavaScript: the bytes a URL parser would change or cut percent-encoded
// (`%`, `#`, controls, non-ASCII, and `<` so that no `</script` appears in the page).
std::string data_url(std::string_view code) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out = "data:text/javascript;charset=utf-8,";
  out.reserve(out.size() + code.size() + code.size() / 16);
  for (const char ch : code) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '%' || c == '#' || c == '<' || c < 0x20 || c >= 0x7f) {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

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
  nlohmann::json imports = nlohmann::json::object();
  for (const server::asset& a : server::embedded_assets()) {
    if (!is_module(a)) continue;
    std::string url = data_url(rewrite_specifiers(std::string(a.data)));
    if (url.size() > max_data_url) {
      err = "the front end's module " + std::string(a.path) + " is too large for a data: URL";
      return std::nullopt;
    }
    imports[std::string(module_prefix) + std::string(a.path.substr(8))] = std::move(url);
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
      out += "<script type=\"importmap\">" +
             script_safe(nlohmann::json{{"imports", imports}}.dump()) + "</script>\n";
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
