// views/class_scope.h — (internal) the class or namespace a function's name puts it in: the
// function list's and the diff's "class / namespace" grouping (KCachegrind's "C++ class").
//
// KCachegrind takes what comes before the last `::` ahead of the first `(`; that gives
// `void ns` for `void ns::f()` and nothing for a PHP method. Here, by the names' dialects:
// - C++ (demangled): the qualified name's part before its last `::`, outside template
//   arguments, parameters, the return type and `[abi:...]`/`[clone ...]` tags, an operator's
//   own name (`operator<<`, `operator()`, `operator new`) never split; a local scope counts
//   (`f()::{lambda(int)#1}::operator()(int) const` is in `f()::{lambda(int)#1}`, the lambda's
//   closure class), `(anonymous namespace)` is a namespace; callgrind's `'2` and `'caller`
//   suffixes are ignored. Perl's `main::fib` and Ruby's `Array::each` split the same way;
// - PHP (Xdebug): `Class->method` and `Class::method` are in `Class` (`php::Exception->...`
//   in `php::Exception`, internal functions `php::f` in `php`), `Ns\Sub\f` in `Ns\Sub`, the
//   file loads `include::PATH` (also `include_once`, `require`, `require_once`) in their
//   keyword's group whatever PATH holds; `{main}` and `{closure:...}` in none;
// - Python: cProfile's `<method 'append' of 'list' objects>` is in `list`,
//   `<built-in method posix.stat>` in `posix`; pstats' printed `work.py:47(fib)` and
//   `work.py:fib` in `work.py` (the module); a plain `fib` or `fib:47` (pyprof2calltree,
//   pprofile, calltree's pstats import) names no class: none.
// None ("") for a name with no scope (a C function, `main`, `0x...`, Go's `pkg.Func`).
#pragma once

#include <string_view>

namespace calltree::views {

// The class or namespace of a function name, a part of `name`; "" when it names none.
std::string_view class_scope(std::string_view name);

}  // namespace calltree::views
