// diff_json.cc — the JSON document of `calltree diff --json` (schema: docs/json.md, "diff").
#include <cmath>
#include <limits>

#include "report/diff.h"
#include "report/json.h"

namespace calltree {
namespace detail {
namespace {

// The difference new - old as a JSON integer: exact whenever it fits in a signed 64-bit
// integer (always, unless a cost is above 2^63).
void delta_value(json_writer& w, std::uint64_t o, std::uint64_t n) {
  constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (n >= o) {
    w.value(n - o);
  } else if (o - n <= max) {
    w.value(-static_cast<std::int64_t>(o - n));
  } else {
    w.value(-static_cast<double>(o - n));
  }
}

// Percent change rounded to 4 decimals; null for growth from 0.
void percent_value(json_writer& w, std::uint64_t o, std::uint64_t n) {
  auto p = percent_change(o, n);
  if (!p) {
    w.null();
    return;
  }
  double v = std::round(*p * 10000.0) / 10000.0;
  w.value(v == 0 ? 0.0 : v);
}

void cost_object(json_writer& w, std::uint64_t o, std::uint64_t n) {
  w.begin_object();
  w.key("old").value(o);
  w.key("new").value(n);
  w.key("delta");
  delta_value(w, o, n);
  w.key("percent");
  percent_value(w, o, n);
  w.end_object();
}

// {"Ir":{...},"Dr":{...}} over every compared event.
void costs_by_event(json_writer& w, const diff_result& r, const std::vector<std::uint64_t>& o,
                    const std::vector<std::uint64_t>& n) {
  w.begin_object();
  for (std::size_t e = 0; e < r.events.size(); ++e) {
    w.key(r.events[e]);
    cost_object(w, o[e], n[e]);
  }
  w.end_object();
}

void string_array(json_writer& w, const std::vector<std::string>& v) {
  w.begin_array();
  for (const auto& s : v) w.value(s);
  w.end_array();
}

void key_fields(json_writer& w, const function_key& k) {
  w.key("name").value(k.name);
  w.key("file").value(k.file);
  w.key("object").value(k.object);
}

void input_object(json_writer& w, const diff_input_info& in, std::size_t parts,
                  std::size_t functions) {
  w.begin_object();
  w.key("name").value(in.name);
  w.key("command").value(in.cmd);
  w.key("parts").value(static_cast<std::uint64_t>(parts));
  w.key("functions").value(static_cast<std::uint64_t>(functions));
  w.end_object();
}

void function_costs(json_writer& w, const diff_result& r, const function_diff& f) {
  key_fields(w, f.key);
  w.key("change").value(to_string(f.change));
  w.key("self");
  costs_by_event(w, r, f.self_old, f.self_new);
  w.key("inclusive");
  costs_by_event(w, r, f.inclusive_old, f.inclusive_new);
}

void detail_object(json_writer& w, const diff_result& r, const function_detail& d) {
  const char* pos_name = d.by_instr ? "instr" : "line";
  w.begin_object();
  function_costs(w, r, r.functions[d.function]);
  w.key("positions").value(pos_name);
  w.key("lines").begin_array();
  for (const line_diff& l : d.lines) {
    w.begin_object();
    w.key("file").value(l.file);
    w.key(pos_name).value(l.pos);
    w.key("cost");
    costs_by_event(w, r, l.cost_old, l.cost_new);
    w.end_object();
  }
  w.end_array();
  w.key("calls").begin_array();
  for (const call_site_diff& c : d.calls) {
    w.begin_object();
    w.key("file").value(c.file);
    w.key(pos_name).value(c.pos);
    w.key("callee").begin_object();
    key_fields(w, c.callee);
    w.end_object();
    w.key("count");
    cost_object(w, c.count_old, c.count_new);
    w.key("cost");
    costs_by_event(w, r, c.cost_old, c.cost_new);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace
}  // namespace detail

void write_diff_json(std::ostream& out, const diff_result& r, const diff_selection& selection,
                     const std::vector<function_detail>& details,
                     const diff_report_options& options) {
  using namespace detail;
  std::vector<std::string> shown_names, sort_names;
  if (options.shown_events.empty())
    shown_names = r.events;
  else
    for (std::size_t e : options.shown_events) shown_names.push_back(r.events[e]);
  if (options.ranking.sort_events.empty()) {
    if (!r.events.empty()) sort_names.push_back(r.events.front());
  } else {
    for (event_id e : options.ranking.sort_events) sort_names.push_back(r.events[e.index()]);
  }

  json_writer w;
  w.begin_object();
  w.key("schema").value("calltree-diff");
  w.key("version").value(1);
  w.key("old");
  input_object(w, options.old_input, r.parts_old, r.functions_old);
  w.key("new");
  input_object(w, options.new_input, r.parts_new, r.functions_new);
  w.key("part");
  if (options.part)
    w.value(std::uint64_t{options.part->index()} + 1);
  else
    w.null();
  w.key("events");
  string_array(w, r.events);
  w.key("old_only_events");
  string_array(w, r.old_only_events);
  w.key("new_only_events");
  string_array(w, r.new_only_events);
  w.key("shown_events");
  string_array(w, shown_names);
  w.key("sort_events");
  string_array(w, sort_names);
  w.key("sort_by").value(options.ranking.inclusive ? "inclusive" : "self");
  w.key("threshold").value(options.ranking.threshold_percent);
  w.key("limit").value(static_cast<std::uint64_t>(options.ranking.limit));
  w.key("saturated").value(r.saturated);
  w.key("totals");
  costs_by_event(w, r, r.total_old, r.total_new);
  w.key("counts").begin_object();
  w.key("changed").value(static_cast<std::uint64_t>(r.count(function_change::changed)));
  w.key("unchanged").value(static_cast<std::uint64_t>(r.count(function_change::unchanged)));
  w.key("added").value(static_cast<std::uint64_t>(r.count(function_change::added)));
  w.key("removed").value(static_cast<std::uint64_t>(r.count(function_change::removed)));
  w.key("listed").value(static_cast<std::uint64_t>(selection.listed.size()));
  w.key("below_threshold").value(static_cast<std::uint64_t>(selection.below_threshold));
  w.key("beyond_limit").value(static_cast<std::uint64_t>(selection.beyond_limit));
  w.end_object();

  w.key("functions").begin_array();
  for (function_diff_id i : selection.listed) {
    w.begin_object();
    function_costs(w, r, r.functions[i]);
    w.end_object();
  }
  w.end_array();

  w.key("details").begin_array();
  for (const auto& d : details) detail_object(w, r, d);
  w.end_array();

  w.key("gate");
  if (options.gate) {
    const diff_gate& g = *options.gate;
    w.begin_object();
    w.key("percent").value(g.percent);
    w.key("event").value(r.events[g.event.index()]);
    w.key("per_function").value(g.per_function);
    w.key("passed").value(options.gate_failures.empty());
    w.key("failures").begin_array();
    for (const gate_failure& f : options.gate_failures) {
      w.begin_object();
      w.key("function");
      if (f.function) {
        w.begin_object();
        key_fields(w, r.functions[*f.function].key);
        w.end_object();
      } else {
        w.null();
      }
      w.key("event").value(r.events[f.event.index()]);
      w.key("old").value(f.old_value);
      w.key("new").value(f.new_value);
      w.key("delta");
      delta_value(w, f.old_value, f.new_value);
      w.key("percent");
      percent_value(w, f.old_value, f.new_value);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  } else {
    w.null();
  }
  w.end_object();
  out << w.str() << '\n';
}

}  // namespace calltree
