#include "kdopcd/dop_tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "kdopcd/error.hpp"

namespace kdopcd {

namespace {

// max_x (fl(D_i . x) + a bound on its rounding), before the margin: the part of a DOP that
// merges exactly (a parent's value is the max of its children's).
void raw_projection_max(const OrientationSet& set, std::span<const Vec3> points, std::span<double> out) {
  const int k = set.k();
  constexpr double eps = std::numeric_limits<double>::epsilon();
  std::fill(out.begin(), out.end(), -std::numeric_limits<double>::infinity());
  for (const Vec3& x : points) {
    for (int i = 0; i < k; ++i) {
      const Vec3& d = set.direction(i);
      // fl(d . x) is within 3 eps * sum |d_j x_j| of the real value (Higham, gamma_3); add a
      // slightly larger margin so the coefficient bounds the real projection from above.
      const double s = d.dot(x);
      const double rounding = 4 * eps * (std::abs(d.x() * x.x()) + std::abs(d.y() * x.y()) + std::abs(d.z() * x.z()));
      out[i] = std::max(out[i], s + rounding);
    }
  }
}

// The margin, then one more ulp outward for the rounding of c + margin itself.
void finish_coefficients(std::span<double> out, double margin) {
  for (double& c : out) c = std::nextafter(c + margin, std::numeric_limits<double>::infinity());
}

}  // namespace

void dop_of_points(const OrientationSet& set, std::span<const Vec3> points, std::span<double> out, double margin) {
  raw_projection_max(set, points, out);
  finish_coefficients(out, margin);
}

DopTree::DopTree(const Mesh& mesh, int k) : k_(k), set_(&orientation_set(k)), mesh_(&mesh) {
  if (mesh.triangles.empty()) throw InputError(fmt::format("{}: empty mesh (no triangles)", mesh.name));
  double largest = 0;
  for (const Vec3& v : mesh.vertices) largest = std::max(largest, v.cwiseAbs().maxCoeff());
  margin_ = std::ldexp(largest, -40);
  centroids_.resize(mesh.triangle_count());
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    centroids_[t] = (mesh.corner(t, 0) + mesh.corner(t, 1) + mesh.corner(t, 2)) / 3.0;
  std::vector<std::uint32_t> tris(mesh.triangle_count());
  for (std::size_t t = 0; t < tris.size(); ++t) tris[t] = std::uint32_t(t);
  nodes_.reserve(2 * tris.size());
  coeffs_.reserve(2 * tris.size() * k);
  build(tris, 0, tris.size(), 0);
  finish_coefficients(coeffs_, margin_);  // build() leaves the raw maxima (they merge exactly)
  centroids_.clear();
  centroids_.shrink_to_fit();
}

int DopTree::build(std::vector<std::uint32_t>& tris, std::size_t begin, std::size_t end, int depth) {
  const int index = int(nodes_.size());
  nodes_.push_back(DopNode{});
  nodes_[index].depth = depth;
  max_depth_ = std::max(max_depth_, depth);
  coeffs_.resize(coeffs_.size() + k_);

  auto raw = [&](int node) { return std::span<double>(coeffs_.data() + std::size_t(node) * k_, std::size_t(k_)); };
  if (end - begin == 1) {
    nodes_[index].triangle = int(tris[begin]);
    const std::array<Vec3, 3> corners{mesh_->corner(tris[begin], 0), mesh_->corner(tris[begin], 1),
                                      mesh_->corner(tris[begin], 2)};
    raw_projection_max(*set_, corners, raw(index));
    return index;
  }
  // Direction of largest centroid spread among the k/2 slab directions.
  int best_axis = 0;
  double best_spread = -1;
  for (int i = 0; i < k_ / 2; ++i) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t t = begin; t < end; ++t) {
      const double s = set_->direction(i).dot(centroids_[tris[t]]);
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    if (hi - lo > best_spread) best_spread = hi - lo, best_axis = i;
  }
  const Vec3& dir = set_->direction(best_axis);
  const std::size_t mid = begin + (end - begin) / 2;
  std::nth_element(tris.begin() + begin, tris.begin() + mid, tris.begin() + end, [&](std::uint32_t a, std::uint32_t b) {
    const double sa = dir.dot(centroids_[a]), sb = dir.dot(centroids_[b]);
    return sa < sb || (sa == sb && a < b);
  });
  const int left = build(tris, begin, mid, depth + 1);
  const int right = build(tris, mid, end, depth + 1);
  nodes_[index].left = left;
  nodes_[index].right = right;
  // The max over the union of the children's points: the same value as recomputing it.
  for (int i = 0; i < k_; ++i) raw(index)[i] = std::max(raw(left)[i], raw(right)[i]);
  return index;
}

double DopTree::largest_coefficient() const {
  double m = 0;
  for (double c : coefficients(0)) m = std::max(m, std::abs(c));
  return m;
}

}  // namespace kdopcd
