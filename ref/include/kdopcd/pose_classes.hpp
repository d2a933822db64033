#pragma once
// Poses in the four test classes of Damkjær 2007, §9 (docs/references.md), for any pair of
// meshes, found by search rather than written by hand, so tests and benchmarks work for every
// mesh pair:
//   intersecting     - the objects' triangles intersect;
//   close proximity  - no contact, gap 0.2% of the object size: many overlapping DOP pairs;
//   small proximity  - no contact, gap 5% of the size: few overlapping DOP pairs;
//   separated        - gap 50% of the size.
// The second object keeps a given rotation and moves along a direction, from the first object's
// centre (or, where the objects do not touch there, from the first object's farthest vertex along
// the direction); a bisection on the distance finds where contacts stop (the touching distance).
// "Size" is the larger root DOP's largest extent along the coordinate axes.
#include <array>
#include <string>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/pose.hpp"

namespace kdopcd {

enum class PoseClass { Intersecting, CloseProximity, SmallProximity, Separated };
inline constexpr std::array<PoseClass, 4> kPoseClasses{PoseClass::Intersecting, PoseClass::CloseProximity,
                                                       PoseClass::SmallProximity, PoseClass::Separated};
const char* to_string(PoseClass c);

struct ClassifiedPose {
  PoseClass kind;
  Pose pose;
};

// Throws InputError if no contact exists at either start: the two meshes have no intersecting
// pose of this kind.
std::array<ClassifiedPose, 4> make_pose_classes(const DopTree& first, const DopTree& second,
                                               const Eigen::Quaterniond& rotation, const Vec3& direction);

}  // namespace kdopcd
