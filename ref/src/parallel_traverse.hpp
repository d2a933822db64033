#pragma once
// One tandem traversal on several threads. The pair tree that the sequential loop of
// traversal.hpp walks depth first is cut into tasks near its root: a task walks its subtree with
// its own explicit stack, and while a pair is shallow (the two nodes' depths sum to less than
// `spawn_depth`) the second child pair becomes a task of its own instead of a stack entry. TBB's
// work stealing then balances the subtrees, which differ a lot in size: most are pruned after a
// few tests while the few reaching the contact region hold nearly all the work. This is the
// task decomposition of HPCCD (Kim, Heo, Huh, Yoon, Manocha, "HPCCD: Hybrid Parallel Continuous
// Collision Detection using CPUs and GPUs", 2009), without its lock-free front splitting.
//
// The same pairs are tested as by traverse() (whether a pair is tested depends only on its
// ancestors' verdicts, never on the order), so the contacts and the counters pair_tests,
// axis_tests, leaf_pairs and triangle_tests are identical; max_stack_depth is the deepest task
// stack. pair_test is called concurrently once before_tasks has run (the first pairs are tested
// on the calling thread alone, before it). The triangle test is per thread: make_triangle_test()
// makes one, at its thread's first leaf pair, for the sequential start and for each thread that
// runs tasks, so its lazily filled caches need no lock, and a task finds its thread's test once
// instead of at every leaf pair (a thread-local lookup per triangle test cost a few per cent).
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include "kdopcd/traversal.hpp"

namespace kdopcd::detail {

// Combined depth below which overlapping pairs spawn tasks: ~8 tasks' worth of top-level pairs
// per thread, so that stealing has enough to balance, and few enough that a task (a few hundred
// ns to set up) is always much more work than its cost.
inline int spawn_depth_for(int threads) { return 2 * std::bit_width(unsigned(std::max(threads, 1))) + 6; }

// One arena per thread count, made on first use and kept: making an arena and waking its
// threads for every query would cost more than a mid-sized query.
inline tbb::task_arena& arena_for(int threads) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  // More threads than TBB will run would only make it warn; the arena is capped there.
  threads = std::min(threads, tbb::info::default_concurrency());
  std::lock_guard lock(mutex);
  auto& arena = arenas[threads];
  if (!arena) arena = std::make_unique<tbb::task_arena>(threads);
  return *arena;
}

// leaf_inner_test: traverse()'s optional extra axis (called concurrently), or nullptr.
template <class PairTest, class MakeTriangleTest, class BeforeTasks, class LeafInnerTest = std::nullptr_t>
QueryResult traverse_parallel(const DopTree& first, const DopTree& second, const TraversalOptions& options,
                              int threads, PairTest&& pair_test, MakeTriangleTest&& make_triangle_test,
                              BeforeTasks&& before_tasks, const LeafInnerTest& leaf_inner_test = nullptr) {
  struct NodePair {
    std::int32_t first, second;
  };
  using TriangleTest = decltype(make_triangle_test());
  struct Local {
    TraversalStats stats;
    std::vector<ContactPair> contacts;
    std::vector<NodePair> stack;
    std::optional<TriangleTest> triangle_test;  // made at this thread's first leaf pair
  };
  const int spawn_depth = spawn_depth_for(threads);
  const bool larger = options.rule == DescentRule::Larger;  // the only rule reading node sizes

  // Tests one pair on behalf of `local` and returns its children (none if separated or two leaves).
  auto visit = [&](Local& local, NodePair pair, NodePair& left, NodePair& right) {
    const PairVerdict verdict = pair_test(pair.first, pair.second);
    ++local.stats.pair_tests;
    local.stats.axis_tests += std::uint64_t(verdict.axes_tested);
    if (verdict.separated) return false;
    const DopNode& f = first.node(std::size_t(pair.first));
    const DopNode& s = second.node(std::size_t(pair.second));
    if (f.is_leaf() && s.is_leaf()) {
      ++local.stats.leaf_pairs;
      ++local.stats.triangle_tests;
      if (!local.triangle_test) local.triangle_test.emplace(make_triangle_test());
      if ((*local.triangle_test)(f.triangle, s.triangle))
        local.contacts.push_back({std::uint32_t(f.triangle), std::uint32_t(s.triangle)});
      return false;
    }
    if constexpr (!std::is_null_pointer_v<LeafInnerTest>) {
      if (f.is_leaf() != s.is_leaf() && leaf_inner_test(pair.first, pair.second)) {
        ++local.stats.axis_tests;
        return false;
      }
    }
    const bool split_first = split_first_node(f.is_leaf(), s.is_leaf(), f.depth, s.depth, options.rule,
                                              larger ? first.size(std::size_t(pair.first)) : 0.0,
                                              larger ? second.size(std::size_t(pair.second)) : 0.0);
    left = split_first ? NodePair{f.left, pair.second} : NodePair{pair.first, s.left};
    right = split_first ? NodePair{f.right, pair.second} : NodePair{pair.first, s.right};
    return true;
  };
  auto shallow = [&](NodePair pair) {
    return first.node(std::size_t(pair.first)).depth + second.node(std::size_t(pair.second)).depth < spawn_depth;
  };

  // The first pairs on the calling thread alone: most queries (separated and proximity poses) end
  // within them and never pay for waking other threads. Only a query still going after
  // kSequentialPairs tests hands its pending pairs to tasks.
  constexpr std::uint64_t kSequentialPairs = 256;
  Local start;
  {
    std::vector<NodePair>& stack = start.stack;
    stack.push_back({0, 0});
    while (!stack.empty() && start.stats.pair_tests < kSequentialPairs) {
      const NodePair pair = stack.back();
      stack.pop_back();
      NodePair left, right;
      if (!visit(start, pair, left, right)) continue;
      stack.push_back(right);
      stack.push_back(left);
      start.stats.max_stack_depth = std::max<std::uint32_t>(start.stats.max_stack_depth, std::uint32_t(stack.size()));
    }
  }
  QueryResult result;
  result.stats.max_stack_depth = 1;
  auto add = [&](const Local& local) {
    result.stats.pair_tests += local.stats.pair_tests;
    result.stats.axis_tests += local.stats.axis_tests;
    result.stats.leaf_pairs += local.stats.leaf_pairs;
    result.stats.triangle_tests += local.stats.triangle_tests;
    result.stats.max_stack_depth = std::max(result.stats.max_stack_depth, local.stats.max_stack_depth);
    result.contacts.insert(result.contacts.end(), local.contacts.begin(), local.contacts.end());
  };
  add(start);
  // Only a query that goes on past the sequential start pays for the per-thread state, the task
  // group and the arena (together as much as a whole separated query).
  if (!start.stack.empty()) {
    tbb::enumerable_thread_specific<Local> locals;
    tbb::task_group group;
    std::function<void(NodePair)> run_task;
    // Tasks made but not yet started. While none is left, some thread may be out of work.
    std::atomic<int> unstarted{0};
    auto spawn = [&](NodePair pair) {
      unstarted.fetch_add(1, std::memory_order_relaxed);
      group.run([&run_task, &unstarted, pair] {
        unstarted.fetch_sub(1, std::memory_order_relaxed);
        run_task(pair);
      });
    };
    // Walks the subtree of `root` on this thread; shallow overlapping pairs hand one child to a
    // task, and so does any pair while no task is waiting: the work below the shallow pairs is
    // very uneven (one of them may hold most of the query), so a thread that runs out of work
    // gets the oldest pending pair of a busy one, the one nearest the root and usually the
    // largest.
    run_task = [&](NodePair root) {
      Local& local = locals.local();
      std::vector<NodePair>& stack = local.stack;  // empty between tasks of one thread
      const std::size_t base = stack.size();       // a nested task (run inline by wait) starts above
      stack.push_back(root);
      while (stack.size() > base) {
        const NodePair pair = stack.back();
        stack.pop_back();
        NodePair left, right;
        if (!visit(local, pair, left, right)) continue;
        if (shallow(pair)) {
          spawn(right);
        } else {
          stack.push_back(right);
        }
        stack.push_back(left);
        if (unstarted.load(std::memory_order_relaxed) == 0 && stack.size() - base >= 2) {
          spawn(stack[base]);
          stack.erase(stack.begin() + std::ptrdiff_t(base));
        }
        local.stats.max_stack_depth =
            std::max<std::uint32_t>(local.stats.max_stack_depth, std::uint32_t(stack.size() - base));
      }
    };

    before_tasks();  // e.g. makes the lazily made axes that tasks read concurrently
    auto run_all = [&] {
      for (const NodePair pair : start.stack) spawn(pair);
      group.wait();
    };
    if (threads > 0) {
      arena_for(threads).execute(run_all);
    } else {
      run_all();
    }
    locals.combine_each(add);
  }
  std::sort(result.contacts.begin(), result.contacts.end());
  result.stats.contacts = result.contacts.size();
  return result;
}

}  // namespace kdopcd::detail
