// GPU tests: every device result against the host backend (the same steps on CPU threads) and the
// reference. Without a usable GPU (no driver: cudaGetDeviceCount returns 35) they skip with the
// reason. scripts/gpu-check.sh runs them, and the pair, moving-scene and small-scene ones under
// compute-sanitizer.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cuda_test_util.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd_cuda/reference.hpp"

namespace kdopcd::cuda {
namespace {

#define REQUIRE_GPU()                                                   \
  do {                                                                  \
    std::string why;                                                    \
    if (!device_available(&why)) GTEST_SKIP() << "no usable GPU: " << why; \
  } while (0)

// Every field, and the traversal's own counters (the same units on either executor).
void expect_same(const MultibodyResult& gpu, const MultibodyResult& host) {
  test::expect_same_result(gpu, host);
  EXPECT_EQ(gpu.node_visits, host.node_visits);
  EXPECT_EQ(gpu.restarts, host.restarts);
  EXPECT_EQ(gpu.peak_pending_bytes, host.peak_pending_bytes);
}

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

// Each traversal (one test each, so that compute-sanitizer's runs show their progress), both SATs,
// the per-pair and the front split, and a candidate buffer too small (the second run; binary and
// explicit stack): each equal to the host backend.
class SmallScene : public testing::TestWithParam<TraversalKind> {};

TEST_P(SmallScene, EqualsHost) {
  REQUIRE_GPU();
  REQUIRE_COW();
  const TraversalKind traversal = GetParam();
  const MultibodyWorld world = test::cow_world(16, 6, 11);
  for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed})
    for (std::uint64_t split : {0ull, 64ull})
      for (std::uint64_t capacity : {0ull, 3ull}) {
        // The two original traversals in every combination; the others once per SAT (split 64,
        // automatic capacity), which keeps this test short enough for compute-sanitizer.
        const bool original = traversal == TraversalKind::BinaryStack || traversal == TraversalKind::ExplicitStack;
        if (!original && (split != 64 || capacity != 0)) continue;
        SCOPED_TRACE(std::string(to_string(sat)) + " split " + std::to_string(split) + " capacity " +
                     std::to_string(capacity));
        MultibodyOptions o;
        o.traversal = traversal;
        o.sat = sat;
        o.split = split;
        o.initial_capacity = capacity;
        const MultibodyResult host = world.run(o);
        ASSERT_GT(host.contacts, 0u);
        o.backend = Backend::Cuda;
        const MultibodyResult gpu = world.run(o);
        expect_same(gpu, host);
        if (capacity == 3) {
          EXPECT_EQ(gpu.launches, 2);
        }
      }
}

INSTANTIATE_TEST_SUITE_P(Gpu, SmallScene, testing::ValuesIn(all_traversals()),
                         [](const testing::TestParamInfo<TraversalKind>& info) {
                           std::string name = to_string(info.param);
                           std::replace(name.begin(), name.end(), '-', '_');  // gtest names: letters, digits, _
                           return name;
                         });

TEST(Gpu, DeviceNarrowPhaseEqualsHost) {
  REQUIRE_GPU();
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(128, 4, 5);
  for (TraversalKind traversal : all_traversals())
    for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed}) {
      SCOPED_TRACE(std::string(to_string(traversal)) + " " + to_string(sat));
      MultibodyOptions o;
      o.traversal = traversal;
      o.sat = sat;
      // The GPU's default split, on both executors: the traversals' own counters (node visits,
      // pending bytes, and the leaf algorithm's pair tests) depend on where the front stops, and
      // the executors' defaults differ. A scene this small gets the smallest.
      o.split = kMinDeviceSplit;
      const MultibodyResult host = world.run(o);
      o.backend = Backend::Cuda;
      const MultibodyResult gpu = world.run(o);
      expect_same(gpu, host);
      EXPECT_GT(host.contacts, 0u);
    }
}

// Poses change between runs (frames); the trees stay on the device; every frame equals the host.
TEST(Gpu, SmallFramesKeepTreesResident) {
  REQUIRE_GPU();
  REQUIRE_COW();
  MultibodyWorld world = test::cow_world(27, 6, 2);
  std::vector<Pose> start;
  for (std::size_t i = 0; i < world.object_count(); ++i) start.push_back(world.pose(i));
  for (int frame = 0; frame < 3; ++frame) {
    std::vector<Pose> poses;
    for (std::size_t i = 0; i < start.size(); ++i)
      poses.push_back(pose_at(start[i], world.tree_of(i).centre(), Vec3(0.01 * double(i % 3), 0.02, 0),
                              Vec3(0, 0.3, 0.1 * double(i % 2)), frame));
    world.set_poses(poses);
    MultibodyOptions o;
    o.split = kMinDeviceSplit;  // as the GPU's default for so few pairs, for the split-dependent counters
    const MultibodyResult host = world.run(o);
    o.backend = Backend::Cuda;
    expect_same(world.run(o), host);
  }
}

// One pose of one pair per task, as `kdop collide --device cuda` runs it: the reference's answer in
// every pose class, for one large pair with the work spread over the device.
TEST(Gpu, PairQueriesEqualTheReferenceInEveryPoseClass) {
  REQUIRE_GPU();
  REQUIRE_COW();
  const Mesh cow = load_mesh(test::mesh_path("cow.off"));
  const DopTree tree(cow, 24);
  const NarrowRunner runner({&tree, &tree});
  const auto classes =
      make_pose_classes(tree, tree, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())),
                        Vec3(1, 0.5, 0.25));
  for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed})
    for (std::uint64_t split : {0ull, 1024ull})
      for (const ClassifiedPose& cp : classes) {
        SCOPED_TRACE(std::string(to_string(cp.kind)) + " " + to_string(sat) + " split " + std::to_string(split));
        NarrowOptions o;
        o.backend = Backend::Cuda;
        o.sat = sat;
        o.split = split;
        const NarrowRun run = runner.run({TaskSpec{0, 1, cp.pose}}, o);
        // The reference with the pipeline's rule and axes (reference.hpp), not collide()'s defaults.
        const QueryResult ref = reference_query(tree, tree, cp.pose, o);
        EXPECT_EQ(run.contacts[0], ref.contacts);
        EXPECT_EQ(run.counters[0].pair_tests, ref.stats.pair_tests);
        EXPECT_EQ(run.counters[0].axis_tests, ref.stats.axis_tests);
        EXPECT_EQ(run.counters[0].leaf_pairs, ref.stats.leaf_pairs);
      }
}

TEST(Gpu, CudaBackendWithoutDeviceIsAnInputError) {
  std::string why;
  if (device_available(&why)) GTEST_SKIP() << "a GPU is present";
  EXPECT_FALSE(why.empty());
  const MultibodyWorld world({make_sphere(1, 1)}, {0, 0}, {Pose{}, Pose{}}, 6);
  MultibodyOptions o;
  o.backend = Backend::Cuda;
  try {
    world.run(o);
    ADD_FAILURE() << "--backend cuda ran without a device";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no usable GPU: " + why), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kdopcd::cuda
