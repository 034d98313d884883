// cmd_serve.cc — `calltree serve FILE` / `calltree serve OLD NEW`: the viewer in a browser.
//
// Reads the profile(s) once (views/session.h), binds 127.0.0.1 (or --host) on --port (0: any
// free port), prints one line with the URL and its token, and answers until SIGINT or SIGTERM
// (then exits 0). Everything about a request is decided by server/api.h; docs/serve.md.
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "api.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "folder.h"
#include "history/index.h"
#include "http.h"
#include "memory_option.h"
#include "objdump_runner.h"
#include "progress.h"
#include "reader/read_profile.h"
#include "run_store.h"
#include "siblings.h"
#include "standard_output.h"
#include "viewer_options.h"
#include "views/function_list.h"
#include "views/session.h"

extern char** environ;

namespace calltree::cli {
namespace {

struct serve_flags {
  std::optional<std::string> port, host, threads, objdump, keep, index;
  std::vector<std::string> include, source_root, event, object_root;
  bool open = false, no_source = false, parts = false, siblings = false, recursive = false,
       help = false;
};

constexpr auto serve_table = make_flag_table<serve_flags>({
    {"port", 0, &serve_flags::port, "port to listen on; 0 picks a free one [0]", "N"},
    {"host", 0, &serve_flags::host,
     "address to listen on [127.0.0.1]; any other than a loopback address lets other machines "
     "connect (they still need the token)",
     "ADDR"},
    {"open", 0, &serve_flags::open, "open the URL in a browser (xdg-open)"},
    {"include", 'I', &serve_flags::include, "look for source files in DIR too (repeatable)", "DIR"},
    {"source-root", 0, &serve_flags::source_root,
     "look for sources under NEW where the profile says OLD (repeatable)", "OLD=NEW"},
    {"event", 0, &serve_flags::event,
     "define a derived event, e.g. 'CEst = Ir + 10 Bm' (repeatable)", "'NAME = FORMULA'"},
    {"no-source", 0, &serve_flags::no_source,
     "serve no source file (the views show costs per line without text)"},
    {"threads", 0, &serve_flags::threads, "threads to read with [number of cores]", "N"},
    {"objdump", 0, &serve_flags::objdump, "the objdump of the machine-code panel [objdump]",
     "PATH"},
    {"object-root", 0, &serve_flags::object_root,
     "look for object files under NEW where the profile says OLD (repeatable)", "OLD=NEW"},
    {"parts", 0, &serve_flags::parts,
     "the files are one run whose parts they are (two files without it are OLD NEW)"},
    {"siblings", 0, &serve_flags::siblings,
     "also load the other files of FILE's run (callgrind.out.PID-NN threads, .N dumps)"},
    {"recursive", 'r', &serve_flags::recursive,
     "serve DIR: list the profiles in DIR's folders too, at any depth"},
    {"keep", 0, &serve_flags::keep,
     "serve DIR: profiles opened that stay in memory, the least recently used going first (a "
     "diff holds two) [4]",
     "N"},
    {"index", 0, &serve_flags::index,
     "serve DIR: the index of the runs for the Trend view and the table's totals (SQLite; "
     "default: $XDG_CACHE_HOME/calltree/index.sqlite); none: no index",
     "PATH|none"},
    {"help", 'h', &serve_flags::help, "show this help"},
});

constexpr std::string_view serve_usage = "[OPTIONS] FILE | OLD NEW | FILE... | --parts A B | DIR";
constexpr std::string_view serve_summary =
    "Reads a profile once and serves KCachegrind's views of it to a browser: the\n"
    "function list, callers and callees, call graph, flame graph and sandwich,\n"
    "annotated source, parts; with two profiles, the difference of OLD and NEW;\n"
    "with three or more (or --parts), one profile whose parts are the files;\n"
    "with a folder, a table of the profiles in it (read when one is opened).\n"
    "Prints one line, the URL to open (it carries a random token, which every\n"
    "request needs), and answers until interrupted (Ctrl-C). Binds 127.0.0.1 by\n"
    "default. API and security rules: docs/serve.md. Exit status: 0 after an\n"
    "interrupt, 1 when a profile cannot be read, 2 on usage errors.";

bool is_directory(const std::string& path) {
  struct stat st;
  return path != "-" && stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" ||
         host.compare(0, 4, "127.") == 0;
}

// Starts xdg-open on the URL, without waiting for it (its output goes to /dev/null).
void open_browser(const std::string& url) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const char* argv[] = {"xdg-open", url.c_str(), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, "xdg-open", &actions, nullptr, const_cast<char* const*>(argv), environ) !=
      0)
    std::fprintf(stderr, "calltree serve: warning: could not run xdg-open; open the URL above\n");
  posix_spawn_file_actions_destroy(&actions);
}

int run_serve(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, serve_table, err);
  if (!parsed) return usage_error("serve", err);
  const command_line<serve_flags>& a = *parsed;
  if (a.help) {
    std::fputs(format_help("serve", serve_usage, serve_summary, serve_table.flags).c_str(), stdout);
    return exit_ok;
  }
  if (a.positional.empty())
    return usage_error("serve",
                       "needs one profile, two (OLD NEW) for a diff, several (a run), or a folder");
  std::optional<std::size_t> keep;
  if (const auto& v = a.keep) {
    if (v->empty() || v->size() > 4 || v->find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(*v) < 1)
      return usage_error("serve", "--keep takes a number from 1 to 9999");
    keep = static_cast<std::size_t>(std::stoi(*v));
  }
  const bool folder_mode = a.positional.size() == 1 && is_directory(a.positional[0]);
  if (!folder_mode && (a.recursive || keep || a.index))
    return usage_error("serve", "--recursive, --keep and --index are for a folder (serve DIR)");
  if (folder_mode && (a.siblings || a.parts))
    return usage_error("serve", "--siblings and --parts take files, not a folder");
  // What is read: one file, OLD and NEW, or one run of several files (each a list of paths).
  std::vector<std::vector<std::string>> inputs;
  std::vector<std::string> siblings;  // of one file: the other files of its run, not loaded
  const bool run = a.positional.size() >= 3 || (a.positional.size() == 2 && a.parts);
  if (folder_mode) {
    // (nothing is read before a profile is opened)
  } else if (a.siblings) {
    if (a.positional.size() != 1 || a.positional[0] == "-")
      return usage_error("serve", "--siblings takes one file (of a run: callgrind.out.PID...)");
    inputs.push_back(server::run_siblings(a.positional[0]));
  } else if (run) {
    inputs.push_back(a.positional);
  } else {
    for (const auto& p : a.positional) inputs.push_back({p});
    if (a.positional.size() == 1 && a.positional[0] != "-") {
      for (auto& f : server::run_siblings(a.positional[0]))
        if (f != a.positional[0]) siblings.push_back(std::move(f));
    }
  }
  if (run && std::count(a.positional.begin(), a.positional.end(), "-") > 0)
    return usage_error("serve",
                       "standard input ('-') cannot be a file of a run (save it to a file)");
  // A diff reads both files again for calltree diff's functions (views::diff_source): standard
  // input cannot be read twice.
  if (!run && a.positional.size() == 2 && (a.positional[0] == "-" || a.positional[1] == "-"))
    return usage_error("serve",
                       "a diff reads OLD and NEW twice: '-' (standard input) cannot be one of "
                       "them (save it to a file)");
  int port = 0;
  if (const auto& v = a.port) {
    if (v->empty() || v->find_first_not_of("0123456789") != std::string::npos || v->size() > 5 ||
        std::stoi(*v) > 65535)
      return usage_error("serve", "--port takes a number from 0 to 65535");
    port = std::stoi(*v);
  }
  const std::string host = a.host.value_or("127.0.0.1");
  auto viewer = viewer_options(a.include, a.source_root);
  if (!viewer) return usage_error("serve", viewer.error().message);
  views::load_options lo = std::move(*viewer);
  lo.event_definitions = a.event;
  auto threads = parse_threads(a.threads);
  if (!threads) return usage_error("serve", "--threads needs a number from 1 to 64");
  lo.threads = *threads;
  // The start reads the function-level tables alone; the source lines are read again when a
  // view first asks for them, or by the warm-up after the URL (views/session.h).
  lo.defer_lines = true;

  auto token = server::make_token();
  if (!token) {
    std::fprintf(stderr, "calltree serve: %s\n", token.error().message.c_str());
    return exit_usage;
  }

  // Memory that answers free goes back to the system (docs/reliability.md, "The server under
  // load"): a block of 1 MB or more (a JSON answer, its compressed copy) is mapped on its own
  // and unmapped when freed (glibc's default threshold rises to 32 MB after the first such
  // free, and the freed answers then stay in the heaps), and two arenas serve every thread
  // (one per worker kept each worker's own high-water mark: 1.2 GB after one round of the
  // page's requests on the real 260 MB profile, 375 MB with both).
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  mallopt(M_ARENA_MAX, 2);
#endif

  // Signals go to a thread of their own (blocked everywhere else, before any thread starts).
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  std::vector<std::shared_ptr<const views::session>> sessions;
  std::vector<server::file_stamp> stamps;
  for (const auto& paths : inputs) {
    for (const auto& path : paths) stamps.push_back(server::stamp_of(path));
    const std::string& path = paths.front();
    progress_line progress(paths.size() == 1
                               ? path
                               : path + " and " + std::to_string(paths.size() - 1) + " more files");
    lo.progress = [&progress](const read_progress& p) { progress.update(p); };
    auto loaded = views::load_run(paths, lo);
    progress.finish();
    if (!loaded) {
      std::fprintf(stderr, "calltree serve: %s\n", loaded.error().message.c_str());
      return exit_findings;
    }
    const views::session& s = **loaded;
    if (auto changed = changed_input(s)) {
      // (What was read is not the file's: nothing is served of it.)
      print_input_changed(*changed);
      return exit_findings;
    }
    if (s.errors || !detail::read_to_end(s.stats))
      std::fprintf(stderr,
                   "calltree serve: warning: %s: %llu errors%s (listed in the page; 'calltree "
                   "check' shows them)\n",
                   path.c_str(), static_cast<unsigned long long>(s.errors),
                   detail::read_to_end(s.stats) ? "" : ", not read to its end");
    for (const auto& w : s.table_warnings)
      std::fprintf(stderr, "calltree serve: warning: %s\n", w.c_str());
    sessions.push_back(std::move(*loaded));
  }
  lo.progress = nullptr;

  server::http_server http;
  auto bound = http.bind(host, port);
  if (!bound) {
    std::fprintf(stderr, "calltree serve: %s\n", bound.error().message.c_str());
    return exit_usage;
  }
  server::api_options ao;
  ao.token = *token;
  ao.port = *bound;
  ao.hosts.push_back(host);
  ao.serve_sources = !a.no_source;
  ao.siblings = siblings;
  if (folder_mode) {
    auto listing = server::open_folder(a.positional[0], a.recursive);
    if (!listing) {
      std::fprintf(stderr, "calltree serve: %s\n", listing.error().message.c_str());
      return exit_findings;
    }
    ao.dir = std::move(*listing);
    ao.keep = keep.value_or(4);
    {
      // The runs of the Trend view and the table's totals, through the index.
      std::unique_ptr<history::run_index> index;
      std::string path = a.index.value_or("");
      if (path.empty()) {
        if (auto d = history::default_index_path()) path = *d;
      }
      if (path != "none" && !path.empty()) {
        if (auto x = history::run_index::open(path)) {
          index = std::move(*x);
        } else {
          std::fprintf(stderr, "calltree serve: warning: %s; the Trend view reads the files\n",
                       x.error().message.c_str());
        }
      }
      ao.dir->set_store(std::make_shared<server::run_store>(std::move(index)));
    }
    ao.open_file = [lo](const std::string& path) -> result<std::shared_ptr<const views::session>> {
      auto loaded = views::load_run({path}, lo);
      if (!loaded) return loaded.error();
      if (auto changed = changed_input(**loaded))
        return error{*changed + " changed while it was read; try again when it is written"};
      // (A file without a profile has nothing to show: an error on the page, not empty views.)
      if ((*loaded)->p.parts.empty())
        return error{path + ": " +
                     ((*loaded)->diagnostics.empty() ? std::string("no profile in it")
                                                     : (*loaded)->diagnostics.front().message)};
      return std::shared_ptr<const views::session>(std::move(*loaded));
    };
  }
  objdump_settings od;
  if (const auto& v = a.objdump) {
    if (v->empty()) return usage_error("serve", "--objdump needs a program");
    od.objdump = *v;
  }
  for (const auto& v : a.object_root) {
    auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0)
      return usage_error("serve", "--object-root takes OLD=NEW");
    od.object_roots.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  }
  if (struct stat st;
      inputs.size() == 1 && inputs[0].size() == 1 && stat(a.positional[0].c_str(), &st) == 0)
    od.input_mtime = static_cast<std::int64_t>(st.st_mtime);
  ao.objdump = make_objdump_runner(std::move(od));
  std::unique_ptr<server::api> api =
      folder_mode            ? std::make_unique<server::api>(ao)
      : sessions.size() == 1 ? std::make_unique<server::api>(ao, sessions[0])
                             : std::make_unique<server::api>(ao, sessions[0], sessions[1]);
  // The page's Reload: the same files read again with the same options (not standard input).
  if (!folder_mode && std::none_of(a.positional.begin(), a.positional.end(),
                                   [](const std::string& p) { return p == "-"; }))
    api->enable_reload(stamps, [inputs, lo]() -> result<server::served_files> {
      server::served_files out;
      for (const auto& paths : inputs) {
        for (const auto& path : paths) out.files.push_back(server::stamp_of(path));
        auto loaded = views::load_run(paths, lo);
        if (!loaded) return loaded.error();
        if (auto changed = changed_input(**loaded))
          return error{*changed + " changed while it was read; try again when it is written"};
        out.sessions.push_back(std::move(*loaded));
      }
      return out;
    });
  if (!loopback(host))
    std::fprintf(stderr,
                 "calltree serve: warning: listening on %s: other machines can connect; anyone "
                 "with the URL (its token) can read the profile and the source files it names\n",
                 host.c_str());

  const bool v6 = host.find(':') != std::string::npos;
  const std::string shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1"
                            : v6                              ? "[" + host + "]"
                                                              : host;
  const std::string url = "http://" + shown + ":" + std::to_string(*bound) + "/?token=" + *token;
  std::printf("%s\n", url.c_str());
  std::fflush(stdout);
  if (const int e = standard_output_error(); e && e != EPIPE) {
    // (Nobody would learn the URL: its token is in it.)
    std::fprintf(stderr, "calltree serve: error writing standard output: %s\n", std::strerror(e));
    return exit_usage;
  }
  if (a.open) open_browser(url);
  // What later views need, made while the page loads. (Out of memory here, they are made when
  // a view asks, whose request answers the error: thrown out of this thread it would end the
  // server.)
  std::atomic<bool> stop_warming{false};
  std::thread warm([&sessions, &stop_warming] {
    try {
      for (const auto& s : sessions) views::warm_up(*s, &stop_warming);
    } catch (const std::exception&) {
    }
  });

  std::thread watcher([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    http.stop();
  });
  const bool served = http.run(*api);
  if (!served) {
    // (run() returned without a signal: wake the watcher to end it.)
    pthread_kill(watcher.native_handle(), SIGTERM);
  }
  watcher.join();
  stop_warming = true;  // (the sessions are dropped: what is left of the warm-up is for nobody)
  for (const auto& s : sessions) s->stop_reading();
  warm.join();
  if (!served) {
    std::fprintf(stderr, "calltree serve: could not listen on %s:%d\n", host.c_str(), *bound);
    return exit_usage;
  }
  return exit_ok;
}

}  // namespace

CALLTREE_COMMAND(serve, {.name = "serve",
                         .summary = "serve KCachegrind's views of a profile to a browser",
                         .usage = serve_usage,
                         .description = serve_summary,
                         .flags = serve_table.flags,
                         .run = run_serve});

}  // namespace calltree::cli
