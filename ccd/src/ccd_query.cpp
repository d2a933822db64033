#include "kdopcd/ccd/ccd_query.hpp"

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "kdopcd/error.hpp"
#include "kdopcd/orientations.hpp"

namespace kdopcd::ccd {

CcdStats& CcdStats::operator+=(const CcdStats& o) {
  node_pairs += o.node_pairs;
  triangle_pairs += o.triangle_pairs;
  feature_pairs += o.feature_pairs;
  elementary_tests += o.elementary_tests;
  searched += o.searched;
  exact_intervals += o.exact_intervals;
  patches_culled += o.patches_culled;
  patch_tests += o.patch_tests;
  patch_triangles_culled += o.patch_triangles_culled;
  return *this;
}

void check_motion(const MovingMesh& mesh, const std::string& what) {
  const std::size_t n = mesh.topology->vertex_count;
  if (mesh.motion.start.size() != n || mesh.motion.end.size() != n)
    throw InputError(fmt::format("{}: {} and {} positions for {} vertices", what, mesh.motion.start.size(),
                                 mesh.motion.end.size(), n));
  for (std::size_t v = 0; v < n; ++v)
    for (const Vec3* x : {&mesh.motion.start[v], &mesh.motion.end[v]})
      if (!x->allFinite())
        throw InputError(fmt::format("{}: vertex {} has a non-finite position at the {} of the motion", what, v,
                                     x == &mesh.motion.start[v] ? "start" : "end"));
}

namespace {

// Whether the hull of the swept k-DOPs of vertices `mine` (in tree `a`) and that of `theirs` (in
// tree `b`) are apart on one of the directions. Most pairs of neighbouring triangles' features are
// culled here (an axis-aligned box keeps, e.g., the fourth corner of a grid cell against the cell's
// other triangle).
template <std::size_t M, std::size_t N>
bool apart(const SweptTree& a, const std::array<std::uint32_t, M>& mine, const SweptTree& b,
           const std::array<std::uint32_t, N>& theirs) {
  std::array<const float*, M> x;
  std::array<const float*, N> y;
  for (std::size_t m = 0; m < M; ++m) x[m] = a.vertex_dop(mine[m]);
  for (std::size_t n = 0; n < N; ++n) y[n] = b.vertex_dop(theirs[n]);
  return dops_apart(a.half(), x, y);
}

// The same with the hull of `theirs` given: a leaf's k-DOP is exactly the hull of its triangle's
// three vertex k-DOPs (fit_leaf), so a vertex against a leaf's triangle reads one k-DOP instead of
// three and the same verdict comes out (a quarter of the leaf-pair time went into these hulls).
template <std::size_t M>
bool apart_from_hull(const SweptTree& a, const std::array<std::uint32_t, M>& mine, const float* hull) {
  std::array<const float*, M> x;
  for (std::size_t m = 0; m < M; ++m) x[m] = a.vertex_dop(mine[m]);
  return dops_apart(a.half(), x, std::array{hull});
}

void put(ElementaryPoints& in, int slot, const Motion& m, std::uint32_t v) {
  for (int k = 0; k < 3; ++k) {
    in.xyz[slot][0][k] = m.start[v][k];
    in.xyz[slot][1][k] = m.end[v][k];
  }
}

// The earliest time seen so far and the pairs touching then.
struct Collector {
  double best = std::numeric_limits<double>::infinity();
  std::vector<FeatureContact> contacts;
  CcdStats stats;
  PatchScratch patch_scratch;
  // Batch mode (CcdOptions::elementary_filter): the feature pairs waiting for the filter.
  std::vector<ElementaryKind> kinds;
  std::vector<ElementaryPoints> points;
  std::vector<FeatureContact> waiting;

  void offer(double t, const FeatureContact& c) {
    if (t < 0) return;
    if (t < best) {
      best = t;
      contacts.clear();
    }
    if (t == best) contacts.push_back(c);
  }
};

// Runs the batch filter on a collector's waiting pairs, completes the undecided ones on the host
// and offers every answer.
void flush_batch(Collector& out, const ElementaryFilterBatch& filter) {
  if (out.waiting.empty()) return;
  std::vector<double> times(out.waiting.size());
  filter(out.kinds, out.points, times);
  for (std::size_t i = 0; i < times.size(); ++i) {
    double t = times[i];
    if (t == kNeedsExact) {
      ElementaryStats s;
      t = first_contact(out.kinds[i], out.points[i], &s, out.best);
      out.stats.searched += s.searched;
      out.stats.exact_intervals += s.exact_intervals;
    }
    out.offer(t, out.waiting[i]);
  }
  out.kinds.clear();
  out.points.clear();
  out.waiting.clear();
}

// The feature tests of one vertex against one triangle, and of one edge against another, after the
// swept-box check: at once, or queued for the batch filter when there is one.
class FeatureTester {
 public:
  // The trees' vertex k-DOPs must be fitted to a's and b's motions (both of one k).
  FeatureTester(const MovingMesh& a, const SweptTree& tree_a, const MovingMesh& b, const SweptTree& tree_b,
                const ElementaryFilterBatch* filter = nullptr, std::size_t batch = 1)
      : a_(a), b_(b), tree_a_(tree_a), tree_b_(tree_b), filter_(filter && *filter ? filter : nullptr),
        batch_(std::max<std::size_t>(batch, 1)) {}

  // `vertex_in_a`: the vertex is a's and the face b's (else the other way round).
  // `face_hull`: the k-DOP of the face's leaf when the caller has it (the traversal), else null.
  void vertex_face(Collector& out, bool vertex_in_a, std::uint32_t v, const TriangleIndices& tri,
                   const FeatureContact& contact, const float* face_hull = nullptr) const {
    const SweptTree& vt = vertex_in_a ? tree_a_ : tree_b_;
    if (face_hull ? apart_from_hull(vt, std::array{v}, face_hull)
                  : apart(vt, std::array{v}, vertex_in_a ? tree_b_ : tree_a_, tri))
      return;
    const Motion& vm = vertex_in_a ? a_.motion : b_.motion;
    const Motion& fm = vertex_in_a ? b_.motion : a_.motion;
    ElementaryPoints in;
    put(in, 0, vm, v);
    for (int c = 0; c < 3; ++c) put(in, 1 + c, fm, tri[c]);
    test(out, ElementaryKind::VertexFace, in, contact);
  }
  void edge_edge(Collector& out, const EdgeIndices& e, const EdgeIndices& f, const FeatureContact& contact) const {
    const Motion& am = a_.motion;
    const Motion& bm = b_.motion;
    if (apart(tree_a_, e, tree_b_, f)) return;
    ElementaryPoints in;
    put(in, 0, am, e[0]);
    put(in, 1, am, e[1]);
    put(in, 2, bm, f[0]);
    put(in, 3, bm, f[1]);
    test(out, ElementaryKind::EdgeEdge, in, contact);
  }

 private:
  void test(Collector& out, ElementaryKind kind, const ElementaryPoints& in, const FeatureContact& contact) const {
    ++out.stats.feature_pairs;
    ++out.stats.elementary_tests;
    if (filter_) {
      out.kinds.push_back(kind);
      out.points.push_back(in);
      out.waiting.push_back(contact);
      if (out.waiting.size() >= batch_) flush_batch(out, *filter_);
      return;
    }
    ElementaryStats s;
    out.offer(first_contact(kind, in, &s, out.best), contact);
    out.stats.searched += s.searched;
    out.stats.exact_intervals += s.exact_intervals;
  }

  const MovingMesh& a_;
  const MovingMesh& b_;
  const SweptTree& tree_a_;
  const SweptTree& tree_b_;
  const ElementaryFilterBatch* filter_;
  std::size_t batch_;
};

FeatureContact vf(std::uint8_t object, std::uint32_t v, std::uint32_t tri) {
  FeatureContact c;
  c.kind = ElementaryKind::VertexFace;
  c.vertex_object = object;
  c.ids[0] = v;
  c.ids[1] = tri;
  return c;
}
FeatureContact ee(const EdgeIndices& e, const EdgeIndices& f) {
  FeatureContact c;
  c.kind = ElementaryKind::EdgeEdge;
  c.ids[0] = e[0];
  c.ids[1] = e[1];
  c.ids[2] = f[0];
  c.ids[3] = f[1];
  return c;
}
bool holds(const TriangleIndices& tri, std::uint32_t v) { return tri[0] == v || tri[1] == v || tri[2] == v; }
bool share_vertex(const TriangleIndices& p, const TriangleIndices& q) {
  return holds(q, p[0]) || holds(q, p[1]) || holds(q, p[2]);
}
bool share_vertex(const EdgeIndices& e, const EdgeIndices& f) {
  return e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1];
}

// The owned features of triangle ta (of a) against those of tb (of b); `self` when a and b are one
// mesh (then adjacent features are skipped and pairs are put in canonical order).
// `hull_a`, `hull_b`: the two leaves' k-DOPs.
void test_triangle_pair(Collector& out, const FeatureTester& tester, const MovingMesh& a, std::uint32_t ta,
                        const float* hull_a, const MovingMesh& b, std::uint32_t tb, const float* hull_b, bool self) {
  ++out.stats.triangle_pairs;
  const Topology& A = *a.topology;
  const Topology& B = *b.topology;
  const TriangleIndices& tri_a = A.triangles[ta];
  const TriangleIndices& tri_b = B.triangles[tb];
  const std::uint8_t own_a = A.owned[ta], own_b = B.owned[tb];
  for (int c = 0; c < 3; ++c) {
    if (own_a & (1u << c) && !(self && holds(tri_b, tri_a[c])))
      tester.vertex_face(out, true, tri_a[c], tri_b, vf(0, tri_a[c], tb), hull_b);
    if (own_b & (1u << c) && !(self && holds(tri_a, tri_b[c])))
      tester.vertex_face(out, false, tri_b[c], tri_a, vf(self ? 0 : 1, tri_b[c], ta), hull_a);
  }
  for (int i = 0; i < 3; ++i) {
    if (!(own_a & (1u << (3 + i)))) continue;
    const EdgeIndices& e = A.edges[A.triangle_edges[ta][i]];
    for (int j = 0; j < 3; ++j) {
      if (!(own_b & (1u << (3 + j)))) continue;
      const EdgeIndices& f = B.edges[B.triangle_edges[tb][j]];
      if (self && share_vertex(e, f)) continue;
      // In self-collision the pair is named smaller edge first; the test is symmetric in the two.
      tester.edge_edge(out, e, f, self && f < e ? ee(f, e) : ee(e, f));
    }
  }
}

// A unit of the traversal: the pair of nodes (a, b), or in self-collision a == b for "node a
// against itself".
struct NodeTask {
  std::int32_t a, b;
};

class Traversal {
 public:
  Traversal(const MovingMesh& a, const SweptTree& ta, const MovingMesh& b, const SweptTree& tb, bool self,
            const CcdOptions& options)
      : a_(a), b_(b), ta_(ta), tb_(tb), self_(self), patch_culling_(self && options.patch_culling && ta.has_patches()),
        tester_(a, ta, b, tb, &options.elementary_filter, options.elementary_batch) {}

  // Expands one task: leaf pairs are tested, inner tasks push their children.
  template <class Push>
  void step(const NodeTask& task, Collector& out, Push&& push) const {
    const auto& na = ta_.nodes()[std::size_t(task.a)];
    if (self_ && task.a == task.b) {
      if (na.left < 0) return;
      if (patch_culling_ && na.count >= kMinPatchTriangles) {
        const PatchVerdict v = patch_cannot_touch_itself(*a_.topology, ta_.triangles(std::size_t(task.a)),
                                                         ta_.boundary(std::size_t(task.a)), ta_.normal_signs(std::size_t(task.a)),
                                                         a_.motion.start, a_.motion.end, out.patch_scratch);
        if (v == PatchVerdict::free) {
          ++out.stats.patches_culled;
          out.stats.patch_triangles_culled += na.count;
          return;
        }
        out.stats.patch_tests += v != PatchVerdict::declined;
      }
      push(NodeTask{na.left, na.left});
      push(NodeTask{na.right, na.right});
      push(NodeTask{na.left, na.right});
      return;
    }
    ++out.stats.node_pairs;
    const auto& nb = tb_.nodes()[std::size_t(task.b)];
    // In self-collision, two leaves whose triangles share a vertex always overlap (both k-DOPs hold
    // that vertex's k-DOP): about 560 000 of the cloth's 2.1 million node pairs per interval are
    // such pairs, each passing all k/2 axes, so their overlap test is skipped (still counted).
    const bool adjacent_leaves = self_ && na.left < 0 && nb.left < 0 &&
                                 share_vertex(a_.topology->triangles[na.triangle], b_.topology->triangles[nb.triangle]);
    if (!adjacent_leaves && !ta_.overlap(tb_, std::size_t(task.a), std::size_t(task.b))) return;
    if (na.left < 0 && nb.left < 0) {
      test_triangle_pair(out, tester_, a_, na.triangle, ta_.dop(std::size_t(task.a)), b_, nb.triangle,
                         tb_.dop(std::size_t(task.b)), self_);
      return;
    }
    // Descend the node with more triangles (a leaf never).
    if (nb.left < 0 || (na.left >= 0 && na.count >= nb.count)) {
      push(NodeTask{na.left, task.b});
      push(NodeTask{na.right, task.b});
    } else {
      push(NodeTask{task.a, nb.left});
      push(NodeTask{task.a, nb.right});
    }
  }

  void run_depth_first(const NodeTask& root, Collector& out) const {
    std::vector<NodeTask> stack;
    stack.reserve(256);  // deeper than any stack of a balanced tree's descent: no regrowth per task
    stack.push_back(root);
    while (!stack.empty()) {
      const NodeTask t = stack.back();
      stack.pop_back();
      step(t, out, [&](const NodeTask& c) { stack.push_back(c); });
    }
  }

 private:
  const MovingMesh& a_;
  const MovingMesh& b_;
  const SweptTree& ta_;
  const SweptTree& tb_;
  bool self_;
  bool patch_culling_;
  FeatureTester tester_;
};

// The front of tasks is widened breadth first to about this many tasks before they are handed to
// TBB: a fixed figure, so that the traversal's work and its counters are the same for any number of
// threads. Only exact_intervals is not: the dyadic search stops at the earliest time its own thread
// has found so far, which depends on the order in which the threads ran the tasks.
constexpr std::size_t kFrontTasks = 1024;

CcdResult finish(std::vector<Collector>& parts) {
  CcdResult r;
  double best = std::numeric_limits<double>::infinity();
  for (const Collector& c : parts) {
    best = std::min(best, c.best);
    r.stats += c.stats;
  }
  if (best <= 1.0) {
    r.time = best;
    for (const Collector& c : parts)
      if (c.best == best) r.contacts.insert(r.contacts.end(), c.contacts.begin(), c.contacts.end());
    std::sort(r.contacts.begin(), r.contacts.end());
    r.contacts.erase(std::unique(r.contacts.begin(), r.contacts.end()), r.contacts.end());
  }
  return r;
}

CcdResult traverse(const MovingMesh& a, const SweptTree& ta, const MovingMesh& b, const SweptTree& tb, bool self,
                   const CcdOptions& options) {
  if (ta.nodes().empty() || tb.nodes().empty()) return {};
  if (ta.k() != tb.k()) throw std::invalid_argument("ccd: the two trees have different k");
  const Traversal traversal(a, ta, b, tb, self, options);
  Collector head;
  std::vector<NodeTask> front{{0, 0}};
  while (!front.empty() && front.size() < kFrontTasks) {
    std::vector<NodeTask> next;
    for (const NodeTask& t : front) traversal.step(t, head, [&](const NodeTask& c) { next.push_back(c); });
    front.swap(next);
  }
  tbb::enumerable_thread_specific<Collector> locals;
  auto body = [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, front.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
      Collector& local = locals.local();
      for (std::size_t i = r.begin(); i != r.end(); ++i) traversal.run_depth_first(front[i], local);
    });
  };
  if (options.threads > 0) {
    tbb::task_arena arena(options.threads);
    arena.execute(body);
  } else {
    body();
  }
  std::vector<Collector> parts{std::move(head)};
  for (Collector& c : locals) parts.push_back(std::move(c));
  if (options.elementary_filter) {
    // The pairs still waiting, each collector's in one batch, on the query's threads.
    auto flush_all = [&] {
      tbb::parallel_for(std::size_t(0), parts.size(), [&](std::size_t i) { flush_batch(parts[i], options.elementary_filter); });
    };
    if (options.threads > 0)
      tbb::task_arena(options.threads).execute(flush_all);
    else
      flush_all();
  }
  return finish(parts);
}

}  // namespace

void host_elementary_filter(std::span<const ElementaryKind> kinds, std::span<const ElementaryPoints> points,
                            std::span<double> times) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 256), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) times[i] = filtered_first_contact(kinds[i], points[i]);
  });
}

CcdResult ccd_pair(const MovingMesh& a, const SweptTree& tree_a, const MovingMesh& b, const SweptTree& tree_b,
                   const CcdOptions& options) {
  return traverse(a, tree_a, b, tree_b, false, options);
}

CcdResult ccd_self(const MovingMesh& mesh, const SweptTree& tree, const CcdOptions& options) {
  return traverse(mesh, tree, mesh, tree, true, options);
}

namespace {

// The feature filter's k in brute force (any k gives the same answer: the filter only skips pairs
// that cannot touch).
constexpr int kBruteForceK = 18;

// Only vertices that some triangle holds are features (as in the traversal).
std::vector<bool> used_vertices(const Topology& T) {
  std::vector<bool> used(T.vertex_count, false);
  for (const TriangleIndices& tri : T.triangles)
    for (std::uint32_t v : tri) used[v] = true;
  return used;
}

}  // namespace

CcdResult brute_force_pair(const MovingMesh& a, const MovingMesh& b) {
  // Trees only for their vertex k-DOPs: the filter that every feature pair goes through.
  if (a.topology->triangles.empty() || b.topology->triangles.empty()) return {};
  const SweptTree tree_a(*a.topology, a.motion, kBruteForceK, SweptTree::Use::pairs),
      tree_b(*b.topology, b.motion, kBruteForceK, SweptTree::Use::pairs);
  const FeatureTester tester(a, tree_a, b, tree_b);
  Collector out;
  const Topology& A = *a.topology;
  const Topology& B = *b.topology;
  const std::vector<bool> used_a = used_vertices(A), used_b = used_vertices(B);
  for (std::uint32_t v = 0; v < A.vertex_count; ++v)
    for (std::uint32_t t = 0; used_a[v] && t < B.triangles.size(); ++t)
      tester.vertex_face(out, true, v, B.triangles[t], vf(0, v, t));
  for (std::uint32_t v = 0; v < B.vertex_count; ++v)
    for (std::uint32_t t = 0; used_b[v] && t < A.triangles.size(); ++t)
      tester.vertex_face(out, false, v, A.triangles[t], vf(1, v, t));
  for (const EdgeIndices& e : A.edges)
    for (const EdgeIndices& f : B.edges) tester.edge_edge(out, e, f, ee(e, f));
  std::vector<Collector> parts{std::move(out)};
  return finish(parts);
}

CcdResult brute_force_self(const MovingMesh& mesh) {
  if (mesh.topology->triangles.empty()) return {};
  const SweptTree tree(*mesh.topology, mesh.motion, kBruteForceK, SweptTree::Use::pairs);
  const FeatureTester tester(mesh, tree, mesh, tree);
  Collector out;
  const Topology& T = *mesh.topology;
  const std::vector<bool> used = used_vertices(T);
  for (std::uint32_t v = 0; v < T.vertex_count; ++v) {
    if (!used[v]) continue;
    for (std::uint32_t t = 0; t < T.triangles.size(); ++t)
      if (!holds(T.triangles[t], v)) tester.vertex_face(out, true, v, T.triangles[t], vf(0, v, t));
  }
  for (std::size_t i = 0; i < T.edges.size(); ++i)
    for (std::size_t j = i + 1; j < T.edges.size(); ++j)
      if (!share_vertex(T.edges[i], T.edges[j])) tester.edge_edge(out, T.edges[i], T.edges[j], ee(T.edges[i], T.edges[j]));
  std::vector<Collector> parts{std::move(out)};
  return finish(parts);
}

}  // namespace kdopcd::ccd
