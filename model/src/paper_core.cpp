// The paper configuration's core: memory, GetData, controller with the pair stack, SAT pipelines
// with PipeData, triangle unit, contact queue. Every block advances once per rising edge, in the
// order of tick(); a value produced by an earlier step is visible to a later step in the same
// cycle, which is this configuration's definition of its combinational paths (docs/model.md).
#include "paper_core.hpp"

#include <algorithm>

namespace kdopcd::model {

PaperCore::PaperCore(const ModelParams& params, int k, int n, int sat_latency, const QueryRegisters& regs)
    : p_(params),
      regs_(regs),
      k_(k),
      n_(n),
      half_(k / 2),
      memory_(AxiMemoryConfig{params.bus_width, params.mem_latency, params.burst_length, params.max_outstanding,
                              params.beats_per_cycle, params.cycles_per_beat}),
      stack_(std::size_t(params.stack_depth)),
      pipes_(sat_latency),
      tri_(TriangleUnitConfig{params.triangle_latency, 1, 0}, regs.first, regs.second, &regs.pose,
           params.rotation_bits) {
  stack_.push({0, 0});
  stats_.max_stack_depth = stack_.max_depth();
}

TopSignals PaperCore::signals() const {
  TopSignals s;
  s.busy = busy_;
  s.done = finished_;
  s.error = error_;
  s.contact_valid = out_.out_valid;
  s.contact = out_.out_pair;
  s.stack_depth = std::uint32_t(stack_.size());
  s.pair_tests = stats_.pair_tests;
  return s;
}

void PaperCore::tick() {
  out_.out_valid = false;
  if (!busy_) return;
  ++cycle_;
  // 1. memory
  delivered_.clear();
  memory_.tick(cycle_, delivered_);
  for (const MemBurst& b : delivered_) deliver(b);
  // 2.-5. SAT outputs + PipeData, verdict, pop + GetData, issue
  pipeline_outputs();
  verdict();
  if (error_) return finish();
  pop_and_start();
  issue();
  // 6. triangle unit, 7. contact queue
  tri_.tick(cycle_, out_);
  out_.tick(contacts_);
  if (stack_.empty() && !cur_.valid && pipes_.empty() && tri_.idle() && out_.empty() && memory_.idle()) finish();
}

void PaperCore::finish() {
  busy_ = false;
  finished_ = true;
  stats_.cycles = cycle_;
  stats_.contacts = contacts_.size();
  stats_.triangle_tests = tri_.tests;
  stats_.max_stack_depth = stack_.max_depth();
  stats_.stack_overflow = stack_.overflow();
  stats_.mem_busy_cycles = memory_.busy_cycles;
  std::sort(contacts_.begin(), contacts_.end());
}

void PaperCore::deliver(const MemBurst& r) {
  stats_.mem_beats += std::uint64_t(r.beats);
  if (is_node(r.kind)) {
    stats_.mem_beats_nodes += std::uint64_t(r.beats);
    if (fetch_.valid && r.tag == fetch_.tag) {
      if (r.last_of_record) --fetch_.outstanding;
      fetch_.delivered_beats += std::uint64_t(r.beats);
    } else {
      stats_.mem_beats_wasted += std::uint64_t(r.beats);
    }
    return;
  }
  stats_.mem_beats_triangles += std::uint64_t(r.beats);
  if (r.last_of_record) tri_.record_arrived(r.tag);
}

void PaperCore::start_fetch(NodePair np) {
  if (fetch_.valid) {  // abandon: bursts not yet accepted are dropped; accepted ones complete, wasted
    const std::uint64_t old = fetch_.tag;
    stats_.mem_beats_wasted += fetch_.delivered_beats;
    memory_.drop_queued([&](const MemBurst& r) { return is_node(r.kind) && r.tag == old; });
  }
  fetch_ = Fetch{true, np, next_tag_++, 2, 0};
  const TreeImage& a = regs_.first->image;
  const TreeImage& b = regs_.second->image;
  memory_.queue_record(RecordKind::NodeFirst, a.node_address(std::size_t(np.f)), a.node_beats(), fetch_.tag, cycle_);
  memory_.queue_record(RecordKind::NodeSecond, b.node_address(std::size_t(np.s)), b.node_beats(), fetch_.tag, cycle_);
}

void PaperCore::pipeline_outputs() {
  pipes_.drain(cycle_, [&](std::uint64_t tag, int axis, bool separated) {
    if (!cur_.valid || tag != cur_.tag) return;  // cannot happen: pairs are serialized
    --cur_.in_flight;
    if (cur_.separated) {
      ++stats_.axis_tests_cancelled;  // same-cycle result of a later axis (P > 1)
      return;
    }
    if (separated) {
      cur_.separated = true;
      cur_.sep_axis = axis;
    }
  });
  if (cur_.valid && cur_.separated && cur_.in_flight > 0) {  // cancel the pair's remaining tests
    stats_.axis_tests_cancelled += pipes_.cancel(cur_.tag);
    cur_.in_flight = 0;
  }
}

void PaperCore::verdict() {
  if (!cur_.valid || !cur_.started) return;
  if (!(cur_.separated || (cur_.stopped && cur_.in_flight == 0))) return;
  ++stats_.pair_tests;
  stats_.axis_tests += std::uint64_t(cur_.separated ? cur_.sep_axis + 1 : cur_.next_axis);
  cur_.valid = false;
  if (cur_.separated) return;
  const ImageNode& f = *reg_f_;
  const ImageNode& s = *reg_s_;
  const NodePair pr = cur_.pair;
  if (f.is_leaf && s.is_leaf) {
    ++stats_.leaf_pairs;
    const TriangleJob j{next_job_++, std::uint32_t(f.triangle), std::uint32_t(s.triangle), 2, 0};
    const TreeImage& a = regs_.first->image;
    const TreeImage& b = regs_.second->image;
    memory_.queue_record(RecordKind::TriFirst, a.triangle_address(std::size_t(f.triangle)), a.triangle_beats(), j.id,
                         cycle_);
    memory_.queue_record(RecordKind::TriSecond, b.triangle_address(std::size_t(s.triangle)), b.triangle_beats(), j.id,
                         cycle_);
    tri_.add(j);
    return;
  }
  if (split_first_node(f.is_leaf, s.is_leaf, f.depth, s.depth, p_.rule)) {
    if (stack_.push({f.right, pr.s})) stack_.push({f.left, pr.s});
  } else {
    if (stack_.push({pr.f, s.right})) stack_.push({pr.f, s.left});
  }
  if (stack_.overflow()) error_ = true;
}

void PaperCore::pop_and_start() {
  if (!cur_.valid && !stack_.empty()) {
    cur_ = Current{};
    cur_.valid = true;
    cur_.pair = stack_.pop();
    if (!(fetch_.valid && fetch_.pair == cur_.pair)) start_fetch(cur_.pair);
  }
  if (cur_.valid && !cur_.started) {
    if (!fetch_.ready()) {
      ++stats_.stall_cycles;
      return;
    }
    // Latch the records into the pipeline's coefficient registers; the buffer is free again.
    reg_f_ = &regs_.first->image.nodes[std::size_t(cur_.pair.f)];
    reg_s_ = &regs_.second->image.nodes[std::size_t(cur_.pair.s)];
    cur_.started = true;
    cur_.tag = next_tag_++;
    fetch_ = Fetch{};
    if (!stack_.empty()) start_fetch(stack_.top());  // prefetch: the next pair if this one separates
  }
}

bool PaperCore::may_issue() const {
  if (cur_.separated || cur_.next_axis >= k_) return false;
  if (cur_.next_axis < n_) return true;
  return p_.continue_axes && !fetch_.ready();
}

void PaperCore::issue() {
  if (!cur_.valid || !cur_.started || cur_.stopped) return;
  if (!cur_.issue_from_next) {  // the cycle the registers are latched: first issue next cycle
    cur_.issue_from_next = true;
    return;
  }
  for (int j = 0; j < p_.pipelines; ++j) {
    if (!may_issue()) {
      cur_.stopped = true;
      break;
    }
    const int axis = cur_.next_axis++;
    const FixedDiffs d = fixed_axis_diffs<false>(reg_s_->coeffs.data(), reg_f_->coeffs.data(), half_,
                                                 regs_.axes[std::size_t(axis)], p_.fixed);
    pipes_.issue(cycle_, cur_.tag, axis, d.separated());
    ++cur_.in_flight;
    ++stats_.axis_tests_issued;
    if (axis >= n_) ++stats_.axis_tests_continued;
  }
  if (!cur_.stopped && !may_issue()) cur_.stopped = true;
}

}  // namespace kdopcd::model
