// record_profilers.cc — how `calltree record` runs a program under each profiler it knows
// (record_profilers.h).
#include "record_profilers.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "history/run_order.h"

namespace calltree::cli {

namespace {

std::string base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// "python3.11" is python: NAME, then digits and dots only.
bool named(std::string_view program, std::string_view name) {
  if (!program.starts_with(name)) return false;
  program.remove_prefix(name.size());
  return std::all_of(program.begin(), program.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

// cProfile as `python3 -m cProfile -o FILE` runs it (the code compiled before the profile
// starts, run in globals of its own as __main__), but keeping the script's exit status:
// cProfile's own main swallows SystemExit, so `sys.exit(3)` would end the run with 0. A Ctrl-C
// (KeyboardInterrupt) still writes the stats, then ends Python by SIGINT as it always does.
// argv: -c CODE OUT SCRIPT ARGS... or -c CODE OUT -m MODULE ARGS...
constexpr std::string_view python_boot = R"(import cProfile, io, os, runpy, sys
out = sys.argv[1]
del sys.argv[:2]
if sys.argv[0] == '-m':
    del sys.argv[0]
    name, spec, code = runpy._get_module_details(sys.argv[0])
    sys.argv[0] = spec.origin
    globs = {'__name__': '__main__', '__file__': spec.origin, '__loader__': spec.loader,
             '__package__': spec.parent, '__spec__': spec, '__cached__': None}
else:
    sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
    with io.open_code(sys.argv[0]) as f:
        code = compile(f.read(), sys.argv[0], 'exec')
    globs = {'__name__': '__main__', '__file__': sys.argv[0], '__spec__': None,
             '__package__': None, '__cached__': None}
profile = cProfile.Profile()
status = 0
try:
    try:
        profile.runctx(code, globs, None)
    except SystemExit as e:
        status = e.code
finally:
    profile.dump_stats(out)
sys.exit(status)
)";

// Where a python command line's script (or -m MODULE) starts: the index of the script, or of
// "-m" (also "-mMODULE"). nullopt with `error` for what cProfile cannot run.
std::optional<std::size_t> python_target(const std::vector<std::string>& program,
                                         std::string& error) {
  for (std::size_t i = 1; i < program.size(); ++i) {
    const std::string& a = program[i];
    if (a.starts_with("-m")) return i;
    if (a.starts_with("-c")) {
      error = "cProfile runs a script or a module (-m), not -c CODE: put the code in a file";
      return std::nullopt;
    }
    if (a == "-") break;
    if (a == "-X" || a == "-W" || a == "-Q") {
      ++i;  // (its value)
      continue;
    }
    if (a.starts_with("-")) continue;
    return i;
  }
  error = "cProfile needs a script to run: python3 [OPTIONS] SCRIPT [ARGS] or -m MODULE";
  return std::nullopt;
}

// The script of php and node command lines: the first argument that is not an option (php's
// -d, -c, -z take a value; -f names the script), nullopt for none (php -r CODE, node -e CODE).
std::optional<std::string> script_of(const std::vector<std::string>& program, bool php) {
  for (std::size_t i = 1; i < program.size(); ++i) {
    const std::string& a = program[i];
    if (php && (a == "-d" || a == "-c" || a == "-z")) {
      ++i;
      continue;
    }
    if (php && a == "-f" && i + 1 < program.size()) return program[i + 1];
    if (a == "-r" || a == "-e" || a == "--eval" || a == "-p" || a == "--print") return std::nullopt;
    if (a.starts_with("-")) continue;
    return a;
  }
  return std::nullopt;
}

// A callgrind file's name: callgrind.out.PID[.DUMP][-THREAD].
struct callgrind_name {
  std::uint64_t pid = 0, dump = 0, thread = 0;
};
std::optional<callgrind_name> parse_callgrind_name(std::string_view name) {
  constexpr std::string_view stem = "callgrind.out.";
  if (!name.starts_with(stem)) return std::nullopt;
  name.remove_prefix(stem.size());
  auto number = [&name](std::uint64_t& out) {
    std::size_t n = 0;
    out = 0;
    while (n < name.size() && name[n] >= '0' && name[n] <= '9')
      out = out * 10 + static_cast<unsigned>(name[n++] - '0');
    name.remove_prefix(n);
    return n > 0;
  };
  callgrind_name c;
  if (!number(c.pid)) return std::nullopt;
  if (name.starts_with(".")) {
    name.remove_prefix(1);
    if (!number(c.dump) || c.dump == 0) return std::nullopt;
  }
  if (name.starts_with("-")) {
    name.remove_prefix(1);
    if (!number(c.thread)) return std::nullopt;
  }
  if (!name.empty()) return std::nullopt;
  return c;
}

// The non-empty regular files of the staging folder.
std::vector<std::string> staged_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (it->is_regular_file(e2) && it->file_size(e2) > 0 && !e2)
      out.push_back(it->path().filename().string());
  }
  std::sort(out.begin(), out.end(),
            [](const std::string& a, const std::string& b) { return history::natural_less(a, b); });
  return out;
}

}  // namespace

std::string_view profiler_word(profiler_kind k) {
  switch (k) {
    case profiler_kind::xdebug:
      return "xdebug";
    case profiler_kind::cprofile:
      return "cprofile";
    case profiler_kind::node:
      return "node";
    case profiler_kind::callgrind:
      break;
  }
  return "callgrind";
}

std::optional<profiler_kind> profiler_named(std::string_view word) {
  for (auto k : {profiler_kind::callgrind, profiler_kind::xdebug, profiler_kind::cprofile,
                 profiler_kind::node})
    if (profiler_word(k) == word) return k;
  return std::nullopt;
}

profiler_kind profiler_of_program(std::string_view program) {
  const std::string name = base_name(program);
  if (named(name, "php")) return profiler_kind::xdebug;
  if (named(name, "python") || named(name, "python3")) return profiler_kind::cprofile;
  if (name == "node" || name == "nodejs") return profiler_kind::node;
  return profiler_kind::callgrind;
}

std::string_view profile_extension(profiler_kind k) {
  switch (k) {
    case profiler_kind::cprofile:
      return "pstats";
    case profiler_kind::node:
      return "cpuprofile";
    case profiler_kind::callgrind:
    case profiler_kind::xdebug:
      break;
  }
  return "callgrind";
}

std::optional<launch> launch_of(const record_plan& plan, std::string& error) {
  launch l;
  const auto& p = plan.program;
  const std::string dir = plan.staging;
  switch (plan.kind) {
    case profiler_kind::callgrind:
      l.argv = {plan.valgrind, "--tool=callgrind"};
      if (!plan.fast) {
        // Instruction addresses (the machine-code panel, annotate --asm) and jumps (the
        // source view's branches), which callgrind leaves off by default.
        l.argv.push_back("--dump-instr=yes");
        l.argv.push_back("--collect-jumps=yes");
      }
      l.argv.push_back("--callgrind-out-file=" + dir + "/callgrind.out.%p");
      l.argv.push_back("--log-file=" + dir + "/valgrind.%p.log");
      if (plan.children) l.argv.push_back("--trace-children=yes");
      if (plan.function) {
        l.argv.push_back("--collect-atstart=no");
        l.argv.push_back("--toggle-collect=" + *plan.function);
      }
      if (plan.start_at) l.argv.push_back("--zero-before=" + *plan.start_at);
      if (plan.stop_at) l.argv.push_back("--dump-before=" + *plan.stop_at);
      l.argv.insert(l.argv.end(), plan.valgrind_options.begin(), plan.valgrind_options.end());
      l.argv.insert(l.argv.end(), p.begin(), p.end());
      return l;
    case profiler_kind::xdebug:
      l.argv = {p[0],
                "-d",
                "xdebug.mode=profile",
                "-d",
                "xdebug.start_with_request=yes",
                "-d",
                "xdebug.output_dir=" + dir,
                "-d",
                "xdebug.profiler_output_name=cachegrind.out.%p",
                "-d",
                "xdebug.use_compression=0"};
      l.argv.insert(l.argv.end(), p.begin() + 1, p.end());
      return l;
    case profiler_kind::cprofile: {
      auto at = python_target(p, error);
      if (!at) return std::nullopt;
      l.argv.assign(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(*at));
      l.argv.push_back("-c");
      l.argv.emplace_back(python_boot);
      l.argv.push_back(dir + "/profile.pstats");
      if (p[*at].starts_with("-m") && p[*at].size() > 2) {  // -mMODULE
        l.argv.push_back("-m");
        l.argv.push_back(p[*at].substr(2));
        l.argv.insert(l.argv.end(), p.begin() + static_cast<std::ptrdiff_t>(*at) + 1, p.end());
      } else {
        l.argv.insert(l.argv.end(), p.begin() + static_cast<std::ptrdiff_t>(*at), p.end());
      }
      return l;
    }
    case profiler_kind::node:
      l.argv = {p[0], "--cpu-prof", "--cpu-prof-dir=" + dir};
      l.argv.insert(l.argv.end(), p.begin() + 1, p.end());
      return l;
  }
  return std::nullopt;
}

std::string run_label(const record_plan& plan) {
  const auto& p = plan.program;
  switch (plan.kind) {
    case profiler_kind::cprofile: {
      std::string ignored;
      if (auto at = python_target(p, ignored)) {
        if (p[*at] == "-m") return *at + 1 < p.size() ? p[*at + 1] : "python";
        if (p[*at].starts_with("-m")) return p[*at].substr(2);
        return base_name(p[*at]);
      }
      break;
    }
    case profiler_kind::xdebug:
    case profiler_kind::node:
      if (auto script = script_of(p, plan.kind == profiler_kind::xdebug)) return base_name(*script);
      break;
    case profiler_kind::callgrind:
      break;
  }
  return base_name(p[0]);
}

std::optional<std::string> script_of(const record_plan& plan) {
  const auto& p = plan.program;
  switch (plan.kind) {
    case profiler_kind::cprofile: {
      std::string ignored;
      auto at = python_target(p, ignored);
      if (at && !p[*at].starts_with("-m")) return p[*at];
      return std::nullopt;
    }
    case profiler_kind::xdebug:
    case profiler_kind::node:
      return script_of(p, plan.kind == profiler_kind::xdebug);
    case profiler_kind::callgrind:
      break;
  }
  return std::nullopt;
}

std::vector<std::string> collected_profiles(const record_plan& plan, std::size_t& dropped) {
  dropped = 0;
  std::vector<std::string> out;
  const std::vector<std::string> files = staged_files(plan.staging);
  switch (plan.kind) {
    case profiler_kind::callgrind: {
      // (pid, dump (the end of the process, dump 0, after its numbered dumps), thread, name)
      std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::string>> found;
      for (const auto& f : files)
        if (auto c = parse_callgrind_name(f))
          found.emplace_back(c->pid, c->dump ? c->dump : UINT64_MAX, c->thread, f);
      std::sort(found.begin(), found.end());
      for (const auto& f : found) {
        if (plan.stop_at) {
          // Each process's first dump: what came before the first entry into the function.
          // A process that never entered it dumped nothing: its whole profile.
          const std::uint64_t pid = std::get<0>(f);
          const bool has_dump = std::any_of(found.begin(), found.end(), [pid](const auto& g) {
            return std::get<0>(g) == pid && std::get<1>(g) != UINT64_MAX;
          });
          const std::uint64_t wanted = has_dump ? 1 : UINT64_MAX;
          if (std::get<1>(f) != wanted) {
            ++dropped;
            continue;
          }
        }
        out.push_back(plan.staging + "/" + std::get<3>(f));
      }
      break;
    }
    case profiler_kind::xdebug:
      for (const auto& f : files)
        if (f.starts_with("cachegrind.out.")) out.push_back(plan.staging + "/" + f);
      break;
    case profiler_kind::cprofile:
      for (const auto& f : files)
        if (f == "profile.pstats") out.push_back(plan.staging + "/" + f);
      break;
    case profiler_kind::node:
      for (const auto& f : files)
        if (f.ends_with(".cpuprofile")) out.push_back(plan.staging + "/" + f);
      break;
  }
  return out;
}

std::vector<std::string> valgrind_logs(const record_plan& plan) {
  std::vector<std::string> out;
  for (const auto& f : staged_files(plan.staging))
    if (f.starts_with("valgrind.") && f.ends_with(".log")) out.push_back(plan.staging + "/" + f);
  return out;
}

}  // namespace calltree::cli
