// kdop multibody-scene --mesh cow.off --objects 512 --density D --seed S -o scene.json   (docs/cuda.md §9)
#if defined(KDOPCD_WITH_CUDA)
#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cli {
namespace {

// Each object is a copy of the mesh with its own tree in `kdop multibody`: a million is far beyond
// any scene the tools are meant for, and keeps the generator's memory bounded.
constexpr int kMaxSceneObjects = 1 << 20;

struct SceneArgs {
  std::string mesh, output;
  int objects = 512;
  double density = 1.0;
  std::uint64_t seed = 1;
};

void run_scene(const SceneArgs& a) {
  check_outputs({{"--output", a.output}}, {a.mesh});
  const Mesh mesh = load_mesh(a.mesh);
  const cuda::Scene scene = cuda::generate_scene(a.mesh, mesh, a.objects, a.density, a.seed);
  cuda::save_scene(scene, a.output);
  std::vector<Pose> poses;
  for (const auto& o : scene.objects) poses.push_back(o.pose);
  const cuda::MultibodyWorld world({mesh}, std::vector<std::uint32_t>(poses.size(), 0), poses, 6);
  const auto pairs = cuda::sort_and_sweep(world.world_boxes());
  fmt::print("{}: {} x {} ({} triangles each), density {}, seed {}; {} object pairs with overlapping boxes\n", a.output,
             a.objects, a.mesh, mesh.triangle_count(), a.density, a.seed, pairs.size());
}

void add_scene_command(CLI::App& app) {
  auto a = std::make_shared<SceneArgs>();
  CLI::App* cmd = app.add_subcommand("multibody-scene", "generate a multibody scene: copies of a mesh on a jittered grid");
  cmd->add_option("--mesh", a->mesh, "mesh file (OFF, OBJ, STL, PLY)")->required();
  cmd->add_option("--objects", a->objects, "number of objects")
      ->check(CLI::Range(1, kMaxSceneObjects))
      ->capture_default_str();
  cmd->add_option("--density", a->density,
                  "grid spacing = bounding-sphere diameter / cbrt(density): 1 = neighbouring spheres touch")
      ->check(finite_range(1e-3, 1e3))
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "random seed (rotations, jitter)")->capture_default_str();
  cmd->add_option("-o,--output", a->output, "scene JSON to write (mesh path stored relative to it)")->required();
  cmd->callback([a] { run_scene(*a); });
}

const CommandRegistration registration(61, add_scene_command);

}  // namespace
}  // namespace kdopcd::cli
#endif  // KDOPCD_WITH_CUDA
