// kdopcd_rtl_engine (verilated/include/kdopcd/rtl_engine.hpp): the Verilated pipeline behind
// `kdop sat-eval --engine rtl` prints exactly the reference's sat-eval lines.
#include <gtest/gtest.h>

#include <random>

#include "kdopcd/error.hpp"
#include "kdopcd/rtl_engine.hpp"
#include "kdopcd/test_vectors.hpp"

using namespace kdopcd;

namespace {

TestVector random_vector(const FixedParams& f, std::mt19937_64& rng) {
  auto uni = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  const std::int64_t cmax = std::int64_t(1) << f.b, pmax = std::int64_t(1) << f.c, omax = std::int64_t(1) << (f.z + 2);
  TestVector v;
  v.kind = TestVector::Kind::Quantized;
  v.bits = f;
  for (int i = 0; i < 3; ++i) {
    v.fixed.PA[i] = uni(-pmax, 0);
    v.fixed.PB[i] = uni(-pmax, 0);
    v.fixed.a[i] = uni(-cmax, cmax);
    v.fixed.ak[i] = uni(-cmax, cmax);
    v.fixed.b[i] = uni(-cmax, cmax);
    v.fixed.bk[i] = uni(-cmax, cmax);
  }
  v.fixed.p = uni(-omax, omax);
  return v;
}

TEST(RtlEngine, SmallVectorFileMatchesSatEval) {
  const auto vs = load_test_vectors(std::string(KDOPCD_TEST_DATA_DIR) + "/sat_small.vec");
  ASSERT_FALSE(vs.empty());
  const auto lines = rtl_sat_eval(vs);
  ASSERT_EQ(lines.size(), vs.size());
  for (std::size_t i = 0; i < vs.size(); ++i) EXPECT_EQ(lines[i], sat_eval_line(vs[i])) << "vector " << i;
}

TEST(RtlEngine, MixedParameterSetsInOneCallMatchSatEval) {
  std::mt19937_64 rng(42);
  std::vector<TestVector> vs;
  for (int run = 0; run < 6; ++run) {
    const FixedParams f = run % 2 ? FixedParams{35, 35, 35} : FixedParams{18, 18, 18};
    for (int i = 0; i < 3000 + run; ++i) vs.push_back(random_vector(f, rng));
  }
  const auto lines = rtl_sat_eval(vs);
  ASSERT_EQ(lines.size(), vs.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < vs.size(); ++i) bad += lines[i] != sat_eval_line(vs[i]);
  EXPECT_EQ(bad, 0u);
}

TEST(RtlEngine, RefusesUncompiledParameters) {
  std::mt19937_64 rng(1);
  std::vector<TestVector> vs{random_vector({18, 18, 18}, rng), random_vector({20, 18, 18}, rng)};
  vs[1].line = 7;
  try {
    rtl_sat_eval(vs);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("vector line 7"), std::string::npos) << what;
    EXPECT_NE(what.find("20,18,18 is not compiled into the RTL engine"), std::string::npos) << what;
    EXPECT_NE(what.find("18,18,18 and 35,35,35"), std::string::npos) << what;
  }
  EXPECT_TRUE(rtl_has_params({35, 35, 35}));
  EXPECT_FALSE(rtl_has_params({35, 35, 34}));
}

TEST(RtlEngine, EmptyInputGivesNoLines) { EXPECT_TRUE(rtl_sat_eval({}).empty()); }

TEST(RtlEngine, DocumentedLatency) {
  EXPECT_EQ(rtl_latency({18, 18, 18}), 8);
  EXPECT_EQ(rtl_latency({35, 35, 35}), 9);
  EXPECT_EQ(rtl_latency({18, 18, 18}, 25), 7);  // one multiplier per product: the paper's 7 stages
}

}  // namespace
