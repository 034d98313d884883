// server/stack_filter_regex.cc — the stack filters' regular expressions (see the header).
#include "stack_filter_regex.h"

#include <re2/re2.h>

#include <memory>
#include <optional>

namespace calltree::server {

namespace {
constexpr std::size_t max_regex = 1000;  // (as the function list's filter)

// `re_text` compiled into `into`, or an error naming the option `name`.
std::optional<error> compile(const std::string& re_text, const std::string& name,
                             views::name_match& into) {
  if (re_text.size() > max_regex)
    return error{name + ": the regular expression is longer than " + std::to_string(max_regex) +
                 " bytes"};
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(8 << 20);
  auto re = std::make_shared<const RE2>(re2::StringPiece(re_text.data(), re_text.size()), o);
  if (!re->ok()) return error{name + ": bad regular expression: " + re->error()};
  into = [re](std::string_view s) {
    return RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re);
  };
  return std::nullopt;
}

void describe(views::stack_filter& f, std::string_view word, const std::string& value) {
  f.key += std::string(word) + ":" + std::to_string(value.size()) + ":" + value + ";";
  if (!f.text.empty()) f.text += ' ';
  f.text += std::string(word) + "=" + value;
}
}  // namespace

result<views::stack_filter> compile_stack_filter(
    const stack_filter_text& text, const std::array<std::string_view, 4>& names,
    const std::array<std::string_view, 3>& transform_names) {
  views::stack_filter f;
  const std::optional<std::string>* given[] = {&text.focus, &text.ignore, &text.hide, &text.show};
  views::name_match* into[] = {&f.focus, &f.ignore, &f.hide, &f.show};
  static constexpr std::string_view words[] = {"focus", "ignore", "hide", "show"};
  for (std::size_t i = 0; i < 4; ++i) {
    if (!*given[i] || (*given[i])->empty()) continue;
    const std::string& re_text = **given[i];
    if (auto e = compile(re_text, std::string(names[i]), *into[i])) return *e;
    describe(f, words[i], re_text);
  }
  // The transforms (not in a key or text without them: those stay as they were).
  if (text.merge_clones) {
    f.merge_clones = true;
    f.key += "merge_clones;";
    f.text += f.text.empty() ? "merge_clones" : " merge_clones";
  }
  const std::optional<std::string>* regexes[] = {
      &text.collapse_recursion, &text.collapse_direct_recursion, &text.collapse_object};
  views::name_match* made[] = {&f.collapse_recursion, &f.collapse_direct_recursion,
                               &f.collapse_object};
  static constexpr std::string_view transforms[] = {"collapse_recursion",
                                                    "collapse_direct_recursion", "collapse_object"};
  for (std::size_t i = 0; i < 3; ++i) {
    if (!*regexes[i]) continue;
    const std::string& re_text = **regexes[i];
    if (re_text.empty() && i == 2)
      return error{std::string(transform_names[i]) + " needs a regular expression"};
    if (auto e = compile(re_text, std::string(transform_names[i]), *made[i])) return *e;
    describe(f, transforms[i], re_text);
  }
  if (text.focus_path && !text.focus_path->empty()) {
    const std::string& path = *text.focus_path;
    for (std::size_t at = 0;;) {
      const std::size_t end = path.find(';', at);
      f.focus_path.push_back(path.substr(at, end == std::string::npos ? end : end - at));
      if (end == std::string::npos) break;
      at = end + 1;
    }
    describe(f, "focus_path", path);
  }
  // The steps, in their order ("step:" in the key: not the fields' fixed order).
  using kind = path_transform::kind;
  static constexpr std::pair<std::string_view, kind> kinds[] = {
      {"merge_clones", kind::merge_clones},
      {"collapse_object", kind::collapse_object},
      {"collapse_recursion", kind::collapse_recursion},
      {"collapse_direct_recursion", kind::collapse_direct_recursion},
      {"focus_path", kind::focus_path}};
  for (const auto& given_step : text.steps) {
    const std::string& word = given_step.first;
    const std::string& arg = given_step.second;
    const std::pair<std::string_view, kind>* k = nullptr;
    for (const auto& known : kinds)
      if (known.first == word) k = &known;
    if (!k)
      return error{"transform: unknown transform '" + word +
                   "' (merge_clones, collapse_object, collapse_recursion, "
                   "collapse_direct_recursion, focus_path)"};
    path_transform step;
    step.what = k->second;
    switch (step.what) {
      case kind::merge_clones:
        if (!arg.empty()) return error{"transform: merge_clones takes no argument"};
        break;
      case kind::collapse_object:
      case kind::collapse_recursion:
      case kind::collapse_direct_recursion: {
        const std::string name(transform_names[step.what == kind::collapse_recursion ? 0
                                                  : step.what == kind::collapse_object ? 2
                                                                                       : 1]);
        if (arg.empty() && step.what == kind::collapse_object)
          return error{std::string(name) + " needs a regular expression"};
        if (auto e = compile(arg, name, step.match)) return *e;
        break;
      }
      case kind::focus_path:
        if (arg.empty()) return error{"transform: focus_path needs a path (main;f;g)"};
        for (std::size_t at = 0;;) {
          const std::size_t end = arg.find(';', at);
          step.path.push_back(arg.substr(at, end == std::string::npos ? end : end - at));
          if (end == std::string::npos) break;
          at = end + 1;
        }
        break;
    }
    const std::string said = step.what == kind::merge_clones ? word : word + "=" + arg;
    f.steps.push_back(std::move(step));
    f.key += "step:" + std::to_string(said.size()) + ":" + said + ";";
    if (!f.text.empty()) f.text += ' ';
    f.text += said;
  }
  return f;
}

}  // namespace calltree::server
