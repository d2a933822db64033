// compare_backends: the three-way comparison of docs/comparison.md, in one run on one machine. The
// same workloads on
//   (a) the reference, kdopcd::collide, on one thread and on all threads;
//   (b) the GPU (--gpu: the narrow phase's kernels, trees resident), beside the same pipeline on
//       this machine's threads (the host backend);
//   (c) the accelerator's SystemC model v2 at its clock (--model): START-to-DONE cycles, and end
//       to end through the command queue of a PCIe Gen3 x16 card (the host's set-up, descriptor
//       DMA, contacts written back); for scenes of many objects, the object pairs through the
//       queue on E engines sharing the tree RAMs, E the largest whose DSPs and RAMs fit an Alveo
//       U55C by the model's resource estimate.
// Workloads: the benchmark scenes' single pairs in the four pose classes (the pose search of
// accel_bench), and multibody scenes of generated cows and of a large mesh. Every backend's
// contacts and counters are checked against the reference (the model's against the reference's
// fixed backend); a difference fails the run (exit 1).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "accel_host.hpp"
#include "bench_timing.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd_cuda/multibody.hpp"
#include "kdopcd_model/model.hpp"
#include "kdopcd_model/resources.hpp"

using namespace kdopcd;
using nlohmann::json;

namespace {

using bench::thread_cpu_seconds;
using bench::time_call;
using bench::wall_seconds;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Three significant digits below 10, one decimal above.
std::string sig(double x) { return x >= 10 ? fmt::format("{:.1f}", x) : fmt::format("{:.3g}", x); }
std::string us(double seconds) { return seconds > 0 ? sig(seconds * 1e6) : "–"; }
std::string ms(double seconds) { return seconds > 0 ? sig(seconds * 1e3) : "–"; }
std::string ratio(double a, double b) { return a > 0 && b > 0 ? sig(a / b) + "x" : "–"; }

bool same_counts(const std::vector<ContactPair>& contacts, const cuda::TaskCounters& c, const QueryResult& ref) {
  return contacts == ref.contacts && c.pair_tests == ref.stats.pair_tests && c.axis_tests == ref.stats.axis_tests &&
         c.leaf_pairs == ref.stats.leaf_pairs;
}

struct Options {
  std::string meshes = "data/meshes";
  bool gpu = false, model = false;
  int threads = 0;  // 0 = every core
  double batch_ms = 20;
  int batches = 5;
  int runs = 3;
  std::vector<std::string> pairs{"cow:cow", "elephant:hand", "mushroom:couplingdown", "bunny00:turbine",
                                 "armadillo:ChineseDragon-10kv"};
  // Meshes queried against themselves deeply overlapping: the large single queries (10^4 to 10^5
  // DOP pair tests) that the pose classes' shallow intersections do not reach.
  std::vector<std::string> overlap{"cow", "bunny00", "armadillo"};
  std::vector<int> cows{512, 4096, 32768};
  std::string large_mesh = "bunny00";
  int large_count = 256;
  std::uint64_t reference_max_pairs = 25000;  // the per-pair reference loop (one thread)
  std::uint64_t one_thread_max_pairs = 25000; // the host backend on one thread
  std::uint64_t model_max_pairs = 25000;      // the model's batch (simulated clocks take time)
};

model::ModelParams v2_params() {
  model::ModelParams p = model::v2_params();
  model::validate(p);
  return p;
}

// The largest engine count whose DSPs and RAMs fit the U55C for these trees (the model's estimate;
// LUTs are not modelled: docs/comparison.md).
int engines_for_u55c(const DopTree& first, const DopTree& second, model::ModelParams p) {
  const auto& parts = model::fpga_parts();
  const auto it = std::find_if(parts.begin(), parts.end(), [](const model::FpgaPart& f) {
    return f.name.rfind("xcu55c", 0) == 0;
  });
  if (it == parts.end()) throw std::logic_error("compare_backends: the U55C is not among the model's parts");
  const ImageParams ip{p.fixed.b, p.vertex_bits, p.bus_width, scene_scale(first, second)};
  const TreeImage a = make_tree_image(first, ip), b = make_tree_image(second, ip);
  int best = 0;
  for (int e = 1; e <= 64; ++e) {
    p.engines = e;
    const model::PartFit f = model::fit_part(*it, p, first.k(), a, b);
    if (!f.ram_fits || !f.dsp_fits) break;
    best = e;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// The second copy of a mesh turned about 23 degrees about y around the mesh's centre and moved by
// 2.5 % of its size along (1, 0.4, 0): most of the two surfaces lie within each other's DOPs (the
// armadillo pair of scripts/cuda-bench.sh, made independent of the mesh's scale).
Pose overlapping_pose(const DopTree& tree) {
  Pose p;
  p.rotation = Eigen::Quaterniond(0.98, 0, 0.199, 0).normalized();
  double size = 0;
  for (std::size_t i = 0; i < 3; ++i) size = std::max(size, tree.size(i));
  p.translation = tree.centre() - p.rotation * tree.centre() + 0.025 * size * Vec3(1, 0.4, 0);
  return p;
}

struct PairWorkload {
  std::string pair;  // first:second
  bool classes;      // the four pose classes, or the one overlapping pose
};

void single_pairs(const Options& o, bool& all_equal, const std::function<void(const json&)>& save_row) {
  const auto cores = std::max(1u, std::thread::hardware_concurrency());
  const Eigen::Quaterniond rotation(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
  const Vec3 direction(1, 0.5, 0.25);
  const model::ModelParams mp = v2_params();
  fmt::print("## Single pairs (one query per call; reference on 1 thread: thread CPU time; others: wall time)\n\n");
  fmt::print("| pair | class | pair tests | reference 1 thread us | reference {} threads us | host pipeline {} threads us | "
             "GPU query us | GPU compute us | accelerator START-to-DONE us | accelerator end to end (PCIe card) us | GPU vs 1 thread | "
             "accelerator end to end vs 1 thread |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
             o.threads > 0 ? o.threads : int(cores), o.threads > 0 ? o.threads : int(cores));
  std::vector<PairWorkload> workloads;
  for (const std::string& arg : o.pairs) workloads.push_back({arg, true});
  for (const std::string& mesh : o.overlap) workloads.push_back({mesh + ":" + mesh, false});
  for (const auto& [arg, classes] : workloads) {
    const auto colon = arg.find(':');
    if (colon == std::string::npos) throw InputError("--pair wants first:second, got '" + arg + "'");
    const Mesh ma = load_mesh(o.meshes + "/" + arg.substr(0, colon) + ".off");
    const Mesh mb = load_mesh(o.meshes + "/" + arg.substr(colon + 1) + ".off");
    // The GPU and the accelerator take the hardware's trees and rule, against which their counters
    // are checked; the reference is timed as a user gets it, on its default trees and options.
    const DopTree ta(ma, 24, kHardwareTreeBuild), tb(mb, 24, kHardwareTreeBuild);
    const DopTree software_a(ma, 24), software_b(mb, 24);
    const cuda::NarrowRunner runner({&ta, &tb});
    cuda::NarrowOptions host;
    host.threads = o.threads;
    cuda::NarrowOptions gpu = host;
    gpu.backend = cuda::Backend::Cuda;
    std::vector<std::pair<std::string, Pose>> poses;
    if (classes)
      for (const ClassifiedPose& c : make_pose_classes(ta, tb, rotation, direction))
        poses.emplace_back(to_string(c.kind), c.pose);
    else
      poses.emplace_back("overlapping", overlapping_pose(ta));
    for (const auto& [kind, pose] : poses) {
      json r = {{"workload", "pair"}, {"pair", arg}, {"class", kind}};
      const TraversalOptions one{};
      TraversalOptions all{};
      all.threads = o.threads;
      const QueryResult ref = collide(ta, tb, pose, kHardwareTraversal);
      r["pair_tests"] = ref.stats.pair_tests;
      r["contacts"] = ref.contacts.size();
      const bool equal_contacts = collide(software_a, software_b, pose, one).contacts == ref.contacts;
      r["reference_1_s"] = time_call(
          thread_cpu_seconds, [&] { return collide(software_a, software_b, pose, one).contacts.size(); },
          o.batch_ms, o.batches);
      r["reference_all_s"] = time_call(
          wall_seconds, [&] { return collide(software_a, software_b, pose, all).contacts.size(); }, o.batch_ms,
          o.batches);
      const std::vector<cuda::TaskSpec> task{cuda::TaskSpec{0, 1, pose}};
      const cuda::NarrowRun h = runner.run(task, host);
      bool equal = equal_contacts && same_counts(h.contacts[0], h.counters[0], ref);
      r["host_all_s"] = time_call(wall_seconds, [&] { return runner.run(task, host).contacts[0].size(); }, o.batch_ms,
                                  o.batches);
      if (o.gpu) {
        const cuda::NarrowRun g = runner.run(task, gpu);
        equal &= same_counts(g.contacts[0], g.counters[0], ref);
        r["gpu_s"] =
            time_call(wall_seconds, [&] { return runner.run(task, gpu).contacts[0].size(); }, o.batch_ms, o.batches);
        std::vector<double> compute;
        for (int i = 0; i < 5; ++i) {
          const cuda::NarrowRun g5 = runner.run(task, gpu);
          compute.push_back(g5.device_setup + g5.device_kernels);
        }
        r["gpu_compute_s"] = median(compute);
      }
      if (o.model) {
        const model::ModelResult m = model::simulate(ta, tb, pose, mp);
        const QueryResult fixed =
            collide(ta, tb, pose, TraversalOptions{.rule = mp.rule}, SatBackend::Fixed, mp.fixed);
        equal &= m.contacts == fixed.contacts && m.stats.pair_tests == fixed.stats.pair_tests &&
                 m.stats.leaf_pairs == fixed.stats.leaf_pairs && !m.stats.stack_overflow;
        r["accel_cycles"] = m.stats.cycles;
        r["accel_s"] = double(m.stats.cycles) / (mp.clock_mhz * 1e6);
        // The host's part of an accelerator query (the set-up and the descriptor), and the query end
        // to end through the command queue on a PCIe Gen3 x16 card (docs/model-v2.md, "End to end").
        r["accel_setup_s"] = bench::accelerator_setup_seconds(ta, tb, pose, mp, o.batch_ms, o.batches);
        std::vector<ContactPair> queued;
        r["accel_e2e_s"] = bench::end_to_end_seconds(ta, tb, pose, mp, "pcie-gen3x16", r["accel_setup_s"], &queued);
        equal &= queued == m.contacts;
      }
      r["equal"] = equal;
      all_equal &= equal;
      const double ref1 = r["reference_1_s"];
      const double gpu_s = r.value("gpu_s", 0.0), accel = r.value("accel_s", 0.0);
      const double accel_total = accel > 0 ? r.value("accel_e2e_s", 0.0) : 0.0;
      fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |{}\n", arg, kind,
                 ref.stats.pair_tests, us(ref1), us(r["reference_all_s"]), us(r["host_all_s"]), us(gpu_s),
                 us(r.value("gpu_compute_s", 0.0)), us(accel), us(accel_total), ratio(ref1, gpu_s),
                 ratio(ref1, accel_total), equal ? "" : " **DIFFERENT**");
      save_row(r);
    }
  }
}

// ---------------------------------------------------------------------------------------------
struct Scenario {
  std::string name;
  std::string mesh;
  int objects;
};

void multibody(const Options& o, bool& all_equal, const std::function<void(const json&)>& save_row) {
  const auto cores = std::max(1u, std::thread::hardware_concurrency());
  const int threads = o.threads > 0 ? o.threads : int(cores);
  std::vector<Scenario> scenarios;
  for (int n : o.cows) scenarios.push_back({fmt::format("{} cows", n), "cow", n});
  if (o.large_count > 0) scenarios.push_back({fmt::format("{} {}", o.large_count, o.large_mesh), o.large_mesh, o.large_count});
  const model::ModelParams mp = v2_params();
  fmt::print("\n## Multibody scenes (generated: density 4, seed 1; median of {} runs after one warm-up; end to end = "
             "poses in, contacts out, trees resident)\n\n",
             o.runs);
  fmt::print("| scene | object pairs | DOP pair tests | contacts | reference 1 thread ms | host 1 thread ms | host {} "
             "threads ms (narrow) | GPU ms (narrow; compute) | accelerator E engines ms | GPU vs host {} threads: end "
             "to end, narrow |\n|---|---|---|---|---|---|---|---|---|---|\n",
             threads, threads);
  for (const Scenario& sc : scenarios) {
    const std::string path = o.meshes + "/" + sc.mesh + ".off";
    const Mesh mesh = load_mesh(path);
    const cuda::Scene scene = cuda::generate_scene(path, mesh, sc.objects, 4, 1);
    std::vector<Pose> poses;
    for (const auto& obj : scene.objects) poses.push_back(obj.pose);
    const cuda::MultibodyWorld world({mesh}, std::vector<std::uint32_t>(poses.size(), 0), poses, 24);
    json r = {{"workload", "multibody"}, {"scene", sc.name}, {"objects", sc.objects}};
    auto timed = [&](const cuda::MultibodyOptions& mo, int runs) {
      world.run(mo);  // warm-up: uploads the trees, touches the buffers
      std::vector<double> total, narrow, compute;
      cuda::MultibodyResult last;
      for (int i = 0; i < runs; ++i) {
        last = world.run(mo);
        total.push_back(last.times.total);
        narrow.push_back(last.times.narrow);
        compute.push_back(last.times.device_setup + last.times.device_kernels);
      }
      return std::make_tuple(last, median(total), median(narrow), median(compute));
    };
    cuda::MultibodyOptions all;
    all.threads = o.threads;
    const auto [host, host_total, host_narrow, host_compute] = timed(all, o.runs);
    (void)host_compute;
    r["object_pairs"] = host.broad_pairs.size();
    r["pair_tests"] = host.pair_tests;
    r["contacts"] = host.contacts;
    r["host_all_s"] = host_total;
    r["host_all_narrow_s"] = host_narrow;
    bool equal = true;
    if (host.broad_pairs.size() <= o.one_thread_max_pairs) {
      cuda::MultibodyOptions one;
      one.threads = 1;
      const auto [h1, t1, n1, c1] = timed(one, 1);
      (void)n1;
      (void)c1;
      equal &= h1.contacts == host.contacts && h1.pair_tests == host.pair_tests;
      r["host_1_s"] = t1;
    }
    if (host.broad_pairs.size() <= o.reference_max_pairs) {
      // The reference: kdopcd::collide per object pair at its relative pose, one thread.
      const double t0 = wall_seconds();
      for (const cuda::PairResult& p : host.pairs) {
        const QueryResult q = collide(world.tree_of(p.first_object), world.tree_of(p.second_object),
                                      cuda::relative_pose(world.pose(p.first_object), world.pose(p.second_object)),
                                      kHardwareTraversal);
        equal &= q.contacts == p.contacts && q.stats.pair_tests == p.stats.pair_tests &&
                 q.stats.axis_tests == p.stats.axis_tests && q.stats.leaf_pairs == p.stats.leaf_pairs;
      }
      r["reference_1_s"] = wall_seconds() - t0;
    }
    if (o.gpu) {
      cuda::MultibodyOptions g = all;
      g.backend = cuda::Backend::Cuda;
      const auto [gr, gt, gn, gc] = timed(g, o.runs);
      equal &= cuda::format_pairs(gr) == cuda::format_pairs(host) && gr.pair_tests == host.pair_tests &&
               gr.candidates == host.candidates;
      r["gpu_s"] = gt;
      r["gpu_narrow_s"] = gn;
      r["gpu_compute_s"] = gc;
    }
    if (o.model && host.broad_pairs.size() <= o.model_max_pairs) {
      // The accelerator: every object pair a query at its relative pose, on E engines that share the
      // tree RAMs of the one mesh (the scene has one), each idle engine taking the next query.
      // The queries go through the command queue of a PCIe Gen3 x16 card, the host writing their
      // descriptors at its set-up rate on one core (measured on the first pairs).
      model::ModelParams p = mp;
      p.engines = engines_for_u55c(world.tree(0), world.tree(0), p);
      std::vector<Pose> relative;
      for (const auto& [a, b] : host.broad_pairs) relative.push_back(cuda::relative_pose(world.pose(a), world.pose(b)));
      double setup = 0;
      const std::size_t sampled = std::min<std::size_t>(relative.size(), 64);
      for (std::size_t i = 0; i < sampled; ++i)
        setup += bench::accelerator_setup_seconds(world.tree(0), world.tree(0), relative[i], p, 1.0, 3) / double(sampled);
      p.host_path = model::HostPath::Queue;
      p.host = model::host_interface("pcie-gen3x16");
      p.host_setup_ns = setup * 1e9;
      r["accel_setup_s"] = setup;
      const model::BatchResult m = model::simulate_batch(world.tree(0), world.tree(0), relative, p);
      std::uint64_t contacts = 0;
      for (const auto& q : m.queries) contacts += q.contacts.size();
      r["accel_engines"] = p.engines;
      r["accel_cycles"] = m.cycles;
      r["accel_s"] = double(m.cycles) / (p.clock_mhz * 1e6);
      r["accel_contacts"] = contacts;  // fixed-point triangle unit: equal to the exact test's here (checked)
      equal &= contacts == host.contacts;
    }
    r["equal"] = equal;
    all_equal &= equal;
    const double gpu_s = r.value("gpu_s", 0.0);
    fmt::print("| {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} | {}, {} |{}\n", sc.name, host.broad_pairs.size(),
               host.pair_tests, host.contacts, ms(r.value("reference_1_s", 0.0)), ms(r.value("host_1_s", 0.0)),
               ms(host_total), ms(host_narrow),
               gpu_s > 0 ? fmt::format("{} ({}; {})", ms(gpu_s), ms(r.value("gpu_narrow_s", 0.0)),
                                       ms(r.value("gpu_compute_s", 0.0)))
                         : "not measured",
               r.contains("accel_s") ? fmt::format("{} (E = {})", ms(r["accel_s"]), int(r["accel_engines"])) : "–",
               ratio(host_total, gpu_s), ratio(host_narrow, r.value("gpu_narrow_s", 0.0)), equal ? "" : " **DIFFERENT**");
    save_row(r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"compare_backends: reference, GPU and accelerator model on the same workloads (docs/comparison.md)"};
  Options o;
  std::string json_path, machine_name;
  bool skip_pairs = false, skip_multibody = false;
  app.add_option("--meshes", o.meshes, "folder of the .off meshes")->capture_default_str();
  app.add_flag("--gpu", o.gpu, "include the GPU (needs one)");
  app.add_flag("--model", o.model, "include the accelerator model v2 (needs the SystemC model)");
  app.add_option("--threads", o.threads, "threads of the 'all threads' columns (0 = every core)")->capture_default_str();
  app.add_option("--pair", o.pairs, "single-pair workloads first:second in the four pose classes (repeatable)")
      ->capture_default_str();
  app.add_option("--overlap", o.overlap, "single-pair workloads: this mesh against itself, deeply overlapping (repeatable)")
      ->capture_default_str();
  app.add_option("--cows", o.cows, "multibody scenes of this many cows (repeatable)")->capture_default_str();
  app.add_option("--large-mesh", o.large_mesh, "the large mesh of the last multibody scene")->capture_default_str();
  app.add_option("--large-count", o.large_count, "its object count (0: no such scene)")->capture_default_str();
  app.add_option("--runs", o.runs, "multibody runs per measurement (median)")->capture_default_str();
  app.add_option("--batch-ms", o.batch_ms, "single pairs: minimum milliseconds per timed batch")->capture_default_str();
  app.add_option("--reference-max-pairs", o.reference_max_pairs, "larger scenes skip the per-pair reference")
      ->capture_default_str();
  app.add_option("--one-thread-max-pairs", o.one_thread_max_pairs, "larger scenes skip the one-thread host backend")
      ->capture_default_str();
  app.add_option("--model-max-pairs", o.model_max_pairs, "larger scenes skip the model")->capture_default_str();
  app.add_flag("--no-pairs", skip_pairs, "skip the single pairs");
  app.add_flag("--no-multibody", skip_multibody, "skip the multibody scenes");
  app.add_option("--json", json_path, "write every row as JSON");
  app.add_option("--machine-name", machine_name, "the machine, as the JSON report names it");
  CLI11_PARSE(app, argc, argv);
  try {
    if (o.gpu) {
      std::string why;
      if (!cuda::device_available(&why)) throw InputError("--gpu: no usable GPU: " + why);
    }
    bool all_equal = true;
    json report = {{"machine", {{"cores", std::thread::hardware_concurrency()}}},
                   {"machine_name", machine_name},
                   {"gpu", o.gpu},
                   {"model", o.model}};
    // The report is rewritten after every row, so that a run stopped by a time limit (the GPU
    // check's) keeps the rows it measured.
    auto write_report = [&] {
      if (json_path.empty()) return;
      std::ofstream out(json_path);
      out << report.dump(1) << "\n";
      out.close();
      if (!out) throw InputError(json_path + ": could not write");
    };
    auto saver = [&](const char* key) {
      return [&, key](const json& row) {
        report[key].push_back(row);
        std::fflush(stdout);
        write_report();
      };
    };
    if (!skip_pairs) {
      report["pairs"] = json::array();
      single_pairs(o, all_equal, saver("pairs"));
    }
    if (!skip_multibody) {
      report["multibody"] = json::array();
      multibody(o, all_equal, saver("multibody"));
    }
    write_report();
    if (!all_equal) {
      fmt::print(stderr, "compare_backends: a backend differs from the reference (rows marked DIFFERENT)\n");
      return 1;
    }
  } catch (const InputError& e) {
    fmt::print(stderr, "compare_backends: error: {}\n", e.what());
    return 2;
  }
  return 0;
}
