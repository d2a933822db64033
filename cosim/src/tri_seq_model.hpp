#pragma once
// The time-multiplexed triangle unit at signal level: the ports of rtl/common/kdopcd_tri_seq.sv (same
// names, widths, and Verilator --sc types), so the verilated RTL unit binds where this one does.
// The verdict is the reference's: fixed_triangles_intersect on the first triangle's stored
// vertices lifted by m bits and the second's placed by M', T' (lift_first_vertex,
// place_fixed_vertex), as the model's TriangleUnit. Timing is the RTL's contract: no stall,
// valid_i at clock t -> valid_o, hit_o, id_o at t + TRI_LAT; the caller starts at most one test
// every TRI_II clocks (an earlier one is reported as an error, as the RTL's assertion does).
#include <systemc>

#include <ostream>

#include "ports.hpp"

namespace kdopcd::cosim {

class TriSeqModel : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"}, valid_i{"valid_i"};
  sc_core::sc_in<TriBus> tri_a_i{"tri_a_i"}, tri_b_i{"tri_b_i"};
  sc_core::sc_in<RotBus> rot_i{"rot_i"};
  sc_core::sc_in<TransBus> trans_i{"trans_i"};
  sc_core::sc_in<IdPort> id_i{"id_i"};
  sc_core::sc_out<bool> valid_o{"valid_o"}, hit_o{"hit_o"};
  sc_core::sc_out<IdPort> id_o{"id_o"};

  SC_HAS_PROCESS(TriSeqModel);
  explicit TriSeqModel(sc_core::sc_module_name name);

 private:
  struct Test {
    bool valid = false, hit = false;
    std::uint64_t id = 0;
  };
  void placement_and_decision();  // one clocked process: the verdict at the start, then the latency
  bool verdict() const;

  Delay<Test, c2::kTriLat> pipe_;
  int since_start_ = c2::kTriIi;  // clocks since the last valid_i
};

}  // namespace kdopcd::cosim
