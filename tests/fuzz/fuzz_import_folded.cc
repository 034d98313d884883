// fuzz_import_folded.cc — libFuzzer target: the folded stacks importer on arbitrary bytes, its
// profile converted and read back (fuzz_import.h).
#define CALLTREE_FUZZ_IMPORT_FORMAT folded
#include "fuzz_import.h"
