// Host backend against the reference: every object pair of generated cow scenes (16 and 128
// objects) has the contact set of kdopcd::collide at the same relative pose, and the same pair,
// axis and leaf counts; a forced tiny result buffer loses nothing; broad phases agree.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

#include "cuda_test_util.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd_cuda/grid.hpp"
#include "kdopcd_cuda/reference.hpp"

namespace kdopcd::cuda {
namespace {

using Contacts = std::vector<ContactPair>;

std::map<ObjectPair, const PairResult*> by_pair(const MultibodyResult& r) {
  std::map<ObjectPair, const PairResult*> m;
  for (const PairResult& p : r.pairs) m[{p.first_object, p.second_object}] = &p;
  return m;
}

// The reference's answer for every object pair (all_pairs) or for the broad phase's pairs.
std::map<ObjectPair, QueryResult> reference_results(const MultibodyWorld& world, const MultibodyOptions& o,
                                                    const std::vector<ObjectPair>& broad, bool all_pairs) {
  std::vector<ObjectPair> pairs = broad;
  if (all_pairs) {
    pairs.clear();
    for (std::uint32_t a = 0; a < world.object_count(); ++a)
      for (std::uint32_t b = a + 1; b < world.object_count(); ++b) pairs.emplace_back(a, b);
  }
  std::map<ObjectPair, QueryResult> out;
  for (const auto& [a, b] : pairs)
    out[{a, b}] = reference_pair_query(world, a, b, o);
  return out;
}

// Contacts and pair / axis / leaf counts equal the reference's for every pair it holds; pairs the
// broad phase left out must have no contacts. Returns the number of touching pairs.
std::size_t expect_equal_to_reference(const std::map<ObjectPair, QueryResult>& ref, const MultibodyResult& r) {
  const auto found = by_pair(r);
  std::size_t touching = 0, mismatches = 0;
  for (const auto& [ab, q] : ref) {
    const auto it = found.find(ab);
    if (it == found.end()) {
      EXPECT_TRUE(q.contacts.empty()) << "pair " << ab.first << " " << ab.second << " missed by the broad phase";
      continue;
    }
    const PairResult& p = *it->second;
    touching += q.contacts.empty() ? 0 : 1;
    if (p.contacts != q.contacts || p.stats.pair_tests != q.stats.pair_tests ||
        p.stats.axis_tests != q.stats.axis_tests || p.stats.leaf_pairs != q.stats.leaf_pairs) {
      if (++mismatches < 5)
        ADD_FAILURE() << "pair " << ab.first << " " << ab.second << ": reference " << q.contacts.size()
                      << " contacts, " << q.stats.pair_tests << " pair tests; host " << p.contacts.size() << ", "
                      << p.stats.pair_tests;
    }
  }
  for (const PairResult& p : r.pairs) EXPECT_TRUE(ref.count({p.first_object, p.second_object}));
  EXPECT_EQ(mismatches, 0u);
  return touching;
}

constexpr std::uint64_t kLargeBuffer = 1u << 22;

TEST(Multibody, HostEqualsReferenceForEveryPairOf16Cows) {
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(16, 6, 11);
  std::size_t checked = 0;
  // Float SAT: every one of the 120 object pairs, two rules. Fixed SAT (slower reference: it
  // quantizes both trees per query): the broad phase's pairs, one rule.
  for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed})
    for (DescentRule rule : {DescentRule::Shallower, DescentRule::Second}) {
      if (sat == SatBackend::Fixed && rule != DescentRule::Shallower) continue;
      MultibodyOptions o;
      o.sat = sat;
      o.rule = rule;
      o.fixed = FixedParams{14, 16, 18};
      o.initial_capacity = kLargeBuffer;
      const auto broad = sort_and_sweep(world.world_boxes());
      const auto ref = reference_results(world, o, broad, sat == SatBackend::Float);
      for (TraversalKind traversal : {TraversalKind::BinaryStack, TraversalKind::ExplicitStack}) {
        SCOPED_TRACE(std::string(to_string(traversal)) + " " + to_string(sat) + " " + to_string(rule));
        o.traversal = traversal;
        const MultibodyResult r = world.run(o);
        EXPECT_GE(expect_equal_to_reference(ref, r), 3u);  // the scene really has contacts
        EXPECT_EQ(r.launches, 1);
        ++checked;
      }
    }
  EXPECT_EQ(checked, 6u);
}

TEST(Multibody, HostEqualsReferenceForEveryPairOf128Cows) {
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(128, 4, 5);
  MultibodyOptions o;
  const MultibodyResult r = world.run(o);
  const auto ref = reference_results(world, o, {}, true);  // all 8128 object pairs
  EXPECT_GE(expect_equal_to_reference(ref, r), 20u);
  EXPECT_GT(r.contacts, 1000u);
  // The explicit stack on two threads gives the same result.
  o.traversal = TraversalKind::ExplicitStack;
  o.threads = 2;
  const MultibodyResult e = world.run(o);
  expect_equal_to_reference(ref, e);
}

// The host backend's phases run on TBB threads (object pairs spread over them); the result is
// the one-thread run's in every field, for both traversals and both SAT kinds, and with a
// result buffer small enough to force relaunches (whose order of stores differs per run).
TEST(Multibody, HostOnSeveralThreadsEqualsOneThread) {
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(40, 6, 23);
  for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed})
    for (TraversalKind traversal : {TraversalKind::BinaryStack, TraversalKind::ExplicitStack})
      for (std::uint64_t capacity : {kLargeBuffer, std::uint64_t(5)}) {
        SCOPED_TRACE(std::string(to_string(traversal)) + " " + to_string(sat) + " capacity " + std::to_string(capacity));
        MultibodyOptions o;
        o.sat = sat;
        o.traversal = traversal;
        o.initial_capacity = capacity;
        o.threads = 1;
        const MultibodyResult one = world.run(o);
        ASSERT_GT(one.contacts, 0u);
        for (int threads : {2, 0}) {
          o.threads = threads;
          const MultibodyResult many = world.run(o);
          SCOPED_TRACE(std::to_string(threads) + " threads");
          test::expect_same_result(many, one);
        }
      }
}

TEST(Multibody, TinyResultBufferReturnsEveryContact) {
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(27, 6, 2);
  MultibodyOptions o;
  o.initial_capacity = kLargeBuffer;
  const MultibodyResult full = world.run(o);
  ASSERT_GT(full.candidates, 100u);
  ASSERT_EQ(full.launches, 1);
  for (TraversalKind traversal : {TraversalKind::BinaryStack, TraversalKind::ExplicitStack})
    for (std::uint64_t capacity : {1ull, 2ull, 7ull, 100ull}) {
      SCOPED_TRACE("capacity " + std::to_string(capacity));
      o.traversal = traversal;
      o.initial_capacity = capacity;
      const MultibodyResult tiny = world.run(o);
      // One run more, with a buffer of exactly the counted candidates.
      EXPECT_EQ(tiny.launches, 2);
      EXPECT_EQ(tiny.final_capacity, full.candidates);
      test::expect_same_result(tiny, full);  // no candidate lost or duplicated
    }
}

// The breadth-first front and the per-thread traversals split the work differently for every
// split width (0: one traversal per object pair; 1 << 20: the front runs down to the leaves), and
// every width gives the reference's contacts and counts, on one thread and on several.
TEST(Multibody, EveryFrontSplitGivesTheReferenceAnswer) {
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(16, 6, 11);
  const auto broad = sort_and_sweep(world.world_boxes());
  for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed}) {
    MultibodyOptions o;
    o.sat = sat;
    o.fixed = FixedParams{14, 16, 18};
    o.initial_capacity = kLargeBuffer;
    const auto ref = reference_results(world, o, broad, false);
    for (std::uint64_t split : {0ull, 1ull, 64ull, 4096ull, 1ull << 20})
      for (TraversalKind traversal : {TraversalKind::BinaryStack, TraversalKind::ExplicitStack})
        for (int threads : {1, 2}) {
          SCOPED_TRACE(std::string(to_string(sat)) + " split " + std::to_string(split) + " " + to_string(traversal) +
                       " threads " + std::to_string(threads));
          o.split = split;
          o.traversal = traversal;
          o.threads = threads;
          const MultibodyResult r = world.run(o);
          EXPECT_GE(expect_equal_to_reference(ref, r), 3u);
          if (split <= broad.size()) {
            EXPECT_EQ(r.units, broad.size());  // one traversal per object pair
          }
          if (split == 4096) {
            EXPECT_GE(r.units, 4096u);  // the front got that wide
          }
          if (split == (1ull << 20)) {
            EXPECT_EQ(r.units, 0u);  // never: the front did everything
          }
        }
  }
}

// One large object pair (two cows overlapping over most of their length): with a split, its
// traversal is spread over many units; every split and thread count gives the reference's answer.
TEST(Multibody, OneLargePairSplitsIntoManyUnits) {
  REQUIRE_COW();
  const Mesh cow = load_mesh(test::mesh_path("cow.off"));
  const Pose overlap{Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Vec3(0, 1, 0))), Vec3(0.05, 0.02, 0)};
  const MultibodyWorld world({cow}, {0, 0}, {Pose{}, overlap}, 24);
  MultibodyOptions o;
  const auto ref = reference_results(world, o, {}, true);
  ASSERT_GT(ref.begin()->second.stats.pair_tests, 10000u);
  for (std::uint64_t split : {0ull, 2ull, 512ull})
    for (int threads : {1, 2}) {
      SCOPED_TRACE("split " + std::to_string(split) + " threads " + std::to_string(threads));
      o.split = split;
      o.threads = threads;
      const MultibodyResult r = world.run(o);
      EXPECT_EQ(expect_equal_to_reference(ref, r), 1u);
      if (split == 0) EXPECT_EQ(r.units, 1u);
      else EXPECT_GE(r.units, split);
    }
}

TEST(Multibody, SplitAboveItsBoundIsAnInputError) {
  const MultibodyWorld world({make_sphere(1, 1)}, {0, 0}, {Pose{}, Pose{}}, 6);
  MultibodyOptions o;
  o.split = kMaxSplit + 1;
  EXPECT_THROW(world.run(o), InputError);
}

TEST(Multibody, MixedMeshesAndTheFixedSat) {
  // Two different meshes (different trees and scene scales in the fixed SAT).
  std::vector<Mesh> meshes{make_torus(2, 0.7, 24, 12), make_sphere(1.2, 3)};
  std::vector<std::uint32_t> mesh_of;
  std::vector<Pose> poses;
  for (int i = 0; i < 12; ++i) {
    mesh_of.push_back(std::uint32_t(i % 2));
    Pose p;
    p.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.3 * i, Vec3(1, i, 2).normalized()));
    p.translation = Vec3(2.6 * (i % 4), 2.4 * ((i / 4) % 3), 0.3 * (i % 3));
    poses.push_back(p);
  }
  const MultibodyWorld world(std::move(meshes), mesh_of, poses, 18);
  for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed}) {
    MultibodyOptions o;
    o.sat = sat;
    o.axes = 9;
    const MultibodyResult r = world.run(o);
    EXPECT_GE(expect_equal_to_reference(reference_results(world, o, {}, true), r), 4u);
  }
}

TEST(Multibody, ExactSatIsRefused) {
  const MultibodyWorld world({make_sphere(1, 1)}, {0, 0}, {Pose{}, Pose{}}, 6);
  MultibodyOptions o;
  o.sat = SatBackend::Exact;
  EXPECT_THROW(world.run(o), InputError);
}

std::vector<Aabb> random_boxes(int n, std::uint64_t seed, bool integer) {
  std::uint64_t x = seed;
  auto next = [&] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return double(x >> 11) * 0x1.0p-53;
  };
  std::vector<Aabb> boxes(static_cast<std::size_t>(n));
  for (auto& b : boxes)
    for (int i = 0; i < 3; ++i) {
      const double lo = integer ? std::floor(next() * 12) : next() * 20 - 7;
      const double size = integer ? std::floor(next() * 3) : next() * next() * 3;
      b.lo[i] = lo;
      b.hi[i] = lo + size;  // integer boxes touch exactly, some are flat
    }
  return boxes;
}

TEST(BroadPhase, SweepGridAndBruteForceAgree) {
  std::size_t total = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed)
    for (bool integer : {false, true}) {
      const auto boxes = random_boxes(300, seed, integer);
      const auto brute = brute_force_pairs(boxes);
      EXPECT_EQ(sort_and_sweep(boxes), brute);
      EXPECT_EQ(host_grid_pairs(boxes, make_grid(boxes)), brute);
      total += brute.size();
    }
  EXPECT_GT(total, 1000u);
  EXPECT_TRUE(sort_and_sweep({}).empty());
}

TEST(BroadPhase, GridCellsCoverEachBoxAtMostTwicePerAxis) {
  const auto boxes = random_boxes(500, 9, false);
  const GridSpec g = make_grid(boxes);
  for (const Aabb& b : boxes) {
    std::uint64_t cells[kCellsPerObject];
    const int n = box_cells(b.lo, b.hi, g.origin, g.cell, cells);
    EXPECT_GE(n, 1);
    EXPECT_LE(n, 8);
  }
}

TEST(Scene, SaveLoadRoundTripWithRelativeMeshPaths) {
  REQUIRE_COW();
  const Mesh cow = load_mesh(test::mesh_path("cow.off"));
  const Scene scene = generate_scene(test::mesh_path("cow.off"), cow, 10, 2, 7);
  const auto dir = std::filesystem::temp_directory_path() / ("kdopcd_scene_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "sub");
  const std::string path = (dir / "sub" / "scene.json").string();
  save_scene(scene, path);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text.find("\"mesh\":\"/"), std::string::npos) << "mesh paths should be relative: " << text;
  const Scene back = load_scene(path);
  ASSERT_EQ(back.objects.size(), scene.objects.size());
  for (std::size_t i = 0; i < scene.objects.size(); ++i) {
    EXPECT_TRUE(std::filesystem::equivalent(back.objects[i].mesh, scene.objects[i].mesh));
    EXPECT_EQ(back.objects[i].pose.translation, scene.objects[i].pose.translation);
    EXPECT_LT((back.objects[i].pose.rotation.coeffs() - scene.objects[i].pose.rotation.coeffs()).norm(), 1e-15);
  }
  // Deterministic for a seed.
  const Scene again = generate_scene(test::mesh_path("cow.off"), cow, 10, 2, 7);
  EXPECT_EQ(again.objects[9].pose.translation, scene.objects[9].pose.translation);
  EXPECT_NE(generate_scene(test::mesh_path("cow.off"), cow, 10, 2, 8).objects[9].pose.translation,
            scene.objects[9].pose.translation);
  // Bad files name the problem.
  std::ofstream(dir / "bad.json") << R"({"objects":[{"mesh":"x.off","rotation":[0,0,0,0],"translation":[0,0,0]}]})";
  EXPECT_THROW(load_scene((dir / "bad.json").string()), InputError);
  std::ofstream(dir / "bad2.json") << R"({"objects":[{"mesh":"x.off","rotation":[1,0,0],"translation":[0,0,0]}]})";
  EXPECT_THROW(load_scene((dir / "bad2.json").string()), InputError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kdopcd::cuda
