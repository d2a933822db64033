// One signal-level v2 engine with its blocks (signal_top.hpp).
#include "signal_top.hpp"

#include "Vkdopcd_sat_wide.h"
#include "Vkdopcd_tri_seq.h"
#include "Vkdopcd_v2_engine.h"
#include "Vkdopcd_v2_fetch.h"
#include "engine_ctrl.hpp"
#include "fetch_model.hpp"
#include "sat_wide_model.hpp"
#include "tri_seq_model.hpp"

namespace kdopcd::cosim {

// The verilated blocks have the RTL's ports with the types of ports.hpp, by construction of the
// verilated class; if a port's width changed in the RTL, this is where the build says so.
template <class P, class T>
inline constexpr bool kIn = std::is_same_v<P, sc_core::sc_in<T>&>;
template <class P, class T>
inline constexpr bool kOut = std::is_same_v<P, sc_core::sc_out<T>&>;
static_assert(kIn<decltype(Vkdopcd_sat_wide::coef_a_i), CoefBus>);
static_assert(kIn<decltype(Vkdopcd_sat_wide::pa_i), PBus>);
static_assert(kOut<decltype(Vkdopcd_sat_wide::effective_o), EffPort>);
static_assert(kOut<decltype(Vkdopcd_sat_wide::lane_verdict_o), LaneBits>);
static_assert(kIn<decltype(Vkdopcd_tri_seq::tri_a_i), TriBus>);
static_assert(kIn<decltype(Vkdopcd_tri_seq::trans_i), TransBus>);
static_assert(kOut<decltype(Vkdopcd_tri_seq::id_o), IdPort>);
static_assert(kOut<decltype(Vkdopcd_v2_engine::node_raddr_o), NodeAddrBus>);
static_assert(kIn<decltype(Vkdopcd_v2_engine::node_link_i), LinkBus>);
static_assert(kOut<decltype(Vkdopcd_v2_engine::tri_raddr_o), TriAddrBus>);
static_assert(kIn<decltype(Vkdopcd_v2_engine::pending_limit_i), std::uint32_t>);
static_assert(kIn<decltype(Vkdopcd_v2_engine::sat_effective_i), EffPort>);
static_assert(kOut<decltype(Vkdopcd_v2_engine::counters_o), CountersBus>);
static_assert(kIn<decltype(Vkdopcd_v2_fetch::node_wdata_i), NodeRec>);
static_assert(kIn<decltype(Vkdopcd_v2_fetch::node_waddr_i), NodeAddr>);
static_assert(kIn<decltype(Vkdopcd_v2_fetch::tri_wdata_i), TriRec>);
static_assert(kOut<decltype(Vkdopcd_v2_fetch::coef_a_o), CoefBus>);
static_assert(kOut<decltype(Vkdopcd_v2_fetch::tri_b_o), TriBus>);

namespace {
template <class Model, class Verilated, class Bind>
std::unique_ptr<sc_core::sc_module> make_block(bool verilated, const char* name, Bind bind) {
  if (verilated) {
    auto m = std::make_unique<Verilated>(name);
    bind(*m);
    return m;
  }
  auto m = std::make_unique<Model>(name);
  bind(*m);
  return m;
}
}  // namespace

SignalTop::SignalTop(sc_core::sc_module_name name, sc_core::sc_clock& clk, RtlBlocks blocks)
    : sc_module(name), blocks_(blocks) {
  // The swap: the same binding for the model and the verilated block.
  ctrl_ = make_block<EngineCtrl, Vkdopcd_v2_engine>(blocks.ctrl, "ctrl", [&](auto& m) { bind_ctrl(m, clk); });
  fetch_ = make_block<FetchModel, Vkdopcd_v2_fetch>(blocks.fetch, "fetch", [&](auto& m) { bind_fetch(m, clk); });
  sat_ = make_block<SatWideModel, Vkdopcd_sat_wide>(blocks.sat, "sat", [&](auto& m) { bind_sat(m, clk); });
  tri_ = make_block<TriSeqModel, Vkdopcd_tri_seq>(blocks.tri, "tri", [&](auto& m) { bind_tri(m, clk); });

  SC_METHOD(host);
  sensitive << clk.posedge_event();
  dont_initialize();
}

template <class Ctrl>
void SignalTop::bind_ctrl(Ctrl& m, sc_core::sc_clock& clk) {
  m.clk_i(clk);
  m.rst_ni(rst_n_);
  m.start_i(start_);
  m.rule_i(rule_);
  m.pending_limit_i(pending_limit_);
  m.node_raddr_o(node_raddr_);
  m.node_link_i(node_link_);
  m.tri_raddr_o(tri_raddr_);
  m.sat_valid_o(sat_in_valid_);
  m.sat_valid_i(sat_valid_);
  m.sat_lane_verdict_i(sat_lanes_);
  m.sat_separated_i(sat_separated_);
  m.sat_effective_i(sat_effective_);
  m.tri_valid_o(tri_in_valid_);
  m.tri_id_o(tri_in_id_);
  m.tri_valid_i(tri_valid_);
  m.tri_hit_i(tri_hit_);
  m.tri_id_i(tri_id_);
  m.m_axis_tvalid_o(tvalid_);
  m.m_axis_tready_i(tready_);
  m.m_axis_tdata_o(tdata_);
  m.busy_o(busy_);
  m.idle_o(idle_);
  m.done_o(done_);
  m.overflow_o(overflow_sig_);
  m.counters_o(counters_);
}

template <class Fetch>
void SignalTop::bind_fetch(Fetch& m, sc_core::sc_clock& clk) {
  m.clk_i(clk);
  m.node_we_i(node_we_);
  m.node_waddr_i(node_waddr_);
  m.node_wdata_i(node_wdata_);
  m.tri_we_i(tri_we_);
  m.tri_waddr_i(tri_waddr_);
  m.tri_wdata_i(tri_wdata_);
  m.node_raddr_i(node_raddr_);
  m.node_link_o(node_link_);
  m.coef_a_o(coef_a_);
  m.coef_b_o(coef_b_);
  m.tri_raddr_i(tri_raddr_);
  m.tri_a_o(tri_a_);
  m.tri_b_o(tri_b_);
}

template <class Sat>
void SignalTop::bind_sat(Sat& m, sc_core::sc_clock& clk) {
  m.clk_i(clk);
  m.rst_ni(rst_n_);
  m.cfg_i(start_);
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

void SignalTop::arm(const TreeImage* first, const TreeImage* second, std::uint64_t generation, const QueryInputs& q,
                    bool record_trace) {
  if (generation != loaded_generation_) {
    load_f_ = first;
    load_s_ = second;
    loading_generation_ = generation;
    loading_ = true;
    load_node_ = load_tri_ = 0;
  }
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

std::array<std::uint64_t, c2::kNumCounters> SignalTop::counters() const {
  const BusWords<kCountersW> w = BusWords<kCountersW>::of(counters_.read());
  std::array<std::uint64_t, c2::kNumCounters> out{};
  for (int i = 0; i < c2::kNumCounters; ++i) out[std::size_t(i)] = w.get(64 * i, 64);
  return out;
}

void SignalTop::add_to_trace(sc_core::sc_trace_file* tf, const std::string& scope) const {
  auto t = [&](const auto& sig, const char* name) { sc_core::sc_trace(tf, sig, scope + "." + name); };
  t(rst_n_, "rst_ni");
  t(start_, "start_i");
  t(busy_, "busy_o");
  t(done_, "done_o");
  t(overflow_sig_, "overflow_o");
  t(node_we_, "fetch.node_we_i");
  t(tri_we_, "fetch.tri_we_i");
  t(node_raddr_, "fetch.node_raddr_i");
  t(node_link_, "fetch.node_link_o");
  t(tri_raddr_, "fetch.tri_raddr_i");
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

bool SignalTop::load_step() {
  bool wrote = false;
  // Node records: the first tree's, then the second's; triangle records beside them, the same way.
  const std::size_t nf = load_f_->nodes.size(), ns = load_s_->nodes.size();
  const std::size_t tf = load_f_->triangles.size(), ts = load_s_->triangles.size();
  if (load_node_ < nf + ns) {
    const bool second = load_node_ >= nf;
    const std::size_t i = second ? load_node_ - nf : load_node_;
    const ImageNode& n = (second ? load_s_ : load_f_)->nodes[i];
    // docs/formats.md: bit 63 leaf, [62:32] right child, [31:0] left child or triangle
    const std::uint64_t link = n.is_leaf ? (std::uint64_t(1) << 63 | std::uint32_t(n.triangle))
                                         : (std::uint32_t(n.left) | std::uint64_t(std::uint32_t(n.right)) << 32);
    BusWords<kNodeBits> rec;
    rec.put(0, 64, std::int64_t(link));
    for (int j = 0; j < c2::kK; ++j) rec.put(64 + j * c2::kCoefW, c2::kCoefW, n.coeffs[std::size_t(j)]);
    node_we_.write(second ? 2u : 1u);
    node_waddr_.write(NodeAddr(i));
    node_wdata_.write(rec.bv());
    ++load_node_;
    wrote = true;
  } else {
    node_we_.write(0);
  }
  if (load_tri_ < tf + ts) {
    const bool second = load_tri_ >= tf;
    const std::size_t i = second ? load_tri_ - tf : load_tri_;
    const ImageTriangle& tri = (second ? load_s_ : load_f_)->triangles[i];
    BusWords<c2::kTriBits> rec;
    for (int c = 0; c < 9; ++c) rec.put(c * c2::kCoordW, c2::kCoordW, tri[std::size_t(c)]);
    tri_we_.write(second ? 2u : 1u);
    tri_waddr_.write(TriAddr(i));
    tri_wdata_.write(rec.bv());
    ++load_tri_;
    wrote = true;
  } else {
    tri_we_.write(0);
  }
  return wrote;
}

// At each rising edge the host sees the values of the clock that ends there.
void SignalTop::host() {
  if (reset_clocks_ < 2) {  // two clocks of reset after elaboration
    ++reset_clocks_;
    rst_n_.write(false);
    start_.write(false);
    node_we_.write(0);
    tri_we_.write(0);
    return;
  }
  rst_n_.write(true);
  tready_.write(true);  // the stream is never back-pressured (as the model's contact queue)
  if (loading_) {  // done when a clock writes nothing: the write enables are low again
    if (!load_step()) {
      loading_ = false;
      loaded_generation_ = loading_generation_;
      sc_core::sc_pause();  // the driver times the queries, not the load
    }
    start_.write(false);
    return;
  }
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
    r.ctrl_sat_valid = sat_in_valid_.read();
    if (r.ctrl_sat_valid) {
      const BusWords<kLinkBusW> link = BusWords<kLinkBusW>::of(node_link_.read());
      r.fetch_link_f = link.get(0, 64);
      r.fetch_link_s = link.get(64, 64);
      r.fetch_coef_a = hash_words(coef_a_.read());
      r.fetch_coef_b = hash_words(coef_b_.read());
    }
    r.sat_valid = sat_valid_.read();
    if (r.sat_valid) {
      r.sat_separated = sat_separated_.read();
      r.sat_effective = std::uint32_t(sat_effective_.read());
      r.sat_lane_verdict = std::uint32_t(sat_lanes_.read());
    }
    r.ctrl_tri_valid = tri_in_valid_.read();
    if (r.ctrl_tri_valid) {
      r.ctrl_tri_id = tri_in_id_.read();
      r.fetch_tri_a = hash_words(tri_a_.read());
      r.fetch_tri_b = hash_words(tri_b_.read());
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
