// The paper's PipeData (§5.2): a shift register of DEPTH stages that carries each axis test's
// valid bit and tag alongside the datapath. cancel_i drops every test of pair cancel_pair_i:
// it masks the valid bit of each test of that pair as it moves into the next stage, including
// a test accepted in the same cycle. So a cancel in cycle t removes every test of the pair that
// would be on the outputs in cycle t+1 or later; the output of cycle t itself is not touched.
module kdopcd_sat_pipedata #(
  parameter int DEPTH = 7
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                valid_i,
  input  kdopcd_sat_pkg::tag_t                tag_i,
  input  logic                                cancel_i,
  input  logic [kdopcd_sat_pkg::PAIR_W-1:0]   cancel_pair_i,
  output logic                                valid_o,
  output kdopcd_sat_pkg::tag_t                tag_o
);

  localparam int TW = kdopcd_sat_pkg::TAG_W;
  localparam int PW = kdopcd_sat_pkg::PAIR_W;

  // stage s at [s*TW +: TW] / bit s; the pair id is the top PW bits of a tag (tag_t order)
  logic [DEPTH-1:0]    valid_d, valid_q;
  logic [DEPTH*TW-1:0] tag_d, tag_q;
  logic [DEPTH-1:0]    prev_valid;
  logic [DEPTH*TW-1:0] prev_tag;

  assign prev_valid = {valid_q[DEPTH-2:0], valid_i};
  assign prev_tag   = {tag_q[(DEPTH-1)*TW-1:0], tag_i};

  always_comb begin
    for (int s = 0; s < DEPTH; s++) begin
      valid_d[s] = prev_valid[s] &
                   ~(cancel_i && (prev_tag[s*TW + TW - PW +: PW] == cancel_pair_i));
    end
  end
  assign tag_d = prev_tag;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= valid_d;
    end
  end

  // Tags need no reset: they are qualified by the valid bits.
  always_ff @(posedge clk_i) begin
    tag_q <= tag_d;
  end

  assign valid_o = valid_q[DEPTH-1];
  assign tag_o   = tag_q[(DEPTH-1)*TW +: TW];

endmodule
