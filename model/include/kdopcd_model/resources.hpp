#pragma once
// A first-order resource estimate of a model configuration and whether a scene's trees fit the
// on-chip RAM of a named FPGA (docs/model-v2.md, "Resources"). Estimates, not synthesis results:
// multipliers are counted from the datapath's structure, RAM from record widths and depths mapped
// onto 72-bit-wide block RAM (BRAM36: 512 deep) and UltraRAM (4096 deep) tiles.
#include <cstdint>
#include <string>
#include <vector>

#include "kdopcd/tree_image.hpp"
#include "kdopcd_model/model.hpp"

namespace kdopcd::model {

struct Resources {
  int sat_products = 0;              // (b+2) x (c+1)-bit products working every clock, all engines
  int sat_dsp = 0;                   // DSP48 slices for them (25 x 18; top two bits of P' in LUTs)
  int triangle_dsp = 0;              // triangle units: the fully pipelined unit's DSPs / II
  int dsp() const { return sat_dsp + triangle_dsp; }
  int ram_copies = 1;                // copies of each node RAM (two read ports per copy)
  std::uint64_t tree_ram_bits = 0;   // node + triangle records of both trees, all copies (0: external)
  std::uint64_t buffer_bits = 0;     // pending sets, in-flight slots, SAT contexts, queues, caches
  std::uint64_t node_record_bits = 0, triangle_record_bits = 0;
};

// `first`, `second`: the images of the scene (their record counts and widths).
Resources estimate_resources(const ModelParams& params, int k, const TreeImage& first, const TreeImage& second);

struct FpgaPart {
  std::string name;
  int bram36;  // 36 Kb block RAM tiles
  int uram;    // 288 Kb UltraRAM tiles
  int dsp;     // DSP48 slices
};
// A few parts from the vendors' product tables (7-series, Zynq/Kintex/Virtex UltraScale+, Alveo).
const std::vector<FpgaPart>& fpga_parts();

struct PartFit {
  FpgaPart part;
  int bram36_used = 0, uram_used = 0;
  bool ram_fits = false, dsp_fits = false;
};
// Maps the tree RAMs (and the buffers) onto the part, UltraRAM first where it has any.
PartFit fit_part(const FpgaPart& part, const ModelParams& params, int k, const TreeImage& first,
                 const TreeImage& second);

}  // namespace kdopcd::model
