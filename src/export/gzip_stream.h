// export/gzip_stream.h — (internal) one gzip member written into a sink, its deflate done on
// several threads.
//
// The bytes are cut into blocks of a fixed size (1 MiB: where a block ends depends on the
// byte count only, never on how write() was called or on the threads' timing, so the output is
// the same for any thread count). Each block is deflated on its own thread with the previous
// block's last 32 KiB as its dictionary (matches reach back across the cut as in one stream),
// and ended by a sync flush (an empty stored block: the next block starts on a byte boundary);
// the last one ends the stream. Their concatenation is one raw deflate stream; the CRC-32 of
// the whole is combined from the blocks' (crc32_combine). This is how pigz writes gzip: one
// member that every gzip reader reads, not a concatenation of members (which some readers
// stop after the first of). The sink is called on the caller's thread only, in order.
//
// threads = 1 deflates each block on the caller's thread when it is full; with more, at most
// 2 x threads blocks are in flight (memory: that many MiB in and out). A thread that cannot
// be started deflates on the caller's thread instead. Level 1 (pprof files are read once, by
// a parser that wants them soon) of ISA-L's igzip when the build found it (Debian's
// libisal-dev: 3.5x zlib's speed), else of zlib; the bytes differ between the two, never
// between thread counts.
#pragma once

#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <string>
#include <string_view>

#include "calltree/result.h"
#include "export/export.h"

namespace calltree::exporting {

enum class gzip_engine : std::uint8_t { zlib, isal };

class gzip_stream {
 public:
  static constexpr std::size_t block_size = std::size_t{1} << 20;

  // ISA-L's when the build has it, else zlib's; whether the build has an engine.
  static gzip_engine best_engine();
  static bool has(gzip_engine engine);

  gzip_stream(const export_sink& out, unsigned threads, gzip_engine engine = best_engine());
  ~gzip_stream();
  gzip_stream(const gzip_stream&) = delete;
  gzip_stream& operator=(const gzip_stream&) = delete;

  void write(std::string_view data);
  // Deflates what is left, waits for every block, writes the trailer. An error if deflate failed
  // on any block (what was written to the sink is then not a gzip file: the caller discards it).
  status finish();

  struct deflated {
    std::string bytes;
    std::uint32_t crc = 0;
    std::size_t size = 0;  // of the input
    bool ok = false;
  };

 private:
  void submit(bool last);
  void drain(std::size_t keep);

  const export_sink& out_;
  std::size_t in_flight_;
  gzip_engine engine_;
  std::shared_ptr<const std::string> previous_;  // the last submitted block (its tail: the next's dictionary)
  std::string block_;
  std::deque<std::future<deflated>> pending_;
  std::uint32_t crc_ = 0;
  std::uint64_t size_ = 0;
  bool ok_ = true;
  bool finished_ = false;
};

}  // namespace calltree::exporting
