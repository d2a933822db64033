#include "kdopcd/tree_image.hpp"

#include "kdopcd_contract/formats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>

#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/orientations.hpp"

namespace kdopcd {
namespace {

// Header field offsets (docs/formats.md "Tree image", table "Header").
constexpr char kMagic[8] = {'K', 'D', 'O', 'P', 'I', 'M', 'G', '\0'};
constexpr std::size_t kOffMagic = 0, kOffVersion = 8, kOffHeaderBytes = 12, kOffTotalBytes = 16,
                      kOffChecksum = 24, kOffK = 32, kOffB = 36, kOffV = 40, kOffBusWidth = 44,
                      kOffNodeCount = 48, kOffTriangleCount = 52, kOffMaxDepth = 56, kOffRoot = 60,
                      kOffScale = 64, kOffNodeOffset = 72, kOffTriangleOffset = 80, kOffNodeStride = 88,
                      kOffTriangleStride = 92, kOffNodeBeats = 96, kOffTriangleBeats = 100, kOffCentre = 104;
constexpr std::uint64_t kMaxIndex = (std::uint64_t(1) << 31) - 1;  // node and triangle indices < 2^31

std::uint64_t low_mask(int n) { return n >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << n) - 1; }

// Signed n-bit range: [-2^(n-1), 2^(n-1) - 1].
bool fits_signed(std::int64_t value, int n) {
  const std::int64_t half = std::int64_t(1) << (n - 1);
  return value >= -half && value <= half - 1;
}

// Record bit p lies in byte p / 8, bit p % 8 (LSB-first, little endian). `base` must be zeroed.
void put_bits(std::uint8_t* base, std::uint64_t bitpos, std::uint64_t value, int n) {
  value &= low_mask(n);
  while (n > 0) {
    const int shift = int(bitpos % 8);
    const int take = std::min(8 - shift, n);
    base[bitpos / 8] |= std::uint8_t((value & low_mask(take)) << shift);
    value >>= take;
    n -= take;
    bitpos += std::uint64_t(take);
  }
}

std::uint64_t get_bits(const std::uint8_t* base, std::uint64_t bitpos, int n) {
  std::uint64_t value = 0;
  for (int done = 0; done < n;) {
    const int shift = int(bitpos % 8);
    const int take = std::min(8 - shift, n - done);
    value |= std::uint64_t((base[bitpos / 8] >> shift) & low_mask(take)) << done;
    done += take;
    bitpos += std::uint64_t(take);
  }
  return value;
}

std::int64_t sign_extend(std::uint64_t raw, int n) {
  if (n < 64 && (raw >> (n - 1)) & 1) raw |= ~low_mask(n);
  return std::int64_t(raw);
}

void put_u32(std::uint8_t* p, std::uint32_t x) {
  for (int i = 0; i < 4; ++i) p[i] = std::uint8_t(x >> (8 * i));
}
void put_u64(std::uint8_t* p, std::uint64_t x) {
  for (int i = 0; i < 8; ++i) p[i] = std::uint8_t(x >> (8 * i));
}
std::uint32_t get_u32(const std::uint8_t* p) {
  std::uint32_t x = 0;
  for (int i = 0; i < 4; ++i) x |= std::uint32_t(p[i]) << (8 * i);
  return x;
}
std::uint64_t get_u64(const std::uint8_t* p) {
  std::uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x |= std::uint64_t(p[i]) << (8 * i);
  return x;
}

bool supported_k(std::int64_t k) { return std::find(kSupportedK.begin(), kSupportedK.end(), k) != kSupportedK.end(); }
bool supported_bus(std::int64_t w) {
  return std::find(kTreeImageBusWidths.begin(), kTreeImageBusWidths.end(), w) != kTreeImageBusWidths.end();
}

// The parameter checks shared by make_tree_image, encode and decode.
void check_centre(const std::string& name, const std::array<double, 3>& centre) {
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(centre[i]))
      throw InputError(fmt::format("{}: centre coordinate {} = {} is not finite", name, "xyz"[i], centre[i]));
}

void check_params(const std::string& name, std::int64_t k, std::int64_t b, std::int64_t v, std::int64_t w, double scale) {
  if (!supported_k(k)) throw InputError(fmt::format("{}: unsupported k = {} (supported: 6, 14, 18, 24, 26)", name, k));
  if (b < 1 || b > kMaxFixedBits)
    throw InputError(fmt::format("{}: coefficient bits b = {} out of range 1..{}", name, b, kMaxFixedBits));
  if (v < 1 || v > kMaxVertexBits)
    throw InputError(fmt::format("{}: vertex bits v = {} out of range 1..{}", name, v, kMaxVertexBits));
  if (!supported_bus(w)) throw InputError(fmt::format("{}: bus width W = {} bits (allowed: 32, 64, 128, 256, 512)", name, w));
  if (!(std::isfinite(scale) && scale > 0))
    throw InputError(fmt::format("{}: scene scale s = {} is not a finite positive number", name, scale));
}

// Everything about the records and the tree structure: field widths, index ranges, every node
// reached exactly once from the root (no cycle, no shared subtree), every triangle in exactly one
// leaf, the depth of every node and max_depth. Fills `depth` (one entry per node).
void check_structure(const TreeImage& im, const std::string& name, std::vector<std::int32_t>& depth) {
  const std::size_t n = im.nodes.size(), t = im.triangles.size();
  if (t == 0) throw InputError(fmt::format("{}: no triangles", name));
  if (t > kMaxIndex / 2) throw InputError(fmt::format("{}: {} triangles, at most {}", name, t, kMaxIndex / 2));
  if (n != 2 * t - 1)
    throw InputError(fmt::format("{}: {} nodes for {} triangles (one triangle per leaf needs {})", name, n, t, 2 * t - 1));
  if (im.root < 0 || std::size_t(im.root) >= n)
    throw InputError(fmt::format("{}: root node index {} out of range 0..{}", name, im.root, n - 1));
  for (std::size_t i = 0; i < n; ++i) {
    const ImageNode& node = im.nodes[i];
    if (node.coeffs.size() != std::size_t(im.k))
      throw InputError(fmt::format("{}: node {} has {} coefficients, k = {}", name, i, node.coeffs.size(), im.k));
    for (int c = 0; c < im.k; ++c)
      if (!fits_signed(node.coeffs[c], im.b + 2))
        throw InputError(fmt::format("{}: node {} coefficient {} = {} does not fit in {} signed bits", name, i, c,
                                     node.coeffs[c], im.b + 2));
    if (node.is_leaf) {
      if (node.triangle < 0 || std::size_t(node.triangle) >= t)
        throw InputError(fmt::format("{}: leaf node {} has triangle index {} out of range 0..{}", name, i, node.triangle, t - 1));
      if (node.left != -1 || node.right != -1)
        throw InputError(fmt::format("{}: leaf node {} has children ({}, {})", name, i, node.left, node.right));
    } else {
      for (std::int32_t child : {node.left, node.right})
        if (child < 0 || std::size_t(child) >= n)
          throw InputError(fmt::format("{}: node {} has child index {} out of range 0..{}", name, i, child, n - 1));
      if (node.triangle != -1)
        throw InputError(fmt::format("{}: inner node {} has triangle index {}", name, i, node.triangle));
    }
  }
  for (std::size_t j = 0; j < t; ++j)
    for (int c = 0; c < 9; ++c)
      if (!fits_signed(im.triangles[j][c], im.v + 2))
        throw InputError(fmt::format("{}: triangle {} coordinate {} = {} does not fit in {} signed bits", name, j, c,
                                     im.triangles[j][c], im.v + 2));

  depth.assign(n, -1);
  std::vector<std::int32_t> leaf_of(t, -1);
  std::vector<std::int32_t> stack{im.root};
  depth[im.root] = 0;
  std::int32_t deepest = 0;
  while (!stack.empty()) {
    const std::int32_t i = stack.back();
    stack.pop_back();
    const ImageNode& node = im.nodes[i];
    deepest = std::max(deepest, depth[i]);
    if (node.is_leaf) {
      if (leaf_of[node.triangle] >= 0)
        throw InputError(fmt::format("{}: triangle {} is in two leaves ({} and {})", name, node.triangle,
                                     leaf_of[node.triangle], i));
      leaf_of[node.triangle] = i;
      continue;
    }
    for (std::int32_t child : {node.left, node.right}) {
      if (depth[child] >= 0)
        throw InputError(fmt::format("{}: node {} is reached twice from the root, again from node {} (a cycle or a "
                                     "shared subtree)", name, child, i));
      depth[child] = depth[i] + 1;
      stack.push_back(child);
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (depth[i] < 0) throw InputError(fmt::format("{}: node {} is not reachable from the root", name, i));
  if (im.max_depth != deepest)
    throw InputError(fmt::format("{}: max depth {} stated, the tree's is {}", name, im.max_depth, deepest));
}

void check_image(const TreeImage& im, const std::string& name, std::vector<std::int32_t>& depth) {
  check_params(name, im.k, im.b, im.v, im.bus_width, im.scale);
  check_centre(name, im.centre);
  check_structure(im, name, depth);
}

}  // namespace

TreeImage make_tree_image(const DopTree& tree, const ImageParams& params) {
  const std::string& name = tree.mesh().name.empty() ? std::string("mesh") : tree.mesh().name;
  const double s = params.scale == 0 ? tree.centred_largest_coefficient() : params.scale;
  check_params(name, tree.k(), params.b, params.v, params.bus_width, s);
  const std::vector<double> coefficients = centred_coefficients(tree);
  const std::vector<Vec3> centred = centred_vertices(tree.mesh(), tree.centre());
  TreeImage im;
  im.centre = {tree.centre().x(), tree.centre().y(), tree.centre().z()};
  im.k = tree.k();
  im.b = params.b;
  im.v = params.v;
  im.bus_width = params.bus_width;
  im.scale = s;
  im.max_depth = tree.max_depth();
  im.root = 0;
  im.nodes.resize(tree.node_count());
  for (std::size_t i = 0; i < tree.node_count(); ++i) {
    const DopNode& src = tree.node(i);
    ImageNode& dst = im.nodes[i];
    dst.is_leaf = src.is_leaf();
    dst.left = dst.is_leaf ? -1 : src.left;
    dst.right = dst.is_leaf ? -1 : src.right;
    dst.triangle = dst.is_leaf ? src.triangle : -1;
    dst.depth = src.depth;
    dst.coeffs.resize(im.k);
    const double* c = coefficients.data() + i * std::size_t(im.k);
    for (int d = 0; d < im.k; ++d) {
      const double a = c[d] / s;
      if (!(std::abs(a) <= 1.0))
        throw InputError(fmt::format("{}: node {} centred coefficient {} = {} exceeds the scene scale s = {} (|a|/s "
                                     "must be <= 1)", name, i, d, c[d], s));
      dst.coeffs[d] = quantize_coefficient(a, im.b);
    }
  }
  const Mesh& mesh = tree.mesh();
  im.triangles.resize(mesh.triangle_count());
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    for (int corner = 0; corner < 3; ++corner)
      for (int axis = 0; axis < 3; ++axis) {
        const double y = centred[mesh.triangles[t][corner]][axis];
        const double x = y / s;
        if (!(std::abs(x) <= 1.0))
          throw InputError(fmt::format("{}: triangle {} centred vertex coordinate {} exceeds the scene scale s = {}",
                                       name, t, y, s));
        im.triangles[t][3 * corner + axis] = quantize_vertex(x, im.v);
      }
  std::vector<std::int32_t> depth;
  check_image(im, name, depth);
  return im;
}

std::uint64_t tree_image_checksum(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const std::uint8_t byte = (i >= kOffChecksum && i < kOffChecksum + 8) ? 0 : bytes[i];
    h = (h ^ byte) * 0x100000001b3ULL;
  }
  return h;
}

std::vector<std::uint8_t> encode(const TreeImage& im) {
  std::vector<std::int32_t> depth;
  check_image(im, "tree image", depth);
  for (std::size_t i = 0; i < im.nodes.size(); ++i)
    if (im.nodes[i].depth != depth[i])
      throw InputError(fmt::format("tree image: node {} has depth {}, its links give {}", i, im.nodes[i].depth, depth[i]));

  std::vector<std::uint8_t> out(im.total_bytes(), 0);
  std::uint8_t* h = out.data();
  std::memcpy(h + kOffMagic, kMagic, sizeof kMagic);
  put_u32(h + kOffVersion, kTreeImageVersion);
  put_u32(h + kOffHeaderBytes, std::uint32_t(kTreeImageHeaderBytes));
  put_u64(h + kOffTotalBytes, im.total_bytes());
  put_u32(h + kOffK, std::uint32_t(im.k));
  put_u32(h + kOffB, std::uint32_t(im.b));
  put_u32(h + kOffV, std::uint32_t(im.v));
  put_u32(h + kOffBusWidth, std::uint32_t(im.bus_width));
  put_u32(h + kOffNodeCount, std::uint32_t(im.nodes.size()));
  put_u32(h + kOffTriangleCount, std::uint32_t(im.triangles.size()));
  put_u32(h + kOffMaxDepth, std::uint32_t(im.max_depth));
  put_u32(h + kOffRoot, std::uint32_t(im.root));
  put_u64(h + kOffScale, std::bit_cast<std::uint64_t>(im.scale));
  put_u64(h + kOffNodeOffset, im.node_section_offset());
  put_u64(h + kOffTriangleOffset, im.triangle_section_offset());
  put_u32(h + kOffNodeStride, std::uint32_t(im.node_stride()));
  put_u32(h + kOffTriangleStride, std::uint32_t(im.triangle_stride()));
  put_u32(h + kOffNodeBeats, std::uint32_t(im.node_beats()));
  put_u32(h + kOffTriangleBeats, std::uint32_t(im.triangle_beats()));
  for (int i = 0; i < 3; ++i) put_u64(h + kOffCentre + 8 * std::size_t(i), std::bit_cast<std::uint64_t>(im.centre[i]));

  for (std::size_t i = 0; i < im.nodes.size(); ++i) {
    const ImageNode& node = im.nodes[i];
    std::uint8_t* rec = out.data() + im.node_address(i);
    contract::format::Link link;  // the LINK word of contract/formats.json
    link.leaf = node.is_leaf ? 1 : 0;
    link.left = std::uint64_t(node.is_leaf ? node.triangle : node.left);
    link.right = node.is_leaf ? 0 : std::uint64_t(node.right);
    put_bits(rec, 0, contract::format::pack(link), 64);
    for (int c = 0; c < im.k; ++c)
      put_bits(rec, kTreeImageLinkBits + std::uint64_t(c) * (im.b + 2), std::uint64_t(node.coeffs[c]), im.b + 2);
  }
  for (std::size_t t = 0; t < im.triangles.size(); ++t) {
    std::uint8_t* rec = out.data() + im.triangle_address(t);
    for (int c = 0; c < 9; ++c) put_bits(rec, std::uint64_t(c) * (im.v + 2), std::uint64_t(im.triangles[t][c]), im.v + 2);
  }
  put_u64(h + kOffChecksum, tree_image_checksum(out));
  return out;
}

TreeImage decode(std::span<const std::uint8_t> bytes, const std::string& name) {
  if (bytes.size() < kTreeImageHeaderBytes)
    throw InputError(fmt::format("{}: truncated tree image: {} bytes, the header alone is {}", name, bytes.size(),
                                 kTreeImageHeaderBytes));
  const std::uint8_t* h = bytes.data();
  if (std::memcmp(h + kOffMagic, kMagic, sizeof kMagic) != 0)
    throw InputError(fmt::format("{}: not a tree image (bad magic, expected \"KDOPIMG\\0\")", name));
  const std::uint32_t version = get_u32(h + kOffVersion);
  if (version != kTreeImageVersion)
    throw InputError(fmt::format("{}: unknown tree image version {} (this reader knows version {}{})", name, version,
                                 kTreeImageVersion,
                                 version == 1 ? "; version 1 images are in the file's frame: pack the mesh again" : ""));
  if (const std::uint32_t hb = get_u32(h + kOffHeaderBytes); hb != kTreeImageHeaderBytes)
    throw InputError(fmt::format("{}: header size {} bytes, version 2 has {}", name, hb, kTreeImageHeaderBytes));
  const std::uint64_t total = get_u64(h + kOffTotalBytes);
  if (total > bytes.size())
    throw InputError(fmt::format("{}: truncated tree image: {} bytes, the header says {}", name, bytes.size(), total));
  if (total < bytes.size())
    throw InputError(fmt::format("{}: {} bytes, the header says {} (trailing bytes)", name, bytes.size(), total));
  const std::uint64_t stored = get_u64(h + kOffChecksum), computed = tree_image_checksum(bytes);
  if (stored != computed)
    throw InputError(fmt::format("{}: checksum mismatch (stored {:#018x}, computed {:#018x}): the image is corrupted",
                                 name, stored, computed));

  TreeImage im;
  const std::uint32_t k = get_u32(h + kOffK), b = get_u32(h + kOffB), v = get_u32(h + kOffV),
                      w = get_u32(h + kOffBusWidth);
  const double scale = std::bit_cast<double>(get_u64(h + kOffScale));
  check_params(name, k, b, v, w, scale);
  for (int i = 0; i < 3; ++i) im.centre[i] = std::bit_cast<double>(get_u64(h + kOffCentre + 8 * std::size_t(i)));
  check_centre(name, im.centre);
  im.k = int(k);
  im.b = int(b);
  im.v = int(v);
  im.bus_width = int(w);
  im.scale = scale;
  const std::uint32_t node_count = get_u32(h + kOffNodeCount), triangle_count = get_u32(h + kOffTriangleCount);
  if (triangle_count == 0 || triangle_count > kMaxIndex / 2)
    throw InputError(fmt::format("{}: triangle count {} out of range 1..{}", name, triangle_count, kMaxIndex / 2));
  if (node_count != 2 * std::uint64_t(triangle_count) - 1)
    throw InputError(fmt::format("{}: {} nodes for {} triangles (one triangle per leaf needs {})", name, node_count,
                                 triangle_count, 2 * std::uint64_t(triangle_count) - 1));
  const std::uint32_t max_depth = get_u32(h + kOffMaxDepth), root = get_u32(h + kOffRoot);
  if (max_depth >= node_count)
    throw InputError(fmt::format("{}: max depth {} out of range 0..{}", name, max_depth, node_count - 1));
  if (root >= node_count)
    throw InputError(fmt::format("{}: root node index {} out of range 0..{}", name, root, node_count - 1));
  im.max_depth = std::int32_t(max_depth);
  im.root = std::int32_t(root);

  // The layout fields must be the ones this version computes from the parameters and counts;
  // checking total_bytes against them also proves that every record lies inside the buffer.
  TreeImage shape = im;  // no records yet: layout from counts only
  const std::uint64_t node_stride = shape.node_stride(), triangle_stride = shape.triangle_stride();
  const std::uint64_t triangle_offset = kTreeImageHeaderBytes + node_count * node_stride;
  const std::uint64_t expected_total = triangle_offset + triangle_count * triangle_stride;
  const struct {
    const char* what;
    std::uint64_t stored, expected;
  } layout[] = {{"node section offset", get_u64(h + kOffNodeOffset), kTreeImageHeaderBytes},
                {"triangle section offset", get_u64(h + kOffTriangleOffset), triangle_offset},
                {"node record stride", get_u32(h + kOffNodeStride), node_stride},
                {"triangle record stride", get_u32(h + kOffTriangleStride), triangle_stride},
                {"beats per node", get_u32(h + kOffNodeBeats), std::uint64_t(shape.node_beats())},
                {"beats per triangle", get_u32(h + kOffTriangleBeats), std::uint64_t(shape.triangle_beats())},
                {"total size", total, expected_total}};
  for (const auto& f : layout)
    if (f.stored != f.expected)
      throw InputError(fmt::format("{}: {} is {}, the parameters and counts give {}", name, f.what, f.stored, f.expected));

  const int cb = im.b + 2, vb = im.v + 2;
  const std::uint64_t node_payload = std::uint64_t(shape.node_bits()), tri_payload = std::uint64_t(shape.triangle_bits());
  const auto check_padding = [&](const std::uint8_t* rec, std::uint64_t payload, std::uint64_t stride, const char* what,
                                 std::size_t index) {
    for (std::uint64_t bit = payload; bit < stride * 8;) {
      const int n = int(std::min<std::uint64_t>(64, stride * 8 - bit));
      if (get_bits(rec, bit, n) != 0)
        throw InputError(fmt::format("{}: {} {} has non-zero padding bits", name, what, index));
      bit += std::uint64_t(n);
    }
  };
  im.nodes.resize(node_count);
  for (std::size_t i = 0; i < node_count; ++i) {
    const std::uint8_t* rec = bytes.data() + kTreeImageHeaderBytes + i * node_stride;
    const contract::format::Link link = contract::format::unpack_link(get_bits(rec, 0, 64));
    ImageNode& node = im.nodes[i];
    node.is_leaf = link.leaf != 0;
    const std::uint64_t low = link.left, high = link.right;
    if (node.is_leaf) {
      if (high != 0) throw InputError(fmt::format("{}: leaf node {} has non-zero link bits 32..62", name, i));
      if (low >= triangle_count)
        throw InputError(fmt::format("{}: leaf node {} has triangle index {} out of range 0..{}", name, i, low,
                                     triangle_count - 1));
      node.triangle = std::int32_t(low);
    } else {
      for (std::uint64_t child : {low, high})
        if (child >= node_count)
          throw InputError(fmt::format("{}: node {} has child index {} out of range 0..{}", name, i, child, node_count - 1));
      node.left = std::int32_t(low);
      node.right = std::int32_t(high);
    }
    node.coeffs.resize(im.k);
    for (int c = 0; c < im.k; ++c)
      node.coeffs[c] = sign_extend(get_bits(rec, kTreeImageLinkBits + std::uint64_t(c) * cb, cb), cb);
    check_padding(rec, node_payload, node_stride, "node", i);
  }
  im.triangles.resize(triangle_count);
  for (std::size_t t = 0; t < triangle_count; ++t) {
    const std::uint8_t* rec = bytes.data() + triangle_offset + t * triangle_stride;
    for (int c = 0; c < 9; ++c) im.triangles[t][c] = sign_extend(get_bits(rec, std::uint64_t(c) * vb, vb), vb);
    check_padding(rec, tri_payload, triangle_stride, "triangle", t);
  }
  std::vector<std::int32_t> depth;
  check_structure(im, name, depth);
  for (std::size_t i = 0; i < node_count; ++i) im.nodes[i].depth = depth[i];
  return im;
}

void write_tree_image(const std::string& path, const TreeImage& image) {
  const std::vector<std::uint8_t> bytes = encode(image);
  write_whole_file(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

TreeImage read_tree_image(const std::string& path) {
  const std::string text = read_whole_file(path, "tree image");
  return decode(std::vector<std::uint8_t>(text.begin(), text.end()), path);
}

}  // namespace kdopcd
