#include "kdopcd/collide.hpp"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <optional>

#include "kdopcd/error.hpp"
#include "kdopcd/sat_exact.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_float.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd/triangle_boxes.hpp"
#include "kdopcd/tri_tri.hpp"

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

// An axis of the float test in the form the inner loop wants. Every axis of make_sat_setup is
// one object's own face normal (even axes the first object's, odd axes the second's), whose
// mapping vector is exactly (-1, 0, 0): that object's interval is [-c[j0], c[opposite j0]]
// without a product. The result is bit-identical to float_axis_diffs, since -1 * x = -x and
// adding 0 * y changes no finite sum (up to the sign of a zero, which no strict comparison
// sees). A set-up from elsewhere (any other P) is evaluated by float_axis_diffs itself.
struct FloatAxis {
  int own_min, own_max;  // own object's interval: [-own[own_min], own[own_max]]
  int j[3], jk[3];       // the other object's triple and the opposite faces
  double P[3];
  double p;
};

constexpr std::array<double, 3> kOwnDirectionP{-1.0, 0.0, 0.0};

// Fills `out` for axis `index` of `ax`; false if the axis is not of the expected own kind.
bool make_float_axis(const AxisSetup& ax, int index, int half, FloatAxis& out) {
  const bool first_is_own = index % 2 == 0;
  if ((first_is_own ? ax.PB : ax.PA) != kOwnDirectionP) return false;
  const auto& own_j = first_is_own ? ax.jB : ax.jA;
  const auto& other_j = first_is_own ? ax.jA : ax.jB;
  const auto& other_P = first_is_own ? ax.PA : ax.PB;
  out.own_min = own_j[0];
  out.own_max = opposite_face(own_j[0], half);
  for (int i = 0; i < 3; ++i) {
    out.j[i] = other_j[i];
    out.jk[i] = opposite_face(other_j[i], half);
    out.P[i] = other_P[i];
  }
  out.p = ax.p;
  return true;
}

// Even axis: the first object ("B") owns it, the second ("A") is projected.
inline bool separates_first_own(const FloatAxis& f, const double* a, const double* b) {
  const double a_min = f.P[0] * a[f.j[0]] + f.P[1] * a[f.j[1]] + f.P[2] * a[f.j[2]];
  const double a_max = -(f.P[0] * a[f.jk[0]] + f.P[1] * a[f.jk[1]] + f.P[2] * a[f.jk[2]]);
  return ((a_min + f.p) - b[f.own_max]) > 0 || (-b[f.own_min] - (a_max + f.p)) > 0;
}

// Odd axis: the second object ("A") owns it, the first ("B") is projected.
inline bool separates_second_own(const FloatAxis& f, const double* a, const double* b) {
  const double b_min = f.P[0] * b[f.j[0]] + f.P[1] * b[f.j[1]] + f.P[2] * b[f.j[2]];
  const double b_max = -(f.P[0] * b[f.jk[0]] + f.P[1] * b[f.jk[1]] + f.P[2] * b[f.jk[2]]);
  return ((-a[f.own_min] + f.p) - b_max) > 0 || (b_min - (a[f.own_max] + f.p)) > 0;
}

// The axes of a query, each made on first use: a pair of roots separated by axis 0 costs one
// axis set-up instead of k.
class LazyAxes {
 public:
  LazyAxes(const OrientationSet& set, const Pose& pose)
      : set_(&set), M_(pose.matrix()), T_(pose.translation), half_(set.half()) {
    axes_.resize(set.k());
    ready_.assign(set.k(), 0);
  }
  explicit LazyAxes(const SatSetup& setup) : half_(setup.k / 2), general_(setup.axes) {
    axes_.resize(setup.axes.size());
    ready_.assign(setup.axes.size(), 1);
    for (std::size_t i = 0; i < setup.axes.size(); ++i)
      structured_ &= make_float_axis(setup.axes[i], int(i), half_, axes_[i]);
  }
  // False for a set-up whose axes are not own-direction axes in make_sat_setup's order.
  bool structured() const { return structured_; }
  const std::vector<AxisSetup>& general() const { return general_; }
  const FloatAxis& operator[](int i) {
    if (!ready_[i]) {
      make_float_axis(make_axis_setup(*set_, M_, T_, i), i, half_, axes_[i]);
      ready_[i] = 1;
    }
    return axes_[i];
  }

 private:
  const OrientationSet* set_ = nullptr;
  Mat3 M_;
  Vec3 T_;
  int half_;
  bool structured_ = true;
  std::vector<AxisSetup> general_;
  std::vector<FloatAxis> axes_;
  std::vector<char> ready_;
};

// The second object's placed vertices, each computed on first use (place_vertex rounds them
// exactly as place_vertices does), so a query pays only for the triangles it tests.
class LazyPlacement {
 public:
  LazyPlacement(const Mesh& mesh, const Pose& pose) : mesh_(&mesh), R_(pose.matrix()), t_(pose.translation) {
    placed_.resize(mesh.vertices.size());
    ready_.assign(mesh.vertices.size(), 0);
  }
  explicit LazyPlacement(const std::vector<Vec3>& placed) : given_(&placed) {}
  const Vec3& operator[](std::uint32_t v) {
    if (given_) return (*given_)[v];
    if (!ready_[v]) {
      placed_[v] = place_vertex(R_, t_, mesh_->vertices[v]);
      ready_[v] = 1;
    }
    return placed_[v];
  }

 private:
  const Mesh* mesh_ = nullptr;
  const std::vector<Vec3>* given_ = nullptr;
  Mat3 R_;
  Vec3 t_;
  std::vector<Vec3> placed_;
  std::vector<char> ready_;
};

// The triangle test of a query: the custom one if given, else the exact test on the placed
// doubles. `Placed` is a LazyPlacement or the vector of all placed vertices.
template <class Placed>
auto make_triangle_test(const Mesh& mf, const Mesh& ms, Placed& placed, const TriangleTest& custom) {
  return [&mf, &ms, &placed, &custom](int tf, int ts) {
    if (custom) return custom(std::uint32_t(tf), std::uint32_t(ts));
    const auto& s = ms.triangles[ts];
    return triangles_intersect(mf.corner(tf, 0), mf.corner(tf, 1), mf.corner(tf, 2), placed[s[0]], placed[s[1]],
                               placed[s[2]]);
  };
}

int axes_per_pair(const TraversalOptions& options, int k) { return options.axes <= 0 ? k : std::min(options.axes, k); }

// The float query: the fast path of the reference.
QueryResult collide_float(const DopTree& first, const DopTree& second, LazyAxes& axes, LazyPlacement& placed,
                          const TraversalOptions& options, const TriangleTest& custom_triangle_test) {
  const int half = first.k() / 2;
  const int n = axes_per_pair(options, first.k());
  auto triangle_test = make_triangle_test(first.mesh(), second.mesh(), placed, custom_triangle_test);
  if (!axes.structured()) {
    auto general_pair_test = [&](int nf, int ns) {
      const double* b = first.coefficients(nf).data();
      const double* a = second.coefficients(ns).data();
      for (int i = 0; i < n; ++i) {
        const AxisSetup& ax = axes.general()[i];
        if (float_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated())
          return PairVerdict{true, i + 1};
      }
      return PairVerdict{false, n};
    };
    return traverse(first, second, options, general_pair_test, triangle_test);
  }
  auto pair_test = [&](int nf, int ns) {
    const double* b = first.coefficients(nf).data();
    const double* a = second.coefficients(ns).data();
    int i = 0;
    for (; i + 1 < n; i += 2) {  // the pattern of make_sat_setup: first's own axis, then second's
      if (separates_first_own(axes[i], a, b)) return PairVerdict{true, i + 1};
      if (separates_second_own(axes[i + 1], a, b)) return PairVerdict{true, i + 2};
    }
    if (i < n && separates_first_own(axes[i], a, b)) return PairVerdict{true, i + 1};
    return PairVerdict{false, n};
  };
  return traverse(first, second, options, pair_test, triangle_test);
}

void check_same_k(const DopTree& first, const DopTree& second) {
  if (first.k() != second.k()) throw std::invalid_argument("collide: trees must share k");
}

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
  const int half = first.k() / 2;
  const int n = axes_per_pair(options, first.k());
  auto triangle_test = make_triangle_test(first.mesh(), second.mesh(), placed, custom_triangle_test);
  if (backend == SatBackend::Fixed) {
    // Quantized once per query: both trees in their centred frames at the scene scale, and the
    // set-up's P and p (the set-up must be made with the centred pose, see collide.hpp).
    const double s = scene_scale(first, second);
    const std::vector<QuantizedAxis> axes = quantize_setup(setup, s, fixed);
    const QuantizedTree qf(first, s, fixed.b), qs(second, s, fixed.b);
    auto fixed_pair_test = [&](int nf, int ns) {
      const std::int64_t* b = qf.coefficients(nf);
      const std::int64_t* a = qs.coefficients(ns);
      for (int i = 0; i < n; ++i)
        if (fixed_axis_diffs(a, b, half, axes[i], fixed).separated()) return PairVerdict{true, i + 1};
      return PairVerdict{false, n};
    };
    return traverse(first, second, options, fixed_pair_test, triangle_test);
  }
  auto exact_pair_test = [&](int nf, int ns) {
    const double* b = first.coefficients(nf).data();
    const double* a = second.coefficients(ns).data();
    return test_axes(setup, n, [&](const AxisSetup& ax) {
      return exact_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated();
    });
  };
  return traverse(first, second, options, exact_pair_test, triangle_test);
}

QueryResult collide(const DopTree& first, const DopTree& second, const Pose& pose, const TraversalOptions& options,
                    SatBackend backend, const FixedParams& fixed, const TriangleFixedParams& tri_params) {
  check_same_k(first, second);
  if (backend == SatBackend::Float) {
    LazyAxes axes(first.orientations(), pose);
    LazyPlacement placed(second.mesh(), pose);
    return collide_float(first, second, axes, placed, options, TriangleTest{});
  }
  if (backend != SatBackend::Fixed) {
    const SatSetup setup = make_sat_setup(first.orientations(), pose);
    const std::vector<Vec3> placed = place_vertices(second.mesh(), pose);
    return collide(first, second, setup, placed, options, backend, fixed);
  }
  // The fixed backend is the accelerator's arithmetic end to end, in the objects' centred frames
  // (docs/fixed-point.md §2): the SAT on centred coefficients with p = L . T_c, and the triangle
  // unit's test on quantized centred vertices (tri_fixed.hpp), each triangle quantized when first
  // reached. The double placed vertices are not used (the unit replaces the exact test).
  const Pose cpose = centred_pose(first, second, pose);
  const SatSetup setup = make_sat_setup(first.orientations(), cpose);
  const std::vector<Vec3> unused_placed;
  const double s = scene_scale(first, second);
  const QuantizedPose qpose = quantize_pose(cpose, s, tri_params);
  const std::vector<FixedVertex> first_q = quantize_vertices(first.mesh(), first.centre(), s, tri_params.v);
  const std::vector<FixedVertex> second_q = quantize_vertices(second.mesh(), second.centre(), s, tri_params.v);
  std::vector<std::optional<FixedTriangle>> first_tris(first.mesh().triangle_count());
  std::vector<std::optional<FixedTriangle>> second_tris(second.mesh().triangle_count());
  auto fixed_triangle = [&](const Mesh& mesh, std::uint32_t t, bool placed_by_pose) {
    const std::vector<FixedVertex>& q = placed_by_pose ? second_q : first_q;
    FixedTriangle out;
    for (int c = 0; c < 3; ++c) {
      const FixedVertex& v = q[mesh.triangles[t][c]];
      out.v[c] = placed_by_pose ? place_fixed_vertex(qpose, v) : lift_first_vertex(v, tri_params.m);
    }
    return out;
  };
  const TriangleTest unit = [&](std::uint32_t tf, std::uint32_t ts) {
    if (!first_tris[tf]) first_tris[tf] = fixed_triangle(first.mesh(), tf, false);
    if (!second_tris[ts]) second_tris[ts] = fixed_triangle(second.mesh(), ts, true);
    return fixed_triangles_intersect(*first_tris[tf], *second_tris[ts]);
  };
  return collide(first, second, setup, unused_placed, options, backend, fixed, unit);
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
