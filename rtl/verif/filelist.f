// Simulation-only protocol checkers (verilated with --assert; never synthesized). Paths are
// relative to this file. A top's checkers are attached by its bind file:
//   verilator -F rtl/paper/filelist.f -F rtl/verif/filelist.f rtl/verif/kdopcd_top_checkers.sv
kdopcd_axi_read_checker.sv
kdopcd_axi_write_checker.sv
kdopcd_axil_checker.sv
kdopcd_axis_checker.sv
