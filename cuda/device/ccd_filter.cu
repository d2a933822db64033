// The elementary tests' filter on the GPU (kdopcd_cuda/ccd_filter.hpp): one thread per feature
// pair runs ccd::filtered_first_contact, the host's code.
#include <cuda_runtime.h>

#include "device_common.cuh"
#include "kdopcd_cuda/ccd_filter.hpp"
#include "kdopcd_cuda/narrow_runner.hpp"

namespace kdopcd::cuda {

extern "C" __global__ void __launch_bounds__(128)
    kdopcd_ccd_filter(const ccd::ElementaryKind* kinds, const ccd::ElementaryPoints* points, std::uint32_t count,
                      double* times) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  times[i] = ccd::filtered_first_contact(kinds[i], points[i]);
}

void device_elementary_filter(std::span<const ccd::ElementaryKind> kinds, std::span<const ccd::ElementaryPoints> points,
                              std::span<double> times) {
  using detail::check;
  using detail::DeviceBuffer;
  std::string why;
  if (!device_available(&why)) throw std::runtime_error("device_elementary_filter: no usable GPU: " + why);
  if (kinds.size() != points.size() || times.size() != points.size())
    throw std::invalid_argument("device_elementary_filter: kinds, points and times differ in length");
  if (points.size() >= (std::size_t(1) << 32)) throw std::invalid_argument("device_elementary_filter: 2^32 pairs or more");
  const std::size_t n = points.size();
  if (n == 0) return;
  DeviceBuffer<ccd::ElementaryKind> k(n);
  DeviceBuffer<ccd::ElementaryPoints> p(n);
  DeviceBuffer<double> t(n);
  check(cudaMemcpy(k.get(), kinds.data(), n * sizeof(ccd::ElementaryKind), cudaMemcpyHostToDevice), "upload kinds");
  check(cudaMemcpy(p.get(), points.data(), n * sizeof(ccd::ElementaryPoints), cudaMemcpyHostToDevice), "upload points");
  kdopcd_ccd_filter<<<unsigned((n + 127) / 128), 128>>>(k.get(), p.get(), std::uint32_t(n), t.get());
  check(cudaGetLastError(), "kdopcd_ccd_filter launch");
  check(cudaDeviceSynchronize(), "kdopcd_ccd_filter");
  check(cudaMemcpy(times.data(), t.get(), n * sizeof(double), cudaMemcpyDeviceToHost), "download times");
}

}  // namespace kdopcd::cuda
