// kdop ccd FIRST SECOND (--from FILE | --from-pose "...") (--to FILE | --to-pose "...") [options]:
// rigid continuous collision detection (docs/ccd.md). The first object stays at the origin; the
// second moves from its start pose to its end pose, every vertex linearly between its two placed
// positions. Prints the first time of contact and every feature pair touching then.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/ccd/bracketing.hpp"
#include "kdopcd/ccd/ccd_query.hpp"
#include "kdopcd/ccd/ccd_report.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose.hpp"
#include "query_report.hpp"

namespace kdopcd::cli {
namespace {

struct CcdArgs {
  std::string first, second, from_file, to_file, from_text, to_text, json_path;
  std::size_t pose_index = 0;
  int k = 18;
  int threads = 0;
  bool check = false;
};

// Pose `index` of a pose file (0 = the first pose line), or the pose given inline.
Pose pick_pose(const std::string& file, const std::string& text, std::size_t index, const char* option) {
  if (!text.empty()) return parse_pose(text, std::string(option) + "-pose");
  if (file.empty()) throw InputError(fmt::format("give {} FILE or {}-pose \"qw qx qy qz tx ty tz\"", option, option));
  PoseReader reader(file);
  Pose pose;
  for (std::size_t i = 0; i <= index; ++i)
    if (!reader.next(pose))
      throw InputError(fmt::format("{}: --pose-index {} but the file has {} pose(s)", file, index, reader.count()));
  return pose;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void run_ccd(const CcdArgs& args) {
  check_outputs({{"--json", args.json_path}}, {args.first, args.second, args.from_file, args.to_file});
  const Pose from = pick_pose(args.from_file, args.from_text, args.pose_index, "--from");
  const Pose to = pick_pose(args.to_file, args.to_text, args.pose_index, "--to");
  const Mesh first = load_mesh(args.first), second = load_mesh(args.second);
  const ccd::Topology first_topology = ccd::Topology::of(first.triangles, first.vertices.size(), args.first);
  const ccd::Topology second_topology = ccd::Topology::of(second.triangles, second.vertices.size(), args.second);
  const std::vector<Vec3> first_positions = first.vertices;
  const std::vector<Vec3> second_start = place_vertices(second, from), second_end = place_vertices(second, to);
  const ccd::MovingMesh a{&first_topology, {first_positions, first_positions}};
  const ccd::MovingMesh b{&second_topology, {second_start, second_end}};
  ccd::check_motion(a, args.first);
  ccd::check_motion(b, args.second);

  const auto t_build = std::chrono::steady_clock::now();
  const ccd::SweptTree tree_a(first_topology, a.motion, args.k, ccd::SweptTree::Use::pairs),
      tree_b(second_topology, b.motion, args.k, ccd::SweptTree::Use::pairs);
  const double build_seconds = seconds_since(t_build);
  const auto t_query = std::chrono::steady_clock::now();
  const ccd::CcdResult result = ccd::ccd_pair(a, tree_a, b, tree_b, {.threads = args.threads});
  const double query_seconds = seconds_since(t_query);

  fmt::print("first  {}: {} triangles (still)\n", args.first, first.triangle_count());
  fmt::print("second {}: {} triangles, moving from pose {} to pose {}\n", args.second, second.triangle_count(),
             args.from_text.empty() ? fmt::format("{} of {}", args.pose_index, args.from_file) : "--from-pose",
             args.to_text.empty() ? fmt::format("{} of {}", args.pose_index, args.to_file) : "--to-pose");
  fmt::print("k = {}, swept trees {:.3f} ms, query {:.3f} ms\n", args.k, build_seconds * 1e3, query_seconds * 1e3);
  ccd::print_result(result, {"first", "second"});

  nlohmann::json report = {{"first", args.first}, {"second", args.second}, {"k", args.k},
                           {"build_seconds", build_seconds}, {"query_seconds", query_seconds}};
  report.update(ccd::result_json(result, {"first", "second"}));
  if (args.check) {
    const ccd::CcdResult brute = ccd::brute_force_pair(a, b);
    const bool equal = brute.time == result.time && brute.contacts == result.contacts;
    fmt::print("check: brute force over every feature pair: {}\n",
               equal ? "equal time and pairs" : fmt::format("DIFFERENT ({})", ccd::describe_time(brute.time)));
    const ccd::Bracketing bracket = ccd::check_bracketing(a, b, false, result);
    fmt::print("check: discrete exact test at t* - {:g}: {} intersecting triangle pair(s); {} reported pair(s) not "
               "shown intersecting at t* or t* + {:g}\n",
               ccd::kBracketEpsilon, bracket.before.size(), bracket.not_shown_after.size(), ccd::kBracketEpsilon);
    report["check"] = {{"brute_force_equal", equal},
                       {"intersecting_before", bracket.before.size()},
                       {"not_shown_after", bracket.not_shown_after.size()}};
    if (!args.json_path.empty()) write_json_file(args.json_path, report);
    if (!equal) throw CheckFailed("the first contact differs from brute force");
    if (!bracket.ok()) throw CheckFailed("the first contact is not bracketed by the discrete exact test");
    return;
  }
  if (!args.json_path.empty()) write_json_file(args.json_path, report);
}

void add_ccd_command(CLI::App& app) {
  auto args = std::make_shared<CcdArgs>();
  CLI::App* cmd = app.add_subcommand("ccd", "continuous collision detection: first time of contact of a moving mesh");
  cmd->add_option("FIRST", args->first, "first mesh (stays at the origin): OFF, OBJ, STL or PLY")->required();
  cmd->add_option("SECOND", args->second, "second mesh, moving from the --from pose to the --to pose")->required();
  auto* from = cmd->add_option("--from", args->from_file, "pose file of the start pose (pose --pose-index of it)");
  auto* from_pose = cmd->add_option("--from-pose", args->from_text, "start pose \"qw qx qy qz tx ty tz\"");
  auto* to = cmd->add_option("--to", args->to_file, "pose file of the end pose (pose --pose-index of it)");
  auto* to_pose = cmd->add_option("--to-pose", args->to_text, "end pose \"qw qx qy qz tx ty tz\"");
  from->excludes(from_pose);
  to->excludes(to_pose);
  cmd->add_option("--pose-index", args->pose_index, "which pose of the --from and --to files (0 = the first)")
      ->check(CLI::Range(std::size_t(0), std::size_t(kMaxCount)))
      ->capture_default_str();
  cmd->add_option("--k", args->k, "k of the swept k-DOPs")->check(k_values())->capture_default_str();
  cmd->add_option("--threads", args->threads, "threads (0 = all cores)")->check(CLI::Range(0, 1024))->capture_default_str();
  cmd->add_option("--json", args->json_path, "write a JSON report to this file");
  cmd->add_flag("--check", args->check,
                "also test every feature pair (brute force) and bracket t* with the discrete exact test; exit 1 on a "
                "difference");
  cmd->callback([args] { run_ccd(*args); });
}

const CommandRegistration registration(22, add_ccd_command);
}  // namespace

}  // namespace kdopcd::cli
