// fuzz_import_perf.cc — libFuzzer target: the `perf script` text importer on arbitrary bytes, its
// profile converted and read back (fuzz_import.h).
#define CALLTREE_FUZZ_IMPORT_FORMAT perf_script
#include "fuzz_import.h"
