#pragma once
// Block-level co-simulation of the v2 engine (docs/cosim.md): a signal-level SystemC build of the
// engine whose SAT unit and triangle unit are sc_modules with the ports of the RTL modules
// (rtl/kdopcd_sat_wide.sv, rtl/kdopcd_tri_seq.sv), each of which can be swapped for its verilated
// RTL (Verilator --sc). The rest of the engine (scheduler, pending set, tree RAMs, queues,
// counters) is one sc_module with the RTL engine's schedule. The fast path for sweeps stays
// model::simulate; this build is for cornering a difference to one block.
//
// SystemC elaborates once per process: every configuration a process will run is elaborated on
// the first call (elaborate()), before the first sc_start of anyone, model::simulate included.
// This header does not include SystemC.
#include <cstdint>
#include <string>
#include <vector>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd_model/model.hpp"

namespace kdopcd::cosim {

// Which blocks run as verilated RTL; the others run as the signal-level model.
struct RtlBlocks {
  bool sat = false;
  bool tri = false;
  bool operator==(const RtlBlocks&) const = default;
  std::string name() const;  // "none", "sat", "tri", "sat+tri"
};

// The block names kdop sim --rtl-blocks knows, those with a verilated swap in this build, and
// those named by the design but not swappable yet (refused by name).
inline constexpr const char* kAvailableBlocks = "sat, tri";
inline constexpr const char* kPlannedBlocks = "ctrl, fetch";

// "sat", "tri", "sat,tri", "all" (every block with a verilated swap: sat and tri), "none" or "".
// Throws InputError naming a bad block and the allowed names; "ctrl" and "fetch" are refused as
// not available yet.
RtlBlocks parse_rtl_blocks(const std::string& list);

// The block output ports of one clock of a query (sampled at its rising edge); a payload is 0
// while its valid is low, since the RTL leaves it undefined then.
struct CycleRecord {
  bool sat_valid = false, sat_separated = false;
  std::uint32_t sat_effective = 0, sat_lane_verdict = 0;
  bool tri_valid = false, tri_hit = false;
  std::uint64_t tri_id = 0;
  bool out_valid = false;
  std::uint64_t out_data = 0;
  bool operator==(const CycleRecord&) const = default;
};

// "" when both traces are equal; otherwise the first clock and the signal that differs, with
// both values ("cycle 41: sat.separated_o: pure 1, mixed 0").
std::string first_difference(const std::vector<CycleRecord>& pure, const std::vector<CycleRecord>& mixed,
                             const std::string& pure_name = "pure", const std::string& mixed_name = "mixed");

struct CosimRun {
  RtlBlocks blocks;
  model::ModelResult result;  // contacts sorted; stats filled from the engine's counters
  std::vector<CycleRecord> trace;  // one record per clock of the query (when recorded)
};

// The signal-level build has the contract's parameters (like the RTL top): a ModelParams that
// leaves them is an InputError naming the option.
void check_params(const model::ModelParams& params, int k);

// Elaborates one signal-level top per configuration (once per process; a later call must name
// configurations already elaborated, or it throws std::logic_error).
void elaborate(const std::vector<RtlBlocks>& configs);

// Waves: a VCD (path ending in .vcd) of every elaborated top's unit ports and host signals, one
// scope per top (named by its configuration), all on one clock, so that the clock a difference
// names can be looked at in both runs side by side. Elaborates `configs` first; must come before
// the first sc_start of the process (SystemC traces only what exists when simulation starts).
void open_trace(const std::string& vcd_path, const std::vector<RtlBlocks>& configs);

// One query (pose) on the elaborated tops named by `configs` (all of them elaborated), run in
// lockstep on one clock; one result per configuration, in order.
std::vector<CosimRun> simulate(const DopTree& first, const DopTree& second, const Pose& pose,
                               const model::ModelParams& params, const std::vector<RtlBlocks>& configs,
                               bool record_trace);

}  // namespace kdopcd::cosim
