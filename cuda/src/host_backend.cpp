// Host backend: narrow_pair() (narrow.hpp) on TBB threads with the GPU's result buffer protocol.
#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <stdexcept>

#include "kdopcd/error.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda {

int required_stack_words(int first_depth, int second_depth) {
  const long labels = long(first_depth) + long(second_depth);
  if (labels <= BitStack<1>::capacity) return 1;
  if (labels <= BitStack<2>::capacity) return 2;
  return 0;
}

void check_outcomes(const NarrowOutput& out) {
  for (std::size_t i = 0; i < out.outcomes.size(); ++i) {
    const PairOutcome& o = out.outcomes[i];
    if (o.status != std::uint32_t(TraversalStatus::Ok))
      throw OverflowError(fmt::format("narrow phase: traversal stack overflow in object pair task {} (trees too "
                                      "deep for the stack; try --traversal explicit)",
                                      i));
    if (o.stored != o.emitted)
      throw std::runtime_error(fmt::format("narrow phase: task {} stored {} of {} candidates", i, o.stored, o.emitted));
  }
}

namespace {

NarrowView make_view(const NarrowInput& in) {
  NarrowView v{};
  v.nodes = in.nodes.data();
  v.coefficients = in.coefficients.data();
  v.trees = in.trees.data();
  v.qcoefficients = in.qcoefficients.data();
  v.qtrees = in.qtrees.data();
  v.tasks = in.tasks.data();
  v.axes = in.axes.data();
  v.qaxes = in.qaxes.data();
  v.k = in.k;
  v.axes_per_pair = in.axes_per_pair;
  v.rule = in.rule;
  v.fixed = in.fixed;
  return v;
}

template <TraversalKind T, SatKind S, int W>
void run_range(const NarrowView& v, std::uint32_t count) {
  tbb::parallel_for(tbb::blocked_range<std::uint32_t>(0, count, 1), [&](const auto& r) {
    for (std::uint32_t i = r.begin(); i != r.end(); ++i) narrow_pair<T, S, W>(v, i);
  });
}

void dispatch(const NarrowInput& in, const NarrowView& v, std::uint32_t count) {
  const bool fixed = in.sat == SatKind::Fixed;
  if (in.traversal == TraversalKind::ExplicitStack) {
    if (fixed) run_range<TraversalKind::ExplicitStack, SatKind::Fixed, 1>(v, count);
    else run_range<TraversalKind::ExplicitStack, SatKind::Float, 1>(v, count);
  } else if (in.stack_words == 2) {
    if (fixed) run_range<TraversalKind::BinaryStack, SatKind::Fixed, 2>(v, count);
    else run_range<TraversalKind::BinaryStack, SatKind::Float, 2>(v, count);
  } else if (in.stack_words == 1) {
    if (fixed) run_range<TraversalKind::BinaryStack, SatKind::Fixed, 1>(v, count);
    else run_range<TraversalKind::BinaryStack, SatKind::Float, 1>(v, count);
  } else {
    throw std::runtime_error("host narrow phase: trees too deep for a 2-word binary stack");
  }
}

}  // namespace

NarrowOutput host_narrow(const NarrowInput& in, std::uint64_t initial_capacity, int threads) {
  NarrowOutput out;
  const std::uint32_t task_count = std::uint32_t(in.tasks.size());
  out.outcomes.assign(task_count, PairOutcome{});
  if (task_count == 0) return out;
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  NarrowView v = make_view(in);
  std::vector<std::uint32_t> launch_tasks;  // empty: all tasks
  std::vector<std::uint32_t> skip(task_count, 0);
  std::uint64_t capacity = std::max<std::uint64_t>(initial_capacity, 1);
  for (;;) {
    std::vector<ResultEntry> buffer(capacity);
    unsigned long long counter = 0;
    v.launch_tasks = launch_tasks.empty() ? nullptr : launch_tasks.data();
    v.launch_count = launch_tasks.empty() ? task_count : std::uint32_t(launch_tasks.size());
    v.skip = out.launches == 0 ? nullptr : skip.data();
    v.results = buffer.data();
    v.capacity = capacity;
    v.counter = &counter;
    v.outcomes = out.outcomes.data();
    arena.execute([&] { dispatch(in, v, v.launch_count); });
    ++out.launches;
    out.final_capacity = capacity;
    const std::uint64_t stored = std::min<std::uint64_t>(counter, capacity);
    out.results.insert(out.results.end(), buffer.begin(), buffer.begin() + std::ptrdiff_t(stored));
    if (counter <= capacity) break;
    // Overflow: relaunch only the pairs that could not store everything, into a buffer of exactly
    // the missing size, each skipping what it stored already.
    launch_tasks.clear();
    std::uint64_t missing = 0;
    for (std::uint32_t t = 0; t < task_count; ++t) {
      const PairOutcome& o = out.outcomes[t];
      skip[t] = o.stored;
      if (o.stored < o.emitted) {
        launch_tasks.push_back(t);
        missing += o.emitted - o.stored;
      }
    }
    if (launch_tasks.empty() || missing == 0) throw std::logic_error("host narrow phase: overflow without a missing pair");
    capacity = missing;
  }
  return out;
}

}  // namespace kdopcd::cuda
