// asm/session_code.h — (internal) the machine code of a session's function: its name's
// functions read again into a small model, and annotated (serve's /api/v1/asm, `calltree tui`).
//
// What it is: a views::session holds no instruction rows (the real 260 MB profile's would take
// 1.25 GB), so the machine-code views read the profile again for one name, as `annotate --asm`
// does: only the chunks that hold that name's records where the session indexed them
// (views/chunk_ranges.h), else each file of the session. The reading's diagnostics were shown
// when the session was loaded: only counted here. What it is not: objdump (the caller gives its
// runner) nor a cache.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "calltree/asm.h"
#include "views/session.h"

namespace calltree::detail {

// Why the functions could not be read again.
struct code_read_error {
  bool changed = false;  // the file changed since the session read it (else: unreadable)
  std::string message;
};

// Reads the functions of key `id`'s name into `q` (q.positions says whether they have
// instruction addresses).
std::optional<code_read_error> read_code_of(const views::session& s, std::uint32_t id, profile& q);

// The machine code of key `id` (read into `q` by read_code_of) for `options`, one asm_view per
// function of annotate's key (key_functions), each handed to `each`. An error for an unknown
// event.
status annotate_code_of(const views::session& s, std::uint32_t id, const profile& q,
                        const asm_options& options, const objdump_runner& run,
                        const std::function<void(asm_view&&)>& each);

}  // namespace calltree::detail
