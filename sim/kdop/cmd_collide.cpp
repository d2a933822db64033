// kdop collide FIRST SECOND (--poses FILE | --pose "qw qx qy qz tx ty tz") [options]
#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <optional>

#include "commands.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/fixed_precision.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "query_report.hpp"

namespace kdopcd::cli {
namespace {

struct CollideArgs {
  std::string first, second, poses_file, pose_text, pairs_path, json_path;
  int k = 24;
  int axes = 0;
  std::string rule = "shallower";
  std::string backend = "float";
  std::string bits = "18,18,18";
  std::string tri_bits = "24,24";
  bool check = false;
};

// "v,m" or one "n" for both: the triangle unit's bits (TriangleFixedParams).
TriangleFixedParams parse_tri_bits(const std::string& text) {
  const auto comma = text.find(',');
  auto number = [&](const std::string& part) {
    int value = 0;
    const auto [next, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (ec != std::errc() || next != part.data() + part.size() || part.empty())
      throw InputError(fmt::format("--tri-bits '{}': expected v,m or one number", text));
    return value;
  };
  const TriangleFixedParams p = comma == std::string::npos
                                    ? TriangleFixedParams{number(text), number(text)}
                                    : TriangleFixedParams{number(text.substr(0, comma)), number(text.substr(comma + 1))};
  if (p.v < 1 || p.m < 1 || p.v + p.m > kMaxTriangleFixedBits)
    throw InputError(fmt::format("--tri-bits '{}': need v, m >= 1 and v + m <= {}", text, kMaxTriangleFixedBits));
  return p;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void run_collide(const CollideArgs& args) {
  std::vector<Pose> poses;
  if (!args.poses_file.empty()) poses = load_poses(args.poses_file);
  if (!args.pose_text.empty()) poses.push_back(parse_pose(args.pose_text, "--pose"));
  if (poses.empty()) throw InputError("give --poses FILE or --pose \"qw qx qy qz tx ty tz\"");
  TraversalOptions options;
  options.axes = args.axes;
  options.rule = parse_descent_rule(args.rule);
  const SatBackend backend = parse_sat_backend(args.backend);
  const FixedParams fixed = parse_fixed_params(args.bits);
  const TriangleFixedParams tri = parse_tri_bits(args.tri_bits);

  const Mesh first = load_mesh(args.first);
  const Mesh second = load_mesh(args.second);
  const auto t_build = std::chrono::steady_clock::now();
  const DopTree first_tree(first, args.k);
  const DopTree second_tree(second, args.k);
  const double build_seconds = seconds_since(t_build);
  fmt::print("first  {}: {} triangles, tree depth {}\n", args.first, first.triangle_count(), first_tree.max_depth());
  fmt::print("second {}: {} triangles, tree depth {}\n", args.second, second.triangle_count(), second_tree.max_depth());
  fmt::print("k = {}, axes per pair = {}, rule = {}, backend = {}{}, tree build {:.3f} ms (once)\n", args.k,
             args.axes <= 0 ? args.k : std::min(args.axes, args.k), to_string(options.rule), to_string(backend),
             backend == SatBackend::Fixed
                 ? fmt::format(" (b,c,z = {},{},{}; triangle unit v,m = {},{})", fixed.b, fixed.c, fixed.z, tri.v, tri.m)
                 : "",
             build_seconds * 1e3);
  if (backend == SatBackend::Fixed)
    for (const std::string& w : fixed_precision(first_tree, second_tree, fixed, tri).warnings)
      fmt::print(stderr, "warning: {}\n", w);

  std::vector<PoseOutcome> outcomes;
  print_table_header();
  bool all_equal = true;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    PoseOutcome outcome{collide(first_tree, second_tree, poses[i], options, backend, fixed, tri), 0};
    outcome.seconds = seconds_since(t0);
    print_table_row(i, outcome);
    if (args.check) {
      const auto brute = brute_force_contacts(first, second, poses[i]);
      const bool equal = brute == outcome.result.contacts;
      all_equal &= equal;
      fmt::print("      brute force: {} contacts, {}\n", brute.size(), equal ? "equal" : "DIFFERENT");
    }
    outcomes.push_back(std::move(outcome));
  }
  if (!args.pairs_path.empty()) write_pairs_file(args.pairs_path, outcomes);
  if (!args.json_path.empty()) {
    nlohmann::json report = {{"first", args.first}, {"second", args.second}, {"k", args.k},
                             {"axes", args.axes <= 0 ? args.k : std::min(args.axes, args.k)},
                             {"rule", to_string(options.rule)}, {"backend", to_string(backend)},
                             {"bits", {fixed.b, fixed.c, fixed.z}}, {"tri_bits", {tri.v, tri.m}},
                             {"build_seconds", build_seconds}, {"poses", nlohmann::json::array()}};
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      nlohmann::json row = stats_json(outcomes[i].result.stats);
      row["index"] = i;
      row["seconds"] = outcomes[i].seconds;
      report["poses"].push_back(row);
    }
    write_json_file(args.json_path, report);
  }
  if (!all_equal) throw std::runtime_error("contact set differs from brute force");
}

}  // namespace

namespace {
void add_collide_command(CLI::App& app) {
  auto args = std::make_shared<CollideArgs>();
  CLI::App* cmd = app.add_subcommand("collide", "all intersecting triangle pairs of two meshes at given poses");
  cmd->add_option("FIRST", args->first, "first mesh (stays at the origin): OFF, OBJ, STL or PLY")->required();
  cmd->add_option("SECOND", args->second, "second mesh, placed by each pose: x = R(q) x + t")->required();
  auto* poses = cmd->add_option("--poses", args->poses_file, "pose file: one 'qw qx qy qz tx ty tz' per line, # comments");
  auto* pose = cmd->add_option("--pose", args->pose_text, "one pose \"qw qx qy qz tx ty tz\"");
  poses->excludes(pose);
  cmd->add_option("--k", args->k, "k of the k-DOPs")->check(CLI::IsMember({6, 14, 18, 24, 26}))->capture_default_str();
  cmd->add_option("--axes", args->axes, "axes n tested per DOP pair (0 = all k)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--rule", args->rule, "descent rule: shallower, first, second")->capture_default_str();
  cmd->add_option("--backend", args->backend, "SAT arithmetic: float, fixed, exact")->capture_default_str();
  cmd->add_option("--bits", args->bits, "fixed backend: fractional bits b,c,z (or one n for all three)")
      ->capture_default_str();
  cmd->add_option("--tri-bits", args->tri_bits, "fixed backend: triangle unit's fractional bits v,m (or one n)")
      ->capture_default_str();
  cmd->add_option("--pairs", args->pairs_path, "write the contact pairs of every pose to this file");
  cmd->add_option("--json", args->json_path, "write a JSON report to this file");
  cmd->add_flag("--check", args->check, "also compute brute force (all triangle pairs) and compare");
  cmd->callback([args] { run_collide(*args); });
}

const CommandRegistration registration(20, add_collide_command);
}  // namespace

}  // namespace kdopcd::cli
