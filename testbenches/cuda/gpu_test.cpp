// GPU tests: the device broad phase, narrow phase and result buffer against the host backend.
// Without a usable GPU (no driver: cudaGetDeviceCount returns 35) they skip with the reason.
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"

namespace kdopcd::cuda {
namespace {

#define REQUIRE_GPU()                                                   \
  do {                                                                  \
    std::string why;                                                    \
    if (!device_available(&why)) GTEST_SKIP() << "no usable GPU: " << why; \
  } while (0)

TEST(Gpu, GridBroadPhaseEqualsSortAndSweep) {
  REQUIRE_GPU();
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(512, 4, 1, 6);
  const auto boxes = world.world_boxes();
  const auto sweep = sort_and_sweep(boxes);
  EXPECT_EQ(device_grid_pairs(boxes, make_grid(boxes)), sweep);
  EXPECT_EQ(host_grid_pairs(boxes, make_grid(boxes)), sweep);
  EXPECT_GT(sweep.size(), 1000u);
}

TEST(Gpu, DeviceNarrowPhaseEqualsHost) {
  REQUIRE_GPU();
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(128, 4, 5);
  for (TraversalKind traversal : {TraversalKind::BinaryStack, TraversalKind::ExplicitStack})
    for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed}) {
      SCOPED_TRACE(std::string(to_string(traversal)) + " " + to_string(sat));
      MultibodyOptions o;
      o.traversal = traversal;
      o.sat = sat;
      const MultibodyResult host = world.run(o);
      o.backend = Backend::Cuda;
      const MultibodyResult gpu = world.run(o);
      EXPECT_EQ(gpu.broad_pairs, host.broad_pairs);
      ASSERT_EQ(gpu.pairs.size(), host.pairs.size());
      for (std::size_t i = 0; i < host.pairs.size(); ++i) {
        EXPECT_EQ(gpu.pairs[i].contacts, host.pairs[i].contacts);
        EXPECT_EQ(gpu.pairs[i].stats.pair_tests, host.pairs[i].stats.pair_tests);
        EXPECT_EQ(gpu.pairs[i].stats.axis_tests, host.pairs[i].stats.axis_tests);
        EXPECT_EQ(gpu.pairs[i].stats.leaf_pairs, host.pairs[i].stats.leaf_pairs);
      }
      EXPECT_GT(host.contacts, 0u);
    }
}

TEST(Gpu, TinyDeviceResultBufferReturnsEveryContact) {
  REQUIRE_GPU();
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(27, 6, 2);
  MultibodyOptions o;
  o.backend = Backend::Cuda;
  const MultibodyResult full = world.run(o);
  for (std::uint64_t capacity : {1ull, 7ull, 100ull}) {
    o.initial_capacity = capacity;
    const MultibodyResult tiny = world.run(o);
    EXPECT_GE(tiny.launches, 2);
    EXPECT_EQ(tiny.candidates, full.candidates);
    EXPECT_EQ(format_pairs(tiny), format_pairs(full));
  }
}

TEST(Gpu, CudaBackendWithoutDeviceIsAnInputError) {
  std::string why;
  if (device_available(&why)) GTEST_SKIP() << "a GPU is present";
  const MultibodyWorld world({}, {}, {}, 6);
  MultibodyOptions o;
  o.backend = Backend::Cuda;
  EXPECT_THROW(world.run(o), std::exception);
  EXPECT_FALSE(why.empty());
}

}  // namespace
}  // namespace kdopcd::cuda
