# The N slowest register endpoints of a mapped netlist, for scripts/fpga-report.sh --endpoints.
#
# Yosys's sta prints only the single worst path. To see what comes after it, this script runs sta
# on the netlist that fpga-report.sh kept (TAG.il), removes the capturing register of the worst
# path (every flip-flop with the same pin on a bit of the same net) and the logic that fed only
# it, and repeats.
# Each run's report goes to OUTDIR/NN.sta.txt; scripts/fpga_report.py endpoints turns them into a
# table with the same clock estimate as the report.
#
# Run by fpga-report.sh as: EP_IL=TAG.il EP_OUT=OUTDIR EP_COUNT=N yosys -q -c fpga_endpoints.tcl
yosys -import

set il     $::env(EP_IL)
set outdir $::env(EP_OUT)
set count  $::env(EP_COUNT)
file mkdir $outdir

# Yosys selection patterns treat \ * ? [ as pattern characters; escape them to match a name.
proc pattern_of {name} {
  return [string map {\\ \\\\ * \\* ? \\? [ \\[ ] \\]} $name]
}

# the Xilinx cell library as synth_xilinx reads it (cells_xtra.v has the parametric black boxes
# such as URAM288), with the timing arcs; then the kept netlist (its top module only)
yosys read_verilog -lib -specify +/xilinx/cells_sim.v
yosys read_verilog -lib +/xilinx/cells_xtra.v
yosys read_rtlil $il
# sta finds no path when run a second time on the same design (Yosys 0.23), so every run starts
# from a saved copy with the registers found so far removed again.
yosys design -save analysed
set removed {}
set top ""

for {set i 1} {$i <= $count} {incr i} {
  set report [format "%s/%02d.sta.txt" $outdir $i]
  yosys design -load analysed
  if {$top ne ""} {
    yosys cd $top
    foreach sel $removed { yosys delete {*}$sel }
    # the logic that fed only the removed registers would end paths at dangling nets
    yosys opt_clean
  }
  yosys tee -q -o $report sta
  set fh [open $report r]
  set lines [split [read $fh] "\n"]
  close $fh
  # the endpoint: the first line of the path, "<arrival> <cell> (<TYPE>.<PIN>)", then the net
  # into that pin
  set cell ""
  set net ""
  for {set l 0} {$l < [llength $lines]} {incr l} {
    if {[regexp {^\s+\d+ (\S+) \((\w+)\.(\w+)\)$} [lindex $lines $l] -> cell type pin]} {
      set net [string trim [lindex $lines [expr {$l + 1}]]]
      break
    }
  }
  if {$cell eq ""} { break }
  # the selections name objects inside the analysed (flattened) top
  regexp {Latest arrival time in '([^']+)'} [join $lines "\n"] -> top
  regsub {\s*\[\d+\]$} $net "" bus
  if {[string match FD* $type]} {
    # the whole register: every flip-flop whose input pin (D, CE or R) is a bit of that net
    # (removing one bit of a sum would leave its carry chain's other outputs dangling, and sta
    # reports the latest net, endpoint or not)
    if {[string index $bus 0] eq "\\"} { set bus [string range $bus 1 end] }
    lappend removed [list w:[pattern_of $bus] %co:+\[$pin\] t:FD* %i]
  } else {
    lappend removed [list [pattern_of $cell]]
  }
}
