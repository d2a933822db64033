#include "v2_accelerator.hpp"

namespace kdopcd::model {

V2Accelerator::V2Accelerator(const V2Config& config, const std::vector<QueryRegisters>& queries)
    : cfg_(config),
      queries_(queries),
      memory_(AxiMemoryConfig{config.params.bus_width, config.params.mem_latency, config.params.burst_length,
                              config.params.max_outstanding, config.params.beats_per_cycle,
                              config.params.cycles_per_beat}),
      caches_{NodeCache(std::size_t(config.params.node_cache_lines)),
              NodeCache(std::size_t(config.params.node_cache_lines))},
      running_(std::size_t(config.params.engines), -1),
      outcomes_(queries.size()) {
  for (int e = 0; e < config.params.engines; ++e)
    engines_.push_back(std::make_unique<V2Engine>(cfg_, e, &memory_, caches_));
  signals_.busy = true;
}

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
    if (running_[e] < 0 && next_query_ < queries_.size()) {
      running_[e] = std::int64_t(next_query_);
      eng.start(&queries_[next_query_++], cycle_);
    }
    if (running_[e] < 0) continue;
    eng.tick(cycle_);
    if (!signals_.contact_valid && eng.out().out_valid) {
      signals_.contact_valid = true;
      signals_.contact = eng.out().out_pair;
    }
    if (e == 0) signals_.stack_depth = std::uint32_t(eng.pending());
    if (!eng.busy()) {
      QueryOutcome& o = outcomes_[std::size_t(running_[e])];
      o.stats = eng.stats();
      o.contacts = eng.contacts();
      pair_tests_done_ += o.stats.pair_tests;
      if (eng.error()) signals_.error = true;
      running_[e] = -1;
    }
    any |= running_[e] >= 0;
  }
  signals_.pair_tests = pair_tests_done_;
  if (!any && next_query_ >= queries_.size()) {
    busy_ = false;
    signals_.busy = false;
    signals_.done = true;
    // The AXI port is shared by the engines: its busy cycles belong to the batch, on every query.
    for (QueryOutcome& o : outcomes_) o.stats.mem_busy_cycles = memory_.busy_cycles;
  }
}

}  // namespace kdopcd::model
