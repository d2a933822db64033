// kdop verify-bound's checker (bound_check.hpp, docs/fixed-point.md §6): no false negatives and
// 0 <= err_i <= bound on random samples and on vectors recorded from real scenes, for
// (b,c,z) = (18,18,18) and (35,35,35); sharded runs merge to the unsharded run.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <numeric>

#include "kdopcd/bound_check.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/test_vectors.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

// Every axis test of the fixed-backend traversals of a scene in its four pose classes (angle >= 0)
// or at the identity pose (angle < 0: identical objects touching everywhere), at most `limit`.
void record_scene(const char* first_name, const char* second_name, double angle, const Vec3& direction,
                  const FixedParams& bits, std::size_t limit, std::vector<RealOperands>& out) {
  const Mesh first = load_mesh(real_mesh_path(first_name)), second = load_mesh(real_mesh_path(second_name));
  const DopTree tf(first, 24), ts(second, 24);
  std::vector<Pose> poses{Pose{}};
  if (angle >= 0) {
    poses.clear();
    for (const ClassifiedPose& cp : make_pose_classes(
             tf, ts, Eigen::Quaterniond(Eigen::AngleAxisd(angle, Vec3(1, 2, 0.5).normalized())), direction))
      poses.push_back(cp.pose);
  }
  const std::size_t start = out.size();
  for (const Pose& pose : poses)
    record_axis_tests(tf, ts, pose, TraversalOptions{}, SatBackend::Fixed, bits, [&](const TestVector& v, bool) {
      if (out.size() - start >= limit) return false;
      out.push_back(v.real);
      return true;
    });
  std::printf("  recorded %zu axis tests from %s vs %s\n", out.size() - start, first_name, second_name);
}

void print_stats(const char* what, const FixedParams& bits, const BoundStats& s, double seconds) {
  std::printf("%-9s b,c,z=%d,%d,%d: %llu samples (%llu clamped), FN %llu, max err/bound paper %.4f tight %.4f, "
              "fixed extra positives %llu, %.2f s\n  histogram (tight):",
              what, bits.b, bits.c, bits.z, (unsigned long long)s.samples, (unsigned long long)s.clamped,
              (unsigned long long)s.false_negatives, s.max_ratio_paper, s.max_ratio_tight,
              (unsigned long long)(s.exact_separated - s.fixed_separated), seconds);
  for (auto c : s.histogram_tight) std::printf(" %llu", (unsigned long long)c);
  std::printf("\n");
}

void expect_clean(const BoundStats& s) {
  EXPECT_EQ(s.false_negatives, 0u);
  EXPECT_EQ(s.clamp_verdict_failures, 0u);
  EXPECT_EQ(s.clamped_bound_violations, 0u);
  EXPECT_EQ(s.negative_errors, 0u);
  EXPECT_EQ(s.paper_bound_violations, 0u);
  EXPECT_EQ(s.tight_bound_violations, 0u);
  EXPECT_LE(s.max_ratio_paper, 1.0);
  EXPECT_LE(s.max_ratio_tight, 1.0);
  EXPECT_EQ(s.unclamped + s.clamped, s.samples);
  EXPECT_EQ(std::accumulate(s.histogram_paper.begin(), s.histogram_paper.end(), std::uint64_t(0)), s.unclamped);
  EXPECT_EQ(std::accumulate(s.histogram_tight.begin(), s.histogram_tight.end(), std::uint64_t(0)), s.unclamped);
  EXPECT_GE(s.exact_separated, s.fixed_separated);
  EXPECT_TRUE(s.passed());
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class BoundAtWidth : public ::testing::TestWithParam<FixedParams> {};

}  // namespace

// At least 10^6 random samples and 10^6 vectors recorded from the traversals of real scenes
// (cow vs cow, elephant vs hand, mushroom vs couplingdown in the four pose classes, and cow vs cow
// at the identity pose, where every triangle touches its copy) per width.
TEST_P(BoundAtWidth, NoFalseNegativesAndErrorWithinTheBound) {
  for (const char* mesh : {"cow.off", "elephant.off", "hand.off", "mushroom.off", "couplingdown.off"})
    REQUIRE_REAL_MESH(mesh);
  const FixedParams bits = GetParam();
  BoundConfig config;
  config.bits = bits;
  config.k = 24;
  config.seed = 2024;

  auto t0 = std::chrono::steady_clock::now();
  const BoundStats random = check_random_samples(config, 1000000);
  print_stats("random", bits, random, seconds_since(t0));
  expect_clean(random);
  EXPECT_EQ(random.samples, 1000000u);
  EXPECT_GT(random.clamped, 0u);
  EXPECT_GT(random.exact_separated, random.fixed_separated) << "near-zero samples must reach the boundary";

  t0 = std::chrono::steady_clock::now();
  std::vector<RealOperands> recorded;
  record_scene("cow.off", "cow.off", 0.9, Vec3(1, 0.3, 0.2), bits, 400000, recorded);
  record_scene("cow.off", "cow.off", 2.4, Vec3(-0.3, 1, 0.6), bits, 400000, recorded);
  record_scene("elephant.off", "hand.off", 2.1, Vec3(0.2, 1, -0.4), bits, 200000, recorded);
  record_scene("mushroom.off", "couplingdown.off", 1.3, Vec3(-0.5, 0.3, 1), bits, 200000, recorded);
  record_scene("cow.off", "cow.off", -1, Vec3::Zero(), bits, 1000000 - std::min<std::size_t>(recorded.size(), 500000),
               recorded);
  const double record_seconds = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const BoundStats scene = check_recorded_samples(config, recorded);
  print_stats("recorded", bits, scene, seconds_since(t0));
  std::printf("  (recording %.2f s)\n", record_seconds);
  expect_clean(scene);
  EXPECT_GE(scene.samples, 1000000u);
}

INSTANTIATE_TEST_SUITE_P(PaperWidths, BoundAtWidth, ::testing::Values(FixedParams{18, 18, 18}, FixedParams{35, 35, 35}),
                         [](const auto& info) { return "b" + std::to_string(info.param.b); });

// Smaller runs over every k and odd widths: the smallest (4), z > b + c (the shifted p), 44 bits.
TEST(VerifyBound, EveryKAndUnusualWidths) {
  for (int k : kSupportedK)
    for (const FixedParams& bits :
         {FixedParams{4, 4, 4}, FixedParams{4, 4, 12}, FixedParams{10, 20, 30}, FixedParams{44, 44, 44}}) {
      BoundConfig config;
      config.bits = bits;
      config.k = k;
      config.seed = 7 + k;
      const std::uint64_t samples = 8000;
      const BoundStats s = check_random_samples(config, samples);
      SCOPED_TRACE("k " + std::to_string(k) + " b,c,z " + std::to_string(bits.b) + "," + std::to_string(bits.c) + "," +
                   std::to_string(bits.z));
      expect_clean(s);
      EXPECT_EQ(s.samples, samples);
    }
}

// Shards take disjoint slices of the sample indices: the reports of 3 shards, written to JSON,
// read back and merged, equal the unsharded run's, for random and recorded samples.
TEST(VerifyBound, ShardedRunsMergeToTheUnshardedRun) {
  const std::vector<TestVector> file = load_test_vectors(std::string(KDOPCD_TEST_DATA_DIR) + "/sat_small.vec");
  std::vector<RealOperands> recorded;
  for (const TestVector& v : file)
    if (v.kind == TestVector::Kind::Real) recorded.push_back(v.real);
  BoundConfig base;
  base.bits = {18, 18, 18};
  base.seed = 99;
  auto run = [&](std::uint32_t index, std::uint32_t count) {
    BoundConfig c = base;
    c.shard_index = index;
    c.shard_count = count;
    BoundReport r;
    r.bits = c.bits;
    r.k = c.k;
    r.r_max = orientation_set(c.k).r_max();
    r.seed = c.seed;
    r.random_samples = 30001;
    r.sources = {"sat_small.vec"};
    r.shard_count = count;
    r.shards = {index};
    r.random = check_random_samples(c, r.random_samples);
    // The recorded vectors arrive in two batches, as the CLI's per-pose batches do.
    r.recorded = check_recorded_samples(c, std::span(recorded).first(3), 0);
    r.recorded.merge(check_recorded_samples(c, std::span(recorded).subspan(3), 3));
    return r;
  };
  const BoundReport whole = run(0, 1);
  EXPECT_EQ(whole.random.samples, 30001u);
  EXPECT_EQ(whole.recorded.samples, recorded.size());
  std::vector<BoundReport> shards;
  std::uint64_t shard_samples = 0;
  for (std::uint32_t i : {2u, 0u, 1u}) {
    const BoundReport r = run(i, 3);
    shard_samples += r.random.samples;
    shards.push_back(parse_bound_report(bound_report_json(r), "shard"));  // through JSON
  }
  EXPECT_EQ(shard_samples, 30001u);
  const BoundReport merged = merge_bound_reports(shards);
  EXPECT_TRUE(merged.random == whole.random);
  EXPECT_TRUE(merged.recorded == whole.recorded);
  EXPECT_EQ(merged.shards, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_TRUE(merged.passed());

  // Not shards of one run: refused.
  std::vector<BoundReport> twice{shards[0], shards[0]};
  EXPECT_THROW(merge_bound_reports(twice), InputError);
  std::vector<BoundReport> other_bits{shards[0], shards[1]};
  other_bits[1].bits.b = 20;
  EXPECT_THROW(merge_bound_reports(other_bits), InputError);
  EXPECT_THROW(parse_bound_report("{\"format\": 1}", "x.json"), InputError);
}

// The bounds in units of s.
TEST(VerifyBound, BoundFormulas) {
  const FixedParams f{18, 18, 18};
  EXPECT_DOUBLE_EQ(paper_error_bound(f), std::sqrt(3.0) * std::ldexp(1.0, -17) + 6 * std::ldexp(1.0, -18) +
                                             std::ldexp(1.0, -18));
  // z > b+c: the p term's share is 2^-(b+c), not 2^-z + 2^-(b+c) (offset_error_bound).
  EXPECT_DOUBLE_EQ(fixed_error_bound(FixedParams{4, 4, 12}, 1.0),
                   std::ldexp(1.0, -3) + 6 * std::ldexp(1.0, -4) + std::ldexp(1.0, -8));
  EXPECT_LT(fixed_error_bound(f, orientation_set(24).r_max()), paper_error_bound(f));
}
