// kdop sat-eval --vectors FILE [--engine ref|rtl]: evaluates every axis-test vector with the
// bit-accurate fixed-point SAT (Eq. 22) and prints "diff1 diff2 verdict" per vector
// (docs/test-vectors.md). --engine rtl streams them through the Verilated SystemVerilog pipeline
// instead (rtl/, the parameter sets compiled in); the two outputs must be identical.
#include <fmt/format.h>

#include "commands.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/test_vectors.hpp"
#if KDOPCD_WITH_RTL
#include "kdopcd/rtl_engine.hpp"
#endif

namespace kdopcd::cli {
namespace {

struct SatEvalArgs {
  std::string path;
  std::string engine = "ref";
};

void run_sat_eval(const SatEvalArgs& args) {
  const std::vector<TestVector> vectors = load_test_vectors(args.path);
  if (vectors.empty()) throw InputError(fmt::format("{}: no test vectors in the file (docs/test-vectors.md)", args.path));
  if (args.engine == "ref") {
    for (const TestVector& v : vectors) fmt::print("{}\n", sat_eval_line(v));
    return;
  }
#if KDOPCD_WITH_RTL
  for (const std::string& line : rtl_sat_eval(vectors)) fmt::print("{}\n", line);
#else
  throw InputError("--engine rtl: this kdop was built without Verilator (rtl/ not compiled)");
#endif
}

void add_sat_eval_command(CLI::App& app) {
  auto args = std::make_shared<SatEvalArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sat-eval", "fixed-point SAT of test vectors: prints 'diff1 diff2 verdict' per vector (scale 2^-(b+c))");
  cmd->add_option("--vectors", args->path, "vector file: R (real) or Q (quantized) lines, docs/test-vectors.md")
      ->required();
  cmd->add_option("--engine", args->engine, "ref: the C++ reference; rtl: the Verilated RTL pipeline")
      ->check(CLI::IsMember({"ref", "rtl"}))
      ->capture_default_str();
  cmd->callback([args] { run_sat_eval(*args); });
}

const CommandRegistration registration(50, add_sat_eval_command);
}  // namespace

}  // namespace kdopcd::cli
