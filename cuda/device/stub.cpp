// The GPU entry points of a build without CUDA: no device, and an error if called anyway.
#include <stdexcept>

#include "kdopcd_cuda/ccd_filter.hpp"
#include "kdopcd_cuda/device_setup.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda {

bool device_available(std::string* reason) {
  if (reason) *reason = "this kdop was built without CUDA (nvcc not found at configure time)";
  return false;
}

struct DeviceNarrow::Impl {};
DeviceNarrow::DeviceNarrow() = default;
DeviceNarrow::~DeviceNarrow() = default;
NarrowOutput DeviceNarrow::run(const NarrowScene&, const NarrowQuery&, std::uint64_t) {
  throw std::runtime_error("DeviceNarrow: built without CUDA");
}

std::vector<ObjectPair> device_grid_pairs(const std::vector<Aabb>&, const GridSpec&) {
  throw std::runtime_error("device_grid_pairs: built without CUDA");
}

DeviceSetupResult device_query_setup(const OrientationSet&, const std::vector<QueryPoseView>&) {
  throw std::runtime_error("device_query_setup: built without CUDA");
}

void device_elementary_filter(std::span<const ccd::ElementaryKind>, std::span<const ccd::ElementaryPoints>,
                              std::span<double>) {
  throw std::runtime_error("device_elementary_filter: built without CUDA");
}

}  // namespace kdopcd::cuda
