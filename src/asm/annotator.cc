// annotator.cc — asm views of a profile's functions: the profile's instructions, objdump's
// symbols and code (through the caller's runner), the match, and the view's columns.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "calltree/analysis/derived_events.h"
#include "calltree/asm.h"
#include "calltree/cost_matrix.h"
#include "asm/objdump.h"

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
  std::optional<std::size_t> ir;      // the profile's recorded Ir event: executions

  struct object_symbols {
    objdump_reply reply;  // (text dropped once parsed)
    function_symbols symbols;
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
    if (s.reply.status == asm_status::ok)
      s.symbols = function_symbols(parse_objdump_symbols(s.reply.text));
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
      if (x.line != 0 || x.source_file != file_id{}) {
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
      // A conditional branch ran as often as its instruction: its Ir, callgrind counting one
      // per execution. Its jcnd= lines may count fewer: callgrind writes one per context of
      // the instruction (a basic block of its own holding it, a caller, a part) only where
      // the branch was taken, so the contexts where it never was are in the Ir alone.
      const std::optional<std::uint64_t> runs =
          ir && *ir < x.self.size() ? std::optional(x.self[*ir]) : std::nullopt;
      for (const instr_jump& j : x.jumps) {
        asm_jump_view& jv = a.jumps.emplace_back();
        jv.conditional = j.conditional;
        jv.executed = j.conditional && runs ? std::max(j.executed, *runs) : j.executed;
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
  for (event_id e : p.events.ids())
    if (p.events[e].recorded && p.events[e].name == "Ir") a.impl_->ir = e.index();
  std::vector<std::uint64_t> sum(p.events.size(), 0);
  for (part_id q : p.parts.ids()) {
    const auto& parts = a.impl_->o.parts;
    if (!parts.empty() && std::find(parts.begin(), parts.end(), q) == parts.end()) continue;
    std::vector<std::uint64_t> t = p.parts[q].totals;
    t.resize(sum.size(), 0);
    add_saturating(std::span<std::uint64_t>(sum), t);
  }
  a.impl_->totals = a.impl_->evaluate(sum);
  return a;
}

// A list of functions is annotated in three steps. The plans (which ranges of code each
// function needs) are made for the whole list first, and the ranges of each object grouped into
// objdump runs: one run serves every function of a group (a run costs ~0.1 s before it
// decodes anything on a 100 MB library, so a list of 3,000 functions of libLLVM takes ~100
// runs, not 3,000). Then the views are made in the list's order, a piece at a time: the runs
// the piece needs are made (on `jobs` threads), and a run's code is forgotten once the last
// function needing it is done, so no more than the code still awaited is held, never the list's
// views. (Made in pieces of the list instead, the same 3,363 functions of the real profile took
// 577 runs decoding 54 MB of code, against 94 runs and 20 MB.)
namespace {

struct objdump_run {
  std::string object;
  std::uint64_t from = 0, stop = 0;
  std::vector<code_range> keep;  // the ranges it serves
  std::size_t users = 0;         // (function, range) pairs still to be made from it
  bool done = false;
  objdump_reply reply;                    // (its text dropped once parsed)
  std::vector<objdump_instruction> code;  // the kept instructions, by address
  std::map<std::uint64_t, std::vector<objdump_instruction>> alone;  // ranges run on their own
};

// The instructions of `r` in [from, stop).
std::vector<objdump_instruction> slice(const objdump_run& run, const code_range& r) {
  if (auto it = run.alone.find(r.from); it != run.alone.end()) return it->second;
  auto lo = std::lower_bound(
      run.code.begin(), run.code.end(), r.from,
      [](const objdump_instruction& in, std::uint64_t a) { return in.address < a; });
  std::vector<objdump_instruction> out;
  for (; lo != run.code.end() && lo->address < r.stop; ++lo) out.push_back(*lo);
  return out;
}

}  // namespace

std::vector<asm_view> asm_annotator::annotate(std::span<const function_id> functions) {
  std::vector<asm_view> views;
  views.reserve(functions.size());
  annotate(functions, [&](asm_view&& v) { views.push_back(std::move(v)); });
  return views;
}

void asm_annotator::annotate(std::span<const function_id> functions,
                             const std::function<void(asm_view&&)>& take) {
  impl& m = *impl_;
  const profile& p = m.p;
  const std::size_t n = functions.size();
  constexpr std::size_t piece = 256;

  // 1. Each function's view without instructions, and its plan (a piece at a time: the
  //    profile's data of a function is collected again when its view is made).
  std::vector<asm_view> heads(n);
  std::vector<disassembly_plan> plans(n);
  for (std::size_t from = 0; from < n; from += piece) {
    const auto part = functions.subspan(from, std::min(piece, n - from));
    std::vector<function_instrs> data = collect_instructions(p, part, m.o.parts);
    for (std::size_t j = 0; j < part.size(); ++j) {
      const std::size_t i = from + j;
      asm_view& v = heads[i];
      const function& fn = p.functions[functions[i]];
      v.function = functions[i];
      v.name = p.strings.text(fn.name);
      v.file = strip_cwd(p.strings.text(p.files[fn.file].name), m.o.cwd);
      v.object = p.strings.text(p.objects[fn.object].name);
      for (const auto& c : m.columns) v.events.push_back(c.name);
      v.totals = m.totals;
      v.self = m.evaluate(data[j].self);
      if (!(p.positions & pos_instr) || data[j].instrs.empty()) {
        v.status = asm_status::no_instructions;
        v.message = p.positions & pos_instr
                        ? "the profile has no cost for this function in the parts chosen"
                        : "the profile has no instruction addresses (callgrind "
                          "--dump-instr=yes writes them)";
        continue;
      }
      if (v.object.empty() || v.object == "???") {
        v.status = asm_status::no_object;
        v.message = "the profile names no object file for this function";
        continue;
      }
      const impl::object_symbols& s = m.symbols(v.object);
      v.object_path = s.reply.path;
      if (s.reply.status != asm_status::ok) {
        v.status = s.reply.status;
        v.message = s.reply.message;
        continue;
      }
      plans[i] = plan_disassembly(data[j], v.name, s.symbols);
      v.symbol = plans[i].symbol;
      v.ranges = plans[i].ranges;
      if (!plans[i].mismatch.empty()) {
        v.status = asm_status::mismatch;
        v.message = plans[i].mismatch;
      }
    }
  }

  // 2. The runs: per object, its functions' ranges by address, grouped while the next begins
  //    within group_gap of the group's end and the group spans at most 1 MiB.
  constexpr std::uint64_t max_group = 1 << 20;
  std::vector<objdump_run> runs;
  std::vector<std::vector<std::size_t>> run_of(n);  // per function and range
  {
    struct wanted {
      code_range r;
      std::size_t function, range;
    };
    std::map<std::string, std::vector<wanted>> by_object;
    for (std::size_t i = 0; i < n; ++i) {
      if (heads[i].status != asm_status::ok) continue;
      run_of[i].resize(plans[i].ranges.size());
      for (std::size_t k = 0; k < plans[i].ranges.size(); ++k)
        by_object[heads[i].object].push_back({plans[i].ranges[k], i, k});
    }
    for (auto& [object, ws] : by_object) {
      std::sort(ws.begin(), ws.end(), [](const wanted& a, const wanted& b) {
        return a.r.from != b.r.from ? a.r.from < b.r.from : a.r.stop < b.r.stop;
      });
      for (std::size_t g = 0; g < ws.size();) {
        objdump_run run;
        run.object = object;
        run.from = ws[g].r.from;
        run.stop = ws[g].r.stop;
        std::size_t e = g;
        for (; e < ws.size(); ++e) {
          if (e > g && (ws[e].r.from > run.stop + m.o.group_gap ||
                        std::max(run.stop, ws[e].r.stop) - run.from > max_group))
            break;
          run.stop = std::max(run.stop, ws[e].r.stop);
          if (run.keep.empty() || run.keep.back().from != ws[e].r.from ||
              run.keep.back().stop != ws[e].r.stop)
            run.keep.push_back(ws[e].r);
          run_of[ws[e].function][ws[e].range] = runs.size();
          ++run.users;
        }
        runs.push_back(std::move(run));
        g = e;
      }
    }
  }
  auto make_run = [&](objdump_run& run) {
    auto go = [&](std::uint64_t from, std::uint64_t stop, std::span<const code_range> keep) {
      objdump_reply r = m.run(
          {run.object,
           {"-d", "-w", "-C", "--start-address=" + hex(from), "--stop-address=" + hex(stop)}});
      if (r.status == asm_status::ok && r.exit_code != 0) {
        r.status = asm_status::objdump_failed;
        r.message = "objdump failed (exit status " + std::to_string(r.exit_code) + ")" +
                    (r.errors.empty() ? std::string() : ": " + first_line(r.errors));
      }
      objdump_disassembly d;
      if (r.status == asm_status::ok) d = parse_objdump_disassembly(r.text, keep);
      r.text.clear();
      r.text.shrink_to_fit();
      return std::pair(std::move(r), std::move(d.instructions));
    };
    auto [reply, code] = go(run.from, run.stop, run.keep);
    run.reply = std::move(reply);
    run.code = std::move(code);
    std::stable_sort(run.code.begin(), run.code.end(),
                     [](auto& a, auto& b) { return a.address < b.address; });
    // A range whose start the run's linear decoding did not reach in step: on its own.
    if (run.reply.status == asm_status::ok && run.keep.size() > 1)
      for (const code_range& r : run.keep) {
        auto it = std::lower_bound(run.code.begin(), run.code.end(), r.from,
                                   [](auto& in, std::uint64_t a) { return in.address < a; });
        if (it != run.code.end() && it->address == r.from) continue;
        auto [alone_reply, alone_code] = go(r.from, r.stop, std::span(&r, 1));
        if (alone_reply.status == asm_status::ok) run.alone[r.from] = std::move(alone_code);
      }
    run.done = true;
  };

  // 3. The views in order, a piece at a time.
  for (std::size_t from = 0; from < n; from += piece) {
    const auto part = functions.subspan(from, std::min(piece, n - from));
    std::vector<std::size_t> todo;
    for (std::size_t i = from; i < from + part.size(); ++i)
      for (std::size_t r : run_of[i])
        if (!runs[r].done && std::find(todo.begin(), todo.end(), r) == todo.end())
          todo.push_back(r);
    std::atomic<std::size_t> next{0};
    // What a helper threw (out of memory, or the runner's own): thrown here once they are
    // done, as this thread's own would be. (Out of a helper's function it would end the
    // process.) The others take no more runs.
    std::mutex failed_lock;
    std::exception_ptr failed;
    auto work = [&] {
      for (std::size_t t; (t = next.fetch_add(1)) < todo.size();) make_run(runs[todo[t]]);
    };
    auto help = [&] {
      try {
        work();
      } catch (...) {
        next = todo.size();
        std::lock_guard g(failed_lock);
        if (!failed) failed = std::current_exception();
      }
    };
    {
      std::vector<std::jthread> helpers;
      try {
        for (unsigned t = 1; t < m.o.jobs && t < todo.size(); ++t) helpers.emplace_back(help);
      } catch (const std::system_error&) {  // no more threads: this one does the rest
      }
      work();
    }
    if (failed) std::rethrow_exception(failed);
    std::vector<function_instrs> data = collect_instructions(p, part, m.o.parts);
    for (std::size_t j = 0; j < part.size(); ++j) {
      const std::size_t i = from + j;
      asm_view v = std::move(heads[i]);
      if (v.status == asm_status::ok) {
        objdump_disassembly d;
        for (std::size_t k = 0; k < run_of[i].size(); ++k) {
          objdump_run& run = runs[run_of[i][k]];
          const code_range& r = plans[i].ranges[k];
          if (k == 0) {
            // How to see this function's (first) code alone.
            v.objdump_command = run.reply.command;
            replace_once(v.objdump_command, "--start-address=" + hex(run.from),
                         "--start-address=" + hex(r.from));
            replace_once(v.objdump_command, "--stop-address=" + hex(run.stop),
                         "--stop-address=" + hex(plans[i].symbol ? r.to : r.stop));
            if (!run.reply.path.empty()) v.object_path = run.reply.path;
            v.notes = run.reply.notes;
          }
          if (run.reply.status != asm_status::ok && v.status == asm_status::ok) {
            v.status = run.reply.status;
            v.message = run.reply.message;
          }
          for (auto& in : slice(run, r)) d.instructions.push_back(std::move(in));
          if (--run.users == 0) run = objdump_run{};  // its code is no longer needed
        }
        if (v.status == asm_status::ok) {
          auto matched = match_instructions(data[j], d, plans[i]);
          if (!matched) {
            v.status = asm_status::mismatch;
            v.message = matched.error().message;
          } else {
            m.fill_instructions(v, data[j], *matched);
          }
        }
      }
      take(std::move(v));
    }
  }
}

}  // namespace calltree
