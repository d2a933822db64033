#pragma once
// The narrow phase's contacts, as the backends store them (one ResultEntry per contact, in the order
// their threads took slots), grouped by task and sorted: what NarrowRunner::run returns per task.
#include <cstdint>
#include <vector>

#include "kdopcd/traversal.hpp"
#include "kdopcd_cuda/narrow.hpp"

namespace kdopcd::cuda {

// For each of `task_count` tasks, its contacts in ContactPair order (first triangle, then second).
// Every entry's `pair` must be below task_count. Runs on the calling thread's TBB arena: a
// counting sort in which each thread counts and then places the contacts of its own slice, then a
// sort of each task's contacts as 64-bit keys, written once into a vector of its size.
std::vector<std::vector<ContactPair>> group_contacts_by_task(const std::vector<ResultEntry>& contacts,
                                                             std::size_t task_count);

}  // namespace kdopcd::cuda
