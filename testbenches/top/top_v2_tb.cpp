// The verilated v2 top (rtl/v2/kdopcd_v2_top.sv) against the reference and the SystemC model's v2
// (docs/accelerator-v2.md): per query on real scenes in the four pose classes, the contact set
// equals collide(..., Fixed), and with the bus models stall-free the cycle count and every counter
// equal the model's at v2_params() (both take their parameters from the one contract); random
// stalls and back-pressure change no contact; an overflow of the pending set, a tree too large
// for the tree RAMs and a read error during the LOAD are reported, never a silent wrong answer. The
// AXI protocol assertions run in every query.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/rtl_v2_top_engine.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd_model/model.hpp"
#include "queue_batch.hpp"
#include "real_scenes.hpp"

namespace kdopcd {
namespace {

namespace c2 = contract::v2;
using Cnt = c2::Counter;

// scripts/top-coverage.sh --v2: the coverage build writes the counters of all queries at the end.
class CoverageEnvironment : public ::testing::Environment {
  void TearDown() override {
    if (const char* path = std::getenv("KDOPCD_TOP_COVERAGE"))
      if (!rtl::write_v2_coverage(path)) std::fprintf(stderr, "top_v2_tb: not a coverage build\n");
  }
};
[[maybe_unused]] ::testing::Environment* const coverage_env =
    ::testing::AddGlobalTestEnvironment(new CoverageEnvironment);

using real_scenes::Scene;
using real_scenes::scene;

const ClassifiedPose& pose_of(const Scene& sc, PoseClass kind) {
  for (const ClassifiedPose& cp : sc.poses)
    if (cp.kind == kind) return cp;
  throw std::logic_error("no pose of that class");
}

rtl::V2TopParams top_params(const model::ModelParams& mp) {
  rtl::V2TopParams t;
  t.rule = mp.rule;
  t.fixed = mp.fixed;
  t.vertex_bits = mp.vertex_bits;
  t.rotation_bits = mp.rotation_bits;
  t.pending_limit = std::uint32_t(mp.stack_depth);
  return t;
}

// Every counter the model has, against the top's register.
void expect_counters_equal(const rtl::V2TopResult& r, const model::ModelStats& m) {
  EXPECT_EQ(r.counter(Cnt::kCycles), m.cycles);
  EXPECT_EQ(r.counter(Cnt::kPairTests), m.pair_tests);
  EXPECT_EQ(r.counter(Cnt::kAxisTests), m.axis_tests);
  EXPECT_EQ(r.counter(Cnt::kLeafPairs), m.leaf_pairs);
  EXPECT_EQ(r.counter(Cnt::kTriangleTests), m.triangle_tests);
  EXPECT_EQ(r.counter(Cnt::kContacts), m.contacts);
  EXPECT_EQ(r.counter(Cnt::kMaxPending), m.max_stack_depth);
  EXPECT_EQ(r.counter(Cnt::kStallCycles), m.stall_cycles);
  EXPECT_EQ(r.counter(Cnt::kTriangleStallCycles), m.triangle_stall_cycles);
  EXPECT_EQ(r.counter(Cnt::kMaxTriangleQueue), m.max_triangle_queue);
  EXPECT_EQ(r.counter(Cnt::kMaxContactQueue), m.max_contact_queue);
  EXPECT_EQ(r.counter(Cnt::kSatIssues) * std::uint64_t(c2::kK), m.axis_tests_issued);
}

void expect_cycle_exact(const Scene& sc, const model::ModelParams& mp) {
  for (const ClassifiedPose& cp : sc.poses) {
    SCOPED_TRACE(sc.name + " " + to_string(cp.kind));
    TraversalOptions o;
    o.rule = mp.rule;
    const QueryResult ref = collide(*sc.first, *sc.second, cp.pose, o, SatBackend::Fixed, mp.fixed);
    const model::ModelResult m = model::simulate(*sc.first, *sc.second, cp.pose, mp);
    const rtl::V2TopResult r = rtl::simulate_v2_top(*sc.first, *sc.second, cp.pose, top_params(mp));
    ASSERT_TRUE(r.started);
    EXPECT_FALSE(r.overflow);
    EXPECT_EQ(r.contacts, ref.contacts);
    EXPECT_EQ(r.contacts, m.contacts);
    expect_counters_equal(r, m.stats);
    EXPECT_EQ(r.counter(Cnt::kPairTests), ref.stats.pair_tests);
    EXPECT_EQ(r.counter(Cnt::kTriangleTests), ref.stats.triangle_tests);
  }
}

class TopV2Scenes : public ::testing::TestWithParam<int> {};

TEST_P(TopV2Scenes, CycleExactWithTheModel) { expect_cycle_exact(scene(GetParam()), model::v2_params()); }

TEST_P(TopV2Scenes, RandomStallsChangeNoContact) {
  const Scene& sc = scene(GetParam());
  rtl::V2TopParams tp = top_params(model::v2_params());
  tp.stalls = true;
  tp.stall_probability = 0.3;
  tp.seed = 7 + std::uint64_t(GetParam());
  for (const ClassifiedPose& cp : sc.poses) {
    SCOPED_TRACE(sc.name + " " + to_string(cp.kind));
    const QueryResult ref = collide(*sc.first, *sc.second, cp.pose, kHardwareTraversal, SatBackend::Fixed);
    const rtl::V2TopResult r = rtl::simulate_v2_top(*sc.first, *sc.second, cp.pose, tp);
    EXPECT_EQ(r.contacts, ref.contacts);
    EXPECT_EQ(r.counter(Cnt::kPairTests), ref.stats.pair_tests);
    EXPECT_EQ(r.counter(Cnt::kContacts), ref.contacts.size());
    // The stalls did stall: with contacts to send, the stream's random back-pressure held some back
    // (the contact queue absorbs it, so the query's clocks need not grow).
    if (!ref.contacts.empty()) {
      EXPECT_GT(r.stream_refused, 0u) << "the random stalls held no contact back";
    }
  }
}

// The axis table is taken at START: another table written while the query runs changes no
// contact, counter or clock (the SAT lanes read their entries only at START).
TEST_P(TopV2Scenes, AxisTableWrittenDuringAQueryChangesNothing) {
  const Scene& sc = scene(GetParam());
  for (PoseClass kind : {PoseClass::Intersecting, PoseClass::CloseProximity}) {
    SCOPED_TRACE(sc.name + " " + to_string(kind));
    const ClassifiedPose& cp = pose_of(sc, kind);
    rtl::V2TopParams tp = top_params(model::v2_params());
    const rtl::V2TopResult plain = rtl::simulate_v2_top(*sc.first, *sc.second, cp.pose, tp);
    tp.overwrite_axis_table = true;
    const rtl::V2TopResult overwritten = rtl::simulate_v2_top(*sc.first, *sc.second, cp.pose, tp);
    ASSERT_TRUE(plain.started);
    ASSERT_TRUE(overwritten.started);
    EXPECT_EQ(overwritten.contacts, plain.contacts);
    EXPECT_EQ(overwritten.counters, plain.counters);
    EXPECT_EQ(overwritten.clock_edges, plain.clock_edges);
    EXPECT_GT(plain.counter(Cnt::kPairTests), 1u);  // the query runs past the root while the writes go on
  }
}

std::string scene_test_name(const ::testing::TestParamInfo<int>& info) {
  return real_scenes::kNames[std::size_t(info.param)];
}
INSTANTIATE_TEST_SUITE_P(Real, TopV2Scenes, ::testing::Values(0, 1, 2), scene_test_name);

// The pose classes all share one rotation, so each SAT lane sees one face triple of the other
// object (one multiplexer select per product) in them. Random rotations at the intersecting
// class's translation give every lane other triples, and other axis tables taken at START.
TEST(TopV2, RandomRotationsCycleExact) {
  const Scene& sc = scene(0);  // cow and cow: at the class's small shift, any rotation overlaps
  const model::ModelParams mp = model::v2_params();
  const Vec3 translation = pose_of(sc, PoseClass::Intersecting).pose.translation;
  std::mt19937_64 rng(20261127);
  std::normal_distribution<double> normal;
  int deep_queries = 0;
  for (int i = 0; i < 16; ++i) {
    Pose pose;
    pose.rotation = Eigen::Quaterniond(normal(rng), normal(rng), normal(rng), normal(rng)).normalized();
    pose.translation = translation;
    SCOPED_TRACE("rotation " + std::to_string(i));
    const QueryResult ref = collide(*sc.first, *sc.second, pose, kHardwareTraversal, SatBackend::Fixed, mp.fixed);
    const model::ModelResult m = model::simulate(*sc.first, *sc.second, pose, mp);
    const rtl::V2TopResult r = rtl::simulate_v2_top(*sc.first, *sc.second, pose, top_params(mp));
    ASSERT_TRUE(r.started);
    EXPECT_FALSE(r.overflow);
    EXPECT_EQ(r.contacts, ref.contacts);
    expect_counters_equal(r, m.stats);
    EXPECT_EQ(r.counter(Cnt::kPairTests), ref.stats.pair_tests);
    deep_queries += r.counter(Cnt::kPairTests) > 100 ? 1 : 0;
  }
  EXPECT_GE(deep_queries, 8);  // most rotations overlap: the lanes work through many pairs
}

TEST(TopV2, DescentRulesCycleExact) {
  for (DescentRule rule : {DescentRule::First, DescentRule::Second}) {
    model::ModelParams mp = model::v2_params();
    mp.rule = rule;
    expect_cycle_exact(scene(1), mp);
  }
}

// The round trip of the contract: a pose separated at the root takes 1 + RAM_LAT + SAT_LAT clocks.
TEST(TopV2, SeparatedPoseTakesOneRoundTrip) {
  const Scene& sc = scene(0);
  const ClassifiedPose& sep = pose_of(sc, PoseClass::Separated);
  const rtl::V2TopResult r = rtl::simulate_v2_top(*sc.first, *sc.second, sep.pose, top_params(model::v2_params()));
  ASSERT_TRUE(r.started);
  ASSERT_EQ(r.counter(Cnt::kPairTests), 1u) << "the separated pose no longer separates at the root";
  EXPECT_EQ(r.counter(Cnt::kCycles), std::uint64_t(1 + c2::kRamLat + c2::kSatLat));
  EXPECT_EQ(r.counter(Cnt::kCycles), model::simulate(*sc.first, *sc.second, sep.pose, model::v2_params()).stats.cycles);
}

// A pending set too small for the traversal: the top reports the overflow in the same clock as the
// model, and never pretends the (incomplete) contact set is the answer.
TEST(TopV2, PendingOverflowIsReportedCycleExact) {
  const Scene& sc = scene(0);
  const ClassifiedPose& hit = pose_of(sc, PoseClass::Intersecting);
  model::ModelParams mp = model::v2_params();
  mp.stack_depth = 6;
  const model::ModelResult m = model::simulate(*sc.first, *sc.second, hit.pose, mp);
  ASSERT_TRUE(m.stats.stack_overflow);
  const rtl::V2TopResult r = rtl::simulate_v2_top(*sc.first, *sc.second, hit.pose, top_params(mp));
  EXPECT_TRUE(r.overflow);
  EXPECT_EQ(r.counter(Cnt::kCycles), m.stats.cycles);
  EXPECT_EQ(r.counter(Cnt::kPairTests), m.stats.pair_tests);
  EXPECT_EQ(r.counter(Cnt::kMaxPending), m.stats.max_stack_depth);
  // The next query on the same top is whole again.
  const rtl::V2TopResult again = rtl::simulate_v2_top(*sc.first, *sc.second, hit.pose, top_params(model::v2_params()));
  EXPECT_FALSE(again.overflow);
  EXPECT_EQ(again.contacts, collide(*sc.first, *sc.second, hit.pose, kHardwareTraversal, SatBackend::Fixed).contacts);
}

// A tree with more node records than the RAM holds (2^NODE_AW): LOAD refuses it, the engine
// reports an input error, and the previously loaded trees are not used silently.
TEST(TopV2, TreeTooLargeForTheRamIsAnInputError) {
  const int sub = 7;  // an icosphere of 20 * 4^7 = 327 680 triangles: 655 359 nodes > 2^18
  static_assert(c2::kNodeAw == 18, "pick a larger sphere when the node RAM grows");
  const Mesh big = make_sphere(1.0, sub);
  const DopTree big_tree(big, 24, kHardwareTreeBuild);
  ASSERT_GT(big_tree.nodes().size(), std::size_t(1) << c2::kNodeAw);
  const Scene& sc = scene(0);
  EXPECT_THROW(rtl::simulate_v2_top(big_tree, *sc.second, pose_of(sc, PoseClass::Intersecting).pose, top_params(model::v2_params())),
               InputError);
  // Afterwards the scene loads again and answers correctly.
  const rtl::V2TopResult r = rtl::simulate_v2_top(*sc.first, *sc.second, pose_of(sc, PoseClass::Intersecting).pose, top_params(model::v2_params()));
  EXPECT_TRUE(r.loaded_now);
  EXPECT_EQ(r.contacts, collide(*sc.first, *sc.second, pose_of(sc, PoseClass::Intersecting).pose, kHardwareTraversal,
                                SatBackend::Fixed)
                            .contacts);
}

// A read of the LOAD answered SLVERR or DECERR (the memory model's fault injection), at the first
// beat, in the middle and at the last beat of the load. The loader ends the load with the burst of
// that beat; STATUS shows DONE and BUS_ERROR, and neither LOADED nor LOAD_ERROR; the engine
// reports the error and starts no query on the partial trees. The next query LOADs the same pair
// again and answers as the reference and the model do.
TEST(TopV2, BusErrorDuringLoadIsReported) {
  namespace reg2 = c2::reg;
  const Scene& sc = scene(1);  // the smallest load of the three scenes
  const ClassifiedPose& hit = pose_of(sc, PoseClass::Intersecting);
  const model::ModelParams mp = model::v2_params();
  const QueryResult ref = collide(*sc.first, *sc.second, hit.pose, kHardwareTraversal, SatBackend::Fixed, mp.fixed);
  const model::ModelResult m = model::simulate(*sc.first, *sc.second, hit.pose, mp);
  const rtl::V2TopParams good = top_params(mp);
  const std::uint64_t load_beats = rtl::simulate_v2_top(*sc.first, *sc.second, hit.pose, good).load_beats;
  ASSERT_GT(load_beats, std::uint64_t(c2::kBurstMax));

  constexpr int kSlvErr = 2, kDecErr = 3;  // AXI RRESP
  const struct {
    std::uint64_t beat;
    int resp;
  } faults[] = {{0, kSlvErr}, {load_beats / 2 + 3, kDecErr}, {load_beats - 1, kSlvErr}};
  for (const auto& f : faults) {
    SCOPED_TRACE("error response " + std::to_string(f.resp) + " at beat " + std::to_string(f.beat) + " of " +
                 std::to_string(load_beats));
    rtl::V2TopParams bad = good;
    bad.load_error_beat = std::int64_t(f.beat);
    bad.load_error_resp = f.resp;
    try {
      const rtl::V2TopResult r = rtl::simulate_v2_top(*sc.first, *sc.second, hit.pose, bad);
      ADD_FAILURE() << "the load with a read error was taken as complete (" << r.contacts.size() << " contacts)";
    } catch (const rtl::V2LoadBusError& e) {
      EXPECT_NE(e.status & reg2::kStatusDone, 0u);
      EXPECT_NE(e.status & reg2::kStatusBusError, 0u);
      EXPECT_EQ(e.status & reg2::kStatusLoaded, 0u);
      EXPECT_EQ(e.status & reg2::kStatusLoadError, 0u);
      EXPECT_EQ(e.status & reg2::kStatusBusy, 0u);
      EXPECT_NE(e.status & reg2::kStatusIdle, 0u);
      EXPECT_GT(e.load_beats, f.beat);  // the beat itself was taken, and the rest of its burst only
      EXPECT_LE(e.load_beats, f.beat + std::uint64_t(c2::kBurstMax));
    }
    const rtl::V2TopResult r = rtl::simulate_v2_top(*sc.first, *sc.second, hit.pose, good);
    EXPECT_TRUE(r.loaded_now);
    EXPECT_EQ(r.load_beats, load_beats);
    ASSERT_TRUE(r.started);
    EXPECT_FALSE(r.overflow);
    EXPECT_EQ(r.contacts, ref.contacts);
    EXPECT_EQ(r.contacts, m.contacts);
    expect_counters_equal(r, m.stats);
  }
}

}  // namespace
}  // namespace kdopcd

namespace kdopcd {
namespace {

// The command queue: the poses of every real scene (each twice) as descriptors through the top's
// DMA port, against the model's queue path over each host interface: every query's contacts (from
// its buffer; the reference's fixed backend's), its completion record (tag, count, flags, every
// counter) and the clocks of its descriptor's last beat and of its completion record's
// visibility are the model's.
TEST(TopV2Queue, CycleExactWithTheModel) {
  for (const std::string& host : model::host_interface_names())
    for (int s = 0; s < 3; ++s) {
      SCOPED_TRACE(scene(s).name + " over " + host);
      queue_batch::expect_cycle_exact(scene(s), 2, 1, host);
    }
  // Descriptors with another rule than the registers' (which keep their reset value).
  for (DescentRule rule : {DescentRule::First, DescentRule::Second}) {
    SCOPED_TRACE(std::string("rule ") + (rule == DescentRule::First ? "first" : "second"));
    queue_batch::expect_cycle_exact(scene(1), 1, 1, "pcie-gen3x16", rule);
  }
}

// A contact buffer smaller than the query's contacts: the first ones are written, the record
// counts them all and says CONTACT_OVERFLOW; the next batch is whole again. A descriptor read that
// answers SLVERR is reported in that query's record (BUS_ERROR).
TEST(TopV2Queue, ContactOverflowAndReadErrorsAreFlagged) {
  const Scene& sc = scene(0);
  const ClassifiedPose& cp = pose_of(sc, PoseClass::Intersecting);
  const QueryResult ref = collide(*sc.first, *sc.second, cp.pose, kHardwareTraversal, SatBackend::Fixed);
  ASSERT_GT(ref.contacts.size(), 10u);
  const model::HostClocks c = model::host_clocks(model::host_interface("pcie-gen3x16"), 250.0);
  const rtl::V2QueueLink link{c.read_latency, c.write_latency, c.beats_per_cycle, c.cycles_per_beat};
  const rtl::V2TopParams tp = top_params(model::v2_params());
  const std::vector<rtl::V2QueueResult> small = rtl::simulate_v2_queue(*sc.first, *sc.second, {cp.pose}, tp, link, 10);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_TRUE(small[0].completion.contact_overflow);
  EXPECT_EQ(small[0].completion.contacts, ref.contacts.size());
  ASSERT_EQ(small[0].contacts.size(), 10u);
  for (const ContactPair& p : small[0].contacts)
    EXPECT_TRUE(std::binary_search(ref.contacts.begin(), ref.contacts.end(), p));
  const std::vector<rtl::V2QueueResult> whole = rtl::simulate_v2_queue(*sc.first, *sc.second, {cp.pose}, tp, link, 4096);
  EXPECT_FALSE(whole[0].completion.contact_overflow);
  EXPECT_EQ(whole[0].contacts, ref.contacts);
  // A descriptor whose read answers SLVERR: its record says BUS_ERROR, the other queries are whole.
  rtl::V2QueueLink faulty = link;
  faulty.error_descriptor = 1;
  const std::vector<Pose> three{cp.pose, cp.pose, cp.pose};
  const std::vector<rtl::V2QueueResult> err = rtl::simulate_v2_queue(*sc.first, *sc.second, three, tp, faulty, 4096);
  ASSERT_EQ(err.size(), 3u);
  EXPECT_FALSE(err[0].completion.bus_error);
  EXPECT_TRUE(err[1].completion.bus_error);
  EXPECT_FALSE(err[2].completion.bus_error);
  EXPECT_EQ(err[0].contacts, ref.contacts);
  EXPECT_EQ(err[2].contacts, ref.contacts);
  // The register path still runs after the queue.
  EXPECT_EQ(rtl::simulate_v2_top(*sc.first, *sc.second, cp.pose, tp).contacts, ref.contacts);
}


// Completion records placed across a 4 KiB boundary (4032 bytes into a page: the second of the
// two beats lies in the next page): AXI4 forbids a burst across 4 KiB, so each beat is a burst of
// its own. The write checker bound to the top and the DMA memory's checks (no burst across 4 KiB)
// stay silent, and every record and contact set equals that of page-aligned records, with the
// linked slave and a free one. With the linked slave the counters are equal too and the record is
// visible at most one clock later (its second burst's AW goes after the first burst's beat).
TEST(TopV2Queue, RecordsAcrossA4KiBBoundaryAreSplit) {
  const rtl::V2TopParams tp = top_params(model::v2_params());
  const model::HostClocks c = model::host_clocks(model::host_interface("pcie-gen3x16"), 250.0);
  const rtl::V2QueueLink linked{c.read_latency, c.write_latency, c.beats_per_cycle, c.cycles_per_beat};
  const Scene& sc = scene(0);
  std::vector<Pose> poses;
  for (const ClassifiedPose& cp : sc.poses) poses.push_back(cp.pose);
  const std::vector<rtl::V2QueueResult> want = rtl::simulate_v2_queue(*sc.first, *sc.second, poses, tp, linked, 4096);
  for (const bool free_slave : {false, true}) {
    SCOPED_TRACE(free_slave ? "free write slave" : "linked write slave");
    rtl::V2QueueLink across = linked;
    across.completion_page_offset = 4096 - std::uint32_t(contract::v2::queue::kBeatBytes);
    across.free_write_slave = free_slave;
    across.aw_delay_max = free_slave ? 6 : 0;
    const std::vector<rtl::V2QueueResult> got = rtl::simulate_v2_queue(*sc.first, *sc.second, poses, tp, across, 4096);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      SCOPED_TRACE("query " + std::to_string(i));
      EXPECT_EQ(got[i].contacts, want[i].contacts);
      EXPECT_EQ(got[i].completion.tag, want[i].completion.tag);
      EXPECT_EQ(got[i].completion.contacts, want[i].completion.contacts);
      EXPECT_TRUE(got[i].completion.done);
      if (!free_slave) {  // a slow slave holds contacts back: other clocks, other cycle counters
        EXPECT_EQ(got[i].completion.counters, want[i].completion.counters);
        EXPECT_GE(got[i].completion_visible, want[i].completion_visible);
        EXPECT_LE(got[i].completion_visible, want[i].completion_visible + 1);
      }
    }
  }
  rtl::V2QueueLink odd = linked;
  odd.completion_page_offset = 100;  // not a multiple of the beat
  EXPECT_THROW(rtl::simulate_v2_queue(*sc.first, *sc.second, poses, tp, odd, 4096), InputError);
}

// The write-back against a slave that uses AXI4's freedom on the write channels (the linked
// slave of the other tests takes every AW at once and W only after it): W beats taken before,
// with or after their AW, AWREADY 0-6 clocks late, WREADY random (seeded). Every query's contacts
// (read back from its buffer) and completion record must be what the linked slave's run and the
// reference give; the write checker bound to the top (rtl/verif/kdopcd_axi_write_checker.sv:
// AWVALID held until AWREADY, W bursts paired with their AWs) and the slave's own checks stay
// silent. The clocks may differ (a slow slave holds contacts back), so only the counters that
// the write-back cannot change are compared. One query with a contact buffer of 10: partial beats.
TEST(TopV2Queue, WriteSlaveTakingWBeforeAwGetsEveryRecord) {
  const rtl::V2TopParams tp = top_params(model::v2_params());
  const model::HostClocks c = model::host_clocks(model::host_interface("pcie-gen3x16"), 250.0);
  const rtl::V2QueueLink linked{c.read_latency, c.write_latency, c.beats_per_cycle, c.cycles_per_beat};
  for (int s = 0; s < 3; ++s) {
    const Scene& sc = scene(s);
    std::vector<Pose> poses;
    for (const ClassifiedPose& cp : sc.poses) poses.push_back(cp.pose);
    for (std::uint32_t capacity : {4096u, 10u}) {
      const std::vector<rtl::V2QueueResult> want = rtl::simulate_v2_queue(*sc.first, *sc.second, poses, tp, linked, capacity);
      ASSERT_EQ(want.size(), poses.size());
      for (std::uint64_t seed = 1; seed <= 2; ++seed) {
        SCOPED_TRACE(sc.name + ", capacity " + std::to_string(capacity) + ", seed " + std::to_string(seed));
        rtl::V2QueueLink free = linked;
        free.free_write_slave = true;
        free.aw_delay_max = 6;
        free.w_ready_probability = seed == 1 ? 0.9 : 0.5;
        free.seed = seed + 100 * std::uint64_t(s);
        const std::vector<rtl::V2QueueResult> got = rtl::simulate_v2_queue(*sc.first, *sc.second, poses, tp, free, capacity);
        ASSERT_EQ(got.size(), poses.size());
        for (std::size_t i = 0; i < poses.size(); ++i) {
          SCOPED_TRACE("query " + std::to_string(i));
          const contract::v2::queue::Completion& g = got[i].completion;
          const contract::v2::queue::Completion& w = want[i].completion;
          EXPECT_EQ(got[i].contacts, want[i].contacts);
          if (capacity == 4096u) {
            EXPECT_EQ(got[i].contacts,
                      collide(*sc.first, *sc.second, poses[i], kHardwareTraversal, SatBackend::Fixed).contacts);
          }
          EXPECT_EQ(g.tag, i);
          EXPECT_EQ(g.tag, w.tag);
          EXPECT_TRUE(g.done);
          EXPECT_EQ(g.overflow, w.overflow);
          EXPECT_EQ(g.contact_overflow, w.contact_overflow);
          EXPECT_EQ(g.bus_error, w.bus_error);
          EXPECT_EQ(g.contacts, w.contacts);
          const model::ModelStats gs = model::stats_from_counters(g.counters, contract::v2::kK);
          const model::ModelStats ws = model::stats_from_counters(w.counters, contract::v2::kK);
          EXPECT_EQ(gs.pair_tests, ws.pair_tests);
          EXPECT_EQ(gs.axis_tests, ws.axis_tests);
          EXPECT_EQ(gs.leaf_pairs, ws.leaf_pairs);
          EXPECT_EQ(gs.triangle_tests, ws.triangle_tests);
          EXPECT_EQ(gs.contacts, ws.contacts);
        }
      }
    }
  }
}

}  // namespace
}  // namespace kdopcd
