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
  input  logic [$clog2(DEPTH+1)-1:0] limit_less_i,  // limit_i - 1, from a register
  input  logic                       pop_i,         // only when count_o != 0
  output logic [EW-1:0]              top_o,
  input  logic                       push_i,        // two entries: first_i, then second_i on top
  input  logic [EW-1:0]              push_first_i,
  input  logic [EW-1:0]              push_second_i,
  output logic [$clog2(DEPTH+1)-1:0] count_o,       // entries visible to the scheduler
  output logic                       empty_next_o,  // none left after this clock's pop and pushes
  output logic [1:0]                 grow_keep_o,   // children kept if this clock pops nothing
  output logic [1:0]                 grow_pop_o,    // children kept if it pops
  output logic                       overflow_o
);

  localparam int CW = $clog2(DEPTH + 1);
  localparam int BW = $clog2(DEPTH / 2);  // address within a bank

  // Two separate arrays (not one [2][DEPTH/2]): synthesis maps each to distributed RAM.
  logic [EW-1:0] bank0_q [DEPTH/2];
  logic [EW-1:0] bank1_q [DEPTH/2];
  logic [CW-1:0] count_q, count_d;
  logic [CW-1:0] top_pos;  // count_q - 1: the top, and where the children start after a pop
  logic          we0, we1;
  logic [BW-1:0] wa0, wa1;
  logic [EW-1:0] wd0, wd1;

  if (DEPTH % 2 != 0 || DEPTH < 2) begin : g_depth_check
    $error("kdopcd_v2_pending: DEPTH must be even and at least 2");
  end

  // The writes of a clock reach the banks one clock later (we*_q, wa*_q, wd*_q), so that the
  // pop, which chooses the write positions, does not also drive the banks' write decoders. A read
  // of a position whose write still waits takes the waiting data: it is the newest.
  logic          we0_q, we1_q;
  logic [BW-1:0] wa0_q, wa1_q, top_half;
  logic [EW-1:0] wd0_q, wd1_q;

  assign top_pos  = count_q - CW'(1);
  assign top_half = BW'(top_pos >> 1);
  assign top_o    = top_pos[0] ? (we1_q && wa1_q == top_half ? wd1_q : bank1_q[top_half])
                               : (we0_q && wa0_q == top_half ? wd0_q : bank0_q[top_half]);

  // The pop is the scheduler's issue decision, the latest signal of the clock. Everything here is
  // therefore computed twice from registers, once for "no pop" (the children land at count_q) and
  // once for "pop" (at count_q - 1), and the pop only selects: no adder or comparison sits behind
  // it. The fits compare the registered count with the limit and the limit less one; the next
  // count is one of count_q - 1 .. count_q + 2, chosen by the pop and the fits.
  logic [CW-1:0] next_keep, next_pop, count_up, count_up2;
  logic          fit_first_keep, fit_second_keep, fit_first_pop, fit_second_pop;
  logic          fit_first, fit_second;
  logic [BW-1:0] half_keep, half_pop, half_keep_up, half_pop_up;

  always_comb begin
    count_up        = count_q + CW'(1);
    count_up2       = count_q + CW'(2);
    fit_first_keep  = push_i && count_q < limit_i;
    fit_second_keep = push_i && count_q < limit_less_i;
    fit_first_pop   = push_i && count_q <= limit_i;
    fit_second_pop  = fit_first_keep;
    next_keep       = fit_second_keep ? count_up2 : (fit_first_keep ? count_up : count_q);
    next_pop        = fit_second_pop ? count_up : (fit_first_pop ? count_q : top_pos);
    half_keep       = BW'(count_q >> 1);
    half_pop        = BW'(top_pos >> 1);
    half_keep_up    = BW'((count_q >> 1) + CW'(1));
    half_pop_up     = BW'((top_pos >> 1) + CW'(1));

    fit_first  = pop_i ? fit_first_pop : fit_first_keep;
    fit_second = pop_i ? fit_second_pop : fit_second_keep;
    overflow_o = push_i && !fit_second;
    count_d    = pop_i ? next_pop : next_keep;
    empty_next_o = pop_i ? count_q == CW'(1) && !fit_first_pop : count_q == '0 && !fit_first_keep;
    // The first child goes to position base (count_q, or count_q - 1 after a pop), the second to
    // base + 1: one to each bank.
    we0 = 1'b0;
    we1 = 1'b0;
    wa0 = '0;
    wa1 = '0;
    wd0 = push_first_i;
    wd1 = push_second_i;
    if ((pop_i ? top_pos[0] : count_q[0]) == 1'b0) begin
      we0 = fit_first;
      wa0 = pop_i ? half_pop : half_keep;
      we1 = fit_second;
      wa1 = pop_i ? half_pop : half_keep;
      wd0 = push_first_i;
      wd1 = push_second_i;
    end else begin
      we1 = fit_first;
      wa1 = pop_i ? half_pop : half_keep;
      we0 = fit_second;
      wa0 = pop_i ? half_pop_up : half_keep_up;
      wd1 = push_first_i;
      wd0 = push_second_i;
    end
    if (init_i) begin
      count_d      = CW'(1);
      empty_next_o = 1'b0;
      we0          = 1'b1;
      wa0          = '0;
      wd0          = init_data_i;
      we1          = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      we0_q   <= 1'b0;
      we1_q   <= 1'b0;
    end else begin
      count_q <= count_d;
      we0_q   <= we0;
      we1_q   <= we1;
    end
  end

  always_ff @(posedge clk_i) begin
    wa0_q <= wa0;
    wa1_q <= wa1;
    wd0_q <= wd0;
    wd1_q <= wd1;
    if (we0_q) bank0_q[wa0_q] <= wd0_q;
    if (we1_q) bank1_q[wa1_q] <= wd1_q;
  end

  assign count_o     = count_q;
  assign grow_keep_o = 2'(fit_first_keep) + 2'(fit_second_keep);
  assign grow_pop_o  = 2'(fit_first_pop) + 2'(fit_second_pop);

endmodule
