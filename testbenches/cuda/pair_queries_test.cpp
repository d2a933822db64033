// NarrowRunner on the host backend with one task per pose of one pair (what `kdop collide
// --device host|cuda` runs): the reference's contacts and counters in every pose class, on real
// and generated meshes of different sizes, float and fixed SAT, with and without the front split;
// one call holding every pose answers each as a call of its own does.
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd_cuda/reference.hpp"

namespace kdopcd::cuda {
namespace {

void expect_reference(const DopTree& first, const DopTree& second, const std::string& name) {
  const NarrowRunner runner({&first, &second});
  const auto classes =
      make_pose_classes(first, second, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())),
                        Vec3(1, 0.5, 0.25));
  for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed})
    for (std::uint64_t split : {0ull, 16ull, 4096ull}) {
      NarrowOptions o;
      o.sat = sat;
      o.split = split;
      o.threads = 2;
      std::vector<TaskSpec> batch;
      std::vector<QueryResult> refs;
      for (const ClassifiedPose& cp : classes) {
        SCOPED_TRACE(name + " " + to_string(cp.kind) + " " + to_string(sat) + " split " + std::to_string(split));
        const NarrowRun run = runner.run({TaskSpec{0, 1, cp.pose}}, o);
        refs.push_back(reference_query(first, second, cp.pose, o));  // the fixed SAT with the exact triangle test
        const QueryResult& ref = refs.back();
        EXPECT_EQ(run.contacts[0], ref.contacts);
        EXPECT_EQ(run.counters[0].pair_tests, ref.stats.pair_tests);
        EXPECT_EQ(run.counters[0].axis_tests, ref.stats.axis_tests);
        EXPECT_EQ(run.counters[0].leaf_pairs, ref.stats.leaf_pairs);
        if (cp.kind == PoseClass::Intersecting) {
          EXPECT_GT(ref.contacts.size(), 0u);
        }
        batch.push_back(TaskSpec{0, 1, cp.pose});
      }
      const NarrowRun all = runner.run(batch, o);
      for (std::size_t i = 0; i < refs.size(); ++i) {
        EXPECT_EQ(all.contacts[i], refs[i].contacts) << name << " batch task " << i;
        EXPECT_EQ(all.counters[i].pair_tests, refs[i].stats.pair_tests) << name << " batch task " << i;
      }
    }
}

TEST(PairQueries, CowAgainstCowInEveryPoseClass) {
  REQUIRE_COW();
  const Mesh cow = load_mesh(test::mesh_path("cow.off"));
  const DopTree tree(cow, 24);
  expect_reference(tree, tree, "cow/cow");
}

TEST(PairQueries, GeneratedShapesOfDifferentSizes) {
  const Mesh torus = make_torus(2, 0.7, 48, 24);
  const Mesh sphere = make_sphere(1.6, 3);  // crosses the torus when the centres meet
  const DopTree a(torus, 18), b(sphere, 18);
  expect_reference(a, b, "torus/sphere");
  expect_reference(b, a, "sphere/torus");
}

// The set-up runs on the backend (SetupStep), which cannot throw: a pose it cannot set up (here a
// rotation of NaNs, for which no face triple accepts an axis) comes back as a status that the
// runner throws for (float SAT; with the fixed SAT the host's exactly rounded centred translation
// refuses the pose first), and the runner answers the next call normally.
TEST(PairQueries, SetupFailureOnTheBackendIsThrown) {
  const Mesh torus = make_torus(2, 0.7, 24, 12);
  const DopTree tree(torus, 18);
  const NarrowRunner runner({&tree, &tree});
  Pose bad;
  bad.rotation = Eigen::Quaterniond(std::nan(""), 0, 0, 0);
  for (SatBackend sat : {SatBackend::Float, SatBackend::Fixed}) {
    SCOPED_TRACE(to_string(sat));
    NarrowOptions o;
    o.sat = sat;
    try {
      runner.run({TaskSpec{0, 1, Pose{}}, TaskSpec{0, 1, bad}}, o);
      ADD_FAILURE() << "no exception";
    } catch (const std::logic_error& e) {
      const std::string why = sat == SatBackend::Float ? "narrow phase set-up: no face triple" : "non-finite";
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
    const NarrowRun good = runner.run({TaskSpec{0, 1, Pose{}}}, o);
    const QueryResult ref = reference_query(tree, tree, Pose{}, o);
    EXPECT_EQ(good.contacts[0], ref.contacts);
    EXPECT_EQ(good.counters[0].pair_tests, ref.stats.pair_tests);
    EXPECT_GT(good.counters[0].pair_tests, 1u);
  }
}

}  // namespace
}  // namespace kdopcd::cuda
