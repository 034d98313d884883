// history/trend_report.h — (internal) `calltree trend`'s outputs: text, Markdown, CSV, JSON.
//
// What it is: the runs oldest first (index, time, file, program total of each event), then the
// change points, each event's program total first, then the biggest steps first; the same
// facts in each format (JSON schema: docs/json.md, "trend"). The gate's verdict is passed in
// and written last. What it is not: the trend (history/trend.h) nor the CLI (no exit codes).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "history/trend.h"
#include "report/json.h"

namespace calltree::history {

struct trend_report_options {
  std::string order;  // "time" or "name": how the runs were ordered
  double threshold_percent = 1;
  std::size_t limit = 0;  // changes shown in text and Markdown (0: all)
  std::optional<trend_gate> gate;
  std::vector<trend_gate_failure> gate_failures;
};

// "2026-11-27 09:12:03" (UTC) of a modification time.
std::string time_text(std::int64_t mtime_ns);
// "2026-11-27T09:12:03Z".
std::string time_iso(std::int64_t mtime_ns);

void write_trend_text(std::ostream& out, const trend_result& r, const trend_report_options& o);
void write_trend_markdown(std::ostream& out, const trend_result& r, const trend_report_options& o);
// One line per change:
// run,file,time,event,kind,function,object,source_file,before,after,delta_percent
void write_trend_csv(std::ostream& out, const trend_result& r, const trend_report_options& o);
void write_trend_json(std::ostream& out, const trend_result& r, const trend_report_options& o);
// One item of the JSON's "changes" (the server's too): function, file, object (null for the
// program total), run, run_file, event, kind (self, inclusive, or total), before, after,
// delta_percent (null: from 0).
void write_change_json(json_writer& j, const trend_result& r, const trend_change& c);

}  // namespace calltree::history
