// The verilated accelerator top (rtl/paper/kdopcd_top.sv) against the reference and the SystemC model
// (docs/accelerator.md): per query, the contact set equals collide(..., Fixed); with the
// bus models stall-free, the cycle count and every counter equal the model's exactly; with random
// stalls and back-pressure on every handshake the contact set and the traversal are unchanged; a
// tiny stack raises the overflow flag. The AXI protocol assertions (rtl/verif/) run in every query.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "far_scenes.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/rtl_top_engine.hpp"
#include "kdopcd_model/model.hpp"

namespace kdopcd {
namespace {

// scripts/top-coverage.sh: the coverage build writes the counters of all queries at the end.
class CoverageEnvironment : public ::testing::Environment {
  void TearDown() override {
    if (const char* path = std::getenv("KDOPCD_TOP_COVERAGE"))
      if (!rtl::write_top_coverage(path)) std::fprintf(stderr, "top_tb: not a coverage build\n");
  }
};
[[maybe_unused]] ::testing::Environment* const coverage_env =
    ::testing::AddGlobalTestEnvironment(new CoverageEnvironment);

struct Scene {
  std::string name;
  Mesh first_mesh, second_mesh;
  std::unique_ptr<DopTree> first, second;
  std::array<ClassifiedPose, 4> poses;
};

Scene make_scene(const std::string& a, const std::string& b, double angle) {
  Scene s{a + "/" + b, load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + a + ".off"),
          load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + b + ".off"), nullptr, nullptr, {}};
  s.first = std::make_unique<DopTree>(s.first_mesh, 24, kHardwareTreeBuild);
  s.second = std::make_unique<DopTree>(s.second_mesh, 24, kHardwareTreeBuild);
  s.poses = make_pose_classes(*s.first, *s.second,
                              Eigen::Quaterniond(Eigen::AngleAxisd(angle, Vec3(0.3, 1, 0.2).normalized())),
                              Vec3(1, 0.5, 0.25));
  return s;
}

const Scene& cow() {
  static const Scene s = make_scene("cow", "cow", 0.5);
  return s;
}
const Scene& elephant_hand() {
  static const Scene s = make_scene("elephant", "hand", 1.0);
  return s;
}

const Scene& mushroom_couplingdown() {
  static const Scene s = make_scene("mushroom", "couplingdown", 0.8);
  return s;
}

// Per query: contacts = reference; every counter = the model's (cycles included).
void expect_cycle_exact(const Scene& sc, const model::ModelParams& mp) {
  const rtl::TopParams tp = rtl::top_params_like(mp);
  for (const ClassifiedPose& cp : sc.poses) {
    SCOPED_TRACE(sc.name + " " + to_string(cp.kind));
    TraversalOptions o;
    o.axes = mp.axes;
    o.rule = mp.rule;
    const QueryResult ref = collide(*sc.first, *sc.second, cp.pose, o, SatBackend::Fixed, mp.fixed);
    const model::ModelResult m = model::simulate(*sc.first, *sc.second, cp.pose, mp);
    const rtl::TopResult r = rtl::simulate_top(*sc.first, *sc.second, cp.pose, tp);
    ASSERT_TRUE(r.started);
    EXPECT_FALSE(r.stack_overflow);
    EXPECT_FALSE(r.bus_error);
    EXPECT_EQ(r.contacts, ref.contacts);
    EXPECT_EQ(r.contacts, m.contacts);
    const rtl::TopCounters& c = r.counters;
    EXPECT_EQ(c.cycles, m.stats.cycles);
    // The harness counts from the AXI-Lite write of START; the register file hands START to the
    // controller one edge later (tick 0 of the timing contract).
    EXPECT_EQ(r.clock_edges, c.cycles + 1);
    EXPECT_EQ(c.pair_tests, m.stats.pair_tests);
    EXPECT_EQ(c.axis_issued, m.stats.axis_tests_issued);
    EXPECT_EQ(c.axis_effective, m.stats.axis_tests);
    EXPECT_EQ(c.axis_cancelled, m.stats.axis_tests_cancelled);
    EXPECT_EQ(c.axis_continued, m.stats.axis_tests_continued);
    EXPECT_EQ(c.leaf_pairs, m.stats.leaf_pairs);
    EXPECT_EQ(c.tri_tests, m.stats.triangle_tests);
    EXPECT_EQ(c.contacts, m.stats.contacts);
    EXPECT_EQ(c.max_stack, m.stats.max_stack_depth);
    EXPECT_EQ(c.mem_beats, m.stats.mem_beats);
    EXPECT_EQ(c.wasted_beats, m.stats.mem_beats_wasted);
    EXPECT_EQ(c.stall_cycles, m.stats.stall_cycles);
    std::printf("  %-18s %-13s contacts %4zu  pair tests %6llu  cycles rtl %8llu  model %8llu  (%.2f Mcycles/s)\n",
                sc.name.c_str(), to_string(cp.kind), r.contacts.size(), (unsigned long long)c.pair_tests,
                (unsigned long long)c.cycles, (unsigned long long)m.stats.cycles,
                r.sim_seconds > 0 ? double(c.cycles) / r.sim_seconds * 1e-6 : 0.0);
  }
}

TEST(Top, CowCyclesEqualModelAllAxes) { expect_cycle_exact(cow(), model::ModelParams{}); }

TEST(Top, CowCyclesEqualModelSixAxesFirstRule) {
  model::ModelParams p;
  p.axes = 6;
  p.rule = DescentRule::First;
  expect_cycle_exact(cow(), p);
}

TEST(Top, CowCyclesEqualModelContinuedTestingSlowMemory) {
  model::ModelParams p;
  p.axes = 3;
  p.continue_axes = true;
  p.mem_latency = 5;
  p.cycles_per_beat = 2;
  expect_cycle_exact(cow(), p);
}

// One outstanding read (the second verilated top): prefetch records wait in the fetch queue and
// an abandoned prefetch drops them there (the model drops the same bursts).
TEST(Top, CowCyclesEqualModelOneOutstandingRead) {
  model::ModelParams p;
  p.max_outstanding = 1;
  expect_cycle_exact(cow(), p);
  p.axes = 4;
  p.rule = DescentRule::Second;
  expect_cycle_exact(elephant_hand(), p);
}

TEST(Top, ElephantHandCyclesEqualModelSecondRule) {
  model::ModelParams p;
  p.axes = 12;
  p.rule = DescentRule::Second;
  expect_cycle_exact(elephant_hand(), p);
}

TEST(Top, MushroomCouplingdownCyclesEqualModelContinuedTesting) {
  model::ModelParams p;
  p.axes = 16;
  p.continue_axes = true;
  expect_cycle_exact(mushroom_couplingdown(), p);
}

// Random stalls on AR/R, AXI-Lite and the contact stream: the answer and the traversal stay.
TEST(Top, RandomStallsKeepContactsAndTraversal) {
  for (const Scene* sc : {&cow(), &elephant_hand(), &mushroom_couplingdown()}) {
    for (const ClassifiedPose& cp : sc->poses) {
      SCOPED_TRACE(sc->name + " " + to_string(cp.kind));
      rtl::TopParams calm;
      const rtl::TopResult a = rtl::simulate_top(*sc->first, *sc->second, cp.pose, calm);
      rtl::TopParams stormy = calm;
      stormy.stalls = true;
      stormy.stall_probability = 0.3;
      stormy.seed = 17 + std::uint64_t(cp.kind);
      const rtl::TopResult b = rtl::simulate_top(*sc->first, *sc->second, cp.pose, stormy);
      // ... and on the top with one outstanding read, where stalls also hit queued prefetches.
      stormy.max_outstanding = 1;
      const rtl::TopResult c = rtl::simulate_top(*sc->first, *sc->second, cp.pose, stormy);
      EXPECT_EQ(c.contacts, a.contacts);
      EXPECT_EQ(c.counters.pair_tests, a.counters.pair_tests);
      EXPECT_EQ(b.contacts, a.contacts);
      EXPECT_EQ(b.counters.pair_tests, a.counters.pair_tests);
      EXPECT_EQ(b.counters.axis_effective, a.counters.axis_effective);
      EXPECT_EQ(b.counters.tri_tests, a.counters.tri_tests);
      EXPECT_FALSE(b.stack_overflow);
      if (a.counters.pair_tests > 1) {
        EXPECT_GT(b.counters.cycles, a.counters.cycles);
      }
    }
  }
}

TEST(Top, TinyStackRaisesOverflowThenRecovers) {
  const Scene& sc = cow();
  const Pose& pose = sc.poses[0].pose;  // intersecting: needs a deep stack
  rtl::TopParams p;
  p.stack_limit = 3;
  const rtl::TopResult bad = rtl::simulate_top(*sc.first, *sc.second, pose, p);
  EXPECT_TRUE(bad.stack_overflow);
  model::ModelParams mp;
  mp.stack_depth = 3;
  const model::ModelResult m = model::simulate(*sc.first, *sc.second, pose, mp);
  EXPECT_TRUE(m.stats.stack_overflow);
  EXPECT_EQ(bad.counters.cycles, m.stats.cycles);
  EXPECT_EQ(bad.counters.pair_tests, m.stats.pair_tests);
  // The next query with the full stack is normal.
  const rtl::TopResult good = rtl::simulate_top(*sc.first, *sc.second, pose, rtl::TopParams{});
  EXPECT_FALSE(good.stack_overflow);
  EXPECT_EQ(good.contacts,
            collide(*sc.first, *sc.second, pose, kHardwareTraversal, SatBackend::Fixed, FixedParams{}).contacts);
}

// Position-independent fixed point (docs/fixed-point.md §2): the snapped cow (far_scenes.hpp)
// moved 1e3 .. 1e15 from the origin gives the top's answers, counters and cycles at the origin,
// and the model's.
TEST(Top, FarFromOriginSameAnswersAndCyclesAsAtTheOrigin) {
  const Mesh cow0 = far::snapped_mesh(load_mesh(std::string(KDOPCD_MESH_DIR) + "/cow.off"));
  const DopTree t0(cow0, 24, kHardwareTreeBuild);
  const auto general = make_pose_classes(
      t0, t0, Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3(0.3, 1, 0.2).normalized())), Vec3(1, 0.5, 0.25));
  const auto half_turn = make_pose_classes(t0, t0, Eigen::Quaterniond(0, 1, 0, 0), Vec3(0.2, 1, 0.5));
  const std::vector<far::MovedCase> cases{{far::snapped_pose(general[0].pose), false},
                                          {far::snapped_pose(half_turn[0].pose), true}};
  std::vector<rtl::TopResult> origin;
  for (const far::MovedCase& c : cases) origin.push_back(rtl::simulate_top(t0, t0, c.pose, rtl::TopParams{}));
  ASSERT_GT(origin[0].contacts.size(), 0u);
  far::for_each_moved_case(cow0, t0, cases,
                           [&](double, std::size_t i, const DopTree& first, const DopTree& second, const Pose& pose) {
                             const rtl::TopResult r = rtl::simulate_top(first, second, pose, rtl::TopParams{});
                             const model::ModelResult m = model::simulate(first, second, pose, model::ModelParams{});
                             ASSERT_TRUE(r.started);
                             EXPECT_EQ(r.contacts, origin[i].contacts);
                             EXPECT_EQ(r.contacts, m.contacts);
                             EXPECT_EQ(r.counters.cycles, origin[i].counters.cycles);
                             EXPECT_EQ(r.counters.cycles, m.stats.cycles);
                             EXPECT_EQ(r.counters.pair_tests, origin[i].counters.pair_tests);
                             EXPECT_EQ(r.counters.tri_tests, origin[i].counters.tri_tests);
                           });
}

TEST(Top, WrongConfigurationIsAnError) {
  rtl::TopParams p;
  p.fixed = FixedParams{35, 35, 35};
  EXPECT_THROW(rtl::simulate_top(*cow().first, *cow().second, cow().poses[3].pose, p), std::invalid_argument);
}

}  // namespace
}  // namespace kdopcd
