#pragma once
// External memory behind the fetch unit's AXI4 read master (docs/accelerator.md, "Timing
// contract"). A record request becomes bursts of at most burst_length beats that never cross a
// 4 KiB boundary (images lie 4 KiB-aligned, so the split depends on the image address only). A
// burst queued in tick t is accepted (AR handshake) from tick t+1 on, one per tick, while fewer
// than max_outstanding bursts are in flight at the start of the tick; the memory serves accepted
// bursts in order: service starts at max(accept tick, previous burst's last beat) and the last
// beat comes mem_latency + its beats at the clock ratio later. Bursts not yet accepted may be
// withdrawn (drop_queued); accepted bursts always complete.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace kdopcd::model {

struct AxiMemoryConfig {
  int bus_width = 64;       // W bits per beat
  int mem_latency = 2;      // cycles from acceptance to the first beat
  int burst_length = 16;    // beats per burst at most
  int max_outstanding = 4;  // accepted bursts not yet complete, at most
  int beats_per_cycle = 1;  // clock ratio: beats per accelerator clock (numerator)
  int cycles_per_beat = 1;  // clock ratio (denominator)
};

enum class RecordKind { NodeFirst, NodeSecond, TriFirst, TriSecond };
inline bool is_node(RecordKind k) { return k == RecordKind::NodeFirst || k == RecordKind::NodeSecond; }

struct MemBurst {
  RecordKind kind;
  std::uint64_t address;     // byte address in that tree's image
  int beats;
  std::uint64_t tag;         // the requester's tag (fetch tag, triangle job, pair slot)
  bool last_of_record;       // the record is complete with this burst's last beat
  std::uint64_t queued = 0;  // tick in which it was queued
  std::uint64_t done = 0;    // tick of its last beat (set when accepted)
};

class AxiReadMemory {
 public:
  explicit AxiReadMemory(const AxiMemoryConfig& config = {}) : cfg_(config) {}

  // Queues one record of `beats` beats as bursts (tick `now`).
  void queue_record(RecordKind kind, std::uint64_t address, int beats, std::uint64_t tag, std::uint64_t now) {
    const std::uint64_t bus_bytes = std::uint64_t(cfg_.bus_width / 8);
    for (int left = beats; left > 0;) {
      const std::uint64_t to_boundary = (4096 - address % 4096) / bus_bytes;
      const int len =
          int(std::min<std::uint64_t>({std::uint64_t(left), std::uint64_t(cfg_.burst_length), to_boundary}));
      left -= len;
      queue_.push_back({kind, address, len, tag, left == 0, now, 0});
      address += std::uint64_t(len) * bus_bytes;
    }
  }

  // Withdraws the bursts not yet accepted for which pred(burst) holds.
  template <class Pred>
  void drop_queued(Pred&& pred) {
    std::erase_if(queue_, pred);
  }

  // One clock at tick `now`: appends the bursts whose last beat arrives now (in order) to
  // `delivered`, then accepts at most one queued burst.
  void tick(std::uint64_t now, std::vector<MemBurst>& delivered) {
    const std::size_t outstanding = inflight_.size();  // the fetch unit's count at the start of the tick
    while (!inflight_.empty() && inflight_.front().done <= now) {
      delivered.push_back(inflight_.front());
      inflight_.pop_front();
    }
    if (!queue_.empty() && queue_.front().queued < now && outstanding < std::size_t(cfg_.max_outstanding)) {
      MemBurst b = queue_.front();
      queue_.pop_front();
      b.done = std::max(now, last_done_) + cost(b.beats);
      last_done_ = b.done;
      inflight_.push_back(b);
    }
    if (!inflight_.empty()) ++busy_cycles;
  }

  bool idle() const { return queue_.empty() && inflight_.empty(); }
  std::uint64_t cost(int beats) const {
    return std::uint64_t(cfg_.mem_latency) +
           (std::uint64_t(beats) * std::uint64_t(cfg_.cycles_per_beat) + std::uint64_t(cfg_.beats_per_cycle) - 1) /
               std::uint64_t(cfg_.beats_per_cycle);
  }
  const AxiMemoryConfig& config() const { return cfg_; }

  std::uint64_t busy_cycles = 0;

 private:
  AxiMemoryConfig cfg_;
  std::deque<MemBurst> queue_;     // queued, not yet accepted (may still be dropped)
  std::deque<MemBurst> inflight_;  // accepted, served in order
  std::uint64_t last_done_ = 0;
};

}  // namespace kdopcd::model
