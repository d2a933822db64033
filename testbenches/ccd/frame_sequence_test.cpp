// The frame-sequence formats (docs/formats.md, "Frame sequences"): .kframes round trip and its
// documented byte layout, every malformed file refused with a message naming the file and the
// frame (or the triangle, for the topology a .kframes file stores once), and frame lists of OFF
// files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

#include "kdopcd/ccd/frame_sequence.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"

namespace kdopcd::ccd {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

// A fresh folder per test, removed afterwards.
class FrameSequenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / fmt_name(info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string fmt_name(const std::string& test) {
    return "kdopcd_frames_" + std::to_string(::getpid()) + "_" + test;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

// Two tetrahedra-like frames: 4 vertices, 3 triangles, 3 frames, values that a text format or a
// float would change (-0.0, a subnormal, a value not representable in float).
FrameSequence small_sequence() {
  FrameSequence s;
  s.name = "small";
  s.triangles = {{0, 1, 2}, {0, 2, 3}, {1, 3, 2}};
  s.frames_per_second = 24;
  for (int f = 0; f < 3; ++f) {
    std::vector<Vec3> positions{Vec3(0, 0, 0.1 * f), Vec3(1, -0.0, 1e-310), Vec3(0.1, 1.0 / 3, 7), Vec3(-2, 5e20, -1e-5 * f)};
    s.frames.push_back(positions);
  }
  return s;
}

std::string read_bytes(const std::string& p) { return read_whole_file(p); }
void write_bytes(const std::string& p, const std::string& bytes) { write_whole_file(p, bytes); }
template <typename T>
void patch(std::string& bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);  // the test host is little-endian, like the format
}

// The message of the InputError that reading `p` throws ("" when it reads fine).
std::string read_error(const std::string& p) {
  try {
    read_frame_sequence(p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_F(FrameSequenceTest, RoundTripIsBitExact) {
  const FrameSequence s = small_sequence();
  write_frame_sequence(path("s.kframes"), s);
  const FrameSequence r = read_frame_sequence(path("s.kframes"));
  EXPECT_EQ(r.name, path("s.kframes"));
  EXPECT_EQ(r.frames_per_second, 24);
  EXPECT_EQ(r.triangles, s.triangles);
  ASSERT_EQ(r.frame_count(), s.frame_count());
  for (std::size_t f = 0; f < s.frame_count(); ++f) {
    ASSERT_EQ(r.frames[f].size(), s.frames[f].size());
    // memcmp, not ==: -0.0 must stay -0.0.
    EXPECT_EQ(std::memcmp(r.frames[f].data(), s.frames[f].data(), s.frames[f].size() * sizeof(Vec3)), 0) << "frame " << f;
  }
  const Mesh m = r.mesh_at(2);
  EXPECT_EQ(m.vertices[0], s.frames[2][0]);
  EXPECT_EQ(m.triangles, s.triangles);
  EXPECT_THROW(r.mesh_at(3), std::out_of_range);
}

TEST_F(FrameSequenceTest, ByteLayoutIsTheDocumentedOne) {
  const FrameSequence s = small_sequence();
  write_frame_sequence(path("s.kframes"), s);
  const std::string b = read_bytes(path("s.kframes"));
  ASSERT_EQ(b.size(), 64 + 12 * s.triangles.size() + 24 * s.vertex_count() * s.frame_count());
  EXPECT_EQ(b.substr(0, 8), std::string("KFRAMES\0", 8));
  auto u32 = [&](std::size_t o) { std::uint32_t v; std::memcpy(&v, b.data() + o, 4); return v; };
  auto u64 = [&](std::size_t o) { std::uint64_t v; std::memcpy(&v, b.data() + o, 8); return v; };
  auto f64 = [&](std::size_t o) { double v; std::memcpy(&v, b.data() + o, 8); return v; };
  EXPECT_EQ(u32(8), 1u);    // version
  EXPECT_EQ(u32(12), 64u);  // header bytes
  EXPECT_EQ(u64(16), s.vertex_count());
  EXPECT_EQ(u64(24), s.triangles.size());
  EXPECT_EQ(u64(32), s.frame_count());
  EXPECT_EQ(f64(40), 24.0);
  EXPECT_EQ(u64(48), 0u);
  EXPECT_EQ(u64(56), 0u);
  EXPECT_EQ(u32(64 + 12 * 2 + 4), s.triangles[2][1]);  // triangle 2, corner 1
  const std::size_t frames_at = 64 + 12 * s.triangles.size();
  // Frame 2, vertex 3, z: frame-major, then vertex, then x y z.
  EXPECT_EQ(f64(frames_at + 2 * 24 * s.vertex_count() + 3 * 24 + 16), s.frames[2][3].z());
}

TEST_F(FrameSequenceTest, StreamingWriterMatchesWholeWriter) {
  const FrameSequence s = small_sequence();
  write_frame_sequence(path("whole.kframes"), s);
  FrameSequenceWriter writer(path("streamed.kframes"), s.triangles, s.vertex_count(), s.frame_count(), 24);
  for (const auto& frame : s.frames) writer.append(frame);
  writer.close();
  EXPECT_EQ(read_bytes(path("whole.kframes")), read_bytes(path("streamed.kframes")));
}

TEST_F(FrameSequenceTest, StreamingWriterRefusesWrongFrameCounts) {
  const FrameSequence s = small_sequence();
  FrameSequenceWriter short_writer(path("short.kframes"), s.triangles, s.vertex_count(), 3, 24);
  short_writer.append(s.frames[0]);
  EXPECT_THAT([&] { short_writer.close(); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("1 frames written, the header announced 3")));
  FrameSequenceWriter writer(path("w.kframes"), s.triangles, s.vertex_count(), 1, 24);
  EXPECT_THAT([&] { writer.append(std::vector<Vec3>(3)); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("frame 0: 3 positions, the sequence has 4 vertices")));
  writer.append(s.frames[0]);
  EXPECT_THAT([&] { writer.append(s.frames[1]); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("frame 1: the header announced 1 frames")));
}

TEST_F(FrameSequenceTest, WriterRefusesWhatTheFormatCannotHold) {
  FrameSequence s = small_sequence();
  s.frames[1][2].y() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT([&] { write_frame_sequence(path("nan.kframes"), s); },
              ::testing::ThrowsMessage<InputError>(AllOf(HasSubstr("nan.kframes"), HasSubstr("frame 1: cannot write vertex 2: y"))));
  EXPECT_FALSE(fs::exists(path("nan.kframes")));  // checked before the file is opened
  s = small_sequence();
  s.triangles[1][2] = 4;
  EXPECT_THAT([&] { write_frame_sequence(path("index.kframes"), s); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("triangle 1: vertex index 4 is out of range")));
  s = small_sequence();
  s.frames.clear();
  EXPECT_THAT([&] { write_frame_sequence(path("empty.kframes"), s); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("zero frames")));
  s = small_sequence();
  s.frames[2].pop_back();
  EXPECT_THAT([&] { write_frame_sequence(path("ragged.kframes"), s); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("frame 2: 3 positions, frame 0 has 4")));
}

// Each malformed .kframes file, made by patching a valid one, and what its message must name.
TEST_F(FrameSequenceTest, MalformedKframesNameTheFileAndFrame) {
  const FrameSequence s = small_sequence();
  const std::string p = path("s.kframes");
  write_frame_sequence(p, s);
  const std::string good = read_bytes(p);
  const std::size_t frames_at = 64 + 12 * s.triangles.size(), frame_bytes = 24 * s.vertex_count();
  auto expect = [&](const std::string& bytes, const std::string& what, const std::string& name = "bad.kframes") {
    write_bytes(path(name), bytes);
    const std::string error = read_error(path(name));
    EXPECT_THAT(error, AllOf(HasSubstr(path(name)), HasSubstr(what))) << what;
  };
  expect(good.substr(0, good.size() - 1), "truncated in frame 2");
  expect(good.substr(0, frames_at + frame_bytes + 5), "truncated in frame 1");
  expect(good.substr(0, frames_at - 1), "truncated in the triangles (before frame 0)");
  expect(good.substr(0, 40), "truncated header");
  expect(good.substr(0, 5), "truncated header");
  expect(good + "xyz", "3 trailing bytes after frame 2");
  std::string b = good;
  patch(b, frames_at + frame_bytes + 2 * 24 + 8, std::numeric_limits<double>::quiet_NaN());
  expect(b, "frame 1: vertex 2: y coordinate nan is not finite");
  b = good;
  patch(b, frames_at + 2 * frame_bytes + 3 * 24, -std::numeric_limits<double>::infinity());
  expect(b, "frame 2: vertex 3: x coordinate -inf is not finite");
  b = good;
  patch(b, frames_at + 0 * 24 + 16, 1e31);
  expect(b, "frame 0: vertex 0: z coordinate 1e+31 is beyond the scale limit");
  b = good;
  patch(b, 64 + 12 * 1 + 8, std::uint32_t(99));
  expect(b, "triangle 1: vertex index 99 is out of range (the sequence has 4 vertices)");
  b = good;
  patch(b, 32, std::uint64_t(0));
  expect(b, "zero frames");
  // Counts past the limits are refused from the header alone, before the size check or any
  // allocation (2^40 vertices would be 24 TiB a frame).
  b = good;
  patch(b, 16, std::uint64_t(1) << 40);
  expect(b, "1099511627776 vertices is past the limit");
  b = good;
  patch(b, 32, kMaxSequenceFrames + 1);
  expect(b, "frames is past the limit");
  b = good;
  patch(b, 24, kMaxSequenceTriangles + 1);
  expect(b, "triangles is past the limit");
  // A header within the limits that promises more than the file holds: a size error, no allocation.
  b = good;
  patch(b, 32, std::uint64_t(1000));
  expect(b, "truncated in frame 3");
  b = good;
  patch(b, 8, std::uint32_t(2));
  expect(b, "version 2 is not supported");
  b = good;
  patch(b, 56, std::uint64_t(1));
  expect(b, "reserved");
  b = good;
  patch(b, 40, std::numeric_limits<double>::quiet_NaN());
  expect(b, "frames per second nan");
  b = good;
  b[0] = 'X';
  expect(b, "not a .kframes file (no KFRAMES magic)");
  EXPECT_THAT(read_error(path("missing.kframes")), AllOf(HasSubstr(path("missing.kframes")), HasSubstr("not found")));
  fs::create_directory(path("folder.kframes"));
  EXPECT_THAT(read_error(path("folder.kframes")), HasSubstr("is a directory"));
}

// Writes frame f of `s` as an OFF file `name` in the test folder.
void save_frame(const FrameSequence& s, std::size_t f, const std::string& file) { save_off(s.mesh_at(f), file); }

TEST_F(FrameSequenceTest, FrameListOfOffFiles) {
  const FrameSequence s = small_sequence();
  fs::create_directory(path("frames"));
  for (std::size_t f = 0; f < s.frame_count(); ++f) save_frame(s, f, path("frames/f" + std::to_string(f) + ".off"));
  // Relative paths (to the list's folder), an absolute one, comments, blank lines, CRLF, spaces.
  write_bytes(path("seq.txt"), "# three frames\n\nframes/f0.off\r\n   frames/f1.off   # the middle one\n" +
                                   path("frames/f2.off") + "\n");
  const FrameSequence r = read_frame_sequence(path("seq.txt"));
  EXPECT_EQ(r.name, path("seq.txt"));
  EXPECT_EQ(r.triangles, s.triangles);
  EXPECT_EQ(r.frames, s.frames);  // save_off writes %.17g: bit-identical
  EXPECT_EQ(r.frames_per_second, 60);
  // Read from another working directory: paths follow the list, not the process.
  const fs::path cwd = fs::current_path();
  fs::current_path("/");
  EXPECT_EQ(read_frame_sequence(path("seq.txt")).frames, s.frames);
  fs::current_path(cwd);
}

TEST_F(FrameSequenceTest, FrameListOfRealMeshes) {
  const std::string cow = std::string(KDOPCD_MESH_DIR) + "/cow.off";
  write_bytes(path("cows.txt"), cow + "\n" + cow + "\n");
  const FrameSequence r = read_frame_sequence(path("cows.txt"));
  const Mesh mesh = load_mesh(cow);
  EXPECT_EQ(r.frame_count(), 2u);
  EXPECT_EQ(r.triangles, mesh.triangles);
  EXPECT_EQ(r.frames[1], mesh.vertices);
  // A mesh file on its own is a sequence of one frame.
  const FrameSequence one = read_frame_sequence(cow);
  EXPECT_EQ(one.frame_count(), 1u);
  EXPECT_EQ(one.frames[0], mesh.vertices);
}

TEST_F(FrameSequenceTest, MalformedFrameListsNameTheLineAndFrame) {
  const FrameSequence s = small_sequence();
  for (std::size_t f = 0; f < s.frame_count(); ++f) save_frame(s, f, path("f" + std::to_string(f) + ".off"));
  FrameSequence other = small_sequence();
  other.triangles[1] = {0, 3, 2};
  save_frame(other, 0, path("reordered.off"));
  other = small_sequence();
  other.triangles.pop_back();
  save_frame(other, 0, path("fewer.off"));
  other = small_sequence();
  other.frames[0].push_back(Vec3(9, 9, 9));
  save_frame(other, 0, path("more_vertices.off"));
  write_bytes(path("nan.off"), "OFF\n4 3 0\n0 0 0\n1 0 0\nnan 1 0\n0 0 1\n3 0 1 2\n3 0 2 3\n3 1 3 2\n");
  write_bytes(path("index.off"), "OFF\n4 3 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n3 0 2 7\n3 1 3 2\n");
  auto expect = [&](const std::string& list, const std::string& what) {
    write_bytes(path("list.txt"), list);
    EXPECT_THAT(read_error(path("list.txt")), AllOf(HasSubstr(path("list.txt")), HasSubstr(what))) << what;
  };
  expect("f0.off\n# comment\nmissing.off\n", "line 3: frame 1: " + path("missing.off") + ": mesh not found");
  expect("f0.off\nf1.off\nreordered.off\n",
         "line 3: frame 2: " + path("reordered.off") + ": topology differs from frame 0's: triangle 1 is (0 3 2), in frame 0 it is (0 2 3)");
  expect("f0.off\nfewer.off\n", "line 2: frame 1: " + path("fewer.off") + ": topology differs from frame 0's: 2 triangles, frame 0 has 3");
  expect("f0.off\nmore_vertices.off\n", "frame 1: " + path("more_vertices.off") + ": topology differs from frame 0's: 5 vertices");
  expect("f0.off\nf1.off\nnan.off\n", "line 3: frame 2: " + path("nan.off"));
  expect("index.off\n", "line 1: frame 0: " + path("index.off"));
  expect("# nothing\n\n", "zero frames");
  expect("", "zero frames");
  expect(std::string("f0.off\n\0\n", 9), "NUL byte");
  expect("f0.off\n" + std::string(5000, 'a') + "\n", "line 2: 5000 bytes");
  // A file named .kframes is never read as a list.
  write_bytes(path("list.kframes"), "f0.off\n");
  EXPECT_THAT(read_error(path("list.kframes")), HasSubstr("not a .kframes file"));
  write_bytes(path("short.kframes"), "KFRA");
  EXPECT_THAT(read_error(path("short.kframes")), HasSubstr("truncated header: 4 bytes"));
}

}  // namespace
}  // namespace kdopcd::ccd
