#pragma once
// The 64-bit fixed-point pair test of collide() on make_sat_setup's axes, in two forms with the
// same verdict: axis by axis (scalar, stops at the first separating axis), and every axis at once
// in SIMD lanes (Google Highway, the widest instruction set the CPU has, chosen at run time).
// Integer sums are exact in any order, so the lanes decide exactly as narrow_fixed_separates,
// and so as fixed_axis_diffs (sat_fixed.hpp), whenever narrow_fixed_params holds.
//
// Both take each node's own-axis terms (Eq. 22's two sums of an object on its own face normals,
// precomputed per node): for own direction i, own[2i] = P'.x'[j] + sn(x'[j]) and own[2i + 1] the
// same on the antiparallel faces, (j, P) = own_direction_triple(i). Even axis 2i is the first
// object's ("B") own face normal, odd axis 2i + 1 the second's ("A").
#include <cstdint>
#include <span>

#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd {

// Axis i of the scalar test: narrow_fixed_separates with the owning object's sums looked up.
// a / oa: the second object's quantized node and own terms, b / ob the first object's.
inline bool fixed_axis_separates_own(const NarrowFixedAxis& ax, int i, const std::int64_t* a, const std::int64_t* b,
                                     const std::int64_t* oa, const std::int64_t* ob) {
  if (i % 2 == 0)
    return narrow_mapped(ax.PA, a, ax.ja) + ob[i + 1] + ax.p1 > 0 || ob[i] + narrow_mapped(ax.PA, a, ax.jak) - ax.p2 > 0;
  return oa[i - 1] + narrow_mapped(ax.PB, b, ax.jbk) + ax.p1 > 0 || narrow_mapped(ax.PB, b, ax.jb) + oa[i] - ax.p2 > 0;
}

// The two sums of fixed_axis_separates_own without the p terms: axis i separates iff
// s1 + ax.p1 > 0 or s2 - ax.p2 > 0 (integer sums: the same verdict in any order).
inline void fixed_own_axis_sums(const NarrowFixedAxis& ax, int i, const std::int64_t* a, const std::int64_t* b,
                                const std::int64_t* oa, const std::int64_t* ob, std::int64_t& s1, std::int64_t& s2) {
  if (i % 2 == 0) {
    s1 = narrow_mapped(ax.PA, a, ax.ja) + ob[i + 1];
    s2 = ob[i] + narrow_mapped(ax.PA, a, ax.jak);
  } else {
    s1 = oa[i - 1] + narrow_mapped(ax.PB, b, ax.jbk);
    s2 = narrow_mapped(ax.PB, b, ax.jb) + oa[i];
  }
}

// The scalar test of the first n of `axes` (make_sat_setup's order): the first separating axis.
inline PairVerdict fixed_pair_test_scalar(std::span<const NarrowFixedAxis> axes, int n, const std::int64_t* a,
                                          const std::int64_t* b, const std::int64_t* oa, const std::int64_t* ob) {
  for (int i = 0; i < n; ++i)
    if (fixed_axis_separates_own(axes[std::size_t(i)], i, a, b, oa, ob)) return {true, i + 1};
  return {false, n};
}

// Lanes per parity, as kFloatAxisSlots: >= 13 and a multiple of any vector's int64 lanes; the
// first 16 are filled (make_fixed_axis_table), all that the SIMD test of at most 4 lanes reads.
inline constexpr int kFixedAxisSlots = 32;

// The axes of one parity in structure-of-arrays form (lane e: axis 2e or 2e + 1). Both parities
// have the same shape, diff1 = mapped(P, other, j) + own[own1] + p1 and
// diff2 = own[own2] + mapped(P, other, jk) - p2, with `other` the projected object's node
// (the second's for even axes) and `own` the owning object's terms. Padding lanes are masked off.
struct FixedAxisLanes {
  alignas(64) std::int64_t j[3][kFixedAxisSlots];
  alignas(64) std::int64_t jk[3][kFixedAxisSlots];
  alignas(64) std::int64_t P[3][kFixedAxisSlots];
  alignas(64) std::int64_t own1[kFixedAxisSlots];
  alignas(64) std::int64_t own2[kFixedAxisSlots];
  alignas(64) std::int64_t p1[kFixedAxisSlots];
  alignas(64) std::int64_t p2[kFixedAxisSlots];
  int count = 0;
};

struct FixedAxisTable {
  FixedAxisLanes even, odd;
  int axes = 0;
  // Every P' of the table and every coefficient it is applied to fit in int32, so the SIMD test
  // may form P' x' from the low 32 bits of each (exactly the same products): b <= 30, as at the
  // default b = c = 18.
  bool products32 = false;
};

// axes: at least n axes in make_sat_setup's order, own-structured (n <= 26); b: the bits of the
// quantized coefficients the table will be applied to (FixedParams::b).
void make_fixed_axis_table(std::span<const NarrowFixedAxis> axes, int n, int b, FixedAxisTable& out);
// The same table for the first n axes of a pose (own-structured, narrow_fixed_params(f)), from the
// pose's projected triples (made for every lane: make_all(set, M, n)) and its centred translation
// T_c at scale s: bit for bit the table of the axes collide() quantizes one by one (P' of each
// projected triple at c, p' = quantize_scaled_offset(L . T_c, s, z) and its p terms), in SIMD lanes.
void make_fixed_axis_table(const OrientationSet& set, const ProjectedTripleLanes& projected, const Vec3& Tc, double s,
                           const FixedParams& f, int n, FixedAxisTable& out);

// The SIMD test: the verdict and axes_tested of fixed_pair_test_scalar on the table's axes.
using FixedPairTestLanes = PairVerdict (*)(const FixedAxisTable& table, const std::int64_t* a, const std::int64_t* b,
                                           const std::int64_t* oa, const std::int64_t* ob);
FixedPairTestLanes fixed_pair_test_lanes();  // fetch once, call per pair

// The same test split into each node's half, as FloatNodeTerms (sat_float_axes.hpp): per parity,
// lane e separates iff second.X1[e] + first.X1[e] > 0 or second.X2[e] + first.X2[e] > 0. The
// projected object's half is (mapped(P, x, j) + p1, mapped(P, x, jk) - p2), the owning object's
// (own[own1], own[own2]): the even lanes project the second object, the odd lanes the first.
// Integer sums, so the verdict is the other forms' exactly.
inline constexpr int kFixedNodeTermLanes = 16;  // filled lanes per parity, as make_fixed_axis_table
struct FixedNodeTerms {
  alignas(64) std::int64_t even1[kFixedNodeTermLanes], even2[kFixedNodeTermLanes];
  alignas(64) std::int64_t odd1[kFixedNodeTermLanes], odd2[kFixedNodeTermLanes];
};
// The test of the pair through the two nodes' halves, made block by block where the test reaches
// them unmade (from the node's coefficients a or b and own terms oa or ob), with the block masks
// of FloatPairTestTerms.
using FixedPairTestTerms = PairVerdict (*)(const FixedAxisTable& table, const std::int64_t* a, const std::int64_t* b,
                                           const std::int64_t* oa, const std::int64_t* ob, FixedNodeTerms& terms_a,
                                           std::uint32_t& a_blocks, FixedNodeTerms& terms_b,
                                           std::uint32_t& b_blocks);
FixedPairTestTerms fixed_pair_test_terms();  // fetch once, call per pair

}  // namespace kdopcd
