#pragma once
// A deforming mesh as continuous collision detection sees it: one topology (the triangles) and a
// sequence of vertex positions, one per frame. Between two frames each vertex moves linearly.
// File formats (docs/formats.md, "Frame sequences"):
//   * the binary .kframes file: a 64-byte header (magic "KFRAMES\0", version, counts, frames per
//     second), the triangles once, then every frame's positions as float64, little-endian;
//   * a frame list: a text file naming one OFF/OBJ/STL/PLY file per line (relative to the list's
//     folder, '#' comments), each read with load_mesh, all of frame 0's topology;
//   * a single mesh file (.off/.obj/.stl/.ply): a sequence of one frame (a static obstacle).
// Frames are numbered from 0 everywhere, messages included ("frame 0" is the first frame).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kdopcd/mesh.hpp"

namespace kdopcd {
class OutputFile;
}

namespace kdopcd::ccd {

// Limits of the .kframes format and of frame lists, checked before anything is allocated. A
// header within them must still match the file's size exactly, so memory never exceeds what the
// file holds.
inline constexpr std::uint64_t kMaxSequenceVertices = std::uint64_t(1) << 28;
inline constexpr std::uint64_t kMaxSequenceTriangles = std::uint64_t(1) << 28;
inline constexpr std::uint64_t kMaxSequenceFrames = std::uint64_t(1) << 20;
inline constexpr double kMaxFramesPerSecond = 1e6;

struct FrameSequence {
  std::string name;                           // file or generator name, used in messages
  std::vector<TriangleIndices> triangles;     // the topology, shared by every frame
  std::vector<std::vector<Vec3>> frames;      // frames[f][v]: vertex v's position at frame f
  double frames_per_second = 60.0;

  std::size_t vertex_count() const { return frames.empty() ? 0 : frames.front().size(); }
  std::size_t frame_count() const { return frames.size(); }
  // Frame f as a Mesh (copies the positions), for the discrete query and the mesh writers.
  // Throws std::out_of_range for f >= frame_count().
  Mesh mesh_at(std::size_t frame) const;
};

// Reads a .kframes file (recognized by its magic, whatever its name), a single mesh file (by its
// extension .off/.obj/.stl/.ply: one frame) or else a frame list. Throws InputError naming the
// file and the frame for a missing or unreadable file, a topology that differs from frame 0's, a
// non-finite coordinate or one beyond the scale limit (scale_limits.hpp), an index out of range
// (named by triangle: a .kframes file stores the topology once), a truncated file, trailing
// bytes, zero frames or a count past the limits above.
FrameSequence read_frame_sequence(const std::string& path);

// Writes the .kframes format through kdopcd::OutputFile (kdopcd/file_io.hpp: every write and the
// close checked, a directory, FIFO or device refused). Throws InputError on an output error and
// for a sequence the format cannot hold (no frame, frames of different sizes, an index out of
// range, a coordinate that is not finite or beyond the scale limit, a count past the limits).
void write_frame_sequence(const std::string& path, const FrameSequence& sequence);

// Writes a .kframes file frame by frame, so a generator never holds the whole sequence: the
// header and the topology on construction, then one append() per frame; close() checks that the
// announced number of frames was written and closes the file (the destructor closes without
// checking, for error paths). Same checks as write_frame_sequence.
class FrameSequenceWriter {
 public:
  FrameSequenceWriter(const std::string& path, std::span<const TriangleIndices> triangles, std::size_t vertex_count,
                      std::size_t frame_count, double frames_per_second);
  FrameSequenceWriter(const FrameSequenceWriter&) = delete;
  FrameSequenceWriter& operator=(const FrameSequenceWriter&) = delete;
  ~FrameSequenceWriter();

  void append(std::span<const Vec3> positions);
  void close();
  std::size_t frames_written() const { return frames_written_; }

 private:
  std::unique_ptr<OutputFile> file_;
  std::size_t vertex_count_, frame_count_, frames_written_ = 0;
  std::string buffer_;  // one frame's bytes, reused
};

}  // namespace kdopcd::ccd
