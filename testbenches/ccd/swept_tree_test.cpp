// dops_apart (swept_tree.hpp), the k-DOP hull test of every node pair and feature pair of a CCD
// query, against the plain test one direction at a time: the same verdict for every k, for hulls
// of one to three k-DOPs on each side, where exactly one direction separates (each direction in
// turn, so the vector steps and the directions after them are both covered), where bounds are equal
// (touching is not apart), and on random k-DOPs of which about half are apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "kdopcd/ccd/swept_tree.hpp"

namespace kdopcd::ccd {
namespace {

// The hull of k-DOPs (min at [0, half), max at [half, 2 half)), direction by direction.
bool apart_one_direction_at_a_time(int half, const std::vector<const float*>& mine,
                                   const std::vector<const float*>& theirs) {
  for (int i = 0; i < half; ++i) {
    float lo_a = mine[0][i], hi_a = mine[0][half + i], lo_b = theirs[0][i], hi_b = theirs[0][half + i];
    for (const float* d : mine) {
      lo_a = std::min(lo_a, d[i]);
      hi_a = std::max(hi_a, d[half + i]);
    }
    for (const float* d : theirs) {
      lo_b = std::min(lo_b, d[i]);
      hi_b = std::max(hi_b, d[half + i]);
    }
    if (lo_a > hi_b || lo_b > hi_a) return true;
  }
  return false;
}

// `count` k-DOPs of `half` directions around the origin, each interval [c - w, c + w].
std::vector<std::vector<float>> random_dops(std::mt19937& rng, int half, int count, float spread) {
  std::uniform_real_distribution<float> centre(-spread, spread), width(0.0f, 1.0f);
  std::vector<std::vector<float>> dops(std::size_t(count), std::vector<float>(std::size_t(2 * half)));
  for (auto& d : dops)
    for (int i = 0; i < half; ++i) {
      const float c = centre(rng), w = width(rng);
      d[std::size_t(i)] = c - w;
      d[std::size_t(half + i)] = c + w;
    }
  return dops;
}

template <std::size_t M, std::size_t N>
void expect_same_verdicts(int half, std::mt19937& rng, int& apart_count, int& cases) {
  for (int trial = 0; trial < 400; ++trial) {
    auto a = random_dops(rng, half, int(M), 1.5f);
    auto b = random_dops(rng, half, int(N), 1.5f);
    // Every fourth trial: both hulls the same except that direction `cut` is moved apart, or made to
    // touch (the minimum of one equal to the maximum of the other).
    if (trial % 4 == 0) {
      b = a.size() >= N ? std::vector<std::vector<float>>(a.begin(), a.begin() + N) : random_dops(rng, half, int(N), 0.0f);
      const int cut = (trial / 4) % half;
      float hi_a = a[0][std::size_t(half + cut)];
      for (const auto& d : a) hi_a = std::max(hi_a, d[std::size_t(half + cut)]);
      for (auto& d : b) {
        const float shift = hi_a - d[std::size_t(cut)] + ((trial / 4) % 3 == 0 ? 0.0f : 0.25f);
        d[std::size_t(cut)] += shift;
        d[std::size_t(half + cut)] += shift;
      }
    }
    std::array<const float*, M> x;
    std::array<const float*, N> y;
    std::vector<const float*> xs, ys;
    for (std::size_t m = 0; m < M; ++m) xs.push_back(x[m] = a[m].data());
    for (std::size_t n = 0; n < N; ++n) ys.push_back(y[n] = b[n].data());
    const bool expected = apart_one_direction_at_a_time(half, xs, ys);
    ASSERT_EQ(dops_apart(half, x, y), expected) << "half " << half << ", trial " << trial;
    ASSERT_EQ(dops_apart(half, y, x), expected) << "half " << half << ", trial " << trial << " (swapped)";
    apart_count += expected;
    ++cases;
  }
}

TEST(SweptTree, DopsApartEqualsTheTestOneDirectionAtATime) {
  std::mt19937 rng(20261129);
  int apart = 0, cases = 0;
  for (int half : {3, 7, 9, 12, 13}) {
    expect_same_verdicts<1, 1>(half, rng, apart, cases);
    expect_same_verdicts<1, 3>(half, rng, apart, cases);
    expect_same_verdicts<2, 2>(half, rng, apart, cases);
    expect_same_verdicts<3, 1>(half, rng, apart, cases);
  }
  // Both verdicts occur often, so neither an always-apart nor a never-apart test passes.
  EXPECT_GT(apart, cases / 5);
  EXPECT_LT(apart, cases - cases / 5);
}

}  // namespace
}  // namespace kdopcd::ccd
