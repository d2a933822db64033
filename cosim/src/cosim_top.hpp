#pragma once
// What every top of the co-simulation offers its driver (cosim.cpp): the signal-level top with
// its four blocks (signal_top.hpp) and the whole verilated v2 top behind a bus host
// (rtl_top.hpp) run the same queries in lockstep on one clock and give the same record.
#include <systemc>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd_cosim/cosim.hpp"
#include "ports.hpp"

namespace kdopcd::cosim {

// What the host writes before START: the registers of the RTL top, as values (for the bus host
// of the whole top) and already split into the blocks' port vectors (for the signal-level top).
struct QueryInputs {
  JBus ja, jb;
  PBus pa, pb;
  OffBus p;
  RotBus rot;
  TransBus trans;
  std::uint32_t rule = 0, pending_limit = 0;
  std::array<std::array<std::int64_t, 3>, 3> M{};  // M' (ROT registers)
  std::array<std::int64_t, 3> T{};                 // T' (TRANS registers)
  std::vector<QuantizedAxis> axes;                 // the axis table (AXIS_TABLE registers)
};

class CosimTop {
 public:
  virtual ~CosimTop() = default;
  virtual const RtlBlocks& blocks() const = 0;
  // Arms a query (while idle); the trees are loaded first when `generation` is not the loaded one.
  virtual void arm(const TreeImage* first, const TreeImage* second, std::uint64_t generation, const QueryInputs& q,
                   bool record_trace) = 0;
  virtual bool loading() const = 0;   // the trees are being loaded
  virtual bool finished() const = 0;  // the armed query is done
  virtual bool overflow() const = 0;
  virtual std::array<std::uint64_t, c2::kNumCounters> counters() const = 0;  // the contract's order
  virtual const std::vector<std::uint64_t>& stream() const = 0;  // m_axis_tdata of every beat
  virtual const std::vector<CycleRecord>& trace() const = 0;     // one record per clock of the query
  virtual void add_to_trace(sc_core::sc_trace_file* tf, const std::string& scope) const = 0;
};

}  // namespace kdopcd::cosim
