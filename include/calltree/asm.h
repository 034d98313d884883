// asm.h — machine-code annotation: a function's instructions with their costs, calls and jumps,
// as KCachegrind's assembly view shows them.
//
// What it is: the data behind `calltree annotate --asm` and serve's assembly panel, in pure
// steps a caller may also take one at a time:
//  1. the profile's side (`collect_instructions`): for a function of a profile read with
//     instruction positions (callgrind --dump-instr=yes, --collect-jumps=yes for jumps), the
//     self cost per event at each instruction address, the calls made from it (count, callee,
//     inclusive cost) and its jumps (`jump=` count, `jcnd=` executed/followed), with the source
//     line of the profile's line column; any part or all parts summed. `function_filter` keeps
//     only some functions' records while a file is read, so a large profile need not be built
//     whole with instruction rows.
//  2. the view (`asm_view`: plain structs, ready for a text report, JSON or a web panel) and
//     `asm_annotator`, which makes it for any number of functions, running objdump through a
//     callback (once per object for its symbols, `objdump -t -T -w -C`, and once per group of
//     nearby functions, `objdump -d -w -C`), reading its text, and matching it with the
//     profile: which address range to disassemble (the function's symbol, else the profile's
//     own addresses), then every profile address must be an instruction start inside the
//     function and every conditional jump the branch objdump shows there. Anything else means
//     the object changed since the run: the view then carries the reason and no number (never
//     a wrong annotation).
// Addresses are the object's own (link-time) addresses, as callgrind writes them for
// executables (PIE or not) and shared libraries alike, and as objdump prints them: no
// relocation is applied (KCachegrind passes them to objdump the same way).
// What it is not: a disassembler, a reader of ELF files or a process runner. The library never
// runs objdump: the caller does (the CLI, the server's edge) and hands the text over.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/export.h"
#include "calltree/input.h"
#include "calltree/profile.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "calltree/result.h"

namespace calltree {

// ---- 1. The profile's side ---------------------------------------------------------------

// Calls made from one instruction to one callee (`calls=` lines at that address, summed).
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct instr_call {
  function_id callee;
  std::uint64_t count = 0;
  std::uint64_t target = 0;  // the callee's address, as the calls= line gives it
  bool has_target = false;
  std::vector<std::uint64_t> inclusive;  // per profile event: the inclusive cost of those calls
};

// A jump from one instruction (`jump=` / `jcnd=` lines from that address to one target).
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct instr_jump {
  bool conditional = false;     // jcnd=
  std::uint64_t executed = 0;   // jump=: its count; jcnd=: times the branch was executed
  std::uint64_t followed = 0;   // jump=: its count; jcnd=: times it was taken
  std::uint64_t target = 0;     // target address
  function_id target_function;  // the function itself, or another one (jfn=)
};

// One instruction address of a function with what the profile says of it.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct instr_data {
  std::uint64_t address = 0;
  file_id source_file;              // the fi=/fe=/fl= file of its cost line (0: none)
  std::uint64_t line = 0;           // its line column (0: none)
  std::vector<std::uint64_t> self;  // per profile event; all 0 for a call site or jump only
  std::vector<instr_call> calls;
  std::vector<instr_jump> jumps;
};

// A function's instructions, in address order: every address with self cost, calls or jumps.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct function_instrs {
  function_id function;
  std::vector<instr_data> instrs;
  std::vector<std::uint64_t> self;  // per profile event: the sum over `instrs`
};

// The instructions of each function of `functions` (in that order), from the profile's rows of
// the parts `parts` (0-based; empty: all parts summed). Rows without an instruction position
// (a profile without `positions: instr`) are gathered at address 0. Sums saturate.
CALLTREE_API std::vector<function_instrs> collect_instructions(
    const profile& p, std::span<const function_id> functions, std::span<const part_id> parts = {});

// A record sink that passes on part headers and ends, and the cost, call and jump records of
// the functions whose name `keep` accepts (asked once per name), to `next` (a profile builder
// keeping instruction positions and jumps): a profile of a few functions, read from a large
// file in the time of a reading and the memory of those functions.
// Threads: one thread at a time (a sink). Lifetime: it refers to its pool and to `next`: destroy it
// first.
class CALLTREE_API function_filter final : public record_sink {
 public:
  function_filter(const string_pool& names, std::function<bool(std::string_view name)> keep,
                  record_sink& next);
  record_needs needs() const override { return next_.needs(); }
  void on_part_begin(const part_header& h) override { next_.on_part_begin(h); }
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;
  void on_part_end(const part_end& e) override { next_.on_part_end(e); }

 private:
  bool kept(string_id function);
  const string_pool& names_;
  std::function<bool(std::string_view)> keep_;
  record_sink& next_;
  std::vector<std::int8_t> decided_;  // per string id: 0 not asked, 1 kept, -1 not
  std::string scratch_;
};

// Reads `in` into `out` (a fresh profile) keeping only the records of the functions whose name
// `keep` accepts, with instruction positions, lines and jumps: function_filter before a
// profile builder. Diagnostics go to `diagnostics` (the caller's reading of the whole file
// reported them already, most likely); the result is read_callgrind's (an error_code::no_profile
// error for an input that holds no profile). The builder's memory
// limit (builder_options::max_memory) is options.max_name_bytes.
CALLTREE_API result<read_stats> read_functions(input& in, profile& out,
                                               std::function<bool(std::string_view name)> keep,
                                               diagnostic_sink& diagnostics,
                                               const reader_options& options = {});

// The functions of a profile a report's key stands for. annotate (and serve) key a function by
// "file:name" and object, the file being the fl= file or, for inlined code, the fi= file of
// its cost lines; a key's machine code is that of the functions of that name and object (any
// object when "") whose fl= file or one of whose cost lines' files is the key's file (as
// shown: `cwd` stripped from the front). Functions with no instruction (only called) are left
// out.
// Threads: a const one may be read from several threads at once. Lifetime: it refers to its
// profile: destroy it first.
class CALLTREE_API key_functions {
 public:
  key_functions(const profile& p, std::string cwd);
  std::vector<function_id> of(std::string_view file, std::string_view name,
                              std::string_view object) const;

 private:
  const profile& p_;
  std::string cwd_;
  id_vector<function_id, std::vector<file_id>> files_;        // per function: its lines' files
  std::vector<std::pair<std::string, function_id>> by_name_;  // sorted
  std::string shown(file_id f) const;
};

// ---- 2. What the view shows of the object -----------------------------------------------

// An address range of code: [from, to) is shown; objdump decodes [from, stop) (stop >= to, so
// an instruction that starts before `to` is decoded whole).
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct code_range {
  std::uint64_t from = 0, to = 0, stop = 0;
};

// A symbol of `objdump -t -T -w [-C]` (the static and the dynamic table).
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct object_symbol {
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  bool function = false;  // flag F
  std::string section;
  std::string name;  // as printed (demangled with -C), without version or .hidden
};

// ---- 3. The view -------------------------------------------------------------------------

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct asm_call_view {
  std::string callee;         // the callee's name
  std::string callee_file;    // its fl= file
  std::string callee_object;  // its ob= object
  function_id callee_id;      // in the profile the view was made from
  std::uint64_t count = 0;
  std::vector<std::uint64_t> inclusive;  // per view event
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct asm_jump_view {
  bool conditional = false;
  // jump=: both its count. jcnd=: followed the lines' taken counts summed; executed the
  // instruction's executions (the profile's Ir, when it has one; else the lines' summed):
  // callgrind writes a jcnd= line per context of the instruction (a basic block of its own
  // holding it, a caller, a part) only where the branch was taken at least once.
  std::uint64_t executed = 0, followed = 0;
  std::uint64_t target = 0;
  std::int64_t target_index = -1;  // the target's instruction in the view, or -1 (outside)
  std::string target_function;     // set when it leaves the function (jfn=: a tail call)
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct asm_instruction {
  std::uint64_t address = 0;
  std::string bytes, mnemonic, operands;
  std::optional<std::uint64_t> branch_target;  // objdump's direct target, if any
  bool profiled = false;    // the profile names this address (cost, calls or jumps)
  std::string source_file;  // the profile's file and line of this address ("", 0: none)
  std::uint64_t line = 0;
  std::vector<std::uint64_t> self;  // per view event (all 0 when not profiled)
  bool hot = false;                 // self of the first event >= asm_options::hot_percent
  bool gap_before = false;  // code skipped before it (a range of its own: see asm_view::ranges)
  std::vector<asm_call_view> calls;
  std::vector<asm_jump_view> jumps;
};

// Threads and lifetime: a value.
enum class asm_status : std::uint8_t {
  ok,               // instructions with their costs
  no_instructions,  // the profile has no instruction addresses for it (no --dump-instr)
  no_object,        // no object file is named (ob= empty or "???")
  object_missing,   // the object file is not found
  objdump_failed,   // objdump could not be run or failed
  mismatch,         // the object does not match the profile: changed since the run
};
CALLTREE_API std::string_view to_string(asm_status s);

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct asm_view {
  function_id function;            // in the profile the view was made from
  std::string name, file, object;  // the function's name, fl= file and ob= object
  asm_status status = asm_status::ok;
  std::string message;                  // why not ok (a sentence), or "" when ok
  std::vector<std::string> notes;       // notes beside an ok view ("the object is newer than ...")
  std::string object_path;              // the file objdump read ("" if none)
  std::string objdump_command;          // how it ran, to reproduce it
  std::optional<object_symbol> symbol;  // the function symbol used, if any
  // The code shown ([from, to) each), in address order: the function's symbol's range when the
  // object has one, and a range per cluster of profiled addresses outside any symbol (callgrind
  // gives a function the code it jumps to when that code has no symbol of its own).
  std::vector<code_range> ranges;
  std::vector<std::string> events;      // the cost columns
  std::vector<std::uint64_t> totals;    // program totals per column (the parts chosen)
  std::vector<std::uint64_t> self;      // the function's self cost per column
  std::vector<asm_instruction> instructions;  // in address order (empty unless ok)
};

// Threads and lifetime: a value, copied freely.
struct asm_options {
  // The cost columns: recorded or derived event names (empty: every recorded event).
  std::vector<std::string> events;
  std::vector<std::string> event_definitions;  // extra "NAME = formula" definitions
  std::vector<part_id> parts;                  // 0-based; empty: all parts summed
  double hot_percent = 5.0;  // an instruction with at least this % of the function's cost
  std::string cwd;           // stripped from the front of file names (ending in '/')
  // Disassemble the functions of one object within this many bytes of each other with one
  // objdump run: a run costs ~0.1 s before it decodes (libLLVM, 110 MB), and decodes ~2 MB/s.
  std::uint64_t group_gap = 128 << 10;
  // objdump runs at once (the runner is then called from that many threads).
  unsigned jobs = 1;
};

// What asm_annotator asks of objdump: `objdump ARGUMENTS... OBJECT-FILE`.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct objdump_request {
  std::string object;                  // the object as the profile names it (ob=)
  std::vector<std::string> arguments;  // e.g. -d -w -C --start-address=0x1230 ...
};
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct objdump_reply {
  // ok: objdump ran (whatever its exit status); object_missing: the object file is not
  // there; objdump_failed: objdump could not be run.
  asm_status status = asm_status::ok;
  std::string message;             // why not ok
  std::string path;                // the object file objdump read
  std::string command;             // the command line run, for display
  int exit_code = 0;               // objdump's exit status
  std::string text;                // its standard output
  std::string errors;              // its standard error
  std::vector<std::string> notes;  // e.g. the object is newer than the profile
};
// Called from asm_options::jobs threads at once (when more than 1).
// Threads: called on the thread that asks for a view. Lifetime: the annotator keeps a copy.
using objdump_runner = std::function<objdump_reply(const objdump_request&)>;

// Makes asm views of a profile's functions, running objdump through `run` (each object's
// symbol table once, then its code once per group of nearby functions).
// Threads: one thread at a time (it calls its objdump_runner on the calling thread). Lifetime: it
// refers to its profile: destroy it first.
class CALLTREE_API asm_annotator {
 public:
  // An error for an unknown event name in options.events.
  static result<asm_annotator> make(const profile& p, asm_options options, objdump_runner run);

  // The views of `functions`, in that order.
  std::vector<asm_view> annotate(std::span<const function_id> functions);
  // The same, each handed to `take` in that order as soon as it is made, so a long list's
  // views are never held at once: objdump's runs are planned for the whole list (one run
  // serves every function of a group of nearby code), made as the list reaches them, and
  // forgotten after the last function that needs them.
  void annotate(std::span<const function_id> functions,
                const std::function<void(asm_view&&)>& take);

 private:
  asm_annotator(const profile& p, asm_options options, objdump_runner run);
  struct impl;
  std::shared_ptr<impl> impl_;
};

// ---- 4. Text and JSON ----------------------------------------------------------------------

// Threads and lifetime: a value, copied freely.
struct asm_text_options {
  bool show_percs = true;  // a percentage of the program total after each cost
  // The text of a source line (for the headers between instructions), if the file is found.
  std::function<std::optional<std::string>(std::string_view file, std::uint64_t line)> source_line;
};

// One function's annotated machine code, in the layout of callgrind_annotate's annotated source
// (share/doc/calltree/annotate.md, "Machine code"): cost columns, a `*` on hot instructions, the
// address, bytes and instruction as objdump prints them, a line per call (its inclusive cost, `=>`)
// and per jump under its instruction, and a header wherever the source line changes. A view that is
// not ok says why, with no numbers.
CALLTREE_API std::string asm_text(const asm_view& v, const asm_text_options& options = {});

// One function's view as a JSON object (share/doc/calltree/json.md, "asm"): the object
// `calltree annotate --asm --json` lists and `GET /api/v1/asm/ID` answers with.
CALLTREE_API std::string asm_json(const asm_view& v);

}  // namespace calltree
