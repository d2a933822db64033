// Gappa as a child process: posix_spawn, stderr to a file, a wall-clock limit (gappa_run.hpp).
#include "kdopcd_formal/gappa_run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "kdopcd/error.hpp"

extern char** environ;

namespace kdopcd::formal {
namespace {

struct Spawned {
  pid_t pid = -1;
  int error = 0;
};

Spawned spawn(const std::vector<std::string>& argv, const std::string& stderr_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  Spawned s;
  s.error = posix_spawnp(&s.pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return s;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

GappaOutcome run_gappa(const std::string& gappa, const std::string& script_path, double timeout_seconds) {
  const std::string err_path = script_path + ".stderr";
  const auto t0 = std::chrono::steady_clock::now();
  const Spawned s = spawn({gappa, script_path}, err_path);
  if (s.error != 0) throw InputError("cannot run '" + gappa + "' (install it: scripts/install-deps.sh)");
  GappaOutcome out;
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(s.pid, &status, WNOHANG);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r == s.pid) break;
    if (out.seconds > timeout_seconds) {
      kill(s.pid, SIGKILL);
      waitpid(s.pid, &status, 0);
      out.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(out.seconds < 1 ? 5 : 50));
  }
  out.diagnostics = read_all(err_path);
  while (!out.diagnostics.empty() && (out.diagnostics.back() == '\n' || out.diagnostics.back() == ' '))
    out.diagnostics.pop_back();
  const bool exited_ok = !out.timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  const bool unchecked_hint = out.diagnostics.find("not trivially equal") != std::string::npos;
  out.proved = exited_ok && !unchecked_hint;
  if (out.timed_out) out.diagnostics = "timed out; " + out.diagnostics;
  return out;
}

bool gappa_available(const std::string& gappa) {
  const Spawned s = spawn({gappa, "--version"}, "/dev/null");
  if (s.error != 0) return false;
  int status = 0;
  waitpid(s.pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace kdopcd::formal
