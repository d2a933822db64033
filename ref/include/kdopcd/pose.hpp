#pragma once
// Rigid poses of the second object: x = R(q) x_second + t (docs/design.md §2), and the pose file format.
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "kdopcd/config.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/vec.hpp"

namespace kdopcd {

// The rotation matrix (row-major) of the unit quaternion (w, x, y, z): Eigen 3.4's
// toRotationMatrix term for term, as KDOPCD_HD code, so that the GPU gets Pose::matrix()'s doubles.
KDOPCD_HD inline void rotation_matrix(double w, double x, double y, double z, double* R) {
  const double tx = 2.0 * x, ty = 2.0 * y, tz = 2.0 * z;
  const double twx = tx * w, twy = ty * w, twz = tz * w;
  const double txx = tx * x, txy = ty * x, txz = tz * x;
  const double tyy = ty * y, tyz = tz * y, tzz = tz * z;
  R[0] = 1.0 - (tyy + tzz);
  R[1] = txy - twz;
  R[2] = txz + twy;
  R[3] = txy + twz;
  R[4] = 1.0 - (txx + tzz);
  R[5] = tyz - twx;
  R[6] = txz - twy;
  R[7] = tyz + twx;
  R[8] = 1.0 - (txx + tyy);
}

struct Pose {
  Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();  // normalized
  Vec3 translation = Vec3::Zero();
  Mat3 matrix() const {
    double R[9];
    rotation_matrix(rotation.w(), rotation.x(), rotation.y(), rotation.z(), R);
    Mat3 m;
    m << R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8];
    return m;
  }
};

// Parses "qw qx qy qz tx ty tz". The quaternion is normalized; a zero or non-finite quaternion,
// a non-finite translation or one beyond the scale limit (scale_limits.hpp), a wrong number of
// fields or a non-number throws InputError whose message starts with `where` (e.g. "poses.txt:12").
Pose parse_pose(const std::string& text, const std::string& where);

// A pose file: one pose per line, '#' starts a comment, blank lines are skipped; a line is at most
// kMaxPoseLineBytes long. A file without a pose is an error. parse_poses reads the same text from
// memory; `name` starts the messages.
inline constexpr std::size_t kMaxPoseLineBytes = std::size_t(1) << 16;
std::vector<Pose> parse_poses(const std::string& text, const std::string& name);
std::vector<Pose> load_poses(const std::string& path);  // the path must be a regular file

// The same file read one line at a time, so that its length costs no memory (kdop's query
// commands stream their poses). The same rules and messages as parse_poses; read errors throw
// InputError too.
class PoseReader {
 public:
  explicit PoseReader(const std::string& path);  // the path must be a regular file
  PoseReader(const PoseReader&) = delete;
  PoseReader& operator=(const PoseReader&) = delete;
  ~PoseReader();
  // The next pose; false after the last one (a file that held none throws instead).
  bool next(Pose& pose);
  std::size_t count() const { return count_; }  // poses read so far

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::string buffer_;     // read ahead; the next line starts at start_
  std::size_t start_ = 0;
  bool eof_ = false;
  int line_ = 0;
  std::size_t count_ = 0;
};

// The second object's vertices in the first object's frame, rounded once in double. Every exact
// triangle test (traversal and brute force) runs on these same doubles.
std::vector<Vec3> place_vertices(const Mesh& mesh, const Pose& pose);
// One vertex, rounded exactly as place_vertices rounds it (R = pose.matrix()).
// Each coordinate is ((R_i0 x_0 + R_i1 x_1) + R_i2 x_2) + t_i, rounded in that order: written out
// rather than Eigen's R * x + t, whose order of summation depends on its vectorization (two rows
// in SIMD lanes, the third as x_0 + (x_1 + x_2) with SSE2), so that the GPU's place_point gives the
// same doubles.
KDOPCD_HD inline void place_point(const double* R_row_major, const double* t, const double* x, double* out) {
  for (int i = 0; i < 3; ++i)
    out[i] = ((R_row_major[3 * i] * x[0] + R_row_major[3 * i + 1] * x[1]) + R_row_major[3 * i + 2] * x[2]) + t[i];
}
inline Vec3 place_vertex(const Mat3& R, const Vec3& t, const Vec3& x) {
  Vec3 out;
  for (int i = 0; i < 3; ++i) out[i] = ((R(i, 0) * x[0] + R(i, 1) * x[1]) + R(i, 2) * x[2]) + t[i];
  return out;
}

// The pose in centred frames (docs/fixed-point.md §2): with x_first = y_first + c_first and
// x_second = y_second + c_second, x_first = M x_second + T becomes y_first = M y_second + T_c,
//   T_c = M c_second + T - c_first,
// each component summed exactly from the doubles (M = pose.matrix()) and rounded once to nearest,
// so far from the origin the large terms cancel without loss, and equal exact values give equal
// T_c. The rotation is the pose's own.
Pose centred_pose(const Pose& pose, const Vec3& first_centre, const Vec3& second_centre);
// T_c alone, from M = pose.matrix() (the same doubles): for a caller that already has the matrix,
// or that needs the centred translation only on some queries.
Vec3 centred_translation(const Mat3& M, const Vec3& translation, const Vec3& first_centre, const Vec3& second_centre);

}  // namespace kdopcd
