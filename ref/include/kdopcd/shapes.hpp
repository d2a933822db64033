#pragma once
// Generated closed meshes for unit tests and the no-argument demo, so neither needs files.
// All are closed 2-manifolds with consistent outward (counter-clockwise seen from outside)
// orientation, centred at the origin. Bad parameters throw kdopcd::InputError.
#include "kdopcd/mesh.hpp"
#include "kdopcd/vec.hpp"

namespace kdopcd {

// Torus around the z axis: ring radius R, tube radius r (0 < r < R); nu segments around the ring,
// nv around the tube (both >= 3). nu*nv vertices, 2*nu*nv triangles.
Mesh make_torus(double R, double r, int nu, int nv);

// Icosphere: an icosahedron with each triangle split into 4, `subdivisions` times (0..10), and
// the vertices pushed onto the sphere. 10*4^s + 2 vertices, 20*4^s triangles.
Mesh make_sphere(double radius, int subdivisions);

// Axis-aligned box with the given (positive) half extents: 8 vertices, 12 triangles.
Mesh make_box(const Vec3& half_extents);

}  // namespace kdopcd
