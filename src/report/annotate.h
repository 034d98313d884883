// report/annotate.h — callgrind_annotate's report (text and JSON): its options, and the report
// of a profile already built.
//
// What it is: `calltree annotate`, a drop-in for Valgrind 3.19's callgrind_annotate: the same
// sections, layout and number formatting (header, PROGRAM TOTALS, the `file:function [object]`
// table, caller/callee trees, auto- and user-annotated source), computed from the records
// (views/annotate_direct.h fills the tables, views/tables.h), with right numbers where
// callgrind_annotate is wrong (docs/annotate.md lists every difference). Functions are grouped
// as callgrind_annotate groups them: by "file:name" where file is the fl=/fi=/fe= file in force
// (cost of inlined code is a separate pseudo-function under its fi= file), with the current
// directory stripped from the front of file names.
// What it is not: a reader (the CLI streams the input into annotate_direct) or a printer (text
// comes back as a string; only cli/ prints).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "calltree/memory_limit.h"
#include "calltree/profile.h"
#include "calltree/records.h"
#include "calltree/result.h"
#include "views/annotate_options.h"

namespace calltree {

class annotate_direct;  // views/annotate_direct.h: the tables, filled while reading

// The text report of tables filled by `tables` (every record in), handed to `write` in pieces
// of about 1 MB as it is made: byte for byte callgrind_annotate's layout. An error for what
// callgrind_annotate dies on (an unknown --show/--sort event, a user file not found); when one
// is returned nothing has been written. `warnings` receives notes for stderr. The tables are
// given up on the way: call it once.
status annotate_text_of(annotate_direct& tables, const std::function<void(std::string_view)>& write,
                        std::vector<std::string>* warnings = nullptr);

// The JSON report (schema "calltree-annotate", version 1, docs/json.md) of tables filled for it
// (annotate_direct::keep_json_tables), into `out`. The same errors; call it once.
status annotate_json_of(annotate_direct& tables, std::string& out,
                        std::vector<std::string>* warnings = nullptr);

// The annotate report of a profile already built, as text, byte for byte in
// callgrind_annotate's layout: the profile replayed (replay()) through annotate's one filler
// of tables (views/annotate_direct.h). An error for what callgrind_annotate dies on (an unknown
// --show/--sort event, a user file not found); `warnings` receives notes for stderr. The model
// does not keep which cost columns a line left out, so every column a part has is defined ("0",
// never "."): `calltree annotate` reads the file itself.
result<std::string> annotate_text(const profile& p, const annotate_options& options,
                                  std::vector<std::string>* warnings = nullptr);

// The same text handed to `write` in pieces as it is made (about 1 MB each), so a large report
// is never held whole. The errors are annotate_text's; when one is returned nothing has been
// written.
status annotate_text_to(const profile& p, const annotate_options& options,
                        const std::function<void(std::string_view)>& write,
                        std::vector<std::string>* warnings = nullptr);

// The same report as JSON (schema "calltree-annotate", version 1, docs/json.md).
result<std::string> annotate_json(const profile& p, const annotate_options& options,
                                  std::vector<std::string>* warnings = nullptr);

}  // namespace calltree
