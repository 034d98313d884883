// diff_markdown.cc — `calltree diff --format=markdown`: the diff as a Markdown table that
// GitHub and GitLab render (a pull request's comment, $GITHUB_STEP_SUMMARY). See report/diff.h.
//
// The program totals of the shown events first, then the functions that changed most (the
// selection's order: absolute change of the first sort event), self and inclusive cost of
// that event, old, new, signed delta and percentage; names shortened (report/short_name.h),
// the object's base name after them. At most `markdown_rows` functions (the rest counted).
// The line after them gives the command that lists every changed function. The gate's
// verdict, when --fail-above was given, last.
#include <cstdio>

#include "report/diff.h"
#include "report/short_name.h"

namespace calltree {

namespace {

std::string base_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// (appended one by one: GCC 12 at -O3 takes `" " + std::string&&` for an overlapping copy,
// a false -Wrestrict)
std::string cells(std::uint64_t o, std::uint64_t n) {
  std::string s(" ");
  s += with_thousands(o);
  s += " | ";
  s += with_thousands(n);
  s += " | ";
  s += signed_delta(o, n);
  s += " | ";
  s += percent_text(o, n);
  s += " |";
  return s;
}

// A path as a shell word: as it is when it needs no quoting, else in single quotes.
std::string shell_word(std::string_view s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789_./+-=:,@%") == std::string_view::npos;
  if (plain) return std::string(s);
  std::string q("'");
  for (char ch : s) {
    if (ch == '\'')
      q += "'\\''";
    else
      q += ch;
  }
  q += '\'';
  return q;
}

std::string function_cell(const function_key& k) {
  std::string s = markdown_code(short_name(k.name));
  if (!k.object.empty()) s += " · " + markdown_code(base_name(k.object));
  return s;
}

}  // namespace

void write_diff_markdown(std::ostream& out, const diff_result& r, const diff_selection& selection,
                         const diff_report_options& options) {
  std::vector<std::size_t> events = options.shown_events;
  if (events.empty())
    for (std::size_t e = 0; e < r.events.size(); ++e) events.push_back(e);
  const std::size_t sort_event =
      options.ranking.sort_events.empty() ? 0 : options.ranking.sort_events.front().index();

  out << "### calltree diff: " << markdown_code(base_name(options.old_input.name)) << " → "
      << markdown_code(base_name(options.new_input.name)) << "\n\n";
  out << "| Program total | Old | New | Δ | Δ % |\n|---|---:|---:|---:|---:|\n";
  for (std::size_t e : events)
    out << "| " << markdown_code(r.events[e]) << " |" << cells(r.total_old[e], r.total_new[e])
        << '\n';

  const std::size_t changed = r.count(function_change::changed) + r.count(function_change::added) +
                              r.count(function_change::removed);
  const std::size_t shown = std::min(selection.listed.size(), markdown_rows);
  out << '\n';
  if (selection.listed.empty()) {
    out << (changed ? "No function changed by the threshold or more.\n" : "No function changed.\n");
  } else {
    const std::string ev = r.events[sort_event];
    out << "**Functions that changed most** (" << ev << ", by "
        << (options.ranking.inclusive ? "inclusive" : "self") << " cost; " << shown << " of "
        << changed << " changed)\n\n";
    out << "| Function | Self old | Self new | Self Δ | Self Δ % | Incl. old | Incl. new | Incl. Δ "
           "| Incl. Δ % |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (std::size_t i = 0; i < shown; ++i) {
      const function_diff& f = r.functions[selection.listed[i]];
      out << "| " << function_cell(f.key)
          << (f.change == function_change::added     ? " (added)"
              : f.change == function_change::removed ? " (removed)"
                                                     : "")
          << " |" << cells(f.self_old[sort_event], f.self_new[sort_event])
          << cells(f.inclusive_old[sort_event], f.inclusive_new[sort_event]) << '\n';
    }
    const std::size_t more =
        selection.listed.size() - shown + selection.below_threshold + selection.beyond_limit;
    // (Plain `calltree diff` would not: it lists by --threshold=0.1 too. --threshold=0, and
    // no --limit, lists every changed function.)
    if (more) {
      std::string command("calltree diff --threshold=0 ");
      command += shell_word(options.old_input.name);
      command += ' ';
      command += shell_word(options.new_input.name);
      out << "\n"
          << more << " more changed function" << (more == 1 ? "" : "s") << ": "
          << markdown_code(command) << " lists every changed function.\n";
    }
  }
  if (options.gate) {
    char pct[64];
    std::snprintf(pct, sizeof pct, "%g", options.gate->percent);
    out << '\n';
    if (options.gate_failures.empty()) {
      out << "✅ **Gate passed**: " << r.events[options.gate->event.index()] << " grew by no more than "
          << pct << "%.\n";
    } else {
      out << "❌ **Gate failed** (above " << pct << "% growth):\n\n";
      for (const auto& g : options.gate_failures)
        out << "- " << (g.function ? function_cell(r.functions[*g.function].key) : "program total")
            << ": " << r.events[g.event.index()] << ' ' << with_thousands(g.old_value) << " → "
            << with_thousands(g.new_value) << " (" << percent_text(g.old_value, g.new_value)
            << ")\n";
    }
  }
}

}  // namespace calltree
