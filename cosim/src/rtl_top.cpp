// The whole verilated v2 top behind a SystemC bus host (rtl_top.hpp). The register sequence is
// the --cc driver's (driver/include/kdopcd_driver/v2_query_driver.hpp), clocked by SystemC.
#include "rtl_top.hpp"

#include <algorithm>
#include <stdexcept>

#include "Vkdopcd_v2_top_sc.h"
#include "Vkdopcd_v2_top_sc___024root.h"
#include "kdopcd_driver/register_map.hpp"
#include "kdopcd_driver/v2_host.hpp"

namespace kdopcd::cosim {

namespace reg2 = contract::v2::reg;

namespace {
constexpr std::uint64_t kImageBase = 0x1000;  // where the first image lies in the AXI memory

template <std::size_t N>
std::uint64_t hash_wide(const VlWide<N>& w, int bits) {  // as hash_words() of an sc_bv
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (int i = 0; i < (bits + 31) / 32; ++i) {
    const std::uint32_t x = w[std::size_t(i)];
    for (int b = 0; b < 4; ++b) h = (h ^ ((x >> (8 * b)) & 0xff)) * 0x100000001b3ULL;
  }
  return h;
}
}  // namespace

RtlTop::RtlTop(sc_core::sc_module_name name, sc_core::sc_clock& clk, RtlBlocks blocks)
    : sc_module(name), blocks_(blocks), clk_(clk) {
  auto t = std::make_unique<Vkdopcd_v2_top_sc>("top");
  t->clk_i(clk);
  t->rst_ni(rst_n_);
  t->s_axil_awvalid_i(awvalid_);
  t->s_axil_awready_o(awready_);
  t->s_axil_awaddr_i(awaddr_);
  t->s_axil_wvalid_i(wvalid_);
  t->s_axil_wready_o(wready_);
  t->s_axil_wdata_i(wdata_);
  t->s_axil_wstrb_i(wstrb_);
  t->s_axil_bvalid_o(bvalid_);
  t->s_axil_bready_i(bready_);
  t->s_axil_bresp_o(bresp_);
  t->s_axil_arvalid_i(arvalid_);
  t->s_axil_arready_o(arready_);
  t->s_axil_araddr_i(araddr_);
  t->s_axil_rvalid_o(rvalid_);
  t->s_axil_rready_i(rready_);
  t->s_axil_rdata_o(rdata_);
  t->s_axil_rresp_o(rresp_);
  t->m_axi_arvalid_o(m_arvalid_);
  t->m_axi_arready_i(m_arready_);
  t->m_axi_araddr_o(m_araddr_);
  t->m_axi_arlen_o(m_arlen_);
  t->m_axi_arsize_o(m_arsize_);
  t->m_axi_arburst_o(m_arburst_);
  t->m_axi_rvalid_i(m_rvalid_);
  t->m_axi_rready_o(m_rready_);
  t->m_axi_rdata_i(m_rdata_);
  t->m_axi_rresp_i(m_rresp_);
  t->m_axi_rlast_i(m_rlast_);
  t->m_dma_arvalid_o(q_arvalid_);
  t->m_dma_arready_i(q_arready_);
  t->m_dma_araddr_o(q_araddr_);
  t->m_dma_arlen_o(q_arlen_);
  t->m_dma_arsize_o(q_arsize_);
  t->m_dma_arburst_o(q_arburst_);
  t->m_dma_rvalid_i(q_rvalid_);
  t->m_dma_rready_o(q_rready_);
  t->m_dma_rdata_i(q_rdata_);
  t->m_dma_rresp_i(q_rresp_);
  t->m_dma_rlast_i(q_rlast_);
  t->m_dma_awvalid_o(q_awvalid_);
  t->m_dma_awready_i(q_awready_);
  t->m_dma_awaddr_o(q_awaddr_);
  t->m_dma_awlen_o(q_awlen_);
  t->m_dma_awsize_o(q_awsize_);
  t->m_dma_awburst_o(q_awburst_);
  t->m_dma_wvalid_o(q_wvalid_);
  t->m_dma_wready_i(q_wready_);
  t->m_dma_wdata_o(q_wdata_);
  t->m_dma_wstrb_o(q_wstrb_);
  t->m_dma_wlast_o(q_wlast_);
  t->m_dma_bvalid_i(q_bvalid_);
  t->m_dma_bready_o(q_bready_);
  t->m_dma_bresp_i(q_bresp_);
  t->m_axis_tvalid_o(tvalid_);
  t->m_axis_tready_i(tready_);
  t->m_axis_tdata_o(tdata_);
  t->irq_o(irq_);
  top_ = std::move(t);

  SC_THREAD(host);
  SC_METHOD(memory);
  sensitive << clk.posedge_event();
  dont_initialize();
  SC_METHOD(sink);
  sensitive << clk.posedge_event();
  dont_initialize();
  SC_METHOD(sample);
  sensitive << clk.negedge_event();
  dont_initialize();
}

void RtlTop::arm(const TreeImage* first, const TreeImage* second, std::uint64_t generation, const QueryInputs& q,
                 bool record_trace) {
  if (generation != loaded_generation_) {
    load_f_ = first;
    load_s_ = second;
    loading_generation_ = generation;
    loading_ = true;
  }
  q_ = q;
  record_ = record_trace;
  stream_.clear();
  trace_.clear();
  finished_ = overflow_ = false;
  armed_ = true;
}

void RtlTop::add_to_trace(sc_core::sc_trace_file* tf, const std::string& scope) const {
  auto t = [&](const auto& sig, const char* name) { sc_core::sc_trace(tf, sig, scope + "." + name); };
  t(rst_n_, "rst_ni");
  t(awvalid_, "s_axil_awvalid_i");
  t(awaddr_, "s_axil_awaddr_i");
  t(wdata_, "s_axil_wdata_i");
  t(arvalid_, "s_axil_arvalid_i");
  t(rvalid_, "s_axil_rvalid_o");
  t(rdata_, "s_axil_rdata_o");
  t(m_arvalid_, "m_axi_arvalid_o");
  t(m_araddr_, "m_axi_araddr_o");
  t(m_rvalid_, "m_axi_rvalid_i");
  t(m_rready_, "m_axi_rready_o");
  t(irq_, "irq_o");
  t(tvalid_, "m_axis_tvalid_o");
  t(tdata_, "m_axis_tdata_o");
}

// ---- AXI4-Lite master: one transaction at a time; a handshake is seen at the rising edge that
// ends the clock in which valid and ready were both high.
void RtlTop::lite_write(std::uint32_t addr, std::uint32_t data) {
  awaddr_.write(addr);
  awvalid_.write(true);
  wdata_.write(data);
  wstrb_.write(0xF);
  wvalid_.write(true);
  for (bool aw = false, w = false; !(aw && w);) {
    tick();
    if (!aw && awready_.read()) aw = true, awvalid_.write(false);
    if (!w && wready_.read()) w = true, wvalid_.write(false);
  }
  bready_.write(true);
  do tick();
  while (!bvalid_.read());
  bready_.write(false);
}

void RtlTop::lite_write64(std::uint32_t addr, std::uint64_t data) {
  lite_write(addr, std::uint32_t(data));
  lite_write(addr + 4, std::uint32_t(data >> 32));
}

std::uint32_t RtlTop::lite_read(std::uint32_t addr) {
  araddr_.write(addr);
  arvalid_.write(true);
  do tick();
  while (!arready_.read());
  arvalid_.write(false);
  rready_.write(true);
  while (!rvalid_.read()) tick();  // rvalid can be high in the clock that ends the address handshake
  const std::uint32_t d = rdata_.read();
  rready_.write(false);
  return d;
}

std::uint64_t RtlTop::lite_read64(std::uint32_t addr) {
  const std::uint64_t lo = lite_read(addr);
  return lo | std::uint64_t(lite_read(addr + 4)) << 32;
}

std::uint32_t RtlTop::wait_done() {
  while (!irq_.read()) tick();
  return lite_read(reg2::kStatus);
}

void RtlTop::clear_and_wait_idle() {
  lite_write(reg2::kControl, reg2::kClear);
  for (int n = 0;; ++n) {
    const std::uint32_t st = lite_read(reg2::kStatus);
    if ((st & reg2::kStatusIdle) && !(st & reg2::kStatusDone)) return;
    if (n > 100000) SC_REPORT_FATAL("cosim", "the verilated top did not return to IDLE after CLEAR");
  }
}

void RtlTop::host() {
  // The driver's register sequences (kdopcd_driver/v2_host.hpp) on this thread's bus cycles.
  struct Lite {
    RtlTop& top;
    void write(std::uint32_t addr, std::uint32_t data) { top.lite_write(addr, data); }
    void write64(std::uint32_t addr, std::uint64_t data) { top.lite_write64(addr, data); }
    std::uint32_t read(std::uint32_t addr) { return top.lite_read(addr); }
    std::uint64_t read64(std::uint32_t addr) { return top.lite_read64(addr); }
  } lite{*this};
  rst_n_.write(false);
  tready_.write(true);  // the stream is never back-pressured (as the model's contact queue)
  tick();
  tick();
  rst_n_.write(true);
  for (;;) {
    while (!armed_) tick();
    armed_ = false;
    if (loading_) {  // LOAD: both images in the AXI memory, the bases and counts, CONTROL.LOAD
      const std::vector<std::uint8_t> a = encode(*load_f_), b = encode(*load_s_);
      const std::uint64_t base_b = (kImageBase + a.size() + 4095) / 4096 * 4096;
      mem_.assign(base_b + b.size(), 0);
      std::copy(a.begin(), a.end(), mem_.begin() + std::ptrdiff_t(kImageBase));
      std::copy(b.begin(), b.end(), mem_.begin() + std::ptrdiff_t(base_b));
      driver::v2::LoadProgram l;
      l.a_nodes_at = kImageBase + load_f_->node_section_offset();
      l.a_tris_at = kImageBase + load_f_->triangle_section_offset();
      l.b_nodes_at = base_b + load_s_->node_section_offset();
      l.b_tris_at = base_b + load_s_->triangle_section_offset();
      l.a_nodes = std::uint32_t(load_f_->nodes.size());
      l.a_tris = std::uint32_t(load_f_->triangles.size());
      l.b_nodes = std::uint32_t(load_s_->nodes.size());
      l.b_tris = std::uint32_t(load_s_->triangles.size());
      driver::v2::program_load(lite, l);
      const std::uint32_t st = wait_done();
      if (!(st & reg2::kStatusLoaded)) SC_REPORT_FATAL("cosim", "LOAD of the verilated top ended without LOADED");
      clear_and_wait_idle();
      loading_ = false;
      loaded_generation_ = loading_generation_;
      sc_core::sc_pause();  // the driver times the queries, not the load
    }
    driver::v2::QueryProgram program;
    program.M = &q_.M;
    program.T = &q_.T;
    program.axes = &q_.axes;
    program.rule = DescentRule(q_.rule);
    program.pending_limit = q_.pending_limit;
    driver::v2::program_query(lite, program);
    recording_ = true;
    lite_write(reg2::kControl, reg2::kStart);
    const std::uint32_t st = wait_done();
    recording_ = false;
    overflow_ = (st & reg2::kStatusOverflow) != 0;
    counters_ = driver::v2::read_counters(lite);
    clear_and_wait_idle();
    finished_ = true;
    sc_core::sc_pause();  // back to the driver now
  }
}

std::uint64_t RtlTop::mem_read64(std::uint64_t addr) const {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) {
    const std::uint64_t a = addr + std::uint64_t(i);
    v = v << 8 | (a < mem_.size() ? mem_[std::size_t(a)] : 0);
  }
  return v;
}

// ---- AXI4 read slave: one burst at a time, a beat every clock the loader is ready.
void RtlTop::memory() {
  if (!rst_n_.read()) {
    burst_left_ = 0;
  } else {
    if (m_arvalid_.read() && m_arready_.read()) {
      burst_addr_ = m_araddr_.read();
      burst_left_ = m_arlen_.read() + 1;
    } else if (m_rvalid_.read() && m_rready_.read()) {
      burst_addr_ += c2::kW / 8;
      --burst_left_;
    }
  }
  m_arready_.write(burst_left_ == 0 && rst_n_.read());
  m_rvalid_.write(burst_left_ != 0);
  m_rlast_.write(burst_left_ == 1);
  m_rresp_.write(0);
  if (burst_left_ != 0) m_rdata_.write(mem_read64(burst_addr_));
}

void RtlTop::sink() {
  if (tvalid_.read() && tready_.read()) stream_.push_back(tdata_.read());
}

// The wires between the top's blocks in the middle of the clock: the values of that clock. The
// blocks of engine 0 (the top's generate block g_engine[0], the one the register path drives).
#define ENGINE0_WIRE(name) kdopcd_v2_top__DOT__g_engine__BRA__0__KET____DOT__##name
void RtlTop::sample() {
  if (!recording_ || !record_) return;
  const auto* r = static_cast<Vkdopcd_v2_top_sc*>(top_.get())->rootp;
  if (!r->kdopcd_v2_top__DOT__eng_busy) return;
  CycleRecord c;
  c.ctrl_sat_valid = r->ENGINE0_WIRE(sat_in_valid);
  if (c.ctrl_sat_valid) {
    const auto& link = r->ENGINE0_WIRE(node_link);
    c.fetch_link_f = std::uint64_t(link[1]) << 32 | link[0];
    c.fetch_link_s = std::uint64_t(link[3]) << 32 | link[2];
    c.fetch_coef_a = hash_wide(r->ENGINE0_WIRE(coef_a), kCoefBusW);
    c.fetch_coef_b = hash_wide(r->ENGINE0_WIRE(coef_b), kCoefBusW);
  }
  c.sat_valid = r->ENGINE0_WIRE(sat_valid);
  if (c.sat_valid) {
    c.sat_separated = r->ENGINE0_WIRE(sat_separated);
    c.sat_effective = r->ENGINE0_WIRE(sat_effective);
    c.sat_lane_verdict = r->ENGINE0_WIRE(sat_lanes);
  }
  c.ctrl_tri_valid = r->ENGINE0_WIRE(tri_in_valid);
  if (c.ctrl_tri_valid) {
    c.ctrl_tri_id = r->ENGINE0_WIRE(tri_in_id);
    c.fetch_tri_a = hash_wide(r->ENGINE0_WIRE(tri_a), c2::kTriBits);
    c.fetch_tri_b = hash_wide(r->ENGINE0_WIRE(tri_b), c2::kTriBits);
  }
  c.tri_valid = r->ENGINE0_WIRE(tri_valid);
  if (c.tri_valid) {
    c.tri_hit = r->ENGINE0_WIRE(tri_hit);
    c.tri_id = r->ENGINE0_WIRE(tri_id);
  }
  c.out_valid = tvalid_.read();
  if (c.out_valid) c.out_data = tdata_.read();
  trace_.push_back(c);
}

}  // namespace kdopcd::cosim
