#include "kdopcd/ccd/patch_culling.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kdopcd/ccd/bernstein.hpp"

namespace kdopcd::ccd {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// The guide's directions: the coordinate axes and the cube's diagonals (in both signs, 14 in all).
constexpr double kGuideDirections[7][3] = {{1, 0, 0},  {0, 1, 0},  {0, 0, 1}, {1, 1, 1},
                                           {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};

// A vertex's motion as Bernstein polynomials of degree 1 (its positions at t = 0 and t = 1).
BVec<Ef, 1> moving(const Vec3& x0, const Vec3& x1) {
  return {{{Ef(x0.x()), Ef(x1.x())}}, {{Ef(x0.y()), Ef(x1.y())}}, {{Ef(x0.z()), Ef(x1.z())}}};
}

using Moving2 = std::array<Bern<Ef, 1>, 2>;  // a moving 2-D point: each coordinate linear in t

// The 2-D cross product (q - p) x (r - p), quadratic in t: positive where r is left of p -> q.
Bern<Ef, 2> orientation(const Moving2& p, const Moving2& q, const Moving2& r) {
  return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
}
bool one_strict_sign(const Bern<Ef, 2>& x, const Bern<Ef, 2>& y) {
  auto sign = [](const Bern<Ef, 2>& z) {
    int s = coefficient_sign(z.c[0]);
    for (int i = 1; i <= 2; ++i)
      if (coefficient_sign(z.c[i]) != s) return 0;
    return s == 1 || s == -1 ? s : 0;
  };
  const int sx = sign(x);
  return sx != 0 && sx == sign(y);
}
// (r - p) . (q - p), quadratic in t: the position of r along the direction p -> q, from p.
Bern<Ef, 2> along(const Moving2& p, const Moving2& q, const Moving2& r) {
  return (q[0] - p[0]) * (r[0] - p[0]) + (q[1] - p[1]) * (r[1] - p[1]);
}
// Segments p0 p1 and q0 q1 never meet on [0, 1]: a separating axis at every t, from those of two
// segments: one segment's ends stay strictly on one side of the other's line, or (for edges on one
// line, as along a straight outline) strictly before its start or beyond its end along it.
bool edges_apart(const Moving2& p0, const Moving2& p1, const Moving2& q0, const Moving2& q1) {
  auto line_separates = [](const Moving2& a0, const Moving2& a1, const Moving2& b0, const Moving2& b1) {
    if (one_strict_sign(orientation(a0, a1, b0), orientation(a0, a1, b1))) return true;
    // Before a0: (b - a0) . (a1 - a0) < 0 for both ends. Beyond a1: (b - a1) . (a1 - a0) > 0, i.e.
    // (b - a1) . (a0 - a1) < 0.
    const Bern<Ef, 2> before0 = along(a0, a1, b0), before1 = along(a0, a1, b1);
    if (one_strict_sign(before0, before1) && coefficient_sign(before0.c[0]) == -1) return true;
    const Bern<Ef, 2> beyond0 = along(a1, a0, b0), beyond1 = along(a1, a0, b1);
    return one_strict_sign(beyond0, beyond1) && coefficient_sign(beyond0.c[0]) == -1;
  };
  return line_separates(p0, p1, q0, q1) || line_separates(q0, q1, p0, p1);
}

}  // namespace

PatchBoundaries patch_boundaries(const Topology& topology, std::span<const PatchNode> nodes,
                                 std::span<const std::uint32_t> order) {
  const std::size_t triangle_count = topology.triangles.size();
  // twin[3 t + s]: the other triangle of the edge in slot s of triangle t, when the edge has exactly
  // two triangles and they run it in opposite directions (consistently oriented); else kNone, and
  // the edge is always on the boundary of a patch holding t (a patch with such an edge inside it
  // then has no single boundary cycle: the test declines it).
  std::vector<std::uint32_t> uses(topology.edges.size(), 0), first_use(topology.edges.size(), kNone);
  std::vector<std::uint32_t> twin(3 * triangle_count, kNone);
  for (std::uint32_t t = 0; t < triangle_count; ++t)
    for (std::uint32_t s = 0; s < 3; ++s) {
      const std::uint32_t e = topology.triangle_edges[t][s];
      if (uses[e]++ == 0) first_use[e] = 3 * t + s;
    }
  for (std::uint32_t t = 0; t < triangle_count; ++t)
    for (std::uint32_t s = 0; s < 3; ++s) {
      const std::uint32_t e = topology.triangle_edges[t][s];
      if (uses[e] != 2 || first_use[e] == 3 * t + s) continue;
      const std::uint32_t o = first_use[e], ot = o / 3, os = o % 3;
      const TriangleIndices& mine = topology.triangles[t];
      const TriangleIndices& other = topology.triangles[ot];
      // Opposite directions: my (u -> v) is the other's (v -> u).
      if (mine[s] == other[(os + 1) % 3] && mine[(s + 1) % 3] == other[os]) {
        twin[3 * t + s] = ot;
        twin[o] = t;
      }
    }
  std::vector<std::uint32_t> position(triangle_count);
  for (std::uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;

  std::vector<std::vector<std::uint32_t>> cycles(nodes.size());
  struct Scratch {
    std::vector<std::uint32_t> next, touched;
  };
  tbb::enumerable_thread_specific<Scratch> scratches([&] {
    return Scratch{std::vector<std::uint32_t>(topology.vertex_count, kNone), {}};
  });
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, nodes.size(), 256), [&](const tbb::blocked_range<std::size_t>& r) {
        Scratch& s = scratches.local();
        for (std::size_t n = r.begin(); n != r.end(); ++n) {
          const PatchNode node = nodes[n];
          if (node.count < kMinPatchTriangles) continue;
          bool single_successor = true;
          s.touched.clear();
          for (std::uint32_t i = node.first; i < node.first + node.count && single_successor; ++i) {
            const std::uint32_t t = order[i];
            for (std::uint32_t slot = 0; slot < 3; ++slot) {
              const std::uint32_t o = twin[3 * t + slot];
              if (o != kNone && position[o] >= node.first && position[o] < node.first + node.count) continue;
              const std::uint32_t u = topology.triangles[t][slot], v = topology.triangles[t][(slot + 1) % 3];
              if (s.next[u] != kNone) {
                single_successor = false;
                break;
              }
              s.next[u] = v;
              s.touched.push_back(u);
            }
          }
          // One cycle through every boundary edge: from the first edge's start, |boundary| steps lead
          // back to it (a second cycle, or a vertex entered twice, does not).
          if (single_successor && s.touched.size() >= 3) {
            std::vector<std::uint32_t>& cycle = cycles[n];
            std::uint32_t at = s.touched[0];
            do {
              cycle.push_back(at);
              at = s.next[at];
            } while (at != kNone && at != s.touched[0] && cycle.size() <= s.touched.size());
            if (at != s.touched[0] || cycle.size() != s.touched.size()) cycle.clear();
          }
          for (std::uint32_t u : s.touched) s.next[u] = kNone;
        }
      });
  PatchBoundaries b;
  b.offsets.resize(nodes.size() + 1, 0);
  for (std::size_t n = 0; n < nodes.size(); ++n) b.offsets[n + 1] = b.offsets[n] + std::uint32_t(cycles[n].size());
  b.vertices.reserve(b.offsets.back());
  for (const auto& c : cycles) b.vertices.insert(b.vertices.end(), c.begin(), c.end());
  return b;
}

NormalSigns triangle_normal_signs(const Vec3& a0, const Vec3& b0, const Vec3& c0, const Vec3& a1, const Vec3& b1,
                                  const Vec3& c1) {
  // Branch-free: every leaf, every interval.
  const Vec3 n0 = (b0 - a0).cross(c0 - a0), n1 = (b1 - a1).cross(c1 - a1);
  auto along = [](const Vec3& n, int d) {
    return kGuideDirections[d][0] * n.x() + kGuideDirections[d][1] * n.y() + kGuideDirections[d][2] * n.z();
  };
  unsigned bits = 0;
  for (int d = 0; d < 7; ++d) {
    const double p = along(n0, d), q = along(n1, d);
    bits |= unsigned((p > 0) & (q > 0)) << d;
    bits |= unsigned((p < 0) & (q < 0)) << (d + 7);
  }
  return NormalSigns(bits);
}

PatchVerdict patch_cannot_touch_itself(const Topology& topology, std::span<const std::uint32_t> triangles,
                                       std::span<const std::uint32_t> boundary, NormalSigns signs,
                                       std::span<const Vec3> start, std::span<const Vec3> end, PatchScratch& scratch) {
  if (boundary.size() < 3) return PatchVerdict::declined;
  // The guide's first direction with every normal on its positive side.
  if (signs == 0) return PatchVerdict::declined;
  const int bit = __builtin_ctz(signs);
  Vec3 axis;
  for (int i = 0; i < 3; ++i) axis[i] = (bit < 7 ? 1.0 : -1.0) * kGuideDirections[bit % 7][i];

  // k: the axis scaled so that its largest component m is +-1 exactly; the projection along k is
  // P(x) = (x_i - r_i x_m, x_j - r_j x_m) with r = k / k_m, whose kernel is exactly k.
  int m = 0;
  axis.cwiseAbs().maxCoeff(&m);
  const int i1 = (m + 1) % 3, i2 = (m + 2) % 3;
  Vec3 k;
  for (int c = 0; c < 3; ++c) k[c] = axis[c] / std::fabs(axis[m]);
  k[m] = axis[m] > 0 ? 1.0 : -1.0;
  const double r1 = k[i1] * k[m], r2 = k[i2] * k[m];  // k_i / k_m, exactly (k_m = +-1); |r| <= 1

  // (B) first (the boundary is shorter than the patch): the boundary's projection stays a simple
  // closed curve. A common translation t * shift is taken off every projected point (it does not
  // change whether the curve is simple) so that a patch moving as a whole keeps tight swept boxes;
  // shift is the mean projected displacement (any double will do).
  //
  // Each projected coordinate is computed in double: x_i - r x_m, minus shift at t = 1. With |r| <=
  // 1 that is at most four roundings of relative u = 2^-53 on values bounded by |x_i| + |x_m| +
  // |shift|, so `slack` = 2^-48 of that bound (plus 2^-1000 for underflow) covers the error and the
  // rounding of the box bounds made with it.
  const std::size_t n = boundary.size();
  double shift[2] = {0, 0};
  for (std::uint32_t v : boundary) {
    shift[0] += (end[v][i1] - r1 * end[v][m]) - (start[v][i1] - r1 * start[v][m]);
    shift[1] += (end[v][i2] - r2 * end[v][m]) - (start[v][i2] - r2 * start[v][m]);
  }
  shift[0] /= double(n);
  shift[1] /= double(n);
  auto& points = scratch.points;
  points.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    const Vec3& x0 = start[boundary[j]];
    const Vec3& x1 = end[boundary[j]];
    PatchScratch::Point& p = points[j];
    p.q[0][0] = x0[i1] - r1 * x0[m];
    p.q[0][1] = x1[i1] - r1 * x1[m] - shift[0];
    p.q[1][0] = x0[i2] - r2 * x0[m];
    p.q[1][1] = x1[i2] - r2 * x1[m] - shift[1];
    const double size = std::max(std::fabs(x0[i1]) + std::fabs(x0[m]), std::fabs(x1[i1]) + std::fabs(x1[m])) +
                        std::max(std::fabs(x0[i2]) + std::fabs(x0[m]), std::fabs(x1[i2]) + std::fabs(x1[m])) +
                        std::fabs(shift[0]) + std::fabs(shift[1]);
    p.slack = size * 0x1p-48 + 0x1p-1000;
  }
  // Two consecutive edges p - v - w meet only at v: the 2-D cross product of (p - v) and (w - v)
  // never vanishes, or their dot product stays negative (they point apart). Decided on the
  // Bernstein coefficients in the filter arithmetic, each coordinate carrying its slack.
  auto moving2 = [&](std::size_t j) {
    const PatchScratch::Point& p = points[j];
    return std::array<Bern<Ef, 1>, 2>{Bern<Ef, 1>{{Ef(p.q[0][0], p.slack), Ef(p.q[0][1], p.slack)}},
                                      Bern<Ef, 1>{{Ef(p.q[1][0], p.slack), Ef(p.q[1][1], p.slack)}}};
  };
  auto& boxes = scratch.boxes;
  boxes.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t before = j == 0 ? n - 1 : j - 1, after = j + 1 == n ? 0 : j + 1;
    const auto here = moving2(j), previous = moving2(before), next = moving2(after);
    const Bern<Ef, 1> ax = previous[0] - here[0], ay = previous[1] - here[1];
    const Bern<Ef, 1> bx = next[0] - here[0], by = next[1] - here[1];
    if (zero_possible(ax * by - ay * bx) != Verdict::Excluded &&
        nonnegative_possible(ax * bx + ay * by) != Verdict::Excluded)
      return PatchVerdict::contour_unproven;
    // Edge j (vertex j -> vertex after): the box of its two ends at both times.
    const PatchScratch::Point& p = points[j];
    const PatchScratch::Point& q = points[after];
    PatchScratch::Box& box = boxes[j];
    for (int c = 0; c < 2; ++c) {
      box.lo[c] = std::min(std::min(p.q[c][0], p.q[c][1]) - p.slack, std::min(q.q[c][0], q.q[c][1]) - q.slack);
      box.hi[c] = std::max(std::max(p.q[c][0], p.q[c][1]) + p.slack, std::max(q.q[c][0], q.q[c][1]) + q.slack);
    }
  }
  // Any two edges that are not consecutive: boxes apart (sweep along the first coordinate).
  auto& sorted = scratch.sorted;
  sorted.resize(n);
  for (std::uint32_t j = 0; j < n; ++j) sorted[j] = j;
  std::sort(sorted.begin(), sorted.end(),
            [&](std::uint32_t x, std::uint32_t y) { return boxes[x].lo[0] < boxes[y].lo[0]; });
  for (std::size_t s = 0; s < n; ++s) {
    const PatchScratch::Box& x = boxes[sorted[s]];
    for (std::size_t u = s + 1; u < n && boxes[sorted[u]].lo[0] <= x.hi[0]; ++u) {
      const std::uint32_t a = sorted[s], b = sorted[u];
      const std::uint32_t gap = a > b ? a - b : b - a;
      if (gap == 1 || gap == n - 1) continue;  // consecutive: checked above
      const PatchScratch::Box& y = boxes[b];
      if (x.lo[1] > y.hi[1] || y.lo[1] > x.hi[1]) continue;
      // The boxes overlap (two parallel edges across a strip, seen at 45 degrees, already do):
      // apart if one edge's ends stay strictly on one side of the other edge's line throughout.
      if (!edges_apart(moving2(a), moving2(a + 1 == n ? 0 : a + 1), moving2(b), moving2(b + 1 == n ? 0 : b + 1)))
        return PatchVerdict::contour_unproven;
    }
  }

  // (A) n(t) . k > 0 on [0, 1] for every triangle: the three Bernstein coefficients of k . n(t) =
  // k . (e x f), e = b - a and f = c - a moving linearly (homogeneous form: k.(e0 x f0),
  // k.(e0 x f1 + e1 x f0), k.(e1 x f1)) certainly positive. In double: each coefficient is a sum
  // of at most 12 terms k_i e_j f_l, each of rounded factors, so its error is below 16u of the sum
  // of the terms' magnitudes; 2^-48 of that sum (plus 2^-1000 for underflow) is the bar. Where
  // the doubles cannot tell, the filter arithmetic of the elementary tests decides.
  const BVec<Ef, 0> K{{{Ef(k.x())}}, {{Ef(k.y())}}, {{Ef(k.z())}}};
  const Vec3 kabs = k.cwiseAbs();
  auto triple = [&](const Vec3& e, const Vec3& f, double& magnitude) {
    magnitude += kabs.dot(Vec3(std::fabs(e.y() * f.z()) + std::fabs(e.z() * f.y()),
                               std::fabs(e.z() * f.x()) + std::fabs(e.x() * f.z()),
                               std::fabs(e.x() * f.y()) + std::fabs(e.y() * f.x())));
    return k.dot(e.cross(f));
  };
  for (std::uint32_t t : triangles) {
    const TriangleIndices& tri = topology.triangles[t];
    const Vec3 e0 = start[tri[1]] - start[tri[0]], f0 = start[tri[2]] - start[tri[0]];
    const Vec3 e1 = end[tri[1]] - end[tri[0]], f1 = end[tri[2]] - end[tri[0]];
    double m0 = 0, m1 = 0, m2 = 0;
    const double c0 = triple(e0, f0, m0);
    const double c1 = triple(e0, f1, m1) + triple(e1, f0, m1);
    const double c2 = triple(e1, f1, m2);
    if (c0 > m0 * 0x1p-48 + 0x1p-1000 && c1 > m1 * 0x1p-48 + 0x1p-1000 && c2 > m2 * 0x1p-48 + 0x1p-1000) continue;
    const BVec<Ef, 1> a = moving(start[tri[0]], end[tri[0]]);
    const BVec<Ef, 1> b = moving(start[tri[1]], end[tri[1]]);
    const BVec<Ef, 1> c = moving(start[tri[2]], end[tri[2]]);
    if (strictly_positive(dot(K, cross(b - a, c - a))) != Verdict::Admitted) return PatchVerdict::normals_unproven;
  }
  return PatchVerdict::free;
}

}  // namespace kdopcd::ccd
