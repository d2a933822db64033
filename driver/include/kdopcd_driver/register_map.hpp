#pragma once
// The paper accelerator's host-visible encodings as the driver uses them: the generated contract
// (contract/accelerator_paper.json: register offsets, CONTROL/STATUS bits, counters, CONFIG and
// QUERY words; contract/formats.json: the axis-table entry and the descent-rule codes) and the
// conversions from the reference's types to those words. The driver, the query engine behind
// `kdop sim --engine rtl`, co-simulation and the testbenches use these names only.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "kdopcd/fixed_format.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd_contract/accelerator_paper.hpp"
#include "kdopcd_contract/formats.hpp"

namespace kdopcd::driver {

namespace paper = contract::paper;
namespace reg = contract::paper::reg;
using contract::format::clog2;

// The hardware code of a descent rule; the hardware has no Larger rule.
inline contract::format::DescentRule rule_code(DescentRule rule) {
  switch (rule) {
    case DescentRule::Shallower: return contract::format::DescentRule::kShallower;
    case DescentRule::First: return contract::format::DescentRule::kFirst;
    case DescentRule::Second: return contract::format::DescentRule::kSecond;
    default: break;
  }
  throw std::invalid_argument("accelerator: the hardware descends by the shallower, first or second rule only");
}

// One set-up axis (make_query_setup's fixed_axes) as an axis-table entry.
inline contract::format::AxisEntry axis_entry(const QuantizedAxis& ax) {
  contract::format::AxisEntry e;
  for (std::size_t i = 0; i < 3; ++i) {
    e.pa[i] = ax.PA[i];
    e.pb[i] = ax.PB[i];
    e.ja[i] = std::uint64_t(ax.jA[i]);
    e.jb[i] = std::uint64_t(ax.jB[i]);
  }
  e.p = ax.p;
  return e;
}

// The entry's 32-bit words, LSB first, as the host writes them at AXIS_TABLE + 64 a (both accelerators).
inline std::vector<std::uint32_t> pack_axis_entry(const QuantizedAxis& ax, int k, const FixedParams& f) {
  return contract::format::pack(axis_entry(ax), k, f.c, f.z);
}

}  // namespace kdopcd::driver
