// The broad phases (multibody.hpp) on the layouts that made a plain sweep slow or that stress the
// column and cell arithmetic: a spread-out grid of objects, a pile at one spot, a plane, mixed
// sizes, points and touching boxes. Every candidate set is checked against brute force; the
// times are a benchmark's (bench/broad_phase_bench.cpp), not a test's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "kdopcd/shapes.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda {
namespace {

// The world boxes of `objects` copies of a small sphere mesh, as kdop multibody-scene places them.
std::vector<Aabb> scene_boxes(int objects, double density, std::uint64_t seed) {
  const Mesh sphere = make_sphere(1, 1);
  const Scene scene = generate_scene("sphere.off", sphere, objects, density, seed);
  std::vector<Pose> poses;
  for (const auto& o : scene.objects) poses.push_back(o.pose);
  return MultibodyWorld({sphere}, std::vector<std::uint32_t>(poses.size(), 0), poses, 6).world_boxes();
}

void expect_all_agree(const std::vector<Aabb>& boxes, const char* what) {
  const auto brute = brute_force_pairs(boxes);
  EXPECT_EQ(sort_and_sweep(boxes), brute) << what;
  EXPECT_EQ(host_grid_pairs(boxes, make_grid(boxes)), brute) << what;
}

TEST(BroadPhaseLayouts, SpreadOutGridAtSeveralDensities) {
  // 20^3 objects: no pair at density 0.1, some at 1, many at 3.
  std::size_t previous = 0;
  for (double density : {0.1, 1.0, 3.0}) {
    const auto boxes = scene_boxes(8000, density, 7);
    const auto brute = brute_force_pairs(boxes);
    if (density == 0.1) {
      EXPECT_TRUE(brute.empty());
    }
    EXPECT_GE(brute.size(), previous);
    previous = brute.size();
    EXPECT_EQ(sort_and_sweep(boxes), brute) << density;
    EXPECT_EQ(host_grid_pairs(boxes, make_grid(boxes)), brute) << density;
  }
  EXPECT_GT(previous, 8000u);
}

TEST(BroadPhaseLayouts, PileAtOneSpot) {
  const auto boxes = scene_boxes(600, 1000, 3);
  const auto brute = brute_force_pairs(boxes);
  EXPECT_GT(brute.size(), 600u * 599u / 2 * 9 / 10);  // nearly every pair
  EXPECT_EQ(sort_and_sweep(boxes), brute);
  EXPECT_EQ(host_grid_pairs(boxes, make_grid(boxes)), brute);
}

TEST(BroadPhaseLayouts, PlaneMixedSizesPointsAndTouchingBoxes) {
  std::vector<Aabb> plane, mixed, points, touching;
  std::uint64_t x = 12345;
  auto uniform = [&] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return double(x >> 11) * 0x1.0p-53;
  };
  for (int i = 0; i < 2000; ++i) {
    // A flat layer (no spread along z): the sweep axis and the columns come from x and y.
    const double px = uniform() * 100, py = uniform() * 100, s = 0.5 + uniform();
    plane.push_back({{px, py, 0}, {px + s, py + s, 0.5}});
    // Small boxes and a few large ones: the columns are as wide as the largest.
    const double m = i % 500 == 0 ? 40 : 0.3 + uniform();
    mixed.push_back({{px, py, uniform() * 100}, {px + m, py + m, uniform() * 100 + 100}});
    // Zero-extent boxes, many on the same few points.
    const double q = std::floor(uniform() * 10);
    points.push_back({{q, q * 2, -q}, {q, q * 2, -q}});
  }
  // Unit boxes on an integer lattice: neighbours touch exactly (closed boxes overlap).
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j)
      for (int k = 0; k < 12; ++k) touching.push_back({{double(i), double(j), double(k)}, {i + 1.0, j + 1.0, k + 1.0}});
  expect_all_agree(plane, "plane");
  expect_all_agree(mixed, "mixed sizes");
  expect_all_agree(points, "points");
  expect_all_agree(touching, "touching lattice");
  EXPECT_EQ(brute_force_pairs(touching).size(), std::size_t(3 * 12 * 12 * 11 + 6 * 12 * 11 * 11 + 4 * 11 * 11 * 11));
  EXPECT_TRUE(sort_and_sweep({}).empty());
  EXPECT_TRUE(sort_and_sweep({plane[0]}).empty());
}

}  // namespace
}  // namespace kdopcd::cuda
