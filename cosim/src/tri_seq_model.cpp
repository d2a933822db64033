// The signal-level triangle unit (tri_seq_model.hpp).
#include "tri_seq_model.hpp"

#include <string>

#include "kdopcd/tri_fixed.hpp"

namespace kdopcd::cosim {

TriSeqModel::TriSeqModel(sc_core::sc_module_name name) : sc_module(name) {
  SC_METHOD(placement_and_decision);
  sensitive << clk_i.pos();
  dont_initialize();
}

bool TriSeqModel::verdict() const {
  const auto a = BusWords<kTriBusW>::of(tri_a_i.read());
  const auto b = BusWords<kTriBusW>::of(tri_b_i.read());
  const auto rot = BusWords<kRotBusW>::of(rot_i.read());
  const auto trans = BusWords<kTransBusW>::of(trans_i.read());
  QuantizedPose pose;
  pose.params = TriangleFixedParams{c2::kV, c2::kM};
  pose.in_range = true;  // the host starts a query only for a pose in range (the driver's check)
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      pose.M[std::size_t(i)][std::size_t(j)] = rot.get_signed((3 * i + j) * c2::kRotW, c2::kRotW);
    pose.T[std::size_t(i)] = trans.get_signed(i * c2::kTransW, c2::kTransW);
  }
  FixedTriangle ta, tb;
  for (int c = 0; c < 3; ++c) {
    FixedVertex va, vb;
    for (int d = 0; d < 3; ++d) {
      va[std::size_t(d)] = a.get_signed((3 * c + d) * c2::kCoordW, c2::kCoordW);
      vb[std::size_t(d)] = b.get_signed((3 * c + d) * c2::kCoordW, c2::kCoordW);
    }
    ta.v[std::size_t(c)] = lift_first_vertex(va, c2::kM);
    tb.v[std::size_t(c)] = place_fixed_vertex(pose, vb);
  }
  return fixed_triangles_intersect(ta, tb);
}

void TriSeqModel::placement_and_decision() {
  if (!rst_ni.read()) {
    pipe_.clear();
    since_start_ = c2::kTriIi;
    valid_o.write(false);
    hit_o.write(false);
    return;
  }
  Test t;
  t.valid = valid_i.read();
  if (t.valid) {
    if (since_start_ < c2::kTriIi)
      SC_REPORT_ERROR(name(), ("valid_i again within II = " + std::to_string(c2::kTriIi) + " clocks").c_str());
    since_start_ = 0;
    t.hit = verdict();
    t.id = id_i.read();
  }
  if (since_start_ < c2::kTriIi) ++since_start_;
  const Test& out = pipe_.step(t);
  valid_o.write(out.valid);
  hit_o.write(out.valid && out.hit);
  if (out.valid) id_o.write(out.id);
}

}  // namespace kdopcd::cosim
