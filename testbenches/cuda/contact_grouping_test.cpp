// group_contacts_by_task against the plain way (push each contact to its task, sort each task):
// random contacts over many and few tasks, on 1, 2 and 4 threads, with sizes on both sides of the
// slicing threshold; and a task index out of range refused.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "kdopcd_cuda/contact_grouping.hpp"

namespace kdopcd::cuda {
namespace {

std::vector<std::vector<ContactPair>> group_plainly(const std::vector<ResultEntry>& contacts, std::size_t tasks) {
  std::vector<std::vector<ContactPair>> out(tasks);
  for (const ResultEntry& e : contacts) out[e.pair].push_back({e.first_triangle, e.second_triangle});
  for (auto& list : out) std::sort(list.begin(), list.end());
  return out;
}

TEST(ContactGrouping, EqualsPushingAndSortingPerTask) {
  std::mt19937_64 rng(5);
  for (const std::size_t tasks : {std::size_t(1), std::size_t(7), std::size_t(3000)})
    for (const std::size_t m : {std::size_t(0), std::size_t(5), std::size_t(4095), std::size_t(40000)})
      for (const int threads : {1, 2, 4}) {
        SCOPED_TRACE(std::to_string(tasks) + " tasks, " + std::to_string(m) + " contacts, " + std::to_string(threads) +
                     " threads");
        std::vector<ResultEntry> contacts(m);
        // Large triangle indices too, so that the 64-bit keys' halves matter.
        for (ResultEntry& e : contacts)
          e = ResultEntry{std::uint32_t(rng() % tasks), std::uint32_t(rng() % 50 + (rng() % 2 ? 0 : 0xfffffff0u - 50)),
                          std::uint32_t(rng() % 60 + (rng() % 2 ? 0 : 0x80000000u))};
        tbb::task_arena arena(threads);
        std::vector<std::vector<ContactPair>> grouped;
        arena.execute([&] { grouped = group_contacts_by_task(contacts, tasks); });
        EXPECT_EQ(grouped, group_plainly(contacts, tasks));
      }
}

TEST(ContactGrouping, TaskOutOfRangeIsRefused) {
  EXPECT_THROW(group_contacts_by_task({ResultEntry{3, 0, 0}}, 3), std::invalid_argument);
}

}  // namespace
}  // namespace kdopcd::cuda
