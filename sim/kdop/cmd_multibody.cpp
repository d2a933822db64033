// kdop multibody SCENE.json --backend cuda|host [--pairs PATH] [options]   (docs/cuda.md)
#if defined(KDOPCD_WITH_CUDA)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <ctime>
#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd_cuda/multibody.hpp"
#include "kdopcd_cuda/reference.hpp"
#include "query_report.hpp"

namespace kdopcd::cli {
namespace {

struct MultibodyArgs {
  std::string scene, backend = "host", pairs_path, json_path, broad, traversal = "binary";
  std::string rule = "shallower", sat = "float", bits = "18,18,18";
  int k = 24;
  int axes = 0;
  int threads = 0;
  std::uint64_t capacity = 0;
  std::optional<std::uint64_t> split;
  int frames = 0;
  double dt = 1.0 / 60;
  std::uint64_t seed = 1;
  bool check = false;
};

const auto ms = [](double s) { return s * 1e3; };

void print_run(const cuda::MultibodyResult& r, const cuda::MultibodyOptions& o) {
  std::size_t touching = 0;
  for (const auto& p : r.pairs) touching += p.contacts.empty() ? 0 : 1;
  fmt::print("  boxes           {:10.3f} ms\n", ms(r.times.boxes));
  fmt::print("  broad phase     {:10.3f} ms  {} candidate object pairs\n", ms(r.times.broad), r.broad_pairs.size());
  fmt::print("  host set-up     {:10.3f} ms  (relative poses; the SAT axes are made in the narrow phase)\n",
             ms(r.times.setup));
  fmt::print("  narrow phase    {:10.3f} ms  {} DOP pair tests, {} candidate triangle pairs, {} run(s), "
             "buffer {}, {} per-thread traversals; CPU {:.3f} ms\n",
             ms(r.times.narrow), r.pair_tests, r.candidates, r.launches, r.final_capacity, r.units,
             ms(r.times.narrow_cpu));
  if (o.backend == cuda::Backend::Cuda)
    fmt::print("    upload {:.3f} ms, axis set-up {:.3f} ms, traversal and triangles {:.3f} ms, download {:.3f} ms\n",
               ms(r.times.device_upload), ms(r.times.device_setup), ms(r.times.device_kernels),
               ms(r.times.device_download));
  fmt::print("  traversal       {} node records loaded, {} restarts, {} bytes pending at most per thread "
             "({} reserved)\n",
             r.node_visits, r.restarts, r.peak_pending_bytes, cuda::reserved_pending_bytes(o.traversal));
  fmt::print("  exact fallback  {:10.3f} ms  {} of {} triangle tests left undecided by the filters; {} contacts in {} "
             "object pairs\n",
             ms(r.times.exact), r.exact_fallbacks, r.candidates, r.contacts, touching);
  fmt::print("  total           {:10.3f} ms\n", ms(r.times.total));
}

// Every broad-phase pair against the reference query at the same relative pose; returns the
// number of pairs that differ.
std::size_t check_run(const cuda::MultibodyWorld& world, const cuda::MultibodyResult& r,
                      const cuda::MultibodyOptions& o) {
  // Every broad-phase pair against the reference query at the same relative pose, with the
  // engine's arithmetic (reference_pair_query: the run's SAT and the exact triangle test).
  std::size_t differ = 0;
  double ref_seconds = 0;
  const std::clock_t ref_cpu0 = std::clock();
  for (const auto& p : r.pairs) {
    const auto t0 = std::chrono::steady_clock::now();
    const QueryResult ref = cuda::reference_pair_query(world, p.first_object, p.second_object, o);
    ref_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // The leaf algorithm tests other DOP pairs than the reference's order: its contacts and
    // overlapping leaf pairs must still be the reference's.
    const bool same_visits = !cuda::visits_reference_pairs(o.traversal) ||
                             (ref.stats.pair_tests == p.stats.pair_tests && ref.stats.axis_tests == p.stats.axis_tests);
    const bool same = ref.contacts == p.contacts && same_visits && ref.stats.leaf_pairs == p.stats.leaf_pairs;
    if (!same && differ++ < 10) {
      // Which part differs: equal-sized contact sets may still hold other pairs.
      std::size_t common = 0;
      for (const ContactPair& c : p.contacts) common += std::binary_search(ref.contacts.begin(), ref.contacts.end(), c);
      fmt::print("  pair {} {}: reference {} contacts / {} pair / {} axis / {} leaf tests, this run {} ({} of them "
                 "the reference's) / {} / {} / {}\n",
                 p.first_object, p.second_object, ref.contacts.size(), ref.stats.pair_tests, ref.stats.axis_tests,
                 ref.stats.leaf_pairs, p.contacts.size(), common, p.stats.pair_tests, p.stats.axis_tests,
                 p.stats.leaf_pairs);
    }
  }
  const double ref_cpu = double(std::clock() - ref_cpu0) / CLOCKS_PER_SEC;
  fmt::print("  check: {} object pairs against kdopcd::collide: {} (reference queries {:.3f} ms wall, "
             "{:.3f} ms CPU, 1 thread)\n",
             r.pairs.size(),
             differ != 0                                   ? fmt::format("{} DIFFERENT", differ)
             : cuda::visits_reference_pairs(o.traversal) ? "contacts and pair/axis/leaf counts equal"
                                                           : "contacts and leaf counts equal (other pair tests)",
             ref_seconds * 1e3, ref_cpu * 1e3);
  return differ;
}

nlohmann::json run_json(const cuda::MultibodyResult& r) {
  std::size_t touching = 0;
  for (const auto& p : r.pairs) touching += p.contacts.empty() ? 0 : 1;
  return {{"broad_pairs", r.broad_pairs.size()},
          {"pair_tests", r.pair_tests},
          {"node_visits", r.node_visits},
          {"restarts", r.restarts},
          {"peak_pending_bytes", r.peak_pending_bytes},
          {"candidates", r.candidates},
          {"contacts", r.contacts},
          {"touching_pairs", touching},
          {"launches", r.launches},
          {"units", r.units},
          {"exact_fallbacks", r.exact_fallbacks},
          {"seconds",
           {{"boxes", r.times.boxes},
            {"broad", r.times.broad},
            {"setup", r.times.setup},
            {"narrow", r.times.narrow},
            {"narrow_cpu", r.times.narrow_cpu},
            {"total_cpu", r.times.total_cpu},
            {"upload", r.times.device_upload},
            {"axis_setup", r.times.device_setup},
            {"kernels", r.times.device_kernels},
            {"download", r.times.device_download},
            {"exact", r.times.exact},
            {"total", r.times.total}}}};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void run_multibody(const MultibodyArgs& args) {
  cuda::MultibodyOptions o;
  o.backend = cuda::parse_backend(args.backend);
  if (!args.broad.empty()) o.broad = cuda::parse_broad_phase(args.broad);
  o.traversal = cuda::parse_traversal(args.traversal);
  o.axes = args.axes;
  o.rule = parse_descent_rule(args.rule);
  o.sat = parse_sat_backend(args.sat);
  if (o.sat == SatBackend::Exact) throw InputError("--sat: float or fixed (exact is the reference's alone)");
  o.fixed = parse_bits_option(args.bits);
  o.threads = args.threads;
  o.initial_capacity = args.capacity;
  o.split = args.split;
  cuda::validate(o);  // traversal and rule together, before the scene is loaded

  const auto t_load = std::chrono::steady_clock::now();
  cuda::Scene scene = cuda::load_scene(args.scene);
  std::vector<std::string> inputs{args.scene};
  for (const cuda::SceneObject& object : scene.objects) inputs.push_back(object.mesh);
  check_outputs({{"--pairs", args.pairs_path}, {"--json", args.json_path}}, inputs);
  cuda::MultibodyWorld world(scene, args.k);
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_load).count();
  std::size_t triangles = 0;
  for (std::size_t i = 0; i < world.object_count(); ++i) triangles += world.mesh_of(i).triangle_count();
  fmt::print("scene {}: {} objects, {} meshes, {} triangles; k = {}; meshes + trees {:.1f} ms (once)\n", args.scene,
             world.object_count(), world.mesh_count(), triangles, args.k, load_s * 1e3);
  fmt::print("backend {}, traversal {}, SAT {}{}, rule {}, axes {}\n", cuda::to_string(o.backend),
             cuda::to_string(o.traversal), to_string(o.sat),
             o.sat == SatBackend::Fixed ? fmt::format(" (b,c,z = {},{},{})", o.fixed.b, o.fixed.c, o.fixed.z) : "",
             to_string(o.rule), o.axes <= 0 ? args.k : std::min(o.axes, args.k));

  nlohmann::json report = {{"scene", args.scene},
                           {"objects", world.object_count()},
                           {"backend", cuda::to_string(o.backend)},
                           {"traversal", cuda::to_string(o.traversal)},
                           {"sat", to_string(o.sat)},
                           {"rule", to_string(o.rule)},
                           {"k", args.k},
                           {"threads", o.threads}};
  std::size_t differ = 0;
  if (args.frames == 0) {
    const cuda::MultibodyResult r = world.run(o);
    fmt::print("broad phase {}\n", cuda::to_string(r.broad_used));
    print_run(r, o);
    if (!args.pairs_path.empty()) write_whole_file(args.pairs_path, cuda::format_pairs(r));
    if (args.check) differ = check_run(world, r, o);
    report["broad_phase"] = cuda::to_string(r.broad_used);
    report.update(run_json(r));
  } else {
    // Frames: every object moves at its constant velocity and spin (the scene's, or generated for
    // a scene without any: a quarter of its mesh's box diagonal and half a radian per second).
    bool any_motion = false;
    for (const auto& obj : scene.objects) any_motion |= !obj.velocity.isZero(0.0) || !obj.spin.isZero(0.0);
    if (!any_motion) {
      const Mesh& mesh = world.mesh_of(0);
      Vec3 lo = mesh.vertices.front(), hi = lo;
      for (const Vec3& v : mesh.vertices) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
      }
      cuda::generate_motions(scene, 0.25 * (hi - lo).norm(), 0.5, args.seed);
      fmt::print("motion: generated (seed {}): {:.4g} units/s, 0.5 rad/s per object\n", args.seed, 0.25 * (hi - lo).norm());
    }
    std::vector<Pose> start;
    for (const auto& obj : scene.objects) start.push_back(obj.pose);
    fmt::print("{:>6} {:>8} {:>12} {:>10} {:>10} {:>10} {:>10}\n", "frame", "pairs", "pair_tests", "contacts", "total_ms",
               "narrow_ms", "setup_ms");
    std::vector<double> totals, narrows;
    report["dt"] = args.dt;
    report["frames"] = nlohmann::json::array();
    for (int f = 0; f < args.frames; ++f) {
      std::vector<Pose> poses(start.size());
      for (std::size_t i = 0; i < start.size(); ++i)
        poses[i] = cuda::pose_at(start[i], world.tree_of(i).centre(), scene.objects[i].velocity, scene.objects[i].spin,
                                 f * args.dt);
      world.set_poses(std::move(poses));
      const cuda::MultibodyResult r = world.run(o);
      fmt::print("{:>6} {:>8} {:>12} {:>10} {:>10.3f} {:>10.3f} {:>10.3f}\n", f, r.broad_pairs.size(), r.pair_tests,
                 r.contacts, ms(r.times.total), ms(r.times.narrow), ms(r.times.setup));
      if (f > 0) {  // the first frame also uploads the resident trees
        totals.push_back(r.times.total);
        narrows.push_back(r.times.narrow);
      }
      if (args.check) differ += check_run(world, r, o);
      if (!args.pairs_path.empty() && f + 1 == args.frames) write_whole_file(args.pairs_path, cuda::format_pairs(r));
      report["frames"].push_back(run_json(r));
    }
    if (!totals.empty())
      fmt::print("frames 1..{}: median {:.3f} ms per frame (narrow phase {:.3f} ms)\n", args.frames - 1,
                 ms(median(totals)), ms(median(narrows)));
  }
  if (!args.json_path.empty()) write_json_file(args.json_path, report);
  if (differ != 0) throw CheckFailed("contact sets differ from kdopcd::collide");
}

void add_multibody_command(CLI::App& app) {
  auto args = std::make_shared<MultibodyArgs>();
  CLI::App* cmd = app.add_subcommand(
      "multibody", "all contacts of a scene of rigid objects: broad phase, tandem tree traversal (GPU or CPU threads)");
  cmd->add_option("SCENE", args->scene, "scene JSON: {\"objects\":[{\"mesh\",\"rotation\":[qw,qx,qy,qz],\"translation\"}]}")
      ->required();
  cmd->add_option("--backend", args->backend, "cuda (GPU) or host (TBB threads)")
      ->capture_default_str();
  cmd->add_option("--pairs", args->pairs_path, "write 'pair <a> <b> <count>' + '<tri_a> <tri_b>' lines for pairs with contacts");
  cmd->add_option("--json", args->json_path, "write a JSON report (counts, per-phase seconds)");
  cmd->add_option("--broad", args->broad, "broad phase: grid (GPU default) or sweep (host default)");
  cmd->add_option("--traversal", args->traversal,
                  "binary (binary stack), explicit (stack of node pairs), dynamic (volume rule, growing stack), "
                  "predictable (alternately stepping stack), leaf (leaf algorithm), stackless, post-indexed "
                  "(alternately stepping without a stack)")
      ->capture_default_str();
  cmd->add_option("--k", args->k, "k of the k-DOPs")->check(k_values())->capture_default_str();
  cmd->add_option("--axes", args->axes, "axes n tested per DOP pair (0 = all k; more than k means k)")
      ->check(CLI::Range(0, 26));
  cmd->add_option("--rule", args->rule, "descent rule: shallower, first, second")->capture_default_str();
  cmd->add_option("--sat", args->sat, "SAT arithmetic: float or fixed")->capture_default_str();
  cmd->add_option("--bits", args->bits, "fixed SAT: fractional bits b,c,z (or one n), each 4..44")->capture_default_str();
  cmd->add_option("--threads", args->threads, "CPU threads of the host phases (0 = all)")
      ->check(CLI::Range(0, cuda::kMaxThreads))
      ->capture_default_str();
  cmd->add_option("--capacity", args->capacity,
                  "initial candidate buffer (0 = automatic: 256 per object pair, at least 65536; a second run gets the counted size)")
      ->check(CLI::Range(std::uint64_t(0), cuda::kMaxInitialCapacity))
      ->capture_default_str();
  cmd->add_option("--split", args->split,
                  "front width at which the breadth-first phase hands its node pairs to per-thread traversals "
                  "(0 = one traversal per object pair; default 256 per host thread, on the GPU 256 per object pair "
                  "rounded up to a power of two within 2^22..2^26)")
      ->check(CLI::Range(std::uint64_t(0), cuda::kMaxSplit));
  cmd->add_option("--frames", args->frames,
                  "simulate this many frames: objects move by the scene's velocity and spin (generated if it has "
                  "none), trees stay resident; per-frame times")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--dt", args->dt, "seconds per frame")->check(CLI::Range(1e-6, 10.0))->capture_default_str();
  cmd->add_option("--seed", args->seed, "seed of generated motions")->capture_default_str();
  cmd->add_flag("--check", args->check,
                "compare every object pair with kdopcd::collide (contacts and counts; every frame with --frames)");
  cmd->callback([args] { run_multibody(*args); });
}

const CommandRegistration registration(60, add_multibody_command);

}  // namespace
}  // namespace kdopcd::cli
#endif  // KDOPCD_WITH_CUDA
