// kdop sim FIRST SECOND (--poses FILE | --pose "qw qx qy qz tx ty tz") [options]: the SystemC
// cycle-accurate accelerator model (model/, docs/model.md).
#include "commands.hpp"

#if KDOPCD_WITH_MODEL
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <optional>

#include "cli_support.hpp"
#include "kdopcd/collide.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/fixed_precision.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/library_output.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd_model/counter_stats.hpp"
#include "kdopcd_model/model.hpp"
#include "kdopcd_model/resources.hpp"
#include "kdopcd/tree_image.hpp"
#include "query_report.hpp"
#if KDOPCD_WITH_RTL_TOP
#include "kdopcd/rtl_top_engine.hpp"
#endif
#if KDOPCD_WITH_RTL_V2
#include "kdopcd/rtl_v2_top_engine.hpp"
#endif
#if KDOPCD_WITH_COSIM
#include "kdopcd_cosim/cosim.hpp"
#endif

namespace kdopcd::cli {
namespace {

// The engines of `kdop sim`, one entry each: the --engine word, the name the report prints, whether
// it runs a verilated top (its bus models, stalls and FST waves), and whether it writes SystemC's
// VCD (the model's signals, or the signal-level build's unit ports).
enum class SimEngine { Model, Rtl, Both, SystemC };
struct SimEngineInfo {
  SimEngine id;
  const char* word;
  const char* name;
  bool rtl_top;
  bool systemc_vcd;
};
constexpr SimEngineInfo kSimEngines[] = {
    {SimEngine::Model, "model", "model", false, true},
    {SimEngine::Rtl, "rtl", "rtl top", true, false},
    {SimEngine::Both, "both", "rtl top + model", true, false},
    {SimEngine::SystemC, "systemc", "signal-level SystemC", false, true},
};

const SimEngineInfo& parse_sim_engine(const std::string& word) {
  for (const SimEngineInfo& e : kSimEngines)
    if (word == e.word) return e;
  throw InputError("--engine must be model, rtl, both or systemc (got '" + word + "')");
}

struct SimArgs {
  std::string first, second, poses_file, pose_text, pairs_path, json_path;
  int k = 24;
  std::string rule = to_string(kHardwareDescentRule);
  std::string bits = "18,18,18";
  bool compare = false;
  std::string engine = "model";
  std::string rtl_blocks;  // systemc: the blocks run as verilated RTL (cosim::parse_rtl_blocks)
  std::string arch = "v2";
  std::string tree_memory = "onchip";
  std::string host = "registers";  // v2: registers, or the command queue over a host interface
  double clock_mhz = 0;  // 0 = the architecture's clock (paper 100 MHz, v2 250 MHz)
  bool stalls = false;
  std::uint64_t seed = 1;
  int trace_depth = 0;  // rtl: FST hierarchy levels (0 = all)
  model::ModelParams p;
};

// The verilated top (rtl/paper/kdopcd_top.sv, docs/accelerator.md) in place of the SystemC model: its
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
  s = model::stats_from_counters(r.counters.raw, cfg.sat_latency);
  s.stack_overflow = r.stack_overflow;
  s.sim_seconds = r.sim_seconds;
  if (r.bus_error) throw std::runtime_error("--engine rtl: the top reported an AXI read error");
  return m;
#else
  (void)args, (void)first, (void)second, (void)pose;
  throw InputError("--engine rtl: the verilated top is not in this build (install verilator; the demo "
                   "preset leaves it out: scripts/build.sh builds it)");
#endif
}

// The verilated v2 top (rtl/v2/kdopcd_v2_top.sv, docs/accelerator-v2.md) in place of the model. It
// is verilated with the accelerator contract's parameters (contract/accelerator_v2.json), which are
// also v2_params()'s: an option that leaves them is an input error naming that option.
model::ModelResult simulate_rtl_v2_top(const SimArgs& args, const DopTree& first, const DopTree& second,
                                       const Pose& pose) {
#if KDOPCD_WITH_RTL_V2
  const model::ModelParams& p = args.p;
  model::require_v2_params(p, args.k, "--engine rtl: the verilated v2 top");
  rtl::V2TopParams t;
  t.rule = p.rule;
  t.fixed = p.fixed;
  t.vertex_bits = p.vertex_bits;
  t.rotation_bits = p.rotation_bits;
  t.pending_limit = std::uint32_t(p.stack_depth);
  t.stalls = args.stalls;
  t.seed = args.seed;
  const rtl::V2TopResult r = rtl::simulate_v2_top(first, second, pose, t);
  model::ModelResult m;
  m.contacts = r.contacts;
  model::ModelStats& s = m.stats;
  s = model::stats_from_counters(r.counters, args.k);
  s.stack_overflow = r.overflow;
  s.sim_seconds = r.sim_seconds;
  return m;
#else
  (void)args, (void)first, (void)second, (void)pose;
  throw InputError("--engine rtl: the verilated v2 top was not built (install verilator)");
#endif
}

// The signal-level SystemC build of the v2 engine (cosim/, docs/cosim.md), with the units named
// by --rtl-blocks swapped for their verilated RTL. It has the contract's parameters, as the RTL.
model::ModelResult simulate_systemc(const SimArgs& args, const DopTree& first, const DopTree& second,
                                   const Pose& pose) {
#if KDOPCD_WITH_COSIM
  const cosim::RtlBlocks blocks = cosim::parse_rtl_blocks(args.rtl_blocks);
  std::vector<cosim::CosimRun> runs = cosim::simulate(first, second, pose, args.p, {blocks}, false);
  return std::move(runs.front().result);
#else
  (void)args, (void)first, (void)second, (void)pose;
  throw InputError("--engine systemc: the signal-level co-simulation was not built (it needs SystemC and verilator)");
#endif
}

// Options that belong to one architecture only; naming one with the other is an input error.
struct ArchOptions {
  std::vector<CLI::Option*> paper, v2, memory;
};

void check_arch_options(const model::ModelParams& p, const ArchOptions& opts) {
  const auto& wrong = p.arch == model::Architecture::Paper ? opts.v2 : opts.paper;
  for (const CLI::Option* o : wrong)
    if (o->count() > 0)
      throw InputError(o->get_name() + " is an option of --arch " +
                       (p.arch == model::Architecture::Paper ? "v2" : "paper") + ", not of --arch " + to_string(p.arch));
  if (p.arch == model::Architecture::V2 && p.tree_memory == model::TreeMemory::OnChip)
    for (const CLI::Option* o : opts.memory)
      if (o->count() > 0)
        throw InputError(o->get_name() + " sets the external memory: with --arch v2 it needs --tree-memory external");
}

// Prints the resource estimate and the part fits of a v2 configuration; returns them for --json.
nlohmann::json print_v2_resources(const model::ModelParams& p, int k, const DopTree& first, const DopTree& second) {
  const double s = scene_scale(first, second);
  const ImageParams ip{p.fixed.b, p.vertex_bits, p.bus_width, s};
  const TreeImage a = make_tree_image(first, ip);
  const TreeImage b = make_tree_image(second, ip);
  const model::Resources r = model::estimate_resources(p, k, a, b);
  nlohmann::json j = {{"sat_products", r.sat_products}, {"sat_dsp", r.sat_dsp}, {"triangle_dsp", r.triangle_dsp},
                      {"dsp", r.dsp()}, {"tree_ram_bits", r.tree_ram_bits}, {"buffer_bits", r.buffer_bits},
                      {"ram_copies", r.ram_copies}, {"parts", nlohmann::json::array()}};
  fmt::print("       estimate: {} SAT products ({} DSP48) + triangle unit(s) {} DSP48 = {} DSP48; tree RAM {:.2f} Mbit "
             "({} cop{} of the node RAMs), buffers {:.3f} Mbit\n",
             r.sat_products, r.sat_dsp, r.triangle_dsp, r.dsp(), double(r.tree_ram_bits) / 1e6, r.ram_copies,
             r.ram_copies == 1 ? "y" : "ies", double(r.buffer_bits) / 1e6);
  std::string fits;
  for (const model::FpgaPart& part : model::fpga_parts()) {
    const model::PartFit f = model::fit_part(part, p, k, a, b);
    j["parts"].push_back({{"part", part.name}, {"ram_fits", f.ram_fits}, {"dsp_fits", f.dsp_fits},
                          {"uram", f.uram_used}, {"bram36", f.bram36_used}});
    fits += fmt::format("{}{}: {}", fits.empty() ? "" : "; ", part.name,
                        f.ram_fits && f.dsp_fits
                            ? fmt::format("fits ({} URAM, {} BRAM36)", f.uram_used, f.bram36_used)
                            : fmt::format("does not fit ({}{})", f.ram_fits ? "" : "RAM", f.dsp_fits ? "" : " DSP"));
  }
  fmt::print("       parts: {}\n", fits);
  return j;
}

// Options that one engine or another ignores; naming one for an engine that ignores it is an
// input error (every option given does something).
struct EngineOptions {
  const CLI::Option *rtl_blocks, *stalls, *seed, *trace_depth, *trace, *tri_latency;
  std::vector<const CLI::Option*> queue;  // the command queue's options (--host other than registers)
};

void check_engine_options(const SimArgs& args, const SimEngineInfo& engine, const EngineOptions& o) {
  const bool systemc = engine.id == SimEngine::SystemC, rtl = engine.rtl_top;
  if (o.rtl_blocks->count() > 0 && !systemc)
    throw InputError("--rtl-blocks needs --engine systemc (the units of the signal-level build to run as verilated RTL)");
  if (o.rtl_blocks->count() > 0 && args.rtl_blocks.empty())
    throw InputError("--rtl-blocks '': name the blocks (sat, tri, ctrl, fetch, all, top) or none");
  for (const CLI::Option* rtl_only : {o.stalls, o.seed})
    if (rtl_only->count() > 0 && !rtl)
      throw InputError(rtl_only->get_name() + " drives the verilated top's bus models: it needs --engine rtl or both (got --engine " +
                       args.engine + ")");
  if (o.trace_depth->count() > 0 && !(rtl && o.trace->count() > 0))
    throw InputError("--trace-depth sets the hierarchy of the RTL's FST waves: it needs --engine rtl or both and --trace");
}

// While the RTL's FST trace is open: Verilator's FST writer keeps scratch files mapped into memory
// (fstapi.c: tmpfile() + mmap), and a disk that fills up (or a file-size limit) makes a store into
// such a page raise SIGBUS. That is an unwritable output, not a crash: the handler deletes the
// writer's PATH.hier, prints the error and ends the process with status 2. Async-signal-safe: the
// message and the path are prepared before the handler is armed.
class FstWriteFaultGuard {
 public:
  explicit FstWriteFaultGuard(const std::string& trace) {
    message() = fmt::format("kdop: error: --trace {}: the FST writer's memory-mapped files could not be written (a "
                            "full disk, or a file-size limit): the trace is incomplete\n",
                            trace);
    scratch() = trace + ".hier";
    struct sigaction action{};
    action.sa_handler = [](int) {
      ::unlink(scratch().c_str());
      [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, message().data(), message().size());
      ::_exit(kExitInputError);
    };
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &previous_);
  }
  FstWriteFaultGuard(const FstWriteFaultGuard&) = delete;
  FstWriteFaultGuard& operator=(const FstWriteFaultGuard&) = delete;
  ~FstWriteFaultGuard() { ::sigaction(SIGBUS, &previous_, nullptr); }

 private:
  static std::string& message() {
    static std::string text;
    return text;
  }
  static std::string& scratch() {
    static std::string path;
    return path;
  }
  struct sigaction previous_{};
};

// --trace: what each engine writes, claimed before the simulation (library_output.hpp). Returns
// the path to hand to the engine's writer; empty without --trace.
std::string claim_trace(const std::string& trace, bool rtl) {
  if (trace.empty()) return {};
  if (rtl) {
    // Verilator's FST writer keeps PATH.hier beside the trace while it runs, and deletes and
    // re-creates its file: it gets the file itself, not a symbolic link to it.
    return claim_library_output(trace, "--trace", {".hier"});
  }
  // SystemC's VCD writer appends .vcd to a name: it gets the name as given (ending in .vcd), and
  // writes through a symbolic link as every other output does.
  claim_library_output(trace, "--trace");
  return trace;
}

void run_sim(SimArgs& args, const ArchOptions& arch_options, const EngineOptions& engine_options) {
  const SimEngineInfo& engine = parse_sim_engine(args.engine);
  const bool systemc = engine.id == SimEngine::SystemC;
  check_engine_options(args, engine, engine_options);
#if KDOPCD_WITH_COSIM
  // A bad block name is an input error before any mesh is read.
  const std::string rtl_blocks = systemc ? cosim::parse_rtl_blocks(args.rtl_blocks).name() : std::string();
#else
  const std::string rtl_blocks;
#endif
  // SystemC's VCD writer appends .vcd to the name it gets: the name must have it, so that the
  // file written is the file named.
  if (!args.p.trace_path.empty() && engine.systemc_vcd)
    require_extension(args.p.trace_path, ".vcd", "--trace", "SystemC's VCD writer");
  check_outputs({{"--pairs", args.pairs_path}, {"--json", args.json_path}, {"--trace", args.p.trace_path}},
                {args.first, args.second, args.poses_file});
  PoseStream poses(args.poses_file, args.pose_text);
  model::ModelParams& p = args.p;
  p.arch = model::parse_architecture(args.arch);
  p.tree_memory = model::parse_tree_memory(args.tree_memory);
  check_arch_options(p, arch_options);
  if (systemc && p.arch != model::Architecture::V2)
    throw InputError("--engine systemc is the v2 engine's signal-level build (--arch v2)");
  p.clock_mhz = args.clock_mhz > 0 ? args.clock_mhz : (p.arch == model::Architecture::V2 ? 250.0 : 100.0);
  p.host_path = args.host == "registers" ? model::HostPath::Registers : model::HostPath::Queue;
  if (p.host_path == model::HostPath::Queue) p.host = model::host_interface(args.host);
  for (const CLI::Option* o : engine_options.queue)
    if (o->count() > 0 && p.host_path != model::HostPath::Queue)
      throw InputError(o->get_name() + " belongs to the command queue (--host pcie-gen3x16 or zynq-coherent)");
  if (p.arch == model::Architecture::V2 && engine_options.tri_latency->count() == 0)
    p.triangle_latency = model::v2_params().triangle_latency;  // the RTL v2 unit's (the contract's TRI_LAT)
  p.rule = parse_descent_rule(args.rule);
  p.fixed = parse_bits_option(args.bits);
  if (p.pipeline_latency == 0)
    p.pipeline_latency = p.arch == model::Architecture::V2 ? model::kWideSatLatency
                                                           : model::rtl_pipeline_latency(p.fixed.b, p.fixed.c);
  const bool v2 = p.arch == model::Architecture::V2;
  const bool use_rtl = engine.rtl_top;
  if (!p.trace_path.empty() && use_rtl && !v2)
    throw InputError("--trace with --engine rtl: waves of the v2 top only (--arch v2)");
  {
    model::ModelParams checked = p;
    if (use_rtl) checked.trace_path.clear();  // the RTL writes the waves, not the model
    model::validate(checked);
  }
#if KDOPCD_WITH_COSIM
  if (systemc) cosim::check_params(p, args.k);
#endif
  nlohmann::json resources;  // v2: the estimate, also in --json

  const Mesh first = load_mesh(args.first);
  const Mesh second = load_mesh(args.second);
  const DopTree first_tree(first, args.k, kHardwareTreeBuild);
  const DopTree second_tree(second, args.k, kHardwareTreeBuild);
  const int n = p.axes <= 0 ? args.k : std::min(p.axes, args.k);
  fmt::print("first  {}: {} triangles, tree depth {}\n", args.first, first.triangle_count(), first_tree.max_depth());
  fmt::print("second {}: {} triangles, tree depth {}\n", args.second, second.triangle_count(), second_tree.max_depth());
  const std::string engine_name =
      systemc ? std::string(engine.name) + " (verilated blocks: " + rtl_blocks + ")" : std::string(engine.name);
  if (v2) {
    const int lanes = p.sat_lanes > 0 ? std::min(p.sat_lanes, n) : n;
    fmt::print("{} (arch v2): k = {}, n = {}, rule = {}, b,c,z = {},{},{}, v = {}, {} SAT unit(s) x {} lanes, {} pairs in "
               "flight, pending set {}, engines {}\n",
               engine_name, args.k, n, to_string(p.rule), p.fixed.b, p.fixed.c, p.fixed.z, p.vertex_bits, p.sat_units,
               lanes, p.pairs_in_flight, p.stack_depth, p.engines);
    fmt::print("       SAT latency {} cycles, tree memory {} (RAM latency {}{}), triangle unit II {} latency {}, "
               "triangle queue {}, contact queue {}, clock {} MHz\n",
               p.pipeline_latency, to_string(p.tree_memory), p.ram_latency,
               p.tree_memory == model::TreeMemory::External
                   ? fmt::format(", node cache {} lines, memory W = {} bit, latency {}", p.node_cache_lines,
                                 p.bus_width, p.mem_latency)
                   : std::string(),
               p.triangle_ii, p.triangle_latency, p.triangle_queue, p.contact_queue, p.clock_mhz);
    if (p.host_path == model::HostPath::Queue) {
      const model::HostClocks c = model::host_clocks(p.host, p.clock_mhz);
      fmt::print("       host: command queue over {} (doorbell {} clk, DMA read latency {} clk, write visible after {} clk, "
                 "link {}/{} 64-byte beats per clk), host set-up {} ns per query, {} descriptor buffers\n",
                 p.host.name, c.doorbell, c.read_latency, c.write_latency, c.beats_per_cycle, c.cycles_per_beat,
                 p.host_setup_ns, model::descriptor_buffers(p));
    }
    resources = print_v2_resources(p, args.k, first_tree, second_tree);
  } else {
    fmt::print("{} (arch paper): k = {}, n = {}, rule = {}, b,c,z = {},{},{}, v = {}, P = {}, continue-axes = {}, stack = {}\n",
               engine_name, args.k, n, to_string(p.rule), p.fixed.b, p.fixed.c, p.fixed.z, p.vertex_bits, p.pipelines,
               p.continue_axes ? "on" : "off", p.stack_depth);
    fmt::print("       SAT latency {} cycles, triangle unit {} cycles, memory W = {} bit, latency {} cycles, burst {} "
               "beats, {} outstanding, {} beat(s) per {} cycle(s), clock {} MHz\n",
               p.pipeline_latency, p.triangle_latency, p.bus_width, p.mem_latency, p.burst_length, p.max_outstanding,
               p.beats_per_cycle, p.cycles_per_beat, p.clock_mhz);
  }
  for (const std::string& w :
       fixed_precision(first_tree, second_tree, p.fixed, {p.vertex_bits, p.rotation_bits}).warnings)
    fmt::print(stderr, "warning: {}\n", w);

  // The waves, claimed now that the inputs are read: the model's and the signal-level build's
  // VCD (SystemC), or the RTL's FST of the verilated v2 top, every clock of every pose.
  const std::string trace = claim_trace(p.trace_path, use_rtl);
  p.trace_path = engine.id == SimEngine::Model ? trace : std::string();  // the model's own VCD
#if KDOPCD_WITH_COSIM
  // Waves of the signal-level engine: its unit ports, every pose (docs/cosim.md).
  if (systemc && !trace.empty()) cosim::open_trace(trace, {cosim::parse_rtl_blocks(args.rtl_blocks)});
#endif
  std::optional<FstWriteFaultGuard> fst_guard;
#if KDOPCD_WITH_RTL_V2
  if (use_rtl && !trace.empty()) {
    fst_guard.emplace(trace);
    rtl::open_v2_trace(trace, args.trace_depth);
  }
#endif

  PairsWriter pairs(args.pairs_path);
  JsonReportWriter json(
      args.json_path,
      {{"first", args.first}, {"second", args.second}, {"arch", to_string(p.arch)}, {"k", args.k}, {"axes", n},
       {"pairs_in_flight", p.pairs_in_flight}, {"sat_units", p.sat_units}, {"sat_lanes", p.sat_lanes},
       {"tree_memory", to_string(p.tree_memory)}, {"ram_latency", p.ram_latency},
       {"node_cache_lines", p.node_cache_lines}, {"triangle_ii", p.triangle_ii}, {"triangle_queue", p.triangle_queue},
       {"contact_queue", p.contact_queue}, {"engines", p.engines}, {"resources", resources},
       {"rule", to_string(p.rule)}, {"bits", {p.fixed.b, p.fixed.c, p.fixed.z}}, {"pipelines", p.pipelines},
       {"continue_axes", p.continue_axes}, {"stack_depth", p.stack_depth}, {"pipeline_latency", p.pipeline_latency},
       {"triangle_latency", p.triangle_latency}, {"bus_width", p.bus_width}, {"mem_latency", p.mem_latency},
       {"burst_length", p.burst_length}, {"max_outstanding", p.max_outstanding},
       {"beats_per_cycle", p.beats_per_cycle}, {"cycles_per_beat", p.cycles_per_beat}, {"clock_mhz", p.clock_mhz}});
  print_table_header();
  bool all_equal = true, any_error = false;
  std::uint64_t batch_first_write = ~std::uint64_t(0), batch_last_completion = 0;  // the command queue's batch
  std::size_t queue_queries = 0;
  bool contact_overflow = false;
  std::uint64_t total_cycles = 0;
  double total_sim = 0;
  // One pose's result, whichever engine gave it: the table row, the comparisons, the outputs.
  auto report_pose = [&](std::size_t i, const Pose& pose, const model::ModelResult& r) {
    const model::ModelStats& s = r.stats;
    std::string engines_line;
    if (engine.id == SimEngine::Both) {
      // The verilated top and the SystemC model, query by query: contacts and every cycle.
      const model::ModelResult m = model::simulate(first_tree, second_tree, pose, p);
      // A started query takes at least one clock: zero means the top's host did not start it
      // (|T / s| > 4: the translation is out of the triangle unit's range, no contact is possible).
      const bool not_started = s.cycles == 0;
      const bool same = m.contacts == r.contacts && m.stats.cycles == s.cycles && m.stats.pair_tests == s.pair_tests &&
                        m.stats.axis_tests_issued == s.axis_tests_issued && m.stats.mem_beats == s.mem_beats &&
                        m.stats.stack_overflow == s.stack_overflow && m.stats.stall_cycles == s.stall_cycles &&
                        m.stats.triangle_stall_cycles == s.triangle_stall_cycles;
      const bool skipped_alike = not_started && r.contacts.empty() && m.contacts.empty();
      all_equal &= same || skipped_alike || (args.stalls && m.contacts == r.contacts);
      engines_line = fmt::format(
          "      rtl top vs SystemC model: cycles {} / {}, contacts {} / {} ({})\n", s.cycles, m.stats.cycles,
          r.contacts.size(), m.contacts.size(),
          same            ? "equal"
          : skipped_alike ? "the top's host did not start it: translation out of range, no contact; model agrees"
          : args.stalls   ? "cycles differ: random stalls"
                          : "DIFFERENT");
    }
    const PoseOutcome outcome{QueryResult{r.contacts, r.traversal()}, s.sim_seconds + s.setup_seconds};
    print_table_row(i, outcome);
    const double accel_us = double(s.cycles) / p.clock_mhz;
    // The top's registers count all beats and the wasted ones, not nodes and triangles apart.
    const std::string beat_split = use_rtl ? fmt::format("wasted {}", s.mem_beats_wasted)
                                           : fmt::format("nodes {}, triangles {}, wasted {}", s.mem_beats_nodes,
                                                         s.mem_beats_triangles, s.mem_beats_wasted);
    if (v2)
      fmt::print("      cycles {} = {:.2f} us at {} MHz; lane axis tests {} (beyond the first separating axis {}); SAT "
                 "unit utilization {:.3f}; credit stalls {}; triangle queue max {}, contact-queue waits {}{}\n",
                 s.cycles, accel_us, p.clock_mhz, s.axis_tests_issued, s.axis_tests_cancelled, s.pipeline_utilization,
                 s.stall_cycles, s.max_triangle_queue, s.triangle_stall_cycles,
                 p.tree_memory == model::TreeMemory::External
                     ? fmt::format("; memory beats {} ({}); node cache hits {} misses {}", s.mem_beats, beat_split,
                                   s.cache_hits, s.cache_misses)
                     : std::string());
    else
      fmt::print("      cycles {} = {:.1f} us at {} MHz; axis tests issued {} cancelled {} continued {}; memory beats {} "
               "({}); pipeline utilization {:.3f}; stalls {}; {:.2f} Mcycles/s simulated\n",
               s.cycles, accel_us, p.clock_mhz, s.axis_tests_issued, s.axis_tests_cancelled, s.axis_tests_continued,
               s.mem_beats, beat_split, s.pipeline_utilization, s.stall_cycles,
               s.sim_seconds > 0 ? double(s.cycles) / s.sim_seconds / 1e6 : 0.0);
    if (p.host_path == model::HostPath::Queue) {
      // The query's own path from its doorbell write (arrival - doorbell clocks) to its completion.
      const model::HostClocks c = model::host_clocks(p.host, p.clock_mhz);
      const std::uint64_t written = s.doorbell_cycle - std::uint64_t(c.doorbell);
      const double us = 1.0 / p.clock_mhz;
      const double device_us = double(s.completion_cycle - written) * us;
      fmt::print("      end to end: set-up {:.2f} us (host, measured), doorbell + descriptor {:.2f} us, queue wait {:.2f} us, "
                 "traversal {:.2f} us, write-back {:.2f} us: pose known -> contacts in host memory {:.2f} us{}\n",
                 s.setup_seconds * 1e6, double(s.descriptor_cycle - written) * us,
                 double(s.start_cycle - s.descriptor_cycle) * us, double(s.cycles) * us,
                 double(s.completion_cycle - s.end_cycle) * us, s.setup_seconds * 1e6 + device_us,
                 s.contact_overflow ? "; ERROR: more contacts than the buffer holds" : "");
      contact_overflow |= s.contact_overflow;
      ++queue_queries;
      batch_first_write = std::min(batch_first_write, written);
      batch_last_completion = std::max(batch_last_completion, s.completion_cycle);
    }
    if (s.stack_overflow) {
      any_error = true;
      fmt::print("      ERROR: DOP-pair stack overflow ({} of {} entries): the contact set is incomplete\n",
                 v2 ? "pending set" : "stack", p.stack_depth);
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
    row["cache_hits"] = s.cache_hits;
    row["cache_misses"] = s.cache_misses;
    row["triangle_stall_cycles"] = s.triangle_stall_cycles;
    row["pipeline_utilization"] = s.pipeline_utilization;
    row["stack_overflow"] = s.stack_overflow;
    row["sim_seconds"] = s.sim_seconds;
    row["setup_seconds"] = s.setup_seconds;
    if (p.host_path == model::HostPath::Queue) {
      row["doorbell_cycle"] = s.doorbell_cycle;
      row["descriptor_cycle"] = s.descriptor_cycle;
      row["start_cycle"] = s.start_cycle;
      row["end_cycle"] = s.end_cycle;
      row["completion_cycle"] = s.completion_cycle;
      row["contact_overflow"] = s.contact_overflow;
    }
    if (args.compare) {
      TraversalOptions o;
      o.axes = p.axes;
      o.rule = p.rule;
      const auto t0 = std::chrono::steady_clock::now();
      const QueryResult ref = collide(first_tree, second_tree, pose, o, SatBackend::Fixed, p.fixed);
      const double ref_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const bool same_contacts = ref.contacts == r.contacts;
      // Order-independent counts; the stack depth only where the order is the reference's (paper).
      const bool same_counts = ref.stats.pair_tests == s.pair_tests && ref.stats.axis_tests == s.axis_tests &&
                               ref.stats.leaf_pairs == s.leaf_pairs && ref.stats.triangle_tests == s.triangle_tests &&
                               (v2 || ref.stats.max_stack_depth == s.max_stack_depth);
      all_equal &= same_contacts && (same_counts || p.continue_axes);
      fmt::print("      reference fixed: {} contacts ({}), pair tests {}, axis tests {} ({}), software {:.3f} ms\n",
                 ref.contacts.size(), same_contacts ? "equal" : "DIFFERENT", ref.stats.pair_tests, ref.stats.axis_tests,
                 same_counts ? "equal" : (p.continue_axes ? "differ: continued testing" : "DIFFERENT"), ref_s * 1e3);
      row["reference_seconds"] = ref_s;
      row["reference_equal"] = same_contacts && same_counts;
    }
    pairs.add(i, r.contacts);
    json.add_pose(row);
  };

  if (engine.id == SimEngine::Model) {
    // The model takes the poses as one streamed batch (v2 engines run several at once): the
    // cycles are the batch's as the accelerator ran it.
    const model::StreamTotals totals = model::simulate_stream(
        first_tree, second_tree, [&](Pose& pose) { return poses.next(pose); }, report_pose, p);
    total_cycles = totals.cycles;  // not the sum of the queries' cycles: engines overlap
    total_sim = totals.sim_seconds;
  } else {
    Pose pose;
    for (std::size_t i = 0; poses.next(pose); ++i) {
      const model::ModelResult r = systemc ? simulate_systemc(args, first_tree, second_tree, pose)
                                   : v2    ? simulate_rtl_v2_top(args, first_tree, second_tree, pose)
                                           : simulate_rtl_top(args, first_tree, second_tree, pose);
      report_pose(i, pose, r);
    }
  }
  // The waves are read back once their writer closed them: an incomplete file is an error.
  if (!trace.empty()) {
    if (use_rtl) {
#if KDOPCD_WITH_RTL_V2
      rtl::close_v2_trace();
#endif
      fst_guard.reset();
      check_fst_file(trace, "--trace");
    } else if (systemc) {
#if KDOPCD_WITH_COSIM
      cosim::close_trace();
#endif
    } else {
      model::close_trace();
    }
  }
  fmt::print("simulated {} cycles in {:.3f} s: {:.2f} Mcycles/s; all poses {:.2f} us at {} MHz\n", total_cycles,
             total_sim, total_sim > 0 ? double(total_cycles) / total_sim / 1e6 : 0.0,
             double(total_cycles) / p.clock_mhz, p.clock_mhz);
  if (batch_last_completion > 0) {
    const double batch_us = double(batch_last_completion - batch_first_write) / p.clock_mhz;
    fmt::print("command queue: {} queries from the first doorbell write to the last completion in {:.2f} us: {:.0f} "
               "queries/s\n",
               queue_queries, batch_us, batch_us > 0 ? double(queue_queries) / batch_us * 1e6 : 0.0);
  }
  pairs.close();
  json.close({{"batch_cycles", total_cycles}});
  if (contact_overflow && !any_error)
    throw OverflowError(fmt::format("a query found more contacts than its buffer holds ({}): the buffer has the "
                                    "first ones; raise --contact-capacity",
                                    p.contact_capacity));
  if (any_error)
    throw OverflowError(fmt::format("the accelerator's {} overflowed ({} entries): contact sets are incomplete; raise "
                                    "--stack-depth",
                                    v2 ? "pending set" : "DOP-pair stack", p.stack_depth));
  if (!all_equal) throw CheckFailed(engine.id == SimEngine::Both ? "the engines differ (or differ from the reference)"
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
  cmd->add_option("--axes", p.axes, "axes n tested per DOP pair (0 = all k; more than k means k)")
      ->check(CLI::Range(0, 26));
  cmd->add_option("--rule", args->rule, "descent rule: shallower, first, second")->capture_default_str();
  cmd->add_option("--bits", args->bits, "SAT fractional bits b,c,z (or one n), each 4..44")->capture_default_str();
  auto opts = std::make_shared<ArchOptions>();
  cmd->add_option("--arch", args->arch,
                  "accelerator architecture: v2 (pairs in flight, on-chip trees, wide SAT) or paper (one pair at a "
                  "time, external memory; the RTL top's)")
      ->capture_default_str();
  // Bounds here and in model::validate (which says the same in an InputError for library callers).
  opts->paper.push_back(cmd->add_option("--pipelines", p.pipelines, "paper: one-axis SAT pipelines in parallel")
                            ->check(CLI::Range(1, 64))
                            ->capture_default_str());
  opts->paper.push_back(cmd->add_flag("--continue-axes", p.continue_axes,
                                      "paper: keep testing axes beyond n while the next pair loads (Fig. 7)"));
  cmd->add_option("--stack-depth", p.stack_depth, "pair stack (paper) / pending set (v2) entries")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--latency", p.pipeline_latency, "SAT latency in cycles (0 = the RTL's: paper pipeline formula, v2 wide unit 8)")
      ->check(CLI::Range(0, 64));
  cmd->add_option("--tri-latency", p.triangle_latency, "triangle unit latency (default: paper 16, v2 the RTL v2 unit's)")
      ->check(CLI::Range(1, 1024));
  opts->memory.push_back(cmd->add_option("--bus-width", p.bus_width, "memory bus width W in bits")
                             ->check(CLI::IsMember({32, 64, 128, 256, 512}))
                             ->capture_default_str());
  opts->memory.push_back(cmd->add_option("--mem-latency", p.mem_latency, "cycles per burst before its first beat")
                             ->check(CLI::Range(0, 1024))
                             ->capture_default_str());
  opts->memory.push_back(cmd->add_option("--burst", p.burst_length, "beats per AXI burst at most (bursts never cross 4 KiB)")
                             ->check(CLI::Range(1, 256))
                             ->capture_default_str());
  opts->memory.push_back(cmd->add_option("--outstanding", p.max_outstanding, "AXI read bursts in flight at most")
                             ->check(CLI::Range(1, 64))
                             ->capture_default_str());
  opts->memory.push_back(cmd->add_option("--beats-per-cycle", p.beats_per_cycle, "memory beats per accelerator clock")
                             ->check(CLI::Range(1, 64))
                             ->capture_default_str());
  opts->memory.push_back(cmd->add_option("--cycles-per-beat", p.cycles_per_beat, "accelerator clocks per memory beat")
                             ->check(CLI::Range(1, 64))
                             ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--pairs-in-flight", p.pairs_in_flight, "v2: pair tests issued and not yet decided, at most")
                         ->check(CLI::Range(1, 4096))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--sat-units", p.sat_units, "v2: pair tests issued per clock (SAT units)")
                         ->check(CLI::Range(1, 16))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--sat-lanes", p.sat_lanes, "v2: axis lanes per SAT unit (0 = n: a whole pair per clock)")
                         ->check(CLI::Range(0, 26))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--sat-contexts", p.sat_contexts, "v2: pairs a unit with fewer than n lanes interleaves (0 = latency + 1)")
                         ->check(CLI::Range(0, 256)));
  opts->v2.push_back(cmd->add_option("--tree-memory", args->tree_memory, "v2: onchip (tree RAMs) or external (AXI + node cache)")
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--ram-latency", p.ram_latency, "v2: on-chip RAM read latency")
                         ->check(CLI::Range(1, 16))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--node-cache", p.node_cache_lines, "v2 external: node records cached per tree")
                         ->check(CLI::Range(0, 1 << 20))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--tri-ii", p.triangle_ii, "v2: clocks between triangle test starts")
                         ->check(CLI::Range(1, 256))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--tri-queue", p.triangle_queue, "v2: leaf pairs waiting for the triangle unit")
                         ->check(CLI::Range(1, 1 << 16))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--contact-queue", p.contact_queue, "v2: contacts waiting for the output stream")
                         ->check(CLI::Range(1, 1 << 16))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--engines", p.engines, "v2: traversal engines (poses simulated at once)")
                         ->check(CLI::Range(1, 64))
                         ->capture_default_str());
  opts->v2.push_back(cmd->add_option("--host", args->host,
                                     "v2: how queries reach the engines: registers (START to DONE), or the command "
                                     "queue over pcie-gen3x16 or zynq-coherent (end to end, docs/model-v2.md)")
                         ->check(CLI::IsMember({"registers", "pcie-gen3x16", "zynq-coherent"}))
                         ->capture_default_str());
  cmd->add_option("--host-setup-ns", p.host_setup_ns,
                  "queue: the host's set-up per query on one core: descriptor i is written at (i + 1) times it "
                  "(0 = all written before the first doorbell)")
      ->check(finite_range(0.0, 1e9))
      ->capture_default_str();
  cmd->add_option("--descriptor-buffers", p.descriptor_buffers,
                  "queue: descriptor buffers, each holding a query from its fetch to its completion (0 = engines + 2)")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  cmd->add_option("--contact-capacity", p.contact_capacity, "queue: contacts each query's buffer holds")
      ->check(CLI::Range(1u, 1u << 31))
      ->capture_default_str();
  cmd->add_option("--clock-mhz", args->clock_mhz, "accelerator clock for times (default: paper 100, v2 250)")
      ->check(finite_range(1.0, 5000.0));
  cmd->add_option("--trace", p.trace_path,
                  "waves: model: VCD of the top-level signals; rtl (v2): FST of the verilated top, every pose; "
                  "systemc: VCD of the units' ports, every pose");
  cmd->add_option("--trace-depth", args->trace_depth, "rtl: FST hierarchy levels below the top (0 = all)")
      ->check(CLI::Range(0, 99))
      ->capture_default_str();
  cmd->add_option("--pairs", args->pairs_path, "write the contact pairs of every pose (kdop collide format)");
  cmd->add_option("--json", args->json_path, "write a JSON report to this file");
  cmd->add_flag("--compare", args->compare, "also run the reference (fixed backend) and compare contacts and counts");
  cmd->add_option("--engine", args->engine,
                  "model: the SystemC model; rtl: the verilated RTL top of the --arch (v2: kdopcd_v2_top, paper: "
                  "kdopcd_top); both: the top, checked cycle for cycle against the model; systemc: the v2 engine's "
                  "signal-level SystemC build, units swapped for their RTL by --rtl-blocks (docs/cosim.md)")
      ->capture_default_str();
  cmd->add_option("--rtl-blocks", args->rtl_blocks,
                  "systemc: blocks run as verilated RTL, a comma list of sat, tri, ctrl, fetch, "
                  "or all (= sat,tri,ctrl,fetch), or top (the whole verilated top), or none");
  cmd->add_flag("--stalls", args->stalls, "rtl: random stalls and back-pressure on every bus handshake");
  cmd->add_option("--seed", args->seed, "rtl: seed of the random stalls")->capture_default_str();
  const EngineOptions engine_options{cmd->get_option("--rtl-blocks"), cmd->get_option("--stalls"),
                                     cmd->get_option("--seed"),       cmd->get_option("--trace-depth"),
                                     cmd->get_option("--trace"),      cmd->get_option("--tri-latency"),
                                     {cmd->get_option("--host-setup-ns"), cmd->get_option("--descriptor-buffers"),
                                      cmd->get_option("--contact-capacity")}};
  cmd->callback([args, opts, engine_options] {
    run_sim(*args, *opts, engine_options);
  });
}

const CommandRegistration registration(70, add_sim_command);
}  // namespace
}  // namespace kdopcd::cli

#else

#include "kdopcd/error.hpp"

namespace kdopcd::cli {
namespace {
void add_sim_command(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("sim", "cycle-accurate accelerator model (not in this build: no SystemC, or the demo preset)");
  cmd->allow_extras();
  cmd->callback([] {
    throw InputError("kdop sim: the SystemC model is not in this build (install libsystemc-dev; the demo preset "
                     "leaves it out: scripts/build.sh builds it)");
  });
}
const CommandRegistration registration(70, add_sim_command);
}  // namespace
}  // namespace kdopcd::cli

#endif
