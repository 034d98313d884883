// server/stack_filter_regex.cc — the stack filters' regular expressions (see the header).
#include "stack_filter_regex.h"

#include <re2/re2.h>

#include <memory>

namespace calltree::server {

namespace {
constexpr std::size_t max_regex = 1000;  // (as the function list's filter)
}

result<views::stack_filter> compile_stack_filter(const stack_filter_text& text,
                                                 const std::array<std::string_view, 4>& names) {
  views::stack_filter f;
  const std::optional<std::string>* given[] = {&text.focus, &text.ignore, &text.hide, &text.show};
  views::name_match* into[] = {&f.focus, &f.ignore, &f.hide, &f.show};
  static constexpr std::string_view words[] = {"focus", "ignore", "hide", "show"};
  for (std::size_t i = 0; i < 4; ++i) {
    if (!*given[i] || (*given[i])->empty()) continue;
    const std::string& re_text = **given[i];
    const std::string name(names[i]);
    if (re_text.size() > max_regex)
      return error{name + ": the regular expression is longer than " + std::to_string(max_regex) +
                   " bytes"};
    RE2::Options o;
    o.set_log_errors(false);
    o.set_max_mem(8 << 20);
    auto re = std::make_shared<const RE2>(re2::StringPiece(re_text.data(), re_text.size()), o);
    if (!re->ok()) return error{name + ": bad regular expression: " + re->error()};
    *into[i] = [re](std::string_view s) {
      return RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re);
    };
    f.key += std::string(words[i]) + ":" + std::to_string(re_text.size()) + ":" + re_text + ";";
    if (!f.text.empty()) f.text += ' ';
    f.text += std::string(words[i]) + "=" + re_text;
  }
  return f;
}

}  // namespace calltree::server
