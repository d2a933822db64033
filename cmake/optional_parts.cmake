# Detects the optional toolchains and reports each one. With KDOPCD_REQUIRE_ALL a missing one is
# a configure error (CI), otherwise it is reported and the part is left out of the build.
find_package(PkgConfig)
if(PkgConfig_FOUND)
  pkg_check_modules(SystemC IMPORTED_TARGET systemc)
endif()
find_package(verilator HINTS /usr/share/verilator QUIET)
include(CheckLanguage)
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)  # profile.d puts it on PATH only for login shells
endif()
check_language(CUDA)

set(KDOPCD_HAVE_SYSTEMC ${SystemC_FOUND})
set(KDOPCD_HAVE_VERILATOR ${verilator_FOUND})
if(CMAKE_CUDA_COMPILER AND EXISTS "${CMAKE_CUDA_COMPILER}")  # a named but missing nvcc is "not found"
  set(KDOPCD_HAVE_CUDA ON)
else()
  set(KDOPCD_HAVE_CUDA OFF)
endif()

# CUDA is required only where the toolkit is installed (/usr/local/cuda): a machine without it
# builds everything else, a machine with a broken one fails.
set(KDOPCD_CUDA_EXPECTED OFF)
if(EXISTS /usr/local/cuda/bin/nvcc)
  set(KDOPCD_CUDA_EXPECTED ON)
endif()
foreach(part SYSTEMC VERILATOR CUDA)
  if(KDOPCD_HAVE_${part})
    message(STATUS "kdopcd: ${part} found, its parts are built")
  elseif(KDOPCD_REQUIRE_ALL AND (NOT part STREQUAL "CUDA" OR KDOPCD_CUDA_EXPECTED))
    message(FATAL_ERROR "kdopcd: ${part} not found but KDOPCD_REQUIRE_ALL is ON (run scripts/install-deps.sh)")
  else()
    message(WARNING "kdopcd: ${part} not found, its parts are NOT built")
  endif()
endforeach()
