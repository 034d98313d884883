// asm_text.cc — one function's annotated machine code as text (docs/annotate.md, "Machine
// code"): callgrind_annotate's cost columns before objdump's lines.
#include <algorithm>
#include <cstdio>

#include "calltree/asm.h"

namespace calltree {

namespace {

const std::string rule = std::string(80, '-') + "\n";

std::string commify(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// "1,234 ( 5.67%)" as callgrind_annotate prints a cost of `total` (the percentage "%5.2f",
// "%5.1f" from 99.995 on, as there).
std::string cost_text(std::uint64_t v, std::uint64_t total, bool percs) {
  std::string s = commify(v);
  if (percs && v && total) {
    const double pc = static_cast<double>(v) * 100.0 / static_cast<double>(total);
    char buf[32];
    std::snprintf(buf, sizeof buf, pc >= 99.995 ? " (%5.1f%%)" : " (%5.2f%%)", pc);
    s += buf;
  }
  return s;
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
  return buf;
}

void pad_left(std::string& out, const std::string& s, std::size_t w) {
  if (s.size() < w) out.append(w - s.size(), ' ');
  out += s;
}
void pad_right(std::string& out, const std::string& s, std::size_t w) {
  out += s;
  if (s.size() < w) out.append(w - s.size(), ' ');
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return commify(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string asm_text(const asm_view& v, const asm_text_options& o) {
  std::string out;
  out += rule;
  out += "-- Machine code: " + v.name;
  if (!v.object.empty()) out += " [" + v.object + "]";
  out += "\n";
  out += rule;
  if (v.status != asm_status::ok) {
    out += "  Not annotated: " + v.message + "\n";
    if (!v.objdump_command.empty()) out += "  (" + v.objdump_command + ")\n";
    out += "\n";
    return out;
  }
  const std::size_t ncol = v.events.size();
  std::size_t profiled = 0;
  for (const auto& in : v.instructions) profiled += in.profiled;
  out += "Function: " + v.name + ", " + (v.file.empty() ? "???" : v.file) + "\n";
  out += "Code:     ";
  for (std::size_t r = 0; r < v.ranges.size(); ++r) {
    out +=
        (r ? ", " : "") + std::string("0x") + hex(v.ranges[r].from) + "-0x" + hex(v.ranges[r].to);
    if (r == 0 && v.symbol && v.symbol->address == v.ranges[r].from)
      out += " (symbol " + v.symbol->name + ", " + plural(v.symbol->size, "byte", "bytes") + ")";
  }
  if (!v.symbol) out += " (the profiled addresses: no symbol)";
  out += ", " + plural(v.instructions.size(), "instruction", "instructions") + ", " +
         commify(profiled) + " profiled\n";
  out += "Objdump:  " + v.objdump_command + "\n";
  for (const auto& n : v.notes) out += "Note:     " + n + "\n";
  out += "\n";

  // Column widths: every cost this function prints (instructions, calls, its total).
  std::vector<std::size_t> w(ncol, 0);
  for (std::size_t c = 0; c < ncol; ++c) {
    w[c] = std::max<std::size_t>(v.events[c].size(), 1);
    w[c] = std::max(w[c], cost_text(v.self[c], v.totals[c], o.show_percs).size());
    for (const auto& in : v.instructions) {
      w[c] = std::max(w[c], cost_text(in.self[c], v.totals[c], o.show_percs).size());
      for (const auto& call : in.calls)
        w[c] = std::max(w[c], cost_text(call.inclusive[c], v.totals[c], o.show_percs).size());
    }
  }
  std::size_t aw = 0, bw = 0;
  for (const auto& in : v.instructions) {
    aw = std::max(aw, hex(in.address).size());
    bw = std::max(bw, in.bytes.size());
  }
  auto blank_costs = [&] {
    for (std::size_t c = 0; c < ncol; ++c) out.append(w[c] + 1, ' ');
  };
  // Where instruction text starts: after the costs, the mark, the address and the bytes.
  const std::size_t text_at = 2 + aw + 2 + (bw ? bw + 2 : 0);

  for (std::size_t c = 0; c < ncol; ++c) {
    pad_right(out, v.events[c], w[c]);
    out += ' ';
  }
  out += "\n\n";

  std::string last_file;
  std::uint64_t last_line = 0;
  for (const auto& in : v.instructions) {
    if (in.gap_before) {
      blank_costs();
      out += "  ...\n";
    }
    if (in.profiled && (in.line != last_line || in.source_file != last_file) &&
        (in.line || !in.source_file.empty())) {
      last_file = in.source_file;
      last_line = in.line;
      blank_costs();
      out += "-- " + (in.source_file.empty() ? "???" : in.source_file) + ":" +
             std::to_string(in.line) + " --";
      if (o.source_line && in.line)
        if (auto text = o.source_line(in.source_file, in.line)) {
          std::string_view t = *text;
          while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r'))
            t.remove_suffix(1);
          if (!t.empty()) out += "  " + std::string(t);
        }
      out += "\n";
    }
    for (std::size_t c = 0; c < ncol; ++c) {
      pad_left(out, in.profiled ? cost_text(in.self[c], v.totals[c], o.show_percs) : ".", w[c]);
      out += ' ';
    }
    out += in.hot ? "* " : "  ";
    pad_left(out, hex(in.address), aw);
    out += ": ";
    if (bw) {
      pad_right(out, in.bytes, bw);
      out += "  ";
    }
    std::string text = in.mnemonic;
    if (!in.operands.empty()) {
      text.resize(std::max<std::size_t>(text.size(), 6), ' ');
      text += " " + in.operands;
    }
    out += text;
    out += "\n";
    for (const auto& call : in.calls) {
      for (std::size_t c = 0; c < ncol; ++c) {
        pad_left(out, cost_text(call.inclusive[c], v.totals[c], o.show_percs), w[c]);
        out += ' ';
      }
      out.append(text_at, ' ');
      out += "=> " + call.callee + " (" + commify(call.count) + "x)";
      if (!call.callee_object.empty() && call.callee_object != v.object)
        out += " [" + call.callee_object + "]";
      out += "\n";
    }
    for (const auto& j : in.jumps) {
      blank_costs();
      out.append(text_at, ' ');
      if (j.conditional) {
        char pc[32] = "";
        if (j.executed)
          std::snprintf(pc, sizeof pc, " (%.1f%% taken)",
                        static_cast<double>(j.followed) * 100.0 / static_cast<double>(j.executed));
        out += "| jump " + commify(j.followed) + " of " + commify(j.executed) + pc;
      } else {
        out += "| jump " + plural(j.executed, "time", "times");
      }
      out += " to " + hex(j.target);
      if (!j.target_function.empty()) out += " <" + j.target_function + ">";
      out += "\n";
    }
  }
  out += "\n";
  for (std::size_t c = 0; c < ncol; ++c) {
    pad_left(out, cost_text(v.self[c], v.totals[c], o.show_percs), w[c]);
    out += ' ';
  }
  out += "  self cost of " + v.name + "\n\n";
  return out;
}

}  // namespace calltree
