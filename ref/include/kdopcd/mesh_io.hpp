#pragma once
// Reading and writing triangle meshes. load_mesh is the only way meshes enter the reference, so the
// triangle numbering every collision report uses is fixed here (see mesh.hpp):
//   * triangles are numbered in file face order; a polygon face (v0..vm) becomes the fan
//     (v0, vk, vk+1), k = 1..m-1, in that order; no face is dropped, merged or reordered;
//   * OBJ groups / objects / material runs become separate Assimp meshes; they are concatenated in
//     scene order, which is file order;
//   * OBJ point and line elements (`p`, `l`, and `f` with one or two vertices) are not surfaces and
//     are skipped without taking a triangle number; in OFF and PLY a face with fewer than three
//     vertices is an error.
// Formats: OFF and PLY (ascii and binary) have readers of our own: Assimp 5.2.5's OFF loader
// silently drops faces with more than 9 vertices and clamps out-of-range indices, and its PLY
// loader hangs or crashes on malformed files. OBJ and STL (ascii and binary) go through Assimp,
// whose coordinates are float, so they come back float-rounded; OFF and PLY keep the file's
// precision. Vertices: OFF and PLY keep the file's vertex list; Assimp returns OBJ and STL with one
// vertex per face corner, and bit-identical positions are merged again (first appearance first).
// OFF and PLY accept no content after the elements their header announces (a wrong count is an
// error, not a silently ignored face).
// Every problem with the input throws kdopcd::InputError("<path>: <what>"), with "line N: " before
// <what> where we parse the text ourselves (OFF, ascii PLY). In STL a facet is always a triangle.
#include <string>

#include "kdopcd/mesh.hpp"

namespace kdopcd {

// Loads an .off, .obj, .stl or .ply file (extension case-insensitive). Mesh::name is the file name.
Mesh load_mesh(const std::string& path);

// Writes an OFF file with %.17g coordinates, so load_mesh gives back bit-identical vertices.
void save_off(const Mesh& mesh, const std::string& path);

}  // namespace kdopcd
