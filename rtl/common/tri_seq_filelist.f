// Time-multiplexed triangle unit (kdopcd_tri_seq) sources in compile order (package first).
// Paths are relative to this file:
//   verilator -F rtl/common/tri_seq_filelist.f ...   (-F: relative to the file's directory)
//   yosys: scripts/synth-tri-seq.sh reads the same list.
kdopcd_tri_seq_pkg.sv
kdopcd_tri_seq_place.sv
kdopcd_tri_seq_minor.sv
kdopcd_tri_seq_det.sv
kdopcd_tri_seq_hold.sv
kdopcd_tri_decide.sv
kdopcd_tri_seq.sv
