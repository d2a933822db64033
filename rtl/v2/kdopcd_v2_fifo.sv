// Registered FIFO of the v2 engine (the triangle queue and the contact queue): a push in clock t
// is visible at the head from t + 1, as the model's queues are (docs/model-v2.md, "Timing
// contract"). The head is read combinationally from the array (distributed RAM). The engine's
// credits guarantee that a push never finds the FIFO full and a pop never finds it empty; both
// are checked in simulation.
module kdopcd_v2_fifo #(
  parameter int DEPTH = 64,
  parameter int DW    = 64
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       clear_i,  // a new query: empty
  input  logic                       push_i,
  input  logic [DW-1:0]              push_data_i,
  input  logic                       pop_i,
  output logic [DW-1:0]              head_o,    // valid when count_o != 0
  output logic [$clog2(DEPTH+1)-1:0] count_o
);

  localparam int AW = DEPTH > 1 ? $clog2(DEPTH) : 1;
  localparam int CW = $clog2(DEPTH + 1);

  logic [DW-1:0] mem_q [DEPTH];
  logic [AW-1:0] head_q, head_d, tail_q, tail_d;
  logic [CW-1:0] count_q, count_d;

  function automatic logic [AW-1:0] next_index(input logic [AW-1:0] i);
    next_index = (32'(i) == DEPTH - 1) ? '0 : i + AW'(1);
  endfunction

  always_comb begin
    head_d  = pop_i ? next_index(head_q) : head_q;
    tail_d  = push_i ? next_index(tail_q) : tail_q;
    count_d = count_q + CW'(push_i) - CW'(pop_i);
    if (clear_i) begin
      head_d  = '0;
      tail_d  = '0;
      count_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q  <= '0;
      tail_q  <= '0;
      count_q <= '0;
    end else begin
      head_q  <= head_d;
      tail_q  <= tail_d;
      count_q <= count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[tail_q] <= push_data_i;
  end

  assign head_o  = mem_q[head_q];
  assign count_o = count_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else begin
      if (!clear_i && push_i && !pop_i && 32'(count_q) == DEPTH)
        $error("kdopcd_v2_fifo: push into a full FIFO (a credit is wrong)");
      if (!clear_i && pop_i && count_q == '0)
        $error("kdopcd_v2_fifo: pop from an empty FIFO");
    end
  end
`endif

endmodule
