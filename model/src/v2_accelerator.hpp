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
//
// Two host paths (host_interface.hpp). Registers: a submitted query is in the registers at once
// (the clocks are START to DONE). Queue: the host rings a descriptor's doorbell with the clock in
// which the doorbell write arrives; the command-queue front end (command_queue.hpp) fetches it by
// DMA, decodes it into the query registers, and writes the contacts and the completion record
// back; each query's stats carry its doorbell, descriptor, start, end and completion clocks.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "axi_read_memory.hpp"
#include "clocked_core.hpp"
#include "command_queue.hpp"
#include "node_cache.hpp"
#include "v2_engine.hpp"

namespace kdopcd::model {

class V2Accelerator final : public ClockedCore {
 public:
  explicit V2Accelerator(const V2Config& config);

  void tick() override;
  bool busy() const override { return busy_; }
  TopSignals signals() const override { return signals_; }
  bool needs_host() const override {
    return !input_closed_ && (queue_path() ? fetch_->rung() : queue_.size()) < engines_.size();
  }

  struct QueryOutcome {
    std::size_t index = 0;  // submission order
    ModelStats stats;
    std::vector<ContactPair> contacts;
    contract::v2::queue::Completion completion;  // Queue: the record written back
  };
  // Host side. Registers path:
  void submit(QueryRegisters registers);
  // Queue path: the trees LOAD put in the RAMs, then descriptors; `arrival` is the clock in which
  // the doorbell write reaches the accelerator (not decreasing from one call to the next).
  void load(const ImageMemory* first, const ImageMemory* second, const QuantizedPose& pose_format);
  void ring(std::vector<std::uint64_t> descriptor, std::uint64_t arrival);
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
    // Queue path:
    contract::v2::queue::Descriptor descriptor;
    std::uint64_t doorbell = 0, descriptor_ready = 0;
    std::uint64_t first_pop = 0;  // START came the clock before
    std::uint32_t contacts_sent = 0;
    std::optional<QueryOutcome> completing;  // DONE came: its record is queued in the next clock
  };
  bool queue_path() const { return cfg_.params.host_path == HostPath::Queue; }
  bool take_next(Slot& slot);  // the next query, if one is ready in this clock
  void finish_query(std::size_t e, Slot& slot);
  void send_completion(std::size_t e, Slot& slot);
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
  // Queue path.
  std::unique_ptr<DescriptorFetch> fetch_;
  std::unique_ptr<WriteBack> write_back_;
  const ImageMemory* loaded_[2] = {nullptr, nullptr};
  QuantizedPose pose_format_;
  std::size_t rung_ = 0;
};

}  // namespace kdopcd::model
