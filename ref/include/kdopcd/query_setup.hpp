#pragma once
// The query set-up: the one code that turns a pose into what a query's SAT and triangle unit are
// programmed with (docs/fixed-point.md §2, "A host that drives the fixed-point hardware"):
//   - per axis, the double record of the float SAT: L, the face triples jA / jB with their mapping
//     vectors PA / PB, and p = L . T (the pose's own translation, file frames);
//   - per axis, the integer record of the fixed SAT (QuantizedAxis, the accelerators' axis table):
//     P' = floor(P 2^c) and p' = floor(clamp(RD((L . T_c) / s), -4, 4) 2^z), T_c the centred translation;
//   - the triangle unit's M', T' (QuantizedPose) of the centred pose.
// The reference's make_sat_setup, the SystemC model, both RTL drivers, co-simulation and the CUDA
// multibody engine all take their axes and pose from here; collide()'s fixed backend makes the
// same integers in SIMD lanes (ProjectedTripleLanes, make_fixed_axis_table), tested bit for bit
// against this code (testbenches/ref/query_setup_test.cpp).
//
// The per-axis core (make_query_axis and what it calls) is KDOPCD_HD plain-data code: CUDA kernels
// run it on an OrientationView in device memory and get the host's integers bit for bit. Its
// arithmetic is written in a fixed order of separately rounded operations (the order of Eigen's
// products that the set-up was first written with); host files that compile it are built with
// -ffp-contract=off, device code with --fmad=false.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kdopcd/config.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/orientation_view.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tri_fixed.hpp"

namespace kdopcd {

// One axis of the set-up in double precision: the float SAT's record (AxisSetup's fields).
struct DoubleAxis {
  double L[3];             // unit axis in the first object's frame
  std::int32_t jA[3];      // face triple of the second object ("A") and its mapping vector
  double PA[3];
  std::int32_t jB[3];      // face triple of the first object ("B")
  double PB[3];
  double p;                // L . T (the float SAT's); L . T_c where quantize_double_axis takes it
};

// What the set-up of one query needs besides the orientation set, as plain data.
struct QueryPoseView {
  double M[9];      // pose.matrix(), row-major
  double T[3];      // pose.translation (file frames): the float SAT's p = L . T
  double Tc[3];     // centred_translation(M, T, first centre, second centre): the fixed SAT's
  double s;         // scene scale, scene_scale(first, second)
  FixedParams fixed;
};

// p = L . T, summed as (L0 T0 + L1 T1) + L2 T2 (Eigen's dot product of two Vector3d).
KDOPCD_HD inline double axis_offset(const double L[3], const double T[3]) {
  return (L[0] * T[0] + L[1] * T[1]) + L[2] * T[2];
}

// Axis `axis` (0 <= axis < k) without p: L and both face triples, for the rotation M (row-major).
// Axis order (documented in sat_setup.hpp): axis 2i is the first object's face normal D_i, with
// the second object projected on u = M^T D_i / |M^T D_i|; axis 2i + 1 is L = u = M D_i / |M D_i|,
// the placed second object's face normal, with the first object projected. The products and the
// normalization are written in the order of operations Eigen 3.4's M.transpose() * D, M * D and
// normalized() took when the set-up was first written; u is the product divided by the square root
// of its squared norm when that is above 0, else the product itself. The projected object's triple
// is find_triple(cube_cell(u), u); the owning object's is its own_direction_triple, P = (-1, 0, 0).
KDOPCD_HD inline SetupStatus make_axis_geometry(const OrientationView& set, const double M[9], int axis,
                                                DoubleAxis& out) {
  const int i = axis / 2;
  const double* D = set.directions + 3 * i;
  double v0, v1, v2;
  if (axis % 2 == 0) {  // M^T D: the first object's own direction; the second object projected
    v0 = (M[0] * D[0] + M[3] * D[1]) + M[6] * D[2];
    v1 = (M[1] * D[0] + M[4] * D[1]) + M[7] * D[2];
    v2 = (M[2] * D[0] + M[5] * D[1]) + M[8] * D[2];
  } else {  // M D: the second object's; the first projected (Eigen summed the last row's last two first)
    v0 = (M[0] * D[0] + M[1] * D[1]) + M[2] * D[2];
    v1 = (M[3] * D[0] + M[4] * D[1]) + M[5] * D[2];
    v2 = (M[7] * D[1] + M[8] * D[2]) + M[6] * D[0];
  }
  const double squared = (v0 * v0 + v1 * v1) + v2 * v2;
  if (squared > 0) {
    const double norm = std::sqrt(squared);
    v0 /= norm, v1 /= norm, v2 /= norm;
  }
  const double u[3] = {v0, v1, v2};
  const bool own_first = axis % 2 == 0;
  std::int32_t* j_projected = own_first ? out.jA : out.jB;
  double* P_projected = own_first ? out.PA : out.PB;
  std::int32_t* j_own = own_first ? out.jB : out.jA;
  double* P_own = own_first ? out.PB : out.PA;
  const SetupStatus status = find_triple(set, cube_cell(v0, v1, v2), u, j_projected, P_projected);
  for (int c = 0; c < 3; ++c) {
    out.L[c] = own_first ? D[c] : u[c];
    j_own[c] = set.own_triples[3 * i + c];
    P_own[c] = c == 0 ? -1.0 : 0.0;
  }
  return status;
}

// The fixed SAT's integers of an axis whose p is L . T_c (quantize_axis): P' = quantize_mapping(P, c)
// of both triples and p' = quantize_offset(scale_offset(p, s), z), which quantize_scaled_offset
// computes (the same integer, mostly without a library fma and nextafter).
KDOPCD_HD inline QuantizedAxis quantize_double_axis(const DoubleAxis& axis, double s, const FixedParams& f) {
  QuantizedAxis q;
  for (int c = 0; c < 3; ++c) {
    q.jA[c] = axis.jA[c];
    q.jB[c] = axis.jB[c];
    q.PA[c] = quantize_mapping(axis.PA[c], f.c);
    q.PB[c] = quantize_mapping(axis.PB[c], f.c);
  }
  q.p = quantize_scaled_offset(axis.p, s, f.z);
  return q;
}

KDOPCD_HD inline bool fixed_params_valid(const FixedParams& f) {
  auto in_range = [](int bits) { return bits >= kMinFixedBits && bits <= kMaxFixedBits; };
  return in_range(f.b) && in_range(f.c) && in_range(f.z);
}

KDOPCD_HD inline bool scale_valid(double s) { return s > 0 && s <= std::numeric_limits<double>::max(); }  // not NaN

// The per-axis core: axis `axis` of the query, as the float SAT's record (p = L . T; may be null)
// and as the fixed SAT's integers (p' of L . Tc at q.s; may be null). Ok, or why not: a status
// from make_axis_geometry, BadFixedParams or BadScale (the outputs are then unspecified).
KDOPCD_HD inline SetupStatus make_query_axis(const OrientationView& set, const QueryPoseView& q, int axis,
                                             DoubleAxis* float_axis, QuantizedAxis* fixed_axis) {
  if (fixed_axis) {
    if (!fixed_params_valid(q.fixed)) return SetupStatus::BadFixedParams;
    if (!scale_valid(q.s)) return SetupStatus::BadScale;
  }
  DoubleAxis geometry;
  const SetupStatus status = make_axis_geometry(set, q.M, axis, geometry);
  if (status != SetupStatus::Ok) return status;
  if (fixed_axis) {
    geometry.p = axis_offset(geometry.L, q.Tc);
    *fixed_axis = quantize_double_axis(geometry, q.s, q.fixed);
  }
  if (float_axis) {
    geometry.p = axis_offset(geometry.L, q.T);
    *float_axis = geometry;
  }
  return SetupStatus::Ok;
}

// The triangle unit's quantized pose of the centred pose (rotation M row-major, translation Tc) at
// scale s (quantize_pose): M' = nearest-even(M 2^m), T' = nearest-even((Tc / s) 2^(v+m)), in_range
// false (M', T' zero) where some |Tc_i / s| > 4 or is not finite.
KDOPCD_HD inline SetupStatus make_triangle_pose(const double M[9], const double Tc[3], double s,
                                                TriangleFixedParams params, QuantizedPose& out) {
  out = QuantizedPose{};
  out.params = params;
  out.scale = s;
  if (params.v < 1 || params.m < 1 || params.v + params.m > kMaxTriangleFixedBits) return SetupStatus::BadTriangleParams;
  if (!scale_valid(s)) return SetupStatus::BadScale;
  double t[3];
  for (int i = 0; i < 3; ++i) {
    t[i] = Tc[i] / s;
    if (!(std::fabs(t[i]) <= 4.0)) return SetupStatus::Ok;  // also NaN and infinity: in_range stays false
  }
  for (int e = 0; e < 9; ++e)
    if (!(std::fabs(M[e]) <= std::numeric_limits<double>::max())) return SetupStatus::NonFiniteRotation;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out.M[i][j] = static_cast<std::int64_t>(std::nearbyint(std::ldexp(M[3 * i + j], params.m)));
    out.T[i] = static_cast<std::int64_t>(std::nearbyint(std::ldexp(t[i], params.v + params.m)));
  }
  out.in_range = true;
  return SetupStatus::Ok;
}

}  // namespace kdopcd

// Host part: the whole set-up of a query from the two trees, its exceptions, and the views.
namespace kdopcd {

// The matrix, translation, centred translation, scale and parameters of a query as plain data:
// M = pose.matrix(), Tc = centred_translation(M, pose.translation, first_centre, second_centre).
QueryPoseView make_query_pose_view(const Pose& pose, const Vec3& first_centre, const Vec3& second_centre, double s,
                                   const FixedParams& fixed);

// The whole set-up of one query (every axis of the orientation set, in the order above).
struct QuerySetup {
  double scale = 1;                       // s = scene_scale(first, second)
  Pose centred;                           // the pose in the centred frames: its rotation and T_c
  std::vector<DoubleAxis> float_axes;     // the float SAT's axes (p = L . T of the pose as given)
  std::vector<QuantizedAxis> fixed_axes;  // the fixed SAT's axis table (p' of L . T_c at s)
  QuantizedPose triangle_pose;            // the triangle unit's M', T' (in_range false: no contact)
};

// Throws InputError for fixed params outside [kMinFixedBits, kMaxFixedBits] (validate_fixed_params),
// std::invalid_argument for bad triangle params (check_triangle_params) or a non-finite rotation,
// std::logic_error where the orientation set finds no triple (a bug).
QuerySetup make_query_setup(const DopTree& first, const DopTree& second, const Pose& pose, const FixedParams& fixed,
                            const TriangleFixedParams& tri);

// A status other than Ok as the exception the host code throws for it (`what` names the caller).
[[noreturn]] void throw_setup_status(SetupStatus status, const char* what);

// DoubleAxis as the host's AxisSetup and back (the same fields).
AxisSetup to_axis_setup(const DoubleAxis& axis);
DoubleAxis to_double_axis(const AxisSetup& axis);

}  // namespace kdopcd
