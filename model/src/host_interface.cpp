// The host interfaces of the end-to-end model (host_interface.hpp), each cost with its source.
#include "kdopcd_model/host_interface.hpp"

#include <algorithm>
#include <cmath>

#include "kdopcd/error.hpp"

namespace kdopcd::model {

HostPath parse_host_path(const std::string& name) {
  if (name == "registers") return HostPath::Registers;
  if (name == "queue") return HostPath::Queue;
  throw InputError("host path must be registers or queue (got '" + name + "')");
}
const char* to_string(HostPath path) { return path == HostPath::Registers ? "registers" : "queue"; }

std::vector<std::string> host_interface_names() { return {"pcie-gen3x16", "zynq-coherent"}; }

HostInterface host_interface(const std::string& name) {
  HostInterface h;
  h.name = name;
  if (name == "pcie-gen3x16") {
    // 16 lanes at 8 GT/s with 128b/130b coding carry 15.75 GB/s per direction; TLPs of a 256-byte
    // payload carry about 24 bytes of header, sequence number, LCRC and framing (91 %), and
    // flow-control and ACK DLLPs take a few percent more: DMA engines of Gen3 x16 cards are
    // measured at 12-13 GB/s. 12 GB/s is 48 bytes per clock at 250 MHz, under the 64 of a
    // 512-bit port. A DMA read of host memory crosses the root complex twice and the memory
    // controller once: about 1 us on current servers (0.8-1.5 us measured on Xeon and EPYC
    // hosts). A posted MMIO write (the doorbell) takes one way of that: 0.4 us. A DMA write is
    // posted too; it is visible when it reaches host memory and the host's next poll of the
    // invalidated cache line misses: 0.5 us.
    h.doorbell_ns = 400;
    h.read_latency_ns = 1000;
    h.write_latency_ns = 500;
    h.link_gbytes_per_s = 12;
    h.port_bytes = 64;
  } else if (name == "zynq-coherent") {
    // A Zynq UltraScale+ with the accelerator on an HPC port (128 bits) through the CCI-400, so
    // its reads snoop the CPU caches and its writes land where the CPU polls: about 200 ns for a
    // read of DDR4 through the interconnect, 100 ns for a doorbell written by the CPU through the
    // HPM port, 150 ns for a write to become visible to the polling core. The port carries 16
    // bytes per clock; at 250 MHz that is 4 GB/s (the link of this platform is the port).
    h.doorbell_ns = 100;
    h.read_latency_ns = 200;
    h.write_latency_ns = 150;
    h.link_gbytes_per_s = 4;
    h.port_bytes = 16;
  } else {
    throw InputError("host interface must be pcie-gen3x16 or zynq-coherent (got '" + name + "')");
  }
  return h;
}

HostClocks host_clocks(const HostInterface& host, double clock_mhz) {
  auto clocks = [&](double ns) { return int(std::ceil(ns * clock_mhz / 1000.0 - 1e-9)); };
  HostClocks c;
  c.doorbell = clocks(host.doorbell_ns);
  c.read_latency = clocks(host.read_latency_ns);
  c.write_latency = clocks(host.write_latency_ns);
  // Bytes per clock, as a fraction of the 64-byte beat in sixteenths (rounded down: never faster
  // than the link), at most one beat per clock and at least a sixteenth.
  const double bytes_per_clock = std::min(double(host.port_bytes), host.link_gbytes_per_s * 1000.0 / clock_mhz);
  c.cycles_per_beat = 16;
  c.beats_per_cycle = std::clamp(int(std::floor(bytes_per_clock / 64.0 * 16.0 + 1e-9)), 1, 16);
  return c;
}

}  // namespace kdopcd::model
