// Conversions between NumPy arrays and the library's types (bindings.hpp).
#include <fmt/format.h>

#include <cmath>

#include "bindings.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/scale_limits.hpp"
#include "kdopcd/tri_fixed.hpp"

namespace kdopcd::python {

Pose pose_from_values(const double* v, const std::string& where) {
  // parse_pose's checks and normalization on the doubles themselves: a query's pose costs no text.
  // Where a check fails, parse_pose gets the same numbers as shortest round-trip text, so the error
  // is the library's own message.
  bool ok = true;
  for (int i = 0; i < 7; ++i) ok &= std::isfinite(v[i]);
  for (int i = 4; i < 7; ++i) ok &= within_scale(v[i]);
  const Eigen::Quaterniond q(v[0], v[1], v[2], v[3]);
  const double norm = q.norm();
  ok &= norm > 0 && std::isfinite(norm);
  if (!ok) {
    parse_pose(fmt::format("{} {} {} {} {} {} {}", v[0], v[1], v[2], v[3], v[4], v[5], v[6]), where);
    throw std::logic_error(where + ": a pose refused here was accepted by parse_pose");
  }
  Pose pose;
  pose.rotation = q.normalized();
  pose.translation = Vec3(v[4], v[5], v[6]);
  return pose;
}

Pose pose_from_array(const DoubleArray& a, const std::string& where) {
  if (a.ndim() != 1 || a.shape(0) != 7)
    throw InputError(where + ": a pose is 7 numbers (qw, qx, qy, qz, tx, ty, tz)");
  return pose_from_values(a.data(), where);
}

std::vector<Pose> poses_from_array(const DoubleArray& a, const std::string& where) {
  if (a.ndim() == 1) return {pose_from_array(a, where)};
  if (a.ndim() != 2 || a.shape(1) != 7)
    throw InputError(where + ": poses are an (n, 7) array of rows (qw, qx, qy, qz, tx, ty, tz)");
  std::vector<Pose> poses;
  poses.reserve(std::size_t(a.shape(0)));
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    poses.push_back(pose_from_values(a.data(i, 0), fmt::format("{} {}", where, i)));
  return poses;
}

py::array_t<double> pose_to_array(const Pose& pose) {
  py::array_t<double> a(7);
  double* d = a.mutable_data();
  const Eigen::Quaterniond& q = pose.rotation;
  const double values[7] = {q.w(), q.x(), q.y(), q.z(), pose.translation.x(), pose.translation.y(),
                            pose.translation.z()};
  std::copy(values, values + 7, d);
  return a;
}

py::array_t<double> poses_to_array(const std::vector<Pose>& poses) {
  py::array_t<double> a({py::ssize_t(poses.size()), py::ssize_t(7)});
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const py::array_t<double> row = pose_to_array(poses[i]);
    std::copy(row.data(), row.data() + 7, a.mutable_data(py::ssize_t(i), 0));
  }
  return a;
}

py::array_t<std::uint32_t> contacts_to_array(std::vector<ContactPair>&& contacts) {
  static_assert(sizeof(ContactPair) == 2 * sizeof(std::uint32_t));
  // Most queries find no contact: they all return one empty array, read-only so that sharing it
  // is safe (making an array was a measurable part of a call's overhead, docs/python.md).
  if (contacts.empty()) {
    static const py::array_t<std::uint32_t>* empty = [] {
      auto* a = new py::array_t<std::uint32_t>(std::vector<py::ssize_t>{0, 2});
      py::detail::array_proxy(a->ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
      return a;
    }();
    return *empty;
  }
  auto* owned = new std::vector<ContactPair>(std::move(contacts));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<ContactPair>*>(p); });
  return py::array_t<std::uint32_t>({py::ssize_t(owned->size()), py::ssize_t(2)},
                                    reinterpret_cast<const std::uint32_t*>(owned->data()), free_when_done);
}

std::vector<ContactPair> contacts_from_array(const py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>& a) {
  if (a.ndim() != 2 || a.shape(1) != 2) throw InputError("contacts are an (n, 2) array");
  std::vector<ContactPair> out(std::size_t(a.shape(0)));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {a.at(py::ssize_t(i), 0), a.at(py::ssize_t(i), 1)};
  return out;
}

py::dict stats_to_dict(const TraversalStats& s) {
  // The keys made once: every query returns this dict, and making six strings per call was a
  // measurable part of a call's overhead (docs/python.md, "Overhead").
  static const py::str* keys = new py::str[6]{"pair_tests", "axis_tests", "leaf_pairs", "triangle_tests", "contacts",
                                              "max_stack_depth"};
  py::dict d;
  d[keys[0]] = s.pair_tests;
  d[keys[1]] = s.axis_tests;
  d[keys[2]] = s.leaf_pairs;
  d[keys[3]] = s.triangle_tests;
  d[keys[4]] = s.contacts;
  d[keys[5]] = s.max_stack_depth;
  return d;
}

FixedParams fixed_params_from(const std::vector<int>& bits) {
  if (bits.size() != 3) throw InputError(fmt::format("bits: expected (b, c, z), got {} numbers", bits.size()));
  const FixedParams f{bits[0], bits[1], bits[2]};
  validate_fixed_params(f);
  return f;
}

TriangleFixedParams triangle_params_from(const std::vector<int>& bits) {
  if (bits.size() != 2) throw InputError(fmt::format("tri_bits: expected (v, m), got {} numbers", bits.size()));
  const TriangleFixedParams t{bits[0], bits[1]};
  check_triangle_params(t);
  return t;
}

DescentRule descent_rule_from(const std::string& name) {
  if (name == "larger") return DescentRule::Larger;
  return parse_descent_rule(name);
}

}  // namespace kdopcd::python
