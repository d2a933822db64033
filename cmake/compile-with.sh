#!/bin/sh
# A CXX_COMPILER_LAUNCHER that compiles with another compiler: CMake runs
# `compile-with.sh OTHER CXX ARGS...`; this runs `OTHER ARGS...`. verilated/CMakeLists.txt uses it to
# compile the verilated v2 top with clang++ (its host code runs faster) while the project's
# compiler stays g++ for everything else. The arguments are the ones CMake made for g++; the
# ones used here (-O3, -fPIC, -std=c++20, -W..., -I, -D, -M.. dependency output) mean the same
# to clang++.
other="$1"
shift 2
exec "$other" "$@"
