#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "kdopcd/error.hpp"
#include "kdopcd/orientations.hpp"

using namespace kdopcd;

TEST(Orientations, UnitAndAntiparallel) {
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    ASSERT_EQ(int(set.directions().size()), k);
    for (int i = 0; i < k / 2; ++i) {
      EXPECT_NEAR(set.direction(i).norm(), 1.0, 1e-15);
      EXPECT_EQ(set.direction(i + k / 2), -set.direction(i));
    }
  }
}

TEST(Orientations, UnsupportedKIsAnInputError) { EXPECT_THROW(OrientationSet(10), InputError); }

TEST(Orientations, MaximalDopVerticesAreFeasibleAndRmaxMatchesDesign) {
  // r_max per set, measured independently with scipy (docs/design.md §2).
  const std::map<int, double> expected{{6, std::sqrt(3.0)}, {14, 1.2393}, {18, 1.2247}, {24, 1.2247}, {26, 1.1281}};
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    ASSERT_FALSE(set.vertices().empty());
    double r = 0;
    for (const Vec3& v : set.vertices()) {
      for (const Vec3& d : set.directions()) EXPECT_LE(d.dot(v), 1 + 1e-9);
      r = std::max(r, v.norm());
    }
    EXPECT_DOUBLE_EQ(set.r_max(), r);
    EXPECT_NEAR(set.r_max(), expected.at(k), 1e-4) << "k = " << k;
    EXPECT_LE(set.r_max(), std::sqrt(3.0) + 1e-12);  // the paper's bound
  }
}

// For random unit axes (and the set's own directions, which lie on cone boundaries) a triple
// exists, P reproduces L, and every P_i is in [-1, 0]; P . d is then a lower bound of L . x.
TEST(Orientations, TriplesExistWithMappingVectorsInMinusOneZero) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g;
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    std::vector<Vec3> axes = set.directions();
    for (int i = 0; i < 20000; ++i) axes.push_back(Vec3(g(rng), g(rng), g(rng)).normalized());
    for (const Vec3& L : axes) {
      const FaceTriple t = set.triple_for(L);
      Vec3 back = Vec3::Zero();
      for (int i = 0; i < 3; ++i) {
        EXPECT_GE(t.P[i], -1.0);
        EXPECT_LE(t.P[i], 0.0);
        back += t.P[i] * set.direction(t.j[i]);
      }
      EXPECT_NEAR((back - L).norm(), 0, 1e-12) << "k = " << k;
      // The triple's vertex is extreme in -L among all maximal-DOP vertices.
      double best = 1e300;
      for (const Vec3& v : set.vertices()) best = std::min(best, L.dot(v));
      EXPECT_NEAR(t.P[0] + t.P[1] + t.P[2], best, 1e-12);
    }
  }
}

TEST(Orientations, OwnDirectionTriplesAreExactVertexTriples) {
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    for (int i = 0; i < k; ++i) {
      const FaceTriple& t = set.own_direction_triple(i);
      EXPECT_EQ(t.j[0], (i + k / 2) % k);
      EXPECT_EQ(t.P, (std::array<double, 3>{-1.0, 0.0, 0.0}));
      auto sorted = t.j;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_NE(std::find(set.vertex_triples().begin(), set.vertex_triples().end(), sorted), set.vertex_triples().end());
      // Same projection as the searched triple: P . 1 equals the searched one's cross sum.
      const FaceTriple searched = set.triple_for(set.direction(i));
      EXPECT_NEAR(searched.P[0] + searched.P[1] + searched.P[2], -1.0, 1e-12);
    }
  }
}
