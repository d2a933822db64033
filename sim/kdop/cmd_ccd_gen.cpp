// kdop ccd-gen cloth|twist|fall: benchmark frame sequences for continuous collision detection
// (docs/cli.md, "kdop ccd-gen"; the generators: ccd/include/kdopcd/ccd/sequence_generators.hpp),
// written as .kframes files (docs/formats.md, "Frame sequences").
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/ccd/sequence_generators.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"

namespace kdopcd::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Every generator needs a mesh with triangles and a bounding box of non-zero size.
Mesh load_generator_mesh(const std::string& path) {
  Mesh mesh = load_mesh(path);
  if (mesh.triangles.empty()) throw InputError(fmt::format("{}: the mesh has no triangles", path));
  Vec3 lo = mesh.vertices.front(), hi = lo;
  for (const Vec3& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  if (!((hi - lo).maxCoeff() > 0)) throw InputError(fmt::format("{}: the mesh's vertices all coincide", path));
  return mesh;
}

void print_written(const std::string& path, std::size_t frames, std::size_t vertices, std::size_t triangles,
                   Clock::time_point start) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  fmt::print("wrote {}: {} frames, {} vertices, {} triangles, {} bytes, in {:.1f} s\n", path, frames, vertices, triangles,
             ec ? 0 : bytes, std::chrono::duration<double>(Clock::now() - start).count());
}

// ---- cloth ------------------------------------------------------------------------------------
struct ClothArgs {
  std::string mesh = "data/meshes/cow.off", out;
  std::size_t frames = 200;
  bool include_obstacle = false;
  ccd::ClothOptions options;
};

// The cloth's heights as a profile: where it is (lowest, mean, highest) and how much of it rests
// on the obstacle or on the ground; the evidence that it drapes (docs/cli.md).
struct DrapeProfile {
  double lowest, mean, highest;
  std::size_t on_obstacle = 0, on_ground = 0, inside = 0;
};
DrapeProfile profile(const ccd::ClothDrape& cloth) {
  const auto& p = cloth.positions();
  DrapeProfile r{p.front().y(), 0, p.front().y()};
  for (const Vec3& x : p) {
    r.lowest = std::min(r.lowest, x.y());
    r.highest = std::max(r.highest, x.y());
    r.mean += x.y() / double(p.size());
    const double d = cloth.field().distance(x);
    if (d < 2 * cloth.thickness()) ++r.on_obstacle;
    if (d < 0) ++r.inside;
    if (x.y() < cloth.ground() + 2 * cloth.thickness()) ++r.on_ground;
  }
  return r;
}

void run_cloth(const ClothArgs& a) {
  check_outputs({{"--out", a.out}}, {a.mesh});
  const auto start = Clock::now();
  const Mesh obstacle = load_generator_mesh(a.mesh);
  ccd::ClothDrape cloth(obstacle, a.options);
  const DrapeProfile first = profile(cloth);
  // With --include-obstacle the obstacle's vertices follow the cloth's in every frame (static) and
  // its triangles follow the cloth's: one sequence whose self-collision includes cloth-obstacle.
  std::vector<TriangleIndices> triangles = cloth.triangles();
  std::size_t vertices = cloth.positions().size();
  if (a.include_obstacle) {
    const auto offset = std::uint32_t(vertices);
    for (const TriangleIndices& t : obstacle.triangles) triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
    vertices += obstacle.vertices.size();
  }
  ccd::FrameSequenceWriter writer(a.out, triangles, vertices, a.frames, a.options.frames_per_second);
  std::vector<Vec3> frame;
  for (std::size_t f = 0; f < a.frames; ++f) {
    if (f > 0) cloth.advance();
    frame.assign(cloth.positions().begin(), cloth.positions().end());
    if (a.include_obstacle) frame.insert(frame.end(), obstacle.vertices.begin(), obstacle.vertices.end());
    writer.append(frame);
  }
  writer.close();
  print_written(a.out, a.frames, vertices, triangles.size(), start);
  const DrapeProfile last = profile(cloth);
  fmt::print("cloth {}x{} over {} (ground y = {:.6g}, thickness {:.3g}): height lowest / mean / highest {:.4g} / {:.4g} / "
             "{:.4g} at frame 0, {:.4g} / {:.4g} / {:.4g} at frame {}; at the end {} vertices on the obstacle, {} on the "
             "ground, {} inside the obstacle\n",
             a.options.resolution, a.options.resolution, a.mesh, cloth.ground(), cloth.thickness(), first.lowest, first.mean,
             first.highest, last.lowest, last.mean, last.highest, a.frames - 1, last.on_obstacle, last.on_ground,
             last.inside);
}

// ---- twist ------------------------------------------------------------------------------------
struct TwistArgs {
  std::string mesh = "data/meshes/armadillo.off", out;
  ccd::TwistOptions options;
};

void run_twist(const TwistArgs& a) {
  check_outputs({{"--out", a.out}}, {a.mesh});
  const auto start = Clock::now();
  const Mesh mesh = load_generator_mesh(a.mesh);
  ccd::TwistBend twist(mesh, a.options);
  ccd::write_generated(twist, a.options.frames, 60, a.out);
  print_written(a.out, a.options.frames, mesh.vertices.size(), mesh.triangles.size(), start);
  fmt::print("twisted by {:.4g} rad about axis {} and bent by {:.4g} rad towards axis {} at the last frame\n",
             a.options.twist_angle, "xyz"[twist.long_axis()], a.options.bend_angle, "xyz"[twist.bend_axis()]);
}

// ---- fall -------------------------------------------------------------------------------------
struct FallArgs {
  std::vector<std::string> meshes{"data/meshes/cow.off"};
  std::string out;
  std::size_t frames = 200;
  ccd::FallOptions options;
};

void run_fall(const FallArgs& a) {
  check_outputs({{"--out", a.out}}, a.meshes);
  const auto start = Clock::now();
  std::vector<Mesh> meshes;
  for (const std::string& path : a.meshes) meshes.push_back(load_generator_mesh(path));
  // The union of the copies must fit the format: checked before the bodies are built.
  std::uint64_t vertices = 0, triangles = 0;
  for (int b = 0; b < a.options.bodies; ++b) {
    vertices += meshes[std::size_t(b) % meshes.size()].vertices.size();
    triangles += meshes[std::size_t(b) % meshes.size()].triangles.size();
  }
  if (vertices > ccd::kMaxSequenceVertices || triangles > ccd::kMaxSequenceTriangles)
    throw InputError(fmt::format("--bodies {}: {} vertices and {} triangles in all, past the frame format's limits ({}, {})",
                                 a.options.bodies, vertices, triangles, ccd::kMaxSequenceVertices,
                                 ccd::kMaxSequenceTriangles));
  ccd::RigidFall fall(meshes, a.options);
  ccd::write_generated(fall, a.frames, a.options.frames_per_second, a.out);
  print_written(a.out, a.frames, fall.positions().size(), fall.triangles().size(), start);
}

void add_ccd_gen_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("ccd-gen", "write a benchmark frame sequence (.kframes) for continuous collision "
                                                "detection: cloth, twist or fall");
  cmd->require_subcommand(1);
  const auto frames_check = CLI::Range(std::size_t(1), std::size_t(ccd::kMaxSequenceFrames));

  auto cloth = std::make_shared<ClothArgs>();
  CLI::App* c = cmd->add_subcommand("cloth", "a square cloth falling onto a mesh and draping over it (mass-spring)");
  c->add_option("--mesh", cloth->mesh, "the obstacle (OFF, OBJ, STL, PLY), standing on the ground")->capture_default_str();
  c->add_option("-o,--out", cloth->out, ".kframes file to write (the cloth only, unless --include-obstacle)")->required();
  c->add_option("--frames", cloth->frames, "frames, the first one the starting state")->check(frames_check)->capture_default_str();
  c->add_option("--resolution", cloth->options.resolution, "vertices per side of the cloth (2 (n-1)^2 triangles)")
      ->check(CLI::Range(2, 2048))
      ->capture_default_str();
  c->add_option("--substeps", cloth->options.substeps, "simulation steps per frame")->check(CLI::Range(1, 1000))->capture_default_str();
  c->add_option("--iterations", cloth->options.iterations, "spring sweeps per step")->check(CLI::Range(1, 1000))->capture_default_str();
  c->add_option("--width", cloth->options.width_factor, "cloth width / the obstacle's bounding-box diagonal")
      ->check(finite_range(0.01, 100))
      ->capture_default_str();
  c->add_option("--fps", cloth->options.frames_per_second, "frames per second")->check(finite_range(1, 10000))->capture_default_str();
  c->add_option("--field-cells", cloth->options.field_cells, "signed distance grid cells along the obstacle's longest side")
      ->check(CLI::Range(4, 512))
      ->capture_default_str();
  c->add_option("--seed", cloth->options.seed, "random seed (the cloth's turn about the vertical, a height jitter)")
      ->capture_default_str();
  c->add_flag("--include-obstacle", cloth->include_obstacle,
              "append the obstacle (static) to every frame: one sequence for cloth-obstacle and cloth-cloth contacts");
  c->callback([cloth] { run_cloth(*cloth); });

  auto twist = std::make_shared<TwistArgs>();
  CLI::App* t = cmd->add_subcommand("twist", "a mesh twisted about and bent over its long axis until it touches itself");
  t->add_option("--mesh", twist->mesh, "the mesh (OFF, OBJ, STL, PLY)")->capture_default_str();
  t->add_option("-o,--out", twist->out, ".kframes file to write")->required();
  t->add_option("--frames", twist->options.frames, "frames, the first one the mesh itself")->check(frames_check)->capture_default_str();
  t->add_option("--twist", twist->options.twist_angle, "twist over the whole length at the last frame, radians")
      ->check(finite_range(-8 * std::numbers::pi, 8 * std::numbers::pi))
      ->capture_default_str();
  t->add_option("--bend", twist->options.bend_angle, "arc angle of the bent axis at the last frame, radians")
      ->check(finite_range(-2 * std::numbers::pi, 2 * std::numbers::pi))
      ->capture_default_str();
  t->callback([twist] { run_twist(*twist); });

  auto fall = std::make_shared<FallArgs>();
  CLI::App* f = cmd->add_subcommand("fall", "rigid copies of meshes falling onto each other and the ground");
  f->add_option("--mesh", fall->meshes, "mesh(es); body b is a copy of the (b mod count)-th, scaled to diagonal 1")
      ->capture_default_str();
  f->add_option("-o,--out", fall->out, ".kframes file to write")->required();
  f->add_option("--frames", fall->frames, "frames, the first one the starting state")->check(frames_check)->capture_default_str();
  f->add_option("--bodies", fall->options.bodies, "number of bodies")->check(CLI::Range(1, 4096))->capture_default_str();
  f->add_option("--substeps", fall->options.substeps, "simulation steps per frame")->check(CLI::Range(1, 1000))->capture_default_str();
  f->add_option("--contact-radius", fall->options.contact_radius, "contact sphere radius / bounding sphere radius")
      ->check(finite_range(0.05, 1))
      ->capture_default_str();
  f->add_option("--fps", fall->options.frames_per_second, "frames per second")->check(finite_range(1, 10000))->capture_default_str();
  f->add_option("--seed", fall->options.seed, "random seed (placement, turns, spins)")->capture_default_str();
  f->callback([fall] { run_fall(*fall); });
}

const CommandRegistration registration(72, add_ccd_gen_command);

}  // namespace
}  // namespace kdopcd::cli
