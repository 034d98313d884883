// gen_profile.cc — a deterministic generator of large, realistic Callgrind-format profiles.
//
// What it is: a standalone program (no calltree library, so bench/compare.sh can build it with
// a bare `c++` when the bench targets are not configured) that writes, for a given seed and
// size, byte-for-byte the same profile on every machine:
//
//   gen_profile callgrind --size=1G [--seed=N] [--events=Ir,Dr,Dw] > big.callgrind
//       shaped like `valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes
//       --separate-callers=3`: `positions: instr line`, one contiguous block per function
//       context (`ob=`/`fl=`/`fn=` written only when they change, name compression defining
//       each id on first use), one line per executed instruction with relative subpositions
//       (`+3 * 11`), `fi=`/`fe=` for inlined code, `jcnd=f/e` and `jump=` lines each followed
//       by its position-only source line (`* * `), `cob=`/`cfi=`/`cfn=`/`calls=` with absolute
//       targets and `* * INCL` call cost lines, `summary:` in the header, `totals:` at the end.
//       File size grows with distinct positions, as in real instr-level profiles.
//
//   gen_profile xdebug --size=1G [--seed=N] > big.xdebug.callgrind
//       shaped like Xdebug 3's profiler: `positions: line`, `events: Time_(10ns) Memory_(bytes)`,
//       one block per *call* written when the call returns (post-order), `fl=`/`fn=` on every
//       block, each child call as `cfl=`/`cfn=`/`calls=1 0 0`/`LINE INCL_TIME INCL_MEM`, and
//       `summary:` at the end. File size grows with calls, not with distinct positions: memory
//       of a reader that aggregates must not grow with it.
//
//   gen_profile repeat --times=4 REAL.callgrind > bigger.callgrind
//       the real file's header once, then its body N times, with `summary:` and `totals:`
//       multiplied by N: real lines, N times the lines, the same distinct positions. Needs a
//       single-part file whose first position line is absolute (callgrind writes the first line
//       of every function absolute); it says so and fails otherwise. Identical results up to
//       the factor N (every self cost, call count and inclusive cost is N times the original).
//
// What it is not: a model of any particular program. Costs are plausible (Ir equal within a
// basic block, calls with inclusive costs above their count), not consistent across functions.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

// xoshiro256** seeded by splitmix64: fast, and the same sequence on every platform.
class rng {
 public:
  explicit rng(std::uint64_t seed) {
    for (auto& s : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      s = z ^ (z >> 31);
    }
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n).
  std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
  // Uniform in [lo, hi].
  std::int64_t range(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
  }
  // True with probability p/1000.
  bool chance(unsigned per_mille) { return below(1000) < per_mille; }
  // Roughly log-uniform in [1, 10^decades].
  std::uint64_t log_uniform(unsigned decades) {
    std::uint64_t v = 1;
    const unsigned d = static_cast<unsigned>(below(decades + 1));
    for (unsigned i = 0; i < d; ++i) v *= 10;
    return v + below(v * 9 + 1);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// Buffered output to stdout, or (dry run) only counting bytes.
class output {
 public:
  explicit output(bool dry) : dry_(dry) { buf_.reserve(1 << 20); }
  ~output() { flush(); }
  void flush() {
    if (!dry_ && !buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), stdout) != buf_.size()) {
      std::perror("gen_profile: write");
      std::exit(2);
    }
    bytes_ += buf_.size();
    buf_.clear();
  }
  output& operator<<(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= (1u << 20)) flush();
    return *this;
  }
  output& operator<<(char c) {
    buf_.push_back(c);
    return *this;
  }
  output& num(std::uint64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
    return *this;
  }
  output& hex(std::uint64_t v) {
    if (v == 0) return *this << '0';
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v, 16);
    buf_.append("0x");
    buf_.append(tmp, r.ptr);
    return *this;
  }
  // A relative or absolute subposition the way callgrind's fprint_pos writes it: relative
  // (decimal, even for addresses) when the previous value is > 0 and |diff| < 100.
  output& subpos(std::uint64_t v, std::uint64_t last, bool is_address) {
    if (last > 0) {
      if (v == last) return *this << '*';
      if (v > last && v - last < 100) return *this << '+', num(v - last);
      if (v < last && last - v < 100) return *this << '-', num(last - v);
    }
    return is_address ? hex(v) : num(v);
  }
  std::uint64_t bytes() const { return bytes_ + buf_.size(); }

 private:
  bool dry_;
  std::string buf_;
  std::uint64_t bytes_ = 0;
};

// ------------------------------------------------------------------------------------------
// Names that look like what compilers and interpreters produce.

const char* const k_words[] = {
    "tree",   "node",    "parse",  "expr",    "decl",    "type",   "scope",  "lookup", "emit",
    "lower",  "fold",    "cache",  "table",   "hash",    "insert", "find",   "visit",  "walk",
    "build",  "check",   "reduce", "symbol",  "token",   "lexer",  "stream", "buffer", "alloc",
    "region", "pass",    "block",  "edge",    "graph",   "loop",   "value",  "use",    "def",
    "inst",   "operand", "match",  "pattern", "rewrite", "select", "sched",  "reg",    "spill",
    "frame",  "call",    "ret",    "const",   "attr",    "meta",   "module", "unit",   "name"};
const char* const k_spaces[] = {"llvm", "clang", "std",     "detail", "sema", "codegen",
                                "mc",   "ir",    "support", "ast",    "lex",  "driver"};
const char* const k_types[] = {"int",
                               "unsigned int",
                               "char const*",
                               "void*",
                               "unsigned long",
                               "bool",
                               "llvm::Value*",
                               "clang::Decl*",
                               "std::string const&",
                               "llvm::StringRef",
                               "clang::QualType",
                               "llvm::SmallVectorImpl<llvm::Value*>&"};

std::string word(rng& r) { return k_words[r.below(std::size(k_words))]; }

std::string cxx_name(rng& r) {
  std::string s;
  const int depth = static_cast<int>(r.range(1, 3));
  for (int i = 0; i < depth; ++i) {
    s += k_spaces[r.below(std::size(k_spaces))];
    s += "::";
  }
  if (r.chance(400)) {
    std::string cls = word(r);
    cls[0] = static_cast<char>(cls[0] - 'a' + 'A');
    s += cls;
    if (r.chance(400)) {
      s += '<';
      s += k_types[r.below(std::size(k_types))];
      if (r.chance(300)) s += ", ", s += k_types[r.below(std::size(k_types))];
      s += '>';
    }
    s += "::";
  }
  s += word(r);
  const int parts = static_cast<int>(r.range(0, 2));
  for (int i = 0; i < parts; ++i) s += '_', s += word(r);
  if (r.chance(50)) s += "_" + std::to_string(r.below(100));
  s += '(';
  const int args = static_cast<int>(r.range(0, 4));
  for (int i = 0; i < args; ++i) {
    if (i) s += ", ";
    s += k_types[r.below(std::size(k_types))];
  }
  s += ')';
  if (r.chance(200)) s += " const";
  return s;
}

// ------------------------------------------------------------------------------------------
// callgrind --dump-instr=yes --collect-jumps=yes --separate-callers=3

struct cg_object {
  std::string name;
  std::uint64_t base;  // object-relative addresses start here
};
struct cg_file {
  std::string name;
};
struct cg_function {
  std::string name;
  std::uint32_t object, file;
  std::uint64_t addr, line;
};

class callgrind_gen {
 public:
  callgrind_gen(std::uint64_t seed, std::vector<std::string> events)
      : seed_(seed), events_(std::move(events)) {}

  // Writes contexts until `size` bytes (dry run: only counts) or exactly `contexts` contexts.
  // Returns the number of contexts written; fills `totals`.
  std::uint64_t run(output& out, std::uint64_t size, std::uint64_t contexts,
                    std::vector<std::uint64_t>& totals, bool header,
                    const std::vector<std::uint64_t>& summary) {
    rng r(seed_);
    setup(r, size);
    totals.assign(events_.size(), 0);
    totals_ = &totals;
    if (header) write_header(out, summary);
    std::vector<std::uint8_t> obj_defined(objects_.size()), file_defined(files_.size());
    obj_defined_ = &obj_defined;
    file_defined_ = &file_defined;
    ctx_defined_.clear();
    cur_obj_ = cur_file_ = ~0u;
    std::uint64_t n = 0;
    while (contexts ? n < contexts : out.bytes() < size) {
      write_context(out, r, n);
      ++n;
    }
    if (header) {
      out << "\ntotals:";
      for (auto t : totals) out << ' ', out.num(t);
      out << '\n';
    }
    return n;
  }

 private:
  void setup(rng& r, std::uint64_t size) {
    objects_.clear();
    files_.clear();
    functions_.clear();
    fn_names_.clear();
    const char* objs[] = {"/usr/lib/llvm-14/bin/clang",
                          "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
                          "/usr/lib/x86_64-linux-gnu/libc.so.6",
                          "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30",
                          "/usr/lib/x86_64-linux-gnu/libm.so.6",
                          "/usr/lib/llvm-14/lib/libLLVM-14.so.1",
                          "/usr/lib/x86_64-linux-gnu/libclang-cpp.so.14",
                          "/usr/lib/x86_64-linux-gnu/libz.so.1.2.13"};
    for (auto* o : objs) objects_.push_back({o, 0x1000 + r.below(0x10000) * 16});
    // About one source file per 20 functions and one base function per 1.5 KB of output,
    // so a bigger file has more distinct positions, as a bigger program would.
    const std::uint64_t n_functions = std::max<std::uint64_t>(200, size / 1200);
    const std::uint64_t n_files = std::max<std::uint64_t>(20, n_functions / 20);
    files_.push_back({"???"});
    for (std::uint64_t i = 1; i < n_files; ++i) {
      std::string f = r.chance(500) ? "/usr/src/llvm-toolchain-14/llvm/lib/"
                                    : "/usr/src/llvm-toolchain-14/clang/lib/";
      f += k_spaces[r.below(std::size(k_spaces))];
      f += '/';
      f += word(r);
      f += word(r);
      f += r.chance(200) ? ".h" : ".cpp";
      files_.push_back({f});
    }
    std::vector<std::uint64_t> next_addr(objects_.size());
    for (std::size_t o = 0; o < objects_.size(); ++o) next_addr[o] = objects_[o].base;
    for (std::uint64_t i = 0; i < n_functions; ++i) {
      cg_function f;
      f.name = cxx_name(r);
      // Most code lives in the big libraries; ld.so and libc get a few functions.
      const std::uint64_t pick = r.below(100);
      f.object = pick < 45   ? 5
                 : pick < 80 ? 6
                 : pick < 88 ? 0
                 : pick < 95 ? 2
                             : static_cast<std::uint32_t>(r.below(objects_.size()));
      f.file = r.chance(150) ? 0 : 1 + static_cast<std::uint32_t>(r.below(files_.size() - 1));
      f.addr = next_addr[f.object];
      next_addr[f.object] += 16 + r.below(4000);
      f.line = 10 + r.below(5000);
      functions_.push_back(std::move(f));
    }
    // Callgrind writes the contexts of one object together, and mostly one file after another.
    std::stable_sort(functions_.begin(), functions_.end(), [](const auto& a, const auto& b) {
      return a.object != b.object ? a.object < b.object : a.file < b.file;
    });
    for (auto& f : functions_) fn_names_.push_back(f.name);
  }

  void write_header(output& out, const std::vector<std::uint64_t>& summary) {
    out << "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 4242\n"
           "cmd:  /usr/lib/llvm-14/bin/clang -cc1 -triple x86_64-pc-linux-gnu -emit-obj "
           "-O2 -std=c++17 big.cpp\npart: 1\n\n\ndesc: I1 cache: \ndesc: D1 cache: \n"
           "desc: LL cache: \n\ndesc: Timerange: Basic block 0 - 6549692205\n"
           "desc: Trigger: Program termination\n\npositions: instr line\nevents:";
    for (auto& e : events_) out << ' ' << e;
    out << "\nsummary:";
    for (auto s : summary) out << ' ', out.num(s);
    out << "\n\n\n";
  }

  void name_ref(output& out, std::string_view key, std::uint64_t id, bool& defined,
                std::string_view name) {
    out << key << "=(";
    out.num(id) << ')';
    if (!defined) out << ' ' << name, defined = true;
    out << '\n';
  }

  void object_ref(output& out, std::string_view key, std::uint32_t o) {
    bool d = (*obj_defined_)[o];
    name_ref(out, key, o + 1, d, objects_[o].name);
    (*obj_defined_)[o] = d;
  }
  void file_ref(output& out, std::string_view key, std::uint32_t f) {
    bool d = (*file_defined_)[f];
    name_ref(out, key, f + 1, d, files_[f].name);
    (*file_defined_)[f] = d;
  }

  // A function context: the base function, or with --separate-callers a chain of callers.
  // Context ids follow the base function's id space, as callgrind's cxt numbers do.
  void context_ref(output& out, std::string_view key, std::uint64_t fn, std::uint64_t chain) {
    const std::uint64_t id = 1 + fn * 4 + chain;  // chain 0..3
    out << key << "=(";
    out.num(id) << ')';
    const std::uint64_t slot = fn * 4 + chain;
    if (slot >= ctx_defined_.size()) ctx_defined_.resize(slot + 1024, 0);
    if (!ctx_defined_[slot]) {
      ctx_defined_[slot] = 1;
      out << ' ' << fn_names_[fn];
      // 'caller'caller2: the callers are the functions just before it, deterministically.
      for (std::uint64_t c = 1; c <= chain; ++c) {
        const std::uint64_t caller = (fn + c * 7919) % fn_names_.size();
        out << '\'' << fn_names_[caller];
      }
    }
    out << '\n';
  }

  void costs(output& out, std::uint64_t ir, rng& r) {
    out << ' ';
    out.num(ir);
    (*totals_)[0] += ir;
    if (events_.size() > 1) {
      // Data accesses on about half the instructions, misses rarely; trailing zeros dropped
      // as callgrind drops them.
      std::uint64_t v[16] = {};
      const std::size_t n = std::min<std::size_t>(events_.size(), 16);
      for (std::size_t e = 1; e < n; ++e) {
        const unsigned p = e <= 2 ? 450 : 30;
        if (r.chance(p)) v[e] = e <= 2 ? ir : 1 + r.below(ir);
      }
      std::size_t last = 0;
      for (std::size_t e = 1; e < n; ++e)
        if (v[e]) last = e;
      for (std::size_t e = 1; e <= last; ++e) {
        out << ' ';
        out.num(v[e]);
        (*totals_)[e] += v[e];
      }
    }
  }

  void write_context(output& out, rng& r, std::uint64_t index) {
    // Every function once, then (for bigger sizes) again in caller contexts, as
    // --separate-callers=3 writes hot functions once per distinct chain of callers.
    const std::uint64_t n = functions_.size();
    const std::uint64_t fn = index % n;
    const std::uint64_t chain = index < n ? 0 : 1 + (index / n - 1) % 3;
    const cg_function& f = functions_[fn];
    if (f.object != cur_obj_) object_ref(out, "ob", f.object), cur_obj_ = f.object;
    if (f.file != cur_file_) file_ref(out, "fl", f.file), cur_file_ = f.file;
    context_ref(out, "fn", fn, chain);

    std::uint64_t addr = f.addr, line = f.line;
    std::uint64_t last_addr = 0, last_line = 0;
    std::uint32_t src_file = f.file;
    std::uint64_t count = r.log_uniform(5);
    const std::uint64_t n_blocks = 1 + r.below(r.chance(100) ? 200 : 24);
    for (std::uint64_t b = 0; b < n_blocks; ++b) {
      if (b > 0 && r.chance(120)) count = std::max<std::uint64_t>(1, count / (1 + r.below(8)));
      if (b > 0 && r.chance(80))
        count = std::min<std::uint64_t>(count * (1 + r.below(4)), 10000000);
      // Inlined code from a header, and back.
      if (b > 0 && r.chance(60)) {
        const std::uint32_t inl = 1 + static_cast<std::uint32_t>(r.below(files_.size() - 1));
        if (inl != src_file) {
          file_ref(out, "fi", inl);
          src_file = inl;
          line = 1 + r.below(3000);
        }
      } else if (src_file != f.file && r.chance(400)) {
        file_ref(out, "fe", f.file);
        src_file = f.file;
        line = f.line + r.below(200);
      }
      const std::uint64_t n_instr = 1 + r.below(12);
      for (std::uint64_t i = 0; i < n_instr; ++i) {
        if (b > 0 || i > 0) {
          addr += 1 + r.below(7);
          const std::uint64_t l = r.below(100);
          if (l < 62) {
          } else if (l < 86) {
            line += 1 + r.below(3);
          } else if (l < 97) {
            line = line > 10 ? line - 1 - r.below(8) : line + 1;
          } else {
            line = 1 + r.below(6000);
          }
        }
        out.subpos(addr, last_addr, true) << ' ';
        out.subpos(line, last_line, false);
        costs(out, count, r);
        out << '\n';
        last_addr = addr;
        last_line = line;
      }
      // The end of a basic block: a call, a conditional or an unconditional jump, or nothing.
      const std::uint64_t kind = r.below(100);
      if (kind < 22) {
        // Most calls go to nearby code (the same object, often the same file).
        const std::uint64_t near = fn + r.below(101);
        const std::uint64_t callee =
            r.chance(650) && near >= 50 && near - 50 < n ? near - 50 : r.below(n);
        const cg_function& g = functions_[callee];
        if (g.object != f.object) object_ref(out, "cob", g.object);
        if (g.file != src_file) file_ref(out, "cfi", g.file);
        context_ref(out, "cfn", callee, r.chance(300) ? 1 + r.below(3) : 0);
        const std::uint64_t calls = std::max<std::uint64_t>(1, count / (1 + r.below(3)));
        out << "calls=";
        out.num(calls) << ' ';
        out.subpos(g.addr, last_addr, true) << ' ';
        out.subpos(g.line, last_line, false) << " \n";
        out << "* *";
        const std::uint64_t incl = calls * (2 + r.log_uniform(3));
        out << ' ';
        out.num(incl);
        if (events_.size() > 1) out << ' ', out.num(incl / 3);
        out << '\n';
      } else if (kind < 50) {
        const std::uint64_t executed = count;
        const std::uint64_t followed = r.chance(500) ? executed : r.below(executed + 1);
        std::uint64_t taddr = addr + 2 + r.below(90), tline = line + r.below(12);
        if (r.chance(150)) taddr = addr > 200 ? addr - 2 - r.below(150) : addr + 300;
        if (r.chance(30)) {
          const std::uint32_t jf = 1 + static_cast<std::uint32_t>(r.below(files_.size() - 1));
          if (jf != src_file) file_ref(out, "jfi", jf), tline = 1 + r.below(3000);
        }
        out << "jcnd=";
        out.num(followed) << '/';
        out.num(executed) << ' ';
        out.subpos(taddr, last_addr, true) << ' ';
        out.subpos(tline, last_line, false) << " \n* * \n";
      } else if (kind < 60) {
        std::uint64_t taddr = addr + 2 + r.below(300), tline = line + r.below(40);
        out << "jump=";
        out.num(count) << ' ';
        out.subpos(taddr, last_addr, true) << ' ';
        out.subpos(tline, last_line, false) << " \n* * \n";
      }
    }
    if (src_file != f.file && r.chance(300)) file_ref(out, "fe", f.file);
    out << '\n';
  }

  std::uint64_t seed_;
  std::vector<std::string> events_;
  std::vector<cg_object> objects_;
  std::vector<cg_file> files_;
  std::vector<cg_function> functions_;
  std::vector<std::string> fn_names_;
  std::vector<std::uint8_t>* obj_defined_ = nullptr;
  std::vector<std::uint8_t>* file_defined_ = nullptr;
  std::vector<std::uint8_t> ctx_defined_;
  std::vector<std::uint64_t>* totals_ = nullptr;
  std::uint32_t cur_obj_ = ~0u, cur_file_ = ~0u;
};

// ------------------------------------------------------------------------------------------
// Xdebug 3 profiler output: one block per call, written when the call returns.

struct xd_function {
  std::string name;
  std::uint32_t file;
  std::uint64_t line;
  bool internal;
};

int gen_xdebug(std::uint64_t size, std::uint64_t seed) {
  rng r(seed);
  output out(false);
  std::vector<std::string> files = {"php:internal", "/var/www/app/public/index.php"};
  const char* dirs[] = {"src/Controller",
                        "src/Entity",
                        "src/Repository",
                        "src/Service",
                        "vendor/symfony/http-kernel",
                        "vendor/doctrine/orm/src",
                        "vendor/twig/twig/src",
                        "vendor/monolog/monolog/src"};
  for (int i = 0; i < 400; ++i) {
    std::string w = word(r);
    w[0] = static_cast<char>(w[0] - 'a' + 'A');
    files.push_back(std::string("/var/www/app/") + dirs[r.below(std::size(dirs))] + "/" + w +
                    word(r) + ".php");
  }
  std::vector<xd_function> fns;
  fns.push_back({"{main}", 1, 1, false});
  const char* builtins[] = {"php::strlen",
                            "php::array_key_exists",
                            "php::in_array",
                            "php::sprintf",
                            "php::str_replace",
                            "php::preg_match",
                            "php::count",
                            "php::array_map",
                            "php::json_encode",
                            "php::PDOStatement->execute",
                            "php::spl_autoload_call",
                            "php::is_array",
                            "php::substr",
                            "php::implode"};
  for (auto* b : builtins) fns.push_back({b, 0, 0, true});
  for (int i = 0; i < 3000; ++i) {
    std::string cls = word(r);
    cls[0] = static_cast<char>(cls[0] - 'a' + 'A');
    std::string name =
        "App\\" + cls + word(r) + (r.chance(500) ? "->" : "::") + word(r) +
        (r.chance(300) ? "{closure:/var/www/app/src/x.php:" + std::to_string(r.below(400)) + "-" +
                             std::to_string(r.below(400)) + "}"
                       : word(r));
    const std::uint32_t file = 2 + static_cast<std::uint32_t>(r.below(files.size() - 2));
    fns.push_back({name, file, 5 + r.below(800), false});
  }
  std::vector<std::uint8_t> file_def(files.size()), fn_def(fns.size());

  // Each function calls a few others, always the same ones at the same lines, as code does:
  // its call sites ({main} has more). Distinct arcs are then a few per function (~20 k), as
  // in a real program, not a random pair per call.
  struct call_site {
    std::uint32_t callee;
    std::uint64_t line;
  };
  std::vector<std::vector<call_site>> sites(fns.size());
  for (std::size_t f = 0; f < fns.size(); ++f) {
    if (fns[f].internal) continue;
    const std::size_t n = f == 0 ? 40 : 3 + r.below(8);
    for (std::size_t k = 0; k < n; ++k) {
      std::uint32_t callee;
      if (r.chance(350))
        callee = 1 + static_cast<std::uint32_t>(r.below(std::size(builtins)));
      else
        callee = 1 + static_cast<std::uint32_t>(std::size(builtins) +
                                                r.below(fns.size() - 1 - std::size(builtins)));
      sites[f].push_back({callee, fns[f].line + 1 + r.below(60)});
    }
  }

  out << "version: 1\ncreator: xdebug 3.2.0 (PHP 8.2.36)\ncmd: /var/www/app/public/index.php\n"
         "part: 1\npositions: line\n\nevents: Time_(10ns) Memory_(bytes)\n\n";

  auto ref = [&](std::string_view key, std::uint64_t id, std::vector<std::uint8_t>& def,
                 const std::string& name) {
    out << key << "=(";
    out.num(id + 1) << ')';
    if (!def[id]) out << ' ' << name, def[id] = 1;
    out << '\n';
  };

  struct child {
    std::uint32_t fn;
    std::uint64_t line, time, mem;
  };
  struct frame {
    std::uint32_t fn;
    std::uint64_t self_time, self_mem;
    int budget;               // children still to call
    std::uint64_t site_line;  // where the caller calls it
    std::vector<child> children;
  };
  std::vector<frame> stack;
  std::uint64_t total_time = 0, peak_mem = 0;

  auto emit = [&](frame& f, std::uint64_t& incl_time, std::uint64_t& incl_mem) {
    const xd_function& x = fns[f.fn];
    ref("fl", x.file, file_def, files[x.file]);
    ref("fn", f.fn, fn_def, x.name);
    out.num(x.line) << ' ';
    out.num(f.self_time) << ' ';
    out.num(f.self_mem) << '\n';
    incl_time = f.self_time;
    incl_mem = f.self_mem;
    for (auto& c : f.children) {
      const xd_function& y = fns[c.fn];
      ref("cfl", y.file, file_def, files[y.file]);
      ref("cfn", c.fn, fn_def, y.name);
      out << "calls=1 0 0\n";
      out.num(c.line) << ' ';
      out.num(c.time) << ' ';
      out.num(c.mem) << '\n';
      incl_time += c.time;
      incl_mem += c.mem;
    }
    out << '\n';
  };

  // {main} calls top-level work until the file is big enough; every other call has a few
  // children, fewer the deeper it is, so each top-level subtree stays small.
  stack.push_back({0, 4000 + r.below(1000), 64, 1 << 30, 0, {}});
  while (!stack.empty()) {
    frame& top = stack.back();
    const bool room = stack.size() == 1 ? out.bytes() < size : top.budget > 0;
    if (room && stack.size() < 60) {
      --top.budget;
      const auto& own = sites[top.fn];
      const call_site site = own[r.below(own.size())];
      const std::uint32_t callee = site.callee;
      const bool internal = fns[callee].internal;
      const int depth = static_cast<int>(stack.size());
      const int budget = internal ? 0 : static_cast<int>(r.below(depth < 4 ? 12 : 30 / depth + 2));
      stack.push_back({callee,
                       internal ? 1 + r.below(40) : 5 + r.log_uniform(3),
                       r.chance(300) ? r.below(4096) : 0,
                       budget,
                       site.line,
                       {}});
      continue;
    }
    std::uint64_t t = 0, m = 0;
    emit(top, t, m);
    const std::uint32_t fn = top.fn;
    const std::uint64_t site_line = top.site_line;
    stack.pop_back();
    if (stack.empty()) {
      total_time = t;
      peak_mem = std::max(peak_mem, m);
      break;
    }
    peak_mem = std::max(peak_mem, m);
    stack.back().children.push_back({fn, site_line, t, m});
  }
  out << "summary: ";
  out.num(total_time) << ' ';
  out.num(peak_mem) << "\n";
  return 0;
}

// ------------------------------------------------------------------------------------------
// repeat: a real profile's body N times.

bool is_body_key(std::string_view l) {
  for (std::string_view k : {"ob=", "fl=", "fn=", "fi=", "fe="})
    if (l.starts_with(k)) return true;
  return false;
}

std::string scale_numbers(std::string_view line, std::string_view key, std::uint64_t times) {
  std::string out(key);
  std::string_view rest = line.substr(key.size());
  std::size_t i = 0;
  while (i < rest.size()) {
    if (rest[i] == ' ' || rest[i] == '\t') {
      out += rest[i++];
      continue;
    }
    std::size_t j = i;
    while (j < rest.size() && rest[j] != ' ' && rest[j] != '\t') ++j;
    std::uint64_t v = 0;
    auto res = std::from_chars(rest.data() + i, rest.data() + j, v);
    if (res.ec != std::errc() || res.ptr != rest.data() + j) {
      std::fprintf(stderr, "gen_profile: cannot scale '%.*s'\n", static_cast<int>(line.size()),
                   line.data());
      std::exit(2);
    }
    out += std::to_string(v * times);
    i = j;
  }
  return out;
}

int gen_repeat(const char* path, std::uint64_t times) {
  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::perror(path);
    return 2;
  }
  std::string data;
  {
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
    std::fclose(f);
  }
  // Header: up to the first ob=/fl=/fn= line. Body: up to the totals: line (or the end).
  std::size_t pos = 0, body_begin = std::string::npos, body_end = data.size();
  std::string header, trailer;
  while (pos < data.size()) {
    std::size_t nl = data.find('\n', pos);
    const std::size_t end = nl == std::string::npos ? data.size() : nl + 1;
    std::string_view line(data.data() + pos, end - pos);
    std::string_view bare = line.substr(0, line.find_first_of("\r\n"));
    if (body_begin == std::string::npos) {
      if (is_body_key(bare)) {
        body_begin = pos;
        continue;
      }
      if (bare.starts_with("summary:"))
        header += scale_numbers(bare, "summary:", times) + "\n";
      else
        header += line;
    } else {
      if (bare.starts_with("part:") || bare.starts_with("# callgrind format") ||
          bare.starts_with("events:")) {
        std::fprintf(stderr, "gen_profile: %s has several parts; repeat needs one\n", path);
        return 2;
      }
      if (bare.starts_with("totals:") || bare.starts_with("summary:")) {
        body_end = std::min(body_end, pos);
        trailer +=
            scale_numbers(bare, bare.starts_with("totals:") ? "totals:" : "summary:", times) + "\n";
      } else if (body_end != data.size() && !bare.empty()) {
        std::fprintf(stderr, "gen_profile: %s has lines after totals:\n", path);
        return 2;
      }
    }
    pos = end;
  }
  if (body_begin == std::string::npos) {
    std::fprintf(stderr, "gen_profile: %s has no body\n", path);
    return 2;
  }
  // The first line carrying positions must be absolute, or the copies would shift.
  for (std::size_t p = body_begin; p < body_end;) {
    std::size_t nl = data.find('\n', p);
    if (nl == std::string::npos) nl = data.size();
    std::string_view l(data.data() + p, nl - p);
    const char c = l.empty() ? ' ' : l[0];
    const bool positional = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*' ||
                            l.starts_with("calls=") || l.starts_with("jump=") ||
                            l.starts_with("jcnd=");
    if (positional) {
      if (l.find_first_of("+-*") != std::string_view::npos && !l.starts_with("calls=") &&
          !l.starts_with("jump=") && !l.starts_with("jcnd=")) {
        std::fprintf(stderr, "gen_profile: the first position line of %s is relative\n", path);
        return 2;
      }
      if (!(c >= '0' && c <= '9')) {
        std::fprintf(stderr, "gen_profile: the first position line of %s is no cost line\n", path);
        return 2;
      }
      break;
    }
    p = nl + 1;
  }
  std::string_view body(data.data() + body_begin, body_end - body_begin);
  std::fwrite(header.data(), 1, header.size(), stdout);
  for (std::uint64_t i = 0; i < times; ++i) {
    std::fwrite(body.data(), 1, body.size(), stdout);
    if (!body.empty() && body.back() != '\n') std::fputc('\n', stdout);
  }
  std::fwrite(trailer.data(), 1, trailer.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 2;
}

// ------------------------------------------------------------------------------------------

std::uint64_t parse_size(std::string_view s) {
  std::uint64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  std::string_view unit(r.ptr, s.data() + s.size() - r.ptr);
  if (r.ec != std::errc()) return 0;
  if (unit == "" || unit == "B") return v;
  if (unit == "K" || unit == "KB") return v << 10;
  if (unit == "M" || unit == "MB") return v << 20;
  if (unit == "G" || unit == "GB") return v << 30;
  return 0;
}

int usage() {
  std::fputs(
      "usage: gen_profile callgrind --size=SIZE [--seed=N] [--events=Ir,Dr,...]\n"
      "       gen_profile xdebug --size=SIZE [--seed=N]\n"
      "       gen_profile repeat --times=N FILE\n"
      "SIZE: bytes, or with K, M, G. Output goes to standard output.\n",
      stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string_view mode = argv[1];
  std::uint64_t size = 0, seed = 1, times = 0;
  std::vector<std::string> events = {"Ir"};
  const char* file = nullptr;
  for (int i = 2; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("--size=")) {
      size = parse_size(a.substr(7));
    } else if (a.starts_with("--seed=")) {
      seed = std::strtoull(argv[i] + 7, nullptr, 10);
    } else if (a.starts_with("--times=")) {
      times = std::strtoull(argv[i] + 8, nullptr, 10);
    } else if (a.starts_with("--events=")) {
      events.clear();
      std::string_view list = a.substr(9);
      while (!list.empty()) {
        const std::size_t c = list.find(',');
        events.emplace_back(list.substr(0, c));
        list = c == std::string_view::npos ? std::string_view() : list.substr(c + 1);
      }
      if (events.empty() || events.size() > 16) return usage();
    } else if (!a.starts_with("-") && !file) {
      file = argv[i];
    } else {
      return usage();
    }
  }
  if (mode == "repeat") {
    if (!file || times == 0) return usage();
    return gen_repeat(file, times);
  }
  if (size == 0) return usage();
  if (mode == "xdebug") return gen_xdebug(size, seed);
  if (mode != "callgrind") return usage();
  // Two passes with the same seed: the first counts contexts and sums costs for `summary:`
  // (which callgrind writes in the header), the second writes exactly the same contexts.
  callgrind_gen gen(seed, events);
  std::vector<std::uint64_t> totals, unused;
  std::uint64_t contexts;
  {
    output dry(true);
    contexts = gen.run(dry, size, 0, totals, true, std::vector<std::uint64_t>(events.size()));
  }
  output out(false);
  gen.run(out, size, contexts, unused, true, totals);
  out.flush();
  return std::fflush(stdout) == 0 ? 0 : 2;
}
