// Unit test of the register file (rtl/paper/kdopcd_regs.sv) alone, verilated with the top's parameters
// (K=24 B=C=Z=18 V=M=24 W=64 ADDR_W=32; STACK_DEPTH=1024 TRI_LAT=16 SAT_LAT=8 NCNT=13 defaults),
// driven through the harness's AxiLiteMaster, with the AXI-Lite checker watching the slave port.
#include <gtest/gtest.h>

#include <random>

#include "Vkdopcd_axil_checker.h"
#include "Vkdopcd_regs.h"
#include "kdopcd_driver/query_driver.hpp"
#include "regs_port_refs.hpp"

namespace {

using namespace kdopcd::driver;

constexpr int kK = 24, kB = 18, kC = 18, kZ = 18, kV = 24, kM = 24, kW = 64;
constexpr int kAxisBits = 6 * (kC + 1) + (kZ + 4) + 6 * 5;  // 166 ($clog2(24) = 5)
constexpr int kRotW = kM + 2, kTransW = kV + kM + 4;

std::int64_t sext(std::uint64_t v, int bits) { return std::int64_t(v << (64 - bits)) >> (64 - bits); }

// The register file with the AXI-Lite checker on its slave port: a stand-in "top" for Harness
// (reference members carry the regs' port names).
struct Dut {
  explicit Dut(VerilatedContext* ctx) : regs(ctx, "regs"), chk(ctx, "chk") {}
  Vkdopcd_regs regs;
  Vkdopcd_axil_checker chk;
  CData& clk_i = regs.clk_i;
  CData& rst_ni = regs.rst_ni;
  KDOPCD_AXIL_PORT_REFS(regs)
  // The checker must see the pre-edge values at a rising edge: it is evaluated before the register
  // file there (the regs' outputs are still those of the falling-edge eval), after it otherwise.
  void eval() {
    if (regs.clk_i && !chk.clk_i) {
      copy_to_checker();
      regs.eval();
    } else {
      regs.eval();
      copy_to_checker();
    }
  }
  void copy_to_checker() {
    chk.clk_i = regs.clk_i;
    chk.rst_ni = regs.rst_ni;
    chk.s_axil_awvalid_i = regs.s_axil_awvalid_i;
    chk.s_axil_awready_o = regs.s_axil_awready_o;
    chk.s_axil_awaddr_i = regs.s_axil_awaddr_i;
    chk.s_axil_wvalid_i = regs.s_axil_wvalid_i;
    chk.s_axil_wready_o = regs.s_axil_wready_o;
    chk.s_axil_wdata_i = regs.s_axil_wdata_i;
    chk.s_axil_wstrb_i = regs.s_axil_wstrb_i;
    chk.s_axil_bvalid_o = regs.s_axil_bvalid_o;
    chk.s_axil_bready_i = regs.s_axil_bready_i;
    chk.s_axil_bresp_o = regs.s_axil_bresp_o;
    chk.s_axil_arvalid_i = regs.s_axil_arvalid_i;
    chk.s_axil_arready_o = regs.s_axil_arready_o;
    chk.s_axil_araddr_i = regs.s_axil_araddr_i;
    chk.s_axil_rvalid_o = regs.s_axil_rvalid_o;
    chk.s_axil_rready_i = regs.s_axil_rready_i;
    chk.s_axil_rdata_o = regs.s_axil_rdata_o;
    chk.s_axil_rresp_o = regs.s_axil_rresp_o;
    chk.eval();
  }
};

class Regs : public ::testing::TestWithParam<bool> {  // parameter: stall mode
 protected:
  void SetUp() override {
    ctx.fatalOnError(false);
    HarnessParams hp;
    hp.lite.stall = GetParam();
    hp.lite.seed = 11;
    h = std::make_unique<Harness<Dut>>(dut, &ctx, hp);
    dut.regs.idle_i = 1;
    h->reset();
  }
  void TearDown() override { EXPECT_FALSE(ctx.gotError()) << "an AXI-Lite checker assertion fired"; }

  VerilatedContext ctx;
  Dut dut{&ctx};
  std::unique_ptr<Harness<Dut>> h;
  std::mt19937_64 rng{1234};
  std::uint32_t rnd() { return std::uint32_t(rng()); }
};

TEST_P(Regs, ReadOnlyRegisters) {
  AxiLiteMaster& bus = h->lite;
  EXPECT_EQ(bus.read(reg::kId), 0x4B440601u);
  EXPECT_EQ(bus.read(reg::kConfig0), std::uint32_t(kK | kB << 8 | kC << 16 | kZ << 24));
  EXPECT_EQ(bus.read(reg::kConfig1), std::uint32_t(kV | kM << 8 | (kW / 8) << 16 | paper::kSatLat << 24));
  EXPECT_EQ(bus.read(reg::kConfig2), std::uint32_t(paper::kStackDepth | paper::kTriLat << 24));
  // Writes to read-only registers change nothing.
  for (std::uint32_t a : {reg::kId, reg::kConfig0, reg::kConfig1, reg::kConfig2, reg::kStatus}) bus.write(a, 0xFFFFFFFF);
  EXPECT_EQ(bus.read(reg::kId), 0x4B440601u);
  EXPECT_EQ(bus.read(reg::kConfig2), std::uint32_t(paper::kStackDepth | paper::kTriLat << 24));
  // STATUS follows the controller inputs.
  for (int v = 0; v < 32; ++v) {
    dut.regs.busy_i = v & 1;
    dut.regs.done_i = (v >> 1) & 1;
    dut.regs.stack_overflow_i = (v >> 2) & 1;
    dut.regs.bus_error_i = (v >> 3) & 1;
    dut.regs.idle_i = (v >> 4) & 1;
    EXPECT_EQ(bus.read(reg::kStatus), std::uint32_t(v));
  }
  // Counters: lo word at 0x080 + 8 i, hi word at + 4.
  std::vector<std::uint64_t> cnt(paper::kNumCounters);
  for (int i = 0; i < paper::kNumCounters; ++i) {
    cnt[std::size_t(i)] = rng();
    dut.regs.counters_i[2 * i] = std::uint32_t(cnt[std::size_t(i)]);
    dut.regs.counters_i[2 * i + 1] = std::uint32_t(cnt[std::size_t(i)] >> 32);
  }
  for (int i = 0; i < paper::kNumCounters; ++i)
    EXPECT_EQ(bus.read64(reg::kCounters + 8 * std::uint32_t(i)), cnt[std::size_t(i)]) << "counter " << i;
}

TEST_P(Regs, ReadWriteRegistersReadBack) {
  AxiLiteMaster& bus = h->lite;
  for (int round = 0; round < 4; ++round) {
    const std::uint32_t q = rnd(), sl = rnd();
    bus.write(reg::kQuery, q);
    bus.write(reg::kStackLimit, sl);
    std::uint64_t base[4];
    for (int r = 0; r < 4; ++r) {
      base[r] = rng();
      bus.write64(reg::kANodeBase + 8 * std::uint32_t(r), base[r]);
    }
    std::uint32_t rot[9];
    for (int r = 0; r < 9; ++r) bus.write(reg::kRot + 4 * std::uint32_t(r), rot[r] = rnd());
    std::uint64_t tr[3];
    for (int r = 0; r < 3; ++r) bus.write64(reg::kTrans + 8 * std::uint32_t(r), tr[r] = rng());

    EXPECT_EQ(bus.read(reg::kQuery), q & 0x13FFu);
    EXPECT_EQ(bus.read(reg::kStackLimit), sl & 0xFFFFFFu);
    EXPECT_EQ(dut.regs.axes_o, q & 0xFF);
    EXPECT_EQ(dut.regs.rule_o, (q >> 8) & 3);
    EXPECT_EQ(dut.regs.continue_o, (q >> 12) & 1);
    EXPECT_EQ(dut.regs.stack_limit_o, sl & 0xFFFFFF);
    const std::uint32_t* base_out[4] = {&dut.regs.a_node_base_o, &dut.regs.a_tri_base_o, &dut.regs.b_node_base_o,
                                        &dut.regs.b_tri_base_o};
    for (int r = 0; r < 4; ++r) {
      // ADDR_W = 32: the high word is not stored and reads 0.
      EXPECT_EQ(bus.read64(reg::kANodeBase + 8 * std::uint32_t(r)), base[r] & 0xFFFFFFFFu) << "base " << r;
      EXPECT_EQ(*base_out[r], std::uint32_t(base[r]));
    }
    for (int r = 0; r < 9; ++r) {
      const std::int64_t v = sext(rot[r], kRotW);
      EXPECT_EQ(bus.read(reg::kRot + 4 * std::uint32_t(r)), std::uint32_t(v)) << "rot " << r;
      std::uint64_t got = 0;
      for (int b = 0; b < kRotW; ++b) got |= std::uint64_t(detail::port_bit(dut.regs.rot_o, r * kRotW + b)) << b;
      EXPECT_EQ(sext(got, kRotW), v) << "rot_o " << r;
    }
    for (int r = 0; r < 3; ++r) {
      const std::int64_t v = sext(tr[r], kTransW);
      EXPECT_EQ(bus.read64(reg::kTrans + 8 * std::uint32_t(r)), std::uint64_t(v)) << "trans " << r;
      std::uint64_t got = 0;
      for (int b = 0; b < kTransW; ++b)
        got |= std::uint64_t(detail::port_bit(dut.regs.trans_o, r * kTransW + b)) << b;
      EXPECT_EQ(sext(got, kTransW), v) << "trans_o " << r;
    }
  }
  // Byte strobes: only the strobed bytes change.
  bus.write(reg::kStackLimit, 0x00123456);
  bus.write(reg::kStackLimit, 0xFFAABBCC, 0x2);
  EXPECT_EQ(bus.read(reg::kStackLimit), 0x0012BB56u);
  bus.write(reg::kTrans + 4, 0xFFFFFFFF);  // hi word of T'(0): negative
  bus.write(reg::kTrans, 0x00000000);
  bus.write(reg::kTrans, 0x000000AB, 0x1);
  EXPECT_EQ(bus.read64(reg::kTrans), 0xFFFFFFFF000000ABull);
}

TEST_P(Regs, AxisTablePackingAndWriteOnly) {
  AxiLiteMaster& bus = h->lite;
  constexpr int kWords = (kAxisBits + 31) / 32;  // 6
  std::vector<std::array<std::uint32_t, 16>> words(kK);
  for (int a = 0; a < kK; ++a)
    for (int w = 0; w < 16; ++w) {
      words[std::size_t(a)][std::size_t(w)] = rnd();
      bus.write(reg::kAxisTable + 64 * std::uint32_t(a) + 4 * std::uint32_t(w), words[std::size_t(a)][std::size_t(w)]);
    }
  auto check_entry = [&](int a, const std::array<std::uint32_t, 16>& want) {
    dut.regs.axis_idx_i = std::uint8_t(a);
    dut.eval();
    for (int b = 0; b < kAxisBits; ++b)
      ASSERT_EQ(detail::port_bit(dut.regs.axis_entry_o, b), bool((want[std::size_t(b / 32)] >> (b % 32)) & 1))
          << "entry " << a << " bit " << b;
  };
  for (int a = 0; a < kK; ++a) check_entry(a, words[std::size_t(a)]);
  for (int w = 0; w < kWords + 2; ++w) EXPECT_EQ(bus.read(reg::kAxisTable + 4 * std::uint32_t(w)), 0u) << "word " << w;
  // Indices >= K read as zero.
  for (int a = kK; a < 32; ++a) {
    dut.regs.axis_idx_i = std::uint8_t(a);
    dut.eval();
    for (int b = 0; b < kAxisBits; ++b) ASSERT_FALSE(detail::port_bit(dut.regs.axis_entry_o, b));
  }
  // The harness's packer puts the fields where docs/accelerator.md says.
  kdopcd::FixedParams f{kB, kC, kZ};
  for (int a = 0; a < kK; ++a) {
    kdopcd::QuantizedAxis ax{};
    for (int i = 0; i < 3; ++i) {
      ax.jA[i] = int(rng() % kK);
      ax.jB[i] = int(rng() % kK);
      ax.PA[i] = -std::int64_t(rng() % ((1 << kC) + 1));
      ax.PB[i] = -std::int64_t(rng() % ((1 << kC) + 1));
    }
    ax.p = std::int64_t(rng() % (1u << (kZ + 3))) - (std::int64_t(1) << (kZ + 2));
    const auto packed = pack_axis_entry(ax, kK, f);
    ASSERT_EQ(int(packed.size()), kWords);
    for (int w = 0; w < kWords; ++w)
      bus.write(reg::kAxisTable + 64 * std::uint32_t(a) + 4 * std::uint32_t(w), packed[std::size_t(w)]);
    dut.regs.axis_idx_i = std::uint8_t(a);
    dut.eval();
    int pos = 0;
    auto field = [&](int width) {
      std::uint64_t v = 0;
      for (int b = 0; b < width; ++b, ++pos) v |= std::uint64_t(detail::port_bit(dut.regs.axis_entry_o, pos)) << b;
      return v;
    };
    for (int i = 0; i < 3; ++i) EXPECT_EQ(sext(field(kC + 1), kC + 1), ax.PA[i]);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(sext(field(kC + 1), kC + 1), ax.PB[i]);
    EXPECT_EQ(sext(field(kZ + 4), kZ + 4), ax.p);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(int(field(5)), ax.jA[i]);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(int(field(5)), ax.jB[i]);
    EXPECT_EQ(pos, kAxisBits);
  }
}

TEST_P(Regs, StartAndClearPulses) {
  AxiLiteMaster& bus = h->lite;
  std::vector<std::uint64_t> start_edges, clear_edges;
  h->on_edge = [&](std::uint64_t t) {
    if (dut.regs.start_o) start_edges.push_back(t);
    if (dut.regs.clear_o) clear_edges.push_back(t);
  };
  // START while idle: start_o is high exactly in the cycle after the accepting edge.
  dut.regs.idle_i = 1;
  bus.write(reg::kControl, reg::kStart);
  h->run(3);
  ASSERT_EQ(start_edges.size(), 1u);
  EXPECT_EQ(start_edges[0], bus.aw_tick);
  EXPECT_TRUE(clear_edges.empty());
  // START while not idle: ignored.
  start_edges.clear();
  dut.regs.idle_i = 0;
  bus.write(reg::kControl, reg::kStart);
  h->run(3);
  EXPECT_TRUE(start_edges.empty());
  // CLEAR (idle or not), same timing.
  bus.write(reg::kControl, reg::kClear);
  h->run(3);
  ASSERT_EQ(clear_edges.size(), 1u);
  EXPECT_EQ(clear_edges[0], bus.aw_tick);
  // Both bits at once while idle; a START with byte 0 not strobed is no START.
  clear_edges.clear();
  dut.regs.idle_i = 1;
  bus.write(reg::kControl, reg::kStart | reg::kClear);
  h->run(3);
  ASSERT_EQ(start_edges.size(), 1u);
  ASSERT_EQ(clear_edges.size(), 1u);
  EXPECT_EQ(start_edges[0], bus.aw_tick);
  EXPECT_EQ(clear_edges[0], bus.aw_tick);
  bus.write(reg::kControl, reg::kStart, 0xE);
  h->run(3);
  EXPECT_EQ(start_edges.size(), 1u);
  // CONTROL reads 0.
  EXPECT_EQ(bus.read(reg::kControl), 0u);
}

TEST_P(Regs, UnmappedReadsReturnZero) {
  AxiLiteMaster& bus = h->lite;
  // Fill every writable register first, so a decoding slip would show.
  for (std::uint32_t a = reg::kQuery; a < reg::kCounters; a += 4) bus.write(a, 0xFFFFFFFF);
  for (int i = 0; i < paper::kNumCounters * 2; ++i) dut.regs.counters_i[i] = 0xFFFFFFFF;
  for (std::uint32_t a : {0x07Cu, 0x0E8u, 0x0ECu, 0x100u, 0x200u, 0x3FCu, 0x400u, 0x404u, 0x9FCu, 0xA00u, 0xFFCu})
    EXPECT_EQ(bus.read(a), 0u) << "address 0x" << std::hex << a;
  EXPECT_EQ(bus.read(0x0E4), 0xFFFFFFFFu);  // the last counter's hi word is mapped
}

INSTANTIATE_TEST_SUITE_P(Top, Regs, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? std::string("Stall") : std::string("NoStall"); });

}  // namespace
