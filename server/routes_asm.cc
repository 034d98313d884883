// server/routes_asm.cc — GET /api/v1/asm/ID: a function's machine code with its costs per
// instruction, calls and jumps (docs/serve.md, docs/annotate.md "Machine code").
//
// The session holds no instruction rows, so the profile is read again for this one name into a
// small model (asm/session_code.h, as `calltree tui` reads it); the key's functions are those
// of annotate's key, disassembled through the runner the command line gives (objdump). Answers
// and objdump's replies are kept, and only a few answers are made at once (asm_cache.h).
#include <algorithm>

#include "api_impl.h"
#include "asm/session_code.h"
#include "asm_cache.h"
#include "calltree/asm.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace calltree::server::detail {

namespace {

// The answer of function `id`: the profile read again for its name, its code disassembled.
response make_answer(const views::session& s, std::uint32_t id, const common_query& c, double hot,
                     const objdump_runner& run, const machine_code_writer& w) {
  profile q;
  if (auto failed = calltree::detail::read_code_of(s, id, q))
    return failed->changed ? error_response(409, "file_changed", failed->message)
                           : error_response(500, "input_unreadable", failed->message);

  json_writer j;
  begin_envelope(j);
  function_fields(j, s, id);
  const bool has_instr = q.positions & pos_instr;
  j.key("has_instructions").value(has_instr);
  j.end_object();
  std::string body = j.take();
  body.pop_back();  // the envelope's '}': the views follow as annotate --json writes them
  body += ",\"";
  body += w.field;
  body += "\":[";
  if (has_instr) {
    asm_options ao;
    ao.events = c.events;
    // (the chosen events, and Ir when the writer counts executions by it and the profile has it)
    if (w.with_ir && !ao.events.empty() &&
        std::find(ao.events.begin(), ao.events.end(), "Ir") == ao.events.end())
      for (const auto& e : q.events)
        if (e.name == "Ir") ao.events.push_back("Ir");
    ao.event_definitions = s.options.event_definitions;
    for (const auto& d : c.derived) ao.event_definitions.push_back(d);
    for (std::uint32_t n : c.parts) ao.parts.push_back(part_id{n});
    ao.hot_percent = hot;
    ao.cwd = s.options.cwd;
    bool first = true;
    auto made = calltree::detail::annotate_code_of(s, id, q, ao, run, [&](asm_view&& v) {
      if (!first) body += ',';
      first = false;
      body += w.write(v);
    });
    if (!made) return error_response(400, "bad_event", made.error().message);
  }
  body += "]}";
  return json_response(std::move(body));
}

}  // namespace

response route_asm(const request& r, const views::session& s, std::string_view segment,
                   asm_cache& cache) {
  static const machine_code_writer asm_writer{"asm", false,
                                              [](const asm_view& v) { return asm_json(v); }};
  return route_machine_code(r, s, segment, cache, asm_writer);
}

response route_machine_code(const request& r, const views::session& s, std::string_view segment,
                            asm_cache& cache, const machine_code_writer& w) {
  const objdump_runner& run = cache.runner();
  std::uint32_t id = 0;
  if (auto f = parse_id(segment, s, id)) return error_response(*f);
  if (s.is_cycle(id))
    return error_response(400, "cycle_has_no_code",
                          "a cycle has no machine code of its own: ask for one of its functions");
  if (!run) return error_response(404, "no_asm", "this server disassembles nothing");
  if (s.input_name == "-")
    return error_response(409, "input_not_rereadable",
                          "machine code needs the profile read again, and it came from "
                          "standard input: serve a file");
  common_query c;
  if (auto f = parse_common(r, s, c)) return error_response(*f);
  double hot = 5.0;
  if (auto v = param(r, "hot")) {
    auto f = parse_fraction(*v);
    if (!f) return error_response(400, "bad_hot", "hot takes a fraction from 0 to 1 (0.05 is 5 %)");
    hot = *f * 100.0;
  }

  // An answer made before (the same function and parameters) is kept: sent again at once.
  std::string key = r.path;
  for (const auto& [k, v] : r.params)
    if (k != "token") key += '\0' + k + '=' + v;
  if (auto kept = cache.answers().find(key)) return json_response(std::move(*kept));
  // Else one of the few slots for making one: past them, come back (the workers stay free for
  // the other routes' requests).
  auto slot = cache.try_slot();
  if (!slot) {
    response busy = error_response(503, "busy",
                                   "the server is making other machine-code answers: try again "
                                   "in a second");
    busy.headers.emplace_back("Retry-After", "1");
    return busy;
  }

  response res = make_answer(s, id, c, hot, cache.runner(), w);
  // (the reading's and objdump's buffers, freed, are given back to the system: without it the
  // arenas of the workers that made answers keep them, 1 GB on the real 260 MB profile)
#ifdef __GLIBC__
  malloc_trim(0);
#endif
  if (res.status == 200) cache.answers().put(key, res.body);
  return res;
}

}  // namespace calltree::server::detail
