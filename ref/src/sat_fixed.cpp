#include "kdopcd/sat_fixed.hpp"

#include <fmt/format.h>

#include <charconv>

#include "kdopcd/error.hpp"
#include "kdopcd/query_setup.hpp"

namespace kdopcd {

void validate_fixed_params(const FixedParams& params) {
  for (const auto& [name, value] : {std::pair{"b", params.b}, std::pair{"c", params.c}, std::pair{"z", params.z}})
    if (value < kMinFixedBits || value > kMaxFixedBits)
      throw InputError(fmt::format("fixed-point {} = {} outside [{}, {}]", name, value, kMinFixedBits, kMaxFixedBits));
}

FixedParams parse_fixed_params(const std::string& text) {
  int values[3] = {0, 0, 0};
  int count = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while (true) {
    if (count == 3) throw InputError(fmt::format("bits '{}': expected b,c,z or one number", text));
    const auto [next, ec] = std::from_chars(p, end, values[count]);
    if (ec != std::errc() || next == p) throw InputError(fmt::format("bits '{}': expected b,c,z or one number", text));
    ++count;
    p = next;
    if (p == end) break;
    if (*p != ',') throw InputError(fmt::format("bits '{}': expected b,c,z or one number", text));
    ++p;
  }
  if (count == 2) throw InputError(fmt::format("bits '{}': expected b,c,z or one number", text));
  FixedParams out = count == 1 ? FixedParams{values[0], values[0], values[0]} : FixedParams{values[0], values[1], values[2]};
  validate_fixed_params(out);
  return out;
}

double scene_scale(const DopTree& first, const DopTree& second) {
  return scene_scale_of(first.centred_largest_coefficient(), second.centred_largest_coefficient());
}

Pose centred_pose(const DopTree& first, const DopTree& second, const Pose& pose) {
  return centred_pose(pose, first.centre(), second.centre());
}

FixedOffsetEstimate estimate_fixed_offsets(const Mat3& M, const Vec3& translation, const Vec3& first_centre,
                                           const Vec3& second_centre, double s) {
  // Whole-vector expressions (no per-element loop): the sums may be rounded in any order.
  FixedOffsetEstimate e;
  e.x = M * second_centre + (translation - first_centre);
  e.mass = M.cwiseAbs() * second_centre.cwiseAbs() + (translation.cwiseAbs() + first_centre.cwiseAbs());
  e.inv_s = 1.0 / s;
  return e;
}

QuantizedAxis quantize_axis(const AxisSetup& axis, double s, const FixedParams& params) {
  return quantize_double_axis(to_double_axis(axis), s, params);
}

std::vector<QuantizedAxis> quantize_setup(const SatSetup& setup, double s, const FixedParams& params) {
  validate_fixed_params(params);
  std::vector<QuantizedAxis> out;
  out.reserve(setup.axes.size());
  for (const AxisSetup& axis : setup.axes) out.push_back(quantize_axis(axis, s, params));
  return out;
}

RealOperands real_operands(const double* a, const double* b, int half, const AxisSetup& axis, double s) {
  RealOperands r;
  const int k = 2 * half;
  for (int i = 0; i < 3; ++i) {
    r.PA[i] = axis.PA[i];
    r.PB[i] = axis.PB[i];
    r.a[i] = scale_coefficient(a[axis.jA[i]], s);
    r.ak[i] = scale_coefficient(a[(axis.jA[i] + half) % k], s);
    r.b[i] = scale_coefficient(b[axis.jB[i]], s);
    r.bk[i] = scale_coefficient(b[(axis.jB[i] + half) % k], s);
  }
  r.p = scale_offset(axis.p, s);
  return r;
}

QuantizedTree::QuantizedTree(const DopTree& tree, double s, int b) : k_(tree.k()), scale_(s), bits_(b) {
  if (b < kMinFixedBits || b > kMaxFixedBits) throw InputError(fmt::format("fixed-point b = {} out of range", b));
  const std::vector<double> all = centred_coefficients(tree);
  coeffs_.resize(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const double scaled = scale_coefficient(all[i], s);
    if (!(scaled >= -1.0 && scaled <= 1.0))
      throw std::invalid_argument("QuantizedTree: a coefficient exceeds the scene scale");
    coeffs_[i] = quantize_coefficient(scaled, b);
  }
}

}  // namespace kdopcd

namespace kdopcd {

std::shared_ptr<const QuantizedTree> quantized_tree(const DopTree& tree, double s, int b) {
  constexpr int kKindQuantizedTree = 1;  // DerivedCache kinds: 1 here, 2 to 4 in collide.cpp, 5 in wide_tree.cpp
  return tree.derived_cache().get<QuantizedTree>(kKindQuantizedTree, s, b, 0,
                                                 [&] { return QuantizedTree(tree, s, b); });
}

}  // namespace kdopcd
