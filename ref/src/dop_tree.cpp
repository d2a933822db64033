#include "kdopcd/dop_tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "kdopcd/error.hpp"
#include "wide_tree.hpp"

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

TreeBuild parse_tree_build(const std::string& name) {
  if (name == "median") return TreeBuild::Median;
  if (name == "sah") return TreeBuild::Sah;
  throw InputError(fmt::format("unknown tree build '{}' (expected median or sah)", name));
}

const char* to_string(TreeBuild build) { return build == TreeBuild::Sah ? "sah" : "median"; }

DopTree::DopTree(const Mesh& mesh, int k, TreeBuild build_rule)
    : k_(k), set_(&orientation_set(k)), mesh_(&mesh), build_(build_rule) {
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
  if (build_ == TreeBuild::Sah) {
    triangle_dops_.resize(mesh.triangle_count() * std::size_t(k));
    for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
      const std::array<Vec3, 3> corners{mesh.corner(t, 0), mesh.corner(t, 1), mesh.corner(t, 2)};
      raw_projection_max(*set_, corners, std::span<double>(triangle_dops_.data() + t * std::size_t(k), std::size_t(k)));
    }
  }
  nodes_.reserve(2 * tris.size());
  coeffs_.reserve(2 * tris.size() * k);
  build(tris, 0, tris.size(), 0);
  finish_coefficients(coeffs_, margin_);  // build() leaves the raw maxima (they merge exactly)
  centroids_.clear();
  centroids_.shrink_to_fit();
  triangle_dops_.clear();
  triangle_dops_.shrink_to_fit();
  sizes_.resize(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    double size = 0;
    for (int d = 0; d < k / 2; ++d) size += coeffs_[i * std::size_t(k) + std::size_t(d)] + coeffs_[i * std::size_t(k) + std::size_t(d + k / 2)];
    sizes_[i] = size;
  }
  root_vertices_ = make_root_pseudo_vertices(*set_, coefficients(0));

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
  centred_smallest_ = root[0];
  for (double c : root) {
    centred_largest_ = std::max(centred_largest_, std::abs(c));
    centred_smallest_ = std::min(centred_smallest_, c);
  }
  // The SAH tree is the software query's, whose wide descent needs the wide view: made with the
  // tree, so that the first query does not pay for it (about 1 % of the build). A median tree
  // (the hardware's) makes it on its first wide query, if it has one.
  if (build_ == TreeBuild::Sah) detail::WideTree::of(*this);
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
  if (build_ == TreeBuild::Sah) {
    if (const std::size_t split = sah_split(tris, begin, end); split != 0) {
      const int left = build(tris, begin, split, depth + 1);
      const int right = build(tris, split, end, depth + 1);
      nodes_[index].left = left;
      nodes_[index].right = right;
      for (int i = 0; i < k_; ++i) raw(index)[i] = std::max(raw(left)[i], raw(right)[i]);
      return index;
    }
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

std::size_t DopTree::sah_split(std::vector<std::uint32_t>& tris, std::size_t begin, std::size_t end) {
  constexpr int kBins = 16;
  const int half = k_ / 2;
  const std::size_t n = end - begin;
  auto width_sum = [&](const double* dop) {
    double sum = 0;
    for (int d = 0; d < half; ++d) sum += dop[d] + dop[d + half];
    return sum;
  };
  double best_cost = std::numeric_limits<double>::infinity();
  int best_direction = -1, best_bin = 0;
  double best_lo = 0, best_scale = 0;
  std::vector<double> bin_dop(std::size_t(kBins) * std::size_t(k_)), sweep(std::size_t(kBins) * std::size_t(k_));
  std::vector<std::size_t> bin_count(kBins);
  for (int d = 0; d < half; ++d) {
    const Vec3& dir = set_->direction(d);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t t = begin; t < end; ++t) {
      const double p = dir.dot(centroids_[tris[t]]);
      lo = std::min(lo, p);
      hi = std::max(hi, p);
    }
    if (!(hi > lo)) continue;
    const double scale = kBins / (hi - lo);
    std::fill(bin_dop.begin(), bin_dop.end(), -std::numeric_limits<double>::infinity());
    std::fill(bin_count.begin(), bin_count.end(), 0);
    for (std::size_t t = begin; t < end; ++t) {
      const int b = std::min(kBins - 1, int((dir.dot(centroids_[tris[t]]) - lo) * scale));
      ++bin_count[std::size_t(b)];
      const double* dop = triangle_dops_.data() + std::size_t(tris[t]) * std::size_t(k_);
      double* acc = bin_dop.data() + std::size_t(b) * std::size_t(k_);
      for (int i = 0; i < k_; ++i) acc[i] = std::max(acc[i], dop[i]);
    }
    // sweep[b]: DOP of bins b .. kBins-1 (the right side of a split before bin b).
    std::vector<double> right(std::size_t(k_), -std::numeric_limits<double>::infinity());
    std::vector<std::size_t> right_count(kBins + 1, 0);
    for (int b = kBins - 1; b >= 0; --b) {
      for (int i = 0; i < k_; ++i) right[std::size_t(i)] = std::max(right[std::size_t(i)], bin_dop[std::size_t(b) * std::size_t(k_) + std::size_t(i)]);
      std::copy(right.begin(), right.end(), sweep.begin() + std::ptrdiff_t(std::size_t(b) * std::size_t(k_)));
      right_count[std::size_t(b)] = right_count[std::size_t(b) + 1] + bin_count[std::size_t(b)];
    }
    std::vector<double> left(std::size_t(k_), -std::numeric_limits<double>::infinity());
    std::size_t left_count = 0;
    for (int b = 1; b < kBins; ++b) {  // split before bin b
      for (int i = 0; i < k_; ++i) left[std::size_t(i)] = std::max(left[std::size_t(i)], bin_dop[std::size_t(b - 1) * std::size_t(k_) + std::size_t(i)]);
      left_count += bin_count[std::size_t(b - 1)];
      if (left_count == 0 || right_count[std::size_t(b)] == 0) continue;
      const double cost = width_sum(left.data()) * double(left_count) +
                          width_sum(sweep.data() + std::size_t(b) * std::size_t(k_)) * double(right_count[std::size_t(b)]);
      if (cost < best_cost) best_cost = cost, best_direction = d, best_bin = b, best_lo = lo, best_scale = scale;
    }
  }
  if (best_direction < 0 || n < 4) return 0;
  const Vec3& dir = set_->direction(best_direction);
  auto middle = std::partition(tris.begin() + std::ptrdiff_t(begin), tris.begin() + std::ptrdiff_t(end), [&](std::uint32_t t) {
    return std::min(kBins - 1, int((dir.dot(centroids_[t]) - best_lo) * best_scale)) < best_bin;
  });
  const std::size_t split = std::size_t(middle - tris.begin());
  return split > begin && split < end ? split : 0;
}

double DopTree::largest_coefficient() const {
  double m = 0;
  for (double c : coefficients(0)) m = std::max(m, std::abs(c));
  return m;
}

}  // namespace kdopcd
