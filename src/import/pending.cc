// pending.cc — (temporary, replaced by each importer as it lands) the formats not read yet.
#include "import/import.h"

namespace calltree::detail {

namespace {
void not_yet(std::string_view what, import_target& to) {
  to.no_profile = std::string(what) + " files are not read yet";
}
}  // namespace

void read_pstats(std::string_view, import_target& to) { not_yet("pstats", to); }
void read_perf_script(std::string_view, import_target& to) { not_yet("perf script", to); }

}  // namespace calltree::detail
