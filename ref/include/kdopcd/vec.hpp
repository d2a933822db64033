#pragma once
// Geometry value types of the reference: Eigen fixed-size doubles.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace kdopcd {
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
}  // namespace kdopcd
