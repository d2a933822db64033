// libFuzzer target: multibody scene files (kdopcd::cuda::parse_scene, the text of load_scene).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "kdopcd/error.hpp"
#include "kdopcd/scale_limits.hpp"
#include "kdopcd_cuda/multibody.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const kdopcd::cuda::Scene scene = kdopcd::cuda::parse_scene(text, "/fuzz/scene.json");
    for (const auto& o : scene.objects) {
      // Every object has a mesh path, a translation within the scale limit and a unit quaternion.
      const kdopcd::Vec3& t = o.pose.translation;
      if (o.mesh.empty() || !kdopcd::within_scale(t.x()) || !kdopcd::within_scale(t.y()) ||
          !kdopcd::within_scale(t.z()) || !(std::abs(o.pose.rotation.norm() - 1) < 1e-9))
        std::abort();
    }
  } catch (const kdopcd::InputError&) {
  }
  return 0;
}
