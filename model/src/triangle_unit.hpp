#pragma once
// The triangle unit: a leaf pair's two triangle records in, one exact fixed-point test, a contact
// out. Bit-accurate with the reference's fixed backend: fixed_triangles_intersect (tri_fixed.hpp)
// on the image's quantized vertices, the first object's lifted by m bits, the second's placed by
// the host's quantized M', T' (quantize_pose).
//
// Timing: a test starts when the job at the head of the queue has both records, at most one start
// every `ii` clocks (initiation interval: the RTL may time-multiplex one small datapath), and its
// verdict comes `latency` clocks after the start. With a bounded contact queue a test starts only
// when the queue has room for every verdict still in flight (credits), so no contact is dropped.
#include <algorithm>
#include <cstdint>
#include <deque>

#include "contact_queue.hpp"
#include "image_memory.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd_contract/accelerator_paper.hpp"

namespace kdopcd::model {

struct TriangleJob {
  std::uint64_t id = 0;
  std::uint32_t tf = 0, ts = 0;   // triangle indices
  int outstanding = 0;            // records still to arrive (external memory); 0 = ready
  std::uint64_t ready_cycle = 0;  // first tick at which it may start (on-chip records)
};

struct TriangleUnitConfig {
  int latency = contract::paper::kTriLat;  // start -> verdict (the paper unit; v2 sets its own)
  int ii = 1;                    // clocks between starts
  std::size_t job_capacity = 0;  // leaf-pair queue entries; 0 = unbounded (paper configuration)
};

class TriangleUnit {
 public:
  TriangleUnit() = default;
  TriangleUnit(const TriangleUnitConfig& config, const ImageMemory* first, const ImageMemory* second,
               const QuantizedPose* pose, int rotation_bits)
      : cfg_(config), mem_{first, second}, pose_(pose), rotation_bits_(rotation_bits) {}

  std::size_t queued() const { return jobs_.size(); }
  std::size_t in_flight() const { return pipe_.size(); }
  bool idle() const { return jobs_.empty() && pipe_.empty(); }
  const TriangleUnitConfig& config() const { return cfg_; }

  void add(const TriangleJob& job) {
    jobs_.push_back(job);
    if (jobs_.size() > max_queued) max_queued = jobs_.size();
  }
  // One of the job's records is complete (external memory); the job may start from `usable_from`.
  void record_arrived(std::uint64_t job_id, std::uint64_t usable_from = 0) {
    for (TriangleJob& j : jobs_)
      if (j.id == job_id) {
        --j.outstanding;
        j.ready_cycle = std::max(j.ready_cycle, usable_from);
      }
  }

  // One clock: verdicts due now go to `out` (hits only), then at most one test starts.
  void tick(std::uint64_t now, ContactQueue& out) {
    while (!pipe_.empty() && pipe_.front().ready == now) {
      if (pipe_.front().hit) out.push(pipe_.front().pair);
      pipe_.pop_front();
    }
    if (jobs_.empty() || now < next_start_) return;
    const TriangleJob& j = jobs_.front();
    if (j.outstanding != 0 || j.ready_cycle > now) return;
    if (out.capacity() != 0 && out.size() + pipe_.size() + 1 > out.capacity()) {
      ++credit_stalls;
      return;
    }
    const ContactPair pair{j.tf, j.ts};
    jobs_.pop_front();
    ++tests;
    pipe_.push_back({now + std::uint64_t(cfg_.latency), pair, verdict(pair)});
    next_start_ = now + std::uint64_t(cfg_.ii);
  }

  std::uint64_t tests = 0;
  std::uint64_t credit_stalls = 0;  // a ready test waited for contact-queue room
  std::size_t max_queued = 0;

 private:
  struct Flight {
    std::uint64_t ready;
    ContactPair pair;
    bool hit;
  };

  bool verdict(const ContactPair& pair) const {
    const ImageTriangle& a = mem_[0]->image.triangles[pair.first];
    const ImageTriangle& b = mem_[1]->image.triangles[pair.second];
    FixedTriangle ta, tb;
    for (int c = 0; c < 3; ++c) {
      const FixedVertex va{a[std::size_t(3 * c)], a[std::size_t(3 * c + 1)], a[std::size_t(3 * c + 2)]};
      const FixedVertex vb{b[std::size_t(3 * c)], b[std::size_t(3 * c + 1)], b[std::size_t(3 * c + 2)]};
      ta.v[std::size_t(c)] = lift_first_vertex(va, rotation_bits_);
      tb.v[std::size_t(c)] = place_fixed_vertex(*pose_, vb);
    }
    return fixed_triangles_intersect(ta, tb);
  }

  TriangleUnitConfig cfg_;
  const ImageMemory* mem_[2] = {nullptr, nullptr};
  const QuantizedPose* pose_ = nullptr;
  int rotation_bits_ = 24;
  std::deque<TriangleJob> jobs_;
  std::deque<Flight> pipe_;
  std::uint64_t next_start_ = 0;
};

}  // namespace kdopcd::model
