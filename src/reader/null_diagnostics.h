// reader/null_diagnostics.h — (internal) a diagnostic sink that keeps and counts nothing.
//
// For a reading whose diagnostics are not wanted: a speculative reading (which stops at the
// first, never sending it), or a view's reading again of a file whose diagnostics were shown
// when it was first read (machine code, pprof's addresses).
#pragma once

#include "calltree/diagnostic.h"

namespace calltree::detail {

class null_diagnostics final : public diagnostic_sink {
 public:
  void report(diagnostic) override {}
  bool wants(diag_code) const override { return false; }
};

}  // namespace calltree::detail
