// export/formats.h — (internal) one writer per export format (export.h dispatches to them).
#pragma once

#include <cstdint>
#include <vector>

#include "export/export.h"

namespace calltree::exporting {

result<export_report> write_pprof(const views::session& s, const export_options& o,
                                  const export_sink& out);
result<export_report> write_folded(const views::session& s, const export_options& o,
                                   const export_sink& out);
result<export_report> write_speedscope(const views::session& s, const export_options& o,
                                       const export_sink& out);
result<export_report> write_chrome(const views::session& s, const export_options& o,
                                   const export_sink& out);
result<export_report> write_dot(const views::session& s, const export_options& o,
                                const export_sink& out);
result<export_report> write_flamegraph(const views::session& s, const export_options& o,
                                       const export_sink& out);

// The parts a per-part format writes one profile for: each part of `o.parts` (every part
// when none is chosen), or one selection of all for a file of one part. Each selection is a
// list of 0-based parts as views::session::costs_of takes it.
std::vector<std::vector<std::uint32_t>> part_selections(const views::session& s,
                                                        const export_options& o);

// Buffers a sink's small pieces into large ones; flush() after the last. (Not flushed when it
// goes: a sink that throws, as when memory runs out, would end the process from a destructor;
// and the output of a writing cut short by an error or an exception is not wanted.)
class buffered_sink {
 public:
  explicit buffered_sink(const export_sink& out) : out_(out) {}
  std::string& buf() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= (1u << 16)) flush();
  }
  void flush() {
    if (!buf_.empty()) out_(buf_);
    buf_.clear();
  }

 private:
  const export_sink& out_;
  std::string buf_;
};

}  // namespace calltree::exporting
