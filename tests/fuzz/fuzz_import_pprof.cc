// fuzz_import_pprof.cc — libFuzzer target: the pprof (profile.proto) importer on arbitrary bytes,
// its profile converted and read back (fuzz_import.h).
#define CALLTREE_FUZZ_IMPORT_FORMAT pprof
#include "fuzz_import.h"
