// tui/asm_page.cc — a function's machine code as a page (tui/pages.h: asm_page).
#include <cinttypes>
#include <cstdio>

#include "asm/session_code.h"
#include "pages.h"
#include "views/columns.h"

namespace calltree::tui {
namespace {

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%" PRIx64, v);
  return buf;
}

}  // namespace

result<page> asm_page(const views::session& s, std::uint32_t id, std::size_t event,
                      const std::vector<std::uint32_t>& parts, const objdump_runner& run,
                      std::size_t width) {
  if (s.is_cycle(id) || id >= s.keys()) return error{"a cycle has no machine code of its own"};
  if (!run) return error{"no objdump to disassemble with"};
  if (s.input_name == "-") return error{"the machine code needs the profile read again"};
  const auto names = event_names(s);
  if (names.empty()) return error{"the profile has no events"};
  const std::string shown = names[std::min(event, names.size() - 1)];
  profile q;
  if (auto failed = detail::read_code_of(s, id, q)) return error{failed->message};
  page p;
  p.title = "Machine code of " + std::string(s.name(id));
  if (!(q.positions & pos_instr)) {
    p.note = "The profile has no instruction addresses (callgrind --dump-instr=yes records them).";
    return p;
  }
  asm_options o;
  o.events = {shown};
  o.event_definitions = s.options.event_definitions;
  for (std::uint32_t n : parts) o.parts.push_back(part_id{n});
  o.cwd = s.options.cwd;
  // (Shares of the program's total of the parts shown, as the other views'.)
  const std::vector<std::string> columns{shown};
  auto cols = views::resolve_columns(s, columns, {});
  if (!cols) return cols.error();
  const std::uint64_t total = cols->columns[0].value(s.costs_of(parts)->totals());
  const std::size_t w = cost_width(total);
  std::vector<asm_view> views_made;
  auto made = detail::annotate_code_of(s, id, q, o, run,
                                       [&](asm_view&& v) { views_made.push_back(std::move(v)); });
  if (!made) return made.error();
  p.header = right(shown, w) + "  " + right("Address", 10) + "  Instruction";
  for (const asm_view& v : views_made) {
    line head;
    head.text = v.name + (v.object.empty() ? "" : " [" + v.object + "]") +
                (v.status == asm_status::ok ? "" : ": " + v.message);
    head.look = tone::heading;
    p.lines.push_back(std::move(head));
    for (const auto& n : v.notes) {
      line note;
      note.text = "  " + n;
      note.look = tone::dim;
      p.lines.push_back(std::move(note));
    }
    for (const asm_instruction& in : v.instructions) {
      if (in.gap_before) {
        line gap;
        gap.text = right("", w) + "  " + right("...", 10);
        gap.look = tone::dim;
        p.lines.push_back(std::move(gap));
      }
      const std::uint64_t self = in.self.empty() ? 0 : in.self[0];
      line l;
      l.text = right(in.profiled ? cost_text(self, total) : std::string(), w) + "  " +
               right(hex(in.address), 10) + "  " + in.mnemonic +
               (in.operands.empty() ? "" : " " + in.operands);
      l.look = in.hot ? tone::hot : in.profiled ? tone::plain : tone::dim;
      p.lines.push_back(std::move(l));
      for (const auto& c : in.calls) {
        line cl;
        cl.text = right(cost_text(c.inclusive.empty() ? 0 : c.inclusive[0], total), w) + "  " +
                  std::string(10, ' ') + "    -> " + c.callee + " (" + std::to_string(c.count) +
                  (c.count == 1 ? " call)" : " calls)");
        cl.look = tone::dim;
        p.lines.push_back(std::move(cl));
      }
      for (const auto& j : in.jumps) {
        line jl;
        jl.text = right("", w) + "  " + std::string(10, ' ') + "    " +
                  (j.conditional ? "jcnd " : "jump ") + std::to_string(j.followed) + "/" +
                  std::to_string(j.executed) + " to " +
                  (j.target_function.empty() ? hex(j.target) : j.target_function);
        jl.look = tone::dim;
        p.lines.push_back(std::move(jl));
      }
    }
  }
  if (p.lines.empty()) p.note = "No function of this name has machine code in the profile.";
  for (auto& l : p.lines) l.text = fit(l.text, width);
  return p;
}

}  // namespace calltree::tui
