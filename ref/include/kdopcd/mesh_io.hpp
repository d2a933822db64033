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
// Formats: OFF (own parser: Assimp's OFF loader silently drops faces with more than 9 vertices and
// clamps out-of-range indices), OBJ, STL (ascii and binary) and PLY (ascii and binary) via Assimp.
// Assimp stores coordinates as float, so OBJ/STL/PLY coordinates are float-rounded; OFF keeps
// full double precision. Vertices: OFF and PLY keep the file's vertex list; OBJ and STL come
// back from Assimp with one vertex per face corner, and bit-identical positions are merged
// (first appearance first) so that neighbouring triangles share vertices again.
// Every problem with the input throws kdopcd::InputError("<path>: <what>"), with "line N" for OFF.
#include <string>

#include "kdopcd/mesh.hpp"

namespace kdopcd {

// Loads an .off, .obj, .stl or .ply file (extension case-insensitive). Mesh::name is the file name.
Mesh load_mesh(const std::string& path);

// Writes an OFF file with %.17g coordinates, so load_mesh gives back bit-identical vertices.
void save_off(const Mesh& mesh, const std::string& path);

}  // namespace kdopcd
