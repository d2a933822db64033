// The root pseudo-vertices and their projection (root_bound.hpp); the projection in SIMD lanes,
// compiled once per instruction set by Highway's foreach_target, as sat_float_axes.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "root_bound.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kdopcd/root_bound.hpp"

HWY_BEFORE_NAMESPACE();
namespace kdopcd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// min and max of ux x + uy y + uz z over `count` entries (a multiple of the lane count: the
// padding copies the first vertex, so it changes neither). Fused or not, each dot product is
// within a few ulps of its exact value, which the callers' margins allow for.
void ProjectPseudoVerticesImpl(const double* x, const double* y, const double* z, std::size_t count, double ux,
                               double uy, double uz, double* low, double* high) {
  const hn::ScalableTag<double> d;
  const auto vx = hn::Set(d, ux), vy = hn::Set(d, uy), vz = hn::Set(d, uz);
  auto lo = hn::Set(d, std::numeric_limits<double>::infinity());
  auto hi = hn::Neg(lo);
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    const auto dot = hn::MulAdd(hn::LoadU(d, z + i), vz, hn::MulAdd(hn::LoadU(d, y + i), vy, hn::Mul(hn::LoadU(d, x + i), vx)));
    lo = hn::Min(lo, dot);
    hi = hn::Max(hi, dot);
  }
  *low = hn::GetLane(hn::MinOfLanes(d, lo));
  *high = hn::GetLane(hn::MaxOfLanes(d, hi));
}

}  // namespace HWY_NAMESPACE
}  // namespace kdopcd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kdopcd {

HWY_EXPORT(ProjectPseudoVerticesImpl);

RootPseudoVertices make_root_pseudo_vertices(const OrientationSet& set, std::span<const double> coefficients) {
  std::vector<Vec3> points;
  for (const std::array<int, 3>& t : set.vertex_triples()) {
    // The point on the triple's three planes d_j . v = coefficients[j]: N v = a with N's rows
    // the directions, so v = N^-1 a = (N^-T)^T a.
    Eigen::Matrix3d rows;
    Vec3 a;
    for (int m = 0; m < 3; ++m) {
      rows.row(m) = set.direction(t[std::size_t(m)]);
      a[m] = coefficients[std::size_t(t[std::size_t(m)])];
    }
    const Vec3 v = rows.inverse() * a;
    if (std::find(points.begin(), points.end(), v) == points.end()) points.push_back(v);
  }
  RootPseudoVertices out;
  const std::size_t pad = RootPseudoVertices::kRootVertexPadding;
  const std::size_t padded = (points.size() + pad - 1) / pad * pad;
  for (std::size_t i = 0; i < padded; ++i) {
    const Vec3& v = points[i < points.size() ? i : 0];
    out.x.push_back(v.x());
    out.y.push_back(v.y());
    out.z.push_back(v.z());
    out.magnitude = std::max(out.magnitude, v.cwiseAbs().sum());
  }
  return out;
}

ProjectionRange project_pseudo_vertices(const RootPseudoVertices& vertices, const Vec3& u) {
  ProjectionRange r;
  HWY_DYNAMIC_DISPATCH(ProjectPseudoVerticesImpl)
  (vertices.x.data(), vertices.y.data(), vertices.z.data(), vertices.x.size(), u.x(), u.y(), u.z(), &r.low, &r.high);
  return r;
}

}  // namespace kdopcd
#endif  // HWY_ONCE
