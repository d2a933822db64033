#include "kdopcd/collide.hpp"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <array>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>

#include "kdopcd/error.hpp"
#include "kdopcd/root_bound.hpp"
#include "leaf_plane.hpp"
#include "node_terms_cache.hpp"
#include "wide_tree.hpp"
#include "placed_vertex_cache.hpp"
#include "parallel_traverse.hpp"
#include "kdopcd/sat_exact.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/sat_fixed_lanes.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/sat_float_axes.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd/triangle_boxes.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd/triangle_batch.hpp"

namespace kdopcd {

SatBackend parse_sat_backend(const std::string& name) {
  if (name == "float") return SatBackend::Float;
  if (name == "exact") return SatBackend::Exact;
  if (name == "fixed") return SatBackend::Fixed;
  throw InputError(fmt::format("unknown SAT backend '{}' (expected float, fixed or exact)", name));
}

const char* to_string(SatBackend backend) {
  switch (backend) {
    case SatBackend::Float: return "float";
    case SatBackend::Exact: return "exact";
    case SatBackend::Fixed: return "fixed";
  }
  return "?";
}

namespace {

// Tests axes in setup order, stopping at the first separating one.
template <class AxisSeparates>
PairVerdict test_axes(const SatSetup& setup, int n, AxisSeparates&& separates) {
  for (int i = 0; i < n; ++i)
    if (separates(setup.axes[i])) return {true, i + 1};
  return {false, n};
}

// The axes of a query, each made on first use: a pair of roots separated by axis 0 costs one
// axis set-up instead of k. Fixed-size storage: a query allocates nothing before it needs to.
inline constexpr int kMaxK = kSupportedK.back();

class LazyAxes {
 public:
  LazyAxes(const OrientationSet& set, const Mat3& M, const Vec3& T)
      : set_(&set), M_(M), T_(T), half_(set.half()), k_(set.k()) {}
  explicit LazyAxes(const SatSetup& setup) : half_(setup.k / 2), k_(int(setup.axes.size())), general_(&setup.axes) {
    for (int i = 0; i < k_; ++i) structured_ &= make_float_axis(setup.axes[std::size_t(i)], i, half_, axes_[i]);
    ready_ = ~0u;
  }
  // False for a set-up whose axes are not own-direction axes in make_sat_setup's order.
  bool structured() const { return structured_; }
  const std::vector<AxisSetup>& general() const { return *general_; }
  const FloatAxis& operator[](int i) {
    if (!(ready_ >> i & 1u)) {
      projected_.make(*set_, M_, i);
      make_float_axis(*set_, projected_, T_, i, axes_[i]);
      ready_ |= 1u << i;
    }
    return axes_[i];
  }
  // The trees and the axis count n of the query's SIMD tests (before the first).
  void bind(const DopTree& first, const DopTree& second, int n) {
    context_.first = first.all_coefficients().data();
    context_.second = second.all_coefficients().data();
    context_.k = std::size_t(first.k());
    n_ = n;
  }
  // The SIMD test on the first n axes of the pair of nodes (nf, ns), through the nodes' halves
  // kept in this thread's cache (float_pair_test_nodes); the table is made on the first call.
  PairVerdict test_nodes(std::int32_t nf, std::int32_t ns) {
    if (!table_made_) make_table(n_);
    return nodes_test_(context_, nf, ns);
  }
  // The SIMD table of the first n axes (after make_table).
  const FloatAxisTable& table() const { return table_; }
  void make_table(int n) {
    if (table_made_) return;
    if (set_ != nullptr) {  // from a pose: the axes not made yet in one batch, straight into the table
      projected_.make_all(*set_, M_, n);
      make_float_axis_table(*set_, projected_, T_, n, table_);
    } else {
      for (int i = 0; i < n; ++i) (*this)[i];
      make_float_axis_table({axes_.data(), std::size_t(n)}, n, table_);
    }
    nodes_test_ = float_pair_test_nodes();
    context_.table = &table_;
    context_.query = detail::NodeTermsCache<FloatNodeTerms>::new_query();
    table_made_ = true;
  }

 private:
  const OrientationSet* set_ = nullptr;
  Mat3 M_;
  Vec3 T_;
  int half_;
  int k_;
  bool structured_ = true;
  const std::vector<AxisSetup>* general_ = nullptr;
  ProjectedTripleLanes projected_;  // the pose's axes (from a pose only), made as they are needed
  std::array<FloatAxis, kMaxK> axes_;
  std::uint32_t ready_ = 0;  // bit i: axes_[i] is made
  bool table_made_ = false;
  FloatAxisTable table_;  // left unfilled until make_table: a separated query never needs it
  FloatPairTestNodes nodes_test_ = nullptr;
  FloatPairTestContext context_;  // filled by bind and make_table
  int n_ = 0;
};

// The second object's placed vertices, each computed on first use (place_vertex rounds them
// exactly as place_vertices does), so a query pays only for the triangles it tests. They live in
// the calling thread's PlacedVertexCache, stamped with this query's number (each copy made for a
// thread of a parallel traversal, unused, takes a number of its own at its first call).
class LazyPlacement {
 public:
  LazyPlacement(const Mesh& mesh, const Mat3& R, const Vec3& t) : mesh_(&mesh), R_(R), t_(t) {}
  explicit LazyPlacement(const std::vector<Vec3>& placed) : given_(&placed) {}
  // Whether the vertices are placed from a pose (rotation(), translation()), not given.
  bool from_pose() const { return given_ == nullptr; }
  const Mat3& rotation() const { return R_; }
  const Vec3& translation() const { return t_; }

  const Vec3& operator[](std::uint32_t v) {
    if (given_) return (*given_)[v];
    // First triangle test of the query (a separated pose never gets here): a number of its own.
    if (query_ == 0) query_ = detail::PlacedVertexCache<Vec3>::new_query();
    // Fetched on every call: another query taking turns on this thread may have grown (moved) it.
    detail::PlacedVertexCache<Vec3>::Slot& slot = detail::PlacedVertexCache<Vec3>::local(mesh_->vertices.size())[v];
    if (slot.query != query_) {
      slot.point = place_vertex(R_, t_, mesh_->vertices[v]);
      slot.query = query_;
    }
    return slot.point;
  }

 private:
  const Mesh* mesh_ = nullptr;
  const std::vector<Vec3>* given_ = nullptr;
  Mat3 R_;
  Vec3 t_;
  std::uint64_t query_ = 0;  // 0 until the first call
};

// The triangle test of a query: the custom one if given, else the exact test on the placed
// doubles. `Placed` is a LazyPlacement or the vector of all placed vertices.
template <class Placed>
bool test_triangle_pair(const Mesh& mf, const Mesh& ms, Placed& placed, const TriangleTest& custom, int tf, int ts) {
  if (custom) return custom(std::uint32_t(tf), std::uint32_t(ts));
  const auto& s = ms.triangles[std::size_t(ts)];
  return triangles_intersect(mf.corner(tf, 0), mf.corner(tf, 1), mf.corner(tf, 2), placed[s[0]], placed[s[1]],
                             placed[s[2]]);
}

int axes_per_pair(const TraversalOptions& options, int k) { return options.axes <= 0 ? k : std::min(options.axes, k); }

// Whether the SAT test of the roots' first axis (make_sat_setup's axis 0: the first object's own
// direction 0, onto which the second root is projected) separates them at the pose (M, T) for
// sure, without its set-up (root_bound.hpp): the second root's projection lies within the
// pseudo-vertices' range, and the first root's own interval is clear of that range by more than
// `extra` world units plus a margin for the float test's roundings (docs/architecture.md, "A
// quick exit for separated roots"). False says nothing: the caller tests the axis as usual.
bool roots_clear_on_first_axis(const DopTree& first, const DopTree& second, const Mat3& M, const Vec3& T,
                               double extra) {
  const OrientationSet& set = first.orientations();
  const Vec3& L = set.direction(0);
  const RootPseudoVertices& projected = second.root_pseudo_vertices();
  const ProjectionRange range = project_pseudo_vertices(projected, M.transpose() * L);
  const double p = L.dot(T);
  const std::span<const double> own = first.coefficients(0);
  const double own_max = own[0], own_min = own[std::size_t(set.half())];  // its interval: [-own_min, own_max]
  // 1e-8 of the magnitudes covers, far over: the set-up's snapping of P (1e-9 per entry), the
  // float test's and these dot products' roundings, and the pseudo-vertices' own (the
  // magnitudes also bound every root coefficient, each lying on a pseudo-vertex's plane).
  const double margin =
      1e-8 * (projected.magnitude + first.root_pseudo_vertices().magnitude + std::fabs(p)) + extra;
  return (range.low + p) - own_max > margin || -own_min - (range.high + p) > margin;
}

// The `extra` of roots_clear_on_first_axis for the fixed test at parameters f and scale s: the
// fixed test's largest shortfall against the exact one on that axis, and the roundings that part
// the centred frames' operands from the file frames' (outward rounding, the centred margins, T_c),
// which 1e-8 of the centres' and the translation's magnitudes covers. The shortfall is the bound
// of docs/fixed-point.md §6 term by term, with the roots' own magnitudes (units of s): the
// projected (second) root loses at most r_max 2^-b to its coefficients' rounding and 2^-c times
// its three |a'| (each at most its largest |coefficient| / s + 2^-b) to the mapping's; the
// owning (first) root's P = (-1, 0, 0) is exact, so it loses 2^-b and 2^-c times the negative
// parts of its three coefficients; p loses 2^-z, or 2^-(b+c) if z > b + c (offset_error_bound;
// both are added here, which is a little more than needed). The paper's bound, r 2^(1-b) + 6 2^-c + 2^-z, takes every coefficient at 1; a small
// object in a large scene has far smaller ones.
double fixed_first_axis_margin(const FixedParams& f, double s, const DopTree& first, const DopTree& second,
                               const Vec3& T) {
  auto pow2 = [](int e) { return std::bit_cast<double>(std::uint64_t(1023 + e) << 52); };  // |e| < 1000
  const double eb = pow2(-f.b), ec = pow2(-f.c);
  const double r = first.orientations().r_max() + 1e-6;  // + the set-up's snapping of P
  const double projected = second.centred_largest_coefficient() / s + eb;
  const double owner_negative = std::max(0.0, -first.centred_smallest_coefficient() / s);
  const double bound = (r + 1) * eb + 3 * ec * (projected + owner_negative) + pow2(-f.z) + pow2(-(f.b + f.c));
  return bound * s * (1 + 1e-6) +
         1e-8 * (first.centre().cwiseAbs().sum() + second.centre().cwiseAbs().sum() + T.cwiseAbs().sum());
}

// How many of the root pair's axes a query (float or fixed) tests one at a time before it makes
// all of them and takes the SIMD test: a separated pose mostly stops at the first two (one of
// each object), an overlapping root pair reaches every axis. Eight, not four: a small object
// near a large one (ChineseDragon-10kv/turbine in proximity) is separated at the seventh, and
// making the whole table for that took most of its query (0.5 of 0.52 us); an overlapping root
// pays four more single axes, well under 1 % of its query.
constexpr int kRootAxesOneByOne = 8;

// Threads of the query: 1 for the sequential traversal, else what traverse_parallel gets.
bool parallel(const TraversalOptions& options) {
  if (options.threads == 1) return false;
  if (options.threads < 0) throw std::invalid_argument("collide: threads must be >= 0");
  if (options.stack_capacity != 0)
    throw std::invalid_argument("collide: a bounded pair stack (stack_capacity) needs threads = 1");
  return true;
}

// A value made on first use, like std::optional, whose empty state writes only its flag: g++ 12
// zero-filled the whole std::optional (a placed-vertex cache of about 200 bytes) on every query,
// a noticeable part of a separated one.
template <class T>
class LateValue {
 public:
  LateValue() {}
  LateValue(const LateValue&) = delete;
  LateValue& operator=(const LateValue&) = delete;
  ~LateValue() {
    if (made_) std::launder(reinterpret_cast<T*>(storage_))->~T();
  }
  explicit operator bool() const { return made_; }
  template <class... U>
  void emplace(U&&... args) {
    ::new (static_cast<void*>(storage_)) T(std::forward<U>(args)...);
    made_ = true;
  }
  // Makes the value from make()'s result in place (no move: the value may be immovable).
  template <class Make>
  void emplace_from(Make&& make) {
    ::new (static_cast<void*>(storage_)) T(make());
    made_ = true;
  }
  T& operator*() { return *std::launder(reinterpret_cast<T*>(storage_)); }

 private:
  alignas(T) unsigned char storage_[sizeof(T)];
  bool made_ = false;
};

// The traversal of a query, sequential or on options.threads threads. `make_triangle_test` gives
// the triangle test for one thread (called once per thread that needs one): the lazily filled
// per-query caches behind it (placed vertices) are per thread, so no test waits for a lock.
// `before_tasks` (a callable, or nullptr) runs once before a parallel traversal starts tasks; it is
// no std::function, whose making and unmaking was a noticeable part of a separated query.
// `leaf_inner_test` is traverse()'s optional extra axis (or nullptr).
template <class PairTest, class MakeTriangleTest, class BeforeTasks = std::nullptr_t,
          class LeafInnerTest = std::nullptr_t>
QueryResult run_traversal(const DopTree& first, const DopTree& second, const TraversalOptions& options,
                          PairTest&& pair_test, MakeTriangleTest&& make_triangle_test,
                          const BeforeTasks& before_tasks = nullptr, const LeafInnerTest& leaf_inner_test = nullptr) {
  using Test = decltype(make_triangle_test());
  if (!parallel(options)) {
    LateValue<Test> test;  // made at the first triangle test: a separated pose makes none
    auto triangle_test = [&](int tf, int ts) {
      if (!test) test.emplace(make_triangle_test());
      return (*test)(tf, ts);
    };
    return traverse(first, second, options, pair_test, triangle_test, leaf_inner_test);
  }
  auto start_tasks = [&] {
    if constexpr (!std::is_null_pointer_v<BeforeTasks>) before_tasks();
  };
  return detail::traverse_parallel(first, second, options, options.threads, pair_test, make_triangle_test, start_tasks,
                                   leaf_inner_test);
}

// The wide descent's triangle stage when the test is a custom one, or the placed vertices are
// given: each leaf pair tested when it is reached, as traverse() tests it.
template <class MakeTriangleTest>
class TrianglePairsOneByOne {
 public:
  explicit TrianglePairsOneByOne(MakeTriangleTest& make) : make_(&make) {}
  void add(std::int32_t tf, std::int32_t ts, std::vector<ContactPair>& contacts) {
    if (!test_) test_.emplace_from(*make_);
    if ((*test_)(tf, ts)) contacts.push_back({std::uint32_t(tf), std::uint32_t(ts)});
  }
  void finish(std::vector<ContactPair>&) {}

 private:
  MakeTriangleTest* make_;
  LateValue<decltype(std::declval<MakeTriangleTest&>()())> test_;  // made at the first triangle test
};

// The float query's wide descent (ref/src/wide_tree.hpp; docs/architecture.md, "The wide
// descent"): traverse()'s loop with the larger-node rule, except that an overlapping pair whose
// node of the first (second) object is split tests the other node against all of that node's wide
// children in one call of float_pair_test_wide, and pushes the overlapping ones. The root pair is
// tested by root_test (collide_float's pair test); leaf_inner_test as in traverse(). Leaf pairs go
// to `triangles` (a TriangleBatch or a TrianglePairsOneByOne), made when the first is
// reached by make_triangle_stage. Counters as traverse()'s: every child tested is a pair test, its
// axes counted as the scalar test counts them.
template <class RootTest, class MakeTriangleStage, class LeafInnerTest>
QueryResult wide_descent(const DopTree& first, const DopTree& second, LazyAxes& axes, int n, RootTest&& root_test,
                         MakeTriangleStage&& make_triangle_stage, const LeafInnerTest& leaf_inner_test) {
  QueryResult result;
  TraversalStats& stats = result.stats;
  stats.max_stack_depth = 1;  // the root pair, as traverse() counts it
  const PairVerdict root = root_test(0, 0);
  ++stats.pair_tests;
  stats.axis_tests += std::uint64_t(root.axes_tested);
  if (root.separated) return result;
  axes.make_table(n);
  const FloatAxisTable& table = axes.table();
  const FloatPairTestWide test = float_pair_test_wide();
  WideOtherTerms other_terms;
  const std::shared_ptr<const detail::WideTree> wide_first = detail::WideTree::of(first);
  const std::shared_ptr<const detail::WideTree> wide_second = detail::WideTree::of(second);
  LateValue<decltype(make_triangle_stage())> triangles;  // made at the first leaf pair
  struct NodePair {
    std::int32_t first, second;
  };
  std::vector<NodePair> stack;
  stack.reserve(64);
  // Tests node `other` against the wide children of binary node b of `tree` and pushes the
  // overlapping pairs, child 0 on top (tested first, as traverse() tests the left child first).
  auto split = [&](const detail::WideTree& tree, std::int32_t b, bool first_split, const DopTree& other_tree,
                   std::int32_t other) {
    const std::int32_t w = tree.wide_of(b);
    const detail::WideTree::Node& node = tree.node(w);
    stats.pair_tests += std::uint64_t(node.count);
    const std::uint32_t overlapping = test(table, tree.lanes(w), node.count, first_split,
                                           other_tree.coefficients(std::size_t(other)).data(), other_terms,
                                           stats.axis_tests);
    for (int l = node.count - 1; l >= 0; --l)
      if (overlapping >> l & 1u)
        stack.push_back(first_split ? NodePair{node.child[l], other} : NodePair{other, node.child[l]});
    stats.max_stack_depth = std::max<std::uint32_t>(stats.max_stack_depth, std::uint32_t(stack.size()));
  };
  NodePair pair{0, 0};  // overlapping
  for (;;) {
    const DopNode& f = first.node(std::size_t(pair.first));
    const DopNode& s = second.node(std::size_t(pair.second));
    if (f.is_leaf() && s.is_leaf()) {
      ++stats.leaf_pairs;
      ++stats.triangle_tests;
      if (!triangles) triangles.emplace_from(make_triangle_stage);
      (*triangles).add(f.triangle, s.triangle, result.contacts);
    } else {
      bool separated_by_leaf_plane = false;
      if constexpr (!std::is_null_pointer_v<LeafInnerTest>) {
        if (f.is_leaf() != s.is_leaf() && leaf_inner_test(pair.first, pair.second)) {
          ++stats.axis_tests;
          separated_by_leaf_plane = true;
        }
      }
      if (!separated_by_leaf_plane) {
        if (split_first_node(f.is_leaf(), s.is_leaf(), f.depth, s.depth, DescentRule::Larger,
                             first.size(std::size_t(pair.first)), second.size(std::size_t(pair.second))))
          split(*wide_first, pair.first, true, second, pair.second);
        else
          split(*wide_second, pair.second, false, first, pair.first);
      }
    }
    if (stack.empty()) break;
    pair = stack.back();
    stack.pop_back();
  }
  if (triangles) (*triangles).finish(result.contacts);
  std::sort(result.contacts.begin(), result.contacts.end());
  stats.contacts = result.contacts.size();
  return result;
}

// The query of a pose whose root pair roots_clear_on_first_axis settles: the traversal (the
// same options, checks and counters) of a root pair test that separates on its first axis.
QueryResult separated_on_first_axis(const DopTree& first, const DopTree& second, const TraversalOptions& options) {
  auto pair_test = [](int, int) { return PairVerdict{true, 1}; };
  auto no_triangle_test = [] { return [](int, int) { return false; }; };  // never reached
  return run_traversal(first, second, options, pair_test, no_triangle_test);
}

// The float query: the fast path of the reference.
// leaf_plane: the leaf-plane axis (TraversalOptions::leaf_planes), or null for none.
QueryResult collide_float(const DopTree& first, const DopTree& second, LazyAxes& axes, const LazyPlacement& placed,
                          const TraversalOptions& options, const TriangleTest& custom,
                          const detail::LeafPlaneTest* leaf_plane = nullptr) {
  const int half = first.k() / 2;
  // The wide descent's own default axis count where it runs (on own-direction axes).
  const int n = axes.structured() ? collide_axes_per_pair(options, first.k(), SatBackend::Float)
                                  : axes_per_pair(options, first.k());
  const Mesh& mf = first.mesh();
  const Mesh& ms = second.mesh();
  // Each thread places the vertices it needs in a copy of `placed` (which is still empty).
  auto make_triangle_test = [&] {
    return [&mf, &ms, &custom, mine = placed](int tf, int ts) mutable {
      return test_triangle_pair(mf, ms, mine, custom, tf, ts);
    };
  };
  const auto make_all_axes = [&] {  // before concurrent reads: after the root, pairs read only the table
    if (axes.structured()) axes.make_table(n);
  };
  if (!axes.structured()) {
    auto general_pair_test = [&](int nf, int ns) {
      const double* b = first.coefficients(std::size_t(nf)).data();
      const double* a = second.coefficients(std::size_t(ns)).data();
      for (int i = 0; i < n; ++i) {
        const AxisSetup& ax = axes.general()[std::size_t(i)];
        if (float_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated())
          return PairVerdict{true, i + 1};
      }
      return PairVerdict{false, n};
    };
    return run_traversal(first, second, options, general_pair_test, make_triangle_test, make_all_axes);
  }
  // The root pair's first kRootAxesOneByOne axes are tested one by one, making only the axes
  // they reach: a separated pose (the commonest query) usually stops at the first. If none
  // separated it, it takes the SIMD test of all n axes like every later pair (which makes the
  // rest): an overlapping root no longer tests its other axes alone, about 60 instructions each.
  // Both give the same verdict and axis count (sat_float_axes.hpp). root_tested is written by
  // the first call only, before the parallel traversal starts any task.
  bool root_tested = false;
  axes.bind(first, second, n);
  auto pair_test = [&](int nf, int ns) {
    if (root_tested) [[likely]]
      return axes.test_nodes(nf, ns);
    root_tested = true;
    const double* b = first.coefficients(std::size_t(nf)).data();
    const double* a = second.coefficients(std::size_t(ns)).data();
    const int one_by_one = std::min(n, kRootAxesOneByOne);
    for (int i = 0; i < one_by_one; ++i) {  // make_sat_setup's order: first's own axis, then second's
      const bool separates = i % 2 == 0 ? separates_first_own(axes[i], a, b) : separates_second_own(axes[i], a, b);
      if (separates) return PairVerdict{true, i + 1};
    }
    if (one_by_one == n) return PairVerdict{false, n};
    return axes.test_nodes(nf, ns);
  };
  if (takes_wide_descent(options)) {
    // The exact test from a pose takes the batches in lanes; a custom test, or given placed
    // vertices, one pair at a time.
    auto wide = [&](auto&& make_triangle_stage) {
      if (leaf_plane == nullptr) return wide_descent(first, second, axes, n, pair_test, make_triangle_stage, nullptr);
      detail::LeafPlaneTest::Memo leaf_planes(*leaf_plane);  // one thread: the last leaf's plane kept
      auto leaf_inner_test = [&leaf_planes](std::int32_t nf, std::int32_t ns) { return leaf_planes.separates(nf, ns); };
      return wide_descent(first, second, axes, n, pair_test, make_triangle_stage, leaf_inner_test);
    };
    if (!custom && placed.from_pose())
      return wide([&] { return TriangleBatch(mf, ms, placed.rotation(), placed.translation()); });
    return wide([&] { return TrianglePairsOneByOne(make_triangle_test); });
  }
  if (leaf_plane != nullptr) {
    auto leaf_inner_test = [leaf_plane](std::int32_t nf, std::int32_t ns) { return leaf_plane->separates(nf, ns); };
    return run_traversal(first, second, options, pair_test, make_triangle_test, make_all_axes, leaf_inner_test);
  }
  return run_traversal(first, second, options, pair_test, make_triangle_test, make_all_axes);
}

// The fixed-point axes of a query, each quantized on first use (like LazyAxes): NarrowFixedAxis
// for the 64-bit test, and the QuantizedAxis of fixed_axis_diffs made from it on request. Made
// from a pose, the axes' p = L . T_c need the exactly rounded centred translation, which is
// worked out only when an axis needs it: the root pair's axes are first decided from bounds of p
// (root_verdict), which settle a separated pose without it. A query touches only what it uses
// (the class is mostly uninitialized arrays): its footprint was noticeable next to the float
// query's.
class LazyFixedAxes {
 public:
  // pose, first_centre and second_centre are kept by reference (they outlive the query).
  LazyFixedAxes(const OrientationSet& set, const Pose& pose, const Mat3& M, const Vec3& first_centre,
                const Vec3& second_centre, double s, const FixedParams& fixed)
      : set_(&set), pose_(&pose), M_(M), c1_(&first_centre), c2_(&second_centre), s_(s), fixed_(fixed),
        half_(set.half()), k_(set.k()) {
    if (!fixed_params_valid(fixed)) validate_fixed_params(fixed);  // throws (an inline check: every query makes it)
  }
  LazyFixedAxes(const SatSetup& setup, double s, const FixedParams& fixed)
      : s_(s), fixed_(fixed), half_(setup.k / 2), k_(int(setup.axes.size())) {
    validate_fixed_params(fixed);
    for (int i = 0; i < k_; ++i) store(i, setup.axes[std::size_t(i)]);
  }
  // quantize_axis of the axis (the same integers: narrow_ holds them all but p').
  QuantizedAxis quantized(int i) {
    const NarrowFixedAxis& n = narrow(i);
    QuantizedAxis q;
    for (int m = 0; m < 3; ++m) {
      q.jA[m] = n.ja[m];
      q.jB[m] = n.jb[m];
      q.PA[m] = n.PA[m];
      q.PB[m] = n.PB[m];
    }
    q.p = p_[i];
    return q;
  }
  const NarrowFixedAxis& narrow(int i) {
    if (!(ready_ >> i & 1u)) make(i);
    return narrow_[i];
  }
  void make_all() {
    for (int i = 0; i < k_; ++i) narrow(i);
  }
  // The query's pose in the centred frames (made from a pose only): the pose's rotation and T_c.
  Pose centred_pose() { return Pose{pose_->rotation, centred_translation()}; }
  // Axis i of the root pair (a, b: the roots' quantized coefficients, oa, ob: their own terms,
  // on the own-structured path): 1 if fixed_axis_separates_own separates, 0 if not, decided from
  // bounds of the p terms where they suffice (fixed_offset_bounds), else -1 (the caller runs the
  // exact test). Axes already made, and every axis once T_c is worked out, are decided exactly.
  int root_verdict(int i, const std::int64_t* a, const std::int64_t* b, const std::int64_t* oa,
                   const std::int64_t* ob) {
    if (ready_ >> i & 1u) return fixed_axis_separates_own(narrow_[i], i, a, b, oa, ob);
    if (set_ == nullptr) return -1;
    if (centred_made_) return root_exact(i, a, b, oa, ob);  // then the exact test costs less than the bounds
    prepare(i);
    if (!estimate_made_) {
      estimate_ = estimate_fixed_offsets(M_, pose_->translation, *c1_, *c2_, s_);
      estimate_made_ = true;
    }
    std::int64_t s1, s2;
    fixed_own_axis_sums(narrow_[i], i, a, b, oa, ob, s1, s2);
    const int verdict = fixed_verdict_from_bounds(s1, s2, fixed_offset_bounds(estimate_, L_[i], fixed_));
    // An axis that does not separate the roots, or that the bounds leave undecided, makes it likely
    // that the pose is no wide separation: the query will need T_c (every axis of a pair the
    // roots' children reach needs it), and with it the later axes' exact tests cost less than
    // their bounds.
    if (verdict != 1) centred_translation();
    return verdict;
  }
  // fixed_axis_separates_own(narrow(i), i, a, b, oa, ob) of a root axis made from a pose with T_c
  // worked out, straight from the axis's lanes: only the projected object's P', its faces and the
  // p terms, without making narrow_[i] (nothing after the root reads it: later pairs read the
  // table, made from the lanes too). The same integers as prepare() and make().
  bool root_exact(int i, const std::int64_t* a, const std::int64_t* b, const std::int64_t* oa,
                  const std::int64_t* ob) {
    projected_.make(*set_, M_, i);
    const int e = i / 2, parity = i % 2;
    const double scale_c = double(std::int64_t(1) << fixed_.c);  // c <= kMaxFixedBits = 44
    std::int64_t P[3];
    int j[3], jk[3];
    for (int m = 0; m < 3; ++m) {
      P[m] = quantize_mapping_scaled(projected_.P[parity][m][e], scale_c);
      j[m] = int(projected_.j[parity][m][e]);
      jk[m] = opposite_face(j[m], half_);
    }
    std::int64_t p1, p2;
    const Vec3 L = projected_.L(*set_, i);
    narrow_fixed_p_terms(quantize_scaled_offset(axis_offset(L.data(), Tc_.data()), s_, fixed_.z), fixed_, p1, p2);
    if (parity == 0)  // the first object owns the axis; the second (a) is projected with its faces jA
      return narrow_mapped(P, a, j) + ob[i + 1] + p1 > 0 || ob[i] + narrow_mapped(P, a, jk) - p2 > 0;
    return oa[i - 1] + narrow_mapped(P, b, jk) + p1 > 0 || narrow_mapped(P, b, j) + oa[i] - p2 > 0;
  }
  // The SIMD test on the first n axes (own-structured axes only) of the pair of nodes (nf, ns),
  // through the nodes' halves, as LazyAxes::test_terms.
  // Inlined into the pair test (g++ 12 kept it out of line there, a call of nine arguments per pair).
  [[gnu::always_inline]] PairVerdict test_terms(int n, std::int32_t nf, std::int32_t ns, const std::int64_t* a,
                                                const std::int64_t* b, const std::int64_t* oa,
                                                const std::int64_t* ob) {
    if (!table_made_) make_table(n);
    auto& cache = detail::NodeTermsCache<FixedNodeTerms>::local();
    std::uint32_t *a_blocks, *b_blocks;
    FixedNodeTerms& ta = cache.find(1, query_, ns, a_blocks);
    FixedNodeTerms& tb = cache.find(0, query_, nf, b_blocks);
    return terms_test_(table_, a, b, oa, ob, ta, *a_blocks, tb, *b_blocks);
  }
  void make_table(int n) {
    if (table_made_) return;
    if (set_ != nullptr && own_path()) {  // from a pose: the axes in one batch, straight into the table
      projected_.make_all(*set_, M_, n);
      make_fixed_axis_table(*set_, projected_, centred_translation(), s_, fixed_, n, table_);
    } else {
      for (int i = 0; i < n; ++i) narrow(i);
      make_fixed_axis_table({narrow_.data(), std::size_t(n)}, n, fixed_.b, table_);
    }
    terms_test_ = fixed_pair_test_terms();
    query_ = detail::NodeTermsCache<FixedNodeTerms>::new_query();
    table_made_ = true;
  }
  // Whether every axis is its own object's face normal with that object's own-direction triple,
  // as make_sat_setup makes them (axes made here from the pose always are): then the own object's
  // two sums of Eq. 22 are OwnTerms of its node.
  bool own_structured() const { return own_structured_; }
  // Whether the query takes the own-structured 64-bit test (collide_fixed), which reads of each
  // axis only the projected object's half of NarrowFixedAxis (the owning object's sums are its
  // tree's own terms): fixed_own_axis_sums and make_fixed_axis_table.
  bool own_path() const { return narrow_fixed_params(fixed_) && !kCheckFixedWidths && own_structured_; }

 private:
  const Vec3& centred_translation() {
    if (!centred_made_) {
      Tc_ = kdopcd::centred_translation(M_, pose_->translation, *c1_, *c2_);
      centred_made_ = true;
    }
    return Tc_;
  }
  // Axis i's direction and the parts of its NarrowFixedAxis that do not depend on p, from
  // make_axis_setup's L and triples (make_projected_triple), as store() makes them.
  // On the own path only the projected object's half (A for even axes, made from the first
  // object's own directions; B for odd ones): nothing there reads the owning object's half, and
  // quantizing it was a noticeable part of a separated query's set-up.
  void prepare(int i) {
    if (prepared_ >> i & 1u) return;
    projected_.make(*set_, M_, i);
    const int e = i / 2, parity = i % 2;
    FaceTriple projected;
    for (int m = 0; m < 3; ++m) {
      projected.j[std::size_t(m)] = int(projected_.j[parity][m][e]);
      projected.P[std::size_t(m)] = projected_.P[parity][m][e];
    }
    const FaceTriple& own = set_->own_direction_triple(e);
    const FaceTriple& a = parity == 0 ? projected : own;
    const FaceTriple& b = parity == 0 ? own : projected;
    L_[i] = projected_.L(*set_, i);
    NarrowFixedAxis& n = narrow_[i];
    const double scale_c = double(std::int64_t(1) << fixed_.c);  // c <= kMaxFixedBits = 44
    const bool own_path = this->own_path();
    if (!own_path || i % 2 == 0)
      for (int m = 0; m < 3; ++m) {
        n.ja[m] = a.j[m];
        n.jak[m] = opposite_face(a.j[m], half_);
        n.PA[m] = quantize_mapping_scaled(a.P[m], scale_c);
      }
    if (!own_path || i % 2 == 1)
      for (int m = 0; m < 3; ++m) {
        n.jb[m] = b.j[m];
        n.jbk[m] = opposite_face(b.j[m], half_);
        n.PB[m] = quantize_mapping_scaled(b.P[m], scale_c);
      }
    prepared_ |= 1u << i;
  }
  // quantize_mapping(P, c) given 2^c: the same integer (times_pow2 is this product for c <= 62,
  // floor_to_int64 this truncation below 2^62), with the branches the compiler kept per call
  // folded into one range check, which mapping entries (|P| <= 3 or so) always pass.
  std::int64_t quantize_mapping_scaled(double P, double scale_c) const {
    const double x = P * scale_c;
    if (!(x > -0x1p62 && x < 0x1p62)) return quantize_mapping(P, fixed_.c);
    const std::int64_t t = static_cast<std::int64_t>(x);
    return t - (static_cast<double>(t) > x ? 1 : 0);
  }
  // Axis i complete, as store(i, make_axis_setup(set, M, T_c, i)) makes it: prepare() made
  // everything but p = L . T_c (make_axis_setup's expression) and its terms.
  void make(int i) {
    prepare(i);
    // p' as make_query_axis makes it (quantize_double_axis of p = axis_offset(L, T_c)).
    p_[i] = quantize_scaled_offset(axis_offset(L_[i].data(), centred_translation().data()), s_, fixed_.z);
    narrow_fixed_p_terms(p_[i], fixed_, narrow_[i].p1, narrow_[i].p2);
    ready_ |= 1u << i;
  }
  void store(int i, const AxisSetup& axis) {
    const QuantizedAxis q = quantize_axis(axis, s_, fixed_);
    narrow_[i] = narrow_fixed_axis(q, half_, fixed_);
    p_[i] = q.p;
    if (set_ == nullptr) {
      const FaceTriple& own = orientation_set(2 * half_).own_direction_triple(i / 2);
      const bool first_owns = i % 2 == 0;
      own_structured_ &= (first_owns ? axis.jB : axis.jA) == own.j && (first_owns ? axis.PB : axis.PA) == own.P;
    }
    ready_ |= 1u << i;
  }
  bool own_structured_ = true;
  const OrientationSet* set_ = nullptr;
  const Pose* pose_ = nullptr;
  Mat3 M_;
  const Vec3* c1_ = nullptr;  // the two trees' centres
  const Vec3* c2_ = nullptr;
  Vec3 Tc_;
  bool centred_made_ = false;
  FixedOffsetEstimate estimate_;
  bool estimate_made_ = false;
  double s_;
  FixedParams fixed_;
  int half_;
  int k_;
  ProjectedTripleLanes projected_;  // the pose's axes (from a pose only), made as they are needed
  std::array<NarrowFixedAxis, kMaxK> narrow_;
  std::array<std::int64_t, kMaxK> p_;  // p' of each made axis
  std::array<Vec3, kMaxK> L_;          // directions of the prepared axes (Eigen leaves them unset)
  std::uint32_t prepared_ = 0;  // bit i: L_[i] and narrow_[i]'s p-free parts are made
  std::uint32_t ready_ = 0;     // bit i: axis i is complete
  bool table_made_ = false;
  FixedAxisTable table_;  // left unfilled until make_table: a separated query never needs it
  FixedPairTestTerms terms_test_ = nullptr;
  std::uint64_t query_ = 0;  // this query's number in the node-terms caches
};

// Eq. 22's two sums of an object on its own face normals, per node: for own direction i,
// terms[2i] = P'.x'[j] + sn(x'[j]) and terms[2i + 1] the same on the antiparallel faces, with
// (j, P) = own_direction_triple(i) and P' quantized at c. They depend on the tree, s, b and c only,
// so they are worked out once and kept with the tree; a pair test then sums only the other
// object's three products per axis, as the float test does.
std::vector<std::int64_t> make_own_terms(const DopTree& tree, const QuantizedTree& q, int c) {
  const int k = tree.k(), half = k / 2;
  const OrientationSet& set = tree.orientations();
  std::vector<NarrowFixedAxis> own_axes(static_cast<std::size_t>(half));
  for (int i = 0; i < half; ++i) {
    QuantizedAxis ax{};
    const FaceTriple& t = set.own_direction_triple(i);
    for (int m = 0; m < 3; ++m) {
      ax.jA[m] = ax.jB[m] = t.j[m];
      ax.PA[m] = ax.PB[m] = quantize_mapping(t.P[m], c);
    }
    own_axes[std::size_t(i)] = narrow_fixed_axis(ax, half, FixedParams{kMinFixedBits, c, kMinFixedBits});
  }
  std::vector<std::int64_t> terms(tree.node_count() * std::size_t(k));
  for (std::size_t node = 0; node < tree.node_count(); ++node) {
    const std::int64_t* x = q.coefficients(node);
    for (int i = 0; i < half; ++i) {
      const NarrowFixedAxis& a = own_axes[std::size_t(i)];
      terms[node * std::size_t(k) + std::size_t(2 * i)] = narrow_mapped(a.PA, x, a.ja);
      terms[node * std::size_t(k) + std::size_t(2 * i + 1)] = narrow_mapped(a.PA, x, a.jak);
    }
  }
  return terms;
}

constexpr int kKindOwnTerms = 4;  // DerivedCache kind (1 in sat_fixed.cpp, 2 and 3 below, 5 in wide_tree.cpp)

std::shared_ptr<const std::vector<std::int64_t>> cached_own_terms(const DopTree& tree, const QuantizedTree& q,
                                                                  int c) {
  // s and b identify q; c is the second parameter.
  return tree.derived_cache().get<std::vector<std::int64_t>>(kKindOwnTerms, q.scale(), q.bits(), c,
                                                             [&] { return make_own_terms(tree, q, c); });
}

// What a fixed query needs from the two trees' caches for one (s, b, c): both quantized trees,
// and both trees' own terms once a query of the own-structured path has asked for them.
struct FixedTreeData {
  std::shared_ptr<const QuantizedTree> qf, qs;
  std::shared_ptr<const std::vector<std::int64_t>> own_f, own_s;
  class Reader;  // how a query gets them (below)
};

// The last pair of trees this thread queried with the fixed backend. Every query of a scene is
// the same pair at the same parameters, and fetching four entries from the trees' caches (each
// under the cache's mutex) was a large part of a separated query; this memo makes it one
// comparison instead. It keys on the caches' ids, which are never reused, so a tree destroyed and
// another made at its address cannot match; the values are those the caches give (made once per
// key, never changed), so results are the same. The memo keeps its entries alive until this
// thread's next fixed query of another pair.
struct FixedTreeMemo {
  std::uint64_t first = 0, second = 0;  // cache ids; 0 is never one
  double s = 0;
  int b = 0, c = 0;
  std::shared_ptr<const FixedTreeData> data;
  // Queries of this thread now reading `data`: more than one only for a query started inside
  // another's triangle test (a custom test may query). While any runs, the memo is not replaced.
  int readers = 0;
};

// What a fixed query reads of the two trees' caches for one (s, b, c), held for the query's
// lifetime. Usually it reads the thread's memo in place (a copy of its shared_ptr, two atomic
// counts per query, was a noticeable part of a separated query); a query that needs other data
// while an outer query of this thread reads the memo holds its own.
class FixedTreeData::Reader {
 public:
  Reader(const DopTree& first, const DopTree& second, double s, const FixedParams& fixed, bool own_terms) {
    thread_local FixedTreeMemo memo;
    const std::uint64_t idf = first.derived_cache().id(), ids = second.derived_cache().id();
    const bool same = memo.data && memo.first == idf && memo.second == ids && memo.s == s && memo.b == fixed.b &&
                      memo.c == fixed.c;
    if (same && (!own_terms || memo.data->own_f)) {
      read_memo(memo);
      return;
    }
    // New data: a fresh FixedTreeData rather than writing into the memo's, which a query
    // still running (on this thread, below a parallel traversal's wait) may be reading.
    auto data = same ? std::make_shared<FixedTreeData>(*memo.data) : std::make_shared<FixedTreeData>();
    if (!same) {
      data->qf = quantized_tree(first, s, fixed.b);
      data->qs = quantized_tree(second, s, fixed.b);
    }
    if (own_terms) {
      data->own_f = cached_own_terms(first, *data->qf, fixed.c);
      data->own_s = cached_own_terms(second, *data->qs, fixed.c);
    }
    if (memo.readers == 0) {
      memo = {idf, ids, s, fixed.b, fixed.c, std::move(data), 0};
      read_memo(memo);
    } else {
      own_ = std::move(data);
      data_ = own_.get();
    }
  }
  ~Reader() {
    if (memo_ != nullptr) --memo_->readers;
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  const FixedTreeData* operator->() const { return data_; }

 private:
  void read_memo(FixedTreeMemo& memo) {
    ++memo.readers;
    memo_ = &memo;
    data_ = memo.data.get();
  }
  FixedTreeMemo* memo_ = nullptr;
  std::shared_ptr<const FixedTreeData> own_;
  const FixedTreeData* data_ = nullptr;
};

// The fixed query's traversal: both trees quantized at the scene scale (once per tree and scale,
// quantized_tree), the axes from `axes`. make_triangle_test() -> TriangleTest; a template
// parameter rather than a std::function, which would allocate for the callers' captures on
// every query.
template <class MakeTriangleTest>
QueryResult collide_fixed(const DopTree& first, const DopTree& second, LazyFixedAxes& axes, double s,
                          const TraversalOptions& options, const FixedParams& fixed,
                          const MakeTriangleTest& make_triangle_test) {
  const int half = first.k() / 2;
  const int n = axes_per_pair(options, first.k());
  const bool own_path = axes.own_path();
  const FixedTreeData::Reader trees(first, second, s, fixed, own_path);
  const QuantizedTree* const qf = trees->qf.get();
  const QuantizedTree* const qs = trees->qs.get();
  const auto make_all_axes = [&] { axes.make_all(); };  // before concurrent reads
  auto triangle_maker = [&] {
    return [test = make_triangle_test()](int tf, int ts) { return test(std::uint32_t(tf), std::uint32_t(ts)); };
  };
  // The 64-bit test is fixed_axis_diffs' verdict exactly (sat_fixed.hpp); builds that check the
  // widths of every intermediate (debug) take fixed_axis_diffs itself.
  if (own_path) {
    const std::vector<std::int64_t>* const own_f = trees->own_f.get();
    const std::vector<std::int64_t>* const own_s = trees->own_s.get();
    const int k = first.k();
    // The root pair's first kRootAxesOneByOne axes one by one (only the axes it reaches are
    // quantized, most from bounds of p: a separated pose stops there), then, if none separated
    // it, all n axes in SIMD lanes like every later pair: the same verdicts and counts
    // (sat_fixed_lanes.hpp), and an overlapping root pair does not make and test each of its
    // axes alone. root_tested is written by the first call only, before any parallel task.
    bool root_tested = false;
    auto pair_test = [&](int nf, int ns) {
      const std::int64_t* b = qf->coefficients(std::size_t(nf));
      const std::int64_t* a = qs->coefficients(std::size_t(ns));
      const std::int64_t* ob = own_f->data() + std::size_t(nf) * std::size_t(k);
      const std::int64_t* oa = own_s->data() + std::size_t(ns) * std::size_t(k);
      if (root_tested) return axes.test_terms(n, nf, ns, a, b, oa, ob);
      root_tested = true;
      const int one_by_one = std::min(n, kRootAxesOneByOne);
      for (int i = 0; i < one_by_one; ++i) {
        int verdict = axes.root_verdict(i, a, b, oa, ob);
        if (verdict < 0) verdict = axes.root_exact(i, a, b, oa, ob);  // T_c is made by then
        if (verdict) return PairVerdict{true, i + 1};
      }
      if (one_by_one == n) return PairVerdict{false, n};
      return axes.test_terms(n, nf, ns, a, b, oa, ob);
    };
    // Before a parallel traversal's tasks: the table (and with it T_c, which the triangle unit's
    // pose reads) is all that the pair tests after the root read.
    const auto make_table = [&] { axes.make_table(n); };
    return run_traversal(first, second, options, pair_test, triangle_maker, make_table);
  }
  if (narrow_fixed_params(fixed) && !kCheckFixedWidths) {
    auto pair_test = [&](int nf, int ns) {
      const std::int64_t* b = qf->coefficients(std::size_t(nf));
      const std::int64_t* a = qs->coefficients(std::size_t(ns));
      for (int i = 0; i < n; ++i)
        if (narrow_fixed_separates(a, b, axes.narrow(i))) return PairVerdict{true, i + 1};
      return PairVerdict{false, n};
    };
    return run_traversal(first, second, options, pair_test, triangle_maker, make_all_axes);
  }
  auto pair_test = [&](int nf, int ns) {
    const std::int64_t* b = qf->coefficients(std::size_t(nf));
    const std::int64_t* a = qs->coefficients(std::size_t(ns));
    for (int i = 0; i < n; ++i)
      if (fixed_axis_diffs(a, b, half, axes.quantized(i), fixed).separated()) return PairVerdict{true, i + 1};
    return PairVerdict{false, n};
  };
  return run_traversal(first, second, options, pair_test, triangle_maker, make_all_axes);
}

void check_same_k(const DopTree& first, const DopTree& second) {
  if (first.k() != second.k()) throw std::invalid_argument("collide: trees must share k");
}

// DerivedCache kinds of this file (sat_fixed.cpp uses 1, wide_tree.cpp 5).
constexpr int kKindQuantizedVertices = 2;  // quantize_vertices(mesh, centre, s, v)
constexpr int kKindLiftedVertices = 3;     // lift_first_vertex(quantize_vertices(...), m)

std::shared_ptr<const std::vector<FixedVertex>> cached_quantized_vertices(const DopTree& tree, double s, int v) {
  return tree.derived_cache().get<std::vector<FixedVertex>>(kKindQuantizedVertices, s, v, 0, [&] {
    return quantize_vertices(tree.mesh(), tree.centre(), s, v);
  });
}

std::shared_ptr<const std::vector<FixedVertex>> cached_lifted_vertices(const DopTree& tree, double s,
                                                                      const TriangleFixedParams& tri) {
  // Fetched before get(): make() runs under the cache's lock, which is not recursive.
  const auto quantized = cached_quantized_vertices(tree, s, tri.v);
  return tree.derived_cache().get<std::vector<FixedVertex>>(kKindLiftedVertices, s, tri.v, tri.m, [&] {
    std::vector<FixedVertex> lifted = *quantized;
    for (FixedVertex& x : lifted) x = lift_first_vertex(x, tri.m);
    return lifted;
  });
}

// The triangle unit's inputs of one query: the first object's lifted vertices (cached with its
// tree), the second's quantized ones (cached) placed by the quantized pose when first reached, in
// the thread's PlacedVertexCache. One per thread; made at the first triangle test, so a query
// without one pays nothing.
class FixedTriangleInputs {
 public:
  FixedTriangleInputs(const DopTree& first, const DopTree& second, const QuantizedPose& pose, double s,
                      const TriangleFixedParams& tri)
      : first_(&first.mesh()), second_(&second.mesh()), pose_(&pose),
        lifted_(cached_lifted_vertices(first, s, tri)), quantized_(cached_quantized_vertices(second, s, tri.v)),
        query_(Cache::new_query()) {}

  bool intersect(std::uint32_t tf, std::uint32_t ts) {
    FixedTriangle a, b;
    typename Cache::Slot* const placed = Cache::local(quantized_->size());  // this thread's (see LazyPlacement)
    for (int c = 0; c < 3; ++c) {
      a.v[c] = (*lifted_)[first_->triangles[tf][c]];
      const std::uint32_t v = second_->triangles[ts][c];
      if (placed[v].query != query_) {
        placed[v].point = place_fixed_vertex(*pose_, (*quantized_)[v]);
        placed[v].query = query_;
      }
      b.v[c] = placed[v].point;
    }
    return fixed_triangles_intersect(a, b);
  }

 private:
  const Mesh* first_;
  const Mesh* second_;
  const QuantizedPose* pose_;
  using Cache = detail::PlacedVertexCache<FixedVertex>;
  std::shared_ptr<const std::vector<FixedVertex>> lifted_, quantized_;
  std::uint64_t query_;  // the stamp of this query's (this thread's) placed vertices
};

}  // namespace

QueryResult collide(const DopTree& first, const DopTree& second, const SatSetup& setup,
                    const std::vector<Vec3>& placed, const TraversalOptions& options, SatBackend backend,
                    const FixedParams& fixed, const TriangleTest& custom_triangle_test) {
  check_same_k(first, second);
  if (setup.k != first.k()) throw std::invalid_argument("collide: trees and set-up must share k");
  if (backend == SatBackend::Float) {
    LazyAxes axes(setup);
    LazyPlacement given(placed);
    return collide_float(first, second, axes, given, options, custom_triangle_test);
  }
  const Mesh& mf = first.mesh();
  const Mesh& ms = second.mesh();
  auto make_triangle_test = [&]() -> TriangleTest {
    if (custom_triangle_test) return custom_triangle_test;
    return [&](std::uint32_t tf, std::uint32_t ts) {
      const std::vector<Vec3>& p = placed;
      return test_triangle_pair(mf, ms, p, TriangleTest{}, int(tf), int(ts));
    };
  };
  if (backend == SatBackend::Fixed) {
    // The set-up must be made with the centred pose (collide.hpp).
    const double s = scene_scale(first, second);
    LazyFixedAxes axes(setup, s, fixed);
    return collide_fixed(first, second, axes, s, options, fixed, make_triangle_test);
  }
  const int half = first.k() / 2;
  const int n = axes_per_pair(options, first.k());
  auto exact_pair_test = [&](int nf, int ns) {
    const double* b = first.coefficients(std::size_t(nf)).data();
    const double* a = second.coefficients(std::size_t(ns)).data();
    return test_axes(setup, n, [&](const AxisSetup& ax) {
      return exact_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated();
    });
  };
  auto triangle_maker = [&] {
    return [test = make_triangle_test()](int tf, int ts) { return test(std::uint32_t(tf), std::uint32_t(ts)); };
  };
  return run_traversal(first, second, options, exact_pair_test, triangle_maker);
}

bool takes_wide_descent(const TraversalOptions& options) {
  return options.wide && options.threads == 1 && options.rule == DescentRule::Larger && options.stack_capacity == 0;
}

int collide_axes_per_pair(const TraversalOptions& options, int k, SatBackend backend) {
  if (options.axes <= 0 && backend == SatBackend::Float && takes_wide_descent(options))
    return std::min(k, kWideDescentAxes);
  return axes_per_pair(options, k);
}

QueryResult collide(const DopTree& first, const DopTree& second, const Pose& pose, const TraversalOptions& options,
                    SatBackend backend, const FixedParams& fixed, const TriangleFixedParams& tri_params) {
  check_same_k(first, second);
  if (backend == SatBackend::Float) {
    const Mat3 M = pose.matrix();  // once: the set-up and the placement share it
    if (roots_clear_on_first_axis(first, second, M, pose.translation, 0.0))
      return separated_on_first_axis(first, second, options);
    LazyAxes axes(first.orientations(), M, pose.translation);
    LazyPlacement placed(second.mesh(), M, pose.translation);
    if (!options.leaf_planes) return collide_float(first, second, axes, placed, options, TriangleTest{});
    const detail::LeafPlaneTest leaf_plane(first, second, M, pose.translation);
    return collide_float(first, second, axes, placed, options, TriangleTest{}, &leaf_plane);
  }
  if (backend != SatBackend::Fixed) {
    const SatSetup setup = make_sat_setup(first.orientations(), pose);
    const std::vector<Vec3> placed = place_vertices(second.mesh(), pose);
    return collide(first, second, setup, placed, options, backend, fixed);
  }
  // The fixed backend is the accelerator's arithmetic end to end, in the objects' centred frames
  // (docs/fixed-point.md §2): the SAT on centred coefficients with p = L . T_c (each axis quantized
  // when first reached, as in the float path), and the triangle unit's test on quantized centred
  // vertices (tri_fixed.hpp). The double placed vertices are not used (the unit replaces the
  // exact test). Everything that depends only on a tree and the scale is cached with the tree.
  // The centred pose is worked out when first needed (LazyFixedAxes): not at all for most
  // separated poses.
  if (!fixed_params_valid(fixed)) validate_fixed_params(fixed);  // throws (an inline check: every query makes it)
  check_triangle_params(tri_params);  // the pose and vertices are quantized when first needed
  const double s = scene_scale(first, second);
  const Mat3 M = pose.matrix();
  if (roots_clear_on_first_axis(first, second, M, pose.translation,
                                fixed_first_axis_margin(fixed, s, first, second, pose.translation)))
    return separated_on_first_axis(first, second, options);
  LazyFixedAxes axes(first.orientations(), pose, M, first.centre(), second.centre(), s, fixed);
  std::once_flag pose_once;
  LateValue<QuantizedPose> qpose;  // QuantizedPose's initializers would zero it on every query
  auto make_unit = [&]() -> TriangleTest {
    // A parallel traversal makes its axis table, and so the centred pose, before its tasks start;
    // a sequential one may reach here first (a root decided from bounds), and makes it here.
    std::call_once(pose_once, [&] { qpose.emplace(quantize_pose(axes.centred_pose(), s, tri_params)); });
    auto inputs = std::make_shared<FixedTriangleInputs>(first, second, *qpose, s, tri_params);
    return [inputs](std::uint32_t tf, std::uint32_t ts) { return inputs->intersect(tf, ts); };
  };
  return collide_fixed(first, second, axes, s, options, fixed, make_unit);
}

std::vector<ContactPair> brute_force_contacts(const Mesh& first, const Mesh& second, const Pose& pose) {
  const std::vector<Vec3> placed = place_vertices(second, pose);
  const std::vector<TriangleBox> bf = triangle_boxes(first, first.vertices), bs = triangle_boxes(second, placed);
  tbb::combinable<std::vector<ContactPair>> found;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, first.triangle_count()), [&](const auto& range) {
    auto& local = found.local();
    for (std::size_t f = range.begin(); f != range.end(); ++f) {
      for (std::size_t s = 0; s < second.triangle_count(); ++s) {
        if (bf[f].disjoint(bs[s])) continue;  // exact: disjoint boxes mean disjoint triangles
        const auto& t = second.triangles[s];
        if (triangles_intersect(first.corner(f, 0), first.corner(f, 1), first.corner(f, 2), placed[t[0]], placed[t[1]],
                                placed[t[2]]))
          local.push_back({std::uint32_t(f), std::uint32_t(s)});
      }
    }
  });
  std::vector<ContactPair> all;
  found.combine_each([&](const auto& v) { all.insert(all.end(), v.begin(), v.end()); });
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace kdopcd
