#pragma once
// Block-level co-simulation of the v2 engine (docs/cosim.md): a signal-level SystemC build of the
// engine whose four blocks are sc_modules with the ports of the RTL modules that kdopcd_v2_top
// wires together: ctrl (rtl/v2/kdopcd_v2_engine.sv: scheduler, pending set, verdict, queues,
// counters), fetch (rtl/v2/kdopcd_v2_fetch.sv: the tree RAMs), the SAT unit (rtl/common/kdopcd_sat_wide.sv)
// and the triangle unit (rtl/common/kdopcd_tri_seq.sv); each can be swapped for its verilated RTL
// (Verilator --sc). The fast path for sweeps stays model::simulate; this build is for cornering a
// difference to one block.
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
  bool ctrl = false;
  bool fetch = false;
  bool top = false;  // the whole verilated v2 top (register file and loader too) behind a bus host
  bool operator==(const RtlBlocks&) const = default;
  static RtlBlocks all() { return RtlBlocks{true, true, true, true, false}; }
  // "none", "top", or the verilated blocks joined by '+': "sat", "sat+tri+ctrl+fetch", ...
  std::string name() const;
};

// The block names kdop sim --rtl-blocks knows (each has a verilated swap).
inline constexpr const char* kBlockNames = "sat, tri, ctrl, fetch";

// A comma list of block names ("sat", "ctrl,fetch", ...), "all" (every block verilated: sat, tri,
// ctrl and fetch), "top" (the whole verilated top, alone), "none" or "". Throws InputError naming
// a bad block and the allowed names.
RtlBlocks parse_rtl_blocks(const std::string& list);

// The block output ports of one clock of a query (sampled at its rising edge); a payload is 0
// while its valid is low, since the RTL leaves it undefined then. Wide payloads (coefficient
// vectors, triangle records) are kept as a 64-bit hash of their words.
struct CycleRecord {
  bool ctrl_sat_valid = false;                         // ctrl.sat_valid_o
  std::uint64_t fetch_link_f = 0, fetch_link_s = 0;    // fetch.node_link_o, with ctrl.sat_valid_o
  std::uint64_t fetch_coef_a = 0, fetch_coef_b = 0;    // fetch.coef_a_o, coef_b_o (hash), with it
  bool ctrl_tri_valid = false;                         // ctrl.tri_valid_o
  std::uint64_t ctrl_tri_id = 0;                       // ctrl.tri_id_o, with ctrl.tri_valid_o
  std::uint64_t fetch_tri_a = 0, fetch_tri_b = 0;      // fetch.tri_a_o, tri_b_o (hash), with it
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
// Ends that trace: the file is closed and read back; an incomplete one (a write of SystemC's that
// failed, a full disk) throws InputError. Nothing when no trace is open.
void close_trace();

// One query (pose) on the elaborated tops named by `configs` (all of them elaborated), run in
// lockstep on one clock; one result per configuration, in order.
std::vector<CosimRun> simulate(const DopTree& first, const DopTree& second, const Pose& pose,
                               const model::ModelParams& params, const std::vector<RtlBlocks>& configs,
                               bool record_trace);

}  // namespace kdopcd::cosim
