// export.h — CALLTREE_API marks a declaration of the public API: what libcalltree.so exports.
// The library is compiled with hidden visibility, so whatever is not marked stays inside it
// (the tool's own code, template instances, the standard library's). Header-only code (inline
// functions, templates) needs no mark. Empty for the static library and other compilers.
// It also stops a compilation below C++20 with one message that says so (every public header
// includes it).
#pragma once

// calltree's headers are C++20 (std::span, concepts, <=>): say so before any of them fails.
#if defined(_MSVC_LANG)
#if _MSVC_LANG < 202002L
#error "calltree needs C++20: compile with /std:c++20 or newer"
#endif
#elif __cplusplus < 202002L
#error "calltree needs C++20: compile with -std=c++20 or newer"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CALLTREE_API __attribute__((visibility("default")))
#else
#define CALLTREE_API
#endif
