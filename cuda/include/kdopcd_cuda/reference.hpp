#pragma once
// The reference answer a task of the narrow phase is checked against (`kdop multibody --check`,
// the CUDA-part tests): kdopcd::collide with the arithmetic the engine itself uses.
#include <cstdint>

#include "kdopcd/collide.hpp"
#include "kdopcd_cuda/multibody.hpp"
#include "kdopcd_cuda/narrow_runner.hpp"

namespace kdopcd::cuda {

// kdopcd::collide of the two trees at `relative` (the second object in the first one's frame),
// with the options' SAT, axes, descent rule and fixed-point bits, and the engine's triangle test:
// the exact test on the second object's vertices placed by `relative` (place_vertices), for
// either SAT.
//   float SAT: collide(first, second, relative, ...): exactly that.
//   fixed SAT: collide on the set-up of the centred relative pose with those placed vertices (the
//              fixed SAT of collide(pose, SatBackend::Fixed), verdict for verdict, and the exact
//              triangle test). collide(pose, SatBackend::Fixed) itself decides triangle pairs
//              with the fixed-point triangle unit, whose contacts differ from the exact test's
//              for pairs closer than the unit's delta (docs/triangle-unit.md §4): not the
//              engine's answer.
QueryResult reference_query(const DopTree& first, const DopTree& second, const Pose& relative,
                            const NarrowOptions& options);

// reference_query for objects (first, second) of a world at their relative pose.
QueryResult reference_pair_query(const MultibodyWorld& world, std::uint32_t first, std::uint32_t second,
                                 const NarrowOptions& options);

}  // namespace kdopcd::cuda
