// The multibody engine (cuda/, docs/cuda.md): a scene of rigid objects, a broad phase and the
// narrow phase of every candidate pair, on the GPU or on CPU threads (the same traversal code).
#include "bindings.hpp"

#if KDOPCD_PYTHON_WITH_MULTIBODY
#include <mutex>

#include "kdopcd/error.hpp"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::python {
namespace {

// A world runs one query at a time (it keeps the engines' resident state): its own mutex, taken
// with the GIL released, lets Python threads share one.
struct World {
  std::unique_ptr<cuda::MultibodyWorld> world;
  std::mutex mutex;
};

py::dict run_world(World& w, const std::string& backend, const std::optional<std::string>& broad,
                   const std::string& traversal, int axes, const std::string& rule, const std::string& sat,
                   const std::vector<int>& bits, int threads, std::uint64_t capacity, std::optional<std::uint64_t> split) {
  cuda::MultibodyOptions o;
  o.backend = cuda::parse_backend(backend);
  if (broad) o.broad = cuda::parse_broad_phase(*broad);
  o.traversal = cuda::parse_traversal(traversal);
  o.axes = axes;
  o.rule = parse_descent_rule(rule);
  o.sat = parse_sat_backend(sat);
  if (o.sat == SatBackend::Exact) throw InputError("sat: float or fixed (exact is the reference's alone)");
  o.fixed = fixed_params_from(bits);
  o.threads = threads;
  o.initial_capacity = capacity;
  o.split = split;
  cuda::MultibodyResult r;
  {
    py::gil_scoped_release release;
    const std::lock_guard lock(w.mutex);
    r = w.world->run(o);
  }
  py::array_t<std::uint32_t> broad_pairs({py::ssize_t(r.broad_pairs.size()), py::ssize_t(2)});
  for (std::size_t i = 0; i < r.broad_pairs.size(); ++i) {
    broad_pairs.mutable_at(py::ssize_t(i), 0) = r.broad_pairs[i].first;
    broad_pairs.mutable_at(py::ssize_t(i), 1) = r.broad_pairs[i].second;
  }
  py::list pairs;
  for (cuda::PairResult& p : r.pairs)
    pairs.append(py::make_tuple(p.first_object, p.second_object, contacts_to_array(std::move(p.contacts)),
                                stats_to_dict(p.stats)));
  py::dict times;
  times["boxes"] = r.times.boxes, times["broad"] = r.times.broad, times["setup"] = r.times.setup;
  times["narrow"] = r.times.narrow, times["exact"] = r.times.exact, times["total"] = r.times.total;
  py::dict d;
  d["broad_pairs"] = broad_pairs;
  d["pairs"] = pairs;
  d["broad_phase"] = cuda::to_string(r.broad_used);
  d["candidates"] = r.candidates;
  d["contacts"] = r.contacts;
  d["pair_tests"] = r.pair_tests;
  d["launches"] = r.launches;
  d["exact_fallbacks"] = r.exact_fallbacks;
  d["seconds"] = times;
  return d;
}

}  // namespace

void bind_multibody(py::module_& m) {
  m.attr("has_multibody") = true;
  py::class_<World>(m, "MultibodyWorld",
                    "Meshes and trees of a scene, built once and resident across runs; poses may change between runs")
      .def(py::init([](const std::string& scene, int k) {
             py::gil_scoped_release release;
             auto w = std::make_unique<World>();
             w->world = std::make_unique<cuda::MultibodyWorld>(cuda::load_scene(scene), k);
             return w;
           }),
           py::arg("scene"), py::arg("k") = 24, "From a scene file (kdop multibody's JSON)")
      .def(py::init([](const std::vector<std::shared_ptr<Mesh>>& meshes, const std::vector<std::uint32_t>& mesh_of,
                       const DoubleArray& poses, int k) {
             std::vector<Mesh> copies;
             for (const auto& mesh : meshes) copies.push_back(*mesh);
             std::vector<Pose> placed = poses_from_array(poses, "pose");
             py::gil_scoped_release release;
             auto w = std::make_unique<World>();
             w->world = std::make_unique<cuda::MultibodyWorld>(std::move(copies), mesh_of, std::move(placed), k);
             return w;
           }),
           py::arg("meshes"), py::arg("mesh_of"), py::arg("poses"), py::arg("k") = 24,
           "Object i is meshes[mesh_of[i]] placed in the world by poses[i] (an (n, 7) array)")
      .def_property_readonly("object_count", [](const World& w) { return w.world->object_count(); })
      .def(
          "pose",
          [](const World& w, std::size_t i) {
            if (i >= w.world->object_count())
              throw InputError("pose: object " + std::to_string(i) + " of " + std::to_string(w.world->object_count()));
            return pose_to_array(w.world->pose(i));
          },
          py::arg("object"), "object i's world placement (qw qx qy qz tx ty tz)")
      .def(
          "set_poses",
          [](World& w, const DoubleArray& poses) {
            std::vector<Pose> placed = poses_from_array(poses, "pose");
            if (placed.size() != w.world->object_count())
              throw InputError("set_poses: one pose per object (" + std::to_string(w.world->object_count()) + "), got " +
                               std::to_string(placed.size()));
            const std::lock_guard lock(w.mutex);
            w.world->set_poses(std::move(placed));
          },
          py::arg("poses"))
      .def("run", &run_world, py::kw_only(), py::arg("backend") = "host", py::arg("broad") = py::none(),
           py::arg("traversal") = "binary", py::arg("axes") = 0, py::arg("rule") = "shallower", py::arg("sat") = "float",
           py::arg("bits") = std::vector<int>{18, 18, 18}, py::arg("threads") = 0, py::arg("capacity") = 0,
           py::arg("split") = py::none(),
           "kdop multibody: broad_pairs (m, 2), pairs: a list of (first object, second object, contacts, stats), "
           "totals and seconds. backend 'host' (CPU threads) or 'cuda' (a GPU)");
  m.def(
      "relative_pose",
      [](const DoubleArray& a, const DoubleArray& b) {
        return pose_to_array(cuda::relative_pose(pose_from_array(a, "pose a"), pose_from_array(b, "pose b")));
      },
      py::arg("a"), py::arg("b"), "The pose of object b in object a's frame, as collide(tree_a, tree_b, pose) takes it");
}

}  // namespace kdopcd::python

#else

namespace kdopcd::python {
void bind_multibody(py::module_& m) { m.attr("has_multibody") = false; }
}  // namespace kdopcd::python

#endif
