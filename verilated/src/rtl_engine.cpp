// kdopcd_rtl_engine: the Verilated SAT pipeline for the compiled parameter sets
// (verilated/include/kdopcd/rtl_engine.hpp).
#include "kdopcd/rtl_engine.hpp"

#include <fmt/format.h>

#include <deque>
#include <memory>
#include <random>
#include <stdexcept>

#include "Vkdopcd_sat_18_18_18.h"
#include "Vkdopcd_sat_35_35_35.h"
#include "kdopcd/error.hpp"
#include "kdopcd/orientations.hpp"
#include "kdopcd/rtl_stream.hpp"

namespace kdopcd {
namespace {

constexpr int kEngineK = 24;

bool same(const FixedParams& a, const FixedParams& b) { return a.b == b.b && a.c == b.c && a.z == b.z; }

// Streams vectors[first, last) through a fresh model, one per clock, and stores the results.
template <class Model>
void run_group(const std::vector<TestVector>& vectors, std::size_t first, std::size_t last,
               std::vector<RtlDiffs>& out) {
  const FixedParams bits = vectors[first].bits;
  rtl::PipelineShape shape;
  shape.k = kEngineK;
  shape.b = bits.b;
  shape.c = bits.c;
  shape.z = bits.z;
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  auto model = std::make_unique<Model>(ctx.get());
  rtl::SatStream<Model> stream(*model, *ctx, shape);
  stream.reset();
  const auto& triples = orientation_set(kEngineK).vertex_triples();
  std::mt19937_64 rng(0x6b646f70u);  // fixed: the engine's output must not depend on a seed anyway
  std::deque<std::size_t> in_flight;
  std::size_t next = first;
  auto take = [&](const std::optional<rtl::AxisResult>& r) {
    if (!r) return;
    if (in_flight.empty()) throw std::logic_error("rtl engine: a result came out with no test in flight");
    const std::size_t index = in_flight.front();
    in_flight.pop_front();
    const std::uint32_t pair = std::uint32_t(index & 0xffffu), axis = std::uint32_t((index >> 16) & 0xffu);
    if (r->pair != pair || r->axis != axis)
      throw std::logic_error(fmt::format("rtl engine: result out of order (tag {}:{}, expected {}:{})", r->pair,
                                         r->axis, pair, axis));
    out[index] = RtlDiffs{r->diff1, r->diff2, r->verdict};
  };
  rtl::AxisTest test;
  while (next < last) {
    test.ops = quantized_operands(vectors[next]);
    rtl::place(test, kEngineK, bits.b, triples, rng);
    test.pair = std::uint32_t(next & 0xffffu);
    test.axis = std::uint32_t((next >> 16) & 0xffu);
    test.last = false;
    in_flight.push_back(next);
    ++next;
    take(stream.clock(&test, true, std::nullopt));
  }
  for (int i = 0; i < shape.latency() + 2 && !in_flight.empty(); ++i) take(stream.clock(nullptr, false, std::nullopt));
  if (!in_flight.empty())
    throw std::logic_error(fmt::format("rtl engine: {} results missing after the pipeline drained", in_flight.size()));
  model->final();
}

}  // namespace

const std::vector<FixedParams>& rtl_compiled_params() {
  static const std::vector<FixedParams> params{{18, 18, 18}, {35, 35, 35}};
  return params;
}

bool rtl_has_params(const FixedParams& p) {
  for (const FixedParams& q : rtl_compiled_params())
    if (same(p, q)) return true;
  return false;
}

std::string rtl_compiled_params_text() {
  std::string s;
  const auto& all = rtl_compiled_params();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i != 0) s += i + 1 == all.size() ? " and " : ", ";
    s += fmt::format("{},{},{}", all[i].b, all[i].c, all[i].z);
  }
  return s;
}

int rtl_latency(const FixedParams& p, int mul_w) {
  rtl::PipelineShape shape;
  shape.k = kEngineK;
  shape.b = p.b;
  shape.c = p.c;
  shape.z = p.z;
  shape.mul_w = mul_w;
  return shape.latency();
}

std::vector<RtlDiffs> rtl_evaluate(const std::vector<TestVector>& vectors) {
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    const TestVector& v = vectors[i];
    if (!rtl_has_params(v.bits)) {
      const std::string where = v.line != 0 ? fmt::format("vector line {}", v.line) : fmt::format("vector {}", i);
      throw InputError(fmt::format("{}: b,c,z = {},{},{} is not compiled into the RTL engine (compiled: {})", where,
                                   v.bits.b, v.bits.c, v.bits.z, rtl_compiled_params_text()));
    }
  }
  std::vector<RtlDiffs> out(vectors.size());
  // Runs of vectors with the same b c z go through one model instance, in file order.
  for (std::size_t first = 0; first < vectors.size();) {
    std::size_t last = first + 1;
    while (last < vectors.size() && same(vectors[last].bits, vectors[first].bits)) ++last;
    if (same(vectors[first].bits, FixedParams{18, 18, 18}))
      run_group<Vkdopcd_sat_18_18_18>(vectors, first, last, out);
    else
      run_group<Vkdopcd_sat_35_35_35>(vectors, first, last, out);
    first = last;
  }
  return out;
}

std::vector<std::string> rtl_sat_eval(const std::vector<TestVector>& vectors) {
  std::vector<std::string> lines;
  const std::vector<RtlDiffs> diffs = rtl_evaluate(vectors);
  lines.reserve(diffs.size());
  for (const RtlDiffs& d : diffs)
    lines.push_back(fmt::format("{} {} {}", to_decimal(d.diff1), to_decimal(d.diff2), d.verdict ? 1 : 0));
  return lines;
}

}  // namespace kdopcd
