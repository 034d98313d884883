// parser_body.cc — the parser's general path for body lines: each line classified
// (process_line), `key=` lines (names and their `(id)` compression, calls=, jump=, jcnd=),
// positions (absolute, relative, `*`) and cost lines, every problem reported with its place.
// Every line can be read here; the fast paths (fast_paths.cc) take the common ones faster and
// hand anything unusual back to this path. What it is not: header lines (parser_header.cc).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "model/string_pool_access.h"
#include "reader/parser.h"

namespace calltree::detail {

namespace {
// "'KEY=' REST": a message about a key. (Appended in place: GCC 12 at -O3 warns -Wrestrict
// on `"'" + std::string(key) + ...`, a false positive in its inlined string copies.)
std::string key_message(std::string_view key, std::string_view rest) {
  std::string m;
  m.reserve(key.size() + rest.size() + 3);
  m += '\'';
  m += key;
  m += "=' ";
  m += rest;
  return m;
}
}  // namespace

// ---------------------------------------------------------------------------------------
// Lines
// ---------------------------------------------------------------------------------------

void parser::process_line(std::string_view line) {
  ++stats_.lines;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  raw_line_ = line;
  if (line.empty()) return;
  char c0 = line[0];
  // The hot path: a cost line starting in column 1.
  if (starts_cost_line(c0)) {
    process_cost_line(line);
    drop_call_cost_ = false;
    return;
  }
  if (c0 == '#') return;
  if (is_space(c0)) {
    std::string_view t = trim(line);
    if (t.empty() || t[0] == '#') return;
    report(severity::warning, diag_code::leading_space, 1, 1,
           "line starts with white space; read without it");
    line = line.substr(static_cast<std::size_t>(t.data() - line.data()));
    c0 = line[0];
    if (starts_cost_line(c0)) {
      process_cost_line(line);
      drop_call_cost_ = false;
      return;
    }
  }
  drop_call_cost_ = false;  // no cost line came for the dropped call
  if (line.find('\0') != std::string_view::npos) {
    report(severity::error, diag_code::nul_byte, col_of(line.substr(line.find('\0'))), 1,
           "NUL byte in line; the line is skipped");
    skip_line();
    return;
  }
  if (line.starts_with("====")) {
    if (line.find("NEW PROFILING FILE") != std::string_view::npos) {
      report(severity::warning, diag_code::part_separator, 1, line.size(),
             "Xdebug's part separator; a new part begins");
      end_part();
      return;
    }
  }
  std::size_t sep = line.find_first_of("=:");
  if (sep != std::string_view::npos && sep > 0) {
    std::string_view key = line.substr(0, sep);
    std::string_view value = line.substr(sep + 1);
    if (line[sep] == '=') {
      if (pending_call_) finish_pending(false);
      if (pending_jump_) finish_pending(false);
      if (!part_open_) begin_body();
      body_started_ = true;
      process_body_key(key, value);
    } else {
      process_header(key, value, line);
    }
    return;
  }
  report(severity::warning, diag_code::unknown_line, 1, line.size(),
         "not a header line, a key=value line or a cost line; ignored");
  skip_line();
}

bool parser::parse_name(std::string_view value, name_class c, string_id& out) {
  if (value.size() >= 2 && value[0] == '(' && is_digit(value[1])) {
    std::size_t close = value.find(')');
    std::uint64_t id = 0;
    if (close == std::string_view::npos ||
        parse_u64(value.substr(1, close - 1), id) != num_status::ok) {
      bool overflow = close != std::string_view::npos;
      report(severity::error, diag_code::bad_compressed_name, col_of(value),
             close == std::string_view::npos ? value.size() : close + 1,
             overflow ? "name id does not fit in 64 bits or is not a number; the line is skipped"
                      : "compressed name without ')'; the line is skipped");
      skip_line();
      return false;
    }
    std::string_view rest = trim(value.substr(close + 1));
    auto& tab = table(c);
    if (rest.empty()) {
      if (const auto e = tab.get(id); e.defined()) {
        out = e.name;
        return true;
      }
      if (range_names_) {  // an id given several names: the one in force on this line
        out = range_renamed(c, id);
        return true;
      }
      if (spec_) {  // defined before the chunk, we hope: the real table will tell
        out = spec_->placeholder(c, id);
        // In the table, so the next references take the fast path; as if from another part,
        // so that a definition in the chunk replaces it without a word.
        tab.set(id, {out, id_table::other_part});
        return true;
      }
      static constexpr std::string_view kinds[] = {"object", "file", "function"};
      report(severity::error, diag_code::undefined_name, col_of(value), close + 1,
             std::string(kinds[static_cast<int>(c)]) + " id (" + std::to_string(id) +
                 ") used before it was defined");
      const std::string unknown = "(unknown id " + std::to_string(id) + ")";
      out = range_names_ ? range_name(unknown) : names_.intern(unknown);
      return true;
    }
    if (rest.find('\0') != std::string_view::npos) {
      report(severity::error, diag_code::nul_byte, col_of(rest), rest.size(), "NUL byte in name");
    }
    const auto e = tab.get(id);
    if (range_names_) {
      // A chunk read again: the name the first reading ended with; an id given several names
      // (left undefined in the index's tables), the one this line gave it then.
      if (e.defined()) {
        out = e.name;
      } else {
        out = range_renamed(c, id, true);  // (the renaming this line made, or the first name)
        range_defined_[range_key(c, id)] = out;
      }
      return true;
    }
    string_id sid = names_.intern(rest);
    if (e.defined() && e.name != sid) note_rename(c, id, e.name, sid, line_no_);
    const bool first = !e.defined() || e.part != current_part_;
    if (e.defined() && e.name != sid && e.part == current_part_ && part_open_) {
      std::string scratch;  // (a spilling pool reads the old name back)
      const std::string_view old_name = names_.text(e.name, scratch);
      report(severity::warning, diag_code::redefined_name, col_of(value), close + 1,
             "id (" + std::to_string(id) + ") redefined from '" +
                 std::string(old_name.substr(0, string_pool_access::digest_prefix)) + "' to '" +
                 std::string(rest.substr(0, string_pool_access::digest_prefix)) + "'");
    }
    tab.set(id, {sid, current_part_});
    if (spec_) spec_->defs.push_back({c, id, sid, first, line_no_});
    if (opt_.max_name_bytes && names_.bytes() > opt_.max_name_bytes) {
      limit_hit_ = true;
    }
    out = sid;
    return true;
  }
  std::string_view name = trim(value);
  if (range_names_) {
    out = range_name(name);
    return true;
  }
  out = names_.intern(name);
  if (opt_.max_name_bytes && names_.bytes() > opt_.max_name_bytes) limit_hit_ = true;
  return true;
}

bool parser::parse_target(tokenizer& tk, position& out, bool& has_target, std::string_view key) {
  out = base_;
  has_target = false;
  std::string_view tok;
  std::size_t col;
  std::size_t n = 0;
  while (n < columns_.size() && tk.next(tok, col)) {
    std::uint64_t v = 0;
    if (parse_position(tok, get_column(base_, n), v) != pos_result::ok) return false;
    set_column(out, n, v);
    ++n;
  }
  has_target = n > 0;
  // (Messages built only when wanted: Xdebug writes an extra token on every calls= line.)
  if (n == 0) {
    const auto code = diag_code::call_without_target;
    report(severity::warning, code, col_of(raw_line_.substr(key.size())), 0,
           detailed(code) ? key_message(key, "without a target position") : std::string());
  } else if (n < columns_.size()) {
    const auto code = diag_code::missing_position;
    report(severity::warning, code, 0, 0,
           detailed(code) ? key_message(key, "target has " + std::to_string(n) + " of " +
                                                 std::to_string(columns_.size()) +
                                                 " position columns; the rest are taken as '*'")
                          : std::string());
  }
  if (tk.next(tok, col)) {
    const auto code = diag_code::extra_call_target;
    report(severity::note, code, col_of(tok), tok.size(),
           detailed(code)
               ? key_message(key, "has more target tokens than position columns; ignored")
               : std::string());
  }
  return true;
}

void parser::process_body_key(std::string_view key, std::string_view value) {
  const std::size_t klen = key.size();
  auto k2 = [&](char a, char b) { return klen == 2 && key[0] == a && key[1] == b; };
  auto k3 = [&](char a, char b, char c) {
    return klen == 3 && key[0] == a && key[1] == b && key[2] == c;
  };
  string_id id;
  if (k2('f', 'n')) {
    if (!parse_name(value, name_class::function, id)) return;
    if (id == string_pool::empty) {
      report(severity::warning, diag_code::empty_name, col_of(key), 3, "empty function name");
    }
    ctx_.function = id;
    ctx_.source_file = ctx_.file;
    have_function_ = true;
    have_cfn_ = callee_object_set_ = callee_file_set_ = false;
    jump_file_set_ = jump_function_set_ = false;
  } else if (k2('f', 'l')) {
    if (!parse_name(value, name_class::file, id)) return;
    ctx_.file = ctx_.source_file = id;
  } else if (k2('f', 'i') || k2('f', 'e')) {
    if (!parse_name(value, name_class::file, id)) return;
    if (!have_function_) {
      report(severity::warning, diag_code::inline_without_function, 1, 2,
             key_message(key, "before any 'fn='"));
    }
    ctx_.source_file = id;
  } else if (k2('o', 'b')) {
    if (!parse_name(value, name_class::object, id)) return;
    ctx_.object = id;
  } else if (k3('c', 'f', 'n')) {
    if (!parse_name(value, name_class::function, id)) return;
    callee_function_ = id;
    have_cfn_ = have_any_cfn_ = true;
  } else if (k3('c', 'f', 'i') || k3('c', 'f', 'l')) {
    if (!parse_name(value, name_class::file, id)) return;
    if (have_cfn_) {
      report(severity::note, diag_code::callee_file_after_cfn, 1, 3,
             key_message(key, "after 'cfn='; it applies to this call"));
    }
    callee_file_ = id;
    callee_file_set_ = true;
  } else if (k3('c', 'o', 'b')) {
    if (!parse_name(value, name_class::object, id)) return;
    if (have_cfn_) {
      report(severity::note, diag_code::callee_file_after_cfn, 1, 3,
             "'cob=' after 'cfn='; it applies to this call");
    }
    callee_object_ = id;
    callee_object_set_ = true;
  } else if (k3('j', 'f', 'i')) {
    if (!parse_name(value, name_class::file, id)) return;
    jump_file_ = id;
    jump_file_set_ = true;
  } else if (k3('j', 'f', 'n')) {
    if (!parse_name(value, name_class::function, id)) return;
    jump_function_ = id;
    jump_function_set_ = true;
  } else if (key == "calls") {
    tokenizer tk{value};
    std::string_view tok;
    std::size_t col;
    std::uint64_t count = 0;
    if (!tk.next(tok, col)) {
      report(severity::error, diag_code::bad_call_count, col_of(value), 0,
             "'calls=' without a call count; the call and its cost line are dropped");
      skip_line();
      drop_call_cost_ = true;
      return;
    }
    auto st = parse_u64(tok, count);
    if (st != num_status::ok) {
      report(severity::error, diag_code::bad_call_count, col_of(tok), tok.size(),
             st == num_status::overflow
                 ? "call count does not fit in 64 bits; the call and its cost line are dropped"
                 : "invalid call count '" + std::string(tok.substr(0, 40)) +
                       "'; the call and its cost line are dropped");
      skip_line();
      drop_call_cost_ = true;
      return;
    }
    call_ = call_record{};
    call_.line = line_no_;
    call_.count = count;
    if (!parse_target(tk, call_.target, call_.has_target, "calls")) {
      skip_line();
      drop_call_cost_ = true;
      return;
    }
    // A call without a target has none (records.h): not the position before it, which would
    // keep apart in the model calls that differ in nothing the file says.
    if (!call_.has_target) call_.target = position{};
    if (count == 0) {
      report(severity::note, diag_code::zero_call_count, col_of(tok), tok.size(),
             "call count 0 (a call begun before this dump, or a sampling profile); its cost is "
             "inclusive cost of the call, not self cost");
    }
    if (!have_function_) {
      report(severity::warning, diag_code::cost_without_function, 1, klen,
             "'calls=' before any 'fn='; the caller is '???'");
      ctx_.function = unknown_function();
      have_function_ = true;
    }
    if (!have_cfn_) {
      report(severity::warning, diag_code::call_without_callee, 1, klen,
             have_any_cfn_ ? "'calls=' without 'cfn=' before it; the previous callee is used"
                           : "'calls=' without 'cfn=' before it; the callee is '???'");
      if (!have_any_cfn_) callee_function_ = unknown_function();
    }
    call_.ctx = ctx_;
    call_.callee_object = callee_object_set_ ? callee_object_ : ctx_.object;
    call_.callee_file = callee_file_set_ ? callee_file_ : ctx_.source_file;
    call_.callee_function = callee_function_;
    call_line_ = line_no_;
    call_line_text_ = std::string(raw_line_.substr(0, max_line_text));
    call_line_in_block_ = {};
    pending_call_ = true;
  } else if (key == "jump" || key == "jcnd") {
    bool cond = key == "jcnd";
    tokenizer tk{value};
    std::string_view tok;
    std::size_t col;
    jump_ = jump_record{};
    jump_.line = line_no_;
    jump_.conditional = cond;
    if (!tk.next(tok, col)) {
      report(severity::error, diag_code::bad_jump, col_of(value), 0,
             key_message(key, "without counts; ignored"));
      skip_line();
      return;
    }
    auto bad = [&](std::string_view t) {
      report(severity::error, diag_code::bad_jump, col_of(t), t.size(),
             "invalid jump count '" + std::string(t.substr(0, 40)) + "'; the jump is ignored");
      skip_line();
    };
    if (!cond) {
      if (parse_u64(tok, jump_.executed) != num_status::ok) return bad(tok);
      jump_.followed = jump_.executed;
    } else if (std::size_t slash = tok.find('/'); slash != std::string_view::npos) {
      if (parse_u64(tok.substr(0, slash), jump_.followed) != num_status::ok ||
          parse_u64(tok.substr(slash + 1), jump_.executed) != num_status::ok)
        return bad(tok);
    } else {
      std::string_view second;
      std::size_t col2;
      if (parse_u64(tok, jump_.executed) != num_status::ok) return bad(tok);
      if (!tk.next(second, col2) || parse_u64(second, jump_.followed) != num_status::ok)
        return bad(second.empty() ? tok : second);
      report(severity::warning, diag_code::jcnd_space_form, col_of(tok), tok.size(),
             "'jcnd=' in the spec's form 'EXECUTED FOLLOWED' (callgrind writes "
             "'FOLLOWED/EXECUTED'); read as executed " +
                 std::to_string(jump_.executed) + ", followed " + std::to_string(jump_.followed));
    }
    if (cond && jump_.followed > jump_.executed) {
      report(severity::warning, diag_code::jump_followed_exceeds, col_of(tok), tok.size(),
             "'jcnd=' says the jump was followed more often than executed");
    }
    bool has_target = false;
    if (!parse_target(tk, jump_.target, has_target, key)) {
      skip_line();
      return;
    }
    if (!have_function_) {
      report(severity::warning, diag_code::cost_without_function, 1, klen,
             "jump before any 'fn='; the function is '???'");
      ctx_.function = unknown_function();
      have_function_ = true;
    }
    jump_.ctx = ctx_;
    jump_.target_file = jump_file_set_ ? jump_file_ : ctx_.source_file;
    jump_.target_function = jump_function_set_ ? jump_function_ : ctx_.function;
    pending_jump_ = true;
  } else {
    report(severity::warning, diag_code::unknown_key, 1, klen,
           "unknown key '" + std::string(key.substr(0, 40)) + "='; the line is ignored");
    skip_line();
  }
}

parser::pos_result parser::parse_position(std::string_view tok, std::uint64_t base,
                                          std::uint64_t& out) {
  char c = tok[0];
  if (c == '*') {
    if (tok.size() != 1) {
      report(severity::error, diag_code::malformed_number, col_of(tok), tok.size(),
             "invalid position '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
      return pos_result::error;
    }
    out = base;
    return pos_result::ok;
  }
  std::uint64_t v = 0;
  bool rel = c == '+' || c == '-';
  auto st = parse_u64(rel ? tok.substr(1) : tok, v);
  if (st != num_status::ok) {
    report(severity::error,
           st == num_status::overflow ? diag_code::number_overflow : diag_code::malformed_number,
           col_of(tok), tok.size(),
           st == num_status::overflow
               ? "position '" + std::string(tok.substr(0, 40)) +
                     "' does not fit in 64 bits; the line is skipped"
               : "invalid position '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
    return pos_result::error;
  }
  if (!rel) {
    out = v;
  } else if (c == '+') {
    if (__builtin_add_overflow(base, v, &out)) {
      report(severity::error, diag_code::position_overflow, col_of(tok), tok.size(),
             "relative position goes above 2^64-1; the line is skipped");
      return pos_result::error;
    }
  } else if (v > base) {
    report(severity::warning, diag_code::position_below_zero, col_of(tok), tok.size(),
           "relative position goes below 0 (" + std::to_string(base) + " - " + std::to_string(v) +
               "); 0 is used");
    out = 0;
  } else {
    out = base - v;
  }
  return pos_result::ok;
}

void parser::process_cost_line(std::string_view line) {
  if (!part_open_) begin_body();
  body_started_ = true;
  // Positions.
  position pos = base_;
  const std::size_t ncol = columns_.size();
  std::size_t i = 0;
  const std::size_t n = line.size();
  std::size_t col = 0;
  for (; col < ncol; ++col) {
    while (i < n && is_space(line[i])) ++i;
    if (i >= n) break;
    std::size_t s = i;
    while (i < n && !is_space(line[i])) ++i;
    std::string_view tok = line.substr(s, i - s);
    std::uint64_t v;
    // Fast path: plain decimal.
    if (is_digit(tok[0]) && (tok.size() < 2 || tok[1] != 'x') && tok.size() < 20) {
      if (!short_decimal(tok, v)) {
        report(severity::error, diag_code::malformed_number, col_of(tok), tok.size(),
               "invalid position '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
        skip_line();
        return;
      }
    } else if (parse_position(tok, get_column(base_, col), v) != pos_result::ok) {
      skip_line();
      return;
    }
    set_column(pos, col, v);
  }
  if (col < ncol) {
    report(severity::error, diag_code::missing_position, static_cast<std::size_t>(n) + 1, 0,
           "cost line has " + std::to_string(col) + " of " + std::to_string(ncol) +
               " position columns; the line is skipped");
    skip_line();
    return;
  }
  // Costs.
  std::size_t ncost = 0;
  std::uint64_t* costs = costs_.data();
  while (true) {
    while (i < n && is_space(line[i])) ++i;
    if (i >= n) break;
    std::size_t s = i;
    while (i < n && !is_space(line[i])) ++i;
    std::string_view tok = line.substr(s, i - s);
    if (ncost >= n_events_) {
      if (n_events_ == 0) {
        report(severity::error, diag_code::cost_before_events, col_of(tok), tok.size(),
               "cost line before 'events:'; the line is skipped");
      } else {
        std::size_t extra = 0;
        tokenizer tk{line.substr(s)};
        std::string_view t2;
        std::size_t c2;
        while (tk.next(t2, c2)) ++extra;
        report(severity::error, diag_code::too_many_costs, col_of(tok), line.size() - s,
               std::to_string(ncost + extra) + " costs but " + std::to_string(n_events_) +
                   (n_events_ == 1 ? " event" : " events") + "; the line is skipped");
      }
      skip_line();
      return;
    }
    std::uint64_t v = 0;
    char c = tok[0];
    if (is_digit(c) && tok.size() < 20 && (tok.size() < 2 || tok[1] != 'x')) {
      if (!short_decimal(tok, v)) {
        report(severity::error, diag_code::malformed_number, col_of(tok), tok.size(),
               "invalid cost '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
        skip_line();
        return;
      }
    } else if (c == '+' || c == '*' || (c == '-' && tok.size() == 1)) {
      report(severity::error, diag_code::relative_cost, col_of(tok), tok.size(),
             "relative value '" + std::string(tok.substr(0, 40)) + "' in cost column " +
                 std::to_string(ncost + 1) + "; the line is skipped");
      skip_line();
      return;
    } else {
      bool neg = c == '-';
      bool hex = false;
      auto st = parse_u64(neg ? tok.substr(1) : tok, v, &hex);
      if (st != num_status::ok) {
        report(
            severity::error,
            st == num_status::overflow ? diag_code::number_overflow : diag_code::malformed_number,
            col_of(tok), tok.size(),
            st == num_status::overflow
                ? "cost '" + std::string(tok.substr(0, 40)) +
                      "' does not fit in 64 bits; the line is skipped"
                : "invalid cost '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
        skip_line();
        return;
      }
      if (neg) {
        if (!signed_value(tok, v)) {
          skip_line();
          return;
        }
      } else if (hex) {
        report(severity::warning, diag_code::hex_cost, col_of(tok), tok.size(),
               "cost written in hex; read as " + std::to_string(v));
      }
    }
    if ((v >> 63) && c != '-') [[unlikely]] {
      if (!unsigned_value_fits(tok)) {
        skip_line();
        return;
      }
    }
    costs[ncost++] = v;
  }
  finish_cost_line(pos.instr, pos.bb, pos.line, ncost);
}

// The rare cases of a self cost line, out of the hot path: no function yet; a sum that went
// above 2^64-1 (held there; reported once per event and part).
void parser::cost_line_problems(std::size_t ncost) {
  if (!have_function_) {
    report(severity::warning, diag_code::cost_without_function, 1, 0,
           "cost line before any 'fn='; the function is '???'");
    ctx_.function = unknown_function();
    have_function_ = true;
  }
  for (std::size_t k = 0; k < ncost; ++k) {
    if (signed_) {
      // Signed: the wrapped sum is the sum, unless both addends had one sign and the sum the
      // other: then hold it at the limit of that sign.
      const std::uint64_t before = computed_[k] - costs_[k];
      if (((before ^ computed_[k]) & (costs_[k] ^ computed_[k])) >> 63) {
        computed_[k] = as_signed(costs_[k]) < 0 ? static_cast<std::uint64_t>(INT64_MIN)
                                                : static_cast<std::uint64_t>(INT64_MAX);
        if (!overflow_reported_[k]) {
          overflow_reported_[k] = true;
          report(severity::error, diag_code::cost_overflow, 1, 0,
                 "the sum of " + header_.events[k] +
                     " costs in this part leaves the signed 64-bit range; it is held at its "
                     "limit");
        }
      }
      continue;
    }
    // A sum that wrapped is below the addend; add_saturating in the loop before would have
    // stopped at 2^64-1: put it there.
    if (computed_[k] < costs_[k]) {
      computed_[k] = UINT64_MAX;
      if (!overflow_reported_[k]) {
        overflow_reported_[k] = true;
        report(severity::error, diag_code::cost_overflow, 1, 0,
               "the sum of " + header_.events[k] +
                   " costs in this part goes above 2^64-1; it is "
                   "held at 2^64-1");
      }
    }
  }
}

// A negative number ("-129", as cg_diff writes where a cost went down): its two's-complement
// bit pattern in `v` (which holds its magnitude). The first one of a file makes the file
// signed: a note says so once, and the thread sums signed from here (cost_matrix.h). A
// magnitude above 2^63 does not fit: an error (number-overflow), false.
bool parser::signed_value(std::string_view tok, std::uint64_t& v) {
  if (v > static_cast<std::uint64_t>(INT64_MAX) + 1) {
    // (appended, not operator+: GCC 12 at -O3 warns a false -Wrestrict on that form)
    std::string m = "'";
    m.append(tok.substr(0, 40));
    m += "' does not fit in a signed 64-bit number; the line is skipped";
    report(severity::error, diag_code::number_overflow, col_of(tok), tok.size(), std::move(m));
    return false;
  }
  v = 0 - v;  // (modular: -2^63 is its own pattern)
  if (v != 0) become_signed(tok);
  return true;
}

void parser::become_signed(std::string_view tok) {
  if (signed_) return;
  signed_ = true;
  if (!spec_) set_signed_costs_here(true);
  std::string m = "negative number ";
  m.append(tok.substr(0, 40));
  m += ": the file holds differences (as cg_diff writes); its costs are read as signed 64-bit "
       "numbers";
  report(severity::note, diag_code::negative_cost, col_of(tok), tok.size(), std::move(m));
  if (huge_seen_)
    report(severity::warning, diag_code::number_overflow, col_of(tok), tok.size(),
           "an earlier cost was above 2^63-1, which a signed file cannot hold; it is read as a "
           "negative number");
}

// A cost of 2^63 or more written without a sign: an unsigned file may hold it, a signed one
// cannot (an error, false).
bool parser::unsigned_value_fits(std::string_view tok) {
  if (!signed_) {
    huge_seen_ = true;
    return true;
  }
  report(severity::error, diag_code::number_overflow, col_of(tok), tok.size(),
         "cost '" + std::string(tok.substr(0, 40)) +
             "' does not fit in a signed 64-bit number (this file's costs are signed); the line "
             "is skipped");
  return false;
}

}  // namespace calltree::detail
