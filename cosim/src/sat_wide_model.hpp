#pragma once
// The wide SAT unit at signal level: the ports of rtl/common/kdopcd_sat_wide.sv (same names, widths and
// the C++ types Verilator --sc gives them, ports.hpp), so the verilated RTL unit binds where this
// one does. One lane per axis of the table; A is the second object's node, B the first's.
//
// Its processes are the paper's four stages, with the RTL lane's clocks (kdopcd_sat_lane: select,
// two DSP registers, three adder levels, sign = 7 clocks) and the unit's first-separating-axis
// register (1 clock): valid_i at clock t -> valid_o at t + contract::v2::kSatLat.
//   axis_and_coefficient_selection  the 12 coefficients of each lane's axis (1 clock)
//   scalar_products                 P'.x' + sn(x') of the four triples (2 clocks)
//   correction                      the p' terms: diff1', diff2' (3 clocks)
//   sign_test                       diff > 0 per lane, then OR and the first separating axis (2)
// The arithmetic is the reference's (ref/include/kdopcd/sat_fixed.hpp): the selection is
// fixed_axis_diffs' gather, the products its fixed_detail::mapped, the p' terms fixed_diffs' own.
#include <systemc>

#include <ostream>

#include "kdopcd/sat_fixed.hpp"
#include "ports.hpp"

namespace kdopcd::cosim {

namespace sat_stage {
inline constexpr int kSelect = 1, kProducts = 2, kCorrection = 3, kSign = 1, kFirstAxis = 1;
static_assert(kSelect + kProducts + kCorrection + kSign == c2::kSatLaneLat, "the RTL lane's clocks");
static_assert(kSelect + kProducts + kCorrection + kSign + kFirstAxis == c2::kSatLat, "the RTL wide unit's clocks");
}  // namespace sat_stage

// Stage registers. A stage's payload is only meaningful with valid; equality ignores it otherwise
// so that idle clocks cause no events.
struct SatSelected {
  bool valid = false;
  std::array<FixedOperands, c2::kK> lane{};
  bool operator==(const SatSelected& o) const;
};
struct SatProducts {
  bool valid = false;
  struct Lane {
    __int128 a_pa, bk_pb, b_pb, ak_pa;  // P'_A.a' + sn(a'), P'_B.b'k + sn(b'k), P'_B.b' + sn(b'), P'_A.a'k + sn(a'k)
    std::int64_t p;
  };
  std::array<Lane, c2::kK> lane{};
  bool operator==(const SatProducts& o) const;
};
struct SatCorrected {
  bool valid = false;
  std::array<FixedDiffs, c2::kK> lane{};
  bool operator==(const SatCorrected& o) const;
};
struct SatSigns {
  bool valid = false;
  std::uint32_t lanes = 0;  // bit l: axis l separates
  bool operator==(const SatSigns& o) const = default;
};
std::ostream& operator<<(std::ostream& os, const SatSelected& v);
std::ostream& operator<<(std::ostream& os, const SatProducts& v);
std::ostream& operator<<(std::ostream& os, const SatCorrected& v);
std::ostream& operator<<(std::ostream& os, const SatSigns& v);
// Stage registers are not traced (a VCD has no type for them); the ports are.
inline void sc_trace(sc_core::sc_trace_file*, const SatSelected&, const std::string&) {}
inline void sc_trace(sc_core::sc_trace_file*, const SatProducts&, const std::string&) {}
inline void sc_trace(sc_core::sc_trace_file*, const SatCorrected&, const std::string&) {}
inline void sc_trace(sc_core::sc_trace_file*, const SatSigns&, const std::string&) {}

class SatWideModel : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"}, cfg_i{"cfg_i"}, valid_i{"valid_i"};
  sc_core::sc_in<CoefBus> coef_a_i{"coef_a_i"}, coef_b_i{"coef_b_i"};
  sc_core::sc_in<JBus> ja_i{"ja_i"}, jb_i{"jb_i"};
  sc_core::sc_in<PBus> pa_i{"pa_i"}, pb_i{"pb_i"};
  sc_core::sc_in<OffBus> p_i{"p_i"};
  sc_core::sc_out<bool> valid_o{"valid_o"};
  sc_core::sc_out<LaneBits> lane_verdict_o{"lane_verdict_o"};
  sc_core::sc_out<bool> separated_o{"separated_o"};
  sc_core::sc_out<EffPort> effective_o{"effective_o"};

  SC_HAS_PROCESS(SatWideModel);
  explicit SatWideModel(sc_core::sc_module_name name, FixedParams fixed = FixedParams{c2::kB, c2::kC, c2::kZ});

 private:
  void axis_and_coefficient_selection();
  void scalar_products();
  void correction();
  void sign_test();

  FixedParams fixed_;
  // The axis table as cfg_i loaded it.
  BusWords<kJBusW> ja_{}, jb_{};
  BusWords<kPBusW> pa_{}, pb_{};
  BusWords<kOffBusW> p_{};
  sc_core::sc_signal<SatSelected> selected_{"selected"};
  sc_core::sc_signal<SatProducts> products_{"products"};
  sc_core::sc_signal<SatCorrected> corrected_{"corrected"};
  Delay<SatSelected, sat_stage::kSelect> select_regs_;
  Delay<SatProducts, sat_stage::kProducts> product_regs_;
  Delay<SatCorrected, sat_stage::kCorrection> correction_regs_;
  // The lane sign register and the unit's OR / first-axis register: the OR and the priority
  // encoder are a function of the signs, so both registers hold the signs.
  Delay<SatSigns, sat_stage::kSign + sat_stage::kFirstAxis> sign_regs_;
};

}  // namespace kdopcd::cosim
