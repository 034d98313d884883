// decode_ahead.h — runs an input's decoder on a thread of its own, a few blocks ahead.
//
// What it is: an `input` over another one (not owned) whose next() hands out blocks that a
// second thread already decoded, so decompression (gzip ~250 MB/s, zstd ~1 GB/s on one core)
// overlaps with parsing on the other core. The blocks, their order and every error are the
// inner input's own, so whatever reads them gets the same result as reading the inner input.
// What it is not: a parser split across threads; only the bytes come from elsewhere. Used for
// gzip, xz and bzip2 (slower than one core parses), and for zstd when the sinks take a record
// per line (convert, merge, annotate with source lines); otherwise zstd input is decoded into
// the parallel path's chunks (chunk_feed.h).
#pragma once

#include <memory>

#include "calltree/input.h"

namespace calltree::detail {

// `inner` must outlive the returned input.
std::unique_ptr<input> decode_ahead(input& inner);

}  // namespace calltree::detail
