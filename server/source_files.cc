// server/source_files.cc — reading a source file the profile names (see source_files.h).
#include "source_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace calltree::server::detail {

namespace {

constexpr std::uint64_t max_source_bytes = 32u << 20;

}  // namespace

bool names_no_file(const std::string& name) {
  return name.empty() || name == "???" || name == "php:internal";
}

source_text read_source(const std::string& name, const views::load_options& where) {
  source_text out;
  if (name.empty() || name == "???") {
    out.no_file = true;
    out.message =
        "the profile names no source file for this code (it has no debug information: "
        "compiled without -g, or its symbols stripped)";
    return out;
  }
  if (name == "php:internal") {
    out.no_file = true;
    out.message =
        "php:internal is PHP's built-in functions: they are part of the interpreter and have "
        "no PHP source";
    return out;
  }
  bool done = false;
  views::look_for_source(name, where.include_dirs, where.source_roots,
                         [&](const std::string& path, const std::string&) {
                           const int fd =
                               ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
                           if (fd < 0) return false;
                           struct stat st;
                           if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
                             ::close(fd);
                             return false;
                           }
                           done = true;
                           if (static_cast<std::uint64_t>(st.st_size) > max_source_bytes) {
                             ::close(fd);
                             out.message = path + " is larger than 32 MB; not shown";
                             return true;
                           }
                           std::string text(static_cast<std::size_t>(st.st_size), '\0');
                           std::size_t got = 0;
                           while (got < text.size()) {
                             const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
                             if (n < 0 && errno == EINTR) continue;
                             if (n <= 0) break;
                             got += static_cast<std::size_t>(n);
                           }
                           ::close(fd);
                           text.resize(got);
                           if (text.substr(0, 65536).find('\0') != std::string::npos) {
                             out.message = path + " is not a text file; not shown";
                             return true;
                           }
                           out.found = true;
                           out.path = path;
                           std::size_t pos = 0;
                           while (pos < text.size()) {
                             const std::size_t nl = text.find('\n', pos);
                             const std::size_t end = nl == std::string::npos ? text.size() : nl;
                             std::size_t cut = end;
                             if (cut > pos && text[cut - 1] == '\r') --cut;
                             out.lines.emplace_back(text, pos, cut - pos);
                             pos = end + 1;
                           }
                           return true;
                         });
  if (done) return out;
  out.message = name + " was not found (looked in the current directory" +
                (where.include_dirs.empty() ? "" : ", the -I directories") +
                (where.source_roots.empty() ? "" : ", the --source-root rewrites") +
                "; give -I DIR or --source-root OLD=NEW)";
  return out;
}

}  // namespace calltree::server::detail
