#!/usr/bin/env bash
# Hostile input to every kdop subcommand (docs/cli.md, "Error policy"): each case must end with
# the documented exit status and a message on stderr that names what was wrong. Invalid options,
# files and combinations exit 2; a detected capacity overflow exits 4; nothing here may exit 3
# (internal error) or crash (134/139). Also: outputs on a device (/dev/full, /dev/null) are refused with 2,
# an output that is one of the inputs is refused and the input is left intact, and the numeric
# bounds of --threads / --capacity / --objects hold at their limits.
# Usage: cli_errors.sh KDOP MESH_DIR [ENGINE_COMMANDS]
#   ENGINE_COMMANDS: comma-separated commands this build has beyond the reference's (sim where the
#   SystemC model is built, multibody where the CUDA part is; CMake passes them). Their cases run
#   whenever they are listed: a listed command that kdop lacks fails, it does not drop its cases.
set -u
kdop="$1"; meshes="$2"; engine_commands=",${3:-},"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; pass=0

expect() {  # expect STATUS "substring of stderr" kdop-args...
  local want_rc="$1" want="$2"; shift 2
  local err rc
  err=$("$kdop" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq "$want_rc" ] && [[ "$err" == *"$want"* ]]; then pass=$((pass + 1));
  else echo "FAIL: kdop $* -> status $rc, stderr: ${err:0:400} (wanted status $want_rc and '$want')"; fail=$((fail + 1)); fi
}
expect_error() { expect 2 "$@"; }
expect_ok() {  # expect_ok kdop-args...  (status 0)
  local err rc
  err=$("$kdop" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); else echo "FAIL: kdop $* -> status $rc (wanted 0): ${err:0:400}"; fail=$((fail + 1)); fi
}
expect_stdout_full() {  # kdop-args...: stdout on /dev/full must be an error (2), not a silent success
  local err rc
  err=$("$kdop" "$@" 2>&1 >/dev/full); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"standard output"* ]]; then pass=$((pass + 1));
  else echo "FAIL: kdop $* >/dev/full -> status $rc, stderr: ${err:0:400} (wanted 2, 'standard output')"; fail=$((fail + 1)); fi
}
unchanged() {  # unchanged FILE CHECKSUM: an input the command refused to overwrite is intact
  if [ "$(cksum < "$1")" == "$2" ]; then pass=$((pass + 1)); else echo "FAIL: $1 was modified"; fail=$((fail + 1)); fi
}
built() { [[ "$engine_commands" == *",$1,"* ]]; }

# --- inputs -------------------------------------------------------------------------------------
printf 'OFF\n3 1 0\n0 0 0\n1 0 0\n' > "$tmp/truncated.off"
printf 'OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n' > "$tmp/badindex.off"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n' > "$tmp/badindex.obj"
printf 'solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0\n' > "$tmp/broken.stl"
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nend_header\n0\n' > "$tmp/broken.ply"
printf 'OFF\n0 0 0\n' > "$tmp/empty.off"
printf '1 0 0 0 0 0 0\n0 0 0 0 1 1 1\n' > "$tmp/zeroquat.txt"
printf '1 0 0 0 0 0\n' > "$tmp/short.txt"
cube() {  # cube HALF_EXTENT FILE: an axis-aligned closed cube centred at the origin
  local h="$1"
  printf 'OFF\n8 12 0\n' > "$2"
  for z in -"$h" "$h"; do for y in -"$h" "$h"; do for x in -"$h" "$h"; do echo "$x $y $z" >> "$2"; done; done; done
  printf '3 0 2 1\n3 1 2 3\n3 4 5 6\n3 5 7 6\n3 0 1 4\n3 1 5 4\n3 2 6 3\n3 3 6 7\n3 0 4 2\n3 2 4 6\n3 1 3 5\n3 3 7 5\n' >> "$2"
}
cube 0.5 "$tmp/small.off"; cube 50 "$tmp/big.off"; cube 0.5 "$tmp/cube.off"
# Two parallel triangles 1e-9 apart: the fixed triangle unit (vertices rounded at v = 24 bits)
# sees them touch, brute force (exact, on the doubles) does not. Within delta (docs/triangle-unit.md).
printf 'OFF\n3 1 0\n0 0 1e-9\n1 0 1e-9\n0 1 1e-9\n3 0 1 2\n' > "$tmp/upper.off"
printf 'OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' > "$tmp/lower.off"
printf '1 0 0 0 0.1 0.1 0\n' > "$tmp/one.poses"
printf '1 0 0 0 0.1 0 0\n' > "$tmp/cow.poses"
: > "$tmp/empty.vec"
printf '# only a comment\n' > "$tmp/comment.vec"
grep -v '^#' "$(dirname "$0")/../data/sat_small.vec" | grep . | head -3 > "$tmp/small.vec"
mkdir "$tmp/folder.off" "$tmp/dir"
mkfifo "$tmp/fifo.off" "$tmp/fifo.txt"
ln -s "$tmp/small.off" "$tmp/link.off"
cow="$meshes/cow.off"
pose=(--pose "1 0 0 0 0 0 0")
full=/dev/full; [ -c "$full" ] || full=""

# --- the parser's own errors: status 2, never CLI11's 105/106/... -------------------------------
expect_error "subcommand" 
expect_error "nosuch" nosuch
expect_error "--nosuch" collide "$cow" "$cow" "${pose[@]}" --nosuch
expect_error "SECOND" collide "$cow"
expect_ok --help
expect_ok --version
expect_ok collide --help

# --- files: missing, malformed, directory, FIFO, device -----------------------------------------
expect_error "missing.off" collide "$tmp/missing.off" "$cow" "${pose[@]}"
expect_error "truncated.off" collide "$tmp/truncated.off" "$cow" "${pose[@]}"
expect_error "badindex.off" collide "$tmp/badindex.off" "$cow" "${pose[@]}"
expect_error "badindex.obj" collide "$cow" "$tmp/badindex.obj" "${pose[@]}"
expect_error "broken.stl" collide "$cow" "$tmp/broken.stl" "${pose[@]}"
expect_error "broken.ply" collide "$cow" "$tmp/broken.ply" "${pose[@]}"
expect_error "empty.off" collide "$tmp/empty.off" "$cow" "${pose[@]}"
expect_error "is a directory" collide "$tmp/folder.off" "$cow" "${pose[@]}"
expect_error "FIFO" collide "$tmp/fifo.off" "$cow" "${pose[@]}"
expect_error "character device" collide /dev/null "$cow" "${pose[@]}"
expect_error "is a directory" collide "$cow" "$cow" --poses "$tmp/dir"
expect_error "FIFO" collide "$cow" "$cow" --poses "$tmp/fifo.txt"
expect_error "zeroquat.txt:2" collide "$cow" "$cow" --poses "$tmp/zeroquat.txt"
expect_error "short.txt:1: expected 7 numbers" collide "$cow" "$cow" --poses "$tmp/short.txt"
expect_error "--pose" collide "$cow" "$cow" --pose "1 0 0 0 0 zero 0"
expect_error "give --poses" collide "$cow" "$cow"
expect_error "unknown descent rule" collide "$cow" "$cow" "${pose[@]}" --rule deepest
expect_error "unknown SAT backend" collide "$cow" "$cow" "${pose[@]}" --backend double
expect_error "--bits 99" collide "$cow" "$cow" "${pose[@]}" --backend fixed --bits 99
expect_error "--tri-bits '40,20'" collide "$cow" "$cow" "${pose[@]}" --backend fixed --tri-bits 40,20
expect_error "--tri-bits 'x'" collide "$cow" "$cow" "${pose[@]}" --backend fixed --tri-bits x

# --- numeric bounds ----------------------------------------------------------------------------
expect_error "--k" collide "$cow" "$cow" "${pose[@]}" --k 7
expect_error "--axes" collide "$cow" "$cow" "${pose[@]}" --axes -1
expect_error "--axes" collide "$cow" "$cow" "${pose[@]}" --axes 27
expect_error "--axes" collide "$cow" "$cow" "${pose[@]}" --axes nan
expect_error "--k" demo --k 5
expect_error "not found" demo --meshes "$tmp/no-such-folder"
# The demo's real scene: both scenes' contact sets equal brute force.
if [ -f "$meshes/cow.off" ]; then
  out=$("$kdop" demo --meshes "$meshes" 2>&1); rc=$?
  if [ "$rc" -eq 0 ] && [ "$(grep -c 'every contact set equal' <<<"$out")" -eq 2 ] && [[ "$out" == *"real scene (libcgal-demo)"* ]]; then
    pass=$((pass + 1))
  else echo "FAIL: kdop demo --meshes $meshes -> status $rc: ${out:0:600}"; fail=$((fail + 1)); fi
fi

# --- outputs: missing folder, directory, full device, same file as an input ---------------------
expect_error "does not exist" collide "$tmp/small.off" "$tmp/small.off" "${pose[@]}" --pairs "$tmp/no/such/pairs.txt"
expect_error "is a directory" collide "$tmp/small.off" "$tmp/small.off" "${pose[@]}" --json "$tmp/dir"
expect_error "same file" collide "$tmp/small.off" "$tmp/small.off" "${pose[@]}" --pairs "$tmp/o.txt" --json "$tmp/o.txt"
sum=$(cksum < "$tmp/one.poses")
expect_error "overwrite" collide "$tmp/small.off" "$tmp/small.off" --poses "$tmp/one.poses" --pairs "$tmp/one.poses"
unchanged "$tmp/one.poses" "$sum"
sum=$(cksum < "$tmp/small.off")
expect_error "overwrite" collide "$tmp/small.off" "$tmp/cube.off" "${pose[@]}" --json "$tmp/link.off"
unchanged "$tmp/small.off" "$sum"
if [ -n "$full" ]; then
  expect_error "character device" collide "$tmp/small.off" "$tmp/small.off" "${pose[@]}" --pairs "$full"
  expect_error "character device" collide "$tmp/small.off" "$tmp/small.off" "${pose[@]}" --json "$full"
  expect_stdout_full collide "$tmp/small.off" "$tmp/small.off" "${pose[@]}"
  expect_stdout_full demo --k 6
fi
expect_error "character device" collide "$tmp/small.off" "$tmp/small.off" "${pose[@]}" --pairs /dev/null
expect_ok collide "$tmp/small.off" "$tmp/small.off" "${pose[@]}" --pairs "$tmp/ok.pairs" --json "$tmp/ok.json"

# --- --check: the fixed backend may differ from brute force within delta: reported, status 0 ---
out=$("$kdop" collide "$tmp/upper.off" "$tmp/lower.off" --poses "$tmp/one.poses" --backend fixed --check 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [[ "$out" == *"within delta"* ]]; then pass=$((pass + 1));
else echo "FAIL: collide --check --backend fixed within delta -> status $rc: $out"; fail=$((fail + 1)); fi
expect_ok collide "$tmp/upper.off" "$tmp/lower.off" --poses "$tmp/one.poses" --check

# --- poses ------------------------------------------------------------------------------------
# A large cube around a small one: centred together, or centred on the small one's farthest
# vertex, the small cube lies inside without a contact: no intersecting pose.
expect_error "no triangle touches" poses "$tmp/small.off" "$tmp/big.off" --out "$tmp/p.txt"
# The other way round the small cube, centred on the large one's farthest vertex, crosses its
# surface; so does bunny00 at the armadillo's (inside it when centred together).
rm -f "$tmp/p.txt"
expect_ok poses "$tmp/big.off" "$tmp/small.off" --out "$tmp/p.txt"
if [ -f "$meshes/armadillo.off" ] && [ -f "$meshes/bunny00.off" ]; then
  rm -f "$tmp/p.txt"
  expect_ok poses "$meshes/armadillo.off" "$meshes/bunny00.off" --out "$tmp/p.txt"
  if [ "$(grep -vc '^#' "$tmp/p.txt")" -eq 4 ]; then pass=$((pass + 1)); else echo "FAIL: armadillo/bunny00: not four poses"; fail=$((fail + 1)); fi
fi
expect_error "--angle" poses "$tmp/small.off" "$tmp/cube.off" --out "$tmp/p.txt" --angle nan
expect_error "--angle" poses "$tmp/small.off" "$tmp/cube.off" --out "$tmp/p.txt" --angle 7
expect_error "--axis" poses "$tmp/small.off" "$tmp/cube.off" --out "$tmp/p.txt" --axis 1 inf 0
expect_error "non-zero" poses "$tmp/small.off" "$tmp/cube.off" --out "$tmp/p.txt" --axis 0 0 0
expect_error "--direction" poses "$tmp/small.off" "$tmp/cube.off" --out "$tmp/p.txt" --direction 1 0 1e300
expect_error "--k" poses "$tmp/small.off" "$tmp/cube.off" --out "$tmp/p.txt" --k 5
expect_error "--out" poses "$tmp/small.off" "$tmp/cube.off"
sum=$(cksum < "$tmp/cube.off")
expect_error "overwrite" poses "$tmp/small.off" "$tmp/cube.off" --out "$tmp/cube.off"
unchanged "$tmp/cube.off" "$sum"
[ -n "$full" ] && expect_error "character device" poses "$tmp/small.off" "$tmp/cube.off" --out "$full"
expect_ok poses "$tmp/small.off" "$tmp/cube.off" --out "$tmp/p.txt"

# --- pack -------------------------------------------------------------------------------------
expect_error "--bits" pack "$tmp/small.off" --out "$tmp/x.img" --bits 99
expect_error "--bus-width" pack "$tmp/small.off" --out "$tmp/x.img" --bus-width 7
expect_error "--vertex-bits" pack "$tmp/small.off" --out "$tmp/x.img" --vertex-bits 0
expect_error "--scale" pack "$tmp/small.off" --out "$tmp/x.img" --scale nan
expect_error "--scale" pack "$tmp/small.off" --out "$tmp/x.img" --scale -1
expect_error "--scale" pack "$tmp/small.off" --out "$tmp/x.img" --scale inf
expect_error "MESH" pack --out "$tmp/x.img"
expect_error "is a directory" pack "$tmp/folder.off" --out "$tmp/x.img"
sum=$(cksum < "$tmp/small.off")
expect_error "overwrite" pack "$tmp/small.off" --out "$tmp/small.off"
unchanged "$tmp/small.off" "$sum"
[ -n "$full" ] && expect_error "character device" pack "$tmp/small.off" --out "$full"
expect_ok pack "$tmp/small.off" --out "$tmp/x.img"

# --- precision-sweep --------------------------------------------------------------------------
sweep=(precision-sweep "$tmp/small.off" "$tmp/cube.off" --poses "$tmp/one.poses")
expect_error "--from" "${sweep[@]}" --csv "$tmp/s.csv" --from 3
expect_error "--to" "${sweep[@]}" --csv "$tmp/s.csv" --to 45
expect_error "--step" "${sweep[@]}" --csv "$tmp/s.csv" --step 0
expect_error "from <= to" "${sweep[@]}" --csv "$tmp/s.csv" --from 20 --to 10
sum=$(cksum < "$tmp/one.poses")
expect_error "overwrite" "${sweep[@]}" --csv "$tmp/one.poses"
unchanged "$tmp/one.poses" "$sum"
[ -n "$full" ] && expect_error "character device" "${sweep[@]}" --csv "$full" --from 8 --to 9
expect_ok "${sweep[@]}" --csv "$tmp/s.csv" --from 8 --to 9

# --- sat-eval ---------------------------------------------------------------------------------
expect_error "is a directory" sat-eval --vectors "$tmp/dir"
expect_error "FIFO" sat-eval --vectors "$tmp/fifo.txt"
expect_error "not found" sat-eval --vectors "$tmp/missing.vec"
expect_error "no test vectors" sat-eval --vectors "$tmp/empty.vec"
expect_error "no test vectors" sat-eval --vectors "$tmp/comment.vec"
expect_error "--engine" sat-eval --vectors "$tmp/small.vec" --engine gpu
expect_error "--vectors" sat-eval
[ -n "$full" ] && expect_stdout_full sat-eval --vectors "$tmp/small.vec"
expect_ok sat-eval --vectors "$tmp/small.vec"

# --- vectors ----------------------------------------------------------------------------------
vec=(vectors "$tmp/small.off" "$tmp/cube.off" --poses "$tmp/one.poses")
expect_error "--axes" "${vec[@]}" --out "$tmp/v.vec" --axes 27
expect_error "--limit" "${vec[@]}" --out "$tmp/v.vec" --limit -1
expect_error "--format" "${vec[@]}" --out "$tmp/v.vec" --format binary
expect_error "--backend" "${vec[@]}" --out "$tmp/v.vec" --backend exact
sum=$(cksum < "$tmp/one.poses")
expect_error "overwrite" "${vec[@]}" --out "$tmp/one.poses"
unchanged "$tmp/one.poses" "$sum"
[ -n "$full" ] && expect_error "character device" "${vec[@]}" --out "$full"
expect_ok "${vec[@]}" --out "$tmp/v.vec"

# --- prove-bound (needs no Gappa to refuse bad options: they are checked first) --------------
expect_error "--bits" prove-bound --bits 99
expect_error "--k" prove-bound --k 5
expect_error "--tri-bits" prove-bound --tri-bits 0,1
expect_error "--tri-bits" prove-bound --tri-bits 24,x
expect_error "--tri-bits" prove-bound --tri-bits 40,40
expect_error "install Gappa" prove-bound --gappa "$tmp/no-such-gappa"
expect_error "cannot create" prove-bound --emit "$tmp/empty.vec/sub"

# --- verify-bound -----------------------------------------------------------------------------
expect_error "nothing to check" verify-bound --samples 0
expect_error "is a directory" verify-bound --vectors "$tmp/dir" --samples 0
expect_error "no test vectors" verify-bound --vectors "$tmp/empty.vec" --samples 0
expect_error "--samples" verify-bound --samples -1
expect_error "--k" verify-bound --k 5 --samples 10
expect_error "--shard" verify-bound --samples 10 --shard 3/2
expect_error "nothing was checked" verify-bound --samples 1 --shard 1/2
expect_error "needs --poses" verify-bound --samples 0 --scene "$tmp/small.off" "$tmp/cube.off"
expect_error "belongs to --scene" verify-bound --samples 10 --poses "$tmp/one.poses"
sum=$(cksum < "$tmp/small.vec")
expect_error "overwrite" verify-bound --samples 0 --vectors "$tmp/small.vec" --report "$tmp/small.vec"
unchanged "$tmp/small.vec" "$sum"
[ -n "$full" ] && expect_error "character device" verify-bound --samples 100 --report "$full"
expect_ok verify-bound --samples 100 --report "$tmp/r.json"
expect_error "overwrite" verify-bound merge "$tmp/r.json" --report "$tmp/r.json"
expect_error "is a directory" verify-bound merge "$tmp/dir" --report "$tmp/m.json"
expect_error "REPORTS" verify-bound merge --report "$tmp/m.json"
expect_ok verify-bound merge "$tmp/r.json" --report "$tmp/m.json"

# --- sim (the SystemC model; built where SystemC is installed) ---------------------------------
if built sim; then
  expect_ok sim --help
  sim=(sim "$cow" "$cow" --poses "$tmp/cow.poses")
  expect_error "--latency" "${sim[@]}" --latency -5
  expect_error "--latency" "${sim[@]}" --latency 65
  expect_error "--latency" "${sim[@]}" --latency 2147483647
  expect_error "--tri-latency" "${sim[@]}" --tri-latency 2147483647
  expect_error "--clock-mhz" "${sim[@]}" --clock-mhz nan
  expect_error "--clock-mhz" "${sim[@]}" --clock-mhz 1e-300
  expect_error "--clock-mhz" "${sim[@]}" --clock-mhz 1e308
  expect_error "--clock-mhz" "${sim[@]}" --clock-mhz inf
  expect_error "--stack-depth" "${sim[@]}" --stack-depth 0
  expect_error "--bus-width" "${sim[@]}" --arch paper --bus-width 7
  expect_error "--burst" "${sim[@]}" --arch paper --burst 0
  expect_error "--seed" "${sim[@]}" --seed -1
  expect_error "--engine" "${sim[@]}" --engine fpga
  expect_error "--pipelines" "${sim[@]}" --arch v2 --pipelines 2
  expect_error "does not exist" "${sim[@]}" --trace "$tmp/no/such/trace.vcd"
  mkdir "$tmp/dir.vcd"
  expect_error "is a directory" "${sim[@]}" --trace "$tmp/dir.vcd"
  sum=$(cksum < "$tmp/cow.poses")
  expect_error "overwrite" "${sim[@]}" --pairs "$tmp/cow.poses"
  unchanged "$tmp/cow.poses" "$sum"
  if [ -n "$full" ]; then
    expect_error "character device" "${sim[@]}" --pairs "$full"
    expect_error "character device" "${sim[@]}" --json "$full"
  fi
  # A detected overflow is a reported result with its own status (4), in both architectures.
  expect 4 "overflow" "${sim[@]}" --stack-depth 1
  expect 4 "overflow" "${sim[@]}" --arch paper --stack-depth 1
fi

# --- multibody-scene and multibody (built where CUDA is installed; host backend here) ----------
if built multibody; then
  expect_ok multibody-scene --help
  expect_ok multibody --help
  expect_error "--objects" multibody-scene --mesh "$tmp/cube.off" --objects 0 -o "$tmp/scene.json"
  expect_error "--objects" multibody-scene --mesh "$tmp/cube.off" --objects 2000000 -o "$tmp/scene.json"
  expect_error "--density" multibody-scene --mesh "$tmp/cube.off" --density nan -o "$tmp/scene.json"
  expect_error "--density" multibody-scene --mesh "$tmp/cube.off" --density 0 -o "$tmp/scene.json"
  expect_error "--density" multibody-scene --mesh "$tmp/cube.off" --density 1e308 -o "$tmp/scene.json"
  expect_error "is a directory" multibody-scene --mesh "$tmp/cube.off" -o "$tmp/dir"
  sum=$(cksum < "$tmp/cube.off")
  expect_error "overwrite" multibody-scene --mesh "$tmp/cube.off" -o "$tmp/cube.off"
  unchanged "$tmp/cube.off" "$sum"
  [ -n "$full" ] && expect_error "character device" multibody-scene --mesh "$tmp/cube.off" --objects 8 -o "$full"
  expect_ok multibody-scene --mesh "$tmp/cube.off" --objects 8 --density 2 -o "$tmp/scene.json"
  mb=(multibody "$tmp/scene.json" --backend host)
  expect_error "--threads" "${mb[@]}" --threads 65537
  expect_error "--threads" "${mb[@]}" --threads -1
  expect_error "--capacity" "${mb[@]}" --capacity 1000000000000
  expect_error "--capacity" "${mb[@]}" --capacity -1
  expect_error "is a directory" multibody "$tmp/dir" --backend host
  expect_error "FIFO" multibody "$tmp/fifo.txt" --backend host
  expect_error "not found" multibody "$tmp/missing.json" --backend host
  expect_error "not valid JSON" multibody "$tmp/one.poses" --backend host
  expect_error "unknown backend" multibody "$tmp/scene.json" --backend fpga
  # --backend cuda on a machine without a GPU (no NVIDIA device node) is an input error; with one it runs.
  if ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
    expect_ok multibody "$tmp/scene.json" --backend cuda
  else
    expect_error "no usable GPU" multibody "$tmp/scene.json" --backend cuda
  fi
  sum=$(cksum < "$tmp/scene.json")
  expect_error "overwrite" "${mb[@]}" --pairs "$tmp/scene.json"
  unchanged "$tmp/scene.json" "$sum"
  sum=$(cksum < "$tmp/cube.off")
  expect_error "overwrite" "${mb[@]}" --json "$tmp/cube.off"
  unchanged "$tmp/cube.off" "$sum"
  if [ -n "$full" ]; then
    expect_error "character device" "${mb[@]}" --pairs "$full"
    expect_error "character device" "${mb[@]}" --json "$full"
  fi
  # The bounds themselves are accepted: one thread and a one-candidate buffer (relaunches), the
  # most threads, the largest initial buffer.
  expect_ok "${mb[@]}" --threads 1 --capacity 1 --check
  expect_ok "${mb[@]}" --threads 1024
  expect_ok "${mb[@]}" --capacity 16777216
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
