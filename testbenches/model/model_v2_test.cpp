// The v2 accelerator model against the reference: for every configuration of the exploration
// sweep, on real scenes in the four pose classes, the contact set equals the reference's fixed
// backend, and so do the order-independent counts (pair tests, effective axis tests, leaf pairs,
// triangle tests). Full structures back-pressure or raise the overflow error, never lose a pair.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd_model/model.hpp"
#include "kdopcd_model/resources.hpp"
#include "kdopcd/tree_image.hpp"

namespace kdopcd {
namespace {

struct V2Scene {
  std::string name;
  Mesh first_mesh, second_mesh;
  std::unique_ptr<DopTree> first, second;
  std::array<ClassifiedPose, 4> poses;
  std::array<QueryResult, 4> reference;  // fixed backend, all axes, rule shallower
};

const V2Scene& scene(const std::string& a, const std::string& b) {
  static std::map<std::string, std::unique_ptr<V2Scene>> cache;
  auto& slot = cache[a + "/" + b];
  if (!slot) {
    slot = std::make_unique<V2Scene>();
    V2Scene& s = *slot;
    s.name = a + "/" + b;
    s.first_mesh = load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + a + ".off");
    s.second_mesh = load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + b + ".off");
    s.first = std::make_unique<DopTree>(s.first_mesh, 24, kHardwareTreeBuild);
    s.second = std::make_unique<DopTree>(s.second_mesh, 24, kHardwareTreeBuild);
    s.poses = make_pose_classes(*s.first, *s.second,
                                Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3(0.3, 1, 0.2).normalized())),
                                Vec3(1, 0.5, 0.25));
    for (std::size_t i = 0; i < 4; ++i)
      s.reference[i] = collide(*s.first, *s.second, s.poses[i].pose, kHardwareTraversal, SatBackend::Fixed);
  }
  return *slot;
}

void expect_reference(const V2Scene& sc, std::size_t i, const model::ModelResult& m) {
  SCOPED_TRACE(sc.name + " " + to_string(sc.poses[i].kind));
  const QueryResult& ref = sc.reference[i];
  EXPECT_FALSE(m.stats.stack_overflow);
  EXPECT_EQ(m.contacts, ref.contacts);
  EXPECT_EQ(m.stats.pair_tests, ref.stats.pair_tests);
  EXPECT_EQ(m.stats.axis_tests, ref.stats.axis_tests);
  EXPECT_EQ(m.stats.leaf_pairs, ref.stats.leaf_pairs);
  EXPECT_EQ(m.stats.triangle_tests, ref.stats.triangle_tests);
  EXPECT_EQ(m.stats.axis_tests_issued, m.stats.axis_tests + m.stats.axis_tests_cancelled);
  EXPECT_GT(m.stats.cycles, 0u);
}

// The exploration's configurations (scripts/model-explore.sh): each move alone and combined.
struct Config {
  const char* name;
  void (*apply)(model::ModelParams&);
};
const Config kConfigs[] = {
    {"default", [](model::ModelParams&) {}},
    {"one_pair_external", [](model::ModelParams& p) {
       p.pairs_in_flight = 1; p.sat_lanes = 1; p.tree_memory = model::TreeMemory::External; }},
    {"one_pair_in_flight", [](model::ModelParams& p) { p.pairs_in_flight = 1; }},
    {"four_in_flight", [](model::ModelParams& p) { p.pairs_in_flight = 4; }},
    {"one_lane", [](model::ModelParams& p) { p.sat_lanes = 1; }},
    {"six_lanes_three_contexts", [](model::ModelParams& p) { p.sat_lanes = 6; p.sat_contexts = 3; }},
    {"two_units", [](model::ModelParams& p) { p.sat_units = 2; }},
    {"four_units_64_in_flight", [](model::ModelParams& p) { p.sat_units = 4; p.pairs_in_flight = 64; }},
    {"triangle_ii_8", [](model::ModelParams& p) { p.triangle_ii = 8; }},
    {"external_no_cache", [](model::ModelParams& p) { p.tree_memory = model::TreeMemory::External; }},
    {"external_cache_1024", [](model::ModelParams& p) {
       p.tree_memory = model::TreeMemory::External; p.node_cache_lines = 1024; p.bus_width = 256; }},
    {"slow_ram", [](model::ModelParams& p) { p.ram_latency = 5; p.pipeline_latency = 20; }},
    {"rule_first_12_axes", [](model::ModelParams& p) { p.rule = DescentRule::First; p.axes = 12; }},
};

class V2Configs : public testing::TestWithParam<std::tuple<std::string, std::size_t>> {};

TEST_P(V2Configs, EqualsReferenceOnRealScenes) {
  const auto& [pair, config] = GetParam();
  const auto slash = pair.find('/');
  const V2Scene& sc = scene(pair.substr(0, slash), pair.substr(slash + 1));
  model::ModelParams p = model::v2_params();
  kConfigs[config].apply(p);
  for (std::size_t i = 0; i < 4; ++i) {
    const model::ModelResult m = model::simulate(*sc.first, *sc.second, sc.poses[i].pose, p);
    if (p.axes == 0 && p.rule == DescentRule::Shallower) {
      expect_reference(sc, i, m);
    } else {  // another n or rule: compare with the reference run the same way
      TraversalOptions o;
      o.axes = p.axes;
      o.rule = p.rule;
      const QueryResult ref = collide(*sc.first, *sc.second, sc.poses[i].pose, o, SatBackend::Fixed);
      EXPECT_EQ(m.contacts, ref.contacts);
      EXPECT_EQ(m.stats.pair_tests, ref.stats.pair_tests);
      EXPECT_EQ(m.stats.axis_tests, ref.stats.axis_tests);
      EXPECT_EQ(m.stats.triangle_tests, ref.stats.triangle_tests);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sweep, V2Configs,
                         testing::Combine(testing::Values("cow/cow", "elephant/hand", "mushroom/couplingdown"),
                                          testing::Range<std::size_t>(0, std::size(kConfigs))),
                         [](const auto& info) {
                           std::string s = std::get<0>(info.param) + "_" + kConfigs[std::get<1>(info.param)].name;
                           for (char& c : s)
                             if (c == '/') c = '_';
                           return s;
                         });

// A separated pose, by the v2 timing contract: the root pair is popped in cycle 1, its records
// are in the SAT after ram_latency clocks, its verdict leaves the wide unit sat_latency later,
// and the engine is done in that cycle.
TEST(ModelV2, SeparatedPoseCycleCountByContract) {
  const V2Scene& sc = scene("cow", "cow");
  model::ModelParams p = model::v2_params();
  ASSERT_EQ(p.pipeline_latency, 0);  // the default: the RTL wide unit's latency
  const model::ModelResult m = model::simulate(*sc.first, *sc.second, sc.poses[3].pose, p);
  ASSERT_EQ(m.stats.pair_tests, 1u);
  EXPECT_EQ(m.stats.cycles, 1u + std::uint64_t(p.ram_latency) + std::uint64_t(model::kWideSatLatency));
  EXPECT_EQ(m.stats.pipeline_latency, model::kWideSatLatency);
}

// Tiny structures: every one back-pressures (same answer, more cycles) ...
TEST(ModelV2, TinyQueuesBackPressureWithoutLoss) {
  const V2Scene& sc = scene("cow", "cow");
  model::ModelParams roomy = model::v2_params();
  model::ModelParams tiny = roomy;
  tiny.triangle_queue = 1;
  tiny.contact_queue = 1;
  tiny.pairs_in_flight = 2;
  tiny.triangle_ii = 3;
  for (std::size_t i = 0; i < 2; ++i) {
    const model::ModelResult a = model::simulate(*sc.first, *sc.second, sc.poses[i].pose, roomy);
    const model::ModelResult b = model::simulate(*sc.first, *sc.second, sc.poses[i].pose, tiny);
    expect_reference(sc, i, b);
    EXPECT_GT(b.stats.cycles, a.stats.cycles);
    EXPECT_LE(b.stats.max_triangle_queue, 1u);
    EXPECT_LE(b.stats.max_contact_queue, 1u);
  }
}

// ... except the pending set, whose overflow (too small for the traversal) is the reported error.
TEST(ModelV2, TinyPendingSetIsAnErrorNotAWrongAnswer) {
  const V2Scene& sc = scene("cow", "cow");
  model::ModelParams p = model::v2_params();
  p.stack_depth = 3;
  const model::ModelResult m = model::simulate(*sc.first, *sc.second, sc.poses[0].pose, p);
  EXPECT_TRUE(m.stats.stack_overflow);
  EXPECT_LE(m.stats.max_stack_depth, 3u);
  // A pending set as deep as the credits need is enough: no overflow, the reference's answer.
  p.stack_depth = 2 * p.pairs_in_flight + 64;
  expect_reference(sc, 0, model::simulate(*sc.first, *sc.second, sc.poses[0].pose, p));
}

// Several engines run several poses at once: each query's answer is its own, and the batch takes
// fewer cycles than the same queries one after the other.
TEST(ModelV2, EnginesShareTheTreesAndOverlapQueries) {
  const V2Scene& sc = scene("elephant", "hand");
  std::vector<Pose> poses;
  for (int r = 0; r < 2; ++r)
    for (const ClassifiedPose& cp : sc.poses) poses.push_back(cp.pose);
  model::ModelParams one = model::v2_params();
  model::ModelParams three = one;
  three.engines = 3;
  const model::BatchResult a = model::simulate_batch(*sc.first, *sc.second, poses, one);
  const model::BatchResult b = model::simulate_batch(*sc.first, *sc.second, poses, three);
  ASSERT_EQ(a.queries.size(), poses.size());
  ASSERT_EQ(b.queries.size(), poses.size());
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    expect_reference(sc, i % 4, b.queries[i]);
    EXPECT_EQ(a.queries[i].stats.cycles, b.queries[i].stats.cycles);  // on chip: no shared port
    sum += a.queries[i].stats.cycles;
  }
  EXPECT_EQ(a.cycles, sum);  // one engine: back to back
  EXPECT_LT(b.cycles, a.cycles);
}

TEST(ModelV2, BadParametersAreInputErrors) {
  const V2Scene& sc = scene("cow", "cow");
  const Pose& pose = sc.poses[3].pose;
  auto expect_bad = [&](void (*f)(model::ModelParams&)) {
    model::ModelParams p = model::v2_params();
    f(p);
    EXPECT_THROW(model::simulate(*sc.first, *sc.second, pose, p), InputError);
  };
  expect_bad([](model::ModelParams& p) { p.pairs_in_flight = 0; });
  expect_bad([](model::ModelParams& p) { p.sat_units = 17; });
  expect_bad([](model::ModelParams& p) { p.triangle_ii = 0; });
  expect_bad([](model::ModelParams& p) { p.engines = 65; });
  expect_bad([](model::ModelParams& p) { p.continue_axes = true; });
  expect_bad([](model::ModelParams& p) { p.clock_mhz = std::nan(""); });
  expect_bad([](model::ModelParams& p) { p.arch = model::Architecture::Paper; p.engines = 2; });
  expect_bad([](model::ModelParams& p) { p.arch = model::Architecture::Paper; p.pipelines = 0; });
  expect_bad([](model::ModelParams& p) { p.arch = model::Architecture::Paper; p.mem_latency = -5; });
}

// The engines built with the contract's parameters take v2_params() and refuse the rest with an
// input error that names the engine and the option.
TEST(ModelV2, RequireV2ParamsNamesTheOption) {
  namespace c2 = contract::v2;
  const std::string engine = "--engine rtl: the verilated v2 top";
  auto message = [&](void (*f)(model::ModelParams&), int k) {
    model::ModelParams p = model::v2_params();
    f(p);
    try {
      model::require_v2_params(p, k, engine);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  auto same = [](model::ModelParams&) {};
  EXPECT_EQ(message(same, c2::kK), "(accepted)");
  EXPECT_EQ(message([](model::ModelParams& p) { p.pipeline_latency = c2::kSatLat; }, c2::kK), "(accepted)");
  EXPECT_EQ(message([](model::ModelParams& p) { p.stack_depth = 6; }, c2::kK), "(accepted)");
  EXPECT_EQ(message(same, c2::kK - 2), engine + " has k = " + std::to_string(c2::kK) + " (--k)");
  EXPECT_EQ(message([](model::ModelParams& p) { p.arch = model::Architecture::Paper; }, c2::kK),
            engine + " has the v2 architecture (--arch v2)");
  EXPECT_EQ(message([](model::ModelParams& p) { p.pipeline_latency = c2::kSatLat + 1; }, c2::kK),
            engine + " has an " + std::to_string(c2::kSatLat) + "-clock SAT unit (--latency)");
  EXPECT_EQ(message([](model::ModelParams& p) { p.pairs_in_flight = c2::kPairsInFlight / 2; }, c2::kK),
            engine + " has " + std::to_string(c2::kPairsInFlight) + " pairs in flight (--pairs-in-flight)");
  EXPECT_EQ(message([](model::ModelParams& p) { p.stack_depth = c2::kPendingDepth + 1; }, c2::kK),
            engine + " has " + std::to_string(c2::kPendingDepth) + " pending entries at most (--stack-depth)");
  EXPECT_EQ(message([](model::ModelParams& p) { p.engines = 2; }, c2::kK), engine + " has one engine (--engines 1)");
}

// The resource estimate follows the structure: wide lanes cost 6 products per lane and unit; the
// on-chip trees are counted once per two read ports; cow/cow fits the larger parts.
TEST(ModelV2, ResourceEstimateFollowsTheStructure) {
  const V2Scene& sc = scene("cow", "cow");
  model::ModelParams p = model::v2_params();
  const double s = scene_scale(*sc.first, *sc.second);
  const TreeImage a = make_tree_image(*sc.first, ImageParams{p.fixed.b, p.vertex_bits, 64, s});
  const TreeImage b = make_tree_image(*sc.second, ImageParams{p.fixed.b, p.vertex_bits, 64, s});
  const model::Resources one = model::estimate_resources(p, 24, a, b);
  EXPECT_EQ(one.sat_products, 6 * 24);
  EXPECT_EQ(one.ram_copies, 1);
  const std::uint64_t node_bits = std::uint64_t(64 + 24 * (p.fixed.b + 2));
  EXPECT_EQ(one.tree_ram_bits, (a.nodes.size() + b.nodes.size()) * node_bits +
                                   (a.triangles.size() + b.triangles.size()) * std::uint64_t(9 * (p.vertex_bits + 2)));
  p.sat_units = 3;
  const model::Resources three = model::estimate_resources(p, 24, a, b);
  EXPECT_EQ(three.sat_products, 3 * one.sat_products);
  EXPECT_EQ(three.ram_copies, 2);
  bool some_fit = false;
  for (const model::FpgaPart& part : model::fpga_parts()) some_fit |= model::fit_part(part, p, 24, a, b).ram_fits;
  EXPECT_TRUE(some_fit);
}

}  // namespace
}  // namespace kdopcd
