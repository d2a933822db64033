#include "v2_accelerator.hpp"

namespace kdopcd::model {

V2Accelerator::V2Accelerator(const V2Config& config)
    : cfg_(config),
      memory_(AxiMemoryConfig{config.params.bus_width, config.params.mem_latency, config.params.burst_length,
                              config.params.max_outstanding, config.params.beats_per_cycle,
                              config.params.cycles_per_beat}),
      caches_{NodeCache(std::size_t(config.params.node_cache_lines)),
              NodeCache(std::size_t(config.params.node_cache_lines))},
      slots_(std::size_t(config.params.engines)) {
  for (int e = 0; e < config.params.engines; ++e)
    engines_.push_back(std::make_unique<V2Engine>(cfg_, e, &memory_, caches_));
  signals_.busy = true;
}

void V2Accelerator::submit(QueryRegisters registers) { queue_.emplace_back(submitted_++, std::move(registers)); }

void V2Accelerator::tick() {
  if (!busy_) return;
  ++cycle_;
  signals_.contact_valid = false;
  if (cfg_.params.tree_memory == TreeMemory::External) {
    delivered_.clear();
    memory_.tick(cycle_, delivered_);
    for (const MemBurst& b : delivered_) {
      const std::size_t e = std::size_t(V2Engine::engine_of_tag(b.tag));
      engines_[e]->deliver(b, cycle_);
    }
  }
  bool any = false;
  for (std::size_t e = 0; e < engines_.size(); ++e) {
    V2Engine& eng = *engines_[e];
    Slot& slot = slots_[e];
    if (!slot.running && !queue_.empty()) {
      slot.index = queue_.front().first;
      slot.registers = std::move(queue_.front().second);
      slot.running = true;
      queue_.pop_front();
      eng.start(&slot.registers, cycle_);
    }
    if (!slot.running) continue;
    eng.tick(cycle_);
    if (!signals_.contact_valid && eng.out().out_valid) {
      signals_.contact_valid = true;
      signals_.contact = eng.out().out_pair;
    }
    if (e == 0) signals_.stack_depth = std::uint32_t(eng.pending());
    if (!eng.busy()) {
      QueryOutcome o{slot.index, eng.stats(), eng.contacts()};
      // The AXI port is shared by the engines: its busy cycles so far, on the query that ends.
      o.stats.mem_busy_cycles = memory_.busy_cycles;
      pair_tests_done_ += o.stats.pair_tests;
      if (eng.error()) signals_.error = true;
      finished_.push_back(std::move(o));
      slot.running = false;
    }
    any |= slot.running;
  }
  signals_.pair_tests = pair_tests_done_;
  if (!any && input_closed_ && queue_.empty()) {
    busy_ = false;
    signals_.busy = false;
    signals_.done = true;
  }
}

}  // namespace kdopcd::model
