#pragma once
// The contact conditions of the elementary continuous tests (vertex-face, edge-edge, and their
// degenerate cases vertex-edge and vertex-vertex) on one time interval, as polynomials in
// homogeneous Bernstein form (bernstein.hpp), templated on the number type: Ef for the filter, an
// exact integer type for the fallback. docs/ccd.md, "Elementary tests", states the conditions.
//
// `Points` gives the moving points of the test on the interval: point(i) is a BVec<T, 1> whose
// coordinates are (x(lo), x(hi)). Every point moves linearly, so every condition below is a
// polynomial of t of degree <= 4, exactly.
#include "kdopcd/ccd/bernstein.hpp"

namespace kdopcd::ccd {

// The point p moves on the segment of its start and end; so do a, b, c. Vertex-face: p, a, b, c;
// edge-edge: (p0, p1) and (q0, q1) in points 0..3. Vertex-edge: p; a, b. Vertex-vertex: p; a.
enum class ElementaryKind : unsigned char { VertexFace = 0, EdgeEdge = 1 };

// Vertex-vertex: p - a = 0 (each component may vanish).
template <class T>
KDOPCD_HD Verdict vertex_vertex_verdict(const BVec<T, 1>& p, const BVec<T, 1>& a) {
  const BVec<T, 1> d = p - a;
  return both(zero_possible(d.x), both(zero_possible(d.y), zero_possible(d.z)));
}

// Vertex on the closed segment ab: (b - a) x (p - a) = 0 and 0 <= (p - a).(b - a) <= |b - a|^2.
// Where b - a is identically 0 on the interval the segment is the point a: vertex-vertex. At a leaf
// (`leaf`), where |b - a|^2 > 0 is not certain, the segment may be a point there: the verdict is
// the segment's or the point's, whichever admits.
template <class T>
KDOPCD_HD Verdict vertex_edge_verdict(const BVec<T, 1>& p, const BVec<T, 1>& a, const BVec<T, 1>& b, bool leaf) {
  const BVec<T, 1> e = b - a, r = p - a;
  const Verdict collapsed = identically_zero(e);
  if (collapsed == Verdict::Admitted) return vertex_vertex_verdict(p, a);
  if (collapsed == Verdict::Unknown) return Verdict::Unknown;
  const BVec<T, 2> c = cross(e, r);
  const Bern<T, 2> along = dot(r, e), length2 = dot(e, e);
  Verdict main = both(zero_possible(c.x), both(zero_possible(c.y), zero_possible(c.z)));
  main = both(main, both(nonnegative_possible(along), nonnegative_possible(length2 - along)));
  if (main != Verdict::Admitted || !leaf) return main;
  const Verdict long_enough = strictly_positive(length2);
  if (long_enough == Verdict::Excluded) return vertex_vertex_verdict(p, a);
  return long_enough;
}

// Vertex in the closed triangle abc: coplanar, det[b - a, c - a, p - a] = 0 (the cubic), and on
// the inner side of each edge, n.((b - a) x (p - a)) >= 0 etc. with n = (b - a) x (c - a) (degree
// 4 each). Where n is identically 0 the triangle is a segment or a point and the test is the
// vertex on one of its edges; at a leaf where n > 0 is not certain, likewise.
template <class T>
KDOPCD_HD Verdict vertex_face_verdict(const BVec<T, 1>& p, const BVec<T, 1>& a, const BVec<T, 1>& b,
                                      const BVec<T, 1>& c, bool leaf) {
  const BVec<T, 1> ab = b - a, ac = c - a, ap = p - a;
  const BVec<T, 2> n = cross(ab, ac);
  const Verdict flat = identically_zero(n);
  auto on_an_edge = [&] {
    return either(vertex_edge_verdict(p, a, b, leaf),
                  either(vertex_edge_verdict(p, b, c, leaf), vertex_edge_verdict(p, c, a, leaf)));
  };
  if (flat == Verdict::Admitted) return on_an_edge();
  if (flat == Verdict::Unknown) return Verdict::Unknown;
  Verdict main = zero_possible(dot(n, ap));  // det[b - a, c - a, p - a] = ((b - a) x (c - a)).(p - a)
  if (main == Verdict::Excluded) return main;
  const BVec<T, 1> bc = c - b, bp = p - b, ca = a - c, cp = p - c;
  main = both(main, nonnegative_possible(dot(n, cross(ab, ap))));
  if (main == Verdict::Excluded) return main;
  main = both(main, both(nonnegative_possible(dot(n, cross(bc, bp))), nonnegative_possible(dot(n, cross(ca, cp)))));
  if (main != Verdict::Admitted || !leaf) return main;
  const Verdict proper = strictly_positive(dot(n, n));
  if (proper == Verdict::Excluded) return on_an_edge();
  return proper;
}

// Closed segments p0p1 and q0q1 share a point: with u = p1 - p0, v = q1 - q0, w = q0 - p0 and
// n = u x v, coplanar (u.(w x v) = 0, the cubic) and the lines' crossing inside both segments:
// 0 <= (w x v).n <= |n|^2 and 0 <= (w x u).n <= |n|^2 (the crossing's parameters on each segment
// times |n|^2, degree 4). Where n is identically 0 the segments are parallel and share a point only
// if an endpoint lies on the other segment; at a leaf where n > 0 is not certain, likewise.
template <class T>
KDOPCD_HD Verdict edge_edge_verdict(const BVec<T, 1>& p0, const BVec<T, 1>& p1, const BVec<T, 1>& q0,
                                    const BVec<T, 1>& q1, bool leaf) {
  const BVec<T, 1> u = p1 - p0, v = q1 - q0, w = q0 - p0;
  const BVec<T, 2> n = cross(u, v);
  const Verdict parallel = identically_zero(n);
  auto endpoint_on_other = [&] {
    return either(either(vertex_edge_verdict(p0, q0, q1, leaf), vertex_edge_verdict(p1, q0, q1, leaf)),
                  either(vertex_edge_verdict(q0, p0, p1, leaf), vertex_edge_verdict(q1, p0, p1, leaf)));
  };
  if (parallel == Verdict::Admitted) return endpoint_on_other();
  if (parallel == Verdict::Unknown) return Verdict::Unknown;
  const BVec<T, 2> wv = cross(w, v);
  Verdict main = zero_possible(dot(u, wv));
  if (main == Verdict::Excluded) return main;
  const Bern<T, 4> n2 = dot(n, n), s = dot(wv, n), r = dot(cross(w, u), n);
  main = both(main, both(nonnegative_possible(s), nonnegative_possible(n2 - s)));
  if (main == Verdict::Excluded) return main;
  main = both(main, both(nonnegative_possible(r), nonnegative_possible(n2 - r)));
  if (main != Verdict::Admitted || !leaf) return main;
  const Verdict proper = strictly_positive(n2);
  if (proper == Verdict::Excluded) return endpoint_on_other();
  return proper;
}

template <class T>
KDOPCD_HD Verdict elementary_verdict(ElementaryKind kind, const BVec<T, 1>* points, bool leaf) {
  return kind == ElementaryKind::VertexFace ? vertex_face_verdict(points[0], points[1], points[2], points[3], leaf)
                                            : edge_edge_verdict(points[0], points[1], points[2], points[3], leaf);
}

}  // namespace kdopcd::ccd
