#pragma once
// Shared helpers of the CUDA-part tests: real meshes and generated multibody worlds.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "kdopcd/mesh_io.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda::test {

// The meshes' folder: $KDOPCD_MESH_DIR where set (a test bundle run on another machine,
// scripts/gpu-check.sh), else the build's data/meshes.
inline std::string mesh_path(const std::string& name) {
  const char* dir = std::getenv("KDOPCD_MESH_DIR");
  return std::string(dir && *dir ? dir : KDOPCD_MESH_DIR) + "/" + name;
}

// Real meshes are part of the suite: a missing one is a failure with a fix, not a skip.
#define REQUIRE_COW()                                                                        \
  ASSERT_TRUE(std::filesystem::exists(::kdopcd::cuda::test::mesh_path("cow.off")))          \
      << ::kdopcd::cuda::test::mesh_path("cow.off") << " is missing: run scripts/fetch-meshes.sh"

// `objects` cows from the scene generator (as `kdop multibody-scene` writes them).
inline MultibodyWorld cow_world(int objects, double density, std::uint64_t seed, int k = 24) {
  const Mesh cow = load_mesh(mesh_path("cow.off"));
  const Scene scene = generate_scene(mesh_path("cow.off"), cow, objects, density, seed);
  std::vector<Pose> poses;
  for (const auto& o : scene.objects) poses.push_back(o.pose);
  return MultibodyWorld({cow}, std::vector<std::uint32_t>(poses.size(), 0), poses, k);
}

// Every field of a multibody result that another backend, thread count or buffer size must
// reproduce: broad pairs, candidates, contacts, and per object pair its contacts and counters.
inline void expect_same_result(const MultibodyResult& got, const MultibodyResult& want) {
  EXPECT_EQ(got.broad_pairs, want.broad_pairs);
  EXPECT_EQ(got.candidates, want.candidates);
  EXPECT_EQ(got.contacts, want.contacts);
  EXPECT_EQ(got.pair_tests, want.pair_tests);
  ASSERT_EQ(got.pairs.size(), want.pairs.size());
  for (std::size_t i = 0; i < want.pairs.size(); ++i) {
    EXPECT_EQ(got.pairs[i].first_object, want.pairs[i].first_object);
    EXPECT_EQ(got.pairs[i].second_object, want.pairs[i].second_object);
    EXPECT_EQ(got.pairs[i].contacts, want.pairs[i].contacts);
    EXPECT_EQ(got.pairs[i].stats.pair_tests, want.pairs[i].stats.pair_tests);
    EXPECT_EQ(got.pairs[i].stats.axis_tests, want.pairs[i].stats.axis_tests);
    EXPECT_EQ(got.pairs[i].stats.leaf_pairs, want.pairs[i].stats.leaf_pairs);
  }
  EXPECT_EQ(format_pairs(got), format_pairs(want));
}

}  // namespace kdopcd::cuda::test
