// The tree image (docs/formats.md "Tree image"): round trips, bit-exact quantization against
// fixed_format.hpp, the documented byte layout, and every kind of bad input.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include <unistd.h>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd/tree_image.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t off) {
  std::uint32_t x = 0;
  for (int i = 0; i < 4; ++i) x |= std::uint32_t(b[off + i]) << (8 * i);
  return x;
}
std::uint64_t u64_at(const std::vector<std::uint8_t>& b, std::size_t off) {
  std::uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x |= std::uint64_t(b[off + i]) << (8 * i);
  return x;
}
void set_u32(std::vector<std::uint8_t>& b, std::size_t off, std::uint32_t x) {
  for (int i = 0; i < 4; ++i) b[off + i] = std::uint8_t(x >> (8 * i));
}
void set_u64(std::vector<std::uint8_t>& b, std::size_t off, std::uint64_t x) {
  for (int i = 0; i < 8; ++i) b[off + i] = std::uint8_t(x >> (8 * i));
}
// Stores a fresh checksum, so a test reaches the check behind the checksum.
void reseal(std::vector<std::uint8_t>& b) { set_u64(b, 24, tree_image_checksum(b)); }

// Field n (width `width`) of a record, read straight from the bytes as docs/formats.md describes:
// bit p of a record is bit p % 8 of byte p / 8.
std::int64_t field(const std::vector<std::uint8_t>& bytes, std::uint64_t record, std::uint64_t bit0, int width) {
  std::uint64_t raw = 0;
  for (int j = 0; j < width; ++j) {
    const std::uint64_t p = bit0 + std::uint64_t(j);
    raw |= std::uint64_t((bytes[record + p / 8] >> (p % 8)) & 1) << j;
  }
  if (width < 64 && (raw >> (width - 1)) & 1) raw |= ~((std::uint64_t(1) << width) - 1);
  return std::int64_t(raw);
}

// Decoding must fail with an InputError that names the file and contains `what`.
void expect_rejected(const std::vector<std::uint8_t>& bytes, const std::string& what) {
  try {
    decode(bytes, "bad.img");
    FAIL() << "accepted an image that should fail with '" << what << "'";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("bad.img: ", 0), 0u) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << "message '" << msg << "' lacks '" << what << "'";
  }
}

// The image of a tree must hold exactly the reference's quantized values, in the tree's centred
// frame: centred coefficients, and vertices minus the centre (rounded once), over s.
void check_against_tree(const TreeImage& im, const DopTree& tree, double s) {
  ASSERT_EQ(im.nodes.size(), tree.node_count());
  ASSERT_EQ(im.triangles.size(), tree.mesh().triangle_count());
  EXPECT_EQ(im.scale, s);
  const Vec3 c = tree.centre();
  EXPECT_EQ(im.centre, (std::array<double, 3>{c.x(), c.y(), c.z()}));
  const std::vector<double> centred = centred_coefficients(tree);
  EXPECT_EQ(im.k, tree.k());
  EXPECT_EQ(im.max_depth, tree.max_depth());
  EXPECT_EQ(im.root, 0);
  for (std::size_t i = 0; i < tree.node_count(); ++i) {
    const DopNode& n = tree.node(i);
    const ImageNode& m = im.nodes[i];
    ASSERT_EQ(m.is_leaf, n.is_leaf());
    EXPECT_EQ(m.depth, n.depth);
    if (n.is_leaf()) {
      EXPECT_EQ(m.triangle, n.triangle);
    } else {
      EXPECT_EQ(m.left, n.left);
      EXPECT_EQ(m.right, n.right);
    }
    for (int d = 0; d < tree.k(); ++d)
      ASSERT_EQ(m.coeffs[d], quantize_coefficient(centred[i * std::size_t(tree.k()) + std::size_t(d)] / s, im.b))
          << "node " << i;
  }
  for (std::size_t t = 0; t < tree.mesh().triangle_count(); ++t)
    for (int corner = 0; corner < 3; ++corner)
      for (int axis = 0; axis < 3; ++axis)
        ASSERT_EQ(im.triangles[t][3 * corner + axis],
                  quantize_vertex((tree.mesh().corner(t, corner)[axis] - c[axis]) / s, im.v));
}

// A small image whose records the tests below corrupt: a tetrahedron, k = 6, b = 8, v = 8, W = 64.
Mesh tetrahedron() {
  Mesh m;
  m.name = "tetrahedron";
  m.vertices = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)};
  m.triangles = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  return m;
}

}  // namespace

TEST(TreeImage, RoundTripGeneratedAllParameters) {
  const Mesh torus = make_torus(1.0, 0.3, 16, 8);
  for (int k : kSupportedK) {
    const DopTree tree(torus, k);
    for (int b : {8, 18, 35, 44})
      for (int v : {8, 24})
        for (int w : {32, 64, 512}) {
          SCOPED_TRACE(::testing::Message() << "k=" << k << " b=" << b << " v=" << v << " W=" << w);
          const TreeImage im = make_tree_image(tree, {b, v, w, 0});
          check_against_tree(im, tree, tree.centred_largest_coefficient());
          const std::vector<std::uint8_t> bytes = encode(im);
          ASSERT_EQ(bytes.size(), im.total_bytes());
          ASSERT_EQ(bytes.size() % (w / 8), 0u);
          EXPECT_EQ(decode(bytes, "torus.img"), im);
          EXPECT_EQ(encode(decode(bytes, "torus.img")), bytes);
        }
  }
}

TEST(TreeImage, SphereAndBoxRoundTrip) {
  for (const Mesh& mesh : {make_sphere(2.5, 2), make_box(Vec3(1, 2, 3))}) {
    const DopTree tree(mesh, 24);
    const TreeImage im = make_tree_image(tree, {});
    check_against_tree(im, tree, tree.centred_largest_coefficient());
    EXPECT_EQ(decode(encode(im), "x"), im);
  }
}

// The bytes hold what docs/formats.md says, at the offsets it gives.
TEST(TreeImage, DocumentedByteLayout) {
  const Mesh torus = make_torus(1.0, 0.3, 12, 6);
  const DopTree tree(torus, 24);
  const TreeImage im = make_tree_image(tree, {18, 24, 64, 0});
  const std::vector<std::uint8_t> bytes = encode(im);
  EXPECT_EQ(std::memcmp(bytes.data(), "KDOPIMG\0", 8), 0);
  EXPECT_EQ(u32_at(bytes, 8), 2u);
  EXPECT_EQ(u32_at(bytes, 12), 128u);
  EXPECT_EQ(u64_at(bytes, 16), bytes.size());
  EXPECT_EQ(u64_at(bytes, 24), tree_image_checksum(bytes));
  EXPECT_EQ(u32_at(bytes, 32), 24u);
  EXPECT_EQ(u32_at(bytes, 36), 18u);
  EXPECT_EQ(u32_at(bytes, 40), 24u);
  EXPECT_EQ(u32_at(bytes, 44), 64u);
  EXPECT_EQ(u32_at(bytes, 48), tree.node_count());
  EXPECT_EQ(u32_at(bytes, 52), torus.triangle_count());
  EXPECT_EQ(u32_at(bytes, 56), std::uint32_t(tree.max_depth()));
  EXPECT_EQ(u32_at(bytes, 60), 0u);
  EXPECT_EQ(std::bit_cast<double>(u64_at(bytes, 64)), tree.centred_largest_coefficient());
  EXPECT_EQ(u64_at(bytes, 72), 128u);
  EXPECT_EQ(u64_at(bytes, 80), 128u + tree.node_count() * 72);
  EXPECT_EQ(u32_at(bytes, 88), 72u);
  EXPECT_EQ(u32_at(bytes, 92), 32u);
  EXPECT_EQ(u32_at(bytes, 96), 9u);
  EXPECT_EQ(u32_at(bytes, 100), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(std::bit_cast<double>(u64_at(bytes, 104 + 8 * std::size_t(i))), tree.centre()[i]);

  // k = 24, b = 18, W = 64: 64 + 24 * 20 = 544 bits -> 9 beats (72 bytes); triangles 9 * 26 = 234 -> 4.
  EXPECT_EQ(im.node_bits(), 544);
  EXPECT_EQ(im.node_beats(), 9);
  EXPECT_EQ(im.triangle_beats(), 4);
  for (std::size_t i = 0; i < tree.node_count(); ++i) {
    const std::uint64_t rec = im.node_address(i);
    EXPECT_EQ(rec, 128 + i * 72);
    const std::uint64_t link = u64_at(bytes, rec);
    const DopNode& n = tree.node(i);
    if (n.is_leaf()) {
      EXPECT_EQ(link, (std::uint64_t(1) << 63) | std::uint64_t(n.triangle));
    } else {
      EXPECT_EQ(link, std::uint64_t(n.left) | (std::uint64_t(n.right) << 32));
    }
    for (int d = 0; d < 24; ++d) ASSERT_EQ(field(bytes, rec, 64 + 20 * d, 20), im.nodes[i].coeffs[d]);
    EXPECT_EQ(field(bytes, rec, 544, 32), 0);  // padding to 576 bits
  }
  for (std::size_t t = 0; t < torus.triangle_count(); ++t) {
    const std::uint64_t rec = im.triangle_address(t);
    EXPECT_EQ(rec, u64_at(bytes, 80) + t * 32);
    for (int c = 0; c < 9; ++c) ASSERT_EQ(field(bytes, rec, 26 * c, 26), im.triangles[t][c]);
  }

  // b = 35: 64 + 24 * 37 = 952 bits -> 15 beats at W = 64, 30 at W = 32, 2 at W = 512.
  TreeImage wide = im;
  wide.b = 35;
  EXPECT_EQ(wide.node_beats(), 15);
  wide.bus_width = 32;
  EXPECT_EQ(wide.node_beats(), 30);
  wide.bus_width = 512;
  EXPECT_EQ(wide.node_beats(), 2);
}

// The extreme values of every field width survive packing (sign bit at a byte / word boundary).
TEST(TreeImage, FieldExtremesRoundTrip) {
  const Mesh tet = tetrahedron();
  for (int k : kSupportedK) {
    const DopTree tree(tet, k);
    for (int b = 1; b <= kMaxFixedBits; ++b)
      for (int w : {32, 64, 128, 256, 512}) {
        const int v = std::min(b + 7, kMaxVertexBits);
        TreeImage im = make_tree_image(tree, {b, v, w, 0});
        const std::int64_t lo = -(std::int64_t(1) << (b + 1)), hi = (std::int64_t(1) << (b + 1)) - 1;
        const std::int64_t vlo = -(std::int64_t(1) << (v + 1)), vhi = (std::int64_t(1) << (v + 1)) - 1;
        for (std::size_t i = 0; i < im.nodes.size(); ++i)
          for (int d = 0; d < k; ++d) im.nodes[i].coeffs[d] = (i + d) % 3 == 0 ? lo : (i + d) % 3 == 1 ? hi : -1;
        for (std::size_t t = 0; t < im.triangles.size(); ++t)
          for (int c = 0; c < 9; ++c) im.triangles[t][c] = (t + c) % 3 == 0 ? vlo : (t + c) % 3 == 1 ? vhi : 0;
        ASSERT_EQ(decode(encode(im), "x"), im) << "k=" << k << " b=" << b << " W=" << w;
        // One past either end does not fit and is refused.
        TreeImage over = im;
        over.nodes[0].coeffs[0] = hi + 1;
        EXPECT_THROW(encode(over), InputError);
        over = im;
        over.nodes[0].coeffs[0] = lo - 1;
        EXPECT_THROW(encode(over), InputError);
        over = im;
        over.triangles[0][8] = vhi + 1;
        EXPECT_THROW(encode(over), InputError);
      }
  }
}

TEST(TreeImage, ExplicitSceneScale) {
  const Mesh small = make_sphere(1.0, 1);
  const Mesh big = make_torus(3.0, 1.0, 12, 6);
  const DopTree a(small, 24), bt(big, 24);
  const double s = std::max(a.centred_largest_coefficient(), bt.centred_largest_coefficient());
  for (const DopTree* tree : {&a, &bt}) {
    const TreeImage im = make_tree_image(*tree, {18, 24, 64, s});
    check_against_tree(im, *tree, s);
    EXPECT_EQ(decode(encode(im), "x"), im);
  }
  // A scale below the tree's largest |coefficient| is an input error that names the mesh.
  try {
    make_tree_image(bt, {18, 24, 64, a.centred_largest_coefficient()});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("exceeds the scene scale"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_tree_image(a, {18, 24, 64, -1.0}), InputError);
  EXPECT_THROW(make_tree_image(a, {18, 24, 64, std::nan("")}), InputError);
  EXPECT_THROW(make_tree_image(a, {0, 24, 64, 0}), InputError);
  EXPECT_THROW(make_tree_image(a, {45, 24, 64, 0}), InputError);
  EXPECT_THROW(make_tree_image(a, {18, 53, 64, 0}), InputError);
  EXPECT_THROW(make_tree_image(a, {18, 24, 48, 0}), InputError);
}

TEST(TreeImage, FileRoundTrip) {
  const auto dir = std::filesystem::temp_directory_path() / ("kdopcd_tree_image_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const Mesh torus = make_torus(1.0, 0.4, 10, 5);  // DopTree keeps a reference to its mesh
  const DopTree tree(torus, 18);
  const TreeImage im = make_tree_image(tree, {20, 20, 128, 0});
  const std::string path = (dir / "torus.img").string();
  write_tree_image(path, im);
  EXPECT_EQ(std::filesystem::file_size(path), im.total_bytes());
  EXPECT_EQ(read_tree_image(path), im);
  try {
    read_tree_image((dir / "missing.img").string());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.img: "), std::string::npos);
  }
  EXPECT_THROW(write_tree_image((dir / "no" / "such" / "dir.img").string(), im), InputError);
  std::filesystem::remove_all(dir);
}

TEST(TreeImage, RealMeshRoundTrip) {
  REQUIRE_REAL_MESH("cow.off");
  const Mesh cow = load_mesh(real_mesh_path("cow.off"));
  for (int k : {6, 24}) {
    const DopTree tree(cow, k);
    const TreeImage im = make_tree_image(tree, {18, 24, 64, 0});
    check_against_tree(im, tree, tree.centred_largest_coefficient());
    EXPECT_EQ(decode(encode(im), "cow.img"), im);
  }
}

TEST(TreeImage, CorruptionIsAnInputError) {
  const Mesh tet = tetrahedron();
  const DopTree tree(tet, 6);
  const TreeImage im = make_tree_image(tree, {8, 8, 64, 0});
  const std::vector<std::uint8_t> good = encode(im);
  ASSERT_EQ(good.size(), 128u + 7 * 16 + 4 * 16);
  ASSERT_EQ(decode(good, "bad.img"), im);
  const std::size_t node0 = 128, tri0 = 128 + 7 * 16;
  // Which nodes are what (pre-order): 0 root, 1 inner (its children 2, 3), 4 inner (5, 6).
  ASSERT_FALSE(im.nodes[0].is_leaf);
  ASSERT_EQ(im.nodes[0].left, 1);
  ASSERT_EQ(im.nodes[1].left, 2);
  ASSERT_TRUE(im.nodes[2].is_leaf);

  const auto mutated = [&](const std::function<void(std::vector<std::uint8_t>&)>& f, bool seal = true) {
    std::vector<std::uint8_t> b = good;
    f(b);
    if (seal) reseal(b);
    return b;
  };
  // Truncated anywhere, and trailing bytes.
  for (std::size_t n : {std::size_t(0), std::size_t(7), std::size_t(127), std::size_t(128), good.size() - 16,
                        good.size() - 1})
    expect_rejected(std::vector<std::uint8_t>(good.begin(), good.begin() + std::ptrdiff_t(n)), "truncated");
  {
    std::vector<std::uint8_t> b = good;
    b.push_back(0);
    expect_rejected(b, "trailing bytes");
  }
  expect_rejected(mutated([](auto& b) { b[0] = 'X'; }, false), "bad magic");
  expect_rejected(mutated([](auto& b) { set_u32(b, 8, 3); }, false), "unknown tree image version 3");
  expect_rejected(mutated([](auto& b) { set_u32(b, 8, 1); }, false), "version 1 images are in the file's frame");
  expect_rejected(mutated([](auto& b) { set_u32(b, 12, 64); }, false), "header size");
  // Any flipped bit in a record or in a header field is caught by the checksum.
  expect_rejected(mutated([&](auto& b) { b[tri0 + 3] ^= 0x10; }, false), "checksum mismatch");
  expect_rejected(mutated([&](auto& b) { b[node0 + 9] ^= 0x01; }, false), "checksum mismatch");
  expect_rejected(mutated([](auto& b) { b[64] ^= 0x01; }, false), "checksum mismatch");  // scale
  // Field out of range (checksum made valid again, so the field check itself is reached).
  expect_rejected(mutated([](auto& b) { set_u32(b, 32, 8); }), "unsupported k = 8");
  expect_rejected(mutated([](auto& b) { set_u32(b, 36, 0); }), "coefficient bits b = 0");
  expect_rejected(mutated([](auto& b) { set_u32(b, 36, 45); }), "coefficient bits b = 45");
  expect_rejected(mutated([](auto& b) { set_u32(b, 40, 53); }), "vertex bits v = 53");
  expect_rejected(mutated([](auto& b) { set_u32(b, 44, 48); }), "bus width W = 48");
  expect_rejected(mutated([](auto& b) { set_u64(b, 64, std::bit_cast<std::uint64_t>(-1.0)); }), "scene scale");
  expect_rejected(mutated([](auto& b) { set_u64(b, 64, std::bit_cast<std::uint64_t>(std::nan(""))); }), "scene scale");
  expect_rejected(mutated([](auto& b) { set_u32(b, 48, 9); }), "9 nodes for 4 triangles");
  expect_rejected(mutated([](auto& b) { set_u32(b, 52, 0); }), "triangle count 0");
  expect_rejected(mutated([](auto& b) { set_u32(b, 52, 0xffffffffu); }), "triangle count");
  expect_rejected(mutated([](auto& b) { set_u32(b, 56, 1); }), "max depth 1 stated, the tree's is 2");
  expect_rejected(mutated([](auto& b) { set_u32(b, 56, 7); }), "max depth 7 out of range");
  expect_rejected(mutated([](auto& b) { set_u32(b, 60, 7); }), "root node index 7 out of range");
  expect_rejected(mutated([](auto& b) { set_u32(b, 60, 1); }), "not reachable from the root");
  expect_rejected(mutated([](auto& b) { set_u64(b, 72, 136); }), "node section offset");
  expect_rejected(mutated([](auto& b) { set_u64(b, 80, 0); }), "triangle section offset");
  expect_rejected(mutated([](auto& b) { set_u32(b, 88, 8); }), "node record stride");
  expect_rejected(mutated([](auto& b) { set_u32(b, 92, 8); }), "triangle record stride");
  expect_rejected(mutated([](auto& b) { set_u32(b, 96, 1); }), "beats per node");
  expect_rejected(mutated([](auto& b) { set_u32(b, 100, 1); }), "beats per triangle");
  expect_rejected(mutated([](auto& b) { set_u64(b, 112, std::bit_cast<std::uint64_t>(std::nan(""))); }),
                  "centre coordinate y");
  expect_rejected(mutated([](auto& b) { set_u64(b, 120, std::bit_cast<std::uint64_t>(-HUGE_VAL)); }),
                  "centre coordinate z");
  // Links: a child index out of range, a cycle, a shared subtree, a bad triangle index.
  expect_rejected(mutated([&](auto& b) { set_u32(b, node0 + 0, 7); }), "child index 7 out of range");
  expect_rejected(mutated([&](auto& b) { set_u32(b, node0 + 4, 0x7fffffff); }), "child index 2147483647 out of range");
  expect_rejected(mutated([&](auto& b) { set_u32(b, node0 + 16 + 4, 0); }), "cycle");       // node 1 -> root
  expect_rejected(mutated([&](auto& b) { set_u32(b, node0 + 16 + 4, 1); }), "cycle");       // node 1 -> itself
  expect_rejected(mutated([&](auto& b) { set_u32(b, node0 + 4, 2); }), "reached twice");    // root -> 1, 2
  expect_rejected(mutated([&](auto& b) { set_u32(b, node0 + 32, 4); }), "triangle index 4 out of range");
  expect_rejected(mutated([&](auto& b) { b[node0 + 32 + 4] = 1; }), "non-zero link bits");
  expect_rejected(mutated([&](auto& b) { set_u32(b, node0 + 32, std::uint32_t(im.nodes[3].triangle)); }),
                  "in two leaves");
  // A leaf flag on an inner node leaves its old children unreachable (or its triangle shared).
  expect_rejected(mutated([&](auto& b) { set_u64(b, node0 + 16, (std::uint64_t(1) << 63) | 0); }), "");
  // Non-zero padding after the last field of a record (k = 6, b = 8: 124 bits used of 128).
  expect_rejected(mutated([&](auto& b) { b[node0 + 15] |= 0x80; }), "node 0 has non-zero padding");
  expect_rejected(mutated([&](auto& b) { b[tri0 + 16 + 15] |= 0x80; }), "triangle 1 has non-zero padding");
}

// Random corruption (with a valid checksum, so the record checks run) never crashes, reads out of
// bounds or hangs: decode either returns an image that encodes back to the same bytes, or throws
// InputError. Run under the asan-ubsan preset as well.
TEST(TreeImage, RandomCorruptionNeverCrashes) {
  const Mesh torus = make_torus(1.0, 0.3, 6, 4);
  const DopTree tree(torus, 14);
  const std::vector<std::uint8_t> good = encode(make_tree_image(tree, {12, 10, 32, 0}));
  std::mt19937_64 rng(12345);
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<std::uint8_t> b = good;
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      // Half the flips hit the header (the parsing fields), half anywhere.
      const std::size_t at = (rng() % 2) ? rng() % 128 : rng() % b.size();
      b[at] ^= std::uint8_t(1u << (rng() % 8));
    }
    if (trial % 5 == 0) b.resize(rng() % (b.size() + 1));
    if (b.size() >= 128 && trial % 7 != 0) reseal(b);
    try {
      const TreeImage im = decode(b, "fuzz.img");
      EXPECT_EQ(encode(im), b);
      ++accepted;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("fuzz.img: ", 0), 0u) << e.what();
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(accepted, 0);  // flips inside coefficient / coordinate fields decode to other values
}
