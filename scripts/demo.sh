#!/usr/bin/env bash
# The main job on the default scene: installs what is missing, builds, runs `kdop demo`.
# It builds only what the demo needs: the `demo` CMake preset (build/demo/) compiles the
# reference library and `kdop` without the verilated RTL, the SystemC model and CUDA, so a first
# run takes a minute or two rather than the full build's quarter of an hour. The full `kdop`
# (kdop sim, sat-eval --engine rtl, multibody) comes from scripts/build.sh (build/release/),
# which scripts/test.sh runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --demo
bash scripts/fetch-meshes.sh
cmake --preset demo >/dev/null
cmake --build --preset demo -j "$(nproc)"
./build/demo/sim/kdop demo "$@"
