#pragma once
// Paper configuration: P one-axis SAT pipelines of fixed latency with the PipeData bookkeeping.
// An axis test enters with its pair's tag and leaves `latency` clocks later, in order; the
// controller cancels the tests of a pair that another axis already separated. The arithmetic is
// fixed_axis_diffs (sat_fixed.hpp), evaluated when the test enters: bit-accurate with the RTL.
#include <cstdint>
#include <deque>

#include "kdopcd_contract/accelerator_paper.hpp"

namespace kdopcd::model {

class SatPipelines {
 public:
  explicit SatPipelines(int latency = contract::paper::kSatLat) : latency_(latency) {}
  int latency() const { return latency_; }
  bool empty() const { return pipe_.empty(); }

  void issue(std::uint64_t now, std::uint64_t tag, int axis, bool separated) {
    pipe_.push_back({now + std::uint64_t(latency_), tag, axis, separated});
  }
  // Calls on_result(tag, axis, separated) for every test that leaves at `now`, in issue order.
  template <class OnResult>
  void drain(std::uint64_t now, OnResult&& on_result) {
    while (!pipe_.empty() && pipe_.front().ready == now) {
      const Flight f = pipe_.front();
      pipe_.pop_front();
      on_result(f.tag, f.axis, f.separated);
    }
  }
  // Cancels every test of `tag` still in a pipeline; returns how many.
  std::size_t cancel(std::uint64_t tag) {
    const std::size_t before = pipe_.size();
    std::erase_if(pipe_, [&](const Flight& f) { return f.tag == tag; });
    return before - pipe_.size();
  }

 private:
  struct Flight {
    std::uint64_t ready;
    std::uint64_t tag;
    int axis;
    bool separated;
  };
  int latency_;
  std::deque<Flight> pipe_;
};

}  // namespace kdopcd::model
