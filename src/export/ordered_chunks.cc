// export/ordered_chunks.cc — chunks of frames formatted on threads, taken in order (see
// ordered_chunks.h).
#include "export/ordered_chunks.h"

#include <algorithm>
#include <deque>
#include <future>
#include <system_error>
#include <vector>

namespace calltree::exporting {

void format_in_order(std::size_t frames, unsigned threads, const chunk_format& format,
                     const chunk_take& take, std::size_t per_chunk) {
  const std::size_t in_flight = threads > 1 ? 2 * std::size_t{threads} : 0;
  std::deque<std::future<chunk_text>> pending;
  // Taken chunks are formatted into again: their memory stays with the process (a chunk of
  // the real profile's folded file is megabytes; new ones were each a fresh mapping that the
  // kernel zeroed page by page: a third more CPU time).
  std::vector<chunk_text> spare;
  auto formatted = [&format](chunk_text c, std::size_t begin, std::size_t end) {
    c.text.clear();
    c.side.clear();
    format(begin, end, c);
    return c;
  };
  // The futures of std::async wait for their threads when destroyed, also when `take` throws.
  auto drain = [&](std::size_t keep) {
    while (pending.size() > keep) {
      chunk_text c = pending.front().get();
      pending.pop_front();
      take(c);
      spare.push_back(std::move(c));
    }
  };
  for (std::size_t begin = 0; begin < frames; begin += per_chunk) {
    const std::size_t end = std::min(frames, begin + per_chunk);
    chunk_text c;
    if (!spare.empty()) {
      c = std::move(spare.back());
      spare.pop_back();
    }
    std::future<chunk_text> f;
    if (in_flight) {
      try {
        f = std::async(std::launch::async, formatted, std::move(c), begin, end);
      } catch (const std::system_error&) {
        // No thread to be had: this one formats (into a new buffer if std::async had
        // already taken c).
      }
    }
    if (!f.valid()) {
      std::promise<chunk_text> done;
      done.set_value(formatted(std::move(c), begin, end));
      f = done.get_future();
    }
    pending.push_back(std::move(f));
    drain(in_flight);
  }
  drain(0);
}

}  // namespace calltree::exporting
