#pragma once
// One collision query between two DOP-trees at a pose, with a chosen SAT backend, and the
// brute-force check every backend is held to.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd {

enum class SatBackend {
  Float,  // Eq. 3-6 in double precision
  Exact,  // Eq. 3-6 exactly from the same doubles (slow; the verification reference)
  Fixed,  // Eq. 22 in integers (sat_fixed.hpp): bit-accurate with the model, the RTL and the GPU
};
SatBackend parse_sat_backend(const std::string& name);  // throws InputError
const char* to_string(SatBackend backend);

// The triangle test of a query: (first triangle, second triangle) -> the closed triangles
// intersect. Empty means the exact test on the placed double coordinates (the default of every
// backend); the fixed-point triangle unit plugs in here.
using TriangleTest = std::function<bool(std::uint32_t first_triangle, std::uint32_t second_triangle)>;

// Trees must share k. The second tree's object is placed by `pose`; contacts are pairs
// (first triangle, second triangle) whose closed triangles intersect, decided exactly on the
// placed double coordinates (place_vertices) by the float and exact backends. `fixed` (b, c, z)
// is used by SatBackend::Fixed only; that backend works in the trees' centred frames
// (centred_pose, centred_coefficients; docs/fixed-point.md §2), quantizes each tree once per
// scene scale and keeps it with the tree (quantized_tree in sat_fixed.hpp), and decides triangle
// pairs with the fixed-point triangle unit (tri_fixed.hpp) at `tri` (v, m).
//
// options.threads runs one query on several threads (TraversalOptions); the result is the same.
QueryResult collide(const DopTree& first, const DopTree& second, const Pose& pose, const TraversalOptions& options,
                    SatBackend backend = SatBackend::Float, const FixedParams& fixed = FixedParams{},
                    const TriangleFixedParams& tri = TriangleFixedParams{});

// Same query against an already computed set-up (so callers can time or reuse it), with an
// optional triangle test (see TriangleTest; called from several threads when options.threads
// is not 1). For SatBackend::Fixed the set-up is taken to be in
// the centred frames: make it with make_sat_setup(first.orientations(), centred_pose(first,
// second, pose)) (for the float and exact backends: with `pose` itself).
QueryResult collide(const DopTree& first, const DopTree& second, const SatSetup& setup,
                    const std::vector<Vec3>& placed_second_vertices, const TraversalOptions& options,
                    SatBackend backend, const FixedParams& fixed = FixedParams{},
                    const TriangleTest& triangle_test = TriangleTest{});

// Whether collide()'s float backend takes the wide descent with these options (TraversalOptions::
// wide: one thread, the larger-node rule, an unbounded stack; from a pose).
bool takes_wide_descent(const TraversalOptions& options);
// Axes per DOP pair that collide() from a pose tests with these options and backend:
// options.axes (at most k); with 0, every k axes, except kWideDescentAxes (at most k) where the
// float backend takes the wide descent.
int collide_axes_per_pair(const TraversalOptions& options, int k, SatBackend backend);

// Every triangle pair tested with the exact triangle test (multithreaded; an exact bounding-box
// reject in front of it changes no answer). Sorted ascending.
std::vector<ContactPair> brute_force_contacts(const Mesh& first, const Mesh& second, const Pose& pose);

}  // namespace kdopcd
