// diff_match.cc — name rewrites for matching functions across builds (see diff_match.h).
#include "calltree/analysis/diff_match.h"

#include <cctype>
#include <iterator>
#include <regex>

namespace calltree {

struct name_substitution::impl {
  std::regex re;
  std::string replacement;  // in std::regex's ECMAScript format ($1, $&, $$)
  bool global = false;
};

name_substitution::~name_substitution() = default;
name_substitution::name_substitution(name_substitution&&) noexcept = default;
name_substitution& name_substitution::operator=(name_substitution&&) noexcept = default;
name_substitution::name_substitution(const name_substitution& o)
    : impl_(o.impl_ ? std::make_unique<impl>(*o.impl_) : nullptr), text_(o.text_) {}
name_substitution& name_substitution::operator=(const name_substitution& o) {
  if (this != &o) {
    impl_ = o.impl_ ? std::make_unique<impl>(*o.impl_) : nullptr;
    text_ = o.text_;
  }
  return *this;
}

std::string name_substitution::apply(std::string_view s) const {
  if (!impl_) return std::string(s);
  auto flags = std::regex_constants::format_default;
  if (!impl_->global) flags |= std::regex_constants::format_first_only;
  std::string out;
  std::regex_replace(std::back_inserter(out), s.begin(), s.end(), impl_->re, impl_->replacement,
                     flags);
  return out;
}

namespace {

// Splits the body of `s/OLD/NEW/flags` at unescaped delimiters; `\<delim>` becomes `<delim>`,
// every other escape is kept for the regular expression.
bool split_field(std::string_view& rest, char delim, std::string& field) {
  field.clear();
  for (std::size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '\\' && i + 1 < rest.size()) {
      if (rest[i + 1] == delim) {
        field += delim;
      } else {
        field += c;
        field += rest[i + 1];
      }
      ++i;
      continue;
    }
    if (c == delim) {
      rest.remove_prefix(i + 1);
      return true;
    }
    field += c;
  }
  return false;
}

// Perl and Python spell groups `\1`; std::regex wants `$1`. A literal `$` must become `$$`.
std::string to_ecmascript_replacement(std::string_view r) {
  std::string out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    char c = r[i];
    if (c == '\\' && i + 1 < r.size()) {
      char n = r[i + 1];
      if (n >= '0' && n <= '9') {
        out += n == '0' ? std::string("$&") : std::string("$") + n;
      } else if (n == '\\') {
        out += '\\';
      } else if (n == '$') {
        out += "$$";
      } else {
        out += n;
      }
      ++i;
      continue;
    }
    if (c == '$') {
      // $1..$9 and $& are groups; any other `$` is literal.
      if (i + 1 < r.size() && ((r[i + 1] >= '0' && r[i + 1] <= '9') || r[i + 1] == '&')) {
        out += c;
        out += r[i + 1];
        ++i;
      } else {
        out += "$$";
      }
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

result<name_substitution> parse_substitution(std::string_view expr) {
  const std::string text(expr);
  if (expr.size() < 4 || expr[0] != 's')
    return error{"'" + text + "' is not a substitution of the form s/OLD/NEW/"};
  const char delim = expr[1];
  if (delim == '\\' || delim == ' ' || std::isalnum(static_cast<unsigned char>(delim)))
    return error{"'" + text + "': bad delimiter after 's'"};
  std::string_view rest = expr.substr(2);
  std::string pattern, replacement;
  if (!split_field(rest, delim, pattern) || !split_field(rest, delim, replacement))
    return error{"'" + text + "' is not a substitution of the form s/OLD/NEW/"};
  if (pattern.empty()) return error{"'" + text + "': empty pattern"};
  bool global = false, icase = false;
  for (char f : rest) {
    if (f == 'g')
      global = true;
    else if (f == 'i')
      icase = true;
    else
      return error{"'" + text + "': unknown flag '" + std::string(1, f) + "' (g and i are known)"};
  }
  name_substitution s;
  s.text_ = text;
  s.impl_ = std::make_unique<name_substitution::impl>();
  auto syntax = std::regex_constants::ECMAScript;
  if (icase) syntax |= std::regex_constants::icase;
  try {
    s.impl_->re = std::regex(pattern, syntax);
  } catch (const std::regex_error& e) {
    return error{"'" + text + "': bad regular expression: " + e.what()};
  }
  s.impl_->replacement = to_ecmascript_replacement(replacement);
  s.impl_->global = global;
  return s;
}

std::string strip_recursion_suffixes(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  std::size_t i = 0;
  while (i < name.size()) {
    if (name[i] == '\'' && i > 0) {
      std::size_t j = i + 1;
      while (j < name.size() && name[j] >= '0' && name[j] <= '9') ++j;
      if (j > i + 1 && (j == name.size() || name[j] == '\'')) {
        i = j;  // drop `'digits`
        continue;
      }
    }
    out += name[i++];
  }
  return out;
}

name_rewriter::name_rewriter(const string_pool& names, const match_options& options)
    : names_(names), options_(options) {}

std::string_view name_rewriter::translate(string_id id, int kind) {
  // The names no rule of their kind rewrites.
  if (kind == 0 && !options_.ignore_object) return names_.view(id);
  if (kind == 1 && options_.file_rewrites.empty()) return names_.view(id);
  if (kind == 2 && !options_.strip_recursion && options_.function_rewrites.empty())
    return names_.view(id);
  auto& memo = memo_[kind];
  if (auto it = memo.find(id); it != memo.end()) return it->second;
  std::string s;
  if (kind == 0) {
    if (!options_.ignore_object) s = names_.view(id);
  } else if (kind == 1) {
    s = names_.view(id);
    for (const auto& r : options_.file_rewrites) s = r.apply(s);
  } else {
    s = names_.view(id);
    if (options_.strip_recursion) s = strip_recursion_suffixes(s);
    for (const auto& r : options_.function_rewrites) s = r.apply(s);
  }
  return memo.emplace(id, std::move(s)).first->second;
}

}  // namespace calltree
