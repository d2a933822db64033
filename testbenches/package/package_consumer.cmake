# ctest package_consumer: installs the reference library into a fresh prefix, then
#  1. configures, builds and runs testbenches/package/consumer against it with find_package(kdopcd);
#  2. compiles and runs the same main.cpp with only `pkg-config --cflags --libs kdopcd`.
# Run as cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... -DPKG_CONFIG=... -P this file;
# optional: -DBUILD_TYPE=<the build's CMAKE_BUILD_TYPE> -DEXTRA_FLAGS=<compile and link flags, e.g. sanitizers>.
cmake_policy(VERSION 3.25)
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX PKG_CONFIG)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "package_consumer: -D${var}=... missing")
  endif()
endforeach()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message(STATUS "package_consumer: ${what}\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package_consumer: ${what} failed (${rc})")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()
separate_arguments(extra_flags UNIX_COMMAND "${EXTRA_FLAGS}")
run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component kdopcd_ref)

# 1. CMake: find_package(kdopcd CONFIG REQUIRED) and kdopcd::ref.
run_step("configure consumer" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK_DIR}/consumer
         -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
         "-DCMAKE_CXX_FLAGS=${EXTRA_FLAGS}")
# The package found must be the one just installed, not another copy on the system.
file(STRINGS ${WORK_DIR}/consumer/CMakeCache.txt found_dir REGEX "^kdopcd_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found_dir "${found_dir}")
file(REAL_PATH "${found_dir}" found_dir)
file(REAL_PATH ${prefix} real_prefix)
if(NOT found_dir MATCHES "^${real_prefix}/")
  message(FATAL_ERROR "package_consumer: find_package(kdopcd) found ${found_dir}, not the copy in ${prefix}")
endif()
run_step("build consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer -j2)
run_step("run consumer" ${WORK_DIR}/consumer/consumer)

# 2. pkg-config: kdopcd.pc alone is enough to compile and link.
set(ENV{PKG_CONFIG_PATH} "")
file(GLOB_RECURSE pc_files ${prefix}/*/kdopcd.pc)
list(LENGTH pc_files pc_count)
if(NOT pc_count EQUAL 1)
  message(FATAL_ERROR "package_consumer: expected one kdopcd.pc under ${prefix}, found '${pc_files}'")
endif()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run_step("pkg-config" ${PKG_CONFIG} --cflags --libs kdopcd)
string(STRIP "${step_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
# kdopcd.pc locates the prefix from ${pcfiledir}, so its paths read <prefix>/lib/pkgconfig/../../include.
file(REAL_PATH ${prefix}/include prefix_include)
set(have_include OFF)
foreach(flag IN LISTS flags)
  if(flag MATCHES "^-I(.+)$")
    file(REAL_PATH "${CMAKE_MATCH_1}" dir)
    if(dir STREQUAL prefix_include)
      set(have_include ON)
    endif()
  endif()
endforeach()
if(NOT have_include OR NOT "-lkdopcd_ref" IN_LIST flags)
  message(FATAL_ERROR "package_consumer: pkg-config flags lack ${prefix}/include or -lkdopcd_ref: ${flags}")
endif()
run_step("compile with pkg-config flags" ${CXX} -std=c++20 -O2 ${extra_flags} ${SOURCE_DIR}/consumer/main.cpp
         -o ${WORK_DIR}/consumer_pc ${flags})
run_step("run consumer built with pkg-config" ${WORK_DIR}/consumer_pc)
file(REMOVE_RECURSE ${WORK_DIR})
