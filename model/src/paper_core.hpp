#pragma once
// The paper's configuration (one DOP pair at a time, P one-axis SAT pipelines with early exit,
// both trees in external 64-bit memory behind GetData's next-pair buffer). This core is the
// timing contract the RTL top (rtl/paper/kdopcd_top.sv) is cycle-exact with; docs/model.md describes
// every step of tick().
#include <cstdint>
#include <vector>

#include "axi_read_memory.hpp"
#include "clocked_core.hpp"
#include "contact_queue.hpp"
#include "image_memory.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd_model/model.hpp"
#include "pair_stack.hpp"
#include "sat_pipelines.hpp"
#include "triangle_unit.hpp"

namespace kdopcd::model {

struct QueryRegisters {  // what the host loads before start
  const ImageMemory* first = nullptr;
  const ImageMemory* second = nullptr;
  std::vector<QuantizedAxis> axes;  // P'_A, P'_B, p', jA, jB per axis, in set-up order
  QuantizedPose pose;
};

class PaperCore final : public ClockedCore {
 public:
  // n axes per pair of k, SAT latency `sat_latency`; the registers stay owned by the caller.
  PaperCore(const ModelParams& params, int k, int n, int sat_latency, const QueryRegisters& regs);

  void tick() override;
  bool busy() const override { return busy_; }
  TopSignals signals() const override;

  const ModelStats& stats() const { return stats_; }
  const std::vector<ContactPair>& contacts() const { return contacts_; }

 private:
  struct Fetch {  // GetData's next-pair buffer
    bool valid = false;
    NodePair pair;
    std::uint64_t tag = 0;
    int outstanding = 0;
    std::uint64_t delivered_beats = 0;
    bool ready() const { return valid && outstanding == 0; }
  };
  struct Current {  // the pair in the pipeline (controller + PipeData view)
    bool valid = false, started = false, issue_from_next = false, stopped = false, separated = false;
    NodePair pair;
    std::uint64_t tag = 0;
    int next_axis = 0, sep_axis = -1, in_flight = 0;
  };

  void finish();
  void deliver(const MemBurst& burst);
  void start_fetch(NodePair pair);
  void pipeline_outputs();
  void verdict();
  void pop_and_start();
  bool may_issue() const;
  void issue();

  const ModelParams p_;
  const QueryRegisters& regs_;
  const int k_, n_, half_;
  bool busy_ = true, finished_ = false, error_ = false;
  ModelStats stats_;
  std::vector<ContactPair> contacts_;

  std::uint64_t cycle_ = 0;
  AxiReadMemory memory_;
  PairStack stack_;
  SatPipelines pipes_;
  TriangleUnit tri_;
  ContactQueue out_;
  Fetch fetch_;
  Current cur_;
  std::uint64_t next_tag_ = 1;
  std::uint64_t next_job_ = 0;
  const ImageNode* reg_f_ = nullptr;  // coefficient registers of the current pair
  const ImageNode* reg_s_ = nullptr;
  std::vector<MemBurst> delivered_;
};

}  // namespace kdopcd::model
