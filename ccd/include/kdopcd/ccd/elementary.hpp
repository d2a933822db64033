#pragma once
// The elementary continuous tests: the first time in [0, 1] at which a moving vertex touches a
// moving triangle, or a moving edge touches a moving edge, every point moving linearly from its
// start to its end position. docs/ccd.md, "Elementary tests", has the method and the guarantee:
//
//   The time axis [0, 1] is cut into dyadic intervals [m 2^-d, (m+1) 2^-d], searched depth first,
//   earliest first, down to d = kTimeDepth = 44. An interval is dropped when the Bernstein
//   coefficients of one contact condition (elementary_conditions.hpp) exclude it; the first leaf
//   interval that is never dropped gives the time m 2^-44 (a double, exact). The coefficients are
//   first computed in doubles with a rigorous error bound (Ef); where a sign is not certain they
//   are recomputed exactly (integers). So the answer is the one of exact arithmetic:
//   - no contact reported => the features never touch in [0, 1];
//   - time t reported => no contact before t, and on [t, t + 2^-44] the exact Bernstein
//     enclosures of every condition admit a contact: t <= t* (the exact first contact, when the
//     features do touch) and the features are within the enclosures' width of touching at t.
//
// filtered_first_contact is KDOPCD_HD (Ef only; it answers kNeedsExact where the filter cannot
// decide); first_contact is the host's, with the exact fallback.
#include <cstdint>

#include "kdopcd/ccd/elementary_conditions.hpp"

namespace kdopcd::ccd {

// 2^-44 = 5.7e-14: finer than the 1e-12 asked of the time. Deeper leaves cost exact arithmetic:
// below about 2^-44 of the motion the filter's rounding bound (relative to the coordinates, not to
// the interval) stops deciding near a root (measured: 100-200 exact intervals per rigid query at
// depth 44, 11 000 at depth 52, docs/ccd.md).
inline constexpr int kTimeDepth = 44;

// The four moving points of one test: xyz[i][0] the start, xyz[i][1] the end of point i.
// Vertex-face: p, a, b, c. Edge-edge: p0, p1, q0, q1.
struct ElementaryPoints {
  double xyz[4][2][3];
};

// The time as a double, or one of these.
inline constexpr double kNoContact = -1.0;
inline constexpr double kNeedsExact = -2.0;

// The filter's points on one interval: x(t) = x0 + t (x1 - x0), t = m 2^-d exact.
KDOPCD_HD inline void ef_points_on(const ElementaryPoints& in, int depth, std::uint64_t m, BVec<Ef, 1>* out) {
  const double scale = ldexp(1.0, -depth);
  const Ef lo(double(m) * scale), hi(double(m + 1) * scale);
  for (int i = 0; i < 4; ++i) {
    Bern<Ef, 1>* coords[3] = {&out[i].x, &out[i].y, &out[i].z};
    for (int k = 0; k < 3; ++k) {
      const Ef x0(in.xyz[i][0][k]), x1(in.xyz[i][1][k]);
      const Ef dx = x1 - x0;
      coords[k]->c[0] = x0 + lo * dx;
      coords[k]->c[1] = x0 + hi * dx;
    }
  }
}

// The depth-first search over the dyadic intervals, earliest first, without a stack: after an
// interval is dropped (or a leaf is rejected) the next one is the right sibling of the nearest
// ancestor that is a left child. `verdict(depth, m, leaf)` judges interval m of depth `depth`.
// Returns the leaf's time, kNoContact, or kNeedsExact when the verdict is Unknown.
// Intervals are met in order of their start; one starting after `limit` ends the search (a caller
// that already has a contact at `limit` needs no later one; contacts at `limit` itself are found).
template <class VerdictFn>
KDOPCD_HD double search_first_leaf(VerdictFn&& verdict, double limit = 2.0) {
  int depth = 0;
  std::uint64_t m = 0;
  for (;;) {
    if (ldexp(double(m), -depth) > limit) return kNoContact;
    const bool leaf = depth == kTimeDepth;
    const Verdict v = verdict(depth, m, leaf);
    if (v == Verdict::Unknown) return kNeedsExact;
    if (v == Verdict::Admitted) {
      if (leaf) return ldexp(double(m), -kTimeDepth);
      ++depth;
      m *= 2;
      continue;
    }
    while (depth > 0 && (m & 1) == 1) {
      --depth;
      m >>= 1;
    }
    if (depth == 0) return kNoContact;
    ++m;
  }
}

// Stage 0, second part (called by relative_motion_apart below): the relative-motion hull,
// separated from the origin along directions taken from the features themselves at the start (and
// the end) of the motion: the triangle's
// normal and its three in-plane edge normals (VF); the edges' common normal, each edge's in-plane
// normal, the edges' directions and the normal of one edge towards the other (EE). A vertex beside
// a neighbouring triangle of a flat cloth, or two disjoint edges of it, are separated by one of
// these lines (any point outside a triangle is beyond one of its edge lines; of two disjoint
// coplanar segments, one lies on one side of the other's line), which the axis test above can
// miss where the cloth is not aligned with the axes; when the neighbours move together (a falling or
// resting cloth) the same direction separates them at both ends. Any direction is sound: the
// projections' signs are certain only beyond a rigorous bound on their rounding (below), and the
// test is skipped beyond |x| > 2^200, where a product could overflow.
// For d and the rounded differences D_k = fl(x_k - y_k): |fl(sum d_k D_k) - sum d_k (x_k - y_k)|
// <= (gamma_3 + u (1 + gamma_3)) sum |d_k D_k| + 3 2^-1074 (underflowing products) < 5u sum|d_k D_k|
// + 2^-1070; the bound is taken as 8u fl(sum |d_k D_k|) + 2^-1060, which also covers the bound's own
// rounding (u = 2^-53).
KDOPCD_HD inline bool relative_motion_apart_on_feature_planes(ElementaryKind kind, const ElementaryPoints& in) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k)
        if (!(fabs(in.xyz[i][j][k]) <= 0x1p200)) return false;
  struct V {
    double x, y, z;
  };
  auto sub = [](const double* a, const double* b) { return V{a[0] - b[0], a[1] - b[1], a[2] - b[2]}; };
  auto cross = [](const V& a, const V& b) {
    return V{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  };
  // Differences: VF x_o(j) - p(j), o = 1..3; EE q_o(j) - p_i(j), o = 2, 3, i = 0, 1. Both ends j.
  V diff[8];
  int count = 0;
  const int first_other = kind == ElementaryKind::VertexFace ? 1 : 2;
  const int own_count = kind == ElementaryKind::VertexFace ? 1 : 2;
  for (int j = 0; j < 2; ++j)
    for (int o = first_other; o < 4; ++o)
      for (int i = 0; i < own_count; ++i) diff[count++] = sub(in.xyz[o][j], in.xyz[i][j]);
  auto separates = [&](const V& d) {
    bool all_positive = true, all_negative = true;
    for (int n = 0; n < count; ++n) {
      const V& D = diff[n];
      const double s = d.x * D.x + d.y * D.y + d.z * D.z;
      const double bound = 0x1p-50 * (fabs(d.x * D.x) + fabs(d.y * D.y) + fabs(d.z * D.z)) + 0x1p-1060;
      all_positive &= s > bound;
      all_negative &= s < -bound;
      if (!all_positive && !all_negative) return false;
    }
    return true;
  };
  for (int j = 0; j < 2; ++j) {
    if (kind == ElementaryKind::VertexFace) {
      const V ab = sub(in.xyz[2][j], in.xyz[1][j]), bc = sub(in.xyz[3][j], in.xyz[2][j]),
              ca = sub(in.xyz[1][j], in.xyz[3][j]);
      const V n = cross(ab, bc);
      if (separates(n) || separates(cross(n, ab)) || separates(cross(n, bc)) || separates(cross(n, ca))) return true;
    } else {
      const V u = sub(in.xyz[1][j], in.xyz[0][j]), v = sub(in.xyz[3][j], in.xyz[2][j]),
              w = sub(in.xyz[2][j], in.xyz[0][j]);
      const V n = cross(u, v);
      // u x (u x w): the normal of edge p towards q0 in their common plane (parallel edges, where n = 0).
      if (separates(n) || separates(cross(u, n)) || separates(cross(v, n)) || separates(u) || separates(v) ||
          separates(cross(u, cross(u, w))))
        return true;
    }
  }
  return false;
}

// Stage 0, exact and cheap: the relative motion. A vertex-face contact puts the origin in the hull
// of x_i(t) - p(t) (x_i the triangle's corners), each linear in t, so in the hull of the six
// differences at t = 0 and t = 1; an edge-edge contact puts it in the hull of the eight q_j - p_i.
// If on one axis all those differences have one strict sign, the features never touch. The signs
// of the rounded differences are the exact ones (rounding is monotonic and keeps 0), so the test is
// exact. It culls what moves together: neighbouring features of a cloth in free fall, whose swept
// k-DOPs overlap. True when the features cannot touch.
KDOPCD_HD inline bool relative_motion_apart_on_axes(ElementaryKind kind, const ElementaryPoints& in) {
  const int first_other = kind == ElementaryKind::VertexFace ? 1 : 2;
  const int own_count = kind == ElementaryKind::VertexFace ? 1 : 2;
  for (int k = 0; k < 3; ++k) {
    bool all_positive = true, all_negative = true;
    for (int j = 0; j < 2; ++j)
      for (int o = first_other; o < 4; ++o)
        for (int i = 0; i < own_count; ++i) {
          const double d = in.xyz[o][j][k] - in.xyz[i][j][k];
          all_positive &= d > 0.0;
          all_negative &= d < 0.0;
        }
    if (all_positive || all_negative) return true;
  }
  return false;
}

// Both: the coordinate axes, then the features' own planes.
KDOPCD_HD inline bool relative_motion_apart(ElementaryKind kind, const ElementaryPoints& in) {
  return relative_motion_apart_on_axes(kind, in) || relative_motion_apart_on_feature_planes(kind, in);
}

// Stage 0, third part: features that already touch at t = 0. On the zero-width interval [0, 0]
// every Bernstein coefficient of a condition is its value at t = 0, so a certain Admitted leaf
// verdict there means the conditions hold exactly at t = 0: the closed features share a point. Then
// no interval [0, 2^-d] can be excluded (each holds that contact), and the dyadic search would
// descend all kTimeDepth + 1 of them to answer t = 0: this answers it at once. A cloth whose layers
// lie on one plane (folds resting on the ground) has thousands of such pairs per interval, and the
// 45 verdicts each were the largest cost of those intervals. Any other verdict (Excluded, or Unknown
// where the filter cannot decide) leaves the pair to the search, so the answer never changes.
KDOPCD_HD inline bool touching_at_start(ElementaryKind kind, const ElementaryPoints& in) {
  BVec<Ef, 1> points[4];
  for (int i = 0; i < 4; ++i) {
    Bern<Ef, 1>* coords[3] = {&points[i].x, &points[i].y, &points[i].z};
    for (int k = 0; k < 3; ++k) coords[k]->c[0] = coords[k]->c[1] = Ef(in.xyz[i][0][k]);
  }
  return elementary_verdict(kind, points, true) == Verdict::Admitted;
}

// The filter alone: the time, kNoContact, or kNeedsExact (then the host's first_contact decides).
// Inputs must be finite with |x| <= 2^200 (else kNeedsExact), so no bound overflows.
KDOPCD_HD inline double filtered_first_contact(ElementaryKind kind, const ElementaryPoints& in) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k)
        if (!(fabs(in.xyz[i][j][k]) <= 0x1p200)) return kNeedsExact;
  if (relative_motion_apart(kind, in)) return kNoContact;
  if (touching_at_start(kind, in)) return 0.0;
  return search_first_leaf([&](int depth, std::uint64_t m, bool leaf) {
    BVec<Ef, 1> points[4];
    ef_points_on(in, depth, m, points);
    return elementary_verdict(kind, points, leaf);
  });
}

// Counts of one thread's or one query's elementary tests.
struct ElementaryStats {
  std::uint64_t tests = 0;         // calls of first_contact
  std::uint64_t searched = 0;      // of them, not culled by the relative motion: the dyadic search ran
  std::uint64_t exact_intervals = 0;  // intervals judged in exact arithmetic (filter undecided)
};

// The host's test: the filter, and exact integer arithmetic on every interval where the filter
// cannot decide. Inputs must be finite (std::domain_error otherwise). Thread-safe. With `limit`,
// a contact later than limit is not looked for (kNoContact); one at or before it is the same.
double first_contact(ElementaryKind kind, const ElementaryPoints& in, ElementaryStats* stats = nullptr,
                     double limit = 2.0);

// The same answer in exact arithmetic on every interval (no filter): the tests' reference.
double first_contact_exact_only(ElementaryKind kind, const ElementaryPoints& in);

}  // namespace kdopcd::ccd
