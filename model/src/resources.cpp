#include "kdopcd_model/resources.hpp"

#include <algorithm>

namespace kdopcd::model {
namespace {

int ceil_div(std::uint64_t a, std::uint64_t b) { return int((a + b - 1) / b); }

// DSPs of the fully pipelined exact triangle unit (one test per clock) as synthesized per
// submodule at v = m = 24 (docs/synthesis.md); a unit with initiation interval II shares them.
constexpr int kTriangleUnitDspPerTestPerClock = 2628;

struct RamShape {
  std::uint64_t width, depth;
};

int tiles(const RamShape& r, std::uint64_t tile_depth) {
  return ceil_div(r.width, 72) * ceil_div(std::max<std::uint64_t>(r.depth, 1), tile_depth);
}

}  // namespace

Resources estimate_resources(const ModelParams& p, int k, const TreeImage& first, const TreeImage& second) {
  Resources r;
  const int n = p.axes <= 0 ? k : std::min(p.axes, k);
  const int b = p.fixed.b, c = p.fixed.c;
  const int dsp_per_product = ceil_div(std::uint64_t(b + 2), 25) * ceil_div(std::uint64_t(std::max(c - 1, 1)), 17);
  r.node_record_bits = std::uint64_t(kTreeImageLinkBits + k * (b + 2));
  r.triangle_record_bits = std::uint64_t(9 * (p.vertex_bits + 2));
  const std::uint64_t nodes = first.nodes.size() + second.nodes.size();
  const std::uint64_t tris = first.triangles.size() + second.triangles.size();
  const std::uint64_t pair_entry_bits = 2 * 32;
  if (p.arch == Architecture::Paper) {
    // One-axis pipelines: both objects' triples, 12 products per pipeline.
    r.sat_products = 12 * p.pipelines;
    r.triangle_dsp = kTriangleUnitDspPerTestPerClock;
    r.ram_copies = 0;
    r.buffer_bits = std::uint64_t(p.stack_depth) * pair_entry_bits + 4 * r.node_record_bits;
  } else {
    const int lanes = p.sat_lanes > 0 ? std::min(p.sat_lanes, n) : n;
    // A lane tests one axis, a face normal of one object: only the other object's triple is mapped.
    r.sat_products = 6 * lanes * p.sat_units * p.engines;
    r.triangle_dsp = p.engines * ceil_div(kTriangleUnitDspPerTestPerClock, std::uint64_t(p.triangle_ii));
    const int ports = p.sat_units * p.engines;
    r.ram_copies = ceil_div(std::uint64_t(ports), 2);
    if (p.tree_memory == TreeMemory::OnChip) {
      const int tri_copies = ceil_div(std::uint64_t(p.engines), 2);
      r.tree_ram_bits = std::uint64_t(r.ram_copies) * nodes * r.node_record_bits +
                        std::uint64_t(tri_copies) * tris * r.triangle_record_bits;
    }
    const int groups = ceil_div(std::uint64_t(n), std::uint64_t(lanes));
    const int latency = p.pipeline_latency > 0 ? p.pipeline_latency : kWideSatLatency;
    const int contexts = groups > 1 ? (p.sat_contexts > 0 ? p.sat_contexts : latency + 1) : 0;  // as V2Engine
    const std::uint64_t per_engine =
        std::uint64_t(p.stack_depth) * pair_entry_bits + std::uint64_t(p.pairs_in_flight) * (pair_entry_bits + 8) +
        std::uint64_t(p.sat_units) * std::uint64_t(contexts) * 2 * r.node_record_bits +
        std::uint64_t(p.triangle_queue) * pair_entry_bits + std::uint64_t(p.contact_queue) * pair_entry_bits;
    r.buffer_bits = per_engine * std::uint64_t(p.engines);
    if (p.tree_memory == TreeMemory::External)
      r.buffer_bits += 2 * std::uint64_t(p.node_cache_lines) * (r.node_record_bits + 32);
  }
  r.sat_dsp = r.sat_products * dsp_per_product;
  return r;
}

const std::vector<FpgaPart>& fpga_parts() {
  static const std::vector<FpgaPart> parts{
      {"xc7a200t (Artix-7)", 365, 0, 740},
      {"xczu9eg (Zynq UltraScale+)", 912, 0, 2520},
      {"xcku5p (Kintex UltraScale+)", 480, 64, 1824},
      {"xcvu9p (Virtex UltraScale+)", 2160, 960, 6840},
      {"xcu250 (Alveo U250)", 2688, 1280, 12288},
      {"xcu55c (Alveo U55C)", 2016, 960, 9024},
  };
  return parts;
}

PartFit fit_part(const FpgaPart& part, const ModelParams& p, int k, const TreeImage& first, const TreeImage& second) {
  PartFit f;
  f.part = part;
  const Resources r = estimate_resources(p, k, first, second);
  std::vector<std::pair<RamShape, int>> rams;  // shape, copies
  if (p.arch == Architecture::V2 && p.tree_memory == TreeMemory::OnChip) {
    const int tri_copies = ceil_div(std::uint64_t(p.engines), 2);
    for (const TreeImage* t : {&first, &second}) {
      rams.push_back({{r.node_record_bits, t->nodes.size()}, r.ram_copies});
      rams.push_back({{r.triangle_record_bits, t->triangles.size()}, tri_copies});
    }
  }
  int uram_left = part.uram;
  for (const auto& [shape, copies] : rams) {
    const int u = tiles(shape, 4096);
    for (int i = 0; i < copies; ++i) {
      if (u <= uram_left) {
        uram_left -= u;
        f.uram_used += u;
      } else {
        f.bram36_used += tiles(shape, 512);
      }
    }
  }
  f.bram36_used += ceil_div(r.buffer_bits, 36 * 1024);
  f.ram_fits = f.bram36_used <= part.bram36 && f.uram_used <= part.uram;
  f.dsp_fits = r.dsp() <= part.dsp;
  return f;
}

}  // namespace kdopcd::model
