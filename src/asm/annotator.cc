// annotator.cc — asm views of a profile's functions: the profile's instructions, objdump's
// symbols and code (through the caller's runner), the match, and the view's columns.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <thread>

#include "calltree/analysis/derived_events.h"
#include "calltree/asm.h"
#include "calltree/cost_matrix.h"

namespace calltree {

std::string_view to_string(asm_status s) {
  switch (s) {
    case asm_status::ok:
      return "ok";
    case asm_status::no_instructions:
      return "no_instructions";
    case asm_status::no_object:
      return "no_object";
    case asm_status::object_missing:
      return "object_missing";
    case asm_status::objdump_failed:
      return "objdump_failed";
    case asm_status::mismatch:
      return "mismatch";
  }
  return "?";
}

namespace {

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string strip_cwd(std::string name, std::string_view cwd) {
  if (!cwd.empty() && name.size() > cwd.size() && std::string_view(name).starts_with(cwd))
    name.erase(0, cwd.size());
  return name;
}

// The first line of objdump's error output, for a message.
std::string first_line(std::string_view s) {
  s = s.substr(0, s.find('\n'));
  return std::string(s);
}

void replace_once(std::string& s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  if (at != std::string::npos) s.replace(at, from.size(), to);
}

}  // namespace

struct asm_annotator::impl {
  const profile& p;
  asm_options o;
  objdump_runner run;
  std::vector<linear_event> columns;
  std::vector<std::uint64_t> totals;  // per column, of the parts chosen

  struct object_symbols {
    objdump_reply reply;  // (text dropped once parsed)
    std::vector<object_symbol> symbols;
  };
  std::map<std::string, object_symbols> symbols_of;  // by object name

  impl(const profile& prof, asm_options opt, objdump_runner r)
      : p(prof), o(std::move(opt)), run(std::move(r)) {}

  std::vector<std::uint64_t> evaluate(std::span<const std::uint64_t> costs) const {
    std::vector<std::uint64_t> v(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) v[c] = columns[c].evaluate(costs);
    return v;
  }

  const object_symbols& symbols(const std::string& object) {
    auto it = symbols_of.find(object);
    if (it != symbols_of.end()) return it->second;
    object_symbols s;
    s.reply = run({object, {"-t", "-T", "-w", "-C"}});
    // (-T of an object with no dynamic table exits 1 after printing the static one.)
    if (s.reply.status == asm_status::ok) s.symbols = parse_objdump_symbols(s.reply.text);
    s.reply.text.clear();
    s.reply.text.shrink_to_fit();
    return symbols_of.emplace(object, std::move(s)).first->second;
  }

  void fill_instructions(asm_view& v, const function_instrs& f, const matched_instructions& m) {
    v.instructions.reserve(m.instructions.size());
    std::map<std::uint64_t, std::int64_t> index_of;
    for (std::size_t i = 0; i < m.instructions.size(); ++i)
      index_of.emplace(m.instructions[i]->address, static_cast<std::int64_t>(i));
    for (std::size_t i = 0; i < m.instructions.size(); ++i) {
      const objdump_instruction& in = *m.instructions[i];
      asm_instruction& a = v.instructions.emplace_back();
      a.address = in.address;
      a.bytes = in.bytes;
      a.mnemonic = in.mnemonic;
      a.operands = in.operands;
      a.branch_target = in.target;
      a.self.assign(columns.size(), 0);
      a.gap_before = i > 0 && m.range_start[i];
      if (m.data[i] < 0) continue;
      const instr_data& x = f.instrs[static_cast<std::size_t>(m.data[i])];
      a.profiled = true;
      if (x.line != 0 || x.source_file != 0) {
        a.source_file = strip_cwd(p.strings.text(p.files[x.source_file].name), o.cwd);
        a.line = x.line;
      }
      a.self = evaluate(x.self);
      if (!columns.empty() && a.self[0] > 0 && !v.self.empty() && v.self[0] > 0)
        a.hot = static_cast<double>(a.self[0]) * 100.0 >=
                o.hot_percent * static_cast<double>(v.self[0]);
      for (const instr_call& c : x.calls) {
        asm_call_view& cv = a.calls.emplace_back();
        const function& callee = p.functions[c.callee];
        cv.callee = p.strings.text(callee.name);
        cv.callee_file = strip_cwd(p.strings.text(p.files[callee.file].name), o.cwd);
        cv.callee_object = p.strings.text(p.objects[callee.object].name);
        cv.callee_id = c.callee;
        cv.count = c.count;
        cv.inclusive = evaluate(c.inclusive);
      }
      for (const instr_jump& j : x.jumps) {
        asm_jump_view& jv = a.jumps.emplace_back();
        jv.conditional = j.conditional;
        jv.executed = j.executed;
        jv.followed = j.followed;
        jv.target = j.target;
        if (j.target_function != f.function)
          jv.target_function = p.strings.text(p.functions[j.target_function].name);
        else if (auto t = index_of.find(j.target); t != index_of.end())
          jv.target_index = t->second;
      }
    }
  }
};

asm_annotator::asm_annotator(const profile& p, asm_options options, objdump_runner run)
    : impl_(std::make_shared<impl>(p, std::move(options), std::move(run))) {}

result<asm_annotator> asm_annotator::make(const profile& p, asm_options options,
                                          objdump_runner run) {
  std::vector<std::string> names = options.events;
  if (names.empty()) names = recorded_event_names(p);
  auto resolved = resolve_events(p, names, options.event_definitions);
  if (!resolved) return resolved.error();
  asm_annotator a(p, std::move(options), std::move(run));
  a.impl_->columns = std::move(resolved->events);
  std::vector<std::uint64_t> sum(p.events.size(), 0);
  for (part_id q = 0; q < p.parts.size(); ++q) {
    const auto& parts = a.impl_->o.parts;
    if (!parts.empty() && std::find(parts.begin(), parts.end(), q) == parts.end()) continue;
    std::vector<std::uint64_t> t = p.parts[q].totals;
    t.resize(sum.size(), 0);
    add_saturating(std::span<std::uint64_t>(sum), t);
  }
  a.impl_->totals = a.impl_->evaluate(sum);
  return a;
}

std::vector<asm_view> asm_annotator::annotate(std::span<const function_id> functions) {
  impl& m = *impl_;
  const profile& p = m.p;
  std::vector<function_instrs> data = collect_instructions(p, functions, m.o.parts);
  std::vector<asm_view> views(functions.size());
  std::vector<disassembly_plan> plans(functions.size());
  // Functions to disassemble, per object: (plan start, function index).
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::size_t>>> todo;

  for (std::size_t i = 0; i < functions.size(); ++i) {
    asm_view& v = views[i];
    const function& fn = p.functions[functions[i]];
    v.function = functions[i];
    v.name = p.strings.text(fn.name);
    v.file = strip_cwd(p.strings.text(p.files[fn.file].name), m.o.cwd);
    v.object = p.strings.text(p.objects[fn.object].name);
    for (const auto& c : m.columns) v.events.push_back(c.name);
    v.totals = m.totals;
    v.self = m.evaluate(data[i].self);
    if (!(p.positions & pos_instr) || data[i].instrs.empty()) {
      v.status = asm_status::no_instructions;
      v.message = p.positions & pos_instr
                      ? "the profile has no cost for this function in the parts chosen"
                      : "the profile has no instruction addresses (callgrind --dump-instr=yes "
                        "writes them)";
      continue;
    }
    if (v.object.empty() || v.object == "???") {
      v.status = asm_status::no_object;
      v.message = "the profile names no object file for this function";
      continue;
    }
    const impl::object_symbols& s = m.symbols(v.object);
    if (s.reply.status != asm_status::ok) {
      v.status = s.reply.status;
      v.message = s.reply.message;
      v.object_path = s.reply.path;
      continue;
    }
    plans[i] = plan_disassembly(data[i], v.name, s.symbols);
    v.symbol = plans[i].symbol;
    v.ranges = plans[i].ranges;
    v.object_path = s.reply.path;
    if (!plans[i].mismatch.empty()) {
      v.status = asm_status::mismatch;
      v.message = plans[i].mismatch;
      continue;
    }
    todo[v.object].emplace_back(plans[i].ranges.empty() ? 0 : plans[i].ranges[0].from, i);
  }

  // One objdump run per group of nearby ranges of an object (at most 1 MiB of code), and one
  // of its own for a range whose start the group's linear decoding does not reach in step.
  constexpr std::uint64_t max_group = 1 << 20;
  struct wanted {
    code_range r;
    std::size_t function, range;
  };
  // Per function and range: the instructions objdump gave, or why there are none.
  std::vector<std::vector<std::vector<objdump_instruction>>> code(functions.size());
  std::vector<objdump_reply> failed(functions.size());  // status ok: none failed
  for (std::size_t i = 0; i < functions.size(); ++i) code[i].resize(plans[i].ranges.size());
  auto disassemble = [&](const std::string& object, std::span<const wanted> list) {
    std::uint64_t start = list.front().r.from, stop = 0;
    std::vector<code_range> keep;
    for (const wanted& w : list) {
      stop = std::max(stop, w.r.stop);
      keep.push_back(w.r);
    }
    objdump_reply r =
        m.run({object,
               {"-d", "-w", "-C", "--start-address=" + hex(start), "--stop-address=" + hex(stop)}});
    if (r.status == asm_status::ok && r.exit_code != 0) {
      r.status = asm_status::objdump_failed;
      r.message = "objdump failed (exit status " + std::to_string(r.exit_code) + ")" +
                  (r.errors.empty() ? std::string() : ": " + first_line(r.errors));
    }
    std::vector<const wanted*> out_of_step;
    if (r.status == asm_status::ok) {
      objdump_disassembly d = parse_objdump_disassembly(r.text, keep);
      for (const wanted& w : list) {
        auto& into = code[w.function][w.range];
        for (auto& in : d.instructions)
          if (in.address >= w.r.from && in.address < w.r.stop) into.push_back(in);
        if (list.size() > 1 && (into.empty() || into.front().address != w.r.from)) {
          into.clear();
          out_of_step.push_back(&w);
        }
      }
    }
    for (const wanted& w : list) {
      asm_view& v = views[w.function];
      if (w.range == 0) {
        // How to see this function's (first) code alone.
        v.objdump_command = r.command;
        const code_range& f = plans[w.function].ranges[0];
        replace_once(v.objdump_command, "--start-address=" + hex(start),
                     "--start-address=" + hex(f.from));
        replace_once(v.objdump_command, "--stop-address=" + hex(stop),
                     "--stop-address=" + hex(plans[w.function].symbol ? f.to : f.stop));
        v.object_path = r.path;
        v.notes = r.notes;
      }
      if (r.status != asm_status::ok && failed[w.function].status == asm_status::ok)
        failed[w.function] = r;
    }
    return out_of_step;
  };
  // The groups, then `jobs` threads taking them in turn (each writes only its own ranges'
  // code and its functions' fields).
  std::map<std::string, std::vector<wanted>> ranges_of;
  std::vector<std::pair<const std::string*, std::span<const wanted>>> groups;
  for (auto& [object, list] : todo) {
    std::vector<wanted>& ws = ranges_of[object];
    for (const auto& [start, i] : list)
      for (std::size_t k = 0; k < plans[i].ranges.size(); ++k)
        ws.push_back({plans[i].ranges[k], i, k});
    std::sort(ws.begin(), ws.end(),
              [](const wanted& a, const wanted& b) { return a.r.from < b.r.from; });
    for (std::size_t g = 0; g < ws.size();) {
      std::uint64_t stop = ws[g].r.stop;
      std::size_t e = g + 1;
      for (; e < ws.size(); ++e) {
        if (ws[e].r.from > stop + m.o.group_gap ||
            std::max(stop, ws[e].r.stop) - ws[g].r.from > max_group)
          break;
        stop = std::max(stop, ws[e].r.stop);
      }
      groups.emplace_back(&object, std::span<const wanted>(ws.data() + g, e - g));
      g = e;
    }
  }
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t g; (g = next.fetch_add(1)) < groups.size();)
      for (const wanted* w : disassemble(*groups[g].first, groups[g].second))
        disassemble(*groups[g].first, std::span<const wanted>(w, 1));
  };
  {
    std::vector<std::jthread> helpers;
    for (unsigned t = 1; t < m.o.jobs && t < groups.size(); ++t) helpers.emplace_back(work);
    work();
  }
  for (auto& [object, list] : todo)
    for (const auto& [start, i] : list) {
      asm_view& v = views[i];
      if (failed[i].status != asm_status::ok) {
        v.status = failed[i].status;
        v.message = failed[i].message;
        continue;
      }
      objdump_disassembly d;
      for (auto& range : code[i])
        for (auto& in : range) d.instructions.push_back(std::move(in));
      auto matched = match_instructions(data[i], d, plans[i]);
      if (!matched) {
        v.status = asm_status::mismatch;
        v.message = matched.error().message;
        continue;
      }
      m.fill_instructions(v, data[i], *matched);
    }
  return views;
}

}  // namespace calltree
