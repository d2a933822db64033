// Host backend: the narrow phase's pipeline (narrow_pipeline.hpp) on TBB threads.
#include <fmt/format.h>
#include <tbb/task_arena.h>

#include <stdexcept>

#include "kdopcd/error.hpp"
#include "kdopcd_cuda/host_executor.hpp"
#include "kdopcd_cuda/multibody.hpp"
#include "kdopcd_cuda/narrow_pipeline.hpp"

namespace kdopcd::cuda {

int required_stack_words(int first_depth, int second_depth) {
  const long labels = long(first_depth) + long(second_depth);
  if (labels <= BitStack<1>::capacity) return 1;
  if (labels <= BitStack<2>::capacity) return 2;
  return 0;
}

void check_outcomes(const NarrowOutput& out) {
  unsigned long long leaf_pairs = 0;
  for (std::size_t i = 0; i < out.counters.size(); ++i) {
    const TaskCounters& c = out.counters[i];
    if (c.status != std::uint32_t(TraversalStatus::Ok))
      throw OverflowError(fmt::format("narrow phase: traversal stack overflow in task {} (trees too deep for the "
                                      "traversal's fixed per-thread stack; --traversal post-indexed keeps none)",
                                      i));
    leaf_pairs += c.leaf_pairs;
  }
  if (leaf_pairs != out.candidates || out.contacts.size() + out.undecided.size() > out.candidates)
    throw std::logic_error(fmt::format("narrow phase: {} candidates ({} contacts, {} undecided) for {} overlapping "
                                       "leaf pairs",
                                       out.candidates, out.contacts.size(), out.undecided.size(), leaf_pairs));
}

struct HostNarrow::Impl {
  HostExecutor exec;
  NarrowEngine<HostExecutor> engine{exec};
};

HostNarrow::HostNarrow() : impl_(std::make_unique<Impl>()) {}
HostNarrow::~HostNarrow() = default;

NarrowOutput HostNarrow::run(const NarrowScene& scene, const NarrowQuery& query, std::uint64_t initial_capacity,
                             int threads) {
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  impl_->exec.set_arena(&arena);
  return impl_->engine.run(scene, query, initial_capacity);
}

}  // namespace kdopcd::cuda
