// mcp_record.cc — the record tool of `calltree mcp --allow-record`: runs a program under its
// profiler, as `calltree record` does, and answers the profile it wrote (its path and summary).
//
// One launcher. The run is `calltree record`'s (record_launch.h): the profiler told by the
// program (php Xdebug, python cProfile, node V8's, anything else callgrind) or named by
// `profiler`, callgrind's options for the views, `children` to follow the processes it starts,
// their files merged into the parts of one file. What differs is the protocol's: the file
// goes to `path` (or callgrind.out.mcp.PID in cwd) instead of a folder of runs, and the run
// is not the terminal's.
//
// Safety. The tool runs any program the agent names, as the user who started the server: it is
// offered (tools/list) and accepted (tools/call) only with --allow-record, and tools/list marks
// it destructive and open-world. The program gets /dev/null as standard input (the protocol's
// is the server's), its output and the profiler's go to a pipe of which the last 8 KB are
// answered, and after timeout_seconds its process group gets SIGTERM, then SIGKILL two seconds
// later.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "args.h"
#include "mcp_profiles.h"
#include "mcp_tools.h"
#include "record_launch.h"

namespace calltree::cli::mcp {

namespace {

std::string real_folder(const std::string& path, std::string_view what) {
  char real[PATH_MAX];
  struct stat st;
  if (!realpath(path.c_str(), real) || stat(real, &st) != 0)
    throw tool_failure(path + " (" + std::string(what) + "): " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode))
    throw tool_failure(path + " is not a folder (" + std::string(what) + ")");
  return real;
}

// What Valgrind wrote into its logs in the staging folder (its own words when it failed).
std::string valgrind_words(const record_plan& plan) {
  std::string out;
  for (const auto& log : valgrind_logs(plan)) {
    std::ifstream in(log);
    for (std::string line; std::getline(in, line) && out.size() < 4000;) out += line + "\n";
  }
  return out;
}

// Removes the staging folder when the call ends, however it ends.
struct staging_folder {
  std::string path;
  ~staging_folder() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

tool_answer run_record(tool_context& c, const json& arguments_json) {
  arguments args("record", arguments_json);
  const std::vector<std::string> command = args.strings("command");
  if (command.empty() || command[0].empty())
    throw bad_arguments(
        "record: argument 'command' is required: the program and its "
        "arguments, e.g. [\"./bench\", \"--quick\"]");
  const std::string cwd =
      real_folder(args.text_or("cwd", current_dir().empty() ? "." : current_dir()), "cwd");
  std::string out = args.text_or("path", "");
  if (!out.empty() && out.front() != '/') out = cwd + "/" + out;
  const int timeout = static_cast<int>(args.count("timeout_seconds", 300, 1, 3600));
  record_plan plan;
  plan.program = command;
  plan.kind = profiler_of_program(command[0]);
  if (auto word = args.text("profiler")) {
    auto k = profiler_named(*word);
    if (!k)
      throw bad_arguments("record: argument 'profiler' takes callgrind, xdebug, cprofile or node");
    plan.kind = *k;
  }
  plan.children = args.flag("children", false);
  args.done();
  if (plan.children && plan.kind != profiler_kind::callgrind)
    throw bad_arguments(std::string("record: children is callgrind's; this run uses ") +
                        std::string(profiler_word(plan.kind)) +
                        " (profiler: \"callgrind\" runs the interpreter under Valgrind)");
  plan.valgrind = c.settings.valgrind;

  // What would fail only after the program ran is refused now, in the words calltree record
  // uses: the profile's folder, the program, the script.
  const std::string folder = out.empty() ? cwd : std::filesystem::path(out).parent_path().string();
  struct stat st;
  if (stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    const bool missing = errno == ENOENT;
    throw tool_failure("cannot write " + out + ": its folder " + folder +
                       (missing ? " does not exist" : " is not a folder") +
                       " (make it first, or give another path); nothing was run");
  }
  if (plan.kind == profiler_kind::callgrind && !find_program(plan.valgrind))
    throw tool_failure("could not run " + plan.valgrind +
                       ": not found (install valgrind, or start the server with "
                       "--valgrind=PATH)");
  // (The program, when its name holds a '/', and its script are looked for from cwd, where
  // they run.)
  auto from_cwd = [&cwd](const std::string& p) { return p.front() == '/' ? p : cwd + "/" + p; };
  if (!find_program(command[0].find('/') == std::string::npos ? command[0] : from_cwd(command[0])))
    throw tool_failure(command[0] + ": no such program" +
                       (command[0].find('/') == std::string::npos ? " in PATH" : " in " + cwd) +
                       "; no profile was written");
  if (auto script = script_of(plan);
      script && !script->empty() && ::access(from_cwd(*script).c_str(), R_OK) != 0)
    throw tool_failure(*script + ": " + std::strerror(errno) + "; no profile was written");
  std::string why;
  plan.staging = "/nonexistent";
  if (!launch_of(plan, why)) throw bad_arguments("record: " + why);

  staging_folder staging{folder + "/.record-XXXXXX"};
  if (!::mkdtemp(staging.path.data())) {
    const std::string failed = staging.path;
    staging.path.clear();
    throw tool_failure("cannot write into " + folder + ": " + std::strerror(errno) + " (" + failed +
                       ")");
  }
  plan.staging = staging.path;
  spawn_options how;
  how.cwd = cwd;
  how.null_input = true;
  std::string output;
  how.output = &output;
  how.timeout_seconds = timeout;
  std::string error;
  const auto run = run_recording(plan, how, error);
  if (!run) throw tool_failure(error);
  const child_end& end = run->end;
  if (run->files.empty()) {
    const std::string said = plan.kind == profiler_kind::callgrind ? valgrind_words(plan) : "";
    const std::string hint = no_profile_hint(plan, end, said);
    throw tool_failure("no profile was written (" +
                       (end.timed_out ? "stopped after " + std::to_string(timeout) + " s"
                        : end.signal  ? "killed by " + signal_name(end.signal)
                                      : "exit status " + std::to_string(end.exit_status)) +
                       ")" + (hint.empty() ? "" : ": " + hint) +
                       (said.empty() ? "" : "\nValgrind said:\n" + said) +
                       "\nThe program's output ended:\n" +
                       output.substr(output.size() > 2000 ? output.size() - 2000 : 0));
  }
  const std::string file = one_recorded_file(run->files, plan.staging);
  if (file.empty()) throw tool_failure("the run's files could not be merged into one profile");
  if (out.empty()) {
    const std::string ext =
        run->files.size() == 1 ? std::string(profile_extension(plan.kind)) : "callgrind";
    out = cwd + "/" + (ext == "callgrind" ? "callgrind.out.mcp." : "mcp.") +
          std::to_string(end.pid) + (ext == "callgrind" ? "" : "." + ext);
  }
  std::error_code ec;
  std::filesystem::rename(file, out, ec);
  if (ec) throw tool_failure("cannot write " + out + ": " + ec.message());

  tool_answer summary = summarize_profile(out, c.profiles.single(out).ask("/api/v1/profile"));
  tool_answer a;
  a.structured = {{"path", out},
                  {"profiler", std::string(profiler_word(plan.kind))},
                  {"exit_status", end.signal ? json(nullptr) : json(end.exit_status)},
                  {"signal", end.signal ? json(end.signal) : json(nullptr)},
                  {"timed_out", end.timed_out},
                  {"output", output},
                  {"summary", summary.structured}};
  a.text = "Recorded " + out + " with " + std::string(profiler_word(plan.kind)) + " (" +
           (end.timed_out ? "stopped after " + std::to_string(timeout) + " s"
            : end.signal  ? "killed by " + signal_name(end.signal)
                          : "exit status " + std::to_string(end.exit_status)) +
           ").\n" + summary.text;
  return a;
}

}  // namespace calltree::cli::mcp
