#pragma once
// The kdop command line as one CLI11 app: every registered subcommand in --help order, the
// version flag and the footer, and every integer option read strictly (cli_support.hpp).
// main.cpp parses it and maps the exceptions to exit statuses; the command-line fuzz target
// (fuzz/targets/fuzz_cli.cpp) parses it without running the commands.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"

namespace kdopcd::cli {

inline void build_kdop_app(CLI::App& app) {
  app.set_version_flag("--version", std::string("kdop ") + KDOPCD_VERSION);
  app.require_subcommand(1);
  app.footer("Exit status: 0 ok, 1 a requested check found a difference, 2 invalid input or unwritable output, "
             "3 internal error, 4 a fixed capacity overflowed or memory ran out (docs/cli.md).");
  auto registry = command_registry();
  std::sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, add] : registry) add(app);
  make_integer_options_strict(app);
}

}  // namespace kdopcd::cli
