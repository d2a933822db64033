// Accelerator top sources in compile order (packages first): the SAT pipeline (rtl/filelist.f),
// then the top's own modules. Synthesizable files only; the simulation checkers in rtl/sim/ are
// not listed here. Paths are relative to this file:
//   verilator -F rtl/top_filelist.f ...   (-F: relative to the file's directory)
//   yosys: scripts/synth-top.sh reads the same list.
kdopcd_sat_pkg.sv
kdopcd_sat_select.sv
kdopcd_sat_mul.sv
kdopcd_sat_addtree.sv
kdopcd_sat_pipedata.sv
kdopcd_sat_pipeline.sv
kdopcd_regs.sv
kdopcd_tri_place.sv
kdopcd_tri_orient.sv
kdopcd_tri_decide.sv
kdopcd_tri_unit.sv
kdopcd_contact_fifo.sv
kdopcd_stack.sv
kdopcd_fetch.sv
kdopcd_ctrl.sv
kdopcd_top.sv
