#include "kdopcd/ccd/bracketing.hpp"

#include <algorithm>

#include "kdopcd/tri_tri_exact.hpp"

namespace kdopcd::ccd {
namespace {

bool share_vertex(const TriangleIndices& a, const TriangleIndices& b) {
  for (std::uint32_t x : a)
    for (std::uint32_t y : b)
      if (x == y) return true;
  return false;
}

bool intersect(const std::vector<Vec3>& xa, const TriangleIndices& p, const std::vector<Vec3>& xb, const TriangleIndices& q) {
  return triangles_intersect_exact(xa[p[0]], xa[p[1]], xa[p[2]], xb[q[0]], xb[q[1]], xb[q[2]]);
}

// The triangles with at least one vertex in `vertices` (a linear scan: a check, not a hot path).
std::vector<std::uint32_t> triangles_around(const Topology& t, std::initializer_list<std::uint32_t> vertices) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < t.triangles.size(); ++i)
    for (std::uint32_t v : vertices)
      if (std::find(t.triangles[i].begin(), t.triangles[i].end(), v) != t.triangles[i].end()) {
        out.push_back(i);
        break;
      }
  return out;
}

}  // namespace

std::vector<Vec3> positions_at(const Motion& motion, double t) {
  std::vector<Vec3> out(motion.start.size());
  for (std::size_t v = 0; v < out.size(); ++v)
    for (int k = 0; k < 3; ++k) out[v][k] = motion.start[v][k] + t * (motion.end[v][k] - motion.start[v][k]);
  return out;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> intersecting_triangles(const Topology& ta, const std::vector<Vec3>& xa,
                                                                            const Topology& tb, const std::vector<Vec3>& xb,
                                                                            bool self) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  if (ta.triangles.empty() || tb.triangles.empty()) return out;
  const SweptTree tree_a(ta, {xa, xa}, 18, SweptTree::Use::pairs);  // its own traversal: no patch culling
  const SweptTree tree_b(tb, {xb, xb}, 18, SweptTree::Use::pairs);
  // Node pairs; in self-collision (a, a) stands for "node a against itself".
  std::vector<std::pair<std::int32_t, std::int32_t>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [a, b] = stack.back();
    stack.pop_back();
    const auto& na = tree_a.nodes()[std::size_t(a)];
    const auto& nb = tree_b.nodes()[std::size_t(b)];
    if (self && a == b) {
      if (na.left < 0) continue;
      stack.push_back({na.left, na.left});
      stack.push_back({na.right, na.right});
      stack.push_back({na.left, na.right});
      continue;
    }
    if (!tree_a.overlap(tree_b, std::size_t(a), std::size_t(b))) continue;
    if (na.left < 0 && nb.left < 0) {
      const TriangleIndices& p = ta.triangles[na.triangle];
      const TriangleIndices& q = tb.triangles[nb.triangle];
      if (self && share_vertex(p, q)) continue;
      if (intersect(xa, p, xb, q)) {
        if (self && na.triangle > nb.triangle)
          out.emplace_back(nb.triangle, na.triangle);
        else
          out.emplace_back(na.triangle, nb.triangle);
      }
      continue;
    }
    if (nb.left < 0 || (na.left >= 0 && na.count >= nb.count)) {
      stack.push_back({na.left, b});
      stack.push_back({na.right, b});
    } else {
      stack.push_back({a, nb.left});
      stack.push_back({a, nb.right});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Bracketing check_bracketing(const MovingMesh& a, const MovingMesh& b, bool self, const CcdResult& result, double epsilon) {
  Bracketing report;
  if (!result.time) return report;
  const double t = *result.time;
  const Topology& ta = *a.topology;
  const Topology& tb = *b.topology;
  if (t > epsilon)
    report.before = intersecting_triangles(ta, positions_at(a.motion, t - epsilon), tb, positions_at(b.motion, t - epsilon), self);
  const double after = std::min(1.0, t + epsilon);
  const std::vector<Vec3> xa = positions_at(a.motion, after), xb = positions_at(b.motion, after);
  const std::vector<Vec3> ya = positions_at(a.motion, t), yb = positions_at(b.motion, t);
  for (const FeatureContact& c : result.contacts) {
    // The triangles around each side's feature: a face touching a face shows as an intersection
    // of the neighbours, not of the two faces themselves.
    std::vector<std::uint32_t> first, second;
    if (c.kind == ElementaryKind::VertexFace) {
      const Topology& vertex_side = c.vertex_object == 0 ? ta : tb;
      const Topology& face_side = c.vertex_object == 0 ? tb : ta;
      const TriangleIndices& face = face_side.triangles[c.ids[1]];
      first = triangles_around(vertex_side, {c.ids[0]});
      second = triangles_around(face_side, {face[0], face[1], face[2]});
      if (c.vertex_object == 1) std::swap(first, second);
    } else {
      first = triangles_around(ta, {c.ids[0], c.ids[1]});
      second = triangles_around(tb, {c.ids[2], c.ids[3]});
    }
    bool shown = false;
    for (std::uint32_t i : first) {
      for (std::uint32_t j : second) {
        const TriangleIndices& p = ta.triangles[i];
        const TriangleIndices& q = tb.triangles[j];
        if (self && share_vertex(p, q)) continue;
        if (intersect(xa, p, xb, q) || intersect(ya, p, yb, q)) {
          shown = true;
          break;
        }
      }
      if (shown) break;
    }
    if (!shown) report.not_shown_after.push_back(c);
  }
  return report;
}

}  // namespace kdopcd::ccd
