// The speed-ups of the reference query change no result: the 64-bit fixed-point axis test equals
// fixed_axis_diffs, the per-tree quantization cache gives the same query as quantizing afresh,
// and one query on several threads tests the same pairs as the sequential loop.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd/tri_tri.hpp"
#include "test_meshes.hpp"

using namespace kdopcd;

namespace {

void expect_same_query(const QueryResult& a, const QueryResult& b, const char* what) {
  EXPECT_EQ(a.contacts, b.contacts) << what;
  EXPECT_EQ(a.stats.pair_tests, b.stats.pair_tests) << what;
  EXPECT_EQ(a.stats.axis_tests, b.stats.axis_tests) << what;
  EXPECT_EQ(a.stats.leaf_pairs, b.stats.leaf_pairs) << what;
  EXPECT_EQ(a.stats.triangle_tests, b.stats.triangle_tests) << what;
  EXPECT_EQ(a.stats.contacts, b.stats.contacts) << what;
}

}  // namespace

// Random and extreme operands at several widths: the 64-bit test decides as Eq. 22 in __int128.
TEST(NarrowFixed, EqualsFixedAxisDiffs) {
  std::mt19937_64 rng(7);
  const int k = 24, half = 12;
  for (const FixedParams f : {FixedParams{18, 18, 18}, FixedParams{4, 4, 4}, FixedParams{29, 29, 44},
                              FixedParams{30, 28, 10}, FixedParams{20, 24, 50 - 6}}) {
    ASSERT_TRUE(narrow_fixed_params(f));
    const std::int64_t cmax = std::int64_t(1) << f.b, pmax = std::int64_t(1) << f.c;
    for (int trial = 0; trial < 20000; ++trial) {
      std::vector<std::int64_t> a(k), b(k);
      auto coefficient = [&] {
        switch (rng() % 4) {
          case 0: return cmax;
          case 1: return -cmax;
          default: return std::int64_t(rng() % std::uint64_t(2 * cmax + 1)) - cmax;
        }
      };
      for (auto& x : a) x = coefficient();
      for (auto& x : b) x = coefficient();
      QuantizedAxis ax;
      for (int i = 0; i < 3; ++i) {
        ax.jA[i] = int(rng() % k);
        ax.jB[i] = int(rng() % k);
        ax.PA[i] = rng() % 3 == 0 ? -pmax : -std::int64_t(rng() % std::uint64_t(pmax + 1));
        ax.PB[i] = rng() % 3 == 0 ? -pmax : -std::int64_t(rng() % std::uint64_t(pmax + 1));
      }
      const std::int64_t zmax = std::int64_t(1) << (f.z + 2);
      ax.p = rng() % 5 == 0 ? (rng() % 2 ? zmax : -zmax) : std::int64_t(rng() % std::uint64_t(2 * zmax + 1)) - zmax;
      const bool wide = fixed_axis_diffs<true>(a.data(), b.data(), half, ax, f).separated();
      const bool narrow = narrow_fixed_separates(a.data(), b.data(), narrow_fixed_axis(ax, half, f));
      ASSERT_EQ(wide, narrow) << "b " << f.b << " c " << f.c << " z " << f.z << " trial " << trial;
    }
  }
}

TEST(QuantizationCache, SameTreeAndSameQueryAsQuantizingAfresh) {
  const Mesh a = make_torus(1.0, 0.3, 32, 16), b = make_torus(0.8, 0.25, 28, 14);
  const DopTree ta(a, 24), tb(b, 24);
  const double s = scene_scale(ta, tb);
  const auto q1 = quantized_tree(ta, s, 18);
  EXPECT_EQ(q1.get(), quantized_tree(ta, s, 18).get()) << "made once per tree, scale and b";
  EXPECT_NE(q1.get(), quantized_tree(ta, s, 20).get());
  EXPECT_EQ(q1->all_coefficients(), QuantizedTree(ta, s, 18).all_coefficients());
  // A query through the cache equals one through the set-up overload, which quantizes the set-up
  // up front, and equals itself when repeated (the cache then serves it).
  for (const ClassifiedPose& cp : make_pose_classes(ta, tb, Eigen::Quaterniond(0.9, 0.3, 0.2, 0.1), Vec3(1, 0.5, 0))) {
    const QueryResult first = collide(ta, tb, cp.pose, TraversalOptions{}, SatBackend::Fixed);
    const QueryResult again = collide(ta, tb, cp.pose, TraversalOptions{}, SatBackend::Fixed);
    expect_same_query(first, again, to_string(cp.kind));
    const SatSetup setup = make_sat_setup(ta.orientations(), centred_pose(ta, tb, cp.pose));
    const std::vector<Vec3> placed = place_vertices(b, cp.pose);
    const QueryResult via_setup = collide(ta, tb, setup, placed, TraversalOptions{}, SatBackend::Fixed);
    EXPECT_EQ(first.stats.pair_tests, via_setup.stats.pair_tests) << to_string(cp.kind);
    EXPECT_EQ(first.stats.axis_tests, via_setup.stats.axis_tests) << to_string(cp.kind);
    EXPECT_EQ(first.stats.leaf_pairs, via_setup.stats.leaf_pairs) << to_string(cp.kind);
  }
}

// The fixed backend's pair verdicts and counters against the plain formulation it replaced:
// fixed_axis_diffs (with its width checks) on freshly quantized trees and the quantized set-up of
// the centred pose, in the library's traversal. The model and the RTL compare against these
// counters, so they must not move.
TEST(QuantizationCache, CountersEqualThePlainFixedTraversal) {
  REQUIRE_REAL_MESH("elephant.off");
  REQUIRE_REAL_MESH("hand.off");
  const Mesh first = load_mesh(real_mesh_path("elephant.off"));
  const Mesh second = load_mesh(real_mesh_path("hand.off"));
  const DopTree ta(first, 24), tb(second, 24);
  const FixedParams fixed;
  const double s = scene_scale(ta, tb);
  const QuantizedTree qf(ta, s, fixed.b), qs(tb, s, fixed.b);
  for (const ClassifiedPose& cp :
       make_pose_classes(ta, tb, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())),
                         Vec3(1, 0.5, 0.25)))
    for (int n : {24, 7}) {
      TraversalOptions options;
      options.axes = n;
      const std::vector<QuantizedAxis> axes =
          quantize_setup(make_sat_setup(ta.orientations(), centred_pose(ta, tb, cp.pose)), s, fixed);
      auto pair_test = [&](int nf, int ns) {
        for (int i = 0; i < n; ++i)
          if (fixed_axis_diffs<true>(qs.coefficients(std::size_t(ns)), qf.coefficients(std::size_t(nf)), 12,
                                     axes[std::size_t(i)], fixed)
                  .separated())
            return PairVerdict{true, i + 1};
        return PairVerdict{false, n};
      };
      const QueryResult plain = traverse(ta, tb, options, pair_test, [](int, int) { return false; });
      const QueryResult ours = collide(ta, tb, cp.pose, options, SatBackend::Fixed);
      EXPECT_EQ(ours.stats.pair_tests, plain.stats.pair_tests) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(ours.stats.axis_tests, plain.stats.axis_tests) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(ours.stats.leaf_pairs, plain.stats.leaf_pairs) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(ours.stats.triangle_tests, plain.stats.triangle_tests) << to_string(cp.kind) << " n " << n;
      EXPECT_EQ(ours.stats.max_stack_depth, plain.stats.max_stack_depth) << to_string(cp.kind) << " n " << n;
    }
}

// Every backend, rule and thread count: the parallel traversal is the sequential one.
TEST(ParallelQuery, SameContactsAndCountersAsOneThread) {
  const Mesh a = make_torus(1.0, 0.3, 48, 24), b = make_torus(0.8, 0.25, 40, 20);
  const DopTree ta(a, 24), tb(b, 24);
  const Pose identity;
  std::vector<Pose> poses{identity};
  for (const ClassifiedPose& cp : make_pose_classes(ta, tb, Eigen::Quaterniond(0.9, 0.3, 0.2, 0.1), Vec3(1, 0.5, 0)))
    poses.push_back(cp.pose);
  for (const Pose& pose : poses)
    for (SatBackend backend : {SatBackend::Float, SatBackend::Fixed, SatBackend::Exact})
      for (DescentRule rule : {DescentRule::Shallower, DescentRule::First, DescentRule::Second}) {
        TraversalOptions one;
        one.rule = rule;
        const QueryResult sequential = collide(ta, tb, pose, one, backend);
        for (int threads : {0, 2, 3}) {
          TraversalOptions many = one;
          many.threads = threads;
          expect_same_query(sequential, collide(ta, tb, pose, many, backend), to_string(backend));
        }
      }
}

TEST(ParallelQuery, LargeRealSceneEqualsOneThread) {
  REQUIRE_REAL_MESH("elephant.off");
  REQUIRE_REAL_MESH("hand.off");
  const Mesh first = load_mesh(real_mesh_path("elephant.off"));
  const Mesh second = load_mesh(real_mesh_path("hand.off"));
  const DopTree ta(first, 24), tb(second, 24);
  for (const ClassifiedPose& cp :
       make_pose_classes(ta, tb, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())),
                         Vec3(1, 0.5, 0.25))) {
    TraversalOptions many, binary;
    many.threads = 0;
    binary.wide = false;  // the descent the parallel traversal shares (the wide one tests other pairs)
    for (SatBackend backend : {SatBackend::Float, SatBackend::Fixed}) {
      const QueryResult one = collide(ta, tb, cp.pose, binary, backend);
      expect_same_query(one, collide(ta, tb, cp.pose, many, backend), to_string(cp.kind));
      EXPECT_EQ(collide(ta, tb, cp.pose, TraversalOptions{}, backend).contacts, one.contacts) << to_string(cp.kind);
    }
  }
}

// The per-node halves of a query live in a per-thread cache shared by every query on that
// thread. A query run from inside another (here from the outer query's triangle test, on the
// same thread, with other trees and an interleaved sibling query on the same trees) overwrites
// the outer query's slots between two of its pair tests: the outer query must make them again,
// never read the inner query's. Same contacts and counters as the query run alone, both backends.
TEST(NodeTermsCache, NestedQueriesOnOneThreadChangeNothing) {
  const Mesh a = make_torus(1.0, 0.3, 48, 24), b = make_torus(0.8, 0.25, 40, 20);
  const Mesh c = make_torus(0.9, 0.35, 36, 18);
  const DopTree ta(a, 24), tb(b, 24), tc(c, 24);
  for (const ClassifiedPose& cp : make_pose_classes(ta, tb, Eigen::Quaterniond(0.9, 0.3, 0.2, 0.1), Vec3(1, 0.5, 0)))
    for (SatBackend backend : {SatBackend::Float, SatBackend::Fixed}) {
      const QueryResult alone = collide(ta, tb, cp.pose, TraversalOptions{}, backend);
      const SatSetup setup = make_sat_setup(ta.orientations(), cp.pose);
      const std::vector<Vec3> placed = place_vertices(b, cp.pose);
      std::uint64_t inner_queries = 0, inner_pairs = 0;
      // The outer query's own contacts come from the exact test on the placed doubles; before
      // each one, two inner queries: other trees at another pose, and the same trees swapped.
      const TriangleTest nesting = [&](std::uint32_t tf, std::uint32_t ts) {
        const Pose other(Eigen::Quaterniond(0.8, 0.1, 0.5, 0.3).normalized(), Vec3(0.1 * (tf % 7), 0.05, 0));
        inner_pairs += collide(tc, ta, other, TraversalOptions{}, backend).stats.pair_tests;
        inner_pairs += collide(tb, ta, other, TraversalOptions{}, backend).stats.pair_tests;
        inner_queries += 2;
        const auto& t = b.triangles[ts];
        return triangles_intersect(a.corner(tf, 0), a.corner(tf, 1), a.corner(tf, 2), placed[t[0]], placed[t[1]],
                                   placed[t[2]]);
      };
      QueryResult outer;
      if (backend == SatBackend::Float) {
        outer = collide(ta, tb, setup, placed, TraversalOptions{}, backend, FixedParams{}, nesting);
      } else {
        // The fixed backend's own triangle unit may list other contacts than the exact test:
        // compare it with the fixed query alone, with the nesting run as an extra test.
        const SatSetup centred = make_sat_setup(ta.orientations(), centred_pose(ta, tb, cp.pose));
        const QueryResult fixed_alone =
            collide(ta, tb, centred, placed, TraversalOptions{}, backend, FixedParams{}, TriangleTest{});
        outer = collide(ta, tb, centred, placed, TraversalOptions{}, backend, FixedParams{}, nesting);
        expect_same_query(outer, fixed_alone, "fixed, nested");
        EXPECT_EQ(outer.stats.pair_tests, alone.stats.pair_tests);
        EXPECT_EQ(outer.stats.axis_tests, alone.stats.axis_tests);
        continue;
      }
      expect_same_query(outer, alone, to_string(cp.kind));
      if (outer.stats.triangle_tests > 0) {
        EXPECT_GT(inner_queries, 0u);
        EXPECT_GT(inner_pairs, inner_queries);  // the inner queries got past their roots
      }
    }
}

// The placed vertices of the second object live in a per-thread cache that only grows, shared
// by every query on the thread. Three queries at once, each on TBB's threads: two second objects
// of different sizes (so a query can grow, and move, a cache another one used a moment before)
// and the small one again at a deeper pose (the same vertices, other placed points); on the
// calling thread the three in turn. Every query must give the contacts and counters of the
// query alone, for the float (Vec3) and the fixed (FixedVertex) caches.
TEST(PlacedVertexCache, QueriesTakingTurnsOnThreadsChangeNothing) {
  const Mesh a = make_torus(1.0, 0.3, 48, 24);
  const Mesh small = make_torus(0.8, 0.25, 20, 10), large = make_torus(0.85, 0.3, 96, 48);
  const DopTree ta(a, 24), ts(small, 24), tl(large, 24);
  struct Query {
    const DopTree* second;
    Pose pose;
  };
  std::vector<Query> queries{
      {&ts, make_pose_classes(ta, ts, Eigen::Quaterniond(0.9, 0.3, 0.2, 0.1), Vec3(1, 0.5, 0))[0].pose},
      {&tl, make_pose_classes(ta, tl, Eigen::Quaterniond(0.9, 0.3, 0.2, 0.1), Vec3(0, 1, 0.5))[0].pose},
      {&ts, Pose{}}};
  // The first pose pushed deeper: the same triangles of the small torus meet the other object,
  // at other places (a stale placed vertex of the first query changes the contacts).
  queries[2].pose = queries[0].pose;
  queries[2].pose.translation *= 0.9;
  for (SatBackend backend : {SatBackend::Float, SatBackend::Fixed}) {
    // Each query alone, with the default (wide) descent and with the binary one the parallel
    // traversal shares.
    TraversalOptions binary;
    binary.wide = false;
    std::vector<QueryResult> alone, alone_binary;
    for (const Query& q : queries) {
      alone.push_back(collide(ta, *q.second, q.pose, TraversalOptions{}, backend));
      alone_binary.push_back(collide(ta, *q.second, q.pose, binary, backend));
      ASSERT_GT(alone.back().stats.contacts, 0u);
      ASSERT_EQ(alone.back().contacts, alone_binary.back().contacts);
    }
    ASSERT_NE(alone[0].contacts, alone[2].contacts);
    TraversalOptions many;
    many.threads = 0;
    std::atomic<int> mismatches{0};
    auto run = [&](std::size_t i, int repeats) {
      for (int r = 0; r < repeats; ++r) {
        const QueryResult q = collide(ta, *queries[i].second, queries[i].pose, many, backend);
        if (q.contacts != alone_binary[i].contacts || q.stats.triangle_tests != alone_binary[i].stats.triangle_tests)
          ++mismatches;
      }
    };
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < queries.size(); ++i) threads.emplace_back(run, i, 20);
    for (int r = 0; r < 30; ++r) {
      const Query& q = queries[std::size_t(r) % queries.size()];
      expect_same_query(collide(ta, *q.second, q.pose, TraversalOptions{}, backend),
                        alone[std::size_t(r) % queries.size()], to_string(backend));
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(mismatches.load(), 0) << to_string(backend);
  }
}

TEST(ParallelQuery, RejectsABoundedStack) {
  const Mesh a = make_torus(1.0, 0.3, 16, 8);
  const DopTree ta(a, 24);
  TraversalOptions options;
  options.threads = 2;
  options.stack_capacity = 100;
  EXPECT_THROW(collide(ta, ta, Pose{}, options), std::invalid_argument);
}

// The optional tree build and descent rule change the pairs tested, never the contacts.
TEST(TreeOptions, SahBuildAndLargerRuleKeepContacts) {
  REQUIRE_REAL_MESH("elephant.off");
  REQUIRE_REAL_MESH("hand.off");
  const Mesh first = load_mesh(real_mesh_path("elephant.off"));
  const Mesh second = load_mesh(real_mesh_path("hand.off"));
  const DopTree ta(first, 24), tb(second, 24);
  const DopTree sa(first, 24, TreeBuild::Sah), sb(second, 24, TreeBuild::Sah);
  EXPECT_EQ(sa.node_count(), ta.node_count());  // one triangle per leaf either way
  for (const ClassifiedPose& cp :
       make_pose_classes(ta, tb, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())),
                         Vec3(1, 0.5, 0.25))) {
    const QueryResult reference = collide(ta, tb, cp.pose, TraversalOptions{});
    if (cp.kind == PoseClass::Intersecting) {
      EXPECT_EQ(reference.contacts, brute_force_contacts(first, second, cp.pose));
    }
    for (DescentRule rule : {DescentRule::Shallower, DescentRule::Larger}) {
      TraversalOptions options;
      options.rule = rule;
      for (int threads : {1, 2}) {
        options.threads = threads;
        EXPECT_EQ(collide(sa, sb, cp.pose, options).contacts, reference.contacts) << to_string(cp.kind);
        EXPECT_EQ(collide(ta, tb, cp.pose, options).contacts, reference.contacts) << to_string(cp.kind);
        EXPECT_EQ(collide(sa, sb, cp.pose, options, SatBackend::Fixed).contacts,
                  collide(ta, tb, cp.pose, TraversalOptions{}, SatBackend::Fixed).contacts)
            << to_string(cp.kind);
      }
    }
  }
}

TEST(TreeOptions, ParsesNames) {
  EXPECT_EQ(parse_tree_build("median"), TreeBuild::Median);
  EXPECT_EQ(parse_tree_build("sah"), TreeBuild::Sah);
  EXPECT_THROW(parse_tree_build("bvh"), InputError);
  EXPECT_STREQ(to_string(DescentRule::Larger), "larger");
}
