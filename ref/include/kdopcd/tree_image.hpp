#pragma once
// The tree image: a quantized DOP-tree and its triangles laid out as they lie in the accelerator's
// external memory (docs/formats.md, docs/design.md §3). `ref/` writes it; the SystemC model, the RTL testbench and CUDA read
// it. The byte-exact format (header fields and offsets, node link word, LSB-first packing of the
// (b+2)-bit coefficients and (v+2)-bit vertex coordinates, bus-word padding, checksum) is
// documented in docs/formats.md, section "Tree image"; tree_image_test.cpp checks the code
// against that description.
//
// Values are quantized exactly as the reference's fixed-point path does it (fixed_format.hpp), in
// the tree's centred frame (DopTree::centre(), docs/fixed-point.md §2): coefficient a of
// centred_coefficients() -> quantize_coefficient(a / s, b), vertex coordinate x ->
// quantize_vertex((x - centre) / s, v), with one scene scale s and the centre stored in the
// header. A query needs both images at the same s (the larger of the two trees' own
// centred_largest_coefficient(), i.e. scene_scale()), so make_tree_image takes an explicit scale;
// the host places the second object with centred_pose(pose, first centre, second centre).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"

namespace kdopcd {

inline constexpr std::uint32_t kTreeImageVersion = 2;  // 2: centred frame, the centre in the header
inline constexpr std::size_t kTreeImageHeaderBytes = 128;  // a multiple of every allowed bus word
inline constexpr int kTreeImageLinkBits = 64;              // the link word that starts a node record
inline constexpr int kMaxVertexBits = 52;                  // widest v the image accepts
inline constexpr std::array<int, 5> kTreeImageBusWidths{32, 64, 128, 256, 512};

struct ImageParams {
  int b = 18;          // fractional bits of a coefficient; field width b+2 (signed)
  int v = 24;          // fractional bits of a vertex coordinate; field width v+2 (signed)
  int bus_width = 64;  // W in bits: records are padded to whole W-bit bus words ("beats")
  double scale = 0;    // scene scale s; 0 = the tree's own centred_largest_coefficient()
};

// One node record, decoded. `depth` is not stored in the image: the reader derives it from the
// links (the writer's DopTree depths are the same).
struct ImageNode {
  std::int32_t left = -1;      // child node indices, -1 for a leaf
  std::int32_t right = -1;
  std::int32_t triangle = -1;  // triangle index of a leaf, -1 for an inner node
  bool is_leaf = false;
  std::int32_t depth = 0;
  std::vector<std::int64_t> coeffs;  // k quantized coefficients, signed (b+2)-bit values
  bool operator==(const ImageNode&) const = default;
};

// x0 y0 z0 x1 y1 z1 x2 y2 z2: the quantized corners in the mesh triangle's corner order.
using ImageTriangle = std::array<std::int64_t, 9>;

struct TreeImage {
  int k = 24;
  int b = 18;
  int v = 24;
  int bus_width = 64;
  double scale = 1;
  std::array<double, 3> centre{};  // the object's centre (DopTree::centre()), file coordinates
  std::int32_t max_depth = 0;
  std::int32_t root = 0;
  std::vector<ImageNode> nodes;          // the writer emits DopTree's pre-order
  std::vector<ImageTriangle> triangles;  // in mesh triangle index order

  bool operator==(const TreeImage&) const = default;

  // Layout (docs/formats.md "Tree image"). A beat is one W-bit bus word.
  int bus_bytes() const { return bus_width / 8; }
  int node_bits() const { return kTreeImageLinkBits + k * (b + 2); }  // payload, before padding
  int triangle_bits() const { return 9 * (v + 2); }
  int node_beats() const { return (node_bits() + bus_width - 1) / bus_width; }
  int triangle_beats() const { return (triangle_bits() + bus_width - 1) / bus_width; }
  std::uint64_t node_stride() const { return std::uint64_t(node_beats()) * bus_bytes(); }
  std::uint64_t triangle_stride() const { return std::uint64_t(triangle_beats()) * bus_bytes(); }
  std::uint64_t node_section_offset() const { return kTreeImageHeaderBytes; }
  std::uint64_t triangle_section_offset() const { return node_section_offset() + nodes.size() * node_stride(); }
  std::uint64_t total_bytes() const { return triangle_section_offset() + triangles.size() * triangle_stride(); }
  // Byte address (from the start of the image) of node i's / triangle t's record.
  std::uint64_t node_address(std::size_t i) const { return node_section_offset() + i * node_stride(); }
  std::uint64_t triangle_address(std::size_t t) const { return triangle_section_offset() + t * triangle_stride(); }
};

// Quantizes `tree` (and its mesh's triangles) in its centred frame at params.scale, or at
// tree.centred_largest_coefficient() when params.scale is 0. Throws InputError "<mesh name>: ..."
// for a bad parameter (b outside 1..kMaxFixedBits, v outside 1..kMaxVertexBits, W not in
// kTreeImageBusWidths, scale not finite and positive) or when some |centred coefficient| / s or
// |centred vertex coordinate| / s exceeds 1.
TreeImage make_tree_image(const DopTree& tree, const ImageParams& params);

// The bytes of the image (header, node section, triangle section). Throws InputError
// "tree image: ..." when `image` is not valid (the same checks as decode), so encode never writes
// what decode would reject.
std::vector<std::uint8_t> encode(const TreeImage& image);

// Parses and checks an image. Every problem (truncated, bad magic, unknown version, checksum
// mismatch, a field out of range, a child or triangle index out of range, a cycle or shared node,
// non-zero padding) throws InputError "<name_for_errors>: <what was wrong>"; it never reads out of
// bounds or allocates more than the buffer's size justifies.
TreeImage decode(std::span<const std::uint8_t> bytes, const std::string& name_for_errors);

// FNV-1a 64 over `bytes` with the 8 checksum bytes (header offset 24) taken as zero; the value
// stored at offset 24. `bytes` must hold at least the header.
std::uint64_t tree_image_checksum(std::span<const std::uint8_t> bytes);

void write_tree_image(const std::string& path, const TreeImage& image);  // InputError if it cannot write
TreeImage read_tree_image(const std::string& path);                      // InputError "<path>: ..."

}  // namespace kdopcd
