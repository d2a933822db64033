// The pending set of the v2 engine: a LIFO of node pairs (docs/model-v2.md). Per clock the
// scheduler pops at most one pair (the top, read combinationally) and a verdict pushes at most two
// children; the pushes are registered (visible from the next clock) and land above what is left
// after the pop, the second pushed on top, as in the model's PairStack::stage/commit.
//
// Two pushes per clock without a two-write-port RAM: entries at even positions live in one bank,
// odd ones in the other, and the two children always go to adjacent positions (distributed RAM,
// one write port and an asynchronous read each).
//
// Capacity: `limit_i` entries (at most DEPTH). A push that does not fit raises overflow_o in that
// clock (the engine ends the query with the error); the children that fit are kept, as in the
// model, so the reported largest occupancy matches.
module kdopcd_v2_pending #(
  parameter int DEPTH = 1024,  // even
  parameter int EW    = 52
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       init_i,        // a new query: the root entry alone
  input  logic [EW-1:0]              init_data_i,
  input  logic [$clog2(DEPTH+1)-1:0] limit_i,
  input  logic                       pop_i,         // only when count_o != 0
  output logic [EW-1:0]              top_o,
  input  logic                       push_i,        // two entries: first_i, then second_i on top
  input  logic [EW-1:0]              push_first_i,
  input  logic [EW-1:0]              push_second_i,
  output logic [$clog2(DEPTH+1)-1:0] count_o,       // entries visible to the scheduler
  output logic [$clog2(DEPTH+1)-1:0] count_next_o,  // after this clock's pop and pushes
  output logic                       overflow_o
);

  localparam int CW = $clog2(DEPTH + 1);
  localparam int BW = $clog2(DEPTH / 2);  // address within a bank

  // Two separate arrays (not one [2][DEPTH/2]): synthesis maps each to distributed RAM.
  logic [EW-1:0] bank0_q [DEPTH/2];
  logic [EW-1:0] bank1_q [DEPTH/2];
  logic [CW-1:0] count_q, count_d, base;
  logic [CW-1:0] top_pos;
  logic          we0, we1;
  logic [BW-1:0] wa0, wa1;
  logic [EW-1:0] wd0, wd1;
  logic          fit_first, fit_second;

  if (DEPTH % 2 != 0 || DEPTH < 2) begin : g_depth_check
    $error("kdopcd_v2_pending: DEPTH must be even and at least 2");
  end

  assign top_pos = count_q - CW'(1);
  assign top_o   = top_pos[0] ? bank1_q[BW'(top_pos >> 1)] : bank0_q[BW'(top_pos >> 1)];

  always_comb begin
    base       = count_q - CW'(pop_i);
    fit_first  = push_i && base < limit_i;
    fit_second = push_i && base + CW'(1) < limit_i;
    overflow_o = push_i && !fit_second;
    count_d    = base + CW'(fit_first) + CW'(fit_second);
    // Position base takes the first child, base + 1 the second: one to each bank.
    we0 = 1'b0;
    we1 = 1'b0;
    wa0 = '0;
    wa1 = '0;
    wd0 = push_first_i;
    wd1 = push_second_i;
    if (base[0] == 1'b0) begin
      we0 = fit_first;
      wa0 = BW'(base >> 1);
      we1 = fit_second;
      wa1 = BW'(base >> 1);
      wd0 = push_first_i;
      wd1 = push_second_i;
    end else begin
      we1 = fit_first;
      wa1 = BW'(base >> 1);
      we0 = fit_second;
      wa0 = BW'((base >> 1) + CW'(1));
      wd1 = push_first_i;
      wd0 = push_second_i;
    end
    if (init_i) begin
      count_d = CW'(1);
      we0     = 1'b1;
      wa0     = '0;
      wd0     = init_data_i;
      we1     = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else         count_q <= count_d;
  end

  always_ff @(posedge clk_i) begin
    if (we0) bank0_q[wa0] <= wd0;
    if (we1) bank1_q[wa1] <= wd1;
  end

  assign count_o      = count_q;
  assign count_next_o = count_d;

endmodule
