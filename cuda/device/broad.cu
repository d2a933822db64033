// GPU broad phase after Le Grand 2007 (docs/references.md): cell ids from the object boxes, CUB
// radix sort by cell id, the cell list (start of every run of equal ids), one thread per cell
// testing its object pairs; the pair's canonical cell (grid.hpp) removes duplicates. Pairs go
// through an atomic counter into a buffer; on overflow the pair kernel runs again with a buffer of
// the counted size.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>

#include "device_common.cuh"
#include "kdopcd_cuda/grid.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda {

struct GridArgs {
  double origin[3];
  double cell;
};

extern "C" __global__ void kdopcd_grid_cell_ids(const Aabb* boxes, std::uint32_t count, GridArgs g,
                                                std::uint64_t* keys, std::uint32_t* objects) {
  const std::uint32_t o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= count) return;
  std::uint64_t cells[kCellsPerObject];
  const Aabb b = boxes[o];
  box_cells(b.lo, b.hi, g.origin, g.cell, cells);
  for (int c = 0; c < kCellsPerObject; ++c) {
    keys[std::size_t(o) * kCellsPerObject + c] = cells[c];
    objects[std::size_t(o) * kCellsPerObject + c] = o;
  }
}

extern "C" __global__ void kdopcd_grid_run_heads(const std::uint64_t* keys, std::uint32_t n, std::uint8_t* heads) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  heads[i] = (i == 0 || keys[i] != keys[i - 1]) ? 1 : 0;
}

extern "C" __global__ void kdopcd_grid_cell_pairs(const std::uint64_t* keys, const std::uint32_t* objects,
                                                  std::uint32_t n, const std::uint32_t* starts,
                                                  const std::uint32_t* cell_count, const Aabb* boxes, GridArgs g,
                                                  std::uint64_t* pairs, std::uint64_t capacity,
                                                  unsigned long long* counter) {
  const std::uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= *cell_count) return;
  const std::uint32_t start = starts[c];
  const std::uint32_t end = c + 1 < *cell_count ? starts[c + 1] : n;
  const std::uint64_t key = keys[start];
  if (key == kInvalidCell || end - start < 2) return;
  for (std::uint32_t i = start; i < end; ++i)
    for (std::uint32_t j = i + 1; j < end; ++j) {
      const std::uint32_t a = min(objects[i], objects[j]);
      const std::uint32_t b = max(objects[i], objects[j]);
      const Aabb ba = boxes[a], bb = boxes[b];
      if (!boxes_overlap(ba.lo, ba.hi, bb.lo, bb.hi)) continue;
      if (pair_cell(ba.lo, bb.lo, g.origin, g.cell) != key) continue;
      const unsigned long long slot = atomicAdd(counter, 1ull);
      if (slot < capacity) pairs[slot] = (std::uint64_t(a) << 32) | b;
    }
}

std::vector<ObjectPair> device_grid_pairs(const std::vector<Aabb>& boxes, const GridSpec& grid) {
  using detail::check;
  using detail::DeviceBuffer;
  const std::uint32_t count = std::uint32_t(boxes.size());
  if (count < 2) return {};
  const std::uint32_t n = count * kCellsPerObject;
  GridArgs g{{grid.origin[0], grid.origin[1], grid.origin[2]}, grid.cell};
  DeviceBuffer<Aabb> d_boxes;
  d_boxes.upload(boxes);
  DeviceBuffer<std::uint64_t> keys(n), keys_sorted(n);
  DeviceBuffer<std::uint32_t> objects(n), objects_sorted(n), starts(n), cell_count(1);
  DeviceBuffer<std::uint8_t> heads(n);
  const unsigned threads = 128;
  kdopcd_grid_cell_ids<<<(count + threads - 1) / threads, threads>>>(d_boxes.get(), count, g, keys.get(), objects.get());
  check(cudaGetLastError(), "cell id kernel");

  // Radix sort by cell id (stable, all 64 bits: the invalid id ~0 sorts last).
  std::size_t temp_bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.get(), keys_sorted.get(), objects.get(),
                                        objects_sorted.get(), n),
        "radix sort size");
  std::size_t select_bytes = 0;
  thrust::counting_iterator<std::uint32_t> index(0);
  check(cub::DeviceSelect::Flagged(nullptr, select_bytes, index, heads.get(), starts.get(), cell_count.get(), n),
        "select size");
  DeviceBuffer<std::uint8_t> temp(std::max(temp_bytes, select_bytes));
  check(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(), keys_sorted.get(), objects.get(),
                                        objects_sorted.get(), n),
        "radix sort");
  // Cell list: the start of every run of equal cell ids.
  kdopcd_grid_run_heads<<<(n + threads - 1) / threads, threads>>>(keys_sorted.get(), n, heads.get());
  check(cudaGetLastError(), "run head kernel");
  check(cub::DeviceSelect::Flagged(temp.get(), select_bytes, index, heads.get(), starts.get(), cell_count.get(), n),
        "select");
  const std::uint32_t cells = cell_count.download(1)[0];

  // Pairs per cell, with overflow detection and one re-run at the counted size.
  std::uint64_t capacity = std::max<std::uint64_t>(1024, 8ull * count);
  DeviceBuffer<unsigned long long> counter(1);
  DeviceBuffer<std::uint64_t> pairs;
  unsigned long long total = 0;
  for (;;) {
    pairs.allocate(capacity);
    check(cudaMemset(counter.get(), 0, sizeof(unsigned long long)), "cudaMemset");
    kdopcd_grid_cell_pairs<<<(cells + threads - 1) / threads, threads>>>(keys_sorted.get(), objects_sorted.get(), n,
                                                                       starts.get(), cell_count.get(), d_boxes.get(),
                                                                       g, pairs.get(), capacity, counter.get());
    check(cudaGetLastError(), "cell pair kernel");
    total = counter.download(1)[0];
    if (total <= capacity) break;
    capacity = total;
  }
  std::vector<ObjectPair> out;
  if (total == 0) return out;
  // Sort the pair keys (a << 32 | b) so the result is deterministic.
  DeviceBuffer<std::uint64_t> pairs_sorted(total);
  temp_bytes = 0;
  check(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, pairs.get(), pairs_sorted.get(), int(total)), "pair sort size");
  DeviceBuffer<std::uint8_t> temp2(temp_bytes);
  check(cub::DeviceRadixSort::SortKeys(temp2.get(), temp_bytes, pairs.get(), pairs_sorted.get(), int(total)), "pair sort");
  const std::vector<std::uint64_t> host = pairs_sorted.download(total);
  out.reserve(host.size());
  for (std::uint64_t p : host) out.emplace_back(std::uint32_t(p >> 32), std::uint32_t(p & 0xffffffffu));
  return out;
}

}  // namespace kdopcd::cuda
