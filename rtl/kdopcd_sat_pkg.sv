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

endpackage
