#pragma once
// The fetch block at signal level (rtl/v2/kdopcd_v2_fetch.sv): the node and triangle RAMs of both
// trees with the RTL's write ports (the host loads them as the RTL top's loader does) and read
// ports of latency RAM_LAT: the addresses of clock t are registered at the end of t, the records
// come out of the output registers in t + RAM_LAT, split for their users (link words to the
// engine, coefficient vectors to the SAT unit, triangle records to the triangle unit). Every
// output is a register, as the RTL's.
#include <systemc>

#include <vector>

#include "ports.hpp"

namespace kdopcd::cosim {

class FetchModel : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<std::uint32_t> node_we_i{"node_we_i"};
  sc_core::sc_in<NodeAddr> node_waddr_i{"node_waddr_i"};
  sc_core::sc_in<NodeRec> node_wdata_i{"node_wdata_i"};
  sc_core::sc_in<std::uint32_t> tri_we_i{"tri_we_i"};
  sc_core::sc_in<TriAddr> tri_waddr_i{"tri_waddr_i"};
  sc_core::sc_in<TriRec> tri_wdata_i{"tri_wdata_i"};
  sc_core::sc_in<NodeAddrBus> node_raddr_i{"node_raddr_i"};
  sc_core::sc_out<LinkBus> node_link_o{"node_link_o"};
  sc_core::sc_out<CoefBus> coef_a_o{"coef_a_o"}, coef_b_o{"coef_b_o"};
  sc_core::sc_in<TriAddrBus> tri_raddr_i{"tri_raddr_i"};
  sc_core::sc_out<TriRec> tri_a_o{"tri_a_o"}, tri_b_o{"tri_b_o"};

  SC_HAS_PROCESS(FetchModel);
  explicit FetchModel(sc_core::sc_module_name name);

 private:
  using NodeWords = BusWords<kNodeBits>;
  using TriWords = BusWords<c2::kTriBits>;
  struct Out {  // the records of one clock's reads: [0] first tree, [1] second tree
    std::array<NodeWords, 2> node;
    std::array<TriWords, 2> tri;
  };
  static_assert(c2::kRamLat >= 2, "one output register at least (RAM_LAT = 1 would read combinationally)");

  void on_clock();
  template <class Words>
  static const Words& read(const std::vector<Words>& mem, std::uint64_t addr);

  // The RAM arrays, grown on write (an address never written reads as zero: the RTL's is
  // undefined there, and the engine reads only what the loader wrote).
  std::array<std::vector<NodeWords>, 2> nodes_;
  std::array<std::vector<TriWords>, 2> tris_;
  std::uint64_t node_raddr_q_ = 0, tri_raddr_q_ = 0;  // the address registers
  Delay<Out, c2::kRamLat - 1> out_q_;                 // the output registers
};

}  // namespace kdopcd::cosim
