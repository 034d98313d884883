// read_chunks.cc — chunks of an indexed input read again, alone (chunk_index.h).
//
// What it is: the index's making on the reading thread (the state noted at each chunk's start)
// and a parser put back into that state to read one chunk: the part, the body state and the
// `(id)` tables the first reading ended with, lent to it. Part boundaries are the whole
// reading's: every part begins for the sink in file order, whichever chunks are read, so a
// sink numbers parts and events as the first reading did. What it is not: which chunks to read
// (the caller's, from what its sink noted), nor where their bytes come from.
//
#include <algorithm>
#include <iterator>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "reader/parser.h"

namespace calltree::detail {

void parser::note_chunk_start() {
  chunk_index& ix = *opt_.index;
  // A run of cost lines does not go on into the next chunk: each record is of one chunk, the
  // chunk a reading of it alone gives it in (the sums are the same).
  flush_run();
  chunk_start s;
  s.offset = stats_.bytes;
  s.line = line_no_;
  s.in_part = part_open_;
  s.part = ix.parts.empty() ? 0 : static_cast<std::uint32_t>(ix.parts.size() - 1);
  s.ctx = ctx_;
  s.have_function = have_function_;
  s.base = base_;
  s.callee_object = callee_object_;
  s.callee_file = callee_file_;
  s.callee_function = callee_function_;
  s.callee_object_set = callee_object_set_;
  s.callee_file_set = callee_file_set_;
  s.have_cfn = have_cfn_;
  s.have_any_cfn = have_any_cfn_;
  s.jump_file = jump_file_;
  s.jump_function = jump_function_;
  s.jump_file_set = jump_file_set_;
  s.jump_function_set = jump_function_set_;
  s.clean = carry_.empty() && !skipping_ && !pending_call_ && !pending_jump_ &&
            !drop_call_cost_ && (part_open_ || ix.starts.empty());
  ix.starts.push_back(s);
}

void parser::begin_range(chunk_index& ix, std::size_t k,
                         const std::function<string_id(std::string_view)>& plain_name) {
  const chunk_start& s = ix.starts[k];
  range_names_ = &plain_name;
  range_index_ = &ix;
  range_defined_.clear();
  max_len_ = opt_.max_line_length ? opt_.max_line_length : SIZE_MAX;
  objects_ = std::move(ix.objects);
  files_ = std::move(ix.files);
  functions_ = std::move(ix.functions);
  line_no_ = s.line;
  if (s.in_part) enter_part(ix.parts[s.part]);
  ctx_ = s.ctx;
  have_function_ = s.have_function;
  base_ = s.base;
  callee_object_ = s.callee_object;
  callee_file_ = s.callee_file;
  callee_function_ = s.callee_function;
  callee_object_set_ = s.callee_object_set;
  callee_file_set_ = s.callee_file_set;
  have_cfn_ = s.have_cfn;
  have_any_cfn_ = s.have_any_cfn;
  jump_file_ = s.jump_file;
  jump_function_ = s.jump_function;
  jump_file_set_ = s.jump_file_set;
  jump_function_set_ = s.jump_function_set;
}

string_id parser::range_renamed(name_class c, std::uint64_t id, bool defines) {
  const std::uint64_t key = range_key(c, id);
  if (defines) {
    // (A definition: the name the renamings give this line, kept for the lines after it.)
  } else if (auto it = range_defined_.find(key); it != range_defined_.end()) {
    return it->second;
  }
  // The last renaming at or before this line, else the name before the first.
  const auto& r = range_index_->renamed;
  auto first = std::lower_bound(r.begin(), r.end(), key,
                                [](const chunk_index::renaming& n, std::uint64_t k) { return n.key < k; });
  if (first == r.end() || first->key != key) {
    range_failed_ = true;
    return string_pool::empty;
  }
  auto last = first;
  while (last != r.end() && last->key == key && last->line <= line_no_) ++last;
  return last == first ? first->was : std::prev(last)->now;
}

void parser::end_range(chunk_index& ix) {
  ix.objects = std::move(objects_);
  ix.files = std::move(files_);
  ix.functions = std::move(functions_);
}

string_id parser::range_name(std::string_view text) {
  const string_id id = (*range_names_)(text);
  if (id == string_pool::npos) {
    range_failed_ = true;
    return string_pool::empty;
  }
  return id;
}

void part_order::begin_up_to(std::uint32_t p) {
  while (begun_ <= p && begun_ < parts_.size()) {
    end_open();
    to_.on_part_begin(parts_[begun_]->header);
    open_ = true;
    ++begun_;
  }
}

void part_order::end_open() {
  if (!open_) return;
  part_end e;
  e.computed.assign(parts_[begun_ - 1]->n_events, 0);
  to_.on_part_end(e);
  open_ = false;
}

void part_order::finish() {
  if (!parts_.empty()) begin_up_to(static_cast<std::uint32_t>(parts_.size() - 1));
  end_open();
}

status read_chunks(chunk_index& ix, std::span<const std::uint32_t> which,
                   const std::function<std::span<const char>(std::uint32_t)>& bytes_at,
                   string_pool& names, const std::function<string_id(std::string_view)>& plain_name,
                   part_order& parts, const reader_options& options, const read_needs& needs) {
  if (!ix.usable) return error{"the input's chunks cannot be read alone: " + ix.why_not};
  read_hooks hooks;
  const read_config config(options, needs, hooks);
  auto none = memory_input(std::string());
  null_diagnostics quiet;
  // The chunks read: each of `which`, from the clean chunk at or before it on.
  std::vector<std::uint32_t> chunks;
  for (const std::uint32_t k : which) {
    if (k >= ix.starts.size()) return error{"no chunk " + std::to_string(k)};
    std::uint32_t j = k;
    while (j > 0 && !ix.starts[j].clean) --j;
    if (!chunks.empty() && chunks.back() >= j) j = chunks.back() + 1;
    for (; j <= k; ++j) chunks.push_back(j);
  }
  std::unique_ptr<parser> r;
  // The reading of the chunks from the last clean one on; its end (a line without its newline
  // at the input's end is a line).
  auto finish = [&]() -> status {
    if (!r) return ok();
    try {
      if (!r->carry_.empty()) {
        ++r->line_no_;
        r->process_line(r->carry_);
      }
      r->flush_run();
    } catch (...) {
      r->end_range(ix);
      throw;
    }
    r->end_range(ix);
    const bool failed = r->range_failed_;
    r.reset();
    if (failed) return error{"a name the first reading did not know"};
    return ok();
  };
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const std::uint32_t k = chunks[i];
    const chunk_start& s = ix.starts[k];
    const bool goes_on = r && i > 0 && chunks[i - 1] + 1 == k && !s.clean;
    if (!goes_on) {
      if (auto done = finish(); !done) return done;
      if (s.in_part) parts.begin_up_to(parts.first + s.part);
      r = std::make_unique<parser>(*none, names, parts, quiet, config);
      r->begin_range(ix, k, plain_name);
    }
    const std::span<const char> bytes = bytes_at(k);
    const std::uint64_t want =
        (k + 1 < ix.starts.size() ? ix.starts[k + 1].offset : ix.end) - s.offset;
    if (bytes.size() != want) {
      r->end_range(ix);
      return error{"the input is shorter than when it was read"};
    }
    try {
      r->process_block(bytes.data(), bytes.data() + bytes.size());
    } catch (...) {
      r->end_range(ix);
      throw;
    }
  }
  return finish();
}

}  // namespace calltree::detail
