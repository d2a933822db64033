// The bit-accurate fixed-point SAT (sat_fixed.hpp, docs/fixed-point.md): rounding directions of
// the quantizers at edge values, the |p| clamp, Eq. 22 on hand-computed examples and against an
// independent rational evaluation, the b+c+5-bit sum width, and the fixed backend on real meshes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <random>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/exact_sum.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd/shapes.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
double up(double x) { return std::nextafter(x, kInf); }
double down(double x) { return std::nextafter(x, -kInf); }
std::int64_t pow2(int e) { return std::int64_t(1) << e; }

// Eq. 7-8 evaluated on the quantized integers as exact rationals (independent of fixed_diffs),
// returned at scale 2^-(b+c) as integers (the p terms shifted conservatively when z > b+c).
struct RationalDiffs {
  Rational diff1, diff2;
};
RationalDiffs rational_eq8(const FixedOperands& o, const FixedParams& f) {
  const Rational ulp_b = Rational(1, BigInt(1) << f.b), ulp_c = Rational(1, BigInt(1) << f.c);
  const Rational ulp_z = Rational(1, BigInt(1) << f.z);
  auto image_min = [&](const std::int64_t* P, const std::int64_t* x) {  // P'.x' + 2^-c sn(x'), reals
    Rational sum = 0;
    for (int i = 0; i < 3; ++i) {
      sum += Rational(P[i]) * ulp_c * Rational(x[i]) * ulp_b;
      if (x[i] < 0) sum += ulp_c * Rational(x[i]) * ulp_b;
    }
    return sum;
  };
  Rational p_low = Rational(o.p) * ulp_z, p_high = Rational(o.p + 1) * ulp_z;
  const Rational unit = ulp_b * ulp_c;
  if (f.z > f.b + f.c) {  // to the 2^-(b+c) grid: floor for p', ceil for p' + 1
    auto grid = [&](const Rational& x, bool ceil) {
      const Rational q = x / unit;
      BigInt n = numerator(q) / denominator(q);  // truncates toward 0
      if (ceil && Rational(n) < q) ++n;
      if (!ceil && Rational(n) > q) --n;
      return Rational(n) * unit;
    };
    p_low = grid(p_low, false);
    p_high = grid(p_high, true);
  }
  // diff1' = (a'min + p') - b'max with b'max = -(P'_B.b'k + 2^-c sn(b'k)); diff2' likewise.
  const Rational d1 = image_min(o.PA, o.a) + p_low + image_min(o.PB, o.bk);
  const Rational d2 = image_min(o.PB, o.b) + image_min(o.PA, o.ak) - p_high;
  return {d1 / unit, d2 / unit};
}

__int128 to_int128(const Rational& r) {
  EXPECT_EQ(denominator(r), 1);
  const BigInt n = numerator(r);
  const bool negative = n < 0;
  const BigInt m = negative ? BigInt(-n) : n;
  const unsigned __int128 u = (static_cast<unsigned __int128>(static_cast<std::uint64_t>(m >> 64)) << 64) |
                              static_cast<std::uint64_t>(m & BigInt(~std::uint64_t(0)));
  return negative ? -static_cast<__int128>(u) : static_cast<__int128>(u);
}

}  // namespace

// ---- rounding directions -----------------------------------------------------------------------

TEST(FixedQuantize, CoefficientsRoundTowardPlusInfinity) {
  for (int b : {4, 18, 35, 44}) {
    EXPECT_EQ(quantize_coefficient(1.0, b), pow2(b));
    EXPECT_EQ(quantize_coefficient(-1.0, b), -pow2(b));
    EXPECT_EQ(quantize_coefficient(0.0, b), 0);
    EXPECT_EQ(quantize_coefficient(-0.0, b), 0);
    EXPECT_EQ(quantize_coefficient(std::numeric_limits<double>::denorm_min(), b), 1);
    EXPECT_EQ(quantize_coefficient(-std::numeric_limits<double>::denorm_min(), b), 0);
    EXPECT_EQ(quantize_coefficient(down(1.0), b), pow2(b));
    EXPECT_EQ(quantize_coefficient(up(-1.0), b), -pow2(b) + 1);
    for (std::int64_t m : {std::int64_t(1), std::int64_t(-1), std::int64_t(3), -pow2(b) + 1, pow2(b) - 1, pow2(b - 1)}) {
      const double grid = std::ldexp(double(m), -b);  // exact grid point
      EXPECT_EQ(quantize_coefficient(grid, b), m) << "b " << b << " m " << m;
      EXPECT_EQ(quantize_coefficient(up(grid), b), m + 1) << "above a grid point rounds up";
      EXPECT_EQ(quantize_coefficient(down(grid), b), m) << "below a grid point rounds up to it";
    }
  }
}

TEST(FixedQuantize, MappingEntriesRoundTowardMinusInfinity) {
  for (int c : {4, 18, 35, 44}) {
    EXPECT_EQ(quantize_mapping(-1.0, c), -pow2(c));
    EXPECT_EQ(quantize_mapping(0.0, c), 0);
    EXPECT_EQ(quantize_mapping(-0.0, c), 0);
    EXPECT_EQ(quantize_mapping(-std::numeric_limits<double>::denorm_min(), c), -1);
    EXPECT_EQ(quantize_mapping(up(-1.0), c), -pow2(c));
    for (std::int64_t m : {std::int64_t(1), std::int64_t(5), pow2(c) - 1, pow2(c - 1)}) {
      const double grid = -std::ldexp(double(m), -c);
      EXPECT_EQ(quantize_mapping(grid, c), -m);
      EXPECT_EQ(quantize_mapping(down(grid), c), -m - 1) << "below a grid point rounds down";
      EXPECT_EQ(quantize_mapping(up(grid), c), -m) << "above a grid point rounds down to it";
    }
  }
}

TEST(FixedQuantize, OffsetIsClampedToFourThenFloored) {
  for (int z : {4, 18, 35, 44}) {
    const std::int64_t four = 4 * pow2(z);
    EXPECT_EQ(quantize_offset(4.0, z), four);
    EXPECT_EQ(quantize_offset(-4.0, z), -four);
    EXPECT_EQ(quantize_offset(up(4.0), z), four) << "clamped";
    EXPECT_EQ(quantize_offset(down(-4.0), z), -four) << "clamped";
    EXPECT_EQ(quantize_offset(1e300, z), four);
    EXPECT_EQ(quantize_offset(-1e300, z), -four);
    EXPECT_EQ(quantize_offset(kInf, z), four);
    EXPECT_EQ(quantize_offset(down(4.0), z), four - 1) << "just inside the clamp: floor";
    EXPECT_EQ(quantize_offset(up(-4.0), z), -four) << "just inside: floor to the grid point";
    EXPECT_EQ(quantize_offset(0.0, z), 0);
    EXPECT_EQ(quantize_offset(-std::numeric_limits<double>::denorm_min(), z), -1);
    for (std::int64_t m : {std::int64_t(1), std::int64_t(-1), std::int64_t(-7), 3 * pow2(z) + 1}) {
      const double grid = std::ldexp(double(m), -z);
      EXPECT_EQ(quantize_offset(grid, z), m);
      EXPECT_EQ(quantize_offset(down(grid), z), m - 1);
      EXPECT_EQ(quantize_offset(up(grid), z), m);
    }
  }
}

// Scaling by s is rounded outward: the scaled coefficient is the smallest double >= a / s and the
// scaled p the largest double <= p / s (checked exactly with ExactSum).
TEST(FixedQuantize, ScalingIsDirected) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1), e(-30, 30);
  EXPECT_EQ(scale_coefficient(3.5, 3.5), 1.0);
  EXPECT_EQ(scale_coefficient(-3.5, 3.5), -1.0);
  EXPECT_EQ(scale_coefficient(0.0, 3.5), 0.0);
  for (int t = 0; t < 100000; ++t) {
    const double s = std::exp2(e(rng)) * (1 + std::abs(u(rng)));
    const double a = u(rng) * s;
    const double q = scale_coefficient(a, s);
    ASSERT_LE(std::abs(q), 1.0);
    ExactSum hi, lo;
    hi.add_product(q, s).sub(a);          // q s - a >= 0
    lo.add_product(down(q), s).sub(a);    // the next double below is < a / s
    ASSERT_GE(hi.sign(), 0);
    ASSERT_LT(lo.sign(), 0);
    const double p = 10 * u(rng) * s;
    const double r = scale_offset(p, s);
    ExactSum plo, phi;
    plo.add_product(r, s).sub(p);
    phi.add_product(up(r), s).sub(p);
    ASSERT_LE(plo.sign(), 0);
    ASSERT_GT(phi.sign(), 0);
  }
  EXPECT_EQ(scene_scale_of(0, 0), 1.0);
  EXPECT_EQ(scene_scale_of(2, 3), 3.0);
}

TEST(FixedParamsText, ParsesAndValidates) {
  const FixedParams f = parse_fixed_params("18,20,22");
  EXPECT_EQ(f.b, 18);
  EXPECT_EQ(f.c, 20);
  EXPECT_EQ(f.z, 22);
  EXPECT_EQ(parse_fixed_params("35").c, 35);
  for (const char* bad : {"", "18,18", "18,18,18,18", "a,b,c", "18;18;18", "3,18,18", "18,18,45", "18,,18"})
    EXPECT_THROW(parse_fixed_params(bad), InputError) << bad;
}

// ---- Eq. 22 ------------------------------------------------------------------------------------

// b = c = z = 4 (units: a' in 1/16, P' in 1/16, p' in 1/16, sums in 1/256), worked by hand.
TEST(FixedEq22, HandComputedExample) {
  const FixedParams f{4, 4, 4};
  FixedOperands o{};
  // A: P'_A = (-16, -4, 0) (P = -1, -0.25, 0), a' = (8, -3, 5), a'k = (-2, 6, 1)
  // B: P'_B = (-8, -8, 0),                     b' = (4, 4, -16), b'k = (-5, 7, 2)
  // p' = 9 (p in [9/16, 10/16)).
  const std::int64_t PA[3] = {-16, -4, 0}, a[3] = {8, -3, 5}, ak[3] = {-2, 6, 1};
  const std::int64_t PB[3] = {-8, -8, 0}, b[3] = {4, 4, -16}, bk[3] = {-5, 7, 2};
  for (int i = 0; i < 3; ++i) {
    o.PA[i] = PA[i], o.a[i] = a[i], o.ak[i] = ak[i];
    o.PB[i] = PB[i], o.b[i] = b[i], o.bk[i] = bk[i];
  }
  o.p = 9;
  // diff1' = P'_A.a' + sn(a') + P'_B.b'k + sn(b'k) + p' 2^(b+c-z)
  //        = (-128 + 12 + 0) + (-3) + (40 - 56 + 0) + (-5) + 9*16 = -116 - 3 - 16 - 5 + 144 = 4
  // diff2' = P'_B.b' + sn(b') + P'_A.a'k + sn(a'k) - (p'+1) 2^(b+c-z)
  //        = (-32 - 32 + 0) + (-16) + (32 - 24 + 0) + (-2) - 160 = -64 - 16 + 8 - 2 - 160 = -234
  const FixedDiffs d = fixed_diffs<true>(o, f);
  EXPECT_EQ(static_cast<long long>(d.diff1), 4);
  EXPECT_EQ(static_cast<long long>(d.diff2), -234);
  EXPECT_TRUE(d.separated());
  o.p = 8;  // diff1' = 4 - 16 = -12, diff2' = -234 + 16 = -218: overlapping
  const FixedDiffs e = fixed_diffs<true>(o, f);
  EXPECT_EQ(static_cast<long long>(e.diff1), -12);
  EXPECT_EQ(static_cast<long long>(e.diff2), -218);
  EXPECT_FALSE(e.separated());
  // Touching is not separated: a'_2 = -4 adds sn = -4 (P'_A,2 = 0), so diff1' = 0 exactly.
  o.p = 9;
  o.a[2] = -4;
  const FixedDiffs t = fixed_diffs<true>(o, f);
  EXPECT_EQ(static_cast<long long>(t.diff1), 0);
  EXPECT_EQ(static_cast<long long>(t.diff2), -234);
  EXPECT_FALSE(t.separated());
}

// z > b + c: the p terms are shifted right, floor for p' and ceil for p' + 1.
TEST(FixedEq22, WideOffsetIsShiftedConservatively) {
  const FixedParams f{4, 4, 10};  // shift right by 2
  FixedOperands o{};               // every product 0: diff1' = floor(p'/4), diff2' = -ceil((p'+1)/4)
  for (const auto& [p, d1, d2] : {std::tuple{7, 1, -2}, std::tuple{-7, -2, 1}, std::tuple{8, 2, -3},
                                  std::tuple{-8, -2, 1}, std::tuple{3, 0, -1}, std::tuple{-1, -1, 0}}) {
    o.p = p;
    const FixedDiffs d = fixed_diffs<true>(o, f);
    EXPECT_EQ(static_cast<long long>(d.diff1), d1) << "p' = " << p;
    EXPECT_EQ(static_cast<long long>(d.diff2), d2) << "p' = " << p;
  }
}

// fixed_diffs equals Eq. 7-8 evaluated as exact rationals, for random operands over the whole
// documented ranges and several (b, c, z), including z > b + c and 44 bits.
TEST(FixedEq22, EqualsRationalEvaluation) {
  std::mt19937_64 rng(17);
  const FixedParams params[] = {{4, 4, 4}, {18, 18, 18}, {35, 35, 35}, {44, 44, 44}, {4, 4, 12}, {20, 10, 40}, {44, 4, 9}};
  for (const FixedParams& f : params) {
    std::uniform_int_distribution<std::int64_t> coef(-pow2(f.b), pow2(f.b)), map(-pow2(f.c), 0),
        off(-pow2(f.z + 2), pow2(f.z + 2));
    for (int t = 0; t < 3000; ++t) {
      FixedOperands o;
      for (int i = 0; i < 3; ++i) {
        o.PA[i] = map(rng), o.PB[i] = map(rng);
        o.a[i] = coef(rng), o.ak[i] = coef(rng), o.b[i] = coef(rng), o.bk[i] = coef(rng);
      }
      o.p = off(rng);
      const FixedDiffs d = fixed_diffs<true>(o, f);
      const RationalDiffs r = rational_eq8(o, f);
      ASSERT_TRUE(d.diff1 == to_int128(r.diff1) && d.diff2 == to_int128(r.diff2)) << f.b << "," << f.c << "," << f.z;
    }
  }
}

// ---- widths ------------------------------------------------------------------------------------

// The largest |diff'| over every corner of the documented operand ranges (a' in [-2^b, 2^b],
// P' in [-2^c, 0], p' in [-2^(z+2), 2^(z+2)]) is 10 2^(b+c) + 2^(b+c-z): below 2^(b+c+4), so
// b+c+5 bits signed always suffice, and above 2^(b+c+3), so b+c+4 bits would not (for operands
// in range; real mapping vectors have cross sums <= r_max and stay lower, docs/fixed-point.md).
// The checked evaluation must accept every corner.
TEST(FixedWidths, SumFitsInBPlusCPlus5BitsAtExtremeOperands) {
  for (const FixedParams& f : {FixedParams{4, 4, 4}, FixedParams{18, 18, 18}, FixedParams{35, 35, 35},
                               FixedParams{44, 44, 44}, FixedParams{44, 4, 4}, FixedParams{4, 44, 44}}) {
    const std::int64_t B = pow2(f.b), C = pow2(f.c);
    // Per component (P', x') corners; the extremes of P' x' + min(x', 0) are among them.
    const std::int64_t corners[5][2] = {{-C, B}, {-C, -B}, {0, -B}, {0, B}, {0, 0}};
    __int128 largest = 0;
    FixedOperands o{};
    for (std::int64_t p : {-4 * pow2(f.z), 4 * pow2(f.z)}) {
      o.p = p;
      // All three components of both objects take the same corner index pattern (5^2 per object
      // pair): the sum is separable, so the extremes are reached with equal corners per object.
      for (int ca = 0; ca < 5; ++ca)
        for (int cb = 0; cb < 5; ++cb) {
          for (int i = 0; i < 3; ++i) {
            o.PA[i] = corners[ca][0];
            o.a[i] = o.ak[i] = corners[ca][1];
            o.PB[i] = corners[cb][0];
            o.b[i] = o.bk[i] = corners[cb][1];
          }
          const FixedDiffs d = fixed_diffs<true>(o, f);  // throws if any width is exceeded
          for (__int128 v : {d.diff1, d.diff2}) largest = std::max(largest, v < 0 ? -v : v);
        }
    }
    const __int128 unit = static_cast<__int128>(1) << (f.b + f.c);
    const __int128 expected = 10 * unit + (f.z <= f.b + f.c ? (static_cast<__int128>(1) << (f.b + f.c - f.z)) : 1);
    EXPECT_TRUE(largest == expected) << f.b << "," << f.c << "," << f.z;
    EXPECT_TRUE(largest < 16 * unit) << "b+c+5 bits suffice";
    EXPECT_TRUE(largest > 8 * unit) << "b+c+4 bits would not";
    std::printf("b,c,z = %d,%d,%d: largest |diff'| = %.6f * 2^(b+c) (< 16 = 2^4)\n", f.b, f.c, f.z,
                double(largest) / double(unit));
  }
}

TEST(FixedWidths, CheckedEvaluationRejectsOperandsOutOfRange) {
  const FixedParams f{18, 18, 18};
  FixedOperands o{};
  o.a[1] = pow2(18) + 1;
  EXPECT_THROW(fixed_diffs<true>(o, f), std::logic_error);
  o.a[1] = 0;
  o.PB[2] = 1;
  EXPECT_THROW(fixed_diffs<true>(o, f), std::logic_error);
  o.PB[2] = -pow2(18) - 1;
  EXPECT_THROW(fixed_diffs<true>(o, f), std::logic_error);
  o.PB[2] = 0;
  o.p = 4 * pow2(18) + 1;
  EXPECT_THROW(fixed_diffs<true>(o, f), std::logic_error);
  o.p = 0;
  EXPECT_NO_THROW(fixed_diffs<true>(o, f));
  EXPECT_THROW(fixed_diffs<true>(o, FixedParams{45, 18, 18}), std::logic_error);
}

// ---- the |p| clamp -----------------------------------------------------------------------------

// Beyond |p| = 4 both the exact and the fixed test separate, for the worst operands: the mapping
// vector of the maximal DOP's farthest vertex (cross sum -r_max) and every coefficient in
// {-1, -0.5, 0, 1} (4^6 combinations), at the smallest and largest widths.
TEST(FixedClamp, KeepsSeparationVerdictsForTheWorstOperands) {
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    std::size_t far = 0;
    for (std::size_t v = 0; v < set.vertices().size(); ++v)
      if (set.vertices()[v].norm() > set.vertices()[far].norm()) far = v;
    const FaceTriple t = set.triple_for(-set.vertices()[far].normalized());
    EXPECT_NEAR(t.P[0] + t.P[1] + t.P[2], -set.r_max(), 1e-12);
    const double values[4] = {-1, -0.5, 0, 1};
    for (const FixedParams& f : {FixedParams{4, 4, 4}, FixedParams{18, 18, 18}, FixedParams{44, 44, 44}})
      for (double p : {std::nextafter(4.0, 8.0), 4.5, 1e12, -std::nextafter(4.0, 8.0), -4.5, -1e12})
        for (int m = 0; m < 4096; ++m) {
          RealOperands r;
          for (int i = 0; i < 3; ++i) {
            r.PA[i] = r.PB[i] = t.P[i];
            r.a[i] = r.bk[i] = values[(m >> (2 * i)) & 3];
            r.b[i] = r.ak[i] = values[(m >> (2 * i + 6)) & 3];
          }
          r.p = p;
          ASSERT_TRUE(fixed_diffs<true>(quantize_operands(r, f), f).separated())
              << "k " << k << " p " << p << " bits " << f.b << " m " << m;
        }
  }
}

// ---- the fixed backend on real meshes ----------------------------------------------------------

namespace {
struct FixedScene {
  const char* first;
  const char* second;
  double angle;
  Vec3 direction;
  bool with_exact;  // also run the (slow) exact backend
};
const FixedScene kFixedScenes[] = {
    {"cow.off", "cow.off", 0.9, Vec3(1, 0.3, 0.2), true},
    {"elephant.off", "hand.off", 2.1, Vec3(0.2, 1, -0.4), false},
};
}  // namespace

// Contacts of the fixed backend (fixed SAT + the triangle unit on quantized vertices) that differ
// from a double-precision contact set: each is listed with its distance, which must be below
// the triangle unit's documented delta.
void expect_differences_within_delta(const std::vector<ContactPair>& fixed, const std::vector<ContactPair>& reference,
                                     const Mesh& first, const Mesh& second, const Pose& pose, double delta) {
  std::vector<ContactPair> differ;
  std::set_symmetric_difference(fixed.begin(), fixed.end(), reference.begin(), reference.end(),
                                std::back_inserter(differ));
  const std::vector<Vec3> placed = place_vertices(second, pose);
  for (const ContactPair& c : differ) {
    const auto& t = second.triangles[c.second];
    const double d = triangle_distance(first.corner(c.first, 0), first.corner(c.first, 1), first.corner(c.first, 2),
                                       placed[t[0]], placed[t[1]], placed[t[2]]);
    std::printf("  differs: (%u, %u) distance %.3g (delta %.3g)\n", c.first, c.second, d, delta);
    EXPECT_LE(d, delta);
  }
}

// The fixed SAT never separates a pair the exact one keeps (no false negatives), so it tests at
// least as many DOP pairs; the excess is reported. Contact sets equal the float backend's but
// for pairs closer than the triangle unit's delta.
TEST(FixedBackend, SameContactsAsFloatAndAtLeastTheExactPairTests) {
  for (const FixedScene& scene : kFixedScenes) {
    REQUIRE_REAL_MESH(scene.first);
    REQUIRE_REAL_MESH(scene.second);
    const Mesh first = load_mesh(real_mesh_path(scene.first)), second = load_mesh(real_mesh_path(scene.second));
    const DopTree tf(first, 24), ts(second, 24);
    const auto poses = make_pose_classes(
        tf, ts, Eigen::Quaterniond(Eigen::AngleAxisd(scene.angle, Vec3(1, 2, 0.5).normalized())), scene.direction);
    for (const ClassifiedPose& cp : poses) {
      const QueryResult fl = collide(tf, ts, cp.pose, TraversalOptions{}, SatBackend::Float);
      for (const FixedParams& bits : {FixedParams{18, 18, 18}, FixedParams{35, 35, 35}}) {
        const QueryResult fx = collide(tf, ts, cp.pose, TraversalOptions{}, SatBackend::Fixed, bits);
        const double delta = triangle_delta(scene_scale(tf, ts), TriangleFixedParams{});
        expect_differences_within_delta(fx.contacts, fl.contacts, first, second, cp.pose, delta);
        std::printf("%s vs %s %-16s bits %d: contacts %zu, pair tests float %llu fixed %llu", scene.first,
                    scene.second, to_string(cp.kind), bits.b, fx.contacts.size(),
                    (unsigned long long)fl.stats.pair_tests, (unsigned long long)fx.stats.pair_tests);
        if (scene.with_exact && bits.b == 18) {
          const QueryResult ex = collide(tf, ts, cp.pose, TraversalOptions{}, SatBackend::Exact);
          EXPECT_EQ(ex.contacts, fl.contacts);
          expect_differences_within_delta(fx.contacts, ex.contacts, first, second, cp.pose, delta);
          EXPECT_GE(fx.stats.pair_tests, ex.stats.pair_tests);
          EXPECT_GE(fx.stats.leaf_pairs, ex.stats.leaf_pairs);
          std::printf(" exact %llu (fixed excess %+lld = %.3f%%)", (unsigned long long)ex.stats.pair_tests,
                      (long long)fx.stats.pair_tests - (long long)ex.stats.pair_tests,
                      100.0 * (double(fx.stats.pair_tests) / double(ex.stats.pair_tests) - 1));
        }
        std::printf("\n");
      }
    }
  }
}

// A custom triangle test replaces the exact one (the seam of the fixed-point triangle unit).
TEST(FixedBackend, TriangleTestIsAParameter) {
  const Mesh a = make_torus(1.0, 0.3, 24, 12);
  const DopTree ta(a, 24);
  const Pose identity;
  const SatSetup setup = make_sat_setup(ta.orientations(), identity);
  const std::vector<Vec3> placed = place_vertices(a, identity);
  std::uint64_t calls = 0;
  const QueryResult r = collide(ta, ta, setup, placed, TraversalOptions{}, SatBackend::Fixed, FixedParams{},
                                [&](std::uint32_t f, std::uint32_t s) {
                                  ++calls;
                                  return f == s;
                                });
  EXPECT_EQ(calls, r.stats.triangle_tests);
  EXPECT_EQ(r.contacts.size(), a.triangle_count());
  for (const ContactPair& c : r.contacts) EXPECT_EQ(c.first, c.second);
}

TEST(FixedBackend, ParsesItsName) {
  EXPECT_EQ(parse_sat_backend("fixed"), SatBackend::Fixed);
  EXPECT_STREQ(to_string(SatBackend::Fixed), "fixed");
  EXPECT_THROW(parse_sat_backend("fix"), InputError);
}
