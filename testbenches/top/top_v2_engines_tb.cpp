// The v2 top verilated with two engines and four descriptor buffers (kdopcd_rtl_v2_engine_e2)
// against the SystemC model's command queue with two engines: a batch of queries of every real
// scene through the DMA port, dispatched to the lowest idle engine, their contacts and completion
// records written back by one write channel; every query's contacts, record and clocks equal the
// model's (queue_batch.hpp), and the two engines overlap (the batch takes fewer clocks than one
// engine would).
#include <gtest/gtest.h>

#include "kdopcd_model/model.hpp"
#include "queue_batch.hpp"
#include "real_scenes.hpp"

namespace kdopcd {
namespace {

TEST(TopV2Engines, TwoEnginesCycleExactWithTheModel) {
  model::ModelParams two = model::v2_params();
  two.engines = 2;
  ASSERT_EQ(model::descriptor_buffers(two), 4);  // the verilated top's DESC_BUFFERS
  for (const std::string& host : model::host_interface_names()) {
    for (int s = 0; s < 3; ++s) {
      const real_scenes::Scene& sc = real_scenes::scene(s);
      SCOPED_TRACE(sc.name + " over " + host);
      const model::BatchResult m = queue_batch::expect_cycle_exact(sc, 3, 2, host);
      // The same batch on one engine takes longer: the two overlapped.
      std::vector<Pose> poses;
      for (int rep = 0; rep < 3; ++rep)
        for (const ClassifiedPose& cp : sc.poses) poses.push_back(cp.pose);
      model::ModelParams one = model::v2_params();
      one.host_path = model::HostPath::Queue;
      one.host = model::host_interface(host);
      one.contact_capacity = 4096;
      EXPECT_LT(m.cycles, model::simulate_batch(*sc.first, *sc.second, poses, one).cycles);
    }
  }
  // Engine 1 runs queued queries only: with a rule other than the default, each must run with its
  // descriptor's rule for the whole query.
  queue_batch::expect_cycle_exact(real_scenes::scene(1), 2, 2, "pcie-gen3x16", DescentRule::First);
}

}  // namespace
}  // namespace kdopcd
