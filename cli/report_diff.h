// report_diff.h — `calltree report --html OLD NEW -o diff.html`: the diff page of `calltree serve
// OLD NEW` as one file, with the verdict of `calltree diff --fail-above` at its top.
//
// What it is: the diff mode's answers (the matched function list, its groups, each listed
// function's views on each side, the program's flame graph coloured by change) asked of the
// serve API in-process and written into serve's page as report_page.h makes it, so that it
// opens from disk for a pull request's CI; and the gate, so that one CI step both gates and
// attaches the page. What it is not: calltree diff's rewrites (--mod-funcname...), which
// serve OLD NEW does not have either. docs/serve.md, "calltree report --html".
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace calltree::cli {

struct diff_report_args {
  std::string old_path, new_path, out_path;
  double threshold = 0.001;          // of the inclusive cost, a fraction of the total
  std::optional<std::string> event;  // --event: the threshold's, graphs' and flames' event
  bool no_source = false;
  std::vector<std::string> include;                               // -I, as include_dir() made
  std::vector<std::pair<std::string, std::string>> source_roots;  // --source-root OLD=NEW
  // --fail-above=PCT[:EVENT] (parsed: its syntax checked; the event checked once read).
  std::optional<double> gate_percent;
  std::string gate_event;  // empty: the first compared event, as calltree diff's
};

// Reads OLD and NEW, writes the page (or nothing) and returns the exit status: 0 written, 1 a
// profile cannot be read, or the page written and the gate failed or an input has errors (as
// calltree diff exits), 2 a usage or I/O error. Prints what went wrong on stderr.
int write_diff_report(const diff_report_args& args);

}  // namespace calltree::cli
