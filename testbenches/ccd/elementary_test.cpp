// The elementary continuous tests (elementary.hpp): known first-contact times, the degenerate cases
// (coplanar motion, parallel edges, collapsed triangles, touching at t = 0), and the filtered
// answer equal to the all-exact one on random and near-degenerate inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kdopcd/ccd/elementary.hpp"

namespace kdopcd::ccd {
namespace {

const double kLeaf = std::ldexp(1.0, -kTimeDepth);  // a leaf interval's width: the time's resolution

struct P {
  double x0, y0, z0, x1, y1, z1;
};
P still(double x, double y, double z) { return {x, y, z, x, y, z}; }

ElementaryPoints points(P a, P b, P c, P d) {
  ElementaryPoints out{};
  const P all[4] = {a, b, c, d};
  for (int i = 0; i < 4; ++i) {
    const double v[2][3] = {{all[i].x0, all[i].y0, all[i].z0}, {all[i].x1, all[i].y1, all[i].z1}};
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) out.xyz[i][j][k] = v[j][k];
  }
  return out;
}

// Both paths, which must agree exactly.
double both_paths(ElementaryKind kind, const ElementaryPoints& in) {
  const double filtered = first_contact(kind, in);
  EXPECT_EQ(filtered, first_contact_exact_only(kind, in));
  return filtered;
}

// The reported time is the start of the first admitted leaf: at most one leaf before the root.
void expect_time_near(double t, double root) {
  ASSERT_GE(t, 0.0);
  EXPECT_LE(t, root);
  EXPECT_LE(root - t, kLeaf);
}

TEST(Elementary, VertexFallsThroughTriangleAtHalfTime) {
  const auto in = points({0.2, 0.2, 1, 0.2, 0.2, -1}, still(0, 0, 0), still(1, 0, 0), still(0, 1, 0));
  expect_time_near(both_paths(ElementaryKind::VertexFace, in), 0.5);
}

TEST(Elementary, TimeLimitSkipsOnlyLaterContacts) {
  const auto in = points({0.2, 0.2, 1, 0.2, 0.2, -1}, still(0, 0, 0), still(1, 0, 0), still(0, 1, 0));
  const double t = first_contact(ElementaryKind::VertexFace, in);
  ASSERT_GE(t, 0.0);
  EXPECT_EQ(first_contact(ElementaryKind::VertexFace, in, nullptr, t), t);
  EXPECT_EQ(first_contact(ElementaryKind::VertexFace, in, nullptr, 0.4), kNoContact);
}

TEST(Elementary, VertexPassesBesideTriangle) {
  const auto in = points({0.8, 0.8, 1, 0.8, 0.8, -1}, still(0, 0, 0), still(1, 0, 0), still(0, 1, 0));
  EXPECT_EQ(both_paths(ElementaryKind::VertexFace, in), kNoContact);
}

TEST(Elementary, VertexHitsTriangleEdgeExactly) {
  // Crosses the plane at x + y = 1, the hypotenuse: a closed triangle is touched.
  const auto in = points({0.5, 0.5, 1, 0.5, 0.5, -3}, still(0, 0, 0), still(1, 0, 0), still(0, 1, 0));
  expect_time_near(both_paths(ElementaryKind::VertexFace, in), 0.25);
}

TEST(Elementary, TouchingAtStartIsTimeZero) {
  const auto in = points({0.2, 0.2, 0, 0.2, 0.2, 1}, still(0, 0, 0), still(1, 0, 0), still(0, 1, 0));
  EXPECT_EQ(both_paths(ElementaryKind::VertexFace, in), 0.0);
}

TEST(Elementary, MovingTriangleMeetsStillVertex) {
  // The triangle rises from z = -1 to z = 3 while tilting: it meets the still vertex at z = 0
  // where the plane passes through it.
  const auto in = points(still(0.25, 0.25, 0), {0, 0, -1, 0, 0, 3}, {1, 0, -1, 1, 0, 3}, {0, 1, -1, 0, 1, 3});
  expect_time_near(both_paths(ElementaryKind::VertexFace, in), 0.25);
}

TEST(Elementary, NonDyadicRootIsWithinOneLeaf) {
  // The triangle rotates about the x axis (its vertices move linearly, so it also shrinks): the
  // coplanarity condition is a genuine quadratic; its root is computed here in long double.
  const double s = 0.3;
  const auto in = points({0.2, 0.3, 0.1, 0.2, 0.3, 0.1}, still(0, 0, 0), still(1, 0, 0), {0, 1, -s, 0, -s, 1});
  // Vertex c(t) = (0, 1 - t(1 + s), -s + t(1 + s)); coplanar with p when p.z * c.y = p.y * c.z.
  const long double k = 1.0L + s;
  const long double root = (0.1L + 0.3L * s) / (0.1L * k + 0.3L * k);
  // (p at (0.2, 0.3, 0.1): 0.1 (1 - t k) = 0.3 (-s + t k).)
  const double t = both_paths(ElementaryKind::VertexFace, in);
  ASSERT_GE(t, 0.0);
  EXPECT_LE(t, double(root));
  EXPECT_LE(double(root) - t, kLeaf);
}

TEST(Elementary, CrossingEdges) {
  // Edge p along x at z = 1 - 2t, edge q along y at z = 0: they meet at t = 0.5 at the origin.
  const auto in = points({-1, 0, 1, -1, 0, -1}, {1, 0, 1, 1, 0, -1}, still(0, -1, 0), still(0, 1, 0));
  expect_time_near(both_paths(ElementaryKind::EdgeEdge, in), 0.5);
}

TEST(Elementary, EdgesPassingBesideEachOther) {
  const auto in = points({2, 0, 1, 2, 0, -1}, {3, 0, 1, 3, 0, -1}, still(0, -1, 0), still(0, 1, 0));
  EXPECT_EQ(both_paths(ElementaryKind::EdgeEdge, in), kNoContact);
}

TEST(Elementary, ParallelCoplanarEdgesMeetEndToEnd) {
  // Both edges on the x axis for all t (the cubic and n are identically 0): they meet when p1
  // reaches q0, at t = 0.5.
  const auto in = points({-3, 0, 0, -1, 0, 0}, {-1, 0, 0, 1, 0, 0}, still(0, 0, 0), still(2, 0, 0));
  expect_time_near(both_paths(ElementaryKind::EdgeEdge, in), 0.5);
}

TEST(Elementary, ParallelCoplanarEdgesSideBySideNeverMeet) {
  const auto in = points({0, 1, 0, 5, 1, 0}, {1, 1, 0, 6, 1, 0}, still(0, 0, 0), still(2, 0, 0));
  EXPECT_EQ(both_paths(ElementaryKind::EdgeEdge, in), kNoContact);
}

TEST(Elementary, CoplanarMotionVertexEntersTriangle) {
  // Everything in z = 0 (the cubic is identically 0): the vertex slides in across the edge x = 0
  // at t = 0.25.
  const auto in = points({-0.25, 0.25, 0, 0.75, 0.25, 0}, still(0, 0, 0), still(1, 0, 0), still(0, 1, 0));
  expect_time_near(both_paths(ElementaryKind::VertexFace, in), 0.25);
}

TEST(Elementary, CollapsedTriangleIsItsEdges) {
  // a, b, c collinear on the x axis (n identically 0): the vertex meets the segment at t = 0.5,
  // and a vertex passing beside it does not.
  const auto hit = points({0.5, 0, 1, 0.5, 0, -1}, still(0, 0, 0), still(1, 0, 0), still(2, 0, 0));
  expect_time_near(both_paths(ElementaryKind::VertexFace, hit), 0.5);
  const auto miss = points({0.5, 0.1, 1, 0.5, 0.1, -1}, still(0, 0, 0), still(1, 0, 0), still(2, 0, 0));
  EXPECT_EQ(both_paths(ElementaryKind::VertexFace, miss), kNoContact);
  // A triangle collapsed to a point, met by the vertex.
  const auto point = points({1, 1, 1, -1, -1, -1}, still(0, 0, 0), still(0, 0, 0), still(0, 0, 0));
  expect_time_near(both_paths(ElementaryKind::VertexFace, point), 0.5);
}

TEST(Elementary, EdgeCollapsedToPoint) {
  const auto in = points({0.5, 1, 0, 0.5, -1, 0}, {0.5, 1, 0, 0.5, -1, 0}, still(0, 0, 0), still(1, 0, 0));
  expect_time_near(both_paths(ElementaryKind::EdgeEdge, in), 0.5);
}

TEST(Elementary, VertexSlidingAlongTheBoundaryLine) {
  // In the triangle's plane, along the hypotenuse's line x + y = 1 for the whole motion: the closed
  // triangle is touched from x = 1, at t = 1/3, on.
  const auto in = points({2, -1, 0, -1, 2, 0}, still(0, 0, 0), still(1, 0, 0), still(0, 1, 0));
  expect_time_near(both_paths(ElementaryKind::VertexFace, in), 1.0 / 3.0);
}

// Random configurations, many of them snapped to small grids so that coplanar and parallel cases
// occur: the filter with its exact fallback gives the all-exact answer every time.
TEST(Elementary, FilteredEqualsExactOnRandomAndDegenerateInputs) {
  std::mt19937_64 rng(38);
  std::uniform_real_distribution<double> coordinate(-1, 1);
  std::uniform_int_distribution<int> grid(-2, 2);
  int contacts = 0, exact_used = 0;
  for (int trial = 0; trial < 600; ++trial) {
    ElementaryPoints in{};
    const bool snapped = trial % 3 != 0;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 3; ++k) in.xyz[i][j][k] = snapped ? grid(rng) * 0.5 : coordinate(rng);
    if (trial % 5 == 0)  // a flat configuration: every z equal
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j) in.xyz[i][j][2] = 0.25;
    for (ElementaryKind kind : {ElementaryKind::VertexFace, ElementaryKind::EdgeEdge}) {
      ElementaryStats stats;
      const double t = first_contact(kind, in, &stats);
      ASSERT_EQ(t, first_contact_exact_only(kind, in)) << "trial " << trial;
      contacts += t >= 0;
      exact_used += stats.exact_intervals > 0;
    }
  }
  // The inputs exercise both outcomes and the fallback.
  EXPECT_GT(contacts, 40);
  EXPECT_GT(exact_used, 5);
}

TEST(Elementary, FilterAloneNeverContradictsTheHost) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> grid(-2, 2);
  int decided = 0;
  for (int trial = 0; trial < 500; ++trial) {
    ElementaryPoints in{};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 3; ++k) in.xyz[i][j][k] = grid(rng) * 0.25;
    for (ElementaryKind kind : {ElementaryKind::VertexFace, ElementaryKind::EdgeEdge}) {
      const double filtered = filtered_first_contact(kind, in);
      if (filtered == kNeedsExact) continue;
      ++decided;
      ASSERT_EQ(filtered, first_contact(kind, in)) << "trial " << trial;
    }
  }
  EXPECT_GT(decided, 500);
}

TEST(Elementary, NonFiniteInputIsRefused) {
  auto in = points(still(0, 0, 0), still(1, 0, 0), still(0, 1, 0), still(0, 0, 1));
  in.xyz[2][1][0] = std::nan("");
  EXPECT_THROW(first_contact(ElementaryKind::VertexFace, in), std::domain_error);
  EXPECT_EQ(filtered_first_contact(ElementaryKind::VertexFace, in), kNeedsExact);
}

TEST(Elementary, HugeAndTinyCoordinatesTakeTheExactPath) {
  // Beyond the filter's range: the same configuration scaled by 2^300 and by 2^-300 gives the same
  // time (scaling by a power of two changes no sign).
  auto in = points({0.2, 0.2, 1, 0.2, 0.2, -1}, still(0, 0, 0), still(1, 0, 0), still(0, 1, 0));
  const double t = first_contact(ElementaryKind::VertexFace, in);
  for (int e : {300, -300}) {
    ElementaryPoints scaled = in;
    for (auto& point : scaled.xyz)
      for (auto& end : point)
        for (double& x : end) x = std::ldexp(x, e);
    EXPECT_EQ(first_contact(ElementaryKind::VertexFace, scaled), t);
  }
}

TEST(Elementary, WideExponentSpanTakesTheArbitraryPrecisionPath) {
  // A corner at 1e-300 beside coordinates near 1: more than 1 000 bits on one common scale, past
  // the fixed-width integers; the answer is still the all-exact one, and the vertex still falls
  // through the triangle.
  const auto in = points({0.2, 0.2, 1, 0.2, 0.2, -1}, still(1e-300, 0, 0), still(1, 0, 0), still(0, 1, 0));
  const double t = both_paths(ElementaryKind::VertexFace, in);
  expect_time_near(t, 0.5);
}

}  // namespace
}  // namespace kdopcd::ccd
