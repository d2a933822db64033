// group_contacts_by_task: a parallel counting sort by task, then a sort within each task.
#include "kdopcd_cuda/contact_grouping.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <stdexcept>

namespace kdopcd::cuda {

std::vector<std::vector<ContactPair>> group_contacts_by_task(const std::vector<ResultEntry>& contacts,
                                                             std::size_t task_count) {
  const std::size_t m = contacts.size(), n = task_count;
  for (const ResultEntry& e : contacts)
    if (e.pair >= n) throw std::invalid_argument("group_contacts_by_task: a contact's task is out of range");
  // Slices of at least 4096 contacts, at most one per thread.
  const std::size_t threads = std::size_t(std::max(1, tbb::this_task_arena::max_concurrency()));
  const std::size_t slices = std::max<std::size_t>(1, std::min(threads, m / 4096));
  const auto slice_begin = [&](std::size_t c) { return m * c / slices; };
  std::vector<std::uint32_t> count(slices * n, 0);  // count[c * n + task]: task's contacts in slice c
  std::vector<std::uint64_t> start(n + 1, 0);       // task i's contacts: keys[start[i], start[i + 1])
  tbb::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    for (std::size_t j = slice_begin(c); j < slice_begin(c + 1); ++j) ++count[c * n + contacts[j].pair];
  });
  // Slice c's contacts of task i go after those of slices 0..c-1: count becomes each slice's cursor
  // within the task's range, and the task's total its range's size.
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
    std::uint64_t before = 0;
    for (std::size_t c = 0; c < slices; ++c) {
      const std::uint32_t here = count[c * n + i];
      count[c * n + i] = std::uint32_t(before);
      before += here;
    }
    start[i + 1] = before;
  });
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  // The key's order is ContactPair's: first triangle in the high half, second in the low.
  std::vector<std::uint64_t> keys(m);
  tbb::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    for (std::size_t j = slice_begin(c); j < slice_begin(c + 1); ++j) {
      const ResultEntry& e = contacts[j];
      keys[start[e.pair] + count[c * n + e.pair]++] = std::uint64_t(e.first_triangle) << 32 | e.second_triangle;
    }
  });
  std::vector<std::vector<ContactPair>> out(n);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
    if (start[i] == start[i + 1]) return;
    const auto first = keys.begin() + std::ptrdiff_t(start[i]), last = keys.begin() + std::ptrdiff_t(start[i + 1]);
    std::sort(first, last);
    out[i].reserve(std::size_t(last - first));
    for (auto k = first; k != last; ++k) out[i].push_back({std::uint32_t(*k >> 32), std::uint32_t(*k)});
  });
  return out;
}

}  // namespace kdopcd::cuda
