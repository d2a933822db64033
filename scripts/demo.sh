#!/usr/bin/env bash
# The main job on the default scene: installs what is missing, builds, runs `kdop demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/fetch-meshes.sh
bash scripts/build.sh release
./build/release/sim/kdop demo "$@"
