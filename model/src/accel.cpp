// The accelerator model: memory, GetData, controller with the DOP-pair stack, SAT pipelines with
// PipeData bookkeeping and cancellation, triangle unit, contact queue (docs/model.md). One clocked
// SystemC module; every unit advances once per rising clock edge in Core::tick().
#include <systemc>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_setup.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd_model/model.hpp"

// libsystemc.so refers to sc_main; the model is driven from an ordinary main (kdop, gtest).
int sc_main(int, char**) { return 0; }

namespace kdopcd::model {

int rtl_pipeline_latency(int b, int c, int mul_w) {
  const int na = (b + 1 + mul_w - 2) / (mul_w - 1);
  const int np = (c + mul_w - 2) / (mul_w - 1);
  const int terms = 6 * na * np + 7;
  int lv = 0;
  while ((1 << lv) < terms) ++lv;
  return lv + 3;
}

TraversalStats ModelResult::traversal() const {
  TraversalStats t;
  t.pair_tests = stats.pair_tests;
  t.axis_tests = stats.axis_tests;
  t.leaf_pairs = stats.leaf_pairs;
  t.triangle_tests = stats.triangle_tests;
  t.contacts = stats.contacts;
  t.max_stack_depth = stats.max_stack_depth;
  return t;
}

namespace {

struct NodePair {
  std::int32_t f = 0, s = 0;
  bool operator==(const NodePair&) const = default;
};

// External memory holding the two encoded tree images, seen through the fetch unit's AXI4 read
// master (docs/accelerator.md, "Timing contract"). A record request becomes bursts of at most
// burst_length beats that never cross a 4 KiB boundary (the images lie 4 KiB-aligned, so the split
// depends on the image address only). A burst queued in tick t is accepted (AR handshake) from tick
// t+1 on, one per tick, while fewer than max_outstanding bursts are in flight at the start of the
// tick; the memory serves accepted bursts in order: service starts at max(accept tick, previous
// burst's last beat) and the last beat comes mem_latency + its beats at the clock ratio later.
enum class ReqKind { NodeFirst, NodeSecond, TriFirst, TriSecond };
struct MemBurst {
  ReqKind kind;
  std::uint64_t address;     // byte address in that tree's image
  int beats;
  std::uint64_t tag;         // fetch tag (nodes) or triangle job id
  bool last_of_record;       // the record is complete with this burst's last beat
  std::uint64_t queued = 0;  // tick in which the fetch unit queued it
  std::uint64_t done = 0;    // tick of its last beat (set when accepted)
};

// The decoded contents of one image region, addressed like the image (records are located by
// their byte address: node_address / triangle_address of the layout).
struct ImageMemory {
  std::vector<std::uint8_t> bytes;  // encode(image): what lies in external memory
  TreeImage image;                  // decode(bytes): the record contents GetData latches
  const ImageNode& node_at(std::uint64_t address) const {
    return image.nodes[(address - image.node_section_offset()) / image.node_stride()];
  }
  const ImageTriangle& triangle_at(std::uint64_t address) const {
    return image.triangles[(address - image.triangle_section_offset()) / image.triangle_stride()];
  }
};

struct Flight {  // one axis test in a pipeline, with its PipeData entry
  std::uint64_t ready;
  std::uint64_t tag;
  int axis;
  bool separated;
};

struct TriJob {
  std::uint64_t id;
  std::uint32_t tf, ts;
  std::uint64_t addr_f, addr_s;
  int outstanding = 2;
};

struct TriFlight {
  std::uint64_t ready;
  ContactPair pair;
  bool hit;
};

class Core {
 public:
  // Host registers (loaded before start).
  const ImageMemory* mem[2] = {nullptr, nullptr};
  std::vector<QuantizedAxis> axes;  // P'_A, P'_B, p', jA, jB per axis, in set-up order
  QuantizedPose qpose;
  ModelParams p;
  int n = 24, k = 24, half = 12, lat = 8;

  // Status (read by the SystemC wrapper and the host).
  bool busy = false, finished = false, error = false;
  bool out_contact = false;
  ContactPair out_pair{};
  ModelStats stats;
  std::vector<ContactPair> contacts;

  void start() {
    *this = Core{mem[0], mem[1], std::move(axes), qpose, p, n, k, half, lat};
    busy = true;
    push({0, 0});
  }

  std::size_t stack_size() const { return stack_.size(); }

  void tick() {
    out_contact = false;
    if (!busy) return;
    ++cycle_;
    memory_step();
    pipeline_outputs();
    verdict();
    if (error) return finish();
    pop_and_start();
    issue();
    triangle_unit();
    contact_queue();
    if (stack_.empty() && !cur_.valid && pipe_.empty() && jobs_.empty() && tri_pipe_.empty() && out_queue_.empty() &&
        mem_inflight_.empty() && mem_queue_.empty())
      finish();
  }

 private:
  Core(const ImageMemory* a, const ImageMemory* b, std::vector<QuantizedAxis> ax, const QuantizedPose& qp,
       const ModelParams& pp, int nn, int kk, int hh, int ll)
      : mem{a, b}, axes(std::move(ax)), qpose(qp), p(pp), n(nn), k(kk), half(hh), lat(ll) {}

 public:
  Core() = default;

 private:
  struct Fetch {  // GetData's next-pair buffer
    bool valid = false;
    NodePair pair;
    std::uint64_t tag = 0;
    int outstanding = 0;
    std::uint64_t delivered_beats = 0;
    bool ready() const { return valid && outstanding == 0; }
  };
  struct Current {  // the pair in the pipeline (controller + PipeData view)
    bool valid = false, started = false, issue_from_next = false, stopped = false, separated = false;
    NodePair pair;
    std::uint64_t tag = 0;
    int next_axis = 0, sep_axis = -1, in_flight = 0;
  };

  std::uint64_t cycle_ = 0;
  std::vector<NodePair> stack_;
  Fetch fetch_;
  Current cur_;
  std::uint64_t next_tag_ = 1;
  const ImageNode* reg_f_ = nullptr;  // coefficient registers of the current pair
  const ImageNode* reg_s_ = nullptr;
  std::deque<Flight> pipe_;
  std::deque<MemBurst> mem_queue_;     // queued, not yet accepted (may still be dropped)
  std::deque<MemBurst> mem_inflight_;  // accepted, served in order
  std::uint64_t mem_last_done_ = 0;
  std::deque<TriJob> jobs_;
  std::uint64_t next_job_ = 0;
  std::deque<TriFlight> tri_pipe_;
  std::deque<ContactPair> out_queue_;

  void finish() {
    busy = false;
    finished = true;
    stats.cycles = cycle_;
    stats.contacts = contacts.size();
    std::sort(contacts.begin(), contacts.end());
  }

  bool push(NodePair np) {
    if (stack_.size() >= std::size_t(p.stack_depth)) {
      error = true;
      stats.stack_overflow = true;
      return false;
    }
    stack_.push_back(np);
    stats.max_stack_depth = std::max<std::uint32_t>(stats.max_stack_depth, std::uint32_t(stack_.size()));
    return true;
  }

  std::uint64_t cost(int beats) const {
    return std::uint64_t(p.mem_latency) +
           (std::uint64_t(beats) * p.cycles_per_beat + p.beats_per_cycle - 1) / std::uint64_t(p.beats_per_cycle);
  }

  void queue_record(ReqKind kind, std::uint64_t address, int beats, std::uint64_t tag) {
    const std::uint64_t bus_bytes = std::uint64_t(p.bus_width / 8);
    for (int left = beats; left > 0;) {
      const std::uint64_t to_boundary = (4096 - address % 4096) / bus_bytes;
      const int len = int(std::min<std::uint64_t>({std::uint64_t(left), std::uint64_t(p.burst_length), to_boundary}));
      left -= len;
      mem_queue_.push_back({kind, address, len, tag, left == 0, cycle_, 0});
      address += std::uint64_t(len) * bus_bytes;
    }
  }

  void memory_step() {
    const std::size_t outstanding = mem_inflight_.size();  // the fetch unit's count at the start of the tick
    while (!mem_inflight_.empty() && mem_inflight_.front().done <= cycle_) {
      deliver(mem_inflight_.front());
      mem_inflight_.pop_front();
    }
    if (!mem_queue_.empty() && mem_queue_.front().queued < cycle_ && outstanding < std::size_t(p.max_outstanding)) {
      MemBurst b = mem_queue_.front();
      mem_queue_.pop_front();
      b.done = std::max(cycle_, mem_last_done_) + cost(b.beats);
      mem_last_done_ = b.done;
      mem_inflight_.push_back(b);
    }
    if (!mem_inflight_.empty()) ++stats.mem_busy_cycles;
  }

  void deliver(const MemBurst& r) {
    stats.mem_beats += std::uint64_t(r.beats);
    if (r.kind == ReqKind::NodeFirst || r.kind == ReqKind::NodeSecond) {
      stats.mem_beats_nodes += std::uint64_t(r.beats);
      if (fetch_.valid && r.tag == fetch_.tag) {
        if (r.last_of_record) --fetch_.outstanding;
        fetch_.delivered_beats += std::uint64_t(r.beats);
      } else stats.mem_beats_wasted += std::uint64_t(r.beats);
      return;
    }
    stats.mem_beats_triangles += std::uint64_t(r.beats);
    if (!r.last_of_record) return;
    for (TriJob& j : jobs_)
      if (j.id == r.tag) --j.outstanding;
  }

  void start_fetch(NodePair np) {
    if (fetch_.valid) {  // abandon: bursts not yet accepted are dropped; accepted ones complete, wasted
      const std::uint64_t old = fetch_.tag;
      stats.mem_beats_wasted += fetch_.delivered_beats;
      std::erase_if(mem_queue_, [&](const MemBurst& r) {
        return (r.kind == ReqKind::NodeFirst || r.kind == ReqKind::NodeSecond) && r.tag == old;
      });
    }
    fetch_ = Fetch{true, np, next_tag_++, 2, 0};
    const TreeImage& a = mem[0]->image;
    const TreeImage& b = mem[1]->image;
    queue_record(ReqKind::NodeFirst, a.node_address(std::size_t(np.f)), a.node_beats(), fetch_.tag);
    queue_record(ReqKind::NodeSecond, b.node_address(std::size_t(np.s)), b.node_beats(), fetch_.tag);
  }

  void pipeline_outputs() {
    while (!pipe_.empty() && pipe_.front().ready == cycle_) {
      const Flight f = pipe_.front();
      pipe_.pop_front();
      if (!cur_.valid || f.tag != cur_.tag) continue;  // cannot happen: pairs are serialized
      --cur_.in_flight;
      if (cur_.separated) {
        ++stats.axis_tests_cancelled;  // same-cycle result of a later axis (P > 1)
        continue;
      }
      if (f.separated) {
        cur_.separated = true;
        cur_.sep_axis = f.axis;
      }
    }
    if (cur_.valid && cur_.separated && cur_.in_flight > 0) {  // cancel the pair's remaining tests
      const std::uint64_t tag = cur_.tag;
      const auto before = pipe_.size();
      std::erase_if(pipe_, [&](const Flight& f) { return f.tag == tag; });
      stats.axis_tests_cancelled += before - pipe_.size();
      cur_.in_flight = 0;
    }
  }

  void verdict() {
    if (!cur_.valid || !cur_.started) return;
    if (!(cur_.separated || (cur_.stopped && cur_.in_flight == 0))) return;
    ++stats.pair_tests;
    stats.axis_tests += std::uint64_t(cur_.separated ? cur_.sep_axis + 1 : cur_.next_axis);
    cur_.valid = false;
    if (cur_.separated) return;
    const ImageNode& f = *reg_f_;
    const ImageNode& s = *reg_s_;
    const NodePair pr = cur_.pair;
    if (f.is_leaf && s.is_leaf) {
      ++stats.leaf_pairs;
      TriJob j{next_job_++, std::uint32_t(f.triangle), std::uint32_t(s.triangle),
               mem[0]->image.triangle_address(std::size_t(f.triangle)),
               mem[1]->image.triangle_address(std::size_t(s.triangle))};
      queue_record(ReqKind::TriFirst, j.addr_f, mem[0]->image.triangle_beats(), j.id);
      queue_record(ReqKind::TriSecond, j.addr_s, mem[1]->image.triangle_beats(), j.id);
      jobs_.push_back(j);
      return;
    }
    bool split_first;
    if (f.is_leaf) split_first = false;
    else if (s.is_leaf) split_first = true;
    else if (p.rule == DescentRule::First) split_first = true;
    else if (p.rule == DescentRule::Second) split_first = false;
    else split_first = f.depth <= s.depth;
    if (split_first) {
      if (push({f.right, pr.s})) push({f.left, pr.s});
    } else {
      if (push({pr.f, s.right})) push({pr.f, s.left});
    }
  }

  void pop_and_start() {
    if (!cur_.valid && !stack_.empty()) {
      cur_ = Current{};
      cur_.valid = true;
      cur_.pair = stack_.back();
      stack_.pop_back();
      if (!(fetch_.valid && fetch_.pair == cur_.pair)) start_fetch(cur_.pair);
    }
    if (cur_.valid && !cur_.started) {
      if (!fetch_.ready()) {
        ++stats.stall_cycles;
        return;
      }
      // Latch the records into the pipeline's coefficient registers; the buffer is free again.
      reg_f_ = &mem[0]->node_at(mem[0]->image.node_address(std::size_t(cur_.pair.f)));
      reg_s_ = &mem[1]->node_at(mem[1]->image.node_address(std::size_t(cur_.pair.s)));
      cur_.started = true;
      cur_.tag = next_tag_++;
      fetch_ = Fetch{};
      if (!stack_.empty()) start_fetch(stack_.back());  // prefetch: the next pair if this one separates
    }
  }

  bool may_issue() const {
    if (cur_.separated || cur_.next_axis >= k) return false;
    if (cur_.next_axis < n) return true;
    return p.continue_axes && !fetch_.ready();
  }

  void issue() {
    if (!cur_.valid || !cur_.started || cur_.stopped) return;
    if (!cur_.issue_from_next) {  // the cycle the registers are latched: first issue next cycle
      cur_.issue_from_next = true;
      return;
    }
    for (int j = 0; j < p.pipelines; ++j) {
      if (!may_issue()) {
        cur_.stopped = true;
        break;
      }
      const int axis = cur_.next_axis++;
      const FixedDiffs d = fixed_axis_diffs<false>(reg_s_->coeffs.data(), reg_f_->coeffs.data(), half,
                                                   axes[std::size_t(axis)], p.fixed);
      pipe_.push_back({cycle_ + std::uint64_t(lat), cur_.tag, axis, d.separated()});
      ++cur_.in_flight;
      ++stats.axis_tests_issued;
      if (axis >= n) ++stats.axis_tests_continued;
    }
    if (!cur_.stopped && !may_issue()) cur_.stopped = true;
  }

  void triangle_unit() {
    while (!tri_pipe_.empty() && tri_pipe_.front().ready == cycle_) {
      if (tri_pipe_.front().hit) out_queue_.push_back(tri_pipe_.front().pair);
      tri_pipe_.pop_front();
    }
    if (!jobs_.empty() && jobs_.front().outstanding == 0) {  // one test enters per cycle
      const TriJob j = jobs_.front();
      jobs_.pop_front();
      const ImageTriangle& a = mem[0]->triangle_at(j.addr_f);
      const ImageTriangle& b = mem[1]->triangle_at(j.addr_s);
      FixedTriangle ta, tb;
      for (int c = 0; c < 3; ++c) {
        const FixedVertex va{a[3 * c], a[3 * c + 1], a[3 * c + 2]};
        const FixedVertex vb{b[3 * c], b[3 * c + 1], b[3 * c + 2]};
        ta.v[std::size_t(c)] = lift_first_vertex(va, p.rotation_bits);
        tb.v[std::size_t(c)] = place_fixed_vertex(qpose, vb);
      }
      ++stats.triangle_tests;
      tri_pipe_.push_back({cycle_ + std::uint64_t(p.triangle_latency), {j.tf, j.ts}, fixed_triangles_intersect(ta, tb)});
    }
  }

  void contact_queue() {
    if (out_queue_.empty()) return;
    out_contact = true;
    out_pair = out_queue_.front();
    out_queue_.pop_front();
    contacts.push_back(out_pair);
  }
};

SC_MODULE(kdop_accel) {
  sc_core::sc_in<bool> clk;
  sc_core::sc_signal<bool> busy{"busy"}, done{"done"}, error{"error"}, contact_valid{"contact_valid"};
  sc_core::sc_signal<std::uint32_t> contact_first{"contact_first"}, contact_second{"contact_second"};
  sc_core::sc_signal<std::uint32_t> stack_depth{"stack_depth"};
  sc_core::sc_signal<std::uint64_t> pair_tests{"pair_tests"};
  Core core;

  SC_CTOR(kdop_accel) {
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }

  void on_clock() {
    if (!core.busy) return;
    core.tick();
    busy.write(core.busy);
    done.write(core.finished);
    error.write(core.error);
    contact_valid.write(core.out_contact);
    if (core.out_contact) {
      contact_first.write(core.out_pair.first);
      contact_second.write(core.out_pair.second);
    }
    stack_depth.write(std::uint32_t(core.stack_size()));
    pair_tests.write(core.stats.pair_tests);
  }
};

// One clock and one accelerator per process (SystemC elaborates once); queries reuse them.
struct Bench {
  double period_ns;
  sc_core::sc_clock clk;
  kdop_accel accel;
  sc_core::sc_trace_file* trace = nullptr;
  Bench(double period, const std::string& trace_path)
      : period_ns(period), clk("clk", period, sc_core::SC_NS), accel("accel") {
    accel.clk(clk);
    if (!trace_path.empty()) {
      std::string base = trace_path;
      if (base.size() > 4 && base.substr(base.size() - 4) == ".vcd") base.resize(base.size() - 4);
      trace = sc_core::sc_create_vcd_trace_file(base.c_str());
      sc_core::sc_trace(trace, clk, "clk");
      sc_core::sc_trace(trace, accel.busy, "busy");
      sc_core::sc_trace(trace, accel.done, "done");
      sc_core::sc_trace(trace, accel.error, "error");
      sc_core::sc_trace(trace, accel.contact_valid, "contact_valid");
      sc_core::sc_trace(trace, accel.contact_first, "contact_first");
      sc_core::sc_trace(trace, accel.contact_second, "contact_second");
      sc_core::sc_trace(trace, accel.stack_depth, "stack_depth");
      sc_core::sc_trace(trace, accel.pair_tests, "pair_tests");
    }
  }
};

Bench& bench(const ModelParams& p) {
  static Bench* b = [&] {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return new Bench(1000.0 / p.clock_mhz, p.trace_path);
  }();
  return *b;
}

// Images depend on the trees and the scale only, not on the pose: cached per (tree, b, v, W, s).
const ImageMemory& image_memory(const DopTree& tree, const ImageParams& ip) {
  using Key = std::tuple<const DopTree*, int, int, int, double>;
  static std::map<Key, std::unique_ptr<ImageMemory>> cache;
  auto& slot = cache[Key{&tree, ip.b, ip.v, ip.bus_width, ip.scale}];
  if (!slot) {
    slot = std::make_unique<ImageMemory>();
    slot->bytes = encode(make_tree_image(tree, ip));
    slot->image = decode(slot->bytes, tree.mesh().name + " image");
  }
  return *slot;
}

}  // namespace

ModelResult simulate(const DopTree& first, const DopTree& second, const Pose& pose, const ModelParams& params) {
  if (first.k() != second.k()) throw std::invalid_argument("model: trees must share k");
  if (params.pipelines < 1 || params.stack_depth < 1 || params.burst_length < 1 || params.beats_per_cycle < 1 ||
      params.cycles_per_beat < 1 || params.triangle_latency < 1 || params.mem_latency < 0 || params.pipeline_latency < 0 ||
      params.max_outstanding < 1)
    throw std::invalid_argument(
        "model: pipelines, stack depth, burst, clock ratio, outstanding reads and latencies must be positive");
  validate_fixed_params(params.fixed);
  const auto t0 = std::chrono::steady_clock::now();
  const double s = scene_scale(first, second);
  const ImageParams ip{params.fixed.b, params.vertex_bits, params.bus_width, s};
  const ImageMemory& mf = image_memory(first, ip);
  const ImageMemory& ms = image_memory(second, ip);

  Bench& b = bench(params);
  Core& core = b.accel.core;
  // Host interface: registers of the query.
  core.mem[0] = &mf;
  core.mem[1] = &ms;
  core.p = params;
  core.k = first.k();
  core.half = core.k / 2;
  core.n = params.axes <= 0 ? core.k : std::min(params.axes, core.k);
  core.lat = params.pipeline_latency > 0 ? params.pipeline_latency : rtl_pipeline_latency(params.fixed.b, params.fixed.c);
  const Pose centred = centred_pose(first, second, pose);  // the images are in the centred frames
  core.axes = quantize_setup(make_sat_setup(first.orientations(), centred), s, params.fixed);
  core.qpose = quantize_pose(centred, s, TriangleFixedParams{params.vertex_bits, params.rotation_bits});
  const auto t_sim = std::chrono::steady_clock::now();
  core.start();
  const sc_core::sc_time chunk(b.period_ns * 1024, sc_core::SC_NS);
  while (!core.finished) sc_core::sc_start(chunk);
  const double clocked = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_sim).count();

  ModelResult r;
  r.contacts = core.contacts;
  r.stats = core.stats;
  r.stats.pipeline_latency = core.lat;
  r.stats.pipeline_utilization =
      r.stats.cycles ? double(r.stats.axis_tests_issued) / (double(r.stats.cycles) * params.pipelines) : 0.0;
  r.stats.sim_seconds = clocked;
  r.stats.setup_seconds = std::chrono::duration<double>(t_sim - t0).count();
  return r;
}

}  // namespace kdopcd::model
