// parser_header.cc — the parser's parts: header lines (version:, creator:, events:,
// positions:, event:, summary:, totals:, ...), where a part begins and ends, the checks at its
// end (totals:, summary:, a file cut short), and the calls= and jump= lines left pending there.
// What it is not: body lines (parser_body.cc), the fast paths (fast_paths.cc).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "reader/parser.h"

namespace calltree::detail {

// ---------------------------------------------------------------------------------------
// Parts
// ---------------------------------------------------------------------------------------

// Whether the producer named by `creator:` closes every part with `totals:`: callgrind does
// (format-semantics.md F14), and so does calltree's own writer (merge names itself).
bool writes_totals(std::string_view creator) {
  return creator.starts_with("callgrind") || creator.starts_with("calltree");
}

void parser::reset_header(bool first) {
  part_header next;
  if (!first) {
    // Inherited from the part before unless restated.
    next.version = header_.version;
    next.creator = header_.creator;
    next.cmd = header_.cmd;
    next.pid = header_.pid;
    next.positions = header_.positions;
    next.events = header_.events;
    next.event_definitions = header_.event_definitions;
  }
  header_ = std::move(next);
  header_dirty_ = false;
  body_started_ = false;
  seen_events_in_header_ = false;
  seen_positions_in_header_ = false;
  deferred_summary_.clear();
  end_ = part_end{};
}

void parser::begin_body() {
  if (part_open_) return;
  header_.index = part_index_++;
  current_part_ = header_.index;
  if (header_.line == 0) header_.line = line_no_;
  n_events_ = header_.events.size();
  any_events_ |= n_events_ > 0;
  columns_.clear();
  for (std::uint8_t k : {pos_instr, pos_bb, pos_line})
    if (header_.positions & k) columns_.push_back(k);
  // Keep the written order when it differs from the spec's (positions: line instr).
  if (!header_order_.empty()) columns_ = header_order_;
  for (std::size_t c = 0; c < columns_.size() && c < max_positions; ++c)
    column_index_[c] = columns_[c] == pos_instr ? 0 : columns_[c] == pos_bb ? 1 : 2;
  const std::vector<std::uint8_t> instr_line{pos_instr, pos_line};
  layout_ = columns_ == std::vector<std::uint8_t>{pos_line}    ? layout::line
            : columns_ == std::vector<std::uint8_t>{pos_instr} ? layout::instr
            : columns_ == instr_line                           ? layout::instr_line
                                                               : layout::other;
  if (!deferred_summary_.empty()) {
    auto saved_line = line_no_;
    auto saved_raw = raw_line_;
    line_no_ = deferred_summary_line_;
    raw_line_ = deferred_summary_.back();
    header_.summary = parse_cost_list(deferred_summary_.back(), "summary");
    line_no_ = saved_line;
    raw_line_ = saved_raw;
  }
  // A summary: read before the header restated events: was fitted to the old event count.
  if (header_.summary && header_.summary->size() != n_events_)
    header_.summary->resize(n_events_, 0);
  costs_.assign(n_events_, 0);
  computed_.assign(n_events_, 0);
  overflow_reported_.assign(n_events_, false);
  base_ = position{};
  ctx_ = context{};
  have_function_ = false;
  callee_object_set_ = callee_file_set_ = have_cfn_ = have_any_cfn_ = false;
  jump_file_set_ = jump_function_set_ = false;
  part_open_ = true;
  ++stats_.parts;
  flush_run();
  if (opt_.index) opt_.index->parts.push_back(snapshot());
  sink_.on_part_begin(header_);
}

void parser::end_part() {
  finish_pending(false);
  if (!part_open_) {
    if (!header_has_content()) return;
    begin_body();
  }
  end_.computed = computed_;
  if (end_.totals) {
    const auto& t = *end_.totals;
    for (std::size_t i = 0; i < n_events_; ++i) {
      if (t[i] != computed_[i]) {
        report(severity::warning, diag_code::totals_mismatch, 0, 0,
               "totals: says " + number_text(t[i]) + " " + header_.events[i] +
                   " but the self costs of this part sum to " + number_text(computed_[i]));
        break;
      }
    }
  }
  const auto* summary = end_.summary      ? &*end_.summary
                        : header_.summary ? &*header_.summary
                                          : nullptr;
  if (summary) {
    for (std::size_t i = 0; i < n_events_; ++i) {
      if (signed_ ? as_signed((*summary)[i]) < as_signed(computed_[i])
                  : (*summary)[i] < computed_[i]) {
        report(severity::warning, diag_code::summary_mismatch, 0, 0,
               "summary: says " + number_text((*summary)[i]) + " " + header_.events[i] +
                   ", less than the sum of this part's self costs, " + number_text(computed_[i]));
        break;
      }
    }
  }
  // A file cut short (a copy stopped, a disk full, a process killed while it wrote) reads as a
  // smaller profile of its own: nothing in the lines that remain is wrong. Only a producer that
  // always writes an end says what is missing: callgrind (and calltree's writer) close every
  // part with `totals:`. Where it is absent the part was cut short; callgrind's `summary:`
  // (written in the header, before the body) is then the sum of the costs that were to come,
  // so the sum that was read falls short of it by what is lost. (Xdebug's and
  // pyprof2calltree's summaries are not sums and they write no totals:, docs/format.md: their
  // files are not judged. With totals: present a summary: above the sum is not a cut: callgrind
  // 3.19 writes a wrapped negative summary for a part dumped after a client request zeroed the
  // counts, with a right totals:, corpus/vg-clientreq-instr-atstart-no-combined.)
  if (writes_totals(header_.creator) && !end_.totals) {
    const auto saved = line_no_;
    line_no_ = 0;
    report(severity::warning, diag_code::likely_truncated, 0, 0,
           "no 'totals:' line ends part " + std::to_string(stats_.parts) + ", though " +
               std::string(header_.creator.substr(0, header_.creator.find(' '))) +
               " ends every part with one: the file was likely cut short (truncated)");
    if (summary && !signed_ && header_.creator.starts_with("callgrind")) {
      for (std::size_t i = 0; i < n_events_; ++i) {
        if ((*summary)[i] > computed_[i]) {
          const double pct =
              100.0 * static_cast<double>(computed_[i]) / static_cast<double>((*summary)[i]);
          char read_share[32];
          std::snprintf(read_share, sizeof read_share, pct >= 1 ? "%.1f" : "%.2g", pct);
          report(severity::warning, diag_code::likely_truncated, 0, 0,
                 "summary: says " + std::to_string((*summary)[i]) + " " + header_.events[i] +
                     " but the self costs read sum to " + std::to_string(computed_[i]) + " (" +
                     read_share +
                     " %): callgrind's summary is their sum, so the file was likely cut short "
                     "(truncated)");
          break;
        }
      }
    }
    line_no_ = saved;
  }
  if (writes_totals(header_.creator)) ends_lines_ = true;
  end_.line = line_no_;
  end_.signed_costs = signed_;
  flush_run();
  sink_.on_part_end(end_);
  part_open_ = false;
  reset_header(false);
}

void parser::finish_pending(bool at_eof) {
  if (pending_call_) {
    pending_call_ = false;
    auto saved_line = line_no_;
    auto saved_raw = raw_line_;
    line_no_ = call_line_;
    raw_line_ =
        call_line_in_block_.empty() ? std::string_view(call_line_text_) : call_line_in_block_;
    report(severity::error, diag_code::call_without_cost, 1, 0,
           at_eof ? "'calls=' at the end of the input, without its cost line; the call is dropped"
                  : "'calls=' not followed by its cost line; the call is dropped");
    ++stats_.skipped_lines;
    line_no_ = saved_line;
    raw_line_ = saved_raw;
    have_cfn_ = callee_object_set_ = callee_file_set_ = false;
  }
  if (pending_jump_) {
    pending_jump_ = false;
    report(severity::warning, diag_code::jump_without_source, 0, 0,
           "jump not followed by its source position line; the last position is used");
    jump_.source = base_;
    if (!opt_.skip_jump_records) {
      flush_run();
      sink_.on_jump(jump_);
    }
    ++stats_.jump_lines;
    jump_file_set_ = jump_function_set_ = false;
  }
}

std::optional<std::vector<std::uint64_t>> parser::parse_cost_list(std::string_view value,
                                                                  std::string_view what) {
  std::vector<std::uint64_t> v;
  tokenizer tk{value};
  std::string_view tok;
  std::size_t col;
  while (tk.next(tok, col)) {
    std::uint64_t n = 0;
    const bool neg = tok.size() > 1 && tok[0] == '-';
    auto st = parse_u64(neg ? tok.substr(1) : tok, n);
    if (st == num_status::ok && neg && n > static_cast<std::uint64_t>(INT64_MAX) + 1)
      st = num_status::overflow;
    if (st == num_status::ok && neg) {
      n = 0 - n;  // a difference (cg_diff's summary:): signed, as the costs
      if (n != 0) become_signed(tok);
    }
    if (st != num_status::ok) {
      report(severity::warning, diag_code::bad_summary, col_of(tok), tok.size(),
             std::string(what) + ": value '" + std::string(tok.substr(0, 40)) +
                 (st == num_status::overflow ? "' does not fit in 64 bits" : "' is not a number") +
                 "; the line is ignored");
      return std::nullopt;
    }
    v.push_back(n);
  }
  if (v.size() > n_events_) {
    report(severity::warning, diag_code::bad_summary, 0, 0,
           std::string(what) + ": has " + std::to_string(v.size()) + " values for " +
               std::to_string(n_events_) + " events; the extra values are ignored");
    v.resize(n_events_);
  }
  if (v.size() < n_events_) v.resize(n_events_, 0);
  return v;
}

void parser::process_header(std::string_view key, std::string_view value, std::string_view line) {
  if (spec_) {  // a part ends or begins: not for a speculative reading
    spec_->failed = true;
    return;
  }
  static constexpr std::string_view known[] = {"version", "creator", "pid",     "thread",
                                               "part",    "cmd",     "desc",    "positions",
                                               "event",   "events",  "summary", "totals"};
  bool is_known = std::find(std::begin(known), std::end(known), key) != std::end(known);
  if (!is_known) {
    report(severity::warning, diag_code::unknown_header, 1, key.size(),
           "unknown header line '" + std::string(key.substr(0, 40)) + ":'; ignored");
    header_.unknown_lines.emplace_back(line);
    skip_line();
    return;
  }
  if (pending_call_ || pending_jump_) finish_pending(false);
  // summary: and totals: close a part; they do not start a new one.
  if (key == "totals") {
    if (!part_open_) begin_body();
    end_.totals = parse_cost_list(value, "totals");
    return;
  }
  if (key == "summary") {
    if (part_open_ && body_started_) {
      end_.summary = parse_cost_list(value, "summary");
    } else if (part_open_ || seen_events_in_header_ || !header_.events.empty()) {
      if (!part_open_) {
        // Parse now with the header's events.
        n_events_ = header_.events.size();
        header_.summary = parse_cost_list(value, "summary");
      } else {
        header_.summary = parse_cost_list(value, "summary");
      }
      header_dirty_ = true;
    } else {
      deferred_summary_.emplace_back(value);
      deferred_summary_line_ = line_no_;
      header_dirty_ = true;
    }
    return;
  }
  // Any other header line after body lines (or after a part's data) starts a new part.
  if (part_open_) end_part();
  if (!header_dirty_) header_.line = line_no_;
  header_dirty_ = true;
  std::string_view v = trim(value);
  if (key == "version") {
    header_.version = std::string(v);
    std::uint64_t major = 0;
    std::size_t i = 0;
    while (i < v.size() && is_digit(v[i])) {
      major = major * 10 + static_cast<unsigned>(v[i] - '0');
      if (major > 1000) break;
      ++i;
    }
    if (i == 0) {
      report(severity::warning, diag_code::unsupported_version, col_of(value), value.size(),
             "version: is not a number; read as version 1");
    } else if (major >= 2) {
      report(severity::error, diag_code::unsupported_version, col_of(v), v.size(),
             "unsupported format major version " + std::string(v.substr(0, i)) +
                 "; reading on as version 1");
    }
  } else if (key == "creator") {
    header_.creator = std::string(v);
  } else if (key == "cmd") {
    header_.cmd = std::string(v);
  } else if (key == "pid" || key == "thread" || key == "part") {
    std::uint64_t n = 0;
    if (parse_u64(v, n) != num_status::ok) {
      report(
          severity::warning, diag_code::malformed_number, col_of(v), v.size(),
          std::string(key) + ": '" + std::string(v.substr(0, 40)) + "' is not a number; ignored");
      return;
    }
    (key == "pid" ? header_.pid : key == "thread" ? header_.thread : header_.part_number) = n;
  } else if (key == "desc") {
    std::size_t lead = value.find_first_not_of(" \t");
    header_.description_lines.emplace_back(lead == std::string_view::npos ? std::string_view()
                                                                          : value.substr(lead));
    std::size_t colon = v.find(':');
    if (colon == std::string_view::npos) {
      header_.descriptions.emplace_back(std::string(v), std::string());
    } else {
      header_.descriptions.emplace_back(std::string(trim(v.substr(0, colon))),
                                        std::string(trim(v.substr(colon + 1))));
    }
  } else if (key == "positions") {
    std::uint8_t bits = 0;
    std::vector<std::uint8_t> order;
    tokenizer tk{v};  // (trimmed: a stray CR at the end is no part of the last kind)
    std::string_view tok;
    std::size_t col;
    while (tk.next(tok, col)) {
      std::uint8_t k = tok == "line"                       ? pos_line
                       : (tok == "instr" || tok == "addr") ? pos_instr
                       : tok == "bb"                       ? pos_bb
                                                           : 0;
      if (!k) {
        report(severity::error, diag_code::bad_positions, col_of(tok), tok.size(),
               "unknown position kind '" + std::string(tok.substr(0, 40)) +
                   "' (known: instr, bb, line); ignored");
        continue;
      }
      if (bits & k) continue;
      bits |= k;
      order.push_back(k);
    }
    if (!bits) {
      report(severity::error, diag_code::bad_positions, col_of(value), value.size(),
             "positions: names no position kind; 'line' assumed");
      bits = pos_line;
      order = {pos_line};
    }
    header_.positions = bits;
    // The spec's order is instr bb line; another written order is kept as written.
    std::vector<std::uint8_t> spec_order;
    for (std::uint8_t k : {pos_instr, pos_bb, pos_line})
      if (bits & k) spec_order.push_back(k);
    header_order_ = order == spec_order ? std::vector<std::uint8_t>{} : order;
    seen_positions_in_header_ = true;
  } else if (key == "events") {
    std::vector<std::string> events;
    std::unordered_set<std::string_view> seen;  // a hostile line may name a million events
    tokenizer tk{v};  // (trimmed: a stray CR at the end is no part of the last name)
    std::string_view tok;
    std::size_t col;
    std::unordered_set<std::string> renamed;
    while (tk.next(tok, col)) {
      if (!renamed.count(std::string(tok)) && seen.insert(tok).second) {
        events.emplace_back(tok);
        continue;
      }
      // A second column of one name is kept apart under a new name: its costs are neither
      // lost nor added to the first column's (which would count them twice on writing).
      std::string alt;
      for (unsigned k = 2;; ++k) {
        alt = std::string(tok) + "#" + std::to_string(k);
        if (!seen.count(alt) && !renamed.count(alt)) break;
      }
      report(severity::error, diag_code::duplicate_event, col_of(tok), tok.size(),
             "duplicate event '" + std::string(tok.substr(0, 40)) + "'; its costs are read as '" +
                 alt.substr(0, 50) + "'");
      events.push_back(alt);
      renamed.insert(std::move(alt));
    }
    if (events.empty()) {
      report(severity::error, diag_code::no_events, col_of(value), 0, "events: names no event");
    }
    if (seen_events_in_header_) {
      report(severity::warning, diag_code::redefined_events, 1, key.size(),
             "events: given twice in one header; the second one is used");
    }
    header_.events = std::move(events);
    seen_events_in_header_ = true;
  } else if (key == "event") {
    // event: NAME [= FORMULA] [: LONG NAME]
    event_definition def;
    std::size_t colon = v.find(':');
    std::string_view head = colon == std::string_view::npos ? v : v.substr(0, colon);
    if (colon != std::string_view::npos) def.long_name = std::string(trim(v.substr(colon + 1)));
    std::size_t eq = head.find('=');
    std::string_view name = trim(head.substr(0, eq));
    if (eq != std::string_view::npos) def.formula = std::string(trim(head.substr(eq + 1)));
    bool bad_name = name.empty() || std::any_of(name.begin(), name.end(), is_space);
    if (bad_name) {
      report(severity::warning, diag_code::bad_event_definition, col_of(value), value.size(),
             "event: needs one event name before '=' or ':'; ignored");
      return;
    }
    def.name = std::string(name);
    if (!def.formula.empty()) {
      // Terms: [+|-] [INT [*]] NAME, joined by + or -.
      std::string_view f = def.formula;
      std::size_t i = 0;
      bool ok = true;
      bool expect_term = true;
      while (i < f.size() && ok) {
        while (i < f.size() && is_space(f[i])) ++i;
        if (i >= f.size()) break;
        if (f[i] == '+' || f[i] == '-') {
          ++i;
          expect_term = true;
          continue;
        }
        if (!expect_term) ok = false;
        while (i < f.size() && is_digit(f[i])) ++i;
        while (i < f.size() && (is_space(f[i]) || f[i] == '*')) ++i;
        std::size_t s = i;
        while (i < f.size() && (std::isalnum(static_cast<unsigned char>(f[i])) || f[i] == '_')) ++i;
        if (i == s) ok = false;
        expect_term = false;
      }
      if (!ok || expect_term) {
        report(severity::warning, diag_code::bad_event_definition, col_of(value), value.size(),
               "event: formula '" + def.formula.substr(0, 60) +
                   "' cannot be read (terms are [N [*]] NAME joined by + or -); formula ignored");
        def.formula.clear();
      }
    }
    auto it = std::find_if(header_.event_definitions.begin(), header_.event_definitions.end(),
                           [&](const event_definition& d) { return d.name == def.name; });
    if (it != header_.event_definitions.end())
      *it = std::move(def);
    else
      header_.event_definitions.push_back(std::move(def));
  }
}

}  // namespace calltree::detail
