#pragma once
// Verification of the fixed-point SAT against the exact one (paper §4.4,
// docs/fixed-point.md §6): for each sample (one axis test given by its scaled doubles,
// RealOperands) the exact diff1, diff2 (ExactSum, no rounding) and the fixed diff1', diff2'
// (fixed_diffs) are compared.
//
// What is checked, per sample (p = the sample's scaled p, p_c = p clamped to [-4, 4]):
//  - false negative: fixed 'separated' while the exact test with the unclamped p is not. Must be 0.
//  - |p| <= 4 (unclamped samples): err_i = diff_i - diff_i' (i = 1, 2, each on its own, Eq. 17-20)
//    must satisfy 0 <= err_i <= bound, for the paper's bound sqrt3 2^(1-b) + 6 2^-c + 2^-z and the
//    tight one with the orientation set's r_max in place of sqrt3 (+ 2^-(b+c) for both when
//    z > b+c, the extra rounding of the shifted p). Checked exactly. The largest err_i / bound and a
//    histogram of err / bound, err = max(diff1, diff2) - max(diff1', diff2') (the paper's Eq. 11),
//    are reported over these samples.
//  - |p| > 4 (clamped samples): the exact verdict (unclamped p) and the fixed verdict must both be
//    'separated' (the clamp keeps verdicts), and 0 <= err_i <= tight bound against the exact diff
//    computed with p_c (the clamped p is just another input in range).
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kdopcd/orientations.hpp"
#include "kdopcd/sat_fixed.hpp"

namespace kdopcd {

inline constexpr int kBoundHistogramBins = 10;

struct BoundStats {
  std::uint64_t samples = 0;
  std::uint64_t unclamped = 0;               // |p| <= 4
  std::uint64_t clamped = 0;                 // |p| > 4
  std::uint64_t false_negatives = 0;         // must be 0
  std::uint64_t clamp_verdict_failures = 0;  // clamped samples not 'separated' by exact or fixed: must be 0
  std::uint64_t clamped_bound_violations = 0;  // clamped samples with err_i (vs p_c) < 0 or > tight bound
  std::uint64_t negative_errors = 0;           // unclamped samples with some err_i < 0: must be 0
  std::uint64_t paper_bound_violations = 0;    // unclamped samples with some err_i > paper bound: must be 0
  std::uint64_t tight_bound_violations = 0;    // ... > tight bound: must be 0
  std::uint64_t exact_separated = 0;           // verdict counts over all samples (the difference is
  std::uint64_t fixed_separated = 0;           // the fixed test's extra false positives)
  double max_ratio_paper = 0;                  // max err_i / paper bound over unclamped samples
  double max_ratio_tight = 0;
  // Bin j counts err / bound in [j/10, (j+1)/10); below 0 goes to bin 0, 1 and above to bin 9.
  std::array<std::uint64_t, kBoundHistogramBins> histogram_paper{};
  std::array<std::uint64_t, kBoundHistogramBins> histogram_tight{};

  void merge(const BoundStats& other);
  bool passed() const {
    return false_negatives == 0 && clamp_verdict_failures == 0 && clamped_bound_violations == 0 &&
           negative_errors == 0 && paper_bound_violations == 0 && tight_bound_violations == 0;
  }
  bool operator==(const BoundStats&) const = default;
};

// The paper's bound (r = sqrt 3) and the tight one (r = r_max of the set), in units of s:
// r 2^(1-b) + 6 2^-c + offset_error_bound (docs/fixed-point.md §6, proven in docs/formal.md).
double fixed_error_bound(const FixedParams& bits, double r);
// The p term's share: p' and p' + 1 are within 2^-z of p; when z > b+c they are shifted to the
// 2^-(b+c) grid, and floor(floor(p 2^z) 2^(b+c-z)) = floor(p 2^(b+c)), so the share is 2^-(b+c)
// (the shift's rounding subsumes p''s).
double offset_error_bound(const FixedParams& bits);
inline double paper_error_bound(const FixedParams& bits) { return fixed_error_bound(bits, 1.7320508075688772); }
// The r of the tight bound that is checked (and proven, docs/formal.md): r_max rounded up by a
// relative 2^-40, which covers r_max's own rounding and that of the mapping vectors' cross sum.
inline double tight_bound_radius(double r_max) { return r_max * (1 + std::ldexp(1.0, -40)); }

struct BoundConfig {
  FixedParams bits;
  int k = 24;                     // the orientation set: r_max of the tight bound, random axes
  std::uint64_t seed = 1;
  std::uint32_t shard_index = 0;  // this run takes the sample indices i with i % shard_count == shard_index
  std::uint32_t shard_count = 1;
  std::atomic<std::uint64_t>* progress = nullptr;  // optional: samples done, for a progress bar
};

// Checks one sample (bits from the config, not from a vector) and adds it to stats.
void check_bound_sample(const RealOperands& sample, const FixedParams& bits, double r_max, BoundStats& stats);

// Random sample `index` of a seed: deterministic, independent of threads and shards. The index
// also picks the family (documented in bound_check.cpp): DOPs of random point sets at random
// scales, p pushed to within ulps / 2^-z of a zero diff, |p| at and beyond the clamp,
// coefficients at +-1, 0, grid points of 2^-b and their neighbouring doubles.
RealOperands random_bound_sample(const OrientationSet& set, const FixedParams& bits, std::uint64_t seed,
                                 std::uint64_t index);

// Random samples 0 .. samples-1 (this shard's share), multithreaded (TBB).
BoundStats check_random_samples(const BoundConfig& config, std::uint64_t samples);
// Recorded vectors; vector j has the global index first_index + j (for sharding).
BoundStats check_recorded_samples(const BoundConfig& config, std::span<const RealOperands> vectors,
                                  std::uint64_t first_index = 0);

// A run's report (kdop verify-bound --report): JSON, mergeable over shards.
struct BoundReport {
  FixedParams bits;
  int k = 24;
  double r_max = 0;
  double paper_bound = 0;
  double tight_bound = 0;
  std::uint64_t seed = 0;
  std::uint64_t random_samples = 0;       // requested N (all shards together)
  std::vector<std::string> sources;       // recorded-vector sources, in order
  std::uint32_t shard_count = 1;
  std::vector<std::uint32_t> shards;      // shard indices this report covers (sorted)
  BoundStats random;
  BoundStats recorded;
  double seconds = 0;                     // wall time (summed by merge)

  bool passed() const { return random.passed() && recorded.passed(); }
};

std::string bound_report_json(const BoundReport& report);
BoundReport parse_bound_report(const std::string& json_text, const std::string& name);  // InputError
void write_bound_report(const std::string& path, const BoundReport& report);
BoundReport load_bound_report(const std::string& path);
// Adds reports of disjoint shards of one run; InputError if bits, k, seed, N, sources or
// shard_count differ, or a shard appears twice.
BoundReport merge_bound_reports(const std::vector<BoundReport>& reports);

}  // namespace kdopcd
