// libFuzzer target: multibody scene files (kdopcd::cuda::parse_scene, the text of load_scene).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "kdopcd/error.hpp"
#include "kdopcd_cuda/multibody.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const kdopcd::cuda::Scene scene = kdopcd::cuda::parse_scene(text, "/fuzz/scene.json");
    for (const auto& o : scene.objects)
      if (o.mesh.empty() || !o.pose.translation.allFinite() || !(std::abs(o.pose.rotation.norm() - 1) < 1e-9))
        std::abort();
  } catch (const kdopcd::InputError&) {
  }
  return 0;
}
