// Self-test of the simulation-only bus checkers (rtl/verif/*.sv, verilated with --assert): a legal
// sequence leaves them silent, and each violation kind fires its own assertion. Verilator prints
// "%Error: <file>:<line>: Assertion failed in TOP.<module>.<label>: <message>" on stdout; with
// VerilatedContext::fatalOnError(false) the run goes on and gotError() turns true. The test
// captures stdout to check which assertion fired.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "Vkdopcd_axi_read_checker.h"
#include "Vkdopcd_axi_write_checker.h"
#include "Vkdopcd_axil_checker.h"
#include "Vkdopcd_axis_checker.h"
#include "verilated.h"

namespace {

// Runs fn with stdout redirected to a temporary file; returns what was printed.
std::string capture_stdout(const std::function<void()>& fn) {
  std::fflush(stdout);
  char path[] = "/tmp/kdopcd_checker_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  const int saved = dup(1);
  dup2(fd, 1);
  try {
    fn();
  } catch (...) {
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    unlink(path);
    throw;
  }
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  unlink(path);
  return ss.str();
}

// One checker with its own context; cycle(set) drives the inputs for one clock.
template <class M>
struct Bench {
  Bench() {
    ctx.fatalOnError(false);
    m = std::make_unique<M>(&ctx, "chk");
    m->rst_ni = 0;
    cycle([](M&) {});
    cycle([](M&) {});
    m->rst_ni = 1;
  }
  void cycle(const std::function<void(M&)>& set) {
    set(*m);
    m->clk_i = 0;
    m->eval();
    ctx.timeInc(1);
    m->clk_i = 1;
    m->eval();
    ctx.timeInc(1);
  }
  VerilatedContext ctx;
  std::unique_ptr<M> m;
};

// Runs a scenario on a fresh checker; returns (fired?, printed text).
template <class M>
std::pair<bool, std::string> run(const std::function<void(Bench<M>&)>& scenario) {
  bool fired = false;
  std::string out = capture_stdout([&] {
    Bench<M> b;
    scenario(b);
    b.cycle([](M&) {});
    b.cycle([](M&) {});
    fired = b.ctx.gotError();
    b.m->final();
  });
  return {fired, out};
}

#define EXPECT_SILENT(result)                          \
  do {                                                 \
    const auto r_ = (result);                          \
    EXPECT_FALSE(r_.first) << r_.second;               \
    EXPECT_EQ(r_.second.find("Assertion"), std::string::npos) << r_.second; \
  } while (0)
#define EXPECT_FIRES(result, label)                                               \
  do {                                                                            \
    const auto r_ = (result);                                                     \
    EXPECT_TRUE(r_.first) << "expected " << label << " to fire";                  \
    EXPECT_NE(r_.second.find(std::string(".") + label + ":"), std::string::npos) \
        << "expected " << label << ", got:\n" << r_.second;                       \
  } while (0)

// ------------------------------------------------------------------------------------------------
// AXI4 read (W = 64, ADDR_W = 32, BURST_MAX = 16)
using Rd = Vkdopcd_axi_read_checker;

void ar(Rd& m, bool valid, bool ready, std::uint32_t addr = 0x1000, int len = 0) {
  m.m_axi_arvalid_o = valid;
  m.m_axi_arready_i = ready;
  m.m_axi_araddr_o = addr;
  m.m_axi_arlen_o = std::uint8_t(len);
  m.m_axi_arsize_o = 3;
  m.m_axi_arburst_o = 1;
}
void r(Rd& m, bool valid, bool ready, std::uint64_t data = 0, bool last = false, int resp = 0) {
  m.m_axi_rvalid_i = valid;
  m.m_axi_rready_o = ready;
  m.m_axi_rdata_i = data;
  m.m_axi_rlast_i = last;
  m.m_axi_rresp_i = std::uint8_t(resp);
}
void idle(Rd& m) {
  ar(m, false, true, 0, 0);
  r(m, false, true);
}

TEST(CheckerSelftest, AxiReadLegalSequenceIsSilent) {
  EXPECT_SILENT(run<Rd>([](Bench<Rd>& b) {
    // AR stalled two cycles (payload held), then accepted: a 3-beat burst at the end of a 4 KiB page.
    b.cycle([](Rd& m) { ar(m, true, false, 0x1FE8, 2); r(m, false, true); });
    b.cycle([](Rd& m) { ar(m, true, false, 0x1FE8, 2); r(m, false, true); });
    b.cycle([](Rd& m) { ar(m, true, true, 0x1FE8, 2); r(m, false, true); });
    // a second burst (1 beat) accepted while the first is outstanding
    b.cycle([](Rd& m) { ar(m, true, true, 0x3000, 0); r(m, false, true); });
    b.cycle([](Rd& m) { idle(m); r(m, true, false, 0x11); });   // beat 1 stalled
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x11); });    // taken
    b.cycle([](Rd& m) { idle(m); r(m, false, true); });         // gap
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x22); });
    b.cycle([](Rd& m) { idle(m); r(m, true, false, 0x33, true); });
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x33, true); });  // last of burst 1
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x44, true, 2); });  // burst 2 (SLVERR is legal)
    b.cycle([](Rd& m) { idle(m); r(m, false, false, 0x55); });  // rready low, rvalid low: fine
    // 16 beats, exactly up to the page end
    b.cycle([](Rd& m) { ar(m, true, true, 0x4F80, 15); r(m, false, true); });
    for (int i = 0; i < 16; ++i) b.cycle([i](Rd& m) { idle(m); r(m, true, true, std::uint64_t(i), i == 15); });
    b.cycle([](Rd& m) { idle(m); });  // run() keeps the last inputs for two more clocks
  }));
}

TEST(CheckerSelftest, AxiReadArValidDropped) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, false, 0x1000, 1); r(m, false, true); });
    b.cycle([](Rd& m) { idle(m); });
  }), "a_arvalid_held");
}
TEST(CheckerSelftest, AxiReadArPayloadChanged) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, false, 0x1000, 1); r(m, false, true); });
    b.cycle([](Rd& m) { ar(m, true, true, 0x1040, 1); r(m, false, true); });
  }), "a_ar_stable");
}
TEST(CheckerSelftest, AxiReadArlenTooLong) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, true, 0x1000, 16); r(m, false, true); });
  }), "a_arlen_max");
}
TEST(CheckerSelftest, AxiRead4KCrossing) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, true, 0x1FC0, 8); r(m, false, true); });  // 0x1FC0 + 72 > 0x2000
  }), "a_ar_4k");
}
TEST(CheckerSelftest, AxiReadNotIncrFullWidth) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, true, 0x1000, 1); m.m_axi_arsize_o = 2; r(m, false, true); });
  }), "a_ar_incr_full");
}
TEST(CheckerSelftest, AxiReadRValidDropped) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, true, 0x1000, 1); r(m, false, true); });
    b.cycle([](Rd& m) { idle(m); r(m, true, false, 0x5); });
    b.cycle([](Rd& m) { idle(m); r(m, false, true); });
  }), "a_rvalid_held");
}
TEST(CheckerSelftest, AxiReadRPayloadChanged) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, true, 0x1000, 1); r(m, false, true); });
    b.cycle([](Rd& m) { idle(m); r(m, true, false, 0x5); });
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x6); });
  }), "a_r_stable");
}
TEST(CheckerSelftest, AxiReadBeatWithoutBurst) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x5, true); });
  }), "a_r_outstanding");
}
TEST(CheckerSelftest, AxiReadRLastEarly) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, true, 0x1000, 1); r(m, false, true); });
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x5, true); });  // beat 1 of 2 with RLAST
  }), "a_rlast");
}
TEST(CheckerSelftest, AxiReadRLastMissing) {
  EXPECT_FIRES(run<Rd>([](Bench<Rd>& b) {
    b.cycle([](Rd& m) { ar(m, true, true, 0x1000, 1); r(m, false, true); });
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x5, false); });
    b.cycle([](Rd& m) { idle(m); r(m, true, true, 0x6, false); });  // beat 2 of 2 without RLAST
  }), "a_rlast");
}

// ------------------------------------------------------------------------------------------------
// AXI4-Lite
using Lite = Vkdopcd_axil_checker;
void lite_idle(Lite& m) {
  m.s_axil_awvalid_i = 0; m.s_axil_awready_o = 0; m.s_axil_awaddr_i = 0;
  m.s_axil_wvalid_i = 0; m.s_axil_wready_o = 0; m.s_axil_wdata_i = 0; m.s_axil_wstrb_i = 0;
  m.s_axil_bvalid_o = 0; m.s_axil_bready_i = 0; m.s_axil_bresp_o = 0;
  m.s_axil_arvalid_i = 0; m.s_axil_arready_o = 0; m.s_axil_araddr_i = 0;
  m.s_axil_rvalid_o = 0; m.s_axil_rready_i = 0; m.s_axil_rdata_o = 0; m.s_axil_rresp_o = 0;
}

TEST(CheckerSelftest, AxiLiteLegalSequenceIsSilent) {
  EXPECT_SILENT(run<Lite>([](Bench<Lite>& b) {
    // write: AW and W stalled a cycle, then accepted; B stalled a cycle
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_awvalid_i = 1; m.s_axil_awaddr_i = 0x18; m.s_axil_wvalid_i = 1; m.s_axil_wdata_i = 7; m.s_axil_wstrb_i = 0xF; });
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_awvalid_i = 1; m.s_axil_awaddr_i = 0x18; m.s_axil_wvalid_i = 1; m.s_axil_wdata_i = 7; m.s_axil_wstrb_i = 0xF; m.s_axil_awready_o = 1; m.s_axil_wready_o = 1; });
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_bvalid_o = 1; });
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_bvalid_o = 1; m.s_axil_bready_i = 1; });
    // read: AR stalled, R stalled
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_arvalid_i = 1; m.s_axil_araddr_i = 0x14; });
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_arvalid_i = 1; m.s_axil_araddr_i = 0x14; m.s_axil_arready_o = 1; });
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_rvalid_o = 1; m.s_axil_rdata_o = 0x10; });
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_rvalid_o = 1; m.s_axil_rdata_o = 0x10; m.s_axil_rready_i = 1; });
    // payload may change when valid is low
    b.cycle([](Lite& m) { lite_idle(m); m.s_axil_rdata_o = 0x99; m.s_axil_awaddr_i = 0x44; });
  }));
}

struct LiteCase {
  const char* label;
  std::function<void(Lite&)> stall;  // valid high, ready low
  std::function<void(Lite&)> bad;    // the next cycle
};

TEST(CheckerSelftest, AxiLiteEachViolationFires) {
  const std::vector<LiteCase> cases = {
      {"a_awvalid_held", [](Lite& m) { m.s_axil_awvalid_i = 1; m.s_axil_awaddr_i = 4; }, [](Lite&) {}},
      {"a_aw_stable", [](Lite& m) { m.s_axil_awvalid_i = 1; m.s_axil_awaddr_i = 4; },
       [](Lite& m) { m.s_axil_awvalid_i = 1; m.s_axil_awaddr_i = 8; }},
      {"a_wvalid_held", [](Lite& m) { m.s_axil_wvalid_i = 1; m.s_axil_wdata_i = 1; }, [](Lite&) {}},
      {"a_w_stable", [](Lite& m) { m.s_axil_wvalid_i = 1; m.s_axil_wdata_i = 1; m.s_axil_wstrb_i = 0xF; },
       [](Lite& m) { m.s_axil_wvalid_i = 1; m.s_axil_wdata_i = 1; m.s_axil_wstrb_i = 0x1; }},
      {"a_bvalid_held", [](Lite& m) { m.s_axil_bvalid_o = 1; }, [](Lite&) {}},
      {"a_b_stable", [](Lite& m) { m.s_axil_bvalid_o = 1; },
       [](Lite& m) { m.s_axil_bvalid_o = 1; m.s_axil_bresp_o = 2; }},
      {"a_arvalid_held", [](Lite& m) { m.s_axil_arvalid_i = 1; m.s_axil_araddr_i = 4; }, [](Lite&) {}},
      {"a_ar_stable", [](Lite& m) { m.s_axil_arvalid_i = 1; m.s_axil_araddr_i = 4; },
       [](Lite& m) { m.s_axil_arvalid_i = 1; m.s_axil_araddr_i = 0xC; }},
      {"a_rvalid_held", [](Lite& m) { m.s_axil_rvalid_o = 1; m.s_axil_rdata_o = 3; }, [](Lite&) {}},
      {"a_r_stable", [](Lite& m) { m.s_axil_rvalid_o = 1; m.s_axil_rdata_o = 3; },
       [](Lite& m) { m.s_axil_rvalid_o = 1; m.s_axil_rdata_o = 4; }},
  };
  for (const LiteCase& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_FIRES(run<Lite>([&](Bench<Lite>& b) {
      b.cycle([&](Lite& m) { lite_idle(m); c.stall(m); });
      b.cycle([&](Lite& m) { lite_idle(m); c.bad(m); });
    }), c.label);
  }
}

// ------------------------------------------------------------------------------------------------
// AXI4-Stream
using Axis = Vkdopcd_axis_checker;
void axis(Axis& m, bool valid, bool ready, std::uint64_t data) {
  m.m_axis_tvalid_o = valid;
  m.m_axis_tready_i = ready;
  m.m_axis_tdata_o = data;
}

TEST(CheckerSelftest, AxisLegalSequenceIsSilent) {
  EXPECT_SILENT(run<Axis>([](Bench<Axis>& b) {
    b.cycle([](Axis& m) { axis(m, true, false, 0x100000002ull); });
    b.cycle([](Axis& m) { axis(m, true, false, 0x100000002ull); });
    b.cycle([](Axis& m) { axis(m, true, true, 0x100000002ull); });
    b.cycle([](Axis& m) { axis(m, true, true, 0x300000004ull); });
    b.cycle([](Axis& m) { axis(m, false, false, 0x5ull); });
    b.cycle([](Axis& m) { axis(m, false, true, 0x6ull); });
  }));
}
TEST(CheckerSelftest, AxisTValidDropped) {
  EXPECT_FIRES(run<Axis>([](Bench<Axis>& b) {
    b.cycle([](Axis& m) { axis(m, true, false, 1); });
    b.cycle([](Axis& m) { axis(m, false, true, 1); });
  }), "a_tvalid_held");
}
TEST(CheckerSelftest, AxisTDataChanged) {
  EXPECT_FIRES(run<Axis>([](Bench<Axis>& b) {
    b.cycle([](Axis& m) { axis(m, true, false, 1); });
    b.cycle([](Axis& m) { axis(m, true, true, 2); });
  }), "a_tdata_stable");
}

// ------------------------------------------------------------------------------------------------
// AXI4 write (verilated with W = 64, ADDR_W = 32)
using Wr = Vkdopcd_axi_write_checker;

void aw(Wr& m, bool valid, bool ready, std::uint32_t addr = 0x1000, int len = 0) {
  m.m_axi_awvalid_o = valid;
  m.m_axi_awready_i = ready;
  m.m_axi_awaddr_o = addr;
  m.m_axi_awlen_o = std::uint8_t(len);
  m.m_axi_awsize_o = 3;
  m.m_axi_awburst_o = 1;
}
void w(Wr& m, bool valid, bool ready, std::uint64_t data = 0, bool last = false) {
  m.m_axi_wvalid_o = valid;
  m.m_axi_wready_i = ready;
  m.m_axi_wdata_o = data;
  m.m_axi_wstrb_o = 0xFF;
  m.m_axi_wlast_o = last;
  m.m_axi_bvalid_i = 0;
  m.m_axi_bready_o = 1;
  m.m_axi_bresp_i = 0;
}

TEST(CheckerSelftest, AxiWriteLegalSequenceIsSilent) {
  EXPECT_SILENT(run<Wr>([](Bench<Wr>& b) {
    // burst 1 (2 beats): both W beats taken before its AW, which is stalled (payload held)
    b.cycle([](Wr& m) { aw(m, true, false, 0x1000, 1); w(m, true, true, 0x11); });
    b.cycle([](Wr& m) { aw(m, true, false, 0x1000, 1); w(m, true, false, 0x22, true); });
    b.cycle([](Wr& m) { aw(m, true, true, 0x1000, 1); w(m, true, true, 0x22, true); });
    // burst 2 (1 beat): AW first, its beat two clocks later; burst 3 (3 beats): AW with its first beat
    b.cycle([](Wr& m) { aw(m, true, true, 0x2000, 0); w(m, false, true); });
    b.cycle([](Wr& m) { aw(m, false, true); w(m, false, true); });
    b.cycle([](Wr& m) { aw(m, true, true, 0x3000, 2); w(m, true, true, 0x33, true); });
    b.cycle([](Wr& m) { aw(m, false, true); w(m, true, true, 0x44); });
    b.cycle([](Wr& m) { aw(m, false, true); w(m, true, true, 0x55); });
    b.cycle([](Wr& m) { aw(m, false, true); w(m, true, true, 0x66, true); });
    b.cycle([](Wr& m) { aw(m, false, true); w(m, false, true); });
  }));
}
TEST(CheckerSelftest, AxiWriteAwValidDropped) {
  EXPECT_FIRES(run<Wr>([](Bench<Wr>& b) {
    b.cycle([](Wr& m) { aw(m, true, false, 0x1000, 0); w(m, true, true, 0x11, true); });
    b.cycle([](Wr& m) { aw(m, false, true); w(m, false, true); });
  }), "a_awvalid_held");
}
TEST(CheckerSelftest, AxiWriteAwPayloadChanged) {
  EXPECT_FIRES(run<Wr>([](Bench<Wr>& b) {
    b.cycle([](Wr& m) { aw(m, true, false, 0x1000, 0); w(m, false, true); });
    b.cycle([](Wr& m) { aw(m, true, true, 0x1040, 0); w(m, false, true); });
  }), "a_aw_stable");
}
TEST(CheckerSelftest, AxiWriteWPayloadChanged) {
  EXPECT_FIRES(run<Wr>([](Bench<Wr>& b) {
    b.cycle([](Wr& m) { aw(m, true, true, 0x1000, 0); w(m, true, false, 0x11, true); });
    b.cycle([](Wr& m) { aw(m, false, true); w(m, true, true, 0x12, true); });
  }), "a_w_stable");
}
TEST(CheckerSelftest, AxiWriteWLastOffItsAwlen) {
  EXPECT_FIRES(run<Wr>([](Bench<Wr>& b) {
    b.cycle([](Wr& m) { aw(m, false, true); w(m, true, true, 0x11, true); });  // 1 beat before its AW
    b.cycle([](Wr& m) { aw(m, true, true, 0x1000, 1); w(m, false, true); });   // the AW says 2
    b.cycle([](Wr& m) { aw(m, false, true); w(m, false, true); });
  }), "a_wlast_on_awlen");
}

}  // namespace
