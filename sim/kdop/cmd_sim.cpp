// kdop sim FIRST SECOND (--poses FILE | --pose "qw qx qy qz tx ty tz") [options]: the SystemC
// cycle-accurate accelerator model (model/, docs/model.md).
#include "commands.hpp"

#if KDOPCD_WITH_MODEL
#include <fmt/format.h>

#include <chrono>

#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/fixed_precision.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd_model/model.hpp"
#include "query_report.hpp"
#if KDOPCD_WITH_RTL_TOP
#include "kdopcd/rtl_top_engine.hpp"
#endif

namespace kdopcd::cli {
namespace {

struct SimArgs {
  std::string first, second, poses_file, pose_text, pairs_path, json_path;
  int k = 24;
  std::string rule = "shallower";
  std::string bits = "18,18,18";
  bool compare = false;
  std::string engine = "model";
  bool stalls = false;
  std::uint64_t seed = 1;
  model::ModelParams p;
};

// The verilated top (rtl/kdopcd_top.sv, docs/accelerator.md) in place of the SystemC model: its
// counters in the model's result, so that both engines share the report. The top exists in one
// configuration; any option it cannot honour is an input error naming that option.
model::ModelResult simulate_rtl_top(const SimArgs& args, const DopTree& first, const DopTree& second,
                                    const Pose& pose) {
#if KDOPCD_WITH_RTL_TOP
  const model::ModelParams& p = args.p;
  const rtl::TopConfig cfg = rtl::top_config();
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("--engine rtl: the verilated top has " + what);
  };
  need(args.k == cfg.k, "k = " + std::to_string(cfg.k) + " (--k)");
  need(p.fixed.b == cfg.b && p.fixed.c == cfg.c && p.fixed.z == cfg.z,
       "b,c,z = " + std::to_string(cfg.b) + "," + std::to_string(cfg.c) + "," + std::to_string(cfg.z) + " (--bits)");
  need(p.vertex_bits == cfg.v && p.rotation_bits == cfg.m, "v = m = " + std::to_string(cfg.v));
  need(p.pipelines == 1, "one SAT pipeline (--pipelines 1)");
  need(p.bus_width == cfg.bus_width, "W = " + std::to_string(cfg.bus_width) + " (--bus-width)");
  need(p.burst_length == cfg.burst_max, "bursts of " + std::to_string(cfg.burst_max) + " beats (--burst)");
  need(p.max_outstanding == cfg.max_outstanding ||
           (cfg.alt_max_outstanding > 0 && p.max_outstanding == cfg.alt_max_outstanding),
       std::to_string(cfg.max_outstanding) +
           (cfg.alt_max_outstanding > 0 ? " or " + std::to_string(cfg.alt_max_outstanding) : std::string()) +
           " outstanding bursts (--outstanding)");
  need(p.triangle_latency == cfg.triangle_latency,
       "a " + std::to_string(cfg.triangle_latency) + "-cycle triangle unit (--tri-latency)");
  need(p.pipeline_latency == cfg.sat_latency, "a " + std::to_string(cfg.sat_latency) + "-cycle SAT pipeline (--latency)");
  need(p.stack_depth <= cfg.stack_depth, std::to_string(cfg.stack_depth) + " stack entries at most (--stack-depth)");
  need(p.beats_per_cycle == 1, "one memory beat per cycle at most (--beats-per-cycle 1)");
  need(p.trace_path.empty(), "no VCD trace (--trace is for --engine model)");
  rtl::TopParams t = rtl::top_params_like(p);
  t.stalls = args.stalls;
  t.seed = args.seed;
  const rtl::TopResult r = rtl::simulate_top(first, second, pose, t);
  model::ModelResult m;
  m.contacts = r.contacts;
  model::ModelStats& s = m.stats;
  const rtl::TopCounters& c = r.counters;
  s.cycles = c.cycles;
  s.pair_tests = c.pair_tests;
  s.axis_tests = c.axis_effective;
  s.axis_tests_issued = c.axis_issued;
  s.axis_tests_cancelled = c.axis_cancelled;
  s.axis_tests_continued = c.axis_continued;
  s.leaf_pairs = c.leaf_pairs;
  s.triangle_tests = c.tri_tests;
  s.contacts = c.contacts;
  s.max_stack_depth = std::uint32_t(c.max_stack);
  s.mem_beats = c.mem_beats;
  s.mem_beats_wasted = c.wasted_beats;
  s.stall_cycles = c.stall_cycles;
  s.pipeline_utilization = c.cycles ? double(c.axis_issued) / double(c.cycles) : 0.0;
  s.pipeline_latency = cfg.sat_latency;
  s.stack_overflow = r.stack_overflow;
  s.sim_seconds = r.sim_seconds;
  if (r.bus_error) throw std::runtime_error("--engine rtl: the top reported an AXI read error");
  return m;
#else
  (void)args, (void)first, (void)second, (void)pose;
  throw InputError("--engine rtl: the verilated top was not built (install verilator)");
#endif
}

void run_sim(SimArgs& args) {
  if (args.engine != "model" && args.engine != "rtl" && args.engine != "both")
    throw InputError("--engine must be model, rtl or both (got '" + args.engine + "')");
  std::vector<Pose> poses;
  if (!args.poses_file.empty()) poses = load_poses(args.poses_file);
  if (!args.pose_text.empty()) poses.push_back(parse_pose(args.pose_text, "--pose"));
  if (poses.empty()) throw InputError("give --poses FILE or --pose \"qw qx qy qz tx ty tz\"");
  model::ModelParams& p = args.p;
  p.rule = parse_descent_rule(args.rule);
  p.fixed = parse_fixed_params(args.bits);
  if (p.pipeline_latency == 0) p.pipeline_latency = model::rtl_pipeline_latency(p.fixed.b, p.fixed.c);

  const Mesh first = load_mesh(args.first);
  const Mesh second = load_mesh(args.second);
  const DopTree first_tree(first, args.k);
  const DopTree second_tree(second, args.k);
  const int n = p.axes <= 0 ? args.k : std::min(p.axes, args.k);
  fmt::print("first  {}: {} triangles, tree depth {}\n", args.first, first.triangle_count(), first_tree.max_depth());
  fmt::print("second {}: {} triangles, tree depth {}\n", args.second, second.triangle_count(), second_tree.max_depth());
  fmt::print("{}: k = {}, n = {}, rule = {}, b,c,z = {},{},{}, v = {}, P = {}, continue-axes = {}, stack = {}\n",
             args.engine == "model" ? "model" : (args.engine == "rtl" ? "rtl top" : "rtl top + model"), args.k, n,
             to_string(p.rule), p.fixed.b, p.fixed.c, p.fixed.z, p.vertex_bits, p.pipelines,
             p.continue_axes ? "on" : "off", p.stack_depth);
  fmt::print("       SAT latency {} cycles, triangle unit {} cycles, memory W = {} bit, latency {} cycles, burst {} "
             "beats, {} outstanding, {} beat(s) per {} cycle(s), clock {} MHz\n",
             p.pipeline_latency, p.triangle_latency, p.bus_width, p.mem_latency, p.burst_length, p.max_outstanding,
             p.beats_per_cycle,
             p.cycles_per_beat, p.clock_mhz);
  for (const std::string& w :
       fixed_precision(first_tree, second_tree, p.fixed, {p.vertex_bits, p.rotation_bits}).warnings)
    fmt::print(stderr, "warning: {}\n", w);

  std::vector<PoseOutcome> outcomes;
  nlohmann::json rows = nlohmann::json::array();
  print_table_header();
  bool all_equal = true, any_error = false;
  std::uint64_t total_cycles = 0;
  double total_sim = 0;
  const bool use_rtl = args.engine != "model";
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const model::ModelResult r = use_rtl ? simulate_rtl_top(args, first_tree, second_tree, poses[i])
                                         : model::simulate(first_tree, second_tree, poses[i], p);
    const model::ModelStats& s = r.stats;
    std::string engines_line;
    if (args.engine == "both") {
      // The verilated top and the SystemC model, query by query: contacts and every cycle.
      const model::ModelResult m = model::simulate(first_tree, second_tree, poses[i], p);
      const bool same = m.contacts == r.contacts && m.stats.cycles == s.cycles && m.stats.pair_tests == s.pair_tests &&
                        m.stats.axis_tests_issued == s.axis_tests_issued && m.stats.mem_beats == s.mem_beats &&
                        m.stats.stack_overflow == s.stack_overflow;
      all_equal &= same || (args.stalls && m.contacts == r.contacts);
      engines_line = fmt::format("      rtl top vs SystemC model: cycles {} / {}, contacts {} / {} ({})\n", s.cycles,
                                 m.stats.cycles, r.contacts.size(), m.contacts.size(),
                                 same ? "equal" : (args.stalls ? "cycles differ: random stalls" : "DIFFERENT"));
    }
    PoseOutcome outcome{QueryResult{r.contacts, r.traversal()}, s.sim_seconds + s.setup_seconds};
    print_table_row(i, outcome);
    const double accel_us = double(s.cycles) / p.clock_mhz;
    // The top's registers count all beats and the wasted ones, not nodes and triangles apart.
    const std::string beat_split = use_rtl ? fmt::format("wasted {}", s.mem_beats_wasted)
                                           : fmt::format("nodes {}, triangles {}, wasted {}", s.mem_beats_nodes,
                                                         s.mem_beats_triangles, s.mem_beats_wasted);
    fmt::print("      cycles {} = {:.1f} us at {} MHz; axis tests issued {} cancelled {} continued {}; memory beats {} "
               "({}); pipeline utilization {:.3f}; stalls {}; {:.2f} Mcycles/s simulated\n",
               s.cycles, accel_us, p.clock_mhz, s.axis_tests_issued, s.axis_tests_cancelled, s.axis_tests_continued,
               s.mem_beats, beat_split, s.pipeline_utilization, s.stall_cycles,
               s.sim_seconds > 0 ? double(s.cycles) / s.sim_seconds / 1e6 : 0.0);
    if (s.stack_overflow) {
      any_error = true;
      fmt::print("      ERROR: DOP-pair stack overflow (depth {}): the contact set is incomplete\n", p.stack_depth);
    }
    fmt::print("{}", engines_line);
    total_cycles += s.cycles;
    total_sim += s.sim_seconds;
    nlohmann::json row = stats_json(outcome.result.stats);
    row["index"] = i;
    row["cycles"] = s.cycles;
    row["accel_seconds"] = accel_us * 1e-6;
    row["axis_tests_issued"] = s.axis_tests_issued;
    row["axis_tests_cancelled"] = s.axis_tests_cancelled;
    row["axis_tests_continued"] = s.axis_tests_continued;
    row["mem_beats"] = s.mem_beats;
    row["mem_beats_nodes"] = s.mem_beats_nodes;
    row["mem_beats_triangles"] = s.mem_beats_triangles;
    row["mem_beats_wasted"] = s.mem_beats_wasted;
    row["mem_busy_cycles"] = s.mem_busy_cycles;
    row["stall_cycles"] = s.stall_cycles;
    row["pipeline_utilization"] = s.pipeline_utilization;
    row["stack_overflow"] = s.stack_overflow;
    row["sim_seconds"] = s.sim_seconds;
    row["setup_seconds"] = s.setup_seconds;
    if (args.compare) {
      TraversalOptions o;
      o.axes = p.axes;
      o.rule = p.rule;
      const auto t0 = std::chrono::steady_clock::now();
      const QueryResult ref = collide(first_tree, second_tree, poses[i], o, SatBackend::Fixed, p.fixed);
      const double ref_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const bool same_contacts = ref.contacts == r.contacts;
      const bool same_counts = ref.stats.pair_tests == s.pair_tests && ref.stats.axis_tests == s.axis_tests &&
                               ref.stats.triangle_tests == s.triangle_tests &&
                               ref.stats.max_stack_depth == s.max_stack_depth;
      all_equal &= same_contacts && (same_counts || p.continue_axes);
      fmt::print("      reference fixed: {} contacts ({}), pair tests {}, axis tests {} ({}), software {:.3f} ms\n",
                 ref.contacts.size(), same_contacts ? "equal" : "DIFFERENT", ref.stats.pair_tests, ref.stats.axis_tests,
                 same_counts ? "equal" : (p.continue_axes ? "differ: continued testing" : "DIFFERENT"), ref_s * 1e3);
      row["reference_seconds"] = ref_s;
      row["reference_equal"] = same_contacts && same_counts;
    }
    rows.push_back(row);
    outcomes.push_back(std::move(outcome));
  }
  fmt::print("simulated {} cycles in {:.3f} s: {:.2f} Mcycles/s\n", total_cycles, total_sim,
             total_sim > 0 ? double(total_cycles) / total_sim / 1e6 : 0.0);
  if (!args.pairs_path.empty()) write_pairs_file(args.pairs_path, outcomes);
  if (!args.json_path.empty()) {
    nlohmann::json report = {{"first", args.first}, {"second", args.second}, {"k", args.k}, {"axes", n},
                             {"rule", to_string(p.rule)}, {"bits", {p.fixed.b, p.fixed.c, p.fixed.z}},
                             {"pipelines", p.pipelines}, {"continue_axes", p.continue_axes},
                             {"stack_depth", p.stack_depth}, {"pipeline_latency", p.pipeline_latency},
                             {"triangle_latency", p.triangle_latency}, {"bus_width", p.bus_width},
                             {"mem_latency", p.mem_latency}, {"burst_length", p.burst_length}, {"max_outstanding", p.max_outstanding},
                             {"beats_per_cycle", p.beats_per_cycle}, {"cycles_per_beat", p.cycles_per_beat},
                             {"clock_mhz", p.clock_mhz}, {"poses", rows}};
    write_json_file(args.json_path, report);
  }
  if (any_error) throw std::runtime_error("stack overflow in the accelerator: raise --stack-depth");
  if (!all_equal) throw std::runtime_error(args.engine == "both" ? "the engines differ (or differ from the reference)"
                                                                 : "the accelerator differs from the reference");
}

void add_sim_command(CLI::App& app) {
  auto args = std::make_shared<SimArgs>();
  CLI::App* cmd =
      app.add_subcommand("sim", "cycle-accurate accelerator at given poses: SystemC model or verilated RTL top");
  cmd->add_option("FIRST", args->first, "first mesh (stays at the origin)")->required();
  cmd->add_option("SECOND", args->second, "second mesh, placed by each pose")->required();
  auto* poses = cmd->add_option("--poses", args->poses_file, "pose file: one 'qw qx qy qz tx ty tz' per line");
  auto* pose = cmd->add_option("--pose", args->pose_text, "one pose \"qw qx qy qz tx ty tz\"");
  poses->excludes(pose);
  model::ModelParams& p = args->p;
  cmd->add_option("--k", args->k, "k of the k-DOPs")->check(CLI::IsMember({6, 14, 18, 24, 26}))->capture_default_str();
  cmd->add_option("--axes", p.axes, "axes n tested per DOP pair (0 = all k)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--rule", args->rule, "descent rule: shallower, first, second")->capture_default_str();
  cmd->add_option("--bits", args->bits, "SAT fractional bits b,c,z (or one n)")->capture_default_str();
  cmd->add_option("--pipelines", p.pipelines, "SAT pipelines in parallel")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_flag("--continue-axes", p.continue_axes, "keep testing axes beyond n while the next pair loads (Fig. 7)");
  cmd->add_option("--stack-depth", p.stack_depth, "DOP-pair stack entries")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--latency", p.pipeline_latency, "SAT pipeline latency in cycles (0 = the RTL's formula)");
  cmd->add_option("--tri-latency", p.triangle_latency, "triangle unit latency")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--bus-width", p.bus_width, "memory bus width W in bits")->check(CLI::IsMember({32, 64, 128, 256, 512}))->capture_default_str();
  cmd->add_option("--mem-latency", p.mem_latency, "cycles per burst before its first beat")->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--burst", p.burst_length, "beats per AXI burst at most (bursts never cross 4 KiB)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--outstanding", p.max_outstanding, "AXI read bursts in flight at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--beats-per-cycle", p.beats_per_cycle, "memory beats per accelerator clock")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--cycles-per-beat", p.cycles_per_beat, "accelerator clocks per memory beat")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--clock-mhz", p.clock_mhz, "accelerator clock for times")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--trace", p.trace_path, "VCD of the top-level signals");
  cmd->add_option("--pairs", args->pairs_path, "write the contact pairs of every pose (kdop collide format)");
  cmd->add_option("--json", args->json_path, "write a JSON report to this file");
  cmd->add_flag("--compare", args->compare, "also run the reference (fixed backend) and compare contacts and counts");
  cmd->add_option("--engine", args->engine,
                  "model: the SystemC model; rtl: the verilated RTL top; both: the top, checked cycle for cycle "
                  "against the model")
      ->capture_default_str();
  cmd->add_flag("--stalls", args->stalls, "rtl: random stalls and back-pressure on every bus handshake");
  cmd->add_option("--seed", args->seed, "rtl: seed of the random stalls")->capture_default_str();
  cmd->callback([args] { run_sim(*args); });
}

const CommandRegistration registration(70, add_sim_command);
}  // namespace
}  // namespace kdopcd::cli

#else

#include <stdexcept>

namespace kdopcd::cli {
namespace {
void add_sim_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("sim", "cycle-accurate accelerator model (not built: SystemC was not found)");
  cmd->allow_extras();
  cmd->callback([] { throw std::runtime_error("kdop sim: the SystemC model was not built (install libsystemc-dev)"); });
}
const CommandRegistration registration(70, add_sim_command);
}  // namespace
}  // namespace kdopcd::cli

#endif
