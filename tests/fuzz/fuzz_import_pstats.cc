// fuzz_import_pstats.cc — libFuzzer target: the cProfile pstats importer on arbitrary bytes, its
// profile converted and read back (fuzz_import.h).
#define CALLTREE_FUZZ_IMPORT_FORMAT pstats
#include "fuzz_import.h"
