#pragma once
// The two tree images a query reads, in the form both the external-memory path and the on-chip
// tree RAMs hold them: encode()'s bytes (what lies in memory) and decode() of those bytes (the
// record contents a read returns). The model never unpacks bits itself: decode is the one
// unpacker of the format (docs/formats.md, "Tree image").
#include <cstdint>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/tree_image.hpp"

namespace kdopcd::model {

struct ImageMemory {
  std::vector<std::uint8_t> bytes;
  TreeImage image;
  const ImageNode& node_at(std::uint64_t address) const {
    return image.nodes[(address - image.node_section_offset()) / image.node_stride()];
  }
  const ImageTriangle& triangle_at(std::uint64_t address) const {
    return image.triangles[(address - image.triangle_section_offset()) / image.triangle_stride()];
  }
};

// Images depend on the tree and the scale only, not on the pose: built once per (tree, b, v, W, s)
// and kept for the process (trees are built once, poses change per query).
const ImageMemory& image_memory(const DopTree& tree, const ImageParams& params);

// A node pair of the traversal: node indices in the first and the second tree.
struct NodePair {
  std::int32_t f = 0, s = 0;
  bool operator==(const NodePair&) const = default;
};

}  // namespace kdopcd::model
