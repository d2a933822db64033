#!/bin/sh
# A CXX_COMPILER_LAUNCHER that compiles with another compiler: CMake runs
# `compile-with.sh [--via WRAPPER] OTHER CXX ARGS...`; this runs `[WRAPPER] OTHER ARGS...`.
# verilated/CMakeLists.txt uses it to compile the verilated models with clang++ (faster to build,
# and their host code runs faster) while the project's compiler stays g++ for everything else;
# WRAPPER is a launcher the target had already (ccache). The arguments are the ones CMake made
# for g++; the ones used here (-O3, -fPIC, -std=c++20, -W..., -I, -D, -M.. dependency output)
# mean the same to clang++.
via=""
if [ "$1" = "--via" ]; then
  via="$2"
  shift 2
fi
other="$1"
shift 2
exec $via "$other" "$@"
