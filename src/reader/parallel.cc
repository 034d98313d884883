// parallel.cc — the parallel path: chunks read ahead on other threads, taken in file order.
//
// What it is: the driver of a reading cut into chunks (chunk_feed.h): the threads that read
// chunks ahead on speculation, the ring of chunks in flight, and this thread, which reads every
// chunk no one took and adopts the others (speculation.cc) or reads them again. What it is
// not: the parsing (parser.h) or the adoption's rules (speculation.cc).
//
// When the path is taken: reader.cc, parser::run(). What the speculation may and may not do:
// speculation.cc.
//
#include <algorithm>
#include <atomic>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#include "reader/parser.h"
#include "reader/speculation.h"

namespace calltree::detail {

// When it pays. Handing a record from one core to the other (copying it, and the other core
// reading memory it did not write) costs about what reading its line costs, so with a record
// per line (convert, a report by source line) the two cores together do twice the work and
// finish no sooner: measured, 40 -> 84 ms of CPU for check on the 24 MB corpus file, and
// 41 -> 49 ms of wall time, when check took a record per line. Only when the sinks take few
// records per line does it pay: for a sink that takes sums per run (a run of cost lines of one
// context is one record) the path is taken. For sums per context (annotate with no
// source lines, check), a chunk hands over one record per key, not per line or run: per
// context for self costs, per context and callee for calls, per context and target for jumps
// (record_batch.h), each where its key first appeared, so the sink creates its rows in the
// order a direct reading would. On the 24 MB file that is 67k records instead of 190k for
// annotate; the two threads then execute 5-12 % more instructions than one (check and
// annotate, 24 MB and 260 MB files). The runs' split and the sums' grouping differ from a
// direct reading's, which those needs allow: sums per key are the same
// (tests/unit/reader_parallel_test.cc).
//
// It pays too where the sink's work per line is more than the reading's, and a run of lines
// can be handed over in one piece: for a sink that takes runs of lines (export --to=json, a
// self row of the model per line) a chunk's cost lines go over as runs of one context
// (record_batch.h), each with its context mapped once, and the builder adds a run's rows
// without looking them up when they start its function's rows in increasing order
// (builder_access::take_cost_run). The lines are all still there; only calls and jumps between
// a run's lines come after it.
//
// Which chunks a worker takes. A speculated chunk costs more in all than a direct reading of
// it: a third more on the worker (names in a pool of their own, records kept, placeholders),
// then its adoption and its records on this thread. So the chunks worth giving a worker are
// only as many as keep both cores busy, and the rest are best read here, directly. A worker
// takes the farthest free chunk of the ring (the ring - 1 chunks after the one this thread is
// at); this thread reads its own chunk directly whenever no worker has taken it. The split
// then follows the costs by itself: where adopting is cheap this thread moves on fast,
// reaches chunks no one has taken, and reads them; where it is dear the workers' chunks come
// nearer. Taking the nearest chunk instead (as an earlier version did) left this thread
// nothing to read directly: every chunk was speculated, by a worker or by this thread while it
// waited, and this thread adopted them all while the worker, its ring full, waited for it. On
// the real profile, check: 1,920 of 1,956 chunks adopted, against ~850 now (docs/performance.md,
// "The parallel path").
//

void parser::run_chunked(detail::chunk_feed& feed, std::size_t ring) {
  std::uint64_t shown = 0, raw_end = 0;  // at the last progress report, and now
  auto show = [&] {
    shown = stats_.bytes;
    opt_.progress(read_progress{stats_.bytes, raw_end, feed.raw_size()});
  };
  auto direct = [&](const detail::chunk_feed::chunk& c) {
    process_block(c.bytes.data(), c.bytes.data() + c.bytes.size());
  };
  // (With read_hooks::index, each chunk's start state is noted before it is read, and a
  // compressed input's decoded bytes handed to be kept.)
  const bool indexing = opt_.index != nullptr;
  auto keep = [&](const detail::chunk_feed::chunk& c) {
    chunk_index& ix = *opt_.index;
    if (ix.kept_bytes && !ix.keeping_failed &&
        !ix.keep_bytes(std::span<const char>(c.bytes.data(), c.bytes.size())))
      ix.keeping_failed = true;
  };
  auto done_with = [&](std::size_t k, const detail::chunk_feed::chunk& c) {
    stats_.bytes += c.bytes.size();
    raw_end = c.raw_end;
    feed.reached(k + 1);
    if (opt_.progress && stats_.bytes >= shown + (1u << 20)) show();
  };
  // The first chunk holds the header: read it here, then the others know their part.
  const auto first = feed.get(0);
  if (first.bytes.empty()) return;
  auto noted = [&](const detail::chunk_feed::chunk& c) {
    if (!indexing) return;
    note_chunk_start();
    keep(c);
  };
  noted(first);
  direct(first);
  done_with(0, first);
  if (!part_open_) {
    for (std::size_t k = 1; !stop_ && !sink_gave_up(); ++k) {
      const auto c = feed.get(k);
      if (c.bytes.empty()) break;
      noted(c);
      direct(c);
      done_with(k, c);
    }
    if (opt_.progress && stats_.bytes != shown) show();
    return;
  }
  const part_state ps = snapshot();
  const std::size_t workers = spec_workers();
  // Chunk k's state is in slot k % ring, tagged with k: a thread that looks at a slot with an
  // old idea of where this thread is cannot take it for another chunk.
  enum : std::uint8_t { free_chunk, reading, read, taken };
  auto tag = [](std::size_t k, std::uint8_t st) { return std::uint64_t{k} << 2 | st; };
  std::vector<std::atomic<std::uint64_t>> state(ring);
  for (std::size_t i = 0; i < ring; ++i)  // (chunk 0 was read here: slot 0's first is `ring`)
    state[i].store(tag(i == 0 ? ring : i, free_chunk), std::memory_order_relaxed);
  std::vector<speculation> slots(ring);
  std::atomic<std::size_t> current{1};  // the chunk this thread is at; earlier ones are done
  std::atomic<bool> quit{false};
  // A decoded feed's chunk is read on speculation only when it is decoded already and the
  // decoder is at least two chunks ahead of this thread: while the decoder is the slower half
  // (zstd, check), this thread reads each chunk as it comes, directly, and a speculation (which
  // costs a third more CPU than a direct reading, and a core the decoder wants) would only slow
  // the decoder down; when the reading is the slower half the decoded chunks pile up and the
  // other threads help. A mapped file's chunks are all ready: every one may be. (Measured on the
  // real profile's `.zst`, docs/performance.md, "Compressed input".) (Chunks are decoded in order:
  // the later of the two being ready says both are, in one look under the feed's lock.)
  auto wanted = [&](std::size_t at, std::size_t k) { return feed.ready(std::max(k, at + 2)); };
  auto claim = [&](std::size_t k) {
    std::uint64_t expect = tag(k, free_chunk);
    return state[k % ring].compare_exchange_strong(expect, tag(k, reading),
                                                   std::memory_order_acq_rel);
  };
  auto speculate = [&](std::size_t k) {
    speculation& s = slots[k % ring];
    s.ok = false;
    try {
      const auto c = feed.get(k);
      s.read(in_, opt_, ps, std::string_view(c.bytes.data(), c.bytes.size()), max_len_);
    } catch (const std::bad_alloc&) {
      // Out of memory on speculation: the chunk is read where it is adopted, directly, and a
      // failure there reaches read_callgrind's caller. (Thrown on a worker, it would end the
      // process; and the chunk's state must be set below either way, or the reading thread
      // waits for it for ever.)
      s.ok = false;
      s.reader.reset();
    }
    state[k % ring].store(tag(k, read), std::memory_order_release);
    state[k % ring].notify_all();
  };
  auto worker = [&] {
    for (;;) {
      // `quit` is looked at after `current`, which this thread moves past the end after setting
      // `quit`: a worker that sees the last `current` sees `quit` too, and one that saw an
      // earlier `current` does not wait on it. (Looked at before, a worker could read the last
      // `current` after the notify and wait for it to move again, for ever: fuzz_annotate.)
      const std::size_t c = current.load(std::memory_order_acquire);
      if (quit.load(std::memory_order_acquire)) return;
      // The farthest chunk of the ring first, so this thread finds the nearer ones free and
      // reads them directly (see "Which chunks a worker takes" above).
      std::size_t k = c + ring - 1;
      while (k > c && !(wanted(c, k) && claim(k))) --k;
      if (k > c)
        speculate(k);  // past the last chunk: nothing to read
      else
        current.wait(c, std::memory_order_acquire);
    }
  };
  std::vector<std::thread> threads;
  try {
    for (std::size_t i = 0; i < workers; ++i) threads.emplace_back(worker);
  } catch (...) {  // no thread: every chunk is read here
  }
  std::size_t k = 1;
  auto end_workers = [&] {
    quit.store(true, std::memory_order_release);
    feed.cancel();  // (a worker may wait in get() for a chunk that will not come)
    current.store(k + ring, std::memory_order_release);
    current.notify_all();
    for (auto& t : threads) t.join();
  };
  try {
    for (; !stop_ && !sink_gave_up(); ++k) {
      current.store(k, std::memory_order_release);
      current.notify_all();
      const auto c = feed.get(k);
      if (c.bytes.empty()) break;
      noted(c);
      if (opt_.speculate_every_chunk && claim(k))
        speculate(k);  // tests: this chunk too on speculation, so every chunk is
      std::uint64_t expect = tag(k, free_chunk);
      if (state[k % ring].compare_exchange_strong(expect, tag(k, taken),
                                                  std::memory_order_acq_rel)) {
        direct(c);
      } else {
        // While a worker reads chunk k, read a later one ahead rather than wait.
        while (state[k % ring].load(std::memory_order_acquire) == tag(k, reading)) {
          std::size_t j = k + 1;
          while (j < k + ring && !(wanted(k, j) && claim(j))) ++j;
          if (j < k + ring)
            speculate(j);
          else
            state[k % ring].wait(tag(k, reading), std::memory_order_acquire);
        }
        speculation& s = slots[k % ring];
        if (!adopt(s)) direct(c);  // (the worker that reuses the slot frees the reader)
      }
      done_with(k, c);
      state[k % ring].store(tag(k + ring, free_chunk), std::memory_order_release);
    }
  } catch (...) {
    // Out of memory here (the reading's own tables, or the sink's) reaches the caller, after
    // the workers: a thread still joinable when `threads` goes would end the process.
    end_workers();
    throw;
  }
  if (opt_.progress && stats_.bytes != shown) show();
  end_workers();
}

}  // namespace calltree::detail
