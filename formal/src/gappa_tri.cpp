// Gappa scripts of the triangle unit's widths (gappa_tri.hpp, docs/formal.md §1).
//
// Everything in units of the scene scale s; an integer coordinate at scale s 2^-(v+m) is a real on
// the 2^-(v+m) grid, so "fits W bits" is `fits(x, W, v + m)` (gappa_text.hpp). Inputs: a stored
// vertex y in [-1, 1] quantized to nearest-even at 2^-v (q), a rotation entry in [-1, 1] at 2^-m
// (M'), a translation in [-4, 4] (the clamp) at 2^-(v+m) (T'). One row of the placement stands for
// all three. The predicates take coordinate differences only; the differences script proves
// |d| <= 8 (units of s) for each kind, which the predicates script takes as its hypothesis.
#include "kdopcd_formal/gappa_tri.hpp"

#include <fmt/format.h>

#include "gappa_text.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/tri_fixed.hpp"

namespace kdopcd::formal {
namespace {

using gappa_text::fits;

std::string header(const TriangleFixedParams& p) {
  return fmt::format(
      "#@-Eno-auto-dichotomy\n"
      "@vq = fixed<-{0},ne>;  # q  = nearest-even(y 2^v)           (quantize_vertex)\n"
      "@mq = fixed<-{1},ne>;  # M' = nearest-even(M 2^m)           (make_triangle_pose)\n"
      "@tq = fixed<-{2},ne>;  # T' = nearest-even((T/s) 2^(v+m))\n",
      p.v, p.m, p.v + p.m);
}

// Vertex `name` of the second object placed (row 0): M'_0. q + T'_0.
std::string placed(const std::string& name) {
  return fmt::format("S{0} = M00*q{0}0 + M01*q{0}1 + M02*q{0}2;\nX{0} = S{0} + T0;\n", name);
}

std::string quantized_inputs(const std::vector<std::string>& vertices) {
  std::string s = "M00 = mq(r00);\nM01 = mq(r01);\nM02 = mq(r02);\nT0 = tq(t0);\n";
  for (const std::string& v : vertices)
    for (int i = 0; i < 3; ++i) s += fmt::format("q{0}{1} = vq(y{0}{1});\n", v, i);
  return s;
}

std::string input_hypotheses(const std::vector<std::string>& vertices, bool unclamped) {
  std::string h = fmt::format("r00 in [-1,1] /\\ r01 in [-1,1] /\\ r02 in [-1,1] /\\ t0 in [-{0},{0}]", unclamped ? 8 : 4);
  for (const std::string& v : vertices)
    for (int i = 0; i < 3; ++i) h += fmt::format(" /\\ y{0}{1} in [-1,1]", v, i);
  return h;
}

}  // namespace

std::vector<TriMutant> all_tri_mutants() {
  return {TriMutant::TranslationUnclamped, TriMutant::DifferenceOneBitNarrower, TriMutant::MinorOneBitNarrower,
          TriMutant::DeterminantOneBitNarrower};
}

std::string_view mutant_name(TriMutant m) {
  switch (m) {
    case TriMutant::None: return "none";
    case TriMutant::TranslationUnclamped: return "translation-unclamped";
    case TriMutant::DifferenceOneBitNarrower: return "difference-one-bit-narrower";
    case TriMutant::MinorOneBitNarrower: return "minor-one-bit-narrower";
    case TriMutant::DeterminantOneBitNarrower: return "determinant-one-bit-narrower";
  }
  return "?";
}

std::vector<GappaScript> triangle_width_scripts(TriangleFixedParams params, TriMutant mutant) {
  const TriangleUnitWidths w = triangle_unit_widths(params);  // validates v, m
  const int W = params.v + params.m;
  const bool unclamped = mutant == TriMutant::TranslationUnclamped;
  std::vector<GappaScript> out;

  {  // q, M', M'q, T' and both objects' coordinates.
    GappaScript g{"tri-placement",
                  fmt::format("q fits {} bits, M' {}, M'q {}, T' {}, both objects' X {}", w.vertex, w.rotation,
                              w.product_sum, w.translation, w.coordinate),
                  ""};
    std::string s = header(params) + quantized_inputs({"a", "b"}) + placed("b");
    s += "{ " + input_hypotheses({"a", "b"}, unclamped) + " ->\n    " + fits("qa0", w.vertex, params.v) + " /\\ " +
         fits("M00", w.rotation, params.m) + "\n /\\ " + fits("Sb", w.product_sum, W) + " /\\ " +
         fits("T0", w.translation, W) + "\n /\\ " + fits("Xb", w.coordinate, W) + " /\\ " + fits("qa0", w.coordinate, W) +
         " }\n";
    g.text = s;
    out.push_back(g);
  }
  {  // Differences of the three kinds: |d| <= 8 and the declared width.
    const int width = w.difference - (mutant == TriMutant::DifferenceOneBitNarrower ? 1 : 0);
    GappaScript g{"tri-differences",
                  fmt::format("first-first, second-second and mixed coordinate differences: |d| <= 8 s, {} bits", width),
                  ""};
    std::string s = header(params) + quantized_inputs({"a", "c", "b", "d"}) + placed("b") + placed("d");
    s += "ff = qa0 - qc0;\nss = Xb - Xd;\nfs = qa0 - Xb;\n";
    s += "{ " + input_hypotheses({"a", "c", "b", "d"}, unclamped) + " ->\n";
    bool first = true;
    for (const char* d : {"ff", "ss", "fs"}) {
      s += std::string(first ? "    " : " /\\ ") + d + " in [-8,8] /\\ " + fits(d, width, W) + "\n";
      first = false;
    }
    s += "}\n";
    // Two placed vertices of one object differ by M' (q_b - q_d): T' cancels.
    s += "ss -> M00*(qb0 - qd0) + M01*(qb1 - qd1) + M02*(qb2 - qd2);\n";
    g.text = s;
    out.push_back(g);
  }
  {  // 2x2 minors (orient2d, the cofactors) and orient3d u . (v x w) of differences.
    const int minor_w = w.minor - (mutant == TriMutant::MinorOneBitNarrower ? 1 : 0);
    const int det_w = w.determinant - (mutant == TriMutant::DeterminantOneBitNarrower ? 1 : 0);
    GappaScript g{"tri-predicates",
                  fmt::format("for differences |d| <= 8 s: 2x2 minors fit {} bits, orient3d {}", minor_w, det_w), ""};
    std::string s = "#@-Eno-auto-dichotomy\n";
    s += "c0 = v1*w2 - v2*w1;\nc1 = v2*w0 - v0*w2;\nc2 = v0*w1 - v1*w0;\ndet = u0*c0 + u1*c1 + u2*c2;\n";
    std::string h;
    for (const char* v : {"u", "v", "w"})
      for (int i = 0; i < 3; ++i) h += fmt::format("{}{}{} in [-8,8]", h.empty() ? "" : " /\\ ", v, i);
    s += "{ " + h + " ->\n    " + fits("c0", minor_w, 2 * W) + " /\\ " + fits("c1", minor_w, 2 * W) + " /\\ " +
         fits("c2", minor_w, 2 * W) + "\n /\\ " + fits("det", det_w, 3 * W) + " }\n";
    g.text = s;
    out.push_back(g);
  }
  return out;
}

}  // namespace kdopcd::formal
