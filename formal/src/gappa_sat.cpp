// Gappa scripts of the fixed-point SAT's proofs (gappa_sat.hpp, docs/formal.md).
//
// Notation of the scripts (docs/fixed-point.md §3-§6), everything in units of the scene scale:
//   a<o><i>   the real coefficient of object o (A: the placed one, B: the other) at the i-th face
//             of its triple, in [-1, 1];  x<o><i> = cu(a<o><i>), its quantization (ceil at 2^-b);
//   P<o><i>   the real mapping entry, in [-1, 0];  Q<o><i> = md(P<o><i>) (floor at 2^-c);
//   m<o><i>   sn's summand min(x, 0): a variable, see "the sign correction" below;
//   p         L . T_c scaled, clamped to [-4, 4];  pq = od(p) (floor at 2^-z).
// Only one difference is written per script: diff1 = P_A.a + P_B.bk + p has the same form as
// diff2 = P_B.b + P_A.ak - p with the roles of the objects' faces renamed, so proving both forms
// with free coefficients covers both differences of every axis.
//
// The sign correction. Gappa has no min(), and a script with a case split on the sign of each of
// the six x's (64 cases of the whole sum) takes minutes. So the proof is in two steps, both in
// Gappa: the lemma (script "sign-correction") proves, for one component and each sign of x with
// m = min(x, 0) written out (m = x for x <= 0, m = 0 for x >= 0; both cases include x = 0, where
// they agree), that G = x (P - Q) - 2^-c m lies in [0, 2^-c], that T - P >= -2^-c for
// T = Q x + 2^-c m, and that m lies in [-1, 0]. The other scripts take m free and those
// three facts as hypotheses per component. Instantiating m := min(x, 0) is the one step outside
// Gappa, and the lemma's two cases cover every x.
#include "kdopcd_formal/gappa_sat.hpp"

#include "gappa_text.hpp"

#include <fmt/format.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <string>

#include "kdopcd/bound_check.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/orientations.hpp"
#include "kdopcd/sat_fixed.hpp"

namespace kdopcd::formal {
namespace {

using boost::multiprecision::cpp_int;
using gappa_text::dyadic;
using gappa_text::fits;
using gappa_text::pow2_neg;

// The six components of a difference: object A's three faces, then object B's.
constexpr const char* kComponents[6] = {"A0", "A1", "A2", "B0", "B1", "B2"};

// A double as an exact dyadic (it must be positive and finite).
struct ExactDouble {
  cpp_int mantissa;
  int exponent = 0;  // value = mantissa 2^exponent
};
ExactDouble exact(double x) {
  int e = 0;
  const double f = std::frexp(x, &e);  // x = f 2^e, f in [0.5, 1)
  ExactDouble d;
  d.mantissa = cpp_int(static_cast<long long>(std::ldexp(f, 53)));
  d.exponent = e - 53;
  return d;
}

template <class F>
std::string over_components(F&& f, const std::string& separator) {
  std::vector<std::string> parts;
  for (const char* c : kComponents) parts.push_back(f(std::string(c)));
  return fmt::format("{}", fmt::join(parts, separator));
}

struct Builder {
  FixedParams bits;
  SatMutant mutant;
  std::string radius;  // r, dyadic
  ProvenBound bound;

  bool shifted() const { return bits.z > bits.b + bits.c; }
  bool is(SatMutant m) const { return mutant == m; }

  // Rounding operators and the quantized operands, the same in every script.
  // `components`: how many of A0, A1, A2, B0, B1, B2 the script uses.
  std::string header(int components = 6) const {
    // The bound's dyadic has up to ~100 significant bits. No automatic bisection: no proof needs
    // one, and without it a failing proof (a mutant) fails in a second instead of a minute.
    std::string s = "#@-Eprecision=512\n#@-Eno-auto-dichotomy\n";
    s += fmt::format("@cu = fixed<-{},{}>;  # a' = ceil(a 2^b)      (quantize_coefficient)\n", bits.b,
                     is(SatMutant::CoefficientRoundsDown) ? "dn" : "up");
    s += fmt::format("@md = fixed<-{},{}>;  # P' = floor(P 2^c)     (quantize_mapping)\n", bits.c,
                     is(SatMutant::MappingRoundsUp) ? "up" : "dn");
    s += fmt::format("@od = fixed<-{},{}>;  # p' = floor(p 2^z)     (quantize_offset)\n", bits.z,
                     is(SatMutant::OffsetRoundsUp) ? "up" : "dn");
    if (shifted()) {
      const bool wrong = is(SatMutant::ShiftRoundsWrongWay);
      s += fmt::format("@sd = fixed<-{},{}>;  # z > b+c: p' 2^(b+c-z) floored (diff1)\n", bits.b + bits.c,
                       wrong ? "up" : "dn");
      s += fmt::format("@su = fixed<-{},{}>;  # z > b+c: (p'+1) 2^(b+c-z) ceiled (diff2)\n", bits.b + bits.c,
                       wrong ? "dn" : "up");
    }
    for (int i = 0; i < components; ++i) s += fmt::format("x{0} = cu(a{0});\nQ{0} = md(P{0});\n", kComponents[i]);
    return s;
  }

  // The p terms of diff1' (a lower bound of p) and diff2' (an upper bound), in units of s.
  std::string p_low(const std::string& pq) const { return shifted() ? "sd(" + pq + ")" : pq; }
  std::string p_high(const std::string& pq) const {
    const std::string up = is(SatMutant::NoPlusOne) ? pq : "(" + pq + " + " + pow2_neg(bits.z) + ")";
    return shifted() ? "su(" + up + ")" : up;
  }

  std::string operand_hypotheses(bool cross_sums) const {
    std::vector<std::string> h;
    for (const char* c : kComponents) h.push_back(fmt::format("a{0} in [-1,1] /\\ P{0} in [-1,0]", c));
    if (cross_sums && !is(SatMutant::CrossSumUnbounded))
      for (const char* o : {"A", "B"})
        h.push_back(fmt::format("P{0}0 + P{0}1 + P{0}2 >= -{1}", o, radius));  // sum |P_i| = |L.v| <= r_max
    return fmt::format("{}", fmt::join(h, " /\\\n  "));
  }

  // sn(x') summands and G of every component (the lemma's conclusions are the hypotheses here).
  std::string component_definitions() const {
    std::string s;
    for (const char* c : kComponents) {
      s += fmt::format("T{0} = Q{0}*x{0} + {1}*m{0};\n", c, pow2_neg(bits.c));
      s += fmt::format("G{0} = x{0}*(P{0} - Q{0}) - {1}*m{0};\n", c, pow2_neg(bits.c));
    }
    return s;
  }
  std::string lemma_hypotheses() const {
    return over_components(
        [&](const std::string& c) {
          return fmt::format("G{0} in [0,{1}] /\\ T{0} - P{0} >= -{1} /\\ m{0} in [-1,0]", c, pow2_neg(bits.c));
        },
        " /\\\n  ");
  }

  // Each object's coefficient error -sum P_i (x_i - a_i), and the hint that bounds it by r 2^-b
  // through the cross sum: -sum P_i eps_i = -2^-b sum P_i + sum P_i (2^-b - eps_i), the last sum <= 0.
  std::string object_errors() const {
    std::string s;
    for (const char* o : {"A", "B"}) s += fmt::format("E{0} = -(P{0}0*(x{0}0 - a{0}0) + P{0}1*(x{0}1 - a{0}1) + P{0}2*(x{0}2 - a{0}2));\n", o);
    return s;
  }
  std::string object_error_hints() const {
    std::string s;
    const std::string u = pow2_neg(bits.b);
    for (const char* o : {"A", "B"})
      s += fmt::format(
          "E{0} -> -{1}*(P{0}0 + P{0}1 + P{0}2) + P{0}0*({1} - (x{0}0 - a{0}0)) + P{0}1*({1} - (x{0}1 - a{0}1)) + "
          "P{0}2*({1} - (x{0}2 - a{0}2));\n",
          o, u);
    return s;
  }

  std::string claimed_bound() const {
    if (!is(SatMutant::BoundOneUnitTighter)) return bound.gappa;
    // N b-E -> (N - 1) b-E: one unit in the last place of the exact dyadic, tighter.
    const std::size_t at = bound.gappa.find('b');
    cpp_int n(bound.gappa.substr(0, at));
    return cpp_int(n - 1).str() + bound.gappa.substr(at);
  }

  GappaScript sign_correction() const {
    const std::string u = pow2_neg(bits.c);
    GappaScript g{"sign-correction", "per component, with m = min(x', 0): 0 <= x'(P - P') - 2^-c m <= 2^-c, "
                                     "x'P' + 2^-c m >= P - 2^-c, -1 <= m <= 0", ""};
    std::string s = header(1);
    s += fmt::format("G_neg = xA0*(PA0 - QA0) - {0}*{1};  # x' <= 0: m = x'\n", u,
                     is(SatMutant::NoNegativeCorrection) ? "0" : "xA0");
    s += fmt::format("T_neg = QA0*xA0 + {0}*{1};\n", u, is(SatMutant::NoNegativeCorrection) ? "0" : "xA0");
    s += "G_pos = xA0*(PA0 - QA0);               # x' >= 0: m = 0\nT_pos = QA0*xA0;\n";
    s += "{ aA0 in [-1,1] /\\ PA0 in [-1,0] ->\n";
    s += fmt::format("    (xA0 <= 0 -> G_neg in [0,{0}] /\\ T_neg - PA0 >= -{0} /\\ xA0 in [-1,0])\n", u);
    s += fmt::format(" /\\ (xA0 >= 0 -> G_pos in [0,{0}] /\\ T_pos - PA0 >= -{0}) }}\n", u);
    if (!is(SatMutant::NoNegativeCorrection)) {
      s += fmt::format("G_neg -> xA0*((PA0 - QA0) - {0});\n", u);
      s += fmt::format("T_neg - PA0 -> xA0*(QA0 + {0}) - PA0;\n", u);
    }
    s += "T_pos - PA0 -> QA0*(xA0 - 1) + (QA0 - PA0);\n";
    g.text = s;
    return g;
  }

  // diff - diff' in [0, bound] for |p| <= 4. `second`: the form of diff2 (-p, p' + 1).
  GappaScript difference_error(bool second) const {
    GappaScript g{second ? "diff2-error" : "diff1-error",
                  fmt::format("|p| <= 4: 0 <= {0} - {0}' <= {1}", second ? "diff2" : "diff1", bound.gappa), ""};
    std::string s = header() + component_definitions() + object_errors();
    s += "pq = od(p);\n";
    const std::string pterm = second ? p_high("pq") : p_low("pq");
    s += "diff = " + over_components([](const std::string& c) { return "P" + c + "*a" + c; }, " + ") +
         (second ? " - p;\n" : " + p;\n");
    s += "diffq = " + over_components([](const std::string& c) { return "T" + c; }, " + ") + (second ? " - " : " + ") +
         pterm + ";\n";
    s += "{ " + operand_hypotheses(true) + " /\\\n  " + lemma_hypotheses() + " /\\\n  p in [-4,4]\n  -> diff - diffq in [0, " +
         claimed_bound() + "] }\n";
    const std::string p_error = second ? "(" + pterm + " - p)" : "(p - " + pterm + ")";
    s += "diff - diffq -> " + over_components([](const std::string& c) { return "G" + c; }, " + ") + " + EA + EB + " +
         p_error + ";\n";
    s += object_error_hints();
    // diff2's p' + 2^-z - p is p''s error plus 2^-z. (Gappa splits the shifted terms of z > b+c
    // into that and the shift's rounding by itself.)
    if (second && !is(SatMutant::NoPlusOne))
      s += fmt::format("(pq + {0}) - p -> (pq - p) + {0};\n", pow2_neg(bits.z));
    g.text = s;
    return g;
  }

  // |p| > 4: the exact difference is positive and so is the fixed one with p clamped to +-4.
  GappaScript clamp(bool second) const {
    GappaScript g{second ? "clamp-diff2" : "clamp-diff1",
                  fmt::format("{0}: {1} > 0 and {1}' >= 2^-(b+c) with p' of {2}", second ? "p <= -4" : "p >= 4",
                              second ? "diff2" : "diff1", second ? "-4" : "4"),
                  ""};
    std::string s = header() + component_definitions();
    s += second ? "pc = od(-4);\n" : "pc = od(4);\n";
    const std::string pterm = second ? p_high("pc") : p_low("pc");
    s += "dot = " + over_components([](const std::string& c) { return "P" + c + "*a" + c; }, " + ") + ";\n";
    s += second ? "diff = dot - p;\n" : "diff = dot + p;\n";
    s += "sumT = " + over_components([](const std::string& c) { return "T" + c; }, " + ") + ";\n";
    s += "diffq = sumT" + std::string(second ? " - " : " + ") + pterm + ";\n";
    s += "{ " + operand_hypotheses(true) + " /\\\n  " + lemma_hypotheses() + " /\\\n  " +
         (second ? "p in [-1b1024, -4]" : "p in [4, 1b1024]") + "\n  -> diff >= 1b-1 /\\ diffq >= " + pow2_neg(bits.b + bits.c) + " }\n";
    s += "dot -> (PA0 + PA1 + PA2) + (PB0 + PB1 + PB2) + " +
         over_components([](const std::string& c) { return "P" + c + "*(a" + c + " - 1)"; }, " + ") + ";\n";
    s += "sumT -> " + over_components([](const std::string& c) { return "(T" + c + " - P" + c + ")"; }, " + ") +
         " + (PA0 + PA1 + PA2) + (PB0 + PB1 + PB2);\n";
    g.text = s;
    return g;
  }

  // The operands fit the widths of sat_widths (the RTL lane's ports).
  GappaScript operand_widths() const {
    const SatWidths w = sat_widths(bits);
    GappaScript g{"operand-widths",
                  fmt::format("a' fits {} bits, P' {}, p' and p'+1 {}, P'a' {} (signed)", w.coefficient, w.mapping,
                              w.offset, w.product),
                  ""};
    std::string s = header(1) + "pq = od(p);\npq1 = pq + " + pow2_neg(bits.z) + ";\nprod = QA0*xA0;\n";
    s += "{ aA0 in [-1,1] /\\ PA0 in [-1,0] /\\ p in [-4,4] ->\n    " + fits("xA0", w.coefficient, bits.b) + " /\\ " +
         fits("QA0", w.mapping, bits.c) + "\n /\\ " + fits("pq", w.offset, bits.z) + " /\\ " + fits("pq1", w.offset, bits.z) +
         "\n /\\ " + fits("prod", w.product, bits.b + bits.c) + " }\n";
    g.text = s;
    return g;
  }

  // Every partial sum of diff1', diff2' (any adder tree) fits the sum width: the sum of the
  // absolute values of their terms does, for any in-range operands (test vectors may carry
  // operands no pose gives, so no cross-sum hypothesis here).
  GappaScript sum_widths() const {
    const SatWidths w = sat_widths(bits);
    const int width = w.sum - (is(SatMutant::SumOneBitNarrower) ? 1 : 0);
    GappaScript g{"sum-widths", fmt::format("every partial sum of diff1', diff2' fits {} bits (signed)", width), ""};
    std::string s = header() + "pq = od(p);\n";
    const std::string terms = over_components(
        [&](const std::string& c) { return fmt::format("|Q{0}*x{0}| + |{1}*m{0}|", c, pow2_neg(bits.c)); }, " + ");
    s += "abs1 = " + terms + " + |" + p_low("pq") + "|;\n";
    s += "abs2 = " + terms + " + |" + p_high("pq") + "|;\n";
    const int f = bits.b + bits.c;
    s += "{ " + operand_hypotheses(false) + " /\\\n  " +
         over_components([](const std::string& c) { return "m" + c + " in [-1,0]"; }, " /\\ ") +
         " /\\ p in [-4,4]\n  -> " + fits("abs1", width, f) + " /\\ " + fits("abs2", width, f) + " }\n";
    g.text = s;
    return g;
  }
};

}  // namespace

std::vector<SatMutant> all_sat_mutants() {
  return {SatMutant::BoundOneUnitTighter, SatMutant::CoefficientRoundsDown, SatMutant::MappingRoundsUp,
          SatMutant::OffsetRoundsUp,      SatMutant::NoPlusOne,             SatMutant::NoNegativeCorrection,
          SatMutant::CrossSumUnbounded,   SatMutant::SumOneBitNarrower,     SatMutant::ShiftRoundsWrongWay};
}

std::string_view mutant_name(SatMutant m) {
  switch (m) {
    case SatMutant::None: return "none";
    case SatMutant::BoundOneUnitTighter: return "bound-one-unit-tighter";
    case SatMutant::CoefficientRoundsDown: return "coefficient-rounds-down";
    case SatMutant::MappingRoundsUp: return "mapping-rounds-up";
    case SatMutant::OffsetRoundsUp: return "offset-rounds-up";
    case SatMutant::NoPlusOne: return "no-plus-one";
    case SatMutant::NoNegativeCorrection: return "no-negative-correction";
    case SatMutant::CrossSumUnbounded: return "cross-sum-unbounded";
    case SatMutant::SumOneBitNarrower: return "sum-one-bit-narrower";
    case SatMutant::ShiftRoundsWrongWay: return "shift-rounds-wrong-way";
  }
  return "?";
}

ProvenBound proven_sat_bound(const FixedParams& bits, int k) {
  validate_fixed_params(bits);
  ProvenBound b;
  b.radius = tight_bound_radius(orientation_set(k).r_max());
  // bound 2^D = N 2^(D + e + 1 - b) + 6 2^(D - c) + offset share 2^D, r = N 2^e.
  const ExactDouble r = exact(b.radius);
  const int D = std::max({-(r.exponent + 1 - bits.b), bits.c, bits.z, bits.b + bits.c});
  cpp_int n = r.mantissa << (D + r.exponent + 1 - bits.b);
  n += cpp_int(6) << (D - bits.c);
  // offset_error_bound: 2^-z, or 2^-(b+c) when z > b+c.
  n += cpp_int(1) << (D - (bits.z > bits.b + bits.c ? bits.b + bits.c : bits.z));
  b.gappa = dyadic(n, D);
  b.value = fixed_error_bound(bits, b.radius);
  return b;
}

std::vector<GappaScript> sat_bound_scripts(const SatProofSpec& spec) {
  Builder builder{spec.bits, spec.mutant, "", proven_sat_bound(spec.bits, spec.k)};
  const ExactDouble r = exact(builder.bound.radius);
  builder.radius = dyadic(r.mantissa, -r.exponent);
  return {builder.sign_correction(), builder.difference_error(false), builder.difference_error(true),
          builder.clamp(false),      builder.clamp(true),                builder.operand_widths(),
          builder.sum_widths()};
}

}  // namespace kdopcd::formal
