#pragma once
// The float query's extra axis for a pair of a leaf and an inner node: the leaf triangle's plane.
//
// A DOP pair test projects both nodes on the trees' k slab directions only. When one node is a
// single triangle much larger than the other node, the plane of that triangle is a far better
// separating axis (a small object beside a large triangle, e.g. bunny00 at the armadillo's
// surface: the small object's whole tree overlaps the large triangle's DOP, while the triangle's
// plane passes beside most of it). The test is conservative: it separates only where the inner
// node's box lies strictly on one side of the plane by a margin far above every rounding, so no
// contact below that node is lost.
//
// Soundness. Fix the computed normal n (a rounded cross product; any vector will do). The leaf
// triangle is the convex hull of its three vertices, so n . x over it spans [min n . v_i,
// max n . v_i]. Every triangle below the inner node lies in the node's axis-aligned slabs (its
// DOP's directions 0..2 are the coordinate axes, its coefficients moved outward), so n . x over
// them lies in the box's interval. Disjoint intervals mean no common point. The intervals are
// computed in doubles; the second object enters through its placed vertices fl(M v + T) (the
// triangle test's operands), which differ from M v + T, and M from an orthogonal matrix, by a few
// units in the last place of the magnitudes; every rounding here is of that order too. The
// margin, 4e-12 of the magnitudes of all terms (some 10^4 units in the last place), covers them
// all far over.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/vec.hpp"

namespace kdopcd::detail {

class LeafPlaneTest {
  // A triangle's normal n, the span [low, high] of n . x over it, and |n|_1 times (its largest
  // |coordinate| + |T|_1), the magnitudes of the terms other than the box's.
  struct Plane {
    Vec3 n;
    double low, high, n_l1, magnitude;
  };
  // A leaf's plane as it meets the other object's boxes: box_n . x + offset is n . x at the box's
  // point x, in the other object's frame.
  struct LeafPlane {
    Plane p;
    Vec3 box_n;
    double offset;
  };

 public:
  // Only a leaf at least this many times the inner node's size (DopTree::size) is tried: beside
  // nodes of about its own size a triangle's plane rarely separates what the slabs do not, and
  // the test cost more than it saved on the benchmark's equal-sized pairs (cow/cow,
  // mushroom/couplingdown, at 2 and at 1).
  static constexpr double kLeafToInnerSize = 4.0;

  // M, T: the second object's placement in the first object's frame (the query's pose), kept by
  // reference (they outlive the query).
  LeafPlaneTest(const DopTree& first, const DopTree& second, const Mat3& M, const Vec3& T)
      : first_(&first), second_(&second), M_(&M), T_(&T), translation_l1_(T.cwiseAbs().sum()),
        half_(std::size_t(first.k() / 2)) {}

  // Whether the plane of the leaf's triangle separates the pair (nf, ns), of which exactly one
  // node is a leaf (traverse()'s leaf_inner_test), if the leaf is at least kLeafToInnerSize times
  // the other's size (else false). Thread-safe.
  bool separates(std::int32_t nf, std::int32_t ns) const { return Memo(*this).separates(nf, ns); }

  // separates() for one thread, keeping the last leaf's plane: a descent tests one leaf against
  // many nodes of the other tree in a row. The same operations, so the same answers.
  class Memo {
   public:
    explicit Memo(const LeafPlaneTest& test) : test_(&test) {}
    bool separates(std::int32_t nf, std::int32_t ns) {
      const bool first_leaf = test_->first_->node(std::size_t(nf)).is_leaf();
      if (!test_->size_rule_admits(nf, ns, first_leaf)) return false;
      const std::int32_t leaf = first_leaf ? nf : ns;
      if (leaf != leaf_ || first_leaf != first_leaf_) {
        plane_ = test_->leaf_plane(first_leaf, leaf);
        leaf_ = leaf;
        first_leaf_ = first_leaf;
      }
      return test_->apart(plane_, first_leaf, first_leaf ? ns : nf);
    }

   private:
    const LeafPlaneTest* test_;
    std::int32_t leaf_ = -1;
    bool first_leaf_ = false;
    LeafPlane plane_{};
  };

 private:
  bool size_rule_admits(std::int32_t nf, std::int32_t ns, bool first_leaf) const {
    const double leaf_size = first_leaf ? first_->size(std::size_t(nf)) : second_->size(std::size_t(ns));
    const double inner_size = first_leaf ? second_->size(std::size_t(ns)) : first_->size(std::size_t(nf));
    return leaf_size >= kLeafToInnerSize * inner_size;
  }

  LeafPlane leaf_plane(bool first_leaf, std::int32_t leaf) const {
    const Mat3& M = *M_;
    const Vec3& T = *T_;
    if (first_leaf) {
      // The first object's triangle in its own frame against the second node's box in the
      // second's frame: n . (M x + T) = (M^T n) . x + n . T.
      const Plane p = plane(first_->mesh(), std::size_t(first_->node(std::size_t(leaf)).triangle));
      return {p, M.transpose() * p.n, p.n.dot(T)};
    }
    // The second object's triangle in its frame against the first node's box mapped into it:
    // n . M^T (x - T) = (M n) . x - (M n) . T.
    const Plane p = plane(second_->mesh(), std::size_t(second_->node(std::size_t(leaf)).triangle));
    const Vec3 Mn = M * p.n;
    return {p, Mn, -Mn.dot(T)};
  }

  Plane plane(const Mesh& mesh, std::size_t t) const {
    const Vec3 &a = mesh.corner(t, 0), &b = mesh.corner(t, 1), &c = mesh.corner(t, 2);
    const Vec3 n = (b - a).cross(c - a);
    const double ta = n.dot(a), tb = n.dot(b), tc = n.dot(c);
    const double n_l1 = n.cwiseAbs().sum();
    const double largest = std::max({a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff(), c.cwiseAbs().maxCoeff()});
    return {n, std::min({ta, tb, tc}), std::max({ta, tb, tc}), n_l1, n_l1 * (largest + translation_l1_)};
  }

  // The leaf's plane against the box of the other object's node `inner`.
  bool apart(const LeafPlane& leaf, bool first_leaf, std::int32_t inner) const {
    const double* box = (first_leaf ? second_ : first_)->coefficients(std::size_t(inner)).data();
    const Plane& p = leaf.p;
    double low = leaf.offset, high = leaf.offset, box_l1 = 0;
    for (std::size_t i = 0; i < 3; ++i) {  // x_i in [-box[half + i], box[i]]
      const double up = leaf.box_n[i] * box[i], down = -leaf.box_n[i] * box[half_ + i];
      low += std::min(up, down);
      high += std::max(up, down);
      box_l1 += std::max(std::fabs(box[i]), std::fabs(box[half_ + i]));
    }
    const double margin = 4e-12 * (p.magnitude + 2 * p.n_l1 * box_l1);
    return low > p.high + margin || high < p.low - margin;
  }

  const DopTree* first_;
  const DopTree* second_;
  const Mat3* M_;
  const Vec3* T_;
  double translation_l1_;  // |T|_1, a term of every plane's margin
  std::size_t half_;
};

}  // namespace kdopcd::detail
