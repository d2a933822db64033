// Axis-test vectors (test_vectors.hpp, docs/test-vectors.md): parsing, writing, the sat-eval
// output on the checked-in file against an independent exact evaluation, errors that name the
// line, and the vectors recorded from a real traversal.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

#include "kdopcd/error.hpp"
#include "kdopcd/exact_sum.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/test_vectors.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

const std::string kSmallVectors = std::string(KDOPCD_TEST_DATA_DIR) + "/sat_small.vec";    // 18 and 35 bits
const std::string kWidthVectors = std::string(KDOPCD_TEST_DATA_DIR) + "/sat_widths.vec";  // 4, z > b+c, 44

// Independent of quantize_* and fixed_diffs: quantization by exact rational floor/ceil and Eq. 8
// as rationals, returned as the decimal integers at scale 2^-(b+c) that sat-eval prints.
BigInt floor_of(const Rational& q) {
  BigInt n = numerator(q) / denominator(q);
  if (Rational(n) > q) --n;
  return n;
}
BigInt ceil_of(const Rational& q) {
  BigInt n = numerator(q) / denominator(q);
  if (Rational(n) < q) ++n;
  return n;
}
Rational exact(double x) {  // a double as an exact rational
  ExactSum s;
  s.add(x);
  return s.value();
}

std::string independent_sat_eval(const TestVector& v) {
  const FixedParams& f = v.bits;
  const Rational two_b = Rational(BigInt(1) << f.b), two_c = Rational(BigInt(1) << f.c), two_z = Rational(BigInt(1) << f.z);
  BigInt PA[3], PB[3], a[3], ak[3], b[3], bk[3], p;
  for (int i = 0; i < 3; ++i) {
    if (v.kind == TestVector::Kind::Real) {
      PA[i] = floor_of(exact(v.real.PA[i]) * two_c);
      PB[i] = floor_of(exact(v.real.PB[i]) * two_c);
      a[i] = ceil_of(exact(v.real.a[i]) * two_b);
      ak[i] = ceil_of(exact(v.real.ak[i]) * two_b);
      b[i] = ceil_of(exact(v.real.b[i]) * two_b);
      bk[i] = ceil_of(exact(v.real.bk[i]) * two_b);
    } else {
      PA[i] = v.fixed.PA[i], PB[i] = v.fixed.PB[i], a[i] = v.fixed.a[i], ak[i] = v.fixed.ak[i];
      b[i] = v.fixed.b[i], bk[i] = v.fixed.bk[i];
    }
  }
  if (v.kind == TestVector::Kind::Real) {
    const double pc = std::max(-4.0, std::min(4.0, v.real.p));
    p = floor_of(exact(pc) * two_z);
  } else {
    p = v.fixed.p;
  }
  // Eq. 7-8 in reals, then times 2^(b+c).
  auto image = [&](const BigInt* P, const BigInt* x) {
    Rational s = 0;
    for (int i = 0; i < 3; ++i) {
      s += Rational(P[i]) / two_c * Rational(x[i]) / two_b;
      if (x[i] < 0) s += Rational(x[i]) / two_b / two_c;
    }
    return s;
  };
  const Rational unit = two_b * two_c;
  const Rational p_low = Rational(p) / two_z * unit, p_high = Rational(p + 1) / two_z * unit;  // at scale 2^-(b+c)
  const Rational r1 = (image(PA, a) + image(PB, bk)) * unit + Rational(floor_of(p_low));
  const Rational r2 = (image(PB, b) + image(PA, ak)) * unit - Rational(ceil_of(p_high));
  EXPECT_EQ(denominator(r1), 1);
  EXPECT_EQ(denominator(r2), 1);
  const BigInt n1 = numerator(r1), n2 = numerator(r2);
  return n1.str() + " " + n2.str() + " " + ((n1 > 0 || n2 > 0) ? "1" : "0");
}

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_test_vectors(in, "t.vec");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TestVectors, SatEvalOfTheCheckedInFilesMatchesAnIndependentEvaluation) {
  const std::vector<TestVector> small = load_test_vectors(kSmallVectors);
  const std::vector<TestVector> widths = load_test_vectors(kWidthVectors);
  ASSERT_EQ(small.size(), 10u);
  ASSERT_EQ(widths.size(), 6u);
  int separated = 0;
  for (const auto* file : {&small, &widths})
    for (const TestVector& v : *file) {
      const std::string line = sat_eval_line(v);
      EXPECT_EQ(line, independent_sat_eval(v)) << "line " << v.line << " of " << (file == &small ? kSmallVectors : kWidthVectors);
      separated += line.back() == '1';
    }
  for (const TestVector& v : small) EXPECT_TRUE(v.bits.b == v.bits.c && v.bits.c == v.bits.z && (v.bits.b == 18 || v.bits.b == 35));
  // The decimal lines: gap separated, overlap and touching not; p = -1e6 is clamped and separated.
  EXPECT_EQ(sat_eval_line(small[0]).back(), '1');
  EXPECT_EQ(sat_eval_line(small[1]).back(), '0');
  EXPECT_EQ(sat_eval_line(small[2]).back(), '0');
  EXPECT_EQ(sat_eval_line(small[4]).back(), '1');
  // The Q lines of the hand-computed example (sat_fixed_test.cpp).
  EXPECT_EQ(sat_eval_line(widths[0]), "4 -234 1");
  EXPECT_EQ(sat_eval_line(widths[1]), "-12 -218 0");
  EXPECT_GT(separated, 0);
  EXPECT_LT(separated, int(small.size() + widths.size()));
}

TEST(TestVectors, WriteThenParseRoundTripsExactly) {
  std::vector<TestVector> vectors = load_test_vectors(kSmallVectors);
  for (const TestVector& v : load_test_vectors(kWidthVectors)) vectors.push_back(v);
  std::string text = "# written\n";
  for (const TestVector& v : vectors) text += format_test_vector(v) + "   # trailing comment\n\n";
  std::istringstream in(text);
  const std::vector<TestVector> again = parse_test_vectors(in, "again");
  ASSERT_EQ(again.size(), vectors.size());
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    EXPECT_EQ(format_test_vector(again[i]), format_test_vector(vectors[i]));
    EXPECT_EQ(std::memcmp(&again[i].real, &vectors[i].real, sizeof(RealOperands)), 0);
    EXPECT_EQ(sat_eval_line(again[i]), sat_eval_line(vectors[i]));
  }
  EXPECT_EQ(again[0].line, 2u);
}

TEST(TestVectors, MalformedLinesNameTheLineAndWhatWasExpected) {
  const std::string good = "R 18 18 18 -1 0 0 -1 0 0 0.5 1 1 1 1 1 1 1 1 1 1 1 1\n";
  const struct {
    std::string text;
    const char* expected;
  } cases[] = {
      {"# c\n\nX 18 18 18\n", "t.vec:3: expected 'R' or 'Q'"},
      {good + "R 18 18 18 -1 0 0\n", "t.vec:2: expected 'R b c z' and 19 operand fields"},
      {good + good + "R 18 18 18 -1 0 0 -1 0 0 0.5 1 1 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:3: expected 'R b c z'"},
      {"R 3 18 18 -1 0 0 -1 0 0 0.5 1 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:1: expected b as an integer in [4, 44]"},
      {"R 18 18 x -1 0 0 -1 0 0 0.5 1 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:1: expected z as an integer"},
      {"R 18 18 18 -1 0 0 -1 0 0 0.5 1 1 1 1 1.5 1 1 1 1 1 1 1\n", "t.vec:1: expected ak1 in [-1, 1]"},
      {"R 18 18 18 -1 0 0.1 -1 0 0 0.5 1 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:1: expected PA2 in [-1, 0]"},
      {"R 18 18 18 -1 0 0 -1 0 0 nan 1 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:1: expected p as a finite real"},
      {"R 18 18 18 -1 0 0 -1 0 0 0.5x 1 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:1: expected p as a finite real"},
      {"Q 4 4 4 -16 0 0 -16 0 0 0 1 1 1 1 1 1 1 1 1 1 1 1.0\n", "t.vec:1: expected bk2 as a decimal integer"},
      {"Q 4 4 4 -17 0 0 -16 0 0 0 1 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:1: expected PA0 in [-2^c, 0]"},
      {"Q 4 4 4 -16 0 0 -16 0 0 65 1 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:1: expected p in [-2^(z+2), 2^(z+2)]"},
      {"Q 4 4 4 -16 0 0 -16 0 0 0 17 1 1 1 1 1 1 1 1 1 1 1\n", "t.vec:1: expected a0 in [-2^b, 2^b]"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(c.text);
    EXPECT_EQ(message.rfind(c.expected, 0), 0u) << "got: " << message << "\nwanted: " << c.expected;
  }
  EXPECT_EQ(error_of(good), "");
  EXPECT_THROW(load_test_vectors("/nonexistent/x.vec"), InputError);
}

// The recorded vectors are exactly the axis tests of collide's traversal: the same statistics,
// and every vector, re-quantized from its R line, gives the verdict the fixed backend gave. The
// float backend's leaf-plane axis is no SAT axis test (the hardware has none): off here.
TEST(TestVectors, RecordedFromARealTraversal) {
  REQUIRE_REAL_MESH("cow.off");
  const Mesh cow = load_mesh(real_mesh_path("cow.off"));
  const DopTree tree(cow, 24);
  const auto poses = make_pose_classes(tree, tree, Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Vec3(0, 1, 1).normalized())),
                                       Vec3(1, 0, 0.3));
  for (SatBackend backend : {SatBackend::Fixed, SatBackend::Float}) {
    for (const ClassifiedPose& cp : {poses[0], poses[1]}) {
      const FixedParams bits{18, 18, 18};
      std::uint64_t count = 0, mismatches = 0;
      const TraversalStats stats =
          record_axis_tests(tree, tree, cp.pose, TraversalOptions{}, backend, bits, [&](const TestVector& v, bool sep) {
            ++count;
            if (backend == SatBackend::Fixed) mismatches += evaluate_test_vector(v).separated() != sep;
            return true;
          });
      const QueryResult r = collide(tree, tree, cp.pose, TraversalOptions{.leaf_planes = false, .wide = false}, backend, bits);
      EXPECT_EQ(stats.pair_tests, r.stats.pair_tests);
      EXPECT_EQ(stats.axis_tests, r.stats.axis_tests);
      EXPECT_EQ(count, r.stats.axis_tests);
      EXPECT_EQ(mismatches, 0u);
    }
  }
  std::uint64_t limited = 0;
  record_axis_tests(tree, tree, poses[0].pose, TraversalOptions{}, SatBackend::Fixed, FixedParams{},
                    [&](const TestVector&, bool) { return ++limited < 1000; });
  EXPECT_EQ(limited, 1000u);
  EXPECT_THROW(record_axis_tests(tree, tree, poses[0].pose, TraversalOptions{}, SatBackend::Exact, FixedParams{},
                                 [](const TestVector&, bool) { return true; }),
               InputError);
}
