// libFuzzer target: kdopcd::load_mesh on one format (KDOPCD_FUZZ_EXT: ".off", ".obj", ".stl" or
// ".ply"; one executable per format, each with its own corpus). A mesh that loads is also given a
// DOP-tree when it is small, so "loads" implies "usable" (no NaN, no index out of range).
#include <cstdint>
#include <cstdlib>

#include "fuzz_common.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/scale_limits.hpp"

#ifndef KDOPCD_FUZZ_EXT
#error "define KDOPCD_FUZZ_EXT (\".off\", \".obj\", \".stl\" or \".ply\")"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = kdopcd::fuzz::scratch_path(KDOPCD_FUZZ_EXT);
  kdopcd::fuzz::write_scratch(path, data, size);
  try {
    const kdopcd::Mesh mesh = kdopcd::load_mesh(path);
    for (const kdopcd::Vec3& v : mesh.vertices)  // a loaded mesh lies within the scale limit
      if (!kdopcd::within_scale(v.x()) || !kdopcd::within_scale(v.y()) || !kdopcd::within_scale(v.z())) std::abort();
    if (mesh.triangle_count() <= 256) {
      const kdopcd::DopTree tree(mesh, 6);
      (void)tree.max_depth();
    }
  } catch (const kdopcd::InputError&) {
  }
  return 0;
}
