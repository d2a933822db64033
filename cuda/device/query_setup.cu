// The query set-up on the GPU (kdopcd_cuda/device_setup.hpp): one thread per axis of a query runs
// make_query_axis, the host's code (kdopcd/query_setup.hpp). Built with --fmad=false, like the
// rest of the device code: the set-up rounds every product and sum on its own, as on the host.
#include <cuda_runtime.h>

#include "device_common.cuh"
#include "device_orientations.cuh"
#include "kdopcd_cuda/device_setup.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda {

extern "C" __global__ void __launch_bounds__(128)
    kdopcd_query_setup(OrientationView set, const QueryPoseView* queries, std::uint32_t query_count,
                       DoubleAxis* float_axes, QuantizedAxis* fixed_axes, SetupStatus* status) {
  const std::uint32_t slot = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t k = std::uint32_t(set.k);
  if (slot >= query_count * k) return;
  status[slot] = make_query_axis(set, queries[slot / k], int(slot % k), &float_axes[slot], &fixed_axes[slot]);
}

DeviceSetupResult device_query_setup(const OrientationSet& set, const std::vector<QueryPoseView>& queries) {
  using detail::check;
  using detail::DeviceBuffer;
  std::string why;
  if (!device_available(&why)) throw std::runtime_error("device_query_setup: no usable GPU: " + why);
  const detail::DeviceOrientationSet device_set(set);
  const std::size_t axes = queries.size() * std::size_t(set.k());
  DeviceBuffer<QueryPoseView> q;
  q.upload(queries);
  DeviceBuffer<DoubleAxis> fa(axes);
  DeviceBuffer<QuantizedAxis> qa(axes);
  DeviceBuffer<SetupStatus> st(axes);
  DeviceSetupResult out;
  if (axes > 0) {
    const unsigned blocks = unsigned((axes + 127) / 128);
    kdopcd_query_setup<<<blocks, 128>>>(device_set.view(), q.get(), std::uint32_t(queries.size()), fa.get(), qa.get(),
                                        st.get());
    check(cudaGetLastError(), "kdopcd_query_setup launch");
    check(cudaDeviceSynchronize(), "kdopcd_query_setup");
  }
  out.float_axes = fa.download(axes);
  out.fixed_axes = qa.download(axes);
  out.status = st.download(axes);
  return out;
}

}  // namespace kdopcd::cuda
