// export.h — CALLTREE_API marks a declaration of the public API: what libcalltree.so exports.
// The library is compiled with hidden visibility, so whatever is not marked stays inside it
// (the tool's own code, template instances, the standard library's). Header-only code (inline
// functions, templates) needs no mark. Empty for the static library and other compilers.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define CALLTREE_API __attribute__((visibility("default")))
#else
#define CALLTREE_API
#endif
