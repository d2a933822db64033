#pragma once
// One v2 traversal engine: pair scheduler with the pending set, SAT units, triangle unit and
// contact queue, reading the shared tree memory (on-chip RAM, or external memory behind a node
// cache). Every control step is registered: a value written in cycle t is used in t + 1 at the
// earliest (docs/model-v2.md, "Timing contract").
//
// Per clock t, in this order:
//  1. contact queue: one contact leaves on the stream;
//  2. triangle unit: verdicts due at t enter the contact queue; at most one test starts;
//  3. SAT units: pairs whose records are in enter (one per wide unit, a free context otherwise);
//     verdicts due at t: a leaf pair becomes a triangle job, an inner pair stages its two
//     children (right first) into the pending set, the pair's in-flight slot is released;
//  4. scheduler: pops up to U pairs from the pending set as it was at the start of t, each into a
//     free in-flight slot, if the credits taken at the start of t allow it (below), and reads both
//     node records (on-chip: in the SAT at t + ram_latency);
//  5. the staged children are written: visible to the scheduler from t + 1.
// Credits (nothing can overflow silently): a pair is issued only if the pending set can still
// hold two children for it and for every pair in flight, and the triangle queue a job for each.
// If nothing is in flight and the pending set is full, the pair is issued anyway and an overflow
// of its children is the reported error (stack_overflow).
#include <cstdint>
#include <queue>
#include <vector>

#include "axi_read_memory.hpp"
#include "contact_queue.hpp"
#include "image_memory.hpp"
#include "kdopcd_model/model.hpp"
#include "node_cache.hpp"
#include "pair_stack.hpp"
#include "paper_core.hpp"  // QueryRegisters
#include "sat_unit.hpp"
#include "triangle_unit.hpp"

namespace kdopcd::model {

struct V2Config {
  int k = contract::v2::kK, n = contract::v2::kK;  // the contract's defaults
  int sat_latency = contract::v2::kSatLat;
  ModelParams params;
};

class V2Engine {
 public:
  V2Engine(const V2Config& config, int engine_id, AxiReadMemory* external, NodeCache* caches);

  bool busy() const { return busy_; }
  // Loads a query's registers and pushes the root pair (popped in this tick).
  void start(const QueryRegisters* regs, std::uint64_t now);
  void tick(std::uint64_t now);
  // A burst of this engine's arrived in tick `now` (external memory): usable from now + 1.
  void deliver(const MemBurst& burst, std::uint64_t now);

  // The finished query (valid when !busy() after a start).
  bool error() const { return error_; }
  const ModelStats& stats() const { return stats_; }
  const std::vector<ContactPair>& contacts() const { return contacts_; }
  std::uint64_t start_cycle() const { return start_; }
  std::uint64_t end_cycle() const { return end_; }
  const ContactQueue& out() const { return out_; }
  std::size_t pending() const { return pending_.size(); }

  static std::uint64_t engine_of_tag(std::uint64_t tag) { return tag >> 40; }

 private:
  struct Slot {
    bool used = false;
    NodePair pair;
    int missing = 0;             // records still to arrive (external)
    std::uint64_t arrival = 0;   // cycle from which both records are in
  };
  struct Ready {
    std::uint64_t arrival;
    std::uint64_t order;
    std::uint32_t slot;
    bool operator>(const Ready& o) const { return arrival != o.arrival ? arrival > o.arrival : order > o.order; }
  };

  std::uint64_t tag(std::uint64_t local) const { return (std::uint64_t(id_) << 40) | local; }
  void issue_pair(NodePair pair, std::uint64_t now);
  void verdict(const SatUnit::Done& d, std::uint64_t now);
  int first_separating_axis(const NodePair& pair) const;
  void finish(std::uint64_t now);

  V2Config cfg_;
  const ModelParams& p_;
  int id_;
  AxiReadMemory* external_;
  NodeCache* caches_;  // [2] when external
  const QueryRegisters* regs_ = nullptr;

  bool busy_ = false, error_ = false;
  std::uint64_t start_ = 0, end_ = 0;
  ModelStats stats_;
  std::vector<ContactPair> contacts_;

  PairStack pending_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::size_t in_flight_ = 0;
  std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready_;
  std::uint64_t ready_order_ = 0;
  std::vector<SatUnit> units_;
  std::vector<SatUnit::Done> done_;
  TriangleUnit tri_;
  ContactQueue out_;
  std::uint64_t next_job_ = 0;
};

}  // namespace kdopcd::model
