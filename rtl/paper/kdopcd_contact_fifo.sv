// Contact FIFO in front of the AXI4-Stream output. Fall-through: when it is empty, a contact
// pushed in a cycle is offered on the stream in the same cycle (the SystemC model emits a contact
// in the tick its triangle test completes). The controller admits a triangle test only while
// count + tests in flight < DEPTH, so a push never finds the FIFO full (assertion).
module kdopcd_contact_fifo #(
  parameter int DEPTH = 32,   // power of two
  parameter int DW    = 64
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     push_i,
  input  logic [DW-1:0]            push_data_i,
  output logic                     tvalid_o,
  input  logic                     tready_i,
  output logic [DW-1:0]            tdata_o,
  output logic [$clog2(DEPTH+1)-1:0] count_o,
  output logic                     empty_next_o
);

  localparam int AW = $clog2(DEPTH);
  localparam int CW = $clog2(DEPTH + 1);

  logic [DW-1:0] mem_q [DEPTH];
  logic [AW-1:0] head_q, tail_q;
  logic [CW-1:0] count_q, count_d;
  logic          pop, store;

  assign tvalid_o = count_q != '0 || push_i;
  assign tdata_o  = count_q != '0 ? mem_q[head_q] : push_data_i;
  assign pop      = tvalid_o && tready_i;
  // A push is stored unless it leaves at once (empty FIFO, taken in the same cycle).
  assign store    = push_i && !(count_q == '0 && tready_i);
  assign count_d  = count_q + CW'(store) - CW'(pop && count_q != '0);
  assign count_o  = count_q;
  assign empty_next_o = count_d == '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q  <= '0;
      tail_q  <= '0;
      count_q <= '0;
    end else begin
      if (store) tail_q <= tail_q + AW'(1);
      if (pop && count_q != '0) head_q <= head_q + AW'(1);
      count_q <= count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (store) mem_q[tail_q] <= push_data_i;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else if (store && count_q == CW'(DEPTH)) begin
      $error("kdopcd_contact_fifo: push into a full FIFO");
    end
  end
`endif

endmodule
