#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release). Usage: scripts/build.sh [preset]
# Every optional part (SystemC, Verilator, and CUDA where /usr/local/cuda exists) is required
# here: on our machines they are installed, and a missing one fails loudly instead of being
# skipped (cmake/optional_parts.cmake).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
# nvcc is on PATH only for login shells (profile.d); name it so CI finds it too.
[ -x /usr/local/cuda/bin/nvcc ] && export CUDACXX=/usr/local/cuda/bin/nvcc
cmake --preset "$preset" -DKDOPCD_REQUIRE_ALL=ON >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
