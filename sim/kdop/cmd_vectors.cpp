// kdop vectors FIRST SECOND --poses FILE --out FILE: writes the vector of every axis test that a
// traversal of the two meshes performs at each pose (docs/test-vectors.md), for the RTL and
// model testbenches and for kdop verify-bound --vectors.
#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/test_vectors.hpp"

namespace kdopcd::cli {
namespace {

struct VectorsArgs {
  std::string first, second, poses, out;
  int k = 24;
  int axes = 0;
  std::string rule = to_string(kHardwareDescentRule);
  std::string bits = "18,18,18";
  std::string format = "real";
  std::string backend = "fixed";
  std::uint64_t limit = 0;
};

void run_vectors(const VectorsArgs& args) {
  check_outputs({{"--out", args.out}}, {args.first, args.second, args.poses});
  const FixedParams bits = parse_bits_option(args.bits);
  if (args.format != "real" && args.format != "quantized")
    throw InputError(fmt::format("--format '{}': expected real or quantized", args.format));
  const SatBackend backend = parse_sat_backend(args.backend);
  if (backend == SatBackend::Exact) throw InputError("--backend: expected float or fixed");
  TraversalOptions options;
  options.axes = args.axes;
  options.rule = parse_descent_rule(args.rule);
  options.leaf_planes = false;  // the vectors are the pairs the hardware tests: its k axes alone
  const std::vector<Pose> poses = load_poses(args.poses);
  const Mesh first = load_mesh(args.first), second = load_mesh(args.second);
  const DopTree first_tree(first, args.k, kHardwareTreeBuild), second_tree(second, args.k, kHardwareTreeBuild);
  OutputFile out(args.out);
  out << fmt::format("# kdop vectors {} {} k={} bits={},{},{} backend={} rule={} axes={} scale={:a}\n", args.first,
                     args.second, args.k, bits.b, bits.c, bits.z, to_string(backend), to_string(options.rule),
                     args.axes, scene_scale(first_tree, second_tree));
  const bool quantized = args.format == "quantized";
  std::uint64_t written = 0;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    if (args.limit != 0 && written >= args.limit) break;
    out << fmt::format("# pose {}\n", i);
    std::uint64_t separated = 0, count = 0;
    const TraversalStats stats = record_axis_tests(
        first_tree, second_tree, poses[i], options, backend, bits, [&](const TestVector& v, bool sep) {
          if (args.limit != 0 && written >= args.limit) return false;
          TestVector line = v;
          if (quantized) {
            line.fixed = quantized_operands(v);
            line.kind = TestVector::Kind::Quantized;
          }
          out << format_test_vector(line) << "\n";
          ++written;
          ++count;
          separated += sep;
          return true;
        });
    fmt::print("pose {}: {} pair tests, {} axis tests, {} vectors written ({} separating)\n", i, stats.pair_tests,
               stats.axis_tests, count, separated);
  }
  out.close();
  fmt::print("{} vectors -> {}\n", written, args.out);
}

void add_vectors_command(CLI::App& app) {
  auto args = std::make_shared<VectorsArgs>();
  CLI::App* cmd =
      app.add_subcommand("vectors", "write the axis-test vectors of every SAT test a traversal performs");
  cmd->add_option("FIRST", args->first, "first mesh (stays at the origin)")->required();
  cmd->add_option("SECOND", args->second, "second mesh, placed by each pose")->required();
  cmd->add_option("--poses", args->poses, "pose file: one 'qw qx qy qz tx ty tz' per line")->required();
  cmd->add_option("--out", args->out, "vector file to write")->required();
  cmd->add_option("--k", args->k, "k of the k-DOPs")->check(k_values())->capture_default_str();
  cmd->add_option("--axes", args->axes, "axes n tested per DOP pair (0 = all k; more than k means k)")
      ->check(CLI::Range(0, 26));
  cmd->add_option("--rule", args->rule, "descent rule: shallower, first, second")->capture_default_str();
  cmd->add_option("--bits", args->bits, "fractional bits b,c,z (or one n for all three), each 4..44")->capture_default_str();
  cmd->add_option("--format", args->format, "real (R lines, hex floats) or quantized (Q lines)")->capture_default_str();
  cmd->add_option("--backend", args->backend,
                  "traversal whose axis tests are recorded: fixed (the accelerator's) or float")
      ->capture_default_str();
  cmd->add_option("--limit", args->limit, "stop after N vectors (0 = all)")->check(CLI::Range(std::uint64_t(0), kMaxCount));
  cmd->callback([args] { run_vectors(*args); });
}

const CommandRegistration registration(52, add_vectors_command);
}  // namespace

}  // namespace kdopcd::cli
