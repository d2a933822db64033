#pragma once
// Benchmark frame sequences for continuous collision detection (`kdop ccd-gen`,
// docs/cli.md): a cloth draping over a real mesh, a real mesh twisted and bent until it touches
// itself, and real meshes falling onto each other. Each generator produces one topology and then
// one frame at a time (positions() after each advance()), so a 200-frame, 92k-triangle cloth is
// streamed to a FrameSequenceWriter and never held whole. Every generator is deterministic: the
// same mesh, options and seed give bit-identical frames, whatever the number of threads (the
// parallel loops touch disjoint vertices and sum nothing across threads).
// Up is +y in every generator (gravity along -y): the meshes of data/meshes stand that way.
#include <cstdint>
#include <string>
#include <vector>

#include "kdopcd/ccd/frame_sequence.hpp"
#include "kdopcd/ccd/signed_distance_grid.hpp"
#include "kdopcd/mesh.hpp"

namespace kdopcd::ccd {

// ---- cloth ------------------------------------------------------------------------------------
// A square cloth of resolution x resolution vertices, width_factor times the obstacle's bounding-
// box diagonal D wide, starts flat and horizontal, centred above the obstacle, drop_height * D
// above its top, and falls under gravity onto it and onto the ground (the plane y = the
// obstacle's lowest y: the obstacle stands on the floor).
// The model is Provot's mass-spring cloth (Provot 1995, "Deformation constraints in a mass-spring
// model to describe rigid cloth behavior"): structural springs (grid neighbours), shear springs
// (diagonals) and bend springs (every second vertex along the grid lines), integrated by position
// Verlet with the springs enforced as position corrections, Gauss-Seidel over a colouring of the
// grid (Jakobsen 2001, "Advanced character physics"; Mueller et al. 2007, "Position based
// dynamics") -- unconditionally stable, which explicit stiff springs are not. Units: the scene's
// metre is D (the obstacle's diagonal is one metre), so gravity is 9.81 D / s^2.
// Collision response, after every substep's spring sweeps: a vertex closer than `thickness`
// (a fraction of the cloth's grid spacing) to the obstacle, by its signed distance field
// (SignedDistanceGrid), is projected out along the field's gradient, and one below the ground
// is lifted onto it; either contact removes the velocity into the surface and damps the
// tangential one (friction). No cloth-cloth response: folds may pass through each other, so
// the sequence can self-intersect (input data for CCD, which reports such contacts).
struct ClothOptions {
  int resolution = 215;        // vertices per side: 2 (resolution - 1)^2 triangles (215: 91 592)
  int substeps = 8;            // per frame
  int iterations = 4;          // spring sweeps per substep
  double frames_per_second = 60;
  double width_factor = 1.5;   // cloth width / obstacle's bounding-box diagonal
  double drop_height = 0.05;   // start height above the obstacle's top / diagonal
  int field_cells = 96;        // signed distance grid cells along the obstacle's longest side
  std::uint64_t seed = 1;      // a random turn about the vertical and a height jitter of 1e-4 D
};

class ClothDrape {
 public:
  ClothDrape(const Mesh& obstacle, const ClothOptions& options);

  const std::vector<TriangleIndices>& triangles() const { return triangles_; }
  const std::vector<Vec3>& positions() const { return positions_; }
  void advance();  // one frame: 1 / frames_per_second seconds in `substeps` steps

  double ground() const { return ground_; }
  double spacing() const { return spacing_; }      // rest distance of grid neighbours
  double thickness() const { return thickness_; }  // distance kept from the obstacle and ground
  const SignedDistanceGrid& field() const { return field_; }

 private:
  void substep(double dt);
  void relax_springs();
  void collide();

  ClothOptions options_;
  SignedDistanceGrid field_;
  std::vector<TriangleIndices> triangles_;
  std::vector<Vec3> positions_, previous_;
  double ground_, spacing_, thickness_, gravity_;
};

// ---- twist ------------------------------------------------------------------------------------
// The mesh twisted about and bent over its long axis (the longest side of its bounding box),
// progressively: frame f applies the fraction s = f / (frames - 1) of both deformations (Barr 1984,
// "Global and local deformations of solid primitives"). With u the coordinate along the axis
// (from the box's centre, length L) and the axis through the box's centre:
//   * twist: a rotation about the axis by s * twist_angle * (u / L + 1/2): the bottom stays, the top
//     turns by the whole angle;
//   * bend: the axis becomes a circular arc of angle s * bend_angle and length L, curving towards
//     the thinnest side of the box, so the two ends come towards each other; points further out
//     than the arc's radius fold through its centre: the mesh runs into itself.
// Frame 0 is the mesh itself. With bend_angle = 0 every edge keeps its length within the factor
// sigma = (a + sqrt(a^2 + 4)) / 2, a = r * |twist_angle| / L (r: the largest distance of a vertex
// from the axis): the twist's deformation gradient's largest singular value (its smallest is
// 1 / sigma), up to the chord error of an edge.
struct TwistOptions {
  std::size_t frames = 100;
  double twist_angle = 3.14159265358979323846;  // radians over the whole length, at the last frame
  double bend_angle = 3.14159265358979323846;   // radians of arc at the last frame
};

class TwistBend {
 public:
  TwistBend(const Mesh& mesh, const TwistOptions& options);

  const std::vector<TriangleIndices>& triangles() const { return mesh_.triangles; }
  const std::vector<Vec3>& positions() const { return positions_; }
  void advance();  // the next frame; the positions of frame f are computed from the rest pose

  int long_axis() const { return axis_; }
  int bend_axis() const { return bend_; }
  double length() const { return length_; }

 private:
  void pose(double s);
  Mesh mesh_;
  TwistOptions options_;
  std::vector<Vec3> positions_;
  std::size_t frame_ = 0;
  int axis_, bend_;
  Vec3 centre_;
  double length_;
};

// ---- fall -------------------------------------------------------------------------------------
// `bodies` rigid copies of the meshes (body b is meshes[b % meshes.size()]), each scaled so its
// bounding-box diagonal is 1 (the scene's metre; gravity 9.81 / s^2), start in a loose column
// above the ground plane y = 0 with random turns, offsets and spins, and fall onto the ground and
// onto each other. The response is crude on purpose: the ground lifts a body by its lowest vertex
// and damps its velocity and spin; two bodies collide as spheres about their centroids of
// `contact_radius` times their bounding radius (pushed apart, normal velocity exchanged with
// restitution 0.2, a fifth of the sliding velocity removed so that they pile up rather than
// spread), so bodies may interpenetrate where their shapes leave their spheres. All
// bodies share one frame sequence: the topology is the union of the copies, body after body.
struct FallOptions {
  int bodies = 8;
  int substeps = 8;
  double frames_per_second = 60;
  double contact_radius = 0.7;  // of each body's bounding sphere
  std::uint64_t seed = 1;
};

class RigidFall {
 public:
  RigidFall(const std::vector<Mesh>& meshes, const FallOptions& options);

  const std::vector<TriangleIndices>& triangles() const { return triangles_; }
  const std::vector<Vec3>& positions() const { return positions_; }
  void advance();

  // Body b's vertices are positions()[first_vertex(b) .. first_vertex(b + 1)).
  std::size_t first_vertex(int body) const { return first_vertex_[body]; }
  int body_count() const { return int(bodies_.size()); }

 private:
  struct Body {
    std::vector<Vec3> local;  // vertices about the centroid, scaled
    double radius = 0;        // bounding radius about the centroid
    Vec3 position = Vec3::Zero(), velocity = Vec3::Zero(), spin = Vec3::Zero();
    Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
  };
  void substep(double dt);
  void place();
  std::vector<Body> bodies_;
  std::vector<std::size_t> first_vertex_;
  std::vector<TriangleIndices> triangles_;
  std::vector<Vec3> positions_;
  FallOptions options_;
};

// Runs a generator for `frames` frames (frame 0 is its initial state) into a .kframes file.
template <typename Generator>
void write_generated(Generator& generator, std::size_t frames, double frames_per_second, const std::string& path) {
  FrameSequenceWriter writer(path, generator.triangles(), generator.positions().size(), frames, frames_per_second);
  for (std::size_t f = 0; f < frames; ++f) {
    if (f > 0) generator.advance();
    writer.append(generator.positions());
  }
  writer.close();
}

// The same, in memory (tests and small sequences).
template <typename Generator>
FrameSequence generate_sequence(Generator& generator, std::size_t frames, double frames_per_second, std::string name) {
  FrameSequence sequence;
  sequence.name = std::move(name);
  sequence.triangles = generator.triangles();
  sequence.frames_per_second = frames_per_second;
  for (std::size_t f = 0; f < frames; ++f) {
    if (f > 0) generator.advance();
    sequence.frames.push_back(generator.positions());
  }
  return sequence;
}

}  // namespace kdopcd::ccd
