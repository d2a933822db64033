// The cloth generator's signed distance field (signed_distance_grid.hpp).
#include "kdopcd/ccd/signed_distance_grid.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace kdopcd::ccd {

Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denom = va + vb + vc;
  if (!(std::fabs(denom) > 0)) return a;  // a degenerate triangle: its first corner will do
  const double v = vb / denom, w = vc / denom;
  return a + ab * v + ac * w;
}

namespace {

double triangle_distance(const Mesh& mesh, std::int32_t t, const Vec3& p) {
  return (p - closest_point_on_triangle(p, mesh.corner(t, 0), mesh.corner(t, 1), mesh.corner(t, 2))).norm();
}

}  // namespace

SignedDistanceGrid::SignedDistanceGrid(const Mesh& mesh, int cells_along_longest, int margin_cells)
    : margin_cells_(margin_cells) {
  if (mesh.triangles.empty()) throw std::invalid_argument("SignedDistanceGrid: a mesh without triangles");
  Vec3 lo = mesh.vertices.front(), hi = lo;
  for (const Vec3& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  cell_ = (hi - lo).maxCoeff() / cells_along_longest;
  if (!(cell_ > 0)) cell_ = 1;
  origin_ = lo - Vec3::Constant(margin_cells * cell_);
  for (int a = 0; a < 3; ++a) n_[a] = int(std::ceil((hi[a] - lo[a]) / cell_)) + 2 * margin_cells + 1;
  const std::size_t total = std::size_t(n_[0]) * n_[1] * n_[2];
  auto point = [&](int i, int j, int k) -> Vec3 { return origin_ + cell_ * Vec3(i, j, k); };

  // 1. Exact distances in a band of two cells around each triangle (in triangle order, so ties
  // keep the first triangle: the result does not depend on threads).
  std::vector<double> distance(total, std::numeric_limits<double>::infinity());
  std::vector<std::int32_t> closest(total, -1);
  auto cell_range = [&](double from, double to, int axis, int& first, int& last) {
    first = std::max(0, int(std::floor((from - origin_[axis]) / cell_)) - 2);
    last = std::min(n_[axis] - 1, int(std::ceil((to - origin_[axis]) / cell_)) + 2);
  };
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const Vec3 a = mesh.corner(t, 0), b = mesh.corner(t, 1), c = mesh.corner(t, 2);
    const Vec3 tlo = a.cwiseMin(b).cwiseMin(c), thi = a.cwiseMax(b).cwiseMax(c);
    int r[3][2];
    for (int axis = 0; axis < 3; ++axis) cell_range(tlo[axis], thi[axis], axis, r[axis][0], r[axis][1]);
    for (int k = r[2][0]; k <= r[2][1]; ++k)
      for (int j = r[1][0]; j <= r[1][1]; ++j)
        for (int i = r[0][0]; i <= r[0][1]; ++i) {
          const std::size_t at = index(i, j, k);
          const double d = (point(i, j, k) - closest_point_on_triangle(point(i, j, k), a, b, c)).norm();
          if (d < distance[at]) {
            distance[at] = d;
            closest[at] = std::int32_t(t);
          }
        }
  }
  // 2. Fast sweeping: each point tries its upwind face neighbours' closest triangles.
  for (int sweep = 0; sweep < 8; ++sweep) {
    const int di = sweep & 1 ? -1 : 1, dj = sweep & 2 ? -1 : 1, dk = sweep & 4 ? -1 : 1;
    for (int k = dk > 0 ? 0 : n_[2] - 1; k >= 0 && k < n_[2]; k += dk)
      for (int j = dj > 0 ? 0 : n_[1] - 1; j >= 0 && j < n_[1]; j += dj)
        for (int i = di > 0 ? 0 : n_[0] - 1; i >= 0 && i < n_[0]; i += di) {
          const std::size_t at = index(i, j, k);
          const int ni[3] = {i - di, i, i}, nj[3] = {j, j - dj, j}, nk[3] = {k, k, k - dk};
          for (int n = 0; n < 3; ++n) {
            if (ni[n] < 0 || ni[n] >= n_[0] || nj[n] < 0 || nj[n] >= n_[1] || nk[n] < 0 || nk[n] >= n_[2]) continue;
            const std::int32_t t = closest[index(ni[n], nj[n], nk[n])];
            if (t < 0 || t == closest[at]) continue;
            const double d = triangle_distance(mesh, t, point(i, j, k));
            if (d < distance[at]) {
              distance[at] = d;
              closest[at] = t;
            }
          }
        }
  }
  // 3. Sign: ray parity along each axis, majority of the three.
  std::vector<std::uint8_t> inside_votes(total, 0);
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;  // the column's two fixed coordinates
    std::vector<std::vector<double>> hits(std::size_t(n_[u]) * n_[v]);
    // The edge function of the edge between vertices i and j at (pu, pv), computed from the lower
    // index, so the two triangles sharing an edge get exactly opposite values.
    auto edge = [&](std::uint32_t i, std::uint32_t j, double pu, double pv) {
      const bool flip = i > j;
      const Vec3& p = mesh.vertices[flip ? j : i];
      const Vec3& q = mesh.vertices[flip ? i : j];
      const double e = (q[u] - p[u]) * (pv - p[v]) - (q[v] - p[v]) * (pu - p[u]);
      return flip ? -e : e;
    };
    // A ray through an edge or a corner counts for exactly one of the triangles around it (those
    // of one orientation in the projection): an edge on which the ray lies belongs to the
    // triangle for which, taken counter-clockwise, it runs downwards in v (or leftwards in u
    // when level) -- the top-left rule of rasterizers.
    auto owns = [&](const Vec3& from, const Vec3& to) {
      return to[v] < from[v] || (to[v] == from[v] && to[u] > from[u]);
    };
    for (const TriangleIndices& tri : mesh.triangles) {
      const Vec3 &a = mesh.vertices[tri[0]], &b = mesh.vertices[tri[1]], &c = mesh.vertices[tri[2]];
      const double area = (b[u] - a[u]) * (c[v] - a[v]) - (b[v] - a[v]) * (c[u] - a[u]);
      if (area == 0) continue;  // edge-on: the rays pass its neighbours
      const double orientation = area > 0 ? 1 : -1;
      int ru0, ru1, rv0, rv1;
      cell_range(std::min({a[u], b[u], c[u]}), std::max({a[u], b[u], c[u]}), u, ru0, ru1);
      cell_range(std::min({a[v], b[v], c[v]}), std::max({a[v], b[v], c[v]}), v, rv0, rv1);
      const Vec3* corners[3] = {&a, &b, &c};
      for (int iv = rv0; iv <= rv1; ++iv)
        for (int iu = ru0; iu <= ru1; ++iu) {
          const double pu = origin_[u] + cell_ * iu, pv = origin_[v] + cell_ * iv;
          const double e[3] = {edge(tri[0], tri[1], pu, pv), edge(tri[1], tri[2], pu, pv), edge(tri[2], tri[0], pu, pv)};
          bool inside = true;
          for (int k = 0; k < 3 && inside; ++k) {
            const double side = orientation * e[k];
            const Vec3 &from = *corners[k], &to = *corners[(k + 1) % 3];
            inside = side > 0 || (side == 0 && (orientation > 0 ? owns(from, to) : owns(to, from)));
          }
          if (!inside) continue;
          const double sum = e[0] + e[1] + e[2];  // barycentric weights: e[1] for a, e[2] for b, e[0] for c
          if (sum == 0) continue;
          hits[std::size_t(iv) * n_[u] + iu].push_back((e[1] * a[axis] + e[2] * b[axis] + e[0] * c[axis]) / sum);
        }
    }
    tbb::parallel_for(std::size_t(0), hits.size(), [&](std::size_t column) {
      auto& h = hits[column];
      if (h.empty()) return;
      std::sort(h.begin(), h.end());
      const int iu = int(column % n_[u]), iv = int(column / n_[u]);
      std::size_t crossed = 0;
      for (int ia = 0; ia < n_[axis]; ++ia) {
        const double pa = origin_[axis] + cell_ * ia;
        while (crossed < h.size() && h[crossed] < pa) ++crossed;
        if (crossed % 2 == 1) {
          int ijk[3];
          ijk[axis] = ia, ijk[u] = iu, ijk[v] = iv;
          ++inside_votes[index(ijk[0], ijk[1], ijk[2])];  // each column owns its points
        }
      }
    });
  }
  values_.resize(total);
  for (std::size_t at = 0; at < total; ++at) values_[at] = inside_votes[at] >= 2 ? -distance[at] : distance[at];
}

double SignedDistanceGrid::distance(const Vec3& p) const {
  const Vec3 g = (p - origin_) / cell_;
  const Vec3 top(n_[0] - 1, n_[1] - 1, n_[2] - 1);
  if ((g.array() < 0).any() || (g.array() > top.array()).any()) {
    // Outside the grid: the distance to the grid's box plus its margin, a lower bound of the
    // distance to the mesh (inside the mesh's box, margin cells in from the grid's faces).
    const Vec3 outside = (-g).cwiseMax(g - top).cwiseMax(Vec3::Zero());
    return (outside.norm() + margin_cells_) * cell_;
  }
  const int i = std::min(int(g.x()), n_[0] - 2), j = std::min(int(g.y()), n_[1] - 2), k = std::min(int(g.z()), n_[2] - 2);
  const double fx = g.x() - i, fy = g.y() - j, fz = g.z() - k;
  auto lerp = [](double a, double b, double t) { return a + (b - a) * t; };
  const double c00 = lerp(values_[index(i, j, k)], values_[index(i + 1, j, k)], fx);
  const double c10 = lerp(values_[index(i, j + 1, k)], values_[index(i + 1, j + 1, k)], fx);
  const double c01 = lerp(values_[index(i, j, k + 1)], values_[index(i + 1, j, k + 1)], fx);
  const double c11 = lerp(values_[index(i, j + 1, k + 1)], values_[index(i + 1, j + 1, k + 1)], fx);
  return lerp(lerp(c00, c10, fy), lerp(c01, c11, fy), fz);
}

Vec3 SignedDistanceGrid::normal(const Vec3& p) const {
  const Vec3 g = (p - origin_) / cell_;
  const Vec3 top(n_[0] - 1, n_[1] - 1, n_[2] - 1);
  if ((g.array() < 0).any() || (g.array() > top.array()).any()) {
    const Vec3 away = (g - g.cwiseMax(Vec3::Zero()).cwiseMin(top));
    return away.norm() > 0 ? away.normalized() : Vec3(0, 1, 0);
  }
  const int i = std::min(int(g.x()), n_[0] - 2), j = std::min(int(g.y()), n_[1] - 2), k = std::min(int(g.z()), n_[2] - 2);
  const double fx = g.x() - i, fy = g.y() - j, fz = g.z() - k;
  double v[2][2][2];
  for (int dz = 0; dz < 2; ++dz)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) v[dz][dy][dx] = values_[index(i + dx, j + dy, k + dz)];
  // The trilinear interpolant's partial derivatives (in cells; the scale does not matter).
  Vec3 gradient = Vec3::Zero();
  for (int dz = 0; dz < 2; ++dz)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {
        const double wx = dx ? fx : 1 - fx, wy = dy ? fy : 1 - fy, wz = dz ? fz : 1 - fz;
        const double value = v[dz][dy][dx];
        gradient.x() += value * (dx ? 1 : -1) * wy * wz;
        gradient.y() += value * (dy ? 1 : -1) * wx * wz;
        gradient.z() += value * (dz ? 1 : -1) * wx * wy;
      }
  const double length = gradient.norm();
  return length > 0 ? Vec3(gradient / length) : Vec3(0, 1, 0);
}

}  // namespace kdopcd::ccd
