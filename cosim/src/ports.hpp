#pragma once
// Port types and widths of the signal-level blocks. The widths are the RTL modules' port widths
// at the contract's parameters; the C++ types are the ones Verilator --sc gives a port of that
// width (bool for 1 bit, uint32_t up to 32, uint64_t up to 64, sc_bv<W> beyond), so a model block
// and its verilated RTL bind to the same sc_signals.
#include <systemc>

#include <array>
#include <cstdint>
#include <type_traits>

#include "kdopcd_contract/accelerator_v2.hpp"

namespace kdopcd::cosim {

namespace c2 = contract::v2;

template <int W>
using PortT = std::conditional_t<
    W == 1, bool,
    std::conditional_t<(W <= 32), std::uint32_t, std::conditional_t<(W <= 64), std::uint64_t, sc_dt::sc_bv<W>>>>;

// kdopcd_sat_wide
inline constexpr int kJW = c2::clog2(c2::kK);                 // axis index bits
inline constexpr int kCoefBusW = c2::kK * c2::kCoefW;         // coef_a_i, coef_b_i
inline constexpr int kJBusW = c2::kK * 3 * kJW;               // ja_i, jb_i
inline constexpr int kPBusW = c2::kK * 3 * (c2::kC + 1);      // pa_i, pb_i
inline constexpr int kOffW = c2::kZ + 4;                      // one p'
inline constexpr int kOffBusW = c2::kK * kOffW;               // p_i
inline constexpr int kEffW = c2::clog2(c2::kK + 1);           // effective_o
// kdopcd_tri_seq
inline constexpr int kTriBusW = c2::kTriBits;                 // tri_a_i, tri_b_i
inline constexpr int kRotBusW = 9 * c2::kRotW;                // rot_i
inline constexpr int kTransBusW = 3 * c2::kTransW;            // trans_i
inline constexpr int kIdW = 64;                               // id_i, id_o

// kdopcd_v2_fetch
inline constexpr int kNodeBits = c2::kNodeBits;               // node_wdata_i: link word + K coefficients
inline constexpr int kLinkBusW = 2 * 64;                      // node_link_o: both link words
inline constexpr int kNodeAddrBusW = 2 * c2::kNodeAw;         // node_raddr_i: both trees
inline constexpr int kTriAddrBusW = 2 * c2::kTriAw;           // tri_raddr_i
// kdopcd_v2_engine
inline constexpr int kCountersW = c2::kNumCounters * 64;      // counters_o

using CoefBus = PortT<kCoefBusW>;
using NodeRec = PortT<kNodeBits>;
using TriRec = PortT<c2::kTriBits>;
using LinkBus = PortT<kLinkBusW>;
using NodeAddrBus = PortT<kNodeAddrBusW>;
using TriAddrBus = PortT<kTriAddrBusW>;
using NodeAddr = PortT<c2::kNodeAw>;
using TriAddr = PortT<c2::kTriAw>;
using CountersBus = PortT<kCountersW>;
using JBus = PortT<kJBusW>;
using PBus = PortT<kPBusW>;
using OffBus = PortT<kOffBusW>;
using LaneBits = PortT<c2::kK>;
using EffPort = PortT<kEffW>;
using TriBus = PortT<kTriBusW>;
using RotBus = PortT<kRotBusW>;
using TransBus = PortT<kTransBusW>;
using IdPort = PortT<kIdW>;

// A wide bus as 32-bit words (sc_bv's own storage unit), for field access without sc_bv's
// per-bit range objects, which would cost more than the block's arithmetic.
template <int W>
struct BusWords {
  static constexpr int kWords = (W + 31) / 32;
  std::array<std::uint32_t, kWords> w{};

  static BusWords of(const sc_dt::sc_bv<W>& bv) {
    BusWords b;
    for (int i = 0; i < kWords; ++i) b.w[std::size_t(i)] = bv.get_word(i);
    return b;
  }
  sc_dt::sc_bv<W> bv() const {
    sc_dt::sc_bv<W> v;
    for (int i = 0; i < kWords; ++i) v.set_word(i, w[std::size_t(i)]);
    return v;
  }
  // Bits [pos, pos + width), width <= 64, zero-extended.
  std::uint64_t get(int pos, int width) const {
    unsigned __int128 acc = 0;
    const int first = pos / 32;
    for (int i = 2; i >= 0; --i) {
      acc <<= 32;
      if (first + i < kWords) acc |= w[std::size_t(first + i)];
    }
    acc >>= (pos % 32);
    return width >= 64 ? std::uint64_t(acc) : std::uint64_t(acc) & ((std::uint64_t(1) << width) - 1);
  }
  std::int64_t get_signed(int pos, int width) const {
    const std::uint64_t u = get(pos, width);
    const int sh = 64 - width;
    return std::int64_t(u << sh) >> sh;
  }
  // Writes the low `width` bits of v at [pos, pos + width) (the field must be zero before).
  void put(int pos, int width, std::int64_t v) {
    for (int i = 0; i < width; ++i, ++pos)
      if ((std::uint64_t(v) >> (i < 64 ? i : 63)) & 1) w[std::size_t(pos / 32)] |= 1u << (pos % 32);
  }
};

// FNV-1a 64 of a wide bus' words: the per-clock record keeps wide payloads as this.
template <int W>
std::uint64_t hash_words(const sc_dt::sc_bv<W>& bv) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (int i = 0; i < (W + 31) / 32; ++i) {
    const std::uint32_t w = bv.get_word(i);
    for (int b = 0; b < 4; ++b) h = (h ^ ((w >> (8 * b)) & 0xff)) * 0x100000001b3ULL;
  }
  return h;
}

// A shift register of N stages: a value entering at one clock edge leaves N edges later.
template <class T, int N>
class Delay {
 public:
  static_assert(N >= 1);
  // One clock edge: `in` enters, the content of the last stage after the edge is returned.
  const T& step(const T& in) {
    for (int i = N - 1; i > 0; --i) regs_[std::size_t(i)] = regs_[std::size_t(i - 1)];
    regs_[0] = in;
    return regs_[N - 1];
  }
  void clear() { regs_.fill(T{}); }

 private:
  std::array<T, N> regs_{};
};

}  // namespace kdopcd::cosim
