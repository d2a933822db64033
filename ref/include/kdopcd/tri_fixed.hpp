#pragma once
// The hardware triangle unit's fixed-point triangle test (docs/triangle-unit.md, docs/design.md §3), bit-accurate: the RTL
// triangle unit, the SystemC model and the GPU integer path give the same verdict for every pair.
// docs/triangle-unit.md documents the formats, the widths and the error bound `delta`.
//
// Formats (v, m = TriangleFixedParams; s = scene scale, the largest |DOP coefficient| over both
// trees, so every vertex coordinate satisfies |x / s| <= 1):
//   stored vertex   q  = quantize_vertex(x / s, v)          |q|  <= 2^v        signed v+2 bits
//   rotation        M' = nearest-even(M 2^m)                |M'| <= 2^m        signed m+2 bits
//   translation     T' = nearest-even((T / s) 2^(v+m))      |T'| <= 2^(v+m+2)  signed v+m+4 bits
//                        (defined for |T_i / s| <= 4, the SAT's clamp of p; a larger |T_i / s|
//                         proves the objects disjoint and is reported, never wrapped)
//   first object    X = q << m                              |X|  <= 2^(v+m)
//   placed second   X = M' q + T'                           |X|  <= 7 2^(v+m)  signed v+m+4 bits
// Both objects' coordinates are integers at scale s 2^-(v+m). The test on them is Guigue-Devillers
// on exact integer orientation predicates: its verdict is exact for those integer coordinates.
#include <array>
#include <cstdint>
#include <vector>

#include "kdopcd/fixed_format.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/vec.hpp"

namespace kdopcd {

// v + m may be at most this (so every coordinate stays below kFixedCoordinateLimit); v, m >= 1.
inline constexpr int kMaxTriangleFixedBits = 56;
// fixed_triangles_intersect is exact for every |coordinate| < 2^60 (int64 coordinates, __int128
// 2x2 minors, 256-bit 3x3 determinants; see tri_fixed.cpp). Larger inputs throw.
inline constexpr std::int64_t kFixedCoordinateLimit = std::int64_t(1) << 60;

// Throws std::invalid_argument unless 1 <= v, 1 <= m and v + m <= kMaxTriangleFixedBits.
// Inline: every fixed query checks them, and the out-of-line check was a noticeable part of a
// separated one.
[[noreturn]] void throw_bad_triangle_params(TriangleFixedParams params);
inline void check_triangle_params(TriangleFixedParams params) {
  if (params.v < 1 || params.m < 1 || params.v + params.m > kMaxTriangleFixedBits) [[unlikely]]
    throw_bad_triangle_params(params);
}

// Bit widths (two's complement, sign included) of every stage of the triangle unit: the largest
// magnitude each stage can reach for in-range inputs fits in this many bits. docs/triangle-unit.md
// derives them; the RTL sizes its datapath from them.
struct TriangleUnitWidths {
  int vertex;       // stored vertex q:                    v + 2
  int rotation;     // M' entry:                           m + 2
  int product_sum;  // M' q (sum of three products):       v + m + 3
  int translation;  // T':                                 v + m + 4
  int coordinate;   // X (both objects):                   v + m + 4
  int difference;   // X_a - X_b (|.| <= 2^(v+m+3)):       v + m + 5
  int minor;        // 2x2 minor / orient2d determinant:   2(v + m) + 9
  int determinant;  // orient3d determinant:               3(v + m) + 13
};
TriangleUnitWidths triangle_unit_widths(TriangleFixedParams params);

using FixedVertex = std::array<std::int64_t, 3>;

// Vertex coordinates are integers at scale s 2^-(v+m) (the scale itself is not stored).
struct FixedTriangle {
  std::array<FixedVertex, 3> v;
};

// The quantized pose of the second object. `in_range` is false when some |T_i / s| > 4 (or T is
// not finite): then M', T' are left zero and placing vertices throws. Such a pose has no contact
// at all: every vertex has |x_i| <= s and |(M y)_i| <= sqrt(3) s, so |T_i| > (1 + sqrt 3) s
// separates the objects along axis i (docs/triangle-unit.md).
struct QuantizedPose {
  std::array<std::array<std::int64_t, 3>, 3> M{};  // M' = nearest-even(M 2^m), row-major
  FixedVertex T{};                                 // T' = nearest-even((T / s) 2^(v+m))
  TriangleFixedParams params;
  double scale = 0;  // s, so that the second object's vertices can be quantized with the pose
  bool in_range = false;
};

// s must be finite and > 0 (std::invalid_argument). M is pose.matrix(), the same double matrix
// place_vertices uses.
QuantizedPose quantize_pose(const Pose& pose, double s, TriangleFixedParams params);

// The vertices as stored in the tree image: q = quantize_vertex((x - centre) / s, v) per
// coordinate, x - centre rounded once in double (centred_vertices). The fixed backend and the tree
// image use the tree's centre() (docs/fixed-point.md §2); the overload without a centre is the
// file's frame (centre 0). Throws std::out_of_range when some |(x - centre) / s| > 1.
std::vector<FixedVertex> quantize_vertices(const Mesh& mesh, const Vec3& centre, double s, int v);
std::vector<FixedVertex> quantize_vertices(const Mesh& mesh, double s, int v);

// A stored vertex of the first object at the common scale: q << m.
FixedVertex lift_first_vertex(const FixedVertex& q, int m);
// A stored vertex of the second object moved by the quantized pose: M' q + T'. Throws
// std::out_of_range when !pose.in_range or |q| > 2^v.
FixedVertex place_fixed_vertex(const QuantizedPose& pose, const FixedVertex& q);

// Every triangle of the first object / of the placed second object (mesh triangle order). The
// second object's vertices are quantized with pose.scale; placing throws std::out_of_range for a
// pose that is not in_range.
std::vector<FixedTriangle> first_fixed_triangles(const Mesh& first, double s, TriangleFixedParams params);
std::vector<FixedTriangle> placed_fixed_triangles(const Mesh& second, const QuantizedPose& pose);
std::vector<FixedTriangle> placed_fixed_triangles(const Mesh& second, double s, TriangleFixedParams params,
                                                  const Pose& pose);

// Exact signs (-1, 0, +1) on integer coordinates, |coordinate| < kFixedCoordinateLimit, with the
// conventions of predicates.hpp: orient3d = sign of (b-a) . ((c-a) x (d-a)); orient2d = sign of
// (b-a) x (c-a).
int fixed_orient3d(const FixedVertex& a, const FixedVertex& b, const FixedVertex& c, const FixedVertex& d);
int fixed_orient2d(std::int64_t ax, std::int64_t ay, std::int64_t bx, std::int64_t by, std::int64_t cx,
                   std::int64_t cy);

// Do the closed triangles share a point? Exact for the integer coordinates; degenerate triangles
// are the segment or point they are. Throws std::out_of_range for |coordinate| >= 2^60.
bool fixed_triangles_intersect(const FixedTriangle& a, const FixedTriangle& b);

// Upper bound, in scene units, on the distance between the double-precision triangles (first
// object's vertices, second object's place_vertices) of a pair whose fixed-point verdict differs
// from triangles_intersect on those doubles (docs/triangle-unit.md):
//   delta = s ( sqrt3 (2^-v + 2^-(v+m+1)) + 3 sqrt3 2^-(m+1) (1 + 2^-(v+1)) + 2^-46 ).
double triangle_delta(double s, TriangleFixedParams params);

// A fixed vertex back in scene units: X s 2^-(v+m) (rounded once to double).
Vec3 fixed_to_scene(const FixedVertex& x, double s, TriangleFixedParams params);

// Euclidean distance between two closed triangles (possibly degenerate), in double precision:
// 0 when triangles_intersect says they meet, else the least vertex-triangle / edge-edge distance.
double triangle_distance(const Vec3& p0, const Vec3& p1, const Vec3& p2,  //
                         const Vec3& q0, const Vec3& q1, const Vec3& q2);

}  // namespace kdopcd
