#pragma once
// What the accelerator's host does per query and what a query costs end to end, for the
// benchmarks that compare the accelerator with software (accel_bench, compare_backends): the
// set-up on one core (make_query_setup: the axis table, M', T'; and the command queue's
// descriptor), timed in thread CPU time; and the model's clocks from the doorbell write to the
// completion record through the command queue over a host interface (docs/model-v2.md,
// "End to end").
#include <string>

#include "bench_timing.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd_driver/v2_host.hpp"
#include "kdopcd_model/model.hpp"

namespace kdopcd::bench {

// Seconds of the host's set-up of one query (median of batches, thread CPU time).
inline double accelerator_setup_seconds(const DopTree& first, const DopTree& second, const Pose& pose,
                                        const model::ModelParams& p, double batch_ms, int batches) {
  return time_call(
      thread_cpu_seconds,
      [&] {
        const QuerySetup setup =
            make_query_setup(first, second, pose, p.fixed, TriangleFixedParams{p.vertex_bits, p.rotation_bits});
        driver::v2::QueryProgram q;
        q.M = &setup.triangle_pose.M;
        q.T = &setup.triangle_pose.T;
        q.axes = &setup.fixed_axes;
        q.fixed = p.fixed;
        q.rule = p.rule;
        q.vertex_bits = p.vertex_bits;
        q.rotation_bits = p.rotation_bits;
        return driver::v2::make_descriptor(q, {1, 0, 1, 0}).size();
      },
      batch_ms, batches);
}

// The query alone on an idle accelerator through the command queue over `host`: the set-up, then
// the clocks from the doorbell write to the completion record visible to the host. `contacts`
// receives the query's contacts (for the caller's check).
inline double end_to_end_seconds(const DopTree& first, const DopTree& second, const Pose& pose, model::ModelParams p,
                                 const std::string& host, double setup_seconds, std::vector<ContactPair>* contacts) {
  p.host_path = model::HostPath::Queue;
  p.host = model::host_interface(host);
  model::ModelResult m = model::simulate(first, second, pose, p);
  if (contacts) *contacts = std::move(m.contacts);
  return setup_seconds + double(m.stats.completion_cycle) / (p.clock_mhz * 1e6);
}

}  // namespace kdopcd::bench
