// Tests of the exact orientation predicates and of the exact triangle-triangle test.
//
// Ground truth is triangles_intersect_exact (cpp_rational, a different method). Families:
// (1) random triangles at several scales, (2) boundary cases built from exactly representable
// coordinates (small integers, dyadic fractions) so that the true answer sits on the boundary,
// plus 1-ulp perturbations of them, (3) permutation invariance, (4) the exact fallback of the
// predicates is really taken on near-degenerate input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/multiprecision/cpp_int.hpp>

#include "kdopcd/predicates.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd/tri_tri_exact.hpp"
#include "kdopcd/tri_tri_filtered.hpp"

namespace {

using kdopcd::Vec3;
using Tri = std::array<Vec3, 3>;
using Rng = std::mt19937_64;

constexpr double kTiny = std::numeric_limits<double>::denorm_min();

bool fast(const Tri& a, const Tri& b) {
  return kdopcd::triangles_intersect(a[0], a[1], a[2], b[0], b[1], b[2]);
}
bool exact(const Tri& a, const Tri& b) {
  return kdopcd::triangles_intersect_exact(a[0], a[1], a[2], b[0], b[1], b[2]);
}
kdopcd::Point3 point3(const Vec3& v) { return {{v.x(), v.y(), v.z()}}; }
// The GPU's filter-only test: Intersect, Disjoint or Undecided.
kdopcd::TriangleVerdict filtered(const Tri& a, const Tri& b) {
  return kdopcd::triangles_intersect_filtered(point3(a[0]), point3(a[1]), point3(a[2]), point3(b[0]), point3(b[1]),
                                              point3(b[2]));
}

std::string show(const Tri& a, const Tri& b) {
  std::ostringstream os;
  os.precision(17);
  for (const Tri* t : {&a, &b}) {
    os << "{";
    for (const Vec3& v : *t) os << "(" << v.x() << "," << v.y() << "," << v.z() << ")";
    os << "}";
  }
  return os.str();
}

double uni(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
int irand(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

Vec3 rand_box(Rng& rng, double lo, double hi) {
  return {uni(rng, lo, hi), uni(rng, lo, hi), uni(rng, lo, hi)};
}
Vec3 rand_int(Rng& rng, int lo, int hi) {
  return {double(irand(rng, lo, hi)), double(irand(rng, lo, hi)), double(irand(rng, lo, hi))};
}

// True when small integer-valued vectors are parallel or zero (their cross product is exact).
bool parallel_or_zero(const Vec3& a, const Vec3& b) { return a.cross(b).isZero(0.0); }

// One step of 1 ulp on coordinate j of v, toward +inf (dir > 0) or -inf.
Vec3 ulp_step(Vec3 v, int j, int dir) {
  v[j] = std::nextafter(v[j], dir > 0 ? std::numeric_limits<double>::infinity()
                                      : -std::numeric_limits<double>::infinity());
  return v;
}

// The 72 equivalent forms of a pair: 6 vertex orders (3 rotations x 2 orientations) of each
// triangle, times swapping the triangles.
std::vector<std::pair<Tri, Tri>> variants(const Tri& a, const Tri& b) {
  static constexpr int kPerm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                      {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  std::vector<std::pair<Tri, Tri>> out;
  out.reserve(72);
  for (const auto& pa : kPerm)
    for (const auto& pb : kPerm) {
      const Tri ta{a[pa[0]], a[pa[1]], a[pa[2]]};
      const Tri tb{b[pb[0]], b[pb[1]], b[pb[2]]};
      out.push_back({ta, tb});
      out.push_back({tb, ta});
    }
  return out;
}

// Compares fast and exact on one pair, and the filter-only test, whose every decided verdict
// must be the exact one. Counts into `stats`.
struct Stats {
  long pairs = 0, hits = 0, mismatches = 0, undecided = 0;
  std::vector<std::string> first;  // the first few mismatches, printed by the caller
  void add(const Tri& a, const Tri& b) {
    const bool e = exact(a, b), f = fast(a, b);
    const kdopcd::TriangleVerdict v = filtered(a, b);
    ++pairs;
    hits += e;
    undecided += v == kdopcd::TriangleVerdict::Undecided;
    const bool filtered_wrong = v != kdopcd::TriangleVerdict::Undecided && (v == kdopcd::TriangleVerdict::Intersect) != e;
    if (e != f || filtered_wrong) {
      ++mismatches;
      if (first.size() < 5)
        first.push_back(show(a, b) + (e ? " exact=1" : " exact=0") + (filtered_wrong ? " (filtered)" : " (fast)"));
    }
  }
  void merge(const Stats& o) {
    pairs += o.pairs;
    hits += o.hits;
    mismatches += o.mismatches;
    undecided += o.undecided;
    for (const auto& s : o.first)
      if (first.size() < 5) first.push_back(s);
  }
};

void expect_clean(const Stats& s, const char* family) {
  EXPECT_EQ(s.mismatches, 0) << family;
  for (const auto& m : s.first) ADD_FAILURE() << family << " fast != exact: " << m;
}

// Runs gen(rng, a, b) n times over two threads (the tests must stay fast on 2 cores).
template <class Gen>
Stats run_family(std::uint64_t seed, long n, Gen gen) {
  constexpr int kThreads = 2;
  std::vector<Stats> part(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(seed * 1000003 + t);
      for (long i = t; i < n; i += kThreads) {
        Tri a, b;
        gen(rng, a, b);
        part[t].add(a, b);
      }
    });
  }
  for (auto& th : threads) th.join();
  Stats all;
  for (const auto& p : part) all.merge(p);
  return all;
}

// ---------------------------------------------------------------------------------------------
// Predicates

// Independent rational evaluation of the determinants (the library's exact path uses scaled
// cpp_int; this uses cpp_rational).
int orient3d_rational(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  using Q = boost::multiprecision::cpp_rational;
  const Q ax(a.x()), ay(a.y()), az(a.z());
  const Q ux = Q(b.x()) - ax, uy = Q(b.y()) - ay, uz = Q(b.z()) - az;
  const Q vx = Q(c.x()) - ax, vy = Q(c.y()) - ay, vz = Q(c.z()) - az;
  const Q wx = Q(d.x()) - ax, wy = Q(d.y()) - ay, wz = Q(d.z()) - az;
  const Q det = ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
  return det.sign();
}
int orient2d_rational(double ax, double ay, double bx, double by, double cx, double cy) {
  using Q = boost::multiprecision::cpp_rational;
  const Q det = (Q(bx) - Q(ax)) * (Q(cy) - Q(ay)) - (Q(by) - Q(ay)) * (Q(cx) - Q(ax));
  return det.sign();
}

TEST(Predicates, RationalConversionIsExact) {
  // The reference relies on double -> cpp_rational being exact.
  using Q = boost::multiprecision::cpp_rational;
  EXPECT_EQ(Q(0.1), Q(3602879701896397LL) / Q(boost::multiprecision::cpp_int(1) << 55));
  EXPECT_EQ(Q(kTiny) * (Q(boost::multiprecision::cpp_int(1) << 1074)), Q(1));
}

TEST(Predicates, SimpleSigns) {
  const Vec3 o(0, 0, 0), x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  EXPECT_EQ(kdopcd::orient3d_sign(o, x, y, z), 1);  // z above the ccw triangle o,x,y
  EXPECT_EQ(kdopcd::orient3d_sign(o, y, x, z), -1);
  EXPECT_EQ(kdopcd::orient3d_sign(o, x, y, Vec3(5, -3, 0)), 0);
  EXPECT_EQ(kdopcd::orient2d_sign(0, 0, 1, 0, 0, 1), 1);
  EXPECT_EQ(kdopcd::orient2d_sign(0, 0, 0, 1, 1, 0), -1);
  EXPECT_EQ(kdopcd::orient2d_sign(0, 0, 1, 1, 3, 3), 0);
}

TEST(Predicates, FilteredMatchesExactOnNearDegenerateInput) {
  Rng rng(11);
  for (int i = 0; i < 20000; ++i) {
    // Four points nearly coplanar: d = a + s(b-a) + t(c-a), rounded, then nudged by ulps.
    const double scale = std::ldexp(1.0, irand(rng, -20, 20));
    const Vec3 off = rand_box(rng, -1, 1) * (i % 3 == 0 ? 1e3 : 1.0);
    const Vec3 a = off + rand_box(rng, -1, 1) * scale, b = off + rand_box(rng, -1, 1) * scale,
               c = off + rand_box(rng, -1, 1) * scale;
    Vec3 d = a + uni(rng, -2, 2) * (b - a) + uni(rng, -2, 2) * (c - a);
    for (int k = irand(rng, 0, 3); k > 0; --k) d = ulp_step(d, irand(rng, 0, 2), irand(rng, 0, 1) * 2 - 1);
    const int ref = orient3d_rational(a, b, c, d);
    ASSERT_EQ(kdopcd::orient3d_sign(a, b, c, d), ref) << i;
    ASSERT_EQ(kdopcd::orient3d_sign_exact(a, b, c, d), ref) << i;
    // 2D: c2 nearly on line a b.
    const double t = uni(rng, -2, 2);
    double cx = a.x() + t * (b.x() - a.x()), cy = a.y() + t * (b.y() - a.y());
    if (i % 2) cy = std::nextafter(cy, 1e300);
    const int ref2 = orient2d_rational(a.x(), a.y(), b.x(), b.y(), cx, cy);
    ASSERT_EQ(kdopcd::orient2d_sign(a.x(), a.y(), b.x(), b.y(), cx, cy), ref2) << i;
    ASSERT_EQ(kdopcd::orient2d_sign_exact(a.x(), a.y(), b.x(), b.y(), cx, cy), ref2) << i;
  }
}

TEST(Predicates, ExtremeMagnitudesUseExactPath) {
  // Huge, tiny, subnormal and mixed magnitudes: outside the filter's proven range.
  Rng rng(12);
  const double mags[] = {1e300, 1e-300, 1e-310, kTiny, 1.0, 1e150, 1e-160};
  for (int i = 0; i < 1000; ++i) {
    auto coord = [&] {
      const double m = mags[irand(rng, 0, 6)];
      return irand(rng, 0, 4) == 0 ? 0.0 : uni(rng, -1, 1) * m;
    };
    const Vec3 a(coord(), coord(), coord()), b(coord(), coord(), coord()),
        c(coord(), coord(), coord());
    Vec3 d = i % 2 ? Vec3(coord(), coord(), coord()) : Vec3(a + (b - a) * 0.5);
    ASSERT_EQ(kdopcd::orient3d_sign(a, b, c, d), orient3d_rational(a, b, c, d)) << i;
    ASSERT_EQ(kdopcd::orient2d_sign(a.x(), a.y(), b.x(), b.y(), d.x(), d.y()),
              orient2d_rational(a.x(), a.y(), b.x(), b.y(), d.x(), d.y()))
        << i;
  }
  // Differences that overflow in double: the exact path still answers.
  const Vec3 a(-1.5e308, 0, 0), b(1.5e308, 0, 0), c(0, 1.5e308, 0), d(0, 0, -1e308);
  EXPECT_EQ(kdopcd::orient3d_sign(a, b, c, d), -1);
}

// orient3d_signs (three points against one plane, the plane's part made once) gives the exact
// signs: near-coplanar points at many scales (the filter's edge), extreme and mixed magnitudes
// (the exact path), and points on the plane's own corners (sign 0). A well-separated input is
// answered without the exact path.
TEST(Predicates, ThreePointsAgainstOnePlaneGiveTheExactSigns) {
  Rng rng(31);
  auto expect_exact = [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d0, const Vec3& d1, const Vec3& d2,
                         int i) {
    const std::array<int, 3> signs = kdopcd::orient3d_signs(a, b, c, d0, d1, d2);
    ASSERT_EQ(signs[0], orient3d_rational(a, b, c, d0)) << i;
    ASSERT_EQ(signs[1], orient3d_rational(a, b, c, d1)) << i;
    ASSERT_EQ(signs[2], orient3d_rational(a, b, c, d2)) << i;
  };
  for (int i = 0; i < 20000; ++i) {
    const double scale = std::ldexp(1.0, irand(rng, -20, 20));
    const Vec3 off = rand_box(rng, -1, 1) * (i % 3 == 0 ? 1e3 : 1.0);
    const Vec3 a = off + rand_box(rng, -1, 1) * scale, b = off + rand_box(rng, -1, 1) * scale,
               c = off + rand_box(rng, -1, 1) * scale;
    Vec3 d[3];
    for (Vec3& x : d) {
      x = a + uni(rng, -2, 2) * (b - a) + uni(rng, -2, 2) * (c - a);
      for (int k = irand(rng, 0, 3); k > 0; --k) x = ulp_step(x, irand(rng, 0, 2), irand(rng, 0, 1) * 2 - 1);
    }
    if (i % 5 == 0) d[irand(rng, 0, 2)] = i % 2 ? b : c;  // on the plane exactly
    expect_exact(a, b, c, d[0], d[1], d[2], i);
  }
  const double mags[] = {1e300, 1e-300, 1e-310, kTiny, 1.0, 1e150, 1e-160};
  for (int i = 0; i < 3000; ++i) {
    auto coord = [&] {
      const double m = mags[irand(rng, 0, 6)];
      return irand(rng, 0, 4) == 0 ? 0.0 : uni(rng, -1, 1) * m;
    };
    auto point = [&] { return Vec3(coord(), coord(), coord()); };
    const Vec3 a = point(), b = point(), c = point();
    expect_exact(a, b, c, point(), Vec3(a + (b - a) * 0.5), point(), i);
  }
  const auto before = kdopcd::predicate_counters().orient3d_exact;
  const std::array<int, 3> separated = kdopcd::orient3d_signs(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0),
                                                              Vec3(0.2, 0.3, 1), Vec3(0.5, -2, -1), Vec3(3, 3, 1e-3));
  EXPECT_EQ(separated, (std::array<int, 3>{1, -1, 1}));
  EXPECT_EQ(kdopcd::predicate_counters().orient3d_exact, before);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(kdopcd::orient3d_signs(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 1), Vec3(nan, 0, 0),
                                      Vec3(0, 0, 1)),
               std::domain_error);
}

TEST(Predicates, ExactFallbackCounterIncrements) {
  // A well-separated input is answered by the filter: no fallback.
  const auto c0 = kdopcd::predicate_counters();
  EXPECT_EQ(kdopcd::orient3d_sign(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0.2, 0.3, 1)), 1);
  EXPECT_EQ(kdopcd::orient2d_sign(0, 0, 1, 0, 0, 1), 1);
  const auto c1 = kdopcd::predicate_counters();
  EXPECT_EQ(c1.orient3d_exact, c0.orient3d_exact);
  EXPECT_EQ(c1.orient2d_exact, c0.orient2d_exact);

  // Exactly coplanar dyadic points: the rounded determinant is exactly 0, which the filter can
  // never certify (0 is not > errbound > 0), so the exact path must answer.
  const Vec3 s(1024, 1024, 1024);
  EXPECT_EQ(kdopcd::orient3d_sign(Vec3(1, 0, 0) + s, Vec3(0, 1, 0) + s, Vec3(0, 0, 1) + s,
                                  Vec3(0.25, 0.25, 0.5) + s),
            0);
  const auto c2 = kdopcd::predicate_counters();
  EXPECT_EQ(c2.orient3d_exact - c1.orient3d_exact, 1u);

  // Near-degenerate inputs with rounded coordinates: many need the fallback, and some of those
  // have a nonzero exact sign that the filter could not see. (Single-threaded here, so the
  // counter's change per call tells which call fell back.)
  Rng rng(21);
  int fallbacks = 0, nonzero_fallbacks = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 a = rand_box(rng, -1, 1), b = rand_box(rng, -1, 1), c = rand_box(rng, -1, 1);
    Vec3 d = a + 0.3 * (b - a) + 0.6 * (c - a);
    if (i % 2) d = ulp_step(d, i % 3, 1);
    const auto before = kdopcd::predicate_counters().orient3d_exact;
    const int sign = kdopcd::orient3d_sign(a, b, c, d);
    const bool fell_back = kdopcd::predicate_counters().orient3d_exact != before;
    ASSERT_EQ(sign, orient3d_rational(a, b, c, d)) << i;
    fallbacks += fell_back;
    nonzero_fallbacks += fell_back && sign != 0;
  }
  EXPECT_GT(fallbacks, 500);
  EXPECT_GT(nonzero_fallbacks, 100);

  // Collinear 2D points: equal products, rounded det exactly 0 -> exact path -> 0.
  const auto c3 = kdopcd::predicate_counters();
  EXPECT_EQ(kdopcd::orient2d_sign(0.1, 0.1, 0.3, 0.3, 0.7, 0.7), 0);
  EXPECT_EQ(kdopcd::predicate_counters().orient2d_exact - c3.orient2d_exact, 1u);
}

TEST(Predicates, NonFiniteInputThrows) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Vec3 o(0, 0, 0), x(1, 0, 0), y(0, 1, 0);
  EXPECT_THROW(kdopcd::orient3d_sign(o, x, y, Vec3(nan, 0, 0)), std::domain_error);
  EXPECT_THROW(kdopcd::orient2d_sign(0, 0, 1, 0, std::numeric_limits<double>::infinity(), 0),
               std::domain_error);
}

// ---------------------------------------------------------------------------------------------
// (1) Random triangles, several scales: fast == exact on >= 200k pairs.

TEST(TriTriRandom, FastMatchesExactAtSeveralScales) {
  struct Family {
    const char* name;
    long n;
    void (*gen)(Rng&, Tri&, Tri&);
  };
  const Family families[] = {
      {"unit [-1,1]", 60000,
       [](Rng& r, Tri& a, Tri& b) {
         for (auto& v : a) v = rand_box(r, -1, 1);
         for (auto& v : b) v = rand_box(r, -1, 1);
       }},
      {"offset [1e3,1e3+1]", 60000,
       [](Rng& r, Tri& a, Tri& b) {
         for (auto& v : a) v = rand_box(r, 1e3, 1e3 + 1);
         for (auto& v : b) v = rand_box(r, 1e3, 1e3 + 1);
       }},
      {"small near [0,1]", 40000,
       [](Rng& r, Tri& a, Tri& b) {
         const Vec3 ca = rand_box(r, 0, 1), cb = ca + rand_box(r, -0.3, 0.3);
         for (auto& v : a) v = ca + rand_box(r, -0.3, 0.3);
         for (auto& v : b) v = cb + rand_box(r, -0.3, 0.3);
       }},
      {"mixed exponents", 40000,
       [](Rng& r, Tri& a, Tri& b) {
         // Tiny triangles (size 2^-40 .. 2^10) far from the origin: strong cancellation.
         const double s = std::ldexp(1.0, irand(r, -40, 10));
         const Vec3 c = rand_box(r, -1, 1) * std::ldexp(1.0, irand(r, 0, 20));
         for (auto& v : a) v = c + rand_box(r, -1, 1) * s;
         for (auto& v : b) v = c + rand_box(r, -1, 1) * s;
       }},
      {"huge/tiny", 6000,
       [](Rng& r, Tri& a, Tri& b) {
         const double s = irand(r, 0, 1) ? 1e250 : 1e-250;
         for (auto& v : a) v = rand_box(r, -1, 1) * s;
         for (auto& v : b) v = rand_box(r, -1, 1) * s;
       }},
  };
  long total = 0;
  for (std::size_t i = 0; i < std::size(families); ++i) {
    const Family& f = families[i];
    const Stats s = run_family(100 + i, f.n, f.gen);
    expect_clean(s, f.name);
    // Both answers must be well represented, or the family tests nothing.
    EXPECT_GT(s.hits, s.pairs / 50) << f.name;
    EXPECT_LT(s.hits, s.pairs - s.pairs / 50) << f.name;
    // In general position the filters decide almost every pair (the GPU sends the rest to the
    // host); outside their range (huge/tiny) they decide none, which is correct too.
    if (i < 3) EXPECT_LT(s.undecided, s.pairs / 1000) << f.name;
    if (i == 4) EXPECT_EQ(s.undecided, s.pairs) << f.name;
    total += s.pairs;
  }
  EXPECT_GE(total, 200000);
}

// ---------------------------------------------------------------------------------------------
// (2) Boundary families: exact coordinates put the answer on the boundary.

// Triangles on the small grid {0..3}^3: shared vertices and edges, vertices on faces, coplanar
// and collinear (degenerate) triangles occur all the time.
TEST(TriTriBoundary, SmallIntegerGrid) {
  auto gen = [](Rng& r, Tri& a, Tri& b) {
    for (auto& v : a) v = rand_int(r, 0, 3);
    for (auto& v : b) v = rand_int(r, 0, 3);
    if (irand(r, 0, 1)) {  // a dyadic scale and an offset keep every coordinate exact
      const double s = 0.125;
      const Vec3 off(1024.5, -3.25, 7.0);
      for (auto& v : a) v = v * s + off;
      for (auto& v : b) v = v * s + off;
    }
  };
  const Stats s = run_family(7, 40000, gen);
  expect_clean(s, "grid");
  EXPECT_GT(s.hits, 1000);
  EXPECT_LT(s.hits, s.pairs - 1000);
}

// A lattice o + i e1 + j e2 in a random integer plane: all triangles coplanar.
struct PlaneLattice {
  Vec3 o, e1, e2;
  explicit PlaneLattice(Rng& r) {
    o = rand_int(r, -5, 5);
    do {
      e1 = rand_int(r, -3, 3);
      e2 = rand_int(r, -3, 3);
    } while (parallel_or_zero(e1, e2));
  }
  Vec3 point(Rng& r) const { return o + irand(r, -3, 3) * e1 + irand(r, -3, 3) * e2; }
};

TEST(TriTriBoundary, CoplanarOverlapTouchDisjoint) {
  auto gen = [](Rng& r, Tri& a, Tri& b) {
    const PlaneLattice L(r);
    for (auto& v : a) v = L.point(r);
    for (auto& v : b) v = L.point(r);
  };
  const Stats s = run_family(8, 20000, gen);
  expect_clean(s, "coplanar lattice");
  EXPECT_GT(s.hits, 1000);
  EXPECT_LT(s.hits, s.pairs - 1000);
}

TEST(TriTriBoundary, NearlyCoplanarOneUlp) {
  auto gen = [](Rng& r, Tri& a, Tri& b) {
    const PlaneLattice L(r);
    const double s = irand(r, 0, 1) ? 1.0 : 0.1;  // 0.1: the plane itself is rounded
    for (auto& v : a) v = L.point(r) * s;
    for (auto& v : b) v = L.point(r) * s;
    for (int k = irand(r, 1, 2); k > 0; --k) {
      Vec3& v = b[irand(r, 0, 2)];
      v = ulp_step(v, irand(r, 0, 2), irand(r, 0, 1) * 2 - 1);
    }
  };
  const Stats s = run_family(9, 20000, gen);
  expect_clean(s, "nearly coplanar");
  EXPECT_GT(s.hits, 500);
  EXPECT_LT(s.hits, s.pairs - 500);
}

TEST(TriTriBoundary, SharedEdgeAndSharedVertexAlwaysIntersect) {
  Rng r(10);
  for (int i = 0; i < 4000; ++i) {
    const double lo = i % 2 ? 1e3 : -1, hi = lo + (i % 2 ? 1 : 2);
    const Tri a{rand_box(r, lo, hi), rand_box(r, lo, hi), rand_box(r, lo, hi)};
    const Tri edge{a[0], a[1], rand_box(r, lo, hi)};
    const Tri vertex{rand_box(r, lo, hi), a[2], rand_box(r, lo, hi)};
    ASSERT_TRUE(fast(a, edge)) << show(a, edge);
    ASSERT_TRUE(exact(a, edge)) << show(a, edge);
    ASSERT_TRUE(fast(a, vertex)) << show(a, vertex);
    ASSERT_TRUE(exact(a, vertex)) << show(a, vertex);
  }
}

TEST(TriTriBoundary, VertexExactlyOnFaceAndOneUlpOff) {
  Rng r(13);
  int off_cases = 0;
  for (int i = 0; i < 4000; ++i) {
    Tri a;
    Vec3 n;
    do {
      for (auto& v : a) v = rand_int(r, -8, 8);
      n = (a[1] - a[0]).cross(a[2] - a[0]);  // small integers: exact
    } while (n.isZero(0.0));
    // X = (wa a0 + wb a1 + wc a2) / 8 with weights >= 0 summing to 8: a dyadic point of the
    // closed face (on an edge or vertex when a weight is 0), exactly representable.
    const int wa = irand(r, 0, 8), wb = irand(r, 0, 8 - wa), wc = 8 - wa - wb;
    const Vec3 x = (wa * a[0] + wb * a[1] + wc * a[2]) / 8.0;
    Vec3 r1, r2;
    do {
      r1 = rand_int(r, -4, 4);
      r2 = rand_int(r, -4, 4);
    } while (n.dot(r1) <= 0 || n.dot(r2) <= 0 || parallel_or_zero(r1, r2));
    const Tri b{x, x + r1, x + r2};  // touches a only at x, otherwise strictly above
    ASSERT_TRUE(fast(a, b)) << show(a, b);
    ASSERT_TRUE(exact(a, b)) << show(a, b);
    // Move x by 1 ulp along an axis where the normal points up: b is strictly above: disjoint.
    for (int j = 0; j < 3; ++j) {
      if (n[j] == 0) continue;
      const Tri up{ulp_step(x, j, n[j] > 0 ? 1 : -1), b[1], b[2]};
      ASSERT_FALSE(fast(a, up)) << show(a, up);
      ASSERT_FALSE(exact(a, up)) << show(a, up);
      ++off_cases;
      // And 1 ulp the other way (x goes below the face): fast must agree with exact.
      const Tri down{ulp_step(x, j, n[j] > 0 ? -1 : 1), b[1], b[2]};
      ASSERT_EQ(fast(a, down), exact(a, down)) << show(a, down);
    }
  }
  EXPECT_GT(off_cases, 4000);
}

TEST(TriTriBoundary, EdgeEdgeCrossingExactly) {
  Rng r(14);
  for (int i = 0; i < 2500; ++i) {
    Tri a;
    for (auto& v : a) v = rand_int(r, -8, 8);
    const Vec3 m = (a[0] + a[1]) / 2.0;  // midpoint of edge a0a1, exact
    const Vec3 s = rand_int(r, -4, 4), t = rand_int(r, -4, 4);
    const Tri b{m + s, m - s, m + t};  // m is the midpoint of b's edge b0b1
    ASSERT_TRUE(fast(a, b)) << show(a, b);
    ASSERT_TRUE(exact(a, b)) << show(a, b);
    // Shift b by 1 ulp along each axis: fast must agree with exact.
    for (int j = 0; j < 3; ++j)
      for (int dir : {-1, 1}) {
        const Tri sh{ulp_step(b[0], j, dir), ulp_step(b[1], j, dir), ulp_step(b[2], j, dir)};
        ASSERT_EQ(fast(a, sh), exact(a, sh)) << show(a, sh);
      }
  }
}

TEST(TriTriBoundary, DegenerateTriangles) {
  // Zero-area triangles: collinear p, p+d, p+2d (in any order), repeated vertices, points,
  // against random grid triangles and against each other.
  auto degenerate = [](Rng& r) {
    const Vec3 p = rand_int(r, 0, 4), d = rand_int(r, -2, 2);
    Tri t;
    switch (irand(r, 0, 3)) {
      case 0: t = {p, p + d, p + 2 * d}; break;
      case 1: t = {p + 2 * d, p, p + d}; break;
      case 2: t = {p, p, p + d}; break;
      default: t = {p, p, p}; break;
    }
    return t;
  };
  auto gen_mixed = [&](Rng& r, Tri& a, Tri& b) {
    a = degenerate(r);
    for (auto& v : b) v = rand_int(r, 0, 4);
  };
  auto gen_both = [&](Rng& r, Tri& a, Tri& b) {
    a = degenerate(r);
    b = degenerate(r);
  };
  const Stats s1 = run_family(15, 20000, gen_mixed);
  expect_clean(s1, "degenerate vs grid");
  EXPECT_GT(s1.hits, 500);
  const Stats s2 = run_family(16, 20000, gen_both);
  expect_clean(s2, "degenerate vs degenerate");
  EXPECT_GT(s2.hits, 200);
}

// Hand-made cases with known answers.
TEST(TriTriHandMade, KnownAnswers) {
  struct Case {
    const char* what;
    Tri a, b;
    bool expected;
  };
  const Tri base{Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(0, 4, 0)};  // in z = 0
  const double up = kTiny;                                       // 1 ulp above 0
  const Case cases[] = {
      {"shared vertex only", {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)},
       {Vec3(0, 0, 0), Vec3(-1, -1, 1), Vec3(-1, 0, -1)}, true},
      {"separated by 1 ulp", {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)},
       {Vec3(-up, 0, 0), Vec3(-1, -1, 1), Vec3(-1, 0, -1)}, false},
      {"vertex on face", base, {Vec3(1, 1, 0), Vec3(1, 1, 1), Vec3(2, 1, 1)}, true},
      {"vertex 1 ulp above face", base, {Vec3(1, 1, up), Vec3(1, 1, 1), Vec3(2, 1, 1)}, false},
      {"vertex on edge", base, {Vec3(2, 0, 0), Vec3(2, -1, 1), Vec3(3, -1, 1)}, true},
      {"edge crosses edge", {Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, -1)},
       {Vec3(0, -1, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)}, true},
      {"edges 1 ulp apart", {Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, -1)},
       {Vec3(0, -1, up), Vec3(0, 1, up), Vec3(0, 0, 1)}, false},
      {"piercing", base, {Vec3(1, 1, -1), Vec3(1, 1, 1), Vec3(3, 3, 1)}, true},
      {"coplanar overlap", base, {Vec3(1, 1, 0), Vec3(5, 1, 0), Vec3(1, 5, 0)}, true},
      {"coplanar contained", base, {Vec3(0.5, 0.5, 0), Vec3(1, 0.5, 0), Vec3(0.5, 1, 0)}, true},
      {"coplanar shared vertex", base, {Vec3(4, 0, 0), Vec3(5, 0, 0), Vec3(5, 1, 0)}, true},
      {"coplanar shared edge", base, {Vec3(4, 0, 0), Vec3(0, 4, 0), Vec3(4, 4, 0)}, true},
      {"coplanar vertex on edge", base, {Vec3(2, 2, 0), Vec3(3, 3, 0), Vec3(2, 5, 0)}, true},
      {"coplanar 1 ulp outside edge", base,
       {Vec3(2, std::nextafter(2.0, 3.0), 0), Vec3(3, 3, 0), Vec3(2, 5, 0)}, false},
      {"coplanar disjoint", base, {Vec3(5, 5, 0), Vec3(6, 5, 0), Vec3(5, 6, 0)}, false},
      {"parallel planes 1 ulp apart", base, {Vec3(0, 0, up), Vec3(4, 0, up), Vec3(0, 4, up)},
       false},
      {"identical", base, base, true},
      // Degenerate triangles.
      {"point on face", base, {Vec3(1, 1, 0), Vec3(1, 1, 0), Vec3(1, 1, 0)}, true},
      {"point 1 ulp above face", base, {Vec3(1, 1, up), Vec3(1, 1, up), Vec3(1, 1, up)}, false},
      {"point at vertex", base, {Vec3(4, 0, 0), Vec3(4, 0, 0), Vec3(4, 0, 0)}, true},
      {"segment piercing face", base, {Vec3(1, 1, -1), Vec3(1, 1, 1), Vec3(1, 1, 0.5)}, true},
      {"segment ending on face", base, {Vec3(1, 1, 0), Vec3(1, 1, 1), Vec3(1, 1, 1)}, true},
      {"segment 1 ulp above face", base, {Vec3(1, 1, up), Vec3(1, 1, 1), Vec3(1, 1, 1)}, false},
      {"segment in plane across", base, {Vec3(-1, 1, 0), Vec3(5, 1, 0), Vec3(2, 1, 0)}, true},
      {"segment in plane outside", base, {Vec3(-1, 5, 0), Vec3(5, 5, 0), Vec3(2, 5, 0)}, false},
      {"segments crossing", {Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 0)},
       {Vec3(0, -1, 0), Vec3(0, 1, 0), Vec3(0, 1, 0)}, true},
      {"skew segments", {Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 0)},
       {Vec3(0, -1, up), Vec3(0, 1, up), Vec3(0, 1, up)}, false},
      {"collinear segments touching", {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 0, 0)},
       {Vec3(2, 0, 0), Vec3(3, 0, 0), Vec3(3, 0, 0)}, true},
      {"collinear segments 1 ulp apart", {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 0, 0)},
       {Vec3(std::nextafter(2.0, 3.0), 0, 0), Vec3(3, 0, 0), Vec3(3, 0, 0)}, false},
      {"equal points", {Vec3(1, 2, 3), Vec3(1, 2, 3), Vec3(1, 2, 3)},
       {Vec3(1, 2, 3), Vec3(1, 2, 3), Vec3(1, 2, 3)}, true},
      {"point at end of 1-ulp segment", {Vec3(1, 2, 3), Vec3(1, 2, 3), Vec3(1, 2, 3)},
       {Vec3(1, 2, std::nextafter(3.0, 4.0)), Vec3(1, 2, 3), Vec3(1, 2, 3)}, true},
      {"point vs separate point", {Vec3(1, 2, 3), Vec3(1, 2, 3), Vec3(1, 2, 3)},
       {Vec3(1, 2, std::nextafter(3.0, 4.0)), Vec3(1, 2, std::nextafter(3.0, 4.0)),
        Vec3(1, 2, std::nextafter(3.0, 4.0))},
       false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(exact(c.a, c.b), c.expected) << c.what;
    // Every vertex order and both argument orders give the same known answer.
    for (const auto& [a, b] : variants(c.a, c.b)) {
      ASSERT_EQ(fast(a, b), c.expected) << c.what << " " << show(a, b);
    }
  }
}

TEST(TriTriHandMade, NonFiniteInputThrows) {
  const Tri a{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  const Tri b{Vec3(std::numeric_limits<double>::quiet_NaN(), 0, 0), Vec3(1, 0, 1), Vec3(0, 1, 1)};
  EXPECT_THROW(fast(a, b), std::domain_error);
  EXPECT_THROW(exact(a, b), std::domain_error);
}

// ---------------------------------------------------------------------------------------------
// (3) Permutation invariance: swapping the triangles, rotating or reversing vertex order.

TEST(TriTriPermutation, InvariantOnRandomAndDegenerateCases) {
  Rng r(17);
  long checked = 0;
  for (int i = 0; i < 6000; ++i) {
    Tri a, b;
    switch (i % 4) {
      case 0:  // random, near each other
        for (auto& v : a) v = rand_box(r, 0, 1);
        for (auto& v : b) v = rand_box(r, 0, 1);
        break;
      case 1:  // grid: shared features and degenerate triangles
        for (auto& v : a) v = rand_int(r, 0, 2);
        for (auto& v : b) v = rand_int(r, 0, 2);
        break;
      case 2: {  // coplanar lattice
        const PlaneLattice L(r);
        for (auto& v : a) v = L.point(r);
        for (auto& v : b) v = L.point(r);
        break;
      }
      default: {  // coplanar lattice with 1-ulp perturbation
        const PlaneLattice L(r);
        for (auto& v : a) v = L.point(r) * 0.1;
        for (auto& v : b) v = L.point(r) * 0.1;
        b[0] = ulp_step(b[0], irand(r, 0, 2), irand(r, 0, 1) * 2 - 1);
        break;
      }
    }
    const bool e = exact(a, b);
    if (i % 16 == 0) {  // the reference itself must be symmetric too (slow: a subset)
      ASSERT_EQ(exact(b, a), e) << show(a, b);
      ASSERT_EQ(exact(Tri{a[2], a[1], a[0]}, Tri{b[1], b[2], b[0]}), e) << show(a, b);
    }
    for (const auto& [va, vb] : variants(a, b)) {
      ASSERT_EQ(fast(va, vb), e) << show(a, b) << " variant " << show(va, vb);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 6000 * 72);
}

}  // namespace
