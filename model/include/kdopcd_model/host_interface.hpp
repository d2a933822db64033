#pragma once
// How the host reaches the v2 accelerator, and what that costs (docs/model-v2.md, "End to end").
// The clock count of a query (START to DONE) leaves out the host: its set-up of the axis table,
// the transfer of the query, the wait for an engine, the write-back of the contacts. With the
// command queue (HostPath::Queue) the model clocks all of them: the host writes a descriptor
// (kdopcd_contract/command_queue.hpp) into a ring in its memory and rings a doorbell, the
// accelerator fetches the descriptor by DMA, runs it, writes the contacts and a completion record
// by DMA. The interface is one of the platforms below, each cost with its reasoning.
#include <string>
#include <vector>

namespace kdopcd::model {

enum class HostPath {
  Registers,  // the host programs the registers and starts each query: clocks from START to DONE
  Queue,      // descriptors by DMA from a ring, contacts and completion records by DMA
};
HostPath parse_host_path(const std::string& name);  // "registers" | "queue"; throws InputError
const char* to_string(HostPath path);

struct HostInterface {
  std::string name;
  double doorbell_ns = 0;        // a posted MMIO write from a CPU core reaches the doorbell register
  double read_latency_ns = 0;    // a DMA read of host memory: request issued to first data beat
  double write_latency_ns = 0;   // a DMA write: last beat sent to visible to the host polling for it
  double link_gbytes_per_s = 0;  // effective payload rate of the link, each direction
  int port_bytes = 64;           // the accelerator's DMA port per clock (512 bits)
};

// "pcie-gen3x16": an accelerator card (e.g. the Alveo U55C) behind a PCIe Gen3 x16 link;
// "zynq-coherent": an accelerator beside the CPU on one chip, on a cache-coherent port (a Zynq
// UltraScale+ HPC port through the CCI). Throws InputError for any other name.
HostInterface host_interface(const std::string& name);
std::vector<std::string> host_interface_names();

// The interface in accelerator clocks at clock_mhz: latencies rounded up; the link's rate as
// beats of the DMA port per clock, beats_per_cycle / cycles_per_beat (at most one beat per clock).
struct HostClocks {
  int doorbell = 0, read_latency = 0, write_latency = 0;
  int beats_per_cycle = 1, cycles_per_beat = 1;
};
HostClocks host_clocks(const HostInterface& host, double clock_mhz);

}  // namespace kdopcd::model
