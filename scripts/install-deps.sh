#!/usr/bin/env bash
# Installs every Debian package kdopcd needs. Idempotent: packages already present are skipped,
# and apt is not touched at all when nothing is missing. Uses sudo only when not root.
# Usage: scripts/install-deps.sh [--demo | --coq]
#   --demo: only what scripts/demo.sh builds (the reference library and kdop, no engines) and its
#           real meshes; a first impression needs no Verilator, SystemC, Yosys or FCL.
#   --coq:  everything, plus Coq and Gappa's Coq library, which check the certificates of the
#           proofs (scripts/formal.sh --coq; about 600 MB, so not in the default set).
set -euo pipefail

DEMO_PACKAGES=(
  build-essential cmake pkg-config
  libeigen3-dev libboost-dev libtbb-dev libhwy-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev libassimp-dev
  libcgal-demo
)
PACKAGES=(
  build-essential cmake ninja-build pkg-config git zlib1g-dev
  libeigen3-dev libboost-dev libtbb-dev libhwy-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev libassimp-dev
  libsystemc-dev verilator yosys gtkwave
  libfcl-dev libcgal-demo gnuplot-nox jq
  clang libclang-rt-dev
  gappa z3
  python3-dev python3-pybind11 pybind11-dev python3-numpy python3-pytest
)

if [ "${1:-}" = "--demo" ]; then PACKAGES=("${DEMO_PACKAGES[@]}"); fi
if [ "${1:-}" = "--coq" ]; then PACKAGES+=(libcoq-gappa); fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

echo "install-deps: installing ${missing[*]}"
# Another apt may hold the lock (unattended upgrades, a parallel job): wait instead of failing.
while fuser /var/lib/dpkg/lock-frontend >/dev/null 2>&1; do sleep 3; done
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
