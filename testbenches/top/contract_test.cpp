// The generated contract's C++ half (contract/include/kdopcd_contract/): its words and layouts
// pack and unpack without loss, cut what does not fit and report it, lay the axis entry and the
// link word out as docs/accelerator.md and docs/formats.md state them, and agree with what the
// software writes (the tree image's link word, the driver's rule codes). The SystemVerilog half is
// checked against the same numbers by the register-file and top testbenches.
#include <gtest/gtest.h>

#include <random>

#include "kdopcd/dop_tree.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd/tree_image.hpp"
#include "kdopcd_contract/accelerator_paper.hpp"
#include "kdopcd_contract/accelerator_v2.hpp"
#include "kdopcd_contract/formats.hpp"
#include "kdopcd_driver/register_map.hpp"

namespace {

namespace cf = kdopcd::contract::format;
namespace paper = kdopcd::contract::paper;
namespace v2 = kdopcd::contract::v2;

TEST(Contract, AxisEntryLayoutIsTheDocumentedOne) {
  // docs/accelerator.md: PA0..2, PB0..2 (C+1 each), p' (Z+4), jA0..2, jB0..2 (clog2 K each), LSB first.
  for (const auto& [k, c, z] : {std::tuple{24, 18, 18}, std::tuple{26, 20, 40}, std::tuple{6, 4, 4}}) {
    int jw = 0;
    while ((1 << jw) < k) ++jw;
    EXPECT_EQ(cf::axis_entry_bits(k, c, z), 6 * (c + 1) + (z + 4) + 6 * jw);
    EXPECT_EQ(cf::axis_entry_pb_lsb(c, 0), 3 * (c + 1));
    EXPECT_EQ(cf::axis_entry_p_lsb(c), 6 * (c + 1));
    EXPECT_EQ(cf::axis_entry_ja_lsb(k, c, z, 2), 6 * (c + 1) + z + 4 + 2 * jw);
    EXPECT_EQ(cf::axis_entry_jb_lsb(k, c, z, 0), 6 * (c + 1) + z + 4 + 3 * jw);
  }
}

TEST(Contract, AxisEntryRoundTripsSignedFields) {
  std::mt19937_64 rng(7);
  const int k = 24, c = 18, z = 18;
  for (int n = 0; n < 1000; ++n) {
    cf::AxisEntry e;
    auto signed_in = [&](int bits) {
      return std::int64_t(rng() % (std::uint64_t(1) << bits)) - (std::int64_t(1) << (bits - 1));
    };
    for (std::size_t i = 0; i < 3; ++i) {
      e.pa[i] = signed_in(c + 1);
      e.pb[i] = signed_in(c + 1);
      e.ja[i] = rng() % std::uint64_t(k);
      e.jb[i] = rng() % std::uint64_t(k);
    }
    e.p = signed_in(z + 4);
    const std::vector<std::uint32_t> words = cf::pack(e, k, c, z);
    ASSERT_EQ(words.size(), std::size_t((cf::axis_entry_bits(k, c, z) + 31) / 32));
    EXPECT_EQ(cf::unpack_axis_entry(words, k, c, z), e);
  }
  // p' at its documented bit position: bit 6 (C+1) of the entry.
  cf::AxisEntry one;
  one.p = 1;
  const std::vector<std::uint32_t> w = cf::pack(one, k, c, z);
  const int at = 6 * (c + 1);
  EXPECT_EQ(w[std::size_t(at / 32)], 1u << (at % 32));
}

TEST(Contract, WordsRoundTripAndReportWhatDoesNotFit) {
  paper::Query q;
  q.axes = 12;
  q.rule = cf::DescentRule::kSecond;
  q.continue_axes = 1;
  EXPECT_EQ(paper::pack(q), 12u | 2u << 8 | 1u << 12);  // docs/accelerator.md: [7:0], [9:8], [12]
  EXPECT_EQ(paper::unpack_query(paper::pack(q)), q);
  EXPECT_TRUE(paper::fits(q));
  q.axes = 256;
  EXPECT_FALSE(paper::fits(q));
  EXPECT_EQ(paper::pack(q) & 0xFFu, 0u);

  v2::Query q2;
  q2.rule = cf::DescentRule::kFirst;
  EXPECT_EQ(v2::pack(q2), 1u << 8);

  // CONFIG values at the defaults: what docs/accelerator*.md state, field by field.
  const paper::Config1 c1 = paper::config1_value(paper::kB, paper::kC, paper::kV, paper::kM, paper::kW, paper::kMulW);
  EXPECT_EQ(paper::pack(c1), std::uint32_t(paper::kV | paper::kM << 8 | (paper::kW / 8) << 16 | paper::kSatLat << 24));
  EXPECT_EQ(paper::unpack_config1(paper::pack(c1)), c1);
  const v2::Config3 c3 = v2::config3_value(v2::kNodeAw, v2::kTriAw, v2::kPendingDepth);
  EXPECT_EQ(v2::pack(c3), std::uint32_t(v2::kNodeAw | v2::kTriAw << 8 | v2::clog2(v2::kPendingDepth) << 16));
}

TEST(Contract, PaperSatLatencyIsThePipelinesFormula) {
  // docs/rtl-sat-pipeline.md: ceil(log2(6 NA NP + 7)) + 3, NA = ceil((b+1)/(w-1)), NP = ceil(c/(w-1)).
  for (const auto& [b, c, w] : {std::tuple{18, 18, 18}, std::tuple{35, 35, 18}, std::tuple{18, 18, 25},
                                std::tuple{44, 44, 27}}) {
    const int na = (b + 1 + w - 2) / (w - 1), np = (c + w - 2) / (w - 1);
    int lv = 0;
    while ((1 << lv) < 6 * na * np + 7) ++lv;
    EXPECT_EQ(paper::sat_lat(b, c, w), lv + 3) << b << " " << c << " " << w;
  }
}

TEST(Contract, TreeImageLinkWordIsTheContractsLink) {
  const kdopcd::Mesh mesh = kdopcd::make_sphere(1.0, 2);  // the tree refers to it
  const kdopcd::DopTree tree(mesh, 24, kdopcd::kHardwareTreeBuild);
  const kdopcd::TreeImage image = kdopcd::make_tree_image(tree, kdopcd::ImageParams{18, 24, 64, 2.0});
  const std::vector<std::uint8_t> bytes = kdopcd::encode(image);
  int leaves = 0, inner = 0;
  for (std::size_t i = 0; i < image.nodes.size(); ++i) {
    std::uint64_t word = 0;
    for (int b = 7; b >= 0; --b) word = word << 8 | bytes[std::size_t(image.node_address(i)) + std::size_t(b)];
    const cf::Link link = cf::unpack_link(word);
    const kdopcd::ImageNode& node = image.nodes[i];
    ASSERT_EQ(link.leaf != 0, node.is_leaf) << "node " << i;
    if (node.is_leaf) {
      ++leaves;
      EXPECT_EQ(link.left, std::uint64_t(node.triangle));
      EXPECT_EQ(link.right, 0u);
    } else {
      ++inner;
      EXPECT_EQ(link.left, std::uint64_t(node.left));
      EXPECT_EQ(link.right, std::uint64_t(node.right));
    }
  }
  EXPECT_GT(leaves, 0);
  EXPECT_GT(inner, 0);
}

TEST(Contract, DriverRuleCodesAreTheContractsAndLargerIsRejected) {
  using kdopcd::DescentRule;
  EXPECT_EQ(kdopcd::driver::rule_code(DescentRule::Shallower), cf::DescentRule::kShallower);
  EXPECT_EQ(kdopcd::driver::rule_code(DescentRule::First), cf::DescentRule::kFirst);
  EXPECT_EQ(kdopcd::driver::rule_code(DescentRule::Second), cf::DescentRule::kSecond);
  EXPECT_THROW((void)kdopcd::driver::rule_code(DescentRule::Larger), std::invalid_argument);
}

}  // namespace
