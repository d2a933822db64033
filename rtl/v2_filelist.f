// v2 accelerator top sources in compile order (packages first). Synthesizable files only; the
// simulation checkers in rtl/sim/ are not listed. Paths are relative to this file:
//   verilator -F rtl/v2_filelist.f ...   (-F: relative to the file's directory)
kdopcd_v2_pkg.sv
kdopcd_sat_pkg.sv
kdopcd_sat_addtree.sv
kdopcd_sat_lane.sv
kdopcd_sat_wide.sv
kdopcd_tri_seq_pkg.sv
kdopcd_tri_seq_place.sv
kdopcd_tri_seq_minor.sv
kdopcd_tri_seq_det.sv
kdopcd_tri_seq_hold.sv
kdopcd_tri_decide.sv
kdopcd_tri_seq.sv
kdopcd_v2_ram.sv
kdopcd_v2_fetch.sv
kdopcd_v2_fifo.sv
kdopcd_v2_pending.sv
kdopcd_v2_loader.sv
kdopcd_v2_regs.sv
kdopcd_v2_engine.sv
kdopcd_v2_top.sv
