// The signal-level v2 engine without its units and RAMs (engine_ctrl.hpp). The names follow
// rtl/v2/kdopcd_v2_engine.sv, so that a difference is found by reading both side by side.
#include "engine_ctrl.hpp"

#include "kdopcd_contract/formats.hpp"

namespace kdopcd::cosim {

namespace {
constexpr std::size_t kLast = c2::kRamLat - 1;
using Cnt = c2::Counter;
std::size_t at(Cnt c) { return std::size_t(c); }
constexpr std::uint32_t kNodeMask = (std::uint32_t(1) << c2::kNodeAw) - 1;  // NODE_AW'(x)
constexpr std::uint32_t kTriMask = (std::uint32_t(1) << c2::kTriAw) - 1;    // TRI_AW'(x)
// link_t of a node record's link word
bool leaf(std::uint64_t link) { return (link >> 63) & 1; }
std::uint32_t right(std::uint64_t link) { return std::uint32_t(link >> 32) & 0x7fffffffu; }
std::uint32_t left(std::uint64_t link) { return std::uint32_t(link); }
}  // namespace

EngineCtrl::EngineCtrl(sc_core::sc_module_name name) : sc_module(name) {
  pending_.reserve(c2::kPendingDepth);
  SC_METHOD(on_clock);
  sensitive << clk_i.pos();
  dont_initialize();
}

void EngineCtrl::reset() {
  running_ = done_ = overflow_ = false;
  flight_ = tri_flight_ = ii_cnt_ = 0;
  limit_ = std::uint32_t(c2::kPendingDepth);
  pending_.clear();
  tri_queue_.clear();
  contact_queue_.clear();
  ram_valid_.fill(false);
  tri_ram_valid_.fill(false);
  cnt_.fill(0);
}

void EngineCtrl::on_clock() {
  if (!rst_ni.read()) {
    reset();
    sat_valid_o.write(false);
    tri_valid_o.write(false);
    m_axis_tvalid_o.write(false);
    busy_o.write(false);
    idle_o.write(true);
    done_o.write(false);
    overflow_o.write(false);
    counters_o.write(CountersBus());
    return;
  }
  const bool start = start_i.read();
  const std::uint32_t pend_cnt = std::uint32_t(pending_.size());
  const std::uint32_t limit = limit_;  // the limit this query started with

  // ---- scheduler: credits from the state at the start of the clock
  const bool slot_free = flight_ < std::uint32_t(c2::kPairsInFlight);
  const bool pending_room = pend_cnt + 2 * flight_ + 1 <= limit || flight_ == 0;
  const bool tri_room = tri_queue_.size() + flight_ + 1 <= std::size_t(c2::kTriQueue);
  const bool issue = running_ && pend_cnt != 0 && slot_free && pending_room && tri_room;
  const Pair pend_top = pend_cnt != 0 ? pending_.back() : Pair{};
  const bool sat_in_valid = ram_valid_[kLast];

  // ---- verdict of the pair that entered the SAT unit SAT_LAT clocks ago
  const Meta& vm = meta_.back();
  const bool sat_valid = sat_valid_i.read();
  const bool v_valid = sat_valid && running_;
  const bool v_overlap = v_valid && !sat_separated_i.read();
  const bool leaf_f = leaf(vm.link_f), leaf_s = leaf(vm.link_s);
  const bool v_leaves = leaf_f && leaf_s;
  bool split_first;  // kdopcd::split_first_node
  const std::uint32_t rule = rule_i.read();
  if (leaf_f) split_first = false;
  else if (leaf_s) split_first = true;
  else if (rule == std::uint32_t(contract::format::DescentRule::kFirst)) split_first = true;
  else if (rule == std::uint32_t(contract::format::DescentRule::kSecond)) split_first = false;
  else split_first = vm.pair.depth_f <= vm.pair.depth_s;
  Pair push_first = vm.pair, push_second = vm.pair;  // right child first, the left one on top
  if (split_first) {
    push_first.f = right(vm.link_f) & kNodeMask;
    push_second.f = left(vm.link_f) & kNodeMask;
    push_first.depth_f = push_second.depth_f = std::uint8_t(vm.pair.depth_f + 1);
  } else {
    push_first.s = right(vm.link_s) & kNodeMask;
    push_second.s = left(vm.link_s) & kNodeMask;
    push_first.depth_s = push_second.depth_s = std::uint8_t(vm.pair.depth_s + 1);
  }
  const bool pend_push = v_overlap && !v_leaves;
  const bool job_push = v_overlap && v_leaves;
  const Job job_in{left(vm.link_f) & kTriMask, left(vm.link_s) & kTriMask};

  // ---- triangle unit and contact queue
  const bool tri_out_valid = tri_valid_i.read();
  const bool cq_pop = running_ && !contact_queue_.empty() && m_axis_tready_i.read();
  const bool cq_push = running_ && tri_out_valid && tri_hit_i.read();
  const std::size_t cq_after = contact_queue_.size() - std::size_t(cq_pop) + std::size_t(cq_push);
  const bool tri_ready = running_ && !tri_queue_.empty() && ii_cnt_ == 0;
  const bool tri_credit = cq_after + tri_flight_ - std::size_t(tri_out_valid) + 1 <= std::size_t(c2::kContactQueue);
  const bool tri_start = tri_ready && tri_credit;
  const bool tri_stall = tri_ready && !tri_credit;
  const Job job_head = tri_queue_.empty() ? Job{} : tri_queue_.front();

  // ---- pending set (kdopcd_v2_pending): pop, then the two pushes above what is left
  const std::uint32_t base = pend_cnt - std::uint32_t(issue);
  const bool fit_first = pend_push && base < limit;
  const bool fit_second = pend_push && base + 1 < limit;
  const bool pend_ovf = pend_push && !fit_second;
  const std::uint32_t pend_next = start ? 1 : base + std::uint32_t(fit_first) + std::uint32_t(fit_second);

  // ---- end of query
  const std::uint32_t flight_d = flight_ + std::uint32_t(issue) - std::uint32_t(sat_valid);
  const std::uint32_t tri_flight_d = tri_flight_ + std::uint32_t(tri_start) - std::uint32_t(tri_out_valid);
  std::uint32_t ii_cnt_d = tri_start ? std::uint32_t(c2::kTriIi - 1) : (ii_cnt_ != 0 ? ii_cnt_ - 1 : 0);
  if (start) ii_cnt_d = 0;
  const bool finish = running_ && (pend_ovf || (pend_next == 0 && flight_d == 0 &&
                                                tri_queue_.size() + std::size_t(job_push) - std::size_t(tri_start) == 0 &&
                                                tri_flight_d == 0 && cq_after == 0));

  // ---- counters (the RTL's cnt_d)
  if (running_) {
    ++cnt_[at(Cnt::kCycles)];
    if (v_valid) {
      ++cnt_[at(Cnt::kPairTests)];
      cnt_[at(Cnt::kAxisTests)] += sat_effective_i.read();
    }
    if (job_push) ++cnt_[at(Cnt::kLeafPairs)];
    if (tri_start) ++cnt_[at(Cnt::kTriangleTests)];
    if (cq_pop) ++cnt_[at(Cnt::kContacts)];
    if (pend_next > cnt_[at(Cnt::kMaxPending)]) cnt_[at(Cnt::kMaxPending)] = pend_next;
    if (pend_cnt != 0 && !issue) ++cnt_[at(Cnt::kStallCycles)];
    if (tri_stall) ++cnt_[at(Cnt::kTriangleStallCycles)];
    const std::uint64_t tq_after_push = tri_queue_.size() - std::size_t(tri_start) + 1;
    const std::uint64_t cq_after_push = contact_queue_.size() - std::size_t(cq_pop) + 1;
    if (job_push && tq_after_push > cnt_[at(Cnt::kMaxTriangleQueue)]) cnt_[at(Cnt::kMaxTriangleQueue)] = tq_after_push;
    if (cq_push && cq_after_push > cnt_[at(Cnt::kMaxContactQueue)]) cnt_[at(Cnt::kMaxContactQueue)] = cq_after_push;
    if (sat_in_valid) ++cnt_[at(Cnt::kSatIssues)];
  }
  if (start) {
    for (int i = 0; i < c2::kNumCounters; ++i)
      if (i != int(Cnt::kLoadCycles) && i != int(Cnt::kLoadBeats)) cnt_[std::size_t(i)] = 0;
    cnt_[at(Cnt::kMaxPending)] = 1;  // the root
  }

  // ---- register updates (always_ff)
  const IdPort tri_out_id = tri_id_i.read();
  if (start) {
    pending_.assign(1, Pair{});  // the root pair (0, 0)
    tri_queue_.clear();
    contact_queue_.clear();
  } else {
    pending_.resize(base);
    if (fit_first) pending_.push_back(push_first);
    if (fit_second) pending_.push_back(push_second);
    if (tri_start) tri_queue_.pop_front();
    if (job_push) tri_queue_.push_back(job_in);
    if (cq_pop) contact_queue_.pop_front();
    if (cq_push) contact_queue_.push_back(tri_out_id);
  }
  // The SAT unit samples this clock's sat_in (the last RAM stage); its meta enters meta_q.
  for (std::size_t i = meta_.size() - 1; i > 0; --i) meta_[i] = meta_[i - 1];
  {  // meta_q[0] <= sat_in_meta: the pair and the link words on the fetch block's outputs
    const BusWords<kLinkBusW> links = BusWords<kLinkBusW>::of(node_link_i.read());
    meta_[0] = Meta{ram_pair_[kLast], links.get(0, 64), links.get(64, 64)};
  }
  for (std::size_t i = kLast; i > 0; --i) {
    ram_valid_[i] = ram_valid_[i - 1];
    ram_pair_[i] = ram_pair_[i - 1];
    tri_ram_valid_[i] = tri_ram_valid_[i - 1];
    tri_ram_job_[i] = tri_ram_job_[i - 1];
  }
  ram_valid_[0] = issue;
  ram_pair_[0] = pend_top;
  tri_ram_valid_[0] = tri_start;
  tri_ram_job_[0] = job_head;
  if (start)
    limit_ = (pending_limit_i.read() == 0 || pending_limit_i.read() > std::uint32_t(c2::kPendingDepth))
                 ? std::uint32_t(c2::kPendingDepth)
                 : pending_limit_i.read();
  running_ = start ? true : (finish ? false : running_);
  flight_ = flight_d;
  tri_flight_ = tri_flight_d;
  ii_cnt_ = ii_cnt_d;
  done_ = finish;
  if (start) overflow_ = false;
  else if (finish) overflow_ = pend_ovf;

  // ---- outputs: registers, or functions of registers only
  const Pair top = pending_.empty() ? Pair{} : pending_.back();  // the RAM address of the next clock
  node_raddr_o.write(NodeAddrBus(std::uint64_t(top.s) << c2::kNodeAw | top.f));
  const Job head = tri_queue_.empty() ? Job{} : tri_queue_.front();
  tri_raddr_o.write(TriAddrBus(std::uint64_t(head.ts) << c2::kTriAw | head.tf));
  sat_valid_o.write(ram_valid_[kLast]);
  tri_valid_o.write(tri_ram_valid_[kLast]);
  const Job& j = tri_ram_job_[kLast];
  tri_id_o.write(IdPort(std::uint64_t(j.ts) << 32 | j.tf));
  m_axis_tvalid_o.write(running_ && !contact_queue_.empty());
  if (!contact_queue_.empty()) m_axis_tdata_o.write(contact_queue_.front());
  busy_o.write(running_);
  idle_o.write(!running_ && flight_ == 0 && tri_flight_ == 0);
  done_o.write(done_);
  overflow_o.write(overflow_);
  BusWords<kCountersW> cnt;
  for (int i = 0; i < c2::kNumCounters; ++i) {
    cnt.w[std::size_t(2 * i)] = std::uint32_t(cnt_[std::size_t(i)]);
    cnt.w[std::size_t(2 * i + 1)] = std::uint32_t(cnt_[std::size_t(i)] >> 32);
  }
  counters_o.write(cnt.bv());
}

}  // namespace kdopcd::cosim
