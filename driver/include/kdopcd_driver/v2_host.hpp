#pragma once
// The host's register sequences of the v2 accelerator, written once for every host: the C++
// driver of the verilated top (v2_query_driver.hpp) and the co-simulation's RTL top
// (cosim/src/rtl_top.cpp). A `Lite` is anything with write(addr, u32), write64(addr, u64),
// read(addr) and read64(addr) on the AXI4-Lite register port (docs/accelerator-v2.md).
#include <array>
#include <cstdint>
#include <vector>

#include "kdopcd/fixed_format.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd_contract/accelerator_v2.hpp"
#include "kdopcd_contract/command_queue.hpp"
#include "kdopcd_driver/register_map.hpp"

namespace kdopcd::driver::v2 {

namespace reg2 = kdopcd::contract::v2::reg;

// What LOAD needs: the byte address of each tree's node and triangle section and their counts.
struct LoadProgram {
  std::uint64_t a_nodes_at = 0, a_tris_at = 0, b_nodes_at = 0, b_tris_at = 0;
  std::uint32_t a_nodes = 0, a_tris = 0, b_nodes = 0, b_tris = 0;
};

// Bases and counts, then CONTROL.LOAD. The caller waits for DONE.
template <class Lite>
void program_load(Lite& lite, const LoadProgram& l) {
  lite.write64(reg2::kANodeBase, l.a_nodes_at);
  lite.write64(reg2::kATriBase, l.a_tris_at);
  lite.write64(reg2::kBNodeBase, l.b_nodes_at);
  lite.write64(reg2::kBTriBase, l.b_tris_at);
  lite.write(reg2::kANodes, l.a_nodes);
  lite.write(reg2::kATris, l.a_tris);
  lite.write(reg2::kBNodes, l.b_nodes);
  lite.write(reg2::kBTris, l.b_tris);
  lite.write(reg2::kControl, reg2::kLoad);
}

// One query's registers: M' and T' of the triangle unit, the axis table (make_query_setup's
// fixed_axes, XORed with `flip` word by word: a test's way to overwrite the table after START),
// QUERY and PENDING_LIMIT. START is the caller's, so that it can time it.
struct QueryProgram {
  const std::array<std::array<std::int64_t, 3>, 3>* M = nullptr;
  const std::array<std::int64_t, 3>* T = nullptr;
  const std::vector<QuantizedAxis>* axes = nullptr;
  int k = kdopcd::contract::v2::kK;
  FixedParams fixed{kdopcd::contract::v2::kB, kdopcd::contract::v2::kC, kdopcd::contract::v2::kZ};
  DescentRule rule = kHardwareDescentRule;
  std::uint32_t pending_limit = 0;  // 0 = PENDING_DEPTH
  int vertex_bits = kdopcd::contract::v2::kV, rotation_bits = kdopcd::contract::v2::kM;  // v, m of M', T'
};

template <class Lite>
void program_axis_table(Lite& lite, const QueryProgram& q, std::uint32_t flip = 0) {
  for (std::size_t a = 0; a < q.axes->size(); ++a) {
    const std::vector<std::uint32_t> words = pack_axis_entry((*q.axes)[a], q.k, q.fixed);
    for (std::size_t w = 0; w < words.size(); ++w)
      lite.write(reg2::kAxisTable + reg2::kAxisEntryBytes * std::uint32_t(a) + 4 * std::uint32_t(w), words[w] ^ flip);
  }
}

template <class Lite>
void program_query(Lite& lite, const QueryProgram& q) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      lite.write(reg2::kRot + 4 * std::uint32_t(3 * i + j), std::uint32_t((*q.M)[std::size_t(i)][std::size_t(j)]));
  for (int i = 0; i < 3; ++i) lite.write64(reg2::kTrans + 8 * std::uint32_t(i), std::uint64_t((*q.T)[std::size_t(i)]));
  program_axis_table(lite, q);
  kdopcd::contract::v2::Query query;
  query.rule = rule_code(q.rule);
  lite.write(reg2::kQuery, pack(query));
  lite.write(reg2::kPendingLimit, q.pending_limit & 0xFFFFFF);
}

// The same query as a command-queue descriptor (kdopcd_contract/command_queue.hpp): the host
// writes these words into a ring slot instead of the registers of program_query.
struct QueueTargets {
  std::uint64_t tag = 0;
  std::uint64_t contact_base = 0;
  std::uint32_t contact_capacity = 0;
  std::uint64_t completion_base = 0;
};

inline std::vector<std::uint64_t> make_descriptor(const QueryProgram& q, const QueueTargets& t) {
  namespace queue = kdopcd::contract::v2::queue;
  queue::Descriptor d;  // the header; the axis entries go straight into their words
  d.tag = t.tag;
  d.query.rule = rule_code(q.rule);
  d.pending_limit = q.pending_limit;
  d.contact_base = t.contact_base;
  d.contact_capacity = t.contact_capacity;
  d.completion_base = t.completion_base;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) d.rot[3 * i + j] = (*q.M)[i][j];
  for (std::size_t i = 0; i < 3; ++i) d.trans[i] = (*q.T)[i];
  if (int(q.axes->size()) != q.k) throw std::invalid_argument("descriptor: the axis table needs k entries");
  std::vector<std::uint64_t> w(std::size_t(queue::descriptor_words(q.k)), 0);
  queue::write_header(w, d, kdopcd::contract::v2::rot_w(q.rotation_bits),
                      kdopcd::contract::v2::trans_w(q.vertex_bits, q.rotation_bits));
  const queue::AxisEntryLayout layout(q.k, q.fixed.c, q.fixed.z);
  for (std::size_t a = 0; a < q.axes->size(); ++a)
    queue::deposit_axis_entry(&w[std::size_t(queue::kAxes) + queue::kWordsPerAxisEntry * a], axis_entry((*q.axes)[a]),
                              layout);
  return w;
}

// The counter block, in register order.
template <class Lite>
std::array<std::uint64_t, kdopcd::contract::v2::kNumCounters> read_counters(Lite& lite) {
  std::array<std::uint64_t, kdopcd::contract::v2::kNumCounters> c{};
  for (int i = 0; i < kdopcd::contract::v2::kNumCounters; ++i)
    c[std::size_t(i)] = lite.read64(reg2::kCounters + 8 * std::uint32_t(i));
  return c;
}

}  // namespace kdopcd::driver::v2
