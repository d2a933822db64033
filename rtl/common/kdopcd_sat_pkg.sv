// Shared types and default parameters of the SAT pipeline (docs/rtl-sat-pipeline.md).
//
// Portable style (Verilator and Yosys 0.23, docs/toolchain.md §4): no `import`, no assignment
// patterns, no user-type casts, no packed multi-dimensional arrays; modules refer to
// `kdopcd_sat_pkg::name`.
package kdopcd_sat_pkg;

  // Defaults of the pipeline parameters: k of the k-DOPs, fractional bits b (coefficients),
  // c (mapping vectors P'), z (offset p'), and the signed width of one hardware multiplier.
  localparam int DEFAULT_K     = 24;
  localparam int DEFAULT_B     = 18;
  localparam int DEFAULT_C     = 18;
  localparam int DEFAULT_Z     = 18;
  localparam int DEFAULT_MUL_W = 18;

  // The paper's PipeData: bookkeeping that travels with each axis test and comes out with its
  // verdict. pair: DOP-pair id (the cancel input matches it); axis: index of the test axis;
  // last: this is the last axis test issued for the pair.
  localparam int PAIR_W = 16;
  localparam int AXIS_W = 8;
  localparam int TAG_W  = PAIR_W + AXIS_W + 1;

  typedef struct packed {
    logic [PAIR_W-1:0] pair;
    logic [AXIS_W-1:0] axis;
    logic              last;
  } tag_t;

  // Face triple of each own-direction axis: OWN_TRIPLES[((slot*13 + i)*3 + m)*8 +: 8] is index m
  // of OrientationSet::own_direction_triple(i) (ref/src/orientations.cpp: the opposite face
  // i + k/2 first, then the two other faces of the first vertex of the maximal DOP that holds
  // it), slot = 0, 1, 2, 3, 4 for k = 6, 14, 18, 24, 26. The wide unit wires its lanes'
  // own coefficients from this table; the test RtlSatWide.OwnTripleTableEqualsReference checks it
  // against the reference for every supported k.
  localparam int OWN_DIRS = 13;  // k/2 of the largest supported k
  localparam logic [5*OWN_DIRS*3*8-1:0] OWN_TRIPLES = {
      // k = 26: directions 12 .. 0 (unused slots 0)
      8'd4, 8'd0, 8'd25, 8'd8, 8'd1, 8'd24, 8'd19, 8'd2, 8'd23, 8'd16, 8'd13, 8'd22,
      8'd11, 8'd2, 8'd21, 8'd22, 8'd14, 8'd20, 8'd12, 8'd2, 8'd19, 8'd22, 8'd13, 8'd18,
      8'd12, 8'd1, 8'd17, 8'd22, 8'd13, 8'd16, 8'd10, 8'd6, 8'd15, 8'd11, 8'd4, 8'd14,
      8'd17, 8'd12, 8'd13,
      // k = 24: directions 12 .. 0 (unused slots 0)
      8'd0, 8'd0, 8'd0, 8'd4, 8'd0, 8'd23, 8'd8, 8'd1, 8'd22, 8'd18, 8'd2, 8'd21,
      8'd10, 8'd2, 8'd20, 8'd15, 8'd13, 8'd19, 8'd11, 8'd2, 8'd18, 8'd15, 8'd12, 8'd17,
      8'd11, 8'd1, 8'd16, 8'd17, 8'd12, 8'd15, 8'd9, 8'd6, 8'd14, 8'd10, 8'd4, 8'd13,
      8'd16, 8'd11, 8'd12,
      // k = 18: directions 12 .. 0 (unused slots 0)
      8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0,
      8'd5, 8'd2, 8'd17, 8'd6, 8'd4, 8'd16, 8'd7, 8'd2, 8'd15, 8'd11, 8'd8, 8'd14,
      8'd7, 8'd1, 8'd13, 8'd14, 8'd9, 8'd12, 8'd8, 8'd6, 8'd11, 8'd16, 8'd4, 8'd10,
      8'd14, 8'd12, 8'd9,
      // k = 14: directions 12 .. 0 (unused slots 0)
      8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0,
      8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd4, 8'd0, 8'd13, 8'd4, 8'd1, 8'd12,
      8'd5, 8'd2, 8'd11, 8'd11, 8'd7, 8'd10, 8'd12, 8'd4, 8'd9, 8'd11, 8'd5, 8'd8,
      8'd11, 8'd6, 8'd7,
      // k = 6: directions 12 .. 0 (unused slots 0)
      8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0,
      8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0,
      8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd0, 8'd1, 8'd0, 8'd5, 8'd2, 8'd0, 8'd4,
      8'd2, 8'd1, 8'd3
  };

endpackage
