// Meshes (loaded from files or made from NumPy arrays) and DOP-trees.
#include <fmt/format.h>

#include <cmath>

#include "bindings.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/scale_limits.hpp"

namespace kdopcd::python {
namespace {

// load_mesh's checks shared by every format (mesh_io.cpp), for a mesh made from arrays: a tree on
// a mesh with an index out of range would read beyond the vertices, and a coordinate beyond the
// scale limit could overflow a backend (scale_limits.hpp). The messages are load_mesh's.
void check_array_mesh(const Mesh& mesh) {
  const std::string& name = mesh.name;
  if (mesh.triangles.empty()) throw InputError(name + ": empty mesh (no triangles)");
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& v = mesh.vertices[i];
    if (!v.allFinite())
      throw InputError(fmt::format("{}: vertex {} has a non-finite coordinate ({}, {}, {})", name, i, v.x(), v.y(), v.z()));
    if (!within_scale(v.x()) || !within_scale(v.y()) || !within_scale(v.z()))
      throw InputError(fmt::format("{}: vertex {} ({:g}, {:g}, {:g}) lies beyond the scale limit: every coordinate must "
                                   "have a magnitude of at most {}",
                                   name, i, v.x(), v.y(), v.z(), kMaxCoordinateText));
  }
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (std::uint32_t idx : mesh.triangles[t])
      if (idx >= mesh.vertices.size())
        throw InputError(fmt::format("{}: triangle {}: vertex index {} out of range ({} vertices)", name, t, idx,
                                     mesh.vertices.size()));
}

std::shared_ptr<Mesh> mesh_from_arrays(const DoubleArray& vertices, const py::object& triangles_object,
                                       const std::string& name) {
  if (vertices.ndim() != 2 || vertices.shape(1) != 3) throw InputError(name + ": vertices must be an (n, 3) array");
  // Indices must be integers: NumPy's cast would truncate 1.5 to a valid-looking 1.
  const py::array given = py::array::ensure(triangles_object);
  if (!given || (given.size() > 0 && given.dtype().kind() != 'i' && given.dtype().kind() != 'u'))
    throw InputError(name + ": triangles must be an (m, 3) array of integer vertex indices");
  const auto triangles = Int64Array::ensure(given);
  if (triangles.ndim() != 2 || triangles.shape(1) != 3) throw InputError(name + ": triangles must be an (m, 3) array");
  auto mesh = std::make_shared<Mesh>();
  mesh->name = name;
  mesh->vertices.resize(std::size_t(vertices.shape(0)));
  for (std::size_t i = 0; i < mesh->vertices.size(); ++i) {
    const double* v = vertices.data(py::ssize_t(i), 0);
    mesh->vertices[i] = Vec3(v[0], v[1], v[2]);
  }
  mesh->triangles.resize(std::size_t(triangles.shape(0)));
  for (std::size_t t = 0; t < mesh->triangles.size(); ++t)
    for (int c = 0; c < 3; ++c) {
      const std::int64_t idx = triangles.at(py::ssize_t(t), c);
      // Stored as uint32: a negative or too large index would wrap into a valid-looking one.
      if (idx < 0 || idx > std::int64_t(UINT32_MAX))
        throw InputError(fmt::format("{}: triangle {}: vertex index {} out of range ({} vertices)", name, t, idx,
                                     mesh->vertices.size()));
      mesh->triangles[t][std::size_t(c)] = std::uint32_t(idx);
    }
  check_array_mesh(*mesh);
  return mesh;
}

}  // namespace

void bind_mesh(py::module_& m) {
  py::class_<Mesh, std::shared_ptr<Mesh>>(m, "Mesh",
                                           "A triangle mesh: vertices (n, 3) float64 and triangles (m, 3) uint32, "
                                           "numbered as load_mesh numbers them (docs/formats.md). Immutable.")
      .def(py::init(&mesh_from_arrays), py::arg("vertices"), py::arg("triangles"), py::arg("name") = "array mesh",
           "A mesh from arrays (copied once); checked as load_mesh checks a file.")
      .def_readonly("name", &Mesh::name)
      .def_property_readonly(
          "vertices", [](py::object self) { return rows_view<double>(self.cast<const Mesh&>().vertices, self); },
          "(n, 3) float64, a read-only view of the mesh's own memory")
      .def_property_readonly(
          "triangles", [](py::object self) { return rows_view<std::uint32_t>(self.cast<const Mesh&>().triangles, self); },
          "(m, 3) uint32 vertex indices, a read-only view")
      .def_property_readonly("triangle_count", &Mesh::triangle_count)
      .def("__repr__", [](const Mesh& mesh) {
        return fmt::format("<kdopcd.Mesh '{}': {} vertices, {} triangles>", mesh.name, mesh.vertices.size(),
                           mesh.triangles.size());
      });

  m.def(
      "load_mesh",
      [](const std::string& path) {
        py::gil_scoped_release release;
        return std::make_shared<Mesh>(load_mesh(path));
      },
      py::arg("path"), "Loads an .off, .obj, .stl or .ply file (mesh_io.hpp); ValueError '<path>: ...' for bad input.");
  m.def(
      "save_off",
      [](const Mesh& mesh, const std::string& path) {
        py::gil_scoped_release release;
        save_off(mesh, path);
      },
      py::arg("mesh"), py::arg("path"), "Writes an OFF file that load_mesh reads back bit for bit.");

  py::class_<Tree, TreePtr>(m, "DopTree", "A k-DOP tree of a mesh (dop_tree.hpp): nodes in pre-order, node 0 the root.")
      .def(py::init([](std::shared_ptr<Mesh> mesh, int k, const std::string& build) {
             const TreeBuild rule = parse_tree_build(build);
             py::gil_scoped_release release;
             return std::make_shared<Tree>(std::move(mesh), k, rule);
           }),
           py::arg("mesh"), py::arg("k") = 24, py::arg("build") = "median",
           "k in 6, 14, 18, 24, 26; build 'median' (balanced, the hardware's) or 'sah'.")
      .def_property_readonly("mesh", [](const Tree& t) { return std::const_pointer_cast<Mesh>(t.mesh); })
      .def_property_readonly("k", [](const Tree& t) { return t.tree.k(); })
      .def_property_readonly("build", [](const Tree& t) { return std::string(to_string(t.tree.build_rule())); })
      .def_property_readonly("node_count", [](const Tree& t) { return t.tree.node_count(); })
      .def_property_readonly("max_depth", [](const Tree& t) { return t.tree.max_depth(); })
      .def_property_readonly("centre",
                             [](const Tree& t) {
                               const Vec3& c = t.tree.centre();
                               return py::array_t<double>(3, c.data());
                             })
      .def_property_readonly(
          "nodes",
          [](const Tree& t) {
            const auto& nodes = t.tree.nodes();
            py::array_t<std::int32_t> a({py::ssize_t(nodes.size()), py::ssize_t(4)});
            for (std::size_t i = 0; i < nodes.size(); ++i) {
              std::int32_t* row = a.mutable_data(py::ssize_t(i), 0);
              row[0] = nodes[i].left, row[1] = nodes[i].right, row[2] = nodes[i].triangle, row[3] = nodes[i].depth;
            }
            return a;
          },
          "(nodes, 4) int32: left, right, triangle, depth (-1 where there is none)")
      .def_property_readonly(
          "coefficients",
          [](py::object self) {
            const DopTree& tree = self.cast<const Tree&>().tree;
            const auto& c = tree.all_coefficients();
            py::array_t<double> a({py::ssize_t(tree.node_count()), py::ssize_t(tree.k())}, c.data(), self);
            py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
            return a;
          },
          "(nodes, k) float64, each node's DOP in the file's frame: a read-only view")
      .def("__repr__", [](const Tree& t) {
        return fmt::format("<kdopcd.DopTree of '{}': k = {}, {} nodes, depth {}>", t.mesh->name, t.tree.k(),
                           t.tree.node_count(), t.tree.max_depth());
      });
}

}  // namespace kdopcd::python
