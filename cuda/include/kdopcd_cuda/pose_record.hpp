#pragma once
// Poses as plain data, for code the GPU runs too: a world placement per object, and the relative
// pose of an object pair (the second object in the first one's frame), computed by one KDOPCD_HD
// function on the host and on the device, so that both get the same doubles.
#include <cmath>

#include "kdopcd/config.hpp"
#include "kdopcd/pose.hpp"

namespace kdopcd::cuda {

struct PoseRecord {
  double q[4];  // unit quaternion (w, x, y, z)
  double t[3];
};

inline PoseRecord to_record(const Pose& p) {
  const auto& q = p.rotation;
  return PoseRecord{{q.w(), q.x(), q.y(), q.z()}, {p.translation.x(), p.translation.y(), p.translation.z()}};
}
inline Pose to_pose(const PoseRecord& r) {
  Pose p;
  p.rotation = Eigen::Quaterniond(r.q[0], r.q[1], r.q[2], r.q[3]);  // already unit: not normalized again
  p.translation = Vec3(r.t[0], r.t[1], r.t[2]);
  return p;
}

// Object b in object a's frame: q = normalize(conj(q_a) q_b), t = R_a^T (t_b - t_a), each product
// and sum rounded in the order written (R_a = rotation_matrix(q_a), Pose::matrix()'s doubles).
KDOPCD_HD inline PoseRecord relative_pose_record(const PoseRecord& a, const PoseRecord& b) {
  const double aw = a.q[0], ax = -a.q[1], ay = -a.q[2], az = -a.q[3];
  const double bw = b.q[0], bx = b.q[1], by = b.q[2], bz = b.q[3];
  double w = ((aw * bw - ax * bx) - ay * by) - az * bz;
  double x = ((aw * bx + ax * bw) + ay * bz) - az * by;
  double y = ((aw * by - ax * bz) + ay * bw) + az * bx;
  double z = ((aw * bz + ax * by) - ay * bx) + az * bw;
  const double norm = sqrt(((w * w + x * x) + y * y) + z * z);
  w /= norm, x /= norm, y /= norm, z /= norm;
  double R[9];
  rotation_matrix(a.q[0], a.q[1], a.q[2], a.q[3], R);
  const double d[3] = {b.t[0] - a.t[0], b.t[1] - a.t[1], b.t[2] - a.t[2]};
  PoseRecord out{{w, x, y, z}, {0, 0, 0}};
  for (int i = 0; i < 3; ++i) out.t[i] = (R[i] * d[0] + R[3 + i] * d[1]) + R[6 + i] * d[2];
  return out;
}

}  // namespace kdopcd::cuda
