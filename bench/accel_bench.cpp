// accel_bench: the modelled accelerator against the reference's float query on this machine, in
// one run, START to DONE and end to end. Per scene and pose class:
//   - software: `kdopcd::collide` (float backend, default options, one thread, trees built once;
//     thread CPU time, median of batches);
//   - set-up: what the accelerator's host does per query on one core: make_query_setup (the axis
//     table, M', T') and the command-queue descriptor (driver::v2::make_descriptor), timed alike;
//   - START to DONE: the model's clocks of the query at the accelerator's clock;
//   - end to end, per host interface (model/include/kdopcd_model/host_interface.hpp): the set-up,
//     then the model's clocks from the doorbell write to the completion record visible to the
//     host, the query alone on an idle accelerator.
// Every model run is checked against the reference's fixed backend (contacts, pair tests, leaf
// pairs, triangle tests), so a fast wrong answer cannot pass. Two pose sets: the benchmark's
// scenes with the pose search of earlier runs, and held-out scenes (mesh pairs the benchmark never
// used, pose searches from seeded random rotations and directions). Then the throughput: per
// held-out scene a batch of queries cycling over its poses, through the command queue with E
// engines, the host writing descriptors at its measured set-up rate on one core, against the
// software's time for the same queries. Run by scripts/accel-bench.sh.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "accel_host.hpp"
#include "bench_timing.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd_model/model.hpp"
#include "kdopcd_model/resources.hpp"

using namespace kdopcd;

namespace {

// Seconds per call of f in thread CPU time (bench_timing.hpp).
template <class F>
double time_call(F&& f, double batch_ms, int batches) {
  return bench::time_call(bench::thread_cpu_seconds, std::forward<F>(f), batch_ms, batches);
}

double geomean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return v.empty() ? 0.0 : std::exp(s / double(v.size()));
}

struct Scene {
  std::string label;  // "cow (5804) / cow (5804)"
  bool held_out = false;
  Mesh a, b;
  std::unique_ptr<DopTree> first, second;                    // the accelerator's (kHardwareTreeBuild)
  std::unique_ptr<DopTree> software_first, software_second;  // collide()'s default build
};

struct Row {
  const Scene* scene = nullptr;
  int seed = 0;  // held out: the pose search's seed; benchmark: 0
  PoseClass kind = PoseClass::Intersecting;
  Pose pose;
  std::uint64_t pair_tests = 0, triangle_tests = 0, contacts = 0, cycles = 0;
  double software_s = 0, setup_s = 0, accel_s = 0;
  std::vector<double> e2e_s;  // per host interface
  bool equal = false;
};

const char* size_bucket(std::uint64_t pair_tests) {
  if (pair_tests < 100) return "< 10^2";
  if (pair_tests < 1000) return "10^2 - 10^3";
  if (pair_tests < 10000) return "10^3 - 10^4";
  return ">= 10^4";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"accel_bench: the modelled accelerator vs the reference's float query on one core"};
  std::string mesh_dir = "data/meshes";
  std::vector<std::string> scene_args{"cow:cow", "elephant:hand", "mushroom:couplingdown", "bunny00:turbine",
                                      "armadillo:ChineseDragon-10kv"};
  std::vector<std::string> held_out_args{"bull:camel", "dino:knot1", "lion:pig", "homer:femur", "man:bear"};
  std::vector<int> seeds{11, 12, 13};
  double batch_ms = 20;
  int batches = 5;
  int batch_queries = 2000;
  std::vector<int> engine_counts{1, 2, 4};
  std::string arch = "v2", csv_path;
  model::ModelParams p = model::v2_params();
  double clock_mhz = 0;
  app.add_option("--meshes", mesh_dir, "folder of the .off meshes")->capture_default_str();
  app.add_option("--scene", scene_args, "benchmark scenes, first:second mesh names (repeatable)")->capture_default_str();
  app.add_option("--held-out", held_out_args, "held-out scenes, first:second (repeatable; none: --held-out '')")
      ->capture_default_str();
  app.add_option("--seeds", seeds, "seeds of the held-out pose searches")->capture_default_str();
  app.add_option("--batch-ms", batch_ms, "minimum milliseconds per timed batch")->capture_default_str();
  app.add_option("--batches", batches, "batches per measurement (median taken)")->capture_default_str();
  app.add_option("--batch-queries", batch_queries, "v2 throughput: queries per held-out scene through the queue")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--engines", engine_counts, "v2 throughput: engine counts to run")->capture_default_str();
  app.add_option("--arch", arch, "model architecture: v2 or paper")->capture_default_str();
  app.add_option("--clock-mhz", clock_mhz, "accelerator clock (default: v2 250, paper 100)");
  app.add_option("--sat-units", p.sat_units, "v2: SAT units")->capture_default_str();
  app.add_option("--pairs-in-flight", p.pairs_in_flight, "v2: pairs in flight")->capture_default_str();
  app.add_option("--tri-ii", p.triangle_ii, "v2: triangle unit initiation interval")->capture_default_str();
  app.add_option("--csv", csv_path, "also write the rows as CSV");
  CLI11_PARSE(app, argc, argv);
  try {
    if (arch == "paper") p = model::paper_params();
    else if (arch != "v2") throw InputError("--arch must be v2 or paper");
    const bool v2 = arch == "v2";
    p.clock_mhz = clock_mhz > 0 ? clock_mhz : (v2 ? 250.0 : 100.0);
    model::validate(p);
    const std::vector<std::string> hosts = v2 ? model::host_interface_names() : std::vector<std::string>{};

    std::vector<std::unique_ptr<Scene>> scenes;
    auto add_scene = [&](const std::string& arg, bool held_out) {
      if (arg.empty()) return;
      const auto colon = arg.find(':');
      if (colon == std::string::npos) throw InputError("a scene is first:second, got '" + arg + "'");
      auto s = std::make_unique<Scene>();
      s->a = load_mesh(mesh_dir + "/" + arg.substr(0, colon) + ".off");
      s->b = load_mesh(mesh_dir + "/" + arg.substr(colon + 1) + ".off");
      s->label = fmt::format("{} ({}) / {} ({})", arg.substr(0, colon), s->a.triangle_count(), arg.substr(colon + 1),
                             s->b.triangle_count());
      s->held_out = held_out;
      s->first = std::make_unique<DopTree>(s->a, 24, kHardwareTreeBuild);
      s->second = std::make_unique<DopTree>(s->b, 24, kHardwareTreeBuild);
      s->software_first = std::make_unique<DopTree>(s->a, 24);
      s->software_second = std::make_unique<DopTree>(s->b, 24);
      scenes.push_back(std::move(s));
    };
    for (const std::string& a : scene_args) add_scene(a, false);
    for (const std::string& a : held_out_args) add_scene(a, true);

    std::vector<Row> rows;
    for (const auto& sp : scenes) {
      const Scene& sc = *sp;
      fmt::print(stderr, "scene {}{}\n", sc.label, sc.held_out ? " (held out)" : "");
      // The benchmark's pose search, and for held-out scenes seeded ones: a random rotation
      // (angle in [0.2, 2.8] rad about a random axis) and a random direction.
      std::vector<std::pair<int, std::array<ClassifiedPose, 4>>> searches;
      if (!sc.held_out) {
        searches.emplace_back(0, make_pose_classes(*sc.first, *sc.second,
                                                   Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())),
                                                   Vec3(1, 0.5, 0.25)));
      } else {
        for (int seed : seeds) {
          // A draw for which no pose of some class exists (the surfaces do not cross when the
          // centres meet) is followed by the next draw of the same generator.
          std::mt19937_64 rng{std::uint64_t(seed)};
          std::normal_distribution<double> normal;
          std::uniform_real_distribution<double> angle(0.2, 2.8);
          for (int attempt = 0;; ++attempt) {
            const Vec3 axis = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
            const double a = angle(rng);
            const Vec3 direction = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
            try {
              searches.emplace_back(seed, make_pose_classes(*sc.first, *sc.second,
                                                            Eigen::Quaterniond(Eigen::AngleAxisd(a, axis)), direction));
              break;
            } catch (const InputError&) {
              if (attempt == 20) throw;
            }
          }
        }
      }
      for (const auto& [seed, classes] : searches) {
        for (const ClassifiedPose& cp : classes) {
          Row r;
          r.scene = &sc;
          r.seed = seed;
          r.kind = cp.kind;
          r.pose = cp.pose;
          // The software as a user gets it: default tree build and options.
          const TraversalOptions software{};
          r.software_s = time_call(
              [&] { return collide(*sc.software_first, *sc.software_second, cp.pose, software).contacts.size(); },
              batch_ms, batches);
          r.setup_s = bench::accelerator_setup_seconds(*sc.first, *sc.second, cp.pose, p, batch_ms, batches);
          const model::ModelResult m = model::simulate(*sc.first, *sc.second, cp.pose, p);
          TraversalOptions accelerator;  // the model's rule on the model's trees: counter for counter
          accelerator.rule = p.rule;
          const QueryResult fixed = collide(*sc.first, *sc.second, cp.pose, accelerator, SatBackend::Fixed, p.fixed);
          r.equal = m.contacts == fixed.contacts && m.stats.pair_tests == fixed.stats.pair_tests &&
                    m.stats.leaf_pairs == fixed.stats.leaf_pairs &&
                    m.stats.triangle_tests == fixed.stats.triangle_tests && !m.stats.stack_overflow;
          r.pair_tests = m.stats.pair_tests;
          r.triangle_tests = m.stats.triangle_tests;
          r.contacts = m.contacts.size();
          r.cycles = m.stats.cycles;
          r.accel_s = double(m.stats.cycles) / (p.clock_mhz * 1e6);
          for (const std::string& h : hosts) {
            std::vector<ContactPair> queued;
            r.e2e_s.push_back(bench::end_to_end_seconds(*sc.first, *sc.second, cp.pose, p, h, r.setup_s, &queued));
            r.equal &= queued == m.contacts;
          }
          rows.push_back(std::move(r));
        }
      }
    }

    fmt::print("arch {} at {} MHz vs the reference's float query (default options, one thread, this machine)\n\n", arch,
               p.clock_mhz);
    std::string header = "| scene | seed | class | pair tests | contacts | cycles | START-DONE us | software us |";
    std::string rule = "|---|---|---|---|---|---|---|---|";
    if (v2) {
      header += " set-up us |";
      rule += "---|";
      for (const std::string& h : hosts) {
        header += fmt::format(" end to end {} us |", h);
        rule += "---|";
      }
    }
    header += " speed-up START-DONE |";
    rule += "---|";
    for (const std::string& h : hosts) {
      header += fmt::format(" speed-up {} |", h);
      rule += "---|";
    }
    header += " equal to ref fixed |";
    rule += "---|";
    fmt::print("{}\n{}\n", header, rule);
    bool all_equal = true;
    for (const Row& r : rows) {
      std::string line = fmt::format("| {}{} | {} | {} | {} | {} | {} | {:.2f} | {:.2f} |", r.scene->label,
                                     r.scene->held_out ? " *" : "", r.seed == 0 ? "-" : std::to_string(r.seed),
                                     to_string(r.kind), r.pair_tests, r.contacts, r.cycles, r.accel_s * 1e6,
                                     r.software_s * 1e6);
      if (v2) {
        line += fmt::format(" {:.2f} |", r.setup_s * 1e6);
        for (double e : r.e2e_s) line += fmt::format(" {:.2f} |", e * 1e6);
      }
      line += fmt::format(" {:.1f} |", r.software_s / r.accel_s);
      for (double e : r.e2e_s) line += fmt::format(" {:.1f} |", r.software_s / e);
      line += fmt::format(" {} |", r.equal ? "yes" : "NO");
      fmt::print("{}\n", line);
      all_equal &= r.equal;
    }
    fmt::print("\n* held out: a mesh pair the benchmark never used, poses from seeded searches\n");

    // Geometric means per pose set and class, and per query size (end to end).
    auto summary = [&](const std::string& title, auto&& key_of) {
      std::map<std::string, std::vector<const Row*>> groups;
      std::vector<std::string> order;
      for (const Row& r : rows) {
        const std::string k = key_of(r);
        if (k.empty()) continue;
        if (!groups.count(k)) order.push_back(k);
        groups[k].push_back(&r);
      }
      std::string h = fmt::format("| {} | queries | START-DONE |", title), rl = "|---|---|---|";
      for (const std::string& host : hosts) {
        h += fmt::format(" {} |", host);
        rl += "---|";
      }
      fmt::print("\n{}\n{}\n", h, rl);
      for (const std::string& k : order) {
        std::vector<double> s2d;
        std::vector<std::vector<double>> e2e(hosts.size());
        for (const Row* r : groups[k]) {
          s2d.push_back(r->software_s / r->accel_s);
          for (std::size_t i = 0; i < hosts.size(); ++i) e2e[i].push_back(r->software_s / r->e2e_s[i]);
        }
        std::string line = fmt::format("| {} | {} | {:.2f} |", k, groups[k].size(), geomean(s2d));
        for (const auto& v : e2e) line += fmt::format(" {:.2f} |", geomean(v));
        fmt::print("{}\n", line);
      }
    };
    auto set_name = [](const Row& r) { return std::string(r.scene->held_out ? "held out" : "benchmark"); };
    fmt::print("\nGeometric-mean speed-ups (software time / accelerator time):\n");
    summary("pose set, class", [&](const Row& r) { return set_name(r) + ", " + to_string(r.kind); });
    summary("pose set, intersecting + close proximity", [&](const Row& r) {
      return r.kind == PoseClass::Intersecting || r.kind == PoseClass::CloseProximity ? set_name(r) : std::string();
    });
    summary("pose set, query size (pair tests)",
            [&](const Row& r) { return set_name(r) + ", " + size_bucket(r.pair_tests); });

    // Throughput: per held-out scene, a batch through the command queue.
    if (v2) {
      fmt::print("\nThroughput: per held-out scene {} queries cycling over its {} poses through the command queue, the "
                 "host writing descriptors at its measured set-up rate on one core; software: the same queries one "
                 "after the other on one core\n\n",
                 batch_queries, seeds.size() * 4);
      fmt::print("| host | engines | DSP48 (estimate) | queries | accelerator ms | software ms | host set-up ms | "
                 "queries/s | speed-up |\n|---|---|---|---|---|---|---|---|---|\n");
      for (const std::string& h : hosts) {
        for (int engines : engine_counts) {
          double accel_s = 0, software_s = 0, setup_s = 0;
          std::size_t queries = 0;
          int dsp = 0;
          for (const auto& sp : scenes) {
            if (!sp->held_out) continue;
            std::vector<const Row*> mine;
            for (const Row& r : rows)
              if (r.scene == sp.get()) mine.push_back(&r);
            double setup_mean = 0;
            for (const Row* r : mine) setup_mean += r->setup_s / double(mine.size());
            model::ModelParams q = p;
            q.host_path = model::HostPath::Queue;
            q.host = model::host_interface(h);
            q.engines = engines;
            q.host_setup_ns = setup_mean * 1e9;
            std::size_t next = 0;
            std::vector<ContactPair> none;
            bool equal = true;
            const model::StreamTotals t = model::simulate_stream(
                *sp->first, *sp->second,
                [&](Pose& pose) {
                  if (next == std::size_t(batch_queries)) return false;
                  pose = mine[next++ % mine.size()]->pose;
                  return true;
                },
                [&](std::size_t i, const Pose&, model::ModelResult&& m) {
                  equal &= m.contacts.size() == mine[i % mine.size()]->contacts && !m.stats.contact_overflow &&
                           !m.stats.stack_overflow;
                },
                q);
            if (!equal) {
              fmt::print(stderr, "accel_bench: a batched query differs from its single run\n");
              all_equal = false;
            }
            accel_s += double(t.cycles) / (p.clock_mhz * 1e6);
            for (std::size_t i = 0; i < std::size_t(batch_queries); ++i) {
              software_s += mine[i % mine.size()]->software_s;
              setup_s += mine[i % mine.size()]->setup_s;
            }
            queries += std::size_t(batch_queries);
            const double scale = scene_scale(*sp->first, *sp->second);
            const model::Resources res = model::estimate_resources(
                q, 24, make_tree_image(*sp->first, ImageParams{p.fixed.b, p.vertex_bits, p.bus_width, scale}),
                make_tree_image(*sp->second, ImageParams{p.fixed.b, p.vertex_bits, p.bus_width, scale}));
            dsp = res.dsp();
          }
          fmt::print("| {} | {} | {} | {} | {:.2f} | {:.2f} | {:.2f} | {:.0f} | {:.1f} |\n", h, engines, dsp, queries,
                     accel_s * 1e3, software_s * 1e3, setup_s * 1e3, double(queries) / accel_s, software_s / accel_s);
        }
      }
    }

    if (!csv_path.empty()) {
      std::ofstream csv(csv_path);
      csv << "scene,held_out,seed,class,pair_tests,triangle_tests,contacts,cycles,accel_s,software_s,setup_s";
      for (const std::string& h : hosts) csv << ",e2e_" << h << "_s";
      csv << ",speedup,equal\n";
      for (const Row& r : rows) {
        csv << fmt::format("\"{}\",{},{},{},{},{},{},{},{:.9g},{:.9g},{:.9g}", r.scene->label, r.scene->held_out, r.seed,
                           to_string(r.kind), r.pair_tests, r.triangle_tests, r.contacts, r.cycles, r.accel_s,
                           r.software_s, r.setup_s);
        for (double e : r.e2e_s) csv << fmt::format(",{:.9g}", e);
        csv << fmt::format(",{:.4g},{}\n", r.software_s / r.accel_s, r.equal);
      }
      if (!csv.good()) throw InputError(csv_path + ": could not write");
    }
    if (!all_equal) {
      fmt::print(stderr, "accel_bench: the model differs from the reference's fixed backend\n");
      return 1;
    }
  } catch (const InputError& e) {
    fmt::print(stderr, "accel_bench: error: {}\n", e.what());
    return 2;
  }
  return 0;
}
