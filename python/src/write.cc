// write.cc — write_file (write.h).
#include "write.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "calltree/analysis/merge.h"

namespace calltree::python {
namespace {

error system_error(const std::string& path, int e) {
  const error_code code = e == ENOENT   ? error_code::not_found
                          : e == EACCES || e == EPERM ? error_code::permission_denied
                          : e == EISDIR ? error_code::is_directory
                                        : error_code::io_error;
  return error{path + ": " + std::strerror(e), code, e};
}

}  // namespace

status write_file(const profile& p, const std::string& path, const std::string& creator) {
  const std::string temporary = path + ".calltree-tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return system_error(path, errno ? errno : EIO);
    writer_options options;
    options.creator = creator;
    const bool written = write_callgrind(p, out, options);
    out.close();
    if (!written || !out) {
      const int e = errno ? errno : EIO;
      std::remove(temporary.c_str());
      return system_error(path, e);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(temporary.c_str());
    return system_error(path, e);
  }
  return ok();
}

}  // namespace calltree::python
