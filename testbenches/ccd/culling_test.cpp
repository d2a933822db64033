// The culling rules in front of the elementary search must never drop a contact: every feature pair
// a rule culls is decided again in exact arithmetic alone (first_contact_exact_only, which runs no
// culling stage), on cloth sequences where the rules are exercised: a grid folding onto itself and
// a crumpled grid (random vertex motions of about a cell), where neighbouring features come close
// and touch. Each test also asserts that the feature-plane rule culled most of what the axis rule
// leaves, so it cannot pass vacuously. The shortcut for features already touching at t = 0
// (touching_at_start) is checked the same way on two cloth layers lying on one plane.
#include <gtest/gtest.h>

#include <cstdio>
#include <cmath>
#include <numbers>
#include <random>

#include "ccd_test_util.hpp"
#include "kdopcd/ccd/elementary.hpp"

namespace kdopcd::ccd {
namespace {

struct RuleCounts {
  std::size_t pairs = 0;          // non-adjacent feature pairs looked at
  std::size_t culled_axes = 0;    // culled by the coordinate-axis test
  std::size_t culled_planes = 0;  // culled by the feature-plane test and not by the axes
  std::size_t verified = 0;       // culled pairs decided again exactly
};

void put(ElementaryPoints& in, int slot, const std::vector<Vec3>& x0, const std::vector<Vec3>& x1, std::uint32_t v) {
  for (int k = 0; k < 3; ++k) {
    in.xyz[slot][0][k] = x0[v][k];
    in.xyz[slot][1][k] = x1[v][k];
  }
}

// Calls judge(kind, points) for every vertex-face and edge-edge pair of T that shares no vertex,
// over the motion x0 -> x1.
template <class Judge>
void for_each_nonadjacent_feature_pair(const Topology& T, const std::vector<Vec3>& x0, const std::vector<Vec3>& x1,
                                       Judge&& judge) {
  for (std::uint32_t v = 0; v < T.vertex_count; ++v)
    for (const TriangleIndices& tri : T.triangles) {
      if (tri[0] == v || tri[1] == v || tri[2] == v) continue;
      ElementaryPoints in{};
      put(in, 0, x0, x1, v);
      for (int c = 0; c < 3; ++c) put(in, 1 + c, x0, x1, tri[std::size_t(c)]);
      judge(ElementaryKind::VertexFace, in);
    }
  for (std::size_t i = 0; i < T.edges.size(); ++i)
    for (std::size_t j = i + 1; j < T.edges.size(); ++j) {
      const EdgeIndices& e = T.edges[i];
      const EdgeIndices& f = T.edges[j];
      if (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) continue;
      ElementaryPoints in{};
      put(in, 0, x0, x1, e[0]);
      put(in, 1, x0, x1, e[1]);
      put(in, 2, x0, x1, f[0]);
      put(in, 3, x0, x1, f[1]);
      judge(ElementaryKind::EdgeEdge, in);
    }
}

// Every non-adjacent VF and EE pair of the mesh over the motion x0 -> x1: each pair culled by the
// feature-plane rule and not by the axes (and the axes' culls up to `verify_cap`) must have no
// contact in exact arithmetic.
void check_rules(const Mesh& grid, const std::vector<Vec3>& x0, const std::vector<Vec3>& x1, RuleCounts& counts,
                 std::size_t verify_cap) {
  const Topology T = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  auto judge = [&](ElementaryKind kind, const ElementaryPoints& in) {
    ++counts.pairs;
    const bool axes = relative_motion_apart_on_axes(kind, in);
    const bool planes = relative_motion_apart_on_feature_planes(kind, in);
    if (!axes && planes) ++counts.culled_planes;
    if (axes) ++counts.culled_axes;
    // Every pair the planes alone cull, and the axes' culls up to the cap.
    if ((planes && !axes) || (axes && counts.verified < verify_cap)) {
      ++counts.verified;
      EXPECT_EQ(first_contact_exact_only(kind, in), kNoContact)
          << "a rule culled a touching pair: axes " << axes << ", planes " << planes;
    }
  };
  for_each_nonadjacent_feature_pair(T, x0, x1, judge);
}

// The traversal with the rules against brute force (same rules) and, independently of any rule,
// every contact it reports is a contact of the exact-only test.
void check_self(const Mesh& grid, const std::vector<Vec3>& x0, const std::vector<Vec3>& x1) {
  const Topology T = Topology::of(grid.triangles, grid.vertices.size(), "grid");
  const MovingMesh m{&T, {x0, x1}};
  const SweptTree tree(T, m.motion, 18, SweptTree::Use::self_collision);
  const CcdResult ccd = ccd_self(m, tree);
  test::expect_same(ccd, brute_force_self(m));
  for (const FeatureContact& c : ccd.contacts) {
    ElementaryPoints in{};
    if (c.kind == ElementaryKind::VertexFace) {
      put(in, 0, x0, x1, c.ids[0]);
      for (int k = 0; k < 3; ++k) put(in, 1 + k, x0, x1, T.triangles[c.ids[1]][std::size_t(k)]);
    } else {
      for (int k = 0; k < 4; ++k) put(in, k, x0, x1, c.ids[k]);
    }
    EXPECT_EQ(first_contact_exact_only(c.kind, in), *ccd.time) << "contact kind " << int(c.kind) << " ids " << c.ids[0] << " " << c.ids[1];
  }
}

// The feature planes must have culled most of what the axes leave, and enough culls must have been
// decided again exactly, or the test could pass without exercising the rule.
void expect_rules_exercised(const RuleCounts& counts) {
  std::printf("pairs %zu, culled by the axes %zu, by the feature planes alone %zu, verified exactly %zu\n",
              counts.pairs, counts.culled_axes, counts.culled_planes, counts.verified);
  EXPECT_GT(counts.culled_planes, (counts.pairs - counts.culled_axes) / 2);
  EXPECT_GT(counts.verified, 1000u);
}

TEST(CcdCulling, FeaturePlanesNeverCullAContactOnAFoldingGrid) {
  const Mesh grid = test::grid_mesh(8);
  RuleCounts counts;
  const int frames = 5;
  for (int f = 0; f + 1 < frames; ++f) {
    const auto x0 = test::folded_grid(grid, std::numbers::pi * (0.8 + 0.5 * f / (frames - 1)));
    const auto x1 = test::folded_grid(grid, std::numbers::pi * (0.8 + 0.5 * (f + 1) / (frames - 1)));
    check_rules(grid, x0, x1, counts, 4000 * std::size_t(f + 1));
    check_self(grid, x0, x1);
  }
  expect_rules_exercised(counts);
}

TEST(CcdCulling, FeaturePlanesNeverCullAContactOnACrumpledGrid) {
  // Every vertex moves randomly by up to 1.5 cells in each direction from a crumpled start: many
  // neighbouring features touch or pass through each other.
  const Mesh grid = test::grid_mesh(7);
  const double cell = 1.0 / 6;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> jitter(-1.5 * cell, 1.5 * cell);
  std::uniform_real_distribution<double> lift(-0.5 * cell, 0.5 * cell);
  RuleCounts counts;
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<Vec3> x0, x1;
    for (const Vec3& v : grid.vertices) {
      x0.push_back(v + Vec3(0, 0, lift(rng)));
      x1.push_back(x0.back() + Vec3(jitter(rng), jitter(rng), jitter(rng)));
    }
    check_rules(grid, x0, x1, counts, 3000 * std::size_t(trial + 1));
    check_self(grid, x0, x1);
  }
  expect_rules_exercised(counts);
}

TEST(CcdCulling, TouchingAtTheStartIsAnExactContactAtZero) {
  // A folded cloth resting flat: two layers of one mesh on the plane z = 0, the upper one shifted
  // by a third of a cell, so vertices lie inside the other layer's triangles and edges cross, all
  // exactly coplanar (the contacts at t = 0 of a cloth lying on the ground). Each layer drifts in
  // the plane; some pairs also lift off.
  const Mesh layer = test::grid_mesh(6);
  Mesh two;
  two.vertices = layer.vertices;
  for (const Vec3& v : layer.vertices) two.vertices.push_back(v + Vec3(0.3 / 5, 0.2 / 5, 0));
  two.triangles = layer.triangles;
  const std::uint32_t n = std::uint32_t(layer.vertices.size());
  for (const TriangleIndices& t : layer.triangles) two.triangles.push_back({t[0] + n, t[1] + n, t[2] + n});
  std::vector<Vec3> x0 = two.vertices, x1 = two.vertices;
  for (std::size_t i = 0; i < x1.size(); ++i)
    x1[i] += i < n ? Vec3(0.02, 0, 0) : Vec3(-0.01, 0.03, i % 3 == 0 ? 0.05 : 0.0);
  const Topology T = Topology::of(two.triangles, two.vertices.size(), "layers");
  std::size_t touching = 0, checked = 0;
  auto judge = [&](ElementaryKind kind, const ElementaryPoints& in) {
    if (!touching_at_start(kind, in)) return;
    ++touching;
    if (checked++ < 3000) {
      EXPECT_EQ(first_contact_exact_only(kind, in), 0.0) << "kind " << int(kind);
    }
  };
  for_each_nonadjacent_feature_pair(T, x0, x1, judge);
  std::printf("pairs touching at the start %zu, decided exactly %zu\n", touching, std::min(touching, checked));
  EXPECT_GT(touching, 100u);
  // The traversal with the shortcut: every touching pair found, t* = 0, as brute force.
  const MovingMesh m{&T, {x0, x1}};
  const SweptTree tree(T, m.motion, 18, SweptTree::Use::self_collision);
  const CcdResult ccd = ccd_self(m, tree);
  test::expect_same(ccd, brute_force_self(m));
  ASSERT_TRUE(ccd.time.has_value());
  EXPECT_EQ(*ccd.time, 0.0);
  EXPECT_GT(ccd.contacts.size(), 100u);
}

}  // namespace
}  // namespace kdopcd::ccd
