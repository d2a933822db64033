// One signal-level v2 engine with its units (signal_top.hpp).
#include "signal_top.hpp"

#include "Vkdopcd_sat_wide.h"
#include "Vkdopcd_tri_seq.h"
#include "sat_wide_model.hpp"
#include "tri_seq_model.hpp"

namespace kdopcd::cosim {

// The verilated units have the RTL's ports with the types of ports.hpp, by construction of the
// verilated class; if a port's width changed in the RTL, this is where the build says so.
static_assert(std::is_same_v<decltype(Vkdopcd_sat_wide::coef_a_i), sc_core::sc_in<CoefBus>&>);
static_assert(std::is_same_v<decltype(Vkdopcd_sat_wide::pa_i), sc_core::sc_in<PBus>&>);
static_assert(std::is_same_v<decltype(Vkdopcd_sat_wide::effective_o), sc_core::sc_out<EffPort>&>);
static_assert(std::is_same_v<decltype(Vkdopcd_sat_wide::lane_verdict_o), sc_core::sc_out<LaneBits>&>);
static_assert(std::is_same_v<decltype(Vkdopcd_tri_seq::tri_a_i), sc_core::sc_in<TriBus>&>);
static_assert(std::is_same_v<decltype(Vkdopcd_tri_seq::trans_i), sc_core::sc_in<TransBus>&>);
static_assert(std::is_same_v<decltype(Vkdopcd_tri_seq::id_o), sc_core::sc_out<IdPort>&>);

SignalTop::SignalTop(sc_core::sc_module_name name, sc_core::sc_clock& clk, RtlBlocks blocks)
    : sc_module(name), blocks_(blocks), ctrl_("ctrl") {
  ctrl_.clk_i(clk);
  ctrl_.rst_ni(rst_n_);
  ctrl_.start_i(start_);
  ctrl_.rule_i(rule_);
  ctrl_.pending_limit_i(pending_limit_);
  ctrl_.sat_valid_o(sat_in_valid_);
  ctrl_.sat_coef_a_o(coef_a_);
  ctrl_.sat_coef_b_o(coef_b_);
  ctrl_.sat_valid_i(sat_valid_);
  ctrl_.sat_separated_i(sat_separated_);
  ctrl_.sat_effective_i(sat_effective_);
  ctrl_.tri_valid_o(tri_in_valid_);
  ctrl_.tri_a_o(tri_a_);
  ctrl_.tri_b_o(tri_b_);
  ctrl_.tri_id_o(tri_in_id_);
  ctrl_.tri_valid_i(tri_valid_);
  ctrl_.tri_hit_i(tri_hit_);
  ctrl_.tri_id_i(tri_id_);
  ctrl_.m_axis_tvalid_o(tvalid_);
  ctrl_.m_axis_tready_i(tready_);
  ctrl_.m_axis_tdata_o(tdata_);
  ctrl_.busy_o(busy_);
  ctrl_.idle_o(idle_);
  ctrl_.done_o(done_);
  ctrl_.overflow_o(overflow_sig_);

  // The swap: the same binding for the model and the verilated unit.
  if (blocks.sat) {
    auto m = std::make_unique<Vkdopcd_sat_wide>("sat");
    bind_sat(*m, clk);
    sat_ = std::move(m);
  } else {
    auto m = std::make_unique<SatWideModel>("sat");
    bind_sat(*m, clk);
    sat_ = std::move(m);
  }
  if (blocks.tri) {
    auto m = std::make_unique<Vkdopcd_tri_seq>("tri");
    bind_tri(*m, clk);
    tri_ = std::move(m);
  } else {
    auto m = std::make_unique<TriSeqModel>("tri");
    bind_tri(*m, clk);
    tri_ = std::move(m);
  }

  SC_METHOD(host);
  sensitive << clk.posedge_event();
  dont_initialize();
}

template <class Sat>
void SignalTop::bind_sat(Sat& m, sc_core::sc_clock& clk) {
  m.clk_i(clk);
  m.rst_ni(rst_n_);
  m.valid_i(sat_in_valid_);
  m.coef_a_i(coef_a_);
  m.coef_b_i(coef_b_);
  m.ja_i(ja_);
  m.jb_i(jb_);
  m.pa_i(pa_);
  m.pb_i(pb_);
  m.p_i(p_);
  m.valid_o(sat_valid_);
  m.lane_verdict_o(sat_lanes_);
  m.separated_o(sat_separated_);
  m.effective_o(sat_effective_);
}

template <class Tri>
void SignalTop::bind_tri(Tri& m, sc_core::sc_clock& clk) {
  m.clk_i(clk);
  m.rst_ni(rst_n_);
  m.valid_i(tri_in_valid_);
  m.tri_a_i(tri_a_);
  m.tri_b_i(tri_b_);
  m.rot_i(rot_);
  m.trans_i(trans_);
  m.id_i(tri_in_id_);
  m.valid_o(tri_valid_);
  m.hit_o(tri_hit_);
  m.id_o(tri_id_);
}

void SignalTop::arm(const TreeImage* first, const TreeImage* second, const QueryInputs& q, bool record_trace) {
  ctrl_.load(first, second);
  ja_.write(q.ja);
  jb_.write(q.jb);
  pa_.write(q.pa);
  pb_.write(q.pb);
  p_.write(q.p);
  rot_.write(q.rot);
  trans_.write(q.trans);
  rule_.write(q.rule);
  pending_limit_.write(q.pending_limit);
  record_ = record_trace;
  stream_.clear();
  trace_.clear();
  finished_ = overflow_ = false;
  armed_ = true;
}

void SignalTop::add_to_trace(sc_core::sc_trace_file* tf, const std::string& scope) const {
  auto t = [&](const auto& sig, const char* name) { sc_core::sc_trace(tf, sig, scope + "." + name); };
  t(rst_n_, "rst_ni");
  t(start_, "start_i");
  t(busy_, "busy_o");
  t(done_, "done_o");
  t(overflow_sig_, "overflow_o");
  t(sat_in_valid_, "sat.valid_i");
  t(coef_a_, "sat.coef_a_i");
  t(coef_b_, "sat.coef_b_i");
  t(sat_valid_, "sat.valid_o");
  t(sat_lanes_, "sat.lane_verdict_o");
  t(sat_separated_, "sat.separated_o");
  t(sat_effective_, "sat.effective_o");
  t(tri_in_valid_, "tri.valid_i");
  t(tri_a_, "tri.tri_a_i");
  t(tri_b_, "tri.tri_b_i");
  t(tri_in_id_, "tri.id_i");
  t(tri_valid_, "tri.valid_o");
  t(tri_hit_, "tri.hit_o");
  t(tri_id_, "tri.id_o");
  t(tvalid_, "m_axis_tvalid_o");
  t(tdata_, "m_axis_tdata_o");
}

// At each rising edge the host sees the values of the clock that ends there.
void SignalTop::host() {
  if (reset_clocks_ < 2) {  // two clocks of reset after elaboration
    ++reset_clocks_;
    rst_n_.write(false);
    start_.write(false);
    return;
  }
  rst_n_.write(true);
  tready_.write(true);  // the stream is never back-pressured (as the model's contact queue)
  if (armed_ && idle_.read()) {
    start_.write(true);
    armed_ = false;
    running_ = true;
    return;
  }
  start_.write(false);
  if (!running_) return;
  if (busy_.read() && record_) {
    CycleRecord r;
    r.sat_valid = sat_valid_.read();
    if (r.sat_valid) {
      r.sat_separated = sat_separated_.read();
      r.sat_effective = std::uint32_t(sat_effective_.read());
      r.sat_lane_verdict = std::uint32_t(sat_lanes_.read());
    }
    r.tri_valid = tri_valid_.read();
    if (r.tri_valid) {
      r.tri_hit = tri_hit_.read();
      r.tri_id = tri_id_.read();
    }
    r.out_valid = tvalid_.read();
    if (r.out_valid) r.out_data = tdata_.read();
    trace_.push_back(r);
  }
  if (tvalid_.read() && tready_.read()) stream_.push_back(tdata_.read());
  if (done_.read()) {
    running_ = false;
    finished_ = true;
    overflow_ = overflow_sig_.read();
    sc_core::sc_pause();  // back to the driver now, not at the end of a time slice it guessed
  }
}

}  // namespace kdopcd::cosim
