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

Pose pose_from_object(py::handle object, const std::string& where) {
  // A float64 array of 7 in C order, the common case, is read in place; anything else goes
  // through NumPy's conversion.
  if (py::isinstance<py::array_t<double>>(object)) {
    const auto a = py::reinterpret_borrow<py::array_t<double>>(object);
    if (a.ndim() == 1 && a.shape(0) == 7 && (a.flags() & py::array::c_style)) return pose_from_values(a.data(), where);
  }
  return pose_from_array(DoubleArray::ensure(object), where);
}

Pose pose_from_array(const DoubleArray& a, const std::string& where) {
  if (!a) throw InputError(where + ": a pose is 7 numbers (qw, qx, qy, qz, tx, ty, tz)");
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

py::dict stats_to_dict(const TraversalStats& s) {
  // Every query returns this dict: its keys are made once, and it is filled through the C API
  // without pybind11's temporaries, which were a measurable part of a call's overhead
  // (docs/python.md, "Overhead").
  static PyObject* const keys[6] = {PyUnicode_InternFromString("pair_tests"), PyUnicode_InternFromString("axis_tests"),
                                    PyUnicode_InternFromString("leaf_pairs"), PyUnicode_InternFromString("triangle_tests"),
                                    PyUnicode_InternFromString("contacts"), PyUnicode_InternFromString("max_stack_depth")};
  const unsigned long long values[6] = {s.pair_tests, s.axis_tests, s.leaf_pairs, s.triangle_tests, s.contacts,
                                        s.max_stack_depth};
  py::dict d;
  for (int i = 0; i < 6; ++i) {
    const py::object value = py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(values[i]));
    if (!value || PyDict_SetItem(d.ptr(), keys[i], value.ptr()) != 0) throw py::error_already_set();
  }
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

DescentRule descent_rule_from(const std::string& name) { return parse_query_descent_rule(name); }

}  // namespace kdopcd::python
