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

// raw_projection_max for centred points y = fl(x - c): one more eps * sum |D_j y_j| covers the
// rounding of the subtraction (|y_j - (x_j - c_j)| <= 2^-53 |x_j - c_j|), so the value bounds
// D_i . (x - c) from above.
void centred_projection_max(const OrientationSet& set, std::span<const Vec3> centred, std::span<double> out) {
  const int k = set.k();
  constexpr double eps = std::numeric_limits<double>::epsilon();
  std::fill(out.begin(), out.end(), -std::numeric_limits<double>::infinity());
  for (const Vec3& y : centred) {
    for (int i = 0; i < k; ++i) {
      const Vec3& d = set.direction(i);
      const double s = d.dot(y);
      const double rounding = 5 * eps * (std::abs(d.x() * y.x()) + std::abs(d.y() * y.y()) + std::abs(d.z() * y.z()));
      out[i] = std::max(out[i], s + rounding);
    }
  }
}

double centred_margin(std::span<const Vec3> centred) {
  double largest = 0;
  for (const Vec3& y : centred) largest = std::max(largest, y.cwiseAbs().maxCoeff());
  return std::ldexp(largest, -40);
}

// The margin, then one more ulp outward for the rounding of c + margin itself.
void finish_coefficients(std::span<double> out, double margin) {
  for (double& c : out) c = std::nextafter(c + margin, std::numeric_limits<double>::infinity());
}

}  // namespace

Vec3 object_centre(std::span<const Vec3> vertices) {
  if (vertices.empty()) return Vec3::Zero();
  Vec3 lo = vertices[0], hi = vertices[0];
  for (const Vec3& x : vertices) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  // hi - lo is the same double wherever the object is (the same real difference, rounded once).
  const Vec3 extent = hi - lo;
  const double E = extent.maxCoeff();
  if (!(E > 0) || !std::isfinite(E)) return lo;
  // G = 2^e: 2^-8 of the extent, or, for an object more than ~2^42 of its size from the origin
  // (fewer than ~10 bits of its coordinates left across it), 2^-50 of its largest |coordinate|,
  // so that lo / G stays below 2^51 and every step below is exact.
  const double far = std::max(lo.cwiseAbs().maxCoeff(), hi.cwiseAbs().maxCoeff());
  const int e = std::max(std::ilogb(E) - 8, std::ilogb(far) - 50);
  Vec3 c;
  for (int j = 0; j < 3; ++j) {
    const double cells = std::floor(std::ldexp(lo[j], -e));  // exact: lo / G scales by a power of two
    // lo - G cells in [0, G) and (lo - G cells) + extent / 2 are the same real numbers wherever
    // the object is, so their rounded doubles, and the cells added to `cells`, are too.
    const double frac = lo[j] - std::ldexp(cells, e);
    const double add = std::nearbyint(std::ldexp(frac + 0.5 * extent[j], -e));  // <= 2^8 + 1
    c[j] = std::ldexp(cells + add, e);
  }
  return c;
}

std::vector<Vec3> centred_vertices(const Mesh& mesh, const Vec3& centre) {
  std::vector<Vec3> out;
  out.reserve(mesh.vertices.size());
  for (const Vec3& x : mesh.vertices) out.push_back(x - centre);
  return out;
}

std::vector<double> centred_coefficients(const DopTree& tree) {
  const int k = tree.k();
  const Mesh& mesh = tree.mesh();
  const std::vector<Vec3> y = centred_vertices(mesh, tree.centre());
  std::vector<double> out(tree.node_count() * std::size_t(k));
  auto node = [&](std::size_t i) { return std::span<double>(out.data() + i * std::size_t(k), std::size_t(k)); };
  // Pre-order puts children after their parent: fill from the back, so children come first.
  for (std::size_t i = tree.node_count(); i-- > 0;) {
    const DopNode& n = tree.node(i);
    if (n.is_leaf()) {
      const auto& t = mesh.triangles[std::size_t(n.triangle)];
      const std::array<Vec3, 3> corners{y[t[0]], y[t[1]], y[t[2]]};
      centred_projection_max(tree.orientations(), corners, node(i));
    } else {
      for (int d = 0; d < k; ++d) node(i)[d] = std::max(node(std::size_t(n.left))[d], node(std::size_t(n.right))[d]);
    }
  }
  finish_coefficients(out, centred_margin(y));
  return out;
}

void dop_of_points(const OrientationSet& set, std::span<const Vec3> points, std::span<double> out, double margin) {
  raw_projection_max(set, points, out);
  finish_coefficients(out, margin);
}

DopTree::DopTree(const Mesh& mesh, int k) : k_(k), set_(&orientation_set(k)), mesh_(&mesh) {
  if (mesh.triangles.empty()) throw InputError(fmt::format("{}: empty mesh (no triangles)", mesh.name));
  double largest = 0;
  for (const Vec3& v : mesh.vertices) largest = std::max(largest, v.cwiseAbs().maxCoeff());
  margin_ = std::ldexp(largest, -40);
  // The split rule sees centroids in the centred frame, so the tree's structure does not depend
  // on where the file put the object (translating it exactly by a multiple of the centre's grid
  // gives the same tree); the coefficients below stay in the file's frame.
  centre_ = object_centre(mesh.vertices);
  const std::vector<Vec3> y = centred_vertices(mesh, centre_);
  centroids_.resize(mesh.triangle_count());
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const auto& tri = mesh.triangles[t];
    centroids_[t] = (y[tri[0]] + y[tri[1]] + y[tri[2]]) / 3.0;
  }
  std::vector<std::uint32_t> tris(mesh.triangle_count());
  for (std::size_t t = 0; t < tris.size(); ++t) tris[t] = std::uint32_t(t);
  nodes_.reserve(2 * tris.size());
  coeffs_.reserve(2 * tris.size() * k);
  build(tris, 0, tris.size(), 0);
  finish_coefficients(coeffs_, margin_);  // build() leaves the raw maxima (they merge exactly)
  centroids_.clear();
  centroids_.shrink_to_fit();

  // The centred frame. The root of centred_coefficients() is the max over every triangle corner,
  // i.e. over the referenced vertices, each evaluated exactly as there (max is exact).
  std::vector<char> referenced(mesh.vertices.size(), 0);
  for (const auto& t : mesh.triangles)
    for (std::uint32_t v : t) referenced[v] = 1;
  std::vector<Vec3> corners;
  corners.reserve(y.size());
  for (std::size_t v = 0; v < y.size(); ++v)
    if (referenced[v]) corners.push_back(y[v]);
  std::vector<double> root(std::size_t(k), 0.0);
  centred_projection_max(*set_, corners, root);
  finish_coefficients(root, centred_margin(y));
  for (double c : root) centred_largest_ = std::max(centred_largest_, std::abs(c));
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
