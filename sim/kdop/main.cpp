// kdop: the command line of kdopcd. Subcommands live in cmd_*.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "commands.hpp"
#include "kdopcd/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"kdop: k-DOP collision detection reference, accelerator model and tools"};
  app.set_version_flag("--version", std::string("kdop ") + KDOPCD_VERSION);
  app.require_subcommand(1);
  auto registry = kdopcd::cli::command_registry();
  std::sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, add] : registry) add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const kdopcd::InputError& e) {
    fmt::print(stderr, "kdop: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "kdop: internal error: {}\n", e.what());
    return 3;
  }
  return 0;
}
