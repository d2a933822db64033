#pragma once
// Each kdop subcommand lives in its own cmd_*.cpp and registers itself with a static
// CommandRegistration, so adding a command touches no other file.
#include <CLI/CLI.hpp>

#include <functional>
#include <vector>

namespace kdopcd::cli {

using CommandAdder = std::function<void(CLI::App&)>;

inline std::vector<std::pair<int, CommandAdder>>& command_registry() {
  static std::vector<std::pair<int, CommandAdder>> registry;
  return registry;
}

// `order` fixes the position in --help (registration order across files is unspecified).
struct CommandRegistration {
  CommandRegistration(int order, CommandAdder adder) { command_registry().emplace_back(order, std::move(adder)); }
};

}  // namespace kdopcd::cli
