// One v2 traversal engine (v2_engine.hpp has the per-clock contract).
#include "v2_engine.hpp"

#include <algorithm>

#include "kdopcd/sat_fixed.hpp"

namespace kdopcd::model {

V2Engine::V2Engine(const V2Config& config, int engine_id, AxiReadMemory* external, NodeCache* caches)
    : cfg_(config), p_(cfg_.params), id_(engine_id), external_(external), caches_(caches) {}

void V2Engine::start(const QueryRegisters* regs, std::uint64_t now) {
  regs_ = regs;
  busy_ = true;
  error_ = false;
  start_ = now;
  end_ = 0;
  stats_ = ModelStats{};
  contacts_.clear();
  pending_ = PairStack(std::size_t(p_.stack_depth));
  const std::size_t flight = std::size_t(p_.pairs_in_flight);
  slots_.assign(flight, Slot{});
  free_slots_.clear();
  for (std::size_t i = flight; i-- > 0;) free_slots_.push_back(std::uint32_t(i));
  in_flight_ = 0;
  ready_ = {};
  const int lanes = p_.sat_lanes > 0 ? std::min(p_.sat_lanes, cfg_.n) : cfg_.n;
  const int contexts = p_.sat_contexts > 0 ? p_.sat_contexts : cfg_.sat_latency + 1;
  units_.assign(std::size_t(p_.sat_units), SatUnit(SatUnitConfig{cfg_.n, lanes, cfg_.sat_latency, contexts}));
  const bool onchip = p_.tree_memory == TreeMemory::OnChip;
  // On chip the unit reads its two triangle records when a test starts: ram_latency more clocks.
  tri_ = TriangleUnit(TriangleUnitConfig{p_.triangle_latency + (onchip ? p_.ram_latency : 0), p_.triangle_ii,
                                         std::size_t(p_.triangle_queue)},
                      regs->first, regs->second, &regs->pose, p_.rotation_bits);
  out_ = ContactQueue(std::size_t(p_.contact_queue));
  pending_.push({0, 0});
}

int V2Engine::first_separating_axis(const NodePair& pair) const {
  const ImageNode& f = regs_->first->image.nodes[std::size_t(pair.f)];
  const ImageNode& s = regs_->second->image.nodes[std::size_t(pair.s)];
  for (int a = 0; a < cfg_.n; ++a)
    if (fixed_axis_diffs<false>(s.coeffs.data(), f.coeffs.data(), cfg_.k / 2, regs_->axes[std::size_t(a)], p_.fixed)
            .separated())
      return a;
  return -1;
}

void V2Engine::issue_pair(NodePair pair, std::uint64_t now) {
  const std::uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  ++in_flight_;
  Slot& s = slots_[slot];
  s = Slot{true, pair, 0, now + std::uint64_t(p_.ram_latency)};
  if (p_.tree_memory == TreeMemory::External) {
    const TreeImage* images[2] = {&regs_->first->image, &regs_->second->image};
    const std::int32_t nodes[2] = {pair.f, pair.s};
    for (int t = 0; t < 2; ++t) {
      if (caches_[t].lookup(nodes[t])) {  // hit: the cache is on-chip RAM, ram_latency
        ++stats_.cache_hits;
        continue;
      }
      ++stats_.cache_misses;
      ++s.missing;
      external_->queue_record(t == 0 ? RecordKind::NodeFirst : RecordKind::NodeSecond,
                              images[t]->node_address(std::size_t(nodes[t])), images[t]->node_beats(), tag(slot), now);
    }
  }
  if (s.missing == 0) ready_.push({s.arrival, ready_order_++, slot});
}

void V2Engine::deliver(const MemBurst& r, std::uint64_t now) {
  if (!busy_) return;  // a burst of a query that ended in an error
  stats_.mem_beats += std::uint64_t(r.beats);
  const std::uint64_t local = r.tag & ((std::uint64_t(1) << 40) - 1);
  if (is_node(r.kind)) {
    stats_.mem_beats_nodes += std::uint64_t(r.beats);
    if (!r.last_of_record) return;
    Slot& s = slots_[local];
    caches_[r.kind == RecordKind::NodeFirst ? 0 : 1].fill(r.kind == RecordKind::NodeFirst ? s.pair.f : s.pair.s);
    s.arrival = std::max(s.arrival, now + 1);
    if (--s.missing == 0) ready_.push({s.arrival, ready_order_++, std::uint32_t(local)});
    return;
  }
  stats_.mem_beats_triangles += std::uint64_t(r.beats);
  if (r.last_of_record) tri_.record_arrived(local, now + 1);
}

void V2Engine::verdict(const SatUnit::Done& d, std::uint64_t now) {
  Slot& slot = slots_[d.slot];
  const NodePair pr = slot.pair;
  slot.used = false;
  free_slots_.push_back(std::uint32_t(d.slot));
  --in_flight_;
  ++stats_.pair_tests;
  stats_.axis_tests += std::uint64_t(d.effective_axes);
  if (d.separated) return;
  const ImageNode& f = regs_->first->image.nodes[std::size_t(pr.f)];
  const ImageNode& s = regs_->second->image.nodes[std::size_t(pr.s)];
  if (f.is_leaf && s.is_leaf) {
    ++stats_.leaf_pairs;
    TriangleJob j{next_job_++, std::uint32_t(f.triangle), std::uint32_t(s.triangle), 0, now + 1};
    if (p_.tree_memory == TreeMemory::External) {
      j.outstanding = 2;
      const TreeImage& a = regs_->first->image;
      const TreeImage& b = regs_->second->image;
      external_->queue_record(RecordKind::TriFirst, a.triangle_address(std::size_t(f.triangle)), a.triangle_beats(),
                              tag(j.id), now);
      external_->queue_record(RecordKind::TriSecond, b.triangle_address(std::size_t(s.triangle)), b.triangle_beats(),
                              tag(j.id), now);
    }
    tri_.add(j);
    return;
  }
  if (split_first_node(f.is_leaf, s.is_leaf, f.depth, s.depth, p_.rule)) {
    pending_.stage({f.right, pr.s});
    pending_.stage({f.left, pr.s});
  } else {
    pending_.stage({pr.f, s.right});
    pending_.stage({pr.f, s.left});
  }
}

void V2Engine::tick(std::uint64_t now) {
  if (!busy_) return;
  // Credits are taken from the state at the start of the clock (registered).
  const std::size_t pending0 = pending_.size();
  const std::size_t flight0 = in_flight_;
  const std::size_t tri0 = tri_.queued();
  // 1. contact stream, 2. triangle unit
  out_.tick(contacts_);
  tri_.tick(now, out_);
  // 3. SAT units: entries, then results and verdicts
  for (SatUnit& u : units_) {
    while (!ready_.empty() && ready_.top().arrival <= now && u.can_accept()) {
      const std::uint32_t slot = ready_.top().slot;
      ready_.pop();
      const int sep = first_separating_axis(slots_[slot].pair);
      u.accept(now, slot, sep);
    }
  }
  done_.clear();
  for (SatUnit& u : units_) u.tick(now, done_);
  for (const SatUnit::Done& d : done_) verdict(d, now);
  // 4. scheduler
  const std::size_t cap = pending_.capacity();
  std::size_t pops = 0;
  for (; pops < std::size_t(p_.sat_units) && pops < pending0; ++pops) {
    const std::size_t flight = flight0 + pops;
    const bool slot_free = flight < std::size_t(p_.pairs_in_flight);
    const bool pending_room = (pending0 - pops - 1) + 2 * (flight + 1) <= cap || flight == 0;
    const bool tri_room = tri0 + flight + 1 <= std::size_t(p_.triangle_queue);
    if (!(slot_free && pending_room && tri_room)) break;
    issue_pair(pending_.pop(), now);
  }
  if (pops < std::min<std::size_t>(std::size_t(p_.sat_units), pending0)) ++stats_.stall_cycles;
  // 5. the staged children become visible
  if (!pending_.commit()) {
    error_ = true;
    stats_.stack_overflow = true;
    return finish(now);
  }
  if (pending_.empty() && in_flight_ == 0 && tri_.idle() && out_.empty()) finish(now);
}

void V2Engine::finish(std::uint64_t now) {
  busy_ = false;
  end_ = now;
  stats_.cycles = now - start_ + 1;
  stats_.contacts = contacts_.size();
  stats_.triangle_tests = tri_.tests;
  stats_.max_stack_depth = pending_.max_depth();
  stats_.triangle_stall_cycles = tri_.credit_stalls;
  stats_.max_triangle_queue = std::uint32_t(tri_.max_queued);
  stats_.max_contact_queue = std::uint32_t(out_.max_size());
  std::uint64_t groups = 0;
  for (const SatUnit& u : units_) groups += u.groups_issued;
  stats_.pipeline_utilization = double(groups) / (double(stats_.cycles) * double(units_.size()));
  // Lanes of an issued group past the deciding axis are the v2 analogue of cancelled tests.
  const int lanes = p_.sat_lanes > 0 ? std::min(p_.sat_lanes, cfg_.n) : cfg_.n;
  stats_.axis_tests_issued = groups * std::uint64_t(lanes);
  stats_.axis_tests_cancelled = stats_.axis_tests_issued - stats_.axis_tests;
  stats_.pipeline_latency = cfg_.sat_latency;
  std::sort(contacts_.begin(), contacts_.end());
}

}  // namespace kdopcd::model
