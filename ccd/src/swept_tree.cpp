#include "kdopcd/ccd/swept_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "kdopcd/error.hpp"
#include "kdopcd/orientations.hpp"

namespace kdopcd::ccd {
namespace {

// |fl(d.x) - d.x| <= 3u sum |d_i x_i| (three products, two sums; u = 2^-53): widened by twice that
// and by the smallest normal double, so the stored bounds contain the exact projection.
constexpr double kProjectionSlack = 6.0 * 0x1p-53;
constexpr double kAbsoluteSlack = 0x1p-1022;

// A double bound rounded outward to float, without a branch or a libm call (per vertex and
// direction, every interval): the bound is first pushed out by 2^-22 of its size and 2^-126, more
// than the half unit (2^-24 relative, 2^-150 absolute) by which float() can round it back inward,
// so the float is on the far side of the double bound. Beyond float's range a minimum is clamped
// to FLT_MAX from +inf and a maximum to -FLT_MAX from -inf (still outward); the other ends become
// -inf / +inf.
float round_down(double x) {
  return std::min(float(x - (std::fabs(x) * 0x1p-22 + 0x1p-126)), std::numeric_limits<float>::max());
}
float round_up(double x) {
  return std::max(float(x + (std::fabs(x) * 0x1p-22 + 0x1p-126)), -std::numeric_limits<float>::max());
}

// Subtrees of at most this many triangles are refitted each by one task.
constexpr std::uint32_t kRefitChunkTriangles = 2048;

}  // namespace

SweptTree::SweptTree(const Topology& topology, const Motion& motion, int k, Use use) : topology_(&topology), use_(use) {
  const OrientationSet& set = orientation_set(k);  // InputError for an unsupported k
  half_ = set.half();
  for (int i = 0; i < half_; ++i) directions_.push_back(set.direction(i));
  const std::size_t n = topology.triangles.size();
  if (n == 0) return;
  order_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) order_[i] = i;
  nodes_.resize(2 * n - 1);
  dops_.assign(nodes_.size() * 2 * std::size_t(half_), 0.0f);
  built_extent_.assign(nodes_.size(), 0.0);
  std::vector<Vec3> centres(n);
  for (std::size_t i = 0; i < n; ++i) {
    Vec3 c = Vec3::Zero();
    for (std::uint32_t v : topology.triangles[i]) c += motion.start[v] + motion.end[v];
    centres[i] = c / 6.0;
  }
  build_at(0, 0, std::uint32_t(n), centres);
  make_cut();
  if (use_ == Use::self_collision) {
    normal_signs_.resize(nodes_.size());
    make_boundaries();
  }
  refit(motion);
  for (std::size_t i = 0; i < nodes_.size(); ++i) built_extent_[i] = extent(i);
}

void SweptTree::build_at(std::int32_t index, std::uint32_t first, std::uint32_t count, const std::vector<Vec3>& centres) {
  struct Frame {
    std::uint32_t first, count;
    std::int32_t index;
  };
  // Pre-order placement: a subtree of c triangles occupies 2c - 1 consecutive nodes, so restructure
  // can rebuild it in place.
  std::vector<Frame> stack{{first, count, index}};
  while (!stack.empty()) {
    const Frame f = stack.back();
    stack.pop_back();
    Node& node = nodes_[std::size_t(f.index)];
    node.first = f.first;
    node.count = f.count;
    if (f.count == 1) {
      node.triangle = order_[f.first];
      continue;
    }
    // Median split along the centres' widest axis.
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    for (std::uint32_t i = f.first; i < f.first + f.count; ++i) {
      lo = lo.cwiseMin(centres[order_[i]]);
      hi = hi.cwiseMax(centres[order_[i]]);
    }
    int axis = 0;
    (hi - lo).maxCoeff(&axis);
    const std::uint32_t half_count = f.count / 2;
    std::nth_element(order_.begin() + f.first, order_.begin() + f.first + half_count, order_.begin() + f.first + f.count,
                     [&](std::uint32_t a, std::uint32_t b) {
                       return centres[a][axis] < centres[b][axis] || (centres[a][axis] == centres[b][axis] && a < b);
                     });
    node.left = f.index + 1;
    node.right = f.index + 1 + std::int32_t(2 * half_count - 1);
    stack.push_back({f.first + half_count, f.count - half_count, node.right});
    stack.push_back({f.first, half_count, node.left});
  }
}

void SweptTree::fit_vertices(const Motion& motion) {
  const std::size_t stride = 2 * std::size_t(half_);
  vertex_dops_.resize(motion.start.size() * stride);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, motion.start.size(), 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t v = r.begin(); v != r.end(); ++v) {
      float* d = &vertex_dops_[v * stride];
      for (int i = 0; i < half_; ++i) {
        const Vec3& dir = directions_[std::size_t(i)];
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const Vec3* x : {&motion.start[v], &motion.end[v]}) {
          const double p = dir.dot(*x);
          const double slack =
              kProjectionSlack * (std::fabs(dir.x() * x->x()) + std::fabs(dir.y() * x->y()) + std::fabs(dir.z() * x->z())) +
              kAbsoluteSlack;
          lo = std::min(lo, p - slack);
          hi = std::max(hi, p + slack);
        }
        d[i] = round_down(lo);
        d[half_ + i] = round_up(hi);
      }
    }
  });
}

void SweptTree::fit_leaf(std::size_t node) {
  float* d = &dops_[node * 2 * std::size_t(half_)];
  const TriangleIndices& tri = topology_->triangles[nodes_[node].triangle];
  const float* a = vertex_dop(tri[0]);
  const float* b = vertex_dop(tri[1]);
  const float* c = vertex_dop(tri[2]);
  for (int i = 0; i < half_; ++i) {
    d[i] = std::min({a[i], b[i], c[i]});
    d[half_ + i] = std::max({a[half_ + i], b[half_ + i], c[half_ + i]});
  }
}

void SweptTree::fit_inner(std::size_t node) {
  float* d = &dops_[node * 2 * std::size_t(half_)];
  const float* l = dop(std::size_t(nodes_[node].left));
  const float* r = dop(std::size_t(nodes_[node].right));
  for (int i = 0; i < half_; ++i) {
    d[i] = std::min(l[i], r[i]);
    d[half_ + i] = std::max(l[half_ + i], r[half_ + i]);
  }
}

void SweptTree::refit(const Motion& motion) {
  if (motion.start.size() != topology_->vertex_count || motion.end.size() != topology_->vertex_count)
    throw InputError("ccd: a motion's vertex count differs from the tree's mesh");
  fit_vertices(motion);
  // Children follow their parent in pre-order, so a reverse sweep over a subtree's range fits every
  // child before its parent. The subtrees of the cut are independent contiguous ranges: one task
  // each fits leaves and inner nodes in one cache-friendly pass (a separate leaf pass and a serial
  // sweep over all 2n - 1 nodes took most of the 14-22 ms tree update on the 92k cloth).
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cut_roots_.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      const std::size_t root = cut_roots_[c];
      fit_range_reverse(root, 2 * std::size_t(nodes_[root].count) - 1);
      if (use_ == Use::self_collision) fit_normals_reverse(root, 2 * std::size_t(nodes_[root].count) - 1, motion);
    }
  });
  for (std::size_t j = cut_top_.size(); j-- > 0;) {
    fit_inner(cut_top_[j]);
    if (use_ == Use::self_collision) fit_normals_reverse(cut_top_[j], 1, motion);
  }
}

void SweptTree::fit_normals_reverse(std::size_t first, std::size_t count, const Motion& motion) {
  for (std::size_t j = first + count; j-- > first;) {
    const Node& node = nodes_[j];
    if (node.left < 0) {
      const TriangleIndices& tri = topology_->triangles[node.triangle];
      normal_signs_[j] = triangle_normal_signs(motion.start[tri[0]], motion.start[tri[1]], motion.start[tri[2]],
                                               motion.end[tri[0]], motion.end[tri[1]], motion.end[tri[2]]);
    } else {
      normal_signs_[j] = normal_signs_[std::size_t(node.left)] & normal_signs_[std::size_t(node.right)];
    }
  }
}

void SweptTree::make_boundaries() {
  std::vector<PatchNode> patches(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) patches[i] = {nodes_[i].first, nodes_[i].count};
  boundaries_ = patch_boundaries(*topology_, patches, order_);
}

void SweptTree::fit_range_reverse(std::size_t first, std::size_t count) {
  for (std::size_t j = first + count; j-- > first;)
    if (nodes_[j].left < 0)
      fit_leaf(j);
    else
      fit_inner(j);
}

void SweptTree::make_cut() {
  cut_roots_.clear();
  cut_top_.clear();
  if (nodes_.empty()) return;
  // Pre-order walk: a node of at most kRefitChunkTriangles triangles is a cut root (its subtree is
  // not entered); the others are the top, listed in pre-order (parents before children).
  std::vector<std::size_t> stack{0};
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    if (nodes_[i].count <= kRefitChunkTriangles || nodes_[i].left < 0) {
      cut_roots_.push_back(i);
      continue;
    }
    cut_top_.push_back(i);
    stack.push_back(std::size_t(nodes_[i].right));
    stack.push_back(std::size_t(nodes_[i].left));
  }
}

double SweptTree::extent(std::size_t node) const {
  const float* d = dop(node);
  double e = 0;
  for (int i = 0; i < half_; ++i) e = std::max(e, double(d[half_ + i]) - double(d[i]));
  return e;
}

std::size_t SweptTree::restructure(const Motion& motion, double ratio) {
  std::size_t rebuilt = 0;
  std::vector<std::size_t> stack{0};
  if (nodes_.empty()) return 0;
  std::vector<Vec3> centres;
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    if (nodes_[i].left < 0) continue;
    if (extent(i) > ratio * built_extent_[i]) {
      // Rebuild this subtree in place with a median split over the current centres.
      if (centres.empty()) {
        centres.resize(topology_->triangles.size());
        for (std::size_t t = 0; t < centres.size(); ++t) {
          Vec3 c = Vec3::Zero();
          for (std::uint32_t v : topology_->triangles[t]) c += motion.start[v] + motion.end[v];
          centres[t] = c / 6.0;
        }
      }
      build_at(std::int32_t(i), nodes_[i].first, nodes_[i].count, centres);
      // build() placed the subtree at node i (same triangles, same node range); fit it.
      fit_range_reverse(i, 2 * std::size_t(nodes_[i].count) - 1);
      for (std::size_t j = i; j < i + 2 * nodes_[i].count - 1; ++j) built_extent_[j] = extent(j);
      ++rebuilt;
      continue;
    }
    stack.push_back(std::size_t(nodes_[i].left));
    stack.push_back(std::size_t(nodes_[i].right));
  }
  if (rebuilt > 0) {
    // A rebuilt subtree's inner structure changed: the cut's subtree boundaries with it, and its
    // nodes' patches.
    make_cut();
    if (use_ == Use::self_collision) make_boundaries();
    refit(motion);
  }
  return rebuilt;
}

}  // namespace kdopcd::ccd
