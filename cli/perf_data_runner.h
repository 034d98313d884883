// perf_data_runner.h — lets the library's importer read a perf.data file, by running `perf
// script` on it (perf_data_runner.cc); the command line calls this once at its start.
#pragma once

namespace calltree::cli {

void install_perf_data_runner();

}  // namespace calltree::cli
