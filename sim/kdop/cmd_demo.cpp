// kdop demo: a default scene with no arguments and no files. Two generated tori (a chain link
// and a ring), one pose per class, every contact set checked against brute force.
#include <fmt/format.h>

#include <chrono>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/shapes.hpp"
#include "query_report.hpp"

namespace kdopcd::cli {
namespace {

void run_demo(int k) {
  const Mesh ring = make_torus(1.0, 0.3, 48, 24);
  const Mesh link = make_torus(0.8, 0.25, 40, 20);
  const DopTree ring_tree(ring, k), link_tree(link, k);
  fmt::print("kdop demo: torus ({} triangles) vs torus ({} triangles), {}-DOP trees of depth {} and {}\n",
             ring.triangle_count(), link.triangle_count(), k, ring_tree.max_depth(), link_tree.max_depth());
  const Eigen::Quaterniond tilt(Eigen::AngleAxisd(1.2, Vec3(1, 0.3, 0).normalized()));
  const auto poses = make_pose_classes(ring_tree, link_tree, tilt, Vec3(1, 0.2, 0.1));
  fmt::print("{:<16} ", "class");
  print_table_header();
  bool all_equal = true;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    PoseOutcome outcome{collide(ring_tree, link_tree, poses[i].pose, TraversalOptions{}), 0};
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("{:<16} ", to_string(poses[i].kind));
    print_table_row(i, outcome);
    all_equal &= brute_force_contacts(ring, link, poses[i].pose) == outcome.result.contacts;
  }
  fmt::print("brute force (all {} triangle pairs per pose, exact test): {}\n",
             ring.triangle_count() * link.triangle_count(), all_equal ? "every contact set equal" : "MISMATCH");
  fmt::print("next: kdop collide data/meshes/cow.off data/meshes/cow.off --pose \"1 0 0 0 0.1 0 0\" --check\n");
  if (!all_equal) throw CheckFailed("demo contact sets differ from brute force");
}

}  // namespace

namespace {
void add_demo_command(CLI::App& app) {
  auto k = std::make_shared<int>(24);
  CLI::App* cmd = app.add_subcommand("demo", "default scene: two generated tori in the four pose classes");
  cmd->add_option("--k", *k, "k of the k-DOPs")->check(k_values())->capture_default_str();
  cmd->callback([k] { run_demo(*k); });
}

const CommandRegistration registration(10, add_demo_command);
}  // namespace

}  // namespace kdopcd::cli
