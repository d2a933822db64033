// kdop collide FIRST SECOND (--poses FILE | --pose "qw qx qy qz tx ty tz") [options]
#include <fmt/format.h>

#include <charconv>
#include <algorithm>
#include <chrono>
#include <iterator>
#include <optional>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/fixed_precision.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "query_report.hpp"

#if defined(KDOPCD_WITH_CUDA)
#include "kdopcd_cuda/narrow_runner.hpp"
#endif

namespace kdopcd::cli {
namespace {

struct CollideArgs {
  std::string first, second, poses_file, pose_text, pairs_path, json_path;
  int k = 24;
  int axes = 0;
  std::string rule;   // empty: the default of the query (default_rule)
  std::string build;  // empty: the default of the query (default_build)
  std::string backend = "float";
  std::string bits = "18,18,18";
  std::string tri_bits = "24,24";
  std::string device = "reference";
  bool check = false;
  bool no_leaf_planes = false;
  bool binary_descent = false;
};



double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

#if defined(KDOPCD_WITH_CUDA)
// The queries on the GPU's narrow phase (--device cuda), or on the same code on CPU threads
// (--device host), the trees resident: one call per pose (its latency, as the reference's rows),
// then all poses in one call (the batch). The triangle test is the exact one, also with the fixed SAT.
std::vector<PoseOutcome> device_queries(const DopTree& first, const DopTree& second, const std::vector<Pose>& poses,
                                        const TraversalOptions& traversal, SatBackend backend, const FixedParams& fixed,
                                        const std::string& device) {
  cuda::NarrowOptions o;
  o.backend = device == "cuda" ? cuda::Backend::Cuda : cuda::Backend::Host;
  o.axes = traversal.axes;
  o.rule = traversal.rule;
  o.sat = backend;
  o.fixed = fixed;
  const cuda::NarrowRunner runner({&first, &second});
  // One untimed call first: it uploads the trees (resident from then on) and, on the GPU, creates
  // the context; every timed call after it is a query as a simulation would make it.
  runner.run({cuda::TaskSpec{0, 1, poses.front()}}, o);
  std::vector<PoseOutcome> outcomes;
  std::vector<cuda::TaskSpec> batch;
  for (const Pose& pose : poses) {
    const cuda::TaskSpec task{0, 1, pose};
    batch.push_back(task);
    const auto t0 = std::chrono::steady_clock::now();
    cuda::NarrowRun run = runner.run({task}, o);
    PoseOutcome outcome;
    outcome.seconds = seconds_since(t0);
    TraversalStats& s = outcome.result.stats;
    s.pair_tests = run.counters[0].pair_tests;
    s.axis_tests = run.counters[0].axis_tests;
    s.leaf_pairs = s.triangle_tests = run.counters[0].leaf_pairs;
    outcome.result.contacts = std::move(run.contacts[0]);
    s.contacts = outcome.result.contacts.size();
    outcomes.push_back(std::move(outcome));
  }
  const auto t0 = std::chrono::steady_clock::now();
  const cuda::NarrowRun all = runner.run(batch, o);
  const double seconds = seconds_since(t0);
  fmt::print("device {}: all {} poses in one call {:.3f} ms (set-up {:.3f}, narrow {:.3f} [upload {:.3f}, axis set-up "
             "{:.3f}, compute {:.3f}, download {:.3f}], exact fallback {:.3f} for {} of {} triangle tests)\n",
             device, poses.size(), seconds * 1e3, all.setup * 1e3, all.narrow * 1e3, all.device_upload * 1e3,
             all.device_setup * 1e3, all.device_kernels * 1e3, all.device_download * 1e3, all.exact * 1e3, all.exact_fallbacks, all.candidates);
  for (std::size_t i = 0; i < poses.size(); ++i)
    if (all.contacts[i] != outcomes[i].result.contacts || all.counters[i].pair_tests != outcomes[i].result.stats.pair_tests)
      throw std::logic_error(fmt::format("device {}: pose {} answered differently alone and in the batch", device, i));
  return outcomes;
}
#endif

// --check with --backend fixed: the triangle unit decides on quantized vertices, so its contact set
// may legitimately differ from brute force (exact test on the doubles) in pairs whose triangles are
// within delta of touching (docs/triangle-unit.md §4). A differing pair is explained when the
// fixed unit's own verdict on it is what the query reported (so the SAT culled nothing it should
// not have) and its double-precision distance is at most delta.
struct FixedCheck {
  std::size_t differing = 0, unexplained = 0;
  double delta = 0, max_distance = 0;
};

FixedCheck check_fixed_difference(const DopTree& first_tree, const DopTree& second_tree, const Pose& pose,
                                  const TriangleFixedParams& params, const std::vector<ContactPair>& brute,
                                  const std::vector<ContactPair>& fixed) {
  std::vector<ContactPair> differ;
  std::set_symmetric_difference(brute.begin(), brute.end(), fixed.begin(), fixed.end(), std::back_inserter(differ));
  FixedCheck c;
  c.differing = differ.size();
  if (differ.empty()) return c;
  const Mesh& first = first_tree.mesh();
  const Mesh& second = second_tree.mesh();
  const double s = scene_scale(first_tree, second_tree);
  c.delta = triangle_delta(s, params);
  // The unit's own verdict, in the centred frames the fixed backend uses (docs/fixed-point.md §2).
  const QuantizedPose qpose = quantize_pose(centred_pose(first_tree, second_tree, pose), s, params);
  const std::vector<FixedVertex> first_q = quantize_vertices(first, first_tree.centre(), s, params.v);
  const std::vector<FixedVertex> second_q = quantize_vertices(second, second_tree.centre(), s, params.v);
  auto unit_verdict = [&](const ContactPair& p) {
    FixedTriangle a, b;
    for (int k = 0; k < 3; ++k) {
      a.v[std::size_t(k)] = lift_first_vertex(first_q[first.triangles[p.first][k]], params.m);
      b.v[std::size_t(k)] = place_fixed_vertex(qpose, second_q[second.triangles[p.second][k]]);
    }
    return fixed_triangles_intersect(a, b);
  };
  const std::vector<Vec3> placed = place_vertices(second, pose);
  for (const ContactPair& p : differ) {
    const bool reported = std::binary_search(fixed.begin(), fixed.end(), p);
    const bool unit = unit_verdict(p);
    const auto& t = second.triangles[p.second];
    const double d = triangle_distance(first.corner(p.first, 0), first.corner(p.first, 1), first.corner(p.first, 2),
                                       placed[t[0]], placed[t[1]], placed[t[2]]);
    c.max_distance = std::max(c.max_distance, d);
    if (unit != reported || !(d <= c.delta)) ++c.unexplained;
  }
  return c;
}

// The software query (float or exact SAT on the reference) defaults to its fastest exact
// configuration, the SAH tree and the larger-node rule (TraversalOptions, DopTree); the fixed
// backend and the device paths reproduce the accelerator and the GPU, and default to their tree
// and rule (kHardwareTreeBuild, kHardwareDescentRule), the only rules the hardware implements.
bool hardware_defaults(SatBackend backend, bool on_device) { return on_device || backend == SatBackend::Fixed; }

void run_collide(const CollideArgs& args, bool bits_given, bool tri_bits_given) {
  check_outputs({{"--pairs", args.pairs_path}, {"--json", args.json_path}}, {args.first, args.second, args.poses_file});
  const SatBackend backend = parse_sat_backend(args.backend);
  const bool hardware = hardware_defaults(backend, args.device != "reference");
  TraversalOptions options;
  options.axes = args.axes;
  if (!args.rule.empty())  // the device paths implement the hardware's rules only
    options.rule = args.device != "reference" ? parse_descent_rule(args.rule) : parse_query_descent_rule(args.rule);
  else if (hardware)
    options.rule = kHardwareDescentRule;
  // The leaf-plane axis belongs to the float backend of the reference; elsewhere it would be ignored.
  if (args.no_leaf_planes && (backend != SatBackend::Float || args.device != "reference"))
    throw InputError("--no-leaf-planes: the leaf-plane axis is the reference's float backend's (got --backend " +
                     std::string(to_string(backend)) + ", --device " + args.device + ")");
  options.leaf_planes = !args.no_leaf_planes;
  // So does the wide descent, which the larger rule on one thread takes.
  if (args.binary_descent && (backend != SatBackend::Float || args.device != "reference"))
    throw InputError("--binary-descent: the wide descent is the reference's float backend's (got --backend " +
                     std::string(to_string(backend)) + ", --device " + args.device + ")");
  options.wide = !args.binary_descent;
  const TreeBuild build = !args.build.empty() ? parse_tree_build(args.build)
                          : hardware          ? kHardwareTreeBuild
                                              : TreeBuild::Sah;
  // The fixed-point widths belong to the fixed backend; the others would ignore them.
  if (backend != SatBackend::Fixed && (bits_given || tri_bits_given))
    throw InputError(fmt::format("{} sets the fixed-point arithmetic: it needs --backend fixed (got --backend {})",
                                 bits_given ? "--bits" : "--tri-bits", to_string(backend)));
  const FixedParams fixed = parse_bits_option(args.bits);
  const TriangleFixedParams tri = parse_tri_bits(args.tri_bits);
  const bool on_device = args.device != "reference";
#if defined(KDOPCD_WITH_CUDA)
  if (on_device && backend == SatBackend::Exact)
    throw InputError("--device " + args.device + ": the SAT backend must be float or fixed");
#else
  if (on_device) throw InputError("--device " + args.device + ": this kdop was built without the CUDA part");
#endif
  // The fixed backend of the reference decides triangle pairs with the fixed-point triangle unit;
  // the device path (and every other backend) with the exact test on the doubles.
  const bool triangle_unit = backend == SatBackend::Fixed && !on_device;
  if (tri_bits_given && !triangle_unit)
    throw InputError("--tri-bits sets the fixed-point triangle unit, which --device " + args.device +
                     " does not use (it decides triangles with the exact test)");
  PoseStream poses(args.poses_file, args.pose_text);

  const Mesh first = load_mesh(args.first);
  const Mesh second = load_mesh(args.second);
  const auto t_build = std::chrono::steady_clock::now();
  const DopTree first_tree(first, args.k, build);
  const DopTree second_tree(second, args.k, build);
  const double build_seconds = seconds_since(t_build);
  fmt::print("first  {}: {} triangles, tree depth {}\n", args.first, first.triangle_count(), first_tree.max_depth());
  fmt::print("second {}: {} triangles, tree depth {}\n", args.second, second.triangle_count(), second_tree.max_depth());
  fmt::print("k = {}, axes per pair = {}, rule = {}, build = {}, backend = {}{}, tree build {:.3f} ms (once)\n", args.k,
             collide_axes_per_pair(options, args.k, backend), to_string(options.rule), to_string(build),
             to_string(backend),
             backend == SatBackend::Fixed
                 ? fmt::format(" (b,c,z = {},{},{}; triangle unit v,m = {},{})", fixed.b, fixed.c, fixed.z, tri.v, tri.m)
                 : "",
             build_seconds * 1e3);
  if (backend == SatBackend::Fixed)
    for (const std::string& w : fixed_precision(first_tree, second_tree, fixed, tri).warnings)
      fmt::print(stderr, "warning: {}\n", w);

  // The device answers all poses in one batch call as well (device_queries): it takes them all at
  // once; the reference streams them.
  std::vector<Pose> device_poses;
  std::vector<PoseOutcome> device_outcomes;
#if defined(KDOPCD_WITH_CUDA)
  if (on_device) {
    for (Pose p; poses.next(p);) device_poses.push_back(p);
    device_outcomes = device_queries(first_tree, second_tree, device_poses, options, backend, fixed, args.device);
  }
#endif
  PairsWriter pairs(args.pairs_path);
  JsonReportWriter json(args.json_path,
                        {{"first", args.first}, {"second", args.second}, {"device", args.device}, {"k", args.k},
                         {"axes", args.axes <= 0 ? args.k : std::min(args.axes, args.k)},
                         {"rule", to_string(options.rule)}, {"build", to_string(build)},
                         {"backend", to_string(backend)},
                         {"bits", {fixed.b, fixed.c, fixed.z}}, {"tri_bits", {tri.v, tri.m}},
                         {"build_seconds", build_seconds}});
  print_table_header();
  bool all_equal = true;
  std::size_t within_delta = 0;
  Pose pose;
  for (std::size_t i = 0; on_device ? i < device_poses.size() : poses.next(pose); ++i) {
    PoseOutcome outcome;
    if (on_device) {
      pose = device_poses[i];
      outcome = std::move(device_outcomes[i]);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      outcome.result = collide(first_tree, second_tree, pose, options, backend, fixed, tri);
      outcome.seconds = seconds_since(t0);
    }
    print_table_row(i, outcome, !on_device);
    if (args.check) {
      const auto brute = brute_force_contacts(first, second, pose);
      const bool equal = brute == outcome.result.contacts;
      if (equal) {
        fmt::print("      brute force: {} contacts, equal\n", brute.size());
      } else if (triangle_unit) {
        const FixedCheck c = check_fixed_difference(first_tree, second_tree, pose, tri, brute, outcome.result.contacts);
        all_equal &= c.unexplained == 0;
        within_delta += c.unexplained == 0;
        fmt::print("      brute force: {} contacts; {} pair(s) differ, {} (largest triangle distance {:.3g}, delta "
                   "{:.3g})\n",
                   brute.size(), c.differing,
                   c.unexplained == 0 ? "all within delta of touching: the fixed triangle unit's documented "
                                        "tolerance (docs/triangle-unit.md)"
                                      : fmt::format("{} NOT explained by the triangle unit's tolerance", c.unexplained),
                   c.max_distance, c.delta);
      } else {
        all_equal = false;
        fmt::print("      brute force: {} contacts, DIFFERENT\n", brute.size());
      }
    }
    pairs.add(i, outcome.result.contacts);
    nlohmann::json row = stats_json(outcome.result.stats);
    row["index"] = i;
    row["seconds"] = outcome.seconds;
    json.add_pose(row);
  }
  pairs.close();
  json.close();
  if (within_delta > 0)
    fmt::print("check: {} pose(s) differ from brute force only within the fixed triangle unit's delta\n", within_delta);
  if (!all_equal) throw CheckFailed("the contact set differs from brute force (see the lines marked DIFFERENT / NOT explained)");
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
  cmd->add_option("--k", args->k, "k of the k-DOPs")->check(k_values())->capture_default_str();
  cmd->add_option("--axes", args->axes, "axes n tested per DOP pair (0 = all k; more than k means k)")
      ->check(CLI::Range(0, 26));
  cmd->add_option("--rule", args->rule,
                  "descent rule: larger, shallower, first, second (default: larger; with --backend fixed or "
                  "--device host|cuda shallower, the hardware's; the devices take no larger)");
  cmd->add_option("--build", args->build,
                  "tree build: sah or median (default: sah; with --backend fixed or --device host|cuda median, "
                  "the hardware's balanced tree)");
  cmd->add_flag("--no-leaf-planes", args->no_leaf_planes,
               "float backend: test the k axes alone, without the leaf-plane axis (as the accelerator and the GPU "
               "do: their counters, pair for pair)");
  cmd->add_flag("--binary-descent", args->binary_descent,
               "float backend, larger rule: descend the binary tree pair by pair instead of testing a split node's "
               "(up to) four wide children at once (the same contacts; the counters of the binary traversals)");
  cmd->add_option("--backend", args->backend, "SAT arithmetic: float, fixed, exact")->capture_default_str();
  cmd->add_option("--bits", args->bits, "fixed backend: fractional bits b,c,z (or one n for all three), each 4..44")
      ->capture_default_str();
  cmd->add_option("--tri-bits", args->tri_bits, "fixed backend: triangle unit's fractional bits v,m (or one n)")
      ->capture_default_str();
  cmd->add_option("--pairs", args->pairs_path, "write the contact pairs of every pose to this file");
  cmd->add_option("--json", args->json_path, "write a JSON report to this file");
  cmd->add_option("--device", args->device,
                  "where the query runs: reference (kdopcd::collide), cuda (the GPU's narrow phase), host (the GPU's "
                  "code on CPU threads); cuda and host decide triangles with the exact test")
      ->check(CLI::IsMember({"reference", "host", "cuda"}))
      ->capture_default_str();
  cmd->add_flag("--check", args->check, "also compute brute force (all triangle pairs) and compare");
  const CLI::Option* bits = cmd->get_option("--bits");
  const CLI::Option* tri_bits = cmd->get_option("--tri-bits");
  cmd->callback([args, bits, tri_bits] { run_collide(*args, bits->count() > 0, tri_bits->count() > 0); });
}

const CommandRegistration registration(20, add_collide_command);
}  // namespace

}  // namespace kdopcd::cli
