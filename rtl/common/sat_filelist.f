// SAT pipeline sources in compile order (package first). Paths are relative to this file:
//   verilator -F rtl/common/sat_filelist.f ...   (-F: relative to the file's directory)
//   yosys: scripts/synth-sat.sh reads the same list.
kdopcd_sat_pkg.sv
kdopcd_sat_select.sv
kdopcd_sat_mul.sv
kdopcd_sat_addtree.sv
kdopcd_sat_pipedata.sv
kdopcd_sat_pipeline.sv
kdopcd_sat_lane.sv
kdopcd_sat_wide.sv
