// The traversal matrix (docs/cuda.md §3, §8): every traversal of TraversalKind against the
// reference's kdopcd::traverse / collide, on the host backend:
//   * visit order: the alternately stepping orders (predictable stack, stackless, post-indexed)
//     test the reference's Shallower pairs in its order, the dynamic stack the Larger rule's, from
//     the roots and from every pair a front could hand out; the leaf algorithm finds the
//     reference's overlapping leaf pairs;
//   * real meshes in the four pose classes (cow/cow, armadillo/armadillo, bunny00/bunny00,
//     elephant/hand), float and fixed SAT, with and without the front split: the reference's
//     contacts and leaf pairs, and its pair and axis test counts where the traversal tests the
//     reference's pairs;
//   * a multibody scene of cows: every object pair against the reference;
//   * caterpillar trees deeper than the fixed stacks: an overflow is reported, never a wrong or
//     missing answer, and the stackless orders and the dynamic stack need no bound;
//   * bad input (unknown name, a rule a traversal does not follow) is an InputError.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "cuda_test_util.hpp"
#include "traversal_test_util.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd_cuda/escape_traversal.hpp"
#include "kdopcd_cuda/narrow.hpp"
#include "kdopcd_cuda/reference.hpp"
#include "kdopcd_cuda/stack_traversals.hpp"

namespace kdopcd::cuda {
namespace {

using test::caterpillar;
using test::Visit;

struct Sequences {
  std::vector<Visit> tests;   // every DOP pair tested, in order
  std::vector<Visit> leaves;  // overlapping leaf pairs (triangles), in order
  TraversalStatus status = TraversalStatus::Ok;
  TraversalTally tally;
};

// Runs traversal `t` below post-order pair (a, b). separated(f, s) over post-order indices.
template <class Separated>
Sequences run_traversal(TraversalKind t, const std::vector<BsNode>& f, std::int32_t a, const std::vector<BsNode>& s,
                        std::int32_t b, DescentRule rule, const std::vector<double>* f_coeffs,
                        const std::vector<double>* s_coeffs, int k, Separated&& is_separated) {
  Sequences out;
  auto separated = [&](std::int32_t x, std::int32_t y) {
    out.tests.emplace_back(f[std::size_t(x)].ref, s[std::size_t(y)].ref);
    return is_separated(x, y);
  };
  auto leaf = [&](std::int32_t x, std::int32_t y) { out.leaves.emplace_back(x, y); };
  // The volume rule on real trees (sizes from the coefficients, as the pipeline), else `rule`.
  auto volume = [&](std::int32_t x, const BsNode& nx, std::int32_t y, const BsNode& ny) {
    if (!f_coeffs) return split_first(nx, ny, rule);
    return split_first_node(nx.is_leaf(), ny.is_leaf(), nx.depth, ny.depth, DescentRule::Larger,
                            dop_size(&(*f_coeffs)[std::size_t(x) * std::size_t(k)], k),
                            dop_size(&(*s_coeffs)[std::size_t(y) * std::size_t(k)], k));
  };
  const BsNode* pf = f.data();
  const BsNode* ps = s.data();
  TraversalTally& tally = out.tally;
  switch (t) {
    case TraversalKind::BinaryStack:
      out.status = binary_stack_traverse<2>(pf, a, ps, b, rule, separated, leaf, tally);
      break;
    case TraversalKind::ExplicitStack:
      out.status = explicit_stack_traverse<kExplicitStackCapacity>(pf, a, ps, b, rule, separated, leaf, tally);
      break;
    case TraversalKind::DynamicStack:
      out.status = dynamic_stack_traverse<kDynamicLocalPairs>(pf, a, ps, b, volume, separated, leaf, tally);
      break;
    case TraversalKind::PredictableStack:
      out.status = predictable_stack_traverse<kPredictableStackCapacity>(pf, a, ps, b, separated, leaf, tally);
      break;
    case TraversalKind::Leaf: out.status = leaf_algorithm_traverse(pf, a, ps, b, separated, leaf, tally); break;
    case TraversalKind::Stackless:
      out.status = alternating_stackless_traverse<Climb::Stepwise>(pf, a, ps, b, separated, leaf, tally);
      break;
    case TraversalKind::PostIndexed:
      out.status = alternating_stackless_traverse<Climb::PostIndexed>(pf, a, ps, b, separated, leaf, tally);
      break;
  }
  return out;
}

// The rule whose order a traversal follows, in the reference's terms.
DescentRule rule_of(TraversalKind t) {
  return t == TraversalKind::DynamicStack ? DescentRule::Larger : DescentRule::Shallower;
}

std::vector<Visit> sorted(std::vector<Visit> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// ---- Visit order on real trees --------------------------------------------------------------

struct TreePair {
  PostOrderTree first, second;
  SatSetup setup;
  int k;
  bool separated(std::int32_t f, std::int32_t g) const {
    const double* b = &first.coefficients[std::size_t(f) * std::size_t(k)];
    const double* a = &second.coefficients[std::size_t(g) * std::size_t(k)];
    for (const AxisSetup& ax : setup.axes)
      if (float_axis_diffs(a, b, k / 2, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated())
        return true;
    return false;
  }
};

// Every traversal from the roots; the rule-following ones also from every pair of the reference's
// order at BVTT depth `unit_depth` (a front of that depth hands out exactly those), where each
// must test the reference's pairs below that pair.
void expect_reference_order(const DopTree& first, const DopTree& second, const Pose& pose, std::size_t* tested) {
  TreePair tp{make_post_order_tree(first), make_post_order_tree(second), make_sat_setup(first.orientations(), pose),
              first.k()};
  auto sep = [&](std::int32_t f, std::int32_t g) { return tp.separated(f, g); };
  for (TraversalKind t : all_traversals()) {
    SCOPED_TRACE(to_string(t));
    const DescentRule rule = rule_of(t);
    const test::VisitSequences ref = test::reference_visits(first, second, tp.setup, int(tp.setup.axes.size()), rule);
    const Sequences got = run_traversal(t, tp.first.nodes, tp.first.root(), tp.second.nodes, tp.second.root(), rule,
                                        &tp.first.coefficients, &tp.second.coefficients, tp.k, sep);
    ASSERT_EQ(got.status, TraversalStatus::Ok);
    if (visits_reference_pairs(t)) {
      EXPECT_EQ(got.tests, ref.tests);
      EXPECT_EQ(got.leaves, ref.leaves);
    } else {
      EXPECT_EQ(sorted(got.leaves), sorted(ref.leaves));  // the leaf algorithm: same pairs found
    }
    *tested += ref.tests.size();
  }
}

// Pairs of the rule's order at BVTT depth d below the roots (post-order indices).
std::vector<std::pair<std::int32_t, std::int32_t>> front_at(const TreePair& tp, DescentRule rule, int depth) {
  std::vector<std::pair<std::int32_t, std::int32_t>> level{{tp.first.root(), tp.second.root()}};
  for (int d = 0; d < depth; ++d) {
    std::vector<std::pair<std::int32_t, std::int32_t>> next;
    for (auto [a, b] : level) {
      if (tp.separated(a, b)) continue;
      const BsNode& na = tp.first.nodes[std::size_t(a)];
      const BsNode& nb = tp.second.nodes[std::size_t(b)];
      if (na.is_leaf() && nb.is_leaf()) continue;
      if (split_first(na, nb, rule)) {
        next.emplace_back(na.left(), b);
        next.emplace_back(a - 1, b);
      } else {
        next.emplace_back(a, nb.left());
        next.emplace_back(a, b - 1);
      }
    }
    level = std::move(next);
  }
  return level;
}

// Run from every front pair in order, the units' sequences concatenate to the reference's pairs
// below that front (the binary stack, which is the reference's order for any start, is the
// yardstick: tested against kdopcd::traverse in traversal_test.cpp).
void expect_units_equal_binary_stack(const DopTree& first, const DopTree& second, const Pose& pose) {
  TreePair tp{make_post_order_tree(first), make_post_order_tree(second), make_sat_setup(first.orientations(), pose),
              first.k()};
  auto sep = [&](std::int32_t f, std::int32_t g) { return tp.separated(f, g); };
  for (int depth : {1, 3, 8}) {
    const auto units = front_at(tp, DescentRule::Shallower, depth);
    for (TraversalKind t : {TraversalKind::PredictableStack, TraversalKind::Stackless, TraversalKind::PostIndexed,
                            TraversalKind::Leaf}) {
      SCOPED_TRACE(std::string(to_string(t)) + ", front depth " + std::to_string(depth));
      std::vector<Visit> want_tests, want_leaves, got_tests, got_leaves;
      for (auto [a, b] : units) {
        const Sequences w = run_traversal(TraversalKind::BinaryStack, tp.first.nodes, a, tp.second.nodes, b,
                                          DescentRule::Shallower, nullptr, nullptr, tp.k, sep);
        const Sequences g =
            run_traversal(t, tp.first.nodes, a, tp.second.nodes, b, DescentRule::Shallower, nullptr, nullptr, tp.k, sep);
        ASSERT_EQ(g.status, TraversalStatus::Ok);
        want_tests.insert(want_tests.end(), w.tests.begin(), w.tests.end());
        want_leaves.insert(want_leaves.end(), w.leaves.begin(), w.leaves.end());
        got_tests.insert(got_tests.end(), g.tests.begin(), g.tests.end());
        got_leaves.insert(got_leaves.end(), g.leaves.begin(), g.leaves.end());
      }
      if (visits_reference_pairs(t)) {
        EXPECT_EQ(got_tests, want_tests);
        EXPECT_EQ(got_leaves, want_leaves);
      } else {
        EXPECT_EQ(sorted(got_leaves), sorted(want_leaves));
      }
      EXPECT_FALSE(want_leaves.empty());
    }
  }
}

TEST(TraversalMatrix, EveryOrderOnTreesOfDifferentDepthsAndFromEveryFrontPair) {
  const Mesh torus = make_torus(2, 0.7, 16, 9);
  const Mesh sphere = make_sphere(1.3, 2);
  std::size_t tested = 0;
  for (int k : {6, 24}) {
    const DopTree t(torus, k), s(sphere, k);
    for (int i = 0; i < 3; ++i) {
      Pose pose;
      pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.4 + i, Vec3(1, 2, 3 - i).normalized()));
      pose.translation = Vec3(0.9 * i, 0.5, 0.2 * i);
      expect_reference_order(t, s, pose, &tested);  // different trees and depths
      expect_reference_order(s, t, pose, &tested);
      expect_units_equal_binary_stack(t, s, pose);
    }
  }
  EXPECT_GT(tested, 10000u);  // overlapping poses: deep traversals
}

TEST(TraversalMatrix, EveryOrderOnCowsInEveryPoseClass) {
  REQUIRE_COW();
  const Mesh mesh = load_mesh(test::mesh_path("cow.off"));  // a DopTree refers to its mesh
  const DopTree cow(mesh, 24);
  const auto classes = make_pose_classes(
      cow, cow, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())), Vec3(1, 0.5, 0.25));
  std::size_t tested = 0;
  for (const ClassifiedPose& cp : classes) {
    SCOPED_TRACE(to_string(cp.kind));
    expect_reference_order(cow, cow, cp.pose, &tested);
  }
  expect_units_equal_binary_stack(cow, cow, classes[0].pose);
  EXPECT_GT(tested, 10000u);
}

// ---- The pipeline on real meshes in the four pose classes -----------------------------------

struct MatrixCounts {
  std::uint64_t contacts = 0, leaf_pairs = 0, pair_tests = 0;
};

// One call per traversal holding the four pose classes of the pair; each task against
// reference_query with the traversal's rule. Returns totals over tasks.
MatrixCounts expect_pipeline_matrix(const DopTree& first, const DopTree& second, const std::string& name,
                                    const std::vector<SatBackend>& sats, const std::vector<std::uint64_t>& splits) {
  const NarrowRunner runner({&first, &second});
  const auto classes = make_pose_classes(
      first, second, Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized())), Vec3(1, 0.5, 0.25));
  std::vector<TaskSpec> tasks;
  for (const ClassifiedPose& cp : classes) tasks.push_back(TaskSpec{0, 1, cp.pose});
  MatrixCounts totals;
  for (SatBackend sat : sats)
    for (std::uint64_t split : splits) {
      std::vector<std::vector<TaskCounters>> by_traversal;
      for (TraversalKind t : all_traversals()) {
        NarrowOptions o;
        o.sat = sat;
        o.split = split;
        o.threads = 2;
        o.traversal = t;
        const NarrowRun run = runner.run(tasks, o);
        by_traversal.push_back(run.counters);
        for (std::size_t i = 0; i < classes.size(); ++i) {
          SCOPED_TRACE(name + " " + to_string(classes[i].kind) + " " + to_string(t) + " " + to_string(sat) +
                       " split " + std::to_string(split));
          const QueryResult ref = reference_query(first, second, classes[i].pose, o);
          const TaskCounters& c = run.counters[i];
          EXPECT_EQ(run.contacts[i], ref.contacts);
          EXPECT_EQ(c.leaf_pairs, ref.stats.leaf_pairs);
          if (visits_reference_pairs(t)) {
            EXPECT_EQ(c.pair_tests, ref.stats.pair_tests);
            EXPECT_EQ(c.axis_tests, ref.stats.axis_tests);
          }
          // The counters say what the order is: pending memory only with a stack (and within the
          // fixed ones' reservation), restarts only for escape-index walks.
          const bool stackless = reserved_pending_bytes(t) == 0;
          if (stackless) {
            EXPECT_EQ(c.peak_pending_bytes, 0u);
          } else {
            EXPECT_EQ(c.restarts, 0u);
            if (split == 0 && c.leaf_pairs > 0) {
              EXPECT_GT(c.peak_pending_bytes, 0u);  // it descended from the roots
            }
          }
          if (t != TraversalKind::DynamicStack) {
            EXPECT_LE(c.peak_pending_bytes, reserved_pending_bytes(t, 2));
          }
          if (t == TraversalKind::Leaf && split == 0) {
            EXPECT_EQ(c.restarts, first.mesh().triangle_count());  // one walk per leaf of the first object
          }
          if (t == TraversalKind::BinaryStack) {
            EXPECT_EQ(c.node_visits, 2 * c.pair_tests);  // both nodes of every tested pair, nothing else
          }
          if (classes[i].kind == PoseClass::Intersecting) {
            EXPECT_GT(ref.contacts.size(), 0u);
          }
          if (classes[i].kind == PoseClass::Separated) {
            EXPECT_TRUE(ref.contacts.empty());
          }
          totals.contacts += ref.contacts.size();
          totals.leaf_pairs += ref.stats.leaf_pairs;
          totals.pair_tests += c.pair_tests;
        }
      }
      // The two stackless forms differ only in how LevelUp climbs: same pairs and walks, and the
      // stepwise climb loads at least as many nodes.
      const auto& stepwise = by_traversal[std::size_t(TraversalKind::Stackless)];
      const auto& post = by_traversal[std::size_t(TraversalKind::PostIndexed)];
      for (std::size_t i = 0; i < classes.size(); ++i) {
        EXPECT_EQ(stepwise[i].pair_tests, post[i].pair_tests);
        EXPECT_EQ(stepwise[i].restarts, post[i].restarts);
        EXPECT_GE(stepwise[i].node_visits, post[i].node_visits);
      }
    }
  return totals;
}

TEST(TraversalMatrix, CowAgainstCowEveryTraversalPoseClassSatAndSplit) {
  REQUIRE_COW();
  const Mesh mesh = load_mesh(test::mesh_path("cow.off"));  // a DopTree refers to its mesh
  const DopTree cow(mesh, 24);
  const MatrixCounts c = expect_pipeline_matrix(cow, cow, "cow/cow", {SatBackend::Float, SatBackend::Fixed}, {0, 16, 4096});
  EXPECT_GT(c.leaf_pairs, c.contacts);  // close proximity: overlapping leaves without contact
}

TEST(TraversalMatrix, LargePairsArmadilloAndBunnyEveryTraversalAndPoseClass) {
  const std::string armadillo = test::mesh_path("armadillo.off");
  ASSERT_TRUE(std::filesystem::exists(armadillo)) << armadillo << " is missing: run scripts/fetch-meshes.sh";
  const Mesh mesh = load_mesh(armadillo);
  const DopTree tree(mesh, 24);
  const MatrixCounts c = expect_pipeline_matrix(tree, tree, "armadillo/armadillo", {SatBackend::Float}, {512});
  EXPECT_GT(c.contacts, 0u);
  const std::string bunny = test::mesh_path("bunny00.off");
  ASSERT_TRUE(std::filesystem::exists(bunny)) << bunny << " is missing: run scripts/fetch-meshes.sh";
  const Mesh bunny_mesh = load_mesh(bunny);
  const DopTree bunny_tree(bunny_mesh, 24);
  EXPECT_GT(expect_pipeline_matrix(bunny_tree, bunny_tree, "bunny00/bunny00", {SatBackend::Float}, {512}).contacts, 0u);
}

TEST(TraversalMatrix, SmallUnequalPairElephantAgainstHand) {
  const std::string elephant = test::mesh_path("elephant.off"), hand = test::mesh_path("hand.off");
  ASSERT_TRUE(std::filesystem::exists(elephant) && std::filesystem::exists(hand))
      << "elephant.off / hand.off missing: run scripts/fetch-meshes.sh";
  const Mesh ma = load_mesh(elephant), mb = load_mesh(hand);
  const DopTree a(ma, 18), b(mb, 18);
  expect_pipeline_matrix(a, b, "elephant/hand", {SatBackend::Float, SatBackend::Fixed}, {0, 64});
  expect_pipeline_matrix(b, a, "hand/elephant", {SatBackend::Float}, {0, 64});
}

// ---- A multibody scene ----------------------------------------------------------------------

TEST(TraversalMatrix, MultibodyCowsEveryTraversalEqualsTheReferencePerObjectPair) {
  REQUIRE_COW();
  const MultibodyWorld world = test::cow_world(48, 4, 5);
  std::uint64_t contacts = 0;
  for (TraversalKind t : all_traversals())
    for (std::uint64_t split : {0ull, 256ull}) {
      MultibodyOptions o;
      o.traversal = t;
      o.split = split;
      o.threads = 2;
      const MultibodyResult r = world.run(o);
      ASSERT_FALSE(r.pairs.empty());
      std::uint64_t tests = 0;
      for (const PairResult& p : r.pairs) {
        SCOPED_TRACE(std::string(to_string(t)) + " split " + std::to_string(split) + " pair " +
                     std::to_string(p.first_object) + "," + std::to_string(p.second_object));
        const QueryResult ref = reference_pair_query(world, p.first_object, p.second_object, o);
        EXPECT_EQ(p.contacts, ref.contacts);
        EXPECT_EQ(p.stats.leaf_pairs, ref.stats.leaf_pairs);
        if (visits_reference_pairs(t)) {
          EXPECT_EQ(p.stats.pair_tests, ref.stats.pair_tests);
        }
        tests += ref.stats.pair_tests;
      }
      if (t == TraversalKind::BinaryStack) contacts = r.contacts;
      EXPECT_EQ(r.contacts, contacts);
      EXPECT_GT(tests, 1000u);
      // One thread gives the same counters (units depend on the split only).
      o.threads = 1;
      const MultibodyResult one = world.run(o);
      EXPECT_EQ(one.node_visits, r.node_visits);
      EXPECT_EQ(one.restarts, r.restarts);
      EXPECT_EQ(one.peak_pending_bytes, r.peak_pending_bytes);
      test::expect_same_result(one, r);
    }
  EXPECT_GT(contacts, 0u);
}

// ---- Unbalanced deep trees ------------------------------------------------------------------

// A balanced tree of 2^depth leaves in pre-order.
std::vector<DopNode> balanced(int depth) {
  std::vector<DopNode> pre;
  int triangle = 0;
  auto build = [&](auto&& self, int d) -> int {
    const int index = int(pre.size());
    pre.push_back({-1, -1, -1, d});
    if (d == depth) {
      pre[std::size_t(index)].triangle = triangle++;
      return index;
    }
    const int l = self(self, d + 1);
    const int r = self(self, d + 1);
    pre[std::size_t(index)].left = l;
    pre[std::size_t(index)].right = r;
    return index;
  };
  build(build, 0);
  return pre;
}

void recursive_visits(const std::vector<DopNode>& f, const std::vector<DopNode>& s, int a, int b,
                      std::vector<Visit>& tests, std::vector<Visit>& leaves, const std::vector<bool>& f_cut) {
  tests.emplace_back(a, b);
  if (f_cut[std::size_t(a)]) return;  // separated
  const DopNode& na = f[std::size_t(a)];
  const DopNode& nb = s[std::size_t(b)];
  if (na.is_leaf() && nb.is_leaf()) {
    leaves.emplace_back(na.triangle, nb.triangle);
    return;
  }
  const bool first = !na.is_leaf() && (nb.is_leaf() || na.depth <= nb.depth);  // Shallower
  if (first) {
    recursive_visits(f, s, na.left, b, tests, leaves, f_cut);
    recursive_visits(f, s, na.right, b, tests, leaves, f_cut);
  } else {
    recursive_visits(f, s, a, nb.left, tests, leaves, f_cut);
    recursive_visits(f, s, a, nb.right, tests, leaves, f_cut);
  }
}

// Every traversal on synthetic trees where a pair is separated iff the first node is "cut": Ok and the reference's
// sequence (leaf pairs for the leaf algorithm), or StackOverflow after a prefix of it.
// Returns which traversals overflowed.
std::vector<TraversalKind> expect_synthetic(const std::vector<DopNode>& f, const std::vector<DopNode>& s) {
  // Only leaves are cut (every third one): separation stays inherited (a DOP inside a separated
  // one is separated, which the leaf algorithm relies on) and the descents stay deep.
  std::vector<bool> cut(f.size(), false);
  int leaf_index = 0;
  for (std::size_t i = 0; i < f.size(); ++i)
    if (f[i].is_leaf()) cut[i] = leaf_index++ % 3 == 1;
  std::vector<Visit> ref_tests, ref_leaves;
  recursive_visits(f, s, 0, 0, ref_tests, ref_leaves, cut);
  const auto pf = post_order_layout(f), ps = post_order_layout(s);
  auto sep = [&](std::int32_t a, std::int32_t) { return bool(cut[std::size_t(pf[std::size_t(a)].ref)]); };
  std::vector<TraversalKind> overflowed;
  for (TraversalKind t : all_traversals()) {
    SCOPED_TRACE(to_string(t));
    const Sequences got = run_traversal(t, pf, std::int32_t(pf.size()) - 1, ps, std::int32_t(ps.size()) - 1,
                                        DescentRule::Shallower, nullptr, nullptr, 0, sep);
    std::vector<Visit> leaves;  // as (triangle, triangle)
    for (auto [x, y] : got.leaves) leaves.emplace_back(x, y);
    if (got.status == TraversalStatus::StackOverflow) {
      overflowed.push_back(t);
      EXPECT_LT(got.tests.size(), ref_tests.size());
      EXPECT_TRUE(std::equal(got.tests.begin(), got.tests.end(), ref_tests.begin()));
      continue;
    }
    EXPECT_EQ(got.status, TraversalStatus::Ok);
    if (visits_reference_pairs(t)) {
      EXPECT_EQ(got.tests, ref_tests);
      EXPECT_EQ(leaves, ref_leaves);
    } else {
      EXPECT_EQ(sorted(leaves), sorted(ref_leaves));
    }
  }
  EXPECT_FALSE(ref_leaves.empty());
  return overflowed;
}

bool has(const std::vector<TraversalKind>& v, TraversalKind t) { return std::find(v.begin(), v.end(), t) != v.end(); }

TEST(TraversalMatrix, CaterpillarsDeeperThanTheFixedStacksReportOverflowNeverAWrongAnswer) {
  // (Binary stack: two words here, 127 labels, as the host executor picks for such trees.)
  for (bool left_deep : {false, true}) {
    SCOPED_TRACE(left_deep ? "left-deep" : "right-deep");
    // 80 + 80 levels: more pending right pairs than the fixed stacks' 64 when the spine is on the left.
    const auto c81 = caterpillar(81, left_deep);
    const auto over = expect_synthetic(c81, c81);
    EXPECT_EQ(has(over, TraversalKind::ExplicitStack), left_deep);
    EXPECT_EQ(has(over, TraversalKind::PredictableStack), left_deep);
    EXPECT_TRUE(has(over, TraversalKind::BinaryStack));  // 160 labels > 127
    // No bound: the stackless orders and the growing stack.
    for (TraversalKind t : {TraversalKind::Leaf, TraversalKind::Stackless, TraversalKind::PostIndexed,
                            TraversalKind::DynamicStack})
      EXPECT_FALSE(has(over, t)) << to_string(t);
    // Unequal depths and shapes: a deep caterpillar against a balanced tree, both ways (the
    // alternation ends in leaf phases on either side).
    const auto bal = balanced(4);
    EXPECT_TRUE(expect_synthetic(c81, bal).size() <= 3);
    EXPECT_TRUE(expect_synthetic(bal, c81).size() <= 3);
    const auto c7 = caterpillar(7, !left_deep);
    EXPECT_TRUE(expect_synthetic(c7, bal).empty());
    EXPECT_TRUE(expect_synthetic(bal, c7).empty());
  }
}

TEST(TraversalMatrix, TheDynamicStackGrowsOnTheHeapAndReportsItsPeak) {
  const auto c81 = caterpillar(81, true);
  const auto pf = post_order_layout(c81);
  const Sequences got = run_traversal(TraversalKind::DynamicStack, pf, std::int32_t(pf.size()) - 1, pf,
                                      std::int32_t(pf.size()) - 1, DescentRule::Shallower, nullptr, nullptr, 0,
                                      [](std::int32_t, std::int32_t) { return false; });
  EXPECT_EQ(got.status, TraversalStatus::Ok);
  // 160 descents pile up one right pair each: far more than the 32 local pairs.
  EXPECT_GT(got.tally.peak_pending_bytes, kDynamicLocalPairs * sizeof(std::uint64_t));
  EXPECT_EQ(got.tally.restarts, 0u);
}

// ---- Bad input ------------------------------------------------------------------------------

TEST(TraversalMatrix, NamesRoundTripAndBadChoicesAreInputErrors) {
  for (TraversalKind t : all_traversals()) EXPECT_EQ(parse_traversal(to_string(t)), t);
  EXPECT_EQ(all_traversals().size(), std::size_t(kTraversalKinds));
  try {
    parse_traversal("stackles");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("post-indexed"), std::string::npos) << e.what();  // lists the names
  }
  NarrowOptions o;
  o.traversal = TraversalKind::PostIndexed;
  o.rule = DescentRule::First;
  EXPECT_THROW(validate(o), InputError);
  o.traversal = TraversalKind::DynamicStack;
  o.rule = DescentRule::Second;
  EXPECT_THROW(validate(o), InputError);
  o.rule = DescentRule::Shallower;
  EXPECT_NO_THROW(validate(o));
  EXPECT_EQ(descent_rule(o), DescentRule::Larger);
  o.traversal = TraversalKind::BinaryStack;
  o.rule = DescentRule::Larger;
  EXPECT_THROW(validate(o), InputError);
  o.traversal = TraversalKind(kTraversalKinds);
  o.rule = DescentRule::Shallower;
  EXPECT_THROW(validate(o), InputError);
}

// The GPU's default split: a power of two of at least kDeviceSplitPerTask front pairs per task,
// never below kMinDeviceSplit or above kMaxSplit, never smaller for more tasks.
TEST(TraversalMatrix, TheGpuDefaultSplitGrowsWithTheTasks) {
  std::uint64_t previous = 0;
  for (std::uint64_t tasks :
       {std::uint64_t(0), std::uint64_t(1), std::uint64_t(1000), kMinDeviceSplit / kDeviceSplitPerTask,
        kMinDeviceSplit / kDeviceSplitPerTask + 1, std::uint64_t(20431), std::uint64_t(173026), kMaxSplit,
        std::uint64_t(1) << 40, ~std::uint64_t(0)}) {
    SCOPED_TRACE(tasks);
    const std::uint64_t split = default_device_split(tasks);
    EXPECT_TRUE(std::has_single_bit(split));
    EXPECT_GE(split, kMinDeviceSplit);
    EXPECT_LE(split, kMaxSplit);
    EXPECT_GE(split, previous);
    if (split < kMaxSplit) {
      EXPECT_GE(split, tasks * kDeviceSplitPerTask);
      if (split > kMinDeviceSplit) {
        EXPECT_LT(split / 2, tasks * kDeviceSplitPerTask);  // the smallest such power
      }
    }
    previous = split;
  }
  EXPECT_EQ(default_device_split(1), kMinDeviceSplit);
  EXPECT_EQ(default_device_split(~std::uint64_t(0)), kMaxSplit);
}

}  // namespace
}  // namespace kdopcd::cuda
