// The block-level co-simulation (docs/cosim.md) against the SystemC model's v2, the cycle-exact
// golden: for each block verilated alone (sat, tri, ctrl, fetch), all four together, the whole
// verilated top behind a bus host (top) and none, on
// real scenes in the four pose classes, the run's contacts, every counter and the cycle count
// equal model::simulate at v2_params(); and the blocks' output ports, clock by clock, equal those
// of the pure signal-level run (a difference is reported as its first clock and signal).
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd_cosim/cosim.hpp"
#include "kdopcd_model/model.hpp"
#include "real_scenes.hpp"

namespace kdopcd {
namespace {

namespace c2 = contract::v2;
using cosim::RtlBlocks;

const RtlBlocks kNone{}, kSat{.sat = true}, kTri{.tri = true}, kCtrl{.ctrl = true}, kFetch{.fetch = true},
    kSatTri{.sat = true, .tri = true}, kAll = RtlBlocks::all(), kTop{.top = true};
const std::vector<RtlBlocks> kConfigs{kNone, kSat, kTri, kCtrl, kFetch, kAll, kTop};

using real_scenes::Scene;
using real_scenes::scene;  // the scenes of the v2 top's testbench (top_v2_tb)

void expect_stats_equal(const model::ModelStats& r, const model::ModelStats& m) {
  EXPECT_EQ(r.cycles, m.cycles);
  EXPECT_EQ(r.pair_tests, m.pair_tests);
  EXPECT_EQ(r.axis_tests, m.axis_tests);
  EXPECT_EQ(r.axis_tests_issued, m.axis_tests_issued);
  EXPECT_EQ(r.leaf_pairs, m.leaf_pairs);
  EXPECT_EQ(r.triangle_tests, m.triangle_tests);
  EXPECT_EQ(r.contacts, m.contacts);
  EXPECT_EQ(r.max_stack_depth, m.max_stack_depth);
  EXPECT_EQ(r.stall_cycles, m.stall_cycles);
  EXPECT_EQ(r.triangle_stall_cycles, m.triangle_stall_cycles);
  EXPECT_EQ(r.max_triangle_queue, m.max_triangle_queue);
  EXPECT_EQ(r.max_contact_queue, m.max_contact_queue);
  EXPECT_EQ(r.stack_overflow, m.stack_overflow);
}

// The mixed run against the model and, clock by clock, against the pure signal-level run.
void expect_mixed_equals_model(const Scene& sc, const RtlBlocks& blocks, const model::ModelParams& mp) {
  for (const ClassifiedPose& cp : sc.poses) {
    SCOPED_TRACE(sc.name + " " + to_string(cp.kind) + ", verilated: " + blocks.name());
    const model::ModelResult m = model::simulate(*sc.first, *sc.second, cp.pose, mp);
    std::vector<RtlBlocks> configs{kNone};
    if (!(blocks == kNone)) configs.push_back(blocks);
    const std::vector<cosim::CosimRun> runs = cosim::simulate(*sc.first, *sc.second, cp.pose, mp, configs, true);
    const cosim::CosimRun& run = runs.back();
    ASSERT_GT(run.result.stats.cycles, 0u) << "the host did not start the query";
    EXPECT_EQ(run.result.contacts, m.contacts);
    expect_stats_equal(run.result.stats, m.stats);
    ASSERT_EQ(run.trace.size(), run.result.stats.cycles);  // one record per clock of the query
    if (configs.size() == 2) {
      const std::string diff = cosim::first_difference(runs[0].trace, run.trace, "signal-level model", blocks.name());
      EXPECT_EQ(diff, "") << "the blocks' outputs differ: " << diff
                          << " (KDOPCD_COSIM_VCD=FILE.vcd writes the waves of every configuration side by side)";
    }
    if (cp.kind != PoseClass::Separated) {
      const QueryResult ref = collide(*sc.first, *sc.second, cp.pose, {}, SatBackend::Fixed, mp.fixed);
      EXPECT_EQ(run.result.contacts, ref.contacts);
    }
  }
}

class MixedRun : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(MixedRun, EqualsModelCycleForCycle) {
  expect_mixed_equals_model(scene(std::get<0>(GetParam())), kConfigs[std::size_t(std::get<1>(GetParam()))],
                            model::v2_params());
}

std::string matrix_name(const ::testing::TestParamInfo<std::tuple<int, int>>& info) {
  static const char* const configs[] = {"none", "sat", "tri", "ctrl", "fetch", "all", "top"};
  return std::string(real_scenes::kNames[std::size_t(std::get<0>(info.param))]) + "_" + configs[std::get<1>(info.param)];
}
INSTANTIATE_TEST_SUITE_P(Matrix, MixedRun, ::testing::Combine(::testing::Values(0, 1, 2), ::testing::Values(0, 1, 2, 3, 4, 5, 6)),
                         matrix_name);

// The other descent rules reach the engine's rule input; all blocks verilated.
TEST(Cosim, DescentRulesCycleExact) {
  for (DescentRule rule : {DescentRule::First, DescentRule::Second}) {
    model::ModelParams mp = model::v2_params();
    mp.rule = rule;
    expect_mixed_equals_model(scene(1), kAll, mp);
  }
}

// The contract's round trip, independent of the model: a pose separated at the root takes
// 1 + RAM_LAT + SAT_LAT clocks.
TEST(Cosim, SeparatedAtTheRootTakesOneRoundTrip) {
  const Scene& sc = scene(0);
  for (const ClassifiedPose& cp : sc.poses) {
    if (cp.kind != PoseClass::Separated) continue;
    const auto runs = cosim::simulate(*sc.first, *sc.second, cp.pose, model::v2_params(), kConfigs, false);
    ASSERT_FALSE(runs.empty());
    for (const cosim::CosimRun& r : runs) {
      SCOPED_TRACE(r.blocks.name());
      ASSERT_EQ(r.result.stats.pair_tests, 1u) << "the separated pose no longer separates at the root";
      EXPECT_EQ(r.result.stats.cycles, std::uint64_t(1 + c2::kRamLat + c2::kSatLat));
      EXPECT_EQ(r.result.stats.cycles, runs[0].result.stats.cycles);
    }
  }
}

// A pending set too small: the overflow is reported in the model's clock, never a silent answer.
TEST(Cosim, PendingOverflowIsReportedCycleExact) {
  const Scene& sc = scene(0);
  for (const ClassifiedPose& cp : sc.poses) {
    if (cp.kind != PoseClass::Intersecting) continue;
    model::ModelParams mp = model::v2_params();
    mp.stack_depth = 6;
    const model::ModelResult m = model::simulate(*sc.first, *sc.second, cp.pose, mp);
    ASSERT_TRUE(m.stats.stack_overflow);
    for (const cosim::CosimRun& r : cosim::simulate(*sc.first, *sc.second, cp.pose, mp, kConfigs, false)) {
      SCOPED_TRACE(r.blocks.name());
      EXPECT_TRUE(r.result.stats.stack_overflow);
      EXPECT_EQ(r.result.stats.cycles, m.stats.cycles);
      EXPECT_EQ(r.result.stats.pair_tests, m.stats.pair_tests);
      EXPECT_EQ(r.result.stats.max_stack_depth, m.stats.max_stack_depth);
    }
  }
}

TEST(Cosim, ParsesBlockLists) {
  EXPECT_EQ(cosim::parse_rtl_blocks(""), kNone);
  EXPECT_EQ(cosim::parse_rtl_blocks("none"), kNone);
  EXPECT_EQ(cosim::parse_rtl_blocks("sat"), kSat);
  EXPECT_EQ(cosim::parse_rtl_blocks("tri"), kTri);
  EXPECT_EQ(cosim::parse_rtl_blocks("tri,sat"), kSatTri);
  EXPECT_EQ(cosim::parse_rtl_blocks("ctrl"), kCtrl);
  EXPECT_EQ(cosim::parse_rtl_blocks("fetch"), kFetch);
  EXPECT_EQ(cosim::parse_rtl_blocks("fetch,ctrl,tri,sat"), kAll);
  EXPECT_EQ(cosim::parse_rtl_blocks("all"), kAll);
  EXPECT_EQ(kAll.name(), "sat+tri+ctrl+fetch");
  EXPECT_EQ(kCtrl.name(), "ctrl");
  EXPECT_EQ(cosim::parse_rtl_blocks("top"), kTop);
  EXPECT_EQ(kTop.name(), "top");
  auto message = [](const std::string& list) {
    try {
      cosim::parse_rtl_blocks(list);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(message("sat,bogus").find("unknown block 'bogus'"), std::string::npos) << message("sat,bogus");
  EXPECT_NE(message("sat,bogus").find("sat, tri, ctrl, fetch"), std::string::npos);
  EXPECT_NE(message("sat,top").find("'top' is the whole verilated top"), std::string::npos) << message("sat,top");
  EXPECT_NE(message("sat,,tri").find("unknown block ''"), std::string::npos) << message("sat,,tri");
  EXPECT_NE(message("sat,").find("empty block name"), std::string::npos) << message("sat,");
}

// The comparison itself can fail, and says where.
TEST(Cosim, FirstDifferenceNamesTheClockAndTheSignal) {
  std::vector<cosim::CycleRecord> a(10), b(10);
  for (std::size_t c = 0; c < a.size(); ++c) a[c].sat_valid = b[c].sat_valid = c % 2 == 0;
  EXPECT_EQ(cosim::first_difference(a, b), "");
  b[6].sat_separated = true;
  b[8].tri_hit = true;
  EXPECT_EQ(cosim::first_difference(a, b), "cycle 6: sat.separated_o: pure 0x0, mixed 0x1");
  b = a;
  b[3].tri_id = 0x2a;
  EXPECT_EQ(cosim::first_difference(a, b, "model", "sat"), "cycle 3: tri.id_o: model 0x0, sat 0x2a");
  b = a;
  b[4].ctrl_tri_id = 0x7;
  b[4].tri_id = 0x7;
  EXPECT_EQ(cosim::first_difference(a, b, "model", "ctrl"), "cycle 4: ctrl.tri_id_o: model 0x0, ctrl 0x7");
  b = a;
  b.pop_back();
  EXPECT_NE(cosim::first_difference(a, b).find("cycle 9: busy_o"), std::string::npos);
}

}  // namespace
}  // namespace kdopcd

// Every configuration is elaborated before anything runs SystemC (model::simulate included):
// SystemC elaborates once per process. With KDOPCD_COSIM_VCD=FILE.vcd the unit ports of all of
// them are written to one VCD, side by side on the one clock (run a single test with it).
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (const char* vcd = std::getenv("KDOPCD_COSIM_VCD"); vcd != nullptr && *vcd != '\0')
    kdopcd::cosim::open_trace(vcd, kdopcd::kConfigs);
  else
    kdopcd::cosim::elaborate(kdopcd::kConfigs);
  return RUN_ALL_TESTS();
}
