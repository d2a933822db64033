// kdop pack MESH --out FILE [--k 24] [--bits b] [--vertex-bits v] [--bus-width W] [--scale S]
// Writes the tree image (docs/formats.md "Tree image") of a mesh's DOP-tree.
#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/tree_image.hpp"

namespace kdopcd::cli {
namespace {

struct PackArgs {
  std::string mesh, out;
  int k = 24;
  ImageParams params;
};

void run_pack(const PackArgs& args) {
  check_outputs({{"--out", args.out}}, {args.mesh});
  const Mesh mesh = load_mesh(args.mesh);
  const DopTree tree(mesh, args.k, kHardwareTreeBuild);
  const TreeImage image = make_tree_image(tree, args.params);
  const std::vector<std::uint8_t> bytes = encode(image);
  write_whole_file(args.out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  fmt::print("{}: {} triangles, {} nodes, tree depth {}\n", args.mesh, image.triangles.size(), image.nodes.size(),
             image.max_depth);
  fmt::print("k = {}, b = {} ({}-bit coefficients), v = {} ({}-bit coordinates), bus W = {} bits\n", image.k, image.b,
             image.b + 2, image.v, image.v + 2, image.bus_width);
  fmt::print("centre c = ({:.17g}, {:.17g}, {:.17g}) (coefficients and vertices are stored relative to it)\n",
             image.centre[0], image.centre[1], image.centre[2]);
  fmt::print("scene scale s = {:.17g}{}\n", image.scale,
             args.params.scale == 0 ? " (the tree's own largest centred |coefficient|)" : " (given)");
  fmt::print("node record: {} bits -> {} beats, {} bytes; triangle record: {} bits -> {} beats, {} bytes\n",
             image.node_bits(), image.node_beats(), image.node_stride(), image.triangle_bits(), image.triangle_beats(),
             image.triangle_stride());
  fmt::print("wrote {}: {} bytes (header {}, nodes at {}, triangles at {})\n", args.out, image.total_bytes(),
             kTreeImageHeaderBytes, image.node_section_offset(), image.triangle_section_offset());
}

void add_pack_command(CLI::App& app) {
  auto args = std::make_shared<PackArgs>();
  CLI::App* cmd = app.add_subcommand("pack", "write the packed tree image (quantized DOP-tree + triangles) of a mesh");
  cmd->add_option("MESH", args->mesh, "mesh: OFF, OBJ, STL or PLY")->required();
  cmd->add_option("--out", args->out, "tree image file to write")->required();
  cmd->add_option("--k", args->k, "k of the k-DOPs")->check(k_values())->capture_default_str();
  cmd->add_option("--bits", args->params.b, "fractional bits b of a coefficient (stored in b+2 bits)")
      ->check(CLI::Range(1, kMaxFixedBits))
      ->capture_default_str();
  cmd->add_option("--vertex-bits", args->params.v, "fractional bits v of a vertex coordinate (stored in v+2 bits)")
      ->check(CLI::Range(1, kMaxVertexBits))
      ->capture_default_str();
  cmd->add_option("--bus-width", args->params.bus_width, "bus width W in bits; records are padded to W-bit beats")
      ->check(CLI::IsMember({32, 64, 128, 256, 512}))
      ->capture_default_str();
  cmd->add_option("--scale", args->params.scale,
                  "scene scale s (default: the tree's own largest centred |coefficient|; give both objects of a "
                  "query the larger of their two)")
      ->check(positive_finite(1e300));
  cmd->callback([args] { run_pack(*args); });
}

const CommandRegistration registration(40, add_pack_command);
}  // namespace

}  // namespace kdopcd::cli
