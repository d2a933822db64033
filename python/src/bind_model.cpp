// The SystemC cycle-accurate model (model/, docs/model.md): kdop sim's queries and batches.
//
// One simulation per process at a time. SystemC has one simulation kernel per process, elaborated
// once: the model builds its clock and accelerator shell on the first query (with the first
// query's clock and trace) and every later query runs on them (accel.cpp, bench()), and it keeps the
// tree images in a process-wide cache keyed by the tree's address. None of that is thread-safe, so
//   * every call into the model holds one process-wide mutex (taken after the GIL is released, so
//     that a Python thread waiting for the model never blocks the one running it);
//   * every tree given to the model stays alive until the process ends, so that no later tree is
//     built at an address the image cache still holds an entry for (a new tree of the same size
//     there would get the old tree's image);
//   * the VCD trace is not offered: the model opens it on the first query of a process only.
#include "bindings.hpp"

#if KDOPCD_PYTHON_WITH_MODEL
#include <fmt/format.h>

#include <functional>
#include <map>
#include <mutex>

#include "kdopcd/error.hpp"
#include "kdopcd_model/model.hpp"

namespace kdopcd::python {
namespace {

std::mutex& model_mutex() {
  static std::mutex m;
  return m;
}

// Guarded by model_mutex().
std::vector<TreePtr>& trees_given_to_the_model() {
  static std::vector<TreePtr> trees;
  return trees;
}

void keep_alive(const TreePtr& tree) {
  auto& trees = trees_given_to_the_model();
  for (const TreePtr& t : trees)
    if (t == tree) return;
  trees.push_back(tree);
}

using Setter = std::function<void(model::ModelParams&, py::handle)>;

template <class T, class Field>
Setter field(Field model::ModelParams::*member) {
  return [member](model::ModelParams& p, py::handle v) { p.*member = v.cast<T>(); };
}

// The keyword arguments of sim(), each a ModelParams field (model.hpp documents them; kdop sim's
// options are the same with dashes).
const std::map<std::string, Setter>& setters() {
  static const std::map<std::string, Setter> s = {
      {"axes", field<int>(&model::ModelParams::axes)},
      {"rule", [](model::ModelParams& p, py::handle v) { p.rule = parse_descent_rule(v.cast<std::string>()); }},
      {"bits", [](model::ModelParams& p, py::handle v) { p.fixed = fixed_params_from(v.cast<std::vector<int>>()); }},
      {"vertex_bits", field<int>(&model::ModelParams::vertex_bits)},
      {"rotation_bits", field<int>(&model::ModelParams::rotation_bits)},
      {"stack_depth", field<int>(&model::ModelParams::stack_depth)},
      {"pipeline_latency", field<int>(&model::ModelParams::pipeline_latency)},
      {"triangle_latency", field<int>(&model::ModelParams::triangle_latency)},
      {"bus_width", field<int>(&model::ModelParams::bus_width)},
      {"mem_latency", field<int>(&model::ModelParams::mem_latency)},
      {"burst_length", field<int>(&model::ModelParams::burst_length)},
      {"max_outstanding", field<int>(&model::ModelParams::max_outstanding)},
      {"beats_per_cycle", field<int>(&model::ModelParams::beats_per_cycle)},
      {"cycles_per_beat", field<int>(&model::ModelParams::cycles_per_beat)},
      {"pipelines", field<int>(&model::ModelParams::pipelines)},
      {"continue_axes", field<bool>(&model::ModelParams::continue_axes)},
      {"pairs_in_flight", field<int>(&model::ModelParams::pairs_in_flight)},
      {"sat_units", field<int>(&model::ModelParams::sat_units)},
      {"sat_lanes", field<int>(&model::ModelParams::sat_lanes)},
      {"sat_contexts", field<int>(&model::ModelParams::sat_contexts)},
      {"tree_memory",
       [](model::ModelParams& p, py::handle v) { p.tree_memory = model::parse_tree_memory(v.cast<std::string>()); }},
      {"ram_latency", field<int>(&model::ModelParams::ram_latency)},
      {"node_cache_lines", field<int>(&model::ModelParams::node_cache_lines)},
      {"triangle_ii", field<int>(&model::ModelParams::triangle_ii)},
      {"triangle_queue", field<int>(&model::ModelParams::triangle_queue)},
      {"contact_queue", field<int>(&model::ModelParams::contact_queue)},
      {"engines", field<int>(&model::ModelParams::engines)},
      {"host_path", [](model::ModelParams& p, py::handle v) { p.host_path = model::parse_host_path(v.cast<std::string>()); }},
      {"host", [](model::ModelParams& p, py::handle v) { p.host = model::host_interface(v.cast<std::string>()); }},
      {"host_setup_ns", field<double>(&model::ModelParams::host_setup_ns)},
      {"descriptor_buffers", field<int>(&model::ModelParams::descriptor_buffers)},
      {"contact_capacity", field<std::uint32_t>(&model::ModelParams::contact_capacity)},
      {"clock_mhz", field<double>(&model::ModelParams::clock_mhz)},
  };
  return s;
}

model::ModelParams params_from(const std::string& arch, const py::kwargs& kwargs) {
  model::ModelParams p = model::parse_architecture(arch) == model::Architecture::V2 ? model::v2_params()
                                                                                     : model::paper_params();
  for (const auto& [key, value] : kwargs) {
    const std::string name = key.cast<std::string>();
    const auto it = setters().find(name);
    if (it == setters().end()) {
      std::string known;
      for (const auto& [k, s] : setters()) known += (known.empty() ? "" : ", ") + k;
      throw InputError(fmt::format("model: unknown parameter '{}' (known: {})", name, known));
    }
    try {
      it->second(p, value);
    } catch (const py::cast_error&) {
      throw InputError(fmt::format("model: parameter '{}' has the wrong type ({})", name,
                                   py::str(py::type::of(value)).cast<std::string>()));
    }
  }
  model::validate(p);
  return p;
}

py::dict model_stats(const model::ModelStats& s) {
  py::dict d;
  d["cycles"] = s.cycles;
  d["pair_tests"] = s.pair_tests;
  d["axis_tests"] = s.axis_tests;
  d["axis_tests_issued"] = s.axis_tests_issued;
  d["axis_tests_cancelled"] = s.axis_tests_cancelled;
  d["axis_tests_continued"] = s.axis_tests_continued;
  d["leaf_pairs"] = s.leaf_pairs;
  d["triangle_tests"] = s.triangle_tests;
  d["contacts"] = s.contacts;
  d["max_stack_depth"] = s.max_stack_depth;
  d["mem_beats"] = s.mem_beats;
  d["mem_beats_nodes"] = s.mem_beats_nodes;
  d["mem_beats_triangles"] = s.mem_beats_triangles;
  d["mem_beats_wasted"] = s.mem_beats_wasted;
  d["mem_busy_cycles"] = s.mem_busy_cycles;
  d["stall_cycles"] = s.stall_cycles;
  d["cache_hits"] = s.cache_hits;
  d["cache_misses"] = s.cache_misses;
  d["triangle_stall_cycles"] = s.triangle_stall_cycles;
  d["max_triangle_queue"] = s.max_triangle_queue;
  d["max_contact_queue"] = s.max_contact_queue;
  d["pipeline_utilization"] = s.pipeline_utilization;
  d["pipeline_latency"] = s.pipeline_latency;
  d["stack_overflow"] = s.stack_overflow;
  d["doorbell_cycle"] = s.doorbell_cycle;
  d["descriptor_cycle"] = s.descriptor_cycle;
  d["start_cycle"] = s.start_cycle;
  d["end_cycle"] = s.end_cycle;
  d["completion_cycle"] = s.completion_cycle;
  d["contact_overflow"] = s.contact_overflow;
  d["sim_seconds"] = s.sim_seconds;
  d["setup_seconds"] = s.setup_seconds;
  return d;
}

py::dict params_dict(const model::ModelParams& p) {
  py::dict d;
  d["arch"] = model::to_string(p.arch);
  d["axes"] = p.axes;
  d["rule"] = to_string(p.rule);
  d["bits"] = py::make_tuple(p.fixed.b, p.fixed.c, p.fixed.z);
  d["vertex_bits"] = p.vertex_bits, d["rotation_bits"] = p.rotation_bits, d["stack_depth"] = p.stack_depth;
  d["pipeline_latency"] = p.pipeline_latency, d["triangle_latency"] = p.triangle_latency;
  d["bus_width"] = p.bus_width, d["mem_latency"] = p.mem_latency, d["burst_length"] = p.burst_length;
  d["max_outstanding"] = p.max_outstanding, d["beats_per_cycle"] = p.beats_per_cycle;
  d["cycles_per_beat"] = p.cycles_per_beat, d["pipelines"] = p.pipelines, d["continue_axes"] = p.continue_axes;
  d["pairs_in_flight"] = p.pairs_in_flight, d["sat_units"] = p.sat_units, d["sat_lanes"] = p.sat_lanes;
  d["sat_contexts"] = p.sat_contexts, d["tree_memory"] = model::to_string(p.tree_memory);
  d["ram_latency"] = p.ram_latency, d["node_cache_lines"] = p.node_cache_lines, d["triangle_ii"] = p.triangle_ii;
  d["triangle_queue"] = p.triangle_queue, d["contact_queue"] = p.contact_queue, d["engines"] = p.engines;
  d["host_path"] = model::to_string(p.host_path), d["host"] = p.host.name, d["host_setup_ns"] = p.host_setup_ns;
  d["descriptor_buffers"] = p.descriptor_buffers, d["contact_capacity"] = p.contact_capacity;
  d["clock_mhz"] = p.clock_mhz;
  return d;
}

}  // namespace

void bind_model(py::module_& m) {
  m.attr("has_model") = true;
  m.def(
      "model_params", [](const std::string& arch, const py::kwargs& kwargs) { return params_dict(params_from(arch, kwargs)); },
      py::arg("arch") = "v2",
      "The model's parameters of an architecture ('v2' or 'paper') with the given changes, checked: a dict");
  m.def(
      "sim",
      [](const TreePtr& first, const TreePtr& second, const DoubleArray& poses_array, const std::string& arch,
         bool check_overflow, const py::kwargs& kwargs) {
        const model::ModelParams params = params_from(arch, kwargs);
        const std::vector<Pose> poses = poses_from_array(poses_array, "pose");
        if (first->tree.k() != second->tree.k())
          throw InputError(fmt::format("the trees must share k (got {} and {})", first->tree.k(), second->tree.k()));
        model::BatchResult batch;
        {
          py::gil_scoped_release release;
          const std::lock_guard lock(model_mutex());
          keep_alive(first);
          keep_alive(second);
          batch = model::simulate_batch(first->tree, second->tree, poses, params);
        }
        // As kdop sim: an overflow leaves a query's contact set incomplete, which is an error
        // unless the caller asked to see the incomplete results (their stats say which overflowed).
        for (std::size_t i = 0; check_overflow && i < batch.queries.size(); ++i) {
          const model::ModelStats& s = batch.queries[i].stats;
          if (s.stack_overflow)
            throw OverflowError(fmt::format("model: pose {}: DOP-pair {} overflow ({} entries): the contact set is "
                                            "incomplete (raise stack_depth)",
                                            i, params.arch == model::Architecture::V2 ? "pending set" : "stack",
                                            params.stack_depth));
          if (s.contact_overflow)
            throw OverflowError(fmt::format("model: pose {}: more contacts than the buffer holds ({}): raise "
                                            "contact_capacity", i, params.contact_capacity));
        }
        py::list queries;
        for (model::ModelResult& q : batch.queries)
          queries.append(py::make_tuple(contacts_to_array(std::move(q.contacts)), model_stats(q.stats)));
        py::dict d;
        d["queries"] = queries;
        d["cycles"] = batch.cycles;
        d["sim_seconds"] = batch.sim_seconds;
        d["params"] = params_dict(params);
        return d;
      },
      py::arg("first"), py::arg("second"), py::arg("poses"), py::kw_only(), py::arg("arch") = "v2",
      py::arg("check_overflow") = true,
      "kdop sim: the SystemC model on one pose (7,) or a batch (n, 7) (v2 runs a batch on `engines` engines at once). "
      "Keyword arguments set model parameters (model_params() lists them). Returns queries: a list of (contacts, "
      "counters dict with 'cycles'), cycles: the whole batch's, sim_seconds, params. One simulation per process at a "
      "time: concurrent calls wait for each other. An overflow (stack_overflow, contact_overflow) raises "
      "kdopcd.CapacityError unless check_overflow=False.");
}

}  // namespace kdopcd::python

#else

namespace kdopcd::python {
void bind_model(py::module_& m) { m.attr("has_model") = false; }
}  // namespace kdopcd::python

#endif
