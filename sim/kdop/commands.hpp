#pragma once
// Each kdop subcommand registers itself on the CLI11 app and runs through a callback.
#include <CLI/CLI.hpp>

namespace kdopcd::cli {

void add_collide_command(CLI::App& app);
void add_demo_command(CLI::App& app);

}  // namespace kdopcd::cli
