#pragma once
// The three real scenes of the v2 top's and the co-simulation's testbenches, each in the four
// pose classes: one definition, so that both benches run the same queries and a figure of one
// (a cycle count, a contact set) can be looked up in the other.
#include <array>
#include <memory>
#include <string>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "test_meshes.hpp"

namespace kdopcd::real_scenes {

struct Scene {
  std::string name;
  Mesh first_mesh, second_mesh;
  std::unique_ptr<DopTree> first, second;
  std::array<ClassifiedPose, 4> poses;
};

// Meshes a and b of the test mesh directory as the accelerator's 24-DOP trees (kHardwareTreeBuild),
// and the four pose classes around a rotation by `angle` about a fixed oblique axis.
inline std::unique_ptr<Scene> make_scene(const std::string& a, const std::string& b, double angle) {
  auto s = std::make_unique<Scene>();
  s->name = a + "/" + b;
  s->first_mesh = load_mesh(real_mesh_path(a + ".off"));
  s->second_mesh = load_mesh(real_mesh_path(b + ".off"));
  s->first = std::make_unique<DopTree>(s->first_mesh, 24, kHardwareTreeBuild);
  s->second = std::make_unique<DopTree>(s->second_mesh, 24, kHardwareTreeBuild);
  s->poses = make_pose_classes(*s->first, *s->second,
                               Eigen::Quaterniond(Eigen::AngleAxisd(angle, Vec3(0.3, 1, 0.2).normalized())),
                               Vec3(1, 0.5, 0.25));
  return s;
}

inline constexpr int kCount = 3;
// Test-name suffixes of scene(0) .. scene(kCount - 1).
inline constexpr std::array<const char*, kCount> kNames{"cow_cow", "elephant_hand", "mushroom_couplingdown"};

// Built on first use and kept for the process (the trees take a while).
inline const Scene& scene(int i) {
  static const std::unique_ptr<Scene> scenes[kCount] = {make_scene("cow", "cow", 0.5),
                                                        make_scene("elephant", "hand", 1.0),
                                                        make_scene("mushroom", "couplingdown", 0.8)};
  return *scenes[i];
}

}  // namespace kdopcd::real_scenes
