#pragma once
// One collision query between two DOP-trees at a pose, with a chosen SAT backend, and the
// brute-force check every backend is held to.
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd {

enum class SatBackend {
  Float,  // Eq. 3-6 in double precision
  Exact,  // Eq. 3-6 exactly from the same doubles (slow; the verification reference)
};
SatBackend parse_sat_backend(const std::string& name);  // throws InputError
const char* to_string(SatBackend backend);

// Trees must share k. The second tree's object is placed by `pose`; contacts are pairs
// (first triangle, second triangle) whose closed triangles intersect, decided exactly on the
// placed double coordinates (place_vertices).
QueryResult collide(const DopTree& first, const DopTree& second, const Pose& pose, const TraversalOptions& options,
                    SatBackend backend = SatBackend::Float);

// Same query against an already computed set-up (so callers can time or reuse it).
QueryResult collide(const DopTree& first, const DopTree& second, const SatSetup& setup,
                    const std::vector<Vec3>& placed_second_vertices, const TraversalOptions& options,
                    SatBackend backend);

// Every triangle pair tested with the exact triangle test (multithreaded; an exact bounding-box
// reject in front of it changes no answer). Sorted ascending.
std::vector<ContactPair> brute_force_contacts(const Mesh& first, const Mesh& second, const Pose& pose);

}  // namespace kdopcd
