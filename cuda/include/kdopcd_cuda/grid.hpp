#pragma once
// Cell arithmetic of the spatial-subdivision broad phase (Le Grand 2007, docs/references.md),
// shared by the GPU kernels and the host implementation of the same algorithm (which the tests
// run).
//
// Steps: (1) each object writes the ids of the cells its box covers (<= 8, cell >= box extent;
// unused slots get kInvalidCell); (2) radix sort of (cell id, object) by cell id; (3) the cell
// list: start of every run of equal ids; (4) one thread per cell with >= 2 objects tests each
// pair of its objects. A pair of overlapping boxes shares every cell that contains the point
// m = max(lo_a, lo_b) (both boxes contain m), and cell() is monotone, so both list that cell;
// the pair is emitted only in that cell: no duplicates, no control bits needed.
#include <cstdint>

#include "kdopcd/config.hpp"

namespace kdopcd::cuda {

inline constexpr int kCellBits = 21;  // per axis; 63-bit cell ids
inline constexpr std::uint64_t kInvalidCell = ~std::uint64_t(0);
inline constexpr int kCellsPerObject = 8;

// Integer cell coordinate of x along one axis: floor((x - origin) / cell), clamped to the grid.
KDOPCD_HD inline std::uint32_t cell_coordinate(double x, double origin, double cell) {
  const double c = (x - origin) / cell;
  if (!(c > 0)) return 0;
  const double top = double((1u << kCellBits) - 1);
  return c >= top ? (1u << kCellBits) - 1 : std::uint32_t(c);  // truncation = floor for c > 0
}

KDOPCD_HD inline std::uint64_t cell_key(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return (std::uint64_t(z) << (2 * kCellBits)) | (std::uint64_t(y) << kCellBits) | std::uint64_t(x);
}

// Closed boxes overlap.
KDOPCD_HD inline bool boxes_overlap(const double* lo_a, const double* hi_a, const double* lo_b, const double* hi_b) {
  return lo_a[0] <= hi_b[0] && lo_b[0] <= hi_a[0] && lo_a[1] <= hi_b[1] && lo_b[1] <= hi_a[1] &&
         lo_a[2] <= hi_b[2] && lo_b[2] <= hi_a[2];
}

// The one cell in which the pair (a, b) is reported: the cell of max(lo_a, lo_b).
KDOPCD_HD inline std::uint64_t pair_cell(const double* lo_a, const double* lo_b, const double* origin, double cell) {
  std::uint32_t c[3];
  for (int i = 0; i < 3; ++i) c[i] = cell_coordinate(lo_a[i] > lo_b[i] ? lo_a[i] : lo_b[i], origin[i], cell);
  return cell_key(c[0], c[1], c[2]);
}

// The cell ids of one box into out[0..7] (kInvalidCell where unused); returns how many are valid.
KDOPCD_HD inline int box_cells(const double* lo, const double* hi, const double* origin, double cell,
                               std::uint64_t* out) {
  std::uint32_t first[3], count[3];
  for (int i = 0; i < 3; ++i) {
    first[i] = cell_coordinate(lo[i], origin[i], cell);
    const std::uint32_t last = cell_coordinate(hi[i], origin[i], cell);
    count[i] = last - first[i] + 1;
    if (count[i] > 2) count[i] = 2;  // cannot happen with cell >= 1.01 x extent (docs/cuda.md §5)
  }
  int n = 0;
  for (std::uint32_t z = 0; z < 2; ++z)
    for (std::uint32_t y = 0; y < 2; ++y)
      for (std::uint32_t x = 0; x < 2; ++x) {
        const bool valid = x < count[0] && y < count[1] && z < count[2];
        out[z * 4 + y * 2 + x] = valid ? cell_key(first[0] + x, first[1] + y, first[2] + z) : kInvalidCell;
        n += valid ? 1 : 0;
      }
  return n;
}

}  // namespace kdopcd::cuda
