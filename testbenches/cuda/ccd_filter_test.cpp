// The continuous collision detection's elementary filter on the GPU (kdopcd_cuda/ccd_filter.hpp)
// against the host's: every time bit for bit on the feature pairs of a folding cloth, and the
// self-collision answers with the device filter equal to the inline tests'. Skips without a GPU;
// scripts/gpu-check.sh runs it with the other Gpu tests.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <mutex>
#include <numbers>
#include <string>

#include "kdopcd/ccd/ccd_query.hpp"
#include "kdopcd_cuda/ccd_filter.hpp"
#include "kdopcd_cuda/narrow_runner.hpp"

namespace kdopcd::cuda {
namespace {

// An n x n grid in the unit square folded about x = 0.5 by `angle`, the fold angle growing with y
// and the folded half lifted, so that past pi it closes on itself from one corner.
struct FoldingGrid {
  ccd::Topology topology;
  std::vector<Vec3> flat;
  explicit FoldingGrid(int n) {
    std::vector<TriangleIndices> triangles;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) flat.emplace_back(double(i) / (n - 1), double(j) / (n - 1), 0.0);
    for (int j = 0; j + 1 < n; ++j)
      for (int i = 0; i + 1 < n; ++i) {
        const auto v = std::uint32_t(j * n + i), m = std::uint32_t(n);
        triangles.push_back({v, v + 1, v + m + 1});
        triangles.push_back({v, v + m + 1, v + m});
      }
    topology = ccd::Topology::of(triangles, flat.size(), "grid");
  }
  std::vector<Vec3> folded(double angle) const {
    std::vector<Vec3> out;
    for (const Vec3& v : flat) {
      if (v.x() <= 0.5) {
        out.push_back(v);
        continue;
      }
      const double r = v.x() - 0.5, a = angle + 0.25 * v.y();
      out.emplace_back(0.5 + r * std::cos(a), v.y(), r * (std::sin(a) + 0.1));
    }
    return out;
  }
};

TEST(Gpu, CcdElementaryFilterEqualsTheHostFilter) {
  std::string why;
  if (!device_available(&why)) GTEST_SKIP() << "no usable GPU: " << why;
  const FoldingGrid grid(13);
  std::size_t compared = 0, decided = 0;
  for (int f = 0; f < 5; ++f) {
    const std::vector<Vec3> a = grid.folded(std::numbers::pi * (0.6 + 0.12 * f)),
                            b = grid.folded(std::numbers::pi * (0.6 + 0.12 * (f + 1)));
    const ccd::MovingMesh m{&grid.topology, {a, b}};
    const ccd::SweptTree tree(grid.topology, m.motion, 18, ccd::SweptTree::Use::self_collision);
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
