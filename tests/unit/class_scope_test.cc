// class_scope_test.cc — the class or namespace of a function name (views/class_scope.h), on
// names taken from the corpus's profiles (C++ of wordfreq and cc1plus, Xdebug, cProfile,
// pprofile, NYTProf, ruby-prof, Go's pprof) and a few written for a case the corpus lacks.
#include "views/class_scope.h"

#include <gtest/gtest.h>

#include <string_view>
#include <utility>

namespace {

using calltree::views::class_scope;
using case_list = std::initializer_list<std::pair<std::string_view, std::string_view>>;

void expect_scopes(case_list cases) {
  for (const auto& [name, scope] : cases) EXPECT_EQ(class_scope(name), scope) << name;
}

TEST(ClassScope, CxxOfTheCorpus) {
  expect_scopes({
      // vg-wordfreq-cxx-O2g-default: return types, templates, [abi:...], operators, lambdas
      // in template arguments, callgrind's recursion suffix.
      {"wf::Stats wf::collect<__gnu_cxx::__normal_iterator<std::__cxx11::basic_string<char, "
       "std::char_traits<char>, std::allocator<char> >*, std::vector<std::__cxx11::basic_"
       "string<char, std::char_traits<char>, std::allocator<char> > > > >(__gnu_cxx::__normal_"
       "iterator<std::__cxx11::basic_string<char>*, std::vector<std::__cxx11::basic_string<char> "
       "> >, __gnu_cxx::__normal_iterator<std::__cxx11::basic_string<char>*, std::vector<std::__"
       "cxx11::basic_string<char> > >)",
       "wf"},
      {"wf::top[abi:cxx11](wf::Stats const&, unsigned long)", "wf"},
      {"std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> "
       ">(std::basic_ostream<char, std::char_traits<char> >&, char)",
       "std"},
      {"void std::__insertion_sort<__gnu_cxx::__normal_iterator<std::pair<std::__cxx11::basic_"
       "string<char>, unsigned long>*, std::vector<std::pair<std::__cxx11::basic_string<char>, "
       "unsigned long> > >, __gnu_cxx::__ops::_Iter_comp_iter<wf::top[abi:cxx11](wf::Stats "
       "const&, unsigned long)::{lambda(auto:1 const&, auto:2 const&)#1}> >(__gnu_cxx::__normal_"
       "iterator<std::pair<std::__cxx11::basic_string<char>, unsigned long>*, std::vector<std::"
       "pair<std::__cxx11::basic_string<char>, unsigned long> > >)",
       "std"},
      {"std::ostream::sentry::sentry(std::ostream&)'2", "std::ostream::sentry"},
      {"std::__basic_file<char>::is_open() const", "std::__basic_file<char>"},
      {"std::__cxx11::messages<char>::messages(unsigned long)", "std::__cxx11::messages<char>"},
      {"_GLOBAL__sub_I__ZN2wf3topB5cxx11ERKNS_5StatsEm", ""},
      {"(below main)", ""},
      {"0x0000000000001100'call_init", ""},
      {"0x00000000000234f0'2", ""},
      // vg-gxx-small-default.cc1plus and the big one: GCC's own classes and C-style functions.
      {"access_ref::get_ref(vec<access_ref, va_heap, vl_ptr>*, access_ref*, int, "
       "ssa_name_limit_t*, pointer_query*) const'2",
       "access_ref"},
      {"hash_table<asmname_hasher, false, xcallocator>::find_slot_with_hash(tree_node const* "
       "const&, unsigned int, insert_option)",
       "hash_table<asmname_hasher, false, xcallocator>"},
      {"wi::zext_large(long*, long const*, unsigned int, unsigned int, unsigned int)", "wi"},
      {"ref_always_accessed::operator()(mem_ref_loc*)", "ref_always_accessed"},
      {"_loop_vec_info::~_loop_vec_info()", "_loop_vec_info"},
      {"if_nonpoly<unsigned int, bool, poly_int_traits<unsigned int>::is_poly>::type multiple_p"
       "<1u, long, unsigned int>(poly_int_pod<1u, long> const&, unsigned int)",
       ""},
      {"cp_register_dumps(gcc::dump_manager*)", ""},
      {"range_fold_binary_expr(int_range<1u>*, tree_code, tree_node*, int_range<1u> const*, "
       "int_range<1u> const*)",
       ""},
      {"operator new(unsigned long)", ""},
      {"operator delete[](void*)", ""},
  });
}

TEST(ClassScope, CxxNamesTheCorpusLacks) {
  expect_scopes({
      {"std::vector<int, std::allocator<int> >::push_back(int const&)",
       "std::vector<int, std::allocator<int> >"},
      {"void ns::C<int, std::allocator<int> >::push(int const&)",
       "ns::C<int, std::allocator<int> >"},
      {"(anonymous namespace)::f()", "(anonymous namespace)"},
      {"(anonymous namespace)::Parser::next(int)", "(anonymous namespace)::Parser"},
      {"std::vector<int>::operator[](unsigned long)", "std::vector<int>"},
      {"a::b::operator<<(std::ostream&)", "a::b"},
      {"Matrix::operator()(int, int) const", "Matrix"},
      {"Handle::operator bool() const", "Handle"},
      {"std::unique_ptr<Node>::operator->() const", "std::unique_ptr<Node>"},
      {"ns::operator==(ns::A const&, ns::A const&)", "ns"},
      {"non-virtual thunk to Derived::run()", "Derived"},
      {"llvm::Foo::bar() const'llvm::Baz::qux()'2", "llvm::Foo"},
      {"foo::{lambda(int)#1}::operator()(int) const", "foo::{lambda(int)#1}"},
      // A function's local class or lambda: the closure type is a class of its own.
      {"run(int)::{lambda(int)#1}::operator()(int) const", "run(int)::{lambda(int)#1}"},
      {"Widget::draw() const::Local::paint()", "Widget::draw() const::Local"},
      {"void f<int>(int) [clone .isra.0]", ""},
      {"main", ""},
      {"", ""},
  });
}

TEST(ClassScope, PhpOfXdebug) {
  expect_scopes({
      // xdebug-classes: methods (->), static methods (::), internal classes and functions.
      {"Base->__construct", "Base"},
      {"Base::created", "Base"},
      {"Registry->{closure:/tmp/cgcorpus/src/php/classes.php:31-31}", "Registry"},
      {"php::Exception->__construct", "php::Exception"},
      {"php::array_map", "php"},
      {"{main}", ""},
      // xdebug-closures, xdebug-includes, xdebug-recursion: closures, file loads, functions.
      {"{closure:/tmp/cgcorpus/src/php/closures.php:15-15}", ""},
      {"{closure:/tmp/cgcorpus/src/php/lib/report (v2) é.php:2-6}", ""},
      {"include::/tmp/cgcorpus/src/php/lib/report (v2) é.php", "include"},
      {"require_once::/tmp/cgcorpus/src/php/lib/math.php", "require_once"},
      {"collatz_len", ""},
      {"ackermann", ""},
      // Namespaces (none in the corpus).
      {"App\\Models\\User->save", "App\\Models\\User"},
      {"App\\Models\\User::find", "App\\Models\\User"},
      {"App\\Util\\slugify", "App\\Util"},
  });
}

TEST(ClassScope, Python) {
  expect_scopes({
      // pyprof2calltree-work: cProfile's built-ins name their type or module.
      {"<method 'append' of 'list' objects>", "list"},
      {"<method 'findall' of 're.Pattern' objects>", "re.Pattern"},
      {"<method '__exit__' of '_io._IOBase' objects>", "_io._IOBase"},
      {"<built-in method builtins.len>", "builtins"},
      {"<built-in method _imp.acquire_lock>", "_imp"},
      {"<built-in method __new__ of type object at 0x9584a0>", ""},
      {"<built-in method from_bytes>", ""},
      {"<genexpr>:134", ""},
      {"<listcomp>", ""},
      // pprofile-work-deterministic, pyprof2calltree: a function's own name holds no class.
      {"fib:47", ""},
      {"__init__:10", ""},
      {"text_stats", ""},
      // pstats' printed names (none in the corpus): the module.
      {"work.py:47(fib)", "work.py"},
      {"/usr/lib/python3.11/re/__init__.py:272(_compile)", "/usr/lib/python3.11/re/__init__.py"},
      {"~:0(<built-in method builtins.len>)", "builtins"},
      {"~:0(<method 'append' of 'list' objects>)", "list"},
      {"work.py:fib", "work.py"},
  });
}

TEST(ClassScope, PerlRubyGo) {
  expect_scopes({
      // nytprofcg-work: packages.
      {"main::fib", "main"},
      {"main::__ANON__[src/perl/work.pl:11]", "main"},
      {"warnings::CORE:match", "warnings"},
      // ruby-prof-work: classes and modules, operators as method names.
      {"Animal::initialize", "Animal"},
      {"Array::<=>", "Array"},
      {"Integer::<", "Integer"},
      {"Hash::[]=", "Hash"},
      {"Enumerator/Lazy::map", "Enumerator/Lazy"},
      // go-pprof-gowork-cpu: Go's names are not split (a C symbol's `.cold` or `.isra.0`
      // would look the same).
      {"encoding/json.(*decodeState).object", ""},
      {"sort.pdqsort", ""},
  });
}

}  // namespace
