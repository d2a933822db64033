// The v2 wide SAT unit under Verilator against the reference (docs/model-v2.md):
//  * one lane (own face of the first object, and of the second) bit for bit against fixed_diffs()
//    on random operands with edge values mixed in (P' = -2^C and 0, |x'| = 2^B, |p'| = 2^(Z+2));
//    the lane's own triple is its parameter default, own_direction_triple(0) of k = 24;
//  * the own-triple table the wide unit wires its lanes from (kdopcd_sat_pkg::OWN_TRIPLES)
//    against OrientationSet::own_direction_triple for every supported k;
//  * the whole unit (24 lanes, one pair per clock) against fixed_axis_diffs() per axis, on the node
//    pairs the reference traversal visits on cow/cow and elephant/hand in the four pose classes:
//    every lane verdict, the OR and the first separating axis; results in order, LAT clocks later.
#include <gtest/gtest.h>
#include <verilated.h>

#include <deque>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "Vkdopcd_sat_lane_own_a.h"
#include "Vkdopcd_sat_lane_own_b.h"
#include "Vkdopcd_sat_wide_18.h"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/orientations.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd_model/model.hpp"  // the latency contract (kWideSatLatency)
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/sat_setup.hpp"

namespace kdopcd {
namespace {

constexpr int kK = 24, kB = 18, kC = 18, kZ = 18, kJ = 5;
constexpr FixedParams kFixed{kB, kC, kZ};

// Writes `width` low bits of v at bit `pos` of a Verilator port (any width).
template <class Port>
void put(Port& port, int pos, int width, std::int64_t v) {
  for (int i = 0; i < width; ++i) {
    const int bit = pos + i;
    const std::uint32_t one = std::uint32_t((std::uint64_t(v) >> i) & 1u);
    if constexpr (std::is_integral_v<Port>) {
      port = Port((port & ~(Port(1) << bit)) | (Port(one) << bit));
    } else {
      port[bit / 32] = (port[bit / 32] & ~(1u << (bit % 32))) | (one << (bit % 32));
    }
  }
}
template <class Port>
std::int64_t get_signed(const Port& port, int width) {  // a port of at most 64 bits
  std::uint64_t v = 0;
  if constexpr (std::is_integral_v<Port>) v = std::uint64_t(port);
  else v = std::uint64_t(port[0]) | (std::uint64_t(port[1]) << 32);
  return std::int64_t(v << (64 - width)) >> (64 - width);
}

template <class Model>
void tick(Model& m) {
  m.clk_i = 0;
  m.eval();
  m.clk_i = 1;
  m.eval();
}

template <class Model>
void reset(Model& m) {
  m.rst_ni = 0;
  m.cfg_i = 0;
  m.valid_i = 0;
  tick(m);
  m.rst_ni = 1;
  tick(m);
}

struct LaneCase {
  std::int64_t x[kK], y[kK];
  int jx[3], jy[3];
  std::int64_t px[3], p;
};

// fixed_diffs for the lane's axis, in the reference's operand order.
FixedDiffs lane_reference(const LaneCase& c, bool own_first) {
  const int h = kK / 2;
  auto partner = [&](int j) { return j < h ? j + h : j - h; };
  FixedOperands o{};
  for (int m = 0; m < 3; ++m) {
    const std::int64_t own_p = m == 0 ? -(std::int64_t(1) << kC) : 0;
    if (own_first) {  // own = B (first), mapped = A
      o.PA[m] = c.px[m];
      o.PB[m] = own_p;
      o.a[m] = c.x[c.jx[m]];
      o.ak[m] = c.x[partner(c.jx[m])];
      o.b[m] = c.y[c.jy[m]];
      o.bk[m] = c.y[partner(c.jy[m])];
    } else {  // own = A (second), mapped = B
      o.PB[m] = c.px[m];
      o.PA[m] = own_p;
      o.b[m] = c.x[c.jx[m]];
      o.bk[m] = c.x[partner(c.jx[m])];
      o.a[m] = c.y[c.jy[m]];
      o.ak[m] = c.y[partner(c.jy[m])];
    }
  }
  o.p = c.p;
  return fixed_diffs<true>(o, kFixed);
}

template <class Lane>
void run_lane(bool own_first, int cases, std::uint64_t seed) {
  Lane m;
  reset(m);
  std::mt19937_64 rng(seed);
  // The lane is wired for one own triple (its parameters OWN_J0..2 at their defaults).
  const std::array<int, 3> own_j = orientation_set(kK).own_direction_triple(0).j;
  const std::int64_t cmax = std::int64_t(1) << kB, pmax = std::int64_t(1) << kC, omax = std::int64_t(1) << (kZ + 2);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {  // edge values one time in four
    const std::uint64_t r = rng() % 8;
    if (r == 0) return lo;
    if (r == 1) return hi;
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  std::deque<FixedDiffs> expected;
  int checked = 0, lat = -1, first_feed = -1;
  // The axis (jX, P'X, p') is loaded with cfg_i while the lane is empty and then serves groups of
  // cases fed one per clock; meanwhile random values on the axis ports must change nothing.
  constexpr int kGroup = 64;
  LaneCase axis{};
  int fed = 0, in_group = kGroup;
  for (int t = 0; checked < cases; ++t) {
    m.cfg_i = 0;
    m.valid_i = 0;
    if (in_group == kGroup && fed < cases) {
      if (expected.empty()) {  // drained: load the next axis
        for (int j = 0; j < 3; ++j) {
          axis.jx[j] = int(rng() % kK);
          axis.px[j] = pick(-pmax, 0);
          put(m.jx_i, j * kJ, kJ, axis.jx[j]);
          put(m.px_i, j * (kC + 1), kC + 1, axis.px[j]);
        }
        axis.p = pick(-omax, omax);
        put(m.p_i, 0, kZ + 4, axis.p);
        m.cfg_i = 1;
        in_group = 0;
      }
    } else if (fed < cases) {
      LaneCase c = axis;
      for (int i = 0; i < kK; ++i) {
        c.x[i] = pick(-cmax, cmax);
        c.y[i] = pick(-cmax, cmax);
        put(m.coef_x_i, i * (kB + 2), kB + 2, c.x[i]);
        put(m.coef_y_i, i * (kB + 2), kB + 2, c.y[i]);
      }
      for (int j = 0; j < 3; ++j) {
        c.jy[j] = own_j[std::size_t(j)];
        put(m.jx_i, j * kJ, kJ, std::int64_t(rng() % kK));  // not read without cfg_i
        put(m.px_i, j * (kC + 1), kC + 1, pick(-pmax, 0));
      }
      put(m.p_i, 0, kZ + 4, pick(-omax, omax));
      m.valid_i = 1;
      expected.push_back(lane_reference(c, own_first));
      ++fed;
      ++in_group;
      if (first_feed < 0) first_feed = t;
    }
    tick(m);
    if (m.valid_o) {
      if (lat < 0) lat = t + 1 - first_feed;
      ASSERT_FALSE(expected.empty());
      const FixedDiffs e = expected.front();
      expected.pop_front();
      ASSERT_EQ(get_signed(m.diff1_o, kB + kC + 5), std::int64_t(e.diff1)) << "case " << checked;
      ASSERT_EQ(get_signed(m.diff2_o, kB + kC + 5), std::int64_t(e.diff2)) << "case " << checked;
      ASSERT_EQ(bool(m.verdict_o), e.separated()) << "case " << checked;
      ++checked;
    }
  }
  EXPECT_EQ(lat, model::kWideSatLaneLatency);  // S1 select, S2 products, 4 adder levels, sign test
}

TEST(RtlSatWide, LaneOwnFirstBitExactOnRandomAndEdgeOperands) {
  run_lane<Vkdopcd_sat_lane_own_b>(true, 200000, 11);
}
TEST(RtlSatWide, LaneOwnSecondBitExactOnRandomAndEdgeOperands) {
  run_lane<Vkdopcd_sat_lane_own_a>(false, 200000, 12);
}

// kdopcd_sat_pkg::OWN_TRIPLES: index m of own_direction_triple(i) for k in slot order 6, 14, 18,
// 24, 26, 13 directions per slot (unused ones 0), entry (slot*13 + i)*3 + m counted from the
// least significant byte of the literal (the SystemVerilog concatenation lists it last).
TEST(RtlSatWide, OwnTripleTableEqualsReference) {
  std::ifstream in(std::string(KDOPCD_RTL_DIR) + "/common/kdopcd_sat_pkg.sv");
  ASSERT_TRUE(in) << "cannot read kdopcd_sat_pkg.sv";
  std::stringstream text;
  text << in.rdbuf();
  const std::string src = text.str();
  const std::size_t begin = src.find("OWN_TRIPLES = {");
  ASSERT_NE(begin, std::string::npos);
  const std::size_t end = src.find("};", begin);
  ASSERT_NE(end, std::string::npos);
  const std::string literal = src.substr(begin, end - begin);
  std::vector<int> entries;  // most significant first
  const std::regex byte(R"(8'd(\d+))");
  for (auto it = std::sregex_iterator(literal.begin(), literal.end(), byte); it != std::sregex_iterator(); ++it)
    entries.push_back(std::stoi((*it)[1].str()));
  constexpr int kDirs = 13;
  ASSERT_EQ(entries.size(), std::size_t(5 * kDirs * 3));
  std::reverse(entries.begin(), entries.end());
  for (std::size_t slot = 0; slot < kSupportedK.size(); ++slot) {
    const OrientationSet& set = orientation_set(kSupportedK[slot]);
    for (int i = 0; i < kDirs; ++i)
      for (int m = 0; m < 3; ++m) {
        const int expect = i < set.half() ? set.own_direction_triple(i).j[std::size_t(m)] : 0;
        EXPECT_EQ(entries[(slot * kDirs + std::size_t(i)) * 3 + std::size_t(m)], expect)
            << "k = " << set.k() << ", direction " << i << ", index " << m;
      }
  }
}

// Real node pairs: those the reference traversal visits at poses of the four classes (so both
// verdicts occur), one pair per clock: every lane, the OR and the first separating axis.
void run_wide_scene(const std::string& first_name, const std::string& second_name, double angle) {
  const Mesh ma = load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + first_name + ".off");
  const Mesh mb = load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + second_name + ".off");
  const DopTree first(ma, kK, kHardwareTreeBuild), second(mb, kK, kHardwareTreeBuild);
  const double s = scene_scale(first, second);
  const QuantizedTree qf(first, s, kB), qs(second, s, kB);
  struct Job {
    std::size_t axes_index;  // which axis table
    std::int32_t f, s;
  };
  std::vector<std::vector<QuantizedAxis>> tables;
  std::vector<Job> jobs;
  const auto poses = make_pose_classes(first, second, Eigen::Quaterniond(Eigen::AngleAxisd(angle, Vec3(1, 1, 0).normalized())),
                                       Vec3(1, 0.5, 0.25));
  for (const ClassifiedPose& cp : poses) {
    tables.push_back(quantize_setup(make_sat_setup(first.orientations(), cp.pose), s, kFixed));
    const std::size_t t = tables.size() - 1;
    traverse(first, second, kHardwareTraversal,
             [&](std::int32_t f, std::int32_t n) {
               jobs.push_back({t, f, n});
               for (int l = 0; l < kK; ++l)
                 if (fixed_axis_diffs<true>(qs.coefficients(std::size_t(n)), qf.coefficients(std::size_t(f)), kK / 2,
                                            tables[t][std::size_t(l)], kFixed)
                         .separated())
                   return PairVerdict{true, l + 1};
               return PairVerdict{false, kK};
             },
             [](std::uint32_t, std::uint32_t) { return false; });
  }
  Vkdopcd_sat_wide_18 m;
  reset(m);
  struct Expect {
    std::uint32_t lanes;
    int effective;
  };
  std::deque<Expect> expected;
  std::size_t fed = 0, checked = 0, separated = 0;
  int ticks = 0, first_feed = -1, lat = -1;
  auto clock = [&] {  // one clock; checks the result that comes out
    tick(m);
    ++ticks;
    if (!m.valid_o) return;
    if (lat < 0) lat = ticks - first_feed;
    ASSERT_FALSE(expected.empty());
    const Expect e = expected.front();
    expected.pop_front();
    ASSERT_EQ(std::uint32_t(m.lane_verdict_o), e.lanes) << "pair " << checked;
    ASSERT_EQ(bool(m.separated_o), e.lanes != 0) << "pair " << checked;
    ASSERT_EQ(int(m.effective_o), e.effective) << "pair " << checked;
    separated += e.lanes != 0;
    ++checked;
  };
  std::size_t loaded = tables.size();
  while (checked < jobs.size() && !::testing::Test::HasFatalFailure()) {
    m.valid_i = 0;
    m.cfg_i = 0;
    if (fed < jobs.size()) {
      const Job& j = jobs[fed];
      if (j.axes_index != loaded) {
        // A new pose: once the unit is empty, the host's axis table is loaded into the lanes
        // (cfg_i, the query's START in the top).
        if (expected.empty()) {
          loaded = j.axes_index;
          for (int l = 0; l < kK; ++l) {
            const QuantizedAxis& ax = tables[loaded][std::size_t(l)];
            for (int q = 0; q < 3; ++q) {
              put(m.ja_i, (l * 3 + q) * kJ, kJ, ax.jA[q]);
              put(m.jb_i, (l * 3 + q) * kJ, kJ, ax.jB[q]);
              put(m.pa_i, (l * 3 + q) * (kC + 1), kC + 1, ax.PA[q]);
              put(m.pb_i, (l * 3 + q) * (kC + 1), kC + 1, ax.PB[q]);
            }
            put(m.p_i, l * (kZ + 4), kZ + 4, ax.p);
          }
          m.cfg_i = 1;
        }
      } else {
        const std::int64_t* a = qs.coefficients(std::size_t(j.s));
        const std::int64_t* b = qf.coefficients(std::size_t(j.f));
        for (int i = 0; i < kK; ++i) {
          put(m.coef_a_i, i * (kB + 2), kB + 2, a[i]);
          put(m.coef_b_i, i * (kB + 2), kB + 2, b[i]);
        }
        Expect e{0, kK};
        for (int l = kK - 1; l >= 0; --l)
          if (fixed_axis_diffs<true>(a, b, kK / 2, tables[loaded][std::size_t(l)], kFixed).separated()) {
            e.lanes |= 1u << l;
            e.effective = l + 1;
          }
        expected.push_back(e);
        m.valid_i = 1;
        if (first_feed < 0) first_feed = ticks;
        ++fed;
      }
    }
    clock();
  }
  EXPECT_EQ(lat, model::kWideSatLatency);
  EXPECT_GT(jobs.size(), 1000u);
  // Both verdicts occur often (the test does not pass trivially on one of them).
  EXPECT_GT(separated, jobs.size() / 10);
  EXPECT_LT(separated, jobs.size() * 9 / 10);
}

TEST(RtlSatWide, WideUnitEqualsReferenceOnCowNodePairs) { run_wide_scene("cow", "cow", 0.6); }
TEST(RtlSatWide, WideUnitEqualsReferenceOnElephantHandNodePairs) { run_wide_scene("elephant", "hand", 1.3); }

}  // namespace
}  // namespace kdopcd
