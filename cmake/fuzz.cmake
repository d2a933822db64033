# The libFuzzer targets (fuzz/, docs/fuzzing.md) as an external project built with clang, and a
# short time-boxed run of each in ctest. Without a clang++ that links -fsanitize=fuzzer it is a
# configure error under KDOPCD_REQUIRE_ALL (scripts/build.sh, CI); elsewhere the targets are not
# built and the test reports "skipped". Where they are built, every exit but 0 fails the test.
option(KDOPCD_FUZZ "build the libFuzzer targets when clang++ with libFuzzer is installed" ON)
set(KDOPCD_FUZZ_SECONDS 3 CACHE STRING "seconds per fuzz target in the ctest run (fuzz.smoke)")

set(KDOPCD_FUZZ_CXX "")
if(KDOPCD_FUZZ)
  find_program(KDOPCD_CLANGXX NAMES clang++ clang++-16 clang++-15 clang++-14)
  if(KDOPCD_CLANGXX)
    set(probe_dir ${CMAKE_BINARY_DIR}/fuzz-probe)
    file(WRITE ${probe_dir}/probe.cpp
         "extern \"C\" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n")
    execute_process(COMMAND ${KDOPCD_CLANGXX} -fsanitize=fuzzer,address ${probe_dir}/probe.cpp -o ${probe_dir}/probe
                    RESULT_VARIABLE probe_result OUTPUT_QUIET ERROR_QUIET)
    if(probe_result EQUAL 0)
      set(KDOPCD_FUZZ_CXX ${KDOPCD_CLANGXX})
    endif()
  endif()
endif()

if(KDOPCD_FUZZ_CXX)
  message(STATUS "kdopcd: libFuzzer found (${KDOPCD_FUZZ_CXX}), the fuzz targets are built")
  include(ExternalProject)
  ExternalProject_Add(kdopcd_fuzz
    SOURCE_DIR ${PROJECT_SOURCE_DIR}/fuzz
    BINARY_DIR ${CMAKE_BINARY_DIR}/fuzz
    CMAKE_ARGS -DCMAKE_CXX_COMPILER=${KDOPCD_FUZZ_CXX} -DCMAKE_BUILD_TYPE=RelWithDebInfo
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON)  # the targets compile ref/ again: rebuild when it changes
  # The parsers of the file formats; the command line's (fuzz_cli) is left to scripts/fuzz.sh, whose
  # build of it costs more than this run may add (fuzz/CMakeLists.txt).
  add_test(NAME fuzz.smoke COMMAND ${PROJECT_SOURCE_DIR}/scripts/fuzz.sh --seconds ${KDOPCD_FUZZ_SECONDS}
                                   --build ${CMAKE_BINARY_DIR}/fuzz
                                   mesh_off mesh_obj mesh_stl mesh_ply poses vectors scene tree_image)
  set_tests_properties(fuzz.smoke PROPERTIES TIMEOUT 600)
elseif(KDOPCD_FUZZ AND KDOPCD_REQUIRE_ALL)
  message(FATAL_ERROR "kdopcd: no clang++ that links -fsanitize=fuzzer but KDOPCD_REQUIRE_ALL is ON "
                      "(run scripts/install-deps.sh: clang, libclang-rt-dev)")
else()
  message(STATUS "kdopcd: no clang++ with libFuzzer (or KDOPCD_FUZZ=OFF): fuzz targets not built, fuzz.smoke is skipped")
  add_test(NAME fuzz.smoke COMMAND sh -c "echo 'fuzz: SKIP: no clang++ with libFuzzer at configure time'; exit 77")
  set_tests_properties(fuzz.smoke PROPERTIES SKIP_RETURN_CODE 77)
endif()
