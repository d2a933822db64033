// AxiMemory timing (docs/accelerator.md "Timing contract" item 1) and the query driver, without
// the real top. The verilated AXI read checker (--assert) stands in for the top in the memory
// tests: it has the top's m_axi_* port names, the test plays the read master through them and
// the checker watches the memory's R channel. The query-driver test uses a stand-in top built
// from the verilated register file and a small C++ controller (FakeTop below).
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "Vkdopcd_axi_read_checker.h"
#include "Vkdopcd_regs.h"
#include "kdopcd_driver/query_driver.hpp"
#include "regs_port_refs.hpp"
#include "kdopcd/shapes.hpp"

namespace {

using namespace kdopcd::driver;
using Chk = Vkdopcd_axi_read_checker;

// The read master played by the test: bursts presented on AR in order (ARVALID held until
// ARREADY), RREADY from a pattern or always 1.
struct Master {
  struct Req {
    std::uint32_t addr;
    int beats;
    std::uint64_t not_before = 0;  // earliest edge at which it may be accepted
  };
  std::deque<Req> pending;
  std::function<bool(std::uint64_t)> rready = [](std::uint64_t) { return true; };

  void drive(Chk& m, std::uint64_t tick) {
    const bool v = !pending.empty() && tick >= pending.front().not_before;
    m.m_axi_arvalid_o = v;
    m.m_axi_araddr_o = v ? pending.front().addr : 0;
    m.m_axi_arlen_o = v ? std::uint8_t(pending.front().beats - 1) : 0;
    m.m_axi_arsize_o = 3;
    m.m_axi_arburst_o = 1;
    m.m_axi_rready_o = rready(tick);
  }
};

struct MemBench {
  explicit MemBench(AxiMemoryParams mp) {
    ctx.fatalOnError(false);
    HarnessParams hp;
    hp.memory = mp;
    hp.memory.record = true;
    h = std::make_unique<Harness<Chk>>(chk, &ctx, hp);
    std::vector<std::uint8_t> bytes(3 * 4096);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t(i * 7 + (i >> 8));
    base = h->mem.place(bytes);
    h->reset();
  }
  // Runs until every burst is served (or a limit).
  void run(std::uint64_t limit = 10000) {
    const std::uint64_t t0 = h->tick();
    while ((!master.pending.empty() || h->mem.outstanding() != 0) && h->tick() - t0 < limit) {
      master.drive(chk, h->tick());
      const std::uint64_t before = h->mem.bursts_accepted;
      h->step();
      if (h->mem.bursts_accepted != before) master.pending.pop_front();
    }
    master.drive(chk, h->tick());
  }
  // From now on, every beat the master takes goes to got (data) and resp (RRESP).
  void record_beats() {
    h->on_edge = [this](std::uint64_t) {
      if (chk.m_axi_rvalid_i && chk.m_axi_rready_o) {
        got.push_back(chk.m_axi_rdata_i);
        resp.push_back(chk.m_axi_rresp_i);
      }
    };
  }
  VerilatedContext ctx;
  Chk chk{&ctx, "chk"};
  std::unique_ptr<Harness<Chk>> h;
  Master master;
  std::uint64_t base = 0;
  std::vector<std::uint64_t> got;
  std::vector<int> resp;
};

std::vector<std::uint64_t> expected_ticks(std::uint64_t s, int L, int cpb, int beats) {
  std::vector<std::uint64_t> t;
  for (int i = 1; i <= beats; ++i) t.push_back(s + std::uint64_t(L) + std::uint64_t(i) * std::uint64_t(cpb));
  return t;
}

class MemTiming : public ::testing::TestWithParam<int> {};  // cycles per beat

TEST_P(MemTiming, BackToBackBurstsOf9And4) {
  const int cpb = GetParam(), L = 2;
  MemBench b(AxiMemoryParams{L, cpb});
  b.master.pending.push_back({std::uint32_t(b.base), 9});
  b.master.pending.push_back({std::uint32_t(b.base + 0x100), 4});
  b.run();
  const auto& log = b.h->mem.log;
  ASSERT_EQ(log.size(), 2u);
  const std::uint64_t a0 = log[0].accept_tick, a1 = log[1].accept_tick;
  EXPECT_EQ(a1, a0 + 1);  // ARREADY always high: accepted on consecutive edges
  EXPECT_EQ(log[0].beat_ticks, expected_ticks(a0, L, cpb, 9));
  // s = max(accept, previous burst's last beat)
  EXPECT_EQ(log[1].beat_ticks, expected_ticks(log[0].beat_ticks.back(), L, cpb, 4));
  EXPECT_EQ(b.h->mem.beats_served, 13u);
  EXPECT_FALSE(b.ctx.gotError()) << "AXI read checker fired";
}

TEST_P(MemTiming, LateBurstStartsAtItsAccept) {
  const int cpb = GetParam(), L = 2;
  MemBench b(AxiMemoryParams{L, cpb});
  b.master.pending.push_back({std::uint32_t(b.base), 4});
  b.master.pending.push_back({std::uint32_t(b.base + 0x40), 9, b.h->tick() + 40});
  b.run();
  const auto& log = b.h->mem.log;
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].beat_ticks, expected_ticks(log[0].accept_tick, L, cpb, 4));
  EXPECT_GT(log[1].accept_tick, log[0].beat_ticks.back());
  EXPECT_EQ(log[1].beat_ticks, expected_ticks(log[1].accept_tick, L, cpb, 9));
  EXPECT_FALSE(b.ctx.gotError());
}

TEST_P(MemTiming, RReadyLowDelaysTheBeatAndShiftsLaterOnes) {
  const int cpb = GetParam(), L = 2;
  MemBench b(AxiMemoryParams{L, cpb});
  b.master.pending.push_back({std::uint32_t(b.base), 9});
  b.master.pending.push_back({std::uint32_t(b.base + 0x200), 4});
  // The first AR is accepted at the edge h->tick(); beat 3 is due at accept + L + 3 cpb: hold
  // RREADY low there and for two more edges.
  const std::uint64_t accept = b.h->tick();
  const std::uint64_t due3 = accept + std::uint64_t(L + 3 * cpb);
  b.master.rready = [=](std::uint64_t t) { return !(t >= due3 && t < due3 + 3); };
  b.run();
  const auto& log = b.h->mem.log;
  ASSERT_EQ(log.size(), 2u);
  ASSERT_EQ(log[0].accept_tick, accept);
  std::vector<std::uint64_t> want = expected_ticks(accept, L, cpb, 2);
  for (int i = 3; i <= 9; ++i) want.push_back(due3 + 3 + std::uint64_t((i - 3) * cpb));
  EXPECT_EQ(log[0].beat_ticks, want);
  EXPECT_EQ(log[1].beat_ticks, expected_ticks(want.back(), L, cpb, 4));
  EXPECT_FALSE(b.ctx.gotError());
}

INSTANTIATE_TEST_SUITE_P(Top, MemTiming, ::testing::Values(1, 2),
                         [](const auto& info) { return "cpb" + std::to_string(info.param); });

TEST(AxiMemory, DataAndSlverr) {
  MemBench b(AxiMemoryParams{2, 1});
  b.record_beats();
  const std::vector<std::uint64_t>& got = b.got;
  const std::vector<int>& resp = b.resp;
  b.master.pending.push_back({std::uint32_t(b.base + 0x18), 3});
  const std::uint64_t end = b.base + 3 * 4096;  // memory size
  b.master.pending.push_back({std::uint32_t(end - 16), 2});  // the last 2 words: in range
  b.master.pending.push_back({std::uint32_t(end), 2});       // past the end: SLVERR
  b.run();
  ASSERT_EQ(got.size(), 7u);
  for (int i = 0; i < 3; ++i) {
    std::uint64_t want = 0;
    for (int j = 0; j < 8; ++j) {
      const std::uint64_t off = 0x18 + std::uint64_t(8 * i + j);
      want |= std::uint64_t(std::uint8_t(off * 7 + (off >> 8))) << (8 * j);
    }
    EXPECT_EQ(got[std::size_t(i)], want) << "beat " << i;
    EXPECT_EQ(resp[std::size_t(i)], 0);
  }
  EXPECT_EQ(resp[3], 0);
  EXPECT_EQ(resp[4], 0);
  EXPECT_EQ(resp[5], 2);  // SLVERR
  EXPECT_EQ(resp[6], 2);
  EXPECT_EQ(b.h->mem.slverr_beats, 2u);
  EXPECT_FALSE(b.ctx.gotError());
}

// Fault injection: exactly the chosen beat (counted over all bursts) answers the chosen error,
// with its data; set_params starts the count again.
TEST(AxiMemory, InjectedErrorAtTheChosenBeat) {
  AxiMemoryParams mp{2, 1};
  mp.error_beat = 5;
  mp.error_resp = AxiResp::kDecErr;
  MemBench b(mp);
  b.record_beats();
  const std::vector<std::uint64_t>& got = b.got;
  const std::vector<int>& resp = b.resp;
  b.master.pending.push_back({std::uint32_t(b.base), 4});
  b.master.pending.push_back({std::uint32_t(b.base + 32), 4});  // beats 4..7: the second is 5
  b.run();
  ASSERT_EQ(resp.size(), 8u);
  for (std::size_t i = 0; i < resp.size(); ++i)
    EXPECT_EQ(resp[i], i == 5 ? int(AxiResp::kDecErr) : int(AxiResp::kOkay)) << "beat " << i;
  std::uint64_t want5 = 0;
  for (int j = 0; j < 8; ++j) want5 |= std::uint64_t(std::uint8_t((40 + j) * 7)) << (8 * j);
  EXPECT_EQ(got[5], want5);  // the data of the beat as usual
  EXPECT_EQ(b.h->mem.slverr_beats, 1u);
  ASSERT_EQ(b.h->mem.log.size(), 2u);
  EXPECT_FALSE(b.h->mem.log[0].slverr);
  EXPECT_TRUE(b.h->mem.log[1].slverr);

  mp.error_beat = 1;
  mp.error_resp = AxiResp::kSlvErr;
  b.h->mem.set_params(mp);
  b.resp.clear();
  b.master.pending.push_back({std::uint32_t(b.base), 2});
  b.run();
  EXPECT_EQ(resp, (std::vector<int>{int(AxiResp::kOkay), int(AxiResp::kSlvErr)}));
  EXPECT_FALSE(b.ctx.gotError());

  mp.error_resp = AxiResp::kExOkay;
  EXPECT_THROW(b.h->mem.set_params(mp), std::invalid_argument);
  EXPECT_THROW(AxiMemory(8, mp), std::invalid_argument);
}

TEST(AxiMemory, StallModeDeliversInOrder) {
  AxiMemoryParams mp{2, 1};
  mp.stall = true;
  mp.stall_probability = 0.35;
  mp.seed = 99;
  MemBench b(mp);
  std::mt19937 rng(5);
  b.record_beats();
  const std::vector<std::uint64_t>& got = b.got;
  std::vector<std::uint64_t> want;
  for (int i = 0; i < 60; ++i) {
    const int beats = 1 + int(rng() % 16);
    const std::uint32_t off = std::uint32_t(rng() % (4096 / 8 - 16)) * 8;
    b.master.pending.push_back({std::uint32_t(b.base) + off, beats});
    for (int k = 0; k < beats; ++k) {
      std::uint64_t w = 0;
      for (int j = 0; j < 8; ++j) {
        const std::uint64_t o = off + std::uint64_t(8 * k + j);
        w |= std::uint64_t(std::uint8_t(o * 7 + (o >> 8))) << (8 * j);
      }
      want.push_back(w);
    }
  }
  std::mt19937 rr(8);
  b.master.rready = [&](std::uint64_t) { return rr() % 3 != 0; };
  b.run(100000);
  EXPECT_EQ(got, want);
  const auto& log = b.h->mem.log;
  ASSERT_EQ(log.size(), 60u);
  std::uint64_t prev_last = 0;
  for (const auto& bl : log) {
    ASSERT_EQ(int(bl.beat_ticks.size()), bl.beats);
    // never earlier than the contract's schedule, in order
    EXPECT_GE(bl.beat_ticks.front(), std::max(bl.accept_tick, prev_last) + 2 + 1);
    for (std::size_t i = 1; i < bl.beat_ticks.size(); ++i) EXPECT_GE(bl.beat_ticks[i], bl.beat_ticks[i - 1] + 1);
    prev_last = bl.beat_ticks.back();
  }
  EXPECT_FALSE(b.ctx.gotError()) << "AXI read checker fired in stall mode";
}

// ------------------------------------------------------------------------------------------------
// The query driver against a stand-in top: the verilated register file plus a C++ controller that,
// on START, reads node record 0 of both images (one burst each), checks their first beat against
// the image bytes, streams two fixed contacts and sets DONE. Same port names and C++ types as
// Vkdopcd_top verilated with W = 64, ADDR_W = 32.
struct FakeTop {
  explicit FakeTop(VerilatedContext* ctx) : regs(ctx, "regs") {}
  Vkdopcd_regs regs;
  CData clk_i = 0, rst_ni = 0;
  KDOPCD_AXIL_PORT_REFS(regs)
  CData m_axi_arvalid_o = 0, m_axi_arready_i = 0;
  IData m_axi_araddr_o = 0;
  CData m_axi_arlen_o = 0, m_axi_arsize_o = 3, m_axi_arburst_o = 1;
  CData m_axi_rvalid_i = 0, m_axi_rready_o = 1;
  QData m_axi_rdata_i = 0;
  CData m_axi_rresp_i = 0, m_axi_rlast_i = 0;
  CData m_axis_tvalid_o = 0, m_axis_tready_i = 0;
  QData m_axis_tdata_o = 0;
  CData irq_o = 0;

  // controller state
  enum class S { Idle, Fetch, Emit, Done } s = S::Idle;
  int ar_sent = 0, bursts_done = 0, emitted = 0;
  std::uint64_t cycles = 0, beats = 0;
  std::vector<std::uint64_t> first_beats;
  bool bus_error = false;
  int node_beats = 9;
  std::vector<kdopcd::ContactPair> to_emit = {{3, 1}, {0, 2}};

  void outputs() {
    m_axi_arvalid_o = s == S::Fetch && ar_sent < 2;
    m_axi_araddr_o = ar_sent == 0 ? regs.a_node_base_o : regs.b_node_base_o;
    m_axi_arlen_o = CData(node_beats - 1);
    m_axis_tvalid_o = s == S::Emit;
    const auto& c = to_emit[std::size_t(std::min<int>(emitted, int(to_emit.size()) - 1))];
    m_axis_tdata_o = std::uint64_t(c.first) | std::uint64_t(c.second) << 32;
    irq_o = s == S::Done;
    regs.busy_i = s == S::Fetch || s == S::Emit;
    regs.done_i = s == S::Done;
    regs.idle_i = s == S::Idle || s == S::Done;
    regs.bus_error_i = bus_error;
    regs.stack_overflow_i = 0;
    regs.counters_i[0] = std::uint32_t(cycles);
    regs.counters_i[1] = std::uint32_t(cycles >> 32);
    regs.counters_i[2 * 8] = std::uint32_t(emitted);   // CONTACTS
    regs.counters_i[2 * 10] = std::uint32_t(beats);    // MEM_BEATS
  }
  void eval() {
    const bool rise = clk_i && !prev_clk_;
    prev_clk_ = clk_i;
    regs.rst_ni = rst_ni;
    if (rise && rst_ni) {
      const bool start = regs.start_o, clear = regs.clear_o;
      const bool ar_hs = m_axi_arvalid_o && m_axi_arready_i, r_hs = m_axi_rvalid_i && m_axi_rready_o;
      const bool t_hs = m_axis_tvalid_o && m_axis_tready_i;
      regs.clk_i = 1;
      regs.eval();  // the register file's edge, with the controller's pre-edge outputs
      if (s == S::Fetch || s == S::Emit) ++cycles;
      if (ar_hs) ++ar_sent;
      if (r_hs) {
        if (burst_beat_ == 0) first_beats.push_back(m_axi_rdata_i);
        ++beats;
        ++burst_beat_;
        if (m_axi_rresp_i != 0) bus_error = true;
        if (m_axi_rlast_i) {
          burst_beat_ = 0;
          ++bursts_done;
        }
      }
      if (t_hs) ++emitted;
      switch (s) {
        case S::Idle:
          if (start) {
            s = S::Fetch;
            ar_sent = bursts_done = emitted = 0;
            cycles = 1;
            beats = 0;
            first_beats.clear();
          }
          break;
        case S::Fetch:
          if (bursts_done == 2) s = S::Emit;
          break;
        case S::Emit:
          if (emitted == int(to_emit.size())) s = S::Done;
          break;
        case S::Done:
          if (clear) {
            s = S::Idle;
            bus_error = false;
          }
          break;
      }
    } else if (!rst_ni) {
      s = S::Idle;
    }
    regs.clk_i = clk_i;
    outputs();
    regs.eval();
    outputs();  // bases may have changed
  }

 private:
  bool prev_clk_ = false;
  int burst_beat_ = 0;
};

TEST(QueryDriver, RunsAQueryOnAStandInTop) {
  VerilatedContext ctx;
  FakeTop top(&ctx);
  HarnessParams hp;
  Harness<FakeTop> h(top, &ctx, hp);
  h.reset();
  const kdopcd::Mesh m1 = kdopcd::make_sphere(1.0, 1);
  const kdopcd::Mesh m2 = kdopcd::make_box(kdopcd::Vec3(0.5, 0.7, 0.9));
  const kdopcd::DopTree t1(m1, 24, kdopcd::kHardwareTreeBuild), t2(m2, 24, kdopcd::kHardwareTreeBuild);
  kdopcd::Pose pose;
  pose.translation = kdopcd::Vec3(0.3, 0.1, -0.2);
  RtlQueryParams p;
  for (bool stall : {false, true}) {
    SCOPED_TRACE(stall ? "stall" : "no stall");
    AxiMemoryParams mp{2, 1};
    mp.stall = stall;
    h.mem.set_params(mp);
    AxiLiteParams lp;
    lp.stall = stall;
    h.lite.set_params(lp);
    StreamSinkParams sp;
    sp.stall = stall;
    h.sink.set_params(sp);
    const RtlTopQuery r = run_query(top, h, t1, t2, pose, p);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.started);
    EXPECT_TRUE(r.done);
    EXPECT_FALSE(r.bus_error);
    EXPECT_FALSE(r.stack_overflow);
    EXPECT_EQ(r.contacts, (std::vector<kdopcd::ContactPair>{{0, 2}, {3, 1}}));  // sorted
    EXPECT_EQ(r.counters.contacts, 2u);
    EXPECT_EQ(r.counters.mem_beats, 18u);
    EXPECT_EQ(r.counters.cycles, r.done_tick) << "the stand-in counts ticks 1..DONE";
    EXPECT_EQ(r.a_image_base % 4096, 0u);
    EXPECT_EQ(r.b_image_base % 4096, 0u);
    // The stand-in fetched node record 0 of both images: its first beat is the link word.
    const double s = kdopcd::scene_scale(t1, t2);
    const auto ia = kdopcd::encode(kdopcd::make_tree_image(t1, kdopcd::ImageParams{18, 24, 64, s}));
    const auto ib = kdopcd::encode(kdopcd::make_tree_image(t2, kdopcd::ImageParams{18, 24, 64, s}));
    ASSERT_EQ(top.first_beats.size(), 2u);
    std::uint64_t wa = 0, wb = 0;
    std::memcpy(&wa, ia.data() + kdopcd::kTreeImageHeaderBytes, 8);
    std::memcpy(&wb, ib.data() + kdopcd::kTreeImageHeaderBytes, 8);
    EXPECT_EQ(top.first_beats[0], wa);
    EXPECT_EQ(top.first_beats[1], wb);
    EXPECT_EQ(top.s, FakeTop::S::Idle) << "CLEAR returns the top to IDLE";
  }
  // A pose far away: not started, no contacts, no error.
  pose.translation = kdopcd::Vec3(100, 0, 0);
  const RtlTopQuery far = run_query(top, h, t1, t2, pose, p);
  EXPECT_TRUE(far.ok()) << far.error;
  EXPECT_FALSE(far.started);
  EXPECT_TRUE(far.contacts.empty());
}

}  // namespace
