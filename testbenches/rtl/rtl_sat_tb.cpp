// Verilator (--cc) testbench of the SAT pipeline rtl/common/kdopcd_sat_pipeline.sv
// (docs/rtl-sat-pipeline.md).
//
//   rtl_sat_tb --vectors FILE            prints "diff1 diff2 verdict" per vector: the same lines
//                                        as `kdop sat-eval --vectors FILE`
//   rtl_sat_tb --random N --bits B,C,Z   edge vectors + N random vectors against the reference's
//                                        integer evaluation (fixed_diffs), bit for bit
//   rtl_sat_tb --cancel N --bits B,C,Z   controller-like stream of N axis tests with cancels
// Common: --seed S, --bubble P (probability of an idle clock, random data on the bus),
// --trace FILE.fst (waves), --coverage FILE.dat (coverage build only), --dump FILE (Q lines of
// the random vectors). Every mode checks that each result comes out exactly `latency` clocks
// after its test went in, in order, with its tag (so: one result per clock at full rate).
//
// Placement: each vector's 12 coefficients go to a random valid face triple of the 24-DOP
// (orientation_set(24).vertex_triples(), shuffled), the other 12 slots get random values.
#include <verilated.h>
#if VM_TRACE
#include <verilated_fst_c.h>
#endif
#if VM_COVERAGE
#include <verilated_cov.h>
#endif

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <memory>
#include <optional>
#include <random>

#include "Vkdopcd_sat_18_18_18.h"
#include "Vkdopcd_sat_35_35_35.h"
#include "kdopcd/error.hpp"
#include "kdopcd/orientations.hpp"
#include "kdopcd/rtl_stream.hpp"
#include "kdopcd/test_vectors.hpp"

using namespace kdopcd;
using rtl::AxisResult;
using rtl::AxisTest;

namespace {

constexpr int kK = 24;

struct Options {
  std::string vectors;
  std::uint64_t random = 0;
  std::uint64_t cancel = 0;
  std::string bits = "18,18,18";
  std::uint64_t seed = 1;
  double bubble = 0.2;
  std::string trace, coverage, dump;
};

bool same(const FixedParams& a, const FixedParams& b) { return a.b == b.b && a.c == b.c && a.z == b.z; }

// ------------------------------------------------------------------------------ stimulus
// Random operands in the reference's ranges with edge values mixed in.
class OperandGen {
 public:
  OperandGen(const FixedParams& f, std::uint64_t seed) : f_(f), rng_(seed) {
    cmax_ = std::int64_t(1) << f.b;
    pmax_ = std::int64_t(1) << f.c;
    omax_ = std::int64_t(1) << (f.z + 2);
  }
  std::mt19937_64& rng() { return rng_; }

  // The deterministic edge vectors: every (coefficient, mapping, offset) edge value on all fields
  // at once, and the exactly-touching constructions (diff = 0) with their +-1 neighbours.
  std::vector<FixedOperands> edge_vectors() const {
    std::vector<FixedOperands> out;
    for (std::int64_t cv : coef_edges())
      for (std::int64_t mv : map_edges())
        for (std::int64_t pv : off_edges()) {
          FixedOperands o{};
          for (int i = 0; i < 3; ++i) {
            o.PA[i] = o.PB[i] = mv;
            o.a[i] = o.ak[i] = o.b[i] = o.bk[i] = cv;
          }
          o.p = pv;
          out.push_back(o);
        }
    // Mixed signs: A all at +max, B all at -max and the reverse, with the extreme mappings.
    for (int flip = 0; flip < 2; ++flip)
      for (std::int64_t mv : map_edges())
        for (std::int64_t pv : off_edges()) {
          FixedOperands o{};
          for (int i = 0; i < 3; ++i) {
            o.PA[i] = o.PB[i] = mv;
            o.a[i] = o.ak[i] = flip ? -cmax_ : cmax_;
            o.b[i] = o.bk[i] = flip ? cmax_ : -cmax_;
          }
          o.p = pv;
          out.push_back(o);
        }
    // Touching: with P'A = P'B = (-2^c, 0, 0) and positive coefficients, diff1' = 2^c (p'' - a0 -
    // bk0) where p'' = p' 2^(b-z) (z >= b), so p' = (a0 + bk0) 2^(z-b) gives diff1' = 0.
    if (f_.z >= f_.b && f_.z - f_.b <= 2) {
      const std::int64_t scale = std::int64_t(1) << (f_.z - f_.b);
      for (std::int64_t x : {std::int64_t(1), std::int64_t(3), cmax_ / 2, cmax_ - 1, cmax_})
        for (int delta = -1; delta <= 1; ++delta) {
          FixedOperands o{};
          o.PA[0] = o.PB[0] = -pmax_;
          for (int i = 0; i < 3; ++i) o.a[i] = o.ak[i] = o.b[i] = o.bk[i] = x;
          o.p = 2 * x * scale + delta;
          out.push_back(o);
          o.p = -2 * x * scale - 1 + delta;  // diff2' = -2^c (b0 + ak0) - (p'+1) 2^(b+c-z)
          out.push_back(o);
        }
    }
    return out;
  }

  FixedOperands random() {
    FixedOperands o{};
    const int mode = pick(100);
    if (mode < 20) {  // uniform, 10% of the fields at an edge value
      fill(o, [&] { return chance(0.1) ? one_of(coef_edges()) : uni(-cmax_, cmax_); },
           [&] { return chance(0.1) ? one_of(map_edges()) : uni(-pmax_, 0); });
      o.p = chance(0.1) ? one_of(off_edges()) : uni(-omax_, omax_);
    } else if (mode < 30) {  // sign classes: each triple all negative or all positive
      fill(o, [&] { return uni(-cmax_, cmax_); }, [&] { return uni(-pmax_, 0); });
      for (std::int64_t* t : {o.a, o.ak, o.b, o.bk}) {
        const bool neg = chance(0.5);
        for (int i = 0; i < 3; ++i) t[i] = neg ? -uni(1, cmax_) : uni(0, cmax_);
      }
      o.p = uni(-omax_, omax_);
    } else if (mode < 45) {  // every field an edge value
      fill(o, [&] { return one_of(coef_edges()); }, [&] { return one_of(map_edges()); });
      o.p = one_of(off_edges());
    } else if (mode < 55) {  // small magnitudes: many zero products and diffs
      fill(o, [&] { return uni(-4, 4); }, [&] { return uni(-4, 0); });
      o.p = uni(-4, 4);
    } else {  // real DOPs (a_j + a_{j+k/2} >= 0: non-empty slabs), p' uniform or near a boundary
      fill(o, [&] { return uni(-cmax_, cmax_); }, [&] { return uni(-pmax_, 0); });
      for (int i = 0; i < 3; ++i) {
        o.ak[i] = uni(-o.a[i], cmax_);
        o.bk[i] = uni(-o.b[i], cmax_);
        if (chance(0.5)) std::swap(o.a[i], o.ak[i]);
        if (chance(0.5)) std::swap(o.b[i], o.bk[i]);
      }
      if (mode < 65) {
        o.p = uni(-omax_, omax_);
      } else {  // p' placed so that diff1' or diff2' is near 0 (the strict sign test)
        o.p = 0;
        const FixedDiffs d0 = fixed_diffs<true>(o, f_);
        const int e = f_.b + f_.c - f_.z;
        const bool first = chance(0.5);
        // diff1' = S1 + p' 2^e, diff2' = S2 - (p'+1) 2^e with S2 = diff2'(p'=0) + 2^e
        const __int128 s = first ? -d0.diff1 : d0.diff2 + (e >= 0 ? (__int128(1) << e) : 1);
        __int128 target = e >= 0 ? (s >> e) : (s << (-e));
        if (!first) target -= 1;
        target += uni(-2, 2);
        o.p = std::int64_t(std::max<__int128>(-omax_, std::min<__int128>(omax_, target)));
      }
    }
    return o;
  }

 private:
  template <class C, class M>
  void fill(FixedOperands& o, C coef, M map) {
    for (int i = 0; i < 3; ++i) {
      o.PA[i] = map();
      o.PB[i] = map();
      o.a[i] = coef();
      o.ak[i] = coef();
      o.b[i] = coef();
      o.bk[i] = coef();
    }
  }
  std::vector<std::int64_t> coef_edges() const { return {-cmax_, -cmax_ + 1, -1, 0, 1, cmax_ - 1, cmax_}; }
  std::vector<std::int64_t> map_edges() const { return {-pmax_, -pmax_ + 1, -1, 0}; }
  std::vector<std::int64_t> off_edges() const { return {-omax_, -omax_ + 1, -1, 0, 1, omax_ - 1, omax_}; }
  std::int64_t uni(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_); }
  int pick(int n) { return int(uni(0, n - 1)); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  std::int64_t one_of(const std::vector<std::int64_t>& v) { return v[std::size_t(pick(int(v.size())))]; }

  FixedParams f_;
  std::mt19937_64 rng_;
  std::int64_t cmax_, pmax_, omax_;
};

// ------------------------------------------------------------------------------ runner
struct Expected {
  std::uint64_t index = 0;  // the caller's number of the test
  std::uint32_t pair = 0, axis = 0;
  bool last = false;
  FixedDiffs diffs{};       // the reference's result (checked when check_diffs)
  std::uint64_t issue = 0;  // clock at which valid_i was sampled (set by the runner)
  bool dropped = false;     // removed by a cancel (set by the runner)
};

struct Delivered {
  AxisResult r;
  Expected e;
};

struct Stats {
  std::uint64_t tests = 0, results = 0, mismatches = 0, bubbles = 0, cycles = 0, separated = 0, dropped = 0;
  std::uint64_t cancels = 0, zero_diffs = 0, dropped_at_issue = 0;
};

#if VM_COVERAGE
int coverage_files_written = 0;
#endif

template <class Model>
class Runner {
 public:
  Runner(const FixedParams& f, const Options& opt, bool check_diffs)
      : opt_(opt), check_diffs_(check_diffs), ctx_(std::make_unique<VerilatedContext>()),
        rng_(opt.seed ^ 0x9e3779b97f4a7c15ull) {
    shape_.k = kK;
    shape_.b = f.b;
    shape_.c = f.c;
    shape_.z = f.z;
#if VM_TRACE
    if (!opt.trace.empty()) ctx_->traceEverOn(true);
#endif
    model_ = std::make_unique<Model>(ctx_.get());
    stream_ = std::make_unique<rtl::SatStream<Model>>(*model_, *ctx_, shape_);
#if VM_TRACE
    if (!opt.trace.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      model_->trace(fst_.get(), 99);
      fst_->open(opt.trace.c_str());
      stream_->on_eval([this] { fst_->dump(ctx_->time()); });
    }
#else
    if (!opt.trace.empty()) throw InputError("--trace: this testbench was built without TRACE_FST");
#endif
#if !VM_COVERAGE
    if (!opt.coverage.empty()) throw InputError("--coverage: use the coverage build (rtl_sat_tb_cov)");
#endif
    stream_->reset();
    // Data on the bus during bubbles: real-looking tests that must never come out.
    OperandGen g(f, opt.seed + 77);
    for (auto& t : garbage_) {
      t.ops = g.random();
      rtl::place(t, kK, f.b, triples(), rng_);
      t.pair = std::uint32_t(rng_()) & 0xffffu;
      t.axis = std::uint32_t(rng_()) & 0xffu;
      t.last = (rng_() & 1) != 0;
    }
  }

  ~Runner() {
    model_->final();
#if VM_TRACE
    if (fst_) fst_->close();
#endif
#if VM_COVERAGE
    if (!opt_.coverage.empty()) {
      const std::string name = coverage_files_written == 0 ? opt_.coverage
                                                            : fmt::format("{}.{}", opt_.coverage, coverage_files_written);
      ctx_->coveragep()->write(name.c_str());
      ++coverage_files_written;
    }
#endif
  }

  const rtl::PipelineShape& shape() const { return shape_; }
  static const std::vector<std::array<int, 3>>& triples() { return orientation_set(kK).vertex_triples(); }
  std::mt19937_64& rng() { return rng_; }
  bool chance(double p) { return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

  // One clock. test null: a bubble (valid_i = 0, garbage on the bus). A cancel drops every
  // in-flight test of the pair that has not come out before this clock, this clock's input
  // included. Checks that each test that is not dropped comes out exactly latency - 1 clocks
  // after the one that took it (= valid_o in cycle t + latency), in order, with its tag (and
  // diffs and verdict when check_diffs), and that nothing else comes out.
  std::optional<Delivered> clock(const AxisTest* test, const Expected* expect, std::optional<std::uint32_t> cancel,
                                 Stats& st) {
    const std::uint64_t now = stream_->cycles();
    if (cancel) {
      ++st.cancels;
      for (Expected& e : flight_)
        if (e.pair == *cancel) e.dropped = true;
    }
    std::optional<AxisResult> r;
    if (test) {
      Expected e = *expect;
      e.issue = now;
      e.dropped = cancel && e.pair == *cancel;
      st.dropped_at_issue += e.dropped;
      flight_.push_back(e);
      r = stream_->clock(test, true, cancel);
      ++st.tests;
    } else {
      r = stream_->clock(&garbage_[std::size_t(rng_() % garbage_.size())], false, cancel);
      ++st.bubbles;
    }
    ++st.cycles;
    std::optional<Delivered> out;
    const std::uint64_t lat = std::uint64_t(shape_.latency());
    while (!flight_.empty() && flight_.front().issue + lat - 1 <= now) {
      const Expected e = flight_.front();
      flight_.pop_front();
      if (e.dropped) {
        ++st.dropped;
        continue;
      }
      if (!r) {
        fail(st, fmt::format("test {} (pair {} axis {}) did not come out at clock {} (latency {})", e.index, e.pair,
                             e.axis, now, lat));
        continue;
      }
      check(*r, e, st);
      ++st.results;
      st.separated += r->verdict;
      st.zero_diffs += (r->diff1 == 0 || r->diff2 == 0);
      out = Delivered{*r, e};
      r.reset();
    }
    if (r) fail(st, fmt::format("unexpected result at clock {} (tag {}:{}:{})", now, r->pair, r->axis, int(r->last)));
    return out;
  }

  bool idle() const { return flight_.empty(); }
  void drain(Stats& st) {
    while (!flight_.empty()) clock(nullptr, nullptr, std::nullopt, st);
    for (int i = 0; i < 2; ++i) clock(nullptr, nullptr, std::nullopt, st);  // nothing may follow
  }

 private:
  void check(const AxisResult& r, const Expected& e, Stats& st) {
    if (r.pair != e.pair || r.axis != e.axis || r.last != e.last)
      fail(st, fmt::format("test {}: tag {}:{}:{} expected {}:{}:{}", e.index, r.pair, r.axis, int(r.last), e.pair,
                           e.axis, int(e.last)));
    else if (check_diffs_ &&
             (r.diff1 != e.diffs.diff1 || r.diff2 != e.diffs.diff2 || r.verdict != e.diffs.separated()))
      fail(st, fmt::format("test {}: rtl {} {} {}, reference {} {} {}", e.index, to_decimal(r.diff1),
                           to_decimal(r.diff2), int(r.verdict), to_decimal(e.diffs.diff1), to_decimal(e.diffs.diff2),
                           int(e.diffs.separated())));
  }
  void fail(Stats& st, const std::string& what) {
    ++st.mismatches;
    if (st.mismatches <= 10) fmt::print(stderr, "rtl_sat_tb: MISMATCH {}\n", what);
  }

  Options opt_;
  bool check_diffs_;
  rtl::PipelineShape shape_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<rtl::SatStream<Model>> stream_;
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> fst_;
#endif
  std::mt19937_64 rng_;
  std::array<AxisTest, 4> garbage_;
  std::deque<Expected> flight_;
};

std::string summary(const char* what, const FixedParams& f, const rtl::PipelineShape& s, const Stats& st,
                    double seconds) {
  return fmt::format(
      "rtl_sat_tb {} b,c,z={},{},{}: {} tests, {} results, {} mismatches, {} dropped by {} cancels, {} separated, "
      "{} with a diff = 0; latency {} clocks, {} clocks ({} bubbles), {:.2f} s",
      what, f.b, f.c, f.z, st.tests, st.results, st.mismatches, st.dropped, st.cancels, st.separated, st.zero_diffs,
      s.latency(),
      st.cycles, st.bubbles, seconds);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ------------------------------------------------------------------------------ modes
// Vectors [first, last) of one b c z: results into lines, in order. Returns the mismatches
// (latency, order, tags; the diffs themselves are what is being printed).
template <class Model>
std::uint64_t run_vectors(const std::vector<TestVector>& vs, std::size_t first, std::size_t last,
                          const Options& opt, std::vector<std::string>& lines) {
  Runner<Model> run(vs[first].bits, opt, false);
  Stats st;
  AxisTest t;
  auto keep = [&](const std::optional<Delivered>& d) {
    if (d) lines[d->e.index] = fmt::format("{} {} {}", to_decimal(d->r.diff1), to_decimal(d->r.diff2), d->r.verdict ? 1 : 0);
  };
  for (std::size_t i = first; i < last; ++i) {
    while (run.chance(opt.bubble)) keep(run.clock(nullptr, nullptr, std::nullopt, st));
    t.ops = quantized_operands(vs[i]);
    rtl::place(t, kK, vs[i].bits.b, Runner<Model>::triples(), run.rng());
    Expected e;
    e.index = i;
    e.pair = t.pair = std::uint32_t(i & 0xffffu);
    e.axis = t.axis = std::uint32_t((i >> 16) & 0xffu);
    e.last = t.last = (i + 1 == last);
    keep(run.clock(&t, &e, std::nullopt, st));
  }
  while (!run.idle()) keep(run.clock(nullptr, nullptr, std::nullopt, st));
  run.drain(st);
  return st.mismatches;
}

template <class Model>
int run_random(const FixedParams& f, const Options& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  Runner<Model> run(f, opt, true);
  OperandGen gen(f, opt.seed);
  std::unique_ptr<std::ofstream> dump;
  if (!opt.dump.empty()) {
    dump = std::make_unique<std::ofstream>(opt.dump);
    if (!*dump) throw InputError(fmt::format("{}: cannot open for writing", opt.dump));
  }
  const std::vector<FixedOperands> edges = gen.edge_vectors();
  const std::uint64_t total = edges.size() + opt.random;
  Stats st;
  AxisTest t;
  for (std::uint64_t i = 0; i < total; ++i) {
    while (run.chance(opt.bubble)) run.clock(nullptr, nullptr, std::nullopt, st);
    t.ops = i < edges.size() ? edges[i] : gen.random();
    rtl::place(t, kK, f.b, Runner<Model>::triples(), run.rng());
    Expected e;
    e.index = i;
    e.pair = t.pair = std::uint32_t(i & 0xffffu);
    e.axis = t.axis = std::uint32_t(run.rng()() & 0xffu);
    e.last = t.last = (run.rng()() & 1) != 0;
    e.diffs = fixed_diffs<true>(t.ops, f);
    if (dump) {
      TestVector v;
      v.kind = TestVector::Kind::Quantized;
      v.bits = f;
      v.fixed = t.ops;
      *dump << format_test_vector(v) << '\n';
    }
    run.clock(&t, &e, std::nullopt, st);
  }
  run.drain(st);
  if (st.results != total) {
    fmt::print(stderr, "rtl_sat_tb: {} of {} results came out\n", st.results, total);
    ++st.mismatches;
  }
  fmt::print("{} ({} edge vectors)\n", summary("random", f, run.shape(), st, seconds_since(t0)), edges.size());
  return st.mismatches == 0 ? 0 : 1;
}

// A controller-like stream: pairs of 1..24 axis tests (tag axis 0.., last on the final one).
// When a result says "separated" the controller cancels that pair on the next clock and issues
// no more of its axes (in a third of the cases one more in the cancel's clock, which must be
// dropped as well); 2% of the clocks also cancel another pair still in flight. Expected:
// every test of a cancelled pair that would come out after the cancel is dropped, every other
// result is unchanged (bit-exact with the reference), nothing dropped comes out.
template <class Model>
int run_cancel(const FixedParams& f, const Options& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  Runner<Model> run(f, opt, true);
  OperandGen gen(f, opt.seed);
  Stats st;
  AxisTest t;
  std::uint32_t pair = 0;
  int axis = 0, axes = 0;
  std::optional<std::uint32_t> pending;  // cancel to assert on the next clock
  std::deque<std::uint32_t> recent;      // pair ids issued in the last latency clocks
  std::uniform_int_distribution<int> n_axes(1, 24);
  std::uint64_t issued = 0;
  auto next_pair = [&] {  // random 16-bit ids (all cancel_pair_i bits toggle); a clash only cancels more
    pair = std::uint32_t(run.rng()()) & 0xffffu;
    axis = 0;
    axes = n_axes(run.rng());
  };
  next_pair();
  while (issued < opt.cancel) {
    std::optional<std::uint32_t> cancel = pending;
    pending.reset();
    if (!cancel && !recent.empty() && run.chance(0.02))
      cancel = recent[std::size_t(run.rng()() % recent.size())];
    // The controller stops issuing a cancelled pair; in a third of the cases it is one clock late
    // and still issues an axis of it in the cancel's own clock (that test must be dropped too).
    bool late = false;
    if (cancel && *cancel == pair) {
      late = run.chance(1.0 / 3.0);
      if (!late) next_pair();
    }
    std::optional<Delivered> d;
    if (!late && run.chance(opt.bubble)) {
      d = run.clock(nullptr, nullptr, cancel, st);
    } else {
      t.ops = gen.random();
      rtl::place(t, kK, f.b, Runner<Model>::triples(), run.rng());
      Expected e;
      e.index = issued++;
      e.pair = t.pair = pair;
      e.axis = t.axis = std::uint32_t(axis);
      e.last = t.last = axis + 1 == axes;
      e.diffs = fixed_diffs<true>(t.ops, f);
      d = run.clock(&t, &e, cancel, st);
      recent.push_back(pair);
      if (recent.size() > std::size_t(run.shape().latency())) recent.pop_front();
      if (++axis == axes || late) next_pair();
    }
    if (d && d->r.verdict) pending = d->r.pair;
  }
  run.drain(st);
  if (st.dropped == 0) {
    fmt::print(stderr, "rtl_sat_tb: the cancel test dropped nothing\n");
    ++st.mismatches;
  }
  if (st.results + st.dropped != st.tests) {
    fmt::print(stderr, "rtl_sat_tb: {} results + {} dropped != {} tests\n", st.results, st.dropped, st.tests);
    ++st.mismatches;
  }
  if (st.dropped_at_issue == 0) {
    fmt::print(stderr, "rtl_sat_tb: no cancel hit a test in its own clock\n");
    ++st.mismatches;
  }
  fmt::print("{} ({} dropped in the clock they were issued)\n", summary("cancel", f, run.shape(), st, seconds_since(t0)),
             st.dropped_at_issue);
  return st.mismatches == 0 ? 0 : 1;
}

int with_model(const FixedParams& f, const Options& opt, bool cancel) {
  if (same(f, {18, 18, 18}))
    return cancel ? run_cancel<Vkdopcd_sat_18_18_18>(f, opt) : run_random<Vkdopcd_sat_18_18_18>(f, opt);
  if (same(f, {35, 35, 35}))
    return cancel ? run_cancel<Vkdopcd_sat_35_35_35>(f, opt) : run_random<Vkdopcd_sat_35_35_35>(f, opt);
  throw InputError(fmt::format("b,c,z = {},{},{} is not verilated in this testbench (compiled: 18,18,18 and 35,35,35)",
                               f.b, f.c, f.z));
}

int vectors_mode(const Options& opt) {
  const std::vector<TestVector> vs = load_test_vectors(opt.vectors);
  for (const TestVector& v : vs)
    if (!same(v.bits, {18, 18, 18}) && !same(v.bits, {35, 35, 35}))
      throw InputError(fmt::format("{}:{}: b,c,z = {},{},{} is not verilated in this testbench (compiled: 18,18,18 "
                                   "and 35,35,35)",
                                   opt.vectors, v.line, v.bits.b, v.bits.c, v.bits.z));
  std::vector<std::string> lines(vs.size());
  std::uint64_t bad = 0;
  for (std::size_t first = 0; first < vs.size();) {
    std::size_t last = first + 1;
    while (last < vs.size() && same(vs[last].bits, vs[first].bits)) ++last;
    if (same(vs[first].bits, {18, 18, 18}))
      bad += run_vectors<Vkdopcd_sat_18_18_18>(vs, first, last, opt, lines);
    else
      bad += run_vectors<Vkdopcd_sat_35_35_35>(vs, first, last, opt, lines);
    first = last;
  }
  std::string out;
  for (const std::string& l : lines) {
    out += l;
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (bad != 0) fmt::print(stderr, "rtl_sat_tb: {} pipeline protocol errors\n", bad);
  return bad == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Verilated::commandArgs(1, argv);  // no +verilator args are used
  CLI::App app{"Verilator testbench of the SAT pipeline (rtl/common/kdopcd_sat_pipeline.sv)"};
  Options opt;
  auto* vec = app.add_option("--vectors", opt.vectors, "vector file: print 'diff1 diff2 verdict' per vector");
  auto* rnd = app.add_option("--random", opt.random, "edge vectors + N random vectors against the reference");
  auto* cnc = app.add_option("--cancel", opt.cancel, "controller-like stream of N axis tests with cancels");
  vec->excludes(rnd)->excludes(cnc);
  rnd->excludes(cnc);
  app.add_option("--bits", opt.bits, "b,c,z of --random / --cancel")->capture_default_str();
  app.add_option("--seed", opt.seed, "random seed")->capture_default_str();
  app.add_option("--bubble", opt.bubble, "probability of an idle clock before each test")
      ->check(CLI::Range(0.0, 0.95))
      ->capture_default_str();
  app.add_option("--trace", opt.trace, "write FST waves to FILE");
  app.add_option("--coverage", opt.coverage, "write Verilator coverage data to FILE (coverage build)");
  app.add_option("--dump", opt.dump, "with --random: write the vectors as Q lines to FILE");
  try {
    app.parse(argc, argv);
    if (!opt.vectors.empty()) return vectors_mode(opt);
    if (*rnd || *cnc) return with_model(parse_fixed_params(opt.bits), opt, bool(*cnc));
    fmt::print(stderr, "rtl_sat_tb: give --vectors, --random or --cancel\n");
    return 2;
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const InputError& e) {
    fmt::print(stderr, "rtl_sat_tb: error: {}\n", e.what());
    return 2;
  }
}
