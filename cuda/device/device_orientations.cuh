#pragma once
// An OrientationSet's arrays in device memory and the OrientationView of them, for kernels that
// run the query set-up (kdopcd/query_setup.hpp) on the device.
#include <cstdint>
#include <vector>

#include "device_common.cuh"
#include "kdopcd/orientations.hpp"

namespace kdopcd::cuda::detail {

class DeviceOrientationSet {
 public:
  explicit DeviceOrientationSet(const OrientationSet& set) {
    const OrientationView h = set.view();
    const std::size_t k = std::size_t(h.k), n = std::size_t(h.triple_count);
    upload(directions_, h.directions, 3 * k);
    upload(triples_, h.triples, 3 * n);
    upload(inverse_, h.inverse_transposed, 9 * n);
    upload(own_, h.own_triples, 3 * k);
    upload(cell_start_, h.cell_start, std::size_t(kCubeMapCells) + 1);
    upload(cell_triples_, h.cell_triples, std::size_t(h.cell_start[kCubeMapCells]));
    view_ = OrientationView{h.k,           h.triple_count,   directions_.get(),  triples_.get(), inverse_.get(),
                            own_.get(),    cell_start_.get(), cell_triples_.get()};
  }
  // Pointers into device memory: pass by value to a kernel.
  const OrientationView& view() const { return view_; }

 private:
  template <class T>
  static void upload(DeviceBuffer<T>& to, const T* from, std::size_t n) {
    to.upload(std::vector<T>(from, from + n));
  }
  DeviceBuffer<double> directions_, inverse_;
  DeviceBuffer<std::int32_t> triples_, own_;
  DeviceBuffer<std::uint32_t> cell_start_;
  DeviceBuffer<std::uint8_t> cell_triples_;
  OrientationView view_;
};

}  // namespace kdopcd::cuda::detail
