// child_process.h — the program `calltree record` profiles, run to its end, Ctrl-C passed on.
//
// What it is: posix_spawnp of an argument vector (with extra environment variables), then a
// wait for its end, with SIGINT, SIGTERM, SIGHUP and SIGQUIT caught meanwhile and passed on:
//
// A Ctrl-C at a terminal goes to the whole foreground process group, `record` and the child
// alike: the child (Valgrind, and through it the program; php, python3, node) gets it from the
// terminal and `record` must only survive it, to keep and print what was collected. A signal
// sent to `record` alone (kill PID, timeout(1), a CI runner's SIGTERM) never reaches the child
// by itself: `record` sends it on. The two are told apart by the signal's si_code: the kernel's
// (SI_KERNEL, a terminal) is not passed on, anything sent with kill(2) is. A signal ignored when
// `record` started (nohup, a shell's background job without job control) stays ignored, for
// `record` and the child, as a shell leaves it. The handlers stay until restore_signals(), so a
// second Ctrl-C while the profile is written does not stop the writing half-way.
//
// The run ends when the last of the program's processes does, not when the first ends: a fork
// that outlives its parent writes its profile at its own end. `record` makes itself their
// subreaper (prctl PR_SET_CHILD_SUBREAPER), so that they become its children when their parent
// ends, and waits for them; a signal sent to `record` then goes to each of them. (A daemon the
// program leaves running keeps `record` waiting: Ctrl-C or kill ends it.)
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace calltree::cli {

struct child_end {
  int exit_status = 0;  // when it exited
  int signal = 0;       // when a signal killed it (then exit_status is 0)
  int interrupted = 0;  // the last stop signal record received while it ran (0: none)
  int pid = 0;          // its process id
  bool timed_out = false;  // spawn_options::timeout_seconds passed: its process group was ended
  // The status a shell gives: the exit status, or 128 + the signal.
  int shell_status() const { return signal ? 128 + signal : exit_status; }
};

// Catches the stop signals (above); call before spawn_and_wait.
void catch_stop_signals();
// Puts back the dispositions catch_stop_signals found.
void restore_signals();

// How a run that is not the terminal's is run (the mcp record tool's: its standard input and
// output are the protocol's). The defaults are `calltree record`'s: the terminal's.
struct spawn_options {
  std::string cwd;                // the folder it runs in ("": ours)
  bool null_input = false;        // /dev/null as its standard input
  std::string* output = nullptr;  // its standard output and error, the last `kept` bytes
  std::size_t kept = 8192;
  // After this long (0: never) its process group gets SIGTERM, and SIGKILL 2 s later; then it
  // runs in a process group of its own.
  int timeout_seconds = 0;
};

// Runs `argv` (argv[0] looked up in PATH) with `env` added to the environment (NAME, VALUE;
// a NAME already there is replaced) and waits for its end. nullopt with `error` (strerror's
// words) when it could not be started.
std::optional<child_end> spawn_and_wait(const std::vector<std::string>& argv,
                                        const std::vector<std::pair<std::string, std::string>>& env,
                                        std::string& error, const spawn_options& how = {});

// Runs `argv` with its standard output and error into `output` (at most `limit` bytes kept),
// and its exit status; nullopt with `error` when it could not be started. For short commands
// (`valgrind --help-debug`): no signal is passed on.
std::optional<int> run_capture(const std::vector<std::string>& argv, std::string& output,
                               std::size_t limit, std::string& error);

// The program `name` would run as: itself if it holds a '/', else the first executable file of
// that name in PATH. nullopt when there is none.
std::optional<std::string> find_program(const std::string& name);

// "SIGSEGV" for SIGSEGV (sigabbrev_np's words, "SIG" before them), "SIG42" for a signal
// without a name.
std::string signal_name(int signal);

}  // namespace calltree::cli
