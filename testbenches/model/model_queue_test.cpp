// The v2 model's command queue (host_interface.hpp, command_queue.hpp): queries that arrive as
// descriptors by DMA give the register path's answers and traversal clocks; the end-to-end clocks
// of a query follow the front end's contract from the interface's costs; a contact buffer that is
// too small is flagged, never silently cut; the descriptor format round-trips bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd_contract/command_queue.hpp"
#include "kdopcd_driver/v2_host.hpp"
#include "kdopcd_model/model.hpp"

namespace kdopcd {
namespace {

namespace queue = contract::v2::queue;

struct Scene {
  Mesh a, b;
  std::unique_ptr<DopTree> first, second;
  std::array<ClassifiedPose, 4> poses;
};

const Scene& cow_scene() {
  static const std::unique_ptr<Scene> s = [] {
    auto sc = std::make_unique<Scene>();
    sc->a = load_mesh(std::string(KDOPCD_MESH_DIR) + "/cow.off");
    sc->b = load_mesh(std::string(KDOPCD_MESH_DIR) + "/cow.off");
    sc->first = std::make_unique<DopTree>(sc->a, 24, kHardwareTreeBuild);
    sc->second = std::make_unique<DopTree>(sc->b, 24, kHardwareTreeBuild);
    sc->poses = make_pose_classes(*sc->first, *sc->second,
                                  Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(0.2, 1, 0.4).normalized())),
                                  Vec3(1, 0.4, 0.3));
    return sc;
  }();
  return *s;
}

std::vector<Pose> batch_poses(const Scene& sc, int repeats) {
  std::vector<Pose> poses;
  for (int r = 0; r < repeats; ++r)
    for (const ClassifiedPose& cp : sc.poses) poses.push_back(cp.pose);
  return poses;
}

model::ModelParams queue_params(const std::string& host, int engines) {
  model::ModelParams p = model::v2_params();
  p.host_path = model::HostPath::Queue;
  p.host = model::host_interface(host);
  p.engines = engines;
  return p;
}

// The same queries through the queue: the answers, the counters and each query's own clocks are
// the register path's; only the batch's clocks grow by the interface's costs.
TEST(ModelQueue, QueuePathGivesTheRegisterPathsAnswers) {
  const Scene& sc = cow_scene();
  const std::vector<Pose> poses = batch_poses(sc, 2);
  const model::BatchResult regs = model::simulate_batch(*sc.first, *sc.second, poses, model::v2_params());
  for (const std::string& host : model::host_interface_names()) {
    for (int engines : {1, 3}) {
      SCOPED_TRACE(host + ", engines " + std::to_string(engines));
      const model::BatchResult q = model::simulate_batch(*sc.first, *sc.second, poses, queue_params(host, engines));
      ASSERT_EQ(q.queries.size(), poses.size());
      for (std::size_t i = 0; i < poses.size(); ++i) {
        const model::ModelStats& a = regs.queries[i].stats;
        const model::ModelStats& b = q.queries[i].stats;
        EXPECT_EQ(q.queries[i].contacts, regs.queries[i].contacts);
        EXPECT_EQ(b.cycles, a.cycles);
        EXPECT_EQ(b.pair_tests, a.pair_tests);
        EXPECT_EQ(b.axis_tests, a.axis_tests);
        EXPECT_EQ(b.triangle_tests, a.triangle_tests);
        EXPECT_EQ(b.max_stack_depth, a.max_stack_depth);
        EXPECT_FALSE(b.contact_overflow);
        // The timeline is ordered: doorbell < descriptor in <= start <= end < completion visible.
        EXPECT_LT(b.doorbell_cycle, b.descriptor_cycle);
        EXPECT_LE(b.descriptor_cycle, b.start_cycle);
        EXPECT_EQ(b.end_cycle, b.start_cycle + b.cycles - 1);
        EXPECT_LT(b.end_cycle, b.completion_cycle);
      }
      EXPECT_GT(q.cycles, engines == 1 ? regs.cycles : 0u);
    }
  }
}

// One separated pose on an idle accelerator, clock by clock from the interface's costs: the
// doorbell arrives in clock D; the head register sees it in D + 1 and requests the descriptor,
// which the DMA port accepts in D + 2; its beats come read_latency later at the link's rate; the
// registers hold it the clock after the last beat, START comes in that clock and the root is
// popped in the next; the query takes 1 + RAM_LAT + SAT_LAT clocks; the completion record is
// queued in the clock after DONE, its two beats start the clock after, and it is visible
// write_latency after the last.
TEST(ModelQueue, SeparatedPoseEndToEndByContract) {
  const Scene& sc = cow_scene();
  for (const std::string& host : model::host_interface_names()) {
    SCOPED_TRACE(host);
    const model::ModelParams p = queue_params(host, 1);
    const model::HostClocks c = model::host_clocks(p.host, p.clock_mhz);
    auto link_clocks = [&](std::uint64_t beats) {
      return (beats * std::uint64_t(c.cycles_per_beat) + std::uint64_t(c.beats_per_cycle) - 1) /
             std::uint64_t(c.beats_per_cycle);
    };
    const model::ModelResult m = model::simulate(*sc.first, *sc.second, sc.poses[3].pose, p);
    ASSERT_EQ(m.stats.pair_tests, 1u);
    const std::uint64_t D = std::uint64_t(c.doorbell);
    EXPECT_EQ(m.stats.doorbell_cycle, D);
    const std::uint64_t last_beat = D + 2 + std::uint64_t(c.read_latency) + link_clocks(queue::descriptor_beats(24));
    EXPECT_EQ(m.stats.descriptor_cycle, last_beat + 1);
    EXPECT_EQ(m.stats.start_cycle, last_beat + 2);
    EXPECT_EQ(m.stats.cycles, 1u + std::uint64_t(p.ram_latency) + std::uint64_t(model::kWideSatLatency));
    const std::uint64_t completion_beats = queue::kCompletionBytes / queue::kBeatBytes;
    EXPECT_EQ(m.stats.completion_cycle,
              m.stats.end_cycle + 1 + link_clocks(completion_beats) + std::uint64_t(c.write_latency));
  }
}

// The host's set-up on one core spaces the doorbells: query i's arrives at (i + 1) set-up + D.
TEST(ModelQueue, HostSetupSpacesTheDoorbells) {
  const Scene& sc = cow_scene();
  model::ModelParams p = queue_params("pcie-gen3x16", 2);
  p.host_setup_ns = 2000;
  const model::BatchResult b = model::simulate_batch(*sc.first, *sc.second, batch_poses(sc, 1), p);
  const model::HostClocks c = model::host_clocks(p.host, p.clock_mhz);
  for (std::size_t i = 0; i < b.queries.size(); ++i)
    EXPECT_EQ(b.queries[i].stats.doorbell_cycle,
              std::uint64_t(std::ceil(double(i + 1) * p.host_setup_ns * p.clock_mhz / 1000.0)) + std::uint64_t(c.doorbell));
}

// More contacts than the buffer holds: the completion says so; the contacts counted stay all.
TEST(ModelQueue, ContactsBeyondTheBufferAreFlagged) {
  const Scene& sc = cow_scene();
  const QueryResult ref = collide(*sc.first, *sc.second, sc.poses[0].pose, kHardwareTraversal, SatBackend::Fixed);
  ASSERT_GT(ref.contacts.size(), 1u);
  model::ModelParams p = queue_params("pcie-gen3x16", 1);
  p.contact_capacity = std::uint32_t(ref.contacts.size() - 1);
  const model::ModelResult small = model::simulate(*sc.first, *sc.second, sc.poses[0].pose, p);
  EXPECT_TRUE(small.stats.contact_overflow);
  EXPECT_EQ(small.contacts, ref.contacts);
  p.contact_capacity = std::uint32_t(ref.contacts.size());
  EXPECT_FALSE(model::simulate(*sc.first, *sc.second, sc.poses[0].pose, p).stats.contact_overflow);
}

TEST(ModelQueue, BadQueueParametersAreInputErrors) {
  const Scene& sc = cow_scene();
  auto expect_bad = [&](model::ModelParams p) {
    EXPECT_THROW(model::simulate(*sc.first, *sc.second, sc.poses[3].pose, p), InputError);
  };
  model::ModelParams p = queue_params("pcie-gen3x16", 1);
  p.arch = model::Architecture::Paper;
  expect_bad(p);
  p = queue_params("zynq-coherent", 3);
  p.triangle_ii = 1;  // 3 engines' contacts at one per clock each outrun a 16-byte port
  expect_bad(p);
  p = queue_params("pcie-gen3x16", 1);
  p.descriptor_buffers = -1;
  expect_bad(p);
  p = queue_params("pcie-gen3x16", 1);
  p.host_setup_ns = -1;
  expect_bad(p);
  EXPECT_THROW(model::host_interface("pcie-gen5"), InputError);
  EXPECT_THROW(model::parse_host_path("dma"), InputError);
}

// The descriptor the host writes decodes into the set-up it was made from, bit for bit, and a
// completion record into its fields.
TEST(ModelQueue, DescriptorAndCompletionRoundTrip) {
  const Scene& sc = cow_scene();
  const model::ModelParams p = model::v2_params();
  for (const ClassifiedPose& cp : sc.poses) {
    const QuerySetup setup = make_query_setup(*sc.first, *sc.second, cp.pose, p.fixed,
                                              TriangleFixedParams{p.vertex_bits, p.rotation_bits});
    driver::v2::QueryProgram q;
    q.M = &setup.triangle_pose.M;
    q.T = &setup.triangle_pose.T;
    q.axes = &setup.fixed_axes;
    q.rule = DescentRule::Second;
    q.pending_limit = 77;
    const std::vector<std::uint64_t> words = driver::v2::make_descriptor(q, {5, 0x1000, 9, 0x2000});
    ASSERT_EQ(words.size(), std::size_t(queue::descriptor_words(24)));
    const queue::Descriptor d = queue::unpack_descriptor(words, 24, p.fixed.c, p.fixed.z, contract::v2::kRotW,
                                                         contract::v2::kTransW);
    EXPECT_EQ(d.tag, 5u);
    EXPECT_EQ(d.contact_base, 0x1000u);
    EXPECT_EQ(d.contact_capacity, 9u);
    EXPECT_EQ(d.completion_base, 0x2000u);
    EXPECT_EQ(d.pending_limit, 77u);
    EXPECT_EQ(d.query.rule, contract::format::DescentRule::kSecond);
    for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(d.rot[i], setup.triangle_pose.M[i / 3][i % 3]);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(d.trans[i], setup.triangle_pose.T[i]);
    ASSERT_EQ(d.axes.size(), setup.fixed_axes.size());
    for (std::size_t a = 0; a < d.axes.size(); ++a)
      EXPECT_EQ(contract::format::pack(d.axes[a], 24, p.fixed.c, p.fixed.z),
                driver::pack_axis_entry(setup.fixed_axes[a], 24, p.fixed));
  }
  queue::Completion c;
  c.tag = 0xABCDEF0123ull;
  c.contacts = 4242;
  c.done = true;
  c.contact_overflow = true;
  for (int i = 0; i < contract::v2::kNumCounters; ++i) c.counters[std::size_t(i)] = 1000u + std::uint64_t(i);
  const auto w = queue::pack(c);
  const queue::Completion back = queue::unpack_completion(w);
  EXPECT_EQ(back.tag, c.tag);
  EXPECT_EQ(back.contacts, c.contacts);
  EXPECT_TRUE(back.done);
  EXPECT_FALSE(back.overflow);
  EXPECT_TRUE(back.contact_overflow);
  EXPECT_FALSE(back.bus_error);
  EXPECT_EQ(back.counters, c.counters);
  c.bus_error = true;
  c.contact_overflow = false;
  const queue::Completion errored = queue::unpack_completion(queue::pack(c));
  EXPECT_TRUE(errored.bus_error);
  EXPECT_FALSE(errored.contact_overflow);
}

}  // namespace
}  // namespace kdopcd
