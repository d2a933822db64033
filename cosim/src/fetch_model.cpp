// The fetch block at signal level (fetch_model.hpp); names as in rtl/v2/kdopcd_v2_fetch.sv and
// rtl/v2/kdopcd_v2_ram.sv.
#include "fetch_model.hpp"

namespace kdopcd::cosim {

namespace {
template <int W>
PortT<W> to_port(const BusWords<W>& b) {
  if constexpr (W > 64) {
    return b.bv();
  } else {
    return PortT<W>(b.get(0, W));
  }
}
}  // namespace

FetchModel::FetchModel(sc_core::sc_module_name name) : sc_module(name) {
  SC_METHOD(on_clock);
  sensitive << clk_i.pos();
  dont_initialize();
}

template <class Words>
const Words& FetchModel::read(const std::vector<Words>& mem, std::uint64_t addr) {
  static const Words zero{};
  return addr < mem.size() ? mem[std::size_t(addr)] : zero;
}

void FetchModel::on_clock() {
  // Reads first (the array as it was during the clock), then the writes of the clock.
  constexpr std::uint64_t kNodeMask = (std::uint64_t(1) << c2::kNodeAw) - 1;
  constexpr std::uint64_t kTriMask = (std::uint64_t(1) << c2::kTriAw) - 1;
  Out rd;
  for (int t = 0; t < 2; ++t) {
    rd.node[std::size_t(t)] = read(nodes_[std::size_t(t)], (node_raddr_q_ >> (t * c2::kNodeAw)) & kNodeMask);
    rd.tri[std::size_t(t)] = read(tris_[std::size_t(t)], (tri_raddr_q_ >> (t * c2::kTriAw)) & kTriMask);
  }
  const Out& out = out_q_.step(rd);
  node_raddr_q_ = std::uint64_t(node_raddr_i.read());
  tri_raddr_q_ = std::uint64_t(tri_raddr_i.read());
  for (int t = 0; t < 2; ++t) {
    if ((node_we_i.read() >> t) & 1) {
      auto& mem = nodes_[std::size_t(t)];
      const std::size_t a = std::size_t(node_waddr_i.read());
      if (a >= mem.size()) mem.resize(a + 1);
      mem[a] = NodeWords::of(node_wdata_i.read());
    }
    if ((tri_we_i.read() >> t) & 1) {
      auto& mem = tris_[std::size_t(t)];
      const std::size_t a = std::size_t(tri_waddr_i.read());
      if (a >= mem.size()) mem.resize(a + 1);
      mem[a] = TriWords::of(tri_wdata_i.read());
    }
  }

  // The outputs: the output registers, split as the RTL's assigns. The link word is the record's
  // first two 32-bit words, the coefficient vector the words after it.
  static_assert(kNodeBits == 64 + kCoefBusW);
  BusWords<kLinkBusW> link;
  BusWords<kCoefBusW> ca, cb;
  for (int t = 0; t < 2; ++t)
    for (int i = 0; i < 2; ++i) link.w[std::size_t(2 * t + i)] = out.node[std::size_t(t)].w[std::size_t(i)];
  for (std::size_t i = 0; i < ca.w.size(); ++i) {
    ca.w[i] = out.node[1].w[i + 2];
    cb.w[i] = out.node[0].w[i + 2];
  }
  node_link_o.write(to_port(link));
  coef_a_o.write(to_port(ca));
  coef_b_o.write(to_port(cb));
  tri_a_o.write(to_port(out.tri[0]));
  tri_b_o.write(to_port(out.tri[1]));
}

}  // namespace kdopcd::cosim
