// The command queue's write-back of the v2 top (docs/accelerator-v2.md, "Command queue"): the
// contacts of every engine's queued query, packed CONTACTS_PER_BEAT to a beat of the DMA port,
// and each query's completion record, written to host memory through one AXI4 write master.
//
// Per clock t (the model's contract, docs/model-v2.md "End to end"), engine by engine in index
// order:
//   - a contact taken from engine e's stream in t joins e's current beat; the beat that it fills
//     is queued in t, one burst of one beat at CONTACT_BASE + DMA_W/8 * (beat index);
//   - in the clock after e's DONE (done_i[e]) its last partial beat (byte strobes for its
//     contacts) and its completion record (CPL_BEATS beats at COMPLETION_BASE) are queued: one
//     burst, or one burst per beat where the record would cross a 4 KiB boundary (AXI4 forbids a
//     burst across one; the contract makes the bases beat-aligned, so a beat never crosses);
//   - a burst queued in t puts its address and length into the AW queue and its beats into the
//     beat FIFO, both in queueing order. The AW and W channels are independent (AXI4 lets the
//     slave take W beats before, with or after their AW): the AW channel offers the AW queue's
//     head from the clock after it was queued and holds it (AWVALID, payload) until AWREADY; the W
//     channel offers the beat FIFO's head from the clock after it was queued, WLAST on each burst's
//     last beat, whether or not that burst's AW was taken. With a slave that takes each AW at once
//     and W after its AW, both heads move as one: a burst's AW and first beat in the same clock,
//     the next burst from the clock after the last beat of the one before. Write responses are
//     taken and not waited for (the writes are posted).
// Contacts beyond CONTACT_CAPACITY are counted, not written (CONTACT_OVERFLOW in the record).
// Nothing is lost: a contact is taken only while the beat FIFO has room for every beat and the AW
// queue for every burst all engines could queue in one clock (contact_ready_o), and room_o tells
// the front end whether a query may start; with a link that keeps up with the engines' contacts
// neither ever waits (an AW queue as deep as the beat FIFO is never the fuller of the two while
// the slave takes each AW no later than its first beat).
module kdopcd_v2_wdma #(
  parameter int DMA_W        = kdopcd_v2_pkg::DEFAULT_DMA_W,
  parameter int NCNT         = kdopcd_v2_pkg::NUM_COUNTERS,
  parameter int ENGINES      = kdopcd_v2_pkg::DEFAULT_ENGINES,
  parameter int DEPTH        = 16,  // beats queued at most, and bursts whose AW is not taken (a power of two)
  localparam int AW          = 64
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // the query starting on engine e (start_i[e]), its targets
  input  logic [ENGINES-1:0]         start_i,
  input  logic [63:0]                tag_i,
  input  logic [63:0]                contact_base_i,
  input  logic [31:0]                contact_capacity_i,
  input  logic [63:0]                completion_base_i,
  input  logic                       desc_error_i,
  // the engines' contacts while their queued queries run (engine e at [e*64 +: 64])
  input  logic [ENGINES-1:0]         contact_valid_i,
  output logic [ENGINES-1:0]         contact_ready_o,
  input  logic [ENGINES*64-1:0]      contact_i,
  // the clock after engine e's DONE: its counters and overflow flag
  input  logic [ENGINES-1:0]         done_i,
  input  logic [ENGINES-1:0]         overflow_i,
  input  logic [ENGINES*NCNT*64-1:0] counters_i,
  output logic                       room_o,          // a query may start
  output logic [31:0]                completions_o,   // QUEUE_DONE
  // AXI4 write master
  output logic                       m_axi_awvalid_o,
  input  logic                       m_axi_awready_i,
  output logic [AW-1:0]              m_axi_awaddr_o,
  output logic [7:0]                 m_axi_awlen_o,
  output logic [2:0]                 m_axi_awsize_o,
  output logic [1:0]                 m_axi_awburst_o,
  output logic                       m_axi_wvalid_o,
  input  logic                       m_axi_wready_i,
  output logic [DMA_W-1:0]           m_axi_wdata_o,
  output logic [DMA_W/8-1:0]         m_axi_wstrb_o,
  output logic                       m_axi_wlast_o,
  input  logic                       m_axi_bvalid_i,
  output logic                       m_axi_bready_o,
  input  logic [1:0]                 m_axi_bresp_i
);

  localparam int PerBeat  = kdopcd_v2_pkg::contacts_per_beat(DMA_W);
  localparam int CplBeats = kdopcd_v2_pkg::cpl_beats(DMA_W);
  localparam int CntW     = $clog2(PerBeat);
  localparam int QW       = $clog2(DEPTH);
  localparam int Bytes    = DMA_W / 8;
  localparam int Slots    = 1 + CplBeats;       // beats one engine queues in one clock, at most
  localparam int Pushes   = ENGINES * Slots;    // all engines
  localparam int Bursts   = Pushes;            // bursts all engines queue in one clock, at most (a split record)
  localparam int NW       = $clog2(Pushes + 1);
  localparam int BeatBits = 2 + Bytes + DMA_W;  // $bits(beat_t), which Yosys 0.23 does not take
  localparam int HdrBits  = 8 + AW;             // $bits(burst_t)

  // a W beat
  typedef struct packed {
    logic              last;        // the burst's last beat (WLAST)
    logic              completion;  // the last beat of a completion record
    logic [Bytes-1:0]  strb;
    logic [DMA_W-1:0]  data;
  } beat_t;
  // a burst's AW
  typedef struct packed {
    logic [7:0]        len;         // beats - 1
    logic [AW-1:0]     addr;
  } burst_t;

  // ---- per engine: the query's targets (latched at START) and its beat being packed
  logic [63:0]        tag_q [ENGINES];
  logic [63:0]        contact_base_q [ENGINES];
  logic [63:0]        completion_base_q [ENGINES];
  logic [31:0]        capacity_q [ENGINES];
  logic [31:0]        contacts_q [ENGINES];
  logic [31:0]        beats_q [ENGINES];
  logic               desc_error_q [ENGINES];
  logic [CntW-1:0]    packed_q [ENGINES];
  logic [ENGINES*(PerBeat-1)*64-1:0] pack_q;  // engine e's contact c at [(e*(PerBeat-1) + c)*64 +: 64]

  // ---- the beat FIFO (W) and the AW queue
  logic [BeatBits-1:0] fifo_q [DEPTH];   // beat_t entries, as vectors: Yosys 0.23 gives an array of a struct type 1-bit elements
  logic [HdrBits-1:0]  awq_q [DEPTH];    // burst_t entries, likewise
  logic [QW-1:0]       rd_q, rd_d, aw_rd_q, aw_rd_d;
  logic [QW:0]         count_q, count_d, aw_count_q, aw_count_d;
  logic                w_hs, aw_hs;
  logic [31:0]         completions_q, completions_d;
  beat_t               head;
  burst_t              aw_head;

  // Room for every beat and every burst all engines could queue in this clock, after this
  // contact's beat.
  assign room_o = 32'(count_q) + Pushes <= DEPTH && 32'(aw_count_q) + Bursts <= DEPTH;
  assign contact_ready_o = {ENGINES{room_o}};

  // ---- the beats engine e queues in this clock: slot 0 a beat of contacts (full, or the last
  // partial one at done_i), slots 1.. the completion record (done_i)
  // Slot i's beat at [i*BeatBits +: BeatBits], assigned whole in the struct's field order. Flat:
  // Yosys 0.23 gives the elements of an array (packed or not) of a struct type one bit each, a
  // silently wrong netlist (docs/toolchain.md §4).
  logic [Pushes*BeatBits-1:0] slot_beat;
  logic [Pushes*HdrBits-1:0]  slot_hdr;    // slot i's burst at [i*HdrBits +: HdrBits] where slot_first[i]
  logic [Pushes-1:0]          slot_valid;
  logic [Pushes-1:0]          slot_first;  // the slot's beat starts a burst
  for (genvar e = 0; e < ENGINES; e++) begin : g_engine
    logic                        take, full_beat, partial, split;
    logic [CplBeats*DMA_W-1:0]   record;
    logic [DMA_W-1:0]            data;
    logic [Bytes-1:0]            strb;
    assign take      = contact_valid_i[e] && contact_ready_o[e];
    assign full_beat = take && contacts_q[e] < capacity_q[e] && 32'(packed_q[e]) == PerBeat - 1;
    assign partial   = done_i[e] && packed_q[e] != '0;
    // The record crosses a 4 KiB boundary: each of its beats is a burst of its own.
    assign split     = 13'(completion_base_q[e][11:0]) + 13'(CplBeats * Bytes) > 13'd4096;
    // The completion record (kdopcd_contract/command_queue.hpp): tag, status, the counters.
    always_comb begin
      record         = '0;
      record[63:0]   = tag_q[e];
      record[127:64] = {28'd0, desc_error_q[e], contacts_q[e] > capacity_q[e], overflow_i[e], 1'b1, contacts_q[e]};
      record[128 +: NCNT*64] = counters_i[e*NCNT*64 +: NCNT*64];
    end
    always_comb begin
      for (int c = 0; c < PerBeat - 1; c++) begin
        data[64*c +: 64] = pack_q[(e*(PerBeat-1) + c)*64 +: 64];
        strb[8*c +: 8]   = {8{done_i[e] ? c < 32'(packed_q[e]) : 1'b1}};
      end
      data[64*(PerBeat-1) +: 64] = contact_i[e*64 +: 64];
      strb[8*(PerBeat-1) +: 8]   = {8{!done_i[e]}};
    end
    assign slot_beat[e*Slots*BeatBits +: BeatBits] = {1'b1, 1'b0, strb, data};
    assign slot_hdr[e*Slots*HdrBits +: HdrBits]    = {8'd0, contact_base_q[e] + AW'(beats_q[e]) * AW'(Bytes)};
    assign slot_valid[e*Slots] = full_beat || partial;
    assign slot_first[e*Slots] = 1'b1;
    for (genvar b = 0; b < CplBeats; b++) begin : g_record
      assign slot_beat[(e*Slots + 1 + b)*BeatBits +: BeatBits] =
          {split || b == CplBeats - 1, b == CplBeats - 1, {Bytes{1'b1}}, record[b*DMA_W +: DMA_W]};
      assign slot_hdr[(e*Slots + 1 + b)*HdrBits +: HdrBits] =
          split ? {8'd0, completion_base_q[e] + AW'(b * Bytes)} : {8'(CplBeats - 1), completion_base_q[e]};
      assign slot_valid[e*Slots + 1 + b] = done_i[e];
      assign slot_first[e*Slots + 1 + b] = split || b == 0;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        tag_q[e]             <= '0;
        contact_base_q[e]    <= '0;
        completion_base_q[e] <= '0;
        capacity_q[e]        <= '0;
        desc_error_q[e]      <= 1'b0;
        contacts_q[e]        <= '0;
        beats_q[e]           <= '0;
        packed_q[e]          <= '0;
      end else begin
        if (start_i[e]) begin
          tag_q[e]             <= tag_i;
          contact_base_q[e]    <= contact_base_i;
          completion_base_q[e] <= completion_base_i;
          capacity_q[e]        <= contact_capacity_i;
          desc_error_q[e]      <= desc_error_i;
          contacts_q[e]        <= '0;
          beats_q[e]           <= '0;
          packed_q[e]          <= '0;
        end else if (done_i[e]) begin
          packed_q[e] <= '0;
        end else if (take) begin
          contacts_q[e] <= contacts_q[e] + 32'd1;
          if (contacts_q[e] < capacity_q[e]) begin
            if (32'(packed_q[e]) == PerBeat - 1) begin
              packed_q[e] <= '0;
              beats_q[e]  <= beats_q[e] + 32'd1;
            end else begin
              packed_q[e] <= packed_q[e] + 1'b1;
            end
          end
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (take && contacts_q[e] < capacity_q[e] && 32'(packed_q[e]) != PerBeat - 1)
        for (int c = 0; c < PerBeat - 1; c++)
          if (32'(packed_q[e]) == c) pack_q[(e*(PerBeat-1) + c)*64 +: 64] <= contact_i[e*64 +: 64];
    end
  end

  // ---- the FIFOs: the valid slots in slot order (engine by engine); a slot that starts a burst
  // also queues its AW
  logic [NW-1:0] ahead [Pushes];     // valid slots ahead of slot i: its place behind the tail
  logic [NW-1:0] aw_ahead [Pushes];  // bursts ahead of slot i's
  logic [NW-1:0] npush, naw;
  always_comb begin
    npush = '0;
    naw   = '0;
    for (int i = 0; i < Pushes; i++) begin
      ahead[i]    = npush;
      aw_ahead[i] = naw;
      npush       = npush + NW'(slot_valid[i]);
      naw         = naw + NW'(slot_valid[i] && slot_first[i]);
    end
  end

  assign head    = fifo_q[rd_q];
  assign aw_head = awq_q[aw_rd_q];
  assign w_hs    = m_axi_wvalid_o && m_axi_wready_i;
  assign aw_hs   = m_axi_awvalid_o && m_axi_awready_i;

  always_comb begin
    rd_d          = w_hs ? rd_q + 1'b1 : rd_q;
    count_d       = count_q + (QW+1)'(npush) - (QW+1)'(w_hs);
    aw_rd_d       = aw_hs ? aw_rd_q + 1'b1 : aw_rd_q;
    aw_count_d    = aw_count_q + (QW+1)'(naw) - (QW+1)'(aw_hs);
    completions_d = completions_q;
    if (w_hs && head.last && head.completion) completions_d = completions_q + 32'd1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q          <= '0;
      count_q       <= '0;
      aw_rd_q       <= '0;
      aw_count_q    <= '0;
      completions_q <= '0;
    end else begin
      rd_q          <= rd_d;
      count_q       <= count_d;
      aw_rd_q       <= aw_rd_d;
      aw_count_q    <= aw_count_d;
      completions_q <= completions_d;
    end
  end

  // Each entry's write enable and data, with constant indices only.
  logic [DEPTH-1:0]          entry_we, aw_entry_we;
  logic [DEPTH*BeatBits-1:0] entry_wdata;     // flat, as slot_beat
  logic [DEPTH*HdrBits-1:0]  aw_entry_wdata;  // flat, as slot_hdr
  always_comb begin
    entry_we       = '0;
    aw_entry_we    = '0;
    for (int d = 0; d < DEPTH; d++) begin
      entry_wdata[d*BeatBits +: BeatBits]   = slot_beat[0 +: BeatBits];  // written only with entry_we[d]
      aw_entry_wdata[d*HdrBits +: HdrBits]  = slot_hdr[0 +: HdrBits];    // likewise, aw_entry_we[d]
      for (int i = 0; i < Pushes; i++) begin
        if (slot_valid[i] && QW'(32'(rd_q) + 32'(count_q) + 32'(ahead[i])) == QW'(d)) begin
          entry_we[d]                         = 1'b1;
          entry_wdata[d*BeatBits +: BeatBits] = slot_beat[i*BeatBits +: BeatBits];
        end
        if (slot_valid[i] && slot_first[i] && QW'(32'(aw_rd_q) + 32'(aw_count_q) + 32'(aw_ahead[i])) == QW'(d)) begin
          aw_entry_we[d]                       = 1'b1;
          aw_entry_wdata[d*HdrBits +: HdrBits] = slot_hdr[i*HdrBits +: HdrBits];
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    for (int d = 0; d < DEPTH; d++) begin
      if (entry_we[d])    fifo_q[d] <= entry_wdata[d*BeatBits +: BeatBits];
      if (aw_entry_we[d]) awq_q[d]  <= aw_entry_wdata[d*HdrBits +: HdrBits];
    end
  end

  // AW: the AW queue's head, held until AWREADY; W: the beat FIFO's head, independent of AW.
  assign m_axi_awvalid_o = aw_count_q != '0;
  assign m_axi_awaddr_o  = aw_head.addr;
  assign m_axi_awlen_o   = aw_head.len;
  assign m_axi_awsize_o  = 3'($clog2(Bytes));
  assign m_axi_awburst_o = 2'b01;  // INCR
  assign m_axi_wvalid_o  = count_q != '0;
  assign m_axi_wdata_o   = head.data;
  assign m_axi_wstrb_o   = head.strb;
  assign m_axi_wlast_o   = head.last;
  assign m_axi_bready_o  = 1'b1;
  assign completions_o   = completions_q;

  logic unused;
  assign unused = ^{m_axi_bvalid_i, m_axi_bresp_i};

endmodule
