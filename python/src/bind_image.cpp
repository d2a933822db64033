// The tree image (tree_image.hpp): the quantized tree and triangles as they lie in the
// accelerator's memory; made from a tree, encoded to bytes, decoded and checked.
#include <fmt/format.h>

#include "bindings.hpp"
#include "kdopcd/tree_image.hpp"

namespace kdopcd::python {

void bind_image(py::module_& m) {
  py::class_<TreeImage>(m, "TreeImage", "A decoded tree image (docs/formats.md, 'Tree image')")
      .def_readonly("k", &TreeImage::k)
      .def_readonly("b", &TreeImage::b)
      .def_readonly("v", &TreeImage::v)
      .def_readonly("bus_width", &TreeImage::bus_width)
      .def_readonly("scale", &TreeImage::scale)
      .def_readonly("max_depth", &TreeImage::max_depth)
      .def_readonly("root", &TreeImage::root)
      .def_property_readonly("centre", [](const TreeImage& i) { return py::array_t<double>(3, i.centre.data()); })
      .def_property_readonly(
          "nodes",
          [](const TreeImage& image) {
            py::array_t<std::int32_t> a({py::ssize_t(image.nodes.size()), py::ssize_t(4)});
            for (std::size_t i = 0; i < image.nodes.size(); ++i) {
              const ImageNode& n = image.nodes[i];
              std::int32_t* row = a.mutable_data(py::ssize_t(i), 0);
              row[0] = n.left, row[1] = n.right, row[2] = n.triangle, row[3] = n.depth;
            }
            return a;
          },
          "(nodes, 4) int32: left, right, triangle, depth")
      .def_property_readonly(
          "coefficients",
          [](const TreeImage& image) {
            py::array_t<std::int64_t> a({py::ssize_t(image.nodes.size()), py::ssize_t(image.k)});
            for (std::size_t i = 0; i < image.nodes.size(); ++i)
              std::copy(image.nodes[i].coeffs.begin(), image.nodes[i].coeffs.end(), a.mutable_data(py::ssize_t(i), 0));
            return a;
          },
          "(nodes, k) int64: the quantized (b+2)-bit coefficients")
      .def_property_readonly(
          "triangles",
          [](const TreeImage& image) {
            py::array_t<std::int64_t> a({py::ssize_t(image.triangles.size()), py::ssize_t(9)});
            for (std::size_t t = 0; t < image.triangles.size(); ++t)
              std::copy(image.triangles[t].begin(), image.triangles[t].end(), a.mutable_data(py::ssize_t(t), 0));
            return a;
          },
          "(triangles, 9) int64: x0 y0 z0 x1 y1 z1 x2 y2 z2 quantized at v bits")
      .def_property_readonly("total_bytes", &TreeImage::total_bytes)
      .def("node_address", &TreeImage::node_address, py::arg("node"))
      .def("triangle_address", &TreeImage::triangle_address, py::arg("triangle"))
      .def(
          "encode",
          [](const TreeImage& image) {
            const std::vector<std::uint8_t> bytes = encode(image);
            return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
          },
          "The image's bytes (header, nodes, triangles)")
      .def("__eq__", [](const TreeImage& a, const TreeImage& b) { return a == b; })
      .def("__repr__", [](const TreeImage& i) {
        return fmt::format("<kdopcd.TreeImage k = {}, b = {}, v = {}, W = {}: {} nodes, {} triangles, {} bytes>", i.k, i.b,
                           i.v, i.bus_width, i.nodes.size(), i.triangles.size(), i.total_bytes());
      });

  m.def(
      "make_tree_image",
      [](const Tree& tree, int b, int v, int bus_width, double scale) {
        py::gil_scoped_release release;
        return make_tree_image(tree.tree, ImageParams{b, v, bus_width, scale});
      },
      py::arg("tree"), py::kw_only(), py::arg("b") = 18, py::arg("v") = 24, py::arg("bus_width") = 64,
      py::arg("scale") = 0.0,
      "The tree quantized in its centred frame at scene scale `scale` (0 = the tree's own), as kdop pack writes it");
  m.def(
      "decode_tree_image",
      [](const py::bytes& data, const std::string& name) {
        const std::string_view bytes = data;
        return decode(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), name);
      },
      py::arg("data"), py::arg("name") = "tree image", "Parses and checks an image's bytes; ValueError '<name>: ...'");
  m.def("read_tree_image", &read_tree_image, py::arg("path"));
  m.def("write_tree_image", &write_tree_image, py::arg("path"), py::arg("image"));
}

}  // namespace kdopcd::python
