// kdop: the command line of kdopcd. Subcommands live in cmd_*.cpp. The exit statuses are the
// error policy of docs/cli.md (cli_support.hpp): 0 ok, 1 a requested check failed, 2 invalid input
// (options included) or an output that cannot be written, 3 internal error (a defect), 4 a fixed
// capacity overflowed.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/error.hpp"

namespace {

// Everything printed on stdout must have reached it: a full disk behind stdout is an output error
// (exit 2), not a silent success. Empty when stdout is fine.
std::string stdout_error() {
  errno = 0;
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return {};
  return fmt::format("standard output: write failed: {}", std::strerror(errno != 0 ? errno : EIO));
}

int report(const char* kind, const std::string& what, int status) {
  std::fflush(stdout);
  fmt::print(stderr, "kdop: {}: {}\n", kind, what);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kdopcd::cli;
  CLI::App app{"kdop: k-DOP collision detection reference, accelerator model and tools"};
  app.set_version_flag("--version", std::string("kdop ") + KDOPCD_VERSION);
  app.require_subcommand(1);
  app.footer("Exit status: 0 ok, 1 a requested check found a difference, 2 invalid input or unwritable output, "
             "3 internal error, 4 a fixed capacity overflowed (docs/cli.md).");
  auto registry = command_registry();
  std::sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, add] : registry) add(app);
  int status = kExitOk;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with status 0; every other parser error is invalid input.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
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
