// The continuous collision detection's elementary filter on the GPU (kdopcd_cuda/ccd_filter.hpp)
// against the host's: every time bit for bit on the feature pairs of a folding cloth, and the
// self-collision answers with the device filter equal to the inline tests'. Skips without a GPU;
// scripts/gpu-check.sh runs it with the other Gpu tests.
#include <gtest/gtest.h>

#include <bit>
#include <mutex>
#include <string>

#include "ccd_test_util.hpp"  // testbenches/ccd: the folding grid
#include "kdopcd/ccd/ccd_query.hpp"
#include "kdopcd_cuda/ccd_filter.hpp"
#include "kdopcd_cuda/narrow_runner.hpp"

namespace kdopcd::cuda {
namespace {

TEST(Gpu, CcdElementaryFilterEqualsTheHostFilter) {
  std::string why;
  if (!device_available(&why)) GTEST_SKIP() << "no usable GPU: " << why;
  const Mesh grid = ccd::test::grid_mesh(13);
  const ccd::Topology topology = ccd::Topology::of(grid.triangles, grid.vertices.size(), "grid");
  const std::vector<std::vector<Vec3>> positions = ccd::test::closing_fold_frames(grid, 6);
  std::size_t compared = 0, decided = 0;
  for (std::size_t f = 0; f + 1 < positions.size(); ++f) {
    const ccd::MovingMesh m{&topology, {positions[f], positions[f + 1]}};
    const ccd::SweptTree tree(topology, m.motion, 18, ccd::SweptTree::Use::self_collision);
    // Every batch the traversal makes, on the device and on the host.
    std::mutex mutex;
    const ccd::ElementaryFilterBatch both = [&](std::span<const ccd::ElementaryKind> kinds,
                                                std::span<const ccd::ElementaryPoints> points, std::span<double> times) {
      device_elementary_filter(kinds, points, times);
      std::vector<double> host(points.size());
      ccd::host_elementary_filter(kinds, points, host);
      const std::lock_guard lock(mutex);
      for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(times[i]), std::bit_cast<std::uint64_t>(host[i])) << "pair " << i;
        decided += host[i] != ccd::kNeedsExact;
      }
      compared += points.size();
    };
    const ccd::CcdResult on_device = ccd::ccd_self(m, tree, {.elementary_filter = both, .elementary_batch = 97});
    const ccd::CcdResult inline_result = ccd::ccd_self(m, tree);
    ASSERT_EQ(on_device.time, inline_result.time);
    EXPECT_EQ(on_device.contacts, inline_result.contacts);
  }
  EXPECT_GT(compared, 100u);
  EXPECT_GT(decided, 0u);
}

}  // namespace
}  // namespace kdopcd::cuda
