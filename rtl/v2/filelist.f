// v2 accelerator top sources in compile order (packages first). Synthesizable files only; the
// simulation checkers in rtl/verif/ are not listed. Paths are relative to this file:
//   verilator -F rtl/v2/filelist.f ...   (-F: relative to the file's directory)
../common/kdopcd_format_pkg.sv
../common/kdopcd_v2_pkg.sv
../common/kdopcd_sat_pkg.sv
../common/kdopcd_sat_addtree.sv
../common/kdopcd_sat_lane.sv
../common/kdopcd_sat_wide.sv
../common/kdopcd_tri_seq_pkg.sv
../common/kdopcd_tri_seq_place.sv
../common/kdopcd_tri_seq_minor.sv
../common/kdopcd_tri_seq_det.sv
../common/kdopcd_tri_seq_hold.sv
../common/kdopcd_tri_decide.sv
../common/kdopcd_tri_seq.sv
kdopcd_v2_ram.sv
kdopcd_v2_fetch.sv
kdopcd_v2_fifo.sv
kdopcd_v2_pending.sv
kdopcd_v2_loader.sv
kdopcd_v2_regs.sv
kdopcd_v2_engine.sv
kdopcd_v2_cmdq.sv
kdopcd_v2_wdma.sv
kdopcd_v2_top.sv
