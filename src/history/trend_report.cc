// trend_report.cc — `calltree trend`'s outputs (see history/trend_report.h).
#include "history/trend_report.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

#include "report/diff.h"
#include "report/json.h"
#include "report/short_name.h"

namespace calltree::history {

namespace {

std::string format_time(std::int64_t mtime_ns, const char* fmt) {
  const std::time_t t = static_cast<std::time_t>(mtime_ns / 1000000000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, fmt, &tm);
  return buf;
}

std::uint64_t whole(double v) { return v <= 0 ? 0 : static_cast<std::uint64_t>(std::llround(v)); }

std::string percent_of(const trend_change& c) {
  if (!c.percent) return "new";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.2f%%", *c.percent);
  return buf;
}

std::string base_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string label(const trend_result& r, const trend_change& c) {
  if (!c.function) return "program total";
  const trend_function& f = r.functions[*c.function];
  std::string s = f.name;
  if (!f.object.empty()) s += " [" + f.object + "]";
  return s;
}

std::string kind_of(const trend_change& c) {
  return !c.function ? "total" : c.inclusive ? "inclusive" : "self";
}

std::size_t shown(const trend_result& r, const trend_report_options& o) {
  return o.limit ? std::min(o.limit, r.changes.size()) : r.changes.size();
}

std::string detectors(const trend_result& r) {
  std::string s;
  for (std::size_t e = 0; e < r.events.size(); ++e)
    s += (e ? ", " : "") + r.events[e] + " (" +
         (r.detectors[e] == detector::exact ? "exact" : "robust") + " detector)";
  return s;
}

std::string pct(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The Markdown name of each function a table or the gate's list shows: its short name, and
// where another function shown has the same one (`(below main)` of ld.so and of libc), the
// object's base name after it, and the file's where those are the same too.
class markdown_names {
 public:
  markdown_names(const trend_result& r, const trend_report_options& o, std::size_t rows) {
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < rows; ++i)
      if (r.changes[i].function) shown.push_back(*r.changes[i].function);
    for (const auto& g : o.gate_failures)
      if (g.function) shown.push_back(*g.function);
    std::map<std::string, std::set<std::size_t>> by_name;
    std::map<std::string, std::set<std::size_t>> by_name_and_object;
    for (std::size_t f : shown) {
      by_name[short_name(r.functions[f].name)].insert(f);
      by_name_and_object[short_name(r.functions[f].name) + '\0' + base_name(r.functions[f].object)]
          .insert(f);
    }
    for (std::size_t f : shown) {
      const trend_function& fn = r.functions[f];
      const std::string name = short_name(fn.name);
      std::string cell = markdown_code(name);
      if (by_name[name].size() > 1) {
        if (!fn.object.empty()) cell += " · " + markdown_code(base_name(fn.object));
        if (by_name_and_object[name + '\0' + base_name(fn.object)].size() > 1 && !fn.file.empty())
          cell += " · " + markdown_code(base_name(fn.file));
      }
      cells_[f] = cell;
    }
  }
  const std::string& of(std::size_t f) const { return cells_.at(f); }

 private:
  std::map<std::size_t, std::string> cells_;
};

void gate_lines(std::ostream& out, const trend_result& r, const trend_report_options& o,
                const markdown_names* markdown) {
  if (!o.gate) return;
  const std::string ev = r.events[o.gate->event];
  out << '\n';
  if (o.gate_failures.empty()) {
    out << (markdown ? "✅ **Gate passed**: " : "Gate: passed: ") << "the last run's " << ev
        << " grew by no more than " << pct(o.gate->percent) << "%"
        << (o.gate->per_function ? " (program total and each function)" : "") << ".\n";
    return;
  }
  out << (markdown ? "❌ **Gate failed**" : "Gate: FAILED") << " (the last run, above "
      << pct(o.gate->percent) << "% growth of " << ev << "):\n";
  if (markdown) out << '\n';
  for (const auto& g : o.gate_failures) {
    trend_change c{g.function, r.runs.size() - 1, o.gate->event, g.inclusive,
                   g.before,   g.after,           g.percent};
    out << (markdown ? "- " : "  ")
        << (markdown && g.function ? markdown->of(*g.function) : label(r, c))
        << (g.function ? (g.inclusive ? " (inclusive)" : " (self)") : "") << ": "
        << with_thousands(whole(g.before)) << " -> " << with_thousands(whole(g.after)) << " ("
        << percent_of(c) << ")\n";
  }
}

void csv_field(std::ostream& out, std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) {
    out << s;
    return;
  }
  out << '"';
  for (char ch : s) {
    if (ch == '"') out << '"';
    out << ch;
  }
  out << '"';
}

}  // namespace

std::string time_text(std::int64_t mtime_ns) { return format_time(mtime_ns, "%Y-%m-%d %H:%M:%S"); }
std::string time_iso(std::int64_t mtime_ns) { return format_time(mtime_ns, "%Y-%m-%dT%H:%M:%SZ"); }

void write_trend_text(std::ostream& out, const trend_result& r, const trend_report_options& o) {
  out << "Runs:       " << r.runs.size() << ", oldest first (by " << o.order << ")\n";
  out << "Events:     " << detectors(r) << '\n';
  out << "Threshold:  " << pct(o.threshold_percent) << "%\n";
  for (const auto& l : r.left_out) out << "Left out:   " << l << '\n';
  out << '\n';
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    char idx[32];
    std::snprintf(idx, sizeof idx, "%4zu", i + 1);  // (numbered from 1, as the page)
    out << idx << "  " << time_text(r.runs[i].mtime_ns);
    for (std::size_t e = 0; e < r.events.size(); ++e) {
      std::string v = with_thousands(r.runs[i].total[e]);
      out << "  " << std::string(v.size() < 16 ? 16 - v.size() : 0, ' ') << v << ' ' << r.events[e];
    }
    out << "  " << r.runs[i].file << '\n';
  }
  out << '\n';
  const std::size_t n = shown(r, o);
  if (r.changes.empty()) {
    out << "No change of " << pct(o.threshold_percent) << "% or more.\n";
  } else {
    out << "Changes: " << r.changes.size()
        << (n < r.changes.size() ? ", " + std::to_string(n) + " shown" : "")
        << " (each event's program total first, then the biggest steps)\n";
    for (std::size_t i = 0; i < n; ++i) {
      const trend_change& c = r.changes[i];
      char head[64];
      std::snprintf(head, sizeof head, "  run %3zu  %-9s", c.run + 1, kind_of(c).c_str());
      std::string before = with_thousands(whole(c.before)), after = with_thousands(whole(c.after));
      out << head << ' ' << r.events[c.event] << ' ' << before << " -> " << after << " ("
          << percent_of(c) << ")  " << label(r, c) << "  [" << base_name(r.runs[c.run].file)
          << "]\n";
    }
  }
  gate_lines(out, r, o, nullptr);
}

void write_trend_markdown(std::ostream& out, const trend_result& r, const trend_report_options& o) {
  out << "### calltree trend: " << r.runs.size() << (r.runs.size() == 1 ? " run" : " runs")
      << "\n\n";
  out << "| Run | File | Time (UTC) |";
  for (const auto& e : r.events) out << ' ' << markdown_code(e) << " |";
  out << "\n|---:|---|---|";
  for (std::size_t e = 0; e < r.events.size(); ++e) out << "---:|";
  out << '\n';
  // (A long history: its first run and the last ten.)
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    if (r.runs.size() > 12 && i > 0 && i + 10 < r.runs.size()) {
      if (i == 1)
        out << "| … | " << r.runs.size() - 11 << " runs | | "
            << std::string(r.events.size() * 2, ' ') << "|\n";
      continue;
    }
    out << "| " << i + 1 << " | " << markdown_code(base_name(r.runs[i].file)) << " | "
        << time_text(r.runs[i].mtime_ns) << " |";
    for (std::size_t e = 0; e < r.events.size(); ++e)
      out << ' ' << with_thousands(r.runs[i].total[e]) << " |";
    out << '\n';
  }
  out << '\n';
  const std::size_t n = shown(r, o);
  const markdown_names names(r, o, n);
  if (r.changes.empty()) {
    out << "No change of " << pct(o.threshold_percent) << "% or more.\n";
  } else {
    out << "**Changes** (" << n << " of " << r.changes.size() << "; " << detectors(r)
        << ", threshold " << pct(o.threshold_percent) << "%)\n\n";
    out << "| Run | Function | Event | Kind | Before | After | Δ % |\n"
           "|---:|---|---|---|---:|---:|---:|\n";
    for (std::size_t i = 0; i < n; ++i) {
      const trend_change& c = r.changes[i];
      std::string fn = c.function ? names.of(*c.function) : std::string("**program total**");
      out << "| " << c.run + 1 << " " << markdown_code(base_name(r.runs[c.run].file)) << " | " << fn
          << " | " << markdown_code(r.events[c.event]) << " | " << kind_of(c) << " | "
          << with_thousands(whole(c.before)) << " | " << with_thousands(whole(c.after)) << " | "
          << percent_of(c) << " |\n";
    }
  }
  gate_lines(out, r, o, &names);
}

void write_trend_csv(std::ostream& out, const trend_result& r, const trend_report_options&) {
  out << "run,file,time,event,kind,function,object,source_file,before,after,delta_percent\n";
  for (const trend_change& c : r.changes) {
    out << c.run << ',';
    csv_field(out, r.runs[c.run].file);
    out << ',' << time_iso(r.runs[c.run].mtime_ns) << ',';
    csv_field(out, r.events[c.event]);
    out << ',' << kind_of(c) << ',';
    if (c.function) {
      const trend_function& f = r.functions[*c.function];
      csv_field(out, f.name);
      out << ',';
      csv_field(out, f.object);
      out << ',';
      csv_field(out, f.file);
    } else {
      out << ",,";
    }
    out << ',' << whole(c.before) << ',' << whole(c.after) << ',';
    if (c.percent) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.4f", *c.percent);
      out << buf;
    }
    out << '\n';
  }
}

void write_trend_json(std::ostream& out, const trend_result& r, const trend_report_options& o) {
  json_writer j;
  j.begin_object();
  j.key("schema").value("calltree-trend");
  j.key("version").value(1);
  j.key("order").value(o.order);
  j.key("threshold_percent").value(o.threshold_percent);
  j.key("events").begin_array();
  for (const auto& e : r.events) j.value(e);
  j.end_array();
  j.key("detectors").begin_object();
  for (std::size_t e = 0; e < r.events.size(); ++e)
    j.key(r.events[e]).value(r.detectors[e] == detector::exact ? "exact" : "robust");
  j.end_object();
  j.key("runs").begin_array();
  for (const auto& run : r.runs) {
    j.begin_object();
    j.key("file").value(run.file);
    j.key("time").value(time_iso(run.mtime_ns));
    j.key("mtime_ns").value(run.mtime_ns);
    j.key("total").begin_object();
    for (std::size_t e = 0; e < r.events.size(); ++e) j.key(r.events[e]).value(run.total[e]);
    j.end_object();
    j.end_object();
  }
  j.end_array();
  j.key("left_out").begin_array();
  for (const auto& l : r.left_out) j.value(l);
  j.end_array();
  j.key("changes").begin_array();
  for (const trend_change& c : r.changes) write_change_json(j, r, c);
  j.end_array();
  if (o.gate) {
    j.key("gate").begin_object();
    j.key("percent").value(o.gate->percent);
    j.key("event").value(r.events[o.gate->event]);
    j.key("per_function").value(o.gate->per_function);
    j.key("passed").value(o.gate_failures.empty());
    j.key("failures").begin_array();
    for (const auto& g : o.gate_failures) {
      j.begin_object();
      j.key("function");
      g.function ? j.value(r.functions[*g.function].name) : j.null();
      j.key("kind").value(!g.function ? "total" : g.inclusive ? "inclusive" : "self");
      j.key("before").value(whole(g.before));
      j.key("after").value(whole(g.after));
      j.key("delta_percent");
      g.percent ? j.value(*g.percent) : j.null();
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_object();
  out << j.str() << '\n';
}

void write_change_json(json_writer& j, const trend_result& r, const trend_change& c) {
  j.begin_object();
  j.key("function");
  c.function ? j.value(r.functions[*c.function].name) : j.null();
  j.key("file");
  c.function ? j.value(r.functions[*c.function].file) : j.null();
  j.key("object");
  c.function ? j.value(r.functions[*c.function].object) : j.null();
  j.key("run").value(static_cast<std::uint64_t>(c.run));
  j.key("run_file").value(r.runs[c.run].file);
  j.key("event").value(r.events[c.event]);
  j.key("kind").value(kind_of(c));
  j.key("before").value(whole(c.before));
  j.key("after").value(whole(c.after));
  j.key("delta_percent");
  c.percent ? j.value(*c.percent) : j.null();
  j.end_object();
}

}  // namespace calltree::history
