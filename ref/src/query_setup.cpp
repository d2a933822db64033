// The host part of the query set-up (query_setup.hpp). Compiled without contraction into fused
// multiply-adds (ref/CMakeLists.txt), like every host file that runs the shared per-axis core.
#include "kdopcd/query_setup.hpp"

#include <stdexcept>
#include <string>

#include "kdopcd/error.hpp"

namespace kdopcd {

void throw_setup_status(SetupStatus status, const char* what) {
  const std::string where(what);
  switch (status) {
    case SetupStatus::Ok: break;
    case SetupStatus::NoFaceTriple: throw std::logic_error(where + ": no face triple for an axis (non-finite rotation?)");
    case SetupStatus::MappingBelowMinusOne: throw std::logic_error(where + ": mapping vector below -1");
    case SetupStatus::BadFixedParams: throw InputError(where + ": fixed-point b, c, z outside [4, 44]");
    case SetupStatus::BadTriangleParams:
      throw std::invalid_argument(where + ": triangle unit needs v >= 1, m >= 1, v + m <= 56");
    case SetupStatus::BadScale: throw std::invalid_argument(where + ": scene scale s must be finite and > 0");
    case SetupStatus::NonFiniteRotation: throw std::invalid_argument(where + ": rotation is not finite");
  }
  throw std::logic_error(where + ": unknown set-up status " + std::to_string(int(status)));
}

AxisSetup to_axis_setup(const DoubleAxis& axis) {
  AxisSetup out;
  out.L = Vec3(axis.L[0], axis.L[1], axis.L[2]);
  for (int c = 0; c < 3; ++c) {
    out.jA[std::size_t(c)] = axis.jA[c];
    out.PA[std::size_t(c)] = axis.PA[c];
    out.jB[std::size_t(c)] = axis.jB[c];
    out.PB[std::size_t(c)] = axis.PB[c];
  }
  out.p = axis.p;
  return out;
}

DoubleAxis to_double_axis(const AxisSetup& axis) {
  DoubleAxis out;
  for (int c = 0; c < 3; ++c) {
    out.L[c] = axis.L[c];
    out.jA[c] = axis.jA[std::size_t(c)];
    out.PA[c] = axis.PA[std::size_t(c)];
    out.jB[c] = axis.jB[std::size_t(c)];
    out.PB[c] = axis.PB[std::size_t(c)];
  }
  out.p = axis.p;
  return out;
}

QueryPoseView make_query_pose_view(const Pose& pose, const Vec3& first_centre, const Vec3& second_centre, double s,
                                   const FixedParams& fixed) {
  const Mat3 M = pose.matrix();
  const Vec3 Tc = centred_translation(M, pose.translation, first_centre, second_centre);
  QueryPoseView q;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) q.M[3 * r + c] = M(r, c);
    q.T[r] = pose.translation[r];
    q.Tc[r] = Tc[r];
  }
  q.s = s;
  q.fixed = fixed;
  return q;
}

QuerySetup make_query_setup(const DopTree& first, const DopTree& second, const Pose& pose, const FixedParams& fixed,
                            const TriangleFixedParams& tri) {
  if (first.k() != second.k()) throw std::invalid_argument("query set-up: trees must share k");
  validate_fixed_params(fixed);  // InputError with the offending value
  check_triangle_params(tri);
  const OrientationSet& set = first.orientations();
  const int k = set.k();
  QuerySetup out;
  out.scale = scene_scale(first, second);
  const QueryPoseView q = make_query_pose_view(pose, first.centre(), second.centre(), out.scale, fixed);
  out.centred = Pose{pose.rotation, Vec3(q.Tc[0], q.Tc[1], q.Tc[2])};
  out.float_axes.resize(std::size_t(k));
  out.fixed_axes.resize(std::size_t(k));
  const OrientationView view = set.view();
  for (int i = 0; i < k; ++i) {
    const SetupStatus status = make_query_axis(view, q, i, &out.float_axes[std::size_t(i)], &out.fixed_axes[std::size_t(i)]);
    if (status != SetupStatus::Ok) throw_setup_status(status, "query set-up");
  }
  const SetupStatus status = make_triangle_pose(q.M, q.Tc, out.scale, tri, out.triangle_pose);
  if (status != SetupStatus::Ok) throw_setup_status(status, "query set-up");
  return out;
}

}  // namespace kdopcd
