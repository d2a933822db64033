#pragma once
// The command-queue comparison shared by the v2 top's testbenches (top_v2_tb with one engine,
// top_v2_engines_tb with two): a scene's poses, each `repeats` times, through the SystemC model's
// queue and through the verilated top's DMA port (whichever kdopcd_rtl_v2_engine* the test links),
// over each host interface. Every query's contacts (read back from its buffer: the model's and the
// reference's fixed backend's), its completion record (tag, count, flags, every counter) and the
// clocks of its descriptor's last beat and of its record's visibility must be the model's.
// `rule`: the descent rule of every descriptor; the register QUERY keeps its reset value, so a
// rule other than the default shows that a queued query runs with its descriptor's rule, not the
// registers' (the engine takes it at START).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/rtl_v2_top_engine.hpp"
#include "kdopcd_model/counter_stats.hpp"
#include "kdopcd_model/model.hpp"
#include "real_scenes.hpp"

namespace kdopcd::queue_batch {

// Returns the model's batch (for the caller's further checks).
inline model::BatchResult expect_cycle_exact(const real_scenes::Scene& sc, int repeats, int engines,
                                             const std::string& host, DescentRule rule = DescentRule::Shallower) {
  std::vector<Pose> poses;
  for (int rep = 0; rep < repeats; ++rep)
    for (const ClassifiedPose& cp : sc.poses) poses.push_back(cp.pose);
  model::ModelParams mp = model::v2_params();
  mp.host_path = model::HostPath::Queue;
  mp.host = model::host_interface(host);
  mp.contact_capacity = 4096;
  mp.engines = engines;
  mp.rule = rule;
  model::BatchResult m = model::simulate_batch(*sc.first, *sc.second, poses, mp);
  const model::HostClocks c = model::host_clocks(mp.host, mp.clock_mhz);
  rtl::V2TopParams tp;
  tp.pending_limit = std::uint32_t(mp.stack_depth);
  tp.rule = rule;
  const std::vector<rtl::V2QueueResult> r = rtl::simulate_v2_queue(
      *sc.first, *sc.second, poses, tp,
      rtl::V2QueueLink{c.read_latency, c.write_latency, c.beats_per_cycle, c.cycles_per_beat}, mp.contact_capacity);
  EXPECT_EQ(r.size(), poses.size());
  if (r.size() != poses.size()) return m;
  // The model's first descriptor read is accepted two clocks after its doorbell arrived.
  const std::uint64_t origin = m.queries[0].stats.doorbell_cycle + 2;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    SCOPED_TRACE("query " + std::to_string(i));
    const model::ModelStats& ms = m.queries[i].stats;
    const contract::v2::queue::Completion& cpl = r[i].completion;
    EXPECT_EQ(r[i].contacts, m.queries[i].contacts);
    TraversalOptions o;
    o.rule = rule;
    EXPECT_EQ(r[i].contacts, collide(*sc.first, *sc.second, poses[i], o, SatBackend::Fixed).contacts);
    EXPECT_EQ(cpl.tag, i);
    EXPECT_TRUE(cpl.done);
    EXPECT_FALSE(cpl.overflow);
    EXPECT_FALSE(cpl.contact_overflow);
    EXPECT_EQ(cpl.contacts, m.queries[i].contacts.size());
    const model::ModelStats rs = model::stats_from_counters(cpl.counters, contract::v2::kK);
    EXPECT_EQ(rs.cycles, ms.cycles);
    EXPECT_EQ(rs.pair_tests, ms.pair_tests);
    EXPECT_EQ(rs.axis_tests, ms.axis_tests);
    EXPECT_EQ(rs.axis_tests_issued, ms.axis_tests_issued);
    EXPECT_EQ(rs.leaf_pairs, ms.leaf_pairs);
    EXPECT_EQ(rs.triangle_tests, ms.triangle_tests);
    EXPECT_EQ(rs.contacts, ms.contacts);
    EXPECT_EQ(rs.max_stack_depth, ms.max_stack_depth);
    EXPECT_EQ(rs.stall_cycles, ms.stall_cycles);
    EXPECT_EQ(rs.triangle_stall_cycles, ms.triangle_stall_cycles);
    EXPECT_EQ(rs.max_triangle_queue, ms.max_triangle_queue);
    EXPECT_EQ(rs.max_contact_queue, ms.max_contact_queue);
    EXPECT_EQ(r[i].descriptor_last_beat, ms.descriptor_cycle - 1 - origin);
    EXPECT_EQ(r[i].completion_visible, ms.completion_cycle - origin);
  }
  return m;
}

}  // namespace kdopcd::queue_batch
