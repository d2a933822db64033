#!/usr/bin/env bash
# The whole test suite: installs what is missing, extracts the real meshes, builds, runs ctest.
# Usage: scripts/test.sh [preset]   (release by default; asan-ubsan and debug also work)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
bash scripts/install-deps.sh
bash scripts/fetch-meshes.sh
bash scripts/build.sh "$preset"
ctest --preset "$preset" -j "$(nproc)"
