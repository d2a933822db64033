#pragma once
// A deforming mesh as continuous collision detection sees it: one topology (the triangles) and a
// sequence of vertex positions, one per frame. Between two frames each vertex moves linearly.
// File formats (docs/formats.md, "Frame sequences"): the binary .kframes file, or a text list of
// OFF/OBJ files of one topology, one per frame.
#include <string>
#include <vector>

#include "kdopcd/mesh.hpp"

namespace kdopcd::ccd {

struct FrameSequence {
  std::string name;                           // file or generator name, used in messages
  std::vector<TriangleIndices> triangles;     // the topology, shared by every frame
  std::vector<std::vector<Vec3>> frames;      // frames[f][v]: vertex v's position at frame f
  double frames_per_second = 60.0;

  std::size_t vertex_count() const { return frames.empty() ? 0 : frames.front().size(); }
  std::size_t frame_count() const { return frames.size(); }
  // Frame f as a Mesh (copies the positions), for the discrete query and the mesh writers.
  Mesh mesh_at(std::size_t frame) const;
};

// Reads a .kframes file or a frame list (a text file naming one OFF/OBJ file per line, relative
// to the list's folder). Throws InputError naming the file and the frame for a missing or
// unreadable file, a topology that differs from frame 0's, a non-finite coordinate, an index out
// of range, a truncated file or a count past the format's limits.
FrameSequence read_frame_sequence(const std::string& path);

// Writes the .kframes format through kdopcd::OutputFile (kdopcd/file_io.hpp: every write and the
// close checked, a directory, FIFO or device refused). Throws InputError on an output error.
void write_frame_sequence(const std::string& path, const FrameSequence& sequence);

}  // namespace kdopcd::ccd
