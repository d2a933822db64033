// kdop poses FIRST SECOND --out FILE: one pose per class (intersecting, close proximity, small
// proximity, separated; Damkjær 2007, §9, docs/references.md), found by search (pose_classes.hpp),
// as a pose file.
#include <fmt/format.h>

#include <numbers>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"

namespace kdopcd::cli {
namespace {

struct PosesArgs {
  std::string first, second, out;
  double angle = 0.6;
  std::vector<double> axis{1, 1, 0};
  std::vector<double> direction{1, 0.5, 0.25};
  int k = 24;
};

void run_poses(const PosesArgs& args) {
  check_outputs({{"--out", args.out}}, {args.first, args.second});
  const Mesh first = load_mesh(args.first), second = load_mesh(args.second);
  const DopTree first_tree(first, args.k), second_tree(second, args.k);
  const Vec3 axis(args.axis[0], args.axis[1], args.axis[2]);
  const Vec3 direction(args.direction[0], args.direction[1], args.direction[2]);
  if (!(axis.norm() > 0) || !(direction.norm() > 0)) throw InputError("--axis and --direction must be non-zero");
  const auto poses = make_pose_classes(first_tree, second_tree,
                                       Eigen::Quaterniond(Eigen::AngleAxisd(args.angle, axis.normalized())), direction);
  std::string text = fmt::format("# {} (first) vs {} (second): one pose per class, 'qw qx qy qz tx ty tz'\n",
                                 args.first, args.second);
  for (const ClassifiedPose& cp : poses) {
    const Eigen::Quaterniond& q = cp.pose.rotation;
    const Vec3& t = cp.pose.translation;
    const std::string line =
        fmt::format("{:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}", q.w(), q.x(), q.y(), q.z(), t.x(), t.y(), t.z());
    // Only a pose that a pose file may hold is written (finite, within the scale limit).
    parse_pose(line, fmt::format("the {} pose found", to_string(cp.kind)));
    text += fmt::format("{}  # {}\n", line, to_string(cp.kind));
  }
  write_whole_file(args.out, text);
  fmt::print("wrote {}: intersecting, close-proximity, small-proximity, separated\n", args.out);
}

void add_poses_command(CLI::App& app) {
  auto args = std::make_shared<PosesArgs>();
  CLI::App* cmd = app.add_subcommand("poses", "write one pose per test class (intersecting ... separated) for two meshes");
  cmd->add_option("FIRST", args->first, "first mesh (stays at the origin)")->required();
  cmd->add_option("SECOND", args->second, "second mesh (placed by the poses)")->required();
  cmd->add_option("--out", args->out, "pose file to write")->required();
  cmd->add_option("--angle", args->angle, "rotation of the second object, radians")
      ->check(finite_range(-2 * std::numbers::pi, 2 * std::numbers::pi))
      ->capture_default_str();
  cmd->add_option("--axis", args->axis, "rotation axis x y z (not zero)")
      ->expected(3)
      ->check(finite_range(-1e6, 1e6))
      ->capture_default_str();
  cmd->add_option("--direction", args->direction, "direction x y z along which the second object is moved (not zero)")
      ->expected(3)
      ->check(finite_range(-1e6, 1e6))
      ->capture_default_str();
  cmd->add_option("--k", args->k, "k of the trees used in the search")->check(k_values())->capture_default_str();
  cmd->callback([args] { run_poses(*args); });
}

const CommandRegistration registration(25, add_poses_command);
}  // namespace

}  // namespace kdopcd::cli
