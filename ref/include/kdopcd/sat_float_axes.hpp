#pragma once
// The float pair test of collide() on make_sat_setup's axes, in two forms with the same verdict:
// axis by axis (scalar, stops at the first separating axis), and every axis at once in SIMD
// lanes (Google Highway, the widest instruction set the CPU has, chosen at run time).
//
// Every axis of make_sat_setup is one object's own face normal (even axes the first object's,
// odd axes the second's), whose mapping vector is exactly (-1, 0, 0): that object's interval is
// [-c[own_min], c[own_max]] without a product. The result is bit-identical to float_axis_diffs,
// since -1 * x = -x and adding 0 * y changes no finite sum (up to the sign of a zero, which no
// strict comparison sees). The SIMD form evaluates, per lane, the very operations of the scalar
// form in the same order (products, then left-to-right sums, no fused multiply-add), so both
// round alike and decide alike, NaN and signed zeros included.
#include <cstddef>
#include <cstdint>
#include <span>

#include "kdopcd/sat_float.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd {

// One axis in the form the scalar loop wants.
struct FloatAxis {
  int own_min, own_max;  // own object's interval: [-own[own_min], own[own_max]]
  int j[3], jk[3];       // the other object's triple and the opposite faces
  double P[3];
  double p;
};

// Fills `out` for axis `index` of a set-up; false if the axis is not its own object's face
// normal with mapping vector (-1, 0, 0) (then only float_axis_diffs evaluates it).
bool make_float_axis(const AxisSetup& axis, int index, int half, FloatAxis& out);
// Axis `index` of the pose (M, T) directly: what make_float_axis(make_axis_setup(set, M, T,
// index), index, set.half(), out) makes (always an axis of this form), without the AxisSetup.
void make_float_axis(const OrientationSet& set, const Mat3& M, const Vec3& T, int index, FloatAxis& out);
// The same axis from the pose's projected triples, in which it is made (projected.make(set, M, index)).
void make_float_axis(const OrientationSet& set, const ProjectedTripleLanes& projected, const Vec3& T, int index,
                     FloatAxis& out);

// Even axis: the first object ("B", coefficients b) owns it, the second ("A", a) is projected.
inline bool separates_first_own(const FloatAxis& f, const double* a, const double* b) {
  const double a_min = f.P[0] * a[f.j[0]] + f.P[1] * a[f.j[1]] + f.P[2] * a[f.j[2]];
  const double a_max = -(f.P[0] * a[f.jk[0]] + f.P[1] * a[f.jk[1]] + f.P[2] * a[f.jk[2]]);
  return ((a_min + f.p) - b[f.own_max]) > 0 || (-b[f.own_min] - (a_max + f.p)) > 0;
}

// Odd axis: the second object ("A") owns it, the first ("B") is projected.
inline bool separates_second_own(const FloatAxis& f, const double* a, const double* b) {
  const double b_min = f.P[0] * b[f.j[0]] + f.P[1] * b[f.j[1]] + f.P[2] * b[f.j[2]];
  const double b_max = -(f.P[0] * b[f.jk[0]] + f.P[1] * b[f.jk[1]] + f.P[2] * b[f.jk[2]]);
  return ((-a[f.own_min] + f.p) - b_max) > 0 || (b_min - (a[f.own_max] + f.p)) > 0;
}

// The scalar test of the first n of `axes` (make_sat_setup's order): the first separating axis.
inline PairVerdict float_pair_test_scalar(std::span<const FloatAxis> axes, int n, const double* a, const double* b) {
  for (int i = 0; i < n; ++i)
    if (i % 2 == 0 ? separates_first_own(axes[std::size_t(i)], a, b) : separates_second_own(axes[std::size_t(i)], a, b))
      return {true, i + 1};
  return {false, n};
}

// Lanes per parity: >= 13 (k/2 of the largest k) and a multiple of any vector's lanes of doubles
// up to 2048 bits. make_float_axis_table fills the first 16 (axes, then padding), all that the
// SIMD test, of at most 4 lanes, reads.
inline constexpr int kFloatAxisSlots = 32;

// The axes of one parity (even: the first object owns them; odd: the second) in structure-of-
// arrays form: lane e is axis 2e (even) or 2e + 1 (odd). Indices are 64-bit because that is what
// a gather of doubles takes. Padding lanes index face 0 with P = 0 and are masked off.
struct FloatAxisLanes {
  alignas(64) std::int64_t j[3][kFloatAxisSlots];
  alignas(64) std::int64_t jk[3][kFloatAxisSlots];
  alignas(64) std::int64_t own_min[kFloatAxisSlots];
  alignas(64) std::int64_t own_max[kFloatAxisSlots];
  alignas(64) double P[3][kFloatAxisSlots];
  alignas(64) double p[kFloatAxisSlots];
  int count = 0;  // axes of this parity
};

// The first n axes of a query for the SIMD test.
struct FloatAxisTable {
  FloatAxisLanes even, odd;
  int axes = 0;
  int half = 0;  // k / 2
  // Every axis's owning interval is [-c[e + half], c[e]] for lane e (make_sat_setup's own
  // triples) and half is a multiple of 4: the SIMD tests read those lanes contiguously.
  bool own_contiguous = false;
};

// axes: at least n axes in make_sat_setup's order (n <= kMaxK = 26).
void make_float_axis_table(std::span<const FloatAxis> axes, int n, FloatAxisTable& out);
// The same table for the first n axes of a pose, bit for bit the table of make_float_axis(set, M,
// T, i) for i < n, from the pose's projected triples (made for every lane: make_all(set, M, n)),
// in SIMD lanes straight into the table.
void make_float_axis_table(const OrientationSet& set, const ProjectedTripleLanes& projected, const Vec3& T, int n,
                           FloatAxisTable& out);

// The SIMD test: the verdict and axes_tested of float_pair_test_scalar on the table's axes.
// a: the second object's node coefficients, b: the first object's.
using FloatPairTestLanes = PairVerdict (*)(const FloatAxisTable& table, const double* a, const double* b);
// The implementation for the best instruction set of this CPU; fetch once, call per pair.
FloatPairTestLanes float_pair_test_lanes();
// The same test split into each node's half (collide() keeps a node's half for the rest of a
// query, so a node met again, as the node not split by the descent rule always is, costs no
// products). Per parity, difference d of lane e is formed as
//   diff1 = second.X1[e] - first.X1[e],   diff2 = first.X2[e] - second.X2[e]
// from halves that are the very sub-expressions of separates_first_own / separates_second_own:
// even lanes (the first object owns the axis): second X1 = a_min + p, X2 = a_max + p; first
// X1 = b[own_max], X2 = -b[own_min]; odd lanes (the second owns it): second X1 = -a[own_min] + p,
// X2 = a[own_max] + p; first X1 = b_max, X2 = b_min. Each value is rounded as there, so the
// verdict and the axes tested are those of the other two forms, NaN and signed zeros included.
inline constexpr int kNodeTermLanes = 16;  // filled lanes per parity, as make_float_axis_table
struct FloatNodeTerms {
  alignas(64) double even1[kNodeTermLanes], even2[kNodeTermLanes];
  alignas(64) double odd1[kNodeTermLanes], odd2[kNodeTermLanes];
};
// The test of the pair (a, b) through the two nodes' halves. Only the projected object's half is
// kept (terms_a: the second node's even lanes; terms_b: the first node's odd lanes): the owning
// object's half is the node's own coefficients (and p), which the test reads as it goes. The
// halves are made in blocks of the test's vector width (4 lanes with AVX2 and wider, 2 with
// 128-bit vectors), in the test's order: bit i of a_blocks / b_blocks says block i of that half
// is made; a block the test reaches unmade is made (from the node's coefficients) and its bit
// set, so a pair separated in the first block makes only that block of a new half. Pass 0 for a
// half that holds nothing of this node and table yet.
using FloatPairTestTerms = PairVerdict (*)(const FloatAxisTable& table, const double* a, const double* b,
                                           FloatNodeTerms& terms_a, std::uint32_t& a_blocks,
                                           FloatNodeTerms& terms_b, std::uint32_t& b_blocks);
FloatPairTestTerms float_pair_test_terms();  // fetch once, call per pair
// The same test of a query's node pair (nf, ns) in one call, with the nodes' halves from the
// calling thread's cache of them (ref/src/node_terms_cache.hpp, tagged with `query`): collide()'s
// pair test after the root. One call instead of a lookup, two cache finds and the test's own call
// per pair, which were a third of a pair test's instructions.
struct FloatPairTestContext {
  const FloatAxisTable* table;
  const double* first;   // the first tree's coefficients: node i's k at first + i k
  const double* second;  // the second tree's
  std::size_t k;
  std::uint64_t query;   // the query's number in the node-terms caches
};
using FloatPairTestNodes = PairVerdict (*)(const FloatPairTestContext& context, std::int32_t nf, std::int32_t ns);
FloatPairTestNodes float_pair_test_nodes();  // fetch once, call per pair

// The pair tests of one node against up to kWideLanes nodes of the other tree at once, the
// children of a node of collide()'s wide descent (ref/src/wide_tree.hpp): the nodes in lanes, face
// f of lane l at lanes[f * kWideLanes + l] (lanes past `count` are read but decide nothing),
// `other` the other node's k coefficients, lanes_first whether the lanes hold the first object's
// nodes. Every pair is decided on the table's axes in make_sat_setup's order with the operations
// of separates_first_own / separates_second_own: bit l of the result is set where pair l is not
// separated, and axis_tests grows by the sum of the pairs' axes_tested, all as
// float_pair_test_scalar would give them pair by pair.
inline constexpr int kWideLanes = 4;
// The other node's half of the axes the last call reached (X1, X2 of FloatNodeTerms in axis
// order), kept for the next call with the same node in the same role: the descent tests a node
// against the children of several nodes in a row. One per query, starting empty.
struct WideOtherTerms {
  const double* node = nullptr;  // the other node's coefficients, or null
  bool lanes_first = false;
  int made = 0;                  // axes [0, made) are in x1, x2
  double x1[kFloatAxisSlots * 2], x2[kFloatAxisSlots * 2];
};
using FloatPairTestWide = std::uint32_t (*)(const FloatAxisTable& table, const double* lanes, int count,
                                            bool lanes_first, const double* other, WideOtherTerms& other_terms,
                                            std::uint64_t& axis_tests);
FloatPairTestWide float_pair_test_wide();  // fetch once, call per node

// Which instruction set that is (e.g. "AVX3", "AVX2", "SSE4", "EMU128"), for reports.
const char* float_pair_test_target();

}  // namespace kdopcd
