#include "kdopcd_cuda/reference.hpp"

#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_setup.hpp"

namespace kdopcd::cuda {

QueryResult reference_query(const DopTree& first, const DopTree& second, const Pose& relative,
                            const NarrowOptions& options) {
  TraversalOptions t;
  t.axes = options.axes;
  t.rule = descent_rule(options);  // the dynamic stack's volume rule, else the options' rule
  t.leaf_planes = false;           // the GPU tests the k axes alone: counter for counter
  t.wide = false;                  // and descends the binary tree
  if (options.sat != SatBackend::Fixed) return collide(first, second, relative, t, options.sat, options.fixed);
  const SatSetup centred = make_sat_setup(first.orientations(), centred_pose(first, second, relative));
  return collide(first, second, centred, place_vertices(second.mesh(), relative), t, SatBackend::Fixed, options.fixed);
}

QueryResult reference_pair_query(const MultibodyWorld& world, std::uint32_t first, std::uint32_t second,
                                 const NarrowOptions& options) {
  return reference_query(world.tree_of(first), world.tree_of(second),
                         relative_pose(world.pose(first), world.pose(second)), options);
}

}  // namespace kdopcd::cuda
