#pragma once
// The query set-up (kdopcd/query_setup.hpp) run on the GPU: make_query_axis, the host's per-axis
// core, for every axis of many queries, one thread per axis. Kernels of the multibody engine call
// the same function on an OrientationView in device memory (cuda/device/device_orientations.cuh).
#include <vector>

#include "kdopcd/orientations.hpp"
#include "kdopcd/query_setup.hpp"

namespace kdopcd::cuda {

struct DeviceSetupResult {
  // Query-major: axis i of query q at q * k + i.
  std::vector<DoubleAxis> float_axes;
  std::vector<QuantizedAxis> fixed_axes;
  std::vector<SetupStatus> status;  // per axis: make_query_axis's
};

// Every axis of every query of `queries` (QueryPoseView: make_query_pose_view) on the device.
// Throws std::runtime_error without a usable GPU (device_available) or on a CUDA error.
DeviceSetupResult device_query_setup(const OrientationSet& set, const std::vector<QueryPoseView>& queries);

}  // namespace kdopcd::cuda
