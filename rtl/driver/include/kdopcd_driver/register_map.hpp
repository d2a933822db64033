#pragma once
// The accelerator's register map and host-visible encodings, the C++ half of the contract with
// rtl/kdopcd_regs.sv (docs/accelerator.md, "Register map"): register offsets, CONTROL/STATUS
// bits, the counter block, and the packed axis-table entry. The driver, the query engine behind
// `kdop sim --engine rtl` and the testbenches use these names only.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kdopcd/fixed_format.hpp"
#include "kdopcd/sat_fixed.hpp"

namespace kdopcd::driver {

// ---------------------------------------------------------------------------------------------
// Register map (docs/accelerator.md)
namespace reg {
inline constexpr std::uint32_t kId = 0x000, kConfig0 = 0x004, kConfig1 = 0x008, kConfig2 = 0x00C;
inline constexpr std::uint32_t kControl = 0x010, kStatus = 0x014, kQuery = 0x018, kStackLimit = 0x01C;
inline constexpr std::uint32_t kANodeBase = 0x020, kATriBase = 0x028, kBNodeBase = 0x030, kBTriBase = 0x038;
inline constexpr std::uint32_t kRot = 0x040, kTrans = 0x064, kCounters = 0x080, kAxisTable = 0x400;
inline constexpr std::uint32_t kIdValue = 0x4B440601;
inline constexpr std::uint32_t kStart = 1u << 0, kClear = 1u << 1;  // CONTROL bits
inline constexpr std::uint32_t kBusy = 1u << 0, kDone = 1u << 1, kStackOverflow = 1u << 2, kBusError = 1u << 3,
                               kIdle = 1u << 4;  // STATUS bits
inline constexpr int kNumCounters = 13;
inline constexpr std::uint32_t kAxisEntryBytes = 64;
}  // namespace reg

inline int clog2(int x) {
  int r = 0;
  while ((1 << r) < x) ++r;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Port access helpers: a verilated port is an integer (<= 64 bits) or a VlWide<N> (32-bit words).
// ---------------------------------------------------------------------------------------------
// Axis table entry: the host-visible packed bit vector of docs/accelerator.md, LSB first:
// PA0 PA1 PA2 (c+1 bits each), PB0 PB1 PB2, p' (z+4), jA0 jA1 jA2, jB0 jB1 jB2 (clog2(k) each).
inline int axis_entry_bits(int k, const FixedParams& f) { return 6 * (f.c + 1) + (f.z + 4) + 6 * clog2(k); }

inline std::vector<std::uint32_t> pack_axis_entry(const QuantizedAxis& ax, int k, const FixedParams& f) {
  const int bits = axis_entry_bits(k, f);
  std::vector<std::uint32_t> words(std::size_t((bits + 31) / 32), 0);
  int pos = 0;
  auto put = [&](std::int64_t value, int width) {
    for (int i = 0; i < width; ++i, ++pos)
      if ((static_cast<std::uint64_t>(value) >> std::min(i, 63)) & 1) words[std::size_t(pos / 32)] |= 1u << (pos % 32);
  };
  const int jw = clog2(k);
  for (int i = 0; i < 3; ++i) put(ax.PA[i], f.c + 1);
  for (int i = 0; i < 3; ++i) put(ax.PB[i], f.c + 1);
  put(ax.p, f.z + 4);
  for (int i = 0; i < 3; ++i) put(ax.jA[i], jw);
  for (int i = 0; i < 3; ++i) put(ax.jB[i], jw);
  return words;
}

}  // namespace kdopcd::driver
