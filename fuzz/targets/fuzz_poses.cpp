// libFuzzer target: pose files (kdopcd::parse_poses, the text of kdopcd::load_poses and
// kdopcd::PoseReader).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "kdopcd/error.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/scale_limits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const kdopcd::Pose& pose : kdopcd::parse_poses(text, "fuzz.poses")) {
      // A parsed pose has a unit quaternion and a translation within the scale limit.
      const kdopcd::Vec3& t = pose.translation;
      if (!kdopcd::within_scale(t.x()) || !kdopcd::within_scale(t.y()) || !kdopcd::within_scale(t.z()) ||
          !(std::abs(pose.rotation.norm() - 1) < 1e-9))
        std::abort();
    }
  } catch (const kdopcd::InputError&) {
  }
  return 0;
}
