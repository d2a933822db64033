// The signal-level wide SAT unit (sat_wide_model.hpp).
#include "sat_wide_model.hpp"

#include <bit>
#include <cstring>

namespace kdopcd::cosim {

bool SatSelected::operator==(const SatSelected& o) const {
  if (valid != o.valid) return false;
  if (!valid) return true;
  for (std::size_t l = 0; l < lane.size(); ++l)
    if (std::memcmp(&lane[l], &o.lane[l], sizeof(FixedOperands)) != 0) return false;
  return true;
}
bool SatProducts::operator==(const SatProducts& o) const {
  if (valid != o.valid) return false;
  if (!valid) return true;
  for (std::size_t l = 0; l < lane.size(); ++l) {
    const Lane &a = lane[l], &b = o.lane[l];
    if (a.a_pa != b.a_pa || a.bk_pb != b.bk_pb || a.b_pb != b.b_pb || a.ak_pa != b.ak_pa || a.p != b.p) return false;
  }
  return true;
}
bool SatCorrected::operator==(const SatCorrected& o) const {
  if (valid != o.valid) return false;
  if (!valid) return true;
  for (std::size_t l = 0; l < lane.size(); ++l)
    if (lane[l].diff1 != o.lane[l].diff1 || lane[l].diff2 != o.lane[l].diff2) return false;
  return true;
}
std::ostream& operator<<(std::ostream& os, const SatSelected& v) { return os << "selected{valid=" << v.valid << "}"; }
std::ostream& operator<<(std::ostream& os, const SatProducts& v) { return os << "products{valid=" << v.valid << "}"; }
std::ostream& operator<<(std::ostream& os, const SatCorrected& v) { return os << "corrected{valid=" << v.valid << "}"; }
std::ostream& operator<<(std::ostream& os, const SatSigns& v) {
  return os << "signs{valid=" << v.valid << ", lanes=" << v.lanes << "}";
}

SatWideModel::SatWideModel(sc_core::sc_module_name name, FixedParams fixed) : sc_module(name), fixed_(fixed) {
  SC_METHOD(axis_and_coefficient_selection);
  sensitive << clk_i.pos();
  dont_initialize();
  SC_METHOD(scalar_products);
  sensitive << clk_i.pos();
  dont_initialize();
  SC_METHOD(correction);
  sensitive << clk_i.pos();
  dont_initialize();
  SC_METHOD(sign_test);
  sensitive << clk_i.pos();
  dont_initialize();
}

// Stage 1: for each lane l (axis l of the table as cfg_i loaded it), the three coefficients of each object at the
// axis' face indices and at their antiparallel faces (fixed_axis_diffs' gather), with P'_A, P'_B, p'.
void SatWideModel::axis_and_coefficient_selection() {
  SatSelected s;
  if (!rst_ni.read()) {
    select_regs_.clear();
    selected_.write(SatSelected{});
    return;
  }
  s.valid = valid_i.read();
  if (s.valid) {
    const auto a = BusWords<kCoefBusW>::of(coef_a_i.read());
    const auto b = BusWords<kCoefBusW>::of(coef_b_i.read());
    const auto &ja = ja_, &jb = jb_;
    const auto &pa = pa_, &pb = pb_;
    const auto& p = p_;
    std::array<std::int64_t, c2::kK> ca{}, cb{};
    for (int j = 0; j < c2::kK; ++j) {
      ca[std::size_t(j)] = a.get_signed(j * c2::kCoefW, c2::kCoefW);
      cb[std::size_t(j)] = b.get_signed(j * c2::kCoefW, c2::kCoefW);
    }
    constexpr int half = c2::kK / 2;
    for (int l = 0; l < c2::kK; ++l) {
      FixedOperands& o = s.lane[std::size_t(l)];
      for (int i = 0; i < 3; ++i) {
        const int jai = int(ja.get((l * 3 + i) * kJW, kJW)), jbi = int(jb.get((l * 3 + i) * kJW, kJW));
        o.PA[i] = pa.get_signed((l * 3 + i) * (c2::kC + 1), c2::kC + 1);
        o.PB[i] = pb.get_signed((l * 3 + i) * (c2::kC + 1), c2::kC + 1);
        o.a[i] = ca[std::size_t(jai)];
        o.ak[i] = ca[std::size_t(jai < half ? jai + half : jai - half)];
        o.b[i] = cb[std::size_t(jbi)];
        o.bk[i] = cb[std::size_t(jbi < half ? jbi + half : jbi - half)];
      }
      o.p = p.get_signed(l * kOffW, kOffW);
    }
  }
  if (cfg_i.read()) {  // after this clock's pair (none: the unit is empty at cfg_i)
    ja_ = BusWords<kJBusW>::of(ja_i.read());
    jb_ = BusWords<kJBusW>::of(jb_i.read());
    pa_ = BusWords<kPBusW>::of(pa_i.read());
    pb_ = BusWords<kPBusW>::of(pb_i.read());
    p_ = BusWords<kOffBusW>::of(p_i.read());
  }
  selected_.write(select_regs_.step(s));
}

// Stage 2: the four mapped triples of every lane (the products of the DSP slices and the sn terms).
void SatWideModel::scalar_products() {
  if (!rst_ni.read()) {
    product_regs_.clear();
    products_.write(SatProducts{});
    return;
  }
  const SatSelected& in = selected_.read();
  SatProducts s;
  s.valid = in.valid;
  if (s.valid)
    for (std::size_t l = 0; l < in.lane.size(); ++l) {
      const FixedOperands& o = in.lane[l];
      SatProducts::Lane& r = s.lane[l];
      r.a_pa = fixed_detail::mapped<false>(o.PA, o.a, fixed_.b, fixed_.c);
      r.bk_pb = fixed_detail::mapped<false>(o.PB, o.bk, fixed_.b, fixed_.c);
      r.b_pb = fixed_detail::mapped<false>(o.PB, o.b, fixed_.b, fixed_.c);
      r.ak_pa = fixed_detail::mapped<false>(o.PA, o.ak, fixed_.b, fixed_.c);
      r.p = o.p;
    }
  products_.write(product_regs_.step(s));
}

// Stage 3: the offset terms. fixed_diffs on operands that are all zero but p' is exactly its p'
// terms (+p1 in diff1', -p2 in diff2', conservative rounding included), as narrow_fixed_axis uses.
void SatWideModel::correction() {
  if (!rst_ni.read()) {
    correction_regs_.clear();
    corrected_.write(SatCorrected{});
    return;
  }
  const SatProducts& in = products_.read();
  SatCorrected s;
  s.valid = in.valid;
  if (s.valid)
    for (std::size_t l = 0; l < in.lane.size(); ++l) {
      const SatProducts::Lane& r = in.lane[l];
      FixedOperands zero{};
      zero.p = r.p;
      const FixedDiffs pterms = fixed_diffs<false>(zero, fixed_);
      s.lane[l].diff1 = r.a_pa + r.bk_pb + pterms.diff1;
      s.lane[l].diff2 = r.b_pb + r.ak_pa + pterms.diff2;
    }
  corrected_.write(correction_regs_.step(s));
}

// Stage 4: separated iff a difference is > 0 (FixedDiffs::separated); then the unit's register:
// the OR over the lanes and the first separating axis + 1 (K when none), as effective_o.
void SatWideModel::sign_test() {
  if (!rst_ni.read()) {
    sign_regs_.clear();
    valid_o.write(false);
    return;
  }
  const SatCorrected& in = corrected_.read();
  SatSigns s;
  s.valid = in.valid;
  if (s.valid)
    for (std::size_t l = 0; l < in.lane.size(); ++l)
      if (in.lane[l].separated()) s.lanes |= 1u << l;
  const SatSigns& lanes = sign_regs_.step(s);
  valid_o.write(lanes.valid);
  if (!lanes.valid) return;  // the RTL's payload registers load every clock; only valid ones matter
  lane_verdict_o.write(LaneBits(lanes.lanes));
  separated_o.write(lanes.lanes != 0);
  effective_o.write(EffPort(lanes.lanes != 0 ? std::countr_zero(lanes.lanes) + 1 : c2::kK));
}

}  // namespace kdopcd::cosim
