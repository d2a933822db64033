// Tests of the triangle unit's fixed-point triangle test (tri_fixed.hpp, docs/triangle-unit.md).
//
// (1) TriFixedExact: the integer verdict equals exact rational arithmetic on the SAME integer
//     coordinates (converted to doubles, exact below 2^53, then triangles_intersect_exact, which
//     shares no code) on random, lattice (coplanar, collinear, touching, shared edge/vertex) and
//     quantized-scene families, and at coordinates up to 2^60.
// (2) TriFixedMesh: on real meshes in the four pose classes, the fixed contact set differs from
//     the double-precision one only in pairs closer than triangle_delta.
// (3) TriFixedRange: documented widths hold at the extremes; out-of-range T, vertices and
//     coordinates are reported (exceptions / in_range = false), never wrapped.
// (4) TriFixedPermutation: the verdict does not depend on vertex order or triangle order.
#include <gtest/gtest.h>
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/multiprecision/cpp_int.hpp>

#include "kdopcd/collide.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd/triangle_boxes.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd/tri_tri_exact.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

using Rng = std::mt19937_64;
using I64 = std::int64_t;
using BigInt = boost::multiprecision::cpp_int;

I64 irand(Rng& r, I64 lo, I64 hi) { return std::uniform_int_distribution<I64>(lo, hi)(r); }
double uni(Rng& r, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(r); }

FixedVertex add(const FixedVertex& a, const FixedVertex& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
FixedVertex scale(const FixedVertex& a, I64 k) { return {a[0] * k, a[1] * k, a[2] * k}; }
FixedVertex rand_fv(Rng& r, I64 lo, I64 hi) { return {irand(r, lo, hi), irand(r, lo, hi), irand(r, lo, hi)}; }

FixedTriangle tri(const FixedVertex& a, const FixedVertex& b, const FixedVertex& c) { return FixedTriangle{{a, b, c}}; }

// Exact while |coordinate| < 2^53.
Vec3 to_vec3(const FixedVertex& x) { return Vec3(double(x[0]), double(x[1]), double(x[2])); }

std::string show(const FixedTriangle& a, const FixedTriangle& b) {
  std::ostringstream os;
  for (const FixedTriangle* t : {&a, &b}) {
    os << "{";
    for (const FixedVertex& v : t->v) os << "(" << v[0] << "," << v[1] << "," << v[2] << ")";
    os << "}";
  }
  return os.str();
}

bool rational(const FixedTriangle& a, const FixedTriangle& b) {
  return triangles_intersect_exact(to_vec3(a.v[0]), to_vec3(a.v[1]), to_vec3(a.v[2]), to_vec3(b.v[0]),
                                   to_vec3(b.v[1]), to_vec3(b.v[2]));
}
bool double_exact(const FixedTriangle& a, const FixedTriangle& b) {
  return triangles_intersect(to_vec3(a.v[0]), to_vec3(a.v[1]), to_vec3(a.v[2]), to_vec3(b.v[0]), to_vec3(b.v[1]),
                             to_vec3(b.v[2]));
}

struct Stats {
  long pairs = 0, hits = 0, rational_checked = 0, mismatches = 0;
  std::vector<std::string> first;
  void add(const FixedTriangle& a, const FixedTriangle& b, bool check_rational) {
    const bool f = fixed_triangles_intersect(a, b);
    // The exact double test (filtered exact predicates) on the same coordinates: cheap, so on
    // every pair; the rational test (different method, no shared code) on a subset.
    bool ref = double_exact(a, b);
    if (check_rational) {
      const bool q = rational(a, b);
      ++rational_checked;
      if (q != ref && first.size() < 5) first.push_back("double != rational: " + show(a, b));
      mismatches += q != ref;
      ref = q;
    }
    ++pairs;
    hits += f;
    if (f != ref) {
      ++mismatches;
      if (first.size() < 5) first.push_back(show(a, b) + (ref ? " ref=1" : " ref=0"));
    }
  }
  void merge(const Stats& o) {
    pairs += o.pairs;
    hits += o.hits;
    rational_checked += o.rational_checked;
    mismatches += o.mismatches;
    for (const auto& s : o.first)
      if (first.size() < 5) first.push_back(s);
  }
};

// gen(rng, a, b) n times on two threads; every `rational_every`-th pair also against cpp_rational.
template <class Gen>
Stats run_family(std::uint64_t seed, long n, long rational_every, Gen gen) {
  constexpr int kThreads = 2;
  std::vector<Stats> part(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(seed * 7919 + t);
      for (long i = t; i < n; i += kThreads) {
        FixedTriangle a, b;
        gen(rng, a, b);
        part[t].add(a, b, i % rational_every == 0);
      }
    });
  }
  for (auto& th : threads) th.join();
  Stats all;
  for (const auto& p : part) all.merge(p);
  return all;
}

void expect_clean(const Stats& s, const std::string& family, bool both_answers = true) {
  EXPECT_EQ(s.mismatches, 0) << family;
  for (const auto& m : s.first) ADD_FAILURE() << family << ": fixed != exact: " << m;
  if (both_answers) {
    EXPECT_GT(s.hits, s.pairs / 50) << family << ": too few intersecting pairs to test anything";
    EXPECT_LT(s.hits, s.pairs - s.pairs / 50) << family << ": too few disjoint pairs";
  }
  std::printf("%-34s pairs %7ld (rational %6ld) intersecting %7ld\n", family.c_str(), s.pairs, s.rational_checked,
              s.hits);
}

// The largest |coordinate| of placed second-object vertices at the defaults: 7 2^48.
constexpr I64 kRange = I64(7) << 48;

// A random affine image of a small integer lattice: A x + o, with a random small integer matrix A
// and offset o. Incidences of the lattice (shared vertices, points on edges and faces, coplanar
// and collinear triples) survive, and the coordinates are large and not axis-aligned.
struct Lattice {
  std::array<FixedVertex, 3> cols;  // A's columns
  FixedVertex o;
  I64 grid;  // lattice coordinates in [0, grid]
  Lattice(Rng& r, int planar_dims, I64 mult) {
    grid = irand(r, 1, 3);
    for (auto& c : cols) c = scale(rand_fv(r, -3, 3), mult);
    if (planar_dims == 2) cols[2] = {0, 0, 0};                              // one plane
    if (planar_dims == 1) cols[1] = cols[2] = {0, 0, 0};                    // one line
    const I64 span = 9 * grid * mult;
    o = rand_fv(r, -kRange + span, kRange - span);
  }
  FixedVertex point(Rng& r) const {
    FixedVertex x = o;
    for (int k = 0; k < 3; ++k) x = add(x, scale(cols[k], irand(r, 0, grid)));
    return x;
  }
};

// ---------------------------------------------------------------------------------------------
// (1) Equal to exact arithmetic on the same integer coordinates

TEST(TriFixedExact, PredicatesMatchBigIntegers) {
  // orient3d decides by a double filter where it can, else by an __int128 path when the
  // products fit and a 256-bit path otherwise: all against unbounded integers, at every magnitude
  // up to the 2^60 limit, near-degenerate too (the cases the filter leaves to the integers).
  Rng r(30);
  const I64 lim = kFixedCoordinateLimit - 1;
  long zeros = 0;
  for (int it = 0; it < 200000; ++it) {
    const int e = int(irand(r, 0, 59));
    const I64 h = e == 59 ? lim / 2 : (I64(1) << e);
    const FixedVertex o = rand_fv(r, -lim + 2 * h, lim - 2 * h);
    FixedVertex p[4];
    for (auto& x : p) x = add(o, rand_fv(r, -h, h));
    if (it % 2) {  // d on the plane of a, b, c (a lattice), then moved by at most one unit
      const I64 k = I64(1) << irand(r, 0, std::max(0, e - 3));
      const FixedVertex u = scale(rand_fv(r, -3, 3), k), w = scale(rand_fv(r, -3, 3), k);
      p[1] = add(p[0], u);
      p[2] = add(p[0], w);
      p[3] = add(p[0], add(scale(u, irand(r, -1, 1)), scale(w, irand(r, -1, 1))));
      p[3][irand(r, 0, 2)] += irand(r, -1, 1);
    }
    BigInt d[3][3];
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) d[i][k] = BigInt(p[i + 1][k]) - BigInt(p[0][k]);
    const BigInt det = d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) -
                       d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
                       d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
    ASSERT_EQ(fixed_orient3d(p[0], p[1], p[2], p[3]), det.sign()) << it;
    zeros += det == 0;
    const BigInt det2 = d[0][0] * d[1][1] - d[0][1] * d[1][0];
    ASSERT_EQ(fixed_orient2d(p[0][0], p[0][1], p[1][0], p[1][1], p[2][0], p[2][1]), det2.sign()) << it;
  }
  EXPECT_GT(zeros, 10000);
}

TEST(TriFixedExact, RandomBoxesAtManyScales) {
  auto gen = [](Rng& r, FixedTriangle& a, FixedTriangle& b) {
    const int e = int(irand(r, 1, 49));  // triangle size 2^e units, anywhere in the range
    const I64 h = I64(1) << e;
    const FixedVertex ca = rand_fv(r, -kRange + 2 * h, kRange - 2 * h);
    const FixedVertex cb = add(ca, rand_fv(r, -h / 2, h / 2));
    for (auto& v : a.v) v = add(ca, rand_fv(r, -h, h));
    for (auto& v : b.v) v = add(cb, rand_fv(r, -h, h));
  };
  expect_clean(run_family(1, 120000, 20, gen), "random boxes 2^1..2^49");
}

TEST(TriFixedExact, LatticeCoplanarCollinearTouching) {
  // Both triangles on one random lattice of `dims` dimensions (3: shared vertices and edges,
  // vertices on edges/faces, degenerate triangles; 2: every pair coplanar, the 2D branch with
  // exact orient2d; 1: segments or points on one line).
  auto lattice_pair = [](int dims) {
    return [dims](Rng& r, FixedTriangle& a, FixedTriangle& b) {
      const Lattice L(r, dims, I64(1) << irand(r, 0, 40));
      for (auto& v : a.v) v = L.point(r);
      for (auto& v : b.v) v = L.point(r);
    };
  };
  expect_clean(run_family(2, 60000, 6, lattice_pair(3)), "lattice 3D");
  expect_clean(run_family(3, 60000, 6, lattice_pair(2)), "lattice coplanar");
  expect_clean(run_family(4, 20000, 6, lattice_pair(1)), "lattice collinear");
  // Nearly coplanar: a plane lattice with one coordinate of one vertex moved by one unit.
  auto gen_near = [](Rng& r, FixedTriangle& a, FixedTriangle& b) {
    const Lattice L(r, 2, I64(1) << irand(r, 0, 40));
    for (auto& v : a.v) v = L.point(r);
    for (auto& v : b.v) v = L.point(r);
    b.v[irand(r, 0, 2)][irand(r, 0, 2)] += irand(r, 0, 1) ? 1 : -1;
  };
  expect_clean(run_family(5, 40000, 6, gen_near), "nearly coplanar (1 unit)");
}

TEST(TriFixedExact, TouchingAtExactGridPoints) {
  // T1 = (p, p + n a, p + n b); z = p + i a + j b is a grid point of T1 (a vertex, on an edge, or
  // inside) or just outside it (i + j = n + 1). T2 has z as a vertex and goes up, down, sideways
  // in the plane, or straddles: every touching configuration with a known answer.
  long hits = 0, n_pairs = 0;
  Rng r(6);
  for (int it = 0; it < 30000; ++it) {
    const I64 mult = I64(1) << irand(r, 0, 40);
    const I64 n = irand(r, 1, 6);
    const FixedVertex p = rand_fv(r, -kRange / 2, kRange / 2);
    FixedVertex a = scale(rand_fv(r, -4, 4), mult), b = scale(rand_fv(r, -4, 4), mult);
    const FixedTriangle t1{{p, add(p, scale(a, n)), add(p, scale(b, n))}};
    const I64 i = irand(r, 0, n + 1), j = irand(r, 0, n + 1 - i);
    const FixedVertex z = add(p, add(scale(a, i), scale(b, j)));
    FixedVertex w1 = scale(rand_fv(r, -4, 4), mult), w2 = scale(rand_fv(r, -4, 4), mult);
    if (irand(r, 0, 2) == 0) w1 = add(scale(a, irand(r, -2, 2)), scale(b, irand(r, -2, 2)));  // in the plane
    const FixedTriangle t2{{z, add(z, w1), add(z, w2)}};
    const bool f = fixed_triangles_intersect(t1, t2);
    const bool ref = rational(t1, t2);
    ASSERT_EQ(f, ref) << show(t1, t2);
    ASSERT_EQ(f, double_exact(t1, t2)) << show(t1, t2);
    if (i + j <= n) {
      ASSERT_TRUE(f) << "z lies in T1: " << show(t1, t2);
    }
    // Shared edge and shared vertex always intersect.
    ASSERT_TRUE(fixed_triangles_intersect(t1, FixedTriangle{{t1.v[1], add(z, w2), t1.v[0]}}));
    ASSERT_TRUE(fixed_triangles_intersect(t1, FixedTriangle{{add(z, w1), t1.v[2], add(z, w2)}}));
    hits += f;
    ++n_pairs;
  }
  std::printf("touching at grid points: %ld pairs, %ld intersecting\n", n_pairs, hits);
  EXPECT_GT(hits, n_pairs / 2);
  EXPECT_LT(hits, n_pairs);
}

TEST(TriFixedExact, CoordinatesUpTo2To60) {
  // Multiples of 2^7 up to 2^59.9 are exact doubles; scaling all coordinates by 2^7 changes no
  // verdict. This runs the 256-bit path of orient3d (products up to 2^184).
  auto gen = [](Rng& r, FixedTriangle& a, FixedTriangle& b) {
    const I64 lim = (kFixedCoordinateLimit - 1) >> 7;  // < 2^53
    const bool lattice = irand(r, 0, 1);
    if (lattice) {
      const I64 mult = I64(1) << irand(r, 20, 46);
      std::array<FixedVertex, 3> cols;
      for (auto& c : cols) c = scale(rand_fv(r, -3, 3), mult);
      const FixedVertex o = rand_fv(r, -lim / 8, lim / 8);
      auto pt = [&] {
        FixedVertex x = o;
        for (auto& c : cols) x = add(x, scale(c, irand(r, 0, 2)));
        return x;
      };
      for (auto& v : a.v) v = pt();
      for (auto& v : b.v) v = pt();
    } else {
      for (auto& v : a.v) v = rand_fv(r, -lim, lim);
      for (auto& v : b.v) v = rand_fv(r, -lim, lim);
    }
    for (auto* t : {&a, &b})
      for (auto& v : t->v)
        for (auto& c : v) c *= 128;
  };
  Stats s = run_family(7, 40000, 4, gen);
  expect_clean(s, "coordinates up to 2^60");
  // The limit itself: 2^60 - 1 is accepted, 2^60 throws.
  const I64 big = kFixedCoordinateLimit - 1;
  const FixedTriangle t1 = tri({big, 0, 0}, {0, big, 0}, {0, 0, big});
  const FixedTriangle t2 = tri({-big, -big, -big}, {big, big, big}, {big, -big, big});
  EXPECT_NO_THROW(fixed_triangles_intersect(t1, t2));
  EXPECT_TRUE(fixed_triangles_intersect(t1, t2));  // the segment through (b/3, b/3, b/3) pierces t1
}

TEST(TriFixedExact, QuantizedScenesMatchRationalAndStayWithinDelta) {
  // Triangles in scene units, quantized exactly as the triangle unit receives them (coarse and
  // default formats); fixed == rational on the integers, and a verdict differing from the
  // double-precision test on the unquantized doubles only for pairs closer than delta.
  const TriangleFixedParams formats[] = {{24, 24}, {6, 8}, {10, 5}};
  for (const TriangleFixedParams fp : formats) {
    Rng r(8 + fp.v);
    long differ = 0, hits = 0;
    const int n = 6000;
    for (int it = 0; it < n; ++it) {
      const double s = std::ldexp(uni(r, 0.5, 1.0), int(irand(r, -10, 10)));
      const Pose pose{Eigen::Quaterniond(Eigen::AngleAxisd(uni(r, -3.2, 3.2),
                                                           Vec3(uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1)).normalized())),
                      Vec3(uni(r, -0.3, 0.3), uni(r, -0.3, 0.3), uni(r, -0.3, 0.3)) * s};
      Mesh m1, m2;
      const double size = std::ldexp(1.0, int(irand(r, -12, -2)));
      const Vec3 c(uni(r, -0.5, 0.5), uni(r, -0.5, 0.5), uni(r, -0.5, 0.5));
      auto rv = [&] { return Vec3(uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1)); };
      for (int k = 0; k < 3; ++k) m1.vertices.push_back((c + size * rv()) * s);
      // The second triangle is placed near the first: its local position is R^T (c' - t).
      const Vec3 target = c + size * rv() * 0.5;
      const Vec3 local_c = pose.matrix().transpose() * (target * s - pose.translation) / s;
      if (local_c.cwiseAbs().maxCoeff() > 0.7) continue;
      for (int k = 0; k < 3; ++k) m2.vertices.push_back((local_c + size * rv()) * s);
      m1.triangles = m2.triangles = {{0, 1, 2}};
      const FixedTriangle a = first_fixed_triangles(m1, s, fp)[0];
      const FixedTriangle b = placed_fixed_triangles(m2, s, fp, pose)[0];
      const bool f = fixed_triangles_intersect(a, b);
      ASSERT_EQ(f, rational(a, b)) << show(a, b);
      const std::vector<Vec3> placed = place_vertices(m2, pose);
      const bool d = triangles_intersect(m1.vertices[0], m1.vertices[1], m1.vertices[2], placed[0], placed[1], placed[2]);
      hits += f;
      if (f != d) {
        ++differ;
        const double dist = triangle_distance(m1.vertices[0], m1.vertices[1], m1.vertices[2], placed[0], placed[1],
                                              placed[2]);
        const double fdist =
            triangle_distance(fixed_to_scene(a.v[0], s, fp), fixed_to_scene(a.v[1], s, fp), fixed_to_scene(a.v[2], s, fp),
                              fixed_to_scene(b.v[0], s, fp), fixed_to_scene(b.v[1], s, fp), fixed_to_scene(b.v[2], s, fp));
        ASSERT_LE(std::max(dist, fdist), triangle_delta(s, fp)) << "v=" << fp.v << " m=" << fp.m << " " << show(a, b);
      }
    }
    std::printf("quantized scenes v=%d m=%d: %d pairs, %ld intersecting, %ld differ from double\n", fp.v, fp.m, n, hits,
                differ);
    if (fp.v < 12) {
      EXPECT_GT(differ, 0) << "the coarse format should produce differences to check";
    }
  }
}

// ---------------------------------------------------------------------------------------------
// (4) Permutation invariance

TEST(TriFixedPermutation, AllVertexOrdersAndBothTriangleOrders) {
  static constexpr int kPerm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  Rng r(40);
  long hits = 0;
  const int n = 3000;
  for (int it = 0; it < n; ++it) {
    FixedTriangle a, b;
    const Lattice L(r, int(irand(r, 1, 3)), I64(1) << irand(r, 0, 44));
    if (it % 4 == 0) {
      for (auto& v : a.v) v = rand_fv(r, -50, 50);
      for (auto& v : b.v) v = rand_fv(r, -50, 50);
    } else {
      for (auto& v : a.v) v = L.point(r);
      for (auto& v : b.v) v = L.point(r);
    }
    const bool ref = fixed_triangles_intersect(a, b);
    hits += ref;
    for (const auto& pa : kPerm)
      for (const auto& pb : kPerm) {
        const FixedTriangle ta{{a.v[pa[0]], a.v[pa[1]], a.v[pa[2]]}};
        const FixedTriangle tb{{b.v[pb[0]], b.v[pb[1]], b.v[pb[2]]}};
        ASSERT_EQ(fixed_triangles_intersect(ta, tb), ref) << show(a, b);
        ASSERT_EQ(fixed_triangles_intersect(tb, ta), ref) << show(a, b);
      }
  }
  EXPECT_GT(hits, n / 10);
  EXPECT_LT(hits, n - n / 10);
}

// ---------------------------------------------------------------------------------------------
// (3) Formats, widths and range

int magnitude_bits(const BigInt& x) { return x == 0 ? 0 : int(boost::multiprecision::msb(abs(x))) + 1; }
// A value fits a signed `width`-bit integer iff -2^(w-1) <= x < 2^(w-1); we require the
// (slightly stronger) |x| < 2^(w-1).
bool fits(const BigInt& x, int width) { return magnitude_bits(x) <= width - 1; }

TEST(TriFixedRange, WidthsAndDelta) {
  const TriangleUnitWidths w = triangle_unit_widths({24, 24});
  EXPECT_EQ(w.vertex, 26);
  EXPECT_EQ(w.rotation, 26);
  EXPECT_EQ(w.product_sum, 51);
  EXPECT_EQ(w.translation, 52);
  EXPECT_EQ(w.coordinate, 52);
  EXPECT_EQ(w.difference, 53);
  EXPECT_EQ(w.minor, 105);
  EXPECT_EQ(w.determinant, 157);
  // delta = s (sqrt3 (2^-v + 2^-(v+m+1)) + 3 sqrt3 2^-(m+1) (1 + 2^-(v+1)) + 2^-46) ~ 2.58e-7 s
  EXPECT_NEAR(triangle_delta(1.0, {24, 24}) / (5 * std::sqrt(3.0) * std::ldexp(1.0, -25)), 1.0, 1e-6);
  EXPECT_DOUBLE_EQ(triangle_delta(8.0, {24, 24}), 8 * triangle_delta(1.0, {24, 24}));
  EXPECT_THROW(triangle_unit_widths({0, 24}), std::invalid_argument);
  EXPECT_THROW(triangle_unit_widths({30, 27}), std::invalid_argument);
  EXPECT_THROW(triangle_delta(0.0, {24, 24}), std::invalid_argument);
  EXPECT_NO_THROW(triangle_unit_widths({28, 28}));
}

TEST(TriFixedRange, ExtremeInputsFitTheDocumentedWidths) {
  // Every stage at its extremes, computed in unbounded integers and compared with the widths:
  // |q| = 2^v, |M'_ij| = 2^m (any sign pattern, not only rotations), |T'| = 2^(v+m+2).
  for (const TriangleFixedParams fp : {TriangleFixedParams{24, 24}, TriangleFixedParams{20, 28},
                                       TriangleFixedParams{30, 18}, TriangleFixedParams{8, 8}}) {
    const TriangleUnitWidths w = triangle_unit_widths(fp);
    const BigInt V = BigInt(1) << fp.v, Mm = BigInt(1) << fp.m, Tm = BigInt(1) << (fp.v + fp.m + 2);
    EXPECT_TRUE(fits(V, w.vertex));
    EXPECT_TRUE(fits(Mm, w.rotation));
    EXPECT_TRUE(fits(Tm, w.translation));
    EXPECT_TRUE(fits(3 * V * Mm, w.product_sum));
    EXPECT_TRUE(fits(3 * V * Mm + Tm, w.coordinate));
    EXPECT_TRUE(fits(V * Mm + 3 * V * Mm + Tm, w.difference));
    // Extreme points as the unit sees them: first-object points q << m, second-object points
    // M' q + T' for ONE extreme M', T' per trial; orient3d's four points drawn from both.
    Rng r(50 + fp.v);
    int worst_det = 0, worst_minor = 0, worst_diff = 0, worst_coord = 0;
    auto extreme = [&](const BigInt& mag) -> BigInt {
      switch (irand(r, 0, 4)) {
        case 0: return 0;
        case 1: return -mag;
        default: return irand(r, 0, 1) ? mag : BigInt(-mag);
      }
    };
    for (int it = 0; it < 4000; ++it) {
      std::array<std::array<BigInt, 3>, 3> Mq;
      std::array<BigInt, 3> Tq;
      for (auto& row : Mq)
        for (auto& e : row) e = extreme(Mm);
      for (auto& e : Tq) e = extreme(Tm);
      std::array<std::array<BigInt, 3>, 4> p;
      for (auto& x : p) {
        std::array<BigInt, 3> q;
        for (auto& c : q) c = extreme(V);
        if (irand(r, 0, 1)) {
          for (int k = 0; k < 3; ++k) x[k] = q[k] * Mm;  // first object: q << m
        } else {
          for (int k = 0; k < 3; ++k) x[k] = Mq[k][0] * q[0] + Mq[k][1] * q[1] + Mq[k][2] * q[2] + Tq[k];
        }
        for (const BigInt& c : x) worst_coord = std::max(worst_coord, magnitude_bits(c));
      }
      std::array<std::array<BigInt, 3>, 3> d;
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
          d[i][k] = p[i + 1][k] - p[0][k];
          worst_diff = std::max(worst_diff, magnitude_bits(d[i][k]));
        }
      const BigInt c0 = d[1][1] * d[2][2] - d[1][2] * d[2][1], c1 = d[1][2] * d[2][0] - d[1][0] * d[2][2],
                   c2 = d[1][0] * d[2][1] - d[1][1] * d[2][0];
      const BigInt det = d[0][0] * c0 + d[0][1] * c1 + d[0][2] * c2;
      for (const BigInt* c : {&c0, &c1, &c2}) worst_minor = std::max(worst_minor, magnitude_bits(*c));
      worst_det = std::max(worst_det, magnitude_bits(det));
    }
    EXPECT_LE(worst_coord, w.coordinate - 1) << fp.v << "," << fp.m;
    EXPECT_LE(worst_diff, w.difference - 1) << fp.v << "," << fp.m;
    EXPECT_LE(worst_minor, w.minor - 1) << fp.v << "," << fp.m;
    EXPECT_LE(worst_det, w.determinant - 1) << fp.v << "," << fp.m;
    std::printf("v=%d m=%d widest seen (sign incl.) / width: coordinate %d/%d difference %d/%d minor %d/%d orient3d %d/%d\n",
                fp.v, fp.m, worst_coord + 1, w.coordinate, worst_diff + 1, w.difference, worst_minor + 1, w.minor,
                worst_det + 1, w.determinant);
  }
}

TEST(TriFixedRange, QuantizePoseRoundsAndFlagsOutOfRangeTranslation) {
  const TriangleFixedParams fp{24, 24};
  const double s = 3.0;
  // Identity: M' = 2^m I exactly, T' = nearest-even((T/s) 2^48).
  Pose id;
  id.translation = Vec3(1.5, -12.0, 0.75);  // T/s = 0.5, -4 (the boundary), 0.25
  QuantizedPose q = quantize_pose(id, s, fp);
  ASSERT_TRUE(q.in_range);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(q.M[i][j], i == j ? I64(1) << 24 : 0);
  EXPECT_EQ(q.T[0], I64(1) << 47);
  EXPECT_EQ(q.T[1], -(I64(1) << 50));  // -4 2^48 exactly: the most negative in-range value
  EXPECT_EQ(q.T[2], I64(1) << 46);
  EXPECT_EQ(q.scale, s);
  // Ties to even: T/s = 2.5 2^-48 and 3.5 2^-48.
  id.translation = Vec3(std::ldexp(2.5, -48), std::ldexp(3.5, -48), std::ldexp(-2.5, -48)) * 1.0;
  q = quantize_pose(id, 1.0, fp);
  EXPECT_EQ(q.T[0], 2);
  EXPECT_EQ(q.T[1], 4);
  EXPECT_EQ(q.T[2], -2);
  // A random rotation: |M'| <= 2^m and within half a unit of M 2^m.
  const Pose rot{Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1, -2, 3).normalized())), Vec3(0, 0, 0)};
  q = quantize_pose(rot, 1.0, fp);
  const Mat3 M = rot.matrix();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_LE(std::abs(q.M[i][j]), I64(1) << 24);
      EXPECT_LE(std::fabs(double(q.M[i][j]) - std::ldexp(M(i, j), 24)), 0.5);
    }
  // Beyond |T/s| = 4 (or not finite): flagged, and placing throws instead of wrapping.
  for (const Vec3& t : {Vec3(std::nextafter(12.0, 13.0), 0, 0), Vec3(0, 0, -12.0001), Vec3(0, 1e300, 0),
                        Vec3(0, std::nan(""), 0), Vec3(std::numeric_limits<double>::infinity(), 0, 0)}) {
    const Pose far{Eigen::Quaterniond::Identity(), t};
    const QuantizedPose qf = quantize_pose(far, s, fp);
    EXPECT_FALSE(qf.in_range) << t.transpose();
    EXPECT_THROW(place_fixed_vertex(qf, FixedVertex{0, 0, 0}), std::out_of_range);
    Mesh one;
    one.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
    one.triangles = {{0, 1, 2}};
    EXPECT_THROW(placed_fixed_triangles(one, s, fp, far), std::out_of_range);
  }
  EXPECT_THROW(quantize_pose(id, 0.0, fp), std::invalid_argument);
  EXPECT_THROW(quantize_pose(id, 1.0, {40, 20}), std::invalid_argument);
}

TEST(TriFixedRange, VerticesAndCoordinatesOutOfRangeThrow) {
  Mesh m;
  m.name = "box";
  m.vertices = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, -2, 0)};
  m.triangles = {{0, 1, 2}};
  EXPECT_NO_THROW(first_fixed_triangles(m, 2.0, {24, 24}));
  EXPECT_THROW(first_fixed_triangles(m, 1.999, {24, 24}), std::out_of_range);  // |x/s| > 1
  const auto q = quantize_vertices(m, 2.0, 24);
  EXPECT_EQ(q[1][0], I64(1) << 24);
  EXPECT_EQ(q[2][1], -(I64(1) << 24));
  QuantizedPose id = quantize_pose(Pose{}, 2.0, {24, 24});
  EXPECT_THROW(place_fixed_vertex(id, FixedVertex{(I64(1) << 24) + 1, 0, 0}), std::out_of_range);
  // At the extremes of the pose range nothing wraps: |X| <= 7 2^(v+m).
  id.M = {{{I64(1) << 24, I64(1) << 24, I64(1) << 24}, {-(I64(1) << 24), 0, 0}, {0, 0, 0}}};
  id.T = {I64(1) << 50, -(I64(1) << 50), 0};
  const FixedVertex x = place_fixed_vertex(id, FixedVertex{I64(1) << 24, I64(1) << 24, I64(1) << 24});
  EXPECT_EQ(x[0], I64(7) << 48);
  EXPECT_EQ(x[1], -(I64(5) << 48));
  const FixedTriangle ok = tri({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  for (const I64 c : {kFixedCoordinateLimit, -kFixedCoordinateLimit, std::numeric_limits<I64>::max()}) {
    const FixedTriangle bad = tri({c, 0, 0}, {1, 0, 0}, {0, 1, 0});
    EXPECT_THROW(fixed_triangles_intersect(ok, bad), std::out_of_range);
    EXPECT_THROW(fixed_triangles_intersect(bad, ok), std::out_of_range);
    EXPECT_THROW(fixed_orient3d(bad.v[0], ok.v[0], ok.v[1], ok.v[2]), std::out_of_range);
  }
}

TEST(TriFixedRange, PoseBeyondTheRangeHasNoContacts) {
  // The claim behind the flag: |T_i / s| > 1 + sqrt 3 separates the objects along axis i.
  REQUIRE_REAL_MESH("cow.off");
  const Mesh cow = load_mesh(real_mesh_path("cow.off"));
  const double s = DopTree(cow, 6).largest_coefficient();
  const Eigen::Quaterniond rot(Eigen::AngleAxisd(0.8, Vec3(1, 1, 0).normalized()));
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 t = Vec3::Zero();
    t[axis] = (1 + std::sqrt(3.0)) * s * 1.0001 * (axis == 1 ? -1 : 1);
    EXPECT_TRUE(brute_force_contacts(cow, cow, Pose{rot, t}).empty()) << axis;
  }
}

TEST(TriFixedRange, IdentityPosePlacesLikeTheFirstObject) {
  // M' = 2^m I and T' = 0: M' q + T' == q << m, so each triangle meets its own copy.
  REQUIRE_REAL_MESH("cow.off");
  const Mesh cow = load_mesh(real_mesh_path("cow.off"));
  const double s = DopTree(cow, 6).largest_coefficient();
  const TriangleFixedParams fp{24, 24};
  const auto a = first_fixed_triangles(cow, s, fp);
  const auto b = placed_fixed_triangles(cow, s, fp, Pose{});
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); t += 7) {
    ASSERT_EQ(a[t].v, b[t].v) << t;
    ASSERT_TRUE(fixed_triangles_intersect(a[t], b[t])) << t;
  }
}

TEST(TriFixedDistance, KnownDistances) {
  const Vec3 o(0, 0, 0), x(1, 0, 0), y(0, 1, 0);
  auto d = [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& e, const Vec3& f, const Vec3& g) {
    return triangle_distance(a, b, c, e, f, g);
  };
  const Vec3 up(0, 0, 0.25);
  EXPECT_DOUBLE_EQ(d(o, x, y, o + up, x + up, y + up), 0.25);                            // parallel faces
  EXPECT_DOUBLE_EQ(d(o, x, y, Vec3(0.2, 0.2, 0.5), Vec3(0.2, 0.2, 3), Vec3(0.3, 0.2, 4)), 0.5);  // vertex over face
  EXPECT_DOUBLE_EQ(d(o, x, y, Vec3(0.5, -1, 1), Vec3(0.5, 1, 1), Vec3(0.5, 0, 5)), 1.0);  // edge over face
  EXPECT_NEAR(d(o, x, y, Vec3(1, 1, -1), Vec3(1, 1, 1), Vec3(2, 2, 0)), std::sqrt(0.5), 1e-15);  // edge-edge
  EXPECT_EQ(d(o, x, y, Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), Vec3(3, 3, 0)), 0.0);      // piercing
  EXPECT_DOUBLE_EQ(d(o, o, o, Vec3(0, 0, 2), Vec3(0, 0, 2), Vec3(0, 0, 3)), 2.0);         // points
  EXPECT_DOUBLE_EQ(d(o, x, 2 * x, Vec3(0.5, 3, 0), Vec3(0.5, 3, 0), Vec3(0.5, 4, 0)), 3.0);  // segments
}

// ---------------------------------------------------------------------------------------------
// (2) Real meshes: fixed vs double contact sets

struct Scene {
  const char* first;
  const char* second;
  double angle;
  Vec3 direction;
};

void compare_on_meshes(const Scene& scene) {
  REQUIRE_REAL_MESH(scene.first);
  REQUIRE_REAL_MESH(scene.second);
  const auto t0 = std::chrono::steady_clock::now();
  const Mesh first = load_mesh(real_mesh_path(scene.first));
  const Mesh second = load_mesh(real_mesh_path(scene.second));
  const DopTree first_tree(first, 24), second_tree(second, 24);
  const double s = std::max(first_tree.largest_coefficient(), second_tree.largest_coefficient());
  const auto poses = make_pose_classes(
      first_tree, second_tree, Eigen::Quaterniond(Eigen::AngleAxisd(scene.angle, Vec3(1, 2, 0.5).normalized())),
      scene.direction);
  const std::vector<TriangleBox> first_boxes = triangle_boxes(first, first.vertices);
  for (const TriangleFixedParams fp : {TriangleFixedParams{24, 24}, TriangleFixedParams{10, 10}, TriangleFixedParams{7, 9}}) {
    const double delta = triangle_delta(s, fp);
    const std::vector<FixedTriangle> ff = first_fixed_triangles(first, s, fp);
    for (const ClassifiedPose& cp : poses) {
      const std::vector<ContactPair> brute = brute_force_contacts(first, second, cp.pose);
      const QuantizedPose qp = quantize_pose(cp.pose, s, fp);
      ASSERT_TRUE(qp.in_range) << to_string(cp.kind);
      const std::vector<FixedTriangle> sf = placed_fixed_triangles(second, qp);
      const std::vector<Vec3> placed = place_vertices(second, cp.pose);
      const std::vector<TriangleBox> second_boxes = triangle_boxes(second, placed);
      // A fixed contact is within delta of a double contact, so boxes 2 delta apart suffice.
      const double margin = 2 * delta;
      tbb::combinable<std::vector<ContactPair>> found;
      tbb::combinable<long> candidates;
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, first.triangle_count()), [&](const auto& range) {
        auto& local = found.local();
        long& cand = candidates.local();
        for (std::size_t f = range.begin(); f != range.end(); ++f)
          for (std::size_t g = 0; g < second.triangle_count(); ++g) {
            if ((first_boxes[f].lo.array() - margin > second_boxes[g].hi.array()).any() ||
                (second_boxes[g].lo.array() - margin > first_boxes[f].hi.array()).any())
              continue;
            ++cand;
            if (fixed_triangles_intersect(ff[f], sf[g])) local.push_back({std::uint32_t(f), std::uint32_t(g)});
          }
      });
      std::vector<ContactPair> fixed;
      found.combine_each([&](const auto& v) { fixed.insert(fixed.end(), v.begin(), v.end()); });
      std::sort(fixed.begin(), fixed.end());
      std::vector<ContactPair> differ;
      std::set_symmetric_difference(brute.begin(), brute.end(), fixed.begin(), fixed.end(), std::back_inserter(differ));
      double worst = 0;
      for (const ContactPair& p : differ) {
        const auto& t2 = second.triangles[p.second];
        const double dd = triangle_distance(first.corner(p.first, 0), first.corner(p.first, 1), first.corner(p.first, 2),
                                            placed[t2[0]], placed[t2[1]], placed[t2[2]]);
        const auto& a = ff[p.first];
        const auto& b = sf[p.second];
        const double df = triangle_distance(fixed_to_scene(a.v[0], s, fp), fixed_to_scene(a.v[1], s, fp),
                                            fixed_to_scene(a.v[2], s, fp), fixed_to_scene(b.v[0], s, fp),
                                            fixed_to_scene(b.v[1], s, fp), fixed_to_scene(b.v[2], s, fp));
        worst = std::max({worst, dd, df});
        EXPECT_LE(std::max(dd, df), delta) << scene.first << " vs " << scene.second << " " << to_string(cp.kind)
                                           << " pair " << p.first << "," << p.second << " double distance " << dd
                                           << " fixed distance " << df;
      }
      long cand = 0;
      candidates.combine_each([&](long c) { cand += c; });
      std::printf("%s vs %s v=%d m=%d %-16s delta %.3g: candidates %ld, double %zu, fixed %zu, differ %zu "
                  "(largest distance %.3g delta)\n",
                  scene.first, scene.second, fp.v, fp.m, to_string(cp.kind), delta, cand, brute.size(), fixed.size(),
                  differ.size(), delta > 0 ? worst / delta : 0.0);
      if (cp.kind == PoseClass::Intersecting) {
        EXPECT_GT(fixed.size(), 0u);
      }
      if (cp.kind == PoseClass::Separated) {
        EXPECT_TRUE(fixed.empty());
      }
    }
  }
  std::printf("%s vs %s: s = %.9g, %.2f s\n", scene.first, scene.second, s,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

TEST(TriFixedMesh, CowVsCowDiffersOnlyWithinDelta) { compare_on_meshes({"cow.off", "cow.off", 0.9, Vec3(1, 0.3, 0.2)}); }

TEST(TriFixedMesh, ElephantVsHandDiffersOnlyWithinDelta) {
  compare_on_meshes({"elephant.off", "hand.off", 2.1, Vec3(0.2, 1, -0.4)});
}

}  // namespace
