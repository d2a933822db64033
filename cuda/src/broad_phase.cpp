// CPU broad phases: sort and sweep (Le Grand 2007, §32.1.1, docs/references.md) in columns,
// brute force, and the GPU's grid algorithm run on the host (grid.hpp), plus the grid's cell size.
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cmath>
#include <limits>
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

namespace {

// Sort and sweep in columns. A single sweep along one axis tests every pair whose intervals on
// that axis overlap, which for objects spread over a plane or a volume (a grid of 100^3 objects,
// 10^4 of them in every slab) is far more than the pairs that overlap. So the two other axes are
// cut into columns wider than the largest box extent (each box lies in at most 2 x 2 of them, give
// or take rounding), every box is entered in the columns it covers, and each column is swept on its own:
// a test then needs overlap on all three axes within a column's width. A pair is reported only in
// the column of (max(lo_a), max(lo_b)) over the two column axes, which both boxes cover when they
// overlap (the column index is monotone in the coordinate), so no pair is reported twice. The
// work is the sort plus the pairs that overlap on the sweep axis inside a column: proportional to
// the candidate pairs for a pile at one spot, linear for objects that are spread out.
struct SweepEntry {
  std::uint64_t column;
  double lo;  // on the sweep axis
  std::uint32_t object;
  bool several;  // the box lies in more than one column
};

struct Columns {
  int sweep = 0, u = 1, v = 2;  // the sweep axis and the two column axes
  double origin[2] = {0, 0};
  double width[2] = {1, 1};     // infinite: one column along that axis
  std::uint32_t index(double x, int axis) const {  // axis 0: u, 1: v
    const double c = (x - origin[axis]) / width[axis];
    return c > 0 ? std::uint32_t(std::min(c, 4294967295.0)) : 0u;  // floor for c > 0, clamped
  }
  static std::uint64_t key(std::uint32_t cu, std::uint32_t cv) { return std::uint64_t(cu) << 32 | cv; }
};

Columns plan_columns(const std::vector<Aabb>& boxes) {
  Columns c;
  // Sweep along the axis whose box centres spread the most (Le Grand 2007, §32.1.1).
  double sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0}, lo[3], hi[3], extent[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) lo[i] = hi[i] = boxes[0].lo[i];
  for (const Aabb& b : boxes)
    for (int i = 0; i < 3; ++i) {
      const double centre = 0.5 * b.lo[i] + 0.5 * b.hi[i];
      sum[i] += centre;
      sum2[i] += centre * centre;
      lo[i] = std::min(lo[i], b.lo[i]);
      hi[i] = std::max(hi[i], b.hi[i]);
      extent[i] = std::max(extent[i], b.hi[i] - b.lo[i]);
    }
  const double n = double(boxes.size());
  double best = -1;
  for (int i = 0; i < 3; ++i) {
    const double variance = sum2[i] / n - (sum[i] / n) * (sum[i] / n);
    if (variance > best) best = variance, c.sweep = i;
  }
  c.u = c.sweep == 0 ? 1 : 0;
  c.v = c.sweep == 2 ? 1 : 2;
  c.origin[0] = lo[c.u];
  c.origin[1] = lo[c.v];
  // Twice the largest extent (a box of that extent then lies in one column per axis half the
  // time, in two the other half: fewer entries to sort than at the extent itself, for a few more
  // neighbours on the sweep axis), and no more than 2^31 columns per axis. Along an axis that the
  // scene spans in fewer than 4 such widths (a pile) columns would only make boxes that straddle
  // them tested twice: one column there.
  const double width = 2.0 * std::max(extent[c.u], extent[c.v]);
  for (const int a : {0, 1}) {
    const double scene = a == 0 ? hi[c.u] - lo[c.u] : hi[c.v] - lo[c.v];
    double w = std::max(width, scene * 0x1p-31);
    if (!(w > 0) || !std::isfinite(w) || scene < 4 * w) w = std::numeric_limits<double>::infinity();
    c.width[a] = w;
  }
  return c;
}

// Sorts pairs (a, b) of objects below `objects` by a, then b: a counting sort by a, then each
// object's partners sorted on their own. Linear in the pairs but for the partners' short sorts,
// where a comparison sort of the millions of pairs of a pile costs more than finding them.
void sort_object_pairs(std::vector<ObjectPair>& pairs, std::size_t objects) {
  if (pairs.size() < 2) return;
  std::vector<std::size_t> start(objects + 1, 0);
  for (const ObjectPair& p : pairs) ++start[p.first + 1];
  for (std::size_t o = 0; o < objects; ++o) start[o + 1] += start[o];
  std::vector<std::uint32_t> partner(pairs.size());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (const ObjectPair& p : pairs) partner[next[p.first]++] = p.second;
  for (std::size_t o = 0; o < objects; ++o) {
    std::sort(partner.begin() + std::ptrdiff_t(start[o]), partner.begin() + std::ptrdiff_t(start[o + 1]));
    for (std::size_t i = start[o]; i < start[o + 1]; ++i) pairs[i] = {std::uint32_t(o), partner[i]};
  }
}

}  // namespace

std::vector<ObjectPair> sort_and_sweep(const std::vector<Aabb>& boxes) {
  if (boxes.empty()) return {};
  for (const Aabb& b : boxes)
    for (int i = 0; i < 3; ++i)
      if (!(std::isfinite(b.lo[i]) && std::isfinite(b.hi[i]) && b.lo[i] <= b.hi[i]))
        throw std::invalid_argument("sort_and_sweep: box with non-finite or inverted bounds");
  const Columns c = plan_columns(boxes);
  // Counted first: a vector grown entry by entry would copy (and fault in) its pages twice.
  std::size_t count = 0;
  for (const Aabb& b : boxes)
    count += std::size_t(c.index(b.hi[c.u], 0) - c.index(b.lo[c.u], 0) + 1) *
             std::size_t(c.index(b.hi[c.v], 1) - c.index(b.lo[c.v], 1) + 1);
  std::vector<SweepEntry> entries;
  entries.reserve(count);
  for (std::uint32_t o = 0; o < boxes.size(); ++o) {
    const Aabb& b = boxes[o];
    const std::uint32_t u0 = c.index(b.lo[c.u], 0), u1 = c.index(b.hi[c.u], 0);
    const std::uint32_t v0 = c.index(b.lo[c.v], 1), v1 = c.index(b.hi[c.v], 1);
    const bool several = u1 != u0 || v1 != v0;
    for (std::uint64_t cu = u0; cu <= u1; ++cu)
      for (std::uint64_t cv = v0; cv <= v1; ++cv)
        entries.push_back({Columns::key(std::uint32_t(cu), std::uint32_t(cv)), b.lo[c.sweep], o, several});
  }
  tbb::parallel_sort(entries.begin(), entries.end(), [](const SweepEntry& a, const SweepEntry& b) {
    if (a.column != b.column) return a.column < b.column;
    if (a.lo != b.lo) return a.lo < b.lo;
    return a.object < b.object;
  });
  std::vector<ObjectPair> out;
  std::vector<const SweepEntry*> active;
  for (std::size_t start = 0; start < entries.size();) {
    const std::uint64_t column = entries[start].column;
    active.clear();
    std::size_t i = start;
    for (; i < entries.size() && entries[i].column == column; ++i) {
      const SweepEntry& e = entries[i];
      const Aabb& bo = boxes[e.object];
      // Drop the objects whose interval ended before this one starts (closed intervals), then
      // test the others. Two boxes that lie in this column alone meet in no other.
      std::size_t kept = 0;
      for (const SweepEntry* a : active) {
        const Aabb& bj = boxes[a->object];
        if (bj.hi[c.sweep] < bo.lo[c.sweep]) continue;
        active[kept++] = a;
        if (boxes_overlap(bo.lo, bo.hi, bj.lo, bj.hi) &&
            (!(e.several || a->several) ||
             Columns::key(c.index(std::max(bo.lo[c.u], bj.lo[c.u]), 0), c.index(std::max(bo.lo[c.v], bj.lo[c.v]), 1)) ==
                 column))
          out.emplace_back(std::min(e.object, a->object), std::max(e.object, a->object));
      }
      active.resize(kept);
      active.push_back(&e);
    }
    start = i;
  }
  sort_object_pairs(out, boxes.size());
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
  std::size_t count = 0;  // counted first, as in sort_and_sweep
  std::uint64_t cells[kCellsPerObject];
  for (const Aabb& b : boxes) count += std::size_t(box_cells(b.lo, b.hi, grid.origin, grid.cell, cells));
  entries.reserve(count);
  for (std::uint32_t o = 0; o < boxes.size(); ++o) {
    box_cells(boxes[o].lo, boxes[o].hi, grid.origin, grid.cell, cells);
    for (std::uint64_t c : cells)
      if (c != kInvalidCell) entries.push_back({c, o});
  }
  // The order inside a cell does not matter (each pair is emitted in one cell only, and the
  // output is sorted at the end), so an unstable parallel sort will do.
  tbb::parallel_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.cell != b.cell ? a.cell < b.cell : a.object < b.object;
  });
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
  sort_object_pairs(out, boxes.size());
  return out;
}

}  // namespace kdopcd::cuda
