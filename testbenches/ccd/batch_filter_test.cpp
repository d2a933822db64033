// The elementary tests in batches (CcdOptions::elementary_filter): the traversal collects the
// feature pairs and a filter decides them together (on the host's threads here, on a GPU in
// testbenches/cuda/ccd_filter_test.cpp); the answers must equal the inline tests' and brute force,
// also when the batches are flushed in the middle of the traversal.
#include <gtest/gtest.h>

#include <atomic>
#include <numbers>

#include "ccd_test_util.hpp"
#include "kdopcd/shapes.hpp"

namespace kdopcd::ccd {
namespace {

TEST(CcdBatch, SelfCollisionEqualsTheInlineTests) {
  const Mesh grid = test::grid_mesh(11);
  const Topology T = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  const int frames = 6;
  const std::vector<std::vector<Vec3>> positions = test::closing_fold_frames(grid, frames);
  std::atomic<std::size_t> filtered{0}, calls{0};
  const ElementaryFilterBatch counting = [&](std::span<const ElementaryKind> kinds, std::span<const ElementaryPoints> points,
                                             std::span<double> times) {
    ++calls;
    filtered += points.size();
    host_elementary_filter(kinds, points, times);
  };
  int contacts = 0;
  for (int f = 0; f + 1 < frames; ++f) {
    SCOPED_TRACE("frame interval " + std::to_string(f));
    const MovingMesh m{&T, {positions[std::size_t(f)], positions[std::size_t(f) + 1]}};
    const SweptTree tree(T, m.motion, 18, SweptTree::Use::self_collision);
    const CcdResult inline_result = ccd_self(m, tree);
    for (std::size_t batch : {std::size_t(7), std::size_t(1) << 14}) {
      filtered = 0;
      const CcdResult batched = ccd_self(m, tree, {.elementary_filter = counting, .elementary_batch = batch});
      test::expect_same(batched, inline_result);
      EXPECT_EQ(batched.stats.elementary_tests, inline_result.stats.elementary_tests);
      EXPECT_EQ(batched.stats.feature_pairs, inline_result.stats.feature_pairs);
      EXPECT_EQ(filtered.load(), batched.stats.elementary_tests);  // every pair went through the filter
    }
    test::expect_same(inline_result, brute_force_self(m));
    contacts += inline_result.time.has_value();
  }
  EXPECT_GT(contacts, 0);
  EXPECT_GT(calls.load(), 0u);
}

TEST(CcdBatch, RigidPairEqualsTheInlineTests) {
  // Box b slides into box a face to face: many simultaneous pairs at t* = 0.5.
  const Mesh box = make_box(Vec3(0.5, 0.5, 0.5));
  const test::OwnedMotion a = test::rigid(box, Pose{}, Pose{});
  const test::OwnedMotion b = test::rigid(box, test::pose(Vec3(2, 0, 0)), test::pose(Vec3(0, 0, 0)));
  const SweptTree ta(a.topology, a.view().motion, 18, SweptTree::Use::pairs), tb(b.topology, b.view().motion, 18, SweptTree::Use::pairs);
  const CcdResult inline_result = ccd_pair(a.view(), ta, b.view(), tb);
  ASSERT_TRUE(inline_result.time.has_value());
  for (int threads : {1, 0}) {
    const CcdResult batched =
        ccd_pair(a.view(), ta, b.view(), tb, {.threads = threads, .elementary_filter = host_elementary_filter, .elementary_batch = 3});
    test::expect_same(batched, inline_result);
    EXPECT_EQ(batched.stats.elementary_tests, inline_result.stats.elementary_tests);
  }
}

}  // namespace
}  // namespace kdopcd::ccd
