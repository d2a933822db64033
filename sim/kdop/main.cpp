// kdop: the command line of kdopcd. Subcommands live in cmd_*.cpp. The exit statuses are the
// error policy of docs/cli.md (cli_support.hpp): 0 ok, 1 a requested check failed, 2 invalid input
// (options included) or an output that cannot be written, 3 internal error (a defect), 4 a fixed
// capacity overflowed or memory ran out.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

#include <sys/resource.h>
#include <unistd.h>

#include "app.hpp"
#include "cli_support.hpp"
#include "kdopcd/error.hpp"

namespace {

// Everything printed on stdout must have reached it: a full disk behind stdout is an output error
// (exit 2), not a silent success. Empty when stdout is fine.
std::string stdout_error() {
  errno = 0;
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return {};
  // A write that failed earlier (an std::endl flush) left the error flag, not its errno.
  if (errno == 0) return "standard output: write failed (a full disk, or a closed pipe or terminal)";
  return fmt::format("standard output: write failed: {}", std::strerror(errno));
}

int report(const char* kind, const std::string& what, int status) {
  std::fflush(stdout);
  fmt::print(stderr, "kdop: {}: {}\n", kind, what);
  return status;
}

// The memory limit that an allocation failure ran into: the address-space limit (ulimit -v) when
// there is one, else the machine's memory.
std::string memory_limit() {
  struct rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    return fmt::format("the process's address-space limit (ulimit -v) of {} MiB", limit.rlim_cur >> 20);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return fmt::format("the machine's {} MiB of memory", (std::uint64_t(pages) * std::uint64_t(page)) >> 20);
  return "the memory available";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kdopcd::cli;
  CLI::App app{"kdop: k-DOP collision detection reference, accelerator model and tools"};
  build_kdop_app(app);
  int status = kExitOk;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with status 0; every other parser error is invalid input.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      const int ok = app.exit(e);
      if (const std::string out = stdout_error(); !out.empty()) return report("error", out, kExitInputError);
      return ok;
    }
    const CLI::App& all = app;
    const auto commands = all.get_subcommands([](const CLI::App*) { return true; });
    const bool known = argc > 1 && std::any_of(commands.begin(), commands.end(),
                                               [&](const CLI::App* c) { return c->check_name(argv[1]); });
    if (argc > 1 && argv[1][0] != '-' && !known) {
      std::string names;
      for (const CLI::App* sub : commands) names += (names.empty() ? "" : ", ") + sub->get_name();
      return report("error", fmt::format("unknown command '{}' (commands: {})", argv[1], names), kExitInputError);
    }
    return report("error", fmt::format("{} (see kdop --help, or kdop COMMAND --help)", e.what()), kExitInputError);
  } catch (const kdopcd::InputError& e) {
    return report("error", e.what(), kExitInputError);
  } catch (const kdopcd::OverflowError& e) {
    status = report("overflow", e.what(), kExitOverflow);
  } catch (const CheckFailed& e) {
    status = report("check failed", e.what(), kExitCheckFailed);
  } catch (const std::bad_alloc&) {
    // Memory is a capacity like the others: the input needs more than the limit allows.
    return report("overflow",
                  fmt::format("out of memory: the input needs more memory than {} allows (the run is incomplete)",
                              memory_limit()),
                  kExitOverflow);
  } catch (const std::exception& e) {
    // A full stdout makes fmt::print throw: that is an output error, not a defect.
    if (const std::string out = stdout_error(); !out.empty()) return report("error", out, kExitInputError);
    return report("internal error", e.what(), kExitDefect);
  } catch (...) {
    return report("internal error", "an exception of unknown type", kExitDefect);
  }
  if (const std::string out = stdout_error(); !out.empty()) return report("error", out, kExitInputError);
  return status;
}
