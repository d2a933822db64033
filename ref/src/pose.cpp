#include "kdopcd/pose.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <sstream>

#include "kdopcd/error.hpp"
#include "kdopcd/exact_sum.hpp"
#include "kdopcd/file_io.hpp"

namespace kdopcd {

Pose parse_pose(const std::string& text, const std::string& where) {
  std::istringstream in(text);
  std::vector<double> v;
  std::string token;
  while (in >> token) {
    double x = 0;
    const char* first = token.data();
    const char* last = first + token.size();
    // Decimals, or C99 hex floats (0x1.8p-3) for poses that must be bit-exact.
    const bool negative = *first == '-';
    const char* digits = first + (negative || *first == '+');
    const bool hex = last - digits > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    auto [ptr, ec] = hex ? std::from_chars(digits + 2, last, x, std::chars_format::hex) : std::from_chars(first, last, x);
    if (hex && negative) x = -x;
    if (ec != std::errc() || ptr != last)
      throw InputError(fmt::format("{}: '{}' is not a number (expected 'qw qx qy qz tx ty tz')", where, token));
    v.push_back(x);
  }
  if (v.size() != 7)
    throw InputError(fmt::format("{}: expected 7 numbers 'qw qx qy qz tx ty tz', found {}", where, v.size()));
  for (double x : v)
    if (!std::isfinite(x)) throw InputError(fmt::format("{}: non-finite value in pose", where));
  Eigen::Quaterniond q(v[0], v[1], v[2], v[3]);
  const double norm = q.norm();
  if (!(norm > 0) || !std::isfinite(norm))
    throw InputError(fmt::format("{}: quaternion ({}, {}, {}, {}) cannot be normalized", where, v[0], v[1], v[2], v[3]));
  Pose pose;
  pose.rotation = q.normalized();
  pose.translation = Vec3(v[4], v[5], v[6]);
  return pose;
}

std::vector<Pose> load_poses(const std::string& path) {
  return parse_poses(read_whole_file(path, "pose file"), path);
}

std::vector<Pose> parse_poses(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  std::vector<Pose> poses;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    poses.push_back(parse_pose(line, fmt::format("{}:{}", path, number)));
  }
  if (poses.empty()) throw InputError(fmt::format("{}: no poses in file", path));
  return poses;
}

std::vector<Vec3> place_vertices(const Mesh& mesh, const Pose& pose) {
  const Mat3 R = pose.matrix();
  std::vector<Vec3> out;
  out.reserve(mesh.vertices.size());
  for (const Vec3& x : mesh.vertices) out.push_back(place_vertex(R, pose.translation, x));
  return out;
}

Pose centred_pose(const Pose& pose, const Vec3& first_centre, const Vec3& second_centre) {
  const Mat3 M = pose.matrix();
  Pose out = pose;
  for (int i = 0; i < 3; ++i) {
    ExactSum t;
    for (int j = 0; j < 3; ++j) t.add_product(M(i, j), second_centre[j]);
    t.add(pose.translation[i]).sub(first_centre[i]);
    out.translation[i] = t.rounded();
  }
  return out;
}

}  // namespace kdopcd
