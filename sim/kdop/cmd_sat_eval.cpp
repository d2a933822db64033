// kdop sat-eval --vectors FILE: evaluates every axis-test vector with the bit-accurate fixed-point
// SAT (Eq. 22) and prints "diff1 diff2 verdict" per vector (docs/test-vectors.md).
#include <fmt/format.h>

#include "commands.hpp"
#include "kdopcd/test_vectors.hpp"

namespace kdopcd::cli {
namespace {

void run_sat_eval(const std::string& path) {
  for (const TestVector& v : load_test_vectors(path)) fmt::print("{}\n", sat_eval_line(v));
}

void add_sat_eval_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "sat-eval", "fixed-point SAT of test vectors: prints 'diff1 diff2 verdict' per vector (scale 2^-(b+c))");
  cmd->add_option("--vectors", *path, "vector file: R (real) or Q (quantized) lines, docs/test-vectors.md")->required();
  cmd->callback([path] { run_sat_eval(*path); });
}

const CommandRegistration registration(50, add_sat_eval_command);
}  // namespace

}  // namespace kdopcd::cli
