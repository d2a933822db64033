#!/usr/bin/env bash
# Collects what the GPU check needs on a machine that has a GPU but none of our Debian libraries
# (docs/cuda.md "Running on a GPU"): kdop, cuda_tests and compare_backends of a CUDA build, the
# non-system shared libraries they load (from ldd), the meshes the check reads, and
# scripts/gpu-check.sh, in one folder under 64 MiB.
# Usage: scripts/gpu-bundle.sh [build dir, default build/release] [out folder, default out/gpu-bundle]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
out="${2:-out/gpu-bundle}"
binaries=("$build/sim/kdop" "$build/testbenches/cuda/cuda_tests" "$build/bench/compare_backends")
meshes=(cow bunny00 armadillo elephant hand mushroom couplingdown ChineseDragon-10kv turbine)
limit_mib=64

for b in "${binaries[@]}"; do
  [ -x "$b" ] || { echo "gpu-bundle: $b is not built (scripts/build.sh release with nvcc present)" >&2; exit 1; }
done
if ! ldd "$build/sim/kdop" | grep libcudart >/dev/null; then
  echo "gpu-bundle: $build/sim/kdop has no CUDA (configure with /usr/local/cuda present)" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/meshes"
cp "${binaries[@]}" "$out/bin/"
cp scripts/gpu-check.sh "$out/"
for m in "${meshes[@]}"; do cp "data/meshes/$m.off" "$out/meshes/"; done

# Libraries: everything ldd resolves except the C/C++ runtime and the loader, which every Linux
# machine has in a compatible version (the GPU machine's own libstdc++ and glibc are newer).
system='^(linux-vdso|ld-linux|libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s)\.'
for b in "${binaries[@]}"; do
  ldd "$b" | awk '/=> \// { print $1, $3 }' | while read -r name path; do
    if [[ "$name" =~ $system ]]; then continue; fi
    [ -e "$out/lib/$name" ] || cp -L "$path" "$out/lib/$name"
  done
done
if ldd "$build/sim/kdop" | grep "not found" >/dev/null; then
  echo "gpu-bundle: kdop has unresolved libraries here:" >&2
  ldd "$build/sim/kdop" | grep "not found" >&2
  exit 1
fi

size_kib=$(du -sk "$out" | cut -f1)
echo "gpu-bundle: $out, $((size_kib / 1024)) MiB ($(ls "$out/lib" | wc -l) libraries, ${#meshes[@]} meshes)"
if [ "$size_kib" -gt $((limit_mib * 1024)) ]; then
  echo "gpu-bundle: larger than $limit_mib MiB, which the device tool cannot carry" >&2
  exit 1
fi
