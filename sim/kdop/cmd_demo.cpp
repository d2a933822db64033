// kdop demo: the default scene. Two generated tori (a chain link and a ring), which need no files,
// and beside them a real scene, two meshes that Debian's libcgal-demo ships (extracted into
// data/meshes by scripts/fetch-meshes.sh): one pose per class each, every contact set checked
// against brute force. Without the meshes the real scene is reported as left out, never
// silently dropped.
#include <fmt/format.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/shapes.hpp"
#include "query_report.hpp"

namespace kdopcd::cli {
namespace {

struct DemoArgs {
  int k = 24;
  std::string meshes = "data/meshes";
  std::string first = "cow.off";
  std::string second = "cow.off";
  bool named = false;  // --meshes, --first or --second given: then a missing mesh is an error
};

// The four pose classes of one scene, each query timed and checked against brute force.
// Returns whether every contact set equals the brute-force one.
bool run_scene(const Mesh& first, const Mesh& second, const DopTree& first_tree, const DopTree& second_tree,
               const Eigen::Quaterniond& rotation, const Vec3& direction) {
  const auto poses = make_pose_classes(first_tree, second_tree, rotation, direction);
  fmt::print("{:<16} ", "class");
  print_table_header();
  bool all_equal = true;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    PoseOutcome outcome{collide(first_tree, second_tree, poses[i].pose, TraversalOptions{}), 0};
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("{:<16} ", to_string(poses[i].kind));
    print_table_row(i, outcome);
    all_equal &= brute_force_contacts(first, second, poses[i].pose) == outcome.result.contacts;
  }
  fmt::print("brute force (all {} triangle pairs per pose, exact test): {}\n",
             first.triangle_count() * second.triangle_count(), all_equal ? "every contact set equal" : "MISMATCH");
  return all_equal;
}

void run_demo(const DemoArgs& args) {
  const int k = args.k;
  const Mesh ring = make_torus(1.0, 0.3, 48, 24);
  const Mesh link = make_torus(0.8, 0.25, 40, 20);
  const DopTree ring_tree(ring, k), link_tree(link, k);
  fmt::print("kdop demo: torus ({} triangles) vs torus ({} triangles), {}-DOP trees of depth {} and {}\n",
             ring.triangle_count(), link.triangle_count(), k, ring_tree.max_depth(), link_tree.max_depth());
  const Eigen::Quaterniond tilt(Eigen::AngleAxisd(1.2, Vec3(1, 0.3, 0).normalized()));
  bool all_equal = run_scene(ring, link, ring_tree, link_tree, tilt, Vec3(1, 0.2, 0.1));

  const std::filesystem::path dir(args.meshes);
  const std::string first_path = (dir / args.first).string(), second_path = (dir / args.second).string();
  if (!std::filesystem::exists(first_path) || !std::filesystem::exists(second_path)) {
    if (args.named) throw InputError(fmt::format("real scene: {} or {} not found", first_path, second_path));
    // With the defaults (a clone without the meshes), the tori alone still show the query; say
    // what is missing and how to get it.
    fmt::print("\nreal scene left out: {} or {} not found (scripts/fetch-meshes.sh extracts libcgal-demo's "
               "meshes; --meshes DIR names another folder)\n",
               first_path, second_path);
  } else {
    const Mesh first = load_mesh(first_path), second = load_mesh(second_path);
    const DopTree first_tree(first, k), second_tree(second, k);
    fmt::print("\nreal scene (libcgal-demo): {} ({} triangles) vs {} ({} triangles), {}-DOP trees of depth {} and {}\n",
               first_path, first.triangle_count(), second_path, second.triangle_count(), k, first_tree.max_depth(),
               second_tree.max_depth());
    // The same search for the four classes as `kdop poses` with its defaults.
    const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
    all_equal &= run_scene(first, second, first_tree, second_tree, turn, Vec3(1, 0.5, 0.25));
  }
  fmt::print("next: kdop collide data/meshes/cow.off data/meshes/cow.off --pose \"1 0 0 0 0.1 0 0\" --check\n");
  if (!all_equal) throw CheckFailed("demo contact sets differ from brute force");
}

}  // namespace

namespace {
void add_demo_command(CLI::App& app) {
  auto args = std::make_shared<DemoArgs>();
  CLI::App* cmd = app.add_subcommand(
      "demo", "default scene: two generated tori and a real scene (libcgal-demo meshes) in the four pose classes");
  cmd->add_option("--k", args->k, "k of the k-DOPs")->check(k_values())->capture_default_str();
  const std::array<CLI::Option*, 3> named{
      cmd->add_option("--meshes", args->meshes, "folder of the real scene's meshes (scripts/fetch-meshes.sh)")
          ->capture_default_str(),
      cmd->add_option("--first", args->first, "real scene: first mesh in that folder")->capture_default_str(),
      cmd->add_option("--second", args->second, "real scene: second mesh in that folder")->capture_default_str()};
  cmd->callback([args, named] {
    for (const CLI::Option* o : named) args->named |= o->count() > 0;
    run_demo(*args);
  });
}

const CommandRegistration registration(10, add_demo_command);
}  // namespace

}  // namespace kdopcd::cli
