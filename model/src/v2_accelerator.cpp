#include "v2_accelerator.hpp"

#include "kdopcd/error.hpp"

namespace kdopcd::model {

namespace queue = contract::v2::queue;

namespace {

AxiMemoryConfig dma_config(const ModelParams& p) {
  const HostClocks c = host_clocks(p.host, p.clock_mhz);
  // The DMA port's reads: 512-bit beats, one burst per descriptor (it never crosses 4 KiB), as
  // many outstanding as there are descriptor buffers.
  return AxiMemoryConfig{8 * queue::kBeatBytes, c.read_latency, 256, descriptor_buffers(p), c.beats_per_cycle,
                         c.cycles_per_beat};
}

QuantizedAxis quantized_axis(const contract::format::AxisEntry& e) {
  QuantizedAxis a{};
  for (std::size_t i = 0; i < 3; ++i) {
    a.PA[i] = e.pa[i];
    a.PB[i] = e.pb[i];
    a.jA[i] = int(e.ja[i]);
    a.jB[i] = int(e.jb[i]);
  }
  a.p = e.p;
  return a;
}

}  // namespace

V2Accelerator::V2Accelerator(const V2Config& config)
    : cfg_(config),
      memory_(AxiMemoryConfig{config.params.bus_width, config.params.mem_latency, config.params.burst_length,
                              config.params.max_outstanding, config.params.beats_per_cycle,
                              config.params.cycles_per_beat}),
      caches_{NodeCache(std::size_t(config.params.node_cache_lines)),
              NodeCache(std::size_t(config.params.node_cache_lines))},
      slots_(std::size_t(config.params.engines)) {
  for (int e = 0; e < config.params.engines; ++e)
    engines_.push_back(std::make_unique<V2Engine>(cfg_, e, &memory_, caches_));
  if (queue_path()) {
    const HostClocks c = host_clocks(cfg_.params.host, cfg_.params.clock_mhz);
    fetch_ = std::make_unique<DescriptorFetch>(dma_config(cfg_.params), descriptor_buffers(cfg_.params),
                                               queue::descriptor_beats(cfg_.k));
    write_back_ = std::make_unique<WriteBack>(cfg_.params.engines, c.beats_per_cycle, c.cycles_per_beat,
                                              c.write_latency);
  }
  signals_.busy = true;
}

void V2Accelerator::submit(QueryRegisters registers) { queue_.emplace_back(submitted_++, std::move(registers)); }

void V2Accelerator::load(const ImageMemory* first, const ImageMemory* second, const QuantizedPose& pose_format) {
  loaded_[0] = first;
  loaded_[1] = second;
  pose_format_ = pose_format;
}

void V2Accelerator::ring(std::vector<std::uint64_t> descriptor, std::uint64_t arrival) {
  fetch_->ring(rung_++, std::move(descriptor), arrival);
}

bool V2Accelerator::take_next(Slot& slot) {
  if (!queue_path()) {
    if (queue_.empty()) return false;
    slot.index = queue_.front().first;
    slot.registers = std::move(queue_.front().second);
    queue_.pop_front();
    return true;
  }
  if (!fetch_->ready(cycle_)) return false;
  DescriptorFetch::Fetched f = fetch_->take();
  // The descriptor's fields go where the register path writes them.
  const ModelParams& p = cfg_.params;
  slot.index = f.index;
  slot.descriptor = queue::unpack_descriptor(f.words, cfg_.k, p.fixed.c, p.fixed.z, contract::v2::rot_w(p.rotation_bits),
                                             contract::v2::trans_w(p.vertex_bits, p.rotation_bits));
  slot.registers = QueryRegisters{};
  slot.registers.first = loaded_[0];
  slot.registers.second = loaded_[1];
  for (const contract::format::AxisEntry& e : slot.descriptor.axes) slot.registers.axes.push_back(quantized_axis(e));
  slot.registers.pose = pose_format_;
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) slot.registers.pose.M[i][j] = slot.descriptor.rot[3 * i + j];
    slot.registers.pose.T[i] = slot.descriptor.trans[i];
  }
  slot.doorbell = f.doorbell;
  slot.descriptor_ready = f.ready;
  slot.contacts_sent = 0;
  return true;
}

void V2Accelerator::finish_query(std::size_t e, Slot& slot) {
  V2Engine& eng = *engines_[e];
  QueryOutcome o{slot.index, eng.stats(), eng.contacts(), {}};
  // The AXI port is shared by the engines: its busy cycles so far, on the query that ends.
  o.stats.mem_busy_cycles = memory_.busy_cycles;
  o.stats.start_cycle = eng.start_cycle();
  o.stats.end_cycle = eng.end_cycle();
  pair_tests_done_ += o.stats.pair_tests;
  if (eng.error()) signals_.error = true;
  slot.running = false;
  if (!queue_path()) {
    finished_.push_back(std::move(o));
    return;
  }
  o.stats.doorbell_cycle = slot.doorbell;
  o.stats.descriptor_cycle = slot.descriptor_ready;
  queue::Completion& c = o.completion;
  c.tag = slot.descriptor.tag;
  c.contacts = std::uint32_t(o.stats.contacts);
  c.done = true;
  c.overflow = o.stats.stack_overflow;
  c.contact_overflow = o.stats.contacts > slot.descriptor.contact_capacity;
  o.stats.contact_overflow = c.contact_overflow;
  slot.completing = std::move(o);
}

void V2Accelerator::send_completion(std::size_t e, Slot& slot) {
  QueryOutcome& o = *slot.completing;
  o.stats.completion_cycle = write_back_->complete(int(e), cycle_);
  finished_.push_back(std::move(o));
  slot.completing.reset();
  fetch_->release();
}

void V2Accelerator::tick() {
  if (!busy_) return;
  ++cycle_;
  signals_.contact_valid = false;
  if (cfg_.params.tree_memory == TreeMemory::External) {
    delivered_.clear();
    memory_.tick(cycle_, delivered_);
    for (const MemBurst& b : delivered_) {
      const std::size_t e = std::size_t(V2Engine::engine_of_tag(b.tag));
      engines_[e]->deliver(b, cycle_);
    }
  }
  if (queue_path()) fetch_->tick(cycle_);
  bool any = false, dispatched = false;
  for (std::size_t e = 0; e < engines_.size(); ++e) {
    V2Engine& eng = *engines_[e];
    Slot& slot = slots_[e];
    if (slot.completing) send_completion(e, slot);  // the clock after DONE
    if (!slot.running && !queue_path() && take_next(slot)) {
      // Registers: the engine pops the root in the clock it takes the query.
      slot.running = true;
      slot.first_pop = cycle_;
      eng.start(&slot.registers, cycle_);
    } else if (!slot.running && queue_path() && !dispatched && take_next(slot)) {
      // Queue: one descriptor per clock to the lowest idle engine; START now, the root next clock.
      dispatched = true;
      slot.running = true;
      slot.first_pop = cycle_ + 1;
      eng.start(&slot.registers, cycle_ + 1);
    }
    if (!slot.running || cycle_ < slot.first_pop) continue;
    eng.tick(cycle_);
    if (eng.out().out_valid) {
      if (!signals_.contact_valid) {
        signals_.contact_valid = true;
        signals_.contact = eng.out().out_pair;
      }
      if (queue_path()) write_back_->contact(int(e), slot.contacts_sent++ < slot.descriptor.contact_capacity, cycle_);
    }
    if (e == 0) signals_.stack_depth = std::uint32_t(eng.pending());
    if (!eng.busy()) finish_query(e, slot);
  }
  for (const Slot& slot : slots_) any |= slot.running || slot.completing.has_value();
  signals_.pair_tests = pair_tests_done_;
  const bool waiting = queue_path() ? !fetch_->idle() : !queue_.empty();
  if (!any && input_closed_ && !waiting) {
    busy_ = false;
    signals_.busy = false;
    signals_.done = true;
  }
}

}  // namespace kdopcd::model
