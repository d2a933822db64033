#include "kdopcd/fixed_precision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kdopcd/bound_check.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tri_fixed.hpp"

namespace kdopcd {

namespace {

double sat_bound(double s, double r_max, const FixedParams& f) { return s * fixed_error_bound(f, r_max); }

}  // namespace

double shortest_edge(const Mesh& mesh) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    for (int i = 0; i < 3; ++i) {
      const double e = (mesh.corner(t, (i + 1) % 3) - mesh.corner(t, i)).norm();
      if (e > 0) best = std::min(best, e);
    }
  return std::isfinite(best) ? best : 0.0;
}

double median_edge(const Mesh& mesh) {
  std::vector<double> edges;
  edges.reserve(3 * mesh.triangle_count());
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    for (int i = 0; i < 3; ++i) edges.push_back((mesh.corner(t, (i + 1) % 3) - mesh.corner(t, i)).norm());
  if (edges.empty()) return 0;
  const auto mid = edges.begin() + std::ptrdiff_t(edges.size() / 2);
  std::nth_element(edges.begin(), mid, edges.end());
  return *mid;
}

FixedPrecision fixed_precision(const DopTree& first, const DopTree& second, const FixedParams& bits,
                               const TriangleFixedParams& tri) {
  validate_fixed_params(bits);
  check_triangle_params(tri);
  FixedPrecision r;
  r.scale = scene_scale(first, second);
  const double e1 = shortest_edge(first.mesh()), e2 = shortest_edge(second.mesh());
  r.shortest_edge = e1 > 0 && e2 > 0 ? std::min(e1, e2) : std::max(e1, e2);
  r.median_edge = std::min(median_edge(first.mesh()), median_edge(second.mesh()));
  r.delta = triangle_delta(r.scale, tri);
  const double r_max = first.orientations().r_max();
  r.sat_bound = sat_bound(r.scale, r_max, bits);
  if (!(r.shortest_edge > 0)) return r;  // every triangle degenerate to a point: nothing to compare with

  const double sat_limit = kSatEdgeFraction * r.median_edge, delta_limit = kDeltaEdgeFraction * r.shortest_edge;
  for (int n = kMinFixedBits; n <= kMaxFixedBits && r.suggested_bits == 0; ++n)
    if (sat_bound(r.scale, r_max, FixedParams{n, n, n}) <= sat_limit) r.suggested_bits = n;
  for (int n = 1; 2 * n <= kMaxTriangleFixedBits && r.suggested_tri_bits == 0; ++n)
    if (triangle_delta(r.scale, TriangleFixedParams{n, n}) <= delta_limit) r.suggested_tri_bits = n;
  r.sat_too_coarse = r.sat_bound > sat_limit;
  r.delta_too_large = r.delta > delta_limit;

  if (r.sat_too_coarse)
    r.warnings.push_back(fmt::format(
        "fixed SAT at b,c,z = {},{},{} resolves {:.3g} (its error bound), more than 1/{:g} of the median triangle edge "
        "{:.3g} of the smaller object (scene scale s = {:.6g}, ratio {:.3g}): the DOP test cannot separate its "
        "triangles and tests many more pairs (contacts stay correct). {}",
        bits.b, bits.c, bits.z, r.sat_bound, 1 / kSatEdgeFraction, r.median_edge, r.scale, r.scale / r.median_edge,
        r.suggested_bits ? fmt::format("Use --bits {} or more.", r.suggested_bits)
                         : fmt::format("Even --bits {} does not suffice.", kMaxFixedBits)));
  if (r.delta_too_large)
    r.warnings.push_back(fmt::format(
        "triangle unit at v = {}, m = {}: delta = {:.3g} is more than 1/{:g} of the shortest triangle edge {:.3g} "
        "(scene scale s = {:.6g}, ratio {:.3g}): contacts of triangle pairs closer than delta may differ from the "
        "exact answer. {}",
        tri.v, tri.m, r.delta, 1 / kDeltaEdgeFraction, r.shortest_edge, r.scale, r.scale / r.shortest_edge,
        r.suggested_tri_bits
            ? fmt::format("The triangle unit needs v = m = {} or more (kdop collide --tri-bits).", r.suggested_tri_bits)
            : fmt::format("Even v = m = {} does not suffice.", kMaxTriangleFixedBits / 2)));
  return r;
}

}  // namespace kdopcd
