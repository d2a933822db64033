#pragma once
// Cycle driver of a Verilated kdopcd_sat_pipeline (any parameter set), shared by the RTL engine
// (verilated/src/rtl_engine.cpp) and the testbench (testbenches/rtl/rtl_sat_tb.cpp). Include it only
// from a target that verilates the pipeline (it needs verilated.h).
//
// Port packing follows rtl/common/kdopcd_sat_pipeline.sv: flat vectors, element i at [i*W +: W],
// tag_t = {pair[15:0], axis[7:0], last}.
#include <verilated.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kdopcd/sat_fixed.hpp"

namespace kdopcd::rtl {

using u128 = unsigned __int128;

// ---------------------------------------------------------------------------- port bit access
inline u128 low_mask(int width) { return width >= 128 ? ~u128(0) : ((u128(1) << width) - 1); }

inline void put_words(std::uint32_t* w, int lsb, int width, u128 v) {
  v &= low_mask(width);
  while (width > 0) {
    const int word = lsb / 32, off = lsb % 32, n = std::min(32 - off, width);
    const std::uint32_t mask = n == 32 ? 0xffffffffu : (((1u << n) - 1u) << off);
    w[word] = (w[word] & ~mask) | ((static_cast<std::uint32_t>(v) << off) & mask);
    v >>= n;
    lsb += n;
    width -= n;
  }
}

inline u128 get_words(const std::uint32_t* w, int lsb, int width) {
  u128 v = 0;
  int got = 0;
  while (got < width) {
    const int word = lsb / 32, off = lsb % 32, n = std::min(32 - off, width - got);
    const u128 chunk = (w[word] >> off) & (n == 32 ? 0xffffffffu : ((1u << n) - 1u));
    v |= chunk << got;
    got += n;
    lsb += n;
  }
  return v;
}

template <class T>
void put_field(T& port, int lsb, int width, u128 v) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const U mask = static_cast<U>(low_mask(width) << lsb);
    port = static_cast<T>((static_cast<U>(port) & ~mask) | (static_cast<U>(v << lsb) & mask));
  } else {
    put_words(port.data(), lsb, width, v);
  }
}

template <class T>
u128 get_field(const T& port, int lsb, int width) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<u128>(static_cast<std::make_unsigned_t<T>>(port)) >> lsb) & low_mask(width);
  } else {
    return get_words(port.data(), lsb, width);
  }
}

inline __int128 sign_extend(u128 v, int width) {
  const u128 sign = u128(1) << (width - 1);
  v &= low_mask(width);
  return static_cast<__int128>((v ^ sign) - sign);
}

// ---------------------------------------------------------------------------- shape
// The pipeline's derived parameters, as in kdopcd_sat_pipeline.sv.
struct PipelineShape {
  int k = 24, b = 18, c = 18, z = 18, mul_w = 18;

  int coef_w() const { return b + 2; }
  int map_w() const { return c + 1; }
  int off_w() const { return z + 4; }
  int diff_w() const { return b + c + 5; }
  int j_w() const {
    int w = 0;
    while ((1 << w) < k) ++w;
    return w;
  }
  int limbs(int width) const { return (width - 1 + mul_w - 2) / (mul_w - 1); }
  int terms() const { return 6 * limbs(coef_w()) * limbs(map_w()) + 7; }
  int tree_levels() const {
    int l = 0;
    while ((1 << l) < terms()) ++l;
    return l;
  }
  // valid_i in cycle t -> valid_o in cycle t + latency()
  int latency() const { return tree_levels() + 3; }
};

inline constexpr int kPairW = 16, kAxisW = 8;

// One axis test as the ports take it.
struct AxisTest {
  FixedOperands ops{};                    // PA, PB, p are driven directly
  std::array<int, 3> ja{}, jb{};          // triples; coef_a[ja[m]] = a[m], coef_a[ja[m]+k/2] = ak[m]
  std::vector<std::int64_t> coef_a, coef_b;  // k coefficients of node A and node B
  std::uint32_t pair = 0, axis = 0;
  bool last = false;
};

struct AxisResult {
  __int128 diff1 = 0, diff2 = 0;
  bool verdict = false;
  std::uint32_t pair = 0, axis = 0;
  bool last = false;
};

// Places the 12 selected coefficients of `ops` at a random valid face triple of each node (order
// of the triple shuffled) and fills the other k - 12 slots with random coefficients in
// [-2^b, 2^b]. `triples`: OrientationSet::vertex_triples() of this k.
template <class Rng>
void place(AxisTest& t, int k, int b, const std::vector<std::array<int, 3>>& triples, Rng& rng) {
  const int half = k / 2;
  const std::int64_t lim = std::int64_t(1) << b;
  std::uniform_int_distribution<std::size_t> pick(0, triples.size() - 1);
  std::uniform_int_distribution<std::int64_t> any(-lim, lim);
  auto one = [&](std::array<int, 3>& j, std::vector<std::int64_t>& coef, const std::int64_t* near,
                 const std::int64_t* far) {
    j = triples[pick(rng)];
    std::shuffle(j.begin(), j.end(), rng);
    coef.resize(std::size_t(k));
    for (auto& x : coef) x = any(rng);
    for (int m = 0; m < 3; ++m) {
      coef[std::size_t(j[m])] = near[m];
      coef[std::size_t((j[m] + half) % k)] = far[m];
    }
  };
  one(t.ja, t.coef_a, t.ops.a, t.ops.ak);
  one(t.jb, t.coef_b, t.ops.b, t.ops.bk);
}

// ---------------------------------------------------------------------------- driver
template <class Model>
class SatStream {
 public:
  SatStream(Model& model, VerilatedContext& ctx, const PipelineShape& shape)
      : m_(model), ctx_(ctx), s_(shape) {}

  const PipelineShape& shape() const { return s_; }
  // Called after every eval (both clock edges), e.g. to dump a wave sample.
  void on_eval(std::function<void()> hook) { hook_ = std::move(hook); }
  std::uint64_t cycles() const { return cycles_; }

  // Holds rst_ni low for two clocks.
  void reset() {
    m_.valid_i = 0;
    m_.cancel_i = 0;
    m_.rst_ni = 0;
    half_cycle(0);
    for (int i = 0; i < 2; ++i) {
      half_cycle(1);
      half_cycle(0);
    }
    m_.rst_ni = 1;
    half_cycle(0);
  }

  // Drives `in` (data ports; kept as they were if null) with valid_i = valid, the cancel port,
  // then one rising and one falling clock edge. Returns the output ports after the rising edge
  // if valid_o is set.
  std::optional<AxisResult> clock(const AxisTest* in, bool valid, std::optional<std::uint32_t> cancel_pair) {
    if (in) drive(*in);
    m_.valid_i = valid ? 1 : 0;
    m_.cancel_i = cancel_pair ? 1 : 0;
    if (cancel_pair) put_field(m_.cancel_pair_i, 0, kPairW, *cancel_pair);
    half_cycle(1);
    ++cycles_;
    std::optional<AxisResult> out;
    if (m_.valid_o) {
      AxisResult r;
      r.diff1 = sign_extend(get_field(m_.diff1_o, 0, s_.diff_w()), s_.diff_w());
      r.diff2 = sign_extend(get_field(m_.diff2_o, 0, s_.diff_w()), s_.diff_w());
      r.verdict = m_.verdict_o != 0;
      const u128 tag = get_field(m_.tag_o, 0, kPairW + kAxisW + 1);
      r.last = (tag & 1) != 0;
      r.axis = std::uint32_t((tag >> 1) & ((1u << kAxisW) - 1));
      r.pair = std::uint32_t((tag >> (1 + kAxisW)) & ((1u << kPairW) - 1));
      out = r;
    }
    half_cycle(0);
    return out;
  }

 private:
  void half_cycle(int clk) {
    m_.clk_i = clk;
    m_.eval();
    if (hook_) hook_();
    ctx_.timeInc(1);
  }

  void drive(const AxisTest& t) {
    const int cw = s_.coef_w(), mw = s_.map_w(), jw = s_.j_w();
    for (int i = 0; i < s_.k; ++i) {
      put_field(m_.coef_a_i, i * cw, cw, u128(t.coef_a[std::size_t(i)]));
      put_field(m_.coef_b_i, i * cw, cw, u128(t.coef_b[std::size_t(i)]));
    }
    for (int m = 0; m < 3; ++m) {
      put_field(m_.ja_i, m * jw, jw, u128(t.ja[std::size_t(m)]));
      put_field(m_.jb_i, m * jw, jw, u128(t.jb[std::size_t(m)]));
      put_field(m_.pa_i, m * mw, mw, u128(t.ops.PA[m]));
      put_field(m_.pb_i, m * mw, mw, u128(t.ops.PB[m]));
    }
    put_field(m_.p_i, 0, s_.off_w(), u128(t.ops.p));
    const u128 tag = (u128(t.pair & ((1u << kPairW) - 1)) << (1 + kAxisW)) |
                     (u128(t.axis & ((1u << kAxisW) - 1)) << 1) | u128(t.last ? 1 : 0);
    put_field(m_.tag_i, 0, kPairW + kAxisW + 1, tag);
  }

  Model& m_;
  VerilatedContext& ctx_;
  PipelineShape s_;
  std::function<void()> hook_;
  std::uint64_t cycles_ = 0;
};

}  // namespace kdopcd::rtl
