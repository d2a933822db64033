// libFuzzer target: pose files (kdopcd::parse_poses, the text of kdopcd::load_poses).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "kdopcd/error.hpp"
#include "kdopcd/pose.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const kdopcd::Pose& pose : kdopcd::parse_poses(text, "fuzz.poses")) {
      // A parsed pose is finite with a unit quaternion.
      if (!pose.translation.allFinite() || !(std::abs(pose.rotation.norm() - 1) < 1e-9)) std::abort();
    }
  } catch (const kdopcd::InputError&) {
  }
  return 0;
}
