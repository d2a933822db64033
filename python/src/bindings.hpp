#pragma once
// What the binding files share: the handle types Python holds, the conversions between NumPy
// arrays and the library's types, and one registration function per area (bind_*.cpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/test_vectors.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd::python {

namespace py = pybind11;

// A DopTree refers to its mesh (DopTree::mesh() is a reference), so the tree Python holds owns a
// share of the mesh: dropping the Python Mesh then leaves the tree valid.
struct Tree {
  std::shared_ptr<const Mesh> mesh;
  DopTree tree;
  Tree(std::shared_ptr<const Mesh> m, int k, TreeBuild build) : mesh(std::move(m)), tree(*mesh, k, build) {}
};
using TreePtr = std::shared_ptr<Tree>;

// Arrays of doubles / integers as NumPy hands them over: C order, converted (a copy) only when the
// caller's array has another dtype or layout.
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Int64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

// One pose from 7 numbers (qw qx qy qz tx ty tz), checked and normalized as parse_pose does it;
// a bad pose raises the library's own message, `where` first.
Pose pose_from_values(const double* v, const std::string& where);
Pose pose_from_array(const DoubleArray& a, const std::string& where);  // shape (7,)
Pose pose_from_object(py::handle object, const std::string& where);    // anything NumPy makes (7,) of
std::vector<Pose> poses_from_array(const DoubleArray& a, const std::string& where);  // (n, 7) or (7,)
py::array_t<double> pose_to_array(const Pose& pose);  // the normalized quaternion and the translation
py::array_t<double> poses_to_array(const std::vector<Pose>& poses);

// Contacts as an (n, 2) uint32 array (first triangle, second triangle) that takes over the
// vector's memory: no copy.
py::array_t<std::uint32_t> contacts_to_array(std::vector<ContactPair>&& contacts);
py::dict stats_to_dict(const TraversalStats& stats);

// Rows of axis-test operands (n, 19) as test vectors: float rows are R vectors, integer rows Q
// vectors; bits is (b, c, z) or one row per vector. Checked by the vector format's parser.
std::vector<TestVector> vectors_from_rows(const py::object& operands, const py::object& bits);

// (b, c, z), checked by validate_fixed_params; (v, m), checked by check_triangle_params.
FixedParams fixed_params_from(const std::vector<int>& bits);
TriangleFixedParams triangle_params_from(const std::vector<int>& bits);
// parse_descent_rule's names, plus "larger" (DescentRule::Larger, the reference's own option).
DescentRule descent_rule_from(const std::string& name);

// (n, 3) array view of a vector of 3-component records (Vec3, triangle indices), kept alive by
// `owner`: the library's own memory, read-only.
template <class T, class Record>
py::array_t<T> rows_view(const std::vector<Record>& rows, py::handle owner) {
  static_assert(sizeof(Record) == 3 * sizeof(T));
  py::array_t<T> a({py::ssize_t(rows.size()), py::ssize_t(3)}, reinterpret_cast<const T*>(rows.data()), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

void register_exceptions(py::module_& m);
void bind_mesh(py::module_& m);
void bind_query(py::module_& m);
void bind_fixed(py::module_& m);
void bind_image(py::module_& m);
void bind_bound(py::module_& m);
void bind_model(py::module_& m);      // no-op without the SystemC model
void bind_multibody(py::module_& m);  // no-op without the CUDA part's engine

}  // namespace kdopcd::python
