#include "kdopcd/pose_classes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"

namespace kdopcd {

const char* to_string(PoseClass c) {
  switch (c) {
    case PoseClass::Intersecting: return "intersecting";
    case PoseClass::CloseProximity: return "close-proximity";
    case PoseClass::SmallProximity: return "small-proximity";
    case PoseClass::Separated: return "separated";
  }
  return "?";
}

namespace {

// Centre and size of a tree's root DOP along the coordinate axes (directions 0..2 of every set).
Vec3 root_centre(const DopTree& tree) {
  const auto c = tree.coefficients(0);
  const int h = tree.k() / 2;
  return Vec3(c[0] - c[h], c[1] - c[h + 1], c[2] - c[h + 2]) / 2;
}
double root_size(const DopTree& tree) {
  const auto c = tree.coefficients(0);
  const int h = tree.k() / 2;
  return std::max({c[0] + c[h], c[1] + c[h + 1], c[2] + c[h + 2]});
}

}  // namespace

std::array<ClassifiedPose, 4> make_pose_classes(const DopTree& first, const DopTree& second,
                                               const Eigen::Quaterniond& rotation, const Vec3& direction) {
  const Vec3 u = direction.normalized();
  const Eigen::Quaterniond q = rotation.normalized();
  // Place the second object's root centre at start + s u: start is the first object's centre, or,
  // where that gives no contact (a small object inside a large one, e.g. bunny00 inside the
  // armadillo), the first object's vertex farthest along u, whose surface then runs through the
  // second object; moving along u takes the second object out of the first from either start.
  Vec3 start = root_centre(first);
  const Vec3 second_centre = q.toRotationMatrix() * root_centre(second);
  auto pose_at = [&](double s) { return Pose{q, start - second_centre + s * u}; };
  const TraversalOptions options;
  auto contacts_at = [&](double s) { return collide(first, second, pose_at(s), options).stats.contacts; };
  const double size = std::max(root_size(first), root_size(second));

  double lo = 0, hi = 2 * size;
  if (contacts_at(lo) == 0) {
    const std::vector<Vec3>& vertices = first.mesh().vertices;
    start = *std::max_element(vertices.begin(), vertices.end(),
                              [&](const Vec3& a, const Vec3& b) { return u.dot(a) < u.dot(b); });
    if (contacts_at(lo) == 0)
      throw InputError(fmt::format(
          "{} and {}: no triangle touches another with the centres of the two objects together (one lies inside "
          "the other, or between its surfaces) nor with the second centred on the first's farthest vertex along "
          "the direction, so no intersecting pose was found; give another rotation or direction",
          first.mesh().name, second.mesh().name));
  }
  while (contacts_at(hi) != 0) hi *= 2;
  for (int i = 0; i < 50 && hi - lo > 1e-9 * size; ++i) {
    const double mid = (lo + hi) / 2;
    (contacts_at(mid) != 0 ? lo : hi) = mid;
  }
  // A contact-free pose at least `gap` beyond the touching distance (contacts need not vanish
  // monotonically with distance, so step outward until there is none).
  auto free_at = [&](double gap) {
    double s = hi + gap;
    while (contacts_at(s) != 0) s += gap;
    return s;
  };
  double deep = lo - 0.05 * size;
  if (deep < 0 || contacts_at(deep) == 0) deep = lo;
  return {{{PoseClass::Intersecting, pose_at(deep)},
           {PoseClass::CloseProximity, pose_at(free_at(0.002 * size))},
           {PoseClass::SmallProximity, pose_at(free_at(0.05 * size))},
           {PoseClass::Separated, pose_at(free_at(0.5 * size))}}};
}

}  // namespace kdopcd
