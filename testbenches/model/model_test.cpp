// The SystemC model (paper configuration) against the reference (docs/design.md, verification
// ladder): contact set equal to collide(--backend
// fixed); pair tests, effective axis tests, triangle tests and the largest stack depth equal to the
// reference traversal with the same rule and n; a tiny stack is an error, never a wrong answer.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "kdopcd/collide.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd_model/model.hpp"

namespace kdopcd {
namespace {

struct Scene {
  Mesh mesh;
  std::unique_ptr<DopTree> tree;
  std::array<ClassifiedPose, 4> poses;
};

const Scene& cow() {
  static Scene* s = [] {
    auto* sc = new Scene{load_mesh(std::string(KDOPCD_MESH_DIR) + "/cow.off"), nullptr, {}};
    sc->tree = std::make_unique<DopTree>(sc->mesh, 24, kHardwareTreeBuild);
    sc->poses = make_pose_classes(*sc->tree, *sc->tree,
                                  Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3(0.3, 1, 0.2).normalized())),
                                  Vec3(1, 0.5, 0.25));
    return sc;
  }();
  return *s;
}

void expect_equal_to_reference(const model::ModelParams& p, bool counts) {
  const Scene& sc = cow();
  for (const ClassifiedPose& cp : sc.poses) {
    SCOPED_TRACE(to_string(cp.kind));
    TraversalOptions o;
    o.axes = p.axes;
    o.rule = p.rule;
    const QueryResult ref = collide(*sc.tree, *sc.tree, cp.pose, o, SatBackend::Fixed, p.fixed);
    const model::ModelResult m = model::simulate(*sc.tree, *sc.tree, cp.pose, p);
    EXPECT_FALSE(m.stats.stack_overflow);
    EXPECT_EQ(m.contacts, ref.contacts);
    EXPECT_GT(m.stats.cycles, 0u);
    EXPECT_EQ(m.stats.axis_tests_issued, m.stats.axis_tests + m.stats.axis_tests_cancelled);
    if (!counts) continue;
    EXPECT_EQ(m.stats.pair_tests, ref.stats.pair_tests);
    EXPECT_EQ(m.stats.axis_tests, ref.stats.axis_tests);
    EXPECT_EQ(m.stats.leaf_pairs, ref.stats.leaf_pairs);
    EXPECT_EQ(m.stats.triangle_tests, ref.stats.triangle_tests);
    EXPECT_EQ(m.stats.max_stack_depth, ref.stats.max_stack_depth);
    EXPECT_EQ(m.stats.axis_tests_continued, 0u);
  }
}

TEST(Model, LatencyFormulaMatchesRtlTable) {
  EXPECT_EQ(model::rtl_pipeline_latency(18, 18), 8);
  EXPECT_EQ(model::rtl_pipeline_latency(35, 35), 9);
  EXPECT_EQ(model::rtl_pipeline_latency(18, 18, 25), 7);
}

TEST(Model, CowAllAxesEqualsReference) { expect_equal_to_reference(model::ModelParams{}, true); }

TEST(Model, CowSixAxesFirstRuleEqualsReference) {
  model::ModelParams p;
  p.axes = 6;
  p.rule = DescentRule::First;
  expect_equal_to_reference(p, true);
}

TEST(Model, CowTwoPipelines35BitsEqualsReference) {
  model::ModelParams p;
  p.axes = 12;
  p.pipelines = 2;
  p.fixed = FixedParams{35, 35, 35};
  expect_equal_to_reference(p, true);
}

TEST(Model, CowContinuedTestingKeepsContacts) {
  model::ModelParams p;
  p.axes = 3;
  p.continue_axes = true;
  expect_equal_to_reference(p, false);
}

TEST(Model, SlowMemoryChangesCyclesNotAnswers) {
  const Scene& sc = cow();
  model::ModelParams fast, slow;
  slow.mem_latency = 20;
  slow.cycles_per_beat = 2;
  const auto a = model::simulate(*sc.tree, *sc.tree, sc.poses[1].pose, fast);
  const auto b = model::simulate(*sc.tree, *sc.tree, sc.poses[1].pose, slow);
  EXPECT_EQ(a.contacts, b.contacts);
  EXPECT_EQ(a.stats.pair_tests, b.stats.pair_tests);
  EXPECT_GT(b.stats.cycles, a.stats.cycles);
}

TEST(Model, TinyStackIsAnErrorNotAWrongAnswer) {
  const Scene& sc = cow();
  model::ModelParams p;
  p.stack_depth = 3;
  const auto m = model::simulate(*sc.tree, *sc.tree, sc.poses[0].pose, p);
  EXPECT_TRUE(m.stats.stack_overflow);
  TraversalOptions o;
  o.stack_capacity = 3;
  EXPECT_THROW(collide(*sc.tree, *sc.tree, sc.poses[0].pose, o, SatBackend::Fixed), StackOverflowError);
  // The next query on the same accelerator runs normally after the error.
  const auto ok = model::simulate(*sc.tree, *sc.tree, sc.poses[0].pose, model::ModelParams{});
  EXPECT_FALSE(ok.stats.stack_overflow);
  EXPECT_EQ(ok.contacts, collide(*sc.tree, *sc.tree, sc.poses[0].pose, kHardwareTraversal, SatBackend::Fixed).contacts);
}

}  // namespace
}  // namespace kdopcd

namespace kdopcd {
namespace {

// The timing of one pair, by hand (docs/model.md "Timing"): the root pair is popped in cycle 1
// and its two node records requested; memory starts them in cycle 2 and 2 + 11; each takes
// mem_latency 2 + 9 beats (b = 18: 64 + 24 * 20 bits in 64-bit beats); the records are latched in
// cycle 24, the first axis issued in 25, its separating result leaves the 8-stage pipeline in 33,
// which cancels the 7 axes behind it, and the accelerator is done in that cycle.
TEST(Model, SeparatedPoseCycleCountByHand) {
  const Scene& sc = cow();
  const auto m = model::simulate(*sc.tree, *sc.tree, sc.poses[3].pose, model::ModelParams{});
  ASSERT_EQ(m.stats.pair_tests, 1u);
  ASSERT_EQ(m.stats.axis_tests, 1u);
  EXPECT_EQ(m.stats.cycles, 1u + 1u + 2u * (2u + 9u) + 1u + 8u);
  EXPECT_EQ(m.stats.axis_tests_issued, 8u);
  EXPECT_EQ(m.stats.axis_tests_cancelled, 7u);
  EXPECT_EQ(m.stats.mem_beats, 18u);
}

// More poses: 3 rotations x 4 classes, rule `second`, 3 pipelines, continued testing off.
TEST(Model, CowMoreRotationsSecondRuleThreePipelines) {
  const Scene& sc = cow();
  for (double angle : {0.1, 1.2, 2.5}) {
    const auto poses = make_pose_classes(*sc.tree, *sc.tree,
                                         Eigen::Quaterniond(Eigen::AngleAxisd(angle, Vec3(1, -0.4, 0.7).normalized())),
                                         Vec3(-0.3, 1, 0.6));
    for (const ClassifiedPose& cp : poses) {
      SCOPED_TRACE(std::string(to_string(cp.kind)) + " angle " + std::to_string(angle));
      model::ModelParams p;
      p.rule = DescentRule::Second;
      p.pipelines = 3;
      p.axes = 16;
      TraversalOptions o;
      o.axes = 16;
      o.rule = DescentRule::Second;
      const QueryResult ref = collide(*sc.tree, *sc.tree, cp.pose, o, SatBackend::Fixed);
      const auto m = model::simulate(*sc.tree, *sc.tree, cp.pose, p);
      EXPECT_EQ(m.contacts, ref.contacts);
      EXPECT_EQ(m.stats.pair_tests, ref.stats.pair_tests);
      EXPECT_EQ(m.stats.axis_tests, ref.stats.axis_tests);
      EXPECT_EQ(m.stats.triangle_tests, ref.stats.triangle_tests);
      EXPECT_EQ(m.stats.max_stack_depth, ref.stats.max_stack_depth);
    }
  }
}

}  // namespace
}  // namespace kdopcd

#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tree_image.hpp"

namespace kdopcd {
namespace {

// The model's pipeline reads the tree image's coefficients (quantize_coefficient(a / s, b)); the
// reference's fixed backend uses QuantizedTree (scale_coefficient, a / s rounded up first). They
// must be the same integers, or the model would not be bit-accurate with the reference.
TEST(Model, ImageCoefficientsEqualReferenceQuantization) {
  const Scene& sc = cow();
  const double s = scene_scale(*sc.tree, *sc.tree);
  for (int b : {18, 35}) {
    const TreeImage im = make_tree_image(*sc.tree, ImageParams{b, 24, 64, s});
    const QuantizedTree q(*sc.tree, s, b);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < im.nodes.size(); ++i)
      for (int d = 0; d < im.k; ++d) differ += im.nodes[i].coeffs[std::size_t(d)] != q.coefficients(i)[d];
    EXPECT_EQ(differ, 0u) << "b = " << b;
  }
}

}  // namespace
}  // namespace kdopcd

#include "far_scenes.hpp"

namespace kdopcd {
namespace {

// Position-independent fixed point (docs/fixed-point.md §2): the cow (snapped so that moving it
// is exact, far_scenes.hpp) moved 1e3 .. 1e15 from the origin gives the model's answers at the
// origin, cycle for cycle, in both architectures: the images differ only in their stored centres,
// the axis table and T' not at all.
TEST(Model, FarFromOriginSameAnswersAndCyclesAsAtTheOrigin) {
  const Mesh cow0 = far::snapped_mesh(load_mesh(std::string(KDOPCD_MESH_DIR) + "/cow.off"));
  const DopTree t0(cow0, 24, kHardwareTreeBuild);
  const auto general = make_pose_classes(
      t0, t0, Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3(0.3, 1, 0.2).normalized())), Vec3(1, 0.5, 0.25));
  const auto half_turn = make_pose_classes(t0, t0, Eigen::Quaterniond(0, 1, 0, 0), Vec3(0.2, 1, 0.5));
  const std::vector<far::MovedCase> cases{{far::snapped_pose(general[0].pose), false},
                                          {far::snapped_pose(general[1].pose), false},
                                          {far::snapped_pose(half_turn[0].pose), true}};
  for (const model::ModelParams& p : {model::paper_params(), model::v2_params()}) {
    SCOPED_TRACE(to_string(p.arch));
    std::vector<model::ModelResult> origin;
    for (const far::MovedCase& c : cases) origin.push_back(model::simulate(t0, t0, c.pose, p));
    ASSERT_GT(origin[0].contacts.size(), 0u);
    far::for_each_moved_case(cow0, t0, cases,
                             [&](double, std::size_t i, const DopTree& first, const DopTree& second, const Pose& pose) {
                               const model::ModelResult m = model::simulate(first, second, pose, p);
                               EXPECT_EQ(m.contacts, origin[i].contacts);
                               EXPECT_EQ(m.stats.cycles, origin[i].stats.cycles);
                               EXPECT_EQ(m.stats.pair_tests, origin[i].stats.pair_tests);
                               EXPECT_EQ(m.stats.triangle_tests, origin[i].stats.triangle_tests);
                               EXPECT_EQ(m.stats.mem_beats, origin[i].stats.mem_beats);
                             });
  }
}

}  // namespace
}  // namespace kdopcd
