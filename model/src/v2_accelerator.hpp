#pragma once
// The v2 accelerator: E traversal engines sharing the tree memory, and the host's query queue.
// On chip, every engine has its own read ports (the RAMs are replicated as the resource estimate
// counts them), so engines never wait for each other; with trees in external memory they share
// one AXI read master and each tree's node cache. An idle engine takes the next query in the
// tick after its previous one ended (the query registers are double-buffered).
//
// The host streams the queries: it submits them into the queue, takes the finished ones out, and
// closes the input after the last one. needs_host() asks for the host before the next clock
// whenever the queue holds fewer queries than there are engines while more may come, so no
// engine ever finds the queue empty before the input ends: the cycles are those of one batch of
// all the queries, and the memory held is a few queries, whatever their number.
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "axi_read_memory.hpp"
#include "clocked_core.hpp"
#include "node_cache.hpp"
#include "v2_engine.hpp"

namespace kdopcd::model {

class V2Accelerator final : public ClockedCore {
 public:
  explicit V2Accelerator(const V2Config& config);

  void tick() override;
  bool busy() const override { return busy_; }
  TopSignals signals() const override { return signals_; }
  bool needs_host() const override { return !input_closed_ && queue_.size() < engines_.size(); }

  struct QueryOutcome {
    std::size_t index = 0;  // submission order
    ModelStats stats;
    std::vector<ContactPair> contacts;
  };
  // Host side.
  void submit(QueryRegisters registers);
  void close_input() { input_closed_ = true; }
  bool input_closed() const { return input_closed_; }
  std::size_t queued() const { return queue_.size(); }
  // The queries finished since the last call, in the order they finished.
  std::vector<QueryOutcome> take_finished() { return std::exchange(finished_, {}); }
  std::uint64_t cycles() const { return cycle_; }

 private:
  struct Slot {  // the registers of the query an engine runs (the engine reads them by pointer)
    std::size_t index = 0;
    QueryRegisters registers;
    bool running = false;
  };
  V2Config cfg_;
  AxiReadMemory memory_;
  NodeCache caches_[2];
  std::vector<std::unique_ptr<V2Engine>> engines_;
  std::vector<Slot> slots_;
  std::deque<std::pair<std::size_t, QueryRegisters>> queue_;
  std::vector<QueryOutcome> finished_;
  std::size_t submitted_ = 0;
  bool input_closed_ = false;
  std::uint64_t cycle_ = 0;
  bool busy_ = true;
  std::uint64_t pair_tests_done_ = 0;
  TopSignals signals_;
  std::vector<MemBurst> delivered_;
};

}  // namespace kdopcd::model
