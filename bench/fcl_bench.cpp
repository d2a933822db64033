// fcl_bench: times the reference's kdop collide (24-DOP trees, float SAT, exact triangle tests,
// all contacts) against FCL 0.7 on real meshes in the four pose classes, and checks that both
// report the same set of intersecting triangle pairs. Not a unit test: run by
// scripts/bench-fcl.sh, which writes docs/benchmarks-fcl.md from the Markdown this prints.
//
// Timed per query (each the median over --batches batches of a repeat count calibrated so that
// one batch takes at least --batch-ms):
//   ours           collide(first_tree, second_tree, pose): SAT set-up + placing the second
//                  object's vertices + tandem traversal + exact triangle tests; trees built once
//                  in the objects' local frames.
//   FCL end to end fcl::collide on BVHModel<BV> built once in local frames, tf1 = identity,
//                  tf2 = pose, num_max_contacts = 1e8, enable_contact = false (one Contact per
//                  intersecting triangle pair). For OBBRSS/OBB/RSS FCL tests the trees in their
//                  local frames (relative transform per BV test). For AABB/KDOP it copies both
//                  BVHModels and rebuilds the moved one from world-space vertices on every call
//                  (BVHCollideImpl -> initialize(MeshCollisionTraversalNode<BV>&, ...)).
//   FCL traversal  AABB and KDOP<24> trees built once, outside the timer, from world-space
//                  vertices (the second object's placed by the same doubles we use); the timer
//                  covers only detail::initialize with identity transforms (no copy, no rebuild)
//                  and detail::collide(&node): the BV traversal and FCL's triangle tests.
#include <fcl/fcl.h>
#include <fcl/narrowphase/detail/traversal/collision/mesh_collision_traversal_node.h>
#include <fcl/narrowphase/detail/traversal/collision_node.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <functional>
#include <fstream>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define KDOPCD_PROFILE_ON() CALLGRIND_START_INSTRUMENTATION
#define KDOPCD_PROFILE_OFF() CALLGRIND_STOP_INSTRUMENTATION
#else
#define KDOPCD_PROFILE_ON() ((void)0)
#define KDOPCD_PROFILE_OFF() ((void)0)
#endif

#include "kdopcd/collide.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd/triangle_batch.hpp"

namespace {

using namespace kdopcd;
using Clock = std::chrono::steady_clock;
using KDOP24 = fcl::KDOP<double, 24>;

volatile std::size_t g_sink = 0;  // keeps timed results alive

struct TimingOptions {
  double batch_ms = 25;
  int batches = 7;
};

// Thread CPU time: the machines these run on are shared, and CPU time does not count the time
// this thread waits for a core (wall time would).
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double wall_seconds() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

// A set of measurements of one query. Each callable is calibrated to a repeat count that makes
// one batch last at least batch_ms; then the batches of all callables are run interleaved
// (round-robin), so a change in machine load hits them all alike; the median batch gives the
// seconds per call.
class Measurements {
 public:
  explicit Measurements(const TimingOptions& options) : options_(options) {}

  // wall: time with the wall clock instead of this thread's CPU time (for a query on several
  // threads, whose CPU time is spread over them).
  template <class F>
  double* add(F f, bool wall = false) {  // the result lands in *return value after run()
    auto batch = [f = std::move(f), wall](std::int64_t reps) mutable {
      const double t0 = wall ? wall_seconds() : cpu_seconds();
      std::size_t acc = 0;
      for (std::int64_t i = 0; i < reps; ++i) acc += f();
      g_sink = g_sink + acc;
      return (wall ? wall_seconds() : cpu_seconds()) - t0;
    };
    items_.push_back(std::make_unique<Item>(Item{std::move(batch)}));
    return &items_.back()->result;
  }

  void run() {
    const double target = options_.batch_ms * 1e-3;
    constexpr std::int64_t kMaxReps = std::int64_t(1) << 32;  // bounds an (almost) empty callable
    for (auto& item : items_) {
      double t = item->batch(1);  // also warms caches
      while (t < target && item->reps < kMaxReps) {
        const double scale = t > 0 ? std::min(1.2 * target / t, 1000.0) : 1000.0;
        item->reps = std::min(kMaxReps, std::max<std::int64_t>(item->reps * 2,
                                                               std::int64_t(std::ceil(double(item->reps) * scale))));
        t = item->batch(item->reps);
      }
    }
    std::vector<std::vector<double>> per(items_.size());
    for (int b = 0; b < options_.batches; ++b)
      for (std::size_t i = 0; i < items_.size(); ++i)
        per[i].push_back(items_[i]->batch(items_[i]->reps) / double(items_[i]->reps));
    for (std::size_t i = 0; i < items_.size(); ++i) {
      std::sort(per[i].begin(), per[i].end());
      items_[i]->result = per[i][per[i].size() / 2];
    }
  }

 private:
  struct Item {
    std::function<double(std::int64_t)> batch;
    std::int64_t reps = 1;
    double result = 0;
  };
  TimingOptions options_;
  std::vector<std::unique_ptr<Item>> items_;
};

template <class BV>
std::unique_ptr<fcl::BVHModel<BV>> make_model(const std::vector<Vec3>& vertices, const Mesh& mesh) {
  auto model = std::make_unique<fcl::BVHModel<BV>>();
  std::vector<fcl::Vector3d> v(vertices.begin(), vertices.end());
  std::vector<fcl::Triangle> t;
  t.reserve(mesh.triangle_count());
  for (const auto& tri : mesh.triangles) t.emplace_back(tri[0], tri[1], tri[2]);
  model->beginModel(int(t.size()), int(v.size()));
  model->addSubModel(v, t);
  model->endModel();
  model->computeLocalAABB();
  return model;
}

fcl::CollisionRequestd all_contacts_request() { return fcl::CollisionRequestd(100'000'000, false); }

std::vector<ContactPair> fcl_pairs(const fcl::CollisionResultd& result) {
  std::vector<ContactPair> out;
  for (std::size_t i = 0; i < result.numContacts(); ++i) {
    const auto& c = result.getContact(i);
    out.push_back({std::uint32_t(c.b1), std::uint32_t(c.b2)});
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct Mismatch {
  std::size_t fcl_contacts = 0, only_ours = 0, only_fcl = 0;
};
Mismatch compare(const std::vector<ContactPair>& ours, const std::vector<ContactPair>& theirs) {
  Mismatch m;
  m.fcl_contacts = theirs.size();
  std::vector<ContactPair> d;
  std::set_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(), std::back_inserter(d));
  m.only_ours = d.size();
  d.clear();
  std::set_difference(theirs.begin(), theirs.end(), ours.begin(), ours.end(), std::back_inserter(d));
  m.only_fcl = d.size();
  return m;
}

// FCL end to end: one fcl::collide call, all contacts.
struct FclEndToEnd {
  std::string name;
  std::unique_ptr<fcl::CollisionGeometryd> first, second;
};

template <class BV>
FclEndToEnd make_e2e(const std::string& name, const Mesh& a, const Mesh& b) {
  return {name, make_model<BV>(a.vertices, a), make_model<BV>(b.vertices, b)};
}

fcl::Transform3d to_fcl(const Pose& pose) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = pose.matrix();
  tf.translation() = pose.translation;
  return tf;
}

// FCL traversal alone on world-space trees.
template <class BV>
std::size_t fcl_traverse(fcl::BVHModel<BV>& m1, fcl::BVHModel<BV>& m2, fcl::CollisionResultd& result,
                         bool statistics = false, int* bv_tests = nullptr, int* leaf_tests = nullptr) {
  const fcl::CollisionRequestd request = all_contacts_request();
  fcl::detail::MeshCollisionTraversalNode<BV> node;
  fcl::Transform3d tf1 = fcl::Transform3d::Identity(), tf2 = fcl::Transform3d::Identity();
  fcl::detail::initialize(node, m1, tf1, m2, tf2, request, result);
  node.enable_statistics = statistics;
  fcl::detail::collide<double>(&node);
  if (bv_tests) *bv_tests = node.num_bv_tests;
  if (leaf_tests) *leaf_tests = node.num_leaf_tests;
  return result.numContacts();
}

// FCL's OBB traversal as fcl::collide runs it (local frames), for its BV-test count.
int fcl_obb_bv_tests(const fcl::CollisionGeometryd& first, const fcl::CollisionGeometryd& second,
                     const fcl::Transform3d& tf2) {
  using Model = fcl::BVHModel<fcl::OBBd>;
  fcl::CollisionResultd result;
  fcl::detail::MeshCollisionTraversalNodeOBB<double> node;
  fcl::detail::initialize(node, static_cast<const Model&>(first), fcl::Transform3d::Identity(),
                          static_cast<const Model&>(second), tf2, all_contacts_request(), result);
  node.enable_statistics = true;
  fcl::detail::collide<double>(&node);
  return node.num_bv_tests;
}

struct Row {
  std::string scene;
  std::string pose_label;  // the pose class, or "pose N" for a --poses file
  std::optional<PoseClass> kind;
  std::size_t contacts = 0;
  TraversalStats stats;
  double ours = 0;
  std::vector<double> e2e;            // per FCL BV, end to end
  double aabb_trav = 0, kdop_trav = 0;
  std::vector<Mismatch> e2e_check;    // per FCL BV
  Mismatch aabb_check, kdop_check;
  // Breakdown of ours (seconds): set-up, placement, traversal with the triangle test replaced
  // by recording the leaf pair, exact triangle tests on the recorded pairs.
  double t_setup = 0, t_place = 0, t_traverse = 0, t_triangles = 0;
  int fcl_kdop_bv_tests = 0, fcl_kdop_leaf_tests = 0;
  int fcl_obb_bv_tests = 0;    // FCL OBB end to end: BV tests of its own traversal
  double fixed = 0;            // ours with SatBackend::Fixed (the accelerator's arithmetic)
  TraversalStats fixed_stats;
  bool fixed_same_contacts = true;
  // --threads N: wall time of ours on 1 thread and on N threads (interleaved), same contacts.
  double wall_1 = 0, wall_n = 0;
  bool threads_same_contacts = true;
  double best_e2e() const { return *std::min_element(e2e.begin(), e2e.end()); }
  std::size_t best_e2e_index() const { return std::size_t(std::min_element(e2e.begin(), e2e.end()) - e2e.begin()); }
};

std::string us(double seconds) {
  const double v = seconds * 1e6;
  if (v >= 1000) return fmt::format("{:.0f}", v);
  if (v >= 100) return fmt::format("{:.1f}", v);
  if (v >= 10) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3f}", v);
}

std::string mismatch_text(const Mismatch& m) {
  if (m.only_ours == 0 && m.only_fcl == 0) return fmt::format("{}", m.fcl_contacts);
  return fmt::format("{} (-{}/+{})", m.fcl_contacts, m.only_ours, m.only_fcl);
}

double geomean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return std::exp(s / double(v.size()));
}

// One scene: two meshes and the poses to query them at.
struct Scene {
  std::string name;
  const Mesh* first;
  const Mesh* second;
  bool user_poses = false;  // poses from --poses (else the four pose classes)
};

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The per-query numbers of the tables, one record per query, for --csv and --json.
struct Record {
  std::vector<std::pair<std::string, std::string>> fields;  // name, value (numbers unquoted)
  void text(const std::string& name, const std::string& value) { fields.emplace_back(name, json_string(value)); }
  void number(const std::string& name, double value) {  // counts in full, times to 6 digits
    const bool whole = value == std::floor(value) && std::abs(value) < 1e15;
    fields.emplace_back(name, whole ? fmt::format("{:.0f}", value) : fmt::format("{:.6g}", value));
  }
};

Record record_of(const Row& r, const std::vector<std::string>& e2e_names, int threads) {
  Record rec;
  rec.text("scene", r.scene);
  rec.text("pose", r.pose_label);
  rec.number("contacts", double(r.contacts));
  rec.number("ours_us", r.ours * 1e6);
  rec.number("fixed_us", r.fixed * 1e6);
  for (std::size_t i = 0; i < r.e2e.size(); ++i) rec.number("fcl_" + e2e_names[i] + "_us", r.e2e[i] * 1e6);
  rec.number("fcl_AABB_trav_us", r.aabb_trav * 1e6);
  rec.number("fcl_KDOP24_trav_us", r.kdop_trav * 1e6);
  rec.text("fcl_fastest", e2e_names[r.best_e2e_index()]);
  rec.number("ours_over_fcl_fastest", r.ours / r.best_e2e());
  rec.number("ours_over_fcl_KDOP24_trav", r.ours / r.kdop_trav);
  rec.number("fixed_over_ours", r.fixed / r.ours);
  rec.number("pair_tests", double(r.stats.pair_tests));
  rec.number("axis_tests", double(r.stats.axis_tests));
  rec.number("triangle_tests", double(r.stats.triangle_tests));
  rec.number("fixed_pair_tests", double(r.fixed_stats.pair_tests));
  rec.number("fixed_triangle_tests", double(r.fixed_stats.triangle_tests));
  rec.number("fcl_OBB_bv_tests", r.fcl_obb_bv_tests);
  rec.number("fcl_KDOP24_bv_tests", r.fcl_kdop_bv_tests);
  rec.number("fcl_KDOP24_leaf_tests", r.fcl_kdop_leaf_tests);
  if (threads != 1) {
    rec.number("threads", threads);
    rec.number("wall_1_thread_us", r.wall_1 * 1e6);
    rec.number("wall_n_threads_us", r.wall_n * 1e6);
    rec.number("thread_speedup", r.wall_1 / r.wall_n);
  }
  return rec;
}

void write_csv(const std::string& path, const std::vector<Record>& records) {
  std::ofstream out(path);
  if (records.empty()) return;
  for (std::size_t i = 0; i < records[0].fields.size(); ++i) out << (i ? "," : "") << records[0].fields[i].first;
  out << "\n";
  for (const Record& rec : records) {
    for (std::size_t i = 0; i < rec.fields.size(); ++i) {
      std::string v = rec.fields[i].second;
      if (!v.empty() && v.front() == '"') {  // back from JSON quoting to CSV quoting
        std::string raw;
        for (std::size_t j = 1; j + 1 < v.size(); ++j) {
          if (v[j] == '\\') ++j;
          raw += v[j];
        }
        v = csv_field(raw);
      }
      out << (i ? "," : "") << v;
    }
    out << "\n";
  }
}

void write_json(const std::string& path, const std::vector<Record>& records, const TimingOptions& timing) {
  std::ofstream out(path);
  out << "{\n  \"time_unit\": \"microseconds of thread CPU time (wall time for the thread columns)\",\n";
  out << fmt::format("  \"batches\": {},\n  \"batch_ms\": {},\n  \"queries\": [\n", timing.batches, timing.batch_ms);
  for (std::size_t r = 0; r < records.size(); ++r) {
    out << "    {";
    for (std::size_t i = 0; i < records[r].fields.size(); ++i)
      out << (i ? ", " : "") << json_string(records[r].fields[i].first) << ": " << records[r].fields[i].second;
    out << (r + 1 < records.size() ? "},\n" : "}\n");
  }
  out << "  ]\n}\n";
}

std::string file_stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = name.find_last_of('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times the reference's kdop collide against FCL 0.7 on real meshes; prints Markdown"};
  std::string mesh_dir = "data/meshes";
  std::vector<std::string> scene_args{"cow:cow", "elephant:hand", "mushroom:couplingdown"};
  TimingOptions timing;
  int k = 24;
  app.add_option("--meshes", mesh_dir, "folder of the .off meshes")->capture_default_str();
  auto* scene_option =
      app.add_option("--scene", scene_args, "first:second mesh names (repeatable)")->capture_default_str();
  app.add_option("--batch-ms", timing.batch_ms, "minimum milliseconds per timed batch")->capture_default_str();
  app.add_option("--batches", timing.batches, "batches per measurement (median taken)")->capture_default_str();
  app.add_option("--k", k, "k of the reference's DOP-trees")->capture_default_str();
  int axes = 0;
  app.add_option("--axes", axes, "axes our pair test uses (TraversalOptions::axes; 0 = all k)")->capture_default_str();
  int profile_reps = 0;
  app.add_option("--profile-reps", profile_reps,
                 "only run our query this many times per scene and pose class, untimed (for valgrind --tool=callgrind)");
  std::string build_name = to_string(TreeBuild::Sah), rule_name = to_string(TraversalOptions{}.rule);
  app.add_option("--build", build_name, "our tree build: sah (collide()'s default) or median (the accelerator's)")
      ->capture_default_str();
  app.add_option("--rule", rule_name, "our descent rule: larger (collide()'s default), shallower, first or second")
      ->capture_default_str();
  std::string profile_backend = "float";
  app.add_option("--profile-backend", profile_backend, "SAT backend of the --profile-reps queries (float, fixed)")
      ->capture_default_str();
  std::vector<std::string> profile_queries;
  app.add_option("--profile-query", profile_queries,
                 "with --profile-reps: only the queries of this label (e.g. close-proximity, 'pose 1'; repeatable)");
  std::string poses_file;
  std::vector<std::string> pair_paths;
  auto* poses_option = app.add_option("--poses", poses_file,
                                      "pose file (one 'qw qx qy qz tx ty tz' per line) for the --pair meshes, "
                                      "instead of the pose classes");
  app.add_option("--pair", pair_paths, "FIRST SECOND: paths of the two meshes the --poses file is for")
      ->expected(2);
  poses_option->needs("--pair");
  int threads = 1;
  app.add_option("--threads", threads,
                 "also time ours on this many threads (TraversalOptions::threads, wall time, against 1 thread)")
      ->capture_default_str();
  std::string csv_path, json_path;
  app.add_option("--csv", csv_path, "also write the per-query numbers to this CSV file");
  app.add_option("--json", json_path, "also write the per-query numbers to this JSON file");
  CLI11_PARSE(app, argc, argv);
  if (!poses_file.empty() && scene_option->count() == 0) scene_args.clear();  // only the user's scene
  const TreeBuild tree_build = parse_tree_build(build_name);
  const DescentRule rule = parse_query_descent_rule(rule_name);

  // Fixed pose-class search: second object rotated by 0.6 rad about (1,1,0), moved along
  // (1, 0.5, 0.25) from centres together (make_pose_classes).
  const Eigen::Quaterniond rotation(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
  const Vec3 direction(1, 0.5, 0.25);
  const std::vector<std::string> e2e_names{"OBBRSS", "OBB", "RSS", "AABB", "KDOP24"};

  std::vector<Row> rows;
  std::map<std::string, std::unique_ptr<Mesh>> meshes;
  auto mesh_at = [&](const std::string& path) -> const Mesh& {
    auto& slot = meshes[path];
    if (!slot) slot = std::make_unique<Mesh>(load_mesh(path));
    return *slot;
  };
  std::vector<Scene> scenes;
  for (const std::string& arg : scene_args) {
    const auto colon = arg.find(':');
    if (colon == std::string::npos) {
      fmt::print(stderr, "--scene wants first:second, got '{}'\n", arg);
      return 2;
    }
    const Mesh& ma = mesh_at(mesh_dir + "/" + arg.substr(0, colon) + ".off");
    const Mesh& mb = mesh_at(mesh_dir + "/" + arg.substr(colon + 1) + ".off");
    scenes.push_back({fmt::format("{} ({}) vs {} ({})", arg.substr(0, colon), ma.triangle_count(),
                                  arg.substr(colon + 1), mb.triangle_count()),
                      &ma, &mb, false});
  }
  std::vector<Pose> user_poses;
  if (!poses_file.empty()) {
    user_poses = load_poses(poses_file);
    const Mesh& ma = mesh_at(pair_paths[0]);
    const Mesh& mb = mesh_at(pair_paths[1]);
    scenes.push_back({fmt::format("{} ({}) vs {} ({})", file_stem(pair_paths[0]), ma.triangle_count(),
                                  file_stem(pair_paths[1]), mb.triangle_count()),
                      &ma, &mb, true});
  }

  for (const Scene& sc : scenes) {
    const Mesh& ma = *sc.first;
    const Mesh& mb = *sc.second;
    fmt::print(stderr, "scene {}\n", sc.name);
    const DopTree ta(ma, k, tree_build), tb(mb, k, tree_build);
    struct Query {
      std::string label;
      std::optional<PoseClass> kind;
      Pose pose;
    };
    std::vector<Query> queries;
    if (sc.user_poses) {
      for (std::size_t i = 0; i < user_poses.size(); ++i) queries.push_back({fmt::format("pose {}", i + 1), {}, user_poses[i]});
    } else {
      try {
        for (const ClassifiedPose& cp : make_pose_classes(ta, tb, rotation, direction))
          queries.push_back({to_string(cp.kind), cp.kind, cp.pose});
      } catch (const InputError& e) {  // e.g. one object inside the other: give it a --poses file
        fmt::print(stderr, "  skipped: {}\n", e.what());
        continue;
      }
    }

    if (profile_reps > 0) {
      for (const Query& q : queries) {
        if (!profile_queries.empty() &&
            std::find(profile_queries.begin(), profile_queries.end(), q.label) == profile_queries.end())
          continue;
        // Instrumented only here under `valgrind --tool=callgrind --instr-atstart=no`: the tree
        // builds and the pose search before, many times longer than the queries, run uninstrumented.
        KDOPCD_PROFILE_ON();
        for (int i = 0; i < profile_reps; ++i)
          g_sink = g_sink + collide(ta, tb, q.pose, TraversalOptions{.axes = axes, .rule = rule},
                                    parse_sat_backend(profile_backend))
                                .contacts.size();
        KDOPCD_PROFILE_OFF();
      }
      continue;
    }

    std::vector<FclEndToEnd> e2e;
    e2e.push_back(make_e2e<fcl::OBBRSSd>("OBBRSS", ma, mb));
    e2e.push_back(make_e2e<fcl::OBBd>("OBB", ma, mb));
    e2e.push_back(make_e2e<fcl::RSSd>("RSS", ma, mb));
    e2e.push_back(make_e2e<fcl::AABBd>("AABB", ma, mb));
    e2e.push_back(make_e2e<KDOP24>("KDOP24", ma, mb));
    const fcl::Transform3d identity = fcl::Transform3d::Identity();
    const TraversalOptions options{.axes = axes, .rule = rule};
    TraversalOptions threaded = options;
    threaded.threads = threads;

    for (const Query& q : queries) {
      Row row;
      row.scene = sc.name;
      row.pose_label = q.label;
      row.kind = q.kind;
      const Pose pose = q.pose;
      const fcl::Transform3d tf = to_fcl(pose);

      // Contact sets (untimed).
      const QueryResult ref = collide(ta, tb, pose, options);
      row.contacts = ref.contacts.size();
      row.stats = ref.stats;
      const QueryResult fixed_ref = collide(ta, tb, pose, options, SatBackend::Fixed);
      row.fixed_stats = fixed_ref.stats;
      row.fixed_same_contacts = fixed_ref.contacts == ref.contacts;
      if (threads != 1) row.threads_same_contacts = collide(ta, tb, pose, threaded).contacts == ref.contacts;
      for (const auto& f : e2e) {
        fcl::CollisionResultd result;
        fcl::collide(f.first.get(), identity, f.second.get(), tf, all_contacts_request(), result);
        row.e2e_check.push_back(compare(ref.contacts, fcl_pairs(result)));
      }
      row.fcl_obb_bv_tests = fcl_obb_bv_tests(*e2e[1].first, *e2e[1].second, tf);
      const std::vector<Vec3> placed = place_vertices(mb, pose);
      auto aabb1 = make_model<fcl::AABBd>(ma.vertices, ma), aabb2 = make_model<fcl::AABBd>(placed, mb);
      auto kdop1 = make_model<KDOP24>(ma.vertices, ma), kdop2 = make_model<KDOP24>(placed, mb);
      {
        fcl::CollisionResultd r1, r2;
        fcl_traverse(*aabb1, *aabb2, r1);
        fcl_traverse(*kdop1, *kdop2, r2, true, &row.fcl_kdop_bv_tests, &row.fcl_kdop_leaf_tests);
        row.aabb_check = compare(ref.contacts, fcl_pairs(r1));
        row.kdop_check = compare(ref.contacts, fcl_pairs(r2));
      }

      // Timings (all of this query's, interleaved).
      Measurements m(timing);
      double* ours = m.add([&] { return collide(ta, tb, pose, options).contacts.size(); });
      double* fixed = m.add([&] { return collide(ta, tb, pose, options, SatBackend::Fixed).contacts.size(); });
      std::vector<double*> e2e_times;
      for (const auto& f : e2e)
        e2e_times.push_back(m.add([&] {
          fcl::CollisionResultd result;
          return fcl::collide(f.first.get(), identity, f.second.get(), tf, all_contacts_request(), result);
        }));
      double* aabb_trav = m.add([&] {
        fcl::CollisionResultd result;
        return fcl_traverse(*aabb1, *aabb2, result);
      });
      double* kdop_trav = m.add([&] {
        fcl::CollisionResultd result;
        return fcl_traverse(*kdop1, *kdop2, result);
      });
      // The thread comparison on its own, 1 and N threads alternating, with three times the
      // batches: wall time moves with whatever else the machine runs, and two batches of a large
      // query at the default batch time gave medians that moved by 20 % between runs.
      TimingOptions thread_timing = timing;
      thread_timing.batches = std::max(15, 3 * timing.batches);
      Measurements thread_m(thread_timing);
      double *wall_1 = nullptr, *wall_n = nullptr;
      if (threads != 1) {
        wall_1 = thread_m.add([&] { return collide(ta, tb, pose, options).contacts.size(); }, true);
        wall_n = thread_m.add([&] { return collide(ta, tb, pose, threaded).contacts.size(); }, true);
      }

      // Where our time goes: the parts of collide() timed one by one. The traversal is the
      // library's own, with the triangle test replaced by recording the leaf pair.
      const SatSetup setup = make_sat_setup(ta.orientations(), pose);
      std::vector<std::pair<int, int>> leaves, leaves_scratch;
      collide(ta, tb, setup, placed, options, SatBackend::Float, FixedParams{}, [&](std::uint32_t f, std::uint32_t s) {
        leaves.emplace_back(int(f), int(s));
        return false;
      });
      leaves_scratch.reserve(leaves.size());
      double* t_setup = m.add([&] { return make_sat_setup(ta.orientations(), pose).axes.size(); });
      double* t_place = m.add([&] { return place_vertices(mb, pose).size(); });
      double* t_traverse = m.add([&] {
        leaves_scratch.clear();
        return collide(ta, tb, setup, placed, options, SatBackend::Float, FixedParams{},
                       [&](std::uint32_t f, std::uint32_t s) {
                         leaves_scratch.emplace_back(int(f), int(s));
                         return false;
                       })
            .stats.pair_tests;
      });
      // The triangle tests as the query makes them: with the wide descent in batches in SIMD
      // lanes (TriangleBatch, collide()'s own), else one by one.
      const Mat3 R = pose.matrix();
      std::vector<ContactPair> batch_contacts;
      double* t_triangles = m.add([&] {
        if (takes_wide_descent(options)) {
          batch_contacts.clear();
          TriangleBatch batch(ma, mb, R, pose.translation);
          for (const auto& [f, s] : leaves) batch.add(f, s, batch_contacts);
          batch.finish(batch_contacts);
          return batch_contacts.size();
        }
        std::size_t hits = 0;
        for (const auto& [f, s] : leaves) {
          const auto& t = mb.triangles[s];
          hits += triangles_intersect(ma.corner(f, 0), ma.corner(f, 1), ma.corner(f, 2), placed[t[0]], placed[t[1]],
                                      placed[t[2]]);
        }
        return hits;
      });
      m.run();
      thread_m.run();
      row.ours = *ours;
      row.fixed = *fixed;
      for (double* t : e2e_times) row.e2e.push_back(*t);
      row.aabb_trav = *aabb_trav;
      row.kdop_trav = *kdop_trav;
      if (wall_1) row.wall_1 = *wall_1, row.wall_n = *wall_n;
      row.t_setup = *t_setup;
      row.t_place = *t_place;
      row.t_traverse = *t_traverse;
      row.t_triangles = *t_triangles;
      fmt::print(stderr, "  {:16} contacts {:6}  ours {} us  fixed {} us  best FCL {} us  KDOP24 trav {} us{}\n",
                 row.pose_label, row.contacts, us(row.ours), us(row.fixed), us(row.best_e2e()), us(row.kdop_trav),
                 wall_1 ? fmt::format("  1->{} threads {:.2f}x", threads, row.wall_1 / row.wall_n) : "");
      rows.push_back(std::move(row));
    }
  }

  if (profile_reps > 0) return 0;

  // Markdown.
  fmt::print("### Time per query (µs of thread CPU time, median of {} interleaved batches of >= {} ms each)\n\n", timing.batches, timing.batch_ms);
  fmt::print("| scene | pose | contacts | ours | fixed | FCL OBBRSS | FCL OBB | FCL RSS | FCL AABB | FCL KDOP24 "
             "| FCL AABB trav. | FCL KDOP24 trav. | ours / best FCL e2e | ours / KDOP24 trav. | fixed / ours |\n");
  fmt::print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  for (const Row& r : rows) {
    fmt::print("| {} | {} | {} | {} | {} |", r.scene, r.pose_label, r.contacts, us(r.ours), us(r.fixed));
    for (std::size_t i = 0; i < r.e2e.size(); ++i)
      fmt::print(" {} |", i == r.best_e2e_index() ? "**" + us(r.e2e[i]) + "**" : us(r.e2e[i]));
    fmt::print(" {} | {} | {:.3f} ({}) | {:.3f} | {:.2f} |\n", us(r.aabb_trav), us(r.kdop_trav), r.ours / r.best_e2e(),
               e2e_names[r.best_e2e_index()], r.ours / r.kdop_trav, r.fixed / r.ours);
  }

  fmt::print("\n### Ratios by pose class (geometric mean over the queries; < 1: ours faster)\n\n");
  fmt::print("| pose class | ours / best FCL end to end | target <= 0.333 | PhysX's level | ours / FCL KDOP24 "
             "world-space traversal | target < 1 | fixed / float | target <= 1.2 |\n"
             "|---|--:|:-:|:-:|--:|:-:|--:|:-:|\n");
  // PhysX 5.6's mesh-mesh overlap query took 0.20 of FCL's fastest end-to-end time on intersecting
  // poses and 0.44 over all classes (held-out poses, measured outside this project): FCL stands in
  // for it here; the targets are <= 0.20 intersecting and <= 0.40 over all classes.
  auto physx_level = [](const std::string& name, double ratio) -> std::string {
    const double target = name == "intersecting" ? 0.20 : name == "all" ? 0.40 : 0.0;
    if (target == 0.0) return "-";
    return fmt::format("<= {:.2f}: {}", target, ratio <= target ? "met" : "**not met**");
  };
  auto ratio_line = [&physx_level](const std::string& name, const std::vector<const Row*>& group) {
    std::vector<double> e, t, x;
    for (const Row* r : group) {
      e.push_back(r->ours / r->best_e2e());
      t.push_back(r->ours / r->kdop_trav);
      x.push_back(r->fixed / r->ours);
    }
    const double ge = geomean(e), gt = geomean(t), gx = geomean(x);
    fmt::print("| {} | {:.3f} | {} | {} | {:.3f} | {} | {:.3f} | {} |\n", name, ge,
               ge <= 1.0 / 3 ? "met" : "**not met**", physx_level(name, ge), gt, gt < 1 ? "met" : "**not met**", gx,
               gx <= 1.2 ? "met" : "**not met**");
  };
  for (PoseClass c : kPoseClasses) {
    std::vector<const Row*> group;
    for (const Row& r : rows)
      if (r.kind == c) group.push_back(&r);
    if (!group.empty()) ratio_line(to_string(c), group);
  }
  {
    std::vector<const Row*> user, all;
    for (const Row& r : rows) {
      all.push_back(&r);
      if (!r.kind) user.push_back(&r);
    }
    if (!user.empty()) ratio_line("--poses file", user);
    ratio_line("all", all);
  }
  std::size_t e2e_fail = 0, trav_fail = 0;
  for (const Row& r : rows) {
    e2e_fail += r.ours / r.best_e2e() > 1.0 / 3;
    trav_fail += r.ours / r.kdop_trav >= 1;
  }
  fmt::print("\nSingle queries missing a target: {} of {} (ours > 1/3 of best FCL end to end), {} of {} (ours >= FCL "
             "KDOP24 traversal).\n",
             e2e_fail, rows.size(), trav_fail, rows.size());

  if (threads != 1) {
    fmt::print("\n### One query on {} threads (wall time, µs, median of {} alternating batches of >= {} ms each)\n\n",
               threads, std::max(15, 3 * timing.batches), timing.batch_ms);
    fmt::print("| scene | pose | contacts | pair tests | 1 thread | {} threads | speed-up | same contacts |\n"
               "|---|---|--:|--:|--:|--:|--:|:-:|\n",
               threads);
    for (const Row& r : rows)
      fmt::print("| {} | {} | {} | {} | {} | {} | {:.2f}x | {} |\n", r.scene, r.pose_label, r.contacts,
                 r.stats.pair_tests, us(r.wall_1), us(r.wall_n), r.wall_1 / r.wall_n,
                 r.threads_same_contacts ? "yes" : "**no**");
  }

  fmt::print("\n### Contact sets: FCL's triangle pairs (-only ours / +only FCL where they differ)\n\n");
  fmt::print("| scene | pose | ours | fixed backend | FCL OBBRSS | FCL OBB | FCL RSS | FCL AABB | FCL KDOP24 | FCL AABB trav. | "
             "FCL KDOP24 trav. |\n|---|---|--:|:-:|--:|--:|--:|--:|--:|--:|--:|\n");
  for (const Row& r : rows) {
    fmt::print("| {} | {} | {} | {} |", r.scene, r.pose_label, r.contacts,
               r.fixed_same_contacts ? "same" : "differs");
    for (const Mismatch& m : r.e2e_check) fmt::print(" {} |", mismatch_text(m));
    fmt::print(" {} | {} |\n", mismatch_text(r.aabb_check), mismatch_text(r.kdop_check));
  }

  fmt::print("\n### Where our time goes (µs per query, each part timed alone) and work done\n\n");
  fmt::print("| scene | pose | ours total | SAT set-up | place vertices | traversal (DOP tests) | "
             "triangle tests | our DOP pair tests | our axis tests | our triangle tests | fixed: pair tests | "
             "fixed: triangle tests | FCL OBB BV tests | FCL KDOP24 BV tests | FCL KDOP24 leaf tests |\n"
             "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  for (const Row& r : rows)
    fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", r.scene,
               r.pose_label, us(r.ours), us(r.t_setup), us(r.t_place), us(r.t_traverse), us(r.t_triangles),
               r.stats.pair_tests, r.stats.axis_tests, r.stats.triangle_tests, r.fixed_stats.pair_tests,
               r.fixed_stats.triangle_tests, r.fcl_obb_bv_tests, r.fcl_kdop_bv_tests, r.fcl_kdop_leaf_tests);

  std::vector<Record> records;
  for (const Row& r : rows) records.push_back(record_of(r, e2e_names, threads));
  if (!csv_path.empty()) write_csv(csv_path, records);
  if (!json_path.empty()) write_json(json_path, records, timing);
  return int(g_sink == 0xdeadbeef);  // never; uses the sink
}
