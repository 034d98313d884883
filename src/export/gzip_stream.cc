// export/gzip_stream.cc — gzip deflated block by block on several threads (see gzip_stream.h).
#include "export/gzip_stream.h"

#include <zlib.h>
#if CALLTREE_HAVE_ISAL
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <system_error>
#include <utility>
#include <vector>

namespace calltree::exporting {

namespace {

constexpr std::size_t window = std::size_t{1} << 15;  // deflate's 32 KiB of history

#if CALLTREE_HAVE_ISAL
// By ISA-L's igzip at its level 1 (Intel's deflate for storage: on the real profile's 107 MB
// proto 0.09 s where zlib's level 1 took 0.32 s, and 0.7 % smaller); the CRC by its
// crc32_gzip_refl, gzip's CRC-32.
gzip_stream::deflated deflate_block_isal(const std::shared_ptr<const std::string>& in,
                                    const std::shared_ptr<const std::string>& before, bool last) {
  gzip_stream::deflated d;
  d.size = in->size();
  auto* const data = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in->data()));
  d.crc = crc32_gzip_refl(0, data, in->size());
  // (thread_local: a thread deflates many blocks, and so reuses its 300 KB of tables)
  thread_local std::vector<std::uint8_t> level_buf(ISAL_DEF_LVL1_DEFAULT);
  isal_zstream z;
  isal_deflate_init(&z);
  z.level = 1;
  z.level_buf = level_buf.data();
  z.level_buf_size = static_cast<std::uint32_t>(level_buf.size());
  z.flush = last ? NO_FLUSH : SYNC_FLUSH;
  z.end_of_stream = last ? 1 : 0;
  bool ok = true;
  if (before && !before->empty()) {
    const std::size_t n = std::min(before->size(), window);
    auto* const dict =
        reinterpret_cast<std::uint8_t*>(const_cast<char*>(before->data() + before->size() - n));
    ok = isal_deflate_set_dict(&z, dict, static_cast<std::uint32_t>(n)) == COMP_OK;
  }
  z.next_in = data;
  z.avail_in = static_cast<std::uint32_t>(in->size());
  // (a stored block's worst case is the input and 5 bytes per 64 KiB; more is made if needed)
  d.bytes.resize(in->size() + in->size() / 16 + 1024);
  std::size_t used = 0;
  for (int stalls = 0; ok;) {
    z.next_out = reinterpret_cast<std::uint8_t*>(d.bytes.data() + used);
    z.avail_out = static_cast<std::uint32_t>(d.bytes.size() - used);
    ok = isal_deflate(&z) == COMP_OK;
    used = d.bytes.size() - z.avail_out;
    // Done: the stream's end written, or all input in and the flush's empty block written.
    if (last ? z.internal_state.state == ZSTATE_END
             : z.avail_in == 0 && z.internal_state.state == ZSTATE_NEW_HDR)
      break;
    if (z.avail_out == 0) {
      d.bytes.resize(d.bytes.size() * 2);
      stalls = 0;
    } else if (++stalls > 2) {
      ok = false;  // (neither done nor out of room: never seen; not looped on)
    }
  }
  d.bytes.resize(used);
  d.ok = ok;
  return d;
}
#endif

// By zlib at level 1 (a build without ISA-L).
gzip_stream::deflated deflate_block_zlib(const std::shared_ptr<const std::string>& in,
                                         const std::shared_ptr<const std::string>& before,
                                         bool last) {
  gzip_stream::deflated d;
  d.size = in->size();
  d.crc = static_cast<std::uint32_t>(
      crc32_z(0, reinterpret_cast<const Bytef*>(in->data()), static_cast<z_size_t>(in->size())));
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return d;
  bool ok = true;
  if (before && !before->empty()) {
    const std::size_t n = std::min(before->size(), window);
    ok = deflateSetDictionary(&z, reinterpret_cast<const Bytef*>(before->data() + before->size() - n),
                              static_cast<uInt>(n)) == Z_OK;
  }
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in->data()));
  z.avail_in = static_cast<uInt>(in->size());
  d.bytes.resize(deflateBound(&z, static_cast<uLong>(in->size())) + 64);
  std::size_t used = 0;
  const int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
  while (ok) {
    z.next_out = reinterpret_cast<Bytef*>(d.bytes.data() + used);
    z.avail_out = static_cast<uInt>(d.bytes.size() - used);
    const int r = deflate(&z, flush);
    used = d.bytes.size() - z.avail_out;
    if (r == Z_STREAM_ERROR) {
      ok = false;
    } else if (last ? r == Z_STREAM_END : z.avail_in == 0 && z.avail_out != 0) {
      break;  // (a sync flush is complete when room is left over)
    } else if (z.avail_out == 0) {
      d.bytes.resize(d.bytes.size() * 2);
    } else if (r == Z_BUF_ERROR) {
      ok = false;
    }
  }
  deflateEnd(&z);
  d.bytes.resize(used);
  d.ok = ok;
  return d;
}

// One block as a piece of a raw deflate stream: primed with the end of the block before it,
// ended by a sync flush (or, for the last, the stream's end).
gzip_stream::deflated deflate_block(const std::shared_ptr<const std::string>& in,
                                    const std::shared_ptr<const std::string>& before, bool last,
                                    gzip_engine engine) {
#if CALLTREE_HAVE_ISAL
  if (engine == gzip_engine::isal) return deflate_block_isal(in, before, last);
#else
  (void)engine;
#endif
  return deflate_block_zlib(in, before, last);
}

}  // namespace

gzip_engine gzip_stream::best_engine() {
#if CALLTREE_HAVE_ISAL
  return gzip_engine::isal;
#else
  return gzip_engine::zlib;
#endif
}

bool gzip_stream::has(gzip_engine engine) { return engine == gzip_engine::zlib || engine == best_engine(); }

gzip_stream::gzip_stream(const export_sink& out, unsigned threads, gzip_engine engine)
    : out_(out), in_flight_(threads > 1 ? 2 * std::size_t{threads} : 0), engine_(engine) {
  // RFC 1952: magic, deflate, no flags, no time, "fastest" (level 1), Unix.
  static constexpr char header[] = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 4, 3};
  out_(std::string_view(header, sizeof header));
  block_.reserve(block_size);
}

gzip_stream::~gzip_stream() = default;  // (std::async's futures wait for their threads)

void gzip_stream::write(std::string_view data) {
  while (!data.empty()) {
    const std::size_t take = std::min(block_size - block_.size(), data.size());
    block_.append(data.data(), take);
    data.remove_prefix(take);
    if (block_.size() == block_size) submit(false);
  }
}

void gzip_stream::submit(bool last) {
  auto in = std::make_shared<const std::string>(std::move(block_));
  block_ = std::string();
  if (!last) block_.reserve(block_size);
  auto before = std::exchange(previous_, in);
  std::future<deflated> f;
  if (in_flight_) {
    try {
      f = std::async(std::launch::async, deflate_block, in, before, last, engine_);
    } catch (const std::system_error&) {
      // No thread to be had: this one deflates.
    }
  }
  if (!f.valid()) {
    std::promise<deflated> done;
    done.set_value(deflate_block(in, before, last, engine_));
    f = done.get_future();
  }
  pending_.push_back(std::move(f));
  drain(in_flight_);
}

void gzip_stream::drain(std::size_t keep) {
  while (pending_.size() > keep) {
    deflated d = pending_.front().get();
    pending_.pop_front();
    if (!d.ok) ok_ = false;
    if (ok_) out_(d.bytes);
    crc_ = static_cast<std::uint32_t>(
        crc32_combine(crc_, d.crc, static_cast<z_off_t>(d.size)));
    size_ += d.size;
  }
}

status gzip_stream::finish() {
  if (!finished_) {
    finished_ = true;
    submit(true);
    drain(0);
  }
  if (!ok_) return error{"gzip: deflate failed"};
  char trailer[8];
  for (int i = 0; i < 4; ++i) {
    trailer[i] = static_cast<char>((crc_ >> (8 * i)) & 0xff);
    trailer[4 + i] = static_cast<char>((size_ >> (8 * i)) & 0xff);
  }
  out_(std::string_view(trailer, sizeof trailer));
  return ok();
}

}  // namespace calltree::exporting
