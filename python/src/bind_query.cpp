// Queries of the reference: collide with every SAT backend, batches of poses, brute force, poses
// (files, pose classes, centred frames). The GIL is released while the library works, so queries
// on several Python threads overlap.
#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <optional>

#include "bindings.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/sat_fixed.hpp"

namespace kdopcd::python {
namespace {

// A query's trees and options, checked once: calling it costs only the pose's conversion and the
// result's (docs/python.md measures what that adds to the C++ call).
class Query {
 public:
  Query(TreePtr first, TreePtr second, const std::string& backend, int axes, const std::string& rule,
        const std::optional<std::vector<int>>& bits, const std::optional<std::vector<int>>& tri_bits, int threads,
        std::size_t stack_capacity, bool leaf_planes, bool wide)
      : first_(std::move(first)), second_(std::move(second)) {
    if (first_->tree.k() != second_->tree.k())
      throw InputError(fmt::format("the trees must share k (got {} and {})", first_->tree.k(), second_->tree.k()));
    backend_ = parse_sat_backend(backend);
    // As kdop collide: the fixed-point widths belong to the fixed backend, which would otherwise ignore them.
    if (backend_ != SatBackend::Fixed && (bits || tri_bits))
      throw InputError(fmt::format("{} sets the fixed-point arithmetic: it needs backend='fixed' (got '{}')",
                                   bits ? "bits" : "tri_bits", to_string(backend_)));
    if (axes < 0 || axes > 26) throw InputError(fmt::format("axes = {} outside 0 .. 26 (0 = all k)", axes));
    if (threads < 0) throw InputError(fmt::format("threads = {} is negative (0 = every core)", threads));
    if (threads != 1 && stack_capacity != 0)
      throw InputError("stack_capacity bounds the sequential traversal: it needs threads=1");
    options_.axes = axes;
    options_.rule = descent_rule_from(rule);
    options_.threads = threads;
    options_.stack_capacity = stack_capacity;
    options_.leaf_planes = leaf_planes;
    options_.wide = wide;
    if (bits) fixed_ = fixed_params_from(*bits);
    if (tri_bits) tri_ = triangle_params_from(*tri_bits);
  }

  QueryResult run(const Pose& pose) const {
    return collide(first_->tree, second_->tree, pose, options_, backend_, fixed_, tri_);
  }

  py::tuple call(py::handle pose_object) const {
    const Pose pose = pose_from_object(pose_object, "pose");
    QueryResult r;
    {
      py::gil_scoped_release release;
      r = run(pose);
    }
    return py::make_tuple(contacts_to_array(std::move(r.contacts)), stats_to_dict(r.stats));
  }

  // Every pose, on all cores or one after the other (one query per pose; each query keeps its own
  // `threads`). Python is entered once for all of them.
  py::list batch(const DoubleArray& poses_array, bool parallel) const {
    const std::vector<Pose> poses = poses_from_array(poses_array, "pose");
    std::vector<QueryResult> results(poses.size());
    {
      py::gil_scoped_release release;
      if (parallel)
        tbb::parallel_for(std::size_t(0), poses.size(), [&](std::size_t i) { results[i] = run(poses[i]); });
      else
        for (std::size_t i = 0; i < poses.size(); ++i) results[i] = run(poses[i]);
    }
    py::list out;
    for (QueryResult& r : results) out.append(py::make_tuple(contacts_to_array(std::move(r.contacts)), stats_to_dict(r.stats)));
    return out;
  }

  // The C++ call alone, timed in C++: what a C++ program pays per query, for comparison with the
  // call from Python (docs/python.md, "Overhead"). Seconds of each of `repeats` calls.
  py::array_t<double> time_cpp(const DoubleArray& pose_array, int repeats) const {
    if (repeats < 1) throw InputError("repeats must be at least 1");
    const Pose pose = pose_from_array(pose_array, "pose");
    py::array_t<double> seconds(repeats);
    double* out = seconds.mutable_data();
    py::gil_scoped_release release;
    for (int i = 0; i < repeats; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const QueryResult r = run(pose);
      out[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r.stats.contacts != r.contacts.size()) throw std::logic_error("collide: contacts and their count differ");
    }
    return seconds;
  }

  py::dict describe() const {
    py::dict d;
    d["backend"] = to_string(backend_);
    d["axes"] = options_.axes;
    d["rule"] = to_string(options_.rule);
    d["bits"] = py::make_tuple(fixed_.b, fixed_.c, fixed_.z);
    d["tri_bits"] = py::make_tuple(tri_.v, tri_.m);
    d["threads"] = options_.threads;
    d["stack_capacity"] = options_.stack_capacity;
    d["leaf_planes"] = options_.leaf_planes;
    d["wide"] = options_.wide;
    return d;
  }

 private:
  TreePtr first_, second_;
  TraversalOptions options_;
  SatBackend backend_ = SatBackend::Float;
  FixedParams fixed_{};
  TriangleFixedParams tri_{};
};

const char* const kQueryDoc =
    "backend: 'float', 'exact' or 'fixed' (bit-accurate with the model, the RTL and the GPU; bits=(b, c, z) and "
    "tri_bits=(v, m) set its widths); axes: tested per DOP pair (0 = all k); rule: 'shallower', 'first', 'second' "
    "or 'larger'; threads: of one query (1 = sequential, 0 = every core); stack_capacity: 0 = unbounded (else "
    "kdopcd.CapacityError when exceeded); leaf_planes: the float backend's leaf-plane axis (TraversalOptions::"
    "leaf_planes; False to compare counters with the model, the RTL or the GPU); wide: the float backend's wide "
    "descent with rule 'larger' on one thread (TraversalOptions::wide; the same contacts, other counters; False "
    "descends the binary tree, as the parallel traversal, the model and the GPU do).";

// A Query from collide()'s keyword arguments (the names and defaults of Query's constructor).
Query query_from_kwargs(TreePtr first, TreePtr second, const py::kwargs& kwargs, const char* function) {
  std::string backend = "float", rule = "shallower";
  int axes = 0, threads = 1;
  std::size_t stack_capacity = 0;
  bool leaf_planes = true, wide = true;
  std::optional<std::vector<int>> bits, tri_bits;
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::reinterpret_borrow<py::str>(key);
    try {
      if (name == "backend") backend = value.cast<std::string>();
      else if (name == "axes") axes = value.cast<int>();
      else if (name == "rule") rule = value.cast<std::string>();
      else if (name == "bits") bits = value.cast<std::optional<std::vector<int>>>();
      else if (name == "tri_bits") tri_bits = value.cast<std::optional<std::vector<int>>>();
      else if (name == "threads") threads = value.cast<int>();
      else if (name == "stack_capacity") stack_capacity = value.cast<std::size_t>();
      else if (name == "leaf_planes") leaf_planes = value.cast<bool>();
      else if (name == "wide") wide = value.cast<bool>();
      else throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" + name + "'");
    } catch (const py::cast_error&) {
      throw py::type_error(std::string(function) + "(): " + name + " has the wrong type (" +
                           py::str(py::type::of(value)).cast<std::string>() + ")");
    }
  }
  return Query(std::move(first), std::move(second), backend, axes, rule, bits, tri_bits, threads, stack_capacity,
               leaf_planes, wide);
}

#define KDOPCD_QUERY_ARGS                                                                                            \
  py::arg("backend") = "float", py::arg("axes") = 0, py::arg("rule") = "shallower", py::arg("bits") = py::none(),  \
      py::arg("tri_bits") = py::none(), py::arg("threads") = 1, py::arg("stack_capacity") = 0,                    \
      py::arg("leaf_planes") = true, py::arg("wide") = true

}  // namespace

void bind_query(py::module_& m) {
  py::class_<Query>(m, "Query", (std::string("A collision query between two trees with fixed options; call it with a pose. ") + kQueryDoc).c_str())
      .def(py::init<TreePtr, TreePtr, const std::string&, int, const std::string&, const std::optional<std::vector<int>>&,
                    const std::optional<std::vector<int>>&, int, std::size_t, bool, bool>(),
           py::arg("first"), py::arg("second"), py::kw_only(), KDOPCD_QUERY_ARGS)
      .def("__call__", &Query::call, py::arg("pose"),
           "(contacts (n, 2) uint32 sorted, stats dict) of the second object placed by pose (qw qx qy qz tx ty tz)")
      .def("batch", &Query::batch, py::arg("poses"), py::arg("parallel") = true,
           "a list of (contacts, stats), one per row of an (n, 7) array; the poses on all cores, or in order on "
           "this thread with parallel=False")
      .def("time_cpp", &Query::time_cpp, py::arg("pose"), py::arg("repeats") = 100,
           "seconds of each of `repeats` C++ calls of the query, timed in C++ without Python in between")
      .def_property_readonly("options", &Query::describe);

  // collide() reads its keyword arguments itself: pybind11's matching of named arguments cost more
  // than the rest of the call (docs/python.md, "Overhead"), and collide is the call made most.
  m.def(
      "collide",
      [](py::args args, const py::kwargs& kwargs) {
        if (args.size() != 3)
          throw py::type_error("collide() takes 3 positional arguments (first, second, pose), " +
                               std::to_string(args.size()) + " given");
        return query_from_kwargs(args[0].cast<TreePtr>(), args[1].cast<TreePtr>(), kwargs, "collide").call(args[2]);
      },
      (std::string("collide(first, second, pose, *, backend='float', axes=0, rule='shallower', bits=None, "
                   "tri_bits=None, threads=1, stack_capacity=0, leaf_planes=True, wide=True)\n\n"
                   "kdopcd::collide: (contacts (n, 2) uint32, stats dict). ") +
       kQueryDoc)
          .c_str());
  m.def(
      "collide_batch",
      [](TreePtr first, TreePtr second, const DoubleArray& poses, const std::string& backend, int axes,
         const std::string& rule, const std::optional<std::vector<int>>& bits,
         const std::optional<std::vector<int>>& tri_bits, int threads, std::size_t stack_capacity, bool leaf_planes,
         bool wide) {
        return Query(std::move(first), std::move(second), backend, axes, rule, bits, tri_bits, threads, stack_capacity,
                     leaf_planes, wide)
            .batch(poses, true);
      },
      py::arg("first"), py::arg("second"), py::arg("poses"), py::kw_only(), KDOPCD_QUERY_ARGS,
      "collide for every row of an (n, 7) pose array, poses in parallel: a list of (contacts, stats)");

  m.def(
      "brute_force_contacts",
      [](const Mesh& first, const Mesh& second, const DoubleArray& pose_array) {
        const Pose pose = pose_from_array(pose_array, "pose");
        std::vector<ContactPair> contacts;
        {
          py::gil_scoped_release release;
          contacts = brute_force_contacts(first, second, pose);
        }
        return contacts_to_array(std::move(contacts));
      },
      py::arg("first"), py::arg("second"), py::arg("pose"),
      "Every triangle pair with the exact test: the contacts every backend is held to, (n, 2) uint32 sorted");

  m.def(
      "place_vertices",
      [](const Mesh& mesh, const DoubleArray& pose_array) {
        const std::vector<Vec3> placed = place_vertices(mesh, pose_from_array(pose_array, "pose"));
        py::array_t<double> a({py::ssize_t(placed.size()), py::ssize_t(3)});
        std::copy(placed.front().data(), placed.front().data() + 3 * placed.size(), a.mutable_data());
        return a;
      },
      py::arg("mesh"), py::arg("pose"), "The mesh's vertices placed by the pose, rounded as every exact test rounds them");

  m.def(
      "normalize_pose", [](const DoubleArray& pose) { return pose_to_array(pose_from_array(pose, "pose")); },
      py::arg("pose"), "The pose as the library takes it (quaternion normalized); ValueError for a bad pose");
  m.def(
      "parse_poses", [](const std::string& text, const std::string& name) { return poses_to_array(parse_poses(text, name)); },
      py::arg("text"), py::arg("name") = "poses", "A pose file's text as an (n, 7) array (pose.hpp)");
  m.def(
      "load_poses", [](const std::string& path) { return poses_to_array(load_poses(path)); }, py::arg("path"),
      "A pose file as an (n, 7) array: one 'qw qx qy qz tx ty tz' per line, '#' comments");

  m.def(
      "pose_classes",
      [](const Tree& first, const Tree& second, double angle, const std::vector<double>& axis,
         const std::vector<double>& direction) {
        if (axis.size() != 3 || direction.size() != 3) throw InputError("axis and direction are 3 numbers each");
        const Vec3 a(axis[0], axis[1], axis[2]), d(direction[0], direction[1], direction[2]);
        if (!(a.norm() > 0) || !(d.norm() > 0) || !std::isfinite(angle))
          throw InputError("axis and direction must be non-zero and the angle finite");
        std::array<ClassifiedPose, 4> poses;
        {
          py::gil_scoped_release release;
          poses = make_pose_classes(first.tree, second.tree, Eigen::Quaterniond(Eigen::AngleAxisd(angle, a.normalized())), d);
        }
        py::dict out;
        for (const ClassifiedPose& p : poses) out[to_string(p.kind)] = pose_to_array(p.pose);
        return out;
      },
      py::arg("first"), py::arg("second"), py::arg("angle") = 0.6, py::arg("axis") = std::vector<double>{1, 1, 0},
      py::arg("direction") = std::vector<double>{1, 0.5, 0.25},
      "One pose per test class (Damkjær 2007), as kdop poses finds them: a dict 'intersecting', 'close-proximity', "
      "'small-proximity', 'separated' -> pose");

  m.def(
      "scene_scale", [](const Tree& first, const Tree& second) { return scene_scale(first.tree, second.tree); },
      py::arg("first"), py::arg("second"), "The fixed-point path's scene scale s of two trees");
  m.def(
      "centred_pose",
      [](const Tree& first, const Tree& second, const DoubleArray& pose) {
        return pose_to_array(centred_pose(first.tree, second.tree, pose_from_array(pose, "pose")));
      },
      py::arg("first"), py::arg("second"), py::arg("pose"), "The pose in the trees' centred frames (docs/fixed-point.md §2)");
}

}  // namespace kdopcd::python
