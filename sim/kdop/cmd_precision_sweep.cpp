// kdop precision-sweep FIRST SECOND --poses FILE: the paper's Fig. 3 on real meshes. For each
// bit width b = c = z, the fixed backend's pair tests, triangle tests and contacts per pose,
// next to the exact SAT's, as CSV. The excess over the exact test is the cost of the rounding
// (false positives: DOP pairs the exact test separates but the fixed test keeps). same_contacts
// says whether the two contact sets are equal pair for pair, which their counts alone do not.
#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"

namespace kdopcd::cli {
namespace {

struct SweepArgs {
  std::string first, second, poses_file, csv, scene;
  int k = 24;
  int from = 8, to = 44, step = 1;
};

void run_sweep(const SweepArgs& args) {
  if (args.from < 4 || args.to > kMaxFixedBits || args.from > args.to || args.step < 1)
    throw InputError(fmt::format("bit range --from {} --to {} --step {}: need 4 <= from <= to <= {} and step >= 1",
                                 args.from, args.to, args.step, kMaxFixedBits));
  check_outputs({{"--csv", args.csv}}, {args.first, args.second, args.poses_file});
  const std::vector<Pose> poses = load_poses(args.poses_file);
  const Mesh first = load_mesh(args.first), second = load_mesh(args.second);
  const DopTree first_tree(first, args.k), second_tree(second, args.k);
  OutputFile out(args.csv);
  const std::string scene = args.scene.empty() ? first.name + " vs " + second.name : args.scene;
  out << "scene,pose,bits,pair_tests,triangle_tests,contacts,exact_pair_tests,exact_triangle_tests,exact_contacts,"
         "extra_pair_tests,extra_triangle_tests,same_contacts\n";
  for (std::size_t p = 0; p < poses.size(); ++p) {
    const QueryResult exact = collide(first_tree, second_tree, poses[p], TraversalOptions{}, SatBackend::Exact);
    for (int bits = args.from; bits <= args.to; bits += args.step) {
      const QueryResult fx =
          collide(first_tree, second_tree, poses[p], TraversalOptions{}, SatBackend::Fixed, FixedParams{bits, bits, bits});
      const TraversalStats& f = fx.stats;
      const TraversalStats& e = exact.stats;
      out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", scene, p, bits, f.pair_tests, f.triangle_tests,
                         f.contacts, e.pair_tests, e.triangle_tests, e.contacts,
                         std::int64_t(f.pair_tests) - std::int64_t(e.pair_tests),
                         std::int64_t(f.triangle_tests) - std::int64_t(e.triangle_tests),
                         fx.contacts == exact.contacts ? 1 : 0);
    }
    fmt::print("{} pose {}: exact {} pair tests, {} contacts; swept bits {}..{}\n", scene, p, exact.stats.pair_tests,
               exact.stats.contacts, args.from, args.to);
  }
  out.close();
}

void add_sweep_command(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* cmd = app.add_subcommand("precision-sweep", "fixed-point bits vs pair tests and false positives (paper Fig. 3), CSV");
  cmd->add_option("FIRST", args->first, "first mesh")->required();
  cmd->add_option("SECOND", args->second, "second mesh")->required();
  cmd->add_option("--poses", args->poses_file, "pose file")->required();
  cmd->add_option("--csv", args->csv, "CSV file to write")->required();
  cmd->add_option("--scene", args->scene, "scene name in the CSV (default: the mesh names)");
  cmd->add_option("--k", args->k, "k of the k-DOPs")->check(k_values())->capture_default_str();
  cmd->add_option("--from", args->from, "smallest b = c = z")->check(CLI::Range(4, kMaxFixedBits))->capture_default_str();
  cmd->add_option("--to", args->to, "largest b = c = z")->check(CLI::Range(4, kMaxFixedBits))->capture_default_str();
  cmd->add_option("--step", args->step, "bit step")->check(CLI::Range(1, kMaxFixedBits))->capture_default_str();
  cmd->callback([args] { run_sweep(*args); });
}

const CommandRegistration registration(45, add_sweep_command);
}  // namespace

}  // namespace kdopcd::cli
