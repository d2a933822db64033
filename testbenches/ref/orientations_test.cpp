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

// triple_for looks in a cube map's cell; triple_for_scan tries every triple in order. They must
// give the same triple (bit for bit) for every axis: random ones, ones on and next to the cells'
// edges, and ones on and next to the triples' cone boundaries (the set's directions, sums and
// differences of two or three of them, each nudged by a few ulps).
TEST(Orientations, CubeMapGivesTheScannedTriple) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g;
  std::uniform_int_distribution<int> pick(0, 1 << 20);
  auto same = [](const FaceTriple& x, const FaceTriple& y) { return x.j == y.j && x.P == y.P; };
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    std::vector<Vec3> axes;
    for (int i = 0; i < 100000; ++i) axes.push_back(Vec3(g(rng), g(rng), g(rng)).normalized());
    for (const Vec3& d : set.directions())
      for (const Vec3& e : set.directions()) {
        axes.push_back(d);
        axes.push_back((d + e).normalized());
        axes.push_back((d - e).normalized());
        axes.push_back((d + e + set.direction(pick(rng) % k)).normalized());
      }
    for (int i = 0; i < 20000; ++i) {  // on the cells' edges (multiples of 2/16 in u and v)
      Vec3 c;
      const int a = pick(rng) % 3;
      c[a] = pick(rng) % 2 ? 1.0 : -1.0;
      c[(a + 1) % 3] = -1 + (pick(rng) % 17) / 8.0;
      c[(a + 2) % 3] = pick(rng) % 2 ? -1 + (pick(rng) % 17) / 8.0 : 2 * (pick(rng) / double(1 << 20)) - 1;
      axes.push_back(c.normalized());
    }
    const std::size_t base = axes.size();
    for (std::size_t i = 0; i < base; ++i) {  // nudged by a few ulps
      Vec3 L = axes[i];
      for (int c = 0; c < 3; ++c)
        for (int n = pick(rng) % 4; n > 0; --n) L[c] = std::nextafter(L[c], pick(rng) % 2 ? 2.0 : -2.0);
      axes.push_back(L);
    }
    for (const Vec3& L : axes) ASSERT_TRUE(same(set.triple_for(L), set.triple_for_scan(L))) << "k = " << k << " L = " << L.transpose();
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
