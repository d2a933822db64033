#pragma once
// The v2 accelerator's command-queue front end (docs/model-v2.md, "End to end"), two blocks:
//  * DescriptorFetch: the doorbell, the ring's head, and the DMA reads of descriptors into the
//    descriptor buffers; a buffer holds its query from the fetch to the completion, so the
//    engines read their query's fields from it (the RTL's double-buffered query registers);
//  * WriteBack: the DMA write channel that carries each engine's contacts, packed into 64-byte
//    beats, and each query's completion record to host memory.
// Per clock t (V2Accelerator::tick, docs/model-v2.md "End to end"): the fetch's memory delivers,
// a descriptor whose doorbell arrived by t - 1 is requested (accepted by the memory from t + 1),
// the lowest idle engine takes one descriptor that was in by t - 1 (START in t, its root popped in
// t + 1), the engines tick, their contacts go to the write channel, and an engine whose DONE came
// in t - 1 queues its last partial beat and its completion record.
// The descriptor and completion layouts are kdopcd_contract/command_queue.hpp's.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "axi_read_memory.hpp"
#include "kdopcd_contract/command_queue.hpp"

namespace kdopcd::model {

class DescriptorFetch {
 public:
  struct Fetched {
    std::size_t index = 0;
    std::vector<std::uint64_t> words;
    std::uint64_t doorbell = 0;  // clock the doorbell arrived
    std::uint64_t ready = 0;     // clock from which an engine may take it
  };

  DescriptorFetch(const AxiMemoryConfig& dma, int buffers, int descriptor_beats)
      : memory_(dma), buffers_(std::size_t(buffers)), beats_(descriptor_beats) {}

  // The host: descriptor `index`'s doorbell write reaches the accelerator in clock `arrival`
  // (arrivals in index order, not decreasing).
  void ring(std::size_t index, std::vector<std::uint64_t> words, std::uint64_t arrival) {
    rung_.push_back({index, std::move(words), arrival, 0});
  }

  void tick(std::uint64_t now) {
    delivered_.clear();
    memory_.tick(now, delivered_);
    for (const MemBurst& b : delivered_) {
      if (!b.last_of_record) continue;
      Fetched f = std::move(requested_.front());
      requested_.pop_front();
      f.ready = now + 1;  // the descriptor registers are written in this clock
      fetched_.push_back(std::move(f));
    }
    // The head register sees a doorbell from the clock after it arrived.
    if (!rung_.empty() && rung_.front().doorbell < now && requested_.size() + fetched_.size() + held_ < buffers_) {
      const std::uint64_t slot = std::uint64_t(rung_.front().index) % kRingSlots;
      memory_.queue_record(RecordKind::NodeFirst, slot * std::uint64_t(contract::v2::kSlotBytes), beats_,
                           rung_.front().index, now);
      requested_.push_back(std::move(rung_.front()));
      rung_.pop_front();
    }
  }

  bool ready(std::uint64_t now) const { return !fetched_.empty() && fetched_.front().ready <= now; }
  // An engine takes the oldest descriptor; its buffer stays held until release() (the query's
  // completion record is queued, in the clock after its DONE).
  Fetched take() {
    Fetched f = std::move(fetched_.front());
    fetched_.pop_front();
    ++held_;
    return f;
  }
  void release() { --held_; }
  std::size_t rung() const { return rung_.size(); }  // doorbells not yet requested
  bool idle() const { return rung_.empty() && requested_.empty() && fetched_.empty() && held_ == 0; }

  static constexpr std::uint64_t kRingSlots = std::uint64_t(contract::v2::kRingSlots);

 private:
  AxiReadMemory memory_;
  std::size_t buffers_;
  std::size_t held_ = 0;  // taken by an engine, not yet released
  int beats_;
  std::deque<Fetched> rung_, requested_, fetched_;
  std::vector<MemBurst> delivered_;
};

// The DMA write channel: beats leave in the order they were queued, at the link's rate
// (beats_per_cycle / cycles_per_beat); a write is posted, so a beat sent in clock t is visible to
// the host at t + write_latency. Each engine packs its contacts into beats of kContactsPerBeat.
class WriteBack {
 public:
  WriteBack(int engines, int beats_per_cycle, int cycles_per_beat, int write_latency)
      : packed_(std::size_t(engines), 0), bpc_(beats_per_cycle), cpb_(cycles_per_beat), latency_(write_latency) {}

  // One contact of engine e left its contact queue in clock `now`; `written` says whether it is
  // within the query's buffer (beyond it, the contact is counted, not written).
  void contact(int e, bool written, std::uint64_t now) {
    if (!written) return;
    if (++packed_[std::size_t(e)] == contract::v2::kContactsPerBeat) {
      packed_[std::size_t(e)] = 0;
      send(1, now);
    }
  }
  // In clock `now` (the clock after engine e's DONE) its last partial beat of contacts and its
  // completion record are queued, as a burst each; returns the clock in which the completion is
  // visible to the host.
  std::uint64_t complete(int e, std::uint64_t now) {
    if (packed_[std::size_t(e)] > 0) send(1, now);
    packed_[std::size_t(e)] = 0;
    return send(contract::v2::queue::kCompletionBytes / contract::v2::queue::kBeatBytes, now) + std::uint64_t(latency_);
  }

 private:
  // Beats queued in clock `now` start in `now + 1` at the earliest; returns the clock of the last.
  std::uint64_t send(int beats, std::uint64_t now) {
    const std::uint64_t begin = std::max(now + 1, last_);
    const std::uint64_t clocks = (std::uint64_t(beats) * std::uint64_t(cpb_) + std::uint64_t(bpc_) - 1) / std::uint64_t(bpc_);
    last_ = begin + clocks;
    return last_ - 1;
  }

  std::vector<int> packed_;
  int bpc_, cpb_, latency_;
  std::uint64_t last_ = 0;  // first clock the channel is free
};

}  // namespace kdopcd::model
