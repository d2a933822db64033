#pragma once
// The v2 accelerator: E traversal engines sharing the tree memory, and the host's query queue.
// On chip, every engine has its own read ports (the RAMs are replicated as the resource estimate
// counts them), so engines never wait for each other; with trees in external memory they share
// one AXI read master and each tree's node cache. An idle engine takes the next query in the
// tick after its previous one ended (the query registers are double-buffered).
#include <cstdint>
#include <memory>
#include <vector>

#include "axi_read_memory.hpp"
#include "clocked_core.hpp"
#include "node_cache.hpp"
#include "v2_engine.hpp"

namespace kdopcd::model {

class V2Accelerator final : public ClockedCore {
 public:
  V2Accelerator(const V2Config& config, const std::vector<QueryRegisters>& queries);

  void tick() override;
  bool busy() const override { return busy_; }
  TopSignals signals() const override { return signals_; }

  struct QueryOutcome {
    ModelStats stats;
    std::vector<ContactPair> contacts;
  };
  const std::vector<QueryOutcome>& outcomes() const { return outcomes_; }
  std::uint64_t cycles() const { return cycle_; }

 private:
  V2Config cfg_;
  const std::vector<QueryRegisters>& queries_;
  AxiReadMemory memory_;
  NodeCache caches_[2];
  std::vector<std::unique_ptr<V2Engine>> engines_;
  std::vector<std::int64_t> running_;  // query index per engine, -1 = idle
  std::vector<QueryOutcome> outcomes_;
  std::size_t next_query_ = 0;
  std::uint64_t cycle_ = 0;
  bool busy_ = true;
  std::uint64_t pair_tests_done_ = 0;
  TopSignals signals_;
  std::vector<MemBurst> delivered_;
};

}  // namespace kdopcd::model
