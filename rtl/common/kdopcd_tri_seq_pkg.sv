// Time-multiplexed triangle unit (kdopcd_tri_seq): index tables and the static schedule.
// docs/rtl-triangle-unit.md §6.
//
// The six points are P0..P2 (first triangle) and P3..P5 (second). The unit computes the same
// exact signs as kdopcd_tri_orient (45 coordinate differences, 60 cross-product components of the
// 20 triples, 15 orient3d determinants of the quadruples), but the 60 minors and the 15
// determinants go through small pools of units over II clocks. The orders below are chosen so
// that the determinant pool can start as soon as the first minors are out: the ten triples the
// determinants need come first, in the order the determinants consume them.
package kdopcd_tri_seq_pkg;

  // A sign as the decision logic reads it: {negative, positive}, 00 = zero.
  typedef struct packed {
    logic neg;
    logic pos;
  } sign_t;

  // ---- linear indices of kdopcd_tri_orient / kdopcd_tri_decide (lexicographic order)
  function automatic int pix(input int i, input int j);
    int n;
    n = 0;
    for (int a = 0; a < 6; a++) begin
      for (int b = a + 1; b < 6; b++) begin
        if (a < i || (a == i && b < j)) n = n + 1;
      end
    end
    pix = n;
  endfunction

  function automatic int tix(input int i, input int j, input int l);
    int n;
    n = 0;
    for (int a = 0; a < 6; a++) begin
      for (int b = a + 1; b < 6; b++) begin
        for (int c = b + 1; c < 6; c++) begin
          if (a < i || (a == i && (b < j || (b == j && c < l)))) n = n + 1;
        end
      end
    end
    tix = n;
  endfunction

  function automatic int qix(input int i, input int j, input int k, input int l);
    int n;
    n = 0;
    for (int a = 0; a < 6; a++) begin
      for (int b = a + 1; b < 6; b++) begin
        for (int c = b + 1; c < 6; c++) begin
          for (int d = c + 1; d < 6; d++) begin
            if (a < i || (a == i && (b < j || (b == j && (c < k || (c == k && d < l)))))) n = n + 1;
          end
        end
      end
    end
    qix = n;
  endfunction

  // The 6 pairs (i, j), i < j <= 3, whose differences are the first vectors of the determinants.
  function automatic int dix(input int i, input int j);
    dix = j * (j - 1) / 2 + i;
  endfunction

  // ---- minor order: triple of rank r (0..19), {i, j, l} as 3 x 4 bits. Ranks 0-9: the triples
  // of the determinants in consumption order; 10, 11: the two triangles' own normals (projection
  // axes); 12-19: the triples only the coplanar / degenerate decision reads.
  function automatic logic [11:0] tri_ord(input int r);
    case (r)
      0:       tri_ord = 12'h045;
      1:       tri_ord = 12'h034;
      2:       tri_ord = 12'h035;
      3:       tri_ord = 12'h145;
      4:       tri_ord = 12'h023;
      5:       tri_ord = 12'h024;
      6:       tri_ord = 12'h025;
      7:       tri_ord = 12'h134;
      8:       tri_ord = 12'h135;
      9:       tri_ord = 12'h245;
      10:      tri_ord = 12'h012;
      11:      tri_ord = 12'h345;
      12:      tri_ord = 12'h013;
      13:      tri_ord = 12'h014;
      14:      tri_ord = 12'h015;
      15:      tri_ord = 12'h123;
      16:      tri_ord = 12'h124;
      17:      tri_ord = 12'h125;
      18:      tri_ord = 12'h234;
      default: tri_ord = 12'h235;
    endcase
  endfunction

  // ---- determinant order: quadruple n (0..14) as {i, j, k, l} (4 x 4 bits); its determinant is
  // D(i,j,k,l) = (P_j - P_i) . cross(i,k,l), and cross(i,k,l) is the triple of rank det_rank(n).
  function automatic logic [15:0] det_ord(input int n);
    case (n)
      0:       det_ord = 16'h0145;
      1:       det_ord = 16'h0245;
      2:       det_ord = 16'h0345;
      3:       det_ord = 16'h0134;
      4:       det_ord = 16'h0234;
      5:       det_ord = 16'h0135;
      6:       det_ord = 16'h0235;
      7:       det_ord = 16'h1245;
      8:       det_ord = 16'h1345;
      9:       det_ord = 16'h0123;
      10:      det_ord = 16'h0124;
      11:      det_ord = 16'h0125;
      12:      det_ord = 16'h1234;
      13:      det_ord = 16'h1235;
      default: det_ord = 16'h2345;
    endcase
  endfunction

  function automatic int det_rank(input int n);
    case (n)
      0, 1, 2: det_rank = 0;
      3, 4:    det_rank = 1;
      5, 6:    det_rank = 2;
      7, 8:    det_rank = 3;
      default: det_rank = n - 5;
    endcase
  endfunction

  // ---- schedule (cycle 0: valid_i; a register "loaded at c" is written at the end of cycle c
  // and, as the next test loads it II clocks later, readable in cycles c+1 .. c+II)
  localparam int NMINOR = 60;
  localparam int NDET   = 15;
  localparam int MS     = 5;   // first minor issue: inputs 0, products 1, sums 2, coordinates 3, differences 4
  localparam int LM     = 3;   // minor issued at c: file loaded at c+3 (operands, products, two sums, difference)
  localparam int LD     = 4;   // determinant issued at c: sign loaded at c+4

  function automatic int ceil_div(input int a, input int b);
    ceil_div = (a + b - 1) / b;
  endfunction

  function automatic int units(input int items, input int ii);
    units = ceil_div(items, ii);
  endfunction

  function automatic int slots(input int items, input int ii);
    slots = ceil_div(items, units(items, ii));
  endfunction

  // First determinant issue: every determinant's three minors must be in the file (loaded at
  // MS + slot + LM) by the clock it issues in.
  function automatic int det_start(input int ii);
    int um, ud, d, best;
    um   = units(NMINOR, ii);
    ud   = units(NDET, ii);
    best = 0;
    for (int n = 0; n < NDET; n++) begin
      d = (3 * det_rank(n) + 2) / um - n / ud;
      if (d > best) best = d;
    end
    det_start = MS + LM + 1 + best;
  endfunction

  // The minors a determinant reads must still be in the file (the next test overwrites an entry
  // II clocks after it was loaded): 1 if the schedule keeps every read within that window.
  function automatic bit det_reads_ok(input int ii);
    int um, ud, ds;
    bit ok;
    um = units(NMINOR, ii);
    ud = units(NDET, ii);
    ds = det_start(ii);
    ok = 1'b1;
    for (int n = 0; n < NDET; n++) begin
      if (ds + n / ud > MS + (3 * det_rank(n)) / um + LM + ii) ok = 1'b0;
    end
    det_reads_ok = ok;
  endfunction

  // Decision stage load (stage 9 of kdopcd_tri_decide): the last determinant sign is loaded at
  // det_start + slots - 1 + LD.
  function automatic int decide_at(input int ii);
    decide_at = det_start(ii) + slots(NDET, ii) + LD;
  endfunction

  // Minimum latency: the decision takes two more clocks (kdopcd_tri_decide stages 9 and 10).
  function automatic int lat_min(input int ii);
    lat_min = decide_at(ii) + 2;
  endfunction

  // ---- hold chains. A value readable in cycles [a, e] is needed in cycles [r0, r1]
  // (r1 - r0 < II). If [r0, r1] is not inside [a, e], it is copied by hop registers loaded at
  // l1 = min(e, r0 - 1), l1 + II, l1 + 2 II, ... (each hop loads while the previous one still
  // holds this test); the last one at min(r0 - 1, l1 + (n-1) II), as few as cover r1 (a hop
  // loaded at L is readable in L+1 .. L+II).
  function automatic int hold_hops(input int a, input int e, input int r0, input int r1, input int ii);
    int l1, more;
    l1   = (e < r0 - 1) ? e : r0 - 1;
    more = (r1 - ii - l1 > 0) ? ceil_div(r1 - ii - l1, ii) : 0;
    if (a <= r0 && r1 <= e) hold_hops = 0;
    else                    hold_hops = 1 + more;
  endfunction

  function automatic int hold_load(input int k, input int n, input int e, input int r0, input int ii);
    int l1;
    l1 = (e < r0 - 1) ? e : r0 - 1;
    if (k == n - 1 && r0 - 1 < l1 + k * ii) hold_load = r0 - 1;
    else                                    hold_load = l1 + k * ii;
  endfunction

endpackage
