#pragma once
// Header-only driver library for the verilated accelerator top (docs/accelerator.md): bus models
// that drive the top's AXI4 read master, AXI4-Lite slave and AXI4-Stream master ports, and a
// per-clock step(). The query driver (query_driver.hpp) runs one collision query on them like the
// SystemC model's host does; the register map is register_map.hpp.
//
// Every model is templated on the verilated class and uses only the port names of
// docs/accelerator.md, so the same code drives Vkdopcd_top, Vkdopcd_regs (AXI-Lite only) or a
// verilated checker (AXI read only); Harness<Top> detects which port groups Top has.
//
// One step() is one clock (one rising edge, "tick"):
//   1. every model drives the top's inputs from its own state (Moore: never from the top's
//      outputs of the same cycle);
//   2. clk_i = 0, eval(): the top's outputs settle (its Mealy readies included);
//   3. every handshake (valid && ready) and payload is sampled;
//   4. clk_i = 1, eval(): the rising edge number tick();
//   5. every model updates its state by the sampled handshakes, at that tick; tick()++.
// Ticks are absolute edge numbers; the query driver reports them relative to the START edge
// (tick 0 of docs/accelerator.md "Timing contract").
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <tuple>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <verilated.h>
#if defined(VM_TRACE_FST) && VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd/tri_fixed.hpp"

#include "kdopcd_driver/register_map.hpp"

namespace kdopcd::driver {

namespace detail {
template <class T>
void put_bytes(T& port, const std::uint8_t* bytes, int n) {
  if constexpr (std::is_integral_v<T>) {
    std::uint64_t v = 0;
    std::memcpy(&v, bytes, std::size_t(std::min<int>(n, 8)));
    port = static_cast<T>(v);
  } else {
    for (int w = 0; w * 4 < n; ++w) {
      std::uint32_t v = 0;
      std::memcpy(&v, bytes + 4 * w, std::size_t(std::min(4, n - 4 * w)));
      port[w] = v;
    }
  }
}
template <class T>
void get_bytes(const T& port, std::uint8_t* bytes, int n) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t v = static_cast<std::uint64_t>(port);
    std::memcpy(bytes, &v, std::size_t(std::min<int>(n, 8)));
  } else {
    for (int w = 0; w * 4 < n; ++w) {
      const std::uint32_t v = port[w];
      std::memcpy(bytes + 4 * w, &v, std::size_t(std::min(4, n - 4 * w)));
    }
  }
}
template <class T>
std::uint64_t low64(const T& port) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<std::uint64_t>(port);
  } else {
    return std::uint64_t(port[0]) | (std::uint64_t(port[1]) << 32);
  }
}
// Bit i of a port (integer or VlWide).
template <class T>
bool port_bit(const T& port, int i) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(port) >> i) & 1;
  } else {
    return (port[i / 32] >> (i % 32)) & 1;
  }
}
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// AXI4 read response codes (RRESP).
enum class AxiResp : std::uint8_t { kOkay = 0, kExOkay = 1, kSlvErr = 2, kDecErr = 3 };

// AXI4 read slave: a byte array served in order with the timing of docs/accelerator.md
// "Timing contract" item 1.
struct AxiMemoryParams {
  int latency = 2;                 // L
  int cycles_per_beat = 1;         // cpb >= 1
  bool stall = false;              // random ARREADY low, random gaps before beats
  double stall_probability = 0.25;
  int max_gap = 3;                 // an extra gap is 1..max_gap cycles
  std::uint64_t seed = 1;
  bool record = false;             // keep a log of every burst (tests)
  // Fault injection, for the masters' error paths: the beat numbered error_beat (from 0, all
  // bursts, counted from construction or set_params) answers error_resp instead of OKAY, with its
  // data as usual; -1: none. Beats outside the memory answer SLVERR regardless.
  std::int64_t error_beat = -1;
  AxiResp error_resp = AxiResp::kSlvErr;  // kSlvErr or kDecErr
};

class AxiMemory {
 public:
  struct BurstLog {
    std::uint64_t address = 0;
    int beats = 0;  // ARLEN + 1
    std::uint64_t accept_tick = 0;
    std::vector<std::uint64_t> beat_ticks;
    bool slverr = false;  // a beat of the burst answered an error (SLVERR or DECERR)
  };

  explicit AxiMemory(int bus_bytes = 8, AxiMemoryParams params = {})
      : bus_bytes_(bus_bytes), p_(params), rng_(params.seed) {
    if (bus_bytes < 4 || (bus_bytes & (bus_bytes - 1)))
      throw std::invalid_argument("AxiMemory: bus width must be a power of two >= 32 bits");
    check(params);
  }

  const AxiMemoryParams& params() const { return p_; }
  void set_params(const AxiMemoryParams& params) {
    check(params);
    p_ = params;
    rng_.seed(params.seed);
    arready_ = !p_.stall;
    beat_index_ = 0;
  }
  int bus_bytes() const { return bus_bytes_; }

  // Memory contents: bytes [0, size()); every other address answers SLVERR.
  void clear() { bytes_.clear(); }
  std::uint64_t size() const { return bytes_.size(); }
  // Places `data` at the next address aligned to `align` (at least `align` itself, so address 0
  // is never a record) and returns that base address.
  std::uint64_t place(const std::vector<std::uint8_t>& data, std::uint64_t align = 4096) {
    const std::uint64_t base = std::max<std::uint64_t>(align, (bytes_.size() + align - 1) / align * align);
    bytes_.resize(base + data.size(), 0);
    std::copy(data.begin(), data.end(), bytes_.begin() + std::ptrdiff_t(base));
    return base;
  }
  void write(std::uint64_t address, const std::vector<std::uint8_t>& data) {
    if (bytes_.size() < address + data.size()) bytes_.resize(address + data.size(), 0);
    std::copy(data.begin(), data.end(), bytes_.begin() + std::ptrdiff_t(address));
  }
  // Resets the bus state (outstanding bursts are dropped; use between queries only when idle).
  void reset_bus() {
    queue_.clear();
    have_prev_ = false;
    prev_last_ = 0;
    presenting_ = false;
    arready_ = !p_.stall;
  }

  // Statistics and the optional log (slverr_beats: beats answered SLVERR or DECERR).
  std::uint64_t bursts_accepted = 0, beats_served = 0, slverr_beats = 0, protocol_errors = 0;
  std::vector<BurstLog> log;
  std::size_t outstanding() const { return queue_.size(); }

  // 1. drive the top's inputs for the cycle before rising edge `tick`.
  template <class T>
  void drive(T& top, std::uint64_t tick) {
    top.m_axi_arready_i = arready_;
    if (!presenting_ && !queue_.empty() && tick >= queue_.front().next_due) presenting_ = true;
    top.m_axi_rvalid_i = presenting_;
    if (presenting_) {
      Burst& b = queue_.front();
      const std::uint64_t addr = b.base + std::uint64_t(b.done) * std::uint64_t(bus_bytes_);
      std::array<std::uint8_t, 64> beat{};
      const bool inside = addr + std::uint64_t(bus_bytes_) <= bytes_.size();
      if (inside) std::memcpy(beat.data(), bytes_.data() + addr, std::size_t(bus_bytes_));
      const bool injected = p_.error_beat >= 0 && beat_index_ == std::uint64_t(p_.error_beat);
      const AxiResp resp = !inside ? AxiResp::kSlvErr : injected ? p_.error_resp : AxiResp::kOkay;
      detail::put_bytes(top.m_axi_rdata_i, beat.data(), bus_bytes_);
      top.m_axi_rresp_i = static_cast<std::uint8_t>(resp);
      top.m_axi_rlast_i = (b.done + 1 == b.beats);
      cur_error_ = resp != AxiResp::kOkay;
    } else {
      // Idle R payload: zeros (a checker sees a defined value).
      std::array<std::uint8_t, 64> zero{};
      detail::put_bytes(top.m_axi_rdata_i, zero.data(), bus_bytes_);
      top.m_axi_rresp_i = 0;
      top.m_axi_rlast_i = 0;
    }
  }

  // 3. sample the handshakes (after the falling-edge eval).
  template <class T>
  void sample(const T& top) {
    ar_hs_ = top.m_axi_arvalid_o && arready_;
    r_hs_ = presenting_ && top.m_axi_rready_o;
    if (ar_hs_) {
      ar_addr_ = detail::low64(top.m_axi_araddr_o);
      ar_len_ = int(top.m_axi_arlen_o);
      if (int(top.m_axi_arsize_o) != clog2(bus_bytes_) || int(top.m_axi_arburst_o) != 1) ++protocol_errors;
    }
  }

  // 5. update by the handshakes of rising edge `tick`.
  void update(std::uint64_t tick) {
    if (r_hs_) {
      Burst& b = queue_.front();
      ++beats_served;
      ++beat_index_;
      if (cur_error_) {
        ++slverr_beats;
        if (p_.record) log[b.log_index].slverr = true;
      }
      if (p_.record) log[b.log_index].beat_ticks.push_back(tick);
      presenting_ = false;
      if (++b.done == b.beats) {
        prev_last_ = tick;
        have_prev_ = true;
        queue_.pop_front();
      } else {
        b.next_due = tick + std::uint64_t(p_.cycles_per_beat) + gap();
      }
    }
    if (ar_hs_) {
      Burst b;
      b.base = ar_addr_ & ~std::uint64_t(bus_bytes_ - 1);  // INCR, full-width beats: aligned lanes
      b.beats = ar_len_ + 1;
      b.accept_tick = tick;
      ++bursts_accepted;
      if (p_.record) {
        b.log_index = log.size();
        log.push_back(BurstLog{ar_addr_, b.beats, tick, {}, false});
      }
      queue_.push_back(b);
    }
    if (!queue_.empty() && !queue_.front().active) {
      Burst& h = queue_.front();
      const std::uint64_t s = have_prev_ ? std::max(h.accept_tick, prev_last_) : h.accept_tick;
      h.next_due = s + std::uint64_t(p_.latency) + std::uint64_t(p_.cycles_per_beat) + gap();
      h.active = true;
    }
    arready_ = !(p_.stall && coin());
    ar_hs_ = r_hs_ = false;
  }

 private:
  struct Burst {
    std::uint64_t base = 0;
    int beats = 0, done = 0;
    std::uint64_t accept_tick = 0, next_due = 0;
    bool active = false;  // head of the queue: next_due is set
    std::size_t log_index = 0;
  };
  static void check(const AxiMemoryParams& p) {
    if (p.cycles_per_beat < 1 || p.latency < 0)
      throw std::invalid_argument("AxiMemory: cpb >= 1, L >= 0");
    if (p.error_resp != AxiResp::kSlvErr && p.error_resp != AxiResp::kDecErr)
      throw std::invalid_argument("AxiMemory: an injected error answers SLVERR or DECERR");
  }
  bool coin() { return std::uniform_real_distribution<double>(0, 1)(rng_) < p_.stall_probability; }
  std::uint64_t gap() {
    if (!p_.stall || !coin()) return 0;
    return std::uniform_int_distribution<std::uint64_t>(1, std::uint64_t(std::max(1, p_.max_gap)))(rng_);
  }

  int bus_bytes_;
  AxiMemoryParams p_;
  std::mt19937_64 rng_;
  std::vector<std::uint8_t> bytes_;
  std::deque<Burst> queue_;
  bool have_prev_ = false;
  std::uint64_t prev_last_ = 0;
  bool presenting_ = false, cur_error_ = false;
  std::uint64_t beat_index_ = 0;  // beats served since construction or set_params (error_beat)
  bool arready_ = true;
  bool ar_hs_ = false, r_hs_ = false;
  std::uint64_t ar_addr_ = 0;
  int ar_len_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Host memory behind the v2 top's command-queue DMA port (m_dma_*: AXI4 reads and writes of
// DMA_W-bit beats, 64-bit addresses), with the link timing of the SystemC model's host
// interface (model/include/kdopcd_model/host_interface.hpp, docs/model-v2.md "End to end"), so
// that the top and the model can be compared clock for clock:
//   read:  a burst accepted (AR handshake, always ready) in tick a has its last beat in
//          d = max(a, previous burst's d) + read_latency + ceil(beats * cpb / bpc), its other
//          beats in the ticks just before;
//   write: AWREADY is always high; a burst whose AW is taken in tick c (AWs queue in order) is
//          taken from b = max(c, previous burst's last beat + 1): its beats in b, b + 1, ... and
//          its last in b + ceil(beats * cpb / bpc) - 1; it is visible to the host write_latency
//          ticks after its last beat.
// WREADY of the tick in which an AW is taken while no burst is being written depends on AWVALID
// of that tick: settle() drives it after the top's outputs settled (the harness evaluates the top
// again before sampling).
// free_write_slave (off by default; not the model's timing, so no clock counts are compared with
// it): a slave that uses the freedom AXI4 gives it on the write channels. AWREADY comes 0 to
// aw_delay_max clocks after an AW is first offered (random, per AW), WREADY is random (high with
// probability w_ready_probability) whether or not the burst's AW was taken: W beats may be taken
// before, with or after their AW. The slave buffers the W bursts (delimited by WLAST) and writes
// each with its AW, in order, once both are in; it is visible write_latency ticks after that.
// The master's side of the write channels is checked in both modes (protocol_errors): AWVALID and
// WVALID held until taken with their payload stable, AWSIZE full width, INCR, no burst across a
// 4 KiB boundary (reads too), every burst with AWLEN + 1 beats and WLAST on its last.
struct DmaLinkParams {
  int read_latency = 0, write_latency = 0;
  int beats_per_cycle = 1, cycles_per_beat = 1;  // the link's rate: bpc / cpb beats per clock (<= 1)
  // Fault injection: every beat of the read burst numbered error_read_burst (from 0, counted from
  // set_link) answers SLVERR; -1: none.
  std::int64_t error_read_burst = -1;
  bool free_write_slave = false;
  int aw_delay_max = 0;
  double w_ready_probability = 0.5;
  std::uint64_t seed = 1;
  std::uint64_t transfer_clocks(int beats) const {
    return (std::uint64_t(beats) * std::uint64_t(cycles_per_beat) + std::uint64_t(beats_per_cycle) - 1) /
           std::uint64_t(beats_per_cycle);
  }
};

class DmaMemory {
 public:
  struct WriteBurst {
    std::uint64_t address = 0;
    int beats = 0;
    std::uint64_t offered = 0, last_beat = 0, visible = 0;
  };
  struct ReadBurst {
    std::uint64_t address = 0;
    int beats = 0;
    std::uint64_t accepted = 0, last_beat = 0;
  };

  explicit DmaMemory(int bus_bytes = 64, DmaLinkParams link = {}) : bus_bytes_(bus_bytes), link_(link) {}
  void set_link(const DmaLinkParams& link) {
    link_ = link;
    read_bursts_ = 0;
    rng_.seed(link.seed);
    aw_wait_ = draw_aw_delay();
  }
  int bus_bytes() const { return bus_bytes_; }

  void write(std::uint64_t address, const std::uint8_t* data, std::size_t n) {
    if (bytes_.size() < address + n) bytes_.resize(address + n, 0);
    std::memcpy(bytes_.data() + address, data, n);
  }
  void read(std::uint64_t address, std::uint8_t* data, std::size_t n) const {
    for (std::size_t i = 0; i < n; ++i) data[i] = address + i < bytes_.size() ? bytes_[address + i] : 0;
  }
  std::vector<ReadBurst> reads;    // every burst, in order (the log of the test)
  std::vector<WriteBurst> writes;
  std::uint64_t protocol_errors = 0;

  template <class T>
  void drive(T& top, std::uint64_t tick) {
    top.m_dma_arready_i = 1;
    aw_ready_ = !link_.free_write_slave || aw_wait_ == 0;
    top.m_dma_awready_i = aw_ready_;
    top.m_dma_bvalid_i = b_pending_ > 0;
    top.m_dma_bresp_i = 0;
    // R: the head burst's next beat when its tick has come
    r_valid_ = !rq_.empty() && tick >= rq_.front().due(link_, rq_done_);
    top.m_dma_rvalid_i = r_valid_;
    std::array<std::uint8_t, 128> beat{};
    if (r_valid_) {
      Read& r = rq_.front();
      read(r.address + std::uint64_t(r.done) * std::uint64_t(bus_bytes_), beat.data(), std::size_t(bus_bytes_));
      top.m_dma_rlast_i = r.done + 1 == r.beats;
      top.m_dma_rresp_i = r.error ? std::uint8_t(AxiResp::kSlvErr) : std::uint8_t(AxiResp::kOkay);
    } else {
      top.m_dma_rlast_i = 0;
      top.m_dma_rresp_i = 0;
    }
    detail::put_bytes(top.m_dma_rdata_i, beat.data(), bus_bytes_);
    if (link_.free_write_slave) {
      w_ready_free_ = std::bernoulli_distribution(link_.w_ready_probability)(rng_);
      top.m_dma_wready_i = w_ready_free_;
    } else {
      top.m_dma_wready_i = w_ready(tick);
    }
  }
  // After the top's outputs settled (the linked slave only): an AW taken in this tick while no
  // burst is being written or waits starts its burst now, and its first beat may be taken in this
  // tick.
  template <class T>
  bool settle(T& top, std::uint64_t tick) {
    if (link_.free_write_slave || !top.m_dma_awvalid_o || have_w_ || !aw_q_.empty()) return false;
    have_w_ = true;
    aw_started_ = true;
    w_.address = detail::low64(top.m_dma_awaddr_o);
    w_.beats = int(top.m_dma_awlen_o) + 1;
    w_.offered = tick;
    begin_burst(tick);
    const bool ready = w_ready(tick);
    top.m_dma_wready_i = ready;
    return true;
  }
  template <class T>
  void sample(const T& top, std::uint64_t tick) {
    ar_hs_ = top.m_dma_arvalid_o;
    if (ar_hs_) {
      ar_.address = detail::low64(top.m_dma_araddr_o);
      ar_.beats = int(top.m_dma_arlen_o) + 1;
      if (int(top.m_dma_arsize_o) != clog2(bus_bytes_) || int(top.m_dma_arburst_o) != 1) ++protocol_errors;
      if (crosses_4k(ar_.address, ar_.beats)) ++protocol_errors;
    }
    r_hs_ = r_valid_ && top.m_dma_rready_o;
    // AW: the master's rules, then the handshake (the linked slave's AWREADY is always high)
    const bool awvalid = top.m_dma_awvalid_o;
    const std::uint64_t awaddr = detail::low64(top.m_dma_awaddr_o);
    const int awlen = int(top.m_dma_awlen_o);
    if (aw_stalled_ && (!awvalid || awaddr != aw_stalled_addr_ || awlen != aw_stalled_len_)) ++protocol_errors;
    if (awvalid && (int(top.m_dma_awsize_o) != clog2(bus_bytes_) || int(top.m_dma_awburst_o) != 1)) ++protocol_errors;
    if (awvalid && crosses_4k(awaddr, awlen + 1)) ++protocol_errors;
    aw_stalled_ = awvalid && !aw_ready_;
    aw_stalled_addr_ = awaddr;
    aw_stalled_len_ = awlen;
    aw_hs_ = awvalid && aw_ready_;
    if (aw_hs_ && !aw_started_) aw_q_.push_back(WriteBurst{awaddr, awlen + 1, tick, 0, 0});
    aw_started_ = false;
    // W
    const bool wvalid = top.m_dma_wvalid_o;
    std::array<std::uint8_t, 128> data{};
    std::array<bool, 128> strb{};
    if (wvalid) {
      detail::get_bytes(top.m_dma_wdata_o, data.data(), bus_bytes_);
      for (int i = 0; i < bus_bytes_; ++i) strb[std::size_t(i)] = detail::port_bit(top.m_dma_wstrb_o, i);
    }
    const bool wlast = top.m_dma_wlast_o;
    if (w_stalled_ && (!wvalid || data != w_stalled_data_ || strb != w_stalled_strb_ || wlast != w_stalled_last_))
      ++protocol_errors;
    const bool wready = link_.free_write_slave ? w_ready_free_ : w_ready(tick);
    w_stalled_ = wvalid && !wready;
    w_stalled_data_ = data;
    w_stalled_strb_ = strb;
    w_stalled_last_ = wlast;
    w_hs_ = wvalid && wready;
    if (w_hs_ && link_.free_write_slave) {
      w_beats_.push_back(FreeBeat{data, strb, wlast});
      if (wlast) ++w_bursts_in_;
    } else if (w_hs_) {
      if (!have_w_) {
        ++protocol_errors;  // W without its AW
      } else {
        const std::uint64_t at = w_.address + std::uint64_t(w_taken_) * std::uint64_t(bus_bytes_);
        for (int i = 0; i < bus_bytes_; ++i)
          if (strb[std::size_t(i)]) write(at + std::uint64_t(i), &data[std::size_t(i)], 1);
        if (wlast != (w_taken_ + 1 == w_.beats)) ++protocol_errors;
      }
    }
    b_hs_ = b_pending_ > 0 && top.m_dma_bready_o;
  }
  void update(std::uint64_t tick) {
    if (r_hs_) {
      Read& r = rq_.front();
      if (++r.done == r.beats) {
        rq_done_ = r.last;
        reads.push_back(ReadBurst{r.address, r.beats, r.accepted, tick});
        rq_.pop_front();
      }
    }
    if (ar_hs_) {
      Read r;
      r.address = ar_.address;
      r.beats = ar_.beats;
      r.accepted = tick;
      r.error = link_.error_read_burst >= 0 && read_bursts_ == std::uint64_t(link_.error_read_burst);
      ++read_bursts_;
      rq_.push_back(r);
    }
    if (link_.free_write_slave) {
      update_free(tick);
    } else {
      if (w_hs_ && have_w_ && ++w_taken_ == w_.beats) {
        w_.visible = tick + std::uint64_t(link_.write_latency);
        writes.push_back(w_);
        w_free_ = tick + 1;
        have_w_ = false;
        ++b_pending_;
      }
      if (!have_w_ && !aw_q_.empty()) {  // the next AW taken: its burst starts
        have_w_ = true;
        w_ = aw_q_.front();
        aw_q_.pop_front();
        begin_burst(w_.offered);
      }
    }
    if (b_hs_) --b_pending_;
    ar_hs_ = r_hs_ = w_hs_ = b_hs_ = aw_hs_ = false;
  }

 private:
  struct Read {
    std::uint64_t address = 0;
    int beats = 0, done = 0;
    std::uint64_t accepted = 0, last = 0;
    bool timed = false, error = false;
    // The tick of beat `done`: the last at max(accepted, previous last) + latency + transfer.
    std::uint64_t due(const DmaLinkParams& link, std::uint64_t previous_last) {
      if (!timed) {
        last = std::max(accepted, previous_last) + std::uint64_t(link.read_latency) + link.transfer_clocks(beats);
        timed = true;
      }
      return last - std::uint64_t(beats - 1 - done);
    }
  };
  struct FreeBeat {
    std::array<std::uint8_t, 128> data{};
    std::array<bool, 128> strb{};
    bool last = false;
  };
  int draw_aw_delay() {
    return link_.aw_delay_max > 0 ? std::uniform_int_distribution<int>(0, link_.aw_delay_max)(rng_) : 0;
  }
  // The linked slave: the burst in w_ (its AW taken in w_.offered) is scheduled after the one before.
  void begin_burst(std::uint64_t taken) {
    w_begin_ = std::max(taken, w_free_);
    w_.last_beat = w_begin_ + link_.transfer_clocks(w_.beats) - 1;
    w_taken_ = 0;
  }
  // The free slave: AWREADY's delay, then every burst whose AW and W beats are both in is written.
  void update_free(std::uint64_t tick) {
    if (aw_hs_) {
      aw_wait_ = draw_aw_delay();
    } else if (aw_stalled_ && aw_wait_ > 0) {
      --aw_wait_;
    }
    while (!aw_q_.empty() && w_bursts_in_ > 0) {
      WriteBurst b = aw_q_.front();
      aw_q_.pop_front();
      --w_bursts_in_;
      for (int k = 0;; ++k) {
        const FreeBeat beat = w_beats_.front();
        w_beats_.pop_front();
        if (k < b.beats) {
          const std::uint64_t at = b.address + std::uint64_t(k) * std::uint64_t(bus_bytes_);
          for (int i = 0; i < bus_bytes_; ++i)
            if (beat.strb[std::size_t(i)]) write(at + std::uint64_t(i), &beat.data[std::size_t(i)], 1);
        }
        if (beat.last) {
          if (k + 1 != b.beats) ++protocol_errors;  // WLAST not on beat AWLEN + 1
          break;
        }
      }
      b.last_beat = tick;
      b.visible = tick + std::uint64_t(link_.write_latency);
      writes.push_back(b);
      ++b_pending_;
    }
  }
  bool w_ready(std::uint64_t tick) const {
    if (!have_w_) return false;
    const std::uint64_t at = w_taken_ + 1 == w_.beats ? w_.last_beat : w_begin_ + std::uint64_t(w_taken_);
    return tick == at;
  }
  // AXI4: a burst never crosses a 4 KiB boundary (full-width beats from `address`).
  bool crosses_4k(std::uint64_t address, int beats) const {
    return address % 4096 + std::uint64_t(beats) * std::uint64_t(bus_bytes_) > 4096;
  }

  int bus_bytes_;
  DmaLinkParams link_;
  std::vector<std::uint8_t> bytes_;
  std::deque<Read> rq_;
  std::uint64_t rq_done_ = 0, read_bursts_ = 0;
  ReadBurst ar_{};
  bool r_valid_ = false, ar_hs_ = false, r_hs_ = false, w_hs_ = false, b_hs_ = false;
  bool have_w_ = false;
  WriteBurst w_{};
  std::uint64_t w_begin_ = 0, w_free_ = 0;
  int w_taken_ = 0;
  int b_pending_ = 0;
  // AWs taken whose bursts wait (linked: for the burst before; free: for their W beats)
  std::deque<WriteBurst> aw_q_;
  bool aw_ready_ = true, aw_hs_ = false, aw_started_ = false;
  // the master's stalled AW and W (their payload must hold)
  bool aw_stalled_ = false, w_stalled_ = false, w_stalled_last_ = false;
  std::uint64_t aw_stalled_addr_ = 0;
  int aw_stalled_len_ = 0;
  std::array<std::uint8_t, 128> w_stalled_data_{};
  std::array<bool, 128> w_stalled_strb_{};
  // the free slave: its random readies, the W beats taken and not yet written
  std::mt19937_64 rng_{1};
  int aw_wait_ = 0;
  bool w_ready_free_ = false;
  std::deque<FreeBeat> w_beats_;
  int w_bursts_in_ = 0;
};

// ---------------------------------------------------------------------------------------------
// AXI4-Lite master: one transaction at a time. write()/read() block, stepping the clock through
// `stepper` (the Harness sets it). Stall mode: random delays before AWVALID, WVALID, ARVALID and
// random BREADY/RREADY back-pressure.
struct AxiLiteParams {
  bool stall = false;
  double stall_probability = 0.3;
  int max_delay = 3;
  std::uint64_t seed = 2;
  std::uint64_t timeout = 10000;  // cycles per transaction
};

class AxiLiteMaster {
 public:
  explicit AxiLiteMaster(AxiLiteParams params = {}) : p_(params), rng_(params.seed) {}
  void set_params(const AxiLiteParams& params) {
    p_ = params;
    rng_.seed(params.seed);
  }
  std::function<void()> stepper;

  bool busy() const { return op_ != Op::None; }
  // Non-blocking start; busy() until the response handshake.
  void start_write(std::uint32_t addr, std::uint32_t data, std::uint32_t strb = 0xF) {
    if (busy()) throw std::logic_error("AxiLiteMaster: transaction in progress");
    op_ = Op::Write;
    addr_ = addr;
    data_ = data;
    strb_ = strb;
    aw_pending_ = w_pending_ = true;
    aw_delay_ = delay();
    w_delay_ = delay();
  }
  void start_read(std::uint32_t addr) {
    if (busy()) throw std::logic_error("AxiLiteMaster: transaction in progress");
    op_ = Op::Read;
    addr_ = addr;
    ar_pending_ = true;
    ar_delay_ = delay();
  }
  // Blocking accesses. Throw std::runtime_error on a timeout or a non-OKAY response.
  void write(std::uint32_t addr, std::uint32_t data, std::uint32_t strb = 0xF) {
    start_write(addr, data, strb);
    wait("write", addr);
  }
  std::uint32_t read(std::uint32_t addr) {
    start_read(addr);
    wait("read", addr);
    return rdata;
  }
  void write64(std::uint32_t addr, std::uint64_t v) {
    write(addr, std::uint32_t(v));
    write(addr + 4, std::uint32_t(v >> 32));
  }
  std::uint64_t read64(std::uint32_t addr) {
    const std::uint64_t lo = read(addr);
    return lo | (std::uint64_t(read(addr + 4)) << 32);
  }

  // Results of the last transaction.
  std::uint32_t rdata = 0;
  int resp = 0;
  std::uint64_t aw_tick = 0;  // edge of the last AW handshake, w_tick likewise
  std::uint64_t w_tick = 0;
  std::uint64_t ar_tick = 0;

  template <class T>
  void drive(T& top, std::uint64_t /*tick*/) {
    const bool awv = op_ == Op::Write && aw_pending_ && aw_delay_ == 0;
    const bool wv = op_ == Op::Write && w_pending_ && w_delay_ == 0;
    const bool arv = op_ == Op::Read && ar_pending_ && ar_delay_ == 0;
    top.s_axil_awvalid_i = awv;
    top.s_axil_awaddr_i = awv ? (addr_ & 0xFFF) : 0;
    top.s_axil_wvalid_i = wv;
    top.s_axil_wdata_i = wv ? data_ : 0;
    top.s_axil_wstrb_i = wv ? strb_ : 0;
    top.s_axil_arvalid_i = arv;
    top.s_axil_araddr_i = arv ? (addr_ & 0xFFF) : 0;
    top.s_axil_bready_i = bready_;
    top.s_axil_rready_i = rready_;
  }
  template <class T>
  void sample(const T& top) {
    aw_hs_ = top.s_axil_awvalid_i && top.s_axil_awready_o;
    w_hs_ = top.s_axil_wvalid_i && top.s_axil_wready_o;
    b_hs_ = top.s_axil_bvalid_o && top.s_axil_bready_i;
    ar_hs_ = top.s_axil_arvalid_i && top.s_axil_arready_o;
    r_hs_ = top.s_axil_rvalid_o && top.s_axil_rready_i;
    if (b_hs_) b_resp_ = int(top.s_axil_bresp_o);
    if (r_hs_) {
      r_data_ = std::uint32_t(top.s_axil_rdata_o);
      r_resp_ = int(top.s_axil_rresp_o);
    }
  }
  void update(std::uint64_t tick) {
    if (b_hs_ || r_hs_) ++unexpected_;  // counted below if no transaction waits for it
    if (op_ == Op::Write) {
      if (aw_hs_) {
        aw_pending_ = false;
        aw_tick = tick;
      }
      if (w_hs_) {
        w_pending_ = false;
        w_tick = tick;
      }
      if (aw_pending_ && aw_delay_ > 0) --aw_delay_;
      if (w_pending_ && w_delay_ > 0) --w_delay_;
      if (b_hs_ && !aw_pending_ && !w_pending_) {
        --unexpected_;
        resp = b_resp_;
        op_ = Op::None;
      }
    } else if (op_ == Op::Read) {
      if (ar_hs_) {
        ar_pending_ = false;
        ar_tick = tick;
      } else if (ar_pending_ && ar_delay_ > 0) {
        --ar_delay_;
      }
      if (r_hs_ && !ar_pending_) {
        --unexpected_;
        resp = r_resp_;
        rdata = r_data_;
        op_ = Op::None;
      }
    }
    bready_ = !(p_.stall && coin());
    rready_ = !(p_.stall && coin());
    aw_hs_ = w_hs_ = b_hs_ = ar_hs_ = r_hs_ = false;
  }
  // Responses that arrived with no transaction waiting for them (a slave bug).
  int unexpected_responses() const { return unexpected_; }

 private:
  enum class Op { None, Write, Read };
  bool coin() { return std::uniform_real_distribution<double>(0, 1)(rng_) < p_.stall_probability; }
  int delay() { return p_.stall ? std::uniform_int_distribution<int>(0, p_.max_delay)(rng_) : 0; }
  void wait(const char* what, std::uint32_t addr) {
    if (!stepper) throw std::logic_error("AxiLiteMaster: no stepper (use it through a Harness)");
    std::uint64_t n = 0;
    while (busy()) {
      if (++n > p_.timeout) {
        op_ = Op::None;
        throw std::runtime_error(std::string("AXI-Lite ") + what + " timeout at 0x" + hex(addr));
      }
      stepper();
    }
    if (resp != 0) throw std::runtime_error(std::string("AXI-Lite ") + what + " error response at 0x" + hex(addr));
  }
  static std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%03x", v);
    return buf;
  }

  AxiLiteParams p_;
  std::mt19937_64 rng_;
  Op op_ = Op::None;
  std::uint32_t addr_ = 0, data_ = 0, strb_ = 0xF;
  bool aw_pending_ = false, w_pending_ = false, ar_pending_ = false;
  int aw_delay_ = 0, w_delay_ = 0, ar_delay_ = 0;
  bool bready_ = true, rready_ = true;
  bool aw_hs_ = false, w_hs_ = false, b_hs_ = false, ar_hs_ = false, r_hs_ = false;
  int b_resp_ = 0, r_resp_ = 0;
  std::uint32_t r_data_ = 0;
  int unexpected_ = 0;
};

// ---------------------------------------------------------------------------------------------
// AXI4-Stream sink for the contact stream: TREADY always 1, or random in stall mode.
struct StreamSinkParams {
  bool stall = false;
  double stall_probability = 0.3;
  std::uint64_t seed = 3;
};

class StreamSink {
 public:
  explicit StreamSink(StreamSinkParams params = {}) : p_(params), rng_(params.seed) {}
  void set_params(const StreamSinkParams& params) {
    p_ = params;
    rng_.seed(params.seed);
    tready_ = true;
  }
  std::vector<ContactPair> contacts;  // in arrival order
  std::vector<std::uint64_t> ticks;   // edge of each beat
  std::uint64_t refused = 0;          // edges with TVALID high and TREADY low: beats the stalls held back
  void clear() {
    contacts.clear();
    ticks.clear();
    refused = 0;
  }

  template <class T>
  void drive(T& top, std::uint64_t /*tick*/) {
    top.m_axis_tready_i = tready_;
  }
  template <class T>
  void sample(const T& top) {
    hs_ = top.m_axis_tvalid_o && tready_;
    refused += top.m_axis_tvalid_o && !tready_;
    if (hs_) data_ = std::uint64_t(top.m_axis_tdata_o);
  }
  void update(std::uint64_t tick) {
    if (hs_) {
      contacts.push_back(ContactPair{std::uint32_t(data_), std::uint32_t(data_ >> 32)});
      ticks.push_back(tick);
    }
    hs_ = false;
    tready_ = !(p_.stall && std::uniform_real_distribution<double>(0, 1)(rng_) < p_.stall_probability);
  }

 private:
  StreamSinkParams p_;
  std::mt19937_64 rng_;
  bool tready_ = true, hs_ = false;
  std::uint64_t data_ = 0;
};

// ---------------------------------------------------------------------------------------------
struct HarnessParams {
  int bus_width = 64;  // W
  AxiMemoryParams memory{};
  AxiLiteParams lite{};
  StreamSinkParams stream{};
};

template <class Top>
class Harness {
 public:
  static constexpr bool kHasAxi = requires(Top& t) { t.m_axi_arvalid_o; };
  static constexpr bool kHasLite = requires(Top& t) { t.s_axil_awvalid_i; };
  static constexpr bool kHasStream = requires(Top& t) { t.m_axis_tvalid_o; };
  static constexpr bool kHasIrq = requires(Top& t) { t.irq_o; };
  static constexpr bool kHasDma = requires(Top& t) { t.m_dma_arvalid_o; };

  // ctx may be null (a C++ stand-in for a verilated class): then simulation time is not advanced.
  Harness(Top& top, VerilatedContext* ctx, HarnessParams params = {})
      : top(top), ctx(ctx), mem(params.bus_width / 8, params.memory), lite(params.lite), sink(params.stream) {
    lite.stepper = [this] { step(); };
  }
  ~Harness() { close_trace(); }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  Top& top;
  VerilatedContext* ctx;
  AxiMemory mem;
  AxiLiteMaster lite;
  StreamSink sink;
  DmaMemory dma;  // the v2 top's command-queue port (idle unless the queue is used)
  // Called after every rising edge with its tick (after the models' update).
  std::function<void(std::uint64_t)> on_edge;

  std::uint64_t tick() const { return tick_; }

  // Asynchronous reset for `cycles` clocks (the models keep driving idle inputs).
  void reset(int cycles = 4) {
    top.rst_ni = 0;
    for (int i = 0; i < cycles; ++i) step();
    top.rst_ni = 1;
    step();
  }

  void step() {
    if constexpr (kHasAxi) mem.drive(top, tick_);
    if constexpr (kHasLite) lite.drive(top, tick_);
    if constexpr (kHasStream) sink.drive(top, tick_);
    if constexpr (kHasDma) dma.drive(top, tick_);
    top.clk_i = 0;
    top.eval();
    if constexpr (kHasDma) {
      if (dma.settle(top, tick_)) top.eval();
    }
    advance_time();
    if constexpr (kHasAxi) mem.sample(top);
    if constexpr (kHasLite) lite.sample(top);
    if constexpr (kHasStream) sink.sample(top);
    if constexpr (kHasDma) dma.sample(top, tick_);
    top.clk_i = 1;
    top.eval();
    advance_time();
    if constexpr (kHasAxi) mem.update(tick_);
    if constexpr (kHasLite) lite.update(tick_);
    if constexpr (kHasStream) sink.update(tick_);
    if constexpr (kHasDma) dma.update(tick_);
    if (on_edge) on_edge(tick_);
    ++tick_;
  }
  void run(std::uint64_t cycles) {
    for (std::uint64_t i = 0; i < cycles; ++i) step();
  }

  // FST waves (only when the top was verilated with TRACE_FST), `depth` levels of hierarchy below
  // the top (99: all). Returns false otherwise; throws InputError when the file cannot be created.
  bool open_trace(const std::string& path, int depth = 99) {
#if defined(VM_TRACE_FST) && VM_TRACE_FST
    if (!ctx) return false;
    ctx->traceEverOn(true);
    fst_ = std::make_unique<VerilatedFstC>();
    // $dumpvars semantics: `depth` levels below the root scope (TOP holds the ports, the top
    // module is level 2); must be set before trace() registers the signals.
    if (depth < 99) fst_->dumpvars(depth + 1, "TOP");
    top.trace(fst_.get(), 99);
    fst_->open(path.c_str());
    // The writer reports a file it could not create only by staying closed.
    if (!fst_->isOpen()) {
      fst_.reset();
      throw kdopcd::InputError(path + ": the FST writer cannot create the file");
    }
    return true;
#else
    (void)path;
    (void)depth;
    return false;
#endif
  }
  void close_trace() {
#if defined(VM_TRACE_FST) && VM_TRACE_FST
    if (fst_) fst_->close();
    fst_.reset();
#endif
  }

 private:
  void advance_time() {
    if (!ctx) return;
    ctx->timeInc(1);
#if defined(VM_TRACE_FST) && VM_TRACE_FST
    if (fst_) fst_->dump(ctx->time());
#endif
  }
  std::uint64_t tick_ = 0;
#if defined(VM_TRACE_FST) && VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> fst_;
#endif
};

}  // namespace kdopcd::driver
