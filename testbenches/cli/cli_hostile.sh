#!/usr/bin/env bash
# Hostile outputs and the last hostile-input gaps of kdop (docs/cli.md), one class per run:
#   outputs        a device, FIFO or directory named as any output (traces included) is refused
#                  with status 2 and never written or replaced; the path written is the path named
#                  (no silent .vcd); a symbolic link is written through, never replaced
#   output-errors  an unwritable folder, a full disk (RLIMIT_FSIZE) under every writer (traces
#                  included), --help / --version / reports on a full standard output, two outputs
#                  that are one file through a link whose target does not exist yet, and an output
#                  that is the standard output's file: status 2 with the reason, never 0 or 3
#   input-limits   finite values beyond the scale limit in meshes, poses and scenes: status 2 in
#                  every backend and engine; the limit itself works (checked against brute force);
#                  kdop sim streams its poses (peak memory independent of their number); running
#                  out of memory is status 4 with the limit
#   integers       integer options in their full width: no wrap, no saturation, no octal or
#                  hexadecimal reading; generated scenes hold only finite numbers
#   ignored-options  an option that the chosen engine or backend would ignore is refused
# Device nodes are made with mknod in a temporary folder (never the real /dev): a refused mknod
# fails the test. After every class, every node is checked unchanged (type and numbers).
# Usage: cli_hostile.sh KDOP MESH_DIR CLASS [ENGINES]  (ENGINES: words model rtl systemc cuda that
# this build has; the release build has all)
set -u
kdop="$1"; meshes="$2"; class="$3"; engines=" ${4:-model rtl systemc cuda} "
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fail=0; pass=0
has() { [[ "$engines" == *" $1 "* ]]; }
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# run WANT_STATUS "stderr substring" kdop-args...: the status and message, with a time limit so
# that an output that blocks (a FIFO) fails instead of hanging.
run() {
  local want_rc="$1" want="$2"; shift 2
  local err rc
  err=$(timeout "${KDOPCD_CLI_TIMEOUT:-120}" "$kdop" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq "$want_rc" ] && [[ "$err" == *"$want"* ]]; then ok
  else bad "kdop $* -> status $rc, stderr: ${err:0:500} (wanted status $want_rc and '$want')"; fi
}
refused() { run 2 "$@"; }
check() {  # check "what" command...
  local what="$1"; shift
  if "$@"; then ok; else bad "$what"; fi
}

# --- device nodes of our own, and what else the classes share -----------------------------------
mknod "$tmp/null" c 1 3 || { echo "FAIL: mknod refused (the test needs root and mknod)"; exit 1; }
mknod "$tmp/full" c 1 7 || { echo "FAIL: mknod refused (the test needs root and mknod)"; exit 1; }
mknod "$tmp/full.vcd" c 1 7 && mknod "$tmp/null.fst" c 1 3 || { echo "FAIL: mknod refused"; exit 1; }
mkfifo "$tmp/fifo" "$tmp/fifo.vcd"
mkdir "$tmp/dir" "$tmp/dir.vcd"
nodes_intact() {  # every node is the device it was; no sibling was created for a name
  local n want
  for n in null:3 full:7 full.vcd:7 null.fst:3; do
    want="character special file 1 ${n#*:}"
    [ "$(stat -c '%F %t %T' "$tmp/${n%%:*}")" == "$(printf 'character special file %x %x' 1 "${n#*:}")" ] ||
      { bad "device node $tmp/${n%%:*} was changed: $(stat -c '%F %t %T' "$tmp/${n%%:*}") (wanted $want)"; continue; }
    ok
  done
  for f in null.vcd full.vcd.vcd fifo.vcd.vcd null.fst.hier full.hier; do
    [ -e "$tmp/$f" ] && bad "$tmp/$f was created beside a refused output" || ok
  done
  [ -p "$tmp/fifo" ] && [ -p "$tmp/fifo.vcd" ] && [ -d "$tmp/dir" ] && ok || bad "a FIFO or folder was replaced"
}
cube() {  # cube HALF_EXTENT FILE: an axis-aligned closed cube centred at the origin
  local h="$1"
  printf 'OFF\n8 12 0\n' > "$2"
  for z in -"$h" "$h"; do for y in -"$h" "$h"; do for x in -"$h" "$h"; do echo "$x $y $z" >> "$2"; done; done; done
  printf '3 0 2 1\n3 1 2 3\n3 4 5 6\n3 5 7 6\n3 0 1 4\n3 1 5 4\n3 2 6 3\n3 3 6 7\n3 0 4 2\n3 2 4 6\n3 1 3 5\n3 3 7 5\n' >> "$2"
}
cube 0.5 "$tmp/a.off"; cube 0.5 "$tmp/b.off"
cow="$meshes/cow.off"
pose=(--pose "1 0 0 0 0.5 0.25 0.125")
printf '1 0 0 0 0.5 0.25 0.125\n0.9 0.1 0.2 0.3 0.3 0 0\n' > "$tmp/two.poses"
grep -v '^#' "$(dirname "$0")/../data/sat_small.vec" | grep . | head -1 > "$tmp/one.vec"
sim=(sim "$tmp/a.off" "$tmp/b.off" "${pose[@]}")
sim_engines=(); has model && sim_engines+=(model); has rtl && sim_engines+=(rtl both); has systemc && sim_engines+=(systemc)
trace_name() {  # the trace file an engine writes: VCD for SystemC's writers, FST for the RTL
  case "$1" in rtl|both) echo "$2.fst" ;; *) echo "$2.vcd" ;; esac
}

outputs() {
  # Every output of every command, on a device, a FIFO and a directory.
  local target t
  for target in "$tmp/null" "$tmp/full" "$tmp/fifo" "$tmp/dir"; do
    case "$target" in */dir) t="is a directory" ;; */fifo) t="FIFO" ;; *) t="character device" ;; esac
    refused "$t" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --pairs "$target"
    refused "$t" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --json "$target"
    refused "$t" pack "$tmp/a.off" --out "$target"
    refused "$t" poses "$tmp/a.off" "$tmp/b.off" --out "$target"
    refused "$t" vectors "$tmp/a.off" "$tmp/b.off" --poses "$tmp/two.poses" --out "$target"
    refused "$t" precision-sweep "$tmp/a.off" "$tmp/b.off" --poses "$tmp/two.poses" --csv "$target"
    refused "$t" verify-bound --samples 10 --report "$target"
    if has cuda; then
      refused "$t" multibody-scene --mesh "$tmp/a.off" --objects 8 -o "$target"
      "$kdop" multibody-scene --mesh "$tmp/a.off" --objects 8 -o "$tmp/scene.json" >/dev/null
      refused "$t" multibody "$tmp/scene.json" --pairs "$target"
      refused "$t" multibody "$tmp/scene.json" --json "$target"
    fi
    for e in "${sim_engines[@]}"; do
      refused "$t" "${sim[@]}" --engine "$e" --pairs "$target"
      refused "$t" "${sim[@]}" --engine "$e" --json "$target"
    done
  done
  # Traces: on a device, FIFO or folder with the writer's extension, and without it.
  for e in "${sim_engines[@]}"; do
    case "$e" in
      rtl|both) refused "character device" "${sim[@]}" --engine "$e" --trace "$tmp/null.fst"
                refused "character device" "${sim[@]}" --engine "$e" --trace "$tmp/full" ;;
      *)        refused "character device" "${sim[@]}" --engine "$e" --trace "$tmp/full.vcd"
                refused "FIFO" "${sim[@]}" --engine "$e" --trace "$tmp/fifo.vcd"
                refused "is a directory" "${sim[@]}" --engine "$e" --trace "$tmp/dir.vcd"
                # SystemC writes NAME.vcd for NAME: a name without .vcd is refused, nothing is written.
                refused "end in .vcd" "${sim[@]}" --engine "$e" --trace "$tmp/full"
                refused "end in .vcd" "${sim[@]}" --engine "$e" --trace "$tmp/null"
                refused "end in .vcd" "${sim[@]}" --engine "$e" --trace "$tmp/fresh"
                check "$e: no trace beside a refused name" test ! -e "$tmp/fresh" -a ! -e "$tmp/fresh.vcd" ;;
    esac
  done
  if has rtl; then
    # The FST writer uses PATH.hier as scratch and deletes it: an existing one is refused, kept.
    echo keep > "$tmp/w.fst.hier"
    refused "w.fst.hier" "${sim[@]}" --engine rtl --trace "$tmp/w.fst"
    check "an existing .hier is kept" grep -q keep "$tmp/w.fst.hier"
    # A link to a trace is written through: the link stays, its target gets the FST.
    echo old > "$tmp/target.fst"; ln -s "$tmp/target.fst" "$tmp/link.fst"
    run 0 "" "${sim[@]}" --engine rtl --trace "$tmp/link.fst"
    check "the link to the FST is still a link" test -L "$tmp/link.fst"
    check "the link's target holds an FST (header block first)" \
      test "$(head -c 1 "$tmp/target.fst" | od -An -tu1 | tr -d ' ')" == 0
  fi
  if has model; then
    echo old > "$tmp/target.vcd"; ln -s "$tmp/target.vcd" "$tmp/link.vcd"
    run 0 "" "${sim[@]}" --engine model --trace "$tmp/link.vcd"
    check "the link to the VCD is still a link" test -L "$tmp/link.vcd"
    check "the VCD ends with the end marker" grep -q "kdop: end of trace" "$tmp/target.vcd"
  fi
}

output_errors() {
  # An unwritable folder: the command runs as nobody; every writer says so (status 2).
  mkdir "$tmp/ro"; chmod 555 "$tmp/ro"
  nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  local err rc e
  for e in "${sim_engines[@]}" collide; do
    if [ "$e" == collide ]; then set -- collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --pairs "$tmp/ro/p.txt"
    else set -- "${sim[@]}" --engine "$e" --trace "$(trace_name "$e" "$tmp/ro/t")"; fi
    err=$(nobody "$kdop" "$@" 2>&1 >/dev/null); rc=$?
    if [ "$rc" -eq 2 ] && [[ "$err" == *"Permission denied"* ]]; then ok
    else bad "as nobody: kdop $* -> status $rc: ${err:0:400} (wanted 2, 'Permission denied')"; fi
  done
  check "nothing written into the unwritable folder" test -z "$(ls -A "$tmp/ro")"

  # A full disk: the file-size limit (SIGXFSZ ignored) makes every write past 8 KiB fail with
  # EFBIG, as ENOSPC would; the writers' own buffers and the libraries' included.
  full_disk() {  # full_disk "stderr substring" kdop-args...
    local want="$1"; shift
    err=$( (trap '' XFSZ; ulimit -f 8; exec "$kdop" "$@") 2>&1 >/dev/null); rc=$?
    if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]]; then ok
    else bad "file size limit 8 KiB: kdop $* -> status $rc: ${err:0:400} (wanted 2, '$want')"; fi
  }
  full_disk "File too large" collide "$cow" "$cow" --pose "1 0 0 0 0.1 0 0" --pairs "$tmp/big.pairs"
  awk 'BEGIN { for (i = 0; i < 100; ++i) print "1 0 0 0 5 0 0" }' > "$tmp/hundred.poses"
  full_disk "File too large" collide "$tmp/a.off" "$tmp/b.off" --poses "$tmp/hundred.poses" --json "$tmp/big.json"
  for e in "${sim_engines[@]}"; do
    full_disk "incomplete" sim "$cow" "$cow" --pose "1 0 0 0 0.1 0 0" --engine "$e" --trace "$(trace_name "$e" "$tmp/big-$e")"
    check "$e: no scratch file left beside the trace" test ! -e "$tmp/big-$e.fst.hier"
  done
  # Standard output on a full device (our node): help, version and reports.
  for args in "--help" "--version" "collide --help" "collide $tmp/a.off $tmp/b.off --pose 1,0,0,0,0,0,0"; do
    # shellcheck disable=SC2086
    set -- ${args//,/ }
    [ "$1" == collide ] && [ $# -gt 2 ] && set -- collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}"
    err=$("$kdop" "$@" 2>&1 >"$tmp/full"); rc=$?
    if [ "$rc" -eq 2 ] && [[ "$err" == *"standard output"* ]]; then ok
    else bad "kdop $* > full device -> status $rc: ${err:0:300} (wanted 2, 'standard output')"; fi
  done
  # Two outputs that are one file through a link whose target does not exist yet.
  ln -s "$tmp/o.txt" "$tmp/link-to-o.txt"
  refused "same file" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --pairs "$tmp/o.txt" --json "$tmp/link-to-o.txt"
  ln -s "$tmp/t.vcd" "$tmp/link-to-t.vcd"
  has model && refused "same file" "${sim[@]}" --trace "$tmp/t.vcd" --json "$tmp/link-to-t.vcd"
  ln -s "$tmp/chain1" "$tmp/chain0"; ln -s "$tmp/sub/../o.txt" "$tmp/chain1"; mkdir "$tmp/sub"
  refused "same file" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --pairs "$tmp/o.txt" --json "$tmp/chain0"
  check "no output written for refused aliases" test ! -e "$tmp/o.txt" -a ! -e "$tmp/t.vcd"
  # An output that is the file standard output goes to.
  err=$("$kdop" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --json "$tmp/out.txt" 2>&1 >"$tmp/out.txt"); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"standard output"* ]]; then ok
  else bad "--json FILE > FILE -> status $rc: ${err:0:300} (wanted 2)"; fi
}

input_limits() {
  # A mesh and poses beyond the scale limit (finite, near the double range).
  printf 'OFF\n3 1 0\n0 0 0\n1e308 0 0\n0 1 0\n3 0 1 2\n' > "$tmp/huge.off"
  printf '1 0 0 0 1e300 0 0\n' > "$tmp/huge.poses"
  local b e
  for b in float fixed exact; do
    refused "scale limit" collide "$tmp/huge.off" "$tmp/a.off" "${pose[@]}" --backend "$b"
    refused "scale limit" collide "$tmp/a.off" "$tmp/b.off" --poses "$tmp/huge.poses" --backend "$b"
  done
  for e in "${sim_engines[@]}"; do
    refused "scale limit" sim "$tmp/huge.off" "$tmp/a.off" "${pose[@]}" --engine "$e"
    refused "scale limit" sim "$tmp/a.off" "$tmp/b.off" --poses "$tmp/huge.poses" --engine "$e"
  done
  refused "scale limit" pack "$tmp/huge.off" --out "$tmp/x.img"
  refused "scale limit" vectors "$tmp/a.off" "$tmp/b.off" --poses "$tmp/huge.poses" --out "$tmp/v.txt"
  refused "scale limit" poses "$tmp/huge.off" "$tmp/a.off" --out "$tmp/p.txt"
  if has cuda; then
    refused "scale limit" multibody-scene --mesh "$tmp/huge.off" --objects 8 -o "$tmp/s.json"
    printf '{"objects":[{"mesh":"a.off","rotation":[1,0,0,0],"translation":[0,0,0]},
      {"mesh":"a.off","rotation":[1,0,0,0],"translation":[1e300,0,0]}]}\n' > "$tmp/huge.json"
    refused "scale limit" multibody "$tmp/huge.json"
  fi
  # At the limit every backend answers, and equals brute force (fixed: within its delta).
  cube 5e29 "$tmp/limit_a.off"; cube 5e29 "$tmp/limit_b.off"
  for b in float fixed exact; do
    run 0 "" collide "$tmp/limit_a.off" "$tmp/limit_b.off" --pose "1 0 0 0 5e29 2.5e29 1.25e29" --backend "$b" --check
  done

  # kdop sim streams its poses: the peak memory of 30 000 poses is that of 300 (separated poses,
  # each a few cycles). Keeping a result per pose (about 3 KB each) would add some 90 MB.
  if has model; then
    awk 'BEGIN { for (i = 0; i < 300; ++i) print "1 0 0 0 5 0 0" }' > "$tmp/few.poses"
    awk 'BEGIN { for (i = 0; i < 30000; ++i) print "1 0 0 0 5 0 0" }' > "$tmp/many.poses"
    peak() {  # peak resident KiB of kdop sim on a pose file
      python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else -1)' \
        "$kdop" sim "$tmp/a.off" "$tmp/b.off" --poses "$1" --pairs "$tmp/s.pairs" --json "$tmp/s.json"
    }
    local few many
    few=$(peak "$tmp/few.poses"); many=$(peak "$tmp/many.poses")
    if [ "$few" -gt 0 ] && [ "$many" -gt 0 ] && [ "$many" -lt $((few + 20000)) ]; then ok
    else bad "kdop sim peak memory: 300 poses ${few} KiB, 30 000 poses ${many} KiB (wanted under 20 MiB more)"; fi
    check "every streamed pose is in the pairs file" test "$(grep -c '^pose ' "$tmp/s.pairs")" -eq 30000
    check "every streamed pose is in the JSON report" \
      python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(len(r["poses"]) != 30000 or r["batch_cycles"] <= 0)' "$tmp/s.json"
  fi

  # Out of memory is status 4 with the limit, not an internal error: a mesh of 400 000 triangles
  # under an address-space limit too small for its tree.
  awk 'BEGIN { n = 200000; printf "OFF\n%d %d 0\n", 2 * n + 2, 2 * n;
               for (i = 0; i <= n; ++i) printf "%d 0 0\n%d 1 %d\n", i, i, i % 7;
               for (i = 0; i < n; ++i) printf "3 %d %d %d\n3 %d %d %d\n", 2*i, 2*i+1, 2*i+2, 2*i+1, 2*i+3, 2*i+2 }' \
    > "$tmp/large.off"
  local err rc
  err=$( (ulimit -v 400000; exec "$kdop" collide "$tmp/large.off" "$tmp/large.off" "${pose[@]}") 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 4 ] && [[ "$err" == *"out of memory"*"ulimit -v"* ]]; then ok
  else bad "collide of a 400 000-triangle mesh under ulimit -v 400000 -> status $rc: ${err:0:300} (wanted 4, 'out of memory')"; fi
}

integers() {
  # --shard i/N: both parts in the width of their fields, the message names what was typed.
  refused "0/4294967297" verify-bound --samples 10 --shard 0/4294967297
  refused "outside 1 .. 4294967295" verify-bound --samples 10 --shard 0/4294967296
  refused "below N" verify-bound --samples 10 --shard 4294967295/4294967295
  refused "decimal" verify-bound --samples 10 --shard -1/2
  refused "decimal" verify-bound --samples 10 --shard 0x1/2
  refused "i/N" verify-bound --samples 10 --shard 0-2
  run 0 "" verify-bound --samples 10 --shard 1/2
  # --seed in its full 64 bits: 2^64 - 1 is taken as typed, 2^64 and beyond are refused.
  refused "does not fit" verify-bound --samples 10 --seed 18446744073709551616
  refused "does not fit" verify-bound --samples 10 --seed 99999999999999999999999
  refused "unsigned" verify-bound --samples 10 --seed -1
  run 0 "" verify-bound --samples 10 --seed 18446744073709551615 --report "$tmp/r.json"
  check "the report holds the seed as typed" grep -q '"seed": 18446744073709551615' "$tmp/r.json"
  # Every kind of integer option: values beyond the type, beyond 64 bits, octal and hex spellings.
  local v
  for v in 4294967297 4294967296 2147483648 18446744073709551616 -9223372036854775809 0x10 1e3 +1 ""; do
    # int options (each bound far below 2^31): a value that wraps to a valid one is refused too
    refused "" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --axes "$v"
    refused "" pack "$tmp/a.off" --out "$tmp/x.img" --bits "$v"
    has model && refused "" "${sim[@]}" --stack-depth "$v"
    has model && refused "" "${sim[@]}" --latency "$v"
    has cuda && refused "" multibody-scene --mesh "$tmp/a.off" --objects "$v" -o "$tmp/s.json"
  done
  for v in 18446744073709551616 -1 -9223372036854775809 0x10 1e3 +1 ""; do
    # 64-bit unsigned options
    refused "" vectors "$tmp/a.off" "$tmp/b.off" --poses "$tmp/two.poses" --out "$tmp/v.txt" --limit "$v"
    has cuda && refused "" multibody-scene --mesh "$tmp/a.off" --objects 8 -o "$tmp/s.json" --seed "$v"
  done
  # A leading zero is decimal: 010 is ten, not eight.
  if has model; then
    out=$("$kdop" "${sim[@]}" --arch paper --latency 010 2>&1)
    check "--latency 010 is 10 cycles" grep -q "SAT latency 10 cycles" <<<"$out"
  fi
  # Generated scenes hold only finite numbers within the scale limit, or nothing.
  if has cuda; then
    printf 'OFF\n3 1 0\n0 0 0\n1e155 0 0\n0 1e155 0\n3 0 1 2\n' > "$tmp/e155.off"
    refused "scale limit" multibody-scene --mesh "$tmp/e155.off" --objects 8 -o "$tmp/s155.json"
    cube 1e29 "$tmp/e29.off"
    refused "scale limit" multibody-scene --mesh "$tmp/e29.off" --objects 1000 --density 0.001 -o "$tmp/s29.json"
    check "no scene written when refused" test ! -e "$tmp/s155.json" -a ! -e "$tmp/s29.json"
    cube 1e28 "$tmp/e28.off"
    run 0 "" multibody-scene --mesh "$tmp/e28.off" --objects 64 -o "$tmp/ok28.json"
    check "a generated scene holds no nan or inf" bash -c "! grep -Eiq 'nan|inf' '$tmp/ok28.json'"
    run 0 "" multibody "$tmp/ok28.json"
  fi
}

ignored_options() {
  local e
  for e in model systemc; do
    has "$e" || continue
    refused "--stalls" "${sim[@]}" --engine "$e" --stalls
    refused "--seed" "${sim[@]}" --engine "$e" --seed 3
    refused "--trace-depth" "${sim[@]}" --engine "$e" --trace-depth 2
  done
  if has rtl; then
    refused "--trace-depth" "${sim[@]}" --engine rtl --trace-depth 2  # no --trace: nothing to shape
    run 0 "" "${sim[@]}" --engine rtl --stalls --seed 3
    run 0 "" "${sim[@]}" --engine rtl --trace "$tmp/d.fst" --trace-depth 2
    refused "--rtl-blocks" "${sim[@]}" --engine rtl --rtl-blocks sat
  fi
  has model && refused "--rtl-blocks" "${sim[@]}" --engine model --rtl-blocks ''
  has model && refused "--rtl-blocks" "${sim[@]}" --rtl-blocks none
  has systemc && refused "--rtl-blocks ''" "${sim[@]}" --engine systemc --rtl-blocks ''
  refused "--backend fixed" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --bits 20
  refused "--backend fixed" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --backend exact --tri-bits 24
  run 0 "" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --backend fixed --bits 20 --tri-bits 24
  has cuda && refused "--tri-bits" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --backend fixed --device host --tri-bits 24
  refused "--no-leaf-planes" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --backend fixed --no-leaf-planes
  refused "--no-leaf-planes" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --backend exact --no-leaf-planes
  run 0 "" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --no-leaf-planes
  refused "--binary-descent" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --backend fixed --binary-descent
  run 0 "" collide "$tmp/a.off" "$tmp/b.off" "${pose[@]}" --binary-descent
  refused "--backend belongs to --scene" verify-bound --samples 10 --backend float
  refused "--limit belongs to --scene" verify-bound --samples 10 --limit 5
  refused "--seed" verify-bound --samples 0 --vectors "$tmp/one.vec" --seed 3
}

case "$class" in
  outputs) outputs ;;
  output-errors) output_errors ;;
  input-limits) input_limits ;;
  integers) integers ;;
  ignored-options) ignored_options ;;
  *) echo "cli_hostile.sh: unknown class '$class'"; exit 2 ;;
esac
nodes_intact
echo "cli_hostile.sh $class: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
