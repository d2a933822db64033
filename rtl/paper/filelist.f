// Accelerator top sources in compile order (packages first): the contract packages, the SAT pipeline (rtl/common/sat_filelist.f),
// then the top's own modules. Synthesizable files only; the simulation checkers in rtl/verif/ are
// not listed here. Paths are relative to this file:
//   verilator -F rtl/paper/filelist.f ...   (-F: relative to the file's directory)
//   yosys: scripts/synth-top.sh reads the same list.
../common/kdopcd_format_pkg.sv
../common/kdopcd_pkg.sv
../common/kdopcd_sat_pkg.sv
../common/kdopcd_sat_select.sv
../common/kdopcd_sat_mul.sv
../common/kdopcd_sat_addtree.sv
../common/kdopcd_sat_pipedata.sv
../common/kdopcd_sat_pipeline.sv
kdopcd_regs.sv
../common/kdopcd_tri_place.sv
../common/kdopcd_tri_orient.sv
../common/kdopcd_tri_decide.sv
../common/kdopcd_tri_unit.sv
kdopcd_contact_fifo.sv
kdopcd_stack.sv
kdopcd_fetch.sv
kdopcd_ctrl.sv
kdopcd_top.sv
