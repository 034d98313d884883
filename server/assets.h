// server/assets.h — the front end built from web/ and embedded into the binary.
//
// What it is: every file of `${CMAKE_BINARY_DIR}/web/dist/` (index.html, assets/...) as it was
// when the binary was built, with its content type, made into a generated .cc by
// server/embed_assets.cmake (docs/serve.md). What it is not: a file server: nothing is read
// from disk at run time. Built with -DCALLTREE_WEB=OFF, or without npm, the table is empty and
// `calltree serve` says so at `/` (the API still answers).
#pragma once

#include <span>
#include <string_view>

namespace calltree::server {

struct asset {
  std::string_view path;  // "/index.html", "/assets/index-1234.js", ...
  std::string_view content_type;
  std::string_view data;
};

std::span<const asset> embedded_assets();

// The asset at `path`, or nullptr.
const asset* find_asset(std::string_view path);

}  // namespace calltree::server
