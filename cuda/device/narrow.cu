// GPU narrow phase: narrow_pipeline.hpp's run_narrow with the device executor, whose kernels run
// the same KDOPCD_HD steps (narrow.hpp) as the host backend. Built with --fmad=false: the float
// SAT then rounds exactly like the host (g++ does not contract a*b+c either), so device and
// reference verdicts are bit-identical.
#include <cuda_runtime.h>

#include <string>

#include "device_executor.cuh"
#include "kdopcd_cuda/multibody.hpp"
#include "kdopcd_cuda/narrow_pipeline.hpp"

namespace kdopcd::cuda {

using ExpandFloat = ExpandStep<SatKind::Float>;
using ExpandFixed = ExpandStep<SatKind::Fixed>;
using UnitBinaryFloat = UnitStep<TraversalKind::BinaryStack, SatKind::Float, 1>;
using UnitBinaryFixed = UnitStep<TraversalKind::BinaryStack, SatKind::Fixed, 1>;
using UnitExplicitFloat = UnitStep<TraversalKind::ExplicitStack, SatKind::Float, 1>;
using UnitExplicitFixed = UnitStep<TraversalKind::ExplicitStack, SatKind::Fixed, 1>;
using UnitDynamicFloat = UnitStep<TraversalKind::DynamicStack, SatKind::Float, 1>;
using UnitDynamicFixed = UnitStep<TraversalKind::DynamicStack, SatKind::Fixed, 1>;
using UnitPredictableFloat = UnitStep<TraversalKind::PredictableStack, SatKind::Float, 1>;
using UnitPredictableFixed = UnitStep<TraversalKind::PredictableStack, SatKind::Fixed, 1>;
using UnitLeafFloat = UnitStep<TraversalKind::Leaf, SatKind::Float, 1>;
using UnitLeafFixed = UnitStep<TraversalKind::Leaf, SatKind::Fixed, 1>;
using UnitStacklessFloat = UnitStep<TraversalKind::Stackless, SatKind::Float, 1>;
using UnitStacklessFixed = UnitStep<TraversalKind::Stackless, SatKind::Fixed, 1>;
using UnitPostIndexedFloat = UnitStep<TraversalKind::PostIndexed, SatKind::Float, 1>;
using UnitPostIndexedFixed = UnitStep<TraversalKind::PostIndexed, SatKind::Fixed, 1>;

KDOPCD_EVEN_KERNEL(kdopcd_front_roots, RootStep)
KDOPCD_EVEN_KERNEL(kdopcd_front_expand_float, ExpandFloat)
KDOPCD_EVEN_KERNEL(kdopcd_front_expand_fixed, ExpandFixed)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_binary_stack_float, UnitBinaryFloat)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_binary_stack_fixed, UnitBinaryFixed)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_explicit_stack_float, UnitExplicitFloat)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_explicit_stack_fixed, UnitExplicitFixed)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_dynamic_stack_float, UnitDynamicFloat)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_dynamic_stack_fixed, UnitDynamicFixed)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_predictable_stack_float, UnitPredictableFloat)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_predictable_stack_fixed, UnitPredictableFixed)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_leaf_float, UnitLeafFloat)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_leaf_fixed, UnitLeafFixed)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_stackless_float, UnitStacklessFloat)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_stackless_fixed, UnitStacklessFixed)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_post_indexed_float, UnitPostIndexedFloat)
KDOPCD_UNEVEN_KERNEL(kdopcd_units_post_indexed_fixed, UnitPostIndexedFixed)
KDOPCD_EVEN_KERNEL(kdopcd_triangles, TriangleStep)
KDOPCD_EVEN_KERNEL(kdopcd_axis_setup, SetupStep)

bool device_available(std::string* reason) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    if (reason) *reason = std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(e) + " (error " + std::to_string(int(e)) + ")";
    cudaGetLastError();  // clear the sticky-free error state
    return false;
  }
  if (count == 0) {
    if (reason) *reason = "cudaGetDeviceCount reports no device";
    return false;
  }
  return true;
}

struct DeviceNarrow::Impl {
  DeviceExecutor exec;
  NarrowEngine<DeviceExecutor> engine{exec};
};

DeviceNarrow::DeviceNarrow() : impl_(std::make_unique<Impl>()) {}
DeviceNarrow::~DeviceNarrow() = default;

NarrowOutput DeviceNarrow::run(const NarrowScene& scene, const NarrowQuery& query, std::uint64_t initial_capacity) {
  return impl_->engine.run(scene, query, initial_capacity);
}

}  // namespace kdopcd::cuda
