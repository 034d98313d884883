// corpus_case_names.h — the short case name of each corpus file (tests/corpus) in the names of
// parameterised tests: one per file stem, naming the program and what sets the file apart, not
// every option of its stem, so that ctest's lines fit a terminal. A file not listed here (one
// added to the corpus later) is named by its whole stem.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace calltree {

inline std::string corpus_case_name(std::string_view file_name) {
  std::string_view stem = file_name;
  for (std::string_view ext : {".gz", ".callgrind", ".cachegrind"})
    if (stem.size() > ext.size() && stem.substr(stem.size() - ext.size()) == ext)
      stem.remove_suffix(ext.size());
  static constexpr struct {
    std::string_view stem, name;
  } names[] = {
      {"cachegrind-recurse", "cachegrind_recurse"},
      {"dprof2calltree-work", "dprof2calltree"},
      {"go-pprof-gowork-cpu", "go_pprof"},
      {"gperftools-phases-cpu", "gperf_phases"},
      {"gperftools-python-heap-alloc-space", "gperf_pyheap"},
      {"gperftools-recurse-cpu", "gperf_recurse"},
      {"nytprofcg-work", "nytprofcg"},
      {"pprofile-work-deterministic", "pprofile_determ"},
      {"pprofile-work-statistic", "pprofile_stat"},
      {"pyprof2calltree-work", "pyprof2calltree"},
      {"ruby-prof-work", "ruby_prof"},
      {"vg-clientreq-instr-atstart-no-combined", "clientreq"},
      {"vg-gxx-big-instr-jumps.cc1plus", "gxx_big_cc1plus"},
      {"vg-gxx-small-default.as", "gxx_small_as"},
      {"vg-gxx-small-default.cc1plus", "gxx_small_cc1plus"},
      {"vg-gxx-small-default.g++", "gxx_small_gxx"},
      {"vg-gzip-dump-every-bb-combined", "gzip_parts"},
      {"vg-ls-R-nocompress", "ls_nocompress"},
      {"vg-perl-work-systime", "perl_systime"},
      {"vg-phases-dump-before-zero-combined", "phases_parts"},
      {"vg-phases-instr-jumps-nocompress-pos", "phases_jumps"},
      {"vg-phases-toggle-collect", "phases_toggle"},
      {"vg-python-work-instr-jumps", "python_jumps"},
      {"vg-recurse-cacheuse", "recurse_cacheuse"},
      {"vg-recurse-default", "recurse"},
      {"vg-recurse-noline", "recurse_noline"},
      {"vg-recurse-separate-recs-callers", "recurse_recs"},
      {"vg-sort-instr-noline", "sort_instr"},
      {"vg-sqlite3-workload-cache-branch-sim", "sqlite3_sim"},
      {"vg-threads-collect-bus", "threads_bus"},
      {"vg-threads-separate-combined", "threads_parts"},
      {"vg-wordfreq-cxx-O2g-default", "wordfreq"},
  };
  for (const auto& n : names)
    if (n.stem == stem) return std::string(n.name);
  // vg-threads-separate.t01 ... t05 (one file per thread), xdebug-*, and any file not listed.
  std::string s(stem);
  if (s.starts_with("vg-threads-separate.")) s = "threads_" + s.substr(20);
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

}  // namespace calltree
