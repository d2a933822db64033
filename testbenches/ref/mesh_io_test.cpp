// Mesh loading (the triangle numbering convention of mesh.hpp, per format), bad-input errors, and
// the generated shapes. Test files are written into a fresh temporary folder per test.
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "test_meshes.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/shapes.hpp"

namespace kdopcd {
namespace {

namespace fs = std::filesystem;
using Tri = TriangleIndices;

// A fresh folder under the system temp dir, removed after the test.
class MeshIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("kdopcd_mesh_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  fs::path dir_;
};

// The geometry every format test writes: a quad, a pentagon, a triangle and a quad, with leading
// vertices chosen so that a rotated fan or a reordered face would show. The coordinates are exact
// in float, so OBJ/STL (float inside Assimp) give the same numbers as OFF/PLY.
const std::vector<Vec3> kVertices = {{0, 0, 0}, {1, 0, 0},   {1, 1, 0},   {0, 1, 0},
                                     {0.5, 1.5, 0}, {0, 0, 1}, {1, 0, 1.25}};
const std::vector<std::vector<int>> kFaces = {{0, 1, 2, 3}, {3, 0, 1, 2, 4}, {0, 5, 6}, {1, 6, 5, 0}};
// The fan (v0, vk, vk+1) of each face, in face order.
const std::vector<Tri> kTriangles = {{0, 1, 2}, {0, 2, 3}, {3, 0, 1}, {3, 1, 2},
                                     {3, 2, 4}, {0, 5, 6}, {1, 6, 5}, {1, 5, 0}};

// The body OFF and ascii PLY share: "x y z" per vertex, then "count i0 i1 ..." per face.
std::string vertex_and_face_lines() {
  std::ostringstream s;
  for (const Vec3& v : kVertices) s << v.x() << " " << v.y() << " " << v.z() << "\n";
  for (const auto& f : kFaces) {
    s << f.size();
    for (int i : f) s << " " << i;
    s << "\n";
  }
  return s.str();
}

std::string off_text() {
  return "OFF\n# test polygon soup\n" + std::to_string(kVertices.size()) + " " + std::to_string(kFaces.size()) +
         " 0\n" + vertex_and_face_lines();
}

std::string obj_text() {
  std::ostringstream s;
  s << "# test polygon soup\n";
  for (const Vec3& v : kVertices) s << "v " << v.x() << " " << v.y() << " " << v.z() << "\n";
  for (const auto& f : kFaces) {
    s << "f";
    for (int i : f) s << " " << i + 1;  // OBJ counts from 1
    s << "\n";
  }
  return s.str();
}

std::string ply_header(const std::string& format) {
  return "ply\nformat " + format + " 1.0\ncomment test polygon soup\nelement vertex " +
         std::to_string(kVertices.size()) + "\nproperty float x\nproperty float y\nproperty float z\n" +
         "element face " + std::to_string(kFaces.size()) + "\nproperty list uchar int vertex_indices\nend_header\n";
}

std::string ply_ascii_text() { return ply_header("ascii") + vertex_and_face_lines(); }

template <typename T>
void put(std::string& out, T value, bool big_endian) {
  char b[sizeof(T)];
  std::memcpy(b, &value, sizeof(T));
  if (big_endian) std::reverse(b, b + sizeof(T));
  out.append(b, sizeof(T));
}

std::string ply_binary_text(bool big_endian) {
  std::string s = ply_header(big_endian ? "binary_big_endian" : "binary_little_endian");
  for (const Vec3& v : kVertices) {
    for (int c = 0; c < 3; ++c) put(s, static_cast<float>(v[c]), big_endian);
  }
  for (const auto& f : kFaces) {
    put(s, static_cast<std::uint8_t>(f.size()), big_endian);
    for (int i : f) put(s, static_cast<std::int32_t>(i), big_endian);
  }
  return s;
}

// STL has no polygons: it gets the fan triangles, as separate facets.
std::string stl_ascii_text() {
  std::ostringstream s;
  s << "solid soup\n";
  for (const Tri& t : kTriangles) {
    s << "facet normal 0 0 0\n outer loop\n";
    for (auto i : t) s << "  vertex " << kVertices[i].x() << " " << kVertices[i].y() << " " << kVertices[i].z() << "\n";
    s << " endloop\nendfacet\n";
  }
  s << "endsolid soup\n";
  return s.str();
}

std::string stl_binary_text(const std::string& header = "binary soup") {
  std::string s = header;
  s.resize(80, ' ');
  put(s, static_cast<std::uint32_t>(kTriangles.size()), false);
  for (const Tri& t : kTriangles) {
    for (int c = 0; c < 3; ++c) put(s, 0.0f, false);  // normal
    for (auto i : t) {
      for (int c = 0; c < 3; ++c) put(s, static_cast<float>(kVertices[i][c]), false);
    }
    put(s, std::uint16_t{0}, false);
  }
  return s;
}

// The triangles as corner coordinates: comparable across indexed and unindexed formats.
std::vector<std::array<Vec3, 3>> corners(const Mesh& m) {
  std::vector<std::array<Vec3, 3>> out;
  for (std::size_t t = 0; t < m.triangle_count(); ++t) out.push_back({m.corner(t, 0), m.corner(t, 1), m.corner(t, 2)});
  return out;
}

std::vector<std::array<Vec3, 3>> expected_corners() {
  std::vector<std::array<Vec3, 3>> out;
  for (const Tri& t : kTriangles) out.push_back({kVertices[t[0]], kVertices[t[1]], kVertices[t[2]]});
  return out;
}

// Runs load_mesh and returns the InputError message ("" if it loaded, which the caller fails on).
std::string load_error(const std::string& path) {
  try {
    load_mesh(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A macro, so that a failure points at the line of the case.
#define EXPECT_INPUT_ERROR(PATH, WORD)                                                            \
  do {                                                                                            \
    const std::string p_ = (PATH);                                                                \
    const std::string w_ = (WORD);                                                                \
    const std::string msg_ = load_error(p_);                                                      \
    EXPECT_NE(msg_, "") << p_ << " loaded without error";                                          \
    EXPECT_NE(msg_.find(fs::path(p_).filename().string()), std::string::npos) << msg_;            \
    EXPECT_NE(msg_.find(w_), std::string::npos) << "expected '" << w_ << "' in: " << msg_;         \
  } while (0)

// ------------------------------------------------------------------------------------------------
// Triangle numbering per format.

TEST_F(MeshIoTest, OffPolygonsBecomeFansInFileOrder) {
  const Mesh m = load_mesh(write("soup.off", off_text()));
  EXPECT_EQ(m.name, "soup.off");
  EXPECT_EQ(m.vertices, kVertices);
  EXPECT_EQ(m.triangles, kTriangles);
}

TEST_F(MeshIoTest, ObjPolygonsBecomeFansInFileOrder) {
  const Mesh m = load_mesh(write("soup.obj", obj_text()));
  // Assimp returns one vertex per corner; merging brings back the file's vertices, here in file
  // order because every vertex is first used in order.
  EXPECT_EQ(m.vertices, kVertices);
  EXPECT_EQ(m.triangles, kTriangles);
}

TEST_F(MeshIoTest, PlyAsciiPolygonsBecomeFansInFileOrder) {
  const Mesh m = load_mesh(write("soup.ply", ply_ascii_text()));
  EXPECT_EQ(m.vertices, kVertices);
  EXPECT_EQ(m.triangles, kTriangles);
}

TEST_F(MeshIoTest, PlyBinaryPolygonsBecomeFansInFileOrder) {
  for (bool big : {false, true}) {
    const Mesh m = load_mesh(write(big ? "soup_be.ply" : "soup_le.ply", ply_binary_text(big)));
    EXPECT_EQ(m.vertices, kVertices) << (big ? "big" : "little") << " endian";
    EXPECT_EQ(m.triangles, kTriangles) << (big ? "big" : "little") << " endian";
  }
}

TEST_F(MeshIoTest, StlKeepsFacetOrder) {
  // Binary STL headers often start with "solid" too; the size decides, so try both headers.
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"ascii.stl", stl_ascii_text()},
           {"binary.stl", stl_binary_text()},
           {"binary_solid.stl", stl_binary_text("solid but binary")}}) {
    const Mesh m = load_mesh(write(name, bytes));
    EXPECT_EQ(m.triangle_count(), kTriangles.size()) << name;
    EXPECT_EQ(corners(m), expected_corners()) << name;
    EXPECT_EQ(m.vertices.size(), kVertices.size()) << name << ": equal corners merge into one vertex";
  }
}

TEST_F(MeshIoTest, AllFormatsGiveTheSameTriangles) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"a.off", off_text()},           {"a.obj", obj_text()},
      {"a.ply", ply_ascii_text()},     {"b.ply", ply_binary_text(false)},
      {"a.stl", stl_ascii_text()},     {"b.stl", stl_binary_text()},
  };
  for (const auto& [name, bytes] : files) {
    const Mesh m = load_mesh(write(name, bytes));
    EXPECT_EQ(m.triangle_count(), 8u) << name;  // 2 + 3 + 1 + 2 fan triangles
    EXPECT_EQ(corners(m), expected_corners()) << name;
  }
}

TEST_F(MeshIoTest, OffLargePolygonIsNotDropped) {
  // Assimp's OFF loader drops faces with more than 9 vertices; ours fans them.
  std::ostringstream s;
  s << "OFF\n12 2 0\n";
  for (int i = 0; i < 12; ++i) s << std::cos(i * 0.5) << " " << std::sin(i * 0.5) << " 0\n";
  s << "12 0 1 2 3 4 5 6 7 8 9 10 11\n3 11 0 5\n";
  const Mesh m = load_mesh(write("big.off", s.str()));
  ASSERT_EQ(m.triangle_count(), 11u);
  for (std::uint32_t k = 1; k <= 10; ++k) EXPECT_EQ(m.triangles[k - 1], (Tri{0, k, k + 1}));
  EXPECT_EQ(m.triangles[10], (Tri{11, 0, 5}));
}

TEST_F(MeshIoTest, OffHeaderVariants) {
  // COFF with colours, counts on the header line, comments, blank lines, CRLF, '+' signs.
  const std::string text =
      "COFF 4 2 0 # counts here\r\n"
      "\n"
      "0 0 0 255 0 0 255\r\n"
      "+1 0 0 255 0 0 255\r\n"
      "1 1 0 255 0 0 255  # comment\r\n"
      "0 1e-400 0 255 0 0 255\r\n"  // underflows to 0: a number, not an error
      "3 0 1 2 0.5 0.5 0.5\r\n"
      "3 0 2 3\r\n";
  const Mesh m = load_mesh(write("colored.off", text));
  EXPECT_EQ(m.triangles, (std::vector<Tri>{{0, 1, 2}, {0, 2, 3}}));
  EXPECT_EQ(m.vertices[1], Vec3(1, 0, 0));
  EXPECT_EQ(m.vertices[3], Vec3(0, 0, 0));
}

TEST_F(MeshIoTest, ObjGroupsAreConcatenatedInFileOrder) {
  // Groups, a reopened group, objects and material runs become separate Assimp meshes; points and
  // lines are skipped without taking a triangle number; negative (relative) indices work.
  write("m.mtl", "newmtl red\nKd 1 0 0\nnewmtl green\nKd 0 1 0\n");
  const std::string text =
      "mtllib m.mtl\n"
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\n"
      "g first\n"
      "f 1 2 3 4\n"        // triangles 0, 1
      "g second\n"
      "l 1 2 3\n"          // skipped
      "f 2 3 5\n"          // triangle 2
      "p 4\n"              // skipped
      "g first\n"
      "f -1 -2 -3\n"       // 5 4 3: triangle 3
      "o thing\n"
      "usemtl red\n"
      "f 1 3 5\n"          // triangle 4
      "usemtl green\n"
      "f 5 4 3 2 1\n"      // triangles 5, 6, 7
      "usemtl red\n"
      "f 2 4 5\n";         // triangle 8
  const Mesh m = load_mesh(write("groups.obj", text));
  const std::vector<Vec3> v = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}};
  const std::vector<std::array<int, 3>> expected = {{0, 1, 2}, {0, 2, 3}, {1, 2, 4}, {4, 3, 2}, {0, 2, 4},
                                                     {4, 3, 2}, {4, 2, 1}, {4, 1, 0}, {1, 3, 4}};
  ASSERT_EQ(m.triangle_count(), expected.size());
  for (std::size_t t = 0; t < expected.size(); ++t) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(m.corner(t, c), v[expected[t][c]]) << "triangle " << t << " corner " << c;
  }
}

TEST_F(MeshIoTest, UppercaseExtension) {
  EXPECT_EQ(load_mesh(write("SOUP.OFF", off_text())).triangles, kTriangles);
  EXPECT_EQ(load_mesh(write("SOUP.Obj", obj_text())).triangles, kTriangles);
}

TEST_F(MeshIoTest, SaveOffRoundTripIsBitExact) {
  Mesh m;
  m.vertices = {{0.1, 1.0 / 3.0, -2.0 / 7.0}, {1e-300, -0x1p100, std::nextafter(1.0, 2.0)},  // -2^100: the scale limit
                {-0.0, 5e-324, 123456789.123456789}, {std::numbers::pi, -std::numbers::e, 0.3}};
  m.triangles = {{0, 1, 2}, {3, 2, 1}, {0, 3, 1}};
  const std::string path = (dir_ / "round.off").string();
  save_off(m, path);
  const Mesh back = load_mesh(path);
  ASSERT_EQ(back.vertices.size(), m.vertices.size());
  for (std::size_t i = 0; i < m.vertices.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(back.vertices[i][c]), std::bit_cast<std::uint64_t>(m.vertices[i][c]))
          << "vertex " << i << " coordinate " << c;
    }
  }
  EXPECT_EQ(back.triangles, m.triangles);
  // One ulp beyond the scale limit: refused on reading, with the vertex named.
  m.vertices[1][1] = std::nextafter(-0x1p100, -1e300);
  save_off(m, path);
  try {
    load_mesh(path);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("vertex 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("scale limit"), std::string::npos) << e.what();
  }
}

TEST_F(MeshIoTest, SaveOffToBadPathThrows) {
  try {
    save_off(make_box({1, 1, 1}), (dir_ / "no_such_dir" / "x.off").string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("x.off"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------------------------------------
// Bad input: always InputError naming the file and what was wrong, never a crash or a hang.

TEST_F(MeshIoTest, MissingFileUnknownExtensionDirectory) {
  EXPECT_INPUT_ERROR((dir_ / "missing.off").string(), "not found");
  EXPECT_INPUT_ERROR(write("mesh.xyz", off_text()), "extension");
  EXPECT_INPUT_ERROR(write("noext", off_text()), "extension");
  fs::create_directory(dir_ / "folder.off");
  EXPECT_INPUT_ERROR((dir_ / "folder.off").string(), "regular file");
}

// Root (CI runs as root) reads files whatever their permissions through two capabilities,
// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH. This clears them from the calling thread's effective
// set while it lives and restores them after (they stay permitted, so raising them again is
// allowed). Capabilities belong to a thread, and the loaders open the file in the calling one.
// Without root the effective set lacks them already and nothing changes.
class WithoutPermissionOverride {
 public:
  WithoutPermissionOverride() {
    if (::syscall(SYS_capget, &header_, saved_) != 0) throw std::system_error(errno, std::generic_category(), "capget");
    __user_cap_data_struct reduced[2] = {saved_[0], saved_[1]};
    for (const int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH})
      reduced[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
    if (::syscall(SYS_capset, &header_, reduced) != 0) throw std::system_error(errno, std::generic_category(), "capset");
  }
  ~WithoutPermissionOverride() { ::syscall(SYS_capset, &header_, saved_); }
  WithoutPermissionOverride(const WithoutPermissionOverride&) = delete;
  WithoutPermissionOverride& operator=(const WithoutPermissionOverride&) = delete;

 private:
  __user_cap_header_struct header_{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct saved_[2]{};
};

TEST_F(MeshIoTest, UnreadableFile) {
  const std::string path = write("secret.off", off_text());
  fs::permissions(path, fs::perms::none);
  const std::string obj = write("secret.obj", obj_text());
  fs::permissions(obj, fs::perms::none);
  const WithoutPermissionOverride as_a_plain_user;
  ASSERT_FALSE(std::ifstream(path)) << path << " is still readable: the test would not reach 'cannot open'";
  EXPECT_INPUT_ERROR(path, "cannot open");
  EXPECT_INPUT_ERROR(obj, "cannot open");
}

TEST_F(MeshIoTest, EmptyFilesAndEmptyMeshes) {
  for (const char* ext : {".off", ".obj", ".stl", ".ply"}) EXPECT_INPUT_ERROR(write(std::string("zero") + ext, ""), "empty");
  EXPECT_INPUT_ERROR(write("nofaces.off", "OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n"), "empty mesh");
  EXPECT_INPUT_ERROR(write("lines.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nl 1 2 3\np 1\n"), "empty mesh");
  EXPECT_INPUT_ERROR(write("points.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                                         "property float y\nproperty float z\nend_header\n0 0 0\n"),
                     "empty mesh");
  EXPECT_INPUT_ERROR(write("solid.stl", "solid x\nendsolid x\n"), "empty mesh");
  std::string zero_facets(80, ' ');
  put(zero_facets, std::uint32_t{0}, false);
  EXPECT_INPUT_ERROR(write("zero_facets.stl", zero_facets), "empty mesh");
}

TEST_F(MeshIoTest, OffWrongCounts) {
  const std::string body = "0 0 0\n1 0 0\n1 1 0\n0 1 0\n3 0 1 2\n3 0 2 3\n";
  EXPECT_INPUT_ERROR(write("more_faces.off", "OFF\n4 3 0\n" + body), "faces announced");
  EXPECT_INPUT_ERROR(write("fewer_faces.off", "OFF\n4 1 0\n" + body), "line 8: unexpected content");
  EXPECT_INPUT_ERROR(write("more_vertices.off", "OFF\n5 2 0\n" + body), "faces announced");
  EXPECT_INPUT_ERROR(write("fewer_vertices.off", "OFF\n3 2 0\n" + body), "line 6: face 0 has 0 vertices");
  EXPECT_INPUT_ERROR(write("no_counts.off", "OFF\n"), "counts");
  EXPECT_INPUT_ERROR(write("bad_counts.off", "OFF\nfour 2 0\n" + body), "line 2: expected the counts");
  EXPECT_INPUT_ERROR(write("short_face.off", "OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2\n"),
                     "line 7: face 0 announces 4 vertices but lists 3");
}

TEST_F(MeshIoTest, OffBadContent) {
  const std::string verts = "0 0 0\n1 0 0\n1 1 0\n";
  EXPECT_INPUT_ERROR(write("range.off", "OFF\n3 2 0\n" + verts + "3 0 1 2\n3 0 2 9\n"),
                     "line 7: face 1: vertex index 9 out of range");
  EXPECT_INPUT_ERROR(write("negative.off", "OFF\n3 1 0\n" + verts + "3 0 -1 2\n"), "line 6: face 0: vertex index");
  EXPECT_INPUT_ERROR(write("line_face.off", "OFF\n3 1 0\n" + verts + "2 0 1\n"), "need at least 3");
  EXPECT_INPUT_ERROR(write("nan.off", "OFF\n3 1 0\n0 0 0\nnan 0 0\n1 1 0\n3 0 1 2\n"), "line 4: vertex 1");
  EXPECT_INPUT_ERROR(write("inf.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n1 1e999 0\n3 0 1 2\n"), "finite");
  EXPECT_INPUT_ERROR(write("two_coords.off", "OFF\n3 1 0\n0 0\n1 0 0\n1 1 0\n3 0 1 2\n"), "needs 3 coordinates");
  EXPECT_INPUT_ERROR(write("header.off", "PLY\n3 1 0\n" + verts + "3 0 1 2\n"), "line 1: expected the OFF header");
  EXPECT_INPUT_ERROR(write("4d.off", "4OFF\n3 1 0\n" + verts + "3 0 1 2\n"), "3-D");
  EXPECT_INPUT_ERROR(write("binary.off", "OFF BINARY\n"), "not supported");
  EXPECT_INPUT_ERROR(write("comments.off", "# nothing\n\n# here\n"), "no OFF header");
}

TEST_F(MeshIoTest, ObjBadContent) {
  const std::string verts = "v 0 0 0\nv 1 0 0\nv 1 1 0\n";
  EXPECT_INPUT_ERROR(write("range.obj", verts + "f 1 2 7\n"), "out of range");
  EXPECT_INPUT_ERROR(write("negative.obj", verts + "f 1 2 -7\n"), "out of range");
  EXPECT_INPUT_ERROR(write("zero.obj", verts + "f 0 1 2\n"), "face index");
  EXPECT_INPUT_ERROR(write("nan.obj", "v 0 0 0\nv nan 0 0\nv 1 1 0\nf 1 2 3\n"), "non-finite");
}

TEST_F(MeshIoTest, PlyBadContent) {
  const std::string head =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
      "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n1 1 0\n";
  EXPECT_INPUT_ERROR(write("range.ply", head + "3 0 1 7\n"), "line 13: face 0: vertex index 7 out of range");
  EXPECT_INPUT_ERROR(write("line.ply", head + "2 0 1\n"), "need at least 3");
  EXPECT_INPUT_ERROR(write("short.ply", head + "3 0 1\n"), "line 13: face 0: fewer values");
  EXPECT_INPUT_ERROR(write("long.ply", head + "3 0 1 2 5\n"), "line 13: face 0: 5 values");
  EXPECT_INPUT_ERROR(write("count.ply", head + "300 0 1 2\n"), "not a valid value");  // > uchar
  EXPECT_INPUT_ERROR(write("missing_face.ply", head), "file ends before face 0");
  EXPECT_INPUT_ERROR(write("extra.ply", head + "3 0 1 2\n3 0 1 2\n"), "line 14: unexpected content");
  std::string nan_head = head;
  nan_head.replace(nan_head.find("1 1 0\n"), 6, "1 nan 0\n");
  EXPECT_INPUT_ERROR(write("nan.ply", nan_head + "3 0 1 2\n"), "line 12: vertex 2: non-finite");
  EXPECT_INPUT_ERROR(write("no_end.ply", "ply\nformat ascii 1.0\nelement vertex 3\n"), "end_header");
  EXPECT_INPUT_ERROR(write("odd_name.ply", "ply\nformat ascii 1.0\nelement vertex 3 x\nend_header\n"),
                     "line 3: malformed PLY element");
  EXPECT_INPUT_ERROR(write("no_xyz.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n"),
                     "x, y, z");
  // Binary: a truncated body and trailing bytes.
  const std::string bin = ply_binary_text(false);
  EXPECT_INPUT_ERROR(write("truncated.ply", bin.substr(0, bin.size() - 3)), "truncated");
  EXPECT_INPUT_ERROR(write("trailing.ply", bin + "xyz"), "3 bytes after");
}

TEST_F(MeshIoTest, StlTruncatedBinary) {
  const std::string bin = stl_binary_text();
  EXPECT_INPUT_ERROR(write("truncated.stl", bin.substr(0, bin.size() - 7)), "STL");
  // With a "solid" header a truncated binary file is taken for ascii; it still has to fail cleanly.
  const std::string solid = stl_binary_text("solid binary");
  EXPECT_INPUT_ERROR(write("truncated_solid.stl", solid.substr(0, solid.size() - 7)), "cannot import");
  EXPECT_INPUT_ERROR(write("header_only.stl", solid.substr(0, 80)), "cannot import");
}

TEST_F(MeshIoTest, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  for (const char* ext : {".off", ".obj", ".stl", ".ply"}) {
    for (int i = 0; i < 20; ++i) {
      std::string bytes(1 + rng() % 3000, '\0');
      for (char& c : bytes) c = static_cast<char>(rng());
      const std::string name = "random" + std::to_string(i) + ext;
      EXPECT_INPUT_ERROR(write(name, bytes), ":");
    }
  }
}

TEST_F(MeshIoTest, MutatedFilesNeverCrash) {
  // Mutations of valid files of each format (the kind of input that hangs Assimp's PLY loader):
  // each must either load or give an InputError naming the file.
  const std::vector<std::pair<std::string, std::string>> seeds = {
      {".off", off_text()},       {".obj", obj_text()},         {".ply", ply_ascii_text()},
      {".ply", ply_binary_text(false)}, {".stl", stl_ascii_text()}, {".stl", stl_binary_text()}};
  const std::vector<std::string> inserts = {"9999999", "-1", "nan", "\n", " ", "1e40", "4294967295", "0"};
  std::mt19937 rng(2024);
  int loaded = 0;
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    for (int i = 0; i < 40; ++i) {
      std::string bytes = seeds[s].second;
      switch (i % 3) {
        case 0: bytes.resize(rng() % bytes.size()); break;
        case 1:
          for (int k = 0; k < 3; ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng());
          break;
        default: bytes.insert(rng() % bytes.size(), inserts[rng() % inserts.size()]); break;
      }
      const std::string path = write("mutated" + std::to_string(s) + "_" + std::to_string(i) + seeds[s].first, bytes);
      try {
        const Mesh m = load_mesh(path);
        EXPECT_GT(m.triangle_count(), 0u);
        ++loaded;
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(fs::path(path).filename().string()), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_LT(loaded, 240);  // most mutations are errors
}

// ------------------------------------------------------------------------------------------------
// A real mesh: cow.off from Debian's libcgal-demo (scripts/fetch-meshes.sh).

TEST(MeshIoRealMesh, CowTriangleCountMatchesOffHeader) {
  REQUIRE_REAL_MESH("cow.off");  // real meshes are part of the suite: missing is a failure
  const std::string path = real_mesh_path("cow.off");
  // Read the header independently of load_mesh: first non-comment line "OFF", then "V F E".
  std::ifstream in(path);
  std::string line, keyword;
  std::size_t nv = 0, nf = 0;
  while (std::getline(in, line) && (line.empty() || line[0] == '#')) {
  }
  std::istringstream(line) >> keyword;
  ASSERT_EQ(keyword, "OFF");
  while (std::getline(in, line) && (line.empty() || line[0] == '#')) {
  }
  std::istringstream(line) >> nv >> nf;
  ASSERT_EQ(nf, 5804u);  // cow is all triangles, so F is also the triangle count

  const Mesh m = load_mesh(path);
  EXPECT_EQ(m.name, "cow.off");
  EXPECT_EQ(m.vertices.size(), nv);
  EXPECT_EQ(m.triangle_count(), nf);
}

// ------------------------------------------------------------------------------------------------
// Generated shapes.

// Closed and consistently oriented: every directed edge occurs once and its reverse once, so every
// edge is shared by exactly two triangles that traverse it in opposite directions.
void expect_closed(const Mesh& m) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (const Tri& t : m.triangles) {
    ASSERT_TRUE(t[0] != t[1] && t[1] != t[2] && t[0] != t[2]) << m.name << ": degenerate triangle";
    for (int k = 0; k < 3; ++k) {
      ASSERT_LT(t[k], m.vertices.size());
      ++directed[{t[k], t[(k + 1) % 3]}];
    }
  }
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1) << m.name << ": edge " << edge.first << "-" << edge.second << " used " << count << " times";
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u)
        << m.name << ": edge " << edge.first << "-" << edge.second << " has no opposite";
  }
  EXPECT_EQ(directed.size(), 3 * m.triangle_count());
}

// Signed volume (divergence theorem): positive when the triangles face outward.
double signed_volume(const Mesh& m) {
  double v = 0.0;
  for (std::size_t t = 0; t < m.triangle_count(); ++t) v += m.corner(t, 0).dot(m.corner(t, 1).cross(m.corner(t, 2)));
  return v / 6.0;
}

TEST(Shapes, BoxIsClosedWithExactVolume) {
  const Mesh m = make_box({1.0, 2.0, 0.5});
  EXPECT_EQ(m.vertices.size(), 8u);
  EXPECT_EQ(m.triangle_count(), 12u);
  expect_closed(m);
  EXPECT_DOUBLE_EQ(signed_volume(m), 8.0);
  for (const Vec3& v : m.vertices) EXPECT_EQ(Vec3(v.cwiseAbs()), Vec3(1.0, 2.0, 0.5));
}

TEST(Shapes, SphereCountsClosedAndOnTheSphere) {
  for (int s = 0; s <= 4; ++s) {
    const Mesh m = make_sphere(2.0, s);
    const std::size_t p = std::size_t{1} << (2 * s);  // 4^s
    EXPECT_EQ(m.vertices.size(), 10 * p + 2) << "subdivisions " << s;
    EXPECT_EQ(m.triangle_count(), 20 * p) << "subdivisions " << s;
    expect_closed(m);
    for (const Vec3& v : m.vertices) EXPECT_NEAR(v.norm(), 2.0, 1e-12);
    const double ball = 4.0 / 3.0 * std::numbers::pi * 8.0;
    EXPECT_GT(signed_volume(m), 0.55 * ball);  // inscribed polyhedron: a little smaller
    EXPECT_LT(signed_volume(m), ball);
  }
  EXPECT_NEAR(signed_volume(make_sphere(2.0, 4)), 4.0 / 3.0 * std::numbers::pi * 8.0, 0.01 * 33.5);
}

TEST(Shapes, TorusCountsClosedAndVolume) {
  const double R = 3.0, r = 1.0;
  const Mesh m = make_torus(R, r, 48, 24);
  EXPECT_EQ(m.vertices.size(), 48u * 24u);
  EXPECT_EQ(m.triangle_count(), 2u * 48u * 24u);
  expect_closed(m);
  for (const Vec3& v : m.vertices) EXPECT_NEAR(std::hypot(std::hypot(v.x(), v.y()) - R, v.z()), r, 1e-12);
  const double exact = 2.0 * std::numbers::pi * std::numbers::pi * R * r * r;
  EXPECT_NEAR(signed_volume(m), exact, 0.03 * exact);
  expect_closed(make_torus(1.0, 0.5, 3, 3));  // the coarsest torus is still closed
}

TEST(Shapes, BadParametersThrow) {
  EXPECT_THROW(make_torus(1.0, 1.0, 8, 8), InputError);
  EXPECT_THROW(make_torus(1.0, 0.5, 2, 8), InputError);
  EXPECT_THROW(make_sphere(0.0, 1), InputError);
  EXPECT_THROW(make_sphere(1.0, -1), InputError);
  EXPECT_THROW(make_sphere(1.0, 11), InputError);
  EXPECT_THROW(make_box({1.0, 0.0, 1.0}), InputError);
}

TEST_F(MeshIoTest, ShapesSurviveSaveAndLoad) {
  for (const Mesh& m : {make_box({1, 2, 3}), make_sphere(1.5, 2), make_torus(2.0, 0.5, 12, 8)}) {
    const std::string path = (dir_ / (m.name + ".off")).string();
    save_off(m, path);
    const Mesh back = load_mesh(path);
    EXPECT_EQ(back.vertices, m.vertices) << m.name;
    EXPECT_EQ(back.triangles, m.triangles) << m.name;
  }
}

}  // namespace
}  // namespace kdopcd
