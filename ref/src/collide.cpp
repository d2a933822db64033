#include "kdopcd/collide.hpp"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>

#include "kdopcd/error.hpp"
#include "kdopcd/sat_exact.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/tri_tri.hpp"

namespace kdopcd {

SatBackend parse_sat_backend(const std::string& name) {
  if (name == "float") return SatBackend::Float;
  if (name == "exact") return SatBackend::Exact;
  if (name == "fixed") return SatBackend::Fixed;
  throw InputError(fmt::format("unknown SAT backend '{}' (expected float, fixed or exact)", name));
}

const char* to_string(SatBackend backend) {
  switch (backend) {
    case SatBackend::Float: return "float";
    case SatBackend::Exact: return "exact";
    case SatBackend::Fixed: return "fixed";
  }
  return "?";
}

namespace {

// Tests axes in setup order, stopping at the first separating one.
template <class AxisSeparates>
PairVerdict test_axes(const SatSetup& setup, int n, AxisSeparates&& separates) {
  for (int i = 0; i < n; ++i)
    if (separates(setup.axes[i])) return {true, i + 1};
  return {false, n};
}

}  // namespace

QueryResult collide(const DopTree& first, const DopTree& second, const SatSetup& setup,
                    const std::vector<Vec3>& placed, const TraversalOptions& options, SatBackend backend,
                    const FixedParams& fixed, const TriangleTest& custom_triangle_test) {
  if (first.k() != second.k() || setup.k != first.k())
    throw std::invalid_argument("collide: trees and set-up must share k");
  const int k = first.k();
  const int half = k / 2;
  const int n = options.axes <= 0 ? k : std::min(options.axes, k);
  const Mesh& mf = first.mesh();
  const Mesh& ms = second.mesh();
  auto triangle_test = [&](int tf, int ts) {
    if (custom_triangle_test) return custom_triangle_test(std::uint32_t(tf), std::uint32_t(ts));
    const auto& s = ms.triangles[ts];
    return triangles_intersect(mf.corner(tf, 0), mf.corner(tf, 1), mf.corner(tf, 2), placed[s[0]], placed[s[1]],
                               placed[s[2]]);
  };
  auto pair_test = [&](int nf, int ns) {
    const double* b = first.coefficients(nf).data();
    const double* a = second.coefficients(ns).data();
    if (backend == SatBackend::Exact)
      return test_axes(setup, n, [&](const AxisSetup& ax) {
        return exact_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated();
      });
    return test_axes(setup, n, [&](const AxisSetup& ax) {
      return float_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated();
    });
  };
  if (backend == SatBackend::Fixed) {
    // Quantized once per query: both trees at the scene scale, and the set-up's P and p.
    const double s = scene_scale(first, second);
    const std::vector<QuantizedAxis> axes = quantize_setup(setup, s, fixed);
    const QuantizedTree qf(first, s, fixed.b), qs(second, s, fixed.b);
    auto fixed_pair_test = [&](int nf, int ns) {
      const std::int64_t* b = qf.coefficients(nf);
      const std::int64_t* a = qs.coefficients(ns);
      for (int i = 0; i < n; ++i)
        if (fixed_axis_diffs(a, b, half, axes[i], fixed).separated()) return PairVerdict{true, i + 1};
      return PairVerdict{false, n};
    };
    return traverse(first, second, options, fixed_pair_test, triangle_test);
  }
  return traverse(first, second, options, pair_test, triangle_test);
}

QueryResult collide(const DopTree& first, const DopTree& second, const Pose& pose, const TraversalOptions& options,
                    SatBackend backend, const FixedParams& fixed) {
  const SatSetup setup = make_sat_setup(first.orientations(), pose);
  return collide(first, second, setup, place_vertices(second.mesh(), pose), options, backend, fixed);
}

std::vector<ContactPair> brute_force_contacts(const Mesh& first, const Mesh& second, const Pose& pose) {
  const std::vector<Vec3> placed = place_vertices(second, pose);
  struct Box {
    Vec3 lo, hi;
  };
  auto boxes = [](const Mesh& m, const std::vector<Vec3>& v) {
    std::vector<Box> out(m.triangle_count());
    for (std::size_t t = 0; t < out.size(); ++t) {
      const auto& tri = m.triangles[t];
      out[t].lo = v[tri[0]].cwiseMin(v[tri[1]]).cwiseMin(v[tri[2]]);
      out[t].hi = v[tri[0]].cwiseMax(v[tri[1]]).cwiseMax(v[tri[2]]);
    }
    return out;
  };
  const std::vector<Box> bf = boxes(first, first.vertices), bs = boxes(second, placed);
  tbb::combinable<std::vector<ContactPair>> found;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, first.triangle_count()), [&](const auto& range) {
    auto& local = found.local();
    for (std::size_t f = range.begin(); f != range.end(); ++f) {
      for (std::size_t s = 0; s < second.triangle_count(); ++s) {
        // Comparisons of the same doubles are exact: disjoint boxes mean disjoint triangles.
        if ((bf[f].lo.array() > bs[s].hi.array()).any() || (bs[s].lo.array() > bf[f].hi.array()).any()) continue;
        const auto& t = second.triangles[s];
        if (triangles_intersect(first.corner(f, 0), first.corner(f, 1), first.corner(f, 2), placed[t[0]], placed[t[1]],
                                placed[t[2]]))
          local.push_back({std::uint32_t(f), std::uint32_t(s)});
      }
    }
  });
  std::vector<ContactPair> all;
  found.combine_each([&](const auto& v) { all.insert(all.end(), v.begin(), v.end()); });
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace kdopcd
