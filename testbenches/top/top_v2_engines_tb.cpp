// The v2 top verilated with two engines and four descriptor buffers (kdopcd_rtl_v2_engine_e2)
// against the SystemC model's command queue with two engines: a batch of queries of every real
// scene through the DMA port, dispatched to the lowest idle engine, their contacts and completion
// records written back by one write channel; every query's contacts, record and clocks equal the
// model's, and the two engines overlap (the batch takes fewer clocks than one engine would).
#include <gtest/gtest.h>

#include "kdopcd/pose_classes.hpp"
#include "kdopcd/rtl_v2_top_engine.hpp"
#include "kdopcd_model/model.hpp"
#include "real_scenes.hpp"

namespace kdopcd {
namespace {

namespace c2 = contract::v2;
using Cnt = c2::Counter;

TEST(TopV2Engines, TwoEnginesCycleExactWithTheModel) {
  for (const std::string& host : model::host_interface_names()) {
    for (int s = 0; s < 3; ++s) {
      const real_scenes::Scene& sc = real_scenes::scene(s);
      SCOPED_TRACE(sc.name + " over " + host);
      std::vector<Pose> poses;
      for (int rep = 0; rep < 3; ++rep)
        for (const ClassifiedPose& cp : sc.poses) poses.push_back(cp.pose);
      model::ModelParams mp = model::v2_params();
      mp.host_path = model::HostPath::Queue;
      mp.host = model::host_interface(host);
      mp.contact_capacity = 4096;
      mp.engines = 2;
      ASSERT_EQ(model::descriptor_buffers(mp), 4);  // the verilated top's DESC_BUFFERS
      const model::BatchResult m = model::simulate_batch(*sc.first, *sc.second, poses, mp);
      model::ModelParams one = mp;
      one.engines = 1;
      const model::BatchResult m1 = model::simulate_batch(*sc.first, *sc.second, poses, one);
      EXPECT_LT(m.cycles, m1.cycles);  // the engines overlap

      const model::HostClocks c = model::host_clocks(mp.host, mp.clock_mhz);
      rtl::V2TopParams tp;
      tp.pending_limit = std::uint32_t(mp.stack_depth);
      const std::vector<rtl::V2QueueResult> r = rtl::simulate_v2_queue(
          *sc.first, *sc.second, poses, tp,
          rtl::V2QueueLink{c.read_latency, c.write_latency, c.beats_per_cycle, c.cycles_per_beat}, mp.contact_capacity);
      ASSERT_EQ(r.size(), poses.size());
      const std::uint64_t origin = m.queries[0].stats.doorbell_cycle + 2;
      for (std::size_t i = 0; i < poses.size(); ++i) {
        SCOPED_TRACE("query " + std::to_string(i));
        const model::ModelStats& ms = m.queries[i].stats;
        const c2::queue::Completion& cpl = r[i].completion;
        EXPECT_EQ(r[i].contacts, m.queries[i].contacts);
        EXPECT_EQ(cpl.tag, i);
        EXPECT_TRUE(cpl.done);
        EXPECT_FALSE(cpl.overflow);
        EXPECT_EQ(cpl.counters[std::size_t(Cnt::kCycles)], ms.cycles);
        EXPECT_EQ(cpl.counters[std::size_t(Cnt::kPairTests)], ms.pair_tests);
        EXPECT_EQ(cpl.counters[std::size_t(Cnt::kTriangleTests)], ms.triangle_tests);
        EXPECT_EQ(cpl.counters[std::size_t(Cnt::kMaxPending)], ms.max_stack_depth);
        EXPECT_EQ(r[i].descriptor_last_beat, ms.descriptor_cycle - 1 - origin);
        EXPECT_EQ(r[i].completion_visible, ms.completion_cycle - origin);
      }
    }
  }
}

}  // namespace
}  // namespace kdopcd
