// CPU broad phases: sort and sweep (Le Grand 2007, §32.1.1, docs/references.md), brute force,
// and the GPU's grid algorithm run on the host (grid.hpp), plus the grid's cell size.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kdopcd_cuda/grid.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda {

std::vector<ObjectPair> brute_force_pairs(const std::vector<Aabb>& boxes) {
  std::vector<ObjectPair> out;
  for (std::uint32_t a = 0; a < boxes.size(); ++a)
    for (std::uint32_t b = a + 1; b < boxes.size(); ++b)
      if (boxes_overlap(boxes[a].lo, boxes[a].hi, boxes[b].lo, boxes[b].hi)) out.emplace_back(a, b);
  return out;
}

std::vector<ObjectPair> sort_and_sweep(const std::vector<Aabb>& boxes) {
  // Objects sorted by the start of their x interval; an active list of objects whose x interval
  // may still overlap. Each new object is tested against the active ones (full box test).
  std::vector<std::uint32_t> order(boxes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return boxes[a].lo[0] < boxes[b].lo[0] || (boxes[a].lo[0] == boxes[b].lo[0] && a < b);
  });
  std::vector<ObjectPair> out;
  std::vector<std::uint32_t> active;
  for (std::uint32_t i : order) {
    const Aabb& bi = boxes[i];
    // Drop objects whose x interval ended before this one starts (closed intervals).
    active.erase(std::remove_if(active.begin(), active.end(), [&](std::uint32_t j) { return boxes[j].hi[0] < bi.lo[0]; }),
                 active.end());
    for (std::uint32_t j : active)
      if (boxes_overlap(bi.lo, bi.hi, boxes[j].lo, boxes[j].hi)) out.emplace_back(std::min(i, j), std::max(i, j));
    active.push_back(i);
  }
  std::sort(out.begin(), out.end());
  return out;
}

GridSpec make_grid(const std::vector<Aabb>& boxes) {
  GridSpec g{{0, 0, 0}, 1};
  if (boxes.empty()) return g;
  double lo[3] = {boxes[0].lo[0], boxes[0].lo[1], boxes[0].lo[2]};
  double hi[3] = {boxes[0].hi[0], boxes[0].hi[1], boxes[0].hi[2]};
  double extent = 0;
  for (const Aabb& b : boxes)
    for (int i = 0; i < 3; ++i) {
      if (!(std::isfinite(b.lo[i]) && std::isfinite(b.hi[i]) && b.lo[i] <= b.hi[i]))
        throw std::invalid_argument("make_grid: box with non-finite or inverted bounds");
      lo[i] = std::min(lo[i], b.lo[i]);
      hi[i] = std::max(hi[i], b.hi[i]);
      extent = std::max(extent, b.hi[i] - b.lo[i]);
    }
  double scene = 0;
  for (int i = 0; i < 3; ++i) {
    g.origin[i] = lo[i];
    scene = std::max(scene, hi[i] - lo[i]);
  }
  g.cell = std::max(1.01 * extent, scene / double((1u << kCellBits) - 4));
  if (!(g.cell > 0)) g.cell = 1;
  // Verify with the kernels' own arithmetic that no box covers more than 2 cells per axis.
  for (int attempt = 0;; ++attempt) {
    bool ok = true;
    for (const Aabb& b : boxes)
      for (int i = 0; i < 3 && ok; ++i)
        ok = cell_coordinate(b.hi[i], g.origin[i], g.cell) - cell_coordinate(b.lo[i], g.origin[i], g.cell) <= 1;
    if (ok) return g;
    if (attempt > 60) throw std::logic_error("make_grid: no cell size found");
    g.cell *= 1.5;
  }
}

std::vector<ObjectPair> host_grid_pairs(const std::vector<Aabb>& boxes, const GridSpec& grid) {
  // (1) cell ids, (2) sort by cell id (stable, as the radix sort), (3) cell list, (4) pairs.
  struct Entry {
    std::uint64_t cell;
    std::uint32_t object;
  };
  std::vector<Entry> entries;
  for (std::uint32_t o = 0; o < boxes.size(); ++o) {
    std::uint64_t cells[kCellsPerObject];
    box_cells(boxes[o].lo, boxes[o].hi, grid.origin, grid.cell, cells);
    for (std::uint64_t c : cells) entries.push_back({c, o});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.cell < b.cell; });
  std::vector<ObjectPair> out;
  for (std::size_t start = 0; start < entries.size();) {
    std::size_t end = start + 1;
    while (end < entries.size() && entries[end].cell == entries[start].cell) ++end;
    if (entries[start].cell != kInvalidCell)
      for (std::size_t i = start; i < end; ++i)
        for (std::size_t j = i + 1; j < end; ++j) {
          const std::uint32_t a = std::min(entries[i].object, entries[j].object);
          const std::uint32_t b = std::max(entries[i].object, entries[j].object);
          if (boxes_overlap(boxes[a].lo, boxes[a].hi, boxes[b].lo, boxes[b].hi) &&
              pair_cell(boxes[a].lo, boxes[b].lo, grid.origin, grid.cell) == entries[start].cell)
            out.emplace_back(a, b);
        }
    start = end;
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kdopcd::cuda
