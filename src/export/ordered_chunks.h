// export/ordered_chunks.h — (internal) the text of a tree's frames formatted on several
// threads, handed on in frame order.
//
// The stack formats (folded, speedscope, chrome) write one piece of text per frame of the
// estimate's tree, in preorder; a frame's text depends only on the frame and its ancestors
// (which a chunk finds through the tree's parents), or on numbers a quick first pass made. So
// the frames are cut into chunks of a fixed size (where a chunk ends depends on the frame
// count only: the output is the same for any number of threads), each chunk is formatted on
// a thread of its own, and the chunks are taken on the caller's thread, in order, as soon as
// each is done: the caller writes one while the threads format the next ones (the real
// profile's folded file is 893 MB: formatting and writing it are each about as long as
// reading the profile). At most 2 x threads chunks are in flight. threads = 1, or a thread
// that cannot be started: the chunk is formatted on the caller's thread.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace calltree::exporting {

// A chunk's text; `side` is for a second stream that goes elsewhere in the file (speedscope's
// weights follow all of its samples). `scratch` is the formatter's to use as it likes (it
// stays with the chunk_text, which is reused).
struct chunk_text {
  std::string text, side;
  std::unique_ptr<char[]> scratch;
};

// Formats frames [begin, end) into `out` (called on any thread, for disjoint ranges; it must
// read shared data only).
using chunk_format = std::function<void(std::size_t begin, std::size_t end, chunk_text& out)>;
// Takes a chunk's text (called on the caller's thread, chunk after chunk, in frame order).
using chunk_take = std::function<void(chunk_text& chunk)>;

inline constexpr std::size_t frames_per_chunk = 1024;

// Every chunk of [0, frames) (`per_chunk` frames each, the last perhaps fewer), formatted by
// `format` and taken by `take` in order. An exception thrown by `format` (std::bad_alloc) or
// by `take` reaches the caller, after the threads ended.
void format_in_order(std::size_t frames, unsigned threads, const chunk_format& format,
                     const chunk_take& take, std::size_t per_chunk = frames_per_chunk);

// The text after a chunk's leading separator: the first chunk that has any text starts the
// list without it. `started` is the caller's, false before the first piece.
inline std::string_view without_first_separator(const std::string& text, bool& started) {
  if (text.empty() || started) return text;
  started = true;
  return std::string_view(text).substr(1);
}

}  // namespace calltree::exporting
