// calltree.h — the whole public API of the calltree library in one include.
//
//   #include <calltree/calltree.h>
//
//   auto loaded = calltree::load(argv[1]);   // result<loaded_profile>: load.h
//   if (!loaded) return fail(loaded.error());
//   const calltree::profile& p = loaded->profile;
//
// Each header it includes is one part of the API (share/doc/calltree/library.md lists them,
// one line each); a program may include those alone instead. calltree needs C++20: below it,
// the first line of the compiler's output says so (export.h).
#pragma once

#include "calltree/export.h"  // (first: the C++20 check)

#include "calltree/version.h"

#include "calltree/cost_matrix.h"
#include "calltree/diagnostic.h"
#include "calltree/id.h"
#include "calltree/input.h"
#include "calltree/load.h"
#include "calltree/memory_limit.h"
#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "calltree/result.h"
#include "calltree/string_pool.h"
#include "calltree/folded.h"
#include "calltree/writer.h"
#include "calltree/checker.h"
#include "calltree/totals.h"
#include "calltree/asm.h"
#include "calltree/cfg.h"

#include "calltree/analysis/call_path_transforms.h"
#include "calltree/analysis/call_paths.h"
#include "calltree/analysis/callers.h"
#include "calltree/analysis/coverage.h"
#include "calltree/analysis/derived_events.h"
#include "calltree/analysis/diff.h"
#include "calltree/analysis/diff_match.h"
#include "calltree/analysis/difference.h"
#include "calltree/analysis/inclusive.h"
#include "calltree/analysis/merge.h"
