// Triangle unit, stages 9-10: the Guigue-Devillers decision (ref/src/guigue_devillers.hpp) as
// boolean logic on the signs of kdopcd_tri_orient. docs/rtl-triangle-unit.md.
//
// Points are 3-bit indices: P0, P1, P2 = (p1, q1, r1) of the first triangle, P3, P4, P5 =
// (p2, q2, r2) of the second. Every predicate the reference evaluates is looked up:
//   orient3d(a,b,c,d) = sign of D(sorted indices) times the parity of the permutation (the 4-point
//                       orientation is alternating), 0 for a repeated index;
//   orient2d(a,b,c) projected along k = component k of the triple's cross product, times parity;
//   coordinate comparisons = signs of the differences.
// The functions below follow the reference function by function, with every early `return`
// rewritten as an if/else chain (single assignment to the function name).
//
//   stage 9:  the separating-plane tests, the 3D interval test (or "coplanar"), and the coplanar /
//             degenerate verdict, in parallel
//   stage 10: hit = !separated && (coplanar ? coplanar verdict : 3D verdict)
// The stage-9 registers load only when valid_i[0] is set (clock enable: the valid bit of the test
// entering stage 9); the sign table and the decision functions are evaluated only under the same
// condition (so a cycle-based simulator skips them in idle clocks). The stage-10 bit is written
// every clock, qualified by valid_i[1], so that hit_o is 0 for an idle slot.
module kdopcd_tri_decide (
  input  logic         clk_i,
  input  logic [1:0]   valid_i,   // [0]: valid of the test at stage 8 (stage-9 load enable),
                                  // [1]: valid of the test at stage 9 (hit_o is 0 for an idle slot)
  input  logic [89:0]  dsign_i,   // kdopcd_tri_orient outputs (stage 8)
  input  logic [119:0] tsign_i,
  input  logic [29:0]  qsign_i,
  input  logic [2:0]   axis_a_i,
  input  logic [2:0]   axis_b_i,
  output logic         hit_o      // stage 10
);

  // ---- sign table, indexed by the bit mask of the point indices
  //   [63:0]     orient3d of quadruple mask m (sorted order), positive
  //   [127:64]   ... negative
  //   [383:128]  cross product of triple mask m, component k, at {m, k}: positive
  //   [639:384]  ... negative
  //   [895:640]  P_hi[d] - P_lo[d] of pair mask m at {m, d}: positive
  //   [1151:896] ... negative
  localparam int QP = 0, QN = 64, TP = 128, TN = 384, DP = 640, DN = 896;
  localparam int SW = 1152;

  // Built only for a valid test at stage 8 (valid_i[0]): idle clocks leave it 0 and skip the
  // permutation.
  logic [SW-1:0] s;
  always_comb begin : p_table
    int np, nt, nq;
    s  = '0;
    np = 0;
    nt = 0;
    nq = 0;
    if (valid_i[0]) begin
      for (int i = 0; i < 6; i++) begin
        for (int j = i + 1; j < 6; j++) begin
          for (int d = 0; d < 3; d++) begin
            s[DP + 4 * ((1 << i) | (1 << j)) + d] = dsign_i[2 * (3 * np + d)];
            s[DN + 4 * ((1 << i) | (1 << j)) + d] = dsign_i[2 * (3 * np + d) + 1];
          end
          np = np + 1;
          for (int l = j + 1; l < 6; l++) begin
            for (int k = 0; k < 3; k++) begin
              s[TP + 4 * ((1 << i) | (1 << j) | (1 << l)) + k] = tsign_i[2 * (3 * nt + k)];
              s[TN + 4 * ((1 << i) | (1 << j) | (1 << l)) + k] = tsign_i[2 * (3 * nt + k) + 1];
            end
            nt = nt + 1;
          end
        end
      end
      // quadruples in lexicographic order (the triples loop above enumerates triples in
      // lexicographic order too, which is the order of kdopcd_tri_orient)
      for (int i = 0; i < 6; i++) begin
        for (int j = i + 1; j < 6; j++) begin
          for (int k = j + 1; k < 6; k++) begin
            for (int l = k + 1; l < 6; l++) begin
              s[QP + ((1 << i) | (1 << j) | (1 << k) | (1 << l))] = qsign_i[2 * nq];
              s[QN + ((1 << i) | (1 << j) | (1 << k) | (1 << l))] = qsign_i[2 * nq + 1];
              nq = nq + 1;
            end
          end
        end
      end
    end
  end

  // ---- predicates. A sign is {negative, positive}. The leaf predicates read the sign table s of
  // this module, qualified by `en` (the stage-8 valid bit; 1 wherever they are evaluated): every
  // function has a non-constant argument, so that Yosys inlines the calls instead of evaluating
  // them as constant functions.
  function automatic logic [1:0] o3(input logic [2:0] a, input logic [2:0] b, input logic [2:0] c,
                                    input logic [2:0] d, input logic en);
    logic [5:0] m;
    logic       par, p, n;
    m   = (6'd1 << a) | (6'd1 << b) | (6'd1 << c) | (6'd1 << d);
    par = (a > b) ^ (a > c) ^ (a > d) ^ (b > c) ^ (b > d) ^ (c > d);
    p   = (en & s[QP + 32'(m)]);
    n   = (en & s[QN + 32'(m)]);
    if (a == b || a == c || a == d || b == c || b == d || c == d) o3 = 2'b00;
    else if (par)                                                  o3 = {p, n};
    else                                                           o3 = {n, p};
  endfunction

  function automatic logic [1:0] o2(input logic [2:0] a, input logic [2:0] b, input logic [2:0] c,
                                    input logic [1:0] k, input logic en);
    logic [5:0] m;
    logic       par, p, n;
    m   = (6'd1 << a) | (6'd1 << b) | (6'd1 << c);
    par = (a > b) ^ (a > c) ^ (b > c);
    p   = (en & s[TP + 32'({m, k})]);
    n   = (en & s[TN + 32'({m, k})]);
    if (a == b || a == c || b == c) o2 = 2'b00;
    else if (par)                   o2 = {p, n};
    else                            o2 = {n, p};
  endfunction

  // P_a[d] < P_b[d]
  function automatic logic lt(input logic [2:0] a, input logic [2:0] b, input logic [1:0] d,
                              input logic en);
    logic [5:0] m;
    m = (6'd1 << a) | (6'd1 << b);
    if (a == b)     lt = 1'b0;
    else if (a < b) lt = (en & s[DP + 32'({m, d})]);  // P_b - P_a > 0
    else            lt = (en & s[DN + 32'({m, d})]);  // P_a - P_b < 0
  endfunction

  function automatic logic eq(input logic [2:0] a, input logic [2:0] b, input logic [1:0] d,
                              input logic en);
    eq = !lt(a, b, d, en) && !lt(b, a, d, en);
  endfunction

  // axes of project(., k): x = (k+1) mod 3, y = (k+2) mod 3
  function automatic logic [1:0] ax_x(input logic [1:0] k);
    ax_x = (k == 2'd0) ? 2'd1 : (k == 2'd1) ? 2'd2 : 2'd0;
  endfunction
  function automatic logic [1:0] ax_y(input logic [1:0] k);
    ax_y = (k == 2'd0) ? 2'd2 : (k == 2'd1) ? 2'd0 : 2'd1;
  endfunction

  function automatic logic pos(input logic [1:0] x);
    pos = x[0] & ~x[1];  // 2'b11 never occurs
  endfunction
  function automatic logic neg(input logic [1:0] x);
    neg = x[1] & ~x[0];
  endfunction

  // ---- 3D interval test (paper Sec. 3)
  function automatic logic check_min_max(input logic [2:0] p1, input logic [2:0] q1, input logic [2:0] r1,
                                         input logic [2:0] p2, input logic [2:0] q2, input logic [2:0] r2,
                                         input logic en);
    check_min_max = !pos(o3(p1, q1, p2, q2, en)) && !pos(o3(p1, r1, r2, p2, en));
  endfunction

  // {coplanar, result}
  function automatic logic [1:0] tri_tri_3d(input logic [2:0] p1, input logic [2:0] q1, input logic [2:0] r1,
                                            input logic [2:0] p2, input logic [2:0] q2, input logic [2:0] r2,
                                            input logic [1:0] dp2, input logic [1:0] dq2, input logic [1:0] dr2,
                                            input logic en);
    logic c, r;
    c = 1'b0;
    r = 1'b0;
    if (pos(dp2)) begin
      if (pos(dq2))      r = check_min_max(p1, r1, q1, r2, p2, q2, en);
      else if (pos(dr2)) r = check_min_max(p1, r1, q1, q2, r2, p2, en);
      else               r = check_min_max(p1, q1, r1, p2, q2, r2, en);
    end else if (neg(dp2)) begin
      if (neg(dq2))      r = check_min_max(p1, q1, r1, r2, p2, q2, en);
      else if (neg(dr2)) r = check_min_max(p1, q1, r1, q2, r2, p2, en);
      else               r = check_min_max(p1, r1, q1, p2, q2, r2, en);
    end else if (neg(dq2)) begin
      if (!neg(dr2))     r = check_min_max(p1, r1, q1, q2, r2, p2, en);
      else               r = check_min_max(p1, q1, r1, p2, q2, r2, en);
    end else if (pos(dq2)) begin
      if (pos(dr2))      r = check_min_max(p1, r1, q1, p2, q2, r2, en);
      else               r = check_min_max(p1, q1, r1, q2, r2, p2, en);
    end else if (pos(dr2)) begin
      r = check_min_max(p1, q1, r1, r2, p2, q2, en);
    end else if (neg(dr2)) begin
      r = check_min_max(p1, r1, q1, r2, p2, q2, en);
    end else begin
      c = 1'b1;
    end
    tri_tri_3d = {c, r};
  endfunction

  // {separated, coplanar, result} of intersect() before the coplanar fallback
  function automatic logic [2:0] gd_3d(input logic en);
    logic [1:0] dp1, dq1, dr1, dp2, dq2, dr2, res;
    logic       sep;
    dp1 = o3(3'd3, 3'd4, 3'd5, 3'd0, en);
    dq1 = o3(3'd3, 3'd4, 3'd5, 3'd1, en);
    dr1 = o3(3'd3, 3'd4, 3'd5, 3'd2, en);
    dp2 = o3(3'd0, 3'd1, 3'd2, 3'd3, en);
    dq2 = o3(3'd0, 3'd1, 3'd2, 3'd4, en);
    dr2 = o3(3'd0, 3'd1, 3'd2, 3'd5, en);
    sep = (pos(dp1) && pos(dq1) && pos(dr1)) || (neg(dp1) && neg(dq1) && neg(dr1)) ||
          (pos(dp2) && pos(dq2) && pos(dr2)) || (neg(dp2) && neg(dq2) && neg(dr2));
    if (pos(dp1)) begin
      if (pos(dq1))      res = tri_tri_3d(3'd2, 3'd0, 3'd1, 3'd3, 3'd5, 3'd4, dp2, dr2, dq2, en);
      else if (pos(dr1)) res = tri_tri_3d(3'd1, 3'd2, 3'd0, 3'd3, 3'd5, 3'd4, dp2, dr2, dq2, en);
      else               res = tri_tri_3d(3'd0, 3'd1, 3'd2, 3'd3, 3'd4, 3'd5, dp2, dq2, dr2, en);
    end else if (neg(dp1)) begin
      if (neg(dq1))      res = tri_tri_3d(3'd2, 3'd0, 3'd1, 3'd3, 3'd4, 3'd5, dp2, dq2, dr2, en);
      else if (neg(dr1)) res = tri_tri_3d(3'd1, 3'd2, 3'd0, 3'd3, 3'd4, 3'd5, dp2, dq2, dr2, en);
      else               res = tri_tri_3d(3'd0, 3'd1, 3'd2, 3'd3, 3'd5, 3'd4, dp2, dr2, dq2, en);
    end else if (neg(dq1)) begin
      if (!neg(dr1))     res = tri_tri_3d(3'd1, 3'd2, 3'd0, 3'd3, 3'd5, 3'd4, dp2, dr2, dq2, en);
      else               res = tri_tri_3d(3'd0, 3'd1, 3'd2, 3'd3, 3'd4, 3'd5, dp2, dq2, dr2, en);
    end else if (pos(dq1)) begin
      if (pos(dr1))      res = tri_tri_3d(3'd0, 3'd1, 3'd2, 3'd3, 3'd5, 3'd4, dp2, dr2, dq2, en);
      else               res = tri_tri_3d(3'd1, 3'd2, 3'd0, 3'd3, 3'd4, 3'd5, dp2, dq2, dr2, en);
    end else if (pos(dr1)) begin
      res = tri_tri_3d(3'd2, 3'd0, 3'd1, 3'd3, 3'd4, 3'd5, dp2, dq2, dr2, en);
    end else if (neg(dr1)) begin
      res = tri_tri_3d(3'd2, 3'd0, 3'd1, 3'd3, 3'd5, 3'd4, dp2, dr2, dq2, en);
    end else begin
      res = 2'b10;
    end
    gd_3d = {sep, res};
  endfunction

  // ---- 2D test (paper Sec. 4), projected along k
  function automatic logic test_vertex(input logic [2:0] p1, input logic [2:0] q1, input logic [2:0] r1,
                                       input logic [2:0] p2, input logic [2:0] q2, input logic [2:0] r2,
                                       input logic [1:0] k, input logic en);
    logic r;
    r = 1'b0;
    if (!neg(o2(r2, p2, q1, k, en))) begin
      if (!pos(o2(r2, q2, q1, k, en))) begin
        if (pos(o2(p1, p2, q1, k, en)))       r = !pos(o2(p1, q2, q1, k, en));
        else if (!neg(o2(p1, p2, r1, k, en))) r = !neg(o2(q1, r1, p2, k, en));
      end else if (!pos(o2(p1, q2, q1, k, en)) && !pos(o2(r2, q2, r1, k, en))) begin
        r = !neg(o2(q1, r1, q2, k, en));
      end
    end else if (!neg(o2(r2, p2, r1, k, en))) begin
      if (!neg(o2(q1, r1, r2, k, en)))      r = !neg(o2(p1, p2, r1, k, en));
      else if (!neg(o2(q1, r1, q2, k, en))) r = !neg(o2(r2, r1, q2, k, en));
    end
    test_vertex = r;
  endfunction

  // intersection_test_edge (its q2 argument is unused in the reference too)
  function automatic logic test_edge(input logic [2:0] p1, input logic [2:0] q1, input logic [2:0] r1,
                                     input logic [2:0] p2, input logic [2:0] r2,
                                     input logic [1:0] k, input logic en);
    logic r;
    r = 1'b0;
    if (!neg(o2(r2, p2, q1, k, en))) begin
      if (!neg(o2(p1, p2, q1, k, en)))      r = !neg(o2(p1, q1, r2, k, en));
      else if (!neg(o2(q1, r1, p2, k, en))) r = !neg(o2(r1, p1, p2, k, en));
    end else if (!neg(o2(r2, p2, r1, k, en)) && !neg(o2(p1, p2, r1, k, en))) begin
      r = !neg(o2(p1, r1, r2, k, en)) || !neg(o2(q1, r1, r2, k, en));
    end
    test_edge = r;
  endfunction

  function automatic logic ccw_tri_tri_2d(input logic [2:0] p1, input logic [2:0] q1, input logic [2:0] r1,
                                          input logic [2:0] p2, input logic [2:0] q2, input logic [2:0] r2,
                                          input logic [1:0] k, input logic en);
    logic r;
    if (!neg(o2(p2, q2, p1, k, en))) begin
      if (!neg(o2(q2, r2, p1, k, en))) begin
        if (!neg(o2(r2, p2, p1, k, en))) r = 1'b1;
        else                            r = test_edge(p1, q1, r1, p2, r2, k, en);
      end else if (!neg(o2(r2, p2, p1, k, en))) begin
        r = test_edge(p1, q1, r1, r2, q2, k, en);
      end else begin
        r = test_vertex(p1, q1, r1, p2, q2, r2, k, en);
      end
    end else if (!neg(o2(q2, r2, p1, k, en))) begin
      if (!neg(o2(r2, p2, p1, k, en))) r = test_edge(p1, q1, r1, q2, p2, k, en);
      else                            r = test_vertex(p1, q1, r1, q2, r2, p2, k, en);
    end else begin
      r = test_vertex(p1, q1, r1, r2, p2, q2, k, en);
    end
    ccw_tri_tri_2d = r;
  endfunction

  function automatic logic tri_tri_2d(input logic [1:0] k, input logic en);
    logic cw1, cw2, r;
    cw1 = neg(o2(3'd0, 3'd1, 3'd2, k, en));
    cw2 = neg(o2(3'd3, 3'd4, 3'd5, k, en));
    // the four orders with constant indices, selected by the orientations
    case ({cw1, cw2})
      2'b00:   r = ccw_tri_tri_2d(3'd0, 3'd1, 3'd2, 3'd3, 3'd4, 3'd5, k, en);
      2'b01:   r = ccw_tri_tri_2d(3'd0, 3'd1, 3'd2, 3'd3, 3'd5, 3'd4, k, en);
      2'b10:   r = ccw_tri_tri_2d(3'd0, 3'd2, 3'd1, 3'd3, 3'd4, 3'd5, k, en);
      default: r = ccw_tri_tri_2d(3'd0, 3'd2, 3'd1, 3'd3, 3'd5, 3'd4, k, en);
    endcase
    tri_tri_2d = r;
  endfunction

  // ---- segments and points (degenerate triangles)
  // closed intervals of a, b and of c, d along axis x overlap
  function automatic logic overlap(input logic [2:0] a, input logic [2:0] b, input logic [2:0] c,
                                   input logic [2:0] d, input logic [1:0] x, input logic en);
    overlap = !(lt(c, a, x, en) && lt(d, a, x, en) && lt(c, b, x, en) && lt(d, b, x, en)) &&
              !(lt(a, c, x, en) && lt(b, c, x, en) && lt(a, d, x, en) && lt(b, d, x, en));
  endfunction

  function automatic logic seg_2d(input logic [2:0] a, input logic [2:0] b, input logic [2:0] c,
                                  input logic [2:0] d, input logic [1:0] k, input logic en);
    logic [1:0] d1, d2, d3, d4;
    d1 = o2(a, b, c, k, en);
    d2 = o2(a, b, d, k, en);
    d3 = o2(c, d, a, k, en);
    d4 = o2(c, d, b, k, en);
    if ((pos(d1) && pos(d2)) || (neg(d1) && neg(d2)) || (pos(d3) && pos(d4)) || (neg(d3) && neg(d4)))
      seg_2d = 1'b0;
    else if (d1 == 2'b00 && d2 == 2'b00 && d3 == 2'b00 && d4 == 2'b00)
      seg_2d = overlap(a, b, c, d, ax_x(k), en) && overlap(a, b, c, d, ax_y(k), en);
    else
      seg_2d = 1'b1;
  endfunction

  function automatic logic point_in_tri_2d(input logic [2:0] x, input logic [2:0] p, input logic [2:0] q,
                                           input logic [2:0] r, input logic [1:0] k, input logic en);
    logic [1:0] s1, s2, s3;
    s1 = o2(p, q, x, k, en);
    s2 = o2(q, r, x, k, en);
    s3 = o2(r, p, x, k, en);
    point_in_tri_2d = !((neg(s1) || neg(s2) || neg(s3)) && (pos(s1) || pos(s2) || pos(s3)));
  endfunction

  function automatic logic seg_tri(input logic [2:0] a, input logic [2:0] b, input logic [2:0] p,
                                   input logic [2:0] q, input logic [2:0] r, input logic [1:0] k,
                                   input logic en);
    logic [1:0] oa, ob, s1, s2, s3;
    oa = o3(p, q, r, a, en);
    ob = o3(p, q, r, b, en);
    s1 = o3(a, b, p, q, en);
    s2 = o3(a, b, q, r, en);
    s3 = o3(a, b, r, p, en);
    if ((pos(oa) && pos(ob)) || (neg(oa) && neg(ob)))
      seg_tri = 1'b0;
    else if (oa == 2'b00 && ob == 2'b00)
      seg_tri = point_in_tri_2d(a, p, q, r, k, en) || seg_2d(a, b, p, q, k, en) ||
                seg_2d(a, b, q, r, k, en) || seg_2d(a, b, r, p, k, en);
    else if (oa == 2'b00)
      seg_tri = point_in_tri_2d(a, p, q, r, k, en);
    else if (ob == 2'b00)
      seg_tri = point_in_tri_2d(b, p, q, r, k, en);
    else
      seg_tri = !((neg(s1) || neg(s2) || neg(s3)) && (pos(s1) || pos(s2) || pos(s3)));
  endfunction

  function automatic logic seg_3d(input logic [2:0] a, input logic [2:0] b, input logic [2:0] c,
                                  input logic [2:0] d, input logic en);
    seg_3d = (o3(a, b, c, d, en) == 2'b00) && seg_2d(a, b, c, d, 2'd0, en) && seg_2d(a, b, c, d, 2'd1, en) &&
             seg_2d(a, b, c, d, 2'd2, en);
  endfunction

  // extent(p, q, r): {lo, hi}, the extreme vertices along the first axis where they differ, as
  // codes 0, 1, 2 for p, q, r. The reference updates lo and hi vertex by vertex (q, then r); here
  // each comparison of r is taken with both possible current extremes, p or q, and the comparison
  // of q with p selects: every lt() has constant vertex indices (a wire of the sign table, not a
  // lookup at an index computed in the same clock).
  function automatic logic [3:0] extent(input logic [2:0] p, input logic [2:0] q, input logic [2:0] r,
                                        input logic en);
    logic [1:0] lo, hi, lo_i, hi_i;
    logic       found, q_below, q_above;
    lo    = 2'd0;
    hi    = 2'd0;
    found = 1'b0;
    for (int i = 0; i < 3; i++) begin
      q_below = lt(q, p, 2'(i), en);
      q_above = lt(p, q, 2'(i), en);
      lo_i    = q_below ? 2'd1 : 2'd0;
      hi_i    = q_above ? 2'd1 : 2'd0;
      if (q_below ? lt(r, q, 2'(i), en) : lt(r, p, 2'(i), en)) lo_i = 2'd2;
      if (q_above ? lt(q, r, 2'(i), en) : lt(p, r, 2'(i), en)) hi_i = 2'd2;
      if (!found && !(eq(p, q, 2'(i), en) && eq(q, r, 2'(i), en))) begin
        found = 1'b1;
        lo    = lo_i;
        hi    = hi_i;
      end
    end
    extent = {lo, hi};
  endfunction

  // ---- the segment tests of degenerate triangles, written out for every pair of extremes.
  // extent() returns (0, 0) when the three vertices coincide, else one of the six ordered pairs of
  // distinct vertices. Each of these seven segments gets its own test with constant vertex
  // indices, in its own small process (one process holding all of them made Yosys's proc_mux pass
  // take hours); the extents then select one result. So no orientation sign is looked up at an
  // index computed in the same clock, and the verdict's path is the extent and one selection
  // beside the tests, not after them. Each test is evaluated only in the case that needs it, under
  // an `if` (Verilator evaluates the function body of `assign v = need && f(...)` every clock;
  // inside the `if` it skips it); in synthesis that condition is one more input of the last gate.
  logic       en;
  logic       need_seg_a, need_seg_b, need_seg_seg;
  // Indexed by the extents' codes themselves, {lo, hi} (and {lo1, hi1, lo2, hi2}), so that the
  // selection is a multiplexer on the extent bits with no index arithmetic before it; the entries
  // of code pairs extent() never returns are 0.
  logic [15:0]  seg_a_tri;  // the first triangle's segment against the second triangle
  logic [15:0]  seg_b_tri;  // the second triangle's segment against the first triangle
  logic [255:0] seg_seg;    // segment against segment
  assign en           = valid_i[0];
  assign need_seg_a   = en && !axis_a_i[2] && axis_b_i[2];
  assign need_seg_b   = en && axis_a_i[2] && !axis_b_i[2];
  assign need_seg_seg = en && !axis_a_i[2] && !axis_b_i[2];

  for (genvar lo1 = 0; lo1 < 4; lo1++) begin : g_lo1
    for (genvar hi1 = 0; hi1 < 4; hi1++) begin : g_hi1
      localparam int I1 = 4 * lo1 + hi1;
      if (lo1 == 3 || hi1 == 3 || (lo1 == hi1 && lo1 != 0)) begin : g_none
        // extent() never returns this pair
        assign seg_a_tri[I1] = 1'b0;
        assign seg_b_tri[I1] = 1'b0;
        assign seg_seg[16 * I1 +: 16] = '0;
      end else begin : g_seg
        logic a_v, b_v;
        always_comb begin
          a_v = 1'b0;
          if (need_seg_a) a_v = seg_tri(3'(lo1), 3'(hi1), 3'd3, 3'd4, 3'd5, axis_b_i[1:0], en);
        end
        always_comb begin
          b_v = 1'b0;
          if (need_seg_b) b_v = seg_tri(3'(3 + lo1), 3'(3 + hi1), 3'd0, 3'd1, 3'd2, axis_a_i[1:0], en);
        end
        assign seg_a_tri[I1] = a_v;
        assign seg_b_tri[I1] = b_v;
        for (genvar lo2 = 0; lo2 < 4; lo2++) begin : g_lo2
          for (genvar hi2 = 0; hi2 < 4; hi2++) begin : g_hi2
            localparam int I2 = 4 * lo2 + hi2;
            if (lo2 == 3 || hi2 == 3 || (lo2 == hi2 && lo2 != 0)) begin : g_none
              assign seg_seg[16 * I1 + I2] = 1'b0;
            end else begin : g_seg
              logic v;
              always_comb begin
                v = 1'b0;
                if (need_seg_seg) v = seg_3d(3'(lo1), 3'(hi1), 3'(3 + lo2), 3'(3 + hi2), en);
              end
              assign seg_seg[16 * I1 + I2] = v;
            end
          end
        end
      end
    end
  end

  // ---- stage 9. The functions are evaluated only under `en` (so a cycle-based simulator skips
  // them in idle clocks); en is also their non-constant argument (1 wherever it matters).
  logic [2:0] gd_d, gd_q;
  logic       cod_d, cod_q;
  always_comb begin : p_verdict
    logic [3:0] e1, e2;
    gd_d  = gd_q;
    cod_d = cod_q;
    e1    = '0;
    e2    = '0;
    if (en) begin
      gd_d = gd_3d(en);
      e1   = extent(3'd0, 3'd1, 3'd2, en);
      e2   = extent(3'd3, 3'd4, 3'd5, en);
      if (axis_a_i[2] && axis_b_i[2]) cod_d = tri_tri_2d(axis_a_i[1:0], en);
      else if (axis_b_i[2])           cod_d = seg_a_tri[e1];
      else if (axis_a_i[2])           cod_d = seg_b_tri[e2];
      else                            cod_d = seg_seg[{e1, e2}];
    end
  end
  always_ff @(posedge clk_i) begin
    if (en) begin
      gd_q  <= gd_d;
      cod_q <= cod_d;
    end
  end

  // ---- stage 10
  logic hit_q;
  always_ff @(posedge clk_i) begin
    hit_q <= valid_i[1] && !gd_q[2] && (gd_q[1] ? cod_q : gd_q[0]);
  end
  assign hit_o = hit_q;

endmodule
