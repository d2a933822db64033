#include "kdopcd/bound_check.hpp"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <nlohmann/json.hpp>  // header-only; the reports are the only JSON of the library

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/exact_sum.hpp"

namespace kdopcd {

void BoundStats::merge(const BoundStats& o) {
  samples += o.samples;
  unclamped += o.unclamped;
  clamped += o.clamped;
  false_negatives += o.false_negatives;
  clamp_verdict_failures += o.clamp_verdict_failures;
  clamped_bound_violations += o.clamped_bound_violations;
  negative_errors += o.negative_errors;
  paper_bound_violations += o.paper_bound_violations;
  tight_bound_violations += o.tight_bound_violations;
  exact_separated += o.exact_separated;
  fixed_separated += o.fixed_separated;
  max_ratio_paper = std::max(max_ratio_paper, o.max_ratio_paper);
  max_ratio_tight = std::max(max_ratio_tight, o.max_ratio_tight);
  for (int j = 0; j < kBoundHistogramBins; ++j) {
    histogram_paper[j] += o.histogram_paper[j];
    histogram_tight[j] += o.histogram_tight[j];
  }
}

double offset_error_bound(const FixedParams& f) {
  return std::ldexp(1.0, f.z > f.b + f.c ? -(f.b + f.c) : -f.z);
}

double fixed_error_bound(const FixedParams& f, double r) {
  return r * std::ldexp(1.0, 1 - f.b) + 6 * std::ldexp(1.0, -f.c) + offset_error_bound(f);
}

namespace {

// The bound as an exact sum with r rounded up, so "err <= bound" is decided without rounding.
ExactSum exact_bound(const FixedParams& f, double r_up) {
  ExactSum s;
  s.add_product(r_up, std::ldexp(1.0, 1 - f.b)).add(6 * std::ldexp(1.0, -f.c)).add(offset_error_bound(f));
  return s;
}

// s -= v 2^-shift, exactly: v (< 2^96 in magnitude) is split into 48-bit pieces, each a double.
void subtract_scaled(ExactSum& s, __int128 v, int shift) {
  const bool negative = v < 0;
  const unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  for (int part = 0; part < 3; ++part) {
    const std::uint64_t chunk = std::uint64_t(u >> (48 * part)) & ((std::uint64_t(1) << 48) - 1);
    if (chunk == 0) continue;
    const double piece = std::ldexp(double(chunk), 48 * part - shift);
    s.add(negative ? piece : -piece);
  }
}

double ratio_of(double err, double bound) { return err / bound; }

int bin_of(double ratio) {
  if (!(ratio > 0)) return 0;
  return std::min(kBoundHistogramBins - 1, int(ratio * kBoundHistogramBins));
}

struct BoundContext {
  FixedParams bits;
  double paper, tight;          // doubles for ratios
  ExactSum paper_exact, tight_exact;
  double unit;                  // 2^-(b+c)
};

BoundContext make_context(const FixedParams& bits, double r_max) {
  validate_fixed_params(bits);
  const double sqrt3_up = std::nextafter(std::sqrt(3.0), 10.0);  // >= sqrt 3
  const double r_up = tight_bound_radius(r_max);
  return {bits,
          paper_error_bound(bits),
          fixed_error_bound(bits, r_max),
          exact_bound(bits, sqrt3_up),
          exact_bound(bits, r_up),
          std::ldexp(1.0, -(bits.b + bits.c))};
}

// err <= bound, exactly; a clear double comparison decides most samples.
bool within(const ExactSum& err, double err_double, double bound, const ExactSum& bound_exact) {
  if (err_double <= bound * (1 - 1e-9)) return true;
  if (err_double > bound * (1 + 1e-9)) return false;
  ExactSum t = bound_exact;
  t.negate().add(err);
  return t.sign() <= 0;
}

void check_sample(const RealOperands& r, const BoundContext& ctx, BoundStats& stats) {
  const FixedParams& f = ctx.bits;
  // Exact parts without p: s1 = PA.a + PB.bk, s2 = PB.b + PA.ak.
  ExactSum s1, s2;
  for (int i = 0; i < 3; ++i) {
    s1.add_product(r.PA[i], r.a[i]).add_product(r.PB[i], r.bk[i]);
    s2.add_product(r.PB[i], r.b[i]).add_product(r.PA[i], r.ak[i]);
  }
  const bool clamped = std::abs(r.p) > 4.0;
  const double pc = std::clamp(r.p, -4.0, 4.0);
  // Exact diffs with the clamped p (equal to the unclamped ones for |p| <= 4).
  ExactSum c1 = s1, c2 = s2;
  c1.add(pc);
  c2.sub(pc);
  bool exact_separated;
  if (clamped) {
    ExactSum e1 = s1, e2 = s2;
    e1.add(r.p);
    e2.sub(r.p);
    exact_separated = e1.sign() > 0 || e2.sign() > 0;
  } else {
    exact_separated = c1.sign() > 0 || c2.sign() > 0;
  }
  const FixedDiffs d = fixed_diffs<true>(quantize_operands(r, f), f);
  const bool fixed_separated = d.separated();

  ++stats.samples;
  stats.exact_separated += exact_separated;
  stats.fixed_separated += fixed_separated;
  if (fixed_separated && !exact_separated) ++stats.false_negatives;

  // err_i = c_i - d_i 2^-(b+c), exactly.
  const int shift = f.b + f.c;
  ExactSum err1 = c1, err2 = c2;
  subtract_scaled(err1, d.diff1, shift);
  subtract_scaled(err2, d.diff2, shift);
  const double e1 = err1.to_double(), e2 = err2.to_double();
  const bool negative = err1.sign() < 0 || err2.sign() < 0;

  if (clamped) {
    ++stats.clamped;
    if (!exact_separated || !fixed_separated) ++stats.clamp_verdict_failures;
    if (negative || !within(err1, e1, ctx.tight, ctx.tight_exact) || !within(err2, e2, ctx.tight, ctx.tight_exact))
      ++stats.clamped_bound_violations;
    return;
  }
  ++stats.unclamped;
  if (negative) ++stats.negative_errors;
  if (!within(err1, e1, ctx.paper, ctx.paper_exact) || !within(err2, e2, ctx.paper, ctx.paper_exact))
    ++stats.paper_bound_violations;
  if (!within(err1, e1, ctx.tight, ctx.tight_exact) || !within(err2, e2, ctx.tight, ctx.tight_exact))
    ++stats.tight_bound_violations;
  const double emax = std::max(e1, e2);
  stats.max_ratio_paper = std::max(stats.max_ratio_paper, ratio_of(emax, ctx.paper));
  stats.max_ratio_tight = std::max(stats.max_ratio_tight, ratio_of(emax, ctx.tight));
  // The paper's err = max(c1, c2) - max(d1, d2) = max(err_j, err_i - (d_j - d_i) 2^-(b+c)), j the
  // larger fixed diff; in doubles (histogram only).
  double err;
  if (d.diff1 >= d.diff2) err = std::max(e1, e2 - double(d.diff1 - d.diff2) * ctx.unit);
  else err = std::max(e2, e1 - double(d.diff2 - d.diff1) * ctx.unit);
  ++stats.histogram_paper[bin_of(ratio_of(err, ctx.paper))];
  ++stats.histogram_tight[bin_of(ratio_of(err, ctx.tight))];
}

// ---- random samples ------------------------------------------------------------------------

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A small deterministic generator (same numbers on every platform and thread).
class SampleRng {
 public:
  SampleRng(std::uint64_t seed, std::uint64_t index) : state_(splitmix64(seed * 0x2545f4914f6cdd1dULL ^ splitmix64(index))) {}
  std::uint64_t next() { return state_ = splitmix64(state_); }
  double uniform() { return double(next() >> 11) * 0x1p-53; }                 // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  double gaussian() {  // Box-Muller
    const double u1 = 1 - uniform(), u2 = uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::uint64_t state_;
};

Vec3 random_unit(SampleRng& g) {
  Vec3 v;
  do v = Vec3(g.gaussian(), g.gaussian(), g.gaussian());
  while (v.norm() < 1e-6);
  return v.normalized();
}

// Coefficients of a random DOP: a point set (1 to 8 points: a single point is a degenerate DOP).
void random_dop(const OrientationSet& set, SampleRng& g, double world, const Vec3& centre, double* out) {
  const int count = 1 + int(g.below(8));
  const double radius = world * std::pow(10.0, g.uniform(-3, 0));
  std::vector<Vec3> points(count);
  for (Vec3& p : points) p = centre + radius * Vec3(g.gaussian(), g.gaussian(), g.gaussian());
  dop_of_points(set, points, {out, std::size_t(set.k())});
}

// A scaled coefficient at an edge: +-1, 0, a grid point m 2^-b, or a neighbouring double.
double edge_coefficient(SampleRng& g, int b) {
  switch (g.below(6)) {
    case 0: return g.below(2) ? 1.0 : -1.0;
    case 1: return g.below(2) ? 0.0 : -0.0;
    case 2: return g.uniform(-1, 1);
    default: {
      const std::int64_t range = std::int64_t(1) << b;
      const double grid = std::ldexp(double(std::int64_t(g.below(std::uint64_t(2 * range + 1))) - range), -b);
      const std::uint64_t step = g.below(3);
      double x = step == 0 ? grid : std::nextafter(grid, step == 1 ? 2.0 : -2.0);
      return std::clamp(x, -1.0, 1.0);
    }
  }
}

// p at and beyond the clamp.
double clamp_offset(SampleRng& g) {
  const double sign = g.below(2) ? 1.0 : -1.0;
  switch (g.below(5)) {
    case 0: return sign * 4.0;
    case 1: return sign * std::nextafter(4.0, 0.0);
    case 2: return sign * std::nextafter(4.0, 8.0);
    case 3: return sign * g.uniform(4, 8);
    default: return sign * std::pow(10.0, g.uniform(1, 12));
  }
}

// p that makes diff1 or diff2 (nearly) zero: exactly as computed in double, then moved by a few
// ulps, a few units of 2^-z, of 2^-(b+c), or a fraction of the bound.
double near_zero_offset(const RealOperands& r, const FixedParams& f, SampleRng& g) {
  double s1 = 0, s2 = 0;
  for (int i = 0; i < 3; ++i) {
    s1 += r.PA[i] * r.a[i] + r.PB[i] * r.bk[i];
    s2 += r.PB[i] * r.b[i] + r.PA[i] * r.ak[i];
  }
  double p = g.below(2) ? -s1 : s2;  // diff1 = s1 + p, diff2 = s2 - p
  const double sign = g.below(2) ? 1.0 : -1.0;
  switch (g.below(5)) {
    case 0: break;
    case 1:
      for (int u = 1 + int(g.below(4)); u > 0; --u) p = std::nextafter(p, sign * 8);
      break;
    case 2: p += sign * double(g.below(4)) * std::ldexp(1.0, -f.z); break;
    case 3: p += sign * double(g.below(4)) * std::ldexp(1.0, -(f.b + f.c)); break;
    default: p += sign * g.uniform() * fixed_error_bound(f, 2.0); break;
  }
  return p;
}

}  // namespace

void check_bound_sample(const RealOperands& sample, const FixedParams& bits, double r_max, BoundStats& stats) {
  check_sample(sample, make_context(bits, r_max), stats);
}

// Families by index % 16: 0-8 DOPs of random point sets with p uniform, 9-11 the same with p
// near a zero diff, 12-13 the same with |p| at or beyond the clamp, 14 edge coefficients (+-1, 0,
// grid points and neighbours), 15 adversarial operands (every rounding error near its maximum,
// synthetic mapping vectors); the last two with p uniform, near zero or on the 2^-z grid. Axes: a face normal of either object, a random unit vector, or
// (identity rotation) a face normal of both, which gives P entries of exactly 0 and -1.
RealOperands random_bound_sample(const OrientationSet& set, const FixedParams& f, std::uint64_t seed,
                                 std::uint64_t index) {
  SampleRng g(seed, index);
  const int family = int(index % 16);
  const int k = set.k(), half = set.half();
  // Rotation and axis.
  Mat3 M = Mat3::Identity();
  Vec3 L;
  const std::uint64_t axis_kind = g.below(4);
  if (axis_kind != 3) {
    M = Eigen::Quaterniond(g.gaussian(), g.gaussian(), g.gaussian(), g.gaussian()).normalized().toRotationMatrix();
  }
  if (axis_kind == 0 || axis_kind == 3) L = set.direction(int(g.below(k)));
  else if (axis_kind == 1) L = (M * set.direction(int(g.below(k)))).normalized();
  else L = random_unit(g);
  const FaceTriple tb = set.triple_for(L);
  const FaceTriple ta = set.triple_for((M.transpose() * L).normalized());
  RealOperands r;
  for (int i = 0; i < 3; ++i) {
    r.PA[i] = ta.P[i];
    r.PB[i] = tb.P[i];
  }
  if (family <= 13) {
    std::vector<double> a(k), b(k);
    const double world = std::pow(10.0, g.uniform(-3, 3));
    const Vec3 ca = world * Vec3(g.uniform(-1, 1), g.uniform(-1, 1), g.uniform(-1, 1));
    const Vec3 cb = g.below(2) ? ca : Vec3(world * Vec3(g.uniform(-1, 1), g.uniform(-1, 1), g.uniform(-1, 1)));
    random_dop(set, g, world, ca, a.data());
    random_dop(set, g, world, cb, b.data());
    double s = 0;
    for (int i = 0; i < k; ++i) s = std::max({s, std::abs(a[i]), std::abs(b[i])});
    if (g.below(2)) s *= std::exp2(g.uniform(0, 30));  // a node much smaller than the scene
    s = scene_scale_of(s, 0);
    for (int i = 0; i < 3; ++i) {
      r.a[i] = scale_coefficient(a[ta.j[i]], s);
      r.ak[i] = scale_coefficient(a[(ta.j[i] + half) % k], s);
      r.b[i] = scale_coefficient(b[tb.j[i]], s);
      r.bk[i] = scale_coefficient(b[(tb.j[i] + half) % k], s);
    }
    if (family <= 8) r.p = g.uniform(-3, 3) * (g.below(2) ? 1.0 : std::pow(10.0, g.uniform(-6, 0)));
    else if (family <= 11) r.p = near_zero_offset(r, f, g);
    else r.p = clamp_offset(g);
    return r;
  }
  if (family == 14) {
    for (double* group : {r.a, r.ak, r.b, r.bk})
      for (int i = 0; i < 3; ++i) group[i] = edge_coefficient(g, f.b);
  } else {
    // Adversarial: every rounding error near its maximum. Synthetic mapping vectors (in [-1, 0],
    // cross sum up to r_max: all the bound assumes) whose entries lie on or just below a 2^-c grid
    // point, coefficients just above a 2^-b grid point, positive where P' rounds by almost 2^-c and
    // negative (where the sn correction is largest) where P is on the grid.
    const double r_max = set.r_max();
    for (double* P : {r.PA, r.PB}) {
      double u[3], sum = 0;
      for (double& x : u) sum += (x = g.uniform() + 1e-3);
      const double target = r_max * g.uniform(0.9, 1.0) - 4 * std::ldexp(1.0, -f.c);
      for (int i = 0; i < 3; ++i) P[i] = -std::min(1.0, std::ldexp(std::floor(std::ldexp(u[i] / sum * target, f.c)), -f.c));
    }
    const double grid_step = std::ldexp(1.0, -f.b);
    for (int side = 0; side < 2; ++side) {
      double* P = side == 0 ? r.PA : r.PB;
      for (double* x : side == 0 ? std::array<double*, 2>{r.a, r.ak} : std::array<double*, 2>{r.b, r.bk})
        for (int i = 0; i < 3; ++i) {
          const bool positive = g.below(2) != 0;
          const double m = std::floor(g.uniform(0, 4));  // 0..3 steps in from +-1
          const double grid = positive ? 1.0 - (m + 1) * grid_step : -1.0 + m * grid_step;
          x[i] = std::nextafter(grid, 2.0);
          if (positive && x == (side == 0 ? r.a : r.b) && P[i] < 0 && P[i] > -1) P[i] = std::nextafter(P[i], -2.0);
        }
    }
  }
  switch (g.below(3)) {
    case 0: r.p = g.uniform(-4, 4); break;
    case 1: r.p = near_zero_offset(r, f, g); break;
    default: {
      const double grid = std::ldexp(std::floor(std::ldexp(g.uniform(-4, 4), f.z)), -f.z);
      const std::uint64_t step = g.below(3);
      r.p = step == 0 ? grid : std::nextafter(grid, step == 1 ? 8.0 : -8.0);
    }
  }
  return r;
}

namespace {

template <class SampleOf>
BoundStats run_sharded(const BoundConfig& config, std::uint64_t total, std::uint64_t first_index, SampleOf&& sample_of) {
  const BoundContext ctx = make_context(config.bits, orientation_set(config.k).r_max());
  if (config.shard_count == 0 || config.shard_index >= config.shard_count)
    throw InputError(fmt::format("shard {}/{}: expected 0 <= i < N", config.shard_index, config.shard_count));
  // Global indices g = first_index + j, j < total, with g % shard_count == shard_index.
  const std::uint64_t N = config.shard_count;
  const std::uint64_t first_j = (config.shard_index + N - first_index % N) % N;
  const std::uint64_t count = first_j < total ? (total - first_j + N - 1) / N : 0;
  tbb::combinable<BoundStats> partial;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, 256), [&](const auto& range) {
    BoundStats& local = partial.local();
    for (std::uint64_t t = range.begin(); t != range.end(); ++t) {
      const std::uint64_t j = first_j + t * N;
      check_sample(sample_of(j, first_index + j), ctx, local);
    }
    if (config.progress) config.progress->fetch_add(range.size(), std::memory_order_relaxed);
  });
  BoundStats out;
  partial.combine_each([&](const BoundStats& s) { out.merge(s); });
  return out;
}

}  // namespace

BoundStats check_random_samples(const BoundConfig& config, std::uint64_t samples) {
  const OrientationSet& set = orientation_set(config.k);
  return run_sharded(config, samples, 0, [&](std::uint64_t, std::uint64_t index) {
    return random_bound_sample(set, config.bits, config.seed, index);
  });
}

BoundStats check_recorded_samples(const BoundConfig& config, std::span<const RealOperands> vectors,
                                  std::uint64_t first_index) {
  return run_sharded(config, vectors.size(), first_index, [&](std::uint64_t j, std::uint64_t) { return vectors[j]; });
}

// ---- reports -------------------------------------------------------------------------------

namespace {

nlohmann::json stats_to_json(const BoundStats& s) {
  return {{"samples", s.samples},
          {"unclamped", s.unclamped},
          {"clamped", s.clamped},
          {"false_negatives", s.false_negatives},
          {"clamp_verdict_failures", s.clamp_verdict_failures},
          {"clamped_bound_violations", s.clamped_bound_violations},
          {"negative_errors", s.negative_errors},
          {"paper_bound_violations", s.paper_bound_violations},
          {"tight_bound_violations", s.tight_bound_violations},
          {"exact_separated", s.exact_separated},
          {"fixed_separated", s.fixed_separated},
          {"max_ratio_paper", s.max_ratio_paper},
          {"max_ratio_tight", s.max_ratio_tight},
          {"histogram_paper", s.histogram_paper},
          {"histogram_tight", s.histogram_tight}};
}

BoundStats stats_from_json(const nlohmann::json& j) {
  BoundStats s;
  s.samples = j.at("samples").get<std::uint64_t>();
  s.unclamped = j.at("unclamped").get<std::uint64_t>();
  s.clamped = j.at("clamped").get<std::uint64_t>();
  s.false_negatives = j.at("false_negatives").get<std::uint64_t>();
  s.clamp_verdict_failures = j.at("clamp_verdict_failures").get<std::uint64_t>();
  s.clamped_bound_violations = j.at("clamped_bound_violations").get<std::uint64_t>();
  s.negative_errors = j.at("negative_errors").get<std::uint64_t>();
  s.paper_bound_violations = j.at("paper_bound_violations").get<std::uint64_t>();
  s.tight_bound_violations = j.at("tight_bound_violations").get<std::uint64_t>();
  s.exact_separated = j.at("exact_separated").get<std::uint64_t>();
  s.fixed_separated = j.at("fixed_separated").get<std::uint64_t>();
  s.max_ratio_paper = j.at("max_ratio_paper").get<double>();
  s.max_ratio_tight = j.at("max_ratio_tight").get<double>();
  s.histogram_paper = j.at("histogram_paper").get<std::array<std::uint64_t, kBoundHistogramBins>>();
  s.histogram_tight = j.at("histogram_tight").get<std::array<std::uint64_t, kBoundHistogramBins>>();
  return s;
}

}  // namespace

std::string bound_report_json(const BoundReport& r) {
  nlohmann::json j = {{"format", "kdop verify-bound report 1"},
                      {"bits", {{"b", r.bits.b}, {"c", r.bits.c}, {"z", r.bits.z}}},
                      {"k", r.k},
                      {"r_max", r.r_max},
                      {"paper_bound", r.paper_bound},
                      {"tight_bound", r.tight_bound},
                      {"seed", r.seed},
                      {"random_samples", r.random_samples},
                      {"sources", r.sources},
                      {"shard_count", r.shard_count},
                      {"shards", r.shards},
                      {"random", stats_to_json(r.random)},
                      {"recorded", stats_to_json(r.recorded)},
                      {"passed", r.passed()},
                      {"seconds", r.seconds}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // paths need not be UTF-8
}

BoundReport parse_bound_report(const std::string& text, const std::string& name) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (j.at("format") != "kdop verify-bound report 1") throw InputError(fmt::format("{}: not a verify-bound report", name));
    BoundReport r;
    r.bits = {j.at("bits").at("b").get<int>(), j.at("bits").at("c").get<int>(), j.at("bits").at("z").get<int>()};
    r.k = j.at("k").get<int>();
    r.r_max = j.at("r_max").get<double>();
    r.paper_bound = j.at("paper_bound").get<double>();
    r.tight_bound = j.at("tight_bound").get<double>();
    r.seed = j.at("seed").get<std::uint64_t>();
    r.random_samples = j.at("random_samples").get<std::uint64_t>();
    r.sources = j.at("sources").get<std::vector<std::string>>();
    r.shard_count = j.at("shard_count").get<std::uint32_t>();
    r.shards = j.at("shards").get<std::vector<std::uint32_t>>();
    r.random = stats_from_json(j.at("random"));
    r.recorded = stats_from_json(j.at("recorded"));
    r.seconds = j.at("seconds").get<double>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: expected a verify-bound JSON report ({})", name, e.what()));
  }
}

void write_bound_report(const std::string& path, const BoundReport& report) {
  write_whole_file(path, bound_report_json(report));
}

BoundReport load_bound_report(const std::string& path) {
  return parse_bound_report(read_whole_file(path, "verify-bound report"), path);
}

BoundReport merge_bound_reports(const std::vector<BoundReport>& reports) {
  if (reports.empty()) throw InputError("merge: no reports given");
  BoundReport out = reports.front();
  out.random = {};
  out.recorded = {};
  out.shards.clear();
  out.seconds = 0;
  std::set<std::uint32_t> seen;
  for (const BoundReport& r : reports) {
    const bool same = r.bits.b == out.bits.b && r.bits.c == out.bits.c && r.bits.z == out.bits.z && r.k == out.k &&
                      r.seed == out.seed && r.random_samples == out.random_samples && r.sources == out.sources &&
                      r.shard_count == out.shard_count;
    if (!same)
      throw InputError("merge: reports differ in bits, k, seed, samples, sources or shard count (not shards of one run)");
    for (std::uint32_t s : r.shards)
      if (!seen.insert(s).second) throw InputError(fmt::format("merge: shard {} appears twice", s));
    out.random.merge(r.random);
    out.recorded.merge(r.recorded);
    out.seconds += r.seconds;
  }
  out.shards.assign(seen.begin(), seen.end());
  return out;
}

}  // namespace kdopcd
