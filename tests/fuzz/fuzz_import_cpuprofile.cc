// fuzz_import_cpuprofile.cc — libFuzzer target: the V8 .cpuprofile importer on arbitrary bytes, its
// profile converted and read back (fuzz_import.h).
#define CALLTREE_FUZZ_IMPORT_FORMAT cpuprofile
#include "fuzz_import.h"
