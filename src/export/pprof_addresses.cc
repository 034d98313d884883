// export/pprof_addresses.cc — per-instruction self costs for pprof (see pprof_addresses.h).
#include "export/pprof_addresses.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "calltree/cost_matrix.h"
#include "calltree/input.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "model/row_index.h"
#include "reader/null_diagnostics.h"
#include "reader/read_profile.h"
#include "views/session.h"
#include "views/tables.h"

namespace calltree::exporting {

namespace {

// Sums self costs per (key, object, address) in the tables' recorded columns.
class address_sink final : public record_sink {
 public:
  address_sink(const views::session& s, const string_pool& pool,
               const std::vector<std::uint32_t>& parts)
      : s_(s), pool_(pool), parts_(parts), width_(s.t.recorded.size()) {
    for (std::uint32_t i = 0; i < s.t.files.size(); ++i) session_file_.emplace(s.t.files[i], i);
    for (std::uint32_t i = 0; i < s.t.objects.size(); ++i)
      session_object_.emplace(s.t.objects[i], i);
    for (std::uint32_t k = 0; k < s.t.keys(); ++k)
      session_key_.emplace(
          function_name{s.t.key_file[k], s.t.key_has_object[k] ? s.t.key_object[k] : UINT32_MAX,
                        s.t.function_name(k)},
          k);
  }
  // Every line (an address each), no jumps.
  record_needs needs() const override {
    record_needs n;
    n.jumps = false;
    return n;
  }

  void on_part_begin(const part_header& h) override {
    ++part_;
    active_ = parts_.empty() || std::find(parts_.begin(), parts_.end(), part_) != parts_.end();
    column_of_.assign(h.events.size(), UINT32_MAX);
    for (std::size_t i = 0; i < h.events.size(); ++i) {
      auto it = std::find(s_.t.recorded.begin(), s_.t.recorded.end(), h.events[i]);
      if (it != s_.t.recorded.end())
        column_of_[i] = static_cast<std::uint32_t>(it - s_.t.recorded.begin());
    }
  }
  void on_cost(const cost_record& r) override {
    if (!active_) return;
    // (The session's keys are functions: object, fl= file, name.)
    const std::uint32_t object = object_of(r.ctx.object);
    const std::uint32_t key = key_of(r.ctx.file, r.ctx.function, object);
    if (key == UINT32_MAX) {
      unmatched = true;
      return;
    }
    const std::uint64_t h = detail::mix(detail::mix(detail::mix(11, key), object), r.pos.instr);
    std::size_t slot;
    std::uint32_t row = index_.find(
        h,
        [&](std::uint32_t i) {
          return rows[i].key == key && rows[i].object == object && rows[i].address == r.pos.instr;
        },
        slot);
    if (row == detail::row_index::empty) {
      row = static_cast<std::uint32_t>(rows.size());
      rows.push_back({key, object, r.pos.instr, r.pos.line});
      costs.resize(costs.size() + width_, 0);
      index_.insert(h, row, slot);
    }
    std::uint64_t* dst = costs.data() + std::size_t{row} * width_;
    for (std::size_t i = 0; i < r.costs.size() && i < column_of_.size(); ++i)
      if (column_of_[i] != UINT32_MAX) add_saturating(dst[column_of_[i]], r.costs[i]);
  }
  void on_call(const call_record&) override {}
  void on_jump(const jump_record&) override {}
  void on_part_end(const part_end&) override {}

  std::vector<address_row> rows;
  std::vector<std::uint64_t> costs;  // rows x recorded columns
  bool unmatched = false;            // a cost line whose key the session does not have

 private:
  std::uint32_t key_of(string_id file, string_id function, std::uint32_t object) {
    if (file == last_file_ && function == last_function_ && object == last_key_object_)
      return last_key_;
    std::uint32_t key = UINT32_MAX;
    const std::uint32_t local = display_.of(pool_, file, s_.options.cwd, files_);
    if (auto f = session_file_.find(files_[local]); f != session_file_.end()) {
      std::string scratch;
      if (auto k =
              session_key_.find(function_name{f->second, object, pool_.text(function, scratch)});
          k != session_key_.end())
        key = k->second;
    }
    last_file_ = file;
    last_function_ = function;
    last_key_object_ = object;
    last_key_ = key;
    return key;
  }
  std::uint32_t object_of(string_id object) {
    if (object == last_object_) return last_object_index_;
    std::string scratch;
    auto it = session_object_.find(pool_.text(object, scratch));
    last_object_ = object;
    last_object_index_ = it == session_object_.end() ? UINT32_MAX : it->second;
    return last_object_index_;
  }

  const views::session& s_;
  const string_pool& pool_;
  const std::vector<std::uint32_t>& parts_;
  std::size_t width_;
  std::uint32_t part_ = UINT32_MAX;  // (the first on_part_begin makes it 0)
  bool active_ = false;
  std::vector<std::uint32_t> column_of_;  // part event -> recorded column
  std::unordered_map<std::string_view, std::uint32_t> session_file_, session_object_;
  struct function_name {
    std::uint32_t file = 0, object = 0;
    std::string_view name;
    friend bool operator==(const function_name&, const function_name&) = default;
  };
  struct function_name_hash {
    std::size_t operator()(const function_name& f) const noexcept {
      return std::hash<std::string_view>()(f.name) * 31 + (std::size_t{f.file} << 20 ^ f.object);
    }
  };
  std::unordered_map<function_name, std::uint32_t, function_name_hash> session_key_;
  views::display_files display_;
  std::vector<std::string> files_;
  detail::row_index index_;
  string_id last_file_ = string_pool::npos, last_function_ = string_pool::npos;
  std::uint32_t last_key_ = UINT32_MAX, last_key_object_ = UINT32_MAX;
  string_id last_object_ = string_pool::npos;
  std::uint32_t last_object_index_ = UINT32_MAX;
};

}  // namespace

result<std::optional<address_split>> split_by_address(const views::session& s,
                                                      const views::column_set& columns,
                                                      const std::vector<std::uint32_t>& parts,
                                                      const path_tree& tree) {
  if (!(s.p.positions & pos_instr) || s.input_name == "-") return std::optional<address_split>();
  auto in = open_input(s.input_name);
  if (!in) return in.error();
  string_pool pool;
  address_sink sink(s, pool, parts);
  detail::null_diagnostics quiet;
  reader_options ro;
  ro.display_name = s.input_name;
  ro.threads = s.options.threads;
  ro.max_name_bytes = s.options.max_memory;
  auto read = detail::read_profile(**in, pool, sink, quiet, ro, detail::any_input());
  if (!read) return read.error();

  // The rows in (key, address) order, their costs in the export's columns.
  address_split out;
  const std::size_t ncol = columns.columns.size();
  const std::size_t width = s.t.recorded.size();
  out.columns = ncol;
  // (Sorted as a contiguous copy of the keys: sorting indices that compare through the rows
  // took a seventh of the export's time on the corpus's 24 MB profile.)
  struct sort_item {
    std::uint32_t key, object;
    std::uint64_t address;
    std::uint32_t index;
  };
  std::vector<sort_item> items;
  items.reserve(sink.rows.size());
  for (std::uint32_t i = 0; i < sink.rows.size(); ++i)
    items.push_back({sink.rows[i].key, sink.rows[i].object, sink.rows[i].address, i});
  std::sort(items.begin(), items.end(), [](const sort_item& x, const sort_item& y) {
    return std::tie(x.key, x.address, x.object) < std::tie(y.key, y.address, y.object);
  });
  std::vector<std::uint32_t> order;
  order.reserve(items.size());
  for (const auto& it : items) order.push_back(it.index);
  items.clear();
  items.shrink_to_fit();
  out.rows.reserve(order.size());
  out.costs.reserve(order.size() * ncol);
  for (std::uint32_t i : order) {
    const std::uint64_t* recorded = sink.costs.data() + std::size_t{i} * width;
    bool any = false;
    const std::size_t at = out.costs.size();
    for (const auto& c : columns.columns) {
      out.costs.push_back(c.value(recorded));
      any |= out.costs.back() != 0;
    }
    if (!any) {
      out.costs.resize(at);
      continue;
    }
    out.rows.push_back(sink.rows[i]);
  }
  sink.rows.clear();
  sink.rows.shrink_to_fit();
  sink.costs.clear();
  sink.costs.shrink_to_fit();

  // Each key's rows, and its frames with a self cost.
  const std::size_t nkeys = s.t.keys();
  std::vector<std::uint32_t> row_first(nkeys + 1, 0);
  for (const auto& r : out.rows) ++row_first[r.key + 1];
  std::partial_sum(row_first.begin(), row_first.end(), row_first.begin());
  std::vector<std::uint32_t> frame_count(nkeys + 1, 0);
  for (std::size_t f = 0; f < tree.frames(); ++f)
    if (tree.node[f] < nkeys) ++frame_count[tree.node[f] + 1];
  std::partial_sum(frame_count.begin(), frame_count.end(), frame_count.begin());
  std::vector<std::uint32_t> frames_of(frame_count.back());
  {
    std::vector<std::uint32_t> at(frame_count.begin(), frame_count.end() - 1);
    for (std::uint32_t f = 0; f < tree.frames(); ++f)
      if (tree.node[f] < nkeys) frames_of[at[tree.node[f]]++] = f;
  }

  // A key is split when, column by column, its addresses sum to its frames' self costs.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> per_frame(tree.frames());
  std::vector<std::uint64_t> address_left, frame_left;
  for (std::uint32_t k = 0; k < nkeys; ++k) {
    const std::uint32_t r0 = row_first[k], r1 = row_first[k + 1];
    const std::uint32_t f0 = frame_count[k], f1 = frame_count[k + 1];
    if (r0 == r1 || f0 == f1) continue;
    bool equal = true;
    for (std::size_t c = 0; c < ncol && equal; ++c) {
      std::uint64_t a = 0, b = 0;
      for (std::uint32_t r = r0; r < r1; ++r) a += out.costs[r * ncol + c];
      for (std::uint32_t i = f0; i < f1; ++i) b += tree.self.row(frames_of[i])[c];
      equal = a == b;
    }
    if (!equal) {
      ++out.keys_kept_whole;
      continue;
    }
    ++out.keys_split;
    // North-west corner, column by column; cells of one (frame, row) share their values.
    std::unordered_map<std::uint64_t, std::uint32_t> cell_of;  // frame << 32 | row -> value
    for (std::size_t c = 0; c < ncol; ++c) {
      std::uint32_t r = r0, i = f0;
      std::uint64_t have = r < r1 ? out.costs[r * ncol + c] : 0;
      std::uint64_t want = tree.self.row(frames_of[i])[c];
      while (r < r1 && i < f1) {
        if (have == 0) {
          if (++r < r1) have = out.costs[r * ncol + c];
          continue;
        }
        if (want == 0) {
          if (++i < f1) want = tree.self.row(frames_of[i])[c];
          continue;
        }
        const std::uint64_t take = std::min(have, want);
        const std::uint32_t f = frames_of[i];
        const std::uint64_t id = (std::uint64_t{f} << 32) | r;
        auto [it, fresh] = cell_of.emplace(id, 0);
        if (fresh) {
          it->second = static_cast<std::uint32_t>(out.cell_values.size());
          out.cell_values.resize(out.cell_values.size() + ncol, 0);
          per_frame[f].emplace_back(r, it->second);
        }
        out.cell_values[it->second + c] += take;
        have -= take;
        want -= take;
      }
    }
  }
  out.frame_first.assign(tree.frames() + 1, 0);
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    out.frame_first[f] = static_cast<std::uint32_t>(out.cells.size());
    for (const auto& [row, value] : per_frame[f]) out.cells.push_back({row, value});
  }
  out.frame_first[tree.frames()] = static_cast<std::uint32_t>(out.cells.size());
  return std::optional<address_split>(std::move(out));
}

}  // namespace calltree::exporting
