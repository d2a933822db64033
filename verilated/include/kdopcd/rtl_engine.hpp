#pragma once
// The Verilated RTL SAT pipeline (rtl/common/kdopcd_sat_pipeline.sv, docs/rtl-sat-pipeline.md) as an
// evaluation engine for axis-test vectors: `kdop sat-eval --engine rtl` runs this and prints
// the same lines as the reference (`kdop sat-eval`), bit for bit.
//
// The pipeline is verilated for a fixed list of parameter sets (K = 24): (b, c, z) = (18, 18, 18)
// and (35, 35, 35). A vector of any other b c z is refused with an InputError that names it.
#include <string>
#include <vector>

#include "kdopcd/fixed_format.hpp"
#include "kdopcd/test_vectors.hpp"

namespace kdopcd {

// The (b, c, z) compiled into the engine, and whether one of them is p.
const std::vector<FixedParams>& rtl_compiled_params();
bool rtl_has_params(const FixedParams& p);
// "18,18,18 and 35,35,35": for messages.
std::string rtl_compiled_params_text();

// What the pipeline's output ports gave for one vector: diff1', diff2' (scale 2^-(b+c)) and the
// pipeline's own verdict bit (not recomputed from the diffs).
struct RtlDiffs {
  __int128 diff1 = 0;
  __int128 diff2 = 0;
  bool verdict = false;
};

// The pipeline's latency in clocks for b, c, z at K = 24 and 18-bit multipliers: valid_i in cycle
// t gives valid_o in cycle t + latency (docs/rtl-sat-pipeline.md).
int rtl_latency(const FixedParams& p, int mul_w = 18);

// Streams the vectors through the Verilated pipeline, one per clock, in order (R lines are
// quantized first, as the reference does). Each vector's 12 coefficients are placed at a valid
// face triple of the 24-DOP, the other slots filled with pseudo-random coefficients (fixed seed).
// Throws InputError "<where>: b,c,z = ... is not compiled into the RTL engine (compiled: ...)"
// before simulating anything if a vector's b c z is not compiled in.
std::vector<RtlDiffs> rtl_evaluate(const std::vector<TestVector>& vectors);

// The `kdop sat-eval` lines ("diff1 diff2 verdict") of rtl_evaluate.
std::vector<std::string> rtl_sat_eval(const std::vector<TestVector>& vectors);

}  // namespace kdopcd
