#pragma once
// Exact triangle-pair tests in batches: the triangle stage of collide()'s wide descent (and of
// whatever times it, bench/fcl_bench.cpp). Pairs are collected in batches of kTriangleLanes and
// tested together in SIMD lanes (tri_tri_lanes.hpp); the pairs a batch leaves undecided (a vertex
// on or near the other triangle's plane, coplanar or degenerate triangles) are decided one by one
// by triangles_intersect on the same placed doubles. The contacts are triangles_intersect's, pair
// for pair; only the order they are found in changes (collide() sorts them).
#include <cstdint>
#include <vector>

#include "kdopcd/mesh.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd/tri_tri_lanes.hpp"

namespace kdopcd {

class TriangleBatch {
 public:
  // R, t: the second object's placement in the first object's frame (place_vertex's).
  TriangleBatch(const Mesh& first, const Mesh& second, const Mat3& R, const Vec3& t)
      : first_(&first), second_(&second), test_(triangle_lanes_test()) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) R_[3 * i + j] = R(i, j);
      t_[i] = t[i];
    }
  }

  // Tests triangle tf of the first object against triangle ts of the second, now or with the
  // batch it joins; contacts found go to `contacts`.
  void add(std::int32_t tf, std::int32_t ts, std::vector<ContactPair>& contacts) {
    const int l = count_;
    const auto& f = first_->triangles[std::size_t(tf)];
    const auto& s = second_->triangles[std::size_t(ts)];
    for (int v = 0; v < 3; ++v) {
      const Vec3& x = first_->vertices[f[std::size_t(v)]];
      const Vec3& y = second_->vertices[s[std::size_t(v)]];
      for (int c = 0; c < 3; ++c) {
        lanes_.first[3 * v + c][l] = x[c];
        lanes_.second[3 * v + c][l] = y[c];
      }
    }
    pairs_[l] = {std::uint32_t(tf), std::uint32_t(ts)};
    if (++count_ == kTriangleLanes) run(contacts);
  }

  // Tests the pairs still waiting.
  void finish(std::vector<ContactPair>& contacts) {
    if (count_ == 0) return;
    for (int l = count_; l < kTriangleLanes; ++l)  // finite copies of pair 0 in the unused lanes
      for (int r = 0; r < 9; ++r) {
        lanes_.first[r][l] = lanes_.first[r][0];
        lanes_.second[r][l] = lanes_.second[r][0];
      }
    run(contacts);
  }

 private:
  void run(std::vector<ContactPair>& contacts) {
    const TriangleLaneVerdicts verdicts = test_(lanes_, count_, R_, t_);
    for (int l = 0; l < count_; ++l) {
      bool meet;
      if (verdicts.decided >> l & 1u) {
        meet = (verdicts.intersecting >> l & 1u) != 0;
      } else {
        auto point = [&](const double (*rows)[kTriangleLanes], int v) {
          return Vec3(rows[3 * v][l], rows[3 * v + 1][l], rows[3 * v + 2][l]);
        };
        meet = triangles_intersect(point(lanes_.first, 0), point(lanes_.first, 1), point(lanes_.first, 2),
                                   point(lanes_.placed, 0), point(lanes_.placed, 1), point(lanes_.placed, 2));
      }
      if (meet) contacts.push_back(pairs_[l]);
    }
    count_ = 0;
  }

  const Mesh* first_;
  const Mesh* second_;
  TriangleLanesTest test_;
  double R_[9], t_[3];
  int count_ = 0;
  ContactPair pairs_[kTriangleLanes];
  TriangleLanes lanes_;
};

}  // namespace kdopcd
