// The object pairs 1628/1644 and 2819/2820 of `kdop multibody-scene --mesh cow.off --objects 4096
// --density 4 --seed 1` (testbenches/data/near_touching_cows.json holds those four objects as the
// generator writes them). With the fixed SAT, the engine's counters and every axis's integers equal
// the reference's, and its contacts, decided by the exact triangle test, equal the reference query
// with the same arithmetic (reference_pair_query). collide(pose, SatBackend::Fixed) decides
// triangle pairs with the fixed-point triangle unit instead: on these pairs it swaps contacts of
// triangle pairs closer than the unit's delta, which `kdop multibody --check` once reported as a
// difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "cuda_test_util.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/sat_fixed_lanes.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd_cuda/device_setup.hpp"
#include "kdopcd_cuda/reference.hpp"

namespace kdopcd::cuda {
namespace {

const std::string kScene = std::string(KDOPCD_TEST_DATA_DIR) + "/near_touching_cows.json";

// Every field bit for bit (memcmp per field: -0 against +0 and NaN payloads count). The struct
// as a whole has padding after its int triples, which make_query_axis copies from a local and the
// device leaves as its memory held: comparing whole structs compared that padding (the first GPU
// run of this test failed there).
bool same_bits(const DoubleAxis& x, const DoubleAxis& y) {
  return std::memcmp(x.L, y.L, sizeof x.L) == 0 && std::memcmp(x.jA, y.jA, sizeof x.jA) == 0 &&
         std::memcmp(x.PA, y.PA, sizeof x.PA) == 0 && std::memcmp(x.jB, y.jB, sizeof x.jB) == 0 &&
         std::memcmp(x.PB, y.PB, sizeof x.PB) == 0 && std::memcmp(&x.p, &y.p, sizeof x.p) == 0;
}

bool same_axis(const QuantizedAxis& x, const QuantizedAxis& y) {
  for (int c = 0; c < 3; ++c)
    if (x.jA[c] != y.jA[c] || x.jB[c] != y.jB[c] || x.PA[c] != y.PA[c] || x.PB[c] != y.PB[c]) return false;
  return x.p == y.p;
}

// The four objects are the generator's, as `kdop multibody` reads them from its file.
TEST(SetupScene, TheFourCowsAreObjectsOfTheGeneratedScene) {
  REQUIRE_COW();
  const Mesh cow = load_mesh(test::mesh_path("cow.off"));
  const Scene generated = generate_scene(test::mesh_path("cow.off"), cow, 4096, 4, 1);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("kdopcd_setup_scene_" + std::to_string(::getpid()) + ".json")).string();
  save_scene(generated, path);
  const Scene read = load_scene(path);
  std::filesystem::remove(path);
  const Scene four = load_scene(kScene);
  ASSERT_EQ(four.objects.size(), 4u);
  const std::size_t picked[4] = {1628, 1644, 2819, 2820};
  for (int i = 0; i < 4; ++i) {
    const Pose& a = four.objects[std::size_t(i)].pose;
    const Pose& b = read.objects[picked[i]].pose;
    EXPECT_EQ(a.rotation.coeffs(), b.rotation.coeffs()) << "object " << picked[i];
    EXPECT_EQ(a.translation, b.translation) << "object " << picked[i];
  }
}

TEST(SetupScene, FixedSatEqualsTheReferenceOnEveryAxisAndContact) {
  REQUIRE_COW();
  const MultibodyWorld world(load_scene(kScene), 24);
  MultibodyOptions o;
  o.sat = SatBackend::Fixed;
  const MultibodyResult r = world.run(o);
  ASSERT_GE(r.pairs.size(), 2u);
  std::size_t unit_swaps = 0;
  for (const PairResult& p : r.pairs) {
    SCOPED_TRACE("pair " + std::to_string(p.first_object) + " " + std::to_string(p.second_object));
    const DopTree& first = world.tree_of(p.first_object);
    const DopTree& second = world.tree_of(p.second_object);
    const Pose relative = relative_pose(world.pose(p.first_object), world.pose(p.second_object));
    // The check's reference: contacts and counters.
    const QueryResult ref = reference_pair_query(world, p.first_object, p.second_object, o);
    EXPECT_EQ(p.contacts, ref.contacts);
    EXPECT_EQ(p.stats.pair_tests, ref.stats.pair_tests);
    EXPECT_EQ(p.stats.axis_tests, ref.stats.axis_tests);
    EXPECT_EQ(p.stats.leaf_pairs, ref.stats.leaf_pairs);
    // collide() from the pose (its own SIMD axis table, the roots decided from bounds of p): the
    // same counters; contacts from the triangle unit, which may differ from the exact test's only
    // for triangle pairs closer than the unit's delta.
    TraversalOptions t;
    t.rule = o.rule;  // the engine's rule (collide()'s own default is the software's)
    const QueryResult fixed = collide(first, second, relative, t, SatBackend::Fixed, o.fixed);
    EXPECT_EQ(fixed.stats.pair_tests, ref.stats.pair_tests);
    EXPECT_EQ(fixed.stats.axis_tests, ref.stats.axis_tests);
    EXPECT_EQ(fixed.stats.leaf_pairs, ref.stats.leaf_pairs);
    std::vector<ContactPair> swapped;
    std::set_symmetric_difference(fixed.contacts.begin(), fixed.contacts.end(), ref.contacts.begin(),
                                  ref.contacts.end(), std::back_inserter(swapped));
    const std::vector<Vec3> placed = place_vertices(second.mesh(), relative);
    const double delta = triangle_delta(scene_scale(first, second), TriangleFixedParams{});
    for (const ContactPair& c : swapped) {
      const auto& s = second.mesh().triangles[c.second];
      const Mesh& m = first.mesh();
      const double d = triangle_distance(m.corner(int(c.first), 0), m.corner(int(c.first), 1), m.corner(int(c.first), 2),
                                         placed[s[0]], placed[s[1]], placed[s[2]]);
      EXPECT_LE(d, delta) << "triangles " << c.first << " " << c.second;
      std::printf("pair %u %u: triangles %u %u at distance %.3g (delta %.3g): %s\n", p.first_object, p.second_object,
                  c.first, c.second, d, delta,
                  std::binary_search(ref.contacts.begin(), ref.contacts.end(), c) ? "exact contact, not the unit's"
                                                                                  : "the unit's contact, not exact");
    }
    unit_swaps += swapped.size();
    // Every axis's integers: the engine's set-up (make_query_setup, as the model, the drivers and
    // co-simulation make theirs) and collide()'s SIMD table of the same pose.
    const QuerySetup setup = make_query_setup(first, second, relative, o.fixed, TriangleFixedParams{});
    const std::vector<QuantizedAxis> old_formula =
        quantize_setup(make_sat_setup(first.orientations(), centred_pose(first, second, relative)), setup.scale, o.fixed);
    for (int i = 0; i < world.k(); ++i) EXPECT_TRUE(same_axis(setup.fixed_axes[std::size_t(i)], old_formula[std::size_t(i)])) << i;
    const OrientationSet& set = first.orientations();
    ProjectedTripleLanes lanes;
    lanes.make_all(set, relative.matrix(), world.k());
    FixedAxisTable made, expected;
    make_fixed_axis_table(set, lanes, setup.centred.translation, setup.scale, o.fixed, world.k(), made);
    std::vector<NarrowFixedAxis> narrow;
    for (const QuantizedAxis& q : setup.fixed_axes) narrow.push_back(narrow_fixed_axis(q, set.half(), o.fixed));
    make_fixed_axis_table(narrow, world.k(), o.fixed.b, expected);
    for (auto [x, y] : {std::pair{&made.even, &expected.even}, std::pair{&made.odd, &expected.odd}})
      for (int e = 0; e < x->count; ++e) {
        for (int m = 0; m < 3; ++m) {
          EXPECT_EQ(x->j[m][e], y->j[m][e]) << "lane " << e;
          EXPECT_EQ(x->P[m][e], y->P[m][e]) << "lane " << e;
        }
        EXPECT_EQ(x->p1[e], y->p1[e]) << "lane " << e;
        EXPECT_EQ(x->p2[e], y->p2[e]) << "lane " << e;
      }
    // The same axes on the GPU, where there is one.
    std::string why;
    if (device_available(&why)) {
      const DeviceSetupResult device = device_query_setup(
          set, {make_query_pose_view(relative, first.centre(), second.centre(), setup.scale, o.fixed)});
      for (int i = 0; i < world.k(); ++i) {
        EXPECT_EQ(device.status[std::size_t(i)], SetupStatus::Ok);
        EXPECT_TRUE(same_axis(device.fixed_axes[std::size_t(i)], setup.fixed_axes[std::size_t(i)])) << "GPU axis " << i;
      }
    }
  }
  // The scene still holds the triangle pairs the unit decides otherwise than the exact test.
  EXPECT_GT(unit_swaps, 0u);
}

TEST(SetupScene, FloatSatEqualsTheReference) {
  REQUIRE_COW();
  const MultibodyWorld world(load_scene(kScene), 24);
  const MultibodyOptions o;
  const MultibodyResult r = world.run(o);
  ASSERT_GE(r.pairs.size(), 2u);
  for (const PairResult& p : r.pairs) {
    const QueryResult ref = reference_pair_query(world, p.first_object, p.second_object, o);
    EXPECT_EQ(p.contacts, ref.contacts);
    EXPECT_EQ(p.stats.pair_tests, ref.stats.pair_tests);
    EXPECT_EQ(p.stats.axis_tests, ref.stats.axis_tests);
    EXPECT_EQ(p.stats.leaf_pairs, ref.stats.leaf_pairs);
  }
}

// The per-axis core on the GPU (compiled with --fmad=false) gives the host's doubles and integers
// bit for bit: random rotations, every k, offsets at and next to p's rounding borders, and bad
// inputs (a NaN rotation, bits out of range) as the same statuses. Skips without a usable GPU.
TEST(SetupScene, GpuSetupEqualsTheHostBitForBit) {
  std::string why;
  if (!device_available(&why)) GTEST_SKIP() << "no usable GPU: " << why;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g(0, 1);
  const FixedParams params[] = {{18, 18, 18}, {12, 20, 30}, {4, 4, 4}, {30, 28, 10}, {3, 18, 18}};
  for (int k : kSupportedK) {
    const OrientationSet& set = orientation_set(k);
    std::vector<QueryPoseView> queries;
    for (int r = 0; r < 500; ++r) {
      const Mat3 M = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
      QueryPoseView q{};
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) q.M[3 * a + b] = M(a, b);
      if (r == 7) q.M[4] = std::numeric_limits<double>::quiet_NaN();
      q.s = r % 3 == 0 ? 1.0 : 0.3 + std::fabs(g(rng));
      q.fixed = params[std::size_t(r) % std::size(params)];
      for (int c = 0; c < 3; ++c) {
        q.T[c] = g(rng) * 1e3;
        const double border = std::ldexp(double(std::int64_t(rng() % 4001) - 2000), -q.fixed.z) * q.s;
        q.Tc[c] = r % 2 ? g(rng) * 2 : std::nextafter(border, double(int(rng() % 3) - 1));
      }
      queries.push_back(q);
    }
    const DeviceSetupResult device = device_query_setup(set, queries);
    for (std::size_t qi = 0; qi < queries.size(); ++qi)
      for (int i = 0; i < k; ++i) {
        const std::size_t at = qi * std::size_t(k) + std::size_t(i);
        DoubleAxis d{};
        QuantizedAxis a{};
        const SetupStatus status = make_query_axis(set.view(), queries[qi], i, &d, &a);
        ASSERT_EQ(device.status[at], status) << "k " << k << " query " << qi << " axis " << i;
        if (status != SetupStatus::Ok) continue;
        ASSERT_TRUE(same_bits(device.float_axes[at], d)) << "k " << k << " query " << qi << " axis " << i;
        ASSERT_TRUE(same_axis(device.fixed_axes[at], a)) << "k " << k << " query " << qi << " axis " << i;
      }
  }
}

}  // namespace
}  // namespace kdopcd::cuda
