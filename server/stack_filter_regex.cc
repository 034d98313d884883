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
  return f;
}

}  // namespace calltree::server
